"""Stop 60 leftovers (s60-polish): ``rollem replay`` of a tournament hand tells
who took the add-on (its history's ``[_tournament]`` ``addon_chips``,
``addon_price`` and ``addons``), under the level's line."""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from rollem.bots import make_bot
from rollem.cli.app import app
from rollem.history.writing import write_history, write_own_copy
from rollem.table import Table
from rollem.tournament import SCHEDULES
from rollem.tournament.session import Tournament

NAMES = ["Ann", "Bob", "Cy", "Dan"]


def _level_2_hand(took: list[int]) -> tuple[object, dict[str, object]]:
    """Level 2's first hand of a turbo (4 entrants, seat 2 busted at level 1's
    end) after seats ``took`` took the add-on of 150 chips for 5, played out by
    computer players; the hand and its ``[_tournament]`` record."""
    t = Tournament(SCHEDULES["turbo"], 4, buy_in=10, rebuy_levels=1, addon_chips=150,
                   addon_price=5)
    t.hands_played = 6
    table = Table([180, 120, 0, 200], game="sdr", tournament=t, out={2},
                  brought=[100, 100, 100, 200], rng=random.Random(4))
    for seat in took:
        table.addon_seat(seat)
    hand = table.new_hand()
    bots = [make_bot("basic", random.Random(s)) for s in range(4)]
    while not hand.is_over:
        s = hand.pending.seats[0]  # type: ignore[union-attr]
        hand.apply(s, bots[s].act(hand.view(s)))
    return hand, t.hand_record()


def _told(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "hand.toml"
    path.write_text(text, encoding="utf-8")
    # (through the group, as `rollem replay` runs: invoking the command alone makes
    # click keep a help option without the group's -h on it for the whole process)
    out = CliRunner().invoke(app, ["replay", str(path)])
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


def test_replay_tells_who_took_the_add_on(tmp_path: Path) -> None:
    hand, record = _level_2_hand([1, 3])
    assert record["addons"] == [1, 3]
    lines = _told(tmp_path, write_history(hand, players=NAMES, tournament=record))
    # (main: the level's line only)
    assert lines[1:4] == ["Ante 1, fixed limit 3/6.", "Tournament (turbo), level 2.",
                          "Took the add-on (+150 chips for 5): Bob and Dan."], lines
    # a player's own copy says it too (by name, as its header names the players)
    mine = _told(tmp_path, write_own_copy(hand, 1, players=NAMES, tournament=record))
    assert mine[2:4] == ["Tournament (turbo), level 2.",
                         "Took the add-on (+150 chips for 5): Bob and Dan."], mine


def test_replay_says_nothing_of_an_add_on_nobody_took(tmp_path: Path) -> None:
    hand, record = _level_2_hand([])
    assert record["addons"] == []
    lines = _told(tmp_path, write_history(hand, players=NAMES, tournament=record))
    assert lines[2] == "Tournament (turbo), level 2." and "add-on" not in lines[3], lines
