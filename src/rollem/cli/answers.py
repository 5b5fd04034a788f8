"""Reading a player's typed answer at the terminal game's prompts (``rollem play``).

Pure functions, no I/O: :func:`choices_text` lists what a seat may do
(from its :class:`rollem.engine.Legal`), :func:`parse_answer` turns a short
answer into an action or raises :class:`AnswerError` with a message that
says what was wrong and what is allowed.

Short answers (case does not matter):

- betting: ``c`` (check, or call when facing a bet), ``k``/``x`` (check),
  ``f`` (fold), ``b N`` / ``r N`` (bet / raise *to* N chips; the number may be
  left out when only one size is allowed, as in fixed limit);
- discard to the pool, expose, draw, stack: cards as text (``Qh 7c 2d``, also
  ``Q♥``, ``10c``) or by their positions in the list shown (``1 3 4``); a draw
  of nothing is ``p`` (stand pat); a stack may leave out its last card; ``k``
  keeps the current order;
- the wild pick: a pool position ``1`` (the top card) to N;
- declare: ``h`` (high), ``l`` (low), ``b`` (both);
- everywhere: ``?`` (help on this decision), ``t`` (show the table again),
  ``last`` (tell the last hand again), ``q`` (quit).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rollem.cards import CARDS, Card, CardError, format_cards, parse_cards
from rollem.cli.errors import cut
from rollem.engine.actions import (
    Bet,
    Call,
    Check,
    Declare,
    Discard,
    Draw,
    Expose,
    Fold,
    PickWild,
    Raise,
    Stack,
)
from rollem.engine.decisions import Legal
from rollem.rules.game_help import HELP_KIND, decision_kind

__all__ = [
    "HELP_KIND",
    "AnswerError",
    "Command",
    "choices_text",
    "decision_kind",
    "numbered",
    "parse_answer",
    "parse_cards_answer",
    "parse_game_choice",
]


class AnswerError(ValueError):
    """An answer that cannot be used; the message says why and what is allowed."""


@dataclass(frozen=True)
class Command:
    """A prompt command rather than an action: ``"quit"``, ``"help"`` or ``"table"``."""

    name: str


QUIT = Command("quit")
HELP = Command("help")
TABLE = Command("table")
LAST = Command("last")

_COMMANDS = {
    "q": QUIT, "quit": QUIT, "exit": QUIT,
    "?": HELP, "help": HELP,
    "t": TABLE, "table": TABLE,
    "last": LAST,
}  # fmt: skip

_BETTING = ("fold", "check", "call", "bet", "raise")
_BETTING_WORDS = frozenset(("c", "call", "check", "k", "x", "f", "fold", "b", "bet", "r", "raise"))
"""Words that answer a betting decision (``c`` checks or calls everywhere): typed
at a card choice, the refusal says what is asked instead of "bad card 'c'"."""
_CARD_CHOICES = ("discard", "expose", "draw", "stack")
_SIDES = {"h": "high", "high": "high", "l": "low", "low": "low", "b": "both", "both": "both"}


_WHOLE = re.compile(r"[0-9]{1,15}")
"""A count typed at a prompt: ASCII digits only (Python's int() also reads "３",
"1_0" and "+3"; the terminal refuses those with a clear message)."""


def _whole(text: str) -> int | None:
    """``text`` as a whole number if it is ASCII digits only, else ``None``."""
    return int(text) if _WHOLE.fullmatch(text) else None


_DIGITS = re.compile(r"[0-9]+")


def _at_most(text: str, most: int) -> int | None:
    """``text`` (ASCII digits only, any length) as a whole number when it is at
    most ``most``; a number with more digits than ``most`` as ``most + 1`` (too
    many, so refused by its range, never converted whole: a 5,000-digit answer
    is beyond ``int()``'s limit); ``None`` if ``text`` is not all digits."""
    if not _DIGITS.fullmatch(text):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(most)) else most + 1


def _size(legal: Legal) -> str:
    return str(legal.min_to) if legal.min_to == legal.max_to else f"{legal.min_to}..{legal.max_to}"


def _count(legal: Legal) -> str:
    lo, hi = legal.min_count, legal.max_count
    n = str(hi) if lo == hi else f"{lo} to {hi}"
    return f"{n} card" + ("" if hi == 1 else "s")


