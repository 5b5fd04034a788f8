"""Does the animation and sound code add frames over 50 ms (issue 26)?

A counterfactual pair: the same recorded states (``bench_felt_states.py --record``: three
hands of a 10-seat hold'em table, Ann and nine betting computer players) drawn in one
phone page (390x844, Chromium's CPU slowed 4 times, ``Emulation.setCPUThrottlingRate``,
sound on) through the page's own ``render(state, previous)``, pass after pass, with the
animation and sound layer **on** and **off** in turn (``off``: the page's root with
``data-motion="none"``, main.js then calls nothing of motion.js at a state: no move, no
flight, no sound; reduced motion is not off), ABBA by pass (pair k: on then off, or
off then on), garbage collected between passes, every pass traced.

Each pass draws the states at the live table's pace (``--gap`` ms from one state's
drawing to the next, ``--hand-gap`` before a new hand's), so the animations overlap
the next states as they do in play.  A state's **window** is from its drawing to the
next one's; the frames in it are the page's main-thread frames of the trace
(``AnimationFrame`` events: from a frame's first task to its paint), each measured two
ways: ``cpu``, the thread time of its tasks (``tdur``: holds the throttling, not the
time the thread waited for a core: the primary measure on a loaded machine) and
``wall``, its length.  A frame is ``state`` if the state's drawing (``drawOne``) is in
it, else ``between`` (the animations' start and flights, the side panels drawn after
a paint, timers).  So the frames only the motion code has (a start or a flight with no
state drawn) are in the "on" arm's windows, with no counterpart in the "off" arm.

What it reports (per measure): frames over 50 ms per pass in each arm; the difference
on less off, per pair of passes and in all, with 95% intervals (paired by state: each
state's difference summed over the pairs, a t interval on their sum; and over the
pairs); the "on" arm's long frames with no long frame of the same role in the same
state's window of the paired "off" pass (**added**), with what was in each (script by
function, style, layout, paint, garbage collection: the trace's ``MinorGC`` and
``MajorGC`` own time, so a collection is named as such), and the other way round (the
"off" arm's unmatched long frames: how often noise alone leaves one unmatched); and
(``EXTRA``) the thread time each state's window costs more with motion on, its own
frame and the others, by part.  The states of a pass share its load: the interval by
pairs is the one to quote (the one by states is too narrow when the load moves
between passes).  The first state of a pass (drawn with none before it: nothing
moves in either arm) is left out; a warm-up pass with motion on comes first, not
counted; each pass says how much of the motion code ran (an "off" pass: none).

    .venv/bin/python bench/bench_felt_states.py --record /tmp/states.json
    .venv/bin/python bench/bench_felt_motion.py --states /tmp/states.json [--pairs 4]
        [--gap 250] [--hand-gap 1000] [--rate 4] [--trace-dir DIR] [--json FILE]
        [--without sound] [--without animations]
    .venv/bin/python bench/bench_felt_motion.py --states /tmp/states.json --reread DIR...

(``--states`` a file not there yet: three hands are recorded into it first.)  A figure,
not a test: say the machine's load with it.  Figures: docs/dev/felt-frames.md.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path
from statistics import NormalDist
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from felt_trace import main_threads, trace_events

LONG_MS = 50.0
"""A long frame: over this many ms (the issue's line)."""

MEASURES = ("cpu", "wall")
"""A frame's length: the thread time of its tasks, or its wall-clock length."""

CATEGORIES = ["toplevel", "devtools.timeline", "blink.user_timing"]
"""Trace categories: tasks, frames, script, style/layout/paint, ``MinorGC``/``MajorGC``
(category ``devtools.timeline,v8``) and the page's measures."""

INVALIDATIONS = ["disabled-by-default-devtools.timeline",
                 "disabled-by-default-devtools.timeline.invalidationTracking"]
"""Added with ``--invalidations``: why each element was restyled or laid out again
(``StyleRecalcInvalidationTracking``, ``LayoutInvalidationTracking``: reason, element),
the layers made (``Layer:created``).  Traces several times larger, frames slower: for
reading one state's frame, not for the counts."""

GC = ("MinorGC", "MajorGC")
"""V8's collections as the trace names them (Oilpan's, Blink's heap, inside them)."""

PARTS = {"UpdateLayoutTree": "style", "Layout": "layout", "PrePaint": "paint",
         "Paint": "paint", "Layerize": "paint", "Commit": "paint",
         "IntersectionObserverController::computeIntersections": "observers"}
"""Trace event names and the part of a frame their own thread time is counted in; a
script's own time is ``script``, a collection's (and all inside it) ``gc``, the rest
``other`` (the task's own work outside any traced event, the browser's)."""

MOTION_FILES = ("motion.js", "sounds.js")
"""The animation and sound code's modules."""

REPLAY = """
window.drawOne = function drawOne() {
  const i = window.__i++;
  window.__hooks.render(window.__states[i], i ? window.__states[i - 1] : null);
  if (window.__i >= window.__states.length) { setTimeout(window.__done, window.__settle); return; }
  window.__due += window.__gaps[window.__i];
  setTimeout(drawOne, Math.max(0, window.__due - performance.now()));
};
(function () {
  const A = window.AudioContext;
  if (!A) return;
  window.__audio = [];
  window.AudioContext = class extends A {
    constructor(...args) { super(...args); window.__audio.push(this); } };
})();
"""
"""Draws the saved states in turn, each in a task of its own (``drawOne``: its name
finds the drawing in the trace), the next one ``__gaps[i]`` ms after the one before is
due (at once if late); ``__done`` ``__settle`` ms after the last.  Keeps the page's
AudioContexts (``__audio``) to say whether sound ran."""

PASS = """([off, settle]) => new Promise((done) => {
  if (off) document.documentElement.dataset.motion = 'none';
  else delete document.documentElement.dataset.motion;
  window.__i = 0; window.__done = done; window.__settle = settle;
  window.__due = performance.now();
  setTimeout(drawOne, 0);
})"""


# ------------------------------------------------------------------ the trace


def frames_of(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[float]]:
    """The page's main-thread frames in a trace's ``events`` and the times (µs, trace
    clock) the states were drawn (each ``drawOne`` call), in order.

    Each frame: ``start``/``end`` (µs), ``wall`` (ms: its length), ``cpu`` (ms: the
    thread time of the tasks that started in it), ``state`` (a state drawn in it),
    ``parts`` (ms of thread time by part: script, style, layout, paint, observers, gc,
    other), ``scripts`` (ms by the function the browser called, ``name@file:line``,
    style and layout it forced and collections inside it left out), ``gc`` (ms by
    ``MinorGC``/``MajorGC``), ``motion`` (ms: the thread time of the animation and
    sound modules' calls, and the wall time of the page's ``rollem-animate`` measures
    outside them, ``animate()`` in render: a rough figure, the measures hold pauses),
    ``work`` (counts by ``WORK``: what its rendering did, not how long it took)."""
    main = main_threads(events)
    on_main = [e for e in events if (e.get("pid"), e.get("tid")) in main]
    opened: float | None = None
    spans: list[tuple[float, float]] = []
    for e in sorted((e for e in on_main if e.get("name") == "AnimationFrame"
                     and e.get("ph") in ("b", "e")), key=lambda e: e["ts"]):
        if e["ph"] == "b":
            opened = e["ts"]
        elif opened is not None:
            spans.append((opened, e["ts"]))
            opened = None
    measures: list[tuple[float, float]] = []
    begun: dict[Any, float] = {}
    for e in sorted((e for e in on_main if e.get("name") == "rollem-animate"
                     and e.get("ph") in ("b", "e")), key=lambda e: e["ts"]):
        key = e.get("id") or json.dumps(e.get("id2"))
        if e["ph"] == "b":
            begun[key] = e["ts"]
        elif key in begun:
            measures.append((begun.pop(key), e["ts"]))
    timed = sorted((e for e in on_main if e.get("ph") == "X" and "tdur" in e),
                   key=lambda e: (e["ts"], -e.get("dur", 0)))
    own_calls: list[tuple[float, float]] = []   # the motion modules' calls (µs)
    tasks: list[dict[str, Any]] = []   # top-level events, each with its parts
    draws: list[float] = []
    stack: list[dict[str, Any]] = []
    for e in timed:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1].get("dur", 0):
            stack.pop()
        parent = stack[-1] if stack else None
        if parent is not None:
            parent["_kids"] = parent.get("_kids", 0) + e["tdur"]
            e["_top"] = parent["_top"]
            e["_gc"] = parent["_gc"] or e["name"] in GC
            e["_call"] = parent["_call"]
        else:
            e["_top"] = e
            e["_gc"] = e["name"] in GC
            e["_call"] = None
            e["_parts"], e["_scripts"], e["_gcs"] = {}, {}, {}
            e["_motion"] = 0.0
            e["_state"] = False
            e["_work"] = {}
            tasks.append(e)
        if e["name"] == "FunctionCall":
            data = (e.get("args") or {}).get("data") or {}
            if e["_call"] is None:
                where = str(data.get("url") or "").rsplit("/", 1)[-1]
                e["_call"] = f"{data.get('functionName') or '?'}@{where}:{data.get('lineNumber')}"
                if where in MOTION_FILES:
                    e["_top"]["_motion"] += e["tdur"] / 1000
                    own_calls.append((e["ts"], e["ts"] + e.get("dur", 0)))
            if data.get("functionName") == "drawOne":
                e["_top"]["_state"] = True
                draws.append(e["ts"])
        counted = work_of(e)
        if counted and e["_call"] and e["name"] in ("UpdateLayoutTree", "Layout"):
            counted = {**counted, "forced": 1}
        if counted:
            top_work = e["_top"]["_work"]
            for k, v in counted.items():
                top_work[k] = top_work.get(k, 0) + v
        if e["_gc"] and e["name"] in GC and not (parent and parent["_gc"]):
            gcs = e["_top"]["_gcs"]
            gcs[e["name"]] = gcs.get(e["name"], 0.0) + e["tdur"] / 1000
        stack.append(e)
    for e in timed:   # each event's own thread time, into its task's parts
        own = max(0, e["tdur"] - e.get("_kids", 0)) / 1000
        part = ("gc" if e["_gc"] else PARTS.get(e["name"])
                or ("script" if e["_call"] else "other"))
        top = e["_top"]
        top["_parts"][part] = top["_parts"].get(part, 0.0) + own
        if part == "script" and e["_call"]:
            top["_scripts"][e["_call"]] = top["_scripts"].get(e["_call"], 0.0) + own
    starts = [t["ts"] for t in tasks]
    out = []
    for begin, end in spans:
        inside = tasks[bisect.bisect_left(starts, begin):bisect.bisect_right(starts, end)]
        parts: dict[str, float] = {}
        scripts: dict[str, float] = {}
        gcs: dict[str, float] = {}
        work: dict[str, int] = {}
        for t in inside:
            for k, v in t["_work"].items():
                work[k] = work.get(k, 0) + v
            for got, into in ((t["_parts"], parts), (t["_scripts"], scripts), (t["_gcs"], gcs)):
                for k, v in got.items():
                    into[k] = into.get(k, 0.0) + v
        marked = sum((b - a) / 1000 for a, b in measures if begin <= a <= end
                     and not any(c <= a < d for c, d in own_calls))
        out.append({"start": begin, "end": end, "wall": (end - begin) / 1000,
                    "cpu": sum(t["tdur"] for t in inside) / 1000,
                    "state": any(t["_state"] for t in inside),
                    "parts": parts, "scripts": scripts, "gc": gcs,
                    "motion": sum(t["_motion"] for t in inside) + marked,
                    "work": work})
    return out, sorted(draws)


