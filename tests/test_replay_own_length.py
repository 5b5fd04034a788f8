"""A seat's replay of a finished hand has a length that follows public things
only (stop 56).

A replay holds the seat's own hand's name at each step and its own muck line:
on main its length (and its gzipped length) changed with the seat's own cards
in 21 of 135 hands compared below (e.g. razz 20,309 against 20,305 bytes), so a
passive observer of the connection read something of a hand never shown.
The differential of ``tests/test_views_own_length.py``: each hand played again
with the seat's own hidden cards swapped for cards no one saw, everything public
the same; where the result and every public state came out the same, the two
replays (:func:`rollem.server.routes_hands.replay_body`) differ in content but
not in length, are not compressed, and are as long as
:func:`rollem.server.own_pad.replay_length` says.
"""

from __future__ import annotations

import json
import random

import pytest

from rollem import games
from rollem.cards import CARDS
from rollem.engine.errors import EngineError, IllegalAction
from rollem.server.own_pad import replay_length
from rollem.server.routes_hands import replay_body
from test_views_own_length import _own_cards, _texts
from test_views_unseen_cards import (
    CARD_RE,
    NAMES,
    NUMBER,
    PLAYERS,
    _mapped,
    _options,
    _play,
    _sent_to,
)

SEEDS = 3


@pytest.mark.parametrize("game", games.shipped_ids())
def test_a_seats_replay_length_does_not_change_with_its_own_cards(game: str) -> None:
    compared = differed = 0
    for seed in range(SEEDS):
        opts = _options(game)
        outcomes, actions = _play(game, seed, opts)
        sent = _sent_to(game, opts, outcomes, actions, list(range(PLAYERS)))[0]
        everyone = set().union(*(CARD_RE.findall(t) for texts in sent.values() for t in texts))
        stub = [str(c) for c in CARDS if str(c) not in everyone]
        for viewer in range(PLAYERS):
            texts, watchers, session = _texts(game, opts, outcomes, actions, viewer)
            mine = _own_cards(texts, watchers)
            if not mine:
                continue
            swap = random.Random(seed * 31 + viewer).sample(stub, len(mine))
            pi = {**dict(zip(mine, swap, strict=True)), **dict(zip(swap, mine, strict=True))}
            other = [(label, [NUMBER[pi.get(str(CARDS[c]), str(CARDS[c]))] for c in order])
                     for label, order in outcomes]
            try:
                _, watchers2, session2 = _texts(
                    game, opts, other, [(s, _mapped(w, pi)) for s, w in actions], viewer)
            except (IllegalAction, EngineError):
                continue
            a, b = session.hand.result, session2.hand.result
            if a is None or b is None or a.net != b.net or a.shown_cards != b.shown_cards \
                    or watchers != watchers2:
                continue  # (its cards changed something public)
            one, two = (replay_body(s, game, NAMES, None, viewer) for s in (session, session2))
            watcher = replay_body(session, game, NAMES, None, None)
            assert one.gzipped == two.gzipped == b""  # (never compressed)
            compared += 1
            differed += one.json != two.json
            assert len(one.json) == len(two.json), (game, seed, viewer)
            assert len(one.json) == replay_length(0, len(watcher.json))
            assert json.loads(one.json)["seat"] == viewer
    assert compared >= 2 and differed >= compared // 2, (compared, differed)
