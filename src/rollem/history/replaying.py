"""Replaying a history through the engine: :func:`replay`, checking every
dealer and show line in place (:class:`_Lines`), and :class:`DealPreset`
for the cards a hand-written history chooses."""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rollem.cards import CARDS, Card, CardError, format_cards, parse_cards
from rollem.engine.actions import (
    Bet,
    Call,
    Check,
    Raise,
    Show,
    action_from_text,
)
from rollem.engine.errors import EngineError
from rollem.engine.hand import Hand
from rollem.engine.randomness import RandomSource, ReplaySource
from rollem.history.compare import differences
from rollem.history.format import (
    DealLine,
    History,
    HistoryError,
    _one_line,
    _p,
    _phh,
)
from rollem.history.reading import history_game, not_a_history, parse_history, read_history


class DealPreset:
    """Supplies chosen cards as they are dealt (hand-written histories, tests).

    ``deals``: ``(key, seat, cards)`` with key ``"p"`` (cards to a seat:
    hole cards and draws, in order), ``"db"`` (board), ``"dead"``, ``"burn"``.
    Any other card comes from the cards not named anywhere, in deck order.
    :attr:`dealt` is the order the cards were dealt in.

    Raises:
        HistoryError: a card named twice (each card exists once, R-C-1).
    """

    def __init__(self, deals: Sequence[tuple[str, int | None, Sequence[int]]],
                 prefix: Sequence[int] = (), deck: Sequence[int] = CARDS) -> None:
        self.queues: dict[tuple[str, int | None], list[Card]] = {}
        named: set[int] = set(prefix)
        if len(named) != len(prefix):
            raise HistoryError("_deck names a card twice; each card exists once")
        for key, seat, cards in deals:
            self.queues.setdefault((key, seat), []).extend(CARDS[c] for c in cards)
            for c in cards:
                if c in named:
                    raise HistoryError(f"card {CARDS[c]} is named twice (in _deck or the "
                                       "dealing lines); each card exists once")
                named.add(c)
        self.prefix = [CARDS[c] for c in prefix]
        self.cards = [CARDS[c] for c in deck]
        """The game's deck (``Game.deck``: 52 cards, or a short deck's 36)."""
        self.free = [c for c in self.cards if c not in named]
        self.dealt: list[Card] = []

    def take(self, hand: Hand, kind: str, seat: int | None) -> Card:
        if len(self.dealt) < len(self.prefix):
            card = self.prefix[len(self.dealt)]
        else:
            if kind in ("board",):
                key: tuple[str, int | None] = ("db", None)
            elif kind in ("dead", "burn"):
                key = (kind, None)
            elif seat is not None:
                key = ("p", seat)
            else:
                key = (kind, None)
            q = self.queues.get(key)
            if q:
                card = q.pop(0)
            elif self.free:
                card = self.free.pop(0)
            else:
                raise EngineError("the stub is empty")
        self.dealt.append(card)
        return card

    def deck(self) -> list[Card]:
        """The full deck order this preset amounts to: cards dealt, then the rest."""
        used = set(self.dealt)
        return self.dealt + [c for c in self.cards if c not in used]


class _FixedSource(RandomSource):
    """Replays given outcomes; beyond them, keeps cards in the order given."""

    def __init__(self, recorded: Sequence[tuple[str, Sequence[int]]]) -> None:
        super().__init__()
        self.inner = ReplaySource(recorded)

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "deck":
            return [CARDS[c] for c in cards]
        if self.inner.unused:
            return self.inner._shuffle(label, cards)
        return [CARDS[c] for c in cards]


def _where(h: History, index: int) -> str:
    """``action 8 (line 13 of actions: p2 cbr 400)``: the player's action by its
    number among the actions (as ``--at``) and by its line in the file."""
    seat, text = h.actions[index]
    if index < len(h.action_lines):
        return f"action {index + 1} (line {h.action_lines[index]} of actions: {_p(seat)} {text})"
    return f"action {index + 1} ({_p(seat)} {text})"


