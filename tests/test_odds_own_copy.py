"""``rollem odds --history`` on a player's own copy (``rollem.history.redact``): for
its own seat, before the end of the hand, the same odds as from the full history
(the seat's view is the same, stand-in cards only where it saw card backs); any
other seat, or a point after the end, refused with a message that says why."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bot_helpers import basic_hand
from rollem.cli.app import app
from rollem.engine import Hand
from rollem.history import redact, write_history
from rollem.odds.history import history_odds
from rollem.odds.result import OddsError


def _hand(game: str, n: int, seed: int) -> Hand:
    return basic_hand(game, n, seed)


def _odds(text: str, seat: int, at: int) -> dict[str, object] | str:
    try:
        odds, point = history_odds(text, seat, at=at, samples=40, seed=3, exact_limit=2000)
    except OddsError as err:
        return str(err)
    assert point == at
    return odds.to_dict()


@settings(max_examples=12, deadline=None, derandomize=True)
@given(game=st.sampled_from(["sdr", "rollyourown", "rollem521"]), n=st.integers(2, 5),
       seed=st.integers(0, 2**16), pick=st.randoms(use_true_random=False))
def test_a_copy_gives_its_seat_the_full_historys_odds(game: str, n: int, seed: int,
                                                      pick: random.Random) -> None:
    hand = _hand(game, n, seed)
    full = write_history(hand)
    points = len(hand.actions)
    for seat in range(n):
        mine = tomli_w.dumps(redact(full, seat))
        for at in sorted({0, pick.randrange(points), points - 1}):
            want = _odds(full, seat, at)
            if isinstance(want, str):
                assert "folded" in want, want
                continue
            assert _odds(mine, seat, at) == want, (seat, at)


def _ryo() -> tuple[str, Hand]:
    hand = _hand("rollyourown", 3, 11)
    assert hand.result is not None and hand.result.showdown
    return write_history(hand), hand


def test_another_seats_odds_and_a_point_after_the_end_are_refused_with_why() -> None:
    full, hand = _ryo()
    mine = tomli_w.dumps(redact(full, 0))
    with pytest.raises(OddsError, match=r"this is seat 0's own copy .*gives seat 0's odds only "
                                        r"\(--seat 0\); seat 1's odds need a full history"):
        history_odds(mine, 1)
    n = len(hand.actions)
    with pytest.raises(OddsError, match=rf"the hand is over after action {n}: .*choose a "
                                        rf"point from 0 to {n - 1}$"):
        history_odds(mine, 0, at=n, samples=40, seed=1)
    # the default point, before the last action, as for a full history
    odds, point = history_odds(mine, 0, samples=40, seed=1)
    assert point == n - 1
    assert odds.to_dict() == history_odds(full, 0, samples=40, seed=1)[0].to_dict()


def test_every_point_out_of_range_names_the_one_range_of_a_copy() -> None:
    """--at K (K = actions taken, CLI.md): a finished copy of n actions gives odds at
    0 to n - 1; whatever K is refused, the message names that same range (it said
    "expected 0 to n" past the end, then refused n as over)."""
    full, hand = _ryo()
    mine = tomli_w.dumps(redact(full, 0))
    n = len(hand.actions)
    for at in (-1, n, n + 1, n + 40):
        with pytest.raises(OddsError) as info:
            history_odds(mine, 0, at=at, samples=40, seed=1)
        assert str(info.value).startswith(f"--at {at}: the copy has {n} player actions")
        assert str(info.value).endswith(f"choose a point from 0 to {n - 1}"), str(info.value)
    assert _odds(mine, 0, n - 1) == _odds(full, 0, n - 1)  # the top of the range is taken


def test_a_copy_whose_lines_do_not_play_is_refused() -> None:
    full, hand = _ryo()
    data = redact(full, 0)
    # seat 0's own draw from the pool changed to a card it already holds
    mine = next(ln for ln in data["actions"] if ln.startswith("d dh p1 ")).split()[-1][:2]
    data["actions"] = [f"d pd p1 {mine}" if ln.startswith("d pd p1 ") else ln
                       for ln in data["actions"]]
    assert tomllib.loads(tomli_w.dumps(data))["actions"] != redact(full, 0)["actions"]
    with pytest.raises(OddsError, match=r"^this player's copy describes a hand that cannot "
                                        rf"happen: .*card {mine} given twice"):
        history_odds(tomli_w.dumps(data), 0, at=len(hand.actions) - 1)


def test_rollem_odds_takes_a_players_own_copy(tmp_path: Path) -> None:
    full, _ = _ryo()
    path = tmp_path / "mine.toml"
    path.write_text(tomli_w.dumps(redact(full, 2)), encoding="utf-8")
    run = CliRunner().invoke(app, ["odds", "--history", str(path), "--seat", "2", "--at", "3",
                                   "--samples", "200", "--seed", "1"], prog_name="rollem")
    assert run.exit_code == 0, run.output
    assert run.stdout.startswith("Seat 2 after 3 actions (rollyourown):")  # (not stderr: a notice)
    run = CliRunner().invoke(app, ["odds", "--history", str(path), "--seat", "0"],
                             prog_name="rollem")
    assert run.exit_code != 0 and "this is seat 2's own copy" in run.output


def test_rollem_odds_of_a_players_own_copy_needs_no_seat(tmp_path: Path) -> None:
    # s65-check: a copy holds one seat's odds only, yet `rollem odds --history
    # hand-0001-sdr.toml` said "--history needs --seat N"; a full history still does
    full, _ = _ryo()
    path = tmp_path / "mine.toml"
    path.write_text(tomli_w.dumps(redact(full, 2)), encoding="utf-8")
    run = CliRunner().invoke(app, ["odds", "--history", str(path), "--at", "3",
                                   "--samples", "200", "--seed", "1"], prog_name="rollem")
    assert run.exit_code == 0, run.output
    assert run.stdout.startswith("Seat 2 after 3 actions (rollyourown):")  # (not stderr: a notice)
    path.write_text(full, encoding="utf-8")
    run = CliRunner().invoke(app, ["odds", "--history", str(path)], prog_name="rollem")
    assert run.exit_code == 2 and "--history needs --seat N" in run.output


def test_a_copy_is_checked_whole_even_for_a_point_before_its_bad_line() -> None:
    # seat 2 (p3) is dealt 7h As and folds; p2's show edited to p3's own cards:
    # replay refuses the copy, and so do its odds at any point, even before the fold
    data = redact(write_history(_hand("sdr", 4, 4)), 2)
    assert "p2 sm Jd6c" in data["actions"] and "d dh p3 7hAs" in data["actions"]
    text = tomli_w.dumps(data)
    assert isinstance(_odds(text, 2, 1), dict)  # as it is: odds after action 1
    data["actions"] = ["p2 sm 7hAs" if ln == "p2 sm Jd6c" else ln for ln in data["actions"]]
    with pytest.raises(OddsError, match=r"^this player's copy describes a hand that cannot "
                                        r"happen: line 26 of actions \(p2 sm 7hAs\) shows 7h, "
                                        r"which is one of your cards"):
        history_odds(tomli_w.dumps(data), 2, at=1)


def test_a_seat_that_folded_gets_its_odds_before_its_fold_by_default() -> None:
    """``--at`` defaults to the last decision point (CLI.md); for a seat that
    folded that is the point of its fold, not the end of the hand (where it has
    no cards to rate): a 3-handed hold'em hand (seed 2) where seat 0 folds at
    action 1 of 11, from the full history and from its own copy."""
    hand = _hand("holdem", 3, 2)
    full = write_history(hand)
    assert [(k, s) for k, (s, a) in enumerate(hand.actions)
            if type(a).__name__ == "Fold"] == [(1, 0)]
    for text in (full, tomli_w.dumps(redact(full, 0))):
        odds, point = history_odds(text, 0, samples=40, seed=3, exact_limit=2000)
        assert point == 1
        assert odds.to_dict() == history_odds(text, 0, at=1, samples=40, seed=3,
                                              exact_limit=2000)[0].to_dict()
    # a seat still in at the end keeps the hand's last decision point
    _, point = history_odds(full, 1, samples=40, seed=3, exact_limit=2000)
    assert point == len(hand.actions) - 1
    with pytest.raises(OddsError, match="seat 0 has folded by action 2"):
        history_odds(full, 0, at=2, samples=40, seed=3, exact_limit=2000)
