"""Replaying a standard PHH hand through rollem's engine (issue 29):
:func:`replay_phh`, :func:`read_phh`, :func:`read_phhs`, :func:`is_phh`."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from rollem import toml_input
from rollem.cards import CARDS, Card
from rollem.engine.actions import Bet, Call, Check, Draw, Fold, Raise
from rollem.engine.errors import EngineError
from rollem.engine.hand import Hand
from rollem.engine.options import Options
from rollem.engine.steps import Ante
from rollem.phh.deal import (
    CardPreset,
    MuckHidden,
    Parsed,
    PostAntes,
    chip_list,
    chips,
    parse_actions,
    phh_cards,
    phh_game,
    reveal,
)
from rollem.phh.units import chip_scale, in_units, scale_note, to_chips
from rollem.phh.variants import (
    MAX_HANDS,
    NOT_PLAYED,
    VARIANTS,
    PHHError,
    Variant,
    variant_game,
)

__all__ = ["PHHHand", "is_phh", "read_phh", "read_phhs", "replay_phh"]


@dataclass
class PHHHand:
    """A standard PHH hand replayed by rollem.

    Attributes:
        variant: the PHH variant code.
        hand: the engine's hand (PHH player ``i`` is seat ``i``, the button
            the last seat). Dead antes (``ante_trimming_status`` false) are
            its ``carry_in``, so its ``start_stacks`` are the PHH stacks less
            the antes; trimmed antes are posted by its first step.
        starting_stacks: the file's starting stacks, in PHH player order.
        finishing_stacks: each player's chips after the hand (``None`` when
            the actions stop before the end of the hand).
        players: the names (``players``), else ``p1``, ``p2`` ...
        antes: the ante each player posted (heads-up, PHH's ``antes``
            reversed, as PHH says; at most its stack; trimmed to the second
            largest with ``ante_trimming_status``).
        unknown: seats whose cards the file does not tell (``??``) and that
            rollem played with stand-in cards.
        fields: the file's other fields, kept as they were.
        filled: the actions the file leaves out, filled in as PokerKit does
            (a check where the player may check, else a fold), one line each.
        differences: what the file records that the replay contradicts
            (``check_result=False``), one line each.
        scale: chips a unit of the file's amounts (1, or ``10 ** places``
            for a file with decimal amounts, :mod:`rollem.phh.units`); the
            stacks, antes and the hand are in chips.
        hidden_cards: the cards the file hides (``??``) where they are dealt:
            the stand-ins rollem dealt for them, and those a show tells.
    """

    variant: str
    hand: Hand
    starting_stacks: list[int]
    finishing_stacks: list[int] | None
    players: list[str]
    antes: list[int]
    unknown: set[int] = field(default_factory=set)
    fields: dict[str, Any] = field(default_factory=dict)
    filled: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    scale: int = 1
    hidden_cards: frozenset[Card] = frozenset()

    def units(self, chips: int) -> int | Decimal:
        """``chips`` in the file's unit (:func:`~rollem.phh.units.in_units`)."""
        return in_units(chips, self.scale)

    def to_json(self) -> dict[str, Any]:
        """``rollem replay FILE.phh --json``: ``variant``, ``game``, ``players``,
        ``starting_stacks``, ``finishing_stacks`` (PHH player order; in the
        file's unit, as decimal numbers when its amounts are decimal, with
        ``chip_unit`` the value of one chip), and the engine's
        ``pots``/``shown``/``net`` by seat (= PHH player index; the pots in
        chips)."""

        def unit(chips: int) -> int | float:
            value = self.units(chips)
            return value if isinstance(value, int) else float(value)

        out: dict[str, Any] = {
            "variant": self.variant,
            "game": self.hand.game.id,
            "players": self.players,
            "starting_stacks": [unit(s) for s in self.starting_stacks],
            "finishing_stacks": (None if self.finishing_stacks is None
                                 else [unit(s) for s in self.finishing_stacks]),
        }
        if self.scale != 1:
            out["chip_unit"] = float(Decimal(1) / self.scale)
        if self.filled:
            out["filled_in"] = self.filled
        r = self.hand.result
        if r is not None:
            d = r.to_dict()
            out["pots"] = d["pots"]
            out["shown"] = d["shown"]
            out["net"] = {str(i): unit(f - s) for i, (f, s) in enumerate(
                zip(self.finishing_stacks or [], self.starting_stacks, strict=True))}
        return out


