"""The pickup queue (issue 15), end to end with plain HTTP and the CLI against a real server (no browser).

Order numbers (1, 2, 3 … within the shop day), staff moving an order forward, cancelling with the fruit
put back, the queue and its wait, the `queue` live event, Idempotency-Key on the requests that must not
act twice, a restart keeping all of it, the ready-time histogram, and the CLI's queue commands.
"""
from __future__ import annotations

import json
import queue
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from e2e_support import (RECIPES, SEED_STOCK, ShopApi, assert_error, metric_value, open_live_stream,
                         read_lines_into, wait_for)

ORDER_FIELDS = {"id", "number", "day", "status", "pickup", "juice", "time", "statusTime", "actor"}
QUEUE_FIELDS = {"id", "number", "juice", "status", "time", "age", "lines"}  # no name, no money
LIVE_DEADLINE_S = 1.0  # a queue event must reflect a change within this long
CLI_FOLLOW_S = 1.5  # the running server must show a CLI change within about a second
CONCURRENT = 20


class Api(ShopApi):
    """The queue's API."""

    timeout = 10

    def order(self, juice: str = "bananaJuice", pickup: bool | None = True, key: str | None = None) -> requests.Response:
        body = {"juice": juice} if pickup is None else {"juice": juice, "pickup": pickup}
        return self.post("/api/orders", json=body, headers={"Idempotency-Key": key} if key else {})

    def order_ok(self, juice: str = "bananaJuice", pickup: bool | None = True) -> dict:
        """Places an order that must be accepted; returns the order object."""
        response = self.order(juice, pickup)
        assert response.status_code == 201, f"POST /api/orders {juice} answered {response.status_code}: {response.text}"
        return response.json()["order"]

    def read_order(self, id) -> dict:
        response = self.get(f"/api/orders/{id}")
        assert response.status_code == 200, f"GET /api/orders/{id} answered {response.status_code}: {response.text}"
        return response.json()

    def orders(self) -> list[dict]:
        response = self.get("/api/orders")
        assert response.status_code == 200, response.text
        return response.json()

    def queue(self) -> list[dict]:
        return self.list_at("/api/queue")

    def move(self, id, status: str, key: str | None = None) -> requests.Response:
        return self.post(f"/api/orders/{id}/status", json={"status": status},
                         headers={"Idempotency-Key": key} if key else {})

    def move_ok(self, id, status: str) -> dict:
        response = self.move(id, status)
        assert response.status_code == 200, f"moving order {id} to {status} answered {response.status_code}: {response.text}"
        order = response.json()
        assert order["id"] == id and order["status"] == status, order
        return order

    def cancel(self, id, key: str | None = None) -> requests.Response:
        return self.post(f"/api/orders/{id}/cancel", headers={"Idempotency-Key": key} if key else {})


@pytest.fixture
def api_client_class():
    """The class of the `api`, `staff` and `make_member` clients (conftest.py)."""
    return Api


def without(stock: dict, juice: str, times: int = 1) -> dict:
    """`stock` after `times` orders of `juice`."""
    return {fruit: count - times * RECIPES[juice].get(fruit, 0) for fruit, count in stock.items()}


def queue_view(entries: list[dict]) -> list[tuple]:
    """What a queue says apart from the ages, which grow by the second."""
    return [(entry["id"], entry["number"], entry["juice"], entry["status"], entry["time"]) for entry in entries]


def cli_ok(server, *args: str) -> str:
    result = server.cli(*args)
    assert result.returncode == 0, f"juicemaker {' '.join(args)} exited {result.returncode}: {result.stderr}{result.stdout}"
    return result.stdout


# --- numbers and stock at acceptance -------------------------------------------------------------

