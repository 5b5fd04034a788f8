"""Table options a hand is played under (R-C-6 and each game's house options).

A hand in progress never changes its options. Chips are whole numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rollem.engine.errors import EngineError

__all__ = ["FIXED_LIMIT", "NO_LIMIT", "POT_LIMIT", "STRADDLE_RULES", "STRUCTURES", "Options"]

FIXED_LIMIT = "fixed-limit"
POT_LIMIT = "pot-limit"
NO_LIMIT = "no-limit"
STRUCTURES = (FIXED_LIMIT, POT_LIMIT, NO_LIMIT)
STRADDLE_RULES = ("off", "optional", "mississippi")
"""Who may post a voluntary straddle (issue 27; see :class:`rollem.engine.forced.Blinds`):
nobody, the player left of the big blind, or the button first and else the player
left of the big blind."""
_MAX_BOMB_POT = 10**9


@dataclass(frozen=True)
class Options:
    """Options of one hand (house options, R-C-6).

    Attributes:
        structure: ``"fixed-limit"`` (default), ``"pot-limit"`` or ``"no-limit"``.
        ante: chips each dealt-in player posts (R-C-5); default 1.
        small_bet: the small bet (fixed limit; min bet in pot-/no-limit); default 2.
        big_bet: the big bet; default 4.
        cap_heads_up: the fixed-limit raise cap holds heads-up too (default on).
        caps: raises allowed per betting round after the bet (fixed limit), or
            ``None`` for the game's default (e.g. R-SDR-7: 1, 1, 1, 3); see
            :meth:`round_caps`.
        house: the game's own house options (e.g. ``burn_before_roll``),
            merged over the game's defaults.
        straddle_rule: ``"off"`` (default), ``"optional"`` or ``"mississippi"``:
            who may post a voluntary straddle of twice the big blind in a game
            with a ``blinds`` step (:data:`STRADDLE_RULES`, issue 27).
        straddlers: the seats that chose to straddle this hand (sorted seat
            numbers); the rule picks at most one of them (see
            :class:`rollem.engine.forced.Blinds`), the others are ignored.
        bomb_pot: chips every dealt-in player antes in a bomb pot, replacing the
            game's forced bets, and the first betting round is skipped (issue 27;
            see :func:`rollem.games.build.build_steps`); 0 (default) = no bomb pot.
        run_twice: the players may agree to run the rest of the board twice once
            nobody can bet any more (issue 27, :mod:`rollem.engine.runtwice`);
            default off.
    """

    structure: str = FIXED_LIMIT
    ante: int = 1
    small_bet: int = 2
    big_bet: int = 4
    cap_heads_up: bool = True
    caps: tuple[int, ...] | None = None
    house: Mapping[str, Any] = field(default_factory=dict)
    straddle_rule: str = "off"
    straddlers: tuple[int, ...] = ()
    bomb_pot: int = 0
    run_twice: bool = False

    def __post_init__(self) -> None:
        if self.structure not in STRUCTURES:
            raise EngineError(
                f"unknown betting structure {self.structure!r}: expected one of "
                + ", ".join(STRUCTURES)
            )
        for name in ("ante", "small_bet", "big_bet"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise EngineError(f"{name} must be a whole number of chips >= 0, got {value!r}")
        if self.small_bet < 1 or self.big_bet < 1:
            raise EngineError("small_bet and big_bet must be at least 1 chip")
        if self.caps is not None and any(type(c) is not int or c < 0 for c in self.caps):
            raise EngineError(f"caps must be whole numbers of raises >= 0, got {self.caps!r}")
        if self.straddle_rule not in STRADDLE_RULES:
            raise EngineError(f"unknown straddle_rule {self.straddle_rule!r}: expected one of "
                              + ", ".join(STRADDLE_RULES))
        if (not isinstance(self.straddlers, tuple)
                or any(type(s) is not int or s < 0 for s in self.straddlers)):
            raise EngineError("straddlers must be a tuple of seat numbers >= 0, "
                              f"got {self.straddlers!r}")
        if type(self.run_twice) is not bool:
            raise EngineError(f"run_twice must be true or false, got {self.run_twice!r}")
        if type(self.bomb_pot) is not int or not 0 <= self.bomb_pot <= _MAX_BOMB_POT:
            raise EngineError("bomb_pot must be a whole number of chips from 0 to "
                              f"{_MAX_BOMB_POT}, got {self.bomb_pot!r}")

    def round_caps(self, default: tuple[int, ...], rounds: int) -> tuple[int, ...]:
        """The raise cap of each of ``rounds`` betting rounds: :attr:`caps`, else the game's
        ``default``; a shorter tuple repeats its last cap (0 when empty)."""
        caps = self.caps if self.caps is not None else default
        if len(caps) < rounds:
            caps = tuple(caps) + (caps[-1] if caps else 0,) * (rounds - len(caps))
        return caps

    def get(self, name: str, default: Any = None) -> Any:
        """A house option by name (``default`` when unset)."""
        return self.house.get(name, default)

    def to_dict(self) -> dict[str, Any]:
        """JSON/TOML-ready form (``caps`` omitted when ``None``; ``straddle_rule``,
        ``straddlers``, ``bomb_pot`` and ``run_twice`` omitted at their defaults, so older
        histories read the same)."""
        out: dict[str, Any] = {
            "structure": self.structure,
            "ante": self.ante,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "cap_heads_up": self.cap_heads_up,
        }
        if self.caps is not None:
            out["caps"] = list(self.caps)
        if self.straddle_rule != "off":
            out["straddle_rule"] = self.straddle_rule
        if self.straddlers:
            out["straddlers"] = list(self.straddlers)
        if self.bomb_pot:
            out["bomb_pot"] = self.bomb_pot
        if self.run_twice:
            out["run_twice"] = True
        out.update(dict(self.house))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        """Inverse of :meth:`to_dict`; unknown keys become house options."""
        known = {"structure", "ante", "small_bet", "big_bet", "cap_heads_up", "caps",
                 "straddle_rule", "straddlers", "bomb_pot", "run_twice"}
        kwargs: dict[str, Any] = {k: data[k] for k in known if k in data}
        for k in ("caps", "straddlers"):
            if k in kwargs:
                if not isinstance(kwargs[k], list | tuple):
                    raise EngineError(f"{k} must be a list of whole numbers, got {kwargs[k]!r}")
                kwargs[k] = tuple(kwargs[k])
        house = {k: v for k, v in data.items() if k not in known}
        return cls(**kwargs, house=house)
