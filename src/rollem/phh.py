"""Standard Poker Hand History (PHH, phh-std 0.0.2) in and out (issue 29).

rollem's own histories (:mod:`rollem.history`) are a PHH *dialect*
(``variant = "rollem-<game>"``, burn lines, seat 0 as ``p1`` with the
button in ``_button``) that PokerKit cannot replay, and a standard PHH file
is not a rollem history. This module translates:

- :func:`replay_phh`: a standard PHH hand (a TOML table as PokerKit's
  ``HandHistory`` reads it) played through rollem's engine, for the variant
  codes rollem plays (:data:`VARIANTS`); :func:`read_phhs` splits a ``.phhs``
  file (several hands, one TOML table each) into its hands.
- :func:`phh_dict` / :func:`write_phh`: a hand rollem played, as standard
  PHH that PokerKit's ``HandHistory.loads`` replays to the same finishing
  stacks (the standard games with a PHH variant code, :data:`CODES`).

PHH's seat order: players are numbered from the left of the button, the
button last (``p1`` is the first player dealt, the small blind in a blind
game); rollem's seat ``s`` is ``p{s+1}`` with the button anywhere. So a
PHH hand is played with PHH player ``i`` in rollem seat ``i`` and the button
at the last seat, and an exported hand numbers rollem's dealt-in seats from
the button's left.

Antes follow PokerKit (``ante_trimming_status`` false, PHH's default): every
ante is dead money in the main pot (equal antes, a big-blind ante, a button
ante), so they are taken from the stacks before the deal and put in the main
pot (:class:`~rollem.engine.hand.Hand`'s ``carry_in``). Exports write equal
antes with ``ante_trimming_status = true``: PokerKit then counts them as
rollem's engine does (R-C-5: a short stack's ante is all it has, and side
pots are made over it).

Chips are whole numbers: an amount with a fraction (``0.5``) is refused.
Every refusal is a :class:`PHHError` with one line naming the field or the
action.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import tomli_w

from rollem.cards import CARDS, Card, CardError, parse_card
from rollem.engine.actions import Bet, Call, Check, Fold, Raise
from rollem.engine.decisions import Pending
from rollem.engine.errors import EngineError
from rollem.engine.events import Event
from rollem.engine.forced import Blinds, BringIn
from rollem.engine.game import Game
from rollem.engine.hand import Hand
from rollem.engine.options import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, Options
from rollem.engine.step import Step

__all__ = [
    "CODES",
    "NOT_PLAYED",
    "VARIANTS",
    "PHHError",
    "PHHHand",
    "copy_phh_dict",
    "phh_dict",
    "read_phh",
    "read_phhs",
    "replay_phh",
    "write_phh",
    "write_phhs",
]

FL_HOLDEM_CAPS = (4, 3, 3, 3)
"""Fixed-limit hold'em raises after the bet per round as PokerKit plays FT:
four raises over the big blind before the flop, three after."""


@dataclass(frozen=True)
class Variant:
    """A PHH variant code rollem plays: the game, its betting structure and
    the fixed-limit raise caps (``None``: the game's own). ``min_bet``: the
    file states ``min_bet`` (NT, PO), else ``small_bet`` and ``big_bet``."""

    code: str
    game: str
    structure: str
    caps: tuple[int, ...] | None = None
    min_bet: bool = False


VARIANTS: dict[str, Variant] = {
    "FT": Variant("FT", "holdem", FIXED_LIMIT, FL_HOLDEM_CAPS),
    "NT": Variant("NT", "holdem", NO_LIMIT, min_bet=True),
    "PO": Variant("PO", "omaha", POT_LIMIT, min_bet=True),
    # PokerKit 0.7 plays FO/8 pot limit (its class takes the small and big
    # bet but mixes in pot-limit betting); rollem follows PokerKit so that
    # both replay a file to the same stacks (tests/pokerkit_diff.py)
    "FO/8": Variant("FO/8", "omaha8", POT_LIMIT),
    "F7S": Variant("F7S", "stud", FIXED_LIMIT),
    "F7S/8": Variant("F7S/8", "stud8", FIXED_LIMIT),
    "FR": Variant("FR", "razz", FIXED_LIMIT),
}
"""The PHH variant codes rollem plays."""

NOT_PLAYED: dict[str, str] = {
    "NS": "no-limit short-deck hold'em",
    "N2L1D": "no-limit deuce-to-seven lowball single draw",
    "F2L3D": "fixed-limit deuce-to-seven lowball triple draw",
    "FB": "fixed-limit badugi",
}
"""The phh-std 0.0.2 variant codes rollem has no game for."""

CODES: dict[tuple[str, str], str] = {
    **{(v.game, v.structure): v.code for v in VARIANTS.values() if v.code != "FO/8"},
    # FO/8 is fixed limit in phh-std; PokerKit's pot-limit reading replays a
    # fixed-limit hand's actions to the same stacks (each is legal there too)
    ("omaha8", FIXED_LIMIT): "FO/8",
}
"""(game id, structure) -> PHH variant code, for export."""

MAX_HANDS = 10_000
"""Most hands read from one ``.phhs`` file."""


class PHHError(ValueError):
    """A PHH file rollem cannot read or replay, or a hand it cannot write as
    PHH; the message is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split())[:300])


