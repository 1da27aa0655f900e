"""Connections, as a hostile or careless crowd of clients uses them (issue 12).

- The server listens on a port the kernel picks (`--port 0`) and says which: in `--port-file` and its log.
- `--max-connections N`: connection N+1 is answered `503 too_many_connections` and closed, and once the
  others leave, the server answers again.
- `--idle-timeout S`: a connection that has not sent a whole request head within S seconds is closed, and
  so is a keep-alive connection idle that long; a live stream (an answer still being sent) is not idle.
- `--heartbeat S`: every live stream gets a `: heartbeat` comment that often, so the server finds clients
  that left within seconds: no socket left in CLOSE_WAIT, `juicemaker_live_streams` back to 0, the file
  descriptors closed, and memory given back (RSS does not grow batch after batch).
- At its open-file limit (RLIMIT_NOFILE 256, no --max-connections) the server refuses what it cannot
  take and stays up.

Clients here are plain sockets, so the test decides exactly what is sent, and when a socket is closed.
"""
from __future__ import annotations

import os
import resource
import selectors
import signal
import socket
import struct
import subprocess
import time

import pytest
import requests

from test_durability import read_strace, socket_writes, strace_command
from e2e_support import (LIVE_REQUEST, SHUTDOWN_TIMEOUT_S, ServerProblem, StopCutWarning, ensure_open_file_limit,
                         metric_value, open_fd_count, open_raw_live_stream, parse_http_answer, raw_exchange,
                         read_answer_head, rss_kib, server_binary, tcp_states_on_port, unsent_bytes, wait_for)

OPEN_CONNECTIONS = "juicemaker_open_connections"
LIVE_STREAMS = "juicemaker_live_streams"
SETTLE_S = 5  # how soon the server must notice that clients left: two 1 s heartbeats (the first write
#               after a client leaves can still succeed) with room for a loaded 2-core machine


def health_is_200(server) -> bool:
    try:
        return requests.get(server.url + "/health", timeout=1, headers={"Connection": "close"}).status_code == 200
    except requests.RequestException:
        return False


def metric(server, name: str) -> float:
    value = metric_value(server.url, name)
    assert value is not None, f"/metrics has no {name}"
    return value


def settled(server, name: str, at_most: float) -> bool:
    value = metric_value(server.url, name)
    return value is not None and value <= at_most


def close_politely(sock: socket.socket) -> None:
    """Reads what has arrived, then closes: the server gets a FIN, as from a browser tab that was closed."""
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass
    sock.close()


def close_abruptly(sock: socket.socket) -> None:
    """Closes with a reset (SO_LINGER 0), as from a client that crashed or a network that dropped."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


def close_all(socks) -> None:
    for index, sock in enumerate(socks):
        (close_politely if index % 2 == 0 else close_abruptly)(sock)


def wait_until_closed_by_server(socks: list[socket.socket], deadline: float) -> dict[socket.socket, float]:
    """Reads every socket until the server closes it (end of stream or reset) or `deadline` (monotonic)
    passes. Returns when each was closed; the ones missing were still open at the deadline."""
    closed: dict[socket.socket, float] = {}
    selector = selectors.DefaultSelector()
    for sock in socks:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    try:
        while len(closed) < len(socks) and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(timeout=min(remaining, 0.2)):
                sock = key.fileobj
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:  # reset
                    data = b""
                if not data:
                    closed[sock] = time.monotonic()
                    selector.unregister(sock)
    finally:
        selector.close()
    return closed


# --- the port ---------------------------------------------------------------------------------------

def test_the_server_listens_on_the_port_the_kernel_picked_and_says_which(server):
    assert server.port not in (None, 0, 8080)
    assert server.port_file.read_text() == f"{server.port}\n"
    assert f"listening on http://127.0.0.1:{server.port}" in server.log_path.read_text(errors="replace")
    assert health_is_200(server)


# --- one write an answer ---------------------------------------------------------------------------

def test_an_answer_of_known_length_goes_out_in_one_write_and_is_counted(start_server, tmp_path):
    """Four requests on one keep-alive connection, the server under strace: each answer (head and body)
    is one system call on the connection, not a write for the head and another for the body. The
    requests are still counted and timed under Hummingbird's metric names."""
    trace = tmp_path / "answers.strace"
    server = start_server(wrapper=strace_command(trace, calls="write,writev,sendmsg,sendto"))
    session = requests.Session()
    answers = [session.get(server.url + "/health"), session.get(server.url + "/api/stock"),
               session.post(server.url + "/api/orders", json={"juice": "bananaJuice"}),
               session.get(server.url + "/api/orders/nothing")]
    assert [answer.status_code for answer in answers][:2] == [200, 200]
    counted = metric_value(server.url, "hb_requests")
    timed = metric_value(server.url, "http_server_request_duration_count")
    session.close()
    server.stop()

    assert counted is not None and counted >= len(answers), f"hb_requests counted {counted}"
    assert timed is not None and timed >= len(answers), f"http_server_request_duration_count is {timed}"
    # The session's is the one connection with more than one answer (the others send Connection: close).
    connection = max(socket_writes(read_strace(trace)).values(), key=len)
    assert len(connection) == len(answers), f"{len(answers)} answers took these writes on their connection: {connection}"
    assert all(data.startswith("HTTP/1.1 ") for data in connection), connection


