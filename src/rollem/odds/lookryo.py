"""Five Card Roll Your Own before the discard: the three to keep (issue 16).

Model (R-RYO-1..R-RYO-9), from the seat's view while it holds six cards:
every other player dealt in holds six cards drawn from those the seat cannot
see and keeps three by the policy (:meth:`rollem.odds.policy.Policy.keep`);
the pool is everyone's discards, shuffled; each player draws two cards from
it (the order players draw in does not change the odds: the pool is
shuffled); the wild card is turned from what is left. Nobody folds. Which
cards players expose and which pool position is picked for the wild card
change no share of the pot in this model (no betting is simulated, the pool
is face down), so the look-ahead does not simulate them. Each option of the
seat (20 ways to keep three of six) is played out in the same worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from rollem.cards import CARDS
from rollem.odds.common import Floats, np_rng
from rollem.odds.look521 import _pick
from rollem.odds.policy import FAST, TRIPLES, Policy
from rollem.odds.result import OddsError
from rollem.odds.ryo import _categories, _score

__all__ = ["KeepOption", "ryo_keep_look"]

DISCARDS = np.asarray([[i for i in range(6) if i not in t] for t in TRIPLES], dtype=np.int64)
"""For each keep in :data:`TRIPLES`, the indices of the three discarded."""


@dataclass
class KeepOption:
    """One way to keep three of six, and its equity."""

    cards: list[str]
    equity: float
    stderr: float
    whole_pot: float
    share: float
    nothing: float
    policy: bool
    categories: dict[str, float]


def ryo_keep_look(mine: list[int], opponents: int, *, samples: int = 2000,
                  policy: Policy = FAST, wild_duplicates: bool = False,
                  natural_beats_wild: bool = False, seed: int | None = None,
                  rng: random.Random | None = None, advice: bool = True) -> list[KeepOption]:
    """The equity of each way to keep three of ``mine`` (six cards) against
    ``opponents`` other players dealt in, best first; only the policy's keep
    when ``advice`` is false.

    Raises:
        OddsError: not six cards, no opponent or too many.
    """
    if len(mine) != 6:
        raise OddsError(f"hand: expected six cards before the discard, got {len(mine)}")
    if not 1 <= opponents <= 7:
        raise OddsError(f"opponents: expected 1 to 7, got {opponents}")
    gen = np_rng(rng, seed)
    s = samples
    n = opponents
    avail = np.ones((s, 52), dtype=bool)
    avail[:, mine] = False
    dealt = _pick(gen, avail, 6 * n).reshape(s * n, 6)
    choice = policy.keep(dealt)
    kept_idx = TRIPLES[choice]  # (S*n, 3)
    disc_idx = DISCARDS[choice]
    opp_kept = np.take_along_axis(dealt, kept_idx, axis=1).reshape(s, n, 3)
    opp_disc = np.take_along_axis(dealt, disc_idx, axis=1).reshape(s, 3 * n)
    pool_size = 3 * (n + 1)
    perm = np.argsort(gen.random((s, pool_size)), axis=1)
    mine_arr = np.asarray(mine, dtype=np.int64)
    pol = int(policy.keep(mine_arr[None, :])[0])
    opts = {"wild_duplicates": wild_duplicates, "natural_beats_wild": natural_beats_wild}
    out = []
    for t, triple in enumerate(TRIPLES):
        if not advice and t != pol:
            continue
        keep = mine_arr[triple]
        disc = np.asarray([c for i, c in enumerate(mine) if i not in triple], dtype=np.int64)
        pool = np.concatenate([np.broadcast_to(disc, (s, 3)), opp_disc], axis=1)
        shuffled = np.take_along_axis(pool, perm, axis=1)
        seat = np.concatenate([np.broadcast_to(keep, (s, 3)), shuffled[:, 0:2]], axis=1)
        drawn = shuffled[:, 2:2 + 2 * n].reshape(s, n, 2)
        others = np.concatenate([opp_kept, drawn], axis=2)
        hands = np.concatenate([seat[:, None, :], others], axis=1)
        turned = shuffled[:, 2 + 2 * n]
        share, cats = _score(hands, [[]], turned, opts)
        out.append(_option([str(CARDS[c]) for c in keep], share, t == pol,
                           _categories(cats, s)))
    out.sort(key=lambda o: -o.equity)
    return out


def _option(cards: list[str], share: Floats, is_policy: bool,
            categories: dict[str, float]) -> KeepOption:
    n = len(share)
    return KeepOption(cards=cards, equity=float(share.mean()),
                      stderr=float(share.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
                      whole_pot=float((share >= 1.0).mean()),
                      share=float(((share > 0) & (share < 1)).mean()),
                      nothing=float((share <= 0).mean()), policy=is_policy,
                      categories=categories)
