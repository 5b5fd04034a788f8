"""Roll Your Own at 6 players after the wild card: the Metropolis and Gibbs steps on the
partial worlds between opponents' reads (issue 33, branch s69-partial; the label steps
in play since s70-step, ``ryoseen.PARTIAL_STEPS`` empty). Each leaves the partial
worlds' target as it was: checked here against that target worked out from scratch."""

from __future__ import annotations

import copy
from itertools import combinations
from typing import Any

import numpy as np
import pytest

from rollem.odds import compiled, ryoseen
from ryo_views import ryo_seen

HAND = 31081  # one of the 8 wide hands (s67-six)


def _vals_of(seen: ryoseen.SeenPool, x: int, order: Any, named: Any) -> Any:
    """Opponent ``x``'s discards and draws per world, from the names and the order."""
    opp = seen.opponents[x]
    item = order[:, opp.draws]
    drawn = np.where(item >= 52, np.take_along_axis(named, np.maximum(item - 52, 0), axis=1),
                     item)
    return np.concatenate([named[:, 3 * x:3 * x + 3], drawn], axis=1)


def _chance(policy: Any, tremble: float, expose: Any, x: int, kept: Any, val: Any) -> Any:
    """The policy's chance of opponent ``x``'s keep and exposes per row."""
    return ryoseen._keep_lik(policy, kept, val[:, :3], tremble) * expose.lik(
        x, np.concatenate([kept, val[:, 3:]], axis=1))


def _run(monkeypatch: pytest.MonkeyPatch, name: str, spy: Any, players: int = 6,
         round_name: str = "after the wild card", hand: int = HAND, **knobs: Any) -> None:
    """Two quarter batches of ``hand`` with the knobs set (the partial steps none
    but those), ``ryoseen.name`` spied."""
    monkeypatch.setattr(ryoseen, "PARTIAL_LABELS", {})
    monkeypatch.setattr(ryoseen, "PARTIAL_THIRD", {})
    monkeypatch.setattr(ryoseen, "PARTIAL_STEPS", {})
    monkeypatch.setattr(ryoseen, "LOOK_AHEAD", frozenset())  # (its labels held: s71-draw)
    for key, value in knobs.items():
        monkeypatch.setattr(ryoseen, key, value)
    monkeypatch.setattr(ryoseen, name, spy)
    seen = ryo_seen(players, round_name, hand)
    worlds = round(ryoseen.PLACE_WORLDS * 0.25)
    with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.25):
        ryoseen.ryo_seen_look(seen, samples=worlds, seed=1)
        ryoseen.ryo_seen_look(seen, samples=worlds, seed=1000)


@pytest.mark.parametrize("players,round_name,hand,knob", [
    (6, "after the wild card", HAND, "PARTIAL_LABELS"),
    (6, "third card up", 31004, "PARTIAL_THIRD"),
    (5, "third card up", 31004, "PARTIAL_THIRD")])
