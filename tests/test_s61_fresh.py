"""What a newcomer trying to break rollem found (s61-fresh): hand-written
histories whose mistake was named as something else."""

from __future__ import annotations

import tomllib

import pytest

from rollem.engine import Call, Check, Hand, SeededSource
from rollem.history import HistoryError, replay, write_own_copy
from rollem.history.own_copy import own_copy_hand

RYO = '''variant = "rollem-rollyourown"
antes = [1, 1]
starting_stacks = [100, 100]
players = ["A", "B"]
{button}actions = [
    "d dh p1 AsAdAhKsKdKh",
    "d dh p2 2c3c4c5c6c7c",
    "p1 dis Ks Kd Kh",
    "p2 dis 5c 6c 7c",
    "p1 exp As",
    "p2 exp 2c",
    "p1 cc",
    "p2 cc",
    "d pd p1 5c",
    "d pd p2 Kh",
    "p1 exp 5c",
    "p2 exp Kh",
]
'''


def test_hole_cards_written_in_the_wrong_order_say_who_is_dealt_first() -> None:
    """With the button on p1 (``_button`` absent: 0) the deal starts with p2
    (R-C-13); the history deals p1 first.  Before: "line 2 of actions (d dh p2
    ...): the replay deals nothing here", or, with more lines, an error at a
    later action the wrong deal upset."""
    for text in (RYO.format(button=""),
                 RYO.format(button="").split('    "p1 dis')[0] + "]\n"):
        with pytest.raises(HistoryError) as err:
            replay(text)
        assert str(err.value) == (
            "line 2 of actions (d dh p2 2c3c4c5c6c7c), after action 0: out of order: the "
            "replay deals d dh to p2, p1 in that order (clockwise from the dealer's left; "
            "the button is p1: _button = 0)")


def test_a_players_copy_is_quoted_as_written_never_with_its_stand_in_cards() -> None:
    """A player's copy is checked by replaying it with stand-in cards for its
    ``??``; an error quoted the stand-in line ("line 2 of actions (d dh p2 2h3d)"),
    which reads as the cards p2 was dealt.  Here p2's and p3's hole cards written
    in the wrong order (R-C-13: the deal starts left of the button)."""
    hand = Hand("sdr", [200] * 3, button=0, source=SeededSource(1))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, Call() if "call" in hand.legal_actions(seat).actions else Check())
    text = write_own_copy(hand, 0)
    p2, p3 = '    "d dh p2 ????",\n', '    "d dh p3 ????",\n'
    assert p2 + p3 in text
    with pytest.raises(HistoryError) as err:
        own_copy_hand(tomllib.loads(text.replace(p2 + p3, p3 + p2)))
    assert str(err.value) == (
        "this player's copy describes a hand that cannot happen: line 2 of actions "
        "(d dh p2 ????), after action 0: out of order: the replay deals d dh to p2, p3, p1 "
        "in that order (clockwise from the dealer's left; the button is p1: _button = 0)")


def test_a_pool_draw_that_shuffles_does_not_give_is_named() -> None:
    """Roll Your Own's pool draws follow ``_shuffles`` (R-RYO-2, R-C-13); a
    hand-written history without it that names the cards drawn is refused at the
    first such line, saying where the pool's order comes from.  Before: the
    error named action 10 (p2 exp Kh: "must expose one of its down cards"), as
    if the expose were the mistake."""
    with pytest.raises(HistoryError) as err:
        replay(RYO.format(button="_button = 1\n"))
    assert str(err.value) == (
        "line 9 of actions (d pd p1 5c), after action 6: the replay deals d pd p1 Ks here "
        "(the cards come from _shuffles, the pool's order; none given: the order the "
        "cards went in)")


def test_failed_both_rule_flag_at_a_game_without_it_is_named_as_given() -> None:
    """``rollem play sdr --failed-both-rule split`` was refused as "--house
    failed_both_rule: not a house option of sdr", a flag the player never typed
    (R-521-9's option is 5-2-1's only); ``--house failed_both_rule=split`` is
    still named so."""
    from click.testing import CliRunner

    from rollem.cli.app import app

    for flags, said in ((["--failed-both-rule", "split"], "--failed-both-rule split"),
                        (["--house", "failed_both_rule=split"], "--house failed_both_rule")):
        for command in (["play", "sdr"], ["simulate", "sdr", "--players", "3", "--hands", "1"]):
            out = CliRunner().invoke(app, [*command, *flags], input="q\n")
            assert out.exit_code == 2, out.output
            assert out.output.strip().splitlines()[-1] == (
                f"rollem: error: {said}: not a house option of sdr (theirs: burn_before_roll); "
                "only rollem521 has it")


def test_odds_from_a_players_copy_for_a_seat_the_hand_does_not_have() -> None:
    """``rollem odds --history COPY --seat 9`` at a 3-seat hand said "seat 9's odds
    need a full history of the hand", which no history of that hand could give; a
    full history's "seat 9: the hand has seats 0 to 2" is said, with the copy's seat."""
    from rollem.odds import OddsError
    from rollem.odds.own_copy import stand_in_history

    hand = Hand("sdr", [200] * 3, button=0, source=SeededSource(1))
    hand.apply(1, Check())
    copy = tomllib.loads(write_own_copy(hand, 1))
    for seat in (9, -1, 3):
        with pytest.raises(OddsError) as err:
            stand_in_history(copy, seat, None)
        assert str(err.value) == (
            f"seat {seat}: the hand has seats 0 to 2; this is seat 1's own copy, so --seat 1")
    with pytest.raises(OddsError, match="seat 2's odds need a full history of the hand"):
        stand_in_history(copy, 2, None)
