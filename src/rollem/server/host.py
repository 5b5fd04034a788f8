"""Host controls, sitting out, showing by choice and chat at a live table (issue 15).

Messages (see :mod:`rollem.server.protocol`), each applied in one step on the
event loop like every other table change, stored with the table's session:

- ``{"type": "host", "op": ...}`` -- the host only:

  - ``pause`` / ``resume``: while paused nothing moves (issue 27): no new
    hand is dealt, the hand in play stands still (no decision is open, so
    nobody acts and the clock acts for nobody) and every clock -- a
    player's decision and time bank, the button's for naming the game of a
    dealer's choice -- goes on at resume with the time it had left; a pause
    lasts while the host is there: once no connection of the host has been
    open for the grace period, the table resumes by itself (:func:`lift_pause`);
  - ``deal_now``: end the pause between hands (``between_hands``) and deal the
    next hand at once -- the only way to cut it short (issue 34: a player's
    join, rebuy, return or the host's resume or approval deals a table that
    was waiting, never sooner than the pause); also deals again at a table that
    stopped because no person played for a while;
  - ``end_break``: end a tournament's break early ("Resume now", stop 59):
    the next level starts and the next hand is dealt (``no_break`` when none
    runs);
  - ``remove`` (``seat``): remove an idle player -- one who is away
    (disconnected) or sitting out, or a computer player; a player dealt into
    the hand in play has its decisions timed out at once and leaves after
    the hand;
  - ``config`` (``config``: any of ``game``, ``structure``, ``ante``,
    ``small_bet``, ``big_bet``, ``choices``, ``hand_seconds``): change the
    stakes, structure, game or the least time per hand; the
    change takes effect at the next deal (at once when no hand is in play);
  - ``hand_over`` (``seat``): the player in ``seat`` becomes the host (the
    creator's host cookie no longer counts while that player sits there);
  - ``approve_joins`` (``on``): from now on each new player waits for the
    host's approval before being dealt in; ``approve`` / ``reject``
    (``seat``): let a waiting player play, or send them away;
  - ``bomb_pot`` (``on``, default true): the next hand is a bomb pot (issue 27;
    ``false`` calls it off): every player dealt in antes ``bomb_pot_ante`` and
    the first betting round is skipped; if the next hand's game cannot have one
    (stud, draw, 5-2-1, Roll Your Own) the call waits for the first hand that
    can. ``bomb_pot_every`` (a ``config`` setting) makes every N-th hand one.

- ``{"type": "sit_out", "out": true|false}`` -- a player sits out from the
  next hand (not dealt in; R-C-12 "leaving") or comes back.
- ``{"type": "leave"}`` -- a player leaves the table (:func:`_leave`).
- ``{"type": "show", "hand": H, "cards": [...]}`` -- after hand ``H`` is over
  a player dealt into it shows some or all of their cards (R-C-11).
- ``{"type": "chat", "text": "..."}`` -- a chat line (:mod:`rollem.server.chat`).
- ``{"type": "straddle", "on": true|false}`` -- a player chooses to straddle
  (issue 27) in every hand, from the next deal, where the table's ``straddle``
  setting lets their seat (``optional``: left of the big blind; ``mississippi``:
  the button, else left of the big blind), or stops.

Session keys kept here: ``host_paused``, ``pause_after_hand`` (the host pauses
when the hand in play ends), ``sitting_out`` (seat list), ``waiting``
(seats awaiting approval), ``approve_joins``, ``host_seat``,
``config_overrides`` (changes already applied), ``config_next`` (changes
for the next deal), ``clocked`` (seat -> the last action the clock played
for it: ``{"hand", "seq", "kind"}``), ``timeouts`` (seat -> decisions in a
row the clock made), ``idle_away`` (seats sat out by the clock: away mode;
also a tournament entrant whose pages stayed closed past the grace period,
listed in ``away_closed`` too, and a person whose every page was closed when
the clock acted for them, listed in ``away_unseen`` too),
``straddlers`` (seats that chose to straddle), ``bomb_pot_next`` (the host
called a bomb pot), ``chat``.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from rollem.server import config_note, host_tools, night_close
from rollem.server.chat import ChatError, ChatLog
from rollem.server.config import (
    ConfigError,
    TableConfig,
    check_choices,
    form_refusal,
    form_words,
    parse_config,
)

if TYPE_CHECKING:
    from rollem.server.live_table import Client, LiveTable
    from rollem.server.protocol import ClientMessage

__all__ = [
    "CONFIG_FIELDS",
    "HOST_OPS",
    "after_join",
    "apply_pending_config",
    "client_is_host",
    "gone_words",
    "handle",
    "is_idle",
    "is_idle_away",
    "note_own_action",
    "note_timeout",
    "public",
    "restored_config",
    "seat_freed",
    "skip_deal",
]

HOST_OPS = ("pause", "resume", "deal_now", "remove", "config", "hand_over", "approve_joins",
            "approve", "reject", "bomb_pot", "close", "end_break", *host_tools.OPS)
"""What the host may do (``op`` of a ``host`` message)."""
CONFIG_FIELDS = ("game", "structure", "ante", "small_bet", "big_bet", "choices", "away_after",
                 "chip_value", "hand_seconds", "straddle", "bomb_pot_every", "bomb_pot_ante",
                 "run_twice", "rebuys", "rebuy_approval", "rebuy_cap", "private",
                 "watcher_delay", "addon_chips", "addon_price")
"""Table settings the host may change between hands (a tournament's add-on until
its window opens: :func:`_addon_change_refusal`)."""

ADDON_FIELDS = ("addon_chips", "addon_price")
"""A tournament's add-on settings (stop 60): they apply at once, not at the next
deal (the hand in play does not use them, and its end may open the window)."""


def _addon_change_refusal(table: LiveTable, changes: dict[str, Any]) -> str | None:
    """Why the host may not change the add-on now (``None``: they may): at a cash
    game; or once the rebuys have closed (the add-on's window opened then, or is
    over: the players answered the offer as it stood).  A value equal to the one
    set is no change and always passes (as read: ``"400"`` is 400, s60-safe2)."""
    asked = {k: changes[k] for k in ADDON_FIELDS if k in changes}
    if not table.config.tournament:
        if all(getattr(table.config, k) == v for k, v in asked.items()):
            return None
        return f"{', '.join(asked)}: an add-on is a tournament's; this table plays a cash game"
    try:
        read = parse_config({**table.config.to_dict(), **asked}, strict=False)
    except ConfigError:
        read = None  # (refused with the field's words by the check after this one)
    if read is not None and all(getattr(table.config, k) == getattr(read, k) for k in asked):
        return None
    t = table.tourney.tournament()
    if t is not None and (t.level >= t.rebuy_levels or t.addon_closed or t.addons
                          or t.addon_declined):
        return (f"cannot change {', '.join(asked)}: the rebuys closed at the end of level "
                f"{t.rebuy_levels} and the add-on was offered as it stood")
    return None


def _error(code: str, message: str) -> Exception:
    from rollem.server.live_table import TableError

    return TableError(code, message)


def restored_config(config: dict[str, Any], session: dict[str, Any]) -> TableConfig:
    """The table's settings with the host's changes (``config_overrides``) applied."""
    return TableConfig.from_dict({**config, **session.get("config_overrides", {})})


def client_is_host(table: LiveTable, client: Client) -> bool:
    """Whether ``client`` is the host now: the player the role was handed to while
    they sit at the table, else whoever holds the creator's host cookie."""
    seat = table.session.get("host_seat")
    if seat is not None and seat in table.seats:
        return bool(client.seat == seat)
    return client.host_cookie


