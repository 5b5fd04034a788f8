"""``rollem odds``: a seat's chances of winning (CLI.md; issue 8)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from rollem.cli.errors import fail, one_line
from rollem.cli.numbers import PathOf, Whole
from rollem.cli.seed_opt import seed_option
from rollem.odds import Odds, OddsError, sdr_odds
from rollem.odds.common import MAX_SAMPLES, card_list
from rollem.odds.history import history_odds
from rollem.odds.result import HistoryOddsError
from rollem.odds.ryoseen import MIN_WORLDS

__all__ = ["odds_command", "render"]

_HELP = """Equity (the expected share of the pot) and the chances of taking the
whole pot, a share of it or nothing, from what one player can see; at a
card choice, every option (the best ten) with its equity.

\b
Stop, Drop and Roll from cards you give:
  rollem odds sdr --hand "As Kd" --dead "Qh 7c" [--board "Kc 7d 2s"]
                  [--vs "Qs Qd" ... | --opponents N]
Any game at a point of a hand history, as seat N saw it:
  rollem odds --history FILE --seat N [--at K]

K is the number of actions applied from the start (0 = before the first
action; default: the last decision point, for a seat that folded the point
of its fold). FILE may be a player's own copy (rollem play's files, the web
table's download; _redacted_for = N): seat N only, before the end.

