"""The systemd units in deploy/ (README, "Going live"): checked by systemd's own `systemd-analyze verify`
and its offline security review, their user made by `systemd-sysusers`, and their command lines run for
real against the binary under test.

`systemd-analyze verify` loads a unit as systemd would and refuses one whose ExecStart binary does not
exist, so each check runs on a copy whose /usr/local/bin/juicemaker (where the README installs it) is the
binary under test; nothing else is changed. It only warns (and exits 0) on an unknown or misspelled
setting, so any output at all fails the check. No systemd runs here (no PID 1 manager in CI), so the
last test runs the units' ExecStart lines itself, with systemd's %S (state directories) and %d
(credentials directory) filled in as systemd would: the flags in the units are the ones the binary has.
"""
from __future__ import annotations

import os
import re
import shlex
import sqlite3
import subprocess
from pathlib import Path

import pytest

from e2e_support import REPO, ShopApi, ShopServer, make_server_workdir, server_binary, stop_all

DEPLOY = REPO / "deploy"
UNITS = ("juicemaker.service", "juicemaker-backup.service", "juicemaker-backup.timer")
INSTALLED_BINARY = "/usr/local/bin/juicemaker"
CREDENTIAL_PASSWORD = "from-the-credential-pw"  # unlike JUICEMAKER_ADMIN_PASSWORD, which ShopServer also sets


def copy_units(folder: Path, edit=lambda name, text: text) -> list[Path]:
    """The units copied into `folder`, ExecStart pointed at the binary under test, and `edit` applied."""
    copies = []
    for name in UNITS:
        text = (DEPLOY / name).read_text().replace(INSTALLED_BINARY, str(server_binary().resolve()))
        copy = folder / name
        copy.write_text(edit(name, text))
        copies.append(copy)
    return copies


def verify(units: list[Path]) -> subprocess.CompletedProcess:
    return subprocess.run(["systemd-analyze", "verify", "--man=no", *map(str, units)],
                          capture_output=True, text=True, timeout=60)


def test_the_units_pass_systemd_analyze_verify(tmp_path):
    assert server_binary().is_file(), f"build the binary first: {server_binary()}"
    checked = verify(copy_units(tmp_path))
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stdout + checked.stderr


@pytest.mark.parametrize("breakage", [
    lambda name, text: text.replace("Restart=on-failure", "Restart=on-failur"),
    lambda name, text: text.replace("NoNewPrivileges=yes", "NoNewPrivilege=yes"),
    lambda name, text: text.replace(str(server_binary().resolve()), "/nonexistent/juicemaker"),
    lambda name, text: text.replace("OnCalendar=*-*-* 04:00:00", "OnCalendar=every night"),
], ids=["bad-value", "misspelt-setting", "missing-binary", "bad-calendar"])
def test_the_check_fails_a_broken_unit(tmp_path, breakage):
    checked = verify(copy_units(tmp_path, breakage))
    assert checked.returncode != 0 or checked.stdout + checked.stderr != "", "the check must catch this"


def test_the_services_are_hardened(tmp_path):
    """systemd's offline security review rates the exposure 0 (safe) … 10 (unsafe); both stay under 2 (the check counts in tenths), and the
    settings the README promises are there."""
    for unit in copy_units(tmp_path)[:2]:
        review = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=20", str(unit)],
                                capture_output=True, text=True, timeout=60)
        assert review.returncode == 0, review.stdout[-3000:] + review.stderr
    server = (DEPLOY / "juicemaker.service").read_text()
    for setting in ("Restart=on-failure", "NoNewPrivileges=yes", "ProtectSystem=strict", "ReadWritePaths=%S/juicemaker",
                    "StateDirectory=juicemaker", "LoadCredential=admin-password:", "User=juicemaker"):
        assert re.search(rf"^{re.escape(setting)}", server, re.MULTILINE), setting
    bare = tmp_path / "bare.service"
    bare.write_text(f"[Service]\nExecStart={server_binary().resolve()} serve\n")
    review = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=20", str(bare)],
                            capture_output=True, text=True, timeout=60)
    assert review.returncode != 0, "an unhardened unit must fail the same review"


