"""Decimal amounts in PHH files (issue 29): a hand whose amounts have a
fraction (dollars and cents, ``blinds_or_straddles = [0.5, 1]``) is played
in whole chips of a stated unit.

The chip unit is ``1 / scale`` of the file's unit, where ``scale`` is ``10``
to the most decimal places any amount of the hand has (every field of
:data:`AMOUNT_FIELDS` and every ``cbr`` amount): ``0.5``, ``1`` and
``200.30`` give a scale of 100 (a chip is a cent), so ``0.5`` is 50 chips.
The scaling is exact (amounts are read as :class:`~decimal.Decimal`), and
so is the way back (:func:`in_units`). A hand with more than
:data:`MAX_PLACES` decimal places, or an amount of :data:`MAX_AMOUNT` or
more, is refused in one line naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from rollem.phh.variants import PHHError

__all__ = ["AMOUNT_FIELDS", "MAX_AMOUNT", "MAX_PLACES", "chip_scale", "in_units", "scale_note",
           "to_chips"]

AMOUNT_FIELDS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet",
                 "min_bet", "starting_stacks", "finishing_stacks")
"""The PHH fields that hold amounts (a number, or a list of one a player)."""

MAX_PLACES = 6
"""The most decimal places an amount may have (a millionth of the file's
unit; HandHQ's hands have two)."""

MAX_AMOUNT = 10**15
"""Every amount is below this, in the file's unit (a quadrillion: the PHH
dataset's largest stacks are near 10**9; a ``1e999999999`` stack would
overflow the exact decimals and a 5000-digit one the printing of its result)."""


def _decimal(value: object) -> Decimal | None:
    """``value`` as an exact decimal, ``None`` when it is no finite number (a
    float as the shortest text that reads back as it, so ``0.1`` is 0.1)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, str):
        try:
            value = Decimal(value.replace(",", ""))
        except InvalidOperation:
            return None
    if isinstance(value, Decimal) and value.is_finite():
        return value
    return None


def _brief(value: Decimal) -> str:
    """``value`` as written, at most 20 characters (then ``...``)."""
    text = str(value)
    return text if len(text) <= 20 else text[:17] + "..."


def _places(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _amounts(data: Mapping[str, Any]) -> list[tuple[str, Decimal]]:
    """Every amount of a hand with where it is (a field, or an action line)."""
    out: list[tuple[str, Decimal]] = []
    for name in AMOUNT_FIELDS:
        value = data.get(name)
        values = value if isinstance(value, list) else [value]
        for i, v in enumerate(values):
            d = _decimal(v)
            if d is not None:
                out.append((f"{name}[{i}]" if isinstance(value, list) else name, d))
    actions = data.get("actions")
    for k, line in enumerate(actions if isinstance(actions, list) else [], 1):
        words = str(line).split("#", 1)[0].split()
        if len(words) == 3 and words[1] == "cbr":
            d = _decimal(words[2])
            if d is not None:
                out.append((f"line {k} of actions ({' '.join(words)})", d))
    return out


def chip_scale(data: Mapping[str, Any]) -> int:
    """How many chips make the file's unit: 1 for a hand in whole amounts,
    else ``10 ** places`` (the most decimal places of any amount).

    Raises:
        PHHError: an amount with more than :data:`MAX_PLACES` places.
    """
    most = 0
    for where, value in _amounts(data):
        if value.copy_abs() >= MAX_AMOUNT:  # copy_abs: no rounding, no overflow
            raise PHHError(f"{where} is {_brief(value)}: every amount must be below 10**15 "
                           "(a quadrillion) in the file's unit")
        # far below a millionth, normalize() could underflow: too many places anyway
        places = (MAX_PLACES + 1 if value and value.adjusted() < -MAX_PLACES
                  else _places(value))
        if places > MAX_PLACES:
            raise PHHError(f"{where} is {_brief(value)}: at most {MAX_PLACES} decimal places "
                           "(amounts are played in whole chips of the smallest unit)")
        most = max(most, places)
    return int(10 ** most)


def scale_note(data: Mapping[str, Any], scale: int) -> str:
    """Why a hand is played in chips smaller than its unit, for an error that
    names amounts in those chips (s59-tidy: ``antes = [500.5, 500, 500]`` made
    every amount of the hand tenths, and an all-in of the file's read as short
    of the stack by half a chip): the first amount with the most decimal
    places, and the unit. ``data`` is the file's hand, before :func:`to_chips`.

    >>> scale_note({"antes": [500.5, 500], "starting_stacks": [1000, 1000]}, 10)
    'antes[0] is 500.5: amounts here are in chips of 1/10 of the unit, whole numbers'
    """
    places = len(str(scale)) - 1
    first = next(((where, value) for where, value in _amounts(data)
                  if _places(value) == places), None)
    why = f"{first[0]} is {_brief(first[1])}: " if first else ""
    return f"{why}amounts here are in chips of 1/{scale} of the unit, whole numbers"


def _scaled(value: object, scale: int) -> object:
    d = _decimal(value) if not isinstance(value, str) else None
    return int(d * scale) if d is not None else value


def to_chips(data: Mapping[str, Any], scale: int) -> dict[str, Any]:
    """A copy of the hand with every amount in chips (``scale`` chips a unit,
    :func:`chip_scale`); what is no number is left for the reader to refuse."""
    out = dict(data)
    if scale == 1:
        return out
    for name in AMOUNT_FIELDS:
        if name in out:
            value = out[name]
            out[name] = ([_scaled(v, scale) for v in value] if isinstance(value, list)
                         else _scaled(value, scale))
    actions = out.get("actions")
    if isinstance(actions, list):
        lines = []
        for line in actions:
            words = str(line).split("#", 1)[0].split() if isinstance(line, str) else []
            d = _decimal(words[2]) if len(words) == 3 and words[1] == "cbr" else None
            lines.append(f"{words[0]} cbr {int(d * scale)}" if d is not None else line)
        out["actions"] = lines
    return out


def in_units(chips: int, scale: int) -> int | Decimal:
    """``chips`` in the file's unit: the same whole number when ``scale`` is
    1, else an exact decimal (``20030`` at 100 is ``200.3``)."""
    if scale == 1:
        return chips
    value = (Decimal(chips) / scale).normalize()
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value
