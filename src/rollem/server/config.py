"""Table configuration for the web table: what the host picks when creating it.

A :class:`TableConfig` is plain data, stored as JSON.  :func:`parse_config`
reads the creation form and raises :class:`ConfigError` with a message that
says what was wrong and what is allowed.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any, cast

from rollem.limits import MAX_STACK
from rollem.text import hidden_character

if TYPE_CHECKING:
    from collections.abc import Callable

    from rollem.engine.game import Game
    from rollem.engine.options import Options
    from rollem.server.budget import DiskBudget
    from rollem.server.pacing import Pacing
    from rollem.tournament.schedule import Schedule

__all__ = [
    "BOT_LEVELS",
    "BOT_LEVEL_HINTS",
    "CREATE_FIELDS",
    "DECISION_SECONDS",
    "GAMES",
    "MAX_TABLE_NAME",
    "STRUCTURES",
    "ConfigError",
    "ServerSettings",
    "TableConfig",
    "UnknownFieldError",
    "check_fields",
    "file_game",
    "parse_config",
    "shipped_game_ids",
    "unknown_field_message",
]

GAMES = ("sdr", "rollyourown", "rollem521", "dealers-choice")
"""Our three games and ``dealers-choice`` (R-C-12).  A table may also play every
shipped standard game (:func:`shipped_game_ids`) and the host's own game file."""
STRUCTURES = ("fixed-limit", "pot-limit", "no-limit")
"""Betting structures (R-C-6)."""
STRADDLE_RULES = ("off", "optional", "mississippi")
"""Who may straddle (issue 27; :data:`rollem.engine.options.STRADDLE_RULES`)."""
BOT_LEVEL_HINTS = {
    "random": "any legal move",
    "basic": "friendly, plays by its own chances",
    "strong": "reads your bets, draws and up cards, bluffs now and then; hard to beat",
}
"""Computer player levels, each with the one line the create form and the table's
"How to play" panel show (``rollem play --help`` says the same)."""
BOT_LEVELS = tuple(BOT_LEVEL_HINTS)
"""Computer player levels."""
DECISION_SECONDS = (5.0, 600.0)
"""The decision clock a new table may have (R-C-15), shortest and longest, in
seconds: what the API allows and the create form's bounds (served by
``/api/info``).  ``rollem serve --shortest-decision`` may lower the shortest (a
server for quick test tables)."""
STORED_SHORTEST_DECISION = 0.05
"""The shortest clock a stored table may have: tables created before the 5 s
bound keep theirs when restored or reconfigured."""
MAX_TABLE_NAME = 40
"""Most characters (Unicode code points, runs of spaces counted as one) of a table's
name; a longer one is refused (``bad_config``), as a player's name past its limit
is. The create form's field stops there (``maxlength``: UTF-16 units, never fewer
code points)."""
MAX_SEATS = {"sdr": 10, "rollyourown": 8, "rollem521": 10, "dealers-choice": 10}
"""Most players our three games deal in (RULES.md headings); every game:
:meth:`TableConfig.max_seats`."""


def shipped_game_ids() -> list[str]:
    """The ids of the shipped games (our three, then the standard games: CLI.md)."""
    from rollem import games

    return games.shipped_ids()


@lru_cache(maxsize=64)
def _parsed_game(text: str, strict: bool) -> Game:
    from rollem.games.gamefile import GameFileError, load_game

    try:
        return load_game(text, strict=strict)
    except GameFileError as err:
        raise ConfigError(f"game_file: {err}") from None


_DEALT: set[bytes] = set()
"""SHA-256 digests of the new tables' game files whose trial deal passed in this
process (32 bytes each, so the same file given again is not dealt again; lost at
a restart, when a stored table's file is read with no trial: :func:`file_game`)."""


def file_game(text: str, *, strict: bool = True) -> Game:
    """The game of a host's game file ``text``: read (cached per text). ``strict``:
    a new table's file, every check, and dealt on trial the first time this
    process reads it (:func:`rollem.games.trial.trial_deal`; the caller runs it
    off the event loop: ``create_table``); ``strict=False``: a stored table's
    file, read as it was accepted (:func:`rollem.games.gamefile.parse_game`) and
    dealt on no trial.  A stored file passed its trial when its table was
    created, and a restore (after a restart, a takeover) runs on the event loop
    that serves every table: a file stored before the showdown's bound (issue
    34) could hold them all while its trial played its showdowns (0.5 s and
    more, stop 63).  A stored file the engine can no longer deal is refused at
    each deal instead, the table answering (``cannot deal hand``, tried again
    after the pause between hands).

    Raises:
        ConfigError: ``game_file: `` and the file's one-line error
            (:class:`rollem.games.gamefile.GameFileError`), or the file is
            larger than 64 KB, or its id is a shipped game's and its rules are
            not that game's (:func:`rollem.games.shipped_id_refusal`; one with
            that game's rules is the shipped game: :func:`parse_config` deals
            the shipped game, with no file).
    """
    from rollem.games.gamefile import MAX_FILE_BYTES, GameFileError
    from rollem.games.trial import trial_deal

    size = len(text.encode("utf-8", "replace"))
    if size > MAX_FILE_BYTES:
        raise ConfigError(f"game_file: {size} bytes; a game file may be at most "
                          f"{MAX_FILE_BYTES} bytes")
    from rollem import games

    game = _parsed_game(text, strict)
    refused = games.shipped_id_refusal(game)  # (rollem check-game's rule: one function)
    if refused is not None:
        raise ConfigError(f"game_file: {refused} (or choose the shipped game, "
                          f"{games.get(game.id).name}, in the game list)")
    if not strict:
        return game  # (accepted, and dealt on trial, when its table was created)
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    if digest not in _DEALT:
        try:
            trial_deal(game)
        except GameFileError as err:
            raise ConfigError(f"game_file: {err}") from None
        _DEALT.add(digest)
    return game


HOUSE_OPTIONS: dict[str, tuple[type, object]] = {
    # name: (type, default) -- RULES.md (house) options
    "cap_heads_up": (bool, True),
    "burn_before_roll": (bool, False),
    "wild_duplicates": (bool, False),
    "natural_beats_wild": (bool, False),
    "bet_after_declare": (bool, False),
    "failed_both_rule": (str, "carry"),
}


class ConfigError(ValueError):
    """A table configuration value that is out of range; the message says what is allowed."""


class TooManySeatsError(ConfigError):
    """The table's seats are more than its game deals (:func:`parse_config`):
    ``what`` (``"Roll Your Own deals"``), ``most`` players, ``seats``; the host's
    Change, which has no Seats field, words it its own way
    (:func:`rollem.server.host._check_config`)."""

    def __init__(self, message: str, what: str, most: int, seats: int) -> None:
        super().__init__(message)
        self.what, self.most, self.seats = what, most, seats


class UnusedHouseOptionError(ConfigError):
    """A house option set on that no game the table deals has
    (:func:`_check_house_of_games`): ``key`` (``"wild_duplicates"``) and ``games``
    (the games' names), for the lobby's words (:func:`form_refusal`)."""

    def __init__(self, message: str, key: str, games: list[str]) -> None:
        super().__init__(message)
        self.key, self.games = key, games