def test_sysusers_makes_the_user_the_units_run_as(tmp_path):
    (tmp_path / "etc").mkdir()
    made = subprocess.run(["systemd-sysusers", f"--root={tmp_path}", str(DEPLOY / "juicemaker.sysusers")],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    user = next(line.split(":") for line in (tmp_path / "etc" / "passwd").read_text().splitlines())
    assert user[0] == "juicemaker" and user[5] == "/var/lib/juicemaker" and user[6] == "/usr/sbin/nologin", user
    for unit in UNITS[:2]:
        assert re.search(r"^User=juicemaker$", (DEPLOY / unit).read_text(), re.MULTILINE), unit


def exec_start(unit: str, specifiers: dict[str, str], setting: str = "ExecStart") -> list[str]:
    """The unit's ExecStart (or `setting`) as the argument list systemd would run: continued lines joined,
    specifiers filled in, `$$` a dollar sign, words split as systemd does (shell-like quoting)."""
    text = re.sub(r"\\\n", " ", (DEPLOY / unit).read_text())
    line = re.search(rf"^{setting}=(.*)$", text, re.MULTILINE).group(1)
    line = re.sub(r"%([%a-zA-Z])", lambda match: specifiers[match.group(1)], line).replace("$$", "$")
    return [word.replace(INSTALLED_BINARY, str(server_binary().resolve())) for word in shlex.split(line)]


def test_the_units_command_lines_run(tmp_path):
    """The server's ExecStart serves the shop from the state directory with the admin password from the
    credential (not the environment's), and the backup's ExecStart writes a dated copy beside it, whose
    ExecStartPost removes copies over 14 days old."""
    state, credentials = tmp_path / "state", tmp_path / "credentials"
    (state / "juicemaker").mkdir(parents=True)
    (state / "juicemaker-backups").mkdir()
    credentials.mkdir()
    (credentials / "admin-password").write_text(CREDENTIAL_PASSWORD + "\n")
    specifiers = {"S": str(state), "d": str(credentials), "%": "%"}
    command = exec_start("juicemaker.service", specifiers)
    assert command[:2] == [str(server_binary().resolve()), "serve"]
    workdir = make_server_workdir()
    shop = ShopServer(binary=server_binary(), workdir=workdir, database_url=str(state / "juicemaker" / "juicemaker.sqlite"),
                      # the unit's options, then a free port instead of its 8080
                      options=(*command[2:], "--port", "0", "--port-file", str(workdir / "port")))
    try:
        shop.start()
        assert ShopApi(shop.url).sign_in(password=CREDENTIAL_PASSWORD).status_code == 200
        assert ShopApi(shop.url).sign_in().status_code == 401, "the credential beats JUICEMAKER_ADMIN_PASSWORD"
        backup = subprocess.run(exec_start("juicemaker-backup.service", specifiers), capture_output=True, text=True,
                                timeout=60)
        assert backup.returncode == 0, backup.stderr
        stale = state / "juicemaker-backups" / "juicemaker-2026-01-01T040000Z.sqlite"
        stale.write_bytes(b"")
        os.utime(stale, (0, 0))
        assert subprocess.run(exec_start("juicemaker-backup.service", specifiers, "ExecStartPost"), timeout=60).returncode == 0
        assert not stale.exists(), "a copy over 14 days old is removed"
        copies = list((state / "juicemaker-backups").glob("juicemaker-*.sqlite"))
        assert len(copies) == 1 and re.fullmatch(r"juicemaker-\d{4}-\d\d-\d\dT\d{6}Z\.sqlite", copies[0].name), copies
        with sqlite3.connect(copies[0]) as copy:
            assert copy.execute("SELECT count(*) FROM session").fetchone()[0] >= 1, "the copy holds the shop"
    finally:
        stop_all([shop])


@pytest.mark.parametrize("content, reason", [("", "is empty"), ("\n", "is empty"), (None, "cannot read")])
def test_a_bad_password_file_stops_the_server(tmp_path, content, reason):
    password_file = tmp_path / "admin-password"
    if content is not None:
        password_file.write_text(content)
    started = subprocess.run([str(server_binary()), "serve", "--port", "0", "--database", str(tmp_path / "shop.sqlite"),
                              "--admin-password-file", str(password_file)], capture_output=True, text=True, timeout=30)
    assert started.returncode == 2 and reason in started.stderr, started.stderr


def test_a_crlf_password_file_keeps_the_password_whole(start_server, tmp_path):
    password_file = tmp_path / "admin-password"
    password_file.write_bytes(b"pass word\r\n")
    shop = start_server("--admin-password-file", str(password_file))
    assert ShopApi(shop.url).sign_in(password="pass word").status_code == 200
