"""Roll Your Own's kernels made cheaper in branch s72-speed (issue 33): each compiled
form against the numpy or Python form it replaces, value for value."""

from __future__ import annotations

import numpy as np
import pytest

from rollem.odds import compiled, ryoseen
from ryo_views import ryo_seen

pytestmark = pytest.mark.skipif(not compiled.ENABLED, reason="compares the compiled pass")

HAND = 31157  # the widest of the 6-player hands (s70-wide): seat 5's draws are others' discards


def test_held_labels_worked_by_hand() -> None:
    """Labels drawn at the places given and named are held; a label drawn elsewhere,
    an unnamed one, and a place holding a seen card (below 52) are not."""
    assert compiled.wait(300)
    order = np.asarray([[52, 3, 55, 57],    # place 0 draws label 0, place 2 label 3
                        [56, 53, 10, 52]])  # place 0 label 4, place 2 a seen card
    named = np.asarray([[7, -1, 9, 11, 12, -1],
                        [-1, -1, -1, -1, 20, 21]])
    got = compiled.held_labels(order, named, np.asarray([0, 2]))
    assert got.tolist() == [[True, False, False, True, False, False],
                            [False, False, False, False, True, False]]
    assert not compiled.held_labels(order, named, np.zeros(0, dtype=np.int64)).any()


def test_held_labels_are_the_numpy_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ryoseen._held`` compiled (:func:`compiled.held_labels`) is its numpy form on
    layouts of 31157, some labels named and some not, for every set of opponents read."""
    assert compiled.wait(300)
    seen = ryo_seen(6, "after the wild card", HAND)
    gen = np.random.default_rng(11)
    order, named, _, _, _ = ryoseen._layout(seen, 400, gen, None)
    m = len(seen.opponents)
    held = 0
    for trial in range(8):
        named_t = named.copy()
        off = gen.random(named_t.shape) < 0.4
        named_t[off] = -1
        named_t[~off & (named_t < 0)] = 17
        done = {x for x in range(m) if gen.random() < trial / 8}
        got = ryoseen._held(seen, order, named_t, done)
        with monkeypatch.context() as mp:
            mp.setattr(compiled, "use", lambda: False)
            want = ryoseen._held(seen, order, named_t, done)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert (got == want).all()
        held += int(want.sum())
    assert held > 100


def test_row_cards_are_numpys_listing() -> None:
    """:func:`compiled.row_cards` lists each row's cards in card order as int8, as
    ``np.nonzero(avail)[1].reshape(N, size)`` does; ``None`` where a row has more or
    fewer than the first."""
    assert compiled.wait(300)
    rng = np.random.default_rng(4)
    for size in (1, 7, 29, 52):
        avail = np.zeros((300, 52), dtype=bool)
        for r in range(300):
            avail[r, rng.choice(52, size, replace=False)] = True
        got = compiled.row_cards(avail)
        assert got is not None and got.dtype == np.int8 and got.flags.c_contiguous
        assert (got == np.nonzero(avail)[1].reshape(300, size)).all()
        uneven = avail.copy()
        uneven[150, np.flatnonzero(~uneven[150])[:1]] = True
        if size < 52:
            assert compiled.row_cards(uneven) is None
    assert compiled.row_cards(np.eye(52, dtype=bool)[[3, 0, 51]]).tolist() == [[3], [0], [51]]


def test_pick_lists_the_same_cards_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """``look521._pick`` with the rows' cards listed compiled draws the same cards
    from the same numbers as with numpy's listing, rows of equal and unequal sizes,
    few and many cards a row, with ``reps``."""
    from rollem.odds.look521 import _pick

    assert compiled.wait(300)
    rng = np.random.default_rng(9)
    avail = rng.random((400, 52)) < 0.6
    even = np.zeros((400, 52), dtype=bool)
    for r in range(400):
        even[r, rng.choice(52, 30, replace=False)] = True
    for rows, m, reps in ((avail, 3, 1), (even, 3, 1), (even, 12, 1), (even, 2, 4)):
        got = _pick(np.random.default_rng(1), rows, m, reps=reps)
        with monkeypatch.context() as mp:
            mp.setattr(compiled, "use", lambda: False)
            want = _pick(np.random.default_rng(1), rows, m, reps=reps)
        assert got.dtype == want.dtype and (got == want).all()


def test_steer_guides_by_origin_are_the_masks_ones() -> None:
    """``ryoseen._Steer``'s guide of each world and opponent (read from a table by
    origin) is the one the masks by origin gave: the guide's id of that origin, -1
    where it has none; on layouts of 31157 with the pilot's guides."""
    assert compiled.wait(300)
    seen = ryo_seen(6, "after the wild card", HAND)
    gen = np.random.default_rng(2)
    unseen = np.asarray(sorted(set(range(52)) - ryoseen._seen_cards(seen)), dtype=np.int64)
    guides: dict[tuple[int, tuple[int, ...]], tuple[np.ndarray, np.ndarray]] = {}
    from rollem.odds.look521 import TREMBLE
    from rollem.odds.policy import FAST

    ryoseen._worlds(seen, 200, unseen, FAST, TREMBLE, gen, guides=guides)
    _, _, origin, _, _ = ryoseen._layout(seen, 500, gen, None)
    steer = ryoseen._Steer(seen, origin, guides, 500)
    want = np.full((500, len(seen.opponents)), -1, dtype=np.int64)
    for (j, combo), g in steer.ids.items():
        want[origin[:, j] == steer.combos[j].index(combo), j] = g
    assert (steer.gid == want).all() and (want >= 0).sum() > 500
    assert len({int(g) for g in want.reshape(-1)}) > 5