def _variant(data: Mapping[str, Any]) -> Variant:
    code = data.get("variant")
    if not isinstance(code, str):
        raise PHHError("variant must be a PHH variant code (e.g. NT)")
    if code in VARIANTS:
        return VARIANTS[code]
    allowed = ", ".join(VARIANTS)
    if code in NOT_PLAYED:
        raise PHHError(f"variant {code} ({NOT_PLAYED[code]}) is not a game rollem plays; "
                       f"rollem replays {allowed}")
    raise PHHError(f"unknown PHH variant {code[:40]!r}; rollem replays {allowed}")


def _options(v: Variant, data: Mapping[str, Any], n: int) -> Options:
    house: dict[str, int] = {}
    if not v.min_bet:
        small = chips(data.get("small_bet"), "small_bet")
        big = chips(data.get("big_bet"), "big_bet")
    else:
        small = big = chips(data.get("min_bet"), "min_bet")
    if v.game in ("stud", "stud8", "razz"):
        if "blinds_or_straddles" in data and any(
                chip_list(data, "blinds_or_straddles", n)):
            raise PHHError(f"blinds_or_straddles: {v.code} has a bring-in, not blinds")
        house["bring_in"] = chips(data.get("bring_in"), "bring_in")
    else:
        if data.get("bring_in"):
            raise PHHError(f"bring_in: {v.code} has blinds, not a bring-in")
        blinds = chip_list(data, "blinds_or_straddles", n)
        if _button_blind(blinds):  # posted by ButtonBlind (phh_game)
            house.update(small_blind=0, big_blind=blinds[-1], straddle=0)
            blinds = [0] * n
        tail = blinds[3:] if n > 2 else []
        if any(tail) or (n == 2 and len(blinds) > 2 and any(blinds[2:])):
            raise PHHError("blinds_or_straddles: rollem plays a small and a big blind and "
                           f"one straddle under the gun (the first three), got {blinds}")
        straddle = blinds[2] if n > 2 else 0
        if not blinds[0] <= blinds[1] or (straddle and straddle < blinds[1]):
            raise PHHError(f"blinds_or_straddles {blinds}: the small blind, the big blind and "
                           "a straddle must be in increasing order")
        house.update(small_blind=blinds[0], big_blind=blinds[1], straddle=straddle)
    if small < 1 or big < 1:
        raise PHHError("the bets (small_bet, big_bet, min_bet) must be at least 1 chip")
    return Options(structure=v.structure, ante=0, small_bet=small, big_bet=big,
                   caps=v.caps, house=house)


def _button_blind(blinds: list[int]) -> int:
    """The blind the button posts alone (three players or more: PHH's last
    entry, the others 0), else 0."""
    return blinds[-1] if len(blinds) > 2 and blinds[-1] and not any(blinds[:-1]) else 0


def _names(data: Mapping[str, Any], n: int) -> list[str]:
    """The players' names: ``players``, a blank one (``""``) named as PHH names the
    player (``p2``), else ``p1``, ``p2`` ... for all.

    Raises:
        PHHError: ``players`` not ``n`` texts, or two names that read as one (case and
            spaces aside, :func:`rollem.text.name_key`): the hand told with them
            could not say who did what (s58-tidy).
    """
    from rollem.text import same_name, same_name_refusal

    players = data.get("players")
    if players is None:
        return [f"p{i + 1}" for i in range(n)]
    if not isinstance(players, list) or len(players) != n or not all(
            isinstance(x, str) for x in players):
        raise PHHError(f"players must be {n} names, one a starting stack")
    # (a name is kept as written, control characters and all: the narration shows
    # them as ^J, ^I (rollem.text.name_safe), never as the line breaks they are)
    names = [x if x.strip() else f"p{i + 1}" for i, x in enumerate(players)]
    pair = same_name(names)
    if pair is not None:
        raise PHHError(same_name_refusal(names, *pair)
                       + " (or leave players out: p1, p2 ... name them)")
    return names