def numbered(cards: Sequence[str]) -> str:
    """``1:Qh 2:7c 3:2d``: cards with the positions an answer may use."""
    return " ".join(f"{i}:{c}" for i, c in enumerate(cards, 1))


def _turn_up_positions(legal: Legal, held: Sequence[Card] | None) -> dict[int, Card] | None:
    """A card to turn up (Roll Your Own, 5-2-1) by its place in the seat's whole row
    as the table shows it, the cards already up counted (``2:Qd 3:2s 4:3h`` beside
    ``8s`` up: the web table's keys 2-4; stop 54: the terminal counted the down
    cards only, ``1:Qd``); ``None`` for other decisions or without ``held``."""
    if "expose" not in legal.actions or not held or \
            not set(legal.cards) <= set(held):
        return None
    return {i: c for i, c in enumerate(held, 1)}


def choices_text(legal: Legal, show: Sequence[str] | None = None,
                 held: Sequence[Card] | None = None) -> str:
    """What the seat may answer, with amounts, e.g. ``c = call 4, r 8 = raise to 8, f = fold``.

    ``show``: how to print ``legal.cards`` (default: their short text); cards
    are numbered (``1:Qh 2:7c``) so an answer may give positions. ``held``: the
    seat's cards in the order the table shows them; a card to turn up is numbered
    by its place there (``2:Qd 3:2s``, the card already up being 1), as
    :func:`parse_answer` reads it.
    """
    words = list(show) if show is not None else [str(c) for c in legal.cards]
    cards = numbered(words)
    places = _turn_up_positions(legal, held)
    if places is not None:
        shown = dict(zip(legal.cards, words, strict=True))
        cards = " ".join(f"{i}:{shown[c]}" for i, c in places.items() if c in shown)
    parts: list[str] = []
    acts = legal.actions
    if "check" in acts:
        parts.append("c = check")
    # at a stud bring-in the call posts the bring-in and the bet (or, facing the
    # bring-in, the raise) completes it to the full bet (Legal.forced)
    if "call" in acts:
        word = "bring in for" if legal.forced == "bring-in" else "call"
        parts.append(f"c = {word} {legal.call_amount}")
    if "bet" in acts:
        word = "complete to" if legal.forced else "bet"
        parts.append(f"b {_size(legal)} = {word} {_size(legal)}")
    if "raise" in acts:
        word = "complete to" if legal.forced else "raise to"
        parts.append(f"r {_size(legal)} = {word} {_size(legal)}")
    if "fold" in acts:
        parts.append("f = fold")
    if "discard" in acts:
        where = "in the pool" if legal.into_pool else "away, out of play"
        parts.append(f"put {_count(legal)} {where}, from {cards}")
    if "expose" in acts:
        parts.append(f"turn up 1 card, from {cards}")
    if "draw" in acts:
        parts.append(f"throw away {_count(legal)} (p = stand pat), from {cards}")
    if "wild" in acts:
        parts.append(f"pick the wild card: a pool card by position, 1 (the top) to "
                     f"{legal.positions}; its rank will be wild")
    if "stack" in acts:
        parts.append(f"order all {len(legal.cards)} cards, top first (k = keep as dealt, "
                     f"the order listed), from {cards}")
    if "declare" in acts:
        parts.append(", ".join(f"{s[0]} = {s}" for s in legal.sides))
    return ", ".join(parts)


