"""Roll Your Own after the wild card: a read's look-ahead to the opponents read after it
(``ryoseen.LOOK_AHEAD``, issue 33, branch s71-draw). A candidate's weight is multiplied
by the later drawer's factor for the card it names that drawer's hidden draw with, and
that factor is divided back out at the drawer's read, so the worlds' law is unchanged:
checked here world by world (with one candidate a read and no resampling the same
worlds are drawn whatever the factors, and their final weights must be the same), and
the factors against the exposes' chances worked out from scratch."""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled, ryoseen
from rollem.odds.look521 import TREMBLE
from rollem.odds.policy import FAST
from ryo_views import ryo_seen

HAND = 31157  # the widest of the 6-player hands (s70-wide): seat 5's draws are others' discards


def _unseen(seen: ryoseen.SeenPool) -> Any:
    return np.asarray(sorted(set(range(52)) - ryoseen._seen_cards(seen)), dtype=np.int64)


def _batch(monkeypatch: pytest.MonkeyPatch, seen: ryoseen.SeenPool, power: float,
           probe: list[int] | None = None) -> tuple[Any, Any]:
    """One batch's worlds (hands) and their weights after the last read, with the
    look-ahead on at ``power``, one candidate a read, no resampling between reads, no
    label steps, no more worlds read than kept; ``probe`` counts the candidates the
    look-ahead weighed."""
    monkeypatch.setattr(ryoseen, "LOOK_AHEAD", frozenset({len(seen.opponents)}))
    monkeypatch.setattr(ryoseen, "LOOK_POWER", power)
    monkeypatch.setattr(ryoseen, "RESAMPLE", 0.0)
    monkeypatch.setattr(ryoseen, "LAST_CANDIDATES", 0)
    monkeypatch.setattr(ryoseen, "PARTIAL_LABELS", {})
    monkeypatch.setattr(ryoseen, "READ_MORE", 1)
    kept: list[Any] = []
    resample = ryoseen._resample

    def last(gen: Any, weight: Any, groups: int = 1, always: bool = False) -> Any:
        if always:  # (before the moves: every world's weight after the last read)
            kept.append(weight.copy())
        return resample(gen, weight, groups, always)
    monkeypatch.setattr(ryoseen, "_resample", last)
    if probe is not None:
        real = ryoseen._ahead_logs

        def spy(ahead: Any, val: Any) -> Any:
            out = real(ahead, val)
            probe[0] += int((out != 0).sum())
            return out
        monkeypatch.setattr(ryoseen, "_ahead_logs", spy)
    gen = np.random.default_rng(7)
    hands, _, _, _, _ = ryoseen._worlds(seen, 400, _unseen(seen), FAST, TREMBLE, gen,
                                        candidates=1, moves=1)
    assert len(kept) == 1
    return np.asarray(hands), kept[0]


@pytest.mark.parametrize(("players", "hand", "fused", "keep"), [
    (6, HAND, True, False), (6, HAND, False, False), (6, HAND, True, True),
    (6, HAND, False, True), (5, 31042, True, False), (5, 31042, True, True)])
def test_look_ahead_factors_cancel_world_by_world(monkeypatch: pytest.MonkeyPatch,
                                                  players: int, hand: int, fused: bool,
                                                  keep: bool) -> None:
    """With one candidate a read the look-ahead changes no draw, only the weights
    between a read and the drawer's; at the end each world's weight must be the one
    drawn without it (power 0: every factor 1), to rounding, though thousands of
    candidates were weighed by factors from 10⁻⁴ to 10⁴ (power 2). Fails where the factor is not
    put off to the drawer's read (``_put_off`` made a no-op: checked in the test), or
    put off to another opponent. Both reads: the compiled one pass and origin by
    origin; the factors with the hidden kept cards alike and weighed by their keep
    (``LOOK_KEEP``); at 6 players and at 5 (31042, a wide hand whose reads name its later
    drawers' hidden draws)."""
    monkeypatch.setattr(ryoseen, "READ_FUSED", fused)
    monkeypatch.setattr(ryoseen, "LOOK_KEEP", keep)
    seen = ryo_seen(players, "after the wild card", hand)
    probe = [0]
    hands0, w0 = _batch(monkeypatch, seen, 0.0)
    hands1, w1 = _batch(monkeypatch, seen, 2.0, probe)
    assert probe[0] > 200  # the look-ahead weighed candidates (not a factor of 1 each)
    assert (hands0 == hands1).all()
    assert w0.sum() > 0 and w0.std() > 0
    np.testing.assert_allclose(w1, w0, rtol=1e-9, atol=1e-300)
    # the weights between differ: broken bookkeeping shows at the end
    monkeypatch.setattr(ryoseen, "_put_off", lambda *args: None)
    _, w2 = _batch(monkeypatch, seen, 2.0)
    assert np.mean(~np.isclose(w2, w0, rtol=1e-3, atol=0.0)) > 0.5