_PER_PLAYER = {"seats": "seat numbers (whole numbers)", "winnings": "amounts won",
               "time_banks": "times"}
"""phh-std's optional fields with one entry a player, and what each entry is."""


_WHOLE_KEPT = ("seat_count", "level", "day", "month", "year", "time_limit")
"""phh-std's optional fields kept as they are (:data:`_PHH_KEPT`) that are whole
numbers (PokerKit's ``HandHistory`` reads them as ``int``)."""


def _shown_list(value: list[Any]) -> str:
    return ("[" + ", ".join(map(str, value)) + "]")[:60]


def _check_per_player(data: Mapping[str, Any], n: int) -> None:
    """``seats``, ``winnings`` and ``time_banks``, where given, hold one entry a
    player, each a number (``seats``: a whole number from 1, none twice: the
    players' seats; phh-std's Position: every per-player array is as long as
    the players). Not compared with the replay: ``winnings`` are after the
    rake, and the rest is not play. ``seat_count``, ``level``, ``day``,
    ``month``, ``year`` and ``time_limit``, where given, are whole numbers (not
    ``"4"``): they are written out again as they are.

    Raises:
        PHHError: a field that is not a list of ``n`` such entries, naming it.
    """
    for key, what in _PER_PLAYER.items():
        value = data.get(key)
        if value is None:
            continue
        kinds = (int,) if key == "seats" else (int, float, Decimal)  # (toml_input: Decimal)
        if not isinstance(value, list) or len(value) != n or not all(
                type(x) in kinds for x in value):
            shown = "[" + ", ".join(repr(x) if isinstance(x, str) else str(x)
                                    for x in value) + "]" if isinstance(value, list) \
                else repr(value)  # (s62-term: ["1", "2"] was shown as [1, 2])
            raise PHHError(f"{key} must be {n} {what}, one a player, got {shown[:60]}")
        if key == "seats" and (any(x < 1 for x in value) or len(set(value)) != n):
            raise PHHError(f"seats must be {n} seat numbers, each a whole number from 1 and "
                           f"none twice, got {_shown_list(value)}")
    for key in _WHOLE_KEPT:  # (s62-term: seat_count = "4" was kept, and written out)
        value = data.get(key)
        if value is not None and type(value) is not int:
            shown = repr(value) if isinstance(value, str) else str(value)
            raise PHHError(f"{key} must be a whole number (phh-std), got {shown[:40]}")


_FIELDS = ("variant", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet",
           "min_bet", "starting_stacks", "actions", "players", "finishing_stacks",
           "ante_trimming_status")


_PHH_KEPT = ("author", "event", "url", "address", "city", "region", "postal_code", "country",
             "time", "time_zone", "time_zone_abbreviation", "day", "month", "year", "hand",
             "level", "seat_count", "table", "currency", "currency_symbol", "time_limit",
             "rake", "total_pot_amount")
"""phh-std's other optional fields: kept as they are, not read (never a misspelling)."""


def _misspelt(data: Mapping[str, Any]) -> list[str]:
    """A field that is not one rollem reads but reads as a misspelling of one the
    file leaves out (``finishing_stack``, ``player``, ``blinds``): that field would
    be lost without a word (its check skipped, its names not used), one line each
    (s58-tidy).  Other fields of the file are kept as they are (phh-std has many
    rollem does not read; a user's own start with ``_``)."""
    from difflib import get_close_matches

    read = (*_FIELDS, *_PER_PLAYER)
    out = []
    for key in data:
        if not isinstance(key, str) or key in read or key in _PHH_KEPT or key.startswith("_"):
            continue
        meant = [f for f in read if len(key) >= 4 and f.startswith(key.lower())] \
            or get_close_matches(key.lower(), read, n=1, cutoff=0.8)
        if meant and meant[0] not in data:
            out.append(f"{key[:40]!r} is not a field rollem reads: did you mean "
                       f"{meant[0]!r}? (fields of your own start with '_')")
    return out


