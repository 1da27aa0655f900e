"""The shop's own time zone, end to end: a server whose process runs in one `TZ` and a CLI in another agree
on the shop day and the order numbers, both counting in the zone stored with the shop, which
`juicemaker shop time-zone` sets (refused while orders of the day are queued, or for an unknown zone).

The clock is the real one. libfaketime (Debian's faketime) does fake Swift Foundation's `Date()` here, but
with it preloaded a Swift program on Linux starts with no command-line arguments at all (CommandLine.argc is
0: the Swift runtime's initialiser runs inside libfaketime's set-up), so neither `juicemaker serve` nor a CLI
command can run under it. Instead the test picks, from the real time now, a shop zone where it is between
00:00 and 01:00 (an Etc/GMT±N zone: one always is), and process zones whose date is another: an order placed
now is, for the shop, among the first of a new day the processes' own clocks have not reached (or have left).
When UTC is between 15:00 and 24:00 that is exactly the issue's case: a shop in Asia/Seoul just after
midnight, a server with TZ=UTC still on the day before.

Runs on SQLite, and on PostgreSQL too when $JUICEMAKER_TEST_POSTGRES_URL is set (scripts/test-postgres).
"""
from __future__ import annotations

import datetime as dt
import json
import os
import time
from zoneinfo import ZoneInfo

import pytest

from e2e_support import ShopApi
# The PostgreSQL fixtures: a new database on the test server, dropped afterwards.
from test_postgres_instances import POSTGRES_URL_VARIABLE, postgres_admin_url, postgres_database  # noqa: F401

CLI_FOLLOW_S = 5  # a running server's exports must follow a zone the CLI set within this


def etc_zone(offset_hours: int) -> str:
    """The IANA name of a fixed zone `offset_hours` ahead of UTC (POSIX signs: Etc/GMT-9 is UTC+9)."""
    return "UTC" if offset_hours == 0 else f"Etc/GMT{'-' if offset_hours > 0 else '+'}{abs(offset_hours)}"


def zones_for_now(now: dt.datetime) -> tuple[str, str, str]:
    """(the shop's zone, the server's TZ, the CLI's TZ): the shop just past midnight, the two processes each
    on another date than the shop's. Asia/Seoul and UTC when the clock allows, as in the issue."""
    def date_in(zone: str) -> dt.date:
        return now.astimezone(ZoneInfo(zone)).date()

    if now.astimezone(ZoneInfo("Asia/Seoul")).hour == 0 and date_in("UTC") != date_in("Asia/Seoul"):
        shop = "Asia/Seoul"
    else:
        shop = next(etc_zone(offset) for offset in range(-12, 15)
                    if now.astimezone(ZoneInfo(etc_zone(offset))).hour == 0)
    # Named zones first, then every whole-hour zone: at some hours (07:00 UTC, the shop on Etc/GMT+7)
    # only one of the named ones is on another date.
    candidates = ["UTC", "America/New_York", "Etc/GMT+12", "Pacific/Kiritimati"] + [etc_zone(offset) for offset in range(-12, 15)]
    others = list(dict.fromkeys(zone for zone in candidates if date_in(zone) != date_in(shop)))
    assert len(others) >= 2, f"no two process zones on another date than {shop} at {now}"
    return shop, others[0], others[-1]


def engines() -> list[str]:
    return ["sqlite", "postgres"] if os.environ.get(POSTGRES_URL_VARIABLE) else ["sqlite"]


@pytest.fixture(params=engines())
def database_url(request):
    """None for a SQLite file of the server's own; else a new PostgreSQL database, dropped afterwards."""
    return None if request.param == "sqlite" else request.getfixturevalue("postgres_database")


def cli(server, monkeypatch, zone: str, *args: str):
    """Runs the CLI on the server's shop, in a process whose TZ is `zone`."""
    monkeypatch.setenv("TZ", zone)
    return server.cli(*args)


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, f"expected a one-line reason, got {text!r}"
    return lines[0]


