"""JuiceMaker's HTTP API, checked with plain HTTP requests against a real server (no browser)."""
from __future__ import annotations

import queue
import re
import time

import pytest

from e2e_support import (JUICES, SEED_STOCK, ServerProblem, ShopApi, assert_error, assert_sign_in_cookies,
                         open_live_stream, read_lines_into)


class Api(ShopApi):
    """The juice shop's API."""

    timeout = 10  # seconds a request may take (ShopApi allows 15)


@pytest.fixture
def api_client_class():
    """The class of the `api` and `staff` clients (conftest.py)."""
    return Api


# --- service endpoints ---------------------------------------------------------------------------

def test_health_answers_200(api):
    assert api.get("/health").status_code == 200


def test_metrics_are_exposed_as_text(api):
    response = api.get("/metrics")
    assert response.status_code == 200
    metric_line = re.compile(r"^[A-Za-z_:][A-Za-z0-9_:]*(\{[^}]*\})?\s+\S+", re.MULTILINE)
    assert metric_line.search(response.text), f"no metric line in /metrics:\n{response.text[:1000]}"


def test_openapi_document_is_served(api):
    response = api.get("/openapi.yaml")
    assert response.status_code == 200
    assert "openapi:" in response.text


# --- reading the shop ----------------------------------------------------------------------------

def test_menu_lists_the_seven_juices(api):
    response = api.get("/api/menu")
    assert response.status_code == 200
    body = response.json()
    juices = body["juices"] if isinstance(body, dict) else body
    assert isinstance(juices, list), f"no list of juices in {body}"
    assert sorted(juice["id"] for juice in juices) == sorted(JUICES)


def test_new_shop_has_ten_of_each_fruit(api):
    assert api.stock() == SEED_STOCK


def test_orders_are_a_list(api):
    response = api.get("/api/orders")
    assert response.status_code == 200
    assert isinstance(response.json(), list)


# --- ordering ------------------------------------------------------------------------------------

def test_ordering_mango_juice_uses_three_mangoes(api):
    orders_before = len(api.get("/api/orders").json())

    response = api.post("/api/orders", json={"juice": "mangoJuice"})

    assert response.status_code == 201, response.text
    body = response.json()
    assert "order" in body and "stock" in body, body
    assert body["stock"]["mango"] == 7
    assert api.stock() == {**SEED_STOCK, "mango": 7}
    assert len(api.get("/api/orders").json()) == orders_before + 1


def test_order_short_of_strawberries_is_refused_with_the_shortage(api):
    response = api.post("/api/orders", json={"juice": "strawberryJuice"})

    body = assert_error(response, 409)
    assert body["error"] == "out_of_stock"
    shortages = body["shortages"]
    assert len(shortages) == 1, shortages
    assert {key: shortages[0].get(key) for key in ("fruit", "needed", "available")} == {
        "fruit": "strawberry", "needed": 16, "available": 10}
    assert api.stock() == SEED_STOCK


def test_ordering_an_unknown_juice_is_refused(api):
    assert_error(api.post("/api/orders", json={"juice": "dragonfruitJuice"}), 404, 422)
    assert api.stock() == SEED_STOCK


def test_order_with_malformed_json_is_400(api):
    response = api.post("/api/orders", data='{"juice": ', headers={"Content-Type": "application/json"})
    assert_error(response, 400)
    assert api.stock() == SEED_STOCK


@pytest.mark.parametrize("body", [{}, {"juic": "mangoJuice"}], ids=["empty-object", "misspelt-field"])
def test_order_without_a_juice_field_is_refused(api, body):
    assert_error(api.post("/api/orders", json=body), 400, 422)
    assert api.stock() == SEED_STOCK


# --- staff sessions and stock edits ---------------------------------------------------------------

def test_stock_edit_without_a_session_is_401(api):
    assert_error(api.put("/api/stock/kiwi", json={"count": 5}), 401)
    assert api.stock() == SEED_STOCK


def test_sign_in_sets_an_httponly_samesite_lax_cookie(api):
    response = api.sign_in()

    assert response.status_code == 200, response.text
    assert_sign_in_cookies(response)


def test_sign_in_with_a_wrong_password_is_401(api):
    assert_error(api.sign_in(password="not-the-password"), 401)
    assert_error(api.put("/api/stock/kiwi", json={"count": 5}), 401)
    assert api.stock() == SEED_STOCK


def test_staff_can_set_a_fruit_count(staff):
    response = staff.put("/api/stock/kiwi", json={"count": 5})

    assert response.status_code == 200, response.text
    assert staff.stock() == {**SEED_STOCK, "kiwi": 5}


@pytest.mark.parametrize("count", [0, 1_000_000])
def test_staff_can_set_a_count_at_the_limits(staff, count):
    assert staff.put("/api/stock/kiwi", json={"count": count}).status_code == 200
    assert staff.stock()["kiwi"] == count


@pytest.mark.parametrize("count", [-1, 1_000_001, "abc", None, 2.5],
                         ids=["negative", "over-a-million", "text", "null", "fraction"])
def test_staff_stock_edit_with_a_bad_count_is_refused(staff, count):
    assert_error(staff.put("/api/stock/kiwi", json={"count": count}), 400, 422)
    assert staff.stock() == SEED_STOCK


def test_staff_stock_edit_with_malformed_json_is_400(staff):
    response = staff.put("/api/stock/kiwi", data='{"count": ', headers={"Content-Type": "application/json"})
    assert_error(response, 400)
    assert staff.stock() == SEED_STOCK


def test_staff_stock_edit_of_an_unknown_fruit_is_refused(staff):
    assert_error(staff.put("/api/stock/dragonfruit", json={"count": 5}), 404, 422)
    assert staff.stock() == SEED_STOCK


def test_signing_out_ends_the_session(staff):
    assert staff.delete("/api/session").status_code in (200, 204)

    assert_error(staff.put("/api/stock/kiwi", json={"count": 5}), 401)
    assert staff.stock() == SEED_STOCK


# --- live updates (server-sent events) ------------------------------------------------------------

def test_live_stream_sends_the_new_stock_after_an_order(server, api):
    with open_live_stream(server) as stream:
        assert stream.status_code == 200
        assert stream.headers.get("Content-Type", "").startswith("text/event-stream")
        lines: queue.Queue = queue.Queue()
        read_lines_into(stream, lines)

        assert api.post("/api/orders", json={"juice": "bananaJuice"}).status_code == 201

        deadline = time.monotonic() + 2
        seen = []
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                break
            seen.append(line)
            compact = line.replace(" ", "")
            if line.startswith("data:") and "stock" in line and '"banana":8' in compact:
                return
        pytest.fail("no `data:` line with the stock after the order (banana 8) within 2 s; lines seen:\n"
                    + "\n".join(seen))


def test_sigterm_stops_the_server_within_10s_even_with_a_live_stream_open(server):
    with open_live_stream(server) as stream:
        assert stream.status_code == 200
        read_lines_into(stream, queue.Queue())
        problem = None
        try:
            server.stop()
        except ServerProblem as error:
            problem = str(error)
    if problem:
        pytest.fail(problem, pytrace=False)
    assert server.exit_seconds <= 10
