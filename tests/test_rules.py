"""The rules for players: ``rollem.rules`` and ``rollem rules [GAME]`` (issue 9).

The texts must carry the facts a new player needs: what the Stop and the
Drop are (R-SDR-3/4/6), how the wild rank is chosen (R-RYO-7), what
declaring both risks (R-521-9), the seeds' worked examples (R-SDR-8,
R-RYO-12) and every house option with its default (R-C-6 and each game).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem.cli.app import app
from rollem.cli.rules_cmd import render_markdown
from rollem.rules import (
    DECISION_KINDS,
    RulesError,
    decision_help,
    game_name,
    list_games,
    rules_text,
    topic_text,
)
from rollem.rules.decisions import GAME_DECISIONS

ROOT = Path(__file__).resolve().parent.parent


def flat(text: str) -> str:
    """Lower case, Markdown emphasis and code marks removed, whitespace collapsed."""
    return " ".join(re.sub(r"[*`]", "", text).split()).lower()


def run_rules(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["rules", *args], prog_name="rollem")
    return result.exit_code, result.stdout, result.stderr


def test_list_games_and_names() -> None:
    assert list_games() == ("sdr", "rollyourown", "rollem521")
    assert [game_name(g) for g in list_games()] == [
        "Stop, Drop and Roll",
        "Five Card Roll Your Own",
        "5-2-1 Roll 'Em",
    ]
    with pytest.raises(RulesError, match="expected one of sdr, rollyourown, rollem521"):
        game_name("holdem")


def test_overview_command() -> None:
    code, out, err = run_rules()
    assert (code, err) == (0, "")
    assert out == rules_text(None)
    text = flat(out)
    for name in ("stop, drop and roll", "five card roll your own", "5-2-1 roll 'em"):
        assert name in text
    # How to pick one: the button names the game; RYO only up to 8 players (R-C-12).
    assert "the player on the dealer button names the game" in text
    assert "eight players or fewer" in text
    # The hand rankings, in order, five of a kind on top (R-C-2).
    order = [
        "five of a kind",
        "straight flush",
        "four of a kind",
        "full house",
        "flush",
        "straight",
        "three of a kind",
        "two pair",
        "one pair",
        "high card",
    ]
    start = text.index("hand rankings (high)")
    positions = [text.index(f"{n}. {word}", start) for n, word in enumerate(order, 1)]
    assert positions == sorted(positions)
    # Ace-to-five low (R-C-3) and the betting words.
    assert "7-5-4-3-2 beats 7-6-3-2-a" in text
    assert "the best possible low is a-2-3-4-5" in text
    for word in ("ante:", "bet:", "raise:", "call:", "check:", "fold:", "all-in:", "side pots:"):
        assert word in text, word
    assert "the button:" in text and "dealer's choice:" in text


def test_sdr_rules() -> None:
    code, out, _ = run_rules("sdr")
    assert code == 0
    text = flat(out)
    # What the Stop and the Drop are (R-SDR-3, 4, 6).
    assert "the stop and the drop are dead" in text
    assert "never part of any hand" in text
    assert "your hand is exactly five cards: your two hole cards plus the three roll cards" in text
    assert "the dealer burns a card (puts it aside face down, unseen) and turns up the stop" in text
    # The seed's worked example (R-SDR-8).
    assert "the stop is q♥ and the drop is 7♣. the roll is k♣ 7♦ 2♠" in text
    assert "player a holds q♠ q♦" in text and "q♠ q♦ k♣ 7♦ 2♠" in text
    assert "player b holds a♠ k♦" in text and "k♦ k♣ a♠ 7♦ 2♠" in text
    assert "player b wins" in text
    # Settled gaps: no burn before the Roll (R-SDR-5), inventor's cap (R-SDR-7).
    assert "no burn before the roll" in text
    assert "rounds 1 to 3 allow a bet and one raise each" in text
    assert "round 4 allows a bet and up to three raises" in text


def test_rollyourown_rules() -> None:
    code, out, _ = run_rules("rollyourown")
    assert code == 0
    text = flat(out)
    # How the wild rank is chosen (R-RYO-7).
    assert "the player still in the hand with the lowest hand showing chooses one of the cards" in (
        text
    )
    assert "by its position" in text
    assert "every card of its rank is wild" in text
    assert "the turned card is not part of anyone's hand" in text
    # Round 3 opener settled (R-RYO-6), no wild card if one player is left (R-RYO-11).
    assert "round 3 opener. the original names none; the best hand showing opens" in text
    assert "no wild card is turned" in text
    # The seed's example (R-RYO-12).
    assert "the pool card turned up is the q♦, so queens are wild" in text
    assert "7♠ 7♥ k♣ and has q♠ 7♦ down" in text and "four sevens" in text
    assert "a♥ a♦ 5♣ and has q♥ q♣ down" in text and "four aces" in text
    assert "four aces beat four sevens: player b wins" in text
    # Wild cards (R-RYO-9) and the rankings with five of a kind on top.
    assert "five of a kind" in text and "no \"double-ace flush\"" in text
    assert "from best to worst: five of a kind · straight flush" in text


def test_rollem521_rules() -> None:
    code, out, _ = run_rules("rollem521")
    assert code == 0
    text = flat(out)
    # What declaring both risks (R-521-9).
    assert "you must win both ways outright" in text
    assert "a tie or a loss either way means you get nothing from that pot" in text
    assert "the pot is then settled as if you had not been in it" in text
    assert "c's low would tie a's. a tie counts as a failure: a gets nothing" in text
    assert "the pot carries over to the next hand" in text
    # Steps: draws 2 then 1 (R-521-2, 4), stacking (R-521-6), the declare (R-521-8).
    assert "throws away none, one or two cards" in text
    assert "throws away none or one card" in text
    assert "once stacked, the order cannot change" in text
    assert "no betting round follows" in text
    # Ace-to-five low (R-C-3), no qualifier.
    assert "7-5-4-3-2 beats 7-6-3-2-a" in text
    assert "there is no qualifier" in text


COMMON_OPTIONS = [
    "structure: fixed-limit (default), pot-limit or no-limit",
    "ante 1, small bet 2, big bet 4, starting stack 200",
    "cap_heads_up: on",
]
GAME_OPTIONS = {
    "sdr": ["burn_before_roll: off"],
    "rollyourown": ["wild_duplicates: off", "natural_beats_wild: off"],
    "rollem521": ["bet_after_declare: off", "failed_both_rule: carry (default) or split"],
}


@pytest.mark.parametrize("game", list_games())
def test_house_options_with_defaults(game: str) -> None:
    text = flat(rules_text(game))
    for option in [*COMMON_OPTIONS, *GAME_OPTIONS[game]]:
        assert option in text, option
    # Each game's own options appear in its own text only.
    for other, options in GAME_OPTIONS.items():
        if other != game:
            for option in options:
                assert option.split(":")[0] not in text, (game, option)


@pytest.mark.parametrize("game", list_games())
def test_game_text_is_the_packaged_file(game: str) -> None:
    code, out, _ = run_rules(game)
    assert code == 0
    assert out == rules_text(game) == topic_text(game)
    assert out.startswith(f"# {game_name(game)} (`{game}`)\n")


def test_game_id_is_case_insensitive() -> None:
    code, out, _ = run_rules("SDR")
    assert code == 0 and out == rules_text("sdr")


def test_dealers_choice_is_the_overview() -> None:
    assert run_rules("dealers-choice") == (0, rules_text(None), "")


@pytest.mark.parametrize("bad", ["poker", "sd", "sdr2"])
def test_unknown_game_is_one_line_exit_2(bad: str) -> None:
    code, out, err = run_rules(bad)
    assert code == 2
    assert out == ""
    # dealers-choice is accepted (the overview), so it is listed too; the
    # standard games' rules come from their game files (issue 18)
    allowed = ("expected one of sdr, rollyourown, rollem521, holdem, omaha, omaha8, stud, "
               "stud8, razz, draw5, deuces-wild or dealers-choice (or --game-file FILE)")
    assert err == f"rollem: error: unknown game {bad!r}: {allowed}\n"


def test_unknown_game_through_main() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rollem", "rules", "poker"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "sdr, rollyourown, rollem521" in proc.stderr


def test_rich_rendering_on_a_terminal() -> None:
    buf = io.StringIO()
    render_markdown(rules_text("sdr"), buf, width=100)
    out = buf.getvalue()
    assert "\x1b[" in out  # styled for a terminal
    plain = flat(re.sub(r"\x1b\[[0-9;]*m", "", out))
    assert "stop, drop and roll (sdr)" in plain
    assert "the stop and the drop are dead" in plain
    assert "#" not in plain.split("stop, drop and roll")[0]  # headings rendered, not raw


def test_every_decision_has_help() -> None:
    for game, kinds in GAME_DECISIONS.items():
        assert set(kinds) <= set(DECISION_KINDS)
        for kind in kinds:
            text = decision_help(game, kind)
            assert len(text) > 80 and "\n" not in text, (game, kind)
    # Every kind belongs to some game, and choose_game and bet to all.
    assert set().union(*GAME_DECISIONS.values()) == set(DECISION_KINDS)
    assert all({"bet", "choose_game"} <= set(kinds) for kinds in GAME_DECISIONS.values())
    assert decision_help("dealers-choice", "choose_game") == decision_help(None, "choose_game")


def test_decision_help_facts() -> None:
    assert "lowest hand showing" in decision_help("rollyourown", "pick_wild")
    assert "every card of its rank is wild" in decision_help("rollyourown", "pick_wild")
    declare = decision_help("rollem521", "declare")
    assert "a tie or a loss either way and you get nothing" in declare
    assert "Stop and the Drop are dead" in decision_help("sdr", "bet")
    assert "none, one or two" in decision_help("rollem521", "draw")
    assert "three of your six cards" in decision_help("rollyourown", "discard_to_pool")


def test_decision_help_errors_name_what_is_allowed() -> None:
    with pytest.raises(RulesError, match="no 'stack' decision in sdr: expected one of bet"):
        decision_help("sdr", "stack")
    with pytest.raises(RulesError, match="unknown decision 'shove': expected one of bet, "):
        decision_help("sdr", "shove")
    with pytest.raises(RulesError, match="unknown game 'omaha'"):
        decision_help("omaha", "bet")
    with pytest.raises(RulesError, match="unknown rules topic"):
        topic_text("../pyproject")


@pytest.mark.slow
def test_installed_wheel_ships_the_rules(tmp_path: Path, built_dists: tuple[Path, Path]) -> None:
    """A built, non-editable install reads its rules from the package data."""
    wheel = built_dists[1]  # (conftest.py: built once for the run, from a copy of the tree)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    names = set(zipfile.ZipFile(wheel).namelist())
    for topic in ("overview", "general", *list_games()):
        assert f"rollem/rules/{topic}.md" in names
    site = tmp_path / "site"
    install = subprocess.run(
        [*pip, "install", "--no-deps", "--target", str(site), str(wheel)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr
    probe = (
        "import rollem.rules as r; print(r.__file__); "
        "print(all(r.rules_text(g) for g in r.list_games()) and bool(r.rules_text(None)))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    where, ok = proc.stdout.split()
    assert where.startswith(str(site)) and ok == "True"


def test_rules_on_a_terminal_page_with_less_r_and_no_codes_with_no_color(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: ``rollem rules sdr`` in a plain shell showed raw escape codes in
    less (no ``-R``), and ``NO_COLOR`` still left bold and underline codes."""
    import os

    import click

    from rollem.cli import rules_cmd

    paged: list[tuple[str, bool]] = []
    monkeypatch.setattr(click, "echo_via_pager",
                        lambda text, color=None: paged.append((text, bool(color))))
    monkeypatch.setattr(rules_cmd.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("LESS", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(**env: str) -> tuple[str, bool]:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        rules_cmd.rules_command.callback("sdr", False, False, False, None)  # type: ignore[misc]
        return paged[-1]

    text, colour = run()
    assert os.environ["LESS"] == "-R" and "\x1b[" in text and colour
    run(LESS="-FX")
    assert os.environ["LESS"] == "-FX -R"
    # a long option with an r in its name is not -r (s71-new: codes showed raw)
    run(LESS="--quit-if-one-screen --ignore-case")
    assert os.environ["LESS"] == "--quit-if-one-screen --ignore-case -R"
    run(LESS="-F --RAW-CONTROL-CHARS")
    assert os.environ["LESS"] == "-F --RAW-CONTROL-CHARS"
    text, colour = run(LESS="-FRX", NO_COLOR="1")
    assert os.environ["LESS"] == "-FRX"
    assert "\x1b" not in text and not colour and "Stop, Drop and Roll" in text


def test_the_basics_name_every_shipped_game_with_wild_cards() -> None:
    """``rollem rules`` said five of a kind was possible "only in Five Card
    Roll Your Own" and headed the wild cards' rules "Five Card Roll Your Own
    only", while Deuces Wild (shipped) makes five aces and takes the same
    house options (R-RYO-9's ``wild_duplicates``, ``natural_beats_wild``).
    Every shipped game with those options is named in both places."""
    from rollem import games

    wild = sorted(g.name for g in games.all_games()
                  if "wild_duplicates" in (getattr(g, "house", None) or {}))
    assert wild == ["Deuces Wild", "Five Card Roll Your Own"]
    text = rules_text(None)
    five = flat(text.split("1. **Five of a kind**")[1].split("2. **Straight flush")[0])
    heading = next(ln for ln in text.splitlines() if ln.startswith("## Wild cards"))
    for name in wild:
        assert name.lower() in five
        assert name in heading
    assert "only" not in heading