def _cards_from(text: str, legal: Legal, up: Collection[Card] = ()) -> list[Card]:
    tokens = text.replace(",", " ").split()
    n = len(legal.cards)
    positions = [_at_most(t, n) for t in tokens]
    if tokens and all(p is not None for p in positions):
        wrong = [t for t, p in zip(tokens, positions, strict=True) if not 1 <= (p or 0) <= n]
        if wrong:
            raise AnswerError(f"{cut(' '.join(wrong), 60)}: positions go from 1 to {n} "
                              f"({numbered([str(c) for c in legal.cards])})")
        chosen = [CARDS[legal.cards[(p or 0) - 1]] for p in positions]
        if len(set(chosen)) != len(chosen):
            raise AnswerError("a position is given twice; each card once")
        return chosen
    try:
        cards = parse_cards(text)
    except CardError as err:
        k = max(1, min(legal.max_count or 1, 2, len(legal.cards)))
        example = " ".join(str(i) for i in range(1, k + 1))
        raise AnswerError(
            f"{err}; choose from your cards {format_cards(legal.cards)}, by name "
            f"({format_cards(legal.cards[:k])}) or by position ({example})"
        ) from None
    allowed = set(legal.cards)
    bad = [c for c in cards if c not in allowed]
    shown = [c for c in bad if c in up]
    if shown:  # (issue 33: it is yours, but already turned up)
        raise AnswerError(
            f"{format_cards(shown)} {'is' if len(shown) == 1 else 'are'} already face up; "
            f"choose from {format_cards(legal.cards)}"
        )
    if bad:
        raise AnswerError(
            f"{format_cards(bad)} {'is' if len(bad) == 1 else 'are'} not among your cards "
            f"to choose from: {format_cards(legal.cards)}"
        )
    return cards


def parse_cards_answer(text: str, legal: Legal) -> list[Card]:
    """Cards named in ``text`` (as text or by position in ``legal.cards``).

    Raises:
        AnswerError: a bad card, a card not among ``legal.cards``, a bad position.
    """
    return _cards_from(text, legal)


def parse_show_answer(text: str, legal: Legal, held: Sequence[Card]) -> list[Card]:
    """Cards to show by choice after the hand (R-C-11) named in ``text``: by name, or
    by position in ``held`` (the seat's hole cards in the order it holds them, as
    the table draws them: ``1`` is always the first, shown or not, so a number
    names the same card before and after a show of some).  ``legal`` is the
    ``"show"`` decision (``legal.cards``: those not shown yet).

    Raises:
        AnswerError: a bad card or position, a card not the seat's, one already
            shown (naming those still to show, with their positions).
    """
    tokens = text.replace(",", " ").split()
    n = len(held)
    positions = [_at_most(t, n) for t in tokens]
    if not tokens or not all(p is not None for p in positions):
        return parse_cards_answer(text, legal)
    left = set(legal.cards)
    still = " ".join(f"{i}:{CARDS[c]}" for i, c in enumerate(held, 1) if c in left)
    wrong = [t for t, p in zip(tokens, positions, strict=True) if not 1 <= (p or 0) <= n]
    if wrong:
        raise AnswerError(f"{cut(' '.join(wrong), 60)}: positions go from 1 to {n} "
                          f"({numbered([str(CARDS[c]) for c in held])}); still to show: {still}")
    chosen = [CARDS[held[(p or 0) - 1]] for p in positions]
    if len(set(chosen)) != len(chosen):
        raise AnswerError("a position is given twice; each card once")
    shown = [f"{p}:{c}" for p, c in zip(positions, chosen, strict=True) if c not in left]
    if shown:
        raise AnswerError(f"{' '.join(shown)} {'is' if len(shown) == 1 else 'are'} already "
                          f"shown; still to show: {still}")
    return chosen


def _amount(word: str, rest: str, legal: Legal) -> int:
    if not rest:
        if legal.min_to == legal.max_to:
            return legal.min_to
        raise AnswerError(f"say how much: {word} {legal.min_to}..{legal.max_to} "
                          f"(your total bet this round)")
    amount = _at_most(rest, legal.max_to)
    if amount is None:
        raise AnswerError(f"{rest!r} is not a number of chips (digits 0-9): "
                          f"{word} {_size(legal)}")
    if not legal.min_to <= amount <= legal.max_to:
        said = amount if amount <= legal.max_to else cut(rest, 60)
        raise AnswerError(f"{said} is not allowed: {word} {_size(legal)} "
                          f"(your total bet this round)")
    return amount