WORK = ("styled", "laid_out", "layouts", "paints", "forced")
"""What a frame's rendering did, counted from the trace (not timed): elements whose
style was worked out (``UpdateLayoutTree``'s ``elementCount``), layout objects laid
out again (``Layout``'s ``dirtyObjects``), layouts, paints (``Paint`` events), and
the style recalculations and layouts a script made the browser do then and there
(``forced``: ``UpdateLayoutTree`` and ``Layout`` events inside a script's call; stop
51's settle made 23 in the state after a 10-seat deal, 12 and 11, drawn still 0)."""


def work_of(e: dict[str, Any]) -> dict[str, int]:
    """What the trace event ``e`` counts toward a frame's ``WORK`` (empty: nothing)."""
    args = e.get("args") or {}
    if e["name"] == "UpdateLayoutTree":
        return {"styled": int(args.get("elementCount") or 0)}
    if e["name"] == "Layout":
        return {"layouts": 1,
                "laid_out": int((args.get("beginData") or {}).get("dirtyObjects") or 0)}
    if e["name"] == "Paint":
        return {"paints": 1}
    return {}


def motion_activity(events: list[dict[str, Any]]) -> dict[str, int]:
    """How much of the animation and sound code ran in a trace: the scripts of its
    modules the browser called (``calls``) and the CSS animations started
    (``animations``, the trace's ``Animation`` begin events).  An "off" pass: 0 and 0."""
    calls = sum(1 for e in events if e.get("name") == "FunctionCall" and e.get("ph") == "X"
                and str(((e.get("args") or {}).get("data") or {}).get("url") or "")
                .rsplit("/", 1)[-1] in MOTION_FILES)
    started = sum(1 for e in events if e.get("name") == "Animation" and e.get("ph") == "b")
    return {"calls": calls, "animations": started}


