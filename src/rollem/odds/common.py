"""Helpers shared by the odds calculators: pot shares, summaries, sampling."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from rollem.cards import CardError, parse_cards
from rollem.odds.result import Odds, OddsError

__all__ = [
    "CHUNK",
    "MAX_ENUMERATION",
    "MAX_SAMPLES",
    "CardsIn",
    "Progress",
    "Tally",
    "assignments",
    "card_list",
    "check_samples",
    "check_seed",
    "chunks",
    "count_assignments",
    "draw",
    "np_rng",
    "shares",
    "summarise",
    "unseen",
]

MAX_ENUMERATION = 1_000_000
"""Deals enumerated row by row (several unknown hands) are capped at this
many, whatever ``exact_limit`` says, to bound memory; beyond it Monte Carlo."""

MAX_SAMPLES = 10_000_000
"""The most Monte Carlo worlds one question may ask for (the standard error
is then about 0.02% of the pot); more raises :class:`OddsError`."""

CHUNK = 50_000
"""Monte Carlo worlds are drawn and scored this many at a time, so memory
stays bounded whatever ``samples`` is."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called after each chunk of Monte Carlo worlds."""


def check_samples(samples: int) -> None:
    """Raises :class:`OddsError` unless ``1 <= samples <= MAX_SAMPLES``."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise OddsError(f"samples must be 1 to {MAX_SAMPLES:,}, got {samples:,}")


def chunks(samples: int, chunk: int | None = None) -> Iterator[int]:
    """The sizes of the chunks ``samples`` worlds are drawn in (``chunk``:
    default :data:`CHUNK`)."""
    chunk = chunk or CHUNK
    done = 0
    while done < samples:
        n = min(chunk, samples - done)
        yield n
        done += n


class Tally:
    """Running sums of per-world pot shares, chunk by chunk: win/tie/lose
    counts, the share and its square (for the standard error), so a Monte
    Carlo of any size needs memory for one chunk only."""

    def __init__(self) -> None:
        self.n = 0
        self.win = 0.0
        self.tie = 0.0
        self.lose = 0.0
        self.total = 0.0
        self.squares = 0.0

    def add(self, share: Floats) -> None:
        """Count the worlds of one chunk (``share``: shape ``(S,)``, 0..1)."""
        self.n += len(share)
        self.win += float((share >= 1.0).sum())
        self.lose += float((share <= 0.0).sum())
        self.tie += float(((share > 0.0) & (share < 1.0)).sum())
        self.total += float(share.sum())
        self.squares += float((share * share).sum())

    def merge(self, other: Tally) -> None:
        """Count the worlds of ``other`` too (a worker's part of the same question)."""
        self.n += other.n
        self.win += other.win
        self.tie += other.tie
        self.lose += other.lose
        self.total += other.total
        self.squares += other.squares

    @property
    def equity(self) -> float:
        """The mean share so far (0.0 before any world)."""
        return self.total / self.n if self.n else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`equity` (sample variance, ``ddof=1``)."""
        if self.n < 2:
            return 0.0
        var = max(0.0, (self.squares - self.n * self.equity ** 2) / (self.n - 1))
        return float(np.sqrt(var / self.n))

    def odds(self, method: str, game: str, **extra: object) -> Odds:
        """The :class:`Odds` of every world added (``stderr`` 0 for exact)."""
        if self.n == 0:
            raise OddsError("no possible outcome: the cards given leave nothing to deal")
        n = self.n
        return Odds(win=self.win / n, tie=self.tie / n, lose=self.lose / n,
                    equity=self.equity, method=method, samples=n,
                    stderr=0.0 if method == "exact" else self.stderr, game=game,
                    **extra)  # type: ignore[arg-type]


def check_seed(seed: int | None) -> None:
    """Refuse a negative ``seed`` (numpy's generators take none; the command
    line's ``--seed`` rule too): raises :class:`OddsError` naming it."""
    if seed is not None and seed < 0:
        raise OddsError(f"seed {seed}: expected a whole number, 0 or more")


def np_rng(rng: random.Random | None = None, seed: int | None = None) -> np.random.Generator:
    """A numpy generator seeded from ``seed`` or from ``rng`` (so a seeded
    ``random.Random`` gives repeatable answers); fresh entropy when neither.

    Raises:
        OddsError: ``seed`` is negative (:func:`check_seed`).
    """
    check_seed(seed)
    if seed is not None:
        return np.random.default_rng(seed)
    if rng is not None:
        return np.random.default_rng(rng.getrandbits(64))
    return np.random.default_rng()


def unseen(*known: Iterable[int]) -> Ints:
    """The cards (sorted) not in any of ``known``.

    Raises:
        OddsError: if a card appears twice among ``known`` (R-C-1).
    """
    seen: set[int] = set()
    for group in known:
        for c in group:
            if c in seen:
                from rollem.cards import CARDS

                raise OddsError(f"card {CARDS[c]} is given twice; each card exists once")
            seen.add(int(c))
    return np.asarray([c for c in range(52) if c not in seen], dtype=np.int64)


def draw(gen: np.random.Generator, pool: Ints, samples: int, count: int) -> Ints:
    """``samples`` independent draws of ``count`` distinct cards from
    ``pool``, each a uniformly random ordered selection: shape
    ``(samples, count)``."""
    if count > len(pool):
        raise OddsError(f"{count} unknown cards are needed but only {len(pool)} are left")
    if count == 0:
        return np.zeros((samples, 0), dtype=np.int64)
    keys = gen.random((samples, len(pool)))
    if count < len(pool):
        idx = np.argpartition(keys, count - 1, axis=1)[:, :count]
    else:
        idx = np.argsort(keys, axis=1)
    return pool[idx]


def shares(hero: Ints, others: Ints) -> Floats:
    """The seat's share of one pot per world: ``hero`` values shape ``(S,)``,
    the other live hands' values ``(S, k)`` (greater is better); equal best
    hands split (R-C-2)."""
    if others.shape[1] == 0:
        return np.ones(hero.shape, dtype=np.float64)
    best = others.max(axis=1)
    ties = (others == hero[:, None]).sum(axis=1)
    return np.where(hero > best, 1.0, np.where(hero == best, 1.0 / (1 + ties), 0.0))


def summarise(share: Floats, method: str, game: str, weights: Floats | None = None,
              **extra: object) -> Odds:
    """An :class:`Odds` from per-world shares (``weights``: exact worlds'
    probabilities, default equal)."""
    n = len(share)
    if n == 0:
        raise OddsError("no possible outcome: the cards given leave nothing to deal")
    w = np.full(n, 1.0 / n) if weights is None else weights / weights.sum()
    win = float((w * (share >= 1.0)).sum())
    lose = float((w * (share <= 0.0)).sum())
    tie = float((w * ((share > 0.0) & (share < 1.0))).sum())
    equity = float((w * share).sum())
    stderr = 0.0
    if method != "exact" and n > 1:
        stderr = float(share.std(ddof=1) / np.sqrt(n))
    return Odds(win=win, tie=tie, lose=lose, equity=equity, method=method, samples=n,
                stderr=stderr, game=game, **extra)  # type: ignore[arg-type]


CardsIn = Sequence[int] | str
"""Cards as ints, or card text such as ``"As Kd"``."""


def card_list(value: CardsIn, what: str) -> list[int]:
    """Cards given as text or ints, as a list of ints.

    Raises:
        OddsError: naming ``what`` (e.g. ``"hand"``) when the text is not cards.
    """
    try:
        return [int(c) for c in (parse_cards(value) if isinstance(value, str) else value)]
    except CardError as err:
        raise OddsError(f"{what}: {err}") from None


def cards_of(texts: Sequence[str | None]) -> list[int]:
    """Card ints of the visible card texts (``None`` = a card back, skipped)."""
    from rollem.cards import parse_card

    return [int(parse_card(t)) for t in texts if t is not None]


def count_assignments(unknown: int, sizes: Sequence[int]) -> int:
    """How many ways to give disjoint sets of ``sizes`` cards (to distinct
    seats) from ``unknown`` cards."""
    from math import comb

    total = 1
    left = unknown
    for k in sizes:
        if k > left:
            return 0
        total *= comb(left, k)
        left -= k
    return total


_COMBOS_KEPT = 25_000
""":func:`_combos` keeps the tables of at most this many combinations (the
bots' exact enumerations ask the same few again and again)."""


@lru_cache(maxsize=64)
def _combos(n: int, k: int) -> tuple[Ints, Ints]:
    """Every ``k``-subset of ``range(n)`` in :func:`itertools.combinations`
    order, ``(C(n, k), k)`` ints, and each one's bit mask ``(C(n, k),)``
    (read-only: shared between calls)."""
    from itertools import combinations

    combos = list(combinations(range(n), k))
    idx = np.asarray(combos, dtype=np.int64).reshape(len(combos), k)
    bits = (np.int64(1) << idx).sum(axis=1) if k else np.zeros(len(idx), dtype=np.int64)
    idx.setflags(write=False)
    bits.setflags(write=False)
    return idx, bits


def assignments(pool: Ints, sizes: Sequence[int]) -> Ints:
    """Every way to give disjoint sets of ``sizes`` cards from ``pool``, as
    rows of ``sum(sizes)`` cards (the first ``sizes[0]`` for the first seat,
    and so on); all rows equally likely under uniform dealing."""
    n = len(pool)
    rows = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)  # bit i: pool[i] taken
    for k in sizes:
        idx, bits = _combos(n, k) if count_assignments(n, [k]) <= _COMBOS_KEPT \
            else _combos.__wrapped__(n, k)
        free = (used[:, None] & bits[None, :]) == 0
        r, j = np.nonzero(free)
        rows = np.concatenate([rows[r], idx[j]], axis=1)
        used = used[r] | bits[j]
    return pool[rows]
