"""Shared helpers for the vending machine's end-to-end tests (API, load and screen).

A new machine holds five of each of nine products, has a balance of 0 won, and takes 100, 500, 1,000,
5,000 and 10,000 won up to a balance of 50,000 won.
"""
from __future__ import annotations

import requests

from e2e_support import ShopApi, day

PRODUCTS = ["strawberryMilk", "chocolateMilk", "bananaMilk", "cola", "cider", "fanta", "top", "cantata", "georgia"]
KINDS = {
    "strawberryMilk": "milk", "chocolateMilk": "milk", "bananaMilk": "milk",
    "cola": "soda", "cider": "soda", "fanta": "soda",
    "top": "coffee", "cantata": "coffee", "georgia": "coffee",
}
HOT_ON_A_NEW_MACHINE = {"cantata", "georgia"}
START_STOCK = 5
DENOMINATIONS = [10_000, 5_000, 1_000, 500, 100]
BALANCE_CAP = 50_000
MAX_RESTOCK = 1_000


def fewest_units(amount: int) -> dict[str, int]:
    """The fewest bills and coins that make `amount`, keyed by the denomination as a string."""
    units = {}
    for unit in DENOMINATIONS:
        if amount >= unit:
            units[str(unit)] = amount // unit
            amount %= unit
    assert amount == 0, "amount is not a multiple of 100"
    return units


def days_ago(days: int) -> str:
    return day(-days)


class VendingApi(ShopApi):
    """The vending machine's API."""

    timeout = 10  # seconds a request may take (ShopApi allows 15)

    # --- the machine -------------------------------------------------------------------------

    def machine(self) -> dict:
        """GET /api/vending, which must answer 200 with a JSON object."""
        response = self.get("/api/vending")
        assert response.status_code == 200, f"GET /api/vending answered {response.status_code}: {response.text[:500]}"
        body = response.json()
        assert isinstance(body, dict), f"GET /api/vending is not an object: {body!r}"
        return body

    def products(self) -> dict[str, dict]:
        return {product["id"]: product for product in self.machine()["products"]}

    def prices(self) -> dict[str, int]:
        return {id: product["price"] for id, product in self.products().items()}

    def stock(self) -> dict[str, int]:
        """The machine's cans by product (ShopApi.stock is the juice bar's fruit)."""
        return {id: product["stock"] for id, product in self.products().items()}

    def balance(self) -> int:
        return self.machine()["balance"]

    def totals(self) -> dict:
        return self.machine()["totals"]

    def history(self) -> list:
        return self.list_at("/api/vending/history")

    def sales(self) -> list:
        return self.list_at("/api/vending/sales")

    def purchasable(self) -> list:
        return self.list_at("/api/vending/purchasable")

    def expired(self) -> list:
        return self.list_at("/api/vending/expired")

    def hot(self) -> list:
        return self.list_at("/api/vending/hot")

    # --- operations (the raw response; the caller checks it) ----------------------------------

    def insert(self, amount) -> requests.Response:
        return self.post("/api/vending/money", json={"amount": amount})

    def buy(self, product) -> requests.Response:
        return self.post("/api/vending/purchases", json={"product": product})

    def change(self) -> requests.Response:
        return self.post("/api/vending/change")

    def restock(self, product, count, manufactured: str | None = None) -> requests.Response:
        body = {"product": product, "count": count}
        if manufactured is not None:
            body["manufactured"] = manufactured
        return self.post("/api/vending/stock", json=body)

    # --- operations that must succeed --------------------------------------------------------

    def insert_ok(self, *amounts: int) -> dict:
        body = None
        for amount in amounts:
            response = self.insert(amount)
            assert response.status_code == 200, f"inserting {amount} answered {response.status_code}: {response.text[:500]}"
            body = response.json()
        return body

    def buy_ok(self, product: str) -> dict:
        response = self.buy(product)
        assert response.status_code == 201, f"buying {product} answered {response.status_code}: {response.text[:500]}"
        return response.json()

    def restock_ok(self, product: str, count: int, manufactured: str | None = None) -> dict:
        response = self.restock(product, count, manufactured)
        assert response.status_code == 200, (
            f"restocking {count} {product} answered {response.status_code}: {response.text[:500]}")
        return response.json()