def _table_entries_checked(seen: Any, base: Any, logs: Any, chance: Any, tops: int,
                           cases: tuple[list[int], ...]) -> int:
    """Check the look-ahead table's entries for seat 5 (opponent 4) of ``seen`` against
    ``chance(kept_up, ranks, drawn_up)`` over the origin's best (ranks ``0..tops-1``
    each, 13: not known), at each of ``cases``' two draw ranks in each origin; returns
    how many entries were checked."""
    opp = seen.opponents[4]
    d = len(opp.draws)
    checked = 0
    for i, combo in enumerate(ryoseen._origins(opp, set(seen.discards))):
        kept_up = [u for u, r in zip(opp.ups, combo, strict=True) if r == 0]
        drawn_up = {r - 1: u for u, r in zip(opp.ups, combo, strict=True) if r}
        top = max(chance(kept_up, [a, b], drawn_up) for a in range(tops) for b in range(tops)
                  if all(t not in drawn_up or [a, b][t] == drawn_up[t] >> 2 for t in range(2)))
        for ranks in cases:
            ranks = [drawn_up[t] >> 2 if t in drawn_up else ranks[t] for t in range(d)]
            key = base[i] + ranks[0] * 14 + ranks[1]
            want = chance(kept_up, ranks, drawn_up) / top
            np.testing.assert_allclose(np.exp(logs[key]), max(want, 1e-12), rtol=1e-9)
            checked += 1
    return checked


def test_look_ahead_table_averages_the_exposes_chance() -> None:
    """:func:`ryoseen._ahead_table`'s factor for a later opponent's draws' ranks (13:
    not known) is its exposes' chance averaged alike over the ranks of its hidden kept
    cards and of the draws not known, over the origin's best; worked out here from
    :func:`ryoseen._expose_lik` itself for seat 5 of hand 31157 (both draws hidden
    in three of its origins), every origin, at one rank of each draw with the other
    known and not known, and both not known."""
    seen = ryo_seen(6, "after the wild card", HAND)
    expose = ryoseen._ExposeTable(seen, FAST, TREMBLE)
    base, logs = ryoseen._ahead_table(seen, expose)
    m = 4
    opp = seen.opponents[m]
    d = len(opp.draws)
    assert d == 2

    def chance(kept_up: list[int], ranks: list[int], drawn_up: dict[int, int]) -> float:
        slots = [[c >> 2] for c in kept_up] + [list(range(13))] * (3 - len(kept_up))
        slots += [[drawn_up[t] >> 2] if t in drawn_up else
                  (list(range(13)) if ranks[t] == 13 else [ranks[t]]) for t in range(d)]
        cards = 4 * np.asarray(list(product(*slots)), dtype=np.int64)
        return float(ryoseen._expose_lik(FAST, expose.opponents[m], cards[:, :3],
                                         [cards[:, 3 + t] for t in range(d)], TREMBLE).mean())

    assert _table_entries_checked(seen, base[m], logs, chance, 14,
                                  ([0, 13], [9, 13], [13, 4], [13, 13], [8, 0], [4, 7])) >= 25


def _fake_keep(policy: Any, kept: Any, thrown: Any, tremble: float, six: Any = None) -> Any:
    """A keep chance worked by hand: symmetric in the kept cards, by their ranks."""
    r = np.asarray(kept) >> 2
    return 1.0 + (r[:, 0] + 1) * (r[:, 1] + 1) * (r[:, 2] + 1) / 100.0 + 0 * thrown[:, 0]


