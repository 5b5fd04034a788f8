"""``rollem replay`` and ``rollem simulate`` (CLI.md fixed points)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_helpers import run_cli as run

HISTORIES = Path(__file__).parent / "histories"


def test_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", str(HISTORIES / "sdr_worked_example.toml"), "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data == {
        "game": "sdr",
        "pots": [{"amount": 18, "eligible": [0, 1], "winners": {"1": 18}}],
        "net": {"0": -9, "1": 9},
        "shown": {"1": "pair of kings, ace-seven-deuce"},
        "carried": 0,
    }


def test_replay_human(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 14: step by step by default, with the players' names from the file
    code, out, _ = run(["replay", str(HISTORIES / "sdr_worked_example.toml")], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Stop, Drop and Roll: A (200) and B (200); B has the button."
    for said in ("A bets 2 (pot 4).", "The stop: Qh is turned up, dead.",
                 "The roll: Kc 7d 2s.", "B bets 4 (pot 14).", "A calls 4 (pot 18).",
                 "B wins the pot (18) with pair of kings, ace-seven-deuce."):
        assert said in lines
    assert "seat" not in out.lower()
    # --result: today's summary, names from the file too
    code, out, _ = run(["replay", str(HISTORIES / "sdr_worked_example.toml"), "--result"],
                       capsys)
    assert code == 0
    assert "Dead cards: Qh 7c" in out
    assert "Board: Kc 7d 2s" in out
    assert "B wins 18" in out and "Net: A -9, B +9" in out


@pytest.mark.parametrize(
    "content",
    ["not toml [[", 'variant = "rollem-sdr"\nstarting_stacks = [5, 5]\nactions = ["p9 f"]',
     'variant = "rollem-xyz"\nstarting_stacks = [5, 5]'],
)
def test_replay_bad_file_exits_2(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content)
    code, out, err = run(["replay", str(path), "--json"], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("rollem: error:")


def test_replay_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["replay", str(tmp_path / "nope.toml")], capsys)
    assert code == 2 and "cannot read" in err


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "sdr", "--players", "4", "--hands", "300",
                          "--seed", "3", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"game", "hands", "chips_start", "chips_end", "actions_per_hand",
                         "hands_per_second", "seats"}
    assert data["game"] == "sdr" and data["hands"] == 300
    assert data["chips_start"] == data["chips_end"]
    assert data["chips_start"] >= 800
    assert data["actions_per_hand"] > 0 and data["hands_per_second"] > 0
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2, 3]
    for s in data["seats"]:
        assert set(s) == {"seat", "bot", "net", "net_per_hand", "ci95"}
        assert s["bot"] == "random"
        lo, hi = s["ci95"]
        assert lo <= s["net_per_hand"] <= hi
    assert sum(s["net"] for s in data["seats"]) == 0


def test_simulate_is_reproducible_with_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "sdr", "--players", "3", "--hands", "50", "--seed", "9", "--json",
            "--structure", "no-limit"]
    _, a, _ = run(args, capsys)
    _, b, _ = run(args, capsys)
    nets = [[s["net"] for s in json.loads(x)["seats"]] for x in (a, b)]
    assert nets[0] == nets[1]
    assert json.loads(a)["chips_start"] == json.loads(a)["chips_end"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "nope", "--players", "3", "--hands", "5"], "unknown game"),
        (["simulate", "sdr", "--players", "11", "--hands", "5"], "2 to 10"),
        (["simulate", "sdr", "--players", "3", "--hands", "0"], "expected 1 to 1,000,000"),
        (["simulate", "sdr", "--players", "3", "--hands", "5", "--bots", "random,random"],
         "one per seat"),
        (["simulate", "sdr", "--players", "3", "--hands", "5", "--bots", "genius"],
         "unknown bot level"),
        (["simulate", "sdr", "--players", "x", "--hands", "5"], "players"),
        (["simulate", "sdr", "--players", "3", "--hands", "5", "--stack", "1"],
         "must cover the ante plus one small bet (1 + 2)"),
    ],
)
def test_simulate_bad_input_exits_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == 2
    assert out == ""
    assert message in err and err.count("\n") == 1


def test_simulate_counts_the_tables_it_played_and_refuses_hands_in_a_tournament(
        capsys: pytest.CaptureFixture[str]) -> None:
    """3 hands over 8 workers are 3 tables, not 8; --hands with --tournament was
    ignored without a word (found by a new user's try-out)."""
    code, out, err = run(["simulate", "sdr", "--players", "4", "--hands", "3",
                              "--workers", "8", "--seed", "1"], capsys)
    assert code == 0, err
    assert "chips brought 2400, at the table 2400 (summed over 3 tables: each worker " \
           "plays its own table)" in out
    code, out, err = run(["simulate", "sdr", "--players", "4", "--tournament", "turbo",
                              "--hands", "50"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("rollem: error: --hands: a tournament plays to one winner")


def test_too_few_hands_give_no_interval_and_one_number_format(
        capsys: pytest.CaptureFixture[str]) -> None:
    """s60-tidy: ``simulate sdr --players 3 --hands 2 --workers 100`` printed a 95%
    interval "+4.000 .. +4.000" from two hands, and actions per hand as "38.9033"
    here and "7.6" there. Under MIN_INTERVAL_HANDS hands there is no interval (the
    text says so, the JSON gives null); rates have one format."""
    from rollem.simulate import MIN_INTERVAL_HANDS

    assert MIN_INTERVAL_HANDS == 30
    code, out, err = run(["simulate", "sdr", "--players", "3", "--hands", "2",
                          "--workers", "100", "--seed", "4"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert re.fullmatch(r"sdr: 2 hands, 3 players, \d+\.\d hands/s, \d+\.\d\d actions/hand",
                        lines[0]), lines[0]
    assert len(lines) == 5
    for s, line in enumerate(lines[2:]):
        # (stop 72: the units said: "net +12, +6.000/hand" named none)
        assert re.fullmatch(rf"seat {s} \(random\): net [+-]\d+ chips, [+-]\d+\.\d{{3}} chips/hand "
                            r"\(too few hands for a 95% interval: 30 or more give one\)",
                            line), line
    # the JSON keeps CLI.md's shape, [low, high], whatever the hands
    code, out, err = run(["simulate", "sdr", "--players", "3", "--hands", "2",
                          "--seed", "4", "--json"], capsys)
    assert code == 0, err
    for s in json.loads(out)["seats"]:
        lo, hi = s["ci95"]
        assert lo <= s["net_per_hand"] <= hi
    for hands, has_interval in ((29, False), (30, True)):
        code, out, err = run(["simulate", "sdr", "--players", "3", "--hands", str(hands),
                              "--seed", "4"], capsys)
        assert code == 0, err
        assert ("95% CI" in out) is has_interval, out
        assert ("too few hands" in out) is not has_interval, out
