"""The member app, end to end: sign-up and sign-in, What's New and events posted by staff, and the
member's home (greeting, event pop-up, news newest first, ordering with a history and a recommendation).

API checks use plain HTTP (requests); screens use Debian chromium through Playwright. Each test gets a
new shop (see conftest.py). Dates are the machine's local dates, which are the server's.
"""
from __future__ import annotations

import base64
import datetime as dt
import struct
import time
import zlib
from urllib.parse import urljoin, urlparse

import pytest
import requests
from playwright.sync_api import Locator, Page, expect

from e2e_support import (ADMIN_PASSWORD, ADMIN_USERNAME, ARTIFACTS, MEMBER_PASSWORD, SEED_STOCK, ShopApi,
                         assert_error, assert_sign_in_cookies, button, day, set_cookie_lines, sign_in_on_current_page)

# A member orders for pickup: the first order of the day is called as 1번.
ORDERED_BANANA = "1번 바나나쥬스 주문이 접수되었어요."
EVENT_TITLE = "딸기 축제 이벤트"
EVENT_BODY = "이번 주 딸기쥬스 한 잔 더!"
QUIET_MS = 500  # how long to give a wrong pop-up or script the chance to show itself


# --- small valid images, made here -------------------------------------------------------------

def png_bytes(rgb: tuple[int, int, int] = (245, 166, 35), width: int = 1, height: int = 1,
              padding: int = 0) -> bytes:
    """A valid truecolour PNG; `padding` bytes go into a private ancillary chunk (still a valid PNG)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    extra = chunk(b"juIc", b"\x00" * padding) if padding else b""
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


# A 2x2 JPEG and a 1x1 lossless WebP, both as chromium encodes/decodes them.
JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYn"
    "KSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo"
    "KCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QA"
    "FQEBAQAAAAAAAAAAAAAAAAAABgf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwC/ASU5f//Z")
WEBP = base64.b64decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
GIF = base64.b64decode("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")


# --- HTTP clients --------------------------------------------------------------------------------

class Client(ShopApi):
    """A client of the member app (What's New and events), with its own cookies."""

    def post_news(self, title: str, body: str = "", image: tuple | None = None) -> requests.Response:
        return self.post("/api/news", files=form_parts({"title": title, "body": body}, image))

    def post_event(self, title: str, start: str, end: str, body: str = "", image: tuple | None = None) -> requests.Response:
        return self.post("/api/events", files=form_parts({"title": title, "body": body, "start": start, "end": end}, image))

    def news(self) -> list[dict]:
        return self.list_at("/api/news")


def form_parts(fields: dict[str, str], image: tuple | None) -> dict:
    """multipart/form-data parts for requests' `files=` (always multipart, even without a file)."""
    parts = {key: (None, value) for key, value in fields.items()}
    if image is not None:
        parts["image"] = image
    return parts


def created(response: requests.Response, what: str) -> dict:
    assert response.status_code == 201, f"{what} answered {response.status_code}: {response.text[:500]}"
    return response.json()


def signed_in(response: requests.Response, who: str) -> None:
    assert response.status_code in (200, 204), f"signing in as {who} answered {response.status_code}: {response.text[:500]}"


def orders_of(body) -> list[dict]:
    orders = body["orders"] if isinstance(body, dict) else body
    assert isinstance(orders, list), f"GET /api/me/orders is not a list of orders: {body}"
    return orders


@pytest.fixture
def api_client_class():
    """The class of the `api`, `staff` and `make_member` clients (conftest.py)."""
    return Client


# --- browser helpers -----------------------------------------------------------------------------

def event_dialog(page: Page) -> Locator:
    return page.locator("dialog").filter(has_text=EVENT_TITLE)


def path_of(page: Page) -> str:
    return urlparse(page.url).path


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def sign_in_page_context(page: Page, server, username: str, password: str = MEMBER_PASSWORD) -> None:
    """Signs the page's browser context in through the API (the cookie lands in the context)."""
    # Signed in already (as someone else), the sign-in is a write under that session: with its token.
    token = page.request.get(server.url + "/api/me").headers.get("x-csrf-token", "")
    response = page.request.post(server.url + "/api/session", data={"username": username, "password": password},
                                 headers={"X-CSRF-Token": token} if token else {})
    assert response.status in (200, 204), f"signing in as {username} answered {response.status}: {response.text()[:500]}"


def sign_out_page_context(page: Page, server) -> None:
    # A write with the session cookie carries the session's anti-CSRF token, as GET /api/me gives it.
    token = page.request.get(server.url + "/api/me").headers.get("x-csrf-token", "")
    response = page.request.delete(server.url + "/api/session", headers={"X-CSRF-Token": token})
    assert response.status in (200, 204), f"DELETE /api/session answered {response.status}: {response.text()[:500]}"
    assert page.request.get(server.url + "/api/me").status == 401, "still signed in after DELETE /api/session"


def open_home(page: Page, server) -> None:
    page.goto(server.url + "/home")
    assert path_of(page) == "/home", f"/home led to {page.url}"
    page.wait_for_load_state("networkidle")


def expect_event_popup(page: Page) -> Locator:
    dialog = event_dialog(page)
    expect(dialog).to_be_visible()
    assert dialog.evaluate("el => el.tagName === 'DIALOG' && el.open && el.matches(':modal')"), \
        "the event is not shown as a modal <dialog> (showModal())"
    expect(dialog).to_contain_text(EVENT_BODY)
    expect(button(dialog, "닫기")).to_be_visible()
    expect(button(dialog, "오늘 하루 보지 않기")).to_be_visible()
    return dialog


def expect_no_event_popup(page: Page, why: str) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(QUIET_MS)
    open_dialogs = page.locator("dialog[open]")
    assert open_dialogs.count() == 0, f"{why}, yet a dialog is open: {open_dialogs.first.inner_text()!r}"
    expect(event_dialog(page)).to_be_hidden()


def news_titles_on(page: Page, titles: list[str]) -> list[str | None]:
    """Which of `titles` each `.news-item` on the page shows, in page order."""
    texts = page.locator(".news-item").all_text_contents()
    return [next((title for title in titles if title in text), None) for text in texts]


def news_titles_on_screen(page: Page, titles: list[str]) -> list[str | None]:
    """The same, in the order the items appear on screen (top to bottom, then left to right)."""
    items = page.locator(".news-item")
    placed = []
    for index in range(items.count()):
        box = items.nth(index).bounding_box()
        assert box is not None, f"news item {index} is not rendered"
        text = items.nth(index).text_content() or ""
        placed.append((round(box["y"]), round(box["x"]), next((t for t in titles if t in text), None)))
    return [title for _, _, title in sorted(placed)]


ALL_NEWS_IMAGES_LOADED = """count => {
    const images = [...document.querySelectorAll('.news-item img')];
    return images.length === count && images.every(image => image.complete && image.naturalWidth > 0);
}"""


def post_three_news_with_images(staff: Client) -> list[dict]:
    """Posts 첫/둘째/셋째 소식 one after another, each with its own image; returns the API's answers in posting order."""
    posted = []
    for index, (title, colour) in enumerate(
            [("첫째 소식: 망고 입고", (255, 200, 0)), ("둘째 소식: 키위 할인", (120, 190, 40)),
             ("셋째 소식: 새 메뉴", (230, 60, 90))]):
        image = (f"news{index}.png", png_bytes(colour, width=40, height=30), "image/png")
        posted.append(created(staff.post_news(title, f"본문 {index + 1}", image), f"POST /api/news {title!r}"))
    return posted


# --- sign-up and sign-in (API) -------------------------------------------------------------------

def test_member_signs_up_signs_in_and_out(api, server):
    assert_error(api.get("/api/me"), 401)

    created(api.sign_up("minji_01", name="민지"), "POST /api/members")
    response = api.sign_in("minji_01", MEMBER_PASSWORD)

    signed_in(response, "minji_01")
    assert_sign_in_cookies(response)
    me = api.get("/api/me")
    assert me.status_code == 200, me.text
    assert me.json().get("username") == "minji_01", me.json()
    session_cookies = api.http.cookies.copy()

    signed_out = api.delete("/api/session")

    assert signed_out.status_code in (200, 204), signed_out.text
    assert_error(api.get("/api/me"), 401)
    replay = requests.get(server.url + "/api/me", cookies=session_cookies, timeout=10)
    assert replay.status_code == 401, f"the signed-out session cookie still works: {replay.status_code} {replay.text[:300]}"


def test_name_is_optional(api):
    created(api.sign_up("no_name_member"), "POST /api/members without a name")
    signed_in(api.sign_in("no_name_member", MEMBER_PASSWORD), "no_name_member")
    assert api.get("/api/me").status_code == 200


@pytest.mark.parametrize("username", ["ab", "a" * 21, "Minji", "min-ji", "min ji", "민지야", "min.ji", ""],
                         ids=["2-chars", "21-chars", "uppercase", "dash", "space", "hangul", "dot", "empty"])
def test_sign_up_refuses_a_bad_username(api, username):
    assert_error(api.sign_up(username), 422)
    assert_error(api.sign_in(username, MEMBER_PASSWORD), 401, 422)


@pytest.mark.parametrize("username", ["abc", "a" * 20, "kim_minji_99", "___"])
def test_sign_up_accepts_usernames_at_the_limits(api, username):
    created(api.sign_up(username), f"POST /api/members {username!r}")


def test_sign_up_refuses_a_short_password(api):
    assert_error(api.sign_up("shortpw", password="1234567"), 422)
    created(api.sign_up("eightpw", password="12345678"), "POST /api/members with an 8-character password")


def test_sign_up_refuses_a_taken_username(api):
    created(api.sign_up("taken_name"), "POST /api/members")
    assert_error(api.sign_up("taken_name", password="another-password"), 409)
    assert_error(api.sign_up("admin", password="another-password"), 409)
    # The first owner keeps their password.
    signed_in(api.sign_in("taken_name", MEMBER_PASSWORD), "taken_name")
    assert_error(Client(api.base_url).sign_in("taken_name", "another-password"), 401)


@pytest.mark.parametrize("body", [{}, {"username": "only_name"}, {"password": "only-a-password"}],
                         ids=["empty", "no-password", "no-username"])
def test_sign_up_without_required_fields_is_refused(api, body):
    assert_error(api.post("/api/members", json=body), 400, 422)


def test_wrong_username_and_wrong_password_get_the_same_answer(api, make_member):
    make_member("real_member")

    wrong_name = api.sign_in("nobody_here", MEMBER_PASSWORD)
    wrong_password = api.sign_in("real_member", "not-the-password")

    assert_error(wrong_name, 401)
    assert_error(wrong_password, 401)
    assert wrong_name.json() == wrong_password.json(), (
        f"the answers tell the cases apart: {wrong_name.json()} vs {wrong_password.json()}")
    assert not set_cookie_lines(wrong_password) or all(
        "max-age=0" in line.lower() or "expires=thu, 01 jan 1970" in line.lower() for line in set_cookie_lines(wrong_password)), \
        f"a failed sign-in set a cookie: {set_cookie_lines(wrong_password)}"


def test_five_failed_sign_ins_lock_the_username(api, make_member, server):
    make_member("locked_out")
    make_member("bystander")

    for attempt in range(5):
        assert_error(api.sign_in("locked_out", f"wrong-password-{attempt}"), 401)

    assert_error(api.sign_in("locked_out", MEMBER_PASSWORD), 429)
    assert_error(api.sign_in("locked_out", "wrong-password-again"), 429)
    assert_error(api.get("/api/me"), 401)
    # Only that username is locked.
    signed_in(Client(server.url).sign_in("bystander", MEMBER_PASSWORD), "bystander")
    signed_in(Client(server.url).sign_in(ADMIN_USERNAME, ADMIN_PASSWORD), "admin")


def test_failed_sign_ins_for_an_unknown_username_are_throttled_too(api):
    for attempt in range(5):
        assert_error(api.sign_in("ghost_user", f"guess-{attempt}"), 401)
    assert_error(api.sign_in("ghost_user", "guess-again"), 429)


# --- sign-up and sign-in (pages) -----------------------------------------------------------------

def test_signup_page_signs_the_new_member_in_and_goes_home(page, server):
    response = page.goto(server.url + "/signup")
    assert response.status == 200
    page.get_by_label("아이디", exact=True).fill("page_member")
    page.get_by_label("비밀번호", exact=True).fill(MEMBER_PASSWORD)
    page.get_by_label("이름", exact=True).fill("페이지회원")

    with page.expect_navigation():
        button(page, "가입하기").click()

    assert path_of(page) == "/home", f"signing up led to {page.url}"
    expect(page.locator("body")).to_contain_text("페이지회원")
    me = page.request.get(server.url + "/api/me")
    assert me.status == 200 and me.json().get("username") == "page_member", me.text()
    session_cookies = [c for c in page.context.cookies() if c["domain"] in ("127.0.0.1", ".127.0.0.1")]
    assert session_cookies, "signing up set no cookie"
    for cookie in session_cookies:
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax", f"the sign-up cookie is not HttpOnly+Lax: {cookie}"


def test_signup_page_works_without_a_name(page, server):
    page.goto(server.url + "/signup")
    page.get_by_label("아이디", exact=True).fill("nameless")
    page.get_by_label("비밀번호", exact=True).fill(MEMBER_PASSWORD)

    with page.expect_navigation():
        button(page, "가입하기").click()

    assert path_of(page) == "/home", f"signing up led to {page.url}"
    assert page.request.get(server.url + "/api/me").status == 200


def test_signup_page_with_a_taken_username_does_not_sign_in(page, server, api):
    created(api.sign_up("already_here"), "POST /api/members")
    page.goto(server.url + "/signup")
    page.get_by_label("아이디", exact=True).fill("already_here")
    page.get_by_label("비밀번호", exact=True).fill("some-other-password")

    with page.expect_navigation():
        button(page, "가입하기").click()

    assert path_of(page) != "/home", "a taken username signed up and went home"
    assert page.request.get(server.url + "/api/me").status == 401


def test_login_page_takes_a_member_home(page, server, make_member):
    make_member("home_goer", name="홈가는이")

    page.goto(server.url + "/login")
    sign_in_on_current_page(page, "home_goer", MEMBER_PASSWORD)

    assert path_of(page) == "/home", f"a member signing in without next went to {page.url}"
    expect(page.locator("body")).to_contain_text("홈가는이")


def test_a_locked_username_cannot_sign_in_on_the_login_page_either(page, server, api, make_member):
    make_member("page_locked")
    for attempt in range(5):
        assert_error(api.sign_in("page_locked", f"wrong-password-{attempt}"), 401)

    page.goto(server.url + "/login")
    sign_in_on_current_page(page, "page_locked", MEMBER_PASSWORD)

    assert path_of(page) != "/home", "a locked username signed in through /login"
    assert page.request.get(server.url + "/api/me").status == 401


def test_home_without_a_session_goes_to_login(page, server, api):
    response = api.get("/home", allow_redirects=False)
    assert response.status_code in (301, 302, 303, 307, 308), f"GET /home without a session: {response.status_code}"
    assert urlparse(urljoin(server.url, response.headers["Location"])).path == "/login", response.headers["Location"]

    page.goto(server.url + "/home")
    assert path_of(page) == "/login", f"/home without a session showed {page.url}"
    expect(page.get_by_label("아이디", exact=True)).to_be_visible()


# --- news (API) ----------------------------------------------------------------------------------

def test_staff_post_news_and_everyone_reads_it_newest_first(staff, api):
    created(staff.post_news("첫 소식", "하나"), "POST /api/news")
    created(staff.post_news("둘째 소식", "둘"), "POST /api/news")
    with_image = created(staff.post_news("셋째 소식", "셋", ("dot.png", png_bytes(), "image/png")), "POST /api/news")
    assert with_image.get("imageURL"), f"no imageURL for a news item with an image: {with_image}"

    news = api.news()

    assert [item["title"] for item in news] == ["셋째 소식", "둘째 소식", "첫 소식"]
    for item in news:
        assert {"id", "title", "body", "registeredAt"} <= set(item), f"missing fields in {item}"
    assert [item["body"] for item in news] == ["셋", "둘", "하나"]
    assert news[1].get("imageURL") is None and news[2].get("imageURL") is None
    assert news[0]["imageURL"] == with_image["imageURL"]
    assert len({item["id"] for item in news}) == 3
    times = [item["registeredAt"] for item in news]
    parsed = [dt.datetime.fromisoformat(t.replace("Z", "+00:00")) for t in times]
    assert parsed == sorted(parsed, reverse=True), f"registeredAt is not newest first: {times}"
    # The contract's shape has "imageURL" on every item: null when there is no image.
    without_key = [item for item in news if "imageURL" not in item]
    assert not without_key, f"news items without an image leave out \"imageURL\" instead of null: {without_key}"


def test_members_and_strangers_cannot_post_news(api, make_member, staff):
    member = make_member("not_staff")

    assert_error(member.post_news("회원이 쓴 소식", "안돼요"), 403)
    assert_error(api.post_news("익명 소식", "안돼요"), 401)
    assert staff.news() == []


def test_news_needs_a_title(staff):
    assert_error(staff.post_news("", "제목 없는 소식"), 400, 422)
    assert_error(staff.post("/api/news", files=form_parts({"body": "제목 필드 없음"}, None)), 400, 422)
    assert staff.news() == []


@pytest.mark.parametrize("image, content_type", [
    (("dot.png", png_bytes(width=3, height=2), "image/png"), "image/png"),
    (("photo.jpg", JPEG, "image/jpeg"), "image/jpeg"),
    (("pixel.webp", WEBP, "image/webp"), "image/webp"),
    (("upload.bin", JPEG, "application/octet-stream"), "image/jpeg"),
], ids=["png", "jpeg", "webp", "jpeg-sent-as-octet-stream"])
def test_news_images_are_served_with_type_etag_and_caching(staff, api, image, content_type):
    posted = created(staff.post_news("사진 소식", "", image), "POST /api/news with an image")
    url = urljoin(api.base_url + "/", posted["imageURL"])

    response = api.get(url)

    assert response.status_code == 200, response.text[:300]
    assert response.headers.get("Content-Type", "").split(";")[0].strip() == content_type, response.headers
    assert response.content == image[1], "the served image is not the uploaded bytes"
    etag = response.headers.get("ETag")
    assert etag, f"no ETag on {url}: {dict(response.headers)}"
    assert response.headers.get("Cache-Control"), f"no Cache-Control on {url}: {dict(response.headers)}"

    again = api.get(url, headers={"If-None-Match": etag})

    assert again.status_code == 304, f"If-None-Match with the ETag answered {again.status_code}"
    assert again.content == b""
    other = api.get(url, headers={"If-None-Match": '"not-the-etag"'})
    assert other.status_code == 200 and other.content == image[1]


@pytest.mark.parametrize("image", [
    ("x.png", b"this is just text, not a picture\n" * 4, "image/png"),
    ("anim.gif", GIF, "image/gif"),
    ("fake.webp", b"RIFF\x10\x00\x00\x00WAVEfmt " + b"\x00" * 16, "image/webp"),
    ("page.png", b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "image/png"),
], ids=["text-named-png", "gif", "wav-named-webp", "svg-named-png"])
def test_news_refuses_images_that_are_not_png_jpeg_or_webp(staff, image):
    assert_error(staff.post_news("이상한 사진", "", image), 422)
    assert staff.news() == []


def test_news_refuses_an_image_over_2_mb(staff):
    big = png_bytes(padding=2 * 1024 * 1024 + 300 * 1024)
    try:
        response = staff.post_news("큰 사진", "", ("big.png", big, "image/png"))
    except requests.ConnectionError as error:  # a server may close the connection on a body it will not read
        pytest.fail(f"posting a 2.3 MB image broke the connection instead of answering 413/422: {error}")
    assert response.status_code in (413, 422), f"a 2.3 MB image answered {response.status_code}: {response.text[:300]}"
    if response.status_code == 422:
        assert_error(response, 422)
    assert staff.news() == []


def test_news_accepts_an_image_under_2_mb(staff, api):
    image = png_bytes(padding=1_500_000)
    posted = created(staff.post_news("조금 큰 사진", "", ("fine.png", image, "image/png")), "POST /api/news with 1.5 MB")
    assert api.get(urljoin(api.base_url + "/", posted["imageURL"])).content == image


def test_unknown_image_is_404(api):
    assert api.get("/images/999999").status_code == 404


# --- events (API) --------------------------------------------------------------------------------

def test_staff_post_an_event(staff):
    posted = created(staff.post_event(EVENT_TITLE, day(-1), day(1), EVENT_BODY,
                                      ("event.png", png_bytes(), "image/png")), "POST /api/events")
    assert posted.get("title") == EVENT_TITLE, posted
    created(staff.post_event("하루 이벤트", day(), day()), "POST /api/events for one day")


@pytest.mark.parametrize("start, end", [
    ("2025-02-30", "2025-03-02"), ("2025-13-01", "2025-12-31"), ("20250101", "20250102"),
    ("2025/01/01", "2025/01/02"), ("내일", "모레"), ("", "2025-01-02"), ("2025-01-01", ""),
    ("2025-1-5", "2025-01-09"), ("2025-01-10", "2025-01-09"),
], ids=["feb-30", "month-13", "no-dashes", "slashes", "words", "no-start", "no-end", "unpadded", "end-before-start"])
def test_event_with_bad_dates_is_refused(staff, start, end):
    assert_error(staff.post_event("날짜 틀린 이벤트", start, end), 422)


def test_members_and_strangers_cannot_post_events(api, make_member):
    member = make_member("event_fan")
    assert_error(member.post_event("회원 이벤트", day(), day(1)), 403)
    assert_error(api.post_event("익명 이벤트", day(), day(1)), 401)


# --- the event pop-up on /home --------------------------------------------------------------------

def test_event_pops_up_once_per_sign_in(page, server, staff, make_member):
    created(staff.post_event(EVENT_TITLE, day(-1), day(1), EVENT_BODY), "POST /api/events")
    make_member("popup_once")
    sign_in_page_context(page, server, "popup_once")

    open_home(page, server)
    dialog = expect_event_popup(page)
    button(dialog, "닫기").click()
    expect(dialog).to_be_hidden()

    page.reload()
    expect_no_event_popup(page, "the event was already shown in this sign-in (reload)")
    open_home(page, server)
    expect_no_event_popup(page, "the event was already shown in this sign-in (second visit)")

    sign_out_page_context(page, server)
    sign_in_page_context(page, server, "popup_once")
    open_home(page, server)
    expect_event_popup(page)


def test_hide_for_today_holds_across_sign_ins_but_only_for_that_member(new_page, server, staff, make_member):
    created(staff.post_event(EVENT_TITLE, day(-1), day(1), EVENT_BODY), "POST /api/events")
    make_member("hider")
    make_member("other_one")
    hider = new_page()
    sign_in_page_context(hider, server, "hider")

    open_home(hider, server)
    dialog = expect_event_popup(hider)
    button(dialog, "오늘 하루 보지 않기").click()
    expect(dialog).to_be_hidden()
    hider.wait_for_load_state("networkidle")

    sign_out_page_context(hider, server)
    sign_in_page_context(hider, server, "hider")
    open_home(hider, server)
    expect_no_event_popup(hider, "the member chose 오늘 하루 보지 않기, then signed in again")

    other = new_page()
    sign_in_page_context(other, server, "other_one")
    open_home(other, server)
    expect_event_popup(other)


def test_only_an_event_running_today_pops_up(page, server, staff, make_member):
    created(staff.post_event("지난 이벤트", day(-10), day(-1), "끝났어요"), "POST /api/events (past)")
    created(staff.post_event("다음 이벤트", day(1), day(5), "곧 해요"), "POST /api/events (future)")
    make_member("calendar_watcher")
    sign_in_page_context(page, server, "calendar_watcher")

    open_home(page, server)
    expect_no_event_popup(page, "only a finished and a future event exist")
    expect(page.get_by_text("지난 이벤트")).to_have_count(0)

    created(staff.post_event(EVENT_TITLE, day(), day(), EVENT_BODY), "POST /api/events (today only)")
    page.reload()
    expect_event_popup(page)


# --- What's New on /home --------------------------------------------------------------------------

def test_whats_new_is_newest_first_and_stays_in_order_while_images_load(page, server, staff, make_member):
    posted = post_three_news_with_images(staff)
    titles = [item["title"] for item in posted]
    newest_first = list(reversed(titles))
    member = make_member("news_reader")

    # The text of every item is in the HTML itself, newest first.
    html = member.get("/home").text
    positions = [html.find(title) for title in newest_first]
    assert all(position >= 0 for position in positions), f"news titles missing from /home's HTML: {positions}"
    assert positions == sorted(positions), f"/home's HTML does not list news newest first: {positions}"

    # Hold back the newest item's image (the first on the page) until the others have loaded.
    delayed_path = urlparse(urljoin(server.url + "/", posted[-1]["imageURL"])).path
    held = []

    def route_image(route):
        if urlparse(route.request.url).path == delayed_path:
            held.append(route)
        else:
            route.continue_()

    page.route("**/images/*", route_image)
    sign_in_page_context(page, server, "news_reader")
    page.goto(server.url + "/home", wait_until="domcontentloaded")
    assert news_titles_on(page, titles) == newest_first, "news is not newest first before images load"

    deadline = time.monotonic() + 5
    while not held:
        assert time.monotonic() < deadline, "the newest item's image was never requested"
        page.wait_for_timeout(50)
    page.wait_for_function("""() => [...document.querySelectorAll('.news-item img')]
        .filter(image => image.complete && image.naturalWidth > 0).length === 2""")
    assert not page.locator(".news-item").first.locator("img").evaluate("image => image.naturalWidth > 0"), \
        "the held-back image is already loaded"
    assert news_titles_on(page, titles) == newest_first, "news order changed while images were arriving"
    assert news_titles_on_screen(page, titles) == newest_first, "news shows out of order on screen"

    held[0].continue_()
    page.wait_for_function(ALL_NEWS_IMAGES_LOADED, arg=3)

    assert news_titles_on(page, titles) == newest_first, "news order changed once all images had loaded"
    assert news_titles_on_screen(page, titles) == newest_first, "news shows out of order on screen after images loaded"
    shot(page, "member_whats_new_after_images")


def test_whats_new_order_without_interference(page, server, staff, make_member):
    posted = post_three_news_with_images(staff)
    titles = [item["title"] for item in posted]
    make_member("plain_reader")
    sign_in_page_context(page, server, "plain_reader")

    page.goto(server.url + "/home")
    assert news_titles_on(page, titles) == titles[::-1]
    page.wait_for_function(ALL_NEWS_IMAGES_LOADED, arg=3)
    assert news_titles_on(page, titles) == titles[::-1]


# --- escaping --------------------------------------------------------------------------------------

def test_a_script_in_a_news_title_shows_as_text(page, server, staff, make_member):
    title = "<script>window.__pwned = 1</script>"
    body = '<img src=x onerror="window.__pwned3=1">'
    created(staff.post_news(title, body), "POST /api/news")
    make_member("careful_reader")
    sign_in_page_context(page, server, "careful_reader")

    open_home(page, server)
    page.wait_for_timeout(QUIET_MS)

    expect(page.locator(".news-item").first).to_contain_text(title)
    expect(page.locator(".news-item").first).to_contain_text(body)
    assert page.evaluate("typeof window.__pwned") == "undefined", "a news title ran as a script"
    assert page.evaluate("typeof window.__pwned3") == "undefined", "a news body ran as HTML"


def test_a_member_name_with_html_shows_as_text(page, server, make_member):
    name = '<img src=x onerror="window.__pwned2=1">'
    make_member("html_name", name=name)
    sign_in_page_context(page, server, "html_name")

    open_home(page, server)
    page.wait_for_timeout(QUIET_MS)

    expect(page.locator("body")).to_contain_text(name)
    expect(page.locator("img[src='x']")).to_have_count(0)
    assert page.evaluate("typeof window.__pwned2") == "undefined", "the member's name ran as HTML"


# --- ordering as a member ------------------------------------------------------------------------

def test_member_orders_on_home_and_sees_history_and_recommendation(page, server, make_member):
    make_member("banana_fan", name="바나나팬")
    other = make_member("someone_else")
    sign_in_page_context(page, server, "banana_fan")
    open_home(page, server)
    order = page.locator('[data-juice="bananaJuice"]')
    expect(order).to_have_text("바나나쥬스 주문")

    order.click()

    expect(page.get_by_text(ORDERED_BANANA)).to_be_visible()
    expect(page.locator('#my-orders li[data-order-juice="bananaJuice"]')).to_have_count(1)
    expect(page.locator("[data-recommended]")).to_contain_text("바나나쥬스")
    mine = page.request.get(server.url + "/api/me/orders")
    assert mine.status == 200, mine.text()
    assert [o.get("juice") for o in orders_of(mine.json())] == ["bananaJuice"], mine.json()
    theirs = other.get("/api/me/orders")
    assert theirs.status_code == 200, theirs.text
    assert orders_of(theirs.json()) == [], f"another member's orders include banana_fan's: {theirs.json()}"
    assert other.stock()["banana"] < SEED_STOCK["banana"]

    page.reload()
    expect(page.locator('#my-orders li[data-order-juice="bananaJuice"]')).to_have_count(1)
    expect(page.locator("[data-recommended]")).to_contain_text("바나나쥬스")


def test_my_orders_needs_a_session(api):
    assert_error(api.get("/api/me/orders"), 401)


# --- cross-site requests and what members may not do --------------------------------------------

@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"},
                                     {"Referer": "http://evil.example/free-juice.html"}],
                         ids=["origin", "referer"])
