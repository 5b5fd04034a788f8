"""Whether the command line may print colour: never with ``--no-color`` or
when the ``NO_COLOR`` environment variable is set to anything but the empty
string (no-color.org), and only on a terminal."""

from __future__ import annotations

import os

__all__ = ["colour_allowed"]


def colour_allowed(*, no_color_flag: bool, terminal: bool) -> bool:
    """True when colour may be printed: a terminal, no ``--no-color``, no ``NO_COLOR``."""
    return terminal and not no_color_flag and not os.environ.get("NO_COLOR", "")
