"""Reading a text file a user names (a game file, a hand history), bounded.

The size a file reports is not trusted: a device (``/dev/zero``) reports 0
bytes and never ends, a pipe blocks until someone writes, a file may grow
while it is read. :func:`read_user_text` opens without blocking, refuses
anything but a regular file, and reads at most ``limit + 1`` bytes, so a
file over the limit is refused after reading just past it.

Every place that reads a file a user names goes through it:
``rollem check-game`` and ``--game-file`` (:func:`rollem.games.gamefile.
load_game_file`), ``rollem replay`` and ``rollem odds --history``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["MAX_HISTORY_BYTES", "UserFileError", "read_user_text"]

MAX_HISTORY_BYTES = 1024 * 1024
"""The largest hand history read (1 MiB; a long no-limit hand of ten players
is a few KB)."""

_BLOCK = 64 * 1024


class UserFileError(ValueError):
    """A file that cannot be read as asked; the message is one line that
    starts with the path and says what was wrong."""


def read_user_text(path: str | Path, limit: int, *, encoding: str = "utf-8") -> str:
    """The text of the regular file at ``path``, at most ``limit`` bytes, its
    line ends read as ``\n`` (as :meth:`pathlib.Path.read_text` does).

    Args:
        path: the file the user named.
        limit: the most bytes allowed (a larger file is refused).
        encoding: its text encoding (``"utf-8-sig"`` reads a byte order mark
            as none).

    Raises:
        UserFileError: ``PATH: cannot read: ...`` (missing, no permission),
            ``PATH: not a regular file ...`` (a folder, a device, a pipe),
            ``PATH: larger than LIMIT bytes``, ``PATH: not UTF-8 text``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: opening a pipe does not wait
    except OSError as err:
        raise UserFileError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UserFileError(f"{path}: not a regular file (a folder, a device or a pipe); "
                                "give a file")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(_BLOCK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise UserFileError(f"{path}: cannot read: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise UserFileError(f"{path}: larger than {limit} bytes")
    try:
        text = b"".join(chunks).decode(encoding)
    except UnicodeDecodeError:
        raise UserFileError(f"{path}: not UTF-8 text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as Path.read_text reads lines
