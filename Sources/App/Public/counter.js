// The counter screen (주문 받기). The server draws the menu, every option group's choices and the
// dialogs; this script keeps the cart, prices it from the menu as the server does (which prices it
// again: a differing `expectedTotal` is refused), and sends it as one order with its payment.
// The cart is kept in sessionStorage, so the page drawn anew for a changed menu keeps it.
"use strict";

const page = JSON.parse(document.getElementById("page-data").textContent);
const words = page.words;
const language = page.language;
const CART_KEY = "juicemaker-counter";
// Refusals that mean the page's menu is not the server's any more: draw the page anew.
const MENU_CHANGED = new Set(["price_changed", "sold_out", "unknown_juice", "unknown_option", "repeated_option",
  "options_required", "too_many_options"]);

const byId = (id) => document.getElementById(id);
const cartTitle = byId("cart-title");
const cartLines = byId("cart-lines");
const lineTemplate = byId("cart-line");
const optionsDialog = byId("options-dialog");
const optionsForm = byId("options-form");
const payDialog = byId("pay-dialog");
const payForm = byId("pay-form");
const payConfirm = byId("pay-confirm");
const received = byId("received");
const approval = byId("approval");
const doneDialog = byId("done-dialog");
const dialogs = [optionsDialog, payDialog, doneDialog];

// The juices on sale by id, each with its option groups written out, in the juice's order.
function readMenu(raw) {
  const groups = new Map(raw.optionGroups.map((group) => [group.id, group]));
  return new Map(raw.juices.filter((juice) => !juice.retired).map((juice) => [juice.id,
    { ...juice, groups: juice.optionGroups.map((id) => groups.get(id)).filter(Boolean) }]));
}
const menu = readMenu(page.menu);
const menuText = JSON.stringify([...menu.values()]);

// What a cup gets from a group it names nothing of: the first `min` options (레귤러, 얼음 보통).
const defaults = (group) => group.options.slice(0, group.min).map((option) => option.id);

// A line as the menu sells it now — every group's options checked, its unit price and amount —
// or null when the menu no longer does: the juice gone or 품절, an option gone, a count out of bounds.
function price({ juice: id, quantity, options = {} }) {
  const juice = menu.get(id);
  if (!juice || juice.soldOut) return null;
  const chosen = {};
  const named = [juice.name[language]];
  let unitPrice = juice.price;
  for (const group of juice.groups) {
    const ids = options[group.id] ?? defaults(group);
    if (!Array.isArray(ids)) return null;
    const picked = group.options.filter((option) => ids.includes(option.id));
    if (picked.length !== ids.length || picked.length < group.min || picked.length > group.max) return null;
    chosen[group.id] = picked.map((option) => option.id);
    for (const option of picked) {
      unitPrice += option.price;
      // The line names what differs from a plain cup: 사이즈 라지, not 사이즈 레귤러.
      if (!defaults(group).includes(option.id)) {
        named.push(fill(words.optionLine, { group: group.name[language], option: option.name[language] }));
      }
    }
  }
  return { juice: id, quantity, options: chosen, unitPrice, amount: unitPrice * quantity, label: named.join(" · "),
    key: JSON.stringify([id, chosen]) };
}

let cart = [];
const total = () => cart.reduce((sum, line) => sum + line.amount, 0);

function say(text) {
  byId("counter-notice").textContent = text;
}

function complain(text) {
  byId("counter-error").textContent = text;
}

