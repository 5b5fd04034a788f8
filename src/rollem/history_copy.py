"""A player's own copy of a history (:func:`rollem.history.redact`), checked.

A copy hides the other players' face-down cards (``??``), so it cannot be
replayed as it is. It can be replayed with *stand-in* cards: every ``??``
gets a card nobody named, chosen so that the hand plays out as the copy says
(the others keep the cards they later turn up; the cards the seat drew from
the Roll Your Own pool, and the wild card, are in the pool; a 5-2-1 stacking
rolls up the cards the copy shows rolled). The stand-in hand is checked:
redacted again for the seat, it must give the copy's lines exactly (shows
aside), so the seat saw the same in both hands, and a finished copy's
recorded pots must be the stand-in hand's, its nets what those pots give.
Its showdown is the engine's on the real cards the copy shows
(:func:`_check_showdown`): descriptions, who shows, each pot's winners and
halves, and a mucked own hand that would have won is refused.
A hand that ran out of cards and reshuffled is replayed up to the
reshuffle, and its whole betting (turn order, bets, pots, nets) on an
onlooker's lines with every draw a stand pat. A copy that passes describes a
hand that can happen; one that fails (cards named twice, an action out of
turn or over a stack, a bad field) is refused with the engine's reason.

:func:`own_copy_hand` is the one check: ``rollem replay`` (and
:func:`rollem.narration.narrate_history`) run it before telling a copy, and
``rollem odds --history`` replays a copy's stand-in hand for the copy's seat.
"""

from __future__ import annotations

import contextlib
import copy
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import tomli_w

from rollem.cards import CARDS, Card, CardError, parse_card
from rollem.engine.actions import Discard, Draw, Stack, action_to_text
from rollem.engine.hand import Hand
from rollem.engine.result import HandOutcome, outcome_from_dict
from rollem.history import (
    HistoryError,
    _card_tokens,
    _turned_up,
    parse_history,
    redact,
    replay,
    same_words,
    write_history,
)

