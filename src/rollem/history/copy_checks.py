"""The checks of a copy's own fields against its stand-in hand: its own
cards, its shows, ``_result`` (pots, nets, winnings) and
``finishing_stacks``."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from rollem.cards import CardError
from rollem.engine.hand import Hand
from rollem.history import (
    HistoryError,
    _turned_up,
    parse_history,
)
from rollem.history.copy_stand_ins import IMPOSSIBLE, _card, _split
from rollem.text import ascii_digits


def _header(data: Mapping[str, Any]) -> tuple[int, list[str]]:
    """The copy's seat and lines, its fields checked as a full history's are."""
    parse_history({k: v for k, v in data.items() if k not in ("_redacted_for", "actions")})
    owner = data.get("_redacted_for")
    n = len(data["starting_stacks"])
    if type(owner) is not int or not 0 <= owner < n:
        raise HistoryError(f"_redacted_for must be a seat of the hand (0 to {n - 1}), "
                           f"got {owner!r}")
    lines = data.get("actions", [])
    if not isinstance(lines, list):
        raise HistoryError("actions must be a list of lines")
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise HistoryError(f"line {i + 1} of actions: each line must be a string")
    return owner, list(lines)


def _check_result(data: Mapping[str, Any], hand: Hand) -> None:
    result = data.get("_result")
    if result is None:
        return  # none recorded: as a full history may leave it out (redact keeps one)
    if not isinstance(result, Mapping):
        raise HistoryError("_result must be a table")
    if hand.result is None:
        raise HistoryError(f"{IMPOSSIBLE}: it records a _result but its actions do not "
                           "finish the hand")
    # the pots' chips and who may win them follow from the betting alone; the
    # winners need the hidden cards
    got = [(p["amount"], p["eligible"]) for p in hand.result.to_dict()["pots"]]
    pots = result.get("pots")
    want = [(p.get("amount"), p.get("eligible")) for p in pots if isinstance(p, Mapping)] \
        if isinstance(pots, list) else pots
    if want != got:
        raise HistoryError(f"{IMPOSSIBLE}: its _result pots (amount, eligible) {want!r} "
                           f"differ from its actions' {got!r}")


def _held_at_end(lines: Sequence[str], me: str) -> list[str]:
    """The cards the copy's lines deal ``me`` (``d dh`` / ``d du`` / ``d pd``)
    less those it throws (``dis`` / ``sd`` / ``draw``), in the order dealt: the
    seat's cards at the end, read from the lines (no replay needed)."""
    held: list[str] = []
    for line in lines:
        parts, _ = _split(line)
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "du", "pd") \
                and parts[2] == me:
            held += [str(_card(c)) for c in parts[3:] if c != "??"]
        elif len(parts) >= 2 and parts[0] == me and parts[1] in ("dis", "sd", "draw"):
            for c in parts[2:]:
                with contextlib.suppress(ValueError):
                    held.remove(str(_card(c)))
    return held


def _check_own_cards(lines: Sequence[str], me: str) -> None:
    """The seat's own cards as its lines tell them, for lines not replayed
    (after a reshuffle): no card dealt to it while it holds it, a draw
    (``sd`` / ``draw`` / ``dis``) throws only cards it holds, a stacking
    order (``stack``) is its cards, and it rolls them up in that order
    (R-521-2, R-521-4, R-521-6, R-521-7)."""
    held: list[str] = []
    order: list[str] = []
    for i, line in enumerate(lines):
        parts, comment = _split(line)
        where = f"line {i + 1} of actions ({line})"
        try:
            if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("dh", "du", "pd") \
                    and parts[2] == me:
                for c in (str(_card(t)) for t in parts[3:] if t != "??"):
                    if c in held:
                        raise HistoryError(f"{IMPOSSIBLE}: {where} deals you {c}, which you "
                                           "hold already")
                    held.append(c)
            elif len(parts) >= 2 and parts[0] == me and parts[1] in ("sd", "draw", "dis"):
                for c in (str(_card(t)) for t in parts[2:]):
                    if c not in held:
                        raise HistoryError(f"{IMPOSSIBLE}: {where} throws {c}, which is not "
                                           f"one of your cards ({' '.join(held)})")
                    held.remove(c)
            elif len(parts) >= 2 and parts[:2] == [me, "stack"]:
                order = [str(_card(t)) for t in parts[2:]]
                if sorted(order) != sorted(held):
                    raise HistoryError(f"{IMPOSSIBLE}: {where} stacks cards that are not "
                                       f"your cards ({' '.join(held)})")
            elif not parts and comment[:2] == ["roll", me] and len(comment) >= 3:
                c = str(_card(comment[2]))
                if not order or order[0] != c:
                    top = f"{order[0]} on top" if order else "no card"
                    raise HistoryError(f"{IMPOSSIBLE}: {where} rolls up {c}, but your "
                                       f"stacking order has {top}")
                order.pop(0)
        except CardError as err:
            raise HistoryError(f"{IMPOSSIBLE}: {where}: {err}") from None


