"""The vending machine under concurrent load: many clients inserting money, buying and taking change at
once against one real server. Afterwards every won and every can must be accounted for.
"""
from __future__ import annotations

import random
from collections import Counter

from e2e_support import Clients, check_no_failures, error_code, run_all, unexpected_machine_answers
from vending_support import BALANCE_CAP, PRODUCTS, START_STOCK, VendingApi

WORKERS = 48
PURCHASES = 200
CHANGE_RETURNS = 12
RESTOCK = 100
NOT_RESTOCKED = "fanta"  # left at five cans, so that sold-out refusals race too


def test_concurrent_inserts_purchases_and_change_account_for_every_won_and_can(server):
    staff = VendingApi.signed_in_as_admin(server.url)
    for product in PRODUCTS:
        if product != NOT_RESTOCKED:
            staff.restock_ok(product, RESTOCK)
    prices = staff.prices()
    start = staff.machine()
    start_stock = {product["id"]: product["stock"] for product in start["products"]}
    assert start_stock == {id: START_STOCK + (0 if id == NOT_RESTOCKED else RESTOCK) for id in PRODUCTS}
    assert start["totals"] == {**start["totals"], "inserted": 0, "spent": 0, "returned": 0, "balance": 0}

    clients = Clients(server.url)
    rng = random.Random(20240611)

    def insert_and_buy(amount: int, product: str):
        def task():
            return [clients.call("insert", amount, "POST", "/api/vending/money", {"amount": amount}),
                    clients.call("buy", product, "POST", "/api/vending/purchases", {"product": product})]
        return task

    def give_change():
        return [clients.call("change", None, "POST", "/api/vending/change")]

    tasks = [insert_and_buy(rng.choice([1_000, 5_000]), rng.choice(PRODUCTS)) for _ in range(PURCHASES)]
    tasks += [give_change] * CHANGE_RETURNS
    rng.shuffle(tasks)
    try:
        calls = run_all(tasks, WORKERS)
    finally:
        clients.close()

    check_no_failures(calls)
    inserts = [call for call in calls if call.kind == "insert"]
    buys = [call for call in calls if call.kind == "buy"]
    changes = [call for call in calls if call.kind == "change"]
    assert len(buys) == PURCHASES

    # Every answer is one the contract allows.
    unexpected = unexpected_machine_answers(inserts, buys, changes)
    assert not unexpected, f"{len(unexpected)} unexpected answers, e.g. {unexpected[:5]}"

    accepted_inserts = [call for call in inserts if call.status == 200]
    capped = [call for call in inserts if call.status == 409]
    sold = [call for call in buys if call.status == 201]
    refused = Counter(error_code(call) for call in buys if call.status == 409)
    print(f"inserts: {len(accepted_inserts)} accepted, {len(capped)} at the cap; purchases: {len(sold)} sold, "
          f"refused {dict(refused)}; change returns: {len(changes)}")
    assert sold, "no purchase succeeded"
    for call in sold:
        assert call.body["sale"]["product"] == call.argument, call
        assert call.body["sale"]["price"] == prices[call.argument], call
        assert call.body["balance"] >= 0, call
    for call in accepted_inserts:
        assert 0 <= call.body["balance"] <= BALANCE_CAP, call
    for call in changes:
        assert sum(int(unit) * count for unit, count in call.body["units"].items()) == call.body["returned"], call

    final = staff.machine()
    totals = final["totals"]
    history = staff.history()
    sales = staff.sales()
    print(f"totals {totals}")

    # Money: what went in is what was spent, given back, or is still in the machine.
    assert final["balance"] == totals["balance"] >= 0
    assert totals["inserted"] == totals["spent"] + totals["returned"] + totals["balance"], totals
    assert totals["inserted"] == sum(call.argument for call in accepted_inserts), \
        f"totals.inserted {totals['inserted']} is not the sum of the {len(accepted_inserts)} accepted inserts"
    sold_won = sum(prices[call.argument] for call in sold)
    assert totals["spent"] == sold_won, f"totals.spent {totals['spent']}, accepted purchases cost {sold_won}"
    assert sum(entry["won"] for entry in sales) == sold_won, sales
    assert totals["returned"] == sum(call.body["returned"] for call in changes), totals

    # Sales: each accepted purchase once in the history, nothing else.
    assert len(history) == len(sold), f"{len(sold)} purchases answered 201, the history has {len(history)} sales"
    assert sum(sale["price"] for sale in history) == sold_won
    sold_ids = [call.body["sale"]["id"] for call in sold if "id" in call.body["sale"]]
    if sold_ids and all("id" in sale for sale in history):
        assert len(set(sold_ids)) == len(sold_ids), "two purchases answered with the same sale id"
        assert sorted(sale["id"] for sale in history) == sorted(sold_ids)

    # Cans: what was there, less what was sold, is what is left; never below zero.
    sold_per_product = Counter(call.argument for call in sold)
    assert Counter(sale["product"] for sale in history) == sold_per_product
    units = {entry["product"]: entry["units"] for entry in sales}
    assert {id: units.get(id, 0) for id in PRODUCTS} == {id: sold_per_product[id] for id in PRODUCTS}
    stock = {product["id"]: product["stock"] for product in final["products"]}
    for product in PRODUCTS:
        assert stock[product] >= 0, f"{product} stock is {stock[product]}"
        assert stock[product] == start_stock[product] - sold_per_product[product], (
            f"{product}: {start_stock[product]} − {sold_per_product[product]} sold should leave "
            f"{start_stock[product] - sold_per_product[product]}, the machine says {stock[product]}")
    assert sold_per_product[NOT_RESTOCKED] <= START_STOCK