def _betting(word: str, rest: str, legal: Legal, raw: str = "") -> object:
    """A betting answer (``word`` and ``rest``: lower case); ``raw``: as typed, echoed
    in a refusal (default: ``word rest``)."""
    acts = legal.actions
    if word in ("c", "call", "check", "k", "x") and not rest:
        if word in ("c",):
            return Call() if "call" in acts else Check()
        if word == "call":
            if "call" in acts:
                return Call()
            raise AnswerError("there is no bet to call: c = check")
        if "check" in acts:
            return Check()
        raise AnswerError(f"you cannot check, there is {legal.call_amount} to call: "
                          f"c = call, f = fold")
    if word in ("f", "fold") and not rest:
        if "fold" in acts:
            return Fold()
        raise AnswerError("nobody has bet: there is nothing to fold to, c = check")
    if word in ("b", "bet", "r", "raise"):
        if "bet" in acts:
            return Bet(_amount("b", rest, legal))
        if "raise" in acts:
            if word in ("b", "bet"):  # there is a bet already (issue 33): a bet is a raise
                amount = _at_most(rest, legal.max_to) if rest else None
                if amount is None or not legal.min_to <= amount <= legal.max_to:
                    raise AnswerError(
                        f"there is a bet already ({legal.call_amount} to call): r "
                        f"{_size(legal)} raises (your total bet this round), c calls, "
                        "f folds")
                return Raise(amount)
            return Raise(_amount("r", rest, legal))
        raise AnswerError("no more raises are allowed now: " + choices_text(legal))
    raise AnswerError(f"{' '.join((raw or word + ' ' + rest).split())!r} is not an answer "
                      "here: " + choices_text(legal))


def _turn_up_answer(text: str, legal: Legal, places: dict[int, Card]) -> Card | None:
    """The card an answer of one position names among ``places`` (the seat's whole
    row, :func:`_turn_up_positions`); ``None`` if ``text`` is not one number.

    Raises:
        AnswerError: a position off the row, or that of a card already face up.
    """
    tokens = text.replace(",", " ").split()
    n = len(places)
    positions = [_at_most(t, n) for t in tokens]
    down = [(i, c) for i, c in places.items() if c in legal.cards]
    left = " ".join(f"{i}:{CARDS[c]}" for i, c in down)
    if not tokens or not all(p is not None for p in positions):
        try:
            parse_cards(text)
        except CardError as err:  # (the example position is the row's, as listed)
            raise AnswerError(f"{err}; choose from your cards {left}, by name "
                              f"({CARDS[down[0][1]]}) or by position ({down[0][0]})") from None
        return None
    if len(tokens) != 1:
        raise AnswerError(f"turn up exactly one card, from {left}")
    p = positions[0] or 0
    if not 1 <= p <= n:
        raise AnswerError(f"{cut(tokens[0], 60)}: positions go from 1 to {n} "
                          f"({numbered([str(CARDS[c]) for c in places.values()])}); "
                          f"choose from {left}")
    if places[p] not in legal.cards:
        raise AnswerError(f"{p}:{CARDS[places[p]]} is already face up; choose from {left}")
    return places[p]


