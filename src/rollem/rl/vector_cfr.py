"""Public-tree vector CFR+ for heads-up hold-card games (issue 30; numpy only).

OpenSpiel's CFR walks one state per deal of the cards; a 16-card Stop, Drop
and Roll has 10¹¹ such states. Here the game is walked the way poker solvers
walk it: a node of the **public tree** is a betting line plus the public
cards (dead cards and board); each seat's range is a vector over the
``C(n, k)`` sets of hole cards it may hold (120 for two cards from 16), and
everything a node needs is done for every public card set at once (numpy
arrays of shape ``(public card sets, hole sets)``). Card removal is a mask
(a hole set that shares a card with the public cards, or with the other
seat's hole set, has no weight). Requirements, checked by
:class:`VectorGame`: two seats; every hole card dealt before the first
decision; the betting never depends on the cards (the same seats act in the
same order whatever was dealt: true of SDR and of any board game, R-SDR-2..5);
public chance = dead cards (R-SDR-3, R-SDR-4) and board cards; the showdown
is the best high hand of hole cards plus board (R-SDR-6, R-C-2).

**From the engine, not from a copy of the rules.** :func:`build_tree` walks
the betting of one deal of the cards with rollem's engine
(:class:`rollem.rl.state.MoveState`, the state OpenSpiel's ``python_rollem``
plays): who acts, the legal action ids (:mod:`rollem.rl.actions`), what each
fold wins (``HandOutcome.net``) and each showdown's stake (the smaller
commitment, as heads-up pots pay), and where the cards come. Since the
betting never depends on the cards, that one walk is the betting of every
deal. A showdown reached through chance nodes with no decision between
(somebody all in) becomes one terminal whose value is the expected showdown
over the cards still to come (:attr:`VectorGame.equity`).

**Chance.** The two hole sets are uniform over disjoint pairs, probability
``1 / (C(n, k) C(n - k, k))``; each public step deals ``s`` cards uniformly
from those nobody holds, probability ``1 / C(n - 2k - used, s)`` whatever
the hole sets are (when they do not collide). Both factors are constants of
the public node's depth (:attr:`VectorGame.weight`), so a node's
counterfactual value for hole set ``h`` is ``weight x sum over the
opponent's hole sets h' (disjoint from h and the public cards) of
reach(h') x payoff(h, h')``: a fold's payoff is the engine's net, a
showdown's ``stake x sign(strength(h) - strength(h'))``, the strengths by
:func:`rollem.hands.batch.high_values`. The showdown of one board is then a
matrix-vector product (the board's sign matrix, hole sets disjoint), for all
boards with the same community cards in one batched product.

**CFR+** (:class:`CFRPlus`): regret matching+, alternating updates (seat 0
then seat 1 each iteration), the average policy weighted by the iteration
number (linear averaging), as OpenSpiel's ``CFRPlusSolver``. The exact best
response (:meth:`VectorGame.best_response_value`) walks the same tree taking
the best action at each of the seat's information sets (betting line, public
cards, hole set): NashConv = the two best responses' values summed.

>>> game = VectorGame(load_setup("sdr", stack=3, ranks="23456789T", suits="s",
...                              caps="0", burns=False, chance="hand"))
>>> game.sizes()["public"], game.holes_count, game.decision_count
([1, 9, 72, 2520], 36, 16)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rollem.engine import Check
from rollem.engine.showdown import Showdown, hole_and_board
from rollem.hands.batch import high_values
from rollem.rl.actions import CALL, FOLD
from rollem.rl.state import CHANCE, TERMINAL, MoveState, Setup, cards_from_id, load_setup

__all__ = ["CFRPlus", "Node", "OpenSpielPolicy", "Policy", "VectorGame", "build_tree",
           "load_policy", "save_policy"]

Array = Any
"""A float64 (or float32) NumPy array; shapes are given where used (numpy's
arithmetic types as ``Any`` under mypy, so the alias says no more)."""
Policy = dict[int, Array]
"""A policy: per decision node (:attr:`Node.index`), an array of shape
``(public card sets of the node's depth, hole sets, actions)`` of
probabilities (the node's :attr:`Node.actions` order)."""


@dataclass
class Node:
    """A node of the public betting tree (the same for every deal of the cards).

    Attributes:
        kind: ``"decision"``, ``"chance"`` (the next public cards),
            ``"fold"`` or ``"showdown"``.
        level: public chance steps dealt before it (0 .. the game's steps).
        player: the seat to act (decisions).
        actions: the legal action ids there (:mod:`rollem.rl.actions`).
        children: one per action (decisions); one (chance: every outcome
            leads to the same betting).
        net: each seat's net chips (folds; the same whatever the cards).
        stake: chips the better hand wins from the other (showdowns; equal
            hands split: 0). A showdown at a level below the last is all in:
            the cards still to come are dealt with no decision.
        index: the decision's number (preorder), the key of a :data:`Policy`.
        history: the decision ids from the root (the betting line).
    """

    kind: str
    level: int
    player: int = -1
    actions: list[int] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    net: tuple[float, float] = (0.0, 0.0)
    stake: float = 0.0
    index: int = -1
    history: tuple[int, ...] = ()


def build_tree(setup: Setup, *, free_fold: bool = True) -> tuple[Node, list[tuple[str, int]],
                                                                   list[tuple[int, int]]]:
    """The public betting tree of ``setup`` from one deal (module doc).

    Args:
        setup: a two-seat setup (:func:`rollem.rl.state.load_setup`) with no
            burns (``burns=False``).
        free_fold: keep the fold a seat may make when checking is free
            (R-C-6). ``False`` drops it: checking is never worse (the seat
            can still fold at its next turn, or it loses at most what it put
            in at the showdown), so the game's value and the exploitability of
            any policy that never makes that fold are the same without it.

    Returns:
        ``(root, public steps, hole deals)``: the root decision, each public
        chance step as ``(kind, cards)`` (``"dead"`` or ``"board"``), each
        hole deal as ``(seat, cards)`` in the order dealt.

    Raises:
        ValueError: a game this solver cannot take (named in the message).
    """
    if setup.players != 2:
        raise ValueError(f"vector CFR needs two seats, got {setup.players}")
    state = MoveState(setup)
    deals: list[tuple[int, int]] = []
    while state.player == CHANCE:
        kind, seat, count = state.chance_event()
        if kind != "hole" or seat is None:
            break
        deals.append((seat, count))
        state.apply(_first(state))
    if sorted(s for s, _ in deals) != [0, 1] or deals[0][1] != deals[1][1]:
        raise ValueError(f"vector CFR needs one deal of the same number of hole cards to "
                         f"each seat before the first decision, got {deals}")
    steps: list[tuple[str, int]] = []
    counter = [0]
    root = _walk(state, 0, steps, (), free_fold, counter)
    return root, steps, deals


def _first(state: MoveState) -> int:
    need = state.need
    assert need is not None
    return need.outcomes[0]


def _walk(state: MoveState, level: int, steps: list[tuple[str, int]], history: tuple[int, ...],
          free_fold: bool, counter: list[int]) -> Node:
    seat = state.player
    if seat == TERMINAL:
        hand = state.hand
        result = hand.result
        assert result is not None
        net = state.returns()
        if not result.showdown:
            return Node("fold", level, net=(net[0], net[1]), history=history)
        stake = float(min(hand.committed))
        if net[0] != -net[1] or abs(net[0]) not in (0.0, stake):
            raise ValueError(f"showdown nets {net} are not plus or minus the stake {stake}: "
                             "vector CFR needs a zero-sum heads-up pot")
        return Node("showdown", level, stake=stake, history=history)
    if seat == CHANCE:
        kind, _, count = state.chance_event()
        if kind == "hole":
            raise ValueError("vector CFR needs every hole card dealt before the first decision "
                             "and the first public card")
        if kind not in ("dead", "board"):
            raise ValueError(f"vector CFR takes dead and board cards between decisions, "
                             f"not {kind!r} (load the game with burns=False)")
        if len(steps) == level:
            steps.append((kind, count))
        elif steps[level] != (kind, count):
            raise ValueError("the public cards differ between betting lines: "
                             f"{steps[level]} against {(kind, count)}")
        state.apply(_first(state))
        child = _walk(state, level + 1, steps, history, free_fold, counter)
        if child.kind == "showdown":  # all in: the rest is dealt out, no decision
            return Node("showdown", level, stake=child.stake, history=history)
        return Node("chance", level, children=[child], history=history)
    legal = state.legal()
    actions = list(legal)
    if not free_fold and FOLD in legal and isinstance(legal.get(CALL), Check):
        actions.remove(FOLD)
    node = Node("decision", level, player=seat, actions=actions, index=counter[0],
                history=history)
    counter[0] += 1
    for i, a in enumerate(actions):
        moved = state if i == len(actions) - 1 else state.copy()
        moved.apply(a)
        node.children.append(_walk(moved, level, steps, (*history, a), free_fold, counter))
    return node


def _nodes(root: Node) -> list[Node]:
    out: list[Node] = []
    todo = [root]
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(reversed(node.children))
    return out


class VectorGame:
    """A heads-up game prepared for vector CFR (module doc).

    Args:
        setup: from :func:`rollem.rl.state.load_setup` (two seats, no burns,
            any ``chance`` mode; a reduced deck keeps it small).
        free_fold: see :func:`build_tree`.
        dtype: of the walk's arrays (ranges, values, masks); ``float32``
            halves the memory traffic of a big game.

    Attributes:
        root: the public betting tree (:class:`Node`).
        steps: the public chance steps, ``(kind, cards)``.
        cards: the deck's card numbers; local card *i* is ``cards[i]``.
        holes: the hole sets (tuples of local cards, increasing), the index
            of every range vector.
        public: per level, the public card sets (one tuple of local cards per
            step, each increasing), children of a set contiguous.
        valid: per level, ``(public sets, hole sets)``: 1 where the hole set
            misses the public cards.
        weight: per level, the chance probability of one pair of hole sets
            and one public card set (module doc).
        decisions: the decision nodes by :attr:`Node.index`.

    Raises:
        ValueError: a game this solver cannot take (named in the message).
    """

    def __init__(self, setup: Setup, *, free_fold: bool = True, dtype: Any = np.float64) -> None:
        self.setup = setup
        self.dtype = np.dtype(dtype)
        self.root, self.steps, self.deals = build_tree(setup, free_fold=free_fold)
        self.free_fold = free_fold
        showdowns = [st for st in setup.game.build(setup.options) if isinstance(st, Showdown)]
        if (len(showdowns) != 1 or showdowns[0].cards_of is not hole_and_board
                or showdowns[0].wild or showdowns[0].high != "standard"):
            raise ValueError(f"vector CFR knows one high showdown of hole cards plus board "
                             f"(R-SDR-6); {setup.game.id} has another")
        self.cards = list(setup.deck if setup.deck is not None else range(52))
        n = len(self.cards)
        k = self.deals[0][1]
        self.k = k
        self.holes = list(combinations(range(n), k))
        h_count = len(self.holes)
        self.holes_count = h_count
        hole_bits = np.array([sum(1 << c for c in h) for h in self.holes], dtype=np.int64)
        self.incidence = np.zeros((h_count, n))
        for i, h in enumerate(self.holes):
            self.incidence[i, list(h)] = 1.0
        self.disjoint = ((hole_bits[:, None] & hole_bits[None, :]) == 0).astype(np.float64)
        # public card sets by level
        self.public: list[list[tuple[tuple[int, ...], ...]]] = [[()]]
        bits = [np.zeros(1, dtype=np.int64)]
        self.branch: list[int] = []
        used = 0
        weight = 1.0 / (comb(n, k) * comb(n - k, k))
        self.weight = [weight]
        for _, s in self.steps:
            nxt: list[tuple[tuple[int, ...], ...]] = []
            nbits: list[int] = []
            for path, b in zip(self.public[-1], bits[-1].tolist(), strict=True):
                left = [c for c in range(n) if not b >> c & 1]
                for cs in combinations(left, s):
                    nxt.append((*path, cs))
                    nbits.append(b | sum(1 << c for c in cs))
            self.branch.append(comb(n - used, s))
            weight /= comb(n - 2 * k - used, s)
            self.weight.append(weight)
            used += s
            self.public.append(nxt)
            bits.append(np.array(nbits, dtype=np.int64))
        if 2 * k + used > n:
            raise ValueError(f"a deck of {n} cards cannot deal {2 * k + used}")
        self.valid = [((b[:, None] & hole_bits[None, :]) == 0).astype(np.float64) for b in bits]
        self.decisions = {nd.index: nd for nd in _nodes(self.root) if nd.kind == "decision"}
        self.decision_count = len(self.decisions)
        self.sign: Array = np.empty(0)
        self.sign_t: Array = np.empty(0)
        self.equity: dict[int, Array] = {}
        self._showdown_matrices()
        if self.dtype != np.float64:  # the walk's arrays in the smaller type
            cast = self.dtype.type
            self.incidence, self.disjoint = self.incidence.astype(cast), self.disjoint.astype(cast)
            self.valid = [v.astype(cast) for v in self.valid]
            self.sign, self.sign_t = self.sign.astype(cast), self.sign_t.astype(cast)
            self.equity = {lv: e.astype(cast) for lv, e in self.equity.items()}
        self._index: list[dict[tuple[tuple[int, ...], ...], int]] | None = None

    @classmethod
    def from_params(cls, params: dict[str, Any], *, free_fold: bool = True,
                    dtype: Any = np.float64) -> VectorGame:
        """The game of ``python_rollem``'s parameters (``game``, ``players``,
        ``stack``, ``ante``, ``small_bet``, ``big_bet``, ``deck`` as ranks then
        suits, ``raise_cap``, ``burns``, ``chance``; :mod:`rollem.rl.openspiel`),
        so that both solvers load the same game from one dict.

        Raises:
            ValueError: a bad parameter (as :func:`rollem.rl.state.load_setup`).
        """
        p = dict(params)
        deck = str(p.pop("deck", ""))
        ranks = deck.rstrip("cdhs")
        if deck and ranks == deck:
            raise ValueError(f"deck must give ranks then suits (e.g. \"TJQKAhs\"), got {deck!r}")
        cap = int(p.pop("raise_cap", -1))
        setup = load_setup(**p, ranks=ranks, suits=deck[len(ranks):],
                           caps=() if cap < 0 else (cap,))
        return cls(setup, free_fold=free_fold, dtype=dtype)

    # ------------------------------------------------------------ showdown

    def _showdown_matrices(self) -> None:
        """The sign matrix of each community card set, the batching order of
        the last level, and the all-in equity matrices of lower levels."""
        m = len(self.steps)
        board_steps = [i for i, (kind, _) in enumerate(self.steps) if kind == "board"]
        last = self.public[m]
        comm_keys = [tuple(sorted(c for i in board_steps for c in path[i])) for path in last]
        uniq = sorted(set(comm_keys))
        where = {c: i for i, c in enumerate(uniq)}
        self.comm_of = np.array([where[c] for c in comm_keys], dtype=np.int64)
        h_count, k = self.holes_count, self.k
        cards = np.array(self.cards)
        rows = np.array([[*h, *c] for c in uniq for h in self.holes])
        if rows.shape[1] < 5:
            raise ValueError(f"a showdown of {rows.shape[1]} cards: a high hand needs five")
        strength = high_values(cards[rows]).astype(np.int64).reshape(len(uniq), h_count)
        comm_bits = np.array([sum(1 << c for c in cs) for cs in uniq], dtype=np.int64)
        hole_bits = np.array([sum(1 << c for c in h) for h in self.holes], dtype=np.int64)
        ok = ((comm_bits[:, None] & hole_bits[None, :]) == 0).astype(np.float64)
        sign = np.sign(strength[:, :, None] - strength[:, None, :]).astype(np.float64)
        self.sign = sign * self.disjoint[None] * ok[:, :, None] * ok[:, None, :]
        self.sign_t = np.ascontiguousarray(self.sign.transpose(0, 2, 1))
        counts = np.bincount(self.comm_of, minlength=len(uniq))
        self._order: npt.NDArray[np.int64] | None = None
        if (counts == counts[0]).all():
            self._order = np.argsort(self.comm_of, kind="stable")
        del k
        # all-in equity: the expected sign over the cards still to come
        levels = {nd.level for nd in _nodes(self.root) if nd.kind == "showdown"} - {m}
        self.equity = {}
        if not levels:
            return
        low = min(levels)
        if self.steps[m - 1][0] != "board":
            raise ValueError("an all-in showdown before the last public step needs that step "
                             "to deal board cards")
        # level m - 1: the sum of the children's sign matrices, masked by the parent's cards
        par = np.repeat(np.arange(len(self.public[m - 1])), self.branch[m - 1])
        count = np.zeros((len(self.public[m - 1]), len(uniq)))
        np.add.at(count, (par, self.comm_of), 1.0)
        left = len(self.cards) - 2 * self.k - sum(s for _, s in self.steps[:m - 1])
        eq = (count @ self.sign.reshape(len(uniq), -1)).reshape(-1, h_count, h_count)
        v = self.valid[m - 1]
        eq *= v[:, :, None] * v[:, None, :] / comb(left, self.steps[m - 1][1])
        self.equity[m - 1] = eq
        for lv in range(m - 2, low - 1, -1):
            left = len(self.cards) - 2 * self.k - sum(s for _, s in self.steps[:lv])
            eq = eq.reshape(len(self.public[lv]), self.branch[lv], h_count, h_count).sum(1)
            eq /= comb(left, self.steps[lv][1])
            self.equity[lv] = eq

    def _showdown(self, r_opp: Array) -> Array:
        """``sign(board) @ r_opp`` for every public set of the last level."""
        m = len(self.steps)
        h_count = self.holes_count
        if self._order is None:
            out = np.einsum("phk,pk->ph", self.sign[self.comm_of], r_opp)
        else:
            groups = self.sign.shape[0]
            r = r_opp[self._order].reshape(groups, -1, h_count)
            prod = np.matmul(r, self.sign_t).reshape(-1, h_count)
            out = np.empty_like(prod)
            out[self._order] = prod
        return out * self.valid[m]

    def _disjoint_sum(self, r: Array) -> Array:
        """Per hole set, the weight of ``r`` on the hole sets disjoint from it."""
        total = r.sum(1, keepdims=True)
        if self.k == 1:
            return total - r
        if self.k == 2:
            return total - (r @ self.incidence) @ self.incidence.T + r
        return r @ self.disjoint

    def terminal(self, node: Node, i: int, r_opp: Array) -> Array:
        """Seat ``i``'s counterfactual values at a fold or showdown node."""
        lv = node.level
        w = self.weight[lv]
        if node.kind == "fold":
            return (node.net[i] * w) * self._disjoint_sum(r_opp) * self.valid[lv]
        if lv == len(self.steps):
            return (node.stake * w) * self._showdown(r_opp)
        return (node.stake * w) * np.einsum("phk,pk->ph", self.equity[lv], r_opp)

    def down(self, lv: int, r: Array) -> Array:
        """A range at level ``lv`` spread over the next level's public sets."""
        return np.repeat(r, self.branch[lv], axis=0) * self.valid[lv + 1]

    def up(self, lv: int, v: Array) -> Array:
        """Values of level ``lv + 1`` summed back to their parents at ``lv``."""
        v = v * self.valid[lv + 1]
        return v.reshape(-1, self.branch[lv], v.shape[1]).sum(1)

    # ------------------------------------------------------------ policies

    def shape(self, node: Node) -> tuple[int, int, int]:
        """A decision node's policy shape: (public sets, hole sets, actions)."""
        return (len(self.public[node.level]), self.holes_count, len(node.actions))

    def uniform(self) -> Policy:
        """Every legal action equally likely everywhere."""
        return {i: np.full(self.shape(nd), 1.0 / len(nd.actions), dtype=self.dtype)
                for i, nd in self.decisions.items()}

    def _walk(self, node: Node, i: int, r_opp: Array, policy: Policy, best: bool) -> Array:
        if node.kind in ("fold", "showdown"):
            return self.terminal(node, i, r_opp)
        if node.kind == "chance":
            lv = node.level
            v = self._walk(node.children[0], i, self.down(lv, r_opp), policy, best)
            return self.up(lv, v)
        probs = policy[node.index]
        if node.player == i:
            vals = [self._walk(c, i, r_opp, policy, best) for c in node.children]
            if best:
                return np.maximum.reduce(vals)
            return sum(probs[..., a] * v for a, v in enumerate(vals))
        out: Array | None = None
        for a, c in enumerate(node.children):
            v = self._walk(c, i, r_opp * probs[..., a], policy, best)
            out = v if out is None else out + v
        assert out is not None
        return out

    def _root_range(self) -> Array:
        return self.valid[0].copy()

    def value(self, policy: Policy, seat: int = 0) -> float:
        """Seat ``seat``'s expected net chips a hand when both seats play ``policy``."""
        v = self._walk(self.root, seat, self._root_range(), policy, False)
        return float(v.astype(np.float64).sum())

    def best_response_value(self, policy: Policy, seat: int) -> float:
        """What a best response of ``seat`` wins a hand (chips) against ``policy``."""
        v = self._walk(self.root, seat, self._root_range(), policy, True)
        return float(v.astype(np.float64).sum())

    def nash_conv(self, policy: Policy) -> float:
        """NashConv of ``policy`` (both seats): the two best responses' values
        summed, chips (zero-sum; OpenSpiel's ``nash_conv``)."""
        return self.best_response_value(policy, 0) + self.best_response_value(policy, 1)

    def sizes(self) -> dict[str, Any]:
        """Counts: public sets per level, decision nodes per level, and the
        information sets (decision nodes x public sets x hole sets)."""
        per_level = [0] * (len(self.steps) + 1)
        infosets = 0
        for nd in self.decisions.values():
            per_level[nd.level] += 1
            infosets += len(self.public[nd.level]) * self.holes_count
        return {"public": [len(p) for p in self.public], "decisions": per_level,
                "infosets": infosets}

    # ------------------------------------------------------------ look-ups

    def locate(self, history: Sequence[int], seat: int) -> tuple[int, int, int]:
        """A decision of the ``python_rollem`` game with ``chance="hand"``
        (its move history) as ``(decision node index, public set index,
        hole set index of seat)``.

        Raises:
            ValueError: a history that is not at a decision of ``seat``.
        """
        local = {c: i for i, c in enumerate(self.cards)}
        moves = list(history)
        hole: dict[int, tuple[int, ...]] = {}
        for s, cnt in self.deals:
            hole[s] = tuple(sorted(local[c] for c in _cards(moves.pop(0), cnt)))
        node = self.root
        path: list[tuple[int, ...]] = []
        for mv in moves:
            if node.kind == "chance":
                cnt = self.steps[node.level][1]
                path.append(tuple(sorted(local[c] for c in _cards(mv, cnt))))
                node = node.children[0]
            elif node.kind == "decision":
                node = node.children[node.actions.index(mv)]
            else:
                raise ValueError(f"history {list(history)} goes past the end of a hand")
        if node.kind != "decision" or node.player != seat:
            raise ValueError(f"history {list(history)} is not at a decision of seat {seat}")
        if self._index is None:
            self._index = [{p: j for j, p in enumerate(lv)} for lv in self.public]
        return node.index, self._index[node.level][tuple(path)], self.holes.index(hole[seat])


class OpenSpielPolicy:
    """A :data:`Policy` as an OpenSpiel policy of ``python_rollem`` with
    ``chance="hand"`` (duck-typed: ``action_probabilities(state)``), for
    OpenSpiel's best responses and :func:`rollem.rl.solve.export`.

    Args:
        game: the :class:`VectorGame` of the same setup.
        policy: its policy.
    """

    def __init__(self, game: VectorGame, policy: Policy) -> None:
        self.game = game
        self.policy = policy

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        """``{action id: probability}`` at ``state`` (a decision); actions
        the vector game dropped (``free_fold=False``) get 0."""
        seat = state.current_player()
        node, path, hole = self.game.locate(state.history(), seat)
        probs = self.policy[node][path, hole]
        out = {a: 0.0 for a in state.legal_actions()}
        for a, p in zip(self.game.decisions[node].actions, probs.tolist(), strict=True):
            out[a] = float(p)
        return out


def _cards(outcome: int, count: int) -> tuple[int, ...]:
    return cards_from_id(outcome, count) if count > 1 else (outcome,)


class CFRPlus:
    """CFR+ on a :class:`VectorGame` (module doc).

    Args:
        game: the game.
        dtype: of the regrets and average-policy sums (``float32`` halves the
            memory of a big game; the walk's values stay ``float64``).
    """

    def __init__(self, game: VectorGame, dtype: Any = np.float64) -> None:
        self.game = game
        self.iterations = 0
        self.regret = {i: np.zeros(game.shape(nd), dtype) for i, nd in game.decisions.items()}
        self.total = {i: np.zeros(game.shape(nd), dtype) for i, nd in game.decisions.items()}
        self._current: dict[int, Array] = {}

    def current(self, index: int) -> Array:
        """The current policy of a decision node (regret matching+; the
        regrets are never negative, CFR+ cuts them at 0)."""
        got = self._current.get(index)
        if got is None:
            pos = self.regret[index]
            s = pos.sum(-1, keepdims=True)
            a = pos.shape[-1]
            got = np.divide(pos, s, out=np.full(pos.shape, 1.0 / a, dtype=pos.dtype),
                            where=s > 0)
            self._current[index] = got
        return got

    def iteration(self) -> None:
        """One iteration: seat 0's regrets and average, then seat 1's."""
        self.iterations += 1
        for seat in (0, 1):
            root = self.game._root_range()
            self._cfr(self.game.root, seat, root, root)

    def _cfr(self, node: Node, i: int, r_own: Array, r_opp: Array) -> Array:
        g = self.game
        if node.kind in ("fold", "showdown"):
            return g.terminal(node, i, r_opp)
        if node.kind == "chance":
            lv = node.level
            v = self._cfr(node.children[0], i, g.down(lv, r_own), g.down(lv, r_opp))
            return g.up(lv, v)
        probs = self.current(node.index)
        if node.player != i:
            out: Array | None = None
            for a, c in enumerate(node.children):
                v = self._cfr(c, i, r_own, r_opp * probs[..., a])
                out = v if out is None else out + v
            assert out is not None
            return out
        vals = np.stack([self._cfr(c, i, r_own * probs[..., a], r_opp)
                         for a, c in enumerate(node.children)], axis=-1)
        value = (vals * probs).sum(-1)
        regret = self.regret[node.index]
        regret += vals - value[..., None]
        np.maximum(regret, 0.0, out=regret)
        self._current.pop(node.index, None)
        self.total[node.index] += self.iterations * r_own[..., None] * probs
        return value

    def average(self) -> Policy:
        """The average policy (uniform where a seat never reached), in the
        game's ``dtype``."""
        out: Policy = {}
        for i, tot in self.total.items():
            t = tot.astype(self.game.dtype)
            s = t.sum(-1, keepdims=True)
            out[i] = np.divide(t, s, out=np.full(t.shape, 1.0 / t.shape[-1], dtype=t.dtype),
                               where=s > 0)
        return out

    def run(self, iterations: int, every: int = 0,
            progress: Callable[[int, float, float], None] | None = None,
            goal: float | None = None) -> list[tuple[int, float]]:
        """Run ``iterations`` more; NashConv of the average every ``every``
        (and at the last); stop early once below ``goal`` (chips).
        ``progress(iteration, nash_conv, seconds)`` at each measure."""
        curve: list[tuple[int, float]] = []
        start = time.perf_counter()
        for n in range(1, iterations + 1):
            self.iteration()
            if n == iterations or (every and n % every == 0):
                nc = self.game.nash_conv(self.average())
                curve.append((self.iterations, nc))
                if progress is not None:
                    progress(self.iterations, nc, time.perf_counter() - start)
                if goal is not None and nc < goal:
                    break
        return curve


def save_policy(path: str | Path, game: VectorGame, policy: Policy,
                info: dict[str, Any] | None = None) -> None:
    """Write ``policy`` as a NumPy ``.npz``: ``node<i>`` = the float32 array of
    decision node *i* (:data:`Policy`) and ``meta`` = a JSON text with the
    setup's parameters, the deck, the hole sets, the public steps and, per
    node, its seat, level, betting line and action ids, plus ``info``.
    Public card set *j* of a level is the *j*-th in :attr:`VectorGame.public`
    order (:func:`load_policy` gives the game back to look it up)."""
    nodes = [{"index": i, "seat": nd.player, "level": nd.level, "line": list(nd.history),
              "actions": nd.actions} for i, nd in sorted(game.decisions.items())]
    meta = {"params": list(game.setup.params[:8]),
            "reduced": game.setup.params[8] if len(game.setup.params) > 8 else {},
            "free_fold": game.free_fold, "cards": game.cards,
            "holes": [list(h) for h in game.holes], "steps": game.steps, "nodes": nodes,
            **(info or {})}
    arrays = {f"node{i}": p.astype(np.float32) for i, p in policy.items()}
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)


def load_policy(path: str | Path) -> tuple[VectorGame, Policy, dict[str, Any]]:
    """A policy written by :func:`save_policy`: ``(game, policy, meta)``."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        policy = {int(name[4:]): data[name].astype(np.float64)
                  for name in data.files if name.startswith("node")}
    setup = load_setup(*meta["params"], **meta["reduced"])
    return VectorGame(setup, free_fold=meta["free_fold"]), policy, meta
