"""Shared helpers for JuiceMaker's end-to-end tests: the shop's seed data and passwords, dates, a running
server, signing in, locators the screens share, an HTTP client for the API (ShopApi) and checks of its
answers, CSV exports, live updates, many clients at once and raw HTTP. Test files import what they use;
the `api`, `staff` and `make_member` fixtures are in conftest.py.

The tests drive a real `juicemaker serve` process on 127.0.0.1 with a fresh SQLite file each time (or a
PostgreSQL database, given as `database_url`).
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import queue
import re
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import warnings
from collections import Counter
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urlparse
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pytest
import requests
import requests.auth

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "admin-secret-pw"
MEMBER_PASSWORD = "juicy-pass-123"  # the tests' members sign up with it unless a test needs another

STARTUP_TIMEOUT_S = 30
SHUTDOWN_TIMEOUT_S = 15  # the server's own limit (`--stop-timeout`, 10 s by default), and 5 s to exit

FRUITS = ["strawberry", "banana", "pineapple", "kiwi", "mango"]
FRUIT_NAMES_KO = {
    "strawberry": "딸기",
    "banana": "바나나",
    "pineapple": "파인애플",
    "kiwi": "키위",
    "mango": "망고",
}
JUICE_NAMES_KO = {
    "strawberryBananaJuice": "딸바쥬스",
    "mangoKiwiJuice": "망키쥬스",
    "strawberryJuice": "딸기쥬스",
    "bananaJuice": "바나나쥬스",
    "pineappleJuice": "파인애플쥬스",
    "kiwiJuice": "키위쥬스",
    "mangoJuice": "망고쥬스",
}
JUICES = list(JUICE_NAMES_KO)
SEED_STOCK = {fruit: 10 for fruit in FRUITS}
RECIPES = {  # fruit each juice of the seed menu takes
    "strawberryBananaJuice": {"strawberry": 10, "banana": 1},
    "mangoKiwiJuice": {"mango": 2, "kiwi": 1},
    "strawberryJuice": {"strawberry": 16},
    "bananaJuice": {"banana": 2},
    "pineappleJuice": {"pineapple": 2},
    "kiwiJuice": {"kiwi": 3},
    "mangoJuice": {"mango": 3},
}


def deducted(juices):
    """Fruit taken by these orders, by recipe."""
    total = Counter()
    for juice in juices:
        total.update(RECIPES[juice])
    return total


def shop_zone() -> ZoneInfo:
    """The time zone a new shop counts its days in, as the server decides it: $TZ when it names a zone,
    else Asia/Seoul (`juicemaker shop time-zone` changes it)."""
    name = os.environ.get("TZ", "").removeprefix(":")
    try:
        return ZoneInfo(name) if name else ZoneInfo("Asia/Seoul")
    except (ValueError, ZoneInfoNotFoundError):
        return ZoneInfo("Asia/Seoul")


def day(offset: int = 0) -> str:
    """The shop's date (in its time zone, see shop_zone), `offset` days away, as YYYY-MM-DD."""
    return (dt.datetime.now(shop_zone()).date() + dt.timedelta(days=offset)).isoformat()


def server_binary() -> Path:
    """The juicemaker binary under test: $JUICEMAKER_BIN, else the debug build."""
    configured = os.environ.get("JUICEMAKER_BIN")
    return Path(configured) if configured else REPO / ".build" / "debug" / "juicemaker"