__all__ = ["IMPOSSIBLE", "action_points", "is_own_copy", "last_stand_in_point",
           "own_copy_hand"]

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

    def __init__(self, lines: Sequence[str], seat: int) -> None:
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
        self.free: Iterator[Card] = (c for c in CARDS if c not in named)
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
        spare = [c for c in CARDS if c in pool and c not in reserved]
        order: list[Card] = []
        for s, c in self.draws:
            if c is None and wanted.get(s):
                c = wanted[s].pop(0)
            if c is None:
                if not spare:
                    raise HistoryError("the pool runs short")
                c = spare.pop(0)
            order.append(c)
        rest = [c for c in CARDS if c in pool and c not in order
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


def _canon(parts: Sequence[str]) -> tuple[str, ...]:
    """A line's tokens in the engine's spelling: each card as the engine writes it
    (``qs`` -> ``Qs``), ``draw`` (format version 1) as ``sd``."""
    out = []
    for t in parts:
        try:
            out.append(str(_card(t)))
        except CardError:
            out.append(t)
    if len(out) >= 2 and out[0] != "d" and out[1] == "draw":
        out[1] = "sd"
    return tuple(out)


def _normal(lines: Sequence[str]) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    """The lines compared (index, cards, comment), in the engine's spelling
    (:func:`_canon`): all but shows, blank lines and a reader's own notes. The
    comments that say what happened are kept (a dealer line's label, ``# stop``,
    ``# flop``, its first word only; the ``# roll`` and ``# reshuffle`` lines);
    any other comment is a note, which a copy may gain or lose."""
    out = []
    for i, line in enumerate(lines):
        parts, comment = _split(line)
        if len(parts) >= 2 and parts[1] == "sm":
            continue
        if parts and parts[0] != "d":
            comment = []  # on a player's line: a note
        elif parts:
            comment = comment[:1]  # a dealer line's label
        elif comment[:1] not in (["roll"], ["reshuffle"]):
            continue  # a comment line: a note
        out.append((i, _canon(parts), tuple(comment)))
    return out


def _omissible(parts: Sequence[str]) -> bool:
    """Whether a line the hand gives may be left out of a copy, as out of a
    hand-written full history (:func:`rollem.history.replay`): a dealer line,
    or a ``# roll`` / ``# reshuffle`` line (the engine's comments)."""
    return not parts or parts[0] == "d"


def _same(mine: tuple[str, ...], line: tuple[str, ...], theirs: tuple[str, ...],
          other: tuple[str, ...]) -> bool:
    """Whether the copy's line (cards ``mine``, comment ``line``) is the hand's
    (``theirs``, ``other``): a dealer line without a label matches any label."""
    if mine != theirs:
        return False
    return line == other or (bool(mine) and mine[0] == "d" and not line)


def _difference(copy: Sequence[str], again: Sequence[str]) -> str | None:
    """The first line of the copy that the hand (``again``, the hand's lines
    redacted for the seat) does not give, in order, or ``None``; the copy may
    leave out the hand's dealer and ``# roll`` / ``# reshuffle`` lines."""
    mine, theirs = _normal(copy), _normal(again)
    j = 0
    for i, parts, comment in mine:
        start = j
        while j < len(theirs) and not _same(parts, comment, *theirs[j][1:]) \
                and _omissible(theirs[j][1]):
            j += 1
        if j == len(theirs):
            if start == len(theirs):
                return f"line {i + 1} of actions ({copy[i]}) comes after the end of the hand"
            return (f"line {i + 1} of actions ({copy[i]}) is not what the hand gives there "
                    f"({again[theirs[start][0]]})")
        if not _same(parts, comment, *theirs[j][1:]):
            # name the hand's line of the same kind there, if any, else the next one
            near = theirs[start:j + 1]
            k = next((k for k, other, _ in near if other[:2] == parts[:2]), near[0][0])
            return (f"line {i + 1} of actions ({copy[i]}) is not what the hand gives there "
                    f"({again[k]})")
        j += 1
    rest = next((k for k, parts, _ in theirs[j:] if not _omissible(parts)), None)
    if rest is not None:
        return f"the lines stop before the hand gives {again[rest]}"
    return None


def action_points(lines: Sequence[str]) -> list[int]:
    """For each player's action of a copy's ``actions`` lines, the index of its line."""
    return [i for i, line in enumerate(lines) if _is_action(_split(line)[0])]


def last_stand_in_point(lines: Sequence[str]) -> int | None:
    """For a copy's ``actions`` lines that record a reshuffle (a ``# reshuffle``
    line, R-521-5), the most players' actions its stand-in hand can replay:
    those before the action that needed the reshuffle; ``None`` with no
    reshuffle (any point)."""
    first = next((i for i, line in enumerate(lines)
                  if _split(line)[1][:1] == ["reshuffle"] and not _split(line)[0]), None)
    if first is None:
        return None
    return max(0, sum(1 for i in action_points(lines) if i < first) - 1)


def _header(data: Mapping[str, Any]) -> tuple[int, list[str]]:
    """The copy's seat and lines, its fields checked as a full history's are."""
    parse_history({k: v for k, v in data.items() if k not in ("_redacted_for", "actions")})
    owner = data.get("_redacted_for")
    n = len(data["starting_stacks"])
    if type(owner) is not int or not 0 <= owner < n:
        raise HistoryError(f"_redacted_for must be a seat of the hand (0 to {n - 1}), "
                           f"got {owner!r}")
    lines = data.get("actions", [])
    if not isinstance(lines, list):
        raise HistoryError("actions must be a list of lines")
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise HistoryError(f"line {i + 1} of actions: each line must be a string")
    return owner, list(lines)


def _check_result(data: Mapping[str, Any], hand: Hand) -> None:
    result = data.get("_result")
    if result is None:
        return  # none recorded: as a full history may leave it out (redact keeps one)
    if not isinstance(result, Mapping):
        raise HistoryError("_result must be a table")
    if hand.result is None:
        raise HistoryError(f"{IMPOSSIBLE}: it records a _result but its actions do not "
                           "finish the hand")
    # the pots' chips and who may win them follow from the betting alone; the
    # winners need the hidden cards
    got = [(p["amount"], p["eligible"]) for p in hand.result.to_dict()["pots"]]
    pots = result.get("pots")
    want = [(p.get("amount"), p.get("eligible")) for p in pots if isinstance(p, Mapping)] \
        if isinstance(pots, list) else pots
    if want != got:
        raise HistoryError(f"{IMPOSSIBLE}: its _result pots (amount, eligible) {want!r} "
                           f"differ from its actions' {got!r}")


def _held_at_end(lines: Sequence[str], me: str) -> list[str]:
    """The cards the copy's lines deal ``me`` (``d dh`` / ``d du`` / ``d pd``)
    less those it throws (``dis`` / ``sd`` / ``draw``), in the order dealt: the
    seat's cards at the end, read from the lines (no replay needed)."""
    held: list[str] = []
    for line in lines:
        parts, _ = _split(line)
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "du", "pd") \
                and parts[2] == me:
            held += [str(_card(c)) for c in parts[3:] if c != "??"]
        elif len(parts) >= 2 and parts[0] == me and parts[1] in ("dis", "sd", "draw"):
            for c in parts[2:]:
                with contextlib.suppress(ValueError):
                    held.remove(str(_card(c)))
    return held


