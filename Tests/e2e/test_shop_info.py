"""The shop's info its receipts print (상호, 사업자등록번호, address, phone), end to end: `juicemaker shop info`
sets any of its fields on a running server's shop, `GET /api/shop` shows it to anyone at once, staff change it
with `PATCH /api/shop`, and a business number whose check digit is wrong is refused by both, in one line from
the CLI and in the reader's language from the API, with nothing changed.

Runs on SQLite, and on PostgreSQL too when $JUICEMAKER_TEST_POSTGRES_URL is set (scripts/test-postgres).
"""
from __future__ import annotations

import json

import requests

from e2e_support import ShopApi
from test_shop_time_zone import database_url  # noqa: F401  (the engines' fixture)
from test_postgres_instances import postgres_admin_url, postgres_database  # noqa: F401

GANGNAM = {"name": "쥬스메이커 강남점", "businessNumber": "124-81-00998",
           "address": "서울특별시 강남구 테헤란로 1", "phone": "02-123-4567"}


def test_the_cli_sets_the_info_a_running_server_shows_and_staff_change_it(start_server, database_url):
    server = start_server(database_url=database_url)
    guest = f"{server.url}/api/shop"
    assert requests.get(guest, timeout=5).json() == {
        "name": "JuiceMaker", "businessNumber": None, "address": None, "phone": None}

    set_by_cli = server.cli("shop", "info", "--name", GANGNAM["name"], "--business-number", "1248100998",
                            "--address", GANGNAM["address"], "--phone", GANGNAM["phone"])
    assert set_by_cli.returncode == 0, set_by_cli.stderr
    assert requests.get(guest, timeout=5).json() == GANGNAM, "the server reads what the CLI stored"
    assert json.loads(server.cli("shop", "info", "--json").stdout) == GANGNAM

    staff = ShopApi.signed_in_as_admin(server.url)
    moved = staff.request("PATCH", "/api/shop", json={"address": "서울특별시 마포구 양화로 45", "phone": ""})
    assert moved.status_code == 200, moved.text
    assert moved.json() == {**GANGNAM, "address": "서울특별시 마포구 양화로 45", "phone": None}
    assert "주소: 서울특별시 마포구 양화로 45" in server.cli("shop", "info").stdout


def test_a_wrong_check_digit_is_refused_by_the_cli_and_the_api_and_changes_nothing(start_server, database_url):
    server = start_server(database_url=database_url)
    assert server.cli("shop", "info", "--name", GANGNAM["name"]).returncode == 0

    refused = server.cli("shop", "info", "--name", "새 이름", "--business-number", "124-81-00999")
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "검증번호" in lines[0], refused.stderr

    staff = ShopApi.signed_in_as_admin(server.url)
    for language, words in [("ko", "검증번호"), ("en", "check digit")]:
        answer = staff.request("PATCH", f"/api/shop?lang={language}", json={"businessNumber": "1248100999"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"] == "bad_business_number" and words in answer.json()["message"], answer.text
    guest = ShopApi(server.url)
    assert guest.request("PATCH", "/api/shop", json={"name": "손님 가게"}).status_code == 401
    assert requests.get(f"{server.url}/api/shop", timeout=5).json()["name"] == GANGNAM["name"], "nothing changed"
