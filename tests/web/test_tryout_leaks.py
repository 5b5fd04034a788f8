"""What a new user's hostile client found at the web table (try-out of stop 39):
each test fails on the code before its fix."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import httpx
from test_server_gamefiles import play_out
from web_harness import Player, ServerThread, create_table, host_cookie, join, seat_cookie


def test_public_stats_tell_no_pair_kept_at_a_secret_discard(server: ServerThread) -> None:
    """``/api/tables/<id>/stats`` is public at the table (any watcher reads it), so it
    counts nothing from hidden cards: Roll Your Own's discard to the pool is secret
    (R-RYO-2), and which cards a player kept stays secret even when they show at the
    end; ``kept_pairs`` told every watcher, after each hand, whether a player (one
    who folded too) kept a pair.  The other figures stay."""
    tid, host = create_table(server.url, game="rollyourown", seats=3, bots=2, bot_delay=0.0,
                             decision_seconds=5, time_bank_seconds=0, between_hands=120,
                             bot_level="random")
    _, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as ann:
            await ann.until(lambda st: st["you"]["host"])
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            await asyncio.wait_for(play_out(ann, 1), 60)

    asyncio.run(play())
    out = httpx.get(f"{server.url}/api/tables/{tid}/stats").json()  # (a watcher: no cookie)
    assert out["hands"] == 1 and set(out["players"]) == {"Ann", "Bot 1 (random)",
                                                         "Bot 2 (random)"}
    figures = [*out["players"].values(), *out["games"]["rollyourown"].values()]
    for one in figures:
        assert "kept_pairs" not in one, one
        assert one["hands"] == 1 and one["discards"] == 1  # (that each discarded is public)


def test_a_show_by_choice_reaches_replays_and_copies_built_before(server: ServerThread) -> None:
    """R-C-11: once a hand is over a player may show their cards by choice, and that
    is recorded in the history.  The replay and the own copy of a finished hand are
    built once and kept; one opened before the show (the winner looks at the hand at
    once) stayed without it for good, while a new viewer's had it."""
    tid, host = create_table(server.url, game="sdr", seats=2, bots=0, decision_seconds=60,
                             between_hands=120)
    _, ann_token = join(server.url, tid, "Ann")
    _, bob_token = join(server.url, tid, "Bob")
    async def play() -> None:
        async with (Player(server.ws_url, tid, ann_token, host) as ann,
                    Player(server.ws_url, tid, bob_token) as bob):
            await ann.until(lambda st: st["you"]["host"])
            await bob.recv()
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            first = await asyncio.wait_for(_first_to_act(ann, bob), 20)
            other = bob if first is ann else ann
            assert first.state is not None
            seat = first.state["you"]["seat"]
            cards = first.state["hand"]["seats"][seat]["cards"]
            await first.send({"type": "action", "hand": 1, "seq": first.state["seq"],
                              "action": {"kind": "fold"}})
            await other.until(lambda st: st["table"]["last_result"] is not None)
            token = bob_token if other is bob else ann_token
            with httpx.Client(base_url=server.url,
                              cookies={seat_cookie(tid): token}) as winner:
                copy = winner.get(f"/api/tables/{tid}/hands/1/history.toml")
                # one player's own: no cache on the way may keep it for another
                assert copy.headers["cache-control"] == "no-store"
                before = (copy.text, winner.get(f"/api/tables/{tid}/hands/1").text)
                for text in before:  # (folded, never shown)
                    assert not set(cards) & _cards_in(text), (cards, text)
                await first.send({"type": "show", "hand": 1, "cards": cards})
                await other.until(  # (shown in the public order: highest first)
                    lambda st: sorted(st["hand"]["seats"][seat]["cards"]) == sorted(cards))
                after = (winner.get(f"/api/tables/{tid}/hands/1/history.toml").text,
                         winner.get(f"/api/tables/{tid}/hands/1").text)
            for text in after:
                assert set(cards) <= _cards_in(text), (cards, text)

    asyncio.run(play())


def _cards_in(text: str) -> set[str]:
    """The cards named in ``text`` (``Qh``; not inside a longer word or number)."""
    return set(re.findall(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])", text))


