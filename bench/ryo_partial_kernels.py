"""A compiled prototype of ``ryoseen``'s partial hidden steps (issue 33, branch
s69-partial): ``_hidden_steps`` (:func:`ryoseen._partial_step`), a numba kernel drawing the same law
from their own random numbers (checked against the numpy step by a two-sample
chi-square of one step from the same worlds; docs/dev/odds-precision.md, s69-partial).
A world whose chances are not tabled yet is left as it is that step (exact: whether
it is depends only on what the step conditions on, or on both ends of a proposal) and
the chances are tabled for the next. Measured for their cost, not shipped:
``install()`` puts them in place of ``ryoseen``'s numpy loops in this process."""
import numba
import numpy as np

from rollem.odds import compiled, ryoseen
from rollem.odds.policy import _keep_table_by_cards

compiled.use()
_keep = numba.njit(compiled._keep_one)


def install():
    """The compiled hidden steps in place of ``ryoseen._hidden_steps`` (the label
    steps' kernel is ``compiled.label_steps``, used by ryoseen itself: branch s69-label)."""
    install_hidden()


@numba.njit(cache=False)
def _hidden_kernel(reads, r1, r2, kept, V, avail, origin, f_tab, gid_tab, tab, cum, start, end,
                   lo, hi, log_g, keep_table, hit_w, floor, show_flat, offsets, powers, nd,
                   miss_x, miss_c):
    k = kept.shape[0]
    n_miss = 0
    moved = 0
    for t in range(r1.shape[0]):
        for ii in range(reads.shape[0]):
            i = reads[ii]
            for w in range(k):
                g = gid_tab[i, origin[w, i]]
                if g < 0:
                    continue
                f = f_tab[i, origin[w, i]]
                uu = lo[g] + r1[t, ii, w] * (hi[g] - lo[g])
                idx = np.searchsorted(cum, uu, side="right")
                if idx < start[g]:
                    idx = start[g]
                if idx > end[g] - 1:
                    idx = end[g] - 1
                a = tab[idx, 0]
                b = tab[idx, 1]
                y = kept[w, i, 2]
                x = kept[w, i, 1] if f == 2 else y
                if not ((avail[w, a] or a == x or a == y)  # noqa: SIM109
                        and (avail[w, b] or b == x or b == y)):  # noqa: SIM109
                    continue
                n1 = a if f == 2 else kept[w, i, 1]
                n2 = b
                if n1 == kept[w, i, 1] and n2 == kept[w, i, 2]:
                    continue
                k0 = kept[w, i, 0]
                old_keep = _keep(keep_table, k0, kept[w, i, 1], kept[w, i, 2], max(V[w, i, 0], 0),
                                 max(V[w, i, 1], 0), max(V[w, i, 2], 0), hit_w, floor)
                new_keep = _keep(keep_table, k0, n1, n2, max(V[w, i, 0], 0),
                                 max(V[w, i, 1], 0), max(V[w, i, 2], 0), hit_w, floor)
                key_d = offsets[i]
                for q in range(nd[i]):
                    key_d += (V[w, i, 3 + q] >> 2) * powers[i, 3 + q]
                key_old = key_d + (k0 >> 2) * powers[i, 0] + (kept[w, i, 1] >> 2) * powers[i, 1] \
                    + (kept[w, i, 2] >> 2) * powers[i, 2]
                key_new = key_d + (k0 >> 2) * powers[i, 0] + (n1 >> 2) * powers[i, 1] \
                    + (n2 >> 2) * powers[i, 2]
                so = show_flat[key_old]
                sn = show_flat[key_new]
                if np.isnan(so) or np.isnan(sn):
                    if n_miss < miss_x.shape[0]:
                        miss_x[n_miss] = i
                        miss_c[n_miss, 0] = k0
                        miss_c[n_miss, 1] = n1
                        miss_c[n_miss, 2] = n2
                        for q in range(nd[i]):
                            miss_c[n_miss, 3 + q] = V[w, i, 3 + q]
                        n_miss += 1
                    continue
                lr = log_g[g * 2704 + x * 52 + y] - log_g[g * 2704 + a * 52 + b]
                num = new_keep * sn
                den = old_keep * so
                if num <= 0.0:
                    continue
                lr += np.log(num) - np.log(den) if den > 0.0 else np.inf
                if r2[t, ii, w] < np.exp(lr):
                    moved += 1
                    if f == 2:
                        avail[w, kept[w, i, 1]] = True
                    avail[w, kept[w, i, 2]] = True
                    if f == 2:
                        avail[w, n1] = False
                    avail[w, n2] = False
                    kept[w, i, 1] = n1
                    kept[w, i, 2] = n2
    return n_miss, moved


def fast_hidden_steps(seen, kept, vals, avail, origin, policy, tremble, gen, expose, tables,
                      steps):
    hidden_of, gids, (_, _, tab, cum, start, end, lo, hi, _, log_g) = tables
    m = len(seen.opponents)
    k = len(kept)
    width = max(len(h) for h in hidden_of)
    f_tab = np.zeros((m, width), dtype=np.int64)
    gid_tab = np.full((m, width), -1, dtype=np.int64)
    for j in range(m):
        f_tab[j, :len(hidden_of[j])] = hidden_of[j]
        gid_tab[j, :len(gids[j])] = gids[j]
    maxd = max(len(o.draws) for o in seen.opponents)
    nd = np.asarray([len(o.draws) for o in seen.opponents], dtype=np.int64)
    powers = np.zeros((m, 3 + maxd), dtype=np.int64)
    for j in range(m):
        powers[j, :len(expose.powers[j])] = expose.powers[j]
    V = np.zeros((k, m, 3 + maxd), dtype=np.int64)
    for x, v in vals.items():
        V[:, x, :v.shape[1]] = v
    reads = np.asarray(list(vals), dtype=np.int64)
    r1 = gen.random((steps, len(reads), k))
    r2 = gen.random((steps, len(reads), k))
    miss_x = np.zeros(4096, dtype=np.int64)
    miss_c = np.zeros((4096, 3 + maxd), dtype=np.int64)
    if not len(tab):
        return
    n_miss, _moved = _hidden_kernel(reads, r1, r2, kept, V, avail, np.ascontiguousarray(origin),
                                   f_tab, gid_tab, tab, cum, start, end, lo, hi, log_g,
                                   _keep_table_by_cards().reshape(-1), 1.0 - tremble,
                                   tremble / 20.0, expose.flat, expose.offset.astype(np.int64),
                                   powers, nd, miss_x, miss_c)
    for i in range(n_miss):
        x = int(miss_x[i])
        expose.lik(x, miss_c[i:i + 1, :3 + int(nd[x])])


def install_hidden():
    ryoseen._hidden_steps = fast_hidden_steps
