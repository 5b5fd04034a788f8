"""Reading a PHH hand's amounts, cards and actions, and dealing them
through rollem's engine: the cards the file names, stand-ins where it
hides them (``??``), and the muck of a hand still hidden at the showdown
(issue 29)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from rollem.cards import CARDS, Card, CardError, parse_card
from rollem.engine.decisions import Pending
from rollem.engine.errors import EngineError
from rollem.engine.events import Event
from rollem.engine.forced import Blinds
from rollem.engine.game import Game
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.step import Step
from rollem.phh.variants import PHHError
from rollem.text import ascii_digits

__all__ = [
    "CardPreset",
    "MuckHidden",
    "Parsed",
    "PostAntes",
    "chip_list",
    "chips",
    "parse_actions",
    "phh_cards",
    "phh_game",
    "player",
    "reveal",
]


def chips(value: object, where: str) -> int:
    """A whole number of chips from a PHH amount (an integer, or a decimal
    with no fraction, ``3.0``)."""
    if value is None:
        raise PHHError(f"{where} is missing (a number of chips)")
    if isinstance(value, bool):
        raise PHHError(f"{where} must be a number of chips, got {value!r}")
    if isinstance(value, int):
        chips = value
    elif isinstance(value, Decimal | float):
        if not Decimal(value).is_finite():
            raise PHHError(f"{where} is {value}; rollem replays only known amounts of chips")
        if Decimal(value) != Decimal(value).to_integral_value():
            raise PHHError(f"{where} is {value}: rollem plays whole chips only (an amount "
                           "with a fraction is not replayed)")
        chips = int(value)
    else:
        raise PHHError(f"{where} must be a number of chips, got {str(value)[:40]!r}")
    if chips < 0:
        raise PHHError(f"{where} must be at least 0, got {chips}")
    return chips


def chip_list(data: Mapping[str, Any], name: str, n: int) -> list[int]:
    value = data.get(name)
    if not isinstance(value, list):
        raise PHHError(f"{name} must be a list of chips, one a player")
    if len(value) != n:
        raise PHHError(f"{name} has {len(value)} entries for {n} players (one a player)")
    return [chips(v, f"{name}[{i}]") for i, v in enumerate(value)]


def phh_cards(text: str, where: str) -> list[Card | None]:
    """PHH card text, run together (``Ac2d``, ``????``): ``None`` for ``??``."""
    if len(text) % 2:
        raise PHHError(f"{where}: cards {text[:40]!r} are not two characters each")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        token = text[i:i + 2]
        if token == "??":
            out.append(None)
            continue
        try:
            out.append(parse_card(token))
        except CardError:
            raise PHHError(f"{where}: {token!r} is not a card (rank 2-9TJQKA or ??, "
                           "suit cdhs or ?)") from None
    return out


class CardPreset:
    """Deals the cards a PHH file names, per player and to the board, in
    order; a card it hides (``??``) or leaves out (burns) is a stand-in from
    the cards it does not name, in deck order (when a draw has used them
    all, again any card out of play that the file does not deal later, as
    a reshuffle would)."""

    def __init__(self, seats: dict[int, list[Card | None]], board: list[Card],
                 also: set[Card] | None = None) -> None:
        named = {c for cs in seats.values() for c in cs if c is not None} | set(board)
        named |= also or set()  # cards named elsewhere (discarded): no stand-in
        self.queues: dict[tuple[str, int | None], list[Card | None]] = {
            ("p", s): list(cs) for s, cs in seats.items()}
        self.queues[("db", None)] = list(board)
        self.named = named
        """Every card the file names."""
        self.free: list[Card] | None = None
        """The cards the file does not name, in the game's deck order (on the first take)."""
        self.stand_ins: set[int] = set()
        """The players dealt a stand-in (a card the file hides)."""
        self.stand_in_cards: set[Card] = set()
        """Every stand-in card dealt."""
        self.board_stand_ins = 0
        """Board cards the file does not give, dealt as stand-ins."""

    def take(self, hand: Hand, kind: str, seat: int | None) -> Card:
        key: tuple[str, int | None] = ("db", None) if kind == "board" else (
            ("p", seat) if seat is not None and kind in ("hole", "draw") else (kind, None))
        q = self.queues.get(key)
        card = q.pop(0) if q else None
        if card is None:
            if key[0] == "p" and seat is not None:
                self.stand_ins.add(seat)
            elif key[0] == "db":
                self.board_stand_ins += 1
            if self.free is None:
                self.free = [CARDS[c] for c in hand.game.deck if CARDS[c] not in self.named]
            if not self.free:  # a draw ran the deck out: a card out of play comes back
                out = {c for cs in hand.hole for c in cs} | set(hand.board)
                out |= {c for q in self.queues.values() for c in q if c is not None}
                self.free = [CARDS[c] for c in hand.game.deck if CARDS[c] not in out]
            if not self.free:
                raise EngineError("the stub is empty")
            card = self.free.pop(0)
            self.stand_in_cards.add(card)
        return card


