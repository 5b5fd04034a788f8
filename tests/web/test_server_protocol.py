"""Bad client messages are refused with an error to that client only, and
change nothing: malformed JSON, unknown types and actions, an action for
another seat or out of turn, wrong hand ids and sequence numbers, oversized
messages (issue 7)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from web_harness import Player, ServerThread, create_table, drain, join


def _setup(server: ServerThread) -> tuple[str, list[tuple[int, str]], str]:
    tid, host = create_table(server.url, game="sdr", seats=3, bots=1, bot_delay=0.05,
                             between_hands=30, decision_seconds=60)
    seats = [join(server.url, tid, "Ann"), join(server.url, tid, "Bob")]
    return tid, seats, host


def _store_counts(server: ServerThread, tid: str) -> tuple[int, int]:
    db = server.manager.store.db
    actions = db.execute("SELECT COUNT(*) FROM actions WHERE table_id=?", (tid,)).fetchone()[0]
    hands = db.execute("SELECT COUNT(*) FROM hands WHERE table_id=?", (tid,)).fetchone()[0]
    return int(actions), int(hands)


async def _expect_error(p: Player, other: Player, msg: Any, code: str) -> dict[str, Any]:
    seq_before = p.state["seq"] if p.state else None
    await p.send(msg)
    reply = await p.recv(5)
    while reply["type"] == "state":  # a state queued before the error (e.g. a bot acted)
        reply = await p.recv(5)
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    assert reply["message"]
    del seq_before
    return reply


def test_bad_messages_are_refused_and_change_nothing(server: ServerThread) -> None:
    tid, ((s_a, tok_a), (s_b, tok_b)), host = _setup(server)

    async def scenario() -> None:
        async with Player(server.ws_url, tid, tok_a, host) as a, \
                Player(server.ws_url, tid, tok_b) as b:
            await a.until(lambda st: st["you"]["seat"] == s_a)
            await b.until(lambda st: st["you"]["seat"] == s_b)
            await a.send({"type": "start", "seq": a.state["seq"]})
            # Wait until one of the two friends must act (the bot acts by itself).
            st = await a.until(lambda st: st["hand"] is not None
                               and st["hand"]["to_act"] and st["hand"]["to_act"][0] in (s_a, s_b))
            # Nothing changes until that friend acts: both have heard of it.
            await b.until(lambda st, seq=st["seq"]: st["seq"] >= seq)
            await drain(b, 0.2)
            await drain(a, 0.2)
            hand = a.state["hand"]
            actor, waiter = (a, b) if hand["to_act"] == [s_a] else (b, a)
            seq = a.state["seq"]
            hand_no = hand["hand_no"]
            counts = _store_counts(server, tid)
            played = len(server.manager.store.load_actions(tid, hand_no))
            seen_by_waiter = len(waiter.messages)

            good = {"type": "action", "hand": hand_no, "seq": seq, "action": {"kind": "call"}}
            legal = actor.state["hand"]["legal"]["actions"]
            good["action"] = {"kind": "call" if "call" in legal else "check"}
            cases: list[tuple[Any, str]] = [
                ("{not json", "malformed"),
                ("[1, 2, 3]", "malformed"),
                ('"just a string"', "malformed"),
                ({"type": "dance"}, "unknown_type"),
                ({"hand": hand_no, "seq": seq}, "unknown_type"),
                ({"type": "action", "hand": hand_no, "seq": seq}, "malformed"),
                ({"type": "action", "hand": "one", "seq": seq, "action": {"kind": "call"}},
                 "malformed"),
                ({"type": "action", "hand": hand_no, "seq": -1, "action": {"kind": "call"}},
                 "malformed"),
                ({**good, "action": {"kind": "shove"}}, "unknown_action"),
                ({**good, "action": {"kind": "raise", "to": "lots"}}, "malformed"),
                ({**good, "action": {"kind": "raise", "to": 10**9}}, "illegal"),
                ({**good, "action": {"kind": "discard", "cards": ["Zz"]}}, "malformed"),
                ({**good, "hand": hand_no + 7}, "stale"),
                ({**good, "seq": seq + 100}, "bad_seq"),
                ({**good, "seat": 1 - (s_a if actor is a else s_b) + 5}, "wrong_seat"),
                (json.dumps({**good, "pad": "x" * 5000}), "too_large"),
            ]
            for msg, code in cases:
                await _expect_error(actor, waiter, msg, code)
            # The other client was told nothing at all.
            await drain(waiter, 0.3)
            assert len(waiter.messages) == seen_by_waiter
            # Out of turn: the other friend tries to act.
            await _expect_error(waiter, actor, {**good, "seq": waiter.state["seq"]},
                                "not_your_turn")
            await drain(actor, 0.2)
            # Nothing changed: same sequence number, same store.
            assert _store_counts(server, tid) == counts
            assert actor.state["seq"] == seq and waiter.state["seq"] == seq
            # The table is unharmed: the right action works, once.
            await actor.send(good)
            st = await actor.until(lambda st: st["seq"] > seq)
            # Stored once (the computer player, next to act 0.05 s later, may have
            # acted too by now: only its rows may follow).
            rows = server.manager.store.load_actions(tid, hand_no)[played:]
            assert rows and (rows[0].seat, rows[0].source, rows[0].action) == (
                actor.state["you"]["seat"], "player", good["action"]), rows
            assert all(r.source == "bot" for r in rows[1:]), rows
            # The same message again is a duplicate: stale, refused.
            await _expect_error(actor, waiter, good, "stale")
            # A frame over the protocol limit closes only that connection.
            async with Player(server.ws_url, tid, None) as onlooker:
                await onlooker.recv()
                try:
                    await onlooker.send("x" * 100_000)
                    await onlooker.recv(5)
                except Exception:
                    pass
            await actor.send({"type": "ping"})
            assert (await actor.until(lambda st: True)) is not None
            del st

    asyncio.run(scenario())


def test_computer_players_are_numbered_in_seat_order(shared_server: ServerThread) -> None:
    """They take the last seats, Bot 1 in the lowest of them (not against seat order)."""
    import httpx

    tid, _host = create_table(shared_server.url, game="sdr", seats=6, bots=3, bot_level="basic")
    seats = httpx.get(f"{shared_server.url}/api/tables/{tid}").json()["seats"]
    assert [(s["seat"], s.get("name")) for s in seats if not s["free"]] == [
        (3, "Bot 1 (basic)"), (4, "Bot 2 (basic)"), (5, "Bot 3 (basic)")]


def test_join_rules_and_onlooker(shared_server: ServerThread) -> None:
    import httpx

    tid, _host = create_table(shared_server.url, game="sdr", seats=2, bots=1)
    r = httpx.post(f"{shared_server.url}/api/tables/{tid}/join", json={"name": "  "})
    assert r.status_code == 400 and r.json()["error"] == "bad_name"
    r = httpx.post(f"{shared_server.url}/api/tables/{tid}/join", json={"name": "Ann", "seat": 1})
    assert r.status_code == 400 and r.json()["error"] == "seat_taken"
    # (s53-tidy: people count seats from 1; the API's 0-based index is named too)
    assert r.json()["message"] == "seat 2 (index 1) is not free; free seats: 1 (index 0)"
    seat, _tok = join(shared_server.url, tid, "Ann")
    assert seat == 0
    r = httpx.post(f"{shared_server.url}/api/tables/{tid}/join", json={"name": "Cy"})
    assert r.status_code == 400 and r.json()["error"] == "table_full"
    assert httpx.get(f"{shared_server.url}/t/nope").status_code == 404
    assert httpx.get(f"{shared_server.url}/t/{tid}").status_code == 200
    r = httpx.post(f"{shared_server.url}/api/tables", json={"game": "poker"})  # holdem: a game now
    assert r.status_code == 400 and "dealers-choice" in r.json()["message"]
    r = httpx.post(f"{shared_server.url}/api/tables", json={"game": "sdr", "seats": 11})
    assert r.status_code == 400 and "seats" in r.json()["message"]

    async def onlooker() -> None:
        async with Player(shared_server.ws_url, tid) as p:
            st = await p.until(lambda st: True)
            assert st["you"]["seat"] is None and not st["you"]["host"]
            await p.send({"type": "start", "seq": st["seq"]})
            err = await p.recv()
            assert err["type"] == "error" and err["code"] == "not_host"
            await p.send({"type": "action", "hand": 1, "seq": st["seq"],
                          "action": {"kind": "fold"}})
            err = await p.recv()
            assert err["type"] == "error" and err["code"] == "not_seated"

    asyncio.run(onlooker())


def test_nobody_hears_of_an_action_before_it_is_committed(server: ServerThread) -> None:
    """With a slow disk, a state reaches the clients only after its commit."""
    import sqlite3
    import time

    from rollem.server.stores import is_postgres_url

    store = server.manager.store
    slow_group = store._commit_group

    def slow(group: Any) -> None:
        time.sleep(0.15)
        slow_group(group)

    store._commit_group = slow
    tid, host = create_table(server.url, game="sdr", seats=2, bots=0, between_hands=60,
                             decision_seconds=60)
    (_s0, t0), (_s1, t1) = join(server.url, tid, "Ann"), join(server.url, tid, "Bob")
    # A connection of its own (not the store's): it sees committed data only.
    reader: Any
    if is_postgres_url(store.path):
        import psycopg

        reader, mark = psycopg.connect(store.path, autocommit=True), "%s"
    else:
        reader, mark = sqlite3.connect(store.path), "?"

    def committed_actions() -> int:
        row = reader.execute(f"SELECT COUNT(*) FROM actions WHERE table_id={mark}",
                             (tid,)).fetchone()
        return int(row[0])

    async def run() -> None:
        async with Player(server.ws_url, tid, t0, host) as a, Player(server.ws_url, tid, t1) as b:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            for _ in range(4):
                st = await a.until(lambda st: st["hand"] is not None and st["hand"]["to_act"])
                actor = a if a.my_decision() else b
                await actor.until(lambda st, p=actor: p.my_decision())
                before = committed_actions()
                seq = actor.state["seq"]
                await actor.act_random(passive=True)
                for p in (a, b):
                    await p.until(lambda st, seq=seq: st["seq"] > seq)
                    # The moment a client hears of it, it is on disk.
                    assert committed_actions() == before + 1
                del st

    try:
        asyncio.run(run())
    finally:
        store._commit_group = slow_group
        reader.close()


def test_other_sites_cannot_use_a_players_cookies(shared_server: ServerThread) -> None:
    import httpx
    import websockets

    tid, _host = create_table(shared_server.url, game="sdr", seats=2, bots=1)
    # A cross-site form post (text/plain) is refused.
    r = httpx.post(f"{shared_server.url}/api/tables/{tid}/join", content=b'{"name": "Eve"}',
                   headers={"Content-Type": "text/plain"})
    assert r.status_code == 400 and r.json()["error"] == "malformed"
    _seat, token = join(shared_server.url, tid, "Ann")

    async def run() -> None:
        headers = {"Cookie": f"rollem_seat_{tid}={token}", "Origin": "http://evil.example"}
        try:
            async with websockets.connect(f"{shared_server.ws_url}/ws/{tid}",
                                          additional_headers=headers) as ws:
                await ws.recv()
            raise AssertionError("a cross-site websocket was accepted")
        except websockets.InvalidStatus as err:
            assert err.response.status_code == 403
        # The page's own origin is fine.
        headers["Origin"] = shared_server.url
        async with websockets.connect(f"{shared_server.ws_url}/ws/{tid}",
                                      additional_headers=headers) as ws:
            assert json.loads(await ws.recv())["you"]["seat"] == 0

    asyncio.run(run())


def test_every_page_and_answer_carries_the_security_headers(shared_server: ServerThread) -> None:
    """Only the table's own scripts, styles and websocket may load; no framing; no
    Referer (an invite link is a table's key). The browser test checks that the
    pages work under this policy."""
    import httpx

    tid, _host = create_table(shared_server.url, game="sdr", seats=2, bots=1)
    for path in ("/", f"/t/{tid}", "/static/table/main.js", f"/api/tables/{tid}", "/no/such/page"):
        r = httpx.get(shared_server.url + path)
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp, path
        assert "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["x-frame-options"] == "DENY", path
        assert r.headers["referrer-policy"] == "no-referrer", path


def test_bad_hand_numbers_and_joins_are_refused_clearly(shared_server: ServerThread) -> None:
    import httpx

    tid, _host = create_table(shared_server.url, game="sdr", seats=3, bots=0)
    base = f"{shared_server.url}/api/tables/{tid}"
    for n in ("99999999999999999999999", "0", "-1", "x"):
        r = httpx.get(f"{base}/hands/{n}")
        assert r.status_code == 400, (n, r.text)
        assert r.json()["error"] == "malformed"
    assert httpx.get(f"{base}/hands/12345").status_code == 404
    assert httpx.get(f"{base}/hands/99999999999999999999999/history.toml").status_code == 400
    for body, words in [
        ({"name": "Ann", "seat": -1}, "no such seat -1: seats are 0..2"),
        ({"name": "Ann", "seat": 99}, "no such seat 99: seats are 0..2"),
        ({"name": 42, "seat": 0}, "name must be text"),
        ({"name": ["Ann"]}, "name must be text"),
        ({"name": "   "}, "a name is needed"),
        ({"name": "x" * 25}, "at most 24 characters"),
    ]:
        r = httpx.post(f"{base}/join", json=body)
        assert r.status_code == 400, body
        assert words in r.json()["message"], (body, r.json())
    r = httpx.post(f"{base}/join", json={"name": "  Ann   Lee  ", "seat": 2})
    assert r.status_code == 200 and r.json()["seat"] == 2
    info = httpx.get(base).json()
    assert info["seats"][2]["name"] == "Ann Lee"


def test_how_to_play_serves_rules_options_and_decision_help(shared_server: ServerThread) -> None:
    import httpx

    tid, _host = create_table(shared_server.url, game="dealers-choice", seats=3, bots=0, ante=2,
                              house={"wild_duplicates": True})
    body = httpx.get(f"{shared_server.url}/api/tables/{tid}/rules?game=sdr&decision=bet").json()
    assert [s["title"] for s in body["sections"]] == ["Dealer's choice", "sdr"]
    assert "Stop and the Drop are <strong>dead</strong>" in " ".join(
        body["sections"][1]["html"].split())
    assert body["config"]["ante"] == 2 and body["config"]["house"]["wild_duplicates"] is True
    assert "Check" in body["decision_help"]
    # No game named yet: only the overview; an unknown decision is simply left out.
    body = httpx.get(f"{shared_server.url}/api/tables/{tid}/rules?game=nope&decision=fly").json()
    assert [s["title"] for s in body["sections"]] == ["Dealer's choice"]
    assert body["decision_help"] is None
    assert httpx.get(f"{shared_server.url}/api/tables/nope/rules").status_code == 404


@pytest.mark.parametrize(("game", "asked", "helped"), [
    ("holdem", "holdem&decision=bet", True),
    ("holdem", "holdem&decision=declare", False),  # hold'em never asks for it
    ("holdem", "holdem&decision=draw", False),
    ("holdem", "holdem&decision=stack", False),
    ("dealers-choice", "holdem&decision=bet", False),  # not among the offered games
    ("dealers-choice", "rollem521&decision=declare", True),
    ("dealers-choice", "sdr&decision=declare", False),
])
def test_how_to_play_explains_only_decisions_of_the_tables_games(
        shared_server: ServerThread, game: str, asked: str, helped: bool) -> None:
    import httpx

    tid, _host = create_table(shared_server.url, game=game, seats=3, bots=0)
    body = httpx.get(f"{shared_server.url}/api/tables/{tid}/rules?game={asked}").json()
    assert (body["decision_help"] is not None) is helped, body["decision_help"]
    asked_game = asked.split("&")[0]
    # a game this table does not deal gets no rules section either
    told = asked_game in game or asked_game in ("sdr", "rollyourown", "rollem521")
    assert (body["game"] == asked_game) is told, body["game"]
