"""A seeded ``rollem odds`` that waits for the compiled loops says so (s64-loop).

The first seeded Roll Your Own odds after an install waits for the odds' loops
to compile (:func:`rollem.odds.ryoseen._fused_at_start`, about 14 s) and said
nothing meanwhile.  Now, past :data:`rollem.odds.compiled.NOTICE_AFTER` seconds,
the CLI prints one line to stderr (``rollem.cli.odds_cmd.COMPILING``); the
library prints nothing and returns the same.  The compile is not forced here:
the loops' ready event is one never set, and the wait shortened (the run then
reads on the numpy path, as a wait that times out does).
"""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem.cli.app import app
from rollem.engine import Hand, SeededSource
from rollem.history import write_history
from rollem.odds import compiled, ryoseen
from rollem.odds.history import history_odds
from rollem.odds.policy import PolicyPlayer


@pytest.fixture
def late_history(tmp_path: Path) -> Path:
    """A heads-up Roll Your Own hand played by the policy to its end: seat 0's last
    decision is read by :mod:`rollem.odds.ryoseen` (a seeded run waits there)."""
    hand = Hand("rollyourown", [200] * 2, button=1, source=SeededSource(1))
    players = [PolicyPlayer() for _ in range(2)]
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, players[seat].act(hand.view(seat)))
    path = tmp_path / "ryo.toml"
    path.write_text(write_history(hand))
    return path


def _compiling(monkeypatch: pytest.MonkeyPatch, ready: bool) -> list[float | None]:
    """The loops as if compiling (``ready`` False: never done within the wait,
    shortened to 0.4 s, the notice due after 0.05 s) or compiled; the waits."""
    event = threading.Event()
    if ready:
        event.set()
    monkeypatch.setattr(compiled, "ENABLED", True)
    monkeypatch.setattr(compiled, "_READY", event)
    monkeypatch.setattr(compiled, "_start", lambda: None)
    monkeypatch.setattr(compiled, "NOTICE_AFTER", 0.05, raising=False)  # (main: none)
    monkeypatch.setattr(ryoseen, "WAIT_FOR_KERNELS", 0.4)
    monkeypatch.setattr(ryoseen, "READ_FUSED", True)
    waits: list[float | None] = []
    real = compiled.wait

    def wait(timeout: float | None = None) -> bool:
        waits.append(timeout)
        return real(timeout)

    monkeypatch.setattr(compiled, "wait", wait)
    return waits


def _odds(history: Path, *more: str) -> tuple[int, str, str]:
    run = CliRunner().invoke(app, ["odds", "--history", str(history), "--seat", "0",
                                   "--seed", "1", "--samples", "200", *more])
    return run.exit_code, run.stdout, run.stderr


def test_a_seeded_run_waiting_for_the_compiled_loops_says_so_on_stderr(
        late_history: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    waits = _compiling(monkeypatch, ready=False)
    code, out, err = _odds(late_history, "--json")
    assert code == 0, err
    assert waits == [0.4]
    assert err.splitlines() == [  # (one line; rollem.cli.odds_cmd.COMPILING)
        "rollem: loading the odds loops (compiled once after an install: up to a minute)..."]
    assert "compiling" not in out and json.loads(out)["game"] == "rollyourown"


def test_no_line_when_the_loops_are_ready(late_history: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    waits = _compiling(monkeypatch, ready=True)
    code, out, err = _odds(late_history)
    assert code == 0 and waits == [0.4]
    assert err == "" and "compiling" not in out


def test_the_library_waits_silently(late_history: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Outside the CLI (a program, the web table's workers) no notice is set:
    nothing is printed while it waits, nothing added to what it returns."""
    waits = _compiling(monkeypatch, ready=False)
    odds, _point = history_odds(late_history.read_text(), 0, samples=200, seed=1,
                                advice=True)  # (as the CLI asks)
    assert waits == [0.4]
    assert capsys.readouterr() == ("", "")
    assert "compiling" not in json.dumps(odds.to_dict())


@pytest.mark.parametrize("show_odds", [True, False])
def test_play_with_odds_starts_loading_the_loops_before_the_first_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, show_odds: bool) -> None:
    """``rollem play --show-odds`` starts loading the compiled loops when the session
    begins, while the player reads the deal: before, the first odds that needed them
    started the load, and that wait took 1.1-2.6 s of wall where the others took under
    one (stop 66's newcomer check). Without ``--show-odds`` nothing is loaded."""
    from rollem.cli.play_cmd import TerminalGame

    started: list[bool] = []
    monkeypatch.setattr(compiled, "use", lambda: started.append(True) or False)
    TerminalGame(game="rollyourown", players=4, level="basic", stack=200, seed=1,
                 show_odds=show_odds, history_dir=tmp_path, rich=False,
                 read_line=lambda prompt: "", out=io.StringIO())
    assert started == ([True] if show_odds else [])
