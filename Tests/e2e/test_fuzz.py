"""A seeded fuzz pass over every route that takes a body, and over the CLI's arguments (issue 12).

The server: for a time budget ($JUICEMAKER_FUZZ_SECONDS, 45 s by default) one client sends request after
request to the JSON routes (orders, stock, sign-up, sign-in, the vending machine's money, purchases,
restocking and change, hiding an event), the multipart routes (news and events, as staff), the sign-in
and sign-up forms and the routes with a `limit` or an id, each a valid request made wrong in one to three
ways: integers at and past the ends of 64 bits, 1e308, NaN and numbers as strings, wrong types, NUL and
other control characters, huge strings, deep nesting, invalid UTF-8, broken multipart boundaries and
parts, and odd header values. Every answer must be below 500 (not even 503 `busy`: one request at a time
never fills a queue), and the process must never exit. Afterwards /health is 200 and the shop adds up:
no count below zero, the stock equals the sum of its ledger, the machine's money balances.

The CLI: for $JUICEMAKER_CLI_FUZZ_SECONDS (20 s), random argument vectors for the commands that change
the shop; each must exit 0, 1, 2 or 64 (never 3, an unexpected error, and never by a signal), with a
one-line reason on stderr when it fails (ArgumentParser's usage text, several lines, for 64).

$JUICEMAKER_FUZZ_SEED (12 by default) fixes the sequence; a failure prints the seed and the requests.
"""
from __future__ import annotations

import base64
import json
import os
import random
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
import requests

from e2e_support import FRUITS, JUICES, RawAnswer, ShopApi, day, raw_exchange, server_binary, staff_headers
from vending_support import BALANCE_CAP, PRODUCTS

FUZZ_SECONDS = float(os.environ.get("JUICEMAKER_FUZZ_SECONDS", "45"))
CLI_FUZZ_SECONDS = float(os.environ.get("JUICEMAKER_CLI_FUZZ_SECONDS", "20"))
SEED = int(os.environ.get("JUICEMAKER_FUZZ_SEED", "12"))
REQUEST_TIMEOUT_S = 10
MAX_REPORTED = 15
JSON_LIMIT = 64 * 1024  # bytes the server reads of a JSON or form body
MULTIPART_LIMIT = 3 * 1024 * 1024
CLI_EXIT_CODES = {0, 1, 2, 64}

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC")


class Raw(str):
    """JSON text put into a body as is: numbers no JSON encoder writes (1e309, 00100, -0), bad escapes."""


EXTREME_NUMBERS = [Raw(text) for text in [
    "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "-18446744073709551616", "-1", "0", "1", "1e308", "-1e308", "1e309", "1e-400",
    "0.5", "-0", "1.0", "1E2", "00100", "2147483648", "-2147483649", "1000000", "1000001", "50000", "10000",
    "123456789012345678901234567890123456789", "9.999999999999999e22", "-0.0", "4.9e-324"]]
TEXTS = ["", " ", "NaN", "Infinity", "-Infinity", "nan", "null", "true", "1000", "-1", "1e30", "0x10",
         "9223372036854775808", "\u0000", "a\u0000b", "\u0000" * 8, "\t\r\n", "\u0001\u001f\u007f", "\u202eevil",
         "\ufeff", "\u200b", "🍓" * 40, "딸기" * 30, "%00", "../../etc/passwd", "<script>alert(1)</script>",
         "' OR 1=1 --", "strawberryBananaJuice", "cola", "banana", "admin ", "ADMIN", "x" * 101, "x" * 5001,
         "é" * 36, "한" * 25]
BAD_ESCAPES = [Raw(text) for text in ['"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"\\x41"', '"\\uZZZZ"', '"\\']]
INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x82"]
DATES = ["2026-11-01", "+026-11-01", "-0001-01-01", "0000-00-00", "9999-12-31", "99999-01-01", "2026-02-30",
         "2026-13-01", "2026-1-1", "", "today", "2026-11-01T00:00:00Z", "9223372036854775807-01-01",
         "1970-01-01", "2026-11-01\u0000", " 2026-11-01", "1900-02-29", "2400-02-29", "1-1-1"]
