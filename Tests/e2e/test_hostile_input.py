"""Hostile input, case by case: each of these once killed the server, stored something other than what
was sent, or answered wrongly (issue 12). Now each is refused with a 4xx that says why, nothing is stored,
and the server goes on answering GET /health.

- money amounts at and past the ends of a 64-bit integer (the server and the CLI died computing the
  error message), a number too big for any integer, and a number sent as a string;
- multipart forms with an empty boundary (the multipart parser traps on one);
- text with a NUL character in it (it was cut off when stored while the answer echoed it whole);
- sign-in and sign-up form bodies over 64 KB (500);
- passwords over bcrypt's 72 bytes (silently cut short, so a longer one's first 72 bytes signed in);
- a known path asked with a method it does not have (404 instead of 405 with `Allow`);
- event dates with a sign, like `+026-11-01` (taken as the year 26);
- `next` after signing in pointing off the site once a browser drops the tab or line break in it.
"""
from __future__ import annotations

import datetime as dt
import json
import re
import subprocess

import pytest
import requests

from e2e_support import ADMIN_PASSWORD, ADMIN_USERNAME, SEED_STOCK, ShopApi, assert_error, day, server_binary

INT64_MIN = "-9223372036854775808"
INT64_MAX = "9223372036854775807"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
OVER_64_KB = 70_000


def assert_still_up(server) -> None:
    """The process is running and GET /health answers 200."""
    assert server.alive(), f"the server exited with status {server.process.returncode}"
    health = requests.get(server.url + "/health", timeout=5)
    assert health.status_code == 200, f"GET /health answered {health.status_code} afterwards"


def news_titles(api: ShopApi) -> list[str]:
    response = api.get("/api/news")
    assert response.status_code == 200, response.text
    return [item["title"] for item in response.json()]


def usernames(server) -> list[str]:
    return [account["username"] for account in json.loads(server.cli("users", "list", "--json", check=True).stdout)]


# --- money at the ends of the integers ----------------------------------------------------------------

@pytest.mark.parametrize("amount, statuses", [
    (INT64_MIN, (422,)), (INT64_MAX, (422,)),
    ("9223372036854775808", (400, 422)), ("-9223372036854775809", (400, 422)),
    ("1e30", (400, 422)), ('"1000"', (400, 422)),
], ids=["int64-min", "int64-max", "2^63", "-2^63-1", "1e30", "string"])
def test_an_absurd_money_amount_is_refused_and_the_server_stays_up(server, api, amount, statuses):
    """`{"amount": -9223372036854775808}` killed the server (abs(Int.min) while writing the refusal)."""
    response = api.post("/api/vending/money", data=f'{{"amount": {amount}}}',
                        headers={"Content-Type": "application/json"})
    assert_error(response, *statuses)
    assert_still_up(server)
    assert api.get("/api/vending").json()["balance"] == 0


@pytest.mark.parametrize("amount", [INT64_MIN, INT64_MAX, "99999999999999999999"],
                         ids=["int64-min", "int64-max", "past-int64"])
