"""The league benches' documented commands refuse a bad option in one line
before playing anything (``bench/bench_args.py``): was a traceback
(``KeyError``, ``EngineError``, ``ZeroDivisionError`` at the end of a run)
or, for ``--formats 3v3``, a 1 vs 5 match played under that label."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _bench(name: str) -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SMALL = {"bench_lbr": ["--games", "sdr", "--levels", "random", "--structures", "fixed-limit",
                       "--deals", "1", "--hypotheses", "1", "--equity-samples", "3"],
         "bench_league": ["--games", "sdr", "--opponents", "basic", "--formats", "hu",
                          "--structures", "fixed-limit", "--hands", "1"]}
GAMES = "sdr, rollyourown, rollem521, holdem, omaha, omaha8, stud, stud8, razz, draw5, deuces-wild"


@pytest.mark.parametrize(("name", "extra", "message"), [
    ("bench_lbr", ["--games", "nope"],
     f"--games: 'nope' is not one of {GAMES} (comma-separated, no spaces)"),
    ("bench_lbr", ["--levels", "foo"],
     "--levels: 'foo' is not one of basic, random, strong (comma-separated, no spaces)"),
    ("bench_lbr", ["--deals", "0"], "--deals: 0 is less than 1; give a whole number from 1 up"),
    ("bench_lbr", ["--structures", "pot"], "--structures: 'pot' is not one of fixed-limit, "
     "pot-limit, no-limit (comma-separated, no spaces)"),
    ("bench_league", ["--formats", "3v3"],
     "--formats: '3v3' is not one of hu, 1v5 (comma-separated, no spaces)"),
    ("bench_league", ["--opponents", "basic,"], "--opponents: an empty item is not one of "
     "basic, random, strong, maniac, station, bluffer, tag, value, potvalue, declarer, trapper, "
     "strongtrap (comma-separated, no spaces)"),
    ("bench_league", ["--rotations", "0,6"],
     "--rotations: '6' is not one of 0, 1, 2, 3, 4, 5 (comma-separated, no spaces)"),
    ("bench_league", ["--hands", "0"], "--hands: 0 is less than 1; give a whole number from 1 up"),
])
def test_a_bad_option_is_one_line_before_any_play(
        name: str, extra: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    module = _bench(name)
    played: list[object] = []
    for fn in ("play", "match"):  # nothing may be played
        if hasattr(module, fn):
            monkeypatch.setattr(module, fn, lambda *a, **k: played.append(a))
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *SMALL[name], *extra])
    with pytest.raises(SystemExit) as stop:
        module.main()
    assert stop.value.code == 2 and played == []
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines()[-1] == f"{name}.py: error: {message}"


@pytest.mark.parametrize(("name", "extra", "message"), [
    # (stop 72: were a ZeroDivisionError at the first measure, after the tree was built)
    ("bench_vector_cfr", ["--every", "0"],
     "--every: 0 is less than 1; give a whole number from 1 up"),
    ("bench_vector_cfr", ["--deals", "0"],
     "--deals: 0 is less than 1; give a whole number from 1 up"),
    # (were a traceback from the game's setup)
    ("bench_vector_cfr", ["--deck", "2345s"],
     "--deck 2345s, --stack 3, --raise-cap 0: a deck of 4 cards is too few for Stop, Drop "
     "and Roll with 2 players: the stub runs out before the showdown"),
    ("bench_vector_cfr", ["--bots", "basic,nope"],
     "--bots: 'nope' is not one of basic, random, strong (comma-separated, no spaces)"),
    ("bench_cfr", ["--every", "0"], "--every: 0 is less than 1; give a whole number from 1 up"),
    ("bench_cfr", ["--raise-cap", "-2"],
     "--raise-cap: -2 is less than -1; give a whole number from -1 up"),
    ("bench_cfr", ["--game", "nope"],
     "--game nope, --deck 23456789Ts: unknown game 'nope': expected one of deuces-wild, draw5, "
     "holdem, omaha, omaha8, razz, rollem521, rollyourown, sdr, stud, stud8"),
])
def test_a_solver_benchs_bad_option_is_one_line_before_any_solve(
        name: str, extra: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    if name == "bench_cfr":
        pytest.importorskip("pyspiel")
    module = _bench(name)
    ran: list[object] = []
    for fn in ("solve", "check", "check_bots", "exact", "bot_sample", "hybrid_sample",
               "export", "count_states", "print_counts"):  # nothing may be solved or walked
        if hasattr(module, fn):
            monkeypatch.setattr(module, fn, lambda *a, **k: ran.append(a))
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *extra])
    with pytest.raises(SystemExit) as stop:
        module.main()
    assert stop.value.code == 2 and ran == []
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines()[-1] == f"{name}.py: error: {message}"
