"""Hand histories: a versioned TOML text recording a whole hand (R-C-13).

The layout follows PHH (PokerKit's Poker Hand History): ``variant``
(``"rollem-<game id>"``), ``antes``, ``min_bet``, ``small_bet``/``big_bet``,
``starting_stacks``, ``actions`` (``"d dh p1 Qs Qd"``, ``"p2 cbr 4"``...),
``players``; what PHH lacks is in ``_``-prefixed fields: ``_version``,
``_button``, ``_options``, ``_deck`` (the deck order), ``_shuffles`` (every
later random outcome: the pool's shuffle, reshuffles), ``_carry_in``,
``_result``, and for a game that is not a shipped game file ``_game_file``
(the game file's text, so the history replays on its own); a hand dealt from
committed deck (issue 32, :mod:`rollem.engine.commit_reveal`) also has
``_hand_no``, ``_commitment``, ``_prev_hash``, ``_client_seeds``,
``_deck_root``, ``_hand_hash`` and ``_deal_key`` (a player's copy: the
``_openings`` of the cards it saw instead of the key; ``rollem verify``). Seat ``s`` is
written ``p{s+1}`` as in PHH. See ``docs/hand-history.md``.

- :func:`write_history` / :func:`history_dict`: a finished (or running) hand.
- :func:`read_history`: parse and check a history's text into a :class:`History`.
- :func:`replay`: rebuild the :class:`Hand` by applying everything again;
  raises :class:`HistoryError` if what the history records differs from the
  replay (:func:`differences`: ``_result``, ``finishing_stacks``, the
  per-seat fields' lengths, issue 34).
- :func:`differences`: every such difference, one line each (``rollem replay
  --lenient`` lists them and replays anyway).
- :func:`redact`: one seat's copy (what it saw plus what was shown).

A history may be written by hand: leave out ``_deck`` and give the cards
with deal lines (``"d dh p1 Qs Qd"``, ``"d dead Qh"``, ``"d db Kc 7d 2s"``,
``"d burn 2c"``) or a ``_deck`` prefix; every other card is filled from the
remaining cards in deck order (2c 2d 2h 2s 3c ...).

>>> from rollem.engine import Hand, SeededSource, Call, Check
>>> hand = Hand("sdr", [200, 200], button=1, source=SeededSource(7))
>>> while not hand.is_over:
...     seat = hand.pending.seats[0]
...     legal = hand.legal_actions(seat)
...     events = hand.apply(seat, Call() if "call" in legal.actions else Check())
>>> text = write_history(hand, players=["Ann", "Bob"])
>>> read_history(text).actions[:2]
[(0, 'cc'), (1, 'cc')]
>>> replay(text).result == hand.result
True
>>> replay(text.replace('"p1 cc"', '"p1 cbr 3"', 1))
Traceback (most recent call last):
    ...
rollem.history.HistoryError: action 1 (line 3 of actions: p1 cbr 3): seat 0 cannot do that: ...
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from rollem.cards import CARDS, Card, CardError, format_cards, parse_cards
from rollem.engine.actions import (
    Bet,
    Call,
    Check,
    Raise,
    Show,
    action_from_text,
    action_to_text,
)
from rollem.engine.errors import EngineError
from rollem.engine.forced import BringIn
from rollem.engine.game import Game
from rollem.engine.hand import Hand
from rollem.engine.options import FIXED_LIMIT, Options
from rollem.engine.public_order import public_order
from rollem.engine.randomness import RandomSource, ReplaySource

__all__ = [
    "MAX_MESSAGE",
    "READ_VERSIONS",
    "VERSION",
    "DealLine",
    "DealPreset",
    "History",
    "HistoryError",
    "differences",
    "history_dict",
    "history_game",
    "read_history",
    "redact",
    "replay",
    "write_history",
    "write_own_copy",
]

VERSION = 2
"""Format version written in ``_version`` (2: PHH's concatenated cards in
``d dh``, ``d db`` and ``sm`` lines, ``sd`` for draws, ``min_bet`` only in
pot- and no-limit, ``seats``; shows by choice)."""

READ_VERSIONS = (1, 2)
"""Format versions :func:`read_history` reads."""


MAX_MESSAGE = 300
"""Longest message of a :class:`HistoryError`, in characters (issue 34: a value
of a hostile file is elided, not echoed whole)."""


def _cap(message: str) -> str:
    """``message`` on one line, at most :data:`MAX_MESSAGE` characters: a longer
    one keeps its start and its end, the middle elided (``...``)."""
    line = " ".join(message.split())
    if len(line) <= MAX_MESSAGE:
        return line
    tail = 60
    return f"{line[:MAX_MESSAGE - tail - 5]} ... {line[-tail:]}"


def _brief(value: object, limit: int = 60) -> str:
    """``repr(value)`` in at most ``limit`` characters (``[1, 2, 3, ...]``), for a
    value of the file named in a message."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[:limit - 4] + " ..."


class HistoryError(ValueError):
    """A history that cannot be read or does not replay; the message (one
    line of at most :data:`MAX_MESSAGE` characters, issue 34) says where and why."""

    def __init__(self, message: str) -> None:
        super().__init__(_cap(str(message)))


# ---------------------------------------------------------------- writing


def _p(seat: int | None) -> str:
    return f"p{(seat or 0) + 1}"


def _phh(cards: Sequence[int]) -> str:
    """Cards concatenated, as PHH writes them: ``QsQd``."""
    return "".join(str(CARDS[c]) for c in cards)