def _check_own_cards(lines: Sequence[str], me: str) -> None:
    """The seat's own cards as its lines tell them, for lines not replayed
    (after a reshuffle): no card dealt to it while it holds it, a draw
    (``sd`` / ``draw`` / ``dis``) throws only cards it holds, a stacking
    order (``stack``) is its cards, and it rolls them up in that order
    (R-521-2, R-521-4, R-521-6, R-521-7)."""
    held: list[str] = []
    order: list[str] = []
    for i, line in enumerate(lines):
        parts, comment = _split(line)
        where = f"line {i + 1} of actions ({line})"
        try:
            if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "du", "pd") \
                    and parts[2] == me:
                for c in (str(_card(t)) for t in parts[3:] if t != "??"):
                    if c in held:
                        raise HistoryError(f"{IMPOSSIBLE}: {where} deals you {c}, which you "
                                           "hold already")
                    held.append(c)
            elif len(parts) >= 2 and parts[0] == me and parts[1] in ("sd", "draw", "dis"):
                for c in (str(_card(t)) for t in parts[2:]):
                    if c not in held:
                        raise HistoryError(f"{IMPOSSIBLE}: {where} throws {c}, which is not "
                                           f"one of your cards ({' '.join(held)})")
                    held.remove(c)
            elif len(parts) >= 2 and parts[:2] == [me, "stack"]:
                order = [str(_card(t)) for t in parts[2:]]
                if sorted(order) != sorted(held):
                    raise HistoryError(f"{IMPOSSIBLE}: {where} stacks cards that are not "
                                       f"your cards ({' '.join(held)})")
            elif not parts and comment[:2] == ["roll", me] and len(comment) >= 3:
                c = str(_card(comment[2]))
                if not order or order[0] != c:
                    top = f"{order[0]} on top" if order else "no card"
                    raise HistoryError(f"{IMPOSSIBLE}: {where} rolls up {c}, but your "
                                       f"stacking order has {top}")
                order.pop(0)
        except CardError as err:
            raise HistoryError(f"{IMPOSSIBLE}: {where}: {err}") from None


def _check_shows(data: Mapping[str, Any], lines: Sequence[str], seat: int,
                 hand: Hand | None) -> None:
    """The copy's shows (``sm`` lines), which the stand-in hand cannot check (its
    shows are of stand-ins): each names cards, none twice; the seat's own are
    cards it held; another seat's are no card the seat saw elsewhere at the end
    (its own cards, the board, a dead card, the wild card, a third seat's up
    cards; a folded seat's cards went to the muck, which a reshuffle reuses).
    """
    me = f"p{seat + 1}"
    parsed = [_split(line) for line in lines]
    # a folded seat's cards went to the muck, which only a later reshuffle (R-521-5)
    # deals again: without one they are still out of play at the showdown
    reshuffles = [i for i, (parts, comment) in enumerate(parsed)
                  if not parts and comment[:1] == ["reshuffle"]]
    folded = {parts[0] for i, (parts, _) in enumerate(parsed)
              if len(parts) >= 2 and parts[1] == "f" and any(r > i for r in reshuffles)}
    if hand is not None:
        mine = [str(c) for c in hand.view(seat).seats[seat].cards if c is not None]
    else:  # no stand-in hand to the end (a reshuffle): the seat's cards as its lines say
        try:
            mine = _held_at_end(lines, me)
        except CardError as err:
            raise HistoryError(f"{IMPOSSIBLE}: {err}") from None
    seen: dict[str, str] = {} if me in folded else {c: "one of your cards" for c in mine}
    for parts, _ in parsed:
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("db", "dead", "wild"):
            place = {"db": "on the board", "dead": "a dead card", "wild": "the wild card"}
            seen.update((str(_card(c)), place[parts[1]]) for c in parts[2:])
    for s, cards in _turned_up(lines).items():
        if s not in folded and s != me:
            seen.update((str(_card(c)), f"{s}'s up card") for c in cards)
    for i, (parts, _) in enumerate(parsed):
        if len(parts) < 3 or parts[1] != "sm":
            continue
        where = f"line {i + 1} of actions ({lines[i]})"
        try:
            cards = [str(_card(c)) for c in parts[2:]]
        except CardError as err:
            raise HistoryError(f"{IMPOSSIBLE}: {where}: {err}") from None
        twice = next((c for c in cards if cards.count(c) > 1), None)
        if twice is not None:
            raise HistoryError(f"{IMPOSSIBLE}: {where} shows {twice} twice")
        for c in cards:
            if parts[0] == me and c not in mine:
                raise HistoryError(f"{IMPOSSIBLE}: {where} shows {c}, which is not one of "
                                   f"your cards ({' '.join(mine)})")
            other = seen.get(c)
            if parts[0] != me and other is not None and other != f"{parts[0]}'s up card":
                raise HistoryError(f"{IMPOSSIBLE}: {where} shows {c}, which is {other}")
    _check_shown_cards(data, parsed)


