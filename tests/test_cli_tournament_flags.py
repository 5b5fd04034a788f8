"""The tournament flags of ``rollem play`` and ``rollem simulate`` (issue 28):
buy-in, payouts, rebuys in the first levels and a rotation by level or orbit,
as the web table's host sets them; each bad value refused in one line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import run_cli as run


def test_simulate_takes_rebuys_payouts_buy_in_and_a_rotation(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "dealers-choice", "--players", "3", "--tournament",
                          "turbo", "--tournaments", "4", "--rebuy-levels", "10",
                          "--rotate", "level", "--buy-in", "20", "--payouts", "100",
                          "--bots", "random", "--seed", "4", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["finished"] == 4 and data["rebuys"] > 0
    # every buy-in and rebuy paid in, the winner takes the pool: nets add up to 0
    assert sum(s["winnings"] for s in data["seats"]) == 0
    assert sum(s["wins"] for s in data["seats"]) == 4
    code, out, err = run(["simulate", "dealers-choice", "--players", "3", "--tournament",
                          "turbo", "--tournaments", "2", "--rebuy-levels", "1", "--rotate",
                          "orbit", "--seed", "4"], capsys)
    assert code == 0, err
    assert "buy-ins of 10; rebuys in the first level, " in out
    assert "; the games rotate by orbit" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--rotate", "orbit"], "--rotate: for tournaments only (give --tournament SCHEDULE)"),
    (["--tournament", "turbo", "--rotate", "hand"],
     "'hand' is not a choice: expected level or orbit"),
    (["--tournament", "turbo", "--rebuy-levels", "11"], "--rebuy-levels 11: expected 0 to 10"),
    (["--tournament", "turbo", "--buy-in", "-1"], "--buy-in -1: expected 0 to 1,000,000"),
    (["--tournament", "turbo", "--payouts", "50/60"], "add up to 110, not 100"),
    (["--tournament", "turbo", "--payouts", "30/70"], "cannot be paid more than the one"),
    (["--tournament", "turbo", "--payouts", "50/3x"], "expected whole percentages 1 to 100"),
    (["--tournament", "turbo", "--payouts", "40/30/20/10"], "4 places paid with 3 players"),
    # the schedule sets the stacks and each level's stakes: these were ignored
    # without a word (rollem play --tournament turbo --stack 500 dealt 100 chips)
    (["--tournament", "turbo", "--stack", "500"], "--stack 500: a tournament's starting "
     "stack and stakes are its schedule's"),
    (["--tournament", "turbo", "--ante", "7"], "leave out --ante, or give --tournament a "
     "schedule file (TOML)"),
    (["--tournament", "turbo", "--small-bet", "10"], "--small-bet 10: a tournament's"),
    (["--tournament", "turbo", "--big-bet", "20"], "--big-bet 20: a tournament's"),
])
def test_bad_tournament_flags_are_refused_in_one_line(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["simulate", "dealers-choice", "--players", "3", "--hands", "1"]
                    if "--tournament" not in args else
                    ["simulate", "dealers-choice", "--players", "3"],
                    ["play", "--players", "3"]):
        code, out, err = run([*command, *args], capsys)
        assert (code, out) == (2, ""), (command, err)
        assert message in err and err.count("\n") <= 1 + ("is not one of" in message) * 4


def test_rotate_is_for_dealers_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["simulate", "sdr", "--players", "3", "--tournament", "turbo",
                        "--rotate", "orbit"], capsys)
    assert code == 2 and "--rotate orbit: the games rotate at dealers-choice only" in err


def test_rollem_play_rotates_the_games_by_orbit(tmp_path: Path) -> None:
    """3 players, ``--rotate orbit``: each game for an orbit (3 hands), in the
    order of ``--games`` (the answers only check and call)."""
    answers = "c\n\n" * 400
    out = subprocess.run([sys.executable, "-m", "rollem", "play", "--players", "3",
                          "--tournament", "turbo", "--rotate", "orbit", "--games",
                          "sdr,holdem", "--seed", "2", "--bots", "random",
                          "--history-dir", str(tmp_path)],
                         input=answers, capture_output=True, text=True, timeout=120)
    heads = re.findall(r"=== Hand \d+: (.*), \w+ ha(?:s|ve) the button", out.stdout)
    assert heads[:7] == ["Stop, Drop and Roll"] * 3 + ["Texas Hold'em"] * 3 + [
        "Stop, Drop and Roll"], out.stdout[-2000:]
    # the rotation names the game, not "the only one that fits" (both fit 3 players)
    assert "the only one that fits" not in out.stdout
    told = " ".join(out.stdout.split())  # (the line is wrapped at 80 columns: s69-newcomer)
    assert told.count("(holdem), in the rotation's turn (a game an orbit of the button).") >= 3


def test_rollem_play_offers_a_rebuy_while_open_and_the_bots_take_theirs(
        tmp_path: Path) -> None:
    """You and Ann busted at level 1 of a tournament with a level of rebuys: you
    are offered one for a buy-in, and Ann takes hers; the pool counts both (4
    buy-ins and 2 rebuys of 20)."""
    import io

    from rollem.cli.play_cmd import TerminalGame
    from rollem.cli.tourney_flags import TournamentFlags
    from rollem.tournament import SCHEDULES
    from rollem.tournament.places import Bust

    answers = iter(["y"])
    prompts: list[str] = []
    out = io.StringIO()
    game = TerminalGame(game="sdr", players=4, level="random", stack=200, seed=5,
                        show_odds=False, history_dir=tmp_path, rich=False,
                        read_line=lambda prompt: prompts.append(prompt) or next(answers, "q"),
                        out=out, tournament=SCHEDULES["turbo"],
                        tournament_flags=TournamentFlags(buy_in=20, rebuy_levels=1))
    t = game.tournament
    assert t is not None
    game.table.stacks[:] = [0, 0, 200, 200]
    t.busts = [Bust(1, 0, 100), Bust(1, 1, 100)]
    game.run()
    text = out.getvalue()
    # (over 80 columns: its start is said, the prompt is the rest; s73-newcomer)
    assert "You are out of chips. Rebuy 100 chips for a buy-in of 20? (y = yes, n = no,\n" \
        in text
    assert prompts[0] == "  out of the tournament) > "
    assert "You rebuy 100 chips" in text
    assert "Ann rebuys 100 chips (a buy-in of 20 more in the prize pool)." in text
    assert t.rebuys == {0: 1, 1: 1} and t.prize_pool == 120
    assert "Tournament ledger after" in text and "(buy-in 20, prize pool 120;" in text
    assert "  You  paid 40 (1 rebuy), still playing with 100 chips" in text
    assert "counted in what you brought" not in text  # (the cash game's words)


def test_two_busted_in_one_hand_with_the_same_chips_share_a_place(tmp_path: Path) -> None:
    """s59-tidy: Ann and Bob bust in hand 3, each having started it with 200
    chips: they share 3rd (its prize and 4th's split, payouts.pay_places), and
    the finishing places say so as the web table does, "=3rd: Ann" (s59-tidy's
    "3. Ann (shared)"; before it "3. Ann", "3. Bob", unexplained). Four
    entrants, buy-in 20 (turbo's 4-entrant payouts: 65/35, 3rd and 4th unpaid,
    so the shared place wins nothing)."""
    import io

    from rollem.cli.play_cmd import TerminalGame
    from rollem.cli.tourney_flags import TournamentFlags
    from rollem.tournament import SCHEDULES
    from rollem.tournament.places import Bust

    out = io.StringIO()
    game = TerminalGame(game="sdr", players=4, level="random", stack=200, seed=5,
                        show_odds=False, history_dir=tmp_path, rich=False,
                        read_line=lambda prompt: "q", out=out, tournament=SCHEDULES["turbo"],
                        tournament_flags=TournamentFlags(buy_in=20, rebuy_levels=0))
    t = game.tournament
    assert t is not None
    game.table.stacks[:] = [800, 0, 0, 0]
    t.busts = [Bust(3, 1, 200), Bust(3, 2, 200), Bust(5, 3, 100)]
    game.finish_tournament()
    text = out.getvalue()
    places = text[text.index("Finishing places (4 entrants, buy-in 20, prize pool 80):"):]
    assert places.splitlines()[1:5] == ["  1st: You, wins 52", "  2nd: Cat, wins 28",
                                        "  =3rd: Ann", "  =3rd: Bob"]
