"""Writing standard PHH that PokerKit replays (issue 29): :func:`phh_dict`,
:func:`write_phh`, :func:`copy_phh_dict` (a player's own copy),
:func:`write_phhs`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import tomli_w

from rollem.cards import CARDS, parse_card
from rollem.engine.actions import Bet, Call, Check, Draw, Fold, Raise
from rollem.engine.forced import Blinds, BringIn
from rollem.engine.hand import Hand
from rollem.phh.variants import CODES, VARIANTS, PHHError

__all__ = ["copy_phh_dict", "phh_dict", "write_phh", "write_phhs"]


def _order(hand: Hand) -> list[int]:
    """rollem's dealt-in seats in PHH player order: from the button's left,
    the button last."""
    n = hand.n
    return [s for s in ((hand.button + 1 + i) % n for i in range(n)) if hand.dealt[s]]


@dataclass(frozen=True)
class _CopyView:
    """What a player's own copy tells (:func:`copy_phh_dict`): per seat, which
    of its dealt cards, in order, it hides (``??``); each shown hand's cards
    in dealt order; the copy's finishing stacks; the copy's seat."""

    hidden: Mapping[int, Sequence[bool]]
    shown: Mapping[int, Sequence[int]]
    finishing: Sequence[int] | None
    seat: int


def phh_dict(hand: Hand, *, players: Sequence[str] | None = None, code: str | None = None,
             _copy: _CopyView | None = None) -> dict[str, Any]:
    """``hand`` as a standard PHH table (PokerKit's ``HandHistory.loads``
    replays it to the same finishing stacks).

    PHH player ``i`` is the ``i``-th dealt-in seat from the button's left;
    ``_seats`` maps each player back to rollem's seat, ``_burns`` holds the
    burned cards (PHH has no burn line). Known differences in which PokerKit
    and rollem disagree (tests/pokerkit_diff.py): a fixed-limit all-in raise
    short of a full bet (R-C-6), and a hi-lo split pot's odd chip (R-C-10).

    ``code``: the variant code to write (a hand read from PHH keeps its
    file's, :mod:`rollem.phh.convert`: FO/8 is read pot limit); by default
    the game and structure's (:data:`~rollem.phh.variants.CODES`).

    Raises:
        PHHError: a game or betting structure with no PHH variant code, a
            hand run twice or a bomb pot, or forced bets PHH cannot state.
    """
    opts = hand.options
    if code is not None and (code not in VARIANTS or VARIANTS[code].game != hand.game.id):
        raise PHHError(f"variant {code[:20]!r} is not a PHH code of {hand.game.id}")
    code = code or CODES.get((hand.game.id, opts.structure))
    if code is None:
        # (the list of PHH's games and structures, here before, made the error line
        # too long: it was cut in its middle; the help lists them)
        raise PHHError(f"{hand.game.id} ({opts.structure}) has no PHH variant code (the "
                       "games PHH has: rollem export --help); its rollem history is its "
                       "only form")
    order = _order(hand)
    index = {s: i for i, s in enumerate(order)}
    n = len(order)
    out: dict[str, Any] = {"variant": code, "ante_trimming_status": True}
    ante = next((int(e.data["amount"]) for e in hand.events if e.kind == "ante"), 0)
    ante = opts.ante if ante else 0
    out["antes"] = [ante] * n
    if hand.result is not None and hand.result.runs:
        raise PHHError("a hand run twice has no PHH form (phh-std 0.0.2 has one board); "
                       "its rollem history keeps both runs")
    if any(e.kind == "bomb_pot" for e in hand.events):
        # (written before as antes of 0 and no blinds field: neither PokerKit nor
        # rollem read that file back)
        raise PHHError("a bomb pot has no PHH form (phh-std 0.0.2 has no hand without "
                       "its first betting round); its rollem history is its only form")
    if any(isinstance(s, Blinds) for s in hand.steps):
        # the blinds and any straddle as posted this hand (a player's opt-in straddle
        # too, issue 27), each under its PHH player
        posted = [0] * n
        for e in hand.events:
            if e.kind == "blind" and e.seat is not None:
                if e.data.get("blind") == "straddle" and (n == 2 or index[e.seat] != 2):
                    raise PHHError("a straddle other than under the gun (heads-up, or "
                                   "Mississippi from the button) has no PHH form")
                posted[index[e.seat]] += int(e.data["amount"])
        blinds = next(s for s in hand.steps if isinstance(s, Blinds))
        if n == 2 or not any(posted):  # (PHH heads-up: small then big, as PokerKit
            posted = [blinds.small, blinds.big] + [0] * (n - 2)  # reads them)
        out["blinds_or_straddles"] = posted
    bring = [s for s in hand.steps if isinstance(s, BringIn)]
    if bring:
        out["bring_in"] = bring[0].amount
    if not VARIANTS[code].min_bet:
        out["small_bet"] = opts.small_bet
        out["big_bet"] = opts.big_bet
    else:
        out["min_bet"] = opts.small_bet
    out["starting_stacks"] = [hand.start_stacks[s] for s in order]
    out["actions"] = _actions(hand, index, _copy)
    names = list(players) if players is not None else [f"seat {s}" for s in range(hand.n)]
    out["players"] = [names[s] for s in order]
    if _copy is not None:
        if _copy.finishing is not None:
            out["finishing_stacks"] = [_copy.finishing[s] for s in order]
    elif hand.result is not None:
        out["finishing_stacks"] = [hand.stacks[s] for s in order]
    out["_seats"] = order
    out["_burns"] = "".join("??" if _copy is not None else str(CARDS[e.data["card"]])
                            for e in hand.events if e.kind == "burn")
    if _copy is not None:
        out["_redacted_for"] = index[_copy.seat]
    return out


def copy_phh_dict(data: Mapping[str, Any]) -> dict[str, Any]:
    """A player's own copy (``_redacted_for``, :func:`rollem.history.redact`)
    as standard PHH: the cards it hides are ``??`` (``????`` for two), each
    shown hand is the cards the copy shows (in dealt order, so a stud
    hand's up cards stay where they were dealt), the finishing stacks are
    the copy's; ``_redacted_for`` is the PHH player index of its seat.
    PokerKit replays it to the copy's finishing stacks (a hidden hand that
    reached the showdown was mucked: it could win nothing, R-C-11).

    Raises:
        rollem.history.HistoryError: the copy describes no hand that can
            happen (:func:`rollem.history_copy.own_copy_hand`).
        PHHError: a game with no PHH variant code, or a copy that ran out of
            cards (reshuffled, which no PHH game does).
    """
    from rollem.history_copy import own_copy_hand

    hand = own_copy_hand(data)
    seat = int(data["_redacted_for"])
    hidden: dict[int, list[bool]] = {s: [] for s in range(hand.n)}
    dealt: dict[int, list[str]] = {s: [] for s in range(hand.n)}
    raw = data.get("actions")
    for line in raw if isinstance(raw, list) else []:
        words = str(line).split("#", 1)[0].split()
        if len(words) >= 4 and words[0] == "d" and words[1] in ("dh", "du"):
            s = int(words[2][1:]) - 1
            text = "".join(words[3:])
            tokens = [text[i:i + 2] for i in range(0, len(text), 2)]
            dealt[s].extend(tokens)
            hidden[s].extend(t == "??" for t in tokens)
    for s in range(hand.n):  # a copy may leave dealer lines out: those cards are hidden
        missing = len(hand.hole[s]) - len(hidden[s])
        if s != seat and missing > 0:
            hidden[s].extend([True] * missing)
            dealt[s].extend(["??"] * missing)
    result = data.get("_result")
    shown: dict[int, list[int]] = {}
    if isinstance(result, Mapping) and isinstance(result.get("shown_cards"), Mapping):
        for key, cards in result["shown_cards"].items():
            s = int(key)
            cs = [int(parse_card(str(c))) for c in (cards.split() if isinstance(cards, str)
                                                     else cards)]
            shown[s] = _in_dealt_order(cs, dealt[s])
    finishing = data.get("finishing_stacks")
    if not isinstance(finishing, list) and isinstance(result, Mapping) and isinstance(
            result.get("net"), Mapping):
        net = result["net"]
        finishing = [hand.start_stacks[s] + int(net.get(str(s), 0)) for s in range(hand.n)]
    view = _CopyView(hidden, shown, finishing if isinstance(finishing, list) else None, seat)
    names = data.get("players")
    table = phh_dict(hand, players=names if isinstance(names, list) and len(names) == hand.n
                     else None, _copy=view)
    if hand.is_over:
        return table
    # a draw ran the deck out and reshuffled, which the copy's stand-ins stop
    # before (own_copy_hand): the copy's own lines, as PHH, from the start
    index = {s: i for i, s in enumerate(table["_seats"])}
    table["actions"] = _copy_lines(raw if isinstance(raw, list) else [], index)
    table["_burns"] = ""
    from rollem.phh.read import replay_phh

    try:
        again = replay_phh(table)
    except PHHError as err:
        raise PHHError(f"this copy ran out of cards (a reshuffle) and its PHH form does not "
                       f"replay: {err}") from None
    if again.finishing_stacks is None:
        raise PHHError("this copy ran out of cards (a reshuffle) and its PHH form stops "
                       "before the end of the hand")
    return table


def _copy_lines(lines: Sequence[object], index: Mapping[int, int]) -> list[str]:
    """A copy's own action lines as PHH's (a copy that reshuffled, written as
    it records the hand; its hidden cards stay ``??``): players renumbered
    (``index``: rollem seat -> PHH player index), the first deals in player
    order, each draw's replacements after the round's discards (as PokerKit
    deals them), comments, burns and reshuffle notes left out."""
    first: list[str] = []
    out: list[str] = []
    deals: list[str] = []

    def player(token: str) -> str:
        return f"p{index[int(token[1:]) - 1] + 1}"

    for line in lines:
        words = str(line).split("#", 1)[0].split()
        if len(words) < 2:
            continue
        if words[0] == "d":
            if words[1] == "dh" and len(words) == 4:
                dealt = f"d dh {player(words[2])} {words[3]}"
                (deals if out else first).append(dealt)
            continue  # (a burn: PHH has no burn line)
        if words[1] != "sd":
            out.extend(deals)
            deals.clear()
        out.append(" ".join([player(words[0]), *words[1:]]))
    first.sort(key=lambda ln: int(ln.split()[2][1:]))
    return first + out + deals


def _actions(hand: Hand, index: Mapping[int, int], view: _CopyView | None = None) -> list[str]:
    """PHH action lines: hole cards per player and street run together (down
    and up cards alike), board cards, the players' actions (the bring-in as
    ``pb``); no burns; at a showdown every contender's show (``pN sm``)
    right after the last player action (with none, all in on the blinds:
    after the hole cards), where PokerKit shows them (before
    an all-in runout's cards), in the order the engine shows them. Who wins
    is the cards' doing, as in rollem
    (R-C-11): a losing hand shown changes nothing."""
    lines: list[str] = []
    pending: dict[int, list[int]] = {}
    marks = hand.action_marks
    k = 0

    dealt: dict[int, list[int]] = {}
    gone: dict[int, set[int]] = {}  # each seat's discards (a draw game's)

    def text(s: int, cards: Sequence[int], first: int) -> str:
        if view is None:
            return "".join(str(CARDS[c]) for c in cards)
        mask = view.hidden.get(s, ())
        return "".join("??" if first + k < len(mask) and mask[first + k] else str(CARDS[c])
                       for k, c in enumerate(cards))

    def flush() -> None:
        for s in sorted(pending, key=lambda x: index[x]):
            first = len(dealt.get(s, []))
            dealt.setdefault(s, []).extend(pending[s])
            lines.append(f"d dh p{index[s] + 1} " + text(s, pending[s], first))
        pending.clear()

    drawn: list[tuple[int, list[int]]] = []  # a draw round's replacements, dealt after it

    def flush_draws() -> None:  # as PokerKit: every discard of the round, then the deals
        for s, cards in drawn:
            first = len(dealt.get(s, []))
            dealt.setdefault(s, []).extend(cards)
            lines.append(f"d dh p{index[s] + 1} " + text(s, cards, first))
        drawn.clear()

    def act(i_event: int) -> None:
        nonlocal k
        while k < len(marks) and (i_event < 0 or marks[k] == i_event):
            seat, action = hand.actions[k]
            k += 1
            flush()
            if not isinstance(action, Draw):
                flush_draws()
            p = f"p{index[seat] + 1}"
            if isinstance(action, Fold):
                lines.append(f"{p} f")
            elif isinstance(action, Check | Call):
                lines.append(f"{p} cc")
            elif isinstance(action, Bet | Raise):
                lines.append(f"{p} cbr {action.amount if isinstance(action, Bet) else action.to}")
            elif isinstance(action, Draw):  # the cards discarded; another's hidden in a copy
                gone.setdefault(seat, set()).update(action.cards)
                shown = ("??" * len(action.cards) if view is not None and seat != view.seat
                         else "".join(str(CARDS[c]) for c in action.cards))
                lines.append(f"{p} sd {shown}".rstrip())

    at = -1  # where the shows go: after the last player action (before an all-in runout)
    held: dict[int, list[int]] = {}
    for i, ev in enumerate(hand.events):
        act(i)
        if k == len(marks) and at < 0 and marks:
            at = len(lines)
            held = {s: [c for c in cs if c not in gone.get(s, ())] for s, cs in dealt.items()}
        if ev.kind in ("round", "round_skipped"):
            flush_draws()
            flush()
        elif ev.kind in ("deal_hole", "deal_up"):
            pending.setdefault(ev.seat or 0, []).extend(ev.data["cards"])
        elif ev.kind == "draw_deal":  # a draw's replacements, after the round's discards
            flush()
            drawn.append((ev.seat or 0, list(ev.data["cards"])))
        elif ev.kind == "board":
            flush()
            if at < 0 and not marks:  # no player acted (all in on the forced bets): the
                at = len(lines)  # shows go before the runout, after the hole cards
                held = {s: list(cs) for s, cs in dealt.items()}
            lines.append("d db " + "".join(str(CARDS[c]) for c in ev.data["cards"]))
        elif ev.kind == "bet" and ev.data.get("bring_in") and lines \
                and lines[-1] == f"p{index[ev.seat or 0] + 1} cc":
            lines[-1] = lines[-1][:-2] + "pb"
    act(-1)
    flush_draws()
    flush()
    if at < 0 or not hand.board:
        at = len(lines)
        held = {s: [c for c in cs if c not in gone.get(s, ())] for s, cs in dealt.items()}
    if hand.result is not None and hand.result.showdown:
        # every contender shows (a losing hand shown changes nothing; one mucked
        # before an all-in runout would forfeit in PokerKit)
        # in the order the engine shows them (R-C-11: the last aggressor first, then
        # clockwise), as PokerKit writes them; any other contender after, in PHH order
        shown = [e.seat for e in hand.events if e.kind in ("show", "muck")
                 and not e.data.get("by_choice") and e.seat is not None]
        first = {s: i for i, s in reversed(list(enumerate(shown)))}
        lines[at:at] = [_show(s, held[s], index, view)
                        for s in sorted(held, key=lambda x: (first.get(x, len(shown)), index[x]))
                        if not hand.folded[s]]
    return lines


def _in_dealt_order(shown: list[int], dealt: Sequence[str]) -> list[int]:
    """A shown hand in the order its cards were dealt: each card the copy
    names where it was dealt (a stud up card), the shown rest where it shows
    ``??``, in the order shown (as shown when the counts differ)."""
    if len(shown) != len(dealt):
        return shown
    known = {int(parse_card(t)) for t in dealt if t != "??"}
    rest = [c for c in shown if c not in known]
    out = []
    for t in dealt:
        if t != "??":
            out.append(int(parse_card(t)))
        elif rest:
            out.append(rest.pop(0))
    return out if len(out) == len(shown) else shown


def _show(seat: int, held: Sequence[int], index: Mapping[int, int],
          view: _CopyView | None) -> str:
    """A contender's ``sm`` line: its cards; in a copy, the cards the copy
    shows, the copy's seat's own, or ``????`` for a hand the copy hides (kept
    face down: a mucked hand, which could win nothing, R-C-11; PokerKit lets
    no player all-in muck)."""
    p = f"p{index[seat] + 1} sm"
    if view is not None and seat != view.seat:
        if seat not in view.shown:
            return f"{p} " + "??" * len(held)
        held = list(view.shown[seat])[:len(held)]
    return f"{p} " + "".join(str(CARDS[c]) for c in held)


def write_phh(hand: Hand, *, players: Sequence[str] | None = None) -> str:
    """``hand`` as standard PHH text (:func:`phh_dict`)."""
    return tomli_w.dumps(phh_dict(hand, players=players))


def write_phhs(tables: Sequence[Mapping[str, Any]]) -> str:
    """Several PHH hands as one ``.phhs`` text: tables ``[1]``, ``[2]`` ..."""
    return tomli_w.dumps({str(i + 1): dict(t) for i, t in enumerate(tables)})
