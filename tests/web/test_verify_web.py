"""A deal every player can check at the web table (issue 32).

Real websockets to a real server: the order of messages (the server
announces the hand's commitment, stored, before it takes any client seed;
a seed comes after the commitment and before the deal, never after it), the
limits on ``client_seed``, the empty seed of a silent seat after the wait, a
player's own copy (nothing to open during the hand, the openings of exactly
what that player saw after it, verified as ``rollem verify`` does), the
hands' chain, and a restart while the deal waits for seeds.
"""

from __future__ import annotations

import asyncio
import json
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerProcess, ServerThread, create_table, join

from rollem.engine.commit_reveal import DealProof, chained_commitment, hex_text
from rollem.history import history_dict
from rollem.server.game_session import GameSession
from rollem.server.live_table import LiveTable
from rollem.server.stores import open_store
from rollem.verify import check_chain, verify_history, verify_text


async def _play_out(players: list[Player], hand_no: int, timeout: float = 30) -> None:
    """Check or call every decision of the players until hand ``hand_no`` is over."""
    acted: dict[int, Any] = {}

    def over(st: dict[str, Any]) -> bool:
        last = st["table"]["last_result"]
        return last is not None and last["hand"] >= hand_no

    async def one(i: int, p: Player) -> None:
        while p.state is None or not over(p.state):
            if p.my_decision() and p.state["you"]["decision_seq"] != acted.get(i):
                acted[i] = p.state["you"]["decision_seq"]
                await p.act_random(passive=True)
            msg = await p.recv(timeout)
            if msg["type"] == "error":
                acted.pop(i, None)

    await asyncio.gather(*(one(i, p) for i, p in enumerate(players)))


def _cards_seen(player: Player, hand_no: int) -> set[str]:
    """Every card any state of hand ``hand_no`` showed ``player``: the seats'
    cards it could see (its own, up cards, shown hands), the board, dead cards."""
    out: set[str] = set()
    for msg in player.messages:
        hand = msg.get("hand") if msg["type"] == "state" else None
        if hand and hand["hand_no"] == hand_no:
            out |= {c for seat in hand["seats"] for c in seat["cards"] if c}
            out |= {c for c in hand["board"] + hand["dead"] if c}
    return out


def _copy(url: str, tid: str, token: str, hand_no: int) -> str:
    r = httpx.get(f"{url}/api/tables/{tid}/hands/{hand_no}/history.toml",
                  cookies={f"rollem_seat_{tid}": token})
    assert r.status_code == 200, r.text
    return r.text