def replay_phh(data: Mapping[str, Any], *, at: int | None = None,
               check_result: bool = True) -> PHHHand:
    """Replay a standard PHH hand (its TOML table) through rollem's engine;
    with ``at``, only its first ``at`` player actions (``rollem odds
    --history``; what the file records after them is not checked). Without
    ``check_result`` a ``finishing_stacks`` the replay contradicts is noted
    in :attr:`PHHHand.differences` (``rollem replay --lenient``) instead.

    Raises:
        PHHError: a variant rollem does not play, a missing or malformed
            field, an amount with a fraction, an illegal action (naming its
            line), a result that depends on cards the file hides, or a
            ``finishing_stacks`` the replay contradicts. Amounts with a
            fraction are played in whole chips of the smallest unit they
            use (:mod:`rollem.phh.units`; at most six decimal places).
    """
    v = _variant(data)
    misspelt = _misspelt(data)
    if misspelt and check_result:
        raise PHHError(misspelt[0] + "; rollem replay --lenient replays without it")
    scale = chip_scale(data)
    file_actions = data.get("actions")
    data_before_chips = data
    data = to_chips(data, scale)
    raw_stacks = data.get("starting_stacks")
    if not isinstance(raw_stacks, list) or not 2 <= len(raw_stacks) <= 10:
        raise PHHError("starting_stacks must be a list of 2 to 10 stacks, one a player")
    n = len(raw_stacks)
    stacks = [chips(s, f"starting_stacks[{i}]") for i, s in enumerate(raw_stacks)]
    for i, s in enumerate(stacks):
        if s == 0:  # PokerKit refuses it too ("Non-positive starting stacks")
            raise PHHError(f"starting_stacks[{i}] is 0: every player of a PHH hand starts "
                           "with chips")
    antes = chip_list(data, "antes", n)
    if n == 2:  # PHH: heads-up, the antes (as the blinds) are reversed by rule
        antes.reverse()
    file_antes = list(antes)
    antes = [min(a, s) for a, s in zip(antes, stacks, strict=True)]  # a short stack's all
    trimmed = bool(data.get("ante_trimming_status"))
    if trimmed:  # as PokerKit: no ante above the second largest, counted as the player's
        cutoff = sorted(antes)[-2]
        antes = [min(a, cutoff) for a in antes]
    else:
        for i, (s, a) in enumerate(zip(stacks, antes, strict=True)):
            if s <= a:
                raise PHHError(f"starting_stacks[{i}] {s} is not more than the ante "
                               f"{file_antes[i]}: a "
                               "player all-in on a dead ante is not replayed (with "
                               "ante_trimming_status = true it is)")
    options = _options(v, data, n)
    button_blind = _button_blind(chip_list(data, "blinds_or_straddles", n)) \
        if "blinds_or_straddles" in data and v.game not in ("stud", "stud8", "razz") else 0
    if trimmed and len(set(file_antes)) == 1 and file_antes[0] > 0 and any(
            isinstance(step, Ante) for step in variant_game(v.game).build(options)):
        # equal antes posted by the game's own ante step (R-C-5), as PostAntes would
        options = replace(options, ante=file_antes[0])
        post: PostAntes | None = None
    else:
        post = PostAntes(antes)
    names = _names(data, n)
    _check_per_player(data, n)
    parsed = parse_actions(data.get("actions"), n)
    reveal(parsed)
    known = [c for cs in parsed.deals.values() for c in cs if c is not None] + parsed.board
    again = _thrown(parsed)  # a discarded card may be dealt again (a reshuffle)
    twice = [c for i, c in enumerate(known) if known[:i].count(c) > again.get(c, 0)]
    if twice:
        raise PHHError(f"card {CARDS[twice[0]]} is dealt twice; each card exists once (a "
                       "draw's discard may be dealt again)")
    deck = set(variant_game(v.game).deck)
    stray = [c for c in [*known, *parsed.discarded] if c not in deck]
    if stray:
        low = str(CARDS[min(deck)])[0]
        raise PHHError(f"card {CARDS[stray[0]]} is not in the {v.code} deck ({len(deck)} "
                       f"cards, {low} to A)")
    preset = CardPreset(parsed.deals, parsed.board, parsed.discarded)
    muck = MuckHidden(preset, parsed.mucked)
    try:
        if trimmed:
            hand = Hand(phh_game(v.game, muck, post, button_blind), stacks, button=n - 1,
                        options=options, preset=preset)
        else:  # dead antes: taken before the deal, into the main pot
            hand = Hand(phh_game(v.game, muck, None, button_blind),
                        [s - a for s, a in zip(stacks, antes, strict=True)], button=n - 1,
                        options=options, carry_in=sum(antes), preset=preset)
    except (EngineError, KeyError) as err:
        raise PHHError(f"{v.code}: {err}") from None
    if at is not None and not 0 <= at <= len(parsed.actions):
        raise PHHError(f"--at {at}: the hand has {len(parsed.actions)} player actions (dealer "
                       f"and show lines are not counted): expected 0 to {len(parsed.actions)}")
    filled: list[str] = []
    from_file: list[bool] = []
    idle: list[int] = []  # the lines of checks that change nothing (_lone_check)
    for seat, code, amount, line in parsed.actions[:at]:
        shown = amount if scale == 1 or code != "cbr" else _file_word(file_actions, line, amount)
        where = f"line {line} of actions (p{seat + 1} {code}" + (f" {shown}" if amount else "")
        where += ")"
        if code == "cc" and _lone_check(hand, seat):
            idle.append(line)  # PokerKit asks it; rollem's betting is over (R-C-14)
            continue
        try:
            from_file.extend([False] * _fill_in(hand, seat, where, filled))
            _apply(hand, seat, code, amount, where, preset.named - preset.stand_in_cards)
        except PHHError as err:
            if scale == 1:
                raise
            raise PHHError(f"{err} ({scale_note(data_before_chips, scale)})") from None
        from_file.append(True)
    _check_boards(hand, parsed, from_file, idle, partial=at is not None)
    if at is not None:
        return PHHHand(v.code, hand, stacks, None, names, antes, set(preset.stand_ins),
                       {k: data[k] for k in data if k not in _FIELDS}, filled, scale=scale)
    left = [s for s, q in preset.queues.items() if any(c is not None for c in q)]
    if hand.is_over and left:
        key = left[0]
        who = "the board" if key[0] == "db" else f"p{(key[1] or 0) + 1}"
        extra = " ".join(str(c) for c in preset.queues[key] if c is not None)
        raise PHHError(f"{v.code} deals fewer cards to {who} than the file names: {extra} "
                       "never dealt (the hand is over)")
    unknown = set(preset.stand_ins)
    if hand.is_over and hand.result is not None and hand.result.showdown \
            and preset.board_stand_ins:
        raise PHHError(f"the result depends on {preset.board_stand_ins} board card"
                       f"{'s' if preset.board_stand_ins != 1 else ''} the file does not "
                       "give: replayed to the showdown, but who wins cannot be told")
    if muck.untold:
        raise PHHError(muck.untold)
    finishing = list(hand.stacks) if hand.is_over else None
    differences: list[str] = [f"{line}: left out" for line in misspelt]
    recorded = data.get("finishing_stacks")
    if recorded is not None and finishing is not None:
        want = chip_list(data, "finishing_stacks", n)
        if want != finishing:
            message = (f"finishing_stacks {_listed(want, scale)} differ from the replay's "
                       f"{_listed(finishing, scale)}")
            if check_result:
                raise PHHError(message)
            differences.append(message)
    return PHHHand(v.code, hand, stacks, finishing, names, antes, unknown,
                   {k: data[k] for k in data if k not in _FIELDS}, filled, differences, scale,
                   frozenset(preset.stand_in_cards | parsed.revealed))


