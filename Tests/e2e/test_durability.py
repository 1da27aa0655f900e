"""An acknowledged write is on disk before it is acknowledged, proven at the system-call level.

SQLite's writer runs with `synchronous=FULL`, so every commit ends with an fsync/fdatasync of the
write-ahead log before the caller hears "done". A kill -9 cannot tell FULL from NORMAL (the kernel keeps
the page cache, so the data survives the process); a power cut can. So these tests run the server and
the CLI under strace (from Debian; scripts/install-test-tools installs it) and look at the order of
their system calls:

- the server: 30 sequential orders, each answered 201. Before each `HTTP/1.1 201` is written to the
  socket, a sync of its own began after the previous answer and returned, and the last write to the
  database's files (SQLite writes them with pwrite64) was followed by a sync that returned;
- the server: 20 sequential pickup orders, each with an `Idempotency-Key`, cost about one sync each:
  the key and its kept answer are written in the order's own commit, not in commits of their own;
- the CLI: five `juicemaker order` processes; each one's last write to the database's files before it
  printed its receipt was followed by a sync that returned before the receipt was written.

strace writes the calls of all threads into one file in the order it saw them, and a traced thread is
stopped at each call until strace has written it down; so "this line comes before that one" in the file
is a real "happened before" for the calls, whatever thread made them.
"""
from __future__ import annotations

import os
import pty
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from e2e_support import ShopApi, server_binary

ORDERS = 30
KEYED_ORDERS = 20
# One commit per keyed order, and a little room for the write-ahead log's checkpoints.
KEYED_SYNCS_AT_MOST = 26
GROUPED_ORDERS = 400
CLI_ORDERS = 5
SYNCS = {"fsync", "fdatasync"}
WRITES = {"write", "writev", "sendmsg", "sendto"}  # answers to a socket, receipts to standard output
FILE_WRITES = {"pwrite64", "pwritev", "pwritev2"}  # how SQLite writes its files: at an offset
TRACED_CALLS = ",".join(sorted(SYNCS | WRITES | FILE_WRITES))


def strace_command(trace: Path, calls: str = TRACED_CALLS) -> tuple[str, ...]:
    """strace following every thread and child, with wall-clock times and the path of each file descriptor
    (-y), into `trace`."""
    if shutil.which("strace") is None:
        pytest.fail("strace is not installed (scripts/install-test-tools installs it)", pytrace=False)
    return ("strace", "-f", "-tt", "-y", "-e", f"trace={calls}", "-s", "64", "-o", str(trace), "--")


# --- reading strace's output -------------------------------------------------------------------

@dataclass(frozen=True)
class Syscall:
    """One system call from a trace."""

    began: int  # its position in the trace: the index of the line where the call began
    ended: int  # the index of the line where it returned (`began` unless another thread cut in)
    pid: int | None
    name: str
    args: str  # what follows "name(" on the line where it began


_PREFIX = re.compile(r"^(?:\[pid\s+(?P<bracketed>\d+)\]\s+|(?P<plain>\d+)\s+)?"  # thread: -f with or without -o
                     r"(?:\d+(?::\d+:\d+)?(?:\.\d+)?\s+)?")  # time: -t, -tt or -ttt
_RESUMED = re.compile(r"^<\.\.\.\s+(?P<name>\w+)\s+resumed>")
_CALL = re.compile(r"^(?P<name>\w+)\((?P<args>.*)$")