# ---------------------------------------------------------------- reading


def _chips(value: object, where: str) -> int:
    """A whole number of chips from a PHH amount (an integer, or a decimal
    with no fraction, ``3.0``)."""
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


def _chip_list(data: Mapping[str, Any], name: str, n: int) -> list[int]:
    value = data.get(name)
    if not isinstance(value, list):
        raise PHHError(f"{name} must be a list of chips, one a player")
    if len(value) != n:
        raise PHHError(f"{name} has {len(value)} entries for {n} players (one a player)")
    return [_chips(v, f"{name}[{i}]") for i, v in enumerate(value)]


def _cards(text: str, where: str) -> list[Card | None]:
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


@dataclass
class PHHHand:
    """A standard PHH hand replayed by rollem.

    Attributes:
        variant: the PHH variant code.
        hand: the engine's hand (PHH player ``i`` is seat ``i``, the button
            the last seat; antes are in the main pot as ``carry_in``, so its
            ``start_stacks`` are the PHH stacks less the antes).
        starting_stacks: the file's starting stacks, in PHH player order.
        finishing_stacks: each player's chips after the hand (``None`` when
            the actions stop before the end of the hand).
        players: the names (``players``), else ``p1``, ``p2`` ...
        antes: the ante each player posted (heads-up, PHH's ``antes``
            reversed, as PHH says).
        unknown: seats whose cards the file does not tell (``??``) and that
            rollem played with stand-in cards.
        fields: the file's other fields, kept as they were.
    """

    variant: str
    hand: Hand
    starting_stacks: list[int]
    finishing_stacks: list[int] | None
    players: list[str]
    antes: list[int]
    unknown: set[int] = field(default_factory=set)
    fields: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``rollem replay FILE.phh --json``: ``variant``, ``game``, ``players``,
        ``starting_stacks``, ``finishing_stacks`` (PHH player order), and the
        engine's ``pots``/``shown``/``net`` by seat (= PHH player index)."""
        out: dict[str, Any] = {
            "variant": self.variant,
            "game": self.hand.game.id,
            "players": self.players,
            "starting_stacks": self.starting_stacks,
            "finishing_stacks": self.finishing_stacks,
        }
        r = self.hand.result
        if r is not None:
            d = r.to_dict()
            out["pots"] = d["pots"]
            out["shown"] = d["shown"]
            out["net"] = {str(i): f - s for i, (f, s) in enumerate(
                zip(self.finishing_stacks or [], self.starting_stacks, strict=True))}
        return out


class _Preset:
    """Deals the cards a PHH file names, per player and to the board, in
    order; a card it hides (``??``) or leaves out (burns) is a stand-in from
    the cards it does not name, in deck order."""

    def __init__(self, seats: dict[int, list[Card | None]], board: list[Card]) -> None:
        named = {c for cs in seats.values() for c in cs if c is not None} | set(board)
        self.queues: dict[tuple[str, int | None], list[Card | None]] = {
            ("p", s): list(cs) for s, cs in seats.items()}
        self.queues[("db", None)] = list(board)
        self.free = [c for c in CARDS if c not in named]
        self.stand_ins: set[int] = set()
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
            if not self.free:
                raise EngineError("the stub is empty")
            card = self.free.pop(0)
        return card


