"""Simulated sessions of computer players (``rollem simulate``).

Rebuys count as chips brought to the table (CLI.md), so ``chips_start``
(all chips brought) equals ``chips_end`` (all chips at the table, carried
chips included) whatever happens (R-C-4).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rollem import games
from rollem.bots import Bot, make_bot
from rollem.engine.options import Options
from rollem.hand_ends import tell_hand_end
from rollem.parallel import child_seed, job_seed, run_parts, split_counts
from rollem.table import DEALERS_CHOICE, Table

__all__ = ["MAX_HANDS", "MIN_INTERVAL_HANDS", "SimulationResult", "run_simulation"]

MAX_HANDS = 1_000_000
"""The most hands one simulation plays (``rollem simulate --hands``): every
hand's net per seat is kept for the confidence interval (about 100 MB for ten
seats at the most), and a million hands of random bots take minutes."""

MIN_INTERVAL_HANDS = 30
"""The fewest hands the text output shows a seat's 95% confidence interval
from (the mean plus or minus 1.96 standard errors, a normal approximation a
handful of hands cannot carry: two hands that netted +4 each gave "+4.000 ..
+4.000"). The JSON's ``ci95`` is always ``[low, high]`` (CLI.md's shape), to be
read with ``hands``."""


@dataclass
class SimulationResult:
    """What a simulation measured; :meth:`to_dict` is CLI.md's JSON."""

    game: str
    hands: int
    chips_start: int
    chips_end: int
    actions: int
    seconds: float
    bots: list[str]
    per_hand: list[list[int]]  # per seat, net of each hand
    part_seconds: list[float] = field(default_factory=list)
    """Each worker part's own playing time in seconds, in part order (one entry
    with one worker; not in :meth:`to_dict`): with :attr:`seconds` (the wall
    time of the whole), how much the workers lost to start-up and joining."""
    part_cpu_seconds: list[float] = field(default_factory=list)
    """Each part's CPU time in seconds (its process's), in part order: hands per
    CPU second falling when parts run at once means the cores slow each other."""

    def to_dict(self) -> dict[str, Any]:
        """CLI.md ``simulate --json``: each seat's ``ci95`` is ``[low, high]`` chips a
        hand (a normal approximation: below :data:`MIN_INTERVAL_HANDS` hands it means
        little, and the text output says so instead)."""
        seats = []
        h = max(self.hands, 1)
        for s, nets in enumerate(self.per_hand):
            total = sum(nets)
            mean = total / h
            half = 0.0
            if len(nets) > 1:
                var = sum((x - mean) ** 2 for x in nets) / (len(nets) - 1)
                half = 1.96 * math.sqrt(var / len(nets))
            seats.append({"seat": s, "bot": self.bots[s], "net": total,
                          "net_per_hand": round(mean, 4),
                          "ci95": [round(mean - half, 4), round(mean + half, 4)]})
        return {
            "game": self.game,
            "hands": self.hands,
            "chips_start": self.chips_start,
            "chips_end": self.chips_end,
            "actions_per_hand": round(self.actions / h, 4),
            "hands_per_second": round(self.hands / self.seconds, 2) if self.seconds else 0.0,
            "seats": seats,
        }


def run_simulation(
    game: str,
    players: int,
    hands: int,
    bots: Sequence[str],
    *,
    seed: int | None = None,
    stack: int = 200,
    options: Options | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    bomb_pot_every: int = 0,
    bomb_pot_ante: int | None = None,
    cluster: str | None = None,
) -> SimulationResult:
    """Play ``hands`` hands of ``game`` (or ``"dealers-choice"``) among bots.

    Args:
        bots: one level per seat.
        options: the table's options; with a ``straddle_rule``, its
            ``straddlers`` are the seats that straddle whenever the rule lets
            them (issue 27, :meth:`rollem.table.Table.hand_options`).
        bomb_pot_every, bomb_pot_ante: a bomb pot every this many hands (0 =
            none) of this many chips (``None``: the game's default), issue 27.
        seed: seeds the shuffles and every bot (``None``: unpredictable).
        progress: called with the number of hands done, never decreasing:
            after each hand with one worker; with several, after each hand of
            the part this process plays, estimated from it (the parts play at
            about one pace; below ``hands`` until every part is done), and as
            each worker's part ends.
        workers: processes to split the hands over (CLI.md ``--workers``).
            Part ``k`` of ``W`` is its own session (fresh stacks, button 0) of
            about ``hands / W`` hands, seeded by
            :func:`rollem.parallel.child_seed`; the parts' results are joined
            in part order, so the same seed and ``workers`` give the same
            result. ``workers=1`` is one session seeded by ``seed`` itself.
        cluster: a Ray cluster's address (``"auto"``, ``"HOST:PORT"``): the
            ``workers`` parts run there as Ray tasks, with the same seeds and
            so the same result as here (:func:`rollem.parallel.run_parts`,
            issue 30).

    Raises:
        KeyError: unknown bot level. TableError: unknown game.
        rollem.parallel.ClusterError: ``cluster`` unusable.
        ValueError: ``workers`` < 1, ``hands`` not 1 to :data:`MAX_HANDS`.
    """
    if workers < 1:
        raise ValueError(f"workers {workers}: expected at least 1")
    if not 1 <= hands <= MAX_HANDS:
        raise ValueError(f"hands {hands}: expected 1 to {MAX_HANDS:,}")
    if workers == 1 and cluster is None:
        return _session(game, players, hands, bots, seed, stack, options, progress, "",
                        bomb_pot_every, bomb_pot_ante)
    base = job_seed(seed)
    counts = split_counts(hands, workers)
    # A game registered from a file in this process is unknown to a fresh worker
    # process (or, reusing a shipped id, would be the shipped game there): send its text.
    game_file = _own_game_file(game)
    args: list[tuple[Any, ...]] = [
        (game, players, n, list(bots),
         base if len(counts) == 1 else child_seed(base, k, len(counts)), stack, options, None,
         game_file, bomb_pot_every, bomb_pot_ante) for k, n in enumerate(counts)]
    done = shown = 0

    def report(n: int) -> None:
        nonlocal shown
        if progress is not None and n > shown:
            shown = n
            progress(n)

    def local(k: int) -> None:  # this process's part (the last) stands for all
        report(min(hands - 1, k * hands // counts[-1]))

    if progress is not None and cluster is None:
        args[-1] = (*args[-1][:7], local, *args[-1][8:])

    def on_done(k: int, part: SimulationResult) -> None:
        nonlocal done
        done += part.hands
        report(done)

    start = time.perf_counter()
    parts = run_parts(_session, args, on_done=on_done, cluster=cluster)
    seconds = time.perf_counter() - start
    return SimulationResult(
        game=game, hands=hands, chips_start=sum(p.chips_start for p in parts),
        chips_end=sum(p.chips_end for p in parts), actions=sum(p.actions for p in parts),
        seconds=seconds, bots=list(bots),
        per_hand=[[x for p in parts for x in p.per_hand[s]] for s in range(players)],
        part_seconds=[p.seconds for p in parts],
        part_cpu_seconds=[c for p in parts for c in p.part_cpu_seconds])


def _own_game_file(game: str) -> str:
    """The game file text of ``game`` when it is not a shipped game, else ``""``."""
    if game == DEALERS_CHOICE:
        return ""
    found = games.get(game)
    return "" if games.is_shipped(found) else found.source


def _session(
    game: str, players: int, hands: int, bots: Sequence[str], seed: int | None, stack: int,
    options: Options | None, progress: Callable[[int], None] | None, game_file: str = "",
    bomb_pot_every: int = 0, bomb_pot_ante: int | None = None,
) -> SimulationResult:
    """One session at one table (one worker's part); see :func:`run_simulation`.
    ``game_file``: the text of a user's game file to register first (workers)."""
    if game_file:
        from rollem.games.gamefile import load_game

        games.register(load_game(game_file))
    master = random.Random(seed)
    table = Table([stack] * players, game=game, options=options,
                  rng=random.Random(master.getrandbits(64)), rebuy=stack,
                  button=0, straddlers=options.straddlers if options is not None else (),
                  bomb_pot_every=bomb_pot_every, bomb_pot_ante=bomb_pot_ante)
    seat_bots: list[Bot] = [make_bot(level, random.Random(master.getrandbits(64)))
                            for level in bots]
    per_hand: list[list[int]] = [[] for _ in range(players)]
    actions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for i in range(hands):
        hand = table.new_hand()
        while not hand.is_over:
            p = hand.pending
            assert p is not None
            for seat in p.seats:
                hand.apply(seat, seat_bots[seat].act(hand.view(seat)))
                actions += 1
                if hand.is_over or hand.pending is None or hand.pending is not p:
                    break
        tell_hand_end(hand, seat_bots)
        table.end_hand()
        result = hand.result
        assert result is not None
        for s in range(players):
            per_hand[s].append(result.net.get(s, 0))
        if progress is not None:
            progress(i + 1)
    seconds = time.perf_counter() - start
    return SimulationResult(game=game, hands=hands, chips_start=sum(table.brought),
                            chips_end=table.chips, actions=actions, seconds=seconds,
                            bots=list(bots), per_hand=per_hand, part_seconds=[seconds],
                            part_cpu_seconds=[time.process_time() - cpu])
