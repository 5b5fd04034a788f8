"""Converting between standard PHH and rollem's own histories (issue 29,
``rollem convert``): :func:`phh_to_history` and :func:`history_to_phh`.

A PHH hand becomes a rollem history (``variant = "rollem-<game>"``, whole
chips) that replays through rollem's engine to the same stacks, with the
PHH file's own header kept in ``_phh`` (a table: ``fields``, the file's
variant, antes, blinds, bets, starting stacks, players and the fields
rollem does not know, as the file gave them; ``keys``, the file's fields
in order; ``scale``, chips a unit of a decimal file, :mod:`rollem.phh.units`;
``hidden``, the players whose cards the file hides; ``mucked``, the players
whose known cards it mucks at the showdown, as PokerKit writes a loser's
muck: the history shows them where rollem's showdown does, R-C-11, when
that gives the same stacks; ``hidden_cards``, when any, the cards of the
history's deal and draw lines that the file writes ``??`` there: those a
show tells, and a drawing player's stand-ins, below). Converted back
(:func:`history_to_phh`) such a history gives the file's fields again, its
actions as rollem writes them (comments dropped, shows after the last
action) and its amounts in its unit.

A rollem history keeps every card, so a PHH hand converts only when the
cards it hides (``??``) decide nothing: a player whose cards are all hidden
and who folds (or wins without a showdown) is dealt no named cards in the
history (its replay fills them from the deck, as for a hand-written
history), and PHH's missing burns are left to the replay the same way. In
a draw game (badugi, deuce-to-seven) the cards a player draws and discards
hidden are the replay's stand-ins, named in the history and listed in
``_phh.hidden_cards``; a hand that holds one at the showdown is refused.
Dead antes (``ante_trimming_status`` false) are taken before the deal: the
history's starting stacks are the file's less the antes, and the antes are
its ``_carry_in``. Refused, in one line: a hand still hidden or mucked at
the showdown, a player with some cards hidden and some shown, antes
counted as the players' chips in a game with no ante step
(``ante_trimming_status = true`` in hold'em and Omaha), a blind posted by
the button alone (short deck), and a hand that stops before its end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rollem.cards import Card, CardError, parse_card
from rollem.phh.deal import ButtonBlind, PostAntes
from rollem.phh.read import PHHHand, replay_phh
from rollem.phh.units import in_units
from rollem.phh.variants import PHHError
from rollem.text import ascii_digits

__all__ = ["HEADER", "history_to_phh", "phh_to_history"]

HEADER = ("variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in",
          "small_bet", "big_bet", "min_bet", "starting_stacks", "players")
"""The PHH fields a converted history keeps as the file gave them (in ``_phh``)."""


def _hidden_lines(data: Mapping[str, Any], seat: int) -> bool:
    """Every ``d dh`` line for PHH player ``seat`` hides all its cards."""
    raw = data.get("actions")
    dealt = [str(line).split("#", 1)[0].split() for line in raw] if isinstance(raw, list) else []
    lines = [w for w in dealt if len(w) == 4 and w[:3] == ["d", "dh", f"p{seat + 1}"]]
    return bool(lines) and all(set(w[3]) == {"?"} for w in lines)


def _without_known_mucks(data: Mapping[str, Any], h: PHHHand) -> tuple[PHHHand, list[int]]:
    """A hand whose file mucks known cards at the showdown (``pN sm``, as
    PokerKit writes a loser's muck) replayed without those mucks, the
    engine's showdown deciding who shows (R-C-11), when that gives the same
    stacks: that hand, and the PHH players whose mucks were left out."""
    mucks = [e.seat for e in h.hand.events if e.kind == "muck" and e.data.get("hidden")
             and e.seat is not None]
    if not mucks or any(s in h.unknown for s in mucks):
        return h, []
    raw = data.get("actions")
    lines = [ln for ln in raw if not (isinstance(ln, str) and ln.split("#", 1)[0].split()
                                      in ([f"p{s + 1}", "sm"] for s in mucks))] \
        if isinstance(raw, list) else raw
    try:
        again = replay_phh({**data, "actions": lines}, check_result=False)
    except PHHError:
        return h, []
    if again.finishing_stacks != h.finishing_stacks:
        return h, []  # (the muck decides the pots: refused below)
    return again, sorted(mucks)


def phh_to_history(data: Mapping[str, Any]) -> dict[str, Any]:
    """A standard PHH hand (its TOML table) as a rollem history table.

    Raises:
        PHHError: the hand does not replay (:func:`~rollem.phh.read.replay_phh`),
            or has no rollem history form (see the module doc), one line.
    """
    from rollem.history import HistoryError, history_dict, replay

    h = replay_phh(data)
    h, mucked = _without_known_mucks(data, h)
    hand = h.hand
    if h.finishing_stacks is None or not hand.is_over:
        raise PHHError("the actions stop before the end of the hand: a rollem history is "
                       "written from a finished hand")
    if any(e.kind == "muck" and e.data.get("hidden") for e in hand.events):
        who = next(e.seat for e in hand.events if e.kind == "muck" and e.data.get("hidden"))
        raise PHHError(f"p{(who or 0) + 1}'s hand is hidden or mucked at the showdown: a rollem "
                       "history's showdown shows every hand it needs, so it has no "
                       "rollem form; rollem replay reads the PHH file as it is")
    showdown = hand.result is not None and hand.result.showdown
    drawing = _drawing(data)
    for s in sorted(h.unknown - drawing):
        if not _hidden_lines(data, s):
            raise PHHError(f"p{s + 1}'s cards are partly hidden (??): a rollem history records "
                           "the cards a player is dealt; rollem replay reads the PHH file as "
                           "it is")
        if showdown and not hand.folded[s]:
            raise PHHError(f"p{s + 1}'s cards are hidden (??) and reach the showdown: a rollem "
                           "history records every hand there; rollem replay reads the PHH "
                           "file as it is")
    if any(isinstance(step, ButtonBlind) for step in hand.steps):
        raise PHHError("a blind posted by the button alone (blinds_or_straddles with only the "
                       "last player's entry) has no rollem history form, whose blinds are a "
                       "small and a big blind; rollem replay reads the PHH file as it is")
    if any(isinstance(step, PostAntes) for step in hand.steps) and any(h.antes):
        raise PHHError("antes counted as the players' chips (ante_trimming_status = true) in "
                       f"{hand.game.id}, which has no ante step, have no rollem history form")
    out = history_dict(hand, players=h.players)
    hidden = sorted(h.unknown - drawing)
    out["actions"] = [line for line in out["actions"] if not line.startswith("d burn ")
                      and not any(line.startswith(f"d dh p{s + 1} ") for s in hidden)]
    hidden_cards = _hidden_cards_in(out["actions"], h.hidden_cards)
    out["_deck"] = ""  # the file's cards are in the deal lines; the rest the replay fills
    out["_shuffles"] = []
    out["_phh"] = {
        "fields": {k: data[k] for k in data if k in HEADER or k in h.fields},
        "keys": [str(k) for k in data],
        "scale": h.scale,
        "hidden": hidden,
        "mucked": mucked,
        "shows": _shows(data),
    }
    if hidden_cards:
        out["_phh"]["hidden_cards"] = hidden_cards
    try:
        again = replay(out)
    except HistoryError as err:  # (a bug: the history must replay)
        raise PHHError(f"the converted history does not replay: {err}") from None
    if list(again.stacks) != list(hand.stacks):
        raise PHHError(f"the converted history replays to {list(again.stacks)}, not "
                       f"{list(hand.stacks)}")
    return out


def _drawing(data: Mapping[str, Any]) -> set[int]:
    """The PHH players (indexes) with a draw line (``pN sd``)."""
    raw = data.get("actions")
    out: set[int] = set()
    for line in raw if isinstance(raw, list) else []:
        words = str(line).split("#", 1)[0].split()
        if len(words) >= 2 and words[1] == "sd" and ascii_digits(words[0][1:]):
            out.add(int(words[0][1:]) - 1)
    return out


def _hidden_cards_in(lines: Sequence[str], hidden: frozenset[Card]) -> str:
    """The cards a history's deal and draw lines name that the PHH file
    hides there (``??``), run together in the order named: a drawing
    player's stand-ins, which decide nothing (a hand that shows one is
    refused above), and the cards a show tells."""
    out: list[str] = []
    for line in lines:
        words = line.split()
        if len(words) in (3, 4) and (words[:2] == ["d", "dh"] or words[1] == "sd"):
            text = words[-1]
            out += [text[i:i + 2] for i in range(0, len(text), 2)
                    if _card(text[i:i + 2]) in hidden]
    return "".join(dict.fromkeys(out))


def _card(text: str) -> Card | None:
    try:
        return parse_card(text)
    except CardError:
        return None


def _hide_cards(line: str, hidden: set[str]) -> str:
    """A deal or draw line with each card of ``hidden`` written ``??`` again."""
    words = line.split()
    if not hidden or not (len(words) in (3, 4) and (words[:2] == ["d", "dh"]
                                                       or words[1] == "sd")):
        return line
    text = words[-1]
    cards = "".join("??" if text[i:i + 2] in hidden else text[i:i + 2]
                    for i in range(0, len(text), 2))
    return " ".join([*words[:-1], cards])


def _shows(data: Mapping[str, Any]) -> dict[str, str]:
    """Each player's shown cards as the file writes them (``pN`` -> ``CARDS``)."""
    raw = data.get("actions")
    out: dict[str, str] = {}
    for line in raw if isinstance(raw, list) else []:
        words = str(line).split("#", 1)[0].split()
        if len(words) == 3 and words[1] == "sm" and "?" not in words[2]:
            out[words[0]] = words[2]
    return out


