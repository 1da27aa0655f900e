"""The vending machine's screen (/vending) in a real browser (Debian chromium through Playwright),
against a real server.

Each test gets a new machine: five of each of nine products, a balance of 0 won.
"""
from __future__ import annotations

import re
import time
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from e2e_support import OUTSIDE_DIALOGS, button, login
from vending_support import PRODUCTS, START_STOCK, VendingApi

LIVE_TIMEOUT_MS = 1_500  # the contract says within 1.5 s
RESTOCK = "재고 추가"
CHANGE = "잔돈 반환"


# --- what the tests look for ---------------------------------------------------------------------

def stock_label(page: Page, product: str) -> Locator:
    """The screen's count of one product (a staff dialog that also tags its counts is left out)."""
    return page.locator(f'[data-product="{product}"]{OUTSIDE_DIALOGS}')


def buy_button(page: Page, product: str) -> Locator:
    return page.locator(f'[data-buy="{product}"]')


def product_card(page: Page, product: str) -> Locator:
    """The innermost element holding both the product's stock count and its buy button."""
    return (page.locator("*")
            .filter(has=page.locator(f'[data-product="{product}"]'))
            .filter(has=page.locator(f'[data-buy="{product}"]'))
            .last)


def balance_label(page: Page) -> Locator:
    return page.locator("[data-balance]")


def won(amount: int) -> str:
    return f"{amount:,}원"


def won_pattern(amount: int) -> str:
    """`6,000원`, also without the comma or with a space before 원."""
    return f"{amount:,}".replace(",", ",?") + r"\s*원"


def balance_text(amount: int) -> re.Pattern:
    return re.compile(rf"^\s*잔액\s*:\s*{won_pattern(amount)}\s*$")


def money_button(page: Page, amount: int) -> Locator:
    return page.get_by_role("button", name=re.compile(rf"^\s*{won_pattern(amount)}\s*$"))


def is_live_stream(response) -> bool:
    return urlparse(response.url).path == "/api/live"


def open_vending(page: Page, server) -> None:
    """Opens /vending and, when the page uses GET /api/live, waits until the server has answered it (so the
    page is subscribed: a change made after this shows through live updates, not by luck of timing)."""
    try:
        with page.expect_response(is_live_stream, timeout=3_000):
            page.goto(server.url + "/vending")
    except PlaywrightTimeoutError:
        pass  # no /api/live stream seen; the page may follow the machine another way
    expect(buy_button(page, "cola")).to_be_visible()


def close_any_dialog(page: Page) -> None:
    """Closes a message dialog a purchase or a change may open, so that it does not cover the screen."""
    dialogs = page.locator("dialog[open], [role=dialog]:visible, [role=alertdialog]:visible")
    for index in range(dialogs.count()):
        close = dialogs.nth(index).get_by_role("button", name=re.compile(r"^\s*(확인|닫기|OK)\s*$"))
        if close.count() and close.first.is_visible():
            close.first.click()


def wait_until_page_is_live(page: Page, api: VendingApi) -> None:
    """Makes sure the page's live channel is connected before a timed check: 100 won inserted through the
    API must show on the page within 3 s."""
    balance = api.insert_ok(100)["balance"]
    expect(balance_label(page)).to_have_text(balance_text(balance))


HISTORY_MENTIONS_JS = """
(name) => {
  // Visible text naming the product outside the product cards, the sales chart, dialogs and images.
  const cards = [];
  for (const buy of document.querySelectorAll('[data-buy]')) {
    const stock = document.querySelector(`[data-product="${CSS.escape(buy.dataset.buy)}"]`);
    let node = buy.parentElement;
    while (node && !(stock && node.contains(stock))) node = node.parentElement;
    if (node && node !== document.body) cards.push(node);
  }
  const skipped = (el) => cards.some((card) => card.contains(el)) ||
    el.closest('[data-sales-chart], dialog, [role=dialog], [role=alertdialog], svg, script, style, template, option');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let count = 0;
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || !walker.currentNode.textContent.includes(name) || skipped(el)) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    count++;
  }
  return count;
}
"""


def history_mentions(page: Page, name: str) -> int:
    return page.evaluate(HISTORY_MENTIONS_JS, name)


# --- the screen ----------------------------------------------------------------------------------

def test_vending_screen_shows_nine_products_with_image_name_price_and_stock(page, server):
    products = VendingApi(server.url).products()
    open_vending(page, server)

    expect(page.locator("[data-buy]")).to_have_count(len(PRODUCTS))
    for id in PRODUCTS:
        expect(stock_label(page, id)).to_have_text(str(START_STOCK))
        card = product_card(page, id)
        expect(card.locator("svg, img").first).to_be_visible()
        expect(card).to_contain_text(products[id]["name"])
        expect(card).to_contain_text(re.compile(won_pattern(products[id]["price"])))
    expect(balance_label(page)).to_have_text(balance_text(0))


