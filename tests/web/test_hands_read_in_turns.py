"""A long table's stored hands are read in turns, the event loop serving the
other tables between (s61-safe).

The hand list (``/hands``, asked by every page after every hand; and
``hands.csv``, each hand's copy and verdict, for its sat-out records) reads
every finished hand's summary the first time a table is asked, and again
whenever the summaries kept (100,000 in all) were dropped: all of them in one
step of the event loop, 4 to 13 s for a table of 20,000 stored hands, every
table waiting; and past the cap every table's summaries were dropped at once,
so anyone with the links of six such tables could ask them in turn and have
each read again.  The whole-session download (``history.phhs``) read the
stored rows and actions of its up to 500 hands not built yet in one step too
(1 to 2.7 s).  ``hands.csv`` was built on the loop at every ask.  Now the summaries are
read 64 a step (64 a query), the download's hands 16 a step, the hand list 2,048 a
step, ``hands.csv`` built once per hand off the loop, and past the cap the tables
asked least recently are dropped first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerThread, create_table, join

from rollem.server import app_context, routes_session
from rollem.server.app_context import AppContext
from rollem.server.config import ServerSettings
from rollem.server.store import HandRow


class _Turns:
    """Counts the event loop's turns: a callback that schedules itself again runs
    once in each turn of the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.turn = 0
        self.loop = loop
        self.stopped = False
        loop.call_soon_threadsafe(self._tick)

    def _tick(self) -> None:
        self.turn += 1
        if not self.stopped:
            self.loop.call_soon(self._tick)


class _Store:
    """The store of a table of ``hands`` finished hands, its reads noted by turn."""

    def __init__(self, hands: int, turns: list[_Turns]) -> None:
        self.numbers = list(range(1, hands + 1))
        self.turns = turns
        self.reads: list[int] = []
        self.queries = 0
        self.unfinished: set[int] = set()

    def hand_numbers(self, table_id: str) -> list[int]:
        return self.numbers

    def load_hand(self, table_id: str, hand_no: int) -> HandRow:
        self.reads.append(self.turns[0].turn)
        return HandRow(hand_no, {"game": "holdem", "seats": [0, 1], "names": ["Ann", "Bob"]},
                       None if hand_no in self.unfinished else {"net": {"0": 5, "1": -5}})

    def load_hands(self, table_id: str, first: int, last: int) -> list[HandRow]:
        self.queries += 1
        return [self.load_hand(table_id, n) for n in self.numbers if first <= n <= last]


class _Table:
    def __init__(self, table_id: str, store: _Store) -> None:
        self.id = table_id
        self.store = store


def _most_in_one_turn(reads: list[int]) -> int:
    return max(reads.count(turn) for turn in set(reads))


def test_a_tables_hand_summaries_are_read_in_turns() -> None:
    turns: list[_Turns] = []
    store = _Store(2000, turns)
    ctx = AppContext(ServerSettings())

    async def ask() -> list[Any]:
        turns.append(_Turns(asyncio.get_running_loop()))
        try:
            return await ctx.finished_hands(_Table("long", store))  # type: ignore[arg-type]
        finally:
            turns[0].stopped = True

    store.unfinished = {1000}  # (a hand stored unfinished: never kept)
    hands = asyncio.run(ask())
    assert [h.hand_no for h in hands] == [n for n in store.numbers if n != 1000]
    assert hands[7].net(0) == 5 and hands[7].names == ("Ann", "Bob")
    assert len(store.reads) == 2000
    assert store.queries == 2000 // 64 + 1  # one query a turn (main: one a hand)
    # (main: all 2,000 in one turn)
    assert _most_in_one_turn(store.reads) == app_context.HANDS_READ_AT_ONCE == 64
    assert len(set(store.reads)) == 2000 // 64 + 1
    # asked again with two hands more: the unfinished one and the new ones read,
    # 64 rows from each, not the 936 kept between
    store.numbers += [2001, 2002]
    store.reads.clear()
    turns.clear()
    assert len(asyncio.run(ask())) == 2001 and len(store.reads) == 64 + 2
    store.reads.clear()
    turns.clear()
    assert len(asyncio.run(ask())) == 2001 and len(store.reads) == 64  # (hand 1000's)


