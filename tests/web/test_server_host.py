"""Host controls, sitting out and chat over the websocket protocol (issue 15):
who may do what, what each refusal says, and what is kept with the session."""

from __future__ import annotations

import asyncio

import pytest
from web_harness import Player, ServerThread, create_table, join

from rollem.server.chat import BURST, MAX_CHARS, REFILL_SECONDS, ChatError, ChatLog, clean_text


def test_chat_lines_are_cleaned_and_rate_limited_by_a_token_bucket() -> None:
    assert clean_text("  hi\u200b\x07  there\n ") == "hi there"
    for bad in ("", "   \x00 ", 5, "x" * (MAX_CHARS + 1)):
        with pytest.raises(ChatError):
            clean_text(bad)
    log = ChatLog()
    for i in range(BURST):
        assert log.add(1, "Bob", f"l{i}", now=100.0)["id"] == i + 1
    with pytest.raises(ChatError) as err:
        log.add(1, "Bob", "one more", now=100.0)
    assert err.value.code == "chat_rate" and len(log.lines) == BURST
    log.add(2, "Ann", "another seat has its own bucket", now=100.0)
    log.add(1, "Bob", "one refilled", now=100.0 + REFILL_SECONDS)
    with pytest.raises(ChatError):
        log.add(1, "Bob", "too soon", now=100.0 + REFILL_SECONDS + 0.1)
    assert [line["text"] for line in log.lines][-2:] == ["another seat has its own bucket",
                                                          "one refilled"]


def test_only_the_host_controls_the_table_and_the_role_can_be_handed_over(
        server: ServerThread) -> None:
    tid, host_token = create_table(server.url, game="sdr", seats=4, bots=1,
                                   decision_seconds=300, between_hands=600)
    _, ann = join(server.url, tid, "Ann")
    _, bob = join(server.url, tid, "Bob")

    async def run() -> None:
        async with Player(server.ws_url, tid, ann, host_token) as host, \
                Player(server.ws_url, tid, bob) as guest:
            await host.until(lambda s: s["you"]["host"])
            await guest.until(lambda s: not s["you"]["host"])
            await guest.send({"type": "host", "op": "pause"})
            assert (await guest.until_error())["code"] == "not_host"
            await host.send({"type": "host", "op": "explode"})
            assert (await host.until_error())["code"] == "bad_op"
            # A playing person cannot be removed; the computer player can.
            await host.send({"type": "host", "op": "remove", "seat": 1})
            assert (await host.until_error())["code"] == "not_idle"
            await host.send({"type": "host", "op": "config", "config": {"stack": 5}})
            err = await host.until_error()
            assert err["code"] == "bad_config" and "stack" in err["message"]
            await host.send({"type": "host", "op": "config", "config": {"big_bet": 1}})
            # (the Change's labels, stop 54)
            assert "Big bet (1) must be at least Small bet" in (await host.until_error())["message"]
            await host.send({"type": "host", "op": "config",
                             "config": {"structure": "pot-limit", "ante": 2}})
            st = await guest.until(lambda s: s["table"]["config"]["ante"] == 2)
            assert st["table"]["config"]["structure"] == "pot-limit"
            await host.send({"type": "host", "op": "remove", "seat": 3})
            await guest.until(lambda s: s["table"]["seats"][3]["free"])
            await host.send({"type": "host", "op": "hand_over", "seat": 1})
            await guest.until(lambda s: s["you"]["host"] and s["table"]["host_seat"] == 1)
            await host.until(lambda s: not s["you"]["host"])
            await host.send({"type": "host", "op": "pause"})
            assert (await host.until_error())["code"] == "not_host"
            await guest.send({"type": "host", "op": "pause"})
            await host.until(lambda s: s["table"]["host_paused"])
            # Sitting out is each player's own: it lists the seat for everyone.
            await host.send({"type": "sit_out", "out": True})
            await guest.until(lambda s: s["table"]["sitting_out"] == [0])
            await host.send({"type": "sit_out", "out": "yes"})
            assert (await host.until_error())["code"] == "malformed"

    asyncio.run(run())
    # Kept with the session: a restart restores the changed stakes and the new host.
    table = server.manager.get(tid)
    assert table.session["config_overrides"] == {"structure": "pot-limit", "ante": 2}
    assert table.session["host_seat"] == 1 and table.session["host_paused"] is True


