"""A Chrome trace's renderer main thread, as the felt benches read it.

``bench_web_felt.py``, ``bench_felt_states.py``, ``bench_felt_motion.py`` and
``bench_felt_motion_frames.py`` all start from the page's main thread
(``CrRendererMain``) of a trace taken by Playwright/CDP: its timed events
(``ph`` "X" with a thread time ``tdur``, µs) and its async begin/end pairs
(``AnimationFrame``, ``Animation``)."""

from __future__ import annotations

import json
from typing import Any

Event = dict[str, Any]


def trace_events(trace: bytes | str) -> list[Event]:
    """The events of a trace file's text (the JSON object's ``traceEvents``, or
    the bare array)."""
    data = json.loads(trace)
    events: list[Event] = data["traceEvents"] if isinstance(data, dict) else data
    return events


def main_threads(events: list[Event]) -> set[tuple[Any, Any]]:
    """The ``(pid, tid)`` of every renderer main thread (``CrRendererMain``)."""
    return {(e.get("pid"), e.get("tid")) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
            and (e.get("args") or {}).get("name") == "CrRendererMain"}


def timed_on_main(events: list[Event]) -> list[Event]:
    """The main threads' complete events with a thread time, in start order (at a
    tie the longer, i.e. the enclosing one, first)."""
    main = main_threads(events)
    return sorted((e for e in events if e.get("ph") == "X"
                   and (e.get("pid"), e.get("tid")) in main and "tdur" in e),
                  key=lambda e: (e["ts"], -e.get("dur", 0)))


def spread(values: list[float]) -> list[float]:
    """[median, 90th percentile, maximum] of ``values`` (ms, one decimal); zeros for none."""
    v = sorted(values)
    if not v:
        return [0.0, 0.0, 0.0]
    return [round(v[len(v) // 2], 1), round(v[int(len(v) * 0.9)], 1), round(v[-1], 1)]