def test_the_cli_refuses_an_absurd_money_amount_in_one_line(tmp_path, amount):
    """`juicemaker vending insert -- -9223372036854775808` died of a signal; now it is refused input."""
    database = str(tmp_path / "shop.sqlite")
    result = subprocess.run([str(server_binary()), "vending", "insert", "--database", database, "--", amount],
                            cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert result.returncode > 0, (
        f"exit status {result.returncode} for {amount} (negative: it died of signal {-result.returncode})"
        f"\nstderr: {result.stderr}")
    assert result.returncode in (1, 2), f"exit status {result.returncode}, wanted 2 (refused input)\n{result.stderr}"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, f"wanted a one-line reason on stderr, got:\n{result.stderr}"


# --- multipart forms without a boundary ----------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/news", "/api/events"])
@pytest.mark.parametrize("content_type", ["multipart/form-data; boundary=", 'multipart/form-data; boundary=""'],
                         ids=["empty", "quoted-empty"])
def test_a_multipart_form_with_an_empty_boundary_is_400(server, staff, path, content_type):
    body = (b'--\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n'
            b'--\r\nContent-Disposition: form-data; name="start"\r\n\r\n' + day().encode() + b'\r\n'
            b'--\r\nContent-Disposition: form-data; name="end"\r\n\r\n' + day().encode() + b'\r\n----\r\n')
    response = staff.post(path, data=body, headers={"Content-Type": content_type})
    assert_error(response, 400)
    assert_still_up(server)
    assert news_titles(staff) == []
    assert staff.get("/api/events/current").status_code == 204


# --- NUL in text ---------------------------------------------------------------------------------------

def test_a_name_with_a_nul_is_refused_and_no_account_is_made(server, api):
    response = api.post("/api/members", json={"username": "nul_name", "password": "juicy-pass-123", "name": "a\u0000b"})
    assert_error(response, 422, code="invalid_text")
    assert "nul_name" not in usernames(server)
    assert_still_up(server)


@pytest.mark.parametrize("field", ["title", "body"])
def test_news_with_a_nul_is_refused_and_nothing_is_posted(server, staff, field):
    fields = {"title": "소식", "body": "본문", field: "앞\u0000뒤"}
    response = staff.post("/api/news", files={key: (None, value) for key, value in fields.items()})
    assert_error(response, 422, code="invalid_text")
    assert news_titles(staff) == []
    assert_still_up(server)


def test_an_event_with_a_nul_in_its_title_is_refused_and_nothing_is_posted(server, staff):
    fields = {"title": "이벤트\u0000숨김", "body": "", "start": day(-1), "end": day(1)}
    response = staff.post("/api/events", files={key: (None, value) for key, value in fields.items()})
    assert_error(response, 422, code="invalid_text")
    assert staff.get("/api/events/current").status_code == 204, "the refused event runs today"
    assert_still_up(server)


# --- form bodies over 64 KB ----------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/login", "/signup"])
def test_a_sign_in_or_sign_up_form_over_64_kb_is_413_and_the_page_still_works(server, api, path):
    body = "username=" + "a" * OVER_64_KB + "&password=juicy-pass-123"
    response = api.post(path, data=body, headers=FORM, allow_redirects=False)
    assert response.status_code == 413, f"POST {path} with {len(body)} bytes answered {response.status_code}"
    assert api.get(path).status_code == 200
    signed_in = api.post("/login", data={"username": ADMIN_USERNAME, "password": ADMIN_PASSWORD},
                         headers=FORM, allow_redirects=False)
    assert signed_in.status_code in (302, 303), f"signing in through the form answered {signed_in.status_code}"
    assert_still_up(server)


# --- passwords longer than bcrypt reads ----------------------------------------------------------------

@pytest.mark.parametrize("password", ["p" * 73, "한" * 25, "p" * 200], ids=["73-ascii", "75-bytes-korean", "200"])
def test_a_password_over_72_bytes_is_refused_at_sign_up(server, api, password):
    """Counted in UTF-8 bytes: 25 Korean letters are 75 bytes."""
    body = assert_error(api.post("/api/members", json={"username": "long_pw", "password": password}), 422,
                        code="password_too_long")
    assert "72" in body["message"], f"the message does not say the limit: {body['message']}"
    assert "long_pw" not in usernames(server)


@pytest.mark.parametrize("password", ["p" * 72, "한" * 24], ids=["72-ascii", "72-bytes-korean"])
def test_a_password_of_72_bytes_is_taken_and_only_it_signs_in(server, api, password):
    """72 bytes is the most bcrypt reads, so it is allowed; the same with one more character does not sign
    in (before, bcrypt ignored everything past 72 bytes)."""
    created = api.post("/api/members", json={"username": "exact_pw", "password": password})
    assert created.status_code == 201, f"a {len(password.encode())}-byte password was refused: {created.text}"
    assert ShopApi(server.url).sign_in("exact_pw", password).status_code == 200
    longer = ShopApi(server.url).sign_in("exact_pw", password + "x")
    assert longer.status_code != 200, "a password with one more character signed in"


def test_the_cli_refuses_a_password_over_72_bytes(server):
    result = server.cli("users", "add", "cli_long", "--password", "p" * 73)
    assert result.returncode == 2, f"exit status {result.returncode}\nstderr: {result.stderr}"
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "cli_long" not in usernames(server)


# --- a known path with a method it does not have ----------------------------------------------------

@pytest.mark.parametrize("method, path, allowed", [
    ("DELETE", "/api/stock/kiwi", "PUT"),
    ("GET", "/api/events/1/hide-today", "POST"),
    ("PUT", "/images/1", "GET"),
    ("PATCH", "/api/orders", "POST"),
])
def test_a_wrong_method_on_a_known_path_is_405_with_allow(server, staff, method, path, allowed):
    response = staff.request(method, path)
    assert_error(response, 405)
    allow = [item.strip() for item in response.headers.get("Allow", "").split(",")]
    assert allowed in allow, f"{method} {path}: Allow is {response.headers.get('Allow')!r}, without {allowed}"
    assert method not in allow
    assert staff.stock() == SEED_STOCK


# --- event dates with a sign ----------------------------------------------------------------------------

NEXT_YEAR = dt.date.today().year + 1


@pytest.mark.parametrize("start, end", [
    ("+026-11-01", day(1)),
    (day(-1), f"+{NEXT_YEAR}-11-01"),
    (f"+{NEXT_YEAR}-11-01", f"{NEXT_YEAR}-11-02"),
], ids=["start-year-26", "end-signed", "start-signed"])
def test_an_event_date_with_a_sign_is_refused(server, staff, start, end):
    """Read leniently, `+026-11-01` is the year 26 (an event running since then), `+2027-11-01` is 2027."""
    fields = {"title": "부호 있는 날짜", "start": start, "end": end}
    response = staff.post("/api/events", files={key: (None, value) for key, value in fields.items()})
    assert_error(response, 400, 422)
    assert staff.get("/api/events/current").status_code == 204
    assert_still_up(server)


# --- where a sign-in leads ---------------------------------------------------------------------------

def leads_off_site(location: str) -> bool:
    """Whether a browser following this `Location` could leave the site: it drops tabs and line breaks
    anywhere and spaces and controls at the ends, and reads `\\` as `/`; what remains must be a path
    (`/…`), not `//host…` and not a URL with a scheme."""
    cleaned = re.sub(r"[\t\r\n]", "", location).strip("".join(map(chr, range(0x21))))
    cleaned = cleaned.replace("\\", "/")
    return not cleaned.startswith("/") or cleaned.startswith("//")


@pytest.mark.parametrize("next_path", [
    "/\t/evil.example/phish", "/\r\n/evil.example", "//evil.example", "/\\evil.example", "https://evil.example",
    " //evil.example", "/\t\\evil.example",
], ids=["tab", "crlf", "double-slash", "backslash", "absolute", "leading-space", "tab-backslash"])
def test_signing_in_never_leads_off_the_site(server, api, next_path):
    response = api.post("/login", data={"username": ADMIN_USERNAME, "password": ADMIN_PASSWORD, "next": next_path},
                        headers=FORM, allow_redirects=False)
    assert response.status_code in (302, 303), f"signing in answered {response.status_code}: {response.text[:300]}"
    location = response.headers.get("Location", "")
    assert not re.search(r"[\x00-\x1f\x7f]", location), f"Location has control characters: {location!r}"
    assert not leads_off_site(location), f"next={next_path!r} led to Location: {location!r}"


def test_signing_in_follows_a_plain_next_path(server, api):
    response = api.post("/login", data={"username": ADMIN_USERNAME, "password": ADMIN_PASSWORD, "next": "/home"},
                        headers=FORM, allow_redirects=False)
    assert response.status_code in (302, 303), response.text[:300]
    assert response.headers.get("Location") == "/home"
