"""Showdown (R-C-9..R-C-11): show order, mucking, pots awarded (cards speak).

:class:`PotShowdown` scores each live seat's hand:

- which cards: the best five of the seat's cards plus the board, or, with
  ``hole`` and ``board`` set, exactly ``hole`` of the seat's cards and exactly
  ``board`` community cards (Omaha: 2 and 3);
- high (R-C-2, or wild with the hand's wild ranks), low ace-to-five (R-C-3,
  with an optional qualifier: ``qualifier=8`` = eight-or-better, no pair and
  no card above an eight), deuce-to-seven (aces high, straights and flushes
  count against; :func:`deuce_to_seven_value`) or badugi (the four cards
  held, :func:`rollem.hands.badugi.badugi_value`; PHH's FB, issue 29).

Each pot (side pots, R-C-9) goes to the best hand(s) among its eligible
seats; ``"high-low"`` splits it in halves (the odd chip to the high half,
R-C-10), the whole pot going high when no eligible hand makes a qualifying
low. Who shows: :func:`must_show` with every winner (R-C-11).

:class:`Showdown` is the high-only case our games use: each live seat's hand
is ``cards_of(hand, seat)`` (default: hole cards plus board, R-SDR-6) scored
by :func:`rollem.hands.high_value`, or by ``wild_value`` with the hand's wild
ranks when ``wild=True`` (R-RYO-8/9); who shows: :func:`decide_shows`.
High-low declare settlement (R-521-9) reuses :func:`showdown_order`,
:func:`must_show` and :func:`rollem.engine.pots.split_pot`. Chips are whole
numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from rollem.cards import CARDS, Card
from rollem.engine.decisions import Pending
from rollem.engine.events import Event
from rollem.engine.pots import build_pots, split_high_low, split_pot
from rollem.engine.public_order import show_event
from rollem.engine.result import PotResult
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

_Win = tuple[int, int, int, str | None]
"""A win: ``(seat, chips, pot index, "high" / "low" / None)``."""

__all__ = [
    "PotShowdown",
    "Showdown",
    "decide_shows",
    "deuce_to_seven_value",
    "hole_and_board",
    "must_show",
    "qualifies",
    "showdown_order",
]

_Scores = dict[int, tuple[int, tuple[Card, ...]]]
_LowScores = dict[int, tuple[int, tuple[Card, ...]] | None]


def hole_and_board(hand: Hand, seat: int) -> list[Card]:
    """A seat's hole cards plus the community cards (R-SDR-6)."""
    return hand.hole[seat] + hand.board


def showdown_order(hand: Hand) -> list[int]:
    """Seats in showing order (R-C-11): the last bettor/raiser of the final
    round first, else the first active player left of the dealer; then clockwise."""
    live = hand.live_from_left()
    first = hand.aggressor
    if first is None or hand.folded[first]:
        return live
    i = live.index(first)
    return live[i:] + live[:i]


def decide_shows(
    hand: Hand,
    order: Sequence[int],
    pots: Sequence[tuple[int, tuple[int, ...]]],
    strength: Mapping[int, int],
) -> list[int]:
    """Which seats show (R-C-11), in order.

    The first seat shows; each later one shows if, in some pot it is eligible
    for, its ``strength`` is at least the best already shown there (it can
    win a share), else it mucks. All-in seats always show.
    """
    best: list[int | None] = [None] * len(pots)
    shown: list[int] = []
    for s in order:
        show = hand.stacks[s] == 0 or not shown
        if not show:
            for i, (_amount, eligible) in enumerate(pots):
                if s in eligible and (best[i] is None or strength[s] >= best[i]):  # type: ignore[operator]
                    show = True
                    break
        if show:
            shown.append(s)
            for i, (_amount, eligible) in enumerate(pots):
                b = best[i]
                if s in eligible and (b is None or strength[s] > b):
                    best[i] = strength[s]
    return shown


def must_show(hand: Hand, order: Sequence[int], needed: Iterable[int]) -> list[int]:
    """Which seats show (R-C-11), in ``order``, when the settlement already says
    which hands matter: the first seat in order, every all-in seat, and every
    seat in ``needed`` (hands that win a share, or that decide another
    player's result, such as a 5-2-1 hand that makes a both-ways declarer
    fail, R-521-9). The others neither win nor change anyone's result and
    muck."""
    need = set(needed)
    return [s for i, s in enumerate(order) if i == 0 or hand.stacks[s] == 0 or s in need]


