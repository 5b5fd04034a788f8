"""Roll Your Own after the discard: the truth of a view by tempering (issue 33, branch s66-temper).

A sequential Monte Carlo run whose opponents stray from the policy with a chance
``tremble`` that falls level by level from ``--start`` (1: every option alike, so
every world consistent with what the seat saw is as likely, the prior) to
:data:`rollem.odds.look521.TREMBLE` (the model's posterior). The sampler's own
sequential read draws ``--worlds`` worlds at ``--start`` (at 1 the policy reads
nothing: an exact draw of the prior); at each level the worlds are weighed by
the ratio of the policy's chances at the new tremble and the old (every keep
and expose), resampled (systematic), then take ``--moves`` Metropolis steps of
:func:`rollem.odds.ryoseen._move` at the new tremble (card and place steps in
turn; with ``--origin-every`` an origin step every that many, with
``--no-places`` no place steps), which leave that level's posterior
unchanged. Place and origin steps together are not to be trusted: at 4
players after the wild card, hand 31008, runs with both came out 50.2 and
50.4, with either alone 42.3 to 45.8, plain importance sampling 43.2 ± 0.3
(branch s66-temper); the default is place steps without origin steps (which
mix slowly: at hand 31006 four runs 72.7 to 92.2). The levels are even in
``log(1 + (1 - t) / (t u))`` (``u`` 0.1, :data:`U`), so each level's weights
are about as uneven.

With steps that each leave their level's posterior unchanged the answer is
consistent in the number of worlds however slowly they mix (the weights are
exact); a run's error is the spread of independent runs
(``--seeds``). Per run the JSON line gives the equity (percent), the CPU
seconds, the load, each level's effective share of worlds, and the log of the
evidence's ratio (posterior over prior; runs that mix well agree on it).

    PYTHONPATH=src .venv/bin/python bench/bench_ryo_temper.py --players 4 --hand 31006 \\
        --seeds 1-3 --worlds 8000 --levels 48 --moves 64 --out T.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rollem.odds import compiled, ryoseen
from rollem.odds.look521 import TREMBLE
from rollem.odds.view import read_view

U = 0.1
"""The share of a choice one other option is taken to have, for the levels' spacing."""


def levels(start: float, n: int, u: float = U) -> list[float]:
    """``n + 1`` trembles from ``start`` down to :data:`TREMBLE`, even in
    ``log(1 + (1 - t) / (t u))``.

    >>> [round(t, 3) for t in levels(1.0, 2)]
    [1.0, 0.094, 0.02]
    """
    def d(t: float) -> float:
        return float(np.log(1 + (1 - t) / (t * u)))
    out = [1.0 / (1.0 + u * (np.exp(x) - 1.0)) for x in np.linspace(d(start), d(TREMBLE), n + 1)]
    out[0], out[-1] = start, TREMBLE
    return [float(t) for t in out]


def tempered(trembles: list[float], moves: int, origin_every: int, places: bool,
             log: dict[str, Any]) -> Any:
    """A stand-in for :func:`ryoseen._move` (called once, after the last
    opponent is read, on equally weighted worlds drawn at ``trembles[0]``)
    that carries the worlds through the levels; returns the final worlds as
    :func:`ryoseen._move` does (equally weighted)."""
    plain = ryoseen._move

    def move(seen: ryoseen.SeenPool, kept: Any, cards: Any, order: Any, unseen: Any, policy: Any,
             tremble: float, gen: np.random.Generator, _moves: int, times: int = 1,
             **_: Any) -> list[tuple[Any, Any]]:
        assert tremble == trembles[0]
        k, m = kept.shape[:2]
        base = 3 * m

        def loglik(t: float, kept: Any, cards: Any, order: Any, steps: int = 0) -> Any:
            end: list[Any] = []
            plain(seen, kept, cards, order, unseen, policy, t, gen, steps, 1,
                  origins=origin_every, end=end, place_steps=places)
            return end[0]

        _, _, lk, ls = loglik(trembles[0], kept, cards, order)
        now = np.log(lk).sum(axis=1) + np.log(ls).sum(axis=1)
        log["ess"], log["logz"] = [], 0.0
        for t in trembles[1:]:
            _, _, lk, ls = loglik(t, kept, cards, order)
            step = np.log(lk).sum(axis=1) + np.log(ls).sum(axis=1) - now
            top = float(step.max())
            w = np.exp(step - top)
            log["logz"] += top + float(np.log(w.mean()))
            log["ess"].append(round(float(w.sum() ** 2 / (w ** 2).sum() / k), 3))
            pick = ryoseen._systematic(gen, w)
            kept, cards, order = kept[pick], cards[pick], order[pick]
            state, six, lk, ls = loglik(t, kept, cards, order, moves)
            kept = state[:, :base].reshape(k, m, 3)
            cards = state[:, base:].copy()
            order = cards.copy()  # who threw each pool card, as the place steps left it
            for j in range(m):
                for i in range(3):
                    order[np.arange(k), six[:, j, 3 + i] - base] = 52 + 3 * j + i
            now = np.log(lk).sum(axis=1) + np.log(ls).sum(axis=1)
        return [(kept.copy(), cards.copy())]

    return move


def main() -> None:
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_play_odds import _view

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--hand", type=int, default=31006)
    ap.add_argument("--at", default="at:after the wild card|")
    ap.add_argument("--seeds", default="1-3")
    ap.add_argument("--worlds", type=int, default=8000)
    ap.add_argument("--levels", type=int, default=48)
    ap.add_argument("--moves", type=int, default=64)
    ap.add_argument("--start", type=float, default=1.0)
    ap.add_argument("--origin-every", type=int, default=0)
    ap.add_argument("--no-places", action="store_true", help="card and origin steps only")
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    compiled.wait()
    ryoseen.PLACE_WILD = frozenset()  # (the first draw: main's read, in one batch)
    ryoseen.LATE_MOVES_FROM = ryoseen.MOVES_FROM = 1  # (the stand-in is reached at 3 players too)
    seen = ryoseen.seen_of(read_view(_view("rollyourown", a.players, a.hand, a.at)))
    assert seen is not None
    log: dict[str, Any] = {}
    ryoseen._move = tempered(levels(a.start, a.levels), a.moves, a.origin_every,
                             not a.no_places, log)
    first, _, last = a.seeds.partition("-")
    for s in range(int(first), int(last or first) + 1):
        began = time.process_time()
        o = ryoseen.ryo_seen_look(seen, samples=a.worlds, seed=7_000_000 + s, tremble=a.start,
                                  retry=False)
        line = json.dumps({"players": a.players, "hand": a.hand, "seed": s, "worlds": a.worlds,
                           "levels": a.levels, "moves": a.moves, "start": a.start,
                           "places": not a.no_places, "origin_every": a.origin_every,
                           "equity": None if o is None else 100 * o.equity,
                           "cpu": time.process_time() - began, "load": os.getloadavg()[0],
                           "ess": log.get("ess"), "logz": log.get("logz")})
        print(line, flush=True)
        if a.out != "-":
            with open(a.out, "a") as f:
                f.write(line + "\n")

if __name__ == "__main__":
    main()