def test_a_freed_seat_passes_on_no_host_role_and_waiting_joins_need_approval(
        server: ServerThread) -> None:
    tid, host_token = create_table(server.url, game="sdr", seats=3, bots=0)
    _, ann = join(server.url, tid, "Ann")
    table = server.manager.get(tid)

    async def run() -> None:
        async with Player(server.ws_url, tid, ann, host_token) as host:
            await host.until(lambda s: s["you"]["host"])
            await host.send({"type": "host", "op": "approve_joins", "on": True})
            await host.until(lambda s: s["table"]["approve_joins"])
            seat, _ = await asyncio.to_thread(join, server.url, tid, "Bob")
            st = await host.until(lambda s: s["table"]["waiting"] == [seat])
            assert table.dealer.dealt_in() == [0]  # Bob waits: not dealt in
            await host.send({"type": "host", "op": "hand_over", "seat": seat})
            await host.until(lambda s: s["table"]["host_seat"] == seat)
            assert st["table"]["seats"][seat]["name"] == "Bob"
            # Bob leaves: the host role goes back to the creator's cookie.
            server.call(lambda: (table.seating.free_seat(seat), table.broadcast()))
            st = await host.until(lambda s: s["table"]["host_seat"] is None
                                  and s["table"]["seats"][seat]["free"])
            assert st["table"]["waiting"] == [] and st["you"]["host"]
            # A new occupant of that seat inherits nothing: not host, waiting again.
            await asyncio.to_thread(join, server.url, tid, "Eve", seat)
            st = await host.until(lambda s: s["table"]["waiting"] == [seat])
            assert st["table"]["host_seat"] is None
            await host.send({"type": "host", "op": "reject", "seat": seat})
            await host.until(lambda s: s["table"]["seats"][seat]["free"])

    asyncio.run(run())


def test_chat_reaches_every_client_as_text_and_watchers_cannot_write(
        server: ServerThread) -> None:
    tid, _host = create_table(server.url, game="sdr", seats=3, bots=0)
    _, ann = join(server.url, tid, "Ann")

    async def run() -> None:
        async with Player(server.ws_url, tid, ann) as p, Player(server.ws_url, tid) as w:
            await p.until(lambda s: True)
            await w.until(lambda s: True)
            await p.send({"type": "chat", "text": "<i>gl</i> all"})
            while True:
                msg = await w.recv()
                if msg["type"] == "chat":
                    break
            assert msg["lines"][0]["text"] == "<i>gl</i> all"
            assert msg["lines"][0]["name"] == "Ann"
            await w.send({"type": "chat", "text": "me too"})
            assert (await w.until_error())["code"] == "not_seated"
        # A client that connects later gets the kept lines after its first state.
        async with Player(server.ws_url, tid) as late:
            first = await late.recv()
            second = await late.recv()
            assert first["type"] == "state" and second["type"] == "chat"
            assert [line["text"] for line in second["lines"]] == ["<i>gl</i> all"]

    asyncio.run(run())


def test_the_table_says_what_it_waits_for(server: ServerThread) -> None:
    """A started table that cannot deal says why (R-C-12): too few players with chips,
    or only computer players; and nothing once a hand is dealt."""

    async def run(bots: int, want: str) -> None:
        tid, host = create_table(server.url, game="sdr", seats=3, bots=bots, bot_delay=0.02,
                                 decision_seconds=60, between_hands=60)
        _s0, t0 = join(server.url, tid, "Ann")
        async with Player(server.ws_url, tid, t0, host) as a:
            await a.until(lambda st: st["you"]["host"])
            assert a.state["table"]["waiting_for"] is None  # not started: nothing to say
            await a.send({"type": "sit_out", "out": True})
            await a.until(lambda st: st["table"]["sitting_out"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            st = await a.until(lambda st: st["table"]["started"])
            assert st["hand"] is None and want in st["table"]["waiting_for"]
            if bots:  # Ann comes back: a hand is dealt, nothing is waited for
                await a.send({"type": "sit_out", "out": False})
                st = await a.until(lambda st: st["hand"] is not None)
                assert st["table"]["waiting_for"] is None

    asyncio.run(run(0, "at least two with chips"))
    asyncio.run(run(2, "Waiting for a person"))
