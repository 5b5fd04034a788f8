"""``bench/bench_felt_motion.py``'s counting and pairing (issue 26): a trace's frames
and what is in them, each state's window, the "on" arm's long frames with no
counterpart in the "off" arm, and the difference's interval.  Synthetic traces and
frames, no browser."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_felt_motion.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_felt_motion", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


M = {"pid": 1, "tid": 1}


def x(name: str, ts: float, ms: float, **data: Any) -> dict[str, Any]:
    """A complete event on the main thread: ``ts`` and ``ms`` in ms (stored in µs),
    its thread time its length."""
    e = {**M, "ph": "X", "name": name, "ts": ts * 1000, "dur": ms * 1000, "tdur": ms * 1000}
    if data:
        e["args"] = {"data": data}
    return e


def frame_events(start: float, end: float) -> list[dict[str, Any]]:
    return [{**M, "ph": "b", "name": "AnimationFrame", "ts": start * 1000, "id2": {"local": "1"}},
            {**M, "ph": "e", "name": "AnimationFrame", "ts": end * 1000, "id2": {"local": "1"}}]


def trace() -> list[dict[str, Any]]:
    """Two frames.  Frame 1 (0-70 ms): a task of 60 ms holding drawOne (40 ms: 20 of
    its own script, a 12 ms minor collection and 8 ms of forced style), then the
    frame's own style 5 ms and paint 5 ms.  Frame 2 (100-130 ms): motion.js's start
    (a rAF callback, 6 ms) and 4 ms of paint.  Another renderer's thread (not the
    main one) has a task that is left out."""
    return [
        {**M, "ph": "M", "name": "thread_name", "args": {"name": "CrRendererMain"}},
        {"pid": 1, "tid": 2, "ph": "M", "name": "thread_name", "args": {"name": "Compositor"}},
        *frame_events(0, 70),
        x("ThreadControllerImpl::RunTask", 1, 60),
        x("FunctionCall", 2, 40, functionName="drawOne", url="", lineNumber=3),
        x("MinorGC", 10, 12),
        {**M, "ph": "b", "name": "rollem-animate", "ts": 35000, "id": "0x1"},
        {**M, "ph": "e", "name": "rollem-animate", "ts": 38000, "id": "0x1"},
        x("UpdateLayoutTree", 30, 8),
        x("ThreadControllerImpl::RunTask", 61, 10),
        x("UpdateLayoutTree", 61, 5),
        x("Paint", 66, 5),
        {"pid": 1, "tid": 2, "ph": "X", "name": "ThreadControllerImpl::RunTask",
         "ts": 5000, "dur": 90000, "tdur": 90000},
        *frame_events(100, 130),
        x("ThreadControllerImpl::RunTask", 100, 10),
        x("FunctionCall", 100, 6, functionName="", url="http://x/static/table/motion.js",
          lineNumber=328),
        x("Paint", 106, 4),
        {**M, "ph": "b", "name": "rollem-animate", "ts": 101000, "id": "0x2"},
        {**M, "ph": "e", "name": "rollem-animate", "ts": 105000, "id": "0x2"},
        {**M, "ph": "b", "name": "Animation", "ts": 107000, "id2": {"local": "2"}},
        {**M, "ph": "e", "name": "Animation", "ts": 400000, "id2": {"local": "2"}},
    ]


def test_a_trace_read_as_frames_with_their_parts_and_collections() -> None:
    """Frame 1: 70 ms long, 70 ms of thread time (the two tasks), a state drawn; its
    script 20 ms (drawOne's own: the collection and the forced style taken out), gc
    12, style 13, paint 5, and the first task's own 20 (outside drawOne) left as
    other; the collection named ``MinorGC``; animate()'s measure (3 ms) counted as
    motion.  Frame 2: no state, 10 ms, motion.js's 6 ms counted as motion (the
    measure inside its call not counted again)."""
    bench = _bench()
    frames, draws = bench.frames_of(trace())
    assert draws == [2000]
    assert len(frames) == 2
    one, two = frames
    assert (one["wall"], one["cpu"], one["state"]) == (70, 70, True)
    assert one["parts"] == {"other": pytest.approx(20), "script": pytest.approx(20),
                            "gc": pytest.approx(12), "style": pytest.approx(13),
                            "paint": pytest.approx(5)}
    assert one["scripts"] == {"drawOne@:3": pytest.approx(20)}
    assert one["gc"] == {"MinorGC": pytest.approx(12)}
    assert one["motion"] == 3   # (animate() in render: its measure, 3 ms)
    # (the start's measure inside motion.js's call: counted once)
    assert (two["cpu"], two["state"], two["motion"]) == (10, False, 6)
    assert two["scripts"] == {"?@motion.js:328": pytest.approx(6)}
    # what says an "off" pass ran none of the motion code: here one call, one animation
    assert bench.motion_activity(trace()) == {"calls": 1, "animations": 1}
    assert bench.motion_activity(trace()[:14]) == {"calls": 0, "animations": 0}


def f(start: float, cpu: float, state: bool) -> dict[str, Any]:
    return {"start": start, "end": start + 1, "cpu": cpu, "wall": cpu, "state": state,
            "parts": {"paint": cpu}, "scripts": {}, "gc": {}, "motion": 0.0}


def test_frames_go_to_the_window_of_the_state_drawn_last() -> None:
    """Draws at 10 and 20: a frame at 5 is before any (left out); one starting at 9
    that holds the first drawing belongs to it (by its end); one at 15 to the first;
    one at 25 to the second."""
    bench = _bench()
    early, holding, after, last = f(5, 1, False), f(9.5, 1, True), f(15, 1, False), f(25, 1, False)
    got = bench.windows([early, holding, after, last], [10, 20])
    assert got == [[holding, after], [last]]


def test_the_pairs_difference_added_frames_and_the_noise_the_other_way() -> None:
    """Two pairs, four states (the first left out).  Pair 0: motion on has a long
    state frame at state 1 the off pass has not (added), and a long frame with no
    state at state 2 (the motion's start: added); both have a long state frame at
    state 3 (matched).  Pair 1: on and off both long at state 1 (matched); off alone
    long at state 2 (removed: noise the other way), and a long frame at state 0 in
    on (the first state, left out).  On 3 and 1 long frames, off 1 and 2: differences
    2 and -1; each state's over the pairs 1, 0, 0: per pass 0.5."""
    bench = _bench()
    short = [f(0, 10, True)]
    on = [[short, [f(1, 60, True)], [f(2, 20, True), f(2.5, 55, False)], [f(3, 80, True)]],
          [[f(0, 90, True)], [f(1, 51, True)], short, short]]
    off = [[short, [f(1, 45, True)], [f(2, 20, True)], [f(3, 70, True)]],
           [short, [f(1, 52, True)], [f(2, 61, True)], short]]
    c = bench.compare(on, off, "cpu")
    assert (c["on"], c["off"], c["difference"]) == ([3, 1], [1, 2], [2, -1])
    assert c["added"] == [2, 0] and c["removed"] == [0, 1]
    assert [(k, i, fr["cpu"]) for k, i, fr in c["added_frames"]] == [(0, 1, 60), (0, 2, 55)]
    assert [(k, i, fr["cpu"]) for k, i, fr in c["removed_frames"]] == [(1, 2, 61)]
    assert c["added_upper"] is None
    # each state's difference summed over the pairs: state 1 +1 +0, state 2 +1 -1, state 3 0
    mean, low, high = c["per_pass"]
    assert mean == pytest.approx(0.5)
    half = 4.303 * math.sqrt(1 / 3) / math.sqrt(3) * 3 / 2   # t(2) sd/sqrt(n), times n/pairs
    assert (low, high) == (pytest.approx(0.5 - half, abs=0.01), pytest.approx(0.5 + half, abs=0.01))
    assert c["per_pass_by_pairs"][0] == pytest.approx(0.5)


def test_none_added_gives_the_rule_of_threes_bound_and_bad_pairs_are_refused() -> None:
    """No long frame anywhere in 3 pairs: difference 0, none added, the 95% upper
    bound 3 / 3 = 1 a pass.  Passes of unequal numbers, or windows, are refused with
    what was given."""
    bench = _bench()
    w = [[[f(0, 10, True)], [f(1, 10, False)]]] * 3
    c = bench.compare(w, w, "wall")
    assert c["difference"] == [0, 0, 0] and c["added_upper"] == 1.0
    with pytest.raises(ValueError, match="got 3 and 2"):
        bench.compare(w, w[:2], "cpu")
    with pytest.raises(ValueError, match="2 state windows: got 2 and 1"):
        bench.compare(w[:1], [w[0][:1]], "cpu")


def test_t_quantiles() -> None:
    bench = _bench()
    assert bench.t975(1) == 12.706 and bench.t975(30) == 2.042
    assert bench.t975(120) == pytest.approx(1.980, abs=0.001)
    assert bench.t975(10**6) == pytest.approx(1.960, abs=0.001)
    with pytest.raises(ValueError, match="got 0"):
        bench.t975(0)


def test_unmatched_frames_by_role_with_their_counterparts_and_collections() -> None:
    """A pair of one state window (after the first): on has a 60 ms state frame (the
    off pass's state frame: 45 ms) and a 56 ms frame with no state, 8 ms of it a
    minor collection (48 ms without: made long by the collection); off has neither
    long.  Both added, one a state's, one between, one made by a collection; the
    state frame's counterpart is the off pass's 45 ms frame, the other's none."""
    bench = _bench()
    gc = {**f(2, 56, False), "gc": {"MinorGC": 8.0}}
    on = [[[f(0, 10, True)], [f(1, 60, True), gc]]]
    off = [[[f(0, 10, True)], [f(1, 45, True)]]]
    c = bench.compare(on, off, "cpu")
    assert c["added_by_role"] == {"state": 1, "between": 1, "gc_made": 1}
    assert c["removed_by_role"] == {"state": 0, "between": 0, "gc_made": 0}
    assert [fr["counterpart"] for _, _, fr in c["added_frames"]] == [[45.0], []]
    assert bench.described(c["added_frames"][1][2])["gc"] == {"MinorGC": 8.0}


def test_a_frames_rendering_work_counted_from_the_trace() -> None:
    """The trace's frame 1 with its style counts (8 elements forced in drawOne, 5 in
    the frame's own style) and a layout of 30 dirty objects: 13 styled, 30 laid out,
    one layout, one paint, one style recalculation forced (drawOne's); frame 2: its
    one paint alone."""
    bench = _bench()
    events = trace()
    styles = [e for e in events if e["name"] == "UpdateLayoutTree"]
    styles[0]["args"] = {"elementCount": 8}
    styles[1]["args"] = {"elementCount": 5}
    layout = x("Layout", 62, 1)
    layout["args"] = {"beginData": {"dirtyObjects": 30, "totalObjects": 400}}
    events.append(layout)
    one, two = bench.frames_of(events)[0]
    assert one["work"] == {"styled": 13, "laid_out": 30, "layouts": 1, "paints": 1, "forced": 1}
    assert two["work"] == {"paints": 1}


def w(work: dict[str, int], state: bool = True) -> dict[str, Any]:
    return {**f(0, 10, state), "work": work}


def test_the_state_frames_work_compared_on_and_off() -> None:
    """Two pairs, three states (the first left out).  Pair 0, state 1: on styles 30
    elements to off's 20 (more), the rest equal; state 2: equal (a frame with no
    state, 99 styled, not counted).  Pair 1, state 1: on lays out 5 objects fewer
    (less); state 2: equal.  Means over the 4 cases; the two that differ named."""
    bench = _bench()
    same = {"styled": 10, "laid_out": 50, "layouts": 1, "paints": 2}
    first = [w({"styled": 500})]
    on = [[first, [w({**same, "styled": 30})], [w(same), w({"styled": 99}, False)]],
          [first, [w({**same, "laid_out": 45})], [w(same)]]]
    off = [[first, [w({**same, "styled": 20})], [w(same)]],
           [first, [w(same)], [w(same)]]]
    got = bench.work_compare(on, off)
    assert got["cases"] == 4
    assert got["styled"] == {"on": 15.0, "off": 12.5, "more": 1, "less": 0}
    assert got["laid_out"] == {"on": 48.8, "off": 50.0, "more": 0, "less": 1}
    assert got["paints"] == {"on": 2.0, "off": 2.0, "more": 0, "less": 0}
    assert [(k, i) for k, i, _, _ in got["differ"]] == [(0, 1), (1, 1)]


def test_an_added_frame_shows_its_work_beside_its_counterparts() -> None:
    """An added state frame styling 30 elements, its paired state frame 20: both
    counts kept with it, and in its description."""
    bench = _bench()
    on = [[[w({})], [{**w({"styled": 30}), "cpu": 60.0, "wall": 60.0}]]]
    off = [[[w({})], [w({"styled": 20})]]]
    c = bench.compare(on, off, "cpu")
    added = c["added_frames"][0][2]
    assert (added["work"], added["counterpart_work"]) == ({"styled": 30}, {"styled": 20})
    said = bench.described(added)
    assert (said["work"], said["counterpart_work"]) == ({"styled": 30}, {"styled": 20})


def test_why_counts_the_invalidations_by_reason_and_element() -> None:
    """Three restyles in the window (two of a dealt row for its running animation, one
    of a seat for a class), one layout invalidation, and one restyle after the window
    and one on another thread, left out; the element named without its id."""
    bench = _bench()

    def inv(name: str, ts: float, tid: int = 1, **data: Any) -> dict[str, Any]:
        return {"pid": 1, "tid": tid, "ph": "I", "name": name, "ts": ts * 1000,
                "args": {"data": data}}

    row = "SPAN class='cards mini deal-in'"
    events = [
        {**M, "ph": "M", "name": "thread_name", "args": {"name": "CrRendererMain"}},
        inv("StyleRecalcInvalidationTracking", 1, reason="Animation", nodeName=row),
        inv("StyleRecalcInvalidationTracking", 2, reason="Animation", nodeName=row),
        inv("StyleRecalcInvalidationTracking", 3, reason="Related style rule",
            nodeName="DIV id='s3' class='seat'"),
        inv("LayoutInvalidationTracking", 4, reason="Added to layout", nodeName="DIV"),
        inv("StyleRecalcInvalidationTracking", 20, reason="Animation", nodeName=row),
        inv("StyleRecalcInvalidationTracking", 5, tid=2, reason="Animation", nodeName=row),
    ]
    assert bench.why(events, 0, 10_000) == {
        f"style: Animation: {row}": 2, "layout: Added to layout": 1,
        "style: Related style rule: DIV class='seat'": 1}