@dataclass
class ShopServer:
    """One `juicemaker serve` process with its own temporary database, or the given postgres:// URL.

    It binds port 0 (an ephemeral port the kernel picks, so no other process can take it between a
    check and the bind) and writes the port it got to `<workdir>/port`; `start` reads it from there.
    Started again (after a kill, say), it may get another port: `port` and `url` follow.

    `options` are more `serve` options (`("--max-connections", "50")`); `wrapper` is a command the
    server runs under (`("strace", "-f", "-o", "trace", "--")`), and `preexec_fn` runs in the child
    before it starts (to lower its resource limits, say).
    """

    binary: Path
    workdir: Path
    database_url: str | None = None  # a postgres:// URL, which several servers may share
    options: tuple[str, ...] = ()
    wrapper: tuple[str, ...] = ()
    preexec_fn: Callable[[], None] | None = None
    scheme: str = "http"  # "https" when options hold --tls-cert and --tls-key
    ca_file: Path | None = None  # the CA that signed an HTTPS server's certificate, to check it
    port: int | None = field(default=None, init=False)  # known once started
    process: subprocess.Popen | None = field(default=None, init=False)
    exit_seconds: float | None = field(default=None, init=False)  # how long it took to exit after SIGTERM

    @property
    def url(self) -> str:
        if self.port is None:
            raise ServerProblem("the server has not been started, so it has no port yet")
        return f"{self.scheme}://127.0.0.1:{self.port}"

    @property
    def database(self) -> str:
        return self.database_url or str(self.workdir / "shop.sqlite")

    @property
    def log_path(self) -> Path:
        return self.workdir / "server.log"

    @property
    def port_file(self) -> Path:
        return self.workdir / "port"

    @property
    def pid(self) -> int:
        """The server's own process id: the child of the wrapper when it runs under one."""
        if not self.wrapper:
            return self.process.pid
        children = child_pids(self.process.pid)
        if len(children) != 1:
            raise ServerProblem(f"expected the wrapper {self.wrapper[0]} (pid {self.process.pid}) to have one "
                                f"child, the server; it has {children}")
        return children[0]

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("JUICEMAKER_DATABASE", None)
        env["JUICEMAKER_ADMIN_PASSWORD"] = ADMIN_PASSWORD
        return env

    def start(self) -> None:
        """Starts the server and waits until it answers GET /health. Started again, `port` keeps the old
        port until the new one is known, so clients of a restarted server retry rather than break."""
        self.exit_seconds = None
        self.port_file.unlink(missing_ok=True)  # a file left by an earlier start names an old port
        command = [*self.wrapper, str(self.binary), "serve", "--host", "127.0.0.1", "--port", "0",
                   "--port-file", str(self.port_file), "--database", self.database, *self.options]
        with open(self.log_path, "ab") as log:
            log.write(("$ " + " ".join(command) + "\n").encode())
            log.flush()
            self.process = subprocess.Popen(command, cwd=self.workdir, env=self.env(), stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            preexec_fn=self.preexec_fn)
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        self.port = self._wait_for_port(deadline)
        self._wait_until_healthy(deadline)

    def _wait_for_port(self, deadline: float) -> int:
        """The port in the port file, once the server has written it (whole: it renames a finished file)."""
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerProblem(f"the server exited with status {self.process.returncode} before it wrote "
                                    f"its port to {self.port_file}\n{self.log_tail()}")
            try:
                text = self.port_file.read_text()
            except FileNotFoundError:
                text = ""
            if text:
                if not (text.endswith("\n") and text.strip().isdigit() and 0 < int(text) < 65536):
                    self._kill()
                    raise ServerProblem(f"the port file {self.port_file} holds {text!r}, not a port number "
                                        f"and a newline\n{self.log_tail()}")
                return int(text)
            time.sleep(0.05)
        self._kill()
        raise ServerProblem(f"the server wrote no port to {self.port_file} within {STARTUP_TIMEOUT_S} s"
                            f"\n{self.log_tail()}")

    def _wait_until_healthy(self, deadline: float) -> None:
        last_problem = "no answer yet"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerProblem(f"the server exited with status {self.process.returncode} before "
                                    f"GET /health answered\n{self.log_tail()}")
            try:
                tls = ssl.create_default_context(cafile=str(self.ca_file)) if self.ca_file else None
                with urllib.request.urlopen(self.url + "/health", timeout=1, context=tls) as response:
                    if response.status == 200:
                        return
                    last_problem = f"status {response.status}"
            except urllib.error.HTTPError as error:
                last_problem = f"status {error.code}"
            except OSError as error:
                last_problem = str(error)
            time.sleep(0.1)
        self._kill()
        raise ServerProblem(f"GET /health did not answer 200 within {STARTUP_TIMEOUT_S} s "
                            f"({last_problem})\n{self.log_tail()}")

    def _kill(self) -> None:
        """SIGKILL the server (and its wrapper), and wait for it."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            server_pid = self.pid
        except (OSError, ServerProblem):
            server_pid = None
        if server_pid is not None and server_pid != self.process.pid:
            try:
                os.kill(server_pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.kill()
        self.process.wait()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """SIGTERM, then wait for a graceful exit. Raises ServerProblem if it took over SHUTDOWN_TIMEOUT_S or
        exited non-zero, and warns (StopCutWarning) when the server had to cut what was still open.

        Under a wrapper the signal goes to the server itself (strace, for one, does not pass it on), and the
        wrapper is expected to end with the server's status."""
        if self.process is None or self.exit_seconds is not None:
            return
        if self.process.poll() is not None:
            self.exit_seconds = 0.0
            raise ServerProblem(f"the server had already exited (status {self.process.returncode}) "
                                f"before the test ended\n{self.log_tail()}")
        started = time.monotonic()
        os.kill(self.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=SHUTDOWN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            stacks = thread_stacks(self.pid)
            self._kill()
            self.exit_seconds = float("inf")
            # The log's tail last: the server says there how far its stop got, and a long report is
            # often read from its end.
            raise ServerProblem(f"the server did not exit within {SHUTDOWN_TIMEOUT_S} s of SIGTERM "
                                f"(no graceful shutdown); killed it\n"
                                f"--- where its threads were when it was killed ---\n{stacks}\n"
                                f"{self.log_tail(30)}")
        self.exit_seconds = time.monotonic() - started
        if self.process.returncode != 0:
            raise ServerProblem(f"the server exited with status {self.process.returncode} after SIGTERM "
                                f"(a graceful shutdown exits 0; a negative status means it died of the "
                                f"signal)\n{self.log_tail()}")
        cut = [line for line in self.log_path.read_text(errors="replace").splitlines() if STOP_CUT_LINE in line]
        if cut:
            warnings.warn(StopCutWarning(f"{cut[-1]} ({self.log_path})"), stacklevel=2)

    def cli(self, *args: str, check: bool = False) -> subprocess.CompletedProcess:
        """Runs `juicemaker ARGS --database <this shop>` and returns the finished process."""
        return subprocess.run([str(self.binary), *args, "--database", self.database], cwd=self.workdir,
                              env=self.env(), capture_output=True, text=True, timeout=30, check=check)

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        tail = text.splitlines()[-lines:]
        return f"--- last {len(tail)} lines of {self.log_path} ---\n" + "\n".join(tail)


def thread_stacks(pid: int, frames: int = 16) -> str:
    """Where each thread of a process is, innermost `frames` frames each (gdb attached for a moment, Swift's
    names demangled): what a server that does not stop waits in. A thread idle in `epoll_wait` (an event loop
    with nothing to do) is one line, its header and that frame. A reason instead when gdb cannot tell."""
    try:
        traced = subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx", "-ex", "set print frame-arguments none",
                                 "-ex", f"thread apply all bt {frames}"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"(no thread stacks: {error})"
    stacks = "\n".join(line for line in traced.stdout.splitlines() if line.startswith(("Thread ", "#")))
    if not stacks:
        return f"(no thread stacks: gdb says {traced.stderr.strip()[-300:]})"
    if swift := shutil.which("swift"):
        demangled = subprocess.run([swift, "demangle", "--simplified"], input=stacks, capture_output=True, text=True)
        stacks = demangled.stdout if demangled.returncode == 0 else stacks
    return "\n".join(without_idle_frames(stacks.splitlines()))


def without_idle_frames(lines: list[str]) -> Iterator[str]:
    """gdb's stacks with each thread whose innermost frame is `epoll_wait` cut to its header and that frame."""
    idle = False
    for line, following in zip(lines, lines[1:] + [""]):
        if line.startswith("Thread "):
            idle = following.startswith("#0 ") and " epoll_wait " in following
            yield line
        elif not idle or line.startswith("#0 "):
            yield line


def child_pids(pid: int) -> list[int]:
    """The ids of the processes whose parent is `pid` (from /proc/*/stat)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # it ended meanwhile
            continue
        # pid (comm) state ppid ...; comm may hold spaces and parentheses, so split after its last ")".
        fields = text[text.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return sorted(children)


@contextmanager
def refusing_port() -> Iterator[int]:
    """A loopback port that refuses connections for the duration of the block: bound, never listening,
    so nothing else can take it meanwhile."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


class ServerProblem(Exception):
    pass


STOP_CUT_LINE = "the stop has waited"


class StopCutWarning(UserWarning):
    """A server's stop went past its `--stop-timeout` and cut what was still open: something (a client that
    stopped reading, a request whose body never came) held a connection. The stop still ended as it should."""


def stop_all(shops: list[ShopServer]) -> None:
    """Stops every server (SIGTERM, as `ShopServer.stop`), removes their folders, and fails the test
    with every problem met, in one message."""
    problems = []
    for shop in shops:
        try:
            shop.stop()
        except ServerProblem as error:
            problems.append(str(error))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    for shop in shops:
        shutil.rmtree(shop.workdir, ignore_errors=True)


def make_server_workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="juicemaker-e2e-"))