def _check_shown_cards(data: Mapping[str, Any],
                       parsed: Sequence[tuple[list[str], list[str]]]) -> None:
    """A recorded ``_result.shown_cards`` entry (seat -> cards) must be the cards
    of one of that seat's show lines (``pN sm``; order aside, as :func:`redact`
    reorders them): the result tells the showdown the lines tell."""
    result = data.get("_result")
    shown = result.get("shown_cards") if isinstance(result, Mapping) else None
    if shown is None:
        return
    if not isinstance(shown, Mapping):
        raise HistoryError("_result.shown_cards must be a table (seat -> cards)")
    shows: dict[str, list[set[str]]] = {}
    for parts, _ in parsed:
        if len(parts) >= 3 and parts[1] == "sm":
            shows.setdefault(parts[0], []).append({str(_card(c)) for c in parts[2:]})
    for s, cs in shown.items():
        if not str(s).isdigit() or not isinstance(cs, list):
            raise HistoryError(f"_result.shown_cards: {s!r} = {cs!r} is not a seat's "
                               "list of cards")
        try:
            cards = {str(_card(c)) for c in cs}
        except (CardError, TypeError) as err:
            raise HistoryError(f"_result.shown_cards.{s}: {err}") from None
        who = f"p{int(s) + 1}"
        if cards not in shows.get(who, []):
            told = " / ".join(" ".join(sorted(c)) for c in shows.get(who, [])) or "none"
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards says {who} showed "
                               f"{' '.join(map(str, cs))}, but its show lines say {told}")


def _check_net(data: Mapping[str, Any]) -> None:
    """A recorded ``_result.net`` (seat -> chips won or lost): no seat loses more
    than its stack, and the hand makes no chips: the nets sum to the chips
    carried in less those carried out (``_carry_in`` - ``_result.carried``)."""
    result = data.get("_result")
    net = result.get("net") if isinstance(result, Mapping) else None
    if net is None:
        return
    stacks = data["starting_stacks"]
    if not isinstance(net, Mapping) or not all(
            str(s).isdigit() and int(s) < len(stacks) and type(c) is int
            for s, c in net.items()):
        raise HistoryError(f"_result.net must be a table of seats (0 to {len(stacks) - 1}) "
                           f"and whole chips, got {net!r}")
    for s, c in net.items():
        if c < -stacks[int(s)]:
            raise HistoryError(f"{IMPOSSIBLE}: its _result.net says seat {s} lost {-c}, more "
                               f"than its stack ({stacks[int(s)]})")
    carried = result.get("carried", 0) if isinstance(result, Mapping) else 0
    carry_in = data.get("_carry_in", 0)
    if type(carried) is int and type(carry_in) is int \
            and sum(net.values()) != carry_in - carried:
        raise HistoryError(f"{IMPOSSIBLE}: its _result.net sums to {sum(net.values())}, not "
                           f"{carry_in - carried} (chips carried in {carry_in}, carried out "
                           f"{carried}): a hand makes no chips")


def _check_bets(data: Mapping[str, Any], lines: Sequence[str]) -> None:
    """No bet or raise (``pN cbr X``, to ``X`` in the round) beyond the seat's
    whole stack: what can be checked of lines not replayed (after a reshuffle)."""
    stacks = data["starting_stacks"]
    for i, line in enumerate(lines):
        parts, _ = _split(line)
        if len(parts) < 3 or parts[1] != "cbr" or not parts[0][1:].isdigit():
            continue
        s = int(parts[0][1:]) - 1
        if not parts[2].isdigit() or not 0 <= s < len(stacks):
            raise HistoryError(f"{IMPOSSIBLE}: line {i + 1} of actions ({line}): a bet names "
                               "a seat of the hand and whole chips")
        if int(parts[2]) > stacks[s]:
            raise HistoryError(f"{IMPOSSIBLE}: line {i + 1} of actions ({line}) bets "
                               f"{parts[2]}, more than {parts[0]}'s stack ({stacks[s]})")


