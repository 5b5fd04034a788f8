"""The host closes the table for good (stop 59, s59-seat): the end of the night.

``{"type": "host", "op": "close", "confirm": true}`` (the page asks first: it
cannot be undone).  The hand in play is played to its end -- so is a hand being
dealt (its game being named by the button, its deck waiting for the seeds) --
and then no hand is dealt again: the table is *closed*.  A table the host paused
plays on (the pause is lifted: once closing, nobody could resume it).  Everyone's page shows
the final ledger, who pays whom and the download links; the history, the
ledger and the hands stay readable (and downloadable) for whoever holds the
link, as before.

Stored with the table (``session["ended"]``: ``{"by": the host's name, "at":
Unix seconds, "final": bool}``; ``final`` once no hand is in play), so a restart,
another process taking the table over, or a page opened a week later finds it
closed: nothing deals it again (the dealer's every way to a new hand stops at
:func:`stopped`), nobody sits down, and what would change the ledger is refused
(:data:`REFUSED`, code ``closed``: a rebuy, a top-up, a seat change, sitting out,
straddling, the host's tools and settings); the chat stays open.  While the
last hand plays a player may still leave (:func:`refuses`: one going home need
not wait for it; their chips stay on the ledger and in the settle-up, as at
any leave), and once closed the host still answers watch requests (a private
table's friends let in to see the settle-up).  A seat
change that waited for the hand in play is dropped at the close (its mover told
so, the seat it held free again).

Refusals of the close: ``malformed`` (``confirm`` is not ``true``), ``closed``
(already closed or closing), ``tournament`` (a started tournament ends when one
player holds every chip, or a deal is agreed), ``stand_in`` (a stand-in keeps
the table going; ending the night stays the host's).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rollem.server import host_tools
from rollem.server.live_table.errors import TableError

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

__all__ = ["REFUSED", "ask", "public", "refusal", "refuses", "settle", "stopped"]

REFUSED = ("start", "rebuy", "top_up", "seat_change", "sit_out", "straddle", "leave",
           "deal", "host")
"""Message types refused at a closed (or closing) table: each would deal again or
change the ledger.  Actions in the last hand, showing cards and the chat go on."""


def stopped(table: LiveTable) -> bool:
    """Whether the host closed the table (or is closing it: the last hand plays on)."""
    return table.session.get("ended") is not None


STILL_HOSTED = ("approve_watcher", "reject_watcher")
"""Host ops taken at a closed (or closing) table: they change nothing of the
ledger or the deal.  A private table's friends asked to see the settle-up, and
the host could not let them in (s60-table)."""


def refuses(table: LiveTable, kind: str, body: dict[str, Any]) -> bool:
    """Whether a message of type ``kind`` (``body``: its fields) is refused
    :func:`refusal` now: one of :data:`REFUSED` at a table the host closed or is
    closing, except a ``leave`` while the last hand plays (the leaver's seat is
    freed now, or when that hand ends, their chips kept on the ledger and in the
    settle-up as at any leave: s60-table) and the host's :data:`STILL_HOSTED`
    ops."""
    if kind not in REFUSED or not stopped(table):
        return False
    if kind == "leave":
        return bool(table.session["ended"].get("final"))
    return not (kind == "host" and body.get("op") in STILL_HOSTED)


def refusal(table: LiveTable) -> TableError:
    """The ``closed`` refusal of what :data:`REFUSED` lists, and of a sit-down."""
    ended = table.session.get("ended") or {}
    if not ended.get("final"):
        return TableError("closed", "the host is closing the table: the hand in play is "
                          "its last, and nothing else changes")
    return TableError("closed", "the host closed this table for good: no more hands are "
                      "dealt; its ledger and hand history stay readable")


in_play = host_tools.in_play
"""A hand in play, or one being dealt (the button naming its game, its deck
waiting for the seeds): :func:`rollem.server.host_tools.in_play`."""


def ask(table: LiveTable, name: str, body: dict[str, Any]) -> None:
    """The host (``name``: their seat's name, or "The host") closes the table; see
    the module.  Raises :class:`TableError` (nothing changes)."""
    if body.get("confirm") is not True:
        raise TableError("malformed", "closing the table cannot be undone: send "
                         "'confirm': true")
    if stopped(table):
        raise refusal(table)
    tourney = table.session.get("tournament")
    if tourney is not None and not tourney.get("over"):
        raise TableError("tournament", "a tournament ends when one player holds every chip "
                         "(or the last players agree a deal): close the table then")
    table.session["ended"] = {"by": name, "at": round(time.time()), "final": False}
    dropped = table.session.pop("seat_changes", None) or {}
    for key in dropped:  # (a seat change changes nothing now: s59-break saw one made)
        host_tools._tell(table, int(key), "seat_change", "your seat change was not made: "
                         "the host is closing the table, so nobody changes seats")
    table.session.pop("pause_after_hand", None)  # (the close says it: no hand after this)
    table.session.pop("bomb_pot_next", None)  # (no next hand: the felt said "bomb pot next
    # hand" at the closed table, s59-break)
    if table.session.get("host_paused"):  # the last hand plays on: nobody could resume it
        table.session["host_paused"] = False
        table.turns.release_clocks()
    settle(table, told=True)


def settle(table: LiveTable, told: bool = False) -> None:
    """Make a closing table closed once no hand is in play (the last hand ended, or
    none was): ``final`` stored, the deal coming cancelled; tell everyone.  Does
    nothing at a table not closing.  ``told``: the host just closed it (the state is
    saved and sent even while a hand plays on)."""
    ended = table.session.get("ended")
    if ended is None or (ended.get("final") and not told):
        return
    from rollem.server import host

    last = not in_play(table)
    if last and not ended.get("final"):
        ended["final"] = True
        table.dealer.stop()
    if last or told:
        words = (f"{ended['by']} closed the table: the night is over. The ledger is final."
                 if last else f"{ended['by']} is closing the table: this hand is the last.")
        sends = host._tell_table(table, words)
        table.turns.bump_seq()
        table.saving.commit(session=True)
        table.views.broadcast()
        table.saving.send_after_commit(sends)


def public(table: LiveTable) -> dict[str, Any] | None:
    """``ended`` of the table's state: ``{"by", "at", "final"}``, or ``None``."""
    ended = table.session.get("ended")
    return None if ended is None else {"by": ended["by"], "at": ended["at"],
                                       "final": bool(ended.get("final"))}
