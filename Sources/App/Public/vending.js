// The vending machine's screen. Every control carries its product id (data-buy, data-restock);
// the whole screen is redrawn from the machine's state, whichever screen or client changed it.
"use strict";

const page = JSON.parse(document.getElementById("page-data").textContent);
const words = page.words;
const came = document.getElementById("came");
const details = document.getElementById("details");
let shownVersion = page.version;
let balance = 0;

function showMachine(machine) {
  if (machine.version < shownVersion) return;
  shownVersion = machine.version;
  balance = machine.balance;
  document.querySelector("[data-balance]").textContent = `${words.balance}: ${won(machine.balance)}`;
  for (const product of machine.products) {
    const count = document.querySelector(`[data-product="${CSS.escape(product.id)}"]`);
    if (count) count.textContent = product.stock;
    const buy = document.querySelector(`[data-buy="${CSS.escape(product.id)}"]`);
    if (buy) buy.disabled = product.stock === 0 || product.price > machine.balance;
    // 품절 says nothing is left to sell, which a disabled button alone would not tell from too little money.
    const soldOut = document.querySelector(`[data-sold-out="${CSS.escape(product.id)}"]`);
    if (soldOut) soldOut.hidden = product.stock > 0;
  }
}

// Answers the JSON of a request that succeeded; otherwise throws the server's message, or the
// page's own words when the server was not reached.
async function send(method, url, body) {
  let response;
  try {
    // Money and purchases are sent once whatever the network does; the rest are safe to repeat.
    response = method === "POST" && (url.endsWith("/money") || url.endsWith("/purchases"))
      ? await sendOnce(url, body)
      : await fetch(url, {
        method,
        headers: { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
  } catch {
    throw new Error(words.failed);
  }
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(json.message ?? words.failed);
  return json;
}

function say(headline, text = "") {
  came.textContent = headline;
  details.textContent = text;
}

async function act(work) {
  say("");
  try {
    await work();
  } catch (error) {
    say("", error.message);
  }
}

async function refreshHistoryAndChart() {
  const [history, chart] = await Promise.all([
    fetch("/api/vending/history?limit=20").then((r) => r.json()),
    fetch(`/vending/chart?lang=${page.language}`).then((r) => r.text()),
  ]);
  document.getElementById("history").replaceChildren(...history.map((sale) => {
    const item = document.createElement("li");
    item.textContent = `${page.names[sale.product] ?? sale.product} · ${won(sale.price)}`;
    return item;
  }));
  document.querySelector("[data-sales-chart]").innerHTML = chart;
}

for (const button of document.querySelectorAll("[data-insert]")) {
  button.addEventListener("click", () => act(async () => {
    showMachine(await send("POST", "/api/vending/money", { amount: Number(button.dataset.insert) }));
  }));
}

for (const button of document.querySelectorAll("[data-buy]")) {
  button.addEventListener("click", () => act(async () => {
    const receipt = await send("POST", "/api/vending/purchases", { product: button.dataset.buy });
    showMachine(receipt.machine);
    const name = page.names[button.dataset.buy] ?? button.dataset.buy;
    say(fill(words.came, { product: name }), receipt.descriptions[page.language] ?? receipt.description);
    await refreshHistoryAndChart();
  }));
}

document.getElementById("return-change").addEventListener("click", () => act(async () => {
  const change = await send("POST", "/api/vending/change");
  const units = Object.entries(change.units)
    .sort((a, b) => Number(b[0]) - Number(a[0]))
    .map(([unit, count]) => `${won(Number(unit))} × ${count}`)
    .join(", ");
  say("", `${words.returned}: ${won(change.returned)}${units ? ` (${units})` : ""}`);
  balance = 0;
  document.querySelector("[data-balance]").textContent = `${words.balance}: ${won(0)}`;
  for (const buy of document.querySelectorAll("[data-buy]")) buy.disabled = true;
}));

// Staff restock in a dialog of the page: how many, 1 to the most one restock may add. The dialog
// holds the focus while open and gives it back to the product's button when it closes.
const restock = document.getElementById("restock");
let restocking = null;
for (const button of document.querySelectorAll("[data-restock]")) {
  button.addEventListener("click", () => {
    restocking = button;
    document.getElementById("restock-title").textContent =
      fill(words.restockTitle, { product: page.names[button.dataset.restock] ?? button.dataset.restock });
    document.getElementById("restock-error").textContent = "";
    const count = document.getElementById("restock-count");
    count.value = "1";
    restock.showModal();
    count.select();
  });
}
if (restock) {
  restock.addEventListener("close", () => restocking?.focus());
  document.getElementById("restock-close").addEventListener("click", () => restock.close());
  document.getElementById("restock-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const count = Number(document.getElementById("restock-count").value);
    const error = document.getElementById("restock-error");
    if (!Number.isInteger(count) || count < 1 || count > page.maximumRestock) {
      error.textContent = `${words.restockCount}: ${fill(words.restockRange, { max: page.maximumRestock })}`;
      return;
    }
    try {
      showMachine(await send("POST", "/api/vending/stock", { product: restocking.dataset.restock, count }));
      restock.close();
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
}

const live = new EventSource("/api/live");
live.addEventListener("vending", (event) => {
  const machine = JSON.parse(event.data);
  const sold = machine.version > shownVersion;
  showMachine(machine);
  if (sold) refreshHistoryAndChart();
});
