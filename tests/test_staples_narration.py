"""Straddles, bomb pots and run it twice in words and in the stored history
(issue 27): the narration says "posts a straddle of 4", "Bomb pot: everyone
antes 5", each run's board and winners; a hand run twice keeps each run in
``_result.runs`` (ours, docs/hand-history.md), which a replay checks and the
history's narration tells again."""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from rollem.engine import Call, Hand, Options, SeededSource
from rollem.engine.result import outcome_from_dict
from rollem.history import HistoryError, redact, replay, write_history
from rollem.narration import narrate_hand, narrate_history, narrate_view
from rollem.narration.felt import FeltTalk
from test_run_twice import _agree, _holdem

NAMES = ["Ann", "Bob", "Cy"]

# The worked hand of tests/test_run_twice.py (its numbers worked by hand there):
# main pot 60 and side pot 60, each split 30 / 30 between the runs.
RUNS = [
    "Run it twice, first run: 2c 7d 9h Jc 3s.",
    "Bob wins the main pot (30) with pair of aces, jack-nine-seven.",
    "Cy wins side pot 1 (30) with pair of kings, jack-nine-seven.",
    "Second run: Qd 4c 8s 2h 5d.",
    # (one winner of both pots of a run: one line, s61-night)
    "Ann wins both pots (60: the main pot 30, side pot 30) with three queens, eight-five.",
]


def _told(hand: Hand) -> list[str]:
    return [line.text for line in narrate_hand(hand, NAMES)]


def test_a_hand_run_twice_is_told_run_by_run() -> None:
    hand = _holdem()
    _agree(hand)
    lines = _told(hand)
    at = lines.index("Everyone still in agrees to run it twice. First run:")
    assert lines[at + 1] == "The flop: 2c 7d 9h."
    assert lines[lines.index("Second run:") + 1] == "The flop: Qd 4c 8s."
    # each shown hand in both runs' words (before: the ten cards of both boards)
    assert "Ann shows Qs Qh: pair of queens, jack-nine-seven on the first run; " \
           "three queens, eight-five on the second." in lines
    assert lines[-6:] == [*RUNS, "Net: Ann +10, Bob +10, Cy -20."]
    # a player's view says the same, and the net as theirs
    seen = [line.text for line in narrate_view(hand.view(1), NAMES)]
    assert seen[-6:-1] == [r.replace("Bob wins", "You win") for r in RUNS]
    assert seen[-1] == "This hand: you won 10."


def test_each_run_is_a_field_of_the_history_checked_and_told_again() -> None:
    hand = _holdem()
    _agree(hand)
    text = write_history(hand, players=NAMES)
    data = tomllib.loads(text)
    runs = data["_result"]["runs"]
    assert [(r["board"], r["dead"]) for r in runs] == [
        (["2c", "7d", "9h", "Jc", "3s"], []), (["Qd", "4c", "8s", "2h", "5d"], [])]
    assert [[(p["amount"], p["winners"]) for p in r["pots"]] for r in runs] == [
        [(30, {"1": 30}), (30, {"2": 30})], [(30, {"0": 30}), (30, {"0": 30})]]
    assert runs[1]["shown"]["0"] == "three queens, eight-five"
    assert outcome_from_dict(data["_result"]).runs == runs
    assert narrate_history(text).text().splitlines()[-6:-1] == RUNS
    # a player's own copy keeps the runs (every hand was shown) and tells them
    own = redact(text, 2)
    assert own["_result"]["runs"] == runs
    told = narrate_history(tomli_w.dumps(own)).text().splitlines()
    assert told[-6:-1] == [r.replace("Cy wins", "You win") for r in RUNS]
    # an edited run is refused by the replay, naming the field
    data["_result"]["runs"][1]["pots"][0]["winners"] = {"1": 30}
    with pytest.raises(HistoryError, match=r"_result\.runs"):
        replay(tomli_w.dumps(data))


def test_a_declined_run_twice_says_who_said_yes() -> None:
    hand = _holdem()
    _agree(hand, {0: True, 1: True, 2: False})
    lines = _told(hand)
    assert "Not everyone agrees to run it twice (Ann and Bob said yes): the board is " \
           "dealt once." in lines
    assert hand.result is not None and hand.result.runs == []
    assert "runs" not in tomllib.loads(write_history(hand))["_result"]


def test_a_straddle_and_a_bomb_pot_in_words() -> None:
    names = [*NAMES, "Di"]
    hand = Hand("holdem", [100] * 4, button=0, source=SeededSource(1),
                options=Options(structure="no-limit", small_bet=2,
                                straddle_rule="optional", straddlers=(3,)))
    lines = _told_as(hand, names)
    assert lines[2:3] == ["Di posts a straddle of 4 (pot 7)."]
    assert lines[-1] == "Preflop (pot 7).", lines
    assert hand.pending is not None and hand.pending.seats == (0,)  # left of the straddle
    hand.apply(0, Call())
    lines = _told_as(hand, names)  # (stop 54: the first to act told once, acting)
    assert lines[-2:] == ["Preflop (pot 7).", "Ann calls 4 (pot 11)."], lines
    talk = FeltTalk(names)
    for e in hand.view(None).to_dict()["events"]:
        talk.feed(e)
    assert talk.last_actions_json()["3"] == {"kind": "blind", "text": "straddle 4"}
    bomb = Hand("holdem", [100] * 3, button=0, source=SeededSource(1),
                options=Options(structure="no-limit", small_bet=2, bomb_pot=5))
    lines = _told_as(bomb, NAMES)
    assert lines[0] == "Bomb pot: everyone antes 5 (pot 15)."
    assert "Bomb pot: no preflop betting; the cards come at once." in lines


def _told_as(hand: Hand, names: list[str]) -> list[str]:
    return [line.text for line in narrate_hand(hand, names)]


def test_a_stop_drop_and_roll_hand_run_twice_names_each_runs_dead_cards() -> None:
    """The worked example of tests/test_run_twice.py: main pot 33 (17 to run 1, the
    odd chip, 16 to run 2), side pot 40 (20 / 20)."""
    from rollem.engine import Bet, Call, Raise, ReplaySource
    from test_run_twice import _deck

    deck = _deck(3, 0, {1: "As Ah", 2: "Ks Kh", 0: "Qs Qh"},
                 "2d 2c 3c 3d 7c 9d Jh 4d 4c 5c 5d Qd 8c 6h")
    hand = Hand("sdr", [60, 11, 31], button=0, source=ReplaySource([("deck", deck)]),
                options=Options(structure="no-limit", ante=1, small_bet=2, run_twice=True))
    hand.apply(1, Bet(10))
    hand.apply(2, Raise(30))
    hand.apply(0, Call())
    _agree(hand)
    lines = _told(hand)
    second = lines.index("Second run:")
    assert lines[second + 1:second + 4] == [
        "The stop: 4c is turned up, dead.", "The drop: 5d is turned up, dead.",
        "The roll: Qd 8c 6h."]
    assert lines[-6:] == [
        "Run it twice, first run: 7c 9d Jh, dead 2c 3d.",
        "Bob wins the main pot (17) with pair of aces, jack-nine-seven.",
        "Cy wins side pot 1 (20) with pair of kings, jack-nine-seven.",
        "Second run: Qd 8c 6h, dead 4c 5d.",
        "Ann wins both pots (36: the main pot 16, side pot 20) with three queens, eight-six.",
        "Net: Ann +5, Bob +6, Cy -11."]
