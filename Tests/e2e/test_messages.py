"""Every message a page can show, in a real browser, in Korean (`ko-KR`) and English (`en-US`):
what the server refuses is said in the page's language and names fruits, juices and products by
their names. Then a keyboard-only walk through the order screen, its alert and the stock screen.

The server's word tables are checked whole by the Swift tests (WordsTests); these check that each
page shows the message where a person reads it.
"""
from __future__ import annotations

import datetime as dt

import pytest
import requests
from playwright.sync_api import Page, expect

from e2e_support import ADMIN_PASSWORD, ADMIN_USERNAME, button

GIF = bytes.fromhex("47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b")

# The labels each language's pages use, from the word tables.
LABELS = {
    "ko-KR": {"username": "아이디", "password": "비밀번호", "sign_up": "가입하기", "sign_in": "로그인",
              "title": "제목", "image": "이미지", "start": "시작일", "end": "종료일", "post": "올리기",
              "order_strawberry": "딸기쥬스 주문"},
    "en-US": {"username": "Username", "password": "Password", "sign_up": "Sign up", "sign_in": "Sign in",
              "title": "Title", "image": "Image", "start": "Starts", "end": "Ends", "post": "Post",
              "order_strawberry": "Order Strawberry Juice"},
}

# What the pages must say, exactly as the word tables word it.
SAID = {
    "ko-KR": {
        "taken": "이미 쓰고 있는 아이디예요: already_here",
        "bad_username": "아이디는 영문 소문자, 숫자, _로 3~20자여야 해요. (입력: Jimin!)",
        "long_password": "비밀번호는 72바이트까지예요(한글 한 글자는 3바이트). 그보다 길면 뒷부분이 잘리기 때문에 받지 않아요.",
        "wrong": "아이디 또는 비밀번호가 맞지 않아요.",
        "locked": "로그인 시도가 너무 많아요.",
        "cap": "5,000원을 넣으면 잔액이 50,000원을 넘어요. 지금 잔액은 50,000원이에요.",
        "short": "딸기쥬스 재료가 모자라요. 딸기 16개 필요 · 지금 10개",
        "image": "이미지는 PNG, JPEG, WebP 파일만 올릴 수 있어요.",
        "period": "종료일이 시작일보다 빨라요.",
    },
    "en-US": {
        "taken": "The username 'already_here' is taken.",
        "bad_username": "A username is 3 to 20 of a-z, 0-9 and _; 'Jimin!' is not.",
        "long_password": "A password can be at most 72 bytes (a Korean letter takes 3); a longer one would be silently truncated.",
        "wrong": "Wrong username or password.",
        "locked": "Too many sign-in attempts.",
        "cap": "Adding 5,000원 would take the balance past 50,000원; it is 50,000원 now.",
        "short": "Not enough fruit for Strawberry Juice (Strawberry: 16 needed · 10 left).",
        "image": "The image must be a PNG, JPEG or WebP file.",
        "period": "The event ends before it starts.",
    },
}

LOCALES = list(LABELS)


def submit_account_form(page: Page, locale: str, username: str, password: str, submit: str) -> None:
    """Fills the username and password of the form on the page and presses its `submit` button ("sign_up"
    or "sign_in", in LABELS), waiting for the page it leads to."""
    labels = LABELS[locale]
    page.get_by_label(labels["username"], exact=True).fill(username)
    page.get_by_label(labels["password"], exact=True).fill(password)
    with page.expect_navigation():
        button(page, labels[submit]).click()


def sign_up_on_page(page: Page, locale: str, username: str, password: str) -> None:
    submit_account_form(page, locale, username, password, "sign_up")


def sign_in_on_page(page: Page, locale: str, username: str, password: str) -> None:
    submit_account_form(page, locale, username, password, "sign_in")


def page_alert(page: Page):
    return page.locator("main").get_by_role("alert")