def test_money_buttons_add_to_the_balance_and_enable_what_it_pays_for(page, server):
    prices = VendingApi(server.url).prices()
    assert min(prices.values()) > 1_000 and max(prices.values()) <= 6_000, prices
    open_vending(page, server)
    for id in PRODUCTS:
        expect(buy_button(page, id)).to_be_disabled()

    money_button(page, 1_000).click()
    expect(balance_label(page)).to_have_text(balance_text(1_000))
    for id in PRODUCTS:
        expect(buy_button(page, id)).to_be_disabled()

    money_button(page, 5_000).click()
    expect(balance_label(page)).to_have_text(balance_text(6_000))
    expect(balance_label(page)).to_have_text(re.compile(r"잔액: 6,000원"))
    for id in PRODUCTS:
        expect(buy_button(page, id)).to_be_enabled()
    assert VendingApi(server.url).balance() == 6_000


def test_buy_buttons_follow_the_price_and_the_stock(page, server):
    api = VendingApi(server.url)
    prices = api.prices()
    open_vending(page, server)
    wait_until_page_is_live(page, api)  # balance 100

    api.insert_ok(1_000, 500)  # 1,600 won
    expect(balance_label(page)).to_have_text(balance_text(1_600))
    for id, price in prices.items():
        if price <= 1_600:
            expect(buy_button(page, id)).to_be_enabled()
        else:
            expect(buy_button(page, id)).to_be_disabled()

    api.insert_ok(10_000, 5_000)
    for _ in range(START_STOCK):
        api.buy_ok("cola")
    balance = api.balance()
    assert balance >= prices["cola"]
    expect(stock_label(page, "cola")).to_have_text("0")
    expect(balance_label(page)).to_have_text(balance_text(balance))
    expect(buy_button(page, "cola")).to_be_disabled()
    for id in PRODUCTS:
        if id != "cola":
            expect(buy_button(page, id)).to_be_enabled()


def test_buying_a_cola_takes_a_can_and_its_price_and_shows_in_the_history_and_chart(page, server):
    api = VendingApi(server.url)
    price = api.prices()["cola"]
    open_vending(page, server)
    expect(page.locator("[data-sales-chart] svg").first).to_be_attached()
    history_before = history_mentions(page, "콜라")
    money_button(page, 1_000).click()
    expect(balance_label(page)).to_have_text(balance_text(1_000))
    money_button(page, 5_000).click()
    expect(balance_label(page)).to_have_text(balance_text(6_000))

    buy_button(page, "cola").click()

    expect(stock_label(page, "cola")).to_have_text(str(START_STOCK - 1))
    expect(balance_label(page)).to_have_text(balance_text(6_000 - price))
    close_any_dialog(page)
    assert api.stock()["cola"] == START_STOCK - 1
    assert api.balance() == 6_000 - price
    for id in PRODUCTS:
        if id != "cola":
            expect(stock_label(page, id)).to_have_text(str(START_STOCK))

    deadline = time.monotonic() + 3
    while history_mentions(page, "콜라") <= history_before:
        assert time.monotonic() < deadline, "no purchase history naming 콜라 appeared on the screen (outside the " \
                                            "product cards and the chart) after buying a cola"
        time.sleep(0.1)

    chart = page.locator("[data-sales-chart] svg").first
    expect(chart).to_be_visible()
    shapes = chart.locator("rect, path, circle, line, polyline, polygon")
    expect(shapes.first).to_be_attached()


def test_change_button_returns_the_rest_and_says_what_came_back(page, server):
    api = VendingApi(server.url)
    prices = api.prices()
    open_vending(page, server)
    money_button(page, 5_000).click()
    expect(balance_label(page)).to_have_text(balance_text(5_000))
    buy_button(page, "cola").click()
    rest = 5_000 - prices["cola"]
    expect(balance_label(page)).to_have_text(balance_text(rest))
    close_any_dialog(page)
    assert rest not in prices.values() and rest not in (1_000, 5_000), "the returned amount should stand out"

    button(page, CHANGE).click()

    expect(balance_label(page)).to_have_text(balance_text(0))
    # Either the amount ("3,000원") or the bills ("1,000원 × 3", "1,000원 3장").
    thousands = rest // 1_000
    returned = re.compile(rf"{won_pattern(rest)}|1,?000\s*원\s*(?:[x×*]\s*{thousands}|{thousands}\s*(?:장|개))")
    expect(page.locator("body")).to_contain_text(returned, use_inner_text=True)
    assert api.balance() == 0
    assert api.totals()["returned"] == rest


