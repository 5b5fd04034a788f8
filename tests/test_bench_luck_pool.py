"""``bench/bench_luck_pool.py`` (issue 31): one deal's terms summed by kind and
parted as the estimator subtracts them (eighth pass: the late chance terms'
baselines' controls)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _pool() -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_luck_pool", BENCH / "bench_luck_pool.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORD = {"net": [10, -4], "terms": [
    [["chance", -1, 2.0, 0.25], ["late", 3, 1.0, 6.0], ["late_base", 3, 8.0, 0.5],
     ["late_share", 3, 8.0, 0.25], ["late", 3, 1.0, 2.0]],
    [["action", 1, 1.0, -1.0], ["late", 3, 1.0, -4.0]],
]}


def test_sums_weigh_the_controls_by_the_pot() -> None:
    sums = _pool().sums(RECORD)
    assert sums == pytest.approx({"chance": 0.25, "action": -0.5, "late": 2.0,
                                  "late_base": 2.0, "late_share": 1.0})


def test_late_parts_tell_a_chance_events_term_from_a_decisions() -> None:
    # seating 1: the late term before its control is the Roll's, the other a
    # decision's; seating 2 has no control, so its late term is a decision's
    chance, base, decisions = _pool().late_parts(RECORD)
    assert (chance, base, decisions) == pytest.approx((3.0, 2.0, -1.0))


def test_the_rows_subtract_the_controls_with_the_late_terms() -> None:
    rows = dict(_pool().rows([RECORD]))
    plain = rows["plain duplicate"][0]
    assert plain == 3.0
    assert rows["+ late terms"][0] == pytest.approx(3.0 - 0.25 + 0.5 - 2.0)
    assert rows["+ late terms' baselines"][0] == pytest.approx(3.0 - 0.25 + 0.5 - 2.0 - 2.0)


PLAYED = {**RECORD, "late_per_play": [
    [[3, [4.0, 8.0]], [3, [0.0, 4.0]]],  # the late terms 6 and 2, play by play
    [[3, [-2.0, -6.0]]],                 # the late term -4
]}


def test_the_late_terms_from_fewer_of_their_plays() -> None:
    pool = _pool()
    assert pool.late_by_plays(PLAYED, 2) == pytest.approx(2.0)  # as run: sums' late
    assert pool.late_by_plays(PLAYED, 1) == pytest.approx((4.0 + 0.0 - 2.0) / 2)
    assert pool.plays_kept([PLAYED, PLAYED]) == 2
    assert pool.plays_kept([PLAYED, RECORD]) == 0  # a dump from before: no plays rows


def test_the_rows_give_one_play_and_one_weight() -> None:
    records = [{**PLAYED, "net": [10 + 3 * k, -4 - k]} for k in range(4)]
    rows = dict(_pool().rows(records))
    # first play only: the late terms 1 in place of 2, every other term as run
    assert rows["  late from 1 play"][0] == pytest.approx(3.0 - 0.25 + 0.5 - 1.0 - 2.0)
    weighted = [name for name in rows if name.startswith("one weight (2 folds: ")]
    assert len(weighted) == 1 and "  1 play, one weight" in rows
    assert "  late from 2 plays" not in rows  # two plays are the run itself


def test_dumps_with_other_deck_draws_are_not_pooled(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A dump with ``exact_deck_draws`` or ``deck_draw_plays`` (fifteenth pass) is
    another setting: pooling it with one without is refused, naming the file."""
    import json

    head = {"game": "rollem521", "structure": "no-limit", "late_rollouts": 16,
            "late_from": 1, "plain": [1.0], "deals": [RECORD], "cpu_s": 1.0}
    paths = []
    for name, extra in (("a", {}), ("b", {"exact_deck_draws": 60, "deck_draw_plays": 1})):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({**head, **extra}))
        paths.append(str(path))
    monkeypatch.setattr(sys, "argv", ["bench_luck_pool.py", *paths])
    with pytest.raises(SystemExit, match=r"b\.json: another cell or setting"):
        _pool().main()


