"""Per-action cost of saving a table's session when its chat is full (stop 58).

A seated player may fill the chat: 100 lines of 200 emoji.  The session is
written at every action; this times, per action, the event loop's part (the
statements built, the JSON encoded, the write queued: ``WriteStream.write``)
and the whole save (until the commit is done), on a SQLite file, for the
``rollem`` found first on ``PYTHONPATH`` (run it once for main's sources and
once for a branch's, alternating).  Also the load of the table (``load_table``).

    PYTHONPATH=src python bench/bench_chat_save.py --actions 300 --label branch
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rollem.server.store import Store


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=300, help="actions timed (default 300)")
    ap.add_argument("--label", default="", help="printed with the figures")
    args = ap.parse_args()
    chat = [{"id": i, "seat": i % 6, "name": f"P{i % 6}", "text": "\U0001F600" * 200,
             "t": 1_765_000_000.0 + i} for i in range(1, 101)]
    session = {"seq": 0, "at": 0.0, "hand_no": 1, "button": 2, "in_hand": True,
               "departed": [{"name": f"D{i}", "stack": 100, "brought": 100} for i in range(8)],
               "config_overrides": {"small_bet": 2, "big_bet": 4}, "chat": chat}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "b.db")
        store.create_table("T", {"game": "sdr"}, session, "h")
        store.stream("T").write(new_hand=(1, {"button": 2}))
        stream = store.stream("T")
        loop_ms, save_ms = [], []
        for i in range(args.actions):
            session["seq"] = i + 1
            session["at"] = time.time()
            t0 = time.perf_counter()
            fut = stream.write(session=session,
                               action=(1, i, i % 6, {"kind": "check"}, "player", {"n": i}))
            t1 = time.perf_counter()
            assert fut is not None
            fut.result(30)
            t2 = time.perf_counter()
            loop_ms.append((t1 - t0) * 1000)
            save_ms.append((t2 - t0) * 1000)
        load_ms = []
        for _ in range(50):
            t0 = time.perf_counter()
            row = store.load_table("T")
            load_ms.append((time.perf_counter() - t0) * 1000)
            assert row is not None and row.session["chat"] == chat
        store.close()

    def q(xs: list[float]) -> str:
        xs = sorted(xs)
        return (f"median {statistics.median(xs):.3f} ms (p10 {xs[len(xs) // 10]:.3f}, "
                f"p90 {xs[len(xs) * 9 // 10]:.3f}, n={len(xs)})")

    print(f"{args.label} event loop per action: {q(loop_ms)}")
    print(f"{args.label} whole save per action: {q(save_ms)}")
    print(f"{args.label} load_table: {q(load_ms)}")


if __name__ == "__main__":
    main()
