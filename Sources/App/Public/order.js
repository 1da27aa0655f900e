// The order screen and its stock screen. Every control carries its model id
// (data-juice, data-step-fruit); the labels are redrawn from data, never from button titles.
"use strict";

const page = JSON.parse(document.getElementById("page-data").textContent);
const strings = page.strings;
let shownVersion = page.version;

const alertDialog = document.getElementById("alert");
const alertMessage = document.getElementById("alert-message");
const alertActions = document.getElementById("alert-actions");
const stockScreen = document.getElementById("stock-screen");
const stockError = document.getElementById("stock-error");

// Counts the stock screen wants saved, per fruit, and the saves on their way.
const wanted = new Map();
const saving = new Map();

function showStock(stock, version) {
  if (version !== undefined) {
    if (version < shownVersion) return;
    shownVersion = version;
  }
  for (const [fruit, count] of Object.entries(stock)) {
    for (const label of document.querySelectorAll(`[data-fruit="${CSS.escape(fruit)}"]`)) {
      label.textContent = count;
    }
    if (!wanted.has(fruit)) showStepper(fruit, count);
  }
}

function showStepper(fruit, count) {
  const output = document.querySelector(`[data-stock-fruit="${CSS.escape(fruit)}"]`);
  if (output) output.textContent = count;
  const field = document.querySelector(`[data-count-fruit="${CSS.escape(fruit)}"]`);
  if (field && document.activeElement !== field) field.value = count;
  for (const button of document.querySelectorAll(`[data-step-fruit="${CSS.escape(fruit)}"]`)) {
    const step = Number(button.dataset.step);
    button.disabled = step < 0 ? count <= 0 : count >= page.maximumCount;
  }
}

function showAlert(message, actions) {
  alertMessage.textContent = message;
  alertActions.replaceChildren(...actions.map(({ label, then }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", () => {
      alertDialog.close();
      if (then) then();
    });
    return button;
  }));
  alertDialog.showModal();
  alertActions.firstChild.focus();
}

async function order(juice) {
  // An order waits for the stock edits on their way, so it meets the counts the screen shows.
  await Promise.all(saving.values());
  let response;
  try {
    response = await sendOnce("/api/orders", { juice });
  } catch {
    return showAlert(strings.failed, [{ label: strings.ok }]);
  }
  const body = await response.json().catch(() => ({}));
  if (response.status === 201) {
    showStock(body.stock, body.version);
    const name = page.juiceNames[juice] ?? juice;
    showAlert(fill(strings.made, { juice: name }), [{ label: strings.ok }]);
  } else if (response.status === 409) {
    // Which fruit is short, by name, with what the juice needs and what is left.
    const lines = (body.shortages ?? []).map(({ fruit, needed, available }) => fill(strings.shortageLine, {
      fruit: page.fruitNames[fruit] ?? fruit, needed, available,
    }));
    showAlert([strings.shortage, ...lines].join("\n"), [
      { label: strings.yes, then: openStockScreen },
      { label: strings.no },
    ]);
  } else {
    showAlert(body.message ?? strings.failed, [{ label: strings.ok }]);
  }
}

function signInToEditStock() {
  const next = "/?stock=open" + (page.language === "en" ? "&lang=en" : "");
  location.href = "/login?reason=stock&next=" + encodeURIComponent(next) + (page.language === "en" ? "&lang=en" : "");
}

function openStockScreen() {
  if (!page.isStaff) {
    // A member is signed in already: signing in again would not help.
    if (page.isSignedIn) return showAlert(strings.staffOnly, [{ label: strings.ok }]);
    return signInToEditStock();
  }
  stockError.textContent = "";
  stockScreen.showModal();
}

function currentStepperCount(fruit) {
  if (wanted.has(fruit)) return wanted.get(fruit);
  return Number(document.querySelector(`[data-stock-fruit="${CSS.escape(fruit)}"]`).textContent);
}

// Each step is saved at once. Quick taps are not lost: the screen keeps the count it wants
// and sends the newest one as soon as the previous save has answered.
function step(fruit, delta) {
  setCount(fruit, Math.min(page.maximumCount, Math.max(0, currentStepperCount(fruit) + delta)));
}

