"""Odds from a seat's view: the only door from a live hand into the odds.

:func:`view_equity` reads nothing but a :class:`rollem.engine.HandView`
(``hand.view(seat)``) or its ``to_dict()`` form, so it can use only what that
seat may know. It refuses a spectator's view and anything that is not a view
(a :class:`rollem.engine.Hand` included): the calculators never need, and
never get, another seat's hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rollem.odds.common import Progress, cards_of, check_seed
from rollem.odds.result import Odds, OddsError

if TYPE_CHECKING:
    from rollem.engine.game import Game
    from rollem.odds.policy import Policy

__all__ = ["SeatInfo", "ViewInfo", "no_odds_reason", "read_view", "view_equity"]

VIEW_EXACT_LIMIT = 50_000
""":func:`view_equity` enumerates exactly up to this many outcomes by default."""


@dataclass(frozen=True)
class SeatInfo:
    """One other seat still in the hand, as the viewer sees it."""

    seat: int
    up: list[int]
    hidden: int
    known: list[int] | None  # every card, when all are visible (shown)


@dataclass(frozen=True)
class ViewInfo:
    """The parts of a view the calculators use (card ints)."""

    game: str
    seat: int
    mine: list[int]
    my_up: list[int]
    board: list[int]
    dead: list[int]
    my_pool: list[int]
    wild_ranks: list[int]
    pool: int
    stub: int
    opponents: list[SeatInfo]
    options: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]
    round: str
    pending: str | None
    seen_out: list[int]
    """Cards the viewer saw that are out of play: folded seats' up cards, the
    turned wild card (R-RYO-7)."""
    my_discards: list[int]
    """5-2-1: cards the viewer discarded in draws (R-521-2, R-521-4)."""
    reshuffled: bool
    """5-2-1: a reshuffle happened (R-521-5): discards may be back in play."""
    declared: dict[int, str]
    """5-2-1: declarations already revealed (R-521-8), seat -> side."""
    folded_dealt: int
    """Other seats dealt in that have folded."""
    to_act: list[int]
    """Seats asked to act now (for an all-at-once choice: those yet to choose)."""


def _get(view: Any, key: str) -> Any:
    if isinstance(view, Mapping):
        return view[key]
    return getattr(view, key)


def read_view(view: Any) -> ViewInfo:
    """Check ``view`` is one seat's view and read it.

    Raises:
        OddsError: ``view`` is not a view (e.g. a ``Hand``: pass
            ``hand.view(seat)``), or is a spectator's.
    """
    from rollem.engine.views import HandView

    if not isinstance(view, HandView | Mapping) or (
        isinstance(view, Mapping) and not {"seat", "seats", "game"} <= set(view)
    ):
        raise OddsError(
            f"odds need one seat's view (hand.view(seat) or its to_dict()), got "
            f"{type(view).__name__}: the calculators never look at a whole hand"
        )
    seat = _get(view, "seat")
    if seat is None:
        raise OddsError("a spectator's view has no hand: pass the view of a seat in the hand")
    from rollem.cards import parse_card, parse_rank

    seats = _get(view, "seats")
    me = seats[seat]
    my_cards = list(_get(me, "cards"))
    if not my_cards or any(c is None for c in my_cards):
        raise OddsError(f"seat {seat} holds no cards in this view: it is not in the hand")
    if _get(me, "folded"):
        raise OddsError(f"seat {seat} has folded: no odds for a folded hand")
    my_up_flags = list(_get(me, "up"))
    mine = cards_of(my_cards)
    my_up = [int(parse_card(c)) for c, u in zip(my_cards, my_up_flags, strict=True) if u]
    opponents = []
    for s in seats:
        n = _get(s, "seat")
        if n == seat or not _get(s, "dealt") or _get(s, "folded"):
            continue
        cards = list(_get(s, "cards"))
        ups = list(_get(s, "up"))
        visible = [c for c in cards if c is not None]
        up = [int(parse_card(c)) for c, u in zip(cards, ups, strict=True)
              if u and c is not None]
        hidden = sum(1 for c in cards if c is None)
        known = cards_of(visible) if hidden == 0 and visible and len(visible) > len(up) else None
        opponents.append(SeatInfo(seat=n, up=up, hidden=hidden, known=known))
    live = {o.seat for o in opponents} | {seat}
    seen_out: list[int] = []
    my_discards: list[int] = []
    reshuffled = False
    declared: dict[int, str] = {}
    for e in _get(view, "events"):
        kind, who = e.get("kind"), e.get("seat")
        folded_up = kind in ("expose", "roll", "deal_up") and who not in live
        if (folded_up or kind == "wild") and e.get("card"):
            seen_out.append(int(parse_card(e["card"])))
        elif folded_up and e.get("cards"):  # a stud street's up cards ("cards": a list)
            seen_out.extend(int(parse_card(c)) for c in e["cards"])
        elif kind == "draw" and who == seat and e.get("cards"):
            my_discards.extend(int(parse_card(c)) for c in e["cards"])
        elif kind == "reshuffle":
            reshuffled = True
        elif kind == "declare" and e.get("side") and who is not None:
            declared[int(who)] = str(e["side"])
    return ViewInfo(
        game=_get(view, "game"),
        seat=seat,
        mine=mine,
        my_up=my_up,
        board=cards_of(_get(view, "board")),
        dead=cards_of(_get(view, "dead")),
        my_pool=cards_of(_get(view, "my_pool")),
        wild_ranks=[parse_rank(r) for r in _get(view, "wild_ranks")],
        pool=int(_get(view, "pool")),
        stub=int(_get(view, "stub")),
        opponents=opponents,
        options=_get(view, "options"),
        events=list(_get(view, "events")),
        round=str(_get(view, "round")),
        pending=_get(view, "pending"),
        seen_out=sorted(set(seen_out)),
        my_discards=my_discards,
        reshuffled=reshuffled,
        declared=declared,
        folded_dealt=sum(1 for s in seats if _get(s, "seat") != seat and _get(s, "dealt")
                         and _get(s, "folded")),
        to_act=[int(x) for x in _get(view, "to_act")],
    )


def view_equity(
    view: Any,
    *,
    samples: int = 200,
    rng: random.Random | None = None,
    seed: int | None = None,
    exact_limit: int | None = None,
    progress: Progress | None = None,
    advice: bool = False,
    top: int = 10,
    policy: Policy | None = None,
    look_ahead: bool | None = None,
    game: Game | None = None,
) -> Odds:
    """The viewer's odds from its view alone (any game).

    Games other than our three are read from their game file
    (:mod:`rollem.odds.filegame`: Monte Carlo, plain model): the registry's
    game of the view's id, or ``game`` (a user's game file not registered).

    With ``look_ahead`` (implied by ``advice``), in Five Card Roll Your Own
    and in 5-2-1 Roll 'Em the odds look ahead
    (:mod:`rollem.odds.advice`): every player still in makes the choices
    still to come by ``policy`` (default :data:`rollem.odds.policy.FAST`),
    and ``equity`` is the seat's if it plays by the policy too (at the 5-2-1
    declare: its best declaration). Without it, the plain model of the
    module doc (a few milliseconds: what the computer players use).

    Args:
        view: ``hand.view(seat)`` (a :class:`rollem.engine.HandView`) or its
            ``to_dict()``; never a hand, never a spectator's view.
        samples: Monte Carlo worlds when the outcomes are too many to
            enumerate (the standard error is about ``0.5 / sqrt(samples)``).
        rng, seed: seed the Monte Carlo (``seed`` wins).
        exact_limit: enumerate exactly when there are at most this many
            outcomes; 0 forces Monte Carlo. ``None``: :data:`VIEW_EXACT_LIMIT`
            in our three games, Monte Carlo in a game from a game file (the
            computer players' few milliseconds); given, a game file's deals
            are counted too where they fit its work bound
            (:mod:`rollem.odds.fileexact`; ``rollem odds --history`` and play
            pass :data:`rollem.odds.fileexact.FILE_EXACT_LIMIT`, issue 33).
        progress: ``progress(done, samples)`` after each Monte Carlo chunk.
        advice: also evaluate every option of the choice the seat faces now
            (``Odds.advice``; look-ahead ``samples`` worlds per option).
        top: at most this many options in the advice, best first.
        policy: the look-ahead policy (:class:`rollem.odds.policy.Policy`).
        look_ahead: use the look-ahead model (default: when ``advice``).
        game: the :class:`rollem.engine.game.Game` of a game file, when the
            registry does not hold it (a web table's own game file).

    Returns:
        :class:`Odds` for the pot as a whole (every seat still in is assumed
        to go to the showdown).

    Raises:
        OddsError: not a seat's view, a game without a calculator, or a
            negative ``seed``.
    """
    check_seed(seed)
    info = read_view(view)
    from rollem.odds.advice import look_odds, neutral_advice
    from rollem.odds.policy import FAST

    pol = policy if policy is not None else FAST
    if look_ahead or (look_ahead is None and advice):
        looked = look_odds(info, samples=samples, rng=rng, seed=seed,
                           exact_limit=VIEW_EXACT_LIMIT if exact_limit is None else exact_limit,
                           progress=progress, advice=advice, top=top, policy=pol)
        if looked is not None:
            return looked
    odds = _plain(info, samples=samples, rng=rng, seed=seed, exact_limit=exact_limit,
                  progress=progress, game=game)
    if advice:
        adv = neutral_advice(info, odds, top, pol)
        if adv is not None:
            from dataclasses import replace

            odds = replace(odds, advice=adv)
    return odds


def _plain(info: ViewInfo, *, samples: int, rng: random.Random | None, seed: int | None,
           exact_limit: int | None, progress: Progress | None,
           game: Game | None = None) -> Odds:
    """The odds without look-ahead (Stop, Drop and Roll; Roll Your Own after the discard;
    any other game from its game file: :mod:`rollem.odds.filegame`)."""
    file_limit = exact_limit or 0  # a game file's: counted only when asked (None: sampled)
    if exact_limit is None:
        exact_limit = VIEW_EXACT_LIMIT
    if info.game == "sdr":
        from rollem.odds.sdr import sdr_odds

        vs = [o.known for o in info.opponents if o.known is not None]
        unknown = sum(1 for o in info.opponents if o.known is None)
        if not vs and unknown == 0:
            return Odds(win=1.0, tie=0.0, lose=0.0, equity=1.0, method="exact", samples=1,
                        stderr=0.0, game="sdr")
        return sdr_odds(info.mine, dead=info.dead, board=info.board, vs=vs, opponents=unknown,
                        samples=samples, rng=rng, seed=seed, exact_limit=exact_limit,
                        progress=progress)
    if info.game == "rollyourown":
        from rollem.odds.ryo import ryo_view_odds

        return ryo_view_odds(info, samples=samples, rng=rng, seed=seed, exact_limit=exact_limit,
                             progress=progress)
    if info.game == "rollem521":
        from rollem.odds.r521 import r521_view_odds

        return r521_view_odds(info, samples=samples, rng=rng, seed=seed,
                              exact_limit=exact_limit, progress=progress)
    game = _file_game(info.game, game)
    if game is None:
        raise OddsError(f"no odds calculator for game {info.game!r}: expected sdr, "
                        "rollyourown, rollem521 or a game from a game file (a file of "
                        "your own: pass game=, or rollem.games.register(game) first)")
    from rollem.odds.filegame import file_game_odds

    return file_game_odds(info, game, samples=samples, rng=rng, seed=seed, progress=progress,
                          exact_limit=file_limit)


def no_odds_reason(game: Game) -> str | None:
    """Why :func:`view_equity` can never give odds in ``game`` (one line), or
    ``None`` when it can: our three games have their calculators; any other
    game needs its game file (``game.spec``) and a showdown the plain model
    reads (not ``declare``: :func:`rollem.odds.filegame.plain_model_refusal`).
    Cheap (reads the game's steps): the web table checks it before practice
    odds are allowed (issue 34)."""
    if game.id in ("sdr", "rollyourown", "rollem521"):
        return None
    if game.spec is None:
        return (f"no odds calculator for game {game.id!r}: expected sdr, rollyourown, "
                "rollem521 or a game from a game file")
    from rollem.odds.filegame import plain_model_refusal

    return plain_model_refusal(game.spec)


def _file_game(game_id: str, game: Game | None) -> Game | None:
    """The game file's game for ``game_id``: ``game`` if given (and of that id), else
    the registry's (``rollem.games``), else ``None``."""
    if game is not None and game.id == game_id and game.spec is not None:
        return game
    from rollem import games

    try:
        found = games.get(game_id)
    except KeyError:
        return None
    return found if found.spec is not None else None
