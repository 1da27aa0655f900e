"""Selling by the cup through the API (issue 51): a cart is one order with one number, priced by the
server from the menu, its fruit taken together; paid at the counter (cash with change, card, transfer)
or later; a cancel returns the fruit and records a refund; a price change never touches a past order;
every refusal answered with its code in the reader's language, with nothing stored. Against a real
server, with plain HTTP.
"""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from e2e_support import assert_error

HANGUL = re.compile(r"[\uac00-\ud7a3]")
LARGE_LESS_ICE = {"size": ["large"], "ice": ["less"]}
# 2 × 딸바쥬스 라지/얼음 적게 ((6,000 + 1,000) × 2) and 1 × 망키쥬스 (6,500).
CART = [
    {"juice": "strawberryBananaJuice", "quantity": 2, "options": LARGE_LESS_ICE},
    {"juice": "mangoKiwiJuice", "quantity": 1},
]
CART_TOTAL = 20_500
CART_VAT = CART_TOTAL - round(CART_TOTAL / 1.1)


def deliver(staff, **counts):
    for fruit, count in counts.items():
        response = staff.put(f"/api/stock/{fruit}", json={"count": count})
        assert response.status_code == 200, response.text


def order(client, lines, **fields):
    return client.post("/api/orders", json={"lines": lines, **fields})


def state(client):
    return client.get("/api/stock").json(), client.get("/api/orders").json()


def test_a_cart_is_one_order_priced_by_the_menu_and_a_cancel_refunds_it(staff):
    deliver(staff, strawberry=100)
    menu = {juice["id"]: juice for juice in staff.get("/api/menu").json()["juices"]}
    large = next(o for o in menu["strawberryBananaJuice"]["optionGroups"][0]["options"] if o["id"] == "large")
    assert (menu["strawberryBananaJuice"]["price"] + large["price"]) * 2 + menu["mangoKiwiJuice"]["price"] == CART_TOTAL

    response = order(staff, CART, pickup=True, expectedTotal=CART_TOTAL, payment={"method": "cash", "received": 30_000})
    assert response.status_code == 201, response.text
    sold = response.json()["order"]
    assert sold["number"] == 1 and sold["total"] == CART_TOTAL and sold["vat"] == CART_VAT == 1_864
    assert [(line["juice"], line["quantity"], line["unitPrice"], line["amount"]) for line in sold["lines"]] == [
        ("strawberryBananaJuice", 2, 7_000, 14_000), ("mangoKiwiJuice", 1, 6_500, 6_500)]
    assert [(o["group"], o["id"], o["name"]["ko"], o["price"]) for o in sold["lines"][0]["options"]] == [
        ("size", "large", "라지", 1_000), ("ice", "less", "적게", 0), ("sweetness", "normal", "기본", 0)]
    assert sold["payment"]["method"] == "cash" and sold["payment"]["received"] == 30_000
    assert sold["payment"]["change"] == 9_500 and sold["payment"]["amount"] == CART_TOTAL
    # A large cup takes half as much fruit again, rounded up: 15 strawberries and 2 bananas a cup.
    assert response.json()["stock"] == {"strawberry": 70, "banana": 6, "pineapple": 10, "kiwi": 9, "mango": 8}
    assert staff.get(f"/api/orders/{sold['id']}").json() == sold

    cancelled = staff.post(f"/api/orders/{sold['id']}/cancel")
    assert cancelled.status_code == 200, cancelled.text
    refund = cancelled.json()["refund"]
    assert refund["method"] == "cash" and refund["amount"] == CART_TOTAL
    assert staff.get("/api/stock").json() == {"strawberry": 100, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10}


def test_a_price_change_leaves_past_orders_and_refuses_a_stale_total(staff):
    first = order(staff, CART[1:], payment={"method": "card", "approval": "30012345"})
    assert first.status_code == 201, first.text
    before = first.json()["order"]
    changed = staff.request("PATCH", "/api/menu/juices/mangoKiwiJuice", json={"price": 7_000})
    assert changed.status_code == 200, changed.text

    assert staff.get(f"/api/orders/{before['id']}").json() == before
    stale = order(staff, CART[1:], expectedTotal=6_500)
    body = assert_error(stale, 409, code="price_changed")
    assert body["total"] == 7_000
    after = order(staff, CART[1:], expectedTotal=7_000)
    assert after.status_code == 201 and after.json()["order"]["total"] == 7_000