def test_commit_before_seeds_then_deal_open_after(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 0.5)
    srv = ServerThread(tmp_path / "v.db")
    tid, host = create_table(srv.url, game="sdr", seats=3, bots=1, bot_delay=0.0,
                             between_hands=0.2, decision_seconds=300, stack=100)
    (s0, t0), (s1, t1) = join(srv.url, tid, "Ann"), join(srv.url, tid, "Bob")
    bot = 2
    seen: dict[str, Any] = {}

    async def run() -> None:
        async with Player(srv.ws_url, tid, t0, host) as a, Player(srv.ws_url, tid, t1) as b:
            a.client_seeds = b.client_seeds = False  # this test sends them itself
            await a.until(lambda st: st["you"]["host"])
            await b.until(lambda st: st["you"]["seat"] == s1)
            await a.send({"type": "start", "seq": a.state["seq"]})
            # 1. The commitment comes first, to both, with no card dealt.
            sa = await a.until(lambda st: st["table"]["deal"] is not None)
            sb = await b.until(lambda st: st["table"]["deal"] is not None)
            deal = sa["table"]["deal"]
            assert deal == sb["table"]["deal"]
            assert deal["hand"] == 1 and deal["players"] == [s0, s1, bot]
            assert deal["seeded"] == [] and sa["hand"] is None and sb["hand"] is None
            commitment = deal["commitment"]
            assert len(commitment) == 64 and int(commitment, 16) >= 0
            # The server fixed the key and stored it before taking any seed.
            seeding = srv.call(lambda: srv.manager.get(tid).session["seeding"])
            stored = DealProof.from_json(seeding["proof"])
            assert hex_text(stored.commitment) == commitment and stored.client_seeds == {}
            # 2. Limits: each refused with a one-line reason, nothing changes.
            for bad, code in (
                ({"type": "client_seed", "hand": 1, "seed": "é"}, "malformed"),
                ({"type": "client_seed", "hand": 1, "seed": "x" * 65}, "malformed"),
                ({"type": "client_seed", "hand": 1, "seed": 7}, "malformed"),
                ({"type": "client_seed", "hand": 1, "seed": "ok", "pad": "y" * 200},
                 "unknown_field"),
                ('{"type": "client_seed", "hand": 1, "seed": "ok"}' + " " * 200, "too_large"),
                ({"type": "client_seed", "hand": 2, "seed": "early"}, "wrong_hand"),
            ):
                await a.send(bad)
                err = await a.until_error()
                assert err["code"] == code, (bad, err)
                assert "\n" not in err["message"]
            await a.send({"type": "client_seed", "hand": 1, "seed": "alpha-1"})
            await a.send({"type": "client_seed", "hand": 1, "seed": "again"})
            err = await a.until_error()
            assert err["code"] == "already_sent"
            # 3. The last person's seed deals at once, from the committed deck.
            await b.send({"type": "client_seed", "hand": 1, "seed": "Beta_2"})
            st = await a.until(lambda st: st["hand"] is not None)
            assert st["table"]["deal"] is None
            assert st["hand"]["deal"]["commitment"] == commitment
            assert st["hand"]["deal"]["client_seeds"] == {
                str(s0): "alpha-1", str(s1): "Beta_2", str(bot): ""}
            # 4. No seed once dealt: it could be chosen knowing the cards.
            await b.send({"type": "client_seed", "hand": 1, "seed": "late"})
            assert (await b.until_error())["code"] == "too_late"
            # 5. During the hand a copy opens nothing and holds no key.
            during = srv.call(lambda: srv.manager.get(tid).hand.history_text(s0, ["A", "B", "C"]))
            assert "_openings" not in during and "_deal_key" not in during
            assert verify_text(during).status == "unrevealed"
            r = httpx.get(f"{srv.url}/api/tables/{tid}/hands/1/verify",
                          cookies={f"rollem_seat_{tid}": t0})
            assert r.status_code == 404  # not finished: nothing to check yet
            await _play_out([a, b], 1)
            seen["a1"], seen["b1"] = a.state, b.state
            seen[s0], seen[s1] = _cards_seen(a, 1), _cards_seen(b, 1)
            # 6. Hand 2: Bob's browser stays silent; the deal does not wait for ever.
            st = await a.until(lambda st: st["table"]["deal"] is not None
                               and st["table"]["deal"]["hand"] == 2)
            seen["commit2"] = st["table"]["deal"]["commitment"]
            await a.send({"type": "client_seed", "hand": 2, "seed": "second"})
            st = await a.until(lambda st: st["hand"] is not None and st["hand"]["hand_no"] == 2)
            assert st["hand"]["deal"]["client_seeds"] == {
                str(s0): "second", str(s1): "", str(bot): ""}
            assert st["hand"]["deal"]["commitment"] == seen["commit2"]
            seen["deal2"] = st["hand"]["deal"]
            # Every message either client got, in order: the commitment of each hand
            # before its cards, and never the key.
            for p in (a, b):
                states = [m for m in p.messages if m["type"] == "state"]
                first_commit = next(i for i, m in enumerate(states) if m["table"]["deal"])
                first_hand = next(i for i, m in enumerate(states) if m["hand"])
                assert first_commit < first_hand
                assert all(m["hand"] is None for m in states[:first_hand])
            seen["raw"] = a.raw + b.raw

    try:
        asyncio.run(run())
        copies = {s: _copy(srv.url, tid, t, 1) for s, t in ((s0, t0), (s1, t1))}
        verdicts = []
        for seat, text, final in ((s0, copies[s0], seen["a1"]), (s1, copies[s1], seen["b1"])):
            copy = tomllib.loads(text)
            assert copy["_commitment"] == seen["a1"]["hand"]["deal"]["commitment"]
            assert copy["_client_seeds"] == {str(s0): "alpha-1", str(s1): "Beta_2",
                                             str(bot): ""}
            assert "_deal_key" not in copy and "_deck" not in copy
            verdict = verify_history(copy)
            assert verdict.ok, verdict.reason
            verdicts.append(verdict)
            opened = {o["card"] for o in copy["_openings"]}
            mine = {c for c in final["hand"]["seats"][seat]["cards"] if c}
            assert mine <= opened <= seen[seat]  # what the seat saw, no other card
            r = httpx.get(f"{srv.url}/api/tables/{tid}/hands/1/verify",
                          cookies={f"rollem_seat_{tid}": t0 if seat == s0 else t1})
            body = r.json()
            assert r.status_code == 200 and body["ok"] and body["seat"] == seat
            assert body["commitment"] == copy["_commitment"]
            assert body["client_seeds"][str(seat)] == ("alpha-1" if seat == s0 else "Beta_2")
        assert check_chain(verdicts) is None  # the two copies agree
        r = httpx.get(f"{srv.url}/api/tables/{tid}/hands/1/verify")
        assert r.status_code == 403
        # The full stored record keeps the key, deals every card again, and chains.
        store = open_store(tmp_path / "v.db")
        row = store.load_hand(tid, 1)
        assert row is not None
        session = GameSession.restore(1, row.setup, store.load_actions(tid, 1))
        store.close()
        full = history_dict(session.hand)
        assert full["_deal_key"] == row.setup["proof"]["deal_key"].upper()
        assert verify_history(full).status == "verified"
        assert seen["deal2"]["prev_hash"] == full["_hand_hash"]
        stored2 = DealProof.from_json(_stored_proof(tmp_path / "v.db", tid, 2))
        # (the commitment covers who the deal is for: the players' names by seat)
        assert stored2.seated == {s0: "Ann", s1: "Bob", bot: stored2.seated[bot]}
        assert seen["commit2"] == hex_text(chained_commitment(
            stored2.root, bytes.fromhex(full["_hand_hash"]), (), stored2.seated))
        key = row.setup["proof"]["deal_key"]
        assert not any(key.lower() in m.lower() for m in seen["raw"])
    finally:
        srv.stop()


