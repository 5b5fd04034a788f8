"""A costly game's hand in play that cannot be replayed at a restore is left void
(s64-loop: before, the restore itself raised and the table could not be opened);
s64-loop2's hostile pass of that path.

A void hand is as if never dealt: each seat keeps its stack from before it (its
chips were never settled), the chips it carried in from the hand before
(``carry_in``, R-521-9: taken off ``session["carried"]`` at its deal) are
carried again, a seat the host removed during it is freed (its removal waited
for the hand's end), and the session no longer says a hand is in play.  Before:
the carried chips were lost, the removed seat was held until the end of a next
hand (never, where no hand could be dealt without it), and the session kept
``in_hand`` (the replay was tried, and failed, at every restart).  And the
session's statistics (``/api/tables/{id}/stats``, counted hand by hand up to the
hand in play) stopped at the void hand for the rest of the session.

The replay is made to fail in the showdown thread (a stand-in for a stored hand
the engine no longer replays); the game is the in-process test's file of
:mod:`test_deal_showdown_off_loop` (no betting round: each hand is over at its
deal).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_deal_showdown_off_loop import as_in_play, costly_table_played, dealt_to_the_showdown
from web_harness import Player, ServerThread

from rollem.server.game_session import GameSession


def _stored_in_play(tmp_path: Path) -> tuple[Path, str, str, str]:
    """A costly table (Ann in seat 0, a computer player in seat 1, 400 chips) whose
    hand 1 is stored as in play; returns (database, table id, host token, Ann's token)."""
    db = tmp_path / "t.db"
    tid, host, ann, _ = costly_table_played(db, dealt_to_the_showdown((5,), (3,)))
    assert as_in_play(db, tid) == 1
    return db, tid, host, ann


def _edit(db: Path, tid: str, config: dict[str, Any] | None = None,
          session: dict[str, Any] | None = None, setup: dict[str, Any] | None = None) -> None:
    """Change the stored table ``tid``: its ``config``, ``session`` and hand 1's
    ``setup`` updated with the keys given."""
    con = sqlite3.connect(db)
    with con:
        for column, table, key, changes in (("config", "tables", "id", config),
                                            ("session", "tables", "id", session)):
            if changes:
                row = json.loads(con.execute(f"SELECT {column} FROM {table} WHERE {key} = ?",
                                             (tid,)).fetchone()[0])
                row.update(changes)
                con.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?",
                            (json.dumps(row), tid))
        if setup:
            row = json.loads(con.execute("SELECT setup FROM hands WHERE table_id = ? AND "
                                         "hand_no = 1", (tid,)).fetchone()[0])
            row.update(setup)
            con.execute("UPDATE hands SET setup = ? WHERE table_id = ? AND hand_no = 1",
                        (json.dumps(row), tid))
    con.close()


def _stored(db: Path, tid: str) -> tuple[dict[str, Any], dict[int, int]]:
    """The stored session of ``tid`` and its seats' stacks."""
    con = sqlite3.connect(db)
    session = json.loads(con.execute("SELECT session FROM tables WHERE id = ?",
                                     (tid,)).fetchone()[0])
    stacks = {int(s): int(n) for s, n in con.execute(
        "SELECT seat, stack FROM seats WHERE table_id = ?", (tid,))}
    con.close()
    return session, stacks


def _replays_fail(monkeypatch: pytest.MonkeyPatch, error: Exception) -> threading.Event:
    """Every hand replayed in the showdown thread raises ``error`` (the event is set
    once one did)."""
    failed = threading.Event()
    real = GameSession.restore.__func__  # type: ignore[attr-defined]

    def failing(cls: type[GameSession], hand_no: int, setup: dict[str, Any],
                actions: list[Any]) -> GameSession:
        if threading.current_thread().name.startswith("rollem-showdowns"):
            failed.set()
            raise error
        return real(cls, hand_no, setup, actions)  # type: ignore[no-any-return]

    monkeypatch.setattr(GameSession, "restore", classmethod(failing))
    return failed


