"""Faults a shop will meet (issue 53), made to happen for real and checked from the database afterwards.

- A full disk: a SQLite shop on a small size-limited tmpfs (`mount -t tmpfs -o size=…`, as root), filled
  until writes are refused, then freed. Refusals are 503 `storage_full` in the reader's language, pages,
  reads and live streams are served meanwhile, `/health` and `juicemaker_refused_writes_total` say so, the
  CLI exits 1 with one line, orders are taken again without a restart, and the file holds exactly the
  orders acknowledged, its `PRAGMA integrity_check` ok.
- PostgreSQL going away: the cluster scripts/test started ($JUICEMAKER_TEST_POSTGRES_URL), restarted with
  `pg_ctl restart -m fast` and then `-m immediate` (a crash) under keyed orders from two servers. Refusals
  come only during the outage, each a prompt 503 `storage_unavailable`; both servers order again within 2 s
  of PostgreSQL's return; every acknowledged order is in the database and no key acted twice; stock adds
  up; each server's `/api/stock` and a new live stream say the database's stock; both stop on SIGTERM.
- A server started before its database waits for it (`serve --database-wait`), or gives up in one line.
"""
from __future__ import annotations

import errno
import glob
import json
import os
import queue
import sqlite3
import subprocess
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from e2e_support import (FRUITS, JUICES, ShopApi, ShopServer, assert_error, deducted, make_server_workdir,
                         metric_value, open_live_stream, read_lines_into, refusing_port, server_binary, stop_all,
                         wait_for)
from test_postgres_instances import postgres_admin_url, postgres_database  # noqa: F401 (fixtures)

DISK_SIZE = "4m"  # the shop's file, its WAL and the filler share it
ORDERS_BEFORE = 20  # taken before the disk fills
MOST_ORDERS_TO_FILL = 400  # orders tried on the full disk until one is refused (WAL room is used up first)
REFUSAL_S = 1.0  # the contract: a refusal within a second
STOCK = 100_000  # each fruit, so that no order is refused for want of fruit


# --- a small disk of its own -----------------------------------------------------------------------

@contextmanager
def small_disk(folder: Path, size: str = DISK_SIZE):
    """A tmpfs of `size` mounted on `folder` (this test runs as root, as CI does), unmounted afterwards even
    when the test fails (lazily, should a process still hold a file there)."""
    if os.geteuid() != 0:
        pytest.fail("mounting a tmpfs needs root (CI runs the tests as root)", pytrace=False)
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)], check=True,
                   capture_output=True, text=True, timeout=30)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], capture_output=True, timeout=30)


def fill(path: Path) -> int:
    """Writes zeros to `path` until the disk has no room left (ENOSPC): big pieces, then pages. Returns the bytes written."""
    written = 0
    with open(path, "wb", buffering=0) as filler:
        for piece in (1 << 16, 1 << 12, 1 << 9):
            while True:
                try:
                    written += filler.write(b"\0" * piece)
                except OSError as error:
                    assert error.errno == errno.ENOSPC, error
                    break
    return written


# --- the full disk ---------------------------------------------------------------------------------

def order(client: requests.Session, url: str, juice: str, language: str = "ko") -> tuple[requests.Response, float]:
    started = time.monotonic()
    response = client.post(url + "/api/orders", json={"juice": juice}, timeout=10,
                           headers={"Accept-Language": language})
    return response, time.monotonic() - started


