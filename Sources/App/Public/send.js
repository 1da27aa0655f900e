// Sending a tap's request so that it never acts twice: a fresh Idempotency-Key per tap, the same
// key for that tap's retries. A retry after a lost answer gets the first answer again.
"use strict";

function newIdempotencyKey() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

// POSTs `body` as JSON with an Idempotency-Key, sending it again with the same key when the
// network fails (the answer may have been lost after the server acted).
async function sendOnce(url, body, attempts = 3) {
  const key = newIdempotencyKey();
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