@pytest.fixture
def replay_fails(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Every hand replayed in the showdown thread fails (set once it did)."""
    return _replays_fail(monkeypatch, RuntimeError("this hand cannot be replayed"))


def test_a_void_hand_keeps_its_carried_chips_and_frees_its_removed_seat(
        tmp_path: Path, replay_fails: threading.Event) -> None:
    db, tid, _, _ = _stored_in_play(tmp_path)
    # hand 1 carried 20 chips in (taken off the session's carry at its deal), and
    # the host removed the computer player during it
    _edit(db, tid, session={"carried": 0, "removed": [1]}, setup={"carry_in": 20})
    before, stacks = _stored(db, tid)
    assert before["in_hand"] and sum(stacks.values()) == 400 and stacks.keys() == {0, 1}
    third = ServerThread(db)
    try:
        assert httpx.get(f"{third.url}/api/tables/{tid}", timeout=30).status_code == 200
        assert replay_fails.wait(20)

        def settled() -> bool:
            table = third.manager.tables[tid]
            return not table.session.get("in_hand") and 1 not in table.seats

        for _ in range(100):  # (the void hand is settled on the loop once it is back)
            if third.call(settled):
                break
            threading.Event().wait(0.05)
    finally:
        third.stop()
    session, stacks = _stored(db, tid)
    departed = sum(int(line["stack"]) for line in session.get("departed", []))
    assert not session["in_hand"]  # (main: still in play, replayed at every restart)
    assert 1 not in stacks and session.get("removed") == []  # (main: held)
    # (main: 400 -- the 20 chips carried in were lost with the void hand)
    assert sum(stacks.values()) + departed + int(session["carried"]) == 420


def test_the_stats_count_the_hands_after_a_void_hand(
        tmp_path: Path, replay_fails: threading.Event) -> None:
    db, tid, host, ann = _stored_in_play(tmp_path)
    _edit(db, tid, config={"between_hands": 0.5})

    async def next_hand(ws_url: str) -> dict[str, Any]:
        async with Player(ws_url, tid, ann, host) as a:
            return await a.until(
                lambda st: (st["table"]["last_result"] or {}).get("hand") == 2, 30)

    third = ServerThread(db)
    try:
        st = asyncio.run(next_hand(third.ws_url))
        assert replay_fails.is_set()
        stats = httpx.get(f"{third.url}/api/tables/{tid}/stats", timeout=30).json()
    finally:
        third.stop()
    assert sum(s["stack"] for s in st["table"]["seats"] if s) == 400
    assert stats["hands"] == 1, stats  # hand 2 (main: 0, stopped at the void hand 1)


def test_a_failed_replay_of_the_last_finished_hand_logs_no_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The last finished hand of a costly game, replayed in the showdown thread for
    the felt at a restore (s63-restore), logged its fault as ``%r``: an engine
    fault's words may quote a hand's hidden cards (its mucked hands), which every
    other log line of the table writes as ``??`` (``fault_without_cards``)."""
    db, tid, _, _ = _stored_in_play(tmp_path)
    _edit(db, tid, session={"in_hand": False})  # (hand 1 finished: its result kept)
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE hands SET result = ? WHERE table_id = ? AND hand_no = 1",
                    (json.dumps({"net": {"0": 0, "1": 0}}), tid))
        session = json.loads(con.execute("SELECT session FROM tables WHERE id = ?",
                                         (tid,)).fetchone()[0])
        session["last_result"] = {"hand": 1, "game": "big-wild", "net": {"0": 0, "1": 0}}
        con.execute("UPDATE tables SET session = ? WHERE id = ?", (json.dumps(session), tid))
    con.close()
    failed = _replays_fail(monkeypatch, ValueError("seat 2 mucked Ah Kd"))
    caplog.set_level("ERROR", logger="rollem.server")
    third = ServerThread(db)
    try:
        assert httpx.get(f"{third.url}/api/tables/{tid}", timeout=30).status_code == 200
        assert failed.wait(20)
        for _ in range(100):  # (logged on the loop once the replay is back)
            if any("could not be replayed" in r.getMessage() for r in caplog.records):
                break
            threading.Event().wait(0.05)
    finally:
        third.stop()
    lines = [r.getMessage() for r in caplog.records if "could not be replayed" in r.getMessage()]
    assert lines, [r.getMessage() for r in caplog.records]
    assert all("Ah" not in line and "Kd" not in line for line in lines), lines  # (main: both)
    assert any("??" in line for line in lines), lines



def _voided(tmp_path: Path, config: dict[str, Any] | None = None,
            bomb_pot: int = 0) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """Hand 1 of :func:`_stored_in_play` (``config`` changed as given; stored as a
    bomb pot of ``bomb_pot`` chips a player when not 0) left void at a restore;
    returns hand 1's setup, the stored session after (with ``next_button``: the
    button of the next deal, both seats dealt in) and whether the next hand is a
    bomb pot (:meth:`rollem.table.Table.bomb_pot_due`: this file's game has no
    betting round, so none is dealt, and the model is asked)."""
    db, tid, _, _ = _stored_in_play(tmp_path)
    con = sqlite3.connect(db)
    hand_1 = json.loads(con.execute("SELECT setup FROM hands WHERE table_id = ? AND "
                                    "hand_no = 1", (tid,)).fetchone()[0])
    con.close()
    options = dict(hand_1["options"], bomb_pot=bomb_pot) if bomb_pot else None
    _edit(db, tid, config=config, setup={"options": options} if options else None)
    third = ServerThread(db)
    try:
        assert httpx.get(f"{third.url}/api/tables/{tid}", timeout=30).status_code == 200
        table = third.manager.tables[tid]
        for _ in range(200):  # (the void hand is settled on the loop once it is back)
            if third.call(lambda: not table.session.get("in_hand")):
                break
            threading.Event().wait(0.05)
        next_button = third.call(lambda: table.dealer.session_table(out=set()).next_deal().button)
        due = third.call(lambda: table.dealer.session_table().bomb_pot_due())
    finally:
        third.stop()
    session, _ = _stored(db, tid)
    assert not session["in_hand"]
    session["next_button"] = next_button
    return hand_1, session, bool(due)


def test_a_void_hand_moves_neither_the_button_nor_the_bomb_pot_count(
        tmp_path: Path, replay_fails: threading.Event) -> None:
    """A void hand is like a misdeal (s64-table2): the same button deals the next
    hand, and the hand is not counted toward "a bomb pot every N hands"."""
    hand_1, session, due = _voided(tmp_path, config={"bomb_pot_every": 2})
    assert replay_fails.is_set()
    # the same button; hand 2 is the session's first counted hand, the bomb pot the
    # one after (main: (1, True) -- one seat on, and due: the void hand counted)
    assert (session["next_button"], due) == (hand_1["button"], False)


def test_a_void_bomb_pot_the_host_called_is_called_again(
        tmp_path: Path, replay_fails: threading.Event) -> None:
    """The void hand was the bomb pot the host called (its deal took the call,
    ``bomb_pot_next``): the next hand is one again."""
    _, session, due = _voided(tmp_path, bomb_pot=20)
    assert replay_fails.is_set()
    assert session.get("bomb_pot_next") is True and due  # (main: the call was lost)
