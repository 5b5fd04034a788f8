"""Solve a reduced heads-up Stop, Drop and Roll with the public-tree vector
CFR+ (:mod:`rollem.rl.vector_cfr`, issue 30). Figures: docs/dev/rl.md
("A 16-card SDR: vector CFR+").

Default: the 16-card deck 7-A of hearts and spades, fixed limit (ante 1,
bets 2/4), heads-up, no burns, 3-chip stacks, no free folds (a dominated
action: :func:`rollem.rl.vector_cfr.build_tree`). It prints the game's size,
the seconds per iteration and NashConv of the average policy every
``--every`` iterations until it is below ``--goal`` of the big bet, and
saves the average policy (``--save``, rewritten at each measure).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_vector_cfr.py --save /tmp/sdr16.npz

``--check``: the nine-card SDR (2-T of spades, 3-chip stacks) that
``bench_cfr.py`` solves through OpenSpiel: NashConv of the uniform policy and
of the vector CFR+ average after ``--check-iterations``, by the vector best
response and by OpenSpiel's ``nash_conv`` on the EFG of the whole tree
(minutes: the tree walk).

``--check-bots``: the same nine-card game, the exact NashConv of ``--bots``
(seeded per information set, :mod:`rollem.rl.bot_exploit`) by the pruned
vector best response and by OpenSpiel's ``nash_conv`` through the policy
adapter on the EFG (minutes).

``--policy FILE`` (a saved policy): sampled lower bounds of the NashConv of
``--bots`` (``basic,strong``): what a fixed exploiter wins from them over
``--deals`` random deals (:func:`bot_sample`; ``--exploiter equilibrium``,
the saved policy, or ``aggressive``), or with ``--boards N`` the equilibrium
before the Roll and the best response after it over N random public card sets
(:func:`hybrid_sample`).

    .venv/bin/python bench/bench_vector_cfr.py --policy /tmp/sdr16.npz --deals 2000
    .venv/bin/python bench/bench_vector_cfr.py --policy /tmp/sdr16.npz --boards 25

``--exact``: the exact exploitability of ``--bots`` (:mod:`rollem.rl.bot_exploit`):
each bot (seeded per information set, a fresh bot at each) asked wherever
its own reach is above 0, the suit-swapped information sets once
(``--no-mirror`` to ask both), in ``--workers`` processes; then the two exact
best responses. With ``--policy`` (the saved equilibrium of the same game)
the game value it gives is subtracted per seat.

    .venv/bin/python bench/bench_vector_cfr.py --exact --workers 2 --policy /tmp/sdr16.npz
"""

from __future__ import annotations

import os

# before numpy: BLAS threads thrash a shared machine
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import hashlib
import resource
import time
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from rollem.rl.state import load_setup
from rollem.rl.vector_cfr import CFRPlus, VectorGame, save_policy


