"""``rollem eval``: evaluate a hand (CLI.md; R-C-2, R-C-3, R-C-8, R-RYO-9)."""

from __future__ import annotations

import json

import click

from rollem.cards import CardError, format_cards, parse_cards, parse_rank
from rollem.cli.errors import fail
from rollem.hands import evaluate


@click.command("eval",
               short_help='Evaluate a poker hand from its cards ("Qs Qd Kc Kh 2s").')
@click.argument("cards", nargs=-1)
@click.option(
    "--wild",
    "wild",
    multiple=True,
    metavar="RANK",
    help="A wild rank (2-9, T, J, Q, K, A); may repeat, each rank once.",
)
@click.option("--low", is_flag=True, help="Rank as an ace-to-five low.")
@click.option(
    "--wild-duplicates",
    is_flag=True,
    help="Let a wild card duplicate a card already held (double-ace flush).",
)
@click.option(
    "--natural-beats-wild",
    is_flag=True,
    help="A natural hand beats an equal hand made with wild cards.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def eval_command(
    cards: tuple[str, ...],
    wild: tuple[str, ...],
    low: bool,
    wild_duplicates: bool,
    natural_beats_wild: bool,
    as_json: bool,
) -> None:
    """Evaluate a poker hand: CARDS is one argument ("Qs Qd Kc") or several.

    Five or more cards: the best five. One to four cards: a partial hand as
    for "highest showing" (pairs, trips and quads count).

    Prints the hand in words, naming every card that breaks a tie ("pair of
    sixes, king-ten-deuce"), the cards used and what each wild card plays as.
    Among equal hands the one with natural cards is shown. --json also gives
    the category (with --low the same names: an unpaired low is "high card",
    its description says "seven-five low") and the value
    (greater is better under that ranking).
    """
    try:
        hand = parse_cards(list(cards))
        ranks = [parse_rank(r) for r in wild]
    except CardError as err:
        fail(err)
    for k, rank in enumerate(ranks):
        if rank in ranks[:k]:  # (a rank wild twice is wild once: the flag did nothing)
            fail(f"--wild {wild[ranks.index(rank)]} --wild {wild[k]}: the rank is given "
                 "twice; name each wild rank once (e.g. --wild Q --wild 7)")
    wild_ranks = set(ranks)
    if not hand:
        fail("no cards given: expected one or more cards, e.g. rollem eval \"As Kd Qh Jc Ts\"")
    if low and wild_ranks:
        fail("--low cannot be combined with --wild: wild cards apply to high hands only")
    try:
        result = evaluate(
            hand,
            wild_ranks=wild_ranks,
            low=low,
            wild_duplicates=wild_duplicates,
            natural_beats_wild=natural_beats_wild,
        )
    except ValueError as err:
        fail(err)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "category": result.category.label,
                    "description": result.description,
                    "cards": [str(c) for c in result.cards],
                    "wilds": {str(w): str(c) for w, c in result.wilds.items()},
                    "value": result.value,
                }
            )
        )
        return
    click.echo(result.description)
    line = f"cards: {format_cards(result.cards)}"
    if low:
        line += " (ace-to-five low)"
    elif len(hand) < 5:
        line += (f" (a partial hand of {len(hand)} card{'s' if len(hand) > 1 else ''}: "
                 "pairs, trips and quads count)")
    click.echo(line)
    if result.wilds:
        click.echo("wild: " + ", ".join(f"{w} plays as {c}" for w, c in result.wilds.items()))

