"""Fixtures for JuiceMaker's end-to-end tests.

- `server`: a fresh `juicemaker serve` with its own database, per test, on a port the kernel picked
  (port 0; the server reports it); stopped with SIGTERM afterwards, and the test fails if it does not
  exit (status 0) within 15 s (its own `--stop-timeout` cuts what is still open after 10; a warning says so).
- `start_server(*options, wrapper=(), preexec_fn=None, **fields)`: the same with more `serve` options, or
  under a wrapper command such as strace, or other ShopServer fields (`scheme="https", ca_file=...`); as
  many as the test needs.
- `browser`: one headless Debian chromium per session.
- `new_page(**context_options)`: a page in a new browser context; `page` (desktop) and `phone_page`
  (390x844) are the usual ones. Every page is screenshotted into Tests/e2e/artifacts/ at the end.
- `login(page, server)`: signs in as admin through /login (also importable from e2e_support).
- `api` (a guest), `staff` (signed in as the admin) and `make_member(username, name=None, password=...)`
  (a member signed up and signed in): API clients of the class `api_client_class` gives, ShopApi unless
  a test file overrides that fixture with its own subclass.
"""
from __future__ import annotations

import re

import pytest

from e2e_support import (ARTIFACTS, MEMBER_PASSWORD, ServerProblem, ShopApi, ShopServer, login, make_server_workdir,
                         server_binary, stop_all)

__all__ = ["login"]

EXPECT_TIMEOUT_MS = 3_000
ACTION_TIMEOUT_MS = 5_000
NAVIGATION_TIMEOUT_MS = 10_000
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def start_server(request):
    """Starts `juicemaker serve` processes for this test, each with a new database: `start_server()`, or
    with more options, `start_server("--max-connections", "50")`, or under a wrapper command or with a
    `preexec_fn` (see ShopServer). Each is stopped with SIGTERM when the test ends, and the test fails
    if one does not exit with status 0 within 15 s."""
    binary = server_binary()
    if not binary.is_file():
        pytest.fail(f"the juicemaker binary is missing at {binary}: build it (swift build) or point "
                    f"JUICEMAKER_BIN at one", pytrace=False)
    shops: list[ShopServer] = []
    request.node.juicemaker_servers = shops

    def start(*options: str, wrapper: tuple[str, ...] = (), preexec_fn=None, **fields) -> ShopServer:
        shop = ShopServer(binary=binary, workdir=make_server_workdir(), options=tuple(options),
                          wrapper=tuple(wrapper), preexec_fn=preexec_fn, **fields)
        shops.append(shop)
        problem = None
        try:
            shop.start()
        except ServerProblem as error:
            problem = f"could not start the server: {error}"
        if problem:
            pytest.fail(problem, pytrace=False)
        return shop

    yield start
    stop_all(shops)


@pytest.fixture
def server(start_server):
    """A fresh `juicemaker serve` with its own database and default options."""
    return start_server()


@pytest.fixture
def api_client_class() -> type[ShopApi]:
    """The class of the `api`, `staff` and `make_member` clients. A test file overrides this fixture to
    return its own ShopApi subclass (more methods, a shorter timeout)."""
    return ShopApi


@pytest.fixture
def api(server, api_client_class):
    """A guest: a client with a session of its own, not signed in."""
    return api_client_class(server.url)


@pytest.fixture
def staff(server, api_client_class):
    """A client whose session is signed in as the admin."""
    return api_client_class.signed_in_as_admin(server.url)


@pytest.fixture
def make_member(server, api_client_class):
    """`make_member("minji", name="민지")`: signs up a member through the API (201) and returns a client
    signed in as them (200 or 204)."""
    def make(username: str, name: str | None = None, password: str = MEMBER_PASSWORD):
        member = api_client_class(server.url)
        response = member.sign_up(username, password, name)
        assert response.status_code == 201, (
            f"POST /api/members for {username} answered {response.status_code}: {response.text[:500]}")
        response = member.sign_in(username, password)
        assert response.status_code in (200, 204), (
            f"signing in as {username} answered {response.status_code}: {response.text[:500]}")
        return member
    return make


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    shops = getattr(item, "juicemaker_servers", None) or [getattr(item, "juicemaker_server", None)]
    if report.failed and report.when == "call":
        for shop in filter(None, shops):
            report.sections.append(("juicemaker server log", shop.log_tail()))


@pytest.fixture(scope="session")
def playwright_instance():
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    yield browser
    browser.close()


@pytest.fixture
def new_page(browser, server, request):
    """Makes pages, each in its own browser context (so its own cookies): `new_page(locale="en-US")`.

    Korean is the default locale; pass context options to change it or the viewport. Each page is
    screenshotted into Tests/e2e/artifacts/ when the test ends. Depends on `server` so that pages close
    before the server is told to stop.
    """
    contexts, pages = [], []

    def make(**options):
        options.setdefault("locale", "ko-KR")
        context = browser.new_context(**options)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        pages.append(page)
        return page

    yield make

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    for index, page in enumerate(pages):
        suffix = "" if len(pages) == 1 else f"-{chr(ord('a') + index)}"
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}{suffix}.png"), full_page=True)
        except Exception as error:  # a crashed or closed page should not hide the test's own result
            print(f"no screenshot for {name}{suffix}: {error}")
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    """A desktop-sized page (1280x800), Korean locale."""
    return new_page(viewport={"width": 1280, "height": 800})


@pytest.fixture
def phone_page(new_page):
    """A phone-sized page (390x844, mobile viewport handling and touch), Korean locale."""
    return new_page(viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True, has_touch=True)
