"""Reliability under load, under kill -9, and against malformed input, on a real server.

Each test is bounded in time and in requests, and talks only to loopback.
"""
import itertools
import json
import random
import signal
import subprocess
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from e2e_support import FRUITS, RECIPES, REPO, ShopServer, deducted, make_server_workdir, server_binary, staff_headers


def ledger_sums(server):
    history = json.loads(server.cli("history", "--json", check=True).stdout)
    sums = Counter()
    for entry in history:
        sums[entry["fruit"]] += entry["delta"]
    return sums


def stock_now(server):
    return json.loads(server.cli("stock", "--json", check=True).stdout)


def set_stock(server, count):
    for fruit in FRUITS:
        server.cli("stock", "set", fruit, str(count), check=True)


def test_thousands_of_concurrent_orders_reconcile_exactly(server):
    """2,400 orders from 64 connections at once: stock, ledger and orders add up exactly,
    and where stock ran short the refusals are 409s, never oversold."""
    set_stock(server, 3000)
    before = stock_now(server)
    juices = [random.choice(list(RECIPES)) for _ in range(2400)]
    local = threading.local()

    def order(juice):
        session = getattr(local, "session", None)
        if session is None:
            session = local.session = requests.Session()
        response = session.post(server.url + "/api/orders", json={"juice": juice}, timeout=30)
        return juice, response.status_code, response.json()

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=64) as pool:
        results = list(pool.map(order, juices))
    assert time.monotonic() - started < 120

    statuses = Counter(status for _, status, _ in results)
    assert set(statuses) <= {201, 409}, statuses
    accepted = [juice for juice, status, _ in results if status == 201]
    accepted_ids = {body["order"]["id"] for _, status, body in results if status == 201}
    assert len(accepted_ids) == len(accepted)

    after = stock_now(server)
    taken = deducted(accepted)
    assert after == {fruit: before[fruit] - taken[fruit] for fruit in FRUITS}
    assert all(count >= 0 for count in after.values())
    recorded = json.loads(server.cli("orders", "--json", check=True).stdout)
    assert {order["id"] for order in recorded} == accepted_ids
    assert ledger_sums(server) == Counter(after)
    # Every refusal was real: at its moment the stock could not make that juice.
    for juice, status, body in results:
        if status == 409:
            assert body["error"] == "out_of_stock" and body["shortages"]


def kill_at_random_moments(shops: list[ShopServer], customer, kills: int, join_timeout: float) -> list[threading.Thread]:
    """Runs `customer(number, stop)` on 16 threads while, `kills` times at a random moment, one of `shops` in
    turn is killed with SIGKILL and started again; then sets `stop` and returns the threads, joined."""
    stop = threading.Event()
    customers = [threading.Thread(target=customer, args=(number, stop), daemon=True) for number in range(16)]
    for thread in customers:
        thread.start()
    try:
        for kill in range(kills):
            time.sleep(random.uniform(0.2, 0.8))
            shop = shops[kill % len(shops)]
            shop.process.send_signal(signal.SIGKILL)
            shop.process.wait()
            shop.start()
        time.sleep(0.5)
    finally:
        stop.set()
        for thread in customers:
            thread.join(timeout=join_timeout)
    return customers


def test_killed_at_random_moments_loses_no_acknowledged_order():
    """Under load, kill -9 the server at 10 random moments and start it again each time:
    every order answered 201 is in the database, and stock reconciles with ledger and orders."""
    binary = server_binary()
    if not binary.is_file():
        pytest.fail(f"the juicemaker binary is missing at {binary}", pytrace=False)
    shop = ShopServer(binary=binary, workdir=make_server_workdir())
    shop.start()
    set_stock(shop, 1_000_000)
    initial = stock_now(shop)
    acknowledged = {}
    lock = threading.Lock()

    def customer(_: int, stop: threading.Event):
        session = requests.Session()
        while not stop.is_set():
            juice = random.choice(list(RECIPES))
            try:
                response = session.post(shop.url + "/api/orders", json={"juice": juice}, timeout=5)
            except requests.RequestException:
                session = requests.Session()
                time.sleep(0.02)
                continue
            if response.status_code == 201:
                with lock:
                    acknowledged[response.json()["order"]["id"]] = juice
            else:
                assert response.status_code == 409, response.text

    kill_at_random_moments([shop], customer, kills=10, join_timeout=10)
    shop.stop()

    recorded = {order["id"]: order["juice"] for order in json.loads(shop.cli("orders", "--json", check=True).stdout)}
    assert len(acknowledged) > 100, "the load made too few orders to mean anything"
    missing = {order_id for order_id in acknowledged if recorded.get(order_id) != acknowledged[order_id]}
    assert not missing, f"{len(missing)} acknowledged orders were lost"
    final = stock_now(shop)
    taken = deducted(recorded.values())
    assert final == {fruit: initial[fruit] - taken[fruit] for fruit in FRUITS}
    assert ledger_sums(shop) == Counter(final)


