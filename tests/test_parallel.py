"""Splitting seeded jobs over processes (``rollem.parallel``, ``simulate --workers``)."""

from __future__ import annotations

import json
import os
import sys
import threading

import pytest

from cli_helpers import run_cli as run
from rollem.parallel import _start_method, child_seed, run_parts, split_counts
from rollem.simulate import _session, run_simulation


def test_split_counts_worked_examples() -> None:
    assert split_counts(10, 3) == [4, 3, 3]
    assert split_counts(9, 3) == [3, 3, 3]
    assert split_counts(2, 5) == [1, 1]  # never an empty part
    assert split_counts(7, 1) == [7]
    for total in range(1, 30):
        for workers in range(1, 8):
            parts = split_counts(total, workers)
            assert sum(parts) == total and max(parts) - min(parts) <= 1


@pytest.mark.parametrize(("total", "workers"), [(0, 2), (5, 0)])
def test_split_counts_refuses_bad_input(total: int, workers: int) -> None:
    with pytest.raises(ValueError, match="expected at least 1"):
        split_counts(total, workers)


def test_child_seeds_are_distinct_and_stable() -> None:
    seeds = {child_seed(s, k, n) for s in range(5) for n in range(1, 5) for k in range(n)}
    assert len(seeds) == 5 * (1 + 2 + 3 + 4)
    assert child_seed(7, 1, 2) == child_seed(7, 1, 2)
    assert all(0 <= x < 2**64 for x in seeds)
    with pytest.raises(ValueError, match="expected 0 to 1"):
        child_seed(7, 2, 2)


def test_run_parts_keeps_part_order() -> None:
    done: list[int] = []
    if threading.active_count() == 1:  # (an earlier test may have left a thread)
        assert _start_method() == ("fork" if sys.platform == "linux" else "forkserver")
    assert run_parts(divmod, [(7, 2), (9, 4), (20, 6)],
                     on_done=lambda k, r: done.append(k)) == [(3, 1), (2, 1), (3, 2)]
    assert sorted(done) == [0, 1, 2]
    # Another thread running (a progress bar's): no fork; the same results.
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert _start_method() != "fork"
        assert run_parts(divmod, [(7, 2), (9, 4)]) == [(3, 1), (2, 1)]
    finally:
        release.set()
        other.join()


def test_run_parts_plays_the_last_part_here_and_raises_a_parts_error() -> None:
    pids = run_parts(os.getpid, [(), (), ()])
    assert pids[2] == os.getpid() and os.getpid() not in pids[:2]
    with pytest.raises(ZeroDivisionError):
        run_parts(divmod, [(1, 0), (1, 1)])  # a worker's part
    with pytest.raises(ZeroDivisionError):
        run_parts(divmod, [(1, 1), (1, 0)])  # this process's part


def test_one_worker_is_one_session_seeded_by_the_seed() -> None:
    one = run_simulation("sdr", 3, 20, ["random"] * 3, seed=5)
    assert len(one.part_seconds) == len(one.part_cpu_seconds) == 1
    assert one.part_seconds[0] <= one.seconds
    assert one.per_hand == _session("sdr", 3, 20, ["random"] * 3, 5, 200, None, None).per_hand


def test_cli_two_workers_join_two_independent_sessions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Differential: the 2-worker result is exactly the two seeded parts run in
    # this process one after the other, joined in part order.
    args = ["simulate", "sdr", "--players", "3", "--hands", "11", "--seed", "4", "--json",
            "--workers", "2"]
    code, out, err = run(args, capsys)
    assert code == 0, err
    data = json.loads(out)
    a = _session("sdr", 3, 6, ["random"] * 3, child_seed(4, 0, 2), 200, None, None)
    b = _session("sdr", 3, 5, ["random"] * 3, child_seed(4, 1, 2), 200, None, None)
    assert data["hands"] == 11
    assert [s["net"] for s in data["seats"]] == [
        sum(a.per_hand[s]) + sum(b.per_hand[s]) for s in range(3)]
    assert data["actions_per_hand"] == round((a.actions + b.actions) / 11, 4)
    assert data["chips_start"] == a.chips_start + b.chips_start == data["chips_end"]  # R-C-4
    code, out, err = run([*args[:-1], "0"], capsys)
    assert code == 2 and "--workers 0: expected at least 1" in err


def test_odds_monte_carlo_on_two_workers_is_the_two_seeded_parts() -> None:
    """``sdr_odds(workers=2)``: the same seed gives the same answer, which is exactly
    the two parts' tallies (each from its own child seed) added in part order, and
    agrees with the exact enumeration within five standard errors."""
    from rollem.odds.common import Tally, card_list, unseen
    from rollem.odds.sdr import _monte_carlo_part, sdr_odds

    kwargs: dict[str, object] = {"vs": ["7c 7d"], "exact_limit": 0, "samples": 30_001}
    odds = sdr_odds("As Kd", seed=5, workers=2, **kwargs)  # type: ignore[arg-type]
    assert odds.method == "monte-carlo" and odds.samples == 30_001
    hole, vs = card_list("As Kd", "hand"), card_list("7c 7d", "vs")
    pool = unseen(hole, vs)
    tally = Tally()
    for i, n in enumerate([15_001, 15_000]):
        tally.merge(_monte_carlo_part(hole, [], [vs], 0, pool, n, child_seed(5, i, 2)))
    assert odds == tally.odds("monte-carlo", "sdr")
    exact = sdr_odds("As Kd", vs=["7c 7d"])
    assert exact.method == "exact"
    assert abs(odds.equity - exact.equity) < 5 * odds.stderr
    assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)


def test_cli_odds_workers_is_the_seeded_parts(capsys: pytest.CaptureFixture[str]) -> None:
    from rollem.odds.common import Tally, card_list, unseen
    from rollem.odds.sdr import _monte_carlo_part

    args = ["odds", "sdr", "--hand", "As Kd", "--opponents", "3", "--samples", "20000",
            "--seed", "9", "--json", "--workers", "2"]
    code, out, err = run(args, capsys)
    assert code == 0, err
    got = json.loads(out)
    hole = card_list("As Kd", "hand")
    tally = Tally()
    for i in range(2):
        tally.merge(_monte_carlo_part(hole, [], [], 3, unseen(hole), 10_000,
                                      child_seed(9, i, 2)))
    want = tally.odds("monte-carlo", "sdr")
    assert (got["samples"], got["win"], got["equity"]) == (20_000, want.win, want.equity)
    code, _out, err = run([*args[:-1], "0"], capsys)
    assert code == 2 and "--workers 0: expected at least 1" in err