FORM_LABELS: dict[str, str] = {
    "ante": "Ante", "small_bet": "Small bet", "big_bet": "Big bet", "seats": "Seats",
    "stack": "Starting stack", "bomb_pot_every": "Bomb pot every N hands",
    "bomb_pot_ante": "Bomb pot ante", "run_twice": "Run it twice", "straddle": "Straddles",
    "game": "Game", "structure": "Betting", "name": "Table name",
    "tournament": "Kind of game", "buy_in": "Buy-in",
    "rebuy_levels": "Rebuys in the first levels", "rotate": "Dealer's choice games",
    "addon_chips": "Add-on chips", "addon_price": "Add-on price",
    "payouts": "Payouts", "tournament_schedule": "Schedule file",
    "choices": "Dealer's choice offers", "game_file": "Your own game file",
    "bots": "Computer players", "decision_seconds": "Seconds per decision",
    "time_bank_seconds": "Time bank", "bot_delay": "Computer players think",
    "between_hands": "Pause between hands", "grace_seconds": "Reconnect grace",
}
"""Field -> its label in the lobby's form (index.html) and the host's Change
(table/panels.js; a field both show has one label): what :func:`form_words` names
a field by.  A field neither form shows keeps its name."""

HOUSE_LABELS: dict[str, str] = {
    "cap_heads_up": "Raise cap holds heads-up",
    "burn_before_roll": "SDR: burn before the Roll",
    "wild_duplicates": "Roll Your Own: wild cards may duplicate",
    "natural_beats_wild": "Roll Your Own: natural beats wild",
    "bet_after_declare": "5-2-1: betting round after the declare",
    "failed_both_rule": "5-2-1: when every \"both\" fails",
}
"""House option -> its box's label in the lobby's form (a game file's own option
is shown by its name, ``_`` as spaces: lobby.js)."""


def form_words(message: str) -> str:
    """A refusal as the forms say it: a leading field name (``"small_bet must
    be from 1 to 1000000, not 0"``) by its label (``"Small bet must be ..."``), and
    ``run_twice``'s ``false`` as the form's ``no`` (stop 54: the Change showed the
    API's field names). The API keeps the field names (and its error codes).

    >>> form_words("bomb_pot_every must be 0 at this table: stud has no blinds")
    'Bomb pot every N hands must be 0 at this table: stud has no blinds'
    """
    key, sep, rest = message.partition(" ")
    if key.endswith(":") and key[:-1] in FORM_LABELS:  # "payouts: 3 places paid ..."
        return f"{FORM_LABELS[key[:-1]]}:{sep}{rest}"
    if key not in FORM_LABELS or not sep:
        return message
    if key == "run_twice":
        rest = rest.replace("must be false", "must be no", 1)
    return f"{FORM_LABELS[key]} {rest}"


def form_refusal(err: ConfigError, *, seats_field: bool) -> str:
    """``err`` in a form's words, the one wording of the lobby's creation refusals
    and the host's Change (stop 54's; s55: the lobby showed the API's field names):
    :func:`form_words`, a house option by its box's label, and a game dealing fewer
    players than the table's seats as "Five Card Roll Your Own deals at most 8
    players and this table has 10 seats: pick another game" (``seats_field``: the
    form has a Seats field, the lobby's: "... or at most 8 Seats").

    ``err``: a :class:`ConfigError` from :func:`parse_config` or
    :meth:`TableConfig.unused_option`.  Returns one line; raises nothing."""
    if isinstance(err, TooManySeatsError):
        pick = "pick another game" + (f" or at most {err.most} Seats" if seats_field else "")
        return (f"{err.what} at most {err.most} players and this table has {err.seats} "
                f"seats: {pick}")
    if isinstance(err, UnusedHouseOptionError):
        label = HOUSE_LABELS.get(err.key, err.key.replace("_", " "))
        return (f"\"{label}\" does nothing at a table dealing {', '.join(err.games)}: "
                "leave it off")
    return form_words(str(err))


class UnknownFieldError(ConfigError):
    """A field no table configuration has (:func:`check_fields`): the message names
    it and the fields allowed.  The web API answers it as ``unknown_field``."""