def _refresh_hosts(table: LiveTable) -> None:
    """The role may have changed hands: :meth:`HostRole.settle
    <rollem.server.live_table.host_role.HostRole.settle>` (who hosts, the
    holder's away clock, a role given back)."""
    table.host_role.settle()


def is_idle(table: LiveTable, seat: int) -> bool:
    """Whether the host may remove ``seat``: away (disconnected), sitting out,
    waiting for approval, or a computer player."""
    info = table.seats[seat]
    return (info.row.bot is not None or info.disconnected_since is not None
            or seat in table.session.get("sitting_out", [])
            or seat in table.session.get("waiting", []))


def skip_deal(table: LiveTable, seat: int) -> bool:
    """Whether ``seat`` is left out of the next deal (sitting out or awaiting approval)."""
    return (seat in table.session.get("sitting_out", [])
            or seat in table.session.get("waiting", []))


def seat_freed(table: LiveTable, seat: int) -> None:
    """``seat`` is free again: it is no longer sitting out, waiting or the host (a
    later occupant inherits none of it; the host role goes back to the creator)."""
    s = table.session
    for key in ("sitting_out", "waiting", "bb_wait", "idle_away", "away_closed", "away_unseen",
                "straddlers", "rebuy_requests", "top_up_requests"):
        if seat in s.get(key, []):
            s[key].remove(seat)
    s.get("clocked", {}).pop(str(seat), None)
    s.get("timeouts", {}).pop(str(seat), None)
    table.tourney.hold_last_call()  # (a last call held for its rebuy runs on)
    if s.get("host_seat") == seat:
        s.pop("host_seat")
        table.host_role.holder_left(seat)
    _refresh_hosts(table)


def after_join(table: LiveTable, seat: int, by_host: bool) -> None:
    """A player just sat in ``seat``: when the host approves joins (and the player is
    not the host), they wait for approval before being dealt in."""
    seat_freed(table, seat)  # nothing of an earlier occupant carries over
    if by_host:
        note_creator_seat(table, seat)
    if (table.session.get("approve_joins") or table.config.private) and not by_host:
        table.session.setdefault("waiting", []).append(seat)
        _changed(table)


def note_creator_seat(table: LiveTable, seat: int) -> None:
    """The creator (a page holding the creator's host cookie) sits in ``seat``: store
    that seat's cookie digest with the table (``session["creator_digest"]``, saved),
    so the settle-up names the creator as the house after a restart too, before
    any page of theirs connects (s59-seat: it said "the house" until then).  The
    digest follows the person (a seat change, a return to the table keeps it, as
    their ledger line); changes nothing when already stored."""
    info = table.seats.get(seat)
    digest = info.row.token_digest if info is not None else None
    if digest is None or table.session.get("creator_digest") == digest:
        return
    table.session["creator_digest"] = digest
    table.saving.commit(session=True)


def apply_pending_config(table: LiveTable) -> None:
    """At a deal: apply the settings the host changed during the last hand."""
    pending = table.session.pop("config_next", None)
    if pending:
        table.saving.send_after_commit(_apply_config(table, pending))