def _check_shows(data: Mapping[str, Any], lines: Sequence[str], seat: int,
                 hand: Hand | None) -> None:
    """The copy's shows (``sm`` lines), which the stand-in hand cannot check (its
    shows are of stand-ins): each names cards, none twice; the seat's own are
    cards it held; another seat's are no card the seat saw elsewhere at the end
    (its own cards, the board, a dead card, the wild card, a third seat's up
    cards; a folded seat's cards went to the muck, which a reshuffle reuses).
    """
    me = f"p{seat + 1}"
    parsed = [_split(line) for line in lines]
    # a folded seat's cards went to the muck, which only a later reshuffle (R-521-5)
    # deals again: without one they are still out of play at the showdown
    reshuffles = [i for i, (parts, comment) in enumerate(parsed)
                  if not parts and comment[:1] == ["reshuffle"]]
    folded = {parts[0] for i, (parts, _) in enumerate(parsed)
              if len(parts) >= 2 and parts[1] == "f" and any(r > i for r in reshuffles)}
    if hand is not None:
        mine = [str(c) for c in hand.view(seat).seats[seat].cards if c is not None]
    else:  # no stand-in hand to the end (a reshuffle): the seat's cards as its lines say
        try:
            mine = _held_at_end(lines, me)
        except CardError as err:
            raise HistoryError(f"{IMPOSSIBLE}: {err}") from None
    seen: dict[str, str] = {} if me in folded else {c: "one of your cards" for c in mine}
    for parts, _ in parsed:
        if len(parts) >= 3 and parts[0] == "d" and parts[1] in ("db", "dead", "wild"):
            place = {"db": "on the board", "dead": "a dead card", "wild": "the wild card"}
            seen.update((str(_card(c)), place[parts[1]]) for c in parts[2:])
    for s, cards in _turned_up(lines).items():
        if s not in folded and s != me:
            seen.update((str(_card(c)), f"{s}'s up card") for c in cards)
    for i, (parts, _) in enumerate(parsed):
        if len(parts) < 3 or parts[1] != "sm":
            continue
        where = f"line {i + 1} of actions ({lines[i]})"
        try:
            cards = [str(_card(c)) for c in parts[2:]]
        except CardError as err:
            raise HistoryError(f"{IMPOSSIBLE}: {where}: {err}") from None
        twice = next((c for c in cards if cards.count(c) > 1), None)
        if twice is not None:
            raise HistoryError(f"{IMPOSSIBLE}: {where} shows {twice} twice")
        for c in cards:
            if parts[0] == me and c not in mine:
                raise HistoryError(f"{IMPOSSIBLE}: {where} shows {c}, which is not one of "
                                   f"your cards ({' '.join(mine)})")
            other = seen.get(c)
            if parts[0] != me and other is not None and other != f"{parts[0]}'s up card":
                raise HistoryError(f"{IMPOSSIBLE}: {where} shows {c}, which is {other}")
    _check_shown_cards(data, parsed)


