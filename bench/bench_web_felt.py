"""Frames the felt's drawing, animation and sound take on a slow phone (issue 26):
a 10-seat hold'em table (one person, nine computer players that bet) played in
Debian's Chromium at 390x844 with the CPU slowed 4 times (Chrome DevTools
Protocol ``Emulation.setCPUThrottlingRate``), sound on.

Counts, over ``--hands`` hands, how long each drawing of a state took (the
page's ``rollem-render`` measure: render(state, previous), animations started;
its ``detail`` says a new hand ``deal``, a hand's ``end`` or another ``state``),
the motion code's own part of it (``rollem-animate``), the side panels drawn in
a later task for a state that changes everything (``rollem-render-late``), the
frames the page drew (``requestAnimationFrame`` intervals) and those longer than
50 ms, and the long animation frames Chromium reports (``long-animation-frame``,
each over 50 ms), each split into what it was: scripts by caller (the state's
message: render; the task after a paint; a rAF callback; the clocks' timer),
the style and layout they forced, the time of its tasks outside any script over
5 ms (garbage collection, the browser's own work, small scripts, and on a loaded
machine the time waiting for a core), the render steps before style (rAF
callbacks, animation updates, observers) and style, layout and paint.  Once with
motion and once with ``prefers-reduced-motion: reduce`` (no animation: the
drawing alone), ``--rounds`` times in turn (ABAB: the load hits both alike).

What "the animation and sound code adds" to a long frame: its own script time in
it (the ``rollem-animate`` measures: ``animate()`` in render, the chip flights'
start after the paint), and whether the frame would be 50 ms or under without it
(``motion_made``); ``motion_code`` reads it directly from LoAF: long frames
holding any of that code's script (the entries LoAF names by ``sourceURL`` in its
modules, ``MOTION_MODULES``, and its measures inside others' scripts) and,
first, how many of them would be 50 ms or under without it (``made/with``: the
goal, "adds no frame over 50 ms", is 0 made); ``motion_made_at_most`` also
takes out the frame's render steps before style, where the browser ticks running
animations (an upper bound: observers and rAF callbacks' own work are there
too).  The browser's style, pre-paint and paint at each frame an animation runs
are not script: they are the motion-on run's ``--cpu`` parts less the reduced run's.

Each run prints one line (``RUN``), then each run's long frames in parts and
its longest frames, then one ``SUMMARY`` line per kind of run.  ``--nodes``
counts the elements each part of the page adds (how much a state's drawing
rebuilds; its observer costs the page a little script).  ``--css RULE``
adds a run with that style added (an experiment: one kind of motion turned off);
``--idle`` a run of the same page with no hand dealt, as long as the first run
(the frames over 50 ms the machine's load makes alone); ``--cpu`` traces the
page and counts its main-thread tasks and its frames by thread time (a throttled
thread's time holds the slow-down: roughly what they would last on a quiet
machine, a figure the load moves less; ``cpu_frames_over50``: frames over 50 ms
so counted, those holding a state's drawing, with an animation running or
starting), with what the tasks over 50 ms were (trace events' own thread time by
name: ``UpdateLayoutTree`` style, ``PrePaint``, ``Paint``, ``FunctionCall``
script...); ``--trace-dir`` keeps those traces (open them in Chrome DevTools'
Performance panel). ``--no-raf`` leaves the frame counter out of the hand runs:
its ``requestAnimationFrame`` loop asks Chromium for a main-thread frame at
every vsync, in which every running animation is ticked and styled (the
compositor's transform and opacity animations too, which without such a loop ask
for none); the long frames are then Chromium's long animation frames (``loaf=``)
alone.
Figures: docs/dev/felt-frames.md.

    .venv/bin/python bench/bench_web_felt.py [--hands 3] [--rounds 2] [--rate 4] [--idle]
        [--cpu [--trace-dir DIR]] [--css RULE] [--nodes] [--no-raf] [--json FILE]

A figure, not a test: the machine's load changes it (say it with the figures).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from table_ui import ARGS, CHROMIUM, PHONE, decision_kind, sit_with_enter
from web_harness import BettingBot, ServerThread

from felt_trace import main_threads, timed_on_main, trace_events
from rollem.server.app import host_cookie

WATCH = """
localStorage.setItem('rollem_alerts', '1');
window.__frames = []; window.__loaf = []; window.__render = []; window.__late = [];
window.__marks = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) {
  if (e.name === 'rollem-render') window.__render.push(e.duration);
  if (e.name === 'rollem-render-late') window.__late.push(e.duration);
  if (e.name.startsWith('rollem-'))
    window.__marks.push({n: e.name, s: e.startTime, d: e.duration, k: e.detail || null}); } })
  .observe({type: 'measure'});
// The frame counter (a requestAnimationFrame loop: it asks Chromium for a main-thread
// frame at every vsync, in which every running animation is ticked and styled, the
// compositor's too); off with --no-raf (the long frames then from LoAF alone).
if (!window.__noRaf) (function tick(last) { requestAnimationFrame(now => {
  if (last) window.__frames.push(now - last); tick(now); }); })(0);