// Redraws the cart, keeping focus on the control it was on (or its neighbour, or the cart's title).
function drawCart() {
  const focused = document.activeElement;
  const where = cartLines.contains(focused) ? { key: focused.closest("li").dataset.key, action: focused.dataset.action } : null;
  cartLines.replaceChildren(...cart.map((line) => {
    const item = lineTemplate.content.firstElementChild.cloneNode(true);
    item.dataset.key = line.key;
    item.querySelector(".line-name").textContent = line.label;
    item.querySelector(".line-unit").textContent = won(line.unitPrice);
    item.querySelector(".line-quantity").textContent = line.quantity;
    item.querySelector(".line-amount").textContent = won(line.amount);
    const fewer = item.querySelector('[data-action="fewer"]');
    const more = item.querySelector('[data-action="more"]');
    fewer.setAttribute("aria-label", fill(words.oneFewer, { line: line.label }));
    more.setAttribute("aria-label", fill(words.oneMore, { line: line.label }));
    item.querySelector('[data-action="remove"]').setAttribute("aria-label", fill(words.removeLine, { line: line.label }));
    fewer.disabled = line.quantity <= page.quantity.min;
    more.disabled = line.quantity >= page.quantity.max;
    return item;
  }));
  byId("cart-empty").hidden = cart.length > 0;
  byId("total").textContent = won(total());
  for (const id of ["pay-cash", "pay-card", "clear-cart"]) byId(id).disabled = cart.length === 0;
  sessionStorage.setItem(CART_KEY, JSON.stringify({ lines: cart.map(({ juice, quantity, options }) => ({ juice, quantity, options })) }));
  if (where) {
    const item = [...cartLines.children].find((line) => line.dataset.key === where.key);
    const target = item && [where.action, "more", "fewer", "remove"]
      .map((action) => item.querySelector(`[data-action="${action}"]`)).find((button) => !button.disabled);
    (target ?? cartTitle).focus();
  }
}

// Adds a cup as `line` names it; the same juice with the same options is one line, one more cup.
function addCup(line) {
  const cup = price({ ...line, quantity: 1 });
  if (!cup) return false;
  const same = cart.find((each) => each.key === cup.key);
  if (same ? same.quantity >= page.quantity.max : cart.length >= page.maximumLines) {
    complain(fill(page.messages.badQuantity, { min: page.quantity.min, max: page.quantity.max, lines: page.maximumLines }));
    return false;
  }
  if (same) setQuantity(same, same.quantity + 1);
  else cart.push(cup);
  complain("");
  say(fill(words.added, { line: cup.label }));
  drawCart();
  return true;
}

function setQuantity(line, quantity) {
  cart[cart.indexOf(line)] = price({ ...line, quantity });
}

cartLines.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const line = cart.find((each) => each.key === button.closest("li").dataset.key);
  if (button.dataset.action === "remove") {
    cart.splice(cart.indexOf(line), 1);
    say(fill(words.removed, { line: line.label }));
  } else {
    setQuantity(line, line.quantity + (button.dataset.action === "more" ? 1 : -1));
  }
  drawCart();
});

byId("clear-cart").addEventListener("click", () => {
  cart = [];
  drawCart();
  cartTitle.focus();
});

// --- A juice's options ------------------------------------------------------------------------

let choosing = null;
const groupFields = (group) => optionsForm.querySelector(`fieldset[data-group="${CSS.escape(group.id)}"]`);

// What the dialog has chosen, per group of the juice: option ids ("" is a radio group's "none").
function chosenOptions() {
  return Object.fromEntries(choosing.groups.map((group) => [group.id,
    [...groupFields(group).querySelectorAll("input:checked")].map((input) => input.value).filter(Boolean)]));
}

function showUnitPrice() {
  const options = chosenOptions();
  const unit = choosing.groups.reduce((sum, group) => sum + group.options
    .filter((option) => options[group.id].includes(option.id)).reduce((extra, option) => extra + option.price, 0), choosing.price);
  byId("unit-price").textContent = fill(words.unitPrice, { price: won(unit) });
}

function openOptions(juice) {
  if (juice.groups.length === 0) return addCup({ juice: juice.id });
  choosing = juice;
  byId("options-title").textContent = juice.name[language];
  for (const fieldset of optionsForm.querySelectorAll("fieldset[data-group]")) fieldset.hidden = true;
  // The juice's groups, in its order, each starting at its defaults.
  const place = byId("unit-price");
  for (const group of juice.groups) {
    const fieldset = groupFields(group);
    const chosen = defaults(group);
    for (const input of fieldset.querySelectorAll("input")) {
      input.checked = input.value === "" ? chosen.length === 0 : chosen.includes(input.value);
    }
    fieldset.querySelector(".error").textContent = "";
    fieldset.hidden = false;
    optionsForm.insertBefore(fieldset, place);
  }
  showUnitPrice();
  optionsDialog.showModal();
  optionsForm.querySelector("fieldset:not([hidden]) input").focus();
}