# --- the cap ----------------------------------------------------------------------------------------

def test_a_connection_beyond_the_cap_is_answered_503_and_closed(start_server):
    server = start_server("--max-connections", "50")
    wait_for(lambda: settled(server, OPEN_CONNECTIONS, 1), SETTLE_S)  # the start-up check's connection is gone
    streams = [open_raw_live_stream(server.port) for _ in range(50)]
    try:
        try:
            answer = raw_exchange(server.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout=5)
        except TimeoutError:
            pytest.fail("connection 51 was not answered and closed within 5 s")
        assert answer.status == 503, f"connection 51 got {answer.raw[:300]!r}"
        assert answer.json().get("error") == "too_many_connections", answer.body[:300]
    finally:
        close_all(streams)
    assert wait_for(lambda: health_is_200(server), 5), "GET /health did not answer 200 within 5 s of the 50 leaving"
    assert wait_for(lambda: settled(server, OPEN_CONNECTIONS, 1), SETTLE_S), (
        f"{OPEN_CONNECTIONS} is {metric(server, OPEN_CONNECTIONS)} after the 50 left (1: the one asking)")


# --- timeouts ---------------------------------------------------------------------------------------

def test_connections_that_never_finish_their_headers_are_closed_after_the_idle_timeout(start_server):
    server = start_server("--idle-timeout", "2")
    ensure_open_file_limit(1024)
    slow = []
    try:
        for _ in range(100):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # and never the blank line that ends the head
            slow.append(sock)
        sent = time.monotonic()
        closed = wait_until_closed_by_server(slow, deadline=sent + 4.5)
        assert len(closed) == len(slow), f"{len(slow) - len(closed)} of 100 were still open 4.5 s after their headers began"
        earliest = min(closed.values()) - sent
        assert earliest >= 1.0, f"one was closed {earliest:.1f} s after it began, well before the 2 s timeout"
    finally:
        for sock in slow:
            sock.close()
    assert server.alive() and health_is_200(server)


def test_an_idle_keep_alive_connection_is_closed_after_the_idle_timeout(start_server):
    server = start_server("--idle-timeout", "2")
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = read_answer_head(sock)
        answer = parse_http_answer(received)
        assert answer.status == 200, received[:300]
        answered = time.monotonic()
        closed = wait_until_closed_by_server([sock], deadline=answered + 4.5)
        assert closed, "the idle keep-alive connection was still open 4.5 s after its last answer"
        assert closed[sock] - answered >= 1.0, "it was closed well before the 2 s idle timeout"


def test_a_live_stream_outlasts_the_idle_timeout_and_gets_heartbeats(start_server):
    """A live stream is an answer still being sent, not an idle connection: with a 2 s idle timeout and a
    1 s heartbeat it stays open for 5 s and gets a `: heartbeat` comment about every second."""
    server = start_server("--idle-timeout", "2", "--heartbeat", "1")
    sock = open_raw_live_stream(server.port)
    try:
        received, ended = b"", False
        deadline = time.monotonic() + 5
        while (remaining := deadline - time.monotonic()) > 0:
            sock.settimeout(remaining)
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                ended = True
                break
            received += chunk
        assert not ended, f"the live stream was closed; it had sent {received[-300:]!r}"
        beats = received.count(b": heartbeat")
        assert beats >= 3, f"{beats} heartbeats in 5 s with --heartbeat 1; received {received[-300:]!r}"
    finally:
        close_abruptly(sock)


