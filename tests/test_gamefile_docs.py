"""The worked example of docs/write-your-own-game.md: the file on the page
is checked, loaded and played (issue 18)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from click.testing import CliRunner

from rollem.bots.random_bot import random_action
from rollem.cli.app import app
from rollem.engine import Hand, Options, SeededSource
from rollem.games.gamefile import load_game
from rollem.history import write_history

PAGE = Path(__file__).parent.parent / "docs" / "write-your-own-game.md"


def example() -> str:
    blocks = re.findall(r"```toml\n(.*?)```", PAGE.read_text(), flags=re.S)
    assert len(blocks) == 1
    return str(blocks[0])


def test_worked_example_passes_check_game(tmp_path: Path) -> None:
    path = tmp_path / "crazy-pineapple.toml"
    path.write_text(example())
    out = CliRunner().invoke(app, ["check-game", str(path)])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == "Crazy Pineapple (crazy-pineapple): 2 to 9 players."
    assert "7. All at once, each player discards 1 face down into a common pool." in out.output


def test_worked_example_with_a_declare_step_is_refused(tmp_path: Path) -> None:
    # a declare step before a high showdown: the declarations would settle nothing
    path = tmp_path / "crazy-declare.toml"
    path.write_text(example().replace('[[steps]]\nstep = "showdown"',
                                      '[[steps]]\nstep = "declare"\n\n[[steps]]\n'
                                      'step = "showdown"'))
    out = CliRunner().invoke(app, ["check-game", str(path)])
    assert out.exit_code == 2
    assert 'steps[13].step: a "declare" step needs the showdown\'s pot = "declare"' in out.stderr


def test_worked_example_plays() -> None:
    game = load_game(example())
    for seed in range(30):
        rng = random.Random(seed)
        n = 2 + seed % 8
        hand = Hand(game, [100] * n, button=seed % n, options=Options(ante=0),
                    source=SeededSource(seed))
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
        assert hand.result is not None and sum(hand.result.net.values()) == 0
        if hand.result.showdown:
            assert len(hand.board) == 5
            assert all(len(hand.hole[s]) == 2 for s in hand.result.shown)
        text = write_history(hand)
        assert 'variant = "rollem-crazy-pineapple"' in text
    # the house option switches the burns off
    plain = Hand(game, [50, 50], options=Options(house={"burn_cards": False}),
                 source=SeededSource(1))
    assert [s.name for s in plain.steps].count("burn") == 0
