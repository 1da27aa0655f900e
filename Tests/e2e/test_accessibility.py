"""Every page passes axe-core (axe-playwright-python) with no serious or critical violation, in Korean
and English, at phone and iPad width, light and dark, for a guest and for staff; also with the
stock screen, the restock dialog and the day-close dialog open, and a day report listed.
"""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from e2e_support import ShopApi, login, sign_in_on_current_page

AXE = Axe()
WIDTHS = {"phone": {"width": 390, "height": 844}, "ipad": {"width": 820, "height": 1180}}
GUEST_PAGES = ["/", "/vending", "/login", "/signup", "/board"]
STAFF_PAGES = ["/", "/vending", "/home", "/kitchen", "/board", "/reports", "/menu", "/counter"]


def serious_violations(page) -> list[str]:
    results = AXE.run(page)
    return [f"{page.url}: {violation['id']} ({violation['impact']}) at "
            f"{[node['target'] for node in violation['nodes']][:5]}: {violation['help']}"
            for violation in results.response["violations"] if violation["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("locale, query", [("ko-KR", ""), ("en-US", "?lang=en")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_has_no_serious_accessibility_violation(new_page, server, width, locale, query, scheme):
    found = []
    guest = new_page(locale=locale, viewport=WIDTHS[width], color_scheme=scheme)
    for path in GUEST_PAGES:
        guest.goto(server.url + path + query)
        found += serious_violations(guest)
    staff = new_page(locale=locale, viewport=WIDTHS[width], color_scheme=scheme)
    staff.goto(server.url + "/login?lang=ko")  # the helper fills the Korean form
    sign_in_on_current_page(staff)
    for path in STAFF_PAGES:
        staff.goto(server.url + path + query)
        found += serious_violations(staff)
    assert not found, "\n".join(found)


def test_the_open_dialogs_have_no_serious_accessibility_violation(page, server):
    # Kiwi at its reorder level, so the order and stock screens show their 부족 marks.
    assert ShopApi.signed_in_as_admin(server.url).put("/api/stock/kiwi/level", json={"level": 10}).status_code == 200
    login(page, server)
    page.goto(server.url + "/home")
    page.locator('[data-juice="kiwiJuice"]').click()
    page.locator("#my-queue li").wait_for()
    page.goto(server.url + "/board")
    page.locator("#preparing li").wait_for()
    found = serious_violations(page)
    page.goto(server.url + "/kitchen")
    page.locator(".ticket .cancel").click()
    page.locator("#cancel-dialog[open]").wait_for()
    found += serious_violations(page)
    page.goto(server.url + "/")
    page.locator('li.fruit[data-low-of="kiwi"] .low-mark').wait_for()
    found += serious_violations(page)
    page.locator("#edit-stock").click()
    page.locator("#stock-screen[open]").wait_for()
    found += serious_violations(page)
    page.goto(server.url + "/vending")
    page.locator('[data-restock="cola"]').click()
    page.locator("#restock[open]").wait_for()
    found += serious_violations(page)
    page.goto(server.url + "/reports")
    page.locator("#close-day").click()
    page.locator("#close-dialog[open]").wait_for()
    found += serious_violations(page)
    page.keyboard.press("Escape")
    page.locator("#close-no").wait_for(state="hidden")
    page.locator("#close-day").click()
    page.locator("#close-yes").click()
    page.locator("#reports tbody tr").wait_for()
    found += serious_violations(page)
    assert not found, "\n".join(found)