def sign_in_on_current_page(page, username: str = ADMIN_USERNAME, password: str = ADMIN_PASSWORD) -> None:
    """Fills the sign-in form already shown in `page` and submits it, waiting for the page it leads to."""
    page.get_by_label("아이디", exact=True).fill(username)
    page.get_by_label("비밀번호", exact=True).fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="로그인", exact=True).click()


def login(page, server: ShopServer) -> None:
    """Signs in as the admin through the sign-in page."""
    page.goto(server.url + "/login")
    sign_in_on_current_page(page)
    assert urlparse(page.url).path != "/login", f"still on the sign-in page after signing in: {page.url}"


# A CSS suffix that leaves out elements inside a dialog: a stock or staff dialog tags its counts too.
OUTSIDE_DIALOGS = ":not(dialog *):not([role=dialog] *):not([role=alertdialog] *)"


def fruit_label(page, fruit: str):
    """The order screen's count of one fruit (a stock dialog that also tags its counts is left out)."""
    return page.locator(f'[data-fruit="{fruit}"]{OUTSIDE_DIALOGS}')


def button(scope, name: str):
    """The button inside `scope` (a page or a locator) whose accessible name is exactly `name`."""
    return scope.get_by_role("button", name=name, exact=True)


# --- the HTTP API ----------------------------------------------------------------------------------

