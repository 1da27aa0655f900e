"""Kakao login (OpenID Connect) end to end, through a real provider run here: oidc-provider-mock (PyPI),
started with require_nonce as `--require-nonce true` does, with this shop registered as a client whose
only redirect URI is `<public URL>/login/kakao/callback` and which authenticates with client_secret_post.

The shop is reached at its public URL through `Front`, a byte-for-byte TCP forwarder standing in for a
load balancer: the URL is known before the server starts (both bind port 0), and behind it the
callback may land on another server of the same PostgreSQL than the one the flow started on.

Korean and English browsers: a new member, the same member again, a second Kakao user as another
member, Deny in the page's language, a replayed or foreign state, link and unlink from /home, a
password and a username for a Kakao member, the provider down, and axe on /login with the button.
One shop serves the module's tests; each test signs in with Kakao users of its own.
"""
from __future__ import annotations

import json
import socket
import subprocess
import threading
from urllib.parse import parse_qs, urlparse

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe
from oidc_provider_mock import User, run_server_in_thread

from e2e_support import (MEMBER_PASSWORD, ShopApi, ShopServer, day, make_server_workdir,
                         refusing_port, server_binary, stop_all)

CALLBACK = "/login/kakao/callback"
# Predefined provider users, one click each on its page; each test uses its own.
USERS = {
    "kakao-1001": "민지",       # the new member, then the same one again
    "kakao-2002": "Jane Doe",  # a second Kakao user, another member, in English
    "kakao-3003": "Linker",    # linked to a password member from /home, then unlinked
    "kakao-4004": "서준",       # a Kakao member who sets a password and changes the username
    "kakao-5005": "Deny Me",   # only ever denies
    "kakao-6006": "다른 브라우저",
}
LABELS = {"ko": "카카오 로그인", "en": "Login with Kakao"}
DENIED = {"ko": "카카오 로그인을 취소했어요.", "en": "Kakao login was cancelled."}


class Front:
    """The shop's public address, as a load balancer gives it: each connection is passed on byte for byte
    to the server `target` names when it arrives."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.target: ShopServer | None = None
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target.port))
            except (OSError, AttributeError):
                client.close()
                continue
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink, client, upstream), daemon=True).start()

    @staticmethod
    def _pump(source, sink, *both) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in both:  # one side done: the connection is over for both
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def close(self) -> None:
        self.listener.close()


@pytest.fixture(scope="module")
def provider():
    """The OpenID Connect provider: its issuer URL (`http://localhost:PORT`, as its discovery names it)."""
    users = [User(sub=sub, claims={"nickname": nickname}) for sub, nickname in USERS.items()]
    with run_server_in_thread(port=0, require_nonce=True, user_claims=users) as server:
        yield f"http://localhost:{server.server_port}"


def register_client(issuer: str, redirect_uri: str) -> tuple[str, str]:
    """Registers the shop at the provider (RFC 7591): its client id and secret. The provider then checks
    the redirect URI exactly and wants the secret in the token request's body."""
    registration = requests.get(issuer + "/.well-known/openid-configuration", timeout=5).json()["registration_endpoint"]
    answer = requests.post(registration, json={"redirect_uris": [redirect_uri],
                                               "token_endpoint_auth_method": "client_secret_post"}, timeout=5)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()["client_id"], answer.json()["client_secret"]


def kakao_options(issuer: str, front: Front, workdir) -> tuple[str, ...]:
    """`serve`'s Kakao flags for a client registered now, the secret in a file as systemd would give it."""
    client_id, secret = register_client(issuer, front.url + CALLBACK)
    secret_file = workdir / "kakao-secret"
    secret_file.write_text(secret + "\n")
    return ("--kakao-client-id", client_id, "--kakao-client-secret-file", str(secret_file),
            "--public-url", front.url, "--oidc-issuer", issuer)


def start_kakao_shops(issuer: str, front: Front, count: int = 1, database_url: str | None = None) -> list[ShopServer]:
    workdir = make_server_workdir()
    options = kakao_options(issuer, front, workdir)
    shops = [ShopServer(binary=server_binary(), workdir=make_server_workdir(), database_url=database_url,
                        options=options) for _ in range(count)]
    for shop in shops:
        shop.start()
    front.target = shops[-1]
    return shops


@pytest.fixture(scope="module")
def front():
    front = Front()
    yield front
    front.close()


@pytest.fixture(scope="module")
def kakao_shop(provider, front):
    if not server_binary().is_file():
        pytest.fail(f"the juicemaker binary is missing at {server_binary()}", pytrace=False)
    shops = start_kakao_shops(provider, front)
    yield shops[0]
    stop_all(shops)


