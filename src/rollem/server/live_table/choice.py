"""The dealer's choice of a live table: who is naming the game, its clock
(held while the host pauses the table), and dealing the chosen game to the
players it was offered for.  :class:`DealersChoice` is the table's part
that runs it.

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


class DealersChoice:
    """The dealer's choice of one table (R-C-12).

    Its state is stored, in the table's session: ``session["choice"]`` (see
    :class:`~rollem.server.live_table.LiveTable`); it keeps none in memory.
    In these methods ``live`` is the table (``table`` names the session's
    :class:`rollem.table.Table`, the model of its rules).

    Takes from its ``table``: ``config``, ``session``, ``seats``, ``hand``,
    ``clock``; the open decision's clock from ``table.turns``
    (``decision_opened``, ``decision_seq``, ``refresh_decisions``,
    ``bump_seq``); writes with ``table.saving``, tells with
    ``table.views``; deals with ``table.dealer`` (``session_table``,
    ``schedule_next_hand``) and ``table.seeding.commit_deal``; the host's
    pending settings and skipped seats from :mod:`rollem.server.host`.
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table

    def chooser(self) -> int | None:
        """The seat naming the game of the pending dealer's choice (R-C-12), while
        the player it was offered to still sits there and plays: whoever takes the
        seat later inherits nothing.  ``None`` when no choice is open."""
        live = self.table
        choice = self.open_choice()
        if choice is None:
            return None
        number = int(choice["seat"])
        seat = live.seats.get(number)
        if (seat is None or seat.gone
                or seat.row.token_digest != choice.get("digest", seat.row.token_digest)):
            return None
        return number

    def open_choice(self) -> dict[str, Any] | None:
        """The pending dealer's choice while its game is still to be named (once
        named during the host's pause, the deal waits for resume: ``game``)."""
        live = self.table
        choice: dict[str, Any] | None = live.session.get("choice")
        return choice if choice and "game" not in choice else None

    def public_choice(self) -> dict[str, Any] | None:
        """The pending dealer's choice as every player sees it: ``hand``, ``seat``,
        ``games``, ``players`` (never the chooser's token digest)."""
        live = self.table
        choice = live.session.get("choice")
        if not choice:
            return None
        return {k: v for k, v in choice.items() if k not in ("digest", "digests", "used")}

    def choice_lapses(self, number: int) -> bool:
        """Seat ``number`` was freed, removed or sat out: if it was naming the game
        of the pending dealer's choice, its decision times out at once (R-C-15)
        -- a game is picked at random, as when its clock runs out, and the
        button moves on to the next seat dealt in (R-C-12; the seat is not dealt
        in).  Returns whether it lapsed."""
        live = self.table
        choice = self.open_choice()
        if choice is None or int(choice["seat"]) != number or live.hand is not None:
            return False
        self.choose(None)  # (picked at random once the client seeds are in)
        return True

    def hold_choice_clock(self) -> None:
        """The host has paused the table (``session["host_paused"]`` set): the
        button's clock for naming the game stops (R-C-15), its time used so far
        kept in the stored choice (``used``, seconds) for
        :meth:`release_choice_clock`.  The button may still name the game."""
        live = self.table
        choice = self.open_choice()
        if choice is None:
            return
        opened = live.turns.decision_opened.get(int(choice["seat"]))
        if opened is not None:  # (none when already held)
            choice["used"] = max(0.0, live.clock() - opened)
        live.turns.refresh_decisions()  # closes it

    def release_choice_clock(self) -> None:
        """The host has resumed the table (``host_paused`` cleared): the button's
        clock for naming the game goes on with the time it had left when the pause
        stopped it (a pause neither costs nor gives the button time: pausing
        twice is no way to a fresh clock) (R-C-15)."""
        live = self.table
        choice = self.open_choice()
        if choice is None or int(choice["seat"]) in live.turns.decision_seq:
            return
        opened = live.clock() - float(choice.pop("used", 0.0))
        live.session["opened_at"] = opened  # (a restart counts from it too)
        live.turns.refresh_decisions(opened=opened)

    def choose(self, game: str | None) -> None:
        """Deal the hand of the pending dealer's choice as ``game`` (R-C-12), or
        ``None``: a game picked at random (a computer player's pick, or the clock's,
        R-C-15) among those offered that the table still offers, after the client
        seeds (issue 32: :meth:`Seeding.commit_deal`).

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
        live = self.table
        choice = live.session["choice"]
        if live.session.get("host_paused"):
            choice["game"] = game
            live.turns.bump_seq()
            live.saving.commit(session=True)
            live.turns.refresh_decisions()
            live.views.broadcast()
            return
        live.session["choice"] = None
        # The host's changes made since the last deal apply to this one (issue 27: a
        # change made while the button chose, or while paused, is not a hand late).
        # If the table no longer offers the named game, the choice lapses and the
        # table deals anew under its new settings.
        host.apply_pending_config(live)
        offered_games = [g for g in choice["games"] if g in live.config.choices]
        if game is None and len(offered_games) == 1:
            game = offered_games[0]  # (nothing left to pick from)
        if (live.config.game != DEALERS_CHOICE or not offered_games
                or (game is not None and game not in live.config.choices)):
            # (the session's button never moved for this choice: the same button
            # deals, or names again, if still dealt in; R-C-12)
            live.dealer.deal_lapsed(0.0)
            return
        # The session deals the players it was offered for, less those that left or
        # sat out since; the button moves on if it left (Table.deal).
        offered = Deal(int(choice["seat"]), tuple(int(p) for p in choice["players"]),
                       tuple(live.config.game_of(g) for g in choice["games"]))
        table = live.dealer.session_table(
            out={s for s in range(live.config.seats) if s not in live.seats
                 or self.taken_since(choice, s) or live.seats[s].gone
                 or host.skip_deal(live, s)})
        if len(table.still_dealt_in(offered)) < 2:
            live.dealer.deal_lapsed(live.config.between_hands)
            return
        live.seeding.commit_deal(int(choice["hand"]), game, table, offered,
                                 pick=offered_games if game is None else None)

    def taken_since(self, choice: dict[str, Any], seat: int) -> bool:
        """Whether ``seat``, one of the players ``choice`` was offered for, is held
        by someone else now: a newcomer who took the seat of one who left (a
        choice stored without the players' digests knows only the seats)."""
        live = self.table
        players = [int(p) for p in choice["players"]]
        digests = choice.get("digests")
        if seat not in players or digests is None:
            return False
        return bool(live.seats[seat].row.token_digest != digests[players.index(seat)])