def load() -> str:
    return "load (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def rss() -> float:
    """Peak memory of this process, GB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6


def setup_params(args: argparse.Namespace) -> dict[str, Any]:
    ranks = args.deck.rstrip("cdhs")
    return {"game": "sdr", "players": 2, "stack": args.stack, "ranks": ranks,
            "suits": args.deck[len(ranks):], "caps": str(args.raise_cap), "burns": False,
            "chance": "hand"}


def solve(args: argparse.Namespace) -> None:
    params = setup_params(args)
    start = time.perf_counter()
    dtype = np.float32 if args.float32 else np.float64
    game = VectorGame(load_setup(**params), free_fold=args.free_fold, dtype=dtype)
    big = game.setup.options.big_bet
    print(f"{params} free_fold={args.free_fold}", flush=True)
    print(f"built in {time.perf_counter() - start:.1f}s: {game.sizes()}, hole sets "
          f"{game.holes_count}, decision nodes {game.decision_count}; peak {rss():.2f} GB",
          flush=True)
    cfr = CFRPlus(game, dtype=dtype)
    goal = args.goal * big
    spent = 0.0
    for it in range(1, args.iterations + 1):
        t = time.perf_counter()
        cfr.iteration()
        spent += time.perf_counter() - t
        if it % args.every == 0 or it == args.iterations:
            t = time.perf_counter()
            average = cfr.average()
            nc = game.nash_conv(average)
            value = game.value(average)
            took = time.perf_counter() - t
            print(f"  {it:4d} iterations ({spent / it:.1f}s each): NashConv {nc:.5f} chips "
                  f"= {100 * nc / big:.3f}% of the big bet; seat 0's value {value:+.5f}; "
                  f"[best responses {took:.0f}s; {load()}; peak {rss():.2f} GB]", flush=True)
            if args.save:
                save_policy(args.save, game, average,
                            {"iterations": it, "nash_conv": nc, "value": value})
            if nc < goal:
                print(f"goal met: NashConv {nc:.5f} < {goal:.3f} chips "
                      f"({100 * args.goal:g}% of the big bet {big})", flush=True)
                break


def check(args: argparse.Namespace) -> None:
    import pyspiel

    import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
    from rollem.rl.solve import export
    from rollem.rl.vector_cfr import OpenSpielPolicy

    params = {"game": "sdr", "players": 2, "deck": "23456789Ts", "stack": 3, "raise_cap": 0,
              "burns": False, "chance": "hand"}
    game = VectorGame.from_params(params)
    cfr = CFRPlus(game)
    t = time.perf_counter()
    for _ in range(args.check_iterations):
        cfr.iteration()
    print(f"{params}: {game.sizes()}; {args.check_iterations} iterations in "
          f"{time.perf_counter() - t:.1f}s", flush=True)
    policies = {"uniform": game.uniform(), "average": cfr.average()}
    t = time.perf_counter()
    tree = export(pyspiel.load_game("python_rollem", params),
                  {k: OpenSpielPolicy(game, p) for k, p in policies.items()},
                  workers=args.workers)
    print(f"walked {tree.counts} in {time.perf_counter() - t:.0f}s", flush=True)
    efg = tree.game()
    for name, pol in policies.items():
        mine = game.nash_conv(pol)
        theirs = pyspiel.nash_conv(efg, tree.policy(name, efg))
        v = game.value(pol)
        v_os = pyspiel.expected_returns(efg.new_initial_state(), tree.policy(name, efg), -1,
                                        True)[0]
        print(f"{name}: NashConv vector {mine:.12f}, OpenSpiel {theirs:.12f}, "
              f"difference {abs(mine - theirs):.1e}; value {v:+.12f} / {v_os:+.12f}",
              flush=True)


def check_bots(args: argparse.Namespace) -> None:
    """The nine-card SDR (2-T of spades, 3-chip stacks, free folds kept): each
    bot's NashConv by the pruned vector best response (:mod:`rollem.rl.bot_exploit`)
    and by OpenSpiel's ``nash_conv`` on the EFG of the whole ``python_rollem``
    tree, the bot asked through the policy adapter (:class:`SeededBotPolicy`)
    at every information state of the walk."""
    import pyspiel

    import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
    from rollem.rl.bot_exploit import SeededBot, SeededBotPolicy, bot_policy
    from rollem.rl.solve import export

    params = {"game": "sdr", "players": 2, "deck": "23456789Ts", "stack": 3, "raise_cap": 0,
              "burns": False, "chance": "hand"}
    game = VectorGame.from_params(params)
    names = [b for b in args.bots.split(",") if b]
    mine = {}
    for name in names:
        bot = SeededBot(game, name, seed=args.seed)
        t = time.perf_counter()
        policy, counts = bot_policy(game, bot.answer)
        mine[name] = (game.nash_conv(policy), game.value(policy))
        print(f"{name}: vector, pruned: asked {sum(counts['asked']):,} of "
              f"{sum(counts['infosets']):,} information sets in {time.perf_counter() - t:.0f}s; "
              f"NashConv {mine[name][0]:.12f}, seat 0's value {mine[name][1]:+.12f}", flush=True)
    t = time.perf_counter()
    tree = export(pyspiel.load_game("python_rollem", params),
                  {name: SeededBotPolicy(SeededBot(game, name, seed=args.seed)) for name in names},
                  workers=args.workers)
    print(f"walked {tree.counts} in {time.perf_counter() - t:.0f}s (every information state "
          f"asked); {load()}", flush=True)
    efg = tree.game()
    for name in names:
        theirs = pyspiel.nash_conv(efg, tree.policy(name, efg))
        v = pyspiel.expected_returns(efg.new_initial_state(), tree.policy(name, efg), -1,
                                     True)[0]
        print(f"{name}: NashConv vector {mine[name][0]:.12f}, OpenSpiel {theirs:.12f}, "
              f"difference {abs(mine[name][0] - theirs):.1e}; value {mine[name][1]:+.12f} / "
              f"{v:+.12f}", flush=True)


def deal_value(state: Any, eq: Any, bot: Any, eq_seat: int, outcomes: list[int], depth: int,
               asked: list[int]) -> float:
    """Seat ``eq_seat``'s expected net (``eq`` there, ``bot`` in the other
    seat) from ``state`` with the chance outcomes ``outcomes[depth:]``."""
    if state.is_terminal():
        return float(state.returns()[eq_seat])
    if state.is_chance_node():
        state.apply_action(outcomes[depth])
        return deal_value(state, eq, bot, eq_seat, outcomes, depth + 1, asked)
    if state.current_player() == eq_seat:
        probs = eq.action_probabilities(state)
    else:
        asked[0] += 1
        probs = bot.action_probabilities(state)
    return sum(p * deal_value(state.child(a), eq, bot, eq_seat, outcomes, depth, asked)
               for a, p in probs.items() if p > 0)


class Aggressive:
    """An exploiter that never folds: bets or raises when it may, else calls
    or checks (``--exploiter aggressive``)."""

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        legal = state.legal_actions()
        return {max(legal): 1.0}


def bot_sample(args: argparse.Namespace) -> None:
    """What the saved equilibrium (``--policy``; or ``--exploiter
    aggressive``: :class:`Aggressive`) wins from each bot of
    ``--bots``, on ``--deals`` random deals of the cards: for each deal, the
    exact expectation over both players' actions (the equilibrium's
    probabilities, the bot's ``policy``), once with the equilibrium in seat 0
    and once in seat 1. Their sum is a lower bound of the bot's NashConv (a
    best response wins at least what the equilibrium wins), estimated with
    its standard error; not the exact NashConv (that needs the bot's answer at
    every information set)."""
    import random

    import pyspiel

    import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
    from rollem.rl.policy import BotPolicy
    from rollem.rl.state import cards_id
    from rollem.rl.vector_cfr import OpenSpielPolicy, load_policy

    game, policy, meta = load_policy(args.policy)
    print(f"policy {args.policy}: {meta['iterations']} iterations, NashConv "
          f"{meta['nash_conv']:.5f}, seat 0's value {meta['value']:+.5f}", flush=True)
    params = {"game": "sdr", "players": 2, "stack": game.setup.stacks[0],
              "deck": args.deck, "raise_cap": args.raise_cap, "burns": False, "chance": "hand"}
    os_game = pyspiel.load_game("python_rollem", params)
    eq: Any = OpenSpielPolicy(game, policy) if args.exploiter == "equilibrium" else Aggressive()
    rng = random.Random(args.seed)
    for name in [b for b in args.bots.split(",") if b]:
        bot = BotPolicy(os_game, name, seed=args.seed)
        start = time.perf_counter()
        sums: list[float] = []
        asked = [0]

        for _ in range(args.deals):
            cards = rng.sample(game.cards, len(game.cards))
            outcomes = []
            for _, count in game.deals:
                outcomes.append(cards_id(cards[:count]))
                cards = cards[count:]
            for _, count in game.steps:
                outcomes.append(cards_id(cards[:count]))
                cards = cards[count:]
            both = [deal_value(os_game.new_initial_state(), eq, bot, seat, outcomes, 0, asked)
                    for seat in (0, 1)]
            sums.append(both[0] + both[1])
        mean = float(np.mean(sums))
        err = float(np.std(sums, ddof=1) / np.sqrt(len(sums)))
        took = time.perf_counter() - start
        print(f"{name}: the {args.exploiter} exploiter wins {mean:+.4f} chips over the two "
              f"seats (standard error {err:.4f}), {mean / 2:+.4f} a hand: "
              f"NashConv({name}) >= {mean:.3f} +- {2 * err:.3f} (95%); {args.deals} deals, "
              f"{asked[0]} bot answers in "
              f"{took:.0f}s ({1e3 * took / max(asked[0], 1):.1f} ms an answer with the "
              f"walk); {load()}", flush=True)


def hybrid_sample(args: argparse.Namespace) -> None:
    """A tighter lower bound of each bot's NashConv than :func:`bot_sample`:
    the exploiter plays the saved equilibrium (``--policy``) until the Roll
    and the best response to the bot after it (when every public card is
    known, the best action at each of its information sets needs the bot's
    answers on that one public card set only). For ``--boards`` random public
    card sets (Stop, Drop, Roll) the exploiter's expected value given them is
    exact over every pair of hole sets (the bot asked at each of its decisions
    for each hole set it may hold there); the mean over the sets, with the
    exploiter in seat 0 and in seat 1, is an unbiased estimate of what this
    fixed exploiter wins, so of a lower bound of the bot's NashConv."""
    import random

    import pyspiel

    import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)
    from rollem.rl.policy import BotPolicy
    from rollem.rl.state import cards_id
    from rollem.rl.vector_cfr import load_policy

    game, policy, meta = load_policy(args.policy)
    print(f"policy {args.policy}: {meta['iterations']} iterations, NashConv "
          f"{meta['nash_conv']:.5f}", flush=True)
    params = {"game": "sdr", "players": 2, "stack": game.setup.stacks[0],
              "deck": args.deck, "raise_cap": args.raise_cap, "burns": False, "chance": "hand"}
    os_game = pyspiel.load_game("python_rollem", params)
    index = [{p: j for j, p in enumerate(lv)} for lv in game.public]
    n = len(game.cards)
    rng = random.Random(args.seed)
    boards = []
    for _ in range(args.boards):
        cards = rng.sample(range(n), sum(c for _, c in game.steps))
        q, at = [], 0
        for _, c in game.steps:
            q.append(tuple(sorted(cards[at:at + c])))
            at += c
        boards.append(tuple(q))

    def moves_to(node: Any, q: tuple[tuple[int, ...], ...], hole: dict[int, tuple[int, ...]]
                 ) -> list[int]:
        moves = [cards_id([game.cards[c] for c in hole[seat]]) for seat, _ in game.deals]
        cur, j = game.root, 0
        while True:
            if cur.kind == "chance":
                moves.append(cards_id([game.cards[c] for c in q[cur.level]]))
                cur = cur.children[0]
            elif j < len(node.history):
                moves.append(node.history[j])
                cur = cur.children[cur.actions.index(node.history[j])]
                j += 1
            else:
                assert cur is node
                return moves

    for name in [b for b in args.bots.split(",") if b]:
        hy = Hybrid(game, policy, os_game, BotPolicy(os_game, name, seed=args.seed), index,
                    moves_to)
        start = time.perf_counter()
        sums = [hy.board_value(q, 0) + hy.board_value(q, 1) for q in boards]
        mean = float(np.mean(sums))
        err = float(np.std(sums, ddof=1) / np.sqrt(len(sums)))
        took = time.perf_counter() - start
        print(f"{name}: equilibrium before the Roll, best response after: wins {mean:+.4f} "
              f"chips over the two seats (standard error {err:.4f}): NashConv({name}) >= "
              f"{mean:.3f} +- {2 * err:.3f} (95%); {len(boards)} public card sets, {hy.asked} "
              f"bot answers in {took:.0f}s; {load()}", flush=True)


