"""A hand history told step by step: a full history is replayed through the
engine; a player's redacted copy (``rollem.history.redact``, which cannot be
replayed) is read line by line, as that player saw the hand."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rollem import toml_input
from rollem.cards import RANKS, CardError, parse_card
from rollem.engine.events import event_to_dict
from rollem.engine.options import Options
from rollem.narration.lines import Line, result_then_shows
from rollem.narration.story import Narrator
from rollem.narration.words import Names, and_list
from rollem.text import ascii_digits, name_safe

if TYPE_CHECKING:
    from rollem.engine.hand import Hand
    from rollem.games.gamefile import GameSpec

__all__ = ["Story", "copy_line_words", "hand_events", "narrate_hand", "narrate_history",
           "redacted_events"]


@dataclass
class Story:
    """A hand told in sentences.

    Attributes:
        game: the game's short id.
        names: players' names, seat 0 first.
        viewer: the seat whose copy it is (a redacted history), else ``None``.
        header: who played, the button, the stakes.
        lines: the hand step by step, then the result.
        finished: whether the hand has a result.
    """

    game: str
    names: list[str]
    viewer: int | None
    header: list[Line] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    finished: bool = True

    def text(self) -> str:
        """Everything as plain text, one sentence a line."""
        return "\n".join(line.text for line in [*self.header, *self.lines])


def hand_events(hand: Hand, viewer: int | None = None) -> list[dict[str, Any]]:
    """The events of an engine hand as dicts: as ``viewer`` sees them, or
    (``None``) each as the seat it concerns sees it: every card of a full
    history, burns and the stub still hidden."""
    if viewer is not None:
        return list(hand.view(viewer).events)
    out = []
    for e in hand.events:
        d = event_to_dict(e, e.seat)
        if d is not None:
            out.append(d)
    return out


def _forced_bets(data: Mapping[str, Any], options: Mapping[str, Any]) -> str:
    """The header's forced bets: ``"ante 1"`` (a stud game's ``"ante 1, bring-in 1"``),
    or a blind game's ``"blinds 1/2"``
    (with ``", straddle 4"``), read from the history's PHH lists."""
    n = len(data.get("starting_stacks") or [])
    blinds = sorted(b for b in _per_seat(data.get("blinds_or_straddles"), n, []) if b > 0)
    if not blinds:
        bring_in = data.get("bring_in")  # (a stud game's, as the web header says it)
        return f"ante {options.get('ante', 1)}" + (
            f", bring-in {bring_in}" if type(bring_in) is int and bring_in > 0 else "")
    words = f"blinds {blinds[0]}/{blinds[1]}" if len(blinds) > 1 else f"blind {blinds[0]}"
    if len(blinds) > 2:
        words += f", straddle {blinds[2]}"
    antes = _per_seat(data.get("antes"), n, [])
    return f"ante {max(antes)}, {words}" if antes and max(antes) > 0 else words


def _tournament_line(data: Mapping[str, Any], names: Sequence[str]) -> list[Line]:
    """A tournament hand's level, from its ``_tournament`` table (issue 28):
    ``"Tournament (turbo), level 3."``; none for a cash game or a malformed table.
    With an add-on taken by this hand (its ``addon_chips``, ``addon_price`` and
    ``addons``, seats, stop 60), who took it, by ``names`` (seat order) as the
    table's panel says it: ``"Took the add-on (+500 chips for 5): Ann and Bob."``
    (left out where those fields are malformed)."""
    t = data.get("_tournament")
    if not isinstance(t, Mapping) or type(t.get("level")) is not int:
        return []
    schedule = t.get("schedule")
    named = f" ({schedule})" if isinstance(schedule, str) and schedule.isprintable() else ""
    lines = [Line(f"Tournament{named[:40]}, level {t['level']}.", "header")]
    chips, price, took = t.get("addon_chips"), t.get("addon_price"), t.get("addons")
    if (type(chips) is int and chips > 0 and type(price) is int and price >= 0
            and isinstance(took, list) and took
            and all(type(s) is int and 0 <= s < len(names) for s in took)):
        said = Names(names, None)
        lines.append(Line(f"Took the add-on (+{chips} chips for {price}): "
                          f"{and_list(said.who(s, start=False) for s in sorted(set(took)))}.",
                          "header"))
    return lines