@dataclass(slots=True)
class TableConfig:
    """What a table plays and how (R-C-6, R-C-12, R-C-15).

    Chips are whole numbers; times are seconds.
    """

    game: str = "dealers-choice"
    structure: str = "fixed-limit"
    ante: int = 1
    small_bet: int = 2
    big_bet: int = 4
    seats: int = 6
    stack: int = 200
    bots: int = 1
    bot_level: str = "basic"
    """The computer players' level (:data:`BOT_LEVELS`): ``"basic"`` unless asked, as
    the create form's and ``rollem play``'s."""
    rebuys: bool = True
    house: dict[str, Any] = field(default_factory=dict)
    decision_seconds: float = 30.0
    time_bank_seconds: float = 60.0
    grace_seconds: float = 120.0
    bot_delay: float = 0.8
    between_hands: float = 4.0
    chip_value: str = ""
    """Money per chip for settling up (issue 27): a decimal text such as ``"0.05"``
    (at most 4 places, at most 1000), or empty: the ledger settles in chips only."""
    away_after: int = 2
    """Away mode (issue 27): after this many decisions in a row made by the clock
    (1 to 5), a person is sat out and marked away until they come back; 0 turns
    away mode off (the clock keeps playing for an idle player)."""
    straddle: str = "off"
    """Straddles (issue 27): ``"off"``, ``"optional"`` (the player left of the big
    blind may post twice the big blind before the deal) or ``"mississippi"`` (the
    button may, else the player left of the big blind); games with blinds only.
    A player opts in before the deal (``{"type": "straddle", "on": true}``)."""
    run_twice: bool = False
    """Run it twice (issue 27): when nobody can bet any more and board cards are
    still to come, the players still in may agree (all at once, ``{"kind":
    "run_twice", "agree": true}``; the clock says no) to deal the rest twice."""
    bomb_pot_every: int = 0
    """A bomb pot every this many hands (issue 27; 0 = off, at most 100): hands
    ``N``, ``2N``, ... of the session whose game can have one."""
    bomb_pot_ante: int = 0
    """A bomb pot's ante in chips (issue 27); 0: twice the big blind, or twice
    the ante in a game without blinds (:func:`rollem.games.build.bomb_pot_default`)."""
    rebuy_approval: bool = False
    """Rebuys wait for the host (issue 27): a player's rebuy is a request the host
    approves or declines (``rebuys`` must be on)."""
    rebuy_cap: int = 0
    """The most rebuys one person may make this session (issue 27; 0 = no cap, at
    most 100); computer players rebuy by themselves, uncapped."""
    private: bool = False
    """A private table (issue 27): a watcher sees the table only once the host has
    approved them, and a new player waits for the host's approval to be dealt in."""
    watcher_delay: bool = False
    """Watchers see a hand only after it ended (issue 27): during a hand they see
    the last finished one."""
    name: str = "Home game"
    practice_odds: bool = False
    """Practice table: each player may show their own odds (issue 8), computed
    from their own view only."""
    choices: list[str] = field(default_factory=lambda: ["sdr", "rollyourown", "rollem521"])
    """The games a dealer's choice offers (R-C-12), picked by the host; default our
    three; the host's own game (a game file) is always among them."""
    game_file: str = ""
    """The host's own game file (TOML text, at most 64 KB), or empty: stored with the
    table, so a restart deals and replays its hands again."""
    hand_seconds: float = 0.0
    """Least seconds from one deal to the next at this table (issue 34): the host
    may slow a table down; the server's floor applies when longer
    (:class:`rollem.server.budget.DiskBudget`)."""
    tournament: str = ""
    """A sit-and-go (issue 28): a shipped schedule's name (``turbo``, ``regular``,
    ``slow``) or ``custom`` (:attr:`tournament_schedule`); empty: a cash game.
    The schedule sets the starting stack and each level's stakes, levels rise
    on the table's clock (minutes of play, the host's pause stops it); no cash
    rebuys (:attr:`rebuy_levels`)."""
    tournament_schedule: str = ""
    """A custom schedule (TOML text, at most 64 KB:
    :func:`rollem.tournament.schedule.load_schedule`), with ``tournament = "custom"``."""
    buy_in: int = 10
    """Each entrant's buy-in, in whole units (money or points; 0 to 1,000,000):
    the prize pool is the buy-ins and rebuys."""
    payouts: list[int] = field(default_factory=list)
    """The prize pool's percentages by place (whole numbers adding up to 100, at
    most 10 places); empty: the shipped table for the field."""
    rebuy_levels: int = 0
    """A busted entrant may buy in again while the level is at most this (0 to
    10; 0: no rebuys)."""
    addon_chips: int = 0
    """An add-on's chips (stop 60; 0 to 1,000,000; 0: no add-on): offered once, when
    the rebuys close, to every entrant still in, at the break after the last rebuy
    level (:meth:`rollem.tournament.session.Tournament.take_addon`); it needs
    :attr:`rebuy_levels`."""
    addon_price: int = 10
    """What an add-on costs, in the buy-in's units, into the prize pool (0 to
    1,000,000; not given: the buy-in)."""
    rotate: str = ""
    """A dealer's-choice tournament's games rotate in the host's order
    (:attr:`choices`, like H.O.R.S.E.) instead of the button choosing: ``"level"``
    (a game a level) or ``"orbit"`` (a game an orbit of the button); empty: no
    rotation (:data:`rollem.tournament.session.ROTATIONS`).  ``true`` is read as
    ``"level"`` (tables stored before orbits)."""

    _read: dict[str, Any] = field(default_factory=dict, init=False, repr=False,
                                  compare=False)
    """This configuration's own game and custom schedule once read (keys ``"game"``,
    ``"schedule"``, with the text they were read from): a table reads its game file
    and schedule once, not at each deal, odds request or state through the
    process-wide caches (64 texts each, which other tables' texts could cycle,
    re-reading a 64 KB file on the event loop each time). Not a setting: left
    out of :meth:`to_dict` and :data:`CREATE_FIELDS`."""

    def _once(self, key: str, text: str, read: Callable[[str], Any]) -> Any:
        kept = self._read.get(key)
        if kept is not None and kept[0] is text:
            return kept[1]
        value = read(text)
        self._read[key] = (text, value)
        return value

    def schedule(self) -> Schedule | None:
        """The tournament's level schedule, or ``None`` at a cash game."""
        if not self.tournament:
            return None
        from rollem.tournament import SCHEDULES

        if self.tournament == "custom":
            return cast("Schedule", self._once("schedule", self.tournament_schedule,
                                               _custom_schedule))
        return SCHEDULES[self.tournament]

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain data (JSON-ready: the stored form), without what
        was read from them."""
        return {f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self) if f.init}

    def public_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` for the players: the game file's text is left out
        (``game_file`` is then its id, or ``None``), and so is a custom tournament
        schedule's text (``tournament_schedule`` is then ``None``: ``tournament``
        says ``custom``, and the levels are in the state's ``tournament``).  Stop 58: up to 64 KB of
        the host's TOML, comments included, went in every state to every
        connection (a state of 4 KB was 66 KB)."""
        out = self.to_dict()
        own = self.own_game()
        out["game_file"] = own.id if own is not None else None
        out["tournament_schedule"] = None
        return out

    def own_game(self) -> Game | None:
        """The host's own game (from :attr:`game_file`), or ``None``. The file was
        checked when this configuration was read (:func:`parse_config`), so it is
        read here as accepted (``strict=False``), once per configuration."""
        if not self.game_file:
            return None
        return cast("Game", self._once("game", self.game_file,
                                       lambda text: file_game(text, strict=False)))

    def game_of(self, game_id: str) -> Game:
        """The :class:`~rollem.engine.game.Game` this table deals as ``game_id``.

        Raises:
            KeyError: not a game of this server (naming the ids allowed).
        """
        own = self.own_game()
        if own is not None and own.id == game_id:
            return own
        from rollem import games

        return games.get(game_id)

    def game_ids(self) -> list[str]:
        """Every game this table may deal: the shipped games, then the host's own."""
        own = self.own_game()
        return shipped_game_ids() + ([own.id] if own is not None else [])

    def game_names(self) -> dict[str, str]:
        """Display name of every game this table may deal, by id."""
        return {gid: self.game_of(gid).name for gid in self.game_ids()}

    def forced_bets(self) -> dict[str, str]:
        """Every game's forced bets at this table's stakes, by id, in words
        (``"ante 1"``, ``"blinds 1/2"``, ``"ante 1, bring-in 1"``)."""
        from rollem.games.describe import forced_bet_words
        from rollem.server.game_session import GameSession

        options = GameSession.options_for(self)
        return {gid: forced_bet_words(self.game_of(gid), options) for gid in self.game_ids()}

    def bomb_pot_refusal(self) -> str | None:
        """Why no hand of this table can be a bomb pot (one line), or ``None`` when
        one of its games can have one (dealer's choice: any game offered; a bomb pot
        called waits for it). Stud, razz, draw, deuces wild, 5-2-1 and Roll Your
        Own have none (:func:`rollem.games.build.bomb_pot_refusal`)."""
        from rollem.games.build import bomb_pot_refusal

        return self._refusal_of_all(
            bomb_pot_refusal, "has bomb pots: their first betting round is not followed "
            "by shared cards (bomb pots are for board games such as hold'em, Omaha and "
            "Stop, Drop and Roll)")

    def run_twice_refusal(self) -> str | None:
        """Why no hand of this table can run it twice (one line), or ``None`` when
        one of its games can (dealer's choice: any game offered). Stud, razz, draw,
        deuces wild, 5-2-1 and Roll Your Own cannot
        (:func:`rollem.engine.runtwice.run_twice_refusal`)."""
        from rollem.engine.runtwice import run_twice_refusal

        return self._refusal_of_all(
            run_twice_refusal, "can run it twice: none deals shared cards after the "
            "betting (run it twice is for board games such as hold'em, Omaha and "
            "Stop, Drop and Roll)")

    def _refusal_of_all(self, refusal: Callable[[Game, Options], str | None],
                        words: str) -> str | None:
        """``refusal`` (one game's: why it cannot, or ``None``) of every game this
        table may deal: ``None`` when one can; the one game's reason; or "none of
        <the games> <words>"."""
        from rollem.server.game_session import GameSession

        options = GameSession.options_for(self)
        dealt = self.choices if self.game == "dealers-choice" else [self.game]
        refusals = [refusal(self.game_of(g), options) for g in dealt]
        if any(r is None for r in refusals):
            return None
        if len(refusals) == 1:
            return refusals[0]
        return f"none of {', '.join(self.game_of(g).name for g in dealt)} {words}"

    def option_refusals(self) -> dict[str, dict[str, str | None]]:
        """For each game the host's settings may pick (``"dealers-choice"``, with
        this table's choices, then :meth:`game_ids`), why no hand of it can run it
        twice or be a bomb pot (:meth:`run_twice_refusal`, :meth:`bomb_pot_refusal`),
        ``None`` where one can: ``{game: {"run_twice": why, "bomb_pot": why}}``.
        The settings form offers neither where it says why (stop 53: it offered
        both at stud, and the server refused the change)."""
        from dataclasses import replace

        out: dict[str, dict[str, str | None]] = {}
        for gid in ["dealers-choice", *self.game_ids()]:
            other = replace(self, game=gid)
            out[gid] = {"run_twice": other.run_twice_refusal(),
                        "bomb_pot": other.bomb_pot_refusal()}
        return out

    def unused_option(self) -> str | None:
        """Why an option that is on would do nothing at this table (one line naming
        the option and what it must be), or ``None``: ``bomb_pot_every`` above 0 or
        ``run_twice`` where none of the table's games can have it (taken silently,
        the settings would say it was on while no hand ever had it: try-out of
        stop 52). Checked at creation (:func:`parse_config`) and in the host's
        settings (:func:`rollem.server.host._check_config`)."""
        why = self.bomb_pot_refusal() if self.bomb_pot_every > 0 else None
        if why is not None:
            return f"bomb_pot_every must be 0 at this table: {why}"
        why = self.run_twice_refusal() if self.run_twice else None
        if why is not None:
            return f"run_twice must be false at this table: {why}"
        return None

    def max_seats(self) -> int:
        """Most players this table's game deals in (dealer's choice: its largest game)."""
        if self.game == "dealers-choice":
            return max(self.game_of(g).max_players for g in self.choices)
        return self.game_of(self.game).max_players

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        """A stored configuration (:func:`parse_config` with ``strict=False``)."""
        return parse_config(data, strict=False)