DECK = {"net": [6, 2], "terms": [
    # a deck draw against every card (round 1, no control), the Roll-like event
    # with its control (round 3), a decision's (round 4, no control)
    [["late", 1, 1.0, 5.0], ["late", 3, 1.0, 2.0], ["late_base", 3, 4.0, 0.5],
     ["late_share", 3, 4.0, 0.25], ["late", 4, 1.0, -3.0]],
    [["chance", -1, 2.0, 1.0], ["late", 1, 1.0, 1.0]],
]}


def test_a_deck_draws_term_is_a_chance_events_not_a_decisions() -> None:
    """``late_kinds`` (sixteenth pass): the deck draws against every card keep
    no baseline control, so the control alone read them as decisions. From the
    run's ``--late-decisions-from`` (4 here) a late term in an earlier round is
    a chance event's (no decision there has one); later ones without a control
    stay decisions; the dump's own ``late_kinds`` win where it has them."""
    pool = _pool()
    assert pool.late_kinds(DECK) == [["decision", "chance", "decision"], ["decision"]]
    assert pool.late_kinds(DECK, 4) == [["chance", "chance", "decision"], ["chance"]]
    assert pool.late_kinds(DECK, 4, choices=True) == [["decision", "chance", "decision"],
                                                     ["decision"]]
    rounds = pool.by_round(DECK, 4)
    assert rounds == pytest.approx({("late chance", 1): 3.0, ("late chance", 3): 1.0,
                                    ("late_base", 3): 1.0, ("late_share", 3): 0.5,
                                    ("late decision", 4): -1.5, ("chance", -1): 1.0})
    assert pool.late_parts(DECK, 4) == pytest.approx((4.0, 1.0, -1.5))
    kept = {**DECK, "late_kinds": [["decision", "chance", "chance"], ["chance"]]}
    assert pool.by_round(kept)[("late decision", 1)] == pytest.approx(2.5)
    assert pool.by_round(kept)[("late chance", 4)] == pytest.approx(-1.5)
    for bad in ([["chance", "chance"], ["chance"]], [["chance"] * 3, ["draw"]]):
        with pytest.raises(ValueError, match="late_kinds"):
            pool.late_kinds({**DECK, "late_kinds": bad})


TWO = {"net": [10, -4], "terms": [
    [["chance", -1, 2.0, 0.25], ["late", 1, 1.0, 5.0], ["late_base", 1, 4.0, 0.5],
     ["late", 2, 1.0, 6.0], ["late", 2, 1.0, 3.0], ["late", 3, 1.0, 2.0]],
    [["action", 1, 1.0, -1.0], ["late", 2, 1.0, -4.0], ["late", 3, 1.0, 1.0]],
], "late_kinds": [["chance", "decision", "chance", "decision"], ["decision", "decision"]],
    "late_per_play": [
    [[1, [4.0, 6.0]], [2, [5.0, 7.0]], [2, [2.0, 4.0]], [3, [1.0, 3.0]]],
    [[2, [-2.0, -6.0]], [3, [0.0, 2.0]]],
]}


