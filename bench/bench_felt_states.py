"""What one state's drawing costs the main thread on a slow phone (issue 26), state
by state, the same states for every tree: a 10-seat hold'em table (Ann seated,
nine computer players that bet) at 390x844, its states recorded once (``--record
FILE``: three hands played, each state the page received), then drawn again
through the page's own ``hooks.render(state, previous)`` (``--states FILE``), one
state a task, two frames and a pause between, Chromium's CPU slowed 4 times
(``Emulation.setCPUThrottlingRate``), ``prefers-reduced-motion`` by default (the
drawing alone; ``--motion`` for the animations too), traced.

For each state: the thread time (``tdur``: not the time the thread waited for a
core, so the load moves it less than wall-clock frames; it holds the throttling)
of the task that drew it (script, and any style or layout it forced) and of the
next main-thread frame (``BeginMainFrame``: style, layout, pre-paint, paint,
layerize), and their sum, the state's cost; medians, 90th percentiles and maxima by
kind of state (``deal``: a new hand, ``end``: a hand's end, ``turn``: your turn
comes, ``street``: a new betting round, ``state``: any other), and each
part's mean.  ``--css RULE`` (written for ``html.x``, e.g. ``"html.x .seat {
contain: layout paint }"``) adds the rule and draws the states ``--passes``
times, the class ``x`` on the root every other pass: a paired experiment in one
page (the load hits both alike).  A tree other than this one: run this file with
``PYTHONPATH`` of its ``src`` (the states' protocol is the server's, the drawing
the page's: the same states for both).  A side panel drawn after a paint (a deal,
an end) is a task of its own, not counted here.

    .venv/bin/python bench/bench_felt_states.py --record /tmp/states.json
    .venv/bin/python bench/bench_felt_states.py --states /tmp/states.json [--motion]
        [--css RULE --passes 4] [--trace FILE] [--json FILE]

A figure, not a test: say the machine's load with it.  Figures:
docs/dev/felt-frames.md.
"""

from __future__ import annotations

import argparse
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

from felt_trace import spread, timed_on_main, trace_events
from rollem.server.app import host_cookie

RECORD = """window.__states = [];
window.addEventListener('rollem:state',
  () => window.__states.push(JSON.stringify(window.rollemState.state)));"""
"""Keeps each state the page receives (as the server sent it)."""

REPLAY = """
window.drawOne = function drawOne() {
  const i = window.__i++;
  window.__hooks.render(window.__states[i], i ? window.__states[i - 1] : null);
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(window.__next, 60)));
};
"""
"""Draws the next saved state in a task of its own (``drawOne``: its name finds the
task in the trace), then waits two frames and 60 ms."""

FRAME_PARTS = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize")


def new_table(live: ServerThread) -> tuple[str, str]:
    """A 10-seat no-limit hold'em table of nine betting computer players:
    (its id, the host's cookie)."""
    r = httpx.post(live.url + "/api/tables", json={
        "game": "holdem", "seats": 10, "bots": 9, "structure": "no-limit", "stack": 400,
        "decision_seconds": 300, "bot_delay": 0.25, "between_hands": 1.0})
    tid = r.json()["id"]
    live.manager.get(tid).bot_factory = lambda level: BettingBot(random.Random(0))
    return tid, r.cookies[host_cookie(tid)]


def kind_of(state: dict[str, Any], previous: dict[str, Any] | None) -> str:
    """What kind of state ``state`` is after ``previous``: deal, end, turn, street
    or state."""
    hand, old = state.get("hand"), (previous or {}).get("hand")
    if hand and (not old or old.get("hand_no") != hand.get("hand_no")):
        return "deal"
    if hand and hand.get("result") and not (old and old.get("result")):
        return "end"
    legal = (hand or {}).get("legal") or {}
    old_legal = (old or {}).get("legal") or {}
    if legal.get("actions") and not old_legal.get("actions"):
        return "turn"
    if hand and old and hand.get("round") != old.get("round"):
        return "street"
    return "state"


