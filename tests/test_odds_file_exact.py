"""Exact odds in the games from game files where the deals left are few
(rollem.odds.fileexact; issue 33, branch s71-exact).

``rollem odds --history`` of a heads-up hold'em hand at the river sampled
20,000 worlds where the opponent's C(45, 2) = 990 hands could be counted; play
sampled batches with an interval. Checked here: the counts against independent
enumerations (phevaluator and treys for hold'em, the scalar model's own Python
evaluators for stud hi-lo and razz), that ``rollem odds`` and play say "exact",
and that a case too large to count (hold'em on the flop) is still sampled with
its interval."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from rollem.cards import parse_cards
from rollem.cli.app import app
from rollem.engine import Call, Check, Hand, Options, SeededSource
from rollem.games import get
from rollem.history import write_history
from rollem.odds.display import odds_lines, play_lines
from rollem.odds.fileexact import (
    EXACT_WORK,
    FILE_EXACT_LIMIT,
    _scorer,
    combination_rows,
    deal_index,
    exact_work,
    fits,
)
from rollem.odds.filegame import _scorer as scalar_scorer
from rollem.odds.filegame import file_game_odds
from rollem.odds.history import history_odds
from rollem.odds.holeboard import NO_LOW
from rollem.odds.play import play_odds
from rollem.odds.view import view_equity
from test_gamefile_odds import info as _info


def _holdem_to(street_cards: int, seed: int = 21) -> Hand:
    """A heads-up hold'em hand played by calls and checks until the board has
    ``street_cards`` cards and a player is to act."""
    hand = Hand("holdem", [200, 200], button=0, source=SeededSource(seed))
    while len(hand.board) < street_cards:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        legal = hand.legal_actions(seat)
        hand.apply(seat, Call() if "call" in legal.actions else Check())
    assert hand.pending is not None and not hand.is_over
    return hand


def _phevaluator_equity(hole: list[int], board: list[int]) -> tuple[float, int, int, int]:
    """Heads-up hold'em at the river by phevaluator (its card ids are ours:
    test_hands_exhaustive): every two-card hand of the unseen cards, equally
    likely; ``(equity, wins, ties, hands)``."""
    from phevaluator import evaluate_cards

    mine = evaluate_cards(*board, *hole)  # lower is better
    rest = [c for c in range(52) if c not in hole and c not in board]
    wins = ties = n = 0
    for a, b in combinations(rest, 2):
        theirs = evaluate_cards(*board, a, b)
        wins += mine < theirs
        ties += mine == theirs
        n += 1
    return (wins + ties / 2) / n, wins, ties, n


def test_holdem_river_heads_up_counts_the_990_hands_as_phevaluator_does() -> None:
    hand = _holdem_to(5)
    seat = hand.pending.seats[0]  # type: ignore[union-attr]
    hole = [int(c) for c in hand.hole[seat]]
    board = [int(c) for c in hand.board]
    equity, wins, ties, n = _phevaluator_equity(hole, board)
    assert n == comb(45, 2) == 990
    odds, _ = history_odds(write_history(hand), seat, samples=20_000, seed=1)
    assert odds.method == "exact" and odds.samples == 990 and odds.stderr == 0.0
    assert odds.equity == pytest.approx(equity, abs=1e-12)
    assert odds.win == pytest.approx(wins / n, abs=1e-12)
    assert odds.tie == pytest.approx(ties / n, abs=1e-12)
    assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)


def test_holdem_cases_against_treys() -> None:
    """A pair of queens at the river heads-up, and the turn (46 rivers x 990)."""
    from treys import Card as TreysCard
    from treys import Evaluator

    ev = Evaluator()
    t = [TreysCard.new(str(c)) for c in parse_cards(
        " ".join(f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"))]
    mine = [int(c) for c in parse_cards("Qs Jd")]
    for board_text in ("Qh 9c 5d 2s Td", "Qh 9c 5d 2s"):
        board = [int(c) for c in parse_cards(board_text)]
        rest = [c for c in range(52) if c not in mine + board]
        total = 0.0
        n = 0
        for river in ([()] if len(board) == 5 else [(c,) for c in rest]):
            full = board + list(river)
            me = ev.evaluate([t[c] for c in mine], [t[c] for c in full])
            left = [c for c in rest if c not in river]
            for a, b in combinations(left, 2):
                them = ev.evaluate([t[a], t[b]], [t[c] for c in full])  # lower is better
                total += 1.0 if me < them else 0.5 if me == them else 0.0
                n += 1
        odds = file_game_odds(_info("holdem", "Qs Jd", [("", 2)], board_text), get("holdem"),
                              exact_limit=FILE_EXACT_LIMIT)
        assert odds.method == "exact" and odds.samples == n
        assert odds.equity == pytest.approx(total / n, abs=1e-12)


def _scalar_exact(game: str, mine: str, up: str, hidden: int) -> tuple[float, float, float, int]:
    """Stud-type games at seventh street heads-up, by the scalar model's own
    Python scoring (rollem.odds.filegame._scorer): every set of the opponent's
    ``hidden`` cards among the unseen."""
    spec = get(game).spec
    assert spec is not None
    score = scalar_scorer(spec, [], Options())
    pot = spec.steps[-1].params["pot"]
    me = [int(c) for c in parse_cards(mine)]
    shown = [int(c) for c in parse_cards(up)]
    rest = [c for c in range(52) if c not in me + shown]
    my_high, my_low = score(me, [])
    total = wins = ties = 0.0
    n = 0
    for extra in combinations(rest, hidden):
        their_high, their_low = score(shown + list(extra), [])

        def half(a: int | None, b: int | None) -> float:
            if a is None:
                return 0.0
            return 1.0 if b is None or a > b else 0.5 if a == b else 0.0

        if pot == "low":
            share = half(my_low, their_low)
        elif my_low is None and their_low is None:
            share = half(my_high, their_high)
        else:
            share = 0.5 * half(my_high, their_high) + 0.5 * half(my_low, their_low)
        total += share
        wins += share >= 1.0
        ties += 0.0 < share < 1.0
        n += 1
    return total / n, wins / n, ties / n, n


@pytest.mark.parametrize(("game", "mine", "up"), [
    ("stud8", "As 2d 3h 9c 9s Kd 7h", "4c 5d Qh Jh"),
    ("razz", "As 2d 3h Kc Ks 8d 7h", "4c 5d 6h Jh"),
    ("stud", "As Ad 3h 9c 9s Kd 7h", "Qc Qd 5h Jh"),
])
def test_stud_seventh_street_against_the_scalar_model(game: str, mine: str, up: str) -> None:
    equity, win, tie, n = _scalar_exact(game, mine, up, 3)
    assert n == comb(41, 3)
    odds = file_game_odds(_info(game, mine, [(up, 3)]), get(game),
                          exact_limit=FILE_EXACT_LIMIT)
    assert (odds.method, odds.samples) == ("exact", n)
    assert odds.equity == pytest.approx(equity, abs=1e-12)
    assert odds.win == pytest.approx(win, abs=1e-12)
    assert odds.tie == pytest.approx(tie, abs=1e-12)


@pytest.mark.parametrize("game", ["holdem", "omaha", "omaha8", "stud", "stud8", "razz",
                                  "draw5", "deuces-wild"])
def test_batch_scores_equal_the_scalar_models(game: str) -> None:
    """Every standard game's batch scoring orders hands as the scalar model does
    (equal lows, NO_LOW for none; highs in the same order)."""
    spec = get(game).spec
    assert spec is not None
    wild = [0] if game == "deuces-wild" else []
    batch = _scorer(spec, wild, Options())
    scalar = scalar_scorer(spec, wild, Options())
    own_n = {"holdem": 2, "omaha": 4, "omaha8": 4}.get(game, 7 if "stud" in game or
                                                          game == "razz" else 5)
    board_n = 5 if game in ("holdem", "omaha", "omaha8") else 0
    rng = np.random.default_rng(5)
    deals = np.stack([rng.permutation(52)[:own_n + board_n] for _ in range(400)])
    highs, lows = batch(deals[:, :own_n], deals[:, own_n:])
    want = [scalar(list(d[:own_n]), list(d[own_n:])) for d in deals.tolist()]
    if spec.steps[-1].params["pot"] != "low":
        order = np.argsort(highs, kind="stable")
        theirs = [want[i][0] for i in order]
        assert theirs == sorted(theirs)  # the same order
        assert len(set(highs.tolist())) == len({w[0] for w in want})
    if lows is not None:
        assert [NO_LOW if w[1] is None else w[1] for w in want] == lows.tolist()


def test_rollem_odds_history_says_exact_at_the_river(tmp_path: Path) -> None:
    hand = _holdem_to(5)
    seat = hand.pending.seats[0]  # type: ignore[union-attr]
    path = tmp_path / "h.toml"
    path.write_text(write_history(hand))
    out = CliRunner().invoke(app, ["odds", "--history", str(path), "--seat", str(seat)])
    assert out.exit_code == 0, out.output
    assert "exact: 990 outcomes enumerated" in out.output
    assert "Monte Carlo" not in out.output
    out = CliRunner().invoke(app, ["odds", "--history", str(path), "--seat", str(seat),
                                   "--json"])
    data = json.loads(out.stdout)
    assert (data["method"], data["samples"], data["stderr"]) == ("exact", 990, 0.0)


def test_play_odds_at_the_river_are_exact_and_say_so() -> None:
    hand = _holdem_to(5)
    seat = hand.pending.seats[0]  # type: ignore[union-attr]
    odds = play_odds(hand.view(seat), seed=1)
    assert (odds.method, odds.samples, odds.interval) == ("exact", 990, 0.0)
    text = " ".join(play_lines(odds))
    assert "exact (every outcome counted)" in text and "95% interval" not in text


def test_holdem_flop_heads_up_is_too_many_and_still_sampled() -> None:
    """1,081 turn-and-river pairs x 990 hands of 21 fives: past the work bound."""
    hand = _holdem_to(3)
    seat = hand.pending.seats[0]  # type: ignore[union-attr]
    spec = get("holdem").spec
    assert spec is not None
    players = [([0, 1], 0), ([], 2)]
    assert exact_work(spec, players, 3, 2, 47) > EXACT_WORK
    assert not fits(spec, players, 3, 2, 47, FILE_EXACT_LIMIT)
    odds, _ = history_odds(write_history(hand), seat, samples=4000, seed=2)
    assert odds.method == "monte-carlo" and odds.samples == 4000 and odds.stderr > 0
    assert "Monte Carlo: 4,000 samples" in " ".join(odds_lines(odds))
    shown = play_odds(hand.view(seat), seed=3, max_batches=2)
    assert shown.method == "monte-carlo" and shown.interval is not None
    assert shown.interval > 0.0
    assert "(95% interval, Monte Carlo)" in " ".join(play_lines(shown))


def test_the_computer_players_default_stays_sampled() -> None:
    """view_equity's default (the bots' few milliseconds) samples a game file
    even where the deals are few; asked for (exact_limit) it counts."""
    hand = _holdem_to(5)
    view = hand.view(hand.pending.seats[0])  # type: ignore[union-attr]
    assert view_equity(view, samples=200, seed=1).method == "monte-carlo"
    counted = view_equity(view, samples=200, seed=1, exact_limit=FILE_EXACT_LIMIT)
    assert (counted.method, counted.samples) == ("exact", 990)


def test_five_card_draw_heads_up_counts_every_opponent_hand() -> None:
    view = _info("draw5", "As Ad 3h 4c 8s", [("", 5)])
    odds = file_game_odds(view, get("draw5"), exact_limit=FILE_EXACT_LIMIT)
    assert (odds.method, odds.samples) == ("exact", comb(47, 5))
    sampled = file_game_odds(view, get("draw5"), samples=20_000, seed=4)
    assert abs(sampled.equity - odds.equity) < 4 * sampled.stderr


def test_combination_rows_and_deal_index_list_every_deal_once() -> None:
    for n, k in [(10, 3), (12, 0), (7, 7), (3, 4), (20, 5)]:
        got = [tuple(r) for r in combination_rows(n, k).tolist()]
        assert sorted(got) == list(combinations(range(n), k))  # each once
    idx = deal_index(9, (2, 3))
    deals = {(tuple(combination_rows(9, 2)[a]), tuple(combination_rows(9, 3)[b]))
             for a, b in idx.tolist()}
    assert len(deals) == len(idx) == comb(9, 2) * comb(7, 3)
    assert all(not set(a) & set(b) for a, b in deals)


def test_three_handed_river_counts_every_pair_of_hands() -> None:
    """Hold'em at the river, two unknown hands: C(45, 2) x C(43, 2) deals, and the
    equity is the two-hand enumeration's by another route (each pair's value
    once, then every disjoint pair of pairs)."""
    from phevaluator import evaluate_cards

    mine, board = [int(c) for c in parse_cards("Qs Jd")], \
        [int(c) for c in parse_cards("Qh 9c 5d 2s Td")]
    rest = [c for c in range(52) if c not in mine + board]
    me = evaluate_cards(*board, *mine)
    pairs = list(combinations(range(len(rest)), 2))
    val = np.array([evaluate_cards(*board, rest[a], rest[b]) for a, b in pairs])
    bits = np.array([(1 << a) | (1 << b) for a, b in pairs], dtype=np.int64)
    ok = (bits[:, None] & bits[None, :]) == 0  # ordered pairs of disjoint hands
    best = np.minimum(val[:, None], val[None, :])
    ties = 1 + (val[:, None] == me).astype(int) + (val[None, :] == me).astype(int)
    share = np.where(me <= best, 1.0 / ties, 0.0)
    equity = float(share[ok].sum() / ok.sum())
    odds = file_game_odds(_info("holdem", "Qs Jd", [("", 2), ("", 2)], "Qh 9c 5d 2s Td"),
                          get("holdem"), exact_limit=FILE_EXACT_LIMIT)
    assert (odds.method, odds.samples) == ("exact", int(ok.sum()))
    assert odds.equity == pytest.approx(equity, abs=1e-12)
