"""Quarter batches of Roll Your Own at 6 players after the wild card with settings of
``ryoseen`` alternated pilot by pilot (issue 33, branch s69-partial; s68-six's screen):
per pilot one run of play's set-up, then ``batches`` quarter batches sharing its
proposals, every setting on the same pilots and batch seeds. Prints per setting the
batches' mean, spread (sd, points), CPU a batch and spread² × CPU.

    python bench/bench_ryo_partial.py 31081 1,2,...,12 10 '{}' '{"PARTIAL_LABELS": {"5": 16}}'
    python bench/bench_ryo_partial.py --compiled ...   # bench/ryo_partial_kernels.py's steps

The first setting pays a warm-up: list ``'{}'`` first and last to compare CPU."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_play_odds import _view
from rollem.odds import ryoseen
from rollem.odds.view import read_view


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--compiled":
        import ryo_partial_kernels

        ryo_partial_kernels.install()
        argv = argv[1:]
    hand, pilots, nb = int(argv[0]), [int(x) for x in argv[1].split(",")], int(argv[2])
    settings = [{k: ({int(a) if a.isdigit() else a: b for a, b in v.items()}
                     if isinstance(v, dict) else v) for k, v in json.loads(t).items()}
                for t in argv[3:]]
    seen = ryoseen.seen_of(read_view(_view("rollyourown", 6, hand, "at:after the wild card|")))
    defaults = {k: getattr(ryoseen, k) for k in dir(ryoseen) if k.isupper()}
    worlds = round(ryoseen.PLACE_WORLDS * 0.25)
    res: dict[int, tuple[list[float], list[float]]] = {i: ([], []) for i in range(len(settings))}
    for p in pilots:
        for i, st in enumerate(settings):
            for k, v in {**defaults, **st}.items():
                setattr(ryoseen, k, v)
            with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.25):
                ryoseen.ryo_seen_look(seen, samples=worlds, seed=p)
                for b in range(nb):
                    t = time.thread_time()
                    o = ryoseen.ryo_seen_look(seen, samples=worlds, seed=p * 1000 + b)
                    res[i][1].append(time.thread_time() - t)
                    res[i][0].append(o.equity)
    for k, v in defaults.items():
        setattr(ryoseen, k, v)
    for i, st in enumerate(settings):
        eq, cpu = np.array(res[i][0]), np.array(res[i][1])
        sd = eq.std(ddof=1)
        c = cpu.mean()
        print(f"{hand} {st!s:50s} n {len(eq)} mean {100 * eq.mean():.2f}±"
              f"{100 * sd / np.sqrt(len(eq)):.2f} spread {100 * sd:.2f} cpu {1000 * c:.1f}ms "
              f"s2cpu {1e4 * sd * sd * c:.2f} load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
