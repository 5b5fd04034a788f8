"""Roll Your Own's last read with more candidates, and more worlds read than
kept (issue 33, branch s64-last: ryoseen.LAST_CANDIDATES and LAST_READS,
ryoseen.READ_MORE; the candidates off by default, READ_MORE 2 at 6 players from
the third card up since stop 64, at 4 players in the third card up round since
branch s65-four).

The last opponents in ``read_order`` draw ``LAST_CANDIDATES`` candidates per
world, the others the batch's own. With ``READ_MORE`` the worlds laid out and
read are that many times the batch's, resampled down to the batch's before
the moves. Neither changes the law: a batch's evidence (an unbiased estimate
of how likely what was seen is) and its equity have the same means."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rollem.odds import ryoseen
from rollem.odds.view import read_view
from ryo_views import loaded_view as _view


def _seen() -> ryoseen.SeenPool:
    seen = ryoseen.seen_of(read_view(_view("rollyourown", 6, 30001,
                                           "at:after the wild card|")))
    assert seen is not None
    return seen


def _layouts_laid(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The worlds each ``ryoseen._layout`` call lays out, appended as they come."""
    laid: list[int] = []
    real = ryoseen._layout

    def spy(seen: Any, k: int, *a: Any) -> Any:
        laid.append(k)
        return real(seen, k, *a)

    monkeypatch.setattr(ryoseen, "_layout", spy)
    return laid


def _asked(monkeypatch: pytest.MonkeyPatch, last: int, reads: int) -> dict[int, int]:
    """The candidates each opponent's read is given in one batch of the view
    after the wild card at 6 players (hand 30001)."""
    monkeypatch.setattr(ryoseen, "LAST_CANDIDATES", last)
    monkeypatch.setattr(ryoseen, "LAST_READS", reads)
    asked: dict[int, int] = {}
    real = ryoseen._read_opponent

    def spy(seen: Any, j: int, *a: Any, **kw: Any) -> Any:
        asked[j] = a[-2]
        return real(seen, j, *a, **kw)

    monkeypatch.setattr(ryoseen, "_read_opponent", spy)
    assert ryoseen.ryo_seen_look(_seen(), samples=300, seed=3) is not None
    return asked


def test_the_last_reads_draw_the_last_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _seen()
    order = ryoseen.read_order(seen)
    own = ryoseen.candidates_for(seen)
    assert _asked(monkeypatch, 0, 1) == dict.fromkeys(order, own)  # off: the batch's own
    assert _asked(monkeypatch, 4 * own, 1) == {**dict.fromkeys(order, own), order[-1]: 4 * own}
    assert _asked(monkeypatch, 4 * own, 2) == {**dict.fromkeys(order, own),
                                               order[-1]: 4 * own, order[-2]: 4 * own}
    assert _asked(monkeypatch, 1, 1) == dict.fromkeys(order, own)  # (never fewer)


def _batches(monkeypatch: pytest.MonkeyPatch, more: float, seeds: range, last: int = 0
             ) -> tuple[list[float], list[float], list[int]]:
    """Per seed, one batch of 200 worlds (a tenth of a whole one) of the view
    after the wild card at 6 players (its moves on): its equity, its evidence (mean unnormalised
    weight) and the worlds laid out."""
    monkeypatch.setattr(ryoseen, "READ_MORE", more)
    monkeypatch.setattr(ryoseen, "LAST_CANDIDATES", last)
    laid = _layouts_laid(monkeypatch)
    seen = _seen()
    eq, ev = [], []
    with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.1):
        for s in seeds:
            odds = ryoseen.ryo_seen_look(seen, samples=200, seed=s)
            assert odds is not None and odds.evidence is not None
            eq.append(odds.equity)
            ev.append(odds.evidence)
    return eq, ev, laid


def test_more_worlds_read_keep_the_batchs_worlds_and_law(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[int] = []
    real = ryoseen._worlds

    def spy(*a: Any, **kw: Any) -> Any:
        out = real(*a, **kw)
        kept.append(len(out[1]))
        return out

    monkeypatch.setattr(ryoseen, "_worlds", spy)
    more_eq, more_ev, laid = _batches(monkeypatch, 2, range(40))
    assert laid[-1] == 400 and kept[-1] == 200  # read 400, kept 200
    one_eq, one_ev, laid = _batches(monkeypatch, 1, range(100, 140))
    assert laid[-1] == 200 and kept[-1] == 200
    for a, b in ((more_eq, one_eq), (more_ev, one_ev)):
        se = np.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
        assert abs(np.mean(a) - np.mean(b)) < 4 * se, (np.mean(a), np.mean(b), se)


def test_more_candidates_for_the_last_read_keep_the_law(
        monkeypatch: pytest.MonkeyPatch) -> None:
    many_eq, many_ev, _ = _batches(monkeypatch, 1, range(40), last=64)
    one_eq, one_ev, _ = _batches(monkeypatch, 1, range(100, 140))
    for a, b in ((many_eq, one_eq), (many_ev, one_ev)):
        se = np.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
        assert abs(np.mean(a) - np.mean(b)) < 4 * se, (np.mean(a), np.mean(b), se)


@pytest.mark.parametrize(("players", "at", "read"), [
    (6, "at:after the wild card|", 2), (6, "at:third card up|", 2),
    (6, "late", 1), (5, "at:third card up|", 1), (5, "at:after the wild card|", 4),
    (4, "at:third card up|", 2), (4, "at:after the wild card|", 2), (4, "late", 1)])
def test_more_worlds_are_read_at_6_players_from_the_third_card_up(
        monkeypatch: pytest.MonkeyPatch, players: int, at: str, read: int) -> None:
    """By default (stop 64) the worlds laid out are READ_MORE (2) times the batch's
    at 6 players from the third card up, where it was measured (READ_MORE_FROM),
    and at 4 players in the third card up round (READ_MORE_THIRD, branch
    s65-four: play's runs there spread 0.37 points against 0.50 and covered 284
    of 309 against 271), and the
    batch's own elsewhere: after the second draw at 6 and 4 players, and at 5
    players (where one screen found it costlier). After the wild card at 4 players
    too since branch s66-mix (READ_MORE_WILD, with the place steps there), and at 5
    players 4 times since branch s67-five (READ_MORE_WILD_TIMES: there a batch read as
    dealt had 5 to 8% of its worlds effective on the wide hands)."""
    laid = _layouts_laid(monkeypatch)
    seen = ryoseen.seen_of(read_view(_view("rollyourown", players, 30001, at)))
    assert seen is not None
    with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.1):
        odds = ryoseen.ryo_seen_look(seen, samples=200, seed=5)
    assert odds is not None
    assert laid[-1] == odds.samples * read, (laid, odds.samples)