CREATE_FIELDS: tuple[str, ...] = tuple(sorted(f.name for f in fields(TableConfig) if f.init))
"""The fields a new table's configuration may have (``POST /api/tables``): one
per :class:`TableConfig` field.  Two are families of their own, checked too:
``house`` (an object of house options, :data:`HOUSE_OPTIONS` and the host's game
file's own) and ``choices`` (a list of game ids).  The tournament fields
(``buy_in``, ``payouts``, ...) are taken at a cash game too (the create form
sends them all), and not used there."""

_FAMILIES = {
    "house": 'house options go in the object "house", e.g. {{"house": {{"{rest}": true}}}}',
    "choice": ('the dealer\'s choice games go in the list "choices", e.g. '
               '{{"choices": ["{rest}"]}}'),
    "choices": ('the dealer\'s choice games go in the list "choices", e.g. '
                '{{"choices": ["{rest}"]}}'),
}
"""What a dotted field (the create form's input names, ``house.cap_heads_up``,
``choice.sdr``) is sent as instead: the form folds them into ``house`` and
``choices`` before sending."""


def unknown_field_message(what: str, key: str, allowed: tuple[str, ...]) -> str:
    """The refusal of ``key``, a field ``what`` does not take: names it, the field
    it is likely a misspelling of (or where a dotted name's value goes) and the
    fields ``allowed``.  At most about 1 KB (a long key is cut)."""
    shown = key if len(key) <= 60 else key[:57] + "..."
    hint = ""
    family, dot, rest = key.partition(".")
    if dot and family in _FAMILIES and rest:
        hint = f" ({_FAMILIES[family].format(rest=rest[:40])})"
    else:
        close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.75)
        if close:
            hint = f" (did you mean {close[0]!r}?)"
    return f"{what}: unknown field {shown!r}{hint}; allowed: {', '.join(allowed)}"


def check_fields(data: dict[str, Any]) -> None:
    """Refuse a new table's configuration with a field no table has, so a typo
    (``"privte": true``) never creates a table other than the one asked for
    (a public one): every field of ``data`` must be in :data:`CREATE_FIELDS`.

    Raises:
        UnknownFieldError: naming the first unknown field (in sorted order), and
            the fields allowed.
    """
    unknown = sorted(str(key) for key in data if key not in CREATE_FIELDS)
    if unknown:
        raise UnknownFieldError(unknown_field_message("a table's configuration", unknown[0],
                                                      CREATE_FIELDS))


_WHOLE_NUMBER = re.compile(r"\s*-?[0-9]{1,15}\s*\Z", re.ASCII)
"""A whole number written as text ("12", " -5 "): ASCII digits only ("²" and "--5" are not)."""
_DECIMAL = re.compile(r"\s*-?[0-9]{1,15}(\.[0-9]{1,15})?\s*\Z", re.ASCII)
"""A number written as text ("1.5", "30"): ASCII digits, no exponent, NaN or infinity."""


def _chip_value(data: dict[str, Any]) -> str:
    """``chip_value``: empty, or a decimal text of at most 4 places from 0.0001 to 1000."""
    raw = data.get("chip_value", "")
    if raw in ("", None):
        return ""
    text = str(raw).strip() if isinstance(raw, (str, int, float)) and not isinstance(
        raw, bool) else ""
    ok = re.fullmatch(r"\d{1,4}(\.\d{1,4})?", text) is not None
    if ok and not 0 < Fraction(text) <= 1000:
        ok = False
    if not ok:
        raise ConfigError(f"chip_value must be the money one chip is worth, a number such "
                          f"as 0.05 (more than 0, at most 1000, 4 decimals at most), or empty "
                          f"for chips only; not {raw!r}"[:300])
    return text


FORM_LABELS["chip_value"] = "Chip value"  # the host's Change names it so (stop 55)


SHOWN = 60
"""The most characters of a refused value a setting's error quotes: the whole value
was quoted (a 100,000-character ``stack`` or a 1,300-item ``seats`` list came back
as a 100 KB error message)."""


def _shown(value: object) -> str:
    """``value`` as an error quotes it: its ``repr``, cut to :data:`SHOWN` characters
    (``...`` and the length after a cut one)."""
    try:
        text = repr(value)
    except ValueError:  # (an int past Python's 4300 digits to text)
        return "a number too long to show"
    if len(text) <= SHOWN:
        return text
    return f"{text[:SHOWN - 4]} ... ({len(text):,} characters)"