def test_pickup_order_is_received_with_a_number_and_takes_its_fruit_at_once(api):
    """A pickup order is 201 with the whole order (received, number 1), the stock after it and a version;
    the fruit is gone at acceptance, and GET /api/orders/{id} shows the same order."""
    response = api.order("bananaJuice", pickup=True)

    assert response.status_code == 201, response.text
    body = response.json()
    assert set(body) >= {"order", "stock", "version"}, body
    order = body["order"]
    assert ORDER_FIELDS <= set(order), f"order lacks {ORDER_FIELDS - set(order)}: {order}"
    assert (order["status"], order["pickup"], order["juice"], order["number"]) == ("received", True, "bananaJuice", 1), order
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", order["day"]), order
    assert isinstance(body["version"], int), body
    assert body["stock"] == {**SEED_STOCK, "banana": 8}
    assert api.stock() == {**SEED_STOCK, "banana": 8}
    assert api.read_order(order["id"]) == order


def test_orders_without_pickup_are_picked_up_at_once_and_share_the_numbering(api):
    """Counter orders (no "pickup") are pickedUp with pickup false; both kinds are numbered 1, 2, 3 …
    in the order they were accepted, and only the pickup ones wait in the queue."""
    first = api.order_ok("bananaJuice", pickup=True)
    second = api.order_ok("mangoJuice", pickup=None)
    third = api.order_ok("kiwiJuice", pickup=True)
    fourth = api.order_ok("pineappleJuice", pickup=False)

    assert (second["status"], second["pickup"]) == ("pickedUp", False), second
    assert (fourth["status"], fourth["pickup"]) == ("pickedUp", False), fourth
    assert [order["number"] for order in (first, second, third, fourth)] == [1, 2, 3, 4]
    assert len({order["day"] for order in (first, second, third, fourth)}) == 1
    assert [entry["id"] for entry in api.queue()] == [first["id"], third["id"]]
    assert api.stock() == without(without(without(without(SEED_STOCK, "bananaJuice"), "mangoJuice"), "kiwiJuice"),
                                  "pineappleJuice")


def test_an_unknown_order_is_404(api):
    """GET /api/orders/{id} of no order, or of an id that is no number, is 404 not_found."""
    api.order_ok()
    assert_error(api.get("/api/orders/99999"), 404, code="not_found")
    assert_error(api.get("/api/orders/abc"), 404, code="not_found")


# --- moving an order forward ---------------------------------------------------------------------

def test_only_staff_move_an_order(api, make_member):
    """A guest moving an order is 401, a member (even the one who placed it) 403; it stays received."""
    member = make_member("minji_01")
    order = member.order_ok()

    assert_error(api.move(order["id"], "making"), 401, code="unauthorized")
    assert_error(member.move(order["id"], "making"), 403, code="forbidden")
    assert api.read_order(order["id"])["status"] == "received"


def test_staff_move_an_order_forward_step_by_step_or_skipping(api, staff):
    """received → making → ready → pickedUp one step at a time, or received → ready at once; each answer
    is the order with its new status."""
    stepped, skipped = api.order_ok("bananaJuice"), api.order_ok("kiwiJuice")

    for status in ("making", "ready", "pickedUp"):
        moved = staff.move_ok(stepped["id"], status)
        assert (moved["number"], moved["juice"]) == (stepped["number"], stepped["juice"]), moved
        assert api.read_order(stepped["id"])["status"] == status
    assert staff.move_ok(skipped["id"], "ready")["number"] == skipped["number"]
    assert api.read_order(skipped["id"])["status"] == "ready"


@pytest.mark.parametrize("current, asked", [
    ("making", "received"), ("ready", "making"), ("ready", "received"), ("making", "making"),
    ("received", "received"), ("received", "cancelled"), ("pickedUp", "ready"), ("pickedUp", "pickedUp"),
])
def test_any_other_move_is_409_invalid_transition_with_the_current_status(api, staff, current, asked):
    """Back, to the same status, to cancelled, or on from pickedUp: 409 invalid_transition naming the
    status the order is in, which does not change."""
    order = api.order_ok()
    if current != "received":
        staff.move_ok(order["id"], current)

    body = assert_error(staff.move(order["id"], asked), 409, code="invalid_transition")

    assert body.get("status") == current, body
    assert api.read_order(order["id"])["status"] == current


def test_moving_to_an_unknown_status_is_400(api, staff):
    """{"status": "bogus"} is 400 and the order stays received; moving no order is 404."""
    order = api.order_ok()

    assert_error(staff.move(order["id"], "bogus"), 400)
    assert api.read_order(order["id"])["status"] == "received"
    assert_error(staff.move(99999, "ready"), 404, code="not_found")