def _as_shown(line: str, shows: Mapping[str, Any]) -> str:
    """A show line with its cards in the file's order, when the file shows the
    same cards (rollem writes a draw hand's cards in the order it holds them)."""
    words = line.split()
    mine = shows.get(words[0]) if len(words) == 3 and words[1] == "sm" else None
    if isinstance(mine, str) and sorted(mine[i:i + 2] for i in range(0, len(mine), 2)) \
            == sorted(words[2][i:i + 2] for i in range(0, len(words[2]), 2)):
        return f"{words[0]} sm {mine}"
    return line


def _unscaled(lines: Sequence[str], scale: int) -> list[str]:
    out = []
    for line in lines:
        words = line.split()
        if len(words) == 3 and words[1] == "cbr" and scale != 1:
            line = f"{words[0]} cbr {in_units(int(words[2]), scale)}"
        out.append(line)
    return out


def _hide(lines: Sequence[str], seats: Sequence[int], hand: Any,
          order: Sequence[int]) -> list[str]:
    """The deal lines of the players whose cards the PHH file hid, as ``??``,
    placed before the first player action (where PHH deals the hole cards)."""
    out = [ln for ln in lines if not any(ln.startswith(f"d dh p{s + 1} ") for s in seats)]
    first = next((i for i, ln in enumerate(out) if not ln.startswith("d ")), len(out))
    dealt = out[:first] + [f"d dh p{s + 1} " + "??" * len(hand.hole[order[s]]) for s in seats]
    # the deal lines in player order, as PHH writes them
    head = sorted((ln for ln in dealt if ln.startswith("d dh ")),
                  key=lambda ln: int(ln.split()[2][1:]))
    return head + [ln for ln in dealt if not ln.startswith("d dh ")] + out[first:]