def test_killed_under_keyed_orders_acts_once_per_key_and_replays_every_acknowledged_answer():
    """Under keyed load (16 clients, each order with its own Idempotency-Key, retried with the same key
    until it is answered), kill -9 the server at random moments and start it again: every acknowledged
    key replays its own answer after the restarts, same status and body; no key acted twice (the orders
    stored are exactly the acknowledged keys' orders); stock reconciles with ledger and orders."""
    binary = server_binary()
    if not binary.is_file():
        pytest.fail(f"the juicemaker binary is missing at {binary}", pytrace=False)
    shop = ShopServer(binary=binary, workdir=make_server_workdir())
    shop.start()
    check_keyed_orders_survive_kill_9([shop])


def check_keyed_orders_survive_kill_9(shops: list[ShopServer], kills: int = 6) -> None:
    """The keyed kill -9 check on running `shops` (one server, or servers sharing one PostgreSQL database):
    clients spread over them, each kill takes one of them down and starts it again; they are stopped at
    the end."""
    set_stock(shops[0], 1_000_000)
    initial = stock_now(shops[0])
    answered = {}  # key -> (status, body)
    lock = threading.Lock()

    def customer(number: int, stop: threading.Event):
        session = requests.Session()
        for count in itertools.count():
            if stop.is_set():
                return
            key = f"kill-{number}-{count}"
            body = {"juice": random.choice(list(RECIPES)), "pickup": True}
            while True:  # the same key until it is answered, as a client's retry
                shop = shops[(number + count) % len(shops)]
                try:
                    response = session.post(shop.url + "/api/orders", json=body, headers={"Idempotency-Key": key},
                                            timeout=5)
                except requests.RequestException:
                    session = requests.Session()
                    time.sleep(0.02)
                    continue
                if response.status_code in (409, 503) and response.json()["error"] in ("request_in_progress", "busy"):
                    time.sleep(0.05)
                    continue
                assert response.status_code == 201, response.text
                with lock:
                    answered[key] = (response.status_code, response.text)
                break

    customers = kill_at_random_moments(shops, customer, kills=kills, join_timeout=30)
    assert not any(thread.is_alive() for thread in customers), "a client's key was never answered"

    assert len(answered) > 100, "the load made too few orders to mean anything"
    replays = requests.Session()
    for key, (status, text) in answered.items():
        body = json.loads(text)
        again = replays.post(shops[0].url + "/api/orders", headers={"Idempotency-Key": key},
                             json={"juice": body["order"]["juice"], "pickup": True}, timeout=10)
        assert (again.status_code, again.text) == (status, text), f"{key} was answered {text}, replayed {again.text}"
        assert again.headers.get("Idempotent-Replayed") == "true"
    for shop in shops:
        shop.stop()
    recorded = {order["id"]: order["juice"] for order in json.loads(shops[0].cli("orders", "--json", check=True).stdout)}
    acknowledged = {json.loads(text)["order"]["id"]: json.loads(text)["order"]["juice"] for _, text in answered.values()}
    assert len(acknowledged) == len(answered), "two keys were answered with one order"
    assert recorded == acknowledged, (
        f"{len(recorded)} orders stored for {len(acknowledged)} acknowledged keys: "
        f"{len(set(recorded) - set(acknowledged))} acted without being acknowledged, "
        f"{len(set(acknowledged) - set(recorded))} acknowledged were lost")
    final = stock_now(shops[0])
    taken = deducted(recorded.values())
    assert final == {fruit: initial[fruit] - taken[fruit] for fruit in FRUITS}
    assert ledger_sums(shops[0]) == Counter(final)


def test_the_api_answers_its_own_description_without_server_errors(server):
    """schemathesis reads /openapi.yaml and sends what it describes, and what it does not:
    no 5xx, and every response matches the document. It signs in as staff, so the staff
    routes are exercised too."""
    staff = staff_headers(server)
    report = subprocess.run(
        ["schemathesis", "--config-file", str(REPO / "Tests/e2e/schemathesis.toml"), "run", server.url + "/openapi.yaml", "--checks", "all", "--header", f"Cookie: {staff['Cookie']}",
         "--header", f"X-CSRF-Token: {staff['X-CSRF-Token']}",
         "--max-examples", "30", "--suppress-health-check", "all", "--request-timeout", "10",
         "--exclude-path", "/api/live", "--exclude-method", "DELETE", "--seed", "1"],
        capture_output=True, text=True, timeout=600, cwd=REPO)
    assert report.returncode == 0, report.stdout[-6000:] + report.stderr[-2000:]