def test_asks_of_a_table_at_once_read_its_hands_once() -> None:
    """Eight first asks at once of one table read its hands once, 64 a turn, the
    later asks waiting for the first (s61-hostile2; main: each ask read them all,
    14,208 rows of 2,000 here: 8 first asks of /hands at a table of 20,000
    stored hands read 157,760 rows and held the loop 12.5 s, not 2.4)."""
    turns: list[_Turns] = []
    store = _Store(2000, turns)
    ctx = AppContext(ServerSettings())
    table = _Table("long", store)

    async def asks() -> list[list[Any]]:
        turns.append(_Turns(asyncio.get_running_loop()))
        try:
            return await asyncio.gather(*(ctx.finished_hands(table)  # type: ignore[arg-type]
                                          for _ in range(8)))
        finally:
            turns[0].stopped = True

    got = asyncio.run(asks())
    assert [len(hands) for hands in got] == [2000] * 8
    assert all(hands == got[0] for hands in got)
    assert len(store.reads) == 2000  # (main: 14,208)
    assert _most_in_one_turn(store.reads) == 64  # (main: 64 for each ask in the turn)
    assert ctx._reading == {}
    # one ask cancelled while it reads: the others read the rest, once
    ctx = AppContext(ServerSettings())
    store.reads.clear()
    turns.clear()

    async def one_cancelled() -> list[list[Any]]:
        turns.append(_Turns(asyncio.get_running_loop()))
        try:
            first = asyncio.ensure_future(ctx.finished_hands(table))  # type: ignore[arg-type]
            others = [asyncio.ensure_future(ctx.finished_hands(table))  # type: ignore[arg-type]
                      for _ in range(3)]
            while len(store.reads) < 640:
                await asyncio.sleep(0)
            first.cancel()
            return await asyncio.gather(*others)
        finally:
            turns[0].stopped = True

    got = asyncio.run(one_cancelled())
    assert [len(hands) for hands in got] == [2000] * 3
    assert len(store.reads) == 2000 and _most_in_one_turn(store.reads) == 64


def test_past_the_cap_the_tables_asked_least_recently_are_dropped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_context, "KEPT_HANDS", 250)
    turns: list[_Turns] = []
    ctx = AppContext(ServerSettings())
    stores = {name: _Store(100, turns) for name in "abcd"}

    async def ask(name: str) -> None:
        turns.append(_Turns(asyncio.get_running_loop()))
        try:
            await ctx.finished_hands(_Table(name, stores[name]))  # type: ignore[arg-type]
        finally:
            turns.pop().stopped = True

    async def night() -> None:
        for name in "abca":  # a, b and c kept (300), a asked last
            await ask(name)
        assert [len(s.reads) for s in stores.values()] == [100, 100, 100, 0]
        await ask("d")  # past the cap: b (asked least recently) dropped, not all
        assert set(ctx._finished) == {"c", "a", "d"}
        await ask("a")
        await ask("c")
        # (main: every table dropped at the cap: a and c read again)
        assert [len(s.reads) for s in stores.values()] == [100, 100, 100, 100]

    asyncio.run(night())


