"""Hand evaluation: high (R-C-2), ace-to-five low (R-C-3), wild cards
(R-RYO-9), partial hands showing (R-C-8), and a numpy batch path.

Fast functions return an ``int`` (greater is better under that ranking):
:func:`high_value`, :func:`low_value`, :func:`wild_value`,
:func:`showing_value`.  :func:`evaluate` gives the rich :class:`HandResult`.
"""

from __future__ import annotations

from rollem.hands.category import Category
from rollem.hands.describe import category_of, describe_value
from rollem.hands.high import high_value
from rollem.hands.low import low_value
from rollem.hands.result import HandResult, evaluate
from rollem.hands.showing import showing_value
from rollem.hands.wild import wild_value

__all__ = [
    "Category",
    "HandResult",
    "category_of",
    "describe_value",
    "evaluate",
    "high_value",
    "low_value",
    "showing_value",
    "wild_value",
]
