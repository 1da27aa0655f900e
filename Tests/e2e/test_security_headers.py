"""Security headers on every answer, and every page working under them in a real browser (Debian
chromium through Playwright): zero Content-Security-Policy violations in Korean and English, while a
guest orders a juice and buys from the vending machine, a member signs up and orders for pickup, and
staff change a stock count and move the order on the kitchen screen.

One server serves the whole module: the flows read counts before they change them, so they don't
depend on each other's order.
"""
from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
import requests
from playwright.sync_api import BrowserContext, Page, expect

from e2e_support import (ADMIN_PASSWORD, ADMIN_USERNAME, MEMBER_PASSWORD, OUTSIDE_DIALOGS, ServerProblem, ShopApi,
                         ShopServer, day, fruit_label, make_server_workdir, server_binary, stop_all)
from test_member_app import form_parts, png_bytes

EXPECTED = {  # header: its exact value on every answer
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
CSP_MUST = {  # directive: its exact sources
    "default-src": "'self'", "script-src": "'self'", "style-src": "'self'", "connect-src": "'self'",
    "object-src": "'none'", "base-uri": "'none'", "form-action": "'self'", "frame-ancestors": "'none'",
}
DENIED_FEATURES = ["camera", "microphone", "geolocation", "payment", "usb"]
USED_FEATURES = ["autoplay", "fullscreen"]  # the kitchen plays a sound; never denied

LANGUAGES = {  # name: (browser locale, query that picks the language)
    "ko": ("ko-KR", ""),
    "en": ("en-US", "lang=en"),
}

# Records every violation the document reports, into the page (window) and to the test (survives navigation).
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const seen = `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`;
  window.__cspViolations.push(seen);
  window.reportCspViolation(document.location.pathname + ": " + seen);
});
"""


# --- the one server, and what it holds -------------------------------------------------------------

@pytest.fixture(scope="module")
def shop():
    binary = server_binary()
    if not binary.is_file():
        pytest.fail(f"the juicemaker binary is missing at {binary}", pytrace=False)
    server = ShopServer(binary=binary, workdir=make_server_workdir())
    try:
        server.start()
    except ServerProblem as error:
        pytest.fail(f"could not start the server: {error}", pytrace=False)
    yield server
    stop_all([server])


@pytest.fixture(scope="module")
def image_path(shop) -> str:
    """News with an image, and an event running today with one, so /home shows pictures and a dialog."""
    staff = ShopApi.signed_in_as_admin(shop.url)
    image = ("dot.png", png_bytes(width=4, height=3), "image/png")
    news = staff.post("/api/news", files=form_parts({"title": "새 메뉴", "body": "망고"}, image))
    assert news.status_code == 201, news.text
    event = staff.post("/api/events", files=form_parts(
        {"title": "행사", "body": "1+1", "start": day(-1), "end": day(1)}, image))
    assert event.status_code == 201, event.text
    return news.json()["imageURL"]


# --- a browser that listens for violations --------------------------------------------------------

class Watched:
    """A browser context in one language whose pages report CSP violations, Permissions-Policy
    complaints and uncaught script errors into `problems`."""

    def __init__(self, browser, shop: ShopServer, language: str):
        locale, self.query = LANGUAGES[language]
        self.shop = shop
        self.problems: list[str] = []
        self.context: BrowserContext = browser.new_context(locale=locale, viewport={"width": 1280, "height": 800})
        self.context.set_default_timeout(5_000)
        self.context.expose_function("reportCspViolation", lambda text: self.problems.append("violation " + text))
        self.context.add_init_script(WATCH_CSP)
        self.page: Page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"script error on {self.page.url}: {error}"))

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Permissions-Policy" in message.text:
            self.problems.append(f"console on {self.page.url}: {message.text}")

    def url(self, path: str) -> str:
        if not self.query:
            return self.shop.url + path
        return self.shop.url + path + ("&" if "?" in path else "?") + self.query

    def visit(self, path: str):
        """Opens `path` in this language; the page must answer 200 with the security headers."""
        response = self.page.goto(self.url(path))
        assert response is not None and response.status == 200, f"{path} answered {response and response.status}"
        assert_security_headers(response.all_headers(), f"page {path}")
        return response

    def sign_in_as_staff(self) -> None:
        answer = self.context.request.post(self.shop.url + "/api/session",
                                           data={"username": ADMIN_USERNAME, "password": ADMIN_PASSWORD})
        assert answer.status == 200, answer.text()

    def sign_up_on_the_page(self, username: str) -> None:
        self.visit("/signup")
        self.page.locator("#username").fill(username)
        self.page.locator("#password").fill(MEMBER_PASSWORD)
        with self.page.expect_navigation():
            self.page.locator("form button[type=submit]").click()
        assert urlparse(self.page.url).path != "/signup", f"still on the sign-up page: {self.page.url}"

    def assert_no_problems(self) -> None:
        self.page.wait_for_timeout(300)  # a violation event is dispatched after the fact
        in_page = self.page.evaluate("window.__cspViolations")
        assert not self.problems and not in_page, "\n".join(self.problems + in_page)

    def close(self) -> None:
        self.context.close()


@pytest.fixture(params=list(LANGUAGES))
def watched(request, browser, shop):
    opened: list[Watched] = []

    def make() -> Watched:
        opened.append(Watched(browser, shop, request.param))
        return opened[-1]

    yield make
    for each in opened:
        each.close()


def assert_security_headers(headers, what: str) -> None:
    """`headers` (names in any case) carry every security header, each once and as expected."""
    headers = {name.lower(): value for name, value in headers.items()}
    for name, value in EXPECTED.items():
        assert headers.get(name.lower()) == value, f"{what}: {name} is {headers.get(name.lower())!r}, not {value!r}"
    policy = headers.get("content-security-policy")
    assert policy, f"{what}: no Content-Security-Policy"
    directives = dict((part.strip().split(" ", 1) + [""])[:2] for part in policy.split(";") if part.strip())
    for directive, sources in CSP_MUST.items():
        assert directives.get(directive) == sources, f"{what}: CSP {directive} is {directives.get(directive)!r}"
    assert "unsafe" not in policy, f"{what}: the CSP allows something unsafe: {policy}"
    permissions = headers.get("permissions-policy", "")
    for feature in DENIED_FEATURES:
        assert f"{feature}=()" in permissions, f"{what}: Permissions-Policy does not deny {feature}: {permissions!r}"
    for feature in USED_FEATURES:
        assert not re.search(rf"\b{feature}=", permissions), f"{what}: Permissions-Policy restricts {feature}"
    assert "strict-transport-security" not in headers, f"{what}: HSTS over plain HTTP"


def changes_by(step: int, count, act) -> int:
    """Does `act` and expects the number `count` (a locator) shows to change by `step`; the new number."""
    after = int(count.inner_text()) + step
    act()
    expect(count).to_have_text(str(after))
    return after


# --- the headers, answer by answer ----------------------------------------------------------------

def test_every_kind_of_answer_carries_the_security_headers(shop, image_path):
    guest, staff = ShopApi(shop.url), ShopApi.signed_in_as_admin(shop.url)
    answers = {
        "page /": guest.get("/"),
        "page /vending (English)": guest.get("/vending?lang=en"),
        "page /reports (staff)": staff.get("/reports"),
        "page /menu (staff)": staff.get("/menu"),
        "API JSON /api/stock": guest.get("/api/stock"),
        "API JSON /api/menu": guest.get("/api/menu"),
        "an order refused": guest.post("/api/orders", json={"juice": "noSuchJuice"}),
        "an unknown page (404)": guest.get("/no-such-page"),
        "a wrong method (405)": guest.request("DELETE", "/api/stock"),
        "a cross-site post (403)": guest.post("/api/orders", json={"juice": "bananaJuice"},
                                              headers={"Origin": "http://evil.example"}),
        "an asset": guest.get("/assets/app.css"),
        "a script": guest.get("/assets/order.js"),
        "an image": guest.get(image_path),
        "a redirect to sign in": guest.get("/kitchen", allow_redirects=False),
        "HEAD /": guest.request("HEAD", "/"),
        "health": guest.get("/health"),
    }
    assert answers["an unknown page (404)"].status_code == 404
    assert answers["a wrong method (405)"].status_code == 405
    assert answers["a cross-site post (403)"].status_code == 403
    assert answers["a redirect to sign in"].status_code in (302, 303, 307)
    assert answers["an image"].headers["Content-Type"] == "image/png"
    for what, response in answers.items():
        assert_security_headers(response.headers, f"{what} ({response.status_code})")
    with requests.get(shop.url + "/api/live", stream=True, timeout=5) as live:
        assert live.headers["Content-Type"].startswith("text/event-stream")
        assert_security_headers(live.headers, "the live stream /api/live")


# --- every page in a browser, with its flow -------------------------------------------------------

def test_a_guest_orders_and_buys_with_no_violation(watched, shop):
    guest = watched()
    page = guest.page
    guest.visit("/")
    changes_by(-2, fruit_label(page, "banana"), page.locator('[data-juice="bananaJuice"]').click)
    served = page.locator("#alert")
    expect(served).to_be_visible()
    served.locator("#alert-actions button").first.click()
    expect(served).to_be_hidden()

    guest.visit("/vending")
    page.locator('[data-insert="5000"]').click()
    buy = page.locator('[data-buy="cola"]')
    expect(buy).to_be_enabled()
    changes_by(-1, page.locator(f'[data-product="cola"]{OUTSIDE_DIALOGS}'), buy.click)
    page.locator("#return-change").click()
    expect(page.locator("[data-sales-chart] svg")).to_be_visible()

    for path in ("/board", "/login", "/signup"):
        guest.visit(path)
    guest.assert_no_problems()


def test_staff_change_stock_and_move_an_order_with_no_violation(watched, shop, request):
    language = request.node.callspec.params["watched"]
    member = watched()
    member.sign_up_on_the_page(f"csp{language}")
    assert urlparse(member.page.url).path == "/home", f"signing up led to {member.page.url}"
    event = member.page.locator("#event")  # shown once a session: on the page signing up leads to
    expect(event).to_be_visible()
    member.page.locator("#event-close").click()
    expect(event).to_be_hidden()
    member.visit("/home")
    # The news image loads (img-src), after the page: its natural width is the PNG's.
    member.page.wait_for_function("document.querySelector('.news-image img').naturalWidth === 4")
    member.page.locator('[data-juice="kiwiJuice"]').click()
    mine = member.page.locator("#my-queue li[data-order-id]")
    expect(mine).to_have_count(1)
    order_id = mine.get_attribute("data-order-id")

    staff = watched()
    staff.sign_in_as_staff()
    staff.visit("/?stock=open")
    stock = staff.page.locator("#stock-screen")
    expect(stock).to_be_visible()
    mango = stock.locator('[data-stock-fruit="mango"]')
    count = changes_by(1, mango, stock.locator('[data-step="1"][data-step-fruit="mango"]').click)
    expect(fruit_label(staff.page, "mango")).to_have_text(str(count))
    assert ShopApi(shop.url).stock()["mango"] == count
    staff.page.locator("#close-stock").click()
    expect(stock).to_be_hidden()

    staff.visit("/kitchen")
    card = staff.page.locator(f'.ticket[data-order-id="{order_id}"]')
    expect(card).to_have_attribute("data-status", "received")
    card.locator(".advance").click()
    expect(card).to_have_attribute("data-status", "making")

    for path in ("/board", "/reports", "/menu", "/home", "/vending"):
        staff.visit(path)
    member.assert_no_problems()
    staff.assert_no_problems()