def test_a_full_disk_refuses_writes_clearly_serves_pages_and_recovers_without_a_restart(start_server, tmp_path):
    with small_disk(tmp_path / "disk") as disk:
        shop = start_server(database_url=str(disk / "shop.sqlite"))
        staff = ShopApi.signed_in_as_admin(shop.url)
        for fruit in FRUITS:
            staff.set_stock(fruit, STOCK)
        guest = requests.Session()
        acknowledged: list[tuple[int, str]] = []  # (order id, juice) of every 201

        def take(juice: str, language: str = "ko") -> tuple[requests.Response, float]:
            response, seconds = order(guest, shop.url, juice, language)
            if response.status_code == 201:
                acknowledged.append((response.json()["order"]["id"], juice))
            return response, seconds

        for index in range(ORDERS_BEFORE):
            response, _ = take(JUICES[index % len(JUICES)])
            assert response.status_code == 201, response.text

        filled = fill(disk / "filler")
        print(f"filled the {DISK_SIZE} disk with {filled} bytes")
        refusals, slowest = [], 0.0
        for index in range(MOST_ORDERS_TO_FILL):
            response, seconds = take(JUICES[index % len(JUICES)])
            if response.status_code != 201:
                assert_error(response, 503, code="storage_full")
                refusals.append(seconds)
                slowest = max(slowest, seconds)
                if len(refusals) >= 5:
                    break
        assert refusals, f"{MOST_ORDERS_TO_FILL} orders on a full disk were all taken"
        print(f"{len(acknowledged) - ORDERS_BEFORE} orders taken on the full disk before the first refusal; "
              f"refusals took {', '.join(f'{s * 1000:.0f}' for s in refusals)} ms")
        assert slowest <= REFUSAL_S, f"a refusal took {slowest:.2f} s"

        # Said in the reader's language, and never acknowledged.
        english = assert_error(take("bananaJuice", "en")[0], 503, code="storage_full")
        korean = assert_error(take("bananaJuice", "ko")[0], 503, code="storage_full")
        assert english["message"] == "The shop's storage is full; nothing was changed.", english
        assert "저장 공간" in korean["message"], korean
        assert_error(staff.http.put(shop.url + "/api/stock/kiwi", json={"count": 5}, timeout=5), 503,
                     code="storage_full")  # a staff write too

        # Reads, pages and live streams are served; /health and the metric say what is wrong.
        assert guest.get(shop.url + "/api/menu", timeout=5).status_code == 200
        assert guest.get(shop.url + "/", timeout=5).status_code == 200
        assert staff.get("/kitchen").status_code == 200
        assert staff.get("/api/stock").json()["kiwi"] != 5
        with open_live_stream(shop) as stream:
            assert stream.status_code == 200
            lines: queue.Queue = queue.Queue()
            read_lines_into(stream, lines)
            deadline = time.monotonic() + 5
            while not (line := lines.get(timeout=max(0.01, deadline - time.monotonic()))).startswith("event:"):
                pass
            print(f"the live stream, opened on the full disk, says {line!r}")
        health = guest.get(shop.url + "/health", timeout=5, headers={"Accept-Language": "en"})
        assert health.status_code == 503, health.text
        assert health.json()["status"] == "refusing_writes" and health.json()["cause"] == "storage_full", health.text
        assert health.json()["message"] == english["message"]
        counted = metric_value(shop.url, "juicemaker_refused_writes_total")
        assert counted is not None and counted >= len(refusals) + 3, f"juicemaker_refused_writes_total is {counted}"
        assert 'cause="storage_full"' in requests.get(shop.url + "/metrics", timeout=5).text

        # The CLI says so in one line and exits 1.
        cli = shop.cli("order", "bananaJuice")
        assert cli.returncode == 1, (cli.returncode, cli.stdout, cli.stderr)
        assert len(cli.stderr.strip().splitlines()) == 1 and "저장 공간" in cli.stderr, cli.stderr

        # Space comes back: orders are taken again, without a restart.
        (disk / "filler").unlink()
        freed_at = time.monotonic()
        response, _ = take("bananaJuice")
        assert response.status_code == 201, f"an order right after freeing space answered {response.status_code}: {response.text}"
        print(f"taking orders again {(time.monotonic() - freed_at) * 1000:.0f} ms after the file was deleted")
        for index in range(ORDERS_BEFORE):
            assert take(JUICES[index % len(JUICES)])[0].status_code == 201
        assert guest.get(shop.url + "/health", timeout=5).json() == {"status": "ok"}
        stock_seen = staff.stock()
        shop.stop()

        # From the file itself: exactly the acknowledged orders, stock that adds up, a file that checks clean.
        with sqlite3.connect(f"file:{disk / 'shop.sqlite'}?mode=ro", uri=True) as db:
            stored = dict(db.execute("SELECT id, juice_id FROM juice_order").fetchall())
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stock = dict(db.execute("SELECT id, count FROM fruit").fetchall())
        db.close()
        assert stored == dict(acknowledged), (
            f"{len(acknowledged)} orders acknowledged, {len(stored)} stored; acknowledged and missing: "
            f"{sorted(set(dict(acknowledged)) - set(stored))[:10]}, stored and never acknowledged: "
            f"{sorted(set(stored) - set(dict(acknowledged)))[:10]}")
        used = deducted(juice for _, juice in acknowledged)
        assert stock == {fruit: STOCK - used[fruit] for fruit in FRUITS} == stock_seen


# --- PostgreSQL going away and coming back ----------------------------------------------------------

