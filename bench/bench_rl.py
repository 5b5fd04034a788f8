"""rollem for AI research (issue 30): speed of the OpenSpiel game and the
PettingZoo environment, and OpenSpiel's consistency checks on many hands.

1. OpenSpiel, heads-up hold'em, random play through pyspiel's API
   (``legal_actions``/``chance_outcomes``/``apply_action``; every applied
   move, chance or decision, is one step), same run:
   - ours: ``python_rollem`` with ``game=holdem`` (blinds 1/2, small bet 2,
     big bet 4, stacks 200; fixed limit, then no limit);
   - OpenSpiel's PokerKit wrapper (``python_pokerkit_wrapper``, pure Python
     over PokerKit) with the same blinds, bets and stacks, fixed then no limit,
     when it loads (it needs ``pokerkit``, in rollem's dev extra); else said so;
   - OpenSpiel's ``universal_poker`` (C++) hold'em, for reference.
   Chance is not cut the same way in each (ours deals burns too), so hands/s
   is printed as well as steps/s.
2. PettingZoo: random play (a uniformly random id of the action mask) in
   ``RollemEnv`` for sdr, rollyourown and rollem521, 3 players, steps/s
   (every ``env.step`` of a live agent).
3. ``--consistency N``: ``pyspiel.random_sim_test`` with N random hands (with
   serialisation) for each of sdr, rollyourown, rollem521, holdem, omaha8,
   stud8 and draw5, heads-up; prints the seconds each took.

    .venv/bin/python bench/bench_rl.py [--seconds 3] [--rounds 3] [--consistency 1000]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel

import rollem.rl.openspiel  # noqa: F401  (registers python_rollem)

GAMES = ["sdr", "rollyourown", "rollem521", "holdem", "omaha8", "stud8", "draw5"]


def openspiel_speed(game: Any, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Random play for about ``seconds``: (hands, steps, elapsed)."""
    rng = random.Random(seed)
    hands = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        hands += 1
    return hands, steps, time.perf_counter() - start


def pokerkit_game(limit: str) -> Any:
    """OpenSpiel's PokerKit-wrapper hold'em like ours, or ``None`` when it cannot load."""
    try:
        from open_spiel.python.games import pokerkit_wrapper  # noqa: F401
    except ImportError as err:
        print(f"  (OpenSpiel's PokerKit wrapper does not load: {err})")
        return None
    variant = "FixedLimitTexasHoldem" if limit == "fixed-limit" else "NoLimitTexasHoldem"
    return pyspiel.load_game("python_pokerkit_wrapper", {
        "variant": variant, "num_players": 2, "blinds": "1 2", "small_bet": 2, "big_bet": 4,
        "stack_sizes": "200 200"})


def universal_game(limit: str) -> Any:
    """OpenSpiel's C++ universal_poker hold'em, blinds 1/2, stacks 200."""
    betting = "limit" if limit == "fixed-limit" else "nolimit"
    params = {"betting": betting, "numPlayers": 2, "numRounds": 4, "blind": "2 1",
              "firstPlayer": "2 1 1 1", "numSuits": 4, "numRanks": 13, "numHoleCards": 2,
              "numBoardCards": "0 3 1 1", "stack": "200 200"}
    if betting == "limit":
        params["raiseSize"] = "2 2 4 4"
        params["maxRaises"] = "3 4 4 4"
    return pyspiel.load_game("universal_poker", params)


def report(name: str, hands: int, steps: int, elapsed: float) -> float:
    rate = steps / elapsed
    print(f"  {name:<40} {hands / elapsed:8.0f} hands/s {rate:9.0f} steps/s "
          f"({steps / max(hands, 1):.1f} steps a hand)")
    return rate


def best_of(game: Any, seconds: float, rounds: int) -> tuple[int, int, float]:
    """The fastest of ``rounds`` runs (a shared machine's load comes and goes)."""
    runs = [openspiel_speed(game, seconds, seed=r + 1) for r in range(rounds)]
    return max(runs, key=lambda run: run[1] / run[2])


def bench_openspiel(seconds: float, rounds: int) -> None:
    print(f"OpenSpiel heads-up hold'em, random play (best of {rounds} runs, taken in turn):")
    for limit in ("fixed-limit", "no-limit"):
        ours = pyspiel.load_game("python_rollem", {"game": "holdem", "players": 2,
                                                   "structure": limit})
        openspiel_speed(ours, 0.2)  # warm up (hand-evaluation tables)
        pk = pokerkit_game(limit)
        games = {"ours": ours} if pk is None else {"ours": ours, "pk": pk}
        runs: dict[str, list[tuple[int, int, float]]] = {k: [] for k in games}
        for r in range(rounds):
            for k, g in games.items():
                runs[k].append(openspiel_speed(g, seconds, seed=r + 1))
        best = {k: max(v, key=lambda run: run[1] / run[2]) for k, v in runs.items()}
        h, s, e = best["ours"]
        ours_rate = report(f"python_rollem holdem {limit}", h, s, e)
        ours_hands = h / e
        if pk is not None:
            h, s, e = best["pk"]
            rate = report(f"python_pokerkit_wrapper {limit}", h, s, e)
            print(f"  ratio ours/PokerKit wrapper: {ours_rate / rate:.1f}x steps/s, "
                  f"{ours_hands / (h / e):.1f}x hands/s")
        h, s, e = best_of(universal_game(limit), seconds, rounds)
        report(f"universal_poker (C++) {limit}", h, s, e)


def bench_pettingzoo(seconds: float) -> None:
    from rollem.rl.pettingzoo import RollemEnv

    def play(env: Any, rng: random.Random, seconds: float) -> tuple[int, int, float]:
        steps = hands = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.reset()
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            hands += 1
        return hands, steps, time.perf_counter() - start

    print("PettingZoo AEC, 3 players, random play:")
    for game in ("sdr", "rollyourown", "rollem521"):
        env = RollemEnv(game, players=3)
        rng = random.Random(2)
        env.reset(seed=1)
        play(env, rng, 0.5)  # warm up (hand-evaluation tables are built on first use)
        hands, steps, elapsed = play(env, rng, seconds)
        print(f"  {game:<12} {steps / elapsed:8.0f} steps/s {hands / elapsed:7.1f} hands/s "
              f"({steps / max(hands, 1):.1f} decisions a hand)")


def bench_consistency(sims: int) -> None:
    print(f"OpenSpiel random_sim_test, {sims} hands each, heads-up, with serialisation:")
    for game in GAMES:
        g = pyspiel.load_game("python_rollem", {"game": game, "players": 2})
        start = time.perf_counter()
        pyspiel.random_sim_test(g, num_sims=sims, serialize=True, verbose=False)
        print(f"  {game:<12} passed in {time.perf_counter() - start:6.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each, best kept")
    parser.add_argument("--consistency", type=int, default=0, metavar="N",
                        help="also run random_sim_test with N hands per game")
    args = parser.parse_args()
    bench_openspiel(args.seconds, args.rounds)
    bench_pettingzoo(args.seconds)
    if args.consistency:
        bench_consistency(args.consistency)


if __name__ == "__main__":
    main()
