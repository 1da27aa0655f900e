"""A shop made by the build of main 8ef28f1 opens with this one, on both engines: its orders, ledger, sales,
accounts and Z reports read as that build read them, the hash chain verifies (`days verify`), and the shop
goes on taking orders and sales. On SQLite the file stays whole (`PRAGMA integrity_check`) and its tables
and columns take PostgreSQL's snake_case names; on PostgreSQL the books of the fruit stock and of the
machine are made again from this build's definitions.

The old shops are Tests/e2e/fixtures/old-shop.sqlite and old-shop.sql (a pg_dump), made by
fixtures/make-old-shops with that build, and old-shop.json holds what that build answered about them.
The PostgreSQL one is restored into a new database of $JUICEMAKER_TEST_POSTGRES_URL's server.
"""
from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from e2e_support import MEMBER_PASSWORD, ShopApi, ShopServer, make_server_workdir, server_binary
from test_postgres_instances import postgres_admin_url, postgres_database  # noqa: F401 (fixtures)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
OLD = json.loads((FIXTURES / "old-shop.json").read_text())


@pytest.fixture
def old_sqlite_shop(tmp_path) -> str:
    path = tmp_path / "shop.sqlite"
    shutil.copyfile(FIXTURES / "old-shop.sqlite", path)
    return str(path)


@pytest.fixture
def old_postgres_shop(postgres_database) -> str:  # noqa: F811 (the fixture imported above)
    restored = subprocess.run(["psql", postgres_database, "-v", "ON_ERROR_STOP=1", "-q", "-f", str(FIXTURES / "old-shop.sql")],
                              capture_output=True, text=True, timeout=60)
    assert restored.returncode == 0, restored.stderr
    return postgres_database


def assert_answers_as_before(new, old, where: str = "") -> None:
    """Every field the old build answered is answered the same; fields added since may stand beside them."""
    if isinstance(old, dict):
        assert isinstance(new, dict), f"{where}: {new!r}"
        for key, value in old.items():
            assert key in new, f"{where}.{key} is gone"
            assert_answers_as_before(new[key], value, f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), f"{where}: {new!r} is not like {old!r}"
        for index, (new_item, old_item) in enumerate(zip(new, old)):
            assert_answers_as_before(new_item, old_item, f"{where}[{index}]")
    else:
        assert new == old, f"{where}: {new!r}, was {old!r}"


def check_the_old_shop_opens_as_it_was_and_goes_on(database: str, old: dict) -> None:
    shop = ShopServer(binary=server_binary(), workdir=make_server_workdir(), database_url=database)

    verified = shop.cli("days", "verify")
    assert verified.returncode == 0 and "all 2 day reports match" in verified.stdout, verified
    for name, command in OLD["commands"].items():
        assert_answers_as_before(json.loads(shop.cli(*command, check=True).stdout), old[name], name)

    shop.start()
    try:
        staff = ShopApi.signed_in_as_admin(shop.url)
        assert staff.list_at("/api/days") == old["reports"], "a report's text is hashed: it stays to the letter"
        member = ShopApi(shop.url)
        assert member.sign_in("minji", MEMBER_PASSWORD).status_code == 200
        assert_answers_as_before(member.list_at("/api/me/orders"), old["member's orders"], "member's orders")
        order = member.post("/api/orders", json={"juice": "bananaJuice", "pickup": True})
        assert order.status_code == 201, order.text
        assert order.json()["order"]["id"] == max(o["id"] for o in old["orders"]) + 1
        assert staff.post(f"/api/orders/{order.json()['order']['id']}/cancel").status_code == 200
        for request in [("/api/vending/money", {"amount": 5000}), ("/api/vending/purchases", {"product": "cola"})]:
            assert staff.post(request[0], json=request[1]).status_code in (200, 201), request
    finally:
        shop.stop()

    verified = shop.cli("days", "verify")
    assert verified.returncode == 0 and "all 2 day reports match" in verified.stdout, verified
    assert len(json.loads(shop.cli("orders", "--json", check=True).stdout)) == len(old["orders"]) + 1
    assert len(json.loads(shop.cli("vending", "history", "--json", check=True).stdout)) == len(old["sales"]) + 1


def test_an_old_sqlite_shop_opens_whole_under_the_new_names(old_sqlite_shop):
    check_the_old_shop_opens_as_it_was_and_goes_on(old_sqlite_shop, OLD["sqlite"])
    with sqlite3.connect(old_sqlite_shop) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        names = [row[0] for row in db.execute("""
            SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite%'
            UNION ALL SELECT p.name FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table'
            UNION ALL SELECT name FROM sqlite_sequence""")]
        assert [name for name in names if not re.fullmatch("[a-z_]+", name)] == []
        assert {"juice_order", "stock_ledger", "day_report", "juice_order_active"} <= set(names)


def test_an_old_postgres_shop_opens_with_its_books_made_again(old_postgres_shop):
    check_the_old_shop_opens_as_it_was_and_goes_on(old_postgres_shop, OLD["postgres"])
    result = subprocess.run(["psql", old_postgres_shop, "-tA", "-c",
                             "SELECT pg_get_function_result('juice_bar_book'::regproc)"],
                            capture_output=True, text=True, timeout=30, check=True).stdout
    assert "time_zone text" in result and "ordered_at" not in result, result
