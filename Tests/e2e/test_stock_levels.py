"""Reorder levels: staff give a fruit a level (API or CLI; 0 means no warning); a fruit at or below it is
listed at GET /api/stock/low and marked on the order screen and the stock screen (`data-low`, `부족`),
within a second of the order that brought it down, on every open page.
"""
from __future__ import annotations

from playwright.sync_api import expect

from e2e_support import ShopApi, assert_error, login

LIVE_MS = 1_000


def test_levels_are_for_staff_and_checked(server):
    guest = ShopApi(server.url)
    assert_error(guest.put("/api/stock/kiwi/level", json={"level": 5}), 401)
    staff = ShopApi.signed_in_as_admin(server.url)
    assert_error(staff.put("/api/stock/kiwi/level", json={"level": -1}), 422, code="count_out_of_range")
    assert_error(staff.put("/api/stock/kiwi/level", json={"level": "five"}), 400)
    assert_error(staff.put("/api/stock/grape/level", json={"level": 5}), 404)
    assert guest.get("/api/stock/low").json() == []
    # `low` is the route's own word, not a fruit of PUT /api/stock/{fruit}.
    refused = staff.put("/api/stock/low", json={"count": 1})
    assert_error(refused, 405)
    assert refused.headers["Allow"] == "GET"


def test_a_fruit_ordered_down_to_its_level_is_low_everywhere(new_page, server):
    staff = ShopApi.signed_in_as_admin(server.url)
    answer = staff.put("/api/stock/kiwi/level", json={"level": 4})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"fruit": "kiwi", "level": 4, "count": 10, "low": False}
    page = new_page()
    login(page, server)
    page.goto(server.url + "/")
    kiwi_row = page.locator('li.fruit[data-low-of="kiwi"]')
    expect(kiwi_row).not_to_have_attribute("data-low", "")
    expect(kiwi_row.get_by_text("부족")).to_be_hidden()

    assert ShopApi(server.url).post("/api/orders", json={"juice": "kiwiJuice"}).status_code == 201  # 10 → 7
    expect(kiwi_row).not_to_have_attribute("data-low", "")
    assert ShopApi(server.url).post("/api/orders", json={"juice": "kiwiJuice"}).status_code == 201  # 7 → 4
    expect(kiwi_row).to_have_attribute("data-low", "", timeout=LIVE_MS)
    expect(kiwi_row.get_by_text("부족")).to_be_visible()
    expect(page.locator('[data-fruit="kiwi"]')).to_have_attribute("data-low", "")
    assert ShopApi(server.url).get("/api/stock/low").json() == [{"fruit": "kiwi", "level": 4, "count": 4, "low": True}]

    page.locator("#edit-stock").click()
    stock_row = page.locator('#stock-screen li.stock-row[data-low-of="kiwi"]')
    expect(stock_row).to_have_attribute("data-low", "")
    expect(stock_row.get_by_text("부족")).to_be_visible()
    stock_row.get_by_role("button", name="키위 더하기").click()  # 4 → 5: above the level again
    expect(stock_row).not_to_have_attribute("data-low", "", timeout=LIVE_MS)
    expect(kiwi_row.get_by_text("부족")).to_be_hidden()


def test_the_cli_sets_a_level_and_the_open_page_follows(new_page, server):
    page = new_page(locale="en-US")
    page.goto(server.url + "/?lang=en")
    mango_row = page.locator('li.fruit[data-low-of="mango"]')
    page.evaluate("window.sameDocument = true")
    result = server.cli("stock", "level", "mango", "10")
    assert result.returncode == 0 and "(low)" in result.stdout, result
    expect(mango_row).to_have_attribute("data-low", "", timeout=2 * LIVE_MS)
    expect(mango_row.get_by_text("Low")).to_be_visible()
    assert page.evaluate("window.sameDocument === true"), "a new level marks the fruit without reloading the page"
    assert server.cli("stock", "level", "mango", "0").returncode == 0
    expect(mango_row).not_to_have_attribute("data-low", "", timeout=2 * LIVE_MS)
    bad = server.cli("stock", "level", "mango", "many")
    assert bad.returncode == 2 and bad.stderr.startswith("error: "), bad
