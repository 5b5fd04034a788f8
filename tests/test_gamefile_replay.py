"""A hand of a user's game file replays: its history carries the game file as
``_game_file`` (issue 18), so ``rollem replay`` needs nothing else."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner

from rollem.bots.random_bot import random_action
from rollem.cli.app import app
from rollem.engine import Hand, Options, SeededSource
from rollem.games import get
from rollem.games.gamefile import load_game
from rollem.history import HistoryError, redact, replay, write_history

PAGE = Path(__file__).parent.parent / "docs" / "write-your-own-game.md"


def example() -> str:
    return str(re.findall(r"```toml\n(.*?)```", PAGE.read_text(), flags=re.S)[0])


def played(seed: int, players: int = 3) -> Hand:
    game = load_game(example())
    rng = random.Random(seed)
    hand = Hand(game, [100] * players, button=0, options=Options(ante=1),
                source=SeededSource(seed))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    return hand


def test_a_user_games_history_carries_its_file_and_replays() -> None:
    for seed in range(6):
        hand = played(seed)
        text = write_history(hand, players=["Ann", "Bob", "Cy"])
        data = tomllib.loads(text)
        assert data["variant"] == "rollem-crazy-pineapple"
        assert data["_game_file"] == example()
        again = replay(text)  # the registry knows no crazy-pineapple: the file is used
        assert again.game.id == "crazy-pineapple"
        assert again.result is not None and hand.result is not None
        assert again.result.to_dict() == hand.result.to_dict()
        assert again.stacks == hand.stacks
        assert write_history(again, players=["Ann", "Bob", "Cy"]) == text


def test_shipped_games_carry_no_game_file() -> None:
    hand = Hand(get("holdem"), [50, 50], source=SeededSource(3))
    assert "_game_file" not in write_history(hand)


def test_replay_refuses_a_wrong_or_missing_game_file_in_one_line() -> None:
    data = tomllib.loads(write_history(played(1)))
    wrong = dict(data, _game_file=example().replace('"crazy-pineapple"', '"pineapple"'))
    with pytest.raises(HistoryError, match=r"^_game_file is game 'pineapple' but variant is "
                                           r"'rollem-crazy-pineapple'$"):
        replay(tomli_w.dumps(wrong))
    bad = dict(data, _game_file=example().replace("players = [2, 9]", "players = [2, 11]"))
    with pytest.raises(HistoryError, match=r"^_game_file: players: must be \[min, max\]"):
        replay(tomli_w.dumps(bad))
    del data["_game_file"]
    with pytest.raises(HistoryError, match=r"unknown game 'crazy-pineapple'.*carries its game "
                                           r"file as _game_file\)$"):
        replay(tomli_w.dumps(data))


def test_rollem_replay_tells_a_user_games_hand(tmp_path: Path) -> None:
    hand = played(4)
    text = write_history(hand, players=["Ann", "Bob", "Cy"])
    path = tmp_path / "hand.toml"
    path.write_text(text)
    out = CliRunner().invoke(app, ["replay", str(path), "--result"])
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("Crazy Pineapple: 3 players, Ann has the button")
    told = CliRunner().invoke(app, ["replay", str(path)])
    assert told.exit_code == 0, told.output
    assert "Crazy Pineapple" in told.stdout and "Ann" in told.stdout
    # a player's own copy (as the web table gives it) is told as that player saw it
    mine = tmp_path / "mine.toml"
    mine.write_text(tomli_w.dumps(redact(text, 1)))
    seen = CliRunner().invoke(app, ["replay", str(mine)])
    assert seen.exit_code == 0, seen.output
    assert "Crazy Pineapple" in seen.stdout
