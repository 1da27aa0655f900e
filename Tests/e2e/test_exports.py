"""CSV exports for an accountant: GET /api/orders.csv, /api/ledger.csv and /api/vending/sales.csv (staff, an
optional from/to period of shop days) and the CLI's --csv. RFC 4180 with a header row, UTF-8 with a
byte-order mark, one row per order / ledger line / sale, streamed; a standard CSV reader reads them back,
Korean names and hostile text intact, and their totals match the stock and the machine's money.
"""
from __future__ import annotations

import re
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


# --- formula injection (OWASP's CSV injection rule) -------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
EXPORTS = ("/api/orders.csv", "/api/ledger.csv", "/api/vending/sales.csv")
NUMBER_COLUMNS = {"id", "number", "delta", "countAfter", "order", "price", "item", "total", "vat", "refund"}


def assert_no_cell_runs(rows: list[dict], path: str) -> None:
    """No text cell starts like a formula, and every number column holds a plain whole number (or nothing)."""
    for row in rows:
        for column, cell in row.items():
            if column in NUMBER_COLUMNS:
                assert re.fullmatch(r"(-?[0-9]+)?", cell), f"{path}: {column} {cell!r} is not a plain number"
            else:
                assert not cell.startswith(FORMULA_STARTS), f"{path}: {column} {cell!r} would run in a spreadsheet"


def test_formula_like_names_are_neutralised_and_numbers_stay_numbers(server):
    """Fruit and juice names added with the CLI that a spreadsheet would run (=HYPERLINK, @SUM, +…, -…, a
    leading tab) come out with a leading ' in every export, in Korean and English and from the CLI's --csv,
    RFC 4180 quoting intact; a ledger delta of -2 stays -2."""
    hyperlink = '=HYPERLINK("http://x.example","클릭")'
    assert server.cli("menu", "add-fruit", "trap", "--ko", hyperlink, "--en", "@SUM(1+1)", "--count", "10").returncode == 0
    assert server.cli("menu", "add-juice", "trapJuice", "--ko", "+82 주스", "--en", "\t-1 juice",
                      "--recipe", "trap:1").returncode == 0
    staff = ShopApi.signed_in_as_admin(server.url)
    guest = ShopApi(server.url)
    assert guest.post("/api/orders", json={"juice": "trapJuice"}).status_code == 201
    cancelled = guest.post("/api/orders", json={"juice": "trapJuice", "pickup": True}).json()["order"]
    assert staff.post(f"/api/orders/{cancelled['id']}/cancel").status_code == 200
    staff.set_stock("trap", 7)  # 10 - 1 - 1 + 1 = 9, so a delta of -2
    assert guest.post("/api/vending/money", json={"amount": 5000}).status_code == 200
    assert guest.post("/api/vending/purchases", json={"product": "cola"}).status_code == 201

    korean = {path: read_csv(export(staff, path, lang="ko")) for path in EXPORTS}
    english = {path: read_csv(export(staff, path, lang="en")) for path in EXPORTS}
    for exports in (korean, english):
        for path, rows in exports.items():
            assert rows, path
            assert_no_cell_runs(rows, path)
    assert {row["name"] for row in korean["/api/orders.csv"]} == {"'+82 주스"}
    assert {row["name"] for row in english["/api/orders.csv"]} == {"'\t-1 juice"}
    trap_ko = [row for row in korean["/api/ledger.csv"] if row["fruit"] == "trap"]
    trap_en = [row for row in english["/api/ledger.csv"] if row["fruit"] == "trap"]
    assert {row["name"] for row in trap_ko} == {"'" + hyperlink}
    assert {row["name"] for row in trap_en} == {"'@SUM(1+1)"}
    assert [row["delta"] for row in trap_ko] == ["10", "-1", "-1", "1", "-2"], "numbers stay numbers, signs and all"
    assert sum(int(row["delta"]) for row in trap_ko) == 7
    raw = export(staff, "/api/ledger.csv", lang="ko")
    assert ',"\'=HYPERLINK(""http://x.example"",""클릭"")",' in raw, "neutralised, then quoted by RFC 4180"
    assert ",-2," in raw

    for command, path in ((("orders", "--csv"), "/api/orders.csv"), (("history", "--csv"), "/api/ledger.csv"),
                          (("vending", "sales", "--csv"), "/api/vending/sales.csv")):
        cli = server.cli(*command)
        assert cli.returncode == 0, cli.stderr
        assert read_csv(cli.stdout) == korean[path], f"juicemaker {' '.join(command)} writes the API's rows"