def _int(data: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, str) and _WHOLE_NUMBER.match(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key} must be a whole number from {low} to {high}, not {_shown(value)}")
    if not low <= value <= high:
        raise ConfigError(f"{key} must be from {low} to {high}, not {_shown(value)}")
    return value


def _float(data: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = data.get(key, default)
    if isinstance(value, str) and _DECIMAL.match(value):
        value = float(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{key} must be a number of seconds, not {_shown(value)}")
    number = float(value)
    if not low <= number <= high:
        raise ConfigError(f"{key} must be from {low:g} to {high:g} seconds, not {number:g}")
    return number


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if isinstance(value, bool):
        return value
    if value in ("true", "on", "1", 1, "yes"):
        return True
    if value in ("false", "off", "0", 0, "no", ""):
        return False
    raise ConfigError(f"{key} must be true or false, not {_shown(value)}")


def _choice(data: dict[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
    value = data.get(key, default)
    if value not in allowed:
        raise ConfigError(f"{key} must be one of {', '.join(allowed)}, not {_shown(value)}")
    return str(value)


def _own_house_option(house_in: dict[str, Any], key: str, default: object,
                      own: Game | None) -> object:
    """A value for a house option of the host's game file, of its default's kind:
    true/false, a whole number, or one of the texts the file allows."""
    if isinstance(default, bool):
        return _bool(house_in, key, default)
    if isinstance(default, int):
        return _int(house_in, key, default, 0, 1_000_000)
    spec = own.spec if own is not None else None
    allowed = tuple(str(v) for v in (spec.choices.get(key, ()) if spec is not None else ()))
    return _choice(house_in, key, str(default), allowed or (str(default),))


TABLE_HOUSE_OPTIONS = ("cap_heads_up",)
"""House options of the table's betting, whatever the game (R-C-6): the others
belong to the games that name them (:attr:`rollem.engine.game.Game.house`)."""


def _check_house_of_games(probe: TableConfig, house: dict[str, Any], dealt: list[str]) -> None:
    """Refuse a house option set away from its default that no game the table deals
    (``dealt``: the game, or a dealer's choice's games) has: it would do nothing, and
    the table's settings would say it is on (the lobby sends every box, each game's
    at its default unless ticked; ``rollem play`` refuses such a flag the same way,
    issue 33).  Raises :class:`UnusedHouseOptionError` naming the option and the games' own."""
    known = set(TABLE_HOUSE_OPTIONS)
    for gid in dealt:
        known |= set(probe.game_of(gid).house)
    for key, value in house.items():
        default = HOUSE_OPTIONS[key][1] if key in HOUSE_OPTIONS else value
        if key not in known and value != default:
            own = ", ".join(sorted(known - set(TABLE_HOUSE_OPTIONS))) or "none"
            raise UnusedHouseOptionError(
                f"house option {key} does nothing at a table dealing {', '.join(dealt)}: "
                f"leave it off (their house options: {own}; cap_heads_up holds for every "
                "game)", key, [probe.game_of(gid).name for gid in dealt])


def parse_config(data: dict[str, Any],
                 shortest_decision: float = STORED_SHORTEST_DECISION, *,
                 strict: bool = True) -> TableConfig:
    """Read and check a table configuration (from the creation form or the store).

    ``shortest_decision``: the shortest decision clock allowed, in seconds; a new
    table from the API is held to the server's (``ServerSettings.shortest_decision``,
    :data:`DECISION_SECONDS`), a stored one to :data:`STORED_SHORTEST_DECISION`.
    ``strict``: the host's game file gets every check (a new table); ``False``:
    a stored table's file, read as it was accepted (:func:`file_game`).  A new
    table with ``practice_odds`` is refused when a game it may deal has no odds
    (:func:`rollem.odds.no_odds_reason`: a game file with a declare showdown;
    issue 34); a stored one keeps its settings (each request is refused then).
    A new table's ``data`` may have only :data:`CREATE_FIELDS`
    (:func:`check_fields`); a stored one's other fields are ignored.

    Raises :class:`ConfigError` naming the field and the allowed values
    (:class:`UnknownFieldError`: a field no table has).
    """
    if not isinstance(data, dict):
        raise ConfigError("a table configuration must be a JSON object")
    if strict:
        check_fields(data)
    game_file = data.get("game_file", "") or ""
    if not isinstance(game_file, str):
        raise ConfigError("game_file must be the text of a game file (TOML)")
    own = file_game(game_file, strict=strict) if game_file else None
    if own is not None and own.id in shipped_game_ids():
        # A shipped game's rules unchanged (comments and layout aside): it is the
        # shipped game, dealt as such with no file of the host's (as ``rollem
        # check-game`` and ``--game-file`` take it; s62-table: the form refused it).
        own, game_file = None, ""
    ids = shipped_game_ids() + ([own.id] if own is not None else [])
    game = _choice(data, "game", "dealers-choice", (*ids, "dealers-choice"))
    choices = _choices(data, ids, own.id if own is not None else None, strict=strict)
    probe = TableConfig(game=game, choices=choices, game_file=game_file)
    most = probe.max_seats()
    seats = _int(data, "seats", 6, 2, 10)
    if seats > most:  # say which game limits the seats (a host may not have sent seats)
        what = (f"{probe.game_of(game).name} deals" if game != "dealers-choice"
                else "the dealer's choice games deal")
        raise TooManySeatsError(f"seats must be from 2 to {most}, not {seats}: {what} at most "
                                f"{most} players", what, most, seats)
    # A game that needs more players than the table has seats could never be dealt.
    for gid in choices if game == "dealers-choice" else [game]:
        least = probe.game_of(gid).min_players
        if least > seats:
            raise ConfigError(f"{gid} needs at least {least} players but the table has "
                              f"{seats} seats; give seats {least} or more")
    ante = _int(data, "ante", 1, 0, 1_000_000)
    small = _int(data, "small_bet", 2, 1, 1_000_000)
    big = _int(data, "big_bet", max(4, 2 * small) if "small_bet" in data else 4, 1, 10_000_000)
    if big < small:
        # (the forms' labels: stop 54)
        raise ConfigError(f"Big bet ({big}) must be at least Small bet ({small})")
    stack = _int(data, "stack", 200, 1, MAX_STACK)
    sit_and_go = _tournament(data)
    if sit_and_go is not None:  # the schedule sets the stack and the first level's stakes
        schedule = sit_and_go[0]
        first = schedule.levels[0]
        ante, small, big, stack = first.ante, first.small_bet, first.big_bet, schedule.stack
    if ante + small > stack:
        # R-C-6: with the ante at or near the stack everyone is all-in before any bet.
        raise ConfigError(
            f"the starting stack ({stack}) must cover the ante plus one small bet "
            f"({ante} + {small} = {ante + small}); otherwise no betting could happen"
        )
    house_in = data.get("house", {}) or {}
    if not isinstance(house_in, dict):
        raise ConfigError("house must be an object of house options")
    house: dict[str, Any] = {}
    # the host's own game file brings its own house options (and their defaults)
    own_house = dict(own.house) if own is not None else {}
    for key, _value in house_in.items():
        if key in own_house and key not in HOUSE_OPTIONS:
            house[key] = _own_house_option(house_in, key, own_house[key], own)
            continue
        if key not in HOUSE_OPTIONS:
            allowed = sorted({*HOUSE_OPTIONS, *own_house})
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.75)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"unknown house option {str(key)[:60]!r}{hint}; allowed: "
                              f"{', '.join(allowed)}")
        kind, _default = HOUSE_OPTIONS[key]
        if kind is bool:
            house[key] = _bool(house_in, key, False)
        elif key == "failed_both_rule":
            house[key] = _choice(house_in, key, "carry", ("carry", "split"))
    if strict:
        _check_house_of_games(probe, house, choices if game == "dealers-choice" else [game])
    name = data.get("name", "Home game")
    if not isinstance(name, str) or hidden_character(name) is not None:
        raise ConfigError(f"name must be a text of visible characters (at most "
                          f"{MAX_TABLE_NAME}), not {_shown(name)}")
    name = " ".join(name.split())
    if len(name) > MAX_TABLE_NAME:
        raise ConfigError(f"name has at most {MAX_TABLE_NAME} characters, not {len(name)}: "
                          "choose a shorter table name")
    name = name or "Home game"
    practice_odds = _bool(data, "practice_odds", False)
    if practice_odds and strict:
        # the host may switch to the own game later (host ``config``): it counts too
        _check_practice_odds(probe, [*([own.id] if own is not None else []),
                                     *(choices if game == "dealers-choice" else [game])])
    config = TableConfig(
        game=game,
        structure=_choice(data, "structure", "fixed-limit", STRUCTURES),
        ante=ante,
        small_bet=small,
        big_bet=big,
        seats=seats,
        stack=stack,
        bots=_int(data, "bots", 1, 0, seats - 1),
        bot_level=_choice(data, "bot_level", "basic", BOT_LEVELS),
        rebuys=_bool(data, "rebuys", True) and sit_and_go is None,  # (cash rebuys)
        house=house,
        decision_seconds=_float(data, "decision_seconds", 30.0, shortest_decision,
                                DECISION_SECONDS[1]),
        time_bank_seconds=_float(data, "time_bank_seconds", 60.0, 0, 3600),
        grace_seconds=_float(data, "grace_seconds", 120.0, 0.05, 3600),
        bot_delay=_float(data, "bot_delay", 0.8, 0, 60),
        between_hands=_float(data, "between_hands", 4.0, 0, 600),
        away_after=_int(data, "away_after", 2, 0, 5),
        straddle=_choice(data, "straddle", "off", STRADDLE_RULES),
        run_twice=_bool(data, "run_twice", False),
        bomb_pot_every=_int(data, "bomb_pot_every", 0, 0, 100),
        bomb_pot_ante=_int(data, "bomb_pot_ante", 0, 0, stack),
        chip_value=_chip_value(data),
        hand_seconds=_float(data, "hand_seconds", 0.0, 0, 600),
        rebuy_approval=_bool(data, "rebuy_approval", False),
        rebuy_cap=_int(data, "rebuy_cap", 0, 0, 100),
        private=_bool(data, "private", False),
        watcher_delay=_bool(data, "watcher_delay", False),
        name=name,
        practice_odds=practice_odds,
        choices=choices,
        game_file=game_file,
        **(sit_and_go[1] if sit_and_go is not None else {}),
    )
    unused = config.unused_option() if strict else None  # (a stored table loads as it was)
    if unused is not None:
        raise ConfigError(unused)
    return config


@lru_cache(maxsize=64)
def _custom_schedule(text: str) -> Schedule:
    """A custom schedule read once per text (it is asked for at every state)."""
    from rollem.tournament import load_schedule

    return load_schedule(text)


TOURNAMENT_NAMES = ("turbo", "regular", "slow", "custom")
"""What ``tournament`` may name (issue 28): a shipped schedule, or ``custom``."""


def _tournament(data: dict[str, Any]) -> tuple[Schedule, dict[str, Any]] | None:
    """The schedule and the tournament fields of a table configuration, checked
    (issue 28), or ``None`` for a cash game."""
    name = data.get("tournament", "") or ""
    if name == "":
        return None
    if name not in TOURNAMENT_NAMES:
        raise ConfigError(f"tournament must be one of {', '.join(TOURNAMENT_NAMES)} (or "
                          f"empty: a cash game), not {_shown(name)}")
    from rollem.tournament import SCHEDULES, load_schedule
    from rollem.tournament.schedule import ScheduleError

    text = data.get("tournament_schedule", "") or ""
    if not isinstance(text, str):
        raise ConfigError("tournament_schedule must be the text of a schedule (TOML)")
    if name == "custom":
        try:
            schedule = load_schedule(text)
        except ScheduleError as err:
            raise ConfigError(f"tournament_schedule: {err}") from None
    elif text:
        raise ConfigError("tournament_schedule is for tournament 'custom' only")
    else:
        schedule = SCHEDULES[name]
    first = schedule.levels[0]
    if first.ante + first.small_bet > schedule.stack:
        raise ConfigError(f"the schedule's stack ({schedule.stack}) must cover its first "
                          f"ante plus small bet ({first.ante + first.small_bet})")
    payouts = data.get("payouts", []) or []
    if (not isinstance(payouts, list) or len(payouts) > 10
            or any(type(p) is not int or not 1 <= p <= 100 for p in payouts)
            or (payouts and sum(payouts) != 100)
            or any(a < b for a, b in pairwise(payouts))):
        raise ConfigError("payouts must be 1 to 10 whole percentages adding up to 100, best "
                          f"place first and none above the one before (or empty: the "
                          f"shipped table), not {_shown(payouts)}")
    fields = {"tournament": name, "tournament_schedule": text,
              "buy_in": _int(data, "buy_in", 10, 0, 1_000_000), "payouts": list(payouts),
              "rebuy_levels": _int(data, "rebuy_levels", 0, 0, 10),
              "rotate": _rotation(data)}
    buy_in, rebuy_levels = _int(data, "buy_in", 10, 0, 1_000_000), int(str(fields["rebuy_levels"]))
    fields["addon_chips"] = addon = _int(data, "addon_chips", 0, 0, 1_000_000)
    fields["addon_price"] = _int(data, "addon_price", buy_in, 0, 1_000_000)
    if addon and not rebuy_levels:
        raise ConfigError("addon_chips: an add-on is offered when the rebuys close; set "
                          "rebuy_levels (Rebuys in the first levels) to 1 or more, or "
                          "addon_chips to 0 (no add-on)")
    if addon and rebuy_levels >= len(schedule.levels):
        raise ConfigError(f"addon_chips: the rebuys stay open through the schedule's "
                          f"{len(schedule.levels)} levels, so no add-on could be offered; "
                          f"set rebuy_levels below {len(schedule.levels)}")
    if payouts and len(payouts) > _int(data, "seats", 6, 2, 10):
        raise ConfigError(f"payouts: {len(payouts)} places paid at a table of "
                          f"{data.get('seats', 6)} seats")
    return schedule, fields


def _rotation(data: dict[str, Any]) -> str:
    """``rotate``: ``"level"``, ``"orbit"`` or empty (none); a bool as stored
    before orbits (true: by level)."""
    from rollem.tournament.session import ROTATIONS

    value = data.get("rotate", "")
    if value in ("", "off", "none", None):
        return ""
    if not isinstance(value, str) or value in ("true", "on", "false"):
        return "level" if _bool(data, "rotate", False) else ""
    if value not in ROTATIONS:
        raise ConfigError(f"rotate must be one of level, orbit (or empty: the button "
                          f"chooses), not {_shown(value)}")
    return value


def _check_practice_odds(config: TableConfig, game_ids: list[str]) -> None:
    """Practice odds only where they can be computed (issue 34): a game file
    with a declare showdown has no odds, and each request would only fail."""
    from rollem.odds import no_odds_reason

    for gid in dict.fromkeys(game_ids):
        reason = no_odds_reason(config.game_of(gid))
        if reason is not None:
            raise ConfigError(f"practice_odds: the table may deal {gid}, which has no odds "
                              f"({reason}); create it without the Practice option")


def _choices(data: dict[str, Any], ids: list[str], own: str | None, *,
             strict: bool = True) -> list[str]:
    """The dealer's choice games (R-C-12): :func:`check_choices` of ``choices``, or
    our three when it is missing or empty (the create form sends ``[]`` for
    another game); the host's own game (a game file) is always among them.
    ``strict=False`` (a stored table): a game named twice is kept once."""
    from rollem.games import DEFAULT_CHOICE

    raw = data.get("choices")
    if raw is None or raw == []:
        raw = list(DEFAULT_CHOICE)
    if not strict and isinstance(raw, list):
        raw = list(dict.fromkeys(raw))  # (as an older server stored it)
    out = check_choices(raw, ids)
    if own is not None and own not in out:
        out.append(own)
    return out


def check_choices(raw: object, ids: list[str]) -> list[str]:
    """The dealer's choice games (R-C-12) as the host gives them, at creation and
    in the host's settings (:func:`rollem.server.host._check_choices`): a list
    of at least one game id among ``ids``, each once.  Returns a copy.  Raises
    :class:`ConfigError` naming what was wrong and what is allowed."""
    if not isinstance(raw, list) or not all(isinstance(g, str) for g in raw):
        raise ConfigError(f"choices must be a list of game ids, e.g. [\"sdr\", \"holdem\"], "
                          f"not {_shown(raw)}")
    if not raw:
        raise ConfigError("choices must name at least one game")
    for gid in raw:
        if gid not in ids:
            raise ConfigError(f"choices: unknown game {_shown(gid)}; allowed: {', '.join(ids)}")
    twice = sorted(g for g, n in Counter(raw).items() if n > 1)
    if twice:
        raise ConfigError(f"choices names {', '.join(map(repr, twice))} more than once; "
                          "list each game once")
    return list(raw)


@dataclass(slots=True, frozen=True)
class ServerSettings:
    """How one ``rollem serve`` protects itself and where it is reached (issue 13).

    Every field is a ``rollem serve`` option and a ``ROLLEM_...`` environment
    variable (``docs/hosting.md``).  Counts are whole numbers; times are seconds.
    """

    public_url: str | None = None
    """The address friends open (``https://poker.example.org``): invite links use it,
    its origin may open websockets, and ``https`` makes cookies ``Secure``."""
    allowed_origins: tuple[str, ...] = ()
    """More origins (``scheme://host[:port]``) whose pages may open websockets."""
    forwarded_allow_ips: str = "127.0.0.1"
    """Reverse proxies (addresses, networks, comma separated; ``*`` any) whose
    ``X-Forwarded-*`` headers are believed; from anyone else they are removed
    (:mod:`rollem.server.proxies`)."""
    messages_per_second: float = 20.0
    """Token bucket per websocket connection (every message type): refill rate ..."""
    message_burst: int = 60
    """... and size.  A message beyond it gets a ``rate_limited`` error, then the
    connection is closed."""
    connections_per_address: int = 32
    connects_per_minute: float = 60.0
    """Websockets one address may open a minute (a token bucket, bursts of
    :attr:`connect_burst`), a seat's own too: past it the opening is answered
    HTTP 429 ``rate_limited`` (``Retry-After``) before anything is counted or
    read, and the page tries again within 5 s.  The counts bound what is open at once; this,
    how fast it is closed and opened again (try-out of stop 52)."""
    connect_burst: int = 64
    joins_per_minute: float = 30.0
    """Attempts to get in at a table one address (IPv6: /64) may make a minute, at
    all tables together: sitting down (``POST /api/tables/<id>/join``) and asking
    to watch a gated table (``POST .../watch``, a password try each), answered or
    refused (a token bucket, bursts of :attr:`join_burst`).  Past it HTTP 429
    ``rate_limited`` with ``Retry-After``, before the table is looked up or the
    body read (s60-safe: a flood of refused joins had no rate of its own; each
    judges a name against the table's, up to 3 ms of the event loop, and a
    password try is a 50 ms scrypt check).  A private table's newcomers and
    password tries keep their own rate at each table besides
    (:data:`rollem.server.app_context.PASSWORD_TRIES_PER_MINUTE`)."""
    join_burst: int = 20
    connections_per_table: int = 64
    connections_per_seat: int = 4
    """Open websockets of one seat (and of the host's cookie): a newer one replaces
    the oldest, which is told why (``replaced``, close code 4410).  A seat's own
    connection is never refused for the two counts above (issue 34)."""
    http_timeout: float = 20.0
    """Seconds an HTTP connection may take to send a whole request (head and body),
    from when it opens or its last answer went out; then it is closed (issue 34:
    idle and slow connections must not hold the server's file handles)."""
    http_connections_per_address: int = 64
    """Open HTTP connections (not yet websockets) from one address (IPv6: /64); a
    trusted proxy's are not counted.  Past it, the address's oldest connection
    still waiting for its request is closed to make room, else the new one is."""
    tables_per_address_per_hour: int = 30
    seats_per_address: int = 20
    """Seats one address (IPv6: /64) may hold at once at this server's tables, its
    own tables' and anyone's: past it a sit-down is refused, HTTP 429
    ``too_many_seats`` (try-out of stop 53: one address sat down at every open
    table it was given the link of, each seat letting four of its connections in
    past :attr:`connections_per_address`).  Counted by this process from the
    sit-downs it answered; a seat left, removed, or of a deleted table stops
    counting (:meth:`rollem.server.limits.Limits.seat_refusal`)."""
    costly_requests_per_minute: float = 120.0
    """Token bucket per client address for the HTTP requests that build something
    (hand lists, replays and histories, rules pages, ``/healthz``'s commit):
    refill rate a minute ..."""
    costly_burst: int = 30
    """... and size.  Beyond it: HTTP 429 ``rate_limited`` with ``Retry-After``."""
    max_tables: int = 10_000
    """Tables stored at once (not yet deleted by the retention)."""
    max_body_bytes: int = 16_384
    """Largest HTTP request body; a longer one is cut off while read (413)."""
    max_head_bytes: int = 65_536
    """Largest request line and headers together of one HTTP request (cookies
    included); past it, HTTP 431 and the connection closed (``rollem serve``'s
    guard: :class:`rollem.server.conn_guard.ConnectionGuard`)."""
    max_json_depth: int = 16
    """Deepest nesting of arrays and objects in any JSON a client sends."""
    idle_seconds: float = 600.0
    """A table with no connected person stops dealing and is unloaded after this."""
    retention_days: float = 30.0
    """Tables not played for this long are deleted with their hands."""
    unplayed_seconds: float = 3600.0
    """A table never dealt a hand with nobody seated is deleted this long after its
    last change (and not while anyone has it open), so abandoned tables do not
    count against ``max_tables`` for ``retention_days``."""
    lease_seconds: float = 10.0
    """PostgreSQL (several processes, issue 17): a table's lease lasts this long
    unless renewed; a dead process's tables move to another after it."""
    shortest_decision: float = DECISION_SECONDS[0]
    """The shortest decision clock a new table may ask for (seconds; the create
    form's minimum too); a test server lowers it for quick clocks."""
    advertise_url: str | None = None
    """PostgreSQL: where the other processes and the proxy reach this process
    (``http://10.0.0.5:8001``); stored in its leases.  ``rollem serve`` fills in
    its own address when not given."""
    # When computer players act and odds answers leave (stop 56, rollem.server.pacing):
    bot_shortest_wait: float = 0.25
    """Seconds from a computer player's decision opening to its action at least,
    whatever a table's ``bot_delay`` (0 included; 0 to 60): its think must have a
    fixed time to end in, or its length, which follows its cards, shows
    (:data:`rollem.server.pacing.BOT_SHORTEST_WAIT`).  A test server lowers it,
    with :attr:`bot_waits_for_think`."""
    bot_waits_for_think: bool = False
    """``False``: a computer player's think not back by its due time plays the
    clock's action (check, else fold: R-C-15), so no think shows.  ``True``: it is
    waited for, and its length shows; for test servers only, whose computer
    players act as soon as they have thought."""
    odds_answer_grid: float = 1.5
    """Seconds (0 to 60): a practice-odds answer leaves at the first whole number
    of these after its request once the odds are done, so how long they took,
    which follows the asker's cards, does not show
    (:data:`rollem.server.pacing.ODDS_ANSWER_GRID`; 0: as soon as done).  A test
    server lowers it."""
    runout_step: float = 1.0
    """Seconds (0 to 5) between the rounds of an all-in run-out: the call, each
    round of face-up cards, then the result (s61-table2,
    :data:`rollem.server.pacing.RUNOUT_STEP`; the whole run-out at most
    :data:`~rollem.server.pacing.RUNOUT_MOST`); 0: all at once.  A test server
    lowers it."""
    # The disk budget (issue 34, rollem.server.budget.DiskBudget):
    hand_seconds: float = 1.0
    """Least seconds from one deal to the next at every table (a host may ask for
    more: the table's ``hand_seconds``)."""
    unattended_hand_seconds: float = 5.0
    """Least seconds from one deal to the next when no person played the last hand
    (computer players and the clock did; a person at most folded)."""
    unattended_seconds: float = 600.0
    """A table where no person played a hand for this long stops dealing (until a
    person sits down or the host deals); one where no person ever played is
    deleted ``unplayed_seconds`` after its last change."""
    table_storage_mb: float = 100.0
    """Most megabytes (10**6 bytes) of stored hands per table: then it deals no more."""
    storage_mb: float = 4000.0
    """Most megabytes of stored hands of all tables together: then none deals more."""

    def budget(self) -> DiskBudget:
        """The :class:`~rollem.server.budget.DiskBudget` of these settings."""
        from rollem.server.budget import DiskBudget

        return DiskBudget(
            hand_seconds=self.hand_seconds,
            unattended_hand_seconds=self.unattended_hand_seconds,
            unattended_seconds=self.unattended_seconds,
            table_bytes=int(self.table_storage_mb * 10**6),
            server_bytes=int(self.storage_mb * 10**6))

    def pacing(self) -> Pacing:
        """The :class:`~rollem.server.pacing.Pacing` of these settings."""
        from rollem.server.pacing import Pacing

        return Pacing(bot_shortest_wait=self.bot_shortest_wait,
                      bot_waits_for_think=self.bot_waits_for_think,
                      odds_answer_grid=self.odds_answer_grid,
                      runout_step=self.runout_step)

    def check(self) -> None:
        """Raise :class:`ConfigError` naming a setting out of range."""
        for name in ("messages_per_second", "idle_seconds", "retention_days", "lease_seconds",
                     "unplayed_seconds", "unattended_seconds", "table_storage_mb",
                     "storage_mb", "http_timeout", "costly_requests_per_minute",
                     "connects_per_minute", "joins_per_minute"):
            if not getattr(self, name) > 0:
                raise ConfigError(f"{name} must be more than 0, not {getattr(self, name)}")
        for name in ("message_burst", "connections_per_address", "connections_per_table",
                     "connections_per_seat", "http_connections_per_address",
                     "tables_per_address_per_hour", "max_tables", "max_body_bytes",
                     "max_json_depth", "costly_burst", "connect_burst",
                     "join_burst"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in ("hand_seconds", "unattended_hand_seconds"):
            if not 0 <= getattr(self, name) <= 600:
                raise ConfigError(f"{name} must be from 0 to 600 seconds, not "
                                  f"{getattr(self, name):g}")
        for name in ("bot_shortest_wait", "odds_answer_grid"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and 0 <= value <= 60):
                raise ConfigError(f"{name} must be from 0 to 60 seconds, not {value!r}")
        step = self.runout_step
        if not (isinstance(step, int | float) and 0 <= step <= 5):
            raise ConfigError(f"runout_step must be from 0 to 5 seconds, not {step!r}")
        if not isinstance(self.bot_waits_for_think, bool):
            raise ConfigError(f"bot_waits_for_think must be true or false, not "
                              f"{self.bot_waits_for_think!r}")
        low, high = STORED_SHORTEST_DECISION, DECISION_SECONDS[1]
        if not low <= self.shortest_decision <= high:
            raise ConfigError(f"shortest_decision must be from {low:g} to {high:g} seconds, "
                              f"not {self.shortest_decision:g}")
        from rollem.server.proxies import parse_trusted

        try:
            parse_trusted(self.forwarded_allow_ips)
        except ValueError as err:
            raise ConfigError(str(err)) from None
        for url in (self.public_url, self.advertise_url, *self.allowed_origins):
            if url is not None and not url.startswith(("http://", "https://")):
                raise ConfigError(f"{url!r} must start with http:// or https://")

    @property
    def secure(self) -> bool:
        """Whether the public address is HTTPS (cookies then carry ``Secure``)."""
        return bool(self.public_url and self.public_url.startswith("https://"))

    def origins(self) -> set[str]:
        """Origins (``scheme://host[:port]``, lower case) allowed besides the request's own."""
        out = {o.rstrip("/").lower() for o in self.allowed_origins}
        if self.public_url:
            from urllib.parse import urlsplit

            parts = urlsplit(self.public_url)
            out.add(f"{parts.scheme}://{parts.netloc}".lower())
        return out
