"""Closing the day: POST /api/days/close and `juicemaker close-day` store the day's Z report (orders per juice,
fruit used, the machine's money and sales, the counts at close), chained by SHA-256 to the report before;
a second close is 409; GET /api/days and /api/days/{number}; `juicemaker days verify` exits 1 naming the
report whose records were changed with sqlite3; the staff page /reports, in a Korean browser.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter

from e2e_support import MEMBER_PASSWORD, ShopApi, assert_error, login, read_csv, sign_in_on_current_page


def csv_rows(staff: ShopApi, path: str, day: str) -> list[dict]:
    response = staff.get(path, params={"from": day, "to": day})
    assert response.status_code == 200, response.text
    return read_csv(response.content.decode("utf-8"))


def a_day_of_business(server) -> ShopApi:
    """Orders at the counter and for pickup, two cancels (by staff and by the member), a delivery and
    vending sales with change; returns the staff client."""
    staff = ShopApi.signed_in_as_admin(server.url)
    guest = ShopApi(server.url)
    member = ShopApi(server.url)
    assert member.sign_up("minji").status_code == 201
    assert member.sign_in("minji", MEMBER_PASSWORD).status_code == 200
    assert server.cli("stock", "add", "strawberry", "40").returncode == 0
    orders = [guest.post("/api/orders", json={"juice": juice, "pickup": pickup}).json()["order"]
              for juice, pickup in [("strawberryJuice", False), ("kiwiJuice", True), ("strawberryJuice", True),
                                    ("mangoJuice", False)]]
    mine = member.post("/api/orders", json={"juice": "bananaJuice", "pickup": True}).json()["order"]
    assert staff.post(f"/api/orders/{orders[2]['id']}/cancel").status_code == 200
    assert member.post(f"/api/orders/{mine['id']}/cancel").status_code == 200
    assert staff.post(f"/api/orders/{orders[1]['id']}/status", json={"status": "making"}).status_code == 200
    for amount in (5000, 1000):
        assert guest.post("/api/vending/money", json={"amount": amount}).status_code == 200
    for product in ("cola", "cider", "cola"):
        assert guest.post("/api/vending/purchases", json={"product": product}).status_code == 201
    assert guest.post("/api/vending/change").status_code == 200
    assert guest.post("/api/vending/money", json={"amount": 1000}).status_code == 200
    return staff


def canonical_hash(report: dict) -> str:
    body = {key: value for key, value in report.items() if key != "hash"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_closing_is_for_staff(server):
    guest = ShopApi(server.url)
    assert_error(guest.post("/api/days/close"), 401)
    assert_error(guest.get("/api/days"), 401)
    assert_error(guest.get("/api/days/1"), 401)
    member = ShopApi(server.url)
    assert member.sign_up("minji").status_code == 201
    assert member.sign_in("minji", MEMBER_PASSWORD).status_code == 200
    assert_error(member.post("/api/days/close"), 403)
    assert_error(member.get("/api/days"), 403)
    staff = ShopApi.signed_in_as_admin(server.url)
    assert staff.get("/api/days").json() == [], "nothing changed"
    assert_error(staff.get("/api/days/1"), 404, code="not_found")
    assert_error(staff.get("/api/days/one"), 404, code="not_found")


def test_the_z_report_adds_up_the_day_and_a_second_close_is_409(server):
    staff = a_day_of_business(server)
    closed = staff.post("/api/days/close")
    assert closed.status_code == 201, closed.text
    report = closed.json()
    assert report["number"] == 1
    day = report["day"]

    orders = csv_rows(staff, "/api/orders.csv", day)
    made = Counter(row["juice"] for row in orders if row["status"] != "cancelled")
    cancelled = Counter(row["juice"] for row in orders if row["status"] == "cancelled")
    for juice, tally in report["orders"].items():
        assert tally == {"made": made[juice], "cancelled": cancelled[juice]}, juice
    assert set(made) | set(cancelled) <= set(report["orders"])
    assert report["totals"]["made"] == 3 and report["totals"]["cancelled"] == 2

    ledger = csv_rows(staff, "/api/ledger.csv", day)
    for fruit, used in report["fruits"].items():
        assert used == -sum(int(row["delta"]) for row in ledger
                            if row["fruit"] == fruit and row["cause"] in ("order", "cancel")), fruit
    assert report["counts"] == staff.stock(), "the counts at the close"

    machine = staff.get("/api/vending").json()["totals"]
    assert report["money"] == {"inserted": machine["inserted"], "spent": machine["spent"],
                               "returned": machine["returned"], "balance": machine["balance"]}
    assert report["money"]["inserted"] == 7000 and report["money"]["balance"] == 1000
    sales = csv_rows(staff, "/api/vending/sales.csv", day)
    assert report["sales"]["cola"] == {"units": 2, "won": sum(int(r["price"]) for r in sales if r["product"] == "cola")}
    assert report["totals"]["won"] == sum(int(row["price"]) for row in sales) == machine["spent"]
    assert report["open"] == [int(orders[1]["id"])], "the kiwi juice was still being made"

    assert report["previousHash"] == "0" * 64
    assert report["hash"] == canonical_hash(report), "SHA-256 of the report's canonical JSON"

    again = staff.post("/api/days/close", headers={"Accept-Language": "ko-KR"})
    body = assert_error(again, 409, code="day_already_closed")
    assert body["day"] == day and "이미 마감" in body["message"]
    assert staff.get("/api/days").json() == [report]
    assert staff.get("/api/days/1").json() == report

    cli = server.cli("close-day")
    assert cli.returncode == 1 and "이미 마감" in cli.stderr, cli


def test_orders_after_the_close_do_not_change_it(server):
    staff = a_day_of_business(server)
    report = staff.post("/api/days/close").json()
    open_order = report["open"][0]
    assert staff.post(f"/api/orders/{open_order}/status", json={"status": "pickedUp"}).status_code == 200
    assert ShopApi(server.url).post("/api/orders", json={"juice": "kiwiJuice"}).status_code == 201
    verified = server.cli("days", "verify")
    assert verified.returncode == 0, verified
    assert "all 1 day reports match" in verified.stdout


def test_an_order_changed_with_sqlite3_makes_verify_name_the_day(server):
    staff = a_day_of_business(server)
    report = staff.post("/api/days/close").json()
    assert server.cli("days", "verify").returncode == 0
    with sqlite3.connect(server.database) as db:
        db.execute("UPDATE juice_order SET juice_id = 'kiwiJuice' WHERE id = (SELECT MIN(id) FROM juice_order)")
    verified = server.cli("days", "verify")
    assert verified.returncode == 1, verified
    assert f"day report 1 ({report['day']})" in verified.stderr and "records" in verified.stderr


def test_the_takings_of_cash_and_card_a_refund_and_an_unpaid_pickup_add_up_and_verify(server):
    """A day at the counter: a two-line cart in cash, a card sale, a card sale cancelled and refunded, and a
    juice handed over unpaid. The Z report's takings add up the money by method, /reports shows them with a
    warning for the unpaid one, orders.csv gives the lines as sold; the payment taken after the close leaves
    the report verifying, and a price changed with sqlite3 does not."""
    staff = ShopApi.signed_in_as_admin(server.url)
    assert server.cli("stock", "add", "strawberry", "40").returncode == 0

    def sell(lines: list, payment: dict | None = None, pickup: bool = False) -> dict:
        response = staff.post("/api/orders", json={"lines": lines, "pickup": pickup, "payment": payment})
        assert response.status_code == 201, response.text
        return response.json()["order"]

    cash = sell([{"juice": "strawberryBananaJuice", "quantity": 2, "options": {"size": ["large"], "ice": ["less"]}},
                 {"juice": "mangoKiwiJuice"}], {"method": "cash", "received": 30000})
    card = sell([{"juice": "kiwiJuice"}], {"method": "card", "approval": "30012345"})
    refunded = sell([{"juice": "mangoJuice"}], {"method": "card"}, pickup=True)
    assert staff.post(f"/api/orders/{refunded['id']}/cancel").status_code == 200
    unpaid = sell([{"juice": "bananaJuice"}])

    report = staff.post("/api/days/close").json()
    takings = report["takings"]
    assert (cash["total"], card["total"], refunded["total"], unpaid["total"]) == (20500, 5000, 6000, 4500)
    assert takings["gross"] == 31500 and takings["refunds"] == 6000 and takings["net"] == 25500
    assert takings["vat"] == cash["vat"] + card["vat"]
    assert takings["methods"] == {"cash": {"gross": 20500, "refunds": 0, "net": 20500},
                                  "card": {"gross": 11000, "refunds": 6000, "net": 5000},
                                  "transfer": {"gross": 0, "refunds": 0, "net": 0}}
    assert takings["cashInDrawer"] == 20500
    assert takings["juices"]["strawberryBananaJuice"] == {"cups": 2, "amount": 14000} and "mangoJuice" not in takings["juices"]
    assert takings["options"]["size"] == {"large": 2, "regular": 3}
    assert takings["unpaid"] == [unpaid["id"]] and takings["unpaidPickedUp"] == [unpaid["id"]]
    assert report["hash"] == canonical_hash(report) and staff.get("/api/days/1").json() == report

    page = staff.get("/reports", params={"lang": "ko"}).text
    for shown in ("매출 정산", "총매출", "31,500원", "순매출", "25,500원", "현금 시재", "20,500원", "계좌이체", "딸바쥬스", "14,000원",
                  "라지", f"결제하지 않고 가져간 주문이 1건 있어요 (#{unpaid['id']})"):
        assert shown in page, shown
    assert "Takings" in staff.get("/reports", params={"lang": "en"}).text

    export = staff.get("/api/orders.csv", params={"from": report["day"], "lang": "ko"})
    rows = {int(row["id"]): row for row in read_csv(export.content.decode("utf-8"))}
    assert rows[cash["id"]]["lines"] == ("딸바쥬스 (사이즈: 라지 +1000, 얼음: 적게, 당도: 기본) 7000 × 2 = 14000; "
                                         "망키쥬스 (사이즈: 레귤러, 얼음: 보통, 당도: 기본) 6500 × 1 = 6500")
    assert (rows[cash["id"]]["total"], rows[cash["id"]]["vat"], rows[cash["id"]]["payment"]) == ("20500", str(cash["vat"]), "cash")
    assert (rows[refunded["id"]]["payment"], rows[refunded["id"]]["refund"]) == ("card", "6000")
    assert (rows[unpaid["id"]]["payment"], rows[unpaid["id"]]["refund"]) == ("", "")

    paid = staff.post(f"/api/orders/{unpaid['id']}/payment", json={"method": "transfer"})
    assert paid.status_code == 200, paid.text
    verified = server.cli("days", "verify")
    assert verified.returncode == 0 and "all 1 day reports match" in verified.stdout, verified

    with sqlite3.connect(server.database) as db:
        db.execute("""UPDATE juice_order SET lines = replace(lines, '"unitPrice":5000', '"unitPrice":4000') WHERE id = ?""",
                   (card["id"],))
    verified = server.cli("days", "verify")
    assert verified.returncode == 1 and "day report 1" in verified.stderr and "records" in verified.stderr, verified


def test_a_status_changed_with_sqlite3_is_found_too(server):
    staff = a_day_of_business(server)
    staff.post("/api/days/close")
    with sqlite3.connect(server.database) as db:
        db.execute("UPDATE juice_order SET status = 'cancelled' WHERE status = 'pickedUp'")
    assert server.cli("days", "verify").returncode == 1


def test_an_order_still_queued_at_the_close_marked_cancelled_with_sqlite3_is_found(server):
    guest = ShopApi(server.url)
    queued = guest.post("/api/orders", json={"juice": "kiwiJuice", "pickup": True}).json()["order"]
    report = ShopApi.signed_in_as_admin(server.url).post("/api/days/close").json()
    assert report["open"] == [queued["id"]]
    with sqlite3.connect(server.database) as db:
        db.execute("UPDATE juice_order SET status = 'cancelled' WHERE id = ?", (queued["id"],))
    verified = server.cli("days", "verify")
    assert verified.returncode == 1 and "day report 1" in verified.stderr, verified


def test_a_stored_report_never_changes(server):
    ShopApi.signed_in_as_admin(server.url).post("/api/days/close")
    with sqlite3.connect(server.database) as db:
        for statement in ("UPDATE day_report SET body = '{}'", "DELETE FROM day_report"):
            try:
                db.execute(statement)
                raise AssertionError(f"{statement} was allowed")
            except sqlite3.DatabaseError as error:
                assert "never changes" in str(error)
    listed = server.cli("days")
    assert listed.returncode == 0 and listed.stdout.startswith("1\t"), listed


def test_the_cli_closes_and_shows_the_report(server):
    closed = server.cli("close-day", "--json")
    assert closed.returncode == 0, closed
    report = json.loads(closed.stdout)
    assert report["hash"] == canonical_hash(report)
    shown = server.cli("days", "show", "1")
    assert json.loads(shown.stdout) == report
    missing = server.cli("days", "show", "7")
    assert missing.returncode == 2 and "없는 마감 보고서" in missing.stderr


def test_the_reports_page_closes_the_day_in_korean(page, server):
    page.goto(server.url + "/reports")
    assert "/login" in page.url, "staff only"
    ShopApi(server.url).post("/api/orders", json={"juice": "kiwiJuice"})
    login(page, server)
    page.goto(server.url + "/reports")
    page.get_by_text("아직 마감한 영업일이 없어요.").wait_for()
    page.get_by_role("button", name="영업 마감").click()
    dialog = page.locator("#close-dialog[open]")
    assert "영업을 마감할까요?" in dialog.inner_text()
    dialog.get_by_role("button", name="예").click()
    page.locator("#close-result").get_by_text("마감 보고서 1번을 저장했어요.").wait_for()
    row = page.locator("#reports tbody tr")
    assert row.count() == 1 and row.first.get_attribute("data-number") == "1"
    assert page.locator("svg.day-chart rect").count() == 1
    assert "쥬스 1잔" in page.locator("svg.day-chart").text_content()
    page.get_by_role("button", name="영업 마감").click()
    page.locator("#close-dialog[open]").get_by_role("button", name="예").click()
    page.locator("#close-error").get_by_text("이미 마감했어요").wait_for()
    assert page.evaluate("document.activeElement.id") == "close-day"


def test_the_reports_page_in_english(new_page, server):
    page = new_page(locale="en-US")
    page.goto(server.url + "/login?lang=ko")  # the helper fills the Korean form
    sign_in_on_current_page(page)
    ShopApi.signed_in_as_admin(server.url).post("/api/days/close")
    page.goto(server.url + "/reports?lang=en")
    assert page.title().startswith("Day Reports")
    page.get_by_role("button", name="Close the day").click()
    assert "Its report can never be changed" in page.locator("#close-dialog[open]").inner_text()
    page.locator("#close-yes").click()
    page.locator("#close-error").get_by_text("is already closed").wait_for()
    assert page.get_by_role("columnheader", name="Juices made").count() == 1