def note_timeout(table: LiveTable, seat: int, action: dict[str, Any],
                 counts: bool = True) -> None:
    """Remember that the clock acted for ``seat`` (``action`` in wire form), so its
    player is told ("the clock checked for you"); a person for whom the clock
    made ``away_after`` decisions in a row is sat out and marked away (issue 27:
    not dealt in, so no ante or blind is taken, R-C-12; their other decisions
    in this hand are timed out at once) until they say they are back.  A person
    whose every page is closed when the clock acts is marked away at its first
    decision (stop 58; ``away_unseen`` says why), unless away mode is off; not
    one whose page was open when the table was restored here (a restart, or a
    takeover from a process that stopped renewing its lease: the page has not
    reached this process yet, :attr:`~rollem.server.live_table.clients.Seat.page_elsewhere`):
    the clock plays each of that seat's decisions until a page of it connects.

    ``counts`` False: the decision's clock ran out while no process held the
    table (:meth:`~rollem.server.live_table.turns.Turns.mark_expired_unheld`):
    its person is told, but it neither adds to their streak nor marks them away
    (s62-table)."""
    s = table.session
    hand_no = table.hand.hand_no if table.hand is not None else None
    s.setdefault("clocked", {})[str(seat)] = {
        "hand": hand_no, "seq": table.seq + 1, "kind": action.get("kind"),
    }  # fmt: skip
    info = table.seats.get(seat)
    if info is None or info.row.bot is not None or not counts:
        return
    away_after = table.config.away_after  # (0: away mode off)
    if info.disconnected_since is not None and info.page_elsewhere:
        # Its page was open in the process that held the table before this one
        # (restarted, or taken over): the page is reconnecting, not closed.  Sat out
        # here, a table of one person and computer players stopped dealing after a
        # fail-over (tests/web/test_many_processes.py, stop 58).
        return
    if info.disconnected_since is not None:
        # Every page of the seat closed when its clock ran out (stop 58): away at
        # once, as Poker Now sits out a player who misses a turn.  Before, each of
        # their decisions waited the whole clock until the grace period ended, hand
        # after hand at a tournament (a friend gone for a drink: 30-60 s a
        # decision).  Their seat and the grace's end are unchanged.
        if away_after and seat not in s.get("idle_away", []):
            s.setdefault("away_unseen", []).append(seat)
            _sit_out_away(s, seat)
        return
    streak = s.setdefault("timeouts", {})
    streak[str(seat)] = int(streak.get(str(seat), 0)) + 1
    if away_after and streak[str(seat)] >= away_after and seat not in s.get("idle_away", []):
        _sit_out_away(s, seat)


def _pause_after_hand(table: LiveTable, on: object) -> None:
    """The host's ``{"op": "pause", "after_hand": true|false}`` (stop 58): pause the
    table when the hand in play ends, before the next deal (and before the button
    names its game), or take that back.  The last hand of the night is played
    out, and the table then stands paused between hands, where the ledger
    settles up.  With no hand in play the table pauses at once (as ``pause``).

    Raises :class:`~rollem.server.live_table.TableError` ``malformed``: ``on`` is
    not true or false."""
    if not isinstance(on, bool):
        raise _error("malformed", "'after_hand' must be true (pause when this hand "
                     "ends) or false (play on)")
    s = table.session
    if on and table.hand is None and not s.get("host_paused"):
        s["host_paused"] = True
        table.turns.hold_clocks()
    elif on and table.hand is not None and not s.get("host_paused"):
        s["pause_after_hand"] = True
    else:
        s.pop("pause_after_hand", None)
    _changed(table)


def pause_if_asked(table: LiveTable) -> None:
    """At a hand's end: pause the table if the host asked to pause after it.  A
    host with no page open by then gets the pause's usual limit: it lifts after
    the reconnect grace period unless the host comes back (as when the host's
    last page closes during a pause)."""
    if table.session.pop("pause_after_hand", False):
        table.session["host_paused"] = True
        table.turns.hold_clocks()  # (as the host's pause: a deal's time, a last call)
        if not any(c.is_host for c in table.seating.all_clients()):
            table.seating.host_away(table.clock())


def _sit_out_away(s: dict[str, Any], seat: int) -> None:
    """Mark ``seat`` away (``idle_away``) and sitting out (away mode)."""
    s.setdefault("idle_away", []).append(seat)
    if seat not in s.setdefault("sitting_out", []):
        s["sitting_out"].append(seat)


def note_own_action(table: LiveTable, seat: int) -> None:
    """``seat``'s player acted themselves: the clock's streak starts again."""
    table.session.get("timeouts", {}).pop(str(seat), None)


def is_idle_away(table: LiveTable, seat: int) -> bool:
    """Whether ``seat`` was sat out by the clock (away mode) and has not come back."""
    return seat in table.session.get("idle_away", [])


def public(table: LiveTable) -> dict[str, Any]:
    """The table-level facts every client sees (added to ``table_public``)."""
    from rollem.server import night_close, seat_moves

    s = table.session
    return {
        "host_paused": bool(s.get("host_paused")),
        "pause_after_hand": bool(s.get("pause_after_hand")),
        "held_used": s.get("held_used"),
        "sitting_out": sorted(s.get("sitting_out", [])),
        "idle_away": sorted(s.get("idle_away", [])),
        # (of those, the tournament entrants whose pages were closed past the grace)
        "away_closed": sorted(s.get("away_closed", [])),
        # (of those, the seats whose every page was closed when the clock acted)
        "away_unseen": sorted(s.get("away_unseen", [])),
        "waiting": sorted(s.get("waiting", [])),
        # (seat changes waiting for the big blind to reach their seat: s73-blinds;
        # not one the hand offered deals in, its game being named or its deck
        # waiting for the seeds: it waits no more, s74-night)
        "bb_wait": seat_moves.still_waiting(table),
        "approve_joins": bool(s.get("approve_joins")),
        "host_seat": s.get("host_seat") if s.get("host_seat") in table.seats else None,
        "config_next": s.get("config_next"),
        "clocked": s.get("clocked", {}),
        "straddlers": sorted(s.get("straddlers", [])),
        "bomb_pot_next": bool(s.get("bomb_pot_next")),
        "host_note": s.get("host_note"),  # the role's last pass or return (host_role.py)
        "seat_changes": seat_moves.public(table),  # (moves waiting for the hand's end)
        "ended": night_close.public(table),  # (the host closed the table: stop 59)
        **host_tools.public(table),
    }


# -- messages -----------------------------------------------------------------------


def chat_log(table: LiveTable) -> ChatLog:
    log: ChatLog | None = getattr(table, "_chat", None)
    if log is None:
        log = ChatLog.from_session(table.session)
        table._chat = log  # type: ignore[attr-defined]
    return log


def chat_history_text(table: LiveTable) -> str:
    """The ``chat`` message with the kept lines, for a client that just connected."""
    from rollem.server.live_table import _dumps

    return _dumps({"type": "chat", "lines": chat_log(table).lines})


