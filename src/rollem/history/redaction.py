"""One seat's own copy of a history: :func:`redact` (what the seat saw,
where it saw it; never a card it did not see)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rollem import toml_input
from rollem.cards import CARDS, Card, CardError, parse_cards
from rollem.engine.public_order import public_order
from rollem.history.format import (
    HistoryError,
    _p,
)
from rollem.text import ascii_digits

if TYPE_CHECKING:
    from rollem.engine import Hand

_HIDDEN_CHOICES = ("dis", "draw", "sd", "stack")
_SECRETS = ("_deck", "_shuffles", "_deal_key")


def _card_tokens(tokens: Sequence[str]) -> list[str]:
    """Card text, one card a token, from separate (``Qs Qd``) or PHH's
    run-together (``QsQd``, ``????``) tokens; anything else kept as is."""
    out: list[str] = []
    for t in tokens:
        if len(t) < 4:
            # at most one card (two take four characters, ``2c3d``): kept as is, as
            # a longer token that is not a run of cards, without parsing it (most
            # tokens: ``p1``, ``cbr``, ``Qs``, ``10c``)
            out.append(t)
        else:
            out += _run_tokens(t)
    return out


@lru_cache(maxsize=4096)
def _run_tokens(t: str) -> tuple[str, ...]:
    """:func:`_card_tokens` of one token: its cards' text if it is a run of two
    or more (``????`` as ``??`` twice), else the token. Cached: a history's copy
    for each seat reads every line twice (:func:`_turned_up`, :func:`redacted_for`),
    and a table writes a copy for every seat of each hand."""
    if len(t) % 2 == 0 and set(t) == {"?"}:
        return ("??",) * (len(t) // 2)
    try:
        cards = parse_cards(t)
    except CardError:
        cards = []
    return tuple(str(c) for c in cards) if len(cards) > 1 else (t,)


def _turned_up(raw_lines: Sequence[str]) -> dict[str, list[str]]:
    """``pN`` -> every seat's cards in the order turned face up (``d du``, ``exp``,
    ``# roll`` lines), as :func:`rollem.engine.public_order.turned_up`; a key for
    every seat named in a line."""
    out: dict[str, list[str]] = {}
    for line in raw_lines:
        body, _, comment = line.partition("#")
        parts = _card_tokens(body.split())
        bits = comment.split()
        if len(parts) >= 3 and parts[0] == "d" and parts[1] == "du":
            out.setdefault(parts[2], []).extend(parts[3:])
        elif len(parts) >= 3 and parts[1] == "exp":
            out.setdefault(parts[0], []).append(parts[2])
        elif not parts and len(bits) >= 3 and bits[0] == "roll":
            out.setdefault(bits[1], []).append(bits[2])
        elif len(parts) >= 2 and parts[0].startswith("p"):
            out.setdefault(parts[0], [])
    return out


def _public_text(cards: Sequence[str], turned: Sequence[str]) -> list[str]:
    """Cards (text) in :func:`rollem.engine.public_order.public_order` (unchanged
    if any is not a card)."""
    try:
        known = [_first_card(c) for c in cards]
        up = [_first_card(c) for c in turned]
    except (CardError, IndexError):
        return list(cards)
    return [str(c) for c in public_order(known, up)]


_BY_TEXT = {str(c): c for c in CARDS}
"""A card's own text (``Qs``) -> the card: what :func:`parse_cards` gives it,
without parsing (a history writes its cards so)."""


def _first_card(text: str) -> Card:
    """``parse_cards(text)[0]`` (its errors too), a card's own text looked up."""
    card = _BY_TEXT.get(text)
    return card if card is not None else parse_cards(text)[0]


