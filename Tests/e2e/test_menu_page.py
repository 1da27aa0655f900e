"""메뉴 관리 on the page /menu, staff only, in a Korean browser and in English: a juice added from its form
(names, price, recipe, option groups), a price changed, 품절 marked and taken back (the order screen's
button goes off and on again, live), a juice retired after its confirm (off the menu, listed as retired),
a bad price refused in the page's language with nothing changed; axe finds nothing serious on the page or
its dialog in either language.
"""
from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from e2e_support import ShopApi, button, login, sign_in_on_current_page

AXE = Axe()


def serious_violations(page) -> list[str]:
    results = AXE.run(page)
    return [f"{page.url}: {violation['id']} ({violation['impact']}) at "
            f"{[node['target'] for node in violation['nodes']][:5]}: {violation['help']}"
            for violation in results.response["violations"] if violation["impact"] in ("serious", "critical")]


def menu_juice(server, juice: str) -> dict | None:
    """The juice as GET /api/menu answers it; None once it is off the menu."""
    menu = ShopApi(server.url).get("/api/menu").json()
    return next((item for item in menu["juices"] if item["id"] == juice), None)


def juice_card(page, juice: str):
    return page.locator(f'li.menu-juice[data-juice="{juice}"]')


def submit_unchecked(card, price: str) -> None:
    """Types `price` into a juice's form and saves it past the browser's own min/max check, as an old
    browser or a hand-made request would: the server's answer is what is tested."""
    form = card.locator("form.juice-edit")
    form.evaluate("form => { form.noValidate = true; }")
    form.get_by_label("가격(원)").fill(price)
    button(form, "저장").click()