def test_concurrent_inserts_stop_exactly_at_the_cap(server):
    clients = Clients(server.url)

    def insert():
        return [clients.call("insert", 5_000, "POST", "/api/vending/money", {"amount": 5_000})]

    try:
        calls = run_all([insert] * 64, 32)
    finally:
        clients.close()

    check_no_failures(calls)
    statuses = Counter((call.status, error_code(call)) for call in calls)
    assert statuses == {(200, None): BALANCE_CAP // 5_000, (409, "balance_cap"): 64 - BALANCE_CAP // 5_000}, statuses
    machine = VendingApi(server.url).machine()
    assert machine["balance"] == BALANCE_CAP
    assert machine["totals"]["inserted"] == BALANCE_CAP


def buy_all_at_once(server, product: str, buyers: int) -> Counter:
    """`buyers` customers press buy for `product` at the same moment; counts their (status, error) answers."""
    clients = Clients(server.url)

    def buy():
        return [clients.call("buy", product, "POST", "/api/vending/purchases", {"product": product})]

    try:
        calls = run_all([buy] * buyers, buyers)
    finally:
        clients.close()
    check_no_failures(calls)
    return Counter((call.status, error_code(call)) for call in calls)


def test_concurrent_buyers_of_the_last_five_colas_get_five(server):
    api = VendingApi(server.url)
    api.insert_ok(10_000, 10_000, 10_000, 10_000, 10_000)
    price = api.prices()["cola"]
    statuses = buy_all_at_once(server, "cola", buyers=40)
    assert statuses == {(201, None): START_STOCK, (409, "sold_out"): 40 - START_STOCK}, statuses
    machine = api.machine()
    assert {product["id"]: product["stock"] for product in machine["products"]}["cola"] == 0
    assert machine["balance"] == BALANCE_CAP - START_STOCK * price
    assert len(api.history()) == START_STOCK


def test_concurrent_buyers_cannot_spend_more_than_the_balance(server):
    api = VendingApi(server.url)
    api.insert_ok(5_000)
    price = api.prices()["georgia"]  # 5,000 won pays for floor(5000 / price) of them
    affordable = 5_000 // price
    statuses = buy_all_at_once(server, "georgia", buyers=32)
    assert statuses[(201, None)] == min(affordable, START_STOCK), statuses
    assert set(statuses) <= {(201, None), (409, "insufficient_balance"), (409, "sold_out")}, statuses
    machine = api.machine()
    assert machine["balance"] == 5_000 - statuses[(201, None)] * price >= 0
