"""``rollem simulate GAME --players N --hands H [--bots L,...] [--seed S] [--workers W]``."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from rollem.cli.errors import fail
from rollem.cli.numbers import Whole
from rollem.cli.seed_opt import seed_option
from rollem.cli.table_options import (
    check_house,
    check_stack,
    check_staples,
    options_from_flags,
    run_twice_flag,
    staple_flags,
    staples_from_flags,
    table_option_flags,
)
from rollem.cli.tourney_flags import TournamentFlags, tournament_flags, tournament_from_flags
from rollem.limits import MAX_STACK
from rollem.parallel import ClusterError
from rollem.text import counted

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["simulate_command"]

GAMES = ("sdr", "rollyourown", "rollem521", "dealers-choice")


@click.command("simulate",
               short_help="Play a session of computer players; report each seat's result.")
@click.argument("game", required=False, default=None, metavar="[GAME]")
@click.option("--game-file", default=None, metavar="FILE",
              help="Play the game in this game file (TOML, see rollem check-game) instead "
                   "of GAME.")
@click.option("--players", type=Whole("2 to 10"), default=None, metavar="N",
              help="Players at the table, 2 to 10 (required).")
@click.option("--hands", type=Whole("1 to 1,000,000"), default=None, metavar="N",
              help="Hands to play, 1 to 1,000,000 (needed unless --tournament). On a "
                   "terminal a progress bar (on stderr) shows how far it is.")
@click.option("--tournament", "schedule_name", default=None, metavar="SCHEDULE",
              help="Play sit-and-go tournaments instead of a cash session: turbo, regular "
                   "or slow (the shipped level schedules), or a schedule file (TOML). "
                   "Each is played to one winner; the stakes rise by hands.")
@tournament_flags
@click.option("--tournaments", type=Whole("1 to 100,000"), default=200, show_default=True,
              metavar="N",
              help="With --tournament: how many to play, 1 to 100,000.")
@click.option("--hands-max", type=Whole("1 to 100,000"), default=5000, show_default=True,
              metavar="N",
              help="With --tournament: a tournament with no winner after this many hands "
                   "is counted unfinished.")
@click.option("--bots", default="random", show_default=True, metavar="LEVEL[,LEVEL...]",
              help="One bot level for every seat, or one per seat: basic,random,random. "
                   "Levels: random (uniform over the legal actions; the default here, the "
                   "engine's fast legality check), basic (plays by its chances from its own "
                   "view; rollem play defaults to basic), strong (reads bets, draws and up "
                   "cards; slower).")
@seed_option("Seed for a reproducible session.")
@click.option("--stack", type=Whole(f"1 to {MAX_STACK:,}"), default=200, show_default=True,
              metavar="CHIPS",
              help=f"Starting stack, 1 to {MAX_STACK:,} chips; a broke player rebuys it "
                   "(counted as chips brought).")
@click.option("--workers", type=Whole("1 or more"), default=1, show_default=True,
              metavar="N",
              help="Processes to split the hands over, each playing its own table (the "
                   "chips add up over the tables); the same seed and workers give the "
                   "same results.")
@click.option("--ray", "cluster", default=None, metavar="ADDRESS",
              help="Run the --workers parts on a Ray cluster instead of this machine: "
                   "auto (the cluster this machine is in) or its head's HOST:PORT. Needs "
                   "pip install 'rollem[distributed]' here and rollem on every node; the "
                   "same seed and workers give the same results as without --ray.")
@table_option_flags
@staple_flags
@run_twice_flag
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(
    game: str | None, game_file: str | None, players: int | None, hands: int | None, bots: str,
    seed: int | None, stack: int, workers: int, as_json: bool,
    schedule_name: str | None, tournaments: int, hands_max: int, cluster: str | None,
    **flags: Any,
) -> None:
    """Play a session of computer players and report each seat's results.

    GAME is sdr, rollyourown, rollem521, a standard game (holdem, omaha,
    omaha8, stud, stud8, razz, draw5, deuces-wild) or dealers-choice; or give a
    game file: --game-file FILE.

    JSON: game, hands, chips_start (all chips brought, rebuys included),
    chips_end, actions_per_hand, hands_per_second, seats (seat, bot, net,
    net_per_hand, ci95: the 95% interval of net_per_hand as [low, high]; the
    text shows it from 30 hands).
    """
    from rollem.bots import LEVELS, make_bot
    from rollem.games import get
    from rollem.simulate import MAX_HANDS, MIN_INTERVAL_HANDS, run_simulation

    if game_file is not None:
        from rollem.cli.gamefile_opt import register_game_file

        if game is not None:
            fail("give GAME or --game-file FILE, not both")
        game = register_game_file(game_file)
    if game is None:
        fail("missing GAME (sdr, rollyourown, rollem521, a standard game or dealers-choice) "
             "or --game-file FILE")
    if game != "dealers-choice":
        try:
            get(game)
        except KeyError:
            from rollem.cli.gamefile_opt import game_ids_words

            fail(f"unknown game {game!r}: expected one of {game_ids_words()} (or --game-file "
                 "FILE)")
    if players is None:  # (click's own words named the flag only: "Missing option")
        fail("missing --players N (how many players at the table: 2 to 10)")
    if not 2 <= players <= 10:
        fail(f"--players {players}: expected 2 to 10")
    if schedule_name is None and hands is None:
        fail("missing --hands (how many hands to play), or --tournament SCHEDULE")
    if hands is not None and not 1 <= hands <= MAX_HANDS:
        fail(f"--hands {hands}: expected 1 to {MAX_HANDS:,}")
    if workers < 1:
        fail(f"--workers {workers}: expected at least 1")
    levels = [b.strip() for b in bots.split(",")]
    if len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        fail(f"--bots gives {len(levels)} levels for {players} players: give one, or one per seat")
    for level in levels:
        try:
            make_bot(level)
        except KeyError:
            fail(f"unknown bot level {level!r}: expected one of {', '.join(sorted(LEVELS))}")
    sit_and_go = tournament_from_flags(flags, tournament=schedule_name is not None,
                                       game=game, players=players)
    options, typed_house = options_from_flags(flags)
    check_stack(stack, options)
    options, bomb_pot_every, bomb_pot_ante = staples_from_flags(flags, options, players, stack)
    from rollem.games import DEFAULT_CHOICE

    offered = [get(g) for g in (DEFAULT_CHOICE if game == "dealers-choice" else [game])]
    check_house(options, offered, typed_house)
    check_staples(options, bomb_pot_every, bomb_pot_ante, offered)
    if schedule_name is not None:
        if hands is not None:
            fail("--hands: a tournament plays to one winner; give --tournaments (how many) "
                 "and --hands-max (when one counts as unfinished) instead")
        if cluster is not None:
            fail("--ray: tournaments play on this machine only (leave out --ray)")
        _tournaments(game, levels, schedule_name, tournaments, hands_max, seed, options,
                     as_json, sit_and_go)
        return
    assert hands is not None
    try:
        if sys.stderr.isatty():  # the bar is on stderr: shown with --json > FILE too
            from rich.progress import Progress

            with Progress(transient=True, console=_stderr_console()) as bar:
                task = bar.add_task(f"{game}", total=hands)
                result = run_simulation(
                    game, players, hands, levels, seed=seed, stack=stack, options=options,
                    progress=lambda k: bar.update(task, completed=k), workers=workers,
                    bomb_pot_every=bomb_pot_every, bomb_pot_ante=bomb_pot_ante,
                    cluster=cluster,
                )
        else:
            result = run_simulation(game, players, hands, levels, seed=seed, stack=stack,
                                    options=options, workers=workers,
                                    bomb_pot_every=bomb_pot_every, bomb_pot_ante=bomb_pot_ante,
                                    cluster=cluster)
    except (ValueError, KeyError, ClusterError) as err:  # EngineError is a ValueError
        fail(str(err))
    data = result.to_dict()
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(f"{data['game']}: {counted(hands, 'hand')}, {players} players, "
               f"{data['hands_per_second']:.1f} hands/s, "
               f"{data['actions_per_hand']:.2f} actions/hand")
    parts = min(workers, hands)  # (rollem.parallel.split_counts: a part a hand at most)
    tables = f" (summed over {parts} tables: each worker plays its own table)" \
        if parts > 1 else ""
    click.echo(f"chips brought {data['chips_start']}, at the table "
               f"{data['chips_end']}{tables}")
    # A 5-2-1 pot nobody won (every contender failed both ways, R-521-9) carries to
    # the next hand: at the session's end it is at the table, in no seat's stack.
    carried = -sum(s["net"] for s in data["seats"])
    if carried > 0:
        click.echo(f"({carried} of them in a pot nobody won, carried to a next hand: "
                   "R-521-9)")
    for s in data["seats"]:
        if data["hands"] < MIN_INTERVAL_HANDS:
            ci = (f"too few hands for a 95% interval: {MIN_INTERVAL_HANDS} or more "
                  "give one")
        else:
            lo, hi = s["ci95"]
            ci = f"95% CI {lo:+.3f} .. {hi:+.3f}"
        click.echo(f"seat {s['seat']} ({s['bot']}): net {s['net']:+d} chips, "
                   f"{s['net_per_hand']:+.3f} chips/hand ({ci})")


def _tournaments(game: str, levels: list[str], schedule_name: str, count: int,
                 hands_max: int, seed: int | None, options: Any, as_json: bool,
                 flags: TournamentFlags) -> None:
    """``simulate --tournament``: sit-and-gos of the bots to one winner each (issue 28)."""
    from pathlib import Path

    from rollem.tournament import SCHEDULES, load_schedule
    from rollem.tournament.schedule import ScheduleError
    from rollem.tournament.simulate import run_tournaments

    if schedule_name in SCHEDULES:
        schedule = SCHEDULES[schedule_name]
    else:
        path = Path(schedule_name)
        if not path.is_file():
            fail(f"--tournament {schedule_name!r}: not a shipped schedule "
                 f"({', '.join(SCHEDULES)}) nor a schedule file")
        try:
            schedule = load_schedule(path.read_text(encoding="utf-8")[:70_000], path.stem)
        except (ScheduleError, UnicodeDecodeError) as err:
            fail(f"--tournament {schedule_name}: {err}")
    if not 1 <= count <= 100_000:
        fail(f"--tournaments {count}: expected 1 to 100,000")
    if not 1 <= hands_max <= MAX_HANDS_TOURNAMENT:
        fail(f"--hands-max {hands_max}: expected 1 to {MAX_HANDS_TOURNAMENT:,}")
    try:
        run = run_tournaments(game, schedule, levels, tournaments=count, hands_max=hands_max,
                              seed=seed, options=options, **flags.keywords())
    except (ValueError, KeyError) as err:
        fail(str(err))
    data = run.to_dict()
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(f"{game}: {data['tournaments']} {schedule.name} tournaments of "
               f"{len(levels)} players, {data['finished']} to one winner "
               f"({data['unfinished']} unfinished after {hands_max} hands); "
               f"{data['hands_mean']} hands on average, {data['hands_max']} at most")
    rules = [f"buy-ins of {flags.buy_in}"]
    if flags.rebuy_levels:
        from rollem.tournament.session import first_levels

        rules.append(f"rebuys in {first_levels(flags.rebuy_levels)}, "
                     f"{data['rebuys']} taken")
    if flags.addon_chips:
        price = flags.buy_in if flags.addon_price is None else flags.addon_price
        rules.append(f"an add-on of {flags.addon_chips} chips for {price} when they close, "
                     f"{data['addons']} taken")
    if flags.rotate:
        rules.append(f"the games rotate by {flags.rotate}")
    click.echo("; ".join(rules))
    for s in data["seats"]:
        click.echo(f"seat {s['seat']} ({s['bot']}): won {s['wins']}, mean place "
                   f"{s['mean_place']}, net {s['winnings']:+d} (in the buy-in's units)")


MAX_HANDS_TOURNAMENT = 100_000


def _stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)
