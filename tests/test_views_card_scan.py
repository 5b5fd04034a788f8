"""No card a seat may not see, in anything made for it, at any player count
(branch s74-leak).

``tests/test_views_unseen_cards.py`` compares what a viewer is sent against a deal
with its unseen cards permuted (3 players, mostly checks and calls).  This scans
the text of everything made for a viewer for a card it has not seen by then, over
deals of 2 to 10 players with folds: the web table's state (``view_json``) at each
step, the seat's own view that practice odds are computed from (``odds_view``), the
run-out's stages, and at the end the replay, the own copy (``history_text``) and its
PHH form (the whole-session ``.phhs`` download).  A card is seen once it is the
viewer's own (dealt, or put in the pool), face up, on the board, dead, shown at the
showdown or in a run, or shown by choice.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from rollem import games
from rollem.cards import CARDS
from rollem.engine import Hand, SeededSource
from rollem.engine.options import Options
from rollem.phh import write_session_phhs
from rollem.server.game_session import GameSession, random_wire_action

CARD_RE = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")
STAND_IN_RE = re.compile(r"plays as [2-9TJQKA][cdhs]\b")  # a wild card's value, no card
TEXT = [str(c) for c in CARDS]
SEEDS = 3


def _text(cards: object) -> set[str]:
    return {TEXT[c] for c in cards}  # type: ignore[attr-defined]


def _seen_now(hand: Hand, viewer: int | None) -> set[str]:
    seen: set[str] = set()
    if viewer is not None:
        seen |= _text(hand.hole[viewer]) | _text(hand.pool_by_seat.get(viewer, []))
    for s in range(hand.n):
        seen |= _text(c for c, up in zip(hand.hole[s], hand.up[s], strict=True) if up)
    seen |= _text(hand.board) | _text(hand.dead)
    for cards in hand.shown_by_choice.values():
        seen |= _text(cards)
    if hand.result is not None:
        for cards in hand.result.shown_cards.values():
            seen |= _text(cards)
        for run in hand.result.runs:
            seen |= set(run.get("board") or []) | set(run.get("dead") or [])
    return seen


def _named(text: str) -> set[str]:
    return set(CARD_RE.findall(STAND_IN_RE.sub("plays as ?", text)))


def _deal(game: str, seed: int) -> int:
    """One deal of ``game`` scanned for every viewer; returns the texts scanned."""
    spec = games.get(game)
    checked = 0
    rng = random.Random(seed * 31 + len(game))
    n = rng.randint(spec.min_players, min(spec.max_players, 10))
    structure = ["fixed-limit", "pot-limit", "no-limit"][seed % 3]
    twice = structure == "no-limit" and game in ("holdem", "omaha", "omaha8")
    opts = Options(structure=structure, run_twice=twice)
    hand = Hand(game, [rng.choice([30, 200]) for _ in range(n)], button=seed % n,
                options=opts, source=SeededSource(seed))
    session = GameSession(1, {"game": game, "seats": list(range(n)),
                              "stacks": list(hand.start_stacks), "button": hand.button,
                              "options": opts.to_dict(), "carry_in": 0, "outcomes": []},
                          hand)
    names = [f"P{i}" for i in range(n)]
    viewers: list[int | None] = [None, *range(n)]
    seen: dict[int | None, set[str]] = {v: set() for v in viewers}

    def scan(label: str, v: int | None, text: str) -> None:
        nonlocal checked
        unseen = _named(text) - seen[v]
        assert not unseen, (game, seed, n, v, label, sorted(unseen))
        checked += 1

    def look(step: int) -> None:
        for v in viewers:
            seen[v] |= _seen_now(hand, v)
            scan(f"state {step}", v, session.view_json(v, names))
            if v is not None and hand.pending is not None and v in hand.pending.seats:
                scan(f"odds view {step}", v, json.dumps(session.odds_view(v).to_dict()))

    look(0)
    step = 0
    fold = rng.choice([0.05, 0.2])
    while not hand.is_over:
        seat = hand.pending.seats[0]
        legal = hand.view(seat).legal.to_dict()
        acts = legal["actions"]
        r = rng.random()
        wire = ({"kind": "fold"} if "fold" in acts and r < fold else
                {"kind": next(k for k in ("check", "call") if k in acts)}
                if r < 0.7 and ("check" in acts or "call" in acts)
                else random_wire_action(legal, rng))
        session.apply(seat, wire)
        step += 1
        look(step)
    for seat in range(n):
        legal = hand.view(seat).legal
        if legal is not None and "show" in legal.actions and rng.random() < 0.4:
            cards = list(legal.to_dict()["cards"])
            session.apply(seat, {"kind": "show",
                                 "cards": rng.sample(cards, rng.randint(1, len(cards)))})
            step += 1
            look(step)
    for stage in session.runout_stages():
        for v in viewers:
            scan("run-out stage", v, stage.view_json(v, names))
    for v in viewers:
        scan("replay", v, json.dumps(session.replay(v, names)))
        if v is not None:
            copy = session.history_text(v, names)
            scan("own copy", v, copy)
            scan("own copy as PHH", v, write_session_phhs([copy], numbers=[1]))
    return checked


@pytest.mark.parametrize("game", games.shipped_ids())
def test_nothing_made_for_a_viewer_names_a_card_it_has_not_seen(game: str) -> None:
    checked = sum(_deal(game, seed) for seed in range(SEEDS))
    assert checked > SEEDS * 40, checked
