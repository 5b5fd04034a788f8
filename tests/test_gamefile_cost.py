"""A game file's showdown cost is bounded when the file is read (issue 34, item 1):
the plain five-card hand evaluations of its showdown (players x hands per player
x weight, :mod:`rollem.games.cost`), refused in one line over
:data:`MAX_SHOWDOWN_EVALUATIONS` by ``rollem check-game``, ``--game-file`` and the
web table alike; every shipped game and the docs' example pass with room; a
stored file is read as it was accepted."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem.cli.app import app
from rollem.games.cost import MAX_SHOWDOWN_EVALUATIONS, WILD_WEIGHT, showdown_evaluations
from rollem.games.gamefile import GameFileError, load_game, parse_game

FILES = sorted(p for p in resources.files("rollem.games").joinpath("files").iterdir()
               if p.name.endswith(".toml"))
PAGE = Path(__file__).parent.parent / "docs" / "write-your-own-game.md"


def costly_file(cards: tuple[int, ...] = (10, 10, 6), players: int = 2, *, wild: bool = True,
                pot: str = "high") -> str:
    """A game dealing ``cards`` (one deal step each, a betting round after each) to
    ``players`` players; with ``wild``, deuces and treys wild.  The default is the
    file of issue 34: 26 cards a player, wild cards, 2 players."""
    text = (f'id = "big-wild"\nname = "Big Wild"\nplayers = [{players}, {players}]\n'
            'rules = "Many cards each."\n[[steps]]\nstep = "ante"\n')
    for n in cards:
        text += (f'[[steps]]\nstep = "deal"\ncards = {n}\n'
                 '[[steps]]\nstep = "bet"\nsize = "small"\ncap = 3\n')
    if wild:
        text += '[[steps]]\nstep = "wild"\nranks = ["2", "3"]\n'
    text += f'[[steps]]\nstep = "showdown"\npot = "{pot}"\n'
    return text + ("wild = true\n" if wild else "")


ATTACK = costly_file()
ATTACK_LINE = ("steps[8]: the showdown would cost 2,631,200 hand evaluations (2 players x "
               "65,780 five-card hands, the best five of 26 cards, x 20 for wild cards); at "
               "most 15,000 are allowed: deal fewer cards, use hole/board, or allow fewer "
               "players")


def test_the_file_of_issue_34_is_refused_naming_the_count_and_the_limit() -> None:
    with pytest.raises(GameFileError) as err:
        parse_game(ATTACK)
    assert str(err.value) == ATTACK_LINE
    assert MAX_SHOWDOWN_EVALUATIONS == 15_000 and WILD_WEIGHT == 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_shipped_game_passes_with_room(path: Path) -> None:
    spec = parse_game(path.read_text())
    # twelve times the costliest (Omaha hi-lo, 10 players: 10 x 60 x 2 = 1,200)
    assert showdown_evaluations(spec.steps, spec.max_players) * 12 <= MAX_SHOWDOWN_EVALUATIONS


@pytest.mark.parametrize(("game", "count"), [
    ("holdem", 10 * 21),       # best five of seven: C(7, 5) = 21
    ("omaha", 10 * 6 * 10),    # two of four hole cards, three of five on the board
    ("omaha8", 10 * 60 * 2),   # both halves
    ("stud8", 7 * 21 * 2),
    ("rollyourown", 8 * 1 * 20),  # five cards, wild: value and words, each substituted
    ("deuces-wild", 6 * 1 * 20),
    ("sdr", 10 * 1),
])
def test_hand_counted_showdowns(game: str, count: int) -> None:
    path = next(p for p in FILES if p.name == f"{game}.toml")
    spec = parse_game(path.read_text())
    assert showdown_evaluations(spec.steps, spec.max_players) == count


def test_the_docs_example_passes() -> None:
    text = re.findall(r"```toml\n(.*?)```", PAGE.read_text(), flags=re.S)[0]
    spec = parse_game(text)
    # Crazy Pineapple: best five of 2 + 5 at 9 players
    assert showdown_evaluations(spec.steps, spec.max_players) == 9 * 21


def test_the_bound_is_on_the_count_not_on_cards_or_wild_cards() -> None:
    # 10 cards a player with wild cards at 2 players: 2 x 252 x 20 = 10,080: allowed
    assert showdown_evaluations(parse_game(costly_file((5, 5))).steps, 2) == 10_080
    # 11: 2 x 462 x 20 = 18,480: refused; the same 11 cards without wild cards
    # (924) pass, and so do 17 (2 x 6,188 = 12,376), but not 18 (17,136)
    with pytest.raises(GameFileError, match=r"cost 18,480 hand evaluations"):
        parse_game(costly_file((6, 5)))
    parse_game(costly_file((6, 5), wild=False))
    parse_game(costly_file((9, 8), wild=False))
    with pytest.raises(GameFileError, match=r"cost 17,136 hand .*the best five of 18 cards\)"):
        parse_game(costly_file((9, 9), wild=False))
    # at high-low each hand counts twice: 2 x 6,188 x 2 = 24,752
    with pytest.raises(GameFileError, match=r"x 2 for a high-low pot"):
        parse_game(costly_file((9, 8), wild=False, pot="high-low"))
    # nine-card baseball with wild cards at 5 players: 5 x 126 x 20 = 12,600
    parse_game(costly_file((5, 4), players=5))


def test_a_hole_and_board_rule_counts_its_own_hands() -> None:
    text = (ATTACK.replace('cards = 6\n', 'cards = 2\n', 1)
            .replace('[[steps]]\nstep = "wild"\nranks = ["2", "3"]\n',
                     '[[steps]]\nstep = "board"\ncards = 5\n')
            .replace('wild = true\n', 'hole = 2\nboard = 3\n'))
    # 22 own cards, two of them (231) with three of five board cards (10): 2 x 2,310
    assert showdown_evaluations(parse_game(text).steps, 2) == 4_620
    # four hole cards and a board of 20 (four board steps of 5): 6 x 1,140 a player
    boards = ('[[steps]]\nstep = "board"\ncards = 5\n' * 4)
    big = ('id = "big-board"\nname = "Big Board"\nplayers = [2, 3]\nrules = "x"\n'
           '[[steps]]\nstep = "ante"\n[[steps]]\nstep = "deal"\ncards = 4\n' + boards
           + '[[steps]]\nstep = "bet"\nsize = "small"\ncap = 3\n'
           '[[steps]]\nstep = "showdown"\nhole = 2\nboard = 3\n')
    assert showdown_evaluations(parse_game(big.replace("[2, 3]", "[2, 2]")).steps, 2) == 13_680
    with pytest.raises(GameFileError, match=r"^steps\[7\]: the showdown would cost 20,520 hand "
                       r"evaluations \(3 players x 6,840 five-card hands, 2 of 4 own cards "
                       r"with 3 of 20 board cards\)"):
        parse_game(big)


def test_a_stored_file_is_read_as_it_was_accepted() -> None:
    game = load_game(ATTACK, strict=False)  # a history's _game_file, a stored table
    assert game.id == "big-wild"


def test_check_game_and_play_refuse_it_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(ATTACK)
    runner = CliRunner()
    for args in (["check-game", str(path)], ["play", "--game-file", str(path)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        # (play cuts a long line in the middle; both name the step and the limit)
        assert ATTACK_LINE in result.output or (
            ATTACK_LINE[:20] in result.output and ATTACK_LINE[-80:] in result.output)
        assert len([line for line in result.output.splitlines() if line.strip()]) == 1
