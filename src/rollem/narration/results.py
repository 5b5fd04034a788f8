"""Result sentences: per pot and per half, who won what with which hand, who
failed both ways and whose hand beat them, carried pots, and the viewer's own
hand when the viewer loses (R-C-9..R-C-11, R-521-9, R-RYO-9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rollem.cards import parse_card
from rollem.hands.high import high_value
from rollem.hands.low import low_value
from rollem.narration.hands import (
    half_words,
    hand_words,
    high_low_words,
    low_words,
    with_wild_note,
)
from rollem.narration.lines import Line
from rollem.narration.words import Names, and_list

__all__ = ["ResultFacts", "result_lines"]


@dataclass
class ResultFacts:
    """What the result sentences need besides the result itself (gathered
    from the hand's events by :class:`rollem.narration.Narrator`).

    Attributes:
        board: community cards every hand plays with (text).
        wild_ranks: wild rank characters (``"Q"``), R-RYO-7.
        options: the table options (``wild_duplicates``, ``natural_beats_wild``).
        declarations: seat -> ``"high"``/``"low"``/``"both"`` (R-521-8).
        failed: pot index -> seats that declared both and failed (R-521-9).
        my_cards: the viewer's own cards (text) for "your hand" when it loses.
        known: seat -> every card of that seat, where the narration saw them
            all (the viewer's own; everyone's in a full history).
    """

    board: list[str] = field(default_factory=list)
    wild_ranks: list[str] = field(default_factory=list)
    options: Mapping[str, Any] = field(default_factory=dict)
    declarations: dict[int, str] = field(default_factory=dict)
    failed: dict[int, list[int]] = field(default_factory=dict)
    my_cards: list[str] = field(default_factory=list)
    known: dict[int, list[str]] = field(default_factory=dict)
    own_words: bool = True
    """Word hands here (the built-in games); else keep the engine's description."""
    mucked: dict[int, str] = field(default_factory=dict)
    """Seat -> the engine's description of its mucked hand (the viewer's own only)."""


def _pot_label(i: int, n: int) -> str:
    if n == 1:
        return "the pot"
    return "the main pot" if i == 0 else f"side pot {i}"


def _seatmap(d: Mapping[Any, int] | None) -> dict[int, int]:
    return {int(k): int(v) for k, v in (d or {}).items()}


class _Writer:
    def __init__(self, result: Mapping[str, Any], names: Names, facts: ResultFacts) -> None:
        self.r = result
        self.names = names
        self.f = facts
        self.shown: dict[int, list[str]] = {int(k): list(v) for k, v in
                                            (result.get("shown_cards") or {}).items()}
        self.shown_desc: dict[int, str] = {int(k): str(v) for k, v in
                                           (result.get("shown") or {}).items()}
        # Told as a declare result only when the engine settled it so (pots with
        # halves): a game may ask for declarations yet settle high only.
        self.declared = bool(facts.declarations) and any(
            p.get("high") is not None for p in result.get("pots", []))

    # ------------------------------------------------------------ hands

    def cards_of(self, seat: int) -> list[str] | None:
        """The cards a seat plays (own cards plus the board), if known."""
        own = self.shown.get(seat)
        if own is None and seat == self.names.viewer and self.f.my_cards:
            own = self.f.my_cards
        if own is None:
            own = self.f.known.get(seat)
        if own is None:
            return None
        return own + [c for c in self.f.board if c not in own]

    def words(self, seat: int, side: str | None = None) -> str | None:
        """The seat's hand in words (``side``: the high or low half, or as declared)."""
        cards = self.cards_of(seat)
        if cards is None or len(cards) == 0 or not self.f.own_words:
            said = self.shown_desc.get(seat) or self.f.mucked.get(seat)
            if said and side in ("high", "low") and not self.declared:
                return half_words(said, side)   # a line about one half names that half
            if said and self.declared and (side or self.f.declarations.get(seat)) == "low":
                return low_words(said)  # the engine's low words named as a low (stop 54)
            if said and cards:  # a game file's words: what a wild card plays as (issue 33)
                return with_wild_note(said, cards, self.f.wild_ranks, self.f.options)
            return said
        if self.declared:
            return high_low_words(cards, side or self.f.declarations.get(seat, "high"))
        opts = self.f.options
        return hand_words(cards, wild_ranks=self.f.wild_ranks,
                          wild_duplicates=bool(opts.get("wild_duplicates", False)),
                          natural_beats_wild=bool(opts.get("natural_beats_wild", False)))

    def with_hand(self, seat: int, side: str | None = None) -> str:
        w = self.words(seat, side)
        return f" with {w}" if w else ""

    # ------------------------------------------------------------ sentences

    def line(self, text: str, kind: str, seat: int | None = None) -> Line:
        return Line(text, kind, seat, seat is not None and seat == self.names.viewer)

    def who_list(self, seats: Sequence[int]) -> str:
        return and_list([self.names.who(s, start=i == 0) for i, s in enumerate(seats)])

    def split_text(self, won: Mapping[int, int]) -> str:
        """``"Ann 5, Bob 5"`` / with an odd chip, who got it (R-C-10)."""
        parts = ", ".join(f"{self.names.who(s, start=False)} {c}" for s, c in won.items())
        amounts = set(won.values())
        if len(amounts) > 1:
            top = max(amounts)
            odd = [s for s, c in won.items() if c == top]
            parts += (f"; the odd chip{'s' if len(odd) > 1 else ''} to "
                      f"{self.who_list(odd).replace('You', 'you')}, first from the "
                      "dealer's left")
        return parts

    def high_only(self, i: int, n: int, pot: Mapping[str, Any], uncontested: bool) -> list[Line]:
        label = _pot_label(i, n)
        amount = int(pot["amount"])
        won = {s: c for s, c in _seatmap(pot.get("winners")).items()}
        if not won:
            return [self.line(f"Nobody wins {label} ({amount}).", "carry")]
        seats = list(won)
        if len(seats) == 1:
            s = seats[0]
            if uncontested:
                return [self.line(f"{self.names.says(s, 'win', 'wins')} {label} ({amount}): "
                                  "everyone else folded.", "win", s)]
            return [self.line(f"{self.names.says(s, 'win', 'wins')} {label} ({amount})"
                              f"{self.with_hand(s)}.", "win", s)]
        hands = {self.words(s) for s in seats}
        same = hands.pop() if len(hands) == 1 else None
        how = f", each with {same}" if same else ""
        out = [self.line(f"{self.who_list(seats)} split {label} ({amount}){how}: "
                         f"{self.split_text(won)}.", "split")]
        if not same:
            out += [self.line(f"{self.names.whose(s)} hand: {self.words(s)}.", "show", s)
                    for s in seats if self.words(s)]
        return out

    def beaters(self, seat: int, pot: Mapping[str, Any]) -> list[str]:
        """Why a both-ways declarer failed: whose hands beat or tied it (R-521-9)."""
        mine = self.cards_of(seat)
        if mine is None or not self.f.own_words:
            return []
        me = [parse_card(c) for c in mine]
        out = []
        for o in (int(x) for x in pot.get("eligible", [])):
            theirs = self.cards_of(o) if o != seat else None
            if theirs is None:
                continue
            other = [parse_card(c) for c in theirs]
            side = self.f.declarations.get(o, "high")
            for half, value in (("high", high_value), ("low", low_value)):
                if side not in (half, "both"):
                    continue
                a, b = value(other), value(me)
                if a >= b:
                    verb = "beats" if a > b else "ties"
                    # (after "collecting nothing from the pot: ", inside the sentence)
                    out.append(f"{self.names.whose(o, start=False)} "
                               f"{hand_words(other, low=half == 'low')} "
                               f"{verb} {self.names.whose(seat, start=False)} "
                               f"{hand_words(me, low=half == 'low')} for {half}")
        return out

    def failed_both(self, seat: int, i: int, n: int) -> Line | None:
        """A both-ways declarer's failure, told once for the hand (R-521-9): at the
        first pot ``i`` it failed in, naming every pot it failed in and whose hands
        beat or tied it there (each once); ``None`` at a later pot (s55: a failure
        in the main pot and a side pot was told twice, the side pot's beater again).
        ``n``: the number of pots."""
        where = [k for k in sorted(self.f.failed) if seat in self.f.failed[k]]
        if where[0] != i:
            return None
        pots = list(self.r.get("pots", []))
        why: list[str] = []
        for k in where:
            why += [w for w in self.beaters(seat, pots[k]) if w not in why]
        because = ": " + "; ".join(why) if why else ""
        label = and_list(_pot_label(k, n) for k in where)
        return self.line(
            f"{self.names.who(seat)} declared both and "
            f"{self.names.verb(seat, 'fail', 'fails')}, collecting nothing from {label}"
            f"{because}.", "failed_both", seat)

    def high_low(self, i: int, n: int, pot: Mapping[str, Any], uncontested: bool) -> list[Line]:
        label = _pot_label(i, n)
        amount = int(pot["amount"])
        high = _seatmap(pot.get("high"))
        low = _seatmap(pot.get("low"))
        out: list[Line] = []
        failed = self.f.failed.get(i, [])
        for s in failed:
            line = self.failed_both(s, i, n)
            if line is not None:
                out.append(line)
        if uncontested:
            won = _seatmap(pot.get("winners"))
            for s, c in won.items():
                out.append(self.line(f"{self.names.says(s, 'win', 'wins')} {label} ({c}): "
                                     "everyone else folded.", "win", s))
            return out
        if not high and not low:
            out.append(self.line(
                f"Nobody wins {label} ({amount}): every player in it declared both and "
                "failed, so it carries to the next hand.", "carry"))
            return out
        if high and low and set(high) == set(low) and len(high) == 1:
            s = next(iter(high))
            out.append(self.line(f"{self.names.says(s, 'scoop', 'scoops')} {label} ({amount})"
                                 f"{self.with_hand(s, 'both')}.", "scoop", s))
            return out
        if bool(high) != bool(low):
            side, won = ("high", high) if high else ("low", low)
            other = "low" if side == "high" else "high"
            seats = list(won)
            # declared (5-2-1): nobody left on the other side; cards speak: no qualifier
            reason = f"nobody is left on the {other} side" if self.declared \
                else f"no hand qualifies for {other}"
            for_side = f" for {side}" if self.declared else ""
            if len(seats) == 1:
                s = seats[0]
                out.append(self.line(
                    f"{self.names.says(s, 'win', 'wins')} the whole of {label} ({amount})"
                    f"{self.with_hand(s, side)}{for_side}: {reason}.", "win", s))
            else:
                out.append(self.line(
                    f"{self.who_list(seats)} split the whole of {label} ({amount}){for_side}: "
                    f"{self.split_text(won)}; {reason}.", "split"))
            return out
        hi_half, lo_half = sum(high.values()), sum(low.values())
        odd = " (the odd chip goes to the high half)" if hi_half > lo_half else ""
        out.append(self.line(f"{label[0].upper()}{label[1:]} ({amount}) is split: {hi_half} "
                             f"high, {lo_half} low{odd}.", "pot"))
        for side, won, half in (("high", high, hi_half), ("low", low, lo_half)):
            seats = list(won)
            if len(seats) == 1:
                s = seats[0]
                out.append(self.line(f"{side.capitalize()}: {self.names.who(s, start=False)} "
                                     f"{self.names.verb(s, 'win', 'wins')} {half}"
                                     f"{self.with_hand(s, side)}.", "half", s))
            else:
                hands = {self.words(s, side) for s in seats}
                same = hands.pop() if len(hands) == 1 else None
                how = f", each with {same}" if same else ""
                out.append(self.line(f"{side.capitalize()}: {self.who_list(seats)} split "
                                     f"{half}{how}: {self.split_text(won)}.", "half"))
        return out

    def losing(self) -> list[Line]:
        """The viewer's own hand when it won nothing at a showdown."""
        me = self.names.viewer
        net = _seatmap(self.r.get("net"))
        if me is None or me not in net:
            return []
        pots = self.r.get("pots", [])
        won = any(me in _seatmap(p.get("winners")) for p in pots)
        in_pots = any(me in [int(x) for x in p.get("eligible", [])] for p in pots)
        if won or not in_pots or me in [s for f in self.f.failed.values() for s in f]:
            return []
        words = self.words(me)
        if not words:
            return []
        # declared (5-2-1): only the hands that beat yours on the side(s) you
        # declared, not the other half's winner (R-521-8/9)
        mine = self.f.declarations.get(me, "high")
        sides = ("high", "low") if mine == "both" else (mine,)
        beat: list[tuple[int, str | None]] = []
        for p in pots:
            if me not in [int(x) for x in p.get("eligible", [])]:
                continue
            found: list[tuple[int, str | None]] = []
            if self.declared and p.get("high") is not None:
                found = [(s, side) for side in sides for s in _seatmap(p.get(side))]
            elif p.get("high") is not None:
                # cards speak, high and low: each half's winner with that half (one
                # who takes both halves with the whole hand; issue 26)
                high, low = _seatmap(p.get("high")), _seatmap(p.get("low"))
                found = [(s, None if s in low else "high") for s in high]
                found += [(s, "low") for s in low if s not in high]
            if not found:
                found = [(s, None) for s in _seatmap(p.get("winners"))]
            beat += [x for x in found if x[0] not in [b[0] for b in beat]]
        against = " to " + and_list(f"{self.names.whose(s, start=False)} {self.words(s, side)}"
                                    for s, side in beat if self.words(s, side)) if beat else ""
        if me in self.shown:  # (shown already: "You show 6d 9d: ..." told at the showdown;
            # "You show queen high, ...: it loses to" read as a second show, stop 54)
            return [self.line(f"Your {words} loses{against}.", "lose", me)]
        return [self.line(f"You muck {words}: it loses{against}.", "lose", me)]

    def runs(self, runs: Sequence[Mapping[str, Any]]) -> list[Line]:
        """A hand run twice (issue 27): each run's cards, then who won each pot's
        half in that run with which hand, then the net for the whole hand."""
        out: list[Line] = []
        for k, run in enumerate(runs):
            board = " ".join(str(c) for c in run.get("board", []))
            dead = " ".join(str(c) for c in run.get("dead", []))
            cards = f"{board}, dead {dead}" if dead and board else board or dead
            head = "Run it twice, first run" if k == 0 else "Second run"
            out.append(self.line(f"{head}: {cards}.", "run"))
            part = {"pots": run.get("pots", []), "shown": run.get("shown", {}),
                    "shown_cards": self.r.get("shown_cards", {})}
            facts = replace(self.f, board=[str(c) for c in run.get("board", [])])
            out += _Writer(part, self.names, facts).lines()
        return out + self.net_lines()

    def net_lines(self) -> list[Line]:
        net = _seatmap(self.r.get("net"))
        me = self.names.viewer
        if me is not None and me in net:
            c = net[me]
            word = "won" if c > 0 else "lost" if c < 0 else "broke even"
            amount = f" {abs(c)}" if c else ""
            return [self.line(f"This hand: you {word}{amount}.", "net", me)]
        if net:
            return [self.line("Net: " + ", ".join(f"{self.names.name(s)} {c:+d}"
                                                  for s, c in net.items()) + ".", "net")]
        return []

    def grouped_pots(self, pots: Sequence[Mapping[str, Any]],
                     uncontested: bool) -> list[Line] | None:
        """A hand with side pots each won whole by one player (no halves, no split,
        not folded to), told a line per winner rather than a line per pot:
        "Dan wins all 4 pots (160: the main pot 51, side pots 84, 9 and 16) with
        three fours, ace-queen.", "Cat wins the main pot and side pot 1 (69: 37
        and 32) with ...", a winner of one pot as before.  s61-night: the same
        winner told pot by pot, up to four sentences naming the same hand, read as
        that many results.  ``None`` for any other result (told pot by pot)."""
        if len(pots) < 2 or uncontested:
            return None
        if any(p.get("high") is not None for p in pots):
            return self.grouped_halves(pots)
        won = [_seatmap(p.get("winners")) for p in pots]
        if any(len(w) != 1 for w in won):
            return None
        n = len(pots)
        by: dict[int, list[int]] = {}
        for i, w in enumerate(won):
            by.setdefault(next(iter(w)), []).append(i)
        if len(by) == n:
            return None  # (a winner a pot: nothing to group)
        out: list[Line] = []
        for s, mine in by.items():
            amounts = [int(pots[i]["amount"]) for i in mine]
            if len(mine) == 1:
                label = _pot_label(mine[0], n)
                out.append(self.line(f"{self.names.says(s, 'win', 'wins')} {label} "
                                     f"({amounts[0]}){self.with_hand(s)}.", "win", s))
                continue
            if len(mine) == n:
                which = "both pots" if n == 2 else f"all {n} pots"
                sides = and_list(str(a) for a in amounts[1:])
                parts = f"the main pot {amounts[0]}, side pot{'s' if n > 2 else ''} {sides}"
            else:
                which = and_list(_pot_label(i, n) for i in mine)
                parts = and_list(str(a) for a in amounts)
            out.append(self.line(f"{self.names.says(s, 'win', 'wins')} {which} "
                                 f"({sum(amounts)}: {parts}){self.with_hand(s)}.", "win", s))
        return out

    def grouped_halves(self, pots: Sequence[Mapping[str, Any]]) -> list[Line] | None:
        """A high-low hand (5-2-1 declared, or cards speak) with side pots, every
        one won the same way by one player: each scooped, or each taken whole on
        the same side, nobody failing a both declaration in any, told in one line:
        "Bob wins the whole of both pots (395: the main pot 375, side pot 20) with
        two pair, kings and fours, queen kicker for high: nobody is left on the
        low side.", "Ann scoops both pots (...) with ...".  s62-night: a 5-2-1
        showdown told the same winner, hand and reason once a pot.  ``None`` for
        any other result (told pot by pot)."""
        if any(p.get("high") is None for p in pots) or any(self.f.failed.values()):
            return None
        kinds = set()
        for p in pots:
            high, low = _seatmap(p.get("high")), _seatmap(p.get("low"))
            if high and low:
                if len(high) != 1 or set(high) != set(low):
                    return None
                kinds.add((next(iter(high)), "both"))
            elif high or low:
                won = high or low
                if len(won) != 1:
                    return None
                kinds.add((next(iter(won)), "high" if high else "low"))
            else:
                return None
        if len(kinds) != 1:
            return None
        [(s, side)] = kinds
        n = len(pots)
        amounts = [int(p["amount"]) for p in pots]
        which = "both pots" if n == 2 else f"all {n} pots"
        sides = and_list(str(a) for a in amounts[1:])
        parts = f"the main pot {amounts[0]}, side pot{'s' if n > 2 else ''} {sides}"
        if side == "both":
            return [self.line(f"{self.names.says(s, 'scoop', 'scoops')} {which} "
                              f"({sum(amounts)}: {parts}){self.with_hand(s, 'both')}.",
                              "scoop", s)]
        other = "low" if side == "high" else "high"
        reason = f"nobody is left on the {other} side" if self.declared \
            else f"no hand qualifies for {other}"
        for_side = f" for {side}" if self.declared else ""
        return [self.line(f"{self.names.says(s, 'win', 'wins')} the whole of {which} "
                          f"({sum(amounts)}: {parts}){self.with_hand(s, side)}{for_side}: "
                          f"{reason}.", "win", s)]

    def lines(self) -> list[Line]:
        if self.r.get("runs"):
            return self.runs(self.r["runs"])
        pots = list(self.r.get("pots", []))
        uncontested = not self.shown and all(len(_seatmap(p.get("winners"))) <= 1 for p in pots)
        out: list[Line] = []
        grouped = self.grouped_pots(pots, uncontested)
        if grouped is not None:
            out += grouped
            pots = []
        for i, pot in enumerate(pots):
            # the result's own shape says how the pot was settled (halves or winners)
            if pot.get("high") is not None:
                out += self.high_low(i, len(pots), pot, uncontested)
            else:
                out += self.high_only(i, len(pots), pot, uncontested)
        carried = int(self.r.get("carried", 0) or 0)
        if carried and not any(line.kind == "carry" for line in out):
            out.append(self.line(f"{carried} chips carry over to the next hand.", "carry"))
        out += self.losing()
        return out + self.net_lines()


def result_lines(result: Mapping[str, Any], names: Names, facts: ResultFacts) -> list[Line]:
    """The result of a hand in sentences.

    Args:
        result: ``HandOutcome.to_dict(cards=True)`` (a view's ``result``, a
            history's ``_result``): ``pots``, ``net``, ``shown``,
            ``shown_cards``, ``carried``.
        names: players' names and the viewer.
        facts: board, wild ranks, declarations, failures, the viewer's cards.

    Returns:
        one :class:`Line` per pot (per half in a high-low game), per failed
        both-ways declarer, per carried pot, the viewer's losing hand, and the
        net for the hand (the viewer's, or everyone's for nobody in particular).
    """
    return _Writer(result, names, facts).lines()
