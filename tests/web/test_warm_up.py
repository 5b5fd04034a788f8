"""``rollem serve`` warms up before serving (issue 13): what the first hands
would build on the event loop, stalling every table, is built before.

Run in a fresh interpreter: in the test process another test may have built
the same tables already.
"""

from __future__ import annotations

import subprocess
import sys

FIRST_USE = """
from rollem.hands import wild
from rollem.server.game_session import warm_up
warm_up()
print(wild.nonflush_table.cache_info().currsize, wild.flush_table.cache_info().currsize,
      sorted(k for k, v in wild._TABLES.items() if v))
"""


def test_warm_up_builds_the_wild_card_tables() -> None:
    """The first wild-card showdown built 6 + 6 tables (about 50 ms on the
    event loop, at every table's expense), and a table with wild duplicates
    6 more: all 6 non-flush and 12 flush tables exist after the warm-up."""
    done = subprocess.run([sys.executable, "-c", FIRST_USE], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.split("\n")[0] == "6 12 [False, True]"