PROMPT_S = 2.0  # the longest a refusal may take while PostgreSQL is away
BACK_S = 2.0  # how soon after PostgreSQL accepts connections again both servers take orders
SETTLE_S = 2.0  # how soon after the load each server's stock equals the database's
LOAD_WORKERS = 6  # clients per server
STEADY_S = 3.0  # keyed load before, between and after the restarts
MOST_KEYS = 20_000  # a bound on the load, whatever the machine's speed


def psql_rows(url: str, sql: str) -> list[list[str]]:
    """The rows `sql` gives, each a list of its columns as text (psql's unaligned output)."""
    result = subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-At", "-F", "\t", "-c", sql],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"psql {sql!r} failed ({result.returncode}): {result.stderr.strip()}"
    return [line.split("\t") for line in result.stdout.splitlines()]


class Cluster:
    """The PostgreSQL cluster behind $JUICEMAKER_TEST_POSTGRES_URL, restarted, stopped and started with its own
    pg_ctl as its owner (postgres, when the tests run as root), as scripts/test-postgres does. `pg_ctl
    restart` starts it again with the options it was started with (postmaster.opts), even from stopped."""

    def __init__(self, admin_url: str):
        self.admin_url = admin_url
        self.data = psql_rows(admin_url, "SHOW data_directory")[0][0]
        pg_ctls = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        assert pg_ctls, "PostgreSQL's pg_ctl is not installed (scripts/install-test-tools installs it)"
        self.pg_ctl = pg_ctls[-1]
        # Beside the data, where scripts/test-postgres keeps the server's log; its owner may write there.
        self.log = str(Path(self.data).parent / "server.log")

    def ctl(self, *args: str) -> float:
        """Runs pg_ctl with `args` and waits for it; returns the monotonic time it returned."""
        owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        # The server pg_ctl starts writes to its log file, never to a pipe of ours (which it would hold open).
        result = subprocess.run([*owner, self.pg_ctl, "--pgdata", self.data, "--log", self.log, "--wait", *args],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                timeout=120)
        if result.returncode != 0:
            log = Path(self.log).read_text(errors="replace").splitlines()[-20:]
            pytest.fail(f"pg_ctl {' '.join(args)} failed ({result.returncode}); its log ends:\n" + "\n".join(log))
        return time.monotonic()

    def restart(self, mode: str) -> tuple[float, float]:
        """`pg_ctl restart -m mode`: when it began, and when PostgreSQL accepted connections again."""
        began = time.monotonic()
        return began, self.ctl("restart", "--mode", mode)

    def stop(self) -> None:
        self.ctl("stop", "--mode", "fast")

    def start(self) -> float:
        return self.ctl("restart", "--mode", "fast")

    def is_up(self) -> bool:
        return subprocess.run(["pg_isready", "-d", self.admin_url], capture_output=True, timeout=30).returncode == 0


@pytest.fixture
def cluster(postgres_admin_url):
    """The tests' PostgreSQL cluster, running again when the test ends whatever the test did to it."""
    made = Cluster(postgres_admin_url)
    yield made
    if not made.is_up():
        made.start()


@dataclass
class Answer:
    """One keyed order's request as a client saw it."""
    server: int  # 0 or 1
    key: str
    started: float  # monotonic
    seconds: float
    status: int | None  # None: no answer (the connection failed)
    body: object