def test_sales_chart_is_an_svg(page, server):
    open_vending(page, server)
    chart = page.locator("[data-sales-chart] svg").first
    expect(chart).to_be_visible()


# --- live updates --------------------------------------------------------------------------------

def test_a_second_screen_follows_money_purchases_and_api_purchases(new_page, server):
    api = VendingApi(server.url)
    prices = api.prices()
    counter, display = new_page(), new_page()
    open_vending(counter, server)
    open_vending(display, server)
    wait_until_page_is_live(display, api)  # 100 won
    expect(balance_label(counter)).to_have_text(balance_text(100))

    money_button(counter, 5_000).click()
    expect(balance_label(display)).to_have_text(balance_text(5_100), timeout=LIVE_TIMEOUT_MS)

    buy_button(counter, "cola").click()
    expect(stock_label(display, "cola")).to_have_text(str(START_STOCK - 1), timeout=LIVE_TIMEOUT_MS)
    balance = 5_100 - prices["cola"]
    expect(balance_label(display)).to_have_text(balance_text(balance), timeout=LIVE_TIMEOUT_MS)
    close_any_dialog(counter)

    api.buy_ok("georgia")
    balance -= prices["georgia"]
    expect(stock_label(display, "georgia")).to_have_text(str(START_STOCK - 1), timeout=LIVE_TIMEOUT_MS)
    expect(balance_label(display)).to_have_text(balance_text(balance), timeout=LIVE_TIMEOUT_MS)
    expect(stock_label(counter, "georgia")).to_have_text(str(START_STOCK - 1), timeout=LIVE_TIMEOUT_MS)
    expect(balance_label(counter)).to_have_text(balance_text(balance), timeout=LIVE_TIMEOUT_MS)


def test_a_staff_restock_through_the_api_shows_on_an_open_screen(page, server):
    api = VendingApi(server.url)
    open_vending(page, server)
    wait_until_page_is_live(page, api)

    staff = VendingApi(server.url)
    assert staff.sign_in().status_code == 200
    staff.restock_ok("fanta", 7)

    expect(stock_label(page, "fanta")).to_have_text(str(START_STOCK + 7), timeout=LIVE_TIMEOUT_MS)


def test_changes_made_while_the_screen_connects_still_show(page, server):
    """A change that lands between the server rendering /vending and the page's live channel connecting must
    still reach the page (e.g. the live channel starts with the machine as it is now)."""
    api = VendingApi(server.url)
    price = api.prices()["cola"]
    changed = []

    def change_then_connect(route):
        if not changed:
            api.insert_ok(5_000)
            api.buy_ok("cola")
            changed.append(True)
        route.continue_()

    page.route(re.compile(r"/api/live(\?.*)?$"), change_then_connect)
    page.goto(server.url + "/vending")
    expect(buy_button(page, "cola")).to_be_visible()
    page.wait_for_timeout(1_000)
    if not changed:  # the page does not use /api/live: then this is a plain live-update check
        api.insert_ok(5_000)
        api.buy_ok("cola")

    expect(stock_label(page, "cola")).to_have_text(str(START_STOCK - 1), timeout=LIVE_TIMEOUT_MS)
    expect(balance_label(page)).to_have_text(balance_text(5_000 - price), timeout=LIVE_TIMEOUT_MS)


# --- staff ---------------------------------------------------------------------------------------

def test_without_signing_in_there_are_no_restock_buttons(page, server):
    open_vending(page, server)
    expect(page.locator("[data-buy]")).to_have_count(len(PRODUCTS))
    expect(button(page, RESTOCK)).to_have_count(0)


def test_staff_get_a_restock_button_per_product_and_it_adds_cider(page, server):
    api = VendingApi(server.url)
    login(page, server)
    open_vending(page, server)

    expect(button(page, RESTOCK)).to_have_count(len(PRODUCTS))
    for id in PRODUCTS:
        expect(button(product_card(page, id), RESTOCK)).to_have_count(1)

    # Whichever way the amount is asked for: by a prompt(), by a dialog with a field, or not at all (+1).
    page.on("dialog", lambda dialog: dialog.accept("3") if dialog.type == "prompt" else dialog.accept())
    button(product_card(page, "cider"), RESTOCK).click()

    filled = False
    deadline = time.monotonic() + 5
    while (cider := api.stock()["cider"]) <= START_STOCK:
        assert time.monotonic() < deadline, f"cider is still {cider} in GET /api/vending after {RESTOCK}"
        form = page.locator("dialog[open], [role=dialog]:visible").filter(has=page.locator("input:visible"))
        if not filled and form.count():
            form.first.locator("input:visible").first.fill("3")
            form.first.get_by_role("button", name=re.compile(r"^\s*(재고\s*추가|추가|확인|저장)\s*$")).first.click()
            filled = True
        time.sleep(0.1)
    assert cider in (START_STOCK + 1, START_STOCK + 3), f"cider went from {START_STOCK} to {cider}"
    close_any_dialog(page)
    expect(stock_label(page, "cider")).to_have_text(str(cider))


