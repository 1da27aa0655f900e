"""The header every page shares, Korean line breaking, and the dark theme, in a real browser.

Every page shows the shop's name, its own title, 쥬스 주문 · 자판기 · 홈 (the current one marked),
로그인 for a guest or the signed-in name with 로그아웃, and a link to the other language.
"""
from __future__ import annotations

from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from e2e_support import login, sign_in_on_current_page

PAGES = {  # path: its title, and which link of the header is the current page (if any)
    "/": ("쥬스 주문", "쥬스 주문"),
    "/vending": ("자판기", "자판기"),
    "/login": ("로그인", None),
    "/signup": ("회원가입", None),
}


def header_of(page: Page):
    return page.locator("header").first


@pytest.mark.parametrize("path", list(PAGES))
def test_a_guest_sees_the_same_header_on_every_page(page, server, path):
    title, current = PAGES[path]
    page.goto(server.url + path)
    header = header_of(page)
    expect(header.get_by_role("link", name="쥬스메이커")).to_be_visible()
    expect(header.get_by_role("heading", level=1)).to_have_text(title)
    nav = header.get_by_role("navigation")
    for name in ("쥬스 주문", "자판기", "홈", "로그인", "English"):
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    marked = nav.locator('[aria-current="page"]')
    if current:
        expect(marked).to_have_text(current)
    else:
        expect(marked).to_have_count(0)


def test_signed_in_the_header_shows_the_name_and_signs_out_on_every_page(page, server):
    login(page, server)
    for path, marked in (("/", "쥬스 주문"), ("/vending", "자판기"), ("/home", "홈")):
        page.goto(server.url + path)
        nav = header_of(page).get_by_role("navigation")
        expect(nav.locator(".who")).to_have_text("Admin")
        expect(nav.get_by_role("button", name="로그아웃", exact=True)).to_be_visible()
        expect(nav.get_by_role("link", name="로그인", exact=True)).to_have_count(0)
        expect(nav.locator('[aria-current="page"]')).to_have_text(marked)
    with page.expect_navigation():
        header_of(page).get_by_role("button", name="로그아웃", exact=True).click()
    expect(header_of(page).get_by_role("link", name="로그인", exact=True)).to_be_visible()


def test_signing_in_from_the_vending_header_comes_back_to_the_vending_machine(page, server):
    page.goto(server.url + "/vending")
    with page.expect_navigation():
        header_of(page).get_by_role("link", name="로그인", exact=True).click()
    sign_in_on_current_page(page)
    assert urlparse(page.url).path == "/vending", page.url


def test_the_english_header_says_the_same_in_english(new_page, server):
    page = new_page(locale="en-US")
    page.goto(server.url + "/vending?lang=en")
    nav = header_of(page).get_by_role("navigation")
    for name in ("Juice Order", "Vending machine", "Home", "Sign in", "한국어"):
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(header_of(page).get_by_role("link", name="JuiceMaker")).to_be_visible()


def test_korean_breaks_between_words_not_inside_them(new_page, server):
    page = new_page(viewport={"width": 360, "height": 740})
    page.goto(server.url + "/")
    assert page.evaluate("getComputedStyle(document.body).wordBreak") == "keep-all"
    # On a phone the word sits on one line however its button wraps: one box for all its letters.
    boxes = page.locator('[data-juice="pineappleJuice"]').evaluate("""button => {
        const text = [...button.childNodes].find(node => node.nodeType === Node.TEXT_NODE);
        const start = text.data.indexOf("파인애플쥬스");
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, start + "파인애플쥬스".length);
        return range.getClientRects().length;
    }""")
    assert boxes == 1, f"파인애플쥬스 is broken over {boxes} lines"


def test_the_dark_theme_follows_the_device(new_page, server):
    light = new_page(color_scheme="light")
    dark = new_page(color_scheme="dark")
    backgrounds = []
    for page in (light, dark):
        page.goto(server.url + "/")
        backgrounds.append(page.evaluate("getComputedStyle(document.documentElement).backgroundColor"))
    assert backgrounds[0] != backgrounds[1], backgrounds
    assert dark.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"


def test_a_language_chosen_once_is_kept_on_every_page_after(page, server):
    page.goto(server.url + "/")
    with page.expect_navigation():
        header_of(page).get_by_role("link", name="English", exact=True).click()
    expect(header_of(page).get_by_role("heading", level=1)).to_have_text("Juice Order")
    for path, title in (("/vending", "Vending Machine"), ("/login", "Sign in"), ("/signup", "Sign up")):
        page.goto(server.url + path)  # no ?lang: the choice is remembered
        expect(header_of(page).get_by_role("heading", level=1)).to_have_text(title)
    with page.expect_navigation():
        header_of(page).get_by_role("link", name="한국어", exact=True).click()
    page.goto(server.url + "/vending")
    expect(header_of(page).get_by_role("heading", level=1)).to_have_text("자판기")