# --- clients that leave -----------------------------------------------------------------------------

def test_live_stream_clients_that_left_are_let_go_within_seconds(start_server):
    """200 live streams whose clients leave at once (half with a FIN, half with a reset), without the
    server having anything to publish: within 3 s no socket of the server's is in CLOSE_WAIT,
    `juicemaker_live_streams` is 0 and its file descriptors are back where they were."""
    server = start_server("--heartbeat", "1")
    ensure_open_file_limit(1024)
    wait_for(lambda: settled(server, OPEN_CONNECTIONS, 1), SETTLE_S)
    baseline_fds = open_fd_count(server.pid)
    streams = []
    try:
        for _ in range(200):
            streams.append(open_raw_live_stream(server.port))
        assert wait_for(lambda: metric_value(server.url, LIVE_STREAMS) == 200, SETTLE_S), (
            f"{LIVE_STREAMS} is {metric(server, LIVE_STREAMS)} with 200 streams open")
    finally:
        # The server's side of these (not of the test's /metrics requests, which it may not have closed yet).
        clients = {sock.getsockname()[1] for sock in streams}
        close_all(streams)
    left = time.monotonic()

    def all_let_go() -> bool:
        return (tcp_states_on_port(server.pid, server.port, clients)["CLOSE_WAIT"] == 0
                and settled(server, LIVE_STREAMS, 0) and open_fd_count(server.pid) <= baseline_fds + 5)

    wait_for(all_let_go, SETTLE_S)
    took = time.monotonic() - left
    print(f"all let go {took:.1f} s after the clients left")
    states = tcp_states_on_port(server.pid, server.port, clients)
    assert states["CLOSE_WAIT"] == 0, f"{states['CLOSE_WAIT']} sockets in CLOSE_WAIT {took:.1f} s after the clients left"
    assert metric(server, LIVE_STREAMS) == 0, f"{LIVE_STREAMS} is not 0 {took:.1f} s after the clients left"
    fds = open_fd_count(server.pid)
    assert fds <= baseline_fds + 5, f"{fds} open file descriptors, {baseline_fds} before the streams"
    assert server.alive() and health_is_200(server)


def test_memory_is_given_back_when_live_stream_clients_leave(start_server):
    """2,000 live streams, opened and left in ten batches of 200: the server's resident memory after the
    last batch is not much above what it was after the first (at most 1.5 times plus 30 MB: allocators
    keep some, but a leak of a stream's buffers would grow batch after batch)."""
    server = start_server("--heartbeat", "1")
    ensure_open_file_limit(1024)
    rss_after, settle_times = [], []
    for batch in range(10):
        streams = []
        try:
            for _ in range(200):
                streams.append(open_raw_live_stream(server.port))
        finally:
            close_all(streams)
        left = time.monotonic()
        # Generous: how soon they are noticed is the test above; this one is about memory.
        assert wait_for(lambda: settled(server, LIVE_STREAMS, 0), 10), (
            f"batch {batch + 1}: {LIVE_STREAMS} is {metric(server, LIVE_STREAMS)} 10 s after the clients left")
        settle_times.append(round(time.monotonic() - left, 1))
        rss_after.append(rss_kib(server.pid))
    print("RSS after each batch (KiB):", rss_after, "; seconds until all were let go:", settle_times)
    limit = rss_after[0] * 1.5 + 30 * 1024
    assert rss_after[-1] <= limit, (
        f"RSS grew from {rss_after[0]} KiB after the first batch to {rss_after[-1]} KiB after the last "
        f"(limit {limit:.0f}): {rss_after}")
    assert health_is_200(server)