def _apply_text(hand: Hand, h: History, index: int) -> None:
    seat, text = h.actions[index]
    try:
        action = action_from_text(text)
        p = hand.pending
        if p is not None and p.kind == "bet":
            if isinstance(action, Call) and "check" in hand.legal_actions(seat).actions:
                action = Check()
            elif isinstance(action, Raise) and hand.current_bet == 0:
                action = Bet(action.to)
        if isinstance(action, Show):
            raise EngineError("a show is written 'pN sm CARDS'")
        hand.apply(seat, action)
    except (EngineError, CardError, ValueError) as err:
        raise HistoryError(f"{_where(h, index)}: {_one_line(str(err))}") from None


def _fill(prefix: Sequence[int], deck: Sequence[int] = CARDS) -> list[Card]:
    used = set(prefix)
    if len(used) != len(prefix):
        raise HistoryError("_deck names a card twice; each card exists once")
    return [CARDS[c] for c in prefix] + [CARDS[c] for c in deck if c not in used]


def _event_key(kind: str, seat: int | None,
               data: Mapping[str, Any]) -> tuple[str, int | None, tuple[int, ...]] | None:
    """The line an event is written as: ``(code, seat, cards)``, or ``None``."""
    if kind in ("deal_hole", "draw_deal"):
        return ("dh", seat, tuple(data["cards"]))
    if kind == "deal_up":
        return ("du", seat, tuple(data["cards"]))
    if kind == "board":
        return ("db", None, tuple(data["cards"]))
    if kind in ("burn", "dead", "wild"):
        return (kind, None, (data["card"],))
    if kind == "pool_draw":
        return ("pd", seat, (data["card"],))
    if kind == "show" and not data.get("by_choice"):
        return ("show", seat, tuple(data["cards"]))
    if kind == "muck":
        return ("muck", seat, ())
    return None


def _key_text(key: tuple[str, int | None, tuple[int, ...]], cards: bool = True) -> str:
    code, seat, cs = key
    shown = " " + _phh(cs) if cards and cs else ""
    if code in ("show", "muck"):
        return f"{_p(seat)} sm{shown}"
    who = f" {_p(seat)}" if seat is not None else ""
    if not cards:
        n = len(cs)
        return f"d {code}{who} ({n} card{'s' if n != 1 else ''})"
    return f"d {code}{who}{shown}"


