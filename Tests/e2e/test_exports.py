"""CSV exports for an accountant: GET /api/orders.csv, /api/ledger.csv and /api/vending/sales.csv (staff, an
optional from/to period of shop days) and the CLI's --csv. RFC 4180 with a header row, UTF-8 with a
byte-order mark, one row per order / ledger line / sale, streamed; a standard CSV reader reads them back,
Korean names and hostile text intact, and their totals match the stock and the machine's money.
"""
from __future__ import annotations

from datetime import date, timedelta

from e2e_support import ShopApi, assert_error, read_csv

def export(staff: ShopApi, path: str, **period) -> str:
    response = staff.get(path, params=period)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers.get("Transfer-Encoding") == "chunked", "the export is streamed, not built whole"
    return response.content.decode("utf-8")


def test_exports_are_for_staff_and_refuse_a_bad_period(server):
    guest = ShopApi(server.url)
    for path in ("/api/orders.csv", "/api/ledger.csv", "/api/vending/sales.csv"):
        assert_error(guest.get(path), 401)
    staff = ShopApi.signed_in_as_admin(server.url)
    assert_error(staff.get("/api/orders.csv", params={"from": "2026-13-01"}), 422, code="invalid_date")
    assert_error(staff.get("/api/ledger.csv", params={"from": "2026-11-20", "to": "2026-11-19"}), 422)


def test_a_days_records_read_back_and_add_up(server):
    staff = ShopApi.signed_in_as_admin(server.url)
    guest = ShopApi(server.url)
    made = [guest.post("/api/orders", json={"juice": juice, "pickup": pickup}).json()["order"]
            for juice, pickup in [("strawberryBananaJuice", True), ("kiwiJuice", False), ("mangoJuice", True)]]
    assert staff.post(f"/api/orders/{made[2]['id']}/cancel").status_code == 200
    assert guest.post("/api/vending/money", json={"amount": 5000}).status_code == 200
    for product in ("cola", "cider"):
        assert guest.post("/api/vending/purchases", json={"product": product}).status_code == 201

    orders = read_csv(export(staff, "/api/orders.csv"))
    assert [row["number"] for row in orders] == ["1", "2", "3"]
    assert [row["name"] for row in orders] == ["딸바쥬스", "키위쥬스", "망고쥬스"]
    assert [row["status"] for row in orders] == ["received", "pickedUp", "cancelled"]

    ledger = read_csv(export(staff, "/api/ledger.csv"))
    stock = guest.stock()
    for fruit, count in stock.items():
        assert sum(int(row["delta"]) for row in ledger if row["fruit"] == fruit) == count, fruit
    assert {row["cause"] for row in ledger} == {"delivery", "order", "cancel"}
    assert any(row["name"] == "딸기" for row in ledger)

    sales = read_csv(export(staff, "/api/vending/sales.csv"))
    assert [row["product"] for row in sales] == ["cola", "cider"]
    spent = guest.get("/api/vending").json()["totals"]["spent"]
    assert sum(int(row["price"]) for row in sales) == spent

    today = date.fromisoformat(orders[0]["day"])
    yesterday = (today - timedelta(days=1)).isoformat()
    assert read_csv(export(staff, "/api/orders.csv", to=yesterday)) == []
    assert len(read_csv(export(staff, "/api/orders.csv", **{"from": today.isoformat(), "to": today.isoformat()}))) == 3

    cli = server.cli("orders", "--csv")
    assert cli.returncode == 0, cli.stderr
    assert read_csv(cli.stdout) == orders, "the CLI writes the same rows"


def test_hostile_names_stay_one_field_and_a_long_export_comes_whole(server):
    added = server.cli("menu", "add-fruit", "lychee", "--ko", '리치, "특"\n품', "--en", "Lychee", "--count", "2000")
    assert added.returncode == 0, added.stderr
    added = server.cli("menu", "add-juice", "lycheeJuice", "--ko", "리치쥬스", "--en", "Lychee Juice", "--recipe", "lychee:1")
    assert added.returncode == 0, added.stderr
    staff = ShopApi.signed_in_as_admin(server.url)
    for _ in range(1_200):
        assert staff.post("/api/orders", json={"juice": "lycheeJuice"}).status_code == 201
    ledger = read_csv(export(staff, "/api/ledger.csv"))
    assert {row["name"] for row in ledger if row["fruit"] == "lychee"} == {'리치, "특"\n품'}
    orders = read_csv(export(staff, "/api/orders.csv"))
    assert len(orders) == 1_200 and [int(row["id"]) for row in orders] == sorted(int(row["id"]) for row in orders)
    raw = export(staff, "/api/orders.csv")
    assert raw.count("\r\n") == 1_201, "every line ends in CRLF"
