"""Which of the felt's CSS animations run on the compositor, and how many main-thread
frames each makes while nothing else runs (issue 26)?

Reads the Chromium traces of ``bench_felt_motion.py`` (its ``--trace-dir``: the
recorded states drawn in a phone page at 4x slower, pass after pass; the traces hold
the ``Animation`` events of category ``blink.animations,devtools.timeline``), or runs
it first (``--states``: one warm-up pass, then ``--pairs`` pairs of passes, motion on
and off).  For each "on" pass, and each animation name (the ``@keyframes``: deal-in,
flip-up, label-in, chips-fly and the flights' keyframes made in the page,
``chips-fly-<wait>-<length>``):

- ``started``: animations started;
- ``failed``: of them, those the browser could not run on the compositor (the trace's
  ``Animation`` instant event with ``compositeFailed``, its ``unsupportedProperties``:
  none means every one ran composited, transform and opacity only);
- ``frames``: the page's main-thread frames (``AnimationFrame``) with **no script** in
  them (no ``FunctionCall``, ``TimerFire``, ``EventDispatch`` or
  ``FireAnimationFrame``: no state drawn, no start piece, no timer) during which an
  animation of that name ran, each such frame shared equally by the names running in
  it: the frames the browser makes for the animations alone (a composited
  animation's start, the end of its delay, its end: each a frame or two of the
  browser's own, the running moves' style and a commit); with ``styles``
  (``UpdateLayoutTree``), ``paints`` (``Paint``) and ``ms`` (thread time) in them,
  shared the same way.

And per pass: ``frames`` (all), ``quiet`` (the frames with no script and no
animation running: the browser's other frames).  Counts, not times: they change far
less with the machine's load than frames over 50 ms do (a slower thread draws fewer
frames in a move, so the counts still move a little; compare trees in the same run
or alternating runs, and say the load).

    .venv/bin/python bench/bench_felt_animations.py --reread DIR [DIR...] [--json F]
    .venv/bin/python bench/bench_felt_animations.py --states /tmp/felt49/states.json
        [--pairs 1] [--trace-dir DIR] [--json F]

``--launches N``: the hand's end's flights alone, N times each shape in turn (ABAB),
in the same phone page at 4x slower, 1 s traced each: a bet swept (no wait, 0.4 s)
and the pot pushed (a 250 ms wait, 0.4 s), as main set them off (``delayed``: the
push a ``chips-fly`` with ``animation-delay``, the sweep ending 250 ms before it) and
as one length (``one-end``: both 650 ms, no delay, the wait and the rest in their
keyframes, motion.js ``flightKeyframes``): the page's frames, those with no script,
and style recalculations from the launch to 1 s after, a launch.

    .venv/bin/python bench/bench_felt_animations.py --launches 8

``--street N``: a street's moves alone (a card dealt in, a label faded in, a bet
swept), N times each shape ABAB as ``--launches``: as main set them off (``apart``:
the card 0.28 s and the label 0.2 s in one frame, the sweep 0.4 s two frames later)
and as one start and one end (``together``: the three in one frame, the card and the
label held to 0.4 s; motion.js ``goWith``).

    .venv/bin/python bench/bench_felt_animations.py --street 12

A tree before a change: ``PYTHONPATH=<that tree>/src`` with this script (its pages
come from the rollem on the path).  A figure, not a test: say the machine's load with
it.  Figures: docs/dev/felt-frames.md.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from felt_trace import main_threads, trace_events

SCRIPT = ("FunctionCall", "TimerFire", "EventDispatch", "FireAnimationFrame")
"""Trace events that mean a frame ran the page's script."""


def animations_of(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The animations in a trace's main-thread ``events``: ``runs`` [(start µs, end
    µs, name)], ``started`` {name: n}, ``failed`` {name: n}, ``unsupported`` {name:
    [property]} (from the ``compositeFailed`` instant events)."""
    main = main_threads(events)
    mine = sorted((e for e in events if e.get("name") == "Animation"
                   and (e.get("pid"), e.get("tid")) in main), key=lambda e: e["ts"])
    names: dict[str, str] = {}
    opened: dict[str, float] = {}
    runs: list[tuple[float, float, str]] = []
    started: dict[str, int] = {}
    failed: dict[str, int] = {}
    unsupported: dict[str, set[str]] = {}
    for e in mine:
        key = json.dumps(e.get("id2") or e.get("id"))
        data = (e.get("args") or {}).get("data") or {}
        if e["ph"] == "b":
            name = str(data.get("displayName") or data.get("name") or "?")
            names[key] = name
            opened[key] = e["ts"]
            started[name] = started.get(name, 0) + 1
        elif e["ph"] == "e" and key in opened:
            runs.append((opened.pop(key), e["ts"], names[key]))
        elif e["ph"] == "n" and "compositeFailed" in data and data["compositeFailed"]:
            name = names.get(key, "?")
            failed[name] = failed.get(name, 0) + 1
            unsupported.setdefault(name, set()).update(data.get("unsupportedProperties") or [])
    end = max((e["ts"] for e in events if "ts" in e), default=0.0)
    runs.extend((t, end, names[k]) for k, t in opened.items())   # (still running)
    return {"runs": runs, "started": started, "failed": failed,
            "unsupported": {k: sorted(v) for k, v in unsupported.items()}}


def frame_spans(events: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """The page's main-thread frames (``AnimationFrame`` begin/end pairs, µs)."""
    main = main_threads(events)
    spans: list[tuple[float, float]] = []
    opened: float | None = None
    for e in sorted((e for e in events if e.get("name") == "AnimationFrame"
                     and e.get("ph") in ("b", "e") and (e.get("pid"), e.get("tid")) in main),
                    key=lambda e: e["ts"]):
        if e["ph"] == "b":
            opened = e["ts"]
        elif opened is not None:
            spans.append((opened, e["ts"]))
            opened = None
    return spans