def _file_word(actions: object, line: int, amount: str) -> str:
    """The amount of line ``line`` of the file's ``actions`` as the file writes
    it (before :func:`~rollem.phh.units.to_chips`), else ``amount``."""
    if isinstance(actions, list) and 0 < line <= len(actions) \
            and isinstance(actions[line - 1], str):
        words = actions[line - 1].split("#", 1)[0].split()
        if len(words) == 3:
            return str(words[2])
    return amount


def _thrown(parsed: Parsed) -> dict[Card, int]:
    """How often the draws (``pN sd CARDS``) discard each card they name: a
    card the deck ran out of may come back (PokerKit, as rollem, reshuffles
    the discards and the muck when the deck runs out in a draw)."""
    out: dict[Card, int] = {}
    for _seat, code, text, line in parsed.actions:
        if code == "sd" and text:
            for c in phh_cards(text, f"line {line} of actions"):
                if c is not None:
                    out[c] = out.get(c, 0) + 1
    return out


def _listed(chips: list[int], scale: int) -> str:
    return "[" + ", ".join(str(in_units(c, scale)) for c in chips) + "]"


def _fill_in(hand: Hand, seat: int, where: str, filled: list[str]) -> int:
    """Before a player's action, each player whose turn it is instead checks
    where it may, else folds: an action the file leaves out, filled in as
    PokerKit fills it in (``HandHistory``'s repair). Returns how many were
    filled in and notes each in ``filled``."""
    count = 0
    while hand.pending is not None and hand.pending.kind == "bet" \
            and seat not in hand.pending.seats and count <= 2 * hand.n * 4:
        actor = hand.pending.seats[0]
        legal = hand.legal_actions(actor)
        if "check" in legal.actions:
            hand.apply(actor, Check())
            filled.append(f"p{actor + 1} checks (before {where})")
        elif "fold" in legal.actions:
            hand.apply(actor, Fold())
            filled.append(f"p{actor + 1} folds (before {where})")
        else:
            break
        count += 1
    return count