def _stored_proof(db: Path, tid: str, hand_no: int) -> dict[str, Any]:
    store = open_store(db)
    try:
        row = store.load_hand(tid, hand_no)
        assert row is not None
        proof: dict[str, Any] = row.setup["proof"]
        return proof
    finally:
        store.close()


def test_a_restart_while_the_deal_waits_keeps_its_commitment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commitment and a seed taken before the server stops are stored: the
    next server deals that committed deck, with the seeds sent to either."""
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 60.0)
    db = tmp_path / "r.db"
    first = ServerThread(db)
    tid, host = create_table(first.url, game="sdr", seats=2, bots=0,
                             between_hands=60, decision_seconds=300, stack=100)
    (s0, t0), (s1, t1) = join(first.url, tid, "Ann"), join(first.url, tid, "Bob")
    seen: dict[str, Any] = {}

    async def part_one() -> None:
        async with Player(first.ws_url, tid, t0, host) as a, Player(first.ws_url, tid, t1) as b:
            a.client_seeds = b.client_seeds = False
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            st = await a.until(lambda st: st["table"]["deal"] is not None)
            seen["commitment"] = st["table"]["deal"]["commitment"]
            await a.send({"type": "client_seed", "hand": 1, "seed": "before"})
            await b.until(lambda st: st["table"]["deal"] is not None
                          and st["table"]["deal"]["seeded"] == [s0])

    try:
        asyncio.run(part_one())
    finally:
        first.stop()
    second = ServerThread(db)
    try:
        async def part_two() -> None:
            async with Player(second.ws_url, tid, t0, host) as a, \
                    Player(second.ws_url, tid, t1) as b:
                a.client_seeds = b.client_seeds = False
                st = await b.until(lambda st: st["table"]["deal"] is not None)
                assert st["table"]["deal"]["commitment"] == seen["commitment"]
                assert st["hand"] is None
                await a.send({"type": "client_seed", "hand": 1, "seed": "twice"})
                assert (await a.until_error())["code"] == "already_sent"
                await b.send({"type": "client_seed", "hand": 1, "seed": "after"})
                st = await b.until(lambda st: st["hand"] is not None)
                assert st["hand"]["deal"]["commitment"] == seen["commitment"]
                assert st["hand"]["deal"]["client_seeds"] == {str(s0): "before",
                                                              str(s1): "after"}
                await _play_out([a, b], 1)

        asyncio.run(part_two())
        copy = _copy(second.url, tid, t1, 1)
        verdict = verify_text(copy)
        assert verdict.ok and verdict.commitment == seen["commitment"], verdict.reason
    finally:
        second.stop()


def test_a_kill_9_at_the_commitment_deals_that_committed_deck(tmp_path: Path) -> None:
    """``rollem serve`` killed (SIGKILL) the moment its players see a commitment:
    the next process on the database deals that deck (whether the kill came
    before the deal or after it), and the copies verify against it."""
    db = tmp_path / "k.db"
    first = ServerProcess(db)
    port = first.port
    tid, host = create_table(first.url, game="sdr", seats=2, bots=0,
                             between_hands=60, decision_seconds=300, stack=100)
    (_, t0), (_, t1) = join(first.url, tid, "Ann"), join(first.url, tid, "Bob")
    seen: dict[str, Any] = {}

    async def part_one() -> None:
        async with Player(first.ws_url, tid, t0, host) as a:
            a.client_seeds = False
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            st = await a.until(lambda st: st["table"]["deal"] is not None)
            seen["commitment"] = st["table"]["deal"]["commitment"]

    asyncio.run(part_one())
    first.kill()
    second = ServerProcess(db, port=port)
    try:
        async def part_two() -> None:
            async with Player(second.ws_url, tid, t0, host) as a, \
                    Player(second.ws_url, tid, t1) as b:
                st = await a.until(lambda st: st["hand"] is not None, timeout=30)
                assert st["hand"]["hand_no"] == 1
                assert st["hand"]["deal"]["commitment"] == seen["commitment"]
                await _play_out([a, b], 1)

        asyncio.run(part_two())
        for token in (t0, t1):
            verdict = verify_text(_copy(second.url, tid, token, 1))
            assert verdict.ok and verdict.commitment == seen["commitment"], verdict.reason
    finally:
        second.kill()


def test_a_deal_waiting_for_seeds_lapses_when_too_few_are_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who sits out while the committed deal waits for seeds is not dealt
    in; with one player left the deal lapses (``Dealer.deal_lapsed``): no hand, the
    table's state moves on and is sent (the only message saying so: the next deal is
    tried only after ``between_hands``, 10 minutes here), and the host's deal now
    deals to both once the player is back."""
    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 0.5)
    srv = ServerThread(tmp_path / "lapse.db")
    tid, host = create_table(srv.url, game="sdr", seats=3, bots=0, between_hands=600,
                             decision_seconds=300, stack=100)
    (s0, t0), (s1, t1) = join(srv.url, tid, "Ann"), join(srv.url, tid, "Bob")

    async def run() -> None:
        async with Player(srv.ws_url, tid, t0, host) as a, Player(srv.ws_url, tid, t1) as b:
            a.client_seeds = b.client_seeds = False  # the deal waits out its 0.5 s
            await a.until(lambda st: st["you"]["host"])
            await b.until(lambda st: st["you"]["seat"] == s1)
            await a.send({"type": "start", "seq": a.state["seq"]})
            waiting = await a.until(lambda st: st["table"]["deal"] is not None)
            assert waiting["table"]["deal"]["players"] == [s0, s1]
            await b.send({"type": "sit_out", "out": True})
            lapsed = await a.until(lambda st: st["table"]["deal"] is None)
            assert lapsed["hand"] is None and lapsed["seq"] > waiting["seq"]
            assert lapsed["table"]["sitting_out"] == [s1]
            assert srv.call(lambda: (srv.manager.get(tid).hand,
                                     srv.manager.get(tid).session["seeding"])) == (None, None)
            # Back, Bob waits for the next deal; the host's deal now deals it to both.
            await b.send({"type": "sit_out", "out": False})
            await a.until(lambda st: st["table"]["sitting_out"] == [])
            await a.send({"type": "host", "op": "deal_now"})
            again = await a.until(lambda st: st["table"]["deal"] is not None)
            assert again["table"]["deal"]["players"] == [s0, s1]
            st = await a.until(lambda st: st["hand"] is not None, timeout=10)
            assert sorted(st["hand"]["deal"]["client_seeds"]) == [str(s0), str(s1)]

    try:
        asyncio.run(run())
    finally:
        srv.stop()
    store = open_store(str(tmp_path / "lapse.db"))
    try:
        assert store.load_hand(tid, 1) is not None  # the hand dealt after the lapse
    finally:
        store.close()


