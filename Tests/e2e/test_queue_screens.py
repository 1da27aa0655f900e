"""From button to pickup in real browsers (Korean): a member orders on /home and gets a number; staff
move the order on /kitchen; the member's page and the pickup board follow within a second; a cancel
asks first and puts the fruit back; a tap whose answer was lost is sent again with the same key and
makes one order. In English too for the words.
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e_support import MEMBER_PASSWORD, ShopApi, fruit_stock, login, sign_in_on_current_page

LIVE_MS = 1_000  # every open page follows a change within a second


def sign_up(page, server, username: str, query: str = "") -> None:
    page.goto(server.url + "/signup" + query)
    page.locator("#username").fill(username)
    page.locator("#password").fill(MEMBER_PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").click()


def test_a_member_order_goes_from_the_button_to_pickup_on_every_screen(new_page, server):
    member = new_page(viewport={"width": 390, "height": 844})
    sign_up(member, server, "jimin")
    staff = new_page(viewport={"width": 1280, "height": 800})
    login(staff, server)
    staff.goto(server.url + "/kitchen")
    expect(staff.locator("#no-orders")).to_be_visible()
    board = new_page(viewport={"width": 1280, "height": 720})
    board.goto(server.url + "/board")
    expect(board.get_by_role("heading", name="준비 중")).to_be_visible()
    expect(board.get_by_role("heading", name="픽업하세요")).to_be_visible()
    expect(member.locator("#queue-wait")).to_have_text(re.compile(r"^대기 0잔 · 약 \d+분$"))
    before = fruit_stock(server)

    member.get_by_role("button", name="딸바쥬스 주문").click()
    expect(member.locator("#order-result")).to_have_text("1번 딸바쥬스 주문이 접수되었어요.")
    mine = member.locator('#my-queue li[data-order-id]')
    expect(mine).to_have_text(re.compile(r"1번 딸바쥬스 · 접수"))
    assert fruit_stock(server)["strawberry"] == before["strawberry"] - 10, "the fruit is taken when the order is accepted"

    card = staff.locator(".ticket")
    expect(card).to_have_count(1, timeout=LIVE_MS)
    expect(card).to_have_class(re.compile(r"\bfresh\b"))
    expect(card.locator(".ticket-number")).to_have_text("1번")
    expect(card.locator(".ticket-juice")).to_have_text("딸바쥬스 ×1")
    expect(card.locator(".ticket-recipe")).to_contain_text("딸기 10")
    expect(card.locator(".ticket-age")).to_have_text(re.compile(r"분 \d+초 전 접수"))
    expect(board.locator("#preparing li")).to_have_text(["1"], timeout=LIVE_MS)

    card.get_by_role("button", name="제조 시작").click()
    expect(card.locator(".ticket-status")).to_have_text("제조 중")
    expect(mine).to_have_text(re.compile("제조 중"), timeout=LIVE_MS)
    expect(mine.get_by_role("button")).to_have_count(0)  # a member cancels only while received

    card.get_by_role("button", name="제조 완료").click()
    expect(board.locator("#ready li")).to_have_text(["1"], timeout=LIVE_MS)
    expect(board.locator("#preparing li")).to_have_count(0)
    expect(member.locator("#ready-banner")).to_have_text("1번 주문이 준비되었어요!", timeout=LIVE_MS)
    expect(member.locator("#ready-banner")).to_be_visible()

    card.get_by_role("button", name="픽업 완료").click()
    expect(staff.locator(".ticket")).to_have_count(0)
    expect(board.locator("#ready li")).to_have_count(0, timeout=LIVE_MS)
    expect(mine).to_have_count(0, timeout=LIVE_MS)
    order = ShopApi(server.url).get("/api/orders/1").json()
    assert order["status"] == "pickedUp" and order["number"] == 1 and order["pickup"] is True


def test_staff_cancel_asks_first_and_puts_the_fruit_back(new_page, server):
    api = ShopApi.signed_in_as_admin(server.url)
    before = fruit_stock(server)
    api.post("/api/orders", json={"juice": "mangoKiwiJuice", "pickup": True})
    staff = new_page()
    login(staff, server)
    staff.goto(server.url + "/kitchen")
    card = staff.locator(".ticket")
    cancel = card.get_by_role("button", name="취소")
    cancel.click()
    dialog = staff.locator("#cancel-dialog")
    expect(dialog).to_have_attribute("open", "")
    expect(dialog).to_contain_text("1번 망키쥬스 ×1 주문을 취소할까요?")
    dialog.get_by_role("button", name="아니오").click()
    expect(dialog).not_to_have_attribute("open", "")
    expect(cancel).to_be_focused()
    expect(card).to_have_count(1)

    cancel.click()
    dialog.get_by_role("button", name="예").click()
    expect(staff.locator(".ticket")).to_have_count(0)
    assert fruit_stock(server) == before, "the recipe's fruit is back, exactly"
    assert api.get("/api/orders/1").json()["status"] == "cancelled"


def test_a_member_cancels_their_order_while_it_is_received(new_page, server):
    member = new_page()
    sign_up(member, server, "minho")
    before = fruit_stock(server)
    member.get_by_role("button", name="키위쥬스 주문").click()
    mine = member.locator("#my-queue li")
    expect(mine).to_have_text(re.compile("접수"))
    mine.get_by_role("button", name=re.compile("취소")).click()
    expect(member.locator("#order-result")).to_have_text("1번 주문을 취소했어요.")
    expect(mine).to_have_count(0)
    assert fruit_stock(server) == before


def test_the_member_is_notified_when_their_order_is_ready(new_page, server):
    member = new_page(permissions=["notifications"])
    member.add_init_script("""
        window.shown = [];
        window.Notification = class { constructor(title, options) { window.shown.push(title); } };
        Notification.permission = "granted";
        Notification.requestPermission = async () => "granted";
    """)
    sign_up(member, server, "sora")
    member.get_by_role("button", name="바나나쥬스 주문").click()
    expect(member.locator("#my-queue li")).to_have_count(1)
    ShopApi.signed_in_as_admin(server.url).post("/api/orders/1/status", json={"status": "ready"})
    expect(member.locator("#ready-banner")).to_have_text("1번 주문이 준비되었어요!", timeout=LIVE_MS)
    assert member.evaluate("window.shown") == ["1번 주문이 준비되었어요!"]


def test_a_tap_whose_answer_was_lost_is_retried_with_its_key_and_orders_once(new_page, server):
    member = new_page()
    sign_up(member, server, "hana")
    keys = []

    def lose_the_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the server takes the order …
            route.abort("connectionreset")  # … and its answer never arrives
        else:
            route.continue_()

    member.route("**/api/orders", lose_the_first_answer)
    member.get_by_role("button", name="망고쥬스 주문").click()
    expect(member.locator("#order-result")).to_have_text("1번 망고쥬스 주문이 접수되었어요.")
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1], keys
    orders = ShopApi(server.url).get("/api/orders").json()
    assert [order["juice"] for order in orders] == ["mangoJuice"], "one tap, one order"
    member.get_by_role("button", name="망고쥬스 주문").click()
    expect(member.locator("#order-result")).to_have_text("2번 망고쥬스 주문이 접수되었어요.")
    assert keys[2] != keys[0], "a new tap sends a new key"


def test_a_card_turns_late_after_five_minutes(new_page, server):
    staff = new_page()
    login(staff, server)
    staff.clock.install()
    ShopApi(server.url).post("/api/orders", json={"juice": "kiwiJuice", "pickup": True})
    staff.goto(server.url + "/kitchen")
    card = staff.locator(".ticket")
    expect(card).not_to_have_class(re.compile(r"\blate\b"))
    staff.clock.fast_forward("05:10")
    expect(card).to_have_class(re.compile(r"\blate\b"))
    expect(card.locator(".ticket-age")).to_have_text(re.compile(r"^5분 1\d초 전 접수$"))


def test_the_kitchen_sends_everyone_but_staff_to_sign_in(new_page, server):
    guest = new_page()
    guest.goto(server.url + "/kitchen")
    assert guest.url.endswith("/login?next=%2Fkitchen")
    member = new_page()
    sign_up(member, server, "yuna")
    member.goto(server.url + "/kitchen")
    assert "/login?next=%2Fkitchen" in member.url


def test_the_queue_screens_speak_english(new_page, server):
    ShopApi(server.url).post("/api/orders", json={"juice": "kiwiJuice", "pickup": True})
    board = new_page(locale="en-US")
    board.goto(server.url + "/board?lang=en")
    expect(board.get_by_role("heading", name="Preparing")).to_be_visible()
    expect(board.get_by_role("heading", name="Please pick up")).to_be_visible()
    staff = new_page(locale="en-US")
    staff.goto(server.url + "/login?lang=ko")  # the helper fills the Korean form
    sign_in_on_current_page(staff)
    staff.goto(server.url + "/kitchen?lang=en")
    card = staff.locator(".ticket")
    expect(card.locator(".ticket-number")).to_have_text("No. 1")
    expect(card.get_by_role("button", name="Start making")).to_be_visible()
    member = new_page(locale="en-US")
    sign_up(member, server, "emma", "?lang=en")
    expect(member.locator("#queue-wait")).to_have_text(re.compile(r"^1 ahead · about \d+ min$"))
