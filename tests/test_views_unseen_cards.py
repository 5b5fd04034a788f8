"""What a seat is sent depends on nothing it may not see (DESIGN.md, views).

The websocket auditor (``tests/web/test_server_hidden.py``) scans every state
for the *text* of a card the seat may not know.  This is the stronger,
differential form (stop 55): a hand is played, then played again with the
cards a viewer never saw permuted among themselves (in every shuffle the hand
recorded, and in every action that names them: another seat's discards, its
turned-up card, its draw), the same actions otherwise.  What the viewer is
sent (the web table's state text, ``GameSession.view_json``, with the felt's
words and the narration) must be the same, byte for byte, at every step before
the result; and once the result is the same in both (who won what, what was
shown), the end too, the hand's replay and the viewer's own copy of the history.
A hand name, a count, an order, a word or a length that followed another
seat's hidden cards would differ.  Every game, no-limit with run it twice where
a board allows, shows by choice after the hand, watchers and every seat.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from rollem import games
from rollem.cards import CARDS
from rollem.engine import Hand, SeededSource
from rollem.engine.errors import IllegalAction
from rollem.engine.options import Options
from rollem.engine.randomness import ReplaySource
from rollem.server.game_session import GameSession, action_from_wire, random_wire_action

CARD_RE = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")
NAMES = ["Ann", "Bob", "Cy"]
PLAYERS = 3
SEEDS = 4
Wire = dict[str, object]
NUMBER = {str(card): number for number, card in enumerate(CARDS)}


def _options(game: str) -> Options:
    if game in ("holdem", "omaha", "omaha8"):
        return Options(structure="no-limit", run_twice=True)
    return Options(structure="pot-limit" if game in ("sdr", "rollyourown") else "fixed-limit")


def _play(game: str, seed: int, opts: Options
          ) -> tuple[list[tuple[str, list[int]]], list[tuple[int, Wire]]]:
    """A hand of random play (mostly checks and calls, to reach showdowns), then shows
    by choice: its recorded shuffles and its actions."""
    rng = random.Random(seed)
    source = SeededSource(seed)
    hand = Hand(game, [200] * PLAYERS, button=0, options=opts, source=source)
    actions: list[tuple[int, Wire]] = []
    while not hand.is_over:
        seat = hand.pending.seats[0]
        legal = hand.view(seat).legal.to_dict()
        passive = [k for k in ("check", "call") if k in legal["actions"]]
        wire = {"kind": passive[0]} if passive and rng.random() < 0.75 \
            else random_wire_action(legal, rng)
        hand.apply(seat, action_from_wire(wire))
        actions.append((seat, wire))
    for seat in range(PLAYERS):
        legal = hand.view(seat).legal
        if legal is not None and "show" in legal.actions and rng.random() < 0.6:
            cards = list(legal.to_dict()["cards"])
            wire = {"kind": "show", "cards": rng.sample(cards, rng.randint(1, len(cards)))}
            hand.apply(seat, action_from_wire(wire))
            actions.append((seat, wire))
    return [(label, list(order)) for label, order in source.outcomes], actions


def _session(game: str, opts: Options, outcomes: list[tuple[str, list[int]]]) -> GameSession:
    """A hand of ``game`` at :data:`PLAYERS` seats of 200, button 0, dealt ``outcomes``."""
    hand = Hand(game, [200] * PLAYERS, button=0, options=opts, source=ReplaySource(outcomes))
    return GameSession(1, {"game": game, "seats": list(range(PLAYERS)),
                           "stacks": [200] * PLAYERS, "button": 0,
                           "options": opts.to_dict(), "carry_in": 0, "outcomes": []}, hand)


def _sent_to(game: str, opts: Options, outcomes: list[tuple[str, list[int]]],
             actions: list[tuple[int, Wire]], viewers: list[int | None]
             ) -> tuple[dict[int | None, list[str]], GameSession]:
    """The state texts each of ``viewers`` is sent before the first action and
    after each, from one replay of the hand."""
    session = _session(game, opts, outcomes)
    texts: dict[int | None, list[str]] = {v: [session.view_json(v, NAMES)] for v in viewers}
    for seat, wire in actions:
        session.hand.apply(seat, action_from_wire(wire))
        for v in viewers:
            texts[v].append(session.view_json(v, NAMES))
    return texts, session


def _sent(game: str, opts: Options, outcomes: list[tuple[str, list[int]]],
          actions: list[tuple[int, Wire]], viewer: int | None) -> tuple[list[str], GameSession]:
    """The state text ``viewer`` is sent before the first action and after each."""
    texts, session = _sent_to(game, opts, outcomes, actions, [viewer])
    return texts[viewer], session


def _mapped(wire: Wire, pi: dict[str, str]) -> Wire:
    out = dict(wire)
    if "cards" in out:
        out["cards"] = [pi.get(str(c), str(c)) for c in out["cards"]]  # type: ignore[attr-defined]
    if "card" in out:
        out["card"] = pi.get(str(out["card"]), out["card"])
    return out


@pytest.mark.parametrize("game", games.shipped_ids())
def test_a_viewers_messages_do_not_change_with_the_cards_it_never_saw(game: str) -> None:
    compared = ended = 0
    for seed in range(SEEDS):
        opts = _options(game)
        outcomes, actions = _play(game, seed, opts)
        for viewer in [None, *range(PLAYERS)]:
            texts, session = _sent(game, opts, outcomes, actions, viewer)
            seen = set().union(*(CARD_RE.findall(t) for t in texts))
            unseen = [str(c) for c in CARDS if str(c) not in seen]
            assert len(unseen) >= 20, (game, seed, viewer)  # (the stub at least)
            shuffled = unseen[:]
            random.Random(seed * 7 + (viewer or 0)).shuffle(shuffled)
            pi = dict(zip(unseen, shuffled, strict=True))
            other = [(label, [NUMBER[pi.get(str(CARDS[c]), str(CARDS[c]))] for c in order])
                     for label, order in outcomes]
            try:
                texts2, session2 = _sent(game, opts, other,
                                         [(s, _mapped(w, pi)) for s, w in actions], viewer)
            except IllegalAction:  # (a show by choice of a hand that won and was shown there)
                texts2, session2 = _sent(game, opts, other, [
                    (s, _mapped(w, pi)) for s, w in actions if w["kind"] != "show"], viewer)
                texts = texts[:len(texts2)]
            a, b = session.hand.result, session2.hand.result
            same_end = (a is not None and b is not None and a.net == b.net
                        and a.shown_cards == b.shown_cards and len(texts) == len(texts2))
            for i, (one, two) in enumerate(zip(texts, texts2, strict=False)):
                if not same_end and '"result":null' not in one:
                    continue  # (another winner: the viewer learns the result, as it should)
                compared += 1
                assert one == two, (game, seed, viewer, i, _first_difference(one, two))
            if same_end:
                ended += 1
                replays = [json.dumps(s.replay(viewer, NAMES), sort_keys=True)
                           for s in (session, session2)]
                assert replays[0] == replays[1], (game, seed, viewer, "replay")
                if viewer is not None:
                    assert session.history_text(viewer, NAMES) == \
                        session2.history_text(viewer, NAMES), (game, seed, viewer, "copy")
    assert compared >= SEEDS * (PLAYERS + 1) * 3 and ended >= 2, (compared, ended)


def _first_difference(one: str, two: str) -> str:
    a, b = json.loads(one), json.loads(two)
    keys = [k for k in a if a[k] != b.get(k)]
    return f"{keys}: {json.dumps(a[keys[0]])[:300]} / {json.dumps(b[keys[0]])[:300]}" \
        if keys else "same keys"
