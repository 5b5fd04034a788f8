"""Hand histories: a versioned TOML text recording a whole hand (R-C-13).

The layout follows PHH (PokerKit's Poker Hand History): ``variant``
(``"rollem-<game id>"``), ``antes``, ``min_bet``, ``small_bet``/``big_bet``,
``starting_stacks``, ``actions`` (``"d dh p1 Qs Qd"``, ``"p2 cbr 4"``...),
``players``; what PHH lacks is in ``_``-prefixed fields: ``_version``,
``_button``, ``_options``, ``_deck`` (the deck order), ``_shuffles`` (every
later random outcome: the pool's shuffle, reshuffles), ``_carry_in``,
``_result``. Seat ``s`` is written ``p{s+1}`` as in PHH. See
``docs/hand-history.md``.

- :func:`write_history` / :func:`history_dict`: a finished (or running) hand.
- :func:`read_history`: parse and check a history's text into a :class:`History`.
- :func:`replay`: rebuild the :class:`Hand` by applying everything again;
  raises :class:`HistoryError` if the recorded ``_result`` differs.
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
>>> replay(text.replace('"p1 cc"', '"p1 f"', 1))
Traceback (most recent call last):
    ...
rollem.history.HistoryError: action 1 (line 3 of actions: p1 f): seat 0 cannot do that: ...
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
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.randomness import RandomSource, ReplaySource

__all__ = [
    "VERSION",
    "DealPreset",
    "History",
    "HistoryError",
    "history_dict",
    "read_history",
    "redact",
    "replay",
    "write_history",
]

VERSION = 1
"""Format version written in ``_version``."""


class HistoryError(ValueError):
    """A history that cannot be read or does not replay; the message says where and why."""


# ---------------------------------------------------------------- writing


def _p(seat: int | None) -> str:
    return f"p{(seat or 0) + 1}"


def _event_line(kind: str, seat: int | None, data: Mapping[str, Any]) -> str | None:
    if kind in ("deal_hole", "draw_deal"):
        return f"d dh {_p(seat)} {format_cards(data['cards'])}"
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
        return f"d db {format_cards(data['cards'])} # {data.get('label', '')}".rstrip(" #")
    if kind == "reshuffle":  # R-521-5: the new stub's order is in _shuffles
        own = ", their own discards added" if data.get("own") else ""
        return (f"# reshuffle for {_p(seat)}: {data['count']} cards (muck and discards"
                f"{own}) -> _shuffles")
    if kind == "roll":  # R-521-7 (the cards are set by the stacking; a comment)
        return f"# roll {_p(seat)} {CARDS[data['card']]}"
    if kind == "show":
        if data.get("by_choice"):  # written as the player's action line (R-C-11)
            return None
        return f"{_p(seat)} sm {format_cards(data['cards'])}"
    if kind == "muck":
        return f"{_p(seat)} sm"
    return None


def history_dict(hand: Hand, *, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The history of ``hand`` as a TOML-ready dict (see the module doc)."""
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
        "antes": [opts.ante if hand.dealt[s] else 0 for s in range(n)],
        "blinds_or_straddles": [0] * n,
        "small_bet": opts.small_bet,
        "big_bet": opts.big_bet,
        "min_bet": opts.small_bet,
        "starting_stacks": list(hand.start_stacks),
        "actions": lines,
        "players": list(players) if players is not None else [f"seat {s}" for s in range(n)],
        "_version": VERSION,
        "_game": hand.game.id,
        "_button": hand.button,
        "_options": opts.to_dict(),
        "_carry_in": hand.carry_in,
        "_deck": format_cards(outcomes[0][1]) if outcomes else "",
        "_shuffles": [{"label": label, "cards": format_cards(order)}
                      for label, order in outcomes[1:]],
    }
    if hand.result is not None:
        out["finishing_stacks"] = list(hand.stacks)
        out["_result"] = hand.result.to_dict(cards=True)
    return out


