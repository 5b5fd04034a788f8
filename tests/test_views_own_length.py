"""The length of what a seat is sent follows public information only (stop 55).

TLS hides a message's content, not its length, and the web table's states go
uncompressed: a passive observer of one player's connection reads each
message's length.  A seat's own view holds words that follow its own hidden
cards (``hand_name``: "ace high" against "queen high"; its own muck line; a
5-2-1 declaration before its reveal), so :mod:`rollem.server.own_pad` pads it to
the watcher's length of the same moment plus an allowance of that length only.

The differential form of ``tests/test_views_unseen_cards.py``, turned round: a
hand is played, then played again with the *seat's own* hidden cards swapped for
cards no one saw (the stub), everything public held fixed (the same actions,
the same board and up cards); the seat's state text, at every step before the
result, and at the end when the result came out the same, must have the same
length (while its content differs: the test checks that it did, so it compares
something), and still parse to the unpadded view.
"""

from __future__ import annotations

import json
import random

import pytest

from rollem import games
from rollem.cards import CARDS
from rollem.engine import Hand
from rollem.engine.errors import EngineError, IllegalAction
from rollem.engine.options import Options
from rollem.server.game_session import GameSession, action_from_wire
from rollem.server.own_pad import own_allowance, pad_view, padded_length
from test_views_unseen_cards import (
    CARD_RE,
    NAMES,
    NUMBER,
    PLAYERS,
    _mapped,
    _options,
    _play,
    _sent_to,
    _session,
)

SEEDS = 3
Wire = dict[str, object]


def _texts(game: str, opts: Options, outcomes: list[tuple[str, list[int]]],
           actions: list[tuple[int, Wire]], viewer: int
           ) -> tuple[list[str], list[str], GameSession]:
    """``viewer``'s state texts before the first action and after each, and the
    watcher's of the same moments."""
    texts, session = _sent_to(game, opts, outcomes, actions, [viewer, None])
    return texts[viewer], texts[None], session


def _own_cards(texts: list[str], watchers: list[str]) -> list[str]:
    """The cards the seat saw that a watcher never did (its own hidden cards)."""
    seen = set().union(*(CARD_RE.findall(t) for t in texts))
    public = set().union(*(CARD_RE.findall(t) for t in watchers))
    return sorted(seen - public)


def test_padding_keeps_the_json_and_reaches_the_public_length() -> None:
    own, watcher = '{"hand_name":"ace high","log":[]}', '{"hand_name":null,"log":[]}'
    padded = pad_view(own, watcher)
    assert json.loads(padded) == {"hand_name": "ace high", "log": []}
    assert len(padded) == len(watcher) + 768 + len(watcher) // 8 == 798
    assert own_allowance(1000) == 893
    assert padded_length(1893, 1000) == 1893  # (fits: the allowance as is)
    assert padded_length(2500, 1000) == 1000 + 2 * 893 == 2786  # (doubled once)
    assert padded_length(5000, 1000) == 1000 + 8 * 893 == 8144
    with pytest.raises(ValueError, match="ending in"):
        pad_view("[1]", watcher)


@pytest.mark.parametrize("game", games.shipped_ids())
def test_a_seats_message_length_does_not_change_with_its_own_cards(game: str) -> None:
    compared = differed = 0
    for seed in range(SEEDS):
        opts = _options(game)
        outcomes, actions = _play(game, seed, opts)
        sent = _sent_to(game, opts, outcomes, actions, list(range(PLAYERS)))[0]
        for viewer in range(PLAYERS):
            texts, watchers, session = _texts(game, opts, outcomes, actions, viewer)
            mine = _own_cards(texts, watchers)
            everyone = set().union(*(CARD_RE.findall(t) for seat_texts in sent.values()
                                     for t in seat_texts))
            stub = [str(c) for c in CARDS if str(c) not in everyone]
            if not mine:
                continue  # (every card it held was shown to all)
            rng = random.Random(seed * 31 + viewer)
            swap = rng.sample(stub, len(mine))
            pi = {**dict(zip(mine, swap, strict=True)), **dict(zip(swap, mine, strict=True))}
            other = [(label, [NUMBER[pi.get(str(CARDS[c]), str(CARDS[c]))] for c in order])
                     for label, order in outcomes]
            try:
                texts2, watchers2, session2 = _texts(
                    game, opts, other, [(s, _mapped(w, pi)) for s, w in actions], viewer)
            except (IllegalAction, EngineError):  # (its own cards changed a legal draw or show)
                continue
            a, b = session.hand.result, session2.hand.result
            same_end = (a is not None and b is not None and a.net == b.net
                        and a.shown_cards == b.shown_cards)
            for i, (one, two) in enumerate(zip(texts, texts2, strict=True)):
                if '"result":null' not in one and not same_end:
                    continue  # (another winner: the result is public and tells it)
                if watchers[i] != watchers2[i]:
                    continue  # (its own cards changed something public, e.g. a muck order)
                compared += 1
                differed += one != two
                assert len(one) == len(two), (game, seed, viewer, i, len(one), len(two))
                assert len(one) == padded_length(len(one.rstrip("} ")) + 1, len(watchers[i]))
    assert compared >= 2 * SEEDS * PLAYERS and differed >= compared // 2, (compared, differed)


def _checked_down(deck: list[int]) -> tuple[list[str], Hand]:
    """Hold'em, 3 players, button 0, every seat checking or calling to the end, dealt
    from ``deck`` (card numbers, top first): seat 0's state texts before each action."""
    session = _session("holdem", _options("holdem"), [("deck", deck)])
    hand = session.hand
    texts = []
    while not hand.is_over:
        texts.append(session.view_json(0, NAMES))
        seat = hand.pending.seats[0]
        legal = hand.view(seat).legal.to_dict()["actions"]
        hand.apply(seat, action_from_wire({"kind": "check" if "check" in legal else "call"}))
    return texts, hand


def test_ace_high_and_queen_high_are_sent_at_one_length() -> None:
    """Seat 0 holds Ah 7c or Qh 7c against two pairs, the same board (9c Jd Ks 8h 3c:
    no straight, no flush); everyone checks or calls to the river.  Its hand's name
    is "ace high" or "queen high" at every state; each state has one length."""
    _, probe = _checked_down(list(range(52)))
    where = {str(c): n for n, c in enumerate(CARDS)}  # (identity deck: number = position)
    places = [where[c] for c in probe.view(0).to_dict()["seats"][0]["cards"]]
    others = [where[c] for s in (1, 2) for c in probe.view(s).to_dict()["seats"][s]["cards"]]
    board = [where[c] for c in probe.view(None).to_dict()["board"]]
    sent = []
    for high in ("Ah", "Qh"):
        chosen = {places[0]: high, places[1]: "7c", others[0]: "2d", others[1]: "2s",
                  others[2]: "5d", others[3]: "5s", **dict(zip(board, ["9c", "Jd", "Ks", "8h",
                                                                       "3c"], strict=True))}
        rest = iter(n for n in range(52) if str(CARDS[n]) not in chosen.values())
        deck = [NUMBER[chosen[pos]] if pos in chosen else next(rest) for pos in range(52)]
        texts, _ = _checked_down(deck)
        sent.append(texts)
    aces, queens = sent
    names = [(json.loads(a)["hand_name"], json.loads(q)["hand_name"])
             for a, q in zip(aces, queens, strict=True)]
    assert names[0] == ("ace high, seven", "queen high, seven")
    assert names[-1] == ("ace high, king-jack-nine-eight", "king high, queen-jack-nine-eight")
    assert [len(t) for t in aces] == [len(t) for t in queens]
