"""Guards for items of issue 26 that held with no test of their own
(docs/dev/issue26-checklist.md): each checked by taking the feature out of a copy of
the tree and seeing the test fail."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from rollem.engine import Hand, SeededSource
from rollem.server.game_session import GameSession, random_wire_action

STATIC = Path(__file__).parents[1] / "src" / "rollem" / "server" / "static"

ENGINE_WORDS = re.compile(
    r"\bround \d|\(basic\) round|\bchoose\b|\bdraw round\b|\bpool \d+ cards\b|\breturns? \d"
    r"|\bend\b|_")
"""The engine's words the hand log said before issue 26 ("Bot 2 (basic) round",
"choose", "pool 12 cards", "draw round", "end", "Dave return 1"), and any
snake_case event name."""


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521", "holdem", "omaha",
                                  "omaha8", "stud", "stud8", "razz", "draw5", "deuces-wild"])
def test_no_games_hand_log_says_the_engines_words(game: str) -> None:
    """Every shipped game, four players making random choices, two seeds: the hand
    log each viewer is sent (a player's, a watcher's) is in players' words at every
    state.  (tests/test_felt_words.py checks one hold'em hand's log line by line.)"""
    names = ["Ann", "Bob", "Cat", "Dave"]
    for seed in (1, 2):
        hand = Hand(game, [100] * 4, button=0, source=SeededSource(seed))
        session = GameSession(1, {"game": game, "seats": [0, 1, 2, 3]}, hand)
        rng = random.Random(seed)
        while True:
            for viewer in (None, 0):
                for line in json.loads(session.view_json(viewer, names))["log"]:
                    assert not ENGINE_WORDS.search(line["text"]), (game, seed, line)
            if session.over:
                break
            seat = session.pending_seats()[0]
            session.apply(seat, random_wire_action(session.view(seat)["legal"], rng))


def test_the_table_page_is_es_modules_loaded_with_no_build_step() -> None:
    """The table page loads one ES module, static/table/main.js, which imports the
    others (state and protocol, felt, decision dock, motion and sounds, panels) by
    path: nothing a bundler must resolve (a bare name such as ``"lodash"``), no
    script of a build's output, no monolithic table.js."""
    page = (STATIC / "table.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts == ['<script type="module" src="/static/table/main.js"></script>'[:-9]], scripts
    assert not (STATIC / "table.js").exists()
    modules = {p.name for p in (STATIC / "table").glob("*.js")}
    assert {"main.js", "state.js", "felt.js", "dock.js", "motion.js", "sounds.js",
            "panels.js", "keys.js"} <= modules, modules
    for path in (STATIC / "table").glob("*.js"):
        text = path.read_text(encoding="utf-8")
        specs = re.findall(r"""^(?:import\s*(?:[\w*{}\s,$]+from\s*)?|export\s*[{*][^;]*?from\s*)"""
                           r"""["']([^"']+)["']""", text, re.M)
        assert path.name != "main.js" or len(specs) >= 8, specs
        for target in specs:
            assert target.startswith(("./", "/static/")), (path.name, target)
            if target.startswith("./"):
                assert (STATIC / "table" / target[2:]).exists(), (path.name, target)
            else:
                assert (STATIC / target.removeprefix("/static/")).exists(), (path.name, target)
