"""Stand-in cards for a player's own copy (:class:`_StandIns`): every
``??`` gets a card nobody named, chosen so that the hand plays out as the
copy says; :func:`is_own_copy`, :data:`IMPOSSIBLE`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rollem.cards import CARDS, Card, CardError, parse_card
from rollem.engine.actions import Discard, Draw, Stack, action_to_text
from rollem.history import (
    HistoryError,
    _card_tokens,
)

IMPOSSIBLE = "this player's copy describes a hand that cannot happen"
"""The start of the message of a copy whose lines do not play."""


def is_own_copy(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` (a history dict) is a player's own copy (``_redacted_for``)."""
    return "_redacted_for" in data


def _split(line: str) -> tuple[list[str], list[str]]:
    body, _, comment = line.partition("#")
    return [c for t in _card_tokens(body.split()) for c in _pairs(t)], comment.split()


def _pairs(token: str) -> list[str]:
    """A run-together token that names a card twice (``JcJc``, which
    :func:`rollem.history._card_tokens` keeps whole) as its cards, so that a
    show is refused for the repeat, not as a bad card; any other token as is."""
    if len(token) <= 2 or len(token) % 2:
        return [token]
    pieces = [token[i:i + 2] for i in range(0, len(token), 2)]
    try:
        for p in pieces:
            _card(p)
    except CardError:
        return [token]
    return pieces


def _is_action(parts: Sequence[str]) -> bool:
    return len(parts) >= 2 and parts[0] != "d" and parts[1] != "sm"


def _card(text: str) -> Card:
    return parse_card(text)


class _OutOfCards(HistoryError):
    """More cards than the deck holds: the hand reshuffled its discards."""


