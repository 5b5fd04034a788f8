"""The worked example of docs/write-your-own-game.md: the file on the page
is checked, loaded and played (issue 18)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from click.testing import CliRunner, Result

from rollem.bots.random_bot import random_action
from rollem.cli.answers import choices_text
from rollem.cli.app import app
from rollem.cli.screen import decision_title
from rollem.engine import Call, Hand, Options, SeededSource
from rollem.games.gamefile import load_game
from rollem.history import write_history
from rollem.narration import narrate_view

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
    # nothing draws from the discards: out of play, not "into a common pool" (issue 33)
    assert "7. All at once, each player discards 1 card face down (out of play)." \
        in out.output


def test_worked_example_with_a_declare_step_is_refused(tmp_path: Path) -> None:
    # a declare step before a high showdown: the declarations would settle nothing
    path = tmp_path / "crazy-declare.toml"
    path.write_text(example().replace('[[steps]]\nstep = "showdown"',
                                      '[[steps]]\nstep = "declare"\n\n[[steps]]\n'
                                      'step = "showdown"'))
    out = CliRunner().invoke(app, ["check-game", str(path)])
    assert out.exit_code == 2
    assert 'steps[13].step: a "declare" step needs the showdown\'s pot = "declare"' in out.stderr


def test_worked_example_says_one_card_out_of_play() -> None:
    # The discard of 1 card was told as Roll Your Own's 3 ("everyone puts 3 cards in
    # the pool") and as "puts 1 cards"; then as "puts 1 card in the pool... The pool
    # (3 cards) is shuffled" though nothing draws from it (issue 33).
    game = load_game(example())
    rng = random.Random(41)
    hand = Hand(game, [100] * 6, options=Options(ante=0), source=SeededSource(41))
    while hand.pending is not None and hand.pending.kind != "discard":
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    assert hand.pending is not None
    seat = hand.pending.seats[0]
    assert decision_title(hand.view(seat)) == "everyone discards 1 card face down"
    legal = hand.view(seat).legal
    assert legal is not None and "put 1 card away, out of play, from" in choices_text(legal)
    while hand.pending is not None and hand.pending.kind == "discard":
        s = hand.pending.seats[0]
        hand.apply(s, random_action(hand.legal_actions(s), rng))
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    told = [line.text for line in narrate_view(hand.view(seat), names)]
    others = [n for i, n in enumerate(names) if i != seat and not hand.folded[i]]
    assert others
    for name in others:
        assert f"{name} discards 1 card face down, out of play." in told
    mine = next(t for t in told if t.startswith("You discard "))
    assert mine.endswith(" face down, out of play."), mine
    assert not any("1 cards" in t or "pool" in t for t in told), told


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


def test_a_game_files_own_house_option_is_set_from_simulate_and_play(tmp_path: Path) -> None:
    """Issue 33: Crazy Pineapple's ``burn_cards`` could not be set from play or
    simulate, and house options that do not apply were accepted silently."""
    from rollem import games

    path = tmp_path / "crazy-pineapple.toml"
    path.write_text(example())
    runner = CliRunner()
    before = dict(games._GAMES)  # (--game-file registers the game in this process)
    try:
        _house_options(runner, path)
    finally:
        games._GAMES.clear()
        games._GAMES.update(before)


def _house_options(runner: CliRunner, path: Path) -> None:
    def sim(*flags: str) -> Result:
        return runner.invoke(app, ["simulate", "--game-file", str(path), "--players", "3",
                                   "--hands", "200", "--seed", "4", "--json", *flags])

    burnt, plain = sim(), sim("--house", "burn_cards=false")
    assert burnt.exit_code == 0 and plain.exit_code == 0, plain.output
    # The same seed: with no burns the board differs, so the results do too.
    assert json.loads(burnt.output)["seats"] != json.loads(plain.output)["seats"]
    bad = sim("--house", "burn_cards=sometimes")
    assert bad.exit_code == 2
    assert "burn_cards is a switch: give true or false" in bad.output
    bad = sim("--wild-duplicates")
    assert bad.exit_code == 2
    assert "--wild-duplicates: not a house option of crazy-pineapple (theirs: burn_cards)" \
        in bad.output
    out = runner.invoke(app, ["play", "sdr", "--natural-beats-wild"], input="q\n")
    assert out.exit_code == 2
    assert "--natural-beats-wild: not a house option of sdr (theirs: burn_before_roll)" \
        in out.output
    out = runner.invoke(app, ["simulate", "holdem", "--players", "2", "--hands", "1",
                              "--house", "oops"])
    assert out.exit_code == 2 and "expected NAME=VALUE" in out.output


def test_worked_example_replays_its_discards_out_of_play(tmp_path: Path) -> None:
    """A saved hand of the game file, whole and as a player's own copy, is told
    with the discards out of play and no pool shuffle (issue 33); and replaying
    the game file itself says it is a game file, not "got None"."""
    from rollem.history import write_own_copy
    from rollem.narration import narrate_history

    game = load_game(example())
    rng = random.Random(3)
    hand = Hand(game, [100] * 3, options=Options(ante=0), source=SeededSource(3))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        action = random_action(hand.legal_actions(seat), rng)
        if hand.pending.kind == "bet" and "call" in hand.legal_actions(seat).actions:
            action = Call()  # everyone stays in to the discard
        hand.apply(seat, action)
    names = ["Ann", "Bob", "Cy"]
    for text in (write_history(hand, players=names),
                 write_own_copy(hand, 0, players=names)):
        told = [line.text for line in narrate_history(text).lines]
        discards = [t for t in told if "discard" in t]
        assert len(discards) == 3, told
        assert all(t.endswith("face down, out of play.") for t in discards), discards
        assert not any("pool" in t for t in told), told
    path = tmp_path / "crazy-pineapple.toml"
    path.write_text(example())
    out = CliRunner().invoke(app, ["replay", str(path)])
    assert out.exit_code == 2
    assert out.stderr.strip().endswith(
        "this is a game file, not a hand history: play it with rollem play --game-file "
        "FILE (rollem check-game FILE checks it)")


def test_worked_example_names_its_betting_rounds() -> None:
    """The page's own example is what a newcomer copies first: its rounds were
    told as "Round 1 (pot 3)." .. "Round 4" while every hold'em player (and the
    shipped holdem.toml) says preflop, flop, turn and river (stop 57's try-out)."""
    game = load_game(example())
    assert [s.params.get("label") for s in game.spec.steps if s.kind == "bet"] == [
        "preflop", "flop", "turn", "river"]
    hand = Hand(game, [100, 100], button=0, source=SeededSource(5))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        if "call" in legal.actions:
            hand.apply(seat, Call())
        else:
            hand.apply(seat, random_action(legal, random.Random(0)))
    lines = [ln.text for ln in narrate_view(hand.view(0), ["You", "Ann"])]
    assert "Preflop (pot 3)." in lines
    assert not [ln for ln in lines if ln.startswith("Round ")]