def windows(frames: list[dict[str, Any]], draws: list[float]) -> list[list[dict[str, Any]]]:
    """The frames of each state's window (from its drawing, ``draws[i]``, to the next
    one's; the last to the trace's end), in order; frames before the first drawing
    are left out."""
    out: list[list[dict[str, Any]]] = [[] for _ in draws]
    for f in frames:
        # (a frame holding drawing i starts before it: its first task may be another)
        i = bisect.bisect_right(draws, f["end"] if f["state"] else f["start"]) - 1
        if i >= 0:
            out[i].append(f)
    return out


# ------------------------------------------------------------------ the pairs


def long_frames(window: list[dict[str, Any]], measure: str) -> list[dict[str, Any]]:
    """The frames of ``window`` over ``LONG_MS`` by ``measure`` (``cpu`` or ``wall``)."""
    return [f for f in window if f[measure] > LONG_MS]


def unmatched(mine: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The long frames ``mine`` of one state's window with no counterpart in the
    paired pass's window ``theirs``: by role (``state``: the state drawn in it, else
    ``between``), in time order, the k-th of a role in ``mine`` is matched by the k-th
    of that role in ``theirs``; those past ``theirs``' count are left."""
    left = []
    for role in (True, False):
        a = [f for f in mine if f["state"] is role]
        b = [f for f in theirs if f["state"] is role]
        left.extend(a[len(b):])
    return sorted(left, key=lambda f: f["start"])


def with_counterpart(f: dict[str, Any], theirs: list[dict[str, Any]],
                     measure: str) -> dict[str, Any]:
    """``f`` with ``counterpart``: the ``measure`` (ms) of each frame of its role in
    the paired pass's window ``theirs`` (long or not), longest first; and
    ``counterpart_work``: those frames' ``WORK`` counts summed (the same counts as
    ``f``'s own: the same work done slower, or more work)."""
    same = [g for g in theirs if g["state"] is f["state"]]
    work: dict[str, int] = {}
    for g in same:
        for k, v in g.get("work", {}).items():
            work[k] = work.get(k, 0) + v
    return {**f, "counterpart": sorted((round(g[measure], 1) for g in same), reverse=True),
            "counterpart_work": work}


