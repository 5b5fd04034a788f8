"""Views: exactly what one seat (or a spectator) may know. The security boundary.

A :class:`HandView` holds the seat's own cards, every face-up card, dead
cards, card-back counts of the others, stacks, bets, pots, the button, whose
turn it is, the seat's legal options and the event log filtered for the
seat. Never other seats' hidden cards, the stub, the pool's contents or order
(beyond the cards this seat put there), or another seat's pending
all-at-once choice, nor which of another seat's cards it drew: another
seat's cards (its seat, its shows, the result's shown hands) are in
:func:`public_order`, never in the order dealt and drawn. Plain data;
:meth:`HandView.to_dict` is JSON-ready.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rollem.cards import CARDS, RANKS, Card
from rollem.engine.betting import BettingRound
from rollem.engine.decisions import Legal
from rollem.engine.errors import EngineError
from rollem.engine.events import event_to_dict
from rollem.engine.forced import Blinds
from rollem.engine.pots import build_pots
from rollem.engine.public_order import public_order, turned_up

if TYPE_CHECKING:
    from rollem.engine.hand import Hand

__all__ = ["HandView", "SeatView", "bets_in_front", "build_view"]


def bets_in_front(hand: Hand) -> bool:
    """Whether ``hand.bets`` are still bets in front of the players: a betting
    round is open (its decision pending), or blinds are posted for a round not
    yet played. Otherwise the last round has ended and its bets are gathered
    into the pot, as a dealer gathers them (R-C-9: the uncalled part is already
    returned). The engine keeps ``hand.bets`` until the next round starts; only
    views gather them."""
    steps = hand.steps
    i = min(hand.step_index, len(steps) - 1)
    while i >= 0:
        step = steps[i]
        if isinstance(step, BettingRound):
            return i == hand.step_index and hand.pending is not None
        if isinstance(step, Blinds):
            return hand.result is None
        i -= 1
    return False


@dataclass
class SeatView:
    """One seat as the viewer sees it.

    ``cards``: the seat's cards in order, as text, ``None`` for a card the
    viewer cannot see (a card back). ``up``: which of them are face up.
    """

    seat: int
    stack: int
    bet: int
    committed: int
    dealt: bool
    folded: bool
    all_in: bool
    cards: list[str | None]
    up: list[bool]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return dict(self.__dict__)


@dataclass
class HandView:
    """What ``seat`` (``None`` = spectator) may know about a hand.

    Chips: ``pot`` is what is in the middle (every pot, ``carry_in`` included);
    each seat's ``bet`` and ``current_bet`` are the open betting round's bets in
    front of the players. Once a round ends its bets are gathered into ``pot``
    and ``pots`` and the bets read 0 (see :func:`bets_in_front`), so ``pot`` plus
    the seats' bets is always every chip committed this hand plus ``carry_in``.
    """

    game: str
    seat: int | None
    button: int
    seats: list[SeatView]
    board: list[str]
    dead: list[str]
    burned: int
    stub: int
    pool: int
    my_pool: list[str]
    wild_ranks: list[str]
    pot: int
    pots: list[dict[str, Any]]
    round: str
    current_bet: int
    to_act: list[int]
    pending: str | None
    simultaneous: bool
    legal: Legal | None
    options: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @property
    def my_cards(self) -> list[str]:
        """The viewer's own cards (empty for a spectator)."""
        if self.seat is None:
            return []
        return [c for c in self.seats[self.seat].cards if c is not None]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out = dict(self.__dict__)
        out["seats"] = [s.to_dict() for s in self.seats]
        out["legal"] = self.legal.to_dict() if self.legal is not None else None
        return out


def _seat_view(hand: Hand, s: int, viewer: int | None, shown: Any, by_choice: Any,
               turned: dict[int, list[Card]], in_front: bool) -> SeatView:
    """Seat ``s`` as ``viewer`` (``None`` = spectator) sees it: its own cards in
    the order it holds them, another seat's in :func:`public_order` (face-up
    cards, then the face-down ones: card backs, or the cards shown).
    ``in_front``: :func:`bets_in_front` (else the seat's bet shows as 0)."""
    chosen = by_choice.get(s, ())
    held, up = hand.hole[s], hand.up[s]
    if viewer == s:
        cards: list[str | None] = [str(CARDS[c]) for c in held]
        flags = list(up)
    elif not any(up) and s not in shown and not chosen:  # card backs only
        cards = [None] * len(held)
        flags = [False] * len(held)
    else:
        faced = [c for c, u in zip(held, up, strict=True) if u]
        down = [c for c, u in zip(held, up, strict=True) if not u]
        seen = [c for c in down if s in shown or c in chosen]
        ordered = public_order(faced, turned.get(s, ())) + public_order(seen)
        cards = [str(CARDS[c]) for c in ordered] + [None] * (len(down) - len(seen))
        flags = [True] * len(faced) + [False] * len(down)
    if hand.folded[s] and viewer != s and not chosen:
        cards = []
    return SeatView(
        seat=s, stack=hand.stacks[s], bet=hand.bets[s] if in_front else 0,
        committed=hand.committed[s],
        dealt=hand.dealt[s], folded=hand.folded[s] and hand.dealt[s],
        all_in=hand.dealt[s] and not hand.folded[s] and hand.stacks[s] == 0,
        cards=cards, up=flags if cards else [],
    )


