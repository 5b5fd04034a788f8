"""Odds for the games from game files, by Monte Carlo from a seat's view
(rollem.odds.filegame, issue 18): hand-computed cases, a differential check
against full enumeration, and ``rollem odds --history`` on a standard game and
on a user's game."""

from __future__ import annotations

import json
import random
import re
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from rollem.bots.random_bot import random_action
from rollem.cards import parse_cards
from rollem.cli.app import app
from rollem.engine import Hand, Options, SeededSource
from rollem.games import get
from rollem.games.gamefile import load_game
from rollem.hands import high_value
from rollem.history import write_history
from rollem.odds import OddsError, view_equity
from rollem.odds.filegame import file_game_odds, final_counts
from rollem.odds.view import SeatInfo, ViewInfo

PAGE = Path(__file__).parent.parent / "docs" / "write-your-own-game.md"


def info(game: str, mine: str, opponents: list[tuple[str, int]], board: str = "",
         wild: tuple[int, ...] = ()) -> ViewInfo:
    """A seat's view as the calculators read it: ``opponents`` (up cards, hidden count)."""
    return ViewInfo(
        game=game, seat=0, mine=[int(c) for c in parse_cards(mine)], my_up=[],
        board=[int(c) for c in parse_cards(board)] if board else [], dead=[], my_pool=[],
        wild_ranks=list(wild), pool=0, stub=0,
        opponents=[SeatInfo(i + 1, [int(c) for c in parse_cards(up)] if up else [], hidden,
                            None) for i, (up, hidden) in enumerate(opponents)],
        options={}, events=[], round="", pending=None, seen_out=[], my_discards=[],
        reshuffled=False, declared={}, folded_dealt=0, to_act=[])


def test_final_counts_read_the_steps() -> None:
    opts = Options()
    assert final_counts(get("holdem").spec, opts) == (2, 5)
    assert final_counts(get("omaha8").spec, opts) == (4, 5)
    assert final_counts(get("stud8").spec, opts) == (7, 0)
    assert final_counts(get("draw5").spec, opts) == (5, 0)


def test_hand_computed_cases() -> None:
    # Razz, seventh street: a wheel cannot lose; the opponent's 6-7-8-9 up and three
    # down cannot make a wheel (it needs five cards five or lower).
    odds = file_game_odds(info("razz", "As 2d 3h 4c 5s Kd Kh", [("6c 7c 8c 9c", 3)]),
                          get("razz"), samples=300, seed=1)
    assert (odds.equity, odds.win, odds.tie) == (1.0, 1.0, 0.0)
    # Stud hi-lo: four queens showing take the high half every time; the wheel takes
    # the low half (three unknown cards cannot make a qualifying low): exactly half.
    odds = file_game_odds(info("stud8", "As 2d 3h 4c 5s 9d 9h", [("Qc Qd Qh Qs", 3)]),
                          get("stud8"), samples=300, seed=2)
    assert (odds.equity, odds.win, odds.tie, odds.lose) == (0.5, 0.0, 1.0, 0.0)
    # Stud high, same cards: the queens win it all.
    odds = file_game_odds(info("stud", "As 2d 3h 4c 5s 9d 9h", [("Qc Qd Qh Qs", 3)]),
                          get("stud"), samples=300, seed=2)
    assert odds.equity == 0.0 and odds.lose == 1.0
    # Deuces wild: four deuces and an ace are five aces, the best hand there is.
    odds = file_game_odds(info("deuces-wild", "2c 2d 2h 2s As", [("", 5)], wild=(0,)),
                          get("deuces-wild"), samples=300, seed=3)
    assert odds.equity == 1.0
    # Everything known: no sampling, the answer is exact.
    odds = file_game_odds(info("holdem", "As Ah", [], board="Kd 7c 2s 9h 3d"), get("holdem"))
    assert odds.method == "exact" and odds.equity == 1.0


