"""The host's tools at a live table (issue 27): adjusting a stack, the rebuy
rules (off, free, host-approved, capped at N), private tables (watchers the
host approves, a table password) and the watcher delay of one hand.

Host messages (``{"type": "host", "op": ...}``, :data:`OPS`; the host only):

- ``adjust_stack`` (``seat``, ``stack``): between hands, set a seated player's
  stack to ``stack`` whole chips (0 to :func:`most_stack`).  The change counts
  as chips bought (or, downwards, taken off the table): the seat's ``brought``
  moves by the same amount, so the ledger still balances and settle-up counts
  it; each adjustment is an entry of ``table.adjustments`` (the newest
  :data:`ADJUSTMENTS_KEPT` kept, older ones counted; seat, name, when,
  after which hand, by how much, the new stack).
- ``approve_rebuy`` / ``decline_rebuy`` (``seat``): at a table with
  ``rebuy_approval`` a player's ``rebuy`` or ``top_up`` is a request the host answers.
- ``approve_watcher`` / ``reject_watcher`` (``watcher``: a request's number;
  ``reject_watcher`` also takes ``"all"``: every waiting request): at a
  private table a watcher sees nothing until approved.
- ``password`` (``password``: text of 4 to 128 characters, or ``null`` to
  remove it): a table password, asked of every newcomer (to watch or to sit
  down); kept only as a salted scrypt hash (:func:`hash_password`), compared
  in constant time; the web server limits attempts per address.

What a client sees (:func:`view_kind`): a seat dealt in, or the host, sees as
always; a watcher of a table that is *gated* (private, or with a password) and
not approved -- and, at a private table, a player waiting for the host's
approval -- gets :func:`locked_state` only (the table's name and how to ask;
nothing of any hand, the seats, the ledger or the chat); with ``watcher_delay``
a watcher sees a hand only after it ended (:func:`delayed_public`: during a
hand the last finished one, and nothing of the hand in play: no cards,
actions, pot, clocks or whose turn it is).

Session keys (stored with the table, so all of it survives a restart):
``adjustments``, ``rebuys_made`` (player's seat token digest -> rebuys),
``rebuy_requests`` (seats), ``top_up_requests`` (those of them asking to
top up, stop 58), ``watch_requests`` and ``watchers`` (``{"id",
"digest", "name"}``; the digest is of the watcher's cookie and never shown),
``watch_next``, ``password`` (``{"salt", "hash"}``, hex).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections.abc import Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from rollem.limits import MAX_STACK
from rollem.server.store import token_digest
from rollem.text import times

log = logging.getLogger("rollem.server")

if TYPE_CHECKING:
    from rollem.server.live_table import Client, LiveTable

__all__ = [
    "OPS",
    "check_password",
    "gated",
    "hash_password",
    "host_op",
    "lapse_top_ups",
    "locked_state",
    "may_see",
    "public",
    "rebuy_closed",
    "rebuy_policy",
    "top_up_least",
    "top_up_offer",
    "view_kind",
    "watch_request",
]

def _refused(code: str, message: str) -> Exception:
    """:class:`rollem.server.live_table.TableError` (imported when raised: the
    table's package imports this module)."""
    from rollem.server.live_table.errors import TableError as Refused

    return Refused(code, message)


OPS = ("adjust_stack", "approve_rebuy", "decline_rebuy", "approve_watcher",
       "reject_watcher", "password")
"""The host ops of this module."""

ADJUSTMENTS_KEPT = 64
"""Stack adjustments the ledger's log keeps, the newest (``session["adjustments"]``:
stored with the table and sent in every state to every connection); older ones
are only counted (``adjustments_earlier``).  The chips stay counted: each
adjustment moves the seat's ``brought`` when made.  Stop 58: the log kept up to
1,000 entries, each with the player's name (up to 96 code points, about 740
characters stored); at 1,000 every state of the table was 311 KB and every
commit (each action) dumped a 731 KB session on the event loop (13 ms)."""
MAX_WATCH_REQUESTS = 32
"""Watch requests waiting for the host at once; past it a request is refused
(and counted: ``watch_refused``)."""
WATCH_REQUESTS_PER_NETWORK = 3
"""Watch requests from one network (an IPv4 /24, an IPv6 /64:
:func:`rollem.server.limits.network_key`) waiting at once at one table; past it
that network's next request is refused (and counted), so one attacker's
addresses cannot fill the host's list by themselves."""
NEWCOMERS_PER_NETWORK = 2
"""A private table's newcomers from one network (as :data:`WATCH_REQUESTS_PER_NETWORK`)
waiting at once for the host to let them in; past it that network's next is
refused: anyone with the link cannot fill every free seat with strangers."""
REFUSED_SHOWN_EVERY = 5.0
"""Seconds between two updates of the refused requests' count (``watch_refused``)
the table's clients are sent: a flood of refused requests costs the table at
most one state a client per this many seconds."""
MAX_WATCHERS = 64
"""Watchers the host may approve at one table; at a table with only a password
(every browser that gave it is approved) the oldest is forgotten past it."""
MIN_PASSWORD, MAX_PASSWORD = 4, 128
"""A table password's length in characters."""
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
"""scrypt's cost (16 MiB, some tens of milliseconds a hash)."""
PASSWORD_EVERY = 2.0
"""Seconds between two passwords the host sets (each is hashed on the event loop:
a host's flood of ``password`` messages may not hold up the table)."""


def most_stack(table: LiveTable) -> int:
    """The largest stack the host may set: 100 starting stacks (at most
    :data:`~rollem.limits.MAX_STACK`, 100,000,000)."""
    return min(MAX_STACK, 100 * table.config.stack)


def _changed(table: LiveTable, seats: Sequence[Any] = (), deal: bool = False) -> None:
    table.seq += 1
    table.session["seq"] = table.seq
    table.saving.commit(seats=list(seats), session=True)
    table.broadcast()
    if deal:
        table.dealer.deal_soon()


def _seat(table: LiveTable, body: dict[str, Any]) -> int:
    seat = body.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in table.seats:
        taken = ", ".join(map(str, sorted(table.seats)))
        raise _refused("bad_seat", f"no player in seat {seat!r}; seated: {taken}")
    return seat


def host_op(table: LiveTable, op: str, body: dict[str, Any]) -> None:
    """Apply the host's ``op`` (one of :data:`OPS`); raises :class:`TableError`
    (nothing changes) when refused."""
    if op == "adjust_stack":
        adjust_stack(table, _seat(table, body), body.get("stack"))
    elif op in ("approve_rebuy", "decline_rebuy"):
        seat = _seat(table, body)
        requests = table.session.get("rebuy_requests", [])
        if seat not in requests:
            raise _refused("not_waiting", f"seat {seat + 1} has not asked to rebuy")
        top_ups = table.session.get("top_up_requests", [])
        if op == "approve_rebuy":
            # (refused, request kept, if it cannot be; a top-up asked by a seat with
            # no chips left by now is a rebuy of the same chips, stop 58)
            if seat in top_ups and table.seats[seat].row.stack > 0:
                table.dealer.top_up(seat, approved=True)
            else:
                table.dealer.rebuy(seat, approved=True)
            return
        what = "top-up" if seat in top_ups else "rebuy"
        requests.remove(seat)
        if seat in top_ups:
            top_ups.remove(seat)
        table.tourney.hold_last_call()  # (a last call held for it runs on)
        _tell(table, seat, "rebuy_declined", f"the host declined your {what}")
        _changed(table)
    elif op == "reject_watcher" and body.get("watcher") == "all":
        waiting = table.session.get("watch_requests", [])
        if not waiting:
            raise _refused("not_waiting", "no watch request is waiting")
        waiting.clear()
        table.session.pop("watch_refused", None)
        _changed(table)
    elif op in ("approve_watcher", "reject_watcher"):
        wid = body.get("watcher")
        waiting = table.session.get("watch_requests", [])
        found = next((r for r in waiting if r["id"] == wid), None) if isinstance(
            wid, int) and not isinstance(wid, bool) else None
        if found is None:
            ids = ", ".join(str(r["id"]) for r in waiting) or "none"
            raise _refused("not_waiting", f"no watch request {wid!r}; waiting: {ids}")
        if op == "approve_watcher":
            watchers = table.session.setdefault("watchers", [])
            if len(watchers) >= MAX_WATCHERS:
                raise _refused("too_many_watchers", f"at most {MAX_WATCHERS} approved "
                                 "watchers at a table")
            watchers.append(found)
        waiting.remove(found)
        if not waiting:
            table.session.pop("watch_refused", None)
        _changed(table)
    elif op == "password":
        _set_password(table, body.get("password"))
    else:  # (host.py routes only OPS here)
        raise _refused("bad_op", f"unknown host action {op!r}")


def _tell(table: LiveTable, seat: int, code: str, text: str) -> None:
    from rollem.server.protocol import error_message

    info = table.seats.get(seat)
    if info is not None:
        told = error_message(code, text)
        table.saving.send_after_commit([(c, told) for c in info.clients])


# -- stacks ---------------------------------------------------------------------------


def adjust_stack(table: LiveTable, seat: int, stack: object) -> None:
    """Set ``seat``'s stack to ``stack`` whole chips between hands, as chips bought
    (``brought`` moves alike) and logged in the ledger.

    Raises :class:`TableError`: ``malformed`` (not a whole number), ``bad_stack``
    (out of 0..:func:`most_stack`, or the stack it has), ``in_hand`` (a hand is
    in play or its game being named), ``too_often`` (the host's controls'
    bucket: :func:`rollem.server.host.control_taken`),
    ``in_tournament`` (issue 28: a tournament's chips are only its entries and
    rebuys, so the host cannot add or take off any)."""
    if table.config.tournament:
        raise _refused("in_tournament", "stacks cannot be set in a tournament: its chips "
                         "are the entrants' starting stacks and rebuys only")
    most = most_stack(table)
    if isinstance(stack, bool) or not isinstance(stack, int):
        raise _refused("malformed", f"'stack' must be a whole number of chips from 0 to "
                         f"{most}, not {stack!r}"[:200])
    if not 0 <= stack <= most:
        raise _refused("bad_stack", f"a stack must be from 0 to {most} chips (100 starting "
                         f"stacks), not {stack}")
    if table.hand is not None or table.session.get("choice"):
        raise _refused("in_hand", "stacks are adjusted between hands; wait until this "
                         "hand ends (pause the table first so that no next hand is dealt)")
    row = table.seats[seat].row
    by = stack - row.stack
    if by == 0:
        raise _refused("bad_stack", f"seat {seat + 1} already has {stack} chips")
    from rollem.server.host import control_taken  # (host imports this module)

    control_taken(table)  # (too_often: nothing changes)
    log = table.session.setdefault("adjustments", [])
    row.stack, row.brought = stack, row.brought + by
    log.append({"seat": seat, "name": row.name, "at": round(table.clock(), 3),
                "after_hand": int(table.session.get("hand_no", 0)), "by": by, "stack": stack})
    _keep_newest_adjustments(table.session)
    lapsed = lapse_top_ups(table)  # (set to within a big bet of the buy-in: s60-table)
    _changed(table, [row], deal=True)
    table.saving.send_after_commit(lapsed)


def _keep_newest_adjustments(session: dict[str, Any]) -> None:
    """Keep the newest :data:`ADJUSTMENTS_KEPT` of ``session["adjustments"]``, the
    older counted in ``adjustments_earlier`` (also a log stored before stop 58,
    at its table's first state: saved with its next commit)."""
    log = session.get("adjustments", [])
    if len(log) > ADJUSTMENTS_KEPT:
        dropped = len(log) - ADJUSTMENTS_KEPT
        del log[:dropped]
        session["adjustments_earlier"] = int(session.get("adjustments_earlier", 0)) + dropped


# -- rebuys ---------------------------------------------------------------------------


def rebuy_policy(table: LiveTable, seat: int, by_host: bool, what: str = "rebuy") -> bool:
    """Check a person's rebuy (or top-up, ``what`` = ``"top-up"``: stop 58, counted
    as a rebuy) against the table's rules (issue 27) before it is made:
    the cap (``rebuy_cap``: ``rebuy_cap`` refusal naming it), and whether it must
    wait for the host (``rebuy_approval``): returns ``True`` when it must (the
    caller then records the request), ``False`` when it is made now.  Raises
    :class:`TableError` ``already_asked`` for a second request."""
    row = table.seats[seat].row
    cap = table.config.rebuy_cap
    made = int(table.session.get("rebuys_made", {}).get(row.token_digest or "", 0))
    if cap and made >= cap:
        raise _refused("rebuy_cap", f"you have rebought {times(made)}, the most this "
                         f"table allows (cap {cap}); the host may adjust your stack"
                         + ("; a top-up counts as a rebuy" if what == "top-up" else ""))
    if not table.config.rebuy_approval or by_host:
        return False
    if seat in table.session.get("rebuy_requests", []):
        asked = "top-up" if seat in table.session.get("top_up_requests", []) else "rebuy"
        raise _refused("already_asked", f"your {asked} is waiting for the host's approval")
    return True


def rebuy_closed(table: LiveTable, seat: int | None) -> str | None:
    """Why the player in ``seat``, with no chips, can take no rebuy under the
    table's rules, in words for the page (which then shows these words, not a
    Rebuy button); ``None`` when it may (or ``seat`` is no seat, or has chips).
    A table the host closed (stop 59); a cash table: rebuys off, or the cap
    reached (issue 27); a tournament
    (issue 28): over ("You finished 3rd and win 8."), no rebuys, past the levels
    that allow them, or the rebuy declined, the place first once known ("You are
    out in 4th place: you took no rebuy.", "You are out of the tournament: rebuys
    were open in the first level only.")."""
    if seat is None or seat not in table.seats or table.seats[seat].row.stack > 0:
        return None
    if table.session.get("ended") is not None:  # (the host closed the table: stop 59)
        return "The host closed the table: no more rebuys."
    config = table.config
    if config.tournament:
        state = table.session.get("tournament")
        if state is None:
            return None
        sit_and_go = table.tourney.tournament()
        if state.get("over"):
            # (the panel says the tournament is over, with the places and prizes: the
            # dock says where you finished, stop 57: "The tournament is over" was said
            # three times on a busted friend's page, notice, panel and dock)
            finish = _your_finish(table, sit_and_go, seat, True)
            return "You" + finish.removeprefix(": you") + "." if finish \
                else "The tournament is over."
        # The news first, then why (s62-table2: "Rebuys were open in the first 2
        # levels only: you are out in 4th place." made a friend read the rule
        # before learning they were out): "You are out in 4th place: rebuys were
        # open in the first 2 levels only."
        out = "You are out" + (_your_finish(table, sit_and_go, seat, False)
                               or " of the tournament")
        if not config.rebuy_levels:
            return out + ": this tournament has no rebuys."
        if sit_and_go is not None and not sit_and_go.rebuy_open:
            from rollem.tournament.session import first_levels

            return out + f": rebuys were open in {first_levels(config.rebuy_levels)} only."
        if sit_and_go is not None and seat in sit_and_go.declined:
            # (s62-night: the place once it is known, as the tile and the panel say it;
            # none while a rebuy by one who busted before them may still move it)
            return out + ": you took no rebuy."
        return None
    if not config.rebuys:
        return "The host does not allow rebuys at this table."
    made = int(table.session.get("rebuys_made", {}).get(
        table.seats[seat].row.token_digest or "", 0))
    if config.rebuy_cap and made >= config.rebuy_cap:
        return (f"You have rebought {times(made)}, the most this table allows (cap "
                f"{config.rebuy_cap}); the host may adjust your stack.")
    return None


def top_up_least(config: Any) -> int:
    """The smallest top-up, in chips, a cash table makes (s59-seat): its big bet
    (``config.big_bet``, at least 1).  A top-up counts against the rebuy cap; a
    friend who lost a blind was offered "Top up +2", each spending one of their
    capped rebuys.  Less than a big bet below the buy-in is no loss worth a
    rebuy: the button waits until the stack is a big bet or more short."""
    return max(1, int(config.big_bet))


def top_up_offer(table: LiveTable, seat: int | None) -> int | None:
    """The chips a top-up would add to ``seat``'s stack now (stop 58: a whole
    number, the buy-in less the stack), for the page's Top up button; ``None``
    when there is none to offer: no seat, a tournament, rebuys off, the table
    closed (stop 59), a stack of 0 (a rebuy) or at the buy-in or more, less than
    a big bet below the buy-in (:func:`top_up_least`), dealt into the hand in
    play, a request already waiting for the host, or the rebuy cap reached."""
    if seat is None or seat not in table.seats:
        return None
    config = table.config
    row = table.seats[seat].row
    if config.tournament or not config.rebuys or not 0 < row.stack < config.stack:
        return None
    if table.session.get("ended") is not None:  # (the host closed the table: stop 59)
        return None
    if config.stack - row.stack < top_up_least(config):
        return None
    hand = table.hand
    if hand is not None and not hand.over and table.views.dealt_in_hand(seat, hand):
        return None
    if table.runout.active and hand is not None and seat in hand.seats:  # (s61-table2:
        # the hand over, not yet settled)
        return None
    if seat in table.session.get("rebuy_requests", []):
        return None
    made = int(table.session.get("rebuys_made", {}).get(row.token_digest or "", 0))
    if config.rebuy_cap and made >= config.rebuy_cap:
        return None
    return config.stack - row.stack


def lapse_top_ups(table: LiveTable) -> list[tuple[Client, str]]:
    """Drop the top-up requests waiting for the host (``session["top_up_requests"]``,
    and their ``rebuy_requests`` entries) whose seat's stack is now less than a big
    bet (:func:`top_up_least`) below the buy-in, or at it or above: the player won
    chips back, the host set the stack or raised the big bet (s60-table: such a request stayed
    pending until the host declined it, its approval refused ``small_top_up``).
    Returns each lapsed seat's ``top_up_lapsed`` error message and its
    connections, for the caller to queue after its commit (the session is
    changed in memory only).  A request whose seat has no chips is kept (its
    approval makes it a rebuy of the same chips)."""
    from rollem.server.protocol import error_message

    s = table.session
    top_ups = s.get("top_up_requests", [])
    config = table.config
    sends: list[tuple[Client, str]] = []
    for seat in list(top_ups):
        info = table.seats.get(seat)
        stack = info.row.stack if info is not None else 0
        if info is None or stack == 0 or config.stack - stack >= top_up_least(config):
            continue
        top_ups.remove(seat)
        if seat in s.get("rebuy_requests", []):
            s["rebuy_requests"].remove(seat)
        why = (f"less than a big bet ({top_up_least(config)}) below the buy-in of "
               f"{config.stack}" if stack < config.stack else
               f"at the buy-in of {config.stack} or more")
        told = error_message("top_up_lapsed", f"your top-up request lapsed: your stack "
                             f"is {stack}, {why}, so there is nothing to top up")
        sends += [(client, told) for client in info.clients]
    return sends


def _your_finish(table: LiveTable, t: Any, seat: int, over: bool) -> str:
    """Where ``seat``, out of tournament ``t`` for good, finished, in words to
    follow "you are out" (stop 56: a busted friend's dock said only "you are
    out", the place was in the panel far up a phone's page): ``" in 5th
    place"``, ``" in 3rd place and win 40"`` once the prize pool is final (no
    rebuy nor add-on to come); once the tournament is over (``over``), ``": you
    finished 3rd and win 8"`` or ``": you finished 5th"``; a shared place names
    the others in it (``" in 4th place, tied with Cal"``, ``": you finished 2nd,
    tied with Bea, and win 5"``).  Empty when no place is known (no tournament
    state)."""
    if t is None:
        return ""
    chips = table.tourney.stacks()
    places = t.places(chips)
    place = places.get(seat)
    if place is None:
        return ""
    nth = f"{place}" + ("th" if place % 100 in (11, 12, 13)
                        else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th"))  # (as the panel)
    # A place shared (busted in one hand with the same chips: the panel's "=4th") is
    # said so, with whom (s73-night: the dock said "4th place" beside "=4th: Ann
    # =4th: Cal" in the panel): "4th place, tied with Cal".
    names = table.names()
    tied = [names[s] for s, p in sorted(places.items()) if p == place and s != seat]
    with_whom = f", tied with {' and '.join(tied)}" if tied else ""
    if not over:
        # (s62-night: a friend out in the money was told the place alone until the
        # end; the prize is said once the pool can no longer grow: the rebuys closed
        # and the add-on's window too, or a deal agreed)
        final = not t.rebuy_open and (not t.addon_chips or t.addon_closed or t.deal is not None)
        prize = int(t.payouts(chips).get(seat, 0)) if final else 0
        return (f" in {nth} place{with_whom}"
                + (f"{',' if tied else ''} and win {prize}" if prize > 0 else ""))
    prize = int(t.payouts(chips).get(seat, 0))
    return (f": you finished {nth}{with_whom}"
            + (f"{',' if tied else ''} and win {prize}" if prize > 0 else ""))


def note_rebuy(table: LiveTable, seat: int) -> None:
    """A person's rebuy was made: counted against the cap, its request answered."""
    row = table.seats[seat].row
    made = table.session.setdefault("rebuys_made", {})
    key = row.token_digest or ""
    made[key] = int(made.get(key, 0)) + 1
    for key in ("rebuy_requests", "top_up_requests"):
        requests = table.session.get(key, [])
        if seat in requests:
            requests.remove(seat)


# -- passwords and watchers -----------------------------------------------------------


def hash_password(password: str, salt: bytes | None = None) -> dict[str, str]:
    """``password``'s salted scrypt hash (``{"salt", "hash"}``, hex; hashlib.scrypt)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=salt,
                            maxmem=64 * 2**20, **SCRYPT)
    return {"salt": salt.hex(), "hash": digest.hex()}


def check_password(table: LiveTable, password: object) -> bool:
    """Whether ``password`` is the table's (``True`` when it has none); compared in
    constant time (:func:`hmac.compare_digest`).  Costly (scrypt): call it off
    the event loop."""
    kept = table.session.get("password")
    if not kept:
        return True
    if not isinstance(password, str) or not password or len(password) > MAX_PASSWORD:
        return False
    again = hash_password(password, bytes.fromhex(kept["salt"]))
    return hmac.compare_digest(again["hash"], kept["hash"])


def _set_password(table: LiveTable, password: object) -> None:
    """The host's ``password`` op: ``None`` removes the table's password at once;
    a new one is hashed off the event loop (:data:`~rollem.server.live_table.
    executors._PASSWORD_THREAD`, s59-safe) and set, saved and told when its hash
    is made (a later change or removal meanwhile wins).  Raises
    :class:`TableError`: ``bad_password`` (not a text of :data:`MIN_PASSWORD` to
    :data:`MAX_PASSWORD` characters), ``rate_limited`` (a new one within
    :data:`PASSWORD_EVERY` seconds of the last, or while the last is still being
    hashed)."""
    from rollem.server import live_table

    number = getattr(table, "_password_asked", 0) + 1
    if password is None:
        table._password_asked = number  # type: ignore[attr-defined]
        table.session.pop("password", None)
        _changed(table)
        return
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise _refused("bad_password", f"a table password is a text of {MIN_PASSWORD} to "
                         f"{MAX_PASSWORD} characters (or null to remove it)")
    last = getattr(table, "_password_set_at", None)
    now = table.clock()
    if (last is not None and now - last < PASSWORD_EVERY) or getattr(
            table, "_password_hashing", False):
        raise _refused("rate_limited", f"a new password at most every {PASSWORD_EVERY:g} s; "
                       "try again in a moment")
    table._password_set_at = now  # type: ignore[attr-defined]
    table._password_asked = number  # type: ignore[attr-defined]
    table._password_hashing = True  # type: ignore[attr-defined]
    loop = asyncio.get_running_loop()

    def made(done: Future[dict[str, str]]) -> None:
        table._password_hashing = False  # type: ignore[attr-defined]
        if table.closed or getattr(table, "_password_asked", 0) != number:
            return  # (the table closed, or the host changed it again meanwhile)
        err = done.exception()
        if err is not None:
            log.error("table %s: the new password was not hashed: %r", table.id, err)
            return
        table.session["password"] = done.result()
        _changed(table)

    future = live_table._PASSWORD_THREAD.submit_for(table.id, hash_password, password)
    if future.done():
        made(future)  # (made at once: a test's executor)
    else:
        future.add_done_callback(lambda done: loop.call_soon_threadsafe(made, done))


def gated(table: LiveTable) -> bool:
    """Whether a watcher needs to be let in: a private table, or one with a password."""
    return table.config.private or bool(table.session.get("password"))


def _approved(table: LiveTable, digest: str | None) -> bool:
    return digest is not None and any(
        hmac.compare_digest(str(w["digest"]), digest) for w in table.session.get("watchers", []))


def may_see(table: LiveTable, seat: int | None, is_host: bool, watch_digest: str | None) -> bool:
    """Whether a client (its seat, host role and watcher cookie's digest) may see
    the table: anyone at an open table; the host, a seated player (not one still
    waiting for approval at a private table) and an approved watcher at a gated one."""
    if is_host or not gated(table):
        return True
    if seat is not None and seat in table.seats:
        return not (table.config.private and seat in table.session.get("waiting", []))
    return _approved(table, watch_digest)


def view_kind(table: LiveTable, client: Client) -> str:
    """What ``client`` sees: ``"full"`` (its own eyes, as always), ``"delayed"`` (a
    watcher with the watcher delay on: :func:`delayed_viewer`) or ``"locked"``
    (:func:`locked_state`).  The creator's host cookie counts as the HTTP routes
    count it (``AppContext.may_see``), also once the role was handed over."""
    owner = client.is_host or client.host_cookie
    if not may_see(table, client.seat, owner, client.watch_digest):
        return "locked"
    if delayed_viewer(table, client.seat, owner):
        return "delayed"
    return "full"


def delayed_viewer(table: LiveTable, seat: int | None, is_host: bool) -> bool:
    """Whether the watcher delay hides the hand in play from a client at ``seat``
    (``None``: a watcher) who is the host or not: with the delay on, a watcher,
    and one who took a seat once the hand in play was offered (its game named,
    its deal committed: ``session["seated_at_offer"]``) -- a watcher could
    otherwise take a free seat to see it.  Never the host; a player sitting out
    who sat down before sees it."""
    if is_host or not table.config.watcher_delay:
        return False
    if seat is None:
        return True
    info = table.seats.get(seat)
    if info is None:
        return True
    s = table.session
    phase = s.get("choice") or s.get("seeding")
    hand_no = table.hand.hand_no if table.hand is not None else \
        int(phase["hand"]) if phase else None
    offered = s.get("seated_at_offer")
    if hand_no is None or not offered or int(offered["hand"]) != hand_no:
        return False  # (no hand on; or one offered before this was recorded)
    held = offered["seats"].get(str(seat))
    return held is None or not hmac.compare_digest(str(held), str(info.row.token_digest))


def watch_request(table: LiveTable, token: str, name: object, network: str = "") -> str:
    """A would-be watcher (the holder of watcher cookie ``token``, password already
    checked, asking from ``network``: :func:`rollem.server.limits.network_key`)
    asks to watch: ``"approved"`` (at a table with only a password, or approved
    before) or ``"waiting"`` (a private table: the host is asked).

    At a private table at most :data:`WATCH_REQUESTS_PER_NETWORK` requests of one
    network and :data:`MAX_WATCH_REQUESTS` in all wait at once; one past either is
    refused, the requests already waiting stay (first come, first asked), and the
    host is told how many were refused (``watch_refused``, until the list is
    empty again).  A request's name is told apart from every name known at the
    table (seated and departed players, requests waiting, approved watchers):
    ``Dad 2`` (:func:`~rollem.server.live_table.player_names.distinct_name`).
    The networks of waiting requests are kept in memory only (not stored with
    the table: after a restart only the overall cap holds for the requests
    stored before).

    At a table with only a password, past :data:`MAX_WATCHERS` browsers the oldest
    approved is forgotten (it gives the password again).

    Raises :class:`TableError`: ``bad_name``, ``too_many_requests``."""
    digest = token_digest(token)
    if _approved(table, digest):
        return "approved"
    s = table.session
    waiting = s.setdefault("watch_requests", [])
    if any(hmac.compare_digest(str(r["digest"]), digest) for r in waiting):
        return "waiting"
    from rollem.server.live_table.player_names import clean_name, distinct_name

    # Told apart from every name known here (issue 27 try-out): two strangers who both
    # ask as "Dad", or one asking as a seated player's name, are "Dad 2" to the host.
    name = distinct_name(clean_name(name), [
        *table.seating.taken_names(), *(str(r["name"]) for r in waiting),
        *(str(w["name"]) for w in s.get("watchers", []))])
    number = int(s.get("watch_next", 0)) + 1
    entry = {"id": number, "digest": digest, "name": name}
    if table.config.private:
        networks = _waiting_networks(table)
        if network and sum(n == network for n in networks.values()) \
                >= WATCH_REQUESTS_PER_NETWORK:
            _refuse_request(table, f"{WATCH_REQUESTS_PER_NETWORK} watch requests from your "
                            "network already wait for the host of this table; ask again "
                            "once the host has answered them")
        if len(waiting) >= MAX_WATCH_REQUESTS:
            _refuse_request(table, f"the host's list of watch requests is full "
                            f"({MAX_WATCH_REQUESTS} waiting); try again later")
        waiting.append(entry)
        if network:
            networks[number] = network
    else:
        watchers = s.setdefault("watchers", [])
        # (a table with only a password: the browsers that gave it, the oldest
        # forgotten past the cap -- its watcher gives the password again -- rather
        # than every new browser refused for as long as the table lasts)
        del watchers[:max(0, len(watchers) - MAX_WATCHERS + 1)]
        watchers.append(entry)
    s["watch_next"] = number
    _changed(table)
    return "waiting" if table.config.private else "approved"


def newcomer_network_check(table: LiveTable, network: str) -> None:
    """Refuse (``too_many_requests``) a private table's stranger sitting down when
    :data:`NEWCOMERS_PER_NETWORK` of ``network`` already wait for the host (kept
    in memory, as the watch requests' networks)."""
    networks: dict[int, str] = table.__dict__.setdefault("_newcomer_networks", {})
    waiting = set(table.session.get("waiting", []))
    for seat in [s for s in networks if s not in waiting]:
        del networks[seat]
    if network and sum(n == network for n in networks.values()) >= NEWCOMERS_PER_NETWORK:
        raise _refused("too_many_requests", f"{NEWCOMERS_PER_NETWORK} players from your "
                       "network already wait for the host of this table to let them in; "
                       "sit down once the host has answered them")


def newcomer_noted(table: LiveTable, seat: int, network: str) -> None:
    """A private table's stranger from ``network`` sat in ``seat`` and waits."""
    if network and seat in table.session.get("waiting", []):
        table.__dict__.setdefault("_newcomer_networks", {})[seat] = network


def _waiting_networks(table: LiveTable) -> dict[int, str]:
    """Request number -> network of the watch requests still waiting (in memory)."""
    networks: dict[int, str] = table.__dict__.setdefault("_watch_networks", {})
    live = {r["id"] for r in table.session.get("watch_requests", [])}
    for number in [n for n in networks if n not in live]:
        del networks[number]
    return networks


def _refuse_request(table: LiveTable, message: str) -> None:
    """Count a refused watch request (the host sees ``watch_refused``: its clients
    are sent it within :data:`REFUSED_SHOWN_EVERY` s, once however many come
    meanwhile) and raise ``too_many_requests``."""
    import asyncio

    s = table.session
    s["watch_refused"] = int(s.get("watch_refused", 0)) + 1
    if not table.__dict__.get("_refused_shown_soon"):
        table.__dict__["_refused_shown_soon"] = True

        def show() -> None:
            table.__dict__["_refused_shown_soon"] = False
            if not getattr(table, "closed", False):
                _changed(table)

        asyncio.get_running_loop().call_later(REFUSED_SHOWN_EVERY, show)
    raise _refused("too_many_requests", message)


# -- what clients see -----------------------------------------------------------------


def public(table: LiveTable) -> dict[str, Any]:
    """The host tools' part of the table's public facts (to those who may see it)."""
    s = table.session
    _keep_newest_adjustments(s)
    return {
        "adjustments": s.get("adjustments", []),
        "adjustments_earlier": int(s.get("adjustments_earlier", 0)),
        "rebuy_requests": sorted(s.get("rebuy_requests", [])),
        "top_up_requests": sorted(s.get("top_up_requests", [])),  # (of those: top-ups)
        "watch_requests": [{"id": r["id"], "name": r["name"]}
                           for r in s.get("watch_requests", [])],
        "watch_refused": int(s.get("watch_refused", 0)),
        "watchers": [{"id": r["id"], "name": r["name"]} for r in s.get("watchers", [])],
        "has_password": bool(s.get("password")),
    }


def in_play(table: LiveTable) -> bool:
    """Whether a hand is being played (or its game named, or its deal committed and
    waiting for client seeds, issue 32): what a delayed watcher is not told of."""
    s = table.session
    return table.hand is not None or bool(s.get("choice")) or bool(s.get("seeding"))


def quiet_seq(table: LiveTable, kind: str) -> int | None:
    """The sequence number a client of view ``kind`` is told: the table's (``None``),
    or, for a locked client and a delayed watcher during a hand, a number that
    does not count the hand's actions (0, or the table's when the last hand ended)."""
    if kind == "locked":
        return 0
    if kind == "delayed" and in_play(table):
        return int(table.session.get("ended_seq", 0))
    return None


_IN_PLAY = ("acting", "deadline", "bank")
"""A seat's facts that tell of the hand in play (whose turn, its clock)."""


def delayed_public(table: LiveTable, data: dict[str, Any]) -> dict[str, Any]:
    """The table part for a delayed watcher: while a hand is in play (or its game
    being named, or its deal waiting for client seeds) nothing of it -- whose turn,
    clocks (and the time a host's pause held), the game named, the deal committed
    (who is dealt in, who sent a seed, the games of a random pick), the clock's
    actions, its number and button (those of the last hand that ended), the moment
    -- only that one is being played (``hand_in_play``).  Nor are such states sent
    one an action (:func:`rollem.server.live_table.views.broadcast` sends a quiet
    view only when it changed), nor do they carry the table's sequence number
    (:func:`quiet_seq`): the number of actions is not told."""
    if not in_play(table):
        return {**data, "hand_in_play": False}
    seats = [{k: v for k, v in seat.items() if k not in _IN_PLAY} for seat in data["seats"]]
    last = table.final_hand
    return {**data, "seats": seats, "choice": None, "deal": None, "clocked": {},
            "held_used": None,  # (how long the open decision had run when paused)
            "hand_in_play": True,
            # who sat out as at the deal (the clock sitting a player out in this
            # hand is one of its actions)
            **table.session.get("out_at_deal", {}),
            "now": None,  # (no clock of it is shown: the moment of each state is not told)
            # the table as it stood after the last hand that ended
            "hand_no": last.hand_no if last is not None else 0,
            "button": last.hand.button if last is not None else None}


def locked_state(table: LiveTable, you: dict[str, Any]) -> dict[str, Any]:
    """The whole state of a client who may not see the table: its name, and that it
    is private or has a password, and whether the host closed it for good
    (``closed``: the page then offers to ask to see the settle-up, and no seat;
    s60-table) -- no sequence number, no moment: nothing that changes with play."""
    ended = table.session.get("ended")
    return {
        "type": "state", "seq": 0,
        "table": {"id": table.id, "name": table.config.name, "locked": True,
                  "private": table.config.private,
                  "has_password": bool(table.session.get("password")),
                  "closed": bool(ended and ended.get("final"))},
        "you": you, "hand": None,
    }  # fmt: skip
