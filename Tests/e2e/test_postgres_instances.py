"""Two `juicemaker serve` processes on one PostgreSQL database, as behind a load balancer.

They share everything: stock, orders, the ledger, the vending machine's money and items, accounts and
sessions. A change committed through one reaches the other's live stream within a second, and under
thousands of concurrent orders and purchases split between them nothing is sold twice or lost.

Needs $JUICEMAKER_TEST_POSTGRES_URL, a PostgreSQL superuser URL (scripts/test sets it). Each test makes
its own new database there and drops it afterwards.
"""
from __future__ import annotations

import json
import os
import queue
import random
import secrets
import subprocess
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit, urlunsplit

import pytest

from e2e_support import (FRUITS, JUICES, RECIPES, SEED_STOCK, Clients, ShopApi, ShopServer, assert_error,
                         check_no_failures, deducted, error_code, fruit_label, fruit_stock, make_server_workdir,
                         open_live_stream, read_lines_into, refusing_port, run_all, server_binary, stop_all,
                         unexpected_machine_answers)
from test_reliability import check_keyed_orders_survive_kill_9
from vending_support import BALANCE_CAP, PRODUCTS, START_STOCK, VendingApi

POSTGRES_URL_VARIABLE = "JUICEMAKER_TEST_POSTGRES_URL"

SYNC_S = 1.0  # how far one instance may lag behind a change committed through the other
LIVE_S = 1.5  # the contract's second for a live update, plus slack for the test machine

ORDERS = 1_600  # juice orders in the load test, the seven juices in turn
PURCHASES = 400  # vending purchases in the load test, each after a money insert of its own
CHANGE_RETURNS = 16
WORKERS = 64  # concurrent clients, every one talking to both instances
LOAD_DEADLINE_S = 90  # it takes about 25 s here; the rest is for a busy machine
STOCKED_SHARE = 0.9  # fruit for 90% of what the orders need, so that the last ones are refused
RESTOCK = 100
NOT_RESTOCKED = "fanta"  # left at five cans, so that its buyers race for the last ones


# --- a database of its own, and two servers on it ----------------------------------------------------

