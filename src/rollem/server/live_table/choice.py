"""The dealer's choice of a live table: who is naming the game, its clock
(held while the host pauses the table), and dealing the chosen game to the
players it was offered for.

Methods of :class:`~rollem.server.live_table.LiveTable`, written here as
functions of ``self`` and bound in its class body (one class, one state).

Rules: R-C-12 (the button names the game among those that fit the players
dealt in; a computer player picks uniformly), R-C-15 (a lapsed or timed-out
choice picks a game at random).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rollem.server import host
from rollem.table import DEALERS_CHOICE, Deal

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable


def chooser(self: LiveTable) -> int | None:
    """The seat naming the game of the pending dealer's choice (R-C-12), while
    the player it was offered to still sits there and plays: whoever takes the
    seat later inherits nothing.  ``None`` when no choice is open."""
    choice = self.open_choice()
    if choice is None:
        return None
    number = int(choice["seat"])
    seat = self.seats.get(number)
    if (seat is None or seat.gone
            or seat.row.token_digest != choice.get("digest", seat.row.token_digest)):
        return None
    return number


def open_choice(self: LiveTable) -> dict[str, Any] | None:
    """The pending dealer's choice while its game is still to be named (once
    named during the host's pause, the deal waits for resume: ``game``)."""
    choice: dict[str, Any] | None = self.session.get("choice")
    return choice if choice and "game" not in choice else None


def public_choice(self: LiveTable) -> dict[str, Any] | None:
    """The pending dealer's choice as every player sees it: ``hand``, ``seat``,
    ``games``, ``players`` (never the chooser's token digest)."""
    choice = self.session.get("choice")
    if not choice:
        return None
    return {k: v for k, v in choice.items() if k not in ("digest", "digests", "used")}


def choice_lapses(self: LiveTable, number: int) -> bool:
    """Seat ``number`` was freed, removed or sat out: if it was naming the game
    of the pending dealer's choice, its decision times out at once (R-C-15)
    -- a game is picked at random, as when its clock runs out, and the
    button moves on to the next seat dealt in (R-C-12; the seat is not dealt
    in).  Returns whether it lapsed."""
    choice = self.open_choice()
    if choice is None or int(choice["seat"]) != number or self.hand is not None:
        return False
    self._choose(None)  # (picked at random once the client seeds are in)
    return True


def hold_choice_clock(self: LiveTable) -> None:
    """The host has paused the table (``session["host_paused"]`` set): the
    button's clock for naming the game stops (R-C-15), its time used so far
    kept in the stored choice (``used``, seconds) for
    :meth:`release_choice_clock`.  The button may still name the game."""
    choice = self.open_choice()
    if choice is None:
        return
    opened = self.turns.decision_opened.get(int(choice["seat"]))
    if opened is not None:  # (none when already held)
        choice["used"] = max(0.0, self.clock() - opened)
    self.turns.refresh_decisions()  # closes it


def release_choice_clock(self: LiveTable) -> None:
    """The host has resumed the table (``host_paused`` cleared): the button's
    clock for naming the game goes on with the time it had left when the pause
    stopped it (a pause neither costs nor gives the button time: pausing
    twice is no way to a fresh clock) (R-C-15)."""
    choice = self.open_choice()
    if choice is None or int(choice["seat"]) in self.turns.decision_seq:
        return
    opened = self.clock() - float(choice.pop("used", 0.0))
    self.session["opened_at"] = opened  # (a restart counts from it too)
    self.turns.refresh_decisions(opened=opened)


def _choose(self: LiveTable, game: str | None) -> None:
    """Deal the hand of the pending dealer's choice as ``game`` (R-C-12), or
    ``None``: a game picked at random (a computer player's pick, or the clock's,
    R-C-15) among those offered that the table still offers, after the client
    seeds (issue 32: :func:`~rollem.server.live_table.hands._deal`).

    Only the players the choice was offered for are dealt in (the games
    offered fit that many): seats that left or sat out since are not, and
    a newcomer who sat down meanwhile -- in a free seat or in the seat of
    one who left -- waits for the next hand, as one who sits down during a
    hand.  If the button itself left or sat out, the button moves to the
    next seat dealt in.  With
    fewer than two players left, the choice lapses and the table deals
    again when it can.  While the host has paused the table the game is
    kept (``choice["game"]``) and dealt at resume.
    """
    choice = self.session["choice"]
    if self.session.get("host_paused"):
        choice["game"] = game
        self.turns.bump_seq()
        self.saving.commit(session=True)
        self.turns.refresh_decisions()
        self.views.broadcast()
        return
    self.session["choice"] = None
    # The host's changes made since the last deal apply to this one (issue 27: a
    # change made while the button chose, or while paused, is not a hand late).
    # If the table no longer offers the named game, the choice lapses and the
    # table deals anew under its new settings.
    host.apply_pending_config(self)
    offered_games = [g for g in choice["games"] if g in self.config.choices]
    if game is None and len(offered_games) == 1:
        game = offered_games[0]  # (nothing left to pick from)
    if (self.config.game != DEALERS_CHOICE or not offered_games
            or (game is not None and game not in self.config.choices)):
        # (the same button deals, or names again: the next deal starts from it)
        self.session["button"] = (int(choice["seat"]) - 1) % self.config.seats
        self.turns.bump_seq()
        self.saving.commit(session=True)
        self.turns.refresh_decisions()
        self.views.broadcast()
        self._schedule_next_hand(0.0)
        return
    # The session deals the players it was offered for, less those that left or
    # sat out since; the button moves on if it left (Table.deal).
    offered = Deal(int(choice["seat"]), tuple(int(p) for p in choice["players"]),
                   tuple(self.config.game_of(g) for g in choice["games"]))
    table = self.session_table(
        out={s for s in range(self.config.seats) if s not in self.seats
             or self._taken_since(choice, s) or self.seats[s].gone
             or host.skip_deal(self, s)})
    if len(table.still_dealt_in(offered)) < 2:
        self.turns.bump_seq()
        self.saving.commit(session=True)
        self.turns.refresh_decisions()
        self.views.broadcast()
        self._schedule_next_hand(self.config.between_hands)
        return
    self._deal(int(choice["hand"]), game, table, offered,
               pick=offered_games if game is None else None)


def _taken_since(self: LiveTable, choice: dict[str, Any], seat: int) -> bool:
    """Whether ``seat``, one of the players ``choice`` was offered for, is held
    by someone else now: a newcomer who took the seat of one who left (a
    choice stored without the players' digests knows only the seats)."""
    players = [int(p) for p in choice["players"]]
    digests = choice.get("digests")
    if seat not in players or digests is None:
        return False
    return bool(self.seats[seat].row.token_digest != digests[players.index(seat)])
