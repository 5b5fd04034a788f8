"""Timing traces of the server for load benchmarks (``ROLLEM_TRACE_DIR``, issue 17).

When the environment variable ``ROLLEM_TRACE_DIR`` names a directory, the
server writes there, one file per kind and process (``<kind>.<pid>``), one
line per event, wall-clock seconds first (to set beside the benchmark's
``--trace`` and PostgreSQL's log):

- ``commit``: every group commit of the store's writer thread: start, the
  milliseconds the transaction took, the writes in it, the milliseconds the
  oldest of them had waited in the queue before it started, and the
  milliseconds the writer thread spent runnable but not running (waiting for
  a CPU: Linux's ``schedstat``) from the end of its previous commit to the
  end of this one;
- ``pg`` (PostgreSQL): every group commit's query: start, milliseconds to
  build it, milliseconds from sending it to its answer, this thread's CPU
  milliseconds and milliseconds waiting for a CPU meanwhile, its length;
- ``loop``: every event-loop stall of more than :data:`LAG_MS`: when it was
  seen, how many milliseconds late a 5 ms timer woke, how many of them
  the loop's thread spent waiting for a CPU, and the CPU milliseconds the loop's
  thread used meanwhile (its own work: the part of a stall a busier machine
  does not add to);
- ``gc``: every garbage collection longer than 5 ms: end, milliseconds, generation.
- ``bot``: every computer player's decision, back on the event loop: when,
  the table id, the seat, the milliseconds from asking (its ``bot_delay``
  over) to the bot starting to think (the wait in the bot thread's queue),
  and to the decision being back on the event loop.

Without the variable nothing is measured or written.
"""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import time
from typing import IO, Any

__all__ = ["LAG_MS", "TRACE_DIR", "line", "run_delay_ms", "watch_loop"]

TRACE_DIR = os.environ.get("ROLLEM_TRACE_DIR") or None
LAG_MS = 10.0

_files: dict[str, IO[str]] = {}
_lock = threading.Lock()


def line(kind: str, *fields: object) -> None:
    """Append one line (space-separated ``fields``) to this process's ``kind`` file
    (nothing without ``ROLLEM_TRACE_DIR``)."""
    if TRACE_DIR is None:
        return
    path = os.path.join(TRACE_DIR, f"{kind}.{os.getpid()}")
    with _lock:
        out = _files.get(path)
        if out is None:  # open for the process's life, a line at a time
            out = _files[path] = open(path, "a", buffering=1)  # noqa: SIM115
        out.write(" ".join(str(f) for f in fields) + "\n")


def run_delay_ms() -> float:
    """Milliseconds the calling thread has spent so far waiting for a CPU (runnable
    but not running; Linux's ``/proc/thread-self/schedstat``), 0.0 where unknown."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return 0.0


async def _loop_lag() -> None:
    while True:
        t0, wait0, cpu0 = time.perf_counter(), run_delay_ms(), time.thread_time()
        await asyncio.sleep(0.005)
        late = (time.perf_counter() - t0 - 0.005) * 1000
        if late > LAG_MS:
            line("loop", f"{time.time():.4f}", f"{late:.1f}", f"{run_delay_ms() - wait0:.1f}",
                 f"{(time.thread_time() - cpu0) * 1000:.1f}")


_gc_start = [0.0]


def _gc_timer(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_start[0] = time.perf_counter()
        return
    ms = (time.perf_counter() - _gc_start[0]) * 1000
    if ms > 5:
        line("gc", f"{time.time():.4f}", f"{ms:.1f}", info.get("generation"))


def watch_loop() -> asyncio.Task[None] | None:
    """With ``ROLLEM_TRACE_DIR``: start tracing the running loop's stalls and the
    garbage collector; the task (``None`` without the variable)."""
    if TRACE_DIR is None:
        return None
    gc.callbacks.append(_gc_timer)
    return asyncio.get_running_loop().create_task(_loop_lag())