class _StandIns:
    """Builds the stand-in lines of one copy (see the module doc)."""

    def __init__(self, lines: Sequence[str], seat: int, deck: Sequence[int] = CARDS) -> None:
        self.lines = list(lines)
        self.me = f"p{seat + 1}"
        self.parsed = [_split(line) for line in self.lines]
        named: set[Card] = set()
        for parts, comment in self.parsed:
            if len(parts) >= 2 and parts[1] == "sm":
                continue  # shows are the engine's own (see build): free for stand-ins
            for t in [*parts, *comment]:
                with contextlib.suppress(CardError):
                    named.add(_card(t))
        self.deck = [CARDS[c] for c in deck]
        """The game's deck (52 cards, or a short deck's 36)."""
        self.free: Iterator[Card] = (c for c in self.deck if c not in named)
        self.hands: dict[str, list[Card]] = {}
        self.up_needed: dict[str, list[Card]] = {}   # turned up later: never thrown
        self.throws: dict[str, list[int]] = {}       # how many each later discard throws
        self.to_pool: dict[str, list[Card]] = {}     # known pool cards it must discard
        self.draws: list[tuple[str, Card | None]] = []
        self.wild: tuple[int, Card] | None = None
        self.my_discards: set[Card] = set()
        self.pool_order: list[Card] | None = None
        self.pool_next = 0
        self.thrown: dict[str, list[Card]] = {}
        self._scan()

    def _scan(self) -> None:
        pick: int | None = None
        for parts, comment in self.parsed:
            if not parts:
                if len(comment) >= 3 and comment[0] == "roll" and comment[1] != self.me:
                    self.up_needed.setdefault(comment[1], []).append(_card(comment[2]))
                continue
            if parts[0] == "d" and len(parts) >= 3 and parts[1] == "pd":
                card = None if parts[3] == "??" else _card(parts[3])
                self.draws.append((parts[2], card))
            elif parts[0] == "d" and len(parts) >= 3 and parts[1] == "wild" and pick is not None:
                self.wild = (pick, _card(parts[2]))
            elif parts[0] == self.me and len(parts) >= 2 and parts[1] == "dis":
                self.my_discards |= {_card(c) for c in parts[2:]}
            elif parts[0] != "d" and len(parts) >= 3 and parts[1] == "wild":
                pick = int(parts[2])
            elif parts[0] != "d" and parts[0] != self.me and len(parts) >= 2:
                if parts[1] == "exp" and len(parts) >= 3:
                    self.up_needed.setdefault(parts[0], []).append(_card(parts[2]))
                elif parts[1] in ("dis", "sd", "draw"):
                    self.throws.setdefault(parts[0], []).append(len(parts) - 2)
        # a card another seat turned up that the seat itself discarded: that seat
        # drew it from the pool
        self.via_pool = {s: [c for c in cs if c in self.my_discards]
                         for s, cs in self.up_needed.items()}
        # cards the seat drew from the pool (or turned as the wild card) that it
        # did not discard itself: another seat discarded them
        needed = [c for s, c in self.draws if s == self.me and c is not None]
        if self.wild is not None:
            needed.append(self.wild[1])
        others = [s for s in self.throws if s != self.me]
        room = {s: self.throws[s][0] if self.throws[s] else 0 for s in others}
        for c in needed:
            if c in self.my_discards:
                continue
            s = next((s for s in others if room[s] > len(self.to_pool.get(s, []))), None)
            if s is None:
                raise HistoryError("a pool card the seat drew "
                                "has no discarder")
            self.to_pool.setdefault(s, []).append(c)

    def _filler(self) -> Card:
        try:
            return next(self.free)
        except StopIteration:
            raise _OutOfCards("the deck runs out (a reshuffle): stand-in cards cannot be "
                              "drawn from a reshuffle") from None

    def _keep(self, s: str) -> set[Card]:
        return set(self.up_needed.get(s, []))

    def _deal(self, s: str, count: int) -> list[Card]:
        hand = self.hands.setdefault(s, [])
        keep = self._keep(s)
        later = [c for c in self.up_needed.get(s, [])
                 if c not in hand and c not in self.via_pool.get(s, [])]
        throws = self.throws.get(s, [])
        next_throw = throws[0] if throws else 0
        pool = [c for c in self.to_pool.get(s, []) if c not in hand]
        held_needed = sum(1 for c in hand if c in keep)
        room = len(hand) + count - next_throw - held_needed
        cards = later[:max(0, min(count, room))]
        cards += pool[:count - len(cards)]
        while len(cards) < count:
            cards.append(self._filler())
        hand.extend(cards)
        return cards

    def _throw(self, s: str, count: int) -> list[Card]:
        hand = self.hands.setdefault(s, [])
        if self.throws.get(s):
            self.throws[s].pop(0)
        keep = self._keep(s)
        first = [c for c in self.to_pool.get(s, []) if c in hand]
        rest = [c for c in hand if c not in keep and c not in first]
        out = (first + rest)[:count]
        if len(out) < count:
            raise HistoryError("a player throws cards it turns up later")
        for c in out:
            hand.remove(c)
        return out

    def _pool_card(self, s: str) -> Card:
        assert self.pool_order is not None
        card = self.pool_order[self.pool_next]
        self.pool_next += 1
        self.hands.setdefault(s, []).append(card)
        return card

    def _make_pool(self) -> list[Card]:
        pool = set(self.my_discards)
        for thrown in self.thrown.values():
            pool |= set(thrown)
        mine = [c for s, c in self.draws if s == self.me and c is not None]
        reserved = set(mine) | ({self.wild[1]} if self.wild else set())
        wanted = {s: list(cs) for s, cs in self.via_pool.items()}
        reserved |= {c for cs in wanted.values() for c in cs}
        spare = [c for c in self.deck if c in pool and c not in reserved]
        order: list[Card] = []
        for s, c in self.draws:
            if c is None and wanted.get(s):
                c = wanted[s].pop(0)
            if c is None:
                if not spare:
                    raise HistoryError("the pool runs short")
                c = spare.pop(0)
            order.append(c)
        rest = [c for c in self.deck if c in pool and c not in order
                and (self.wild is None or c != self.wild[1])]
        if self.wild is not None:
            rest.insert(min(self.wild[0], len(rest)), self.wild[1])
        return order + rest

    def build(self) -> tuple[list[str], list[dict[str, Any]]]:
        """The stand-in lines and ``_shuffles`` (the pool's order, if any)."""
        out: list[str] = []
        shuffles: list[dict[str, Any]] = []
        for line, (parts, _) in zip(self.lines, self.parsed, strict=True):
            if len(parts) >= 2 and parts[1] == "sm":
                out.append("#")  # shows: the engine's own (a placeholder keeps the numbering)
                continue
            if len(parts) >= 3 and parts[0] == "d" and parts[2] != self.me \
                    and parts[1] in ("dh", "du", "pd"):
                s = parts[2]
                if parts[1] == "du":
                    self.hands.setdefault(s, []).extend(_card(c) for c in parts[3:])
                    out.append(line)
                elif parts[1] == "dh":
                    cards = self._deal(s, len(parts) - 3)
                    out.append(f"d dh {s} " + "".join(str(c) for c in cards))
                else:
                    if self.pool_order is None:
                        self.pool_order = self._make_pool()
                        shuffles.append({"label": "pool",
                                         "cards": " ".join(str(c) for c in self.pool_order)})
                    self._pool_card(s)
                    out.append("#")  # the pool's order deals it
                continue
            if len(parts) >= 3 and parts[:3] == ["d", "pd", self.me]:
                if self.pool_order is None:
                    self.pool_order = self._make_pool()
                    shuffles.append({"label": "pool",
                                     "cards": " ".join(str(c) for c in self.pool_order)})
                self.pool_next += 1
                out.append(line)
                continue
            if len(parts) >= 2 and parts[:2] == ["d", "burn"]:
                out.append(f"d burn {self._filler()}")
                continue
            if len(parts) >= 2 and parts[0] not in ("d", self.me) \
                    and parts[1] in ("dis", "sd", "draw", "stack"):
                s, code, count = parts[0], parts[1], len(parts) - 2
                if code == "stack":
                    hand = self.hands.get(s, [])
                    rolls = [c for c in self.up_needed.get(s, []) if c in hand]
                    order = rolls + [c for c in hand if c not in rolls]
                    self.hands[s] = order
                    out.append(f"{s} {action_to_text(Stack(tuple(order)))}")
                    continue
                thrown = self._throw(s, count)
                self.thrown.setdefault(s, []).extend(thrown)
                action = Discard(tuple(thrown)) if code == "dis" else Draw(tuple(thrown))
                out.append(f"{s} {action_to_text(action)}")
                continue
            out.append(line)
        return out, shuffles