def write_history(hand: Hand, *, players: Sequence[str] | None = None) -> str:
    """The history of ``hand`` as TOML text."""
    return tomli_w.dumps(history_dict(hand, players=players))


# ---------------------------------------------------------------- reading


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
    """Lines the replay must agree with but that set nothing: ``("pd", seat,
    [card])`` a draw from the pool, ``("wild", None, [card])`` the wild card
    turned (R-RYO-5..R-RYO-7); the pool's order comes from ``_shuffles``."""
    action_lines: list[int] = field(default_factory=list)
    """For each entry of :attr:`actions`, its line number (1-based) in the
    history's ``actions`` list, which also holds dealing, showdown and comment
    lines. Players' actions are numbered 1, 2, ... on their own (``--at K``,
    replay errors); this maps them back to the file."""
    shows: list[tuple[int, list[Card]]] = field(default_factory=list)
    """``pN sm CARDS`` lines: the showdown's (checked by nothing) and, once the
    hand is over, shows by choice (R-C-11), applied on replay."""


def _seat(token: str, n: int, where: str) -> int:
    if not token.startswith("p") or not token[1:].isdigit() or not 1 <= int(token[1:]) <= n:
        raise HistoryError(f"{where}: bad player {token!r}: expected p1..p{n}")
    return int(token[1:]) - 1