def _check_winnings(data: Mapping[str, Any], hand: Hand) -> None:
    """A recorded ``_result.net`` against its pots: each seat's net is the chips
    the recorded pots' ``winners`` give it less the chips it put in the pot,
    ``hand.committed`` (antes and bets, an uncalled bet returned), which follow
    from the betting alone (the winners need the hidden cards, so they are
    taken as recorded here, and checked against the shown cards by
    :func:`_check_showdown`). R-C-9, R-C-10."""
    result = data.get("_result")
    if not isinstance(result, Mapping) or hand.result is None:
        return
    net, pots = result.get("net"), result.get("pots")
    if not isinstance(net, Mapping) or not isinstance(pots, list):
        return  # none recorded (or a bad one, which _check_net / _check_result name)
    won = [0] * hand.n
    for i, pot in enumerate(pots):
        winners = pot.get("winners", {}) if isinstance(pot, Mapping) else None
        if not isinstance(winners, Mapping) or not all(
                str(s).isdigit() and int(s) < hand.n and type(c) is int and c >= 0
                for s, c in winners.items()):
            raise HistoryError(f"_result.pots[{i}].winners must be a table of seats (0 to "
                               f"{hand.n - 1}) and whole chips, got {winners!r}")
        for s, c in winners.items():
            won[int(s)] += c
    for s, c in sorted(net.items(), key=lambda item: int(item[0])):
        seat = int(s)
        put_in = hand.committed[seat]
        if c != won[seat] - put_in:
            raise HistoryError(
                f"{IMPOSSIBLE}: its _result.net says seat {s} made {c:+d}, but it put "
                f"{put_in} in the pot and its _result.pots give it {won[seat]}: "
                f"{won[seat] - put_in:+d}")


def _check_finishing_stacks(data: Mapping[str, Any]) -> None:
    """A recorded ``finishing_stacks`` must be each seat's starting stack plus its
    ``_result.net`` (a seat the net leaves out was not dealt in: unchanged), as
    :func:`rollem.history.write_history` writes them (chips carried in or out
    are in the nets). R-C-9."""
    finishing = data.get("finishing_stacks")
    result = data.get("_result")
    net = result.get("net") if isinstance(result, Mapping) else None
    if finishing is None or not isinstance(net, Mapping):
        return
    stacks = data["starting_stacks"]
    if not isinstance(finishing, list) or len(finishing) != len(stacks) or not all(
            type(c) is int for c in finishing):
        raise HistoryError(f"finishing_stacks must be a list of {len(stacks)} whole numbers "
                           f"of chips, got {finishing!r}")
    want = [c + net.get(str(s), 0) for s, c in enumerate(stacks)]
    if finishing != want:
        raise HistoryError(f"{IMPOSSIBLE}: its finishing_stacks {finishing} are not its "
                           f"starting stacks plus its _result.net: {want}")