def read_strace(path: Path) -> list[Syscall]:
    """The system calls in an `strace -f` output file, in the order they began.

    Tolerates what strace's options put before a call: the thread's id (`1234 ` with -o, `[pid 1234] `
    on a terminal) and the time (-t, -tt, -ttt). A call that another thread's call interrupted is split
    over two lines, `name(args <unfinished ...>` and later `<... name resumed>) = result`: it is one
    call that began on the first line and ended on the second. Signals, exits and other lines are
    skipped.
    """
    calls: list[Syscall] = []
    unfinished: dict[tuple[int | None, str], tuple[int, str]] = {}
    for index, line in enumerate(path.read_text(errors="replace").splitlines()):
        prefix = _PREFIX.match(line)
        pid_text = prefix.group("bracketed") or prefix.group("plain")
        pid = int(pid_text) if pid_text else None
        rest = line[prefix.end():]
        if resumed := _RESUMED.match(rest):
            name = resumed.group("name")
            key = (pid, name)
            if key not in unfinished:
                # strace drops the thread prefix once only one thread is left: match on the name alone.
                key = next((other for other in unfinished
                            if other[1] == name and None in (pid, other[0])), key)
            began = unfinished.pop(key, None)
            if began is not None:
                calls.append(Syscall(began[0], index, key[0], name, began[1]))
            continue
        call = _CALL.match(rest)
        if not call:
            continue
        if rest.rstrip().endswith("<unfinished ...>"):
            unfinished[(pid, call.group("name"))] = (index, call.group("args"))
        else:
            calls.append(Syscall(index, index, pid, call.group("name"), call.group("args")))
    # A call still unfinished when the trace ends never returned: it did not happen before anything.
    return sorted(calls, key=lambda call: call.began)


# The start of a write-like call: `fd, "…`, `fd, [{iov_base="…` or `fd, {msg_name=…, msg_iov=[{iov_base="…`,
# where with -y the fd is followed by `<what it is>` (a path, `socket:[…]`, `/dev/pts/…`).
_FIRST_BYTES = re.compile(r'^(?P<fd>\d+)(?:<(?P<path>[^>]*)>)?,\s+'
                          r'(?:\[\{iov_base=|\{[^"]*?msg_iov=\[\{iov_base=)?"(?P<data>[^"]*)')
_DESCRIPTOR = re.compile(r"^(?P<fd>\d+)(?:<(?P<path>[^>]*)>)?")


def written(call: Syscall) -> tuple[int, str] | None:
    """(file descriptor, start of the data as strace shows it) for a write-like call, else None."""
    if call.name not in WRITES:
        return None
    match = _FIRST_BYTES.match(call.args)
    return (int(match.group("fd")), match.group("data")) if match else None


def socket_writes(calls: list[Syscall]) -> dict[str, list[str]]:
    """The start of each write to a socket, by the socket's inode (`-y`), not its number, which a closed
    connection's successor reuses."""
    writes: dict[str, list[str]] = {}
    for call in calls:
        match = _FIRST_BYTES.match(call.args) if call.name in WRITES else None
        if match and (match.group("path") or "").startswith("socket:"):
            writes.setdefault(match.group("path"), []).append(match.group("data"))
    return writes


def database_writes(calls: list[Syscall]) -> list[Syscall]:
    """Writes at an offset into a file, except SQLite's shared-memory index (`-shm`), which is not data:
    SQLite grows it with one-byte writes, some after a commit's sync."""
    writes = []
    for call in calls:
        if call.name in FILE_WRITES:
            match = _DESCRIPTOR.match(call.args)
            if not (match and (match.group("path") or "").endswith("-shm")):
                writes.append(call)
    return writes


def http_answers(calls: list[Syscall]) -> list[tuple[Syscall, int]]:
    """The HTTP answers written (each call whose data begins with a status line), with their status."""
    answers = []
    for call in calls:
        data = written(call)
        if data and (status := re.match(r"HTTP/1\.1 (\d{3})", data[1])):
            answers.append((call, int(status.group(1))))
    return answers


def syncs(calls: list[Syscall]) -> list[Syscall]:
    return [call for call in calls if call.name in SYNCS]


def answers_without_a_sync_of_their_own(calls: list[Syscall], status: int) -> list[Syscall]:
    """The answers with `status` that no sync was made for: none began after the answer written before it
    (of any status) and ended before it began."""
    answers = http_answers(calls)
    all_syncs = syncs(calls)
    missing = []
    for position, (answer, answer_status) in enumerate(answers):
        if answer_status != status:
            continue
        previous = answers[position - 1][0].began if position > 0 else -1
        if not any(previous < sync.began and sync.ended < answer.began for sync in all_syncs):
            missing.append(answer)
    return missing


