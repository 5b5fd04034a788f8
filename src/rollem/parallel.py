"""Splitting a seeded job over worker processes (``simulate --workers``).

A job of ``total`` units (hands, Monte Carlo samples) is cut into
``workers`` contiguous parts (:func:`split_counts`); part ``k`` gets its own
random stream seeded by :func:`child_seed` from the job's seed, ``k`` and the
number of parts, so the same seed and worker count always give the same
parts, whatever order the processes finish in, and no two parts share a
stream. :func:`run_parts` runs one function per part: the last in this
process, the others in a process pool (see :func:`_start_method`), and
returns the results in part order.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

__all__ = ["child_seed", "job_seed", "run_parts", "split_counts"]

R = TypeVar("R")


def job_seed(seed: int | None) -> int:
    """``seed`` itself, or a fresh unpredictable 64-bit seed when ``None``."""
    return random.SystemRandom().getrandbits(64) if seed is None else seed


def child_seed(seed: int, index: int, count: int) -> int:
    """The 64-bit seed of part ``index`` (0-based) of ``count`` parts of a job.

    A hash (SHA-256) of the three numbers, so distinct parts, distinct job
    seeds and distinct worker counts give unrelated streams.

    Raises:
        ValueError: ``index`` not in ``0 .. count - 1``.
    """
    if not 0 <= index < count:
        raise ValueError(f"part {index}: expected 0 to {count - 1}")
    digest = hashlib.sha256(f"rollem-part:{seed}:{index}:{count}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def split_counts(total: int, workers: int) -> list[int]:
    """``total`` units cut into ``min(workers, total)`` near-equal parts.

    The first ``total % parts`` parts get one unit more; the sum is ``total``.
    ``split_counts(10, 3) == [4, 3, 3]``.

    Raises:
        ValueError: ``total`` < 1 or ``workers`` < 1.
    """
    if total < 1:
        raise ValueError(f"total {total}: expected at least 1")
    if workers < 1:
        raise ValueError(f"workers {workers}: expected at least 1")
    parts = min(workers, total)
    base, extra = divmod(total, parts)
    return [base + (1 if k < extra else 0) for k in range(parts)]


def _start_method() -> str:
    """How worker processes start: ``fork`` on Linux while this process runs one
    thread (a worker then starts at once, with every module this process has
    loaded), else ``forkserver`` where the platform has it, else ``spawn``
    (both safe in a program that already runs threads: a fork copies only the
    forking thread, and a lock another thread held would stay locked)."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def run_parts(
    fn: Callable[..., R],
    part_args: Sequence[tuple[Any, ...]],
    *,
    on_done: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[fn(*args) for args in part_args]``, one process per part.

    ``fn`` and its arguments must be picklable (a module-level function).
    The last part runs in this process (it would only wait otherwise), the
    others each in a worker process started for the job; with one part there
    is no pool. ``on_done(index, result)`` is called in this process as each
    part finishes (any order).

    Raises:
        whatever ``fn`` raised in a part that failed (this process's part
        first; then the first worker's part to fail, in part order).
    """
    last = len(part_args) - 1
    if last == 0:
        result = fn(*part_args[0])
        if on_done is not None:
            on_done(0, result)
        return [result]
    ctx = multiprocessing.get_context(_start_method())
    results: dict[int, R] = {}
    with ProcessPoolExecutor(max_workers=last, mp_context=ctx) as pool:
        futures = {pool.submit(fn, *args): k for k, args in enumerate(part_args[:last])}
        try:
            results[last] = fn(*part_args[last])
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        if on_done is not None:
            on_done(last, results[last])
        for fut in as_completed(futures):
            k = futures[fut]
            results[k] = fut.result()
            if on_done is not None:
                on_done(k, results[k])
    return [results[k] for k in range(len(part_args))]