async def _first_to_act(*players: Player) -> Player:
    """The player whose decision is open first (each one's messages read meanwhile)."""
    while True:
        for p in players:
            if p.my_decision():
                return p
        for p in players:
            with contextlib.suppress(TimeoutError):
                await p.recv(0.2)


def test_hand_lists_read_each_finished_hand_once(server: ServerThread) -> None:
    """The page asks for ``/hands`` after every hand (and ``hands.csv`` or the
    session's ``history.phhs`` on a tap): each read every stored hand of the session
    again, on the event loop that serves every table (45 us a hand on a loaded
    machine: 135 ms a request at 3,000 hands, and one address may ask twice a
    second).  A finished hand is now read once and kept; the answers stay the same."""
    tid, host = create_table(server.url, game="sdr", seats=3, bots=2, bot_delay=0.0,
                             decision_seconds=5, time_bank_seconds=0, between_hands=120)
    _, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as ann:
            await ann.until(lambda st: st["you"]["host"])
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            await asyncio.wait_for(play_out(ann, 1), 60)

    asyncio.run(play())
    store = server.manager.get(tid).store
    reads: list[int] = []
    load_hand = store.load_hand

    def counted(table_id: str, hand_no: int) -> object:
        reads.append(hand_no)
        return load_hand(table_id, hand_no)

    load_hands = store.load_hands

    def counted_many(table_id: str, first: int, last: int) -> list[Any]:
        rows = load_hands(table_id, first, last)  # (the hand list's reads, s61-safe)
        reads.extend(row.hand_no for row in rows)
        return rows

    store.load_hand = counted
    store.load_hands = counted_many
    try:
        with httpx.Client(base_url=server.url, cookies={seat_cookie(tid): token}) as ann:
            first = ann.get(f"/api/tables/{tid}/hands").json()
            csv_first = ann.get(f"/api/tables/{tid}/hands.csv").text
            assert reads == [1]
            again = ann.get(f"/api/tables/{tid}/hands").json()
            csv_again = ann.get(f"/api/tables/{tid}/hands.csv").text
            assert reads == [1]  # (not read again)
            phhs = ann.get(f"/api/tables/{tid}/history.phhs").text
            assert reads == [1, 1]  # (once more, to build Ann's copy of it)
            assert ann.get(f"/api/tables/{tid}/history.phhs").text == phhs
            assert reads == [1, 1]
    finally:
        del store.load_hand, store.load_hands
    row = server.manager.get(tid).store.load_hand(tid, 1)
    net = row.result["net"]
    winners = [row.setup["names"][int(s)] for s, n in net.items() if n > 0]
    you_at = 0 if net["0"] > 0 else None  # (Ann's own name among them: s63-table)
    assert first == again == {"hands": [{"hand": 1, "game": "sdr", "net": net["0"],
                                         "winners": winners, "you_at": you_at}]}
    assert csv_first == csv_again and "[1]" in phhs
    assert csv_first.startswith("hand,game,seat,name,net\r\n1,sdr,0,Ann,")
    assert sum(int(line.split(",")[-1]) for line in csv_first.split("\r\n")[1:] if line) == 0


def test_api_answers_are_not_kept_by_caches(server: ServerThread) -> None:
    """A player's own answers (the table's state with their seat, their copy of a
    hand, their replay) depend on the seat cookie alone and carried no
    ``Cache-Control``: a caching reverse proxy or CDN could keep one and give it to
    the next player who asks the same address.  Every ``/api/`` answer is now
    ``no-store``; the pages keep their own (``no-cache``)."""
    tid, _ = create_table(server.url, game="sdr", seats=3, bots=1)
    _, token = join(server.url, tid, "Ann")
    with httpx.Client(base_url=server.url, cookies={seat_cookie(tid): token}) as ann:
        for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/hands", "/api/info",
                     f"/api/tables/{tid}/hands/1/history.toml", f"/api/tables/{tid}/stats"):
            resp = ann.get(path)
            assert resp.headers["cache-control"] == "no-store", (path, resp.status_code)
        assert ann.get(f"/t/{tid}").headers["cache-control"] == "no-cache"