def handle(table: LiveTable, client: Client, msg: ClientMessage) -> None:
    """Apply a ``host``, ``sit_out``, ``leave``, ``straddle``, ``show`` or ``chat`` message; raises
    :class:`~rollem.server.live_table.TableError` (nothing changes) when refused."""
    if msg.type == "chat":
        _chat(table, client, msg.body.get("text"))
        return
    seat = client.seat
    if msg.type == "host":
        if not client_is_host(table, client):
            raise _error("not_host", "only the host can do that")
        _host(table, client, msg.body)
        return
    if seat is None or seat not in table.seats:
        raise _error("not_seated", "take a seat first")
    if msg.type == "sit_out":
        out = msg.body.get("out")
        if not isinstance(out, bool):
            raise _error("malformed", "'out' must be true (sit out) or false (come back)")
        if (out == (seat in table.session.get("sitting_out", []))
                and (out or not any(seat in table.session.get(key, [])
                                    for key in ("idle_away", "away_closed",
                                                "away_unseen")))):
            return  # as it is already: nothing saved or sent (try-out of stop 53)
        _toggle_taken(table, seat)
        listed = table.session.setdefault("sitting_out", [])
        if out and seat not in listed:
            listed.append(seat)
        elif not out and seat in listed:
            listed.remove(seat)
        if not out:  # back (also from away mode): the clock's streak starts again
            for key in ("idle_away", "away_closed", "away_unseen"):
                if seat in table.session.get(key, []):
                    table.session[key].remove(seat)
            note_own_action(table, seat)
            if table.seats[seat].row.bot is None:  # a person back from a break plays on
                table.pace.attended()
        if out:  # not dealt in, even into a hand whose game the button is naming
            table.dealers_choice.choice_lapses(seat)
        table.turns.rearm(seat)  # (a decision open now: no time bank while out)
        _changed(table, deal=not out)
        return
    if msg.type == "leave":
        _leave(table, seat)
        return
    if msg.type == "show":
        _show(table, seat, msg)
        return
    if msg.type == "straddle":
        on = msg.body.get("on")
        if not isinstance(on, bool):
            raise _error("malformed", "'on' must be true (straddle when you may) or false")
        if on and table.config.straddle == "off":
            raise _error("no_straddle", "this table has no straddles; the host may allow "
                         "them (setting straddle: optional or mississippi)")
        if on == (seat in table.session.get("straddlers", [])):
            return  # as it is already: nothing saved or sent (try-out of stop 53)
        _toggle_taken(table, seat)
        listed = table.session.setdefault("straddlers", [])
        if on and seat not in listed:
            listed.append(seat)
        elif not on and seat in listed:
            listed.remove(seat)
        _changed(table)
        return
    raise _error("unknown_type", f"unknown message type {msg.type!r}")


TOGGLE_BURST = 6
"""Changes of sitting out or straddling a seat may make at once ..."""
TOGGLE_REFILL_SECONDS = 2.0
"""... then one every this many seconds (:func:`_toggle_taken`)."""

_toggles: dict[tuple[str, int], tuple[float, float]] = {}
"""(table id, seat) -> (tokens, when last counted): the toggles' buckets, in memory."""


def _toggle_taken(table: LiveTable, seat: int) -> None:
    """Spend one of ``seat``'s changes of sitting out or straddling, or raise
    ``too_often`` (nothing changes): :data:`TOGGLE_BURST` at once, then one
    every :data:`TOGGLE_REFILL_SECONDS`.  Each change is saved and sends the whole
    state to every connection at the table; within the per-address message
    bucket, one address's 20 seats toggling 600 times a second raised another
    table's action latency from p90 50-106 ms to 674 ms (try-out of stop 53).  A
    player clicks Sit out / I'm back or Straddle a few times a hand at most."""
    _take_token((table.id, seat), TOGGLE_BURST, TOGGLE_REFILL_SECONDS,
                "you changed sitting out or straddling too often")


TOP_UP_BURST = 6
"""Top-ups a seat may ask at once (as :data:`TOGGLE_BURST`) ..."""
TOP_UP_REFILL_SECONDS = 2.0
"""... then one every this many seconds (:func:`top_up_taken`)."""


def top_up_taken(table: LiveTable, seat: int) -> None:
    """Spend one of ``seat``'s top-up requests (stop 58), or raise ``too_often``
    (nothing changes): :data:`TOP_UP_BURST` at once, then one every
    :data:`TOP_UP_REFILL_SECONDS`; its own bucket, beside the toggles'
    (:func:`_toggle_taken`).  Each is saved and sends the whole state to every
    connection, as a toggle; a player tops up once between hands at most, and a
    refused one (in the hand, at the buy-in) costs its token too."""
    _take_token((table.id + "/top_up", seat), TOP_UP_BURST, TOP_UP_REFILL_SECONDS,
                "you asked to top up too often")


def _take_token(key: tuple[str, int], burst: int, refill_seconds: float,
                refusal: str) -> None:
    """Spend one token of bucket ``key`` in :data:`_toggles` (``burst`` at once,
    then one every ``refill_seconds``), or raise ``too_often`` with ``refusal``,
    the limits and when to try again (the bucket unchanged)."""
    now = time.monotonic()
    tokens, last = _toggles.get(key, (float(burst), now))
    tokens = min(float(burst), tokens + (now - last) / refill_seconds)
    if tokens < 1.0:
        wait = math.ceil((1.0 - tokens) * refill_seconds)
        raise _error("too_often", f"{refusal} (at most {burst} at once, then one every "
                     f"{refill_seconds:g} s); try again in {wait} s")
    if len(_toggles) >= 65_536:  # (full buckets say nothing: dropped)
        for k, (t, at) in list(_toggles.items()):
            if t + (now - at) / refill_seconds >= burst:
                del _toggles[k]
    _toggles[key] = (tokens - 1.0, now)