def _lone_check(hand: Hand, seat: int) -> bool:
    """Whether ``pN cc`` by ``seat`` is a check that changes nothing, which
    rollem's engine does not ask for: the seat is not asked now, is still in
    with chips behind, and every other player still in is all in. PokerKit
    asks such a player (a straddler whose blinds were called all in for less
    or folded to, a small blind over a short big blind; in a draw game before
    the draw) and writes its check."""
    p = hand.pending
    if (p is not None and p.kind == "bet" and seat in p.seats) or hand.folded[seat] \
            or hand.committed[seat] >= hand.start_stacks[seat]:
        return False
    return all(hand.committed[s] >= hand.start_stacks[s] for s in range(hand.n)
               if s != seat and hand.dealt[s] and not hand.folded[s])


def _check_boards(hand: Hand, parsed: Parsed, from_file: list[bool], idle: list[int],
                  *, partial: bool = False) -> None:
    """Each ``d db`` line deals what the game deals there: as many cards, after
    as many of the file's player actions (the flop after the first betting
    round ...), less the checks that change nothing (``idle``, their lines);
    ``partial``: the lines the replay has not reached are not checked."""
    dealt = []
    marks = hand.action_marks
    for i, ev in enumerate(hand.events):
        if ev.kind == "board":
            before = sum(1 for k, m in enumerate(marks) if m <= i and from_file[k])
            dealt.append((len(ev.data["cards"]), before))
    for k, (line, text, n, before) in enumerate(parsed.boards):
        where = f"line {line} of actions ({text})"
        before -= sum(1 for i in idle if i < line)
        if partial and k >= len(dealt):
            break
        if k >= len(dealt):
            raise PHHError(f"{where}: the game deals no more board cards here")
        want, at = dealt[k]
        if (n, before) != (want, at):
            raise PHHError(f"{where}: {n} board card{'s' if n != 1 else ''} after action "
                           f"{before}, where the game deals {want} after action {at}")