@pytest.mark.parametrize("locale", LOCALES)
def test_sign_up_page_says_each_refusal_in_its_language(new_page, server, locale):
    requests.post(server.url + "/api/members", json={"username": "already_here", "password": "long-enough-1"},
                  timeout=5).raise_for_status()
    page = new_page(locale=locale)
    page.goto(server.url + "/signup")
    sign_up_on_page(page, locale, "already_here", "long-enough-2")
    expect(page_alert(page)).to_have_text(SAID[locale]["taken"])

    sign_up_on_page(page, locale, "new_member", "비밀번호" * 7)  # 84 bytes: no browser check stops it
    expect(page_alert(page)).to_have_text(SAID[locale]["long_password"])

    # The browser's own check stops a bad username first; without it, the server says why in words.
    page.eval_on_selector("#username", "field => { field.removeAttribute('pattern'); }")
    sign_up_on_page(page, locale, "Jimin!", "long-enough-3")
    expect(page_alert(page)).to_have_text(SAID[locale]["bad_username"])
    assert page.request.get(server.url + "/api/me").status == 401


@pytest.mark.parametrize("locale", LOCALES)
def test_login_page_says_wrong_and_locked_in_its_language(new_page, server, locale):
    page = new_page(locale=locale)
    page.goto(server.url + "/login")
    for attempt in range(5):
        sign_in_on_page(page, locale, ADMIN_USERNAME, f"wrong-{attempt}")
        expect(page_alert(page)).to_have_text(SAID[locale]["wrong"])
    sign_in_on_page(page, locale, ADMIN_USERNAME, ADMIN_PASSWORD)
    expect(page_alert(page)).to_contain_text(SAID[locale]["locked"])


@pytest.mark.parametrize("locale", LOCALES)
def test_vending_screen_says_the_balance_limit_in_its_language(new_page, server, locale):
    page = new_page(locale=locale)
    page.goto(server.url + "/vending")
    five_thousand = page.locator('[data-insert="5000"]')
    for tenth in range(1, 11):
        five_thousand.click()
        expect(page.locator("[data-balance]")).to_contain_text(f"{tenth * 5:,},000원")
    five_thousand.click()
    expect(page.locator("#details")).to_have_text(SAID[locale]["cap"])


@pytest.mark.parametrize("locale", LOCALES)
def test_home_names_the_short_fruit_and_staff_refusals_in_its_language(new_page, server, locale):
    page = new_page(locale=locale)
    page.goto(server.url + "/login?next=/home")
    sign_in_on_page(page, locale, ADMIN_USERNAME, ADMIN_PASSWORD)
    labels = LABELS[locale]

    button(page, labels["order_strawberry"]).click()
    expect(page.locator("#order-result")).to_have_text(SAID[locale]["short"])

    news = page.locator('form[data-endpoint="/api/news"]')
    news.get_by_label(labels["title"], exact=True).fill("움직이는 그림")
    news.get_by_label(labels["image"], exact=True).set_input_files(
        files=[{"name": "moving.png", "mimeType": "image/png", "buffer": GIF}])
    button(news, labels["post"]).click()
    expect(news.locator(".error")).to_have_text(SAID[locale]["image"])

    today = dt.date.today()
    event = page.locator('form[data-endpoint="/api/events"]')
    event.get_by_label(labels["title"], exact=True).fill("거꾸로 이벤트")
    event.get_by_label(labels["start"], exact=True).fill((today + dt.timedelta(days=2)).isoformat())
    event.get_by_label(labels["end"], exact=True).fill(today.isoformat())
    button(event, labels["post"]).click()
    expect(event.locator(".error")).to_have_text(SAID[locale]["period"])
    assert requests.get(server.url + "/api/news", timeout=5).json() == []


