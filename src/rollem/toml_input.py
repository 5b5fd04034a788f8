"""Reading TOML that comes from outside (a history, a PHH file, a game file,
a tournament schedule, a host's game file at the web table).

:func:`loads` is :func:`tomllib.loads` with one more refusal: an integer of
more digits than Python converts (``sys.get_int_max_str_digits()``, 4300 by
default) raises :class:`tomllib.TOMLDecodeError`, as any other bad TOML
does, where ``tomllib`` lets a plain ``ValueError`` out (a one-line file
``_button = 1000...0`` would otherwise be an internal error in the CLI and
an HTTP 500 at the web table).
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Callable
from typing import Any

__all__ = ["loads"]


def loads(text: str, *, parse_float: Callable[[str], Any] = float) -> dict[str, Any]:
    """``text`` read as TOML (as :func:`tomllib.loads`).

    Raises:
        tomllib.TOMLDecodeError: not valid TOML, or an integer of more than
            ``sys.get_int_max_str_digits()`` digits (the message says so).
        RecursionError: arrays or tables nested too deeply (as ``tomllib``;
            each caller names it).
    """
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
