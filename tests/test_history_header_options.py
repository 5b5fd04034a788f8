"""A history whose PHH header (``antes``, ``blinds_or_straddles``, ``small_bet``,
``big_bet``) contradicts its ``_options`` is refused by ``rollem replay``, a
player's own copy and a full history alike, naming both values (R-C-13): the
narration read the header ("ante 3", "Each player antes 3") while the replay
played the options (ante 1), so the story told was not the hand played. Before,
a player's copy whose antes said 3 under ``ante = 1`` was told without a word."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from cli_helpers import run_cli as run
from rollem.engine import Hand, Options, SeededSource
from rollem.history import HistoryError, redact, replay, write_history
from rollem.history_copy import own_copy_hand

COPIES = Path(__file__).parent / "copies"


def _edited(name: str, tmp_path: Path, **fields: Any) -> Path:
    data = tomllib.loads((COPIES / name).read_text(encoding="utf-8"))
    data.update(fields)
    path = tmp_path / name
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["rollem521_ann.toml", "sdr_ann.toml", "rollyourown_ann.toml",
                                  "rollem521.toml"])
def test_antes_that_contradict_the_options_are_refused(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _edited(name, tmp_path, antes=[3, 3, 3])
    code, out, err = run(["replay", str(path)], capsys)
    assert (code, out) == (2, "")
    assert "antes = [3, 3, 3] contradicts _options (ante = 1): the hand's antes are " \
           "[1, 1, 1]" in err, err
    assert err.count("\n") == 1   # one line, no traceback


def test_a_blind_game_takes_no_antes_whatever_the_header_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # hold'em's option ante = 1 is not taken (a blind game): its antes are 0
    path = _edited("holdem_ann.toml", tmp_path, antes=[1, 1, 1])
    code, _, err = run(["replay", str(path)], capsys)
    assert code == 2
    assert "antes = [1, 1, 1] contradicts _options (ante = 1, and Texas Hold'em takes no " \
           "antes): the hand's antes are [0, 0, 0]" in err, err


@pytest.mark.parametrize("name", ["holdem_ann.toml", "holdem.toml"])
def test_blinds_that_contradict_the_options_are_refused(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _edited(name, tmp_path, blinds_or_straddles=[2, 5, 0])
    code, _, err = run(["replay", str(path)], capsys)
    assert code == 2
    assert "blinds_or_straddles = [2, 5, 0] contradicts _options: the hand posts " \
           "[1, 2, 0]" in err, err


def test_bet_sizes_that_contradict_the_options_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _edited("sdr_ann.toml", tmp_path, big_bet=8)
    code, _, err = run(["replay", str(path)], capsys)
    assert code == 2
    assert "big_bet = 8 contradicts _options (big_bet = 4)" in err, err


@pytest.mark.parametrize("name", ["rollem521_ann.toml", "sdr_ann.toml", "rollyourown_ann.toml",
                                  "holdem_ann.toml", "rollem521.toml", "holdem.toml"])
def test_the_unedited_files_still_replay(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", str(COPIES / name)], capsys)
    assert (code, err) == (0, "") and out


def test_a_bomb_pot_and_a_seat_not_dealt_in_agree_with_their_header() -> None:
    """As written: a bomb pot's antes are its ante; a seat not dealt in (0 chips)
    antes 0, and a hand-written 1 there is accepted too."""
    hand = Hand("holdem", [100, 100, 100], button=0, source=SeededSource(3),
                options=Options(structure="no-limit", small_bet=2, bomb_pot=10))
    while not hand.is_over:
        seat = hand.pending.seats[0]  # type: ignore[union-attr]
        from rollem.engine import actions as A

        legal = hand.legal_actions(seat)
        hand.apply(seat, A.Check() if "check" in legal.actions else A.Call())
    text = write_history(hand)
    data = tomllib.loads(text)
    assert data["antes"] == [10, 10, 10]
    replay(text)
    own_copy_hand(redact(data, 1))
    data["antes"] = [2, 2, 2]
    with pytest.raises(HistoryError, match=r"a bomb pot's ante = 10"):
        replay(data)
    short = Hand("sdr", [60, 0, 60], button=0, source=SeededSource(4))
    while not short.is_over:
        seat = short.pending.seats[0]  # type: ignore[union-attr]
        from rollem.engine import actions as A

        legal = short.legal_actions(seat)
        short.apply(seat, A.Check() if "check" in legal.actions else
                    A.Call() if "call" in legal.actions else A.Fold())
    data = tomllib.loads(write_history(short))
    assert data["antes"] == [1, 0, 1]
    data["antes"] = [1, 1, 1]
    replay(data)
