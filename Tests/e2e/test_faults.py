"""Faults a shop will meet (issue 53), made to happen for real and checked from the database afterwards.

- A full disk: a SQLite shop on a small size-limited tmpfs (`mount -t tmpfs -o size=…`, as root), filled
  until writes are refused, then freed. Refusals are 503 `storage_full` in the reader's language, pages,
  reads and live streams are served meanwhile, `/health` and `juicemaker_refused_writes_total` say so, the
  CLI exits 1 with one line, orders are taken again without a restart, and the file holds exactly the
  orders acknowledged, its `PRAGMA integrity_check` ok.
"""
from __future__ import annotations

import errno
import os
import queue
import sqlite3
import subprocess
import time
import uuid
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from e2e_support import (FRUITS, JUICES, RECIPES, ShopApi, assert_error, deducted, metric_value, open_live_stream,
                         read_lines_into)

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