class _MuckHidden(Step):
    """Before the showdown: a hand still in that the file mucks (``pN sm``),
    or whose cards it hides (stand-ins), is mucked, as PokerKit treats a
    muck and a hand shown as ``????``: it wins nothing and its chips stay in
    the pots (R-C-11). When some pot would then have no contender left, the
    result cannot be told from the file: nothing is mucked and
    :attr:`untold` says why."""

    name = "hidden hands"

    def __init__(self, preset: _Preset, mucked: set[int]) -> None:
        self.preset = preset
        self.mucked = mucked
        self.untold = ""

    def start(self, hand: Hand) -> Pending | None:
        live = [s for s in range(hand.n) if not hand.folded[s]]
        hidden = [s for s in live if s in self.preset.stand_ins or s in self.mucked]
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
        for s in hidden:
            hand.fold(s)
            hand.events.append(Event("muck", s, {"hidden": True}))
        return None


def _with_muck(game_id: str, step: _MuckHidden) -> Game:
    """The game ``game_id`` with :class:`_MuckHidden` before its showdown."""
    from rollem import games

    base = games.get(game_id)

    def build(options: Options) -> list[Step]:
        steps = base.build(options)
        at = max(i for i, s in enumerate(steps) if s.name == "showdown")
        return [*steps[:at], step, *steps[at:]]

    return replace(base, build=build)


@dataclass
class _Parsed:
    deals: dict[int, list[Card | None]]
    board: list[Card]
    shown: dict[int, list[Card | None]]
    actions: list[tuple[int, str, str, int]]  # seat, code, amount text, line
    boards: list[tuple[int, str, int, int]] = field(default_factory=list)
    """Each ``d db`` line: its line number, text, cards, player actions before it."""
    mucked: set[int] = field(default_factory=set)
    """Players who muck at the showdown (``pN sm`` without cards)."""


def _parse_actions(raw: object, n: int) -> _Parsed:
    if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
        raise PHHError("actions must be a list of strings")
    p = _Parsed({s: [] for s in range(n)}, [], {}, [])
    for i, line in enumerate(raw, 1):
        words = line.split("#", 1)[0].split()
        where = f"line {i} of actions ({line.strip()[:60]})"
        if not words:
            continue
        if words[0] == "d":
            if len(words) == 3 and words[1] == "db":
                cards = _cards(words[2], where)
                if None in cards:
                    raise PHHError(f"{where}: board cards must be known")
                p.board.extend(c for c in cards if c is not None)
                p.boards.append((i, line.strip()[:60], len(cards), len(p.actions)))
                continue
            if len(words) == 4 and words[1] == "dh":
                seat = _player(words[2], n, where)
                p.deals[seat].extend(_cards(words[3], where))
                continue
            raise PHHError(f"{where}: a dealer action is 'd dh pN CARDS' or 'd db CARDS'")
        seat = _player(words[0], n, where)
        code = words[1] if len(words) > 1 else ""
        if code == "sm":
            if len(words) == 3 and words[2] != "-":
                p.shown[seat] = _cards(words[2], where)
            elif len(words) == 2:
                p.mucked.add(seat)
            elif len(words) > 3:
                raise PHHError(f"{where}: 'pN sm' takes at most one run of cards")
            continue
        if code in ("f", "cc", "pb") and len(words) == 2:
            p.actions.append((seat, code, "", i))
        elif code == "cbr" and len(words) == 3:
            p.actions.append((seat, code, words[2], i))
        elif code == "sd":
            raise PHHError(f"{where}: a draw ('sd'), but the variant has no draw")
        else:
            raise PHHError(f"{where}: not a PHH action (pN f, pN cc, pN cbr AMOUNT, pN pb, "
                           "pN sm [CARDS])")
    return p


def _player(token: str, n: int, where: str) -> int:
    if len(token) < 2 or token[0] != "p" or not token[1:].isdigit():
        raise PHHError(f"{where}: {token[:20]!r} is not a player (p1 to p{n}) or d")
    seat = int(token[1:]) - 1
    if not 0 <= seat < n:
        raise PHHError(f"{where}: no player {token} (p1 to p{n})")
    return seat


def _reveal(p: _Parsed) -> None:
    """Cards a player's show names stand for its hidden (``??``) dealt cards."""
    for seat, shown in p.shown.items():
        dealt = p.deals[seat]
        if len(shown) != len(dealt):
            continue  # a partial show tells nothing about which card is which
        for k, (d, s) in enumerate(zip(dealt, shown, strict=True)):
            if d is None and s is not None:
                dealt[k] = s
            elif d is not None and s is not None and d != s:
                raise PHHError(f"p{seat + 1} shows {CARDS[s]} where it was dealt {CARDS[d]}")