class _Lines:
    """Checks a history's dealer and ``sm`` lines against the replay, in order."""

    def __init__(self, hand: Hand, h: History, from_deck: bool) -> None:
        self.hand = hand
        self.h = h
        self.pos = 0  # first event a line may still match
        self.matched: set[int] = set()  # the events a line stood for
        self.source = "_deck" if from_deck else "the dealing lines and the deck order"

    def segment(self) -> None:
        """Lines after the next action match only what that action causes."""
        self.pos = len(self.hand.events)
        self.start = self.pos

    start = 0
    """The first event the next action caused (the segment's start)."""

    def check(self, line: DealLine) -> None:
        hand = self.hand
        events = hand.events
        want = (line.code, line.seat)
        for i in range(self.pos, len(events)):
            e = events[i]
            key = _event_key(e.kind, e.seat, e.data)
            if key is None or (key[0], key[1]) != want:
                continue
            if key[2] != line.cards:
                what = "shows" if line.code == "show" else "deals"
                source = self.source if line.code != "pd" else (
                    "_shuffles, the pool's order" if self.h.shuffles else
                    "_shuffles, the pool's order; none given: the order the cards went in")
                raise HistoryError(f"{line.where()}: the replay {what} {_key_text(key)} here "
                                   f"(the cards come from {source})")
            self.pos = i + 1
            self.matched.add(i)
            return
        earlier = [k for k in (_event_key(e.kind, e.seat, e.data)
                               for e in events[self.start:self.pos]) if k is not None]
        if line.code not in ("show", "muck") and any((k[0], k[1]) == want for k in earlier):
            later = [k for k in (_event_key(e.kind, e.seat, e.data) for e in events[self.pos:])
                     if k is not None]
            order = ", ".join(_p(k[1]) for k in earlier + later
                              if k[0] == line.code and k[1] is not None)
            raise HistoryError(
                f"{line.where()}: out of order: the replay deals d {line.code} to {order} in "
                f"that order (clockwise from the dealer's left; the button is "
                f"{_p(hand.button)}: _button = {hand.button})")
        if line.code == "show" and hand.is_over and line.seat is not None:
            self.show_by_choice(line)
            return
        rest = [k for k in (_event_key(e.kind, e.seat, e.data) for e in events[self.pos:])
                if k is not None]
        if rest:
            nxt = ", ".join(_key_text(k, cards=False) for k in rest[:3])
            raise HistoryError(f"{line.where()}: not what the replay deals or shows here "
                               f"(next: {nxt})")
        if line.code in ("show", "muck"):
            raise HistoryError(f"{line.where()}: nobody shows or mucks here (cards are shown "
                               "at the showdown by the engine, or by choice once the hand "
                               "is over)")
        raise HistoryError(f"{line.where()}: the replay deals nothing here")

    def show_by_choice(self, line: DealLine) -> None:
        seat = line.seat
        assert seat is not None
        hand = self.hand
        held = [c for c in hand.hole[seat]] if 0 <= seat < hand.n else []
        if not hand.dealt[seat]:
            raise HistoryError(f"{line.where()}: {_p(seat)} was not dealt into this hand")
        stray = [c for c in line.cards if c not in held]
        if stray:
            raise HistoryError(f"{line.where()}: {_p(seat)} never held "
                               f"{format_cards(stray)}; a shown hand is the cards dealt "
                               f"to that seat ({format_cards(held)})")
        try:
            hand.apply(seat, Show(line.cards))
        except EngineError as err:
            raise HistoryError(f"{line.where()}: {_one_line(str(err))}") from None


def _run(hand: Hand, h: History, from_deck: bool, *, source: str | None = None) -> _Lines:
    """Apply the players' actions and check every dealer/``sm`` line in place
    (``source``: where the cards come from, for the errors); the lines' checker,
    which knows the events they stood for."""
    lines = _Lines(hand, h, from_deck)
    if source is not None:
        lines.source = source
    todo = [ln for ln in h.lines if ln.anchor <= len(h.actions)]
    j = 0
    for k in range(len(h.actions) + 1):
        while j < len(todo) and todo[j].anchor == k:
            lines.check(todo[j])
            j += 1
        if k < len(h.actions):
            lines.segment()
            _apply_text(hand, h, k)
    return lines


_DEALT = ("dh", "du", "db", "burn", "dead", "pd", "wild")
"""The dealer lines (``d ...``) a full history states for every card dealt."""


def _whole_deck_written(raw: Mapping[str, Any], size: int) -> bool:
    """Whether the history's file (``raw``) gives the whole deck in ``_deck`` (``size``
    cards), as rollem writes every hand; not a hand-written history whose deck a
    caller filled in (``rollem odds --history``)."""
    text = raw.get("_deck")
    try:
        return isinstance(text, str) and len(parse_cards(text)) == size
    except CardError:
        return False


def _every_deal_stated(hand: Hand, lines: _Lines,
                       whole: str = "a history with a whole _deck") -> None:
    """A full history (its whole ``_deck``, as rollem writes it, or a committed
    deck: ``whole`` says which) states every card dealt with its line
    (s62-hist): one left out would be filled in from the deck, so the lines
    would no longer tell the hand (a PHH reader, which does not read
    ``_deck``, would see no cards there). A player's copy has its own rules
    (:func:`rollem.history_copy.own_copy_hand`).

    Raises:
        HistoryError: the first deal with no line, naming the line it needs and
            the action it follows.
    """
    for i, e in enumerate(hand.events):
        key = _event_key(e.kind, e.seat, e.data)
        if key is None or key[0] not in _DEALT or i in lines.matched:
            continue
        actions = bisect.bisect_right(hand.action_marks, i)
        raise HistoryError(
            f"no line {_key_text(key)!r} after action {actions}: {whole} states every card "
            "dealt (one written by hand may leave lines out without _deck, or with its first "
            "cards only)")


