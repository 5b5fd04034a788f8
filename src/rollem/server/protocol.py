"""The websocket message protocol of the web table.

Client to server, one JSON object per text frame, at most
:data:`MAX_MESSAGE_BYTES` bytes:

- ``{"type": "action", "hand": H, "seq": S, "action": {...}}`` -- a decision
  in hand number ``H``; ``S`` is the table sequence number the client last
  saw.  It must be at least the number at which this seat's decision was
  offered (older: stale) and at most the current one (newer: invalid). It
  may say ``"seat": N``, which must be the sender's own seat (``wrong_seat``).
- ``{"type": "choose_game", "hand": H, "seq": S, "game": "sdr"}`` -- the
  button names the game in dealer's choice (R-C-12).
- ``{"type": "start", "seq": S}`` -- the host deals the first hand.
- ``{"type": "rebuy", "seq": S}`` -- a seat with no chips buys the starting stack again;
  with ``"decline": true`` a busted tournament entrant takes no rebuy and is out.
- ``{"type": "addon", "take": bool}`` -- a tournament entrant still in takes
  (``true``) or declines (``false``) the add-on, once, while its window is open
  (stop 60: the break after the last rebuy level; :meth:`Tourney.addon`).
- ``{"type": "top_up"}`` -- between hands, a seat with chips but fewer than the
  buy-in brings its stack up to the buy-in (stop 58; the rebuy rules apply: host
  approval, the cap; refused in a tournament, during a hand the seat is in, at
  or above the buy-in, at 0 chips: that is a rebuy).
- ``{"type": "seat_change", "seat": N}`` -- a seated player moves to the empty seat
  ``N`` (0-based; ``null``: takes back a move waiting for the hand's end): at once
  between hands, else when the hand they are in ends (stop 59,
  :mod:`rollem.server.seat_moves`).
- ``{"type": "odds", "hand": H, "seq": S}`` -- a player at a practice table
  (``practice_odds``) asks for its own odds in hand ``H`` (issue 8); the
  answer goes to that client only: ``odds``, or an error -- among them
  ``too_costly`` (over the budget of CPU time), ``cancelled`` (the hand
  moved on first), ``busy`` (the seat's earlier request is still being
  computed), ``no_odds`` (the game has none; issue 34).
- ``{"type": "host", "op": ...}``, ``{"type": "sit_out", "out": bool}``,
  ``{"type": "show", "hand": H, "cards": [...]}`` and ``{"type": "chat",
  "text": "..."}`` -- host controls, sitting out, showing by choice after
  the hand and chat (:mod:`rollem.server.host`).
- ``{"type": "host", "op": "adjust_stack" | "approve_rebuy" | "decline_rebuy" |
  "approve_watcher" | "reject_watcher" | "password", ...}`` -- the host's tools
  (issue 27, :mod:`rollem.server.host_tools`): ``seat`` and ``stack`` (whole
  chips), ``seat``, ``watcher`` (a watch request's number; ``"all"`` to turn
  away every waiting request at once), ``password`` (text of 4 to 128
  characters, or ``null``).
- ``{"type": "host", "op": "end_break"}`` -- the host ends a tournament's break
  early ("Resume now"; refused ``no_break`` when none runs, stop 59).
- ``{"type": "host", "op": "close", "confirm": true}`` -- the host closes the table
  for good once the hand in play ends (stop 59, :mod:`rollem.server.night_close`);
  a player may still ``leave`` while that last hand plays, and the host still
  answers watch requests once it is closed (s60-table).
- ``{"type": "straddle", "on": bool}`` -- a seated player chooses to straddle
  (issue 27): honoured at every deal while on, when the table's ``straddle``
  setting lets that seat straddle in that hand (:mod:`rollem.server.host`).
- ``{"type": "client_seed", "hand": H, "seed": "..."}`` -- the sender's
  client seed for the committed deal of hand ``H`` (issue 32,
  docs/verify.md): 0 to 64 characters of ``A-Z a-z 0-9 _ -``, the message
  at most :data:`MAX_SEED_MESSAGE_BYTES` bytes.  Taken only while the
  table's ``deal`` (in ``state``) announces hand ``H``'s commitment and
  waits for seeds: after the commitment, before the deal; once a seat a
  hand.  Refused (state unchanged): ``too_large``, ``malformed`` (not a
  seed), ``too_late`` (the hand is dealt), ``wrong_hand``, ``not_dealt_in``,
  ``already_sent``.  A seat that sends none within the wait
  (``LiveTable.CLIENT_SEED_WAIT``, 2 s from the moment the commitment goes
  out) and every computer player has the
  empty seed.  Nothing is answered when it is taken; the hand's state shows
  every seat's seed once dealt (``hand.deal``).
- ``{"type": "deal", "op": "propose"|"agree"|"decline", "method": "icm"|"chip_chop"}``
  -- a tournament's final players propose, agree or decline a deal (issue 28;
  ``method`` with ``propose`` only; ``offer``, with ``agree`` or ``decline``: the
  shares the player saw, seat -> prize, refused ``offer_changed`` if the open
  proposal's are not those).
- ``{"type": "leave"}`` -- a seated player leaves the table (their seat freed now, or
  when the hand they are in ends; their chips stay on the ledger).
- ``{"type": "sync"}`` -- ask for the full state again.
- ``{"type": "ping"}`` -- keep-alive; always answered with ``pong`` (the table
  page sends one every 5 s and after each action, and reconnects when no
  answer comes within 4 s).

A message, or an action object, with a field its type does not take
(:data:`FIELDS`, :data:`HOST_FIELDS`, :data:`ACTION_FIELDS`; a bet or raise
with both ``amount`` and ``to``, :data:`ONE_OF`) is refused as
``unknown_field``, naming the field and the fields allowed: a mistyped or
stray field is never silently ignored.

Server to client: ``state`` (the full state this seat may see, with the
current ``seq``; ``table.paused`` is ``null``, or the plain words telling the
players that saving has failed and play is paused until it works again;
``table.deal`` is ``null``, or the deal waiting for client seeds: ``hand``,
``commitment``, ``players``, ``seeded``, ``until`` (and ``pick``, the games
offered, when the game is picked at random); a hand dealt from a committed
deck has ``hand.deal``: ``commitment``, ``prev_hash``, ``client_seeds`` (seat
-> seed), ``hand_hash`` (and ``pick_games``, ``pick_salt`` for a game picked
at random: the salt is in no state before the deal); issue 32),
``hand`` is the seat's view of the hand, :meth:`rollem.engine.views.HandView.to_dict`,
with the felt's words, issue 26, :meth:`rollem.server.game_session.GameSession.view`:
``hand.hand_name``, the seat's own hand so far as ``rollem eval`` names it, e.g.
``"pair of kings, ace-ten-deuce"``, ``"high: ...; low: ..."`` in high-low games,
``"three queens, nine-deuce (fives wild)"`` once the wild rank is known, ``null``
for a watcher or once the seat has folded (a dead hand, R-C-11); ``hand.log``, the
hand so far in players' words, newest last, a list of
``{"seat": int|null, "text": str, "kind": str}``, the same sentences as
``rollem replay``, cards as short text such as ``Qh``, ending with the result
once the hand is over; ``hand.last_actions``, each seat's latest action this
hand, keyed by seat number as text, ``{"kind": str, "text": str}``, e.g.
``{"3": {"kind": "raise", "text": "raises to 9"}}``; the kinds are
:data:`rollem.narration.felt.ACTION_KINDS`; ``hand.names``, one per seat, the
name of the player dealt in there as dealt (``null`` for a seat not dealt in: the
felt names a seat by it after its player has gone);
``you.next_hand`` is ``null``, or the plain words telling a player with chips
who is not in the hand being played why, e.g. "You bought chips again during
this hand: you are dealt in from the next one.",
:func:`rollem.server.live_table.views.next_hand_notice`),
a watcher a private table (or one with a password) has not let in gets a
``state`` whose ``table`` is only ``{"id", "name", "locked": true, "private",
"has_password", "now"}`` and whose ``hand`` is ``null``; with the watcher delay a
watcher's ``table.hand_in_play`` says a hand is being played while ``hand`` is
the last one that ended (issue 27, :mod:`rollem.server.host_tools`),
``error`` (``code`` and ``message``, to that client only; nothing changes; code
``removed`` tells a player the host removed them from the table, issue 26),
``pong``, ``odds`` (``{"type": "odds", "hand": H, "seq": S, "odds": {...}}``:
the asking seat's odds from its own view at table sequence ``S``,
:meth:`rollem.odds.Odds.to_dict`; to that client only), ``chat``
(``{"type": "chat", "lines": [...]}``: the kept lines when a client connects,
then each new line; :mod:`rollem.server.chat`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from rollem.engine.commit_reveal import ProofError, check_client_seed

__all__ = [
    "ACTION_FIELDS",
    "FIELDS",
    "HOST_FIELDS",
    "MAX_JSON_DEPTH",
    "MAX_MESSAGE_BYTES",
    "MAX_SEED_MESSAGE_BYTES",
    "ONE_OF",
    "ClientMessage",
    "DuplicateKeyError",
    "ProtocolError",
    "deeper_than",
    "json_depth",
    "loads_once_keyed",
    "parse_message",
    "utf8_text",
]

MAX_MESSAGE_BYTES = 4096
"""Largest client message accepted (bytes of UTF-8 text)."""

MAX_SEED_MESSAGE_BYTES = 200
"""Largest ``client_seed`` message accepted (bytes): a 64-character seed and
the hand number fit with room to spare (issue 32)."""

MAX_JSON_DEPTH = 16
"""Deepest nesting of arrays and objects accepted in client JSON (messages and
request bodies): a legal message nests 3 deep; deeper is refused as
``malformed`` before parsing (a 4 KiB message of brackets would otherwise
exhaust the parser's recursion)."""

TYPES = ("action", "choose_game", "start", "rebuy", "odds", "sync", "ping", "host", "sit_out",
         "show", "chat", "straddle", "client_seed", "deal", "leave", "top_up", "seat_change",
         "addon")
NEEDS_HAND = ("action", "choose_game", "odds", "show", "client_seed")
NEEDS_SEQ = ("action", "choose_game", "start", "rebuy", "odds")

FIELDS: dict[str, tuple[str, ...]] = {
    "action": ("hand", "seq", "action", "seat"),
    "choose_game": ("hand", "seq", "game"),
    "start": ("seq",),
    "rebuy": ("seq", "decline"),
    "odds": ("hand", "seq"),
    "sync": (),
    "ping": (),
    "host": ("op", "seat", "on", "config", "stack", "watcher", "password", "after_hand",
             "confirm"),
    "sit_out": ("out",),
    "show": ("hand", "cards"),
    "chat": ("text",),
    "straddle": ("on",),
    "client_seed": ("hand", "seed"),
    "deal": ("op", "method", "offer"),
    "leave": (),
    "top_up": (),
    "seat_change": ("seat",),
    "addon": ("take",),
}
"""The fields each message type may carry besides ``type``; any other field is
refused (``unknown_field``), so a mistyped or stray field is never silently
ignored. An action's ``seat`` is optional and must be the sender's own."""

HOST_FIELDS: dict[str, tuple[str, ...]] = {
    "pause": ("after_hand",), "resume": (), "deal_now": (), "end_break": (),
    "remove": ("seat",),
    "hand_over": ("seat",),
    "approve": ("seat",), "reject": ("seat",), "config": ("config",),
    "approve_joins": ("on",), "bomb_pot": ("on",), "close": ("confirm",),
    "adjust_stack": ("seat", "stack"), "approve_rebuy": ("seat",), "decline_rebuy": ("seat",),
    "approve_watcher": ("watcher",), "reject_watcher": ("watcher",), "password": ("password",),
}
"""A ``host`` message's fields besides ``type`` and ``op``, by ``op``
(:data:`rollem.server.host.HOST_OPS`)."""

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "fold": (), "check": (), "call": (), "bet": ("amount", "to"), "raise": ("to", "amount"),
    "discard": ("cards",), "expose": ("card",), "draw": ("cards",), "wild": ("position",),
    "stack": ("cards",), "show": ("cards",), "declare": ("side",), "run_twice": ("agree",),
}
"""An action object's fields besides ``kind``, by ``kind``
(:func:`rollem.server.game_session.action_from_wire`; a bet may say ``to``
for ``amount``, a raise ``amount`` for ``to``, never both: :data:`ONE_OF`)."""

