"""A live table's sit-and-go (issue 28): the entrants, the level clock, the
bust-outs and places, rebuys in the first levels, a deal among the final
players, and the payouts at the end.

:class:`Tourney` is the table's part that runs it.  The tournament itself is
:class:`rollem.tournament.session.Tournament`, the one model the terminal
and ``simulate`` share: it is rebuilt from the session for each deal
(:meth:`Dealer.session_table`), and what a hand changes is written back
(:meth:`Tourney.save`).

``session["tournament"]`` (JSON, stored) holds ``entrants`` (their seats,
fixed at the start), ``names`` (seat -> each entrant's name at the start;
absent in tables started before it was kept), ``elapsed`` (seconds the level clock has run) and
``since`` (the table clock's moment it last started running, ``None`` while
stopped), plus :meth:`Tournament.state` (hands, busts, rebuys, deal) and an
open deal proposal ``proposal`` (``{"method", "offer": {seat: units} or
None until the hand in play ends, "agreed": [seats], "until": when it lapses
(the table clock) once its offer is worked out}``) and ``next_proposal`` (seat ->
the hand number from which that seat may propose again after a proposal of its
ended without a deal), and ``last_call`` (``{"seats": [busted people who may
still rebuy], "until": when it ends (the table clock)}``, while one player
holds every chip and busted people may still rebuy: :data:`REBUY_LAST_CALL`;
``"held_left"`` (seconds) with ``until`` cleared while its time stands:
:meth:`Tourney.last_call_held_by`).

A break (stop 59, :attr:`Level.break_minutes`): ``break`` (``{"after": the
level (0-based) it follows, "seconds": its length, "until": its end on the
table clock}``, ``"held_left"`` (seconds) with ``until`` cleared while the
host's pause holds it; ``None`` when none runs) and ``breaks_done``
(the levels whose break was taken or ended early); ``ended_in_break`` (the
level, 1-based, whose break the tournament ended in, s64-table) and
``dealt_level`` (the level, 1-based, of the last hand dealt; ``before_deal``: it and
``addon_closed`` before that deal, for a void hand, s65-table).  The level clock stands at
the end of a level with a break still to take (:meth:`Tourney.clock_seconds`),
so the hand in play ends at its stakes and the next one is not dealt: the break
begins instead (:meth:`Tourney.begin_break`), and it ends at its stored end
(a restart mid-break ends it then: a break is the players' time away from the
table, so the time the server was down counts in it, unlike the level clock's),
or sooner when the host ends it (``{"type": "host", "op": "end_break"}``).

The level clock runs while the tournament is on, except while the host
pauses the table, while a deal is being agreed, while the table has stopped
dealing (nobody has it open, or a storage limit: :meth:`Pace.why_stopped`)
and while the server is down: every write of the session first adds the time run so far to
``elapsed`` (:meth:`Tourney.fold_clock`) and a restored table starts the
clock again from its stored ``elapsed`` (so a restart resumes the clock
where it stood at the last write; the time the server was down is not
counted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rollem.narration.words import and_list
from rollem.server.live_table.deadline import StoredDeadline
from rollem.server.live_table.errors import TableError
from rollem.server.live_table.player_names import kept_for_bots
from rollem.tournament.payouts import payout_percentages
from rollem.tournament.session import DEAL_METHODS, Tournament, deal_from

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable
    from rollem.table import Table as SessionTable

__all__ = ["DEAL_OPS"]

DEAL_OPS = ("propose", "agree", "decline")
"""What a ``deal`` message may do (``{"type": "deal", "op": ..., "method": ...}``)."""


def _nth(place: int) -> str:
    """``1 -> "1st"``, ``2 -> "2nd"``, ``11 -> "11th"`` (as the panel writes a place)."""
    return f"{place}" + ("th" if place % 100 in (11, 12, 13)
                         else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th"))


class Tourney:
    """The sit-and-go of one table (issue 28).

    Its state is stored, in the table's session: ``session["tournament"]``
    (above); it keeps none in memory.  In these methods ``live`` is the
    table (``table`` names the session's :class:`rollem.table.Table`).

    Takes from its ``table``: ``config`` (the schedule, buy-in, payouts),
    ``session``, ``seats``, ``hand``, ``clock``; after a ``deal`` message it
    bumps the table's ``seq`` (``table.turns``), writes (``table.saving``),
    tells (``table.views``) and may deal (``table.dealer.deal_soon``).
    """

    DEAL_ANSWER_SECONDS = 90.0
    """How long every player left has to answer a deal once its shares are worked
    out: then it lapses as if declined, and play goes on (a player away, or one
    who never answers, held the tournament still for ever)."""

    DEAL_AGAIN_HANDS = 3
    """Hands a player whose proposal was declined or lapsed waits before proposing
    again (else one player could propose again at each decline and keep the
    tournament from dealing)."""

    REBUY_LAST_CALL = 60.0
    """How long busted people who may still rebuy have, once one player holds
    every chip and the table cannot deal for want of players: a rebuy within it
    deals on; at its end each of them is declined and the tournament ends (a
    player away, or one who never answers, held the tournament still for ever).
    Computer players decline at their bust (they never rebuy at a web
    tournament)."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.lapse = StoredDeadline(table, "proposal", self._lapse)
        """An open proposal's answer time, once its offer is worked out."""
        self.last_call_end = StoredDeadline(table, "last_call", self._last_call_over)
        """The end of a last call for a rebuy."""
        self.break_end = StoredDeadline(table, "break", self._break_over)
        """The end of a break (stop 59)."""

    def _state(self) -> dict[str, Any] | None:
        live = self.table
        state: dict[str, Any] | None = live.session.get("tournament")
        return state

    def clock_seconds(self) -> float:
        """Seconds the level clock has run (0 before the start), never past the end
        of a level whose break is still to be taken (:meth:`break_due`)."""
        live = self.table
        t = self._state()
        if t is None:
            return 0.0
        since = t.get("since")
        run = float(t["elapsed"]) + (max(0.0, live.clock() - float(since))
                                     if since is not None else 0.0)
        due = self._next_break(t)
        # (a hair past the level's end: the next level's, whatever the rounding)
        return run if due is None else min(run, due[1] + 0.001)

    def _next_break(self, t: dict[str, Any]) -> tuple[int, float] | None:
        """The first level (0-based) with a break not yet taken, and the level
        clock's seconds at its end; ``None`` when none is left."""
        schedule = self.table.config.schedule()
        if schedule is None:
            return None
        done = {int(k) for k in t.get("breaks_done") or ()}
        ends = 0.0
        for i, level in enumerate(schedule.levels[:-1]):
            ends += level.minutes * 60
            if self.break_minutes(i) > 0 and i not in done:
                return i, ends
        return None

    ADDON_BREAK_MINUTES = 2.0
    """The break taken after the last rebuy level for the add-on (stop 60) when the
    schedule has none there: the add-on is offered during it, and it ends as soon
    as every person still in has answered (or the host's **Resume now**)."""

    def addon_break_only(self, after: int) -> bool:
        """Whether a break after level ``after`` (0-based) is the add-on's own: the
        schedule has none there, and the add-on's window opens then."""
        live = self.table
        schedule = live.config.schedule()
        return (schedule is not None and bool(live.config.addon_chips)
                and live.config.rebuy_levels > 0 and after == live.config.rebuy_levels - 1
                and schedule.levels[after].break_minutes <= 0)

    def break_minutes(self, after: int) -> float:
        """The break after level ``after`` (0-based), in minutes: the schedule's, or
        :data:`ADDON_BREAK_MINUTES` after the last rebuy level when the schedule has
        none there and the host set an add-on (stop 60)."""
        schedule = self.table.config.schedule()
        if schedule is None:
            return 0.0
        if self.addon_break_only(after):
            return self.ADDON_BREAK_MINUTES
        return schedule.levels[after].break_minutes

    def break_due(self) -> bool:
        """Whether the level clock stands at the end of a level whose break is still
        to be taken (no break running, no last call for a rebuy open: that call
        ends the tournament or deals on first): the next deal begins it instead."""
        t = self._state()
        if (t is None or t.get("over") or t.get("break") is not None
                or t.get("last_call") is not None):
            return False
        due = self._next_break(t)
        return due is not None and self.clock_seconds() >= due[1]

    def break_left(self) -> float | None:
        """Seconds left in the break that runs (``None``: none)."""
        t = self._state()
        pause = t.get("break") if t is not None else None
        if pause is None:
            return None
        until = pause.get("until")
        if until is None:
            return float(pause.get("held_left", 0.0))
        return max(0.0, float(until) - self.table.clock())

    def begin_break(self) -> bool:
        """The next hand would be dealt: begin the break due (:meth:`break_due`) and
        return ``True`` (nothing is dealt; it is saved and told), else ``False``."""
        if not self.break_due():
            return False
        live = self.table
        t = self._state()
        assert t is not None
        due = self._next_break(t)
        schedule = live.config.schedule()
        assert due is not None and schedule is not None
        seconds = self.break_minutes(due[0]) * 60
        self.fold_clock()
        t["break"] = {"after": due[0], "seconds": seconds,
                      "until": round(live.clock() + seconds, 3)}
        if self.addon_break_only(due[0]):
            t["break"]["addon"] = True
        self.fold_clock()  # (the level clock stands during the break)
        self.break_end.arm()
        if live.session.get("host_paused"):
            self.break_end.hold()
        told, rows = self._bots_addon()  # (stop 60: the add-on's window is open now)
        live.turns.bump_seq()
        live.saving.commit(seats=rows, session=True)  # (their new stacks stored too)
        live.views.broadcast()
        live.saving.send_after_commit(told)
        if t["break"] is not None and t["break"].get("addon") and not self._people_waiting():
            self.end_break()  # (nobody left to answer the add-on: no break to wait out)
        return True

    def _break_over(self, until: float) -> None:
        """The break's time is up: it ends (unless it ended or moved meanwhile)."""
        t = self._state()
        pause = t.get("break") if t is not None else None
        if self.table.closed or pause is None or pause.get("until") != until:
            return
        self.end_break()

    def end_break(self) -> None:
        """End the running break (its time up, or the host's ``end_break``): the level
        clock runs again, the next level starts in full, and the next hand is dealt.

        Raises :class:`TableError`: ``no_break`` (no break is running)."""
        live = self.table
        t = self._state()
        pause = t.get("break") if t is not None else None
        if t is None or pause is None:
            raise TableError("no_break", "no break is running: the host ends a break "
                             "early only during one")
        t.setdefault("breaks_done", []).append(int(pause["after"]))
        t["break"] = None
        self.break_end.stop()
        self.fold_clock()  # (the level clock runs again)
        live.turns.bump_seq()
        live.saving.commit(session=True)
        live.views.broadcast()
        live.dealer.deal_soon()

    def break_public(self) -> dict[str, Any] | None:
        """The running break as every client sees it: ``after`` (the level, 1-based,
        it follows), ``seconds`` (its length), ``left`` (seconds left now),
        ``until`` (its end, the table clock; ``None`` while the host's pause
        holds it), ``running`` (``False`` then), ``addon`` (the break is the
        add-on's own, stop 60: the schedule has none there) and ``next`` (the
        stakes of the level that follows, as :meth:`public`'s ``stakes``); ``None``
        when none runs."""
        t = self._state()
        pause = t.get("break") if t is not None else None
        schedule = self.table.config.schedule()
        if pause is None or schedule is None:
            return None
        after = int(pause["after"])
        return {"after": after + 1, "seconds": float(pause["seconds"]),
                "left": round(self.break_left() or 0.0, 1),
                "until": pause.get("until"), "running": pause.get("until") is not None,
                "addon": bool(pause.get("addon")),
                "next": self._level_words(schedule.levels[min(after + 1,
                                                              len(schedule.levels) - 1)])}

    def break_words(self) -> str | None:
        """The felt's waiting line during a break: ``"Break: 4:32 left; next level 3:
        blinds 2/4."`` (whole seconds rounded up; ``", held while the host pauses
        the table"`` while it stands)."""
        import math

        info = self.break_public()
        if info is None:
            return None
        left = self.break_left() or 0.0
        secs = max(0, math.ceil(left - 0.001))
        stakes = info["next"]
        forced = stakes.get("forced") or (f"ante {stakes['ante']}, bets "
                                          f"{stakes['small_bet']}/{stakes['big_bet']}")
        held = "" if info["running"] else ", held while the host pauses the table"
        what = "Break for the add-on" if info["addon"] else "Break"
        return (f"{what}: {secs // 60}:{secs % 60:02d} left{held}; next level "
                f"{info['after'] + 1}: {forced}.")

    def clock_running(self) -> bool:
        """Whether the level clock should run now: started, not over, not paused by
        the host, no deal being agreed (its shares worked out: the table deals
        nothing until it is settled), the table not stopped for want of a person
        or of storage (:attr:`Pace.stopped`: the blinds rose while nobody had
        the table open and nothing was dealt), no last call for a rebuy open
        (nothing is dealt while it waits: a bust in a rebuy level's last
        seconds saw the rebuys close inside the call that offered one).  A
        proposal waiting for the hand in play to end stops nothing: that hand is
        played at the level's stakes as any other (it stopped the clock, so one
        proposal in every hand, each declined or lapsed, held the blinds where
        they were)."""
        live = self.table
        t = self._state()
        if t is None or t.get("over") or live.session.get("host_paused") or live.pace.stopped:
            return False
        if t.get("last_call") is not None or t.get("break") is not None or self.break_due():
            return False
        proposal = t.get("proposal")
        return proposal is None or proposal.get("offer") is None

    def fold_clock(self) -> None:
        """Add the time run so far to ``elapsed`` and start or stop the clock as
        :func:`clock_running` says (called before each write of the session)."""
        live = self.table
        t = self._state()
        if t is None:
            return
        t["elapsed"] = round(self.clock_seconds(), 3)
        t["since"] = live.clock() if self.clock_running() else None

    def restart_clock(self) -> None:
        """A restored table: the clock runs again from where it stood (the time the
        server was down is not counted)."""
        live = self.table
        t = self._state()
        if t is not None:
            t["since"] = live.clock() if self.clock_running() else None

    def tournament(self) -> Tournament | None:
        """The table's tournament as it stands (levels by the clock), or ``None``
        at a cash game or before the start."""
        live = self.table
        t = self._state()
        schedule = live.config.schedule()
        if t is None or schedule is None:
            return None
        entrants = [int(s) for s in t["entrants"]]
        out = Tournament(schedule, len(entrants), buy_in=live.config.buy_in,
                         percentages=live.config.payouts or None, seats=entrants,
                         rebuy_levels=live.config.rebuy_levels, rotate=live.config.rotate,
                         addon_chips=live.config.addon_chips if live.config.rebuy_levels else 0,
                         addon_price=live.config.addon_price)
        out.load_state(t)
        out.at_minute(self.clock_seconds() / 60)
        return out

    def start(self) -> None:
        """The host starts a tournament table: the seated players with chips are the
        entrants, and the level clock starts.

        Raises :class:`TableError`: ``too_few`` (fewer than 2 players seated);
        ``waiting`` (a player waits for the host to let them in, at a private table
        or one that approves joins: they would have entered, paid a buy-in into
        the pool and been dealt in and blinded off without the host's yes, and an
        entrant cannot be removed; the host lets them in or turns them away first).
        """
        live = self.table
        waiting = [n for n in sorted(live.session.get("waiting", [])) if n in live.seats]
        if waiting:
            names = ", ".join(live.seats[n].row.name for n in waiting)
            raise TableError("waiting", f"{names} {'waits' if len(waiting) == 1 else 'wait'} "
                             "for you to let them in: let them in or turn them away before "
                             "the tournament starts")
        entrants = sorted(n for n, s in live.seats.items()
                          if s.row.stack > 0 and not s.gone)
        if len(entrants) < 2:
            raise TableError("too_few", f"{len(entrants)} player(s) seated: a tournament needs "
                             "2 to 10 entrants; wait for players to sit down")
        live.session["tournament"] = {"entrants": entrants,
                                      "names": {str(n): live.seats[n].row.name
                                                for n in entrants},
                                      "elapsed": 0.0,
                                      "since": live.clock(),
                                      "proposal": None, "over": False,
                                      "hands": 0, "busts": [], "rebuys": {}, "deal": None}

    def entries_open(self, t: Tournament | None = None) -> bool:
        """Whether a newcomer may still enter the started tournament (late
        registration, stop 59): while its rebuys are open (:attr:`Tournament.rebuy_open`),
        before the end, with no deal proposed (its shares are of the pool as it
        stands) and no last call for a rebuy running (it ends the tournament
        for want of players), with a free seat no entrant held
        (:meth:`entry_seats`), at a table that lets people in without
        the host's yes (a private table, or one approving joins, takes nobody
        after the start: an entrant cannot be turned away)."""
        live = self.table
        t = t if t is not None else self.tournament()
        state = self._state()
        return (t is not None and state is not None and not state.get("over")
                and state.get("proposal") is None and not state.get("last_call")
                and t.rebuy_open and bool(self.entry_seats())
                and not live.config.private and not live.session.get("approve_joins"))

    def entry_seats(self) -> list[int]:
        """The free seats a late entrant may take (0-based, ascending): those that were
        no entrant's.  A tournament knows its entrants by seat (their busts, rebuys
        and places), so the seat of an entrant who declined a rebuy and left stays
        theirs: a newcomer there took over their bust and the places could no
        longer be worked out (s59-break: every state sent raised, the table
        stuck)."""
        t = self._state()
        entrants = set(map(int, t["entrants"])) if t is not None else set()
        return [n for n in self.table.seating.free_seats() if n not in entrants]

    def enter_late(self, seat: int, name: str) -> None:
        """``seat`` (just seated with the schedule's stack) enters the started
        tournament: one entrant more, a buy-in more in the prize pool."""
        t = self._state()
        assert t is not None
        t["entrants"] = sorted({*map(int, t["entrants"]), seat})
        t.setdefault("names", {})[str(seat)] = name
        t.setdefault("late", []).append(seat)

    def save(self, table: SessionTable) -> None:
        """Write what ``table``'s tournament changed (a hand's bust-outs, a rebuy)
        back to the session; at the end, stop the clock."""
        t = self._state()
        if t is None or table.tournament is None:
            return
        live = self.table
        sit_and_go = table.tournament
        for seat in sit_and_go.rebuy_waiting():  # (computer players never rebuy here)
            if seat in live.seats and live.seats[seat].row.bot is not None:
                sit_and_go.decline_rebuy(seat)
        t.update(sit_and_go.state())
        if sit_and_go.over(table.stacks) and not t.get("over"):
            self.fold_clock()
            t["over"] = True
            t["since"] = None
        self._last_call(sit_and_go, table.stacks)

    def computers_only(self) -> bool:
        """Whether every person is out of the started tournament and only computer
        players are left (two or more): at least one person entered, every entrant
        with chips is a computer player, no busted person may still rebuy, and no
        deal or last call is open.  Late registration still open
        (:meth:`entries_open`) does not hold it (s64-table): a newcomer could only
        sit down to a table of computer players whose buy-ins are the host's, and
        s63-table's computer players dealt on to nobody until the rebuy levels
        ended (a host watched them for minutes).  (A tournament of computer
        players only, which a host watches, plays on.)"""
        t = self._state()
        sit_and_go = self.tournament()
        if (t is None or sit_and_go is None or t.get("over") or t.get("proposal") is not None
                or t.get("last_call") is not None):
            return False
        chips = self.stacks()
        left = sit_and_go.left(chips)
        people = [s for s in sit_and_go.seats if self._bot(s) is None]
        return (len(left) >= 2 and bool(people)
                and all(self._bot(s) is not None for s in left)
                and not any(s in people for s in sit_and_go.rebuy_waiting()))

    def settle_computers(self) -> bool:
        """Every person is out and only computer players are left
        (:meth:`computers_only`): the tournament ends now, between hands, with them
        placed by their chips (ties sharing) and paid by place
        (:meth:`Tournament.settle_by_chips`), instead of dealing on hand after hand
        to nobody (s63-table: a host's night stood watching two bots heads-up).
        Their prizes are the host's either way (the house's stake), so no money
        moves between people by it.  Chips carried to the next hand (R-521-9) go to
        the chip leader (the lowest seat of those tied), as at a tournament's last
        hand.  A break running then ends with it (s63-table2: the last person
        declined their rebuy in a break, and the felt counted the break down beside
        "The tournament is over").  Written, told in the chat and to every client.
        Returns whether it ended the tournament."""
        live = self.table
        if live.hand is not None or not self.computers_only():
            return False
        t = self._state()
        sit_and_go = self.tournament()
        assert t is not None and sit_and_go is not None
        chips = self.stacks()
        left = sit_and_go.left(chips)
        rows = []
        carried = int(live.session.get("carried", 0))
        if carried:
            leader = max(left, key=lambda s: (chips[s], -s))
            live.seats[leader].row.stack += carried
            live.session["carried"] = 0
            rows.append(live.seats[leader].row)
            chips = self.stacks()
        sit_and_go.settle_by_chips(chips)
        t.update(sit_and_go.state())
        pause = t.get("break")
        if pause is not None:  # (the last person declined in a break: it ends with it)
            t["ended_in_break"] = int(pause["after"]) + 1  # (the panel says so: s64-table)
            t.setdefault("breaks_done", []).append(int(pause["after"]))
            t["break"] = None
            self.break_end.stop()
        self.fold_clock()
        t["over"] = True
        t["since"] = None
        places = sit_and_go.places(chips)
        order = sorted(left, key=lambda s: (places[s], s))
        named = and_list([f"{self.entrant_name(s)} {_nth(places[s])} ({chips[s]} chips)"
                          for s in order])
        told = self._chat(f"Every person is out: the computer players left are placed by "
                          f"their chips, {named}, and the tournament is over.")
        live.turns.bump_seq()
        live.saving.commit(seats=rows, session=True)
        live.views.broadcast()
        live.saving.send_after_commit(told)
        return True

    def _last_call(self, sit_and_go: Tournament, stacks: list[int]) -> None:
        """Open the last call for a rebuy (:data:`REBUY_LAST_CALL`) when one player
        holds every chip and busted people may still rebuy; close it when that is
        no longer so (a rebuy: the table deals on; the end)."""
        live = self.table
        t = self._state()
        if t is None:
            return
        waiting = sit_and_go.rebuy_waiting()
        if not t.get("over") and waiting and len(sit_and_go.left(stacks)) <= 1:
            if t.get("last_call") is None:
                t["last_call"] = {"seats": waiting,
                                  "until": round(live.clock() + self.REBUY_LAST_CALL, 3)}
                self.fold_clock()  # (the level clock waits with the table)
                self.last_call_end.arm()
            else:
                t["last_call"]["seats"] = waiting
            self.hold_last_call()  # (opened during the host's pause, or a rebuy asked)
        elif t.get("last_call") is not None:
            t["last_call"] = None
            self.last_call_end.stop()
            self.fold_clock()  # (runs again with the play, unless over)

    def arm_timers(self) -> None:
        """A stored table resumed: an open proposal lapses, and a last call ends, at
        their stored times again."""
        self.lapse.arm()
        self.last_call_end.arm()
        self.break_end.arm()

    def hold_timers(self) -> None:
        """The host paused the table (:meth:`Turns.hold_clocks`): a deal's answer
        time and a last call stop where they stand (a host who pauses to let the
        players think a deal over saw it lapse meanwhile)."""
        self.lapse.hold()
        self.hold_last_call()
        self.break_end.hold()  # (the break's time stands too)

    def release_timers(self) -> None:
        """The host resumed the table: each runs on with the time it had left (a last
        call still waiting for the host's answer to a rebuy stands on)."""
        self.lapse.release()
        self.hold_last_call()
        self.break_end.release()

    def last_call_held_by(self) -> str | None:
        """Why an open last call's time stands: ``"pause"`` (the host paused the
        table), ``"request"`` (the rebuy of one of its players waits for the host's
        approval, at a table that approves rebuys: asked within the call, it is
        made within it, however long the host takes to answer; decided at stop 51,
        docs/tournaments.md), else ``None`` (it runs, or no last call is open)."""
        live = self.table
        t = self._state()
        call = t.get("last_call") if t is not None else None
        if call is None:
            return None
        if live.session.get("host_paused"):
            return "pause"
        asked = live.session.get("rebuy_requests", [])
        if any(int(s) in asked for s in call["seats"]):
            return "request"
        return None

    def hold_last_call(self) -> None:
        """Hold an open last call's time, or run it on with the time it had left,
        as :meth:`last_call_held_by` says (after a pause or resume, a rebuy asked,
        declined or made, a seat freed)."""
        if self.last_call_held_by() is not None:
            self.last_call_end.hold()
        else:
            self.last_call_end.release()

    def stop_timers(self) -> None:
        """Cancel both timers (the table stops its timers)."""
        self.lapse.stop()
        self.last_call_end.stop()
        self.break_end.stop()

    def _last_call_over(self, until: float) -> None:
        """Nobody rebought in the last call: each busted person who could is
        declined, and the tournament ends (places by bust order, payouts of the
        pool with every rebuy)."""
        live = self.table
        t = self._state()
        call = t.get("last_call") if t is not None else None
        if live.closed or t is None or call is None or call.get("until") != until:
            return
        sit_and_go = self.tournament()
        assert sit_and_go is not None
        for seat in sit_and_go.rebuy_waiting():
            sit_and_go.decline_rebuy(seat)
        t.update(sit_and_go.state())
        t["last_call"] = None
        chips = self.stacks()
        if sit_and_go.over(chips) and not t.get("over"):
            self.fold_clock()
            t["over"] = True
            t["since"] = None
        live.turns.bump_seq()
        live.saving.commit(session=True)
        live.views.broadcast()
        live.dealer.deal_soon()

    LAST_CALL_HELD: ClassVar[dict[str, str]] = {
        "pause": "held while the host pauses the table",
        "request": "held until the host answers the rebuy"}
    """What the waiting line adds while a last call's time stands, by
    :meth:`last_call_held_by` (the felt's tourney.js says the same)."""

    def last_call_words(self) -> str | None:
        """The felt's waiting line during a last call: who may rebuy and the whole
        seconds they have left (rounded up), and why that time stands while it
        does: ``"Last call for a rebuy: Ann has 42 s to rebuy; then the
        tournament ends."``.  The felt counts the seconds down itself from the
        stored ``until`` (:meth:`public`'s ``last_call``), in the same words."""
        import math

        live = self.table
        t = self._state()
        call = t.get("last_call") if t is not None else None
        if call is None:
            return None
        who = self.last_call_who(call)
        verb = "have" if len(call["seats"]) > 1 else "has"
        until = call.get("until")
        left = (float(call.get("held_left", 0)) if until is None
                else float(until) - live.clock())
        seconds = max(0, math.ceil(max(0.0, left) - 0.001))  # (stored to the thousandth)
        held = self.last_call_held_by() if until is None else None
        why = f", {self.LAST_CALL_HELD[held]}" if held is not None else ""
        return (f"Last call for a rebuy: {who} {verb} {seconds} s to rebuy{why}; "
                "then the tournament ends.")

    def last_call_public(self) -> dict[str, Any] | None:
        """An open last call as every client sees it: the stored entry (``seats``,
        ``until`` on the table clock or ``None`` while it stands, then
        ``held_left`` in seconds) with ``who`` (the names, ``"Ann, Bob and Cat"``) and
        ``held_by`` (:meth:`last_call_held_by`); ``None`` when none is open."""
        t = self._state()
        call = t.get("last_call") if t is not None else None
        if call is None:
            return None
        return {**call, "who": self.last_call_who(call), "held_by": self.last_call_held_by()}

    def last_call_who(self, call: dict[str, Any]) -> str:
        """Who may rebuy in ``call`` (its ``seats``), in a sentence's words: ``"Amy"``,
        ``"Amy and Ben"``, ``"Amy, Ben and Cat"`` (s53: "Amy or Ben or Cat has")."""
        return and_list(self.entrant_name(int(s)) for s in call["seats"])

    def rebought(self) -> None:
        """A busted entrant bought in again: an open deal proposal is withdrawn (its
        shares were of a smaller prize pool, among players without the one back in),
        and play goes on; any player left may propose again."""
        state = self._state()
        if state is not None and state.get("proposal") is not None:
            self._withdraw(bar=False)

    def entrant_name(self, seat: int) -> str:
        """Entrant ``seat``'s name: as kept at the start, else (a table started before
        names were kept) its seat's player now, else ``seat N`` (counted from 1:
        index 0 is ``seat 1``)."""
        live = self.table
        t = self._state() or {}
        name = (t.get("names") or {}).get(str(seat))
        if name is None and seat in live.seats:
            name = live.seats[seat].row.name
        return str(name) if name is not None else f"seat {seat + 1}"

    def ledger(self, t: Tournament, entries_open: bool = False) -> list[dict[str, Any]]:
        """``t``'s ledger (:meth:`Tournament.ledger`, in the buy-in's units) from the
        stacks as stored, each line with its entrant's ``name`` (no place given
        while ``entries_open``: :meth:`entries_open`)."""
        return [{"name": self.entrant_name(line["seat"]), **line,
                 "bot": self._bot(line["seat"])}
                for line in t.ledger(self.stacks(), entries_open)]

    def _bot(self, seat: int) -> str | None:
        """The level of the computer player entered in ``seat`` (``None``: a person;
        the host staked its buy-ins and takes its prize, stop 58): its seat's, or, gone
        from it, as its name says (no person may take a computer player's name)."""
        live = self.table
        if seat in live.seats:
            return live.seats[seat].row.bot
        return "computer" if kept_for_bots(self.entrant_name(seat)) else None

    def field_ledger(self, field: list[int]) -> list[dict[str, Any]]:
        """The ledger before the start, in the buy-in's units as :meth:`ledger`'s:
        each seat of ``field`` (those seated with chips, who enter when the host
        deals) has paid one buy-in, with no place, prize or net yet. (The cash
        ledger's "brought" and "net" are chips, which a tournament does not pay.)"""
        live = self.table
        buy_in = live.config.buy_in
        return [{"name": live.seats[s].row.name, "seat": s, "rebuys": 0, "addon": False,
                 "paid": buy_in,
                 "place": None, "payout": None, "net": None, "bot": live.seats[s].row.bot}
                for s in field]

    def stacks(self) -> list[int]:
        """Each seat's chips as stored (a seat's stack at the start of the hand in play)."""
        live = self.table
        return [live.seats[s].row.stack if s in live.seats else 0
                for s in range(live.config.seats)]

    def _level_words(self, level: Any) -> dict[str, Any]:
        """A level's stakes (``Level.to_dict()``) and, at a one-game table, ``forced``:
        the forced bets its hands post, in words (``"blinds 1/2"`` at hold'em, not
        the level's ante, which a blind game does not take)."""
        live = self.table
        out = dict(level.to_dict())
        if live.config.game != "dealers-choice":
            from dataclasses import replace

            from rollem.games.describe import forced_bet_words
            from rollem.server.game_session import GameSession

            options = replace(GameSession.options_for(live.config), ante=level.ante,
                              small_bet=level.small_bet, big_bet=level.big_bet)
            out["forced"] = forced_bet_words(live.config.game_of(live.config.game), options)
        return out

    def public(self) -> dict[str, Any] | None:
        """What every client sees of the tournament (``None`` at a cash game): the
        schedule (levels), the level (1-based) and its stakes, the next level's,
        the seconds left in the level (``None`` in the last), whether the clock
        runs, the prize pool and percentages, places so far, payouts at the end,
        whether rebuys are open, an open deal proposal, and ``next_proposal``
        (seat as text -> the hand number from which that seat may propose a
        deal again, after its last proposal was declined or lapsed: before it,
        while the table's ``hand_no`` is below it, a proposal is refused
        ``too_soon``, and the page says so instead of offering one), and
        ``hand_stakes`` (the stakes of the level the hand in play was dealt at,
        when the clock has raised the level since; else ``None``),
        ``deal_from``: how many players left, at the most, may propose a deal
        (:attr:`Tournament.deal_from`), ``deal_open`` (whether one may be
        proposed now: :meth:`Tournament.deal_open`; the page offers one only then)
        and ``may_rebuy`` (the busted seats who may still rebuy, whom a deal
        waits for), ``stack`` (the schedule's starting stack),
        ``entries_open`` (late registration: :meth:`entries_open`),
        ``entry_seats`` (the seats a late entrant may take, 0-based:
        :meth:`entry_seats`; empty while entries are closed), ``break``
        (the running break: :meth:`break_public`, else ``None``), ``addon``
        (:meth:`addon_public`; ``None`` without one), ``settled`` (the computer
        players left were placed by chips once every person was out:
        :meth:`settle_computers`), ``played_to`` (the level, 1-based, of the last
        hand dealt: :meth:`dealt`; the clock's level in a table stored before
        it was kept, or before any deal), ``ended_in_break`` (the level, 1-based,
        whose break the tournament ended in: the last person's "No rebuy" there,
        :meth:`settle_computers`; else ``None``) and, before the start too,
        ``addon_chips`` and ``addon_price`` (the host's settings; 0 chips: none)."""
        live = self.table
        schedule = live.config.schedule()
        if schedule is None:
            return None
        base: dict[str, Any] = {
            "schedule": schedule.name, "levels": [lv.to_dict() for lv in schedule.levels],
            "buy_in": live.config.buy_in, "rebuy_levels": live.config.rebuy_levels,
            "stack": schedule.stack,
            "addon_chips": live.config.addon_chips if live.config.rebuy_levels else 0,
            "addon_price": live.config.addon_price,
            "rotate": live.config.rotate and live.config.game == "dealers-choice",
        }
        t = self.tournament()
        if t is None:  # (before the start: the field so far)
            waiting = live.session.get("waiting", [])  # (not in until let in)
            field = sorted(n for n, s in live.seats.items()
                           if s.row.stack > 0 and n not in waiting)
            seated = len(field)
            shipped = payout_percentages(seated) if 2 <= seated <= 10 else ()
            return {**base, "started": False, "level": 1,
                    "stakes": self._level_words(schedule.levels[0]),
                    "prize_pool": live.config.buy_in * seated,
                    "percentages": list(live.config.payouts or shipped),
                    "deal_from": deal_from(live.config.payouts or shipped),
                    "ledger": self.field_ledger(field)}
        state = self._state()
        assert state is not None
        chips = self.stacks()
        late = self.entries_open(t)
        level = t.level
        seconds = self.clock_seconds()
        ends = sum(lv.minutes for lv in schedule.levels[:level + 1]) * 60
        last = level == len(schedule.levels) - 1
        proposal = state.get("proposal")
        # the hand in play keeps the stakes it was dealt at (stop 56: the header
        # said the new level's while it was played at the old one's)
        dealt = live.hand.setup.get("tournament") if live.hand is not None else None
        dealt_level = int(dealt["level"]) if dealt else level + 1
        return {
            **base, "started": True, "level": level + 1, "stakes": self._level_words(t.stakes),
            "hand_stakes": (self._level_words(schedule.levels[dealt_level - 1])
                            if dealt_level < level + 1 else None),
            "next": None if last else self._level_words(schedule.levels[level + 1]),
            "seconds_left": None if last else round(ends - seconds, 1),
            "elapsed": round(seconds, 1), "running": self.clock_running(),
            "entrants": t.seats, "left": t.left(chips), "prize_pool": t.prize_pool,
            "percentages": list(t.percentages), "rebuy_open": t.rebuy_open and not state["over"],
            "places": self.places_given(t, chips, bool(state["over"]), late),
            "entries_open": late,
            "entry_seats": self.entry_seats() if late else [],  # (s59-break)
            "over": bool(state.get("over")),
            "payouts": ({str(s): v for s, v in t.payouts(chips).items()}
                        if state.get("over") else None),
            "deal": bool(t.deal), "settled": t.settled,
            "played_to": int(state.get("dealt_level") or level + 1),
            "ended_in_break": state.get("ended_in_break"),
            "proposal": proposal, "last_call": self.last_call_public(),
            "break": self.break_public(),
            "next_proposal": {str(s): int(h) for s, h in state.get("next_proposal", {}).items()},
            "deal_from": t.deal_from,
            "deal_open": t.deal_open(chips) and not state.get("over"),
            "may_rebuy": t.rebuy_waiting(),
            "addon": self.addon_public(t, chips),
            "ledger": self.ledger(t, late),  # (in the buy-in's units, the page's ledger)
        }  # fmt: skip

    @staticmethod
    def places_given(t: Tournament, chips: list[int], over: bool,
                     entries_open: bool = False) -> dict[str, int]:
        """The finishing places given so far (seat as text -> place, 1 = best): every
        place once the tournament is over; before, those of the busted who are out
        for good -- not of one who may still rebuy (:meth:`Tournament.rebuy_waiting`:
        in the last call for a rebuy, or at any bust while rebuys are open), who is
        not out yet (stop 52: "2nd: Ann" showed beside her Rebuy button), nor of one
        busted with or after such a player, whose place their rebuy would move
        (stop 59: :meth:`Tournament.places_known`)."""
        places = t.places(chips) if over else t.places_known(chips, entries_open)
        return {str(s): p for s, p in places.items()}

    def waiting(self) -> str | None:
        """Why a tournament table deals no hand (over, a deal being agreed), or ``None``."""
        t = self._state()
        if t is None:
            return None
        if t.get("over"):
            return "The tournament is over."
        if t.get("proposal") is not None:
            return "Waiting: the players left are agreeing a deal."
        if t.get("break") is not None:
            return self.break_words()
        return self.last_call_words()

    def handle_deal(self, seat: int, body: dict[str, Any]) -> None:
        """A ``deal`` message from ``seat`` (issue 28): ``propose`` (with ``method``:
        ``icm`` or ``chip_chop``), ``agree`` or ``decline`` the open proposal.

        A proposal worked out (its shares known: at once between hands, else when
        the hand in play ends) stops the level clock and the dealing until every
        player left agrees (the deal is then applied: the tournament is over, each paid their
        share) or one declines (play goes on).  Computer players agree to a share
        at least their ICM equity.

        Raises :class:`TableError` (nothing changes): ``not_tournament``,
        ``not_playing`` (``seat`` is not among the players left), ``malformed``
        (op, method or offer), ``no_proposal``, ``proposal_open``,
        ``offer_changed`` (``offer``, the shares the player saw, with ``agree`` or
        ``decline``, are not the open proposal's), ``not_yet`` (the hand
        in play, or the one being named or waiting for client seeds, must end
        first), ``too_soon`` (this seat's last proposal was declined by a person
        or lapsed fewer than :data:`DEAL_AGAIN_HANDS` hands ago), ``too_early``
        (more players left than :attr:`Tournament.deal_from`: the places paid plus
        one, at least 3; or one busted may still rebuy), ``over``.
        Unanswered for :data:`DEAL_ANSWER_SECONDS` once worked out, a proposal
        lapses as if declined.
        """
        live = self.table
        state = self._state()
        t = self.tournament()
        if state is None or t is None:
            raise TableError("not_tournament", "deals are for the final players of a tournament")
        if state.get("over"):
            raise TableError("over", "the tournament is over")
        chips = self.stacks()
        if seat not in t.left(chips):
            raise TableError("not_playing", "only the players left in the tournament make a deal")
        op = body.get("op")
        if op not in DEAL_OPS:
            raise TableError("malformed", f"'op' must be one of {', '.join(DEAL_OPS)}, not {op!r}")
        proposal = state.get("proposal")
        if op == "propose":
            method = body.get("method")
            if method not in DEAL_METHODS:
                raise TableError("malformed", f"'method' must be one of {', '.join(DEAL_METHODS)}, "
                                 f"not {method!r}")
            if proposal is not None:
                raise TableError("proposal_open", "a deal is already proposed: agree or decline it")
            again = int(state.get("next_proposal", {}).get(str(seat), 0))
            if int(live.session.get("hand_no", 0)) < again:
                left = again - int(live.session.get("hand_no", 0))
                raise TableError("too_soon", f"your last deal was declined or lapsed: you may "
                                 f"propose again after {left} more hand{'s' if left > 1 else ''}")
            if t.rebuy_waiting():
                who = and_list([self.entrant_name(s) for s in t.rebuy_waiting()])
                raise TableError("too_early", f"a deal waits for the rebuys: {who} may still "
                                 "rebuy")
            if t.addon_waiting(chips):  # (the pool and the stacks may still grow: s60-safe2)
                who = and_list([self.entrant_name(s) for s in t.addon_waiting(chips)])
                raise TableError("too_early", f"a deal waits for the add-on: {who} may still "
                                 "take it, until play resumes")
            if not t.deal_open(chips):
                left = len(t.left(chips))
                raise TableError("too_early", f"a deal is for the final players: propose one "
                                 f"when {t.deal_from} or fewer are left ({left} are now)")
            self.fold_clock()
            state["proposal"] = {"method": method, "by": seat, "offer": None, "agreed": [seat]}
            if not self._hand_offered():
                self._offer(t)
            self.fold_clock()  # (the clock stops while the deal is agreed)
        else:
            if proposal is None:
                raise TableError("no_proposal", "no deal is proposed")
            if proposal["offer"] is None:
                raise TableError("not_yet", "the deal is worked out when the hand in play ends")
            self._check_seen(body, proposal)
            if op == "decline":
                self._withdraw()
            elif seat in proposal["agreed"]:
                # (already so: nothing saved or sent, stop 58; each repeated agree
                # was saved and sent whole to every connection at the table)
                return
            else:
                proposal["agreed"].append(seat)
        self._settle_proposal()
        live.turns.bump_seq()
        live.saving.commit(session=True)
        live.views.broadcast()
        if state.get("proposal") is None and not state.get("over"):
            live.dealer.deal_soon()

    def _check_seen(self, body: dict[str, Any], proposal: dict[str, Any]) -> None:
        """An answer that says which shares it answers (``offer``: seat -> prize, as
        the page showed them) answers only those: a click on **Agree** that arrives
        after that proposal was declined and another proposed (other shares) would
        otherwise agree to shares its player never saw.  Refused ``offer_changed``
        naming the shares now; ``malformed`` if ``offer`` is not such an object."""
        if "offer" not in body:
            return
        seen = body["offer"]
        if not isinstance(seen, dict) or len(seen) > 10 or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in seen.values()):
            raise TableError("malformed", "'offer' must be the shares you saw: an object of "
                             "seat numbers to whole prizes")
        now = proposal["offer"]
        if {str(k): v for k, v in seen.items()} != now:
            shares = ", ".join(f"{self.entrant_name(int(s))} {v}" for s, v in now.items())
            raise TableError("offer_changed", "the deal changed since you saw it: "
                             f"{'ICM' if proposal['method'] == 'icm' else 'chip-chop'} "
                             f"proposed by {self.entrant_name(int(proposal['by']))}, "
                             f"shares now {shares}; answer it again")

    def _hand_offered(self) -> bool:
        """Whether a hand is in play or on its way: dealt, its game being named
        (dealer's choice) or its committed deal waiting for client seeds.  Such a
        hand is dealt whatever is proposed, so a proposal made now is worked out
        when it ends (:meth:`hand_ended`): shares from the stacks before it, agreed
        while it is played, ended the tournament with the hand still in play."""
        live = self.table
        return (live.hand is not None or bool(live.session.get("choice"))
                or bool(live.session.get("seeding")))

    def _offer(self, t: Tournament) -> None:
        """Work out the open proposal's shares from the stacks now; computer players
        agree when their share is at least their ICM equity (rounded down), and
        otherwise decline at once: the proposal is withdrawn and play goes on, as
        when a person declines (a computer player that neither agreed nor declined
        left the table waiting for ever)."""
        live = self.table
        state = self._state()
        assert state is not None and state["proposal"] is not None
        proposal = state["proposal"]
        chips = self.stacks()
        offer = t.deal_offer(chips, proposal["method"])
        fair = t.deal_offer(chips, "icm")
        bots = [s for s in offer if live.seats[s].row.bot is not None]
        if any(offer[s] < fair[s] - 1 for s in bots):
            # (at once: the table never waited on it; its proposer may propose again
            # from the next hand: each proposal worked out the shares, saved and told
            # everyone, and one declined at once could be sent again at once, stop 57)
            self._withdraw(bar=False)
            state.setdefault("next_proposal", {})[str(proposal["by"])] = (
                int(live.session.get("hand_no", 0)) + 1)
            return
        proposal["offer"] = {str(s): v for s, v in offer.items()}
        proposal["agreed"] = sorted({*proposal["agreed"], *bots})
        proposal["until"] = round(live.clock() + self.DEAL_ANSWER_SECONDS, 3)
        self.lapse.arm()
        if live.session.get("host_paused"):
            self.lapse.hold()  # (worked out during the host's pause: its time waits too)

    def _withdraw(self, bar: bool = True) -> None:
        """The open proposal ends without a deal (declined or lapsed): play goes on,
        and (``bar``) its proposer may propose again only after
        :data:`DEAL_AGAIN_HANDS` hands."""
        live = self.table
        state = self._state()
        assert state is not None and state["proposal"] is not None
        if bar:
            state.setdefault("next_proposal", {})[str(state["proposal"]["by"])] = (
                int(live.session.get("hand_no", 0)) + self.DEAL_AGAIN_HANDS)
        state["proposal"] = None
        self.lapse.stop()
        self.fold_clock()  # (the clock runs again)

    def _lapse(self, until: float) -> None:
        """Not every player left answered the proposal in time: it lapses."""
        live = self.table
        state = self._state()
        proposal = state.get("proposal") if state is not None else None
        if (live.closed or proposal is None or proposal.get("until") != until
                or state is None or state.get("over")):
            return
        self._withdraw()
        live.turns.bump_seq()
        live.saving.commit(session=True)
        live.views.broadcast()
        live.dealer.deal_soon()

    def hand_ended(self, busted: list[str] | None = None) -> str | None:
        """A hand ended (or the hand offered never came: its game's choice or its
        deal lapsed): an open proposal is worked out again from the new stacks
        (everyone agrees again), or dropped when fewer than 2 players are left,
        its proposer is out, or one may still rebuy or answer the add-on.

        ``busted``: the names of the players the hand left with no chips, in seat
        order (``None`` or empty: nobody, or no hand).  Returns the words to tell
        the table when the proposal is dropped and someone busted ("The deal was
        dropped: Hal busted."; s59-felt: nobody was told), else ``None``."""
        state = self._state()
        t = self.tournament()
        if state is None or t is None or state.get("proposal") is None or state.get("over"):
            return None
        left = t.left(self.stacks())
        if (len(left) < 2 or state["proposal"]["by"] not in left or t.rebuy_waiting()
                or t.addon_waiting(self.stacks())):
            # (fewer than two to deal, or the proposer went out: nobody left proposed
            # it, and their agreement could never be given again; or one who went
            # out may still rebuy: the field and the pool may grow, stop 56; or the
            # rebuys closed with this hand and the add-on is offered: s60-safe2)
            state["proposal"] = None
            self.lapse.stop()
            if not busted:
                return None
            who = busted[0] if len(busted) == 1 else ", ".join(busted[:-1]) + " and " + busted[-1]
            return f"The deal was dropped: {who} busted."
        state["proposal"]["agreed"] = [state["proposal"]["by"]]
        self._offer(t)
        self._settle_proposal()
        return None

    def _settle_proposal(self) -> None:
        """Every player left agreed: apply the deal (the tournament is over)."""
        state = self._state()
        t = self.tournament()
        if state is None or t is None or state.get("proposal") is None:
            return
        proposal = state["proposal"]
        chips = self.stacks()
        left = t.left(chips)
        if proposal["offer"] is not None and sorted(int(s) for s in proposal["offer"]) != left:
            self._withdraw(bar=False)  # (the players left changed: its shares are void)
            return
        if proposal["offer"] is None or set(proposal["agreed"]) != set(left):
            return
        t.agree_deal(chips, {int(s): int(v) for s, v in proposal["offer"].items()})
        state.update(t.state())
        state["proposal"] = None
        self.lapse.stop()
        state["over"] = True
        self.fold_clock()

    def addon_public(self, t: Tournament, chips: list[int]) -> dict[str, Any] | None:
        """The add-on as every client sees it (stop 60; ``None`` when the host set
        none): ``chips``, ``price`` (the buy-in's units), ``open`` (its window:
        :attr:`Tournament.addon_open`, not over, and no hand in play: the hand that
        was played when the rebuy levels' time ran out is played out first, and a
        player in it could not take the offer; the page offers it when ``open``),
        ``taken`` and ``declined`` (seats,
        ascending) and ``waiting`` (the entrants who may still answer it)."""
        if not t.addon_chips:
            return None
        state = self._state()
        over = bool(state and state.get("over"))
        live = self.table
        playing = live.hand is not None and not live.hand.over
        return {"chips": t.addon_chips, "price": t.addon_price,
                "open": t.addon_open and not over and not playing, "taken": sorted(t.addons),
                "declined": sorted(t.addon_declined),
                "waiting": [] if over else t.addon_waiting(chips)}

    def _people_waiting(self) -> list[int]:
        """The people (not computer players) who may still answer the add-on."""
        live = self.table
        t = self.tournament()
        if t is None:
            return []
        return [s for s in t.addon_waiting(self.stacks())
                if s in live.seats and live.seats[s].row.bot is None]

    def addon(self, seat: int, take: bool, *, bot: bool = False) -> list[Any]:
        """``seat`` takes (``take``) or declines the add-on (stop 60): its chips go on
        its stack (counted as brought) and its price into the prize pool; everyone
        is told in the chat ("Ann takes the add-on: +150 chips, 5 into the prize
        pool."). When the break is the add-on's own and nobody is left to answer,
        it ends and the next hand is dealt. ``bot``: a computer player's answer,
        made by :meth:`begin_break`, which commits and tells (returns the chat's
        sends then; else ``[]``).

        Raises :class:`TableError` (nothing changes): ``not_tournament`` (a cash
        game or not started), ``over``, ``in_hand`` (in the hand still played out
        when the rebuys closed: after it), or the model's refusal
        (:class:`rollem.tournament.session.AddonRefused`): ``no_addon``,
        ``addon_closed`` (the window is not open), ``not_entrant``, ``busted``,
        ``taken``, ``declined``."""
        from rollem.table import TableError as SessionRefused
        from rollem.tournament.session import AddonRefused

        live = self.table
        state = self._state()
        if state is None or not live.config.tournament:
            raise TableError("not_tournament", "an add-on is a tournament's: this table "
                             "plays a cash game" if not live.config.tournament else
                             "an add-on is a tournament's: the tournament has not started")
        if state.get("over"):
            raise TableError("over", "the tournament is over: no add-on")
        table = live.dealer.session_table()
        t = table.tournament
        assert t is not None
        row = live.seats[seat].row
        name = self.entrant_name(seat)
        try:
            t.check_addon(seat, table.stacks)
            if take:
                if live.hand is not None and not live.hand.over and seat in live.hand.seats:
                    raise TableError("in_hand", "you are in the hand in play: take the "
                                     "add-on after it")
                table.addon_seat(seat)
            else:
                t.decline_addon(seat, table.stacks)
        except SessionRefused as err:
            raise TableError(err.code, str(err)) from None
        except AddonRefused as err:
            raise TableError(err.code, str(err)) from None
        state.update(t.state())
        if take:
            row.stack, row.brought = table.stacks[seat], table.brought[seat]
            words = (f"{name} takes the add-on: +{t.addon_chips} chips, {t.addon_price} into "
                     f"the prize pool (now {t.prize_pool}).")
        else:
            words = f"{name} declines the add-on."
        told = self._chat(words)
        if bot:
            return told
        live.turns.bump_seq()
        live.saving.commit(seats=[row], session=True)
        live.views.broadcast()
        live.saving.send_after_commit(told)
        pause = state.get("break")
        if pause is not None and pause.get("addon") and not self._people_waiting():
            self.end_break()  # (everyone answered: the add-on's own break is over)
        return []

    def _chat(self, text: str) -> list[Any]:
        """Add ``text`` to the table's chat as the table's line; returns the sends, for
        the caller to queue after its commit."""
        from rollem.server.host import chat_log
        from rollem.server.live_table import _dumps

        live = self.table
        entry = chat_log(live).notice(text, live.clock())
        live.session["chat"] = chat_log(live).lines
        line = _dumps({"type": "chat", "lines": [entry]})
        from rollem.server import host_tools

        return [(c, line) for c in live.all_clients()
                if host_tools.view_kind(live, c) != "locked"]

    def _bots_addon(self) -> tuple[list[Any], list[Any]]:
        """The add-on's window opened: each computer player still in answers it
        (:func:`rollem.tournament.session.bot_takes_addon`; the host stakes its price,
        as its buy-in). Returns the chat's sends and the seats' rows whose stacks
        grew, for the caller's commit (else a restart lost their chips)."""
        from rollem.tournament.session import bot_takes_addon

        live = self.table
        t = self.tournament()
        if t is None or not t.addon_open:
            return [], []
        told: list[Any] = []
        rows: list[Any] = []
        chips = self.stacks()
        for seat in t.addon_waiting(chips):
            if seat in live.seats and live.seats[seat].row.bot is not None:
                take = bot_takes_addon(chips[seat], t.addon_chips)
                told += self.addon(seat, take, bot=True)
                if take:
                    rows.append(live.seats[seat].row)
        return told, rows

    def dealt(self, table: SessionTable, hand_no: int) -> None:
        """Hand ``hand_no`` was dealt by ``table``: the add-on's window closes with it
        (stop 60), and ``dealt_level`` (1-based) keeps the level it is played at, what
        the panel says the tournament was "played to" once it is over (s64-table: the
        level clock's level read "played to level 2 of 2" where a settle in the
        break after level 1 ended it and no hand was dealt at level 2); both kept
        in the session (written with the deal), with what they were before it
        (``before_deal``: ``{"hand", "addon_closed", "dealt_level"}``) for
        :meth:`void_hand`."""
        t = self._state()
        if t is not None and table.tournament is not None:
            t["before_deal"] = {"hand": hand_no, "addon_closed": bool(t.get("addon_closed")),
                                "dealt_level": t.get("dealt_level")}
            t["dealt_level"] = table.tournament.level + 1
            if table.tournament.addon_closed:
                t["addon_closed"] = True

    def void_hand(self, hand_no: int) -> None:
        """Hand ``hand_no`` in play is void (it could not be replayed at a restore:
        :meth:`LiveTable._void_hand`), as if never dealt: the add-on's window is as
        it was before its deal -- open again if that deal closed it (the first hand
        after the rebuys closed, stop 60: until the next deal, a player who had not
        answered may still take it) -- and so is ``dealt_level`` (s65-table).  The
        caller writes the session.  Nothing when the deal was not this table's last
        (a session stored before s65 has no ``before_deal``: the window stays
        closed)."""
        t = self._state()
        before = t.get("before_deal") if t is not None else None
        if t is None or not before or int(before["hand"]) != hand_no:
            return
        t["addon_closed"] = bool(before["addon_closed"])
        if before["dealt_level"] is None:
            t.pop("dealt_level", None)
        else:
            t["dealt_level"] = before["dealt_level"]
        t.pop("before_deal")

    def level(self, table: SessionTable) -> dict[str, Any] | None:
        """The tournament, level (1-based) and stakes a hand about to be dealt by
        ``table`` is played at, kept with the hand (its history), or ``None``."""
        t = table.tournament
        if t is None:
            return None
        return t.hand_record()

    def may_rebuy(self, seat: int) -> bool:
        """Whether ``seat`` is a busted entrant who may still buy in again (the
        tournament on, its rebuy levels not past): its seat is kept while its
        player is away, as a rebuy needs the seat (a newcomer is refused once
        the tournament has started)."""
        live = self.table
        t = self._state()
        if (t is None or t.get("over") or seat not in t["entrants"]
                or seat not in live.seats or live.seats[seat].row.stack > 0):
            return False
        sit_and_go = self.tournament()
        return sit_and_go is not None and sit_and_go.may_rebuy(seat)

    def decline_rebuy(self, seat: int) -> None:
        """The busted entrant in ``seat`` says "no rebuy: I'm out" (the page's
        button beside Rebuy; ``{"type": "rebuy", "decline": true}``): out for good
        at once, placed by their bust (docs/tournaments.md), a rebuy request of
        theirs waiting for the host withdrawn; a last call waiting only for them
        ends and the tournament with it, as when its time runs out.  Before,
        only the end of the rebuy levels or of the last call (60 s) placed them.

        Raises :class:`TableError` (nothing changes): ``not_tournament`` (a cash
        game: there a rebuy is simply not taken), ``no_rebuy`` (not a busted
        entrant who may still rebuy: chips, rebuys closed, declined already, or
        the tournament over)."""
        live = self.table
        t = self._state()
        if t is None or not live.config.tournament:
            raise TableError("not_tournament", "only a busted tournament entrant declines "
                             "a rebuy; at a cash game a rebuy is simply not taken")
        if not self.may_rebuy(seat):
            raise TableError("no_rebuy", "you have no rebuy to decline: only a busted "
                             "entrant may, while rebuys are open and not yet declined")
        sit_and_go = self.tournament()
        assert sit_and_go is not None
        asked = live.session.get("rebuy_requests", [])
        if seat in asked:
            asked.remove(seat)
        sit_and_go.decline_rebuy(seat)
        t.update(sit_and_go.state())
        chips = self.stacks()
        if sit_and_go.over(chips) and not t.get("over"):
            self.fold_clock()
            t["over"] = True
            t["since"] = None
        self._last_call(sit_and_go, chips)
        live.turns.bump_seq()
        live.saving.commit(session=True)
        live.views.broadcast()
        live.dealer.deal_soon()

    def holds_entry(self, seat: int) -> bool:
        """Whether ``seat`` is an entrant still in the tournament (chips, not over):
        its seat is kept when its player is away, and it is dealt in and blinded
        and anted off as in card rooms (issue 28); the host cannot remove it."""
        live = self.table
        t = self._state()
        return (t is not None and not t.get("over") and seat in t["entrants"]
                and seat in live.seats and live.seats[seat].row.stack > 0)
