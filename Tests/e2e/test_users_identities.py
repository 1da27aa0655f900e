"""`juicemaker users list` (text and --json) and `GET /api/me` show which members have a linked Kakao
identity and which have no password yet. The link is written straight into the shop's SQLite file,
as a Kakao sign-in would leave it (test_kakao_login drives the real flow)."""
import json
import sqlite3

KAKAO = "https://kauth.kakao.com"


def test_users_list_and_the_account_answer_show_the_kakao_link(server, make_member):
    linked = make_member("kakaolinked", name="카카오")
    make_member("plainmember")
    with sqlite3.connect(server.database) as db:
        (account_id,) = db.execute("SELECT id FROM account WHERE username = 'kakaolinked'").fetchone()
        db.execute("INSERT INTO account_identity (issuer, subject, account_id, linked_at) VALUES (?, '4242', ?, 0)",
                   (KAKAO, account_id))
        # A member made by a Kakao sign-in: no password.
        db.execute("INSERT INTO account (username, name, password_hash, role, created_at) "
                   "VALUES ('kakao_4343', '민수', NULL, 'member', 0)")
        db.execute("INSERT INTO account_identity (issuer, subject, account_id, linked_at) "
                   "VALUES (?, '4343', last_insert_rowid(), 0)", (KAKAO,))

    listed = json.loads(server.cli("users", "list", "--json", check=True).stdout)
    accounts = {account["username"]: account for account in listed}
    assert accounts["kakaolinked"]["identities"] == [KAKAO] and accounts["kakaolinked"]["hasPassword"] is True
    assert accounts["plainmember"]["identities"] == [] and accounts["plainmember"]["hasPassword"] is True
    assert accounts["kakao_4343"]["identities"] == [KAKAO] and accounts["kakao_4343"]["hasPassword"] is False

    text = server.cli("users", "list", check=True).stdout
    columns = {line.split("\t")[0]: line.split("\t") for line in text.splitlines()}
    assert columns["kakaolinked"][1:] == ["member", "카카오", "kakao"], text
    assert columns["plainmember"][3] == "-" and columns["admin"][3] == "-", text
    assert columns["kakao_4343"][1:] == ["member", "민수", "kakao"], text

    me = linked.get("/api/me").json()
    assert me["identities"] == [KAKAO] and me["hasPassword"] is True