CONFIG_BURST = 6
"""Changes of the table's settings (the host's ``config`` op) a table may take at
once ..."""
CONFIG_REFILL_SECONDS = 2.0
"""... then one every this many seconds (:func:`_config_taken`)."""


def _config_taken(table: LiveTable) -> None:
    """Spend one of ``table``'s changes of its settings (a ``config`` op, and the
    host controls' switches that change something: ``approve_joins``,
    ``bomb_pot``, ``hand_over``, ``password``), or raise ``too_often`` (nothing
    changes): :data:`CONFIG_BURST` at once, then one every
    :data:`CONFIG_REFILL_SECONDS`.  Each change is saved and sends the whole state
    to every connection at the table (a ``config`` is also read and checked two or
    three times and told in the chat: about 2 ms of the event loop that serves
    every table, in-process, load 13), and the host's page may send 640 messages
    a second (stop 56).  A host changes these a few times a night."""
    # (the toggles' buckets are per seat, 0 and up: the table's own is -1)
    _take_token((table.id, -1), CONFIG_BURST, CONFIG_REFILL_SECONDS,
                "you changed the table's settings too often")


CONTROL_BURST = 10
"""The host's pauses, resumes, Deal nows and stack adjustments a table takes at
once (a host fixing every stack of a ten-seat table) ..."""
CONTROL_REFILL_SECONDS = 2.0
"""... then one every this many seconds (:func:`control_taken`)."""


def control_taken(table: LiveTable) -> None:
    """Spend one of ``table``'s host controls that change the table (a ``pause``
    of a table not paused, a ``resume`` of a paused one, ``deal_now``,
    ``adjust_stack``), or raise ``too_often`` (nothing changes):
    :data:`CONTROL_BURST` at once, then one every :data:`CONTROL_REFILL_SECONDS`.
    Each is saved and sends the whole state to every connection at the table; a
    host's 4 connections alternating pause and resume 76 times a second at two
    tables of 9 seats (2 connections each) took another table's p90 websocket
    answer from 0.7 to 24 ms and its p99 to 133 ms (stop 58, load 11).  A
    bucket of its own: a host who has just changed the settings can still pause."""
    # (the toggles' buckets are per seat, 0 and up; the settings' -1)
    _take_token((table.id, -2), CONTROL_BURST, CONTROL_REFILL_SECONDS,
                "you paused, resumed, dealt or adjusted stacks too often")


def lift_pause(table: LiveTable) -> bool:
    """Resume a table the host paused when no connection of the host is open (the
    host has been away for the grace period: :meth:`Seating.host_grace_over
    <rollem.server.live_table.seats.Seating.host_grace_over>`), as the host's
    ``resume`` would: every clock goes on with the time it had left.  Returns
    whether the pause was lifted (not when the table is not paused or a host
    connection is open)."""
    if not table.session.get("host_paused") or any(c.is_host for c in table.all_clients()):
        return False
    table.session["host_paused"] = False
    table.turns.release_clocks()
    _changed(table, deal=True)
    return True


def _changed(table: LiveTable, deal: bool = False) -> None:
    table.seq += 1
    table.session["seq"] = table.seq
    table.saving.commit(session=True)
    table.broadcast()
    if deal:  # (a waiting table deals; the pause between hands is not cut short)
        table.dealer.deal_soon()


def _seat_arg(table: LiveTable, body: dict[str, Any]) -> int:
    seat = body.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in table.seats:
        taken = ", ".join(map(str, sorted(table.seats)))
        raise _error("bad_seat", f"no player in seat {seat!r}; seated: {taken}")
    return seat


def standing_in(table: LiveTable, client: Client) -> bool:
    """Whether ``client`` holds the host role as a stand-in: the server passed it
    while its holder is away (:mod:`rollem.server.live_table.host_role`,
    ``session["host_returns"]``) and ``client`` is not the creator's page."""
    return (table.session.get("host_returns") is not None and not client.host_cookie
            and client_is_host(table, client))


def stand_in_of(table: LiveTable, seat: int | None) -> dict[str, Any] | None:
    """For the page of a host in ``seat``: ``{"for": name, "seat": seat or None}``,
    the host it stands in for and their seat, when the role is a stand-in's
    (:func:`standing_in`; ``seat`` holds it), else ``None``."""
    back = table.session.get("host_returns")
    if back is None or seat is None or table.session.get("host_seat") != seat:
        return None
    away_seat = back.get("seat") if back.get("to") == "seat" else back.get("away_seat")
    return {"for": str(back.get("name") or "The host"), "seat": away_seat}


STAND_IN_KEPT = {"config": "the table's settings stay", "password": "the table's password stays"}
"""Host actions a stand-in may not take, with the words that say so: they stay the
host's own choice."""


def stand_in_refusal(table: LiveTable, client: Client, op: object,
                     body: dict[str, Any]) -> Exception | None:
    """The :class:`TableError` ``stand_in`` refusing a stand-in's host action that is
    not theirs to take, else ``None``: changing the table's settings or password,
    removing the seat of the one away, or adjusting or approving the stand-in's
    own stack or rebuy.  A stand-in keeps the table going; the role passed
    without anyone choosing, so it does not reach the absent host's table or the
    stand-in's own chips (decision of stop 44)."""
    if not standing_in(table, client):
        return None
    back = table.session["host_returns"]
    away = str(back.get("name") or "The host")
    if isinstance(op, str) and op in STAND_IN_KEPT:
        return _error("stand_in", f"{away} is away and you stand in: {STAND_IN_KEPT[op]} "
                      f"{away}'s to change (hosting again on coming back)")
    if op == "close":  # (the night is the host's: stop 59)
        return _error("stand_in", f"{away} is away and you stand in: closing the table for "
                      f"good stays {away}'s to do")
    seat = body.get("seat")
    away_seat = back.get("seat") if back.get("to") == "seat" else back.get("away_seat")
    if op == "remove" and seat is not None and seat == away_seat:
        return _error("stand_in", f"{away} is away and you stand in: {away}'s seat stays "
                      "theirs until they come back")
    if op in ("adjust_stack", "approve_rebuy") and seat is not None and seat == client.seat:
        return _error("stand_in", "you stand in for the host: your own stack and rebuy wait "
                      f"for {away}, as anyone's would")
    return None


