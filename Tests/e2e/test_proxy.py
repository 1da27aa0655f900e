"""The shop behind a real nginx (Debian's) that terminates TLS, configured by deploy/nginx.conf as the
README tells a shop to: the client's address and scheme come through `X-Forwarded-For` and
`X-Forwarded-Proto`, believed only from a `--trusted-proxy`.

nginx gets its listening socket from this test (bound to port 0, handed over with nginx's own
`NGINX` variable for inherited sockets), so no port is raced for.
"""
from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from e2e_support import ADMIN_PASSWORD, ADMIN_USERNAME, REPO, AntiCSRF, make_server_workdir, wait_for

NGINX = "/usr/sbin/nginx"
SITE = REPO / "deploy" / "nginx.conf"


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 and localhost, which is its own CA."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def tls_site(port: int, upstream: int, cert: Path, key: Path) -> str:
    """deploy/nginx.conf's HTTPS server block, listening on `port` with this certificate and passing to
    the shop at `upstream`; everything else as shipped."""
    blocks = re.findall(r"^server \{\n.*?^\}\n", SITE.read_text(), flags=re.S | re.M)
    site = next(block for block in blocks if "ssl_certificate" in block)
    site = re.sub(r"^\s*listen \[::\]:443.*\n", "", site, flags=re.M)
    for shipped, here in [("listen 443 ssl", f"listen 127.0.0.1:{port} ssl"),
                          ("/etc/letsencrypt/live/shop.example/fullchain.pem", str(cert)),
                          ("/etc/letsencrypt/live/shop.example/privkey.pem", str(key)),
                          ("http://127.0.0.1:8080", f"http://127.0.0.1:{upstream}")]:
        assert shipped in site, f"deploy/nginx.conf no longer has {shipped!r}"
        site = site.replace(shipped, here)
    return site


class Nginx:
    def __init__(self, upstream: int):
        self.folder = make_server_workdir()
        self.cert, key = make_certificate(self.folder)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        temp = {name: self.folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
        (self.folder / "nginx.conf").write_text(f"""
daemon off;
user root;
worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log info;
events {{ worker_connections 512; }}
http {{
    access_log {self.folder}/access.log;
    client_body_temp_path {temp['body']};
    proxy_temp_path {temp['proxy']};
    fastcgi_temp_path {temp['fastcgi']};
    uwsgi_temp_path {temp['uwsgi']};
    scgi_temp_path {temp['scgi']};
{tls_site(self.port, upstream, self.cert, key)}
}}
""")
        fd = self.listener.fileno()
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            env={**os.environ, "NGINX": f"{fd};"}, pass_fds=(fd,), stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "stderr.log", "wb"))
        self.url = f"https://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 10
        while True:
            try:
                self.session().get(self.url + "/health", timeout=2)
                return
            except requests.RequestException:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("nginx did not start:\n" + (self.folder / "stderr.log").read_text()
                                         + (self.folder / "error.log").read_text(errors="replace"))
                time.sleep(0.1)

    def session(self) -> requests.Session:
        session = requests.Session()
        session.trust_env = False  # else a CA bundle named in the environment replaces `verify`
        session.verify = str(self.cert)
        session.auth = AntiCSRF(session)  # writes under a cookie, and page forms, carry the token
        return session

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.listener.close()


@pytest.fixture(scope="module")
def nginx_available():
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: scripts/install-test-tools installs it", pytrace=False)


@pytest.fixture
def behind_nginx(start_server, nginx_available):
    shop = start_server("--trusted-proxy", "127.0.0.1")
    proxy = Nginx(shop.port)
    yield shop, proxy
    proxy.stop()


def guest_order(session, url: str, key: str, forwarded_for: str) -> requests.Response:
    return session.post(url + "/api/orders", json={"juice": "bananaJuice"}, timeout=10,
                        headers={"Idempotency-Key": key, "X-Forwarded-For": forwarded_for})