@pytest.fixture
def server(kakao_shop, request):
    """The module's one Kakao shop; conftest's `new_page` closes its pages before it is stopped."""
    request.node.juicemaker_servers = [kakao_shop]
    return kakao_shop


@pytest.fixture
def open_page(new_page):
    """`new_page`, with the provider's stylesheet from a CDN refused at once: the machine may be offline,
    and the provider's pages must not wait for it."""
    def make(**options):
        page = new_page(**options)
        page.route("https://cdn.jsdelivr.net/**", lambda route: route.abort())
        return page
    return make


def accounts(shop: ShopServer) -> dict[str, dict]:
    """Every account by username, as `juicemaker users list --json` tells it."""
    listed = json.loads(shop.cli("users", "list", "--json", check=True).stdout)
    return {account["username"]: account for account in listed}


def sign_in_with_kakao(page, start_url: str, issuer: str, sub: str, label: str = LABELS["ko"]) -> dict:
    """From the page at `start_url`, presses the Kakao button and picks `sub` at the provider; returns the
    authorization request's parameters."""
    page.goto(start_url)
    page.get_by_role("button", name=label, exact=True).click()
    page.wait_for_url(issuer + "/**")
    asked = {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}
    with page.expect_navigation():
        page.locator(f'button[name="sub"][value="{sub}"]').click()
    return asked


def session_cookie(page) -> str | None:
    return next((cookie["value"] for cookie in page.context.cookies() if cookie["name"] == "juicemaker_session"), None)


def sign_out(page) -> None:
    with page.expect_navigation():
        page.locator("form[action='/logout'] button").click()


def test_a_new_member_signs_up_with_kakao_and_is_the_same_member_next_time(open_page, front, provider, kakao_shop):
    page = open_page()
    callbacks = []
    page.on("request", lambda request: callbacks.append(request.url) if CALLBACK in request.url else None)
    asked = sign_in_with_kakao(page, front.url + "/login", provider, "kakao-1001")
    assert asked["redirect_uri"] == front.url + CALLBACK
    assert asked["code_challenge_method"] == "S256" and len(asked["code_challenge"]) == 43
    assert asked["response_type"] == "code" and asked["scope"] == "openid profile"
    assert asked["nonce"] and asked["state"] and "prompt" not in asked
    assert urlparse(page.url).path == "/home"
    assert page.locator(".greeting").inner_text() == "민지님, 안녕하세요!"
    member = accounts(kakao_shop)["minji"]
    assert (member["name"], member["role"]) == ("민지", "member")

    # The callback again, from another browser: its state is used up.
    other = open_page()
    answer = other.goto(callbacks[0])
    assert answer.status == 400
    assert other.get_by_role("alert").inner_text() == "로그인 요청이 만료되었거나 이미 처리되었어요. 다시 시도해 주세요."
    assert session_cookie(other) is None

    sign_out(page)
    sign_in_with_kakao(page, front.url + "/login", provider, "kakao-1001")
    assert page.locator(".greeting").inner_text() == "민지님, 안녕하세요!"
    assert [name for name, account in accounts(kakao_shop).items() if account["name"] == "민지"] == ["minji"]


def test_a_second_kakao_user_is_another_member_in_english_and_goes_on_to_next(open_page, front, provider, kakao_shop):
    page = open_page(locale="en-US")
    sign_in_with_kakao(page, front.url + "/login?next=/vending", provider, "kakao-2002", label=LABELS["en"])
    assert urlparse(page.url).path == "/vending"
    page.goto(front.url + "/home")
    assert page.locator(".greeting").inner_text() == "Hello, Jane Doe!"
    listed = accounts(kakao_shop)
    assert listed["jane_doe"]["name"] == "Jane Doe" and listed["jane_doe"]["role"] == "member"


@pytest.mark.parametrize("language", ["ko", "en"])
def test_deny_is_the_login_page_in_its_language_with_nothing_made(open_page, front, provider, kakao_shop, language):
    before = accounts(kakao_shop)
    page = open_page(locale={"ko": "ko-KR", "en": "en-US"}[language])
    page.goto(front.url + "/signup")
    page.get_by_role("button", name=LABELS[language], exact=True).click()
    page.wait_for_url(provider + "/**")
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Deny").click()
    assert navigation.value.status == 403
    assert urlparse(page.url).path == CALLBACK and "error=access_denied" in page.url
    assert page.get_by_role("alert").inner_text() == DENIED[language]
    assert page.locator("html").get_attribute("lang") == language
    assert page.get_by_role("button", name=LABELS[language], exact=True).is_visible(), "it can be tried again"
    assert session_cookie(page) is None
    assert accounts(kakao_shop) == before


