"""``rollem replay FILE [--json]``: replay a hand history through the engine."""

from __future__ import annotations

import json
from pathlib import Path

import click

from rollem.cards import CARDS, RANK_PLURALS, format_cards
from rollem.cli.errors import fail
from rollem.engine.declare import whole_pot_description
from rollem.engine.hand import Hand
from rollem.history import HistoryError, replay

__all__ = ["replay_command", "summary"]


def summary(hand: Hand) -> str:
    """A readable summary of a finished hand."""
    r = hand.result
    lines = [f"{hand.game.name}: {sum(hand.dealt)} players, button seat {hand.button}"]
    wild_card = hand.extra.get("wild_card")  # R-RYO-7: turned up, part of no hand
    dead = [c for c in hand.dead if c != wild_card]
    if dead:  # the Stop and the Drop (R-SDR-6)
        lines.append("Dead cards: " + format_cards(dead))
    if hand.board:
        lines.append("Board: " + format_cards(hand.board))
    if hand.wild_ranks:
        ranks = " and ".join(RANK_PLURALS[r] for r in hand.wild_ranks) + " wild"
        if wild_card is not None:
            lines.append(f"Wild card: {CARDS[wild_card]} ({ranks})")
        else:
            lines.append(f"Wild: {ranks}")
    if r is None:
        p = hand.pending
        who = ", ".join(str(s) for s in p.seats) if p else "-"
        lines.append(f"The history ends before the hand is over (waiting for seat {who}).")
        return "\n".join(lines)
    declared = hand.extra.get("declarations")
    if declared:  # 5-2-1 (R-521-8)
        lines.append("Declared: " + ", ".join(f"seat {s} {d}" for s, d in declared.items()))
    for seat, desc in r.shown.items():
        cards = format_cards(r.shown_cards.get(seat, ()))
        lines.append(f"Seat {seat} shows {cards}: {desc}")
    if not r.showdown:
        lines.append("Won without a showdown (everyone else folded).")
    for i, pot in enumerate(r.pots):
        name = "Main pot" if i == 0 else f"Side pot {i}"
        won = ", ".join(f"seat {s} wins {c}" for s, c in pot.winners.items())
        elig = " ".join(str(s) for s in pot.eligible)
        if pot.high is not None and pot.low is not None:  # high-low (R-521-9)
            if bool(pot.high) != bool(pot.low):
                # nobody left on one side: the other takes the whole pot, no halves
                side = "high" if pot.high else "low"
                part = pot.high or pot.low
                won = ", ".join(f"seat {s} wins {c}" for s, c in part.items()) \
                    + f" ({whole_pot_description(side)})"
            else:
                won = "; ".join(
                    f"{half}: " + ", ".join(f"seat {s} wins {c}" for s, c in part.items())
                    for half, part in (("high", pot.high), ("low", pot.low)) if part
                ) or "nobody wins it"
        lines.append(f"{name}: {pot.amount} chips (eligible: {elig}); {won}")
    lines.append("Net: " + ", ".join(f"seat {s} {c:+d}" for s, c in r.net.items()))
    if r.carried:
        lines.append(f"Carried to the next hand: {r.carried}")
    return "\n".join(lines)


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def replay_command(file: Path, as_json: bool) -> None:
    """Replay a hand history FILE (TOML, docs/hand-history.md) and print the result.

    JSON: game, pots (main pot first: amount, eligible, winners), net (seat ->
    chips), shown (seat -> hand description), carried.
    """
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {err}")
    try:
        hand = replay(text)
    except HistoryError as err:
        fail(f"{file}: {err}")
    if as_json:
        if hand.result is None:
            fail(f"{file}: the history ends before the hand is over")
        click.echo(json.dumps(hand.result.to_dict()))
    else:
        click.echo(summary(hand))