@pytest.mark.parametrize("locale,came,details", [
    ("ko-KR", "콜라 나왔습니다!", "콜라 (코카콜라) 355ml 2,000원 · 탄산: 152kcal · 콜라맛 · 제조 "),
    ("en-US", "Here is your Cola!", "Cola (코카콜라) 355ml 2,000원 · Soda: 152 kcal · cola · made "),
])
def test_a_purchase_is_described_in_the_pages_language(new_page, server, locale, came, details):
    page = new_page(locale=locale)
    page.goto(server.url + "/vending")
    page.locator('[data-insert="5000"]').click()
    expect(page.locator('[data-buy="cola"]')).to_be_enabled()
    page.locator('[data-buy="cola"]').click()
    expect(page.locator("#came")).to_have_text(came)
    expect(page.locator("#details")).to_contain_text(details)


# --- the keyboard alone ---------------------------------------------------------------------------

def focused_text(page: Page) -> str:
    return page.evaluate("() => (document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent || '').trim()")


def tab_to(page: Page, name: str, limit: int = 60, backwards: bool = False) -> None:
    """Presses Tab (or Shift+Tab) until the focused control is called `name`."""
    for _ in range(limit):
        if focused_text(page) == name:
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    pytest.fail(f"Tab never reached {name!r}; the focus is on {focused_text(page)!r}")


def focus_is_inside(page: Page, selector: str) -> bool:
    return page.evaluate("(selector) => document.querySelector(selector).contains(document.activeElement)", selector)


def test_the_order_and_stock_screens_work_from_the_keyboard_alone(page, server):
    page.goto(server.url + "/login?next=/")
    page.keyboard.press("Tab")
    while page.evaluate("() => document.activeElement.id") != "username":
        page.keyboard.press("Tab")
    page.keyboard.type(ADMIN_USERNAME)
    page.keyboard.press("Tab")
    page.keyboard.type(ADMIN_PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")

    tab_to(page, "딸기쥬스 주문")
    page.keyboard.press("Enter")
    alert = page.locator("#alert")
    expect(alert).to_contain_text("재료가 모자라요. 재고를 수정할까요?")
    assert focused_text(page) == "예", "the alert does not take the focus"
    for _ in range(4):  # the focus stays in the alert: nothing behind a modal dialog can take it
        page.keyboard.press("Tab")
        assert focus_is_inside(page, "#alert") or page.evaluate("() => document.activeElement === document.body")
    tab_to(page, "예", limit=4)
    page.keyboard.press("Enter")

    stock = page.locator("#stock-screen")
    expect(stock).to_be_visible()
    assert focus_is_inside(page, "#stock-screen"), "the stock screen does not take the focus"
    tab_to(page, "딸기 더하기", limit=20)
    for _ in range(6):
        page.keyboard.press("Enter")
    expect(stock.locator('[data-stock-fruit="strawberry"]')).to_have_text("16")
    page.keyboard.press("Escape")
    expect(stock).to_be_hidden()
    assert focused_text(page) == "딸기쥬스 주문", "closing the stock screen does not give the focus back"

    page.keyboard.press("Enter")
    expect(alert).to_contain_text("딸기쥬스 나왔습니다! 맛있게 드세요!")
    page.keyboard.press("Enter")
    expect(alert).to_be_hidden()
    assert focused_text(page) == "딸기쥬스 주문", "closing the alert does not give the focus back"
    assert requests.get(server.url + "/api/stock", timeout=5).json()["strawberry"] == 0


def test_the_vending_machine_works_from_the_keyboard_alone(page, server):
    page.goto(server.url + "/vending")
    tab_to(page, "1,000원")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.locator("[data-balance]")).to_contain_text("2,000원")
    for _ in range(40):  # every buy button is 구매; which product it buys is its description
        if page.evaluate("() => document.activeElement.dataset.buy") == "cola":
            break
        page.keyboard.press("Tab")
    description = page.evaluate("() => document.getElementById(document.activeElement.getAttribute('aria-describedby')).textContent")
    assert description == "콜라", f"the focused buy button is described as {description!r}"
    page.keyboard.press("Enter")
    expect(page.locator("#came")).to_have_text("콜라 나왔습니다!")
    assert requests.get(server.url + "/api/vending", timeout=5).json()["balance"] == 0
