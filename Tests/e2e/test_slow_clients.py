"""Slow clients: a request body trickled a byte at a time is cut at `--body-timeout` with 408 (in the
client's language) and the connection closed, and a thousand such clients at once do not stop the shop
answering everyone else quickly, within its connection cap."""
from __future__ import annotations

import asyncio
import json
import re
import resource
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from e2e_support import server_binary

SLOW_CLIENTS = 1_000
BODY_TIMEOUT_S = 3
HEAD = ("POST /api/orders HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\nAccept-Language: {language}\r\n\r\n")


def in_own_loop(coroutine):
    """Runs `coroutine` to its end on an event loop of its own thread: the browser tests' Playwright keeps
    an event loop running on the main thread, where `asyncio.run` refuses to start another."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def trickle(port: int, language: str = "ko") -> tuple[float, bytes]:
    """Sends a head, then its body a byte a second; returns when the shop answered and closed, and what."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(HEAD.format(language=language).encode())
    started = time.monotonic()

    async def drip():
        try:
            while True:
                await writer.drain()
                await asyncio.sleep(1)
                writer.write(b" ")
        except (ConnectionError, OSError):
            pass

    async def read_all() -> bytes:
        answer = b""
        try:
            while chunk := await reader.read(4096):
                answer += chunk
        except ConnectionResetError:
            pass
        return answer

    dripping = asyncio.create_task(drip())
    try:
        answer = await asyncio.wait_for(read_all(), timeout=BODY_TIMEOUT_S + 20)
    finally:
        dripping.cancel()
        writer.close()
    return time.monotonic() - started, answer


def test_a_trickled_body_is_cut_with_408_in_the_clients_language(start_server):
    shop = start_server("--body-timeout", str(BODY_TIMEOUT_S))
    for language, words in [("ko", "너무 늦게"), ("en", "too long")]:
        elapsed, answer = in_own_loop(trickle(shop.port, language))
        assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
        assert b"connection: close" in answer.lower()
        body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
        assert body["error"] == "request_timeout" and words in body["message"], body
        assert BODY_TIMEOUT_S - 0.5 < elapsed < BODY_TIMEOUT_S + 3, elapsed
    # Nothing was ordered by the cut requests.
    assert requests.get(shop.url + "/api/orders", timeout=10).json() == []


def test_a_thousand_slow_bodies_do_not_stop_ordinary_requests(start_server):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8_192)), hard))
    cap = SLOW_CLIENTS + 50
    shop = start_server("--body-timeout", str(BODY_TIMEOUT_S), "--max-connections", str(cap))
    session = requests.Session()

    def open_connections() -> int:
        metrics = session.get(shop.url + "/metrics", timeout=10).text
        return int(float(re.search(r"^juicemaker_open_connections(?:\{[^}]*\})? (\S+)$", metrics, re.M).group(1)))

    async def scenario():
        slow = [asyncio.create_task(trickle(shop.port)) for _ in range(SLOW_CLIENTS)]
        await asyncio.sleep(1)  # every slow client has sent its head and is dripping

        def ordinary() -> tuple[list[float], int]:
            latencies, most_open = [], 0
            deadline = time.monotonic() + BODY_TIMEOUT_S - 1.5
            while time.monotonic() < deadline:
                started = time.monotonic()
                assert session.get(shop.url + "/api/stock", timeout=5).status_code == 200
                latencies.append(time.monotonic() - started)
                most_open = max(most_open, open_connections())
            return latencies, most_open

        latencies, most_open = await asyncio.to_thread(ordinary)
        results = await asyncio.gather(*slow)
        return latencies, most_open, results

    latencies, most_open, results = in_own_loop(scenario())
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1 if len(latencies) >= 100 else -1]
    assert len(latencies) >= 10 and p99 < 1.0, f"{len(latencies)} ordinary requests, p99 {p99:.3f} s"
    assert SLOW_CLIENTS <= most_open <= cap, most_open
    cut = [answer for _, answer in results if answer.startswith(b"HTTP/1.1 408 ")]
    assert len(cut) == SLOW_CLIENTS, f"{len(cut)} of {SLOW_CLIENTS} slow clients were answered 408"
    assert max(elapsed for elapsed, _ in results) < BODY_TIMEOUT_S + 10
    # Every slow connection is gone again.
    deadline = time.monotonic() + 10
    while open_connections() > 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert open_connections() <= 2


def test_a_body_timeout_out_of_range_is_refused():
    finished = subprocess.run([str(server_binary()), "serve", "--body-timeout", "0"], capture_output=True, text=True,
                              timeout=30)
    assert finished.returncode == 64 and "--body-timeout" in finished.stderr