def test_a_private_tables_rules_and_settings_are_not_for_outsiders(server: ServerThread) -> None:
    """Issue 27: an unapproved watcher of a private table is told its name and how to
    ask, nothing else; every other route of the table answers 403 ``private``, but
    ``/rules`` gave anyone with the link the table's whole settings (stakes, chip
    value, seats, computer players, house options)."""
    tid, host = create_table(server.url, game="sdr", seats=3, bots=1, private=True,
                             chip_value="0.25", ante=2)
    outsider = httpx.get(f"{server.url}/api/tables/{tid}/rules")
    assert outsider.status_code == 403 and outsider.json()["error"] == "private"
    assert "0.25" not in outsider.text
    # a player who sits down waits for the host's approval: not yet either
    _, token = join(server.url, tid, "Ann")
    waiting = httpx.get(f"{server.url}/api/tables/{tid}/rules",
                        cookies={seat_cookie(tid): token})
    assert waiting.status_code == 403
    hosting = httpx.get(f"{server.url}/api/tables/{tid}/rules",
                        cookies={host_cookie(tid): host})
    assert hosting.status_code == 200
    assert (hosting.json()["config"]["chip_value"], hosting.json()["config"]["ante"]) == (
        "0.25", 2)


def test_verify_is_built_once_per_copy(server: ServerThread) -> None:
    """``/hands/<n>/verify`` replayed the hand and checked the copy again at every
    request, in the default thread pool (six threads, not the replay thread that
    the tables share fairly): a burst of 30 (one address's allowance) cost 30
    replays.  It is now built once per copy and kept, on the replay thread; the
    answer is the same."""
    from rollem.server import game_session

    tid, host = create_table(server.url, game="sdr", seats=3, bots=2, bot_delay=0.0,
                             decision_seconds=5, time_bank_seconds=0, between_hands=120)
    _, token = join(server.url, tid, "Ann")

    async def play() -> None:
        async with Player(server.ws_url, tid, token, host) as ann:
            await ann.until(lambda st: st["you"]["host"])
            await ann.send({"type": "start", "seq": ann.state["seq"]})
            await asyncio.wait_for(play_out(ann, 1), 60)

    asyncio.run(play())
    restores: list[int] = []
    restore = game_session.GameSession.restore

    def counted(hand_no: int, *args: object) -> object:
        restores.append(hand_no)
        return restore(hand_no, *args)  # type: ignore[arg-type]

    game_session.GameSession.restore = counted  # type: ignore[method-assign,assignment]
    try:
        with httpx.Client(base_url=server.url, cookies={seat_cookie(tid): token}) as ann:
            answers = [ann.get(f"/api/tables/{tid}/hands/1/verify") for _ in range(5)]
    finally:
        game_session.GameSession.restore = restore  # type: ignore[method-assign]
    assert restores == [1]
    first = answers[0].json()
    assert all(a.status_code == 200 and a.json() == first for a in answers)
    assert first["seat"] == 0 and first["status"] == "verified"
    assert first["cards_checked"] >= 2


def test_a_private_tables_newcomer_cannot_write_in_its_chat(server: ServerThread) -> None:
    """At a private table a newcomer who sits down waits for the host's approval and
    sees nothing of the table (issue 27); they could still write in its chat, every
    line reaching the players: anyone with the link could post there.  Refused now
    (``not_approved``) until the host lets them in; then it works."""
    tid, host = create_table(server.url, game="sdr", seats=3, bots=0, private=True)
    bob_seat, bob_token = join(server.url, tid, "Bob")

    async def play() -> None:
        async with (Player(server.ws_url, tid, None, host) as hosting,
                    Player(server.ws_url, tid, bob_token) as bob):
            await hosting.until(lambda st: bob_seat in st["table"]["waiting"])
            await bob.recv()
            assert bob.state is not None and bob.state["table"].get("locked")
            await bob.send({"type": "chat", "text": "buy my stuff"})
            refused = await bob.until_error()
            assert refused["code"] == "not_approved"
            await hosting.send({"type": "host", "op": "approve", "seat": bob_seat})
            await bob.until(lambda st: not st["table"].get("locked"))
            await bob.send({"type": "chat", "text": "hello"})
            while True:
                msg = await hosting.recv()
                if msg["type"] == "chat" and msg["lines"]:
                    break
            assert [line["text"] for line in msg["lines"]] == ["hello"]

    asyncio.run(play())