def _check_shown_cards(data: Mapping[str, Any],
                       parsed: Sequence[tuple[list[str], list[str]]]) -> None:
    """A recorded ``_result.shown_cards`` entry (seat -> cards) must be the cards
    of one of that seat's show lines (``pN sm``; order aside, as :func:`redact`
    reorders them): the result tells the showdown the lines tell."""
    result = data.get("_result")
    shown = result.get("shown_cards") if isinstance(result, Mapping) else None
    if shown is None:
        return
    if not isinstance(shown, Mapping):
        raise HistoryError("_result.shown_cards must be a table (seat -> cards)")
    shows: dict[str, list[set[str]]] = {}
    for parts, _ in parsed:
        if len(parts) >= 3 and parts[1] == "sm":
            shows.setdefault(parts[0], []).append({str(_card(c)) for c in parts[2:]})
    for s, cs in shown.items():
        if not ascii_digits(str(s)) or not isinstance(cs, list):
            raise HistoryError(f"_result.shown_cards: {s!r} = {cs!r} is not a seat's "
                               "list of cards")
        try:
            cards = {str(_card(c)) for c in cs}
        except (CardError, TypeError) as err:
            raise HistoryError(f"_result.shown_cards.{s}: {err}") from None
        who = f"p{int(s) + 1}"
        if cards not in shows.get(who, []):
            told = " / ".join(" ".join(sorted(c)) for c in shows.get(who, [])) or "none"
            raise HistoryError(f"{IMPOSSIBLE}: its _result.shown_cards says {who} showed "
                               f"{' '.join(map(str, cs))}, but its show lines say {told}")


def _check_net(data: Mapping[str, Any]) -> None:
    """A recorded ``_result.net`` (seat -> chips won or lost): no seat loses more
    than its stack, and the hand makes no chips: the nets sum to the chips
    carried in less those carried out (``_carry_in`` - ``_result.carried``)."""
    result = data.get("_result")
    net = result.get("net") if isinstance(result, Mapping) else None
    if net is None:
        return
    stacks = data["starting_stacks"]
    if not isinstance(net, Mapping) or not all(
            ascii_digits(str(s)) and int(s) < len(stacks) and type(c) is int
            for s, c in net.items()):
        raise HistoryError(f"_result.net must be a table of seats (0 to {len(stacks) - 1}) "
                           f"and whole chips, got {net!r}")
    for s, c in net.items():
        if c < -stacks[int(s)]:
            raise HistoryError(f"{IMPOSSIBLE}: its _result.net says seat {s} lost {-c}, more "
                               f"than its stack ({stacks[int(s)]})")
    carried = result.get("carried", 0) if isinstance(result, Mapping) else 0
    carry_in = data.get("_carry_in", 0)
    if type(carried) is int and type(carry_in) is int \
            and sum(net.values()) != carry_in - carried:
        raise HistoryError(f"{IMPOSSIBLE}: its _result.net sums to {sum(net.values())}, not "
                           f"{carry_in - carried} (chips carried in {carry_in}, carried out "
                           f"{carried}): a hand makes no chips")


def _check_bets(data: Mapping[str, Any], lines: Sequence[str]) -> None:
    """No bet or raise (``pN cbr X``, to ``X`` in the round) beyond the seat's
    whole stack: what can be checked of lines not replayed (after a reshuffle)."""
    stacks = data["starting_stacks"]
    for i, line in enumerate(lines):
        parts, _ = _split(line)
        if len(parts) < 3 or parts[1] != "cbr" or not ascii_digits(parts[0][1:]):
            continue
        s = int(parts[0][1:]) - 1
        if not ascii_digits(parts[2]) or not 0 <= s < len(stacks):
            raise HistoryError(f"{IMPOSSIBLE}: line {i + 1} of actions ({line}): a bet names "
                               "a seat of the hand and whole chips")
        if int(parts[2]) > stacks[s]:
            raise HistoryError(f"{IMPOSSIBLE}: line {i + 1} of actions ({line}) bets "
                               f"{parts[2]}, more than {parts[0]}'s stack ({stacks[s]})")


def _check_winnings(data: Mapping[str, Any], hand: Hand) -> None:
    """A recorded ``_result.net`` against its pots: each seat's net is the chips
    the recorded pots' ``winners`` give it less the chips it put in the pot,
    ``hand.committed`` (antes and bets, an uncalled bet returned), which follow
    from the betting alone (the winners need the hidden cards, so they are
    taken as recorded here, and checked against the shown cards by
    :func:`_check_showdown`). R-C-9, R-C-10."""
    result = data.get("_result")
    if not isinstance(result, Mapping) or hand.result is None:
        return
    net, pots = result.get("net"), result.get("pots")
    if not isinstance(net, Mapping) or not isinstance(pots, list):
        return  # none recorded (or a bad one, which _check_net / _check_result name)
    won = [0] * hand.n
    for i, pot in enumerate(pots):
        winners = pot.get("winners", {}) if isinstance(pot, Mapping) else None
        if not isinstance(winners, Mapping) or not all(
                ascii_digits(str(s)) and int(s) < hand.n and type(c) is int and c >= 0
                for s, c in winners.items()):
            raise HistoryError(f"_result.pots[{i}].winners must be a table of seats (0 to "
                               f"{hand.n - 1}) and whole chips, got {winners!r}")
        for s, c in winners.items():
            won[int(s)] += c
    for s, c in sorted(net.items(), key=lambda item: int(item[0])):
        seat = int(s)
        put_in = hand.committed[seat]
        if c != won[seat] - put_in:
            raise HistoryError(
                f"{IMPOSSIBLE}: its _result.net says seat {s} made {c:+d}, but it put "
                f"{put_in} in the pot and its _result.pots give it {won[seat]}: "
                f"{won[seat] - put_in:+d}")