SESSION_COOKIES = ("juicemaker_session", "__Host-juicemaker_session")
FORM_COOKIES = ("juicemaker_form", "__Host-juicemaker_form")
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]*)">')


class AntiCSRF(requests.auth.AuthBase):
    """Sends the shop's anti-CSRF token with every state-changing request, as its pages do: under a
    session cookie the session's token (`X-CSRF-Token`, as GET /api/me answers it, like the sign-in); a
    page's form sent signed out with the pre-session cookie and token a sign-in page gives. A request
    that already names a token, or a guest's API call (which needs none), goes as it is."""

    def __init__(self, http: requests.Session):
        self.http = http
        self.tokens: dict[str, str] = {}
        self.lock = threading.Lock()

    def fetch(self, url: str, cookie: str | None) -> requests.Response:
        """GET `url` as the session would (its TLS settings), with exactly `cookie`."""
        with requests.Session() as plain:
            plain.trust_env, plain.verify, plain.cert = self.http.trust_env, self.http.verify, self.http.cert
            return plain.get(url, headers={"Cookie": cookie} if cookie else {}, timeout=15, allow_redirects=False)

    def __call__(self, request):
        if request.method in ("GET", "HEAD", "OPTIONS") or "X-CSRF-Token" in request.headers:
            return request
        url = urlparse(request.url)
        base = f"{url.scheme}://{url.netloc}"
        cookie = request.headers.get("Cookie", "")
        cookies = dict(part.strip().split("=", 1) for part in cookie.split(";") if "=" in part)
        token = None
        session = next((cookies[name] for name in SESSION_COOKIES if cookies.get(name)), None)
        if session:
            with self.lock:
                token = self.tokens.get(session)
            if token is None:
                token = self.fetch(base + "/api/me", cookie).headers.get("X-CSRF-Token")
                if token:
                    with self.lock:
                        self.tokens[session] = token
        if token is None and not url.path.startswith("/api"):
            form = next((cookies[name] for name in FORM_COOKIES if cookies.get(name)), None)
            page = self.fetch(base + "/login", cookie or None)
            match = CSRF_META.search(page.text)
            token = match.group(1) if match else None
            if form is None:
                fresh = page.cookies.get("__Host-juicemaker_form") or page.cookies.get("juicemaker_form")
                name = "__Host-juicemaker_form" if page.cookies.get("__Host-juicemaker_form") else "juicemaker_form"
                if fresh:
                    request.headers["Cookie"] = (cookie + "; " if cookie else "") + f"{name}={fresh}"
        if token:
            request.headers["X-CSRF-Token"] = token
        return request