def read_history(text: str) -> History:
    """Parse a history's TOML text.

    Raises:
        HistoryError: naming the field or action line that is wrong.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise HistoryError(f"not a TOML hand history: {err}") from None
    return parse_history(data)


def parse_history(data: Mapping[str, Any]) -> History:
    """Check and convert a history dict (as :func:`history_dict` makes)."""
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant.startswith("rollem-"):
        raise HistoryError(f"variant must be 'rollem-<game>' (e.g. rollem-sdr), got {variant!r}")
    game = variant[len("rollem-"):]
    version = data.get("_version", VERSION)
    if version != VERSION:
        raise HistoryError(f"_version {version!r} is not supported: expected {VERSION}")
    stacks = data.get("starting_stacks")
    if not isinstance(stacks, list) or not all(type(s) is int and s >= 0 for s in stacks):
        raise HistoryError("starting_stacks must be a list of whole numbers of chips")
    n = len(stacks)
    button = data.get("_button", 0)
    if type(button) is not int:
        raise HistoryError("_button must be a seat number")
    opt_data = dict(data.get("_options", {}))
    if "_options" not in data:
        antes = data.get("antes", [])
        if antes:
            opt_data["ante"] = max(antes)
        for key in ("small_bet", "big_bet"):
            if key in data:
                opt_data[key] = data[key]
    try:
        options = Options.from_dict(opt_data)
    except (EngineError, TypeError) as err:
        raise HistoryError(f"_options: {err}") from None
    try:
        deck = parse_cards(data["_deck"]) if data.get("_deck") else None
        shuffles = [(str(s["label"]), parse_cards(s["cards"])) for s in data.get("_shuffles", [])]
    except (CardError, KeyError, TypeError) as err:
        raise HistoryError(f"_deck/_shuffles: {err}") from None
    deals: list[tuple[str, int | None, list[Card]]] = []
    checks: list[tuple[str, int | None, list[Card]]] = []
    actions: list[tuple[int, str]] = []
    action_lines: list[int] = []
    shows: list[tuple[int, list[Card]]] = []
    for i, line in enumerate(data.get("actions", [])):
        where = f"line {i + 1} of actions ({line!r})"
        if not isinstance(line, str):
            raise HistoryError(f"{where}: each action must be a string")
        body = line.split("#", 1)[0].strip()
        parts = body.split()
        if not parts:
            continue
        try:
            if parts[0] == "d":
                if len(parts) < 2:
                    raise HistoryError(f"{where}: expected 'd dh pN CARDS', 'd db CARDS'...")
                code = parts[1]
                if code in ("dh", "du"):
                    seat = _seat(parts[2] if len(parts) > 2 else "", n, where)
                    cards = [] if "?" in body else parse_cards(parts[3:])
                    deals.append(("p", seat, cards))
                elif code in ("db", "dead", "burn"):
                    cards = [] if "?" in body else parse_cards(parts[2:])
                    deals.append((code, None, cards))
                elif code == "pd":
                    seat = _seat(parts[2] if len(parts) > 2 else "", n, where)
                    if "?" not in body:
                        checks.append(("pd", seat, parse_cards(parts[3:])))
                elif code == "wild":
                    if "?" not in body:
                        checks.append(("wild", None, parse_cards(parts[2:])))
                else:
                    raise HistoryError(f"{where}: unknown dealing code {code!r}: "
                                       "expected dh, du, db, dead, burn, pd, wild")
            else:
                seat = _seat(parts[0], n, where)
                if len(parts) >= 2 and parts[1] == "sm":
                    # showdown lines are informational (the engine shows); after
                    # the hand, a show by choice (R-C-11) is applied on replay
                    if len(parts) > 2 and "?" not in body:
                        shows.append((seat, parse_cards(parts[2:])))
                    continue
                rest = " ".join(parts[1:])
                try:
                    action_from_text(rest)  # check now, apply on replay
                except ValueError as err:
                    raise HistoryError(f"action {len(actions) + 1} ({where}): {err}") from None
                actions.append((seat, rest))
                action_lines.append(i + 1)
        except (CardError, ValueError) as err:
            if isinstance(err, HistoryError):
                raise
            raise HistoryError(f"{where}: {err}") from None
    result = data.get("_result")
    return History(game=game, stacks=list(stacks), button=button, options=options,
                   carry_in=int(data.get("_carry_in", 0)), deck=deck, shuffles=shuffles,
                   deals=deals, actions=actions, checks=checks, action_lines=action_lines,
                   shows=shows,
                   result=dict(result) if isinstance(result, Mapping) else None,
                   raw=dict(data))


class DealPreset:
    """Supplies chosen cards as they are dealt (hand-written histories, tests).

    ``deals``: ``(key, seat, cards)`` with key ``"p"`` (cards to a seat:
    hole cards and draws, in order), ``"db"`` (board), ``"dead"``, ``"burn"``.
    Any other card comes from the cards not named anywhere, in deck order.
    :attr:`dealt` is the order the cards were dealt in.
    """

    def __init__(self, deals: Sequence[tuple[str, int | None, Sequence[int]]],
                 prefix: Sequence[int] = ()) -> None:
        self.queues: dict[tuple[str, int | None], list[Card]] = {}
        named: set[int] = set(prefix)
        for key, seat, cards in deals:
            self.queues.setdefault((key, seat), []).extend(CARDS[c] for c in cards)
            for c in cards:
                if c in named:
                    raise HistoryError(f"card {CARDS[c]} is dealt twice; each card exists once")
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
    action = action_from_text(text)
    p = hand.pending
    if p is not None and p.kind == "bet":
        if isinstance(action, Call) and "check" in hand.legal_actions(seat).actions:
            action = Check()
        elif isinstance(action, Raise) and hand.current_bet == 0:
            action = Bet(action.to)
    try:
        hand.apply(seat, action)
    except EngineError as err:
        raise HistoryError(f"{_where(h, index)}: {err}") from None


def _fill(prefix: Sequence[int]) -> list[Card]:
    used = set(prefix)
    if len(used) != len(prefix):
        raise HistoryError("_deck names a card twice; each card exists once")
    return [CARDS[c] for c in prefix] + [c for c in CARDS if c not in used]


def replay(history: History | str, *, check_result: bool = True) -> Hand:
    """Rebuild the hand of ``history`` (a :class:`History` or TOML text).

    Raises:
        HistoryError: a bad field or action, or (``check_result``) a recorded
            ``_result`` different from the replay's.
    """
    h = read_history(history) if isinstance(history, str) else history
    try:
        from rollem.games import get

        game = get(h.game)
    except KeyError as err:
        raise HistoryError(str(err.args[0])) from None
    try:
        if h.deck is not None and len(h.deck) == 52:
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
        raise HistoryError(str(err)) from None
    for i in range(len(h.actions)):
        _apply_text(hand, h, i)
    if hand.result is not None:
        for seat, cards in h.shows:
            showable = hand.showable(seat)
            if cards and all(c in showable for c in cards):
                hand.apply(seat, Show(tuple(cards)))
    if h.checks:
        _check_lines(hand, h.checks)
    if check_result and h.result is not None:
        if hand.result is None:
            raise HistoryError("the history records a result but its actions do not finish "
                               "the hand")
        got = hand.result.to_dict()
        for key in ("pots", "net", "carried"):
            if key in h.result and h.result[key] != got[key]:
                raise HistoryError(f"recorded _result {key} {h.result[key]!r} differs from the "
                                   f"replay's {got[key]!r}")
    return hand


def _check_lines(hand: Hand, checks: Sequence[tuple[str, int | None, list[Card]]]) -> None:
    """Compare the history's ``d pd``/``d wild`` lines with what the replay dealt."""
    got = [("pd" if e.kind == "pool_draw" else "wild", e.seat if e.kind == "pool_draw" else None,
            [e.data["card"]]) for e in hand.events if e.kind in ("pool_draw", "wild")]
    for i, (code, seat, cards) in enumerate(checks):
        want = f"d {code} {'' if seat is None else _p(seat) + ' '}{format_cards(cards)}"
        if i >= len(got):
            raise HistoryError(f"line {want!r}: the replay deals no such card from the pool")
        g_code, g_seat, g_cards = got[i]
        if (g_code, g_seat, list(g_cards)) != (code, seat, list(cards)):
            have = f"d {g_code} {'' if g_seat is None else _p(g_seat) + ' '}"
            raise HistoryError(f"line {want!r} differs from the replay's "
                               f"{have + format_cards(g_cards)!r} (the pool's order is "
                               "set by _shuffles)")


