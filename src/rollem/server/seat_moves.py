"""A seat change at the web table (stop 59, s59-seat): a seated player moves to an
empty seat, as Poker Now's "request a seat change".

``{"type": "seat_change", "seat": N}`` (0-based; ``null`` takes back a move that
waits).  The player's chips, the chips they brought, their ledger line, rebuys
and cap, sitting out, straddling and the host role go with them; the seat cookie
is the same, so their page follows them.  The rules of the move are the
session model's (:meth:`rollem.table.Table.move_seat`, R-C-12): the button stays
where it is and moves on as ever, and the mover is dealt the next hand from the
new seat like anyone dealt in -- unless the move would skip the blinds.

**Waiting for the big blind** (s73-blinds).  Once hands have been dealt, at a
table with a blind game, a move that the big blind would reach later than the
seat moved from (counted in hands, as the session model deals: R-C-12, the big
blind the second seat dealt in on the button's left, heads-up the seat that is
not the button) leaves the mover out (``session["bb_wait"]``, seat numbers)
until the big blind reaches the new seat: they are dealt in at the first hand
whose big blind, counting them in with the button where it goes without them,
is their seat (:func:`dealt_in_waiters`), one waiter a hand: the big blind
is one seat's (the one it reaches first comes in; the others wait on, each
in turn).  A move towards the blinds, before the
first hand, or at a table that deals no blind game owes nothing; nor does a
table that cannot deal without its waiters (fewer than two others, or only
computer players, who do not play alone).  Without it
a player who moved one seat to the left after each of their button hands paid
27 blinds to a staying player's 36 over 36 hands (7 seats, 3 players).  At a
dealer's choice table the wait counts by seat whatever game the button names.

**When.**  Between hands, or during a hand the player is not dealt into: at once.
During a hand the player is dealt into, or while the next hand is being dealt
(its game being named, its deck waiting for the seeds): the move waits and is
made when that hand ends (``session["seat_changes"]``: ``{str(seat): {"to",
"digest"}}``); the seat is held for them meanwhile (nobody else sits down in it,
and the felt says whose it is).

**Refusals** (:class:`~rollem.server.live_table.TableError` codes):
``malformed`` (not a seat number), ``bad_seat`` (no such seat, or your own),
``seat_taken`` (someone sits there, or another's move holds it),
``tournament`` (a tournament's seats are its entrants'), ``leaving`` (removed,
or leaving after this hand), ``too_soon`` (one move an orbit: after a move once
hands have been dealt, the next is allowed once as many hands as there are
players at the table have been dealt; before the first hand people move
freely), ``too_often`` (more than :data:`BURST` requests at once, then one every
:data:`REFILL_SECONDS`), and ``closed`` (the host closed the table).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from rollem.engine.forced import Blinds
from rollem.server import host, host_tools, night_close
from rollem.server.live_table import seats
from rollem.server.live_table.errors import TableError
from rollem.table import DEALERS_CHOICE, button_from, seats_dealt_in
from rollem.table import TableError as SessionRefused

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

__all__ = ["BURST", "REFILL_SECONDS", "ask", "big_blind_seat", "blind_table",
           "dealt_in_waiters", "held_seats", "moves_after_hand", "public", "skipping_moves",
           "skips_blinds", "still_waiting", "waiters_dealt"]

BURST = 4
"""Seat-change requests a seat may send at once ..."""
REFILL_SECONDS = 5.0
"""... then one every this many seconds (each is saved and sent to everyone)."""

SEAT_LISTS = ("sitting_out", "waiting", "bb_wait", "idle_away", "away_closed", "away_unseen",
              "straddlers", "rebuy_requests", "top_up_requests")
"""The session's lists of seat numbers that follow a player who moves."""
SEAT_DICTS = ("clocked", "timeouts", "away")
"""The session's mappings by seat number (as text) that follow a player who moves."""


def big_blind_seat(dealt: Sequence[int], button: int) -> int:
    """The seat that posts the big blind of a hand with the seats ``dealt`` dealt
    in (two or more) and the button on ``button`` (one of them): the second seat
    on the button's left, heads-up the seat that is not the button
    (:class:`rollem.engine.forced.Blinds`)."""
    ordered = sorted(dealt)
    at = ordered.index(button)
    left = ordered[at + 1:] + ordered[:at]
    return left[0] if len(left) == 1 else left[1]


def _hands_to_big_blind(dealt: Sequence[int], seat: int, start: int) -> int:
    """Hands until ``seat`` (one of ``dealt``) posts the big blind, 0 for the next
    one, with ``dealt`` dealt in from now on and the next button the first of them
    at ``start`` or on its left (R-C-12)."""
    button = button_from(dealt, start)
    for hands in range(len(dealt)):
        if big_blind_seat(dealt, button) == seat:
            return hands
        button = button_from(dealt, button + 1)
    return len(dealt)  # (not reached: every seat dealt in posts it once an orbit)


