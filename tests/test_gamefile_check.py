"""Game files: the JSON Schema, ``rollem check-game``, and one-line errors for
malformed files (issue 18, part 2)."""

from __future__ import annotations

import json
import random
import re
import tomllib
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from rollem import games
from rollem.bots.random_bot import random_action
from rollem.cli.app import app
from rollem.engine import Hand, Options, SeededSource
from rollem.games.gamefile import GameFileError, load_game, parse_game

FILES = sorted(p for p in resources.files("rollem.games").joinpath("files").iterdir()
               if p.name.endswith(".toml"))
SCHEMA = json.loads(resources.files("rollem.games").joinpath("gamefile.schema.json")
                    .read_text())
SDR = (Path(str(resources.files("rollem.games"))) / "files" / "sdr.toml").read_text()

MINIMAL = """id = "mini"
name = "Mini"
players = [2, 6]
rules = "Ante, five cards, a round, showdown."
[[steps]]
step = "ante"
[[steps]]
step = "deal"
cards = 5
[[steps]]
step = "bet"
size = "small"
cap = 3
[[steps]]
step = "showdown"
"""
RULES = 'rules = "Ante, five cards, a round, showdown."'


def test_shipped_files_are_the_pinned_ids() -> None:
    assert {p.name.removesuffix(".toml") for p in FILES} == {
        "sdr", "rollyourown", "rollem521", "holdem", "omaha", "omaha8", "stud", "stud8",
        "razz", "draw5", "deuces-wild"}
    assert set(games.STANDARD) | set(games.DEFAULT_CHOICE) == {g.id for g in games.all_games()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_shipped_file_passes_check_game_and_the_schema(path: Path) -> None:
    result = CliRunner().invoke(app, ["check-game", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    spec = parse_game(Path(str(path)).read_text())
    assert lines[0].startswith(f"{spec.name} ({spec.id}): {spec.min_players} to ")
    assert lines[-1] == "OK: the game file is valid."
    assert sum(1 for ln in lines if re.match(r"\d+\. ", ln)) == len(spec.steps)
    jsonschema.validate(tomllib.loads(Path(str(path)).read_text()), SCHEMA)


def test_check_game_words_for_holdem() -> None:
    path = next(p for p in FILES if p.name == "holdem.toml")
    out = CliRunner().invoke(app, ["check-game", str(path)]).output.splitlines()
    assert out[1] == ("1. Blinds: small blind half the small bet, big blind the small bet.")
    assert out[2] == "2. Deal 2 cards face down to each player."
    assert out[3:5] == [
        "3. Betting round (preflop): small bet, a bet and 3 raises in fixed limit;",
        "   opened by the first player to the left of the big blind (or straddle)."]
    assert out[-2] == "13. Showdown: the best high hand wins, with the best five cards."
    assert all(len(line) <= 78 for line in out)  # (s61-term: a step ran to 144 columns)


BAD = [
    ("players = [2, 6]\n", 'id = "mini"', 'id = "Mini!"',
     "id: must be a short id of lower-case letters"),
    ("", "players = [2, 6]", "players = [1, 6]", "players: must be [min, max] with 2 <= min"),
    ("", 'step = "ante"', 'step = "antes"', "steps[0].step: unknown step 'antes'; allowed: ante,"),
    ("", "cards = 5", "cards = 0", "steps[1].cards: must be a whole number 1..10, got 0"),
    ("", 'size = "small"', 'size = "medium"',
     "steps[2].size: must be one of small, big, got 'medium'"),
    ("", "cap = 3", "cap = 3\nraises = 2",
     "steps[2].raises: unknown key for a 'bet' step; allowed: step, when, size, cap, opener,"),
    ("", 'step = "showdown"', 'step = "burn"',
     'steps: the last step must be a showdown (step = "showdown")'),
    ("", 'cap = 3', 'cap = 3\nwhen = "no_such"',
     "steps[2].when: must name a true/false house option; allowed: none"),
    ("", 'cards = 5', 'cards = 9', "players: 6 players need 54 cards but the deck has 52; "
                                   "allow at most 5 players"),
    ("", 'cards = 5', 'cards = 5\n[[steps]]\nstep = "discard"\ncards = 6',
     "steps[2].cards: discards 6 cards but only 5 were dealt to each player before it"),
    ("", 'rules = "Ante, five cards, a round, showdown."', "",
     "rules: missing; give the players' rules text"),
    # one card is "1 card" (s60-fresh: "players end with 1 cards")
    ("", "cards = 5", "cards = 1",
     "steps[3]: players end with 1 card and the board has 0; a hand needs 5"),
    ("", 'name = "Mini"', 'name = "Mini"\nsteps_extra = 1', "steps_extra: unknown key; allowed:"),
    ("", 'id = "mini"', 'id = "mini', "game file: not valid TOML:"),
    ("", 'cap = 3', 'cap = 3\n[[steps]]\nstep = "blinds"',
     "steps[3].step: blinds must come before the first betting round"),
    # a low-only pot that nobody qualifies for would have no winner (issue 18)
    ("", 'step = "showdown"', 'step = "showdown"\npot = "low"\nqualifier = 8',
     'steps[3].qualifier: only for pot = "high-low" with an ace-to-five low, got pot = '
     "'low', low = 'ace-to-five'"),
    # what a step needs from the steps before it (each was accepted and then could
    # not be dealt: a web table froze, rollem play crashed)
    ("", 'step = "ante"', 'step = "ante"\n[[steps]]\nstep = "deal"\ncards = 1\n'
     '[[steps]]\nstep = "pick-wild"\nchooser = "left-of-button"',
     "steps[2]: pick-wild takes a card from the discard pool, but no card is left in it"),
    ("", 'size = "small"', 'size = "small"\nopener = "highest-showing"',
     "steps[2].opener: 'highest-showing' reads the hands showing, but no card is face up"),
    ("", 'cards = 5', 'cards = 5\n[[steps]]\nstep = "draw-from-pool"\n[[steps]]\n'
     'step = "discard"\ncards = 1',
     "steps[2]: draw-from-pool takes a card from the discard pool, but no card is left"),
    ("", 'cards = 5', 'cards = 5\nface = "up"\n[[steps]]\nstep = "expose"',
     "steps[2]: expose takes 1 face-down card from each player, but they hold 0 face down"),
    ("", 'cards = 5', 'cards = 5\n[[steps]]\nstep = "expose"\n[[steps]]\nstep = "stack"',
     "steps[3]: stack orders face-down cards for the roll-ups, but a card is already face up"),
    ("", 'players = [2, 6]\nrules = "Ante, five cards, a round, showdown."\n[[steps]]\n'
     'step = "ante"\n[[steps]]\nstep = "deal"\ncards = 5',
     'players = [2, 4]\nrules = "Ante, five cards, a round, showdown."\n[[steps]]\n'
     'step = "ante"\n[[steps]]\nstep = "deal"\ncards = 5\n[[steps]]\nstep = "expose"\n'
     '[[steps]]\nstep = "discard"\ncards = 5\n[[steps]]\nstep = "deal"\ncards = 5',
     "steps[3]: discard takes 5 face-down cards from each player, but they hold 4 face down"),
    # declarations settle only a declare pot, and a declare pot needs them: a declare
    # step before a high showdown was accepted, played as high, and told as carried
    ("", 'step = "showdown"', 'step = "declare"\n[[steps]]\nstep = "showdown"',
     'steps[3].step: a "declare" step needs the showdown\'s pot = "declare" (steps[4].pot '
     "is 'high'); set pot = \"declare\" or remove the declare step"),
    ("", 'step = "showdown"', 'step = "showdown"\npot = "declare"',
     'steps[3].pot: "declare" needs a "declare" step before the showdown'),
    ("", 'step = "showdown"', 'step = "declare"\n[[steps]]\nstep = "declare"\n[[steps]]\n'
     'step = "showdown"\npot = "declare"', 'steps[4].step: only one "declare" step'),
    # a wild rank goes with a showdown that counts wild cards, and the other way round
    ("", 'cards = 5', 'cards = 5\n[[steps]]\nstep = "wild"\nranks = ["2"]',
     "steps[2].step: a 'wild' step makes a rank wild, but the showdown does not count wild "
     "cards (steps[4].wild is false); set wild = true in the showdown or remove the wild step"),
    ("", 'step = "showdown"', 'step = "showdown"\nwild = true',
     'steps[3].wild: true counts wild cards, but no "wild" or "pick-wild" step makes a rank '
     "wild; add one or remove wild = true"),
    # every [house] option must do something: the table's own options are set at the
    # table; the engine's options where they apply; any other a switch a step's when names
    ("", RULES, RULES + '\n[house]\nstructure = "no-limit"',
     "house.structure: a table option, not a game's: set it at the table (rollem play's "
     "--structure, --ante"),
    ("", RULES, RULES + "\n[house]\nante = 5000", "house.ante: a table option, not a game's"),
    ("", RULES, RULES + "\n[house]\nwild_duplicates = 7",
     "house.wild_duplicates: must be true or false, got 7"),
    ("", RULES, RULES + "\n[house]\nwild_duplicates = true",
     "house.wild_duplicates: applies only to a game with a showdown with wild = true; this "
     "one has none, so it would do nothing; remove it"),
    ("", RULES, RULES + '\n[house]\nfailed_both_rule = "split"',
     'house.failed_both_rule: applies only to a game with a showdown with pot = "declare"'),
    ("", RULES, RULES + "\n[house]\nsmall_blind = 1",
     'house.small_blind: applies only to a game with a "blinds" step'),
    ("", RULES, RULES + '\n[house]\nsmall_blind = "small-bet"',
     "house.small_blind: must be a whole number of chips >= 0, got 'small-bet'"),
    ("", RULES, RULES + "\n[house]\nburn_cards = true",
     'house.burn_cards: no step names it (when = "burn_cards"), so it would do nothing'),
    ("", RULES, RULES + '\n[house]\nseating = "fixed"',
     "house.seating: must be true or false (a game's own house option switches steps on "
     "and off with when), got 'fixed'"),
    # a game's name is shown to every player: it must read as what it is
    ("", 'name = "Mini"', 'name = " "', "name: must be a one-line text of 1..60 characters, "
                                        "not all spaces, got ' '"),
    ("", 'name = "Mini"', 'name = "Mini\\u0000"',
     "name: may not hold invisible, control or text-direction characters (U+0000)"),
    ("", 'name = "Mini"', 'name = "\\u202einiM"',
     "name: may not hold invisible, control or text-direction characters (U+202E)"),
    ("", 'name = "Mini"', 'name = "Mi\\nni"',
     "name: may not hold invisible, control or text-direction characters (U+000A)"),
    # the rules and the step labels are shown to players too (rollem rules, the web
    # table's How to play, the table header): the same check, line breaks allowed
    ("", 'rules = "Ante, five cards, a round, showdown."',
     'rules = "Ante, \\u202ewodwohs ,dnuor a ,sdrac evif"',
     "rules: may not hold invisible, control or text-direction characters (U+202E in line "
     "1; line breaks are allowed)"),
    ("", 'rules = "Ante, five cards, a round, showdown."',
     'rules = """\nAnte, five cards,\na round,\\u200b showdown."""',
     "rules: may not hold invisible, control or text-direction characters (U+200B in line 2;"),
    ("", 'rules = "Ante, five cards, a round, showdown."',
     'rules = "Ante, five cards,\\ta round, showdown."',
     "rules: may not hold invisible, control or text-direction characters (U+0009 in line 1;"),
    ("", "cap = 3", 'cap = 3\nlabel = "\\u202epolf"',
     "steps[2].label: may not hold invisible, control or text-direction characters (U+202E); "
     "got '\\u202epolf'"),
    ("", 'step = "ante"', 'step = "ante"\n[[steps]]\nstep = "dead"\nlabel = "Stop\\u3164"',
     "steps[1].label: may not hold invisible, control or text-direction characters (U+3164)"),
    # a default-ignorable letter (HANGUL FILLER) shows as nothing: "Mini" would read "Mini"
    ("", 'name = "Mini"', 'name = "Mini\\u3164"',
     "name: may not hold invisible, control or text-direction characters (U+3164)"),
]


@pytest.mark.parametrize(("prefix", "old", "new", "message"), BAD,
                         ids=[b[3][:30] for b in BAD])
def test_malformed_files_give_one_line_errors(prefix: str, old: str, new: str,
                                              message: str, tmp_path: Path) -> None:
    text = MINIMAL.replace(old, new, 1)
    assert text != MINIMAL
    with pytest.raises(GameFileError) as err:
        parse_game(text)
    assert message in str(err.value), str(err.value)
    assert "\n" not in str(err.value)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    result = CliRunner().invoke(app, ["check-game", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert result.stderr.startswith("rollem: error: ")


def test_a_wild_pick_with_no_wild_showdown_is_refused() -> None:
    # Roll Your Own with wild = false: the pick was told "every two is wild", and the
    # twos played as twos
    ryo = (Path(str(resources.files("rollem.games"))) / "files" / "rollyourown.toml").read_text()
    text = ryo.replace('id = "rollyourown"', 'id = "ryo-plain"').replace("\nwild = true",
                                                                         "\nwild = false")
    assert text.count("\nwild = false") == 1
    with pytest.raises(GameFileError, match=r"^steps\[\d+\]\.step: a 'pick-wild' step makes a "
                                            r"rank wild, but the showdown does not count wild "
                                            r"cards \(steps\[\d+\]\.wild is false\)"):
        parse_game(text)
    assert parse_game(text.replace("\nwild = false", "\nwild = true")).id == "ryo-plain"


def test_house_choices_hold_only_allowed_values() -> None:
    r521 = (Path(str(resources.files("rollem.games"))) / "files" / "rollem521.toml").read_text()
    text = r521.replace('id = "rollem521"', 'id = "r521-x"')
    assert parse_game(text).choices == {"failed_both_rule": ("carry", "split")}
    bad = text.replace('failed_both_rule = ["carry", "split"]',
                       'failed_both_rule = ["carry", "split", "chop"]')
    assert bad != text
    with pytest.raises(GameFileError, match=r"^choices\.failed_both_rule\[2\]: must be one of "
                                            r"carry, split, got 'chop'$"):
        parse_game(bad)


def test_opener_of_the_round_after_blinds_is_checked() -> None:
    text = MINIMAL.replace('step = "ante"', 'step = "blinds"')
    with pytest.raises(GameFileError, match=r"steps\[2\].opener: the round after the blinds is "
                                            r"opened by 'left-of-big-blind', got "
                                            r"'left-of-button'"):
        parse_game(text)


def test_too_large_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(GameFileError, match="larger than 65536 bytes"):
        parse_game(MINIMAL + "#" * 70000)
    # 61 steps in a small file (a draw step repeated): refused before any is read.
    draws = '[[steps]]\nstep = "draw"\nmax = 1\n' * 57
    many = MINIMAL.replace('[[steps]]\nstep = "showdown"', draws + '[[steps]]\nstep = "showdown"')
    assert many.count("[[steps]]") == 61 and len(many) < 2100
    with pytest.raises(GameFileError, match=r"^steps: 61 steps; a game may have at most 60$"):
        parse_game(many)
    assert parse_game(many.replace(draws, draws[:-len(draws) // 57])).steps
    runner = CliRunner()
    result = runner.invoke(app, ["check-game", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2


def test_minimal_file_plays_and_a_house_option_switches_a_step() -> None:
    game = load_game(MINIMAL)
    rng = random.Random(4)
    hand = Hand(game, [30, 30, 30], options=Options(), source=SeededSource(4))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    assert hand.result is not None and sum(hand.result.net.values()) == 0
    burning = SDR.replace("[house]\nburn_before_roll = false", "[house]\nburn_before_roll = true")
    sdr2 = load_game(burning)
    plain = Hand(games.get("sdr"), [20, 20], source=SeededSource(1))
    burnt = Hand(sdr2, [20, 20], source=SeededSource(1))
    assert [s.name for s in burnt.steps].count("burn") == \
        [s.name for s in plain.steps].count("burn") + 1


@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, "{a=" * 3000 + "1" + "}" * 3000])
def test_a_deeply_nested_file_is_refused_in_one_line(tmp_path: Path, nested: str) -> None:
    text = f'format = 1\nid = "deep"\nname = "d"\nplayers = [2, 9]\nx = {nested}\n'
    with pytest.raises(GameFileError, match=r"^game file: arrays or tables nested too deeply$"):
        parse_game(text)
    path = tmp_path / "deep.toml"
    path.write_text(text)
    for args in (["check-game", str(path)], ["simulate", "--game-file", str(path), "--players", "3",
                                                    "--hands", "1"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code != 0 and "nested too deeply" in result.output, result.output
        assert "Traceback" not in result.output and "RecursionError" not in result.output


def test_a_game_with_no_betting_round_or_no_forced_bet_is_refused(tmp_path: Path) -> None:
    """Issue 33: check-game accepted a game with no betting step and no forced bet."""
    no_bet = MINIMAL.replace('[[steps]]\nstep = "bet"\nsize = "small"\ncap = 3\n', "")
    with pytest.raises(GameFileError, match=r'^steps: no "bet" step; a poker game needs at '
                                            r"least one betting round"):
        parse_game(no_bet)
    no_forced = MINIMAL.replace('[[steps]]\nstep = "ante"\n', "")
    with pytest.raises(GameFileError, match=r'^steps: no forced bet; start the pot with an '
                                            r'"ante", "blinds" or "bring-in" step'):
        parse_game(no_forced)
    # Stored files are read as they were accepted.
    assert parse_game(no_forced, strict=False).id == "mini"
    assert parse_game(MINIMAL).id == "mini"


def test_the_showing_openers_rank_a_seat_with_no_up_card_below_every_other() -> None:
    """A game file may draw away a seat's only up card: the seat then shows nothing,
    which ranks below any card showing (it was a crash: 'a hand showing needs at
    least one card')."""
    from rollem.engine.betting import highest_showing, lowest_showing

    hand = Hand(load_game(MINIMAL), [50, 50, 50], source=SeededSource(1))
    hand.up = [[False] * len(hand.hole[s]) for s in range(3)]
    hand.up[1][0] = True  # only seat 1 shows a card
    assert highest_showing(hand) == 1
    assert lowest_showing(hand) in (0, 2) and lowest_showing(hand) != 1