ONE_OF: dict[str, tuple[str, ...]] = {"bet": ("amount", "to"), "raise": ("to", "amount")}
"""The fields of which an action carries at most one, by ``kind`` (each says the
same thing): both are refused (code ``unknown_field``; "give only one of 'to'
or 'amount', not both"), neither silently ignored."""


def _only(obj: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Refuse a field of ``obj`` not in ``allowed`` (``unknown_field``, naming it
    and the fields allowed)."""
    for key in obj:
        if key not in allowed:
            raise ProtocolError("unknown_field", f"{what}: unknown field {key!r}; allowed: "
                                f"{', '.join(allowed)}")


class ProtocolError(ValueError):
    """A message refused before it reaches the table: ``code`` names why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class DuplicateKeyError(ValueError):
    """A JSON object that gives one key twice (:func:`loads_once_keyed`); ``key`` is
    that key, ``message`` names it (cut to :data:`SHOWN_KEY` characters)."""

    def __init__(self, key: str) -> None:
        shown = repr(key[:SHOWN_KEY]) + ("..." if len(key) > SHOWN_KEY else "")
        self.key = key
        self.message = f"the key {shown} is given twice in one JSON object; give each key once"
        super().__init__(self.message)


SHOWN_KEY = 40
"""Most characters of a repeated key a refusal quotes."""


def _once_keyed(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' ``object_pairs_hook``: the object, or :class:`DuplicateKeyError`
    on a key given twice (``{"name": "a", "name": "b"}``, ``"\\u0061"`` and ``"a"`` alike)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return obj


def utf8_text(data: bytes, refusal: Exception) -> str:
    """``data`` read as UTF-8, else ``refusal`` raised (s72-hostile).  ``json.loads``
    of bytes also takes UTF-16 and UTF-32 (RFC 8259 allows only UTF-8 between
    systems), where :func:`json_depth`, which reads the bytes, does not see every
    bracket: a character whose UTF-16 holds the byte of ``"`` (U+2200, ``00 22``)
    opens a string to its eyes that hides the brackets after it, and 900 levels
    passed the limit of 16.  Text is read once, here, and every check after sees
    what the parser sees."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise refusal from None


def loads_once_keyed(text: str | bytes) -> Any:
    """``json.loads(text)``, refusing an object (at any depth) that gives a key twice:
    every JSON a client sends is read by it (websocket messages, HTTP request bodies),
    so no key is silently overridden by a later one (JSON parsers keep the last).

    Raises:
        DuplicateKeyError: an object gives a key twice (a ``ValueError``: catch it
            first).
        ValueError, UnicodeDecodeError, RecursionError: as ``json.loads``.
    """
    return json.loads(text, object_pairs_hook=_once_keyed)


@dataclass(slots=True, frozen=True)
class ClientMessage:
    type: str
    hand: int | None
    seq: int | None
    body: dict[str, Any]


def _int_field(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProtocolError("malformed", f"{key!r} must be a whole number >= 0, not {value!r}")
    return value


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.DOTALL)
"""A JSON string literal (one left open runs to the end of the text)."""

_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_OPEN_CLOSE = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


def json_depth(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text (brackets inside strings
    do not count); linear time, no recursion, no Python loop over the bytes (the
    strings are cut out by a regular expression, the running depth is summed by
    numpy: a flood of 4 KiB bracket messages costs little)."""
    data = text.encode() if isinstance(text, str) else text
    brackets = _STRING.sub(b"", data).translate(_OPEN_CLOSE, _NOT_BRACKETS)
    if not brackets:
        return 0
    import numpy as np

    # +1 for an opening bracket, -1 for a closing one; the depth is the highest sum.
    steps = np.frombuffer(brackets, dtype=np.uint8).astype(np.int32) - 1
    return max(0, int(steps.cumsum().max()))


def deeper_than(text: str | bytes, limit: int) -> bool:
    """Whether ``text`` nests deeper than ``limit`` (:func:`json_depth`); text with at
    most ``limit`` brackets in all, the usual case, is answered without a scan."""
    data = text.encode() if isinstance(text, str) else text
    return data.count(b"[") + data.count(b"{") > limit and json_depth(data) > limit


def parse_message(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> ClientMessage:
    """Check the shape of one client message; raise :class:`ProtocolError` if wrong.

    Codes: ``too_large``, ``malformed`` (not JSON, bytes not in UTF-8, not an object, nested deeper
    than ``max_depth``, a key given twice in one object, a field of the wrong
    type), ``unknown_type``, ``unknown_field`` (a field the type does not take: :data:`FIELDS`,
    :data:`HOST_FIELDS`, :data:`ACTION_FIELDS`, :data:`ONE_OF`).
    """
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large", f"message of {size} bytes; at most {MAX_MESSAGE_BYTES} allowed"
        )
    if isinstance(text, bytes):
        text = utf8_text(text, ProtocolError("malformed", "a message must be JSON text in UTF-8"))
    if deeper_than(text, max_depth):
        raise ProtocolError("malformed", f"JSON nested more than {max_depth} deep")
    try:
        obj = loads_once_keyed(text)
    except DuplicateKeyError as err:
        raise ProtocolError("malformed", err.message) from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("malformed", "not valid JSON") from None
    if not isinstance(obj, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    kind = obj.get("type")
    if kind not in TYPES:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r}; allowed: {', '.join(TYPES)}"
        )
    _only(obj, ("type", *FIELDS[kind]), f"{kind!r} message")
    op = obj.get("op")
    if kind == "host" and isinstance(op, str) and op in HOST_FIELDS:
        _only(obj, ("type", "op", *HOST_FIELDS[op]), f"'host' message with op {op!r}")
    hand = _int_field(obj, "hand") if kind in NEEDS_HAND else None
    seq = _int_field(obj, "seq") if kind in NEEDS_SEQ else None
    if kind == "action" and not isinstance(obj.get("action"), dict):
        raise ProtocolError("malformed", "'action' must be an object such as {\"kind\": \"call\"}")
    if kind == "action":
        if "seat" in obj:
            _int_field(obj, "seat")
        act = obj["action"].get("kind")
        if isinstance(act, str) and act in ACTION_FIELDS:
            _only(obj["action"], ("kind", *ACTION_FIELDS[act]), f"{act!r} action")
            given = [key for key in ONE_OF.get(act, ()) if key in obj["action"]]
            if len(given) > 1:
                first, second = ONE_OF[act]
                raise ProtocolError(
                    "unknown_field", f"{act!r} action: give only one of {first!r} or "
                    f"{second!r}, not both")
    if kind == "client_seed":
        if size > MAX_SEED_MESSAGE_BYTES:
            raise ProtocolError("too_large", f"a client_seed message of {size} bytes; at most "
                                f"{MAX_SEED_MESSAGE_BYTES} allowed")
        try:
            check_client_seed(obj.get("seed"))
        except ProofError as err:
            raise ProtocolError("malformed", str(err)) from None
    if kind == "rebuy" and not isinstance(obj.get("decline", False), bool):
        raise ProtocolError("malformed", "'decline' must be true or false")
    if kind == "choose_game" and not isinstance(obj.get("game"), str):
        raise ProtocolError("malformed", "'game' must be a game id such as \"sdr\"")
    return ClientMessage(kind, hand, seq, obj)


def error_message(code: str, message: str, ref: object = None) -> str:
    """The JSON text of an ``error`` message to one client."""
    return json.dumps({"type": "error", "code": code, "message": message, "ref": ref})