@pytest.fixture
def played(server: ServerThread) -> Iterator[tuple[str, str]]:
    """A table where Ann played 6 hands against a computer player (then paused)."""
    tid, host = create_table(server.url, game="holdem", seats=2, bots=1, bot_delay=0.0,
                             between_hands=0.3)
    _seat, ann = join(server.url, tid, "Ann", 0)

    async def play() -> None:
        async with Player(server.ws_url, tid, ann, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            while (a.state["table"]["hand_no"] or 0) < 7:
                await a.recv(timeout=20)
                if a.my_decision():
                    await a.act_random(passive=True)
            await a.send({"type": "host", "op": "pause"})
            await a.until(lambda st: st["table"]["host_paused"], timeout=10)

    asyncio.run(play())
    yield tid, ann


def test_the_whole_session_download_reads_its_hands_in_turns(
        server: ServerThread, played: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    tid, ann = played
    monkeypatch.setattr(routes_session, "BULK_READ_AT_ONCE", 2, raising=False)
    table = server.manager.tables[tid]
    turns = [_Turns(server.server_loop())]
    store = table.store
    reads: list[int] = []
    load_actions = store.load_actions

    def counted(table_id: str, hand_no: int) -> Any:
        reads.append(turns[0].turn)
        return load_actions(table_id, hand_no)

    monkeypatch.setattr(store, "load_actions", counted)
    try:
        got = httpx.get(f"{server.url}/api/tables/{tid}/history.phhs",
                        cookies={f"rollem_seat_{tid}": ann}, timeout=30)
    finally:
        turns[0].stopped = True
    assert got.status_code == 200, got.text
    dealt = got.text.count("\n_hand = ")
    assert dealt >= 6 and len(reads) == dealt  # each hand's actions read once
    assert _most_in_one_turn(reads) == 2  # (main: every hand in one turn)


def test_hands_csv_is_built_once_off_the_event_loop(
        server: ServerThread, played: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``hands.csv`` is the same for every asker: built on the replay thread once per
    finished hand (main: built on the event loop at each ask, 0.5 to 0.8 s at a
    table of 20,000 hands)."""
    import threading

    from rollem import settle

    tid, _ann = played
    loop_thread = server.call(lambda: threading.current_thread().name)
    built_on: list[str] = []
    csv_rows = settle.csv_rows

    def counted(header: Any, rows: Any) -> str:
        built_on.append(threading.current_thread().name)
        return csv_rows(header, rows)

    monkeypatch.setattr(settle, "csv_rows", counted)
    url = f"{server.url}/api/tables/{tid}/hands.csv"
    first, second = httpx.get(url), httpx.get(url, headers={"X-Forwarded-For": "10.9.9.9"})
    assert first.status_code == second.status_code == 200
    assert first.text == second.text and first.text.startswith("hand,game,seat,name,net\r\n")
    lines = first.text.splitlines()[1:]
    assert len(lines) >= 12 and len(lines) == 2 * len({line.split(",")[0] for line in lines})
    assert len(built_on) == 1 and built_on[0] != loop_thread  # (main: 2, on the loop)


def test_the_hand_list_is_listed_in_turns(
        server: ServerThread, played: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand list looks at ``HANDS_LISTED_AT_ONCE`` hands a step (2,048; 2 here):
    at 20,000 hands one step held the loop 80 to 400 ms (main: every hand in one)."""
    from rollem.server import routes_hands

    tid, ann = played
    monkeypatch.setattr(routes_hands, "HANDS_LISTED_AT_ONCE", 2, raising=False)
    table = server.manager.tables[tid]
    turns = [_Turns(server.server_loop())]
    looked: list[int] = []
    seats_in_hands = table.seats_in_hands

    def counted(token: Any) -> Any:
        seat_in = seats_in_hands(token)

        def one(hand_no: int, seats: Any) -> Any:
            looked.append(turns[0].turn)
            return seat_in(hand_no, seats)
        return one

    monkeypatch.setattr(table, "seats_in_hands", counted)
    try:
        got = httpx.get(f"{server.url}/api/tables/{tid}/hands",
                        cookies={f"rollem_seat_{tid}": ann})
    finally:
        turns[0].stopped = True
    assert got.status_code == 200
    hands = got.json()["hands"]
    assert len(hands) >= 6 and len(looked) == len(hands)
    assert all(h["net"] is not None for h in hands)  # (Ann played every one)
    assert _most_in_one_turn(looked) == 2