class Hybrid:
    """The exploiter of :func:`hybrid_sample` against one bot, one public
    card set at a time (the bot's answers kept across sets)."""

    def __init__(self, game: Any, policy: Any, os_game: Any, bot: Any,
                 index: list[dict[Any, int]], moves_to: Any) -> None:
        self.game, self.policy, self.os_game, self.bot = game, policy, os_game, bot
        self.index, self.moves_to = index, moves_to
        self.cache: dict[tuple[int, Any], tuple[Any, Any]] = {}
        self.asked = 0

    def board_value(self, q: tuple[tuple[int, ...], ...], x: int) -> float:
        """The exploiter's (seat ``x``) expected net given the public cards ``q``."""
        g = self.game
        self.q, self.x = q, x
        self.qbits = {c for cs in q for c in cs}
        self.mask = np.array([0.0 if self.qbits & set(h) else 1.0 for h in g.holes])
        left = len(g.cards) - len(self.qbits)
        self.w = 1.0 / (comb(left, g.k) * comb(left - g.k, g.k))
        sign = g.sign[g.comm_of[self.index[len(g.steps)][q]]].astype(np.float64)
        self.sign = sign * self.mask[:, None] * self.mask[None, :]
        return float(self.walk(g.root, self.mask.copy()).sum())

    def bot_probs(self, node: Any) -> Any:
        g, q = self.game, self.q
        key = (node.index, q[:node.level])
        got = self.cache.get(key)
        if got is None:
            got = (np.zeros((len(g.holes), len(node.actions))), np.zeros(len(g.holes), bool))
            self.cache[key] = got
        probs, done = got
        for hi, h in enumerate(g.holes):
            if done[hi] or not self.mask[hi]:
                continue
            other = next(o for o in g.holes if not (set(o) & (self.qbits | set(h))))
            state = self.os_game.new_initial_state()
            for mv in self.moves_to(node, q, {self.x: other, 1 - self.x: h}):
                state.apply_action(mv)
            answer = self.bot.action_probabilities(state)
            self.asked += 1
            if any(p > 0 and a not in node.actions for a, p in answer.items()):
                raise ValueError("the bot folds when checking is free: use free_fold=True")
            probs[hi] = [answer.get(a, 0.0) for a in node.actions]
            done[hi] = True
        return probs

    def walk(self, node: Any, r_bot: Any) -> Any:
        g, x = self.game, self.x
        if node.kind == "fold":
            return node.net[x] * self.w * g._disjoint_sum(r_bot[None])[0] * self.mask
        if node.kind == "showdown":
            return node.stake * self.w * (self.sign @ r_bot) * self.mask
        if node.kind == "chance":
            return self.walk(node.children[0], r_bot)
        if node.player == x:
            vs = [self.walk(c, r_bot) for c in node.children]
            if node.level == len(g.steps):
                return np.maximum.reduce(vs)
            probs = self.policy[node.index][self.index[node.level][self.q[:node.level]]]
            return sum(probs[:, a] * v for a, v in enumerate(vs))
        probs = self.bot_probs(node)
        return sum(self.walk(c, r_bot * probs[:, a]) for a, c in enumerate(node.children))