def unsynced_write_before(calls: list[Syscall], moment: Syscall) -> Syscall | None:
    """The last database write that ended before `moment` began, if no sync began after it and ended
    before `moment`: what `moment` (an answer) would tell about that is not yet on disk. None when it was
    synced, or when nothing was written."""
    earlier = [write for write in database_writes(calls) if write.ended < moment.began]
    if not earlier:
        return None
    last = max(earlier, key=lambda write: write.ended)
    synced = any(last.ended < sync.began and sync.ended < moment.began for sync in syncs(calls))
    return None if synced else last


# --- the server ----------------------------------------------------------------------------------

def test_every_order_answered_201_is_synced_to_disk_before_its_answer(start_server, tmp_path):
    """30 sequential orders on one connection, all 201: before each answer's first byte is written, a sync
    began after the previous answer and returned (so there are at least as many syncs as orders), and
    the last database write before the answer was synced."""
    trace = tmp_path / "server.strace"
    server = start_server(wrapper=strace_command(trace))
    staff = ShopApi.signed_in_as_admin(server.url)
    stocked = staff.put("/api/stock/banana", json={"count": 1000})
    assert stocked.status_code == 200, stocked.text
    customer = ShopApi(server.url)  # one keep-alive connection, one request at a time
    for number in range(1, ORDERS + 1):
        response = customer.post("/api/orders", json={"juice": "bananaJuice"})
        assert response.status_code == 201, f"order {number} answered {response.status_code}: {response.text}"
    server.stop()  # strace has written everything once the server has exited

    calls = read_strace(trace)
    answered = [call for call, status in http_answers(calls) if status == 201]
    assert len(answered) == ORDERS, (
        f"found {len(answered)} `HTTP/1.1 201` answers written in the trace, not {ORDERS}: the server writes "
        f"its answers with a call this test does not trace or read ({trace})")
    synced = syncs(calls)
    assert len(synced) >= ORDERS, f"{len(synced)} fsync/fdatasync calls for {ORDERS} acknowledged orders"
    unsynced = answers_without_a_sync_of_their_own(calls, 201)
    assert not unsynced, (
        f"{len(unsynced)} of {ORDERS} orders were answered 201 with no fsync/fdatasync since the answer "
        f"before, e.g. trace line {unsynced[0].began + 1}: {unsynced[0].name}({unsynced[0].args[:80]}")
    assert database_writes(calls), f"no database write (pwrite64) in the trace ({trace})"
    for answer in answered:
        write = unsynced_write_before(calls, answer)
        assert write is None, (
            f"the answer on trace line {answer.began + 1} was written after a database write (line "
            f"{write.began + 1}: {write.name}({write.args[:60]}) with no sync between them ({trace})")


