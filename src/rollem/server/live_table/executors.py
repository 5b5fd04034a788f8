"""The threads and worker processes every live table shares, off the event
loop: computer players' decisions, practice odds, costly showdowns.  Each
queues per table (:class:`~rollem.server.fair_executor.FairExecutor`), so a
busy table never holds up another's queue.

:mod:`rollem.server.live_table` re-exports them, and the parts look them up
there at call time (``live_table._BOT_THREAD``, ...): tests replace them
there.  No rule of its own.
"""

from __future__ import annotations

from rollem.server.budget_workers import BudgetWorkers
from rollem.server.fair_executor import FairExecutor
from rollem.server.game_session import ODDS_PRELOAD

_BOT_THREAD = FairExecutor(workers=1, thread_name_prefix="rollem-bots")
"""Computer players decide here, off the event loop, one call at a time per
table (``submit_for(table id, ...)``), the tables sharing the thread by fair
queuing: a table whose bots ask for many decisions at once does not hold up
another's, which waits only for the decision being made.  One worker: the
bots' Python holds the GIL, so a second thread adds no CPU, only contention
(measured slower, bench/bench_web_bots.py)."""

_ODDS_THREAD = FairExecutor(workers=2, thread_name_prefix="rollem-odds")
"""Practice odds are queued here, off the event loop (and apart from the bots),
one at a time per table, the tables sharing the workers as the bots' thread;
each of its two threads waits for its request in a worker process of
:data:`_ODDS_WORKERS` (issue 34)."""

_ODDS_WORKERS = BudgetWorkers(preload=ODDS_PRELOAD)
"""The processes that compute practice odds, each request under
:attr:`LiveTable.ODDS_BUDGET` of CPU time (killed past it, or when its asker
leaves or the hand moves on), at a lower CPU priority than the event loop,
apart from its GIL (:mod:`rollem.server.budget_workers`).  At most two busy at
once (one per thread of :data:`_ODDS_THREAD`)."""

_SHOWDOWN_THREAD = FairExecutor(workers=1, thread_name_prefix="rollem-showdowns")
"""The actions of a hand whose showdown is costly (``GameSession.off_loop``) are
applied here, off the event loop, one at a time per table, the tables sharing
the thread by fair queuing (issue 34): a table waits for its own showdown,
never for another's queue."""

_PASSWORD_THREAD = FairExecutor(workers=1, thread_name_prefix="rollem-passwords")
"""A table password the host sets is hashed here (scrypt, some 50 ms of CPU; it
lets go of the GIL), off the event loop, one at a time per table, the tables
sharing the thread by fair queuing (s59-safe: hashed on the event loop, one
address hosting 20 tables and setting each one's password every 2 s, as the
host's settings bucket allows, held every table's loop for seconds)."""
