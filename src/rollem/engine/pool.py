"""Steps around a common face-down pool (R-RYO-2, R-RYO-5..R-RYO-7).

- :class:`DiscardToPool`: all at once, every seat still in the hand puts
  ``count`` of its down cards face down into ``hand.pool``; nobody sees
  another's choice; then the pool is shuffled (a recorded random outcome,
  label ``"pool"``, R-C-13).
- :class:`DrawFromPool`: each seat still in the hand (all-in ones too,
  R-C-14) takes the top card of the pool face down, one at a time clockwise
  from the seat an opener function names (R-RYO-5, R-RYO-6).
- :class:`PickWildFromPool`: one seat (named by an opener function) picks a
  pool card by position, unseen; it is turned face up, becomes a dead card
  (part of no hand) and its rank becomes wild (R-RYO-7).

Visibility: a seat sees its own discards (``pool_by_seat``) and its own
draws; everybody else sees only counts. Nobody sees the pool's contents or
order, nor which seat put which card there (the pool is shuffled before any
card leaves it). Seats are numbered as in the rest of the engine; cards are
``int`` 0..51.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollem.cards import CARDS, RANKS, Card, format_cards
from rollem.engine.actions import Discard, PickWild, action_words
from rollem.engine.betting import Opener
from rollem.engine.decisions import Legal, Pending
from rollem.engine.errors import IllegalAction
from rollem.engine.events import Event
from rollem.engine.simultaneous import AllAtOnceStep
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["DiscardToPool", "DrawFromPool", "PickWildFromPool"]


def _down(hand: Hand, seat: int) -> tuple[Card, ...]:
    return tuple(c for c, u in zip(hand.hole[seat], hand.up[seat], strict=True) if not u)


class DiscardToPool(AllAtOnceStep):
    """All at once, each seat puts ``count`` down cards face down into the pool,
    which is then shuffled (R-RYO-2).

    The cards enter the pool seat by seat from the dealer's left, each seat's
    in the order its :class:`~rollem.engine.actions.Discard` names them; the
    ``"pool"`` shuffle then gives the pool's order (top = index 0). Events:
    ``discard`` (the cards, to the seat only; others see ``count``) and a
    public ``pool`` event with the pool's size.

    ``into_pool`` False: no later step uses the pool (a game file's discard, as
    Crazy Pineapple's): the cards are out of play; the pool is still shuffled
    (the same recorded outcomes), and both events carry ``into_pool: False`` so
    that the narration says "out of play" and not "in the pool" (issue 33).
    """

    name = "discard"
    kind = "discard"

    def __init__(self, count: int, *, into_pool: bool = True) -> None:
        super().__init__()
        self.count = count
        self.into_pool = into_pool

    def legal_for(self, hand: Hand, seat: int) -> Legal:
        return Legal(kind=self.kind, actions=("discard",), cards=_down(hand, seat),
                     min_count=self.count, max_count=self.count, into_pool=self.into_pool)

    def check(self, hand: Hand, seat: int, action: object) -> None:
        down = _down(hand, seat)
        if (
            not isinstance(action, Discard)
            or len(action.cards) != self.count
            or len(set(action.cards)) != self.count
            or any(c not in down for c in action.cards)
        ):
            raise IllegalAction(
                f"seat {seat} must discard {self.count} different cards of its own to the "
                f"pool: Discard(cards) with cards among {format_cards(down)}; "
                f"got {action_words(action)}"
            )

    def resolve(self, hand: Hand, choices: dict[int, object]) -> None:
        pool: list[Card] = []
        for seat in self.seats(hand):
            action = choices[seat]
            assert isinstance(action, Discard)
            cards = [CARDS[c] for c in action.cards]
            keep = [(c, u) for c, u in zip(hand.hole[seat], hand.up[seat], strict=True)
                    if c not in cards]
            hand.hole[seat] = [c for c, _ in keep]
            hand.up[seat] = [u for _, u in keep]
            hand.pool_by_seat.setdefault(seat, []).extend(cards)
            pool.extend(cards)
            out_of_play = {} if self.into_pool else {"into_pool": False}
            hand.events.append(Event("discard", seat, {"cards": cards, **out_of_play},
                                     frozenset((seat,)), {"count": len(cards), **out_of_play}))
        hand.pool = hand.source.shuffle("pool", hand.pool + pool)
        hand.events.append(Event("pool", None, {"count": len(hand.pool), "shuffled": True}
                                 | ({} if self.into_pool else {"into_pool": False})))


class DrawFromPool(Step):
    """Each seat still in the hand draws the top pool card face down, one at a
    time clockwise starting with ``start(hand)`` (R-RYO-5, R-RYO-6).

    Folded seats are skipped; all-in seats draw (R-C-14). Events:
    ``pool_draw`` (the card, to the seat only; others see ``count``).

    Raises:
        EngineError: (from the hand) never in the built-in games: the pool
            always holds enough cards.
    """

    name = "draw"

    def __init__(self, start: Opener) -> None:
        self.first = start

    def start(self, hand: Hand) -> Pending | None:
        from rollem.engine.errors import EngineError

        first = self.first(hand)
        for seat in hand.order_from(first):
            if hand.folded[seat]:
                continue
            if not hand.pool:
                raise EngineError("the pool is empty: no card left to draw")
            card = hand.pool.pop(0)
            hand.hole[seat].append(card)
            hand.up[seat].append(False)
            hand.events.append(Event("pool_draw", seat, {"card": card}, frozenset((seat,)),
                                     {"count": 1}))
        return None


class PickWildFromPool(Step):
    """The seat ``chooser(hand)`` picks a pool card by position (0 = top),
    unseen; it is turned face up, is part of no hand (kept in ``hand.dead``)
    and every card of its rank is wild (R-RYO-7).

    Decision kind ``"wild"``: :class:`~rollem.engine.actions.PickWild`
    with ``0 <= position < len(hand.pool)`` (``Legal.positions``). The
    public ``wild`` event gives the seat, the position, the card and the rank.
    """

    name = "wild"

    def __init__(self, chooser: Opener) -> None:
        self.chooser = chooser
        self.seat = -1

    def start(self, hand: Hand) -> Pending | None:
        self.seat = self.chooser(hand)
        hand.extra["wild_chooser"] = self.seat
        return Pending("wild", (self.seat,))

    def legal(self, hand: Hand, seat: int) -> Legal:
        if seat != self.seat:
            return Legal(kind="wild")
        return Legal(kind="wild", actions=("wild",), positions=len(hand.pool))

    def act(self, hand: Hand, seat: int, action: object) -> Pending | None:
        n = len(hand.pool)
        if (not isinstance(action, PickWild) or type(action.position) is not int
                or not 0 <= action.position < n):
            raise IllegalAction(
                f"seat {seat} must pick a pool card by position: PickWild(position) with "
                f"position 0..{n - 1}; got {action_words(action)}"
            )
        card = hand.pool.pop(action.position)
        hand.dead.append(card)
        rank = card >> 2
        hand.wild_ranks = (rank,)
        hand.extra["wild_card"] = card
        hand.extra["wild_position"] = action.position
        hand.events.append(Event("wild", seat, {"card": card, "position": action.position,
                                                "rank": RANKS[rank]}))
        return None
