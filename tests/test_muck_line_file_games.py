"""Game-file games tell your losing mucked hand as the shipped games do ("You muck
X: it loses to Y"; the tester's report: a plain hold'em file and the Crazy
Pineapple example of docs/write-your-own-game.md never printed it). The engine's
words for a mucked hand go to its own seat only."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path

from rollem.bots import make_bot
from rollem.engine import Hand, SeededSource
from rollem.engine.game import Game
from rollem.games.gamefile import load_game
from rollem.narration import narrate_view, result_for_view

PAGE = Path(__file__).parent.parent / "docs" / "write-your-own-game.md"
NAMES = ["You", "Ann", "Bob"]


def _played(game: str | Game, seed: int) -> Hand:
    """A 3-handed hand of basic bots, Bob on the button."""
    hand = Hand(game, [100] * 3, button=2, source=SeededSource(seed))
    bots = [make_bot("basic", random.Random(seed * 10 + s)) for s in range(3)]
    while not hand.is_over:
        s = hand.pending.seats[0]  # type: ignore[union-attr]
        hand.apply(s, bots[s].act(hand.view(s)))
    return hand


def _holdem_file() -> Game:
    text = resources.files("rollem.games").joinpath("files", "holdem.toml").read_text("utf-8")
    return load_game(text.replace('id = "holdem"', 'id = "my-holdem"'))


def test_a_holdem_file_tells_your_muck_as_shipped_holdem_does() -> None:
    # (the basic bot plays a file game by its data, so the seeds differ)
    shipped = [x.text for x in result_for_view(_played("holdem", 0).view(0), NAMES)]
    assert ("You muck pair of twos, ace-queen-jack: it loses to Ann's two pair, jacks and "
            "twos, ace kicker.") in shipped
    mine = [x.text for x in result_for_view(_played(_holdem_file(), 20).view(0), NAMES)]
    assert ("You muck ace high, jack-ten-nine-six: it loses to Ann's pair of sixes, "
            "ace-jack-ten.") in mine


def test_crazy_pineapple_example_tells_your_muck_only_to_you() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.S)
    hand = _played(load_game(blocks[0]), 14)
    line = ("You muck pair of sevens, ace-queen-eight: it loses to Ann's pair of queens, "
            "ace-king-eight.")
    assert line in [x.text for x in result_for_view(hand.view(0), NAMES)]
    assert line in [x.text for x in narrate_view(hand.view(0), NAMES)]  # `last`
    # the words of your mucked hand are yours: not in anyone else's view
    mucks = [e for e in hand.view(1).to_dict()["events"] if e["kind"] == "muck"]
    assert mucks == [{"kind": "muck", "seat": 0}]
    assert [e for e in hand.view(None).to_dict()["events"] if e["kind"] == "muck"] == mucks
    assert not any("pair of sevens" in x.text for x in result_for_view(hand.view(1), NAMES))


def test_a_declare_file_game_tells_your_muck_for_your_side() -> None:
    # 5-2-1 as a game file: you declared high; only the high winner beat you
    text = resources.files("rollem.games").joinpath("files", "rollem521.toml").read_text("utf-8")
    game = load_game(text.replace('id = "rollem521"', 'id = "my-521"'))
    hand = Hand(game, [100] * 4, button=3, source=SeededSource(3))
    bots = [make_bot("basic", random.Random(30 + s)) for s in range(4)]
    while not hand.is_over:
        s = hand.pending.seats[0]  # type: ignore[union-attr]
        hand.apply(s, bots[s].act(hand.view(s)))
    names = [*NAMES, "Cat"]
    told = [x.text for x in result_for_view(hand.view(0), names)]
    assert {"kind": "declare", "seat": 0, "side": "high"} in hand.view(0).to_dict()["events"]
    assert "Low: Cat wins 18 with paired low (pair of sevens, six-three-ace)." in told
    assert ("You muck queen high, jack-nine-eight-three: it loses to Bob's two pair, tens "
            "and twos, queen kicker.") in told
    assert {"kind": "muck", "seat": 0} in hand.view(1).to_dict()["events"]
