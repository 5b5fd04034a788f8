"""A server's disk budget (issue 34): how fast a table may deal, and how much its
hands may store.

Computer players decide in milliseconds, so a table where only they play (a
person seated but folding every hand, or only the clock acting) can deal
several hands a second and fill the disk (about 2 GB an hour measured with 10
players at two tables).  A :class:`DiskBudget`, one per server (``rollem
serve`` options, ``docs/hosting.md``), bounds that:

- a *floor on the time per hand*: a table deals its next hand no sooner than
  :attr:`DiskBudget.hand_seconds` after it dealt the last, and
  :attr:`DiskBudget.unattended_hand_seconds` when no person made a decision
  in the last hand other than folding (the host may set a slower floor for
  the table: ``hand_seconds`` of its configuration);
- a table where no person has made such a decision for
  :attr:`DiskBudget.unattended_seconds` stops dealing, saying why, until a
  person sits down or the host deals again (and, never played by a person,
  it is deleted as a table never played at:
  :meth:`rollem.server.manager.TableManager.delete_old`);
- *storage limits*: a table whose stored hands (the lengths of their
  stored setups, actions, events and results, counted as they are written:
  ``tables.stored``) reach :attr:`DiskBudget.table_bytes`, or any table once
  every table's together reach :attr:`DiskBudget.server_bytes`, deals no more
  hands; the felt says why (:meth:`DiskBudget.refusal`).

The default :class:`DiskBudget` sets no bound (a table made outside a server:
tests, tools); a server's comes from :class:`rollem.server.config.ServerSettings`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["DiskBudget", "megabytes"]


def megabytes(n: int) -> str:
    """``n`` bytes in words: ``"64 MB"``, ``"1.5 GB"`` (decimal units)."""
    if n >= 10**9:
        return f"{n / 10**9:.3g} GB"
    return f"{n / 10**6:.3g} MB"


@dataclass(slots=True)
class DiskBudget:
    """One server's bounds on dealing and storing hands (see the module docstring).

    Times in seconds, sizes in bytes; ``used`` is kept by the server's
    :class:`~rollem.server.manager.TableManager` (the stored bytes of every table,
    read from the store at each sweep, plus what its tables wrote since).
    """

    hand_seconds: float = 0.0
    """Least seconds from one deal to the next at every table."""
    unattended_hand_seconds: float = 0.0
    """Least seconds from one deal to the next when no person made a decision in
    the last hand other than folding (computer players and the clock played it)."""
    unattended_seconds: float = math.inf
    """A table stops dealing when no person has made such a decision for this long."""
    table_bytes: int | None = None
    """Most bytes of stored hands per table (``None``: no limit)."""
    server_bytes: int | None = None
    """Most bytes of stored hands of all tables together (``None``: no limit)."""
    used: int = 0
    """Bytes of stored hands of all tables (see the class docstring)."""

    def floor(self, attended: bool, table_floor: float = 0.0) -> float:
        """Least seconds from a deal to the next: :attr:`hand_seconds`, or
        :attr:`unattended_hand_seconds` when no person played the hand
        (``attended`` false), or the table's own ``table_floor`` if longer."""
        least = self.hand_seconds if attended else max(self.hand_seconds,
                                                       self.unattended_hand_seconds)
        return max(least, table_floor)

    def refusal(self, stored: int) -> str | None:
        """Why a table that stored ``stored`` bytes of hands may deal no more, in
        words for the felt (the host reads it there), or ``None`` when it may."""
        if self.table_bytes is not None and stored >= self.table_bytes:
            return (f"No more hands: this table has stored {megabytes(stored)} of hands, "
                    f"the most this server keeps for one table "
                    f"({megabytes(self.table_bytes)}). The host can start a new table.")
        if self.server_bytes is not None and self.used >= self.server_bytes:
            return (f"No more hands: the server's storage for hands is full "
                    f"({megabytes(self.server_bytes)}). Hands are dealt again once old "
                    "tables are deleted; whoever runs the server can allow more.")
        return None
