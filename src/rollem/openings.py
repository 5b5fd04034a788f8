"""Which positions of the committed deck a player's own copy opens (issue 32).

After the hand a seat's copy gets an opening (:class:`~rollem.engine.
commit_reveal.Opening`) for exactly the positions whose cards that seat saw
come off the deck, so that ``rollem verify`` can prove each of them and no
other card can be read from the copy (docs/verify.md):

- cards dealt from the deck that the seat saw as they were dealt: its own
  hole cards and draws, every card dealt face up, the board (never a burn,
  never another seat's face-down card);
- another seat's face-down cards that it showed (at the showdown, by choice
  after the hand, R-C-11, or turned up: ``exp``, a roll), if that seat made
  no hidden exchange in the hand (no discard, draw or stacking order): its
  cards then all came off the deck where it was dealt them, and the opening
  tells only the order they were dealt.  A seat that exchanged cards showed
  them in :func:`~rollem.engine.public_order.public_order` so that nobody
  learns which it kept and which it drew (R-RYO-2, R-521-2); an opening
  would tell that, so none is given and ``verify`` leaves those shown cards
  unchecked;
- only cards dealt from the deck as committed: never after a 5-2-1
  reshuffle, never from the Roll Your Own pool (their places are the
  dealer's secret, like the pool's order).

Every opened card is also a card the copy names in the clear
(:func:`clear_cards`); one that is not is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollem.cards import CARDS, CardError, parse_cards
from rollem.engine.commit_reveal import DealProof, ProofError
from rollem.engine.hand import Hand

__all__ = ["STUB_DEALS", "clear_cards", "copy_openings", "seen_positions"]

STUB_DEALS = ("deal_hole", "deal_up", "board", "burn", "dead", "draw_deal")
"""Events that take cards off the deck (the stub)."""

_EXCHANGES = ("draw", "discard", "stacked")
_TURNED = ("show", "expose", "roll")


def _cards(data: Mapping[str, Any]) -> list[int]:
    return list(data["cards"]) if "cards" in data else [data["card"]]


def seen_positions(hand: Hand, seat: int) -> dict[int, int]:
    """Positions of the deck dealt (0 = top) whose cards ``seat`` saw come off
    the deck, or saw shown by a seat that made no hidden exchange (module
    doc) -> the card there."""
    deck = hand.source.outcomes[0][1]
    where = {int(c): i for i, c in enumerate(deck)}
    exchanged = {e.seat for e in hand.events
                 if e.kind in _EXCHANGES and e.data.get("cards") and e.seat != seat}
    shown: set[int] = set()
    for e in hand.events:
        if e.kind in _TURNED and e.seat is not None and e.seat not in exchanged:
            form = e.data if e.to is None or seat in e.to else e.public
            if form is not None and ("cards" in form or "card" in form):
                shown.update(_cards(form))
    out: dict[int, int] = {}
    owner: dict[int, int | None] = {}
    for e in hand.events:
        if e.kind == "reshuffle":
            break  # every card after it comes from a secret shuffle of used cards
        if e.kind not in STUB_DEALS:
            continue
        for c in _cards(e.data):
            owner[c] = e.seat
            if e.to is None or seat in e.to:
                out[where[c]] = c
    for c in shown:
        if c in owner and owner[c] is not None and owner[c] not in exchanged:
            out[where[c]] = c
    return out


def clear_cards(copy: Mapping[str, Any]) -> set[str]:
    """Every card a copy names in the clear: in its ``actions`` lines (before
    any ``#`` comment, and in ``# roll`` comments) and ``_result.shown_cards``."""
    from rollem.history import _card_tokens

    out: set[str] = set()
    for line in copy.get("actions", []):
        for token in _card_tokens(str(line).replace("#", " ").split()):
            try:
                out.update(str(c) for c in parse_cards(token))
            except CardError:
                continue
    result = copy.get("_result")
    if isinstance(result, Mapping) and isinstance(result.get("shown_cards"), Mapping):
        for cards in result["shown_cards"].values():
            out.update(str(c) for c in cards if isinstance(c, str))
    return out


def copy_openings(data: Mapping[str, Any], seat: int, copy: Mapping[str, Any],
                  hand: Hand | None = None) -> list[dict[str, Any]]:
    """The ``_openings`` of ``seat``'s copy (``copy``: its other fields) of the
    finished full history ``data`` (which holds ``_deal_key``), by position.

    ``hand``: the finished hand ``data`` was written from, if at hand (else
    ``data`` is replayed to find which cards came off the deck where).

    Raises:
        ProofError: the history's deal is not the one its key gives.
    """
    from rollem.history import parse_history, replay

    proof = DealProof.from_fields(data)
    if hand is None:
        hand = replay(parse_history(dict(data)))
    perm = proof.permutation()
    clear = clear_cards(copy)
    out = []
    for i, card in sorted(seen_positions(hand, seat).items()):
        pos = perm[i]
        if proof.deck[pos] != card:
            raise ProofError(f"card {i + 1} of the deck is {CARDS[card]}, but the deal key "
                             f"puts {CARDS[proof.deck[pos]]} there")
        if str(CARDS[card]) in clear:
            out.append(proof.opening(pos).to_fields())
    return sorted(out, key=lambda o: int(o["pos"]))
