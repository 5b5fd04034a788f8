"""No websocket message to a seat ever holds what that seat may not know
(DESIGN.md, views): another seat's hidden card, the pool's contents, the
stub, burned or mucked cards, or another seat's pending all-at-once choice.

Sixty hands of each game (four tables, the three betting structures) are
played through real websockets by random clients and server-side computer
players (random and basic). Two checks:

- at the moment the server writes a message for a seat, the auditor
  computes from the engine's hand what that seat may not know and scans the
  message for it (and for the secret deal key of a committed deck, issue 32);
- every client records every message it receives; each is scanned against
  the forbidden set recorded for that table, sequence number and seat.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from web_harness import Player, ServerThread, create_table, join

from rollem import games
from rollem.cards import CARDS
from rollem.engine.actions import action_to_text
from rollem.server.live_table import LiveTable

HANDS_PER_GAME = 60
TABLES_PER_GAME = 4
# A card not inside a word: the same matches as r"(?<![0-9A-Za-z])[2-9TJQKA]...", the
# rank first so that re scans for it about 3 times faster.
CARD_RE = re.compile(r"[2-9TJQKA](?<![0-9A-Za-z][2-9TJQKA])[cdhs](?![0-9A-Za-z])")


CARD_TEXT = tuple(str(card) for card in CARDS)
"""Each card's text by its number (stop 63: ``str(CARDS[c])`` each time was about a
tenth of the audit's time)."""


def _text(cards: Any) -> set[str]:
    return {CARD_TEXT[c] for c in cards}


Forbidden = tuple[frozenset[str], tuple[str, ...]]


