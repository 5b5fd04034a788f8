"""The web table's one point of contact with the engine.

A :class:`GameSession` wraps one :class:`rollem.engine.hand.Hand` and speaks
plain JSON to the rest of the server:

- actions arrive as wire objects ``{"kind": "raise", "to": 12}`` (see
  :func:`action_from_wire`) and are stored in that form;
- what a seat sees is ``Hand.view(seat).to_dict()``, never the hand
  (:meth:`GameSession.view_json`: the same as JSON text, built once per
  change of the hand and viewer, each event serialised once per viewer);
- every random outcome (deck order, pool shuffle, reshuffle) is recorded,
  stored with the hand setup or with the action that caused it, and fed back
  by :class:`rollem.engine.randomness.ReplaySource` to rebuild the hand after
  a restart (R-C-13); a hand dealt from a committed deck (issue 32) stores
  its :class:`~rollem.engine.commit_reveal.DealProof` (``setup["proof"]``,
  the secret key with it: never in a view) and is dealt again from it.

Wire actions (``kind`` is one of the names in ``Legal.actions``):
``fold``, ``check``, ``call``, ``bet`` (``amount``: the seat's round total),
``raise`` (``to``), ``discard`` (``cards``: list of card text), ``expose``
(``card``), ``draw`` (``cards``, empty to stand pat), ``wild``
(``position``), ``stack`` (``cards``, top first), ``declare`` (``side``),
``show`` (``cards``: shown by choice once the hand is over, R-C-11).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from rollem.cards import CARDS, Card, CardError, parse_card
from rollem.engine import actions as A
from rollem.engine.commit_reveal import CommittedSource, DealProof, picked_game
from rollem.engine.errors import EngineError, IllegalAction
from rollem.engine.events import Event, event_to_dict
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.randomness import RandomSource, ReplaySource, SecureSource
from rollem.engine.views import HandView, build_view
from rollem.narration.felt import FeltTalk, Scoring, hand_so_far, scoring_of
from rollem.server.own_pad import pad_view

if TYPE_CHECKING:
    from rollem.server.config import TableConfig
    from rollem.server.store import ActionRow

__all__ = [
    "ActionRefused",
    "Applied",
    "GameSession",
    "action_from_wire",
    "bot_decide",
    "games_for",
    "new_bot",
    "pick_bot_game",
    "seat_odds",
    "timeout_action",
]

BUILT_IN = ("sdr", "rollyourown", "rollem521")
"""Our three games: dealer's choice offers them unless the host picks others."""

ODDS_SAMPLES = 1000
"""Monte Carlo worlds a batch for a player's practice odds: batches are added until
every figure is within ±1.5 points (95%) or about a second of CPU is spent, unless
the odds are counted exactly (:func:`rollem.odds.play.play_odds`, issue 33)."""
ODDS_CPU_SECONDS = 1.0
"""CPU seconds a practice-odds request adds worlds for (issue 33), below the
worker's budget (:attr:`rollem.server.live_table.LiveTable.ODDS_BUDGET`, issue 34)."""
ODDS_PRELOAD = ("rollem.server.odds_preload",)
"""What the practice-odds workers' fork server imports once (issue 34,
:class:`rollem.server.budget_workers.BudgetWorkers`): :func:`warm_odds`."""

OFF_LOOP_EVALUATIONS = 1_500
"""A hand whose game's showdown needs more five-card hand evaluations than this
(:func:`rollem.games.cost.game_evaluations`: none of the shipped games, Omaha
hi-lo at 10 players needs 1,200) is played off the event loop: each action is
applied to a copy of the hand in the showdown thread (:meth:`GameSession.apply_to`),
and the hand is dealt there, and replayed there after a restore (s64-loop: the
showdown may come in the deal), so its showdown -- up to about ten milliseconds
for a new file (the bound of :mod:`rollem.games.cost`), seconds for a stored file
accepted before that bound (issue 34) -- never holds up the other tables
(:meth:`rollem.server.live_table.turns.Turns.off_loop`)."""


class ActionRefused(ValueError):
    """A wire action the hand refuses (``code``: ``malformed`` or ``illegal``); nothing changes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def available_games() -> list[str]:
    """The shipped games a table may play: our three, then the standard games
    (``rollem.games.shipped_ids``; CLI.md pins the ids)."""
    from rollem import games

    return games.shipped_ids()


def games_for(players: int, config: TableConfig | None = None) -> list[str]:
    """The dealer's choice games (R-C-12) that fit ``players`` dealt in: the host's
    ``config.choices`` (default our three), in that order."""
    from rollem import games
    from rollem.table import games_that_fit

    choices = list(config.choices) if config is not None else list(BUILT_IN)
    find = config.game_of if config is not None else games.get
    return [g.id for g in games_that_fit((find(gid) for gid in choices), players)]


def _setup_game(setup: dict[str, Any]) -> Any:
    """The game of a stored hand setup: the host's own game from the game file
    stored with the hand (``game_file``), else the shipped game's id."""
    text = setup.get("game_file")
    if text:
        from rollem.server.config import file_game

        return file_game(str(text), strict=False)  # stored: read as it was accepted
    return setup["game"]


def pick_bot_game(choices: list[str], proof: DealProof) -> str:
    """A computer player (or the clock) names a game uniformly at random (R-C-12,
    R-C-15): the pick among ``choices`` (offered, in order, and covered by the
    commitment) that the hand's hash (``proof``'s, with the client seeds in)
    and the dealer's pick salt give (issue 32:
    :func:`~rollem.engine.commit_reveal.picked_game`; the salt's hash is in the
    commitment, the salt in every copy after the deal), so that ``rollem
    verify`` checks it and no player, the last to send a seed included, could
    steer it."""
    return picked_game(proof.hand_hash(), choices, proof.pick_salt)


def secure_source() -> SecureSource:
    """The shuffles of a new hand: secure, every outcome recorded (R-C-13)."""
    return SecureSource()


def new_deal_proof(hand_no: int, prev_hash: bytes,
                   pick_games: list[str] | None = None,
                   seated: dict[int, str] | None = None) -> DealProof:
    """The secret deal key of hand ``hand_no``, chained to ``prev_hash`` (the
    table's last hand's hash), fixed before any client seed is taken (issue 32,
    :mod:`rollem.engine.commit_reveal`); ``pick_games``: the games offered when
    the game is to be picked at random after the seeds (:func:`pick_bot_game`);
    ``seated``: who the deal is for (seat -> name), which the commitment covers
    (a player's copies then show which hands they sat out, docs/verify.md)."""
    return DealProof.new(hand_no, prev_hash, pick_games or (), seated)


