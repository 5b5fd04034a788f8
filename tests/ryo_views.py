"""Roll Your Own views for the odds tests (issue 33): a seat's view of a seeded hand
at a decision point, as the play-odds bench builds it (bench/bench_play_odds.py), the
sampler's reading of it, and a play run whose batches are kept for the test to look at."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from rollem.odds import compiled, play, ryoseen
from rollem.odds.result import Odds
from rollem.odds.view import read_view

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_play_odds import _view


def loaded_view(game: str, players: int, hand: int, at: str) -> Any:
    """``bench_play_odds._view(game, players, hand, at)`` once the compiled loops are
    loaded. Play never waits for them (its first batches read origin by origin while
    they load: the same law, other figures), so a seeded play run pinned by a test
    gives its figures only once they are loaded (stop 66's CI: a 5-player run read
    without them missed the truth its test pins)."""
    compiled.wait()
    return _view(game, players, hand, at)


def ryo_view(players: int, round_name: str, hand: int = 30001) -> Any:
    """Seat 0's view of hand ``hand`` (the deal's seed) of Roll Your Own at ``players``
    players, at the first decision of ``round_name`` (e.g. ``"after the wild card"``),
    the compiled loops loaded (:func:`loaded_view`)."""
    return loaded_view("rollyourown", players, hand, f"at:{round_name}|")


def ryo_seen(players: int, round_name: str, hand: int = 30001) -> ryoseen.SeenPool:
    """:func:`ryo_view` as the sampler reads it (:func:`rollem.odds.ryoseen.seen_of`)."""
    seen = ryoseen.seen_of(read_view(ryo_view(players, round_name, hand)))
    assert seen is not None
    return seen


def play_batches(monkeypatch: pytest.MonkeyPatch, view: Any, seed: int, batches: int
                 ) -> tuple[Odds, list[Odds]]:
    """``play_odds(view)`` on a counting clock (``batches`` batches at most, whatever
    the machine's speed) and the batches it combined last."""
    kept: list[Odds] = []
    combine = play.combine

    def spy(runs: Any, *args: Any, **kwargs: Any) -> Odds:
        kept[:] = list(runs)
        return combine(runs, *args, **kwargs)

    monkeypatch.setattr(play, "combine", spy)
    odds = play.play_odds(view, seed=seed, max_batches=batches, clock=lambda: 0.0)
    return odds, kept


def bot_view(players: int, hand: int, round_name: str, level: str, seed: int = 60_000) -> Any:
    """Seat 0's first view in the betting round ``round_name`` (``"first expose"`` for
    its first expose) of Roll Your Own hand ``seed + hand`` at ``players`` players,
    seat 0 by the policy (every bet checked or called) and the others computer
    players of ``level`` playing every choice their own, bets and folds too
    (``bench/bench_ryo_bots.py``, issue 33, branch s67-rough), once the compiled
    loops are loaded (as :func:`loaded_view`)."""
    from bench_ryo_bots import _views

    compiled.wait()
    for rnd, view in _views(players, level, hand, seed):
        if rnd == round_name:
            return view
    raise LookupError(f"hand {hand} never reaches {round_name!r} for seat 0")