def per_pass(events: list[dict[str, Any]]) -> dict[str, Any]:
    """One pass's figures (see the module's docstring): ``frames``, ``quiet``, and
    ``by_name`` {name: {started, failed, unsupported, frames, styles, paints, ms}}."""
    main = main_threads(events)
    timed = sorted((e for e in events if e.get("ph") == "X"
                    and (e.get("pid"), e.get("tid")) in main), key=lambda e: e["ts"])
    starts = [e["ts"] for e in timed]
    got = animations_of(events)
    by_name: dict[str, dict[str, Any]] = {
        n: {"started": k, "failed": got["failed"].get(n, 0),
            "unsupported": got["unsupported"].get(n, []),
            "frames": 0.0, "styles": 0.0, "paints": 0.0, "ms": 0.0}
        for n, k in got["started"].items()}
    spans = frame_spans(events)
    quiet = 0
    for a, b in spans:
        inside = timed[bisect.bisect_left(starts, a):bisect.bisect_right(starts, b)]
        if any(e["name"] in SCRIPT for e in inside):
            continue
        running = sorted({n for s, t, n in got["runs"] if s <= b and t >= a})
        if not running:
            quiet += 1
            continue
        share = 1.0 / len(running)
        styles = sum(1 for e in inside if e["name"] == "UpdateLayoutTree")
        paints = sum(1 for e in inside if e["name"] == "Paint")
        # (the frame's thread time: its top-level tasks' own)
        ms = sum(e.get("tdur", 0) for e in inside
                 if e["name"] == "ThreadControllerImpl::RunTask") / 1000
        for n in running:
            row = by_name.setdefault(n, {"started": 0, "failed": 0, "unsupported": [],
                                         "frames": 0.0, "styles": 0.0, "paints": 0.0, "ms": 0.0})
            row["frames"] += share
            row["styles"] += share * styles
            row["paints"] += share * paints
            row["ms"] += share * ms
    return {"frames": len(spans), "quiet": quiet, "by_name": by_name}


def summary(passes: list[dict[str, Any]]) -> dict[str, Any]:
    """The "on" passes' figures averaged a pass (and the "off" passes' frames)."""
    on = [p for p in passes if p["arm"] == "on"]
    off = [p for p in passes if p["arm"] == "off"]
    names = sorted({n for p in on for n in p["by_name"]})
    rows: dict[str, Any] = {}
    for n in names:
        got = [p["by_name"].get(n, {}) for p in on]
        rows[n] = {k: round(sum(float(g.get(k, 0)) for g in got) / len(on), 1)
                   for k in ("started", "failed", "frames", "styles", "paints", "ms")}
        rows[n]["unsupported"] = sorted({u for g in got for u in g.get("unsupported", [])})
    animation_frames = [sum(v["frames"] for v in p["by_name"].values()) for p in on]
    return {
        "passes_on": len(on), "passes_off": len(off),
        "frames_on": [p["frames"] for p in on], "frames_off": [p["frames"] for p in off],
        "animation_only_frames": [round(x, 1) for x in animation_frames],
        "quiet_on": [p["quiet"] for p in on], "quiet_off": [p["quiet"] for p in off],
        "by_name": rows,
    }


def reread(dirs: list[Path]) -> list[dict[str, Any]]:
    """Each pass of ``bench_felt_motion.py --trace-dir`` runs, its arm and figures."""
    out: list[dict[str, Any]] = []
    for d in dirs:
        kept = json.loads((d / "passes.json").read_text())
        for n, p in enumerate(kept["passes"]):
            events = trace_events((d / f"pass{n}-{p['arm']}.json").read_bytes())
            out.append({"arm": p["arm"], "load": p.get("load"), "dir": str(d), **per_pass(events)})
    return out