def _variant(data: Mapping[str, Any]) -> Variant:
    code = data.get("variant")
    if not isinstance(code, str):
        raise PHHError("variant must be a PHH variant code (e.g. NT)")
    if code in VARIANTS:
        return VARIANTS[code]
    allowed = ", ".join(VARIANTS)
    if code in NOT_PLAYED:
        raise PHHError(f"variant {code} ({NOT_PLAYED[code]}) is not a game rollem plays; "
                       f"rollem replays {allowed}")
    raise PHHError(f"unknown PHH variant {code[:40]!r}; rollem replays {allowed}")


def _options(v: Variant, data: Mapping[str, Any], n: int) -> Options:
    house: dict[str, int] = {}
    if not v.min_bet:
        small = _chips(data.get("small_bet"), "small_bet")
        big = _chips(data.get("big_bet"), "big_bet")
    else:
        small = big = _chips(data.get("min_bet"), "min_bet")
    if v.game in ("stud", "stud8", "razz"):
        if "blinds_or_straddles" in data and any(
                _chip_list(data, "blinds_or_straddles", n)):
            raise PHHError(f"blinds_or_straddles: {v.code} has a bring-in, not blinds")
        house["bring_in"] = _chips(data.get("bring_in"), "bring_in")
    else:
        if data.get("bring_in"):
            raise PHHError(f"bring_in: {v.code} has blinds, not a bring-in")
        blinds = _chip_list(data, "blinds_or_straddles", n)
        tail = blinds[3:] if n > 2 else []
        if any(tail) or (n == 2 and len(blinds) > 2 and any(blinds[2:])):
            raise PHHError("blinds_or_straddles: rollem plays a small and a big blind and "
                           f"one straddle under the gun (the first three), got {blinds}")
        straddle = blinds[2] if n > 2 else 0
        if not blinds[0] <= blinds[1] or (straddle and straddle < blinds[1]):
            raise PHHError(f"blinds_or_straddles {blinds}: the small blind, the big blind and "
                           "a straddle must be in increasing order")
        house.update(small_blind=blinds[0], big_blind=blinds[1], straddle=straddle)
    if small < 1 or big < 1:
        raise PHHError("the bets (small_bet, big_bet, min_bet) must be at least 1 chip")
    return Options(structure=v.structure, ante=0, small_bet=small, big_bet=big,
                   caps=v.caps, house=house)


def _names(data: Mapping[str, Any], n: int) -> list[str]:
    players = data.get("players")
    if players is None:
        return [f"p{i + 1}" for i in range(n)]
    if not isinstance(players, list) or len(players) != n or not all(
            isinstance(x, str) for x in players):
        raise PHHError(f"players must be {n} names, one a starting stack")
    return [str(x) for x in players]


_FIELDS = ("variant", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet",
           "min_bet", "starting_stacks", "actions", "players", "finishing_stacks",
           "ante_trimming_status")


