"""The time bank a player uses is spent (R-C-15, stop 57): a decision made after
the decision clock ran out, in the bank, took that time off the bank.  Before,
the decision's clock was closed before the bank was settled, so a player's own
late action never spent any of it: a friend could take the clock and the whole
bank at every decision of the night (only a timeout emptied it)."""

from __future__ import annotations

import asyncio

from web_harness import Player, ServerThread, create_table, join


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
            await asyncio.sleep(1.8)  # the clock's 0.3 s, then 1.5 s of the bank
            await me.send({"type": "action", "seq": st["seq"], "hand": st["hand"]["hand_no"],
                           "action": {"kind": "check"}})
            st = await a.until(lambda st: st["hand"] is not None and st["hand"]["to_act"] != [first])
            rows = server.manager.store.load_actions(tid, 1)
            assert rows[0].seat == first and rows[0].source == "player"
            bank = st["table"]["seats"][first]["bank"]
            assert 6.0 <= bank <= 8.6, bank  # (10 less 1.5 s, and the way's delay)
            assert server.manager.tables[tid].seats[first].row.bank == bank or \
                abs(server.manager.tables[tid].seats[first].row.bank - bank) < 0.1

    asyncio.run(run())