_BOT: list[Any] = []
"""The :class:`SeededBot` of the :func:`exact` run under way, for its forked workers."""


def _answer_chunk(chunk: tuple[int, Any, Any]) -> tuple[Any, int, float]:
    bot = _BOT[0]
    node = bot.game.decisions[chunk[0]]
    asked, spent = bot.asked, bot.seconds
    probs = bot.answer(node, chunk[1], chunk[2])
    return probs, bot.asked - asked, bot.seconds - spent


def exact(args: argparse.Namespace) -> None:
    """The exact NashConv and exploitability of each bot of ``--bots``."""
    from rollem.rl.vector_cfr import load_policy

    params = setup_params(args)
    game = VectorGame(load_setup(**params), free_fold=args.free_fold)
    print(f"{params} free_fold={args.free_fold}: {game.sizes()}", flush=True)
    value = None
    if args.policy:
        eq_game, eq, meta = load_policy(args.policy)
        if (eq_game.cards, eq_game.steps, eq_game.free_fold, eq_game.sizes()) != (
                game.cards, game.steps, game.free_fold, game.sizes()):
            raise SystemExit(f"{args.policy} is not a policy of this game")
        value = game.value(eq)
        eq_nc = game.nash_conv(eq)
        del eq_game, eq
        print(f"equilibrium {args.policy}: {meta['iterations']} iterations, NashConv "
              f"{eq_nc:.6f}; seat 0's value {value:+.6f} (the game value within "
              f"{eq_nc:.6f})", flush=True)
    for name in [b for b in args.bots.split(",") if b]:
        exact_bot(args, game, name, value)