def replay_phh(data: Mapping[str, Any], *, at: int | None = None) -> PHHHand:
    """Replay a standard PHH hand (its TOML table) through rollem's engine;
    with ``at``, only its first ``at`` player actions (``rollem odds
    --history``; what the file records after them is not checked).

    Raises:
        PHHError: a variant rollem does not play, a missing or malformed
            field, an amount with a fraction, an illegal action (naming its
            line), a result that depends on cards the file hides, or a
            ``finishing_stacks`` the replay contradicts.
    """
    v = _variant(data)
    raw_stacks = data.get("starting_stacks")
    if not isinstance(raw_stacks, list) or not 2 <= len(raw_stacks) <= 10:
        raise PHHError("starting_stacks must be a list of 2 to 10 stacks, one a player")
    n = len(raw_stacks)
    stacks = [_chips(s, f"starting_stacks[{i}]") for i, s in enumerate(raw_stacks)]
    antes = _chip_list(data, "antes", n)
    if n == 2:  # PHH: heads-up, the antes (as the blinds) are reversed by rule
        antes.reverse()
    if data.get("ante_trimming_status") and len(set(antes)) > 1:
        raise PHHError("ante_trimming_status = true with unequal antes: rollem replays "
                       "unequal antes only as PHH's default (dead money in the main pot)")
    for i, (s, a) in enumerate(zip(stacks, antes, strict=True)):
        if s <= a:
            raise PHHError(f"starting_stacks[{i}] {s} is not more than the ante {a}: a player "
                           "all-in on the ante is not replayed")
    options = _options(v, data, n)
    names = _names(data, n)
    parsed = _parse_actions(data.get("actions"), n)
    _reveal(parsed)
    known = [c for cs in parsed.deals.values() for c in cs if c is not None] + parsed.board
    twice = [c for i, c in enumerate(known) if c in known[:i]]
    if twice:
        raise PHHError(f"card {CARDS[twice[0]]} is dealt twice; each card exists once")
    preset = _Preset(parsed.deals, parsed.board)
    muck = _MuckHidden(preset, parsed.mucked)
    try:
        hand = Hand(_with_muck(v.game, muck), [s - a for s, a in zip(stacks, antes, strict=True)],
                    button=n - 1, options=options, carry_in=sum(antes), preset=preset)
    except (EngineError, KeyError) as err:
        raise PHHError(f"{v.code}: {err}") from None
    if at is not None and not 0 <= at <= len(parsed.actions):
        raise PHHError(f"--at {at}: the hand has {len(parsed.actions)} player actions (dealer "
                       f"and show lines are not counted): expected 0 to {len(parsed.actions)}")
    for seat, code, amount, line in parsed.actions[:at]:
        _apply(hand, seat, code, amount, f"line {line} of actions (p{seat + 1} {code}"
               + (f" {amount}" if amount else "") + ")")
    _check_boards(hand, parsed, partial=at is not None)
    if at is not None:
        return PHHHand(v.code, hand, stacks, None, names, antes, set(preset.stand_ins),
                       {k: data[k] for k in data if k not in _FIELDS})
    left = [s for s, q in preset.queues.items() if any(c is not None for c in q)]
    if hand.is_over and left:
        key = left[0]
        who = "the board" if key[0] == "db" else f"p{(key[1] or 0) + 1}"
        raise PHHError(f"{v.code} deals fewer cards to {who} than the file names")
    unknown = set(preset.stand_ins)
    if hand.is_over and hand.result is not None and hand.result.showdown \
            and preset.board_stand_ins:
        raise PHHError(f"the result depends on {preset.board_stand_ins} board card"
                       f"{'s' if preset.board_stand_ins != 1 else ''} the file does not "
                       "give: replayed to the showdown, but who wins cannot be told")
    if muck.untold:
        raise PHHError(muck.untold)
    finishing = list(hand.stacks) if hand.is_over else None
    recorded = data.get("finishing_stacks")
    if recorded is not None and finishing is not None:
        want = _chip_list(data, "finishing_stacks", n)
        if want != finishing:
            raise PHHError(f"finishing_stacks {want} differ from the replay's {finishing}")
    return PHHHand(v.code, hand, stacks, finishing, names, antes, unknown,
                   {k: data[k] for k in data if k not in _FIELDS})


def _check_boards(hand: Hand, parsed: _Parsed, *, partial: bool = False) -> None:
    """Each ``d db`` line deals what the game deals there: as many cards, after
    as many player actions (the flop after the first betting round ...);
    ``partial``: the lines the replay has not reached are not checked."""
    dealt = []
    marks = hand.action_marks
    for i, ev in enumerate(hand.events):
        if ev.kind == "board":
            before = sum(1 for m in marks if m <= i)
            dealt.append((len(ev.data["cards"]), before))
    for k, (line, text, n, before) in enumerate(parsed.boards):
        where = f"line {line} of actions ({text})"
        if partial and k >= len(dealt):
            break
        if k >= len(dealt):
            raise PHHError(f"{where}: the game deals no more board cards here")
        want, at = dealt[k]
        if (n, before) != (want, at):
            raise PHHError(f"{where}: {n} board card{'s' if n != 1 else ''} after action "
                           f"{before}, where the game deals {want} after action {at}")


def _apply(hand: Hand, seat: int, code: str, amount: str, where: str) -> None:
    p = hand.pending
    if p is None:
        raise PHHError(f"{where}: the hand is over")
    if seat not in p.seats:
        waiting = ", ".join(f"p{s + 1}" for s in p.seats)
        raise PHHError(f"{where}: not p{seat + 1}'s turn (waiting for {waiting})")
    try:
        legal = hand.legal_actions(seat)
        if code == "f":
            hand.apply(seat, Fold())
        elif code == "pb":
            if legal.call_amount <= 0 or "call" not in legal.actions:
                raise EngineError("no bring-in to post here")
            hand.apply(seat, Call())
        elif code == "cc":
            hand.apply(seat, Check() if "check" in legal.actions else Call())
        else:
            to = _chips(_amount(amount, where), where)
            hand.apply(seat, Bet(to) if hand.current_bet == 0 else Raise(to))
    except EngineError as err:
        raise PHHError(f"{where}: {err}") from None


