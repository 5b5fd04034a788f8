"""Our three games loaded from their shipped game files play exactly as the
Python definitions they replaced: byte-identical hand histories for the same
seed and actions (issue 18, part 1); and the engine knows no particular game."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path

import pytest

from legacy_games import ROLL_YOUR_OWN, ROLLEM521, SDR
from rollem import games
from rollem.bots.random_bot import random_action
from rollem.engine import EngineError, Hand, Options, SeededSource
from rollem.history import replay, write_history

SNAPSHOTS = sorted((Path(__file__).parent / "histories" / "builtin").glob("*.toml"))
LEGACY = {"sdr": SDR, "rollyourown": ROLL_YOUR_OWN, "rollem521": ROLLEM521}
OPTIONS = [
    Options(),
    Options(structure="no-limit"),
    Options(structure="pot-limit", ante=2, small_bet=4, big_bet=8),
    Options(caps=(0, 2), cap_heads_up=False),
    Options(house={"burn_before_roll": True, "wild_duplicates": True,
                   "natural_beats_wild": True, "bet_after_declare": True,
                   "failed_both_rule": "split"}),
]


def test_snapshots_exist_for_each_game() -> None:
    assert {p.name.split("_")[0] for p in SNAPSHOTS} == {"sdr", "rollyourown", "rollem521"}
    assert len(SNAPSHOTS) == 24


@pytest.mark.parametrize("path", SNAPSHOTS, ids=lambda p: p.stem)
def test_snapshot_histories_replay_byte_identical(path: Path) -> None:
    # written by the Python game modules before the switch to game files
    text = path.read_text()
    assert write_history(replay(text)) == text


def _play(game: object, seed: int, opts: Options, n: int) -> str:
    rng = random.Random(seed)
    stacks = [rng.choice([3, 12, 40, 150]) for _ in range(n)]
    hand = Hand(game, stacks, button=seed % n, options=opts,  # type: ignore[arg-type]
                source=SeededSource(seed))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    return write_history(hand)


@pytest.mark.parametrize("game_id", ["sdr", "rollyourown", "rollem521"])
def test_file_game_matches_python_game(game_id: str) -> None:
    new, old = games.get(game_id), LEGACY[game_id]
    assert (new.id, new.name, new.min_players, new.max_players) == (
        old.id, old.name, old.min_players, old.max_players)
    assert dict(new.house) == dict(old.house) and list(new.house) == list(old.house)
    assert new.caps == old.caps
    for seed in range(40):
        opts = OPTIONS[seed % len(OPTIONS)]
        n = 2 + seed % (old.max_players - 1)
        assert _play(new, seed, opts, n) == _play(old, seed, opts, n), (game_id, seed)


def test_house_choice_checked_like_before() -> None:
    opts = Options(house={"failed_both_rule": "keep"})
    with pytest.raises(EngineError, match="unknown failed_both_rule 'keep': expected one of "
                                          "carry, split"):
        Hand("rollem521", [50, 50], options=opts, source=SeededSource(1))


ENGINE = Path(__file__).parent.parent / "src" / "rollem" / "engine"


def test_engine_imports_no_game() -> None:
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            assert not any(n == "rollem.games" or n.startswith("rollem.games.")
                           for n in names), path.name


def test_engine_code_names_no_game() -> None:
    """No string in the engine's code (docstrings aside: they give examples) is a
    shipped game's id or name, and importing every engine module loads no game."""
    known = set(games.shipped_ids()) | {games.get(g).name for g in games.shipped_ids()}
    assert {"sdr", "holdem", "razz"} <= known
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                           ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        named = [(node.lineno, node.value) for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and id(node) not in docstrings and node.value in known]
        assert not named, f"{path.name} names a game: {named}"
    modules = sorted(f"rollem.engine.{p.stem}" for p in ENGINE.glob("*.py")
                     if p.stem != "__init__")
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "print(sorted(m for m in sys.modules if m.startswith('rollem.games')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_hand_takes_a_game_object_or_a_catalogued_id() -> None:
    hand = Hand(games.get("sdr"), [20, 20], source=SeededSource(3))
    assert hand.game.id == "sdr"
    with pytest.raises(KeyError, match="unknown game 'nosuch'"):
        Hand("nosuch", [20, 20])
