"""Drawing from the stub, one seat at a time, with a reshuffle when it runs out.

:class:`DrawFromStub` is a step (R-521-2, R-521-4): in turn from the dealer's
left, each player still in the hand (all-in players included, R-C-14)
discards ``0 .. max_discard`` cards (:class:`rollem.engine.actions.Draw`)
and is dealt as many replacements at once, face down.

Deck exhaustion (R-521-5): when the stub runs out while a player is served,
the muck (folded hands) and every discard made so far in the hand, except
the cards that player discarded, are shuffled (random outcome
``"reshuffle"``, recorded in the history) to form a new stub, and the draw
continues from it. A player is never dealt a card they discarded in this
hand unless no other card is left; then their own earlier discards are
added (not the cards they are exchanging in this draw, which would only come
straight back; those only if nothing else at all is left, which five-card
hands with at most ten players never reach).
Because a reshuffled stub may hold cards that a later player discarded
earlier in the hand, such cards are passed over when that player is served:
they go back to the discard pile (they are not dealt, and they join the
next reshuffle). Removing known cards from a shuffled stub leaves the rest
in random order, so no extra random outcome is needed.

State kept in ``hand.extra`` (shared by every draw of the hand):

- ``"discards"``: seat -> every card it discarded in this hand, in order;
- ``"discard_pile"``: discarded cards not back in play (not in the stub);
- ``"recycled"``: cards now in the stub that came from a reshuffle;
- ``"own_stub"``: the seat whose own discards the last reshuffle had to use
  (they are not passed over for that seat), else ``None``;
- ``"reshuffles"``: one dict per reshuffle: ``seat`` (being served),
  ``cards`` (the new stub's size), ``own`` (whether the served seat's own
  discards had to be added).

Events: ``draw`` (the discarded cards, seen by the seat only; others see the
count), ``reshuffle`` (public: the seat served and the number of cards),
``draw_deal`` (the new cards, seen by the seat only; others see the count).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rollem.cards import Card, format_cards
from rollem.engine.actions import Draw, action_words
from rollem.engine.decisions import Legal, Pending
from rollem.engine.errors import EngineError, IllegalAction
from rollem.engine.events import Event
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["DrawFromStub", "draw_state", "held_in_places"]


def held_in_places(hand: Hand, seat: int) -> tuple[Card, ...]:
    """``seat``'s cards in the places they were dealt to, each replacement of a draw
    in the place of the card it replaced (the first of a draw's discards in the
    order held takes the first new card, and so on); a card drawn from the pool
    after the rest.  :attr:`Hand.hole` holds the replacements after the kept
    cards, so an order kept as held tells which cards were drawn: the clock's
    stacking (R-C-15) uses this one, which tells nothing of it (R-521-6, R-521-7).
    The order held when the seat's events do not give its cards (never seen)."""
    held = hand.hole[seat]
    order: list[Card] = []
    places: list[int] = []
    for e in hand.events:
        if e.seat != seat:
            continue
        if e.kind in ("deal_hole", "deal_up"):
            order.extend(e.data["cards"])
        elif e.kind == "pool_draw":
            order.append(e.data["card"])
        elif e.kind == "discard":
            order = [c for c in order if c not in e.data["cards"]]
        elif e.kind == "draw":
            places = sorted(order.index(c) for c in e.data["cards"] if c in order)
        elif e.kind == "draw_deal":
            for i, c in zip(places, e.data["cards"], strict=False):
                order[i] = c
            places = []
    return tuple(order) if sorted(order) == sorted(held) else tuple(held)


def draw_state(hand: Hand) -> dict[str, Any]:
    """The hand's draw bookkeeping in ``hand.extra`` (created on first use)."""
    extra = hand.extra
    if "discards" not in extra:
        extra["discards"] = {}
        extra["discard_pile"] = []
        extra["recycled"] = set()
        extra["reshuffles"] = []
    return extra