def _header(game_name: str, names: Sequence[str], stacks: Sequence[int], button: int,
            options: Mapping[str, Any], viewer: int | None, forced: str) -> list[Line]:
    seats = [s for s, st in enumerate(stacks) if st > 0]
    # Players by the names the history records, a copy's owner too (a shared web
    # copy says who saw it: "As Ann saw it"). A seat named "You" (rollem play's
    # player, who has no other name) is the reader, "you" inside a sentence as in
    # the hand's own lines (s55: "You (200), ...; You have the button", "As You saw
    # it" read "You" as a name).
    said = Names(names, None)
    players = and_list(f"{said.who(s, start=False)} ({stacks[s]})" for s in seats)
    from rollem.games.describe import stakes_words

    stakes = stakes_words(str(options.get("structure", "fixed-limit")), forced,
                          options.get("small_bet", 2), options.get("big_bet", 4))
    lines = [
        Line(f"{game_name}: {players}; {said.says(button, 'have', 'has', start=False)} the "
             "button.", "header"),
        Line(f"{stakes[:1].upper()}{stakes[1:]}.", "header"),
    ]
    if viewer is not None:
        lines.append(Line(f"As {said.who(viewer, start=False)} saw it (a redacted copy: other "
                          "players' hidden cards stay hidden unless shown).", "header", viewer,
                          True))
    return lines


def narrate_hand(hand: Hand, names: Sequence[str], viewer: int | None = None) -> list[Line]:
    """The whole hand step by step then its result (if over), for ``viewer``
    (``None``: everything the history holds)."""
    view = hand.view(viewer)
    opts = view.options
    nar = Narrator(names, viewer, options=opts, carry_in=hand.carry_in, game=hand.game.id)
    out: list[Line] = []
    for e in hand_events(hand, viewer):
        out += nar.feed(e)
    out += nar.finish()
    if hand.result is not None:
        mine = view.seats[viewer].cards if viewer is not None else []
        # a viewer's result: others' shown hands in the order it may know them
        result = view.result if viewer is not None and view.result is not None \
            else hand.result.to_dict(cards=True)
        out = result_then_shows(out, nar.result(result, my_cards=mine))
    return out


def _names(data: Mapping[str, Any], n: int) -> list[str]:
    """One name per seat from ``players`` (``"seat N"`` for a seat written ``""``:
    not dealt in), or ``"seat N"`` for every seat without a usable list."""
    players = data.get("players")
    if (isinstance(players, list) and len(players) == n and any(players)
            and all(isinstance(p, str) for p in players)):
        # one line each: a name read from a file cannot start a told line of its own
        return [name_safe(str(p)) or f"seat {s + 1}" for s, p in enumerate(players)]
    return [f"seat {s + 1}" for s in range(n)]


