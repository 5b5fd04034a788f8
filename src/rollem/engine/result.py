"""The result of a finished hand (R-C-9..R-C-11), JSON-ready as CLI.md's ``replay``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollem.cards import CARDS, Card, parse_card

__all__ = ["HandOutcome", "PotResult", "outcome_from_dict"]


@dataclass
class PotResult:
    """One pot (main pot first, then side pots).

    Attributes:
        amount: chips in the pot.
        eligible: seats that could win it, in seat order.
        winners: seat -> chips won from this pot.
        high, low: for high-low games, seat -> chips of each half (else ``None``).
    """

    amount: int
    eligible: tuple[int, ...]
    winners: dict[int, int]
    high: dict[int, int] | None = None
    low: dict[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """CLI.md form: ``amount``, ``eligible``, ``winners`` (and ``high``/``low``)."""
        out: dict[str, Any] = {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": {str(s): c for s, c in sorted(self.winners.items())},
        }
        if self.high is not None:
            out["high"] = {str(s): c for s, c in sorted(self.high.items())}
        if self.low is not None:
            out["low"] = {str(s): c for s, c in sorted(self.low.items())}
        return out


@dataclass
class HandOutcome:
    """How a hand ended.

    Attributes:
        game: the game's short id.
        pots: each pot with its winners (uncalled bets already returned).
        net: seat -> chips won (+) or lost (-) in the hand, for every dealt-in seat.
        shown: seat -> description of each hand shown at showdown.
        shown_cards: seat -> the cards shown.
        carried: chips carried to the next hand (R-521-9), 0 if none.
        showdown: False when all others folded (R-C-11).
        runs: a hand run twice (issue 27): each run's ``board`` and ``dead``
            cards (text), its ``pots`` (each pot's half, :meth:`PotResult.to_dict`
            form) and ``shown`` (seat -> the shown hand in that run's words);
            ``pots`` are then the sums over both runs. Empty when run once.
    """

    game: str
    pots: list[PotResult]
    net: dict[int, int]
    shown: dict[int, str] = field(default_factory=dict)
    shown_cards: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    carried: int = 0
    showdown: bool = True
    runs: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self, *, cards: bool = False) -> dict[str, Any]:
        """CLI.md ``replay --json`` form: ``game``, ``pots``, ``net``, ``shown``, ``carried``;
        with ``cards`` also ``shown_cards`` (seat -> the cards shown); a hand run
        twice also ``runs`` (see the class)."""
        out: dict[str, Any] = {
            "game": self.game,
            "pots": [p.to_dict() for p in self.pots],
            "net": {str(s): c for s, c in sorted(self.net.items())},
            "shown": {str(s): d for s, d in sorted(self.shown.items())},
            "carried": self.carried,
        }
        if cards:
            out["shown_cards"] = {
                str(s): [str(CARDS[c]) for c in cs] for s, cs in sorted(self.shown_cards.items())
            }
        if self.runs:
            out["runs"] = [dict(r) for r in self.runs]
        return out


def _seat_chips(value: Any, where: str) -> dict[int, int]:
    """A recorded ``{seat: chips}`` table (seats as strings, as TOML keeps them)."""
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a table of seats to chips")
    out: dict[int, int] = {}
    for k, v in value.items():
        if not (isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 2) or \
                isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"{where}: {k!r} = {v!r} is not a seat (0 to 99) and whole chips")
        out[int(k)] = v
    return out


def outcome_from_dict(data: Any) -> HandOutcome:
    """The :class:`HandOutcome` a history records as ``_result`` (the form of
    ``HandOutcome.to_dict(cards=True)``, docs/hand-history.md): what a player's
    own copy says happened, where its hidden cards cannot be replayed (R-C-13).
    ``showdown`` is whether any hand was shown (R-C-11: at a showdown the
    winner's is).

    Raises:
        ValueError: naming the field whose shape is wrong.
    """
    if not isinstance(data, dict):
        raise ValueError("_result must be a table")
    pots: list[PotResult] = []
    raw_pots = data.get("pots", [])
    if not isinstance(raw_pots, list):
        raise ValueError("_result.pots must be a list of pots")
    for i, pot in enumerate(raw_pots):
        where = f"_result.pots[{i}]"
        if not isinstance(pot, dict):
            raise ValueError(f"{where} must be a table")
        amount, eligible = pot.get("amount"), pot.get("eligible")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise ValueError(f"{where}.amount must be whole chips, 0 or more")
        if not isinstance(eligible, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 100
                for s in eligible):
            raise ValueError(f"{where}.eligible must be a list of seats (0 to 99)")
        halves = {half: _seat_chips(pot[half], f"{where}.{half}")
                  for half in ("high", "low") if half in pot}
        pots.append(PotResult(amount, tuple(eligible),
                              _seat_chips(pot.get("winners", {}), f"{where}.winners"),
                              halves.get("high"), halves.get("low")))
    shown_raw = data.get("shown", {})
    if not isinstance(shown_raw, dict) or not all(
            isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 2
            and isinstance(v, str) for k, v in shown_raw.items()):
        raise ValueError("_result.shown must be a table of seats to hand descriptions")
    cards_raw = data.get("shown_cards", {})
    if not isinstance(cards_raw, dict):
        raise ValueError("_result.shown_cards must be a table of seats to cards")
    shown_cards: dict[int, tuple[Card, ...]] = {}
    for k, cs in cards_raw.items():
        if not (isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 2
                and isinstance(cs, list) and all(isinstance(c, str) for c in cs)):
            raise ValueError(f"_result.shown_cards: {k!r} = {cs!r} is not a seat's list of cards")
        shown_cards[int(k)] = tuple(parse_card(c) for c in cs)
    carried = data.get("carried", 0)
    if isinstance(carried, bool) or not isinstance(carried, int) or carried < 0:
        raise ValueError("_result.carried must be whole chips, 0 or more")
    game = data.get("game", "")
    shown = {int(k): v for k, v in shown_raw.items()}
    return HandOutcome(str(game), pots, _seat_chips(data.get("net", {}), "_result.net"),
                       shown, shown_cards, carried, showdown=bool(shown),
                       runs=_runs(data.get("runs", [])))


def _runs(value: Any) -> list[dict[str, Any]]:
    """A recorded ``_result.runs`` (a hand run twice, issue 27): two runs, each
    with ``board`` and ``dead`` (card text), ``pots`` and ``shown``; kept as read."""
    if value == []:
        return []
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("_result.runs must be a list of the two runs of a hand run twice")
    out = []
    for i, run in enumerate(value):
        where = f"_result.runs[{i}]"
        if not isinstance(run, dict):
            raise ValueError(f"{where} must be a table")
        for key in ("board", "dead"):
            cards = run.get(key, [])
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise ValueError(f"{where}.{key} must be a list of cards")
            for c in cards:
                parse_card(c)
        inner = outcome_from_dict({"pots": run.get("pots", []), "shown": run.get("shown", {})})
        out.append({"board": list(run.get("board", [])), "dead": list(run.get("dead", [])),
                    "pots": [p.to_dict() for p in inner.pots],
                    "shown": {str(s): d for s, d in inner.shown.items()}})
    return out
