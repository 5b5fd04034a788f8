"""A player's own copy replayed with stand-in cards and checked:
:func:`own_copy_hand` (see :mod:`rollem.history_copy`)."""

from __future__ import annotations

import contextlib
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

import tomli_w

from rollem.cards import CardError
from rollem.engine.hand import Hand
from rollem.history import (
    HistoryError,
    history_game,
    replay,
    write_history,
)
from rollem.history.copy_checks import (
    _check_bets,
    _check_finishing_stacks,
    _check_net,
    _check_own_cards,
    _check_result,
    _check_shows,
    _check_winnings,
    _header,
    _held_at_end,
    check_forced_bets,
)
from rollem.history.copy_lines import _difference, action_points, last_stand_in_point
from rollem.history.copy_showdown import _check_showdown
from rollem.history.copy_stand_ins import IMPOSSIBLE, _card, _OutOfCards, _split, _StandIns
from rollem.history.reading import history_table, not_a_history
from rollem.history.redaction import redacted_for


def _draw_after_an_up_card(lines: Sequence[str]) -> bool:
    """Whether a draw (``sd``) comes after a card was turned up (``d du``,
    ``exp``, a roll): a draw may throw an up card, which the copy does not
    tell (its discards are ``??``), so without the draws the cards showing,
    which may decide who acts first (R-C-8), could differ. No shipped game
    does so (5-2-1 rolls after its draws)."""
    up = False
    for line in lines:
        parts, comment = _split(line)
        if (len(parts) >= 3 and parts[:2] == ["d", "du"]) or \
                (len(parts) >= 2 and parts[0] != "d" and parts[1] == "exp") or \
                (not parts and comment[:1] == ["roll"]):
            up = True
        elif up and len(parts) >= 2 and parts[0] != "d" and parts[1] in ("sd", "draw"):
            return True
    return False


def _without_draws(lines: Sequence[str], n: int) -> list[str]:
    """The lines of an onlooker's copy of the copy (every seat's face-down cards
    and choices ``??``, :func:`rollem.history.redaction.redacted_for` for no seat) with every
    draw a stand pat (``pN sd``) and its replacement cards and reshuffles gone
    (``#``, so each line keeps its number). The betting, the turn order, the
    cards turned up and the pots are the hand's: no betting depends on a
    seat's face-down cards or on what it draws (R-521-2..R-521-7), and the
    draws no longer run the deck out."""
    onlooker = redacted_for({"actions": list(lines)}, n)["actions"]
    out: list[str] = []
    drawing: str | None = None  # the seat whose replacement cards may come next
    for line in onlooker:
        parts, comment = _split(line)
        if not parts and comment[:1] == ["reshuffle"]:
            out.append("#")
            continue
        if len(parts) >= 3 and parts[:2] == ["d", "dh"] and parts[2] == drawing:
            out.append("#")  # the replacement cards of the draw just before
            drawing = None
            continue
        drawing = None
        if len(parts) >= 2 and parts[0] != "d" and parts[1] in ("sd", "draw"):
            out.append(f"{parts[0]} sd")
            drawing = parts[0] if len(parts) > 2 else None
            continue
        out.append(line)
    return out


def _as_written(message: str, cut: list[str], built: list[str]) -> str:
    """``message`` (the replay's, of the lines ``built`` with stand-in cards) quoting
    each line as the copy writes it (``d dh p2 ????``), never its stand-ins, which
    would read as cards the seat was dealt."""
    if len(built) != len(cut):
        return message
    for i, (mine, stand_in) in enumerate(zip(cut, built, strict=True)):
        if mine != stand_in:
            message = message.replace(f"line {i + 1} of actions ({stand_in})",
                                      f"line {i + 1} of actions ({mine})")
    return message


def _stand_in_hand(data: Mapping[str, Any], seat: int, cut: list[str]) -> Hand:
    """The hand of the copy's lines ``cut`` with stand-ins, checked (not its result).

    Raises:
        _OutOfCards: the lines need more cards than the deck holds.
        HistoryError: the lines describe no hand that can happen.
    """
    try:
        built, shuffles = _StandIns(cut, seat, history_game(data).deck).build()
    except _OutOfCards:
        raise
    except (CardError, ValueError, IndexError) as err:
        raise HistoryError(f"{IMPOSSIBLE}: {err}") from None
    full = {k: v for k, v in data.items()
            if k not in ("_redacted_for", "_result", "finishing_stacks", "_deck", "_shuffles")}
    full["actions"] = built
    full["_shuffles"] = shuffles
    try:
        hand = replay(tomli_w.dumps(full), check_result=False)
    except HistoryError as err:
        raise HistoryError(f"{IMPOSSIBLE}: {_as_written(str(err), cut, built)}") from None
    again = redacted_for(tomllib.loads(write_history(hand)), seat)["actions"]
    differs = _difference(cut, again)
    if differs is not None:
        raise HistoryError(f"{IMPOSSIBLE}: {differs}")
    return hand