\b
Words: equity = the expected share of the pot; whole pot = taking all of it
(in 5-2-1 Roll 'Em a scoop, or one side with nobody declaring the other);
a share = part of it (a split, or one half); high half and low half = the
5-2-1 halves. JSON keeps win (= whole_pot), tie (a share) and lose.

\b
Look-ahead (Five Card Roll Your Own before the discard, 5-2-1 Roll 'Em):
every player still in, you included, makes the choices still to come by the
fast policy (rollem.odds.policy): keep three of six (trips, a high pair,
then high, suited, connected cards); 5-2-1 draws (pat with a straight or
better or five different ranks eight or lower; else keep trips, two pair, a
four-card low, a pair of nines or better, four of a suit, three low cards,
a pair, the highest cards); stacking (the card that decides the hand stays
down); the declare (from its own hand and every other player's up cards:
the side with the greatest expected share). What you saw of opponents'
choices weights their hands: in 5-2-1 how many cards each threw in each
draw (before the roll-ups), the order its cards were rolled in, and a
revealed declaration; in Roll Your Own after the discard, each player's
keep and every card it exposed (with the pool: your discards and draws, the
wild card), by importance weighting; each by the chance the policy does the
same (a player is taken to stray from the policy 2% of the time). Where
that weighting is too uneven even on a second try (rare: 1 of 180 late
answers with 4 to 6 players) the tracked pool below answers, and the model
line says so. Nobody folds and no betting is simulated, so the card you
expose in Roll Your Own and the order of your first four 5-2-1 cards change
no equity (the advice says so). Your equity is for playing by the policy
(at the declare: your best declaration; once declared: yours). The options
of your current choice are played out in the same worlds, --samples worlds
each (default 10,000).

\b
Plain model (Stop, Drop and Roll; Roll Your Own where the weighting is too
uneven): unknown cards are uniformly random among the cards the player
cannot see (own cards, face-up cards, the dead Stop and Drop, the board and
the player's own discards are seen); folded players' cards are unknown but
out of play; everyone still in goes to the showdown. Roll Your Own's pool
is tracked: it holds the player's own discards plus three discards of every
other player dealt in; the cards the player drew and the turned wild card
came from it; an opponent's up card that is one of the player's discards
was drawn; a drawn down card is one of the pool's cards the player cannot
place; draws still to come and the wild card come from what is left in the
pool. Not read there: the opponents' keeps and exposes.

\b
Games from game files (hold'em, Omaha, stud, razz, draw and your own
--game-file games, from a history): the plain model; the cards still to
come are dealt as the file says, draws are taken as standing pat, a
discard still to come keeps what plays best, and the file's showdown (high,
low, high-low, Omaha's two and three, wild ranks) decides. Every deal still
to come is counted exactly when there are at most 2,000,000 and the count
fits about a third of a second (hold'em heads-up from the turn, Omaha at
the river heads-up, stud at seventh street heads-up, five-card draw
heads-up); otherwise Monte Carlo.

\b
Exact enumeration is used when the outcomes are few enough (Stop, Drop and
Roll: every Roll and every deal of the unknown hands, up to 25,000,000
outcomes with one unknown hand and 1,000,000 with more; Roll Your Own from
a history once no draw is left, up to 1,000,000; game files as above);
otherwise Monte Carlo with --samples worlds (1 to 10,000,000; seed it with
--seed), and the standard error is reported. JSON for 5-2-1 adds high,
low, scoop (the chance the player's final hand is the best high, best low,
both, among the hands still in), high_half, low_half, declare
(high/low/both -> expected share), best_declare and declared; with a
choice at hand, advice (decision, choices: action, cards, equity, stderr,
policy ...); model (the look-ahead in words).
"""


_SDR_FLAGS = ("hand", "dead", "board", "vs")


def _as_flag(message: str) -> str:
    """An error of ``sdr_odds`` named by the option the user typed: the library
    names its parameter ("hand: expected two hole cards, got 1"), the command
    line says ``--hand: ...`` (the same for dead, board and vs)."""
    name, sep, rest = message.partition(": ")
    return f"--{name}: {rest}" if sep and name in _SDR_FLAGS else message


def _check_sdr_point(dead: str, board: str) -> None:
    """Exit with a one-line error unless ``dead`` and ``board`` are a point a hand of
    Stop, Drop and Roll reaches: the Stop, then the Drop (0, 1 or 2 dead cards,
    R-SDR-3/4), then the Roll's three cards at once (R-SDR-5), so 0 board cards, or
    3 once both dead cards are known. (:func:`rollem.odds.sdr_odds` takes a partial
    Roll too, for what-ifs; a player never sees one.) Bad card text is left to it."""
    try:
        dead_c, board_c = card_list(dead, "dead"), card_list(board, "board")
    except OddsError as err:
        fail(_as_flag(str(err)))
    if len(board_c) not in (0, 3):
        fail(f"--board: expected none or all three Roll cards (the Roll's three cards "
             f"are dealt at once), got {len(board_c)} ({board.strip()})")
    if board_c and len(dead_c) < 2:
        fail("--board: the Roll is dealt after the Stop and the Drop are turned up; "
             "give both with --dead")


def render(odds: Odds) -> str:
    """Human-readable lines for ``odds`` (:func:`rollem.odds.display.odds_lines`),
    each within 80 columns, broken between its phrases, later parts indented
    four spaces more (:func:`rollem.odds.display.fit`; s61-term: the equity
    line ran to 90 columns, the model line to 300, an advice row to 100)."""
    from rollem.odds.display import WIDTH, fit, odds_lines

    out: list[str] = []
    for line in odds_lines(odds):
        lead = line[:len(line) - len(line.lstrip(" "))]
        out += [line] if len(line) <= WIDTH else fit(line, WIDTH, lead + "    ")
    return "\n".join(out)


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


COMPILING = ("rollem: loading the odds loops (compiled once after an install: up to a "
             "minute)...")
"""The line on stderr when a seeded run waits for the compiled loops past a second
(:func:`rollem.odds.compiled.waiting_notice`; s64-loop: about 14 s of silence
before, the first time after an install).  Not "compiling": on a busy machine
loading the compiled loops from numba's cache passes a second too (stop 66's
newcomer check saw the line on every seeded run)."""


def _own_copy_seat(text: str) -> int | None:
    """The seat a player's own copy is for (its ``_redacted_for``, R-C-13), or
    ``None`` for a full history, a PHH file or text that is not TOML (the
    reading that follows says what is wrong with it)."""
    import tomllib

    try:
        owner = tomllib.loads(text).get("_redacted_for")
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    return owner if type(owner) is int and owner >= 0 else None


def _compiling() -> None:
    print(COMPILING, file=sys.stderr, flush=True)


@click.command("odds", help=_HELP,
               short_help="Your equity and chances to win, from what one player can see.")
@click.argument("game", required=False)
@click.option("--hand", "hand", metavar="CARDS", help="sdr: your two hole cards.")
@click.option("--dead", "dead", metavar="CARDS", default="",
              help="sdr: the Stop and the Drop (0 to 2 cards).")
@click.option("--board", "board", metavar="CARDS", default="",
              help="sdr: the Roll, once dealt: its three cards (dealt at once).")
@click.option("--vs", "vs", metavar="CARDS", multiple=True,
              help="sdr: an opponent's two hole cards; may repeat.")
@click.option("--opponents", "opponents", type=Whole("0 to 9"), default=None, metavar="N",
              help="sdr: unknown opponents' hands (default 1 without --vs, else 0): 1 to 9, "
                   "or 0 to 9 minus the --vs hands.")
@click.option("--history", "history", type=PathOf(dir_okay=False, path_type=Path),
              default=None, help="A hand history file (TOML): rollem's, or standard PHH.")
@click.option("--seat", "seat", type=Whole("a seat number from 0"), default=None,
              metavar="N", help="With --history: the seat whose odds to show, from 0 (the "
                                "history's p1 is seat 0); a player's own copy (rollem play's "
                                "files): its own seat unless given.")
@click.option("--at", "at", type=Whole("0 or more actions"), default=None, metavar="K",
              help="With --history: the players' actions applied, counting only the players' "
                   "lines (p1 cc, p2 cbr 4, ...), not the dealer's (d dh ...); default: the "
                   "last decision point (a seat that folded: the point of its fold).")
@click.option("--samples", "samples", type=Whole(f"1 to {MAX_SAMPLES:,}"), default=None,
              metavar="N",
              help=f"Monte Carlo samples, 1 to {MAX_SAMPLES:,} (default 100,000 for sdr, "
                   "20,000 from a history; look-ahead: 10,000 worlds per option, and "
                   "in Roll Your Own after the discard at 6 players or more; there, "
                   f"with three or more opponents, at least {MIN_WORLDS:,} whatever is asked, "
                   "as the output says).")
@seed_option("Seed the Monte Carlo.")
@click.option("--workers", "workers", type=Whole("1 or more"), default=1, show_default=True,
              metavar="N",
              help="sdr: processes to split the Monte Carlo samples over; the same seed "
                   "and workers give the same odds.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def odds_command(game: str | None, hand: str | None, dead: str, board: str,
                 vs: tuple[str, ...], opponents: int | None, history: Path | None,
                 seat: int | None, at: int | None, samples: int | None, seed: int | None,
                 workers: int, as_json: bool) -> None:
    from rollem.odds import compiled

    try:
        with compiled.waiting_notice(_compiling):
            _odds(game, hand, dead, board, vs, opponents, history, seat, at, samples, seed,
                  as_json, workers)
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
          as_json: bool, workers: int = 1) -> None:
    if samples is not None and not 1 <= samples <= MAX_SAMPLES:
        fail(f"--samples {samples}: expected 1 to {MAX_SAMPLES:,}")
    if workers < 1:
        fail(f"--workers {workers}: expected at least 1")
    extra: dict[str, object] = {}
    if history is not None:
        if game is not None or hand is not None or vs or opponents is not None \
                or dead or board:
            fail("--history takes no GAME, --hand, --dead, --board, --vs or --opponents: "
                 "use rollem odds --history FILE --seat N [--at K]")
        from rollem.userfile import MAX_HISTORY_BYTES, UserFileError, read_user_text

        try:
            text = read_user_text(history, MAX_HISTORY_BYTES, encoding="utf-8-sig")
        except UserFileError as err:
            fail(err)
        if seat is None:  # a player's own copy (rollem play's files) is its seat's
            seat = _own_copy_seat(text)
        if seat is None:
            fail("--history needs --seat N (the seat whose odds to show, from 0)")
        try:
            with _progress(samples or 0) as progress:
                odds, point = history_odds(text, seat, at=at, samples=samples, seed=seed,
                                           progress=progress, advice=True)
        except HistoryOddsError as err:
            fail(f"{history}: {err}")  # the file's text itself: named, as rollem replay does
        except OddsError as err:
            fail(err)
        extra = {"seat": seat, "at": point}
    else:
        if seat is not None or at is not None:
            fail("--seat and --at go with --history FILE")
        if game is None:
            fail('name the game and your cards (rollem odds sdr --hand "As Kd"), or give a '
                 "hand history of any game: rollem odds --history FILE --seat N")
        if game != "sdr":
            from rollem import games

            what = (f"{games.get(game).name} ({game})" if game in games.shipped_ids()
                    else f"{game!r}")
            fail(f"odds from cards you give (--hand) are for Stop, Drop and Roll (sdr) only, "
                 f"not {what}; for any game give a hand history of it: rollem odds "
                 "--history FILE --seat N (rollem play saves one for every hand)")
        if not hand:
            fail('sdr needs --hand CARDS (your two hole cards, e.g. --hand "As Kd")')
        _check_sdr_point(dead, board)
        try:
            with _progress(samples or 0) as progress:
                odds = sdr_odds(hand, dead=dead, board=board, vs=list(vs),
                                opponents=opponents, samples=samples or 100_000, seed=seed,
                                progress=progress, workers=workers)
        except OddsError as err:
            fail(_as_flag(str(err)))
    if as_json:
        click.echo(json.dumps({**odds.to_dict(), **extra}))
        return
    if extra:
        click.echo(f"Seat {extra['seat']} after {extra['at']} actions ({odds.game}):")
    click.echo(render(odds))