_WHEEL = (1 << 12) | 0b1111
_STRAIGHT = 4
_STRAIGHT_FLUSH = 8
_HIGH_CARD = 0
_FLUSH = 5


def deuce_to_seven_value(cards: Sequence[Card]) -> int:
    """Deuce-to-seven low value of the best five of ``cards`` (five or more);
    greater is a better low: the worst high hand wins, aces are high only
    (A-2-3-4-5 is ace high, not a straight), straights and flushes count.

    Raises:
        ValueError: fewer than five cards.
    """
    from rollem.hands import high_value
    from rollem.hands.encoding import CATEGORY_SHIFT, pack

    if len(cards) < 5:
        raise ValueError(f"a low hand needs at least five cards, got {len(cards)}")
    best: int | None = None
    for five in combinations(cards, 5):
        v = high_value(five)
        cat = v >> CATEGORY_SHIFT
        if cat in (_STRAIGHT, _STRAIGHT_FLUSH) and ((v >> 16) & 15) == 3:  # the wheel
            v = pack(_FLUSH if cat == _STRAIGHT_FLUSH else _HIGH_CARD, [12, 3, 2, 1, 0])
        if best is None or -v > best:
            best = -v
    assert best is not None
    return best


def qualifies(low: int, qualifier: int) -> bool:
    """True when an ace-to-five ``low`` value (``rollem.hands.low_value``) has no
    pair and no card above rank ``qualifier`` (8 = eight-or-better; 0 = any)."""
    from rollem.hands.encoding import LOW_BASE

    return qualifier == 0 or LOW_BASE - low < (qualifier << 16)


