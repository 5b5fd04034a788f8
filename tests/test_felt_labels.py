"""Each seat's label (the hand view's ``last_actions``) and the hand log say what
each player just did, in players' words, in every shipped game at 2, 6 and 10
seats (issue 26: "checks", "raises to 9", "draws 2", "puts 3 in the pool",
"turns up 9h", "rolls up Kh", "declares low"; never the engine's "round",
"choose", "stacked", "return").

Server-side (the felt draws these words as sent, tests/web/test_felt_browser.py):
each hand is played with seeded deals and a seeded mix of calls, raises and the
other decisions; after every decision the label of each seat that acted is what
the action says here, written out independently of :mod:`rollem.narration.felt`.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from rollem import games
from rollem.cards import RANK_PLURALS, RANKS
from rollem.engine import Hand, SeededSource
from rollem.server.game_session import GameSession, random_wire_action

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon"]

NOT_ACTIONS = frozenset({"ante", "deal_hole", "deal_up", "draw_deal", "return", "win",
                         "carry", "failed_both", "dead", "board", "burn", "round",
                         "reshuffle"})
"""Seat events that are no player's decision (antes, deals, chips paid back or won, a
round's opener, the discards reshuffled for a draw): no label."""

ENGINE_WORDS = re.compile(r"\b(round|choose|pool_draw|draw_deal|return|end|"
                          r"None|undefined)\b|_")

CHOSE = {"discard": "chose discards", "expose": "chose a card", "stack": "has stacked",
         "declare": "has declared"}
"""A choice made while the others choose, kept hidden until all have: a few words
that fit a seat's label (no more than 14 characters)."""

OWN = {"discard": "you threw ", "expose": "you turn up ", "stack": "you stacked ",
       "declare": "you declared "}
"""How the maker's own label of such a choice begins: it names what was chosen."""


class Oracle:
    """What a seat's label says after each of its actions, from the watcher's events."""

    def __init__(self) -> None:
        self.completing = False   # a bring-in round, not yet completed (stud)
        self.draws: dict[int, list[int]] = {}

    def said(self, e: dict[str, Any]) -> str | None:
        kind, seat = e["kind"], e.get("seat")
        if kind == "round":  # a round after a bring-in: its first full bet completes it
            self.completing = bool(e.get("to_complete"))
        if seat is None or kind in NOT_ACTIONS:
            return None
        text = self._words(e)
        return f"{text}, all-in" if e.get("all_in") else text

    def _words(self, e: dict[str, Any]) -> str:
        kind, seat = e["kind"], int(e["seat"])
        if kind in ("bet", "raise"):
            if e.get("bring_in"):
                self.completing = True
                return f"brings it in for {e['to']}"
            if self.completing:
                self.completing = False
                return f"completes to {e['to']}"
            return f"bets {e['to']}" if kind == "bet" else f"raises to {e['to']}"
        if kind == "draw":
            n = int(e["count"])
            counts = self.draws.setdefault(seat, [])
            counts.append(n)
            if len(counts) == 1:
                return f"draws {n}" if n else "stands pat"
            if not any(counts):
                return "stood pat twice" if len(counts) == 2 else f"stood pat {len(counts)} times"
            first = f"drew {counts[0]}" if counts[0] else "stood pat"
            rest = ["then stood pat" if not k else f"then {k}" if counts[0] else f"then drew {k}"
                    for k in counts[1:]]
            return ", ".join([first, *rest])
        if kind == "wild":
            return f"picks {e['card']}: {RANK_PLURALS[RANKS.index(e['rank'])]} wild"
        words = {
            "check": "checks", "call": f"calls {e.get('amount')}", "fold": "folds",
            "blind": f"{e.get('blind')} {e.get('amount')}",   # "small blind 1"
            "discard": f"puts {e.get('count')} in the pool", "expose": f"turns up {e.get('card')}",
            "pool_draw": "draws from the pool", "stacked": "stacks the cards",
            "roll": f"rolls up {e.get('card')}", "declare": f"declares {e.get('side')}",
            "chose": CHOSE.get(str(e.get("step")), "has chosen"), "show": "shows",
            "muck": "mucks"}
        assert kind in words, f"a seat event with no label: {e}"
        return words[kind]


LOGGED = ("check", "call", "bet", "raise", "fold", "roll", "declare", "expose")
"""Actions whose label is said word for word in the log line of the same seat (a
blind's label, "big blind 2", is the log's "posts the big blind 2" without the verb)."""