def test_an_app_order_is_paid_later_at_the_counter(server, staff, make_member):
    member = make_member("sora", name="소라")
    refused = order(member, CART[1:], pickup=True, payment={"method": "cash"})
    assert_error(refused, 403)
    placed = order(member, CART[1:], pickup=True)
    assert placed.status_code == 201, placed.text
    unpaid = placed.json()["order"]
    assert "payment" in unpaid and unpaid["payment"] is None

    assert_error(member.post(f"/api/orders/{unpaid['id']}/payment", json={"method": "cash"}), 403)
    assert_error(staff.post(f"/api/orders/{unpaid['id']}/payment", json={"method": "cash", "received": 6_000}),
                 422, code="not_enough_cash")
    paid = staff.post(f"/api/orders/{unpaid['id']}/payment", json={"method": "cash", "received": 10_000},
                      headers={"Idempotency-Key": "pay-1"})
    assert paid.status_code == 200, paid.text
    assert paid.json()["payment"]["change"] == 3_500
    replayed = staff.post(f"/api/orders/{unpaid['id']}/payment", json={"method": "cash", "received": 10_000},
                          headers={"Idempotency-Key": "pay-1"})
    assert replayed.status_code == 200 and replayed.json() == paid.json()
    assert_error(staff.post(f"/api/orders/{unpaid['id']}/payment", json={"method": "card"}), 409, code="already_paid")
    assert_error(staff.post("/api/orders/999999/payment", json={"method": "card"}), 404)


REFUSALS = [
    ("unknown juice", [{"juice": "lemonJuice"}], {}, 404, "unknown_juice"),
    ("unknown option", [{"juice": "kiwiJuice", "options": {"size": ["huge"]}}], {}, 422, "unknown_option"),
    ("unknown group", [{"juice": "kiwiJuice", "options": {"topping": ["pearl"]}}], {}, 422, "unknown_option"),
    ("required group left empty", [{"juice": "kiwiJuice", "options": {"size": []}}], {}, 422, "options_required"),
    ("two in a one-choice group", [{"juice": "kiwiJuice", "options": {"ice": ["normal", "less"]}}], {}, 422,
     "too_many_options"),
    ("quantity 0", [{"juice": "kiwiJuice", "quantity": 0}], {}, 422, "bad_quantity"),
    ("quantity 100", [{"juice": "kiwiJuice", "quantity": 100}], {}, 422, "bad_quantity"),
    ("no lines", [], {}, 422, "bad_quantity"),
    ("21 lines", [{"juice": "bananaJuice"}] * 21, {}, 422, "bad_quantity"),
    ("cash below the total", [{"juice": "kiwiJuice"}], {"payment": {"method": "cash", "received": 4_999}}, 422,
     "not_enough_cash"),
    ("an approval number that is not one", [{"juice": "kiwiJuice"}],
     {"payment": {"method": "card", "approval": "12 34"}}, 422, "bad_payment"),
    ("a stale total", [{"juice": "kiwiJuice"}], {"expectedTotal": 4_000}, 409, "price_changed"),
    ("more than the stock", [{"juice": "strawberryJuice"}], {}, 409, "out_of_stock"),
]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_every_refusal_has_its_code_in_the_readers_language_and_stores_nothing(staff, language):
    staff.request("PATCH", "/api/menu/juices/mangoJuice", json={"soldOut": True})
    before = state(staff)
    for name, lines, fields, status, code in REFUSALS + [("품절", [{"juice": "mangoJuice"}], {}, 409, "sold_out")]:
        response = staff.post("/api/orders", json={"lines": lines, **fields}, headers={"Accept-Language": language})
        body = assert_error(response, status, code=code)
        # Amounts read 4,999원 in both languages, as the vending machine's do.
        said = body["message"].replace("원", "")
        assert bool(HANGUL.search(said)) == (language == "ko"), f"{name}: {body['message']}"
        assert state(staff) == before, f"{name} changed something"


def test_concurrent_carts_keep_stock_and_money_whole(staff):
    """Many tills at once: every accepted cart took exactly its lines' fruit, none went below zero, and
    the cash taken is the accepted totals."""
    deliver(staff, strawberry=200, banana=40, mango=30, kiwi=30, pineapple=30)
    start = staff.get("/api/stock").json()
    carts = [CART, CART[1:], [{"juice": "kiwiJuice", "quantity": 3, "options": {"size": ["large"]}}],
             [{"juice": "bananaJuice", "quantity": 2}, {"juice": "pineappleJuice"}]] * 15

    def sell(lines):
        return order(staff, lines, payment={"method": "cash", "received": 100_000})

    with ThreadPoolExecutor(max_workers=12) as pool:
        answers = list(pool.map(sell, carts))
    accepted = [a.json()["order"] for a in answers if a.status_code == 201]
    assert all(a.status_code in (201, 409) for a in answers), {a.status_code for a in answers}
    assert accepted and len(accepted) < len(carts), "some carts sold, the stock ran out for others"
    end = staff.get("/api/stock").json()
    assert min(end.values()) >= 0
    used = {fruit: 0 for fruit in start}
    for sold in accepted:
        for line in sold["lines"]:
            for use in line["uses"]:
                used[use["fruit"]] += use["amount"]
    assert {fruit: start[fruit] - end[fruit] for fruit in start} == used
    assert sorted(o["number"] for o in accepted) == list(range(1, len(accepted) + 1))
    assert sum(o["payment"]["amount"] for o in accepted) == sum(o["total"] for o in accepted)
    assert all(o["payment"]["change"] == 100_000 - o["total"] for o in accepted)
    stored = {o["id"]: o for o in staff.get("/api/orders").json()}
    assert all(stored[o["id"]] == o for o in accepted)
