"""JuiceMaker's screens in a real browser (Debian chromium through Playwright), against a real server.

Each test gets a new shop: 10 of each fruit, the seven juices of the seed menu.
"""
from __future__ import annotations

import re
import time
from urllib.parse import urlparse

import requests
from playwright.sync_api import Locator, Page, expect

from e2e_support import (FRUIT_NAMES_KO, FRUITS, JUICE_NAMES_KO, JUICES, SEED_STOCK, button, fruit_label, fruit_stock,
                         login, sign_in_on_current_page)

LIVE_TIMEOUT_MS = 1_500  # the contract says 1 s; the rest is slack for the test machine

ORDERED = "나왔습니다! 맛있게 드세요!"
SHORT = "재료가 모자라요. 재고를 수정할까요?"


# --- what the tests look for ---------------------------------------------------------------------

def order_button(page: Page, juice: str) -> Locator:
    return page.locator(f'[data-juice="{juice}"]')


def dialog_saying(page: Page, text: str) -> Locator:
    return page.get_by_role("dialog").or_(page.get_by_role("alertdialog")).filter(has_text=text)


def stock_dialog(page: Page) -> Locator:
    return page.get_by_role("dialog", name="재고 수정")


def open_order_screen(page: Page, server, query: str = "") -> None:
    page.goto(server.url + "/" + query)
    expect(order_button(page, "strawberryBananaJuice")).to_be_visible()


def wait_for_api_stock(server, timeout_s: float = 3, **expected: int) -> None:
    """Polls GET /api/stock until the given fruits have the given counts."""
    deadline = time.monotonic() + timeout_s
    while True:
        stock = fruit_stock(server)
        if all(stock.get(fruit) == count for fruit, count in expected.items()):
            return
        assert time.monotonic() < deadline, f"GET /api/stock is {stock} after {timeout_s} s, wanted {expected}"
        time.sleep(0.1)


def wait_until_page_is_live(page: Page, server) -> None:
    """Makes sure the page's live channel is connected before a timed check: an order made through the
    API (pineapple juice, so pineapple 10 → 8) must show on the page within 3 s."""
    response = requests.post(server.url + "/api/orders", json={"juice": "pineappleJuice"}, timeout=5)
    assert response.status_code == 201, response.text
    expect(fruit_label(page, "pineapple")).to_have_text("8")


# --- the order screen ----------------------------------------------------------------------------

def test_order_screen_shows_each_fruit_count_and_an_order_button_per_juice(page, server):
    open_order_screen(page, server)

    for fruit in FRUITS:
        expect(fruit_label(page, fruit)).to_have_text("10")
    for juice, name in JUICE_NAMES_KO.items():
        expect(order_button(page, juice)).to_have_role("button")
        expect(order_button(page, juice)).to_have_text(f"{name} 주문")
        expect(button(page, f"{name} 주문")).to_be_visible()
    expect(button(page, "재고수정")).to_be_visible()


def test_ordering_a_juice_serves_it_and_takes_its_fruit(page, server):
    open_order_screen(page, server)

    button(page, "딸바쥬스 주문").click()

    served = dialog_saying(page, f"딸바쥬스 {ORDERED}")
    expect(served).to_be_visible()
    expect(fruit_label(page, "strawberry")).to_have_text("0")
    expect(fruit_label(page, "banana")).to_have_text("9")
    button(served, "확인").click()
    expect(served).to_be_hidden()


def test_short_order_asks_to_edit_stock_and_no_leaves_stock_alone(page, server):
    open_order_screen(page, server)

    button(page, "딸기쥬스 주문").click()

    ask = dialog_saying(page, SHORT)
    expect(ask).to_be_visible()
    expect(ask).to_contain_text("딸기 16개 필요 · 지금 10개")
    expect(button(ask, "예")).to_be_visible()
    button(ask, "아니오").click()
    expect(ask).to_be_hidden()
    assert fruit_stock(server) == SEED_STOCK
    expect(fruit_label(page, "strawberry")).to_have_text("10")


def test_short_order_yes_signs_in_then_opens_the_stock_screen_over_the_order_screen(page, server):
    open_order_screen(page, server)
    button(page, "딸기쥬스 주문").click()
    ask = dialog_saying(page, SHORT)

    button(ask, "예").click()

    expect(page).to_have_url(re.compile(re.escape(server.url) + r"/login([?#].*)?$"))
    expect(page.get_by_text("재고는 직원이 수정해요.")).to_be_visible()
    expect(page.get_by_label("아이디", exact=True)).to_be_visible()
    expect(page.get_by_label("비밀번호", exact=True)).to_be_visible()
    sign_in_on_current_page(page)
    expect(stock_dialog(page)).to_be_visible()
    assert urlparse(page.url).path == "/", f"the stock screen opened on {page.url}, not over the order screen"
    expect(page.locator("[data-juice]")).to_have_count(len(JUICES))


# --- the stock screen ----------------------------------------------------------------------------

