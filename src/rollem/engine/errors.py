"""Engine errors: precise types whose message says what was wrong and what is allowed."""

from __future__ import annotations

import operator
import reprlib

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
        kind = "" if number is not None else f" (a {type(value).__name__})"
        raise error(f"{name} must be {allowed}, got {brief_repr(value)}{kind}")
    return number


_BRIEF = reprlib.Repr()
_BRIEF.maxlevel = 2
_BRIEF.maxtuple = _BRIEF.maxlist = _BRIEF.maxarray = _BRIEF.maxdict = 4
_BRIEF.maxset = _BRIEF.maxfrozenset = _BRIEF.maxdeque = 4
_BRIEF.maxstring = _BRIEF.maxlong = _BRIEF.maxother = 40


def brief_repr(value: object) -> str:
    """``repr(value)`` for an error message, at most 40 characters (cut: ``" ..."``
    at the end), at a cost that does not grow with ``value``: a list or a string
    of millions is not written out first (s62-hostile2: 6 s for a list of 3
    million), and a whole number too long to write (more than
    ``sys.get_int_max_str_digits()`` digits: Python raises ``ValueError``) is
    ``"an int of N bits"``."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"{'a negative' if value < 0 else 'an'} int of {value.bit_length()} bits"
    try:  # (text: its first characters, cut as before; a container: its first items)
        shown = repr(value[:60]) if isinstance(value, (str, bytes)) else _BRIEF.repr(value)
    except ValueError:  # (an int too long to write out, inside a container)
        shown = f"a {type(value).__name__}"
    return shown if len(shown) <= 40 else shown[:36] + " ..."