class ShopApi:
    """A requests session bound to one server. Every answer is checked not to be a 5xx. Its writes carry
    the anti-CSRF token a page's would (`AntiCSRF`).

    `request` and its shorthands take a path on the server ("/api/stock") or an absolute URL.
    """

    timeout: float = 15  # seconds, for every request that does not pass its own `timeout=`

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.http = requests.Session()
        self.http.auth = AntiCSRF(self.http)

    @classmethod
    def signed_in_as_admin(cls, base_url: str):
        """A new client of this class whose session is signed in as the admin (the answer must be 200)."""
        staff = cls(base_url)
        response = staff.sign_in()
        assert response.status_code == 200, f"signing in as admin answered {response.status_code}: {response.text}"
        return staff

    def request(self, method: str, path: str, **options) -> requests.Response:
        options.setdefault("timeout", self.timeout)
        url = path if path.startswith("http") else self.base_url + path
        response = self.http.request(method, url, **options)
        assert response.status_code < 500, (
            f"{method} {path} answered {response.status_code} (a server error): {response.text[:500]}")
        return response

    def get(self, path, **options):
        return self.request("GET", path, **options)

    def post(self, path, **options):
        return self.request("POST", path, **options)

    def put(self, path, **options):
        return self.request("PUT", path, **options)

    def delete(self, path, **options):
        return self.request("DELETE", path, **options)

    def sign_in(self, username: str = ADMIN_USERNAME, password: str = ADMIN_PASSWORD) -> requests.Response:
        return self.post("/api/session", json={"username": username, "password": password})

    def sign_up(self, username: str, password: str = MEMBER_PASSWORD, name: str | None = None) -> requests.Response:
        """POST /api/members (the raw response; the caller checks it); `name` is left out unless given."""
        body = {"username": username, "password": password}
        if name is not None:
            body["name"] = name
        return self.post("/api/members", json=body)

    def list_at(self, path: str) -> list:
        """GET `path`, which must answer 200 with a JSON list."""
        response = self.get(path)
        assert response.status_code == 200, f"GET {path} answered {response.status_code}: {response.text[:500]}"
        body = response.json()
        assert isinstance(body, list), f"GET {path} is not a JSON list: {str(body)[:500]}"
        return body

    def stock(self) -> dict:
        """The juice bar's fruit counts: GET /api/stock, which must answer 200."""
        response = self.get("/api/stock")
        assert response.status_code == 200, (
            f"GET /api/stock on {self.base_url} answered {response.status_code}: {response.text[:500]}")
        return response.json()

    def set_stock(self, fruit: str, count: int) -> None:
        """PUT /api/stock/{fruit} (staff), which must answer 200."""
        response = self.put(f"/api/stock/{fruit}", json={"count": count})
        assert response.status_code == 200, (
            f"setting {fruit} to {count} answered {response.status_code}: {response.text[:500]}")


