"""Player statistics for a session (issue 27), counted from finished hands.

Computed from each hand's event log (``Hand.events``, the full log the
server stores and a hand history replays), so the same hands always give the
same figures, after a restart too.  Any game, shipped or from a file; the
first betting round plays the part of "preflop":

- ``hands``: hands dealt in;
- ``vpip``: hands in which the player put chips in voluntarily in the first
  betting round (a call, bet or raise; not an ante, blind or bring-in);
- ``pfr``: hands in which the player bet or raised in the first round;
- ``bets_raises`` and ``calls`` over every round: the aggression factor is
  ``bets_raises / calls``;
- ``showdowns``: hands the player took to a showdown (still in when hands
  were shown or mucked at the end), of ``saw_round_2`` hands in which the
  player had not folded in the first round (went to showdown, WTSD);
- ``won_at_showdown``: showdowns in which the player won a pot or a share
  of one (W$SD);
- our games' own decisions: 5-2-1's declarations (``declared``: side ->
  count, ``declared_won``: side -> hands in which it won a pot or a half), Roll Your
  Own's ``kept_pairs`` (the cards kept after the discard hold a pair) and
  ``wild_picks`` (rank -> times picked).

``kept_pairs`` is read from the hidden cards (what a player kept at a secret
discard): only its player may know it, so :meth:`SessionStats.to_dict` with
``public=True`` (what the web table gives everyone) leaves it out
(:data:`PRIVATE_FIGURES`).

Chips are whole numbers; every count is a whole number of hands or actions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rollem.cards import CARDS

__all__ = ["PRIVATE_FIGURES", "PlayerStats", "SessionStats", "hand_facts"]

PRIVATE_FIGURES = ("kept_pairs",)
"""Figures counted from cards nobody else saw (the cards a player kept at a secret
discard, even when shown at the end: a player who exchanged cards shows them
highest first, so which were kept stays hidden): never in a public count."""

_VOLUNTARY = ("call", "bet", "raise")


@dataclass
class PlayerStats:
    """One player's counts (in one game, or over every game)."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    bets_raises: int = 0
    calls: int = 0
    saw_round_2: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    net: int = 0
    declared: Counter[str] = field(default_factory=Counter)
    declared_won: Counter[str] = field(default_factory=Counter)
    kept_pairs: int = 0
    discards: int = 0
    wild_picks: Counter[str] = field(default_factory=Counter)

    def add(self, other: PlayerStats) -> None:
        for name in ("hands", "vpip", "pfr", "bets_raises", "calls", "saw_round_2",
                     "showdowns", "won_at_showdown", "net", "kept_pairs", "discards"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.declared.update(other.declared)
        self.declared_won.update(other.declared_won)
        self.wild_picks.update(other.wild_picks)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the counts, and the rates in percent (one decimal; ``None``
        with nothing to divide by)."""

        def pct(part: int, whole: int) -> float | None:
            return round(100 * part / whole, 1) if whole else None

        return {
            "hands": self.hands, "net": self.net,
            "vpip": pct(self.vpip, self.hands), "pfr": pct(self.pfr, self.hands),
            "aggression": round(self.bets_raises / self.calls, 2) if self.calls else None,
            "wtsd": pct(self.showdowns, self.saw_round_2),
            "wsd": pct(self.won_at_showdown, self.showdowns),
            "counts": {"vpip": self.vpip, "pfr": self.pfr, "bets_raises": self.bets_raises,
                       "calls": self.calls, "saw_round_2": self.saw_round_2,
                       "showdowns": self.showdowns, "won_at_showdown": self.won_at_showdown},
            "declared": dict(self.declared), "declared_won": dict(self.declared_won),
            "kept_pairs": self.kept_pairs, "discards": self.discards,
            "wild_picks": dict(self.wild_picks),
        }  # fmt: skip


def hand_facts(events: Sequence[Any], seats: Iterable[int]) -> dict[int, PlayerStats]:
    """Each seat's counts in one finished hand, from its full event log
    (:class:`rollem.engine.events.Event` list) and the seats dealt in."""
    facts = {s: PlayerStats(hands=1) for s in seats}
    rounds = 0
    folded_in_first: set[int] = set()
    folded: set[int] = set()
    showdown_seats: set[int] = set()
    winners: set[int] = set()
    declared: dict[int, str] = {}
    hole: dict[int, list[int]] = {}
    for e in events:
        seat, data = e.seat, e.data
        if e.kind == "round":
            rounds += 1
            continue
        if e.kind == "end":
            for s, net in data.get("net", {}).items():
                if int(s) in facts:
                    facts[int(s)].net = int(net)
            continue
        if seat is None or seat not in facts:
            continue
        f = facts[seat]
        if e.kind in _VOLUNTARY and not data.get("bring_in"):  # (a bring-in is forced)
            if rounds == 1:
                f.vpip = 1
                if e.kind != "call":
                    f.pfr = 1
            if e.kind == "call":
                f.calls += 1
            else:
                f.bets_raises += 1
        elif e.kind == "fold":
            folded.add(seat)
            if rounds <= 1:
                folded_in_first.add(seat)
        elif e.kind in ("show", "muck") and seat not in folded:
            showdown_seats.add(seat)
        elif e.kind == "declare":
            declared[seat] = str(data.get("side"))
        elif e.kind == "win" and not data.get("uncontested"):
            winners.add(seat)
        elif e.kind == "deal_hole" and "cards" in data:
            hole.setdefault(seat, []).extend(int(c) for c in data["cards"])
        elif e.kind == "chose" and str(data.get("action", "")).startswith("dis"):
            f.discards += 1
            thrown = {str(c) for c in str(data["action"]).split()[1:]}
            kept = [CARDS[c].rank for c in hole.get(seat, []) if str(CARDS[c]) not in thrown]
            if len(kept) != len(set(kept)):
                f.kept_pairs += 1
        elif e.kind == "wild" and "rank" in data:
            f.wild_picks[str(data["rank"])] += 1
    for s, f in facts.items():
        f.saw_round_2 = int(s not in folded_in_first and rounds >= 1)
        f.showdowns = int(s in showdown_seats)
        f.won_at_showdown = int(s in showdown_seats and s in winners)
        if s in declared:
            f.declared[declared[s]] += 1
            if s in winners:
                f.declared_won[declared[s]] += 1
    return facts


@dataclass
class SessionStats:
    """Counts per player name, over every game, per game and, in a tournament,
    per level (issue 28: the stakes rise by level, and play with them)."""

    players: dict[str, PlayerStats] = field(default_factory=dict)
    by_game: dict[str, dict[str, PlayerStats]] = field(default_factory=dict)
    by_level: dict[int, dict[str, PlayerStats]] = field(default_factory=dict)
    hands: int = 0

    def add_hand(self, game: str, events: Sequence[Any], names: dict[int, str],
                 level: int | None = None) -> None:
        """Count one finished hand of ``game`` (``names``: seat dealt in -> player;
        ``level``: a tournament hand's level, 1-based, else ``None``)."""
        self.hands += 1
        for seat, facts in hand_facts(events, names).items():
            name = names[seat]
            self.players.setdefault(name, PlayerStats()).add(facts)
            self.by_game.setdefault(game, {}).setdefault(name, PlayerStats()).add(facts)
            if level is not None:
                self.by_level.setdefault(level, {}).setdefault(name, PlayerStats()).add(facts)

    def to_dict(self, public: bool = False) -> dict[str, Any]:
        """JSON: ``hands``, ``players`` and ``games`` (name -> figures), and
        ``levels`` (level as text -> name -> figures; empty outside tournaments).
        ``public``: without the :data:`PRIVATE_FIGURES` (read from hidden cards),
        for anyone at a table to read."""

        def figures(stats: PlayerStats) -> dict[str, Any]:
            out = stats.to_dict()
            for name in PRIVATE_FIGURES if public else ():
                del out[name]
            return out

        return {"hands": self.hands,
                "players": {n: figures(s) for n, s in self.players.items()},
                "games": {g: {n: figures(s) for n, s in per.items()}
                          for g, per in self.by_game.items()},
                "levels": {str(lv): {n: figures(s) for n, s in per.items()}
                           for lv, per in sorted(self.by_level.items())}}
