"""Uniform user-facing errors for the command line.

CLI.md: a usage error or bad input exits with status 2 and one line on
stderr that says what was wrong and what is allowed; no traceback. A
message that quotes a huge input is cut (:data:`MAX_MESSAGE` characters).
"""

from __future__ import annotations

import sys
from typing import NoReturn

USAGE_EXIT = 2

MAX_MESSAGE = 300
"""Longest error line printed; the middle of a longer one is cut."""


def cut(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` if at most ``limit`` characters, else its start and end with
    ``... [N characters cut] ...`` between (so a 2 MB bad input line is not
    echoed whole, and what is allowed, said at the end, still shows)."""
    if len(text) <= limit:
        return text
    keep = max(limit - 40, 20)
    head, tail = text[: keep * 2 // 3], text[-(keep // 3):]
    return f"{head} ... [{len(text) - len(head) - len(tail)} characters cut] ... {tail}"


def one_line(message: object, limit: int = MAX_MESSAGE) -> str:
    """Collapse ``message`` to a single line, cut to ``limit`` characters (default
    :data:`MAX_MESSAGE`), its control characters shown as ``^[`` and the like
    (:func:`rollem.text.terminal_safe`: a bad input quoted back cannot drive the
    terminal)."""
    from rollem.text import terminal_safe

    return cut(terminal_safe(" ".join(str(message).split())), limit)


def refusal(where: str, message: object, limit: int = MAX_MESSAGE) -> str:
    """``"WHERE: MESSAGE"`` on one line of at most ``limit`` characters: WHERE
    (a file, ``FILE[k]`` for a hand of a ``.phhs``) whole unless it alone
    would leave the message under 80 characters (then its middle is cut),
    the message cut at a word with ``" ..."`` (:func:`rollem.text.clip`),
    never in its middle."""
    from rollem.text import clip

    where = cut(" ".join(where.split()), max(limit - 82, 40))
    return f"{where}: {clip(str(message), limit - len(where) - 2)}"


def fail(message: object, limit: int = MAX_MESSAGE) -> NoReturn:
    """Print ``rollem: error: MESSAGE`` (one line, cut to ``limit`` characters:
    :func:`one_line`) to stderr and exit 2."""
    print(f"rollem: error: {one_line(message, limit)}", file=sys.stderr)
    raise SystemExit(USAGE_EXIT)
