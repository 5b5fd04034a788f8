"""A tournament at the web table (issue 28), on a virtual clock: levels rise by
the table's clock exactly on schedule (the host's pause and a deal being agreed
stop it), each hand is dealt and recorded at its level's stakes, the busted are
placed and the pool paid at the end, a restart resumes the clock where it
stood, a deal is applied only when every player left agrees, and every new
input is refused clearly."""

from __future__ import annotations

from typing import Any

import pytest
from test_table_bots import aggressive, passive, virtual_server
from virtual_table import VirtualLoop, seat_people

from rollem.server.config import ConfigError, parse_config
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store

SCHEDULE = """
stack = 60
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 1
[[levels]]
ante = 2
small_bet = 4
big_bet = 8
minutes = 1
[[levels]]
ante = 5
small_bet = 10
big_bet = 20
minutes = 1
"""
"""Three one-minute levels, 60 chips each: a short tournament."""


def _table(loop: VirtualLoop, store: Store, *, seated: int = 2,
           **extra: Any) -> tuple[LiveTable, list[Client]]:
    """A 4-seat SDR tournament on :data:`SCHEDULE` (``seated`` people in the first
    seats, 2 by default, and ``basic`` computer players in the others), started:
    its host client is ``people[0]``."""
    config = parse_config({
        "game": "sdr", "seats": 4, "bots": 4 - seated, "bot_level": "basic",
        "decision_seconds": 600.0, "time_bank_seconds": 0.0, "grace_seconds": 1000.0,
        "between_hands": 0.5, "bot_delay": 0.0, "tournament": "custom",
        "tournament_schedule": SCHEDULE, "buy_in": 10, **extra,
    })
    table, _ = loop.call(LiveTable.create, store, config)
    people = seat_people(loop, table, seated)
    loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
    return table, people


def _send(loop: VirtualLoop, table: LiveTable, client: Client, kind: str,
          **body: Any) -> None:
    """``client`` sends a message of ``kind``; a refusal raises :class:`TableError`."""
    loop.call(table.messages.dispatch, client, ClientMessage(kind, None, None, body))


def _step(loop: VirtualLoop, table: LiveTable, people: list[Client],
          policy: Any = aggressive) -> None:
    """0.1 s of play: each person to act by ``policy`` (default: bets or raises,
    else calls)."""
    loop.advance(0.1)
    for client in people:
        client._pending.clear()
        seat = client.seat
        if table.hand is None or seat not in table.decision_seq:
            continue
        action = policy(table.hand.view(seat)["legal"]) or table.hand.timeout_action(seat)
        loop.call(table.handle, client,
                  ClientMessage("action", table.hand.hand_no, table.seq, {"action": action}))


