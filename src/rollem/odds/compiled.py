"""Compiled loops for the Roll Your Own samplers' hottest steps (issue 33).

At 6 players the late Roll Your Own views (:mod:`rollem.odds.ryoseen`) draw
a few hundred thousand candidate cards and weigh as many six-card keeps a
batch, each step whole-batch numpy at a few nanoseconds an element; more
worlds per CPU second narrows the interval shown in play directly (branch
s56-fast). This module holds the same steps as loops compiled by numba
(https://numba.pydata.org), one pass per row and no temporaries:

- :func:`keep_chance_rows`: the fast policy's keep chance
  (:func:`rollem.odds.keepchance.keep_chance`), the same scores, ties and
  floating-point operations, so the same chances bit for bit;
- :func:`pick_each_rows`: :func:`rollem.odds.ryoseen._pick_each`'s uniform
  draws, reading the same ``numpy.random.Generator`` (numba shares its state
  and draws ``random()`` as numpy does) in the same order: the same cards,
  and the generator left where numpy's loop leaves it;
- :func:`search_rows`: :func:`rollem.odds.ryoseen._sample_rows`' search of
  each row's cumulative masses, within the row (the same index as numpy's
  ``searchsorted`` over every row laid end to end);
- :func:`read_names` and :func:`choose_rows`:
  :func:`rollem.odds.ryoseen._read_opponent`'s candidates laid out and the
  one kept per world (integers and numpy's running sums: the same cards;
  its ``exp`` and sums stay in numpy; branch s57-ryo2);
- :func:`sample_rows`, :func:`second_round`, :func:`move_step`,
  :func:`steer_step`, :func:`read_weigh` and :func:`relabel_owners`
  (branch s62-ryo): more of a batch in one call each (a sampler's draw past
  its random numbers, a whole Metropolis step, an opponent's candidates
  laid out and weighed, the owners of the named labels), the numpy path's
  floating-point operations in its order. The two steps' acceptance takes
  ``log`` and ``exp`` in the kernel (the C library's, which numpy uses on
  this machine's CPUs, bit for bit; where numpy has its own, as with
  AVX-512, they may differ in the last place, which changes an acceptance
  only where its uniform falls within that place); every other ``log`` and
  ``exp`` stays in numpy.

- :func:`read_draw` and :func:`read_score` (branch s63-ryo): an opponent's
  read, every origin's candidates in one pass and their weighing and choice
  in another, and :func:`layout_origins`, the layout's draw of an opponent's
  origins. The read has its own random stream and libm's ``exp``/``log``:
  the numpy path's law, not its bits (``rollem.odds.ryoseen.READ_FUSED``
  False reads origin by origin, as before); the layout's draw gives the
  numpy loop's bits on this machine.

Every caller keeps its numpy path, used where numba is not installed or
``ROLLEM_NO_NUMBA`` is set in the environment (or :data:`ENABLED` is set
False), and gives the same results either way (tests/test_odds_compiled.py),
but for the one-pass read (the same law, other random numbers).
The kernels are compiled in a background thread from the first
:func:`use` on (seconds of CPU the first time after an install, cached on
disk next to this file or in numba's user cache; from the cache a fraction
of a second a process), and the numpy paths answer until they are ready:
the same figures, so nothing shown in play waits on the compiler. A run
fixes its read when it begins, and a seeded run outside play waits for the
kernels (:func:`rollem.odds.ryoseen.ryo_seen_look`), so a seed gives the
same figures in every process. Processes of one
install that start together (a server's processes, a test run's workers)
compile one at a time (:func:`_compile_lock`): the first compiles and writes
the cache, the others then load it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rollem.odds.common import Floats, Ints
from rollem.odds.look521 import Bools

Ints32 = npt.NDArray[np.int32]
"""Cards in half the memory (read_draw's candidates; branch s67-fast)."""


def _findable() -> bool:
    """Whether numba is installed (not imported: its import, a few tenths of
    a second of CPU, is made by the background compile) and not refused by
    ``ROLLEM_NO_NUMBA``."""
    if os.environ.get("ROLLEM_NO_NUMBA"):
        return False
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # pragma: no cover
        return False


AVAILABLE = _findable()
"""Whether numba is installed (and ``ROLLEM_NO_NUMBA`` is not set)."""

ENABLED = AVAILABLE
"""Whether the samplers call the compiled loops (set False to use the numpy
paths, as the tests comparing the two do)."""


_READY = threading.Event()
_STARTED = threading.Lock()


def use() -> bool:
    """Whether the compiled loops are to be used now: :data:`ENABLED` and
    compiled. The first call starts their compiling (or loading from the
    disk cache) in a background thread and answers False until it is done:
    the numpy paths give the same results meanwhile, so no figure waits on
    the compiler (a second or more the first time after an install)."""
    if not ENABLED:
        return False
    if _READY.is_set():
        return True
    _start()
    return False


NOTICE_AFTER = 1.0
"""Seconds :func:`wait` waits for the loops before it calls the notice set by
:func:`waiting_notice`, if any (s64-loop)."""

_notice: Callable[[], None] | None = None


@contextlib.contextmanager
def waiting_notice(notice: Callable[[], None]) -> Iterator[None]:
    """Within it, a :func:`wait` still waiting for the loops after
    :data:`NOTICE_AFTER` seconds calls ``notice()`` once, then waits on: the
    first seeded ``rollem odds`` after an install compiles them (about 14 s,
    s64-loop) and said nothing meanwhile; the CLI prints one line to stderr
    (:mod:`rollem.cli.odds_cmd`).  The library and the web table set none:
    nothing is printed, and nothing changes in what a call returns.  Not for
    threads at once (one notice a process)."""
    global _notice
    before, _notice = _notice, notice
    try:
        yield
    finally:
        _notice = before


def wait(timeout: float | None = None) -> bool:
    """Start compiling if not started and wait up to ``timeout`` seconds
    (``None``: as long as it takes) for the loops: whether they are used
    now (:func:`use`). For benches and tests, which compare the paths, and a
    seeded run outside play (:func:`rollem.odds.ryoseen.ryo_seen_look`).
    Past :data:`NOTICE_AFTER` seconds it calls the notice of
    :func:`waiting_notice`, if one is set."""
    if not ENABLED:
        return False
    _start()
    notice = _notice
    if notice is not None and (timeout is None or timeout > NOTICE_AFTER) \
            and not _READY.wait(NOTICE_AFTER):
        notice()
        timeout = None if timeout is None else timeout - NOTICE_AFTER
    _READY.wait(timeout)
    return use()


def _start() -> None:
    """The background compile, once a process."""
    if _STARTED.acquire(blocking=False):
        threading.Thread(target=_warm, name="rollem-compile", daemon=True).start()


def _warm() -> None:
    """Every kernel compiled (or loaded from the cache) for the argument
    types the samplers pass, each on empty input; then :func:`use` answers
    True. Where compiling fails the numpy paths stay in use. Processes that
    start together take turns (:func:`_compile_lock`)."""
    try:
        with _compile_lock():
            _warm_all()
    except Exception:  # pragma: no cover - a broken install: numpy it is
        return
    _READY.set()


LOCK_WAIT = 300.0
"""Seconds a process waits for another's compile (:func:`_compile_lock`) before
compiling without the lock."""


@contextlib.contextmanager
def _compile_lock() -> Iterator[None]:
    """An exclusive lock (``flock``) on a file in the temporary folder named
    after this module's path and the user, held while the kernels are compiled
    or loaded. numba's disk cache is written at the end of a compile: without
    the lock, processes that start together each compile the whole set (about
    9 CPU-s each; a test run's two workers did, issue 33's tests among their
    first). With it the first compiles and the others, once it is done, load
    the cache (about 1 CPU-s). Waits up to :data:`LOCK_WAIT` seconds for the
    lock, then goes on without it; where no lock can be taken (no ``fcntl``, no
    writable temporary folder) it does not wait at all."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    key = hashlib.sha256(str(Path(__file__).resolve()).encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"rollem-compile-{os.getuid()}-{key}.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # pragma: no cover - no writable temporary folder
        yield
        return
    try:
        end = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= end:
                    break  # (another process holds it too long: compile anyway)
                time.sleep(0.05)
            except OSError:  # pragma: no cover - no locks on this file system
                break
        yield  # (closing the file below lets the lock go)
    finally:
        os.close(fd)


def _warm_all() -> None:
    """The kernels made numba functions and each called once on empty input,
    for the argument types the samplers pass (compiled, or loaded from the
    disk cache)."""
    i0, f0 = np.zeros(0, dtype=np.int64), np.zeros(0)
    i2, i6 = np.zeros((0, 2), dtype=np.int64), np.zeros((0, 6), dtype=np.int64)
    t16 = np.zeros(4, dtype=np.int16)
    b0 = np.zeros(0, dtype=bool)
    _compile_all()
    keep_chance_rows(np.zeros((0, 3), dtype=np.int64), np.zeros((0, 3), dtype=np.int64),
                     t16, 0.0)
    pick_each_rows(np.random.default_rng(0), i0, i0, 52, 1, 1, None)
    pick_avail_rows(np.random.default_rng(0), np.zeros((0, 52), dtype=bool), 1, 1, None)
    relabel_places(np.zeros((0, 1), dtype=bool), np.zeros((0, 1), dtype=np.int64),
                   np.zeros((0, 1, 3), dtype=np.int64), np.zeros((0, 1), dtype=np.int64),
                   np.zeros((0, 1), dtype=np.int64), 3)
    search_rows(f0, f0, 52, i0)
    relabel_owners(np.zeros((0, 1), dtype=np.int64), i0, [np.zeros((1, 1))],
                   np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1), dtype=np.int64), i0, f0,
                   f0, np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1)))
    for place in (False, True):
        proposal = move_propose(place, f0, f0 if place else None, None if place else i0,
                                i0, i0, i0, i0, i0, i0, i0, i0, i0, i0, i0, i6, f0, f0,
                                i0, i0, f0, t16, 0.0, 1, 1)
        move_apply(place, b0, proposal, i0, i0, i6, i0, b0, i0, i0, i0, f0, f0, i0, 1, 1)
        move_step(place, f0, f0 if place else None, None if place else i0, f0, b0, i0, i0,
                  i0, i0, i0, i0, i0, i0, i0, i0, i0, i6, f0, f0, i0, i0, f0, t16, 0.0, i0,
                  b0, i0, 1, 1, move_buffers(0))
    move_fixed = (i0, i0, i0, i0, i0, i0, i0, i0, i0, i0, i0, i6, f0, f0, i0, i0, f0, t16, 0.0,
                  i0, b0, i0, 1, 1, *move_buffers(0))
    steer_fixed = (f0, f0, f0, i0, i0, i0, i2, f0, i0, i0, i0, i0, i6, i0, f0, f0, i0, f0, t16,
                   0.0, 1, 1, 0)
    move_chain(np.random.default_rng(0), 0, 0, 2, 2, 0, 2, b0, b0, move_fixed, steer_fixed,
               np.zeros((1, 0), dtype=np.int64), np.zeros((3, 0)), i0)
    steer = steer_propose(0, f0, i0, f0, f0, f0, i0, i0, i0, i2, f0, i0, i0, i0, i0, i6,
                          i0, f0, f0, i0, f0, t16, 0.0, 1, 1)
    steer_apply(b0, steer, i0, i0, f0, f0, i0, 1, 0)
    steer_step(0, f0, f0, i0, f0, f0, f0, i0, i0, i0, i2, f0, i0, i0, i0, i0, i6, i0, f0, f0,
               i0, f0, t16, 0.0, 1, 1, 0)
    i3 = np.zeros((0, 0, 0), dtype=np.int64)
    b2 = np.zeros((0, 0), dtype=bool)
    list_slots(b2)
    six_slots(np.zeros((0, 1), dtype=np.int64), 1, 0, 1)
    where_cards(np.zeros((0, 1), dtype=np.int64), b2, 0)
    fill_labels(np.zeros((0, 1), dtype=np.int64), b2, np.zeros((0, 1)))
    for steered, shower in ((False, -1), (True, 0), (True, -2)):
        place_discard(np.random.default_rng(0), np.zeros(1, dtype=bool), np.ones(1), steered,
                      shower, i0 - 1, 0, np.zeros((0, 1), dtype=bool),
                      np.zeros((0, 1), dtype=np.int64), f0, np.zeros((0, 1)))
    cards_of(np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1), dtype=np.int64))
    shuffle_rows(np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1)))
    systematic(f0, 0.0, 0)
    fill_hands(np.zeros((0, 1, 2, 5), dtype=np.int64), 0, i0, np.zeros((0, 1, 3), dtype=np.int64),
               np.zeros((0, 1), dtype=np.int64), np.zeros(1, dtype=np.int64), [i0],
               np.zeros((0, 7), dtype=np.int64))  # (rest: the 7 cards the 2 hands need)
    relabel_rest(np.zeros((0, 1), dtype=np.int64), b2, np.zeros((0, 1), dtype=np.int64),
                 np.zeros((0, 3)), np.zeros((0, 1, 3)))
    read_names(i0, 1, i2, i2, b2, i2, b2, i0, i2, i3, i3)
    read_weigh(i0, 1, i2, i2, b2, i2, b2, i0, i2, i3, i3, t16, 0.0, i0, f0, 0, f0,
               np.zeros((0, 1)))
    choose_rows(np.zeros((0, 1)), f0, i3, i3)
    sample_rows(np.zeros((0, 52)), np.zeros((0, 1)))
    sample_rows(np.zeros((0, 52), dtype=np.float32), np.zeros((0, 1)))
    second_round(i0, f0, i0, f0, f0, f0, b0, 1, i0)
    kept3, val3, fac = read_draw(np.random.default_rng(0), i0, np.zeros((0, 52), dtype=bool),
                                 i2, i2, i0, 0, i0, i0, np.zeros((0, 3), dtype=np.int64),
                                 np.zeros((0, 52)), np.zeros((0, 52, 52)), np.zeros(53), 1)
    read_score(np.random.default_rng(0), kept3, val3, fac, t16, 0.0, i0, f0, 0)
    layout_origins(i2, i2, i0, i2, i2, b0, f0, f0, np.zeros(53), 0, f0, np.zeros((0, 1)), 0,
                   np.zeros((0, 1), dtype=np.int64))
    name_read(i2, np.zeros((0, 52), dtype=bool), np.zeros((0, 3), dtype=np.int64), i2, i2, i0,
              0)
    label_steps(i2, np.zeros((0, 0)), i2, i2, np.zeros((0, 52), dtype=bool), b0, i3, b0, i3,
                i0, i0, i0, t16, 0.0, f0, i0, i2, i0, i2)
    label_steps_live(i2, i2, np.zeros((0, 52), dtype=bool), b0, i3, b0, i3, i0, i0, i0, i0,
                     t16, 0.0, f0, i0, i2, i0, i2, i0, i0, f0, True)
    label_tries(i2, b0, 1, 3)  # (not warmed, it compiled inside play's first clock: s71 lead)
    ahead_of(0, i2, i2, i2, i2, i0, b0, i2, 1)
    held_labels(i2, i2, i0)
    row_cards(np.zeros((1, 52), dtype=bool))
    ahead_gain(np.zeros((0, 3), dtype=np.int64), np.zeros((0, 3), dtype=np.int64), i2, f0,
               np.zeros((0, 1, 3), dtype=np.int32), False, np.zeros((0, 1)))
    for kind in (np.int64, np.int32):  # (the fused read's candidates int32, the rest int64)
        ahead_gain(np.zeros((0, 3), dtype=np.int64), np.zeros((0, 3), dtype=np.int64), i2, f0,
                   np.zeros((0, 1, 3), dtype=kind), False, np.zeros((0, 1)))


def _jit(fn: Any, inline: bool = False) -> Any:
    """``fn`` compiled by numba (lazily, at its first call; cached on disk
    where a place can be written); ``inline``: numba inlines it into each
    numba caller (``inline='always'``: no call's cost in a hot loop)."""
    import numba

    how: dict[str, Any] = {"inline": "always"} if inline else {}
    try:
        return numba.njit(cache=True, nogil=True, **how)(fn)
    except RuntimeError:  # pragma: no cover - no writable place for the cache
        return numba.njit(nogil=True, **how)(fn)


def _compile_all() -> None:
    """Every kernel of this module made a numba function, under the name its
    wrapper calls (``_keep_one_compiled`` first: the others call it)."""
    global _keep_one_compiled, _keep_chance_compiled, _pick_each_compiled
    global _pick_avail_compiled, _relabel_compiled
    global _search_compiled, _move_propose_compiled, _move_apply_compiled
    global _move_propose_into_compiled, _move_step_compiled, _steer_step_compiled
    global _read_weigh_compiled, _owners_compiled, _owners_later_compiled
    global _steer_propose_compiled, _steer_apply_compiled, _read_names_compiled
    global _choose_compiled, _sample_compiled, _second_round_compiled, _first_over_compiled
    global _first_over_short_compiled
    global _log_falling_one_compiled, _read_draw_compiled, _read_score_compiled
    global _layout_origins_compiled, _next_u_compiled, _name_read_compiled, _refill_compiled
    global _move_chain_compiled, _list_slots_compiled, _six_slots_compiled
    global _where_cards_compiled, _rank_into_compiled, _fill_labels_compiled
    global _relabel_rest_compiled, _log_of_compiled, _accepts_compiled
    global _accepts_four_compiled, _row_sum_compiled, _place_first_compiled
    global _place_rest_compiled, _cards_of_compiled, _shuffle_rows_compiled
    global _systematic_compiled, _fill_hands_compiled
    global _label_steps_compiled, _label_like_compiled, _label_live_compiled
    global _label_keys_compiled
    global _label_keep_fixed_compiled, _label_like_live_compiled, _label_tries_compiled
    _first_over_compiled = _jit(_first_over)  # (first: search_rows calls it)
    _first_over_short_compiled = _jit(_first_over_short)  # (and four kernels this)
    _keep_one_compiled = _jit(_keep_one)
    _keep_chance_compiled = _jit(_keep_chance_kernel)
    _pick_each_compiled = _jit(_pick_each_kernel)
    _pick_avail_compiled = _jit(_pick_avail_kernel)  # (calls _pick_each_compiled)
    _relabel_compiled = _jit(_relabel_kernel)
    _owners_compiled = _jit(_owners_kernel)
    _owners_later_compiled = _jit(_owners_later_kernel)
    _search_compiled = _jit(_search_kernel)
    _move_propose_into_compiled = _jit(_move_propose_into)
    _move_propose_compiled = _jit(_move_propose_kernel)  # (calls the one above)
    _move_apply_compiled = _jit(_move_apply_kernel)
    _log_of_compiled = _jit(_log_of)
    _accepts_compiled = _jit(_accepts)
    _accepts_four_compiled = _jit(_accepts_four)  # (calls the two above)
    _move_step_compiled = _jit(_move_step_kernel)  # (calls the ones above)
    _steer_propose_compiled = _jit(_steer_propose_kernel)
    _steer_apply_compiled = _jit(_steer_apply_kernel)
    _steer_step_compiled = _jit(_steer_step_kernel)  # (calls the two above, _log_of's, _accepts')
    _move_chain_compiled = _jit(_move_chain_kernel)  # (calls the two step kernels)
    _list_slots_compiled = _jit(_list_slots_kernel)
    _six_slots_compiled = _jit(_six_slots_kernel)
    _where_cards_compiled = _jit(_where_cards_kernel)
    _rank_into_compiled = _jit(_rank_into)
    _fill_labels_compiled = _jit(_fill_labels_kernel)  # (calls the one above)
    _relabel_rest_compiled = _jit(_relabel_rest_kernel)  # (calls _rank_into's)
    _row_sum_compiled = _jit(_row_sum)
    _place_first_compiled = _jit(_place_first_kernel)  # (calls the one above)
    _place_rest_compiled = _jit(_place_rest_kernel)  # (calls _first_over_short's)
    _cards_of_compiled = _jit(_cards_of_kernel)
    _shuffle_rows_compiled = _jit(_shuffle_rows_kernel)  # (calls _rank_into's)
    _systematic_compiled = _jit(_systematic_kernel)
    _fill_hands_compiled = _jit(_fill_hands_kernel)
    _read_names_compiled = _jit(_read_names_kernel)
    _read_weigh_compiled = _jit(_read_weigh_kernel)  # (calls read_names' and keep_chance's)
    _choose_compiled = _jit(_choose_kernel)
    _sample_compiled = _jit(_sample_kernel)
    _second_round_compiled = _jit(_second_round_kernel)
    _log_falling_one_compiled = _jit(_log_falling_one)
    _refill_compiled = _jit(_refill)
    _read_draw_compiled = _jit(_read_draw_kernel)  # (calls the one above, _first_over_short's)
    _read_score_compiled = _jit(_read_score_kernel)  # (calls _keep_one_compiled)
    _next_u_compiled = _jit(_next_u)
    _layout_origins_compiled = _jit(_layout_origins_kernel)  # (calls _log_falling_one's)
    _name_read_compiled = _jit(_name_read_kernel)
    _label_like_compiled = _jit(_label_like)  # (calls _keep_one_compiled)
    _label_keys_compiled = _jit(_label_keys, inline=True)  # (inlined into the two below)
    _label_steps_compiled = _jit(_label_steps_kernel)  # (calls _label_like's)
    _label_keep_fixed_compiled = _jit(_label_keep_fixed)
    _label_like_live_compiled = _jit(_label_like_live)
    _label_live_compiled = _jit(_label_live_kernel)  # (calls the two above)
    _label_tries_compiled = _jit(_label_tries_kernel)
    global _ahead_of_compiled, _ahead_gain_compiled, _held_compiled, _row_cards_compiled
    _ahead_of_compiled = _jit(_ahead_of_kernel)
    _ahead_gain_compiled = _jit(_ahead_gain_kernel)
    _held_compiled = _jit(_held_kernel)
    _row_cards_compiled = _jit(_row_cards_kernel)


def _keep_one(table: Any, c0: int, c1: int, c2: int, c3: int, c4: int, c5: int,
              hit_w: float, floor: float) -> Any:  # pragma: no cover - compiled
    # the 20 keeps of TRIPLES written out (their order: combinations of six);
    # each index cast unsigned (cards are 0..51): numba then reads it without
    # its wraparound of negative indices (a compare and a select a read;
    # branch s70-kern)
    h0, h1, h2, h3 = c0 * 2704, c1 * 2704, c2 * 2704, c3 * 2704
    m1, m2, m3, m4 = c1 * 52, c2 * 52, c3 * 52, c4 * 52
    s0 = table[np.uint64(h0 + m1 + c2)]
    s1 = table[np.uint64(h0 + m1 + c3)]
    s2 = table[np.uint64(h0 + m1 + c4)]
    s3 = table[np.uint64(h0 + m1 + c5)]
    s4 = table[np.uint64(h0 + m2 + c3)]
    s5 = table[np.uint64(h0 + m2 + c4)]
    s6 = table[np.uint64(h0 + m2 + c5)]
    s7 = table[np.uint64(h0 + m3 + c4)]
    s8 = table[np.uint64(h0 + m3 + c5)]
    s9 = table[np.uint64(h0 + m4 + c5)]
    s10 = table[np.uint64(h1 + m2 + c3)]
    s11 = table[np.uint64(h1 + m2 + c4)]
    s12 = table[np.uint64(h1 + m2 + c5)]
    s13 = table[np.uint64(h1 + m3 + c4)]
    s14 = table[np.uint64(h1 + m3 + c5)]
    s15 = table[np.uint64(h1 + m4 + c5)]
    s16 = table[np.uint64(h2 + m3 + c4)]
    s17 = table[np.uint64(h2 + m3 + c5)]
    s18 = table[np.uint64(h2 + m4 + c5)]
    s19 = table[np.uint64(h3 + m4 + c5)]
    # the keep (the first three, s0) is the policy's best or tied with it only
    # where no other scores higher; else its chance is the floor alone (what
    # ``hit_w * 0.0 / ties + floor`` gives, bit for bit), without the ties
    # counted (branch s67-fast: most candidates are not the best keep)
    if (s1 > s0 or s2 > s0 or s3 > s0 or s4 > s0 or s5 > s0 or s6 > s0 or s7 > s0
            or s8 > s0 or s9 > s0 or s10 > s0 or s11 > s0 or s12 > s0 or s13 > s0
            or s14 > s0 or s15 > s0 or s16 > s0 or s17 > s0 or s18 > s0 or s19 > s0):
        return 0.0 + floor
    ties = (1 + (s1 == s0) + (s2 == s0) + (s3 == s0) + (s4 == s0)
            + (s5 == s0) + (s6 == s0) + (s7 == s0) + (s8 == s0) + (s9 == s0)
            + (s10 == s0) + (s11 == s0) + (s12 == s0) + (s13 == s0)
            + (s14 == s0) + (s15 == s0) + (s16 == s0) + (s17 == s0)
            + (s18 == s0) + (s19 == s0))
    return hit_w * 1.0 / ties + floor


_keep_one_compiled: Any = _keep_one  # (numba's once compiled: _compile_all)


def _keep_chance_kernel(kept: Any, thrown: Any, table: Any,
                        tremble: float) -> Any:  # pragma: no cover - compiled
    n = kept.shape[0]
    out = np.empty(n, dtype=np.float64)
    hit_w = 1.0 - tremble
    floor = tremble / 20.0
    for i in range(n):
        out[i] = _keep_one_compiled(table, np.int64(kept[i, 0]), np.int64(kept[i, 1]),
                                    np.int64(kept[i, 2]), np.int64(thrown[i, 0]),
                                    np.int64(thrown[i, 1]), np.int64(thrown[i, 2]),
                                    hit_w, floor)
    return out


_keep_chance_compiled: Any = _keep_chance_kernel  # (numba's once compiled: _compile_all)


def keep_chance_rows(kept: Ints, thrown: Ints, table: Any, tremble: float) -> Floats:
    """:func:`rollem.odds.keepchance.keep_chance` compiled: per row of
    ``kept`` ``(N, 3)`` and ``thrown`` ``(N, 3)`` (cards 0..51), ``(1 -
    tremble) * (the kept three score best) / (keeps of that score) + tremble
    / 20``, the scores read from ``table`` (``52 ** 3`` ``int16``, by cards
    ``c1 * 2704 + c2 * 52 + c3``) for each keep of
    :data:`rollem.odds.policy.TRIPLES` (the first the kept three): ``(N,)``
    floats."""
    # (one type of argument each: one compiled version, made in the background)
    return np.asarray(_keep_chance_compiled(np.ascontiguousarray(kept, dtype=np.int64),
                                            np.ascontiguousarray(thrown, dtype=np.int64),
                                            table, float(tremble)))


def _pick_each_kernel(gen: Any, first: Any, size: Any, width: int, reps: int, m: int,
                      exclude: Any, e: int) -> Any:  # pragma: no cover - compiled
    k = size.shape[0]
    n = k * reps
    out = np.empty((n, m), dtype=np.int64)
    taken = np.zeros(n, dtype=np.int64)
    start = np.empty(n, dtype=np.int64)
    size_r = np.empty(n, dtype=np.float64)
    for d in range(n):
        row = d // reps
        start[d] = row * width
        size_r[d] = float(size[row])
        for x in range(e):
            taken[d] |= np.int64(1) << exclude[d, x]
    card = np.empty(n, dtype=np.int64)
    todo = np.empty(n, dtype=np.int64)
    for i in range(m):
        for d in range(n):
            card[d] = first[start[d] + np.int64(gen.random() * size_r[d])]
        if i or e:
            # the draws that hit a card taken already, in order; drawn again
            # round by round as numpy's loop does (the same stream)
            t = 0
            for d in range(n):
                if taken[d] & (np.int64(1) << card[d]):
                    todo[t] = d
                    t += 1
            while t:
                for x in range(t):
                    d = todo[x]
                    card[d] = first[start[d] + np.int64(gen.random() * size_r[d])]
                left = 0
                for x in range(t):
                    d = todo[x]
                    if taken[d] & (np.int64(1) << card[d]):
                        todo[left] = d
                        left += 1
                t = left
        for d in range(n):
            out[d, i] = card[d]
            taken[d] |= np.int64(1) << card[d]
    return out


_pick_each_compiled: Any = _pick_each_kernel  # (numba's once compiled: _compile_all)


def _pick_avail_kernel(gen: Any, avail: Any, reps: int, m: int, exclude: Any,
                       e: int) -> Any:  # pragma: no cover - compiled
    # each row's available cards first, in order (numpy's flatnonzero, row
    # by row), then the draws as _pick_each_kernel makes them
    k, width = avail.shape
    first = np.zeros(k * width, dtype=np.int64)
    size = np.zeros(k, dtype=np.int64)
    for row in range(k):
        t = 0
        for c in range(width):
            if avail[row, c]:
                first[row * width + t] = c
                t += 1
        size[row] = t
    return _pick_each_compiled(gen, first, size, width, reps, m, exclude, e)


_pick_avail_compiled: Any = _pick_avail_kernel  # (numba's once compiled: _compile_all)


def _relabel_kernel(is_lab: Any, owner: Any, perm: Any, card_at: Any, order: Any,
                    labels: int) -> Any:  # pragma: no cover - compiled
    k, n = order.shape
    m = perm.shape[1]
    new_order = order.copy()
    new_named = np.full((k, labels), -1, dtype=np.int64)
    for r in range(k):
        seen = np.zeros(m, dtype=np.int64)
        for p in range(n):
            if is_lab[r, p]:
                j = owner[r, p]
                i = perm[r, j, seen[j]]
                seen[j] += 1
                new_order[r, p] = 52 + 3 * j + i
                if card_at[r, p] >= 0:
                    new_named[r, 3 * j + i] = card_at[r, p]
    return new_order, new_named


_relabel_compiled: Any = _relabel_kernel  # (numba's once compiled: _compile_all)


def relabel_places(is_lab: Bools, owner: Ints, perm: Ints, card_at: Ints, order: Ints,
                   labels: int) -> tuple[Ints, Ints]:
    """:func:`rollem.odds.ryoseen._relabel`'s last pass compiled (issue 33,
    branch s61-ryo2): per world and place ``p`` holding a label
    (``is_lab`` ``(k, n)``), in place order, its owner ``j = owner[., p]``
    takes the next of its labels by ``perm`` ``(k, m, 3)``: the new
    ``order`` ``(k, n)`` (``52 + 3 j + i``) and ``named`` ``(k, labels)``
    (``card_at`` where a card is named there, else -1). Integers only: the
    numpy loop's arrays."""
    new_order, new_named = _relabel_compiled(
        np.ascontiguousarray(is_lab, dtype=np.bool_), np.ascontiguousarray(owner, dtype=np.int64),
        np.ascontiguousarray(perm, dtype=np.int64), np.ascontiguousarray(card_at, dtype=np.int64),
        np.ascontiguousarray(order, dtype=np.int64), int(labels))
    return np.asarray(new_order), np.asarray(new_named)


def _rank_into(keys: Any, idx: Any, n: int) -> None:  # pragma: no cover - compiled
    # idx[:n] the indices of keys[:n] by ascending key, equal keys in index
    # order (a stable sort; distinct random keys have one order, which numpy's
    # argsort gives too): each key's place is the count of keys before it,
    # counted without a branch (a dozen keys: the insertion sort's
    # mispredicted exits cost more; branch s69-speed)
    for t in range(n):
        v = keys[t]
        r = 0
        for u in range(n):
            r += (keys[u] < v) | ((keys[u] == v) & (u < t))
        idx[r] = t


_rank_into_compiled: Any = _rank_into  # (numba's once compiled: _compile_all)


def _fill_labels_kernel(order: Any, taken: Any, keys: Any) -> None:  # pragma: no cover
    # per row, the places not taken (in place order) get the labels 52 + t
    # in the order of the row's random keys
    k, n = order.shape
    labels = keys.shape[1]
    idx = np.empty(labels, dtype=np.int64)
    for r in range(k):
        _rank_into_compiled(keys[r], idx, labels)
        t = 0
        for p in range(n):
            if not taken[r, p] and t < labels:
                order[r, p] = 52 + idx[t]
                t += 1


_fill_labels_compiled: Any = _fill_labels_kernel  # (numba's once compiled: _compile_all)


def fill_labels(order: Ints, taken: Bools, keys: Floats) -> bool:
    """:func:`rollem.odds.ryoseen._layout`'s labels laid out compiled (issue
    33, branch s68-fuse): per world the first ``L`` places not ``taken``
    ``(k, n)``, in place order, get the labels ``52 + argsort(keys[row])``
    (``keys`` ``(k, L)``, random), in ``order`` in place, as its
    ``np.argsort`` lines lay them (distinct keys: one order). False, doing
    nothing, where ``order`` is not C-contiguous int64 (the numpy lines then)."""
    if order.dtype != np.int64 or not order.flags.c_contiguous:
        return False
    _fill_labels_compiled(order, np.ascontiguousarray(taken, dtype=np.bool_),
                          np.ascontiguousarray(keys, dtype=np.float64))
    return True


def _row_sum(x: Any, n: int) -> Any:  # pragma: no cover - compiled
    # numpy's sum of a contiguous row of n float64, n at most 128 (its
    # pairwise sum there: under 8 in order, else 8 running sums, added in
    # pairs, then the rest in order): the same float as ``mass.sum(axis=1)``
    if n < 8:
        res = 0.0
        for i in range(n):
            res += x[i]
        return res
    r0, r1, r2, r3 = x[0], x[1], x[2], x[3]
    r4, r5, r6, r7 = x[4], x[5], x[6], x[7]
    i = 8
    end = n - n % 8
    while i < end:
        r0 += x[i]
        r1 += x[i + 1]
        r2 += x[i + 2]
        r3 += x[i + 3]
        r4 += x[i + 4]
        r5 += x[i + 5]
        r6 += x[i + 6]
        r7 += x[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += x[i]
        i += 1
    return res


_row_sum_compiled: Any = _row_sum  # (numba's once compiled: _compile_all)


def _place_first_kernel(at: Any, prefer: Any, taken: Any, r: Any, mass: Any, total: Any,
                        pos: Any) -> int:  # pragma: no cover - compiled
    # per world the discard's masses (at its places not taken, times prefer),
    # their numpy sum, and the place of the largest uniform among those
    # places (the first place where none): the count of rows with mass
    k, n = taken.shape
    live = 0
    for row in range(k):
        best = -1.0
        at_best = 0
        for p in range(n):
            ok = at[p] and not taken[row, p]
            mass[row, p] = (1.0 if ok else 0.0) * prefer[p]
            v = r[row, p] if ok else -1.0
            if v > best:
                best = v
                at_best = p
        pos[row] = at_best
        t = _row_sum_compiled(mass[row], n)
        total[row] = t
        if t > 0:
            live += 1
    return live


_place_first_compiled: Any = _place_first_kernel  # (numba's once compiled: _compile_all)


def _place_rest_kernel(mass: Any, total: Any, pos: Any, r: Any, steered: bool, shower: int,
                       by: Any, log_prefer: Any, s: int, weight: Any, later: Any,
                       taken: Any, order: Any, inv_q: Any) -> None:  # pragma: no cover
    # where steered, the places of the rows with mass drawn in proportion to
    # it (_sample_kernel's running sum over those rows end to end, its points
    # and search); then per row 1 / q of the place into the weight, or put off
    # to a step (inv_q for the shower's, whose log the caller adds; the
    # drawer's own log prefer where hidden), and the discard put there
    k, n = mass.shape
    if steered:
        cum = np.empty(k * n)
        acc = 0.0
        first = True
        base = 0
        for row in range(k):
            if not total[row] > 0:
                continue
            for c in range(n):
                if first:
                    acc = mass[row, c]
                    first = False
                else:
                    acc += mass[row, c]
                cum[base + c] = acc
            base += n
        start = 0.0
        base = 0
        t = 0
        for row in range(k):
            if not total[row] > 0:
                continue
            end = cum[base + n - 1]
            cap = np.nextafter(end, start)
            x = start + r[t] * (end - start)
            if cap < x:
                x = cap
            pos[row] = _first_over_short_compiled(cum, base, n, x)
            start = end
            base += n
            t += 1
    for row in range(k):
        tot = total[row]
        live = tot > 0
        p = pos[row]
        m = mass[row, p]
        q = tot / (m if m > 1e-300 else 1e-300) if live else 0.0
        weight[row] = weight[row] * (1.0 if live else 0.0)
        if shower >= 0:
            weight[row] = weight[row] * (1.0 if live else 0.0)
            inv_q[row] = q
        elif shower == -2:
            weight[row] = weight[row] * tot
            d = by[p]
            if d >= 0 and live:
                later[row, d] = later[row, d] - log_prefer[p]
        else:
            weight[row] = weight[row] * q
        taken[row, p] = True
        order[row, p] = s


_place_rest_compiled: Any = _place_rest_kernel  # (numba's once compiled: _compile_all)


def place_discard(gen: np.random.Generator, at: Bools, prefer: Floats, steered: bool,
                  shower: int, by: Ints, s: int, taken: Bools, order: Ints, weight: Floats,
                  later: Floats) -> Floats | None:
    """:func:`rollem.odds.ryoseen._layout`'s place of the seat's discard ``s``
    in every world, compiled (issue 33, branch s69-speed2): ``at`` ``(n,)``
    the places it may hold, ``prefer`` ``(n,)`` their masses; per world
    (``taken`` ``(k, n)`` bool, ``order`` ``(k, n)`` int64, ``weight``
    ``(k,)``, ``later`` ``(k, m)``, all changed in place) the place of the
    largest of ``k * n`` uniforms among those not taken, or where
    ``steered``, among the worlds with mass, one drawn in proportion to it
    (``nlive`` more uniforms, :func:`sample_rows`' sums and search);
    ``weight`` times whether any place is free, then (``shower`` -1) times
    ``1 / q`` of the place, or (-2) times the mass's total, ``later`` at the
    drawer ``by[place]`` (-1 none) less ``log prefer`` there; returns ``1 /
    q`` per world ``(k,)`` (0 where none is free) for ``shower >= 0``, whose
    log the caller puts off to that opponent's step. The generator's draws,
    sums, products and places are the numpy lines', in their order; the
    logs stay numpy's. None, changing nothing, where ``n`` is over 128 (numpy
    sums such rows by halves) or the arrays are not C-ordered bool, int64
    and float64 (the numpy lines then)."""
    k, n = taken.shape
    if n > 128 or not all(a.flags.c_contiguous and a.dtype == t for a, t in (
            (taken, np.bool_), (order, np.int64), (weight, np.float64), (later, np.float64))):
        return None
    mass = np.empty((k, n))
    total = np.empty(k)
    pos = np.empty(k, dtype=np.int64)
    prefer = np.ascontiguousarray(prefer, dtype=np.float64)
    live = _place_first_compiled(np.ascontiguousarray(at, dtype=np.bool_), prefer, taken,
                                 gen.random((k, n)), mass, total, pos)
    r = gen.random(live) if steered else np.zeros(0)
    inv_q = np.zeros(k)
    with np.errstate(divide="ignore"):
        log_prefer = np.log(prefer) if shower == -2 else prefer
    _place_rest_compiled(mass, total, pos, r, steered, int(shower),
                         np.ascontiguousarray(by, dtype=np.int64), log_prefer, int(s), weight,
                         later, taken, order, inv_q)
    return inv_q


def _cards_of_kernel(order: Any, named: Any, out: Any) -> None:  # pragma: no cover - compiled
    # per world and place, the card there: order's where below 52, else the
    # card named for that label
    k, n = order.shape
    for row in range(k):
        for p in range(n):
            c = order[row, p]
            out[row, p] = c if c < 52 else named[row, c - 52]


_cards_of_compiled: Any = _cards_of_kernel  # (numba's once compiled: _compile_all)


def cards_of(order: Ints, named: Ints) -> Ints:
    """:func:`rollem.odds.ryoseen._worlds`' cards of the pool, compiled (issue
    33, branch s69-speed2): per world and place of ``order`` ``(k, n)`` (a
    card below 52, else a label ``52 + i``) the card, ``named[row, i]`` for a
    label (``named`` ``(k, L)``, every label named): ``(k, n)`` int64, the
    numpy lines' ``np.where(order < 52, order, take_along_axis(named, ...))``."""
    out = np.empty(order.shape, dtype=np.int64)
    _cards_of_compiled(np.ascontiguousarray(order, dtype=np.int64),
                       np.ascontiguousarray(named, dtype=np.int64), out)
    return out


def _shuffle_rows_kernel(rows: Any, keys: Any, out: Any) -> None:  # pragma: no cover - compiled
    # per row, its entries in the order of its random keys (_rank_into's)
    k, n = rows.shape
    idx = np.empty(n, dtype=np.int64)
    for row in range(k):
        _rank_into_compiled(keys[row], idx, n)
        for t in range(n):
            out[row, t] = rows[row, idx[t]]


_shuffle_rows_compiled: Any = _shuffle_rows_kernel  # (numba's once compiled: _compile_all)


def shuffle_rows(rows: Ints, keys: Floats) -> Ints:
    """Each row of ``rows`` ``(k, n)`` in the order of its random ``keys``
    ``(k, n)``, compiled (issue 33, branch s69-speed2): ``(k, n)`` int64, the
    numpy lines' ``take_along_axis(rows, argsort(keys, axis=1), axis=1)``
    where a row's keys are distinct (the generator's uniforms: equal ones
    about 1 in 2^50 a row), ties in index order (numpy's sort there too for
    rows of at most 16)."""
    out = np.empty(rows.shape, dtype=np.int64)
    _shuffle_rows_compiled(np.ascontiguousarray(rows, dtype=np.int64),
                           np.ascontiguousarray(keys, dtype=np.float64), out)
    return out


def _systematic_kernel(weight: Any, r: float, count: int, out: Any) -> bool:  # pragma: no cover
    # numpy's running sum (in order), each over the last, the points
    # (r + t) / count, and per point the count of sums at or under it (the
    # sums never decrease: searchsorted's right side, by one merge), held
    # under k; False where a weight is negative or NaN or the total not
    # positive and finite (the numpy lines then)
    k = weight.shape[0]
    cum = np.empty(k)
    acc = 0.0
    for i in range(k):
        w = weight[i]
        if not w >= 0.0:
            return False
        acc = w if i == 0 else acc + w
        cum[i] = acc
    if k == 0 or not (acc > 0.0 and acc < np.inf):
        return False
    for i in range(k):
        cum[i] = cum[i] / acc
    j = 0
    for t in range(count):
        u = (r + float(t)) / float(count)
        while j < k and cum[j] <= u:
            j += 1
        out[t] = j if j < k - 1 else k - 1
    return True


_systematic_compiled: Any = _systematic_kernel  # (numba's once compiled: _compile_all)


def systematic(weight: Floats, r: float, count: int) -> Ints | None:
    """:func:`rollem.odds.ryoseen._systematic`'s indices, compiled (issue 33,
    branch s69-speed2): ``count`` indices into ``weight`` ``(k,)`` at the
    points ``(r + t) / count`` of its running sums over their total (``r``
    the generator's one uniform): ``(count,)`` int64, the numpy lines'
    ``minimum(searchsorted(edges, u, side="right"), k - 1)``. None where a
    weight is negative or NaN or their total is not positive and finite
    (the numpy lines then)."""
    out = np.empty(count, dtype=np.int64)
    if not _systematic_compiled(np.ascontiguousarray(weight, dtype=np.float64), float(r),
                                int(count), out):
        return None
    return out


def _fill_hands_kernel(out: Any, t: int, mine: Any, kept_all: Any, cards: Any, live: Any,
                       draws: Any, start: Any, rest: Any) -> None:  # pragma: no cover
    # per world, future t's hands: the seat's cards then the pool's cards not
    # drawn, in order; each live opponent's kept three, the cards at its
    # draws, then the next cards not drawn
    k = out.shape[0]
    nm = mine.shape[0]
    for row in range(k):
        at = 0
        for c in range(5):
            if c < nm:
                out[row, t, 0, c] = mine[c]
            else:
                out[row, t, 0, c] = rest[row, at]
                at += 1
        for h in range(live.shape[0]):
            j = live[h]
            for c in range(3):
                out[row, t, h + 1, c] = kept_all[row, j, c]
            c = 3
            for s in range(start[j], start[j + 1]):
                out[row, t, h + 1, c] = cards[row, draws[s]]
                c += 1
            while c < 5:
                out[row, t, h + 1, c] = rest[row, at]
                at += 1
                c += 1


_fill_hands_compiled: Any = _fill_hands_kernel  # (numba's once compiled: _compile_all)


def fill_hands(out: Ints, t: int, mine: Ints, kept_all: Ints, cards: Ints, live: Ints,
               draws: list[Ints], rest: Ints) -> bool:
    """:func:`rollem.odds.ryoseen._worlds`' hands of future ``t`` in one
    compiled pass (issue 33, branch s69-speed2): ``out[:, t]`` ``(k, futures,
    1 + L, 5)`` int64, in place: per world the seat's cards ``mine`` then the
    first cards of ``rest`` ``(k, r)`` (the pool's cards not drawn, in their
    order), and per live opponent ``live[h]`` (ascending) its kept three
    ``kept_all[:, j]`` ``(k, m, 3)``, the pool's cards at its ``draws[j]``
    (``cards`` ``(k, n)``), then the next cards of ``rest``: the numpy lines'
    ``concatenate``s and ``stack``. False, doing nothing, where a hand would
    be over five cards, ``rest`` too short, or ``out`` not C-ordered int64
    (the numpy lines then)."""
    nm = len(mine)
    need = (5 - nm) + sum(2 - len(draws[j]) for j in live)
    if (nm > 5 or any(len(draws[j]) > 2 for j in live) or need > rest.shape[1]
            or out.dtype != np.int64 or not out.flags.c_contiguous):
        return False
    start = np.zeros(len(draws) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(d) for d in draws])
    flat = np.concatenate([np.asarray(d, dtype=np.int64) for d in draws]) if draws else \
        np.zeros(0, dtype=np.int64)
    _fill_hands_compiled(out, int(t), np.asarray(mine, dtype=np.int64),
                         np.ascontiguousarray(kept_all, dtype=np.int64),
                         np.ascontiguousarray(cards, dtype=np.int64),
                         np.asarray(live, dtype=np.int64), np.asarray(flat, dtype=np.int64),
                         start, np.ascontiguousarray(rest, dtype=np.int64))
    return True


def _relabel_rest_kernel(owner: Any, is_lab: Any, left: Any, rest_keys: Any,
                         perm_keys: Any) -> Any:  # pragma: no cover - compiled
    # per row: the owners' labels left (slot t = 3 j + i is left where
    # i >= 3 - left[j]) by ascending key go, in place order, to the label
    # places without an owner; each owner's three labels ranked by its keys
    k, n = owner.shape
    m = left.shape[1]
    perm = np.empty((k, m, 3), dtype=np.int64)
    idx = np.empty(3 * m, dtype=np.int64)
    keys = np.empty(3 * m, dtype=np.float64)
    for r in range(k):
        for t in range(3 * m):  # (the used slots last, as numpy's key 2.0 puts them)
            keys[t] = 2.0 if t % 3 < 3 - left[r, t // 3] else rest_keys[r, t]
        _rank_into_compiled(keys, idx, 3 * m)
        t = 0
        for p in range(n):
            if is_lab[r, p] and owner[r, p] < 0:
                owner[r, p] = idx[t] // 3
                t += 1
        for j in range(m):
            _rank_into_compiled(perm_keys[r, j], perm[r, j], 3)
    return perm


_relabel_rest_compiled: Any = _relabel_rest_kernel  # (numba's once compiled: _compile_all)


def relabel_rest(owner: Ints, is_lab: Bools, left: Ints, rest_keys: Floats,
                 perm_keys: Floats) -> Ints:
    """:func:`rollem.odds.ryoseen._relabel`'s owners left and labels' order
    compiled (issue 33, branch s68-fuse): per world, the labels each owner
    ``j`` has left (``left`` ``(k, m)``; slots ``3 j + i``, ``i >= 3 -
    left``) ordered by ``rest_keys`` ``(k, 3 m)`` (random) go in place order
    to the places of ``is_lab`` ``(k, n)`` with no owner (``owner`` -1),
    ``owner`` written in place (C-contiguous int64); returns each owner's
    labels' order, ``argsort(perm_keys, axis=2)`` ``(k, m, 3)``. As the
    numpy lines (distinct random keys: one order; the used slots' key 2.0
    sorts after every random key, and as many places take owners as there
    are labels left, so their order is never read)."""
    return np.asarray(_relabel_rest_compiled(
        owner, np.ascontiguousarray(is_lab, dtype=np.bool_),
        np.ascontiguousarray(left, dtype=np.int64), np.ascontiguousarray(rest_keys),
        np.ascontiguousarray(perm_keys)))


def pick_avail_rows(gen: np.random.Generator, avail: Bools, reps: int, m: int,
                    exclude: Ints | None) -> Ints:
    """:func:`pick_each_rows` from ``avail`` ``(k, width)`` itself: each
    row's available cards listed in the same pass (issue 33, branch
    s61-ryo2: the listing's numpy calls were most of a small batch's
    draw): ``(k * reps, m)``, the same cards from the same stream."""
    ex = (np.zeros((len(avail) * reps, 0), dtype=np.int64) if exclude is None
          else np.ascontiguousarray(exclude, dtype=np.int64))
    return np.asarray(_pick_avail_compiled(gen, np.ascontiguousarray(avail, dtype=np.bool_),
                                           int(reps), int(m), ex, ex.shape[1]))


def pick_each_rows(gen: np.random.Generator, first: Ints, size: Ints, width: int,
                   reps: int, m: int, exclude: Ints | None) -> Ints:
    """:func:`rollem.odds.ryoseen._pick_each`'s draws compiled: ``first``
    ``(k * width,)`` each row's available cards first (its ``size[row]``
    of them), ``reps`` draws a row of ``m`` distinct cards, none in the
    draw's row of ``exclude`` ``(k * reps, e)``: ``(k * reps, m)``, from
    ``gen`` in the order the numpy path draws."""
    ex = (np.zeros((len(size) * reps, 0), dtype=np.int64) if exclude is None
          else np.ascontiguousarray(exclude, dtype=np.int64))
    return np.asarray(_pick_each_compiled(gen, np.ascontiguousarray(first, dtype=np.int64),
                                          np.ascontiguousarray(size, dtype=np.int64),
                                          int(width), int(reps), int(m), ex, ex.shape[1]))


def _first_over(cum: Any, base: int, size: int, x: float) -> int:  # pragma: no cover
    # the first index of cum[base:base + size] (a row's running sums) whose sum
    # is over x, by bisection; the row's last index where none is (x at its end)
    lo, hi = 0, size
    while lo < hi:
        mid = (lo + hi) >> 1
        if cum[base + mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo if lo < size else size - 1


_first_over_compiled: Any = _first_over  # (numba's once compiled: _compile_all)


def _first_over_short(cum: Any, base: int, size: int, x: float) -> int:  # pragma: no cover
    # _first_over for a short row (at most some 52 sums; its sums never
    # decrease): the sums over x are the row's last ones, so the first is
    # ``size`` less their count: the same index, counted without a branch
    # (bisection's branches mispredict about half the time; branch s69-speed)
    over = 0
    for t in range(size):
        over += cum[base + t] > x
    lo = size - over
    return lo if lo < size else size - 1


_first_over_short_compiled: Any = _first_over_short  # (numba's once compiled: _compile_all)


def _search_kernel(cum: Any, u: Any, size: int, row: Any) -> Any:  # pragma: no cover
    n = u.shape[0]
    out = np.empty(n, dtype=np.int64)
    for d in range(n):
        out[d] = _first_over_compiled(cum, row[d] * size, size, u[d])
    return out


_search_compiled: Any = _search_kernel  # (numba's once compiled: _compile_all)


def search_rows(cum: Floats, u: Floats, size: int, row: Ints) -> Ints:
    """Per draw ``d`` in row ``row[d]``, the first index ``i`` of that row
    with ``cum[row[d] * size + i] > u[d]``, ``size - 1`` where none: what
    ``clip(searchsorted(cum, u, "right") - row * size, 0, size - 1)`` gives
    where ``u[d]`` is at least the sum before the row (``cum`` ``(rows *
    size,)`` non-decreasing, ``u`` and ``row`` ``(n,)``): ``(n,)``."""
    return np.asarray(_search_compiled(np.ascontiguousarray(cum, dtype=np.float64),
                                       np.ascontiguousarray(u, dtype=np.float64), int(size),
                                       np.ascontiguousarray(row, dtype=np.int64)))


def _move_propose_kernel(place: bool, r1: Any, r2: Any, c2_at: Any, flat_state: Any,
                         listed: Any, size: Any, firsts: Any, n_firsts: Any, places: Any,
                         n_places: Any, unseen: Any, flat_where: Any, flat_keeper: Any,
                         show_reader: Any, flat_six: Any, lik_keep: Any, lik_show: Any,
                         show_key: Any, flat_power: Any, show_flat: Any, keep_table: Any,
                         tremble: float, m: int, wide: int,
                         ) -> Any:  # pragma: no cover - compiled
    k = size.shape[0]
    a1 = np.empty(k, dtype=np.int64)
    a2 = np.empty(k, dtype=np.int64)
    s1 = np.empty(k, dtype=np.int64)
    s2 = np.empty(k, dtype=np.int64)
    c1 = np.empty(k, dtype=np.int64)
    c2 = np.empty(k, dtype=np.int64)
    at = np.empty((k, 4), dtype=np.int64)  # two keeps, then two exposes read
    new = np.empty((k, 4), dtype=np.float64)  # their chances after the step
    ratio = np.empty((k, 4), dtype=np.float64)  # over before (1 where none)
    key = np.empty((k, 2), dtype=np.int64)  # the exposes' new keys
    _move_propose_into_compiled(
        place, r1, r2, c2_at, flat_state, listed, size, firsts, n_firsts, places, n_places,
        unseen, flat_where, flat_keeper, show_reader, flat_six, lik_keep, lik_show, show_key,
        flat_power, show_flat, keep_table, tremble, m, wide, a1, a2, s1, s2, c1, c2, at, new,
        ratio, key)
    return a1, a2, s1, s2, c1, c2, at, new, ratio, key


def _move_propose_into(place: bool, r1: Any, r2: Any, c2_at: Any, flat_state: Any,
                       listed: Any, size: Any, firsts: Any, n_firsts: Any, places: Any,
                       n_places: Any, unseen: Any, flat_where: Any, flat_keeper: Any,
                       show_reader: Any, flat_six: Any, lik_keep: Any, lik_show: Any,
                       show_key: Any, flat_power: Any, show_flat: Any, keep_table: Any,
                       tremble: float, m: int, wide: int, a1: Any, a2: Any, s1: Any, s2: Any,
                       c1: Any, c2: Any, at: Any, new: Any, ratio: Any,
                       key: Any) -> None:  # pragma: no cover - compiled
    # _move_propose_kernel's proposal written into the arrays given
    k = size.shape[0]
    u = unseen.shape[0]
    for i in range(k):
        for col in range(4):
            at[i, col] = -1
            new[i, col] = 1.0
            ratio[i, col] = 1.0
        key[i, 0] = 0
        key[i, 1] = 0
    hit_w = 1.0 - tremble
    floor = tremble / 20.0
    h = np.empty(6, dtype=np.int64)
    for i in range(k):
        row = i * wide
        if place:
            x1 = firsts[row + np.int64(r1[i] * n_firsts[i])]
            x2 = places[row + np.int64(r2[i] * max(n_places[i] - 1, 1))]
            if x2 == x1:
                x2 = places[row + max(n_places[i] - 1, 0)]
            y1, y2 = flat_state[row + x1], flat_state[row + x2]
        else:
            x1 = listed[row + np.int64(r1[i] * size[i])]
            y1 = flat_state[row + x1]
            y2 = unseen[c2_at[i]]
            if y2 == y1:
                y2 = unseen[u - 1]
            x2 = flat_where[i * 53 + y2]
        s1[i], s2[i], c1[i], c2[i] = x1, x2, y1, y2
        a1[i], a2[i] = row + x1, row + x2
        if not place:  # the keeps of whoever holds or threw either card
            j1, j2 = flat_keeper[row + x1], flat_keeper[row + x2]
            for col in range(2):
                j = j1 if col == 0 else j2
                if j < 0 or (col == 1 and j == j1):
                    continue
                p = i * m + j
                for q in range(6):
                    c = flat_state[flat_six[p, q]]
                    h[q] = y2 if c == y1 else (y1 if c == y2 else c)
                v = _keep_one_compiled(keep_table, h[0], h[1], h[2], h[3], h[4], h[5],
                                       hit_w, floor)
                at[i, col] = p
                new[i, col] = v
                ratio[i, col] = v / lik_keep[p]
        j1, j2 = show_reader[x1], show_reader[x2]
        gain = (y2 >> 2) - (y1 >> 2)
        for col in range(2):
            j = j1 if col == 0 else j2
            if j < 0 or (col == 1 and j == j1):
                continue
            p = i * m + j
            nk = show_key[p] + (flat_power[j * wide + x1] - flat_power[j * wide + x2]) * gain
            v = show_flat[nk]
            at[i, 2 + col] = p
            key[i, col] = nk
            new[i, 2 + col] = v
            ratio[i, 2 + col] = v / lik_show[p]


_move_propose_into_compiled: Any = _move_propose_into  # (numba's once compiled: _compile_all)
_move_propose_compiled: Any = _move_propose_kernel  # (numba's once compiled: _compile_all)


def move_propose(place: bool, r1: Floats, r2: Floats | None, c2_at: Ints | None,
                 flat_state: Ints, listed: Ints, size: Ints, firsts: Ints, n_firsts: Ints,
                 places: Ints, n_places: Ints, unseen: Ints, flat_where: Ints,
                 flat_keeper: Ints, show_reader: Ints, flat_six: Ints, lik_keep: Floats,
                 lik_show: Floats, show_key: Ints, flat_power: Ints, show_flat: Floats,
                 keep_table: Any, tremble: float, m: int, wide: int) -> tuple[Any, ...]:
    """One Metropolis step's proposal of :func:`rollem.odds.ryoseen._move`
    for every world, compiled (issue 33, branch s57-ryo): per world the two
    slots ``s1``, ``s2`` exchanged (flat ``a1``, ``a2``) and their cards
    ``c1``, ``c2``, drawn from ``r1`` (and ``r2`` for a place step, or the
    unseen card's index ``c2_at`` for a card step) as the numpy path does;
    then per world up to two keeps (card steps) and two exposes read anew:
    ``at`` ``(k, 4)`` their ``row * m + opponent`` (-1: none; the keeps
    first), ``new`` their chances after the step (an expose's read from
    ``show_flat`` by its new key, NaN where the table has none), ``ratio``
    new over before (1 where none) and ``key`` ``(k, 2)`` the exposes' new
    keys. The inputs as :func:`rollem.odds.ryoseen._move` keeps them."""
    zf = np.zeros(0)
    zi = np.zeros(0, dtype=np.int64)
    return tuple(_move_propose_compiled(
        place, r1, zf if r2 is None else r2, zi if c2_at is None else c2_at, flat_state,
        listed, size, firsts, n_firsts, places, n_places, unseen, flat_where, flat_keeper,
        show_reader, flat_six, lik_keep, lik_show, show_key, flat_power, show_flat,
        keep_table, float(tremble), int(m), int(wide)))


def _move_apply_kernel(place: bool, accept: Any, a1: Any, a2: Any, s1: Any, s2: Any,
                       c1: Any, c2: Any, at4: Any, new4: Any, key2: Any, flat_state: Any,
                       flat_keeper: Any, flat_six: Any, in_six: Any, is_unseen: Any,
                       flat_where: Any, listed: Any, index: Any, lik_keep: Any,
                       lik_show: Any, show_key: Any, m: int,
                       wide: int) -> None:  # pragma: no cover - compiled
    for i in range(accept.shape[0]):
        if not accept[i]:
            continue
        b1, b2, d1, d2 = a1[i], a2[i], c1[i], c2[i]
        flat_state[b1] = d2
        flat_state[b2] = d1
        if place:  # who threw each card moves with it
            o1, o2 = flat_keeper[b1], flat_keeper[b2]
            flat_keeper[b1] = o2
            flat_keeper[b2] = o1
            p1, p2 = in_six[b1], in_six[b2]
            if o1 >= 0:
                flat_six[i * m + o1, p1] = b2
            if o2 >= 0:
                flat_six[i * m + o2, p2] = b1
            in_six[b1] = p2
            in_six[b2] = p1
            u1, u2 = is_unseen[d1], is_unseen[d2]
            if u1:
                flat_where[i * 53 + d1] = s2[i]
            if u2:
                flat_where[i * 53 + d2] = s1[i]
            rw = i * wide
            if u1 and not u2:  # the unseen card's slot listed instead
                x = index[b1]
                listed[rw + x] = b2 - rw
                index[b2] = x
            elif u2 and not u1:
                x = index[b2]
                listed[rw + x] = b1 - rw
                index[b1] = x
        else:
            flat_where[i * 53 + d1] = s2[i]
            flat_where[i * 53 + d2] = s1[i]
        for col in range(4):
            p = at4[i, col]
            if p < 0:
                continue
            if col < 2:
                lik_keep[p] = new4[i, col]
            else:
                lik_show[p] = new4[i, col]
                show_key[p] = key2[i, col - 2]


_move_apply_compiled: Any = _move_apply_kernel  # (numba's once compiled: _compile_all)


def move_apply(place: bool, accept: Bools, proposal: tuple[Any, ...], flat_state: Ints,
               flat_keeper: Ints, flat_six: Ints, in_six: Ints, is_unseen: Bools,
               flat_where: Ints, listed: Ints, index: Ints, lik_keep: Floats,
               lik_show: Floats, show_key: Ints, m: int, wide: int) -> None:
    """The accepted worlds' moves of :func:`move_propose`'s ``proposal``
    made, in place, as :func:`rollem.odds.ryoseen._move`'s numpy path makes
    them: the cards exchanged, who threw them (place steps), where each
    unseen card lies and which slots list them, and the chances and keys the
    step read."""
    a1, a2, s1, s2, c1, c2, at4, new4, _, key2 = proposal
    _move_apply_compiled(place, accept, a1, a2, s1, s2, c1, c2, at4, new4, key2, flat_state,
                         flat_keeper, flat_six, in_six, is_unseen, flat_where, listed, index,
                         lik_keep, lik_show, show_key, int(m), int(wide))


def _steer_propose_kernel(j: int, r: Any, gid: Any, lo: Any, hi: Any, cum: Any, start: Any,
                          end: Any, size: Any, tab: Any, log_g: Any, flat_state: Any,
                          flat_where: Any, flat_keeper: Any, show_reader: Any, flat_six: Any,
                          flat_power: Any, lik_keep: Any, lik_show: Any, show_key: Any,
                          show_flat: Any, keep_table: Any, tremble: float, m: int, wide: int,
                          ) -> Any:  # pragma: no cover - compiled
    k = gid.shape[0]
    dummy = 52
    xa = np.full((k, 4), dummy, dtype=np.int64)  # x1, a1, x2, a2
    sl = np.zeros((k, 4), dtype=np.int64)  # their slots
    base = np.zeros(k, dtype=np.float64)  # log g(old) - log g(new)
    live = np.zeros(k, dtype=np.bool_)  # a guide and a new set
    at = np.full((k, 8), -1, dtype=np.int64)  # up to four keeps, then four exposes
    new = np.ones((k, 8), dtype=np.float64)
    ratio = np.ones((k, 8), dtype=np.float64)
    key = np.zeros((k, 4), dtype=np.int64)
    hit_w = 1.0 - tremble
    floor = tremble / 20.0
    h = np.empty(6, dtype=np.int64)
    hit = np.zeros(m + 1, dtype=np.bool_)
    n_cum = cum.shape[0]
    for i in range(k):
        g = gid[i]
        gs = max(g, 0)
        u = lo[gs] + r[i] * (hi[gs] - lo[gs])
        a_lo, a_hi = 0, n_cum  # searchsorted(cum, u, "right")
        while a_lo < a_hi:
            mid = (a_lo + a_hi) >> 1
            if cum[mid] > u:
                a_hi = mid
            else:
                a_lo = mid + 1
        idx = min(max(a_lo, start[gs]), end[gs] - 1)
        two = size[gs] == 2
        n0, n1 = tab[idx, 0], tab[idx, 1]
        a, b = min(n0, n1), max(n0, n1)
        row = i * wide
        y = flat_state[row + 3 * j + 2]
        x = flat_state[row + 3 * j + 1] if two else y
        x, y = min(x, y), max(x, y)
        x1, a1, x2, a2 = x, a, y, b
        if two:  # the numpy path's four cases, in its order (a later one wins)
            if a == x:
                x1, a1, x2, a2 = dummy, dummy, y, b
            if a == y:
                x1, a1, x2, a2 = x, b, dummy, dummy
            if b == x:
                x1, a1, x2, a2 = dummy, dummy, y, a
            if b == y:
                x1, a1, x2, a2 = x, a, dummy, dummy
        same = (a == x) and (b == y)
        if not two:
            x1, a1, x2, a2 = y, a, dummy, dummy
            same = same or (a == y)
        if same:
            x1, a1, x2, a2 = dummy, dummy, dummy, dummy
        xa[i, 0], xa[i, 1], xa[i, 2], xa[i, 3] = x1, a1, x2, a2
        r53 = i * 53
        s_x1, s_a1 = flat_where[r53 + x1], flat_where[r53 + a1]
        s_x2, s_a2 = flat_where[r53 + x2], flat_where[r53 + a2]
        sl[i, 0], sl[i, 1], sl[i, 2], sl[i, 3] = s_x1, s_a1, s_x2, s_a2
        ok = g >= 0
        if not ok or same:
            continue
        live[i] = True
        base[i] = log_g[gs * 2704 + x * 52 + y] - log_g[gs * 2704 + a * 52 + b]
        # the keeps read anew, by opponent in order
        for q in range(m + 1):
            hit[q] = False
        for q in range(4):
            hit[flat_keeper[row + sl[i, q]]] = True  # (-1: the last, nobody)
        col = 0
        for jj in range(m):
            if not hit[jj]:
                continue
            p = i * m + jj
            for q in range(6):
                c = flat_state[flat_six[p, q]]
                if c == x1:
                    c = a1
                elif c == a1:
                    c = x1
                elif c == x2:
                    c = a2
                elif c == a2:
                    c = x2
                h[q] = c
            v = _keep_one_compiled(keep_table, h[0], h[1], h[2], h[3], h[4], h[5],
                                   hit_w, floor)
            at[i, col] = p
            new[i, col] = v
            ratio[i, col] = v / lik_keep[p]
            col += 1
        for q in range(m + 1):
            hit[q] = False
        for q in range(4):
            hit[show_reader[sl[i, q]]] = True
        col = 0
        for jj in range(m):
            if not hit[jj]:
                continue
            p = i * m + jj
            nk = show_key[p]
            bp = jj * wide
            nk += (flat_power[bp + s_x1] - flat_power[bp + s_a1]) * ((a1 >> 2) - (x1 >> 2))
            nk += (flat_power[bp + s_x2] - flat_power[bp + s_a2]) * ((a2 >> 2) - (x2 >> 2))
            v = show_flat[nk]
            at[i, 4 + col] = p
            key[i, col] = nk
            new[i, 4 + col] = v
            ratio[i, 4 + col] = v / lik_show[p]
            col += 1
    return xa, sl, base, live, at, new, ratio, key


_steer_propose_compiled: Any = _steer_propose_kernel  # (numba's once compiled: _compile_all)


def steer_propose(j: int, r: Floats, gid: Ints, lo: Floats, hi: Floats, cum: Floats,
                  start: Ints, end: Ints, size: Ints, tab: Ints, log_g: Floats,
                  flat_state: Ints, flat_where: Ints, flat_keeper: Ints, show_reader: Ints,
                  flat_six: Ints, flat_power: Ints, lik_keep: Floats, lik_show: Floats,
                  show_key: Ints, show_flat: Floats, keep_table: Any, tremble: float, m: int,
                  wide: int) -> tuple[Any, ...]:
    """A guided step's proposal (:meth:`rollem.odds.ryoseen._Steer.step`) for
    opponent ``j`` in every world, compiled (issue 33, branch s57-ryo), from
    the uniforms ``r`` ``(k,)`` the numpy path draws: per world the cards
    exchanged ``(x1, a1, x2, a2)`` (52: none) and their slots ``(k, 4)``,
    ``log g(old) - log g(new)`` (0 where nothing moves), whether anything
    moves, and the keeps (up to four, by opponent) and exposes (up to four)
    read anew: ``at`` ``(k, 8)`` (``row * m + opponent``, -1 none), ``new``
    their chances (NaN where the exposes' table has none), ``ratio`` new over
    before (1 where none) and ``key`` ``(k, 4)`` the exposes' new keys."""
    return tuple(_steer_propose_compiled(
        int(j), r, gid, lo, hi, cum, start, end, size, tab, log_g, flat_state, flat_where,
        flat_keeper, show_reader, flat_six, flat_power, lik_keep, lik_show, show_key,
        show_flat, keep_table, float(tremble), int(m), int(wide)))


def _steer_apply_kernel(accept: Any, xa: Any, sl: Any, at: Any, new: Any, key: Any,
                        flat_state: Any, flat_where: Any, lik_keep: Any, lik_show: Any,
                        show_key: Any, wide: int, stub: int) -> None:  # pragma: no cover
    k = accept.shape[0]
    for i in range(k):
        if accept[i]:
            row, r53 = i * wide, i * 53
            flat_state[row + sl[i, 0]] = xa[i, 1]
            flat_state[row + sl[i, 1]] = xa[i, 0]
            flat_state[row + sl[i, 2]] = xa[i, 3]
            flat_state[row + sl[i, 3]] = xa[i, 2]
            flat_where[r53 + xa[i, 1]] = sl[i, 0]
            flat_where[r53 + xa[i, 0]] = sl[i, 1]
            flat_where[r53 + xa[i, 3]] = sl[i, 2]
            flat_where[r53 + xa[i, 2]] = sl[i, 3]
            for col in range(8):
                p = at[i, col]
                if p < 0:
                    continue
                if col < 4:
                    lik_keep[p] = new[i, col]
                else:
                    lik_show[p] = new[i, col]
                    show_key[p] = key[i, col - 4]
        flat_where[i * 53 + 52] = stub


_steer_apply_compiled: Any = _steer_apply_kernel  # (numba's once compiled: _compile_all)


def steer_apply(accept: Bools, proposal: tuple[Any, ...], flat_state: Ints,
                flat_where: Ints, lik_keep: Floats, lik_show: Floats, show_key: Ints,
                wide: int, stub: int) -> None:
    """The accepted worlds' guided moves of :func:`steer_propose`'s
    ``proposal`` made, in place, as the numpy path makes them."""
    xa, sl, _, _, at, new, _, key = proposal
    _steer_apply_compiled(accept, xa, sl, at, new, key, flat_state, flat_where, lik_keep,
                          lik_show, show_key, int(wide), int(stub))


def _read_names_kernel(sub: Any, reps: int, names: Any, cur: Any, fresh: Any, dup: Any,
                       dup_ok: Any, kept_up: Any, hidden: Any, out_kept: Any,
                       out_val: Any) -> Any:  # pragma: no cover - compiled
    ks = sub.shape[0]
    w = cur.shape[1]
    d = w - 3
    u = kept_up.shape[0]
    f = hidden.shape[1]
    kept = np.empty((ks * reps, 3), dtype=np.int64)
    val = np.empty((ks * reps, w), dtype=np.int64)
    thrown = np.empty((ks * reps, 3), dtype=np.int64)
    shown = np.empty((ks * reps, w), dtype=np.int64)
    for s in range(ks):
        row = sub[s]
        for c in range(reps):
            i = s * reps + c
            for x in range(w):
                val[i, x] = names[i, x] if fresh[row, x] else cur[row, x]
            for r in range(d):  # a draw of its own discard is that discard's card
                if dup_ok[row, r]:
                    val[i, 3 + r] = val[i, dup[row, r]]
            for x in range(u):
                kept[i, x] = kept_up[x]
            for x in range(f):
                kept[i, u + x] = hidden[i, x]
            for x in range(3):
                out_kept[row, c, x] = kept[i, x]
                thrown[i, x] = max(val[i, x], 0)
                shown[i, x] = kept[i, x]
            for x in range(w):
                out_val[row, c, x] = val[i, x]
            for x in range(3, w):
                shown[i, x] = val[i, x]
    return kept, val, thrown, shown


_read_names_compiled: Any = _read_names_kernel  # (numba's once compiled: _compile_all)


def read_names(sub: Ints, reps: int, names: Ints, cur: Ints, fresh: Bools, dup: Ints,
               dup_ok: Bools, kept_up: Ints, hidden: Ints, out_kept: Ints,
               out_val: Ints) -> tuple[Ints, Ints, Ints, Ints]:
    """:func:`rollem.odds.ryoseen._read_opponent`'s candidates of one origin
    laid out, compiled (issue 33, branch s57-ryo2): for the worlds ``sub``
    ``(ks,)`` (rows of ``cur``, ``fresh`` ``(k, 3 + d)``, ``dup`` and
    ``dup_ok`` ``(k, d)``) and ``reps`` candidates each, the kept cards
    (``kept_up`` ``(u,)`` then the candidate's ``hidden`` ``(ks * reps, 3 -
    u)``): ``(ks * reps, 3)``, and the discards and draws (the candidate's
    ``names`` ``(ks * reps, 3 + d)`` where ``fresh``, else ``cur``; a draw of
    its own discard ``dup`` (0..2, where ``dup_ok``) that discard's card):
    ``(ks * reps, 3 + d)``; both also written into ``out_kept`` ``(k, reps,
    3)`` and ``out_val`` ``(k, reps, 3 + d)`` at the rows ``sub``, as the
    numpy path's ``where``s, repeats and assignments give them; and what the
    likelihoods read: the discards ``max(val[:, :3], 0)`` ``(ks * reps, 3)``
    and the kept cards then the draws ``(ks * reps, 3 + d)``."""
    return tuple(np.asarray(x) for x in _read_names_compiled(  # type: ignore[return-value]
        np.ascontiguousarray(sub, dtype=np.int64), int(reps),
        np.ascontiguousarray(names, dtype=np.int64), cur, fresh, dup, dup_ok,
        np.ascontiguousarray(kept_up, dtype=np.int64),
        np.ascontiguousarray(hidden, dtype=np.int64), out_kept, out_val))


def _choose_kernel(out_w: Any, u: Any, out_kept: Any,
                   out_val: Any) -> Any:  # pragma: no cover - compiled
    k, reps = out_w.shape
    w = out_val.shape[2]
    kept = np.empty((k, 3), dtype=np.int64)
    val = np.empty((k, w), dtype=np.int64)
    for i in range(k):
        # numpy's cumsum along a row: the same running sums, in order
        run = out_w[i, 0]
        n = 1 if run < u[i] else 0
        for c in range(1, reps):
            run = run + out_w[i, c]
            if run < u[i]:
                n += 1
        c = min(n, reps - 1)
        for x in range(3):
            kept[i, x] = out_kept[i, c, x]
        for x in range(w):
            val[i, x] = out_val[i, c, x]
    return kept, val


_choose_compiled: Any = _choose_kernel  # (numba's once compiled: _compile_all)


def choose_rows(out_w: Floats, u: Floats, out_kept: Ints, out_val: Ints) -> tuple[Ints, Ints]:
    """Per world ``i`` the candidate :func:`rollem.odds.ryoseen._read_opponent`
    keeps, compiled (issue 33, branch s57-ryo2): the number of running sums
    of ``out_w[i]`` ``(k, reps)`` under ``u[i]`` (at most ``reps - 1``), as
    ``cumsum(out_w, axis=1) < u[:, None]`` counts them; its kept cards
    ``out_kept[i, c]`` ``(k, 3)`` and discards and draws ``out_val[i, c]``
    ``(k, 3 + d)``."""
    kept, val = _choose_compiled(np.ascontiguousarray(out_w, dtype=np.float64),
                                 np.ascontiguousarray(u, dtype=np.float64), out_kept, out_val)
    return np.asarray(kept), np.asarray(val)


def _sample_kernel(mass: Any, r: Any) -> Any:  # pragma: no cover - compiled
    # numpy's cumsum (one running sum in float64, row after row), each
    # row's start and end, the draws' points, then _search_kernel's search
    k, size = mass.shape
    reps = r.shape[1]
    cum = np.empty(k * size)
    acc = 0.0
    for i in range(k):
        for c in range(size):
            if i == 0 and c == 0:
                acc = np.float64(mass[0, 0])
            else:
                acc += np.float64(mass[i, c])
            cum[i * size + c] = acc
    out = np.empty(k * reps, dtype=np.int64)
    start = 0.0
    for i in range(k):
        base = i * size
        end = cum[base + size - 1]
        span = end - start
        cap = np.nextafter(end, start)
        for t in range(reps):
            x = start + r[i, t] * span
            if cap < x:
                x = cap
            out[i * reps + t] = _first_over_short_compiled(cum, base, size, x)
        start = end
    return out


_sample_compiled: Any = _sample_kernel  # (numba's once compiled: _compile_all)


def sample_rows(mass: Floats, r: Floats) -> Ints:
    """:func:`rollem.odds.ryoseen._sample_rows` compiled past its random
    numbers (issue 33, branch s62-ryo): ``r`` ``(k, reps)`` the generator's
    ``random`` per draw, ``mass`` ``(k, M)`` non-negative (float32 or
    float64, every row some mass): per row ``reps`` indices, each in
    proportion to the row's masses, ``(k * reps,)``. The same running sum
    (numpy's ``cumsum`` in float64, one over every row end to end), the
    same points ``start + r * (end - start)`` held under the row's end and
    the same search as :func:`search_rows`: the numpy path's indices."""
    m = np.ascontiguousarray(mass)
    if m.dtype != np.float32:
        m = np.ascontiguousarray(m, dtype=np.float64)
    return np.asarray(_sample_compiled(m, np.ascontiguousarray(r, dtype=np.float64)))


def _second_round_kernel(todo: Any, r: Any, first: Any, starts: Any, ends: Any, cum: Any,
                         flat_avail: Any, reps: int, out: Any) -> Any:  # pragma: no cover
    # one round of _second_of_pair's rejection: each draw's card from its
    # first card's row of the pair table, written; those not available kept
    t = todo.shape[0]
    left = np.empty(t, dtype=np.int64)
    n_left = 0
    for x in range(t):
        d = todo[x]
        c = first[d]
        lo_v, hi_v = starts[c], ends[c]
        u = lo_v + r[x] * (hi_v - lo_v)
        cap = np.nextafter(hi_v, lo_v)
        if cap < u:
            u = cap
        card = _first_over_short_compiled(cum, c * 52, 52, u)
        out[d] = card
        if not flat_avail[(d // reps) * 52 + card]:
            left[n_left] = d
            n_left += 1
    return left[:n_left]


_second_round_compiled: Any = _second_round_kernel  # (numba's once compiled: _compile_all)


def second_round(todo: Ints, r: Floats, first: Ints, starts: Floats, ends: Floats,
                 cum: Floats, flat_avail: Bools, reps: int, out: Ints) -> Ints:
    """One round of :func:`rollem.odds.ryoseen._second_of_pair`'s rejection
    compiled (issue 33, branch s62-ryo): per draw ``todo[x]`` (row ``todo[x]
    // reps`` of ``flat_avail`` ``(k * 52,)``), with ``r[x]`` its random
    number, the second card searched in its first card's row of ``cum``
    ``(52 * 52,)`` (rows' sums from ``starts`` to ``ends`` ``(52,)``) as the
    numpy path does, written to ``out``; returns the draws whose card is not
    available (``(t,)``, in order), to be drawn again."""
    return np.asarray(_second_round_compiled(
        np.ascontiguousarray(todo, dtype=np.int64), np.ascontiguousarray(r, dtype=np.float64),
        first, starts, ends, cum, flat_avail, int(reps), out))


def _log_of(x: float) -> float:  # pragma: no cover - compiled
    # np.log(x), but 0.0 for a ratio of exactly 1.0 (what log gives for 1.0,
    # +0.0, bit for bit) without the call: most of a step's ratios are 1.0,
    # a part nobody reads (branch s68-fuse)
    return 0.0 if x == 1.0 else np.log(x)


_log_of_compiled: Any = _log_of  # (numba's once compiled: _compile_all)


def _accepts(u: float, log_ratio: float) -> bool:  # pragma: no cover - compiled
    # u < exp(log_ratio), u in [0, 1): true at once where log_ratio >= 0
    # (exp of it is 1.0 or more; branch s68-fuse), else exp's as before
    return log_ratio >= 0.0 or u < np.exp(log_ratio)


_accepts_compiled: Any = _accepts  # (numba's once compiled: _compile_all)

CLEAR = 1e-9
"""How far (relatively) the product of a step's four ratios must lie from 1
and from the step's uniform for :func:`_accepts_four` to decide without the
logs: a thousand times the logs' sum's rounding at the most (branch s69-speed)."""

RATIO_RANGE = 2.0 ** 200
"""Each ratio within ``[1 / RATIO_RANGE, RATIO_RANGE]`` for the product
(every partial product a normal double, none rounded to 0 or inf)."""


def _accepts_four(u: float, r0: float, r1: float, r2: float,
                  r3: float) -> Any:  # pragma: no cover - compiled
    # _accepts(u, (log r0 + log r1) + (log r2 + log r3)), the numpy path's
    # sum, decided from the product where it is clear: the logs' sum is
    # within 1e-12 of the log of the product (each log within an ulp of at
    # most 139, three sums), so exp of it is within 1e-12 (relative) of the
    # product, rounded 3e-16; where the product lies over 1 + CLEAR the sum
    # is over 0, where under 1 - CLEAR and u is further than CLEAR from it
    # the uniform's side is the product's; else (a ratio out of range or NaN,
    # the product or u near) the logs as before. The same accepts, bit for
    # bit, without log and exp at most steps (branch s69-speed)
    lo, hi = 1.0 / RATIO_RANGE, RATIO_RANGE
    if (lo <= r0 <= hi and lo <= r1 <= hi and lo <= r2 <= hi and lo <= r3 <= hi):
        p = (r0 * r1) * (r2 * r3)
        if p > 1.0 + CLEAR:
            return True
        if p < 1.0 - CLEAR:
            if u < p * (1.0 - CLEAR):
                return True
            if u > p * (1.0 + CLEAR):
                return False
    log_ratio = ((_log_of_compiled(r0) + _log_of_compiled(r1))
                 + (_log_of_compiled(r2) + _log_of_compiled(r3)))
    return _accepts_compiled(u, log_ratio)


_accepts_four_compiled: Any = _accepts_four  # (numba's once compiled: _compile_all)


def _move_step_kernel(place: bool, r1: Any, r2: Any, c2_at: Any, r3: Any, ok_rows: Any,
                      flat_state: Any, listed: Any, size: Any, firsts: Any, n_firsts: Any,
                      places: Any, n_places: Any, unseen: Any, flat_where: Any,
                      flat_keeper: Any, show_reader: Any, flat_six: Any, lik_keep: Any,
                      lik_show: Any, show_key: Any, flat_power: Any, show_flat: Any,
                      keep_table: Any, tremble: float, in_six: Any, is_unseen: Any,
                      index: Any, m: int, wide: int, a1: Any, a2: Any, s1: Any, s2: Any,
                      c1: Any, c2: Any, at: Any, new: Any, ratio: Any, key: Any,
                      accept: Any) -> bool:  # pragma: no cover - compiled
    # the proposal; where an expose's chance is not in the table, stop there
    # (the caller reads it and goes on as before); else the acceptance
    # (numpy's log and exp of each world's four ratios, summed as it sums
    # them) and the moves made
    _move_propose_into_compiled(
        place, r1, r2, c2_at, flat_state, listed, size, firsts, n_firsts, places, n_places,
        unseen, flat_where, flat_keeper, show_reader, flat_six, lik_keep, lik_show, show_key,
        flat_power, show_flat, keep_table, tremble, m, wide, a1, a2, s1, s2, c1, c2, at, new,
        ratio, key)
    k = size.shape[0]
    for i in range(k):
        if np.isnan(new[i, 2]) or np.isnan(new[i, 3]):
            return False
    for i in range(k):
        accept[i] = _accepts_four_compiled(r3[i], ratio[i, 0], ratio[i, 1], ratio[i, 2],
                                           ratio[i, 3]) and ok_rows[i]
    _move_apply_compiled(place, accept, a1, a2, s1, s2, c1, c2, at, new, key, flat_state,
                         flat_keeper, flat_six, in_six, is_unseen, flat_where, listed, index,
                         lik_keep, lik_show, show_key, m, wide)
    return True


_move_step_compiled: Any = _move_step_kernel  # (numba's once compiled: _compile_all)


def move_buffers(k: int) -> tuple[Any, ...]:
    """The arrays :func:`move_step` writes a step's proposal into, for
    ``k`` worlds (made once a chain, reused every step): as
    :func:`move_propose` returns them, then the acceptance ``(k,)``."""
    i1 = [np.empty(k, dtype=np.int64) for _ in range(6)]
    return (*i1, np.empty((k, 4), dtype=np.int64), np.empty((k, 4)), np.empty((k, 4)),
            np.empty((k, 2), dtype=np.int64), np.empty(k, dtype=np.bool_))


def move_step(place: bool, r1: Floats, r2: Floats | None, c2_at: Ints | None, r3: Floats,
              ok_rows: Bools, flat_state: Ints, listed: Ints, size: Ints, firsts: Ints,
              n_firsts: Ints, places: Ints, n_places: Ints, unseen: Ints, flat_where: Ints,
              flat_keeper: Ints, show_reader: Ints, flat_six: Ints, lik_keep: Floats,
              lik_show: Floats, show_key: Ints, flat_power: Ints, show_flat: Floats,
              keep_table: Any, tremble: float, in_six: Ints, is_unseen: Bools, index: Ints,
              m: int, wide: int, buffers: tuple[Any, ...]) -> bool:
    """One whole Metropolis step of :func:`rollem.odds.ryoseen._move`
    compiled (issue 33, branch s62-ryo): :func:`move_propose`'s proposal
    (into ``buffers``, :func:`move_buffers`), then, unless some expose's
    new chance is not in the table (NaN: returns False having changed
    nothing, the proposal in ``buffers[:10]`` for the caller to finish as
    before), each world's move accepted where ``r3 < exp(log of the
    ratios' product)`` and ``ok_rows``, as the numpy path sums the four
    logs, and made as :func:`move_apply` makes it: returns True. ``r3``
    ``(k,)`` is the step's acceptance draw (the generator's next ``k``
    numbers after the proposal's: none are drawn between)."""
    zf = np.zeros(0)
    zi = np.zeros(0, dtype=np.int64)
    return bool(_move_step_compiled(
        place, r1, zf if r2 is None else r2, zi if c2_at is None else c2_at, r3, ok_rows,
        flat_state, listed, size, firsts, n_firsts, places, n_places, unseen, flat_where,
        flat_keeper, show_reader, flat_six, lik_keep, lik_show, show_key, flat_power,
        show_flat, keep_table, float(tremble), in_six, is_unseen, index, int(m), int(wide),
        *buffers))


def _steer_step_kernel(j: int, r: Any, r_acc: Any, gid: Any, lo: Any, hi: Any, cum: Any,
                       start: Any, end: Any, size: Any, tab: Any, log_g: Any,
                       flat_state: Any, flat_where: Any, flat_keeper: Any, show_reader: Any,
                       flat_six: Any, flat_power: Any, lik_keep: Any, lik_show: Any,
                       show_key: Any, show_flat: Any, keep_table: Any, tremble: float, m: int,
                       wide: int, stub: int) -> Any:  # pragma: no cover - compiled
    # the guided proposal; where an expose's chance is not in the table,
    # stop (the caller reads it and goes on as before); else the acceptance
    # (numpy's log and exp, summed as the numpy path sums) and the moves
    xa, sl, base, live, at, new, ratio, key = _steer_propose_compiled(
        j, r, gid, lo, hi, cum, start, end, size, tab, log_g, flat_state, flat_where,
        flat_keeper, show_reader, flat_six, flat_power, lik_keep, lik_show, show_key,
        show_flat, keep_table, tremble, m, wide)
    k = gid.shape[0]
    done = True
    for i in range(k):
        for col in range(4, 8):
            if np.isnan(new[i, col]):
                done = False
    if done:
        accept = np.empty(k, dtype=np.bool_)
        for i in range(k):
            lr = base[i] + (((_log_of_compiled(ratio[i, 0]) + _log_of_compiled(ratio[i, 1]))
                             + _log_of_compiled(ratio[i, 2])) + _log_of_compiled(ratio[i, 3]))
            lr += ((_log_of_compiled(ratio[i, 4]) + _log_of_compiled(ratio[i, 5]))
                   + _log_of_compiled(ratio[i, 6])) + _log_of_compiled(ratio[i, 7])
            accept[i] = _accepts_compiled(r_acc[i], lr) and live[i]
        _steer_apply_compiled(accept, xa, sl, at, new, key, flat_state, flat_where, lik_keep,
                              lik_show, show_key, wide, stub)
    return done, xa, sl, base, live, at, new, ratio, key


_steer_step_compiled: Any = _steer_step_kernel  # (numba's once compiled: _compile_all)


def steer_step(j: int, r: Floats, r_acc: Floats, gid: Ints, lo: Floats, hi: Floats,
               cum: Floats, start: Ints, end: Ints, size: Ints, tab: Ints, log_g: Floats,
               flat_state: Ints, flat_where: Ints, flat_keeper: Ints, show_reader: Ints,
               flat_six: Ints, flat_power: Ints, lik_keep: Floats, lik_show: Floats,
               show_key: Ints, show_flat: Floats, keep_table: Any, tremble: float, m: int,
               wide: int, stub: int) -> tuple[bool, tuple[Any, ...]]:
    """A whole guided step (:meth:`rollem.odds.ryoseen._Steer.step`) in one
    compiled call (issue 33, branch s62-ryo): :func:`steer_propose`'s
    proposal from ``r``, then, unless some expose's new chance is not in the
    table (NaN: returns ``(False, proposal)`` having changed nothing, for
    the caller to finish as before), each world's move accepted where
    ``r_acc < exp(base + the logs of its eight ratios)`` (summed as the
    numpy path sums) and something moves, and made as :func:`steer_apply`
    makes it: ``(True, proposal)``. ``r_acc`` ``(k,)``: the step's
    acceptance draws (the generator's next after ``r``: none between)."""
    done, *proposal = _steer_step_compiled(
        int(j), r, r_acc, gid, lo, hi, cum, start, end, size, tab, log_g, flat_state,
        flat_where, flat_keeper, show_reader, flat_six, flat_power, lik_keep, lik_show,
        show_key, show_flat, keep_table, float(tremble), int(m), int(wide), int(stub))
    return bool(done), tuple(proposal)


def _move_chain_kernel(gen: Any, step0: int, step1: int, every: int, guide_every: int,
                       n_guided: int, u: int, ok_card: Any, can_place: Any, move_fixed: Any,
                       steer_fixed: Any, gid_t: Any, draws: Any, draw_int: Any
                       ) -> Any:  # pragma: no cover - compiled
    # steps step0.. of ryoseen._move's loop, each drawn from ``gen`` as its
    # numpy lines draw (the same calls in the same order: random(k) and
    # integers(0, u - 1, k) read the bit generator as numpy does) and made
    # by the one-step kernels; a step whose expose's chance is not in the
    # table stops the chain before anything of it is made, its draws left in
    # ``draws``/``draw_int`` for the caller's step-by-step path
    k = ok_card.shape[0]
    for step in range(step0, step1):
        place = every > 0 and step % every == every - 1
        if guide_every > 0 and not place and (step // max(every, 1)) % guide_every == 0:
            j = n_guided % gid_t.shape[0]
            r = gen.random(k)
            r_acc = gen.random(k)
            done = _steer_step_compiled(j, r, r_acc, gid_t[j], *steer_fixed)[0]
            if not done:
                draws[0, :] = r
                draws[1, :] = r_acc
                return step, n_guided
            n_guided += 1
            continue
        r1 = gen.random(k)
        if place:
            r2 = gen.random(k)
            c2_at = np.zeros(0, dtype=np.int64)
        else:
            r2 = np.zeros(0)
            c2_at = gen.integers(0, u - 1, k)
        r3 = gen.random(k)
        if not _move_step_compiled(place, r1, r2, c2_at, r3, can_place if place else ok_card,
                                   *move_fixed):
            draws[0, :] = r1
            if place:
                draws[1, :] = r2
            else:
                draw_int[:] = c2_at
            draws[2, :] = r3
            return step, n_guided
    return step1, n_guided


_move_chain_compiled: Any = _move_chain_kernel  # (numba's once compiled: _compile_all)


def move_chain(gen: np.random.Generator, step0: int, step1: int, every: int,
               guide_every: int, n_guided: int, u: int, ok_card: Bools, can_place: Bools,
               move_fixed: tuple[Any, ...], steer_fixed: tuple[Any, ...], gid_t: Ints,
               draws: Floats, draw_int: Ints) -> tuple[int, int]:
    """Steps ``step0`` to ``step1 - 1`` of :func:`rollem.odds.ryoseen._move`'s
    Metropolis loop in one compiled call (issue 33, branch s68-fuse; no
    origin or re-deal steps among them): each a place step where ``every``
    says (``step % every == every - 1``), else a guided step where
    ``guide_every`` says (opponent ``n_guided % m``'s, ``gid_t`` ``(m, k)``
    its guides per world), else a card step; each step's numbers drawn from
    ``gen`` as the loop's numpy lines draw them (``random(k)``,
    ``integers(0, u - 1, k)``: the same numbers, the generator left where
    numpy leaves it) and made as :func:`move_step` and :func:`steer_step`
    make it, ``move_fixed`` and ``steer_fixed`` their arguments after the
    draws (the same every step). Returns ``(the step it stopped at, n_guided
    then)``: ``step1`` when all were made; else that step drew numbers but an
    expose's chance is not in the table, nothing of it made, its draws in
    ``draws`` ``(3, k)`` (a card or place step's ``r1``, ``r2``, ``r3``; a
    guided step's ``r``, ``r_acc`` in the first two rows) and ``draw_int``
    ``(k,)`` (a card step's ``c2_at``) for the caller to finish that step
    as before. One Python call for the chain, not one per step (the
    per-step calls' arguments and draws were some 5% of play's CPU)."""
    stop, n_after = _move_chain_compiled(
        gen, int(step0), int(step1), int(every), int(guide_every), int(n_guided), int(u),
        ok_card, can_place, move_fixed, steer_fixed, gid_t, draws, draw_int)
    return int(stop), int(n_after)


def _list_slots_kernel(mask: Any) -> Any:  # pragma: no cover - compiled
    # per row, the columns where mask holds, in order; how many; each listed
    # column's place in its row's list (0 elsewhere)
    k, wide = mask.shape
    out = np.zeros((k, wide), dtype=np.int64)
    at = np.zeros((k, wide), dtype=np.int64)
    count = np.zeros(k, dtype=np.int64)
    for r in range(k):
        i = 0
        for c in range(wide):
            if mask[r, c]:
                out[r, i] = c
                at[r, c] = i
                i += 1
        count[r] = i
    return out, count, at


_list_slots_compiled: Any = _list_slots_kernel  # (numba's once compiled: _compile_all)


def list_slots(mask: Bools) -> tuple[Ints, Ints, Ints]:
    """:func:`rollem.odds.ryoseen._move`'s ``listing`` in one compiled pass
    (issue 33, branch s68-fuse; integers: the same lists): per row of
    ``mask`` ``(k, wide)`` the columns where it holds, first (the rest 0),
    ``(k * wide,)`` flat; how many ``(k,)``; and each listed column's index
    in its row's list (0 elsewhere), ``(k * wide,)`` flat."""
    out, count, at = _list_slots_compiled(np.ascontiguousarray(mask, dtype=np.bool_))
    return out.reshape(-1), count, at.reshape(-1)


def _six_slots_kernel(order: Any, m: int, base: int, wide: int) -> Any:  # pragma: no cover
    # each opponent's kept three's slots, then where its discards lie in
    # the pool (the first column holding each label; 0 where none, as
    # numpy's argmax of no match), as flat addresses row * wide + slot
    k, n = order.shape
    six = np.empty((k, m, 6), dtype=np.int64)
    for r in range(k):
        row = r * wide
        for j in range(m):
            for x in range(3):
                six[r, j, x] = row + 3 * j + x
                six[r, j, 3 + x] = row + base
        for j in range(m):
            for x in range(3):
                lab = 52 + 3 * j + x
                for p in range(n):
                    if order[r, p] == lab:
                        six[r, j, 3 + x] = row + base + p
                        break
    return six


_six_slots_compiled: Any = _six_slots_kernel  # (numba's once compiled: _compile_all)


def six_slots(order: Ints, m: int, base: int, wide: int) -> Ints:
    """:func:`rollem.odds.ryoseen._move`'s ``six`` in one compiled pass
    (issue 33, branch s68-fuse; integers: the same table): per world of the
    pool's ``order`` ``(k, n)`` (labels ``52 + 3 j + i`` the discards) and
    opponent ``j < m``, the flat addresses (``row * wide + slot``) of its
    kept three (slots ``3 j ..``) and of its three discards (``base`` plus
    the first pool column holding the label; ``base`` where none):
    ``(k, m, 6)``."""
    return np.asarray(_six_slots_compiled(np.ascontiguousarray(order, dtype=np.int64),
                                          int(m), int(base), int(wide)))


def _where_cards_kernel(state: Any, hidden: Any, stub: int) -> Any:  # pragma: no cover
    # per row, the slot of each card where hidden holds (the last such,
    # as numpy's assignment leaves it); the stub's column elsewhere
    k, wide = state.shape
    where = np.full((k, 53), stub, dtype=np.int64)
    for r in range(k):
        for c in range(wide):
            if hidden[r, c]:
                where[r, state[r, c]] = c
    return where


_where_cards_compiled: Any = _where_cards_kernel  # (numba's once compiled: _compile_all)


def where_cards(state: Ints, hidden: Bools, stub: int) -> Ints:
    """:func:`rollem.odds.ryoseen._move`'s ``where`` in one compiled pass
    (issue 33, branch s68-fuse; integers: the same table): per world of
    ``state`` ``(k, wide)`` (cards 0..52), the slot of each card where
    ``hidden`` ``(k, wide)`` holds, ``stub`` for every other card:
    ``(k, 53)``."""
    return np.asarray(_where_cards_compiled(np.ascontiguousarray(state, dtype=np.int64),
                                            np.ascontiguousarray(hidden, dtype=np.bool_),
                                            int(stub)))


def _read_weigh_kernel(sub: Any, reps: int, names: Any, cur: Any, fresh: Any, dup: Any,
                       dup_ok: Any, kept_up: Any, hidden: Any, out_kept: Any, out_val: Any,
                       keep_table: Any, tremble: float, powers: Any, show_flat: Any,
                       offset: int, factor: Any,
                       out_w: Any) -> bool:  # pragma: no cover - compiled
    # _read_names_kernel's layout, then each candidate's keep chance (as
    # _keep_chance_kernel), its exposes' chance from the table by its key,
    # and (keep * expose * factor) / reps written to out_w; where a key is
    # not in the table, stop before writing out_w (the caller fills it)
    kept, _val, thrown, shown = _read_names_compiled(sub, reps, names, cur, fresh, dup, dup_ok,
                                                    kept_up, hidden, out_kept, out_val)
    ks = sub.shape[0]
    w = shown.shape[1]
    n = ks * reps
    show = np.empty(n, dtype=np.float64)
    for i in range(n):
        key = offset
        for x in range(w):
            key += (shown[i, x] >> 2) * powers[x]
        v = show_flat[key]
        if np.isnan(v):
            return False
        show[i] = v
    keep = _keep_chance_compiled(kept, thrown, keep_table, tremble)
    for s in range(ks):
        row = sub[s]
        for c in range(reps):
            i = s * reps + c
            out_w[row, c] = (keep[i] * show[i]) * factor[i] / reps
    return True


_read_weigh_compiled: Any = _read_weigh_kernel  # (numba's once compiled: _compile_all)


def read_weigh(sub: Ints, reps: int, names: Ints, cur: Ints, fresh: Bools, dup: Ints,
               dup_ok: Bools, kept_up: Ints, hidden: Ints, out_kept: Ints, out_val: Ints,
               keep_table: Any, tremble: float, powers: Ints, show_flat: Floats,
               offset: int, factor: Floats, out_w: Floats) -> bool:
    """:func:`read_names`' layout of one origin's candidates, then their
    weights, in one compiled call (issue 33, branch s62-ryo): per candidate
    ``i`` the fast policy's keep chance of its kept three against its
    discards (:func:`keep_chance_rows`, ``keep_table`` by cards), its
    exposes' chance ``show_flat[offset + sum((shown >> 2) * powers)]`` (the
    opponent's table of :class:`rollem.odds.ryoseen._ExposeTable`), and
    ``out_w[sub[s], c] = keep * expose * factor[i] / reps`` (``i = s * reps +
    c``), the numpy path's floating-point operations in its order. Returns
    False, ``out_w`` untouched, where some key is not in the table yet (NaN;
    the caller fills it and weighs as before)."""
    return bool(_read_weigh_compiled(
        np.ascontiguousarray(sub, dtype=np.int64), int(reps),
        np.ascontiguousarray(names, dtype=np.int64), cur, fresh, dup, dup_ok,
        np.ascontiguousarray(kept_up, dtype=np.int64),
        np.ascontiguousarray(hidden, dtype=np.int64), out_kept, out_val, keep_table,
        float(tremble), powers, show_flat, int(offset),
        np.ascontiguousarray(factor, dtype=np.float64), out_w))


def _owners_kernel(card_at: Any, col: Any, pref3: Any, origin: Any, left: Any, drawer: Any,
                   r: Any, weight: Any, owner: Any, norm_rec: Any, pref_rec: Any,
                   pick_rec: Any) -> None:  # pragma: no cover - compiled
    # _relabel's loop over the places: per place, the worlds with a card
    # there (in row order) draw its owner in proportion to labels left times
    # preference (_sample_kernel's running sum over those worlds, their
    # random numbers next in r); the norm and the chosen preference kept for
    # the caller's logs, the weight multiplied where no opponent drew it
    k, n = card_at.shape
    m = left.shape[1]
    used = 0
    mass = np.empty(m)
    cum = np.empty(k * m)
    rows = np.empty(k, dtype=np.int64)
    for p in range(n):
        t = 0
        for row in range(k):
            if card_at[row, p] >= 0:
                rows[t] = row
                t += 1
        if t == 0:
            continue
        acc = 0.0
        for x in range(t):
            row = rows[x]
            ci = col[card_at[row, p]]
            for j in range(m):
                v = np.float64(left[row, j]) * pref3[j, origin[row, j], ci]
                acc = v if x == 0 and j == 0 else acc + v
                cum[x * m + j] = acc
        start = 0.0
        for x in range(t):
            row = rows[x]
            ci = col[card_at[row, p]]
            base = x * m
            end = cum[base + m - 1]
            cap = np.nextafter(end, start)
            u = start + r[used + x] * (end - start)
            if cap < u:
                u = cap
            pick = _first_over_short_compiled(cum, base, m, u)
            start = end
            # the row's mass summed as numpy sums it (in order, under 8 columns)
            tot = 0.0
            n_left = 0
            for j in range(m):
                mass[j] = np.float64(left[row, j]) * pref3[j, origin[row, j], ci]
                tot = mass[j] if j == 0 else tot + mass[j]
                n_left += left[row, j]
            norm = tot / n_left
            if drawer[p] < 0:
                weight[row] *= norm
            norm_rec[row, p] = norm
            pref_rec[row, p] = pref3[pick, origin[row, pick], ci]
            pick_rec[row, p] = pick
            left[row, pick] -= 1
            owner[row, p] = pick
        used += t


_owners_compiled: Any = _owners_kernel  # (numba's once compiled: _compile_all)


def _owners_later_kernel(drawer: Any, pick_rec: Any, log_norm: Any, log_pref: Any,
                         later: Any) -> None:  # pragma: no cover - compiled
    # the logs added to each opponent's later factor, place by place
    k, n = pick_rec.shape
    for p in range(n):
        d = drawer[p]
        for row in range(k):
            pick = pick_rec[row, p]
            if pick < 0:
                continue
            if d >= 0:
                later[row, d] += log_norm[row, p]
            later[row, pick] -= log_pref[row, p]


_owners_later_compiled: Any = _owners_later_kernel  # (numba's once compiled: _compile_all)


def relabel_owners(card_at: Ints, col: Ints, prefs: list[Floats], origin: Ints, left: Ints,
                   drawer: Ints, r: Floats, weight: Floats, owner: Ints,
                   later: Floats) -> None:
    """:func:`rollem.odds.ryoseen._relabel`'s draw of the named labels'
    owners compiled (issue 33, branch s62-ryo), in place: per pool place
    ``p`` in order and per world (row order) with a card there (``card_at``
    ``(k, n)``, -1 none; ``col`` its column in ``prefs[j]`` ``(origins,
    C)``), the owner ``j`` drawn in proportion to ``left[row, j]`` (labels
    left, ``(k, m)``) times ``prefs[j][origin[row, j], col]``, as
    :func:`sample_rows` draws over that place's worlds, from ``r`` (the
    generator's numbers for every place's worlds, in that order); ``norm``
    the row's mass over its labels left multiplies ``weight`` where no
    opponent drew the place (``drawer[p] < 0``), else ``log(norm)`` is
    added to the drawer's ``later``, and ``log`` of the chosen preference
    taken off the owner's; ``left`` and ``owner`` updated. The logs are
    numpy's, taken between the two compiled passes; every sum in the numpy
    path's order."""
    k, n = card_at.shape
    m = left.shape[1]
    width = max(len(x) for x in prefs)
    pref3 = np.zeros((m, width, prefs[0].shape[1]))
    for j, x in enumerate(prefs):
        pref3[j, :len(x)] = x
    norm_rec = np.ones((k, n))
    pref_rec = np.ones((k, n))
    pick_rec = np.full((k, n), -1, dtype=np.int64)
    _owners_compiled(np.ascontiguousarray(card_at, dtype=np.int64),
                     np.ascontiguousarray(col, dtype=np.int64), pref3,
                     np.ascontiguousarray(origin, dtype=np.int64), left,
                     np.ascontiguousarray(drawer, dtype=np.int64),
                     np.ascontiguousarray(r, dtype=np.float64), weight, owner, norm_rec,
                     pref_rec, pick_rec)
    _owners_later_compiled(np.ascontiguousarray(drawer, dtype=np.int64), pick_rec,
                           np.log(norm_rec), np.log(pref_rec), later)


def _log_falling_one(lf: Any, a: int, t: int) -> float:  # pragma: no cover - compiled
    # log(a (a - 1) ... (a - t + 1)) from the table of log factorials; -inf where t > a
    low = a - t
    if low < 0:
        return -np.inf
    return float(lf[max(a, 0)] - lf[low])


_log_falling_one_compiled: Any = _log_falling_one  # (numba's once compiled: _compile_all)


def _next_u(gen: Any, r: Any, at: int) -> Any:  # pragma: no cover - compiled
    # the next uniform: numpy's, drawn in bulk before the call, then the generator's
    # (read_draw's before branch s70-kern; the tests' reference kernel still calls it)
    if at < r.shape[0]:
        return r[at], at + 1
    return gen.random(), at + 1


_next_u_compiled: Any = _next_u  # (numba's once compiled: _compile_all)


READ_CHUNK = 1024
""":func:`read_draw`'s uniforms are drawn this many at a time as the kernel
uses them (branch s70-kern; before, ``k * reps * (1 + (2 + w) // 2)`` were
drawn before the call, a third of them not used at 6 players after the wild
card: about 50 µs a call)."""


def _refill(gen: Any, buf: Any, at: int, n_all: int) -> Any:  # pragma: no cover - compiled
    # the generator's next numbers in ``buf``: as many as it holds, but none past
    # the ``n_all`` the wrapper skips to, then one at a time (numba's random(n)
    # and random() read the bit generator as numpy's random(n) does: the same
    # numbers); returns the count drawn in all after it
    n = min(buf.shape[0], n_all - at)
    if n > 0:
        buf[:n] = gen.random(n)
        return at + n
    buf[0] = gen.random()
    return at + 1


_refill_compiled: Any = _refill  # (numba's once compiled: _compile_all)


def _read_draw_kernel(gen: Any, unif: Any, n_all: int, origin: Any, avail: Any, named: Any,
                      order: Any, draws: Any,
                      j: int, mode: Any, n_up: Any, kept_up: Any,
                      single: Any, pair: Any, lf: Any, reps: int, out_kept: Any,
                      out_val: Any, factor: Any) -> int:  # pragma: no cover - compiled
    # per world, its origin's candidates: the hidden kept cards (uniform or
    # from the origin's guide, single or pair), the fresh slots' cards
    # uniformly among the rest, laid out as _read_names_kernel does, and each
    # candidate's factor: the ways to name the rest after over before, over
    # the proposal's chance of it
    k = origin.shape[0]
    d = draws.shape[0]
    w = 3 + d
    labels = named.shape[1]
    # per origin, the last available set seen (a 52-bit mask; -1 none yet) and
    # what it gives: the cards, the first cards' masses and running sums and
    # their total (the rows a resampling copied share them: computed once; the
    # same operations in the same order, so the same bits; branch s67-fast)
    n_orig = mode.shape[0]
    seen_mask = np.full(n_orig, -1, dtype=np.int64)
    cards_of = np.empty((n_orig, 52), dtype=np.int64)
    mass_of = np.empty((n_orig, 52), dtype=np.float64)
    cum_of = np.empty((n_orig, 52), dtype=np.float64)
    z_of = np.zeros(n_orig, dtype=np.float64)
    a_of = np.zeros(n_orig, dtype=np.int64)
    # a pair's second cards' running sums after its first (position t1), made
    # at the first draw that needs them for the origin's set (``made`` holds
    # the set's version), searched by bisection in place of the running scan
    # (the same sums in the same order: the same card)
    version = np.zeros(n_orig, dtype=np.int64)
    made = np.full((n_orig, 52), -1, dtype=np.int64)
    second = np.empty((n_orig, 52, 52), dtype=np.float64)
    last_of = np.empty((n_orig, 52), dtype=np.int64)
    pick = np.empty(6, dtype=np.int64)
    at = 0  # the uniforms used
    top = 0  # the uniforms drawn from ``gen`` (``unif`` holds those from ``bottom``)
    bottom = 0
    cur = np.empty(w, dtype=np.int64)  # each slot's card where named (-1: not yet)
    fresh = np.zeros(w, dtype=np.bool_)  # the slots the candidates name
    dup = np.full(max(d, 1), -1, dtype=np.int64)  # a draw of its own discard: which
    for row in range(k):
        # the slots: its three discards (labels 3 j ..), then its draws (a
        # label, or a discard of the seat there)
        for x in range(w):
            lab = 3 * j + x
            if x >= 3:
                it = order[row, draws[x - 3]]
                lab = it - 52 if it >= 52 else -1
                cur[x] = named[row, lab] if lab >= 0 else it
                own = lab - 3 * j
                dup[x - 3] = own if lab >= 0 and 0 <= own < 3 else -1
            else:
                cur[x] = named[row, lab]
            fresh[x] = cur[x] == -1 and lab >= 0 and (x < 3 or dup[x - 3] < 0)
        i = origin[row]
        u = n_up[i]
        f = 3 - u
        md = mode[i]
        mask = np.int64(0)
        for c in range(52):  # (no branch to mispredict: branch s71-cheap)
            mask |= np.int64(avail[row, c]) << c
        fresh_set = mask != seen_mask[i]
        cards = cards_of[i]
        row_mass = mass_of[i]
        cum = cum_of[i]
        if fresh_set:
            seen_mask[i] = mask
            version[i] += 1
            a = 0
            for c in range(52):  # (each card written, kept where unknown)
                cards[a] = c
                a += avail[row, c]
            a_of[i] = a
        a = a_of[i]
        nf = 0
        for x in range(w):
            if fresh[x]:
                nf += 1
        un = 0
        for x in range(labels):
            un += named[row, x] < 0
        count = (_log_falling_one_compiled(lf, a - f - nf, un - nf)
                 - _log_falling_one_compiled(lf, a, un))
        if a < f + nf:
            raise ValueError("fewer unknown cards are left than a read needs")
        base = 0.0
        z = 0.0
        if md == 0:  # q = f! / (A)_(f + nf)
            base = count - (lf[f] - _log_falling_one_compiled(lf, a, f + nf))
        elif not fresh_set:  # the masses of this origin's set, made for an earlier row
            base = count + _log_falling_one_compiled(lf, a - f, nf)
            z = z_of[i]
        else:  # q = (p / Z) / (A - f)_nf
            base = count + _log_falling_one_compiled(lf, a - f, nf)
            if md == 1:
                for t in range(a):
                    row_mass[t] = single[i, cards[t]]
                    z += row_mass[t]
                    cum[t] = z
            else:  # each available first card's share of the available pairs
                for t in range(a):
                    row_mass[t] = 0.0
                for t in range(a):
                    c = cards[t]
                    s = row_mass[t]
                    for t2 in range(t + 1, a):
                        p = pair[i, c, cards[t2]]
                        s += p
                        row_mass[t2] += p
                    row_mass[t] = s
                for t in range(a):
                    z += row_mass[t]
                    cum[t] = z
            z_of[i] = z
        scale = np.exp(base)  # (times the guide's Z / p of the set drawn)
        for rep in range(reps):
            taken = np.int64(0)
            ratio = 1.0
            if md == 0:
                for x in range(f):
                    while True:
                        if at == top:  # (the numbers drawn used up: the next ones)
                            bottom, top = at, _refill_compiled(gen, unif, at, n_all)
                        v = unif[at - bottom]
                        at += 1
                        c = cards[np.int64(v * a)]
                        if not taken & (np.int64(1) << c):
                            break
                    pick[x] = c
                    taken |= np.int64(1) << c
            elif z > 0.0:
                if at == top:  # (the numbers drawn used up: the next ones)
                    bottom, top = at, _refill_compiled(gen, unif, at, n_all)
                v = unif[at - bottom]
                at += 1
                t1 = _first_over_short_compiled(cum, 0, a, v * z)
                while row_mass[t1] <= 0.0:  # (the point rounded onto the end)
                    t1 -= 1
                c1 = cards[t1]
                pick[0] = c1
                taken |= np.int64(1) << c1
                if md == 1:
                    ratio = z / single[i, c1]
                else:
                    if at == top:  # (the numbers drawn used up: the next ones)
                        bottom, top = at, _refill_compiled(gen, unif, at, n_all)
                    v = unif[at - bottom]
                    at += 1
                    x1 = v * row_mass[t1]
                    run2 = second[i, t1]
                    if made[i, t1] != version[i]:  # the running sums over the set's cards
                        made[i, t1] = version[i]
                        run = 0.0
                        last = -1
                        for t in range(a):
                            p = pair[i, c1, cards[t]]
                            if p > 0.0:
                                last = t
                                run += p
                            run2[t] = run
                        last_of[i, t1] = last
                    # the first card whose running sum passes x1 (the sums grow only
                    # at cards of the pair's: that card is one), else the last such
                    t2 = _first_over_short_compiled(run2, 0, a, x1)
                    if not run2[t2] > x1:
                        t2 = last_of[i, t1]
                    c2 = cards[t2]
                    pick[1] = c2
                    taken |= np.int64(1) << c2
                    ratio = (z / 2.0) / pair[i, c1, c2]
            else:  # no set of the guide left: weight 0, any cards
                for x in range(f):
                    pick[x] = cards[x]
                    taken |= np.int64(1) << cards[x]
                ratio = 0.0
            for x in range(u):
                out_kept[row, rep, x] = kept_up[i, x]
            for x in range(f):
                out_kept[row, rep, u + x] = pick[x]
            for x in range(w):
                if fresh[x]:
                    while True:
                        if at == top:  # (the numbers drawn used up: the next ones)
                            bottom, top = at, _refill_compiled(gen, unif, at, n_all)
                        v = unif[at - bottom]
                        at += 1
                        c = cards[np.int64(v * a)]
                        if not taken & (np.int64(1) << c):
                            break
                    taken |= np.int64(1) << c
                    out_val[row, rep, x] = c
                else:
                    out_val[row, rep, x] = cur[x]
            for r in range(d):  # a draw of its own discard is that discard's card
                if dup[r] >= 0:
                    out_val[row, rep, 3 + r] = out_val[row, rep, dup[r]]
            factor[row, rep] = scale * ratio
    return top


_read_draw_compiled: Any = _read_draw_kernel  # (numba's once compiled: _compile_all)


def _read_score_kernel(gen: Any, out_kept: Any, out_val: Any, factor: Any, keep_table: Any,
                       tremble: float, powers: Any, show_flat: Any, offset: int,
                       out_w: Any) -> Any:  # pragma: no cover - compiled
    # each candidate's keep chance, its exposes' chance by key, the weight,
    # then per world the total and the candidate kept (one uniform a world);
    # where a key is not tabled, stop before any draw (the caller fills it)
    k, reps = factor.shape
    w = out_val.shape[2]
    hit_w = 1.0 - tremble
    floor = tremble / 20.0
    # the exposes' chances first, every candidate's read in one tight loop (the
    # table is megabytes: its reads' misses overlap; branch s69-speed), then
    # the check for any not tabled, then the weights
    for row in range(k):
        for c in range(reps):
            key = offset
            for x in range(3):
                key += (out_kept[row, c, x] >> 2) * powers[x]
            for x in range(3, w):
                key += (out_val[row, c, x] >> 2) * powers[x]
            out_w[row, c] = show_flat[key]
    for row in range(k):
        for c in range(reps):
            if np.isnan(out_w[row, c]):
                return False, np.zeros(0), np.zeros((0, 3), dtype=np.int64), \
                    np.zeros((0, w), dtype=np.int64)
    # then per world its weights, their total and the candidate kept, in one
    # pass (its weights still in cache; the same operations in the same order:
    # branch s70-kern)
    total = np.empty(k)
    kept = np.empty((k, 3), dtype=np.int64)
    val = np.empty((k, w), dtype=np.int64)
    for row in range(k):
        for c in range(reps):
            v = out_w[row, c]
            keep = _keep_one_compiled(keep_table, out_kept[row, c, 0], out_kept[row, c, 1],
                                      out_kept[row, c, 2], max(out_val[row, c, 0], 0),
                                      max(out_val[row, c, 1], 0), max(out_val[row, c, 2], 0),
                                      hit_w, floor)
            out_w[row, c] = keep * v * factor[row, c] / reps
        s = 0.0
        for c in range(reps):
            s += out_w[row, c]
        total[row] = s
        x = gen.random() * s
        run = 0.0
        pick = reps - 1
        for c in range(reps):
            run += out_w[row, c]
            if run > x and out_w[row, c] > 0.0:
                pick = c
                break
        for t in range(3):
            kept[row, t] = out_kept[row, pick, t]
        for t in range(w):
            val[row, t] = out_val[row, pick, t]
    return True, total, kept, val


_read_score_compiled: Any = _read_score_kernel  # (numba's once compiled: _compile_all)


def read_draw(gen: np.random.Generator, origin: Ints, avail: Bools, named: Ints, order: Ints,
              draws: Ints, j: int, mode: Ints, n_up: Ints, kept_up: Ints,
              single: Floats, pair: Floats, log_factorial: Floats, reps: int
              ) -> tuple[Ints32, Ints32, Floats]:
    """:func:`rollem.odds.ryoseen._read_opponent`'s candidates, every origin
    in one compiled pass (issue 33, branch s63-ryo): per world ``row`` of
    opponent ``j`` (its origin ``i = origin[row]``, available cards
    ``avail[row]`` ``(k, 52)``, the labels' cards ``named`` ``(k, L)``, -1
    not named, the pool ``order`` ``(k, n)`` read at its ``d`` draws
    ``draws``: its slots are its three discards, labels ``3 j ..``, then
    its draws, a label or a seat's discard; a slot is named by the
    candidates where no card is there yet, a draw of its own discard being
    that discard's card) ``reps``
    candidates: the hidden kept cards (``mode[i]`` 0: ``3 - n_up[i]``
    uniformly; 1: one card from ``single[i]`` ``(n, 52)``; 2: a pair from
    ``pair[i]`` ``(n, 52, 52)``, symmetric) after the up cards kept
    ``kept_up[i, :n_up[i]]``, the fresh slots' cards uniformly among the
    rest. Returns the kept cards ``(k, reps, 3)``, the discards and draws
    ``(k, reps, 3 + d)`` (both int32 since branch s67-fast: half the memory)
    and each candidate's factor (the ways to name the rest after it over
    before it, over its proposal chance) ``(k, reps)``.
    Its own random stream and libm's ``exp``/``log``: the numpy path's law,
    not its bits. Raises ValueError where fewer cards are left than a
    world needs."""
    k = len(origin)
    w = 3 + len(draws)
    # (cards and -1 in int32: half the memory the two passes write and read;
    # read_score's kept cards and draws are int64; branch s67-fast)
    out_kept = np.empty((k, reps, 3), dtype=np.int32)
    out_val = np.empty((k, reps, w), dtype=np.int32)
    factor = np.empty((k, reps))
    # the uniforms in bulk (a tenth the cost of one by one), :data:`READ_CHUNK`
    # at a time as the kernel uses them. The generator is left where ``k * reps
    # * (2 + w)`` of them leave it, but only about as many as a call uses are
    # made (2.7 a candidate of 7 at 6 players after the wild card), the rest
    # skipped (:func:`skip_uniforms`; branch s67-fast: the same numbers, the
    # same state after; branch s70-kern: drawn in chunks, not a guess of the
    # count before the call)
    n_all = k * reps * (2 + w)
    drawn = _read_draw_compiled(gen, np.empty(READ_CHUNK), n_all,
                        np.ascontiguousarray(origin, dtype=np.int64),
                        np.ascontiguousarray(avail, dtype=np.bool_),
                        np.ascontiguousarray(named, dtype=np.int64),
                        np.ascontiguousarray(order, dtype=np.int64),
                        np.ascontiguousarray(draws, dtype=np.int64), int(j),
                        mode, n_up, kept_up, single, pair, log_factorial, int(reps),
                        out_kept, out_val, factor)
    skip_uniforms(gen, n_all - int(drawn))
    return out_kept, out_val, factor


SKIP_FROM = 4096
"""Fewer uniforms than this are drawn, not skipped, by :func:`skip_uniforms`
(setting a generator's state costs some microseconds)."""


def skip_uniforms(gen: np.random.Generator, n: int) -> None:
    """``gen`` moved on as ``n`` calls of ``gen.random()`` move it (nothing
    where ``n <= 0``; branch s67-fast): by ``advance`` where its bit
    generator has one (PCG64: one step a double), the buffered 32-bit half
    kept (``advance`` clears it; ``random()`` never reads it, the bounded
    integers do), so every later draw is the one it would have been; else
    the numbers drawn and dropped."""
    if n <= 0:
        return
    bits = gen.bit_generator
    advance = getattr(bits, "advance", None)
    if advance is None or n < SKIP_FROM:
        gen.random(n)
        return
    state = bits.state
    advance(n)
    if state.get("has_uint32"):
        now = dict(bits.state)
        now["has_uint32"], now["uinteger"] = state["has_uint32"], state["uinteger"]
        bits.state = now


def read_score(gen: np.random.Generator, out_kept: Ints32, out_val: Ints32, factor: Floats,
               keep_table: Any, tremble: float, powers: Ints, show_flat: Floats,
               offset: int) -> tuple[Floats, Ints, Ints] | None:
    """:func:`read_draw`'s candidates weighed (the fast policy's keep chance
    times the exposes' chance ``show_flat[offset + sum((shown >> 2) *
    powers)]`` times the factor, over ``reps``) and one kept per world in
    proportion (one ``random()`` a world): the worlds' totals ``(k,)``, the
    kept cards ``(k, 3)`` and discards and draws ``(k, 3 + d)``; ``None``,
    nothing drawn, where some key is not tabled yet (the caller fills it
    and calls again; issue 33, branch s63-ryo)."""
    k, reps = factor.shape
    ok, total, kept, val = _read_score_compiled(
        gen, out_kept, out_val, factor, keep_table, float(tremble), powers, show_flat,
        int(offset), np.empty((k, reps)))
    if not ok:
        return None
    return np.asarray(total), np.asarray(kept), np.asarray(val)


def _name_read_kernel(named: Any, avail: Any, kept: Any, val: Any, order: Any, draws: Any,
                      j: int) -> None:  # pragma: no cover - compiled
    # per world, the read's slots named (its three discards, labels 3 j ..,
    # then its draws where a label is there) and its cards made unavailable
    k = named.shape[0]
    d = draws.shape[0]
    for row in range(k):
        for s in range(3 + d):
            lab = 3 * j + s if s < 3 else order[row, draws[s - 3]] - 52
            if lab >= 0:
                named[row, lab] = val[row, s]
        for t in range(3):
            avail[row, kept[row, t]] = False
        for s in range(3 + d):
            c = val[row, s]
            avail[row, 0 if c < 0 else (51 if c > 51 else c)] = False


_name_read_compiled: Any = _name_read_kernel  # (numba's once compiled: _compile_all)


def name_read(named: Ints, avail: Bools, kept: Ints, val: Ints, order: Ints, draws: Ints,
              j: int) -> bool:
    """:func:`rollem.odds.ryoseen._worlds` after opponent ``j``'s read, in
    one compiled pass (branch s67-fast): per world, ``named`` ``(k, L)``
    takes the read's cards ``val`` ``(k, 3 + d)`` at its slots' labels (its
    discards ``3 j ..``, then each draw ``draws[t]`` whose place in
    ``order`` ``(k, n)`` holds a label, ``order - 52``), and ``avail``
    ``(k, 52)`` loses its kept cards ``kept`` ``(k, 3)`` and those cards
    (clipped to 0..51, as numpy's path clips them). The same integers as
    the numpy path. Changes ``named`` and ``avail`` in place and returns
    True; False, changing nothing, where they are not C-ordered int64 and
    bool arrays (the caller's numpy path then)."""
    if not (named.flags.c_contiguous and avail.flags.c_contiguous
            and named.dtype == np.int64 and avail.dtype == np.bool_):
        return False
    _name_read_compiled(named, avail, np.ascontiguousarray(kept, dtype=np.int64),
                        np.ascontiguousarray(val, dtype=np.int64),
                        np.ascontiguousarray(order, dtype=np.int64),
                        np.ascontiguousarray(draws, dtype=np.int64), int(j))
    return True


def _layout_origins_kernel(order: Any, named: Any, draws: Any, asks: Any, name_at: Any,
                           is_up: Any, base: Any, r: Any, lf: Any, a: int, weight: Any,
                           later: Any, j: int, origin: Any) -> None:  # pragma: no cover
    # per world, which of the opponent's origins fit the pool's order (each
    # draw as its origin asks: that discard of the seat, x >= 0; a label not
    # named yet, -2; a card not one of its up cards, -3), one drawn in
    # proportion to base among them (numpy's running sums over their total),
    # the up cards it drew named, and the log factor its step takes on
    k = order.shape[0]
    n, d = asks.shape
    labels = named.shape[1]
    chance = np.empty(n)
    for row in range(k):
        total = 0.0
        for i in range(n):
            ok = True
            for t in range(d):
                it = order[row, draws[t]]
                x = asks[i, t]
                if x >= 0:
                    fit = it == x
                elif x == -2:
                    fit = it >= 52 and named[row, it - 52] == -1
                else:
                    fit = not is_up[it]
                if not fit:
                    ok = False
                    break
            chance[i] = base[i] if ok else 0.0
            total += chance[i]
        if not total > 0.0:
            weight[row] = weight[row] * 0.0
            origin[row, j] = n - 1
            continue
        u = r[row]
        run = 0.0
        count = 0
        for i in range(n):
            run += chance[i]
            if run / total < u:
                count += 1
        pick = min(count, n - 1)
        origin[row, j] = pick
        before = 0
        for x in range(labels):
            if named[row, x] < 0:
                before += 1
        after = before
        for t in range(d):
            c = name_at[pick, t]
            it = order[row, draws[t]]
            if c >= 0 and it >= 52:
                if named[row, it - 52] < 0:
                    after -= 1
                named[row, it - 52] = c
        q = chance[pick] / total
        later[row, j] += (_log_falling_one_compiled(lf, a, after)
                          - _log_falling_one_compiled(lf, a, before)) - np.log(q)


_layout_origins_compiled: Any = _layout_origins_kernel  # (numba's once compiled: _compile_all)


def layout_origins(order: Ints, named: Ints, draws: Ints, asks: Ints, name_at: Ints,
                   is_up: Bools, base: Floats, r: Floats, log_factorial: Floats, a: int,
                   weight: Floats, later: Floats, j: int, origin: Ints) -> None:
    """:func:`rollem.odds.ryoseen._layout`'s draw of opponent ``j``'s origins,
    compiled (issue 33, branch s63-ryo): per world (``order`` ``(k, n)``,
    ``named`` ``(k, L)``, changed in place) the origins that fit (``asks``
    ``(origins, d)``: per draw ``draws[t]`` a seat's discard ``x >= 0`` there,
    -2 a label not named yet, -3 a card not in ``is_up``), one of them in
    proportion to ``base`` by the uniform ``r[row]`` into ``origin[:, j]``,
    the up cards it drew named (``name_at`` ``(origins, d)``, -1 none), and
    ``later[:, j]`` adds the change in ``log (a)_U`` (``U`` labels unnamed)
    less ``log`` of the origin's chance; ``weight`` is zeroed where none
    fits. The numpy path's running sums and comparisons; its logs are libm's."""
    _layout_origins_compiled(order, named, draws, asks, name_at, is_up, base, r,
                             log_factorial, int(a), weight, later, int(j), origin)


def _label_like(keep_table: Any, V: Any, kept: Any, w: int, o: int, s: int, use_o: bool,
                use_d: bool, dup: bool, d: int, base_o: int, pow_o: int, base_d: int,
                pow_d: int, c: int, hit_w: float, floor: float,
                show_flat: Any) -> Any:  # pragma: no cover - compiled
    # the label step's chance of card c (its owner's keep and exposes, its
    # drawer's exposes; _label_steps_kernel's product in its order); -1.0
    # where the owner's exposes' key is not tabled, -2.0 where the drawer's
    like = 1.0
    if use_o:
        t0 = V[w, o, 0]
        t1 = V[w, o, 1]
        t2 = V[w, o, 2]
        if s == 0:
            t0 = c
        elif s == 1:
            t1 = c
        else:
            t2 = c
        like *= _keep_one_compiled(keep_table, kept[w, o, 0], kept[w, o, 1], kept[w, o, 2],
                                   max(t0, 0), max(t1, 0), max(t2, 0), hit_w, floor)
        sv = show_flat[base_o + (c >> 2) * pow_o]
        if np.isnan(sv):
            return -1.0
        like *= sv
    if use_d:
        sv = show_flat[base_d + (c >> 2) * pow_d]
        if np.isnan(sv):
            return -2.0
        like *= sv
    return like


_label_like_compiled: Any = _label_like  # (numba's once compiled: _compile_all)


def _label_keys(lb: int, p: int, w: int, readmask: Any, drawer_of: Any, rank_of: Any,
                kept: Any, V: Any, nd: Any, offsets: Any,
                powers: Any) -> Any:  # pragma: no cover - compiled
    # a label's set-up for both label-step kernels (inlined into each): label
    # lb (its owner o = lb // 3, its slot s) at the pool's place p (-1: none),
    # its drawer d and the draw's rank r there (-1 both if none); use_o / use_d
    # whether the owner's / drawer's read counts (the drawer's only if another
    # player); dup if the owner drew it (the draw's slot too); base_o / base_d
    # the owner's / drawer's exposes' key in world w but for the candidate's
    # rank, pow_o / pow_d that rank's power (pow_o 0 unless dup); 0 if unused
    o = lb // 3
    s = lb % 3
    d = -1
    r = -1
    if p >= 0:
        d = drawer_of[p]
        r = rank_of[p]
    use_o = readmask[o]
    use_d = d >= 0 and d != o and readmask[d]
    dup = d == o and d >= 0  # the owner drew it: the draw's slot too
    base_o = 0
    pow_o = 0
    if use_o:  # the owner's exposes' key but for the candidate's rank
        base_o = offsets[o]
        for y in range(3):
            base_o += (kept[w, o, y] >> 2) * powers[o, y]
        for y in range(nd[o]):
            if not (dup and y == r):
                base_o += (V[w, o, 3 + y] >> 2) * powers[o, 3 + y]
        if dup:
            pow_o = powers[o, 3 + r]
    base_d = 0
    pow_d = 0
    if use_d:
        base_d = offsets[d]
        for y in range(3):
            base_d += (kept[w, d, y] >> 2) * powers[d, y]
        for y in range(nd[d]):
            if y != r:
                base_d += (V[w, d, 3 + y] >> 2) * powers[d, 3 + y]
        pow_d = powers[d, 3 + r]
    return o, s, d, r, use_o, use_d, dup, base_o, pow_o, base_d, pow_d


_label_keys_compiled: Any = _label_keys  # (numba's once compiled, inlined: _compile_all)


def _label_steps_kernel(lab: Any, u: Any, named: Any, order: Any, avail: Any, is_unseen: Any,
                        V: Any, readmask: Any, kept: Any, nd: Any, drawer_of: Any,
                        rank_of: Any, keep_table: Any, hit_w: float, floor: float,
                        show_flat: Any, offsets: Any, powers: Any, miss_x: Any,
                        miss_c: Any, u2: Any) -> Any:  # pragma: no cover - compiled
    # per step and world: the label lab[t, w] where a read named it with an
    # unseen card, named anew among that card and the cards still unnamed in
    # proportion to the read opponents' chances that read it (its owner's
    # keep and exposes, its drawer's exposes); a world one of whose keys is
    # not tabled stays as it is that step (noted in miss_x, miss_c)
    # (world by world, its steps one after the other: the world's rows stay in
    # cache; each world's chain is its own, so the order across worlds is free)
    k = lab.shape[1]
    n = order.shape[1]
    n_miss = 0
    moved = 0
    mass = np.zeros(52)
    metropolis = u2.shape[0] > 0
    place = np.empty(named.shape[1], dtype=np.int64)
    for w in range(k):
        for q in range(named.shape[1]):
            place[q] = -1
        for q in range(n):  # each label's place in the pool's order (none moves here)
            v = order[w, q] - 52
            if 0 <= v < named.shape[1] and place[v] < 0:
                place[v] = q
        for t in range(lab.shape[0]):
            lb = lab[t, w]
            c0 = named[w, lb]
            if c0 < 0 or not is_unseen[c0]:
                continue
            o, s, d, r, use_o, use_d, dup, base_o, pow_o, base_d, pow_d = _label_keys_compiled(
                lb, place[lb], w, readmask, drawer_of, rank_of, kept, V, nd, offsets, powers)
            bad = False
            total = 0.0
            if metropolis:  # a card proposed alike among the candidates, then accepted
                nc = 1
                for c in range(52):
                    nc += avail[w, c]
                pick = int(u[t, w] * nc)
                new = c0
                for c in range(52):
                    if avail[w, c] or c == c0:
                        if pick == 0:
                            new = c
                            break
                        pick -= 1
                if new == c0:
                    continue
                l_old = _label_like_compiled(keep_table, V, kept, w, o, s, use_o, use_d, dup,
                                             d, base_o, pow_o, base_d, pow_d, c0, hit_w, floor,
                                             show_flat)
                l_new = _label_like_compiled(keep_table, V, kept, w, o, s, use_o, use_d, dup,
                                             d, base_o, pow_o, base_d, pow_d, new, hit_w,
                                             floor, show_flat)
                if l_old < 0.0 or l_new < 0.0:
                    if n_miss < miss_x.shape[0]:
                        c = c0 if l_old < 0.0 else new
                        x = o if (l_old if l_old < 0.0 else l_new) == -1.0 else d
                        miss_x[n_miss] = x
                        for q in range(3):
                            miss_c[n_miss, q] = kept[w, x, q]
                        for q in range(nd[x]):
                            v = V[w, x, 3 + q]
                            if q == r and (x == d):
                                v = c
                            miss_c[n_miss, 3 + q] = v
                        n_miss += 1
                    continue
                if not u2[t, w] * l_old < l_new:
                    continue
                moved += 1
                named[w, lb] = new
                avail[w, c0] = True
                avail[w, new] = False
                if use_o:
                    V[w, o, s] = new
                    if dup:
                        V[w, o, 3 + r] = new
                if use_d:
                    V[w, d, 3 + r] = new
                continue
            for c in range(52):
                mass[c] = 0.0
                if not (avail[w, c] or c == c0):
                    continue
                # (_label_like's product written out here: calling it made a Gibbs
                # batch about a third dearer, stop 69; the same answers either way)
                like = 1.0
                if use_o:
                    t0 = V[w, o, 0]
                    t1 = V[w, o, 1]
                    t2 = V[w, o, 2]
                    if s == 0:
                        t0 = c
                    elif s == 1:
                        t1 = c
                    else:
                        t2 = c
                    like *= _keep_one_compiled(keep_table, kept[w, o, 0], kept[w, o, 1],
                                               kept[w, o, 2], max(t0, 0), max(t1, 0),
                                               max(t2, 0), hit_w, floor)
                    sv = show_flat[base_o + (c >> 2) * pow_o]
                    if np.isnan(sv):
                        bad = True
                        if n_miss < miss_x.shape[0]:
                            miss_x[n_miss] = o
                            for x in range(3):
                                miss_c[n_miss, x] = kept[w, o, x]
                            for x in range(nd[o]):
                                v = V[w, o, 3 + x]
                                if dup and x == r:
                                    v = c
                                miss_c[n_miss, 3 + x] = v
                            n_miss += 1
                        break
                    like *= sv
                if use_d:
                    sv = show_flat[base_d + (c >> 2) * pow_d]
                    if np.isnan(sv):
                        bad = True
                        if n_miss < miss_x.shape[0]:
                            miss_x[n_miss] = d
                            for x in range(3):
                                miss_c[n_miss, x] = kept[w, d, x]
                            for x in range(nd[d]):
                                v = V[w, d, 3 + x]
                                if x == r:
                                    v = c
                                miss_c[n_miss, 3 + x] = v
                            n_miss += 1
                        break
                    like *= sv
                mass[c] = like
                total += like
            if bad or total <= 0.0:
                continue
            x = u[t, w] * total
            run = 0.0
            new = c0
            for c in range(52):
                if mass[c] > 0.0:
                    run += mass[c]
                    new = c
                    if run > x:
                        break
            if new == c0:
                continue
            moved += 1
            named[w, lb] = new
            avail[w, c0] = True
            avail[w, new] = False
            if use_o:
                V[w, o, s] = new
                if dup:
                    V[w, o, 3 + r] = new
            if use_d:
                V[w, d, 3 + r] = new
    return n_miss, moved


_label_steps_compiled: Any = _label_steps_kernel  # (numba's once compiled: _compile_all)


def label_steps(lab: Ints, u: Floats, named: Ints, order: Ints, avail: Bools,
                is_unseen: Bools, vals: Ints, readmask: Bools, kept: Ints, nd: Ints,
                drawer_of: Ints, rank_of: Ints, keep_table: Any, tremble: float,
                show_flat: Floats, offsets: Ints, powers: Ints, miss_x: Ints,
                miss_c: Ints, u2: Floats | None = None) -> tuple[int, int]:
    """:func:`rollem.odds.ryoseen._label_gibbs`'s Gibbs steps on the partial
    worlds, ``lab.shape[0]`` of them in one compiled pass (issue 33, branch
    s69-label): per step ``t`` and world ``w`` the label ``lab[t, w]`` (of the
    ``3 m``), where a read named it with an unseen card (``named`` ``(k, L)``,
    ``is_unseen`` ``(52,)``), named anew among that card and the cards still
    unnamed (``avail`` ``(k, 52)``) in proportion to the chances of the read
    opponents (``readmask`` ``(m,)``) that read it: its owner's keep chance
    (the fast policy's, ``keep_table`` by cards, ``tremble``) and exposes'
    chance, and its drawer's exposes' chance (``show_flat[offsets[j] +
    sum((cards >> 2) * powers[j])]``), the candidate picked by ``u[t, w]``
    ``(steps, k)``. ``vals`` ``(k, m, 3 + d)`` holds each read opponent's
    discards and draws (``nd`` ``(m,)`` draws each; ``drawer_of``,
    ``rank_of`` ``(n,)`` per place of ``order`` ``(k, n)`` its drawer and the
    draw's rank, -1 where none); ``kept`` ``(k, m, 3)``. A world one of whose
    exposes' keys is not tabled stays as it is that step (exact: whether it
    is depends only on what the step conditions on) and its key is written
    to ``miss_x``, ``miss_c`` for the caller to fill. ``named``, ``avail``
    and ``vals`` change in place. Returns the count of keys missed and of
    worlds moved. The numpy step's law, other random numbers.

    With ``u2`` ``(steps, k)`` given, Metropolis steps instead: the card
    proposed alike among the same candidates by ``u[t, w]`` (the candidates
    are the same set after the move: a symmetric proposal) and accepted
    where ``u2[t, w]`` times the current card's chance is under the new
    one's; two chances a move for the ~30 (the same target)."""
    got = _label_steps_compiled(lab, u, named, order, avail, is_unseen, vals, readmask, kept,
                                nd, drawer_of, rank_of, keep_table, 1.0 - float(tremble),
                                float(tremble) / 20.0, show_flat, offsets, powers, miss_x,
                                miss_c, np.zeros((0, 0)) if u2 is None else u2)
    return int(got[0]), int(got[1])


def _label_keep_fixed(keep_table: Any, V: Any, kept: Any, w: int, o: int, s: int, lb: int,
                      krow: Any, ks0: Any, kflag: Any) -> None:  # pragma: no cover - compiled
    # _keep_one's part that does not read the label's card (slot s of the owner's
    # discards), for _label_like_live: the keep's score ks0[lb]; kflag[lb] -1
    # where one of the 9 other triples without that card scores higher (then
    # every candidate's chance is the floor), else 1 + how many tie it; and
    # krow[lb] the 10 rows (x * 2704 + y * 52) of the triples with the card
    # (the score reads three cards in any order: _keep_table_by_cards)
    k0 = kept[w, o, 0]
    k1 = kept[w, o, 1]
    k2 = kept[w, o, 2]
    e0 = max(V[w, o, 1 if s == 0 else 0], 0)
    e1 = max(V[w, o, 1 if s == 2 else 2], 0)
    s0 = keep_table[k0 * 2704 + k1 * 52 + k2]
    ks0[lb] = s0
    f0 = keep_table[k0 * 2704 + k1 * 52 + e0]
    f1 = keep_table[k0 * 2704 + k1 * 52 + e1]
    f2 = keep_table[k0 * 2704 + k2 * 52 + e0]
    f3 = keep_table[k0 * 2704 + k2 * 52 + e1]
    f4 = keep_table[k1 * 2704 + k2 * 52 + e0]
    f5 = keep_table[k1 * 2704 + k2 * 52 + e1]
    f6 = keep_table[k0 * 2704 + e0 * 52 + e1]
    f7 = keep_table[k1 * 2704 + e0 * 52 + e1]
    f8 = keep_table[k2 * 2704 + e0 * 52 + e1]
    if (f0 > s0 or f1 > s0 or f2 > s0 or f3 > s0 or f4 > s0 or f5 > s0 or f6 > s0
            or f7 > s0 or f8 > s0):
        kflag[lb] = -1
    else:
        kflag[lb] = (1 + (f0 == s0) + (f1 == s0) + (f2 == s0) + (f3 == s0) + (f4 == s0)
                     + (f5 == s0) + (f6 == s0) + (f7 == s0) + (f8 == s0))
    krow[lb, 0] = k0 * 2704 + k1 * 52
    krow[lb, 1] = k0 * 2704 + k2 * 52
    krow[lb, 2] = k1 * 2704 + k2 * 52
    krow[lb, 3] = k0 * 2704 + e0 * 52
    krow[lb, 4] = k0 * 2704 + e1 * 52
    krow[lb, 5] = k1 * 2704 + e0 * 52
    krow[lb, 6] = k1 * 2704 + e1 * 52
    krow[lb, 7] = k2 * 2704 + e0 * 52
    krow[lb, 8] = k2 * 2704 + e1 * 52
    krow[lb, 9] = e0 * 2704 + e1 * 52


_label_keep_fixed_compiled: Any = _label_keep_fixed  # (numba's once compiled: _compile_all)


def _label_like_live(keep_table: Any, lb: int, krow: Any, ks0: Any, kflag: Any, use_o: bool,
                     use_d: bool, base_o: int, pow_o: int, base_d: int, pow_d: int, c: int,
                     hit_w: float, floor: float, show_flat: Any,
                     cut: float) -> Any:  # pragma: no cover - compiled
    # _label_like's chance of card c, bit for bit, its owner's keep chance from
    # _label_keep_fixed's part (10 reads in 10 rows of the table, not 20
    # scattered ones); -1.0, -2.0 as there. With cut >= 0 (the exposes'
    # chances all at most 1: the product only falls), -4.0 as soon as the
    # product so far is at most cut, the exposes' reads left (branch s71-cheap)
    like = 1.0
    if use_o:
        f = kflag[lb]
        if f < 0:
            keep = 0.0 + floor
        else:
            s0 = ks0[lb]
            g0 = keep_table[krow[lb, 0] + c]
            g1 = keep_table[krow[lb, 1] + c]
            g2 = keep_table[krow[lb, 2] + c]
            g3 = keep_table[krow[lb, 3] + c]
            g4 = keep_table[krow[lb, 4] + c]
            g5 = keep_table[krow[lb, 5] + c]
            g6 = keep_table[krow[lb, 6] + c]
            g7 = keep_table[krow[lb, 7] + c]
            g8 = keep_table[krow[lb, 8] + c]
            g9 = keep_table[krow[lb, 9] + c]
            if (g0 > s0 or g1 > s0 or g2 > s0 or g3 > s0 or g4 > s0 or g5 > s0 or g6 > s0
                    or g7 > s0 or g8 > s0 or g9 > s0):
                keep = 0.0 + floor
            else:
                ties = (f + (g0 == s0) + (g1 == s0) + (g2 == s0) + (g3 == s0) + (g4 == s0)
                        + (g5 == s0) + (g6 == s0) + (g7 == s0) + (g8 == s0) + (g9 == s0))
                keep = hit_w * 1.0 / ties + floor
        like *= keep
        if like <= cut:
            return -4.0
        sv = show_flat[base_o + (c >> 2) * pow_o]
        if np.isnan(sv):
            return -1.0
        like *= sv
    if use_d:
        if like <= cut:
            return -4.0
        sv = show_flat[base_d + (c >> 2) * pow_d]
        if np.isnan(sv):
            return -2.0
        like *= sv
    return like


_label_like_live_compiled: Any = _label_like_live  # (numba's once compiled: _compile_all)


def _label_live_kernel(named: Any, order: Any, avail: Any, is_unseen: Any, V: Any,
                       readmask: Any, kept: Any, nd: Any, draw_at: Any, drawer_of: Any,
                       rank_of: Any, keep_table: Any, hit_w: float, floor: float,
                       show_flat: Any, offsets: Any, powers: Any, miss_x: Any, miss_c: Any,
                       tries: Any, start: Any, u: Any, metropolis: bool,
                       bounded: bool, hold: Any) -> Any:  # pragma: no cover - compiled
    # _label_steps_kernel on the live labels only (branch s70-step): per world
    # its live labels (named by a read with an unseen card; a move keeps that
    # set) listed once, its unnamed cards kept sorted, the labels' places read
    # at the draws' places only; then tries[w] steps, each on a label drawn
    # alike among the live ones by u[start[w] + 2 i] (its fraction the
    # proposal's or the Gibbs draw's uniform), u[start[w] + 2 i + 1] the
    # Metropolis acceptance. The candidates (the unnamed cards and the label's
    # card) go in card order, so a step makes _label_steps_kernel's move for
    # that label and uniforms.
    k = named.shape[0]
    L = named.shape[1]
    n_miss = 0
    moved = 0
    mass = np.zeros(53)
    cand = np.zeros(53, dtype=np.int64)
    live = np.empty(L, dtype=np.int64)
    place = np.empty(L, dtype=np.int64)
    free = np.empty(52, dtype=np.int64)  # the unnamed cards, ascending
    cur = np.empty(L)  # a live label's chance as named now (-3.0: not known)
    who = np.empty((L, 3), dtype=np.int64)  # its read owner, drawer (-1 none); 1 if dup
    krow = np.empty((L, 10), dtype=np.int64)  # its owner's keep, but for its card
    ks0 = np.empty(L, dtype=np.int64)
    kflag = np.empty(L, dtype=np.int64)
    known = np.zeros(L, dtype=np.bool_)  # (krow, ks0, kflag known)
    keys = np.empty((L, 4), dtype=np.int64)  # its _label_keys' bases and powers
    keyed = np.zeros(L, dtype=np.bool_)  # (keys known: branch s71-cheap)
    held = hold.shape[0] > 0  # labels held as named (branch s71-draw: a look-ahead's)
    for w in range(k):
        if tries[w] == 0:
            continue
        n_live = 0
        for q in range(L):
            place[q] = -1
            cur[q] = -3.0
            known[q] = False
            keyed[q] = False
            c = named[w, q]
            live[n_live] = q  # (kept where live: no branch to mispredict; s71-cheap)
            n_live += c >= 0 and is_unseen[max(c, 0)] and not (held and hold[w, q])
        if n_live == 0:
            continue
        for i in range(draw_at.shape[0]):  # (a label elsewhere has no drawer)
            p = draw_at[i]
            v = order[w, p] - 52
            if 0 <= v < L and place[v] < 0:
                place[v] = p
        for i in range(n_live):
            q = live[i]
            o = q // 3
            who[q, 0] = o if readmask[o] else -1
            who[q, 1] = -1
            who[q, 2] = 0
            if place[q] >= 0:
                d = drawer_of[place[q]]
                if d >= 0 and d != o and readmask[d]:
                    who[q, 1] = d
                who[q, 2] = 1 if d == o else 0
        na = 0
        for c in range(52):  # (no branch: each card written, kept where unnamed)
            free[na] = c
            na += avail[w, c]
        for t in range(tries[w]):
            x = u[start[w] + 2 * t] * n_live
            i = int(x)
            if i >= n_live:
                i = n_live - 1
            ut = x - i  # (the rest of the uniform: the candidate's)
            lb = live[i]
            c0 = named[w, lb]
            # the label's owner o, slot s, drawer d and the draw's rank r there
            # (_label_keys' own, from the place alone), and its keys: kept
            # until a move changes the draws they read (branch s71-cheap)
            o = lb // 3
            s = lb % 3
            d = -1
            r = -1
            if place[lb] >= 0:
                d = drawer_of[place[lb]]
                r = rank_of[place[lb]]
            use_o = who[lb, 0] >= 0
            use_d = who[lb, 1] >= 0
            dup = who[lb, 2] == 1
            if keyed[lb]:
                base_o = keys[lb, 0]
                pow_o = keys[lb, 1]
                base_d = keys[lb, 2]
                pow_d = keys[lb, 3]
            else:
                o, s, d, r, use_o, use_d, dup, base_o, pow_o, base_d, pow_d = (
                    _label_keys_compiled(lb, place[lb], w, readmask, drawer_of, rank_of, kept,
                                         V, nd, offsets, powers))
                keys[lb, 0] = base_o
                keys[lb, 1] = pow_o
                keys[lb, 2] = base_d
                keys[lb, 3] = pow_d
                keyed[lb] = True
            if use_o and not known[lb]:
                _label_keep_fixed_compiled(keep_table, V, kept, w, o, s, lb, krow, ks0, kflag)
                known[lb] = True
            new = c0
            if metropolis:
                # the candidate at pick among the unnamed cards and c0 in card
                # order (c0's place at = how many unnamed cards lie below it):
                # free[pick] where that is below c0 (pick < at), free[pick - 1]
                # where that is above it (pick > at), else c0 itself (no move)
                pick = int(ut * (na + 1))
                if pick > na:
                    pick = na
                if pick < na and free[pick] < c0:
                    new = free[pick]
                elif pick > 0 and free[pick - 1] > c0:
                    new = free[pick - 1]
                else:
                    continue
                l_old = cur[lb]
                if l_old == -3.0:  # (known while no move touched the opponents it reads)
                    l_old = _label_like_live_compiled(keep_table, lb, krow, ks0, kflag, use_o,
                                                      use_d, base_o, pow_o, base_d, pow_d, c0,
                                                      hit_w, floor, show_flat, -1.0)
                    cur[lb] = l_old
                if l_old < 0.0:
                    l_new = 0.0
                else:  # (cut: at most u l_old is refused whatever the exposes read)
                    cut = u[start[w] + 2 * t + 1] * l_old if bounded else -1.0
                    l_new = _label_like_live_compiled(keep_table, lb, krow, ks0, kflag, use_o,
                                                      use_d, base_o, pow_o, base_d, pow_d, new,
                                                      hit_w, floor, show_flat, cut)
                    if l_new == -4.0:
                        continue
                if l_old < 0.0 or l_new < 0.0:
                    if n_miss < miss_x.shape[0]:
                        c = c0 if l_old < 0.0 else new
                        x = o if (l_old if l_old < 0.0 else l_new) == -1.0 else d
                        miss_x[n_miss] = x
                        for q in range(3):
                            miss_c[n_miss, q] = kept[w, x, q]
                        for q in range(nd[x]):
                            v = V[w, x, 3 + q]
                            if q == r and (x == d):
                                v = c
                            miss_c[n_miss, 3 + q] = v
                        n_miss += 1
                    continue
                if not u[start[w] + 2 * t + 1] * l_old < l_new:
                    continue
            else:  # Gibbs: every candidate's chance, in card order
                at = 0  # c0's place among the candidates in card order
                while at < na and free[at] < c0:
                    at += 1
                total = 0.0
                bad = False
                for j in range(na + 1):
                    c = c0 if j == at else (free[j] if j < at else free[j - 1])
                    cand[j] = c
                    like = _label_like_live_compiled(keep_table, lb, krow, ks0, kflag, use_o,
                                                     use_d, base_o, pow_o, base_d, pow_d, c,
                                                     hit_w, floor, show_flat, -1.0)
                    if like < 0.0:
                        bad = True
                        if n_miss < miss_x.shape[0]:
                            x = o if like == -1.0 else d
                            miss_x[n_miss] = x
                            for q in range(3):
                                miss_c[n_miss, q] = kept[w, x, q]
                            for q in range(nd[x]):
                                v = V[w, x, 3 + q]
                                if q == r and (dup or x == d):
                                    v = c
                                miss_c[n_miss, 3 + q] = v
                            n_miss += 1
                        break
                    mass[j] = like
                    total += like
                if bad or total <= 0.0:
                    continue
                y = ut * total
                run = 0.0
                for j in range(na + 1):
                    if mass[j] > 0.0:
                        run += mass[j]
                        new = cand[j]
                        if run > y:
                            break
                if new == c0:
                    continue
            moved += 1
            named[w, lb] = new
            avail[w, c0] = True
            avail[w, new] = False
            # the chances that read what moved: the owner's discards (a keep
            # chance), the drawer's draws, the owner's too where it drew the label
            # (an exposes' chance); _label_keep_fixed's part reads the discards only
            od = who[lb, 0]
            e1 = who[lb, 1]
            e2 = od if who[lb, 2] == 1 else -1
            for i in range(n_live):
                q = live[i]
                qo = who[q, 0]
                qd = who[q, 1]
                stale = False
                if qo >= 0:
                    stale = qo == od
                    stale |= qo == e1
                    stale |= qo == e2
                if qd >= 0:
                    stale |= qd == e1
                    stale |= qd == e2
                if stale:
                    cur[q] = -3.0
                    # (the keys read the owner's and drawer's draws only:
                    # stale where those are e1's or e2's)
                    moved_draws = False
                    if qo >= 0:
                        moved_draws = qo == e1
                        moved_draws |= qo == e2
                    if qd >= 0:
                        moved_draws |= qd == e1
                        moved_draws |= qd == e2
                    if moved_draws:
                        keyed[q] = False
                if qo >= 0 and qo == od and q != lb:
                    known[q] = False
            if metropolis:
                cur[lb] = l_new
            # the sorted unnamed cards: new out, c0 in
            j = 0
            while free[j] != new:
                j += 1
            while j + 1 < na and free[j + 1] < c0:
                free[j] = free[j + 1]
                j += 1
            while j > 0 and free[j - 1] > c0:
                free[j] = free[j - 1]
                j -= 1
            free[j] = c0
            if use_o:
                V[w, o, s] = new
                if dup:
                    V[w, o, 3 + r] = new
            if use_d:
                V[w, d, 3 + r] = new
    return n_miss, moved


_label_live_compiled: Any = _label_live_kernel  # (numba's once compiled: _compile_all)


def _label_tries_kernel(named: Any, is_unseen: Any, steps: int, labels: int, tries: Any,
                       start: Any, hold: Any) -> Any:  # pragma: no cover - compiled
    # per world its live labels' count n (named with an unseen card, not held),
    # tries[w] = ceil(steps n / labels), start[w] = 2 (tries[0] + ... +
    # tries[w - 1]); returns the sum of tries
    held = hold.shape[0] > 0
    at = 0
    for w in range(named.shape[0]):
        n = 0
        for q in range(named.shape[1]):
            c = named[w, q]
            n += c >= 0 and is_unseen[max(c, 0)] and not (held and hold[w, q])
        t = (steps * n + labels - 1) // labels
        tries[w] = t
        start[w] = 2 * at
        at += t
    return at


_label_tries_compiled: Any = _label_tries_kernel  # (numba's once compiled: _compile_all)


def label_tries(named: Ints, is_unseen: Bools, steps: int, labels: int,
                hold: Bools | None = None) -> tuple[Ints, Ints, int]:
    """The live label steps' counts (issue 33, branch s71-cheap): per world
    ``w`` of ``named`` ``(k, L)`` its live labels ``n`` (named with a card
    ``is_unseen`` ``(52,)`` marks), ``tries[w] = ceil(steps n / labels)``,
    ``start[w]`` twice the sum of the tries before it (``(k,)`` ``int64``
    each), and the sum of all tries: numpy's
    ``(steps * live.sum(1) + labels - 1) // labels`` and its cumulative sum in
    one pass. ``hold`` ``(k, L)``: labels held (not live; branch s71-draw),
    ``None`` none."""
    k = named.shape[0]
    tries = np.empty(k, dtype=np.int64)
    start = np.empty(k, dtype=np.int64)
    held = (np.zeros((0, 0), dtype=np.bool_) if hold is None
            else np.ascontiguousarray(hold, dtype=np.bool_))
    total = _label_tries_compiled(named, is_unseen, int(steps), int(labels), tries, start, held)
    return tries, start, int(total)


def label_steps_live(named: Ints, order: Ints, avail: Bools, is_unseen: Bools, vals: Ints,
                     readmask: Bools, kept: Ints, nd: Ints, draw_at: Ints, drawer_of: Ints,
                     rank_of: Ints, keep_table: Any, tremble: float, show_flat: Floats,
                     offsets: Ints, powers: Ints, miss_x: Ints, miss_c: Ints, tries: Ints,
                     start: Ints, u: Floats, metropolis: bool,
                     bounded: bool = False, hold: Bools | None = None) -> tuple[int, int]:
    """:func:`label_steps` on the live labels only (issue 33, branch
    s70-step): per world ``w`` its labels a read named with an unseen card
    (the live ones; a step never changes which are) listed once, and
    ``tries[w]`` steps made, each on a label drawn alike among them by
    ``u[start[w] + 2 i]`` (``u`` ``(2 sum(tries),)``; the uniform's fraction
    past the label picks the candidate) and, with ``metropolis``, accepted by
    ``u[start[w] + 2 i + 1]``. Each step is :func:`label_steps`' move for that
    label and those uniforms (the candidates in card order: the unnamed cards
    kept sorted a world, not searched over the 52 a step); the draws' places
    ``draw_at`` ``(draws,)`` are the only places a label's drawer is read at.
    The other arguments, the keys not tabled and the return as
    :func:`label_steps`. A random scan over the live labels keeps the target,
    as the scan over all ``3 m`` (whose dead picks leave the world as it
    was) does: the set scanned does not move. ``hold`` ``(k, L)``: labels
    left as named though live (branch s71-draw: those whose card a read's
    look-ahead weighs, ``ryoseen.LOOK_AHEAD``; a set fixed by the world's
    places and the opponents read, so the scan keeps the target still, and
    the held cards' factor too); ``None``: none held."""
    held = (np.zeros((0, 0), dtype=np.bool_) if hold is None
            else np.ascontiguousarray(hold, dtype=np.bool_))
    got = _label_live_compiled(named, order, avail, is_unseen, vals, readmask, kept, nd, draw_at,
                               drawer_of, rank_of, keep_table, 1.0 - float(tremble),
                               float(tremble) / 20.0, show_flat, offsets, powers, miss_x,
                               miss_c, tries, start, u, bool(metropolis), bool(bounded), held)
    return int(got[0]), int(got[1])


def _row_cards_kernel(avail: Any, out: Any) -> int:  # pragma: no cover - compiled
    # each row's available cards in card order, written as int8 into ``out``
    # (N, 52); returns their count a row, -1 where the rows' counts differ
    n = avail.shape[0]
    size = -1
    for r in range(n):
        a = 0
        for c in range(52):  # (each card written, the count advanced where available)
            out[r, a] = c
            a += avail[r, c]
        if r == 0:
            size = a
        elif a != size:
            return -1
    return size


_row_cards_compiled: Any = _row_cards_kernel  # (numba's once compiled: _compile_all)


def row_cards(avail: Bools) -> npt.NDArray[np.int8] | None:
    """Each row's available cards in card order (issue 33, branch s72-speed:
    ``look521._pick``'s ``np.nonzero(avail)[1].reshape(N, size)`` as int8 in
    one pass, with its check that every row has as many): ``avail`` ``(N,
    52)`` bool, ``N`` at least 1; returns ``(N, size)`` int8, ``None`` where
    the rows' counts differ."""
    out = np.empty((len(avail), 52), dtype=np.int8)
    size = _row_cards_compiled(np.ascontiguousarray(avail, dtype=np.bool_), out)
    return None if size < 0 else np.ascontiguousarray(out[:, :size])


def _held_kernel(order: Any, named: Any, places: Any, hold: Any) -> None:  # pragma: no cover
    # per world: each label drawn at one of ``places`` (those of the opponents
    # not read yet) held where it is named; the rest of ``hold`` False
    k, labels = named.shape
    for w in range(k):
        for q in range(labels):
            hold[w, q] = False
        for p in places:
            lab = order[w, p] - 52
            if lab >= 0:
                hold[w, lab] = named[w, lab] >= 0


_held_compiled: Any = _held_kernel  # (numba's once compiled: _compile_all)


def held_labels(order: Ints, named: Ints, places: Ints) -> Bools:
    """The labels a read's look-ahead holds (issue 33, branch s72-speed; the
    numpy form is ``ryoseen._held``'s): per world of ``order`` ``(k, n)`` (a
    place's item, labels from 52) and ``named`` ``(k, L)`` (-1 not named),
    ``(k, L)`` True where the label is drawn at one of ``places`` (the draws'
    places of the opponents not read yet, ``int64``) and named."""
    hold = np.empty(named.shape, dtype=np.bool_)
    _held_compiled(np.ascontiguousarray(order, dtype=np.int64),
                   np.ascontiguousarray(named, dtype=np.int64),
                   np.ascontiguousarray(places, dtype=np.int64), hold)
    return hold


def _ahead_of_kernel(j: int, order: Any, named: Any, origin: Any, draws: Any, nd: Any,
                     done: Any, base: Any, drawer: Any, stride: Any,
                     key: Any) -> bool:  # pragma: no cover - compiled
    # per world: which opponent not read yet drew each of opponent j's discards its
    # read names, that draw's stride in the drawer's keys, and each such
    # drawer's key now (its draws' ranks, 13 where not named)
    k = order.shape[0]
    m_all = nd.shape[0]
    any_on = False
    for w in range(k):
        for x in range(3):
            drawer[w, x] = -1
            stride[w, x] = 0
        for m in range(m_all):
            key[w, m] = -1
        for m in range(m_all):
            if done[m] or m == j:
                continue
            d = nd[m]
            hit = False
            for t in range(d):
                lab = order[w, draws[m, t]] - 52
                x = lab - 3 * j
                if 0 <= x < 3 and named[w, lab] < 0:
                    drawer[w, x] = m
                    s = 1
                    for _ in range(d - 1 - t):
                        s *= 14
                    stride[w, x] = s
                    hit = True
            if hit:
                any_on = True
                kk = base[m, origin[w, m]]
                for t in range(d):
                    it = order[w, draws[m, t]]
                    c = it if it < 52 else named[w, it - 52]
                    r = (c >> 2) if c >= 0 else 13
                    s = 1
                    for _ in range(d - 1 - t):
                        s *= 14
                    kk += r * s
                key[w, m] = kk
    return any_on


_ahead_of_compiled: Any = _ahead_of_kernel  # (numba's once compiled: _compile_all)


def ahead_of(j: int, order: Ints, named: Ints, origin: Ints, draws: Ints, nd: Ints,
             done: Bools, base: Ints, m: int) -> tuple[Ints, Ints, Ints] | None:
    """``ryoseen._ahead_of`` in one compiled pass (issue 33, branch s71-draw):
    per world ``(k, 3)`` the drawer (an opponent not ``done`` and not ``j``)
    of each of opponent ``j``'s discards not named yet (-1: none) and that
    draw's stride ``14 ** (d - 1 - t)`` in the drawer's keys, and per world
    and drawer ``(k, m)`` its key now (``base[m, origin]`` plus each draw's
    rank times its stride, 13 where not named; -1 for others); ``None`` where
    no discard is drawn so. ``draws`` ``(m, 2)``: each opponent's draws'
    places (``nd`` of them)."""
    k = len(order)
    drawer = np.empty((k, 3), dtype=np.int64)
    stride = np.empty((k, 3), dtype=np.int64)
    key = np.empty((k, m), dtype=np.int64)
    if not _ahead_of_compiled(int(j), np.ascontiguousarray(order, dtype=np.int64),
                              np.ascontiguousarray(named, dtype=np.int64),
                              np.ascontiguousarray(origin, dtype=np.int64), draws, nd, done,
                              base, drawer, stride, key):
        return None
    return drawer, stride, key


def _ahead_gain_kernel(drawer: Any, stride: Any, key: Any, logs: Any, val: Any, put: bool,
                       out: Any) -> None:  # pragma: no cover - compiled
    # per world and candidate, the log factors gained, drawer by drawer (in the
    # order of its first discard), summed into out; with put, candidate 0's
    # gains taken from ``out``'s drawer columns instead (out is ``later``)
    k = drawer.shape[0]
    reps = val.shape[1]
    for w in range(k):
        for c in range(reps):
            tot = 0.0
            for x in range(3):
                m = drawer[w, x]
                if m < 0:
                    continue
                first = True
                for y in range(x):
                    if drawer[w, y] == m:
                        first = False
                if not first:
                    continue
                now = key[w, m]
                kk = now
                for y in range(x, 3):
                    if drawer[w, y] == m:
                        kk += ((val[w, c, y] >> 2) - 13) * stride[w, y]
                g = logs[kk] - logs[now]
                if put:
                    out[w, m] -= g
                else:
                    tot += g
            if not put:
                out[w, c] = tot


_ahead_gain_compiled: Any = _ahead_gain_kernel  # (numba's once compiled: _compile_all)


def ahead_gain(drawer: Ints, stride: Ints, key: Ints, logs: Floats, val: Any, put: bool,
               out: Floats) -> None:
    """``ryoseen._ahead_logs`` (``put`` False: each candidate's log factor
    gained into ``out`` ``(k, reps)``, the drawers' gains summed in the order of
    their first discards) or ``ryoseen._put_off`` (``put``: candidate 0's gain
    of each drawer ``m`` taken from ``out[:, m]``, ``later``) in one compiled
    pass (issue 33, branch s71-draw); ``val`` ``(k, reps, >= 3)``, the
    candidates' discards first."""
    _ahead_gain_compiled(drawer, stride, key, logs, val, bool(put), out)
