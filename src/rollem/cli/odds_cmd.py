"""``rollem odds``: a seat's chances of winning (CLI.md; issue 8)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from rollem.cli.errors import fail, one_line
from rollem.odds import Odds, OddsError, sdr_odds
from rollem.odds.common import MAX_SAMPLES
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
to 1,000,000); otherwise Monte Carlo with --samples worlds (1 to
10,000,000; drawn in fixed-size chunks, so memory stays small; seed it with
--seed), and the standard error is reported.

\b
win = the whole pot, tie = a share of it (split with equal hands), lose =
nothing; equity = the expected share of the pot. In 5-2-1 Roll 'Em a win is
taking the whole pot (a scoop, or one side with nobody declaring the other),
a tie is any share of it (one half, or a split half), lose is nothing.

\b
Opponents' model: unknown cards are uniformly random among the cards the
player cannot see (own cards, face-up cards, the dead Stop and Drop, the
board and the player's own discards are seen); folded players' cards are
unknown but out of play; everyone still in goes to the showdown.

\b
Five Card Roll Your Own: the pool is tracked. It holds the player's own
discards plus three discards of every other player dealt in (those unknown:
uniform over the cards the player cannot see). The cards the player drew and
the turned wild card came from it. Each opponent drew the cards its draws
say: an up card that is one of the player's discards was drawn; its other
draws are spread at random over its other up cards and its down cards. A
drawn down card is one of the pool's cards the player cannot place (so it
may be one of the player's own discards); a kept down card is any other
unseen card. Draws still to come and the wild card come from what is left in
the pool. Before the discard each opponent keeps three of its six at random,
and the odds are those of the player's best three to keep. Not modelled: what
the opponents' choices (discards, cards turned up, bets) say about their
hands.

\b
5-2-1 Roll 'Em: the player stands pat; each opponent declares the way its
hand ranks higher among all five-card hands (high or low percentile), or
both when in the top 1% both ways; a revealed declaration is kept. Before
the player declares, win/tie/lose/equity are for its best declaration; once
it has declared, for its own declaration (R-521-9: both must win both ways
outright, else nothing). JSON for 5-2-1 adds high, low, scoop (the chance
the player's hand is the best high, best low, both, among the hands still
in), declare (high/low/both -> expected share of the pot), best_declare and
declared (the player's declaration, or null).
"""


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def render(odds: Odds) -> str:
    """Human-readable lines for ``odds``."""
    lines = [f"win {_pct(odds.win)}   tie {_pct(odds.tie)}   lose {_pct(odds.lose)}   "
             f"equity {_pct(odds.equity)}"]
    if odds.method == "exact":
        n = odds.samples
        lines.append(f"exact: {n:,} outcome{'' if n == 1 else 's'} enumerated")
    else:
        lines.append(f"Monte Carlo: {odds.samples:,} samples, standard error "
                     f"{_pct(odds.stderr)}")
    if odds.declare is not None:
        lines.append(f"best hand among those in: high {_pct(odds.high or 0.0)}   "
                     f"low {_pct(odds.low or 0.0)}   both {_pct(odds.scoop or 0.0)}")
        shares = "   ".join(f"{k} {_pct(v)}" for k, v in odds.declare.items())
        if odds.own_declare is not None:
            lines.append(f"declared {odds.own_declare} (the odds above are for it); "
                         f"each declaration's share: {shares}")
        else:
            lines.append(f"declare (share of the pot): {shares}   (best: {odds.best_declare}; "
                         "the odds above are for it)")
    if odds.categories:
        lines.append("final hand: " + ", ".join(
            f"{k} {_pct(v)}" for k, v in odds.categories.items()))
    if odds.keep:
        lines.append("keep: " + " ".join(odds.keep))
    return "\n".join(lines)


@contextmanager
def _progress(samples: int) -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr for long runs on a terminal, else nothing."""
    if samples < 2_000_000 or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("sampling", total=samples)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


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
              help=f"Monte Carlo samples, 1 to {MAX_SAMPLES:,} (default 100,000 for sdr, "
                   "20,000 from a history).")
@click.option("--seed", "seed", type=int, default=None, help="Seed the Monte Carlo.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def odds_command(game: str | None, hand: str | None, dead: str, board: str,
                 vs: tuple[str, ...], opponents: int | None, history: Path | None,
                 seat: int | None, at: int | None, samples: int | None, seed: int | None,
                 as_json: bool) -> None:
    try:
        _odds(game, hand, dead, board, vs, opponents, history, seat, at, samples, seed,
              as_json)
    except (SystemExit, KeyboardInterrupt, click.exceptions.Exit, click.ClickException):
        raise
    except MemoryError:
        fail("not enough memory for this question: ask for fewer --samples")
    except Exception as err:  # never a traceback for a user (CLI.md)
        print(f"rollem: internal error in odds: {type(err).__name__}: {one_line(err)}",
              file=sys.stderr)
        raise SystemExit(1) from None


def _odds(game: str | None, hand: str | None, dead: str, board: str,
          vs: tuple[str, ...], opponents: int | None, history: Path | None,
          seat: int | None, at: int | None, samples: int | None, seed: int | None,
          as_json: bool) -> None:
    if samples is not None and not 1 <= samples <= MAX_SAMPLES:
        fail(f"--samples {samples}: expected 1 to {MAX_SAMPLES:,}")
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
            with _progress(samples or 0) as progress:
                odds, point = history_odds(text, seat, at=at, samples=samples or 20_000,
                                           seed=seed, progress=progress)
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
            with _progress(samples or 0) as progress:
                odds = sdr_odds(hand, dead=dead, board=board, vs=list(vs),
                                opponents=opponents, samples=samples or 100_000, seed=seed,
                                progress=progress)
        except OddsError as err:
            fail(err)
    if as_json:
        click.echo(json.dumps({**odds.to_dict(), **extra}))
        return
    if extra:
        click.echo(f"Seat {extra['seat']} after {extra['at']} actions ({odds.game}):")
    click.echo(render(odds))