def test_a_flow_finished_in_another_browser_is_refused(open_page, front, provider, kakao_shop):
    before = accounts(kakao_shop)
    started = open_page()
    started.goto(front.url + "/login")
    started.get_by_role("button", name=LABELS["ko"], exact=True).click()
    started.wait_for_url(provider + "/**")
    other = open_page(locale="en-US")
    other.goto(started.url)
    with other.expect_navigation() as navigation:
        other.locator('button[name="sub"][value="kakao-6006"]').click()
    assert navigation.value.status == 400
    # The flow's language, Korean, even in an English browser.
    assert other.get_by_role("alert").inner_text() == "로그인을 시작한 브라우저에서 마쳐 주세요. 다시 시도해 주세요."
    assert session_cookie(other) is None and accounts(kakao_shop) == before


def test_a_password_member_links_kakao_signs_in_with_it_and_unlinks_it(open_page, front, provider, kakao_shop):
    member = ShopApi(kakao_shop.url)
    assert member.sign_up("linda", MEMBER_PASSWORD, "린다").status_code == 201
    page = open_page()
    page.goto(front.url + "/login")
    page.get_by_label("아이디", exact=True).fill("linda")
    page.get_by_label("비밀번호", exact=True).fill(MEMBER_PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="로그인", exact=True).click()
    page.get_by_role("button", name="카카오 계정 연결").click()
    page.wait_for_url(provider + "/**")
    assert parse_qs(urlparse(page.url).query)["prompt"] == ["login"], "linking asks for a fresh sign-in there"
    with page.expect_navigation():
        page.locator('button[name="sub"][value="kakao-3003"]').click()
    assert page.locator("#account-notice").inner_text() == "카카오 계정을 연결했어요."
    assert page.get_by_role("button", name="카카오 계정 연결 해제").is_visible()

    sign_out(page)
    sign_in_with_kakao(page, front.url + "/login", provider, "kakao-3003")
    assert page.locator(".greeting").inner_text() == "린다님, 안녕하세요!", "Kakao signs in as the linked member"
    assert "linker" not in accounts(kakao_shop), "no member was made for the linked identity"

    page.get_by_role("button", name="카카오 계정 연결 해제").click()
    page.wait_for_url("**/home?notice=kakaoDisconnected")
    assert page.locator("#account-notice").inner_text() == "카카오 계정 연결을 해제했어요."
    assert page.get_by_role("button", name="카카오 계정 연결").is_visible()
    sign_out(page)
    sign_in_with_kakao(page, front.url + "/login", provider, "kakao-3003")
    assert page.locator(".greeting").inner_text() == "Linker님, 안녕하세요!", "unlinked, it is a member of its own"


def test_a_kakao_member_sets_a_password_and_username_and_only_then_may_disconnect(open_page, front, provider, kakao_shop):
    page = open_page(locale="en-US")
    sign_in_with_kakao(page, front.url + "/login", provider, "kakao-4004", label=LABELS["en"])
    assert accounts(kakao_shop)["seojun"]["name"] == "서준"
    page.get_by_role("button", name="Disconnect Kakao account").click()
    page.wait_for_url("**/home?notice=onlyWayIn")
    assert page.locator("#account-notice").inner_text() == (
        "Kakao is your only way to sign in, so it cannot be disconnected. Set a password first.")
    refused = requests.post(front.url + "/api/session", json={"username": "seojun", "password": MEMBER_PASSWORD},
                            headers={"Accept-Language": "en"}, timeout=10)
    assert refused.status_code == 401, "no password yet"

    page.get_by_label("Username", exact=True).fill("admin")
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Change username").click()
    assert navigation.value.status == 409 and "admin" in page.get_by_role("alert").inner_text()
    page.get_by_label("Username", exact=True).fill("seojun_k")
    page.get_by_role("button", name="Change username").click()
    page.wait_for_url("**/home?notice=usernameChanged")
    page.get_by_label("Password", exact=True).fill(MEMBER_PASSWORD)
    page.get_by_role("button", name="Set password").click()
    page.wait_for_url("**/home?notice=passwordSet")
    assert page.get_by_label("Password", exact=True).count() == 0, "the form is for a first password only"
    assert ShopApi(kakao_shop.url).sign_in("seojun_k", MEMBER_PASSWORD).status_code in (200, 204)

    page.get_by_role("button", name="Disconnect Kakao account").click()
    page.wait_for_url("**/home?notice=kakaoDisconnected")
    assert page.locator("#account-notice").inner_text() == "Your Kakao account is disconnected."


