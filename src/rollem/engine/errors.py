"""Engine errors: precise types whose message says what was wrong and what is allowed."""

from __future__ import annotations

__all__ = ["EngineError", "IllegalAction"]


class EngineError(ValueError):
    """A hand that cannot be set up or replayed (bad seats, stacks, options, outcomes)."""


class IllegalAction(EngineError):
    """An action that is not allowed now.

    The message names the seat, what was tried, why it is refused and what
    is allowed instead. Raising it never changes the hand.
    """