def by_role(frames: list[dict[str, Any]], measure: str) -> dict[str, int]:
    """How many of ``frames`` held a state's drawing (``state``), how many not
    (``between``), and how many were over ``LONG_MS`` by ``measure`` only with the
    collections in them (``gc_made``: 50 ms or under without their MinorGC/MajorGC
    thread time)."""
    return {"state": sum(1 for f in frames if f["state"]),
            "between": sum(1 for f in frames if not f["state"]),
            "gc_made": sum(1 for f in frames if f[measure] - sum(f["gc"].values()) <= LONG_MS)}


def t975(df: int) -> float:
    """The 97.5th percentile of Student's t with ``df`` degrees of freedom (``df`` 1
    or more): a table to 30, then the Cornish-Fisher expansion (within 0.001)."""
    table = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
             2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
             2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
    if df < 1:
        raise ValueError(f"t975 needs 1 or more degrees of freedom, got {df}")
    if df <= len(table):
        return table[df - 1]
    z = NormalDist().inv_cdf(0.975)
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def interval(values: list[float], scale: float = 1.0) -> list[float]:
    """[mean, low, high]: a 95% t interval of the mean of ``values`` times ``scale``
    (one value, or all equal: the mean twice)."""
    n = len(values)
    if n == 0:
        return [0.0, 0.0, 0.0]
    mean = sum(values) / n
    if n == 1:
        return [mean * scale] * 3
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return [mean * scale, (mean - half) * scale, (mean + half) * scale]


def compare(on: list[list[list[dict[str, Any]]]], off: list[list[list[dict[str, Any]]]],
            measure: str, skip_first: bool = True) -> dict[str, Any]:
    """The arms compared by ``measure``: ``on[k][i]`` and ``off[k][i]``, the frames of
    state i's window in pair k's pass with motion on and off (the same states, so the
    same number of windows).

    Returns ``on``/``off`` (long frames per pass), ``difference`` (on less off, per
    pair), ``per_pass`` ([mean, low, high]: the mean difference per pass with a 95%
    interval paired by state: each state's difference summed over the pairs, a t
    interval on the sum over states, over the pairs), ``per_pass_by_pairs`` (the
    same, a t interval over the pairs' differences), ``added``/``removed`` (the "on"
    arm's unmatched long frames, and the "off" arm's: how often noise alone leaves one
    unmatched) per pass, and ``added_upper`` (with none added: 3 / pairs, the 95% upper
    bound of added frames a pass by the rule of three; else null)."""
    if len(on) != len(off) or not on:
        raise ValueError(f"compare needs as many 'on' passes as 'off' ones, and one or"
                         f" more: got {len(on)} and {len(off)}")
    first = 1 if skip_first else 0
    pairs = len(on)
    n = len(on[0])
    per_state = [0.0] * n
    diff: list[int] = []
    added: list[list[tuple[int, dict[str, Any]]]] = []
    removed: list[list[tuple[int, dict[str, Any]]]] = []
    on_long, off_long = [], []
    for a, b in zip(on, off, strict=True):
        if len(a) != n or len(b) != n:
            raise ValueError(f"every pass needs {n} state windows: got {len(a)} and {len(b)}")
        la = [long_frames(w, measure) for w in a]
        lb = [long_frames(w, measure) for w in b]
        on_long.append(sum(len(x) for x in la[first:]))
        off_long.append(sum(len(x) for x in lb[first:]))
        diff.append(on_long[-1] - off_long[-1])
        for i in range(first, n):
            per_state[i] += len(la[i]) - len(lb[i])
        added.append([(i, with_counterpart(f, b[i], measure))
                      for i in range(first, n) for f in unmatched(la[i], lb[i])])
        removed.append([(i, with_counterpart(f, a[i], measure))
                        for i in range(first, n) for f in unmatched(lb[i], la[i])])
    states = per_state[first:]
    # the total's interval from the states' (the sum of n values: n times their mean)
    per_pass = interval(states, scale=len(states) / pairs)
    total_added = sum(len(x) for x in added)
    return {"measure": measure, "pairs": pairs, "states": len(states),
            "on": on_long, "off": off_long, "difference": diff,
            "per_pass": [round(v, 2) for v in per_pass],
            "per_pass_by_pairs": [round(v, 2) for v in interval([float(d) for d in diff])],
            "added": [len(x) for x in added], "removed": [len(x) for x in removed],
            "added_upper": round(3 / pairs, 2) if total_added == 0 else None,
            # the unmatched frames by role, and those a collection made long (50 ms or
            # under without the MinorGC/MajorGC time in them)
            "added_by_role": by_role([f for x in added for _, f in x], measure),
            "removed_by_role": by_role([f for x in removed for _, f in x], measure),
            "added_frames": [[k, i, f] for k, x in enumerate(added) for i, f in x],
            "removed_frames": [[k, i, f] for k, x in enumerate(removed) for i, f in x]}


