"""Actions a seat can take: small frozen dataclasses, plus their text form.

Betting (R-C-5..R-C-7): :class:`Fold`, :class:`Check`, :class:`Call`,
:class:`Bet` (``amount`` = the seat's total bet in this round),
:class:`Raise` (``to`` = the seat's total bet in this round after raising).

Other games: :class:`Discard` (to the pool, R-RYO-2), :class:`Expose`
(R-RYO-3), :class:`Draw` (discard these and be dealt replacements, R-521-2),
:class:`PickWild` (a pool position, R-RYO-7), :class:`Stack` (an order,
R-521-6), :class:`Declare` (``"high"``, ``"low"`` or ``"both"``, R-521-8).

Run it twice (issue 27): :class:`RunTwice` (agree or not).

After the hand: :class:`Show` (show some or all of one's cards by choice,
R-C-11; changes no result).

Text form (hand histories, PHH-like): ``f``, ``cc`` (check or call),
``cbr 12`` (bet or raise to 12), ``dis Qs 7d 2c``, ``exp Kc``, ``sd 5c``
(PHH's stand pat or draw: discard these and draw as many; empty = stand
pat; ``draw 5c`` is read too, as format version 1 wrote it), ``wild 3``,
``stack Kc 7s 2d 9h Ac``, ``decl both``, ``rit yes`` / ``rit no``, ``sm QsQd`` (show by choice after
the hand; PHH's show).
Use :func:`action_to_text` / :func:`action_from_text`; a game module can add
its own action type with :func:`register_action`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rollem.cards import Card, CardError, format_cards, parse_cards

__all__ = [
    "Action",
    "Bet",
    "Call",
    "Check",
    "Declare",
    "Discard",
    "Draw",
    "Expose",
    "Fold",
    "PickWild",
    "Raise",
    "RunTwice",
    "Show",
    "Stack",
    "action_from_text",
    "action_to_text",
    "action_words",
    "register_action",
]


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the hand (whenever it is the seat's turn to bet, even when it
    could check, R-C-6)."""