def _apply(hand: Hand, seat: int, code: str, amount: str, where: str,
           known: set[Card]) -> None:
    """One player action of the file (``known``: the cards the file names
    where they are dealt, less those dealt again as stand-ins)."""
    p = hand.pending
    if p is None:
        raise PHHError(f"{where}: the hand is over")
    if seat not in p.seats:
        waiting = ", ".join(f"p{s + 1}" for s in p.seats)
        raise PHHError(f"{where}: not p{seat + 1}'s turn (waiting for {waiting})")
    try:
        legal = hand.legal_actions(seat)
        if code == "sd":
            if p.kind != "draw":
                raise PHHError(f"{where}: a draw ('sd'), but the variant has no draw here "
                               f"(waiting for a {p.kind})")
            hand.apply(seat, Draw(_discards(hand, seat, amount, where, known)))
        elif code == "f":
            hand.apply(seat, Fold())
        elif code == "pb":
            if legal.call_amount <= 0 or "call" not in legal.actions:
                raise EngineError("no bring-in to post here")
            hand.apply(seat, Call())
        elif code == "cc":
            hand.apply(seat, Check() if "check" in legal.actions else Call())
        else:
            to = chips(_amount(amount, where), where)
            if "call" in legal.actions and legal.call_amount == hand.stacks[seat] \
                    and to == hand.bets[seat] + hand.stacks[seat]:
                # all in for no more than a call: a call (PokerKit writes a stud
                # bring-in by a stack of the bring-in or less as a completion)
                hand.apply(seat, Call())
            else:
                hand.apply(seat, Bet(to) if hand.current_bet == 0 else Raise(to))
    except EngineError as err:  # the engine's seat k is the file's p(k+1)
        told = re.sub(r"\bseat (\d+)\b", lambda m: f"p{int(m.group(1)) + 1}", str(err))
        raise PHHError(f"{where}: {told}") from None


def _discards(hand: Hand, seat: int, text: str, where: str,
              known: set[Card]) -> tuple[Card, ...]:
    """The cards ``pN sd CARDS`` discards: those it names; for each ``??``,
    and each named card the file hid where it was dealt (a folded player's
    ``????`` in the dataset), one of the player's stand-in cards (cards the
    file never names)."""
    cards = phh_cards(text, where) if text else []
    held = list(hand.hole[seat])
    named = [c for c in cards if c is not None and c in held]
    spare = [c for c in held if c not in known and c not in named]
    stray = [c for c in cards if c is not None and c not in held]
    if stray and not spare:
        raise PHHError(f"{where}: p{seat + 1} does not hold {CARDS[stray[0]]}")
    hidden = len(cards) - len(named)
    if hidden > len(spare):
        raise PHHError(f"{where}: p{seat + 1} discards {hidden} hidden cards but holds "
                       f"{len(spare)} the file does not name")
    return tuple(named + spare[:hidden])


def _amount(text: str, where: str) -> Decimal:
    try:
        return Decimal(text.replace(",", ""))
    except ArithmeticError:
        raise PHHError(f"{where}: {text[:20]!r} is not an amount") from None


def read_phh(text: str) -> dict[str, Any]:
    """One PHH hand's TOML table (amounts with a decimal point as
    :class:`~decimal.Decimal`, so ``0.1`` stays exact)."""
    try:
        data = toml_input.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as err:
        raise PHHError(f"not a TOML hand history: {err}") from None
    except RecursionError:  # tomllib recurses once per level of [ or {
        raise PHHError("not a hand history: arrays or tables nested too deeply") from None
    return data


def read_phhs(text: str) -> Iterator[tuple[str, Any]]:
    """The hands of a ``.phhs`` file: ``(name, table)`` for each top-level
    table (``[1]``, ``[2]`` ...), in file order.

    Raises:
        PHHError: not TOML, no hand (an empty file: ``rollem replay`` printed
            nothing and exited 0), more than :data:`MAX_HANDS` hands, or a
            top-level value that is not a table.
    """
    data = read_phh(text)
    if not data:
        raise PHHError("no hand in it (a .phhs file holds hands as [1], [2] ...)")
    if len(data) > MAX_HANDS:
        raise PHHError(f"{len(data)} hands in one .phhs file; at most {MAX_HANDS}")
    yield from data.items()


def is_phh(data: Mapping[str, Any]) -> bool:
    """A standard PHH hand (its variant is not ``rollem-...``)?"""
    variant = data.get("variant")
    return isinstance(variant, str) and not variant.startswith("rollem-")