def test_label_gibbs_draws_from_every_read_opponents_chance(
        monkeypatch: pytest.MonkeyPatch, players: int, round_name: str, hand: int,
        knob: str) -> None:
    """Each label step's chances per candidate card are, world by world, the product
    of every read opponent's policy chance with the label named that card (up to a
    constant a world), worked out from the names and the pool's order alone; after the
    step each read opponent's discards and draws still follow the names, and the cards
    left unnamed are the unseen ones no name or read kept card holds. After the wild
    card, and in the third card up round before it (``PARTIAL_THIRD``, branch
    s70-third: the wild card not yet turned is one more unnamed card)."""
    seen = ryo_seen(players, round_name, hand)
    assert ryoseen.wild_view(seen) == (seen.wild is not None)
    real = ryoseen._label_gibbs
    spread: list[float] = []
    calls = [0]

    def spy(seen_: Any, order: Any, named: Any, avail: Any, is_unseen: Any, vals: Any,
            kept: Any, policy: Any, tremble: float, gen: Any, expose: Any,
            probe: Any = None) -> Any:
        calls[0] += 1
        before = named.copy()
        got: list[Any] = []
        out = real(seen_, order, named, avail, is_unseen, vals, kept, policy, tremble, gen,
                   expose, probe=got)
        rows = np.arange(len(avail))
        used = np.zeros_like(avail)
        for c in range(named.shape[1]):
            ok = named[:, c] >= 0
            used[rows[ok], named[ok, c]] = True
        for x in vals:
            assert (_vals_of(seen, x, order, named) == vals[x]).all()
            used[rows[:, None], kept[:, x]] = True
        assert (avail == (is_unseen[None, :] & ~used)).all()
        live, lab, w_i, c_i, lik = got[0]
        at = live[w_i]
        nm = before[at].copy()
        nm[np.arange(len(at)), lab[w_i]] = c_i
        full = np.ones(len(at))
        for x in vals:
            full *= _chance(policy, tremble, expose, x, kept[at, x],
                            _vals_of(seen, x, order[at], nm))
        ratio = full / lik
        for w in np.unique(w_i)[:300]:
            r = ratio[w_i == w]
            spread.append(float(np.ptp(r) / np.abs(r).max()))
        return out

    monkeypatch.setattr(compiled, "ENABLED", False)  # (the numpy step: the compiled one below)
    _run(monkeypatch, "_label_gibbs", spy, players, round_name, hand,
         **{knob: {players - 1: 1}, "PARTIAL_NUMPY": True})
    assert calls[0] == 2 * (players - 2)  # before the 2nd to last reads, two batches
    assert len(spread) > 1000
    assert max(spread) < 1e-9