HEADER_NAMES = ["Accept", "Accept-Language", "Accept-Encoding", "User-Agent", "X-Forwarded-For", "If-None-Match",
                "Range", "Authorization", "Referer", "Origin", "Expect", "Cache-Control", "X-Requested-With",
                "Cookie", "X-Fuzz"]


def to_json(value) -> str:
    """JSON text for `value`, writing Raw parts as they are."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(key)}:{to_json(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(to_json(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


@dataclass
class FuzzRequest:
    """One request as sent, byte for byte, and what the server may do instead of answering."""

    kind: str  # the route fuzzed and how, for the report
    method: str
    target: str
    headers: list[tuple[bytes, bytes]]
    body: bytes
    odd_head: bool = False  # header bytes an HTTP parser may refuse by closing the connection
    body_limit: int | None = None  # a body past this may be refused before it is read (a reset, no answer)
    notes: list[str] = field(default_factory=list)

    def encode(self) -> bytes:
        lines = [f"{self.method} {self.target} HTTP/1.1".encode(), b"Host: 127.0.0.1", b"Connection: close"]
        lines += [name + b": " + value for name, value in self.headers]
        lines.append(b"Content-Length: " + str(len(self.body)).encode())
        return b"\r\n".join(lines) + b"\r\n\r\n" + self.body

    def describe(self) -> str:
        head = f"{self.method} {self.target} [{self.kind}; {', '.join(self.notes) or 'valid'}]"
        headers = "; ".join(f"{name.decode('latin-1')}: {value[:60]!r}" for name, value in self.headers)
        return f"{head}\n    headers: {headers}\n    body ({len(self.body)} bytes): {self.body[:200]!r}"


class Fuzzer:
    """Makes requests: a valid one for a route, then one to three mutations of it."""

    def __init__(self, rng: random.Random, staff: dict[str, str]):
        self.rng = rng
        # The admin's session cookie and its anti-CSRF token, sent together (`as_staff`).
        self.staff = staff
        # Sign-up and sign-in cost a bcrypt hash each (cost 12) when they get that far: fewer of them,
        # or they would take most of the time.
        self.routes = [
            (3, self.order), (2, self.set_stock), (0.15, self.sign_up), (0.15, self.sign_in), (3, self.insert_money),
            (3, self.buy), (2, self.restock), (1, self.change), (1, self.hide_event), (2, self.read_with_limit),
            (2, self.news), (2, self.event), (0.15, self.form),
        ]

    def next(self) -> FuzzRequest:
        make = self.rng.choices([route for _, route in self.routes], [weight for weight, _ in self.routes])[0]
        return make()

    # --- values ---------------------------------------------------------------------------------

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def odd_value(self):
        """A value of any JSON type, usually a hostile one."""
        pick = self.rng.random()
        if pick < 0.3:
            return self.rng.choice(EXTREME_NUMBERS)
        if pick < 0.6:
            return self.rng.choice(TEXTS)
        if pick < 0.7:
            return self.rng.choice(BAD_ESCAPES)
        if pick < 0.8:
            return self.rng.choice([None, True, False, [], {}, [1, 2], {"a": 1}, [None]])
        if pick < 0.9:
            return "x" * self.rng.choice([1_000, 30_000, 70_000])
        return self.deep(self.rng.choice([10, 1_000, 10_000]))

    def deep(self, depth: int):
        opener, closer = self.rng.choice([("[", "]"), ('{"a":', "}")])
        return Raw(opener * depth + "1" + closer * depth)

    def odd_text(self) -> str:
        """A string for a path segment, query value, form field or argument."""
        value = self.rng.choice([*map(str, EXTREME_NUMBERS), *TEXTS, *DATES])
        return value if self.chance(0.9) else (value or "x") * (self.rng.choice([5_000, 100_000]) // max(1, len(value)))

    # --- JSON routes ----------------------------------------------------------------------------

    def json_request(self, kind: str, method: str, target: str, body: dict | None, staff: bool = False) -> FuzzRequest:
        request = FuzzRequest(kind, method, target, [], b"", body_limit=JSON_LIMIT)
        fields = dict(body or {})
        content_type: bytes | None = b"application/json"
        raw_body: bytes | None = None
        for _ in range(self.rng.choice([0, 1, 1, 2, 3])):
            mutation = self.rng.randrange(11)
            if mutation <= 2 and fields:
                name = self.rng.choice(list(fields))
                fields[name] = self.odd_value()
                request.notes.append(f"{name} odd")
            elif mutation == 3 and fields:
                fields.pop(self.rng.choice(list(fields)))
                request.notes.append("field dropped")
            elif mutation == 4:
                fields[self.rng.choice(["extra", "__proto__", "", "\u0000", "count", "amount"])] = self.odd_value()
                request.notes.append("field added")
            elif mutation == 5:
                raw_body = self.rng.choice([b"", b"[]", b"1", b'"x"', b"null", b"true", b"{", b"}", b"{}{}",
                                            b'{"a":1,}', b"\xef\xbb\xbf{}", bytes(self.rng.randrange(256)
                                                                                  for _ in range(self.rng.randrange(1, 300)))])
                request.notes.append("body replaced")
            elif mutation == 6:
                raw_body = to_json(self.deep(self.rng.choice([100, 5_000, 30_000]))).encode()
                request.notes.append("deep nesting")
            elif mutation == 7:
                content_type = self.rng.choice([None, b"text/plain", b"application/json; charset=utf-16",
                                                b"application/x-www-form-urlencoded", b"multipart/form-data; boundary=x",
                                                b"application/json; charset=\xff", b"", b"*/*"])
                request.notes.append("content type")
            elif mutation == 8 and fields:
                name = self.rng.choice(list(fields))
                raw_body = (to_json(fields)[:-1] + f",{json.dumps(name)}:{to_json(self.odd_value())}}}").encode()
                request.notes.append("duplicate key")
            else:
                self.add_odd_headers(request)
        if raw_body is None:
            raw_body = to_json(fields).encode("utf-8", "surrogatepass")
            if self.chance(0.15):
                at = self.rng.randrange(len(raw_body) + 1)
                raw_body = raw_body[:at] + self.rng.choice(INVALID_UTF8) + raw_body[at:]
                request.notes.append("invalid UTF-8")
            if self.chance(0.05):
                raw_body = raw_body[:self.rng.randrange(len(raw_body) + 1)]
                request.notes.append("truncated")
        request.body = raw_body
        if content_type is not None:
            request.headers.insert(0, (b"Content-Type", content_type))
        if staff and not any(name == b"Cookie" for name, _ in request.headers):
            self.as_staff(request)
        return request

    def as_staff(self, request: FuzzRequest) -> None:
        for name, value in self.staff.items():
            request.headers.append((name.encode(), value.encode()))

    def order(self) -> FuzzRequest:
        return self.json_request("order", "POST", "/api/orders", {"juice": self.rng.choice(JUICES)})

    def set_stock(self) -> FuzzRequest:
        fruit = self.rng.choice(FRUITS) if self.chance(0.8) else self.path_segment()
        return self.json_request("set stock", "PUT", f"/api/stock/{fruit}",
                                 {"count": self.rng.choice([0, 5, 100, 1_000, 1_000_000])}, staff=self.chance(0.9))

    def sign_up(self) -> FuzzRequest:
        return self.json_request("sign up", "POST", "/api/members", {
            "username": f"fuzz_{self.rng.randrange(10_000)}", "password": "fuzzy-pass-1",
            "name": self.rng.choice(["퍼즈", "Fuzz", "x"])})

    def sign_in(self) -> FuzzRequest:
        # Never the admin: a few wrong guesses would lock it out, which is not what this is about.
        return self.json_request("sign in", "POST", "/api/session", {
            "username": f"fuzz_{self.rng.randrange(50)}", "password": "fuzzy-pass-1"})

    def insert_money(self) -> FuzzRequest:
        return self.json_request("insert money", "POST", "/api/vending/money",
                                 {"amount": self.rng.choice([100, 500, 1_000, 5_000, 10_000])})

    def buy(self) -> FuzzRequest:
        return self.json_request("buy", "POST", "/api/vending/purchases", {"product": self.rng.choice(PRODUCTS)})

    def restock(self) -> FuzzRequest:
        body = {"product": self.rng.choice(PRODUCTS), "count": self.rng.choice([1, 10, 1_000])}
        if self.chance(0.5):
            body["manufactured"] = self.rng.choice([day(), day(-3), *DATES])
        return self.json_request("restock", "POST", "/api/vending/stock", body, staff=self.chance(0.9))

    def change(self) -> FuzzRequest:
        return self.json_request("change", "POST", "/api/vending/change", None)

    def hide_event(self) -> FuzzRequest:
        return self.json_request("hide event", "POST", f"/api/events/{self.path_segment(numeric=True)}/hide-today", None,
                                 staff=self.chance(0.5))

    def path_segment(self, numeric: bool = False) -> str:
        choices = ["1", "0", "-1", "9223372036854775807", "9223372036854775808", "1e3", "abc", "%00", "%FF", "%zz", "%",
                   "..", "..%2F..", "a" * 5_000, "%F0%9F%8D%93", "kiwi%00", "KIWI", "dragonfruit", "+1", "0x1"]
        return self.rng.choice(choices if numeric or self.chance(0.5) else [*choices, *FRUITS])

    # --- reads with a limit or an id ------------------------------------------------------------

    def read_with_limit(self) -> FuzzRequest:
        path = self.rng.choice(["/api/orders", "/api/news", "/api/me/orders", "/api/vending/history", "/images/"])
        if path == "/images/":
            target = path + self.path_segment(numeric=True)
        else:
            value = self.rng.choice(["1", "10000", "10001", "0", "-1", "9223372036854775807", "9223372036854775808",
                                     "1e3", "abc", "", "%00", "1.5", "%2B1", "99999999999999999999999"])
            target = f"{path}?limit={value}" + (f"&limit={self.rng.choice(['1', 'x'])}" if self.chance(0.2) else "")
        request = FuzzRequest("read", "GET", target, [], b"")
        if self.chance(0.5):
            self.as_staff(request)
        if self.chance(0.3):
            self.add_odd_headers(request)
        return request

    # --- multipart routes -----------------------------------------------------------------------

    def news(self) -> FuzzRequest:
        return self.multipart("news", "/api/news", {"title": "퍼즈 소식", "body": "본문"})

    def event(self) -> FuzzRequest:
        return self.multipart("event", "/api/events", {"title": "퍼즈 이벤트", "body": "",
                                                       "start": day(self.rng.randrange(-3, 1)),
                                                       "end": day(self.rng.randrange(1, 4))})

    def multipart(self, kind: str, path: str, fields: dict[str, str]) -> FuzzRequest:
        request = FuzzRequest(kind, "POST", path, [], b"", body_limit=MULTIPART_LIMIT)
        boundary = "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789'()+_,-./:=?")
                           for _ in range(self.rng.randrange(1, 71)))
        header_boundary = boundary
        parts: list[tuple[bytes, bytes]] = []  # (part headers, content)
        image: bytes | None = PNG if self.chance(0.3) else None
        for _ in range(self.rng.choice([0, 1, 1, 2, 3])):
            mutation = self.rng.randrange(10)
            if mutation <= 2 and fields:
                name = self.rng.choice(list(fields))
                fields[name] = self.odd_text() if name not in ("start", "end") or self.chance(0.3) else self.rng.choice(DATES)
                request.notes.append(f"{name} odd")
            elif mutation == 3 and fields:
                fields.pop(self.rng.choice(list(fields)))
                request.notes.append("field dropped")
            elif mutation == 4:
                header_boundary = self.rng.choice(["", '""', '"', "x" * 71, "x" * 1_000, boundary + "x", " ", "a b",
                                                   '"' + boundary + '"', boundary.upper(), "\u00ff"])
                request.notes.append("boundary")
            elif mutation == 5:
                image = self.rng.choice([b"", b"\x89PNG\r\n\x1a\n", PNG[:20], b"\xff\xd8\xff" + os.urandom(50),
                                         b"RIFF\xff\xff\xff\xffWEBPVP8L", bytes(self.rng.randrange(256) for _ in range(500)),
                                         b"GIF89a" + b"\x00" * 20, PNG + b"\x00" * 2_100_000])
                request.notes.append("image")
            elif mutation == 6:
                parts.append(self.rng.choice([
                    (b"", b"no headers"),
                    (b"Content-Type: text/plain", b"no disposition"),
                    (b"Content-Disposition: form-data", b"no name"),
                    (b'Content-Disposition: form-data; name="title"', b"duplicate title"),
                    (b'Content-Disposition: form-data; name="ti\x00tle"', b"nul in name"),
                    (b'Content-Disposition: form-data; name="title"; filename="../../x"', b"file title"),
                    (b"Content-Disposition: form-data; name*=UTF-8''%ED%95%9C", b"encoded name"),
                    (b"X-" + b"h" * 10_000 + b": x", b"long part header"),
                    (b'Content-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png', PNG),
                ]))
                request.notes.append("odd part")
            elif mutation == 7:
                request.notes.append("body broken")
                request.body = self.rng.choice([b"", b"--", f"--{boundary}--".encode(), f"--{boundary}".encode(),
                                                f"--{boundary}\r\n\r\n".encode(), os.urandom(200),
                                                f"--{boundary}\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nx".encode()])
            elif mutation == 8:
                request.headers.append((b"Content-Type", self.rng.choice([
                    b"multipart/form-data", b"multipart/form-data; boundary", b"multipart/mixed; boundary=" + boundary.encode(),
                    b"multipart/form-data; boundary=a; boundary=b", b"MULTIPART/FORM-DATA; BOUNDARY=" + boundary.encode(),
                    b"application/json", b"multipart/form-data; boundary=\xff\xfe"])))
                request.notes.append("content type")
            else:
                self.add_odd_headers(request)
        if not request.body:
            request.body = self.multipart_body(boundary, fields, image, parts)
        if not any(name == b"Content-Type" for name, _ in request.headers):
            request.headers.insert(0, (b"Content-Type", f"multipart/form-data; boundary={header_boundary}".encode("utf-8")))
        if self.chance(0.03):
            request.body += b"x" * (MULTIPART_LIMIT + 1024)
            request.notes.append("over the limit")
        if self.chance(0.92) and not any(name == b"Cookie" for name, _ in request.headers):
            self.as_staff(request)
        return request

    def multipart_body(self, boundary: str, fields: dict[str, str], image: bytes | None,
                       extra: list[tuple[bytes, bytes]]) -> bytes:
        newline = b"\r\n" if self.chance(0.95) else b"\n"
        delimiter = b"--" + boundary.encode()
        parts = [(f'Content-Disposition: form-data; name="{name}"'.encode(), value.encode("utf-8", "surrogatepass"))
                 for name, value in fields.items()]
        if image is not None:
            parts.append((b'Content-Disposition: form-data; name="image"; filename="i.png"\r\nContent-Type: image/png', image))
        parts += extra
        self.rng.shuffle(parts)
        body = b""
        for headers, content in parts:
            body += delimiter + newline + (headers + newline if headers else b"") + newline + content + newline
        ending = delimiter + b"--" + newline
        if self.chance(0.05):
            ending = self.rng.choice([b"", delimiter, delimiter + b"-", ending[:-2]])
        return body + ending

    # --- the sign-in and sign-up forms ------------------------------------------------------------

    def form(self) -> FuzzRequest:
        path = self.rng.choice(["/login", "/signup"])
        fields = {"username": f"fuzz_{self.rng.randrange(50)}", "password": "fuzzy-pass-1",
                  "next": self.rng.choice(["/home", "//evil.example", "/\t/evil", "https://evil.example", ""]),
                  "lang": self.rng.choice(["en", "ko", "xx", ""])}
        for _ in range(self.rng.choice([1, 2])):
            fields[self.rng.choice(list(fields))] = self.odd_text()
        body = "&".join(f"{requests.utils.quote(key)}={requests.utils.quote(value.encode('utf-8', 'surrogatepass'))}"
                        for key, value in fields.items()).encode()
        if self.chance(0.2):
            body = self.rng.choice([b"%", b"a=%zz", b"username=%ff%fe&password=%00", b"&&&===", b"=" * 70_000])
        request = FuzzRequest("form", "POST", path, [(b"Content-Type", b"application/x-www-form-urlencoded")], body,
                              body_limit=JSON_LIMIT, notes=["form fields"])
        if self.chance(0.3):
            self.add_odd_headers(request)
        return request

    # --- headers ----------------------------------------------------------------------------------

    def add_odd_headers(self, request: FuzzRequest) -> None:
        for _ in range(self.rng.randrange(1, 4)):
            name = self.rng.choice(HEADER_NAMES).encode()
            pick = self.rng.random()
            if pick < 0.4:
                value = "".join(chr(self.rng.randrange(0x21, 0x7f)) for _ in range(self.rng.randrange(1, 200))).encode()
            elif pick < 0.6:
                value = bytes(self.rng.randrange(0x80, 0x100) for _ in range(self.rng.randrange(1, 50)))  # obs-text
            elif pick < 0.7:
                value = b"v" * self.rng.choice([4_000, 16_000])
            elif pick < 0.8:
                value = self.rng.choice([b"juicemaker_session=" + b"0" * 64, b"juicemaker_session=", b"=;=;;",
                                         b"juicemaker_session=\xff", b"a=b; juicemaker_session=x; juicemaker_session=y"])
            elif pick < 0.9:
                value = self.rng.choice([b"100-continue", b"bytes=0-0", b"bytes=-1", b"*", b"W/\"x\"", b"ko;q=1e309",
                                         b"http://127.0.0.1", b"null", b"gzip, deflate, br"])
            else:
                value = self.rng.choice([b"\x00", b"a\x01b", b"\x7f", b"x\x0bx"])  # control characters
                request.odd_head = True
            request.headers.append((name, value))
            request.notes.append(f"header {name.decode()}")


# --- the server pass ---------------------------------------------------------------------------------

@dataclass
class Outcome:
    request: FuzzRequest
    answer: RawAnswer | None
    problem: str | None


def send(port: int, request: FuzzRequest) -> Outcome:
    """Sends the request and judges the answer: a problem is a 5xx, or no answer where one was owed."""
    data = request.encode()
    try:
        answer = raw_exchange(port, data, timeout=REQUEST_TIMEOUT_S)
    except TimeoutError:
        return Outcome(request, None, f"no answer within {REQUEST_TIMEOUT_S} s")
    except ConnectionRefusedError:
        return Outcome(request, None, "connection refused")
    if answer.status is None:
        excused = request.odd_head or (request.body_limit is not None and len(request.body) > request.body_limit)
        problem = None if excused else f"the connection closed without an answer ({answer.raw[:100]!r})"
        return Outcome(request, answer, problem)
    if answer.status >= 500:
        return Outcome(request, answer, f"answered {answer.status}: {answer.body[:300]!r}")
    return Outcome(request, answer, None)


def assert_the_shop_adds_up(server) -> None:
    """No count below zero, fruit stock equal to its ledger's sum, and the machine's money balanced."""
    api = ShopApi(server.url)
    stock = api.stock()
    assert all(isinstance(count, int) and count >= 0 for count in stock.values()), f"stock: {stock}"
    ledger = Counter()
    for entry in json.loads(server.cli("history", "--json", check=True).stdout):
        ledger[entry["fruit"]] += entry["delta"]
    assert {fruit: ledger[fruit] for fruit in stock} == stock, f"the ledger sums {dict(ledger)}, the stock is {stock}"
    machine = api.get("/api/vending").json()
    assert all(product["stock"] >= 0 and product["expired"] >= 0 for product in machine["products"]), machine["products"]
    totals = machine["totals"]
    assert 0 <= machine["balance"] <= BALANCE_CAP, f"balance {machine['balance']}"
    assert totals["balance"] == machine["balance"] == totals["inserted"] - totals["spent"] - totals["returned"], totals
    assert min(totals.values()) >= 0, totals


def test_fuzzed_requests_to_every_route_never_get_a_server_error(server):
    rng = random.Random(SEED)
    fuzzer = Fuzzer(rng, staff_headers(server))
    problems: list[Outcome] = []
    recent: list[FuzzRequest] = []
    statuses = Counter()
    kinds = Counter()
    deadline = time.monotonic() + FUZZ_SECONDS
    while time.monotonic() < deadline:
        request = fuzzer.next()
        recent = (recent + [request])[-5:]
        outcome = send(server.port, request)
        kinds[request.kind] += 1
        statuses[outcome.answer.status if outcome.answer else None] += 1
        if outcome.problem:
            problems.append(outcome)
        if not server.alive():
            pytest.fail(f"the server exited with status {server.process.returncode} (seed {SEED}); the last requests:\n"
                        + "\n".join(item.describe() for item in recent), pytrace=False)
        if len(problems) >= MAX_REPORTED:
            break
    print(f"seed {SEED}: {sum(kinds.values())} requests {dict(kinds)}; statuses {dict(statuses)}")
    assert not problems, (f"{len(problems)} problems (seed {SEED}):\n"
                          + "\n".join(f"- {outcome.problem}\n  {outcome.request.describe()}" for outcome in problems))
    health = requests.get(server.url + "/health", timeout=5)
    assert health.status_code == 200, f"GET /health answered {health.status_code} after the fuzzing"
    assert_the_shop_adds_up(server)


# --- the CLI pass ------------------------------------------------------------------------------------

class ArgumentFuzzer:
    """Argument vectors for the commands that change the shop: valid ones made wrong."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def value(self, valid: list[str]) -> str | bytes:
        pick = self.rng.random()
        if pick < 0.45:
            return self.rng.choice(valid)
        if pick < 0.9:
            # An argument cannot hold a NUL, and one argument is at most 128 KB.
            text = self.rng.choice([*map(str, EXTREME_NUMBERS), *TEXTS, *DATES]).replace("\u0000", "\u0001")
            return text if self.chance(0.95) else (text or "x") * (60_000 // max(1, len(text.encode())))
        return self.rng.choice([b"\xff\xfe", b"caf\xc3", b"\xed\xa0\x80", b"ko\x80"])

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def count(self, valid: list[str]) -> list[str | bytes]:
        """A count, after `--` when it looks like an option (a negative number), mostly."""
        value = self.value(valid)
        text = value.decode(errors="replace") if isinstance(value, bytes) else value
        return ["--", value] if text.startswith("-") and self.chance(0.8) else [value]

    def arguments(self) -> list[str | bytes]:
        name = self.rng.randrange(9)
        rng = self.rng
        options: list[str | bytes] = []
        positional: list[str | bytes] = []
        if name == 0:
            args = ["order", self.value(JUICES)]
        elif name == 1:
            args = ["stock", rng.choice(["set", "add"]), self.value(FRUITS)]
            positional = self.count(["0", "5", "1000000", "1000001"])
        elif name == 2:
            args, positional = ["vending", "insert"], self.count(["100", "1000", "10000", "50000"])
        elif name == 3:
            args = ["vending", "buy", self.value(PRODUCTS)]
        elif name == 4:
            args = ["vending", "restock", self.value(PRODUCTS)]
            options = ["--manufactured", self.value([day(), day(-5)])] if self.chance(0.5) else []
            positional = self.count(["1", "10", "1000", "1001"])
        elif name == 5:
            args = ["menu", "add-fruit", self.value(["orange", "grape", "lemon"]), "--ko", self.value(["오렌지"]),
                    "--en", self.value(["Orange"])]
            if self.chance(0.5):
                args += ["--count", self.value(["0", "10", "1000000"])]
            if self.chance(0.3):
                args += ["--emoji", self.value(["🍊"])]
        elif name == 6:
            recipe = self.value(["banana:1", "banana:2,kiwi:1", "banana:9223372036854775807,kiwi:9223372036854775807",
                                 "banana:-1", "banana:0", "banana", ":", "banana:1,banana:2", ""])
            args = ["menu", "add-juice", self.value(["orangeJuice", "bananaKiwi"]), "--ko", self.value(["쥬스"]),
                    "--en", self.value(["Juice"]), "--recipe", recipe]
        elif name == 7:
            args = ["users", "add", self.value(["cli_user", "abc", "x" * 21])]
            if self.chance(0.7):
                args += ["--password", self.value(["cli-pass-123", "short", "p" * 73])]
            if self.chance(0.3):
                args += ["--name", self.value(["이름"])]
            if self.chance(0.2):
                args.append("--staff")
        else:
            args = [self.rng.choice(["order", "stock", "vending", "menu", "users"]), self.odd_flag()]
        args += options + positional if self.chance(0.8) else positional + options
        if self.chance(0.1):
            args.insert(self.rng.randrange(1, len(args) + 1), self.odd_flag())
        if self.chance(0.05) and len(args) > 2:
            del args[self.rng.randrange(1, len(args))]
        return args

    def odd_flag(self) -> str:
        return self.rng.choice(["--bogus", "-", "--", "--json", "--json=1", "--help", "-h", "--database", "--limit",
                                "--limit=-1", "--count=", "---"])


def test_fuzzed_cli_arguments_end_with_a_known_exit_code_and_a_one_line_reason(tmp_path):
    binary = server_binary()
    if not binary.is_file():
        pytest.fail(f"the juicemaker binary is missing at {binary}", pytrace=False)
    database = str(tmp_path / "shop.sqlite")
    env = {key: value for key, value in os.environ.items() if key != "JUICEMAKER_DATABASE"}
    made = subprocess.run([str(binary), "stock", "--database", database], cwd=tmp_path, env=env,
                          capture_output=True, timeout=30)
    assert made.returncode == 0, made.stderr
    fuzzer = ArgumentFuzzer(random.Random(SEED))
    problems, exit_codes, runs = [], Counter(), 0
    deadline = time.monotonic() + CLI_FUZZ_SECONDS
    while time.monotonic() < deadline and len(problems) < MAX_REPORTED:
        arguments = fuzzer.arguments()
        command = [str(binary)]
        if "--" in arguments:  # options go before it: after it, everything is an argument
            at = arguments.index("--")
            command += [*arguments[:at], "--database", database, *arguments[at:]]
        else:
            command += [*arguments, "--database", database]
        stdin = fuzzer.rng.choice([b"", b"cli-pass-123\n", b"\xff\xfe\n", b"p" * 100 + b"\n"])
        try:
            result = subprocess.run(command, cwd=tmp_path, env=env, input=stdin, capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            problems.append(f"still running after 30 s: {arguments!r}")
            continue
        runs += 1
        exit_codes[result.returncode] += 1
        stderr = result.stderr.decode(errors="replace").strip()
        if result.returncode < 0:
            problems.append(f"died of signal {-result.returncode}: {arguments!r}\n  stderr: {stderr[-500:]}")
        elif result.returncode not in CLI_EXIT_CODES:
            problems.append(f"exit {result.returncode}: {arguments!r}\n  stderr: {stderr[-500:]}")
        elif result.returncode not in (0, 64) and len(stderr.splitlines()) != 1:
            problems.append(f"exit {result.returncode} with {len(stderr.splitlines())} lines on stderr, not one: "
                            f"{arguments!r}\n  stderr: {stderr[-500:]}")
    print(f"seed {SEED}: {runs} runs, exit codes {dict(exit_codes)}")
    assert runs > 0
    assert not problems, f"{len(problems)} problems (seed {SEED}):\n" + "\n".join(f"- {problem}" for problem in problems)
