"""A choice made all at once is told back to its maker, and to nobody else, until
all have chosen (docs/dev/hostile.md, "A choice made all at once is not shown back
to its maker"; R-521-6, R-RYO-2, R-RYO-3).

Each hand is played with seeded deals, every bet called or checked; at each
all-at-once step the first seat to choose is checked: its own view's label says
what it chose ("you declared low", "you threw 9c 4d 2h"), its hand's name in 5-2-1
is named for its own declaration, and every other seat's view and the watcher's
say only "has declared" / "chose discards" and hold nothing of the choice.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rollem.engine import Hand, SeededSource
from rollem.server.game_session import GameSession, random_wire_action

NAMES = ["Ann", "Bob", "Cat", "Dan"]

HIDDEN = {"discard": "chose discards", "expose": "chose a card", "stack": "has stacked",
          "declare": "has declared"}


def _own_words(wire: dict[str, Any]) -> str:
    """The maker's label for its choice, written out from the wire action."""
    kind = wire["kind"]
    if kind == "declare":
        return f"you declared {wire['side']}"
    if kind == "discard":
        return "you threw " + " ".join(wire["cards"])
    if kind == "expose":
        return f"you turn up {wire['card']}"
    return "you stacked " + " ".join(wire["cards"])


def _secret(wire: dict[str, Any]) -> list[str]:
    """What another seat's view must not hold of the choice (as the JSON writes it)."""
    if wire["kind"] == "declare":
        return [f'"side":"{wire["side"]}"', _own_words(wire), f"decl {wire['side']}"]
    cards = list(wire["cards"]) if "cards" in wire else [wire["card"]]
    # (a lone card may be seen elsewhere, face up in the pool: its name alone is no leak)
    joined = [" ".join(cards)] if len(cards) > 1 else []
    code = {"discard": "dis", "expose": "exp", "stack": "stack"}[wire["kind"]]
    return [*joined, _own_words(wire), f"{code} {' '.join(cards)}"]


def _play(game: str, players: int, seed: int) -> set[str]:
    """Play one hand; check each all-at-once choice's first maker. Returns the kinds checked."""
    rng = random.Random(seed)
    hand = Hand(game, [200] * players, button=0, source=SeededSource(seed))
    session = GameSession(1, {"game": game, "seats": list(range(players))}, hand)
    names = NAMES[:players]
    checked: set[str] = set()
    while not session.over:
        seat = session.pending_seats()[0]
        legal = session.view(seat)["legal"]
        if {"call", "check"} & set(legal["actions"]):
            wire: dict[str, Any] = {"kind": "call" if "call" in legal["actions"] else "check"}
        else:
            wire = random_wire_action(legal, rng)
        together = wire["kind"] in HIDDEN and len(session.pending_seats()) > 1
        session.apply(seat, wire)
        if not together:
            continue
        kind = wire["kind"]
        checked.add(kind)
        own = session.view(seat, names)
        assert own["last_actions"][str(seat)]["text"] == _own_words(wire), (game, seed, wire)
        if kind == "declare" and wire["side"] != "both":
            # one half named, not "high: ...; low: ..." as before the declaration
            assert own["hand_name"] and "high:" not in own["hand_name"], own["hand_name"]
        for other in [None, *(s for s in range(players) if s != seat)]:
            view = session.view(other, names)
            assert view["last_actions"][str(seat)]["text"] == HIDDEN[kind], (other, wire)
            text = json.dumps(view, separators=(",", ":")) + session.view_json(other, names)
            for secret in _secret(wire):
                assert secret not in text, (game, seed, other, secret)
            mine = [e for e in view["events"] if e["kind"] == "chose" and e["seat"] == seat]
            assert mine and all("action" not in e for e in mine), (other, mine)
    return checked


@pytest.mark.parametrize(("game", "want"), [("rollem521", {"declare", "stack"}),
                                            ("rollyourown", {"discard", "expose"})])
def test_own_hidden_choice_is_told_to_its_maker_only(game: str, want: set[str]) -> None:
    checked: set[str] = set()
    for seed in (1, 2, 3):
        checked |= _play(game, 3, seed)
    assert want <= checked, want - checked