def test_a_rounds_late_decisions_left_out() -> None:
    """Eighteenth pass: round 2's late decisions (6 in seating 1, -4 in seating
    2) leave; round 2's late chance term (3), round 3's decisions, the round-1
    chance term and its control stay, their plays and kinds in step; the rows
    then subtract the rest: plain 3, chance 0.25, action -0.5, late (5 + 3 + 2
    + 1) / 2 = 5.5, control 4 x 0.5 / 2 = 1."""
    pool = _pool()
    out = pool.without_late_decisions(TWO, [2])
    assert out["terms"][0] == [["chance", -1, 2.0, 0.25], ["late", 1, 1.0, 5.0],
                               ["late_base", 1, 4.0, 0.5], ["late", 2, 1.0, 3.0],
                               ["late", 3, 1.0, 2.0]]
    assert out["terms"][1] == [["action", 1, 1.0, -1.0], ["late", 3, 1.0, 1.0]]
    assert out["late_kinds"] == [["chance", "chance", "decision"], ["decision"]]
    assert out["late_per_play"] == [[[1, [4.0, 6.0]], [2, [2.0, 4.0]], [3, [1.0, 3.0]]],
                                    [[3, [0.0, 2.0]]]]
    assert TWO["terms"][1][1] == ["late", 2, 1.0, -4.0]  # the record itself unchanged
    rows = dict(pool.rows([out]))
    assert rows["+ late terms"][0] == pytest.approx(3.0 - 0.25 + 0.5 - 5.5)
    assert rows["+ late terms' baselines"][0] == pytest.approx(3.0 - 0.25 + 0.5 - 5.5 - 1.0)
    assert pool.late_by_plays(out, 1) == pytest.approx((4.0 + 2.0 + 1.0 + 0.0) / 2)
    # nothing of round 4, or no rounds: the record's terms as they were
    assert pool.without_late_decisions(TWO, [4])["terms"] == TWO["terms"]
    # an older dump without late_kinds: round 3's terms are decisions from
    # --late-decisions-from 3, the round-1 term before its control a chance event's
    old = {k: v for k, v in TWO.items() if k != "late_kinds"}
    assert pool.without_late_decisions(old, [3], 3)["terms"][1] == [
        ["action", 1, 1.0, -1.0], ["late", 2, 1.0, -4.0]]
    with pytest.raises(ValueError, match="seating 1: 1 late terms kept play by play for 2"):
        pool.without_late_decisions({**TWO, "late_per_play": [TWO["late_per_play"][0],
                                                              [[2, [-2.0, -6.0]]]]}, [2])


def test_the_post_draw_value_is_subtracted_after_the_judged_row() -> None:
    """``--post-draw`` dumps (twenty-eighth pass): each deal less the mean over its
    seatings of ``net - post`` after "+ late terms' baselines"; the control by
    hand: seat 0 (10 - 7.5), seat 1 (-4 - -4: a hand over before the draw) over 2
    = 1.25, so RECORD's -0.75 goes to -2.0. A record without ``post`` for every
    seating is refused, naming the flag."""
    pool = _pool()
    record = {**RECORD, "post": [[7.5, False, [7.0, 8.0]], [-4.0, False, []]]}
    assert pool.post_control(record) == pytest.approx(1.25)
    table = dict(pool.rows([record]))
    assert table["+ late terms' baselines"] == pytest.approx([-0.75])
    assert table["+ post-draw value"] == pytest.approx([-2.0])
    assert "+ post-draw value" not in dict(pool.rows([RECORD]))
    for bad in ({**RECORD, "post": [[7.5, False, []]]},
                {**RECORD, "post": [[7.5, False, []], [None, False, []]]}):
        with pytest.raises(ValueError, match=r"run bench_luck\.py with --post-draw"):
            pool.post_control(bad)


def test_the_estimate_from_the_first_late_draw_by_hand() -> None:
    """``late_real`` (twenty-eighth pass): seat 0's first late draw has V(real) 9
    and term 6 (baseline 3), its control 8 x 0.5 = 4 and the deal's chance term
    2 x 0.25 before it: 3 - 4 - 0.5 = -1.5 (the later draw and everything after
    out); seat 1 has an action term -1 before its draw (V 1, term -4: baseline 5):
    5 + 1 = 6; the deal (-1.5 + 6) / 2 = 2.25. A seating with no late draw keeps
    its result less its terms; late_real that does not match is refused."""
    pool = _pool()
    record = {**RECORD, "post": [[7.5, False, []], [-4.0, False, []]],
              "late_kinds": [["chance", "chance"], ["chance"]],
              "late_real": [[[3, 9.0], [3, 5.0]], [[3, 1.0]]]}
    assert pool.from_first_late_draw(record) == pytest.approx(2.25)
    assert dict(pool.rows([record]))["from the first late draw"] == pytest.approx([2.25])
    none = {"net": [4, -2], "terms": [[["chance", -1, 2.0, 0.5]], [["action", 0, 1.0, 1.0]]],
            "late_real": [[], []]}
    assert pool.from_first_late_draw(none) == pytest.approx(((4 - 1.0) + (-2 - 1.0)) / 2)
    with pytest.raises(ValueError, match=r"no late_real for every late chance term"):
        pool.from_first_late_draw({**record, "late_real": [[[3, 9.0]], [[3, 1.0]]]})
