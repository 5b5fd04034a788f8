"""Showdown (R-C-9..R-C-11): show order, mucking, pots awarded.

:class:`Showdown` settles a high-only game: each live seat's hand is
``cards_of(hand, seat)`` (default: hole cards plus board, R-SDR-6) scored by
:func:`rollem.hands.high_value`, or by ``wild_value`` with the hand's wild
ranks when ``wild=True`` (R-RYO-8/9). High-low declare settlement (R-521-9)
reuses :func:`showdown_order`, :func:`must_show` and
:func:`rollem.engine.pots.split_pot`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from rollem.cards import Card
from rollem.engine.decisions import Pending
from rollem.engine.events import Event
from rollem.engine.pots import build_pots, split_pot
from rollem.engine.result import PotResult
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["Showdown", "decide_shows", "hole_and_board", "must_show", "showdown_order"]


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


class Showdown(Step):
    """High-hand showdown: each pot to the best hand(s) among its eligible seats.

    Args:
        cards_of: the cards a seat plays (default hole + board).
        wild: score with the hand's ``wild_ranks`` (R-RYO-9) using the
            ``wild_duplicates``/``natural_beats_wild`` house options.
    """

    name = "showdown"

    def __init__(
        self,
        cards_of: Callable[[Hand, int], list[Card]] = hole_and_board,
        *,
        wild: bool = False,
    ) -> None:
        self.cards_of = cards_of
        self.wild = wild

    def _value(self, hand: Hand) -> Callable[[list[Card]], int]:
        from rollem import hands as ev

        if not self.wild:
            return ev.high_value
        wilds = hand.wild_ranks
        dup = bool(hand.options.get("wild_duplicates", False))
        nat = bool(hand.options.get("natural_beats_wild", False))
        return lambda cards: ev.wild_value(
            cards, wilds, wild_duplicates=dup, natural_beats_wild=nat
        )

    def _describe(self, hand: Hand, cards: list[Card]) -> str:
        from rollem import hands as ev

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
        value = self._value(hand)
        cards = {s: self.cards_of(hand, s) for s in range(hand.n) if live[s]}
        strength = {s: value(c) for s, c in cards.items()}
        order = showdown_order(hand)
        shows = decide_shows(hand, order, pots, strength)
        shown: dict[int, str] = {}
        shown_cards: dict[int, tuple[Card, ...]] = {}
        for s in order:
            if s in shows:
                desc = self._describe(hand, cards[s])
                shown[s] = desc
                shown_cards[s] = tuple(hand.hole[s])
                hand.events.append(Event("show", s, {"cards": list(hand.hole[s]),
                                                     "description": desc}))
            else:
                hand.muck.extend(hand.hole[s])
                hand.events.append(Event("muck", s, {}))
        results: list[PotResult] = []
        for i, (amount, eligible) in enumerate(pots):
            best = max(strength[s] for s in eligible)
            winners = [s for s in eligible if strength[s] == best]
            won = split_pot(amount, winners, hand.button, hand.n)
            results.append(PotResult(amount, eligible, won))
            for s, chips in won.items():
                hand.events.append(Event("win", s, {"amount": chips, "pot": i}))
        hand.finish(results, shown=shown, shown_cards=shown_cards)
        return None