def narrate_history(history: str | Mapping[str, Any], *, lenient: bool = False) -> Story:
    """Tell a hand history (TOML text or its dict) step by step.

    A full history is replayed through the engine (so it is checked: with
    ``lenient``, what it records that the replay contradicts,
    :func:`rollem.history.differences`, is not refused but told as replayed); a
    redacted copy (``_redacted_for``) is checked the same way with stand-in
    cards for its ``??`` (:func:`rollem.history_copy.own_copy_hand`), then
    told from its lines as that seat saw it, with its recorded ``_result``.
    Names come from ``players``.

    Raises:
        rollem.history.HistoryError: a history that cannot be read or replayed
            (a copy: one that describes no hand that can happen).
    """
    from rollem.games import get
    from rollem.history import HistoryError, history_game, parse_history, replay
    from rollem.history_copy import own_copy_hand

    if isinstance(history, str):
        try:
            data: Mapping[str, Any] = toml_input.loads(history)
        except tomllib.TOMLDecodeError as err:
            raise HistoryError(f"not a TOML hand history: {err}") from None
        except RecursionError:
            raise HistoryError("not a hand history: arrays or tables nested too deeply") from None
    else:
        data = history
    redacted_for = data.get("_redacted_for")
    h = parse_history(data) if redacted_for is None else None
    # a copy is told from its lines, once they describe a hand that can happen (its
    # fields checked first: a copy's starting_stacks of 5 was a TypeError, s62-hist)
    stand_in = own_copy_hand(data) if h is None else None
    stacks = list(data.get("starting_stacks") or [])
    names = _names(data, len(stacks))
    variant = str(data.get("variant", ""))
    game_id = variant.removeprefix("rollem-")
    if data.get("_game_file") is not None:  # a user's game: the history carries its file
        game_name = history_game(data).name
    else:
        try:
            game_name = get(game_id).name
        except KeyError:
            raise HistoryError(f"unknown game {game_id!r} in variant {variant!r}") from None
    if h is not None:
        hand = replay(h, check_result=not lenient)
        opts = hand.options.to_dict()
        header = _header(game_name, names, stacks, hand.button, opts, None,
                         _forced_bets(data, opts))
        header[2:2] = _tournament_line(data, names)  # (after the stakes)
        story = Story(game_id, names, None, header, narrate_hand(hand, names),
                      hand.result is not None)
        if hand.result is None:
            story.lines.append(Line("The history ends here, before the hand is over.", "end"))
        return story
    assert stand_in is not None
    viewer: int = data["_redacted_for"]  # a seat: own_copy_hand checked it
    # The engine's words for the seat's own mucked hand, as play tells them (its "it
    # loses to" line; a game file's hands are the engine's words; stop 51): the
    # stand-ins are only others' hidden cards, never the seat's own or the board, so
    # the stand-in hand's words for the seat's hand are the real one's -- shown or
    # mucked there (the stand-ins may beat it or not: only its words are taken).
    words = [str(e["description"]) for e in stand_in.view(viewer).events
             if e.get("kind") in ("muck", "show") and e.get("seat") == viewer
             and e.get("description") and not e.get("by_choice")]
    mucked = {viewer: words[-1]} if words else {}
    # the seat's own hand shown whole by choice: named as play named it (stop 53;
    # the stand-ins are others' hidden cards only: the seat's hand and the board are real)
    whole: tuple[list[str], str | None] | None = None
    if stand_in.result is not None:
        from rollem.engine.showdown import shown_hand_words

        whole = ([str(c) for c in stand_in.hole[viewer]], shown_hand_words(stand_in, viewer))
    try:
        options = Options.from_dict(dict(data.get("_options", {}))).to_dict()
    except (ValueError, TypeError) as err:
        raise HistoryError(f"_options: {err}") from None
    button = int(data.get("_button", 0))
    result = data.get("_result")
    nar, lines = _told_copy(data, options, game_id, names, viewer, mucked, whole=whole)
    mine = _own_cards(data, viewer)
    if isinstance(result, Mapping):
        lines = result_then_shows(lines, nar.result(result, my_cards=mine))
    else:
        lines.append(Line("The history ends here, before the hand is over.", "end"))
    header = _header(game_name, names, stacks, button, options, viewer,
                     _forced_bets(data, options))
    header[2:2] = _tournament_line(data, names)  # (after the stakes)
    return Story(game_id, names, viewer, header, lines, isinstance(result, Mapping))