def _event_line(kind: str, seat: int | None, data: Mapping[str, Any]) -> str | None:
    if kind in ("deal_hole", "draw_deal"):
        return f"d dh {_p(seat)} {_phh(data['cards'])}"
    if kind == "deal_up":
        return f"d du {_p(seat)} {format_cards(data['cards'])}"
    if kind == "burn":
        return f"d burn {CARDS[data['card']]}"
    if kind == "pool_draw":
        return f"d pd {_p(seat)} {CARDS[data['card']]}"
    if kind == "wild":
        return f"d wild {CARDS[data['card']]}"
    if kind == "dead":
        return f"d dead {CARDS[data['card']]} # {data.get('label', '')}".rstrip(" #")
    if kind == "board":
        return f"d db {_phh(data['cards'])} # {data.get('label', '')}".rstrip(" #")
    if kind == "reshuffle":  # R-521-5: the new stub's order is in _shuffles
        own = ", their own discards added" if data.get("own") else ""
        return (f"# reshuffle for {_p(seat)}: {data['count']} cards (muck and discards"
                f"{own}) -> _shuffles")
    if kind == "roll":  # R-521-7 (the cards are set by the stacking; a comment)
        return f"# roll {_p(seat)} {CARDS[data['card']]}"
    if kind == "show":
        if data.get("by_choice"):  # written as the player's action line (R-C-11)
            return None
        return f"{_p(seat)} sm {_phh(data['cards'])}"
    if kind == "muck":
        return f"{_p(seat)} sm"
    return None


