"""A probe inside ``rollem serve``: what stalled the server, and when (issue 13).

Put this folder first on ``PYTHONPATH`` and name a log file in
``ROLLEM_PROBE``; a ``rollem serve`` started so (bench/bench_web_load.py's
server inherits both) appends one line per finding, each stamped with
``time.perf_counter()`` -- the machine's monotonic clock, which
``bench_web_load.py --trace`` also writes (``# start``), so the slow actions
line up with what the server was doing:

    PYTHONPATH=bench/server_probe ROLLEM_PROBE=/tmp/probe.log \\
        .venv/bin/python bench/bench_web_load.py --seconds 60 --trace /tmp/trace.txt

Lines (times in ms):

- ``gc START WALL GEN COLLECTED cpu=CPU``: a garbage collection of generation
  1 or 2, or a young one over 5 ms; ``CPU`` is the thread's own CPU time, so
  a collection that only waited for a core shows a small one.
- ``lag START LATE runq=WAIT``: the event loop woke ``LATE`` ms after a 2 ms
  sleep; ``WAIT`` is how long its thread waited, runnable, for a core
  (``/proc/.../schedstat``): a lag that is mostly ``WAIT`` is the machine's
  other work, not the server's.
- ``stuck START AGE STACK``: the loop has not come back for 30 ms: where its
  thread is (another thread samples it).
- ``commit START WALL RESTARTS runq=WAIT``: the store's COMMIT; ``RESTARTS``
  is the WAL header's checkpoint sequence number (it grows when the WAL
  starts afresh after a complete checkpoint).
- ``ckpt START WALL (FRAMES, COPIED)``: a checkpoint of the store's
  :class:`~rollem.server.store.Checkpointer`.

Only a process whose arguments include ``serve`` is probed.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
import traceback
from typing import Any

_PATH = os.environ.get("ROLLEM_PROBE")


def _run_queue_ns() -> int:
    """Nanoseconds this thread has waited, runnable, for a core (Linux)."""
    with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as f:
        return int(f.read().split()[1])


def _install(path: str) -> None:
    out = open(path, "a", buffering=1)  # noqa: SIM115 -- open for the process's life
    lock = threading.Lock()
    now = time.perf_counter

    def log(*fields: object) -> None:
        with lock:
            out.write(" ".join(str(f) for f in fields) + "\n")

    began = [0.0, 0.0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0], began[1] = now(), time.thread_time()
            return
        wall = now() - began[0]
        if info["generation"] >= 1 or wall > 0.005:
            log("gc", f"{began[0]:.4f}", f"{1000 * wall:.2f}", info["generation"],
                info["collected"], f"cpu={1000 * (time.thread_time() - began[1]):.2f}")

    gc.callbacks.append(on_gc)
    beat = [now(), 0]

    def watch() -> None:
        reported = None
        while True:
            time.sleep(0.003)
            last, count = beat
            if now() - last > 0.030 and reported != count:
                reported = count
                frame = sys._current_frames().get(threading.main_thread().ident or 0)
                stack = "".join(traceback.format_stack(frame, limit=8)) if frame else "?"
                log("stuck", f"{last:.4f}", f"{1000 * (now() - last):.1f}", repr(stack[-1500:]))

    import asyncio

    import uvicorn

    from rollem.server import store as store_module

    serve = uvicorn.Server.serve

    async def probed_serve(self: uvicorn.Server, sockets: Any = None) -> None:
        async def lag() -> None:
            while True:
                start, waited = now(), _run_queue_ns()
                beat[0], beat[1] = start, beat[1] + 1
                await asyncio.sleep(0.002)
                late = now() - start - 0.002
                if late > 0.015:
                    log("lag", f"{start:.4f}", f"{1000 * late:.1f}",
                        f"runq={(_run_queue_ns() - waited) / 1e6:.1f}")

        task = asyncio.get_running_loop().create_task(lag())
        threading.Thread(target=watch, name="probe-watch", daemon=True).start()
        try:
            await serve(self, sockets)
        finally:
            task.cancel()

    uvicorn.Server.serve = probed_serve  # type: ignore[method-assign]

    commit = store_module.Store._commit

    def probed_commit(self: store_module.Store, cur: Any) -> None:
        start, waited = now(), _run_queue_ns()
        commit(self, cur)
        wall = now() - start
        try:
            with open(self.path + "-wal", "rb") as wal:
                restarts = int.from_bytes(wal.read(16)[12:16], "big")
        except OSError:
            restarts = -1
        log("commit", f"{start:.4f}", f"{1000 * wall:.2f}", restarts,
            f"runq={(_run_queue_ns() - waited) / 1e6:.2f}")

    store_module.Store._commit = probed_commit  # type: ignore[method-assign]

    checkpoint = store_module.Checkpointer.checkpoint

    def probed_checkpoint(self: store_module.Checkpointer) -> tuple[int, int] | None:
        start = now()
        result = checkpoint(self)
        log("ckpt", f"{start:.4f}", f"{1000 * (now() - start):.2f}", result)
        return result

    store_module.Checkpointer.checkpoint = probed_checkpoint  # type: ignore[method-assign]


if _PATH and "serve" in sys.argv[1:]:
    _install(_PATH)
