"""When a table's timed replies leave (stop 56, stop 57): how long a computer
player's action waits after its decision opens at least, whether a think not
back by then is waited for, and the step a practice-odds answer is held to.

Each is there so that a reply's moment follows public things only: a strong
bot's think time, and how long the odds took, follow hidden cards
(docs/dev/hostile.md, stop 56); and the pause between the rounds of an all-in
run-out (s61-table2), there for the suspense.  The default :class:`Pacing` holds the
real values but for that pause (0: a table made outside a server deals a run-out at
once, as before); a server's comes from :class:`rollem.server.config.ServerSettings`
(:meth:`~rollem.server.config.ServerSettings.pacing`), given to each table by
the :class:`~rollem.server.manager.TableManager` (``table.pacing``).  A test
server lowers them (``tests/web/web_harness.py`` ``UNLIMITED``: its computer
players act as soon as they have thought, as before stop 56); the tests of the
timing itself run on the real values.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BOT_SHORTEST_WAIT", "ODDS_ANSWER_GRID", "RUNOUT_MOST", "RUNOUT_STEP", "Pacing"]

BOT_SHORTEST_WAIT = 0.25
"""Seconds: the least time from a computer player's decision opening to its
action, whatever the table's ``bot_delay`` (0 included: the think must have a
fixed time to end in, or its length shows).  About a strong bot's p90 think in
5-2-1 at 4 players on a loaded machine (235 ms at load 12 to 16; p50 32 ms):
at ``bot_delay`` 0 about one decision in eleven there plays the clock's action
(docs/dev/hostile.md, stop 56)."""

ODDS_ANSWER_GRID = 1.5
"""Seconds: a practice-odds answer leaves at a whole number of these after its
request (the first one after the odds are done; stop 56): how long the odds
took follows the asker's cards.  The worker's CPU budget
(:attr:`rollem.server.live_table.LiveTable.ODDS_BUDGET`), so on a machine not
overloaded every answer leaves this long after its request."""

RUNOUT_STEP = 1.0
"""Seconds between the rounds of an all-in run-out (s61-table2): when no
decision is left and cards are still to come, the call is shown, then each round
of face-up cards (the flop, the turn, the river; a stud street), then the result,
each this long after the one before (Poker Now deals the run-out street by street
too).  Every real server's (:class:`rollem.server.config.ServerSettings`
``runout_step``)."""

RUNOUT_MOST = 5.0
"""Seconds: the most a run-out takes from the last call to the result; with more
rounds than fit at :data:`RUNOUT_STEP` each, the pause is shortened to fit."""


@dataclass(frozen=True)
class Pacing:
    """A table's timing of computer players' actions and practice-odds answers.

    ``bot_shortest_wait``: seconds (>= 0) from a computer player's decision
    opening to its action at least; it acts at ``max(bot_delay,
    bot_shortest_wait)`` after the opening (:meth:`due_after`).
    ``bot_waits_for_think``: ``False`` (every real server): a think not back by
    then plays the clock's action (R-C-15), so no think shows; ``True``: it is
    waited for and played when back (its length shows: for test servers, whose
    computer players then act as soon as they have thought).
    ``odds_answer_grid``: seconds (>= 0); a practice-odds answer leaves at the
    first whole number of them after its request once the odds are done (0: as
    soon as they are done, its time showing)."""

    bot_shortest_wait: float = BOT_SHORTEST_WAIT
    bot_waits_for_think: bool = False
    odds_answer_grid: float = ODDS_ANSWER_GRID
    runout_step: float = 0.0
    """Seconds (>= 0) between the rounds of an all-in run-out (:meth:`runout_pause`);
    0: none, the cards and the result at once (a table made outside a server, as
    before s61-table2).  A server's is its settings' ``runout_step``
    (:data:`RUNOUT_STEP` on a real one)."""

    def runout_pause(self, rounds: int) -> float:
        """Seconds between the states of a run-out of ``rounds`` rounds of face-up
        cards (>= 1): :attr:`runout_step`, shortened so that the result comes at
        most :data:`RUNOUT_MOST` after the last call (``rounds + 1`` pauses)."""
        if rounds < 1:
            raise ValueError(f"a run-out has at least 1 round of cards, not {rounds}")
        return min(self.runout_step, RUNOUT_MOST / (rounds + 1))

    def due_after(self, bot_delay: float) -> float:
        """Seconds from a computer player's decision opening to its action: the
        table's ``bot_delay`` (seconds), at least :attr:`bot_shortest_wait`."""
        return max(bot_delay, self.bot_shortest_wait)