def test_holdem_river_matches_full_enumeration() -> None:
    mine, board = "Qs Jd", "Qh 9c 5d 2s Td"
    view = info("holdem", mine, [("", 2)], board=board)
    me = [int(c) for c in parse_cards(mine + " " + board)]
    rest = [c for c in range(52) if c not in me]
    b = [int(c) for c in parse_cards(board)]
    mine_v = high_value(me)
    shares = [1.0 if mine_v > (v := high_value([*opp, *b])) else 0.5 if mine_v == v else 0.0
              for opp in combinations(rest, 2)]
    exact = sum(shares) / len(shares)
    odds = file_game_odds(view, get("holdem"), samples=6000, seed=4)
    assert odds.method == "monte-carlo" and odds.samples == 6000
    assert abs(odds.equity - exact) < 4 * odds.stderr + 1e-9
    assert 0.55 < exact < 0.9  # a pair of queens on this board: well ahead, not safe


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # Four spades in hand and none on the board but three: Omaha's two-plus-three
    # makes the flush; hold'em-style best five would too. A board of four hearts and
    # one heart in hand: hold'em would have a flush, Omaha (exactly two) does not.
    spec_odds = file_game_odds(
        info("omaha", "Ah 2c 3d 4s", [("", 4)], board="Kh Qh Jh Th 9c"), get("omaha"),
        samples=400, seed=5)
    holdem_like = file_game_odds(
        info("holdem", "Ah 2c", [("", 2)], board="Kh Qh Jh Th 9c"), get("holdem"),
        samples=400, seed=5)
    assert holdem_like.equity == 1.0  # a royal flush
    assert spec_odds.equity < 0.9  # only the ace-high straight: opponents' flushes beat it


def test_a_declare_game_has_no_plain_model() -> None:
    text = get("rollem521").source
    game = load_game(text.replace('id = "rollem521"', 'id = "my521"'))
    with pytest.raises(OddsError, match="declare showdown"):
        file_game_odds(info("my521", "As 2d 3h 4c 5s", [("", 5)]), game, samples=10)


def test_view_equity_answers_for_every_standard_game() -> None:
    for gid in ("holdem", "omaha", "omaha8", "stud", "stud8", "razz", "draw5", "deuces-wild"):
        hand = Hand(gid, [100, 100, 100], button=0, source=SeededSource(11))
        seat = hand.pending.seats[0] if hand.pending else 0
        odds = view_equity(hand.view(seat), samples=200, seed=6)
        assert odds.game == gid and odds.samples == 200
        assert 0.0 <= odds.equity <= 1.0 and abs(odds.win + odds.tie + odds.lose - 1) < 1e-9


def _user_history(tmp_path: Path) -> Path:
    text = re.findall(r"```toml\n(.*?)```", PAGE.read_text(), flags=re.S)[0]
    hand = Hand(load_game(text), [100, 100, 100], button=0, source=SeededSource(8))
    rng = random.Random(8)
    for _ in range(4):  # a few actions in: still before the showdown
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    path = tmp_path / "mine.toml"
    path.write_text(write_history(hand))
    return path


def test_rollem_odds_from_a_history_of_a_standard_and_a_user_game(tmp_path: Path) -> None:
    hand = Hand("omaha8", [100, 100], button=0, source=SeededSource(9))
    path = tmp_path / "o8.toml"
    path.write_text(write_history(hand))
    out = CliRunner().invoke(app, ["odds", "--history", str(path), "--seat", "0",
                                   "--samples", "300", "--seed", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["game"] == "omaha8" and data["method"] == "monte-carlo"
    out = CliRunner().invoke(app, ["odds", "--history", str(_user_history(tmp_path)),
                                   "--seat", "1", "--samples", "300", "--seed", "1", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["game"] == "crazy-pineapple"


def test_the_basic_bot_reads_odds_from_a_game_file_the_registry_lacks() -> None:
    """A web table's own game is not in the registry: the bot is handed the game
    (``bot_decide(view, bot, game)``) and plays by real odds, not blind."""
    from rollem.bots.basic import BasicBot
    from rollem.server.game_session import bot_decide, new_bot

    text = re.findall(r"```toml\n(.*?)```", PAGE.read_text(), flags=re.S)[0]
    game = load_game(text.replace('id = "crazy-pineapple"', 'id = "not-registered"'))
    hand = Hand(game, [100, 100, 100], button=0, source=SeededSource(3))
    assert hand.pending is not None
    view = hand.view(hand.pending.seats[0])
    blind = BasicBot(random.Random(1), samples=50)
    assert blind._odds(view) is None  # by id alone there is no game to read
    seeing = BasicBot(random.Random(1), samples=50)
    seeing.game = game
    odds = seeing._odds(view)
    assert odds is not None and odds.game == "not-registered" and 0.0 < odds.equity < 1.0
    assert bot_decide(view, new_bot("basic"), game)["kind"] in view.legal.actions  # type: ignore[union-attr]
