"""Client messages with fields their type does not take are refused
(``unknown_field``), never silently ignored (rollem.server.protocol)."""

from __future__ import annotations

import json

import pytest

from rollem.server.game_session import ActionRefused, action_from_wire, action_to_wire
from rollem.server.host import HOST_OPS
from rollem.server.protocol import (
    ACTION_FIELDS,
    FIELDS,
    HOST_FIELDS,
    TYPES,
    ProtocolError,
    parse_message,
)

CALL = {"type": "action", "hand": 3, "seq": 17, "action": {"kind": "call"}}


@pytest.mark.parametrize(("message", "said"), [
    ({**CALL, "seet": 1},
     "'action' message: unknown field 'seet'; allowed: type, hand, seq, action, seat"),
    ({"type": "ping", "seat": 1}, "'ping' message: unknown field 'seat'; allowed: type"),
    ({"type": "start", "seq": 1, "hand": 2},
     "'start' message: unknown field 'hand'; allowed: type, seq"),
    ({"type": "chat", "text": "hi", "to": 2},
     "'chat' message: unknown field 'to'; allowed: type, text"),
    ({"type": "host", "op": "pause", "seat": 1},
     "'host' message with op 'pause': unknown field 'seat'; allowed: type, op, after_hand"),
    ({**CALL, "action": {"kind": "call", "to": 5}},
     "'call' action: unknown field 'to'; allowed: kind"),
    ({**CALL, "action": {"kind": "raise", "to": 8, "seat": 0}},
     "'raise' action: unknown field 'seat'; allowed: kind, to, amount"),
    # Before: both accepted, the raise went to 4 and 'amount' was never looked at.
    # (Earlier wording, "unknown field 'amount' beside 'to'", called a field a raise
    # takes unknown.)
    ({**CALL, "action": {"kind": "raise", "to": 4, "amount": 150}},
     "'raise' action: give only one of 'to' or 'amount', not both"),
    ({**CALL, "action": {"kind": "raise", "amount": 150, "to": 4}},
     "'raise' action: give only one of 'to' or 'amount', not both"),
    ({**CALL, "action": {"kind": "bet", "amount": 2, "to": "x"}},
     "'bet' action: give only one of 'amount' or 'to', not both"),
])
def test_an_unknown_field_is_refused_naming_it(message: dict[str, object], said: str) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_message(json.dumps(message))
    assert (err.value.code, err.value.message) == ("unknown_field", said)


def test_the_engine_side_refuses_both_chips_fields_too() -> None:
    from rollem.server.game_session import ActionRefused

    for wire, said in (({"kind": "raise", "to": 4, "amount": 150},
                        "give only one of 'to' or 'amount', not both"),
                       ({"kind": "bet", "to": 4, "amount": 4},
                        "give only one of 'amount' or 'to', not both")):
        with pytest.raises(ActionRefused) as err:
            action_from_wire(wire)
        assert (err.value.code, err.value.message) == ("malformed", said)
    assert action_from_wire({"kind": "raise", "amount": 6}) == action_from_wire(
        {"kind": "raise", "to": 6})


def test_a_bad_pool_position_is_not_called_chips() -> None:
    # Before: {"kind": "wild", "position": -1} was refused as "'position' must be
    # whole chips, not -1" (R-RYO-7: the wild pick names a pool card by position).
    for bad in (-1, 1.5, "2", True, None):
        with pytest.raises(ActionRefused) as err:
            action_from_wire({"kind": "wild", "position": bad})
        assert (err.value.code, err.value.message) == (
            "malformed", "'position' must be a pool position, a whole number >= 0 (0: the "
            f"first card left), not {bad!r}")
    with pytest.raises(ActionRefused) as err:
        action_from_wire({"kind": "bet", "amount": -1})
    assert err.value.message == "'amount' must be whole chips, not -1"


def test_an_action_may_name_its_own_seat_as_a_whole_number() -> None:
    # "seat" is the protocol's own optional field (the table refuses another
    # seat's: wrong_seat); a bool is not a seat (True == 1 in Python).
    assert parse_message(json.dumps({**CALL, "seat": 1})).body["seat"] == 1
    with pytest.raises(ProtocolError) as err:
        parse_message(json.dumps({**CALL, "seat": True}))
    assert (err.value.code, err.value.message) == (
        "malformed", "'seat' must be a whole number >= 0, not True")


def test_a_rebuy_may_be_declined_with_true_or_false() -> None:
    # stop 53: a busted tournament entrant's "No rebuy: I'm out" (main: unknown_field)
    said = parse_message(json.dumps({"type": "rebuy", "seq": 4, "decline": True}))
    assert (said.type, said.seq, said.body["decline"]) == ("rebuy", 4, True)
    with pytest.raises(ProtocolError) as err:
        parse_message(json.dumps({"type": "rebuy", "seq": 4, "decline": "yes"}))
    assert (err.value.code, err.value.message) == (
        "malformed", "'decline' must be true or false")


def test_the_field_tables_cover_every_type_op_and_action() -> None:
    assert set(FIELDS) == set(TYPES)
    assert set(HOST_FIELDS) == set(HOST_OPS)
    for wire in ({"kind": "fold"}, {"kind": "bet", "amount": 4}, {"kind": "bet", "to": 4},
                 {"kind": "raise", "to": 8}, {"kind": "wild", "position": 2},
                 {"kind": "discard", "cards": ["Qs", "7d", "2c"]},
                 {"kind": "expose", "card": "Kc"}, {"kind": "declare", "side": "low"}):
        message = json.dumps({**CALL, "action": wire})
        assert parse_message(message).body["action"] == wire
        # What the server itself writes passes too.
        assert set(action_to_wire(action_from_wire(wire))) <= {
            "kind", *ACTION_FIELDS[str(wire["kind"])]}


def test_the_hand_fields_the_protocol_names_are_in_every_viewers_state() -> None:
    """The felt's words (issue 26) are protocol: each ``hand.X`` the module doc names
    is in the hand view sent to a seat and to a watcher."""
    import re

    from rollem.engine import Hand, SeededSource
    from rollem.server import protocol
    from rollem.server.game_session import GameSession

    named = set(re.findall(r"``hand\.(\w+)``", protocol.__doc__ or ""))
    assert {"hand_name", "log", "last_actions"} <= named
    session = GameSession(1, {"game": "holdem", "seats": [0, 1, 2]},
                          Hand("holdem", [100] * 3, button=0, source=SeededSource(4)))
    for viewer in (None, 0):
        view = json.loads(session.view_json(viewer, ["Ann", "Bob", "Cat"]))
        assert named <= set(view), named - set(view)