def extra_cost(on: list[list[list[dict[str, Any]]]], off: list[list[list[dict[str, Any]]]],
               skip_first: bool = True) -> dict[str, Any]:
    """What motion costs each state's window, long frames or not: the thread time
    (ms) of the state's own frame(s) (``state``) and of the window's other frames
    (``between``), on less off, by part, the mean over states and pairs; and
    ``state_cpu``/``between_cpu``: [mean, low, high], a 95% interval over states (each
    state's mean over the pairs)."""
    first = 1 if skip_first else 0
    out: dict[str, Any] = {}
    for role, name in ((True, "state"), (False, "between")):
        parts: dict[str, float] = {}
        per_state: list[float] = []
        for i in range(first, len(on[0])):
            d = 0.0
            for a, b in zip(on, off, strict=True):
                for sign, w in ((1, a[i]), (-1, b[i])):
                    for f in w:
                        if f["state"] is not role:
                            continue
                        d += sign * f["cpu"]
                        for k, v in f["parts"].items():
                            parts[k] = parts.get(k, 0.0) + sign * v
            per_state.append(d / len(on))
        n = max(1, len(per_state) * len(on))
        out[name] = {k: round(v / n, 2) for k, v in sorted(parts.items(), key=lambda kv: -kv[1])}
        out[f"{name}_cpu"] = [round(v, 2) for v in interval(per_state)]
    return out


def work_compare(on: list[list[list[dict[str, Any]]]], off: list[list[list[dict[str, Any]]]],
                 skip_first: bool = True) -> dict[str, Any]:
    """Whether a state's own frame does more rendering work with motion on: for each
    pair and state, the ``WORK`` counts of the state's frame(s) in each arm.

    Returns, per count, ``on``/``off`` (the mean over states and pairs), ``more``/
    ``less`` (how many (pair, state) had a higher/lower count on than off) and
    ``cases`` (how many were compared); and ``differ`` (up to 10 [pair, state, on,
    off] where some count differed).  Equal counts: the same elements styled, the
    same objects laid out, as many paints; what costs more then is the time the same
    work took, not more work."""
    first = 1 if skip_first else 0
    sums = {k: [0, 0, 0, 0] for k in WORK}   # on, off, more, less
    cases = 0
    differ: list[list[Any]] = []
    for k, (a, b) in enumerate(zip(on, off, strict=True)):
        for i in range(first, min(len(a), len(b))):
            got = []
            for w in (a[i], b[i]):
                tot = dict.fromkeys(WORK, 0)
                for f in w:
                    if f["state"]:
                        for key, v in f.get("work", {}).items():
                            tot[key] = tot.get(key, 0) + v
                got.append(tot)
            cases += 1
            for key in WORK:
                s = sums[key]
                s[0] += got[0][key]
                s[1] += got[1][key]
                s[2] += got[0][key] > got[1][key]
                s[3] += got[0][key] < got[1][key]
            if got[0] != got[1] and len(differ) < 10:
                differ.append([k, i, got[0], got[1]])
    n = max(1, cases)
    return {"cases": cases, "differ": differ,
            **{key: {"on": round(s[0] / n, 1), "off": round(s[1] / n, 1),
                     "more": s[2], "less": s[3]} for key, s in sums.items()}}


def described(f: dict[str, Any]) -> dict[str, Any]:
    """A long frame in words: its lengths, role, parts (ms), top scripts, collections."""
    top = sorted(f["scripts"].items(), key=lambda kv: -kv[1])[:4]
    return {"cpu_ms": round(f["cpu"], 1), "wall_ms": round(f["wall"], 1),
            "role": "state" if f["state"] else "between",
            "motion_ms": round(f["motion"], 1),
            "parts": {k: round(v, 1) for k, v in sorted(f["parts"].items(),
                                                          key=lambda kv: -kv[1]) if v >= 0.5},
            "scripts": {k: round(v, 1) for k, v in top if v >= 0.1},
            "counterpart": f.get("counterpart"),
            "work": f.get("work", {}), "counterpart_work": f.get("counterpart_work", {}),
            "gc": {k: round(v, 1) for k, v in f["gc"].items()}}


# ------------------------------------------------------------------ the browser


def gaps(states: list[dict[str, Any]], gap: float, hand_gap: float) -> list[float]:
    """Ms from each state's drawing to the one before it (the first: 0): ``hand_gap``
    before a new hand's first state, else ``gap``."""
    from bench_felt_states import kind_of

    return [0.0] + [hand_gap if kind_of(s, states[i - 1]) == "deal" else gap
                    for i, s in enumerate(states) if i]


WITHOUT = {
    "sound": "localStorage.setItem('rollem_alerts', '0');",
    "animations": "*, *::before, *::after { animation: none !important; }"
                  " .flying-chips { display: none !important; }",
}
"""What ``--without`` takes out of the page in both arms (a split of what motion on
costs, not a change to either arm's switch; a script run first, or a constructed
style sheet adopted once the page is there): ``sound``, the page's sound left off (no
AudioContext, no sound played or asked for; motion.js still runs); ``animations``,
every CSS animation off and the flying chips not shown (motion.js still marks,
starts, launches and plays: its script and sounds without the browser's animating)."""


