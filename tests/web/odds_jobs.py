"""Calls for the practice-odds workers in tests (issue 34): module-level, so a
worker process imports them by name (tests/web is on its path).

``*_odds`` take :func:`rollem.server.game_session.seat_odds`'s arguments and
stand in for it (``monkeypatch.setattr(live_table, "seat_odds", ...)``): a
request that never ends by itself (:func:`spin_odds` uses the CPU,
:func:`sleep_odds` does not), or one that always fails (:func:`failing_odds`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

COSTLY_WILD = """\
# The costly game file of issue 34: 26 cards a player in deals of 10 + 10 + 6,
# nines and fives wild, a wild showdown, two players.  Legal, and cheap to deal;
# each practice-odds world scores two 26-card wild hands (about 0.2-0.4 s), so
# the 1,000 worlds of one request took one to three minutes of CPU.
format = 1
id = "costly-wild"
name = "Costly Wild"
players = [2, 2]
rules = \"\"\"
Each player gets 26 cards in three deals (10, 10, 6) with a betting round after
each; nines and fives are wild; the best five-card hand wins.
\"\"\"

[[steps]]
step = "wild"
ranks = ["9", "5"]

[[steps]]
step = "ante"

[[steps]]
step = "deal"
cards = 10

[[steps]]
step = "bet"
size = "small"
cap = 3
opener = "left-of-button"

[[steps]]
step = "deal"
cards = 10

[[steps]]
step = "bet"
size = "small"
cap = 3
opener = "left-of-button"

[[steps]]
step = "deal"
cards = 6

[[steps]]
step = "bet"
size = "big"
cap = 3
opener = "left-of-button"

[[steps]]
step = "showdown"
wild = true
"""
"""The pathological game file of issue 34 (items 1 and 2)."""


def declare_copy() -> str:
    """5-2-1 Roll 'Em as a game file of its own (a declare showdown: no plain odds)."""
    from rollem import games

    text = (Path(games.__file__).parent / "files" / "rollem521.toml").read_text()
    return text.replace('id = "rollem521"', 'id = "my-521"', 1)


def spin(pid_file: str) -> None:
    """Write this process's id to ``pid_file``, then use the CPU for ever."""
    Path(pid_file).write_text(str(os.getpid()))
    n = 0
    while True:
        n += 1


def write_pid_then_sleep(pid_file: str) -> None:
    """Write this process's id to ``pid_file``, then wait for ever (no CPU)."""
    Path(pid_file).write_text(str(os.getpid()))
    time.sleep(3600)


def spin_odds(view: Any, samples: int = 0, game: Any = None, *_: Any) -> dict[str, Any]:
    """A practice-odds request that uses the CPU and never ends."""
    while True:
        pass


def sleep_odds(view: Any, samples: int = 0, game: Any = None, *_: Any) -> dict[str, Any]:
    """A practice-odds request that waits (an hour) without using the CPU."""
    time.sleep(3600)
    return {}


def holdem_spins_odds(view: Any, samples: int = 1000, game: Any = None,
                      *rest: Any) -> dict[str, Any]:
    """Hold'em odds use the CPU for ever (an attacker's costly game); any other game's
    are the real ones (in the CPU time the table gives them)."""
    if view.game == "holdem":
        spin_odds(view)
    from rollem.server.game_session import seat_odds

    return seat_odds(view, samples, game, *rest)


def failing_odds(view: Any, samples: int = 0, game: Any = None, *_: Any) -> dict[str, Any]:
    """A practice-odds request that always fails as the odds fail (``OddsError``)."""
    from rollem.odds import OddsError

    raise OddsError("no odds here (a test's stand-in)")


def crashing_odds(view: Any, samples: int = 0, game: Any = None, *_: Any) -> dict[str, Any]:
    """A practice-odds request that fails as a fault would: an exception whose text
    is the server's (a path, a library's words), not meant for a player."""
    raise RuntimeError("/srv/rollem/odds.py: An attempt has been made to start a new process")


def add(a: int, b: int) -> int:
    return a + b


def pid() -> int:
    return os.getpid()
