"""A costly showdown is computed off the event loop (issue 34, item 1): a host's
game file whose showdown needs many evaluations (still under the bound of
:mod:`rollem.games.cost`) has its actions applied to a copy of the hand in the
showdown thread; its table waits for the result, the other tables go on.

The showdown here is held on a :class:`threading.Event` (a controlled
slowness, not a timed one): while it is held, another table's ping is
answered and the costly table's own messages wait; once released, the hand
ends with its chips conserved.  Before, the showdown ran on the event loop:
the held showdown held every table, and the other table's ping went
unanswered.
"""

from __future__ import annotations

import asyncio
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile import costly_game_file
from test_server_gamefiles import play_out
from test_server_stored_gamefile import store_instead
from web_harness import Player, ServerThread, create_table, join

from rollem.engine.showdown import Showdown
from rollem.server.game_session import OFF_LOOP_EVALUATIONS


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path / "t.db")
    try:
        yield s
    finally:
        s.stop()


def test_a_held_showdown_holds_its_table_only(srv: ServerThread,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    entered, release = threading.Event(), threading.Event()
    threads: list[str] = []
    start = Showdown.start

    def held(self: Showdown, hand: Any) -> Any:
        threads.append(threading.current_thread().name)
        entered.set()
        release.wait(15)  # (never reached before the other table's pong, unless on the loop)
        return start(self, hand)

    # 10 cards a player, wild cards: 10,080 evaluations a showdown (accepted, costly)
    costly, costly_host = create_table(srv.url, game="big-wild",
                                       game_file=costly_game_file((5, 5)), seats=2,
                                       bots=0, decision_seconds=60, between_hands=120)
    other, other_host = create_table(srv.url, game="sdr", seats=2, bots=1)
    assert OFF_LOOP_EVALUATIONS < 10_080
    _, ann = join(srv.url, costly, "Ann")
    _, bob = join(srv.url, costly, "Bob")
    _, cy = join(srv.url, other, "Cy")
    monkeypatch.setattr(Showdown, "start", held)  # (after the file's trial deal)

    async def run() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        async with (Player(srv.ws_url, costly, ann, costly_host) as a,
                    Player(srv.ws_url, costly, bob) as b,
                    Player(srv.ws_url, other, cy, other_host) as c):
            await a.until(lambda st: st["you"]["host"])
            await b.until(lambda st: st["you"]["seat"] is not None)
            await c.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
            players = [a, b]
            acted: dict[int, Any] = {}
            # Both play passively (check or call) until the showdown is reached
            # (bounded: a table that stops answering fails here, it does not hang).
            reached_by = time.monotonic() + 60
            while not entered.is_set():
                assert time.monotonic() < reached_by, (
                    f"the showdown was never reached; errors {a.errors + b.errors}")
                for i, p in enumerate(players):
                    if (p.my_decision() and p.state is not None
                            and acted.get(i) != p.state["you"]["decision_seq"]):
                        acted[i] = p.state["you"]["decision_seq"]
                        await p.act_random(passive=True)
                done, _ = await asyncio.wait(
                    [asyncio.ensure_future(p.recv(0.3)) for p in players],
                    return_when=asyncio.ALL_COMPLETED)
                for t in done:
                    t.exception()  # (a quiet second is fine)
            # The showdown is held in its thread: the other table is answered ...
            await c.send({"type": "ping"})
            while (await c.recv(10))["type"] != "pong":
                pass
            assert not release.is_set()
            # ... and the costly table answers a sync with the hand before its last
            # action (committed, unchanged); a start (any changing message) waits.
            await a.send({"type": "sync"})
            waiting = await a.until(lambda st: True)
            await a.send({"type": "start", "seq": waiting["seq"]})
            release.set()
            final = await a.until(lambda st: st["table"]["last_result"] is not None, 30)
            late = await a.until_error(10)  # the start that waited, refused after
            return waiting, final, [late]

    try:
        waiting, final, errors = asyncio.run(run())
    finally:
        release.set()
    assert threads and all(t.startswith("rollem-showdowns") for t in threads), threads
    assert waiting["hand"]["result"] is None
    result = final["table"]["last_result"]
    assert result["hand"] == 1 and sum(result["net"].values()) == 0
    assert errors[0]["code"] == "already_started"


def test_a_table_stored_with_a_costlier_file_still_deals_off_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table stored with a file over the bound (accepted before it, as the file of
    issue 34 was) opens and deals as it did, its showdowns in the showdown thread;
    its hand's history downloads (built on the replay thread).  The file is 6, 5
    and 1 cards (31,680 evaluations a showdown, twice the 15,000 allowed), not issue
    34's 26 cards (2,631,200): the same paths (a stored file is read without the
    bound, and any file over 1,500 evaluations plays off the loop), without its three
    costly showdowns (about 13 of this test's 15 s, stop 63).  (A stored file is
    dealt on no trial at the restore: test_restore_no_trial_on_loop.py.)"""
    db = str(tmp_path / "t.db")
    accepted, attack = costly_game_file((5, 5)), costly_game_file((6, 5, 1))
    first = ServerThread(db)  # type: ignore[arg-type]
    try:
        r = httpx.post(first.url + "/api/tables", json={"game_file": attack})
        assert r.status_code == 400 and "31,680" in r.json()["message"]
        tid, host = create_table(first.url, game="big-wild", game_file=accepted, seats=2,
                                 bots=1, bot_delay=0, between_hands=600, decision_seconds=300)
        _, ann = join(first.url, tid, "Ann")
    finally:
        first.stop()
    store_instead(db, tid, accepted, attack)
    threads: list[str] = []
    start = Showdown.start

    def seen(self: Showdown, hand: Any) -> Any:
        threads.append(threading.current_thread().name)
        return start(self, hand)

    monkeypatch.setattr(Showdown, "start", seen)
    second = ServerThread(db)  # type: ignore[arg-type]
    try:
        async def one_hand() -> dict[str, Any]:
            async with Player(second.ws_url, tid, ann, host) as p:
                await p.until(lambda st: st["you"]["host"])
                await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
                dealt = await p.until(lambda st: st["hand"] is not None)
                assert len(dealt["hand"]["seats"][0]["cards"]) == 6  # the stored file's
                return await play_out(p, 1)

        st = asyncio.run(one_hand())
        assert st["table"]["last_result"]["hand"] == 1
        assert sum(s["stack"] for s in st["table"]["seats"] if s) == 400  # chips kept
        assert threads == ["rollem-showdowns-0"], threads
        history = httpx.get(f"{second.url}/api/tables/{tid}/hands/1/history.toml",
                            cookies={f"rollem_seat_{tid}": ann})
        assert history.status_code == 200
        assert tomllib.loads(history.text)["_game_file"] == attack
        assert threads[1:] == ["rollem-replays-0"], threads
    finally:
        second.stop()
    # Opened after a restart between hands, the table shows its last hand again,
    # replayed (showdown and all) in the showdown thread, not on the event loop.
    third = ServerThread(db)  # type: ignore[arg-type]
    try:
        async def reopen() -> dict[str, Any]:
            async with Player(third.ws_url, tid, ann, host) as p:
                return await p.until(lambda st: st["hand"] is not None
                                     and st["hand"]["result"] is not None)

        st = asyncio.run(reopen())
        assert st["hand"]["hand_no"] == 1
        assert threads[2:] == ["rollem-showdowns-0"], threads
    finally:
        third.stop()


async def _action_error(a: Player) -> dict[str, Any]:
    """The next error that answers an action: the ``start`` sent before may be
    answered ``too_late`` when the hand was dealt first (a race seen in CI)."""
    while True:
        error = await a.until_error()
        if (error.get("ref") or {}).get("type") == "action":
            return error


def test_an_action_applied_off_the_loop_is_refused_as_on_it(srv: ServerThread) -> None:
    """On a costly table the engine's refusal comes back from the showdown thread
    to the player who sent the action, as one error; a malformed action is refused
    at once; nothing changes either way."""
    tid, host = create_table(srv.url, game="big-wild", game_file=costly_game_file((5, 5)),
                             seats=2, bots=1, bot_delay=0, decision_seconds=60)
    _, ann = join(srv.url, tid, "Ann")

    async def run() -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        async with Player(srv.ws_url, tid, ann, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
            st = await a.until(lambda st: a.my_decision())
            errors = []
            for action in ({"kind": "raise", "to": 99_999}, {"kind": "nonsense"}):
                await a.send({"type": "action", "hand": st["hand"]["hand_no"],
                              "seq": st["seq"], "action": action})
                errors.append(await _action_error(a))
            await a.send({"type": "sync"})
            same = await a.until(lambda s: True)
            legal = st["hand"]["legal"]["actions"]
            await a.send({"type": "action", "hand": st["hand"]["hand_no"], "seq": st["seq"],
                          "action": {"kind": "check" if "check" in legal else "call"}})
            moved = await a.until(lambda s: s["seq"] > st["seq"])
            return errors, {**same, "was": st["seq"]}, moved

    errors, same, moved = asyncio.run(run())
    # (the protocol refuses an unknown kind before the table sees it)
    assert [e["code"] for e in errors] == ["illegal", "unknown_action"]
    assert "raise" in errors[0]["message"] and errors[0]["ref"]["type"] == "action"
    assert same["seq"] == same["was"]
    assert moved["hand"]["hand_no"] == 1


def test_a_hand_that_cannot_be_copied_refuses_the_action_and_keeps_the_socket(
        srv: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault copying the hand for the showdown thread (as the committed deck's
    HMAC object once was, issue 32) refuses the action with one error and keeps
    the connection: before, the exception closed the player's socket, and a
    player who never got an answer waited for ever."""
    from rollem.server.game_session import GameSession

    tid, host = create_table(srv.url, game="big-wild", game_file=costly_game_file((5, 5)),
                             seats=2, bots=1, bot_delay=0, decision_seconds=60)
    _, ann = join(srv.url, tid, "Ann")

    def uncopyable(self: GameSession) -> Any:
        raise TypeError("cannot pickle 'thing' object")

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Player(srv.ws_url, tid, ann, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
            await a.until(lambda st: a.my_decision())
            monkeypatch.setattr(GameSession, "hand_copy", uncopyable)
            await a.act_random(passive=True)
            error = await _action_error(a)
            await a.send({"type": "sync"})  # the same socket still answers
            return error, await a.until(lambda s: True)

    error, same = asyncio.run(run())
    assert error["code"] == "server_error" and "cannot pickle" in error["message"]
    assert same["hand"]["hand_no"] == 1 and same["you"]["decision_seq"] is not None