def history_to_phh(data: Mapping[str, Any]) -> dict[str, Any]:
    """A rollem history (its table; full or a player's own copy, any
    version rollem reads) as a standard PHH table that PokerKit replays;
    a history converted from PHH (``_phh``) as the PHH file it came from.

    Raises:
        PHHError: a game with no PHH variant code (its rollem history is
            its only form), or a ``_phh`` that does not match the hand.
        rollem.history.HistoryError: a history that does not replay.
    """
    from rollem.history import replay
    from rollem.phh.write import copy_phh_dict, phh_dict

    if "_redacted_for" in data:
        return copy_phh_dict(data)
    hand = replay(data)
    names = data.get("players")
    names = names if isinstance(names, list) and len(names) == hand.n else None
    phh = data.get("_phh")
    if not isinstance(phh, Mapping):
        return phh_dict(hand, players=names)
    fields = phh.get("fields")
    keys = phh.get("keys")
    scale = phh.get("scale", 1)
    hidden = phh.get("hidden", [])
    if not (isinstance(fields, Mapping) and isinstance(keys, list) and type(scale) is int
            and scale >= 1 and isinstance(hidden, list)
            and all(type(s) is int and 0 <= s < hand.n for s in hidden)):
        raise PHHError("_phh must hold the PHH file's fields, keys, scale and hidden players")
    code = fields.get("variant")
    table = phh_dict(hand, players=names, code=code if isinstance(code, str) else None)
    order = table.pop("_seats")
    table.pop("_burns", None)
    mucked = phh.get("mucked", [])
    if not isinstance(mucked, list) or not all(type(s) is int for s in mucked):
        raise PHHError("_phh.mucked must be a list of PHH player indexes")
    shows = phh.get("shows", {})
    hidden_cards = phh.get("hidden_cards", "")
    if not isinstance(hidden_cards, str) or len(hidden_cards) > 2 * 52:
        raise PHHError("_phh.hidden_cards must be cards run together (e.g. 5s6h)")
    hide = {hidden_cards[i:i + 2] for i in range(0, len(hidden_cards), 2)}
    actions = [f"p{ln.split()[0][1:]} sm" if ln.split()[1:2] == ["sm"]
               and int(ln.split()[0][1:]) - 1 in mucked
               else _as_shown(_hide_cards(ln, hide),
                              shows if isinstance(shows, Mapping) else {})
               for ln in _hide(_unscaled(table["actions"], scale), hidden, hand, order)]
    finishing = [in_units(c, scale) for c in table.get("finishing_stacks", [])]
    out: dict[str, Any] = {}
    for k in keys:
        if k == "actions":
            out[k] = actions
        elif k == "finishing_stacks":
            out[k] = finishing
        elif k in fields:
            out[k] = fields[k]
    again = replay_phh(out)
    if again.finishing_stacks != [hand.stacks[s] for s in order]:
        raise PHHError("_phh does not match the hand: its PHH form replays to "
                       f"{again.finishing_stacks}, not {[hand.stacks[s] for s in order]}")
    return out
