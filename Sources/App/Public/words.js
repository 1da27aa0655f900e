// Fills each {name} of a word-table text with its value in one pass, as the server does: a value
// shows as it is, never read for {name}s or replacement patterns ($&) of its own.
"use strict";

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (placeholder, name) => (name in values ? String(values[name]) : placeholder));
}

// Won as the server writes it in both languages (`Won.format`): 6,000원.
function won(amount) {
  return amount.toLocaleString("en-US") + "원";
}
