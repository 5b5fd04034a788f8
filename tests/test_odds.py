"""Odds (issue 8): exact results against plain brute force written here,
seeded Monte Carlo within 3 standard errors of exact answers, views only."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from rollem.cards import parse_cards
from rollem.cli.app import app
from rollem.engine import (
    Call,
    Check,
    Declare,
    Discard,
    Draw,
    Expose,
    Hand,
    Options,
    PickWild,
    ReplaySource,
    SeededSource,
    Stack,
)
from rollem.engine.declare import settle_pot
from rollem.hands import high_value, low_value, wild_value
from rollem.odds import Odds, OddsError, r521_odds, ryo_odds, sdr_odds, view_equity
from rollem.odds.history import history_odds
from rollem.odds.r521 import SIDES, declare_model

HISTORIES = Path(__file__).parent / "histories"


def c(text: str) -> list[int]:
    return [int(x) for x in parse_cards(text)]


def rest(*used: list[int]) -> list[int]:
    taken = {x for u in used for x in u}
    return [x for x in range(52) if x not in taken]


def tally(shares: list[float]) -> tuple[float, float, float, float]:
    n = len(shares)
    return (sum(s == 1 for s in shares) / n, sum(0 < s < 1 for s in shares) / n,
            sum(s == 0 for s in shares) / n, sum(shares) / n)


def share_of(me: int, others: list[int]) -> float:
    best = max([me, *others])
    if me < best:
        return 0.0
    return 1.0 / (1 + sum(o == me for o in others))


def assert_same(odds: Odds, expected: tuple[float, float, float, float]) -> None:
    got = (odds.win, odds.tie, odds.lose, odds.equity)
    assert got == pytest.approx(expected, abs=1e-12)


def brute_sdr(hole: list[int], dead: list[int], board: list[int], vs: list[list[int]],
              unknown: int) -> tuple[float, float, float, float]:
    """Every Roll, every unknown hand (at most one), plainly."""
    free = rest(hole, dead, board, *vs)
    shares = []
    for roll in combinations(free, 3 - len(board)):
        full = board + list(roll)
        known = [high_value(v + full) for v in vs]
        me = high_value(hole + full)
        if unknown == 0:
            shares.append(share_of(me, known))
            continue
        for opp in combinations([x for x in free if x not in roll], 2):
            shares.append(share_of(me, [*known, high_value(list(opp) + full)]))
    return tally(shares)


# ----------------------------------------------------------------- Stop, Drop and Roll


def test_sdr_worked_example_r_sdr_8() -> None:
    odds = sdr_odds("Qs Qd", dead="Qh 7c", board="Kc 7d 2s", vs=["As Kd"])
    assert (odds.win, odds.lose, odds.method, odds.samples) == (0.0, 1.0, "exact", 1)


def test_sdr_dead_card_changes_the_answer() -> None:
    # Qs Qd against As Kd with the Roll's Kc 7d known: only a queen saves the
    # queens. With the Qh dead there is one queen left; with the 2c dead, two.
    hole, vs, board = c("Qs Qd"), [c("As Kd")], c("Kc 7d")
    with_qh = sdr_odds(hole, dead=c("Qh 7c"), board=board, vs=vs)
    with_2c = sdr_odds(hole, dead=c("2c 7c"), board=board, vs=vs)
    assert_same(with_qh, brute_sdr(hole, c("Qh 7c"), board, vs, 0))
    assert_same(with_2c, brute_sdr(hole, c("2c 7c"), board, vs, 0))
    assert with_qh.win == pytest.approx(1 / 44)  # the Qc of 44 unseen cards
    assert with_2c.win == pytest.approx(2 / 44)  # Qh or Qc


@pytest.mark.parametrize(("hole", "dead", "board", "vs"), [
    ("As Kd", "Qh 7c", "Kc 7d", []),
    ("9h 8h", "2h 3c", "Th Jh", ["Ad Ac"]),
    ("5c 5d", "", "5h 6s", []),
])
def test_sdr_exact_one_unknown_hand_equals_brute_force(
        hole: str, dead: str, board: str, vs: list[str]) -> None:
    odds = sdr_odds(hole, dead=dead, board=board, vs=vs, opponents=1)
    assert odds.method == "exact"
    assert_same(odds, brute_sdr(c(hole), c(dead), c(board), [c(v) for v in vs], 1))


def test_sdr_exact_given_hands_with_splits_equals_brute_force() -> None:
    hole, vs = c("As Kd"), [c("Ac Kh"), c("7s 7d")]
    odds = sdr_odds(hole, dead=c("Qh"), board=c("2s"), vs=vs)
    expected = brute_sdr(hole, c("Qh"), c("2s"), vs, 0)
    assert_same(odds, expected)
    assert odds.tie > 0.1  # As Kd and Ac Kh split whenever the sevens lose


def test_sdr_exact_two_unknown_hands_after_the_roll_equals_brute_force() -> None:
    hole, dead, board = c("Qs Qd"), c("Qh 7c"), c("Kc 7d 2s")
    odds = sdr_odds(hole, dead=dead, board=board, opponents=2)
    free = rest(hole, dead, board)
    value = {p: high_value(list(p) + board) for p in combinations(free, 2)}
    me = high_value(hole + board)
    shares = [share_of(me, [v1, v2]) for p1, v1 in value.items() for p2, v2 in value.items()
              if not set(p1) & set(p2)]
    assert odds.method == "exact" and odds.samples == len(shares) == 990 * 903
    assert_same(odds, tally(shares))


def test_sdr_monte_carlo_within_three_standard_errors_of_exact() -> None:
    exact = sdr_odds("Qs Qd", dead="Qh 7c", opponents=1)
    assert exact.method == "exact" and exact.samples == 1128 * 15180
    mc = sdr_odds("Qs Qd", dead="Qh 7c", opponents=1, exact_limit=0, samples=20_000, seed=7)
    assert mc.method == "monte-carlo" and mc.samples == 20_000 and mc.stderr > 0
    assert abs(mc.equity - exact.equity) < 3 * mc.stderr
    again = sdr_odds("Qs Qd", dead="Qh 7c", opponents=1, exact_limit=0, samples=20_000, seed=7)
    assert again == mc  # seeded: repeatable


def test_sdr_bad_input() -> None:
    with pytest.raises(OddsError, match="twice"):
        sdr_odds("As Kd", vs=["As Qd"])
    with pytest.raises(OddsError, match="two hole cards"):
        sdr_odds("As")
    with pytest.raises(OddsError, match="at most two"):
        sdr_odds("As Kd", dead="2c 3c 4c")
    # The opponents' range as it really is: 1 to 9 unknown hands alone, 0 to 9 - n
    # beside n known ones (at least one opponent, ten players at most, R-SDR-1).
    for k in (-1, 0, 10):
        with pytest.raises(OddsError, match=f"opponents must be from 1 to 9, not {k}: "):
            sdr_odds("As Kd", opponents=k)
    with pytest.raises(OddsError, match="opponents must be from 0 to 7 with 2 vs hands, not 8"):
        sdr_odds("As Kd", vs=["Qs Qd", "Jc Th"], opponents=8)
    assert sdr_odds("As Kd", vs=["Qs Qd"], opponents=0).method == "exact"


# ----------------------------------------------------------------- views only


def _sdr_hand(deck: list[int], n: int = 2) -> Hand:
    return Hand("sdr", [200] * n, button=1, options=Options(),
                source=ReplaySource([("deck", deck)]))


def test_view_equity_refuses_anything_but_a_seat_view() -> None:
    h = Hand("sdr", [200] * 3, button=0, options=Options(), source=SeededSource(1))
    with pytest.raises(OddsError, match="view"):
        view_equity(h)
    with pytest.raises(OddsError):
        view_equity(None)
    with pytest.raises(OddsError, match="spectator"):
        view_equity(h.view(None))
    with pytest.raises(OddsError):
        view_equity({"hole": ["As", "Kd"]})


def test_view_equity_depends_only_on_what_the_seat_sees() -> None:
    # Seat 0 holds As Kd in both hands; seat 1's hidden cards differ.
    base = c("As Kd")
    one = base[:1] + c("2c") + base[1:] + c("3c")
    two = base[:1] + c("Qh") + base[1:] + c("Qs")
    deck1 = one + [x for x in range(52) if x not in one]
    deck2 = two + [x for x in range(52) if x not in two]
    # button 1: seat 0 is dealt first
    a = view_equity(_sdr_hand(deck1).view(0), seed=3)
    b = view_equity(_sdr_hand(deck2).view(0), seed=3)
    assert a == b
    d = view_equity(_sdr_hand(deck1).view(0).to_dict(), seed=3)
    assert d == a


def _act(h: Hand, seat: int, rng: random.Random) -> object:
    legal = h.legal_actions(seat)
    kind = h.pending.kind if h.pending else ""
    if kind == "bet":
        return Call() if "call" in legal.actions else Check()
    if kind == "discard":
        return Discard(tuple(rng.sample(list(legal.cards), 3)))
    if kind == "expose":
        return Expose(rng.choice(list(legal.cards)))
    if kind == "draw":
        return Draw(tuple(rng.sample(list(legal.cards),
                                     rng.randint(legal.min_count, legal.max_count))))
    if kind == "wild":
        return PickWild(0)
    if kind == "stack":
        return Stack(tuple(legal.cards))
    if kind == "declare":
        return Declare(rng.choice(list(legal.sides)))
    raise AssertionError(kind)


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_view_equity_at_every_decision(game: str) -> None:
    rng = random.Random(4)
    for seed in range(2):
        h = Hand(game, [200] * 3, button=0, options=Options(), source=SeededSource(seed))
        while not h.is_over:
            assert h.pending is not None
            seat = h.pending.seats[0]
            odds = view_equity(h.view(seat), samples=100, rng=rng)
            assert odds.game == game
            assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)
            assert 0.0 <= odds.equity <= 1.0
            if game == "rollem521":
                assert odds.declare is not None and set(odds.declare) == set(SIDES)
            if game == "rollyourown":
                assert odds.categories and sum(odds.categories.values()) == pytest.approx(1)
            h.apply(seat, _act(h, seat, rng))


# ----------------------------------------------------------------- Roll Your Own


def test_ryo_exact_final_hand_equals_brute_force() -> None:
    # Queens wild (R-RYO-12 style): the seat holds 7s 7h Kc Qs 7d (four sevens);
    # the opponent shows Ah Ad 5c with two down cards.
    mine, up = c("7s 7h Kc Qs 7d"), c("Ah Ad 5c")
    out = c("Qd")  # the turned wild card
    odds = ryo_odds(mine, [(up, 2)], out=out, wild_ranks=[10])
    assert odds.method == "exact"
    shares = []
    for down in combinations(rest(mine, up, out), 2):
        me = wild_value(mine, {10})
        shares.append(share_of(me, [wild_value(up + list(down), {10})]))
    assert_same(odds, tally(shares))
    assert odds.categories == {"four of a kind": 1.0}


def test_ryo_wild_to_come_monte_carlo_within_three_standard_errors() -> None:
    # After the second draw, heads-up: two pool cards left, both the seat's
    # own discards; the wild card is one of them (R-RYO-7).
    mine, up, pool = c("9s 9h 4c 4d Kc"), c("Jh Js 2c"), c("4h Jd")
    shares = []
    cats: dict[int, int] = {}
    for down in combinations(rest(mine, up, pool), 2):
        for turned in pool:
            wild = {turned >> 2}
            me = wild_value(mine, wild)
            shares.append(share_of(me, [wild_value(up + list(down), wild)]))
            cats[me >> 20] = cats.get(me >> 20, 0) + 1
    exact = tally(shares)
    odds = ryo_odds(mine, [(up, 2)], pool_known=pool, samples=20_000, seed=11)
    assert odds.method == "monte-carlo"
    assert abs(odds.equity - exact[3]) < 3 * odds.stderr
    # the seat's category: four of a kind (4s wild) or two pair (jacks wild)
    assert odds.categories is not None
    assert set(odds.categories) == {"four of a kind", "two pair"}
    assert odds.categories["four of a kind"] == pytest.approx(0.5, abs=0.03)


def test_ryo_before_the_discard_gives_the_best_keep() -> None:
    odds = ryo_odds("As Ad Ah 2c 7d 9s", [((), 6)], pool_unknown=3, samples=300, seed=1)
    assert odds.keep == ["As", "Ad", "Ah"]


# ----------------------------------------------------------------- 5-2-1


def brute_521(mine: list[int], ups: list[list[int]], out: list[int]) -> dict[str, object]:
    """Every deal of the opponents' last down card; settlement by the engine's
    plain settle_pot; opponents declare by the documented model."""
    amount = 2520 * 2
    per_side: dict[str, list[float]] = {s: [] for s in SIDES}
    hi_wins = lo_wins = both = 0
    deals = 0
    free = rest(mine, *ups, out)

    def deal(i: int, used: list[int]):  # type: ignore[no-untyped-def]
        if i == len(ups):
            yield list(used)
            return
        for x in free:
            if x not in used:
                yield from deal(i + 1, [*used, x])

    for downs in deal(0, []):
        deals += 1
        hands = [mine] + [[*u, d] for u, d in zip(ups, downs, strict=True)]
        high = {s: high_value(h) for s, h in enumerate(hands)}
        low = {s: low_value(h) for s, h in enumerate(hands)}
        model = declare_model(np.array([high[s] for s in range(1, len(hands))]),
                              np.array([low[s] for s in range(1, len(hands))]))
        win_hi = all(high[0] > high[s] for s in range(1, len(hands)))
        win_lo = all(low[0] > low[s] for s in range(1, len(hands)))
        hi_wins += win_hi
        lo_wins += win_lo
        both += win_hi and win_lo
        for side in SIDES:
            sides = {0: side} | {s: SIDES[int(model[s - 1])] for s in range(1, len(hands))}
            st = settle_pot(amount, list(range(len(hands))), sides, high, low, button=0,
                            n_seats=len(hands))
            per_side[side].append(st.winners.get(0, 0) / amount)
    return {"declare": {s: sum(v) / deals for s, v in per_side.items()},
            "high": hi_wins / deals, "low": lo_wins / deals, "scoop": both / deals,
            "deals": deals}


@pytest.mark.parametrize(("mine", "ups"), [
    ("As 2d 3c 4h 9s", ["Kd Kc 7s 2h", "6d 5d 3d 2s"]),
    ("Ah 2h 3d 4c 5s", ["Qd Qc 7c 8h"]),
    ("Kh Kd Ks 9c 9d", ["2c 3h 4s 6h", "Ac Ad 8s 8c"]),
])
def test_521_exact_declare_shares_equal_brute_force(mine: str, ups: list[str]) -> None:
    m, u = c(mine), [c(x) for x in ups]
    out = c("Th")  # a discard the seat made
    odds = r521_odds(m, [(x, 1) for x in u], out=out)
    expected = brute_521(m, u, out)
    assert odds.method == "exact" and odds.samples == expected["deals"]
    assert odds.declare == pytest.approx(expected["declare"], abs=1e-12)
    assert (odds.high, odds.low, odds.scoop) == pytest.approx(
        (expected["high"], expected["low"], expected["scoop"]), abs=1e-12)
    assert odds.best_declare is not None
    assert odds.equity == max(odds.declare.values())


def test_521_wheel_declares_both() -> None:
    # the opponent shows a low and declares low; the wheel wins both ways
    odds = r521_odds("Ah 2h 3d 4c 5s", [(c("2c 3s 6d 7h"), 1)])
    assert odds.best_declare == "both"
    assert odds.scoop == 1.0 and odds.equity == 1.0
    assert odds.declare is not None and odds.declare["both"] == 1.0
    assert max(odds.declare["high"], odds.declare["low"]) < 1.0


def test_521_monte_carlo_within_three_standard_errors_of_exact() -> None:
    mine, ups = c("As 2d 3c 4h 9s"), [(c("Kd Kc 7s 2h"), 1), (c("6d 5d 3d"), 2)]
    exact = r521_odds(mine, ups)
    assert exact.method == "exact"
    mc = r521_odds(mine, ups, exact_limit=0, samples=20_000, seed=5)
    assert mc.method == "monte-carlo"
    assert abs(mc.equity - exact.equity) < 3 * mc.stderr + 1e-9
    assert mc.best_declare == exact.best_declare


# ----------------------------------------------------------------- histories and CLI


def test_history_odds_at_points_of_the_worked_example() -> None:
    text = (HISTORIES / "sdr_worked_example.toml").read_text()
    odds, at = history_odds(text, 1)  # default: before the last action, Roll known
    assert at == 8
    assert odds.method == "exact" and odds.samples == 990  # seat 0's 2 cards from 45
    start, at0 = history_odds(text, 0, at=0, seed=1, samples=2000)
    # heads-up before the Stop: counted, as play counts it (s65-check; was Monte Carlo)
    assert at0 == 0 and start.method == "exact" and start.samples == 21_187_600
    with pytest.raises(OddsError, match="--at"):
        history_odds(text, 0, at=99)


def _rollem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rollem", *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_cli_odds_sdr_json_and_errors() -> None:
    proc = CliRunner().invoke(app, ["odds", "sdr", "--hand", "Qs Qd", "--dead", "Qh 7c",
                                    "--board", "Kc 7d 2s", "--vs", "As Kd", "--json"])
    assert proc.exit_code == 0, proc.output
    data = json.loads(proc.output)
    assert data["method"] == "exact" and data["stderr"] == 0
    assert (data["win"], data["lose"]) == (0, 1)  # R-SDR-8's worked example
    assert {"win", "tie", "lose", "equity", "samples"} <= set(data)
    bad = _rollem("odds", "sdr", "--hand", "As Kd", "--vs", "As Qd")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "twice" in bad.stderr
    early = CliRunner().invoke(app, ["odds", "sdr", "--hand", "As Kd", "--dead", "Qh",
                                     "--board", "Qs Js Ts"])
    assert early.exit_code == 2 and "after the Stop and the Drop" in early.output
    hist = CliRunner().invoke(app, ["odds", "--history",
                                    str(HISTORIES / "sdr_worked_example.toml"),
                                    "--seat", "0", "--at", "6", "--json"])
    assert hist.exit_code == 0, hist.output
    assert json.loads(hist.output)["at"] == 6


def test_views_give_own_discards_and_revealed_declarations() -> None:
    from rollem.odds.view import read_view

    rng = random.Random(2)
    h = Hand("rollem521", [200] * 3, button=0, options=Options(), source=SeededSource(3))
    discarded: dict[int, list[int]] = {0: [], 1: [], 2: []}
    declared: dict[int, str] = {}
    checked = 0
    while not h.is_over:
        assert h.pending is not None
        seat = h.pending.seats[0]
        action = _act(h, seat, rng)
        if isinstance(action, Draw):
            discarded[seat] += [int(x) for x in action.cards]
        if isinstance(action, Declare):
            declared[seat] = action.side
        h.apply(seat, action)
        if h.pending is not None and h.pending.kind == "stack":
            for s in range(3):
                info = read_view(h.view(s))
                assert info.my_discards == discarded[s]
                assert not info.declared
                checked += 1
    assert checked >= 3 and any(discarded.values())
    info = read_view(h.view(0))
    assert info.declared == declared


@pytest.mark.parametrize("name", ["sdr_worked_example", "rollyourown_seed_example",
                                  "rollem521_both_scoops"])
def test_history_odds_in_every_game(name: str) -> None:
    text = (HISTORIES / f"{name}.toml").read_text()
    odds, _at = history_odds(text, 0, seed=1)
    assert odds.game == name.split("_")[0]
    assert odds.method == "exact"  # the last decision point: every card but the opponents' down
    assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)
    if odds.game == "rollem521":
        assert odds.declare is not None and odds.best_declare in SIDES
    result = CliRunner().invoke(app, ["odds", "--history", str(HISTORIES / f"{name}.toml"),
                                      "--seat", "0", "--json"])
    assert result.exit_code == 0, result.output
    if odds.game == "sdr":  # the CLI's other odds look ahead (a weighted sample)
        assert json.loads(result.output)["equity"] == pytest.approx(odds.equity)


@pytest.mark.parametrize("name", ["sdr_worked_example", "rollyourown_seed_example",
                                  "rollem521_both_scoops"])
def test_history_odds_at_every_point(name: str) -> None:
    # hand-written histories name later deals (pool draws, the wild card): a
    # point before them must still replay
    text = (HISTORIES / f"{name}.toml").read_text()
    last = history_odds(text, 0, samples=50, seed=1)[1]
    for at in range(last + 1):
        odds, got = history_odds(text, 0, at=at, samples=50, seed=1, exact_limit=5000)
        assert got == at
        assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)


# ----------------------------------------------------------------- large samples, own declaration


def test_tally_equals_summarise_over_chunks() -> None:
    from rollem.odds.common import Tally, summarise

    share = np.random.default_rng(3).choice([0.0, 1 / 3, 0.5, 1.0], size=10_001)
    whole = summarise(share, "monte-carlo", "sdr")
    tally = Tally()
    for lo in range(0, len(share), 777):
        tally.add(share[lo:lo + 777])
    got = tally.odds("monte-carlo", "sdr")
    assert got.samples == whole.samples == 10_001
    for name in ("win", "tie", "lose", "equity", "stderr"):
        assert getattr(got, name) == pytest.approx(getattr(whole, name), rel=1e-9, abs=1e-12)


def test_monte_carlo_in_chunks_counts_every_sample_and_reports_progress(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import rollem.odds.common as common

    monkeypatch.setattr(common, "CHUNK", 1_000)
    seen: list[tuple[int, int]] = []
    exact = sdr_odds("As Ad", dead="Kc 7d")
    mc = sdr_odds("As Ad", dead="Kc 7d", exact_limit=0, samples=5_500, seed=1,
                  progress=lambda done, total: seen.append((done, total)))
    assert mc.samples == 5_500 and mc.method == "monte-carlo"
    assert abs(mc.equity - exact.equity) < 3 * mc.stderr + 1e-9
    assert seen[-1] == (5_500, 5_500) and len(seen) >= 2  # more than one chunk


def test_samples_out_of_range_are_refused() -> None:
    from rollem.odds.common import MAX_SAMPLES

    with pytest.raises(OddsError, match="samples must be 1 to"):
        sdr_odds("As Ad", exact_limit=0, samples=MAX_SAMPLES + 1)
    bad = _rollem("odds", "sdr", "--hand", "As Ad", "--samples", "1000000000")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "expected 1 to 10,000,000" in bad.stderr and "Traceback" not in bad.stderr
    hist = _rollem("odds", "--history", str(HISTORIES / "sdr_worked_example.toml"),
                   "--seat", "0", "--samples", "0")
    assert hist.returncode == 2 and hist.stderr.count("\n") == 1


def test_cli_odds_unexpected_error_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import rollem.cli.odds_cmd as odds_cmd

    def boom(*args: object, **kwargs: object) -> Odds:
        raise RuntimeError("something broke")

    monkeypatch.setattr(odds_cmd, "sdr_odds", boom)
    proc = CliRunner().invoke(app, ["odds", "sdr", "--hand", "As Ad"])
    assert proc.exit_code == 1
    assert "something broke" in proc.output and "Traceback" not in proc.output

    def no_memory(*args: object, **kwargs: object) -> Odds:
        raise MemoryError

    monkeypatch.setattr(odds_cmd, "sdr_odds", no_memory)
    proc = CliRunner().invoke(app, ["odds", "sdr", "--hand", "As Ad"])
    assert proc.exit_code == 2 and "fewer --samples" in proc.output


def test_521_odds_are_for_the_seat_own_declaration() -> None:
    # every card known: the seat (queen high, no low) against a six-five low
    mine, opp = c("2s Qd 8c 5s 9h"), c("6h 5c 3h 2d As")
    free = r521_odds(mine, [(opp, 0)], declared={0: "low"})
    assert free.best_declare == "high" and free.equity == 0.5 and free.tie == 1.0
    both = r521_odds(mine, [(opp, 0)], declared={0: "low"}, own_side="both")
    assert both.own_declare == "both"
    assert (both.win, both.tie, both.lose, both.equity) == (0.0, 0.0, 1.0, 0.0)
    assert both.declare == free.declare and both.best_declare == "high"
    assert both.to_dict()["declared"] == "both"
    from rollem.cli.odds_cmd import render

    text = render(both)
    assert "exact: 1 outcome enumerated\n" in text + "\n"
    assert "declared both" in text and "best:" not in text


def test_history_odds_after_declaring_use_the_declaration() -> None:
    import io

    from rollem.cli.play_cmd import TerminalGame
    from rollem.history import read_history, replay, write_history

    answers = iter(["c", "p", "c", "p", "k", "c", "c", "c", "c", "c", "c", "c", "b", "q"])
    game = TerminalGame(game="rollem521", players=3, level="basic", stack=200, seed=3,
                        show_odds=False, history_dir=Path("/nonexistent"), rich=False,
                        read_line=lambda prompt: next(answers), out=io.StringIO())
    game.save = lambda hand: None  # type: ignore[method-assign]  # the full history, below
    game.run()
    assert game.last is not None
    # the full history (rollem play saves only your own copy, which ends before the
    # point after your declaration here: you declare last)
    h = read_history(write_history(game.last[1]))
    hand = replay(h)
    mine = [e for e in hand.view(0).events if e["kind"] == "declare" and e.get("seat") == 0]
    assert mine, "seat 0 declared in this hand"
    side = mine[0]["side"]
    point = next(i for i in range(len(h.actions) + 1)
                 if history_odds(h, 0, at=i, samples=100, seed=1)[0].own_declare is not None)
    odds, _ = history_odds(h, 0, at=point, samples=1000, seed=1)
    assert odds.own_declare == side
    assert odds.declare is not None and odds.equity == pytest.approx(odds.declare[side])
    before, _ = history_odds(h, 0, at=point - 1, samples=1000, seed=1)
    assert before.own_declare is None and before.equity == max((before.declare or {}).values())


# ----------------------------------------------------------------- Roll Your Own: the pool tracked


def test_ryo_tracked_pool_seed_example_equals_brute_force() -> None:
    # Seat 0 put 5c Qc 2c in the pool, drew Kc and 7d, and saw Qd turned: with
    # B's 5c up, the pool's six cards are all placed but one of Qc/2c, so B's
    # drawn down card is Qc or 2c (equally likely); its kept down card is any
    # unseen card.
    text = (HISTORIES / "rollyourown_seed_example.toml").read_text()
    odds, _ = history_odds(text, 0)
    mine = c("7s 7h Qs Kc 7d")
    seen = set(mine) | set(c("Ah Ad Qd 5c Qc 2c"))
    me = wild_value(mine, {10})
    results = []
    for drawn in c("Qc 2c"):
        for kept in (x for x in range(52) if x not in seen):
            results.append(share_of(me, [wild_value([*c("Ah Ad 5c"), drawn, kept], {10})]))
    assert odds.method == "exact" and odds.samples == len(results) == 82
    assert odds.equity == pytest.approx(sum(results) / len(results), abs=1e-12)
    assert odds.lose == pytest.approx(sum(r == 0 for r in results) / 82, abs=1e-12)
    assert 0.03 < odds.lose < 0.05  # B holds Qh Qc in truth; was 0.35% untracked
    mc, _ = history_odds(text, 0, exact_limit=0, samples=20_000, seed=2)
    assert mc.method == "monte-carlo"
    assert abs(mc.equity - odds.equity) < 3 * mc.stderr + 1e-9


def test_ryo_tracked_pool_before_any_draw_matches_the_pool_model() -> None:
    # right after the discard nothing is placed yet: the tracked model is the
    # plain one (own discards in the pool, the rest uniform)
    text = (HISTORIES / "rollyourown_seed_example.toml").read_text()
    odds, _ = history_odds(text, 0, at=4, samples=20_000, seed=3)
    assert odds.method == "monte-carlo"
    assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)


def test_the_samples_help_says_the_least_worlds_roll_your_own_draws() -> None:
    """``rollem odds --history FILE --samples 5`` of Roll Your Own after the
    discard with three or more opponents draws :data:`MIN_WORLDS` worlds (and
    says "Monte Carlo: 4,000 samples"); ``--help`` said only "1 to
    10,000,000", so the figure looked like a bug."""
    from rollem.odds.ryoseen import MIN_WORLDS

    out = " ".join(CliRunner().invoke(app, ["odds", "--help"]).output.split())
    assert MIN_WORLDS == 4000
    assert "after the discard at 6 players or more; there, with three or more opponents, " \
        "at least 4,000 whatever is asked, as the output says" in out