def test_keep_weights_sum_the_sets_of_unseen_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`ryoseen._ahead_keep_weights` at ranks ``(a, b)`` is the sum of the keep
    chance over the sets of two unseen cards of those ranks, each order of a set's ranks
    half of it: with a keep chance of 1, ``n_a n_b / 2`` apart and ``C(n_a, 2)`` at one
    rank (``n_r`` the unseen cards of rank ``r``); with a keep chance worked by hand,
    the sum over the sets listed here."""
    seen = ryo_seen(6, "after the wild card", HAND)
    unseen = _unseen(seen)
    n = np.bincount(unseen >> 2, minlength=13)
    kept_up = [seen.opponents[4].ups[0]]
    monkeypatch.setattr(ryoseen, "_keep_lik", lambda p, k, t, tr, six=None: np.ones(len(k)))
    w = ryoseen._ahead_keep_weights(FAST, TREMBLE, kept_up, 2, unseen)
    want = np.outer(n, n) / 2.0
    want[np.diag_indices(13)] = n * (n - 1) / 2.0
    np.testing.assert_allclose(w, want, rtol=1e-12)
    monkeypatch.setattr(ryoseen, "_keep_lik", _fake_keep)
    w = ryoseen._ahead_keep_weights(FAST, TREMBLE, kept_up, 2, unseen)
    want = np.zeros((13, 13))
    for x in range(len(unseen)):
        for y in range(x + 1, len(unseen)):
            cards = np.asarray([[kept_up[0], unseen[x], unseen[y]]], dtype=np.int64)
            g = float(_fake_keep(None, cards, cards, 0.0)[0])
            want[unseen[x] >> 2, unseen[y] >> 2] += g / 2
            want[unseen[y] >> 2, unseen[x] >> 2] += g / 2
    np.testing.assert_allclose(w, want, rtol=1e-12)
    assert (w == w.T).all()
    monkeypatch.setattr(ryoseen, "_keep_lik", lambda p, k, t, tr, six=None: np.ones(len(k)))
    one = ryoseen._ahead_keep_weights(FAST, TREMBLE, list(seen.opponents[4].ups[:2]), 1,
                                      unseen)
    np.testing.assert_allclose(one, n, rtol=1e-12)  # one hidden card: its rank's unseen


def test_look_ahead_table_weighs_the_kept_cards_by_their_keep(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``LOOK_KEEP`` the factor is the exposes' chance averaged over every set of
    the later opponent's hidden kept cards (unseen cards, each set weighed by its keep
    chance: here one worked by hand) and over the ranks of its draws not known (each
    as often as its unseen cards), over the origin's best; worked out from
    :func:`ryoseen._expose_lik` for seat 5 of hand 31157, every origin. Not the
    factor with every rank alike (the table differs from it)."""
    seen = ryo_seen(6, "after the wild card", HAND)
    unseen = _unseen(seen)
    n = np.bincount(unseen >> 2, minlength=13).astype(float)
    monkeypatch.setattr(ryoseen, "_keep_lik", _fake_keep)
    monkeypatch.setattr(ryoseen, "LOOK_KEEP", True)
    expose = ryoseen._ExposeTable(seen, FAST, TREMBLE)
    base, logs = ryoseen._ahead_table(seen, expose)
    monkeypatch.setattr(ryoseen, "LOOK_KEEP", False)
    _, plain = ryoseen._ahead_table(seen, ryoseen._ExposeTable(seen, FAST, TREMBLE))
    m = 4
    opp = seen.opponents[m]
    d = len(opp.draws)

    def chance(kept_up: list[int], ranks: list[int], drawn_up: dict[int, int]) -> float:
        f = 3 - len(kept_up)
        sets = (unseen[np.asarray(list(combinations(range(len(unseen)), f)), dtype=np.int64)]
                if f else np.zeros((1, 0), dtype=np.int64))
        kept = np.concatenate([np.broadcast_to(np.asarray(kept_up, dtype=np.int64),
                                               (len(sets), len(kept_up))), sets], axis=1)
        g = _fake_keep(None, kept, kept, 0.0)
        slots = [[drawn_up[t] >> 2] if t in drawn_up else
                 (list(range(13)) if ranks[t] == 13 else [ranks[t]]) for t in range(d)]
        draws = np.asarray(list(product(*slots)), dtype=np.int64)
        prior = np.prod([n[draws[:, t]] if ranks[t] == 13 and t not in drawn_up
                         else np.ones(len(draws)) for t in range(d)], axis=0)
        rows = np.repeat(kept >> 2 << 2, len(draws), axis=0)
        got = np.tile(4 * draws, (len(kept), 1))
        lik = ryoseen._expose_lik(FAST, expose.opponents[m], rows,
                                  [got[:, t] for t in range(d)], TREMBLE)
        wts = np.repeat(g, len(draws)) * np.tile(prior, len(kept))
        return float((lik * wts).sum() / wts.sum())

    assert _table_entries_checked(seen, base[m], logs, chance, 13,
                                  ([0, 13], [9, 13], [13, 4], [13, 13], [8, 0])) >= 20
    assert np.abs(np.exp(logs) - np.exp(plain)).max() > 0.01


