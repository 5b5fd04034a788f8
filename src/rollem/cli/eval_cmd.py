"""``rollem eval``: placeholder until the evaluator lands (issue 2)."""

from __future__ import annotations

import click

from rollem.cli.errors import fail


@click.command("eval")
@click.argument("cards", nargs=-1, required=True)
def eval_command(cards: tuple[str, ...]) -> None:
    """Evaluate a poker hand."""
    fail("eval is not built yet")