def test_a_keyed_order_costs_one_sync_with_its_key_and_answer(start_server, tmp_path):
    """20 sequential pickup orders, each with its own Idempotency-Key: every one answered 201 after a sync
    of its own, and all of them together cost at most 26 syncs (the key, the order and the kept answer are
    one commit; as three commits they cost about 60). A repeat of each key is then a replay, syncing nothing."""
    trace = tmp_path / "keyed.strace"
    server = start_server(wrapper=strace_command(trace))
    staff = ShopApi.signed_in_as_admin(server.url)
    stocked = staff.put("/api/stock/banana", json={"count": 1000})
    assert stocked.status_code == 200, stocked.text
    customer = ShopApi(server.url)
    first_answers = []
    for number in range(1, KEYED_ORDERS + 1):
        response = customer.post("/api/orders", json={"juice": "bananaJuice", "pickup": True},
                                 headers={"Idempotency-Key": f"keyed-sync-{number}"})
        assert response.status_code == 201, f"order {number} answered {response.status_code}: {response.text}"
        first_answers.append(response.text)
    replays = [customer.post("/api/orders", json={"juice": "bananaJuice", "pickup": True},
                             headers={"Idempotency-Key": f"keyed-sync-{number}"})
               for number in range(1, KEYED_ORDERS + 1)]
    server.stop()

    assert [(replay.status_code, replay.text) for replay in replays] == [(201, text) for text in first_answers]
    assert all(replay.headers.get("Idempotent-Replayed") == "true" for replay in replays)
    calls = read_strace(trace)
    answers = http_answers(calls)
    # The keyed orders' answers are the first 201s; the one before them answered the stock edit.
    first = next(position for position, (_, status) in enumerate(answers) if status == 201)
    keyed = answers[first:first + KEYED_ORDERS]
    assert [status for _, status in keyed] == [201] * KEYED_ORDERS, f"the keyed orders' answers in the trace: {keyed}"
    window = [sync for sync in syncs(calls) if answers[first - 1][0].began < sync.began and sync.ended < keyed[-1][0].began]
    assert len(window) <= KEYED_SYNCS_AT_MOST, (
        f"{KEYED_ORDERS} keyed orders cost {len(window)} fsync/fdatasync calls, more than {KEYED_SYNCS_AT_MOST} ({trace})")
    unsynced = [answer for answer in answers_without_a_sync_of_their_own(calls, 201) if answer in [a for a, _ in keyed]]
    assert not unsynced, f"{len(unsynced)} keyed orders were answered 201 with no sync since the answer before ({trace})"
    replayed = answers[first + KEYED_ORDERS:]
    assert len(replayed) == KEYED_ORDERS
    assert not [sync for sync in syncs(calls) if keyed[-1][0].began < sync.began and sync.ended < replayed[-1][0].began], (
        "a replay synced: it wrote something")
    print(f"{KEYED_ORDERS} keyed orders: {len(window)} syncs")


def test_a_group_of_writes_touches_no_file_but_the_database_and_its_log(start_server, tmp_path):
    """Keyed pickup orders from 32 clients at once, so that groups of many commit together: each write of a
    group is a savepoint, and SQLite keeps the undo copy of the pages a savepoint changes in a temporary
    file once it passes 64 KiB, a write to it for every two to the log (`PRAGMA temp_store = MEMORY` keeps
    it in memory). Every file write the server makes is to the database, its log or its shared index.
    And the memory a group frees is kept for the next (`FreedMemory`): glibc's default gave a thread heap's
    free top back to the kernel with madvise past 128 KiB, and the next group faulted it in again."""
    trace = tmp_path / "group.strace"
    server = start_server(wrapper=strace_command(trace, calls=f"{TRACED_CALLS},madvise"))
    staff = ShopApi.signed_in_as_admin(server.url)
    assert staff.put("/api/stock/banana", json={"count": 10000}).status_code == 200

    def order(number: int) -> int:
        return ShopApi(server.url).post("/api/orders", json={"juice": "bananaJuice", "pickup": True},
                                        headers={"Idempotency-Key": f"group-{number}"}).status_code

    with ThreadPoolExecutor(max_workers=32) as clients:
        statuses = list(clients.map(order, range(GROUPED_ORDERS)))
    server.stop()

    assert statuses == [201] * GROUPED_ORDERS
    calls = read_strace(trace)
    # From the stock edit's answer on: a new shop's schema is written before the log is turned on.
    since = http_answers(calls)[0][0].began
    files = {(_DESCRIPTOR.match(call.args).group("path") or "?")
             for call in calls if call.name in FILE_WRITES and call.began > since}
    database = Path(server.database)
    shop_files = {str(database), f"{database}-wal", f"{database}-shm"}
    assert files - shop_files == set(), f"file writes besides the database's own files: {files - shop_files} ({trace})"
    assert f"{database}-wal" in files, f"no write to the log in the trace ({trace})"
    given_back = [call for call in calls if call.name == "madvise" and call.began > since]
    assert len(given_back) < GROUPED_ORDERS // 20, f"{len(given_back)} madvise calls for {GROUPED_ORDERS} orders ({trace})"