LAUNCH = r"""([shape]) => {
  const layer = document.querySelector('#felt > .flights');
  const made = [];
  for (const wait of [0, 250]) {
    const f = document.createElement('span');
    f.className = 'flying-chips'; f.textContent = '● 40';
    f.style.left = '50%'; f.style.top = wait ? '40%' : '60%';
    f.style.setProperty('--mx', wait ? '30cqw' : '-10cqw');
    f.style.setProperty('--my', wait ? '40cqh' : '-20cqh');
    layer.appendChild(f); made.push([f, wait]);
  }
  requestAnimationFrame(() => {
    for (const [f, wait] of made) {
      if (shape === 'delayed') {
        f.style.animationDuration = '400ms';
        if (wait) f.style.animationDelay = wait + 'ms';
      } else {
        f.style.animationDuration = '650ms';
        f.style.animationName = window.__flightKeyframes(wait, 650);
      }
      f.classList.add('fly');
    }
  });
}"""
"""Sets off two flights in the felt's layer as the hand's end does (a sweep, a push
250 ms later) in the given shape, in the next frame (motion.js start pieces)."""

STREET = r"""([shape]) => {
  const felt = document.querySelector('#felt');
  const layer = felt.querySelector(':scope > .flights');
  // a street: the board's new card, a seat's new word, the round's bets swept
  const card = document.createElement('span');
  card.className = 'card up move-wait'; card.textContent = '7d';
  const label = document.createElement('span');
  label.className = 'action-label move-wait'; label.textContent = 'check';
  for (const [e, x] of [[card, '30%'], [label, '60%']]) {
    e.style.position = 'absolute'; e.style.left = x; e.style.top = '45%'; felt.appendChild(e);
  }
  const f = document.createElement('span');
  f.className = 'flying-chips'; f.textContent = '● 40';
  f.style.left = '50%'; f.style.top = '70%';
  f.style.setProperty('--mx', '-10cqw'); f.style.setProperty('--my', '-20cqh');
  layer.appendChild(f);
  window.__street = [card, label, f];
  const sweep = () => { f.style.animationDuration = '400ms'; f.classList.add('fly'); };
  requestAnimationFrame(() => {
    if (shape === 'apart') {
      // as main: the card 0.28 s and the word 0.2 s in this frame, the sweep two later
      card.style.animation = 'deal-in .28s ease-out backwards';
      label.style.animation = 'label-in .2s ease-out backwards';
      card.classList.replace('move-wait', 'deal-in');
      label.classList.replace('move-wait', 'fresh');
      requestAnimationFrame(() => requestAnimationFrame(sweep));
    } else {
      // one frame, one end: the card's and word's moves held to the sweep's 0.4 s
      for (const [e, cls] of [[card, 'deal-in'], [label, 'fresh']]) {
        e.style.setProperty('--move', window.__held(cls, 400));
        e.style.setProperty('--move-ms', '400ms');
        e.classList.replace('move-wait', cls);
      }
      sweep();
    }
  });
}"""
"""A street's moves in the given shape: a card dealt in, a label faded in and one
flight swept, as main set them off (``apart``: the card 0.28 s and the label 0.2 s in
one frame, the sweep two frames later) or as one start and one end (``together``:
all three in one frame, the card and the label held to the sweep's 0.4 s: motion.js
goWith, heldKeyframes)."""


