"""Showdown for high, low or split high-low (cards speak), with hand rules.

:class:`PotShowdown` scores each live seat's hand:

- which cards: the best five of the seat's cards plus the board, or, with
  ``hole`` and ``board`` set, exactly ``hole`` of the seat's cards and exactly
  ``board`` community cards (Omaha: 2 and 3);
- high (R-C-2, or wild with the hand's wild ranks), low ace-to-five (R-C-3,
  with an optional qualifier: ``qualifier=8`` = eight-or-better, no pair and
  no card above an eight) or deuce-to-seven (aces high, straights and flushes
  count against; :func:`deuce_to_seven_value`).

Each pot (side pots, R-C-9) goes to the best hand(s) among its eligible
seats; ``"high-low"`` splits it in halves (the odd chip to the high half,
R-C-10), the whole pot going high when no eligible hand makes a qualifying
low. Who shows: :func:`~rollem.engine.showdown.must_show` with every
winner (R-C-11). Chips are whole numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from rollem.cards import Card
from rollem.engine.decisions import Pending
from rollem.engine.events import Event
from rollem.engine.pots import build_pots, split_high_low, split_pot
from rollem.engine.result import PotResult
from rollem.engine.showdown import must_show, showdown_order
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["PotShowdown", "deuce_to_seven_value", "qualifies"]

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
    """Showdown for ``pot`` = ``"high"``, ``"low"`` or ``"high-low"`` (see the module doc).

    Args:
        pot: which hands win.
        low: ``"ace-to-five"`` or ``"deuce-to-seven"``.
        qualifier: 0, or the highest rank (5..13) a qualifying ace-to-five low may hold.
        hole, board: exact numbers of own and community cards (both 0 = best five of all).
        wild: score high hands with the hand's wild ranks.
    """

    name = "showdown"

    def __init__(self, pot: str, *, low: str = "ace-to-five", qualifier: int = 0,
                 hole: int = 0, board: int = 0, wild: bool = False) -> None:
        self.pot = pot
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
        return max((ev.high_value(f), f) for f in fives)

    def _low(self, fives: list[tuple[Card, ...]]) -> tuple[int, tuple[Card, ...]] | None:
        from rollem import hands as ev

        if self.low == "deuce-to-seven":
            return max((deuce_to_seven_value(f), f) for f in fives)
        v, f = max((ev.low_value(f), f) for f in fives)
        return (v, f) if qualifies(v, self.qualifier) else None

    def _describe(self, hand: Hand, cards: tuple[Card, ...], low: bool) -> str:
        from rollem import hands as ev

        if low and self.low == "ace-to-five":
            return str(ev.evaluate(cards, low=True).description)
        if self.wild:
            return str(ev.evaluate(
                cards, wild_ranks=hand.wild_ranks,
                wild_duplicates=bool(hand.options.get("wild_duplicates", False)),
                natural_beats_wild=bool(hand.options.get("natural_beats_wild", False)),
            ).description)
        return str(ev.evaluate(cards).description)

    def start(self, hand: Hand) -> Pending | None:
        hand.return_uncalled()
        live = [not f for f in hand.folded]
        pots = build_pots(hand.committed, live, hand.carry_in)
        seats = [s for s in range(hand.n) if live[s]]
        high: dict[int, tuple[int, tuple[Card, ...]]] = {}
        low: dict[int, tuple[int, tuple[Card, ...]] | None] = {}
        for s in seats:
            fives = self._fives(hand, s)
            if self.pot != "low":
                high[s] = self._high(hand, fives)
            if self.pot != "high":
                low[s] = self._low(fives)
        results: list[PotResult] = []
        wins: list[tuple[int, int, int, str | None]] = []
        needed: set[int] = set()
        for i, (amount, eligible) in enumerate(pots):
            lows = {s: lv[0] for s in eligible if (lv := low.get(s)) is not None}
            if self.pot == "low":
                best = max(lows.values())
                won = split_pot(amount, [s for s in eligible if lows.get(s) == best],
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
        order = showdown_order(hand)
        showing = set(must_show(hand, order, needed))
        shown: dict[int, str] = {}
        shown_cards: dict[int, tuple[Card, ...]] = {}
        for s in order:
            if s in showing:
                parts = []
                if s in high:
                    parts.append(self._describe(hand, high[s][1], False))
                lv = low.get(s)
                if lv is not None:
                    parts.append(self._describe(hand, lv[1], True))
                elif self.pot == "high-low":
                    parts.append("no low")
                desc = " and ".join(parts)
                shown[s] = desc
                shown_cards[s] = tuple(hand.hole[s])
                hand.events.append(Event("show", s, {"cards": list(hand.hole[s]),
                                                     "description": desc}))
            else:
                hand.muck.extend(hand.hole[s])
                hand.events.append(Event("muck", s, {}))
        for s, chips, i, half in wins:
            data: dict[str, object] = {"amount": chips, "pot": i}
            if half is not None:
                data["half"] = half
            hand.events.append(Event("win", s, data))
        hand.finish(results, shown=shown, shown_cards=shown_cards)
        return None