def _amount(text: str, where: str) -> Decimal:
    try:
        return Decimal(text.replace(",", ""))
    except ArithmeticError:
        raise PHHError(f"{where}: {text[:20]!r} is not an amount") from None


def read_phh(text: str) -> dict[str, Any]:
    """One PHH hand's TOML table (amounts with a decimal point as
    :class:`~decimal.Decimal`, so ``0.1`` stays exact)."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as err:
        raise PHHError(f"not a TOML hand history: {err}") from None
    return data


def read_phhs(text: str) -> Iterator[tuple[str, Any]]:
    """The hands of a ``.phhs`` file: ``(name, table)`` for each top-level
    table (``[1]``, ``[2]`` ...), in file order.

    Raises:
        PHHError: not TOML, more than :data:`MAX_HANDS` hands, or a top-level
            value that is not a table.
    """
    data = read_phh(text)
    if len(data) > MAX_HANDS:
        raise PHHError(f"{len(data)} hands in one .phhs file; at most {MAX_HANDS}")
    yield from data.items()


def is_phh(data: Mapping[str, Any]) -> bool:
    """A standard PHH hand (its variant is not ``rollem-...``)?"""
    variant = data.get("variant")
    return isinstance(variant, str) and not variant.startswith("rollem-")


# ---------------------------------------------------------------- writing


def _order(hand: Hand) -> list[int]:
    """rollem's dealt-in seats in PHH player order: from the button's left,
    the button last."""
    n = hand.n
    return [s for s in ((hand.button + 1 + i) % n for i in range(n)) if hand.dealt[s]]


@dataclass(frozen=True)
class _CopyView:
    """What a player's own copy tells (:func:`copy_phh_dict`): per seat, which
    of its dealt cards, in order, it hides (``??``); each shown hand's cards
    in dealt order; the copy's finishing stacks; the copy's seat."""

    hidden: Mapping[int, Sequence[bool]]
    shown: Mapping[int, Sequence[int]]
    finishing: Sequence[int] | None
    seat: int


def phh_dict(hand: Hand, *, players: Sequence[str] | None = None,
             _copy: _CopyView | None = None) -> dict[str, Any]:
    """``hand`` as a standard PHH table (PokerKit's ``HandHistory.loads``
    replays it to the same finishing stacks).

    PHH player ``i`` is the ``i``-th dealt-in seat from the button's left;
    ``_seats`` maps each player back to rollem's seat, ``_burns`` holds the
    burned cards (PHH has no burn line). Known differences in which PokerKit
    and rollem disagree (tests/pokerkit_diff.py): a fixed-limit all-in raise
    short of a full bet (R-C-6), and a hi-lo split pot's odd chip (R-C-10).

    Raises:
        PHHError: a game or betting structure with no PHH variant code, or
            forced bets PHH cannot state.
    """
    opts = hand.options
    code = CODES.get((hand.game.id, opts.structure))
    if code is None:
        plays = ", ".join(f"{g} {s}" for g, s in CODES)
        raise PHHError(f"{hand.game.id} ({opts.structure}) has no PHH variant code; PHH "
                       f"(phh-std 0.0.2) has {plays}; its rollem history is already PHH's "
                       "layout (variant rollem-...), which only rollem replays")
    order = _order(hand)
    index = {s: i for i, s in enumerate(order)}
    n = len(order)
    out: dict[str, Any] = {"variant": code, "ante_trimming_status": True}
    ante = next((int(e.data["amount"]) for e in hand.events if e.kind == "ante"), 0)
    ante = opts.ante if ante else 0
    out["antes"] = [ante] * n
    blinds = [s for s in hand.steps if isinstance(s, Blinds)]
    if blinds:
        b = blinds[0]
        posted = [b.small, b.big] + ([b.straddle] if b.straddle and n > 2 else [])
        if n == 2 and b.straddle:
            raise PHHError("a straddle heads-up has no PHH form")
        out["blinds_or_straddles"] = posted + [0] * (n - len(posted))
    bring = [s for s in hand.steps if isinstance(s, BringIn)]
    if bring:
        out["bring_in"] = bring[0].amount
    if not VARIANTS[code].min_bet:
        out["small_bet"] = opts.small_bet
        out["big_bet"] = opts.big_bet
    else:
        out["min_bet"] = opts.small_bet
    out["starting_stacks"] = [hand.start_stacks[s] for s in order]
    out["actions"] = _actions(hand, index, _copy)
    names = list(players) if players is not None else [f"seat {s}" for s in range(hand.n)]
    out["players"] = [names[s] for s in order]
    if _copy is not None:
        if _copy.finishing is not None:
            out["finishing_stacks"] = [_copy.finishing[s] for s in order]
    elif hand.result is not None:
        out["finishing_stacks"] = [hand.stacks[s] for s in order]
    out["_seats"] = order
    out["_burns"] = "".join("??" if _copy is not None else str(CARDS[e.data["card"]])
                            for e in hand.events if e.kind == "burn")
    if _copy is not None:
        out["_redacted_for"] = index[_copy.seat]
    return out


def copy_phh_dict(data: Mapping[str, Any]) -> dict[str, Any]:
    """A player's own copy (``_redacted_for``, :func:`rollem.history.redact`)
    as standard PHH: the cards it hides are ``??`` (``????`` for two), each
    shown hand is the cards the copy shows (in dealt order, so a stud
    hand's up cards stay where they were dealt), the finishing stacks are
    the copy's; ``_redacted_for`` is the PHH player index of its seat.
    PokerKit replays it to the copy's finishing stacks (a hidden hand that
    reached the showdown was mucked: it could win nothing, R-C-11).

    Raises:
        rollem.history.HistoryError: the copy describes no hand that can
            happen (:func:`rollem.history_copy.own_copy_hand`).
        PHHError: a game with no PHH variant code, or a copy that ran out of
            cards (reshuffled, which no PHH game does).
    """
    from rollem.history_copy import own_copy_hand

    hand = own_copy_hand(data)
    seat = int(data["_redacted_for"])
    hidden: dict[int, list[bool]] = {s: [] for s in range(hand.n)}
    dealt: dict[int, list[str]] = {s: [] for s in range(hand.n)}
    raw = data.get("actions")
    for line in raw if isinstance(raw, list) else []:
        words = str(line).split("#", 1)[0].split()
        if len(words) >= 4 and words[0] == "d" and words[1] in ("dh", "du"):
            s = int(words[2][1:]) - 1
            text = "".join(words[3:])
            tokens = [text[i:i + 2] for i in range(0, len(text), 2)]
            dealt[s].extend(tokens)
            hidden[s].extend(t == "??" for t in tokens)
    for s in range(hand.n):  # a copy may leave dealer lines out: those cards are hidden
        missing = len(hand.hole[s]) - len(hidden[s])
        if s != seat and missing > 0:
            hidden[s].extend([True] * missing)
            dealt[s].extend(["??"] * missing)
    result = data.get("_result")
    shown: dict[int, list[int]] = {}
    if isinstance(result, Mapping) and isinstance(result.get("shown_cards"), Mapping):
        for key, cards in result["shown_cards"].items():
            s = int(key)
            cs = [int(parse_card(str(c))) for c in (cards.split() if isinstance(cards, str)
                                                     else cards)]
            shown[s] = _in_dealt_order(cs, dealt[s])
    finishing = data.get("finishing_stacks")
    if not isinstance(finishing, list) and isinstance(result, Mapping) and isinstance(
            result.get("net"), Mapping):
        net = result["net"]
        finishing = [hand.start_stacks[s] + int(net.get(str(s), 0)) for s in range(hand.n)]
    view = _CopyView(hidden, shown, finishing if isinstance(finishing, list) else None, seat)
    names = data.get("players")
    return phh_dict(hand, players=names if isinstance(names, list) and len(names) == hand.n
                    else None, _copy=view)


def _actions(hand: Hand, index: Mapping[int, int], view: _CopyView | None = None) -> list[str]:
    """PHH action lines: hole cards per player and street run together (down
    and up cards alike), board cards, the players' actions (the bring-in as
    ``pb``); no burns; at a showdown every contender's show (``pN sm``)
    right after the last player action, where PokerKit shows them (before
    an all-in runout's cards). Who wins is the cards' doing, as in rollem
    (R-C-11): a losing hand shown changes nothing."""
    lines: list[str] = []
    pending: dict[int, list[int]] = {}
    marks = hand.action_marks
    k = 0

    dealt: dict[int, list[int]] = {}

    def text(s: int, cards: Sequence[int], first: int) -> str:
        if view is None:
            return "".join(str(CARDS[c]) for c in cards)
        mask = view.hidden.get(s, ())
        return "".join("??" if first + k < len(mask) and mask[first + k] else str(CARDS[c])
                       for k, c in enumerate(cards))

    def flush() -> None:
        for s in sorted(pending, key=lambda x: index[x]):
            first = len(dealt.get(s, []))
            dealt.setdefault(s, []).extend(pending[s])
            lines.append(f"d dh p{index[s] + 1} " + text(s, pending[s], first))
        pending.clear()

    def act(i_event: int) -> None:
        nonlocal k
        while k < len(marks) and (i_event < 0 or marks[k] == i_event):
            seat, action = hand.actions[k]
            k += 1
            flush()
            p = f"p{index[seat] + 1}"
            if isinstance(action, Fold):
                lines.append(f"{p} f")
            elif isinstance(action, Check | Call):
                lines.append(f"{p} cc")
            elif isinstance(action, Bet | Raise):
                lines.append(f"{p} cbr {action.amount if isinstance(action, Bet) else action.to}")

    at = -1  # where the shows go: after the last player action (before an all-in runout)
    held: dict[int, list[int]] = {}
    for i, ev in enumerate(hand.events):
        act(i)
        if k == len(marks) and at < 0:
            at = len(lines)
            held = {s: list(cs) for s, cs in dealt.items()}
        if ev.kind in ("round", "round_skipped"):
            flush()
        elif ev.kind in ("deal_hole", "deal_up"):
            pending.setdefault(ev.seat or 0, []).extend(ev.data["cards"])
        elif ev.kind == "board":
            flush()
            lines.append("d db " + "".join(str(CARDS[c]) for c in ev.data["cards"]))
        elif ev.kind == "bet" and ev.data.get("bring_in") and lines \
                and lines[-1] == f"p{index[ev.seat or 0] + 1} cc":
            lines[-1] = lines[-1][:-2] + "pb"
    act(-1)
    flush()
    if at < 0 or not hand.board:
        at = len(lines)
        held = dealt
    if hand.result is not None and hand.result.showdown:
        # every contender shows (a losing hand shown changes nothing; one mucked
        # before an all-in runout would forfeit in PokerKit)
        lines[at:at] = [_show(s, held[s], index, view)
                        for s in sorted(held, key=lambda x: index[x]) if not hand.folded[s]]
    return lines


def _in_dealt_order(shown: list[int], dealt: Sequence[str]) -> list[int]:
    """A shown hand in the order its cards were dealt: each card the copy
    names where it was dealt (a stud up card), the shown rest where it shows
    ``??``, in the order shown (as shown when the counts differ)."""
    if len(shown) != len(dealt):
        return shown
    known = {int(parse_card(t)) for t in dealt if t != "??"}
    rest = [c for c in shown if c not in known]
    out = []
    for t in dealt:
        if t != "??":
            out.append(int(parse_card(t)))
        elif rest:
            out.append(rest.pop(0))
    return out if len(out) == len(shown) else shown


def _show(seat: int, held: Sequence[int], index: Mapping[int, int],
          view: _CopyView | None) -> str:
    """A contender's ``sm`` line: its cards; in a copy, the cards the copy
    shows, the copy's seat's own, or ``????`` for a hand the copy hides (kept
    face down: a mucked hand, which could win nothing, R-C-11; PokerKit lets
    no player all-in muck)."""
    p = f"p{index[seat] + 1} sm"
    if view is not None and seat != view.seat:
        if seat not in view.shown:
            return f"{p} " + "??" * len(held)
        held = list(view.shown[seat])[:len(held)]
    return f"{p} " + "".join(str(CARDS[c]) for c in held)


def write_phh(hand: Hand, *, players: Sequence[str] | None = None) -> str:
    """``hand`` as standard PHH text (:func:`phh_dict`)."""
    return tomli_w.dumps(phh_dict(hand, players=players))


def write_phhs(tables: Sequence[Mapping[str, Any]]) -> str:
    """Several PHH hands as one ``.phhs`` text: tables ``[1]``, ``[2]`` ..."""
    return tomli_w.dumps({str(i + 1): dict(t) for i, t in enumerate(tables)})