class Auditor:
    """The server-side half: called for every state message written for a seat."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.known: dict[tuple[str, int, int | None], set[str]] = {}
        self.forbidden: dict[tuple[str, int, int | None], Forbidden] = {}
        self.violations: list[str] = []
        self.messages = 0

    def __call__(self, table: LiveTable, seat: int | None, text: str) -> None:
        # The secret deal key of a committed deck (issue 32): of the deal waiting for
        # seeds, of the hand in play, of the last one; never in any message.
        keys = [(table.session.get("seeding") or {}).get("proof", {}).get("deal_key")]
        keys += [h.setup.get("proof", {}).get("deal_key")
                 for h in (table.hand, table.final_hand) if h is not None]
        for k in filter(None, keys):
            if k.lower() in text.lower():
                with self.lock:
                    self.violations.append(f"table {table.id} seat {seat}: the deal key")
        session = table.hand or table.final_hand
        if session is None:
            return
        h = session.hand
        key = (table.id, session.hand_no, seat)
        known = self.known.setdefault(key, set())
        if seat is not None and seat < h.n:
            known |= _text(h.hole[seat])
            known |= _text(h.pool_by_seat.get(seat, []))
        for s in range(h.n):
            known |= _text(c for c, up in zip(h.hole[s], h.up[s], strict=True) if up)
        known |= _text(h.board) | _text(h.dead)
        if h.result is not None:
            for cards in h.result.shown_cards.values():
                known |= _text(cards)
        hidden = _text(h.deck[h.deck_pos:]) | _text(h.pool) | _text(h.burned) | _text(h.muck)
        for s in range(h.n):
            if s != seat:
                hidden |= _text(c for c, up in zip(h.hole[s], h.up[s], strict=True) if not up)
        forbidden = frozenset(hidden - known)
        # Another seat's pending all-at-once choice, in its text form.
        choices: list[str] = []
        if h.pending is not None and h.pending.simultaneous:
            step = h.steps[h.step_index]
            made = getattr(step, "choices", {})
            own = action_to_text(made[seat]) if seat in made else None
            for s, choice in made.items():
                # (the same text as the viewer's own choice is checked structurally only)
                if s != seat and action_to_text(choice) != own:
                    choices.append(action_to_text(choice))
        problems = check_message(text, seat, forbidden, tuple(choices), table.id)
        with self.lock:
            self.messages += 1
            self.forbidden[(table.id, table.seq, seat)] = (forbidden, tuple(choices))
            if problems:
                self.violations.append(f"table {table.id} seq {table.seq} seat {seat}: {problems}")


STAND_IN_RE = re.compile(r"plays as [2-9TJQKA][cdhs]\b")


def check_message(text: str, seat: int | None, forbidden: frozenset[str],
                  choices: tuple[str, ...], table_id: str = "",
                  msg: dict[str, Any] | None = None) -> list[str]:
    """What ``text`` (a state message for ``seat``) shows that it must not.
    ``table_id``: the table's id, a random token that may hold a card-like run
    ("6c-1h6-..."): it is left out of the search for cards.  ``msg``: ``text``
    already decoded (the client kept it), else it is decoded here."""
    problems = []
    if table_id:
        text = text.replace(table_id, "")
    # The narration names what a shown wild card plays as ("wild 4h plays as Jd"):
    # a value, not a card of the deck, so it is no card to look for.
    text = STAND_IN_RE.sub("plays as ?", text)
    leaked = set(CARD_RE.findall(text)) & forbidden
    if leaked:
        problems.append(f"hidden cards {sorted(leaked)}")
    for choice in choices:
        if choice in text:
            problems.append(f"pending choice {choice!r}")
    if msg is None:
        # (no all-at-once choice event with its action to look into: an event that
        # holds one names "chose" and has an "action" key; stop 63: decoding every
        # message naming "chose" was about a third of the audit's time)
        if '"chose"' not in text or '"action"' not in text:
            return problems
        msg = json.loads(text)
    hand = msg.get("hand") or {}
    for event in hand.get("events", []):
        if event.get("kind") == "chose" and event.get("seat") != seat and "action" in event:
            problems.append(f"another seat's choice in {event}")
    return problems


def _broke_between_hands(st: dict[str, Any]) -> bool:
    seat = st["you"]["seat"]
    hand = st["hand"]
    return (seat is not None and st["table"]["seats"][seat]["stack"] == 0
            and (hand is None or bool(hand.get("result"))))


async def _client(p: Player, done: dict[str, int], target: int) -> None:
    acted_for: int | None = None
    rebought: int | None = None
    while done["hands"] < target:
        try:
            msg = await p.recv(15)
        except TimeoutError:
            raise AssertionError(f"table stalled at seq {p.state and p.state['seq']}") from None
        if msg["type"] == "error":
            acted_for = None  # refused (e.g. raced by the clock): decide again
        if msg["type"] == "state" and msg["table"]["last_result"]:
            done["hands"] = max(done["hands"], msg["table"]["last_result"]["hand"])
        if msg["type"] == "state" and _broke_between_hands(msg) and rebought != msg["seq"]:
            # A table without people waits (computer players alone are not dealt
            # hands): a broke player rebuys, as a person at the table would.
            rebought = msg["seq"]
            await p.send({"type": "rebuy", "seq": msg["seq"]})
        if p.my_decision() and p.state and p.state["you"]["decision_seq"] != acted_for:
            acted_for = p.state["you"]["decision_seq"]
            await p.act_random()


async def _table(server: ServerThread, game: str, seed: int, target: int,
                 players: int, bots: int) -> list[Player]:
    tid, host = create_table(server.url, game=game, seats=players + bots, bots=bots,
                             bot_delay=0, between_hands=0, decision_seconds=120, stack=60,
                             structure=["fixed-limit", "pot-limit", "no-limit"][seed % 3],
                             bot_level=["random", "basic"][seed % 2])
    tokens = [join(server.url, tid, f"P{i}")[1] for i in range(players)]
    done = {"hands": 0}
    clients = [Player(server.ws_url, tid, tok, host if i == 0 else None, seed * 10 + i)
               for i, tok in enumerate(tokens)]
    onlooker = Player(server.ws_url, tid, None)
    for c in [*clients, onlooker]:
        await c.__aenter__()
    await clients[0].until(lambda st: st["you"]["host"])
    await clients[0].send({"type": "start", "seq": clients[0].state["seq"]})

    async def watch() -> None:
        while done["hands"] < target:
            try:
                await onlooker.recv(15)
            except TimeoutError:
                return

    await asyncio.gather(*(_client(c, done, target) for c in clients), watch())
    for c in [*clients, onlooker]:
        await c.__aexit__()
    return [*clients, onlooker]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_no_message_leaks_hidden_information(tmp_path: Path, game: str) -> None:
    auditor = Auditor()
    LiveTable.audit = auditor
    server = ServerThread(tmp_path / "hidden.db")
    try:
        per_table = HANDS_PER_GAME // TABLES_PER_GAME
        max_players = games.get(game).max_players

        async def run() -> list[list[Player]]:
            return await asyncio.gather(*(
                _table(server, game, i, per_table, players=3, bots=min(2 + i % 2,
                                                                        max_players - 3))
                for i in range(TABLES_PER_GAME)
            ))

        tables = asyncio.run(run())
    finally:
        LiveTable.audit = None
        server.stop()
    assert not auditor.violations, auditor.violations[:5]
    # The recorder half: every message each client received, checked again.
    checked = 0
    hands_seen: set[tuple[str, int]] = set()
    for players in tables:
        for p in players:
            for raw, msg in zip(p.raw, p.messages, strict=True):
                if msg["type"] != "state" or msg["hand"] is None:
                    continue
                seat = msg["you"]["seat"]
                hands_seen.add((p.tid, msg["hand"]["hand_no"]))
                forbidden, choices = auditor.forbidden[(p.tid, msg["seq"], seat)]
                assert not check_message(raw, seat, forbidden, choices, p.tid, msg)
                checked += 1
    # Every hand was audited at the server; clients may skip states they were
    # too slow to read (each state is complete; only the newest is sent).
    assert len({(tid, hand_no) for tid, hand_no, _seat in auditor.known}) >= HANDS_PER_GAME
    assert len(hands_seen) >= HANDS_PER_GAME // 2
    assert checked > 1000


def test_a_table_id_is_not_taken_for_a_card() -> None:
    """A table id is a random token: "6c-1h6-..." once raised a false alarm for 6c."""
    tid = "6c-1h6-6aHJtdQQTFI6yrw"
    text = json.dumps({"table": {"id": tid}, "hand": None})
    assert check_message(text, 0, frozenset({"6c"}), ()) == ["hidden cards ['6c']"]
    assert check_message(text, 0, frozenset({"6c"}), (), tid) == []
    assert check_message(text.replace('"hand": null', '"hand": {"card": "6c"}'), 0,
                         frozenset({"6c"}), (), tid) == ["hidden cards ['6c']"]