def _check_showdown(data: Mapping[str, Any], hand: Hand, seat: int,
                    mine: Sequence[Card]) -> None:
    """A recorded showdown against the shown cards (R-C-9..R-C-11, R-521-9).

    The shown hands are real cards (``_result.shown_cards``, checked against
    the show lines by :func:`_check_shown_cards`) and the board, wild card and
    declarations are public lines, so the engine's own showdown step of
    ``hand`` (the stand-in hand, finished) is run again on a copy of it with
    each showing seat holding its shown cards, the seat's own cards ``mine``
    (known to it, shown or not) and every other mucked seat out (a hand that
    mucks wins nothing, R-C-11; a 5-2-1 both-ways declarer that mucks has
    failed, which no other result depends on, R-521-9), every hand shown (so
    described; who shows is not compared: in 5-2-1 a hand that made a mucked
    declarer fail shows, R-C-11). Its descriptions, each pot's winners and
    halves and the chips carried must be the copy's; a mucked own hand that
    would win or tie a share is refused (the engine would have shown it).

    Raises:
        HistoryError: naming the field and what the cards give.
    """
    result = data.get("_result")
    if not isinstance(result, Mapping) or hand.result is None or not hand.result.showdown:
        return
    try:
        told = outcome_from_dict(dict(result))
    except (ValueError, CardError) as err:
        raise HistoryError(str(err)) from None
    recorded = "shown_cards" in result
    if not recorded:  # (a hand-written history's copy) the show lines tell them
        shows = _shows_of(data.get("actions", []), hand, told.shown)
        if shows is None:
            return  # lines left out, as a hand-written history may: nothing to go by
        told.shown_cards = shows
    again = copy.deepcopy(hand)
    assert again.result is not None
    for pot in again.result.pots:  # undo the stand-in showdown's payments
        for s, chips in pot.winners.items():
            again.stacks[s] -= chips
    again.result = None
    for s in range(again.n):
        if again.folded[s]:
            continue
        cards = list(told.shown_cards.get(s, mine if s == seat else ()))
        if not cards:
            again.folded[s] = True  # mucked: out of the pots (R-C-11)
            again.n_live -= 1
            continue
        if len(cards) != len(again.hole[s]):
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards gives p{s + 1} "
                               f"{len(cards)} cards, but p{s + 1} holds {len(again.hole[s])}")
        again.hole[s] = cards
        again.stacks[s] = 0  # as if all in: every hand shows, described (R-C-11)
    for s in told.shown_cards:
        if not 0 <= s < again.n or again.folded[s]:
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards names seat {s}, which "
                               "is not in the hand at the showdown")
    try:
        again.steps[again.step_index - 1].start(again)
    except ValueError as err:  # (an EngineError too) a pot no shown hand contests
        raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards leave a pot that no shown "
                           f"hand contests ({err})") from None
    got = _outcome(again)
    for s, words in sorted(told.shown.items()):
        if s in told.shown_cards and not same_words(words, got.shown.get(s)):
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown says p{s + 1} has {words!r}, "
                               f"but its shown cards ({_cards(told.shown_cards.get(s, ()))}) "
                               f"make {got.shown[s]!r}")
    if seat not in told.shown_cards and not hand.folded[seat]:
        won = {i: p.winners.get(seat, 0) for i, p in enumerate(got.pots)}
        share = next(((i, c) for i, c in won.items() if c > 0), None)
        if share is not None:
            raise HistoryError(f"{IMPOSSIBLE}: you muck {_cards(mine)}, which win "
                               f"{share[1]} of pot {share[0]} against the hands shown: "
                               "the engine would have shown them (R-C-11)")
    if recorded and set(told.shown) != set(told.shown_cards):
        raise HistoryError(f"{IMPOSSIBLE}: its _result.shown describes seats "
                           f"{_seats(told.shown)}, but seats {_seats(told.shown_cards)} show")
    if [p.amount for p in got.pots] != [p.amount for p in told.pots]:
        raise HistoryError(f"{IMPOSSIBLE}: its _result pots {[p.amount for p in told.pots]} "
                           "are not the pots the shown hands contest "
                           f"{[p.amount for p in got.pots]}")
    for i, (g, t) in enumerate(zip(got.pots, told.pots, strict=True)):
        for field in ("winners", "high", "low"):
            want, have = getattr(g, field), getattr(t, field)
            if field != "winners" and not want and not have:
                continue  # no such half (a high-only game, or a pot taken whole)
            if (want or {}) != (have or {}):
                raise HistoryError(
                    f"{IMPOSSIBLE}: its _result.pots[{i}].{field} is {_chips(have or {})}, "
                    f"but the shown hands give {_chips(want or {})}")
    if got.carried != told.carried:
        raise HistoryError(f"{IMPOSSIBLE}: its _result.carried is {told.carried}, but the "
                           f"shown hands carry {got.carried}")


def _shows_of(lines: Sequence[str], hand: Hand,
              shown: Mapping[int, str]) -> dict[int, tuple[Card, ...]] | None:
    """Without ``_result.shown_cards``: each seat's showdown cards from its first
    show line (``pN sm``; a show by choice comes later), for the seats ``shown``
    describes, or (none described) every seat still in the hand that shows;
    ``None`` when a seat still in the hand has no show line (left out)."""
    out: dict[int, tuple[Card, ...]] = {}
    seen: set[int] = set()
    for line in lines:
        parts, _ = _split(line)
        if len(parts) < 2 or parts[1] != "sm" or not parts[0][1:].isdigit():
            continue
        s = int(parts[0][1:]) - 1
        if s in seen or not 0 <= s < hand.n or hand.folded[s]:
            continue
        seen.add(s)
        if len(parts) > 2 and (not shown or s in shown):
            out[s] = tuple(_card(c) for c in parts[2:])
    if any(not hand.folded[s] and s not in seen for s in range(hand.n)):
        return None
    return out


