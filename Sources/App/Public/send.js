// Sending a tap's request so that it never acts twice: a fresh Idempotency-Key per tap, the same
// key for that tap's retries. A retry after a lost answer gets the first answer again.
"use strict";

// Every state-changing request a page's script sends to this shop carries the page's anti-CSRF
// token (the layout's <meta name="csrf-token">, tied to the session) in X-CSRF-Token, which the
// server asks of every write made with a session cookie. `fetch` itself is wrapped, here in the
// script every page loads before its own, so a page's script sends it without a word more.
(() => {
  const token = document.querySelector('meta[name="csrf-token"]')?.content;
  if (!token) return;
  const pageFetch = window.fetch.bind(window);
  window.fetch = (input, init = {}) => {
    const request = input instanceof Request ? input : null;
    const method = (init.method ?? request?.method ?? "GET").toUpperCase();
    const url = new URL(request ? request.url : String(input), location.href);
    if (["GET", "HEAD", "OPTIONS"].includes(method) || url.origin !== location.origin) return pageFetch(input, init);
    const headers = new Headers(init.headers ?? request?.headers);
    headers.set("X-CSRF-Token", token);
    return pageFetch(input, { ...init, headers });
  };
})();

function newIdempotencyKey() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

// POSTs `body` as JSON with an Idempotency-Key, sending it again with the same key when the
// network fails (the answer may have been lost after the server acted). `key`: one the caller
// keeps for a sale it may send again (the counter's), rather than a fresh one for this tap.
async function sendOnce(url, body, { attempts = 3, key = newIdempotencyKey() } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": key },
        body: JSON.stringify(body),
      });
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
}