def test_an_idle_live_stream_holds_little_memory(start_server):
    """2,000 open live streams cost the server under 40 KiB of resident memory each. Each cost about 75 KiB
    (debug build; 60 in release) when it kept the memory of the whole request's call depth on its
    connection's task, its own copy of the opening state and a task of its own watching for shutdown;
    about 21 KiB since (debug and release alike). `scripts/bench-live` measures 10,000."""
    server = start_server("--heartbeat", "1")
    ensure_open_file_limit(4096)
    # A first few streams, so the allocators' one-off growth is not counted against the 2,000.
    warm = [open_raw_live_stream(server.port) for _ in range(50)]
    close_all(warm)
    assert wait_for(lambda: settled(server, LIVE_STREAMS, 0), SETTLE_S)
    before = rss_kib(server.pid)
    streams = []
    try:
        for _ in range(2000):
            streams.append(open_raw_live_stream(server.port))
        assert wait_for(lambda: metric_value(server.url, LIVE_STREAMS) == 2000, SETTLE_S), (
            f"{LIVE_STREAMS} is {metric(server, LIVE_STREAMS)} with 2,000 streams open")
        time.sleep(1.5)  # a heartbeat written to every stream
        per_stream = (rss_kib(server.pid) - before) / 2000
    finally:
        close_all(streams)
    print(f"{per_stream:.1f} KiB of resident memory per open live stream")
    assert per_stream < 40, f"each open live stream holds {per_stream:.1f} KiB of the server's memory"


def test_open_live_streams_end_cleanly_when_the_server_stops(start_server):
    """SIGTERM with 20 live streams open: the server ends each stream properly (the last chunk of its
    chunked answer, then the connection closed) and exits within 5 s; it does not wait for the clients."""
    server = start_server("--heartbeat", "1")
    streams = [open_raw_live_stream(server.port) for _ in range(20)]
    try:
        server.stop()
        assert server.exit_seconds < 5, f"the server took {server.exit_seconds:.1f} s to exit"
        for sock in streams:
            received = b""
            sock.settimeout(2)
            while chunk := sock.recv(65536):
                received += chunk
            assert received.endswith(b"\r\n0\r\n\r\n"), f"the stream did not end with its last chunk: {received[-200:]!r}"
    finally:
        for sock in streams:
            sock.close()
    # The log says each step of the stop as it ends, so a stop that hangs shows what it waits for. (Lines
    # of different threads may come out in either order: `LogLines`.)
    logged = server.log_path.read_text(errors="replace")
    steps = ["stopping: no new connections", "closed every connection", "stopped the live streams' heartbeats",
             "stopped following other processes' writes", "done with the database", "[App] stopped\n"]
    assert all(step in logged for step in steps), f"the stop's steps are not all in the log:\n{logged[-1500:]}"


STOP_CUT = "the stop has waited 2.0 seconds for what is still open; cutting it"  # with --stop-timeout 2


def test_a_stop_cuts_a_live_client_that_stopped_reading(start_server):
    """A live stream whose client stopped reading: its answer waits on a full socket, so the stream's end
    could never be written, and the stop waited for it for ever. With `--stop-timeout 2` it is cut 2 s
    after SIGTERM, the log says so, and the server exits 0."""
    server = start_server("--stop-timeout", "2")
    assert server.cli("stock", "add", "banana", "5000").returncode == 0
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # before connecting: a small window
    stalled.connect(("127.0.0.1", server.port))
    try:
        stalled.sendall(LIVE_REQUEST)
        peer = stalled.getsockname()[1]
        orders = requests.Session()
        # Each pickup order sends every stream the whole queue, so the events grow until the socket is full:
        # its unsent bytes stop growing, and the stream's next events wait in the server for room.
        unsent, steady = 0, 0
        for _ in range(3000):
            answer = orders.post(server.url + "/api/orders", json={"juice": "bananaJuice", "pickup": True}, timeout=10)
            assert answer.status_code == 201, answer.text
            now = unsent_bytes(server.pid, server.port, peer)
            steady, unsent = (steady + 1 if now == unsent else 0), now
            if unsent > 256 * 1024 and steady == 20:
                break
        assert steady == 20, f"the stalled stream's socket never filled ({unsent} bytes unsent)"
        with pytest.warns(StopCutWarning):
            server.stop()
        assert 2 <= server.exit_seconds < 6, f"the server exited {server.exit_seconds:.1f} s after SIGTERM"
    finally:
        stalled.close()
    logged = server.log_path.read_text(errors="replace")
    assert STOP_CUT in logged and "[App] stopped\n" in logged, logged[-1500:]


