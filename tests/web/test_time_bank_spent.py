"""The time bank a player uses is spent (R-C-15, stop 57): a decision made after
the decision clock ran out, in the bank, took that time off the bank.  Before,
the decision's clock was closed before the bank was settled, so a player's own
late action never spent any of it: a friend could take the clock and the whole
bank at every decision of the night (only a timeout emptied it)."""

from __future__ import annotations

import asyncio

from web_harness import Player, ServerThread, create_table, decision_clock_on, join


def test_a_late_action_spends_the_bank_it_used(server: ServerThread) -> None:
    tid, host = create_table(server.url, game="sdr", seats=2, bots=0, decision_seconds=0.3,
                             time_bank_seconds=10.0, between_hands=60)
    (s0, t0), (s1, t1) = join(server.url, tid, "Ann"), join(server.url, tid, "Bob")

    async def run() -> None:
        async with Player(server.ws_url, tid, t0, host) as a, Player(server.ws_url, tid, t1) as b:
            await a.until(lambda st: st["you"]["host"])
            await b.until(lambda st: st["you"]["seat"] == s1)
            await a.send({"type": "start", "seq": a.state["seq"]})
            st = await a.until(lambda st: st["hand"] is not None and st["hand"]["to_act"])
            first = st["hand"]["to_act"][0]
            me = a if first == s0 else b
            assert st["table"]["seats"][first]["bank"] == 10.0
            # the clock's 0.3 s, then 1.5 s of the bank: moved on the decision's clock,
            # not waited (stop 61; the bank spent is worked out from it as in real time)
            await asyncio.to_thread(decision_clock_on, server, tid, first, 1.8)
            await me.send({"type": "action", "seq": st["seq"], "hand": st["hand"]["hand_no"],
                           "action": {"kind": "check"}})
            st = await a.until(lambda st: st["hand"] is not None
                               and st["hand"]["to_act"] != [first])
            rows = server.manager.store.load_actions(tid, 1)
            assert rows[0].seat == first and rows[0].source == "player"
            bank = st["table"]["seats"][first]["bank"]
            assert 6.0 <= bank <= 8.6, bank  # (10 less 1.5 s, and the way's delay)

    asyncio.run(run())


async def _first_to_act_gone(server: ServerThread, tid: str, host: str,
                             ann: tuple[int, str], bob: tuple[int, str]
                             ) -> tuple[Player, int, str]:
    """Ann (the host) and Bob, each ``(seat, token)``, connect to table ``tid``; Ann
    deals, and every page of the first player to act closes.  Returns the other
    player (connected: the caller closes it), the seat to act and its token."""
    (s0, t0), (s1, t1) = ann, bob
    a, b = Player(server.ws_url, tid, t0, host), Player(server.ws_url, tid, t1)
    await a.__aenter__()
    await b.__aenter__()
    await a.until(lambda st: st["you"]["host"])
    await b.until(lambda st: st["you"]["seat"] == s1)
    await a.send({"type": "start", "seq": a.state["seq"]})
    st = await a.until(lambda st: st["hand"] is not None and st["hand"]["to_act"])
    first = st["hand"]["to_act"][0]
    gone, stays = (a, b) if first == s0 else (b, a)
    await gone.__aexit__()
    return stays, first, t0 if first == s0 else t1


def test_a_closed_page_gets_the_clock_alone_and_keeps_its_bank(server: ServerThread) -> None:
    """Every page of the player to act closes (a friend gone home, a dead phone):
    the clock decides when the decision time ends, not after the time bank too (a
    table of friends waited 30 s and 60 s at such a player's first decision); the
    bank is kept for their return, and shown again once they are back (and, the
    clock having sat them out, press I'm back).  (A bank of 600 s: a clock that
    waited it too would be seen past the generous wait below on any machine,
    without timing the clock's 0.5 s.)"""
    tid, host = create_table(server.url, game="sdr", seats=2, bots=0, decision_seconds=0.5,
                             time_bank_seconds=600.0, grace_seconds=60, between_hands=60)
    (s0, t0), (s1, t1) = join(server.url, tid, "Ann"), join(server.url, tid, "Bob")

    async def run() -> None:
        stays, first, token = await _first_to_act_gone(server, tid, host, (s0, t0), (s1, t1))
        try:
            st = await stays.until(lambda st: st["hand"] is not None  # (main: 600.5 s,
                                   and st["hand"]["to_act"] != [first], timeout=120)  # + bank)
            rows = server.manager.store.load_actions(tid, 1)
            assert rows[0].seat == first and rows[0].source == "timeout"
            kept = server.manager.tables[tid].seats[first].row.bank
            assert 599.9 <= kept <= 600.0, kept  # (main: 0, spent; less the timer's lateness)
            assert st["table"]["seats"][first]["away"]
            assert st["table"]["seats"][first]["bank"] == 0.0  # (none while away)
            back = Player(server.ws_url, tid, token, host if first == s0 else None)
            await back.__aenter__()
            try:
                st = await stays.until(lambda st: not st["table"]["seats"][first]["away"])
                # (sat out by the clock, no bank counts until "I'm back": s61-night)
                assert first in st["table"]["sitting_out"]
                assert st["table"]["seats"][first]["bank"] == 0.0
                await back.send({"type": "sit_out", "out": False})
                st = await stays.until(lambda st: first not in st["table"]["sitting_out"])
                assert st["table"]["seats"][first]["bank"] >= 599.9
            finally:
                await back.__aexit__()
        finally:
            await stays.__aexit__()

    asyncio.run(run())


