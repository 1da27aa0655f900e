"""HTTPS (issue 24): `serve --tls-cert FILE --tls-key FILE`, checked with Debian's curl and openssl.

- A throwaway CA and a server certificate for 127.0.0.1/localhost are made with `openssl` per module;
  the certificate file holds the chain (server certificate, then the CA).
- HTTP/2 is negotiated by ALPN (`curl --http2`), HTTP/1.1 is the fallback (`curl --http1.1`); /api/live
  streams its first events over HTTP/2.
- TLS 1.2 and 1.3 are accepted, 1.1 is refused, and so are TLS 1.2 suites without ECDHE or AEAD (the
  client is told to allow them, SECLEVEL=0, so the refusal is the server's).
- SIGHUP reads the certificate again: a new connection gets the new one while a live stream opened before
  stays open; a broken file, or a key that is not the certificate's, keeps the old one.
- A connection that never finishes its handshake is closed after --idle-timeout, and --max-connections
  holds over HTTPS: one more connection is closed at once (a plain-text 503 would be noise inside TLS).
- testssl.sh (scripts/check-tls, about 40 s) finds no vulnerability and nothing "NOT ok", and sees only
  ECDHE + AEAD suites.
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from e2e_support import (ADMIN_PASSWORD, ADMIN_USERNAME, ShopServer, make_server_workdir, server_binary, stop_all,
                          wait_for)

CURL_TIMEOUT_S = "10"


def openssl(*args: str, cwd: Path) -> str:
    return subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def make_server_certificate(folder: Path, name: str, serial: int) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost signed by the folder's CA, with its chain, and its key."""
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", f"{name}.key",
            "-out", f"{name}.csr", "-subj", "/CN=localhost", cwd=folder)
    (folder / f"{name}.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
                                        "keyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", str(serial),
            "-days", "2", "-extfile", f"{name}.ext", "-out", f"{name}.leaf.pem", cwd=folder)
    chain = folder / f"{name}.pem"
    chain.write_text((folder / f"{name}.leaf.pem").read_text() + (folder / "ca.pem").read_text())
    return chain, folder / f"{name}.key"


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=JuiceMaker test CA", cwd=folder)
    return folder


def start_https(start_server, folder: Path, *options: str):
    """A server with the folder's `live.pem`/`live.key` (serial 0x1001, copied so a test can replace them)."""
    cert, key = make_server_certificate(folder, "first", 0x1001)
    live_cert, live_key = folder / "live.pem", folder / "live.key"
    live_cert.write_bytes(cert.read_bytes())
    live_key.write_bytes(key.read_bytes())
    return start_server("--tls-cert", str(live_cert), "--tls-key", str(live_key), *options,
                        scheme="https", ca_file=folder / "ca.pem")


@pytest.fixture(scope="module")
def https_server(certificates):
    """One HTTPS server shared by the read-only checks of this module."""
    cert, key = make_server_certificate(certificates, "shared", 0x2002)
    shop = ShopServer(binary=server_binary(), workdir=make_server_workdir(),
                      options=("--tls-cert", str(cert), "--tls-key", str(key)), scheme="https",
                      ca_file=certificates / "ca.pem")
    shop.start()
    yield shop
    stop_all([shop])


def curl(server, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["curl", "-sS", "--max-time", CURL_TIMEOUT_S, "--cacert", str(server.ca_file), *args],
                          capture_output=True, text=True)


def handshake(server, *args: str) -> subprocess.CompletedProcess:
    """`openssl s_client` to the server with the given options; its output holds the certificate it got."""
    return subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{server.port}", "-CAfile",
                           str(server.ca_file), "-servername", "localhost", *args],
                          input="", capture_output=True, text=True, timeout=15)


