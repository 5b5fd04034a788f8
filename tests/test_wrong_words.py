"""Wrong or unclear words found at the table (issue 26), each fixed where it is said."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rollem.bots.random_bot import random_action
from rollem.cards import parse_card
from rollem.engine import Hand, SeededSource

STATIC = Path(__file__).parents[1] / "src" / "rollem" / "server" / "static"


def test_a_draw_decision_is_never_called_a_draw_from_the_pool() -> None:
    """A ``draw`` decision is a draw from the stub (5-2-1, draw poker): new cards are
    dealt. Roll Your Own's draws from the pool are no decision (nothing to choose), so
    the table never asks anyone to "draw from the pool" or "replace from the pool"."""
    for seed in range(5):
        hand = Hand("rollyourown", [100] * 4, button=0, source=SeededSource(seed))
        rng = random.Random(seed)
        while not hand.is_over:
            assert hand.pending is not None and hand.pending.kind != "draw"
            seat = hand.pending.seats[0]
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    for path in STATIC.rglob("*.js"):   # the table's modules too (static/table/)
        text = path.read_text(encoding="utf-8")
        for wrong in ("draw from the pool", "replace from the pool", "replaced from the pool"):
            assert wrong not in text, (path.name, wrong)


@pytest.mark.parametrize("game", ["rollem521", "draw5"])
def test_the_draw_help_says_new_cards_are_dealt(game: str) -> None:
    from rollem import games
    from rollem.rules.game_help import explain_decision

    text = explain_decision(games.get(game), "draw", None, "fixed-limit")
    assert "pool" not in text and "dealt" in text


def test_the_advice_is_phrased_as_the_buttons_ask_in_plain_words() -> None:
    """Roll Your Own's discard advice names the three cards to throw into the pool
    (the button asks which to throw; it said "keep ..."), and the method in plain
    words: no "fast policy", no "worlds"."""
    from rollem.engine import actions as A
    from rollem.odds import view_equity
    from rollem.odds.display import advice_lines

    hand = Hand("rollyourown", [100] * 3, button=0, source=SeededSource(3))
    assert hand.pending is not None and hand.pending.kind == "discard"
    odds = view_equity(hand.view(1), samples=300, seed=1, advice=True)
    assert odds.advice is not None
    held = [str(c) for c in hand.view(1).my_cards]
    for choice in odds.advice.choices:
        thrown = choice.action.removeprefix("throw ").split()
        assert choice.action.startswith("throw ") and len(thrown) == 3
        assert set(thrown) <= set(held) and thrown == choice.cards
    lines = advice_lines(odds.advice)
    assert lines[0] == ("Advice, cards to throw into the pool (the 10 best of 20 options, each "
                        "played out in 300 random deals; every later choice made by rule of "
                        "thumb; ± is one standard error):")
    text = "\n".join(lines)
    for jargon in ("policy", "worlds", "keep "):
        assert jargon not in text, jargon
    # the throw the advice names is one the table takes as it is
    best = odds.advice.choices[0]
    hand.apply(1, A.Discard(tuple(parse_card(c) for c in best.cards)))


def test_a_downloaded_history_lists_only_the_players_dealt_in(tmp_path: Path) -> None:
    """The web table's download named each empty seat as a player ("seat 1"); a seat
    not dealt in is written ``""`` and the copy still replays with the players' names."""
    import tomllib

    from click.testing import CliRunner

    from rollem.cli.app import app
    from rollem.server.config import parse_config
    from rollem.server.game_session import GameSession, random_wire_action

    config = parse_config({"game": "sdr", "seats": 6, "stack": 200})
    names = ["Ann", "seat 1", "Cy", "seat 3", "Di", "seat 5"]  # as the live table names them
    session = GameSession.new(1, "sdr", config, [0, 2, 4], dict.fromkeys((0, 2, 4), 200), 0,
                              names=names)
    rng = random.Random(1)
    while not session.over:
        seat = session.pending_seats()[0]
        session.apply(seat, random_wire_action(session.view(seat)["legal"], rng))
    text = session.history_text(2, session.player_names([]))
    assert tomllib.loads(text)["players"] == ["Ann", "", "Cy", "", "Di", ""]
    path = tmp_path / "hand.toml"
    path.write_text(text, encoding="utf-8")
    told = CliRunner().invoke(app, ["replay", str(path)])
    assert told.exit_code == 0, told.output
    first = told.output.splitlines()[0]
    assert first.startswith("Stop, Drop and Roll: Ann (") and "seat 1" not in told.output
