"""The pot a view shows: a finished betting round's bets are gathered into it.

Card-room practice: the bets in front of the players go into the pot when
their betting round ends, so at a draw, a turn-up, the stacking or the
declare every seat's bet reads 0 and the pot holds every chip bet (R-C-9).
"""

from __future__ import annotations

import random

import pytest

from rollem.bots import make_bot
from rollem.cli.screen import Style, render_table
from rollem.engine import Bet, BettingRound, Call, Check, DealHole, ExposeOne, Hand, Showdown
from rollem.engine.forced import Blinds, ForcedRound
from rollem.engine.views import HandView
from rollem.games import Game
from rollem.table import Table


def _bet_and_call(game: str, seed: int) -> list[tuple[int, HandView, list[HandView]]]:
    """Play one hand of ``game`` among 5 players (ante 1, bets 2/4): the first
    player in each round bets the minimum and everyone calls; other decisions
    by a seeded random bot. Returns, at each decision, the chips committed so
    far plus the carry-in, the spectator's view and each seat's own view."""
    table = Table([200] * 5, game=game, rng=random.Random(seed), button=0)
    hand = table.new_hand()
    bot = make_bot("random", random.Random(seed))
    seen = []
    while not hand.is_over:
        p = hand.pending
        assert p is not None
        seat = p.seats[0]
        seen.append((sum(hand.committed) + hand.carry_in, hand.view(None),
                     [hand.view(s) for s in range(5)]))
        if p.kind == "bet":
            legal = hand.legal_actions(seat)
            action: object = (Bet(legal.min_to) if hand.current_bet == 0 and "bet" in legal.actions
                              else Call() if "call" in legal.actions else Check())
        else:
            action = bot.act(hand.view(seat))
        hand.apply(seat, action)
    return seen


def _at(seen: list[tuple[int, HandView, list[HandView]]], pending: str,
        round_name: str) -> HandView:
    return next(v for _, v, _ in seen if v.pending == pending and v.round == round_name)


def test_rollem521_declare_shows_the_gathered_pot() -> None:
    # antes 5; rounds 1-2 bet 2 (5 callers: 10 each); rounds 3-6 bet 4 (20 each):
    # 5 + 10 + 10 + 4 * 20 = 105 in the pot, nothing left in front of anyone
    v = _at(_bet_and_call("rollem521", 3), "declare", "fourth card up")
    assert v.pot == 105
    assert [s.bet for s in v.seats] == [0] * 5
    assert v.current_bet == 0
    assert v.pots == [{"amount": 105, "eligible": [0, 1, 2, 3, 4]}]
    # the same in each player's own view
    own = next(o for _, x, o in _bet_and_call("rollem521", 3) if x.pending == "declare")
    assert [(o.pot, o.seats[o.seat].bet) for o in own if o.seat is not None] == [(105, 0)] * 5


def test_rollem521_draw_and_stacking_after_round_two() -> None:
    seen = _bet_and_call("rollem521", 3)
    for kind in ("draw", "stack"):
        v = _at(seen, kind, "after the first draw")
        assert (v.pot, [s.bet for s in v.seats]) == (25, [0] * 5), kind  # 5 + 10 + 10


def test_rollyourown_turn_up_after_round_one() -> None:
    v = _at(_bet_and_call("rollyourown", 3), "expose", "first card up")
    assert (v.pot, [s.bet for s in v.seats], v.current_bet) == (15, [0] * 5, 0)  # 5 + 5 * 2


def test_bets_stay_in_front_while_the_round_is_open() -> None:
    seen = _bet_and_call("rollem521", 3)
    # round 1, after the opener's bet of 2: antes in the pot, the bet in front
    v = next(x for _, x, _ in seen if x.pending == "bet" and x.current_bet == 2)
    bettor = next(s for s in v.seats if s.bet)
    assert v.pot == 5 and bettor.bet == 2 and sum(s.bet for s in v.seats) == 2


@pytest.mark.parametrize("game", ["rollem521", "rollyourown", "sdr", "holdem", "stud", "draw5"])
def test_pot_plus_bets_is_every_chip_committed(game: str) -> None:
    """Chip accounting is unchanged: pot + bets in front = all committed + carry-in,
    the pots add up to the pot, and bets show only at a betting decision."""
    for seed in range(4):
        for chips, v, own in _bet_and_call(game, seed):
            for x in (v, *own):
                assert x.pot + sum(s.bet for s in x.seats) == chips
                assert sum(p["amount"] for p in x.pots) == x.pot
                assert [s.bet for s in x.seats] == [s.bet for s in v.seats]
            if v.pending != "bet":
                assert [s.bet for s in v.seats] == [0] * 5 and v.current_bet == 0


BLINDS_THEN_EXPOSE = Game(
    id="blinds-expose-test", name="Blinds then expose test", min_players=2, max_players=10,
    build=lambda o: [
        blinds := Blinds(1, 2),
        DealHole(2),
        ExposeOne(),
        ForcedRound("round 1", 2, 3, o.structure, blinds),
        BettingRound("round 2", 4, 3, o.structure),
        Showdown(cards_of=lambda h, s: list(h.hole[s])),
    ],
)
"""Blinds posted before an all-at-once decision (a game file may do this)."""


def test_blinds_stay_in_front_until_their_round_is_played() -> None:
    hand = Hand(BLINDS_THEN_EXPOSE, [100, 100, 100], button=0)
    assert hand.pending is not None and hand.pending.kind == "expose"
    v = hand.view(None)
    # seat 1 small blind, seat 2 big blind: live bets of the round to come
    assert (v.pot, [s.bet for s in v.seats]) == (0, [0, 1, 2])


def test_terminal_shows_the_gathered_pot_at_the_declare() -> None:
    v = _at(_bet_and_call("rollem521", 3), "declare", "fourth card up")
    rows = [r.plain for r in render_table(v, Style(False, ["Ann", "Bob", "Cat", "Dan", "Eve"]),
                                          title="Hand 1", game_name="5-2-1")]
    assert any("Pot 105" in r for r in rows)
    assert not any(" bet " in r or "bet this round" in r for r in rows)
