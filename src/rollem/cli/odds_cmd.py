"""``rollem odds``: a seat's chances of winning (CLI.md; issue 8)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from rollem.cli.errors import fail
from rollem.odds import Odds, OddsError, sdr_odds
from rollem.odds.history import history_odds

__all__ = ["odds_command", "render"]

_HELP = """Chances of winning, tying and losing the pot, and equity (the share of
the pot expected), from what one player can see.

\b
Stop, Drop and Roll from cards you give:
  rollem odds sdr --hand "As Kd" --dead "Qh 7c" [--board "Kc 7d 2s"]
                  [--vs "Qs Qd" ... | --opponents N]
Any game at a point of a hand history, as seat N saw it:
  rollem odds --history FILE --seat N [--at K]
K is the number of actions applied from the start (0 = before the first
action; default: the last decision point).

Exact enumeration is used when the outcomes are few enough (Stop, Drop and
Roll: every Roll and every deal of the unknown hands, up to 20,000,000
outcomes with one unknown hand and 1,000,000 with more; other games from a
history: every deal of the opponents' hidden cards once no draw is left, up
to 1,000,000); otherwise Monte Carlo with --samples worlds (seed it with
--seed), and the standard error is reported.

\b
Opponents' model: unknown cards are uniformly random among the cards the
player cannot see (own cards, face-up cards, the dead Stop and Drop, the
board and the player's own discards are seen); folded players' cards are
unknown but out of play; everyone still in goes to the showdown. Five Card
Roll Your Own: the player's own discards are taken to be in the pool, draws
and the wild card come from the pool; before the discard the odds are those
of the best three cards to keep. 5-2-1 Roll 'Em: the player stands pat;
each opponent declares the way its hand ranks higher among all five-card
hands (high or low percentile), or both when in the top 1% both ways; a
revealed declaration is kept. JSON for 5-2-1 adds high, low, scoop and
declare (high/low/both -> expected share of the pot).
"""


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def render(odds: Odds) -> str:
    """Human-readable lines for ``odds``."""
    lines = [f"win {_pct(odds.win)}   tie {_pct(odds.tie)}   lose {_pct(odds.lose)}   "
             f"equity {_pct(odds.equity)}"]
    if odds.method == "exact":
        lines.append(f"exact: {odds.samples:,} equally likely outcomes")
    else:
        lines.append(f"Monte Carlo: {odds.samples:,} samples, standard error "
                     f"{_pct(odds.stderr)}")
    if odds.declare is not None:
        lines.append(f"high {_pct(odds.high or 0.0)}   low {_pct(odds.low or 0.0)}   "
                     f"scoop {_pct(odds.scoop or 0.0)}")
        shares = "   ".join(f"{k} {_pct(v)}" for k, v in odds.declare.items())
        lines.append(f"declare: {shares}   (best: {odds.best_declare})")
    if odds.categories:
        lines.append("final hand: " + ", ".join(
            f"{k} {_pct(v)}" for k, v in odds.categories.items()))
    if odds.keep:
        lines.append("keep: " + " ".join(odds.keep))
    return "\n".join(lines)


@click.command("odds", help=_HELP)
@click.argument("game", required=False)
@click.option("--hand", "hand", metavar="CARDS", help="sdr: your two hole cards.")
@click.option("--dead", "dead", metavar="CARDS", default="",
              help="sdr: the Stop and the Drop (0 to 2 cards).")
@click.option("--board", "board", metavar="CARDS", default="",
              help="sdr: the Roll cards known (0 to 3).")
@click.option("--vs", "vs", metavar="CARDS", multiple=True,
              help="sdr: an opponent's two hole cards; may repeat.")
@click.option("--opponents", "opponents", type=int, default=None, metavar="N",
              help="sdr: unknown opponents' hands (default 1 without --vs, else 0).")
@click.option("--history", "history", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="A hand history file (TOML).")
@click.option("--seat", "seat", type=int, default=None, help="With --history: the seat.")
@click.option("--at", "at", type=int, default=None, metavar="K",
              help="With --history: actions applied (default: the last decision point).")
@click.option("--samples", "samples", type=int, default=None,
              help="Monte Carlo samples (default 100000 for sdr, 20000 from a history).")
@click.option("--seed", "seed", type=int, default=None, help="Seed the Monte Carlo.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def odds_command(game: str | None, hand: str | None, dead: str, board: str,
                 vs: tuple[str, ...], opponents: int | None, history: Path | None,
                 seat: int | None, at: int | None, samples: int | None, seed: int | None,
                 as_json: bool) -> None:
    if samples is not None and samples < 1:
        fail("--samples must be at least 1")
    extra: dict[str, object] = {}
    if history is not None:
        if game is not None or hand is not None or vs or opponents is not None \
                or dead or board:
            fail("--history takes no GAME, --hand, --dead, --board, --vs or --opponents: "
                 "use rollem odds --history FILE --seat N [--at K]")
        if seat is None:
            fail("--history needs --seat N (the seat whose odds to show, from 0)")
        try:
            text = history.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            fail(f"cannot read {history}: {err}")
        try:
            odds, point = history_odds(text, seat, at=at, samples=samples or 20_000,
                                       seed=seed)
        except OddsError as err:
            fail(err)
        extra = {"seat": seat, "at": point}
    else:
        if seat is not None or at is not None:
            fail("--seat and --at go with --history FILE")
        if game != "sdr":
            fail(f"expected GAME sdr (with --hand) or --history FILE --seat N, got "
                 f"{game or 'nothing'}")
        if not hand:
            fail('sdr needs --hand CARDS (your two hole cards, e.g. --hand "As Kd")')
        try:
            odds = sdr_odds(hand, dead=dead, board=board, vs=list(vs), opponents=opponents,
                            samples=samples or 100_000, seed=seed)
        except OddsError as err:
            fail(err)
    if as_json:
        click.echo(json.dumps({**odds.to_dict(), **extra}))
        return
    if extra:
        click.echo(f"Seat {extra['seat']} after {extra['at']} actions ({odds.game}):")
    click.echo(render(odds))
