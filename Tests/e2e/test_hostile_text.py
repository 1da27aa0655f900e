"""Hostile text in every field a member or staff can write stays text on every page, in both
languages: a member's name, news and event titles and bodies (API), and fruit and juice names
added with the CLI. Each payload would set `window.__pwned` if it ever ran.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from e2e_support import ADMIN_PASSWORD, ADMIN_USERNAME, MEMBER_PASSWORD, ShopApi, day

PAYLOADS = {
    # `$&` and `{needed}` would be read by a careless placeholder filling (the shortage line's).
    "fruit_ko": '<img src=x onerror="window.__pwned=1"> $& {needed}',
    "fruit_en": "<script>window.__pwned=2</script> $' {juice}",
    "juice_ko": '<img src=x onerror="window.__pwned=3">즙',
    "juice_en": '"><svg onload="window.__pwned=4">',
    "name": '<img src=x onerror="window.__pwned=5">',
    "news_title": "<script>window.__pwned=6</script>",
    "news_body": '<iframe src="javascript:window.top.__pwned=7"></iframe>',
    "event_title": '<img src=x onerror="window.__pwned=8">',
    "event_body": "{{juice}} </dialog><script>window.__pwned=9</script>",
}


def assert_nothing_ran(page: Page, where: str) -> None:
    page.wait_for_timeout(300)  # time for an injected element to load and fire
    assert page.evaluate("typeof window.__pwned") == "undefined", f"hostile text ran on {where}"
    injected = page.locator("img[src='x'], svg[onload], iframe, script:not([src]):not([type='application/json'])")
    assert injected.count() == 0, f"hostile text became markup on {where}"


def signed_in_page(page: Page, server, path: str, username: str, password: str) -> Page:
    """Signs in through the sign-in form (in the page's language) and lands on `path`."""
    page.goto(server.url + "/login?next=" + path)
    page.locator("#username").fill(username)
    page.locator("#password").fill(password)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    return page


@pytest.fixture
def hostile_shop(server):
    added = server.cli("menu", "add-fruit", "dragonfruit", "--ko", PAYLOADS["fruit_ko"], "--en", PAYLOADS["fruit_en"],
                       "--count", "0")
    assert added.returncode == 0, added.stderr
    added = server.cli("menu", "add-juice", "dragonJuice", "--ko", PAYLOADS["juice_ko"], "--en", PAYLOADS["juice_en"],
                       "--recipe", "dragonfruit:1")
    assert added.returncode == 0, added.stderr

    member = ShopApi(server.url)
    assert member.sign_up("hostile", name=PAYLOADS["name"]).status_code == 201
    staff = ShopApi.signed_in_as_admin(server.url)
    today = day()
    assert staff.post("/api/news", files={"title": (None, PAYLOADS["news_title"]),
                                          "body": (None, PAYLOADS["news_body"])}).status_code == 201
    assert staff.post("/api/events", files={"title": (None, PAYLOADS["event_title"]), "body": (None, PAYLOADS["event_body"]),
                                            "start": (None, today), "end": (None, today)}).status_code == 201
    return server


@pytest.mark.parametrize("locale, language", [("ko-KR", "ko"), ("en-US", "en")])
def test_hostile_text_stays_text_on_every_page(new_page, hostile_shop, locale, language):
    server = hostile_shop
    fruit, juice = PAYLOADS[f"fruit_{language}"], PAYLOADS[f"juice_{language}"]

    staff = signed_in_page(new_page(locale=locale), server, "/", ADMIN_USERNAME, ADMIN_PASSWORD)
    expect(staff.locator("main")).to_contain_text(fruit)
    expect(staff.locator('[data-juice="dragonJuice"]')).to_contain_text(juice)
    staff.locator("#edit-stock").click()
    expect(staff.locator("#stock-screen")).to_contain_text(fruit)
    assert_nothing_ran(staff, "the order and stock screens")
    staff.keyboard.press("Escape")
    staff.locator('[data-juice="dragonJuice"]').click()
    shortage_line = f"{fruit} 1개 필요 · 지금 0개" if language == "ko" else f"{fruit}: 1 needed · 0 left"
    expect(staff.locator("#alert")).to_contain_text(shortage_line)  # the fruit's name exactly as written
    assert_nothing_ran(staff, "the shortage alert")
    staff.keyboard.press("Escape")

    member = signed_in_page(new_page(locale=locale), server, "/home", "hostile", MEMBER_PASSWORD)
    event = member.locator("dialog#event")
    expect(event).to_contain_text(PAYLOADS["event_title"])
    expect(event).to_contain_text(PAYLOADS["event_body"])
    event.get_by_role("button").last.click()
    member.locator('[data-juice="dragonJuice"]').click()
    expect(member.locator("#order-result")).to_contain_text(juice)
    expect(member.locator("#order-result")).to_contain_text(fruit)
    server.cli("stock", "set", "dragonfruit", "5", check=True)
    expect(member.locator(".greeting")).to_contain_text(PAYLOADS["name"])
    expect(member.locator(".news-item").first).to_contain_text(PAYLOADS["news_title"])
    expect(member.locator(".news-item").first).to_contain_text(PAYLOADS["news_body"])
    member.locator('[data-juice="dragonJuice"]').click()
    expect(member.locator("#order-result")).to_contain_text(juice)
    expect(member.locator("#my-orders")).to_contain_text(juice)
    expect(member.locator("header")).to_contain_text(PAYLOADS["name"])
    assert_nothing_ran(member, "the member's home")

    for path in ("/vending", "/login", "/signup"):
        member.goto(server.url + path)
        assert_nothing_ran(member, path)