# --- cancelling ----------------------------------------------------------------------------------

def cancel_ledger_lines(server, order_id: int) -> list[dict]:
    entries = json.loads(cli_ok(server, "history", "--json"))
    return [entry for entry in entries if entry.get("cause") == "cancel" and entry.get("orderID") == order_id]


def test_a_member_cancels_their_own_received_order_and_gets_the_fruit_back(server, api, make_member):
    """Only the member who placed a received order may cancel it (guest 401, another member 403); the
    cancel puts back exactly the recipe's fruit, writes one `cancel` ledger line per fruit, takes the
    order out of the queue, and cannot be done twice."""
    owner, other = make_member("owner_01"), make_member("other_01")
    before = api.stock()
    order = owner.order_ok("strawberryBananaJuice")  # 10 strawberries and a banana: two fruits back
    assert api.stock() == without(before, "strawberryBananaJuice")

    assert_error(api.cancel(order["id"]), 401)
    assert_error(other.cancel(order["id"]), 403)
    assert api.read_order(order["id"])["status"] == "received"

    response = owner.cancel(order["id"])

    assert response.status_code == 200, response.text
    cancelled = response.json()
    assert (cancelled["id"], cancelled["status"], cancelled["number"]) == (order["id"], "cancelled", order["number"])
    assert api.stock() == before
    assert api.read_order(order["id"])["status"] == "cancelled"
    assert order["id"] not in [entry["id"] for entry in api.queue()]
    lines = cancel_ledger_lines(server, order["id"])
    assert sorted((line["fruit"], line["delta"]) for line in lines) == sorted(
        RECIPES["strawberryBananaJuice"].items()), lines
    assert_error(owner.cancel(order["id"]), 409)
    assert api.stock() == before


def test_staff_cancel_while_received_or_making_but_no_one_once_it_is_ready(server, api, staff, make_member):
    """A member's own order in making is 409 cannot_cancel (status making) for them, but staff cancel
    it (fruit back, ledger line); staff cancel a received order too; a ready order is 409 cannot_cancel
    for staff (status ready) and keeps its fruit taken."""
    member = make_member("minji_01")
    before = api.stock()
    making = member.order_ok("mangoKiwiJuice")
    received = api.order_ok("kiwiJuice")
    ready = api.order_ok("bananaJuice")
    staff.move_ok(making["id"], "making")
    staff.move_ok(ready["id"], "ready")

    body = assert_error(member.cancel(making["id"]), 409, code="cannot_cancel")
    assert body.get("status") == "making", body

    for order in (making, received):
        response = staff.cancel(order["id"])
        assert response.status_code == 200, response.text
        assert response.json()["status"] == "cancelled", response.text
    assert api.stock() == without(before, "bananaJuice")
    assert sorted((line["fruit"], line["delta"]) for line in cancel_ledger_lines(server, making["id"])) == sorted(
        RECIPES["mangoKiwiJuice"].items())

    body = assert_error(staff.cancel(ready["id"]), 409, code="cannot_cancel")
    assert body.get("status") == "ready", body
    assert api.read_order(ready["id"])["status"] == "ready"
    assert api.stock() == without(before, "bananaJuice")
    assert_error(staff.cancel(making["id"]), 409)


# --- the queue and its wait ----------------------------------------------------------------------