def history_dict(hand: Hand, *, players: Sequence[str] | None = None,
                 tournament: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The history of ``hand`` as a TOML-ready dict (see the module doc).

    ``tournament``: a tournament hand's schedule, level (1-based) and stakes
    (issue 28), written as ``_tournament``.

    PHH fields first (``min_bet`` only in pot- and no-limit, ``seats`` the
    physical seat numbers 1..n), then rollem's ``_`` fields.
    """
    opts = hand.options
    n = hand.n
    lines: list[str] = []
    marks = hand.action_marks
    k = 0
    for i, ev in enumerate(hand.events):
        while k < len(marks) and marks[k] == i:
            seat, action = hand.actions[k]
            lines.append(f"{_p(seat)} {action_to_text(action)}")
            k += 1
        line = _event_line(ev.kind, ev.seat, ev.data)
        if line is not None:
            lines.append(line)
    while k < len(marks):
        seat, action = hand.actions[k]
        lines.append(f"{_p(seat)} {action_to_text(action)}")
        k += 1
    outcomes = hand.source.outcomes
    out: dict[str, Any] = {
        "variant": f"rollem-{hand.game.id}",
        "ante_trimming_status": True,
        "antes": _antes(hand, opts.bomb_pot or opts.ante),  # a bomb pot: its ante
        "blinds_or_straddles": _blinds(hand),
        "small_bet": opts.small_bet,
        "big_bet": opts.big_bet,
    }
    bring_in = [step for step in hand.steps if isinstance(step, BringIn)]
    if bring_in:  # PHH bring_in (a stud game's; none in our three games)
        out["bring_in"] = bring_in[0].amount
    if opts.structure != FIXED_LIMIT:
        out["min_bet"] = opts.small_bet
    out.update({
        "starting_stacks": list(hand.start_stacks),
        "actions": lines,
        # a seat not dealt in (empty, or its player sitting out) is no player of the
        # hand: "" (issue 26: a download listed the empty seats as "seat 4", ...)
        "players": ([p if hand.dealt[s] else "" for s, p in enumerate(players)]
                    if players is not None else [f"seat {s}" for s in range(n)]),
        "seats": list(range(1, n + 1)),
        "_version": VERSION,
        "_game": hand.game.id,
        "_button": hand.button,
        "_options": opts.to_dict(),
        "_carry_in": hand.carry_in,
        "_deck": format_cards(outcomes[0][1]) if outcomes else "",
        "_shuffles": [{"label": label, "cards": format_cards(order)}
                      for label, order in outcomes[1:]],
    })
    if tournament is not None:
        out["_tournament"] = dict(tournament)
    if hand.result is not None:
        out["finishing_stacks"] = list(hand.stacks)
        out["_result"] = hand.result.to_dict(cards=True)
    if hand.source.proof is not None:  # a committed deck (issue 32, docs/verify.md)
        out.update(hand.source.proof.fields())
    from rollem import games

    if hand.game.source and not games.is_shipped(hand.game):
        out["_game_file"] = hand.game.source  # a user's game: the history carries it
    return out


def history_game(data: Mapping[str, Any]) -> Game:
    """The game of a history dict: the game file it carries (``_game_file``), else the
    shipped game named by ``variant`` (``rollem-<id>``).

    Raises:
        HistoryError: unknown game id, or a ``_game_file`` with a mistake (its
            one-line error) or whose id is not the variant's.
    """
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant.startswith("rollem-"):
        raise HistoryError("variant must be 'rollem-<game>' (e.g. rollem-sdr), got "
                           f"{_brief(variant)}")
    game_id = variant[len("rollem-"):]
    text = data.get("_game_file")
    if text is not None:
        from rollem.games.gamefile import GameFileError, load_game

        if not isinstance(text, str):
            raise HistoryError("_game_file must be the text of a game file (TOML)")
        try:
            game = load_game(text, strict=False)  # a record: read as it was accepted
        except GameFileError as err:
            raise HistoryError(f"_game_file: {_one_line(str(err))}") from None
        if game.id != game_id:
            raise HistoryError(f"_game_file is game {game.id!r} but variant is {variant!r}")
        return game
    from rollem.games import get

    try:
        return get(game_id)
    except KeyError as err:
        raise HistoryError(_one_line(str(err.args[0])) + " (a history of your own game "
                           "carries its game file as _game_file)") from None


def write_history(hand: Hand, *, players: Sequence[str] | None = None,
                  tournament: Mapping[str, Any] | None = None) -> str:
    """The history of ``hand`` as TOML text (``tournament``: :func:`history_dict`)."""
    return tomli_w.dumps(history_dict(hand, players=players, tournament=tournament))


def write_own_copy(hand: Hand, seat: int, *, players: Sequence[str] | None = None,
                   tournament: Mapping[str, Any] | None = None) -> str:
    """``seat``'s own copy of the history of ``hand`` as TOML text (:func:`redact`):
    what that seat saw (its own cards, the cards dealt face up, the cards
    shown at the showdown, R-C-11, or by choice after the hand), every other
    card ``??``; ``_redacted_for = seat``. ``rollem play`` saves this, and the
    web table's download is this (a player's file must never hold a card that
    player did not see).

    Raises:
        ValueError: ``seat`` is not a seat of the hand (0 to ``hand.n - 1``).
    """
    if not 0 <= seat < hand.n:
        raise ValueError(f"seat {seat} is not a seat of the hand (0 to {hand.n - 1})")
    return tomli_w.dumps(redact(history_dict(hand, players=players, tournament=tournament),
                                seat))


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class DealLine:
    """A dealer line (``d ...``) or show line (``pN sm``) of a history: the
    replay must deal or show exactly this at this point (R-C-13).

    Attributes:
        code: ``dh``, ``du``, ``db``, ``dead``, ``burn``, ``pd``, ``wild``,
            ``show`` (``pN sm CARDS``) or ``muck`` (``pN sm``).
        seat: the seat it names, or ``None``.
        cards: the cards it names, in order.
        number: its line number (1-based) in ``actions``.
        text: the line as written.
        anchor: how many players' actions come before it.
    """

    code: str
    seat: int | None
    cards: tuple[Card, ...]
    number: int
    text: str
    anchor: int

    def where(self) -> str:
        """``line 5 of actions (d dead Qh # stop), after action 1``."""
        return f"line {self.number} of actions ({self.text}), after action {self.anchor}"


@dataclass
class History:
    """A parsed history (see the module doc)."""

    game: str
    stacks: list[int]
    button: int
    options: Options
    carry_in: int
    deck: list[Card] | None
    shuffles: list[tuple[str, list[Card]]]
    deals: list[tuple[str, int | None, list[Card]]]
    actions: list[tuple[int, str]]
    result: dict[str, Any] | None
    raw: dict[str, Any] = field(default_factory=dict)
    checks: list[tuple[str, int | None, list[Card]]] = field(default_factory=list)
    """``("pd", seat, [card])`` draws from the pool and ``("wild", None, [card])``
    the wild card turned, as written (R-RYO-5..R-RYO-7); the replay checks them
    with every other line of :attr:`lines`."""
    action_lines: list[int] = field(default_factory=list)
    """For each entry of :attr:`actions`, its line number (1-based) in the
    history's ``actions`` list, which also holds dealing, showdown and comment
    lines. Players' actions are numbered 1, 2, ... on their own (``--at K``,
    replay errors); this maps them back to the file."""
    lines: list[DealLine] = field(default_factory=list)
    """Every dealer and ``sm`` line, in order, with the number of players'
    actions before it: the replay checks each against what it deals and shows
    there; an ``sm`` line after the end is a show by choice (R-C-11)."""


def _seat(token: str, n: int, where: str) -> int:
    if not token.startswith("p") or not token[1:].isdigit() or not 1 <= int(token[1:]) <= n:
        raise HistoryError(f"{where}: bad player {token!r}: expected p1..p{n}")
    return int(token[1:]) - 1


def _antes(hand: Hand, ante: int) -> list[int]:
    """PHH ``antes``: the ante of each seat dealt in, where the game takes antes
    (a blind game's seats ante nothing, whatever the ante option says)."""
    antes = any(e.kind == "ante" for e in hand.events)
    return [ante if antes and hand.dealt[s] else 0 for s in range(hand.n)]


def _blinds(hand: Hand) -> list[int]:
    """PHH ``blinds_or_straddles``: the chips each seat posted as a blind or straddle."""
    posted = [0] * hand.n
    for e in hand.events:
        if e.kind == "blind" and e.seat is not None:
            posted[e.seat] += int(e.data["amount"])
    return posted


def read_history(text: str) -> History:
    """Parse a history's TOML text (a leading UTF-8 byte order mark is ignored).

    Raises:
        HistoryError: naming the field or action line that is wrong.
    """
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as err:
        raise HistoryError(f"not a TOML hand history: {_one_line(str(err))}") from None
    except RecursionError:  # tomllib recurses once per level of [ or {
        raise HistoryError("not a hand history: arrays or tables nested too deeply") from None
    return parse_history(data)


def _one_line(text: str) -> str:
    return " ".join(text.split())


_DEAL_CODES = ("dh", "du", "db", "dead", "burn", "pd", "wild")


def parse_history(data: Mapping[str, Any]) -> History:
    """Check and convert a history dict (as :func:`history_dict` makes).

    Reads format versions 1 and 2. A player's redacted copy (``_redacted_for``)
    or any line with hidden cards (``??``) is refused: the cards it hides are
    unknown, and a replay never invents them.

    Raises:
        HistoryError: naming the field or line that is wrong (one line).
    """
    if not isinstance(data, Mapping):
        raise HistoryError("a hand history is a TOML table of fields")
    if "_redacted_for" in data:
        raise HistoryError(
            f"this is a player's own copy (_redacted_for = {data['_redacted_for']!r}): other "
            "players' hidden cards are not in it, so it cannot be replayed through the engine "
            "(rollem replay FILE tells it as that player saw it)")
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant.startswith("rollem-"):
        raise HistoryError("variant must be 'rollem-<game>' (e.g. rollem-sdr), got "
                           f"{_brief(variant)}")
    game = variant[len("rollem-"):]
    version = data.get("_version", VERSION)
    if version not in READ_VERSIONS:
        raise HistoryError(f"_version {_brief(version)} is not supported: expected 1 or "
                           f"{VERSION}")
    stacks = data.get("starting_stacks")
    if not isinstance(stacks, list) or not all(type(s) is int and s >= 0 for s in stacks):
        raise HistoryError("starting_stacks must be a list of whole numbers of chips")
    n = len(stacks)
    button = data.get("_button", 0)
    if type(button) is not int:
        raise HistoryError("_button must be a seat number")
    carry_in = data.get("_carry_in", 0)
    if type(carry_in) is not int or carry_in < 0:
        raise HistoryError(f"_carry_in must be a whole number of chips >= 0, got "
                           f"{_brief(carry_in)}")
    raw_options = data.get("_options", {})
    if not isinstance(raw_options, Mapping):
        raise HistoryError("_options must be a table of options")
    opt_data = dict(raw_options)
    if "_options" not in data:
        antes = data.get("antes", [])
        if isinstance(antes, list) and antes and all(type(a) is int for a in antes):
            opt_data["ante"] = max(antes)
        for key in ("small_bet", "big_bet"):
            if key in data:
                opt_data[key] = data[key]
    try:
        options = Options.from_dict(opt_data)
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise HistoryError(f"_options: {_one_line(str(err))}") from None
    deck_text = data.get("_deck")
    shuffles_raw = data.get("_shuffles", [])
    if (deck_text is not None and not isinstance(deck_text, str)) \
            or not isinstance(shuffles_raw, list):
        raise HistoryError("_deck must be a string of cards and _shuffles a list of tables")
    try:
        deck = parse_cards(deck_text) if deck_text else None
        shuffles = [(str(s["label"]), parse_cards(s["cards"])) for s in shuffles_raw]
    except (CardError, KeyError, TypeError, ValueError) as err:
        raise HistoryError(f"_deck/_shuffles: {_one_line(str(err))}") from None
    if deck is not None and (len(deck) > 52 or len(set(deck)) != len(deck)):
        raise HistoryError("_deck names a card twice; each card exists once")
    raw_lines = data.get("actions", [])
    if not isinstance(raw_lines, list):
        raise HistoryError("actions must be a list of lines")
    deals: list[tuple[str, int | None, list[Card]]] = []
    checks: list[tuple[str, int | None, list[Card]]] = []
    actions: list[tuple[int, str]] = []
    action_lines: list[int] = []
    lines: list[DealLine] = []
    for i, line in enumerate(raw_lines):
        where = f"line {i + 1} of actions ({line!r})"
        if not isinstance(line, str):
            raise HistoryError(f"line {i + 1} of actions: each line must be a string")
        body = line.split("#", 1)[0].strip()
        parts = body.split()
        if not parts:
            continue
        text = _one_line(line)
        if len(text) > 100:  # a line of a hostile file: named, not echoed whole
            text = text[:96] + " ..."
        where = f"line {i + 1} of actions ({text}), after action {len(actions)}"
        if "?" in body:
            raise HistoryError(f"{where}: hidden cards (??) cannot be replayed; a replay "
                               "never invents cards (replay the full history)")
        try:
            if parts[0] == "d":
                code = parts[1] if len(parts) > 1 else ""
                if code not in _DEAL_CODES:
                    raise HistoryError(f"{where}: unknown dealing code {code!r}: "
                                       "expected dh, du, db, dead, burn, pd, wild")
                seat: int | None = None
                if code in ("dh", "du", "pd"):
                    seat = _seat(parts[2] if len(parts) > 2 else "", n, where)
                    cards = parse_cards(parts[3:])
                else:
                    cards = parse_cards(parts[2:])
                if not cards:
                    raise HistoryError(f"{where}: names no card")
                if code in ("dead", "burn", "pd", "wild") and len(cards) != 1:
                    raise HistoryError(f"{where}: names {len(cards)} cards, expected one")
                if code in ("dh", "du"):
                    deals.append(("p", seat, cards))
                elif code in ("db", "dead", "burn"):
                    deals.append((code, None, cards))
                else:
                    checks.append((code, seat, cards))
                lines.append(DealLine(code, seat, tuple(cards), i + 1, text, len(actions)))
            else:
                seat = _seat(parts[0], n, where)
                if len(parts) >= 2 and parts[1] == "sm":
                    # the showdown's show or muck (checked against the replay's),
                    # or after the end a show by choice (R-C-11)
                    cards = parse_cards(parts[2:])
                    lines.append(DealLine("show" if cards else "muck", seat, tuple(cards),
                                          i + 1, text, len(actions)))
                    continue
                rest = " ".join(parts[1:])
                try:
                    action_from_text(rest)  # check now, apply on replay
                except (ValueError, TypeError) as err:
                    raise HistoryError(f"action {len(actions) + 1} (line {i + 1} of actions: "
                                       f"{text}): {_one_line(str(err))}") from None
                actions.append((seat, rest))
                action_lines.append(i + 1)
        except (CardError, ValueError) as err:
            if isinstance(err, HistoryError):
                raise
            raise HistoryError(f"{where}: {_one_line(str(err))}") from None
    result = data.get("_result")
    if result is not None and not isinstance(result, Mapping):
        raise HistoryError(f"_result must be a table (the hand's result), got {_brief(result)}")
    return History(game=game, stacks=list(stacks), button=button, options=options,
                   carry_in=carry_in, deck=deck, shuffles=shuffles,
                   deals=deals, actions=actions, checks=checks, action_lines=action_lines,
                   result=dict(result) if isinstance(result, Mapping) else None,
                   raw=dict(data), lines=lines)


class DealPreset:
    """Supplies chosen cards as they are dealt (hand-written histories, tests).

    ``deals``: ``(key, seat, cards)`` with key ``"p"`` (cards to a seat:
    hole cards and draws, in order), ``"db"`` (board), ``"dead"``, ``"burn"``.
    Any other card comes from the cards not named anywhere, in deck order.
    :attr:`dealt` is the order the cards were dealt in.

    Raises:
        HistoryError: a card named twice (each card exists once, R-C-1).
    """

    def __init__(self, deals: Sequence[tuple[str, int | None, Sequence[int]]],
                 prefix: Sequence[int] = ()) -> None:
        self.queues: dict[tuple[str, int | None], list[Card]] = {}
        named: set[int] = set(prefix)
        if len(named) != len(prefix):
            raise HistoryError("_deck names a card twice; each card exists once")
        for key, seat, cards in deals:
            self.queues.setdefault((key, seat), []).extend(CARDS[c] for c in cards)
            for c in cards:
                if c in named:
                    raise HistoryError(f"card {CARDS[c]} is named twice (in _deck or the "
                                       "dealing lines); each card exists once")
                named.add(c)
        self.prefix = [CARDS[c] for c in prefix]
        self.free = [c for c in CARDS if c not in named]
        self.dealt: list[Card] = []

    def take(self, hand: Hand, kind: str, seat: int | None) -> Card:
        if len(self.dealt) < len(self.prefix):
            card = self.prefix[len(self.dealt)]
        else:
            if kind in ("board",):
                key: tuple[str, int | None] = ("db", None)
            elif kind in ("dead", "burn"):
                key = (kind, None)
            elif seat is not None:
                key = ("p", seat)
            else:
                key = (kind, None)
            q = self.queues.get(key)
            if q:
                card = q.pop(0)
            elif self.free:
                card = self.free.pop(0)
            else:
                raise EngineError("the stub is empty")
        self.dealt.append(card)
        return card

    def deck(self) -> list[Card]:
        """The full deck order this preset amounts to: cards dealt, then the rest."""
        used = set(self.dealt)
        return self.dealt + [c for c in CARDS if c not in used]


class _FixedSource(RandomSource):
    """Replays given outcomes; beyond them, keeps cards in the order given."""

    def __init__(self, recorded: Sequence[tuple[str, Sequence[int]]]) -> None:
        super().__init__()
        self.inner = ReplaySource(recorded)

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if label == "deck":
            return [CARDS[c] for c in cards]
        if self.inner.unused:
            return self.inner._shuffle(label, cards)
        return [CARDS[c] for c in cards]


def _where(h: History, index: int) -> str:
    """``action 8 (line 13 of actions: p2 cbr 400)``: the player's action by its
    number among the actions (as ``--at``) and by its line in the file."""
    seat, text = h.actions[index]
    if index < len(h.action_lines):
        return f"action {index + 1} (line {h.action_lines[index]} of actions: {_p(seat)} {text})"
    return f"action {index + 1} ({_p(seat)} {text})"


def _apply_text(hand: Hand, h: History, index: int) -> None:
    seat, text = h.actions[index]
    try:
        action = action_from_text(text)
        p = hand.pending
        if p is not None and p.kind == "bet":
            if isinstance(action, Call) and "check" in hand.legal_actions(seat).actions:
                action = Check()
            elif isinstance(action, Raise) and hand.current_bet == 0:
                action = Bet(action.to)
        if isinstance(action, Show):
            raise EngineError("a show is written 'pN sm CARDS'")
        hand.apply(seat, action)
    except (EngineError, CardError, ValueError) as err:
        raise HistoryError(f"{_where(h, index)}: {_one_line(str(err))}") from None


def _fill(prefix: Sequence[int]) -> list[Card]:
    used = set(prefix)
    if len(used) != len(prefix):
        raise HistoryError("_deck names a card twice; each card exists once")
    return [CARDS[c] for c in prefix] + [c for c in CARDS if c not in used]


def _event_key(kind: str, seat: int | None,
               data: Mapping[str, Any]) -> tuple[str, int | None, tuple[int, ...]] | None:
    """The line an event is written as: ``(code, seat, cards)``, or ``None``."""
    if kind in ("deal_hole", "draw_deal"):
        return ("dh", seat, tuple(data["cards"]))
    if kind == "deal_up":
        return ("du", seat, tuple(data["cards"]))
    if kind == "board":
        return ("db", None, tuple(data["cards"]))
    if kind in ("burn", "dead", "wild"):
        return (kind, None, (data["card"],))
    if kind == "pool_draw":
        return ("pd", seat, (data["card"],))
    if kind == "show" and not data.get("by_choice"):
        return ("show", seat, tuple(data["cards"]))
    if kind == "muck":
        return ("muck", seat, ())
    return None


def _key_text(key: tuple[str, int | None, tuple[int, ...]], cards: bool = True) -> str:
    code, seat, cs = key
    shown = " " + _phh(cs) if cards and cs else ""
    if code in ("show", "muck"):
        return f"{_p(seat)} sm{shown}"
    who = f" {_p(seat)}" if seat is not None else ""
    if not cards:
        n = len(cs)
        return f"d {code}{who} ({n} card{'s' if n != 1 else ''})"
    return f"d {code}{who}{shown}"


class _Lines:
    """Checks a history's dealer and ``sm`` lines against the replay, in order."""

    def __init__(self, hand: Hand, h: History, from_deck: bool) -> None:
        self.hand = hand
        self.h = h
        self.pos = 0  # first event a line may still match
        self.source = "_deck" if from_deck else "the dealing lines and the deck order"

    def segment(self) -> None:
        """Lines after the next action match only what that action causes."""
        self.pos = len(self.hand.events)

    def check(self, line: DealLine) -> None:
        hand = self.hand
        events = hand.events
        want = (line.code, line.seat)
        for i in range(self.pos, len(events)):
            e = events[i]
            key = _event_key(e.kind, e.seat, e.data)
            if key is None or (key[0], key[1]) != want:
                continue
            if key[2] != line.cards:
                what = "shows" if line.code == "show" else "deals"
                raise HistoryError(f"{line.where()}: the replay {what} {_key_text(key)} here "
                                   f"(the cards come from {self.source})")
            self.pos = i + 1
            return
        if line.code == "show" and hand.is_over and line.seat is not None:
            self.show_by_choice(line)
            return
        rest = [k for k in (_event_key(e.kind, e.seat, e.data) for e in events[self.pos:])
                if k is not None]
        if rest:
            nxt = ", ".join(_key_text(k, cards=False) for k in rest[:3])
            raise HistoryError(f"{line.where()}: not what the replay deals or shows here "
                               f"(next: {nxt})")
        if line.code in ("show", "muck"):
            raise HistoryError(f"{line.where()}: nobody shows or mucks here (cards are shown "
                               "at the showdown by the engine, or by choice once the hand "
                               "is over)")
        raise HistoryError(f"{line.where()}: the replay deals nothing here")

    def show_by_choice(self, line: DealLine) -> None:
        seat = line.seat
        assert seat is not None
        hand = self.hand
        held = [c for c in hand.hole[seat]] if 0 <= seat < hand.n else []
        if not hand.dealt[seat]:
            raise HistoryError(f"{line.where()}: {_p(seat)} was not dealt into this hand")
        stray = [c for c in line.cards if c not in held]
        if stray:
            raise HistoryError(f"{line.where()}: {_p(seat)} never held "
                               f"{format_cards(stray)}; a shown hand is the cards dealt "
                               f"to that seat ({format_cards(held)})")
        try:
            hand.apply(seat, Show(line.cards))
        except EngineError as err:
            raise HistoryError(f"{line.where()}: {_one_line(str(err))}") from None


def _run(hand: Hand, h: History, from_deck: bool, *, source: str | None = None) -> None:
    """Apply the players' actions and check every dealer/``sm`` line in place
    (``source``: where the cards come from, for the errors)."""
    lines = _Lines(hand, h, from_deck)
    if source is not None:
        lines.source = source
    todo = [ln for ln in h.lines if ln.anchor <= len(h.actions)]
    j = 0
    for k in range(len(h.actions) + 1):
        while j < len(todo) and todo[j].anchor == k:
            lines.check(todo[j])
            j += 1
        if k < len(h.actions):
            lines.segment()
            _apply_text(hand, h, k)


def replay(history: History | str | Mapping[str, Any], *, check_result: bool = True) -> Hand:
    """Rebuild the hand of ``history`` (a :class:`History`, TOML text, or its
    table as read, e.g. :func:`history_dict`'s).

    Every dealer line must be what the step at that point deals (kind, seat,
    cards, in order); with a 52-card ``_deck`` every card must be the one the
    deck order gives; without it the lines choose the cards (each card named
    once). An ``sm`` line must equal the engine's show (or muck) there; after
    the end of the hand it is a show by choice of cards the seat holds
    (R-C-11). Lines may be left out of a hand-written history.

    Raises:
        HistoryError: a bad field, action or line (one line naming the action
            number and line), or (``check_result``) a recorded ``_result``
            different from the replay's.
    """
    if isinstance(history, str):
        h = read_history(history)
    elif isinstance(history, History):
        h = history
    else:
        h = parse_history(history)
    game = history_game(h.raw) if h.raw else history_game({"variant": f"rollem-{h.game}"})
    from_deck = h.deck is not None and len(h.deck) == 52
    try:
        if from_deck:
            assert h.deck is not None
            deck = _fill(h.deck)
            outcomes: list[tuple[str, Sequence[int]]] = [("deck", deck), *h.shuffles]
        else:
            # hand-written: a first pass deals the chosen cards to find the deck order
            preset = DealPreset(h.deals, h.deck or ())
            first = Hand(game, h.stacks, button=h.button, options=h.options,
                         source=_FixedSource(h.shuffles), carry_in=h.carry_in, preset=preset)
            for i in range(len(h.actions)):
                _apply_text(first, h, i)
            outcomes = [("deck", preset.deck()), *first.source.outcomes[1:]]
        hand = Hand(game, h.stacks, button=h.button, options=h.options,
                    source=ReplaySource(outcomes), carry_in=h.carry_in)
    except EngineError as err:
        raise HistoryError(_one_line(str(err))) from None
    _run(hand, h, from_deck)
    if check_result:
        found = differences(h, hand)
        if found:
            raise HistoryError(found[0])
    return hand


_RESULT_FIELDS = ("game", "pots", "net", "shown", "shown_cards", "carried")
"""The ``_result`` fields a replay gives (``HandOutcome.to_dict(cards=True)``);
any other is not compared."""


def _differ(where: str, recorded: object, got: object) -> str:
    return f"recorded {where} {_brief(recorded)} differs from the replay's {_brief(got)}"


def same_words(recorded: str, now: str | None) -> bool:
    """Whether a recorded description of a shown hand is the engine's ``now``, or
    its words before issue 26 (a both-ways declarer's ``"<high> and <low>"``, now
    ``"high: <high>; low: <low>"``): a history written before stays accepted."""
    if now is None or recorded == now:
        return recorded == now
    if now.startswith("high: ") and "; low: " in now:
        high, low = now.removeprefix("high: ").split("; low: ", 1)
        return recorded == f"{high} and {low}"
    return False


def _table_difference(where: str, recorded: object, got: Mapping[str, Any]) -> str | None:
    """The first seat (key) of a recorded ``seat -> value`` table that differs
    from the replay's ``got``: one missing on either side, or another value
    (descriptions of shown hands: also their words before issue 26)."""
    if not isinstance(recorded, Mapping):
        return _differ(where, recorded, dict(got))
    for key in sorted({*map(str, recorded), *got}, key=lambda k: (len(k), k)):
        mine, theirs = recorded.get(key), got.get(key)
        if mine == theirs or (where == "_result.shown" and isinstance(mine, str)
                              and isinstance(theirs, str) and same_words(mine, theirs)):
            continue
        if key not in recorded:
            return f"recorded {where} leaves out seat {key}, which the replay gives " \
                   f"{_brief(theirs)}"
        if key not in got:
            return f"recorded {where} names seat {_brief(key)} ({_brief(mine)}), which the " \
                   "replay does not"
        return _differ(f"{where}.{key}", mine, theirs)
    return None


def _pots_difference(recorded: object, got: Sequence[Mapping[str, Any]]) -> str | None:
    if not isinstance(recorded, list):
        return _differ("_result.pots", recorded, list(got))
    if len(recorded) != len(got):
        return f"recorded _result.pots has {len(recorded)} pots, the replay {len(got)}: " \
               f"{_brief([p.get('amount') for p in got])} chips"
    for i, (mine, theirs) in enumerate(zip(recorded, got, strict=True)):
        if not isinstance(mine, Mapping):
            return _differ(f"_result.pots[{i}]", mine, dict(theirs))
        for key in sorted({*mine, *theirs}, key=lambda k: ("amount", "eligible", "winners",
                                                           "high", "low").index(k)
                          if k in ("amount", "eligible", "winners", "high", "low") else 9):
            if mine.get(key) != theirs.get(key):
                return _differ(f"_result.pots[{i}].{key}", mine.get(key), theirs.get(key))
    return None


def differences(history: History, hand: Hand) -> list[str]:
    """What ``history`` records that its replay ``hand`` contradicts, one line each
    (at most :data:`MAX_MESSAGE` characters, long values elided), in the order
    checked; empty when nothing does (issue 34).

    Checked, each where the history has it (a hand-written one may leave any
    out): ``players`` and ``seats`` hold one entry per starting stack;
    ``finishing_stacks`` are the replay's stacks at the end; ``_result`` is a
    table whose fields ``game``, ``pots`` (each pot's ``amount``, ``eligible``,
    ``winners``, ``high``, ``low``), ``net``, ``shown`` (descriptions),
    ``shown_cards`` (the cards, in the order the engine shows them) and
    ``carried`` are the replay's exactly; a history that records either ends
    the hand. Other ``_result`` fields are not compared.
    """
    raw = history.raw
    n = len(hand.start_stacks)
    found: list[str] = []
    for key, what in (("players", "name"), ("seats", "seat number")):
        listed = raw.get(key)
        if listed is None:
            continue
        if not isinstance(listed, list):
            found.append(f"{key} must be a list of {what}s, one per starting stack, got "
                         f"{_brief(listed)}")
        elif len(listed) != n:
            found.append(f"{key} has {len(listed)} {what}{'s' if len(listed) != 1 else ''} "
                         f"for {n} starting stacks (one a seat)")
        elif key == "players" and not all(isinstance(p, str) for p in listed):
            found.append(f"players must be names (text), got {_brief(listed)}")
    result = history.result
    finishing = raw.get("finishing_stacks")
    if hand.result is None:
        if result is not None:
            found.append("the history records a result but its actions do not finish the hand")
        if finishing is not None:
            found.append("the history records finishing_stacks but its actions do not finish "
                         "the hand")
        return found
    if result is not None:
        got = hand.result.to_dict(cards=True)
        for key in _RESULT_FIELDS:
            if key not in result or result[key] == got[key]:
                continue
            if key == "pots":
                differs = _pots_difference(result[key], got[key])
            elif key in ("net", "shown", "shown_cards"):
                differs = _table_difference(f"_result.{key}", result[key], got[key])
            else:
                differs = _differ(f"_result.{key}", result[key], got[key])
            if differs is not None:
                found.append(differs)
    if finishing is not None and finishing != list(hand.stacks):
        found.append(_differ("finishing_stacks", finishing, list(hand.stacks)))
    return [_cap(line) for line in found]


# ---------------------------------------------------------------- redaction

_HIDDEN_CHOICES = ("dis", "draw", "sd", "stack")
_SECRETS = ("_deck", "_shuffles", "_deal_key")


def _card_tokens(tokens: Sequence[str]) -> list[str]:
    """Card text, one card a token, from separate (``Qs Qd``) or PHH's
    run-together (``QsQd``, ``????``) tokens; anything else kept as is."""
    out: list[str] = []
    for t in tokens:
        if len(t) > 2 and len(t) % 2 == 0 and set(t) == {"?"}:
            out += ["??"] * (len(t) // 2)
            continue
        try:
            cards = parse_cards(t)
        except CardError:
            cards = []
        out += [str(c) for c in cards] if len(cards) > 1 else [t]
    return out


def _turned_up(raw_lines: Sequence[str]) -> dict[str, list[str]]:
    """``pN`` -> every seat's cards in the order turned face up (``d du``, ``exp``,
    ``# roll`` lines), as :func:`rollem.engine.public_order.turned_up`; a key for
    every seat named in a line."""
    out: dict[str, list[str]] = {}
    for line in raw_lines:
        body, _, comment = line.partition("#")
        parts = _card_tokens(body.split())
        bits = comment.split()
        if len(parts) >= 3 and parts[0] == "d" and parts[1] == "du":
            out.setdefault(parts[2], []).extend(parts[3:])
        elif len(parts) >= 3 and parts[1] == "exp":
            out.setdefault(parts[0], []).append(parts[2])
        elif not parts and len(bits) >= 3 and bits[0] == "roll":
            out.setdefault(bits[1], []).append(bits[2])
        elif len(parts) >= 2 and parts[0].startswith("p"):
            out.setdefault(parts[0], [])
    return out


def _public_text(cards: Sequence[str], turned: Sequence[str]) -> list[str]:
    """Cards (text) in :func:`rollem.engine.public_order.public_order` (unchanged
    if any is not a card)."""
    try:
        known = [parse_cards(c)[0] for c in cards]
        up = [parse_cards(c)[0] for c in turned]
    except (CardError, IndexError):
        return list(cards)
    return [str(c) for c in public_order(known, up)]


def redact(history: Mapping[str, Any] | str, seat: int) -> dict[str, Any]:
    """``seat``'s copy of a history: what it saw, where it saw it.

    Removes ``_deck`` and ``_shuffles`` (the stub and the pool's order) and
    a committed deck's ``_deal_key`` (it gives every card; issue 32): once
    the hand is over (``_result``) the copy gets instead ``_openings``, the
    openings of exactly the cards the seat saw come off the deck
    (:func:`rollem.openings.copy_openings`); and
    replaces with ``??`` every card the seat did not see at that point: other
    seats' hole cards and draws where they were dealt (``d dh``, a 5-2-1
    replacement, a Roll Your Own pool draw ``d pd``), burns, and other seats'
    discards, draws and stacking orders. A card another seat later showed is
    named only where the seat saw it: turned up (``exp``, a roll), at the
    showdown (the ``pN sm`` line, ``_result.shown_cards``) or shown by choice
    after the hand (R-C-11), never at the deal; and shown hands are in
    :func:`~rollem.engine.public_order.public_order` (face-up cards in the order
    turned up, then the rest highest first), not the order dealt and drawn.
    So the copy does not tell which shown cards were kept, discarded and drawn
    back from the pool (R-RYO-2, R-RYO-5, R-RYO-6) or drawn as replacements
    (R-521-2, R-521-4): the same as the seat's view during the hand
    (``Hand.view``). Run-together cards stay run together (``d dh p2 ????``).

    The copy is for display: ``_redacted_for`` says whose it is, and
    :func:`replay` refuses it (it never invents the hidden cards).
    """
    data = tomllib.loads(history) if isinstance(history, str) else dict(history)
    raw_lines = [str(line) for line in data.get("actions", [])]
    me = _p(seat)
    turned = _turned_up(raw_lines)
    lines: list[str] = []
    for line in raw_lines:
        tokens = line.split("#", 1)[0].split()
        parts = _card_tokens(tokens)
        if len(parts) >= 3 and parts[0] != me and parts[1] == "sm" and parts[0] in turned:
            # another seat's shown cards in the order all saw them (public_order)
            cards = _public_text(parts[2:], turned[parts[0]])
            sep = "" if len(tokens) == 3 else " "
            lines.append(f"{parts[0]} sm " + sep.join(cards))
            continue
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "pd") and parts[2] != me:
            # another seat's face-down cards: none seen where they were dealt
            sep = "" if parts[1] == "dh" and len(tokens) == 4 else " "
            lines.append(f"d {parts[1]} {parts[2]} " + sep.join("??" for _ in parts[3:]))
            continue
        if len(parts) >= 2 and parts[0] == "d" and parts[1] == "burn":
            lines.append("d burn ??")
            continue
        if len(parts) >= 2 and parts[0].startswith("p") and parts[0] != me \
                and parts[1] in _HIDDEN_CHOICES:
            sep = "" if parts[1] == "sd" else " "
            lines.append(f"{parts[0]} {parts[1]} " + sep.join("??" for _ in parts[2:]))
            continue
        lines.append(line)
    # the deal key gives every card: never in a copy (issue 32)
    out = {k: v for k, v in data.items() if k not in _SECRETS}
    out["actions"] = lines
    result = out.get("_result")
    if isinstance(result, Mapping) and isinstance(result.get("shown_cards"), Mapping):
        out["_result"] = {**result, "shown_cards": {
            s: _public_text([str(c) for c in cs], turned.get(f"p{int(s) + 1}", []))
            if str(s).isdigit() and isinstance(cs, list) else cs
            for s, cs in result["shown_cards"].items()}}
    out["_redacted_for"] = seat
    if "_deal_key" in data and "_result" in data:
        from rollem.openings import copy_openings

        out["_openings"] = copy_openings(data, seat, out)
    return out
