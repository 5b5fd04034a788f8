"""``bench/bench_web_felt.py``'s split of a long animation frame (issue 26): what the
animation and sound code adds to it, and whether the frame would be 50 ms or under
without it.  Synthetic Long Animation Frame entries and page measures, no browser."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_web_felt.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_web_felt", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def frame(start: float, ms: float, render_at: float, style_at: float,
          scripts: list[dict[str, Any]]) -> dict[str, Any]:
    """A long animation frame as the bench's page records it (times in ms)."""
    return {"s": start, "d": ms, "render": render_at, "sal": style_at, "scripts": scripts}


def test_a_frame_the_motion_code_made_long_and_one_it_did_not() -> None:
    """Frame A: 58 ms, a state drawn (30 ms of script) whose motion code took 12 ms:
    46 ms without it, so the motion code made it long.  Frame B: 120 ms, 80 ms of
    drawing and 12 ms of motion: 108 ms without, not made long by it.  Frame C:
    75 ms, no motion at all, 10 ms of render steps before style: not made by it, at
    most either (65 ms without both).  The summary counts one frame made, and two
    frames holding motion."""
    bench = _bench()
    ws = {"inv": "WebSocket.onmessage", "type": "event-listener", "forced": 0}
    frames = [
        frame(0, 58, 40, 50, [{**ws, "s": 2, "d": 30}]),
        frame(200, 120, 190, 200, [{**ws, "s": 202, "d": 80}]),
        frame(400, 75, 440, 450, [{**ws, "s": 402, "d": 30}]),
    ]
    marks = [
        {"n": "rollem-render", "s": 2, "d": 30, "k": "state"},
        {"n": "rollem-animate", "s": 20, "d": 12, "k": None},
        {"n": "rollem-render", "s": 202, "d": 80, "k": "end"},
        {"n": "rollem-animate", "s": 270, "d": 12, "k": None},
        {"n": "rollem-render", "s": 402, "d": 30, "k": "state"},
    ]
    a, b, c = bench.attribute(frames, marks)
    assert (a["animate_ms"], a["without_motion_ms"], a["motion_made"]) == (12, 46, True)
    assert (b["animate_ms"], b["without_motion_ms"], b["motion_made"]) == (12, 108, False)
    assert b["states"] == ["end"]
    assert (c["animate_ms"], c["motion_made"], c["motion_made_at_most"]) == (0, False, False)
    summary = bench.attribution_summary([a, b, c])
    assert summary["motion_made"] == 1
    assert summary["with_motion_script"] == 2
    assert summary["animate_ms_in_long_frames"] == 24


def test_at_most_takes_out_the_render_steps_before_style() -> None:
    """A 62 ms frame with 5 ms of motion script and 10 ms of render steps before
    style (rAF, animation ticks, observers): 57 ms without the script (not made by
    it), 47 ms without both (made by it at most)."""
    bench = _bench()
    ws = {"inv": "WebSocket.onmessage", "type": "event-listener", "forced": 0}
    # tasks end at 40 (render start), style at 50: 10 ms of render steps, no script there
    (f,) = bench.attribute([frame(0, 62, 40, 50, [{**ws, "s": 0, "d": 40}])],
                           [{"n": "rollem-animate", "s": 30, "d": 5, "k": None}])
    assert f["parts"]["render steps outside scripts"] == 10
    assert (f["motion_made"], f["motion_made_at_most"]) == (False, True)


def test_the_motion_modules_scripts_are_read_from_loaf_by_their_source() -> None:
    """Frame D: 62 ms, an idle callback of motion.js (a sound rendered, 20 ms: LoAF
    names it by its ``sourceURL``) beside a state's message (30 ms, 5 ms of it
    ``animate()``): 25 ms of the animation and sound code, 37 ms without it, so
    that code made it long, though its measures alone (5 ms) did not.  Frame E:
    70 ms, a motion.js ``animationend`` listener of 8 ms holding a flights'
    measure of 6 ms (counted once): 62 ms without, not made long.  Frame F: 55 ms,
    state.js alone: no motion code.  The summary: 1 made of 2 holding it, 33 ms,
    and the script by module."""
    bench = _bench()
    ws = {"inv": "WebSocket.onmessage", "type": "event-listener", "forced": 0,
          "src": "http://127.0.0.1:8000/static/table/state.js"}
    idle = {"inv": "IdleRequestCallback", "type": "user-callback", "forced": 0,
            "src": "http://127.0.0.1:8000/static/table/motion.js"}
    ended = {"inv": "DIV.onanimationend", "type": "event-listener", "forced": 0,
             "src": "http://127.0.0.1:8000/static/table/motion.js"}
    frames = [
        frame(0, 62, 55, 58, [{**ws, "s": 2, "d": 30}, {**idle, "s": 33, "d": 20}]),
        frame(200, 70, 260, 265, [{**ended, "s": 202, "d": 8}, {**ws, "s": 211, "d": 40}]),
        frame(400, 55, 450, 452, [{**ws, "s": 402, "d": 45}]),
    ]
    marks = [
        {"n": "rollem-render", "s": 2, "d": 30, "k": "state"},
        {"n": "rollem-animate", "s": 25, "d": 5, "k": None},
        {"n": "rollem-animate", "s": 203, "d": 6, "k": "flights"},
        {"n": "rollem-render", "s": 402, "d": 45, "k": "state"},
    ]
    d, e, f = bench.attribute(frames, marks)
    assert (d["motion_code_ms"], d["motion_entry_ms"], d["motion_code_made"]) == (25, 20, True)
    assert d["motion_made"] is False   # (its measures alone: 5 ms, 57 ms without)
    assert d["motion_entries"] == [["IdleRequestCallback", "", 20]]
    assert (e["motion_code_ms"], e["motion_entry_ms"], e["motion_code_made"]) == (8, 8, False)
    assert (f["motion_code_ms"], f["motion_code_made"]) == (0, False)
    assert d["script_ms_by_module"] == {"state.js": 30, "motion.js": 20}
    summary = bench.attribution_summary([d, e, f])
    assert (summary["motion_code_made"], summary["with_motion_code"]) == (1, 2)
    assert summary["motion_code_ms"] == 33
    assert summary["motion_code_longest_ms"] == 25
    assert summary["script_ms_by_module"] == {"state.js": 115, "motion.js": 28}
