"""영수증 and the making screen's lines, in a real browser.

A two-line cart paid in cash at the counter (20,000원 received) has a receipt with the shop's info the
CLI set, each line with its options and amount, 합계, 공급가액, 부가세 and 거스름돈; it prints on one
80 mm page with no header or buttons; it reads in English too and is axe-clean. A member finds their
own receipts from /home and is refused another's. /kitchen shows each line with its cups and the
options that differ from a plain cup, as served and as it arrives live; /board stays numbers only.

Each test gets a new shop: the seed menu (딸바쥬스 6,000원, 망키쥬스 6,500원, 사이즈 라지 +1,000원 and
half as much fruit again), so the tests that sell a large 딸바쥬스 stock strawberries up first.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from e2e_support import MEMBER_PASSWORD, login, sign_in_on_current_page
from test_accessibility import serious_violations

LIVE_MS = 1_000  # every open page follows a change within a second

CART = {"lines": [{"juice": "strawberryBananaJuice", "quantity": 1, "options": {"size": ["large"], "ice": ["less"]}},
                  {"juice": "mangoKiwiJuice"}]}
PAID_IN_CASH = {**CART, "payment": {"method": "cash", "received": 20_000}}
SHOP = {"name": "쥬스메이커 강남점", "businessNumber": "124-81-00998", "address": "서울특별시 강남구 테헤란로 1",
        "phone": "02-123-4567"}
# 80 mm in PDF points (1/72 inch).
ROLL_WIDTH_PT = 80 / 25.4 * 72


@pytest.fixture
def stocked(staff):
    """The staff API with strawberries enough for large 딸바쥬스."""
    staff.set_stock("strawberry", 60)
    return staff


@pytest.fixture
def sale(server, stocked) -> dict:
    """The shop's info set with the CLI, then the cart sold at the counter for 20,000원 in cash."""
    info = server.cli("shop", "info", "--name", SHOP["name"], "--business-number", SHOP["businessNumber"],
                      "--address", SHOP["address"], "--phone", SHOP["phone"])
    assert info.returncode == 0, info.stderr
    response = stocked.post("/api/orders", json=PAID_IN_CASH)
    assert response.status_code == 201, response.text
    return response.json()["order"]


def field(scope: Locator, label: str) -> Locator:
    """The value beside `label` in one of the receipt's lists (합계, 거스름돈 …)."""
    return scope.locator("dl > div").filter(has=scope.page.locator("dt", has_text=re.compile(f"^{re.escape(label)}$"))).locator("dd")


def sign_in_as_admin(page: Page, server) -> None:
    page.goto(server.url + "/login?lang=ko")  # the helper fills the Korean form
    sign_in_on_current_page(page)


def open_receipt(page: Page, server, order: dict, query: str = "") -> Locator:
    page.goto(f"{server.url}/orders/{order['id']}/receipt{query}")
    receipt = page.locator("#receipt")
    expect(receipt).to_be_visible()
    return receipt