def _outcome(hand: Hand) -> HandOutcome:
    assert hand.result is not None
    return hand.result


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(CARDS[c]) for c in cards)


def _seats(table: Mapping[int, Any]) -> str:
    return ", ".join(f"p{s + 1}" for s in sorted(table)) or "none"


def _chips(table: Mapping[int, int]) -> str:
    return ", ".join(f"p{s + 1} {c}" for s, c in sorted(table.items())) or "nobody"


def _draw_after_an_up_card(lines: Sequence[str]) -> bool:
    """Whether a draw (``sd``) comes after a card was turned up (``d du``,
    ``exp``, a roll): a draw may throw an up card, which the copy does not
    tell (its discards are ``??``), so without the draws the cards showing,
    which may decide who acts first (R-C-8), could differ. No shipped game
    does so (5-2-1 rolls after its draws)."""
    up = False
    for line in lines:
        parts, comment = _split(line)
        if (len(parts) >= 3 and parts[:2] == ["d", "du"]) or \
                (len(parts) >= 2 and parts[0] != "d" and parts[1] == "exp") or \
                (not parts and comment[:1] == ["roll"]):
            up = True
        elif up and len(parts) >= 2 and parts[0] != "d" and parts[1] in ("sd", "draw"):
            return True
    return False


def _without_draws(lines: Sequence[str], n: int) -> list[str]:
    """The lines of an onlooker's copy of the copy (every seat's face-down cards
    and choices ``??``, :func:`rollem.history.redact` for no seat) with every
    draw a stand pat (``pN sd``) and its replacement cards and reshuffles gone
    (``#``, so each line keeps its number). The betting, the turn order, the
    cards turned up and the pots are the hand's: no betting depends on a
    seat's face-down cards or on what it draws (R-521-2..R-521-7), and the
    draws no longer run the deck out."""
    onlooker = redact({"actions": list(lines)}, n)["actions"]
    out: list[str] = []
    drawing: str | None = None  # the seat whose replacement cards may come next
    for line in onlooker:
        parts, comment = _split(line)
        if not parts and comment[:1] == ["reshuffle"]:
            out.append("#")
            continue
        if len(parts) >= 3 and parts[:2] == ["d", "dh"] and parts[2] == drawing:
            out.append("#")  # the replacement cards of the draw just before
            drawing = None
            continue
        drawing = None
        if len(parts) >= 2 and parts[0] != "d" and parts[1] in ("sd", "draw"):
            out.append(f"{parts[0]} sd")
            drawing = parts[0] if len(parts) > 2 else None
            continue
        out.append(line)
    return out


def _stand_in_hand(data: Mapping[str, Any], seat: int, cut: list[str]) -> Hand:
    """The hand of the copy's lines ``cut`` with stand-ins, checked (not its result).

    Raises:
        _OutOfCards: the lines need more cards than the deck holds.
        HistoryError: the lines describe no hand that can happen.
    """
    try:
        built, shuffles = _StandIns(cut, seat).build()
    except _OutOfCards:
        raise
    except (CardError, ValueError, IndexError) as err:
        raise HistoryError(f"{IMPOSSIBLE}: {err}") from None
    full = {k: v for k, v in data.items()
            if k not in ("_redacted_for", "_result", "finishing_stacks", "_deck", "_shuffles")}
    full["actions"] = built
    full["_shuffles"] = shuffles
    try:
        hand = replay(tomli_w.dumps(full), check_result=False)
    except HistoryError as err:
        raise HistoryError(f"{IMPOSSIBLE}: {err}") from None
    again = redact(tomllib.loads(write_history(hand)), seat)["actions"]
    differs = _difference(cut, again)
    if differs is not None:
        raise HistoryError(f"{IMPOSSIBLE}: {differs}")
    return hand