def psql(admin_url: str, sql: str) -> None:
    result = subprocess.run(["psql", admin_url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"psql {sql!r} failed ({result.returncode}): {result.stderr.strip()}"


def url_of_database(admin_url: str, name: str) -> str:
    """The admin URL with its database path replaced by `name` (user, password, host and options kept)."""
    return urlunsplit(urlsplit(admin_url)._replace(path="/" + name))


@pytest.fixture
def postgres_admin_url() -> str:
    """$JUICEMAKER_TEST_POSTGRES_URL; without it the test fails (it is not skipped)."""
    admin_url = os.environ.get(POSTGRES_URL_VARIABLE)
    if not admin_url:
        pytest.fail(f"${POSTGRES_URL_VARIABLE} is not set: these tests need a PostgreSQL superuser URL such as "
                    f"postgres://user:password@127.0.0.1:5432/postgres?sslmode=disable (scripts/test starts a "
                    f"server and sets it)", pytrace=False)
    return admin_url


@pytest.fixture
def postgres_database(postgres_admin_url):
    """The postgres:// URL of a new, empty database, dropped (with whoever is still connected) afterwards."""
    name = "jm_e2e_" + secrets.token_hex(6)
    psql(postgres_admin_url, f"CREATE DATABASE {name}")
    try:
        yield url_of_database(postgres_admin_url, name)
    finally:
        psql(postgres_admin_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def shops(request, postgres_database):
    """Servers A and B on the same new database, started at the same moment (so both run the migrations
    at once). Both must exit cleanly on SIGTERM at the end, before the database is dropped."""
    binary = server_binary()
    if not binary.is_file():
        pytest.fail(f"the juicemaker binary is missing at {binary}: build it (swift build) or point "
                    f"JUICEMAKER_BIN at one", pytrace=False)
    pair = [ShopServer(binary=binary, workdir=make_server_workdir(), database_url=postgres_database)
            for _ in range(2)]
    request.node.juicemaker_servers = pair
    with ThreadPoolExecutor(max_workers=2) as pool:
        starts = [pool.submit(shop.start) for shop in pair]
    problems = [f"could not start a server: {start.exception()}" for start in starts if start.exception()]
    if problems:
        for shop in pair:
            if shop.process is not None and shop.process.poll() is None:
                shop.process.kill()
                shop.process.wait()
        pytest.fail("\n".join(problems), pytrace=False)
    yield pair
    stop_all(pair)


def vending_state(shop: ShopServer) -> dict:
    """What the machine on this instance says: items left by product, and its money."""
    machine = VendingApi(shop.url).machine()
    return {"stock": {product["id"]: product["stock"] for product in machine["products"]},
            "balance": machine["balance"], "totals": machine["totals"]}


def both_settle_on(shops, read, expected, what: str) -> None:
    """Both instances answer `expected` for `read(shop)` within SYNC_S: the one that did not make the change
    has had its notification by then."""
    deadline = time.monotonic() + SYNC_S
    while True:
        seen = [read(shop) for shop in shops]
        if all(answer == expected for answer in seen):
            return
        if time.monotonic() > deadline:
            pytest.fail(f"{what} is not {expected} on both instances {SYNC_S} s after the last change: "
                        + "; ".join(f"{shop.url} says {answer}" for shop, answer in zip(shops, seen)))
        time.sleep(0.05)


def cli_json(shop: ShopServer, *args: str):
    return json.loads(shop.cli(*args, "--json", check=True).stdout)


def sign_in_staff(shop: ShopServer) -> VendingApi:
    return VendingApi.signed_in_as_admin(shop.url)


# --- thousands of orders and purchases, split between the two ------------------------------------------

def test_thousands_of_orders_and_purchases_split_between_two_instances_reconcile_exactly(shops):
    """1,600 juice orders and 400 money inserts with 400 purchases (plus a few change returns) from 64
    clients, each request going to A or B in turn. Afterwards both instances agree, and stock, orders,
    ledger, money and cans add up exactly: no fruit below zero, no can sold twice, no 5xx."""
    a, b = shops
    both_settle_on(shops, fruit_stock, SEED_STOCK, "the new shop's stock")
    assert len(cli_json(a, "history")) == len(FRUITS), "the seed stock was delivered more than once"

    juices = [JUICES[index % len(JUICES)] for index in range(ORDERS)]
    needed = deducted(juices)
    stocked = {fruit: int(needed[fruit] * STOCKED_SHARE) for fruit in FRUITS}
    staff_on_a, staff_on_b = sign_in_staff(a), sign_in_staff(b)
    for fruit in FRUITS:
        staff_on_a.set_stock(fruit, stocked[fruit])
    for product in PRODUCTS:
        if product != NOT_RESTOCKED:
            staff_on_b.restock_ok(product, RESTOCK)
    cans_before = {product: START_STOCK + (0 if product == NOT_RESTOCKED else RESTOCK) for product in PRODUCTS}
    both_settle_on(shops, fruit_stock, stocked, "the stock set for the load")
    both_settle_on(shops, vending_state, {"stock": cans_before, "balance": 0, "totals": {
        "inserted": 0, "spent": 0, "returned": 0, "balance": 0}}, "the restocked machine")
    prices = staff_on_a.prices()

    clients = [Clients(a.url), Clients(b.url)]
    rng = random.Random(20240612)

    def order(juice: str, instance: int):
        return lambda: [clients[instance].call("order", juice, "POST", "/api/orders", {"juice": juice})]

    def insert_here_and_buy_there(amount: int, product: str, instance: int):
        """Money goes in on one instance and is spent on the other: the balance is the machine's, not a server's."""
        return lambda: [
            clients[instance].call("insert", amount, "POST", "/api/vending/money", {"amount": amount}),
            clients[1 - instance].call("buy", product, "POST", "/api/vending/purchases", {"product": product})]

    def give_change(instance: int):
        return lambda: [clients[instance].call("change", None, "POST", "/api/vending/change")]

    tasks = [order(juice, index % 2) for index, juice in enumerate(juices)]
    tasks += [insert_here_and_buy_there(rng.choice([1_000, 5_000]), rng.choice(PRODUCTS), index % 2)
              for index in range(PURCHASES)]
    tasks += [give_change(index % 2) for index in range(CHANGE_RETURNS)]
    rng.shuffle(tasks)
    try:
        calls = run_all(tasks, WORKERS, deadline_s=LOAD_DEADLINE_S)
    finally:
        for client in clients:
            client.close()
    check_no_failures(calls)
    by_kind = defaultdict(list)
    for call in calls:
        by_kind[call.kind].append(call)
    assert len(by_kind["order"]) + len(by_kind["buy"]) >= 2_000

    check_the_fruit_reconciles(shops, by_kind["order"], stocked)
    check_the_machine_reconciles(shops, by_kind, prices, cans_before)


def check_the_fruit_reconciles(shops, orders, stocked) -> None:
    a, b = shops
    unexpected = [call for call in orders
                  if not (call.status == 201 or (call.status == 409 and error_code(call) == "out_of_stock"))]
    assert not unexpected, (
        f"{len(unexpected)} orders were answered neither 201 nor 409 out_of_stock, e.g. {unexpected[:3]}")
    accepted = {call.body["order"]["id"]: call.argument for call in orders if call.status == 201}
    refused = [call for call in orders if call.status == 409]
    print(f"orders: {len(accepted)} accepted, {len(refused)} refused for want of fruit")
    assert len(accepted) == len(orders) - len(refused), "two accepted orders were given the same id"
    assert refused, "every order was accepted, so running out of fruit was not tested"

    # Stock: what was set, less every accepted order's recipe, on both instances; never below zero.
    taken = deducted(accepted.values())
    expected = {fruit: stocked[fruit] - taken[fruit] for fruit in FRUITS}
    assert all(count >= 0 for count in expected.values()), f"fruit was oversold: {expected}"
    both_settle_on(shops, fruit_stock, expected, "the stock after the load")

    # Every refusal was real: stock only went down, so the fruit it lacked is still short now.
    for call in refused:
        shortages = call.body.get("shortages")
        assert shortages, f"a refusal names no short fruit: {call.body}"
        for shortage in shortages:
            assert shortage["available"] < shortage["needed"], call.body
            assert expected[shortage["fruit"]] <= shortage["available"], (
                f"{call.argument} was refused for want of {shortage['fruit']} ({shortage['available']} left), "
                f"yet {expected[shortage['fruit']]} are left after the load")

    # Orders: exactly the accepted ones are recorded, whichever instance took them.
    recorded = {order["id"]: order["juice"] for order in cli_json(a, "orders")}
    assert len(recorded) == len(accepted), f"{len(accepted)} orders answered 201, {len(recorded)} are recorded"
    assert recorded == accepted, "the recorded orders are not the accepted ones"

    # Ledger: its deltas add up to the stock, and each accepted order took exactly its recipe.
    ledger = cli_json(b, "history")
    sums = Counter()
    for entry in ledger:
        sums[entry["fruit"]] += entry["delta"]
        assert entry["countAfter"] >= 0, f"the ledger shows a fruit below zero: {entry}"
    assert {fruit: sums[fruit] for fruit in FRUITS} == expected, "the ledger does not add up to the stock"
    per_order = defaultdict(dict)
    for entry in ledger:
        if entry["cause"] == "order":
            per_order[entry["orderID"]][entry["fruit"]] = entry["delta"]
    assert set(per_order) == set(accepted), "the ledger's orders are not the accepted ones"
    wrong = {order_id: taken for order_id, taken in per_order.items()
             if taken != {fruit: -count for fruit, count in RECIPES[accepted[order_id]].items()}}
    assert not wrong, f"{len(wrong)} orders took other than their recipe, e.g. {list(wrong.items())[:3]}"


def check_the_machine_reconciles(shops, by_kind, prices, cans_before) -> None:
    a, _ = shops
    inserts, buys, changes = by_kind["insert"], by_kind["buy"], by_kind["change"]
    unexpected = unexpected_machine_answers(inserts, buys, changes)
    assert not unexpected, f"{len(unexpected)} unexpected answers from the machine, e.g. {unexpected[:5]}"

    taken_in = [call for call in inserts if call.status == 200]
    sold = [call for call in buys if call.status == 201]
    print(f"vending: {len(taken_in)} of {len(inserts)} inserts taken, {len(sold)} of {len(buys)} purchases sold, "
          f"refused {dict(Counter(error_code(call) for call in buys if call.status == 409))}")
    assert sold, "no purchase succeeded"
    for call in taken_in:
        assert 0 <= call.body["balance"] <= BALANCE_CAP, f"an insert left the balance at {call.body['balance']}"
    for call in sold:
        assert call.body["sale"]["product"] == call.argument, call
        assert call.body["sale"]["price"] == prices[call.argument], call

    # No can sold twice: every sale took its own item, and no product sold more than it had.
    items = [call.body["sale"]["itemID"] for call in sold]
    assert len(set(items)) == len(items), f"{len(items) - len(set(items))} items were sold twice"
    sold_per_product = Counter(call.argument for call in sold)
    assert sold_per_product[NOT_RESTOCKED] <= START_STOCK, (
        f"{sold_per_product[NOT_RESTOCKED]} {NOT_RESTOCKED} sold, it had {START_STOCK}")

    # Money: what went in was spent, given back, or is still the balance; on both instances.
    inserted = sum(call.argument for call in taken_in)
    spent = sum(prices[call.argument] for call in sold)
    returned = sum(call.body["returned"] for call in changes)
    balance = inserted - spent - returned
    assert balance >= 0, f"inserted {inserted} − spent {spent} − returned {returned} is below zero"
    expected = {"stock": {product: cans_before[product] - sold_per_product[product] for product in PRODUCTS},
                "balance": balance,
                "totals": {"inserted": inserted, "spent": spent, "returned": returned, "balance": balance}}
    both_settle_on(shops, vending_state, expected, "the machine after the load")

    # Sales: each accepted purchase once, with the item it was answered with.
    history = VendingApi(a.url).history()
    assert len(history) == len(sold), f"{len(sold)} purchases answered 201, the history has {len(history)} sales"
    assert sorted(sale["id"] for sale in history) == sorted(call.body["sale"]["id"] for call in sold)
    assert sorted(sale["itemID"] for sale in history) == sorted(items)
    assert sum(sale["price"] for sale in history) == spent


def test_racing_buyers_split_between_instances_get_exactly_what_is_left(shops):
    """Three mangoes make one mango juice: of 20 orders at once, half on each instance, exactly one is made.
    Five colas: of 40 buyers at once, half on each instance, exactly five get one, each a different can."""
    a, b = shops
    sign_in_staff(b).set_stock("mango", 3)
    both_settle_on(shops, lambda shop: fruit_stock(shop)["mango"], 3, "mango")

    clients = [Clients(a.url), Clients(b.url)]

    def order_mango_juice(instance: int):
        return lambda: [clients[instance].call("order", "mangoJuice", "POST", "/api/orders", {"juice": "mangoJuice"})]

    def buy_cola(instance: int):
        return lambda: [clients[instance].call("buy", "cola", "POST", "/api/vending/purchases", {"product": "cola"})]

    try:
        orders = run_all([order_mango_juice(index % 2) for index in range(20)], 20)
        VendingApi(a.url).insert_ok(*[10_000] * (BALANCE_CAP // 10_000))
        both_settle_on(shops, lambda shop: vending_state(shop)["balance"], BALANCE_CAP, "the balance")
        buys = run_all([buy_cola(index % 2) for index in range(40)], 40)
    finally:
        for client in clients:
            client.close()

    check_no_failures(orders + buys)
    outcomes = Counter((call.status, error_code(call)) for call in orders)
    assert outcomes == {(201, None): 1, (409, "out_of_stock"): 19}, outcomes
    both_settle_on(shops, lambda shop: fruit_stock(shop)["mango"], 0, "mango")
    made = [call.body["order"]["id"] for call in orders if call.status == 201]
    assert [order["id"] for order in cli_json(b, "orders")] == made

    outcomes = Counter((call.status, error_code(call)) for call in buys)
    assert outcomes == {(201, None): START_STOCK, (409, "sold_out"): 40 - START_STOCK}, outcomes
    items = {call.body["sale"]["itemID"] for call in buys if call.status == 201}
    assert len(items) == START_STOCK, f"{START_STOCK} colas were sold but only {len(items)} different cans"
    price = VendingApi(a.url).prices()["cola"]

    def colas_and_balance(shop):
        state = vending_state(shop)
        return state["stock"]["cola"], state["balance"]

    both_settle_on(shops, colas_and_balance, (0, BALANCE_CAP - START_STOCK * price), "the colas left and the balance")
    assert {sale["itemID"] for sale in VendingApi(b.url).history()} == items


# --- live updates across instances ----------------------------------------------------------------

def wait_for_data(lines: queue.Queue, wanted, until: float, seen: list[str], event: str | None = None) -> bool:
    """Reads stream lines into `seen` until a `data:` line's JSON (of an `event` event, when given) satisfies
    `wanted`, or time `until` passes."""
    current = None
    while (remaining := until - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=remaining)
        except queue.Empty:
            return False
        seen.append(line)
        if line.startswith("event:"):
            current = line[len("event:"):].strip()
        elif line.startswith("data:") and event in (None, current):
            try:
                data = json.loads(line[len("data:"):])
            except ValueError:
                continue
            if (event is not None or isinstance(data, dict)) and wanted(data):
                return True
    return False


def test_an_order_and_a_coin_on_one_instance_reach_the_other_instances_stream_and_page(shops, browser):
    """B's /api/live stream and B's order screen show an order made on A, and B's stream shows money put
    into the machine on A, within the contract's second (1.5 s here)."""
    from playwright.sync_api import expect

    a, b = shops
    context = browser.new_context(locale="ko-KR", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(b.url + "/")
        banana_on_b = fruit_label(page, "banana")
        expect(banana_on_b).to_have_text("10")
        # The page's live channel is up once an order on its own instance shows (pineapple 10 → 8).
        assert ShopApi(b.url).post("/api/orders", json={"juice": "pineappleJuice"}).status_code == 201
        expect(fruit_label(page, "pineapple")).to_have_text("8", timeout=3_000)

        with open_live_stream(b) as stream:
            assert stream.status_code == 200
            lines: queue.Queue = queue.Queue()
            read_lines_into(stream, lines)
            seen: list[str] = []
            assert wait_for_data(lines, lambda data: "stock" in data, time.monotonic() + 3, seen), (
                "B's live stream sent no stock when it opened; lines seen:\n" + "\n".join(seen))

            response = ShopApi(a.url).post("/api/orders", json={"juice": "bananaJuice"})
            assert response.status_code == 201, response.text
            ordered_at = time.monotonic()
            assert wait_for_data(lines, lambda data: data.get("stock", {}).get("banana") == 8,
                                 ordered_at + LIVE_S, seen), (
                f"B's live stream did not show the order made on A (banana 8) within {LIVE_S} s; lines seen:\n"
                + "\n".join(seen))
            left_ms = max(100, int((ordered_at + LIVE_S - time.monotonic()) * 1000))
            expect(banana_on_b).to_have_text("8", timeout=left_ms)

            VendingApi(a.url).insert_ok(1_000)
            inserted_at = time.monotonic()
            assert wait_for_data(lines, lambda data: "products" in data and data.get("balance") == 1_000,
                                 inserted_at + LIVE_S, seen), (
                f"B's live stream did not show 1,000 won put in on A within {LIVE_S} s; lines seen:\n"
                + "\n".join(seen[-10:]))
    finally:
        context.close()


def test_the_queue_moves_on_one_instance_reach_the_other_instances_stream_and_board(shops, browser):
    """An order for pickup taken on A, moved and cancelled on B: each server's `queue` event follows the
    other's change within LIVE_S, the board on B shows the number, and the same Idempotency-Key sent to
    both servers makes one order."""
    from playwright.sync_api import expect

    a, b = shops
    context = browser.new_context(locale="ko-KR", viewport={"width": 1280, "height": 720})
    try:
        board = context.new_page()
        board.goto(b.url + "/board")
        with open_live_stream(b) as stream:
            lines: queue.Queue = queue.Queue()
            read_lines_into(stream, lines)
            seen: list[str] = []
            key = {"Idempotency-Key": "one-tap-two-servers"}
            first = ShopApi(a.url).post("/api/orders", json={"juice": "kiwiJuice", "pickup": True}, headers=key)
            again = ShopApi(b.url).post("/api/orders", json={"juice": "kiwiJuice", "pickup": True}, headers=key)
            assert first.status_code == 201 and again.content == first.content, (first.text, again.text)
            order = first.json()["order"]
            ordered_at = time.monotonic()
            in_queue = lambda entries: any(entry["id"] == order["id"] for entry in entries)  # noqa: E731
            assert wait_for_data(lines, in_queue, ordered_at + LIVE_S, seen, event="queue"), (
                f"B's stream did not show A's order in the queue within {LIVE_S} s:\n" + "\n".join(seen[-10:]))
            expect(board.locator("#preparing li")).to_have_text([str(order["number"])], timeout=1_000)
            staff = sign_in_staff(b)
            assert staff.post(f"/api/orders/{order['id']}/status", json={"status": "ready"}).status_code == 200
            expect(board.locator("#ready li")).to_have_text([str(order["number"])], timeout=1_000)
        both_settle_on(shops, lambda shop: ShopApi(shop.url).get("/api/queue").json()[0]["status"], "ready",
                       "the order's status")
        assert [o["juice"] for o in ShopApi(a.url).get("/api/orders").json()] == ["kiwiJuice"], "one key, one order"
    finally:
        context.close()


def test_killed_under_keyed_orders_on_two_instances_each_key_acts_once_and_replays(shops):
    """test_reliability's keyed kill -9 check on two instances sharing the database: a client's retry
    may reach the other instance, where the key's row decides inside the order's own transaction."""
    check_keyed_orders_survive_kill_9(shops)


# --- sessions across instances -----------------------------------------------------------------

def test_a_day_closed_on_one_instance_is_closed_on_both_and_verifies(shops):
    """Orders and a purchase on both servers, the day closed on A: B refuses a second close with 409,
    lists the same report, and `days verify` recomputes it from the shared database."""
    a, b = shops
    for shop, juice in ((a, "kiwiJuice"), (b, "mangoJuice"), (b, "bananaJuice")):
        assert ShopApi(shop.url).post("/api/orders", json={"juice": juice}).status_code == 201
    buyer = ShopApi(b.url)
    assert buyer.post("/api/vending/money", json={"amount": 5000}).status_code == 200
    assert buyer.post("/api/vending/purchases", json={"product": "cola"}).status_code == 201
    closed = sign_in_staff(a).post("/api/days/close")
    assert closed.status_code == 201, closed.text
    report = closed.json()
    assert report["totals"]["made"] == 3 and report["sales"]["cola"]["units"] == 1
    assert_error(sign_in_staff(b).post("/api/days/close"), 409, code="day_already_closed")
    assert sign_in_staff(b).get("/api/days").json() == [report]
    verified = b.cli("days", "verify")
    assert verified.returncode == 0, verified.stderr


def test_a_keyed_body_with_a_nul_byte_is_refused_once_and_replayed_on_the_other_instance(shops):
    """A body with a NUL byte is no JSON: 400 on A, kept with its key, and its retry on B is that answer
    again. PostgreSQL's text cannot hold a NUL, so the key keeps the request's fingerprint, not its
    text (which made this a 500)."""
    a, b = shops
    body = b'{"juice":"banana\x00Juice","pickup":true}'
    headers = {"Content-Type": "application/json", "Idempotency-Key": "tap-nul"}
    first = ShopApi(a.url).post("/api/orders", data=body, headers=headers)
    assert_error(first, 400, code="bad_json")

    again = ShopApi(b.url).post("/api/orders", data=body, headers=headers)

    assert again.status_code == 400 and again.content == first.content, again.text
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert_error(ShopApi(b.url).post("/api/orders", data=b"{}", headers=headers), 422, code="idempotency_key_reused")


def test_a_session_made_on_one_instance_works_on_the_other_until_signed_out_there(shops):
    """Signed in on A, the same cookie is the same staff member on B; signing out on B ends it on A."""
    a, b = shops
    on_a = ShopApi.signed_in_as_admin(a.url)
    cookie = on_a.http.cookies.get("juicemaker_session")
    assert cookie, f"signing in set no juicemaker_session cookie: {on_a.http.cookies}"
    me = on_a.get("/api/me")
    assert me.status_code == 200, me.text

    on_b = ShopApi(b.url)
    assert_error(on_b.get("/api/me"), 401)
    on_b.http.cookies.set("juicemaker_session", cookie)
    on_b_me = on_b.get("/api/me")
    assert on_b_me.status_code == 200, f"A's session is not known on B: {on_b_me.status_code} {on_b_me.text}"
    assert on_b_me.json() == me.json()
    on_b.set_stock("kiwi", 42)
    both_settle_on(shops, lambda shop: fruit_stock(shop)["kiwi"], 42, "kiwi")

    signed_out = on_b.delete("/api/session")
    assert signed_out.status_code in (200, 204), signed_out.text
    assert_error(on_a.get("/api/me"), 401)
    assert_error(on_a.put("/api/stock/kiwi", json={"count": 5}), 401)
    assert fruit_stock(a)["kiwi"] == 42

    accounts = cli_json(a, "users", "list")
    assert [account["username"] for account in accounts].count("admin") == 1, (
        f"two servers starting at once made the admin account twice: {accounts}")


# --- a database that cannot be used ---------------------------------------------------------------

def run_juicemaker(tmp_path, command: list[str], url: str) -> subprocess.CompletedProcess:
    """`juicemaker COMMAND --database URL` in an empty directory; fails the test if it runs past 15 s."""
    arguments = [*command, "--port", "0"] if command[0] == "serve" else command
    env = {key: value for key, value in os.environ.items() if key != "JUICEMAKER_DATABASE"}
    try:
        return subprocess.run([str(server_binary()), *arguments, "--database", url], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`juicemaker {' '.join(command)} --database {url}` was still running after 15 s")


def one_error_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), (
        f"wanted one `error:` line on stderr (exit status {result.returncode}), got:\n{result.stderr}")
    return lines[0]


COMMANDS = pytest.mark.parametrize("command", [["serve", "--host", "127.0.0.1"], ["stock"]], ids=["serve", "stock"])


@COMMANDS
@pytest.mark.parametrize("url", ["postgres://nope", "postgres://"])
def test_a_malformed_postgres_url_is_refused_at_once_with_a_one_line_reason(tmp_path, command, url):
    """A URL without user, host or database is a usage error (exit 2) with one `error:` line, not a hang,
    not a stack trace, and not a SQLite file called `postgres:`."""
    result = run_juicemaker(tmp_path, command, url)
    assert result.returncode == 2, f"exit status {result.returncode}, wanted 2\nstderr: {result.stderr}"
    assert "database url" in one_error_line(result).lower(), f"the error does not say the URL is wrong: {result.stderr}"
    assert list(tmp_path.iterdir()) == [], f"it made files: {list(tmp_path.iterdir())}"


@COMMANDS
@pytest.mark.parametrize("problem", ["wrong password", "no such database", "nothing listening"])
def test_a_postgres_server_that_refuses_is_reported_at_once_with_its_reason(tmp_path, postgres_admin_url,
                                                                            command, problem):
    """A well-formed URL the server refuses ends the command within seconds (not after retrying for a
    minute) with one `error:` line that says why. Where no server listens (PostgreSQL not up yet),
    `serve` waits `--database-wait` seconds first, saying `waiting for PostgreSQL`, and its last line
    says why it gave up; the CLI answers at once that the database does not answer (exit 1)."""
    parts = urlsplit(postgres_admin_url)

    def with_netloc(netloc: str) -> str:
        return urlunsplit(parts._replace(netloc=netloc))

    with refusing_port() as closed_port:  # bound, not listening: held so that nothing else can take it
        if problem == "wrong password":
            url = with_netloc(f"{parts.username}:not-the-password@{parts.hostname}:{parts.port}")
            reason = "password"
        elif problem == "no such database":
            url, reason = url_of_database(postgres_admin_url, "jm_e2e_never_made"), "does not exist"
        else:
            url, reason = with_netloc(f"{parts.username}:{parts.password}@127.0.0.1:{closed_port}"), "refused"
        waits = problem == "nothing listening" and command[0] == "serve"
        started = time.monotonic()
        result = run_juicemaker(tmp_path, [*command, "--database-wait", "2"] if waits else command, url)
        took = time.monotonic() - started
    assert result.returncode != 0, f"exit status 0 for a database that cannot be used\nstderr: {result.stderr}"
    if waits:
        assert result.returncode == 1 and "waiting for PostgreSQL" in result.stderr, result.stderr
        line = result.stderr.strip().splitlines()[-1]
        assert line.startswith("error:") and "--database-wait" in line, line
    elif problem == "nothing listening":
        assert result.returncode == 1, f"exit status {result.returncode}, wanted 1\nstderr: {result.stderr}"
        line = one_error_line(result)
        reason = "데이터베이스가 응답하지 않아요"
    else:
        line = one_error_line(result)
    assert reason in line.lower(), f"the error does not say {reason!r}: {line}"
    assert "not-the-password" not in line and parts.password not in line, f"the error shows a password: {line}"
    assert took < 10, f"it took {took:.1f} s to give up"
