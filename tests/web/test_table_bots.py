"""Every computer player seat at every web table has its own bot.

A ``strong`` bot reads its opponents by seat number (:class:`OpponentBook`) and
caches the hand it plays; one bot object per level for the whole server mixed
the players of every table (and two strong seats at one table read as one
player).  Here two tables play interleaved on one event loop (as in one server
process): at one the people always bet or raise, at the other they only check
or call; each table's strong bot has counted exactly its own table's actions,
the ones it saw (those before its last decision of each hand, from the store).
Two strong bots at one table keep apart books; a released seat's bot is gone,
and the others forget what they read of that seat.
"""

from __future__ import annotations

import gc
import random
import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from virtual_table import InlineExecutor, InlineStore, VirtualLoop

from rollem.bots import make_bot
from rollem.bots.basic import BasicBot
from rollem.bots.strong import StrongBot
from rollem.engine.randomness import SeededSource
from rollem.server import live_table
from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store

Policy = Callable[[dict[str, Any]], dict[str, Any] | None]


def aggressive(legal: dict[str, Any]) -> dict[str, Any] | None:
    """Raise, else bet, else call (a capped round): never checks or folds."""
    acts = legal["actions"]
    if "raise" in acts:
        return {"kind": "raise", "to": legal["max_to"]}
    if "bet" in acts:
        return {"kind": "bet", "amount": legal["max_to"]}
    return {"kind": "call"} if "call" in acts else None


def passive(legal: dict[str, Any]) -> dict[str, Any] | None:
    """Check, else call: never bets, raises or folds."""
    acts = legal["actions"]
    for kind in ("check", "call"):
        if kind in acts:
            return {"kind": kind}
    return None


@contextmanager
def virtual_server(deal_seed: int = 11,
                   bot_seed: int = 12) -> Iterator[tuple[VirtualLoop, Store]]:
    """One event loop and one store for every table (one server process), bots
    deciding inline, deals and bots seeded by ``deal_seed`` and ``bot_seed``."""
    folder = Path(tempfile.mkdtemp(prefix="rollem-bots-"))
    loop = VirtualLoop()
    saved = (live_table._BOT_THREAD, LiveTable.__dict__.get("clock"),
             live_table.committed_source, LiveTable.__dict__["bot_factory"],
             live_table._PASSWORD_THREAD)
    deals, seeds = random.Random(deal_seed), random.Random(bot_seed)
    live_table._BOT_THREAD = InlineExecutor()  # type: ignore[assignment]
    live_table._PASSWORD_THREAD = InlineExecutor()  # type: ignore[assignment]
    LiveTable.clock = staticmethod(loop.time)  # type: ignore[assignment]
    # (people here send no client seed: the committed deal needs no wait, issue 32)
    seed_wait, LiveTable.CLIENT_SEED_WAIT = LiveTable.CLIENT_SEED_WAIT, 0.0
    live_table.committed_source = lambda proof: SeededSource(deals)  # type: ignore[assignment,misc]
    LiveTable.bot_factory = staticmethod(  # type: ignore[assignment]
        lambda level: make_bot(level, random.Random(seeds.getrandbits(64))))
    store = InlineStore(folder / "t.db")
    try:
        yield loop, store
    finally:
        store.close()
        loop.close()
        (live_table._BOT_THREAD, LiveTable.clock, live_table.committed_source,
         LiveTable.bot_factory, live_table._PASSWORD_THREAD) = saved  # type: ignore[assignment]
        LiveTable.CLIENT_SEED_WAIT = seed_wait
        shutil.rmtree(folder, ignore_errors=True)


def new_table(loop: VirtualLoop, store: Store, bots: int,
              bot_delay: float = 0.0) -> tuple[LiveTable, list[Client]]:
    """A started 3-seat SDR table (fixed limit): people in the first seats, strong
    computer players in the last ``bots`` (each acting ``bot_delay`` seconds after
    its decision opens); the host's client is ``table.host_client``."""
    config = parse_config({
        "game": "sdr", "seats": 3, "bots": bots, "bot_level": "strong", "stack": 400,
        "ante": 1, "small_bet": 2, "big_bet": 4, "decision_seconds": 600.0,
        "time_bank_seconds": 0.0, "grace_seconds": 1000.0, "between_hands": 0.5,
        "bot_delay": bot_delay, "rebuys": True,
    })
    table, _ = loop.call(LiveTable.create, store, config)
    host = Client(None, True)
    table.host_client = host  # type: ignore[attr-defined]
    loop.call(table.connect, host)
    people = []
    for seat in range(3 - bots):
        _, token = loop.call(table.join, f"P{seat}", seat)
        client = Client(table.seat_for_token(token))
        loop.call(table.connect, client)
        people.append(client)
    loop.call(table.handle, host, ClientMessage("start", None, table.seq, {}))
    return table, people


