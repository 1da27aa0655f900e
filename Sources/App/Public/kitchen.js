// The making screen: a card per active order, oldest first. One tap moves a card on
// (제조 시작 → 제조 완료 → 픽업 완료); 취소 asks first. New orders arrive live, with a sound.
"use strict";

const page = JSON.parse(document.getElementById("page-data").textContent);
const words = page.words;
const tickets = document.getElementById("tickets");
const noOrders = document.getElementById("no-orders");
const announce = document.getElementById("announce");
const failure = document.getElementById("kitchen-error");
const dialog = document.getElementById("cancel-dialog");

const nextStep = {
  received: { status: "making", label: words.startMaking },
  making: { status: "ready", label: words.finishMaking },
  ready: { status: "pickedUp", label: words.pickedUp },
};
const cards = new Map();
let drawnOnce = false;

function chime() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 880;
    volume.gain.setValueAtTime(0.2, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // No sound where the browser allows none before a tap; the highlight still shows.
  }
}

function makeCard(order) {
  const card = document.createElement("li");
  card.className = "ticket";
  card.dataset.orderId = order.id;
  card.dataset.time = order.time;
  const number = document.createElement("h2");
  number.className = "ticket-number";
  number.textContent = fill(words.number, { number: order.number });
  const juice = document.createElement("p");
  juice.className = "ticket-juice";
  juice.textContent = page.juiceNames[order.juice] ?? order.juice;
  const recipe = document.createElement("p");
  recipe.className = "ticket-recipe";
  recipe.textContent = `${words.recipe}: ${page.recipes[order.juice] ?? ""}`;
  const status = document.createElement("p");
  status.className = "ticket-status";
  const age = document.createElement("p");
  age.className = "ticket-age";
  const actions = document.createElement("div");
  actions.className = "actions";
  const advance = document.createElement("button");
  advance.type = "button";
  advance.className = "advance";
  advance.addEventListener("click", () => move(card, advance.dataset.next));
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "cancel secondary";
  cancel.textContent = words.cancel;
  cancel.addEventListener("click", () => askToCancel(card, order, cancel));
  actions.append(advance, cancel);
  card.append(number, juice, recipe, status, age, actions);
  return card;
}

function update(card, order) {
  card.dataset.status = order.status;
  card.querySelector(".ticket-status").textContent = page.statuses[order.status] ?? order.status;
  const advance = card.querySelector(".advance");
  advance.dataset.next = nextStep[order.status].status;
  advance.textContent = nextStep[order.status].label;
  advance.setAttribute("aria-describedby", `ticket-${order.id}`);
  card.querySelector(".ticket-number").id = `ticket-${order.id}`;
  card.querySelector(".cancel").hidden = order.status === "ready";
}

function showAges() {
  const now = Date.now();
  for (const card of cards.values()) {
    const seconds = Math.max(0, Math.floor((now - Date.parse(card.dataset.time)) / 1000));
    card.querySelector(".ticket-age").textContent =
      fill(words.age, { minutes: Math.floor(seconds / 60), seconds: seconds % 60 });
    card.classList.toggle("late", seconds > page.lateAfterSeconds);
  }
}

function draw(queue) {
  const fresh = [];
  const present = new Set(queue.map((order) => String(order.id)));
  for (const [id, card] of cards) {
    if (!present.has(id)) {
      card.remove();
      cards.delete(id);
    }
  }
  queue.forEach((order, place) => {
    let card = cards.get(String(order.id));
    if (!card) {
      card = makeCard(order);
      cards.set(String(order.id), card);
      if (drawnOnce) fresh.push({ card, order });
    }
    update(card, order);
    // Oldest first; a card already in its place stays put, so a focused button keeps its focus.
    if (tickets.children[place] !== card) tickets.insertBefore(card, tickets.children[place] ?? null);
  });
  noOrders.hidden = queue.length > 0;
  if (fresh.length > 0) {
    chime();
    for (const { card } of fresh) {
      card.classList.add("fresh");
      setTimeout(() => card.classList.remove("fresh"), 4000);
    }
    announce.textContent = fresh.map(({ order }) =>
      fill(words.newOrder, { number: order.number, juice: page.juiceNames[order.juice] ?? order.juice })).join(", ");
  }
  drawnOnce = true;
  showAges();
}

async function post(path, body) {
  failure.textContent = "";
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).catch(() => null);
  if (!response) {
    failure.textContent = page.common.failed;
    return null;
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    failure.textContent = answer.message ?? page.common.failed;
    return null;
  }
  return answer;
}

async function move(card, status) {
  const button = card.querySelector(".advance");
  button.disabled = true;
  const order = await post(`/api/orders/${card.dataset.orderId}/status`, { status });
  button.disabled = false;
  // The live stream redraws the queue; the answer updates the card at once.
  if (order && order.status !== "pickedUp") update(card, order);
  if (order && order.status === "pickedUp") {
    card.remove();
    cards.delete(String(order.id));
    noOrders.hidden = cards.size > 0;
  }
}

let cancelling = null;

function askToCancel(card, order, button) {
  cancelling = { card, button };
  document.getElementById("cancel-question").textContent =
    fill(words.cancelQuestion, { number: order.number, juice: page.juiceNames[order.juice] ?? order.juice });
  dialog.showModal();
  document.getElementById("cancel-no").focus();
}

document.getElementById("cancel-no").addEventListener("click", () => dialog.close());
dialog.addEventListener("close", () => cancelling?.button.isConnected && cancelling.button.focus());
document.getElementById("cancel-yes").addEventListener("click", async () => {
  const { card } = cancelling;
  dialog.close();
  const order = await post(`/api/orders/${card.dataset.orderId}/cancel`);
  if (order) {
    card.remove();
    cards.delete(String(order.id));
    noOrders.hidden = cards.size > 0;
  }
});

followQueue(draw);
setInterval(showAges, 1000);
