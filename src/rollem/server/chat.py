"""Table chat: short text lines from seated players, read by everyone at the table.

A line is plain text (the browser shows it with ``textContent``, never as
HTML): control and format characters are removed, runs of white space are
folded, and it is at most :data:`MAX_CHARS` characters.  Each seat may send
:data:`BURST` lines at once and then one line every :data:`REFILL_SECONDS`
(a token bucket).  Watchers (no seat) read but do not write.  The last
:data:`KEEP` lines are kept with the table's session (stored), so a player
who reloads the page, or the table after a server restart, sees them again.
Muting a player is the reader's own choice and lives in that browser.
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BURST", "KEEP", "MAX_CHARS", "REFILL_SECONDS", "ChatError", "ChatLog", "clean_text"]

MAX_CHARS = 200
"""Longest chat line, in characters."""
BURST = 4
"""Lines a seat may send at once before the rate limit applies."""
REFILL_SECONDS = 2.0
"""Seconds until a seat may send one more line."""
KEEP = 100
"""Lines kept with the session."""


class ChatError(ValueError):
    """A chat line refused (``code``: ``bad_chat``, ``chat_rate`` or ``not_seated``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean_text(text: object) -> str:
    """The chat line to keep: control/format characters dropped, white space folded.

    Raises :class:`ChatError` (``bad_chat``) when ``text`` is not text, is empty
    after cleaning, or is longer than :data:`MAX_CHARS` characters.
    """
    if not isinstance(text, str):
        raise ChatError("bad_chat", "a chat line must be text")
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch in "\t\n")
    line = " ".join(kept.split())
    if not line:
        raise ChatError("bad_chat", "an empty chat line is not sent")
    if len(line) > MAX_CHARS:
        raise ChatError("bad_chat",
                        f"a chat line has at most {MAX_CHARS} characters, not {len(line)}")
    return line


@dataclass
class ChatLog:
    """The table's chat lines (``lines``: dicts ``{"id", "seat", "name", "text", "t"}``,
    ``t`` in Unix seconds) and each seat's rate-limit bucket (in memory only)."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    _buckets: dict[int, tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def from_session(cls, session: dict[str, Any]) -> ChatLog:
        return cls(list(session.get("chat", []))[-KEEP:])

    def add(self, seat: int, name: str, text: object, now: float | None = None) -> dict[str, Any]:
        """Add ``seat``'s line; returns it.  Raises :class:`ChatError` (nothing changes)
        when the text is refused or the seat is over its rate (``chat_rate``)."""
        now = time.time() if now is None else now
        line = clean_text(text)
        tokens, last = self._buckets.get(seat, (float(BURST), now))
        tokens = min(float(BURST), tokens + (now - last) / REFILL_SECONDS)
        if tokens < 1.0:
            wait = (1.0 - tokens) * REFILL_SECONDS
            raise ChatError("chat_rate", f"slow down: one line every {REFILL_SECONDS:g} s "
                            f"(next in {wait:.1f} s)")
        self._buckets[seat] = (tokens - 1.0, now)
        number = (self.lines[-1]["id"] + 1) if self.lines else 1
        entry = {"id": number, "seat": seat, "name": name, "text": line, "t": round(now, 3)}
        self.lines.append(entry)
        del self.lines[:-KEEP]
        return entry

    def notice(self, text: str, now: float) -> dict[str, Any]:
        """Add a line of the table itself (``seat`` ``None``, ``notice`` true: the host
        role passing, :mod:`rollem.server.live_table.host_role`), not rate-limited
        (the server writes it, never a client); returns it."""
        number = (self.lines[-1]["id"] + 1) if self.lines else 1
        entry = {"id": number, "seat": None, "name": "", "text": text, "t": round(now, 3),
                 "notice": True}
        self.lines.append(entry)
        del self.lines[:-KEEP]
        return entry
