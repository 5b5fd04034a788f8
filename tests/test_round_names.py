"""A game file names its betting rounds (issue 26): a ``bet`` step's ``label`` is the
round's name everywhere players read it (the view's ``round``, the narration, the
terminal's choices line); the shipped files name theirs (hold'em and Omaha:
preflop, flop, turn, river; stud games: third to seventh street; draw games:
before and after the draw; SDR: before the stop, after the stop, the drop and
the roll; Roll Your Own: first to third card up, after the wild card); a file
without labels keeps "round N"."""

from __future__ import annotations

import pytest

from rollem import games
from rollem.engine import Hand, SeededSource
from rollem.games.gamefile import load_game
from rollem.narration import narrate_view

STREETS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")


@pytest.mark.parametrize(("game", "names"), [
    ("holdem", ("preflop", "flop", "turn", "river")),
    ("omaha", ("preflop", "flop", "turn", "river")),
    ("omaha8", ("preflop", "flop", "turn", "river")),
    ("stud", STREETS),
    ("razz", STREETS),
    ("stud8", STREETS),
    ("draw5", ("before the draw", "after the draw")),
    ("deuces-wild", ("before the draw", "after the draw")),
    # SDR: a round after each card turned (R-SDR-2..5); Roll Your Own: after each
    # card turned up and after the wild card (R-RYO-3..8); before: "round 1" to "round 4"
    ("sdr", ("before the stop", "after the stop", "after the drop", "after the roll")),
    ("rollyourown", ("first card up", "second card up", "third card up",
                     "after the wild card")),
    # 5-2-1: where the hand is in players' words, not "round 6" (issue 26)
    ("rollem521", ("before the draw", "after the first draw", "first card up",
                   "second card up", "third card up", "fourth card up")),
])
def test_each_shipped_game_names_its_rounds(game: str, names: tuple[str, ...]) -> None:
    assert games.get(game).spec.round_names() == names


def test_holdem_rounds_are_told_as_streets() -> None:
    """Before: "Round 1: after Bob's big blind ...", "Round 2: ..." everywhere."""
    hand = Hand("holdem", [100] * 3, button=0, source=SeededSource(1))
    seen = []
    while not hand.is_over:
        seat = hand.pending.seats[0]  # type: ignore[union-attr]
        if hand.round_name not in seen:
            seen.append(hand.round_name)
        legal = hand.legal_actions(seat)
        from rollem.engine import actions as A

        hand.apply(seat, A.Check() if "check" in legal.actions else A.Call())
    assert seen == ["preflop", "flop", "turn", "river"]
    told = [line.text for line in narrate_view(hand.view(0), ["You", "Ann", "Bob"])]
    rounds = [t.split(" (pot")[0] for t in told if t.split(" (pot")[0] in
              ("Preflop", "Flop", "Turn", "River")]
    assert rounds == ["Preflop", "Flop", "Turn", "River"]
    assert not any(t.startswith("Round ") for t in told)


@pytest.mark.parametrize(("history", "told"), [
    # R-SDR-2..5: a round before the Stop, then one after each card turned
    ("sdr_worked_example.toml",
     ["Before the stop (pot", "The stop: Qh", "After the stop (pot",
      "The drop: 7c", "After the drop (pot", "The roll: Kc 7d 2s",
      "After the roll (pot"]),
    # R-RYO-3..8: a round after each card turned up, the last after the wild card
    ("rollyourown_seed_example.toml",
     ["B turns up Ah", "First card up (pot", "B turns up Ad", "Second card up (pot",
      "B turns up 5c", "Third card up (pot", "A picks the wild card",
      "After the wild card (pot"]),
])
def test_sdr_and_roll_your_own_rounds_are_named_after_the_cards_turned(
        history: str, told: list[str]) -> None:
    """The replay tells each round by the card turned before it, in order (before:
    "Round 1: A opens" to "Round 4: ..."; stop 54: "Before the stop (pot 2).")."""
    from pathlib import Path

    from rollem.narration.history import narrate_history

    text = (Path(__file__).parent / "histories" / history).read_text()
    lines = [line.text for line in narrate_history(text).lines]
    at = [next(i for i, line in enumerate(lines) if line.startswith(want)) for want in told]
    assert at == sorted(at), list(zip(told, at, strict=True))
    assert not any(line.startswith("Round ") for line in lines), lines


OLD_FILE = '''
format = 1
id = "tiny"
name = "Tiny"
players = [2, 6]
rules = "Five cards down, two or three rounds of betting, the best hand wins."

[house]
extra = false

[[steps]]
step = "ante"

[[steps]]
step = "deal"
cards = 5

[[steps]]
step = "bet"
size = "small"
cap = 3

[[steps]]
step = "bet"
size = "big"
cap = 3
label = "last call"
when = "extra"

[[steps]]
step = "bet"
size = "big"
cap = 3

[[steps]]
step = "showdown"
'''


def test_a_file_without_round_names_keeps_round_n() -> None:
    spec = load_game(OLD_FILE).spec
    assert spec.round_names() == ("round 1", "round 3")  # "last call" is off by default
    assert spec.round_names({"extra": True}) == ("round 1", "last call", "round 3")
    hand = Hand(load_game(OLD_FILE), [50, 50], button=0, source=SeededSource(2))
    assert hand.round_name == "round 1"


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_the_strong_bots_reads_count_the_named_rounds(game: str) -> None:
    """``strong`` reads a betting round's number from its name
    (:func:`rollem.bots.strong.reads.round_number`: its last-round play and its
    reads of folds depend on it): the named rounds count 1, 2, ... in order, as
    "round 1" ... did."""
    import random

    from rollem.bots.basic import BasicBot
    from rollem.bots.strong.reads import round_number
    from rollem.engine import actions as A

    hand = Hand(game, [100] * 3, button=0, source=SeededSource(3))
    bot = BasicBot(random.Random(0))
    seen: list[tuple[str, int | None]] = []
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        view = hand.view(seat)
        if hand.pending.kind == "bet":
            legal = hand.legal_actions(seat)
            if not seen or seen[-1][0] != view.round:
                seen.append((view.round, round_number(view)))
            hand.apply(seat, A.Check() if "check" in legal.actions else A.Call())
        else:
            hand.apply(seat, bot.act(view))
    names = games.get(game).spec.round_names()
    assert seen == [(name, k + 1) for k, name in enumerate(names)], seen