def test_client_seed_messages_are_checked_before_the_table() -> None:
    from rollem.server.protocol import ProtocolError, parse_message

    msg = parse_message(json.dumps({"type": "client_seed", "hand": 3, "seed": "a" * 64}))
    assert (msg.type, msg.hand, msg.body["seed"]) == ("client_seed", 3, "a" * 64)
    assert parse_message('{"type":"client_seed","hand":3,"seed":""}').body["seed"] == ""
    for text, code in (('{"type":"client_seed","seed":"a"}', "malformed"),
                       ('{"type":"client_seed","hand":1,"seed":"a b"}', "malformed"),
                       ('{"type":"client_seed","hand":1,"seed":null}', "malformed"),
                       ('{"type":"client_seed","hand":1,"seed":"a","seq":1}', "unknown_field")):
        with pytest.raises(ProtocolError) as err:
            parse_message(text)
        assert err.value.code == code, text


def test_the_seed_wait_ends_on_the_table_clock() -> None:
    """A browser that never sends its client seed holds the deal at most
    ``CLIENT_SEED_WAIT`` seconds of the table's own clock -- here a virtual one,
    on which no real second passes -- then the hand is dealt from the committed
    deck with the empty seed for that seat; a seed that did come is in it."""
    from test_table_bots import new_table, virtual_server

    from rollem.server import game_session, live_table
    from rollem.server.protocol import ClientMessage

    with virtual_server() as (loop, store):
        # (virtual_server sets no wait and a seeded shuffle; it restores both)
        LiveTable.CLIENT_SEED_WAIT = 2.0
        live_table.committed_source = game_session.committed_source  # type: ignore[misc]
        table, (ann, _bob) = new_table(loop, store, bots=1)  # (Bob stays silent)
        loop.advance(0.5)  # the start's deal: the commitment, no hand yet
        seeding = table.session["seeding"]
        assert seeding is not None and table.hand is None
        assert seeding["until"] == pytest.approx(loop.now - 0.5 + 2.0, abs=0.3)
        msg = ClientMessage("client_seed", 1, None, {"type": "client_seed", "hand": 1,
                                                     "seed": "ann-1"})
        loop.call(table.handle, ann, msg)  # Bob's never comes
        loop.advance(seeding["until"] - loop.now - 0.05)
        assert table.hand is None and table.session["seeding"] is not None  # still waiting
        loop.advance(0.1)
        assert table.hand is not None and table.hand.hand_no == 1
        deal = table.hand.public_deal()
        assert deal is not None and deal["commitment"] == seeding["commitment"]
        assert deal["client_seeds"] == {"0": "ann-1", "1": "", "2": ""}
        loop.call(table.shutdown)


