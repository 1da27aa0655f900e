// The member's home: the event pop-up, What's New images after the text, ordering.
"use strict";

const page = JSON.parse(document.getElementById("page-data").textContent);
const words = page.words;

// The event appears once, as a modal; "hide for today" is remembered on the server.
const event = document.getElementById("event");
if (event) {
  event.showModal();
  document.getElementById("event-close").addEventListener("click", () => event.close());
  document.getElementById("event-hide-today").addEventListener("click", async () => {
    await fetch(`/api/events/${event.dataset.eventId}/hide-today`, { method: "POST" });
    event.close();
  });
}

// Images load only after the text is on screen, each into its own fixed box: the list keeps
// its date order whatever order the images arrive in.
window.addEventListener("load", () => {
  for (const image of document.querySelectorAll("img[data-src]")) {
    image.src = image.dataset.src;
  }
});

const result = document.getElementById("order-result");
const myOrders = document.getElementById("my-orders");

async function refreshRecommendation() {
  const body = await fetch("/api/me/recommendation").then((r) => r.json());
  const line = document.getElementById("recommendation");
  if (!body.juice) return;
  line.hidden = false;
  line.replaceChildren(`${words.recommended}: `);
  const name = document.createElement("strong");
  name.dataset.recommended = body.juice;
  name.textContent = page.juiceNames[body.juice] ?? body.juice;
  line.append(name);
}

for (const button of document.querySelectorAll("[data-juice]")) {
  button.addEventListener("click", async () => {
    const juice = button.dataset.juice;
    const response = await fetch("/api/orders", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ juice }),
    });
    const body = await response.json().catch(() => ({}));
    if (response.status === 201) {
      const name = page.juiceNames[juice] ?? juice;
      result.textContent = fill(words.made, { juice: name });
      const item = document.createElement("li");
      item.dataset.orderJuice = juice;
      item.textContent = `${name} · ${body.order.time.slice(0, 10)}`;
      myOrders.prepend(item);
      document.getElementById("no-orders")?.remove();
      refreshRecommendation();
    } else {
      result.textContent = body.message ?? words.failed;
    }
  });
}

for (const form of document.querySelectorAll("form.post")) {
  form.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const response = await fetch(form.dataset.endpoint, { method: "POST", body: new FormData(form) });
    if (response.status === 201) return location.reload();
    const body = await response.json().catch(() => ({}));
    form.querySelector(".error").textContent = body.message ?? words.failed;
  });
}