def blind_table(table: LiveTable) -> bool:
    """Whether a game this table may deal has blinds (a dealer's choice table: any
    of its choices); antes-only games (Stop Drop and Roll, Roll Your Own, 5-2-1)
    have none."""
    from rollem.server.game_session import GameSession

    config = table.config
    options = GameSession.options_for(config)
    dealt = config.choices if config.game == DEALERS_CHOICE else [config.game]
    return any(isinstance(step, Blinds) for g in dealt
               for step in config.game_of(g).build(options))


def skipping_moves(table: LiveTable, movers: Collection[int],
                   seats: Collection[int]) -> dict[int, list[int]]:
    """For each of ``movers`` (seated), those of ``seats`` (free seats) a move to
    which now would skip the blinds, so would wait for the big blind: hands have
    been dealt, a blind game may be dealt, and the big blind would reach the seat
    later than the mover's (the seats dealt in now, the mover counted in either
    way; see the module's rules).  None for a mover who already waits (they wait
    on), nor while fewer than two others are dealt in (no hand could be dealt
    without the mover), nor while only computer players are (they do not play
    alone)."""
    s = table.session
    found: dict[int, list[int]] = {seat: [] for seat in movers}
    waiting = s.get("bb_wait", [])
    movers = [seat for seat in movers if seat not in waiting]
    if (not seats or not movers or not int(s.get("hand_no", 0)) or table.config.tournament
            or not blind_table(table)):
        return found
    dealt = table.dealer.dealt_in()
    last = s.get("button")
    start = 0 if last is None else int(last) + 1
    for seat in movers:
        others = [n for n in dealt if n != seat]
        if not _deals_without(table, others):
            continue
        stay = _hands_to_big_blind(sorted([*others, seat]), seat, start)
        found[seat] = [to for to in sorted(seats)
                       if _hands_to_big_blind(sorted([*others, to]), to, start) > stay]
    return found


def _deals_without(table: LiveTable, others: Sequence[int]) -> bool:
    """Whether the table deals a hand to ``others`` alone (the seats dealt in but
    for those waiting for the big blind): two or more, not all of them computer
    players (who do not play on alone at a cash table: the table waited for a
    person, and the person waited for the big blind, for good -- s74-night)."""
    return len(others) >= 2 and any(
        table.seats[n].row.bot is None for n in others if n in table.seats)


def skips_blinds(table: LiveTable, seat: int, to: int) -> bool:
    """Whether moving from ``seat`` to ``to`` now would skip the blinds
    (:func:`skipping_moves`)."""
    return bool(skipping_moves(table, [seat], [to])[seat])


def dealt_in_waiters(table: LiveTable, stacks: Sequence[int], out: set[int],
                     start: int) -> tuple[set[int], int]:
    """Which seats waiting for the big blind (``session["bb_wait"]``) are dealt the
    next hand, and where the button goes from: ``(waiters left out, start)``.

    Args:
        stacks: each seat's chips.
        out: the seats not dealt in otherwise (the waiters are not in it).
        start: the seat the next button goes from (the last button's + 1).

    A waiter is dealt in when, counting them in and the button where it goes
    without the waiters, the big blind is their seat; the button then goes from
    that seat (so it never jumps onto the waiter, R-C-12).  One waiter a hand
    (s74-night): when the big blind would fall on two or more, the one it
    reaches first (on the small blind's left) is dealt in and posts it; the
    others wait on, and it reaches each of them in the hands after -- dealt in
    together, all but the first would have had a hand with no blind to pay.
    All are dealt in when fewer than two others are, or only computer players
    (who do not play alone), or no blind game may be dealt."""
    waiters = {w for w in table.session.get("bb_wait", []) if w not in out}
    if not waiters or table.config.tournament or not blind_table(table):
        return set(), start
    others = seats_dealt_in(stacks, out | waiters)
    if not _deals_without(table, others):
        return set(), start
    button = button_from(others, start)
    due = [w for w in waiters if stacks[w] > 0
           and big_blind_seat(sorted([*others, w]), button) == w]
    if not due:
        return waiters, button
    # one big blind a hand: of two or more it falls on, the first on the small
    # blind's left (it reaches each of the others in turn in the hands after)
    first = big_blind_seat(sorted([*others, *due]), button)
    return waiters - {first}, button


