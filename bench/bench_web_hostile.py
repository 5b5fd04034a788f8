"""A hostile client at full size (issue 13): floods of every message type (300
each), 1 MB bodies and deep JSON, 1,000 table creations from one address and
200 simultaneous connections, from a separate process, while an honest player
at another table pings ten times a second.  Reports the honest player's ping
p99 (goal: under 50 ms), what each attack met, and whether chips balanced.

    .venv/bin/python bench/bench_web_hostile.py

The server is ``rollem serve`` with its default limits; attacker, player and
server share this machine's cores.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from test_hostile_client import run_hostile


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = run_hostile(Path(tmp), floods=300, bodies=5, tables=1000, connections=200)
    log = out.pop("log")
    out["tracebacks"] = log.count("Traceback")
    out["goal_p99_ms"] = 50
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
