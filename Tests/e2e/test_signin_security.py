"""Sign-in under attack (issue 12).

- The lock-out counts a guess before it checks it. 100 guesses at one username sent at the same moment
  get at most 5 checked (answered 401, or 200 for the right password); the rest are 429 without a check.
  So the right password, hidden among them, gets in only if it was among the five checked.
- Password hashing runs on a bounded pool with a queue that takes client addresses in turn. While 120
  bogus sign-ins for unknown usernames pour in from one address (each costs a full bcrypt check, as a
  known username would), a real member signing in from another address is answered 200 within 10 s; the
  bogus ones are answered 401, or 503 `busy` when the queue is full, never another 5xx.

bcrypt's cost is 12 (a good fraction of a second per check here), so the counts are as small as still
proves the point. Every client is a plain socket that connects first and sends when a barrier opens, so
the requests really arrive together. The second address is 127.0.0.2, which is loopback too.
"""
from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from e2e_support import MEMBER_PASSWORD, RawAnswer, ShopApi, parse_http_answer

GUESSES = 100
MOST_CHECKED = 5  # the lock-out's allowance per username and window
BOGUS = 120
REAL_SIGN_IN_S = 10
ANSWER_TIMEOUT_S = 120  # for a bogus sign-in at the back of the queue on a slow machine


def sign_in_request(username: str, password: str) -> bytes:
    body = json.dumps({"username": username, "password": password}).encode()
    return (b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def connected(port: int, source: str = "127.0.0.1") -> socket.socket:
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=ANSWER_TIMEOUT_S, source_address=(source, 0))
    except OSError as error:
        pytest.fail(f"could not connect from {source}: {error}", pytrace=False)


def send_and_read(sock: socket.socket, request: bytes) -> RawAnswer:
    """Sends the request and reads the answer until the server closes the connection."""
    with sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return parse_http_answer(received)


def error_of(answer: RawAnswer) -> str | None:
    try:
        return answer.json().get("error")
    except ValueError:
        return None


def make_member(server, username: str) -> None:
    response = ShopApi(server.url).sign_up(username)
    assert response.status_code == 201, f"signing up {username} answered {response.status_code}: {response.text}"


def test_a_hundred_simultaneous_guesses_get_at_most_five_checked(server):
    make_member(server, "guessed")
    passwords = [f"wrong-guess-{number:03}" for number in range(GUESSES - 1)]
    right_at = random.Random(12).randrange(GUESSES)
    passwords.insert(right_at, MEMBER_PASSWORD)
    sockets = [connected(server.port) for _ in passwords]
    barrier = threading.Barrier(GUESSES)

    def guess(index: int) -> RawAnswer:
        request = sign_in_request("guessed", passwords[index])
        barrier.wait(timeout=30)
        return send_and_read(sockets[index], request)

    with ThreadPoolExecutor(max_workers=GUESSES) as pool:
        answers = list(pool.map(guess, range(GUESSES)))

    statuses = Counter(answer.status for answer in answers)
    assert set(statuses) <= {200, 401, 429}, f"answers other than 200, 401 and 429: {statuses}"
    wrong_signed_in = [index for index, answer in enumerate(answers) if answer.status == 200 and index != right_at]
    assert not wrong_signed_in, f"wrong passwords signed in: {[passwords[index] for index in wrong_signed_in]}"
    assert answers[right_at].status in (200, 429), (
        f"the right password was answered {answers[right_at].status}: {answers[right_at].body[:300]!r}")
    checked = statuses[401] + statuses[200]
    assert 1 <= checked <= MOST_CHECKED, (
        f"{checked} of {GUESSES} simultaneous guesses were checked ({statuses}); at most {MOST_CHECKED} may be")
    refused = [answer for answer in answers if answer.status == 429]
    assert all(error_of(answer) == "too_many_attempts" for answer in refused), refused[0].body[:300]


def test_a_real_sign_in_is_answered_promptly_while_bogus_ones_pour_in(server):
    make_member(server, "real_member")
    bogus_sockets = [connected(server.port) for _ in range(BOGUS)]
    barrier = threading.Barrier(BOGUS + 1)

    def bogus(index: int) -> RawAnswer:
        request = sign_in_request(f"nobody_{index:03}", "not-a-password")
        barrier.wait(timeout=30)
        return send_and_read(bogus_sockets[index], request)

    with ThreadPoolExecutor(max_workers=BOGUS) as pool:
        pending = [pool.submit(bogus, index) for index in range(BOGUS)]
        real_socket = connected(server.port, source="127.0.0.2")
        barrier.wait(timeout=30)
        time.sleep(0.2)  # the bogus ones are in the queue first
        started = time.monotonic()
        real = send_and_read(real_socket, sign_in_request("real_member", MEMBER_PASSWORD))
        took = time.monotonic() - started
        answers = [future.result(timeout=ANSWER_TIMEOUT_S) for future in pending]

    assert real.status == 200, f"the real member's sign-in was answered {real.status}: {real.body[:300]!r}"
    assert took <= REAL_SIGN_IN_S, f"the real member's sign-in took {took:.1f} s behind {BOGUS} bogus ones"
    statuses = Counter(answer.status for answer in answers)
    assert set(statuses) <= {401, 503}, f"bogus sign-ins were answered {statuses}"
    busy = [answer for answer in answers if answer.status == 503]
    assert all(error_of(answer) == "busy" for answer in busy), busy[0].body[:300] if busy else ""
    print(f"real sign-in in {took:.2f} s; bogus ones: {dict(statuses)}")
