"""The ``basic`` bot's bad plays of issue 20, fixed: made straights are never
broken in a 5-2-1 draw, and before the draws a hand is rated by what it
becomes, not as it stands (R-521-2, R-521-4)."""

from __future__ import annotations

import random

import pytest

from rollem.bots import make_bot
from rollem.bots.basic import BasicBot, draw_choice, made_hand
from rollem.bots.draw521 import after_draws, draws_left
from rollem.cards import parse_cards
from rollem.engine import Draw, Fold, Hand, SeededSource


def _play(game: str, n: int, seed: int, watch: int) -> list[tuple[list[str], object]]:
    """The issue's set-up: seat k is ``basic`` with ``Random(seed*10+k)``; returns
    seat ``watch``'s (cards, action) pairs."""
    hand = Hand(game, [200] * n, button=seed % n, source=SeededSource(seed))
    bots = [make_bot("basic", random.Random(seed * 10 + k)) for k in range(n)]
    seen = []
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        view = hand.view(seat)
        action = bots[seat].act(view)
        if seat == watch:
            seen.append((view.my_cards, action))
        hand.apply(seat, action)
    return seen


def test_made_straights_and_better_stand_pat() -> None:
    """R-521-2: 8c 9d Th Js Qc used to throw the 8 and the 9."""
    for text in ("8c 9d Th Js Qc", "As Kd Qs Jc Td", "Ac 2d 3h 4s 5d", "2h 7h 9h Jh Kh",
                 "3c 3d 3h 9s 9d", "Kc Kd Kh Ks 2c"):
        cards = parse_cards(text)
        assert made_hand(cards), text
        assert draw_choice(cards, 2) == () and draw_choice(cards, 1) == (), text
    assert not made_hand(parse_cards("8c 9d Th Js 2c"))


def test_draws_keep_four_card_draws_and_made_lows() -> None:
    """Four to a straight or flush throw the odd card; a made eight-low stands pat."""
    assert draw_choice(parse_cards("8c 9d Th Js 2c"), 2) == tuple(parse_cards("2c"))
    assert draw_choice(parse_cards("2c 3c 4c 5c 5d"), 2) == tuple(parse_cards("5d"))
    assert draw_choice(parse_cards("2c 3c 4c 5c 8h"), 1) == ()
    assert set(draw_choice(parse_cards("Jc Jd 4h 8s 2d"), 2)) == set(parse_cards("2d 4h"))


def test_seed_288_keeps_the_dealt_straight() -> None:
    """5-2-1 heads-up seed 288, seat 1 is dealt As Kd Qs Jc Td: it stands pat now."""
    seen = _play("rollem521", 2, 288, 1)
    draws = [(cards, a) for cards, a in seen if isinstance(a, Draw)]
    assert sorted(draws[0][0]) == sorted(["As", "Kd", "Qs", "Jc", "Td"])
    assert all(a == Draw(()) for _, a in draws)


def test_seed_900_rates_the_hand_after_its_draws() -> None:
    """5-2-1 heads-up seed 900, seat 1 holds 2c 3c 4c 5c 5d with two draws to come: no
    longer folded in round 1 (it was rated as a pair of fives)."""
    seen = _play("rollem521", 2, 900, 1)
    assert sorted(seen[0][0]) == sorted(["2c", "3c", "4c", "5c", "5d"])
    assert not any(isinstance(a, Fold) for cards, a in seen if "5d" in cards)
    # and the rating itself: after the draws the hand is worth more than as it stands
    hand = Hand("rollem521", [200] * 2, button=0, source=SeededSource(900))
    view = hand.view(1)
    assert draws_left(view) == (2, 1)
    bot = BasicBot(random.Random(3), samples=400)
    from rollem.odds import view_equity
    drawn = bot._view_equity(view).equity
    pat = view_equity(view, samples=2000, seed=1).equity
    assert drawn > pat + 0.05, (drawn, pat)


def test_after_draws_replaces_what_the_policy_throws() -> None:
    cards = parse_cards("2c 3c 4c 5c 5d")
    unseen = [c for c in range(52) if c not in cards]
    hand, thrown = after_draws(cards, (2, 1), unseen, random.Random(1), draw_choice)
    assert len(hand) == 5 and len(set(hand)) == 5
    assert thrown[0] == parse_cards("5d")[0]
    assert set(hand) <= set(cards) | set(unseen) and not set(thrown) & set(hand)


def test_basic_before_the_draws_breaks_a_declare_tie_by_the_odds_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """s55-left (stop 54's leftover): ``basic``'s chances before the draws (each
    sampled hand after its draws, averaged) took the best declaration by ``max`` in
    list order, "high" on an equity tie, where the odds' own rule
    (:func:`rollem.odds.r521.best_declaration`) takes the side the hand wins
    outright more often. Each sampled hand here: high and low tie at 0.4 of the
    pot, the high half never won outright, the low half seven times in ten."""
    import rollem.odds
    from rollem.odds import Odds

    calls: list[int] = []

    def tied(*args: object, **kwargs: object) -> Odds:
        calls.append(1)
        return Odds(win=0.2, tie=0.4, lose=0.4, equity=0.4, method="exact", samples=1,
                    stderr=0.0, game="rollem521", high=0.0, low=0.7, scoop=0.0,
                    declare={"high": 0.4, "low": 0.4, "both": 0.1}, best_declare="low")

    monkeypatch.setattr(rollem.odds, "r521_odds", tied)
    hand = Hand("rollem521", [200] * 2, button=0, source=SeededSource(900))
    view = hand.view(1)
    assert draws_left(view) == (2, 1)
    odds = BasicBot(random.Random(3), samples=400)._view_equity(view)
    assert len(calls) == 10  # (ten sampled hands after the draws)
    assert odds.declare == {"high": pytest.approx(0.4), "low": pytest.approx(0.4),
                            "both": pytest.approx(0.1)}
    assert odds.best_declare == "low"
    assert odds.equity == pytest.approx(0.4)
