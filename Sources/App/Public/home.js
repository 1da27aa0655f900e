// The member's home: the event pop-up, What's New images after the text, ordering for pickup
// and following each order through the queue until it is ready.
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

const queueWords = page.queueWords;
const myQueue = document.getElementById("my-queue");
const banner = document.getElementById("ready-banner");
const waitLine = document.getElementById("queue-wait");
// The member's orders being followed, by id: each as the queue last showed it.
const mine = new Map(page.mine.map((order) => [String(order.id), order]));

function juiceName(juice) {
  return page.juiceNames[juice] ?? juice;
}

function drawMine() {
  myQueue.replaceChildren(...[...mine.values()].map((order) => {
    const item = document.createElement("li");
    item.dataset.orderId = order.id;
    item.dataset.status = order.status;
    const line = document.createElement("span");
    line.className = "my-order-line";
    line.textContent = fill(queueWords.yourOrder, {
      number: order.number, juice: juiceName(order.juice), status: page.statuses[order.status] ?? order.status,
    });
    item.append(line);
    if (order.status === "received") {
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.className = "cancel secondary";
      cancel.textContent = queueWords.cancel;
      cancel.setAttribute("aria-label", `${queueWords.cancel}: ${fill(queueWords.number, { number: order.number })}`);
      cancel.addEventListener("click", () => cancelOrder(order));
      item.append(cancel);
    }
    return item;
  }));
  notifyButton.hidden = mine.size === 0 || !("Notification" in window) || Notification.permission !== "default";
}

// Browser notifications, only once the member asked for them.
const notifyButton = document.createElement("button");
notifyButton.type = "button";
notifyButton.id = "notify";
notifyButton.className = "secondary";
notifyButton.textContent = queueWords.notify;
notifyButton.hidden = true;
notifyButton.addEventListener("click", async () => {
  await Notification.requestPermission();
  drawMine();
});
myQueue.after(notifyButton);

function announceReady(order) {
  const text = fill(queueWords.readyBanner, { number: order.number });
  banner.textContent = text;
  banner.hidden = false;
  if ("Notification" in window && Notification.permission === "granted") {
    new Notification(text, { body: juiceName(order.juice), tag: `order-${order.id}` });
  }
}

async function cancelOrder(order) {
  const response = await fetch(`/api/orders/${order.id}/cancel`, { method: "POST" }).catch(() => null);
  const body = await response?.json().catch(() => ({}));
  if (response?.ok) {
    mine.delete(String(order.id));
    result.textContent = fill(queueWords.cancelled, { number: order.number });
    drawMine();
  } else {
    result.textContent = body?.message ?? words.failed;
  }
}

let waitAsked = null;
function refreshWait() {
  // One question at a time: changes that come meanwhile are answered by the next.
  if (waitAsked) return;
  waitAsked = fetch("/api/queue/wait").then((r) => r.json()).then((wait) => {
    waitLine.textContent = fill(queueWords.waitLine, { ahead: wait.ahead, minutes: wait.minutes });
  }).catch(() => {}).finally(() => { waitAsked = null; });
}

async function follow(queue) {
  const active = new Map(queue.map((order) => [String(order.id), order]));
  for (const [id, order] of mine) {
    const now = active.get(id) ?? await fetch(`/api/orders/${id}`).then((r) => r.json()).catch(() => null);
    if (!now || !now.status) continue;
    if (now.status === "ready" && order.status !== "ready") announceReady(now);
    if (now.status === "pickedUp" || now.status === "cancelled") {
      mine.delete(id);
    } else {
      mine.set(id, { ...order, status: now.status });
    }
  }
  drawMine();
  refreshWait();
}

for (const button of document.querySelectorAll("[data-juice]")) {
  button.addEventListener("click", async () => {
    const juice = button.dataset.juice;
    button.disabled = true;
    const response = await sendOnce("/api/orders", { juice, pickup: true }).catch(() => null);
    button.disabled = false;
    const body = await response?.json().catch(() => ({}));
    if (response?.status === 201) {
      const order = body.order;
      result.textContent = fill(queueWords.orderReceived, { number: order.number, juice: juiceName(juice) });
      mine.set(String(order.id), order);
      drawMine();
      refreshWait();
      const item = document.createElement("li");
      item.dataset.orderJuice = juice;
      const line = `${juiceName(juice)} · ${order.day}`;
      const receipt = document.createElement("a");
      receipt.href = fill(page.receiptPath, { id: order.id });
      receipt.textContent = words.receipt;
      receipt.setAttribute("aria-label", fill(words.receiptOf, { order: line }));
      item.append(`${line} `, receipt);
      myOrders.prepend(item);
      document.getElementById("no-orders")?.remove();
      refreshRecommendation();
    } else {
      result.textContent = body?.message ?? words.failed;
    }
  });
}

drawMine();
followQueue(follow);

for (const form of document.querySelectorAll("form.post")) {
  form.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const response = await fetch(form.dataset.endpoint, { method: "POST", body: new FormData(form) });
    if (response.status === 201) return location.reload();
    const body = await response.json().catch(() => ({}));
    form.querySelector(".error").textContent = body.message ?? words.failed;
  });
}