def _told_copy(data: Mapping[str, Any], options: Mapping[str, Any], game_id: str,
               names: Sequence[str], viewer: int,
               mucked: Mapping[int, str] | None = None, *,
               as_played: bool = True,
               whole: tuple[list[str], str | None] | None = None
               ) -> tuple[Narrator, list[Line]]:
    """A player's copy's lines told (its result left out): the narrator, kept for
    the result, and the sentences.  ``mucked``: seat -> the engine's words for its
    mucked hand (the viewer's own, from :func:`rollem.history.own_copy_hand`), set
    on its muck event as play's engine event carries them.  ``as_played``: told
    as ``rollem play`` told it (:func:`redacted_events`'s ``as_played``); False:
    line by line, each line's sentences where the line is.  ``whole``: the
    viewer's cards and the engine's name for them
    (:func:`rollem.engine.showdown.shown_hand_words`), set on its show by choice
    that leaves none of them hidden (``hand``, ``description``), as the engine's
    show event carries them in play."""
    from rollem.games import get
    from rollem.history import history_game

    spec = (history_game(data) if data.get("_game_file") is not None else get(game_id)).spec
    rounds = spec.round_names(options) if spec is not None else ()
    events = redacted_events(data, options, rounds,
                             into_pool=spec is None or spec.pools_discards,
                             draws=spec.draws(options) if spec is not None else (),
                             as_played=as_played)
    if spec is not None:
        events = _with_fixed_wild(events, spec, options)
    hidden = set(whole[0]) if whole is not None else set()
    for e in events:
        if e.get("kind") == "muck" and mucked and e.get("seat") in mucked:
            e["description"] = mucked[e["seat"]]
        if whole is None or e.get("seat") != viewer:
            continue
        kind = e.get("kind")
        if kind in ("deal_up", "expose", "roll", "show"):
            was = bool(hidden)
            hidden -= {str(c) for c in (e.get("cards") or [e.get("card")])}
            if kind == "show" and e.get("by_choice") and was and not hidden:
                e["hand"] = list(whole[0])
                if whole[1]:
                    e["description"] = whole[1]
    nar = Narrator(names, viewer, options=options, carry_in=int(data.get("_carry_in", 0)),
                   game=game_id)
    lines: list[Line] = []
    for e in events:
        lines += nar.feed(e)
    lines += nar.finish()
    return nar, lines