def test_a_random_dealers_choice_pick_is_made_after_the_seeds_and_verifies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A person's choice that times out (R-C-15) and a computer player's pick
    (R-C-12), on a virtual clock: the deal waiting for seeds shows the games
    offered and no game yet; the game dealt is the pick the hand's hash (with
    the seed sent) and the dealer's pick salt name among them, and every
    history and copy carries the games offered and the salt, and verifies.
    The salt is in no message to a player, a watcher or the host while the
    deal waits for seeds (the last to send one could steer the pick with it),
    and in the hand's state once it is dealt."""
    from test_table_bots import virtual_server

    from rollem.engine.commit_reveal import picked_game
    from rollem.server import game_session, live_table
    from rollem.server.config import parse_config
    from rollem.server.live_table import Client
    from rollem.server.protocol import ClientMessage

    offered = ["sdr", "rollyourown", "rollem521"]
    with virtual_server() as (loop, store):
        # (virtual_server sets no wait and a seeded shuffle; it restores both)
        LiveTable.CLIENT_SEED_WAIT = 2.0
        live_table.committed_source = game_session.committed_source  # type: ignore[misc]
        config = parse_config({
            "game": "dealers-choice", "seats": 3, "bots": 1, "stack": 400, "ante": 1,
            "small_bet": 2, "big_bet": 4, "decision_seconds": 600.0,
            "time_bank_seconds": 0.0, "grace_seconds": 1000.0, "between_hands": 0.5,
            "bot_delay": 0.0})
        # every state text the server writes, by whether a deal waits for seeds
        waiting: dict[int, list[str]] = {}  # hand -> the texts written while it waited
        later: list[str] = []

        def record(live: LiveTable, _seat: int | None, text: str) -> None:
            seeding = live.session.get("seeding")
            (waiting.setdefault(int(seeding["hand"]), []) if seeding else later).append(text)

        monkeypatch.setattr(LiveTable, "audit", record)
        table, _ = loop.call(LiveTable.create, store, config)
        host = Client(None, True)
        loop.call(table.connect, host)
        ann = Client(table.seat_for_token(loop.call(table.join, "Ann", 0)[1]))
        bob = Client(table.seat_for_token(loop.call(table.join, "Bob", 1)[1]))
        watcher = Client(None)
        for client in (host, ann, bob, watcher):
            loop.call(table.connect, client)
        loop.call(table.handle, host, ClientMessage("start", None, table.seq, {}))
        chose: list[int] = []  # the seats whose choice was open
        sent: dict[int, str] = {}  # hand -> Ann's client seed
        while int(table.session["hand_no"]) < 3 or table.hand is not None:
            assert loop.now < 1_000_000 + 20_000, "the table stopped dealing"
            if table.session.get("choice"):
                chose.append(table.session["choice"]["seat"])
                loop.advance(601)  # (a person's choice: it times out)
                continue
            seeding = table.session.get("seeding")
            if seeding and seeding["hand"] not in sent:
                assert seeding["game"] is None  # picked after the seeds, not before
                assert table.state(0)["table"]["deal"]["pick"] == offered
                sent[seeding["hand"]] = seed = f"ann-{seeding['hand']}"
                loop.call(table.handle, ann, ClientMessage(
                    "client_seed", seeding["hand"], None,
                    {"type": "client_seed", "hand": seeding["hand"], "seed": seed}))
                for seat in (0, 1, 2, None):  # (Bob's seed still to come: it waits)
                    table.views.state_text(seat)
                table.views.state_text(None, True)
            for client in (ann, bob):  # people play at once: what the clock would play
                if table.hand is not None and client.seat in table.decision_seq:
                    loop.call(table.handle, client, ClientMessage(
                        "action", table.hand.hand_no, table.seq,
                        {"action": table.hand.timeout_action(client.seat)}))
            loop.advance(0.5)
        # hands 1 and 2: Ann's and Bob's choices timed out; hand 3: the computer player's
        assert chose[:2] == [0, 1]
        for hand_no in (1, 2, 3):
            row = store.load_hand(table.id, hand_no)
            assert row is not None
            session = GameSession.restore(hand_no, row.setup, store.load_actions(table.id,
                                                                                 hand_no))
            full = history_dict(session.hand)
            assert session.hand.button == hand_no - 1
            assert full["_pick_games"] == offered and full["_client_seeds"]["0"] == sent[hand_no]
            salt = session.hand.source.proof.pick_salt
            assert salt is not None and full["_pick_salt"] == salt.hex().upper()
            assert full["_game"] == picked_game(bytes.fromhex(full["_hand_hash"]), offered, salt)
            deal = session.public_deal()
            assert deal is not None and deal["pick_games"] == offered
            assert deal["pick_salt"] == full["_pick_salt"]
            assert verify_history(full).status == "verified"
            copy_text = session.history_text(1, ["Ann", "Bob", "Cy"])
            assert f'_pick_salt = "{full["_pick_salt"]}"' in copy_text
            copy = verify_text(copy_text)
            assert copy.ok, copy.reason
            # the salt in no text written while the deal waited for seeds, and in
            # the states after it
            assert len(waiting[hand_no]) > 4
            assert not any(salt.hex() in t.lower() for t in waiting[hand_no])
            assert any(full["_pick_salt"] in t for t in later)
        loop.call(table.shutdown)