def test_an_order_from_another_site_is_refused(make_member, api, headers):
    member = make_member("csrf_target")

    assert_error(member.post("/api/orders", json={"juice": "bananaJuice"}, headers=headers), 403)
    assert_error(api.post("/api/orders", json={"juice": "bananaJuice"}, headers=headers), 403)

    assert member.stock() == SEED_STOCK
    assert orders_of(member.get("/api/me/orders").json()) == []
    response = member.post("/api/orders", json={"juice": "bananaJuice"})
    assert response.status_code == 201, f"the same order without Origin/Referer answered {response.status_code}: {response.text}"
    own_origin = member.post("/api/orders", json={"juice": "kiwiJuice"}, headers={"Origin": member.base_url})
    assert own_origin.status_code == 201, f"an order with the shop's own Origin answered {own_origin.status_code}"


def test_a_member_cannot_do_staff_work(make_member, staff):
    member = make_member("just_a_member")

    assert_error(member.put("/api/stock/kiwi", json={"count": 99}), 403)
    assert_error(member.post_news("회원 소식", "안돼요"), 403)
    assert_error(member.post("/api/vending/stock", json={"product": "cola", "count": 3}), 403)
    assert member.stock() == SEED_STOCK
    assert staff.news() == []


# --- the whole story, in one browser -------------------------------------------------------------