try {
  // Long animation frames (Chromium's LoAF API): each frame over 50 ms, its scripts
  // (who called them, how long, the style and layout they forced) and its rendering.
  new PerformanceObserver(list => { for (const e of list.getEntries())
    window.__loaf.push({s: e.startTime, d: e.duration, block: e.blockingDuration,
      render: e.renderStart, sal: e.styleAndLayoutStart,
      scripts: (e.scripts || []).map(x => ({inv: x.invoker, type: x.invokerType,
        fn: x.sourceFunctionName, src: x.sourceURL, s: x.startTime, d: x.duration,
        forced: x.forcedStyleAndLayoutDuration}))}); })
    .observe({type: 'long-animation-frame', buffered: true});
} catch (e) { /* no LoAF here */ }
"""


NODES = """
window.__nodes = {};
// Elements the page adds, by the part of the page they go into (each added
// subtree counted whole): how much each state's drawing rebuilds.
document.addEventListener('DOMContentLoaded', () => new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1) continue;
    const part = n.closest('#seats, #me, #center, #controls, #result, #log, #ledger, #announce');
    const k = part ? part.id : 'other';
    window.__nodes[k] = (window.__nodes[k] || 0) + 1 + n.getElementsByTagName('*').length;
  }
}).observe(document.body, {childList: true, subtree: true}));
"""
"""With ``--nodes``: counts the elements added to each part of the page (a
MutationObserver: its own callbacks cost the page a little script, so the runs
that count are not the runs that time)."""


def bucket(script: dict[str, Any]) -> str:
    """What called a script in a long frame, in the page's words: the WebSocket's
    message (a state drawn: render), the task after a paint (frames.js afterPaint:
    the side panels, the chip flights), a requestAnimationFrame callback, the clocks'
    timer, a tap or key, other."""
    inv = str(script.get("inv") or "")
    if "WebSocket" in inv:
        return "state message (render)"
    if "MessagePort" in inv:
        return "after-paint task"
    if "FrameRequestCallback" in inv or "requestAnimationFrame" in inv:
        return "rAF callback"
    if "Timer" in inv:
        return "timer"
    if script.get("type") == "event-listener":
        return "event " + inv
    return "other script " + inv


MOTION_MODULES = ("/table/motion.js", "/table/sounds.js")
"""The animation and sound code's modules (their ``sourceURL`` ends so): a LoAF script
entry whose source is one of them (an idle callback rendering a sound, an
``animationend`` listener, a rAF or timer callback of theirs) is that code's time."""


def motion_code_ms(e: dict[str, Any], marks: list[dict[str, Any]]) -> tuple[float, float]:
    """The animation and sound code's script time in the long animation frame ``e``
    (ms): ``(entry points, in all)``.  Entry points: the frame's LoAF script entries
    whose ``sourceURL`` is a module of ``MOTION_MODULES`` (LoAF names a script by the
    function the browser called).  In all: those, and the page's ``rollem-animate``
    measures in the frame outside them (that code called from another module's entry
    point: ``animate()`` from the state's message, the flights' start from the task
    after a paint), each counted once."""
    start, end = e["s"], e["s"] + e["d"]
    own = [(float(x["s"]), float(x["s"]) + float(x["d"])) for x in e.get("scripts", [])
           if str(x.get("src") or "").split("?")[0].endswith(MOTION_MODULES)]
    entry = sum(b - a for a, b in own)
    inside = sum(m["d"] for m in marks if m["n"] == "rollem-animate"
                 and start <= m["s"] < end
                 and not any(a <= m["s"] < b for a, b in own))
    return entry, entry + inside