def redact(history: Mapping[str, Any] | str, seat: int,
           hand: Hand | None = None) -> dict[str, Any]:
    """``seat``'s copy of a history: what it saw, where it saw it.

    Removes ``_deck`` and ``_shuffles`` (the stub and the pool's order) and
    a committed deck's ``_deal_key`` (it gives every card; issue 32): once
    the hand is over (``_result``) the copy gets instead ``_openings``, the
    openings of exactly the cards the seat saw come off the deck
    (:func:`rollem.openings.copy_openings`); and
    replaces with ``??`` every card the seat did not see at that point: other
    seats' hole cards and draws where they were dealt (``d dh``, a 5-2-1
    replacement, a Roll Your Own pool draw ``d pd``), burns, and other seats'
    discards, draws and stacking orders. A card another seat later showed is
    named only where the seat saw it: turned up (``exp``, a roll), at the
    showdown (the ``pN sm`` line, ``_result.shown_cards``) or shown by choice
    after the hand (R-C-11), never at the deal; and shown hands are in
    :func:`~rollem.engine.public_order.public_order` (face-up cards in the order
    turned up, then the rest highest first), not the order dealt and drawn.
    So the copy does not tell which shown cards were kept, discarded and drawn
    back from the pool (R-RYO-2, R-RYO-5, R-RYO-6) or drawn as replacements
    (R-521-2, R-521-4): the same as the seat's view during the hand
    (``Hand.view``). Run-together cards stay run together (``d dh p2 ????``).

    The copy is for display: ``_redacted_for`` says whose it is, and
    :func:`replay` refuses it (it never invents the hidden cards).

    ``hand``: the finished hand ``history`` was written from, if at hand; its
    openings are then read from it instead of from a replay of ``history``
    (the same cards; a costly showdown is not played a second time).

    Raises:
        HistoryError: ``seat`` is not one of the history's seats (0 to the number
            of ``starting_stacks`` less one; a copy for seat 9 of a two-player
            hand was made without a word, issue 33's try-out).
    """
    data = toml_input.loads(history) if isinstance(history, str) else dict(history)
    stacks = data.get("starting_stacks")
    if isinstance(stacks, list) and (type(seat) is not int or not 0 <= seat < len(stacks)):
        raise HistoryError(f"seat {seat!r}: not a seat of this hand; expected 0 to "
                           f"{len(stacks) - 1}")
    return redacted_for(data, seat, hand)


def redacted_for(data: Mapping[str, Any], seat: int, hand: Hand | None = None
                 ) -> dict[str, Any]:
    """:func:`redact` of a history's table without the seat check: ``seat`` may be
    the number of seats, nobody's, for what an onlooker saw
    (:mod:`rollem.history.own_copy`'s check of a copy)."""
    data = dict(data)
    raw_lines = [str(line) for line in data.get("actions", [])]
    me = _p(seat)
    turned = _turned_up(raw_lines)
    lines: list[str] = []
    for line in raw_lines:
        tokens = line.split("#", 1)[0].split()
        parts = _card_tokens(tokens)
        if len(parts) >= 3 and parts[0] != me and parts[1] == "sm" and parts[0] in turned:
            # another seat's shown cards in the order all saw them (public_order)
            cards = _public_text(parts[2:], turned[parts[0]])
            sep = "" if len(tokens) == 3 else " "
            lines.append(f"{parts[0]} sm " + sep.join(cards))
            continue
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "pd") and parts[2] != me:
            # another seat's face-down cards: none seen where they were dealt
            sep = "" if parts[1] == "dh" and len(tokens) == 4 else " "
            lines.append(f"d {parts[1]} {parts[2]} " + sep.join("??" for _ in parts[3:]))
            continue
        if len(parts) >= 2 and parts[0] == "d" and parts[1] == "burn":
            lines.append("d burn ??")
            continue
        if len(parts) >= 2 and parts[0].startswith("p") and parts[0] != me \
                and parts[1] in _HIDDEN_CHOICES:
            # a stand pat hides nothing: ``pN sd`` as PHH writes it, no trailing space
            sep = "" if parts[1] == "sd" else " "
            lines.append(" ".join([parts[0], parts[1], *(
                [sep.join("??" for _ in parts[2:])] if len(parts) > 2 else [])]))
            continue
        lines.append(line)
    # the deal key gives every card: never in a copy (issue 32)
    out = {k: v for k, v in data.items() if k not in _SECRETS}
    out["actions"] = lines
    result = out.get("_result")
    if isinstance(result, Mapping) and isinstance(result.get("shown_cards"), Mapping):
        out["_result"] = {**result, "shown_cards": {
            s: _public_text([str(c) for c in cs], turned.get(f"p{int(s) + 1}", []))
            if ascii_digits(str(s)) and isinstance(cs, list) else cs
            for s, cs in result["shown_cards"].items()}}
    out["_redacted_for"] = seat
    if "_deal_key" in data and "_result" in data:
        from rollem.openings import copy_openings

        out["_openings"] = copy_openings(data, seat, out, hand=hand)
    return out