def _host(table: LiveTable, client: Client, body: dict[str, Any]) -> None:
    op = body.get("op")
    s = table.session
    refused = stand_in_refusal(table, client, op, body)
    if refused is not None:
        raise refused
    if op == "pause" and body.get("after_hand") is not None:
        # (what changes nothing sends nothing; a change spends a control: s58-safe)
        wanted = body.get("after_hand")
        if isinstance(wanted, bool):
            if s.get("host_paused") or wanted == bool(s.get("pause_after_hand")):
                return  # (already so: nothing saved or sent)
            control_taken(table)
        _pause_after_hand(table, wanted)  # (raises malformed for anything else)
    elif op == "pause":
        if s.get("host_paused"):
            return  # (already so: nothing saved or sent; stop 58)
        control_taken(table)
        s.pop("pause_after_hand", None)  # (now, not at the hand's end)
        s["host_paused"] = True
        table.turns.hold_clocks()  # every clock stops; nobody acts while paused
        _changed(table)
    elif op == "resume":
        if not s.get("host_paused"):
            if s.get("pause_after_hand"):
                # (a pause asked for the hand's end, taken back)
                control_taken(table)
                s.pop("pause_after_hand", None)
                _changed(table)
                return
            # (not paused: nothing to save or send, stop 58; a table that stopped
            # for want of a person playing deals again, as at Deal now)
            table.pace.attended()
            table.dealer.deal_soon()
            return
        control_taken(table)
        s.pop("pause_after_hand", None)
        s["host_paused"] = False
        table.turns.release_clocks()
        table.pace.attended()  # (a break longer than the unattended time: deal again)
        _changed(table, deal=True)
    elif op == "end_break":  # "Resume now": a tournament's break ends early (stop 59)
        if table.tourney.break_left() is None:  # (a refusal spends nothing)
            raise _error("no_break", "no break is running: the host ends a break early "
                         "only during one")
        control_taken(table)
        table.tourney.end_break()  # (saves, tells and deals)
    elif op == "deal_now":
        table.dealer.check_deal_now()  # (a refusal spends nothing)
        control_taken(table)
        table.dealer.deal_now()
        _changed(table)
    elif op == "remove":
        seat = _seat_arg(table, body)

        if table.tourney.holds_entry(seat):
            raise _error("in_tournament", f"seat {seat + 1} is in the tournament: its chips stay "
                         "in play, dealt in and blinded off while its player is away")
        if not is_idle(table, seat):
            raise _error("not_idle", f"seat {seat + 1} is playing; only an away or sitting-out "
                         "player (or a computer player) can be removed")
        _remove(table, seat)
    elif op == "config":
        changes = body.get("config")
        if not isinstance(changes, dict) or not changes:
            raise _error("malformed", "'config' must be an object of settings to change")
        bad = sorted(set(changes) - set(CONFIG_FIELDS))
        if bad:
            raise _error("bad_config", f"cannot change {', '.join(bad)} during a session; "
                         f"allowed: {', '.join(CONFIG_FIELDS)}")
        _config_taken(table)
        staked = sorted({"ante", "small_bet", "big_bet"} & set(changes))
        if staked and table.config.tournament:
            raise _error("bad_config", f"cannot change {', '.join(staked)} in a tournament: "
                         "its level schedule sets the stakes")
        if "choices" in changes:
            _check_choices(table, changes["choices"])
        addon_refused = _addon_change_refusal(table, changes)
        if addon_refused is not None:
            raise _error("bad_config", addon_refused)
        merged = {**s.get("config_next", {}), **changes}
        before = _check_config(table, s["config_next"]) if s.get("config_next") else table.config
        told = config_note.change_words(before, _check_config(table, merged))
        later = table.hand is not None or bool(s.get("choice")) or bool(s.get("seeding"))
        lapsed: list[tuple[Client, str]] = []
        if not later:
            s.pop("config_next", None)
            lapsed = _apply_config(table, merged)
        else:
            now = {k: merged.pop(k) for k in ADDON_FIELDS if k in merged}
            if now:  # (the add-on at once: the hand in play may end the rebuys)
                _apply_config(table, now)
            s["config_next"] = merged
        sends = (_tell_table(table, config_note.note(_host_name(table, client), told, later),
                             by=client.seat, own=config_note.note("You", told, later))
                 if told else [])
        _changed(table)
        table.saving.send_after_commit(sends + lapsed)
    elif op == "hand_over":
        seat = _seat_arg(table, body)
        if table.seats[seat].row.bot is not None:
            raise _error("bad_seat", "a computer player cannot host")
        if s.get("host_seat") == seat:
            return  # (already so: nothing saved or sent)
        _config_taken(table)
        s["host_seat"] = seat
        _refresh_hosts(table)
        _changed(table)
    elif op == "approve_joins":
        on = body.get("on")
        if not isinstance(on, bool):
            raise _error("malformed", "'on' must be true or false")
        if bool(s.get("approve_joins", False)) == on:
            return  # (already so: nothing saved or sent)
        _config_taken(table)
        s["approve_joins"] = on
        _changed(table)
    elif op in ("approve", "reject"):
        seat = _seat_arg(table, body)
        waiting = s.setdefault("waiting", [])
        if seat not in waiting:
            raise _error("not_waiting", f"seat {seat + 1} is not waiting for approval")
        waiting.remove(seat)
        if op == "reject":
            table.seating.release_seat(seat)
            seat_freed(table, seat)
            table.seq += 1
            s["seq"] = table.seq
            table.saving.commit(remove_seats=[seat], session=True)
            table.broadcast()
        else:
            _changed(table, deal=True)
    elif op in host_tools.OPS:  # stacks, rebuys, watchers, the password (issue 27)
        if op == "password":
            if body.get("password") is None and not s.get("password"):
                return  # (no password to remove: nothing saved or sent)
            _config_taken(table)
        host_tools.host_op(table, op, body)
    elif op == "close":  # the night ends (stop 59): after the hand in play, for good
        if body.get("confirm") is True and not night_close.stopped(table):
            control_taken(table)
        night_close.ask(table, _host_name(table, client), body)
    elif op == "bomb_pot":
        on = body.get("on", True)
        if not isinstance(on, bool):
            raise _error("malformed", "'on' must be true (call a bomb pot) or false")
        why = table.config.bomb_pot_refusal() if on else None
        if why is not None:  # (the felt would say "bomb pot next hand" at every hand)
            raise _error("no_bomb_pot", why)
        if bool(s.get("bomb_pot_next", False)) == on:
            return  # (already so: nothing saved or sent)
        _config_taken(table)
        s["bomb_pot_next"] = on
        _changed(table)
    else:
        raise _error("bad_op", f"unknown host action {op!r}; allowed: {', '.join(HOST_OPS)}")


