"""Sit-and-go tournaments of computer players (issue 28): ``rollem simulate
--tournament NAME``.

Each tournament is played at one table to one winner (or until
``hands_max`` hands, then left unfinished and counted so), with the chips
checked after every hand: the entrants' stacks and the chips carried to the
next hand add up to what they bought in with (R-C-4), and at the end every
finishing place is filled once (tied players share one).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rollem.bots import Bot, make_bot
from rollem.engine.options import Options
from rollem.hand_ends import tell_hand_end
from rollem.table import Table
from rollem.tournament.schedule import Schedule
from rollem.tournament.session import Tournament, bot_takes_addon

__all__ = ["TournamentRun", "run_tournaments"]


@dataclass
class TournamentRun:
    """What a series of tournaments gave: per entrant (by seat, each with its
    own bot level) the places and winnings, and how many hands each took."""

    game: str
    schedule: str
    bots: list[str]
    hands: list[int] = field(default_factory=list)
    unfinished: int = 0
    rebuys: int = 0  # rebuys taken, all tournaments
    addons: int = 0  # add-ons taken, all tournaments
    places: list[list[int]] = field(default_factory=list)  # per seat, each finish
    winnings: list[int] = field(default_factory=list)  # per seat, in buy-ins' units

    def to_dict(self) -> dict[str, Any]:
        n = len(self.hands)
        return {
            "game": self.game, "schedule": self.schedule, "tournaments": n + self.unfinished,
            "finished": n, "unfinished": self.unfinished, "rebuys": self.rebuys,
            "addons": self.addons,
            "hands_mean": round(sum(self.hands) / n, 1) if n else None,
            "hands_max": max(self.hands) if n else None,
            "seats": [{"seat": s, "bot": self.bots[s],
                       "wins": sum(1 for p in self.places[s] if p == 1),
                       "mean_place": round(sum(self.places[s]) / n, 2) if n else None,
                       "winnings": self.winnings[s]} for s in range(len(self.bots))],
        }  # fmt: skip


def run_tournaments(game: str, schedule: Schedule, bots: Sequence[str], *,
                    tournaments: int, hands_max: int, seed: int | None = None,
                    options: Options | None = None, buy_in: int = 10,
                    percentages: Sequence[int] | None = None, rebuy_levels: int = 0,
                    rotate: bool | str = False, addon_chips: int = 0,
                    addon_price: int | None = None) -> TournamentRun:
    """Play ``tournaments`` sit-and-gos of ``game`` (or dealers-choice) among
    ``bots`` (one level per seat) on ``schedule``, each with ``buy_in``,
    ``percentages``, ``rebuy_levels``, ``rotate``, ``addon_chips`` and
    ``addon_price`` (:class:`Tournament`'s).
    A busted bot always rebuys while rebuys are open (heads-up too: a bust
    that leaves one player with chips does not end it then); when the add-on
    window opens, each bot still in takes it by :func:`bot_takes_addon`; its
    winnings count every buy-in and add-on it paid.

    Raises:
        AssertionError: chips not conserved after a hand, or a finishing place
            not filled once (an engine fault: never expected).
        ValueError: fewer than 2 or more than 10 bots.
    """
    players = len(bots)
    run = TournamentRun(game=game, schedule=schedule.name, bots=list(bots),
                        places=[[] for _ in range(players)], winnings=[0] * players)
    master = random.Random(seed)
    for _ in range(tournaments):
        tournament = Tournament(schedule, players, buy_in=buy_in, percentages=percentages,
                                rebuy_levels=rebuy_levels, rotate=rotate,
                                addon_chips=addon_chips, addon_price=addon_price)
        table = Table([schedule.stack] * players, game=game, options=options,
                      rng=random.Random(master.getrandbits(64)), button=0,
                      tournament=tournament)
        seat_bots: list[Bot] = [make_bot(level, random.Random(master.getrandbits(64)))
                                for level in bots]
        total = schedule.stack * players
        while not tournament.over(table.stacks) and tournament.hands_played < hands_max:
            for seat in range(players):
                if table.stacks[seat] == 0 and tournament.rebuy_open:
                    total += table.rebuy_seat(seat)
                    run.rebuys += 1
            for seat in tournament.addon_waiting(table.stacks):  # (stop 60)
                if bot_takes_addon(table.stacks[seat], tournament.addon_chips):
                    total += table.addon_seat(seat)
                    run.addons += 1
                else:
                    tournament.decline_addon(seat, table.stacks)
            hand = table.new_hand()
            while not hand.is_over:
                p = hand.pending
                assert p is not None
                for seat in p.seats:
                    hand.apply(seat, seat_bots[seat].act(hand.view(seat)))
                    if hand.is_over or hand.pending is None or hand.pending is not p:
                        break
            tell_hand_end(hand, seat_bots)
            table.end_hand()
            assert table.chips == total, f"chips {table.chips} != {total}"
        if not tournament.over(table.stacks):
            run.unfinished += 1
            continue
        places = tournament.places(table.stacks)
        assert sorted(places) == list(range(players)), places
        counts: dict[int, int] = {}
        for place in places.values():
            counts[place] = counts.get(place, 0) + 1
        for place, count in counts.items():  # a shared place covers the ones below it
            assert all(p not in counts for p in range(place + 1, place + count)), places
        run.hands.append(tournament.hands_played)
        for seat, won in tournament.payouts(table.stacks).items():
            run.places[seat].append(places[seat])
            run.winnings[seat] += won - tournament.paid(seat)
    return run
