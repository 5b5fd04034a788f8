"""Engine errors: precise types whose message says what was wrong and what is allowed."""

from __future__ import annotations

import operator

__all__ = ["EngineError", "IllegalAction", "whole_number"]


class EngineError(ValueError):
    """A hand that cannot be set up or replayed (bad seats, stacks, options, outcomes)."""


class IllegalAction(EngineError):
    """An action that is not allowed now.

    The message names the seat, what was tried, why it is refused and what
    is allowed instead. Raising it never changes the hand.
    """


def whole_number(value: object, name: str, allowed: str, low: int | None = 0,
                 high: int | None = None,
                 error: type[ValueError] = EngineError) -> int:
    """``value`` as an ``int`` when it is one (numpy's integers too) from ``low``
    to ``high`` (``None``: no bottom, no top); else ``error`` (:class:`EngineError` unless
    given) naming ``name``, what is ``allowed`` and what it got (s62-term:
    ``Hand(..., button="1")`` failed inside with "'<=' not supported between
    instances of 'int' and 'str'", ``Table(..., out=["1"])`` left seat 1 in
    silently). A ``bool`` or a numeral as text (``"4"``) is no whole number here:
    the caller converts what a user typed.

    Raises:
        ValueError: ``error``, ``"{name} must be {allowed}, got '4' (a str)"``.
    """
    number: int | None = None
    if not isinstance(value, bool) and hasattr(value, "__index__"):
        number = operator.index(value)
    if (number is None or (low is not None and number < low)
            or (high is not None and number > high)):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:36] + " ..."
        kind = "" if number is not None else f" (a {type(value).__name__})"
        raise error(f"{name} must be {allowed}, got {shown}{kind}")
    return number