class DrawFromStub(Step):
    """A draw: each player in turn discards up to ``max_discard`` cards and
    is dealt replacements from the stub (R-521-2, R-521-4, R-521-5).

    Args:
        name: label (``"first draw"``).
        max_discard: the most cards a player may discard (2, then 1 in 5-2-1).
    """

    kind = "draw"

    def __init__(self, name: str, max_discard: int) -> None:
        self.name = name
        self.max_discard = max_discard
        self.order: list[int] = []
        self.i = 0

    def start(self, hand: Hand) -> Pending | None:
        draw_state(hand)
        self.order = hand.live_from_left()
        self.i = 0
        hand.events.append(Event("draw_round", None, {"draw": self.name,
                                                      "max": self.max_discard}))
        return self._pending(hand)

    def _pending(self, hand: Hand) -> Pending | None:
        while self.i < len(self.order) and hand.folded[self.order[self.i]]:
            self.i += 1
        if self.i >= len(self.order):
            return None
        return Pending(self.kind, (self.order[self.i],))

    def legal(self, hand: Hand, seat: int) -> Legal:
        p = hand.pending
        if p is None or seat not in p.seats:
            return Legal(kind=self.kind)
        return Legal(kind=self.kind, actions=("draw",), cards=tuple(hand.hole[seat]),
                     min_count=0, max_count=self.max_discard)

    def act(self, hand: Hand, seat: int, action: object) -> Pending | None:
        held = hand.hole[seat]
        if not isinstance(action, Draw):
            raise IllegalAction(f"seat {seat} must draw: Draw(cards) discarding 0 to "
                                f"{self.max_discard} of {format_cards(held)}; "
                                f"got {action_words(action)}")
        cards = tuple(action.cards)
        if len(cards) > self.max_discard or len(set(cards)) != len(cards) \
                or any(c not in held for c in cards):
            raise IllegalAction(
                f"seat {seat} cannot discard {format_cards(cards) or 'nothing'}: discard 0 to "
                f"{self.max_discard} different cards of {format_cards(held)}"
            )
        st = draw_state(hand)
        if cards:
            for c in cards:
                i = held.index(c)
                del held[i]
                del hand.up[seat][i]
            st["discards"].setdefault(seat, []).extend(cards)
            st["discard_pile"].extend(cards)
        hand.events.append(Event("draw", seat, {"cards": list(cards), "count": len(cards)},
                                 frozenset((seat,)), {"count": len(cards)}))
        new: list[Card] = []
        for _ in cards:
            c = self._deal_one(hand, seat, st, cards)
            held.append(c)
            hand.up[seat].append(False)
            new.append(c)
        if new:
            hand.events.append(Event("draw_deal", seat, {"cards": new},
                                     frozenset((seat,)), {"count": len(new)}))
        self.i += 1
        return self._pending(hand)

    # ------------------------------------------------------------ dealing

    def _deal_one(self, hand: Hand, seat: int, st: dict[str, Any],
                  now: tuple[Card, ...]) -> Card:
        own = set(st["discards"].get(seat, ()))
        recycled: set[Card] = st["recycled"]
        if recycled and own & recycled and st.get("own_stub") != seat:
            # pass over the served seat's own discards in a reshuffled stub
            stub = hand.deck[hand.deck_pos:]
            back = [c for c in stub if c in own]
            if back:
                hand.deck[hand.deck_pos:] = [c for c in stub if c not in own]
                st["discard_pile"].extend(back)
                recycled.difference_update(back)
        if hand.stub_left == 0:
            self._reshuffle(hand, seat, st, own, now)
        card = hand.deal_card("draw", seat)
        recycled.discard(card)
        return card

    def _reshuffle(self, hand: Hand, seat: int, st: dict[str, Any], own: set[Card],
                   now: tuple[Card, ...]) -> None:
        """Form a new stub from the muck and the discards except ``seat``'s (R-521-5)."""
        pile: list[Card] = st["discard_pile"]
        # the seat's own discards stay out even when they reached the muck
        # through a folded hand that was dealt them
        cards = [c for c in hand.muck if c not in own] + [c for c in pile if c not in own]
        added_own = False
        if not cards:
            # nothing else left (R-521-5): the seat's own earlier discards, not
            # the ones it is exchanging now (those only if nothing else exists)
            cards = [c for c in list(hand.muck) + list(pile) if c not in now]
            if not cards:
                cards = list(hand.muck) + list(pile)
            added_own = True
        if not cards:
            raise EngineError("the stub is empty and there is no card left to reshuffle")
        taken = set(cards)
        hand.muck[:] = [c for c in hand.muck if c not in taken]
        st["discard_pile"] = [c for c in pile if c not in taken]
        order = hand.source.shuffle("reshuffle", cards)
        hand.deck[hand.deck_pos:] = order
        st["recycled"].update(order)
        st["own_stub"] = seat if added_own else None
        st["reshuffles"].append({"seat": seat, "cards": len(order), "own": added_own})
        hand.events.append(Event("reshuffle", seat, {"count": len(order), "own": added_own}))
