"""The felt's name of a seat's hand (``hand_so_far``) under a hole/board rule
(Omaha's two and three) costs one worded evaluation, whatever the board
(s62-hostile).  Before, each five-card choice was evaluated with its words and
reading order (0.14 ms each) to keep the best: a game file dealing a board of 34
cards one a round (hole 2, board 3: 5,984 choices, within the showdown's bound)
named one seat's hand in 0.4 to 0.8 s of the event loop, every table of the
server waiting, at each change of the seat's cards; an all-in run-out, shown
round by round (s61-table2), named it at each of its 35 rounds: live, the
result came 16 to 18 s after the call, not 5, the loop held 11 to 13 s."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from rollem.cards import CARDS
from rollem.hands import evaluate
from rollem.narration import felt
from rollem.narration.felt import Scoring, hand_so_far


@pytest.fixture
def worded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The number of worded evaluations (``evaluate`` calls) the felt makes."""
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(felt, "evaluate", counted)
    yield calls


def _deal(seed: int, own: int, board: int) -> tuple[list[str], list[str]]:
    deck = [str(c) for c in CARDS]
    random.Random(seed).shuffle(deck)
    return deck[:own], deck[own:own + board]


def _brute(own: list[str], board: list[str], hole: int, on_board: int, low: bool = False,
           least: bool = False) -> str:
    from rollem.cards import parse_card

    fives = [[parse_card(c) for c in h + b] for h in combinations(own, hole)
             for b in combinations(board, on_board)]
    pick = min if least else max
    return str(pick((evaluate(f, low=low) for f in fives), key=lambda r: r.value).description)


def test_a_long_boards_hole_and_board_hand_is_named_from_one_worded_evaluation(
        worded: list[int]) -> None:
    own, board = _deal(1, 2, 34)
    name = hand_so_far(own, board, scoring=Scoring(hole=2, board=3))
    assert len(worded) == 1   # main: 5,984 (one per five-card choice)
    assert name == _brute(own, board, 2, 3)


def test_the_low_halves_are_named_from_one_worded_evaluation_each(worded: list[int]) -> None:
    own, board = _deal(2, 4, 12)
    scoring = Scoring(pot="high-low", low="ace-to-five", hole=2, board=3)
    name = hand_so_far(own, board, scoring=scoring)
    assert len(worded) == 2   # main: 2 x 1,320
    assert name == (f"high: {_brute(own, board, 2, 3)}; "
                    f"low: {_brute(own, board, 2, 3, low=True)}")
    worded.clear()
    own, board = _deal(3, 4, 12)
    name = hand_so_far(own, board, scoring=Scoring(pot="low", low="deuce-to-seven",
                                                   hole=2, board=3))
    assert len(worded) == 1 and name == _brute(own, board, 2, 3, least=True)


@pytest.mark.parametrize("seed", range(40))
def test_the_names_are_those_of_every_choice_evaluated_with_its_words(seed: int) -> None:
    rng = random.Random(seed)
    hole, on_board = rng.choice([(2, 3), (1, 4), (3, 2), (1, 2), (2, 4)])
    own, board = _deal(seed, rng.randint(hole, 6), rng.randint(on_board, 9))
    assert hand_so_far(own, board, scoring=Scoring(hole=hole, board=on_board)) == \
        _brute(own, board, hole, on_board)


def test_a_hand_past_the_showdowns_bound_is_not_named(worded: list[int]) -> None:
    """Only a stored game file accepted before the showdown's bound (issue 34) deals
    a seat so many cards: naming 10 own and 10 board cards with wild cards would
    cost C(20, 5) x 20 = 310,080 evaluations, 0.3 s of the event loop a seat at
    each change of its cards (stop 63, s63-restore); the felt names none, and the
    results' words leave the wild cards' stand-ins out.  11 cards are named."""
    from math import comb

    from rollem.games.cost import MAX_SHOWDOWN_EVALUATIONS, WILD_WEIGHT
    from rollem.narration.hands import with_wild_note

    deck = [str(c) for c in CARDS]  # 2c 2d 2h 2s 3c ... As
    assert comb(20, 5) * WILD_WEIGHT == 310_080 > MAX_SHOWDOWN_EVALUATIONS
    assert hand_so_far(deck[-10:], deck[:10], wild_ranks=["2", "3"]) is None
    assert hand_so_far(deck[-12:], wild_ranks=["2"]) is None  # C(12, 5) x 20 = 15,840
    assert hand_so_far(deck[-26:]) is None  # C(26, 5) = 65,780, no wild card
    omaha = Scoring(hole=2, board=3)
    assert hand_so_far(deck[:4], deck[4:30], scoring=omaha) is None  # 6 x C(26, 3) = 15,600
    assert worded == []
    eleven = deck[:1] + deck[-10:]  # 2c and Qh..As: C(11, 5) x 20 = 9,240
    assert hand_so_far(eleven, wild_ranks=["2"]) == "five aces (wild 2c plays as Ac)"
    assert hand_so_far(deck[:4], deck[4:24], scoring=omaha) is not None  # 6,840
    assert with_wild_note("five aces", eleven, ["2"], {}) == "five aces (wild 2c plays as Ac)"
    assert with_wild_note("five aces", deck[:2] + deck[-10:], ["2"], {}) == "five aces"
