"""5-2-1's look-ahead worlds at many players (issue 33): the opponents'
histories read with few effective worlds lost, and the same distribution."""

from __future__ import annotations

from typing import Any

import numpy as np

from rollem.cards import parse_cards
from rollem.odds.look521 import (
    Seat521,
    State521,
    _max_lik,
    _sample_opponent,
    _sample_worlds,
    r521_look,
)
from rollem.odds.policy import FAST
from rollem.odds.r521 import _reference


def _state(mine: list[int], drew: list[list[int | None]]) -> State521:
    return State521(mine=mine, drew=[None, None], stacked=False, declared=None,
                    opponents=[Seat521(seat=k + 1, up=[], drew=d, stacked=False,
                                       declared=None) for k, d in enumerate(drew)],
                    unseen=[x for x in range(52) if x not in mine], decision="draw1")


SIX = [[None, None], [1, None], [2, None], [0, None], [2, None]]
"""The first draw of ``bench_play_odds``' 6-player hand 30001: seat 0 to
draw, four opponents drew before it (one stood pat: the policy does so
about 2.5% of the time)."""


def _forward_kept(state: Any, gen: np.random.Generator, batch: int,
                  want: int) -> list[list[np.ndarray]]:
    """Both opponents' whole histories drawn forwards (in ``state``'s order),
    ``batch`` at a time, each joint history kept with chance the product of its
    likelihoods (over each one's most), until ``want`` or more are kept: the
    kept hands of each opponent, a list of arrays a batch."""
    kept: list[list[np.ndarray]] = [[], []]
    total = 0
    while total < want:
        avail = np.zeros((batch, 52), dtype=bool)
        avail[:, state.unseen] = True
        hands, keep = [], np.ones(len(avail), dtype=bool)
        for opp in state.opponents:
            hand, lik, used = _sample_opponent(gen, FAST, opp, avail, 1)
            keep &= gen.random(len(avail)) * _max_lik(opp) < lik
            np.put_along_axis(avail, used, False, axis=1)
            hands.append(hand)
        for j in range(2):
            kept[j].append(hands[j][keep])
        total += int(keep.sum())
    return kept


def test_521_six_players_first_draw_keeps_most_worlds_effective() -> None:
    # each opponent read with 4 candidates a world left about 4% of the
    # worlds effective (issue 33: a one-second run some 140 effective worlds)
    mine = [int(x) for x in parse_cards("As Qd 2c 7s Jc")]
    look = r521_look(_state(mine, SIX), samples=1000, seed=1, advice=False)
    assert look.effective >= 0.3 * look.samples, look.effective


