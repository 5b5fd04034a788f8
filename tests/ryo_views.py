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

seeded_compiled_draws = pytest.mark.skipif(
    not compiled.ENABLED,
    reason="pins seeds drawn by the compiled read; ROLLEM_NO_NUMBA's numpy read draws "
           "the same law from other numbers")
"""Mark a test whose seeds were chosen by what the compiled read draws (its runs'
figures, not the law, are pinned): skipped where the loops are not compiled."""


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


def assert_collapsed_batches_kept(monkeypatch: pytest.MonkeyPatch, view: Any) -> None:
    """Every batch taken as collapsed (``ryoseen.MIN_EFFECTIVE`` above any batch's
    worlds): one seeded run of 6 batches at ``view`` draws none again and keeps all 6
    as drawn (``KEEP_WILD``/``KEEP_COLLAPSED``; before, each was drawn again with four
    times the candidates). Used at 4 and 5 players (branches s68-four, s68-five2)."""
    retries: list[Any] = []
    look = ryoseen.ryo_seen_look

    def spy(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("retry", True) is False:
            retries.append(kwargs)
        return look(*args, **kwargs)

    monkeypatch.setattr(ryoseen, "ryo_seen_look", spy)
    monkeypatch.setattr(ryoseen, "MIN_EFFECTIVE", 10 ** 9)
    odds, kept = play_batches(monkeypatch, view, 1, 6)
    assert not retries
    assert len(kept) == 6
    assert all(r.effective is not None and r.effective < ryoseen.MIN_EFFECTIVE for r in kept)
    assert odds.interval is not None and 0.0 < odds.equity < 1.0


def count_chain_steps(monkeypatch: pytest.MonkeyPatch, calls: dict[str, int],
                      move: str, steer: str) -> None:
    """Count the steps ``compiled.move_chain`` makes in one call (branch s68-fuse) as
    the one-step calls they replace: ``calls[move]`` or ``calls[steer]`` (a guided
    step) up by one each."""
    chain = compiled.move_chain

    def chained(gen: Any, step: int, end: int, every: int, guide_every: int,
                *a: Any) -> Any:
        stop, n_guided = chain(gen, step, end, every, guide_every, *a)
        for s in range(step, stop):
            place = every > 0 and s % every == every - 1
            guided = guide_every > 0 and not place and (s // max(every, 1)) % guide_every == 0
            calls[steer if guided else move] += 1
        return stop, n_guided

    monkeypatch.setattr(compiled, "move_chain", chained)