def still_waiting(table: LiveTable) -> list[int]:
    """``bb_wait`` of the table's state: the seats waiting for the big blind, but
    not those the hand offered (its game being named, its deck waiting for the
    seeds) deals in.  They leave ``session["bb_wait"]`` only as it is dealt
    (:func:`waiters_dealt`); shown until then, the felt said "waits for the big
    blind" of a seat dealt into the hand being named, and a delayed watcher's
    page changed at the moment of the deal, telling them it was dealt
    (issue 27: nothing of a hand in play)."""
    s = table.session
    offered = s.get("choice") or s.get("seeding")
    dealt = offered["players"] if offered else []
    return sorted(w for w in s.get("bb_wait", []) if w not in dealt)


def waiters_dealt(table: LiveTable, players: Collection[int]) -> None:
    """A hand was dealt to ``players``: the waiters among them wait no more."""
    waiting = table.session.get("bb_wait")
    if waiting:
        waiting[:] = [w for w in waiting if w not in players]


def held_seats(table: LiveTable) -> dict[int, int]:
    """The empty seats held for a move waiting for the hand's end: seat held ->
    the seat of the player moving there."""
    return {int(v["to"]): int(k) for k, v in table.session.get("seat_changes", {}).items()}


def public(table: LiveTable) -> dict[str, int]:
    """``seat_changes`` of the table's state: the mover's seat (as text) -> the seat
    they move to after the hand in play."""
    return {k: int(v["to"]) for k, v in sorted(table.session.get("seat_changes", {}).items())}


def _refuse_now(table: LiveTable, seat: int, to: int) -> None:
    """Raise what refuses ``seat``'s move to ``to`` whenever it would be made."""
    s = table.session
    info = table.seats[seat]
    if night_close.stopped(table):  # (a move waiting when the host closed: s59-break)
        raise night_close.refusal(table)
    if table.config.tournament:
        raise TableError("tournament", "no seat changes in a tournament: its seats were "
                         "drawn for its entrants")
    if info.removed or info.gone or seat in s.get("removed", []):
        raise TableError("leaving", "you are leaving the table after this hand: no seat "
                         "change")
    if not 0 <= to < table.config.seats:
        raise TableError("bad_seat", f"no such seat {to}: seats are 0..{table.config.seats - 1}")
    if to == seat:
        raise TableError("bad_seat", f"you already sit in seat {seat + 1}")
    held = held_seats(table)
    if to in table.seats:
        raise TableError("seat_taken", f"seat {to + 1} is taken by {table.seats[to].row.name}; "
                         f"free seats: {_free_words(table)}")
    if to in held and held[to] != seat:
        mover = table.seats[held[to]].row.name if held[to] in table.seats else "another player"
        raise TableError("seat_taken", f"seat {to + 1} is held for {mover}, who moves there "
                         f"after this hand; free seats: {_free_words(table)}")
    hand_no = int(s.get("hand_no", 0))
    digest = info.row.token_digest
    if digest is not None and info.row.joined_hand + 1 <= hand_no:  # (s59-rejoin)
        refused = seats.stint_refusal(s, digest, seat, [], moving=True)
        if refused is not None:
            raise refused
    next_at = s.get("seat_moved", {}).get(info.row.token_digest or "")
    if next_at is not None and hand_no < int(next_at):
        raise TableError("too_soon", f"one seat change an orbit: you may move again once hand "
                         f"{int(next_at)} has been dealt (this is hand {hand_no})")


def _free_words(table: LiveTable) -> str:
    free = table.seating.free_seats()
    return ", ".join(str(n + 1) for n in free) if free else "none"


def ask(table: LiveTable, seat: int, to: object) -> None:
    """The player in ``seat`` asks to move to ``to`` (0-based), or (``None``) takes
    back the move waiting for the hand's end; see the module's rules.  Raises
    :class:`TableError` (nothing changes)."""
    host._take_token((table.id + "/seat_change", seat), BURST, REFILL_SECONDS,
                     "you asked to change seats too often")
    s = table.session
    waiting = s.get("seat_changes", {})
    if to is None:
        if waiting.pop(str(seat), None) is None:
            raise TableError("not_waiting", "no seat change of yours waits")
        _saved(table)
        return
    if isinstance(to, bool) or not isinstance(to, int):
        raise TableError("malformed", "'seat' must be a seat number (0-based), or null to "
                         "stay where you are")
    _refuse_now(table, seat, to)
    hand = table.hand
    playing = table.hand_unsettled and hand is not None and table.views.dealt_in_hand(seat, hand)
    # (while the next hand is being dealt the move waits for that hand's end too: it
    # was refused, "ask again once it is dealt", and a friend's tap in the seconds
    # between hands then had to be made again once the cards were out: s73-night)
    if playing or (hand is None and (s.get("choice") or s.get("seeding"))):
        s.setdefault("seat_changes", {})[str(seat)] = {
            "to": to, "digest": table.seats[seat].row.token_digest}
        _saved(table)
        return
    move(table, seat, to)


