"""Build a hand's steps from a checked game file (:class:`GameSpec`).

Every step kind of the file maps to one engine step; nothing here knows a
particular game. Betting round ``i`` (in file order, steps skipped by
``when`` included) has cap ``options.round_caps(spec.caps, rounds)[i]``.

A bomb pot (``options.bomb_pot`` > 0, issue 27) replaces the game's forced bets
(ante, blinds, bring-in) by one :class:`~rollem.engine.bomb.BombPotAnte` and its
first betting round by a :class:`~rollem.engine.bomb.SkippedRound`. Only games
whose first betting round is followed by shared cards (a ``board`` or a ``dead``
step, burns aside: hold'em and Omaha's flop, Stop, Drop and Roll's Stop) may have
one (:func:`bomb_pot_refusal`): in stud and draw games the first round is where
the bring-in acts or decides who draws, so skipping it leaves nothing everyone
sees at once; they refuse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rollem.cards import RANKS
from rollem.engine.betting import (
    BettingRound,
    Opener,
    first_left_of_button,
    highest_showing,
    lowest_showing,
    next_left_of_previous_opener,
)
from rollem.engine.bomb import BombPotAnte, SkippedRound
from rollem.engine.declare import DeclareShowdown, DeclareSides
from rollem.engine.draw import DrawFromStub
from rollem.engine.errors import EngineError
from rollem.engine.forced import Blinds, BringIn, ForcedRound, best_low_showing
from rollem.engine.game import Game
from rollem.engine.options import Options
from rollem.engine.pool import DiscardToPool, DrawFromPool, PickWildFromPool
from rollem.engine.showdown import PotShowdown, Showdown
from rollem.engine.simultaneous import ExposeOne
from rollem.engine.stacking import RollUp, StackOrder
from rollem.engine.step import Step
from rollem.engine.steps import Ante, Burn, DealBoard, DealHole, TurnDead
from rollem.engine.wildcards import FixedWild
from rollem.games.gamefile import GameSpec, StepSpec
from rollem.hands.short_deck import SHORT_DECK

__all__ = [
    "OPENER_FUNCTIONS",
    "amount",
    "bomb_pot_default",
    "bomb_pot_refusal",
    "build_steps",
    "game_from_spec",
]

OPENER_FUNCTIONS: dict[str, Opener] = {
    "left-of-button": first_left_of_button,
    "highest-showing": highest_showing,
    "lowest-showing": lowest_showing,
    "best-low-showing": best_low_showing,
    "left-of-previous-opener": next_left_of_previous_opener,
}


def amount(value: int | str, options: Options) -> int:
    """Chips for a file amount: a whole number, or ``small-bet``, ``half-small-bet``
    (at least 1), ``big-bet``, ``ante``."""
    if isinstance(value, int):
        return value
    if value == "small-bet":
        return options.small_bet
    if value == "half-small-bet":
        return max(options.small_bet // 2, 1)
    if value == "big-bet":
        return options.big_bet
    return options.ante


def _house_amount(options: Options, name: str, default: int | str) -> int:
    v = options.get(name, None)
    if v is None:
        return amount(default, options)
    if type(v) is not int or v < 0:
        raise EngineError(f"house option {name} must be a whole number of chips >= 0, got {v!r}")
    return v


def _check_house(spec: GameSpec, options: Options) -> None:
    for k, allowed in spec.choices.items():
        v = options.get(k, spec.house[k])
        if v not in allowed:
            raise EngineError(f"unknown {k} {v!r}: expected one of "
                              + ", ".join(str(a) for a in allowed))


def _played(spec: GameSpec, options: Options) -> list[StepSpec]:
    return [s for s in spec.steps
            if s.when is None or options.get(s.when, spec.house[s.when])]


def _spec_of(game: Game | GameSpec) -> GameSpec | None:
    return game if isinstance(game, GameSpec) else game.spec


def bomb_pot_refusal(game: Game | GameSpec, options: Options | None = None) -> str | None:
    """Why ``game`` cannot have a bomb pot (one line), or ``None`` when it can:
    its first betting round (as played under ``options``) must be followed by
    shared cards (a ``board`` or ``dead`` step; burns may come between)."""
    spec = _spec_of(game)
    if spec is None:
        return f"{game.id} is not built from a game file"
    played = _played(spec, options if options is not None else Options())
    kinds = [s.kind for s in played]
    if "bet" not in kinds:
        return f"{spec.name} has no betting round"
    for s in played[kinds.index("bet") + 1:]:
        if s.kind in ("board", "dead"):
            return None
        if s.kind != "burn":
            break
    return (f"{spec.name} has no bomb pots: its first betting round is not followed by "
            "shared cards (bomb pots are for board games such as hold'em, Omaha and "
            "Stop, Drop and Roll)")


def bomb_pot_default(game: Game | GameSpec, options: Options) -> int:
    """A bomb pot's ante by default (chips): twice the big blind in a game with
    blinds, else twice the ante, else (no ante) the small bet."""
    spec = _spec_of(game)
    for s in _played(spec, options) if spec is not None else []:
        if s.kind == "blinds":
            return 2 * _house_amount(options, "big_blind", s.params["big"])
    return 2 * options.ante if options.ante > 0 else options.small_bet


def build_steps(spec: GameSpec, options: Options) -> list[Step]:
    """The steps of one hand of ``spec`` under ``options`` (a bomb pot when
    ``options.bomb_pot`` > 0: see the module doc).

    Raises:
        EngineError: a house option outside its ``[choices]``, a bad amount, or a
            bomb pot in a game that cannot have one (:func:`bomb_pot_refusal`).
    """
    _check_house(spec, options)
    bomb = options.bomb_pot
    if bomb:
        refusal = bomb_pot_refusal(spec, options)
        if refusal is not None:
            raise EngineError(refusal)
    n_rounds = sum(1 for s in spec.steps if s.kind == "bet")
    caps = options.round_caps(spec.caps, n_rounds)
    sizes = {"small": options.small_bet, "big": options.big_bet}
    out: list[Step] = []
    rounds = rolls = 0
    forced: Blinds | BringIn | None = None
    for s in spec.steps:
        p = s.params
        if s.kind == "bet":
            i = rounds
            rounds += 1
            if s.when is not None and not options.get(s.when, spec.house[s.when]):
                continue
            name = p["label"] or f"round {i + 1}"
            size = sizes[p["size"]]
            if bomb and not any(isinstance(x, SkippedRound | BettingRound) for x in out):
                out.append(SkippedRound(name, bomb))
            elif forced is not None and i == 0:
                out.append(ForcedRound(name, size, caps[i], options.structure, forced,
                                       cap_heads_up=options.cap_heads_up))
            else:
                out.append(BettingRound(name, size, caps[i], options.structure,
                                        opener=OPENER_FUNCTIONS[p["opener"]],
                                        cap_heads_up=options.cap_heads_up))
            continue
        if s.kind == "roll-up":
            rolls += 1
            if s.when is not None and not options.get(s.when, spec.house[s.when]):
                continue
            out.append(RollUp(p["label"] or f"roll {rolls}"))
            continue
        if s.when is not None and not options.get(s.when, spec.house[s.when]):
            continue
        if bomb and s.kind in ("ante", "blinds", "bring-in"):
            if not any(isinstance(x, BombPotAnte) for x in out):
                out.append(BombPotAnte(bomb))
            continue
        step = (DiscardToPool(p["cards"], into_pool=spec.pools_discards)
                if s.kind == "discard" else _simple(s, options))
        if isinstance(step, Blinds | BringIn):
            forced = step
        out.append(step)
    return out


def _simple(s: StepSpec, options: Options) -> Step:
    p = s.params
    k = s.kind
    makers: dict[str, Callable[[], Step]] = {
        "ante": lambda: Ante(options.ante),
        "blinds": lambda: Blinds(_house_amount(options, "small_blind", p["small"]),
                                 _house_amount(options, "big_blind", p["big"]),
                                 _house_amount(options, "straddle", p["straddle"]),
                                 straddle_rule=options.straddle_rule,
                                 straddlers=options.straddlers),
        "bring-in": lambda: BringIn(_house_amount(options, "bring_in", p["amount"]),
                                    highest=p["card"] == "highest"),
        "deal": lambda: DealHole(p["cards"], p["face"] == "up"),
        "burn": Burn,
        "dead": lambda: TurnDead(p["label"]),
        "board": lambda: DealBoard(p["cards"], p["label"]),
        "wild": lambda: FixedWild(tuple(RANKS.index(r) for r in p["ranks"])),
        "draw-from-pool": lambda: DrawFromPool(OPENER_FUNCTIONS[p["first"]]),
        "draw": lambda: DrawFromStub(p["label"], p["max"]),
        "expose": ExposeOne,
        "pick-wild": lambda: PickWildFromPool(OPENER_FUNCTIONS[p["chooser"]]),
        "stack": StackOrder,
        "declare": DeclareSides,
        "showdown": lambda: _showdown(p),
    }
    return makers[k]()


def _showdown(p: dict[str, Any] | Any) -> Step:
    pot = p["pot"]
    if pot == "declare":
        return DeclareShowdown(wild=bool(p["wild"]))
    high = p.get("high", "standard")
    if pot == "high" and not p["hole"]:
        return Showdown(wild=p["wild"], high=high)
    return PotShowdown(pot, low=p["low"], qualifier=p["qualifier"], hole=p["hole"],
                       board=p["board"], wild=p["wild"], high=high)


def game_from_spec(spec: GameSpec) -> Game:
    """The :class:`Game` of a checked game file."""

    def build(options: Options) -> list[Step]:
        return build_steps(spec, options)

    return Game(id=spec.id, name=spec.name, min_players=spec.min_players,
                max_players=spec.max_players, build=build, house=dict(spec.house),
                caps=spec.caps, rules=spec.rules, source=spec.text, spec=spec,
                deck=SHORT_DECK if spec.deck == "short" else tuple(range(52)))