def fruit_stock(server) -> dict:
    """The fruit counts of this server (ShopServer), as a guest reads them."""
    return ShopApi(server.url).stock()


def staff_headers(server) -> dict[str, str]:
    """The `Cookie` that signs a request in as the admin and the session's `X-CSRF-Token` its writes carry."""
    staff = ShopApi(server.url)
    response = staff.sign_in()
    assert response.status_code == 200, f"signing in as admin answered {response.status_code}: {response.text}"
    return {"Cookie": "; ".join(f"{cookie.name}={cookie.value}" for cookie in staff.http.cookies),
            "X-CSRF-Token": response.headers["X-CSRF-Token"]}


def assert_error(response: requests.Response, *statuses: int, code: str | None = None) -> dict:
    """The response is one of `statuses` and a JSON body with string "error" (== code when given) and "message"."""
    assert response.status_code in statuses, (
        f"expected {' or '.join(map(str, statuses))}, got {response.status_code}: {response.text[:500]}")
    content_type = response.headers.get("Content-Type", "")
    assert "json" in content_type, f"error response is {content_type!r}, not JSON: {response.text[:500]}"
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"], f"no \"error\" code in {body}"
    assert isinstance(body.get("message"), str) and body["message"], f"no \"message\" in {body}"
    if code is not None:
        assert body["error"] == code, f"expected error {code!r}, got {body['error']!r}: {body}"
    return body


def set_cookie_lines(response: requests.Response) -> list[str]:
    return response.raw.headers.getlist("Set-Cookie")


def assert_sign_in_cookies(response: requests.Response) -> None:
    """Signing in set at least one cookie, and every one is HttpOnly and SameSite=Lax."""
    cookies = set_cookie_lines(response)
    assert cookies, "signing in set no cookie"
    for cookie in cookies:
        attributes = [part.strip().lower() for part in cookie.split(";")]
        assert "httponly" in attributes, f"cookie is not HttpOnly: {cookie}"
        assert "samesite=lax" in attributes, f"cookie is not SameSite=Lax: {cookie}"


# --- CSV exports -----------------------------------------------------------------------------------

BOM = "\ufeff"


def read_csv(text: str) -> list[dict]:
    """The rows of a CSV export, each a dict by the header row. The text must start with the byte-order
    mark: a spreadsheet needs it to read UTF-8."""
    assert text.startswith(BOM), "a spreadsheet needs the byte-order mark to read UTF-8"
    return list(csv.DictReader(io.StringIO(text[len(BOM):], newline="")))


# --- live updates (server-sent events) ------------------------------------------------------------