class KeyedLoad:
    """Clients ordering juice on both servers, each order with an `Idempotency-Key` of its own, sent again
    with the same key after a refusal until it is taken, as a careful client does. Every answer is kept."""

    def __init__(self, shops: list[ShopServer]):
        self.shops = shops
        self.answers: list[Answer] = []
        self.taken: dict[str, tuple[int, str]] = {}  # key -> (order id, juice)
        self.unfinished: list[tuple[int, str, str]] = []  # (server, key, juice) not taken when the load ended
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.keys = 0
        self.pool = ThreadPoolExecutor(max_workers=LOAD_WORKERS * len(shops))
        self.workers = [self.pool.submit(self.client, index % len(shops), index)
                        for index in range(LOAD_WORKERS * len(shops))]

    def client(self, server: int, index: int) -> None:
        session = requests.Session()
        url = self.shops[server].url + "/api/orders"
        turn = index
        while not self.stopping.is_set():
            with self.lock:
                if self.keys >= MOST_KEYS:
                    return
                self.keys += 1
            key, juice = str(uuid.uuid4()), JUICES[turn % len(JUICES)]
            turn += 1
            while True:  # the same key until it is taken (or the load ends, and `finish` sends it again)
                answer = self.send(session, server, url, key, juice)
                if answer.status == 201:
                    break
                if self.stopping.is_set():
                    with self.lock:
                        self.unfinished.append((server, key, juice))
                    return
                time.sleep(0.05)

    def send(self, session: requests.Session, server: int, url: str, key: str, juice: str) -> Answer:
        started = time.monotonic()
        try:
            response = session.post(url, json={"juice": juice}, timeout=30, headers={"Idempotency-Key": key})
            is_json = "json" in response.headers.get("Content-Type", "")
            status, body = response.status_code, (response.json() if is_json else response.text[:300])
        except requests.RequestException as error:
            status, body = None, f"{type(error).__name__}: {error}"
        answer = Answer(server, key, started, time.monotonic() - started, status, body)
        with self.lock:
            self.answers.append(answer)
            if status == 201:
                taken = (body["order"]["id"], juice)
                earlier = self.taken.setdefault(key, taken)
                assert earlier == taken, f"key {key} was answered with orders {earlier} and {taken}"
        return answer

    def finish(self) -> None:
        """Stops the clients, then sends every key not yet taken again until it is."""
        self.stopping.set()
        for worker in self.workers:
            worker.result(timeout=60)
        self.pool.shutdown()
        session = requests.Session()
        for server, key, juice in self.unfinished:
            answer = self.send(session, server, self.shops[server].url + "/api/orders", key, juice)
            assert answer.status == 201, f"key {key} sent again after the load answered {answer.status}: {answer.body}"

    def first_taken_after(self, server: int, moment: float) -> float | None:
        """When the first order sent to `server` after `moment` was taken."""
        with self.lock:
            times = [a.started + a.seconds for a in self.answers
                     if a.server == server and a.status == 201 and a.started >= moment]
        return min(times) if times else None


def live_stock(shop: ShopServer) -> dict:
    """The stock the first `stock` event of a new live stream carries."""
    with open_live_stream(shop) as stream:
        lines: queue.Queue = queue.Queue()
        read_lines_into(stream, lines)
        deadline = time.monotonic() + 5
        event = None
        while time.monotonic() < deadline:
            line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "stock":
                return json.loads(line.split(":", 1)[1])["stock"]
    pytest.fail(f"no stock event on a new live stream of {shop.url} within 5 s")


def database_stock(url: str) -> dict:
    return {fruit: int(count) for fruit, count in psql_rows(url, "SELECT id, count FROM fruit")}


def test_two_servers_ride_out_postgresql_restarting_fast_and_crashing_under_keyed_orders(cluster, postgres_database):
    binary = server_binary()
    shops = [ShopServer(binary=binary, workdir=make_server_workdir(), database_url=postgres_database) for _ in range(2)]
    try:
        for shop in shops:
            shop.start()
        staff = ShopApi.signed_in_as_admin(shops[0].url)
        for fruit in FRUITS:
            staff.set_stock(fruit, STOCK)
        assert wait_for(lambda: all(ShopApi(shop.url).stock() == {f: STOCK for f in FRUITS} for shop in shops), 2)

        load = KeyedLoad(shops)
        outages = []
        try:
            for mode in ("fast", "immediate"):
                time.sleep(STEADY_S)
                began, back = cluster.restart(mode)
                outages.append((mode, began, back))
                print(f"pg_ctl restart -m {mode}: PostgreSQL away for {back - began:.2f} s")
            time.sleep(STEADY_S)
        finally:
            load.finish()
        check_the_outages(load, outages, len(shops))

        # From the database itself: exactly the acknowledged orders, each key acting once.
        stored = {int(order_id): juice
                  for order_id, juice in psql_rows(postgres_database, "SELECT id, juice_id FROM juice_order")}
        acknowledged = dict(load.taken.values())
        assert stored == acknowledged, (
            f"{len(acknowledged)} orders acknowledged, {len(stored)} stored; acknowledged and missing: "
            f"{sorted(set(acknowledged) - set(stored))[:10]}, stored and never acknowledged (a key acting twice): "
            f"{sorted(set(stored) - set(acknowledged))[:10]}")
        kept = int(psql_rows(postgres_database, "SELECT count(*) FROM idempotent_request WHERE status = 201")[0][0])
        assert kept == len(load.taken), f"{kept} keys kept with an order, {len(load.taken)} keys taken"
        used = deducted(stored.values())
        expected = {fruit: STOCK - used[fruit] for fruit in FRUITS}
        assert database_stock(postgres_database) == expected

        # Each server says the database's stock, in /api/stock and on a new live stream.
        for shop in shops:
            assert wait_for(lambda: ShopApi(shop.url).stock() == expected, SETTLE_S), (
                f"{shop.url} says {ShopApi(shop.url).stock()}, the database {expected}")
            assert live_stock(shop) == expected
            # The mechanism, as each server's log tells it: its feed broke and it read everything again.
            log = shop.log_path.read_text(errors="replace")
            assert log.count("read what changed meanwhile") >= len(outages), shop.log_tail()
    finally:
        stop_all(shops)


