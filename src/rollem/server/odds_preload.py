"""Imported once by the fork server of the practice-odds workers (issue 34,
:data:`rollem.server.game_session.ODDS_PRELOAD`), never by the server itself:
loads the odds and builds the tables their first use builds
(:func:`rollem.server.game_session.warm_odds`), so that every worker forked
from it -- a new one after each one killed at its budget -- answers at full
speed from its first request.

It also has the Roll Your Own samplers' compiled loops ready
(:func:`rollem.odds.compiled.wait`: compiled, or loaded from numba's disk
cache), so a worker forked from it has them from its start. Left to each
worker, the first Roll Your Own odds started the compile in a background
thread of the worker, whose CPU (about 1 s with numba's import and the cache,
9 s without a cache) counts against the worker's budget: a late 6-player view
went over the budget in every new worker (``too_costly``), the killed worker's
compile never finished and the next worker started it again
(docs/dev/test-suite-time.md, stop 58)."""

from __future__ import annotations

from rollem.odds import compiled
from rollem.server.game_session import warm_odds

warm_odds()
compiled.wait(600)