def committed_source(proof: DealProof) -> RandomSource:
    """The shuffles of a hand from its committed deck and the client seeds
    (issue 32): every outcome recorded, as any source's (R-C-13)."""
    return CommittedSource(proof)


def _card(text: object) -> Card:
    if not isinstance(text, str):
        raise ActionRefused("malformed", f"a card must be card text such as 'Qh', not {text!r}")
    try:
        return parse_card(text)
    except CardError as err:
        raise ActionRefused("malformed", str(err)) from None


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) > 10:
        raise ActionRefused("malformed", f"'cards' must be a list of card text, not {value!r}")
    return tuple(_card(v) for v in value)


def _chips(obj: dict[str, Any], *keys: str) -> int:
    given = [key for key in keys if key in obj]
    if len(given) > 1:  # the protocol refuses it first (ONE_OF); never take one silently
        raise ActionRefused("malformed",
                            f"give only one of {' or '.join(map(repr, keys))}, not both")
    for key in keys:
        if key in obj:
            value = obj[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                what = ("a pool position, a whole number >= 0 (0: the first card left)"
                        if key == "position" else "whole chips")
                raise ActionRefused("malformed", f"{key!r} must be {what}, not {value!r}")
            return value
    raise ActionRefused("malformed", f"missing {keys[0]!r}")


def action_from_wire(obj: dict[str, Any]) -> object:
    """The engine action for a wire object; raises :class:`ActionRefused` (``malformed``)."""
    kind = obj.get("kind")
    if kind == "fold":
        return A.Fold()
    if kind == "check":
        return A.Check()
    if kind == "call":
        return A.Call()
    if kind == "bet":
        return A.Bet(_chips(obj, "amount", "to"))
    if kind == "raise":
        return A.Raise(_chips(obj, "to", "amount"))
    if kind == "discard":
        return A.Discard(_cards(obj.get("cards")))
    if kind == "expose":
        return A.Expose(_card(obj.get("card")))
    if kind == "draw":
        return A.Draw(_cards(obj.get("cards", [])))
    if kind == "wild":
        return A.PickWild(_chips(obj, "position"))
    if kind == "stack":
        return A.Stack(_cards(obj.get("cards")))
    if kind == "show":
        return A.Show(_cards(obj.get("cards")))
    if kind == "declare":
        side = obj.get("side")
        if side not in ("high", "low", "both"):
            raise ActionRefused("malformed", f"'side' must be high, low or both, not {side!r}")
        return A.Declare(str(side))
    if kind == "run_twice":
        agree = obj.get("agree")
        if not isinstance(agree, bool):
            raise ActionRefused("malformed", f"'agree' must be true or false, not {agree!r}")
        return A.RunTwice(agree)
    raise ActionRefused(
        "unknown_action",
        f"unknown action {kind!r}; allowed: fold, check, call, bet, raise, discard, expose, "
        "draw, wild, stack, declare, run_twice, show",
    )


def action_to_wire(action: object) -> dict[str, Any]:
    """The wire object of an engine action (inverse of :func:`action_from_wire`)."""
    if isinstance(action, A.Fold):
        return {"kind": "fold"}
    if isinstance(action, A.Check):
        return {"kind": "check"}
    if isinstance(action, A.Call):
        return {"kind": "call"}
    if isinstance(action, A.Bet):
        return {"kind": "bet", "amount": action.amount}
    if isinstance(action, A.Raise):
        return {"kind": "raise", "to": action.to}
    if isinstance(action, A.Discard):
        return {"kind": "discard", "cards": [str(CARDS[c]) for c in action.cards]}
    if isinstance(action, A.Expose):
        return {"kind": "expose", "card": str(CARDS[action.card])}
    if isinstance(action, A.Draw):
        return {"kind": "draw", "cards": [str(CARDS[c]) for c in action.cards]}
    if isinstance(action, A.PickWild):
        return {"kind": "wild", "position": action.position}
    if isinstance(action, A.Stack):
        return {"kind": "stack", "cards": [str(CARDS[c]) for c in action.order]}
    if isinstance(action, A.Declare):
        return {"kind": "declare", "side": action.side}
    if isinstance(action, A.Show):
        return {"kind": "show", "cards": [str(CARDS[c]) for c in action.cards]}
    if isinstance(action, A.RunTwice):
        return {"kind": "run_twice", "agree": action.agree}
    raise ValueError(f"no wire form for {action!r}")


def timeout_action(hand: Hand, seat: int) -> object:
    """What the clock plays for ``seat`` (R-C-15).

    Check if possible, else fold; discard: the three lowest-ranked cards
    (ties: the later-dealt card); expose: the lowest-ranked down card (ties:
    the later-dealt); draw: stand pat; wild pick: the first remaining pool
    card; stacking: the cards in the places they were dealt to, a draw's
    replacement in the place of the card it replaced
    (:func:`rollem.engine.draw.held_in_places`; the order held puts the drawn
    cards last, and the roll-ups would tell which they were); declare: high;
    run it twice: no.
    """
    legal = hand.legal_actions(seat)
    acts = legal.actions
    dealt_order = {c: i for i, c in enumerate(hand.hole[seat])}

    def lowest(count: int) -> tuple[Card, ...]:
        ranked = sorted(legal.cards, key=lambda c: (CARDS[c].rank, -dealt_order.get(c, 0)))
        return tuple(ranked[:count])

    if "check" in acts:
        return A.Check()
    if "fold" in acts:
        return A.Fold()
    if "call" in acts:
        return A.Call()
    if "discard" in acts:
        return A.Discard(lowest(max(legal.min_count, 1)))
    if "expose" in acts:
        return A.Expose(lowest(1)[0])
    if "draw" in acts:
        return A.Draw(())
    if "wild" in acts:
        return A.PickWild(0)
    if "stack" in acts:
        # the places dealt to, not the order held (replacements after the kept
        # cards): a roll-up in that order would tell which cards were drawn
        from rollem.engine.draw import held_in_places

        return A.Stack(held_in_places(hand, seat))
    if "declare" in acts:
        return A.Declare("high" if "high" in legal.sides else legal.sides[0])
    if "run_twice" in acts:
        return A.RunTwice(False)  # (issue 27: the default is no)
    raise EngineError(f"seat {seat} has no decision to time out ({legal.kind})")


_RNG = random.SystemRandom()


def new_bot(level: str, rng: random.Random | None = None) -> Any:
    """A new computer player of ``level`` (:func:`rollem.bots.make_bot`; ``rng``:
    its own ``Random``, by default a fresh one), or ``None`` when the engine
    has no bot of that level (:func:`bot_decide` then plays a uniformly random
    legal action).

    Every computer player seat at every table has its own (see
    :meth:`rollem.server.live_table.LiveTable.computer_player`): a ``strong``
    bot learns its opponents by seat number and caches the hand it plays, so
    one object shared between seats or tables would mix different players
    and different hands.
    """
    from rollem.bots import make_bot

    try:
        return make_bot(level, rng)
    except KeyError:
        return None


def bot_decide(view: Any, bot: Any, game: Any = None) -> dict[str, Any]:
    """The computer player ``bot`` (from :func:`new_bot`, or ``None``: a
    uniformly random legal action) decides from ``view`` alone (wire form);
    ``game``: the hand's game (a table's own game file, which the odds cannot
    look up by id), given to bots that read it.

    Called from a worker thread, one call at a time for each table (see
    :class:`~rollem.server.fair_executor.FairExecutor`): a bot keeps its own
    state (its reads of the opponents, its cached worlds), so each bot object
    must belong to one seat at one table.
    """
    if bot is None:
        legal = view.legal.to_dict() if view.legal is not None else {}
        return random_wire_action(legal, _RNG)
    if hasattr(bot, "game"):
        bot.game = game
    return action_to_wire(bot.act(view))


def warm_up() -> float:
    """Load and exercise, once, what the first hands would otherwise load on the
    event loop: the engine, every available game, the computer players of every
    level and their hand tables, views and narration.  ``rollem serve`` calls it
    before serving, so the first deal does not stall every table for a second or
    more (bench/bench_web_load.py).  Returns the seconds it took."""
    import time

    from rollem.server.config import BOT_LEVELS

    start = time.perf_counter()
    rng = random.Random(0)
    for level in BOT_LEVELS:
        new_bot(level)  # (imports each level's modules; every seat makes its own bot)
    for game in available_games():
        from rollem import games

        players = games.get(game).min_players
        options = Options()
        hand = Hand(game, [200] * players, button=0, options=options, source=SecureSource())
        session = GameSession(0, {"game": game, "seats": list(range(players))}, hand)
        while not hand.is_over:
            seat = hand.pending.seats[0] if hand.pending is not None else 0
            legal = session.view(seat)["legal"]
            session.apply(seat, random_wire_action(legal, rng))
        for seat in range(players):
            session.view_json(seat, [f"seat {n}" for n in range(players)])
    # Hand values with wild cards use tables built on their first use (R-RYO-9;
    # 30-50 ms each way): a random hand above rarely reaches a wild showdown,
    # and the first one at a table stalled every table (issue 13).
    from rollem.hands.wild import wild_value

    for duplicates in (False, True):
        wild_value([0, 4, 8, 12, 17], [0], wild_duplicates=duplicates)
    return time.perf_counter() - start


def random_wire_action(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal wire action from a view's ``legal`` (JSON form).

    Used when the engine has no bot of the level asked for, and by load tests
    that play through websockets with only what a client sees.
    """
    acts = list(legal.get("actions", []))
    if not acts:
        raise EngineError("no legal action to choose from")
    kind = rng.choice(acts)
    cards = list(legal.get("cards", []))
    if kind in ("bet", "raise"):
        low, high = int(legal["min_to"]), int(legal["max_to"])
        amount = rng.choice([low, high, rng.randint(low, high)]) if high > low else low
        return {"kind": kind, "amount" if kind == "bet" else "to": amount}
    if kind in ("discard", "draw"):
        count = rng.randint(int(legal.get("min_count", 0)), int(legal.get("max_count", 0)))
        return {"kind": kind, "cards": rng.sample(cards, count)}
    if kind == "expose":
        return {"kind": kind, "card": rng.choice(cards)}
    if kind == "stack":
        order = cards[:]
        rng.shuffle(order)
        return {"kind": kind, "cards": order}
    if kind == "wild":
        return {"kind": kind, "position": rng.randrange(int(legal.get("positions", 1)))}
    if kind == "declare":
        return {"kind": kind, "side": rng.choice(list(legal.get("sides", ["high"])))}
    if kind == "run_twice":
        return {"kind": kind, "agree": rng.random() < 0.5}
    return {"kind": kind}


def seat_odds(view: Any, samples: int = ODDS_SAMPLES, game: Any = None,
              cpu_seconds: float = ODDS_CPU_SECONDS,
              straying: float | None = None) -> dict[str, Any]:
    """A seat's practice odds (issue 8) from its own view alone, JSON form;
    the web table runs it in a worker process under a budget (issue 34).

    ``view`` is :meth:`GameSession.odds_view` (``Hand.view(seat)``), never the
    hand: :func:`rollem.odds.view_equity` sees only what that seat sees.
    Returns :meth:`rollem.odds.Odds.to_dict` (probabilities 0..1), with
    ``advice`` (every option of the seat's card choice now, issue 16) and
    ``text`` (the lines to show, :mod:`rollem.odds.display`).  Raises
    :class:`rollem.odds.OddsError` when the view has no odds (a spectator's
    view).  ``game``: the hand's game (a table's own game file is not in the
    ``rollem.games`` registry), or its game file's text (a ``str``: what
    travels to a worker process, read here as accepted, once per file).  Runs
    off the event loop: exact, or batches of ``samples`` worlds until ±1.5
    points (95%) or ``cpu_seconds`` of this thread's CPU
    (:func:`rollem.odds.play.play_odds`; ``interval`` in the answer, issue 33).
    ``straying``: play's (:func:`rollem.odds.straying.for_bots` of the other
    seats' computer levels: 1.0 where all are the table's ``random`` players,
    whose card choices then say nothing; issue 33, branch s67-rough).
    """
    from rollem.odds.display import play_lines
    from rollem.odds.play import play_odds

    if isinstance(game, str):
        game = _game_file(game)
    odds = play_odds(view, batch=samples, game=game, cpu_seconds=cpu_seconds,
                     straying=straying)
    return {**odds.to_dict(), "text": "\n".join(play_lines(odds, width=None))}


@functools.lru_cache(maxsize=8)
def _game_file(text: str) -> Any:
    """The game of a table's game file (checked when the table was created)."""
    from rollem.games.gamefile import load_game

    return load_game(text, strict=False)