def _with_fixed_wild(events: list[dict[str, Any]], spec: GameSpec,
                     options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``events`` (a copy's, :func:`redacted_events`) with the ``wild_ranks`` event
    the engine gives for each fixed-wild step of the game (deuces wild, a game
    file's ``wild`` step, R-RYO-9): a copy's lines never name them, and without
    them a replayed copy worded "Bob shows Ac Kd 7h 6h 2s" as ace high (issue 33's
    try-out).  Placed where the engine tells it: after the antes and blinds when
    only forced bets come before the wild step, else first."""
    ranks: list[int] = []
    before: set[str] = set()
    for s in spec.steps:
        if s.when is not None and not options.get(s.when, spec.house.get(s.when)):
            continue
        if s.kind == "wild":
            ranks += [RANKS.index(str(r)) for r in s.params["ranks"] if str(r) in RANKS]
        elif not ranks:
            before.add(s.kind)
    if not ranks:
        return events
    at = 0
    if before and before <= {"ante", "blinds"}:
        while at < len(events) and events[at].get("kind") in ("ante", "blind"):
            at += 1
    told = {"kind": "wild_ranks", "seat": None,
            "ranks": [RANKS[r] for r in sorted(set(ranks))]}
    return [*events[:at], told, *events[at:]]


def copy_line_words(data: Mapping[str, Any], index: int) -> str | None:
    """What line ``index`` (0-based) of a player's own copy's ``actions`` tells, in
    the words ``rollem replay`` and the web table's log use for that copy (its
    player is "you"): the sentences it adds to the story, without their full
    stops (``"Cat turns up 8d"``; cards as short text, :data:`CARD_PATTERN`).
    ``None`` when it adds none (a comment) or the copy cannot be told (a bad
    player, card or game: ``rollem verify`` names those in the file's terms).
    Used to say where a check of the copy stopped in players' words (issue 26)."""
    from rollem.history import HistoryError

    viewer = data.get("_redacted_for")
    actions = data.get("actions")
    if type(viewer) is not int or not isinstance(actions, list) \
            or not 0 <= index < len(actions):
        return None
    stacks = data.get("starting_stacks") or []
    if not isinstance(stacks, list) or not 0 <= viewer < len(stacks):
        return None
    names = _names(data, len(stacks))
    game_id = str(data.get("variant", "")).removeprefix("rollem-")
    try:
        options = Options.from_dict(dict(data.get("_options", {}))).to_dict()
        _, before = _told_copy({**data, "actions": actions[:index]}, options, game_id, names,
                               viewer, as_played=False)
        _, upto = _told_copy({**data, "actions": actions[:index + 1]}, options, game_id,
                             names, viewer, as_played=False)
    except (HistoryError, CardError, KeyError, ValueError, TypeError, IndexError):
        return None
    k = 0
    while k < min(len(before), len(upto)) and before[k] == upto[k]:
        k += 1
    # the line's own sentences: a new round's opening and an uncalled bet taken back
    # (told when the round is cut short here) are about the round, not the line
    added = [line for line in upto[k:] if line.kind not in ("round", "return")] or upto[k:]
    return "; ".join(line.text.rstrip(".") for line in added) or None


def _p(token: str, n: int) -> int:
    if not token.startswith("p") or not ascii_digits(token[1:]) or not 1 <= int(token[1:]) <= n:
        from rollem.history import HistoryError

        raise HistoryError(f"bad player {token!r}: expected p1..p{n}")
    return int(token[1:]) - 1


def _own_cards(data: Mapping[str, Any], seat: int) -> list[str]:
    """The viewer's cards at the end of a redacted history (dealt, minus
    discards; 5-2-1 draws and Roll Your Own pool draws included)."""
    me = f"p{seat + 1}"
    held: list[str] = []
    for line in data.get("actions", []):
        parts = _split_cards(str(line).split("#", 1)[0].split())
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "du", "pd") \
                and parts[2] == me:
            held += [c for c in parts[3:] if c != "??"]
        elif len(parts) >= 2 and parts[0] == me and parts[1] in ("dis", "draw", "sd"):
            held = [c for c in held if c not in _split_cards(parts[2:])]
    return held


_CARD_CODES = ("dis", "exp", "draw", "sd", "stack", "sm")
_CARD_TOKEN = re.compile(r"\?\?|10[cdhs♣♦♥♠]|[2-9TJQKAtjqka][cdhs♣♦♥♠]")


def _split_cards(tokens: Sequence[str]) -> list[str]:
    """Card tokens, also PHH's run-together form (``QsQd`` -> ``Qs``, ``Qd``)."""
    out: list[str] = []
    for t in tokens:
        found = _CARD_TOKEN.findall(t)
        if found and "".join(found) == t:
            out += [c if c == "??" else str(parse_card(c)) for c in found]
        else:
            out.append(t)
    return out


_ALL_AT_ONCE = ("dis", "exp", "decl", "stack")


def _in_reveal_order(actions: Sequence[tuple[int, str]], button: int,
                     n: int) -> list[tuple[int, str]]:
    """``actions`` with each all-at-once choice (a run of ``dis``, ``exp``,
    ``decl`` or ``stack`` lines of different seats, written in the order chosen)
    in the order the engine reveals it: clockwise from the button's left
    (``AllAtOnceStep.seats``, R-C-7), as ``rollem play`` tells it."""
    out: list[tuple[int, str]] = []
    run: list[tuple[int, tuple[int, str]]] = []  # (seat, (number, line))
    code = ""

    def flush() -> None:
        run.sort(key=lambda r: (r[0] - button - 1) % max(n, 1))
        out.extend(numbered for _, numbered in run)
        run.clear()

    for numbered in actions:
        line = numbered[1]
        parts = line.split("#", 1)[0].split()
        seat = parts[0] if parts else ""
        if (len(parts) >= 2 and parts[1] in _ALL_AT_ONCE and seat[:1] == "p"
                and ascii_digits(seat[1:])):
            s = int(seat[1:]) - 1
            if run and (parts[1] != code or any(s == r for r, _ in run)):
                flush()
            code = parts[1]
            run.append((s, numbered))
            continue
        flush()
        out.append(numbered)
    flush()
    return out


def _per_seat(value: Any, n: int, default: list[int]) -> list[int]:
    """A PHH per-seat list of chips (``antes``, ``blinds_or_straddles``), or ``default``."""
    if isinstance(value, list) and len(value) == n and all(type(v) is int for v in value):
        return [max(0, v) for v in value]
    return default


def redacted_events(data: Mapping[str, Any], options: Mapping[str, Any],
                    rounds: Sequence[str] = (), *, into_pool: bool = True,
                    draws: Sequence[tuple[str, int]] = (),
                    as_played: bool = False) -> list[dict[str, Any]]:
    """Events (as ``HandView.events`` dicts) read from a history's lines
    without the engine: antes, deals (cards, or counts for ``??``), betting
    with amounts (a betting round ends at the next non-betting line; the
    uncalled part of its top bet is returned, R-C-9), pool, draws, exposes,
    the wild card, roll-ups (``# roll`` comments), declarations, shows and
    mucks, and ``failed_both`` worked out from ``_result`` (R-521-9).
    ``rounds``: the betting rounds' names in the order played (the game file's,
    :meth:`rollem.games.gamefile.GameSpec.round_names`); a round past them is
    ``"round N"``. ``into_pool`` False: the game's discards are out of play
    (:attr:`rollem.games.gamefile.GameSpec.pools_discards`, issue 33).
    ``draws``: each draw's label and most cards
    (:meth:`rollem.games.gamefile.GameSpec.draws`); a draw past them is ``"draw N"``.
    ``as_played``: as the engine told them to the players (``rollem play``'s
    narration): an all-at-once choice's lines (discards, turn-ups, declarations,
    stacking), written in the order chosen, in seat order from the button's left
    (:func:`_in_reveal_order`), and the pool's shuffle (a ``pool`` event with its
    count) after the discards into it; False: one event or none per line, where
    the line is (a line's own words, :func:`copy_line_words`).

    Raises:
        rollem.history.HistoryError: a bad player or card in a line.
    """
    from rollem.history import HistoryError

    actions = list(enumerate(str(a) for a in data.get("actions", [])))
    if as_played:  # (each line keeps its number, for the errors)
        actions = _in_reveal_order(actions, int(data.get("_button", 0) or 0),
                                   len(data.get("starting_stacks", [])))
    pool = 0  # cards in the pool (as_played: its shuffle's count)
    pooled = False  # discards into the pool told, its shuffle not yet
    stacks = [int(s) for s in data.get("starting_stacks", [])]
    n = len(stacks)
    ante = int(options.get("ante", 1))
    antes = _per_seat(data.get("antes"), n, [ante] * n)
    blinds = _per_seat(data.get("blinds_or_straddles"), n, [0] * n)
    events: list[dict[str, Any]] = []
    for s in range(n):
        if stacks[s] > 0 and antes[s] > 0:
            amount = min(antes[s], stacks[s])
            stacks[s] -= amount
            events.append({"kind": "ante", "seat": s, "amount": amount,
                           "all_in": stacks[s] == 0})
    bets = [0] * n
    # Blinds and a straddle (PHH blinds_or_straddles), smallest first; they are the
    # first betting round's opening bets.
    posted = sorted((b, s) for s, b in enumerate(blinds) if b > 0 and stacks[s] > 0)
    for (amount, s), label in zip(posted, ("small blind", "big blind", "straddle"),
                                  strict=False):
        amount = min(amount, stacks[s])
        stacks[s] -= amount
        bets[s] = amount
        events.append({"kind": "blind", "seat": s, "amount": amount, "blind": label,
                       "all_in": stacks[s] == 0})
    state = {"cur": max(bets, default=0), "betting": False, "round": 0, "draws": 0}
    # The engine names the last blind as the first round's opener (its forced bet opened it).
    blind_opener = posted[-1][1] if posted else None
    bring_in = data.get("bring_in") if not posted else None  # PHH: a stud game's bring-in
    wild_pick: list[tuple[int | None, int | None]] = []
    declared: dict[int, str] = {}
    last_draw: int | None = None
    folded: set[int] = set()
    showed: set[int] = set()

    def end_round() -> None:
        if not state["betting"]:
            return
        ordered = sorted(bets, reverse=True)
        top, second = ordered[0], ordered[1] if n > 1 else 0
        if top > second:
            s = bets.index(top)
            stacks[s] += top - second
            events.append({"kind": "return", "seat": s, "amount": top - second})
        bets[:] = [0] * n
        state["cur"] = 0
        state["betting"] = False

    def start_round(seat: int) -> None:
        if not state["betting"]:
            state["betting"] = True
            state["round"] += 1
            opener = blind_opener if state["round"] == 1 and blind_opener is not None else seat
            k = state["round"]
            name = rounds[k - 1] if k <= len(rounds) else f"round {k}"
            started: dict[str, Any] = {"kind": "round", "seat": seat, "round": name,
                                       "opener": opener}
            if k == 1 and type(bring_in) is int and bring_in > 0:
                started["to_complete"] = True  # as the engine marks a bring-in round
            events.append(started)

    for i, raw in actions:
        body, _, comment = str(raw).partition("#")
        parts = _split_cards(body.split())  # PHH's run-together cards too
        comment = comment.strip()
        if pooled and parts and parts[1:2] != ["dis"]:
            events.append({"kind": "pool", "seat": None, "count": pool, "shuffled": True})
            pooled = False
        try:
            if not parts:
                bits = comment.split()
                if len(bits) >= 3 and bits[0] == "roll":
                    end_round()
                    events.append({"kind": "roll", "seat": _p(bits[1], n),
                                   "card": str(parse_card(bits[2]))})
                elif len(bits) >= 4 and bits[0] == "reshuffle" and bits[1] == "for":
                    events.append({"kind": "reshuffle", "seat": _p(bits[2].rstrip(":"), n),
                                   "count": int(bits[3]) if ascii_digits(bits[3]) else "some"})
                continue
            if parts[0] == "d":
                end_round()
                code = parts[1] if len(parts) > 1 else ""
                if code in ("dh", "du"):
                    seat = _p(parts[2], n)
                    cards = parts[3:]
                    all_known = all(c != "??" for c in cards)
                    if code == "du":
                        events.append({"kind": "deal_up", "seat": seat, "cards": cards})
                        continue
                    kind = "draw_deal" if last_draw == seat else "deal_hole"
                    last_draw = None
                    if all_known:
                        events.append({"kind": kind, "seat": seat,
                                       "cards": [str(parse_card(c)) for c in cards]})
                    else:
                        events.append({"kind": kind, "seat": seat, "count": len(cards)})
                elif code == "dead":
                    events.append({"kind": "dead", "seat": None, "card": parts[2],
                                   "label": comment})
                elif code == "db":
                    events.append({"kind": "board", "seat": None, "cards": parts[2:],
                                   "label": comment})
                elif code == "pd":
                    pool -= 1
                    ev: dict[str, Any] = {"kind": "pool_draw", "seat": _p(parts[2], n)}
                    if len(parts) > 3 and parts[3] != "??":
                        ev["card"] = parts[3]
                    events.append(ev)
                elif code == "wild" and len(parts) > 2:
                    pool -= 1  # (R-RYO-7: picked from the pool, then dead)
                    card = parse_card(parts[2])
                    picker, pos = wild_pick.pop() if wild_pick else (None, None)
                    events.append({"kind": "wild", "seat": picker, "card": str(card),
                                   "position": pos, "rank": RANKS[card.rank]})
                continue
            seat = _p(parts[0], n)
            code = parts[1] if len(parts) > 1 else ""
            args = parts[2:]
            if code in ("f", "cc", "cbr"):
                start_round(seat)
                if code == "f":
                    folded.add(seat)
                    events.append({"kind": "fold", "seat": seat})
                elif code == "cc" and type(bring_in) is int and state["round"] == 1 \
                        and state["cur"] == 0 and bring_in > 0:
                    # the first call of a stud game's first round posts the bring-in
                    amount = min(bring_in, stacks[seat])
                    stacks[seat] -= amount
                    bets[seat] += amount
                    state["cur"] = amount
                    events.append({"kind": "bet", "seat": seat, "to": amount, "amount": amount,
                                   "all_in": stacks[seat] == 0, "bring_in": True})
                elif code == "cc":
                    to_call = state["cur"] - bets[seat]
                    if to_call <= 0:
                        events.append({"kind": "check", "seat": seat})
                    else:
                        amount = min(to_call, stacks[seat])
                        stacks[seat] -= amount
                        bets[seat] += amount
                        events.append({"kind": "call", "seat": seat, "amount": amount,
                                       "to": bets[seat], "all_in": stacks[seat] == 0})
                else:
                    to = int(args[0])
                    amount = to - bets[seat]
                    stacks[seat] -= amount
                    bets[seat] = to
                    events.append({"kind": "bet" if state["cur"] == 0 else "raise",
                                   "seat": seat, "to": to, "amount": amount,
                                   "all_in": stacks[seat] == 0})
                    state["cur"] = max(state["cur"], to)
                continue
            end_round()
            args = _split_cards(args) if code in _CARD_CODES else args
            known = [c for c in args if c != "??"]
            if code == "dis":
                ev = {"kind": "discard", "seat": seat, "count": len(args)}
                if not into_pool:
                    ev["into_pool"] = False
                else:
                    pool += len(args)
                    pooled = as_played
                if len(known) == len(args):
                    ev["cards"] = known
                events.append(ev)
            elif code == "exp" and args:
                events.append({"kind": "expose", "seat": seat, "card": args[0]})
            elif code in ("draw", "sd"):
                if not events or events[-1]["kind"] not in ("draw", "draw_deal", "reshuffle"):
                    state["draws"] += 1
                    k = state["draws"]
                    label, most = draws[k - 1] if k <= len(draws) else (f"draw {k}", None)
                    events.append({"kind": "draw_round", "seat": None, "draw": label}
                                  | ({} if most is None else {"max": most}))
                last_draw = seat if args else None
                ev = {"kind": "draw", "seat": seat, "count": len(args)}
                if args and len(known) == len(args):
                    ev["cards"] = known
                events.append(ev)
            elif code == "wild" and args:
                wild_pick.append((seat, int(args[0])))
            elif code == "stack":
                if args and len(known) == len(args):
                    events.append({"kind": "stacked", "seat": seat, "cards": known})
            elif code == "decl" and args:
                declared[seat] = args[0]
                events.append({"kind": "declare", "seat": seat, "side": args[0]})
            elif code == "sm":
                if args and (seat in folded or seat in showed):
                    # after the hand: shown by choice (R-C-11)
                    events.append({"kind": "show", "seat": seat, "cards": known,
                                   "by_choice": True})
                elif args:
                    showed.add(seat)
                    ev = {"kind": "show", "seat": seat, "cards": args}
                    if seat in declared:
                        ev["side"] = declared[seat]
                    shown = (data.get("_result") or {}).get("shown", {})
                    if str(seat) in shown:
                        ev["description"] = shown[str(seat)]
                    events.append(ev)
                else:
                    showed.add(seat)
                    events.append({"kind": "muck", "seat": seat})
        except (CardError, ValueError, IndexError) as err:
            if isinstance(err, HistoryError):
                raise
            raise HistoryError(f"line {i + 1} of actions ({raw!r}): {err}") from None
    end_round()
    result = data.get("_result")
    if declared and isinstance(result, Mapping):
        for k, pot in enumerate(result.get("pots", [])):
            won = {int(s) for s, c in (pot.get("winners") or {}).items() if c}
            for s in pot.get("eligible", []):
                if declared.get(int(s)) == "both" and int(s) not in won:
                    events.append({"kind": "failed_both", "seat": int(s), "pot": k})
    return events
