"""Backups while serving: `juicemaker backup FILE` copies a SQLite shop with SQLite's online backup API
while a server takes orders from 64 connections; the copy passes `PRAGMA integrity_check` and holds
every order answered 201 before the backup started. `juicemaker restore FILE` puts a backup in place of
a shop no server is using, and refuses, changing nothing, while one is. On a PostgreSQL URL both say
in one line that pg_dump is the tool, and exit 2.
"""
from __future__ import annotations

import sqlite3
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from e2e_support import FRUITS, ShopApi, fruit_stock, server_binary

CONNECTIONS = 64


def set_plenty_of_fruit(server) -> None:
    staff = ShopApi.signed_in_as_admin(server.url)
    for fruit in FRUITS:
        staff.set_stock(fruit, 1_000_000)


def order_ids_in(path) -> set[int]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return {row[0] for row in copy.execute("SELECT id FROM juice_order")}


def test_a_backup_taken_under_order_load_is_whole_and_holds_every_answered_order(server, tmp_path):
    set_plenty_of_fruit(server)
    answered: list[tuple[float, int]] = []  # (when the answer came, order id)
    lock = threading.Lock()
    stop = threading.Event()

    def customer():
        with requests.Session() as http:
            while not stop.is_set():
                response = http.post(server.url + "/api/orders", json={"juice": "bananaJuice"}, timeout=10)
                assert response.status_code == 201, response.text
                with lock:
                    answered.append((time.monotonic(), response.json()["order"]["id"]))

    backup = tmp_path / "during-load.sqlite"
    with ThreadPoolExecutor(max_workers=CONNECTIONS) as pool:
        customers = [pool.submit(customer) for _ in range(CONNECTIONS)]
        time.sleep(1.5)
        started = time.monotonic()
        result = server.cli("backup", str(backup))
        time.sleep(0.5)  # orders keep coming after the copy too
        stop.set()
        for done in customers:
            done.result(timeout=30)
    assert result.returncode == 0, result.stderr
    before = {order for when, order in answered if when < started}
    assert len(before) > 100, f"only {len(before)} orders were answered before the backup: no load to speak of"
    copied = order_ids_in(backup)
    missing = before - copied
    assert not missing, f"{len(missing)} orders answered before the backup are not in it, e.g. {sorted(missing)[:5]}"
    assert len(copied) < len(answered), "the backup is one moment: orders after it are not in it"
    assert not (tmp_path / "during-load.sqlite.partial").exists()


def test_restore_waits_for_no_server_and_puts_the_backup_back(start_server, tmp_path):
    shop = start_server()
    api = ShopApi(shop.url)
    assert api.post("/api/orders", json={"juice": "kiwiJuice"}).status_code == 201
    backup = tmp_path / "one-order.sqlite"
    assert shop.cli("backup", str(backup)).returncode == 0
    again = shop.cli("backup", str(backup))
    assert again.returncode == 2 and "exists" in again.stderr, "a backup never overwrites a file"
    assert api.post("/api/orders", json={"juice": "mangoJuice"}).status_code == 201

    refused = shop.cli("restore", str(backup))
    assert refused.returncode == 2, refused
    assert len(refused.stderr.strip().splitlines()) == 1 and "in use" in refused.stderr
    assert [o["juice"] for o in api.get("/api/orders").json()] == ["mangoJuice", "kiwiJuice"], "nothing changed"

    shop.stop()
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    assert shop.cli("restore", str(junk)).returncode == 2
    restored = shop.cli("restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    shop.start()
    assert [o["juice"] for o in ShopApi(shop.url).get("/api/orders").json()] == ["kiwiJuice"]
    assert fruit_stock(shop)["mango"] == 10


def test_a_postgres_shop_is_told_to_use_pg_dump(tmp_path):
    for command in ("backup", "restore"):
        result = subprocess.run([str(server_binary()), command, "x.sqlite", "--database", "postgres://shop@127.0.0.1:1/shop"],
                                cwd=tmp_path, capture_output=True, text=True, timeout=30)
        assert result.returncode == 2
        assert result.stderr.strip().count("\n") == 0 and "pg_dump" in result.stderr, result.stderr