def test_sitting_out_in_the_bank_spends_what_it_used_once(server: ServerThread) -> None:
    """A player who sits out while in the time bank has the clock act at once and
    keeps the bank less what it used, once (s61-hostile2: the clock's action took
    the bank used off twice, in the timeout and again as the action was applied:
    10 s less 4 s used left 2 s, not 6; the same for a page closed in the bank)."""
    tid, host = create_table(server.url, game="sdr", seats=2, bots=0, decision_seconds=0.4,
                             time_bank_seconds=10.0, between_hands=60)
    (s0, t0), (s1, t1) = join(server.url, tid, "Ann"), join(server.url, tid, "Bob")

    async def run() -> None:
        async with Player(server.ws_url, tid, t0, host) as a, Player(server.ws_url, tid, t1) as b:
            await a.until(lambda st: st["you"]["host"])
            await b.until(lambda st: st["you"]["seat"] == s1)
            await a.send({"type": "start", "seq": a.state["seq"]})
            st = await a.until(lambda st: st["hand"] is not None and st["hand"]["to_act"])
            first = st["hand"]["to_act"][0]
            me = a if first == s0 else b
            decision_clock_on(server, tid, first, 4.4)  # (the clock's 0.4 s and 4 s of the bank)
            await me.send({"type": "sit_out", "out": True})
            st = await a.until(lambda st: st["hand"] is not None
                               and st["hand"]["to_act"] != [first])
            rows = server.manager.store.load_actions(tid, 1)
            assert rows[0].seat == first and rows[0].source == "timeout"
            kept = server.manager.tables[tid].seats[first].row.bank
            assert 5.0 <= kept <= 6.0, kept  # (main: 2 less twice the way's delay)
            await me.send({"type": "sit_out", "out": False})
            st = await a.until(lambda st: first not in st["table"]["sitting_out"])
            assert st["table"]["seats"][first]["bank"] == round(kept, 1)

    asyncio.run(run())


def test_a_late_clock_spends_none_of_a_bank_that_did_not_count(server: ServerThread) -> None:
    """The clock acts for a player whose pages are all closed (the bank does not
    count then, stop 57) 40 s after the decision opened, 10 s past its 30 s clock
    (a stalled machine, a restart): the bank kept for their return is all there.
    Stop 74: the 10 s came off it, 590 of 600 left (the tests above allowed the
    timer's lateness, tens of milliseconds, to come off)."""
    tid, host = create_table(server.url, game="sdr", seats=2, bots=0, decision_seconds=30,
                             time_bank_seconds=600.0, grace_seconds=60, between_hands=60)
    (s0, t0), (s1, t1) = join(server.url, tid, "Ann"), join(server.url, tid, "Bob")

    async def run() -> None:
        stays, first, _token = await _first_to_act_gone(server, tid, host, (s0, t0), (s1, t1))
        try:
            await stays.until(lambda st: st["table"]["seats"][first]["away"])

            def late_clock() -> None:
                table = server.manager.get(tid)
                opened = table.turns.decision_opened[first]
                table.clock = lambda: opened + 40.0  # type: ignore[method-assign]
                table.turns.timeout(first, table.turns.decision_seq[first])

            server.call(late_clock)
            await stays.until(lambda st: st["hand"] is None or st["hand"]["to_act"] != [first])
            rows = server.manager.store.load_actions(tid, 1)
            assert rows[0].seat == first and rows[0].source == "timeout"
            assert server.manager.tables[tid].seats[first].row.bank == 600.0
        finally:
            await stays.__aexit__()

    asyncio.run(run())