def _play(game: str, players: int, seed: int) -> set[str]:
    """Play one seeded hand; check every label and the log after each decision.
    Returns the kinds of the actions labelled."""
    rng = random.Random(seed)
    hand = Hand(game, [200] * players, button=0, source=SeededSource(seed))
    session = GameSession(1, {"game": game, "seats": list(range(players))}, hand)
    names = NAMES[:players]
    oracle = Oracle()
    want: dict[int, str] = {}
    kinds: set[str] = set()
    seen = 0
    logged = 0
    while True:
        view = session.view(None, names)
        new = view["events"][seen:]
        seen = len(view["events"])
        acted = {}
        for e in new:
            text = oracle.said(e)
            if text is not None:
                want[int(e["seat"])] = text
                acted[int(e["seat"])] = e
                kinds.add(e["kind"])
        got = {int(s): a["text"] for s, a in view["last_actions"].items()}
        where = (game, players, seed, [e["kind"] for e in new])
        assert got == want, where
        for seat in acted:   # the acting seat is told the same
            own = session.view(seat, names)["last_actions"][str(seat)]["text"]
            if acted[seat]["kind"] == "chose" and acted[seat]["step"] in OWN:
                # the maker is told its own choice (tests/test_felt_own_choice.py)
                assert own.startswith(OWN[acted[seat]["step"]]), (where, own)
                continue
            assert own == want[seat], where
        for text in got.values():
            assert not ENGINE_WORDS.search(text), (where, text)
            if game != "rollyourown":   # only Roll Your Own has a pool (issue 26)
                assert "pool" not in text, (where, text)
        lines = view["log"][logged:]
        logged = len(view["log"])
        for seat, e in acted.items():
            if e["kind"] == "chose":   # kept hidden, and silent, until all have chosen
                continue
            said = [line["text"] for line in lines if line["seat"] == seat]
            assert said, f"{where}: no log line for {names[seat]}'s {e['kind']}"
            if e["kind"] in LOGGED and not e.get("all_in") and not e.get("bring_in"):
                assert any(f"{names[seat]} {want[seat]}" in t for t in said), (where, said)
            if e["kind"] == "blind" and not e.get("all_in"):
                assert any(f"{names[seat]} posts the {want[seat]}" in t for t in said), \
                    (where, said)
        for line in lines:
            assert not re.search(r"\b(choose|pool_draw|draw_deal|stacked)\b|_", line["text"]), \
                (where, line)
        if session.over:
            return kinds
        seat = session.pending_seats()[0]
        legal = session.view(seat)["legal"]
        if rng.random() < 0.75 and {"call", "check"} & set(legal["actions"]):
            wire = {"kind": "call" if "call" in legal["actions"] else "check"}
        else:
            wire = random_wire_action(legal, rng)
        session.apply(seat, wire)


MUST = {
    "sdr": {"check", "bet", "call", "raise"},
    "rollyourown": {"discard", "expose", "pool_draw", "chose", "check"},
    "rollem521": {"draw", "chose", "stacked", "roll", "declare"},
    "holdem": {"blind", "call", "check"},
    "omaha": {"blind", "call", "check"},
    "omaha8": {"blind", "call", "check"},
    "stud": {"bet", "call"},
    "stud8": {"bet", "call"},
    "razz": {"bet", "call"},
    "draw5": {"draw", "check"},
    "deuces-wild": {"draw", "check"},
}
"""What players do in each game, each of which must have been labelled."""


@pytest.mark.parametrize("game", games.shipped_ids())
def test_every_action_is_labelled_in_players_words(game: str) -> None:
    g = games.get(game)
    sizes = sorted({max(g.min_players, min(g.max_players, n)) for n in (2, 6, 10)})
    kinds: set[str] = set()
    for players in sizes:
        for seed in (1, 2):
            kinds |= _play(game, players, seed)
    assert MUST[game] <= kinds, (game, MUST[game] - kinds)


def test_the_words_of_a_hidden_choice_fit_a_seat() -> None:
    """Short enough for a phone's seat tile (the first words, "has picked the card to
    turn up", were cut to "has picked the c..." at 390 px)."""
    from rollem.narration import felt

    assert all(len(text) <= 14 for text in felt.CHOSE.values())