def _percentiles(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    from rollem.odds.evaluate import high5, low5
    ref_hi, ref_lo = _reference()
    return (np.searchsorted(ref_hi, high5(hands)) / len(ref_hi),
            np.searchsorted(ref_lo, low5(hands)) / len(ref_lo))


def test_521_opponents_read_first_by_rejection_give_the_joint_posterior() -> None:
    # reference: whole joint histories of both opponents drawn forwards (in
    # the given order) and kept with chance the product of their
    # likelihoods, no weights; against the worlds the look-ahead reads (the
    # one who threw one card, the less likely, drawn first by rejection, the
    # other weighted)
    mine = [int(x) for x in parse_cards("As Qd 2c 7s Jc")]
    state = _state(mine, [[2, None], [1, None]])
    gen = np.random.default_rng(7)
    kept = _forward_kept(state, gen, 10_000, 4000)
    world = _sample_worlds(state, FAST, 10_000, np.random.default_rng(8))
    w = world.weight / world.weight.sum()
    ess = 1 / float((w ** 2).sum())
    for j in range(2):
        ref = _percentiles(np.concatenate(kept[j]))
        got = _percentiles(world.opp_hands[j])
        for r, g in zip(ref, got, strict=True):
            mean = float((w * g).sum())
            se = np.hypot(r.std() / np.sqrt(len(r)), np.sqrt(float((w * (g - mean) ** 2).sum())
                                                             / ess))
            assert abs(r.mean() - mean) < 4.5 * se, (j, r.mean(), mean, se)


def test_521_candidate_cards_are_those_the_row_shuffle_gives() -> None:
    # issue 33: _pick finds where each row's partial shuffle takes its first
    # cards instead of shuffling a copy of every row; the same random
    # numbers must give the same cards (the worlds stay bit-for-bit)
    from rollem.odds.look521 import FEW, _pick, _shuffled

    gen = np.random.default_rng(3)
    avail = gen.random((300, 52)) < 0.7
    avail[:, :10] = True  # at least ten cards to pick from
    one = np.flatnonzero(avail[0])
    same = np.broadcast_to(avail[:1], (300, 52))
    rows = np.nonzero(np.broadcast_to(avail[:1], (60, 52)))[1].reshape(60, -1)
    for m in (1, 5, FEW):
        got = _pick(np.random.default_rng(m), same, m, same=True)
        want = _shuffled(np.random.default_rng(m), np.tile(one.astype(np.int8), (300, 1)), m)
        assert (got == want).all()
        got = _pick(np.random.default_rng(m), same[:60], m, reps=5)
        want = _shuffled(np.random.default_rng(m), np.repeat(rows.astype(np.int8), 5, axis=0), m)
        assert (got == want).all()
        assert (np.sort(got, axis=1)[:, 1:] != np.sort(got, axis=1)[:, :-1]).all()


def test_521_pooled_weight_is_the_chance_of_the_observed_draws() -> None:
    # branch s51-521: an opponent read from a pool shared by every world;
    # a world whose earlier opponents took 11 cards weighs the pool's
    # candidates that miss them by one over the chance of missing them; the
    # mean weight must be the mean likelihood of candidates dealt from the
    # world's own cards (which _sample_opponent's weight estimates)
    from rollem.odds.look521 import _pooled

    mine = [int(x) for x in parse_cards("As Qd 2c 7s Jc")]
    state = _state(mine, [[1, 0]])
    opp = state.opponents[0]
    base = np.zeros(52, dtype=bool)
    base[state.unseen] = True
    avail = np.broadcast_to(base, (2000, 52)).copy()
    avail[:, state.unseen[::4][:11]] = False
    gen = np.random.default_rng(11)
    _, lik, _ = _sample_opponent(gen, FAST, opp, np.broadcast_to(avail[:1], (200_000, 52)), 1,
                                 same=True)
    want, want_se = float(lik.mean()), float(lik.std()) / np.sqrt(len(lik))
    got = []
    for _ in range(4):  # four pools; each world's weight is its pool's estimate
        _, w, used = _pooled(gen, FAST, opp, avail, base, 64 * len(avail))
        assert not (avail[np.arange(len(avail))[:, None], used] == 0).any()  # its cards only
        assert used.shape == (2000, 6) and (np.sort(used, axis=1)[:, 1:] !=
                                            np.sort(used, axis=1)[:, :-1]).all()
        got.append(float(w.mean()))
    # a pool's error: some 64 x 2000 x 0.12 candidates miss the taken cards
    pool_se = float(lik.std()) / np.sqrt(64 * 2000 * 0.12 * 4)
    assert abs(np.mean(got) - want) < 4 * np.hypot(want_se, pool_se), (got, want)
    assert 0.03 < want < 0.08  # the policy throws one card, then stands, some 5% of hands


def test_521_pooled_opponents_give_the_joint_posterior() -> None:
    # branch s51-521: two opponents who drew one card, then none, and two,
    # then none (the 6-player second draw's two rarely explained ones): the
    # first is drawn by rejection, the second from a pool shared by the
    # worlds, checked against the 6 cards the first took. Reference: whole
    # joint histories drawn forwards and kept with chance the product of
    # their likelihoods, no weights
    import rollem.odds.look521 as look

    mine = [int(x) for x in parse_cards("As Qd 2c 7s Jc")]
    state = _state(mine, [[1, 0], [2, 0]])
    state.decision = "draw2"
    gen = np.random.default_rng(5)
    kept = _forward_kept(state, gen, 100_000, 3000)
    calls: list[int] = []
    pooled = look._pooled

    def spy(*args: object) -> object:
        calls.append(1)
        return pooled(*args)  # type: ignore[arg-type]

    look._pooled = spy  # type: ignore[assignment]
    try:
        world = _sample_worlds(state, FAST, 10_000, np.random.default_rng(8))
    finally:
        look._pooled = pooled
    assert calls  # one of them was read from the pool
    w = world.weight / world.weight.sum()
    ess = 1 / float((w ** 2).sum())
    assert ess > 0.6 * len(w), ess  # 64 fresh candidates a world: about 0.75
    for j in range(2):
        ref = _percentiles(np.concatenate(kept[j]))
        got = _percentiles(world.opp_hands[j])
        for r, g in zip(ref, got, strict=True):
            mean = float((w * g).sum())
            se = np.hypot(r.std() / np.sqrt(len(r)), np.sqrt(float((w * (g - mean) ** 2).sum())
                                                             / ess))
            assert abs(r.mean() - mean) < 4.5 * se, (j, r.mean(), mean, se)
    both = np.concatenate([world.opp_hands[0], world.opp_hands[1]], axis=1)
    assert (np.sort(both, axis=1)[:, 1:] != np.sort(both, axis=1)[:, :-1]).all()