def test_hidden_step_keeps_its_opponents_conditional_law(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A partial world from a run (an opponent with two hidden kept cards), copied
    4,000 times and stepped 60 times by :func:`ryoseen._partial_step`: the hidden sets
    are spread as the opponent's policy chance over every set of its hidden cards and
    the cards left unnamed (total variation within the sampling noise's, a chi-square
    on the sets with 5 or more expected far from a rejection)."""
    seen = ryo_seen(6, "after the wild card", HAND)
    real = ryoseen._partial_step
    cap: list[Any] = []

    def spy(seen_: Any, i: int, kept: Any, val: Any, avail: Any, origin: Any, policy: Any,
            tremble: float, gen: Any, expose: Any, tables: Any) -> Any:
        two = np.flatnonzero(tables[0][i][origin[:, i]] == 2)
        if not cap and len(two):
            w = two[0]
            cap.append((*copy.deepcopy((i, kept[w], val[w], avail[w], origin[w], tremble)),
                        policy, expose, tables))
        return real(seen_, i, kept, val, avail, origin, policy, tremble, gen, expose, tables)

    _run(monkeypatch, "_partial_step", spy, PARTIAL_STEPS={5: 1})
    i, kept0, val, avail0, origin0, tremble, policy, expose, tables = cap[0]
    pool = sorted(set(np.flatnonzero(avail0).tolist()) | set(kept0[1:].tolist()))
    sets = np.asarray(list(combinations(pool, 2)), dtype=np.int64)
    rows = np.concatenate([np.full((len(sets), 1), kept0[0]), sets], axis=1)
    pi = _chance(policy, tremble, expose, i, rows, np.broadcast_to(val, (len(sets), len(val))))
    pi = pi / pi.sum()
    n = 4000
    kept = np.tile(kept0, (n, 1))
    avail = np.tile(avail0, (n, 1))
    origin = np.tile(origin0, (n, 1))
    vals = np.tile(val, (n, 1))
    gen = np.random.default_rng(5)
    for _ in range(60):
        real(seen, i, kept, vals, avail, origin, policy, tremble, gen, expose, tables)
    assert (avail.sum(axis=1) == avail0.sum()).all()
    assert not avail[np.arange(n)[:, None], kept].any()
    index = {tuple(s): t for t, s in enumerate(sets.tolist())}
    got = np.bincount([index[tuple(sorted(r))] for r in kept[:, 1:].tolist()],
                      minlength=len(sets)) / n
    noise = [0.5 * np.abs(np.random.default_rng(s).multinomial(n, pi) / n - pi).sum()
             for s in range(20)]
    assert 0.5 * np.abs(got - pi).sum() < np.mean(noise) + 4 * np.std(noise)
    big = pi * n >= 5
    chi = float((((got - pi) * n)[big] ** 2 / (pi * n)[big]).sum())
    assert chi < big.sum() - 1 + 5 * np.sqrt(2 * (big.sum() - 1))


def test_label_steps_in_play_are_the_live_metropolis_ones() -> None:
    """In play the label steps are made after the wild card at 5 and 6 players, 32
    Metropolis steps a read on the live labels, compiled only (branch s70-step: the
    interval × 0.84-0.87 at 1 s); the guided hidden steps are not (each batch's CPU went
    up more than its variance came down; docs/dev/odds-precision.md, s69-partial)."""
    assert not ryoseen.PARTIAL_STEPS
    assert ryoseen.PARTIAL_LABELS == {5: 32, 4: 32}
    assert not ryoseen.PARTIAL_THIRD  # (none before the wild card: × 1.00-1.07; s70-third)
    assert ryoseen.PARTIAL_METROPOLIS and ryoseen.PARTIAL_LIVE and not ryoseen.PARTIAL_NUMPY


class _Fixed:
    """A generator whose ``random`` gives the arrays it was made with, in order."""

    def __init__(self, draws: list[Any]) -> None:
        self.draws = draws

    def random(self, shape: Any) -> Any:
        out = self.draws.pop(0)
        assert out.shape == (shape if isinstance(shape, tuple) else (shape,))
        return out


@pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")
def test_compiled_label_steps_make_the_numpy_steps_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`compiled.label_steps` (branch s69-label) given the labels and uniforms
    :func:`ryoseen._label_gibbs` drew, from the same partial worlds (captured in a run
    before the 2nd to 5th reads), names the same cards: the same names, unnamed cards
    and read opponents' discards and draws, world by world; so the same law (and
    several steps in one call are steps of that law one after the other)."""
    assert compiled.wait(300)
    seen = ryo_seen(6, "after the wild card", HAND)
    real = ryoseen._label_steps
    cap: list[Any] = []

    def spy(seen_: Any, order: Any, named: Any, avail: Any, is_unseen: Any, vals: Any,
            kept: Any, policy: Any, tremble: float, gen: Any, expose: Any, steps: int) -> None:
        cap.append((copy.deepcopy((order, named, avail, is_unseen, vals, kept)), policy,
                    tremble, expose))
        real(seen_, order, named, avail, is_unseen, vals, kept, policy, tremble, gen, expose,
             steps)

    _run(monkeypatch, "_label_steps", spy, PARTIAL_LABELS={5: 2}, PARTIAL_LIVE=False,
         PARTIAL_METROPOLIS=False)
    assert len(cap) == 8
    moved = 0
    for t, ((order, named, avail, is_unseen, vals, kept), policy, tremble, expose) in (
            enumerate(cap)):
        state = copy.deepcopy((named, avail, vals))
        ryoseen._label_gibbs(seen, order, *state[:2], is_unseen, state[2], kept, policy,
                             tremble, np.random.default_rng(t), expose)
        k = len(order)
        gen = np.random.default_rng(t)  # (its labels, then a uniform a world stepped)
        lab = (gen.random(k) * 3 * len(seen.opponents)).astype(np.int64)
        card = named[np.arange(k), lab]
        live = np.flatnonzero((card >= 0) & is_unseen[np.maximum(card, 0)])
        u = np.zeros((1, k))
        u[0, live] = gen.random(len(live))
        a = copy.deepcopy((named, avail, vals))
        fixed = _Fixed([(lab[None, :] + 0.5) / (3 * len(seen.opponents)), u])
        ryoseen._label_steps_compiled(seen, order, a[0], a[1], is_unseen, a[2], kept, tremble,
                                      fixed, expose, 1)  # type: ignore[arg-type]
        assert (a[0] == state[0]).all() and (a[1] == state[1]).all()
        for x in vals:
            assert (a[2][x] == state[2][x]).all()
        moved += int((state[0] != named).any(axis=1).sum())
    assert moved > 1000


@pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")
def test_compiled_metropolis_label_steps_keep_the_conditional_law(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Metropolis form of :func:`compiled.label_steps` (``ryoseen.PARTIAL_METROPOLIS``,
    branch s69-label): one partial world from a run copied 20,000 times, one label a read
    named stepped 40 times: its cards are spread as the Gibbs step's chances (the numpy
    :func:`ryoseen._label_gibbs`'s, from the same world; total variation within the
    sampling noise's, a chi-square far from a rejection)."""
    assert compiled.wait(300)
    seen = ryo_seen(6, "after the wild card", HAND)
    m = len(seen.opponents)
    real = ryoseen._label_steps
    cap: list[Any] = []

    def spy(seen_: Any, order: Any, named: Any, avail: Any, is_unseen: Any, vals: Any,
            kept: Any, policy: Any, tremble: float, gen: Any, expose: Any, steps: int) -> None:
        if len(vals) >= 3 and not cap:
            cap.append((copy.deepcopy((order, named, avail, is_unseen, vals, kept)), policy,
                        tremble, expose))
        real(seen_, order, named, avail, is_unseen, vals, kept, policy, tremble, gen, expose,
             steps)

    _run(monkeypatch, "_label_steps", spy, PARTIAL_LABELS={5: 1}, PARTIAL_LIVE=False)
    (order, named, avail, is_unseen, vals, kept), policy, tremble, expose = cap[0]
    best = None  # the world and label whose chances are spread the most evenly
    for w in range(0, 200):
        for lab in range(3 * m):
            c = named[w, lab]
            if c < 0 or not is_unseen[c]:
                continue
            got: list[Any] = []
            one = copy.deepcopy((named[w:w + 1], avail[w:w + 1],
                                 {x: v[w:w + 1] for x, v in vals.items()}))
            ryoseen._label_gibbs(seen, order[w:w + 1], one[0], one[1], is_unseen, one[2],
                                 kept[w:w + 1], policy, tremble,
                                 _Fixed([np.asarray([(lab + 0.5) / (3 * m)]),  # type: ignore
                                         np.asarray([0.5])]), expose, probe=got)
            _, _, _, c_i, lik = got[0]
            p = lik / lik.sum()
            eff = 1.0 / (p * p).sum()
            if best is None or eff > best[0]:
                best = (eff, w, lab, c_i, p)
    assert best is not None and best[0] > 3
    _, w, lab, c_i, p = best
    n, steps = 20000, 40
    state = (np.tile(named[w], (n, 1)), np.tile(avail[w], (n, 1)),
             {x: np.tile(v[w], (n, 1)) for x, v in vals.items()})
    gen = np.random.default_rng(3)
    monkeypatch.setattr(ryoseen, "PARTIAL_METROPOLIS", True)
    ryoseen._label_steps_compiled(
        seen, np.tile(order[w], (n, 1)), state[0], state[1], is_unseen, state[2],
        np.tile(kept[w], (n, 1, 1)), tremble,
        _Fixed([np.full((steps, n), (lab + 0.5) / (3 * m)), gen.random((steps, n)),  # type: ignore
                gen.random((steps, n))]), expose, steps)
    index = {int(c): i for i, c in enumerate(c_i)}
    freq = np.bincount([index[int(c)] for c in state[0][:, lab]], minlength=len(c_i)) / n
    noise = [0.5 * np.abs(np.random.default_rng(s).multinomial(n, p) / n - p).sum()
             for s in range(20)]
    assert 0.5 * np.abs(freq - p).sum() < np.mean(noise) + 4 * np.std(noise)
    big = p * n >= 5
    chi = float((((freq - p) * n)[big] ** 2 / (p * n)[big]).sum())
    assert chi < big.sum() - 1 + 5 * np.sqrt(2 * (big.sum() - 1))
    rows = np.arange(n)
    for x in vals:  # the read opponents' discards and draws follow the names
        assert (_vals_of(seen, x, np.tile(order[w], (n, 1)), state[0]) == state[2][x]).all()
    assert not state[1][rows, state[0][:, lab]].any()


@pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")
@pytest.mark.parametrize("metropolis", [True, False])
def test_live_label_steps_make_the_scans_moves(monkeypatch: pytest.MonkeyPatch,
                                               metropolis: bool) -> None:
    """:func:`compiled.label_steps_live` (``ryoseen.PARTIAL_LIVE``, branch s70-step), from
    the partial worlds captured in a run before the 2nd to 5th reads, makes
    :func:`compiled.label_steps`' moves when that is given the live label each of its
    steps drew and the same uniforms (the other steps given a label no read named, which
    leave a world as it was): the same names, unnamed cards and read opponents' discards
    and draws, world by world, Metropolis and Gibbs; and ``ceil(steps × live / 3 m)``
    steps a world."""
    assert compiled.wait(300)
    seen = ryo_seen(6, "after the wild card", HAND)
    m = len(seen.opponents)
    real = ryoseen._label_steps
    cap: list[Any] = []

    def spy(seen_: Any, order: Any, named: Any, avail: Any, is_unseen: Any, vals: Any,
            kept: Any, policy: Any, tremble: float, gen: Any, expose: Any, steps: int) -> None:
        cap.append((copy.deepcopy((order, named, avail, is_unseen, vals, kept)), tremble,
                    expose))
        real(seen_, order, named, avail, is_unseen, vals, kept, policy, tremble, gen, expose,
             steps)

    _run(monkeypatch, "_label_steps", spy, PARTIAL_LABELS={5: 2})
    assert len(cap) == 8
    monkeypatch.setattr(ryoseen, "PARTIAL_METROPOLIS", metropolis)
    steps = 32
    moved = 0
    for t, ((order, named, avail, is_unseen, vals, kept), tremble, expose) in enumerate(cap):
        k = len(order)
        live = (named >= 0) & is_unseen[np.maximum(named, 0)]
        n_live = live.sum(axis=1)
        tries = (steps * n_live + 3 * m - 1) // (3 * m)
        u = np.random.default_rng(t).random(2 * int(tries.sum()))
        monkeypatch.setattr(ryoseen, "PARTIAL_LIVE", True)
        a = copy.deepcopy((named, avail, vals))
        ryoseen._label_steps_compiled(seen, order, a[0], a[1], is_unseen, a[2], kept, tremble,
                                      _Fixed([u]), expose, steps)  # type: ignore[arg-type]
        lab = np.zeros((steps, k), dtype=np.int64)  # the scan's: a dead label, else the pick
        uu, u2 = np.full((steps, k), 0.5), np.full((steps, k), 0.5)
        at = 0
        for w in range(k):
            labs = np.flatnonzero(live[w])
            dead = np.flatnonzero(~live[w])
            assert tries[w] == steps or len(dead)
            lab[:, w] = dead[0] if len(dead) else 0
            for i in range(tries[w]):
                x = u[at] * n_live[w]
                j = min(int(x), n_live[w] - 1)
                lab[i, w], uu[i, w], u2[i, w] = labs[j], x - j, u[at + 1]
                at += 2
        b = copy.deepcopy((named, avail, vals))
        monkeypatch.setattr(ryoseen, "PARTIAL_LIVE", False)
        draws = [(lab + 0.5) / (3 * m), uu] + ([u2] if metropolis else [])
        ryoseen._label_steps_compiled(seen, order, b[0], b[1], is_unseen, b[2], kept, tremble,
                                      _Fixed(draws), expose, steps)  # type: ignore[arg-type]
        assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
        for x in vals:
            assert (a[2][x] == b[2][x]).all()
        moved += int((a[0] != named).any(axis=1).sum())
    assert moved > 1000


def test_numpy_path_makes_no_label_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled kernels (``ROLLEM_NO_NUMBA=1``) the label steps are left out
    (``ryoseen.PARTIAL_NUMPY`` off, branch s70-step: 32 numpy Gibbs steps a read cost a
    batch about × 3); the compiled path makes them."""
    calls = [0]
    real = ryoseen._label_steps

    def spy(*args: Any) -> None:
        calls[0] += 1
        real(*args)

    monkeypatch.setattr(compiled, "ENABLED", False)
    _run(monkeypatch, "_label_steps", spy, PARTIAL_LABELS={5: 32})
    assert calls[0] == 0
    if compiled.AVAILABLE:
        monkeypatch.setattr(compiled, "ENABLED", True)
        assert compiled.wait(300)
        _run(monkeypatch, "_label_steps", spy, PARTIAL_LABELS={5: 2})
        assert calls[0] == 8


@pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")
def test_label_tries_are_the_numpy_counts() -> None:
    """:func:`compiled.label_tries` (branch s71-cheap): per world ``ceil(steps × live /
    labels)`` steps, ``live`` the labels named with an unseen card, and twice the
    running sum before each world, as the numpy form s70-step made them; worked
    by hand on three worlds, then on random ones."""
    assert compiled.wait(300)
    is_unseen = np.zeros(52, dtype=bool)
    is_unseen[[4, 9, 20, 33]] = True
    named = np.asarray([[4, 9, -1, 5, 20, 1],     # live 4, 9, 20: ceil(32 × 3 / 6) = 16
                        [-1, -1, -1, -1, -1, -1],  # none: 0
                        [33, 0, 0, 0, 0, 0]])      # 33: ceil(32 / 6) = 6
    tries, start, total = compiled.label_tries(named, is_unseen, 32, 6)
    assert tries.tolist() == [16, 0, 6] and start.tolist() == [0, 32, 32] and total == 22
    rng = np.random.default_rng(5)
    for steps, labels in ((32, 15), (7, 12), (1, 15)):
        named = rng.integers(-1, 52, size=(500, labels))
        is_unseen = rng.random(52) < 0.4
        live = (named >= 0) & is_unseen[np.maximum(named, 0)]
        want = (steps * live.sum(axis=1) + labels - 1) // labels
        tries, start, total = compiled.label_tries(named, is_unseen, steps, labels)
        assert (tries == want).all() and total == want.sum()
        assert (start == 2 * np.concatenate([[0], np.cumsum(want)[:-1]])).all()


@pytest.mark.skipif(not compiled.AVAILABLE, reason="numba not installed")
def test_live_label_steps_cut_by_the_keep_are_the_same_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The live Metropolis label steps with ``bounded`` (branch s71-cheap: a proposal
    whose keep chance times the exposes' chances so far is at most ``u`` times the
    label's chance now is refused before the exposes' table is read, exact while every
    chance tabled is at most 1) make the same moves, world by world, as without it on
    the partial worlds captured before the 2nd to 5th reads; the view's table is
    bounded (its highest chance under 1, so play takes the cut)."""
    assert compiled.wait(300)
    cap: list[Any] = []
    real = compiled.label_steps_live

    def spy(*args: Any, **kw: Any) -> Any:
        cap.append(copy.deepcopy((args, kw)))
        return real(*args, **kw)

    monkeypatch.setattr(compiled, "label_steps_live", spy)
    _run(monkeypatch, "_label_steps_compiled", ryoseen._label_steps_compiled,
         PARTIAL_LABELS={5: 32})
    assert len(cap) == 8
    assert all(kw["bounded"] for _, kw in cap)
    moved = 0
    for args, _ in cap:
        got = []
        for bounded in (False, True):
            a = copy.deepcopy(args)
            n_miss, n_moved = real(*a, bounded=bounded)
            got.append((a[0], a[2], a[4], n_miss, n_moved))
        (n0, a0, v0, m0, k0), (n1, a1, v1, m1, k1) = got
        assert (n0 == n1).all() and (a0 == a1).all() and (v0 == v1).all()
        assert (m0, k0) == (m1, k1)
        moved += k1
    assert moved > 5000