def parse_answer(text: str, legal: Legal, up: Collection[Card] = (),
                 held: Sequence[Card] | None = None) -> object:
    """Turn a typed answer into an action for ``legal`` (or a :class:`Command`);
    ``up``: the seat's cards already face up (named in a refusal); ``held``: the
    seat's cards in the order the table shows them (a card to turn up is given by
    its place there, as :func:`choices_text` numbers it; else by its place in
    ``legal.cards``).

    Raises:
        AnswerError: the answer cannot be used here; the message says why and what
            is allowed.
    """
    raw = text.strip()
    low = raw.lower()
    if low in _COMMANDS:
        return _COMMANDS[low]
    if not raw:
        raise AnswerError("please answer: " + choices_text(legal, held=held))
    acts = legal.actions
    if any(a in _BETTING for a in acts):
        word, _, rest = low.partition(" ")
        return _betting(word, rest.strip(), legal, raw)
    if "declare" in acts:
        side = _SIDES.get(low)
        if side is None or side not in legal.sides:
            raise AnswerError(f"{raw!r} is not a declaration: "
                              + ", ".join(f"{s[0]} = {s}" for s in legal.sides))
        return Declare(side)
    if "wild" in acts:
        pos = _whole(raw) or 0
        if not 1 <= pos <= legal.positions:
            raise AnswerError(f"{raw!r} is not a pool position: pick 1..{legal.positions} "
                              f"(1 = the top card)")
        return PickWild(pos - 1)
    if "draw" in acts and low in ("p", "pat", "-", "0", "none", "stand pat"):
        if legal.min_count > 0:
            raise AnswerError(f"you must throw away {_count(legal)}")
        return Draw(())
    if "stack" in acts and low in ("k", "keep"):
        return Stack(tuple(legal.cards))
    first_word = low.split()[0] if low.split() else ""
    if ("draw" in acts and first_word in ("p", "pat")) or ("stack" in acts
                                                         and first_word in ("k", "keep")):
        # "p 1" was refused as "bad card 'p'" (s69-newcomer): say what p (k) is
        alone = "p alone stands pat" if "draw" in acts else "k alone keeps them as dealt"
        raise AnswerError(f"{cut(raw, 60)!r}: {alone}; else give only the cards: "
                          f"{choices_text(legal, held=held)}")
    places = _turn_up_positions(legal, held)
    if low.split()[0] in _BETTING_WORDS and any(a in _CARD_CHOICES for a in acts):
        first = next(((i, c) for i, c in (places or {}).items() if c in legal.cards),
                     (1, legal.cards[0]))
        n = len(legal.cards)
        order = " ".join(map(str, [2, 1, *range(3, n + 1)]))
        how = (f"Give them in order, top first, such as {order}"
               if "stack" in acts and n >= 2 else
               f"Name a card such as {CARDS[first[1]]} (or its number, {first[0]})")
        raise AnswerError(f"{cut(raw, 60)!r} answers a bet; this is a card choice: "
                          f"{choices_text(legal, held=held)}. {how}, or ? for help")
    if places is not None and (card := _turn_up_answer(raw, legal, places)) is not None:
        return Expose(card)
    cards = _cards_from(raw, legal, up)
    if "discard" in acts:
        if not legal.min_count <= len(cards) <= legal.max_count:
            where = "in the pool" if legal.into_pool else "away"
            raise AnswerError(f"put exactly {_count(legal)} {where}, from "
                              f"{format_cards(legal.cards)}; you gave {len(cards)}")
        return Discard(tuple(cards))
    if "expose" in acts:
        if len(cards) != 1:
            raise AnswerError(f"turn up exactly one card, from {format_cards(legal.cards)}")
        return Expose(cards[0])
    if "draw" in acts:
        if not legal.min_count <= len(cards) <= legal.max_count:
            raise AnswerError(f"throw away {_count(legal)} (p = stand pat); "
                              f"you gave {len(cards)}")
        return Draw(tuple(cards))
    if "stack" in acts:
        left = [c for c in legal.cards if c not in cards]
        if len(left) == 1:
            cards.append(left[0])
        elif left:
            n = len(legal.cards)
            raise AnswerError(f"give the order of all {n} cards, top first: by position "
                              f"({' '.join(str(i) for i in range(n, 0, -1))}) or as cards "
                              f"({format_cards(legal.cards)}); k keeps them as dealt; you gave "
                              f"{len(cards)}")
        return Stack(tuple(cards))
    raise AnswerError(f"this decision ({legal.kind}) cannot be made from the terminal yet")


def parse_game_choice(text: str, games: Sequence[str],
                      unfit: Sequence[tuple[str, str]] = ()) -> str | Command:
    """The game picked by an answer: its number in ``games`` (1..), its id or an
    id's unique prefix; or a :class:`Command`. ``unfit``: ``(id, why)`` of the
    games offered that do not fit the players dealt in (R-C-12), so that
    naming one says why it is not among ``games``.

    Raises:
        AnswerError: naming the games allowed.
    """
    raw = text.strip().lower()
    if raw in _COMMANDS:
        return _COMMANDS[raw]
    number = _whole(raw)
    if number is not None and 1 <= number <= len(games):
        return games[number - 1]
    hits = [g for g in games if g.startswith(raw)] if raw else []
    if len(hits) == 1:
        return hits[0]
    listed = ", ".join(f"{i} = {g}" for i, g in enumerate(games, 1))
    if not raw:  # (s62-term: it read "'' is not one of the games")
        raise AnswerError(f"please answer with a game's number or name: {listed}")
    named = [(g, why) for g, why in unfit if g.startswith(raw)] if raw and not hits else []
    if len(named) == 1:  # (it said only "'rolly' is not one of the games")
        raise AnswerError(f"{named[0][0]} {named[0][1]}: {listed}")
    raise AnswerError(f"{text.strip()!r} is not one of the games: {listed}")
