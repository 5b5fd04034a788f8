"""Reading a history: :func:`read_history`, :func:`parse_history` (checks
every field and line, naming what is wrong) and :func:`history_game`."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from rollem import toml_input
from rollem.cards import Card, CardError, parse_cards
from rollem.engine.actions import (
    action_from_text,
)
from rollem.engine.game import Game
from rollem.engine.options import Options
from rollem.history.format import (
    READ_VERSIONS,
    VERSION,
    DealLine,
    History,
    HistoryError,
    _brief,
    _one_line,
)
from rollem.text import ascii_digits, same_name, same_name_refusal


def _variant_game_id(data: Mapping[str, Any]) -> str:
    """The game id of a history's ``variant`` (``rollem-<id>``).

    Raises:
        HistoryError: no such variant; a game file (``steps``, no ``variant``) is
            told apart from a hand history (issue 33), and so is an empty one.
    """
    if not data:  # (s71: an empty file was "there is no variant: ...")
        raise HistoryError("the history is empty (no fields): a hand history names its "
                           "game, the players' stacks and their actions (rollem play saves "
                           "one for every hand; docs/hand-history.md)")
    variant = data.get("variant")
    if variant is None and "steps" in data:  # (``format`` is optional in a game file)
        raise HistoryError("this is a game file, not a hand history: play it with "
                           "rollem play --game-file FILE (rollem check-game FILE checks it)")
    if variant is None and data and all(isinstance(v, dict) for v in data.values()):
        raise HistoryError(f"a .phhs of {len(data)} hand(s) ([1], [2] ...), not one hand "
                           "history: give one hand's file (rollem play saves each as "
                           "hand-0001-GAME.toml beside session.phhs; the web table's "
                           "download is hand-N.toml)")
    if variant is None:
        from rollem.phh.variants import VARIANTS  # lazy: rollem.phh reads histories

        raise HistoryError("there is no variant: a rollem history names its game "
                           "('rollem-<game>', e.g. rollem-sdr), a PHH hand its code "
                           f"({', '.join(VARIANTS)})")
    if not isinstance(variant, str) or not variant.startswith("rollem-"):
        raise HistoryError(f"variant must be 'rollem-<game>' (e.g. rollem-sdr); "
                           f"got {_brief(variant)}")
    return variant[len("rollem-"):]


def history_game(data: Mapping[str, Any]) -> Game:
    """The game of a history dict: the game file it carries (``_game_file``), else the
    shipped game named by ``variant`` (``rollem-<id>``).

    Raises:
        HistoryError: unknown game id, or a ``_game_file`` with a mistake (its
            one-line error) or whose id is not the variant's.
    """
    game_id = _variant_game_id(data)
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
            raise HistoryError(f"_game_file is game {game.id!r} but variant is "
                               f"{data.get('variant')!r}")
        return game
    from rollem.games import get

    try:
        return get(game_id)
    except KeyError as err:
        raise HistoryError(_one_line(str(err.args[0])) + " (a history of your own game "
                           "carries its game file as _game_file)") from None


def _seat(token: str, n: int, where: str) -> int:
    if not token.startswith("p") or not ascii_digits(token[1:]) or not 1 <= int(token[1:]) <= n:
        raise HistoryError(f"{where}: bad player {token!r}: expected p1..p{n}")
    return int(token[1:]) - 1


def read_history(text: str) -> History:
    """Parse a history's TOML text (a leading UTF-8 byte order mark is ignored).

    Raises:
        TypeError: ``text`` is not a ``str`` (bytes, a number, a path, a dict...):
            the message names its type and what is allowed.
        HistoryError: naming the field or action line that is wrong.
    """
    if not isinstance(text, str):
        raise TypeError(
            f"read_history takes a history's TOML text (a str), not {type(text).__name__} "
            f"{_brief(text)}: read a file with Path.read_text(encoding='utf-8'), decode "
            "bytes first, or give a history dict to parse_history")
    return parse_history(history_table(text))


def history_table(text: str) -> dict[str, Any]:
    """The table of a history's (or a player's own copy's) TOML text, a leading
    UTF-8 byte order mark ignored; its fields are not checked here.

    Raises:
        HistoryError: the text is not TOML.
    """
    try:
        return toml_input.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as err:
        raise HistoryError(f"not a TOML hand history: {_one_line(str(err))}") from None
    except RecursionError:  # tomllib recurses once per level of [ or {
        raise HistoryError("not a hand history: arrays or tables nested too deeply") from None


def not_a_history(function: str, value: object) -> TypeError:
    """The error for ``function`` given ``value``, which is neither a history's
    TOML text (a ``str``) nor its table (a mapping): it names the type given
    and what is allowed."""
    return TypeError(
        f"{function} takes a history's TOML text (a str) or its table (a dict), not "
        f"{type(value).__name__} {_brief(value)}: read a file with "
        "Path.read_text(encoding='utf-8') or decode bytes first")


_TOURNAMENT_KEYS = ("schedule", "level", "ante", "small_bet", "big_bet", "hands", "minutes",
                    "break", "addon_chips", "addon_price", "addons")
"""The fields of a history's ``_tournament`` table
(:meth:`rollem.tournament.session.Tournament.hand_record`)."""


def _check_tournament(block: object, options: Options, n: int) -> None:
    """A tournament hand's ``_tournament`` table (issue 28), checked against what
    the history says elsewhere (s62-hist: a copy edited to ``level = 7`` beside
    level 2's stakes replayed and was told as level 7).

    ``schedule`` (its name, text) and ``level`` (1-based, a whole number) are
    required; ``ante``, ``small_bet`` and ``big_bet`` (where given) must be the
    hand's ``_options`` (the stakes the hand was played at, which the PHH header's
    forced bets are checked against); for a shipped schedule (``turbo``,
    ``regular``, ``slow``) the level must be one of its levels and ``ante``,
    ``small_bet``, ``big_bet``, ``hands``, ``minutes`` and ``break`` (where given)
    that level's; ``addon_chips``, ``addon_price`` and ``addons`` come together:
    chips (a whole number from 1), a price (from 0) and distinct seats
    (0 to ``n`` - 1, ascending). No other field.

    Raises:
        HistoryError: the first field that is wrong, with what is allowed.
    """
    from rollem.tournament.schedule import MAX_LEVELS, SCHEDULES

    if not isinstance(block, Mapping):
        raise HistoryError(f"_tournament must be a table (schedule, level and stakes), got "
                           f"{_brief(block)}")
    extra = sorted(str(k) for k in block if k not in _TOURNAMENT_KEYS)
    if extra:
        raise HistoryError(f"_tournament: unknown field {_brief(extra[0])}; allowed: "
                           f"{', '.join(_TOURNAMENT_KEYS)}")
    name, level = block.get("schedule"), block.get("level")
    if not isinstance(name, str) or not name or not name.isprintable() or len(name) > 255:
        raise HistoryError(f"_tournament.schedule must be the schedule's name (text of 1 to "
                           f"255 printable characters), got {_brief(name)}")
    shipped = SCHEDULES.get(name)
    top = len(shipped.levels) if shipped is not None else MAX_LEVELS
    if type(level) is not int or not 1 <= level <= top:
        which = f"the {name} schedule's levels" if shipped is not None else "a schedule's levels"
        raise HistoryError(f"_tournament.level must be a whole number from 1 to {top} "
                           f"({which}), got {_brief(level)}")
    for key in ("ante", "small_bet", "big_bet"):
        if key in block and (type(block[key]) is not int
                             or block[key] != getattr(options, key)):
            raise HistoryError(f"_tournament.{key} = {_brief(block[key])} contradicts "
                               f"_options ({key} = {getattr(options, key)}): a level's stakes "
                               "are the hand's")
    for key, low, high in (("hands", 1, 10_000), ("minutes", 0.1, 600), ("break", 0, 120)):
        value = block.get(key)
        if key in block and (isinstance(value, bool) or not isinstance(value, int | float)
                             or (key == "hands" and type(value) is not int)
                             or not low <= value <= high):
            raise HistoryError(f"_tournament.{key} must be a number from {low} to {high}, "
                               f"got {_brief(value)}")
    if shipped is not None:
        row = shipped.levels[level - 1].to_dict()
        row.setdefault("break", 0)
        for key in ("ante", "small_bet", "big_bet", "hands", "minutes", "break"):
            if key in block and block[key] != row[key]:
                raise HistoryError(
                    f"_tournament.{key} = {_brief(block[key])} contradicts level {level} of the "
                    f"{name} schedule (ante {row['ante']}, bets {row['small_bet']}/"
                    f"{row['big_bet']}, {row['hands']} hands, {row['minutes']:g} minutes"
                    f"{', a break of ' + format(row['break'], 'g') if row['break'] else ''})")
    addon = [k for k in ("addon_chips", "addon_price", "addons") if k in block]
    if addon and len(addon) != 3:
        raise HistoryError("_tournament: addon_chips, addon_price and addons come together "
                           f"(an add-on's chips, price and the seats that took it); got "
                           f"{', '.join(addon)} alone")
    if addon:
        chips, price, took = block["addon_chips"], block["addon_price"], block["addons"]
        if type(chips) is not int or not 1 <= chips <= 1_000_000:
            raise HistoryError(f"_tournament.addon_chips must be a whole number of chips from "
                               f"1 to 1000000, got {_brief(chips)}")
        if type(price) is not int or not 0 <= price <= 1_000_000:
            raise HistoryError(f"_tournament.addon_price must be a whole number from 0 to "
                               f"1000000, got {_brief(price)}")
        if not isinstance(took, list) or not all(type(s) is int and 0 <= s < n for s in took) \
                or took != sorted(set(took)):
            raise HistoryError(f"_tournament.addons must be the seats that took the add-on, "
                               f"distinct and ascending, each 0 to {n - 1}, got {_brief(took)}")


_DEAL_CODES = ("dh", "du", "db", "dead", "burn", "pd", "wild")


def parse_history(data: Mapping[str, Any]) -> History:
    """Check and convert a history dict (as :func:`history_dict` makes).

    Reads format versions 1 and 2. A player's redacted copy (``_redacted_for``)
    or any line with hidden cards (``??``) is refused: the cards it hides are
    unknown, and a replay never invents them.

    Raises:
        HistoryError: naming the field or line that is wrong (one line); two
            ``players`` that read as one name (:func:`rollem.text.same_name`).
    """
    if not isinstance(data, Mapping):
        raise HistoryError("a hand history is a TOML table of fields")
    if "_redacted_for" in data:
        raise HistoryError(
            f"this is a player's own copy (_redacted_for = {data['_redacted_for']!r}): other "
            "players' hidden cards are not in it, so it cannot be replayed through the engine "
            "(rollem replay FILE tells it as that player saw it; in Python, "
            "rollem.history_copy.own_copy_hand(copy) checks it and gives its hand)")
    game = _variant_game_id(data)
    version = data.get("_version", VERSION)
    if version not in READ_VERSIONS:
        raise HistoryError(f"_version {_brief(version)} is not supported: expected 1 or "
                           f"{VERSION}")
    stacks = data.get("starting_stacks")
    if not isinstance(stacks, list) or not all(type(s) is int and s >= 0 for s in stacks):
        raise HistoryError("starting_stacks must be a list of whole numbers of chips")
    n = len(stacks)
    players = data.get("players")
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        pair = same_name(players)
        if pair is not None:  # (not a list of names: compare.differences says so)
            raise HistoryError(same_name_refusal(players, *pair)
                               + " (or leave players out)")
    seats = data.get("seats")
    if isinstance(seats, list) and not (all(type(s) is int and s >= 1 for s in seats)
                                        and len(set(seats)) == len(seats)):
        # (not a list, or one of another length: compare.differences says so)
        raise HistoryError(f"seats must be PHH's seat numbers, whole numbers from 1 and each "
                           f"once, one a starting stack ([1, 2, ...]), got {_brief(seats)}")
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
    if "_tournament" in data:
        _check_tournament(data["_tournament"], options, n)
    deck_text = data.get("_deck")
    shuffles_raw = data.get("_shuffles", [])
    if (deck_text is not None and not isinstance(deck_text, str)) \
            or not isinstance(shuffles_raw, list):
        raise HistoryError("_deck must be a string of cards and _shuffles a list of tables")
    for k, item in enumerate(shuffles_raw):  # (s73-verify: "'int' object is not subscriptable")
        if not isinstance(item, dict) or not isinstance(item.get("label"), str) \
                or not isinstance(item.get("cards"), str):
            raise HistoryError(f"_shuffles {k + 1} must be a table of label (text) and cards "
                               f"(a string of cards), not {str(item)[:60]!r}")
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