def test_a_tournament_plays_to_one_winner_at_each_levels_stakes() -> None:
    with virtual_server() as (loop, store):
        # (3 people and a computer player: with two computer players left once the
        # people are out, they are placed by chips at once: s63-table)
        table, people = _table(loop, store, seated=3)
        start = loop.now
        public = table.tourney.public()
        assert public is not None and public["entrants"] == [0, 1, 2, 3]
        assert public["prize_pool"] == 40 and public["percentages"] == [65, 35]
        seen: list[tuple[float, int]] = []
        while not table.session["tournament"]["over"]:
            assert loop.now < start + 3600, "the tournament did not end"
            _step(loop, table, people, passive)
            public = table.tourney.public()
            assert public is not None
            seen.append((loop.now - start, public["level"]))
            # the level by the clock, exactly: a new one each 60 s, the last stays
            assert public["level"] == min(3, 1 + int((loop.now - start) // 60))
            assert sum(s.row.stack for s in table.seats.values()) + int(
                table.session.get("carried", 0)) == 240  # chips conserved
        assert {lv for _, lv in seen} >= {1, 2}
        public = table.tourney.public()
        assert public is not None and public["over"] and not public["running"]
        places = {int(s): p for s, p in public["places"].items()}
        assert sorted(places) == [0, 1, 2, 3] and min(places.values()) == 1
        payouts = {int(s): v for s, v in public["payouts"].items()}
        assert sum(payouts.values()) == 40
        winner = min(places, key=lambda s: places[s])
        assert payouts[winner] == 26 and sorted(payouts.values()) == [0, 0, 14, 26]
        assert table.dealer.waiting_for() == "The tournament is over."
        # each busted player's dock says where they finished, and the prize (stop 56)
        nth = {2: "2nd", 3: "3rd", 4: "4th"}
        for s, place in places.items():
            if s == winner:
                assert table.state(s)["you"]["rebuy_closed"] is None  # (chips: no rebuy)
                continue
            won = f" and win {payouts[s]}" if payouts[s] else ""
            assert table.state(s)["you"]["rebuy_closed"] == (
                f"You finished {nth[place]}{won}.")  # (the panel says it is over: stop 57)
        # every hand was dealt, and is recorded, at its level's stakes
        levels = []
        for hand_no in range(1, int(table.session["hand_no"]) + 1):
            setup = store.load_hand(table.id, hand_no).setup  # type: ignore[union-attr]
            level = setup["tournament"]
            assert setup["options"]["ante"] == level["ante"]
            assert setup["options"]["small_bet"] == level["small_bet"]
            levels.append(level["level"])
        assert levels == sorted(levels) and levels[0] == 1
        with pytest.raises(TableError, match="the tournament is over"):
            loop.call(table.dealer.rebuy, 0)
        history = table.final_hand.history_text(0, table.names())  # type: ignore[union-attr]
        assert f"level = {levels[-1]}" in history and "[_tournament]" in history
        # and its _tournament table agrees with the hand's stakes and the schedule
        # (s62-hist: read_history checks it)
        from rollem.narration import narrate_history

        told = [line.text for line in narrate_history(history).header]
        assert any(t.startswith("Tournament (") and t.endswith(f", level {levels[-1]}.")
                   for t in told), told
        loop.call(table.shutdown)


def test_the_hosts_pause_stops_the_clock_and_a_restart_resumes_it() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, bot_level="random",
                               tournament_schedule=SCHEDULE.replace("stack = 60", "stack = 900"))
        start = loop.now
        while loop.now < start + 40:
            _step(loop, table, people)
        host = people[0]
        _send(loop, table, host, "host", op="pause")
        stood = table.tourney.public()["elapsed"]  # type: ignore[index]
        assert 40 <= stood < 40.2
        loop.advance(500)  # paused: the clock stands
        public = table.tourney.public()
        assert public is not None and public["elapsed"] == stood and not public["running"]
        assert public["level"] == 1 and public["seconds_left"] == round(60 - stood, 1)
        _send(loop, table, host, "host", op="resume")
        resumed = loop.now
        while loop.now < resumed + 30:  # into level 2
            _step(loop, table, people)
        _send(loop, table, host, "host", op="pause")
        before = table.tourney.public()
        assert before is not None and before["level"] == 2
        loop.call(table.shutdown)
        loop.advance(1000)  # the server is down for a while
        again = loop.call(LiveTable.restore, store, table.id)
        after = again.tourney.public()
        assert after is not None
        for key in ("level", "elapsed", "seconds_left", "stakes", "places", "prize_pool"):
            assert after[key] == before[key], key
        loop.call(again.resume)
        host = Client(None, True)
        loop.call(again.connect, host)
        _send(loop, again, host, "host", op="resume")
        loop.advance(5)
        assert again.tourney.public()["elapsed"] == pytest.approx(  # type: ignore[index]
            before["elapsed"] + 5, abs=0.01)
        loop.call(again.shutdown)


def test_a_deal_is_applied_only_when_every_player_left_agrees() -> None:
    with virtual_server() as (loop, store):
        # (three places paid: a deal is open to the four left, Tournament.deal_from)
        table, people = _table(loop, store, payouts=[50, 30, 20])
        while table.hand is None:
            _step(loop, table, people)
        a, b = people
        def deal(client: Client, **body: Any) -> None:
            _send(loop, table, client, "deal", **body)

        with pytest.raises(TableError, match="'method' must be one of icm, chip_chop"):
            deal(a, op="propose", method="even")
        with pytest.raises(TableError, match="no deal is proposed"):
            deal(a, op="agree")
        deal(a, op="propose", method="icm")  # during a hand: worked out when it ends
        t = table.session["tournament"]
        assert t["proposal"]["offer"] is None
        with pytest.raises(TableError, match="when the hand in play ends"):
            deal(b, op="agree")
        while table.hand is not None:
            _step(loop, table, people)
        loop.advance(5)
        assert table.hand is None  # no hand is dealt while the deal is open
        assert table.dealer.waiting_for() == "Waiting: the players left are agreeing a deal."
        offer = {int(s): v for s, v in t["proposal"]["offer"].items()}
        assert sum(offer.values()) == 40 and sorted(offer) == [0, 1, 2, 3]
        assert sorted(t["proposal"]["agreed"]) == [0, 2, 3]  # the proposer; bots at ICM
        assert not table.tourney.public()["running"]  # type: ignore[index]
        with pytest.raises(TableError, match="already proposed"):
            deal(b, op="propose", method="chip_chop")
        deal(b, op="decline")  # one says no: play goes on
        assert t["proposal"] is None and not t["over"]
        deal(b, op="propose", method="chip_chop")
        deal(a, op="agree")
        stacks = {s: table.seats[s].row.stack for s in range(4)}
        assert t["over"] and t["proposal"] is None
        public = table.tourney.public()
        assert public is not None and public["deal"]
        payouts = {int(s): v for s, v in public["payouts"].items()}
        assert sum(payouts.values()) == 40
        # chip-chop: the smallest prize left (0 of 4 places) each, 40 by chips
        total = sum(stacks.values())
        for s, v in payouts.items():
            assert abs(v - 40 * stacks[s] / total) < 1
        with pytest.raises(TableError, match="the tournament is over"):
            deal(a, op="propose", method="icm")
        loop.call(table.shutdown)


def test_new_inputs_are_refused_clearly() -> None:
    with pytest.raises(ConfigError, match="tournament must be one of turbo, regular, slow"):
        parse_config({"tournament": "hyper"})
    with pytest.raises(ConfigError, match="payouts must be 1 to 10 whole percentages"):
        parse_config({"tournament": "turbo", "payouts": [60, 30]})
    with pytest.raises(ConfigError, match="payouts must be"):
        parse_config({"tournament": "turbo", "payouts": [30, 70]})
    with pytest.raises(ConfigError, match="tournament_schedule: levels"):
        parse_config({"tournament": "custom", "tournament_schedule": "stack = 5"})
    with pytest.raises(ConfigError, match="for tournament 'custom' only"):
        parse_config({"tournament": "turbo", "tournament_schedule": SCHEDULE})
    with pytest.raises(ConfigError, match="rebuy_levels must be"):
        parse_config({"tournament": "turbo", "rebuy_levels": 11})
    turbo = parse_config({"tournament": "turbo", "stack": 5000, "ante": 9, "rebuys": True})
    assert (turbo.stack, turbo.ante, turbo.small_bet, turbo.rebuys) == (100, 1, 2, False)
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        with pytest.raises(TableError, match="the tournament has started"):
            loop.call(table.join, "Late", 2 if 2 not in table.seats else None)
        with pytest.raises(TableError, match="level schedule sets the stakes"):
            _send(loop, table, people[0], "host", op="config", config={"ante": 5})
        with pytest.raises(TableError, match="is in the tournament"):
            _send(loop, table, people[0], "host", op="remove", seat=2)
        stacks = [table.seats[s].row.stack for s in sorted(table.seats)]
        with pytest.raises(TableError, match="stacks cannot be set in a tournament"):
            _send(loop, table, people[0], "host", op="adjust_stack", seat=1, stack=500)
        assert [table.seats[s].row.stack for s in sorted(table.seats)] == stacks
        with pytest.raises(TableError, match="'op' must be one of propose, agree, decline"):
            _send(loop, table, people[1], "deal", op=7)
        loop.call(table.shutdown)
        cash = parse_config({"game": "sdr", "seats": 2, "bots": 1})
        other, _ = loop.call(LiveTable.create, store, cash)
        _, token = loop.call(other.join, "Ann", 0)
        ann = Client(other.seat_for_token(token))
        loop.call(other.connect, ann)
        with pytest.raises(TableError, match="final players of a tournament"):
            _send(loop, other, ann, "deal", op="propose", method="icm")
        assert other.tourney.public() is None


def test_the_games_rotate_by_level_in_the_hosts_order() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, game="dealers-choice",
                               choices=["rollem521", "sdr"], rotate=True, bot_level="random",
                               tournament_schedule=SCHEDULE.replace("stack = 60", "stack = 900"))
        start = loop.now
        while not table.session["tournament"]["over"] and loop.now < start + 65:
            _step(loop, table, people, passive)
        games = {}
        for hand_no in range(1, int(table.session["hand_no"]) + 1):
            row = store.load_hand(table.id, hand_no)
            assert row is not None
            games.setdefault(row.setup["tournament"]["level"], set()).add(row.setup["game"])
        assert games[1] == {"rollem521"} and games[2] == {"sdr"}
        assert all(g == {("rollem521", "sdr")[(lv - 1) % 2]} for lv, g in games.items())
        assert table.session.get("choice") is None  # nobody was asked to choose
        loop.call(table.shutdown)