def _saved(table: LiveTable) -> None:
    table.turns.bump_seq()
    table.saving.commit(session=True)
    table.views.broadcast()


def moves_after_hand(table: LiveTable) -> None:
    """A hand ended: make the moves that waited for it (a mover who has left, or
    whose move can no longer be made, stays where they are; they are told why)."""
    waiting: dict[str, Any] = table.session.pop("seat_changes", {})
    for key, want in sorted(waiting.items()):
        seat = int(key)
        info = table.seats.get(seat)
        if info is None or info.row.token_digest != want.get("digest"):
            continue
        try:
            _refuse_now(table, seat, int(want["to"]))
            move(table, seat, int(want["to"]))
        except TableError as err:
            host_tools._tell(table, seat, "seat_change",
                             f"your seat change was not made: {err.message}")
    if waiting:
        table.saving.commit(session=True)


def move(table: LiveTable, seat: int, to: int) -> None:
    """Move the player in ``seat`` to the empty seat ``to`` now (checked by the
    caller): the session model's move (:meth:`rollem.table.Table.move_seat`), then
    the seat's row, connections and the session's per-seat records; the hands
    they played in ``seat`` stay theirs to replay (a stint, as a player who left:
    :attr:`joined_hand` of the new row is the hand number now, so the seat's
    earlier occupants' hands are never theirs).  Saved, told to everyone in the
    chat ("Ann moved from seat 2 to seat 5")."""
    s = table.session
    waits = skips_blinds(table, seat, to)
    model = table.dealer.session_table()
    free = [n for n in range(table.config.seats) if n not in table.seats]
    try:
        model.move_seat(seat, to, free)
    except SessionRefused as err:
        raise TableError(err.code, str(err)) from None
    info = table.seats.pop(seat)
    row = info.row
    hand_no = int(s.get("hand_no", 0))
    played = row.joined_hand + 1 <= hand_no
    if row.token_digest is not None and played:
        seats.add_stint(s, row.token_digest, seat, row.joined_hand + 1, hand_no)
    seats.mark_left(s, seat, row.token_digest, hand_no, played)
    info.row = dataclasses.replace(row, seat=to, stack=model.stacks[to],
                                   brought=model.brought[to], joined_hand=hand_no)
    table.seats[to] = info
    for client in info.clients:
        client.seat = to
    for key in SEAT_LISTS:
        listed = s.get(key)
        if listed and seat in listed:
            listed[listed.index(seat)] = to
    # (who sat out as the hand in play was dealt, as a delayed watcher is shown it:
    # the move itself is shown at once, so the seat sitting out moves with it --
    # else their new seat read as dealt in, and their old, free one as sitting out)
    for listed in s.get("out_at_deal", {}).values():
        if seat in listed:
            listed[:] = sorted(to if n == seat else n for n in listed)
    for key in SEAT_DICTS:
        mapping = s.get(key)
        if mapping and str(seat) in mapping:
            mapping[str(to)] = mapping.pop(str(seat))
    if waits:
        s.setdefault("bb_wait", []).append(to)
    if s.get("host_seat") == seat:
        s["host_seat"] = to
    away = s.get("host_away")
    if away and away.get("seat") == seat:
        away["seat"] = to
    back = s.get("host_returns")
    if back:
        for key in ("seat", "away_seat"):
            if back.get(key) == seat:
                back[key] = to
    if hand_no and row.token_digest is not None:  # one move an orbit, once hands are dealt
        seated = {n.row.token_digest for n in table.seats.values()}
        moved = s.setdefault("seat_moved", {})
        for digest in [d for d, at in moved.items() if d not in seated or int(at) <= hand_no]:
            del moved[digest]  # (past, or of one who left: back, they hold a new cookie;
        moved[row.token_digest] = hand_no + max(2, len(table.seats))  # sit, move, leave
        # again and again grew it without bound, saved with every change: s59-break)
    table.seating._new_opponent(seat)
    table.seating._new_opponent(to)
    waits_words = (f" dealt in when the big blind reaches seat {to + 1}."
                   if to in s.get("bb_wait", []) else "")
    moved = f"moved from seat {seat + 1} to seat {to + 1}."
    sends = host._tell_table(
        table, f"{row.name} {moved}" + (f" {row.name} is{waits_words}" if waits_words else ""),
        by=to, own=f"You {moved}" + (f" You are{waits_words}" if waits_words else ""))
    table.turns.bump_seq()  # (after: the note's seq is this state's)
    table.saving.commit(seats=[info.row], remove_seats=[seat], session=True)
    table.views.broadcast()
    table.saving.send_after_commit(sends)
    table.dealer.deal_soon()