def exact_bot(args: argparse.Namespace, game: VectorGame, name: str, value: float | None
              ) -> None:
    """:func:`exact` for one bot."""
    import multiprocessing

    from rollem.rl.bot_exploit import SeededBot, bot_policy, exploitability

    big = game.setup.options.big_bet
    bot = SeededBot(game, name, seed=args.seed)
    _BOT[:] = [bot]
    start = time.perf_counter()
    stats = {"asked": 0, "seconds": 0.0, "resumed": 0}
    pool = (multiprocessing.get_context("fork").Pool(args.workers)
            if args.workers > 1 else None)

    cache = Path(args.cache) if args.cache else None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)

    def cached(chunk: tuple[int, Any, Any]) -> Path | None:
        if cache is None:
            return None
        key = hashlib.sha1(f"{name} {args.seed} {args.mirror} {chunk[0]}".encode()
                           + chunk[1].tobytes() + chunk[2].tobytes()).hexdigest()[:20]
        return cache / f"{name}-{chunk[0]}-{key}.npy"

    def batch(questions: list[Any]) -> list[Any]:
        chunks, owner, results = [], [], {}
        for qi, (node, pub, hole) in enumerate(questions):
            for at in range(0, len(pub), args.chunk):
                chunk = (node.index, pub[at:at + args.chunk], hole[at:at + args.chunk])
                path = cached(chunk)
                if args.count and node.level == len(game.steps):  # not asked: counted
                    results[len(owner)] = (np.full((len(chunk[1]), len(node.actions)),
                                                   1.0 / len(node.actions)), 0, 0.0)
                elif path is not None and path.exists():
                    results[len(owner)] = (np.load(path), 0, 0.0)
                    stats["resumed"] += len(chunk[1])
                else:
                    chunks.append((len(owner), chunk))
                owner.append(qi)
        todo = [c for _, c in chunks]
        it = (pool.imap(_answer_chunk, todo, chunksize=1) if pool is not None
              else map(_answer_chunk, todo))
        for (k, chunk), got in zip(chunks, it, strict=True):
            path = cached(chunk)
            if path is not None:
                np.save(path, got[0])  # done chunks survive a stop (--cache)
            results[k] = got
        out: list[list[Any]] = [[] for _ in questions]
        for k, qi in enumerate(owner):
            probs, asked, spent = results[k]
            out[qi].append(probs)
            stats["asked"] += asked
            stats["seconds"] += spent
        return [np.concatenate(o) if o else np.zeros((0, len(q[0].actions)))
                for o, q in zip(out, questions, strict=True)]

    def progress(line: str) -> None:
        print(f"  {name} {line} [{time.perf_counter() - start:.0f}s]", flush=True)

    try:
        policy, counts = bot_policy(game, bot.answer, mirror=args.mirror, batch=batch,
                                    progress=progress)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    took = time.perf_counter() - start
    print(f"{name}: information sets {sum(counts['infosets']):,} {counts['infosets']}, "
          f"reached {sum(counts['reached']):,} {counts['reached']}, asked "
          f"{sum(counts['asked']):,} {counts['asked']}; {took:.0f}s wall, "
          f"{1e3 * stats['seconds'] / max(1, stats['asked']):.2f} ms an answer in a "
          f"worker ({stats['asked']:,} asked now, {stats['resumed']:,} read from --cache); "
          f"{load()}", flush=True)
    if args.count:
        print(f"{name}: --count: the bot was not asked at the last level (uniform there), "
              "so its counts there are exact at its first decision on each line and upper "
              "bounds after", flush=True)
        return
    t = time.perf_counter()
    got = exploitability(game, policy, value)
    br0, br1, own, nc = got["br0"], got["br1"], got["value"], got["nash_conv"]
    print(f"{name}: best response in seat 0 wins {br0:+.6f}, in seat 1 {br1:+.6f} a hand; "
          f"NashConv {nc:.6f} chips ({100 * nc / big:.2f}% of the big bet), "
          f"exploitability (NashConv / 2) {nc / 2:.6f} chips a hand "
          f"({100 * nc / 2 / big:.2f}% of the big bet); {name} against itself: seat 0 "
          f"{own:+.6f} [best responses {time.perf_counter() - t:.0f}s]", flush=True)
    if value is not None:
        e0, e1 = got["seat0"], got["seat1"]
        print(f"{name}: exploitability by seat (best response minus the game value "
              f"{value:+.6f}): seat 0 {e0:.6f} ({100 * e0 / big:.2f}% of the big bet), "
              f"seat 1 {e1:.6f} ({100 * e1 / big:.2f}%), mean {(e0 + e1) / 2:.6f}",
              flush=True)