MOTION = {
    "auto": "localStorage.removeItem('rollem_motion');",
    "on": "localStorage.setItem('rollem_motion', 'on');",
}
"""The felt's motion setting in the page (its motion button, motion.js), both arms:
``auto`` (never pressed: the animations run until a frame over 50 ms while something
moves turns them off for the page, slowframes.js), ``on`` (the player's "on": they run
whatever the frames).  A tree without the button ignores it."""

FELT_MOTION = """() => { const b = document.getElementById('motion-btn');
  return b ? (b.dataset.why || '') + (b.getAttribute('aria-pressed') === 'true' ? ':on' : ':off')
           : 'none'; }"""
"""The motion button's reason and state after a pass (``slow:off``: turned off by a long
frame; ``none``: a tree without the button)."""


def run(states: list[dict[str, Any]], pairs: int, gap: float, hand_gap: float,
        rate: float, trace_dir: Path | None, without: tuple[str, ...] = (),
        invalidations: bool = False, motion: str = "auto") -> dict[str, Any]:
    """Draw ``states`` in one page: a warm-up pass, then ``pairs`` pairs of passes with
    motion on and off (ABBA), each traced; returns each pass's state windows, the
    load and whether sound ran.  ``without``: names of ``WITHOUT``, taken out of the
    page in both arms; ``invalidations``: the ``INVALIDATIONS`` categories traced too;
    ``motion``: the felt's motion setting (``MOTION``) in the page, both arms."""
    from playwright.sync_api import sync_playwright
    from table_ui import ARGS, CHROMIUM, PHONE, sit_with_enter
    from web_harness import ServerThread

    from bench_felt_states import new_table
    from rollem.server.app import host_cookie

    settle = 1500
    passes: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as d, sync_playwright() as pw:
        live = ServerThread(Path(d) / "bench.db")
        try:
            tid, cookie = new_table(live)
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                      reduced_motion="no-preference")
            ctx.add_cookies([{"name": host_cookie(tid), "value": cookie, "url": live.url}])
            ctx.add_init_script("localStorage.setItem('rollem_alerts', '1');")
            if "sound" in without:
                ctx.add_init_script(WITHOUT["sound"])
            ctx.add_init_script(MOTION[motion])
            ctx.add_init_script(REPLAY)
            page = ctx.new_page()
            page.goto(f"{live.url}/t/{tid}")
            if "animations" in without:   # (constructed: the page's CSP refuses inline sheets)
                page.evaluate("""(css) => { const s = new CSSStyleSheet(); s.replaceSync(css);
                  document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }""",
                              WITHOUT["animations"])
            sit_with_enter(page, "Ann")   # (its keys: the gesture that starts the sound)
            page.evaluate("""async ([states, gaps]) => {
              const m = await import('/static/table/state.js');
              m.abandon();   // (no state of its own from now on)
              window.__hooks = m.hooks; window.__states = states; window.__gaps = gaps;
            }""", [states, gaps(states, gap, hand_gap)])
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            page.evaluate(PASS, [False, settle])   # warm-up, not counted
            print(f"WARM-UP felt_motion={page.evaluate(FELT_MOTION)}", flush=True)
            order = [arm for k in range(pairs)
                     for arm in (("on", "off") if k % 2 == 0 else ("off", "on"))]
            for n, arm in enumerate(order):
                cdp.send("HeapProfiler.collectGarbage")
                page.wait_for_timeout(300)
                load = os.getloadavg()[0]
                browser.start_tracing(page=page, categories=CATEGORIES
                                     + (INVALIDATIONS if invalidations else []))
                began = time.monotonic()
                page.evaluate(PASS, [arm == "off", settle])
                trace = browser.stop_tracing()
                if trace_dir:
                    trace_dir.mkdir(parents=True, exist_ok=True)
                    (trace_dir / f"pass{n}-{arm}.json").write_bytes(trace)
                events = trace_events(trace)
                frames, draws = frames_of(events)
                got = windows(frames, draws)
                ran = motion_activity(events)
                felt = page.evaluate(FELT_MOTION)
                passes.append({"felt_motion": felt, "arm": arm, "load": [round(load, 2),
                                                    round(os.getloadavg()[0], 2)],
                               "seconds": round(time.monotonic() - began, 1),
                               "drawn": len(draws), "frames": len(frames), "motion": ran,
                               "windows": got})
                print(f"PASS {n} {arm:<3} drawn={len(draws)} frames={len(frames)}"
                      f" motion_calls={ran['calls']} animations={ran['animations']}"
                      f" felt_motion={felt} "
                      + " ".join(f"over50_{m}={sum(len(long_frames(w, m)) for w in got[1:])}"
                                 for m in MEASURES)
                      + f" load={passes[-1]['load'][0]}->{passes[-1]['load'][1]}", flush=True)
            audio = page.evaluate("(window.__audio || []).map((a) => a.state)")
            browser.close()
        finally:
            live.stop()
    if trace_dir:   # what --reread needs besides the traces
        (trace_dir / "passes.json").write_text(json.dumps({"audio": audio, "passes": [
            {k: v for k, v in p.items() if k != "windows"} for p in passes]}))
    return {"passes": passes, "audio": audio}


