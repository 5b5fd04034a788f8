"""A whole session as one ``.phhs`` (issue 29): :func:`session_table`,
:func:`write_session_phhs`, :func:`phhs_entry`, and :func:`replay_table`,
which replays one entry of such a file.

Each hand of the session is one table (``[1]``, ``[2]`` ... in play order):
standard PHH (:func:`~rollem.phh.write.phh_dict`, or
:func:`~rollem.phh.write.copy_phh_dict` for a player's own copy, its hidden
cards ``??``) for a game and structure with a PHH variant code; rollem's own
history table (``variant = "rollem-<game>"``, which only rollem replays) for
any other hand, so that a dealer's-choice session keeps every hand and its
nets add up to the ledger. ``standard_only`` leaves those hands out instead
(a file every entry of which PokerKit replays).

``rollem play --history-dir`` appends each finished hand to its session's
``session.phhs`` (:func:`phhs_entry`); the web table's session download and
``rollem export --phh`` write the same tables.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import tomli_w

from rollem import toml_input
from rollem.phh.read import is_phh, replay_phh
from rollem.phh.variants import MAX_HANDS, PHHError

__all__ = ["phhs_entry", "replay_table", "session_table", "write_session_phhs"]


def session_table(history: Mapping[str, Any] | str, *,
                  standard_only: bool = False) -> dict[str, Any] | None:
    """One hand of a session as a ``.phhs`` table: standard PHH where the
    hand's game has a PHH variant code (``??`` for what an own copy hides),
    else the rollem history itself (``None`` with ``standard_only``).

    ``history``: a rollem history (its TOML text or table), full or a
    player's own copy (``_redacted_for``).

    Raises:
        rollem.history.HistoryError: a history that does not replay, or an
            own copy describing a hand that cannot happen.
        PHHError: ``history`` is not TOML.
    """
    from rollem.history import replay
    from rollem.phh.write import copy_phh_dict, phh_dict

    if isinstance(history, str):
        try:
            data: Mapping[str, Any] = toml_input.loads(history)
        except tomllib.TOMLDecodeError as err:
            raise PHHError(f"not a TOML hand history: {err}") from None
    else:
        data = history
    if is_phh(data):  # already standard PHH
        return dict(data)
    try:
        if "_redacted_for" in data:
            return copy_phh_dict(data)
        hand = replay(data)
        names = data.get("players")
        return phh_dict(hand, players=names if isinstance(names, list)
                        and len(names) == hand.n else None)
    except PHHError:  # no PHH variant (or a copy that reshuffled): rollem's own
        return None if standard_only else dict(data)


def write_session_phhs(histories: Iterable[Mapping[str, Any] | str], *,
                       standard_only: bool = False,
                       numbers: Sequence[int] | None = None) -> str:
    """A session's hands as one ``.phhs`` text (tables ``[1]``, ``[2]`` ...
    in the order given; :func:`session_table` for each).

    ``numbers``: each history's hand number, in the same order: its table is
    named by it (``[12]``) and holds it as ``_hand = 12``, as the web table's
    download numbers a player's hands (only those they were dealt into, so
    not always 1, 2 ...); a hand ``standard_only`` leaves out takes its
    number with it. By default the tables are ``[1]``, ``[2]`` ... with no
    ``_hand``.

    Raises:
        PHHError: more than :data:`~rollem.phh.variants.MAX_HANDS` hands.
        ValueError: ``numbers`` not one whole number of 1 or more for each
            history, or one used twice.
        rollem.history.HistoryError: a history that does not replay.
    """
    given = list(histories)
    if numbers is not None:
        if len(numbers) != len(given):
            raise ValueError(f"{len(numbers)} hand numbers for {len(given)} histories: "
                             "give one for each")
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in numbers) \
                or len(set(numbers)) != len(numbers):
            raise ValueError("hand numbers must be whole numbers of 1 or more, each used "
                             "once")
    tables: dict[str, dict[str, Any]] = {}
    for i, history in enumerate(given):
        table = session_table(history, standard_only=standard_only)
        if table is not None:
            if len(tables) >= MAX_HANDS:
                raise PHHError(f"more than {MAX_HANDS} hands for one .phhs file")
            if numbers is None:
                tables[str(len(tables) + 1)] = table
            else:
                tables[str(numbers[i])] = {"_hand": numbers[i], **{
                    k: v for k, v in table.items() if k != "_hand"}}
    return tomli_w.dumps(tables)


def phhs_entry(number: int, table: Mapping[str, Any]) -> str:
    """Table ``[number]`` of a ``.phhs`` as text, to append to the file
    (``rollem play`` adds each hand as it ends)."""
    if number < 1:
        raise ValueError(f"a .phhs hand number is 1 or more, got {number}")
    return tomli_w.dumps({str(number): dict(table)})


def replay_table(table: Mapping[str, Any], *, check_result: bool = True) -> dict[str, Any]:
    """One entry of a ``.phhs`` replayed, as ``rollem replay FILE.phhs --json``
    gives it: a standard PHH hand's
    :meth:`~rollem.phh.read.PHHHand.to_json`; for a rollem
    history (a game with no PHH code) its ``variant``, ``game``, ``players``,
    ``starting_stacks``, ``finishing_stacks`` and ``net`` by seat (an own
    copy's as it records them, once :func:`~rollem.history_copy.own_copy_hand`
    has checked that it describes a hand that can happen).

    Raises:
        PHHError: the hand does not replay (one line).
    """
    if is_phh(table):
        return replay_phh(table, check_result=check_result).to_json()
    from rollem.history import HistoryError, replay
    from rollem.history_copy import own_copy_hand

    try:
        if "_redacted_for" in table:
            hand = own_copy_hand(table)
            result = table.get("_result")
            if not isinstance(result, Mapping) or not isinstance(result.get("net"), Mapping):
                raise PHHError("the history ends before the hand is over")
            net = {str(k): int(v) for k, v in result["net"].items()}
            recorded = table.get("finishing_stacks")
            finishing = ([int(x) for x in recorded] if isinstance(recorded, list)
                         and len(recorded) == hand.n else
                         [s + net.get(str(i), 0) for i, s in enumerate(hand.start_stacks)])
        else:
            hand = replay(table, check_result=check_result)
            if hand.result is None:
                raise PHHError("the history ends before the hand is over")
            net = {str(k): int(v) for k, v in hand.result.to_dict()["net"].items()}
            finishing = list(hand.stacks)
    except HistoryError as err:
        raise PHHError(str(err)) from None
    names = table.get("players")
    return {
        "variant": str(table.get("variant")),
        "game": hand.game.id,
        "players": list(names) if isinstance(names, list) else [f"seat {s}" for s in
                                                                 range(hand.n)],
        "starting_stacks": list(hand.start_stacks),
        "finishing_stacks": finishing,
        "net": net,
    }

