"""``bench/bench_league.py``'s pooling of chunk runs and its grid (the figures in
its docstring and in the issue notes come from these)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_league.py"


def _league() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_league", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(seed: int, units: list[float], game: str = "sdr") -> list[dict[str, object]]:
    return [{"game": game, "hero": "strong", "opponent": "basic", "format": "hu",
             "structure": "fixed-limit", "seeds": [seed], "plays_per_deal": 2,
             "deals": len(units), "bb100": 0.0, "ci95": [0.0, 0.0], "seconds": 1.5,
             "units": units}]


def test_chunks_pool_into_one_interval_and_grid(tmp_path: Path) -> None:
    league = _league()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(_run(1, [2.0, 4.0])))
    b.write_text(json.dumps(_run(2, [0.0, 6.0])))
    [r] = league.pool([str(a), str(b)])
    # units 2, 4, 0, 6 chips per hand: mean 3, sample sd sqrt(20/3); big bet 4; two
    # sessions (a run each), fewer than 20, cut into runs of one deal: 4 groups, so
    # 75 BB/100 +- t(3 df) 3.182 * sqrt(20/3) / 2 * 25 = 102.70
    assert r["deals"] == 4 and r["seeds"] == [1, 2] and r["seconds"] == 3.0
    assert r["bb100"] == 75.0 and r["groups"] == 4 and r["sessions"] == [2, 2]
    half = 3.182 * (20 / 3) ** 0.5 / 2 * 25
    assert r["ci95"] == [round(75 - half, 2), round(75 + half, 2)]
    grid = league.table([r]).splitlines()
    assert grid[0].startswith("fixed-limit heads-up, strong against")
    assert grid[1].split() == ["basic", "+75.0", "[-28,", "+178]", "4", "-", "-"]
    # a wide cell widens every column: cells never run together
    wide = dict(r, bb100=1610.52, ci95=[1385.88, 1835.15], deals=420, game="rollyourown")
    row = league.table([r, wide]).splitlines()[1]
    assert row.split() == ["basic", "+75.0", "[-28,", "+178]", "4",
                           "+1610.5", "[+1386,", "+1835]", "420", "-"]
    assert "] 4  +1610.5 [" in row  # the widest cell: two spaces before it


def test_two_checkouts_runs_pair_unit_by_unit(tmp_path: Path) -> None:
    """``paired``: over the seeds both sides ran (seed 3 only the new side's, left
    out), the difference unit by unit: new 2, 4, 1 and old 0, 4, 1 chips per hand
    give differences 2, 0, 0: mean 2/3 (16.67 BB/100), sample sd 2/sqrt(3), over
    3 groups of one deal (t for 2 df, 4.303)."""
    league = _league()
    new = [tmp_path / f"n{s}.json" for s in (1, 2, 3)]
    old = [tmp_path / f"o{s}.json" for s in (1, 2)]
    for path, seed, units in ((new[0], 1, [2.0, 4.0]), (new[1], 2, [1.0]), (new[2], 3, [9.0]),
                              (old[0], 1, [0.0, 4.0]), (old[1], 2, [1.0])):
        path.write_text(json.dumps(_run(seed, units)))
    [r] = league.paired([str(p) for p in new], [str(p) for p in old])
    assert r["seeds"] == [1, 2] and r["same"] == 2
    assert r["new"]["deals"] == r["diff"]["deals"] == 3
    assert r["diff"]["bb100"] == 16.67
    half = 4.303 * (4 / 3) ** 0.5 / 3 ** 0.5 * 25
    assert r["diff"]["ci95"] == [round(50 / 3 - half, 2), round(50 / 3 + half, 2)]
    assert r["old"]["bb100"] == round(5 / 3 * 25, 2)


def test_runs_of_different_sizes_are_not_paired(tmp_path: Path) -> None:
    league = _league()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(_run(1, [2.0, 4.0])))
    b.write_text(json.dumps(_run(1, [3.0])))
    with pytest.raises(ValueError, match="same --hands"):
        league.paired([str(a)], [str(b)])


def test_a_seed_pooled_twice_is_refused(tmp_path: Path) -> None:
    league = _league()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(_run(1, [2.0])))
    b.write_text(json.dumps(_run(1, [3.0])))
    with pytest.raises(ValueError, match="pooled twice"):
        league.pool([str(a), str(b)])


def test_the_interval_is_over_sessions_not_deals() -> None:
    """Issue 31: a session's deals share its bots (each learns its opponents over
    the session), so their chips are not independent. Simulated matches whose
    truth is 0: 40 sessions of 25 deals, each deal a session's own lean (sd 1) plus
    the deal's noise (sd 1). The interval over the sessions covers 0 in 288 of 300
    matches; taking every deal as its own session (main's interval over deals)
    in 120 (its spread, sqrt(2 / 1000), is 0.28 of the mean's, sqrt((1 + 1 / 25)
    / 40))."""
    import random

    league = _league()
    rng = random.Random(31)
    grouped = as_deals = 0
    for _ in range(300):
        units: list[float] = []
        for _session in range(40):
            lean = rng.gauss(0.0, 1.0)
            units += [lean + rng.gauss(0.0, 1.0) for _ in range(25)]
        lo, hi = league._summary(units, [25] * 40)["ci95"]
        grouped += lo <= 0.0 <= hi
        lo, hi = league._summary(units, [1] * 1000)["ci95"]
        as_deals += lo <= 0.0 <= hi
    assert 0.90 <= grouped / 300 <= 0.99
    assert as_deals / 300 < 0.55


def test_sessions_split_into_groups() -> None:
    """Fewer than 20 sessions are cut into runs of consecutive deals (batch
    means) so the interval has 20 groups, or one a deal; the sessions must add up
    to the deals."""
    league = _league()
    assert league.groups(400) == [20] * 20  # one run of 400 deals
    assert league.groups(7, [3, 4]) == [1] * 7
    assert league.groups(100, [50, 50]) == [5] * 20
    assert league.groups(41, [21, 20]) == [3] + [2] * 19
    assert league.groups(60, [3] * 20) == [3] * 20
    with pytest.raises(ValueError, match="add up to 6 units, not 7"):
        league.groups(7, [3, 3])
    # every group one deal: the plain interval over deals, t for deals - 1
    r = league._summary([2.0, 4.0, 0.0, 6.0], [1, 1, 1, 1])
    assert r["groups"] == 4 and r["ci95"] == [round(75 - 102.70, 2), round(75 + 102.70, 2)]
    # two sessions of two equal deals each: the interval of the sessions' means
    r = league._summary([0.0, 0.0, 4.0, 4.0] + [2.0] * 36, [2, 2] + [1] * 36)
    assert r["bb100"] == 50.0 and r["groups"] == 38


def test_pooled_runs_keep_their_sessions(tmp_path: Path) -> None:
    """``pool`` takes the interval over every run's sessions (a run without them,
    written before they were kept, is one); ``paired`` refuses runs of one seed
    in other sessions (other --jobs)."""
    league = _league()
    runs = []
    for seed in range(1, 23):  # 22 runs of 2 deals, one session each: 22 groups
        path = tmp_path / f"r{seed}.json"
        run = _run(seed, [float(seed % 3), float(seed % 3)])
        if seed > 1:
            run[0]["sessions"] = [2]
        path.write_text(json.dumps(run))
        runs.append(str(path))
    [r] = league.pool(runs)
    assert r["groups"] == 22 and r["sessions"] == [2] * 22 and r["deals"] == 44
    other = tmp_path / "other.json"
    run = _run(2, [2.0, 2.0])
    run[0]["sessions"] = [1, 1]
    other.write_text(json.dumps(run))
    with pytest.raises(ValueError, match=r"sessions \[2\] against 2 in \[1, 1\]"):
        league.paired([runs[1]], [str(other)])


def _ryo_views(league: ModuleType, count: int) -> list[object]:
    """The views of seat 0 at its decisions over Roll Your Own hands (``strong``
    against ``basic``), card choices and bets alike."""
    from rollem.engine import Hand, SeededSource
    from rollem.engine.options import Options

    bots = league.seat_bots(["strong", "basic"], 3, view_seeds=11)
    views: list[object] = []
    deal = 0
    while len(views) < count:
        hand = Hand("rollyourown", [200, 200], button=deal % 2,
                    options=Options(structure="fixed-limit"), source=SeededSource(deal))
        while not hand.is_over:
            s = hand.pending.seats[0]
            view = hand.view(s)
            if s == 0:
                views.append(view)
            hand.apply(s, bots[s].act(view))
        deal += 1
    return views[:count]


def test_view_seeds_give_identical_decisions_for_identical_views() -> None:
    """``ViewSeeded`` (issue 31): two ``strong`` bots built from different seeds
    decide alike on every view under one match seed (the coins come from the
    match seed and the view, not the bot's own ``Random``), and under other
    match seeds their Monte Carlo card choices and picks differ somewhere."""
    import random

    league = _league()
    views = _ryo_views(league, 24)
    kinds = {a for v in views for a in v.legal.actions}
    assert {"discard", "expose"} <= kinds and {"bet", "check"} <= kinds, kinds
    first = [league.ViewSeeded(league.bot("strong", random.Random(1)), 5).act(v)
             for v in views]
    second = [league.ViewSeeded(league.bot("strong", random.Random(2)), 5).act(v)
              for v in views]
    assert first == second
    others = [[league.ViewSeeded(league.bot("strong", random.Random(1)), s).act(v)
               for v in views] for s in (6, 7, 8)]
    assert any(o != first for o in others)
    # the seed is a function of (match seed, view) alone
    v = views[3]
    assert league.view_seed(5, v) == league.view_seed(5, copy_of(v))
    assert league.view_seed(5, v) != league.view_seed(6, v)
    assert league.view_seed(5, v) != league.view_seed(5, views[4])


def copy_of(view: object) -> object:
    import copy

    return copy.deepcopy(view)


def test_view_seeded_matches_repeat_and_differ_across_match_seeds() -> None:
    """A heads-up match played twice with bots built from different seeds but one
    view seed gives the same chips deal by deal (every decision a function of
    the view); another view seed gives other chips on some deals."""
    league = _league()
    deals = list(range(8))
    a = league._play("rollyourown", ["strong", "basic"], deals, "fixed-limit", 1, 40)
    b = league._play("rollyourown", ["strong", "basic"], deals, "fixed-limit", 2, 40)
    c = league._play("rollyourown", ["strong", "basic"], deals, "fixed-limit", 1, 41)
    assert a == b
    assert a != c
    with pytest.raises(ValueError, match="no rng"):
        league.ViewSeeded(object(), 1)


def test_strongtrap_is_told_the_hand_end() -> None:
    """``strongtrap`` (``StrongTrapper``) passes a hand's end to its inner
    ``strong``, as ``strong`` itself is told it (issue 31, fifteenth pass): seat 0
    checked and called the trapper's (seat 1's) last-round bet, so the inner bot's book, counting
    hand ends, reads one more spot after a check (the call that ended the hand);
    before, nothing reached it."""
    import dataclasses
    import random

    from engine_helpers import stacked_hand
    from rollem.bots import observe_hand_end
    from rollem.engine import Check

    league = _league()
    hand = stacked_hand([200, 200], 1, {0: "3d 2s", 1: "Kh 5c"}, stop="9h", drop="4c",
                        roll="Kc Qd 7s")
    for _ in range(7):
        assert hand.pending is not None
        hand.apply(hand.pending.seats[0], Check())
    view = hand.view(1)
    end = [*view.events, {"kind": "bet", "seat": 1, "amount": 4}, {"kind": "call", "seat": 0}]
    trapper = league.StrongTrapper(random.Random(0))
    trapper.inner.count_hand_ends = True
    observe_hand_end(trapper, dataclasses.replace(view, events=end))
    assert trapper.inner.book.tendencies(0).faced_after_check == 1


def test_a_1v5_control_is_zero_by_construction() -> None:
    """The 1 vs 5 control (``strong`` against five copies of itself, issue 31,
    twentieth pass) has expectation 0 because of three properties, checked here on
    three SDR fixed-limit deals: every deal's seat nets sum to 0 (no chip made or
    lost: no odd chip, rake or cap); a hero seat's session gives the same nets
    whether it runs first or after the other five (no state carried between
    sessions in the process: the six sessions differ only in their bots' seeds);
    and the hero's unit is the mean over the hero seats of that seat's net in its
    own session (``_job``'s seeding ``seed * 7919 + k`` for the ``k``-th hero seat).
    With the sessions alike in law, the hero's mean is the mean of a zero-sum
    table's seats."""
    league = _league()
    deals, seed, n = [11, 22, 33], 5, 6
    sessions = {k: league._play("sdr", ["strong"] * n, deals, "fixed-limit", seed * 7919 + k)
                for k in range(n)}
    for nets in sessions.values():
        assert [sum(nets[i * n:(i + 1) * n]) for i in range(len(deals))] == [0, 0, 0]
    assert any(nets[i * n + k] != 0 for k, nets in sessions.items() for i in range(3))
    for k in reversed(range(n)):
        assert league._play("sdr", ["strong"] * n, deals, "fixed-limit",
                            seed * 7919 + k) == sessions[k]
    units = league._job(("sdr", "strong", "strong", "1v5", "fixed-limit", deals, seed,
                         tuple(range(n))))
    assert units == [sum(sessions[k][i * n + k] for k in range(n)) / n for i in range(3)]


def test_strongtrap_policy_is_the_law_act_draws_from() -> None:
    """``StrongTrapper.policy`` is the law of its ``act`` (issue 31, twentieth
    pass: the variance-reduced estimator's action terms need it): SDR round 1,
    Ah Ad with the Stop As first to act, its slow-play (0.5) against a bet of 2,
    as its inner ``strong``'s policy; checked and bet into, its check-raise rule's
    raise to 4 with probability 1, its book not counting the raise as acted until
    ``act`` (before: ``act``'s one draw as a point mass, the raise counted)."""
    import random

    from engine_helpers import stacked_hand
    from rollem.engine import Bet, Check, Raise

    league = _league()
    hand = stacked_hand([200, 200], 1, {0: "Ah Ad", 1: "7c 2d"}, stop="As", drop="4c",
                        roll="Kc Qd 7s")
    view = hand.view(0)
    trapper = league.StrongTrapper(random.Random(0))
    assert trapper.policy(view) == {Check(): 0.5, Bet(2): 0.5}
    taken = {league.StrongTrapper(random.Random(s)).act(view) for s in range(12)}
    assert taken == {Check(), Bet(2)}
    hand.apply(0, Check())
    hand.apply(1, Bet(2))
    view = hand.view(0)
    trapper = league.StrongTrapper(random.Random(0))
    assert trapper.policy(view) == {Raise(4): 1.0}
    assert trapper.inner.book._unanswered is None
    assert trapper.act(view) == Raise(4)
    assert trapper.inner.book._unanswered is not None