@contextmanager
def open_live_stream(server) -> Iterator[requests.Response]:
    """GET /api/live as a stream. On the way out the socket is shut down first, so that a thread blocked
    reading it returns at once (closing alone would wait for that read's timeout)."""
    stream = requests.get(server.url + "/api/live", stream=True, timeout=(3, 15),
                          headers={"Accept": "text/event-stream"})
    try:
        yield stream
    finally:
        connection = getattr(stream.raw, "connection", None)
        sock = getattr(connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        stream.close()


def read_lines_into(stream: requests.Response, lines: queue.Queue) -> threading.Thread:
    def read():
        try:
            for line in stream.iter_lines(chunk_size=1):
                lines.put(line.decode("utf-8", "replace"))
        except Exception:  # the stream is closed when the test ends
            pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


# --- many clients at once -------------------------------------------------------------------------

@dataclass
class Call:
    kind: str  # what the test calls it: insert, buy, change, order...
    argument: object
    status: int | None
    body: object
    error: str | None = None


class Clients:
    """One requests.Session per worker thread."""

    def __init__(self, base_url: str, timeout: float = 30):
        self.base_url = base_url
        self.timeout = timeout
        self.local = threading.local()
        self.sessions: list[requests.Session] = []
        self.lock = threading.Lock()

    def session(self) -> requests.Session:
        session = getattr(self.local, "session", None)
        if session is None:
            session = requests.Session()
            self.local.session = session
            with self.lock:
                self.sessions.append(session)
        return session

    def call(self, kind: str, argument, method: str, path: str, json=None) -> Call:
        try:
            response = self.session().request(method, self.base_url + path, json=json, timeout=self.timeout)
        except requests.RequestException as error:
            return Call(kind, argument, None, None, f"{type(error).__name__}: {error}")
        try:
            body = response.json()
        except ValueError:
            body = response.text[:300]
        return Call(kind, argument, response.status_code, body)

    def close(self):
        for session in self.sessions:
            session.close()


def run_all(tasks, workers: int, deadline_s: float = 60) -> list[Call]:
    """Runs the tasks (each returns a list of Calls) on `workers` threads; fails past `deadline_s`."""
    started = time.monotonic()
    executor = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [executor.submit(task) for task in tasks]
        done, not_done = wait(futures, timeout=deadline_s, return_when=FIRST_EXCEPTION)
        for future in done:
            future.result()  # re-raises a bug in the test itself
        if not_done:
            pytest.fail(f"{len(not_done)} of {len(futures)} tasks were still running after {deadline_s} s")
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    elapsed = time.monotonic() - started
    print(f"{len(tasks)} tasks on {workers} threads in {elapsed:.1f} s")
    return [call for future in futures for call in future.result()]


def error_code(call: Call):
    return call.body.get("error") if isinstance(call.body, dict) else None


def unexpected_machine_answers(inserts: list[Call], buys: list[Call], changes: list[Call]) -> list[Call]:
    """Vending answers the contract does not allow: an insert is taken or refused at the cap, a
    purchase sells or is refused for the balance or an empty slot, change is always given."""
    unexpected = [call for call in inserts
                  if not (call.status == 200 or (call.status == 409 and error_code(call) == "balance_cap"))]
    unexpected += [call for call in buys if not (call.status == 201 or (
        call.status == 409 and error_code(call) in ("insufficient_balance", "sold_out")))]
    unexpected += [call for call in changes if call.status != 200]
    return unexpected


def check_no_failures(calls: list[Call]) -> None:
    broken = [call for call in calls if call.error is not None]
    assert not broken, f"{len(broken)} requests got no answer, e.g. {broken[:3]}"
    server_errors = [call for call in calls if call.status >= 500]
    assert not server_errors, f"{len(server_errors)} answers were 5xx, e.g. {server_errors[:3]}"


# --- raw HTTP on a socket, and the server's process as the OS sees it --------------------------------

LIVE_REQUEST = b"GET /api/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"


@dataclass
class RawAnswer:
    """What came back on a raw connection: the parsed answer (status None when the server closed the
    connection without one), and whether the connection ended with a reset."""

    status: int | None
    headers: dict[str, str]  # names lowercased; the last of repeated fields
    body: bytes
    raw: bytes
    reset: bool = False

    def json(self):
        return json.loads(self.body)


def parse_http_answer(raw: bytes, reset: bool = False) -> RawAnswer:
    """Parses one HTTP/1.1 answer (Content-Length, chunked, or up to the end), after any interim 1xx ones;
    tolerant of a partial one."""
    head, separator, rest = raw.partition(b"\r\n\r\n")
    while re.match(rb"HTTP/1\.[01] 1\d\d ", head) and rest:  # an interim answer (100 Continue): the real one follows
        head, separator, rest = rest.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if not separator or len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        return RawAnswer(None, {}, b"", raw, reset)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = b""
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            try:
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
            except ValueError:
                break
            if size == 0:
                break
            body += rest[:size]
            rest = rest[size + 2:]
    elif headers.get("content-length", "").isdigit():
        body = rest[:int(headers["content-length"])]
    else:
        body = rest
    return RawAnswer(int(parts[1]), headers, body, raw, reset)


def raw_exchange(port: int, request: bytes, timeout: float = 10) -> RawAnswer:
    """Sends `request` byte for byte on a new connection and reads until the server closes it (send
    `Connection: close` to have it do so after its answer). A timeout raises socket.timeout."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        received, reset = b"", False
        deadline = time.monotonic() + timeout
        try:
            sock.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            reset = True  # it answered (and closed) before reading everything, which it may do when refusing
        while True:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                reset = True
                break
            if not chunk:
                break
            received += chunk
    return parse_http_answer(received, reset)


def read_answer_head(sock: socket.socket, timeout: float = 5) -> bytes:
    """Reads from `sock` until the end of an answer's head has arrived; returns all bytes read."""
    sock.settimeout(timeout)
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError(f"closed after {received[:200]!r}")
        received += chunk
    return received


def open_raw_live_stream(port: int, timeout: float = 5) -> socket.socket:
    """A socket with GET /api/live sent and the 200 answer's head read; the stream is left unread."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        sock.sendall(LIVE_REQUEST)
        head = read_answer_head(sock, timeout)
        assert head.startswith(b"HTTP/1.1 200"), f"GET /api/live answered {head[:300]!r}"
    except BaseException:
        sock.close()
        raise
    return sock


def metric_value(base_url: str, name: str) -> float | None:
    """The value of metric `name` on /metrics (summed over its label sets), or None when it is not there.
    Asked on a connection of its own that is closed afterwards, so it does not linger in the counts."""
    response = requests.get(base_url + "/metrics", timeout=5, headers={"Connection": "close"})
    assert response.status_code == 200, f"GET /metrics answered {response.status_code}"
    values = []
    for line in response.text.splitlines():
        if line.startswith(name) and line[len(name):len(name) + 1] in (" ", "{"):
            values.append(float(line.rsplit(None, 1)[-1]))
    return sum(values) if values else None


def ensure_open_file_limit(count: int) -> None:
    """Raises this (test) process's soft limit on open files to at least `count`, within the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < count:
        if hard != resource.RLIM_INFINITY and hard < count:
            pytest.fail(f"this test needs {count} open files; the hard limit is {hard}", pytrace=False)
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


def open_fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_kib(pid: int) -> int:
    """The process's resident set size (VmRSS), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS in /proc/{pid}/status")


TCP_STATES = {"01": "ESTABLISHED", "06": "TIME_WAIT", "08": "CLOSE_WAIT", "0A": "LISTEN"}


def tcp_states_on_port(pid: int, port: int, peers: set[int] | None = None) -> Counter:
    """TCP sockets whose local port is `port` (the server's side of its connections), by state name, from
    /proc/<pid>/net/tcp and tcp6 (the sockets of the process's network namespace); only those whose
    remote port is in `peers` when given (the test's own clients, not whatever else is connecting)."""
    return Counter(state for peer, state, _ in tcp_sockets_on_port(pid, port) if peers is None or peer in peers)


def unsent_bytes(pid: int, port: int, peer: int) -> int:
    """What the server's side of its connection from `peer` holds unsent (0 when there is none)."""
    return next((unsent for remote, _, unsent in tcp_sockets_on_port(pid, port) if remote == peer), 0)


def tcp_sockets_on_port(pid: int, port: int) -> Iterator[tuple[int, str, int]]:
    """The remote port, state name and unsent bytes (tx_queue) of each TCP socket whose local port is `port`,
    from /proc/<pid>/net/tcp and tcp6 (the sockets of the process's network namespace)."""
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                yield (int(fields[2].rsplit(":", 1)[1], 16), TCP_STATES.get(fields[3], fields[3]),
                       int(fields[4].split(":")[0], 16))


def wait_for(condition: Callable[[], object], timeout: float, interval: float = 0.1):
    """Polls `condition` until it returns something true (returned) or `timeout` seconds pass (returns the
    last falsy value)."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result or time.monotonic() >= deadline:
            return result
        time.sleep(interval)
