"""Dealing and finishing the hands of a live table: who is dealt in (through
:meth:`Dealer.session_table`, the one model of the table's rules), the next
deal and its timer, settling stacks and carried chips, rebuys, and why a
started table is waiting.  :class:`Dealer` is the table's part that deals;
the secure deal itself (the deck committed, then the client seeds) is
:class:`~rollem.server.live_table.seeding.Seeding`'s.

Rules: R-C-12 (button, who is dealt in, rebuys, the games that fit),
R-521-9 (chips carried into the next hand); issue 32 (the deck committed
before the client seeds, then dealt from both: :meth:`Seeding.commit_deal`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from rollem.server import host, host_tools, live_table, night_close, seat_moves
from rollem.server.game_session import GameSession
from rollem.server.live_table.errors import TableError, fault_without_cards
from rollem.server.live_table.seeding import note_offered, out_at_deal
from rollem.table import DEALERS_CHOICE
from rollem.table import Table as SessionTable
from rollem.table import TableError as SessionRefused

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


DEAL_SOON = 0.2
"""Seconds from a change that lets a waiting table deal (a join, a rebuy, a
player back, the host's resume, approval or deal now) to the deal."""


class Dealer:
    """Deals the hands of one table and finishes them.

    Owns :attr:`next_hand_timer` (the deal coming, or ``None``).  The hand in
    play, the last finished hand and its result stay the table's own
    (``table.hand``, ``table.final_hand``, ``table.last_result``: every part
    reads them); this part sets them.  In these methods ``live`` is the table
    (``table`` names the session's :class:`rollem.table.Table`).

    Takes from its ``table``: ``id``, ``config``, ``session``, ``seats``,
    ``hand``, ``closed``; it asks ``table.pace`` (the floor, why it stopped),
    ``table.tourney``, ``table.dealers_choice`` and
    :mod:`rollem.server.host` / :mod:`~rollem.server.host_tools` (the host's
    pending settings, skipped seats, rebuy policy); deals with
    ``table.seeding``, opens decisions with ``table.turns``, frees the seats
    of players gone with ``table.seating``, writes with ``table.saving`` and
    tells with ``table.views``.
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.next_hand_timer: asyncio.TimerHandle | None = None
        self.next_deal_at: float | None = None
        """When the deal coming is due (``table.clock()`` seconds), or ``None``."""

    def restore_final_off_loop(self, hand_no: int, setup: dict[str, Any],
                               actions: list[Any]) -> None:
        """Replay the last finished hand of a costly game (its showdown may take
        seconds: a stored file accepted before the bound of issue 34) in the
        showdown thread, then show it on the felt (``table.final_hand``) if no
        hand came since."""
        live = self.table
        fut = asyncio.wrap_future(live_table._SHOWDOWN_THREAD.submit_for(
            live.id, GameSession.restore, hand_no, setup, actions))

        def done(f: asyncio.Future[GameSession]) -> None:
            if f.cancelled() or live.closed:
                return
            error = f.exception()
            if error is not None:  # (cards as ??: the fault's words may quote hidden cards,
                log.error("table %s: hand %s could not be replayed\n%s",  # s64-loop2)
                          live.id, hand_no, fault_without_cards(error))
                return
            if live.hand is None and live.final_hand is None and (
                    live.last_result or {}).get("hand") == hand_no:
                live.final_hand = f.result()
                live.views.broadcast()

        fut.add_done_callback(done)

    def stop(self) -> None:
        """Cancel the deal coming, if any (the table stops its timers)."""
        if self.next_hand_timer is not None:
            self.next_hand_timer.cancel()
        self.next_hand_timer = None
        self.next_deal_at = None

    def schedule_next_hand(self, delay: float) -> None:
        """Deal the next hand in ``delay`` seconds (replacing a deal already coming),
        never before the floor on the time per hand allows
        (:meth:`~rollem.server.live_table.pace.Pace.floor_left`, issue 34)."""
        live = self.table
        if self.next_hand_timer is not None:
            self.next_hand_timer.cancel()
        wait = max(delay, live.pace.floor_left())
        self.next_hand_timer = asyncio.get_running_loop().call_later(wait, self._maybe_start_hand)
        self.next_deal_at = live.clock() + wait

    def next_deal(self) -> float | None:
        """When the next hand is dealt (``table.clock()`` seconds, to 0.1 s), for the
        felt's "Next hand in N s" (stop 53: between hands it said only "Hand 1 is
        over." until the deal): only between the hands of a started table with a
        deal coming, not paused by the host, no game being named, no deal waiting
        for its seeds; else ``None``.  (A table waiting for something,
        :meth:`waiting_for`, says that instead: the caller leaves it out there.)"""
        live = self.table
        at = self.next_deal_at
        if (at is None or self.next_hand_timer is None or not live.session.get("started")
                or live.hand is not None or live.session.get("choice")
                or live.session.get("seeding") or live.session.get("host_paused")):
            return None
        return round(at, 1)

    def deal_lapsed(self, delay: float) -> None:
        """No hand is dealt this time (fewer than two players are still dealt in, the
        button's choice lapsed, the engine refused the deal): the table's state moves
        on (``seq``), is committed and sent to every client, and the next deal is
        tried in ``delay`` seconds (:meth:`schedule_next_hand`).  Used by
        :class:`~rollem.server.live_table.choice.DealersChoice` and
        :class:`~rollem.server.live_table.seeding.Seeding`, which have already
        cleared their own state in ``session``.

        Nothing of the deal that never came stays (s65-table): the button, the
        bomb-pot count and call, the chips carried, the tournament's add-on window
        are written only when a hand is dealt (:meth:`Seeding._dealt`), so the next
        deal is the one this would have been (R-C-12: the button moves only with a
        hand dealt); the seats held at its offer are forgotten, and the seat changes
        asked meanwhile are made (:func:`~rollem.server.seat_moves.moves_after_hand`)."""
        live = self.table
        # (no offer stands: a newcomer seated before the same hand is offered again
        # is one who sat down before it, s65; host_tools.delayed_viewer)
        live.session.pop("seated_at_offer", None)
        live.tourney.hand_ended()  # (a deal proposed meanwhile is worked out now)
        live.turns.bump_seq()
        live.saving.commit(session=True)
        live.turns.refresh_decisions()
        self.schedule_next_hand(delay)  # (before: its time is in the state)
        # (seat changes asked while this deal was being made waited for its hand's
        # end: no hand came, so they are made now, s73-night)
        seat_moves.moves_after_hand(live)
        live.views.broadcast()

    def deal_soon(self) -> None:
        """A change may let a waiting table deal (a player sat down, rebought, came
        back, was approved; the host resumed): deal in :data:`DEAL_SOON` seconds if
        no deal is coming.  The pause between hands already running is never cut
        short by it (issue 34): only the host's ``deal_now`` does
        (:meth:`deal_now`)."""
        live = self.table
        if (live.session.get("started") and live.hand is None
                and self.next_hand_timer is None):
            self.schedule_next_hand(DEAL_SOON)

    def deal_now(self) -> None:
        """The host's "deal now": end the pause between hands and deal in
        :data:`DEAL_SOON` seconds (no sooner than the floor on the time per hand,
        :meth:`Pace.floor_left`).  Also deals again at a table that stopped because no
        person played for a while (:meth:`unattended_stop`).

        Raises :class:`TableError`: ``not_started``, ``in_hand`` (a hand is in
        play, or the button is naming its game), ``host_paused`` (resume first).
        """
        live = self.table
        self.check_deal_now()
        live.pace.attended()
        self.schedule_next_hand(DEAL_SOON)

    def check_deal_now(self) -> None:
        """Raise the :class:`TableError` that refuses the host's "deal now" now
        (:meth:`deal_now`), or nothing."""
        live = self.table
        if not live.session.get("started"):
            raise TableError("not_started", "the game has not started; start it first")
        if live.hand is not None or live.session.get("choice") or live.session.get("seeding"):
            raise TableError("in_hand", "a hand is in play; deal now ends the pause between hands")
        if live.session.get("host_paused"):
            raise TableError("host_paused", "the table is paused; resume it to deal")

    def _waiting_for(self, table: SessionTable) -> str | None:
        """Why the session ``table`` cannot deal its next hand, in words for the
        felt; ``None`` when it can: its reasons (R-C-12:
        :meth:`~rollem.table.Table.why_no_deal`), and this table's own -- a storage
        limit reached, or no person played for a while (:meth:`Pace.why_stopped`), and
        computer players do not play on alone here."""
        live = self.table
        if night_close.stopped(live):
            return "The host closed the table: the night is over."
        stopped = live.pace.why_stopped()  # a storage limit, or no person plays (issue 34)
        if stopped is not None:
            return stopped
        stopped = live.tourney.waiting()  # over, or a deal being agreed (issue 28)
        if stopped is not None:
            return stopped
        refusal = table.why_no_deal()
        if refusal is not None and refusal.code == "no_players":
            return ("Waiting for players: the next hand needs at least two with chips "
                    "who are not sitting out.")
        players = table.dealt_in()
        if all(live.seats[s].row.bot is not None for s in players) and table.tournament is None:
            # (computer players do not play on alone: the table waits for people; a
            # tournament's play the tournament out, issue 28)
            return "Waiting for a person: computer players do not play alone."
        if refusal is not None:
            return (f"Waiting: no game of this table deals {len(players)} players; "
                    "one must leave or sit out.")
        return None

    def waiting_for(self) -> str | None:
        """Why a started table deals no hand now, or ``None`` (a hand is on, the button
        is naming the game, the host paused it, or the next deal is coming)."""
        live = self.table
        if (not live.session.get("started") or live.hand is not None
                or live.session.get("choice") or live.session.get("seeding")
                or live.session.get("host_paused")):
            return None
        table = self.session_table()  # (a copy: the rebuys below are only counted)
        table.rebuy_broke()
        return self._waiting_for(table)

    def session_table(self, out: set[int] | None = None) -> SessionTable:
        """This table's session as a :class:`rollem.table.Table`, the one model of
        its rules (R-C-12): who is dealt in, the button, the games that fit, rebuys
        (computer players rebuy by themselves, people ask) and carried chips.

        Built from what is stored (the seats' rows: stacks and chips brought; the
        session: the last button, the chips carried), so a restored table decides
        exactly as before; what it changes is written back by the caller.

        Args:
            out: seats not dealt in (default: free seats, and seats leaving,
                sitting out, waiting for the host's approval, or waiting for
                the big blind after a seat change while it has not reached
                them: :func:`~rollem.server.seat_moves.dealt_in_waiters`, which
                then also says where the button goes from).  The button
                goes to the seat after the last hand's button, or the next one
                dealt in.
        """
        live = self.table
        config = live.config
        n = config.seats
        rows = {number: seat.row for number, seat in live.seats.items()}
        sit_and_go = live.tourney.tournament()
        last = live.session.get("button")
        button = 0 if last is None else int(last) + 1
        stacks = [rows[s].stack if s in rows else 0 for s in range(n)]
        if out is None:
            # (a tournament deals its entrants in even while they sit out or are away:
            # their hands are folded and their antes and blinds posted, issue 28)
            out = {s for s in range(n) if s not in rows or live.seats[s].gone
                   or (host.skip_deal(live, s) and sit_and_go is None)}
            # (a seat change that skipped the blinds waits for the big blind: out until
            # it reaches the new seat, the button going where it goes without them)
            waiting, button = seat_moves.dealt_in_waiters(live, stacks, out, button)
            out |= waiting
        table = SessionTable(
            stacks,
            game=(DEALERS_CHOICE if config.game == DEALERS_CHOICE
                  else config.game_of(config.game)),
            games=[config.game_of(g) for g in config.choices],
            options=GameSession.options_for(config),
            button=button,
            rebuy=config.stack if config.rebuys else None,
            auto_rebuy=lambda s: s in rows and rows[s].bot is not None,
            out=out,
            brought=[rows[s].brought if s in rows else 0 for s in range(n)],
            carry=int(live.session.get("carried", 0)),
            by_id=False,  # the host's order
            straddlers=[s for s in live.session.get("straddlers", []) if s in rows],
            bomb_pot_every=config.bomb_pot_every,
            bomb_pot_next=bool(live.session.get("bomb_pot_next")),
            bomb_pot_ante=config.bomb_pot_ante or None,
            # (a void hand counts as none: LiveTable._void_hand)
            hands=max(0, int(live.session.get("hand_no", 0))
                      - int(live.session.get("void_hands", 0))),
            tournament=sit_and_go,
        )
        if live.hand is not None:
            table.hand = live.hand.hand
        return table

    def shown_button(self) -> int | None:
        """The button as the table's state shows it (``table.button``, a seat number;
        R-C-12): the seat that deals the next hand once that hand is under way --
        the seat naming the game of a pending dealer's choice (``session["choice"]``,
        also once named during the host's pause), or the button of a deal waiting
        for client seeds (``session["seeding"]``, issue 32) -- else the last dealt
        hand's (``session["button"]``, stored at the deal: a lapsed choice moves
        nothing).  ``None`` before the first deal is offered.  Before s66-table a
        pending choice showed the last hand's button, not the chooser's seat."""
        session = self.table.session
        choice, seeding = session.get("choice"), session.get("seeding")
        if choice:
            return int(choice["seat"])
        if seeding:
            return int(seeding["button"])
        button = session.get("button")
        return None if button is None else int(button)

    def dealt_in(self) -> list[int]:
        """Seats to deal the next hand: chips, not leaving (R-C-12)."""
        return self.session_table().dealt_in()

    def _maybe_start_hand(self) -> None:
        live = self.table
        self.next_hand_timer = None
        self.next_deal_at = None
        if (live.closed or live.saving.halted or not live.session.get("started")
                or live.hand is not None):
            return
        if live.turns.defer(self.deal_soon):  # a deal, or a hand replayed, off the loop:
            return  # (tried again once it is back, if nothing dealt meanwhile)
        if live.session.get("seeding"):  # the committed deal: the seeds are in, or their time
            if live.session.get("host_paused"):
                live.views.broadcast()  # (dealt at resume)
                return
            live.seeding.deal_seeded()
            return
        choice = live.session.get("choice")
        if choice:
            if "game" in choice and not live.session.get("host_paused"):
                live.dealers_choice.choose(choice["game"])  # named during the pause: deal it now
            return
        if night_close.stopped(live):  # closed for good (stop 59): no hand again
            night_close.settle(live)
            live.views.broadcast()
            return
        if live.session.get("host_paused"):
            live.views.broadcast()
            return
        if live.tourney.settle_computers():  # every person out (s63-table): placed by chips
            return
        if live.tourney.begin_break():  # a level with a break ended (stop 59): no deal
            return
        host.apply_pending_config(live)
        table = self.session_table()
        rebought = table.rebuy_broke()  # computer players with no chips
        if rebought:
            for number in rebought:
                row = live.seats[number].row
                row.stack, row.brought = table.stacks[number], table.brought[number]
            live.saving.commit(seats=[live.seats[number].row for number in rebought])
        if self._waiting_for(table) is not None:
            live.views.broadcast()  # (the table's state says what it waits for)
            return
        deal = table.next_deal()
        players = list(deal.players)
        button = deal.button  # (stored only once the hand is dealt: Seeding._dealt; a
        # deal that lapses or is refused leaves the session's button where it was, s65)
        hand_no = int(live.session["hand_no"]) + 1
        game: str | None = live.config.game
        pick = None
        if game == DEALERS_CHOICE:
            games = [g.id for g in deal.games]
            if len(games) == 1:
                game = games[0]
            elif live.seats[button].row.bot is not None:
                game, pick = None, games  # (picked at random after the client seeds)
            else:
                live.session["choice"] = {
                    "hand": hand_no, "seat": button, "games": games, "players": players,
                    # who was offered it: a later occupant of the seat is not
                    "digest": live.seats[button].row.token_digest,
                    # who it was offered for (R-C-12: the games fit them): whoever
                    # sits in one of their seats later waits for the next hand
                    "digests": [live.seats[s].row.token_digest for s in players],
                }  # fmt: skip
                # (what a delayed watcher sees while the game is named, issue 27)
                live.session["out_at_deal"] = out_at_deal(live)
                note_offered(live, hand_no)
                live.turns.bump_seq()
                live.saving.commit(session=True)
                live.turns.refresh_decisions()
                live.views.broadcast()
                return
        live.seeding.commit_deal(hand_no, game, table, deal, pick=pick)

    def tell_bots(self, hand: GameSession) -> None:
        """Tell each computer player dealt into the finished ``hand`` its end
        (:func:`rollem.bots.observe_hand_end` with its seat's view, built here: only
        what that seat may see, the cards shown down), in the bot thread where its
        reads are kept, after any decision already asked for (this table's queue)."""
        from rollem.bots import observe_hand_end

        live = self.table
        for number in hand.seats:
            seat = live.seats.get(number)
            if seat is None or seat.bot is None or seat.row.bot is None:
                continue  # no computer player there (or a person sits there now)
            live_table._BOT_THREAD.submit_for(live.id, observe_hand_end, seat.bot,
                                              hand.bot_view(number))

    def finish_hand(self) -> None:
        live = self.table
        hand = live.hand
        assert hand is not None and hand.over
        result = hand.result()
        self.tell_bots(hand)
        table = self.session_table()
        table.settle(hand.hand)  # stacks of the seats dealt in, carried chips
        changed = []
        for number in hand.seats:
            if number in live.seats:
                live.seats[number].row.stack = table.stacks[number]
                changed.append(live.seats[number].row)
        live.session.update(in_hand=False, carried=table.carry)
        # (a top-up asked before the hand, its stack now near the buy-in: s60-table)
        lapsed = host_tools.lapse_top_ups(live)
        host.pause_if_asked(live)  # (the host's "pause after this hand": stop 58)
        live.tourney.save(table)  # bust-outs, the end (issue 28)
        live.hand = None  # (a deal proposed during the hand is worked out now)
        busted = [live.seats[n].row.name for n in sorted(hand.seats)
                  if n in live.seats and table.stacks[n] == 0]
        dropped = live.tourney.hand_ended(busted)
        # (a deal dropped by a bust: everyone told, the chat's line and the toast)
        told = host._tell_table(live, dropped) if dropped is not None else []
        live.last_result = {"hand": hand.hand_no, "game": hand.game, **result}
        live.session["last_result"] = live.last_result
        live.turns.bump_seq()
        live.session["ended_seq"] = live.seq  # (what a delayed watcher is told next hand)
        live.saving.write(session=live.session, seats=changed, hand_result=(hand.hand_no, result))
        live.hand = None
        live.final_hand = hand
        for number in [n for n, s in live.seats.items() if s.gone]:
            live.seating.free_seat(number)
        seat_moves.moves_after_hand(live)  # (seat changes asked during it: stop 59)
        live.turns.refresh_decisions()
        self.schedule_next_hand(live.config.between_hands)  # (before: its time is in the state)
        night_close.settle(live)  # (the last hand of a table the host closes: stop 59)
        live.views.broadcast()
        live.saving.send_after_commit(told + lapsed)

    def _not_running_out(self, seat: int) -> None:
        """Raise :class:`TableError` ``in_hand`` while an all-in run-out of a hand
        ``seat`` was dealt into is shown (:mod:`.runout`): the hand is over but not
        settled, and chips bought now would be overwritten by its settlement."""
        live = self.table
        if live.runout.active and live.hand is not None and seat in live.hand.seats:
            raise TableError("in_hand", "the hand is being run out: buy chips once its "
                             "result is in")

    def rebuy(self, seat: int, *, by_host: bool = False,
              approved: bool = False) -> None:
        """A player with no chips buys the starting stack again (R-C-12), under the
        table's rebuy rules (issue 27, :func:`rollem.server.host_tools.rebuy_policy`:
        the cap; at a table with ``rebuy_approval`` a request the host answers, made
        when ``approved``, or at once for the host's own seat, ``by_host``).

        Raises :class:`TableError`: ``no_rebuys``, ``in_hand`` (also while an all-in
        run-out of its hand is shown), ``has_chips``,
        ``rebuy_cap``, ``already_asked``, ``over`` (the tournament is over); nothing
        changes."""
        live = self.table
        if (live.session.get("tournament") or {}).get("over"):
            raise TableError("over", "the tournament is over")
        self._not_running_out(seat)
        row = live.seats[seat].row
        table = self.session_table()
        try:
            table.rebuy_seat(seat)  # R-C-12: the host may allow rebuys
        except SessionRefused as err:
            raise TableError(err.code, str(err)) from None
        if row.bot is None:
            if host_tools.rebuy_policy(live, seat, by_host or approved):
                live.session.setdefault("rebuy_requests", []).append(seat)
                live.tourney.hold_last_call()  # (asked within a last call: it waits too)
                live.turns.bump_seq()
                live.saving.commit(session=True)
                live.views.broadcast()
                return
            host_tools.note_rebuy(live, seat)
            live.pace.attended()  # (a person buys in again: the table is played)
        row.stack, row.brought = table.stacks[seat], table.brought[seat]
        live.tourney.save(table)  # a rebuy in the first levels (issue 28)
        live.tourney.rebought()  # (an open deal's shares are void: withdrawn)
        if live.hand is not None and not live.hand.over:
            live.seats[seat].rebought_in = live.hand.hand_no
        live.turns.bump_seq()
        live.saving.commit(seats=[row], session=True)
        live.views.broadcast()
        self.deal_soon()

    def top_up(self, seat: int, *, by_host: bool = False,
               approved: bool = False) -> None:
        """A player whose stack is below the buy-in (the chips a rebuy brings,
        ``config.stack``) brings it up to the buy-in between hands (R-C-12, stop
        58); the chips added count as brought.  Under the rebuy rules (issue 27,
        :func:`rollem.server.host_tools.rebuy_policy`): it counts as a rebuy
        against ``rebuy_cap``; at a table with ``rebuy_approval`` it is a request
        the host answers (``approve_rebuy``), made when ``approved``, or at once
        for the host's own seat (``by_host``).  A request whose seat has no chips
        by its approval is made as a rebuy (the same chips).

        Only a stack at least a big bet below the buy-in tops up
        (:func:`~rollem.server.host_tools.top_up_least`, s59-seat).

        Raises :class:`TableError`: ``tournament``, ``no_rebuys``, ``in_hand`` (also
        while an all-in run-out of its hand is shown), ``no_chips``, ``at_buy_in``,
        ``small_top_up``, ``rebuy_cap``,
        ``already_asked``; nothing changes."""
        live = self.table
        self._not_running_out(seat)
        row = live.seats[seat].row
        table = self.session_table()
        try:
            table.top_up_seat(seat, least=host_tools.top_up_least(live.config))
        except SessionRefused as err:
            raise TableError(err.code, str(err)) from None
        if row.bot is None:
            if host_tools.rebuy_policy(live, seat, by_host or approved, "top-up"):
                live.session.setdefault("rebuy_requests", []).append(seat)
                live.session.setdefault("top_up_requests", []).append(seat)
                live.turns.bump_seq()
                live.saving.commit(session=True)
                live.views.broadcast()
                return
            host_tools.note_rebuy(live, seat)
            live.pace.attended()
        row.stack, row.brought = table.stacks[seat], table.brought[seat]
        if live.hand is not None and not live.hand.over:
            live.seats[seat].rebought_in = live.hand.hand_no
        live.turns.bump_seq()
        live.saving.commit(seats=[row], session=True)
        live.views.broadcast()
        self.deal_soon()
