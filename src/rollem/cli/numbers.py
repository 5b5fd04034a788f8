"""Whole-number options that say what is allowed when a value is wrong.

Click's ``IntRange`` answers ``--port abc`` with "'abc' is not a valid integer
range" (its type's name, not what to type) and ``--port 70000`` with "70000 is
not in the range 0<=x<=65535"; :class:`WholeRange` says "'abc' is not a whole
number: expected 0 to 65535" and "70000 is out of range: expected 0 to 65535".
Its help text (``[0<=x<=65535]``) is click's.
"""

from __future__ import annotations

from typing import Any

import click

__all__ = ["WholeRange"]


class WholeRange(click.IntRange):
    """A closed range of whole numbers (``min``/``max``: ``None`` for no bound).

    >>> WholeRange(0, 65535).allowed()
    '0 to 65535'
    >>> WholeRange(1).allowed()
    '1 or more'

    Raises (from :meth:`convert`): ``click.BadParameter`` naming the value and
    :meth:`allowed`, for text that is not a whole number or a number out of range.
    """

    def allowed(self) -> str:
        """The range in words: ``"0 to 65535"``, ``"1 or more"``, ``"at most 9"``."""
        if self.min is not None and self.max is not None:
            return f"{self.min} to {self.max}"
        if self.min is not None:
            return f"{self.min} or more"
        if self.max is not None:
            return f"at most {self.max}"
        return "any whole number"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                value = int(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a whole number: expected {self.allowed()}",
                          param, ctx)
        if (self.min is not None and value < self.min) or \
                (self.max is not None and value > self.max):
            self.fail(f"{value} is out of range: expected {self.allowed()}", param, ctx)
        return value