def check_args(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a bad option in one line before any work (``ap.error``: exit 2), not a
    ``ZeroDivisionError`` or a traceback from the game's setup (stop 72)."""
    import bench_args  # (bench/, beside this script)

    for option in ("iterations", "every", "check_iterations", "deals", "workers", "chunk",
                   "stack"):
        bench_args.check_at_least(ap, "--" + option.replace("_", "-"), getattr(args, option), 1)
    bench_args.check_at_least(ap, "--raise-cap", args.raise_cap, 0)
    bench_args.check_levels(ap, "--bots", args.bots)
    try:
        load_setup(**setup_params(args))
    except ValueError as err:
        ap.error(f"--deck {args.deck}, --stack {args.stack}, --raise-cap {args.raise_cap}: "
                 f"{err}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deck", default="789TJQKAhs", help="ranks then suits")
    ap.add_argument("--raise-cap", type=int, default=0)
    ap.add_argument("--stack", type=int, default=3)
    ap.add_argument("--free-fold", action="store_true", help="keep folds when a check is free")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--goal", type=float, default=0.01, help="NashConv goal, of the big bet")
    ap.add_argument("--float32", action="store_true", help="float32 walk, regrets and sums")
    ap.add_argument("--save", default="", help="write the average policy here (.npz)")
    ap.add_argument("--check", action="store_true", help="the nine-card differential check")
    ap.add_argument("--check-iterations", type=int, default=30)
    ap.add_argument("--check-bots", action="store_true",
                    help="the nine-card check of --bots' exact NashConv against OpenSpiel")
    ap.add_argument("--policy", default="", help="a saved policy: sample the bots against it")
    ap.add_argument("--bots", default="basic,strong")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--exploiter", choices=("equilibrium", "aggressive"), default="equilibrium",
                    help="with --policy: who plays against the bots")
    ap.add_argument("--boards", type=int, default=0,
                    help="with --policy: the hybrid bound on this many public card sets")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1,
                    help="processes walking the tree (--check) or asking the bots (--exact)")
    ap.add_argument("--exact", action="store_true",
                    help="the exact exploitability of --bots (--policy: the equilibrium)")
    ap.add_argument("--no-mirror", dest="mirror", action="store_false",
                    help="--exact: ask suit-swapped information sets separately")
    ap.add_argument("--chunk", type=int, default=500, help="--exact: questions a task")
    ap.add_argument("--count", action="store_true",
                    help="--exact: ask the bot before the last public cards only; count")
    ap.add_argument("--cache", default="",
                    help="--exact: keep the answers here (a folder); a run again resumes")
    args = ap.parse_args()
    check_args(ap, args)
    print(load(), flush=True)
    if args.check_bots:
        check_bots(args)
    elif args.check:
        check(args)
    elif args.exact:
        exact(args)
    elif args.policy and args.boards:
        hybrid_sample(args)
    elif args.policy:
        bot_sample(args)
    else:
        solve(args)
    print(load(), flush=True)


if __name__ == "__main__":
    main()