def test_the_games_rotate_by_orbit_of_the_button() -> None:
    """``rotate = "orbit"``: each game is dealt for one orbit (the button at each
    of the 4 entrants once), then the next in the host's order."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, game="dealers-choice",
                               choices=["rollem521", "sdr"], rotate="orbit", bot_level="random",
                               tournament_schedule=SCHEDULE.replace("stack = 60", "stack = 900"))
        assert table.config.public_dict()["rotate"] == "orbit"  # (the page says "by orbit")
        start = loop.now
        while int(table.session["hand_no"]) < 9 and loop.now < start + 65:
            _step(loop, table, people, passive)
        played = []
        for hand_no in range(1, 10):
            row = store.load_hand(table.id, hand_no)
            assert row is not None and len(row.setup["seats"]) == 4  # (nobody busted)
            played.append((row.setup["button"], row.setup["game"]))
        assert played == [(0, "rollem521"), (1, "rollem521"), (2, "rollem521"),
                          (3, "rollem521"), (0, "sdr"), (1, "sdr"), (2, "sdr"), (3, "sdr"),
                          (0, "rollem521")]
        loop.call(table.shutdown)


def test_the_rotation_is_by_level_or_orbit() -> None:
    base = {"game": "dealers-choice", "tournament": "turbo"}
    assert parse_config({**base, "rotate": "orbit"}).rotate == "orbit"
    assert parse_config({**base, "rotate": True}).rotate == "level"  # (stored before orbits)
    assert parse_config({**base, "rotate": "on"}).rotate == "level"  # (a checkbox)
    assert parse_config({**base, "rotate": ""}).rotate == ""
    with pytest.raises(ConfigError, match="rotate must be one of level, orbit"):
        parse_config({**base, "rotate": "hand"})


def test_an_entrant_who_sits_out_is_dealt_in_and_blinded_off() -> None:
    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "sdr", "seats": 3, "bots": 1, "bot_level": "random",
            "decision_seconds": 600.0, "time_bank_seconds": 0.0, "grace_seconds": 1000.0,
            "between_hands": 0.5, "bot_delay": 0.0, "tournament": "turbo"})
        table, _ = loop.call(LiveTable.create, store, config)
        people = seat_people(loop, table, 2)
        _send(loop, table, people[1], "sit_out", out=True)
        loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
        start = loop.now
        while int(table.session["hand_no"]) < 4:  # only seat 0 acts; seat 1's clock at once
            assert loop.now < start + 60, "a sitting-out entrant held up the hand"
            _step(loop, table, people[:1], passive)
        theirs = []
        for hand_no in range(1, 4):
            row = store.load_hand(table.id, hand_no)
            assert row is not None and 1 in row.setup["seats"]  # dealt in, anted
            theirs += [a.source for a in store.load_actions(table.id, hand_no) if a.seat == 1]
        assert theirs and "player" not in theirs  # the clock played them, at once
        loop.call(table.shutdown)


def test_a_busted_entrant_rebuys_in_the_first_levels_only() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, rebuy_levels=1)
        t = table.session["tournament"]
        while not t["busts"]:
            _step(loop, table, people)
        assert table.tourney.public()["rebuy_open"]  # type: ignore[index]
        busted = t["busts"][0][1]
        assert busted == 1 and table.seats[1].row.stack == 0  # (these seeds: P1)
        assert table.state(1)["you"]["rebuy_closed"] is None  # (the page: a Rebuy button)
        t["elapsed"] += 60.0  # were it level 2: no button, and why
        assert table.state(1)["you"]["rebuy_closed"] == (
            "You are out in 4th place: rebuys were open in the first level only.")
        t["elapsed"] -= 60.0
        loop.call(table.dealer.rebuy, 1)
        public = table.tourney.public()
        assert public is not None and table.seats[1].row.stack == 60
        assert public["prize_pool"] == 50 and t["busts"] == [] and 1 in public["left"]
        # the ledger in units: P1 paid two buy-ins; places and prizes come at the end
        assert public["ledger"][1] == {"name": "P1", "seat": 1, "rebuys": 1, "paid": 20,
                                       "addon": False, "place": None,
                                       "payout": None, "net": None, "bot": None}
        assert [row["paid"] for row in public["ledger"]] == [10, 20, 10, 10]
        with pytest.raises(TableError, match="still have 60 chips"):
            loop.call(table.dealer.rebuy, 1)
        t["elapsed"] += 60.0  # a minute on: level 2, rebuys closed
        public = table.tourney.public()
        assert public is not None and public["level"] == 2 and not public["rebuy_open"]
        loop.call(table.shutdown)


def test_a_blind_games_level_says_its_blinds_not_an_ante() -> None:
    """A hold'em tournament's level tells the blinds its hands post (half the small
    bet and the small bet), not the level's ante, which hold'em does not take (found
    by a new user's try-out); Stop, Drop and Roll's says its ante."""
    with virtual_server() as (loop, store):
        table, _people = _table(loop, store, game="holdem")
        public = table.tourney.public()
        assert public is not None
        assert public["stakes"]["forced"] == "blinds 1/2"  # level 1: ante 1, bets 2/4
        assert public["next"]["forced"] == "blinds 2/4"
    with virtual_server() as (loop, store):
        table, _people = _table(loop, store)
        public = table.tourney.public()
        assert public is not None and public["stakes"]["forced"] == "ante 1"


def test_a_bust_in_the_money_is_told_its_prize_once_the_pool_is_final() -> None:
    """s62-night: a friend busted 3rd of 6 (20% of the pool, no rebuy nor add-on
    to come) read "...: you are out in 3rd place." until the tournament ended;
    now the prize too, "... in 4th place and win 4." (every place paid here:
    40/30/20/10 of 40).  While rebuys are open the pool may still grow: the place
    alone, once known."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, payouts=[40, 30, 20, 10])
        t = table.session["tournament"]
        while not t["busts"]:
            _step(loop, table, people)
        busted = t["busts"][0][1]
        assert table.tourney.public()["places"] == {str(busted): 4}  # type: ignore[index]
        assert table.state(busted)["you"]["rebuy_closed"] == (  # (main: "... 4th place.")
            "You are out in 4th place and win 4: this tournament has no rebuys.")
        loop.call(table.shutdown)
    with virtual_server() as (loop, store):  # rebuys open: the pool may grow
        table, people = _table(loop, store, payouts=[40, 30, 20, 10], rebuy_levels=1)
        t = table.session["tournament"]
        while not t["busts"]:
            _step(loop, table, people)
        busted = t["busts"][0][1]
        if busted < 2:  # (a person says no; a computer player never rebuys)
            loop.call(table.messages.dispatch, people[busted],
                      ClientMessage("rebuy", None, table.seq, {"decline": True}))
        assert table.tourney.public()["places"] == {str(busted): 4}  # type: ignore[index]
        assert table.state(busted)["you"]["rebuy_closed"] == (
            "You are out in 4th place: you took no rebuy.")
        loop.call(table.shutdown)