def reread(trace_dirs: list[Path]) -> dict[str, Any]:
    """Runs' passes again from the traces their ``--trace-dir`` kept (no browser),
    several runs' pooled (their pairs one after the other)."""
    passes: list[dict[str, Any]] = []
    audio: list[str] = []
    for trace_dir in trace_dirs:
        kept = json.loads((trace_dir / "passes.json").read_text())
        for n, p in enumerate(kept["passes"]):
            events = trace_events((trace_dir / f"pass{n}-{p['arm']}.json").read_bytes())
            frames, draws = frames_of(events)
            p["windows"] = windows(frames, draws)
            p["motion"] = motion_activity(events)
            passes.append(p)
        audio += kept["audio"]
    return {"passes": passes, "audio": audio}


def why(events: list[dict[str, Any]], begin: float, end: float) -> dict[str, int]:
    """Why elements were restyled and laid out again between ``begin`` and ``end`` (µs,
    trace clock) on the page's main thread: the ``INVALIDATIONS`` events counted by
    ``"style: <reason>: <element>"`` and ``"layout: <reason>"`` (the element as the
    trace names it, its id and node number left out: ``SPAN class='cards deal-in'``)."""
    main = main_threads(events)
    out: dict[str, int] = {}
    for e in events:
        if (e.get("pid"), e.get("tid")) not in main or not begin <= e.get("ts", -1) <= end:
            continue
        data = (e.get("args") or {}).get("data") or {}
        if e.get("name") == "StyleRecalcInvalidationTracking":
            node = " ".join(w for w in str(data.get("nodeName") or "?").split()
                            if not w.startswith("id="))
            key = f"style: {data.get('reason')}: {node}"
        elif e.get("name") == "LayoutInvalidationTracking":
            key = f"layout: {data.get('reason')}"
        else:
            continue
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def explain(trace_dirs: list[Path], states: list[int]) -> None:
    """Print, for each kept pass and each state in ``states``, why its own frame(s)
    restyled and laid out what they did (``why``; the passes traced with
    ``--invalidations``, else nothing to say)."""
    for trace_dir in trace_dirs:
        kept = json.loads((trace_dir / "passes.json").read_text())
        for n, p in enumerate(kept["passes"]):
            events = trace_events((trace_dir / f"pass{n}-{p['arm']}.json").read_bytes())
            frames, draws = frames_of(events)
            got = windows(frames, draws)
            for i in states:
                for f in (g for g in got[i] if g["state"]) if i < len(got) else ():
                    reasons = why(events, f["start"], f["end"])
                    print(f"WHY pass {n} {p['arm']} state {i}: cpu {f['cpu']:.1f}"
                          f" {json.dumps(f.get('work', {}))}"
                          f" {json.dumps(dict(list(reasons.items())[:10]))}")


