"""The 5-2-1 declare (R-521-8, R-521-9) as a small simultaneous game over the
weighted worlds.

Heads-up, the opponent's declaration is a function of its own hand only:
its hands are grouped by their high and low percentiles (:data:`BUCKETS` x
:data:`BUCKETS` groups), and in each group it declares the side with the
greatest expected share against the seat's current mixed declaration
(its best response, averaged over the worlds of that group). The seat then
answers the opponent's policy, by fictitious play: :data:`ROUNDS` rounds,
the opponent's policy averaged over them, starting from the percentile
model of :func:`rollem.odds.r521.declare_model`. With more opponents the
model stands for each of them. The seat declares its best answer to the
final policy.

The strong bot plays it with no rounds (the model itself): against ``basic``
on 219 recorded heads-up showdowns (seed 7), the four-round game lost 1.08
chips per showdown against declaring the other way from the opponent (the
sure chop), the model alone 0.50; the game's best-responding opponent goes
low with weak highs, which makes a both-ways declare look good on ace-high.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import numpy.typing as npt

from rollem.odds.r521 import SIDES, _reference, declare_model, settle, side_shares

__all__ = ["BUCKETS", "ROUNDS", "answer_sides", "declare_game"]

BUCKETS = 5
ROUNDS = 4

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def answer_sides(high: Ints, low: Ints, *, rule: str = "carry",
                 fixed: Collection[int] = ()) -> Ints:
    """Multiway (three or more hands, R-521-8, R-521-9): the declarations per world
    when every opponent (columns 1..) declares the side with its greatest share
    in that world against the others declaring by the percentile model
    (:func:`rollem.odds.r521.declare_model`; the model's side on equal shares).
    By the declare each opponent sees four of every other hand's five cards
    (R-521-7), so it knows nearly what the world holds: the ``basic`` level
    declares its best expected share, and the league's ``declarer`` the side
    nobody else goes for. Facing a last-round bet 1 vs 5 (137 decisions), the
    read equity with the percentile model's declares came out 0.041 above
    the share the real cards and declares gave, -0.006 with these; but in
    play it cost (1 vs 5, the same 360 deals against ``basic``, ``bluffer``,
    ``declarer``: -38.5 [-75.6, -1.4] BB/100), so the strong bot leaves it
    off (``StrongBot.answer_declares``).

    Args:
        high, low: hand values ``(S, n)``, column 0 the seat (left at the model).
        rule: R-521-9 ``failed_both_rule``.
        fixed: columns already declared (kept as in the model's array: the
            caller sets them afterwards).

    Returns:
        ``(S, n)`` sides: 0 high, 1 low, 2 both.
    """
    model = declare_model(high, low)
    s, n = high.shape
    out = model.copy()
    for j in range(1, n):
        if j in fixed:
            continue
        order = [j, *[c for c in range(n) if c != j]]
        hi, lo = high[:, order], low[:, order]
        sides = model[:, order].copy()
        gain = np.zeros((s, 3))
        for k in range(3):
            sides[:, 0] = k
            gain[:, k] = settle(hi, lo, sides, rule)[0]
        gain[np.arange(s), model[:, j]] += 1e-9
        out[:, j] = np.argmax(gain, axis=1)
    return out


def _shares_for(high: Ints, low: Ints, mine: int, theirs: Ints | int, who: int,
                rule: str) -> Floats:
    """Share of column ``who`` (0: the seat, 1: the opponent) per world when the seat
    declares ``mine`` and the opponent ``theirs``."""
    sides = np.zeros(high.shape, dtype=np.int64)
    sides[:, 0] = mine
    sides[:, 1] = theirs
    if who == 0:
        return side_shares(high, low, sides, failed_both_rule=rule)
    return side_shares(high[:, ::-1], low[:, ::-1], sides[:, ::-1], failed_both_rule=rule)


def declare_game(high: Ints, low: Ints, weights: Floats, *, rule: str = "carry",
                 rounds: int = ROUNDS, answer: bool = False) -> dict[str, float]:
    """The seat's expected share for each declaration against the opponents'
    declare policy found by the game (see the module doc).

    Args:
        high, low: hand values per world, shape ``(S, n)``, column 0 the seat.
        weights: world weights ``(S,)`` (the reads), not all zero.
        rule: R-521-9 ``failed_both_rule``.
        rounds: rounds of fictitious play (0: the opponents declare by the
            percentile model, :func:`rollem.odds.r521.declare_model`).
        answer: three or more hands: the opponents declare by
            :func:`answer_sides` instead of the model.

    Returns:
        ``{"high": share, "low": share, "both": share}``.
    """
    w = weights / weights.sum()
    s, n = high.shape
    model = answer_sides(high, low, rule=rule) if answer and n != 2 \
        else declare_model(high, low)
    if n != 2:
        out = {}
        for k, name in enumerate(SIDES):
            model[:, 0] = k
            out[name] = float((side_shares(high, low, model, failed_both_rule=rule) * w).sum())
        return out
    ref_hi, ref_lo = _reference()
    p_hi = np.searchsorted(ref_hi, high[:, 1], side="right") / len(ref_hi)
    p_lo = np.searchsorted(ref_lo, low[:, 1], side="right") / len(ref_lo)
    bucket = (np.minimum(BUCKETS - 1, (p_hi * BUCKETS).astype(int)) * BUCKETS
              + np.minimum(BUCKETS - 1, (p_lo * BUCKETS).astype(int)))
    # mine[m][o]: the seat's share per world; theirs[m][o]: the opponent's
    mine = [[_shares_for(high, low, m, o, 0, rule) for o in range(3)] for m in range(3)]
    # two players: the opponent gets what the seat does not, except when both
    # declare both and fail (the pot carries, R-521-9): computed directly there
    theirs = [[1.0 - mine[m][o] for o in range(3)] for m in range(3)]
    theirs[2][2] = _shares_for(high, low, 2, 2, 1, rule)
    policy = np.zeros((s, 3))
    policy[np.arange(s), model[:, 1]] = 1.0  # the opponent: a mixed side per world
    total = policy.copy()
    for r in range(rounds):
        value = np.asarray([sum((mine[m][o] * policy[:, o]) for o in range(3)) @ w
                            for m in range(3)])
        me = int(np.argmax(value))
        # the opponent answers the seat's side, knowing only its own hand's group
        gain = np.stack([theirs[me][o] for o in range(3)], axis=1) * w[:, None]
        best = np.zeros((s, 3))
        for b in np.unique(bucket):
            rows = bucket == b
            best[rows, int(np.argmax(gain[rows].sum(axis=0)))] = 1.0
        total += best
        policy = total / (r + 2)
    return {name: float(sum((mine[m][o] * policy[:, o]) for o in range(3)) @ w)
            for m, name in enumerate(SIDES)}
