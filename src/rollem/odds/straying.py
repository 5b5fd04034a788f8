"""How often the other players' card choices stray from the policy, where the
table says who they are (issue 33, branch s67-rough).

Roll Your Own's reading of the others after the discard
(:mod:`rollem.odds.ryoseen`) weighs each opponent's hidden cards by the policy's
chance of the keep (R-RYO-2) and of each expose (R-RYO-3, R-RYO-5) it was seen to
make, the player straying with chance :data:`rollem.odds.look521.TREMBLE` (2%;
then any keep of the 20, any down card, equally likely). Measured
(``bench/bench_ryo_bots.py --agree``, seeds 60000+, 4 players, 60 hands, 180 of
each choice):

- our ``basic`` computer players (the terminal's and the web table's default)
  keep one of the policy's best triples 100% of the time (180 of 180; 200 of 200
  at 6 players) and expose one of its least-showing cards 100% (each of the three
  exposes): they *are* the policy (``PolicyPlayer`` exposes with ``basic``'s own
  rule), so the 2% is already generous;
- ``random`` computer players (:func:`rollem.bots.random_bot.random_action`) keep
  the policy's triple 6.7% of the time (12 of 180: a uniform keep hits the best
  of 20, ties counted, about as often) and expose its card 36 to 39% (one of
  three down cards, ties counted): every keep and expose is uniform, which is
  straying with chance 1 (:data:`RANDOM_PLAYERS`). Read as the policy's, their
  choices made the worlds collapse: at 4 players 18 of 91 decisions were shown
  rough and 12 over ±1.5, up to ±6.2 (docs/dev/odds-precision.md, s67-rough).

Where every other player is known to be a ``random`` computer player (the
terminal's ``--bots random``; a web table whose other seats are all its random
computer players), play passes :data:`RANDOM_PLAYERS` (:func:`for_bots`) and the
reading takes it (:func:`others_stray`, read by :func:`tremble`): their choices
then say nothing of their hidden cards, which is their model exactly. Anywhere
else (people, ``basic``, ``strong``, a mix) the tremble is the default.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["RANDOM_PLAYERS", "for_bots", "others_stray", "tremble"]

RANDOM_PLAYERS = 1.0
"""The straying chance of a table of ``random`` computer players: every keep
and expose uniform among the legal ones (see the module doc)."""

_STRAY: ContextVar[float | None] = ContextVar("rollem_odds_others_stray", default=None)


def for_bots(levels: Iterable[str | None]) -> float | None:
    """The straying chance to read the other players with, given each other
    player's computer level (``None``: a person): :data:`RANDOM_PLAYERS` where
    there is at least one and every one is ``"random"``, else ``None`` (the
    default).

    >>> for_bots(["random", "random"]), for_bots(["random", None]), for_bots(["basic"])
    (1.0, None, None)
    """
    levels = list(levels)
    return RANDOM_PLAYERS if levels and all(lv == "random" for lv in levels) else None


@contextmanager
def others_stray(chance: float | None) -> Iterator[None]:
    """Within the block, the other players stray from the policy with
    ``chance`` (0 to 1; ``None``: the default, :data:`rollem.odds.look521.TREMBLE`).

    Raises:
        ValueError: ``chance`` outside 0..1.
    """
    if chance is not None and not 0.0 <= chance <= 1.0:
        raise ValueError(f"a straying chance is 0 to 1, got {chance!r}")
    token = _STRAY.set(chance)
    try:
        yield
    finally:
        _STRAY.reset(token)


def tremble(default: float) -> float:
    """The straying chance set by :func:`others_stray`, else ``default``."""
    chance = _STRAY.get()
    return default if chance is None else chance