def own_copy_hand(data: Mapping[str, Any] | str, *, actions: int | None = None) -> Hand:
    """The hand of ``data`` (a player's own copy, ``_redacted_for`` a seat: as
    a dict, as :func:`rollem.history.redact` gives it, or as TOML text, as
    :func:`rollem.history.write_own_copy` and ``rollem play`` write it)
    replayed with stand-in cards where it shows ``??``: after its first
    ``actions`` players' actions (dealer lines are not counted), or
    (``None``) all its lines, then its shows must name cards that can be
    there and a recorded ``_result``'s pots (amount, eligible seats) must be
    the hand's. Redacted again for the seat, the hand
    gives the copy's lines (shows aside). R-C-13.

    The lines are compared as the engine spells them (:func:`_canon`), and
    the copy may leave out dealer lines and ``_result`` as a hand-written
    full history may: every copy :func:`rollem.history.redact` makes of a
    history :func:`rollem.history.replay` accepts passes.

    A recorded ``_result.net`` must be what the recorded pots' winners give
    each seat less the chips it put in (R-C-9), ``finishing_stacks`` the
    starting stacks plus the nets, and the recorded showdown the engine's
    on the shown cards (:func:`_check_showdown`: descriptions, who shows,
    each pot's winners and 5-2-1 halves, R-C-11, R-521-9); the seat's own
    mucked hand may not win or tie a share.

    A hand that ran out of cards reshuffled its discards (a ``# reshuffle``
    line), which stand-ins cannot follow: with ``actions=None`` its lines
    before the action that needed the first reshuffle are replayed (and that
    hand returned, :func:`last_stand_in_point`); of the rest, what the lines
    alone tell is checked (no bet beyond a stack, the seat's own cards
    through its draws, stacking and rolls, the shows, and
    ``_result.shown_cards`` / ``net``), then the whole hand's betting
    without its draws (:func:`_without_draws`, an onlooker's lines replayed
    with stand-ins): whose turn each action is, each bet, and the pots,
    nets and showdown against ``_result``. (A game file's draw after a card turned up
    skips that last check, :func:`_draw_after_an_up_card`.) What stays
    unchecked after a reshuffle: which cards the others could have drawn
    from it. With ``actions`` past the reshuffle the copy is refused.

    Raises:
        TypeError: ``data`` is neither text nor a mapping (bytes, a path).
        HistoryError: text that is not TOML, a bad field (as
            :func:`rollem.history.read_history` says it), ``actions`` out of
            range or past a reshuffle, or lines that describe no hand that
            can happen (the message starts with :data:`IMPOSSIBLE` and gives
            the engine's reason or the first line that differs).
    """
    if isinstance(data, str):
        data = history_table(data)
    elif not isinstance(data, Mapping):
        raise not_a_history("own_copy_hand", data)
    seat, lines = _header(data)
    points = action_points(lines)
    if actions is not None and not 0 <= actions <= len(points):
        raise HistoryError(f"the copy has {len(points)} player actions, not {actions}")
    cut = lines[:points[actions]] if actions is not None and actions < len(points) else lines
    last = last_stand_in_point(lines)
    if last is not None and (actions is None or actions > last):
        # The hand ran out of cards and reshuffled its discards, which stand-ins
        # cannot follow, and the cards named after it are reused ones (so never
        # held against the cards before it): the lines before the action that
        # needed it are checked, the rest is told as recorded.
        if actions is not None:
            raise HistoryError(f"this copy cannot be replayed with stand-in cards after action "
                               f"{last}: the hand then reshuffled (a # reshuffle line), whose "
                               f"order the copy hides; choose a point from 0 to {last}")
        for k in range(last, -1, -1):
            with contextlib.suppress(_OutOfCards):
                hand = _stand_in_hand(data, seat, lines[:points[k]])
                break
        else:
            raise HistoryError(f"{IMPOSSIBLE}: it needs more cards than the deck holds "
                               "before its first reshuffle")
        # the rest: what the lines alone can tell, then the whole hand's turn
        # order, bets and pots, which need no hidden card: the onlooker's lines
        # with every draw a stand pat, replayed with stand-ins
        _check_bets(data, lines)
        _check_own_cards(lines, f"p{seat + 1}")
        _check_shows(data, lines, seat, None)
        _check_net(data)
        if _draw_after_an_up_card(lines):
            return hand  # (a game file's): the cards showing need the draws
        n = len(data["starting_stacks"])
        try:
            betting = _stand_in_hand(data, n, _without_draws(lines, n))
        except _OutOfCards:
            raise HistoryError(f"{IMPOSSIBLE}: it turns up more cards than the deck "
                               "holds") from None
        _check_result(data, betting)
        _check_winnings(data, betting)
        _check_finishing_stacks(data)
        mine = [_card(c) for c in _held_at_end(lines, f"p{seat + 1}")]
        _check_showdown(data, betting, seat, mine)
        check_forced_bets(data, hand)
        return hand
    try:
        hand = _stand_in_hand(data, seat, cut)
    except _OutOfCards:
        raise HistoryError(f"{IMPOSSIBLE}: it needs more cards than the deck holds and "
                           "records no reshuffle") from None
    if actions is None:
        _check_shows(data, lines, seat, hand)
        _check_result(data, hand)
        _check_net(data)
        _check_winnings(data, hand)
        _check_finishing_stacks(data)
        _check_showdown(data, hand, seat, hand.hole[seat])
    check_forced_bets(data, hand)
    return hand