optionsForm.addEventListener("change", showUnitPrice);

// 담기: every group within its bounds, as the server will check, or the first group wrong says why.
optionsForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const options = chosenOptions();
  let wrong = null;
  for (const group of choosing.groups) {
    const count = options[group.id].length;
    const message = count < group.min ? fill(page.messages.optionsRequired, { group: group.name[language], min: group.min })
      : count > group.max ? fill(page.messages.tooManyOptions, { group: group.name[language], max: group.max }) : "";
    groupFields(group).querySelector(".error").textContent = message;
    if (message && !wrong) wrong = group;
  }
  if (wrong) return groupFields(wrong).querySelector("input").focus();
  if (addCup({ juice: choosing.id, options })) optionsDialog.close();
});

byId("options-cancel").addEventListener("click", () => optionsDialog.close());

for (const button of document.querySelectorAll(".menu-item[data-juice]")) {
  button.addEventListener("click", () => openOptions(menu.get(button.dataset.juice)));
}

// --- Payment ----------------------------------------------------------------------------------

let method = null;
let sending = false;
// The sale's Idempotency-Key, kept while no answer has come for it: the server may have made the
// order, so sending the same sale again gets that answer back and never charges twice. A sale that
// was answered (even refused) or has changed since is sent with a new key.
let unanswered = null;

const receivedAmount = () => (/^\d+$/.test(received.value.trim()) ? Number(received.value.trim()) : null);

// The change (거스름돈) while the cash is typed; 결제하기 only once the cash covers the total.
function showChange() {
  const cash = receivedAmount();
  const due = total();
  byId("change-line").textContent = cash === null ? ""
    : cash >= due ? `${words.change} ${won(cash - due)}` : fill(words.short, { amount: won(due - cash) });
  payConfirm.disabled = sending || (method === "cash" && (cash === null || cash < due));
  byId("pay-cancel").disabled = sending;
}

function openPayment(chosen) {
  method = chosen;
  byId("pay-title").textContent = method === "cash" ? words.cashTitle : words.cardTitle;
  byId("pay-total").textContent = won(total());
  byId("cash-fields").hidden = method !== "cash";
  byId("card-fields").hidden = method !== "card";
  received.value = "";
  approval.value = "";
  byId("pay-error").textContent = "";
  showChange();
  payDialog.showModal();
  (method === "cash" ? received : approval).focus();
}

for (const id of ["pay-cash", "pay-card"]) byId(id).addEventListener("click", (event) => openPayment(event.currentTarget.dataset.method));
received.addEventListener("input", showChange);
for (const button of document.querySelectorAll("[data-cash]")) {
  button.addEventListener("click", () => {
    received.value = button.dataset.cash === "exact" ? total() : button.dataset.cash;
    showChange();
    received.focus();
  });
}
byId("pay-cancel").addEventListener("click", () => payDialog.close());
// A sale on its way keeps its dialog, which shows what came of it.
payDialog.addEventListener("cancel", (event) => {
  if (sending) event.preventDefault();
});

payForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (payConfirm.disabled) return;
  const code = approval.value.trim();
  const body = {
    lines: cart.map(({ juice, quantity, options }) => ({ juice, quantity, options })),
    pickup: true,
    expectedTotal: total(),
    payment: method === "cash" ? { method, received: receivedAmount() } : { method, ...(code ? { approval: code } : {}) },
  };
  const text = JSON.stringify(body);
  if (unanswered?.text !== text) unanswered = { text, key: newIdempotencyKey() };
  sending = true;
  payConfirm.textContent = words.sending;
  showChange();
  let response = null;
  try {
    response = await sendOnce("/api/orders", body, { key: unanswered.key });
  } catch {
    byId("pay-error").textContent = page.failed;
  }
  sending = false;
  payConfirm.textContent = words.pay;
  showChange();
  if (response) answered(response, await response.json().catch(() => ({})));
});