def check_the_outages(load: KeyedLoad, outages: list[tuple[str, float, float]], servers: int) -> None:
    """Every answer was an order taken or a prompt 503 `storage_unavailable` during an outage, and both
    servers took orders again within BACK_S of PostgreSQL's return."""
    answers = load.answers
    print(f"{len(answers)} answers for {len(load.taken)} keys, {dict(Counter(a.status for a in answers))} by status")
    broken = [a for a in answers if a.status not in (201, 503)]
    assert not broken, f"{len(broken)} answers were neither 201 nor 503, e.g. {broken[:5]}"
    refusals = [a for a in answers if a.status == 503]
    wrong = [a for a in refusals if not (isinstance(a.body, dict) and a.body.get("error") == "storage_unavailable")]
    assert not wrong, f"{len(wrong)} refusals were not storage_unavailable, e.g. {wrong[:5]}"
    slow = [a for a in refusals if a.seconds > PROMPT_S]
    assert not slow, f"{len(slow)} refusals took over {PROMPT_S} s, e.g. {slow[:5]}"

    def during(answer: Answer, began: float, back: float) -> bool:
        return began - 0.5 <= answer.started and answer.started + answer.seconds <= back + BACK_S

    outside = [a for a in refusals if not any(during(a, began, back) for _, began, back in outages)]
    assert not outside, f"{len(outside)} refusals came outside the outages, e.g. {outside[:5]}"
    for mode, began, back in outages:
        these = [a for a in refusals if during(a, began, back)]
        slowest = max((a.seconds for a in these), default=0)
        again = [load.first_taken_after(server, back) for server in range(servers)]
        print(f"-m {mode}: {len(these)} refusals, the slowest {slowest * 1000:.0f} ms; ordering again "
              + ", ".join(f"{(t - back) * 1000:.0f} ms" if t else "never" for t in again)
              + " after PostgreSQL's return")
        assert all(t is not None and t - back <= BACK_S for t in again), (
            f"after -m {mode} a server was not ordering again within {BACK_S} s of PostgreSQL's return")


# --- a server started before its database ------------------------------------------------------------

def test_serve_started_before_postgresql_waits_for_it_then_serves(cluster, postgres_database):
    cluster.stop()
    shop = ShopServer(binary=server_binary(), workdir=make_server_workdir(), database_url=postgres_database)
    starting = ThreadPoolExecutor(max_workers=1)
    try:
        started = starting.submit(shop.start)
        assert wait_for(lambda: "waiting for PostgreSQL" in shop.log_tail(), 5), shop.log_tail()
        time.sleep(10)
        assert shop.process.poll() is None, f"the server gave up while PostgreSQL was down\n{shop.log_tail()}"
        up = cluster.start()
        started.result(timeout=30)
        print(f"serving {(time.monotonic() - up) * 1000:.0f} ms after PostgreSQL came up")
        assert time.monotonic() - up <= 5
        response = requests.post(shop.url + "/api/orders", json={"juice": "bananaJuice"}, timeout=10)
        assert response.status_code == 201, response.text
    finally:
        starting.shutdown()
        if not cluster.is_up():
            cluster.start()
        stop_all([shop])


def test_serve_gives_up_in_one_line_when_postgresql_does_not_come():
    with refusing_port() as port:
        started = time.monotonic()
        result = subprocess.run([str(server_binary()), "serve", "--port", "0", "--database-wait", "3", "--database",
                                 f"postgres://juicemaker:secret@127.0.0.1:{port}/postgres?sslmode=disable"],
                                capture_output=True, text=True, timeout=30, cwd=make_server_workdir(),
                                env={**os.environ, "JUICEMAKER_ADMIN_PASSWORD": "admin-secret-pw"})
        took = time.monotonic() - started
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    errors = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stdout + result.stderr
    assert "waiting for PostgreSQL" in result.stderr
    print(f"gave up after {took:.1f} s: {errors[0]}")
    assert 3 <= took <= 8
