"""Game files: a game as TOML data (never code) on the engine's step vocabulary.

A game file names the game, its players, its players' rules text, its house
options and its steps in order (the format is ``docs/write-your-own-game.md``;
the JSON Schema is ``rollem/games/gamefile.schema.json``)::

    id = "mygame"
    name = "My Game"
    players = [2, 8]
    rules = "How to play ..."

    [house]
    burn_first = false            # a house option and its default (a switch a
                                  # step's when names, or one of HOUSE_KNOWN)

    [[steps]]
    step = "ante"
    [[steps]]
    step = "burn"
    when = "burn_first"           # played only with the option on
    [[steps]]
    step = "deal"
    cards = 5
    [[steps]]
    step = "bet"
    size = "small"
    cap = 3
    opener = "left-of-button"
    [[steps]]
    step = "showdown"

:func:`parse_game` checks everything and raises :class:`GameFileError` with
one line naming the key and what is allowed; :func:`load_game` /
:func:`load_game_file` give a :class:`rollem.engine.game.Game` whose steps
are built per hand by :mod:`rollem.games.build`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rollem import toml_input
from rollem.cards import RANKS
from rollem.engine.game import Game
from rollem.games.cost import check_cost
from rollem.text import hidden_character, replace_hidden

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_RULES",
    "MAX_STEPS",
    "OPENERS",
    "STEP_KINDS",
    "GameFileError",
    "GameSpec",
    "StepSpec",
    "load_game",
    "load_game_file",
    "parse_game",
]

MAX_FILE_BYTES = 64 * 1024
"""The largest game file accepted (bytes)."""

MAX_RULES = 8000
"""The most characters of a game's ``rules`` text (the shipped games' run 242 to
792): the web table renders it as Markdown, and markdown-it-py takes about
50 µs a character of some inputs (``[[[...``: 64 KB 3 s, stop 56).  Checked
when a file is read strictly (a new file); a stored table's file, read as
accepted, keeps a longer text."""

MAX_STEPS = 60
"""The most steps a game may have: the longest shipped game (5-2-1) has 18; a cap
keeps one uploaded file from costing seconds to check and to deal."""

OPENERS = {
    "left-of-button": "the first player still in to the dealer's left",
    "left-of-big-blind": "the first player to the left of the big blind (or straddle)",
    "highest-showing": "the best hand showing",
    "lowest-showing": "the worst hand showing",
    "best-low-showing": "the best ace-to-five low showing (razz)",
    "left-of-previous-opener": "the next player to the left of the previous round's opener",
    "bring-in": "the bring-in (the player who must bring it in)",
}
"""Opener names (betting rounds, draws from the pool, the wild pick) and their meaning."""

POT_KINDS = ("high", "low", "high-low", "declare")
LOW_KINDS = ("ace-to-five", "deuce-to-seven", "badugi")
HIGH_KINDS = ("standard", "short-deck")
DECKS = {"standard": 52, "short": 36}
"""A game file's ``deck``: the cards it holds (``short``: sixes to aces, 36)."""
AMOUNT_WORDS = ("small-bet", "half-small-bet", "big-bet", "ante")

TABLE_OPTIONS = ("structure", "ante", "small_bet", "big_bet", "cap_heads_up", "caps",
                 "straddle_rule", "straddlers", "bomb_pot", "run_twice")
"""The table's own options (R-C-6): set at the table, never in a game file's ``[house]``."""

HOUSE_KNOWN: dict[str, tuple[tuple[Any, ...] | str, str]] = {
    "wild_duplicates": ((True, False), "wild"),
    "natural_beats_wild": ((True, False), "wild"),
    "failed_both_rule": (("carry", "split"), "declare"),
    "small_blind": ("chips", "blinds"),
    "big_blind": ("chips", "blinds"),
    "straddle": ("chips", "blinds"),
    "bring_in": ("chips", "bring-in"),
}
"""The house options the engine reads (R-RYO-9, R-521-9, the forced bets'
amounts): name -> (allowed values, or ``"chips"`` for a whole number >= 0; what
the game needs for it to do anything: ``"wild"`` a showdown with wild = true,
``"declare"`` pot = "declare", else a step of that kind). Any other house
option is a true/false switch some step's ``when`` names."""

_NEEDS = {"wild": 'a showdown with wild = true', "declare": 'a showdown with pot = "declare"',
          "blinds": 'a "blinds" step', "bring-in": 'a "bring-in" step'}

_ID = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


class GameFileError(ValueError):
    """A mistake in a game file: one line naming the key and what is allowed."""


@dataclass(frozen=True)
class StepSpec:
    """One ``[[steps]]`` entry: its ``kind`` (the ``step`` key), its checked
    parameters, and ``when`` (a boolean house option that must be on for the
    step to be played, or ``None``)."""

    kind: str
    params: Mapping[str, Any]
    when: str | None = None
    index: int = 0


@dataclass(frozen=True)
class GameSpec:
    """A checked game file."""

    id: str
    name: str
    min_players: int
    max_players: int
    rules: str
    house: Mapping[str, Any]
    choices: Mapping[str, tuple[Any, ...]]
    steps: tuple[StepSpec, ...]
    text: str = field(default="", repr=False)
    deck: str = "standard"
    """``"standard"`` (52 cards) or ``"short"`` (36, sixes to aces: :data:`DECKS`)."""

    @property
    def caps(self) -> tuple[int, ...]:
        """The default raise cap of each betting round, in file order."""
        return tuple(int(s.params["cap"]) for s in self.steps if s.kind == "bet")

    @property
    def pools_discards(self) -> bool:
        """Whether the game's discards go to a pool that a later step uses (a draw
        from the pool or a wild pick, Roll Your Own); if not (Crazy Pineapple),
        a discard is out of play and is told so (issue 33)."""
        return any(s.kind in ("draw-from-pool", "pick-wild") for s in self.steps)

    def draws(self, options: Mapping[str, Any] | None = None) -> tuple[tuple[str, int], ...]:
        """Each draw played under ``options``, in file order: its label and the most
        cards a player may throw away (``("first draw", 2)``), as the engine
        names it in play (issue 33: a player's copy is told the same way)."""
        opts = options or {}
        return tuple((str(s.params["label"]), int(s.params["max"])) for s in self.steps
                     if s.kind == "draw"
                     and (s.when is None or opts.get(s.when, self.house.get(s.when))))

    def round_names(self, options: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """The name of each betting round played under ``options`` (house options; a
        round whose ``when`` option is off is not played), in file order: its
        ``label`` (``"flop"``, ``"third street"``), or ``"round N"`` (N: its place
        among the file's betting rounds) for a round the file does not name."""
        opts = options or {}
        return tuple(
            str(s.params.get("label") or f"round {i + 1}")
            for i, s in enumerate(x for x in self.steps if x.kind == "bet")
            if s.when is None or opts.get(s.when, self.house.get(s.when))
        )


# ------------------------------------------------------------ step parameters

_Param = tuple[str, Any]  # (type name, default or _REQUIRED)
_REQUIRED = object()

STEP_KINDS: dict[str, dict[str, _Param]] = {
    "ante": {},
    "blinds": {"small": ("amount", "half-small-bet"), "big": ("amount", "small-bet"),
               "straddle": ("amount", 0)},
    "bring-in": {"amount": ("amount", "half-small-bet"), "card": ("bringin", "lowest")},
    "deal": {"cards": ("count:1..10", _REQUIRED), "face": ("face", "down")},
    "burn": {},
    "dead": {"label": ("label", "dead")},
    "board": {"cards": ("count:1..5", _REQUIRED), "label": ("label", "board")},
    "wild": {"ranks": ("ranks", _REQUIRED)},
    "discard": {"cards": ("count:1..10", _REQUIRED)},
    "draw-from-pool": {"first": ("opener", "left-of-button")},
    "draw": {"max": ("count:0..7", _REQUIRED), "label": ("label", "draw")},
    "expose": {},
    "pick-wild": {"chooser": ("opener", "lowest-showing")},
    "stack": {},
    "roll-up": {"label": ("label", "")},
    "declare": {},
    "bet": {"size": ("size", _REQUIRED), "cap": ("count:0..20", _REQUIRED),
            "opener": ("opener", "left-of-button"), "label": ("label", "")},
    "showdown": {"pot": ("pot", "high"), "low": ("low", "ace-to-five"),
                 "high": ("high", "standard"),
                 "qualifier": ("qualifier", 0), "wild": ("bool", False),
                 "hole": ("count:0..10", 0), "board": ("count:0..5", 0)},
}
"""Each step kind's parameters: ``name -> (type, default)``."""

_COMMON = {"step", "when"}


def _where(i: int, key: str) -> str:
    return f"steps[{i}].{key}"


def _check_shown(where: str, text: str, *, lines: bool = False) -> None:
    """Text players are shown (the name, the rules, a step's label) must read as
    what it is: no invisible, control or text-direction characters
    (:func:`rollem.text.hidden_character`, as for players' names); ``lines``:
    line breaks allowed (the rules text).

    Raises:
        GameFileError: naming the key and the character (``U+XXXX``): with the
            text, or for ``lines`` with its line number.
    """
    if not lines:
        hidden = hidden_character(text)
        if hidden is not None:
            raise GameFileError(f"{where}: may not hold invisible, control or text-direction "
                                f"characters ({hidden}); got {text!r}")
        return
    for n, line in enumerate(text.split("\n"), 1):
        hidden = hidden_character(line)
        if hidden is not None:
            raise GameFileError(f"{where}: may not hold invisible, control or text-direction "
                                f"characters ({hidden} in line {n}; line breaks are allowed)")


def _shown_as_read(text: str, *, lines: bool = False) -> str:
    """``text`` of a stored file (read leniently) with each invisible, control or
    text-direction character replaced by U+FFFD, so it never reaches a screen raw
    (``lines``: line breaks kept); the game plays the same."""
    if not lines:
        return replace_hidden(text)
    return "\n".join(replace_hidden(line) for line in text.split("\n"))


def _check_param(where: str, typ: str, value: Any, strict: bool = True) -> Any:
    if typ.startswith("count:"):
        lo, hi = (int(x) for x in typ[6:].split(".."))
        if type(value) is not int or not lo <= value <= hi:
            raise GameFileError(f"{where}: must be a whole number {lo}..{hi}, got {value!r}")
        return value
    if typ == "amount":
        if type(value) is int and value >= 0:
            return value
        if value in AMOUNT_WORDS:
            return value
        raise GameFileError(f"{where}: must be a whole number of chips >= 0 or one of "
                            f"{', '.join(AMOUNT_WORDS)}, got {value!r}")
    if typ == "bool":
        if type(value) is not bool:
            raise GameFileError(f"{where}: must be true or false, got {value!r}")
        return value
    if typ == "label":
        if not isinstance(value, str) or len(value) > 40 or "\n" in value:
            raise GameFileError(f"{where}: must be a one-line text of at most 40 characters, "
                                f"got {value!r}")
        if not strict:
            return _shown_as_read(value)
        _check_shown(where, value)
        return value
    choices: tuple[Any, ...]
    if typ == "face":
        choices = ("down", "up")
    elif typ == "opener":
        choices = tuple(OPENERS)
    elif typ == "bringin":
        choices = ("lowest", "highest")
    elif typ == "size":
        choices = ("small", "big")
    elif typ == "pot":
        choices = POT_KINDS
    elif typ == "low":
        choices = LOW_KINDS
    elif typ == "high":
        choices = HIGH_KINDS
    elif typ == "qualifier":
        if type(value) is not int or not (value == 0 or 5 <= value <= 13):
            raise GameFileError(f"{where}: must be 0 (no qualifier) or the highest rank allowed "
                                f"in a qualifying low, 5..13 (8 = eight-or-better), "
                                f"got {value!r}")
        return value
    elif typ == "ranks":
        if (not isinstance(value, list) or not value
                or any(not isinstance(r, str) or len(r) != 1 or r.upper() not in RANKS
                       for r in value)):
            raise GameFileError(f"{where}: must be a list of rank characters from {RANKS} "
                                f"(e.g. [\"2\"] for deuces wild), got {value!r}")
        return [r.upper() for r in value]
    else:  # pragma: no cover - the table above is the whole vocabulary
        raise AssertionError(typ)
    if value not in choices:
        raise GameFileError(f"{where}: must be one of {', '.join(choices)}, got {value!r}")
    return value


def _step(i: int, raw: Any, house: Mapping[str, Any], strict: bool = True) -> StepSpec:
    if not isinstance(raw, dict):
        raise GameFileError(f"steps[{i}]: must be a table ([[steps]]), got {raw!r}")
    kind = raw.get("step")
    if kind is None:
        raise GameFileError(f"steps[{i}].step: missing; allowed: {', '.join(STEP_KINDS)}")
    if kind not in STEP_KINDS:
        raise GameFileError(f"steps[{i}].step: unknown step {kind!r}; allowed: "
                            f"{', '.join(STEP_KINDS)}")
    spec = STEP_KINDS[kind]
    for key in raw:
        if key not in spec and key not in _COMMON:
            allowed = ", ".join(["step", "when", *spec])
            raise GameFileError(f"{_where(i, key)}: unknown key for a {kind!r} step; "
                                f"allowed: {allowed}")
    params: dict[str, Any] = {}
    for key, (typ, default) in spec.items():
        if key in raw:
            params[key] = _check_param(_where(i, key), typ, raw[key], strict)
        elif default is _REQUIRED:
            raise GameFileError(f"{_where(i, key)}: missing; a {kind!r} step needs it")
        else:
            params[key] = default
    when = raw.get("when")
    if when is not None and (not isinstance(when, str) or type(house.get(when)) is not bool):
        flags = [k for k, v in house.items() if type(v) is bool]
        allowed = ", ".join(flags) if flags else "none (add one to [house])"
        raise GameFileError(f"{_where(i, 'when')}: must name a true/false house option; "
                            f"allowed: {allowed}; got {when!r}")
    return StepSpec(kind, params, when, i)


def _check_order(steps: list[StepSpec], max_players: int, strict: bool = True,
                 deck: str = "standard") -> None:
    """Rules between steps: forced bets before their round, a showdown last, cards enough."""
    if not steps or steps[-1].kind != "showdown":
        raise GameFileError("steps: the last step must be a showdown (step = \"showdown\")")
    for s in steps[:-1]:
        if s.kind == "showdown":
            raise GameFileError(f"steps[{s.index}].step: only the last step may be a showdown")
    if not any(s.kind == "deal" for s in steps):
        raise GameFileError("steps: no \"deal\" step; a game needs to deal cards")
    forced: StepSpec | None = None
    seen_bet = False
    for s in steps:
        if s.kind in ("blinds", "bring-in"):
            if seen_bet or forced is not None:
                raise GameFileError(f"steps[{s.index}].step: {s.kind} must come before the first "
                                    "betting round, and only once (blinds or bring-in)")
            if s.when is not None:
                raise GameFileError(f"steps[{s.index}].when: {s.kind} cannot depend on a house "
                                    "option")
            forced = s
        if s.kind == "bet":
            opener = s.params["opener"]
            first = not seen_bet
            seen_bet = True
            if first and forced is not None:
                if s.when is not None:
                    raise GameFileError(f"steps[{s.index}].when: the round after the "
                                        f"{forced.kind} cannot depend on a house option")
                want = "left-of-big-blind" if forced.kind == "blinds" else "bring-in"
                if opener != want:
                    raise GameFileError(f"steps[{s.index}].opener: the round after the "
                                        f"{forced.kind} is opened by {want!r}, got {opener!r}")
            elif opener in ("left-of-big-blind", "bring-in"):
                raise GameFileError(f"steps[{s.index}].opener: {opener!r} opens only the first "
                                    "round, after blinds or a bring-in step; allowed here: "
                                    "left-of-button, highest-showing, lowest-showing, "
                                    "left-of-previous-opener")
    if forced is not None and not seen_bet:
        raise GameFileError(f"steps[{forced.index}].step: {forced.kind} need a betting round "
                            "after them")
    for s in steps:
        for key in ("first", "chooser"):
            if s.params.get(key) in ("left-of-big-blind", "bring-in"):
                raise GameFileError(f"steps[{s.index}].{key}: {s.params[key]!r} opens betting "
                                    "rounds only; allowed: left-of-button, highest-showing, "
                                    "lowest-showing, best-low-showing, "
                                    "left-of-previous-opener")
    _check_cards(steps, max_players, deck)
    _check_needs(steps)
    if strict:  # new files only: a stored file is read as it was accepted
        _check_declare(steps)
        _check_wild(steps)
        _check_betting(steps)
        _check_rolls(steps)


def _check_rolls(steps: list[StepSpec]) -> None:
    """A roll-up turns up each player's next face-down card in the order they hold
    them, and a draw (``draw``, ``draw-from-pool``) puts the new cards after the kept
    ones: a roll-up after a draw with no ``stack`` step between would tell everyone
    which cards were kept and which drawn, which the views and a player's own copy
    keep hidden (:func:`~rollem.engine.public_order.public_order`).  5-2-1 stacks
    after its draws (R-521-6); a new file must too (``GameFileError``; a stored
    file is read as it was accepted)."""
    drawn: StepSpec | None = None
    for s in steps:
        if s.kind in ("draw", "draw-from-pool"):
            drawn = s
        elif s.kind == "stack":
            drawn = None
        elif s.kind == "roll-up" and drawn is not None:
            raise GameFileError(
                f"steps[{s.index}]: a roll-up turns up the cards in the order held, and "
                f"after the {drawn.kind} at steps[{drawn.index}] that order tells everyone "
                "which cards were kept and which drawn; add step = \"stack\" after the "
                f"{drawn.kind} (each player orders their cards) before the roll-ups")


def _check_betting(steps: list[StepSpec]) -> None:
    """A poker game has a betting round and a forced bet that starts the pot
    (an ante, blinds or a bring-in; R-C-6): without a betting round there is
    nothing to play, without a forced bet nobody has a reason to bet (issue 33)."""
    kinds = {s.kind for s in steps}
    if "bet" not in kinds:
        raise GameFileError('steps: no "bet" step; a poker game needs at least one betting '
                            'round (step = "bet")')
    if not kinds & {"ante", "blinds", "bring-in"}:
        raise GameFileError('steps: no forced bet; start the pot with an "ante", "blinds" or '
                            '"bring-in" step before the first betting round, or nobody has a '
                            "reason to bet")


def _check_wild(steps: list[StepSpec]) -> None:
    """A wild rank (a ``wild`` or ``pick-wild`` step) and a showdown that counts
    wild cards (``wild = true``) go together: a wild card that plays as itself
    would be told to players as wild (R-RYO-7, R-RYO-9)."""
    showdown = steps[-1]
    wilds = [s for s in steps if s.kind in ("wild", "pick-wild")]
    if wilds and not showdown.params["wild"]:
        w = wilds[0]
        raise GameFileError(
            f"steps[{w.index}].step: a {w.kind!r} step makes a rank wild, but the showdown "
            f"does not count wild cards (steps[{showdown.index}].wild is false); set "
            f"wild = true in the showdown or remove the {w.kind} step")
    if showdown.params["wild"] and not wilds:
        raise GameFileError(
            f"steps[{showdown.index}].wild: true counts wild cards, but no \"wild\" or "
            "\"pick-wild\" step makes a rank wild; add one or remove wild = true")
    if showdown.params["wild"] and showdown.params["pot"] == "low":
        # wild cards count in high hands only (rollem eval refuses --low with --wild):
        # a low pot would play the cards told to players as wild as themselves
        raise GameFileError(
            f"steps[{showdown.index}].wild: wild cards count only in a high hand, and a "
            "pot = \"low\" showdown has none (every card plays as itself); use pot = "
            "\"high\", \"high-low\" or \"declare\", or remove the wild cards")


def _check_declare(steps: list[StepSpec]) -> None:
    """A ``declare`` step and a showdown with ``pot = "declare"`` go together
    (R-521-8, R-521-9): declarations settle only a declare pot, and a declare
    pot without them would settle everyone as high."""
    showdown = steps[-1]
    pot = showdown.params["pot"]
    declares = [s for s in steps if s.kind == "declare"]
    if declares and pot != "declare":
        raise GameFileError(
            f"steps[{declares[0].index}].step: a \"declare\" step needs the showdown's "
            f"pot = \"declare\" (steps[{showdown.index}].pot is {pot!r}); set pot = "
            "\"declare\" or remove the declare step")
    if pot == "declare" and not declares:
        raise GameFileError(
            f"steps[{showdown.index}].pot: \"declare\" needs a \"declare\" step before "
            "the showdown (players declare high, low or both); add one, or use pot = "
            "\"high-low\" (cards speak)")
    if len(declares) > 1:
        raise GameFileError(f"steps[{declares[1].index}].step: only one \"declare\" step; "
                            "players declare once, before the showdown")
    if declares and declares[0].when is not None:
        raise GameFileError(f"steps[{declares[0].index}].when: the declare step cannot depend "
                            "on a house option (the declare pot needs it)")


def _check_needs(steps: list[StepSpec]) -> None:
    """What a step needs from the steps before it: an opener read from the hands
    showing ("highest-showing", "lowest-showing", "best-low-showing") needs a card
    face up; a draw from the pool or a wild card turned from it needs a card left in
    the pool; an expose, a roll-up and a discard take face-down cards, so each player
    must still hold that many; stacking for roll-ups needs every card face down."""
    up = down = pool = 0  # each player's face-up and face-down cards; the pool per player
    for s in steps:
        p = s.params
        for key in ("opener", "first", "chooser"):
            if str(p.get(key, "")).endswith("-showing") and up == 0:
                raise GameFileError(
                    f"steps[{s.index}].{key}: {p[key]!r} reads the hands showing, but no card "
                    "is face up before this step; deal face = \"up\", add an expose or "
                    "choose left-of-button")
        if s.kind in ("expose", "roll-up", "discard"):
            need = p["cards"] if s.kind == "discard" else 1
            if need > down:
                raise GameFileError(
                    f"steps[{s.index}]: {s.kind} takes {need} face-down card"
                    f"{'s' if need != 1 else ''} from each player, but they hold {down} face "
                    "down here")
            down -= need
            if s.kind == "discard":
                pool += need
            else:
                up += 1
        elif s.kind == "deal":
            if p["face"] == "up":
                up += p["cards"]
            else:
                down += p["cards"]
        elif s.kind in ("draw-from-pool", "pick-wild") and pool <= 0:
            raise GameFileError(f"steps[{s.index}]: {s.kind} takes a card from the discard "
                                "pool, but no card is left in it here; discard to the pool "
                                "before this step")
        elif s.kind == "draw-from-pool":
            pool -= 1
            down += 1
        elif s.kind == "stack" and up > 0:
            raise GameFileError(f"steps[{s.index}]: stack orders face-down cards for the "
                                "roll-ups, but a card is already face up here; stack before "
                                "any card is turned up")


def _check_cards(steps: list[StepSpec], max_players: int, deck: str = "standard") -> None:
    """The deck must hold every card dealt to ``max_players`` (draws reshuffle)."""
    size = DECKS[deck]
    own = common = board = pool = dealt = 0
    for s in steps:
        p = s.params
        if s.kind == "deal":
            own += p["cards"]
            dealt += p["cards"]
        elif s.kind in ("burn", "dead"):
            common += 1
        elif s.kind == "board":
            common += p["cards"]
            board += p["cards"]
        elif s.kind == "discard":
            if p["cards"] > own:
                raise GameFileError(f"steps[{s.index}].cards: discards {p['cards']} cards but "
                                    f"only {own} were dealt to each player before it")
            own -= p["cards"]
            pool += p["cards"]
        elif s.kind == "draw-from-pool":
            own += 1
            pool -= 1
        elif s.kind == "draw" and p["max"] > own:
            raise GameFileError(f"steps[{s.index}].max: at most {own} (the cards each player "
                                f"holds), got {p['max']}")
        elif s.kind == "showdown":
            hole, need_board = p["hole"], p["board"]
            if hole > own:
                raise GameFileError(f"steps[{s.index}].hole: players hold {own} cards, got "
                                    f"{hole}")
            if need_board > board:
                raise GameFileError(f"steps[{s.index}].board: the board has {board} cards, got "
                                    f"{need_board}")
            if (hole or need_board) and hole + need_board != 5:
                raise GameFileError(f"steps[{s.index}]: hole + board must make 5 cards "
                                    f"(e.g. hole = 2, board = 3), got {hole} + {need_board}")
            if p["low"] == "badugi":
                if p["pot"] != "low" or own != 4 or board or hole or need_board:
                    raise GameFileError(f"steps[{s.index}].low: badugi is a pot = \"low\" "
                                        f"hand of the four cards a player holds, no board; "
                                        f"got pot = {p['pot']!r}, {own} cards, a board of "
                                        f"{board}")
            elif not (hole or need_board) and own + board < 5:
                raise GameFileError(f"steps[{s.index}]: players end with {own} "
                                    f"card{'' if own == 1 else 's'} and the board has "
                                    f"{board}; a hand needs 5")
            if p["pot"] == "declare" and (board or own != 5):
                raise GameFileError(f"steps[{s.index}].pot: \"declare\" needs exactly five "
                                    f"cards per player and no board, got {own} and {board}")
            if p["qualifier"] and (p["pot"] != "high-low" or p["low"] != "ace-to-five"):
                # a low-only pot that nobody qualifies for would have no winner
                raise GameFileError(f"steps[{s.index}].qualifier: only for pot = \"high-low\" "
                                    f"with an ace-to-five low, got pot = {p['pot']!r}, "
                                    f"low = {p['low']!r}")
            if p["high"] == "short-deck" and (deck != "short" or p["pot"] != "high"
                                              or p["wild"]):
                raise GameFileError(f"steps[{s.index}].high: \"short-deck\" ranks a pot = "
                                    f"\"high\" showdown of a deck = \"short\" game, no wild "
                                    f"cards; got pot = {p['pot']!r}, deck = {deck!r}")
            if p["wild"] and (hole or need_board):
                raise GameFileError(f"steps[{s.index}].wild: wild cards with a hole/board rule "
                                    "are not supported; remove hole and board")
    if pool < 0:
        raise GameFileError("steps: more draws from the pool than cards discarded to it")
    total = dealt * max_players + common
    if total > size:
        raise GameFileError(f"players: {max_players} players need {total} cards but the deck "
                            f"has {size}; allow at most "
                            f"{max((size - common) // max(dealt, 1), 1)} players")


def _house_value(where: str, key: str, value: Any) -> None:
    """One value (a default or a ``[choices]`` entry) of house option ``key``."""
    if key in HOUSE_KNOWN:
        allowed, _need = HOUSE_KNOWN[key]
        if allowed == "chips":
            if type(value) is not int or value < 0:
                raise GameFileError(f"{where}: must be a whole number of chips >= 0, "
                                    f"got {value!r}")
        elif type(value) is not type(allowed[0]) or value not in allowed:
            words = ("true or false" if allowed == (True, False)
                     else "one of " + ", ".join(map(str, allowed)))
            raise GameFileError(f"{where}: must be {words}, got {value!r}")
    elif type(value) is not bool:
        raise GameFileError(f"{where}: must be true or false (a game's own house option "
                            f"switches steps on and off with when), got {value!r}")


def _check_house_as_read(house: Mapping[str, Any]) -> None:
    """The ``[house]`` check a stored file was accepted under (before the options
    had to do something): a lower_case name, a default true/false, a whole number
    >= 0 or a text."""
    for k, v in house.items():
        if not _NAME.match(k):
            raise GameFileError(f"house.{k}: option names are lower_case_with_underscores")
        if type(v) not in (bool, int, str) or (type(v) is int and v < 0):
            raise GameFileError(f"house.{k}: a default must be true/false, a whole number "
                                f">= 0 or a text, got {v!r}")


def _check_house(house: Mapping[str, Any]) -> None:
    """Each ``[house]`` option's name and default: the engine's options of
    :data:`HOUSE_KNOWN` with their values, else a true/false switch."""
    for k, v in house.items():
        if not _NAME.match(k):
            raise GameFileError(f"house.{k}: option names are lower_case_with_underscores")
        if k in TABLE_OPTIONS:
            raise GameFileError(f"house.{k}: a table option, not a game's: set it at the "
                                "table (rollem play's --structure, --ante, --small-bet, "
                                "--big-bet, --no-cap-heads-up, or the web table's form); a "
                                "game's house options are true/false switches named by a "
                                "step's when, or " + ", ".join(HOUSE_KNOWN))
        _house_value(f"house.{k}", k, v)


def house_option_would_apply(spec: GameSpec, name: str) -> bool:
    """True when ``name`` is an option the engine reads (:data:`HOUSE_KNOWN`)
    that ``spec``'s game has what it needs for (a showdown with wild = true for
    ``wild_duplicates``...), so its file could list it under ``[house]``: a table
    sets only the options a file lists."""
    if name not in HOUSE_KNOWN:
        return False
    need = HOUSE_KNOWN[name][1]
    kinds = {s.kind for s in spec.steps}
    showdown = spec.steps[-1].params
    have = {"wild": bool(showdown.get("wild")), "declare": showdown.get("pot") == "declare",
            "blinds": "blinds" in kinds, "bring-in": "bring-in" in kinds}
    return have[need]


def _check_house_use(house: Mapping[str, Any], steps: list[StepSpec]) -> None:
    """Every house option does something: a switch is named by a step's ``when``;
    an option of :data:`HOUSE_KNOWN` has what it applies to."""
    named = {s.when for s in steps if s.when is not None}
    kinds = {s.kind for s in steps}
    showdown = steps[-1].params
    have = {"wild": bool(showdown["wild"]), "declare": showdown["pot"] == "declare",
            "blinds": "blinds" in kinds, "bring-in": "bring-in" in kinds}
    for k in house:
        if k in named:
            continue
        if k in HOUSE_KNOWN:
            need = HOUSE_KNOWN[k][1]
            if not have[need]:
                raise GameFileError(f"house.{k}: applies only to a game with {_NEEDS[need]}; "
                                    "this one has none, so it would do nothing; remove it")
        else:
            raise GameFileError(f"house.{k}: no step names it (when = \"{k}\"), so it would "
                                "do nothing; name it in a step's when, or remove it (options "
                                "the engine reads: " + ", ".join(HOUSE_KNOWN) + ")")


PHH_ONLY = {"deck": "short", "high": "short-deck", "low": "badugi"}
"""What only :mod:`rollem.phh`'s game files use (short deck, badugi; issue
29): a table, its bots, odds and committed deals know 52 cards and the
standard rankings, so a new file (``strict``) is refused them."""


def _check_phh_only(deck: str, steps: list[StepSpec]) -> None:
    found = [("deck", "deck", deck)] + [(f"steps[{s.index}].{k}", k, s.params[k])
                                        for s in steps for k in ("high", "low")
                                        if k in s.params]
    for where, key, value in found:
        if PHH_ONLY.get(key) == value:
            raise GameFileError(f"{where}: {value!r} is for games read from PHH files only "
                                "(short-deck hold'em, badugi), not offered at a table")



def _got(data: Mapping[str, Any], key: str) -> str:
    """How an error names what a top-level key held: ``got 7``, or that it is
    missing (not ``got None``: issue 33's try-out)."""
    return f"got {data[key]!r}" if key in data else "but it is missing"

def parse_game(text: str, *, strict: bool = True, phh: bool = False) -> GameSpec:
    """Check a game file's text and return its :class:`GameSpec`.

    ``strict`` (a new file: ``rollem check-game``, ``--game-file``, a new web
    table): every check. ``strict=False`` reads a *stored* file (a history's
    ``_game_file``, a stored web table) as it was accepted: the checks that
    refuse only what does nothing or misleads (a declare step without a declare
    pot and the other way round, a wild rank without ``wild = true`` and the
    other way round, a ``[house]`` option that does nothing or has the wrong
    type, hidden characters in the rules or a step's label -- those are shown
    as U+FFFD) are skipped; every check of size, depth, steps and cards stays.
    The game plays the same either way. ``phh``: a game file of
    :mod:`rollem.phh` (issue 29), which alone may use :data:`PHH_ONLY`.

    Raises:
        GameFileError: one line naming the key and what is allowed.
    """
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise GameFileError(f"game file: larger than {MAX_FILE_BYTES} bytes")
    try:
        data = toml_input.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise GameFileError(f"game file: not valid TOML: {err}") from None
    except RecursionError:  # tomllib recurses once per level of [ or {
        raise GameFileError("game file: arrays or tables nested too deeply") from None
    allowed_top = ("format", "id", "name", "players", "rules", "deck", "house", "choices",
                   "steps")
    for key in data:
        if key not in allowed_top:
            raise GameFileError(f"{key}: unknown key; allowed: {', '.join(allowed_top)}")
    fmt = data.get("format", 1)
    if fmt != 1:
        raise GameFileError(f"format: must be 1, got {fmt!r}")
    gid = data.get("id")
    if not isinstance(gid, str) or not _ID.match(gid) or gid == "dealers-choice":
        raise GameFileError("id: must be a short id of lower-case letters, digits and '-' "
                            f"(1..32, starting with a letter; not dealers-choice), "
                            f"{_got(data, 'id')}")
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 60 or not name.strip():
        raise GameFileError("name: must be a one-line text of 1..60 characters, not all "
                            f"spaces, {_got(data, 'name')}")
    _check_shown("name", name)
    players = data.get("players")
    if (not isinstance(players, list) or len(players) != 2
            or any(type(p) is not int for p in players)
            or not 2 <= players[0] <= players[1] <= 10):
        raise GameFileError(f"players: must be [min, max] with 2 <= min <= max <= 10, "
                            f"{_got(data, 'players')}")
    deck = data.get("deck", "standard")
    if not isinstance(deck, str) or deck not in DECKS:
        raise GameFileError(f"deck: must be one of {', '.join(DECKS)} (short: sixes to aces, "
                            f"36 cards), got {deck!r}")
    rules = data.get("rules")
    if not isinstance(rules, str) or not rules.strip():
        raise GameFileError("rules: missing; give the players' rules text (a string)")
    if strict:
        if len(rules) > MAX_RULES:
            raise GameFileError(f"rules: at most {MAX_RULES} characters, not {len(rules)}: "
                                "keep the players' rules text short (link to more)")
        _check_shown("rules", rules, lines=True)
    else:
        rules = _shown_as_read(rules, lines=True)
    house = data.get("house", {})
    if not isinstance(house, dict):
        raise GameFileError(f"house: must be a table of option = default, got {house!r}")
    if strict:
        _check_house(house)
    else:
        _check_house_as_read(house)
    choices_raw = data.get("choices", {})
    if not isinstance(choices_raw, dict):
        raise GameFileError(f"choices: must be a table of option = [allowed values], "
                            f"got {choices_raw!r}")
    choices: dict[str, tuple[Any, ...]] = {}
    for k, v in choices_raw.items():
        if k not in house:
            raise GameFileError(f"choices.{k}: not a house option; add it to [house] first")
        if not isinstance(v, list) or not v or house[k] not in v:
            raise GameFileError(f"choices.{k}: must be a list of allowed values that includes "
                                f"the default {house[k]!r}, got {v!r}")
        for j, value in enumerate(v if strict else ()):
            _house_value(f"choices.{k}[{j}]", k, value)
        choices[k] = tuple(v)
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise GameFileError("steps: missing; give the steps in order as [[steps]] tables")
    if len(raw_steps) > MAX_STEPS:
        raise GameFileError(f"steps: {len(raw_steps)} steps; a game may have at most "
                            f"{MAX_STEPS}")
    steps = [_step(i, raw, house, strict) for i, raw in enumerate(raw_steps)]
    _check_order(steps, players[1], strict, deck)
    if strict and not phh:
        _check_phh_only(deck, steps)
    if strict:
        _check_house_use(house, steps)
        # a new file only: a stored one was accepted before the bound (issue 34)
        check_cost(steps, players[1])
    return GameSpec(id=gid, name=name, min_players=players[0], max_players=players[1],
                    rules=rules, house=dict(house), choices=choices, steps=tuple(steps),
                    text=text, deck=deck)


def load_game(text: str, *, strict: bool = True, phh: bool = False) -> Game:
    """A :class:`Game` from a game file's text (checked by :func:`parse_game`;
    ``strict=False``: a stored file, read as it was accepted; ``phh``: a game
    file of :mod:`rollem.phh`).

    Raises:
        GameFileError: one line naming the key and what is allowed.
    """
    from rollem.games.build import game_from_spec

    return game_from_spec(parse_game(text, strict=strict, phh=phh))


def load_game_file(path: str | Path) -> Game:
    """A :class:`Game` from a game file on disk, checked and dealt on trial
    (:func:`rollem.games.trial.trial_deal`).

    Raises:
        GameFileError: unreadable, not a regular file, too large (read bounded:
            :func:`rollem.userfile.read_user_text`), a mistake in the file, or a
            game the trial hands could not play.
    """
    from rollem.games.trial import trial_deal
    from rollem.userfile import UserFileError, read_user_text

    try:
        text = read_user_text(Path(path), MAX_FILE_BYTES)
    except UserFileError as err:
        raise GameFileError(str(err)) from None

    game = load_game(text)
    trial_deal(game)
    return game