REMOVED_NOW = ("The host has removed you from the table: you are watching now. "
               "Take a free seat to play again.")
REMOVED_AFTER_HAND = ("The host has removed you from the table: the clock plays your "
                      "decisions in this hand, and your seat is freed when it ends.")


REMOVED_KEPT = 64
"""How many removed players' seat cookie digests a table keeps (the newest), to tell
each when back that the host removed them (``session["removed_players"]``): a
host's removal and re-join loop grew the stored session without bound."""


LEFT_NOW = ("You left the table: you are watching now. Your chips stay on the ledger; "
            "sit down again from this browser to play on with them.")
LEFT_AFTER_HAND = ("You left the table: the clock plays your decisions in this hand "
                   "(check, else fold), and your seat is freed when it ends. Your chips "
                   "stay on the ledger.")

LEFT_CLOSING = ("You left the table: you are watching now. Your chips stay on the "
                "ledger, settled up with everyone's when the host's last hand ends.")
LEFT_CLOSING_AFTER_HAND = ("You left the table: the clock plays your decisions in this "
                           "last hand (check, else fold), and your seat is freed when it "
                           "ends. Your chips stay on the ledger and in the settle-up.")
LEFT_CLOSING_FOLDED = ("You left the table: you are watching now, and your seat is freed "
                       "when this last hand ends. Your chips stay on the ledger and in "
                       "the settle-up.")
"""A leave while the host closes the table (s60-table): nobody sits down again (a
player who folded the last hand has no decision left in it for the clock)."""


def gone_words(table: LiveTable) -> str:
    """What a player whose seat was given up after the grace period (R-C-15: every
    page of theirs closed for ``grace_seconds``; a phone asleep) is told when they
    come back (stop 55: they found themselves watching, told nothing)."""
    return (f"Your page was closed for longer than the reconnect grace period "
            f"({table.config.grace_seconds:g} s), so your seat was given up: you are "
            "watching now. Your chips stay on the ledger; sit down again from this "
            "browser to play on with them.")


def _leave(table: LiveTable, seat: int) -> None:
    """The player in ``seat`` leaves the table (the page's **Leave**, ``{"type":
    "leave"}``), as the host's removal does it (:func:`_remove`): freed now, or at
    the end of the hand they are in (their decisions timed out at once, R-C-15);
    their chips stay on the ledger (``departed``) and come back with them when
    they sit down again from the same browser.  Before, a player going home could
    only close the page: the table waited for each of their decisions until the
    reconnect grace (120 s) ran out.

    While the host closes the table (its last hand in play) a player still leaves
    so (s60-table): their chips stay on the ledger and count in the settle-up, as
    any departed player's; once it is closed they are the final ledger's already.

    Raises :class:`TableError` (nothing changes): ``in_tournament`` (an entrant
    with chips, or one who may still rebuy: their chips or rebuy are their entry;
    "No rebuy: I'm out" first)."""
    if table.tourney.holds_entry(seat) or table.tourney.may_rebuy(seat):
        raise _error("in_tournament", "you are in the tournament: your chips stay in play "
                     "(dealt in and blinded off while you are away); a busted entrant "
                     "who may rebuy says \"No rebuy: I'm out\" first")
    _remove(table, seat, left=True)


def _remove(table: LiveTable, seat: int, left: bool = False) -> None:
    """Remove ``seat``'s player, and tell them so (issue 26: they were told nothing):
    an ``error`` message with code ``removed`` to each of the seat's connections
    (``left``: they asked to leave, :func:`_leave`; told so, and not told again as
    removed when back)."""
    from rollem.server.protocol import error_message

    s = table.session
    for key in ("sitting_out", "waiting"):
        if seat in s.get(key, []):
            s[key].remove(seat)
    s.get("seat_changes", {}).pop(str(seat), None)  # (leaving: no move, the seat it held
    info = table.seats[seat]                         # free again; s59-break)
    # (a hand over whose all-in run-out is still shown is not settled yet: freed now,
    # the seat left with its stack from before the hand and the settlement gave its
    # chips to whoever sat there next; s62-hostile)
    in_hand = table.hand_unsettled and table.hand is not None and seat in table.hand.seats
    closing = night_close.stopped(table)
    folded = in_hand and table.hand is not None and bool(table.hand.hand.folded[seat])
    words = (((LEFT_CLOSING_FOLDED if folded else LEFT_CLOSING_AFTER_HAND if in_hand
               else LEFT_CLOSING) if closing
              else LEFT_AFTER_HAND if in_hand else LEFT_NOW) if left
             else REMOVED_AFTER_HAND if in_hand else REMOVED_NOW)
    told = error_message("removed", words)
    table.saving.send_after_commit([(client, told) for client in info.clients])
    # ... and, away now, told when they come back (their seat cookie's digest is
    # kept until they sit down again: :meth:`Seating.connect`, :meth:`Seating.join`)
    digest = info.row.token_digest
    if not left and digest is not None and digest not in s.setdefault("removed_players", []):
        s["removed_players"].append(digest)
        del s["removed_players"][:-REMOVED_KEPT]   # (the newest only)
    if in_hand:
        info.gone = info.removed = True  # decisions time out at once; freed after the hand
        info.left = left
        # kept in the session, so a restart before the hand ends keeps the removal
        # (:meth:`rollem.server.live_table.LiveTable.restore`)
        if seat not in s.setdefault("removed", []):
            s["removed"].append(seat)
        if seat in table.decision_seq:
            table.turns.timeout(seat, table.decision_seq[seat])
        _changed(table)
        return
    table.seating.free_seat(seat)
    table.seq += 1
    s["seq"] = table.seq
    table.saving.commit(session=True)
    table.broadcast()