def test_staff_manage_the_menu_on_the_page_in_korean(new_page, page, server):
    page.goto(server.url + "/menu")
    assert "/login" in page.url, "staff only"
    login(page, server)
    page.goto(server.url + "/menu")
    expect(page).to_have_title("메뉴 관리 · 쥬스메이커")
    expect(page.get_by_role("link", name="메뉴 관리", exact=True)).to_have_attribute("aria-current", "page")
    notice = page.locator("#menu-notice")

    # A new juice: two fruits, 사이즈 and 얼음 but not 당도.
    add = page.locator("#add-juice")
    add.get_by_label("영문 ID").fill("bananaKiwi")
    add.get_by_label("한국어 이름").fill("바키쥬스")
    add.get_by_label("영어 이름").fill("Banana Kiwi")
    add.get_by_label("가격(원)").fill("5500")
    add.get_by_label("바나나").fill("1")
    add.get_by_label("키위").fill("2")
    add.get_by_label("당도").uncheck()
    button(add, "추가").click()
    expect(notice).to_have_text("새 쥬스를 메뉴에 더했어요: 바키쥬스")
    added = menu_juice(server, "bananaKiwi")
    assert added["name"] == {"ko": "바키쥬스", "en": "Banana Kiwi"} and added["price"] == 5500
    assert added["recipe"] == [{"fruit": "banana", "amount": 1}, {"fruit": "kiwi", "amount": 2}]
    assert [group["id"] for group in added["optionGroups"]] == ["size", "ice"]
    expect(juice_card(page, "bananaKiwi")).to_contain_text("🍌 바나나 1 · 🥝 키위 2")

    # A new price, seen by the API.
    kiwi = juice_card(page, "kiwiJuice")
    kiwi.get_by_label("가격(원)").fill("5200")
    button(kiwi, "저장").click()
    expect(notice).to_have_text("키위쥬스의 가격과 옵션을 저장했어요.")
    assert menu_juice(server, "kiwiJuice")["price"] == 5200
    expect(juice_card(page, "kiwiJuice").get_by_label("가격(원)")).to_have_value("5200")

    # 품절 and back: an order screen already open turns the juice's button off and on again.
    counter = new_page()
    counter.goto(server.url + "/")
    mango_button = counter.locator('button.order[data-juice="mangoJuice"]')
    expect(mango_button).to_be_enabled()
    button(juice_card(page, "mangoJuice"), "품절로 표시").click()
    expect(notice).to_have_text("망고쥬스: 품절로 표시했어요. 다시 판매할 때까지 주문할 수 없어요.")
    expect(juice_card(page, "mangoJuice").locator(".sold-out")).to_have_text("품절")
    assert menu_juice(server, "mangoJuice")["soldOut"] is True
    expect(mango_button).to_be_disabled()
    counter.goto(server.url + "/")
    expect(counter.locator('button.order[data-juice="mangoJuice"]')).to_be_disabled()
    button(juice_card(page, "mangoJuice"), "다시 판매").click()
    expect(notice).to_have_text("망고쥬스: 다시 판매해요.")
    expect(counter.locator('button.order[data-juice="mangoJuice"]')).to_be_enabled()

    # Retiring asks first; 아니오 keeps the juice.
    retire = button(juice_card(page, "bananaKiwi"), "메뉴에서 내리기")
    retire.click()
    dialog = page.locator("#retire-dialog[open]")
    expect(dialog).to_contain_text("바키쥬스 메뉴를 내릴까요?")
    button(dialog, "아니오").click()
    expect(dialog).to_be_hidden()
    expect(retire).to_be_focused()
    assert menu_juice(server, "bananaKiwi") is not None
    retire.click()
    button(page.locator("#retire-dialog[open]"), "예").click()
    expect(notice).to_have_text("바키쥬스 메뉴를 내렸어요. 지난 주문에는 그대로 남아요.")
    expect(juice_card(page, "bananaKiwi")).to_have_count(0)
    expect(page.locator("#retired")).to_have_text("바키쥬스")
    assert menu_juice(server, "bananaKiwi") is None
    counter.goto(server.url + "/")
    expect(counter.locator('[data-juice="bananaKiwi"]')).to_have_count(0)

    # A price out of range: said on the page, in Korean, and nothing changed.
    submit_unchecked(juice_card(page, "kiwiJuice"), "2000000")
    expect(page.locator("#menu-error")).to_have_text("키위쥬스: 가격은 0원부터 1,000,000원까지만 돼요. (입력: 2,000,000)")
    assert menu_juice(server, "kiwiJuice")["price"] == 5200

    found = serious_violations(page)
    button(juice_card(page, "kiwiJuice"), "메뉴에서 내리기").click()
    page.locator("#retire-dialog[open]").wait_for()
    found += serious_violations(page)
    assert not found, "\n".join(found)


def test_the_menu_page_in_english(new_page, server):
    page = new_page(locale="en-US", viewport={"width": 820, "height": 1180})
    page.goto(server.url + "/login?lang=ko")  # the helper fills the Korean form
    sign_in_on_current_page(page)
    page.goto(server.url + "/menu?lang=en")
    expect(page).to_have_title("Menu · JuiceMaker")
    kiwi = juice_card(page, "kiwiJuice")
    form = kiwi.locator("form.juice-edit")
    form.evaluate("form => { form.noValidate = true; }")
    form.get_by_label("Price (won)").fill("-1")
    button(form, "Save").click()
    expect(page.locator("#menu-error")).to_have_text(
        "Kiwi Juice: A price must be from 0원 to 1,000,000원 (given: -1).")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert menu_juice(server, "kiwiJuice")["price"] == 5000

    button(juice_card(page, "kiwiJuice"), "Mark sold out").click()
    expect(page.locator("#menu-notice")).to_have_text(
        "Kiwi Juice is marked sold out: it cannot be ordered until it is back on sale.")
    found = serious_violations(page)
    button(juice_card(page, "kiwiJuice"), "Retire").click()
    expect(page.locator("#retire-dialog[open]")).to_contain_text("Retire Kiwi Juice?")
    found += serious_violations(page)
    assert not found, "\n".join(found)
