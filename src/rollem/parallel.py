"""Splitting a seeded job over worker processes (``simulate --workers``).

A job of ``total`` units (hands, Monte Carlo samples) is cut into
``workers`` contiguous parts (:func:`split_counts`); part ``k`` gets its own
random stream seeded by :func:`child_seed` from the job's seed, ``k`` and the
number of parts, so the same seed and worker count always give the same
parts, whatever order the processes finish in, and no two parts share a
stream. :func:`run_parts` runs one function per part: the last in this
process, the others in a process pool (see :func:`_start_method`), and
returns the results in part order. Given a Ray cluster's address
(``cluster``, issue 30), every part runs there instead, as one Ray task: the
same parts and seeds, so the same results as on this machine.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import random
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from types import ModuleType
from typing import Any, TypeVar

from rollem.text import ascii_digits

__all__ = ["ClusterError", "child_seed", "job_seed", "run_parts", "split_counts"]

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


class ClusterError(RuntimeError):
    """A Ray cluster that cannot be used: Ray not installed, or no cluster at the
    address given (the message says which and what to do)."""


def run_parts(
    fn: Callable[..., R],
    part_args: Sequence[tuple[Any, ...]],
    *,
    on_done: Callable[[int, R], None] | None = None,
    cluster: str | None = None,
) -> list[R]:
    """``[fn(*args) for args in part_args]``, one process per part.

    ``fn`` and its arguments must be picklable (a module-level function).
    The last part runs in this process (it would only wait otherwise), the
    others each in a worker process started for the job; with one part there
    is no pool. ``on_done(index, result)`` is called in this process as each
    part finishes (any order).

    ``cluster``: a Ray cluster's address (``"auto"``: the one this machine
    belongs to; ``"HOST:PORT"``: its head node), issue 30. Every part is then
    one Ray task on the cluster (rollem must be installed on its nodes), none
    in this process; the results are the same, in part order.

    Raises:
        ClusterError: ``cluster`` given, and Ray is not installed (the
            ``distributed`` extra) or no cluster answers there.
        whatever ``fn`` raised in a part that failed (this process's part
        first; then the first worker's part to fail, in part order).
    """
    if cluster is not None:
        return _run_on_cluster(fn, part_args, on_done, cluster)
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


def _run_on_cluster(fn: Callable[..., R], part_args: Sequence[tuple[Any, ...]],
                    on_done: Callable[[int, R], None] | None, cluster: str) -> list[R]:
    """:func:`run_parts` on a Ray cluster: one task per part, results in part order."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray needs Ray: pip install 'rollem[distributed]'") from None
    if not ray.is_initialized():
        _reachable(cluster)
        try:
            ray.init(address=cluster, log_to_driver=False, logging_level=logging.ERROR,
                     configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise ClusterError(f"no Ray cluster at {cluster!r} ({_first_line(err)}); start "
                               "one with: ray start --head") from None
    module = sys.modules.get(fn.__module__)
    if module is not None and fn.__module__ != "__main__" \
            and not fn.__module__.startswith("rollem"):
        # a script's function (bench/, a test): its module is not installed on the
        # nodes, so it travels with the task instead of being imported there
        register: Callable[[ModuleType], None] = (
            ray.cloudpickle.register_pickle_by_value)  # (untyped in Ray: no call checks)
        register(module)
    task = ray.remote(fn)
    pending = {task.remote(*args): k for k, args in enumerate(part_args)}
    results: dict[int, R] = {}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        k = pending.pop(ready[0])
        results[k] = ray.get(ready[0])
        if on_done is not None:
            on_done(k, results[k])
    return [results[k] for k in range(len(part_args))]


def _reachable(cluster: str) -> None:
    """Refuse at once a ``HOST:PORT`` that nothing answers at (Ray itself retries
    for minutes); ``auto`` is Ray's to find."""
    import socket

    if cluster == "auto" or cluster.startswith("ray://"):
        return
    host, sep, port = cluster.rpartition(":")
    if not sep or not host or not ascii_digits(port) or not 0 < int(port) < 65536:
        raise ClusterError(f"--ray {cluster!r}: expected auto or HOST:PORT (the head node's "
                           "address, as ray start --head prints it)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as err:
        raise ClusterError(f"no Ray cluster at {cluster!r} ({err.strerror or err}); start one "
                           "with: ray start --head") from None


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0][:200] if text else type(err).__name__
