"""High-low declare: the declaration (R-521-8) and the settlement (R-521-9).

- :class:`DeclareSides`: all at once, every player still in the hand (all-in
  players included, R-C-14) declares ``"high"``, ``"low"`` or ``"both"``
  (:class:`rollem.engine.actions.Declare`), hidden until all have declared,
  then revealed together (public ``declare`` events). The declarations are
  kept in ``hand.extra["declarations"]`` (seat -> side).
- :func:`settle_pot`: one pot among its eligible seats, exactly R-521-9
  (pure function, no hand needed).
- :class:`DeclareShowdown`: builds the pots (side pots, R-C-9), settles each
  with :func:`settle_pot`, shows and mucks (R-C-11), fills
  ``PotResult.high``/``.low`` and passes the carried chips to
  ``hand.finish``.

Settlement of one pot (R-521-9). Contenders: the pot's eligible seats. A
seat that declared both must win both ways outright, judged once against
every other contender for the pot who declared that way (high: the high and
both declarers; low: the low and both declarers); all both-ways declarers
are judged together, against the full field. Any loss or tie either way:
that seat collects nothing from the pot and is left out. Among the rest,
the best high hand of the high and both declarers takes the high half and
the best low of the low and both declarers the low half; if one side has
nobody, the other takes the whole pot. The odd chip of a split pot goes to
the high half; ties split their half with odd chips from the dealer's left
(R-C-10). If nobody remains (every contender declared both and failed),
house option ``failed_both_rule``: ``"carry"`` (default) -- nobody collects
and the pot carries to the next hand of the session -- or ``"split"`` -- an
ordinary high-low split among them (best high takes the high half, best low
the low half).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rollem.engine.actions import Declare, action_words
from rollem.engine.decisions import Legal, Pending
from rollem.engine.errors import EngineError, IllegalAction
from rollem.engine.events import Event
from rollem.engine.pots import build_pots, split_high_low, split_pot
from rollem.engine.public_order import show_event
from rollem.engine.result import PotResult
from rollem.engine.showdown import must_show, showdown_order
from rollem.engine.simultaneous import AllAtOnceStep
from rollem.engine.step import Step

if TYPE_CHECKING:
    from rollem.cards import Card
    from rollem.engine.hand import Hand

__all__ = ["FAILED_BOTH_RULES", "SIDES", "DeclareShowdown", "DeclareSides", "PotSettlement",
           "settle_pot", "whole_pot_description"]

SIDES = ("high", "low", "both")
"""What a player may declare (R-521-8)."""

FAILED_BOTH_RULES = ("carry", "split")
"""Values of the house option ``failed_both_rule`` (R-521-9)."""

FAILED_BOTH_MUCKS = "failed_both_mucks"
"""House option, never set by a table: a failed both-ways declarer that
neither wins nor decides anything may muck, as before s59-tidy. Only a
history saved before then is replayed with it (:func:`rollem.history.replay`
retries such a history's muck under it), so that those hands still replay."""


class DeclareSides(AllAtOnceStep):
    """All at once, each seat declares high, low or both (R-521-8)."""

    name = "declare"
    kind = "declare"

    def legal_for(self, hand: Hand, seat: int) -> Legal:
        return Legal(kind=self.kind, actions=("declare",), sides=SIDES)

    def check(self, hand: Hand, seat: int, action: object) -> None:
        if not isinstance(action, Declare) or action.side not in SIDES:
            raise IllegalAction(f"seat {seat} must declare: Declare(side) with side one of "
                                f"{', '.join(SIDES)}; got {action_words(action)}")

    def resolve(self, hand: Hand, choices: dict[int, object]) -> None:
        decl: dict[int, str] = {}
        for seat in self.seats(hand):
            action = choices[seat]
            assert isinstance(action, Declare)
            decl[seat] = action.side
        hand.extra["declarations"] = decl
        for seat, side in decl.items():
            hand.events.append(Event("declare", seat, {"side": side}))


@dataclass
class PotSettlement:
    """How one pot was settled (R-521-9).

    Attributes:
        winners: seat -> chips won from the pot (both halves together).
        high, low: seat -> chips of each half.
        failed: seats that declared both and failed (collect nothing).
        deciders: seats whose hands made a both-ways declarer fail: each beat
            or tied one on a side it declared (R-521-9); in seat order. Their
            hands decide a result, so they are shown (R-C-11).
        carried: chips carried to the next hand (0 unless every contender failed
            and ``failed_both_rule`` is ``carry``).
        whole: ``"high"`` or ``"low"`` when the pot was not split because
            nobody was left on the other side (that side took the whole pot);
            ``None`` for a split pot or a carried one.
    """

    winners: dict[int, int] = field(default_factory=dict)
    high: dict[int, int] = field(default_factory=dict)
    low: dict[int, int] = field(default_factory=dict)
    failed: tuple[int, ...] = ()
    deciders: tuple[int, ...] = ()
    carried: int = 0
    whole: str | None = None


def _best(seats: Sequence[int], value: Mapping[int, int]) -> list[int]:
    top = max(value[s] for s in seats)
    return [s for s in seats if value[s] == top]


def settle_pot(
    amount: int,
    eligible: Sequence[int],
    sides: Mapping[int, str],
    high: Mapping[int, int],
    low: Mapping[int, int],
    *,
    button: int,
    n_seats: int,
    failed_both_rule: str = "carry",
) -> PotSettlement:
    """Settle one pot of a high-low declare hand (R-521-9, R-C-10).

    Args:
        amount: chips in the pot.
        eligible: seats that may win it (still in the hand, matched its level).
        sides: seat -> ``"high"``, ``"low"`` or ``"both"``.
        high, low: seat -> hand value (:func:`rollem.hands.high_value`,
            :func:`rollem.hands.low_value`; greater is better).
        button, n_seats: for odd chips from the dealer's left (R-C-10).
        failed_both_rule: ``"carry"`` or ``"split"`` (see the module doc).

    Returns:
        a :class:`PotSettlement`; chips are conserved:
        ``sum(winners.values()) + carried == amount``.

    Raises:
        EngineError: an unknown ``failed_both_rule``.
    """
    if failed_both_rule not in FAILED_BOTH_RULES:
        raise EngineError(f"unknown failed_both_rule {failed_both_rule!r}: expected one of "
                          + ", ".join(FAILED_BOTH_RULES))
    his = [s for s in eligible if sides[s] in ("high", "both")]
    los = [s for s in eligible if sides[s] in ("low", "both")]
    failed = []
    deciders: set[int] = set()
    for s in eligible:
        if sides[s] != "both":
            continue
        # everyone who beats or ties s on a side it declared makes it fail
        spoil = [o for o in his if o != s and high[o] >= high[s]]
        spoil += [o for o in los if o != s and low[o] >= low[s]]
        if spoil:
            failed.append(s)
            deciders.update(spoil)
    out = PotSettlement(failed=tuple(failed),
                        deciders=tuple(s for s in eligible if s in deciders))
    rest_hi = [s for s in his if s not in failed]
    rest_lo = [s for s in los if s not in failed]
    if not rest_hi and not rest_lo:
        if failed_both_rule == "carry":
            out.carried = amount
            return out
        rest_hi, rest_lo = list(failed), list(failed)
    if rest_hi and rest_lo:
        high_half, low_half = split_high_low(amount)  # odd chip to the high half (R-C-10)
    elif rest_hi:
        high_half, low_half = amount, 0
        out.whole = "high"
    else:
        high_half, low_half = 0, amount
        out.whole = "low"
    if rest_hi:
        out.high = split_pot(high_half, _best(rest_hi, high), button, n_seats)
    if rest_lo:
        out.low = split_pot(low_half, _best(rest_lo, low), button, n_seats)
    for half in (out.high, out.low):
        for s, chips in half.items():
            out.winners[s] = out.winners.get(s, 0) + chips
    return out


def whole_pot_description(side: str) -> str:
    """How a pot taken whole by ``side`` (``"high"``/``"low"``) is described:
    ``"whole pot: no low declarers left"`` (R-521-9: if one side has nobody,
    the other takes the whole pot; there are no halves)."""
    other = "low" if side == "high" else "high"
    return f"whole pot: no {other} declarers left"


class DeclareShowdown(Step):
    """The showdown of a high-low declare game (R-521-9, R-C-11).

    Each live seat's five cards are scored high and ace-to-five low; each pot
    is settled by :func:`settle_pot` among its eligible seats. Showing
    (R-C-11, in :func:`showdown_order`, :func:`must_show`): the first seat in
    order shows, and so does every all-in seat, every seat that wins chips,
    every seat whose hand beats or ties a both-ways declarer on a side it
    declared (it makes that declarer fail: ``PotSettlement.deciders``), every
    both-ways declarer that failed (its cards were judged, and the table sees
    why it lost: s59-tidy, as a declare game's players show to claim), and
    every contender of a carried pot (their hands prove the failure); only
    hands that neither win a share nor change anyone's result muck. A pot
    taken whole (nobody left on one side) gives ``win`` events with
    ``half=None``, ``whole`` (the side) and a ``description``. The
    ``shown`` description follows the declaration: the high hand, the low,
    or both (``"high: ...; low: ..."``; ``"high and low: ..."`` where both
    halves have the same words, a paired hand with no ace).

    Args:
        wild: score the high hands with the hand's ``wild_ranks`` (a game
            file's ``wild = true`` with a ``wild`` or ``pick-wild`` step), with
            the ``wild_duplicates``/``natural_beats_wild`` house options
            (R-RYO-9), as :class:`rollem.engine.showdown.PotShowdown` does in a
            high-low pot; the low stays natural (R-C-3: wild cards apply to
            high hands only). 5-2-1 has no wild cards (``False``).
    """

    name = "showdown"

    def __init__(self, wild: bool = False) -> None:
        self.wild = wild

    def start(self, hand: Hand) -> Pending | None:
        from rollem import hands as ev

        hand.return_uncalled()
        live = [not f for f in hand.folded]
        pots = build_pots(hand.committed, live, hand.carry_in)
        decl: dict[int, str] = hand.extra.get("declarations", {})
        seats = [s for s in range(hand.n) if live[s]]
        cards: dict[int, list[Card]] = {s: list(hand.hole[s]) for s in seats}
        wild_ranks = set(hand.wild_ranks) if self.wild else set()
        dup = bool(hand.options.get("wild_duplicates", False))
        nat = bool(hand.options.get("natural_beats_wild", False))
        if wild_ranks:
            high = {s: ev.wild_value(cards[s], wild_ranks, wild_duplicates=dup,
                                     natural_beats_wild=nat) for s in seats}
        else:
            high = {s: ev.high_value(cards[s]) for s in seats}
        low = {s: ev.low_value(cards[s]) for s in seats}
        sides = {s: decl.get(s, "high") for s in seats}
        rule = str(hand.options.get("failed_both_rule", "carry"))
        settled = [settle_pot(amount, eligible, sides, high, low, button=hand.button,
                              n_seats=hand.n, failed_both_rule=rule)
                   for amount, eligible in pots]
        order = showdown_order(hand)
        needed: set[int] = set()
        for (_amount, eligible), st in zip(pots, settled, strict=True):
            needed.update(s for s, c in st.winners.items() if c > 0)
            needed.update(st.deciders)
            if not hand.options.get(FAILED_BOTH_MUCKS, False):
                needed.update(st.failed)  # (its cards judged it: players see why it failed)
            if st.carried:
                needed.update(eligible)
        showing = set(must_show(hand, order, needed))
        shown: dict[int, str] = {}
        shown_cards: dict[int, tuple[Card, ...]] = {}
        for s in order:
            h = ev.evaluate(cards[s], wild_ranks=wild_ranks, wild_duplicates=dup,
                            natural_beats_wild=nat).description
            lo = ev.evaluate(cards[s], low=True).description
            side = sides[s]
            # both ways: each half named (issue 26: "X and X" read as one hand twice),
            # or named once where both halves have the same words (a paired hand with
            # no ace), as the web table's hand name says it (narration.felt)
            desc = h if side == "high" else lo if side == "low" else \
                f"high and low: {h}" if h == lo else f"high: {h}; low: {lo}"
            if s in showing:
                shown[s] = desc
                shown_cards[s] = tuple(cards[s])
                hand.events.append(show_event(hand, s, {"cards": cards[s], "description": desc,
                                                        "side": side}))
            else:
                hand.muck.extend(hand.hole[s])
                # the mucked hand's words for its own seat only (its "it loses to" line)
                hand.events.append(Event("muck", s, {"description": desc},
                                         to=frozenset({s}), public={}))
        results: list[PotResult] = []
        carried = 0
        for i, ((amount, eligible), st) in enumerate(zip(pots, settled, strict=True)):
            results.append(PotResult(amount, eligible, st.winners, high=st.high, low=st.low))
            carried += st.carried
            for s in st.failed:
                hand.events.append(Event("failed_both", s, {"pot": i}))
            for half, won in (("high", st.high), ("low", st.low)):
                for s, chips in won.items():
                    data: dict[str, object] = {"amount": chips, "pot": i,
                                               "half": None if st.whole else half}
                    if st.whole:  # not split: nobody was left on the other side
                        data["whole"] = st.whole
                        data["description"] = whole_pot_description(st.whole)
                    hand.events.append(Event("win", s, data))
            if st.carried:
                hand.events.append(Event("carry", None, {"amount": st.carried, "pot": i}))
        hand.finish(results, shown=shown, shown_cards=shown_cards, carried=carried)
        return None