def serial_offered(server) -> str:
    answer = handshake(server)
    assert answer.returncode == 0, answer.stderr
    return subprocess.run(["openssl", "x509", "-noout", "-serial"], input=answer.stdout, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_health_negotiates_http2_and_falls_back_to_http1(https_server):
    answer = curl(https_server, "--http2", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                  https_server.url + "/health")
    assert answer.stdout == "2 200", answer.stderr
    answer = curl(https_server, "--http1.1", "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
                  https_server.url + "/health")
    assert answer.stdout == "1.1 200", answer.stderr
    answer = curl(https_server, "--http2", "-w", "%{http_version} %{http_code}", "https://localhost:"
                  f"{https_server.port}/api/menu", "-o", "/dev/null")
    assert answer.stdout == "2 200", answer.stderr


def test_over_https_every_answer_has_hsts_and_the_session_cookie_is_secure(https_server):
    answer = curl(https_server, "--http2", "-i", "-H", "Content-Type: application/json",
                  "--data", json.dumps({"username": ADMIN_USERNAME, "password": ADMIN_PASSWORD}),
                  https_server.url + "/api/session?lang=en")
    head = answer.stdout.split("\r\n\r\n", 1)[0].lower()
    assert head.startswith("http/2 200"), answer.stdout[:500] + answer.stderr
    assert "strict-transport-security: max-age=31536000" in head, head
    cookies = [line for line in head.splitlines() if line.startswith("set-cookie:")]
    assert any(c.startswith("set-cookie: __host-juicemaker_session=") and "secure" in c and "httponly" in c
               for c in cookies), cookies
    assert any(c.startswith("set-cookie: juicemaker_lang=en") and "secure" in c for c in cookies), cookies
    refused = curl(https_server, "-i", https_server.url + "/api/nothing-here")
    assert "strict-transport-security: max-age=31536000" in refused.stdout.lower(), refused.stdout[:500]


def test_plain_http_to_the_https_port_gets_no_answer(https_server):
    answer = subprocess.run(["curl", "-sS", "--max-time", "5", f"http://127.0.0.1:{https_server.port}/health"],
                            capture_output=True, text=True)
    assert answer.returncode != 0 and "ok" not in answer.stdout


@pytest.mark.parametrize("version", ["-tls1_2", "-tls1_3"])
def test_tls_12_and_13_are_accepted(https_server, version):
    answer = handshake(https_server, version)
    assert answer.returncode == 0, answer.stdout[-2000:] + answer.stderr
    assert "Verify return code: 0 (ok)" in answer.stdout


@pytest.mark.parametrize("options", [
    ("-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"),
    ("-tls1", "-cipher", "DEFAULT@SECLEVEL=0"),
    # TLS 1.2 without forward secrecy (RSA key exchange), or with CBC instead of an AEAD.
    ("-tls1_2", "-cipher", "AES128-GCM-SHA256:AES256-SHA256:@SECLEVEL=0"),
    ("-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA384:@SECLEVEL=0"),
], ids=["tls1.1", "tls1.0", "no-ecdhe", "cbc"])
def test_old_protocols_and_weak_suites_are_refused(https_server, options):
    answer = handshake(https_server, *options)
    assert answer.returncode != 0, answer.stdout[-2000:]
    # The server's refusal (an alert), not the client's own (openssl would say "no protocols available").
    assert "alert" in answer.stderr, answer.stderr


def open_live_stream_over_http2(server) -> subprocess.Popen:
    return subprocess.Popen(["curl", "-sS", "-N", "-v", "--http2", "--cacert", str(server.ca_file),
                             "-H", "Accept: text/event-stream", server.url + "/api/live"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def read_until(stream, wanted: str, lines: int = 200) -> list[str]:
    seen = []
    for _ in range(lines):
        line = stream.readline()
        if not line:
            break
        seen.append(line.rstrip("\n"))
        if line.startswith(wanted):
            return seen
    raise AssertionError(f"no line starting {wanted!r} among {seen}")


def test_live_updates_stream_over_http2(https_server):
    live = open_live_stream_over_http2(https_server)
    try:
        read_until(live.stdout, "event: stock")
        read_until(live.stdout, "data: ")
    finally:
        live.kill()
        _, errors = live.communicate(timeout=5)
    assert "< HTTP/2 200" in errors, errors[-2000:]
    assert "content-type: text/event-stream" in errors.lower()


def reload_and_wait(server, log_line: str, seen_before: int) -> None:
    os.kill(server.pid, signal.SIGHUP)
    wait_for(lambda: server.log_path.read_text().count(log_line) > seen_before, timeout=5)


def test_sighup_reloads_the_certificate_for_new_connections_only(start_server, certificates):
    server = start_https(start_server, certificates, "--heartbeat", "1")
    assert serial_offered(server) == "serial=1001"
    live = open_live_stream_over_http2(server)
    try:
        read_until(live.stdout, "event: stock")
        renewed_cert, renewed_key = make_server_certificate(certificates, "renewed", 0x1002)
        (certificates / "live.pem").write_bytes(renewed_cert.read_bytes())
        (certificates / "live.key").write_bytes(renewed_key.read_bytes())
        reload_and_wait(server, "reloaded the TLS certificate", 0)
        assert serial_offered(server) == "serial=1002"
        # The stream opened before the reload still gets its heartbeats (one a second).
        read_until(live.stdout, ": heartbeat")
        read_until(live.stdout, ": heartbeat")
        assert live.poll() is None

        # A broken certificate file, then a key that is not the certificate's: the renewed one stays.
        (certificates / "live.pem").write_text("-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n")
        reload_and_wait(server, "could not reload the TLS certificate", 0)
        assert serial_offered(server) == "serial=1002"
        other_cert, _ = make_server_certificate(certificates, "other", 0x1003)
        (certificates / "live.pem").write_bytes(other_cert.read_bytes())
        reload_and_wait(server, "could not reload the TLS certificate", 1)
        assert serial_offered(server) == "serial=1002"
        read_until(live.stdout, ": heartbeat")
        assert curl(server, "--http2", "-o", "/dev/null", "-w", "%{http_code}", server.url + "/health").stdout == "200"
    finally:
        live.kill()
        live.communicate(timeout=5)


def test_a_connection_that_never_finishes_its_handshake_is_closed(start_server, certificates):
    server = start_https(start_server, certificates, "--idle-timeout", "2")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as silent:
        started = time.monotonic()
        assert silent.recv(1) == b""
        waited = time.monotonic() - started
    assert 1.5 < waited < 6, f"the silent connection was closed after {waited:.1f} s; --idle-timeout is 2 s"


def test_connections_over_the_limit_are_closed_and_the_limit_holds(start_server, certificates):
    server = start_https(start_server, certificates, "--max-connections", "2", "--heartbeat", "1")
    streams = [open_live_stream_over_http2(server) for _ in range(2)]
    try:
        for stream in streams:
            read_until(stream.stdout, "event: stock")
        refused = curl(server, "--http2", "-o", "/dev/null", "-w", "%{http_code}", server.url + "/health")
        assert refused.returncode != 0 and refused.stdout in ("", "000"), refused.stdout
    finally:
        for stream in streams:
            stream.kill()
            stream.communicate(timeout=5)
    wait_for(lambda: curl(server, "--http2", "-o", "/dev/null", "-w", "%{http_code}",
                          server.url + "/health").stdout == "200", timeout=10)


def test_testssl_finds_no_vulnerability_and_nothing_not_ok(https_server):
    """testssl.sh (Debian) through scripts/check-tls: protocols, every suite offered, vulnerabilities."""
    check = subprocess.run([str(Path(__file__).resolve().parents[2] / "scripts" / "check-tls"),
                            f"127.0.0.1:{https_server.port}", "--add-ca", str(https_server.ca_file)],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout[-4000:] + check.stderr
    report = check.stdout
    for version in ("SSLv2", "SSLv3", "TLS 1", "TLS 1.1"):
        assert re.search(rf"^ {re.escape(version)} +not offered", report, flags=re.MULTILINE), (version, report)
    assert re.search(r"^ TLS 1\.3 +offered", report, flags=re.MULTILINE), report
    assert "ALPN/HTTP2 h2, http/1.1" in report, report
    # Only ECDHE with AEAD under TLS 1.2 (TLS 1.3's suites are AEAD by definition).
    suites = re.findall(r"^ x[0-9a-f]{4}\s+(\S+)", report, flags=re.MULTILINE)
    assert suites and all(s.startswith("TLS_") or (s.startswith("ECDHE-") and ("GCM" in s or "CHACHA20" in s))
                          for s in suites), suites


def test_a_trickled_body_over_http2_is_cut_alone(start_server, certificates):
    """--body-timeout over HTTP/2 (h2 from PyPI): the slow request's stream gets its 408 and ends, while a
    live stream on the same connection goes on (closing the connection would end every stream on it)."""
    import h2.config
    import h2.connection
    import h2.events
    import ssl

    server = start_https(start_server, certificates, "--body-timeout", "2", "--heartbeat", "1")
    tls = ssl.create_default_context(cafile=str(server.ca_file))
    tls.set_alpn_protocols(["h2"])
    with tls.wrap_socket(socket.create_connection(("127.0.0.1", server.port), timeout=0.5),
                         server_hostname="localhost") as sock:
        assert sock.selected_alpn_protocol() == "h2"
        connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        connection.initiate_connection()
        common = [(":authority", "localhost"), (":scheme", "https")]
        connection.send_headers(1, [(":method", "GET"), (":path", "/api/live"), *common,
                                    ("accept", "text/event-stream")], end_stream=True)
        connection.send_headers(3, [(":method", "POST"), (":path", "/api/orders"), *common,
                                    ("content-type", "application/json"), ("content-length", "40")])
        connection.send_data(3, b"{")
        sock.sendall(connection.data_to_send())
        status, live_after_cut, started, cut_at = None, 0, time.monotonic(), None
        while time.monotonic() - started < 8 and live_after_cut < 2:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                continue
            assert data, "the server closed the whole HTTP/2 connection"
            for event in connection.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == 3:
                    status, cut_at = dict(event.headers)[b":status"], time.monotonic() - started
                elif isinstance(event, h2.events.DataReceived):
                    connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    live_after_cut += event.stream_id == 1 and status is not None
                elif isinstance(event, h2.events.StreamReset):
                    assert event.stream_id == 3, f"stream {event.stream_id} was reset"
            sock.sendall(connection.data_to_send())
    assert status == b"408" and 1.5 < cut_at < 5, (status, cut_at)
    assert live_after_cut >= 2, "the live stream stopped when the slow request was cut"
