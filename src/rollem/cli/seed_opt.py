"""``--seed S``: one rule for every command that takes it (``odds``, ``play``,
``simulate``).

A seed is a whole number, 0 or more: the same seed (with the same other
options) gives the same shuffles, computer players and Monte Carlo samples.
A negative seed is refused with a usage error (exit status 2), in every
command alike: numpy's generators (the odds) take no negative seed, and
Python's ``random`` would silently take ``-S`` as ``S``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from rollem.cli.errors import fail

__all__ = ["SEED_RULE", "check_seed", "seed_option"]

F = TypeVar("F", bound=Callable[..., Any])

SEED_RULE = "a whole number, 0 or more"
"""What ``--seed`` allows, in words (said in its help and its error)."""


def check_seed(seed: int | None) -> int | None:
    """``seed`` unchanged when ``None`` or at least 0; else a one-line usage
    error (exit status 2) naming the value and what is allowed."""
    if seed is not None and seed < 0:
        fail(f"--seed {seed}: expected {SEED_RULE}")
    return seed


def seed_option(help_text: str) -> Callable[[F], F]:
    """The ``--seed`` option (an integer, default ``None``) with ``help_text``
    and the rule appended, refusing a negative seed (:func:`check_seed`)."""
    return click.option(
        "--seed", "seed", type=int, default=None,
        callback=lambda _ctx, _param, value: check_seed(value),
        help=f"{help_text} The seed is {SEED_RULE}.")