def play(loop: VirtualLoop, tables: list[tuple[LiveTable, list[Client], Policy]],
         hands: int) -> None:
    """Play every table on the one loop until each has finished ``hands`` hands
    (their hands interleave), then shut it down; people answer at once by their
    table's policy (card choices: the timeout's choice)."""
    while not all(t.closed for t, _, _ in tables):
        assert loop.now < 1_000_000 + 10_000, "the tables stopped dealing"
        loop.advance(0.1)
        for table, people, policy in tables:
            if table.hand is None and int(table.session["hand_no"]) >= hands:
                loop.call(table.shutdown)
            for client in people:
                client._pending.clear()
                seat = client.seat
                if table.hand is None or seat not in table.decision_seq:
                    continue
                legal = table.hand.view(seat)["legal"]
                action = policy(legal) or table.hand.timeout_action(seat)
                msg = ClientMessage("action", table.hand.hand_no, table.seq, {"action": action})
                loop.call(table.handle, client, msg)


def seen_counts(store: Store, table: LiveTable, me: int) -> dict[int, dict[str, int]]:
    """By hand from the store: the betting actions of ``me``'s opponents that ``me``
    saw (those before its last action of each hand), by seat."""
    counts: dict[int, dict[str, int]] = {}
    for hand_no in range(1, int(table.session["hand_no"]) + 1):
        actions = store.load_actions(table.id, hand_no)
        mine = [i for i, a in enumerate(actions) if a.seat == me]
        for a in actions[:mine[-1]] if mine else []:
            kind = a.action["kind"]
            if a.seat != me and kind in ("bet", "raise", "call", "check", "fold"):
                seat = counts.setdefault(a.seat, dict.fromkeys(
                    ("bets", "raises", "calls", "checks", "folds"), 0))
                seat[kind + "s"] += 1
    return counts


def book_counts(bot: StrongBot) -> dict[int, dict[str, int]]:
    return {seat: {"bets": t.bets, "raises": t.raises, "calls": t.calls,
                   "checks": t.checks, "folds": t.folds}
            for seat, t in bot.book.seats.items()}


def test_two_tables_interleaved_each_strong_bot_reads_only_its_own_table() -> None:
    with virtual_server() as (loop, store):
        raising, raisers = new_table(loop, store, bots=1)
        calling, callers = new_table(loop, store, bots=1)
        play(loop, [(raising, raisers, aggressive), (calling, callers, passive)], hands=4)
        a, b = raising.seats[2].bot, calling.seats[2].bot
        assert isinstance(a, StrongBot) and isinstance(b, StrongBot) and a is not b
        assert raising.seating.computer_player(2) is a  # kept over the session, not remade

        read_a, read_b = book_counts(a), book_counts(b)
        assert read_a == seen_counts(store, raising, 2)
        assert read_b == seen_counts(store, calling, 2)
        assert set(read_a) == set(read_b) == {0, 1}  # never itself, nobody else's seats
        for seat in (0, 1):
            # The raisers never checked; the callers never bet or raised.
            assert read_a[seat]["checks"] == 0 and read_a[seat]["bets"] + read_a[seat]["raises"] > 0
            assert read_b[seat]["bets"] == read_b[seat]["raises"] == 0
            assert read_b[seat]["checks"] > 0


def test_two_strong_bots_at_one_table_keep_apart_books() -> None:
    with virtual_server() as (loop, store):
        table, people = new_table(loop, store, bots=2)
        play(loop, [(table, people, aggressive)], hands=3)
        one, two = table.seats[1].bot, table.seats[2].bot
        assert isinstance(one, StrongBot) and isinstance(two, StrongBot)
        assert one is not two and one.book is not two.book
        assert book_counts(one) == seen_counts(store, table, 1)
        assert book_counts(two) == seen_counts(store, table, 2)
        assert set(book_counts(one)) == {0, 2} and set(book_counts(two)) == {0, 1}


