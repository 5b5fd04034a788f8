"""The Metropolis steps of Roll Your Own after the discard as they were before
branch s46-odds (``rollem.odds.ryoseen._move`` on main at 5487924), kept as the
reference the faster steps are checked against: from the same seed they must
walk the same chain (tests/test_odds_lookahead.py)."""

from __future__ import annotations

import numpy as np

from rollem.odds import ryoseen
from rollem.odds.common import Floats, Ints
from rollem.odds.look521 import Bools
from rollem.odds.policy import FastPolicy
from rollem.odds.ryoseen import SeenPool, _expose_table, _keep_lik


def reference_move(seen: SeenPool, kept: Ints, cards: Ints, order: Ints, unseen: Ints,
          policy: FastPolicy, tremble: float, gen: np.random.Generator, moves: int,
          times: int = 1) -> list[tuple[Ints, Ints]]:
    """``moves`` Metropolis steps on each complete world (issue 33): ``kept``
    ``(k, m, 3)`` every opponent's kept cards (up cards kept first),
    ``cards`` ``(k, n)`` the pool in order; ``order`` (:func:`_layout`)
    says where each opponent's discards lie. Returns the ``(kept, cards)``
    of the last ``times`` steps.

    Two kinds of step, in turn (:data:`PLACE_EVERY`; the second only with
    :data:`PLACE_FROM` opponents or more):

    - **cards**: two cards the seat has not seen exchange places wherever
      they are (an opponent's hidden kept card, a discard, a hidden draw,
      the stub), the first among those in the world's slots (dealt, or in
      the pool), the second among all other unseen cards (a symmetric
      proposal: the exchange keeps which slots hold unseen cards); who threw
      a pool card stays with its place, so the thrower's keep is weighed
      anew;
    - **places** (issue 33, fifth pass): two places in the pool exchange
      what lies there, the card and who threw it together: the first among
      the places already drawn, the second among all others, both among
      those whose card the seat has not seen there (not its own draws, the
      turned wild card, an up card an opponent drew). This moves the seat's
      own discards and who threw what a player drew, which the card steps
      never change (drawn once, at the layout, they were shared by every
      copy of a world: the spread left however many card steps were made).
      Only the players drawing either place are weighed anew (their
      exposes; every keep stays).

    Each step keeps everything the seat saw, and every complete world is
    equally likely before the policy is read, so it is accepted with the
    ratio of the policy's chances of every opponent's keep and exposes
    (each part, :func:`_keep_lik` and :func:`_expose_lik`, recomputed only
    for the opponents it reads) and leaves the posterior unchanged; copies
    of one world made by resampling drift apart."""
    k = len(cards)
    m = len(seen.opponents)
    n = cards.shape[1]
    rows = np.arange(k)
    base = 3 * m  # the pool's first slot
    # the world as one row of slots: every opponent's kept cards, then the pool
    state = np.concatenate([kept.reshape(k, 3 * m), cards], axis=1)
    width = state.shape[1]
    flat_state = state.reshape(-1)  # (a view: the steps change ``state`` in place)
    # who threw the card in each pool place (-1: the seat), and each opponent's
    # discards' slots, which the place steps move
    owner = np.where(order >= 52, (order - 52) // 3, -1)
    disc = np.zeros((k, m, 3), dtype=np.int64)
    for j in range(m):
        disc[:, j] = base + np.argmax(order[:, :, None]
                                      == (52 + 3 * j + np.arange(3))[None, None, :], axis=1)
    draws = [base + np.asarray(o.draws, dtype=np.int64) for o in seen.opponents]
    # which opponents' keeps (and exposes) read each slot, as bits; the last
    # column stands for the stub (slot -1), read by nobody
    keep_reads = np.zeros((k, width + 1), dtype=np.int64)
    show_reads = np.zeros((k, width + 1), dtype=np.int64)
    drawer = np.zeros(width + 1, dtype=np.int64)
    for j in range(m):
        keep_reads[:, 3 * j:3 * j + 3] |= 1 << j
        show_reads[:, 3 * j:3 * j + 3] |= 1 << j
        drawer[draws[j]] |= 1 << j
        keep_reads[rows[:, None], disc[:, j]] |= 1 << j
    show_reads |= drawer

    # the slots each opponent's exposes read (its kept three, then its
    # draws): fixed; its exposes' chance tabled by their ranks (:class:`_ExposeTable`)
    show_cols = [np.concatenate([np.arange(3 * j, 3 * j + 3), draws[j]]) for j in range(m)]
    table = _expose_table(seen, policy, tremble)
    three = np.arange(3)

    def keep_many(r: Ints, j: Ints, x: Ints | None = None, y: Ints | None = None) -> Floats:
        """The keep's chance of opponent ``j[i]`` in world ``r[i]`` (cards
        ``x`` and ``y`` exchanged where given): one call for every pair."""
        cols = np.concatenate([3 * j[:, None] + three, disc[r, j]], axis=1)
        h = flat_state[(r * width)[:, None] + cols]
        if x is not None and y is not None:
            h = np.where(h == x[:, None], y[:, None], np.where(h == y[:, None], x[:, None], h))
        return _keep_lik(policy, h[:, :3], h[:, 3:], tremble, six=h)

    # opponents with as many draws read as many slots: their exposes in one call
    widths = sorted({len(c) for c in show_cols})
    cols_by = {w: np.stack([show_cols[j] if len(show_cols[j]) == w else np.zeros(w, np.int64)
                            for j in range(m)]) for w in widths}
    width_of = np.asarray([len(c) for c in show_cols])

    def show_many(r: Ints, j: Ints, x: Ints | None = None, y: Ints | None = None) -> Floats:
        """The exposes' chance of opponent ``j[i]`` in world ``r[i]`` (cards
        ``x`` and ``y`` exchanged where given)."""
        out = np.empty(len(r))
        for w in widths:
            at = np.flatnonzero(width_of[j] == w) if len(widths) > 1 else slice(None)
            h = state[r[at, None], cols_by[w][j[at]]]
            if x is not None and y is not None:
                xa, ya = x[at, None], y[at, None]
                h = np.where(h == xa, ya, np.where(h == ya, xa, h))
            out[at] = table.many(j[at], h)
        return out

    every_pair = np.repeat(rows, m), np.tile(np.arange(m), k)
    lik_keep = keep_many(*every_pair).reshape(k, m)
    lik_show = show_many(*every_pair).reshape(k, m)
    # each opponent's exposes' key in the table (:meth:`_ExposeTable.many`),
    # kept up to date: a step that moves a card of rank ``a`` out of a slot
    # an opponent's exposes read at place ``p``, and one of rank ``b`` in,
    # adds ``(b - a) * 13 ** p`` (issue 33: a lookup instead of reading the
    # slots again; the same keys, so the same chances)
    slot_power = np.zeros((m, width + 1), dtype=np.int64)  # (the stub's column: 0)
    for j in range(m):
        slot_power[j, show_cols[j]] = table.powers[j]
    show_key = np.stack([(state[:, show_cols[j]] >> 2) @ table.powers[j] + table.offset[j]
                         for j in range(m)], axis=1)
    bit = 1 << np.arange(m)
    is_unseen = np.zeros(53, dtype=bool)
    is_unseen[unseen] = True
    # where each unseen card lies (-1: the stub)
    hidden = is_unseen[state]
    r, c = np.nonzero(hidden)
    where = np.full((k, 53), -1, dtype=np.int64)
    where[r, state[r, c]] = c

    def listing(mask: Bools) -> tuple[Ints, Ints, Ints]:
        """Per world the slots where ``mask`` holds, first; how many; and
        each listed slot's index in the list."""
        r, c = np.nonzero(mask)
        out = np.zeros((k, width), dtype=np.int64)
        at = np.zeros((k, width), dtype=np.int64)
        i = (np.cumsum(mask, axis=1) - 1)[r, c]
        out[r, i] = c
        at[r, c] = i
        return out, mask.sum(axis=1), at

    listed, size, index = listing(hidden)
    # the places whose card the seat has not seen there: not its own draws,
    # not the turned wild card, not an opponent's up card
    ups = np.zeros(53, dtype=bool)
    ups[[u for o in seen.opponents for u in o.ups]] = True
    fixed = [p for p, _ in seen.my_draws] + ([seen.drawn] if seen.wild is not None else [])
    free = ~ups[cards]
    free[:, fixed] = False
    drawn = np.zeros(n, dtype=bool)
    drawn[:seen.drawn] = True
    places, n_places, _ = listing(np.concatenate([np.zeros((k, base), dtype=bool), free],
                                                 axis=1))
    firsts, n_firsts, _ = listing(np.concatenate([np.zeros((k, base), dtype=bool),
                                                  free & drawn], axis=1))
    can_place = (n_firsts > 0) & (n_places > 1)
    u = len(unseen)
    every = ryoseen.PLACE_EVERY if ryoseen.takes_places(seen) else 0
    out = []
    for step in range(moves):
        place = every > 0 and step % every == every - 1
        if place:
            s1 = firsts[rows, (gen.random(k) * n_firsts).astype(np.int64)]
            i2 = (gen.random(k) * np.maximum(n_places - 1, 1)).astype(np.int64)
            s2 = places[rows, i2]
            s2 = np.where(s2 == s1, places[rows, np.maximum(n_places - 1, 0)], s2)
            c1, c2 = state[rows, s1], state[rows, s2]
            hit_keep = np.zeros(k, dtype=np.int64)
            hit_show = drawer[s1] | drawer[s2]
            ok_rows = can_place
        else:
            s1 = listed[rows, (gen.random(k) * size).astype(np.int64)]
            c1 = state[rows, s1]
            c2 = unseen[gen.integers(0, u - 1, k)]
            c2 = np.where(c2 == c1, unseen[u - 1], c2)  # any unseen card but c1, alike
            s2 = where[rows, c2]
            hit_keep = keep_reads[rows, s1] | keep_reads[rows, s2]
            hit_show = show_reads[rows, s1] | show_reads[rows, s2]
            ok_rows = size > 0  # (none unseen in the slots: nothing to move)
        # the log of the ratio of the policy's chances, every part the step reads
        log_ratio = np.zeros(k)
        kr, kj = np.nonzero(hit_keep[:, None] & bit)
        if len(kr):
            new_keep = keep_many(kr, kj, c1[kr], c2[kr])
            log_ratio += np.bincount(kr, weights=np.log(new_keep / lik_keep[kr, kj]),
                                     minlength=k)
        sr, sj = np.nonzero(hit_show[:, None] & bit)
        if len(sr):
            gain = (c2[sr] >> 2) - (c1[sr] >> 2)
            new_key = (show_key[sr, sj] + slot_power[sj, s1[sr]] * gain
                       - slot_power[sj, s2[sr]] * gain)
            new_show = table.flat[new_key]
            miss = np.isnan(new_show)
            if miss.any():  # (none where every world fits its origins)
                at = np.flatnonzero(miss)
                new_show[at] = show_many(sr[at], sj[at], c1[sr[at]], c2[sr[at]])
            log_ratio += np.bincount(sr, weights=np.log(new_show / lik_show[sr, sj]),
                                     minlength=k)
        ratio = np.exp(log_ratio)
        accept = (gen.random(k) < ratio) & ok_rows
        ok = np.flatnonzero(accept)
        state[ok, s1[ok]] = c2[ok]
        moved = ok[s2[ok] >= 0]
        state[moved, s2[moved]] = c1[moved]
        if place:
            # who threw each card moves with it; unseen cards change slots
            o1, o2 = owner[ok, s1[ok] - base], owner[ok, s2[ok] - base]
            owner[ok, s1[ok] - base], owner[ok, s2[ok] - base] = o2, o1
            for src, dst, who in ((s1, s2, o1), (s2, s1, o2)):
                mine = who >= 0
                rr, w = ok[mine], who[mine]
                slot = np.argmax(disc[rr, w] == src[rr, None], axis=1)
                disc[rr, w, slot] = dst[rr]
            keep_reads[ok, s1[ok]] = np.where(o2 >= 0, 1 << np.maximum(o2, 0), 0)
            keep_reads[ok, s2[ok]] = np.where(o1 >= 0, 1 << np.maximum(o1, 0), 0)
            u1, u2 = is_unseen[c1[ok]], is_unseen[c2[ok]]
            where[ok[u1], c1[ok][u1]] = s2[ok][u1]
            where[ok[u2], c2[ok][u2]] = s1[ok][u2]
            # a seen card (one of the seat's discards) and an unseen one
            # exchanged: the unseen card's slot is listed instead
            for a, b, ua, ub in ((s1, s2, u1, u2), (s2, s1, u2, u1)):
                sw = ok[ua & ~ub]
                listed[sw, index[sw, a[sw]]] = b[sw]
                index[sw, b[sw]] = index[sw, a[sw]]
        else:
            where[ok, c1[ok]] = s2[ok]
            where[ok, c2[ok]] = s1[ok]
        if len(kr):
            keep = accept[kr]
            lik_keep[kr[keep], kj[keep]] = new_keep[keep]
        if len(sr):
            keep = accept[sr]
            lik_show[sr[keep], sj[keep]] = new_show[keep]
            show_key[sr[keep], sj[keep]] = new_key[keep]
        if step >= moves - times:  # the last
            out.append((state[:, :base].reshape(k, m, 3).copy(), state[:, base:].copy()))
    return out