def test_a_cash_sale_has_a_receipt_with_the_tax_and_the_change_that_prints_on_80mm(page, server, sale):
    login(page, server)
    receipt = open_receipt(page, server, sale)
    expect(page.get_by_role("heading", level=1)).to_have_text("영수증")
    expect(receipt.get_by_role("heading", level=2)).to_have_text(SHOP["name"])
    expect(field(receipt, "사업자등록번호")).to_have_text(SHOP["businessNumber"])
    expect(field(receipt, "주소")).to_have_text(SHOP["address"])
    expect(field(receipt, "전화")).to_have_text(SHOP["phone"])
    expect(field(receipt, "주문번호")).to_have_text(str(sale["number"]))
    expect(field(receipt, "주문 일시")).to_have_text(re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"))

    rows = receipt.locator("#receipt-lines tr.receipt-line")
    expect(rows).to_have_count(2)
    expect(rows.locator(".receipt-item")).to_have_text(["딸바쥬스", "망키쥬스"])
    # The options that differ from a plain cup, and what they cost; 망키쥬스 came as it is.
    expect(receipt.locator(".receipt-options")).to_have_text(["사이즈 라지 +1,000원 · 얼음 적게"])
    expect(rows.nth(0).locator("td:not(:first-child)")).to_have_text(["7,000원", "1", "7,000원"])
    expect(rows.nth(1).locator("td:not(:first-child)")).to_have_text(["6,500원", "1", "6,500원"])

    # 부가세 = 13,500 − round(13,500 / 1.1); 공급가액 the rest.
    expect(field(receipt, "합계")).to_have_text("13,500원")
    expect(field(receipt, "공급가액")).to_have_text("12,273원")
    expect(field(receipt, "부가세")).to_have_text("1,227원")
    expect(field(receipt, "결제")).to_have_text("현금 13,500원")
    expect(field(receipt, "받은 금액")).to_have_text("20,000원")
    expect(field(receipt, "거스름돈")).to_have_text("6,500원")
    expect(page.locator("#receipt-unpaid")).to_have_count(0)
    expect(page.get_by_role("button", name="인쇄", exact=True)).to_be_visible()
    assert not serious_violations(page)

    # Printed: the slip alone, no header, navigation or button, on one page 80 mm wide and as long as
    # the receipt (the browser says `beforeprint` before it prints; the PDF is what it would print).
    page.emulate_media(media="print")
    expect(page.locator("header.bar")).to_be_hidden()
    expect(page.get_by_role("navigation")).to_be_hidden()
    expect(page.get_by_role("button", name="인쇄", exact=True)).to_be_hidden()
    expect(receipt).to_be_visible()
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    pages = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", page.pdf(prefer_css_page_size=True))
    assert len(pages) == 1, f"the receipt printed on {len(pages)} pages"
    width, height = (float(value) for value in pages[0])
    assert abs(width - ROLL_WIDTH_PT) < 1, f"the paper is {width / 72 * 25.4:.1f} mm wide"
    assert 60 < height / 72 * 25.4 < 200, f"the paper is {height / 72 * 25.4:.1f} mm long"


def test_the_receipt_reads_in_english(new_page, server, sale):
    page = new_page(locale="en-US", viewport={"width": 390, "height": 844}, color_scheme="dark")
    sign_in_as_admin(page, server)
    receipt = open_receipt(page, server, sale, "?lang=en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Receipt")
    expect(field(receipt, "Business registration no.")).to_have_text(SHOP["businessNumber"])
    rows = receipt.locator("#receipt-lines tr.receipt-line")
    expect(rows.nth(0).locator(".receipt-item")).to_have_text("Strawberry Banana Juice")
    expect(receipt.locator(".receipt-options")).to_have_text(["Size: Large +1,000원 · Ice: Less ice"])
    expect(field(receipt, "Total")).to_have_text("13,500원")
    expect(field(receipt, "Supply value")).to_have_text("12,273원")
    expect(field(receipt, "VAT")).to_have_text("1,227원")
    expect(field(receipt, "Payment")).to_have_text("Cash 13,500원")
    expect(field(receipt, "Change")).to_have_text("6,500원")
    expect(page.get_by_role("button", name="Print", exact=True)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "nothing scrolls sideways"
    assert not serious_violations(page)


def test_a_member_finds_their_receipt_from_home_and_is_refused_anothers(new_page, server, sale, make_member):
    minji = make_member("minji", name="민지")
    mine = minji.post("/api/orders", json={"juice": "kiwiJuice", "pickup": True})
    assert mine.status_code == 201, mine.text
    refused = minji.get(f"/orders/{sale['id']}/receipt", allow_redirects=False)
    assert refused.status_code == 403 and "다른 회원의 영수증은 볼 수 없어요." in refused.text, refused.text
    assert "13,500원" not in refused.text

    page = new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url + "/login")
    sign_in_on_current_page(page, "minji", MEMBER_PASSWORD)
    page.goto(server.url + "/home")
    link = page.locator("#my-orders").get_by_role("link", name=re.compile("^키위쥬스 · .* 영수증$"))
    expect(link).to_have_text("영수증")
    link.click()
    receipt = page.locator("#receipt")
    expect(receipt.locator(".receipt-item")).to_have_text(["키위쥬스"])
    expect(field(receipt, "합계")).to_have_text("5,000원")
    expect(page.locator("#receipt-unpaid")).to_have_text("미결제 (매장에서 결제)")
    expect(page.locator("#receipt-payment")).to_have_count(0)
    assert not serious_violations(page)

    page.goto(f"{server.url}/orders/{sale['id']}/receipt")
    expect(page.locator("#receipt-problem")).to_have_text("다른 회원의 영수증은 볼 수 없어요.")
    expect(page.locator("#receipt")).to_have_count(0)
    assert not serious_violations(page)

    # Signed out, the page asks for a sign-in and comes back to the receipt after it.
    guest = new_page()
    guest.goto(f"{server.url}/orders/{mine.json()['order']['id']}/receipt")
    sign_in_on_current_page(guest, "minji", MEMBER_PASSWORD)
    expect(guest.locator("#receipt-unpaid")).to_be_visible()


def test_the_kitchen_shows_each_line_with_its_options_and_the_board_only_numbers(new_page, server, stocked):
    kitchen = new_page(viewport={"width": 1280, "height": 800})
    login(kitchen, server)
    kitchen.goto(server.url + "/kitchen")
    expect(kitchen.locator("#no-orders")).to_be_visible()
    board = new_page()
    board.goto(server.url + "/board")

    response = stocked.post("/api/orders", json={**CART, "pickup": True})
    assert response.status_code == 201, response.text
    number = str(response.json()["order"]["number"])

    # Live, then as the page serves it: each line with its cups and what differs from a plain cup
    # (레귤러, 얼음 보통 and 당도 기본 left out), and the fruit one cup of it takes (a large one more).
    for _ in ("live", "served"):
        card = kitchen.locator(".ticket")
        expect(card).to_have_count(1, timeout=LIVE_MS)
        expect(card.locator(".ticket-juice")).to_have_text(["딸바쥬스 ×1 · 사이즈 라지 · 얼음 적게", "망키쥬스 ×1"])
        expect(card.locator(".ticket-recipe")).to_have_text(["레시피: 🍓 딸기 15 · 🍌 바나나 2", "레시피: 🥭 망고 2 · 🥝 키위 1"])
        kitchen.reload()
    assert not serious_violations(kitchen)
    expect(board.locator("#preparing li")).to_have_text([number], timeout=LIVE_MS)

    english = new_page(locale="en-US")
    sign_in_as_admin(english, server)
    english.goto(server.url + "/kitchen?lang=en")
    expect(english.locator(".ticket-juice")).to_have_text(["Strawberry Banana Juice ×1 · Size: Large · Ice: Less ice",
                                                            "Mango Kiwi Juice ×1"])