def test_a_released_seat_drops_its_bot_and_the_others_forget_it() -> None:
    with virtual_server() as (loop, store):
        table, people = new_table(loop, store, bots=2)
        play(loop, [(table, people, aggressive)], hands=2)  # (then no decision is open)
        gone = table.seats[1].bot
        assert isinstance(gone, StrongBot)
        stays = table.seating.computer_player(2)
        assert 1 in stays.book.seats and 0 in stays.book.seats
        freed = loop.call(table.seating.release_seat, 1)
        assert freed.bot is None and 1 not in table.seats
        assert 1 not in stays.book.seats and 0 in stays.book.seats  # read of seat 1 forgotten
        dropped = weakref.ref(gone)
        del gone, freed
        gc.collect()
        assert dropped() is None  # nothing holds the released seat's bot


def test_a_seat_stored_with_no_level_plays_at_the_tables_level() -> None:
    """A seat whose row names no computer player's level (a person's) is played,
    when a computer player is asked for it, at the table's own level
    (``TableConfig.bot_level``), not at ``random`` (s71: the fallback was random
    while the table's default had become basic)."""
    with virtual_server() as (loop, store):
        table, _people = new_table(loop, store, bots=1)  # bot_level strong
        assert table.seats[0].row.bot is None and table.seats[2].row.bot == "strong"
        own = table.seating.computer_player(0)
        assert isinstance(own, StrongBot) and table.seats[0].bot_level == "strong"
        table.config = replace(table.config, bot_level="basic")
        assert isinstance(table.seating.computer_player(1), BasicBot)
        assert table.seats[1].bot_level == "basic"
        assert isinstance(table.seating.computer_player(2), StrongBot)  # its own level
        loop.call(table.shutdown)


def test_a_new_occupant_of_a_seat_gets_a_new_bot() -> None:
    with virtual_server() as (loop, store):
        table, people = new_table(loop, store, bots=1)
        play(loop, [(table, people, passive)], hands=2)
        first = table.seating.computer_player(2)
        assert first.book.seats  # it has read the people
        row = table.seats[2].row
        loop.call(table.seating.release_seat, 2)
        table.seats[2] = live_table.Seat(row)  # the next occupant (as a rebuilt table's)
        fresh = table.seating.computer_player(2)
        assert isinstance(fresh, StrongBot) and fresh is not first and not fresh.book.seats


def test_a_computer_player_removed_mid_hand_times_out_at_once() -> None:
    # R-C-15 as the table applies it: a seat gone mid-hand (here removed by the
    # host) has its later decisions timed out at once -- check if possible, else
    # fold -- by the clock, not played by its computer player. Before: the
    # removed bot went on playing seat 1 (source "bot", after bot_delay).
    with virtual_server() as (loop, store):
        table, (person,) = new_table(loop, store, bots=2, bot_delay=5.0)
        host: Client = table.host_client  # type: ignore[attr-defined]
        removed_at = None
        while table.hand is not None and int(table.session["hand_no"]) == 1:
            assert loop.now < 1_000_000 + 1_000, "the hand stopped"
            if removed_at is not None:
                assert 1 not in table.decision_seq  # never left waiting
            if 0 in table.decision_seq:
                if removed_at is None:
                    removed_at = len(store.load_actions(table.id, 1))
                    loop.call(table.handle, host, ClientMessage(
                        "host", None, None, {"op": "remove", "seat": 1}))
                    assert table.seats[1].gone
                legal = table.hand.view(0)["legal"]
                msg = ClientMessage("action", 1, table.seq,
                                    {"action": aggressive(legal) or {"kind": "check"}})
                loop.call(table.handle, person, msg)
            loop.advance(0.1)
        actions = store.load_actions(table.id, 1)
        assert removed_at is not None
        before = [(a.seat, a.source) for a in actions[:removed_at]]
        assert (1, "bot") in before  # it played while seated
        after = [(a.action, a.source) for a in actions[removed_at:] if a.seat == 1]
        # The person's raise faced seat 1 next: nothing to check, so the clock folded.
        assert after == [({"kind": "fold"}, "timeout")]
