"""Hand histories: the R-SDR-8 worked example, write-then-read, redaction, errors."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

from engine_helpers import play_out
from rollem.cards import parse_cards
from rollem.engine import Hand, Options, SeededSource
from rollem.hands import evaluate, high_value
from rollem.history import HistoryError, read_history, redact, replay, write_history

HISTORIES = Path(__file__).parent / "histories"


def test_sdr_worked_example_r_sdr_8() -> None:
    hand = replay((HISTORIES / "sdr_worked_example.toml").read_text())
    assert [str(c) for c in hand.dead] == ["Qh", "7c"]
    assert [str(c) for c in hand.board] == ["Kc", "7d", "2s"]
    assert [str(c) for c in hand.hole[0]] == ["Qs", "Qd"]
    assert [str(c) for c in hand.hole[1]] == ["As", "Kd"]
    r = hand.result
    assert r is not None
    # the Stop and Drop are part of no hand: A has only a pair of queens
    a = hand.hole[0] + hand.board
    b = hand.hole[1] + hand.board
    assert evaluate(a).description.startswith("pair of queens")
    assert evaluate(b).description == "pair of kings, ace-seven-deuce"
    assert high_value(b) > high_value(a)
    assert r.pots[0].amount == 18 and r.pots[0].winners == {1: 18}
    assert r.net == {0: -9, 1: 9}
    assert r.shown == {1: "pair of kings, ace-seven-deuce"}  # B bet last, shows first; A mucks


def test_write_then_read_gives_the_same_hand() -> None:
    rng = random.Random(11)
    for i in range(30):
        n = rng.randint(2, 10)
        hand = Hand("sdr", [rng.randint(1, 80) for _ in range(n)], button=rng.randrange(n),
                    options=Options(structure=rng.choice(["fixed-limit", "pot-limit",
                                                          "no-limit"])),
                    source=SeededSource(i))
        play_out(hand, rng)
        text = write_history(hand)
        again = replay(text)
        assert again.result is not None and hand.result is not None
        assert again.result.to_dict() == hand.result.to_dict()
        assert write_history(again) == text


def test_recorded_result_is_checked() -> None:
    hand = replay((HISTORIES / "sdr_worked_example.toml").read_text())
    text = write_history(hand).replace("1 = 9", "1 = 10")
    with pytest.raises(HistoryError, match="differs"):
        replay(text)


def test_redaction_hides_what_the_seat_did_not_see() -> None:
    hand = Hand("sdr", [100] * 3, button=0, source=SeededSource(3))
    while not hand.is_over:  # everyone checks to the showdown
        assert hand.pending is not None
        from rollem.engine import Check

        hand.apply(hand.pending.seats[0], Check())
    data = tomllib.loads(write_history(hand))
    assert hand.result is not None
    mine = redact(data, 1)
    assert "_deck" not in mine and "_shuffles" not in mine
    text = "\n".join(mine["actions"])
    for c in hand.hole[1]:
        assert str(c) in text
    for s in (0, 2):
        if s not in hand.result.shown_cards:
            for c in hand.hole[s]:
                assert str(c) not in text
    for c in hand.burned:
        assert f"burn {c}" not in text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml [", "not a TOML"),
        ('variant = "NT"', "variant"),
        ('variant = "rollem-nope"\nstarting_stacks = [1, 1]', "unknown game"),
        ('variant = "rollem-sdr"\nstarting_stacks = [10, 10]\nactions = ["p3 f"]', "p1..p2"),
        ('variant = "rollem-sdr"\nstarting_stacks = [10, 10]\nactions = ["p1 zz"]',
         "unknown action"),
        ('variant = "rollem-sdr"\nstarting_stacks = [10, 10]\nactions = ["p1 f"]',
         "cannot act now"),
        ('variant = "rollem-sdr"\nstarting_stacks = [10, 10]\nactions = ["d dh p1 Qs Qs"]',
         "twice"),
    ],
)
def test_bad_histories(text: str, message: str) -> None:
    with pytest.raises(HistoryError, match=message):
        replay(text)


def test_replay_errors_name_the_action_number_and_the_line() -> None:
    # players' actions are numbered on their own (as rollem odds --at); the
    # actions list also has dealing, showdown and comment lines (docs/hand-history.md)
    text = (HISTORIES / "sdr_worked_example.toml").read_text()
    h = read_history(text)
    assert [h.actions[i] for i in (0, 7)] == [(0, "cbr 2"), (1, "cbr 4")]
    assert h.action_lines == [3, 4, 6, 7, 9, 10, 12, 13, 14]
    bad = text.replace('"p2 cbr 4"', '"p2 cbr 400"')
    with pytest.raises(HistoryError) as info:
        replay(bad)
    assert str(info.value).startswith("action 8 (line 13 of actions: p2 cbr 400): ")
    with pytest.raises(HistoryError, match=r"^action 8 \(line 13 of actions: p2 zz\): "
                       "unknown action"):
        read_history(text.replace('"p2 cbr 4"', '"p2 zz"'))


def test_deck_prefix_is_filled() -> None:
    text = ('variant = "rollem-sdr"\nstarting_stacks = [10, 10]\n_button = 1\n'
            '_deck = "As Ks Ah Kh"\nactions = []\n')
    h = read_history(text)
    assert h.deck == parse_cards("As Ks Ah Kh")
    hand = replay(h)
    assert [str(c) for c in hand.hole[0]] == ["As", "Ah"]


@pytest.mark.parametrize(("names", "message"), [
    (["A", "B", "A"], "players[2] 'A' is players[0]'s name too: each player needs a name "
                      "of their own"),
    (["Ann", "B", " ANN"], "players[2] ' ANN' reads as players[0] 'Ann': each player needs"),
])
def test_a_history_with_two_players_of_one_name_is_refused(
        names: list[str], message: str) -> None:
    """s59-tidy: rollem's own history (and a player's own copy of it) with two
    players of one name replayed and was told with the same name for two
    seats, who did what lost; PHH import refuses it since s58-tidy, and so
    does this now, naming both entries (main: replayed)."""
    text = (HISTORIES / "rollem521_side_pot.toml").read_text()
    assert 'players = ["A", "B", "C"]' in text
    assert replay(text).is_over
    bad = text.replace('players = ["A", "B", "C"]', f"players = {names!r}".replace("'", '"'))
    with pytest.raises(HistoryError, match=re.escape(message)):
        read_history(bad)
    with pytest.raises(HistoryError, match=re.escape(message)):
        replay(bad, check_result=False)
    copy = redact(text, 1)
    copy["players"] = names
    from rollem.history.own_copy import own_copy_hand
    with pytest.raises(HistoryError, match=re.escape(message)):
        own_copy_hand(copy)


def test_blank_names_of_seats_dealt_nothing_may_repeat() -> None:
    """A seat dealt no cards is written with a blank name (history_dict): two
    of them are no clash."""
    from rollem.text import same_name

    assert same_name(["Ann", "", "Bob", " "]) is None
    assert same_name(["Ann", "Bob", "bob"]) == (1, 2)