def test_member_flow_from_sign_up_to_order(page, server, staff):
    posted = post_three_news_with_images(staff)
    titles = [item["title"] for item in posted]

    # Sign up through /signup.
    page.goto(server.url + "/signup")
    page.get_by_label("아이디", exact=True).fill("flow_member")
    page.get_by_label("비밀번호", exact=True).fill(MEMBER_PASSWORD)
    page.get_by_label("이름", exact=True).fill("주스러버")
    shot(page, "member_flow_01_signup")
    with page.expect_navigation():
        button(page, "가입하기").click()
    assert path_of(page) == "/home", f"signing up led to {page.url}"
    expect(page.locator("body")).to_contain_text("주스러버")
    page.wait_for_load_state("networkidle")
    shot(page, "member_flow_02_home_after_signup")

    # Staff start an event while the member is at home.
    created(staff.post_event(EVENT_TITLE, day(-1), day(1), EVENT_BODY,
                             ("event.png", png_bytes((200, 30, 60), 60, 40), "image/png")), "POST /api/events")

    # Sign out with the button, then sign in through /login.
    with page.expect_navigation():
        button(page, "로그아웃").click()
    assert page.request.get(server.url + "/api/me").status == 401, "still signed in after 로그아웃"
    page.goto(server.url + "/login")
    sign_in_on_current_page(page, "flow_member", MEMBER_PASSWORD)
    assert path_of(page) == "/home", f"signing in led to {page.url}"

    # The event pops up once; hide it for today.
    dialog = expect_event_popup(page)
    shot(page, "member_flow_03_event_popup")
    button(dialog, "오늘 하루 보지 않기").click()
    expect(dialog).to_be_hidden()
    page.wait_for_load_state("networkidle")
    page.reload()
    expect_no_event_popup(page, "the event was hidden for today")

    # What's New, newest first, before and after the images.
    assert news_titles_on(page, titles) == titles[::-1]
    page.wait_for_function(ALL_NEWS_IMAGES_LOADED, arg=3)
    assert news_titles_on(page, titles) == titles[::-1]
    assert news_titles_on_screen(page, titles) == titles[::-1]
    shot(page, "member_flow_04_whats_new")

    # Order a juice; it shows in the history.
    order = page.locator('[data-juice="bananaJuice"]')
    expect(order).to_have_text("바나나쥬스 주문")
    order.click()
    expect(page.get_by_text(ORDERED_BANANA)).to_be_visible()
    expect(page.locator('#my-orders li[data-order-juice="bananaJuice"]')).to_have_count(1)
    expect(page.locator("[data-recommended]")).to_contain_text("바나나쥬스")
    mine = page.request.get(server.url + "/api/me/orders")
    assert mine.status == 200 and [o.get("juice") for o in orders_of(mine.json())] == ["bananaJuice"], mine.text()
    shot(page, "member_flow_05_ordered")

    # Signing in again the same day shows no pop-up.
    sign_out_page_context(page, server)
    sign_in_page_context(page, server, "flow_member")
    open_home(page, server)
    expect_no_event_popup(page, "the event was hidden for today, then the member signed in again")
    expect(page.locator('#my-orders li[data-order-juice="bananaJuice"]')).to_have_count(1)
