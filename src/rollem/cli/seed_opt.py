"""``--seed S``: one rule for every command that takes it (``odds``, ``play``,
``simulate``).

A seed is a whole number from 0 to 2**64 - 1 (:data:`MAX_SEED`): the same
seed (with the same other options) gives the same shuffles, computer players
and Monte Carlo samples. Any other is refused with a usage error (exit status
2), in every command alike: numpy's generators (the odds) take no negative
seed, Python's ``random`` would silently take ``-S`` as ``S``, and ``play``
names its session folder after the seed (a 300-digit seed made a file name
the system refused). 64 bits is the usual size of a seed and more than the
shuffles can tell apart in any session. It is written in ASCII digits only:
click's ``int`` (Python's ``int()``) also took ``１２`` (full-width digits),
``1_000``, ``+5`` and `` 5 ``, which no other command-line number here takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from rollem.cli.errors import fail

__all__ = ["MAX_SEED", "SEED_RULE", "check_seed", "parse_seed", "seed_option"]

F = TypeVar("F", bound=Callable[..., Any])

MAX_SEED = 2**64 - 1
"""The largest seed allowed (18446744073709551615)."""

SEED_RULE = f"a whole number from 0 to {MAX_SEED} (2**64 - 1)"
"""What ``--seed`` allows, in words (said in its help and its error)."""


def check_seed(seed: int | None) -> int | None:
    """``seed`` unchanged when ``None`` or from 0 to :data:`MAX_SEED`; else a
    one-line usage error (exit status 2) naming the value and what is allowed."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        fail(f"--seed {seed}: expected {SEED_RULE}")
    return seed


_MAX_SEED_DIGITS = len(str(MAX_SEED))


def parse_seed(text: str | None) -> int | None:
    """The seed ``text`` gives: ``None`` for ``None``; ``int(text)`` when
    ``text`` is 1 or more ASCII digits ``0-9`` (leading zeros allowed) of
    value at most :data:`MAX_SEED`; else the usage error of :func:`check_seed`
    (exit status 2) naming ``text``."""
    if text is None:
        return None
    if (not text.isascii() or not text.isdigit()
            or len(text.lstrip("0")) > _MAX_SEED_DIGITS):  # int() of 4300+ digits raises
        fail(f"--seed {text}: expected {SEED_RULE}")
    seed = int(text)
    if seed > MAX_SEED:
        fail(f"--seed {text}: expected {SEED_RULE}")
    return seed


def seed_option(help_text: str) -> Callable[[F], F]:
    """The ``--seed`` option (an integer, default ``None``) with ``help_text``
    and the rule appended, refusing a seed outside the rule (:func:`parse_seed`)."""
    return click.option(
        "--seed", "seed", type=str, default=None, metavar="SEED",
        callback=lambda _ctx, _param, value: parse_seed(value),
        help=f"{help_text} The seed is {SEED_RULE}.")