# ---------------------------------------------------------------- redaction

_HIDDEN_CHOICES = ("dis", "draw", "stack")


def redact(history: Mapping[str, Any] | str, seat: int) -> dict[str, Any]:
    """``seat``'s copy of a history: what it saw plus what was shown at showdown.

    Removes ``_deck`` and ``_shuffles`` (the stub and the pool's order),
    replaces other seats' hidden cards and burns with ``??`` unless shown at
    showdown (in ``_result.shown_cards``), and hides other seats' discards,
    draws and stacking orders. The copy is for display; it cannot be replayed.
    """
    data = tomllib.loads(history) if isinstance(history, str) else dict(history)
    shown = {str(s): set(cs) for s, cs in
             (data.get("_result") or {}).get("shown_cards", {}).items()}
    me = _p(seat)
    lines: list[str] = []
    for line in data.get("actions", []):
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "pd") and parts[2] != me:
            # another seat's hidden cards: only those it showed at showdown (not,
            # e.g., the cards it discarded to a pool, R-RYO-2)
            other = shown.get(str(int(parts[2][1:]) - 1), set())
            lines.append(f"d {parts[1]} {parts[2]} "
                         + " ".join(c if c in other else "??" for c in parts[3:]))
            continue
        if len(parts) >= 2 and parts[0] == "d" and parts[1] == "burn":
            lines.append("d burn ??")
            continue
        if len(parts) >= 2 and parts[0].startswith("p") and parts[0] != me \
                and parts[1] in _HIDDEN_CHOICES:
            lines.append(f"{parts[0]} {parts[1]} " + " ".join("??" for _ in parts[2:]))
            continue
        lines.append(line)
    out = {k: v for k, v in data.items() if k not in ("_deck", "_shuffles")}
    out["actions"] = lines
    out["_redacted_for"] = seat
    return out