function setCount(fruit, count) {
  stockError.textContent = "";
  wanted.set(fruit, count);
  showStepper(fruit, count);
  save(fruit);
}

// A typed count is saved when the field is left or Enter is pressed; anything but a whole
// number in range is refused on the spot, and the field shows the count again.
function typeCount(field) {
  const fruit = field.dataset.countFruit;
  const text = field.value.trim();
  const count = Number(text);
  if (text === "" || !Number.isInteger(count) || count < 0 || count > page.maximumCount) {
    stockError.textContent = fill(strings.countRange, { max: page.maximumCount });
    field.value = currentStepperCount(fruit);
    return;
  }
  if (count !== currentStepperCount(fruit)) setCount(fruit, count);
}

function save(fruit) {
  if (!saving.has(fruit)) saving.set(fruit, sendWanted(fruit).finally(() => saving.delete(fruit)));
}

async function sendWanted(fruit) {
  try {
    while (wanted.has(fruit)) {
      const count = wanted.get(fruit);
      const response = await fetch(`/api/stock/${encodeURIComponent(fruit)}`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ count }),
      });
      const body = await response.json().catch(() => ({}));
      if (response.status === 401) {
        wanted.delete(fruit);
        return signInToEditStock();
      }
      if (response.status === 403) {
        wanted.delete(fruit);
        stockError.textContent = strings.staffOnly;
        break;
      }
      if (!response.ok) {
        wanted.delete(fruit);
        stockError.textContent = body.message ?? strings.failed;
        break;
      }
      if (wanted.get(fruit) === count) wanted.delete(fruit);
      showStock(body.stock, body.version);
    }
  } catch {
    wanted.delete(fruit);
    stockError.textContent = strings.failed;
  }
}

for (const button of document.querySelectorAll("[data-juice]")) {
  button.addEventListener("click", () => order(button.dataset.juice));
}
for (const button of document.querySelectorAll("[data-step-fruit]")) {
  button.addEventListener("click", () => step(button.dataset.stepFruit, Number(button.dataset.step)));
}
for (const field of document.querySelectorAll("[data-count-fruit]")) {
  field.addEventListener("change", () => typeCount(field));
}
document.getElementById("edit-stock").addEventListener("click", openStockScreen);
document.getElementById("close-stock").addEventListener("click", () => stockScreen.close());

// Live: every change anywhere (another screen, the API, the CLI) redraws the labels.
const live = new EventSource("/api/live");
live.addEventListener("stock", (event) => {
  const { stock, version, low } = JSON.parse(event.data);
  showStock(stock, version);
  showLow(new Set(low ?? []));
});

// Marks each fruit at or below its reorder level, as the server counts it: `data-low` and 부족.
function showLow(low) {
  for (const element of document.querySelectorAll("[data-low-of], [data-fruit]")) {
    element.toggleAttribute("data-low", low.has(element.dataset.lowOf ?? element.dataset.fruit));
  }
  for (const mark of document.querySelectorAll("[data-low-mark]")) {
    mark.hidden = !low.has(mark.dataset.lowMark);
  }
}
live.addEventListener("menu", (event) => {
  const menu = JSON.parse(event.data);
  const sameAs = (names, items) =>
    items.length === Object.keys(names).length && items.every((item) => names[item.id] === item.name[page.language]);
  const onSale = menu.juices.filter((juice) => !juice.retired).map((juice) => `${juice.id}:${juice.price}:${juice.soldOut}`);
  const shown = [...document.querySelectorAll("[data-sale]")].map((price) => price.dataset.sale);
  // A new fruit or juice, a price or 품절 needs the page drawn anew; a new reorder level does not
  // (`stock` marks it).
  if (!sameAs(page.fruitNames, menu.fruits) || !sameAs(page.juiceNames, menu.juices) ||
      onSale.join() !== shown.join()) location.reload();
});

if (new URLSearchParams(location.search).get("stock") === "open") {
  history.replaceState(null, "", location.pathname + (page.language === "en" ? "?lang=en" : ""));
  openStockScreen();
}