def report(got: dict[str, Any], states: list[dict[str, Any]],
           args: argparse.Namespace) -> dict[str, Any]:
    """The figures of a run (``run``'s passes), per measure, printed and returned."""
    from bench_felt_states import kind_of

    passes = got["passes"]
    n_states = len(states)
    for p in passes:
        if p["drawn"] != n_states:
            raise SystemExit(f"a pass drew {p['drawn']} states, not {n_states}: its trace"
                             " lost some (a trace buffer full?); run again")
    pairs = len(passes) // 2
    on = [p["windows"] for p in passes if p["arm"] == "on"]
    off = [p["windows"] for p in passes if p["arm"] == "off"]
    kinds = [None] + [kind_of(states[i], states[i - 1]) for i in range(1, n_states)]
    out: dict[str, Any] = {"rate": args.rate, "gap_ms": args.gap, "hand_gap_ms": args.hand_gap,
                           "without": sorted(args.without or []),
                           "motion": getattr(args, "motion", "auto"),
                           "pairs": pairs, "states": n_states, "audio": got["audio"],
                           "load": [p["load"] for p in passes],
                           "arms": [p["arm"] for p in passes],
                           "motion_by_pass": [p.get("motion") for p in passes]}
    for p in passes:   # the "off" arm must be off: nothing of motion.js ran, nothing moved
        if p["arm"] == "off" and p.get("motion") and any(p["motion"].values()):
            print(f"WARNING: an 'off' pass ran motion code: {p['motion']}")
    print(f"\nwithout (both arms): {', '.join(out['without']) or 'nothing'};"
          f" sound: AudioContext {got['audio'] or 'none made'}; load by pass "
          + " ".join(f"{p['arm']}:{p['load'][0]}" for p in passes))
    for m in MEASURES:
        c = compare(on, off, m)
        print(f"SUMMARY {m:<4} over50 on={c['on']} off={c['off']} on-off={c['difference']}"
              f" per pass: {c['per_pass'][0]:+.2f} [{c['per_pass'][1]:+.2f}, "
              f"{c['per_pass'][2]:+.2f}] (95%, paired by state),"
              f" [{c['per_pass_by_pairs'][1]:+.2f}, {c['per_pass_by_pairs'][2]:+.2f}]"
              f" (by pairs); added={c['added']} {json.dumps(c['added_by_role'])}"
              f" removed={c['removed']} {json.dumps(c['removed_by_role'])}"
              + (f" added<= {c['added_upper']}/pass (95%)" if c["added_upper"] is not None
                 else ""))
        for label, key in (("added", "added_frames"), ("removed", "removed_frames")):
            c[key] = [{"pair": k, "state": i, "kind": kinds[i], **described(f)}
                      for k, i, f in c[key]]
            if m == "cpu":
                for f in c[key]:
                    print(f"  {label} pair {f['pair']} state {f['state']} ({f['kind']})"
                          f" {f['role']}: cpu {f['cpu_ms']} wall {f['wall_ms']}"
                          f" (paired: {f['counterpart']})"
                          f" motion {f['motion_ms']} parts={json.dumps(f['parts'])}"
                          f" work={json.dumps(f['work'])}"
                          f" (paired: {json.dumps(f['counterpart_work'])})"
                          f" scripts={json.dumps(f['scripts'])} gc={json.dumps(f['gc'])}")
        out[m] = c
    extra = extra_cost(on, off)
    out["extra_cost_ms"] = extra
    print(f"EXTRA thread ms a state, on less off (mean [95%] over states): own frame"
          f" {extra['state_cpu'][0]:+.1f} [{extra['state_cpu'][1]:+.1f},"
          f" {extra['state_cpu'][2]:+.1f}] {json.dumps(extra['state'])};"
          f" other frames {extra['between_cpu'][0]:+.1f} [{extra['between_cpu'][1]:+.1f},"
          f" {extra['between_cpu'][2]:+.1f}] {json.dumps(extra['between'])}")
    work = work_compare(on, off)
    out["work"] = work
    print(f"WORK a state's own frame, on vs off ({work['cases']} pairs of frames): "
          + "; ".join(f"{k} {work[k]['on']} vs {work[k]['off']} (more on {work[k]['more']},"
                      f" less {work[k]['less']})" for k in WORK))
    for k, i, a, b in work["differ"]:
        print(f"  differs pair {k} state {i}: on {json.dumps(a)} off {json.dumps(b)}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=Path, required=True,
                    help="the states to draw (bench_felt_states.py --record); recorded"
                         " first if the file is not there")
    ap.add_argument("--pairs", type=int, default=4,
                    help="pairs of passes, motion on and off (ABBA)")
    ap.add_argument("--gap", type=float, default=250.0,
                    help="ms from one state's drawing to the next (the computer players' pace)")
    ap.add_argument("--hand-gap", type=float, default=1000.0,
                    help="ms before a new hand's first state (the pause between hands)")
    ap.add_argument("--rate", type=float, default=4.0, help="CPU slow-down (4 = a slow phone)")
    ap.add_argument("--first", type=int, default=0,
                    help="draw only the first N states (a quick try; 0: all)")
    ap.add_argument("--trace-dir", type=Path, help="keep each pass's Chromium trace here")
    ap.add_argument("--reread", type=Path, nargs="+",
                    help="no browser: the figures again from the traces runs kept in these"
                         " folders (their --trace-dir; the same --states), pooled")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--without", choices=sorted(WITHOUT), action="append",
                    help="take this out of the page in both arms (repeatable): sound (the"
                         " page's sound off) or animations (every CSS animation off, no"
                         " flying chips shown): what is left of on less off is the rest's")
    ap.add_argument("--motion", choices=sorted(MOTION), default="auto",
                    help="the felt's motion setting in both arms: auto (the default: off"
                         " for the page after a frame over 50 ms while something moves) or"
                         " on (the player's on: the animations whatever the frames)")
    ap.add_argument("--why", type=int, nargs="+", metavar="STATE",
                    help="with --reread: why these states' own frames restyled and laid out"
                         " what they did, pass by pass (traces taken with --invalidations)")
    ap.add_argument("--invalidations", action="store_true",
                    help="trace why each element is restyled and laid out again too (with"
                         " --trace-dir, to read a state's frame; slower, not for the counts)")
    args = ap.parse_args()
    if args.pairs < 1:
        ap.error(f"--pairs must be 1 or more, got {args.pairs}")
    if args.gap < 0 or args.hand_gap < 0:
        ap.error("--gap and --hand-gap are ms, 0 or more")
    if not args.states.exists() and not args.reread:
        import subprocess

        subprocess.run([sys.executable, str(Path(__file__).with_name("bench_felt_states.py")),
                        "--record", str(args.states)], check=True)
    states = json.loads(args.states.read_text())[:args.first or None]
    started = os.getloadavg()[0]
    if args.why and not args.reread:
        ap.error("--why reads kept traces: give --reread DIR too")
    if args.reread and args.why:
        explain(args.reread, args.why)
    if args.reread:
        got = reread(args.reread)
    else:
        got = run(states, args.pairs, args.gap, args.hand_gap, args.rate, args.trace_dir,
                  tuple(args.without or ()), args.invalidations, args.motion)
    figures = report(got, states, args)
    figures["load_start_end"] = [round(started, 2), round(os.getloadavg()[0], 2)]
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
