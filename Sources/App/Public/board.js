// The pickup board: numbers only, preparing (received or making) and ready, following the queue.
"use strict";

const preparing = document.getElementById("preparing");
const ready = document.getElementById("ready");

function numbers(list, orders) {
  list.replaceChildren(...orders.map((order) => {
    const item = document.createElement("li");
    item.dataset.number = order.number;
    item.dataset.orderId = order.id;
    item.textContent = order.number;
    return item;
  }));
}

followQueue((queue) => {
  numbers(preparing, queue.filter((order) => order.status === "received" || order.status === "making"));
  numbers(ready, queue.filter((order) => order.status === "ready"));
});