def test_the_queue_lists_active_orders_oldest_first_without_names(api, staff):
    """GET /api/queue holds the received, making and ready orders, oldest first, each with id, number,
    juice, status, time, age and its lines only; picked-up, counter and cancelled orders are not in it; the wait
    counts the received and making ones."""
    empty_wait = api.get("/api/queue/wait").json()
    assert empty_wait["ahead"] == 0 and empty_wait["minutes"] >= 1, empty_wait

    received = api.order_ok("bananaJuice")
    api.order_ok("pineappleJuice", pickup=None)  # made at the counter
    making = api.order_ok("kiwiJuice")
    ready = api.order_ok("mangoJuice")
    picked_up = api.order_ok("mangoKiwiJuice")
    cancelled = api.order_ok("bananaJuice")
    staff.move_ok(making["id"], "making")
    staff.move_ok(ready["id"], "ready")
    staff.move_ok(picked_up["id"], "pickedUp")
    assert staff.cancel(cancelled["id"]).status_code == 200

    entries = api.queue()

    for entry in entries:
        assert set(entry) == QUEUE_FIELDS, f"a queue entry has {sorted(entry)}, not {sorted(QUEUE_FIELDS)}: {entry}"
        assert isinstance(entry["age"], int) and entry["age"] >= 0, entry
    assert [(entry["id"], entry["number"], entry["juice"], entry["status"]) for entry in entries] == [
        (order["id"], order["number"], order["juice"], status)
        for order, status in ((received, "received"), (making, "making"), (ready, "ready"))]
    wait = api.get("/api/queue/wait")
    assert wait.status_code == 200, wait.text
    assert wait.json()["ahead"] == 2, wait.json()
    assert isinstance(wait.json()["minutes"], int) and wait.json()["minutes"] >= 1, wait.json()


# --- live updates ----------------------------------------------------------------------------------

class LiveEvents:
    """The events of a live stream, as (name, parsed data), read from the lines a reader thread puts."""

    def __init__(self, lines: queue.Queue):
        self.lines = lines
        self.seen: list[str] = []

    def next(self, deadline: float) -> tuple[str, object] | None:
        name, data = "message", []
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                return None
            self.seen.append(line)
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and data:
                return name, json.loads("\n".join(data))
        return None

    def queue_event(self, within: float, matches, what: str) -> list[dict]:
        """The first `queue` event within `within` seconds whose entries satisfy `matches`."""
        deadline = time.monotonic() + within
        while (event := self.next(deadline)) is not None:
            name, data = event
            if name == "queue" and matches(data):
                return data
        pytest.fail(f"no `queue` event with {what} within {within} s; lines seen:\n" + "\n".join(self.seen[-30:]))


def statuses(entries: list[dict]) -> dict[int, str]:
    return {entry["id"]: entry["status"] for entry in entries}


def test_live_stream_sends_the_queue_at_connect_and_after_each_change(server, api, staff):
    """GET /api/live starts with a `queue` event of the active orders, and within 1 s of a pickup
    order, a status move and a cancel sends one that shows it."""
    first = api.order_ok("bananaJuice")
    with open_live_stream(server) as stream:
        assert stream.status_code == 200
        lines: queue.Queue = queue.Queue()
        read_lines_into(stream, lines)
        events = LiveEvents(lines)
        at_connect = events.queue_event(5, lambda data: True, "anything (the first, at connect)")
        assert statuses(at_connect) == {first["id"]: "received"}, at_connect
        assert set(at_connect[0]) == QUEUE_FIELDS, at_connect

        second = api.order_ok("kiwiJuice")
        events.queue_event(LIVE_DEADLINE_S, lambda data: statuses(data) == {first["id"]: "received", second["id"]: "received"},
                           f"the new order {second['id']} received")

        staff.move_ok(first["id"], "making")
        events.queue_event(LIVE_DEADLINE_S, lambda data: statuses(data) == {first["id"]: "making", second["id"]: "received"},
                           f"order {first['id']} making")

        staff.move_ok(first["id"], "ready")
        events.queue_event(LIVE_DEADLINE_S, lambda data: statuses(data) == {first["id"]: "ready", second["id"]: "received"},
                           f"order {first['id']} ready")

        assert staff.cancel(second["id"]).status_code == 200
        data = events.queue_event(LIVE_DEADLINE_S, lambda data: statuses(data) == {first["id"]: "ready"},
                                  f"order {second['id']} gone after its cancel")
        assert data[0]["number"] == first["number"], data


# --- Idempotency-Key -------------------------------------------------------------------------------

def post_all_at_once(url: str, body: dict, key: str, count: int = CONCURRENT) -> list[requests.Response]:
    """`count` POSTs of the same body and key, from as many threads released together."""
    start = threading.Barrier(count)

    def post() -> requests.Response:
        with requests.Session() as session:
            start.wait(timeout=10)
            return session.post(url, json=body, headers={"Idempotency-Key": key}, timeout=30)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(lambda _: post(), range(count)))