# --- what the page loads, and how it fits a phone -----------------------------------------------

def test_vending_screen_loads_nothing_from_outside_the_server(page, server):
    urls: list[str] = []
    page.context.on("request", lambda request: urls.append(request.url))

    open_vending(page, server)
    money_button(page, 5_000).click()
    expect(balance_label(page)).to_have_text(balance_text(5_000))
    buy_button(page, "georgia").click()
    expect(stock_label(page, "georgia")).to_have_text(str(START_STOCK - 1))
    close_any_dialog(page)
    button(page, CHANGE).click()
    expect(balance_label(page)).to_have_text(balance_text(0))

    assert urls, "no request was recorded"
    outside = [url for url in urls if not url.startswith(server.url + "/") and not url.startswith(("data:", "blob:"))]
    assert not outside, f"the page fetched from outside the server: {outside}"


def test_vending_screen_fits_a_phone_without_sideways_scrolling(phone_page, server):
    open_vending(phone_page, server)

    for id in PRODUCTS:
        buy = buy_button(phone_page, id)
        buy.scroll_into_view_if_needed()
        expect(buy).to_be_visible()
        box = buy.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, f"{id} buy button is outside the width: {box}"
    for amount in (1_000, 5_000):
        expect(money_button(phone_page, amount)).to_be_visible()
    scroll_width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 390, f"the page is {scroll_width} px wide on a 390 px phone"


# --- sold out, the restock dialog, and what a purchase says ---------------------------------------

def test_sold_out_is_marked_and_differs_from_too_little_money(page, server):
    api = VendingApi(server.url)
    api.insert_ok(10_000)
    for _ in range(START_STOCK):
        api.buy_ok("cola")
    api.change()
    open_vending(page, server)

    expect(product_card(page, "cola").get_by_text("품절", exact=True)).to_be_visible()
    expect(buy_button(page, "cola")).to_be_disabled()
    # Cider is there but the balance is 0: its button is disabled too, without 품절.
    expect(buy_button(page, "cider")).to_be_disabled()
    expect(product_card(page, "cider").get_by_text("품절", exact=True)).to_be_hidden()

    # A restock (here through the API) takes the mark away on the open screen.
    VendingApi.signed_in_as_admin(server.url).restock_ok("cola", 2)
    expect(product_card(page, "cola").get_by_text("품절", exact=True)).to_be_hidden()


def test_staff_restock_in_a_dialog_that_shows_the_range_and_refuses_what_is_outside_it(page, server):
    api = VendingApi(server.url)
    login(page, server)
    open_vending(page, server)
    page.on("dialog", lambda dialog: pytest.fail(f"a browser {dialog.type}() was used: {dialog.message}"))

    restock = button(product_card(page, "fanta"), RESTOCK)
    restock.click()
    dialog = page.get_by_role("dialog", name="환타 재고 추가")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("1–1000")
    count = dialog.get_by_label(re.compile("추가할 개수"))
    expect(count).to_be_focused()

    for wrong in ("0", "1001", "2.5"):
        count.fill(wrong)
        button(dialog, "추가").click()
        expect(dialog.locator("#restock-error")).to_contain_text("1–1000")
        expect(dialog).to_be_visible()
    assert api.stock()["fanta"] == START_STOCK

    count.fill("7")
    button(dialog, "추가").click()
    expect(dialog).to_be_hidden()
    expect(stock_label(page, "fanta")).to_have_text(str(START_STOCK + 7))
    assert api.stock()["fanta"] == START_STOCK + 7
    expect(restock).to_be_focused()


def test_a_purchase_says_the_product_came_out_first_then_its_details(page, server):
    open_vending(page, server)
    money_button(page, 5_000).click()
    expect(balance_label(page)).to_have_text(balance_text(5_000))
    buy_button(page, "georgia").click()

    notice = page.locator("#notice")
    expect(notice).to_contain_text("조지아 나왔습니다!")
    text = notice.inner_text()
    assert text.startswith("조지아 나왔습니다!"), text
    assert "240ml" in text.split("조지아 나왔습니다!", 1)[1], text