@pytest.mark.parametrize(("players", "hand"), [(6, HAND), (5, 31042)])
def test_play_looks_ahead_at_5_and_6_players(monkeypatch: pytest.MonkeyPatch, players: int,
                                             hand: int) -> None:
    """Play's batches after the wild card look ahead at 6 players (branch s71-draw) and
    at 5 (branch s72-ahead): the candidates' factors are asked for and some are not 1."""
    seen = ryo_seen(players, "after the wild card", hand)
    real = ryoseen._ahead_logs
    weighed = [0]

    def spy(ahead: Any, val: Any) -> Any:
        out = real(ahead, val)
        weighed[0] += int((out != 0).sum())
        return out
    monkeypatch.setattr(ryoseen, "_ahead_logs", spy)
    worlds = round(ryoseen.PLACE_WORLDS * 0.25)
    with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.25):
        ryoseen.ryo_seen_look(seen, samples=worlds, seed=1)
    assert weighed[0] > 100


@pytest.mark.skipif(not compiled.ENABLED, reason="the label steps are compiled only")
def test_held_labels_stay_as_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The label steps between reads leave the labels a look-ahead weighs (named, and
    drawn by an opponent not read yet) as named, so their factors stay right; others
    still move."""
    compiled.wait()
    seen = ryo_seen(6, "after the wild card", HAND)
    monkeypatch.setattr(ryoseen, "LOOK_AHEAD", frozenset({5}))
    real = ryoseen._label_steps_compiled
    moved = [0, 0]

    def spy(seen_: Any, order: Any, named: Any, *args: Any, **kw: Any) -> Any:
        hold = kw["hold"]
        before = named.copy()
        out = real(seen_, order, named, *args, **kw)
        moved[0] += int((named != before)[hold].sum())
        moved[1] += int((named != before)[~hold].sum())
        return out
    monkeypatch.setattr(ryoseen, "_label_steps_compiled", spy)
    worlds = round(ryoseen.PLACE_WORLDS * 0.25)
    with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.25):
        ryoseen.ryo_seen_look(seen, samples=worlds, seed=1)
    assert moved[0] == 0
    assert moved[1] > 100


@pytest.mark.skipif(not compiled.ENABLED, reason="compares the compiled pass with numpy's")
def test_compiled_look_ahead_is_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`compiled.ahead_of` and :func:`compiled.ahead_gain` give the numpy path's
    drawers, strides, keys, candidates' gains and put-off factors, on layouts of hand
    31157 with some of each read's discards named and some not."""
    compiled.wait()
    seen = ryo_seen(6, "after the wild card", HAND)
    expose = ryoseen._ExposeTable(seen, FAST, TREMBLE)
    base, logs = ryoseen._ahead_table(seen, expose)
    gen = np.random.default_rng(3)
    order, named, origin, _, _ = ryoseen._layout(seen, 500, gen, None)
    unseen = _unseen(seen)
    seen_any = 0
    for j in range(len(seen.opponents)):
        named_j = named.copy()
        late = (named_j < 0) & (gen.random(named_j.shape) < 0.3)  # (named by other reads)
        named_j[late] = gen.choice(unseen, int(late.sum()))
        done = set(range(j)) if j % 2 else {j + 1} - {len(seen.opponents)}
        got = ryoseen._ahead_of(seen, j, order, named_j, origin, done, base, logs)
        with monkeypatch.context() as m:
            m.setattr(compiled, "use", lambda: False)
            want = ryoseen._ahead_of(seen, j, order, named_j, origin, done, base, logs)
        assert (got is None) == (want is None)
        if got is None or want is None:
            continue
        seen_any += 1
        on = got[0] >= 0
        assert (got[0] == want[0]).all() and (got[1][on] == want[1][on]).all()
        for m_ in set(want[0][on].tolist()):
            rows = (want[0] == m_).any(axis=1)
            assert (got[2][rows, m_] == want[2][rows, m_]).all()
        val = gen.choice(unseen, (500, 16, 5)).astype(np.int32)
        gains = ryoseen._ahead_logs(got, val)
        later = np.zeros((500, len(seen.opponents)))
        ryoseen._put_off(later, got, val[:, 0].astype(np.int64))
        with monkeypatch.context() as m:
            m.setattr(compiled, "use", lambda: False)
            np.testing.assert_allclose(gains, ryoseen._ahead_logs(want, val), rtol=1e-12,
                                       atol=1e-12)
            later_np = np.zeros_like(later)
            ryoseen._put_off(later_np, want, val[:, 0].astype(np.int64))
        np.testing.assert_allclose(later, later_np, rtol=1e-12, atol=1e-12)
        assert np.abs(gains).max() > 1
    assert seen_any >= 3
