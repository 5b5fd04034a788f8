"""Check a dealt hand from its history: ``rollem verify FILE...`` (issue 32).

A hand dealt from committed seeds (:mod:`rollem.engine.commit_reveal`) carries
``_hand_no``, ``_commitment``, ``_prev_hash``, ``_client_seeds`` and, once the
hand is over, ``_server_seed`` and ``_hand_hash``.  :func:`verify_history`

1. checks ``_commitment = SHA-256(server_seed ‖ prev_hash)`` and ``_hand_hash``;
2. deals the hand again from the seeds alone (the engine asks the same
   :class:`~rollem.engine.commit_reveal.CommittedSource` for the deck and every
   later shuffle) applying the history's actions, and checks that every card
   dealt, burned, turned up, drawn from the pool and dealt after a reshuffle
   is the card the seeds put there, and that ``_deck`` and ``_shuffles`` are
   the seeds' orders (a full history) -- the first difference is the reason,
   naming the card and the line;
3. a player's own copy (``_redacted_for``) is checked the same way for every
   card it names; another player's hidden choice (``??``) is played with
   stand-in cards, which cannot change where later cards come from, until a
   shuffle of cards that depend on it (the Roll Your Own pool, a 5-2-1
   reshuffle): the check stops there, and says so (``partial``).

:func:`check_chain` checks that the hands of a session follow each other:
each hand's ``_prev_hash`` is the previous hand's ``_hand_hash``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from rollem.cards import CARDS, CardError, format_cards, parse_cards
from rollem.engine.actions import Bet, Call, Check, Discard, Draw, Raise, Stack, action_from_text
from rollem.engine.commit_reveal import CommittedSource, DealProof, ProofError, hex_text
from rollem.engine.errors import EngineError
from rollem.engine.hand import Hand
from rollem.history import (
    DealLine,
    History,
    HistoryError,
    _card_tokens,
    _event_key,
    _Lines,
    _one_line,
    _run,
    history_game,
    parse_history,
)

__all__ = ["VERIFIED", "Verdict", "check_chain", "verify_history", "verify_text"]

VERIFIED, PARTIAL, FAILED, UNREVEALED, NO_COMMITMENT = (
    "verified", "partial", "failed", "unrevealed", "no_commitment")

_SOURCE = "the committed seeds"
_DEALT = ("deal_hole", "draw_deal", "deal_up", "board", "burn", "dead", "wild", "pool_draw")


@dataclass
class Verdict:
    """What :func:`verify_history` found.

    Attributes:
        status: ``verified``; ``partial`` (a player's copy checked up to a
            shuffle of other players' hidden discards); ``failed``;
            ``unrevealed`` (the hand is not over: no server seed yet);
            ``no_commitment`` (a history without these fields).
        reason: one line saying why (or what was checked).
        cards: how many cards dealt in the hand were checked.
    """

    status: str
    reason: str
    hand_no: int | None = None
    commitment: str | None = None
    prev_hash: str | None = None
    hand_hash: str | None = None
    server_seed: str | None = None
    cards: int = 0

    @property
    def ok(self) -> bool:
        """Verified (wholly, or a player's copy as far as it can be)."""
        return self.status in (VERIFIED, PARTIAL)

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "ok": self.ok, "reason": self.reason,
                "hand_no": self.hand_no, "commitment": self.commitment,
                "prev_hash": self.prev_hash, "hand_hash": self.hand_hash,
                "server_seed": self.server_seed, "cards_checked": self.cards}


def verify_text(text: str) -> Verdict:
    """:func:`verify_history` of a history's TOML text.

    Raises:
        HistoryError: not a TOML hand history.
    """
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as err:
        raise HistoryError(f"not a TOML hand history: {_one_line(str(err))}") from None
    except RecursionError:
        raise HistoryError("not a hand history: arrays or tables nested too deeply") from None
    return verify_history(data)


def verify_history(data: Mapping[str, Any]) -> Verdict:
    """Check one hand's history (a dict as :func:`rollem.history.history_dict`
    or :func:`rollem.history.redact` gives); see the module doc."""
    if "_commitment" not in data:
        return Verdict(NO_COMMITMENT, "no commitment recorded (a hand dealt before "
                       "issue 32, or not from committed seeds): nothing to verify")
    commitment = str(data.get("_commitment")).upper()
    verdict = Verdict(FAILED, "", commitment=commitment,
                      prev_hash=str(data.get("_prev_hash")).upper(),
                      hand_no=data.get("_hand_no") if type(data.get("_hand_no")) is int else None)
    if "_server_seed" not in data:
        verdict.status = UNREVEALED
        verdict.reason = ("the server seed is not revealed yet (it is, once the hand is "
                          f"over): commitment {commitment}")
        return verdict
    try:
        proof = DealProof.from_fields(data)
    except ProofError as err:
        verdict.reason = str(err)
        return verdict
    verdict.server_seed = hex_text(proof.server_seed)
    if hex_text(proof.commitment) != commitment:
        verdict.reason = (f"_server_seed does not match _commitment: SHA-256(server seed ‖ "
                          f"prev hash) is {hex_text(proof.commitment)}, not {commitment}")
        return verdict
    verdict.hand_hash = hex_text(proof.hand_hash())
    if str(data.get("_hand_hash", "")).upper() != verdict.hand_hash:
        verdict.reason = (f"_hand_hash {data.get('_hand_hash')!r} is not the hash of "
                          "_server_seed, _client_seeds and _hand_no "
                          f"({verdict.hand_hash}): one of them was changed")
        return verdict
    try:
        if "_redacted_for" in data:
            cards, stopped = _check_copy(data, proof)
        else:
            cards, stopped = _check_full(data, proof), None
    except (HistoryError, EngineError, CardError) as err:
        verdict.reason = _one_line(str(err))
        return verdict
    verdict.cards = cards
    if stopped is not None:
        verdict.status = PARTIAL
        verdict.reason = f"{cards} cards are where the seeds put them; {stopped}"
    else:
        verdict.status = VERIFIED
        verdict.reason = f"all {cards} cards dealt are where the seeds put them"
    return verdict


def _cards_dealt(hand: Hand) -> int:
    total = 0
    for e in hand.events:
        if e.kind in _DEALT:
            total += len(e.data["cards"]) if "cards" in e.data else 1
    return total


def _new_hand(h: History, data: Mapping[str, Any], proof: DealProof) -> Hand:
    return Hand(history_game(data), h.stacks, button=h.button, options=h.options,
                source=CommittedSource(proof), carry_in=h.carry_in)


def _check_full(data: Mapping[str, Any], proof: DealProof) -> int:
    """The whole history: every line and ``_deck``/``_shuffles``; the cards checked."""
    h = parse_history(data)
    hand = _new_hand(h, data, proof)
    if h.deck is not None:
        for i, (want, dealt) in enumerate(zip(h.deck, hand.deck, strict=False)):
            if want != dealt:
                raise HistoryError(f"card {i + 1} of _deck is {CARDS[want]}, but the seeds "
                                   f"put {CARDS[dealt]} there")
    _run(hand, h, True, source=_SOURCE)
    later = hand.source.outcomes[1:]
    for i, (label, order) in enumerate(h.shuffles):
        if i >= len(later):
            raise HistoryError(f"_shuffles {i + 1} ({label}): the hand has no such shuffle")
        got_label, got = later[i][0], list(later[i][1])
        if (label, list(order)) != (got_label, got):
            at = next((k for k, (a, b) in enumerate(zip(order, got, strict=False)) if a != b),
                      min(len(order), len(got)))
            shown = f"{CARDS[order[at]]}" if at < len(order) else "nothing"
            seeds = f"{CARDS[got[at]]}" if at < len(got) else "nothing"
            raise HistoryError(f"_shuffles {i + 1} ({label}): card {at + 1} is {shown}, but "
                               f"the seeds put {seeds} there")
    if len(h.shuffles) < len(later):
        raise HistoryError(f"_shuffles records {len(h.shuffles)} later shuffles; the hand "
                           f"has {len(later)}")
    if h.result is not None and hand.result is not None:
        got_result = hand.result.to_dict()
        for key in ("pots", "net", "carried"):
            if key in h.result and h.result[key] != got_result[key]:
                raise HistoryError(f"recorded _result {key} differs from the hand dealt "
                                   "from the seeds")
    return _cards_dealt(hand)


def _check_copy(data: Mapping[str, Any], proof: DealProof) -> tuple[int, str | None]:
    """A player's own copy: every card it names (see the module doc).  Returns the
    cards checked and, if the check stopped early, why."""
    header = {k: v for k, v in data.items() if k not in ("_redacted_for", "actions", "_result")}
    h = parse_history({**header, "actions": []})
    hand = _new_hand(h, data, proof)
    lines = _Lines(hand, h, True)
    lines.source = _SOURCE
    raw = data.get("actions", [])
    if not isinstance(raw, list):
        raise HistoryError("actions must be a list of lines")
    n = len(h.stacks)
    checked = 0
    hidden_at: int | None = None  # shuffles done before the first hidden choice
    actions = 0
    for i, line in enumerate(raw):
        body = str(line).split("#", 1)[0]
        parts = _card_tokens(body.split())
        if not parts:
            continue
        where = f"line {i + 1} of actions ({_one_line(str(line))})"
        if hidden_at is not None and len(hand.source.outcomes) > hidden_at:
            label = hand.source.outcomes[hidden_at][0]
            what = "the pool's shuffle" if label == "pool" else f"a {label}"
            return checked, (f"not checked from {where} on: {what} holds other players' "
                             "hidden discards, which this copy does not name")
        if parts[0] == "d":
            if "??" in parts or len(parts) < 3:
                continue
            code = parts[1]
            seat = _seat(parts[2], n, where) if code in ("dh", "du", "pd") else None
            cards = parse_cards(parts[3:] if seat is not None else parts[2:])
            lines.check(DealLine(code, seat, tuple(cards), i + 1, _one_line(str(line)), actions))
            checked += len(cards)
            continue
        seat = _seat(parts[0], n, where)
        if len(parts) >= 2 and parts[1] == "sm":
            _check_show(hand, seat, parts[2:], where)
            continue
        if hand.is_over:
            continue  # shows by choice are 'sm' lines; nothing else comes after the end
        if "??" in parts:
            if hidden_at is None:
                hidden_at = len(hand.source.outcomes)
            action: object = _stand_in(hand, seat, parts[1], parts.count("??"), where)
        else:
            action = _action(hand, seat, " ".join(parts[1:]), where)
        lines.segment()  # lines after it match only what it deals
        try:
            hand.apply(seat, action)
        except EngineError as err:
            if hidden_at is not None:  # the stand-in cards may not allow it: stop there
                return checked, (f"not checked from {where} on: it depends on another "
                                 "player's hidden choice")
            raise HistoryError(f"{where}: {_one_line(str(err))}") from None
        actions += 1
    return checked, None


def _seat(token: str, n: int, where: str) -> int:
    if not token.startswith("p") or not token[1:].isdigit() or not 1 <= int(token[1:]) <= n:
        raise HistoryError(f"{where}: bad player {token!r}: expected p1..p{n}")
    return int(token[1:]) - 1


def _action(hand: Hand, seat: int, text: str, where: str) -> object:
    try:
        action = action_from_text(text)
    except (ValueError, TypeError) as err:
        raise HistoryError(f"{where}: {_one_line(str(err))}") from None
    p = hand.pending
    if p is not None and p.kind == "bet":
        if isinstance(action, Call) and "check" in hand.legal_actions(seat).actions:
            return Check()
        if isinstance(action, Raise) and hand.current_bet == 0:
            return Bet(action.to)
    return action


def _stand_in(hand: Hand, seat: int, kind: str, count: int, where: str) -> object:
    """Another player's hidden choice of ``count`` cards, played with the first
    cards it may choose: where its real cards went is hidden, and where later
    cards come from does not depend on it until a shuffle of them."""
    legal = hand.legal_actions(seat)
    cards = tuple(legal.cards)
    if kind == "dis":
        return Discard(cards[:count])
    if kind in ("sd", "draw"):
        return Draw(cards[:count])
    if kind == "stack":
        return Stack(cards)
    raise HistoryError(f"{where}: hidden cards (??) in a {kind!r} line; only other "
                       "players' discards, draws and stacking orders are hidden")


def _check_show(hand: Hand, seat: int, cards_text: Sequence[str], where: str) -> None:
    """A shown hand (in a copy, in the order all saw it): cards the seats' deal gave it."""
    if not cards_text or "??" in cards_text:
        return
    shown = parse_cards(list(cards_text))
    given: set[int] = set()
    for e in hand.events:
        key = _event_key(e.kind, e.seat, e.data)
        if key is not None and key[1] == seat and key[0] in ("dh", "du", "pd"):
            given.update(key[2])
    if hand.source.outcomes[1:]:
        return  # cards may have come from a shuffle of hidden cards: not checkable here
    stray = [c for c in shown if c not in given]
    if stray:
        raise HistoryError(f"{where}: p{seat + 1} shows {format_cards(stray)}, but the seeds "
                           f"never dealt {'it' if len(stray) == 1 else 'them'} to p{seat + 1}")


def check_chain(verdicts: Sequence[Verdict]) -> str | None:
    """Whether hands of one session follow each other: sorted by hand number,
    each hand's ``_prev_hash`` must be the previous hand's ``_hand_hash`` and
    the numbers consecutive.  Returns the first break (one line), or ``None``.
    Hands without a revealed hash are left out."""
    hands = sorted((v for v in verdicts if v.hand_no is not None and v.hand_hash),
                   key=lambda v: v.hand_no or 0)
    for a, b in pairwise(hands):
        if a.hand_no == b.hand_no:
            if a.hand_hash == b.hand_hash:
                continue  # two copies of one hand (two players' copies)
            return f"two different hands are numbered {a.hand_no}"
        if b.prev_hash != a.hand_hash:
            gap = "" if b.hand_no == (a.hand_no or 0) + 1 else \
                f" (hands {(a.hand_no or 0) + 1} to {(b.hand_no or 0) - 1} are not given)"
            return (f"hand {b.hand_no} does not follow hand {a.hand_no}: its _prev_hash is not "
                    f"hand {a.hand_no}'s _hand_hash{gap}; a hand between them is missing, "
                    "or one was rewritten or reordered")
    return None
