"""The frames the motion code takes after a state is drawn (issue 26), read from a
trace of ``bench/bench_felt_states.py --motion --trace FILE``: per state drawn
(``drawOne``), the frames after its render's own frame, up to the next state,
that run the motion code (a ``FunctionCall`` from ``/table/motion.js``: a start
piece, the flights' launch).

A frame here is as Chromium's long-animation-frame counts one: a main-thread frame
(``ScheduledActionSendBeginMainFrame``: requestAnimationFrame callbacks, style,
layout, paint) with the tasks run since the frame before it (an
IntersectionObserver's report, a message).  Its cost is the thread time
(``tdur``, ms; it holds the CPU throttling, not the time the thread waited for a
core, so the machine's load moves it less than wall-clock frames).  For each
state: the render's task and frame, and each motion frame's cost, with the motion
code's own script in it; over all states: how many motion frames, their cost as
[median, p90, max], how many cost over 50 ms, the motion script's [median, p90,
max] a frame, and the render's frame's [median, p90, max].

    .venv/bin/python bench/bench_felt_states.py --states S --motion --trace T
    .venv/bin/python bench/bench_felt_motion_frames.py T [--json FILE]

``--live``: a trace of a live hand (``bench/bench_web_felt.py --cpu --trace-dir
D``) instead, every frame in it: the frames that run the motion code with no
state drawn in them (a start piece, the flights' launch) and those with a state.

    .venv/bin/python bench/bench_felt_motion_frames.py --live D/trace-on-*.json

A figure, not a test: say the machine's load with it.  Figures:
docs/dev/felt-frames.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from felt_trace import spread, timed_on_main, trace_events

MOTION = "/table/motion.js"
FRAME = "ScheduledActionSendBeginMainFrame"


def tops(trace: bytes) -> list[dict[str, Any]]:
    """The renderer main thread's top-level tasks in order, each with ``_in``: the
    events inside it (and ``_kids``: its children's thread time, µs)."""
    mine = timed_on_main(trace_events(trace))
    out: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for e in mine:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1].get("dur", 0):
            stack.pop()
        if stack:
            stack[0]["_in"].append(e)
        else:
            e["_in"] = []
            out.append(e)
        stack.append(e)
    return out


def calls(task: dict[str, Any]) -> list[tuple[str, str, float]]:
    """The ``FunctionCall`` events in ``task``: (function's name, its script's url,
    thread ms)."""
    out = []
    for x in task["_in"]:
        if x["name"] != "FunctionCall":
            continue
        d = (x.get("args") or {}).get("data") or {}
        out.append((str(d.get("functionName") or ""), str(d.get("url") or ""), x["tdur"] / 1000))
    return out


def is_frame(task: dict[str, Any]) -> bool:
    return (task.get("args") or {}).get("src_func") == FRAME


def per_state(trace: bytes) -> list[dict[str, Any]]:
    """Each state drawn: ``render`` (its task's ms), ``frame`` (the render's frame's
    ms, with the tasks before it) and ``motion``: [frame ms, motion script ms] of each
    later frame until the next state that runs the motion code."""
    ts = tops(trace)
    draws = [k for k, t in enumerate(ts) if any(f == "drawOne" for f, _, _ in calls(t))]
    out = []
    for n, k in enumerate(draws):
        end = draws[n + 1] if n + 1 < len(draws) else len(ts)
        frames: list[tuple[float, float]] = []   # [frame ms, motion ms]
        cost = motion = 0.0
        for t in ts[k + 1:end]:
            cost += t["tdur"] / 1000
            motion += sum(ms for _, url, ms in calls(t) if url.split("?")[0].endswith(MOTION))
            if is_frame(t):
                frames.append((cost, motion))
                cost = motion = 0.0
        if not frames:
            continue
        out.append({"render": ts[k]["tdur"] / 1000, "frame": frames[0][0],
                    "motion": [[round(c, 2), round(m, 2)] for c, m in frames[1:] if m > 0]})
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures over all states (each state's first drawing left out: none)."""
    frames = [f for r in rows for f in r["motion"]]
    return {"states": len(rows), "motion_frames": len(frames),
            "motion_frame_ms": spread([c for c, _ in frames]),
            "motion_frames_over_50ms": sum(1 for c, _ in frames if c > 50),
            "motion_frames_over_40ms": sum(1 for c, _ in frames if c > 40),
            "motion_script_ms": spread([m for _, m in frames]),
            "motion_ms_a_state": spread([sum(c for c, _ in r["motion"]) for r in rows]),
            "render_frame_ms": spread([r["render"] + r["frame"] for r in rows])}


STATE = "/table/state.js"


def frames(trace: bytes) -> list[dict[str, Any]]:
    """Every frame of a trace (``bench_web_felt.py --cpu --trace-dir D``: a live
    hand, states as they come): its thread ms (``ms``, with the tasks since the
    frame before), the motion code's script ms in it (``motion``) and whether a
    state was drawn in it (``state``: a script of ``/table/state.js`` ran, the
    WebSocket's message)."""
    out = []
    cost = motion = 0.0
    state = False
    for t in tops(trace):
        cost += t["tdur"] / 1000
        for _, url, ms in calls(t):
            url = url.split("?")[0]
            if url.endswith(MOTION):
                motion += ms
            elif url.endswith(STATE):
                state = True
        if is_frame(t):
            out.append({"ms": round(cost, 2), "motion": round(motion, 2), "state": state})
            cost = motion = 0.0
            state = False
    return out


def live_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Over a live run's frames: those with no state drawn that run the motion code
    (a start piece, the flights' launch): how many, their ms [median, p90, max], how
    many over 40 and 50 ms; those with a state drawn and the motion code: how many
    over 50 ms, and of those how many would be 50 ms or under without its script."""
    alone = [r for r in rows if r["motion"] > 0 and not r["state"]]
    drawn = [r for r in rows if r["motion"] > 0 and r["state"]]
    return {"frames": len(rows), "motion_alone": len(alone),
            "motion_alone_ms": spread([r["ms"] for r in alone]),
            "motion_alone_over_40ms": sum(1 for r in alone if r["ms"] > 40),
            "motion_alone_over_50ms": sum(1 for r in alone if r["ms"] > 50),
            "motion_alone_script_ms": spread([r["motion"] for r in alone]),
            "motion_with_state": len(drawn),
            "motion_with_state_over_50ms": sum(1 for r in drawn if r["ms"] > 50),
            "motion_with_state_made": sum(1 for r in drawn
                                          if r["ms"] > 50 and r["ms"] - r["motion"] <= 50)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", type=Path, help="a trace of bench_felt_states.py --motion --trace")
    ap.add_argument("--json", type=Path, help="write each state's figures here")
    ap.add_argument("--live", action="store_true",
                    help="a trace of bench_web_felt.py --cpu --trace-dir: every frame")
    args = ap.parse_args()
    if args.live:
        got = frames(args.trace.read_bytes())
        figures = live_summary(got)
        print(json.dumps(figures))
        if args.json:
            args.json.write_text(json.dumps({"summary": figures, "frames": got}))
        return
    rows = per_state(args.trace.read_bytes())
    figures = summary(rows)
    print(json.dumps(figures))
    if args.json:
        args.json.write_text(json.dumps({"summary": figures, "states": rows}))


if __name__ == "__main__":
    main()