def test_the_shop_day_is_the_shops_zone_for_the_server_and_the_cli(start_server, monkeypatch, database_url):
    shop_zone, server_zone, cli_zone = zones_for_now(dt.datetime.now(dt.timezone.utc))
    monkeypatch.setenv("TZ", server_zone)
    server = start_server(database_url=database_url)
    staff = ShopApi.signed_in_as_admin(server.url)

    # A new shop takes the TZ it was made under; a running server follows the zone the CLI sets.
    shown = cli(server, monkeypatch, cli_zone, "shop", "time-zone")
    assert shown.returncode == 0 and shown.stdout.strip() == server_zone, shown
    changed = cli(server, monkeypatch, cli_zone, "shop", "time-zone", shop_zone)
    assert changed.returncode == 0, changed.stderr
    assert cli(server, monkeypatch, server_zone, "shop", "time-zone").stdout.strip() == shop_zone

    shop_day = dt.datetime.now(ZoneInfo(shop_zone)).date().isoformat()
    placed = staff.post("/api/orders", json={"juice": "kiwiJuice", "pickup": True})
    assert placed.status_code == 201, placed.text
    first = placed.json()["order"]
    assert (first["day"], first["number"]) == (shop_day, 1), (
        f"the server (TZ={server_zone}) numbered an order placed just after midnight in {shop_zone} "
        f"{first['number']} of {first['day']}, not 1 of {shop_day}")

    by_cli = cli(server, monkeypatch, cli_zone, "order", "bananaJuice", "--pickup", "--json")
    assert by_cli.returncode == 0, by_cli.stderr
    second = json.loads(by_cli.stdout)["order"]
    assert (second["day"], second["number"]) == (shop_day, 2), f"the CLI (TZ={cli_zone}) said {second}"

    # The server's exports count the same day: both orders are in the shop day's CSV.
    deadline = time.monotonic() + CLI_FOLLOW_S
    while True:
        csv = staff.get(f"/api/orders.csv?from={shop_day}&to={shop_day}")
        assert csv.status_code == 200, csv.text
        rows = [line for line in csv.text.splitlines()[1:] if line.strip()]
        if len(rows) == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(rows) == 2, f"orders.csv of {shop_day} holds {rows}"

    # An event of the shop's day runs now (the server's own date is another).
    fields = {"title": "자정 이벤트", "body": "", "start": shop_day, "end": shop_day}
    posted = staff.post("/api/events", files={key: (None, value) for key, value in fields.items()})
    assert posted.status_code == 201, posted.text
    current = staff.get("/api/events/current")
    assert current.status_code == 200 and current.json()["id"] == posted.json()["id"], (
        f"an event of {shop_day} is not current for a server with TZ={server_zone}: {current.status_code}")

    # Orders of the day are queued: the change is refused, in one line, and nothing changes.
    refused = cli(server, monkeypatch, cli_zone, "shop", "time-zone", "UTC")
    assert refused.returncode == 1, refused
    assert shop_day in one_line(refused.stderr) and "대기" in refused.stderr
    assert cli(server, monkeypatch, cli_zone, "shop", "time-zone").stdout.strip() == shop_zone

    # An unknown zone is bad input.
    unknown = cli(server, monkeypatch, cli_zone, "shop", "time-zone", "Mars/Olympus_Mons")
    assert unknown.returncode == 2, unknown
    assert "Mars/Olympus_Mons" in one_line(unknown.stderr)

    # Once every order of the day is picked up, the zone may change.
    for order in (first, second):
        for status in ("making", "ready", "pickedUp"):
            moved = staff.post(f"/api/orders/{order['id']}/status", json={"status": status})
            assert moved.status_code == 200, moved.text
    allowed = cli(server, monkeypatch, cli_zone, "shop", "time-zone", server_zone)
    assert allowed.returncode == 0, allowed.stderr
    third = staff.post("/api/orders", json={"juice": "kiwiJuice"}).json()["order"]
    server_day = dt.datetime.now(ZoneInfo(server_zone)).date().isoformat()
    assert third["day"] == server_day, f"after the change the server numbered on {third['day']}, not {server_day}"