def attribute(loaf: list[dict[str, Any]], marks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each long animation frame split into what it was (ms): scripts by caller
    (their forced style and layout apart), the work of its tasks outside any script
    (garbage collection, parsing, the browser's own tasks), the frame's rendering
    before style (rAF callbacks, observers) and its style, layout and paint; with
    the kinds of state drawn in it (``deal``: a new hand, ``end``: a hand's end,
    ``state``: any other) and the time of ``animate`` (the motion code) in it."""
    out = []
    for e in loaf:
        start, end = e["s"], e["s"] + e["d"]
        rstart = e.get("render") or 0
        sal = e.get("sal") or 0
        tasks_end = rstart if rstart > 0 else end
        part: dict[str, float] = {}
        forced = 0.0
        in_tasks = 0.0
        for x in e.get("scripts", []):
            f = float(x.get("forced") or 0)
            forced += f
            b = bucket(x)
            part[b] = part.get(b, 0.0) + float(x["d"]) - f
            if x["s"] < tasks_end:
                in_tasks += float(x["d"])
        part["forced style/layout (in scripts)"] = forced
        part["tasks outside scripts (GC, browser)"] = max(0.0, tasks_end - start - in_tasks)
        if sal > 0:
            part["style/layout/paint"] = end - sal
        if rstart > 0 and sal > 0:
            pre = sal - rstart - sum(float(x["d"]) for x in e.get("scripts", [])
                                     if x["s"] >= rstart)
            part["render steps outside scripts"] = max(0.0, pre)
        kinds = sorted({m["k"] or "?" for m in marks if m["n"] == "rollem-render"
                        and m["s"] < end and m["s"] + m["d"] > start})
        motion = sum(m["d"] for m in marks if m["n"] == "rollem-animate"
                     and m["s"] >= start and m["s"] < end)
        top = max(part, key=lambda k: part[k])
        # What the animation and sound code adds to this frame: its own script
        # (animate(), the flights' start: the page's rollem-animate measures) at the
        # least; at the most that and the render steps before style (where the
        # browser ticks running animations, with the observers' and rAF callbacks'
        # own work).  Would the frame be 50 ms or under without it?
        ticks = part.get("render steps outside scripts", 0.0)
        entry, code = motion_code_ms(e, marks)
        sources: dict[str, float] = {}   # script ms by module (LoAF's sourceURL)
        for x in e.get("scripts", []):
            src = str(x.get("src") or "").split("?")[0].rsplit("/", 1)[-1] or "?"
            sources[src] = sources.get(src, 0.0) + float(x["d"])
        out.append({"ms": round(e["d"], 1), "what": top, "states": kinds,
                    # the animation and sound code's script in the frame (its modules'
                    # entry points and its measures inside others'), and whether the
                    # frame would be 50 ms or under without it
                    "motion_code_ms": round(code, 1), "motion_entry_ms": round(entry, 1),
                    "motion_code_made": code > 0 and e["d"] - code <= 50,
                    # its modules' entry points: [what called it, function, ms]
                    "motion_entries": [[str(x.get("inv") or ""), str(x.get("fn") or ""),
                                        round(float(x["d"]), 1)]
                                       for x in e.get("scripts", [])
                                       if str(x.get("src") or "").split("?")[0]
                                       .endswith(MOTION_MODULES)],
                    "script_ms_by_module": {k: round(v, 1) for k, v in
                                            sorted(sources.items(), key=lambda kv: -kv[1])},
                    "animate_ms": round(motion, 1),
                    "without_motion_ms": round(e["d"] - motion, 1),
                    "motion_made": e["d"] - motion <= 50,
                    "motion_made_at_most": e["d"] - motion - ticks <= 50,
                    "parts": {k: round(v, 1) for k, v in sorted(part.items(), key=lambda kv: -kv[1])
                              if v >= 0.5}})
    return out


def attribution_summary(frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Over a run's long frames: how many each part was the largest of, each part's
    time in all, how many held a new hand / a hand's end / another state, and the
    motion code's time in them."""
    top: dict[str, int] = {}
    total: dict[str, float] = {}
    states: dict[str, int] = {}
    for f in frames:
        top[f["what"]] = top.get(f["what"], 0) + 1
        for k, v in f["parts"].items():
            total[k] = total.get(k, 0.0) + v
        for k in f["states"] or ["none"]:
            states[k] = states.get(k, 0) + 1
    return {"largest_part": dict(sorted(top.items(), key=lambda kv: -kv[1])),
            # long frames holding any of the motion code's script; those it made
            # long (under 50 ms without its script); at most (without its script
            # and the frame's render steps before style, where animations tick)
            "with_motion_script": sum(1 for f in frames if f["animate_ms"] > 0),
            # the animation and sound code read directly (MOTION_MODULES' LoAF script
            # entries and its rollem-animate measures): long frames holding any of its
            # script, and those it made long (50 ms or under without it)
            "with_motion_code": sum(1 for f in frames if f["motion_code_ms"] > 0),
            "motion_code_made": sum(1 for f in frames if f["motion_code_made"]),
            "motion_code_ms": round(sum(f["motion_code_ms"] for f in frames), 1),
            "motion_code_longest_ms": max((f["motion_code_ms"] for f in frames), default=0.0),
            "script_ms_by_module": module_totals(frames),
            "motion_made": sum(1 for f in frames if f["motion_made"]),
            "motion_made_at_most": sum(1 for f in frames if f["motion_made_at_most"]),
            "parts_ms": {k: round(v) for k, v in sorted(total.items(), key=lambda kv: -kv[1])},
            "frames_with_state": states,
            "animate_ms_in_long_frames": round(sum(f["animate_ms"] for f in frames), 1)}


def module_totals(frames: list[dict[str, Any]]) -> dict[str, float]:
    """Script ms in a run's long frames by module (LoAF's ``sourceURL``: the module of
    the function the browser called), largest first."""
    total: dict[str, float] = {}
    for f in frames:
        for k, v in f["script_ms_by_module"].items():
            total[k] = total.get(k, 0.0) + v
    return {k: round(v) for k, v in sorted(total.items(), key=lambda kv: -kv[1])}


BROWSER_TASKS = ("FormControlDidChange", "ExtractFormsAndNotifyPasswordAutofillAgent",
                 "ClearFocusedElementIfNeeded")
"""Chromium's own main-thread tasks (their posting site, a trace's ``src_func``) that
a page's form controls and focus cause: autofill's form scan 100 ms after a field is
added outside a form, its handling of a field's value set, the focus fix-up after a
focused element is removed or hidden."""


def cpu_tasks(trace: bytes, rate: float) -> dict[str, Any]:
    """The page's main-thread tasks in a Chromium trace (categories ``toplevel`` and
    ``devtools.timeline``), by their thread time (the trace's ``tdur``: not the time
    the thread waited for a core on a loaded machine) multiplied by ``rate``.  Pass
    ``rate`` 1 (``run`` does): a throttled renderer's thread time already holds the
    slow-down (Chromium's CPU throttling keeps the thread busy: a fixed loop took
    55 ms of thread time unthrottled and 280 to 440 ms at rate 4, load 7 to 12,
    2026-12-03), so it is what a task would last on a quiet machine throttled alike,
    roughly (the throttling's share moves with the load).  Sections of
    docs/dev/felt-frames.md before s43 multiplied it by 4: four times too long.
    Returns the tasks over 50 ms so counted, the longest (ms), the thread time of
    all (ms, unmultiplied), and what the tasks over 50 ms were: each
    trace event's own CPU time (its children's taken out) summed by name, x rate
    (``FunctionCall``: script, ``UpdateLayoutTree``: style, ``Layout``, ``Paint``,
    ``MinorGC``...); the tasks over 50 ms by posting site (``src_func``); Chromium's
    autofill and focus tasks (``BROWSER_TASKS``: count, ms x rate, longest); and the
    style and layout forced inside scripts, by the JS function that forced them."""
    mine = timed_on_main(trace_events(trace))
    tasks: list[tuple[float, dict[str, float]]] = []   # (cpu ms, own cpu ms by name)
    sources: list[str] = []    # each task's posting site (src_func), in step with tasks
    forced: dict[str, list[float]] = {}   # JS function -> [count, cpu ms x rate]
    calls: dict[str, list[float]] = {}    # script called by the browser -> cpu ms x rate each
    stack: list[dict[str, Any]] = []
    for e in mine:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1].get("dur", 0):
            stack.pop()
        if (e["name"] in ("Layout", "UpdateLayoutTree")
                and any(x["name"] == "FunctionCall" for x in stack)):
            # a style or layout forced inside a script: where (its JS stack's top)
            top = ((e.get("args", {}).get("beginData") or {}).get("stackTrace") or [{}])[0]
            where = (f"{top.get('functionName') or '?'}:{top.get('lineNumber')}"
                     f"@{str(top.get('url') or '').rsplit('/', 1)[-1]}")
            got = forced.setdefault(where, [0, 0.0])
            got[0] += 1
            got[1] += e["tdur"] / 1000 * rate
        if e["name"] == "FunctionCall" and not any(x["name"] == "FunctionCall" for x in stack):
            # a script the browser called (its children: the style, layout and GC
            # inside it): by function, e.g. the state's message (render)
            data = e.get("args", {}).get("data") or {}
            fn = (f"{data.get('functionName') or '?'}"
                  f"@{str(data.get('url') or '').rsplit('/', 1)[-1]}:{data.get('lineNumber')}")
            calls.setdefault(fn, []).append(e["tdur"] / 1000 * rate)
        if e["name"] == "ThreadControllerImpl::RunTask" and not stack:
            tasks.append((e["tdur"] / 1000, {}))
            sources.append(str(e.get("args", {}).get("src_func") or "?"))
            e["_task"] = tasks[-1][1]
        elif stack:
            e["_task"] = stack[-1].get("_task")
            stack[-1]["_kids"] = stack[-1].get("_kids", 0) + e["tdur"]
        e["_parent"] = stack[-1] if stack else None
        stack.append(e)
    for e in mine:   # each event's own time, into its task's parts
        part = e.get("_task")
        if part is None:
            continue
        name = e["name"]
        if name == "ThreadControllerImpl::RunTask":
            name = "task (browser, not traced)"
        own = max(0, e["tdur"] - e.get("_kids", 0)) / 1000
        part[name] = part.get(name, 0.0) + own
    cpu = sorted((t[0] for t in tasks), reverse=True)
    run_parts: dict[str, float] = {}
    for _, parts in tasks:
        for k, v in parts.items():
            run_parts[k] = run_parts.get(k, 0.0) + v
    long_parts: dict[str, float] = {}
    for t, parts in tasks:
        if t * rate > 50:
            for k, v in parts.items():
                long_parts[k] = long_parts.get(k, 0.0) + v * rate
    # The browser's own tasks that our page's changes cause: autofill's form scan
    # (form controls added), its FormControlDidChange (a field's value set), the
    # focus fixup (a focused element removed or hidden): count, cpu ms x rate, longest.
    own: dict[str, list[float]] = {}
    by_source: dict[str, list[float]] = {}
    for (t, _), src in zip(tasks, sources, strict=True):
        if src in BROWSER_TASKS:
            got = own.setdefault(src, [0, 0.0, 0.0])
            got[0] += 1
            got[1] += t * rate
            got[2] = max(got[2], t * rate)
        if t * rate > 50:
            got = by_source.setdefault(src, [0, 0.0])
            got[0] += 1
            got[1] += t * rate
    return {"cpu_tasks_over_50ms": sum(1 for c in cpu if c * rate > 50),
            "cpu_browser_tasks": {k: [int(v[0]), round(v[1]), round(v[2])] for k, v in own.items()},
            "cpu_long_task_sources": {k: [int(v[0]), round(v[1])] for k, v in
                                      sorted(by_source.items(), key=lambda kv: -kv[1][1])},
            "cpu_forced_in_scripts": {k: [int(v[0]), round(v[1])] for k, v in
                                      sorted(forced.items(), key=lambda kv: -kv[1][1])[:8]},
            # the scripts the browser called, by function: [calls, cpu ms x rate in
            # all, median, max] (``onmessage@state.js``: a state received and drawn)
            "cpu_scripts_by_function": {
                k: [len(v), round(sum(v)), round(sorted(v)[len(v) // 2], 1), round(max(v), 1)]
                for k, v in sorted(calls.items(), key=lambda kv: -sum(kv[1]))[:8]},
            "cpu_task_longest_ms": round(cpu[0] * rate, 1) if cpu else None,
            "cpu_ms_total": round(sum(cpu)),
            "cpu_long_task_parts_ms": {k: round(v) for k, v in
                                       sorted(long_parts.items(), key=lambda kv: -kv[1])[:12]},
            # the whole run's main-thread CPU by part (ms, not multiplied): style
            # (UpdateLayoutTree), PrePaint and Paint grow with the frames an
            # animation runs in; script (FunctionCall) with the states drawn
            "cpu_run_parts_ms": {k: round(v) for k, v in
                                 sorted(run_parts.items(), key=lambda kv: -kv[1])[:12]}}

def cpu_frames(trace: bytes) -> dict[str, Any]:
    """The page's frames in a Chromium trace (its ``AnimationFrame`` events: each
    frame from its first task to its paint), each by the thread time of the
    main-thread tasks in it (``tdur``: what it would last on a quiet machine
    throttled alike, roughly; see ``cpu_tasks``), counted over 50 ms: all of them,
    those holding a state's message (``onmessage`` of state.js: a state drawn),
    those over 50 ms with an animation running (the trace's ``Animation`` events)
    and with one started in them.  A count the load moves less than the frame
    counter's wall-clock one."""
    events = trace_events(trace)
    main = main_threads(events)
    pids = {p for p, _ in main}
    opened: dict[Any, float] = {}
    frames: list[tuple[float, float]] = []
    anims: dict[Any, float] = {}
    ran: list[tuple[float, float]] = []
    for e in events:
        if e.get("pid") not in pids or e.get("ph") not in ("b", "e"):
            continue
        key = (e["name"], e.get("id") or json.dumps(e.get("id2")))
        if e["name"] not in ("AnimationFrame", "Animation"):
            continue
        if e["ph"] == "b":
            (opened if e["name"] == "AnimationFrame" else anims)[key] = e["ts"]
        elif e["name"] == "AnimationFrame" and key in opened:
            frames.append((opened.pop(key), e["ts"]))
        elif e["name"] == "Animation" and key in anims:
            ran.append((anims.pop(key), e["ts"]))
    tasks = sorted((e["ts"], e["tdur"]) for e in events
                    if e.get("ph") == "X" and e.get("name") == "ThreadControllerImpl::RunTask"
                    and (e["pid"], e["tid"]) in main and "tdur" in e)
    states = sorted(e["ts"] for e in events
                    if e.get("ph") == "X" and e.get("name") == "FunctionCall"
                    and (e["pid"], e["tid"]) in main
                    and "state.js" in str((e.get("args", {}).get("data") or {}).get("url"))
                    and "onmessage" in str((e.get("args", {}).get("data") or {})
                                           .get("functionName")))
    starts = [t for t, _ in tasks]
    long = state = animating = started = 0
    for begin, end in sorted(frames):
        i, j = bisect.bisect_left(starts, begin), bisect.bisect_right(starts, end)
        if sum(d for _, d in tasks[i:j]) / 1000 <= 50:
            continue
        long += 1
        k = bisect.bisect_left(states, begin)
        state += k < len(states) and states[k] <= end
        animating += any(a < end and b > begin for a, b in ran)
        started += any(begin <= a < end for a, _ in ran)
    return {"cpu_frames": len(frames), "cpu_frames_over_50ms": long,
            "cpu_state_frames_over_50ms": state,
            "cpu_frames_over_50ms_animating": animating,
            "cpu_frames_over_50ms_starting_animation": started,
            "cpu_animations": len(ran)}


def run(live: ServerThread, pw: Any, hands: int, rate: float, reduce: bool,
        css: str = "", cpu: bool = False, trace_dir: Path | None = None,
        nodes: bool = False, raf: bool = True) -> dict[str, Any]:
    r = httpx.post(live.url + "/api/tables", json={
        "game": "holdem", "seats": 10, "bots": 9, "structure": "no-limit", "stack": 400,
        "decision_seconds": 300, "bot_delay": 0.25, "between_hands": 1.0})
    tid = r.json()["id"]
    live.manager.get(tid).bot_factory = lambda level: BettingBot(random.Random(0))
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                              reduced_motion="reduce" if reduce else "no-preference",
                              bypass_csp=bool(css))
    if not raf:   # no frame counter: Chromium draws a main-thread frame only when asked
        ctx.add_init_script("window.__noRaf = true;")
    ctx.add_init_script(WATCH)
    if nodes:
        ctx.add_init_script(NODES)
    if css:   # an experiment: this style added to the page (e.g. one motion turned off)
        ctx.add_init_script("document.addEventListener('DOMContentLoaded', () => {"
                            " const s = document.createElement('style');"
                            f" s.textContent = {json.dumps(css)};"
                            " document.head.appendChild(s); });")
    ctx.add_cookies([{"name": host_cookie(tid), "value": r.cookies[host_cookie(tid)],
                      "url": live.url}])
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.goto(f"{live.url}/t/{tid}")
    sit_with_enter(page, "Ann")
    page.evaluate("() => { window.__frames = []; window.__loaf = []; window.__render = [];"
                  " window.__late = []; window.__marks = []; window.__nodes = {}; }")
    load = os.getloadavg()[0]
    if cpu:
        browser.start_tracing(page=page, categories=[
            "toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline.stack", "v8"])
    page.click("#start-btn")
    started = time.monotonic()
    done = 0
    while done < hands:
        kind = decision_kind(page)
        if kind == "bet":
            page.locator("#controls [data-action=call], #controls [data-action=check]"
                         ).first.click()
        table = live.manager.get(tid)
        if table.last_result is not None and int(table.last_result["hand"]) > done:
            done = int(table.last_result["hand"])
        page.wait_for_timeout(50)
        if time.monotonic() - started > 300:
            break
    page.wait_for_timeout(1500)   # the last pot pushed to its winner
    frames = page.evaluate("window.__frames")
    loaf = page.evaluate("window.__loaf")
    renders = sorted(page.evaluate("window.__render"))
    late = sorted(page.evaluate("window.__late"))
    marks = page.evaluate("window.__marks")
    added = page.evaluate("window.__nodes") if nodes else None
    tasks: dict[str, Any] = {}
    if cpu:
        trace = browser.stop_tracing()
        if trace_dir:
            kind = "reduced" if reduce else "css" if css else "on"
            trace_dir.mkdir(parents=True, exist_ok=True)
            (trace_dir / f"trace-{kind}-{int(time.time())}.json").write_bytes(trace)
        tasks = cpu_tasks(trace, 1.0)   # (thread time holds the throttling: see cpu_tasks)
        tasks.update(cpu_frames(trace))
    browser.close()
    scripts = sorted(sum(x["d"] for x in e["scripts"]) for e in loaf)
    long = sorted((f for f in frames if f > 50), reverse=True)
    attributed = attribute(loaf, marks)
    animate = sorted(m["d"] for m in marks if m["n"] == "rollem-animate")
    kinds = {k: sorted(m["d"] for m in marks if m["n"] == "rollem-render" and m["k"] == k)
             for k in ("deal", "end", "state")}
    return {"motion": "reduced" if reduce else "on", "css": css, "hands": done, "raf": raf,
            "load": [round(load, 2), round(os.getloadavg()[0], 2)],
            "seconds": round(time.monotonic() - started, 1), "frames": len(frames),
            "frames_over_50ms": len(long), "longest_ms": round(long[0], 1) if long else None,
            "loaf_over_50ms": len(loaf),
            "loaf_longest_ms": round(max((e["d"] for e in loaf), default=0), 1),
            "loaf_script_ms_max": round(scripts[-1], 1) if scripts else 0,
            "loaf_script_ms_median": round(scripts[len(scripts) // 2], 1) if scripts else 0,
            "loaf_script_ms_total": round(sum(scripts)),
            "renders": len(renders), **spread("render", renders),
            # the side panels of a state that changes everything, drawn in a task of
            # their own after the felt's frame (main.js: render's deferred part)
            "late_renders": len(late), **spread("late", late),
            # the motion code's own script time (animate(): classes, flights, sounds)
            "animate_ms_total": round(sum(animate), 1), **spread("animate", animate),
            **{f"render_{k}_max_ms": round(v[-1], 1) if v else None for k, v in kinds.items()},
            "long_frames": attribution_summary(attributed),
            "long_frame_list": sorted(attributed, key=lambda f: -f["ms"]),
            **({"nodes_added": dict(sorted(added.items(), key=lambda kv: -kv[1])),
                "nodes_added_per_state": round(sum(added.values()) / max(1, len(renders)), 1)}
               if added is not None else {}),
            **tasks}


def spread(name: str, times: list[float]) -> dict[str, float | None]:
    """Median, 90th percentile and maximum of sorted ``times`` (ms), as ``name_*_ms``."""
    if not times:
        return {f"{name}_median_ms": None, f"{name}_p90_ms": None, f"{name}_max_ms": None}
    return {f"{name}_median_ms": round(times[len(times) // 2], 1),
            f"{name}_p90_ms": round(times[int(len(times) * 0.9)], 1),
            f"{name}_max_ms": round(times[-1], 1)}


def idle(live: ServerThread, pw: Any, rate: float, seconds: float) -> dict[str, Any]:
    """The floor: the same page, throttled alike, a seated player and no hand dealt,
    for ``seconds``: the frames over 50 ms the machine's load alone makes."""
    r = httpx.post(live.url + "/api/tables", json={
        "game": "holdem", "seats": 10, "bots": 9, "structure": "no-limit", "stack": 400,
        "decision_seconds": 300})
    tid = r.json()["id"]
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.add_init_script(WATCH)
    ctx.add_cookies([{"name": host_cookie(tid), "value": r.cookies[host_cookie(tid)],
                      "url": live.url}])
    page = ctx.new_page()
    ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.goto(f"{live.url}/t/{tid}")
    sit_with_enter(page, "Ann")
    page.evaluate("() => { window.__frames = []; window.__loaf = []; }")
    load = os.getloadavg()[0]
    page.wait_for_timeout(seconds * 1000)
    frames = page.evaluate("window.__frames")
    loaf = page.evaluate("window.__loaf")
    browser.close()
    long = sorted((f for f in frames if f > 50), reverse=True)
    return {"motion": "idle", "load": [round(load, 2), round(os.getloadavg()[0], 2)],
            "seconds": seconds, "frames": len(frames),
            "frames_over_50ms": len(long), "longest_ms": round(long[0], 1) if long else None,
            "loaf_over_50ms": len(loaf)}


def long_count(r: dict[str, Any]) -> int:
    """A run's frames over 50 ms: counted by the frame counter, or without one
    (``--no-raf``) Chromium's long animation frames."""
    return int(r["frames_over_50ms"] if r.get("raf", True) else r["loaf_over_50ms"])


def line(r: dict[str, Any]) -> str:
    """One run in one line: what the lead compares (frames over 50 ms of all, the
    longest, the drawing's times, the long frames' largest parts, the load)."""
    head = f"RUN {r['motion']:<7}" + (f" css={r['css']!r}" if r.get("css") else "")
    out = [head, f"over50={r['frames_over_50ms']}/{r['frames']}", f"longest={r['longest_ms']}",
           f"loaf={r['loaf_over_50ms']}"]
    if "render_median_ms" in r:
        out.append(f"render={r['render_median_ms']}/{r['render_p90_ms']}/{r['render_max_ms']}"
                   " (med/p90/max ms)")
        out.append(f"deal_max={r['render_deal_max_ms']} end_max={r['render_end_max_ms']}")
        out.append(f"animate_total={r['animate_ms_total']}ms")
        lf = r["long_frames"]
        out.append(f"motion_made={lf['motion_made']}(<={lf['motion_made_at_most']})"
                   f"/{lf['with_motion_script']}")
        out.append(f"motion_code={lf['motion_code_made']}/{lf['with_motion_code']}"
                   f"({lf['motion_code_ms']}ms, longest {lf['motion_code_longest_ms']})")
        top = r["long_frames"]["largest_part"]
        out.append("largest=" + ",".join(f"{k.split(' (')[0]}:{n}" for k, n in top.items()))
    if "cpu_tasks_over_50ms" in r:
        run = r["cpu_run_parts_ms"]
        out.append(f"cpu_over50={r['cpu_tasks_over_50ms']} cpu_longest={r['cpu_task_longest_ms']}"
                   f" cpu_style={run.get('UpdateLayoutTree', 0)}"
                   f" cpu_prepaint={run.get('PrePaint', 0)} cpu_paint={run.get('Paint', 0)}"
                   f" cpu_script={run.get('FunctionCall', 0)}"
                   f" autofill/focus={sum(v[0] for v in r['cpu_browser_tasks'].values())}"
                   f"/{sum(v[1] for v in r['cpu_browser_tasks'].values())}ms"
                   f" forced={sum(v[1] for v in r['cpu_forced_in_scripts'].values())}ms"
                   f" cpu_frames_over50={r['cpu_frames_over_50ms']}/{r['cpu_frames']}"
                   f"(state {r['cpu_state_frames_over_50ms']},"
                   f" animating {r['cpu_frames_over_50ms_animating']},"
                   f" starting {r['cpu_frames_over_50ms_starting_animation']})")
    if "nodes_added" in r:
        out.append(f"nodes/state={r['nodes_added_per_state']} nodes={json.dumps(r['nodes_added'])}")
    out.append(f"load={r['load'][0]}->{r['load'][1]}")
    return " ".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=1,
                    help="motion on then reduced, this many times (ABAB: load hits both alike)")
    ap.add_argument("--rate", type=float, default=4.0, help="CPU slow-down (4 = a slow phone)")
    ap.add_argument("--css", action="append", default=[],
                    help="also run with motion on and this style added (an experiment)")
    ap.add_argument("--idle", action="store_true",
                    help="also count the frames of the page with no hand dealt (the floor)")
    ap.add_argument("--cpu", action="store_true",
                    help="also trace the page: its tasks and frames by thread time"
                         " (less load-bound)")
    ap.add_argument("--trace-dir", type=Path,
                    help="with --cpu: keep each run's Chromium trace here (open in DevTools)")
    ap.add_argument("--nodes", action="store_true",
                    help="also count the elements each part of the page adds (a MutationObserver)")
    ap.add_argument("--no-raf", action="store_true",
                    help="no requestAnimationFrame frame counter (it makes Chromium tick every"
                         " running animation in a main-thread frame at each vsync): frames over"
                         " 50 ms from Chromium's long animation frames (loaf=) alone")
    ap.add_argument("--json", type=Path, help="write every figure (each long frame's parts) here")
    ap.add_argument("--frames", type=int, default=5,
                    help="print this many of each run's longest frames, with their parts")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out: list[dict[str, Any]] = []

    def done(r: dict[str, Any]) -> None:
        out.append(r)
        print(line(r), flush=True)

    with tempfile.TemporaryDirectory() as d, sync_playwright() as pw:
        live = ServerThread(Path(d) / "bench.db")
        try:
            for _ in range(args.rounds):
                for reduce in (False, True):
                    done(run(live, pw, args.hands, args.rate, reduce, cpu=args.cpu,
                             trace_dir=args.trace_dir, nodes=args.nodes, raf=not args.no_raf))
            for css in args.css:
                done(run(live, pw, args.hands, args.rate, False, css, cpu=args.cpu,
                         trace_dir=args.trace_dir, nodes=args.nodes, raf=not args.no_raf))
            if args.idle:
                done(idle(live, pw, args.rate, float(out[0]["seconds"])))
        finally:
            live.stop()
    report = {"rate": args.rate, "viewport": PHONE, "seats": 10, "runs": out}
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    for r in out:
        if "long_frames" not in r:
            continue
        print(f"\n{line(r)}\n  {json.dumps(r['long_frames'])}")
        if "cpu_long_task_parts_ms" in r:
            print(f"  thread ms in tasks over 50 ms: {json.dumps(r['cpu_long_task_parts_ms'])}")
            print(f"  cpu of the whole run (ms): {json.dumps(r['cpu_run_parts_ms'])}")
            print(f"  tasks over 50 ms by source [n, ms]: "
                  f"{json.dumps(r['cpu_long_task_sources'])}")
            print(f"  autofill/focus tasks [n, ms, longest]: "
                  f"{json.dumps(r['cpu_browser_tasks'])}")
            print(f"  scripts by function [n, ms: all, median, max]: "
                  f"{json.dumps(r['cpu_scripts_by_function'])}")
            print(f"  forced style/layout in scripts [n, ms]: "
                  f"{json.dumps(r['cpu_forced_in_scripts'])}")
        for f in r["long_frame_list"][:args.frames]:
            print(f"  {f['ms']:>6} ms {f['what']:<32} states={','.join(f['states']) or '-'}"
                  f" animate={f['animate_ms']} without={f['without_motion_ms']}"
                  f" motion_code={f['motion_code_ms']}"
                  f"{' MOTION-MADE' if f['motion_made'] else ''}"
                  f"{' MOTION-CODE-MADE' if f['motion_code_made'] else ''}"
                  f" {json.dumps(f['parts'])} modules={json.dumps(f['script_ms_by_module'])}")
    on = [r for r in out if r["motion"] == "on" and not r.get("css")]
    reduced = [r for r in out if r["motion"] == "reduced"]
    if on and reduced:   # what motion adds: each motion-on run less the reduced run after it
        added = [long_count(a) - long_count(b) for a, b in
                 zip(on, reduced, strict=True)]
        print("SUMMARY added  (on - reduced, each round) " + ",".join(map(str, added))
              + f" total={sum(added)}")
    for motion in ("on", "reduced", "idle"):
        runs = [r for r in out if r["motion"] == motion and not r.get("css")]
        if runs:
            made = ""
            if all("long_frames" in r for r in runs):
                # long frames under 50 ms but for the motion code's script (at most:
                # and the animations' ticks): what "the animation and sound code adds"
                made = (" motion_made="
                        + ",".join(str(r["long_frames"]["motion_made"]) for r in runs)
                        + " motion_made_at_most="
                        + ",".join(str(r["long_frames"]["motion_made_at_most"]) for r in runs)
                        + " motion_code=" + ",".join(
                            f"{r['long_frames']['motion_code_made']}"
                            f"/{r['long_frames']['with_motion_code']}" for r in runs))
            print(f"SUMMARY {motion:<7} runs={len(runs)} over50="
                  + ",".join(str(long_count(r)) for r in runs)
                  + f" total={sum(long_count(r) for r in runs)}"
                  + f" frames={sum(r['frames'] for r in runs)}"
                  + " longest=" + ",".join(str(r["longest_ms"]) for r in runs) + made)


if __name__ == "__main__":
    main()