def test_stock_screen_saves_each_step_and_stops_at_zero(page, server):
    login(page, server)
    open_order_screen(page, server)

    button(page, "재고수정").click()

    stock = stock_dialog(page)
    expect(stock).to_be_visible()
    assert stock.evaluate("el => el.matches(':modal') || el.getAttribute('aria-modal') === 'true'"), \
        "the stock dialog is not modal (neither showModal() nor aria-modal=true)"
    for name in FRUIT_NAMES_KO.values():
        expect(button(stock, f"{name} 빼기")).to_be_visible()
        expect(button(stock, f"{name} 더하기")).to_be_visible()

    for count in range(11, 17):
        button(stock, "딸기 더하기").click()
        wait_for_api_stock(server, strawberry=count)

    mango_minus = button(stock, "망고 빼기")
    for count in range(9, -1, -1):
        mango_minus.click()
        wait_for_api_stock(server, mango=count)
    if not mango_minus.is_disabled():
        mango_minus.click()
        # Nothing to wait for when nothing should happen: give a wrong save time to land, then look.
        page.wait_for_timeout(500)
        assert fruit_stock(server)["mango"] == 0, "망고 빼기 took mango below 0"

    button(stock, "닫기").first.click()
    expect(stock).to_be_hidden()
    expect(fruit_label(page, "strawberry")).to_have_text("16")
    expect(fruit_label(page, "mango")).to_have_text("0")

    button(page, "딸기쥬스 주문").click()
    expect(dialog_saying(page, f"딸기쥬스 {ORDERED}")).to_be_visible()
    expect(fruit_label(page, "strawberry")).to_have_text("0")


def test_stock_screen_is_the_seeds_and_takes_a_typed_count(page, server):
    login(page, server)
    open_order_screen(page, server)
    button(page, "재고수정").click()
    stock = stock_dialog(page)

    # 재고 수정 on a grey title bar, with 닫기 at its right.
    bar = stock.locator(".title-bar")
    expect(bar.get_by_role("heading", name="재고 수정")).to_be_visible()
    close = button(bar, "닫기")
    assert close.bounding_box()["x"] > bar.get_by_role("heading").bounding_box()["x"], "닫기 is not right of the title"
    red, green, blue = (int(part) for part in re.findall(r"\d+", bar.evaluate("el => getComputedStyle(el).backgroundColor"))[:3])
    assert red == green == blue and 150 <= red <= 235, f"the title bar is not grey: {(red, green, blue)}"

    kiwi = stock.get_by_label("키위 수량", exact=True)
    kiwi.fill("50")
    kiwi.press("Enter")
    wait_for_api_stock(server, kiwi=50)
    expect(stock.locator('[data-stock-fruit="kiwi"]')).to_have_text("50")

    for wrong in ("-1", "1000001", "2.5"):
        kiwi.fill(wrong)
        kiwi.press("Enter")
        expect(stock.locator("#stock-error")).to_have_text("0부터 1000000까지의 수를 입력해 주세요.")
        expect(kiwi).to_have_value("50")
    assert fruit_stock(server)["kiwi"] == 50

    close.click()
    expect(stock).to_be_hidden()
    expect(fruit_label(page, "kiwi")).to_have_text("50")


# --- live updates --------------------------------------------------------------------------------

def test_an_order_in_one_browser_shows_in_another_without_reload(new_page, server):
    counter, display = new_page(), new_page()
    open_order_screen(counter, server)
    open_order_screen(display, server)
    wait_until_page_is_live(display, server)

    button(counter, "딸바쥬스 주문").click()

    expect(fruit_label(display, "strawberry")).to_have_text("0", timeout=LIVE_TIMEOUT_MS)
    expect(fruit_label(display, "banana")).to_have_text("9", timeout=LIVE_TIMEOUT_MS)


def test_a_cli_stock_edit_shows_on_an_open_page(page, server):
    open_order_screen(page, server)
    wait_until_page_is_live(page, server)

    result = server.cli("stock", "set", "kiwi", "42")

    assert result.returncode == 0, f"juicemaker stock set failed: {result.stdout}{result.stderr}"
    expect(fruit_label(page, "kiwi")).to_have_text("42", timeout=LIVE_TIMEOUT_MS)


def test_an_api_order_shows_on_an_open_page(page, server):
    open_order_screen(page, server)
    wait_until_page_is_live(page, server)

    response = requests.post(server.url + "/api/orders", json={"juice": "bananaJuice"}, timeout=5)

    assert response.status_code == 201, response.text
    expect(fruit_label(page, "banana")).to_have_text("8", timeout=LIVE_TIMEOUT_MS)


# --- language ------------------------------------------------------------------------------------

def expect_english_order_screen(page: Page) -> None:
    for juice in JUICES:
        expect(order_button(page, juice)).not_to_contain_text("주문")
        expect(order_button(page, juice)).to_contain_text(re.compile("order", re.IGNORECASE))
    expect(order_button(page, "strawberryBananaJuice")).to_contain_text("Strawberry Banana Juice")


def test_lang_en_shows_the_order_screen_in_english(page, server):
    open_order_screen(page, server, "?lang=en")
    expect_english_order_screen(page)


def test_an_english_browser_gets_the_order_screen_in_english(new_page, server):
    page = new_page(locale="en-US", extra_http_headers={"Accept-Language": "en-US,en;q=0.9"})
    open_order_screen(page, server)
    expect_english_order_screen(page)


# --- what the page loads, and how it fits a phone -----------------------------------------------

def test_order_screen_loads_nothing_from_outside_the_server(page, server):
    urls: list[str] = []
    page.context.on("request", lambda request: urls.append(request.url))

    open_order_screen(page, server)
    button(page, "바나나쥬스 주문").click()
    served = dialog_saying(page, f"바나나쥬스 {ORDERED}")
    expect(served).to_be_visible()
    button(served, "확인").click()
    expect(served).to_be_hidden()

    assert urls, "no request was recorded"
    outside = [url for url in urls if not url.startswith(server.url + "/") and not url.startswith(("data:", "blob:"))]
    assert not outside, f"the page fetched from outside the server: {outside}"


def test_order_buttons_fit_a_phone_screen_without_sideways_scrolling(phone_page, server):
    open_order_screen(phone_page, server)

    for juice in JUICES:
        order = order_button(phone_page, juice)
        expect(order).to_be_visible()
        box = order.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, f"{juice} button is outside the width: {box}"
    scroll_width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 390, f"the page is {scroll_width} px wide on a 390 px phone"
