"""Seats and connections of a live table: tokens, sitting down (buy-ins follow
the person), connecting and disconnecting, the grace period of a player who
is away, freeing a seat (its ledger line, its hands for replay) and each
seat's own computer player.  :class:`Seating` is the table's part that
owns them.

Rules: R-C-15 (a player away longer than ``grace_seconds`` is *gone*: their
decisions time out at once and the seat is freed after the hand; a pending
dealer's choice of a freed seat lapses, R-C-12).  The host's pause lasts while
the host is there: once no connection of the host has been open for
``grace_seconds`` the table resumes by itself (:func:`rollem.server.host.lift_pause`),
so a host who pauses and never comes back does not freeze the table for good.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rollem.lookalike import whole_script
from rollem.server import host, host_tools, live_table, night_close, seat_moves
from rollem.server.live_table.clients import (
    CONNECTIONS_PER_SEAT,
    REPLACED_CODE,
    Client,
    Seat,
)
from rollem.server.live_table.errors import TableError
from rollem.server.live_table.player_names import (
    NEAR_NAME_FINE,
    clean_name,
    distinct_name,
    name_keys,
)
from rollem.server.protocol import error_message
from rollem.server.store import SeatRow, token_digest

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable


DEPARTED_KEPT = 64
"""The most ledger lines of people who left that the ledger keeps one a person
(``session["departed"]``, sent in every state): past it the oldest are summed
into one line of earlier players (:func:`fold_oldest_departed`; stop 52)."""


def earlier_players_name(count: int) -> str:
    """The name of the ledger's one line of ``count`` earlier players (the page
    adds "(left)": "70 earlier players (left)").  No player may sit down with a
    name like it, any number, as read or as looks (:func:`clean_name` refuses it):
    the settle-up adds the ledger's nets by name (:meth:`Views.settle_up
    <rollem.server.live_table.views.Views.settle_up>`)."""
    return f"{count} earlier player{'' if count == 1 else 's'}"


STINTS_PER_PERSON = 16
"""The most stints (``session["stints"]``: a seat and the hands played in it)
one person keeps at a table (s59-rejoin).  A return to a seat nobody has taken
since the person left it extends their stint there (:func:`add_stint`), so
leaving and coming back to it costs nothing; a return that would start a
further stint past this many is refused (``too_often``, :func:`stint_refusal`),
as is a seat change.  Each stint is about 120 characters of the session saved
at every action; with :data:`DEPARTED_KEPT` the table keeps at most
(64 + seats) x 16 of them."""


def add_stint(session: dict[str, Any], digest: str, seat: int, first: int,
              last: int) -> None:
    """Record that the holder of seat cookie digest ``digest`` played hands ``first``
    to ``last`` (hand numbers, both counted) in ``seat`` (R-seat: their own cards
    in those hands stay theirs to replay and download), when they leave it.

    When the seat's last leaver (``session["seat_left_by"]``, :func:`mark_left`) is
    this same person, at the end of their stint there, nobody has sat in the seat
    since: the hands between were dealt without it, so that stint is extended to
    ``last`` instead of a new one added (their hands only, as before; the
    record stays one stint however often they leave and come back)."""
    stints: list[dict[str, Any]] = session.setdefault("stints", [])
    left = session.get("seat_left_by", {}).get(str(seat))
    if left is not None and left[0] == digest and int(left[1]) < first:
        for stint in reversed(stints):
            if (stint["digest"] == digest and stint["seat"] == seat
                    and stint["last"] == left[1]):
                stint["last"] = last
                return
    stints.append({"digest": digest, "seat": seat, "first": first, "last": last})


def mark_left(session: dict[str, Any], seat: int, digest: str | None, hand_no: int,
              played: bool) -> None:
    """Note who left ``seat`` last, at hand number ``hand_no`` (``digest``: their seat
    cookie digest; ``None``: a computer player or no cookie): read by
    :func:`add_stint`.  Every way out of a seat calls it (a seat freed or
    released, a seat change), so whoever sits there between two stints of one
    person shows.  A person leaving without having played there keeps their
    own earlier mark (the seat was theirs alone meanwhile)."""
    left_by = session.setdefault("seat_left_by", {})
    old = left_by.get(str(seat))
    if not played and digest is not None and old is not None and old[0] == digest:
        return
    left_by[str(seat)] = [digest, hand_no]


def extends_stint(session: dict[str, Any], digest: str, seat: int) -> bool:
    """Whether a stint of ``digest``'s in ``seat`` would extend their earlier one
    there (:func:`add_stint`) rather than add one."""
    left = session.get("seat_left_by", {}).get(str(seat))
    return left is not None and left[0] == digest and any(
        st["digest"] == digest and st["seat"] == seat and st["last"] == left[1]
        for st in session.get("stints", []))


def stint_refusal(session: dict[str, Any], digest: str, seat: int,
                  free: list[int], moving: bool = False) -> TableError | None:
    """``too_often`` when the person of ``digest`` already holds
    :data:`STINTS_PER_PERSON` stints and playing in ``seat`` would start another
    (``free``: the seats they could take instead, those where it would not);
    ``None`` when it may go on."""
    mine = sum(1 for st in session.get("stints", []) if st["digest"] == digest)
    if mine < STINTS_PER_PERSON or extends_stint(session, digest, seat):
        return None
    where = [n for n in free if extends_stint(session, digest, n)]
    what = "changed seats" if moving else "left this table and come back"
    told = (f"you have {what} {mine} time{'' if mine == 1 else 's'}, each time to a "
            "seat someone else had sat in since; to keep the table's records small ")
    if moving:
        return TableError("too_often", told + "you may not change seats again")
    if where:
        return TableError("too_often", told + "you may sit down again only in seat "
                          f"{where[0] + 1} (index {where[0]}), yours before, or watch")
    return TableError("too_often", told + "you can watch")


def fold_oldest_departed(session: dict[str, Any], kept: int) -> None:
    """Keep at most ``kept`` ledger lines of people who left (``session["departed"]``,
    oldest first): the oldest past it are summed into one line of earlier
    players, first in the list -- ``{"seat": None, "name": "N earlier players",
    "brought", "stack", "net" (chips, the sums of theirs), "left": True,
    "players": N}``, and ``"bot_net"``: the computer players' part of the net, which
    the host covers in the settle-up (stop 58) -- so the ledger still sums (what was
    brought, what is held) and the settle-up still balances, with that line as one party.  A summed
    person is no longer known to the table: back from the same browser they sit
    down as anyone new (their chips stay in the summed line), and their hands'
    stints and rebuy count go (``session["stints"]``, ``["rebuys_made"]``).

    Why: a loop where each newcomer plays one hand and leaves grew the ledger a
    line a hand, without bound (stop 51's hostile review); 64 people who left is
    more than a home game's night, so only such a loop is summed."""
    departed: list[dict[str, Any]] = session.get("departed", [])
    people = [line for line in departed if not line.get("players")]
    if len(people) <= kept:
        return
    gone_digests: set[str] = set()
    summed = departed[0] if departed and departed[0].get("players") else None
    if summed is None:
        summed = {"seat": None, "name": "", "brought": 0, "stack": 0, "net": 0,
                  "left": True, "players": 0}
        departed.insert(0, summed)
    for line in people[:len(people) - kept]:
        departed.remove(line)
        for key in ("brought", "stack", "net"):
            summed[key] = int(summed[key]) + int(line[key])
        summed["players"] = int(summed["players"]) + 1
        if line.get("bot"):  # (the host covers it still: stop 58)
            summed["bot_net"] = int(summed.get("bot_net", 0)) + int(line["net"])
        if line.get("digest"):
            gone_digests.add(str(line["digest"]))
    summed["name"] = earlier_players_name(int(summed["players"]))
    if gone_digests:
        session["stints"] = [st for st in session.get("stints", [])
                             if st["digest"] not in gone_digests]
        made = session.get("rebuys_made", {})
        for digest in gone_digests:
            made.pop(digest, None)


def _looks_like(name: str, other: str) -> str:
    """``'Апп', in Cyrillic letters, looks like 'Ann'``: the start of a refusal of a
    look-alike name, naming its script when the two are written wholly in two
    scripts (a TS #39 whole-script confusable). Issue 34."""
    mine, theirs = whole_script(name), whole_script(other)
    if mine is not None and theirs is not None and mine != theirs:
        return f"{name!r}, in {mine.title()} letters, looks like {other!r}"
    return f"{name!r} looks like {other!r}"


def _near_fine(name: str, other: str) -> str:
    """What is fine instead of ``name``, which reads as ``other`` (s58-tidy): the end
    of the refusal, with ``other`` and a number as its example (``'Ann 2'``)."""
    try:
        example = distinct_name(other, [other])
    except TableError:
        example = f"{other} 2"
    return NEAR_NAME_FINE.format(example=example)


def _replace_oldest(clients: set[Client], most: int, whose: str) -> set[Client]:
    """Close the oldest of ``clients`` (one seat's, or the host cookie's) past
    ``most``: each is told why (``replaced``) and closed with
    :data:`REPLACED_CODE`, and taken out of ``clients``.  Returns those closed."""
    extra = sorted(clients, key=lambda c: c.opened)[:max(0, len(clients) - most)]
    for old in extra:
        clients.discard(old)
        old.send(error_message(
            "replaced", f"replaced by a newer connection of this {whose} (at most {most} "
            "at once: another tab or device)"))
        old.finish(REPLACED_CODE, f"replaced by a newer connection of this {whose}")
    return set(extra)


class Seating:
    """The seats of one table and the connections to it.

    Owns: :attr:`seats` (seat number -> :class:`Seat`: its stored row, the
    connections that play it, its away clock and computer player; the table's
    ``seats``), :attr:`onlookers` (connections that hold no seat) and
    :attr:`idle_since` (when nobody was last connected, on ``table.clock``:
    the :class:`~rollem.server.manager.TableManager` drops idle tables).

    Takes from its ``table``: ``id``, ``config``, ``session`` (``hand_no``,
    ``started``, ``departed``, ``stints``, ``away``, ``rebuys_made``,
    ``removed_players`` (the seat cookie digests of players the host removed, until
    they sit down again; the newest :data:`rollem.server.host.REMOVED_KEPT`) and
    ``gone_players`` (the same of players whose seat was given up after the grace
    period, told so when they come back: :func:`rollem.server.host.gone_words`) are read
    and written here), ``host_digest``, ``hand``, ``closed``, ``clock``,
    ``bot_factory`` and ``RETRY_MAX``; it writes with ``table.saving``, tells
    with ``table.views``, times out a gone seat's decision with
    ``table.turns``, lapses its dealer's choice (``table.dealers_choice``),
    counts a newcomer as attendance (``table.pace``) and may deal
    (``table.dealer.deal_soon``); computer players hear of a new opponent in
    ``live_table._BOT_THREAD``.
    """

    def __init__(self, table: LiveTable, rows: list[SeatRow]) -> None:
        self.table = table
        self.seats: dict[int, Seat] = {r.seat: Seat(r) for r in rows}
        self.onlookers: set[Client] = set()
        self.idle_since = table.clock()  # nobody connected since (see TableManager)
        self.host_away_since: float | None = None
        """When the host's last connection closed while the table was paused
        (``None``: a host connection is open, or no pause waits on the host)."""

    def resume(self, now: float) -> None:
        """A restored table resumes (at ``now``, on ``table.clock``): every player
        starts disconnected, each keeping the seat for the grace period from the
        stored moment they went away (or from now, if they were connected)."""
        table = self.table
        loop = asyncio.get_running_loop()
        away = table.session.get("away") or {}
        for number, seat in self.seats.items():
            if seat.row.bot is None and not seat.clients:
                # Away since the stored moment (or since now, if it was connected).
                since = min(now, float(away.get(str(number), now)))
                seat.disconnected_since = since
                # (connected when last saved: its page was open in the process that
                # held the table and is on its way here, not closed)
                seat.page_elsewhere = str(number) not in away
                loop.call_later(max(0.0, since + table.config.grace_seconds - now),
                                self.grace_over, number, seat, since)
        if table.session.get("host_paused"):  # paused, and no host is connected yet
            self.host_away(now)
        table.host_role.resumed()  # (the host's away clock counts on: host_role.py)

    def host_away(self, since: float) -> None:
        """The table is paused and no connection of the host is open since
        ``since``: the pause is lifted after ``grace_seconds`` unless a host
        connection opens meanwhile (:meth:`host_grace_over`)."""
        self.host_away_since = since
        asyncio.get_running_loop().call_later(
            max(0.0, since + self.table.config.grace_seconds - self.table.clock()),
            self.host_grace_over, since)

    def host_grace_over(self, since: float) -> None:
        """The host has been away for the grace period since ``since`` while the
        table was paused: resume (:func:`rollem.server.host.lift_pause`)."""
        table = self.table
        if table.closed or self.host_away_since != since:
            return  # the host came back (or left again later: a later timer decides)
        if table.saving.halted:  # resuming is a write: after the storage pause
            asyncio.get_running_loop().call_later(table.RETRY_MAX, self.host_grace_over, since)
            return
        self.host_away_since = None
        host.lift_pause(table)

    def adopt(self, fresh: Seating) -> None:
        """Take the committed seats of ``fresh`` (a rebuilt table's,
        :meth:`LiveTable.adopt`), keeping the connections: a seat that was never
        saved is released, a seat whose freeing was never saved is back (its
        player away from now)."""
        table = self.table
        now = table.clock()
        loop = asyncio.get_running_loop()
        for number in [n for n in self.seats if n not in fresh.seats]:
            self.release_seat(number)  # a seat that was never saved
        for number, seat in fresh.seats.items():
            if number in self.seats:
                self.seats[number].row = seat.row
                continue
            self.seats[number] = seat  # a seat whose freeing was never saved
            if seat.row.bot is None:
                seat.disconnected_since = now
                loop.call_later(table.config.grace_seconds, self.grace_over, number, seat, now)

    def seat_for_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_digest(token)
        for number, seat in self.seats.items():
            if seat.row.token_digest is not None and secrets.compare_digest(
                seat.row.token_digest, digest
            ):
                return number
        return None

    def seat_in_hand(self, token: str | None, hand_no: int, seats: list[int]) -> int | None:
        """The seat the holder of seat cookie ``token`` played in past hand ``hand_no``
        (dealt to ``seats``), or ``None``: their seat now if they sat down before that
        deal, else a seat they held then and have left since (``session["stints"]``).
        A later occupant of the seat never gets a predecessor's hands.  For many
        hands, :meth:`seats_in_hands`."""
        return self.seats_in_hands(token)(hand_no, seats)

    def seats_in_hands(self, token: str | None) -> Callable[[int, Iterable[int]], int | None]:
        """:meth:`seat_in_hand` of ``token`` for many hands: ``seat(hand_no, seats)``.
        The cookie's digest, its seat now and its own stints are found once (one
        pass over the table's stints); each hand then costs a look at those alone.
        The hand list and the whole-session download ask it of every finished
        hand: asked afresh for each (a digest, the seats and every stint of every
        person walked per hand), a made-up cookie at a table of 5,000 hands and
        200 stints held the event loop 0.4 s a request (s60-safe)."""
        if not token:
            return lambda hand_no, seats: None
        now = self.seat_for_token(token)
        joined = self.seats[now].row.joined_hand if now is not None else None
        digest = token_digest(token)
        mine = [(int(st["first"]), int(st["last"]), int(st["seat"]))
                for st in self.table.session.get("stints", [])
                if secrets.compare_digest(str(st["digest"]), digest)]

        def seat(hand_no: int, seats: Iterable[int]) -> int | None:
            if now is not None and joined is not None and joined < hand_no:
                return now if now in seats else None
            for first, last, where in mine:
                if first <= hand_no <= last and where in seats:
                    return where
            return None

        return seat

    def left_hands_here(self, token: str | None) -> bool:
        """Whether the holder of seat cookie ``token`` played hands at this table in a
        seat they have left since (``session["stints"]``): one digest, compared
        with each stint's, so a stranger's made-up cookie costs no walk over the
        table's hands."""
        if not token:
            return False
        digest = token_digest(token)
        return any(secrets.compare_digest(str(stint["digest"]), digest)
                   for stint in self.table.session.get("stints", []))

    def is_host(self, host_token: str | None) -> bool:
        table = self.table
        return bool(host_token) and secrets.compare_digest(
            table.host_digest, token_digest(host_token or "")
        )

    def free_seats(self) -> list[int]:
        """The seats nobody sits in and no seat change holds (a move waiting for the
        hand's end, :mod:`rollem.server.seat_moves`)."""
        table = self.table
        held = seat_moves.held_seats(table)
        return [s for s in range(table.config.seats) if s not in self.seats and s not in held]

    def taken_names(self, returning_digest: str | None = None) -> list[str]:
        """The names known at the table: the seated players' and the departed ones'
        (not the returning browser's own, whose name stays theirs)."""
        names = [str(s.row.name) for s in self.seats.values()]
        departed = self.table.session.get("departed", [])
        if not any(returning_digest is not None and line.get("digest") == returning_digest
                   for line in departed):
            names += [str(line["name"]) for line in departed]
        return names

    def join(self, name: object, seat: int | None,
             returning: str | None = None, stranger: bool = False,
             token: str | None = None, check_only: bool = False) -> tuple[int, str]:
        """Sit a player (no account, just a name); returns the seat and its token
        (``token``: the new seat token made ahead, else one is made here).
        ``check_only``: raise what the sit-down would be refused with, else return
        the seat it would get and ``""``; nothing changes either way (asked before
        a costly check of the asker, the shared seat count: a sit-down refused
        here costs nothing more).

        ``stranger``: one who may not see the table (a private table's newcomer,
        issue 27) is told little of it by the refusals: ``seat_taken`` does not
        name the free seats (the seat it is given tells that one was free), and
        a name already at the table or of a player who left -- which
        the refusal named, spelt as the player spells it, so anyone with the link
        could ask whether someone plays there -- is made distinct (``Ann 2``) for
        the host to see when letting them in.

        Buy-ins follow the person: a player who left (their old seat token in
        ``returning``; their name is theirs alone) sits down again with the
        stack they left with and the chips they had brought, and their ledger
        line is theirs again (one line per person); with no chips they may
        rebuy if the host allows rebuys, else they watch.

        Raises :class:`TableError`: ``bad_name`` (see :func:`clean_name`; or a
        name already at the table or of a player who left, as the names
        read: NFKC, ignoring case and invisible characters
        (:func:`rollem.text.name_key`), or as they look: Unicode TS #39
        confusables without accents and other combining marks, a name wholly in
        another script too (``Апп`` beside ``Ann``, issue 34;
        :func:`rollem.lookalike.look_alike_key`),
        without that player's seat token), ``bad_seat``,
        ``table_full``, ``seat_taken`` (in a started tournament also a free seat an
        entrant held), ``closed`` (the host closed the table), ``tournament_started``
        (a started tournament whose late registration is closed, or one who played
        in it, left and comes back: their chips were their entry).
        """
        table = self.table
        table.messages.check_not_paused()
        if night_close.stopped(table):
            raise night_close.refusal(table)  # (closed for good: stop 59)
        late = bool(table.config.tournament and table.session.get("started"))
        if late and not table.tourney.entries_open():
            raise TableError("tournament_started", "the tournament has started and its late "
                             "registration is closed (it is open while rebuys are, at a "
                             "table that lets players in without the host); you can watch")
        name = clean_name(name)
        if stranger:
            name = distinct_name(name, self.taken_names(
                token_digest(returning) if returning else None))
        # (each name's keys kept, name_keys: a refused sit-down sent again and again
        # compares with 73 names, s59-safe)
        folded, looks, near = name_keys(name)
        for other in self.seats.values():
            theirs = name_keys(str(other.row.name))
            if theirs[0] == folded:
                raise TableError("bad_name", f"{other.row.name!r} already sits at this table; "
                                 "choose another name")
            if theirs[1] == looks:
                raise TableError("bad_name", f"{_looks_like(name, other.row.name)}, who sits "
                                 "at this table; choose another name")
            if near and theirs[2] == near:
                raise TableError("bad_name", f"{name!r} reads as {other.row.name!r}, who sits at "
                                 f"this table: {_near_fine(name, other.row.name)}")
        if seat is not None and not 0 <= seat < table.config.seats:
            last = table.config.seats - 1
            raise TableError("bad_seat", f"no such seat {seat}: seats are 0..{last}")
        free = self.free_seats()
        if late:  # (an entrant's seat stays theirs: Tourney.entry_seats, s59-break)
            entry = table.tourney.entry_seats()
            if seat is not None and seat in free and seat not in entry:
                raise TableError("seat_taken", f"seat {seat + 1} (index {seat}) was an "
                                 "entrant's in this tournament; a late entrant takes a seat "
                                 f"nobody entered from: {', '.join(str(s + 1) for s in entry)} "
                                 f"(index{'es' if len(entry) > 1 else ''} "
                                 f"{', '.join(map(str, entry))})")
            free = entry
        if not free:
            raise TableError("table_full", "every seat is taken; you can watch")
        chosen = seat
        if seat is None:
            seat = free[0]
        if seat not in free:
            # (seats counted from 1 as people count; the API's index in brackets)
            raise TableError("seat_taken", f"seat {seat + 1} (index {seat}) is not free; sit "
                             "down without choosing a seat" if stranger
                             else f"seat {seat + 1} (index {seat}) is not free; free seats: "
                             f"{', '.join(str(s + 1) for s in free)} "
                             f"(index{'es' if len(free) > 1 else ''} {', '.join(map(str, free))})")
        departed: list[dict[str, Any]] = table.session.get("departed", [])
        old_digest = token_digest(returning) if returning else None
        back = next((i for i, line in enumerate(departed)
                     if old_digest is not None and line.get("digest") == old_digest), None)
        if late and back is not None:  # (their line's chips are no entry: s59-break)
            raise TableError("tournament_started", "you played in this tournament and are out "
                             "of it; late registration is for newcomers: you can watch")
        if back is not None and old_digest is not None:  # (bounded stints: s59-rejoin)
            if chosen is None:  # a seat of theirs, where the stint goes on, if free
                seat = next((n for n in free if extends_stint(table.session, old_digest, n)),
                            seat)
            refused = stint_refusal(table.session, old_digest, seat, free)
            if refused is not None:
                raise refused
        if back is None:
            for line in departed:
                # The name is a person on the ledger; only their own browser (the old seat
                # cookie) may take back their chips, so a stranger cannot claim them.
                gone = str(line["name"])
                theirs = name_keys(gone)
                if theirs[0] == folded:
                    raise TableError("bad_name", f"{name!r} left this table earlier; they can sit "
                                     "down again from the same browser, or choose another name")
                if theirs[1] == looks:
                    raise TableError("bad_name", f"{_looks_like(name, gone)}, who left this table "
                                     "earlier; choose another name")
                if near and theirs[2] == near:
                    raise TableError("bad_name", f"{name!r} reads as {gone!r}, who left this "
                                     f"table earlier: {_near_fine(name, gone)}")
        if check_only:
            return seat, ""
        token = token or secrets.token_urlsafe(24)
        stack = brought = table.config.stack
        for key in ("removed_players", "gone_players"):  # removed, or gone past the
            listed = table.session.get(key, [])             # grace: they sit down again
            if old_digest in listed:
                listed.remove(old_digest)
        if back is not None:
            line = departed.pop(back)
            stack, brought = int(line["stack"]), int(line["brought"])
            for stint in table.session.get("stints", []):  # their hands follow the new cookie
                if stint["digest"] == old_digest:
                    stint["digest"] = token_digest(token)
            for left in table.session.get("seat_left_by", {}).values():  # and their seats
                if left[0] == old_digest:
                    left[0] = token_digest(token)
            made = table.session.get("rebuys_made", {})  # and their rebuys (the cap, issue 27)
            if old_digest in made:
                made[token_digest(token)] = made.pop(old_digest)
        row = SeatRow(
            seat=seat, name=name, token_digest=token_digest(token), bot=None,
            stack=stack, brought=brought,
            bank=table.config.time_bank_seconds, joined_hand=int(table.session["hand_no"]),
        )  # fmt: skip
        if late:  # (late registration: one entrant more, stop 59)
            table.tourney.enter_late(seat, name)
        table.saving.commit(seats=[row], session=back is not None or late)
        self.seats[seat] = Seat(row)
        table.views.broadcast()
        table.pace.attended()  # a person sat down: the table is played again
        table.dealer.deal_soon()
        return seat, token

    def connect(self, client: Client, most: int = CONNECTIONS_PER_SEAT) -> None:
        """Add ``client`` to its seat (or to the onlookers).  A seat, and the host's
        cookie, keep at most ``most`` connections: past that the oldest is replaced,
        told why and closed (:func:`_replace_oldest`, issue 34)."""
        table = self.table
        if client.seat is not None and client.seat in self.seats:
            seat = self.seats[client.seat]
            seat.clients.add(client)
            _replace_oldest(seat.clients, most, "seat")
            seat.disconnected_since = None
            seat.page_elsewhere = False
            table.turns.rearm(client.seat)  # (its time bank counts again)
            if seat.removed:  # back during the hand the host removed them from: still removed
                words = host.LEFT_AFTER_HAND if seat.left else host.REMOVED_AFTER_HAND
                table.saving.send_after_commit([(client, error_message("removed", words))])
            else:
                seat.gone = False
                gone = table.session.get("gone_players", [])
                if seat.row.token_digest in gone:  # (back before the hand freed the seat)
                    gone.remove(seat.row.token_digest)
            if table.session.get("away", {}).pop(str(client.seat), None) is not None:
                table.saving.commit(session=True)
            if client.host_cookie and not seat.removed:
                host.note_creator_seat(table, client.seat)  # (stored: s59-seat)
        else:
            client.seat = None
            self.onlookers.add(client)
            if client.host_cookie:
                hosts = {c for c in self.onlookers if c.host_cookie}
                self.onlookers -= _replace_oldest(hosts, most, "host's cookie")
            if client.seat_digest is not None and \
                    client.seat_digest in table.session.get("removed_players", []):
                # Removed by the host while away (issue 26: back, they were told nothing).
                table.saving.send_after_commit(
                    [(client, error_message("removed", host.REMOVED_NOW))])
            elif client.seat_digest is not None and \
                    client.seat_digest in table.session.get("gone_players", []):
                # Away past the grace period (R-C-15): their seat was given up.
                table.saving.send_after_commit(
                    [(client, error_message("removed", host.gone_words(table)))])
        table.host_role.settle()  # who hosts (the role given back to one who returns)
        if client.is_host:
            self.host_away_since = None  # (a pause waiting on the host stays)
        table.host_role.check()  # a host long gone: this player may take the role
        if table.session.get("tournament") is not None and (
                client.is_host or client.seat is not None):
            table.dealer.deal_soon()  # (one that stopped unwatched plays on: Pace)
        kind = host_tools.view_kind(table, client)
        if client.seat is None and not client.is_host:
            # Nobody else sees an onlooker come (or go): only they get the state, so
            # many watchers joining cost one state each, not a state to everyone each.
            text = table.views.state_text(None, kind=kind)
            if host_tools.quiet_seq(table, kind) is not None:
                client.quiet = text  # (told again only of a change: views.broadcast)
            table.saving.send_after_commit([(client, text)])
        else:
            table.views.broadcast()
        if host.chat_log(table).lines and kind != "locked":
            table.saving.send_after_commit([(client, host.chat_history_text(table))])

    def disconnect(self, client: Client) -> None:
        table = self.table
        client.close()
        self.onlookers.discard(client)
        if not self.all_clients() or self.all_clients() == [client]:
            self.idle_since = table.clock()
        if client.seat is not None and client.seat in self.seats:
            seat = self.seats[client.seat]
            held = client in seat.clients  # (not when replaced by a newer connection)
            seat.clients.discard(client)
            if held and not seat.clients and seat.row.bot is None:
                since = seat.disconnected_since = table.clock()
                seat.page_elsewhere = False
                table.turns.rearm(client.seat)  # (the clock alone now: no time bank)
                asyncio.get_running_loop().call_later(
                    table.config.grace_seconds, self.grace_over, client.seat, seat, since
                )
                if not table.closed:  # stored: the grace counts on across a restart
                    table.session.setdefault("away", {})[str(client.seat)] = since
                    table.saving.commit(session=True)
        if (client.is_host and not table.closed and table.session.get("host_paused")
                and not any(c.is_host for c in self.all_clients())):
            self.host_away(table.clock())  # the pause lasts while the host is there
        table.host_role.settle(leaving=client)  # (the host's away clock: host_role.py)
        if not table.closed and (client.seat is not None or client.is_host):
            table.views.broadcast()

    def grace_over(self, number: int, seat: Seat, since: float) -> None:
        table = self.table
        if (table.closed or self.seats.get(number) is not seat or seat.clients
                or seat.disconnected_since != since):
            return  # back in time, or away again since (a later timer decides)
        if table.turns.defer(lambda: self.grace_over(number, seat, since)):
            return  # (a hand dealt or replayed off the loop: freed or not, once it is in)
        if table.saving.halted:  # freeing the seat is a write: after the pause
            asyncio.get_running_loop().call_later(
                table.RETRY_MAX, self.grace_over, number, seat, since
            )
            return
        if table.session.get("host_paused"):
            # The host's pause (a break: phones locked, pages closed): the seat waits
            # for its player until the table resumes, then a grace period more at
            # the most (stop 53; before, the seat was freed, or its decision timed
            # out, during the pause).  A pause ends by itself once the host is gone.
            asyncio.get_running_loop().call_later(
                table.config.grace_seconds, self.grace_over, number, seat, since
            )
            return
        if table.tourney.holds_entry(number):
            self._entrant_away(number)  # keeps the seat, blinded off (issue 28)
            return
        if table.tourney.may_rebuy(number):
            return  # busted while rebuys are open: the seat waits for the rebuy
        seat.gone = True
        # ... told why when they come back (stop 55: a phone that slept past the
        # grace found itself watching, with no word of its seat or chips)
        digest = seat.row.token_digest
        gone = table.session.setdefault("gone_players", [])
        if digest is not None and digest not in gone:
            gone.append(digest)
            del gone[:-host.REMOVED_KEPT]   # (the newest only)
        if table.hand is None or number not in table.hand.seats:
            self.free_seat(number)  # (a pending dealer's choice of the seat lapses)
            table.views.broadcast()
        else:
            # Decisions of a gone seat time out at once (R-C-15).
            if number in table.turns.decision_seq:
                table.turns.timeout(number, table.turns.decision_seq[number])

    def _entrant_away(self, number: int) -> None:
        """A tournament's entrant whose every page has been closed for the grace
        period keeps the seat (issue 28) and is marked away, as the clock's away
        mode marks a player who stops acting (``idle_away`` and ``sitting_out``;
        ``away_closed`` says why, for the page's words):
        from now on the entrant is dealt in and blinded off with each decision made
        at once, the open one included (R-C-15), until they press **I'm back**.
        Before, a closed tab's decisions each ran the whole clock for the rest of
        the tournament (30 s and the time bank, at every betting round): a dead
        phone slowed the table to a hand every one or two minutes."""
        table = self.table
        s = table.session
        for key in ("idle_away", "sitting_out", "away_closed"):
            listed = s.setdefault(key, [])
            if number not in listed:
                listed.append(number)
        table.turns.bump_seq()
        table.saving.commit(session=True)
        if number in table.turns.decision_seq:  # (also a dealer's choice to name)
            table.turns.timeout(number, table.turns.decision_seq[number])
        table.views.broadcast()

    def release_seat(self, number: int) -> Seat:
        """Take ``number`` out of :attr:`seats`; its open connections become onlookers.

        Whoever sits there next must not inherit them: a connection left holding the
        seat number would see the next occupant's hole cards and act for them.
        """
        table = self.table
        seat = self.seats.pop(number)
        hand_no = int(table.session.get("hand_no", 0))
        mark_left(table.session, number, seat.row.token_digest, hand_no,
                  seat.row.joined_hand + 1 <= hand_no)  # (after free_seat's stint)
        seat.bot = None  # a later occupant of the seat gets a new computer player
        self._new_opponent(number)
        for client in seat.clients:
            client.seat = None
            client.is_host = host.client_is_host(table, client)
            self.onlookers.add(client)
        seat.clients.clear()
        return seat

    def computer_player(self, number: int) -> Any:
        """Seat ``number``'s own computer player, of the seat's level (a seat
        stored with none: the table's, ``TableConfig.bot_level``; s71: it was
        ``random`` where the table's default is ``basic``) (made when first asked
        for; ``None`` when the engine has no bot of that level, see
        :func:`~rollem.server.game_session.bot_decide`).  Only the bot thread
        uses it, one decision at a time.

        Raises:
            KeyError: if nobody sits at ``number``.
        """
        table = self.table
        seat = self.seats[number]
        level = seat.row.bot or table.config.bot_level
        if seat.bot is None or seat.bot_level != level:
            seat.bot, seat.bot_level = table.bot_factory(level), level
        return seat.bot

    def _new_opponent(self, number: int) -> None:
        """Tell the computer players here that whoever sits at ``number`` next is
        someone else (a ``strong`` bot forgets its reads of that seat).  In the bot
        thread, where their reads are kept, after any decision already asked for
        (in this table's queue there)."""
        table = self.table
        for seat in self.seats.values():
            forget = getattr(seat.bot, "new_opponent", None)
            if forget is not None:
                live_table._BOT_THREAD.submit_for(table.id, forget, number)

    def seat_of(self, client: Client) -> int | None:
        """The seat ``client`` plays, or ``None``: a connection counts only while its
        seat still holds it (see :meth:`release_seat`)."""
        seat = self.seats.get(client.seat) if client.seat is not None else None
        if seat is None or client not in seat.clients:
            return None
        return client.seat

    def _as_given(self, seat: Seat) -> bool:
        """Whether ``seat``'s player, a person, holds the table's starting stack as
        given (none bought again, none adjusted): one who leaves so, having played
        no hand, has nothing to settle and leaves no ledger line (a sit-down and
        leave loop, or the host's removal loop, grew ``departed`` -- sent in every
        state -- without bound); back, they sit down as anyone new."""
        table = self.table
        row = seat.row
        stack = table.config.stack
        return (row.bot is None and row.stack == row.brought == stack
                and (row.token_digest or "") not in table.session.get("rebuys_made", {}))

    def free_seat(self, number: int) -> None:
        table = self.table
        row = self.seats[number].row
        first, last = row.joined_hand + 1, int(table.session["hand_no"])
        if row.token_digest is not None and first <= last:
            # ... to let them replay and download the hands they played here (their
            # stint, extended when the seat was theirs last: s59-rejoin)
            add_stint(table.session, row.token_digest, number, first, last)
        seat = self.release_seat(number)
        table.session.get("away", {}).pop(str(number), None)
        if number in table.session.get("removed", []):  # the host's removal is done
            table.session["removed"].remove(number)
        host.seat_freed(table, number)
        line = table.views.ledger_line(number, seat, left=True)
        played = seat.row.joined_hand + 1 <= int(table.session["hand_no"])
        if seat.row.token_digest is not None:
            line["digest"] = seat.row.token_digest  # to know them when they come back
        if played or not self._as_given(seat):
            table.session["departed"].append(line)
            fold_oldest_departed(table.session, DEPARTED_KEPT)  # (bounded: stop 52)
        table.saving.commit(remove_seats=[number], session=True)
        table.dealers_choice.choice_lapses(number)

    def all_clients(self) -> list[Client]:
        out = list(self.onlookers)
        for seat in self.seats.values():
            out.extend(seat.clients)
        return out