# --- the CLI ---------------------------------------------------------------------------------------

def run_with_terminal_stdout(command: list[str], cwd: Path, timeout: float = 60) -> tuple[int, str, str]:
    """Runs `command` with standard output on a pseudo-terminal, so that it is line-buffered: what the
    program prints is written at once, not when it exits. Returns (status, stdout, stderr)."""
    controller, terminal = pty.openpty()
    try:
        process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=terminal,
                                   stderr=subprocess.PIPE)
        os.close(terminal)
        terminal = -1
        try:
            _, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            pytest.fail(f"{' '.join(command)} was still running after {timeout} s")
        output = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the terminal's other side is closed and everything was read
                break
            if not chunk:
                break
            output += chunk
    finally:
        os.close(controller)
        if terminal >= 0:
            os.close(terminal)
    return process.returncode, output.decode(errors="replace"), stderr.decode(errors="replace")


def test_every_cli_order_is_synced_to_disk_before_it_prints_its_receipt(tmp_path):
    """Five `juicemaker order` processes, each under strace: the last write to the database before the
    receipt was written to standard output (fd 1) was followed by an fsync/fdatasync that returned.

    Standard output is a terminal here, so the receipt is written the moment it is printed, right after
    the commit; into a pipe it would be written at exit, after closing the database, whose checkpoint
    syncs too and could hide an unsynced commit."""
    database = str(tmp_path / "shop.sqlite")
    stocked = subprocess.run([str(server_binary()), "stock", "set", "banana", "1000", "--database", database], cwd=tmp_path,
                             capture_output=True, text=True, timeout=30)
    assert stocked.returncode == 0, f"stock set failed ({stocked.returncode}): {stocked.stderr}"

    for number in range(1, CLI_ORDERS + 1):
        assert_synced_before_printing(["order", "bananaJuice", "--database", database], tmp_path, f"order-{number}")


def test_a_day_closed_with_the_cli_is_synced_to_disk_before_it_prints_the_report(tmp_path):
    """`juicemaker close-day` under strace: its report is on disk before the report is printed."""
    database = str(tmp_path / "shop.sqlite")
    binary = str(server_binary())
    ordered = subprocess.run([binary, "order", "bananaJuice", "--database", database], cwd=tmp_path,
                             capture_output=True, text=True, timeout=30)
    assert ordered.returncode == 0, ordered.stderr
    assert_synced_before_printing(["close-day", "--database", database], tmp_path, "close-day")


def assert_synced_before_printing(arguments: list[str], tmp_path: Path, name: str) -> None:
    """Runs `juicemaker ARGUMENTS` under strace: the last write to the database before the first write to
    standard output (fd 1) was followed by an fsync/fdatasync that returned."""
    binary = str(server_binary())
    if not Path(binary).is_file():
        pytest.fail(f"the juicemaker binary is missing at {binary}", pytrace=False)
    trace = tmp_path / f"{name}.strace"
    status, stdout, stderr = run_with_terminal_stdout([*strace_command(trace), binary, *arguments], cwd=tmp_path)
    assert status == 0, f"{name} exited {status}\nstdout: {stdout}\nstderr: {stderr}"
    calls = read_strace(trace)
    printed = [call for call in calls if (data := written(call)) and data[0] == 1]
    assert printed, f"{name} wrote nothing to standard output in the trace ({trace}); it printed {stdout!r}"
    first = printed[0]
    assert any(write.ended < first.began for write in database_writes(calls)), (
        f"{name} wrote nothing to the database (pwrite64) before printing ({trace})")
    write = unsynced_write_before(calls, first)
    assert write is None, (
        f"{name} printed (trace line {first.began + 1}) after writing the database "
        f"(line {write.began + 1}: {write.name}({write.args[:60]}) with no fsync/fdatasync between ({trace})")