def own_copy_hand(data: Mapping[str, Any], *, actions: int | None = None) -> Hand:
    """The hand of ``data`` (a player's own copy as a dict, ``_redacted_for``
    a seat) replayed with stand-in cards where it shows ``??``: after its
    first ``actions`` players' actions (dealer lines are not counted), or
    (``None``) all its lines, then its shows must name cards that can be
    there and a recorded ``_result``'s pots (amount, eligible seats) must be
    the hand's. Redacted again for the seat, the hand
    gives the copy's lines (shows aside). R-C-13.

    The lines are compared as the engine spells them (:func:`_canon`), and
    the copy may leave out dealer lines and ``_result`` as a hand-written
    full history may: every copy :func:`rollem.history.redact` makes of a
    history :func:`rollem.history.replay` accepts passes.

    A recorded ``_result.net`` must be what the recorded pots' winners give
    each seat less the chips it put in (R-C-9), ``finishing_stacks`` the
    starting stacks plus the nets, and the recorded showdown the engine's
    on the shown cards (:func:`_check_showdown`: descriptions, who shows,
    each pot's winners and 5-2-1 halves, R-C-11, R-521-9); the seat's own
    mucked hand may not win or tie a share.

    A hand that ran out of cards reshuffled its discards (a ``# reshuffle``
    line), which stand-ins cannot follow: with ``actions=None`` its lines
    before the action that needed the first reshuffle are replayed (and that
    hand returned, :func:`last_stand_in_point`); of the rest, what the lines
    alone tell is checked (no bet beyond a stack, the seat's own cards
    through its draws, stacking and rolls, the shows, and
    ``_result.shown_cards`` / ``net``), then the whole hand's betting
    without its draws (:func:`_without_draws`, an onlooker's lines replayed
    with stand-ins): whose turn each action is, each bet, and the pots,
    nets and showdown against ``_result``. (A game file's draw after a card turned up
    skips that last check, :func:`_draw_after_an_up_card`.) What stays
    unchecked after a reshuffle: which cards the others could have drawn
    from it. With ``actions`` past the reshuffle the copy is refused.

    Raises:
        HistoryError: a bad field (as :func:`rollem.history.read_history`
            says it), ``actions`` out of range or past a reshuffle, or lines
            that describe no hand that can happen (the message starts with
            :data:`IMPOSSIBLE` and gives the engine's reason or the first
            line that differs).
    """
    seat, lines = _header(data)
    points = action_points(lines)
    if actions is not None and not 0 <= actions <= len(points):
        raise HistoryError(f"the copy has {len(points)} player actions, not {actions}")
    cut = lines[:points[actions]] if actions is not None and actions < len(points) else lines
    last = last_stand_in_point(lines)
    if last is not None and (actions is None or actions > last):
        # The hand ran out of cards and reshuffled its discards, which stand-ins
        # cannot follow, and the cards named after it are reused ones (so never
        # held against the cards before it): the lines before the action that
        # needed it are checked, the rest is told as recorded.
        if actions is not None:
            raise HistoryError(f"this copy cannot be replayed with stand-in cards after action "
                               f"{last}: the hand then reshuffled (a # reshuffle line), whose "
                               f"order the copy hides; choose a point from 0 to {last}")
        for k in range(last, -1, -1):
            with contextlib.suppress(_OutOfCards):
                hand = _stand_in_hand(data, seat, lines[:points[k]])
                break
        else:
            raise HistoryError(f"{IMPOSSIBLE}: it needs more cards than the deck holds "
                               "before its first reshuffle")
        # the rest: what the lines alone can tell, then the whole hand's turn
        # order, bets and pots, which need no hidden card: the onlooker's lines
        # with every draw a stand pat, replayed with stand-ins
        _check_bets(data, lines)
        _check_own_cards(lines, f"p{seat + 1}")
        _check_shows(data, lines, seat, None)
        _check_net(data)
        if _draw_after_an_up_card(lines):
            return hand  # (a game file's): the cards showing need the draws
        n = len(data["starting_stacks"])
        try:
            betting = _stand_in_hand(data, n, _without_draws(lines, n))
        except _OutOfCards:
            raise HistoryError(f"{IMPOSSIBLE}: it turns up more cards than the deck "
                               "holds") from None
        _check_result(data, betting)
        _check_winnings(data, betting)
        _check_finishing_stacks(data)
        mine = [_card(c) for c in _held_at_end(lines, f"p{seat + 1}")]
        _check_showdown(data, betting, seat, mine)
        return hand
    try:
        hand = _stand_in_hand(data, seat, cut)
    except _OutOfCards:
        raise HistoryError(f"{IMPOSSIBLE}: it needs more cards than the deck holds and "
                           "records no reshuffle") from None
    if actions is None:
        _check_shows(data, lines, seat, hand)
        _check_result(data, hand)
        _check_net(data)
        _check_winnings(data, hand)
        _check_finishing_stacks(data)
        _check_showdown(data, hand, seat, hand.hole[seat])
    return hand