def test_a_players_copies_prove_the_hands_they_sat_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Real websockets and downloads: Ann sits out hands 2 and 3.  Her copies of
    hands 1 and 4 (and her session download) prove it (hand 4's copy records
    hands 2 and 3 under their commitments, ``_sat_out``), where main's copies
    left the gap "not checked"; Bob's copies with hand 3 left out (as a server
    hiding a hand would give them) fail, naming it.  The record reaches no
    state: a delayed watcher's messages hold none of it."""
    from web_harness import drain

    from rollem.verify import sat_out

    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 0.5)
    srv = ServerThread(tmp_path / "s.db")
    tid, host = create_table(srv.url, game="sdr", seats=3, bots=1, bot_delay=0.0,
                             between_hands=0.2, decision_seconds=300, stack=1000,
                             watcher_delay=True)
    (s0, t0), (_, t1) = join(srv.url, tid, "Ann"), join(srv.url, tid, "Bob")
    watched: list[str] = []

    async def run() -> None:
        async with Player(srv.ws_url, tid, t0, host) as a, Player(srv.ws_url, tid, t1) as b, \
                Player(srv.ws_url, tid) as w:
            watching = asyncio.create_task(drain(w, 300))
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            await a.until(lambda st: st["hand"] is not None and st["hand"]["hand_no"] == 1)
            await a.send({"type": "sit_out", "out": True})  # (from the next hand)
            await _play_out([a, b], 1)
            await _play_out([b], 2)
            await b.until(lambda st: st["hand"] is not None and st["hand"]["hand_no"] == 3)
            await a.send({"type": "sit_out", "out": False})
            await _play_out([b], 3)
            await _play_out([a, b], 4)
            watching.cancel()
            watched.extend(w.raw)

    try:
        asyncio.run(run())
        assert watched and not any("seated" in m or "sat_out" in m for m in watched)
        ann = {n: tomllib.loads(_copy(srv.url, tid, t0, n)) for n in (1, 4)}
        r = httpx.get(f"{srv.url}/api/tables/{tid}/hands/2/history.toml",
                      cookies={f"rollem_seat_{tid}": t0})
        assert r.status_code == 403  # (not dealt in)
        assert ann[1]["_seated"][str(s0)] == "Ann" and "_sat_out" not in ann[1]
        assert [h["_hand_no"] for h in ann[4]["_sat_out"]] == [2, 3]
        assert all(str(s0) not in h["_client_seeds"] for h in ann[4]["_sat_out"])
        verdicts = [verify_history(c) for c in ann.values()]
        assert all(v.ok for v in verdicts), [v.reason for v in verdicts]
        assert check_chain(verdicts) is None and sat_out(verdicts) == [(2, 3, "Ann")]
        r = httpx.get(f"{srv.url}/api/tables/{tid}/hands/4/verify",
                      cookies={f"rollem_seat_{tid}": t0})
        assert r.status_code == 200 and r.json()["ok"], r.text
        assert "before it, hands 2 to 3: Ann sat out (recorded under their commitments)" \
            in r.json()["reason"]
        r = httpx.get(f"{srv.url}/api/tables/{tid}/history.phhs",
                      cookies={f"rollem_seat_{tid}": t0})
        assert r.status_code == 200
        download = [verify_history(h) for h in tomllib.loads(r.text).values()]
        assert [v.hand_no for v in download] == [1, 4] and all(v.ok for v in download)
        assert check_chain(download) is None and sat_out(download) == [(2, 3, "Ann")]
        # Bob played every hand: his copies with hand 3 left out break the chain
        bob = [verify_history(tomllib.loads(_copy(srv.url, tid, t1, n))) for n in (1, 2, 4)]
        assert all(v.ok for v in bob)
        assert check_chain(bob) == (
            "hand 3 was dealt to Bob but Bob's copy of it is not in the files: Bob's copy of "
            "hand 4 follows it directly (its _sat_out records no hand sat out)")
    finally:
        srv.stop()