class MuckHidden(Step):
    """Before the showdown: a hand still in that the file mucks (``pN sm``),
    or that holds a card the file hides (a stand-in; in a draw game the
    hidden cards it discarded do not count), is mucked at the showdown, as
    PokerKit treats a muck and a hand shown as ``????``: it stays eligible for
    the pots it paid into (it reached the showdown: not a fold) and wins
    nothing (``Hand.forfeit``, R-C-11). When some pot would then have no contender left, the
    result cannot be told from the file: nothing is mucked and
    :attr:`untold` says why."""

    name = "hidden hands"

    def __init__(self, preset: CardPreset, mucked: set[int]) -> None:
        self.preset = preset
        self.mucked = mucked
        self.untold = ""

    def start(self, hand: Hand) -> Pending | None:
        live = [s for s in range(hand.n) if not hand.folded[s]]
        stand_ins = self.preset.stand_in_cards
        hidden = [s for s in live
                  if any(c in stand_ins for c in hand.hole[s]) or s in self.mucked]
        if not hidden or len(live) < 2:
            return None
        known = [s for s in live if s not in hidden]
        top = max((hand.committed[s] for s in known), default=-1)
        over = [s for s in hidden if hand.committed[s] > top]
        if not known or len(over) > 1:
            who = over[0] if over else hidden[0]
            self.untold = (f"the result depends on cards the file hides or mucks (p{who + 1}'s):"
                           " replayed to the showdown, but who wins cannot be told")
            return None
        hand.forfeit.update(hidden)  # still in: eligible, mucked at the showdown
        return None


class PostAntes(Step):
    """Each player posts its own ante (``antes``, one a seat; a short stack
    all it has), counted in the pots as the player's chips (R-C-5): PHH's
    antes with ``ante_trimming_status = true``, as PokerKit counts them."""

    name = "ante"

    def __init__(self, antes: list[int]) -> None:
        self.antes = antes

    def start(self, hand: Hand) -> Pending | None:
        for s in hand.live_from_left():
            amount = min(self.antes[s], hand.stacks[s])
            if amount:
                hand.stacks[s] -= amount
                hand.committed[s] += amount
                hand.events.append(Event("ante", s, {"amount": amount,
                                                     "all_in": hand.stacks[s] == 0}))
        return None


class ButtonBlind(Blinds):
    """One blind, posted by the button (PHH ``blinds_or_straddles`` with only
    the last player's entry, as short-deck games play with antes): the first
    betting round starts left of the button, who acts last with the option
    to raise, as after a big blind (a short stack posts all it has)."""

    def __init__(self, amount: int) -> None:
        super().__init__(0, amount)

    def start(self, hand: Hand) -> Pending | None:
        seat = hand.button
        chips = min(self.big, hand.stacks[seat])
        hand.stacks[seat] -= chips
        hand.bets[seat] += chips
        hand.committed[seat] += chips
        hand.events.append(Event("blind", seat, {"amount": chips, "blind": "button blind",
                                                 "all_in": hand.stacks[seat] == 0}))
        self.last = seat
        return None


def phh_game(game_id: str, muck: MuckHidden, antes: PostAntes | None,
             button_blind: int = 0) -> Game:
    """The game ``game_id`` with :class:`MuckHidden` before its showdown and,
    where given, :class:`PostAntes` first and a :class:`ButtonBlind` for its
    blinds."""
    from rollem.phh.variants import variant_game

    base = variant_game(game_id)

    def build(options: Options) -> list[Step]:
        steps = base.build(options)
        if button_blind:
            blinds = next(s for s in steps if isinstance(s, Blinds))
            one = ButtonBlind(button_blind)
            steps = [one if s is blinds else s for s in steps]
            for s in steps:  # the first round opens after the forced bets posted
                if getattr(s, "forced", None) is blinds:
                    s.forced = one  # type: ignore[attr-defined]
        at = max(i for i, s in enumerate(steps) if s.name == "showdown")
        first = [antes] if antes is not None else []
        return [*first, *steps[:at], muck, *steps[at:]]

    return replace(base, build=build)


@dataclass
class Parsed:
    deals: dict[int, list[Card | None]]
    board: list[Card]
    shown: dict[int, list[Card | None]]
    actions: list[tuple[int, str, str, int]]  # seat, code, amount text, line
    boards: list[tuple[int, str, int, int]] = field(default_factory=list)
    """Each ``d db`` line: its line number, text, cards, player actions before it."""
    mucked: set[int] = field(default_factory=set)
    """Players who muck at the showdown (``pN sm`` without cards)."""
    discarded: set[Card] = field(default_factory=set)
    """The cards the draws (``pN sd CARDS``) name."""
    revealed: set[Card] = field(default_factory=set)
    """The cards a show tells where the deal hid them (:func:`reveal`)."""


