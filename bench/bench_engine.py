"""Engine speed: Stop, Drop and Roll and hold'em (from its game file) vs PokerKit,
measured in the same run.

Both play 6-handed fixed limit with random legal actions (uniform over the
legal action kinds; fixed limit has one size per kind):

- rollem: SDR, ante 1, small bet 2, big bet 4, stacks 200, the inventor's caps;
- PokerKit: fixed-limit Texas hold'em, blinds 1/2, small bet 2, big bet 4,
  stacks 200, everything but the betting automated.

- rollem hold'em: the shipped game file ``holdem.toml`` (issue 18), blinds
  1/2, small bet 2, big bet 4, no ante, stacks 200: the same game as PokerKit's.

Prints hands/s of each and the ratios (target: rollem >= 5x PokerKit).

    .venv/bin/python bench/bench_engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from rollem.engine import Bet, Call, Check, Fold, Hand, Options, Raise, SeededSource


def rollem_hands(seconds: float, seed: int = 1, game: str = "sdr",
                 opts: Options | None = None) -> tuple[int, float]:
    """Play hands of ``game`` (SDR by default) for about ``seconds``; return (hands, elapsed)."""
    from rollem import games

    rng = random.Random(seed)
    source = SeededSource(rng)
    opts = opts if opts is not None else Options()
    the_game = games.get(game)
    fold, check, call = Fold(), Check(), Call()
    hands = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(50):
            source.outcomes.clear()
            hand = Hand(the_game, [200] * 6, button=hands % 6, options=opts, source=source)
            while hand.result is None:
                p = hand.pending
                assert p is not None
                seat = p.seats[0]
                legal = hand.legal_actions(seat)
                name = rng.choice(legal.actions)
                if name == "check":
                    action: object = check
                elif name == "call":
                    action = call
                elif name == "fold":
                    action = fold
                elif name == "bet":
                    action = Bet(legal.min_to)
                else:
                    action = Raise(legal.min_to)
                hand.apply(seat, action)
            hands += 1
        now = time.perf_counter()
        if now >= end:
            return hands, now - start


def pokerkit_hands(seconds: float, seed: int = 1) -> tuple[int, float]:
    """Play PokerKit fixed-limit hold'em hands for about ``seconds``."""
    from pokerkit import Automation, FixedLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(10):
            state = FixedLimitTexasHoldem.create_state(
                automations, True, 0, (1, 2), 2, 4, (200,) * 6, 6
            )
            while state.status:
                options = []
                if state.can_fold():
                    options.append(0)
                if state.can_check_or_call():
                    options.append(1)
                if state.can_complete_bet_or_raise_to():
                    options.append(2)
                pick = rng.choice(options)
                if pick == 0:
                    state.fold()
                elif pick == 1:
                    state.check_or_call()
                else:
                    state.complete_bet_or_raise_to()
            hands += 1
        now = time.perf_counter()
        if now >= end:
            return hands, now - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per engine")
    args = parser.parse_args()
    pk, pk_s = pokerkit_hands(args.seconds)
    ro, ro_s = rollem_hands(args.seconds)
    he, he_s = rollem_hands(args.seconds, game="holdem",
                            opts=Options(ante=0, small_bet=2, big_bet=4))
    pk_rate = pk / pk_s
    ro_rate = ro / ro_s
    he_rate = he / he_s
    print(f"pokerkit fixed-limit hold'em, 6-handed, random: {pk_rate:9.1f} hands/s ({pk} hands)")
    print(f"rollem Stop, Drop and Roll, 6-handed, random:    {ro_rate:9.1f} hands/s ({ro} hands)")
    print(f"rollem hold'em (game file), 6-handed, random:    {he_rate:9.1f} hands/s ({he} hands)")
    print(f"ratio rollem SDR / pokerkit: {ro_rate / pk_rate:.2f}x (target >= 5x)")
    print(f"ratio rollem hold'em file / pokerkit hold'em: {he_rate / pk_rate:.2f}x (target >= 5x)")


if __name__ == "__main__":
    main()
