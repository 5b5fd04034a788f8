"""The check of a copy's showdown (:func:`_check_showdown`): the engine's
showdown on the real cards the copy shows."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from rollem.cards import CARDS, Card, CardError
from rollem.engine.hand import Hand
from rollem.engine.result import HandOutcome, outcome_from_dict
from rollem.history import (
    HistoryError,
    same_words,
)
from rollem.history.copy_stand_ins import IMPOSSIBLE, _card, _split
from rollem.text import ascii_digits


def _check_showdown(data: Mapping[str, Any], hand: Hand, seat: int,
                    mine: Sequence[Card]) -> None:
    """A recorded showdown against the shown cards (R-C-9..R-C-11, R-521-9).

    The shown hands are real cards (``_result.shown_cards``, checked against
    the show lines by :func:`_check_shown_cards`) and the board, wild card and
    declarations are public lines, so the engine's own showdown step of
    ``hand`` (the stand-in hand, finished) is run again on a copy of it with
    each showing seat holding its shown cards, the seat's own cards ``mine``
    (known to it, shown or not) and every other mucked seat out (a hand that
    mucks wins nothing, R-C-11; a 5-2-1 both-ways declarer that mucks has
    failed, which no other result depends on, R-521-9), every hand shown (so
    described; who shows is not compared: in 5-2-1 a hand that made a mucked
    declarer fail shows, R-C-11). Its descriptions, each pot's winners and
    halves and the chips carried must be the copy's; a mucked own hand that
    would win or tie a share is refused (the engine would have shown it).

    Raises:
        HistoryError: naming the field and what the cards give.
    """
    result = data.get("_result")
    if not isinstance(result, Mapping) or hand.result is None or not hand.result.showdown:
        return
    try:
        told = outcome_from_dict(dict(result))
    except (ValueError, CardError) as err:
        raise HistoryError(str(err)) from None
    recorded = "shown_cards" in result
    if not recorded:  # (a hand-written history's copy) the show lines tell them
        shows = _shows_of(data.get("actions", []), hand, told.shown)
        if shows is None:
            return  # lines left out, as a hand-written history may: nothing to go by
        told.shown_cards = shows
    again = copy.deepcopy(hand)
    assert again.result is not None
    for pot in again.result.pots:  # undo the stand-in showdown's payments
        for s, chips in pot.winners.items():
            again.stacks[s] -= chips
    again.result = None
    for s in range(again.n):
        if again.folded[s]:
            continue
        cards = list(told.shown_cards.get(s, mine if s == seat else ()))
        if not cards:
            again.folded[s] = True  # mucked: out of the pots (R-C-11)
            again.n_live -= 1
            continue
        if len(cards) != len(again.hole[s]):
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards gives p{s + 1} "
                               f"{len(cards)} cards, but p{s + 1} holds {len(again.hole[s])}")
        again.hole[s] = cards
        again.stacks[s] = 0  # as if all in: every hand shows, described (R-C-11)
    for s in told.shown_cards:
        if not 0 <= s < again.n or again.folded[s]:
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards names seat {s}, which "
                               "is not in the hand at the showdown")
    try:
        again.steps[again.step_index - 1].start(again)
    except ValueError as err:  # (an EngineError too) a pot no shown hand contests
        raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards leave a pot that no shown "
                           f"hand contests ({err})") from None
    got = _outcome(again)
    for s, words in sorted(told.shown.items()):
        if s in told.shown_cards and not same_words(words, got.shown.get(s)):
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown says p{s + 1} has {words!r}, "
                               f"but its shown cards ({_cards(told.shown_cards.get(s, ()))}) "
                               f"make {got.shown[s]!r}")
    if seat not in told.shown_cards and not hand.folded[seat]:
        won = {i: p.winners.get(seat, 0) for i, p in enumerate(got.pots)}
        share = next(((i, c) for i, c in won.items() if c > 0), None)
        if share is not None:
            raise HistoryError(f"{IMPOSSIBLE}: you muck {_cards(mine)}, which win "
                               f"{share[1]} of pot {share[0]} against the hands shown: "
                               "the engine would have shown them (R-C-11)")
    if recorded and set(told.shown) != set(told.shown_cards):
        raise HistoryError(f"{IMPOSSIBLE}: its _result.shown describes seats "
                           f"{_seats(told.shown)}, but seats {_seats(told.shown_cards)} show")
    if [p.amount for p in got.pots] != [p.amount for p in told.pots]:
        raise HistoryError(f"{IMPOSSIBLE}: its _result pots {[p.amount for p in told.pots]} "
                           "are not the pots the shown hands contest "
                           f"{[p.amount for p in got.pots]}")
    for i, (g, t) in enumerate(zip(got.pots, told.pots, strict=True)):
        for field in ("winners", "high", "low"):
            want, have = getattr(g, field), getattr(t, field)
            if field != "winners" and not want and not have:
                continue  # no such half (a high-only game, or a pot taken whole)
            if (want or {}) != (have or {}):
                raise HistoryError(
                    f"{IMPOSSIBLE}: its _result.pots[{i}].{field} is {_chips(have or {})}, "
                    f"but the shown hands give {_chips(want or {})}")
    if got.carried != told.carried:
        raise HistoryError(f"{IMPOSSIBLE}: its _result.carried is {told.carried}, but the "
                           f"shown hands carry {got.carried}")


def _shows_of(lines: Sequence[str], hand: Hand,
              shown: Mapping[int, str]) -> dict[int, tuple[Card, ...]] | None:
    """Without ``_result.shown_cards``: each seat's showdown cards from its first
    show line (``pN sm``; a show by choice comes later), for the seats ``shown``
    describes, or (none described) every seat still in the hand that shows;
    ``None`` when a seat still in the hand has no show line (left out)."""
    out: dict[int, tuple[Card, ...]] = {}
    seen: set[int] = set()
    for line in lines:
        parts, _ = _split(line)
        if len(parts) < 2 or parts[1] != "sm" or not ascii_digits(parts[0][1:]):
            continue
        s = int(parts[0][1:]) - 1
        if s in seen or not 0 <= s < hand.n or hand.folded[s]:
            continue
        seen.add(s)
        if len(parts) > 2 and (not shown or s in shown):
            out[s] = tuple(_card(c) for c in parts[2:])
    if any(not hand.folded[s] and s not in seen for s in range(hand.n)):
        return None
    return out


def _outcome(hand: Hand) -> HandOutcome:
    assert hand.result is not None
    return hand.result


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(CARDS[c]) for c in cards)


def _seats(table: Mapping[int, Any]) -> str:
    return ", ".join(f"p{s + 1}" for s in sorted(table)) or "none"


def _chips(table: Mapping[int, int]) -> str:
    return ", ".join(f"p{s + 1} {c}" for s, c in sorted(table.items())) or "nobody"