def replay(history: History | str | Mapping[str, Any], *, check_result: bool = True) -> Hand:
    """Rebuild the hand of ``history`` (a :class:`History`, TOML text, or its
    table as read, e.g. :func:`history_dict`'s).

    Every dealer line must be what the step at that point deals (kind, seat,
    cards, in order); with a whole ``_deck`` (52 cards, a short deck's 36) every
    card must be the one the
    deck order gives; without it the lines choose the cards (each card named
    once). An ``sm`` line must equal the engine's show (or muck) there; after
    the end of the hand it is a show by choice of cards the seat holds
    (R-C-11). Lines may be left out of a hand-written history.

    Raises:
        TypeError: ``history`` is none of those (bytes, a path, a number): the
            message names its type and what is allowed.
        HistoryError: a bad field, action or line (one line naming the action
            number and line), or (``check_result``) a recorded ``_result``
            different from the replay's.
    """
    if isinstance(history, str):
        h = read_history(history)
    elif isinstance(history, History):
        h = history
    elif isinstance(history, Mapping):
        h = parse_history(history)
    else:
        raise not_a_history("replay", history)
    try:
        return _replay(h, check_result)
    except HistoryError as err:
        old = saved_before_failed_both_shows(h)
        if old is None:
            raise
        try:
            return _replay(old, check_result)
        except HistoryError:
            raise err from None


_MUCK = re.compile(r"p\d+ sm\s*(#.*)?")


def saved_before_failed_both_shows(h: History) -> History | None:
    """``h`` under the house option ``failed_both_mucks``, when it may be a
    declare game's history saved before a failed both-ways declarer had to
    show (s59-tidy, R-521-9): it records a muck (``pN sm`` with no cards)
    and does not set the option; else ``None``. Such a hand replays as it
    was played: with the option, that declarer may muck."""
    from rollem.engine.declare import FAILED_BOTH_MUCKS

    if FAILED_BOTH_MUCKS in h.options.house or not h.raw:
        return None
    lines = h.raw.get("actions")
    if not isinstance(lines, list) or not any(
            isinstance(line, str) and _MUCK.fullmatch(line.strip()) for line in lines):
        return None
    options = replace(h.options, house={**h.options.house, FAILED_BOTH_MUCKS: True})
    return replace(h, options=options)


def _replay(h: History, check_result: bool) -> Hand:
    game = history_game(h.raw) if h.raw else history_game({"variant": f"rollem-{h.game}"})
    from_deck = h.deck is not None and len(h.deck) == len(game.deck)
    try:
        if from_deck:
            assert h.deck is not None
            deck = _fill(h.deck, game.deck)
            outcomes: list[tuple[str, Sequence[int]]] = [("deck", deck), *h.shuffles]
        else:
            # hand-written: a first pass deals the chosen cards to find the deck order
            preset = DealPreset(h.deals, h.deck or (), game.deck)
            first = Hand(game, h.stacks, button=h.button, options=h.options,
                         source=_FixedSource(h.shuffles), carry_in=h.carry_in, preset=preset)
            # (its lines checked as it plays: a line out of order, or a pool draw
            # that _shuffles does not give, is named, not a later action it upsets)
            _run(first, h, False)
            outcomes = [("deck", preset.deck()), *first.source.outcomes[1:]]
        hand = Hand(game, h.stacks, button=h.button, options=h.options,
                    source=ReplaySource(outcomes), carry_in=h.carry_in)
    except EngineError as err:
        raise HistoryError(_one_line(str(err))) from None
    stated = _run(hand, h, from_deck)
    if from_deck and _whole_deck_written(h.raw, len(game.deck)):
        _every_deal_stated(hand, stated)
    if h.raw:
        from rollem.history.copy_checks import check_forced_bets

        check_forced_bets(h.raw, hand)
    if check_result:
        found = differences(h, hand)
        if found:
            raise HistoryError(found[0])
    return hand