def launches(reps: int, kind: str = "end") -> dict[str, Any]:
    """``reps`` launches of each shape of LAUNCH (``kind`` "end") or STREET
    ("street"), in turn, in one phone page at 4x: per shape the frames, frames with
    no script and style recalculations a launch (each 1 s traced from the launch)."""
    from playwright.sync_api import sync_playwright
    from table_ui import ARGS, CHROMIUM, PHONE, sit_with_enter
    from web_harness import ServerThread

    from bench_felt_motion import MOTION
    from bench_felt_states import new_table
    from rollem.server.app import host_cookie

    shapes = ("delayed", "one-end") if kind == "end" else ("apart", "together")
    script = LAUNCH if kind == "end" else STREET
    got: dict[str, list[list[int]]] = {shape: [] for shape in shapes}
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as d, sync_playwright() as pw:
        live = ServerThread(Path(d) / "bench.db")
        try:
            tid, cookie = new_table(live)
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                      reduced_motion="no-preference")
            ctx.add_cookies([{"name": host_cookie(tid), "value": cookie, "url": live.url}])
            ctx.add_init_script(MOTION["on"])
            page = ctx.new_page()
            page.goto(f"{live.url}/t/{tid}")
            sit_with_enter(page, "Ann")
            page.evaluate("""async () => { const m = await import('/static/table/motion.js');
              window.__flightKeyframes = m.flightKeyframes || (() => 'chips-fly');
              window.__held = m.heldKeyframes; }""")
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            for _ in range(reps):
                for shape in got:
                    page.wait_for_timeout(400)
                    loads.append(os.getloadavg()[0])
                    browser.start_tracing(page=page, categories=["devtools.timeline",
                                                                 "blink.animations"])
                    page.evaluate(script, [shape])
                    page.wait_for_timeout(1000)
                    events = trace_events(browser.stop_tracing())
                    main = main_threads(events)
                    timed = sorted((e for e in events if e.get("ph") == "X"
                                    and (e.get("pid"), e.get("tid")) in main),
                                   key=lambda e: e["ts"])
                    starts = [e["ts"] for e in timed]
                    spans = frame_spans(events)
                    quiet = 0
                    for a, b in spans:
                        inside = timed[bisect.bisect_left(starts, a):bisect.bisect_right(starts, b)]
                        quiet += not any(e["name"] in SCRIPT for e in inside)
                    styles = sum(1 for e in timed if e["name"] == "UpdateLayoutTree")
                    got[shape].append([len(spans), quiet, styles])
                    if kind == "street":
                        page.evaluate("() => window.__street.forEach((e) => e.remove())")
            browser.close()
        finally:
            live.stop()
    out: dict[str, Any] = {"reps": reps, "load": [round(min(loads), 1), round(max(loads), 1)]}
    for shape, rows in got.items():
        out[shape] = {k: round(sum(r[i] for r in rows) / len(rows), 2)
                      for i, k in enumerate(("frames", "no_script", "styles"))}
        out[shape]["each"] = rows
    for i, k in enumerate(("frames", "no_script", "styles")):
        diffs = [float(a[i] - b[i]) for a, b in zip(got[shapes[0]], got[shapes[1]], strict=True)]
        out[f"{k}_{shapes[0]}_less_{shapes[1]}"] = interval(diffs)
    return out


def interval(values: list[float]) -> list[float]:
    """[mean, low, high]: a 95% t interval of the mean of ``values``."""
    from bench_felt_motion import t975

    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return [round(mean, 2), round(mean, 2), round(mean, 2)]
    sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5
    half = t975(n - 1) * sd / n ** 0.5
    return [round(mean, 2), round(mean - half, 2), round(mean + half, 2)]


def print_summary(s: dict[str, Any], loads: list[Any]) -> None:
    print(f"passes: on {s['passes_on']}, off {s['passes_off']}; load by pass {loads}")
    print(f"frames a pass: on {s['frames_on']}, off {s['frames_off']}")
    print(f"animation-only frames a pass (on): {s['animation_only_frames']};"
          f" frames with no script and nothing running: on {s['quiet_on']}, off {s['quiet_off']}")
    print(f"{'animation':<22}{'started':>8}{'failed':>7}{'frames':>8}{'styles':>8}"
          f"{'paints':>8}{'ms':>8}  (a pass; frames etc.: no script, shared by the names running)")
    for n, r in s["by_name"].items():
        print(f"{n:<22}{r['started']:>8}{r['failed']:>7}{r['frames']:>8}{r['styles']:>8}"
              f"{r['paints']:>8}{r['ms']:>8}" + (f"  not composited: {r['unsupported']}"
                                               if r["unsupported"] else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reread", type=Path, nargs="+",
                    help="bench_felt_motion.py --trace-dir folders")
    ap.add_argument("--states", type=Path, help="recorded states (bench_felt_motion.py --states)")
    ap.add_argument("--pairs", type=int, default=1, help="pairs of passes (on, off) to run")
    ap.add_argument("--trace-dir", type=Path, help="keep the traces here")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--launches", type=int,
                    help="the hand's end's flights alone, this many of each shape")
    ap.add_argument("--street", type=int,
                    help="a street's card, label and sweep alone, this many of each shape")
    args = ap.parse_args()
    if args.launches or args.street:
        got = launches(args.launches or args.street, "end" if args.launches else "street")
        print(json.dumps(got))
        if args.json:
            args.json.write_text(json.dumps(got, indent=1))
        return
    if args.reread:
        passes = reread(args.reread)
    elif args.states:
        import bench_felt_motion as bfm
        states = json.loads(args.states.read_text())
        with tempfile.TemporaryDirectory() as tmp:
            d = args.trace_dir or Path(tmp)
            bfm.run(states, args.pairs, 250.0, 1000.0, 4.0, d, motion="on")
            passes = reread([d])
    else:
        ap.error("give --reread DIR or --states FILE")
    s = summary(passes)
    loads = [p["load"] for p in passes]
    print_summary(s, loads)
    if args.json:
        args.json.write_text(json.dumps({"summary": s, "loads": loads,
                                         "load_now": os.getloadavg()[0]}, indent=1))


if __name__ == "__main__":
    main()