def per_state(trace: bytes) -> list[dict[str, Any]]:
    """Each ``drawOne`` task of the trace, in order: its thread time (ms) and that of
    the next main-thread frame, with the frame's parts (each event's own thread time
    by name, ms)."""
    mine = timed_on_main(trace_events(trace))
    tops: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for e in mine:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1].get("dur", 0):
            stack.pop()
        if stack:
            stack[-1]["_kids"] = stack[-1].get("_kids", 0) + e["tdur"]
            stack[0]["_in"].append(e)
        else:
            e["_in"] = []
            tops.append(e)
        stack.append(e)

    def drawn(task: dict[str, Any]) -> bool:
        return any(x["name"] == "FunctionCall"
                   and (x.get("args", {}).get("data") or {}).get("functionName") == "drawOne"
                   for x in task["_in"])

    out = []
    for k, task in enumerate(tops):
        if not drawn(task):
            continue
        frame = next((u for u in tops[k + 1:k + 40] if (u.get("args") or {}).get("src_func")
                      == "ScheduledActionSendBeginMainFrame"), None)
        parts: dict[str, float] = {}
        for x in frame["_in"] if frame else []:
            own = max(0, x["tdur"] - x.get("_kids", 0)) / 1000
            parts[x["name"]] = parts.get(x["name"], 0.0) + own
        out.append({"task_ms": task["tdur"] / 1000,
                    "frame_ms": frame["tdur"] / 1000 if frame else 0.0,
                    "parts": {p: parts.get(p, 0.0) for p in FRAME_PARTS}})
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Over ``rows`` (states with their ``kind``): the states, their cost (task and
    frame) as [median, p90, max], how many cost over 50 ms, the task's and the
    frame's spreads and each frame part's mean, and the cost by kind of state."""
    cost = [r["task_ms"] + r["frame_ms"] for r in rows]
    n = max(1, len(rows))
    return {"states": len(rows), "cost_ms": spread(cost),
            "over_50ms": sum(1 for c in cost if c > 50),
            "task_ms": spread([r["task_ms"] for r in rows]),
            "frame_ms": spread([r["frame_ms"] for r in rows]),
            "frame_parts_mean_ms": {p: round(sum(r["parts"][p] for r in rows) / n, 1)
                                    for p in FRAME_PARTS},
            "by_kind": {k: [sum(1 for r in rows if r["kind"] == k),
                            *spread([r["task_ms"] + r["frame_ms"] for r in rows
                                     if r["kind"] == k])]
                        for k in ("deal", "end", "turn", "street", "state")}}


def record(live: ServerThread, pw: Any, out: Path, hands: int) -> int:
    """Play ``hands`` hands as Ann (checking or calling) and write every state the
    page received to ``out``; returns how many."""
    tid, cookie = new_table(live)
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.add_cookies([{"name": host_cookie(tid), "value": cookie, "url": live.url}])
    ctx.add_init_script(RECORD)
    page = ctx.new_page()
    page.goto(f"{live.url}/t/{tid}")
    sit_with_enter(page, "Ann")
    page.evaluate("window.__states = []")
    page.click("#start-btn")
    table = live.manager.get(tid)
    end = time.monotonic() + 300
    while (table.last_result is None or int(table.last_result["hand"]) < hands) \
            and time.monotonic() < end:
        if decision_kind(page) == "bet":
            page.locator("#controls [data-action=call], #controls [data-action=check]"
                         ).first.click()
        page.wait_for_timeout(50)
    page.wait_for_timeout(1500)
    states = [json.loads(s) for s in page.evaluate("window.__states")]
    browser.close()
    out.write_text(json.dumps(states))
    return len(states)


def replay(live: ServerThread, pw: Any, states: list[dict[str, Any]], motion: bool,
           css: str, passes: int, rate: float, trace_file: Path | None) -> dict[str, Any]:
    """Draw ``states`` ``passes`` times in a fresh page (Ann seated at a table like the
    one they came from, its connection closed) and return the figures: one summary,
    or with ``css`` one for the passes without the class ``x`` on the root and one
    for those with it (each pass's first state left out)."""
    tid, cookie = new_table(live)
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                              reduced_motion="no-preference" if motion else "reduce")
    ctx.add_cookies([{"name": host_cookie(tid), "value": cookie, "url": live.url}])
    ctx.add_init_script(REPLAY)
    if css:
        ctx.add_init_script("document.addEventListener('DOMContentLoaded', () => {"
                            " const s = document.createElement('style');"
                            f" s.textContent = {json.dumps(css)};"
                            " document.head.appendChild(s); });")
    page = ctx.new_page()
    page.goto(f"{live.url}/t/{tid}")
    sit_with_enter(page, "Ann")
    page.evaluate("""async (states) => {
      const m = await import('/static/table/state.js');
      m.abandon();   // (no state of its own from now on)
      window.__hooks = m.hooks; window.__states = states; window.__i = 0;
    }""", states)
    ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.wait_for_timeout(500)
    load = os.getloadavg()[0]
    browser.start_tracing(page=page, categories=["toplevel", "devtools.timeline"])
    for p in range(passes):
        page.evaluate("(on) => { window.__i = 0;"
                      " document.documentElement.classList.toggle('x', on); }", p % 2 == 1)
        page.wait_for_timeout(300)
        for _ in states:
            page.evaluate("() => new Promise((res) => { window.__next = res;"
                          " setTimeout(drawOne, 0); })")
    trace = browser.stop_tracing()
    browser.close()
    if trace_file:
        trace_file.write_bytes(trace)
    rows = per_state(trace)
    n = len(states)
    kinds = [kind_of(s, states[i - 1] if i else None) for i, s in enumerate(states)]
    for k, r in enumerate(rows):
        r["kind"] = kinds[k % n]
    figures: dict[str, Any] = {"motion": "on" if motion else "reduced", "rate": rate,
                               "load": [round(load, 2), round(os.getloadavg()[0], 2)],
                               "drawn": len(rows)}
    if css:
        figures["css"] = css
        figures["without"] = summary([r for k, r in enumerate(rows)
                                      if (k // n) % 2 == 0 and k % n])
        figures["with"] = summary([r for k, r in enumerate(rows)
                                   if (k // n) % 2 == 1 and k % n])
    else:
        figures["all"] = summary([r for k, r in enumerate(rows) if k % n])
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", type=Path, help="play --hands hands and save the states here")
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--states", type=Path, help="draw the states saved in this file")
    ap.add_argument("--motion", action="store_true", help="animations on (default: reduced)")
    ap.add_argument("--css", default="", help="a rule for html.x, on every other pass")
    ap.add_argument("--passes", type=int, default=1, help="draw the states this many times")
    ap.add_argument("--rate", type=float, default=4.0, help="CPU slow-down (4 = a slow phone)")
    ap.add_argument("--trace", type=Path, help="keep the Chromium trace here")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    if not args.record and not args.states:
        ap.error("give --record FILE (play and save states) or --states FILE (draw them)")
    if args.css and args.passes < 2:
        ap.error("--css needs --passes 2 or more (passes without and with it, in turn)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as d, sync_playwright() as pw:
        live = ServerThread(Path(d) / "bench.db")
        try:
            if args.record:
                print(f"recorded {record(live, pw, args.record, args.hands)} states"
                      f" in {args.record}")
                return
            states = json.loads(args.states.read_text())
            figures = replay(live, pw, states, args.motion, args.css, args.passes, args.rate,
                             args.trace)
        finally:
            live.stop()
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
