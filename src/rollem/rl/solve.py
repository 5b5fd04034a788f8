"""Solving a small game exactly with OpenSpiel's CFR+ (issue 30; needs ``rollem[rl]``).

OpenSpiel's solvers walk the whole game tree on every iteration. A
``python_rollem`` state costs the engine a replay (about 1 ms, more on a
loaded machine), and OpenSpiel's ``cached_tree`` wrapper keeps every state
it met (about 22 KB each), so neither walks a tree of 10⁵ nodes or more
in reasonable time and memory. Here the tree is walked **once**: every node
(chance outcomes with their probabilities, each seat's information state,
the legal action ids, the returns) is written down as a Gambit extensive
form (EFG) that OpenSpiel loads as a C++ game (``pyspiel.load_efg_game``),
the same tree move for move; then OpenSpiel's C++ CFR+ (``CFRPlusSolver``)
and best responses (``nash_conv``) run on it at C++ speed.

Policies given to :func:`export` (such as :class:`rollem.rl.policy.BotPolicy`
for ``basic`` and ``strong``) are asked once at each information state during
the walk, so their exploitability comes out of the same tree
(:meth:`Export.policy`).

>>> import pyspiel
>>> kuhn = pyspiel.load_game("kuhn_poker")
>>> tree = export(kuhn)
>>> tree.counts
{'chance': 4, 'decision': 24, 'terminal': 30}
>>> curve, average = solve(tree.game(), iterations=200, every=100)
>>> [it for it, _ in curve], curve[-1][1] < 0.01
([100, 200], True)
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pyspiel

__all__ = ["MAX_STATES", "Export", "count_states", "export", "solve"]


def _name(text: str) -> str:
    """A string as an EFG name (quotes and backslashes escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class Export:
    """A game tree written as EFG text (:func:`export`).

    Attributes:
        efg: the Gambit EFG text of the whole tree.
        counts: chance, decision and terminal nodes.
        infosets: per seat, the number of information states.
        actions: per information state (its EFG string), the game's legal
            action ids there (the EFG's action names).
        tables: per policy given to :func:`export`, each information state's
            ``[(game action id, probability)]``.
        keys: per information state (its EFG string), the game's own
            information state string.
        seconds: wall time of the walk.
    """

    efg: str
    counts: dict[str, int]
    infosets: list[int]
    actions: dict[str, list[int]] = field(default_factory=dict)
    tables: dict[str, dict[str, list[tuple[int, float]]]] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def game(self) -> pyspiel.Game:
        """The tree as an OpenSpiel game (C++ ``efg_game``)."""
        return pyspiel.load_efg_game(self.efg)

    @staticmethod
    def _ids(efg: pyspiel.Game) -> dict[int, int]:
        """The game's action id -> the EFG game's (which numbers action names)."""
        state = efg.new_initial_state()
        while state.is_chance_node():  # at a decision, the ids name decision actions
            state.apply_action(state.chance_outcomes()[0][0])
        seat = state.current_player()
        return {int(state.action_to_string(seat, i)): i for i in range(efg.num_distinct_actions())}

    def policy(self, name: str, efg: pyspiel.Game) -> pyspiel.TabularPolicy:
        """The policy ``name`` given to :func:`export`, as a C++ tabular policy
        of ``efg`` (:meth:`game`; for ``pyspiel.nash_conv`` / ``exploitability``)."""
        ids = self._ids(efg)
        return pyspiel.TabularPolicy({key: [(ids[a], p) for a, p in probs]
                                      for key, probs in self.tables[name].items()})

    def decode(self, policy: Any, efg: pyspiel.Game) -> dict[str, dict[int, float]]:
        """A policy of ``efg`` as ``{the game's information state string:
        {action id: probability}}`` (actions of probability 0 left out)."""
        ids = self._ids(efg)
        out: dict[str, dict[int, float]] = {}
        for key, legal in self.actions.items():
            probs = policy.get_state_policy(key)
            back = {ids[a]: a for a in legal}
            out[self.keys[key]] = {back[i]: float(p) for i, p in probs if p > 0}
        return out


MAX_STATES = 10_000_000
""":func:`export`'s default ``max_states``: a tree this size is hours of
Python and gigabytes of records (the 9-card SDR with no raises and 3-chip
stacks is 541,333 states)."""


def export(game: pyspiel.Game, policies: Mapping[str, Any] | None = None,
           workers: int = 1, *, max_states: int | None = MAX_STATES) -> Export:
    """Walk ``game``'s whole tree once and write it as EFG (see the module doc).

    Args:
        game: a two-player zero-sum OpenSpiel game with explicit chance
            (``python_rollem``, or any such game).
        policies: OpenSpiel policies by name (``action_probabilities(state)``),
            asked once at each information state (the first time the walk
            meets it, in the walk's order).
        workers: processes walking the subtrees of the first chance node's
            outcomes (forked; 1: this process). The text is the same.
        max_states: refuse a tree whose size, as :func:`count_states`
            estimates it (quickly: one outcome of each chance node walked),
            is above this (``None``: no limit). Without it a real game
            (``{"game": "sdr"}``, about 4 * 10**19 states) walked until the
            memory ran out.

    Raises:
        ValueError: a game that is not two-player, a tree above
            ``max_states``, or a policy giving probability to an action that
            is not legal.
    """
    if game.num_players() != 2:
        raise ValueError(f"export needs a two-player game, got {game.num_players()} players")
    if max_states is not None:
        size = sum(count_states(game).values())
        if size > max_states:
            raise ValueError(f"the tree has about {size:,} states (count_states), above "
                             f"max_states {max_states:,}: reduce the game (deck, raise_cap, "
                             "stack, burns=False, chance='hand') or pass max_states=None")
    policies = dict(policies or {})
    start = time.perf_counter()
    root = game.new_initial_state()
    parts: list[_Part]
    head: list[str] = []
    if workers > 1 and root.is_chance_node():
        outcomes = root.chance_outcomes()
        head = [" ".join(f'"{a}" {p!r}' for a, p in outcomes)]
        size = -(-len(outcomes) // workers)
        chunks = [[a for a, _ in outcomes[i:i + size]] for i in range(0, len(outcomes), size)]
        # the forked workers inherit the game and the policies (a Python
        # OpenSpiel game does not survive pickling)
        _FORKED[:] = [game, policies]
        try:
            with multiprocessing.get_context("fork").Pool(len(chunks)) as pool:
                parts = pool.map(_walk_forked, chunks)
        finally:
            _FORKED.clear()
    else:
        parts = [_walk_part(game, policies, None)]
    out = _merge(game, head, parts)
    out.seconds = time.perf_counter() - start
    return out


@dataclass
class _Part:
    """A walk of some subtrees: records ``("c", text)``, ``("t", text)`` and
    ``("p", seat, local key number, legal)``, and each local key's seat,
    information state string, legal ids and policy answers."""

    records: list[tuple[Any, ...]] = field(default_factory=list)
    keys: list[tuple[int, str, list[int], dict[str, list[tuple[int, float]]]]] = field(
        default_factory=list)


_FORKED: list[Any] = []
"""The game and policies of the :func:`export` under way, for its forked workers."""


def _walk_forked(chunk: list[int]) -> _Part:
    return _walk_part(_FORKED[0], _FORKED[1], chunk)


def _walk_part(game: pyspiel.Game, policies: Mapping[str, Any],
               chunk: list[int] | None) -> _Part:
    """Walk the whole tree (``chunk`` None) or the root's outcomes in ``chunk``."""
    part = _Part()
    records = part.records
    local: dict[tuple[int, str], int] = {}

    def walk(state: Any) -> Iterator[Any]:
        if state.is_terminal():
            records.append(("t", " ".join(repr(float(r)) for r in state.returns())))
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            records.append(("c", " ".join(f'"{a}" {p!r}' for a, p in outcomes)))
            actions = [a for a, _ in outcomes]
        else:
            seat = state.current_player()
            key = state.information_state_string(seat)
            actions = state.legal_actions()
            number = local.get((seat, key))
            if number is None:
                number = local[(seat, key)] = len(part.keys)
                answers: dict[str, list[tuple[int, float]]] = {}
                for name, pol in policies.items():
                    probs = pol.action_probabilities(state)
                    bad = [a for a, p in probs.items() if p > 0 and a not in actions]
                    if bad:
                        raise ValueError(f"policy {name} gives probability to actions {bad}, "
                                         f"not legal here; allowed: {actions}")
                    answers[name] = [(a, float(probs.get(a, 0.0))) for a in actions]
                part.keys.append((seat, key, actions, answers))
            records.append(("p", seat, number, actions))
        for a in actions[:-1]:
            yield state.child(a)
        # the last child is the state itself, moved on (saves a copy and a replay)
        state.apply_action(actions[-1])
        yield state

    root = game.new_initial_state()
    if chunk is None:
        stack: list[Iterator[Any]] = [walk(root)]
    else:
        # one child at a time, so only one subtree's states are alive
        stack = [(root.child(a) for a in chunk)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
        else:
            stack.append(walk(child))
    return part


def _merge(game: pyspiel.Game, head: list[str], parts: list[_Part]) -> Export:
    """One EFG from the parts, numbered as one walk would."""
    lines = [f'EFG 2 R {_name(str(game))} {{ "seat 0" "seat 1" }}', '""']
    counts = {"chance": 0, "decision": 0, "terminal": 0}
    out = Export("", counts, [0, 0])
    ids: list[dict[str, int]] = [{}, {}]
    tables: dict[str, dict[str, list[tuple[int, float]]]] = {}
    if head:
        counts["chance"] += 1
        lines.append(f'c "" 1 "" {{ {head[0]} }} 0')
    for part in parts:
        numbers: list[int] = []
        for seat, key, legal, answers in part.keys:
            number = ids[seat].get(key)
            if number is None:
                number = ids[seat][key] = len(ids[seat]) + 1
                efg_key = f"{seat}-{seat}-{number}-i"
                out.actions[efg_key] = legal
                out.keys[efg_key] = key
                for name, probs in answers.items():
                    tables.setdefault(name, {})[efg_key] = probs
            numbers.append(number)
        for rec in part.records:
            if rec[0] == "t":
                counts["terminal"] += 1
                lines.append(f't "" {counts["terminal"]} "" {{ {rec[1]} }}')
            elif rec[0] == "c":
                counts["chance"] += 1
                lines.append(f'c "" {counts["chance"]} "" {{ {rec[1]} }} 0')
            else:
                counts["decision"] += 1
                moves = " ".join(f'"{a}"' for a in rec[3])
                lines.append(f'p "" {rec[1] + 1} {numbers[rec[2]]} "i" {{ {moves} }} 0')
    out.efg = "\n".join(lines) + "\n"
    out.infosets = [len(ids[0]), len(ids[1])]
    out.tables = tables
    return out


def count_states(game: pyspiel.Game, *, same_shape: bool = True) -> dict[str, int]:
    """Chance, decision and terminal nodes of ``game``'s tree.

    With ``same_shape`` only the first outcome of each chance node is walked
    and its subtree counted once per outcome: exact when every outcome of a
    chance node leads to a subtree of the same size, as in a fixed-limit
    game whose betting never depends on the cards dealt (SDR, hold'em: the
    first to act is fixed; not stud, whose opener is the best up card).
    ``same_shape=False`` walks everything.
    """
    def count(state: Any) -> tuple[int, int, int]:
        if state.is_terminal():
            return (0, 0, 1)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            subs = ([count(state.child(outcomes[0][0]))] * len(outcomes) if same_shape
                    else [count(state.child(a)) for a, _ in outcomes])
            return (1 + sum(s[0] for s in subs), sum(s[1] for s in subs),
                    sum(s[2] for s in subs))
        subs = [count(state.child(a)) for a in state.legal_actions()]
        return (sum(s[0] for s in subs), 1 + sum(s[1] for s in subs), sum(s[2] for s in subs))

    c, d, t = count(game.new_initial_state())
    return {"chance": c, "decision": d, "terminal": t}


def solve(game: pyspiel.Game, iterations: int, every: int = 0,
          progress: Callable[[int, float, float], None] | None = None,
          ) -> tuple[list[tuple[int, float]], pyspiel.TabularPolicy]:
    """Run OpenSpiel's CFR+ (C++ ``CFRPlusSolver``) on ``game``.

    Returns ``[(iteration, NashConv of the average policy)]`` every ``every``
    iterations (and at the last), NashConv in the game's units (chips for
    ``python_rollem``), and the average policy. ``progress(iteration,
    nash_conv, seconds)`` is called at each measure.
    """
    solver = pyspiel.CFRPlusSolver(game)
    curve: list[tuple[int, float]] = []
    start = time.perf_counter()
    for it in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if it == iterations or (every and it % every == 0):
            nc = float(pyspiel.nash_conv(game, solver.average_policy()))
            curve.append((it, nc))
            if progress is not None:
                progress(it, nc, time.perf_counter() - start)
    return curve, solver.tabular_average_policy()