@dataclass(frozen=True, slots=True)
class Check:
    """Pass without betting (only when nothing is owed)."""


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet (or go all-in for less)."""


@dataclass(frozen=True, slots=True)
class Bet:
    """Open the betting in a round; ``amount`` chips (the seat's round total)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Raise:
    """Raise to ``to`` chips: the seat's total bet in this round afterwards."""

    to: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Put these cards face down into the common pool (R-RYO-2)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Expose:
    """Turn this down card face up (R-RYO-3, R-RYO-5)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Draw:
    """Discard these cards and be dealt as many replacements (R-521-2); () = stand pat."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PickWild:
    """Pick the pool card at ``position`` (0 = top) to set the wild rank (R-RYO-7)."""

    position: int


@dataclass(frozen=True, slots=True)
class Stack:
    """The order the seat's five cards will be rolled up, top first (R-521-6)."""

    order: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare ``"high"``, ``"low"`` or ``"both"`` (R-521-8)."""

    side: str


@dataclass(frozen=True, slots=True)
class RunTwice:
    """Agree (``True``) or not to run the rest of the board twice (issue 27,
    :mod:`rollem.engine.runtwice`)."""

    agree: bool


@dataclass(frozen=True, slots=True)
class Show:
    """Show these of one's own cards to the table once the hand is over
    (R-C-11, by choice; all of them or some; changes no result)."""

    cards: tuple[Card, ...]


Action = (
    Fold | Check | Call | Bet | Raise | Discard | Expose | Draw | PickWild | Stack | Declare
    | RunTwice | Show
)
"""Any action of the built-in games (games may register more types)."""

_TO_TEXT: dict[type, Callable[[object], str]] = {}
_FROM_TEXT: dict[str, Callable[[str], object]] = {}


def register_action(
    cls: type, code: str, to_text: Callable[[object], str], from_text: Callable[[str], object]
) -> None:
    """Register the text form of an action type: ``code`` then ``to_text(action)``.

    ``from_text`` receives the text after the code (possibly empty).
    """
    _TO_TEXT[cls] = lambda a: (code + " " + to_text(a)).rstrip()
    _FROM_TEXT[code] = from_text


def _phh(cards: tuple[Card, ...]) -> str:
    """Cards concatenated, as PHH writes them (``QsQd``)."""
    return "".join(str(c) for c in cards)


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text)) if text.strip() else ()


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected a whole number of chips, got {text!r}") from None


register_action(Fold, "f", lambda a: "", lambda t: Fold())
register_action(Check, "cc", lambda a: "", lambda t: Check())
register_action(Call, "cc", lambda a: "", lambda t: Call())
register_action(Bet, "cbr", lambda a: str(a.amount), lambda t: Bet(_int(t)))  # type: ignore[attr-defined]
register_action(Raise, "cbr", lambda a: str(a.to), lambda t: Raise(_int(t)))  # type: ignore[attr-defined]
register_action(
    Discard, "dis", lambda a: format_cards(a.cards), lambda t: Discard(_cards(t))  # type: ignore[attr-defined]
)
register_action(
    Expose, "exp", lambda a: str(a.card), lambda t: Expose(_one(t))  # type: ignore[attr-defined]
)
register_action(
    Draw, "sd", lambda a: _phh(a.cards), lambda t: Draw(_cards(t))  # type: ignore[attr-defined]
)
_FROM_TEXT["draw"] = lambda t: Draw(_cards(t))  # format version 1
register_action(Show, "sm", lambda a: _phh(a.cards), lambda t: Show(_cards(t)))  # type: ignore[attr-defined]
register_action(
    PickWild, "wild", lambda a: str(a.position), lambda t: PickWild(_int(t))  # type: ignore[attr-defined]
)
register_action(
    Stack, "stack", lambda a: format_cards(a.order), lambda t: Stack(_cards(t))  # type: ignore[attr-defined]
)
register_action(Declare, "decl", lambda a: a.side, lambda t: Declare(t.strip()))  # type: ignore[attr-defined]


def _yes_no(text: str) -> RunTwice:
    word = text.strip()
    if word not in ("yes", "no"):
        raise ValueError(f"expected rit yes or rit no, got {text!r}")
    return RunTwice(word == "yes")


register_action(RunTwice, "rit", lambda a: "yes" if a.agree else "no", _yes_no)  # type: ignore[attr-defined]


def _one(text: str) -> Card:
    cards = _cards(text)
    if len(cards) != 1:
        raise CardError(f"expected exactly one card, got {text!r}")
    return cards[0]


def action_to_text(action: object) -> str:
    """The text form of ``action`` (without the seat), e.g. ``"cbr 12"``.

    Raises:
        ValueError: for an unregistered action type.
    """
    fn = _TO_TEXT.get(type(action))
    if fn is None:
        raise ValueError(f"no text form for {action!r}")
    return fn(action)


def _cards_words(cards: object) -> str:
    try:
        return format_cards(cards) if cards else "no cards"  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError, KeyError):
        return repr(cards)


def action_words(action: object) -> str:
    """``action`` in a player's words, for the refusals the engine raises (a web
    player reads them), e.g. ``"bet 1000"``, ``"raise to 8"``, ``"discard Ah Kd
    2c"``, ``"pick pool card 99 (position)"``, ``"declare high"``; an action of an
    unknown type, or with a malformed value, falls back to its ``repr``."""
    words: dict[type, Callable[[Any], str]] = {
        Fold: lambda a: "fold", Check: lambda a: "check", Call: lambda a: "call",
        Bet: lambda a: f"bet {a.amount}", Raise: lambda a: f"raise to {a.to}",
        Discard: lambda a: f"put {_cards_words(a.cards)} in the pool",
        Expose: lambda a: f"turn up {_cards_words((a.card,))}",
        Draw: lambda a: f"draw, discarding {_cards_words(a.cards)}" if a.cards else "stand pat",
        PickWild: lambda a: f"pick the pool card at position {a.position}",
        Stack: lambda a: f"stack {_cards_words(a.order)}",
        Declare: lambda a: f"declare {a.side}",
        RunTwice: lambda a: "agree to run it twice" if a.agree is True else
        ("decline to run it twice" if a.agree is False else repr(a)),
        Show: lambda a: f"show {_cards_words(a.cards)}",
    }
    fn = words.get(type(action))
    return fn(action) if fn is not None else repr(action)


def action_from_text(text: str) -> object:
    """Parse an action's text form (without the seat).

    ``cc`` reads as :class:`Call`, ``cbr N`` as :class:`Raise`; the engine's
    :meth:`Hand.apply` accepts them for check and bet too when
    ``lenient=True`` (as replay does).

    Raises:
        ValueError: (or :class:`CardError`) naming the bad text and the codes allowed.
    """
    code, _, rest = text.strip().partition(" ")
    fn = _FROM_TEXT.get(code)
    if fn is None:
        allowed = ", ".join(sorted(_FROM_TEXT))
        raise ValueError(f"unknown action {text!r}: expected one of {allowed}")
    return fn(rest)