def assert_one_answer(responses: list[requests.Response], status: int) -> bytes:
    """Every answer has `status` and the same body, byte for byte; returns it."""
    assert [response.status_code for response in responses] == [status] * len(responses), (
        [(response.status_code, response.text[:200]) for response in responses])
    bodies = {response.content for response in responses}
    assert len(bodies) == 1, f"{len(bodies)} different bodies for one key:\n" + "\n".join(map(repr, bodies))
    return bodies.pop()


def test_twenty_concurrent_orders_with_one_key_order_once(server, api):
    """20 POST /api/orders sent at once with the same Idempotency-Key make one order and take its fruit
    once; all 20 get the same status and body; a repeat later gets it again marked Idempotent-Replayed."""
    responses = post_all_at_once(server.url + "/api/orders", {"juice": "bananaJuice", "pickup": True}, "tap-0001")

    body = assert_one_answer(responses, 201)
    replayed = sum(response.headers.get("Idempotent-Replayed") == "true" for response in responses)
    print(f"{CONCURRENT - replayed} of {CONCURRENT} answers were fresh, {replayed} replayed")
    assert len(api.orders()) == 1, api.orders()
    assert api.stock() == {**SEED_STOCK, "banana": 8}
    order = json.loads(body)["order"]
    assert [entry["id"] for entry in api.queue()] == [order["id"]]

    again = api.order("bananaJuice", pickup=True, key="tap-0001")
    assert (again.status_code, again.content) == (201, body)
    assert again.headers.get("Idempotent-Replayed") == "true", dict(again.headers)
    assert len(api.orders()) == 1
    assert api.stock() == {**SEED_STOCK, "banana": 8}


def test_a_key_reused_with_another_body_is_422(api):
    """The same Idempotency-Key with a different body is 422 idempotency_key_reused and orders nothing."""
    assert api.order("bananaJuice", key="tap-0002").status_code == 201

    assert_error(api.order("kiwiJuice", key="tap-0002"), 422, code="idempotency_key_reused")
    assert_error(api.order("bananaJuice", pickup=False, key="tap-0002"), 422, code="idempotency_key_reused")
    assert len(api.orders()) == 1
    assert api.stock() == {**SEED_STOCK, "banana": 8}


@pytest.mark.parametrize("key", ["k" * 300, "has space", "탭-한글"], ids=["300-chars", "space", "non-ascii"])
def test_a_malformed_key_is_400_and_orders_nothing(api, key):
    """An Idempotency-Key that is too long or not visible ASCII is 400 invalid_idempotency_key."""
    headers = {"Idempotency-Key": key.encode("utf-8")}  # bytes: requests would refuse non-Latin-1 text
    response = api.post("/api/orders", json={"juice": "bananaJuice", "pickup": True}, headers=headers)

    assert_error(response, 400, code="invalid_idempotency_key")
    assert api.orders() == []
    assert api.stock() == SEED_STOCK


def test_a_refused_order_is_replayed_as_refused_even_after_stock_arrives(api, staff):
    """A first request refused for stock (409 out_of_stock) is answered the same 409 for its key after
    the fruit has come; a new key then orders."""
    first = api.order("strawberryJuice", key="tap-0003")
    assert_error(first, 409, code="out_of_stock")
    assert staff.put("/api/stock/strawberry", json={"count": 100}).status_code == 200

    again = api.order("strawberryJuice", key="tap-0003")

    assert (again.status_code, again.content) == (409, first.content)
    assert again.headers.get("Idempotent-Replayed") == "true", dict(again.headers)
    assert api.orders() == []
    assert api.stock()["strawberry"] == 100
    assert api.order("strawberryJuice", key="tap-0004").status_code == 201
    assert api.stock()["strawberry"] == 84