def parse_actions(raw: object, n: int) -> Parsed:
    if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
        raise PHHError("actions must be a list of strings")
    p = Parsed({s: [] for s in range(n)}, [], {}, [])
    for i, line in enumerate(raw, 1):
        words = line.split("#", 1)[0].split()
        where = f"line {i} of actions ({line.strip()[:60]})"
        if not words:
            continue
        if words[0] == "d":
            if len(words) == 3 and words[1] == "db":
                cards = phh_cards(words[2], where)
                if None in cards:
                    raise PHHError(f"{where}: board cards must be known")
                p.board.extend(c for c in cards if c is not None)
                p.boards.append((i, line.strip()[:60], len(cards), len(p.actions)))
                continue
            if len(words) == 4 and words[1] == "dh":
                seat = player(words[2], n, where)
                p.deals[seat].extend(phh_cards(words[3], where))
                continue
            raise PHHError(f"{where}: a dealer action is 'd dh pN CARDS' or 'd db CARDS'")
        seat = player(words[0], n, where)
        code = words[1] if len(words) > 1 else ""
        if code == "sm":
            if len(words) == 3 and words[2] != "-":
                p.shown[seat] = phh_cards(words[2], where)
            elif len(words) == 2:
                p.mucked.add(seat)
            elif len(words) > 3:
                raise PHHError(f"{where}: 'pN sm' takes at most one run of cards")
            continue
        if code in ("f", "cc", "pb") and len(words) == 2:
            p.actions.append((seat, code, "", i))
        elif code == "cbr" and len(words) == 3:
            p.actions.append((seat, code, words[2], i))
        elif code == "sd" and len(words) in (2, 3):  # a draw: the cards discarded
            if len(words) == 3:  # (discarded in the replay)
                p.discarded.update(c for c in phh_cards(words[2], where) if c is not None)
            p.actions.append((seat, code, words[2] if len(words) == 3 else "", i))
        else:
            raise PHHError(f"{where}: not a PHH action (pN f, pN cc, pN cbr AMOUNT, pN pb, "
                           "pN sd [CARDS], pN sm [CARDS])")
    return p


def player(token: str, n: int, where: str) -> int:
    if len(token) < 2 or token[0] != "p" or not ascii_digits(token[1:]):
        raise PHHError(f"{where}: {token[:20]!r} is not a player (p1 to p{n}) or d")
    seat = int(token[1:]) - 1
    if not 0 <= seat < n:
        raise PHHError(f"{where}: no player {token} (p1 to p{n})")
    return seat


def _held_at_end(p: Parsed, seat: int) -> list[int] | None:
    """In a draw game, the positions in ``p.deals[seat]`` of the cards the
    player holds after its draws (``pN sd``), as the replay discards them:
    each named card it holds, and for each ``??`` (or named card it was dealt
    hidden) the first card the file hides, in the order held (a draw's
    replacements go last). ``None``: no draws, or draws that do not add up."""
    draws = [amount for s, code, amount, _ in p.actions if s == seat and code == "sd"]
    if not draws:
        return None
    dealt = p.deals[seat]
    thrown = [phh_cards(text, "a draw") if text else [] for text in draws]
    first = len(dealt) - sum(len(cs) for cs in thrown)
    if first < 0:
        return None
    held, nxt = list(range(first)), first
    for cards in thrown:
        named = [q for q in held if dealt[q] is not None and dealt[q] in cards]
        spare = [q for q in held if dealt[q] is None]
        hidden = len(cards) - len(named)
        if hidden > len(spare):
            return None
        gone = set(named + spare[:hidden])
        held = [q for q in held if q not in gone] + list(range(nxt, nxt + len(cards)))
        nxt += len(cards)
    return held


def reveal(p: Parsed) -> None:
    """Cards a player's show names stand for its hidden (``??``) dealt cards;
    in a draw game, for those it holds after its draws (:func:`_held_at_end`)."""
    for seat, shown in p.shown.items():
        dealt = p.deals[seat]
        if len(shown) != len(dealt):
            end = _held_at_end(p, seat)
            if end is None or len(end) != len(shown):
                continue  # a partial show tells nothing about which card is which
            # the cards shown that it was not dealt face up stand for its hidden ones
            rest = [c for c in shown if c not in {dealt[q] for q in end}]
            hidden = [q for q in end if dealt[q] is None]
            if len(rest) == len(hidden):
                for q, c in zip(hidden, rest, strict=True):
                    dealt[q] = c
                    if c is not None:
                        p.revealed.add(c)
            continue
        for k, (d, s) in enumerate(zip(dealt, shown, strict=True)):
            if d is None and s is not None:
                dealt[k] = s
                p.revealed.add(s)
            elif d is not None and s is not None and d != s:
                raise PHHError(f"p{seat + 1} shows {CARDS[s]} where it was dealt {CARDS[d]}")