def _check_choices(table: LiveTable, choices: object) -> None:
    """The host's new dealer's choice games (R-C-12), checked as at creation
    (:func:`rollem.server.config.check_choices`: a list of at least one of the
    table's game ids, each once)."""
    try:
        check_choices(choices, table.config.game_ids())
    except ConfigError as err:
        raise _error("bad_config", str(err)) from None


def _check_config(table: LiveTable, changes: dict[str, Any]) -> TableConfig:
    try:
        # the game file is not among CONFIG_FIELDS: the stored one, read as accepted
        config = parse_config({**table.config.to_dict(), **changes}, strict=False)
    except ConfigError as err:  # the form's labels, not the API's field names (stop 54;
        # the Change has no Seats field: a game dealing fewer is "pick another game")
        raise _error("bad_config", form_refusal(err, seats_field=False)) from None
    unused = config.unused_option()  # (on in the settings, never in a hand)
    if unused is not None:
        raise _error("bad_config", form_words(unused))
    return config


def _host_name(table: LiveTable, client: Client) -> str:
    """The host's name as the table knows it (a host not seated: "The host")."""
    info = table.seats.get(client.seat) if client.seat is not None else None
    return info.row.name if info is not None else "The host"


def _tell_table(table: LiveTable, text: str, *, by: int | None = None,
                own: str | None = None) -> list[tuple[Client, str]]:
    """Tell everyone at the table ``text`` (stop 55: a host's change of the settings):
    the table's line of the chat and ``host_note`` (each page's toast), both stored
    with the session by the caller's :func:`_changed`, whose state carries the note
    (its ``seq`` is that state's); returns the chat line's sends, for the caller to
    queue after that commit. Watchers still waiting at a private table are not told.
    ``by`` (the host's seat) and ``own`` (the words for that seat's own pages, "You
    changed ...", s73-night: the host's page said "Ann changed ..." of herself) go
    with both when given; each page shows ``own`` where it is ``by``'s."""
    from rollem.server.live_table import _dumps

    mine = {"by": by, "own": own} if by is not None and own is not None else {}
    entry = chat_log(table).notice(text, table.clock())
    entry.update(mine)
    table.session["chat"] = chat_log(table).lines
    table.session["host_note"] = {"seq": table.seq + 1, "text": text, **mine}
    line = _dumps({"type": "chat", "lines": [entry]})
    return [(c, line) for c in table.all_clients() if host_tools.view_kind(table, c) != "locked"]


def _apply_config(table: LiveTable, changes: dict[str, Any]) -> list[tuple[Client, str]]:
    """Apply the host's setting ``changes`` (checked); returns the messages of the
    top-up requests a new big bet lapsed (:func:`host_tools.lapse_top_ups`, s60-table),
    for the caller to queue after its commit."""
    table.config = _check_config(table, changes)
    overrides = table.session.setdefault("config_overrides", {})
    overrides.update(changes)
    if table.config.bomb_pot_refusal() is not None:  # (a called one would never come)
        table.session.pop("bomb_pot_next", None)
    return host_tools.lapse_top_ups(table)


def _chat(table: LiveTable, client: Client, text: object) -> None:
    from rollem.server.live_table import _dumps

    seat = client.seat
    if seat is None or seat not in table.seats:
        raise _error("not_seated", "watchers can read the chat; take a seat to write")
    if host_tools.view_kind(table, client) == "locked":  # (a private table's newcomer)
        raise _error("not_approved", "the host has not let you in yet: you can write in the "
                     "chat once they do")
    try:
        entry = chat_log(table).add(seat, table.seats[seat].row.name, text)
    except ChatError as err:
        raise _error(err.code, err.message) from None
    table.session["chat"] = chat_log(table).lines
    table.saving.commit(session=True)
    text_out = _dumps({"type": "chat", "lines": [entry]})
    table.saving.send_after_commit([(c, text_out) for c in table.all_clients()
                                    if host_tools.view_kind(table, c) != "locked"])


def _show(table: LiveTable, seat: int, msg: ClientMessage) -> None:
    """Show by choice after the hand (R-C-11), through the engine's ``show`` action."""
    from rollem.server.game_session import ActionRefused

    hand = table.final_hand if table.hand is None else None
    if hand is None or msg.hand != hand.hand_no:
        raise _error("no_hand", "cards can be shown only after the hand, until the next deal")
    if not table.views.dealt_in_hand(seat, hand):
        # (an occupant who sat down after the deal shows nothing of the one before)
        raise _error("not_dealt", f"seat {seat + 1} was not dealt into hand {hand.hand_no}")
    cards = msg.body.get("cards")
    try:
        applied = hand.apply(seat, {"kind": "show", "cards": cards})
    except ActionRefused as err:
        raise _error(err.code, err.message) from None
    table.seq += 1
    table.session["seq"] = table.seq
    table.saving.write(session=table.session,
                       action=(hand.hand_no, applied.index, seat, applied.record, "player",
                               applied.events))
    table.broadcast()