def test_vending_money_and_purchases_act_once_per_key(server, api):
    """Money put in with one key, twice and then 20 times at once, counts once; a purchase repeated with
    its key sells once."""
    first = api.post("/api/vending/money", json={"amount": 1000}, headers={"Idempotency-Key": "coin-1"})
    assert first.status_code == 200, first.text
    again = api.post("/api/vending/money", json={"amount": 1000}, headers={"Idempotency-Key": "coin-1"})
    assert (again.status_code, again.content) == (200, first.content)
    assert again.headers.get("Idempotent-Replayed") == "true", dict(again.headers)
    assert api.get("/api/vending").json()["balance"] == 1000

    assert_one_answer(post_all_at_once(server.url + "/api/vending/money", {"amount": 1000}, "coin-2"), 200)
    assert api.get("/api/vending").json()["balance"] == 2000

    bought = api.post("/api/vending/purchases", json={"product": "cola"}, headers={"Idempotency-Key": "buy-1"})
    assert bought.status_code == 201, bought.text
    rebought = api.post("/api/vending/purchases", json={"product": "cola"}, headers={"Idempotency-Key": "buy-1"})
    assert (rebought.status_code, rebought.content) == (201, bought.content)
    machine = api.get("/api/vending").json()
    cola = next(product for product in machine["products"] if product["id"] == "cola")
    assert (machine["balance"], cola["stock"]) == (2000 - cola["price"], 4), machine


def test_a_keyed_move_or_cancel_acts_once_and_replays(api, staff):
    """A move repeated with its key after the order moved on replays its first answer (not 409) and
    leaves the order where it is; a refused move back is replayed as refused; a keyed cancel repeated
    is its first answer and puts the fruit back once; the key with another body is 422."""
    before = api.stock()
    order = api.order_ok()
    moved = staff.move(order["id"], "making", key="move-0001")
    assert moved.status_code == 200, moved.text
    staff.move_ok(order["id"], "ready")
    back = staff.move(order["id"], "received", key="move-0002")
    assert_error(back, 409, code="invalid_transition")

    for key, status, first in (("move-0001", "making", moved), ("move-0002", "received", back)):
        again = staff.move(order["id"], status, key=key)
        assert (again.status_code, again.content) == (first.status_code, first.content), again.text
        assert again.headers.get("Idempotent-Replayed") == "true", dict(again.headers)
    assert api.read_order(order["id"])["status"] == "ready"
    assert_error(staff.move(order["id"], "pickedUp", key="move-0001"), 422, code="idempotency_key_reused")
    assert api.read_order(order["id"])["status"] == "ready"

    queued = api.order_ok("kiwiJuice")
    cancelled = staff.cancel(queued["id"], key="cancel-0001")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled", cancelled.text
    again = staff.cancel(queued["id"], key="cancel-0001")
    assert (again.status_code, again.content) == (200, cancelled.content), again.text
    assert again.headers.get("Idempotent-Replayed") == "true", dict(again.headers)
    assert api.stock() == without(before, "bananaJuice")


# --- a restart ---------------------------------------------------------------------------------------

def test_a_restart_keeps_numbers_statuses_the_queue_and_idempotent_answers(start_server):
    """After a graceful stop and a start on the same database every order has its number and status, the
    queue is the same, the next order continues the day's numbering, and a key used before replays."""
    server = start_server()
    api, staff = Api(server.url), Api.signed_in_as_admin(server.url)
    keyed = api.order("bananaJuice", key="tap-restart")
    assert keyed.status_code == 201, keyed.text
    orders = [json.loads(keyed.content)["order"]] + [api.order_ok(juice) for juice in
                                                     ("kiwiJuice", "mangoJuice", "pineappleJuice")]
    orders.append(api.order_ok("mangoKiwiJuice", pickup=None))
    staff.move_ok(orders[1]["id"], "making")
    staff.move_ok(orders[2]["id"], "ready")
    assert staff.cancel(orders[3]["id"]).status_code == 200
    before = {order["id"]: api.read_order(order["id"]) for order in orders}
    queue_before, stock_before = api.queue(), api.stock()
    assert [order["status"] for order in before.values()] == ["received", "making", "ready", "cancelled", "pickedUp"]

    server.stop()
    server.start()

    api = Api(server.url)
    after = {id: api.read_order(id) for id in before}
    assert after == before
    assert queue_view(api.queue()) == queue_view(queue_before)
    assert api.stock() == stock_before
    replayed = api.order("bananaJuice", key="tap-restart")
    assert (replayed.status_code, replayed.content) == (201, keyed.content)
    assert replayed.headers.get("Idempotent-Replayed") == "true", dict(replayed.headers)
    next_order = api.order_ok("bananaJuice")
    assert next_order["number"] == max(order["number"] for order in before.values()) + 1, next_order
    assert next_order["day"] == before[orders[0]["id"]]["day"]


