"""Frames the felt's drawing, animation and sound take on a slow phone (issue 26):
a 10-seat hold'em table (one person, nine computer players that bet) played in
Debian's Chromium at 390x844 with the CPU slowed 4 times (Chrome DevTools
Protocol ``Emulation.setCPUThrottlingRate``), sound on.

Counts, over ``--hands`` hands, how long each drawing of a state took (the
page's ``rollem-render`` measure: render(state, previous), animations started),
its side panels drawn in a later task for a state that changes everything
(``rollem-render-late``), the frames the page drew (``requestAnimationFrame``
intervals) and those longer than 50 ms, and the long animation frames Chromium reports
(``long-animation-frame`` entries, each over 50 ms, with the script time in
them), once with motion and once with ``prefers-reduced-motion: reduce`` (no
animation: the drawing alone), so the animations' own share shows.
``--css RULE`` adds a run with that style added (an experiment: one kind of
motion turned off); ``--idle`` a run of the same page with no hand dealt, as
long as the first run (the frames over 50 ms the machine's load makes alone);
``--cpu`` traces the page and counts its main-thread tasks by CPU time times the
slow-down (what they would last on a quiet machine: a figure the load moves less).
Figures: docs/dev/felt-frames.md.

    .venv/bin/python bench/bench_web_felt.py [--hands 3] [--rate 4] [--idle] [--cpu]

A figure, not a test: the machine's load changes it (say it with the figures).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from table_ui import ARGS, CHROMIUM, PHONE, decision_kind, sit_with_enter
from web_harness import BettingBot, ServerThread

from rollem.server.app import host_cookie

WATCH = """
localStorage.setItem('rollem_alerts', '1');
window.__frames = []; window.__loaf = []; window.__render = []; window.__late = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) {
  if (e.name === 'rollem-render') window.__render.push(e.duration);
  if (e.name === 'rollem-render-late') window.__late.push(e.duration); } })
  .observe({type: 'measure'});
(function tick(last) { requestAnimationFrame(now => { if (last) window.__frames.push(now - last);
  tick(now); }); })(0);
try {
  new PerformanceObserver(list => { for (const e of list.getEntries())
    window.__loaf.push({d: e.duration,
                        script: (e.scripts || []).reduce((n, s) => n + s.duration, 0)}); })
    .observe({type: 'long-animation-frame', buffered: true});
} catch (e) { /* no LoAF here */ }
"""


def cpu_tasks(trace: bytes, rate: float) -> dict[str, Any]:
    """The page's main-thread tasks in a Chromium trace (category ``toplevel``), by
    their CPU time (the trace's ``tdur``: not the time the thread waited for a core
    on a loaded machine, nor the time the CPU throttling stopped it) multiplied by
    ``rate``: what each would last on a quiet machine throttled alike.  Returns the
    tasks over 50 ms so counted, the longest (ms) and the CPU time of all (ms,
    unmultiplied)."""
    data = json.loads(trace)
    events = data["traceEvents"] if isinstance(data, dict) else data
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
            and e["args"].get("name") == "CrRendererMain"}
    cpu = sorted((e.get("tdur", 0) / 1000 for e in events
                  if e.get("ph") == "X" and e.get("name") == "ThreadControllerImpl::RunTask"
                  and (e["pid"], e["tid"]) in main), reverse=True)
    return {"cpu_tasks_over_50ms": sum(1 for c in cpu if c * rate > 50),
            "cpu_task_longest_ms": round(cpu[0] * rate, 1) if cpu else None,
            "cpu_ms_total": round(sum(cpu))}


def run(live: ServerThread, pw: Any, hands: int, rate: float, reduce: bool,
        css: str = "", cpu: bool = False) -> dict[str, Any]:
    r = httpx.post(live.url + "/api/tables", json={
        "game": "holdem", "seats": 10, "bots": 9, "structure": "no-limit", "stack": 400,
        "decision_seconds": 300, "bot_delay": 0.25, "between_hands": 1.0})
    tid = r.json()["id"]
    live.manager.get(tid).bot_factory = lambda level: BettingBot(random.Random(0))
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                              reduced_motion="reduce" if reduce else "no-preference",
                              bypass_csp=bool(css))
    ctx.add_init_script(WATCH)
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
                  " window.__late = []; }")
    if cpu:
        browser.start_tracing(page=page, categories=["toplevel"])
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
    tasks = cpu_tasks(browser.stop_tracing(), rate) if cpu else {}
    browser.close()
    scripts = sorted(e["script"] for e in loaf)
    long = sorted((f for f in frames if f > 50), reverse=True)
    return {"motion": "reduced" if reduce else "on", "css": css, "hands": done,
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
            "late_renders": len(late), **spread("late", late), **tasks}


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
    page.wait_for_timeout(seconds * 1000)
    frames = page.evaluate("window.__frames")
    loaf = page.evaluate("window.__loaf")
    browser.close()
    long = sorted((f for f in frames if f > 50), reverse=True)
    return {"motion": "idle (no hand)", "seconds": seconds, "frames": len(frames),
            "frames_over_50ms": len(long), "longest_ms": round(long[0], 1) if long else None,
            "loaf_over_50ms": len(loaf)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--rate", type=float, default=4.0, help="CPU slow-down (4 = a slow phone)")
    ap.add_argument("--css", action="append", default=[],
                    help="also run with motion on and this style added (an experiment)")
    ap.add_argument("--idle", action="store_true",
                    help="also count the frames of the page with no hand dealt (the floor)")
    ap.add_argument("--cpu", action="store_true",
                    help="also trace the page: its tasks by CPU time x rate (less load-bound)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as d, sync_playwright() as pw:
        live = ServerThread(Path(d) / "bench.db")
        try:
            out = [run(live, pw, args.hands, args.rate, reduce, cpu=args.cpu)
                   for reduce in (False, True)]
            out += [run(live, pw, args.hands, args.rate, False, css, cpu=args.cpu)
                    for css in args.css]
            if args.idle:
                out.append(idle(live, pw, args.rate, float(out[0]["seconds"])))
        finally:
            live.stop()
    print(json.dumps({"rate": args.rate, "viewport": PHONE, "seats": 10, "runs": out}, indent=1))


if __name__ == "__main__":
    main()