def test_two_clients_behind_the_proxy_with_one_key_are_two_scopes(behind_nginx):
    shop, proxy = behind_nginx
    session = proxy.session()
    first = guest_order(session, proxy.url, "one-key", "203.0.113.5")
    again = guest_order(session, proxy.url, "one-key", "203.0.113.5")
    other = guest_order(session, proxy.url, "one-key", "198.51.100.7")
    assert (first.status_code, again.status_code, other.status_code) == (201, 201, 201)
    assert again.headers.get("Idempotent-Replayed") == "true" and again.json() == first.json()
    assert "Idempotent-Replayed" not in other.headers
    assert other.json()["order"]["id"] != first.json()["order"]["id"]
    # The access log names each client as nginx saw it, not nginx (its lines come out within moments).
    def logged(client: str) -> bool:
        return re.search(rf"client={re.escape(client)} .*path=/api/orders", shop.log_path.read_text(errors="replace"))
    assert wait_for(lambda: logged("203.0.113.5") and logged("198.51.100.7"), timeout=5), shop.log_tail()


def test_a_spoofed_forwarded_for_from_an_untrusted_peer_changes_nothing(server):
    session = requests.Session()
    first = guest_order(session, server.url, "one-key", "203.0.113.5")
    other = guest_order(session, server.url, "one-key", "198.51.100.7")
    assert (first.status_code, other.status_code) == (201, 201)
    assert other.headers.get("Idempotent-Replayed") == "true" and other.json() == first.json()
    assert "Strict-Transport-Security" not in first.headers


def test_over_https_through_the_proxy_cookies_are_secure_and_hsts_is_sent(behind_nginx):
    shop, proxy = behind_nginx
    session = proxy.session()
    answer = session.post(proxy.url + "/api/session?lang=en", json={"username": ADMIN_USERNAME, "password": ADMIN_PASSWORD},
                          timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"
    cookies = answer.raw.headers.getlist("Set-Cookie")
    session_cookie = next(cookie for cookie in cookies if cookie.startswith("__Host-juicemaker_session="))
    assert "Secure" in session_cookie and "HttpOnly" in session_cookie and "Path=/" in session_cookie
    assert any(cookie.startswith("juicemaker_lang=en") and "Secure" in cookie for cookie in cookies)
    assert session.get(proxy.url + "/api/me", timeout=10).json()["username"] == ADMIN_USERNAME
    # The page sign-in too, and what it signs in is the staff's stock screen.
    page = proxy.session()
    landing = page.post(proxy.url + "/login", data={"username": ADMIN_USERNAME, "password": ADMIN_PASSWORD},
                        allow_redirects=False, timeout=10)
    assert landing.status_code == 302 and landing.cookies.get("__Host-juicemaker_session")


def test_live_updates_pass_through_the_proxy_at_once(behind_nginx):
    shop, proxy = behind_nginx
    session = proxy.session()
    with session.get(proxy.url + "/api/live", stream=True, timeout=10) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        lines = stream.iter_lines(decode_unicode=True)
        started = time.monotonic()
        events = []
        for line in lines:
            if line.startswith("event: "):
                events.append(line.removeprefix("event: "))
            if "stock" in events:
                break
        assert time.monotonic() - started < 3, "the first event was held back by the proxy"
        shop.cli("stock", "set", "kiwi", "7", check=True)
        for line in lines:
            if line.startswith("data: ") and '"kiwi":7' in line.replace(" ", ""):
                break
        assert time.monotonic() - started < 5, "a change did not come through the proxy within seconds"


def test_each_client_behind_the_proxy_has_its_own_turn_at_sign_in(behind_nginx):
    """A flood of sign-ins from one client fills that client's line (16 waiting at most; the rest are
    503 busy) while another client behind the same proxy still signs in: the lines are per settled
    client, not per proxy."""
    shop, proxy = behind_nginx

    def sign_in(forwarded_for: str, username: str, password: str) -> int:
        return proxy.session().post(proxy.url + "/api/session", json={"username": username, "password": password},
                                    headers={"X-Forwarded-For": forwarded_for}, timeout=60).status_code

    with ThreadPoolExecutor(max_workers=48) as pool:
        flood = [pool.submit(sign_in, "203.0.113.5", f"nobody{i}", "wrong-guess") for i in range(24)]
        time.sleep(0.3)
        other = pool.submit(sign_in, "198.51.100.7", ADMIN_USERNAME, ADMIN_PASSWORD)
        statuses = [future.result() for future in flood]
        assert other.result() == 200
    assert 503 in statuses and set(statuses) <= {401, 503}, statuses