WARM_WORLDS = 20
"""Worlds per game in :func:`warm_odds`: enough to build every table."""


def warm_odds() -> None:
    """Compute one batch of :data:`WARM_WORLDS` sampled worlds, with advice, in
    every shipped game, once: the first odds in a process build tables (hand
    values, wild cards, the look-ahead's proposals) that cost up to half a
    second.  The practice-odds workers' fork server runs it
    (:data:`ODDS_PRELOAD`), so each worker -- a new one after one was killed at
    its budget -- starts with them built.

    One sampled batch, not :func:`seat_odds`: those run batches to the CPU
    budget or enumerate exactly (seconds in all 11 games, while the first odds
    after a server start waited for it, issue 34); the tables are the same."""
    from rollem import games
    from rollem.odds.view import view_equity

    for game in available_games():
        players = games.get(game).min_players
        hand = Hand(game, [200] * players, button=0, source=SecureSource())
        view_equity(hand.view(0), samples=WARM_WORLDS, advice=True, exact_limit=0, seed=1)
    from rollem.hands.wild import wild_value

    for duplicates in (False, True):
        wild_value([0, 4, 8, 12, 17], [0], wild_duplicates=duplicates)


def result_lines(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The result of a finished hand's view (JSON form) in players' words, as its
    viewer may know it (:func:`rollem.narration.result_for_view`): dicts ``text``,
    ``kind``, ``seat``, ``mine``."""
    from rollem.narration import result_for_view

    return [line.to_dict() for line in result_for_view(view, names)]


def _plain(value: Any) -> Any:
    """``value`` in JSON's types (cards as their numbers, unknown objects as text).

    A module function, not a closure of :func:`_event_json`: a recursive closure
    is a reference cycle (function, cell), garbage for the cyclic collector at
    every event (99% of its work in the load benchmark, issue 13)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value if not isinstance(value, Card) else int(value)
    return str(value)


def _event_json(event: Event) -> dict[str, Any]:
    return {
        "kind": event.kind,
        "seat": event.seat,
        "data": _plain(event.data),
        "to": sorted(event.to) if event.to is not None else None,
        "public": _plain(event.public) if event.public is not None else None,
    }


def _outcomes_json(outcomes: list[tuple[str, tuple[Card, ...]]]) -> list[list[Any]]:
    return [[label, [int(c) for c in order]] for label, order in outcomes]


class _ResumeSource(ReplaySource):
    """Replays the recorded outcomes, then shuffles securely (R-C-13) for the rest of
    a hand rebuilt after a restart (a reshuffle or pool shuffle still to come)."""

    def __init__(self, recorded: list[tuple[str, list[int]]]) -> None:
        super().__init__(recorded)
        self._fresh = SecureSource()

    def _shuffle(self, label: str, cards: Sequence[int]) -> list[Card]:
        if self.unused > 0:
            return super()._shuffle(label, cards)
        return self._fresh._shuffle(label, cards)


@dataclass(slots=True)
class Applied:
    """One applied action, ready to store: its index in the hand, its wire
    form, and what it caused (events and new random outcomes, JSON)."""

    index: int
    record: dict[str, Any]
    events: dict[str, Any]


def player_names(setup: dict[str, Any], current: list[str]) -> list[str]:
    """One name per seat for the hand of ``setup``: the names of the players it was
    dealt to (a seat taken since by someone else keeps the old player's name);
    ``current`` (the table's names now) only for hands stored before names were kept."""
    stored = setup.get("names")
    return list(stored) if stored is not None else current


@functools.lru_cache(maxsize=4096)
def _shown_words(cards: tuple[str, ...], wild: tuple[Any, ...], duplicates: bool,
                 natural: bool) -> str | None:
    """A shown hand's words with what each wild card plays as
    (:func:`rollem.narration.hands.hand_words`), kept: every seat's view at every
    state after the hand's end asks for the same few (``None``: not a hand)."""
    from rollem.narration.hands import hand_words

    try:
        return hand_words(cards, wild_ranks=wild, wild_duplicates=duplicates,
                          natural_beats_wild=natural)
    except ValueError:
        return None


class GameSession:
    """One hand at the web table (see the module docstring)."""

    def __init__(self, hand_no: int, setup: dict[str, Any], hand: Hand) -> None:
        self.hand_no = hand_no
        self.setup = setup
        self.hand = hand
        self.game: str = setup["game"]
        self.seats: list[int] = list(setup["seats"])
        # view_json's caches, per viewer: (events read, their JSON) and
        # (hand version, names, the view's JSON text).
        self._events_json: dict[int | None, tuple[int, list[bytes]]] = {}
        self._view_json: dict[int | None, tuple[tuple[int, int], object, str]] = {}
        self._base_view: tuple[tuple[int, int], HandView] | None = None
        # Per viewer and names: the felt's words (the log, each seat's last
        # action), fed each event once; and the viewer's hand name, per cards seen.
        self._talk: dict[tuple[int | None, tuple[str, ...]], FeltTalk] = {}
        self._hand_name: dict[int, tuple[object, str | None]] = {}  # seat -> (cards seen, name)
        self._scoring: Scoring | None = None
        self._more: tuple[int, bool] | None = None  # (step index, cards still to come)

    # -- building ---------------------------------------------------------

    @staticmethod
    def options_for(config: TableConfig) -> Options:
        return Options(
            structure=config.structure,
            ante=config.ante,
            small_bet=config.small_bet,
            big_bet=config.big_bet,
            cap_heads_up=bool(config.house.get("cap_heads_up", True)),
            straddle_rule=config.straddle,
            run_twice=config.run_twice,
            house={k: v for k, v in config.house.items() if k != "cap_heads_up"},
        )

    @classmethod
    def new(
        cls,
        hand_no: int,
        game: str,
        config: TableConfig,
        players: list[int],
        stacks: dict[int, int],
        button: int,
        *,
        carried: int = 0,
        names: list[str] | None = None,
    ) -> GameSession:
        """Deal a new hand with a secure shuffle (R-C-13); ``stacks`` per dealt-in seat;
        ``names`` (one per seat) are the players' names as dealt, kept with the hand;
        ``button``: the button's seat (or the next one dealt in, R-C-12).  Dealt by a
        :class:`rollem.table.Table` of those seats, as the live table deals."""
        from rollem.table import Table

        options = cls.options_for(config)
        table = Table([stacks.get(s, 0) for s in range(config.seats)],
                      game=config.game_of(game), options=options, button=button,
                      out=set(range(config.seats)) - set(players), carry=carried)
        source = secure_source()
        deal = table.next_deal()
        hand = table.deal(deal, deal.games[0] if deal.games else config.game_of(game),
                          source=source)
        return cls.of_hand(hand_no, hand, list(deal.players), source, options, names=names)

    @classmethod
    def of_hand(cls, hand_no: int, hand: Hand, players: list[int], source: RandomSource,
                options: Options, *, names: list[str] | None = None,
                level: dict[str, Any] | None = None) -> GameSession:
        """The web table's hand number ``hand_no`` for ``hand``, just dealt to the seats
        ``players`` with ``options`` (:meth:`options_for`) and the shuffles of ``source``
        (a :func:`secure_source`, whose outcomes are stored with it so that it replays
        exactly: R-C-13); ``names`` (one per seat) are the players' names as dealt,
        kept with the hand."""
        the_game = hand.game
        setup: dict[str, Any] = {
            "game": the_game.id,
            "seats": players,
            "stacks": list(hand.start_stacks),
            "button": hand.button,
            "options": options.to_dict(),
            "carry_in": hand.carry_in,
            "outcomes": _outcomes_json(source.outcomes),
        }
        if source.proof is not None:  # a committed deck (issue 32): the dealer's own record
            setup["proof"] = source.proof.to_json()
        if names is not None:
            setup["names"] = list(names)
        if level is not None:
            setup["tournament"] = dict(level)
        from rollem import games

        if not games.is_shipped(the_game):  # the host's own game: kept with the hand
            setup["game_file"] = the_game.source
        return cls(hand_no, setup, hand)

    def player_names(self, current: list[str]) -> list[str]:
        """One name per seat for this hand: :func:`player_names` of its setup."""
        return player_names(self.setup, current)

    @staticmethod
    def costly_game(game: Any) -> bool:
        """Whether ``game`` (a :class:`~rollem.engine.game.Game`, or a shipped game's
        id) has a costly showdown: over :data:`OFF_LOOP_EVALUATIONS` evaluations
        (:func:`rollem.games.cost.game_evaluations`; a host's game file only).  Its
        hands are dealt, changed and replayed off the event loop (:attr:`off_loop`;
        the showdown may come in the deal: a file with no betting round, or every
        player all in from the antes)."""
        from rollem.games.cost import game_evaluations

        return not isinstance(game, str) and game_evaluations(game) > OFF_LOOP_EVALUATIONS

    @staticmethod
    def costly_setup(setup: dict[str, Any]) -> bool:
        """Whether the hand of ``setup`` is of a game whose showdown is costly
        (:meth:`costly_game`)."""
        return GameSession.costly_game(_setup_game(setup))

    @classmethod
    def restore(cls, hand_no: int, setup: dict[str, Any], actions: list[ActionRow]) -> GameSession:
        """Rebuild a hand from its setup and stored actions, replaying recorded
        outcomes; a hand dealt from a committed deck (``setup["proof"]``, issue
        32) is dealt again from it, so its later shuffles after a restart come
        from the same committed stream and its copies carry the same proof."""
        source: RandomSource
        if "proof" in setup:  # a committed deck deals the same again, and on (issue 32)
            source = CommittedSource(DealProof.from_json(setup["proof"]))
        else:
            outcomes: list[tuple[str, list[int]]] = [(o[0], o[1]) for o in setup["outcomes"]]
            for row in actions:
                outcomes.extend((o[0], o[1]) for o in row.events.get("outcomes", []))
            source = _ResumeSource(outcomes)
        hand = Hand(
            _setup_game(setup), list(setup["stacks"]), button=int(setup["button"]),
            options=Options.from_dict(setup["options"]), source=source,
            carry_in=int(setup.get("carry_in", 0)),
        )  # fmt: skip
        session = cls(hand_no, setup, hand)
        for row in actions:
            hand.apply(row.seat, action_from_wire(row.action))
        return session

    # -- state --------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.hand.is_over

    def pending_seats(self) -> list[int]:
        p = self.hand.pending
        return list(p.seats) if p is not None else []

    def decision_key(self) -> object:
        """Same value while one decision is open (an all-at-once one stays open
        while its seats choose one by one)."""
        p = self.hand.pending
        if p is None:
            return None
        if p.simultaneous:
            return (self.hand.step_index, p.kind, "all")
        return (self.hand.step_index, p.kind, len(self.hand.actions))

    def view(self, seat: int | None, names: list[str] | None = None) -> dict[str, Any]:
        """``Hand.view(seat)`` as JSON, plus the hand number and game (and at a
        tournament ``level``, 1-based, the level it was dealt at), the felt's
        words (:meth:`_add_felt`: ``hand_name``, ``log``, ``last_actions``) and, once
        the hand is over and ``names`` (one per seat) are given, ``narration``: the
        result in players' words as ``seat`` may know it (:func:`result_lines`)."""
        data = self.hand.view(seat).to_dict()
        self._add_meta(data)
        if names is not None:
            # the names of the players dealt in, as dealt (``None`` for a seat not
            # dealt in): the felt names a seat by them once its player has gone
            dealt_in = set(self.setup["seats"])
            data["names"] = [name if n in dealt_in else None for n, name in enumerate(names)]
        if names is not None and data.get("result") is not None:
            data["narration"] = result_lines(data, names)
        self._add_felt(data, seat, names)
        self._shown_wilds(data)
        return data

    def _add_meta(self, data: dict[str, Any]) -> None:
        """The hand number, game and committed deal (:meth:`public_deal`) into a
        view's ``data``, and at a tournament ``level`` (1-based): the level the hand
        was dealt at, whose stakes it keeps when the clock raises the level during
        it (the page says so, stop 56)."""
        data["hand_no"] = self.hand_no
        data["game"] = self.game
        data["deal"] = self.public_deal()
        level = (self.setup.get("tournament") or {}).get("level")
        if level is not None:
            data["level"] = int(level)

    def _shown_wilds(self, data: dict[str, Any]) -> None:
        """Each shown hand's words in a wild-card game with what each wild card plays
        as, the narration's words (``"queens full of eights (wild 2d plays as Qh)"``,
        :func:`rollem.narration.hands.hand_words`), as the result's lines and your
        hand's name say them (issue 26: the shown hands said "queens full of eights"
        under a line saying the wild card's part).  ``data["result"]`` is replaced,
        never changed (it may be shared); a description the words do not start with
        (a high-low one) is kept."""
        result = data.get("result")
        wild = data.get("wild_ranks")
        if not result or not wild or not result.get("shown_cards"):
            return
        opts = self.hand.options.to_dict()
        duplicates = bool(opts.get("wild_duplicates", False))
        natural = bool(opts.get("natural_beats_wild", False))
        shown = dict(result.get("shown") or {})
        for s, cards in result["shown_cards"].items():
            said = shown.get(s)
            if not said or not cards:
                continue
            words = _shown_words(tuple(cards), tuple(wild), duplicates, natural)
            if words and words != said and words.startswith(said + " ("):
                shown[s] = words
        data["result"] = {**result, "shown": shown}

    def public_deal(self) -> dict[str, Any] | None:
        """What every player may know of a committed deck's hand (issue 32):
        ``commitment``, ``prev_hash``, ``client_seeds`` (seat as text -> seed),
        ``hand_hash`` (hex, as the history writes them), and ``pick_games``
        (the games offered) and ``pick_salt`` (the pick's salt, revealed with
        the deal: a hand is dealt once the seeds are in) when the game was
        picked at random; never the key.
        ``None`` for a hand dealt otherwise."""
        proof = self.hand.source.proof
        if proof is None:
            return None
        fields = proof.public_fields()
        pick = {k[1:]: fields[k] for k in ("_pick_games", "_pick_salt") if k in fields}
        return {"commitment": fields["_commitment"], "prev_hash": fields["_prev_hash"],
                "client_seeds": fields["_client_seeds"], "hand_hash": fields["_hand_hash"],
                **pick}

    def view_json(self, seat: int | None, names: list[str] | None = None) -> str:
        """:meth:`view` as compact JSON text (``events`` last), built once per change
        of the hand: the same text is returned until an action changes the hand.
        Each event is turned into ``seat``'s form and serialised once (the event
        log only grows), so a state costs the same early and late in a hand.
        A seat's text (``seat`` not ``None``) ends in spaces before its closing brace,
        to a length that follows only the watcher's text of the same moment
        (:func:`rollem.server.own_pad.pad_view`: sizes tell nothing of its cards)."""
        hand = self.hand
        version = (len(hand.actions), len(hand.events))
        key = tuple(names) if names is not None else None
        cached = self._view_json.get(seat)
        if cached is not None and cached[0] == version and cached[1] == key:
            return cached[2]
        base = self._base_view
        if base is None or base[0] != version:
            # What a spectator sees: every viewer shares it but for its own seat.
            base = self._base_view = (version, build_view(hand, None, events=False))
        data = build_view(hand, seat, events=False, base=base[1]).to_dict()
        del data["events"]
        self._add_meta(data)
        if names is not None:
            # the names of the players dealt in, as dealt (``None`` for a seat not
            # dealt in): the felt names a seat by them once its player has gone
            dealt_in = set(self.setup["seats"])
            data["names"] = [name if n in dealt_in else None for n, name in enumerate(names)]
        if names is not None and data.get("result") is not None:
            data["narration"] = result_lines(
                {**data, "events": self._event_dicts(seat)}, names)
        log = self._add_felt(data, seat, names, log_json=True)
        self._shown_wilds(data)
        done, parts = self._events_json.get(seat, (0, []))
        for event in hand.events[done:]:
            shown = event_to_dict(event, seat)
            if shown is not None:
                parts.append(orjson.dumps(shown, option=orjson.OPT_NON_STR_KEYS))
        self._events_json[seat] = (len(hand.events), parts)
        body = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
        text = (body[:-1] + b',"log":[' + log + b'],"events":[' + b",".join(parts)
                + b"]}").decode()
        if seat is not None:
            # its length a function of public things only (own_pad: TLS hides content,
            # not length; "ace high" is two bytes shorter than "queen high")
            text = pad_view(text, self.view_json(None, names))
        self._view_json[seat] = (version, key, text)
        return text

    def _add_felt(self, data: dict[str, Any], seat: int | None, names: list[str] | None,
                  *, log_json: bool = False) -> bytes:
        """Add the felt's words (issue 26) to ``data``, ``seat``'s view (JSON form):

        - ``hand_name``: the viewer's own hand so far in words, as ``rollem eval``
          names the same cards (:func:`rollem.narration.felt.hand_so_far`); ``None``
          for a watcher, before any card, or once the viewer has folded (R-C-11);
        - ``log``: the hand so far in players' words (:class:`rollem.narration.felt.FeltTalk`,
          the narration ``rollem replay`` tells), newest last: ``{"seat", "text", "kind"}``;
          once the hand is over its result lines (``narration``) end it;
        - ``last_actions``: each seat's latest action this hand, by seat number as
          text: ``{"kind": "raise", "text": "raises to 9"}``;
        - ``by_choice_words`` (only once a seat has shown its whole hand by choice
          after the end, R-C-11): its hand's name by seat number as text, the
          narration's words (stop 53).

        Built from ``seat``'s own events only: nothing the viewer may not see.
        ``log_json``: leave ``log`` out of ``data`` and return it as JSON array
        items instead (each line serialised once, for :meth:`view_json`)."""
        talk = self._felt(seat, names)
        log = b""
        if log_json:
            log = talk.log_json(data.get("narration") or ())
        else:
            data["log"] = talk.log(data.get("narration") or ())
        data["last_actions"] = talk.last_actions_json()
        if talk.narrator.by_choice_words:  # (a hand shown whole by choice: its name)
            data["by_choice_words"] = {str(s): w for s, w in
                                       sorted(talk.narrator.by_choice_words.items())}
        name = None
        # (a folded hand is dead, R-C-11: not named against the board dealt after it,
        # where "pair of nines" under the folded cards read as a hand still in play)
        if (seat is not None and 0 <= seat < len(data["seats"])
                and not data["seats"][seat].get("folded")):
            cards, board = data["seats"][seat]["cards"], data["board"]
            # (cards the viewer chose to throw, the others still choosing: theirs no
            # more -- "pair of eights" of six cards, one eight thrown, s74-night)
            thrown = self._thrown_pending(seat)
            if thrown:
                cards = [c for c in cards if c not in thrown]
            declared = talk.narrator.declarations.get(seat) or talk.declared  # own, unrevealed
            more = self._more_to_come()
            seen = (tuple(cards), tuple(board), tuple(data["wild_ranks"]), declared, more)
            known = self._hand_name.get(seat)
            if known is not None and known[0] == seen:  # named once per change of cards
                name = known[1]
            else:
                if self._scoring is None:
                    self._scoring = scoring_of(self.hand.steps)
                try:
                    name = hand_so_far(cards, board, scoring=self._scoring,
                                       wild_ranks=data["wild_ranks"], options=data["options"],
                                       declared=declared, more_to_come=more)
                except ValueError:  # a hand these words cannot name (a game's own rule)
                    name = None
                self._hand_name[seat] = (seen, name)
        data["hand_name"] = name
        return log

    def _thrown_pending(self, seat: int) -> set[str]:
        """The cards (text, ``"8d"``) ``seat`` chose to throw in the all-at-once
        discard in play (Roll Your Own's into the pool; a game file's out of play,
        as Crazy Pineapple's), its choice made
        while others still choose: not yet gone from its hand, but no longer part
        of it.  Empty otherwise."""
        from rollem.engine.simultaneous import AllAtOnceStep

        hand = self.hand
        pending = hand.pending
        if (pending is None or not pending.simultaneous or seat in pending.seats
                or hand.step_index >= len(hand.steps)):
            return set()
        step = hand.steps[hand.step_index]
        choice = step.choices.get(seat) if isinstance(step, AllAtOnceStep) else None
        if not isinstance(choice, A.Discard):
            return set()
        return {str(c) for c in choice.cards}

    def _more_to_come(self) -> bool:
        """Whether a step still to play deals cards (to the seats, the board, or by a
        draw): a hand name may then tell a draw."""
        from rollem.engine.draw import DrawFromStub
        from rollem.engine.pool import DrawFromPool
        from rollem.engine.steps import DealBoard, DealHole

        hand = self.hand
        if hand.is_over:
            return False
        at = hand.step_index
        known = self._more
        if known is None or known[0] != at:
            more = any(isinstance(step, DealHole | DealBoard | DrawFromPool | DrawFromStub)
                       for step in hand.steps[at:])
            known = self._more = (at, more)
        return known[1]

    def _felt(self, seat: int | None, names: list[str] | None) -> FeltTalk:
        """``seat``'s :class:`FeltTalk`, fed every event so far (each once)."""
        key = tuple(names) if names is not None else ()
        talk = self._talk.get((seat, key))
        if talk is None:
            talk = FeltTalk(list(key), seat, options=self.hand.options.to_dict(),
                            carry_in=self.hand.carry_in, game=self.game)
            self._talk[(seat, key)] = talk
        events = self.hand.events
        for event in events[talk.events:]:
            shown = event_to_dict(event, seat)
            if shown is not None:
                talk.feed(shown)
        talk.events = len(events)
        return talk

    def _event_dicts(self, seat: int | None) -> list[dict[str, Any]]:
        return [d for d in (event_to_dict(e, seat) for e in self.hand.events) if d is not None]

    # -- acting ---------------------------------------------------------------

    def apply(self, seat: int, wire: dict[str, Any]) -> Applied:
        """Apply a wire action; raises :class:`ActionRefused` and changes nothing if refused."""
        action = action_from_wire(wire)
        return self.apply_action(seat, action)

    def apply_action(self, seat: int, action: object) -> Applied:
        return self.apply_to(self.hand, seat, action)

    @property
    def off_loop(self) -> bool:
        """Whether this hand's actions are applied off the event loop: its game's
        showdown needs more than :data:`OFF_LOOP_EVALUATIONS` evaluations
        (:meth:`costly_game`)."""
        return self.costly_game(self.hand.game)

    def hand_copy(self) -> Hand:
        """A copy of the hand that shares nothing an action changes (the game is
        shared), for :meth:`apply_to` in a worker while the event loop goes on
        reading this one."""
        import copy

        hand = self.hand
        return copy.deepcopy(hand, {id(hand.game): hand.game})

    def adopt(self, hand: Hand) -> None:
        """Make ``hand`` (a :meth:`hand_copy` that :meth:`apply_to` changed) this
        session's hand; the views are built anew."""
        self.hand = hand
        self._events_json.clear()
        self._view_json.clear()
        self._base_view = None

    @staticmethod
    def apply_to(hand: Hand, seat: int, action: object) -> Applied:
        """Apply ``action`` by ``seat`` to ``hand`` (this session's or a copy);
        raises :class:`ActionRefused` and changes nothing if refused."""
        before = len(hand.source.outcomes)
        index = len(hand.actions)
        try:
            events = hand.apply(seat, action)
        except IllegalAction as err:
            raise ActionRefused("illegal", str(err)) from None
        except (CardError, EngineError) as err:
            raise ActionRefused("illegal", str(err)) from None
        return Applied(
            index=index,
            record=action_to_wire(action),
            events={
                "events": [_event_json(e) for e in events],
                "outcomes": _outcomes_json(hand.source.outcomes[before:]),
            },
        )

    def timeout_action(self, seat: int) -> dict[str, Any]:
        return action_to_wire(timeout_action(self.hand, seat))

    def bot_view(self, seat: int) -> Any:
        """The seat's view (a snapshot: plain data, safe to read in another thread)."""
        return self.hand.view(seat)

    def odds_refusal(self, seat: int) -> tuple[str, str] | None:
        """Why ``seat`` cannot have practice odds now (``(code, message)``), or ``None``."""
        hand = self.hand
        if not 0 <= seat < len(hand.dealt) or not hand.dealt[seat]:
            return ("not_dealt", f"seat {seat} is not dealt into hand {self.hand_no}")
        if hand.folded[seat]:
            return ("folded", "you have folded this hand: no odds to show")
        if hand.is_over:
            return ("no_hand", f"hand {self.hand_no} is over")
        return self.no_odds()

    def no_odds(self) -> tuple[str, str] | None:
        """``("no_odds", why)`` when this hand's game has no odds at all (a game file
        with a declare showdown at a table stored before such tables were refused
        practice odds, issue 34), else ``None``."""
        from rollem.odds import no_odds_reason

        reason = no_odds_reason(self.hand.game)
        return None if reason is None else ("no_odds", f"no practice odds in this game: {reason}")

    def odds_view(self, seat: int) -> Any:
        """The seat's own view for its practice odds (a snapshot, safe in another thread)."""
        return self.hand.view(seat)

    # -- the end ----------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        outcome = self.hand.result
        assert outcome is not None
        return outcome.to_dict()

    def final_stacks(self) -> dict[int, int]:
        return {s: self.hand.stacks[s] for s in self.seats}

    def frames(self, seat: int | None, names: list[str] | None = None) -> list[dict[str, Any]]:
        """The hand step by step as ``seat`` saw it: the view after 0, 1, ... actions.

        This is the seat's redaction (DESIGN.md): what it saw, plus what was
        shown at the showdown in the last frame.
        """
        replay = self._replay_hand()
        frames = [self._frame(replay, seat, None)]
        for actor, action in self.hand.actions:
            replay.apply(actor, action)
            frames.append(self._frame(replay, seat, (actor, action)))
        if names is not None:  # (each frame from the end on: cards shown by choice after)
            for frame in frames:
                if frame.get("result") is not None:
                    frame["narration"] = result_lines(frame, names)
        return frames

    def replay(self, seat: int | None, names: list[str] | None = None, *,
               pause: Callable[[], object] | None = None) -> dict[str, Any]:
        """:meth:`frames` in the web replayer's lean form: ``{"events": [...],
        "frames": [...]}``.  ``events`` is ``seat``'s whole event log; each frame
        is the view of :meth:`frames` without its copy of the log, holding
        instead ``events_n``: the log so far is the first ``events_n`` of
        ``events`` (the log only grows).  A long 10-player hand's replay is a
        quarter of the size, and built in a fraction of the time.  ``pause`` is
        called after each frame (a worker thread's ``time.sleep(0)``: it lets the
        event loop's thread have the GIL at once, not after a switch interval)."""
        replay = self._replay_hand()
        events: list[dict[str, Any]] = []
        done = 0

        def frame(last: tuple[int, object] | None) -> dict[str, Any]:
            nonlocal done
            for event in replay.events[done:]:
                shown = event_to_dict(event, seat)
                if shown is not None:
                    events.append(shown)
            done = len(replay.events)
            data = self._frame(replay, seat, last, with_events=False)
            data["events_n"] = len(events)
            return data

        frames = [frame(None)]
        for actor, action in self.hand.actions:
            replay.apply(actor, action)
            frames.append(frame((actor, action)))
            if pause is not None:
                pause()
        if names is not None:
            # the result in words at each frame from the hand's end on (the result's
            # own step, then any cards shown by choice after it: stop 56, the result
            # step of a hand with a show after it fell back to the bare pots)
            for ended in frames:
                if ended.get("result") is not None:
                    ended["narration"] = result_lines(
                        {**ended, "events": events[:ended["events_n"]]}, names)
        return {"events": events, "frames": frames}

    def runout_stages(self) -> list[GameSession]:
        """The hand at each round of an all-in run-out (s61-table2), for pacing it:
        when the action that ended this hand (over) was followed, with no decision
        left, by steps dealing face-up cards (the board, a stud street's up card),
        the hand just after that action and after each such step, before the
        showdown; ``[]`` when no face-up card came after the last action (a fold, a
        call on the river).  Each is a :class:`GameSession` of a replay of this
        hand's own cards stopped there: its views hold only what had been dealt
        face up by then (a card dealt face down stays each holder's own; no hand is
        shown early).  The recorded hand, its replay and history are unchanged.

        Raises:
            ValueError: the hand is not over."""
        import copy

        hand = self.hand
        if not hand.is_over:
            raise ValueError(f"hand {self.hand_no} is not over: only a finished hand runs out")
        if not hand.actions or not any(e.kind in ("deal_up", "board", "dead") for e in
                                       hand.events[hand.action_marks[-1]:]):
            return []
        replay = self._replay_hand()
        for actor, action in hand.actions[:-1]:
            replay.apply(actor, action)
        stages: list[Hand] = []

        def public(h: Hand) -> int:
            return len(h.board) + len(h.dead) + sum(sum(up) for up in h.up)

        def snapshot() -> None:
            snap = copy.deepcopy(replay, {id(replay.game): replay.game})
            snap.source = hand.source  # (the committed deck's public part: public_deal)
            stages.append(snap)

        def stepping() -> None:  # Hand._advance, a snapshot at each round of face-up cards
            from rollem.engine.draw import DrawFromStub
            from rollem.engine.pool import DrawFromPool
            from rollem.engine.steps import DealBoard, DealHole

            snapshot()
            steps = replay.steps
            while replay.pending is None and replay.result is None:
                if replay.step_index >= len(steps) or not any(
                        isinstance(step, DealHole | DealBoard | DrawFromPool | DrawFromStub)
                        for step in steps[replay.step_index:]):
                    return  # (no card left to come: the showdown is the real hand's)
                if replay.options.run_twice:
                    from rollem.engine.runtwice import maybe_offer

                    maybe_offer(replay)
                seen = public(replay)
                p = steps[replay.step_index].start(replay)
                if p is not None:
                    return  # a decision after all: not a run-out past here
                replay.step_index += 1
                if public(replay) > seen and replay.result is None:
                    snapshot()

        replay._advance = stepping  # type: ignore[method-assign]
        last_seat, last_action = hand.actions[-1]
        replay.apply(last_seat, last_action)
        if len(stages) < 2:
            return []
        return [GameSession(self.hand_no, self.setup, h) for h in stages]

    def _replay_hand(self) -> Hand:
        """A fresh hand of this setup dealing this hand's cards (its recorded
        random outcomes), before any action: for replaying it step by step."""
        setup = self.setup
        outcomes = [(label, [int(c) for c in order]) for label, order in self.hand.source.outcomes]
        return Hand(
            _setup_game(setup), list(setup["stacks"]), button=int(setup["button"]),
            options=Options.from_dict(setup["options"]), source=ReplaySource(outcomes),
            carry_in=int(setup.get("carry_in", 0)),
        )  # fmt: skip

    def history_text(self, seat: int, names: list[str],
                     sat_out: list[dict[str, Any]] | None = None) -> str:
        """``seat``'s copy of the hand history (TOML, PHH-like; ``rollem.history.redact``):
        what it saw plus what was shown at the showdown; a committed deck's
        public fields, and once the hand is over the openings of exactly the
        cards ``seat`` saw (never the key; issue 32, docs/verify.md); ``sat_out``
        (:func:`rollem.server.sat_out.sat_out_records`): the records of the hands
        that player sat out since their previous hand, as ``_sat_out``."""
        from rollem.history import write_own_copy

        text = write_own_copy(self.hand, seat, players=names,
                              tournament=self.setup.get("tournament"))
        if sat_out is None or not self.over:
            return text
        import tomllib

        import tomli_w

        return tomli_w.dumps({**tomllib.loads(text), "_sat_out": sat_out})

    def _frame(
        self, hand: Hand, seat: int | None, last: tuple[int, object] | None,
        *, with_events: bool = True,
    ) -> dict[str, Any]:
        data = build_view(hand, seat, events=with_events).to_dict()
        if not with_events:
            del data["events"]
        if last is not None:
            actor, action = last
            wire = action_to_wire(action)
            # Another seat's hidden choice (discards, draws, an expose or a
            # declare before the reveal, a stacking order) is never shown here;
            # the view shows whatever became visible.
            if actor != seat and wire["kind"] in ("discard", "expose", "stack", "declare", "draw",
                                                  "run_twice"):
                hidden: dict[str, Any] = {"kind": wire["kind"]}
                if wire["kind"] == "draw":
                    hidden["count"] = len(wire["cards"])
                wire = hidden
            data["last_action"] = {"seat": actor, **wire}
        return data
