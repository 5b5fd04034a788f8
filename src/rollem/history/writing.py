"""Writing a hand's history: :func:`history_dict`, :func:`write_history`,
:func:`write_own_copy` (R-C-13)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tomli_w

from rollem.cards import CARDS, format_cards
from rollem.engine.actions import (
    action_to_text,
)
from rollem.engine.forced import BringIn
from rollem.engine.hand import Hand
from rollem.engine.options import FIXED_LIMIT
from rollem.history.format import (
    VERSION,
    _p,
    _phh,
)
from rollem.history.redaction import redact


def _event_line(kind: str, seat: int | None, data: Mapping[str, Any]) -> str | None:
    if kind in ("deal_hole", "draw_deal"):
        return f"d dh {_p(seat)} {_phh(data['cards'])}"
    if kind == "deal_up":
        return f"d du {_p(seat)} {format_cards(data['cards'])}"
    if kind == "burn":
        return f"d burn {CARDS[data['card']]}"
    if kind == "pool_draw":
        return f"d pd {_p(seat)} {CARDS[data['card']]}"
    if kind == "wild":
        return f"d wild {CARDS[data['card']]}"
    if kind == "dead":
        return f"d dead {CARDS[data['card']]} # {data.get('label', '')}".rstrip(" #")
    if kind == "board":
        return f"d db {_phh(data['cards'])} # {data.get('label', '')}".rstrip(" #")
    if kind == "reshuffle":  # R-521-5: the new stub's order is in _shuffles
        own = ", their own discards added" if data.get("own") else ""
        return (f"# reshuffle for {_p(seat)}: {data['count']} cards (muck and discards"
                f"{own}) -> _shuffles")
    if kind == "roll":  # R-521-7 (the cards are set by the stacking; a comment)
        return f"# roll {_p(seat)} {CARDS[data['card']]}"
    if kind == "show":
        if data.get("by_choice"):  # written as the player's action line (R-C-11)
            return None
        return f"{_p(seat)} sm {_phh(data['cards'])}"
    if kind == "muck":
        return f"{_p(seat)} sm"
    return None


def history_dict(hand: Hand, *, players: Sequence[str] | None = None,
                 tournament: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The history of ``hand`` as a TOML-ready dict (see the module doc).

    ``tournament``: a tournament hand's schedule, level (1-based) and stakes
    (issue 28), written as ``_tournament``.

    PHH fields first (``min_bet`` only in pot- and no-limit, ``seats`` the
    physical seat numbers 1..n), then rollem's ``_`` fields.
    """
    opts = hand.options
    n = hand.n
    lines: list[str] = []
    marks = hand.action_marks
    k = 0
    for i, ev in enumerate(hand.events):
        while k < len(marks) and marks[k] == i:
            seat, action = hand.actions[k]
            lines.append(f"{_p(seat)} {action_to_text(action)}")
            k += 1
        line = _event_line(ev.kind, ev.seat, ev.data)
        if line is not None:
            lines.append(line)
    while k < len(marks):
        seat, action = hand.actions[k]
        lines.append(f"{_p(seat)} {action_to_text(action)}")
        k += 1
    outcomes = hand.source.outcomes
    out: dict[str, Any] = {
        "variant": f"rollem-{hand.game.id}",
        "ante_trimming_status": True,
        "antes": _antes(hand, opts.bomb_pot or opts.ante),  # a bomb pot: its ante
        "blinds_or_straddles": _blinds(hand),
        "small_bet": opts.small_bet,
        "big_bet": opts.big_bet,
    }
    bring_in = [step for step in hand.steps if isinstance(step, BringIn)]
    if bring_in:  # PHH bring_in (a stud game's; none in our three games)
        out["bring_in"] = bring_in[0].amount
    if opts.structure != FIXED_LIMIT:
        out["min_bet"] = opts.small_bet
    out.update({
        "starting_stacks": list(hand.start_stacks),
        "actions": lines,
        # a seat not dealt in (empty, or its player sitting out) is no player of the
        # hand: "" (issue 26: a download listed the empty seats as "seat 4", ...)
        "players": ([p if hand.dealt[s] else "" for s, p in enumerate(players)]
                    if players is not None else [f"seat {s}" for s in range(n)]),
        "seats": list(range(1, n + 1)),
        "_version": VERSION,
        "_game": hand.game.id,
        "_button": hand.button,
        "_options": opts.to_dict(),
        "_carry_in": hand.carry_in,
        "_deck": format_cards(outcomes[0][1]) if outcomes else "",
        "_shuffles": [{"label": label, "cards": format_cards(order)}
                      for label, order in outcomes[1:]],
    })
    if tournament is not None:
        out["_tournament"] = dict(tournament)
    if hand.result is not None:
        out["finishing_stacks"] = list(hand.stacks)
        out["_result"] = hand.result.to_dict(cards=True)
    if hand.source.proof is not None:  # a committed deck (issue 32, docs/verify.md)
        out.update(hand.source.proof.fields())
    from rollem import games

    if hand.game.source and not games.is_shipped(hand.game):
        out["_game_file"] = hand.game.source  # a user's game: the history carries it
    return out


def write_history(hand: Hand, *, players: Sequence[str] | None = None,
                  tournament: Mapping[str, Any] | None = None) -> str:
    """The history of ``hand`` as TOML text (``tournament``: :func:`history_dict`)."""
    return tomli_w.dumps(history_dict(hand, players=players, tournament=tournament))


def write_own_copy(hand: Hand, seat: int, *, players: Sequence[str] | None = None,
                   tournament: Mapping[str, Any] | None = None) -> str:
    """``seat``'s own copy of the history of ``hand`` as TOML text (:func:`redact`):
    what that seat saw (its own cards, the cards dealt face up, the cards
    shown at the showdown, R-C-11, or by choice after the hand), every other
    card ``??``; ``_redacted_for = seat``. ``rollem play`` saves this, and the
    web table's download is this (a player's file must never hold a card that
    player did not see).

    Raises:
        ValueError: ``seat`` is not a seat of the hand (0 to ``hand.n - 1``).
    """
    if not 0 <= seat < hand.n:
        raise ValueError(f"seat {seat} is not a seat of the hand (0 to {hand.n - 1})")
    # (the openings come from ``hand`` itself: no second replay, showdown and all)
    return tomli_w.dumps(redact(history_dict(hand, players=players, tournament=tournament),
                                seat, hand=hand))


def _antes(hand: Hand, ante: int) -> list[int]:
    """PHH ``antes``: the ante of each seat dealt in, where the game takes antes
    (a blind game's seats ante nothing, whatever the ante option says)."""
    antes = any(e.kind == "ante" for e in hand.events)
    return [ante if antes and hand.dealt[s] else 0 for s in range(hand.n)]


def _blinds(hand: Hand) -> list[int]:
    """PHH ``blinds_or_straddles``: the chips each seat posted as a blind or straddle."""
    posted = [0] * hand.n
    for e in hand.events:
        if e.kind == "blind" and e.seat is not None:
            posted[e.seat] += int(e.data["amount"])
    return posted
