// The making screen: a card per active order, oldest first, each line with its cups, options and
// recipe. One tap moves a card on (제조 시작 → 제조 완료 → 픽업 완료); 취소 asks first. New orders
// arrive live, with a sound.
"use strict";

const page = JSON.parse(document.getElementById("page-data").textContent);
const words = page.words;
const language = page.language;
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

// A line as the making screen reads it: `딸바쥬스 ×2 · 사이즈 라지 · 얼음 적게`. Options a cup gets
// unless told otherwise (레귤러, 얼음 보통) are left out: the card says what differs from a plain cup.
function lineLabel(line) {
  const options = line.options.filter((option) => !page.optionGroups[option.group]?.defaults.includes(option.id))
    .map((option) => {
      const group = page.optionGroups[option.group];
      return group ? fill(page.optionLine, { group: group.name, option: option.name[language] }) : option.name[language];
    });
  return [fill(words.cups, { juice: line.name[language], quantity: line.quantity }), ...options].join(" · ");
}

// What one cup of a line takes: the line's fruit over its cups, so a large cup shows its larger recipe.
function cupRecipe(line) {
  return line.uses.map((use) => `${page.fruits[use.fruit] ?? use.fruit} ${use.amount / line.quantity}`).join(" · ");
}

// An order's lines to make; an order from before carts is one cup of its juice by the menu's recipe.
function linesOf(order) {
  if (order.lines?.length) return order.lines.map((line) => ({ label: lineLabel(line), recipe: cupRecipe(line) }));
  const juice = page.juiceNames[order.juice] ?? order.juice;
  return [{ label: fill(words.cups, { juice, quantity: 1 }), recipe: page.recipes[order.juice] ?? "" }];
}

// What an order is, in one line, for the screen reader and the cancel question.
function orderText(order) {
  return linesOf(order).map((line) => line.label).join(", ");
}

function makeCard(order) {
  const card = document.createElement("li");
  card.className = "ticket";
  card.dataset.orderId = order.id;
  card.dataset.time = order.time;
  const number = document.createElement("h2");
  number.className = "ticket-number";
  number.textContent = fill(words.number, { number: order.number });
  const lines = document.createElement("ul");
  lines.className = "ticket-lines";
  lines.append(...linesOf(order).map(({ label, recipe }) => {
    const item = document.createElement("li");
    const juice = document.createElement("p");
    juice.className = "ticket-juice";
    juice.textContent = label;
    const cup = document.createElement("p");
    cup.className = "ticket-recipe";
    cup.textContent = `${words.recipe}: ${recipe}`;
    item.append(juice, cup);
    return item;
  }));
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
  card.append(number, lines, status, age, actions);
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
      fill(words.newOrder, { number: order.number, juice: orderText(order) })).join(", ");
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
    fill(words.cancelQuestion, { number: order.number, juice: orderText(order) });
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
