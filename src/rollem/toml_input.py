"""Reading TOML that comes from outside (a history, a PHH file, a game file,
a tournament schedule, a host's game file at the web table).

:func:`loads` is :func:`tomllib.loads` with two more refusals, each a
:class:`tomllib.TOMLDecodeError` as any other bad TOML:

- an integer of more digits than Python converts
  (``sys.get_int_max_str_digits()``, 4300 by default), where ``tomllib`` lets
  a plain ``ValueError`` out (a one-line file ``_button = 1000...0`` would
  otherwise be an internal error in the CLI and an HTTP 500 at the web table);
- a dotted key of more than :data:`MAX_KEY_PARTS` parts (``a.a.a... = 1``, a
  table header ``[a.a.a...]``, or in an inline table), before ``tomllib``
  reads anything: ``tomllib`` takes time quadratic in a key's parts (16 KB of
  ``a.a.a...`` 1.3 s, 64 KB about 20 s, a 1 MB history for hours), and a
  tournament schedule sent to the web table was read on its event loop
  (stop 56).
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_KEY_PARTS", "loads"]

MAX_KEY_PARTS = 32
"""The most parts of one dotted key (``a.b.c`` has 3).  The files rollem reads
use at most 3 (``[house]`` options, ``[[steps]]``, a PHH table's fields)."""

_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_CHAIN = re.compile(r"(?<![A-Za-z0-9_-])" + _PART + r"(?:[ \t]*\.[ \t]*" + _PART + r")+")
"""Key parts joined by dots (a key is on one line), each run matched once, whole."""
_DOTTY = re.compile(rf"^(?:[^.\n]*\.){{{MAX_KEY_PARTS}}}[^\n]*", re.MULTILINE)
"""A line with at least :data:`MAX_KEY_PARTS` dots: the only lines that can hold a
key of more parts (the others are not looked at again)."""


def _long_key(text: str) -> bool:
    """Whether ``text`` has more than :data:`MAX_KEY_PARTS` key parts joined by
    dots on one line, anywhere (a string's text too, and a dot within a quoted
    part counts: a refusal errs that way; none of rollem's files has one).
    Linear in the text: 1.5 MB in 0.1 to 0.6 s, the worst inputs included."""
    return any(run.group().count(".") >= MAX_KEY_PARTS
               for line in _DOTTY.finditer(text) for run in _CHAIN.finditer(line.group()))


def loads(text: str, *, parse_float: Callable[[str], Any] = float) -> dict[str, Any]:
    """``text`` read as TOML (as :func:`tomllib.loads`).

    Raises:
        tomllib.TOMLDecodeError: not valid TOML, or an integer of more than
            ``sys.get_int_max_str_digits()`` digits (the message says so).
        RecursionError: arrays or tables nested too deeply (as ``tomllib``;
            each caller names it).
    """
    if _long_key(text):
        raise tomllib.TOMLDecodeError(
            f"a dotted key of more than {MAX_KEY_PARTS} parts (a.b.c has 3); rollem's "
            "files use at most 3")
    try:
        return tomllib.loads(text, parse_float=parse_float)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:
        # tomllib calls int() on the digits as written; past the limit that is a
        # plain ValueError (no other ValueError leaves tomllib.loads)
        raise tomllib.TOMLDecodeError(
            f"a number with more than {sys.get_int_max_str_digits()} digits; amounts, "
            "seats and counts are far smaller") from None
