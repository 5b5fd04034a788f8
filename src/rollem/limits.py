"""Limits every table shares: the web table's create form, ``rollem play`` and
``rollem simulate`` take the same range (one constant, so the three cannot drift
apart).

>>> MAX_STACK
100000000
"""

from __future__ import annotations

MAX_STACK = 100_000_000
"""The largest stack, in chips (a whole number), a table starts with: the web
table's ``stack`` setting, ``--stack`` of ``rollem play`` and ``rollem simulate``,
and the most a host may set a player's stack to."""
