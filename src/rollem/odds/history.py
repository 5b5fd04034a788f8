"""Odds at a point of a recorded hand: a hand history, a seat, an action count.

The hand is replayed up to the point and the odds come from that seat's
view there (:func:`rollem.odds.view_equity`), so they use only what the seat
could see at that moment.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace

from rollem import toml_input
from rollem.cards import CARDS
from rollem.engine.hand import Hand
from rollem.history import History, HistoryError, read_history, replay
from rollem.odds.common import Progress, check_seed
from rollem.odds.fileexact import FILE_EXACT_LIMIT
from rollem.odds.own_copy import fold_point, is_own_copy, stand_in_history
from rollem.odds.result import HistoryOddsError, Odds, OddsError
from rollem.odds.sdr import EXACT_LIMIT as SDR_EXACT_LIMIT
from rollem.odds.view import view_equity

__all__ = ["history_odds", "last_decision_point"]


def last_decision_point(history: History) -> int:
    """The default point: before the last action of a finished hand, else
    after every action recorded (the hand then waits for a decision)."""
    hand = replay(replace(history, result=None), check_result=False)
    n = len(history.actions)
    return n - 1 if hand.is_over and n > 0 else n


def _own_copy(text: str, seat: int, at: int | None) -> tuple[str, int | None]:
    """A player's own copy (``_redacted_for``) as a stand-in full history for its
    seat (:mod:`rollem.odds.own_copy`); any other text as it is."""
    try:
        data = toml_input.loads(text.removeprefix("\ufeff"))
    except (tomllib.TOMLDecodeError, RecursionError):
        return text, at  # read_history says what is wrong
    if not isinstance(data, dict) or not is_own_copy(data):
        return text, at
    stand_in, point = stand_in_history(data, seat, at)
    return stand_in, point


def history_odds(
    history: History | str,
    seat: int,
    *,
    at: int | None = None,
    samples: int | None = None,
    seed: int | None = None,
    rng: random.Random | None = None,
    exact_limit: int | None = None,
    progress: Progress | None = None,
    advice: bool = False,
    look_ahead: bool | None = None,
) -> tuple[Odds, int]:
    """``seat``'s odds after ``at`` actions of ``history`` (TOML text or a
    parsed :class:`rollem.history.History`); returns the odds and the point
    used (``at`` or :func:`last_decision_point`). The text may be a player's own
    copy (``rollem.history.redact``) for that player's seat, before the end of
    the hand: it is replayed with stand-in cards for what the seat did not see
    (:mod:`rollem.odds.own_copy`). ``exact_limit`` defaults
    to 25,000,000 outcomes for Stop, Drop and Roll, 1,000,000 in Roll Your Own
    and 5-2-1, and 2,000,000 deals in a game from a game file, counted where
    they fit the work bound (:mod:`rollem.odds.fileexact`, issue 33);
    ``samples`` to 20,000 (10,000 per option where the odds look ahead:
    Roll Your Own before the discard, 5-2-1; 10,000 in Roll Your Own after
    the discard with six or more dealt in, drawn in batches with more
    Metropolis steps a world: :data:`rollem.odds.ryoseen.PLACE_WORLDS`,
    issue 33). With ``advice``, every option
    of the seat's choice at that point (:class:`rollem.odds.Advice`);
    ``look_ahead`` as :func:`rollem.odds.view_equity`.

    Raises:
        OddsError: a bad seat or point, or a negative ``seed`` (the message
            says which); :class:`rollem.odds.result.HistoryOddsError` (an
            ``OddsError``) for a bad history text (as ``rollem replay`` says it).
    """
    check_seed(seed)
    if isinstance(history, str):
        point = _phh_point(history, seat, at)  # a standard PHH hand (issue 29)
        if point is not None:
            hand, at = point
            return _view_odds(hand, seat, at, samples=samples, seed=seed, rng=rng,
                              exact_limit=exact_limit, progress=progress, advice=advice,
                              look_ahead=look_ahead), at
        history, at = _own_copy(history, seat, at)
    try:
        h = read_history(history) if isinstance(history, str) else history
        n = len(h.actions)
        if at is None:  # the last decision point; a folded seat's, before its fold
            at = last_decision_point(h)
            folded_at = fold_point(h.actions, seat)
            if folded_at is not None:
                at = min(at, folded_at)
        if not 0 <= at <= n:
            raise OddsError(f"--at {at}: the history has {n} player actions (dealer lines are not "
                           f"counted): expected 0 to {n}")
        if not 0 <= seat < len(h.stacks):
            raise OddsError(f"seat {seat}: the hand has seats 0 to {len(h.stacks) - 1}")
        # Replay the whole hand once for its random outcomes (the deck order, the
        # pool's shuffle: a hand-written history names cards dealt later too),
        # then replay the first ``at`` actions from those outcomes.
        full = replay(replace(h, result=None), check_result=False)
        outcomes = [(label, list(order)) for label, order in full.source.outcomes]
        deck = [CARDS[c] for c in outcomes[0][1]]
        shuffles = [(label, [CARDS[c] for c in order]) for label, order in outcomes[1:]]
        hand = replay(replace(h, deck=deck, shuffles=shuffles, actions=h.actions[:at], checks=[],
                              result=None), check_result=False)
    except HistoryError as err:
        raise HistoryOddsError(str(err)) from None
    return _view_odds(hand, seat, at, samples=samples, seed=seed, rng=rng,
                      exact_limit=exact_limit, progress=progress, advice=advice,
                      look_ahead=look_ahead), at


def _phh_point(text: str, seat: int, at: int | None) -> tuple[Hand, int] | None:
    """A standard PHH hand (``rollem.phh``) replayed to ``at`` player actions
    (default: the last decision point, a folded seat's before its fold), with
    PHH player ``seat + 1`` as ``seat``; ``None`` for any other text."""
    from rollem.phh import PHHError, is_phh, read_phh, replay_phh

    try:
        data = read_phh(text.removeprefix("\ufeff"))
    except PHHError:
        return None  # read_history says what is wrong
    if not is_phh(data):
        return None
    try:
        if at is None:
            raw = data.get("actions")
            acts = [line.split() for line in (raw if isinstance(raw, list) else [])
                    if isinstance(line, str) and _is_player_action(line)]
            n = len(acts)
            whole = replay_phh(data, at=n)
            at = n - 1 if whole.hand.is_over and n > 0 else n
            folded = next((i for i, w in enumerate(acts) if w[:2] == [f"p{seat + 1}", "f"]),
                          None)
            if folded is not None:
                at = min(at, folded)
        got = replay_phh(data, at=at)
    except PHHError as err:
        raise HistoryOddsError(str(err)) from None
    if not 0 <= seat < got.hand.n:
        raise OddsError(f"seat {seat}: the hand has seats 0 to {got.hand.n - 1} (PHH's p1 is "
                        "seat 0)")
    if seat in got.unknown:
        raise OddsError(f"seat {seat} (p{seat + 1}): its cards are hidden (??) in the file")
    return got.hand, at


def _is_player_action(line: str) -> bool:
    """A PHH player action counted by ``--at`` (not a dealer, show or comment line)."""
    words = line.split("#", 1)[0].split()
    return len(words) >= 2 and words[0] != "d" and words[1] != "sm"


def _view_odds(hand: Hand, seat: int, at: int, *, samples: int | None, seed: int | None,
               rng: random.Random | None, exact_limit: int | None,
               progress: Progress | None, advice: bool, look_ahead: bool | None) -> Odds:
    """``seat``'s odds from its view of ``hand`` (replayed to ``at`` actions)."""
    if not hand.dealt[seat]:
        raise OddsError(f"seat {seat} is not dealt in this hand")
    if hand.folded[seat]:
        raise OddsError(f"seat {seat} has folded by action {at}: no odds for a folded hand")
    game = hand.game.id
    if exact_limit is None:
        exact_limit = (SDR_EXACT_LIMIT if game == "sdr" else 1_000_000
                       if game in ("rollyourown", "rollem521") else FILE_EXACT_LIMIT)
    if samples is None:
        looks = (advice or bool(look_ahead)) and (
            game == "rollem521" or (game == "rollyourown" and len(hand.hole[seat]) == 6))
        many = (game == "rollyourown" and len(hand.hole[seat]) < 6
                and sum(map(bool, hand.dealt)) >= 6)  # (batches of PLACE_WORLDS, issue 33)
        samples = 10_000 if looks or many else 20_000
    return view_equity(hand.view(seat), samples=samples, seed=seed, rng=rng,
                       exact_limit=exact_limit, progress=progress, advice=advice,
                       look_ahead=look_ahead, game=hand.game)