class PotShowdown(Step):
    """Showdown for ``pot`` = ``"high"``, ``"low"`` or ``"high-low"`` (cards speak), with
    hand rules (see the module doc).

    Args:
        pot: which hands win.
        low: ``"ace-to-five"``, ``"deuce-to-seven"`` or ``"badugi"``.
        qualifier: 0, or the highest rank (5..13) a qualifying ace-to-five low may hold.
        hole, board: exact numbers of own and community cards (both 0 = best five of all).
        wild: score high hands with the hand's wild ranks.
        high: ``"standard"`` (R-C-2) or ``"short-deck"`` (a flush beats a full
            house, A-6-7-8-9 is a straight: :mod:`rollem.hands.short_deck`).
    """

    name = "showdown"

    def __init__(self, pot: str, *, low: str = "ace-to-five", qualifier: int = 0,
                 hole: int = 0, board: int = 0, wild: bool = False,
                 high: str = "standard") -> None:
        self.pot = pot
        self.high = high
        self.low = low
        self.qualifier = qualifier
        self.hole = hole
        self.board = board
        self.wild = wild

    def _fives(self, hand: Hand, seat: int) -> list[tuple[Card, ...]]:
        own = hand.hole[seat]
        if self.hole:
            return [h + b for h in combinations(own, self.hole)
                    for b in combinations(hand.board, self.board)]
        cards = tuple(own) + tuple(hand.board)
        return list(combinations(cards, 5)) if len(cards) > 5 else [cards]

    def _high(self, hand: Hand, fives: list[tuple[Card, ...]]) -> tuple[int, tuple[Card, ...]]:
        from rollem import hands as ev

        if self.wild:
            cards = fives[0] if len(fives) == 1 else tuple(sorted(set().union(*fives)))
            return ev.wild_value(
                cards, hand.wild_ranks,
                wild_duplicates=bool(hand.options.get("wild_duplicates", False)),
                natural_beats_wild=bool(hand.options.get("natural_beats_wild", False)),
            ), cards
        if self.high == "short-deck":
            from rollem.hands.short_deck import short_deck_value

            return max((short_deck_value(f), f) for f in fives)
        return max((ev.high_value(f), f) for f in fives)

    def _low(self, fives: list[tuple[Card, ...]]) -> tuple[int, tuple[Card, ...]] | None:
        from rollem import hands as ev

        if self.low == "deuce-to-seven":
            return max((deuce_to_seven_value(f), f) for f in fives)
        if self.low == "badugi":
            from rollem.hands.badugi import badugi_value

            return max((badugi_value(f), f) for f in fives)
        v, f = max((ev.low_value(f), f) for f in fives)
        return (v, f) if qualifies(v, self.qualifier) else None

    def _describe(self, hand: Hand, cards: tuple[Card, ...], low: bool) -> str:
        from rollem import hands as ev

        if low and self.low == "ace-to-five":
            return str(ev.evaluate(cards, low=True).description)
        if low and self.low == "badugi":
            from rollem.hands.badugi import describe_badugi

            return describe_badugi(cards)
        if self.high == "short-deck":
            from rollem.hands.short_deck import describe_short_deck

            return describe_short_deck(cards)
        if self.wild:
            return str(ev.evaluate(
                cards, wild_ranks=hand.wild_ranks,
                wild_duplicates=bool(hand.options.get("wild_duplicates", False)),
                natural_beats_wild=bool(hand.options.get("natural_beats_wild", False)),
            ).description)
        return str(ev.evaluate(cards).description)

    def _score(self, hand: Hand, seats: Sequence[int]) -> tuple[_Scores, _LowScores]:
        """Each live seat's best high (``pot`` not low) and low (``pot`` not high;
        ``None``: no qualifying low): ``(value, the five cards)``."""
        high: _Scores = {}
        low: _LowScores = {}
        for s in seats:
            fives = self._fives(hand, s)
            if self.pot != "low":
                high[s] = self._high(hand, fives)
            if self.pot != "high":
                low[s] = self._low(fives)
        return high, low

    def _showing(self, hand: Hand, order: Sequence[int],
                 pots: Sequence[tuple[int, tuple[int, ...]]], high: _Scores,
                 needed: set[int]) -> set[int]:
        """Who shows (R-C-11): :func:`must_show` with every winner."""
        return set(must_show(hand, order, needed))

    def _description(self, hand: Hand, seat: int, high: _Scores, low: _LowScores) -> str:
        """The words for ``seat``'s shown hand: in a high-low game ``"<high> for high
        and <low> for low"`` or ``"<high> for high, no low"`` (issue 26: a hand's own
        words hold "and", so each half is named), ``"<hand> for high and low"`` where
        both halves have the same words (a paired hand with no ace, no qualifier:
        said once, as :func:`rollem.narration.high_low_words` says it), else the one
        hand."""
        lv = low.get(seat)
        if self.pot == "high-low" and seat in high:
            words = self._describe(hand, high[seat][1], False)
            if lv is None:
                return f"{words} for high, no low"
            low_words = self._describe(hand, lv[1], True)
            if low_words == words:
                return f"{words} for high and low"
            return f"{words} for high and {low_words} for low"
        if seat in high:
            return self._describe(hand, high[seat][1], False)
        return self._describe(hand, lv[1], True) if lv is not None else ""

    def _award(self, hand: Hand, pots: Sequence[tuple[int, tuple[int, ...]]], high: _Scores,
               low: _LowScores) -> tuple[list[PotResult], list[_Win], set[int]]:
        """Each pot's winners: the results, the ``(seat, chips, pot, half)`` wins and
        the seats that win something."""
        results: list[PotResult] = []
        wins: list[_Win] = []
        needed: set[int] = set()
        for i, (amount, eligible) in enumerate(pots):
            lows = {s: lv[0] for s in eligible if (lv := low.get(s)) is not None}
            if self.pot == "low":
                best = max(lows.values(), default=None)  # (None: only forfeited hands)
                won = split_pot(amount, [s for s in eligible
                                         if lows.get(s) == best or best is None],
                                hand.button, hand.n)
                results.append(PotResult(amount, eligible, won))
                wins += [(s, c, i, None) for s, c in won.items()]
                needed.update(won)
                continue
            best_h = max(high[s][0] for s in eligible)
            hi_w = [s for s in eligible if high[s][0] == best_h]
            if self.pot == "high-low" and lows:
                h_amt, l_amt = split_high_low(amount)
                best_l = max(lows.values())
                won_h = split_pot(h_amt, hi_w, hand.button, hand.n)
                won_l = split_pot(l_amt, [s for s, v in lows.items() if v == best_l],
                                  hand.button, hand.n)
                total = dict(won_h)
                for s, c in won_l.items():
                    total[s] = total.get(s, 0) + c
                results.append(PotResult(amount, eligible, total, high=won_h, low=won_l))
                wins += [(s, c, i, "high") for s, c in won_h.items()]
                wins += [(s, c, i, "low") for s, c in won_l.items()]
                needed.update(total)
            else:
                won = split_pot(amount, hi_w, hand.button, hand.n)
                if self.pot == "high-low":
                    results.append(PotResult(amount, eligible, won, high=won, low={}))
                else:
                    results.append(PotResult(amount, eligible, won))
                wins += [(s, c, i, None) for s, c in won.items()]
                needed.update(won)
        return results, wins, needed

    def start(self, hand: Hand) -> Pending | None:
        hand.return_uncalled()
        live = [not f for f in hand.folded]
        pots = build_pots(hand.committed, live, hand.carry_in)
        seats = [s for s in range(hand.n) if live[s]]
        from rollem.engine.runtwice import second_run

        runs = second_run(hand)
        if runs is not None:
            self._run_twice(hand, pots, seats, runs)
            return None
        high, low = self._score(hand, seats)
        for s in hand.forfeit.intersection(seats):  # can win nothing (a PHH muck)
            if s in high:
                high[s] = (-1, high[s][1])
            if s in low:
                low[s] = None
        results, wins, needed = self._award(hand, pots, high, low)
        order = showdown_order(hand)
        showing = self._showing(hand, [s for s in order if s not in hand.forfeit], pots,
                                high, needed)
        shown: dict[int, str] = {}
        shown_cards: dict[int, tuple[Card, ...]] = {}
        for s in order:
            if s in hand.forfeit:  # its cards (stand-ins where the file hides them) unsaid
                hand.muck.extend(hand.hole[s])
                hand.events.append(Event("muck", s, {"hidden": True}))
            elif s in showing:
                desc = self._description(hand, s, high, low)
                shown[s] = desc
                shown_cards[s] = tuple(hand.hole[s])
                hand.events.append(show_event(hand, s, {"cards": list(hand.hole[s]),
                                                        "description": desc}))
            else:
                hand.muck.extend(hand.hole[s])
                # the mucked hand's words for its own seat only (its "it loses to" line)
                hand.events.append(Event("muck", s,
                                         {"description": self._description(hand, s, high, low)},
                                         to=frozenset({s}), public={}))
        self._win_events(hand, wins)
        hand.finish(results, shown=shown, shown_cards=shown_cards)
        return None

    @staticmethod
    def _win_events(hand: Hand, wins: Sequence[_Win], run: int = 0) -> None:
        for s, chips, i, half in wins:
            data: dict[str, object] = {"amount": chips, "pot": i}
            if half is not None:
                data["half"] = half
            if run:
                data["run"] = run
            hand.events.append(Event("win", s, data))

    def _run_twice(self, hand: Hand, pots: Sequence[tuple[int, tuple[int, ...]]],
                   seats: Sequence[int], runs: Sequence[tuple[list[Card], list[Card]]]) -> None:
        """Run it twice (issue 27, :mod:`rollem.engine.runtwice`): each pot split
        between the runs, the odd chip to the first; every hand still in is shown
        (nobody could bet: all-in, R-C-11), with its words for each run."""
        halves = [[((a + 1) // 2, e) for a, e in pots], [(a // 2, e) for a, e in pots]]
        scored = []
        per_run: list[list[PotResult]] = []
        all_wins: list[tuple[int, list[_Win]]] = []
        for k, ((board, dead), run_pots) in enumerate(zip(runs, halves, strict=True)):
            hand.board, hand.dead = list(board), list(dead)
            high, low = self._score(hand, seats)
            scored.append((list(board), high, low))
            results, wins, _needed = self._award(hand, run_pots, high, low)
            per_run.append(results)
            all_wins.append((k + 1, wins))
        hand.board, hand.dead = list(runs[0][0]), list(runs[0][1])
        merged = []
        for i, (amount, eligible) in enumerate(pots):
            parts = [run[i] for run in per_run]
            merged.append(PotResult(amount, eligible, _add(p.winners for p in parts),
                                    high=None if parts[0].high is None
                                    else _add(p.high or {} for p in parts),
                                    low=None if parts[0].low is None
                                    else _add(p.low or {} for p in parts)))
        shown: dict[int, str] = {}
        shown_cards: dict[int, tuple[Card, ...]] = {}
        run_shown: list[dict[str, str]] = [{}, {}]
        for s in showdown_order(hand):
            words = []
            for board, high, low in scored:
                hand.board = board
                words.append(self._description(hand, s, high, low))
            hand.board = list(runs[0][0])
            run_shown[0][str(s)], run_shown[1][str(s)] = words
            shown[s] = words[0]
            shown_cards[s] = tuple(hand.hole[s])
            hand.events.append(show_event(hand, s, {"cards": list(hand.hole[s]),
                                                    "description": words[0],
                                                    "second_run": words[1]}))
        for run, wins in all_wins:
            self._win_events(hand, wins, run)
        hand.extra["run_twice"]["runs"] = [
            {"board": list(board), "dead": list(dead), "pots": [p.to_dict() for p in res]}
            for (board, dead), res in zip(runs, per_run, strict=True)]
        told = [{"board": [str(CARDS[c]) for c in board], "dead": [str(CARDS[c]) for c in dead],
                 "pots": [p.to_dict() for p in res], "shown": words}
                for (board, dead), res, words in zip(runs, per_run, run_shown, strict=True)]
        hand.finish(merged, shown=shown, shown_cards=shown_cards, runs=told)


def _add(tables: Iterable[Mapping[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for t in tables:
        for s, c in t.items():
            out[s] = out.get(s, 0) + c
    return dict(sorted(out.items()))


class Showdown(PotShowdown):
    """High-hand showdown: each pot to the best hand(s) among its eligible seats.

    A :class:`PotShowdown` for ``"high"`` whose seats play ``cards_of(hand, seat)``
    whole (not the best five of hole and board by a hand rule) and show by
    :func:`decide_shows` (each shows while it can still win a share).

    Args:
        cards_of: the cards a seat plays (default hole + board).
        wild: score with the hand's ``wild_ranks`` (R-RYO-9) using the
            ``wild_duplicates``/``natural_beats_wild`` house options.
        high: ``"standard"`` or ``"short-deck"`` (as :class:`PotShowdown`).
    """

    def __init__(
        self,
        cards_of: Callable[[Hand, int], list[Card]] = hole_and_board,
        *,
        wild: bool = False,
        high: str = "standard",
    ) -> None:
        super().__init__("high", wild=wild, high=high)
        self.cards_of = cards_of

    def _value(self, hand: Hand) -> Callable[[list[Card]], int]:
        from rollem import hands as ev

        if self.high == "short-deck":
            from rollem.hands.short_deck import short_deck_value

            return short_deck_value

        if not self.wild:
            return ev.high_value
        wilds = hand.wild_ranks
        dup = bool(hand.options.get("wild_duplicates", False))
        nat = bool(hand.options.get("natural_beats_wild", False))
        return lambda cards: ev.wild_value(
            cards, wilds, wild_duplicates=dup, natural_beats_wild=nat
        )

    def _score(self, hand: Hand, seats: Sequence[int]) -> tuple[_Scores, _LowScores]:
        value = self._value(hand)
        high: _Scores = {}
        for s in seats:
            cards = self.cards_of(hand, s)
            high[s] = (value(cards), tuple(cards))
        return high, {}

    def _showing(self, hand: Hand, order: Sequence[int],
                 pots: Sequence[tuple[int, tuple[int, ...]]], high: _Scores,
                 needed: set[int]) -> set[int]:
        return set(decide_shows(hand, order, pots, {s: v for s, (v, _) in high.items()}))


def shown_hand_words(hand: Hand, seat: int) -> str | None:
    """``seat``'s whole hand in the words its game's showdown gives a shown hand
    (:meth:`PotShowdown._description`: ``"pair of nines, king-six-five"``, both
    halves in a high-low game), for a hand shown by choice after the end (R-C-11,
    stop 53: "Ann shows 9h 6d by choice" named no hand); ``None`` where the game
    has no :class:`PotShowdown` (a declare showdown) or the seat's cards make no hand
    under its rule (e.g. Omaha's two and three with the board not all dealt).
    Fewer than five cards in all (a fold on fourth street) are named as a partial
    hand, a low in a low game (R-C-8)."""
    steps = [s for s in hand.steps if isinstance(s, PotShowdown)]
    if not steps:
        return None
    step = steps[-1]
    try:
        high, low = step._score(hand, [seat])
        return step._description(hand, seat, high, low) or None
    except (ValueError, IndexError, KeyError, TypeError):  # (no five, an empty board)
        pass
    cards = tuple(hand.hole[seat]) + tuple(hand.board)
    if not 0 < len(cards) < 5:
        return None
    try:  # a partial hand (a fold before the fifth card), as ``rollem eval`` names it
        return step._describe(hand, cards, step.pot == "low") or None
    except (ValueError, IndexError, KeyError, TypeError):
        return None