@pytest.mark.parametrize("locale, language", [("ko-KR", "ko"), ("en-US", "en")])
def test_login_with_the_kakao_button_passes_axe(open_page, front, locale, language):
    page = open_page(locale=locale)
    found = []
    for path in ("/login", "/signup"):
        page.goto(front.url + path)
        button = page.get_by_role("button", name=LABELS[language], exact=True)
        assert button.is_visible()
        style = button.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color, "
                                "getComputedStyle(b).borderRadius]")
        assert style == ["rgb(254, 229, 0)", "rgba(0, 0, 0, 0.85)", "12px"], style
        results = Axe().run(page)
        found += [f"{path}: {violation['id']} ({violation['impact']}): {violation['help']}"
                  for violation in results.response["violations"] if violation["impact"] in ("serious", "critical")]
    page.goto(front.url + "/login")
    for _ in range(30):  # by keyboard: Tab reaches the button, Enter starts the flow
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == LABELS[language]:
            break
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert urlparse(page.url).path == "/oauth2/authorize"
    assert not found, "\n".join(found)


def test_without_a_client_id_there_is_no_kakao_login(start_server):
    shop = start_server()
    login_page = requests.get(shop.url + "/login", timeout=10)
    assert login_page.status_code == 200 and "/login/kakao" not in login_page.text and "카카오" not in login_page.text
    assert requests.get(shop.url + "/login/kakao", allow_redirects=False, timeout=10).status_code == 404


def test_a_provider_that_is_down_is_the_login_page_saying_so(start_server, tmp_path):
    with refusing_port() as closed:
        shop = start_server("--kakao-client-id", "rest-api-key", "--public-url", "http://127.0.0.1:9",
                            "--oidc-issuer", f"http://127.0.0.1:{closed}")
        answer = requests.get(shop.url + "/login/kakao", headers={"Accept-Language": "en"}, allow_redirects=False,
                              timeout=20)
    assert answer.status_code in (502, 504)
    assert "Kakao could not be reached. Please try again in a moment." in answer.text
    assert "juicemaker_session" not in answer.headers.get("Set-Cookie", "")
    logged = [line for line in shop.log_path.read_text().splitlines() if not line.startswith("$ ")]  # not the command
    assert not [line for line in logged if "rest-api-key" in line], "the client id is never logged"


def test_a_client_id_without_a_public_url_refuses_to_start(tmp_path):
    result = subprocess.run(
        [str(server_binary()), "serve", "--port", "0", "--database", str(tmp_path / "shop.sqlite")],
        env={"JUICEMAKER_KAKAO_CLIENT_ID": "rest-api-key", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=15)
    lines = result.stderr.strip().splitlines()
    assert result.returncode != 0 and len(lines) == 1 and "--public-url" in lines[0], result.stderr


def test_a_flow_started_on_one_server_finishes_on_the_other_of_one_postgresql(open_page, provider, postgres_database):
    """Server A sends the browser to the provider; the provider sends it back to the public URL, which
    leads to server B: B takes the state A wrote, and the session works on both."""
    front = Front()
    shops = start_kakao_shops(provider, front, count=2, database_url=postgres_database)
    try:
        a, b = shops
        front.target = b
        event = ShopApi.signed_in_as_admin(a.url).post("/api/events", files={
            "title": (None, "딸기 축제"), "body": (None, "딸기쥬스 1+1"), "start": (None, day(-1)), "end": (None, day(1))})
        assert event.status_code == 201, event.text
        page = open_page()
        sign_in_with_kakao(page, a.url + "/login", provider, "kakao-1001")
        assert urlparse(page.url).port == front.port and urlparse(page.url).path == "/home"
        assert page.locator(".greeting").inner_text() == "민지님, 안녕하세요!"
        assert page.locator("dialog#event[open]").is_visible(), "the event pop-up shows after a Kakao sign-in too"
        page.goto(a.url + "/home")
        assert page.locator(".greeting").inner_text() == "민지님, 안녕하세요!"
        assert sorted(accounts(a)) == ["admin", "minji"]
    finally:
        stop_all(shops)
        front.close()


from test_postgres_instances import postgres_admin_url, postgres_database  # noqa: E402,F401  (fixtures)
