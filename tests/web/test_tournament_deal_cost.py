"""A tournament deal at a final table of ten costs the event loop milliseconds
(stop 57).

A deal's shares (``{"type": "deal", "op": "propose"}``) are worked out on the
event loop every table shares, and each proposal works out the ICM shares (the
proposal's, or the computer players' measure of a chip-chop).  The exact
fractions of :func:`rollem.tournament.icm.icm_equities` grow with every subset
of the players: 0.4 to 1.6 s for ten players (12: 27 s; load 20), twice a
proposal.  A table of ten seats paying ten places opens deals from its first
hand, and a chip-chop that a short-stacked computer player declines is
withdrawn at once, so its proposer could send the next: one entrant held every
table.  Now the shares are worked out in fixed point
(:func:`rollem.tournament.icm.icm_whole_units`), the same whole units.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from test_table_bots import virtual_server
from test_tournament_server import SCHEDULE, _send, _step
from virtual_table import seat_people

from rollem.server.config import parse_config
from rollem.server.live_table import LiveTable, TableError
from rollem.server.protocol import ClientMessage
from rollem.tournament.icm import icm_equities, icm_whole_units

TEN_PLACES = [19, 16, 14, 12, 10, 9, 7, 6, 4, 3]


def _exact_offer(chips: list[int], prizes: list[int]) -> list[int]:
    """The shares :meth:`Tournament.deal_offer` gave with exact fractions."""
    whole = [int(x) for x in icm_equities(chips, prizes)]
    order = sorted(range(len(chips)), key=lambda i: (-chips[i], i))
    for i in order[:sum(prizes) - sum(whole)]:
        whole[i] += 1
    return whole


def _between_hands(loop: Any, store: Any, stacks: list[int]) -> tuple[LiveTable, list[Any]]:
    """A started 10-seat tournament paying ten places (people at seats 0 and 1, eight
    computer players), between hands with ``stacks``: (table, people)."""
    config = parse_config({
        "game": "sdr", "seats": 10, "bots": 8, "bot_level": "random",
        "decision_seconds": 600.0, "time_bank_seconds": 0.0, "grace_seconds": 1000.0,
        "between_hands": 0.5, "bot_delay": 0.0, "tournament": "custom",
        "tournament_schedule": SCHEDULE, "buy_in": 10, "payouts": TEN_PLACES})
    table, _ = loop.call(LiveTable.create, store, config)
    people = seat_people(loop, table, 2)
    loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
    t = table.tourney.tournament()
    assert t is not None and t.deal_from == 11
    while True:  # to a moment between hands with ten players left
        assert loop.now < 1_000_000 + 600, "no moment between hands with 10 players"
        _step(loop, table, people)
        if not table.tourney._hand_offered() and min(
                table.seats[s].row.stack for s in range(10)) > 0:
            break
    for s, stack in enumerate(stacks):  # (stacks play could give)
        table.seats[s].row.stack = stack
    return table, people


def test_an_icm_proposal_at_ten_players_costs_the_loop_milliseconds() -> None:
    # stacks all different, as a schedule of 10,000 chips would have them
    # (repeated stacks keep the exact fractions short)
    chips = [1303, 2911, 4127, 5381, 6779, 7121, 8363, 9791, 16127, 38097]
    with virtual_server() as (loop, store):
        table, people = _between_hands(loop, store, chips)
        t = table.tourney.tournament()
        started = time.thread_time()
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        spent = time.thread_time() - started
        proposal = table.session["tournament"]["proposal"]
        assert proposal is not None and proposal["offer"] is not None
        offer = [proposal["offer"][str(s)] for s in range(10)]
        prizes = t.prizes_left(chips)
        assert sum(offer) == sum(prizes) == 100
        assert offer == _exact_offer(chips, prizes)  # (the same whole units)
        print(f"the proposal took {spent:.3f} s of this thread")
        assert spent < 0.1, spent  # main: 0.38 s (two exact ICMs; load 20: 2 to 3 s wall)


def test_a_chip_chop_the_computer_players_decline_is_proposed_again_next_hand_only(
        ) -> None:
    # seat 2, a computer player, short: a chip-chop gives it less than its ICM share
    with virtual_server() as (loop, store):
        table, people = _between_hands(
            loop, store, [30000, 9000, 1500, 3000, 3000, 3000, 3000, 3000, 3000, 3000])
        state = table.session["tournament"]
        seq = table.seq
        _send(loop, table, people[0], "deal", op="propose", method="chip_chop")
        assert state["proposal"] is None and table.seq == seq + 1  # declined at once
        for method in ("chip_chop", "icm"):
            with pytest.raises(TableError) as err:  # main: worked out, saved, told again
                _send(loop, table, people[0], "deal", op="propose", method=method)
            assert err.value.code == "too_soon"
            assert "propose again after 1 more hand" in err.value.message
        assert table.seq == seq + 1
        # the other person may propose; the first again once the next hand is dealt
        _send(loop, table, people[1], "deal", op="propose", method="chip_chop")
        assert table.seq == seq + 2
        hand_no = table.session["hand_no"]
        while table.session["hand_no"] == hand_no:
            _step(loop, table, people)
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        assert state["proposal"] is not None and state["proposal"]["by"] == 0


def test_fixed_point_icm_gives_the_exact_whole_units() -> None:
    rng = random.Random(57)
    cases = [([1500] * 10, [19, 16, 14, 12, 10, 9, 7, 6, 4, 3]),  # whole equities
             ([3] * 3, [1, 1, 1]), ([1, 2], [3, 0]), ([50, 30, 20], [70, 30])]
    for _ in range(300):
        n = rng.randint(1, 6)
        cases.append(([rng.randint(1, 10 ** rng.randint(1, 7)) for _ in range(n)],
                      sorted((rng.randint(0, 10 ** rng.randint(0, 9))
                              for _ in range(rng.randint(0, n + 2))), reverse=True)))
    for stacks, prizes in cases:
        assert icm_whole_units(stacks, prizes) == [int(x) for x in icm_equities(stacks, prizes)]
    started = time.thread_time()
    assert sum(icm_whole_units([rng.randint(1, 10 ** 6) for _ in range(12)],
                               [10 ** 6] * 12)) <= 12 * 10 ** 6
    assert time.thread_time() - started < 2.0  # (exact fractions: about 30 s)


def test_an_agree_already_given_saves_and_sends_nothing() -> None:
    """(stop 58) Each ``agree`` of a seat already agreed (its proposer's own too)
    was saved and sent whole to every connection at the table, without bound but
    the address's message bucket."""
    with virtual_server() as (loop, store):
        table, people = _between_hands(loop, store, [1500] * 10)
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        proposal = table.session["tournament"]["proposal"]
        assert proposal is not None and proposal["offer"] is not None
        assert 0 in proposal["agreed"] and 1 not in proposal["agreed"]
        seq, sent = table.seq, len(people[1]._pending)
        for _ in range(20):
            _send(loop, table, people[0], "deal", op="agree", offer=proposal["offer"])
        assert table.seq == seq and len(people[1]._pending) == sent  # main: seq + 20
        _send(loop, table, people[1], "deal", op="agree", offer=proposal["offer"])
        assert table.seq == seq + 1 and table.session["tournament"]["over"]


def test_a_custom_schedules_text_is_not_sent_in_every_state() -> None:
    """(stop 58) The public configuration carried the schedule file's text: up to
    64 KB of the host's TOML, comments too, in every state to every connection."""
    long = SCHEDULE + "".join(f"# {'x' * 76}\n" for _ in range(780))
    config = parse_config({"game": "holdem", "bots": 2, "tournament": "custom",
                           "tournament_schedule": long, "buy_in": 10})
    assert config.tournament_schedule == long  # (kept: the table is dealt by it)
    assert config.public_dict()["tournament_schedule"] is None  # main: 61,768 characters
    with virtual_server() as (loop, store):
        table, _ = loop.call(LiveTable.create, store, config)
        text = table.views.cached_state_text(None, False, "watcher")
        assert "xxxxxxxx" not in text and len(text) < 16_000, len(text)
        levels = table.table_public()["tournament"]
        assert levels is not None and "x" * 76 not in str(levels)
