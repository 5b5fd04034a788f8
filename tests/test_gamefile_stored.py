"""Stored game files are read as they were accepted: a hand history's
``_game_file`` made before the stricter checks of check-game (a [house] option
that does nothing, a wild_duplicates = 7) replays with its recorded result,
while check-game and ``--game-file`` still refuse the same file.

The history under ``histories/stored/`` was written by the code at commit
6ce1952 (before the stricter checks), seed 111 of 3 random players: a hand
whose showdown the wild duplicates decide (a flush of three aces, then
called "double-ace flush, ace-jack-three", now "triple-ace flush, jack-three").
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem.bots.random_bot import random_action
from rollem.cli.app import app
from rollem.engine import Hand, Options, SeededSource
from rollem.engine.game import Game
from rollem.games.gamefile import GameFileError, load_game, parse_game
from rollem.history import replay

OLD_HISTORY = Path(__file__).parent / "histories" / "stored" / "old_deuces_unused_house_option.toml"


def old_file() -> str:
    """The game file the old history carries: wild_duplicates = 7 (a number, read
    as on) and table_talk, a switch no step names."""
    return str(tomllib.loads(OLD_HISTORY.read_text())["_game_file"])


def played(game: Game, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    hand = Hand(game, [100] * 3, button=0, options=Options(ante=1), source=SeededSource(seed))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    assert hand.result is not None
    return hand.result.to_dict()


def test_an_old_history_with_a_house_option_that_does_nothing_replays_as_recorded() -> None:
    text = OLD_HISTORY.read_text()
    recorded = tomllib.loads(text)
    hand = replay(text)
    assert hand.game.id == "old-deuces"
    assert hand.result is not None
    # the recorded result, but for the cards shown (written from the hand, not the result)
    # and the words of the flush of three aces (s58-tidy: "double-ace flush,
    # ace-jack-three" before, still accepted from a history)
    got = hand.result.to_dict()
    assert recorded["_result"]["shown"]["2"] == "double-ace flush, ace-jack-three"
    assert got["shown"]["2"] == "triple-ace flush, jack-three"
    got["shown"]["2"] = recorded["_result"]["shown"]["2"]
    assert got == {k: v for k, v in recorded["_result"].items() if k != "shown_cards"}
    assert hand.stacks == recorded["finishing_stacks"] == [99, 93, 108]


def test_replay_and_odds_history_read_the_old_history(capsys: pytest.CaptureFixture[str]) -> None:
    out = CliRunner().invoke(app, ["replay", str(OLD_HISTORY), "--result", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["net"] == {"0": -1, "1": -7, "2": 8}
    out = CliRunner().invoke(app, ["odds", "--history", str(OLD_HISTORY), "--seat", "2",
                                   "--at", "2", "--samples", "50", "--seed", "1", "--json"])
    assert out.exit_code == 0, out.output


def test_check_game_still_refuses_the_stored_file(tmp_path: Path) -> None:
    path = tmp_path / "old.toml"
    path.write_text(old_file())
    out = CliRunner().invoke(app, ["check-game", str(path)])
    assert out.exit_code == 2
    assert "house.wild_duplicates: must be true or false, got 7" in out.stderr
    with pytest.raises(GameFileError, match=r"house\.wild_duplicates: must be true or false"):
        load_game(old_file())
    without = old_file().replace("wild_duplicates = 7", "wild_duplicates = true")
    with pytest.raises(GameFileError, match=r"house.table_talk: no step names it"):
        load_game(without)
    out = CliRunner().invoke(app, ["rules", "--game-file", str(path)])
    assert out.exit_code == 2 and "house.wild_duplicates" in out.stderr


def test_wild_duplicates_7_plays_as_it_did_on_and_the_unused_switch_changes_nothing() -> None:
    stored = load_game(old_file(), strict=False)
    assert stored.house == {"wild_duplicates": 7, "table_talk": True}
    on = load_game(old_file().replace("wild_duplicates = 7", "wild_duplicates = true")
                   .replace("table_talk = true\n", ""), strict=True)
    off = load_game(old_file().replace("wild_duplicates = 7", "wild_duplicates = false")
                    .replace("table_talk = true\n", ""), strict=True)
    differs = 0
    for seed in range(100, 130):
        result = played(stored, seed)
        assert result == played(on, seed), seed
        differs += result != played(off, seed)
    assert differs >= 1  # seed 111: a double-ace flush, only with wild duplicates


def _spec_text(extra: str, steps: str = "") -> str:
    return (
        'format = 1\nid = "x"\nname = "X"\nplayers = [2, 6]\nrules = "R"\n' + extra
        + '[[steps]]\nstep = "ante"\n[[steps]]\nstep = "deal"\ncards = 5\n' + steps
        + '[[steps]]\nstep = "bet"\nsize = "small"\ncap = 3\nopener = "left-of-button"\n'
        + '[[steps]]\nstep = "showdown"\n'
    )


@pytest.mark.parametrize(("text", "message"), [
    (_spec_text("[house]\nstructure = 'no-limit'\n"), "house.structure: a table option"),
    (_spec_text("", '[[steps]]\nstep = "declare"\n'),
     'steps[2].step: a "declare" step needs the showdown\'s pot = "declare"'),
    (_spec_text("").replace('rules = "R"', 'rules = "R\\u202e"'), "rules: may not hold"),
    (_spec_text("", '[[steps]]\nstep = "draw"\nmax = 2\nlabel = "dr\\u200baw"\n'),
     "steps[2].label: may not hold"),
    (_spec_text("", '[[steps]]\nstep = "wild"\nranks = ["2"]\n'),
     "steps[2].step: a 'wild' step makes a rank wild"),
])
def test_each_new_check_is_strict_only(text: str, message: str) -> None:
    with pytest.raises(GameFileError, match=re.escape(message)):
        parse_game(text)
    spec = parse_game(text, strict=False)  # a stored file: read as it was accepted
    assert "\u202e" not in spec.rules and all(
        "\u200b" not in str(s.params.get("label", "")) for s in spec.steps)


def test_hidden_characters_of_a_stored_file_are_shown_replaced() -> None:
    text = _spec_text("", '[[steps]]\nstep = "draw"\nmax = 2\nlabel = "dr\\u200baw"\n').replace(
        'rules = "R"', 'rules = "line one\\nR\\u202eL\\u001b[2J"')
    spec = parse_game(text, strict=False)
    assert spec.rules == "line one\nR\ufffdL\ufffd[2J"
    assert spec.steps[2].params["label"] == "dr\ufffdaw"
    assert spec.text == text  # the stored text itself is kept as it was


@pytest.mark.parametrize(("text", "message"), [
    (_spec_text("").replace("cards = 5", "cards = 9"), "players: 6 players need 54 cards"),
    (_spec_text("[house]\nBad = true\n"), "house.Bad: option names are lower_case"),
    (_spec_text("[house]\nchips = -1\n"), "house.chips: a default must be"),
    (_spec_text("").replace('step = "showdown"', 'step = "shodown"'), "unknown step"),
    ("x = " + "[" * 3000 + "]" * 3000, "nested too deeply"),
])
def test_checks_of_the_engines_integrity_stay_when_read_leniently(text: str,
                                                                  message: str) -> None:
    with pytest.raises(GameFileError, match=message):
        parse_game(text, strict=False)
