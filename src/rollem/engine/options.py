"""Table options a hand is played under (R-C-6 and each game's house options).

A hand in progress never changes its options. Chips are whole numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rollem.engine.errors import EngineError

__all__ = ["FIXED_LIMIT", "NO_LIMIT", "POT_LIMIT", "STRUCTURES", "Options"]

FIXED_LIMIT = "fixed-limit"
POT_LIMIT = "pot-limit"
NO_LIMIT = "no-limit"
STRUCTURES = (FIXED_LIMIT, POT_LIMIT, NO_LIMIT)


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
    """

    structure: str = FIXED_LIMIT
    ante: int = 1
    small_bet: int = 2
    big_bet: int = 4
    cap_heads_up: bool = True
    caps: tuple[int, ...] | None = None
    house: Mapping[str, Any] = field(default_factory=dict)

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
        """JSON/TOML-ready form (``caps`` omitted when ``None``)."""
        out: dict[str, Any] = {
            "structure": self.structure,
            "ante": self.ante,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "cap_heads_up": self.cap_heads_up,
        }
        if self.caps is not None:
            out["caps"] = list(self.caps)
        out.update(dict(self.house))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        """Inverse of :meth:`to_dict`; unknown keys become house options."""
        known = {"structure", "ante", "small_bet", "big_bet", "cap_heads_up", "caps"}
        kwargs: dict[str, Any] = {k: data[k] for k in known if k in data}
        if "caps" in kwargs:
            kwargs["caps"] = tuple(kwargs["caps"])
        house = {k: v for k, v in data.items() if k not in known}
        return cls(**kwargs, house=house)