function answered(response, answer) {
  unanswered = null;
  if (response.status === 201) return showDone(answer.order);
  if (response.status === 401) return location.assign(`/login?next=%2Fcounter${language === "en" ? "&lang=en" : ""}`);
  if (MENU_CHANGED.has(answer.error)) return drawAnew(answer.message);
  byId("pay-error").textContent = answer.message ?? page.failed;
}

function showDone(order) {
  cart = [];
  drawCart();
  const { payment } = order;
  byId("done-number").textContent = fill(words.orderNumber, { number: order.number });
  byId("done-payment").textContent = payment.method === "cash"
    ? fill(words.paidCash, { received: won(payment.received), total: won(order.total) })
    : [fill(words.paidCard, { total: won(order.total) }),
      ...(payment.approval ? [fill(words.approvalLine, { approval: payment.approval })] : [])].join(" · ");
  const change = byId("done-change");
  change.textContent = payment.method === "cash" ? `${words.change} ${won(payment.change)}` : "";
  change.hidden = payment.method !== "cash";
  byId("receipt-link").href = `/orders/${encodeURIComponent(order.id)}/receipt${language === "en" ? "?lang=en" : ""}`;
  payDialog.close();
  say("");
  doneDialog.showModal();
  byId("next-order").focus();
}

byId("next-order").addEventListener("click", () => doneDialog.close());
doneDialog.addEventListener("close", () => document.querySelector(".menu-item:not(:disabled)")?.focus());

// --- The menu changing --------------------------------------------------------------------------

// Draws the page anew from the server's menu, keeping the cart (priced anew when the page loads)
// and saying why.
function drawAnew(notice) {
  const saved = JSON.parse(sessionStorage.getItem(CART_KEY) ?? "{}");
  sessionStorage.setItem(CART_KEY, JSON.stringify({ ...saved, notice }));
  location.reload();
}

// A juice's name, retired ones too.
const juiceName = (id) => page.menu.juices.find((juice) => juice.id === id)?.name[language] ?? String(id);

// The cart this tab had, priced by this page's menu; lines it no longer sells are taken out, saying so.
function restoreCart() {
  let saved = {};
  try {
    saved = JSON.parse(sessionStorage.getItem(CART_KEY) ?? "{}");
  } catch {
    // A cart that cannot be read is no cart.
  }
  const notices = saved.notice ? [saved.notice] : [];
  for (const line of Array.isArray(saved.lines) ? saved.lines : []) {
    const priced = line && Number.isInteger(line.quantity) && line.quantity >= page.quantity.min
      && line.quantity <= page.quantity.max ? price(line) : null;
    // Two lines the new menu makes the same (a group gone) become one.
    const same = priced && cart.find((each) => each.key === priced.key);
    if (same) setQuantity(same, Math.min(page.quantity.max, same.quantity + priced.quantity));
    else if (priced && cart.length < page.maximumLines) cart.push(priced);
    else notices.push(fill(words.dropped, { juice: juiceName(line?.juice) }));
  }
  drawCart();
  complain(notices.join(" "));
}

// A menu changed anywhere (메뉴 관리, the CLI) redraws the page, once no dialog is open under the
// staff's hands; a sale sent meanwhile meets the server's check of its total.
let menuChanged = false;
function drawAnewIfChanged() {
  if (menuChanged && !sending && dialogs.every((dialog) => !dialog.open)) drawAnew(cart.length ? words.menuChanged : "");
}
for (const dialog of dialogs) dialog.addEventListener("close", drawAnewIfChanged);
new EventSource("/api/live").addEventListener("menu", (event) => {
  menuChanged = JSON.stringify([...readMenu(JSON.parse(event.data)).values()]) !== menuText;
  drawAnewIfChanged();
});

restoreCart();
