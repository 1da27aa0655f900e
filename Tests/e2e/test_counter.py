"""The counter screen, `/counter` (주문 받기), in a real browser: staff ring up a cart from the menu's
buttons, choose each cup's options, and take cash (the change shown before confirming) or a card; the
order is one order with one number and a receipt link, in Korean and English, on an iPad either way
up, by keyboard alone, and axe-clean.

Each test gets a new shop: the seed menu (딸바쥬스 6,000원, 망키쥬스 6,500원, 바나나쥬스 4,500원 …, each
with 사이즈 레귤러/라지 +1,000원, 얼음 and 당도) and 10 of each fruit; a large 딸바쥬스 takes 15 strawberries,
so the tests that sell one stock up first.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from e2e_support import ShopApi, login
from test_accessibility import serious_violations

IPAD_PORTRAIT = {"width": 820, "height": 1180}
IPAD_LANDSCAPE = {"width": 1180, "height": 820}

# What each language calls the things a test taps and reads.
KO = {
    "query": "", "title": "주문 받기", "strawberryBanana": "딸바쥬스", "mangoKiwi": "망키쥬스", "banana": "바나나쥬스",
    "size": "사이즈", "large": "라지 +1,000원", "ice": "얼음", "less": "적게", "add": "담기", "cash": "현금", "card": "카드",
    "received": "받은 금액", "pay": "결제하기", "line": "딸바쥬스 · 사이즈 라지 · 얼음 적게", "more": "{line} 한 잔 더",
    "fewer": "{line} 한 잔 빼기", "change": "거스름돈 {amount}", "number": "주문 {number}번", "receipt": "영수증",
    "next": "새 주문",
}
EN = {
    "query": "?lang=en", "title": "Take orders", "strawberryBanana": "Strawberry Banana Juice", "mangoKiwi": "Mango Kiwi Juice",
    "banana": "Banana Juice", "size": "Size", "large": "Large +1,000원", "ice": "Ice", "less": "Less ice", "add": "Add",
    "cash": "Cash", "card": "Card", "received": "Cash received", "pay": "Take payment",
    "line": "Strawberry Banana Juice · Size: Large · Ice: Less ice", "more": "{line}: one more", "fewer": "{line}: one fewer",
    "change": "Change {amount}", "number": "Order No. {number}", "receipt": "Receipt", "next": "Next order",
}


@pytest.fixture
def stocked(staff):
    """The staff API with strawberries enough for large 딸바쥬스."""
    staff.set_stock("strawberry", 60)
    return staff


def open_counter(new_page, server, words=KO, viewport=IPAD_PORTRAIT, scheme="light") -> Page:
    page = new_page(viewport=viewport, color_scheme=scheme)
    login(page, server)
    page.goto(server.url + "/counter" + words["query"])
    expect(page.get_by_role("heading", level=1)).to_have_text(words["title"])
    return page


def juice_button(page: Page, juice: str) -> Locator:
    return page.locator(f'.menu-item[data-juice="{juice}"]')


def options_dialog(page: Page) -> Locator:
    return page.locator("#options-dialog")


def cart_line(page: Page, label: str) -> Locator:
    return page.locator("#cart-lines li").filter(has=page.locator(".line-name", has_text=re.compile(f"^{re.escape(label)}$")))


def total(page: Page) -> Locator:
    return page.locator("#total")


def order_of(page: Page, staff: ShopApi) -> dict:
    """The order the done dialog shows, as GET /api/orders/{id} has it (its id from the receipt link)."""
    expect(page.locator("#done-dialog")).to_be_visible()
    href = page.locator("#receipt-link").get_attribute("href")
    match = re.fullmatch(r"/orders/(\d+)/receipt(\?lang=en)?", href or "")
    assert match, f"the receipt link is {href!r}"
    response = staff.get(f"/api/orders/{match.group(1)}")
    assert response.status_code == 200, response.text
    return response.json()


def vat(total_won: int) -> int:
    return total_won - round(total_won / 1.1)


# --- selling ------------------------------------------------------------------------------------

@pytest.mark.parametrize("words, viewport", [(KO, IPAD_PORTRAIT), (EN, IPAD_LANDSCAPE)], ids=["ko-portrait", "en-landscape"])
def test_a_two_line_cart_paid_in_cash_is_one_order_with_its_change(new_page, server, stocked, words, viewport):
    page = open_counter(new_page, server, words, viewport)
    expect(juice_button(page, "strawberryBananaJuice")).to_have_text(re.compile(rf"{words['strawberryBanana']}\s+6,000원"))
    # Nothing scrolls sideways, and the cart stands beside the menu (or under it) with its buttons in view.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(page.locator("#pay-cash")).to_be_in_viewport()

    # 딸바쥬스, large, less ice: the dialog prices the cup as it is chosen.
    juice_button(page, "strawberryBananaJuice").click()
    dialog = options_dialog(page)
    expect(dialog.get_by_role("heading")).to_have_text(words["strawberryBanana"])
    dialog.get_by_role("group", name=words["size"]).get_by_role("radio", name=words["large"]).check()
    dialog.get_by_role("group", name=words["ice"]).get_by_role("radio", name=words["less"], exact=True).check()
    expect(page.locator("#unit-price")).to_contain_text("7,000원")
    dialog.get_by_role("button", name=words["add"], exact=True).click()
    expect(dialog).to_be_hidden()
    line = cart_line(page, words["line"])
    expect(line.locator(".line-amount")).to_have_text("7,000원")

    # 망키쥬스 as it comes: no dialog choice needed beyond 담기.
    juice_button(page, "mangoKiwiJuice").click()
    options_dialog(page).get_by_role("button", name=words["add"], exact=True).click()
    expect(cart_line(page, words["mangoKiwi"])).to_be_visible()
    expect(total(page)).to_have_text("13,500원")

    # A second large cup makes it 20,500원, over what the customer hands over; one fewer again.
    line.get_by_role("button", name=words["more"].format(line=words["line"])).click()
    expect(line.locator(".line-quantity")).to_have_text("2")
    expect(total(page)).to_have_text("20,500원")
    line.get_by_role("button", name=words["fewer"].format(line=words["line"])).click()
    expect(total(page)).to_have_text("13,500원")

    # Cash: 20,000원 received, the change shown before confirming; too little keeps 결제하기 off.
    page.get_by_role("button", name=words["cash"], exact=True).click()
    received = page.get_by_label(words["received"])
    expect(received).to_be_focused()
    received.fill("10000")
    expect(page.get_by_role("button", name=words["pay"])).to_be_disabled()
    received.fill("20000")
    expect(page.locator("#change-line")).to_have_text(words["change"].format(amount="6,500원"))
    page.get_by_role("button", name=words["pay"]).click()

    done = page.locator("#done-dialog")
    expect(done).to_be_visible()
    expect(done.locator("#done-change")).to_have_text(words["change"].format(amount="6,500원"))
    expect(done.get_by_role("link", name=words["receipt"])).to_be_visible()
    order = order_of(page, stocked)
    expect(done.get_by_role("heading")).to_have_text(words["number"].format(number=order["number"]))
    assert [(line["juice"], line["quantity"], [(option["group"], option["id"]) for option in line["options"]], line["amount"])
            for line in order["lines"]] == [
        ("strawberryBananaJuice", 1, [("size", "large"), ("ice", "less"), ("sweetness", "normal")], 7_000),
        ("mangoKiwiJuice", 1, [("size", "regular"), ("ice", "normal"), ("sweetness", "normal")], 6_500),
    ]
    assert (order["total"], order["vat"]) == (13_500, vat(13_500))
    payment = order["payment"]
    assert (payment["method"], payment["amount"], payment["received"], payment["change"]) == ("cash", 13_500, 20_000, 6_500)

    # 새 주문: an empty cart, ready for the next customer.
    done.get_by_role("button", name=words["next"]).click()
    expect(done).to_be_hidden()
    expect(page.locator("#cart-lines li")).to_have_count(0)
    expect(total(page)).to_have_text("0원")


def test_a_card_payment_keeps_its_approval_number(new_page, server, staff):
    page = open_counter(new_page, server)
    juice_button(page, "bananaJuice").click()
    options_dialog(page).get_by_role("button", name="담기").click()
    expect(total(page)).to_have_text("4,500원")
    page.get_by_role("button", name="카드", exact=True).click()
    expect(page.locator("#cash-fields")).to_be_hidden()
    page.get_by_label("승인번호 (선택)").fill("30012345")
    page.get_by_role("button", name="결제하기").click()
    done = page.locator("#done-dialog")
    expect(done.locator("#done-payment")).to_have_text("카드 결제 4,500원 · 승인번호 30012345")
    expect(done.locator("#done-change")).to_be_hidden()
    order = order_of(page, staff)
    assert order["total"] == 4_500
    assert {key: order["payment"].get(key) for key in ("method", "amount", "approval", "received")} == {
        "method": "card", "amount": 4_500, "approval": "30012345", "received": None}


def test_a_group_chosen_wrong_is_refused_in_the_dialog(new_page, server, staff):
    # 토핑: one or two, 500원 each, the first the default; 바나나쥬스 offers size and topping only.
    group = {"name": {"ko": "토핑", "en": "Topping"}, "min": 1, "max": 2, "options": [
        {"id": "nata", "name": {"ko": "나타드코코", "en": "Nata de coco"}, "price": 500},
        {"id": "jelly", "name": {"ko": "젤리", "en": "Jelly"}, "price": 500},
        {"id": "pearl", "name": {"ko": "펄", "en": "Pearl"}, "price": 500}]}
    assert staff.put("/api/menu/option-groups/topping", json=group).status_code == 200
    response = staff.request("PATCH", "/api/menu/juices/bananaJuice", json={"optionGroups": ["size", "topping"]})
    assert response.status_code == 200, response.text
    page = open_counter(new_page, server)

    juice_button(page, "bananaJuice").click()
    dialog = options_dialog(page)
    topping = dialog.get_by_role("group", name=re.compile("^토핑"))
    expect(topping).to_contain_text("1~2개 고르기")
    expect(dialog.get_by_role("group", name="얼음")).to_be_hidden()
    expect(topping.get_by_role("checkbox", name="나타드코코 +500원")).to_be_checked()
    expect(page.locator("#unit-price")).to_have_text("한 잔 5,000원")

    topping.get_by_role("checkbox", name="나타드코코 +500원").uncheck()
    dialog.get_by_role("button", name="담기").click()
    expect(topping.locator(".error")).to_have_text("토핑에서 1개를 골라 주세요.")
    expect(topping.get_by_role("checkbox").first).to_be_focused()
    for name in ("나타드코코 +500원", "젤리 +500원", "펄 +500원"):
        topping.get_by_role("checkbox", name=name).check()
    dialog.get_by_role("button", name="담기").click()
    expect(topping.locator(".error")).to_have_text("토핑에서는 2개까지만 고를 수 있어요.")
    expect(page.locator("#cart-lines li")).to_have_count(0)

    topping.get_by_role("checkbox", name="펄 +500원").uncheck()
    expect(page.locator("#unit-price")).to_have_text("한 잔 5,500원")
    dialog.get_by_role("button", name="담기").click()
    expect(dialog).to_be_hidden()
    expect(cart_line(page, "바나나쥬스 · 토핑 젤리")).to_be_visible()
    expect(total(page)).to_have_text("5,500원")
    page.get_by_role("button", name="현금", exact=True).click()
    page.get_by_role("button", name="합계만큼").click()
    expect(page.locator("#change-line")).to_have_text("거스름돈 0원")
    page.get_by_role("button", name="결제하기").click()
    expect(page.locator("#done-dialog")).to_be_visible()
    (line,) = order_of(page, staff)["lines"]
    assert [(option["group"], option["id"]) for option in line["options"]] == [
        ("size", "regular"), ("topping", "nata"), ("topping", "jelly")]
    assert line["amount"] == 5_500


def test_a_price_changed_since_the_cart_is_refused_and_the_cart_priced_anew(new_page, server, staff):
    page = new_page(viewport=IPAD_LANDSCAPE)
    # The page does not hear the menu change live, as if it came between the cart and the tap.
    page.route("**/api/live", lambda route: route.abort())
    login(page, server)
    page.goto(server.url + "/counter")
    juice_button(page, "mangoKiwiJuice").click()
    options_dialog(page).get_by_role("button", name="담기").click()
    expect(total(page)).to_have_text("6,500원")
    response = staff.request("PATCH", "/api/menu/juices/mangoKiwiJuice", json={"price": 7_000})
    assert response.status_code == 200, response.text

    page.get_by_role("button", name="현금", exact=True).click()
    page.get_by_label("받은 금액").fill("10000")
    page.get_by_role("button", name="결제하기").click()
    expect(page.locator("#counter-error")).to_contain_text("메뉴 가격이 바뀌었어요. 지금 합계는 7,000원이에요.")
    expect(juice_button(page, "mangoKiwiJuice")).to_contain_text("7,000원")
    expect(total(page)).to_have_text("7,000원")
    assert staff.get("/api/orders").json() == [], "the refused cart made an order"

    page.get_by_role("button", name="현금", exact=True).click()
    page.get_by_label("받은 금액").fill("10000")
    expect(page.locator("#change-line")).to_have_text("거스름돈 3,000원")
    page.get_by_role("button", name="결제하기").click()
    assert order_of(page, staff)["total"] == 7_000


def test_a_juice_marked_sold_out_leaves_the_open_counter_and_its_cart(new_page, server, staff):
    page = open_counter(new_page, server)
    for juice in ("strawberryBananaJuice", "bananaJuice"):
        juice_button(page, juice).click()
        options_dialog(page).get_by_role("button", name="담기").click()
    expect(total(page)).to_have_text("10,500원")
    response = staff.request("PATCH", "/api/menu/juices/strawberryBananaJuice", json={"soldOut": True})
    assert response.status_code == 200, response.text
    expect(juice_button(page, "strawberryBananaJuice")).to_be_disabled()
    expect(juice_button(page, "strawberryBananaJuice")).to_contain_text("품절")
    expect(page.locator("#counter-error")).to_contain_text("메뉴가 바뀌어 주문 내역에서 뺐어요: 딸바쥬스")
    expect(page.locator("#cart-lines li")).to_have_count(1)
    expect(total(page)).to_have_text("4,500원")


# --- keyboard, screens, accessibility ----------------------------------------------------------

def focused(page: Page, attribute: str) -> str | None:
    return page.evaluate(f"document.activeElement?.getAttribute({attribute!r})")


def tab_to(page: Page, attribute: str, value: str, presses: int = 60) -> None:
    for _ in range(presses):
        if focused(page, attribute) == value:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached [{attribute}={value!r}]")


def test_one_cup_rung_up_and_paid_by_keyboard_alone(new_page, server):
    page = open_counter(new_page, server)
    tab_to(page, "data-juice", "bananaJuice")
    page.keyboard.press("Enter")
    dialog = options_dialog(page)
    expect(dialog.get_by_role("radio", name="레귤러")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(dialog.get_by_role("radio", name="라지 +1,000원")).to_be_checked()
    tab_to(page, "id", "add-to-cart")
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    expect(juice_button(page, "bananaJuice")).to_be_focused()
    expect(cart_line(page, "바나나쥬스 · 사이즈 라지")).to_be_visible()
    expect(page.locator(".cart-total")).to_have_attribute("aria-live", "polite")
    expect(total(page)).to_have_text("5,500원")

    tab_to(page, "id", "pay-cash")
    page.keyboard.press("Enter")
    expect(page.get_by_label("받은 금액")).to_be_focused()
    page.keyboard.type("10000")
    expect(page.locator("#change-line")).to_have_text("거스름돈 4,500원")
    page.keyboard.press("Enter")
    done = page.locator("#done-dialog")
    expect(done.get_by_role("button", name="새 주문")).to_be_focused()
    expect(done.locator("#done-change")).to_have_text("거스름돈 4,500원")
    page.keyboard.press("Enter")
    expect(done).to_be_hidden()
    expect(page.locator(".menu-item").first).to_be_focused()


@pytest.mark.parametrize("words", [KO, EN], ids=["ko", "en"])
@pytest.mark.parametrize("viewport, scheme", [(IPAD_PORTRAIT, "light"), (IPAD_LANDSCAPE, "dark")],
                         ids=["portrait-light", "landscape-dark"])
def test_the_counter_has_no_serious_accessibility_violation(new_page, server, staff, words, viewport, scheme):
    assert staff.request("PATCH", "/api/menu/juices/kiwiJuice", json={"soldOut": True}).status_code == 200
    page = open_counter(new_page, server, words, viewport, scheme)
    found = serious_violations(page)
    juice_button(page, "bananaJuice").click()
    found += serious_violations(page)
    options_dialog(page).get_by_role("button", name=words["add"], exact=True).click()
    found += serious_violations(page)
    page.get_by_role("button", name=words["cash"], exact=True).click()
    page.get_by_label(words["received"]).fill("10000")
    found += serious_violations(page)
    page.get_by_role("button", name=words["pay"]).click()
    expect(page.locator("#done-dialog")).to_be_visible()
    found += serious_violations(page)
    assert not found, "\n".join(found)


def test_the_staff_header_links_the_counter_and_guests_are_sent_to_sign_in(new_page, server):
    page = open_counter(new_page, server)
    nav = page.get_by_role("navigation")
    expect(nav.get_by_role("link", name="주문 받기")).to_have_attribute("aria-current", "page")
    guest = new_page()
    guest.goto(server.url + "/counter")
    assert guest.url.startswith(server.url + "/login?next=%2Fcounter"), guest.url