def _check_finishing_stacks(data: Mapping[str, Any]) -> None:
    """A recorded ``finishing_stacks`` must be each seat's starting stack plus its
    ``_result.net`` (a seat the net leaves out was not dealt in: unchanged), as
    :func:`rollem.history.write_history` writes them (chips carried in or out
    are in the nets). R-C-9."""
    finishing = data.get("finishing_stacks")
    result = data.get("_result")
    net = result.get("net") if isinstance(result, Mapping) else None
    if finishing is None or not isinstance(net, Mapping):
        return
    stacks = data["starting_stacks"]
    if not isinstance(finishing, list) or len(finishing) != len(stacks) or not all(
            type(c) is int for c in finishing):
        raise HistoryError(f"finishing_stacks must be a list of {len(stacks)} whole numbers "
                           f"of chips, got {finishing!r}")
    want = [c + net.get(str(s), 0) for s, c in enumerate(stacks)]
    if finishing != want:
        raise HistoryError(f"{IMPOSSIBLE}: its finishing_stacks {finishing} are not its "
                           f"starting stacks plus its _result.net: {want}")




def check_forced_bets(data: Mapping[str, Any], hand: Hand) -> None:
    """The PHH header's forced bets and bet sizes must be what ``hand`` (the
    history replayed under its ``_options``) posted, as :func:`rollem.history.
    history_dict` writes them: ``antes`` (each seat dealt in: the ante option, or a
    bomb pot's ante, where the game takes antes; 0 otherwise; a seat not dealt in
    may say 0 or the ante), ``blinds_or_straddles`` (the chips each seat posted)
    and ``small_bet``/``big_bet`` (the options'). A field left out is not checked.
    The narration reads the header (its "ante 1" line and each ante), the replay
    the options: a header that contradicts them cannot be told faithfully (R-C-13).

    Raises:
        HistoryError: a field that differs, naming both values.
    """
    opts = hand.options
    if "_options" not in data:
        return  # the header is the options (read_history takes them from it)
    for key, value in (("small_bet", opts.small_bet), ("big_bet", opts.big_bet)):
        if key in data and data[key] != value:
            raise HistoryError(f"{key} = {data[key]!r} contradicts _options ({key} = {value})")
    ante = opts.bomb_pot or opts.ante
    takes = any(e.kind == "ante" for e in hand.events)
    if "antes" in data:
        given = data["antes"]
        want = [ante if takes and hand.dealt[s] else 0 for s in range(hand.n)]
        ok = isinstance(given, list) and len(given) == hand.n and all(
            type(g) is int and (g == w or (not hand.dealt[s] and g in (0, ante)))
            for s, (g, w) in enumerate(zip(given, want, strict=True)))
        if not ok:
            says = (f"ante = {opts.ante}" if not opts.bomb_pot
                    else f"a bomb pot's ante = {opts.bomb_pot}")
            game = "" if takes else f", and {hand.game.name} takes no antes"
            raise HistoryError(f"antes = {given!r} contradicts _options ({says}{game}): the "
                               f"hand's antes are {want}")
    if "blinds_or_straddles" in data:
        given = data["blinds_or_straddles"]
        posted = [0] * hand.n
        for e in hand.events:
            if e.kind == "blind" and e.seat is not None:
                posted[e.seat] += int(e.data["amount"])
        if given != posted:
            raise HistoryError(f"blinds_or_straddles = {given!r} contradicts _options: the "
                               f"hand posts {posted}")
