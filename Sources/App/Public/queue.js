// The queue as every queue page sees it: the orders served with the page, then each `queue`
// event of the live stream (the active orders, oldest first). `followQueue(draw)` calls `draw`
// with the queue now and after every change.
"use strict";

function followQueue(draw) {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  draw(data.queue ?? []);
  const live = new EventSource("/api/live");
  live.addEventListener("queue", (event) => draw(JSON.parse(event.data)));
  return live;
}