def test_a_stop_cuts_a_request_whose_body_is_still_coming(start_server):
    """A request whose body has not all arrived is in progress, so a graceful stop waits for it; past
    `--stop-timeout` (here 2 s, well before `--body-timeout`) it is cut without an answer."""
    server = start_server("--stop-timeout", "2")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as slow:
        slow.sendall(b"POST /api/orders HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 40\r\n\r\n{")
        time.sleep(0.3)  # its head read, its body begun
        with pytest.warns(StopCutWarning):
            server.stop()
        assert 2 <= server.exit_seconds < 6, f"the server exited {server.exit_seconds:.1f} s after SIGTERM"
        assert slow.recv(4096) == b"", "a cut request got an answer"
    assert STOP_CUT in server.log_path.read_text(errors="replace")


@pytest.mark.parametrize("seconds", ["0", "3601", "soon"])
def test_a_stop_timeout_out_of_range_is_refused(seconds, tmp_path):
    finished = subprocess.run([str(server_binary()), "serve", "--stop-timeout", seconds, "--database",
                               str(tmp_path / "shop.sqlite")], capture_output=True, text=True, timeout=30)
    assert finished.returncode == 64 and "--stop-timeout" in finished.stderr, finished
    assert not (tmp_path / "shop.sqlite").exists(), "a refused start made a shop"


def test_a_server_that_does_not_stop_is_killed_and_the_report_shows_its_threads(start_server):
    """A server that has not exited 15 s after SIGTERM (here it cannot: it is stopped, SIGSTOP) fails its
    test and is killed, and the failure shows where each of its threads was (gdb's stacks), so that a hang
    met once on CI can be read afterwards."""
    server = start_server()
    os.kill(server.pid, signal.SIGSTOP)
    with pytest.raises(ServerProblem) as stopping:
        server.stop()
    report = str(stopping.value)
    assert f"did not exit within {SHUTDOWN_TIMEOUT_S} s of SIGTERM" in report
    assert not server.alive()
    # Each thread's header and its innermost frame (#0) next: where it was. Not which call: a stopped event
    # loop is mostly in epoll_wait, but SIGSTOP may also catch it running (a timer, the start's last work).
    lines = report.splitlines()
    threads = [(line, following) for line, following in zip(lines, lines[1:] + [""]) if line.startswith("Thread ")]
    assert any('"NIO-' in line for line, _ in threads), f"no event loop's thread in the report:\n{report[-3000:]}"
    unplaced = [line for line, following in threads if not following.startswith("#0 ")]
    assert not unplaced, f"threads without their innermost frame: {unplaced}\n{report[-3000:]}"


# --- the open-file limit ----------------------------------------------------------------------------

def limit_open_files_to_256() -> None:
    """Runs in the server's process before it starts: soft and hard RLIMIT_NOFILE 256."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def test_the_server_survives_more_clients_than_it_has_file_descriptors(start_server):
    """600 live-stream connections as fast as they can be made against a server limited to 256 open files
    (and no --max-connections): whatever it cannot take it refuses, and once they are gone it answers."""
    server = start_server(preexec_fn=limit_open_files_to_256)
    ensure_open_file_limit(2048)
    socks = []
    try:
        for _ in range(600):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                sock.connect(("127.0.0.1", server.port))
            except BlockingIOError:
                pass  # connecting; the request is sent once it is connected
            except OSError:
                sock.close()
                continue
            socks.append(sock)
        selector = selectors.DefaultSelector()
        for sock in socks:
            selector.register(sock, selectors.EVENT_WRITE)
        deadline = time.monotonic() + 3
        waiting = len(socks)
        while waiting and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(timeout=min(remaining, 0.2)):
                sock = key.fileobj
                selector.unregister(sock)
                waiting -= 1
                if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                    try:
                        sock.send(LIVE_REQUEST)
                    except OSError:
                        pass
        selector.close()
        time.sleep(1)  # the server at its limit for a moment
        assert server.alive(), f"the server died at its open-file limit (status {server.process.returncode})"
    finally:
        for sock in socks:
            sock.close()
    assert wait_for(lambda: health_is_200(server), 5), "GET /health did not answer 200 within 5 s of the clients leaving"
    assert server.alive()