def _legal(hand: Hand, seat: int | None) -> Legal | None:
    """``seat``'s legal options now: its decision, or "show" after the hand (R-C-11)."""
    p = hand.pending
    if seat is not None and p is not None and seat in p.seats:
        return hand.legal_actions(seat)
    if seat is not None and hand.result is not None and hand.showable(seat):
        return hand.legal_actions(seat)  # "show" by choice (R-C-11)
    return None


def _events(hand: Hand, seat: int | None) -> list[dict[str, Any]]:
    shown_events = []
    for e in hand.events:
        d = event_to_dict(e, seat)
        if d is not None:
            shown_events.append(d)
    return shown_events


def _result(hand: Hand, turned: dict[int, list[Card]]) -> dict[str, Any] | None:
    """The result, each shown hand in :func:`public_order`."""
    if hand.result is None:
        return None
    out = hand.result.to_dict(cards=True)
    out["shown_cards"] = {
        str(s): [str(CARDS[c]) for c in public_order(cs, turned.get(s, ()))]
        for s, cs in sorted(hand.result.shown_cards.items())
    }
    return out


def check_viewer(hand: Hand, seat: object) -> None:
    """Refuse a viewer that is no seat of ``hand`` and not a spectator (``None``):
    ``TypeError`` for a value that is no int (a bool included), :class:`EngineError`
    for an int out of ``0..hand.n - 1``.  Its cards are a seat's own: a view for
    a seat the hand does not have shows no card, and ``-1`` was another seat's
    to Python's indexing."""
    if seat is None:
        return
    allowed = f"a seat 0..{hand.n - 1} of this {hand.n}-seat hand, or None for a spectator"
    try:
        if isinstance(seat, bool) or not hasattr(seat, "__index__"):
            raise TypeError
        number = operator.index(seat)  # (an int, or numpy's)
    except TypeError:
        raise TypeError(f"view of {type(seat).__name__} {seat!r}: the viewer is "
                        f"{allowed}") from None
    if not 0 <= number < hand.n:
        raise EngineError(f"view of seat {seat}: no such seat; the viewer is {allowed}")


def build_view(hand: Hand, seat: int | None, *, events: bool = True,
               base: HandView | None = None) -> HandView:
    """Build ``seat``'s view of ``hand`` (``None`` = spectator); ``events=False``
    leaves ``events`` empty (a caller that keeps its own copy of the event log,
    such as the web table, which adds each event once).

    ``base``: the spectator's view of the hand as it is now (``build_view(hand,
    None, events=False)``, unchanged since).  Everything a spectator sees is
    the same for every viewer except the viewer's own seat, options and pool
    discards, so those alone are built and the rest is shared with ``base``
    (the same objects: read them, never change them).  The result equals the
    view built without ``base``.  Raises ``ValueError`` if ``base`` is not a
    spectator's view, :class:`EngineError` (a ``ValueError``) if ``seat`` is an
    int that is no seat of the hand (``0 <= seat < hand.n``: a spectator is
    ``None``, never a seat past the table's), ``TypeError`` if it is not an
    int or ``None`` (a bool too: ``True`` is not seat 1).
    """
    check_viewer(hand, seat)
    if base is not None:
        if base.seat is not None:
            raise ValueError(f"base must be a spectator's view (seat None), not seat {base.seat}")
        seats = base.seats
        if seat is not None and 0 <= seat < hand.n:
            shown = hand.result.shown_cards if hand.result is not None else {}
            seats = list(seats)
            seats[seat] = _seat_view(hand, seat, seat, shown, hand.shown_by_choice, {},
                                     bets_in_front(hand))
        return HandView(**{
            **base.__dict__, "seat": seat, "seats": seats,
            "my_pool": [str(CARDS[c]) for c in hand.pool_by_seat.get(seat, [])]
            if seat is not None else [],
            "legal": _legal(hand, seat),
            "events": _events(hand, seat) if events else [],
        })
    shown = hand.result.shown_cards if hand.result is not None else {}
    by_choice = hand.shown_by_choice  # R-C-11: shown after the hand, to everyone
    turned = turned_up(hand) if any(any(u) for u in hand.up) else {}
    in_front = bets_in_front(hand)
    seats = [_seat_view(hand, s, seat, shown, by_choice, turned, in_front)
             for s in range(hand.n)]
    p = hand.pending
    live = [not f for f in hand.folded]
    # the pot holds what is not in front of the players: once a round ends, its bets too
    collected = ([c - b for c, b in zip(hand.committed, hand.bets, strict=True)] if in_front
                 else list(hand.committed))
    pots = [] if hand.result is not None else [
        {"amount": a, "eligible": list(e)} for a, e in build_pots(collected, live, hand.carry_in)
        if a
    ]
    legal = _legal(hand, seat)
    shown_events = _events(hand, seat) if events else []
    return HandView(
        game=hand.game.id,
        seat=seat,
        button=hand.button,
        seats=seats,
        board=[str(CARDS[c]) for c in hand.board],
        dead=[str(CARDS[c]) for c in hand.dead],
        burned=len(hand.burned),
        stub=hand.stub_left,
        pool=len(hand.pool),
        my_pool=[str(CARDS[c]) for c in hand.pool_by_seat.get(seat, [])]
        if seat is not None else [],
        wild_ranks=[RANKS[r] for r in hand.wild_ranks],
        pot=sum(collected) + hand.carry_in,
        pots=pots,
        round=hand.round_name,
        current_bet=hand.current_bet if in_front else 0,
        to_act=list(p.seats) if p is not None else [],
        pending=p.kind if p is not None else None,
        simultaneous=p.simultaneous if p is not None else False,
        legal=legal,
        options=hand.options.to_dict(),
        events=shown_events,
        result=_result(hand, turned),
    )
