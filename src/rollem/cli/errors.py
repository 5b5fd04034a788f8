"""Uniform user-facing errors for the command line.

CLI.md: a usage error or bad input exits with status 2 and one line on
stderr that says what was wrong and what is allowed; no traceback.
"""

from __future__ import annotations

import sys
from typing import NoReturn

USAGE_EXIT = 2


def one_line(message: object) -> str:
    """Collapse ``message`` to a single line."""
    return " ".join(str(message).split())


def fail(message: object) -> NoReturn:
    """Print ``rollem: error: MESSAGE`` (one line) to stderr and exit 2."""
    print(f"rollem: error: {one_line(message)}", file=sys.stderr)
    raise SystemExit(USAGE_EXIT)