# --- metrics ---------------------------------------------------------------------------------------

def test_the_ready_histogram_counts_each_order_that_becomes_ready(server, api, staff):
    """/metrics has the histogram juicemaker_order_ready_seconds, whose _count grows by one per order
    moved to ready, and not for making or picking up."""
    metrics = api.get("/metrics").text
    assert "# TYPE juicemaker_order_ready_seconds histogram" in metrics, "no histogram juicemaker_order_ready_seconds"
    count = "juicemaker_order_ready_seconds_count"
    assert metric_value(server.url, count) == 0
    first, second = api.order_ok("bananaJuice"), api.order_ok("kiwiJuice")

    staff.move_ok(first["id"], "making")
    assert metric_value(server.url, count) == 0
    staff.move_ok(first["id"], "ready")
    assert metric_value(server.url, count) == 1
    staff.move_ok(first["id"], "pickedUp")
    assert metric_value(server.url, count) == 1
    staff.move_ok(second["id"], "ready")
    assert metric_value(server.url, count) == 2
    assert metric_value(server.url, 'juicemaker_order_ready_seconds_bucket{le="+Inf"}') == 2


# --- the CLI ---------------------------------------------------------------------------------------

def test_cli_queues_moves_and_cancels_orders_and_the_server_follows(server, api):
    """`order --pickup` queues with a number, `queue --json` lists it, `order-status` moves it forward
    (exit 1 backwards, exit 2 for no order or no status), `cancel` puts the fruit back once (exit 1 the
    second time); the running server's queue and stock follow each change within about a second."""
    api.order_ok("kiwiJuice")  # number 1, from the server
    before = api.stock()

    printed = cli_ok(server, "order", "bananaJuice", "--pickup")

    match = re.search(r"(\d+)번.*\(order (\d+)\)", printed)
    assert match, f"no number with 번 and order id in {printed!r}"
    number, id = int(match.group(1)), int(match.group(2))
    assert number == 2, printed
    listed = json.loads(cli_ok(server, "queue", "--json"))
    assert [(order["id"], order["status"]) for order in listed][-1] == (id, "received"), listed
    assert wait_for(lambda: statuses(api.queue()).get(id) == "received", CLI_FOLLOW_S), api.queue()
    assert wait_for(lambda: api.stock() == without(before, "bananaJuice"), CLI_FOLLOW_S), api.stock()

    cli_ok(server, "order-status", str(id), "making")
    assert wait_for(lambda: statuses(api.queue()).get(id) == "making", CLI_FOLLOW_S), api.queue()

    backwards = server.cli("order-status", str(id), "received")
    assert backwards.returncode == 1, (backwards.returncode, backwards.stdout, backwards.stderr)
    reason = backwards.stderr.strip()
    assert reason and "\n" not in reason, f"not a one-line reason: {backwards.stderr!r}"
    for args in (("order-status", "99999", "ready"), ("order-status", str(id), "bogus")):
        result = server.cli(*args)
        assert result.returncode == 2, (args, result.returncode, result.stdout, result.stderr)
        assert result.stderr.strip(), f"juicemaker {' '.join(args)} gave no reason"
    assert api.read_order(id)["status"] == "making"

    cli_ok(server, "cancel", str(id))
    assert wait_for(lambda: id not in statuses(api.queue()), CLI_FOLLOW_S), api.queue()
    assert wait_for(lambda: api.stock() == before, CLI_FOLLOW_S), api.stock()
    assert json.loads(cli_ok(server, "stock", "--json")) == before
    assert api.read_order(id)["status"] == "cancelled"

    again = server.cli("cancel", str(id))
    assert again.returncode == 1, (again.returncode, again.stdout, again.stderr)
    assert api.stock() == before
