"""The hand step by step: each event of a view as a sentence (R-C-13 order)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rollem.cards import RANK_NAMES, RANK_PLURALS, RANKS
from rollem.narration.hands import hand_words, high_low_words, low_words, with_wild_note
from rollem.narration.lines import Line
from rollem.narration.results import ResultFacts, result_lines
from rollem.narration.words import Names, and_list, ordinal

__all__ = ["OWN_WORDS", "Narrator"]

_SILENT = ("choose", "chose", "burn", "end", "win", "carry", "failed_both")

OWN_WORDS = frozenset({"sdr", "rollyourown", "rollem521", "holdem", "stud", "draw5",
                       "deuces-wild"})
"""Games whose hands are the best five of a seat's cards (and the board) as
high hands (wild cards counted), or a declared ace-to-five low (5-2-1): the
narration words them itself. Other games keep the engine's description."""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Narrator:
    """Turns a hand's events, one at a time, into sentences, and keeps what
    the result sentences and a table display need: the pot, face-up cards
    (also of folded players), how many cards each seat drew and in which
    order, declarations, the wild ranks.

    Args:
        names: one name per seat.
        viewer: the seat reading (``"You"``), or ``None``.
        options: the table options (a view's ``options``), for wild-card house rules.
        carry_in: chips carried into the pot from the previous hand.
        game: the game's short id; hands are worded here (every tie-breaking
            card, wild stand-ins) for the games in :data:`OWN_WORDS`, and as
            the engine described them for other game files (Omaha's two
            cards, eight-or-better, deuce-to-seven).

    Feed it the events of ``hand.view(seat).events`` (dicts) in order with
    :meth:`feed`; call :meth:`result` once the hand is over.
    """

    def __init__(self, names: Sequence[str], viewer: int | None = None, *,
                 options: Mapping[str, Any] | None = None, carry_in: int = 0,
                 game: str | None = None) -> None:
        self.names = Names(names, viewer)
        self.game = game
        self.own_words = game is None or game in OWN_WORDS
        self.viewer = viewer
        self.options: Mapping[str, Any] = dict(options or {})
        self.pot = carry_in
        self.carry_in = carry_in
        self.board: list[str] = []
        self.wild_ranks: list[str] = []
        self.mucked: dict[int, str] = {}
        """Seat -> the engine's words for its mucked hand (seen by that seat only)."""
        self.declarations: dict[int, str] = {}
        self.failed: dict[int, list[int]] = {}
        self.folded: set[int] = set()
        self.face_up: dict[int, list[str]] = {}
        """seat -> its face-up cards in the order turned (kept after a fold)."""
        self.draws: dict[int, list[int]] = {}
        """seat -> how many cards it drew at each draw (0 = stood pat)."""
        self.draw_order: list[int] = []
        """Seats in the order they drew in the latest draw."""
        self.cards: dict[int, list[str]] = {}
        """seat -> its cards as far as seen (complete unless in :attr:`unseen`)."""
        self.unseen: set[int] = set()
        """Seats holding a card this narration did not see."""
        self.shown_by_choice: dict[int, list[str]] = {}
        """seat -> cards it showed by choice after the hand (R-C-11)."""
        self.by_choice_words: dict[int, str] = {}
        """seat -> its whole hand's name, once it showed the last of its cards by
        choice (the words its ``show_after`` line ends with; stop 53)."""
        self._pending: list[Mapping[str, Any]] = []
        self._pool_draws = 0
        self._board_at_choice: list[str] | None = None  # run it twice: the board then
        self.first_run: list[str] | None = None
        """A hand run twice (issue 27): the first run's board, once the second is dealt."""
        self._to_complete = False  # a stud bring-in this round, not yet completed

    # ------------------------------------------------------------ helpers

    @property
    def to_complete(self) -> bool:
        """Whether the next full bet this round completes a stud bring-in: from a
        ``round`` event marked ``to_complete`` (the bring-in seat may complete at once)
        or a bring-in bet, until the first full bet or raise."""
        return self._to_complete

    def held(self) -> list[Line]:
        """The lines of the antes or face-down deals still being gathered into one
        (told at the next event or :meth:`finish`), without taking them."""
        pending = list(self._pending)
        try:
            return self._flush()
        finally:
            self._pending = pending

    def _track(self, kind: str, e: Mapping[str, Any]) -> None:
        """Keep each seat's cards as far as this narration may see them."""
        seat = e.get("seat")
        if seat is None:
            return
        s = int(seat)
        held = self.cards.setdefault(s, [])
        cards = [str(c) for c in e.get("cards", []) or []]
        if kind in ("deal_hole", "draw_deal"):
            if cards:
                held.extend(cards)
            else:
                self.unseen.add(s)
        elif kind == "deal_up":
            held.extend(cards)
        elif kind == "pool_draw":
            if e.get("card"):
                held.append(str(e["card"]))
            else:
                self.unseen.add(s)
        elif kind in ("discard", "draw"):
            if cards:
                self.cards[s] = [c for c in held if c not in cards]
            elif int(e.get("count", 0) or 0):
                self.unseen.add(s)
        elif kind == "stacked" and cards:
            self.cards[s] = cards

    def known_hand(self, seat: int) -> list[str] | None:
        """The seat's cards if this narration saw all of them, else ``None``."""
        if seat in self.unseen or not self.cards.get(seat):
            return None
        return list(self.cards[seat])

    def _line(self, text: str, kind: str, seat: int | None = None) -> Line:
        return Line(text, kind, seat, seat is not None and seat == self.viewer)

    def _says(self, seat: int | None, you: str, other: str) -> str:
        return self.names.says(seat, you, other)

    def _pot(self) -> str:
        return f" (pot {self.pot})"

    def _flush(self) -> list[Line]:
        """Antes and face-down deals are told as one line per group."""
        group, self._pending = self._pending, []
        if not group:
            return []
        kind = group[0]["kind"]
        if kind == "ante":
            amounts = {int(e["amount"]) for e in group}
            carried = f", {self.carry_in} carried in" if self.carry_in else ""
            allin = [int(e["seat"]) for e in group if e.get("all_in")]
            note = (f"; {self.names.who(allin[0], start=False) if len(allin) == 1 else 'several'}"
                    " all-in") if allin else ""
            if any(e.get("bomb_pot") for e in group) and len(amounts) == 1 and not allin:
                return [self._line(f"Bomb pot: everyone antes {amounts.pop()} "
                                   f"(pot {self.pot}{carried}).", "ante")]
            if len(amounts) == 1 and not allin:
                who = "Each player" if len(group) > 1 else self.names.who(group[0]["seat"])
                return [self._line(f"{who} antes {amounts.pop()} (pot {self.pot}{carried}).",
                                   "ante")]
            each = ", ".join(f"{self.names.who(e['seat'], start=False)} {e['amount']}"
                             for e in group)
            return [self._line(f"Antes: {each}{note} (pot {self.pot}{carried}).", "ante")]
        out = [self._line(f"{self._says(e['seat'], 'are', 'is')} dealt "
                          f"{' '.join(str(c) for c in e['cards'])}.", "deal_hole", e["seat"])
               for e in group if e.get("cards")]
        group = [e for e in group if not e.get("cards")]
        if not group:
            return out
        counts = {int(e.get("count", 0)) for e in group}
        seats = [e["seat"] for e in group]
        who = and_list(self.names.who(s, start=i == 0) for i, s in enumerate(seats))
        n = counts.pop() if len(counts) == 1 else None
        if len(seats) == 1:
            s = seats[0]
            many = f"{n} card{'s' if n != 1 else ''}" if n is not None else "cards"
            return [*out, self._line(f"{self._says(s, 'are', 'is')} dealt {many} face down.",
                                     "deal_hole", s)]
        many = f"{n} card{'s' if n != 1 else ''} each" if n is not None else "their cards"
        return [*out, self._line(f"{who} are dealt {many}, face down.", "deal_hole")]

    # ------------------------------------------------------------ events

    def feed(self, event: Mapping[str, Any]) -> list[Line]:
        """The sentences for one event (a dict as in ``HandView.events``);
        often one, none for events that say nothing to players."""
        kind = str(event.get("kind"))
        self._track(kind, event)
        group = kind if kind in ("ante", "deal_hole") else None
        out: list[Line] = []
        if self._pending and self._pending[0]["kind"] != group:
            out += self._flush()
        if kind == "ante":
            self.pot += int(event.get("amount", 0))
        if group is not None:
            self._pending.append(event)
            return out
        line = self._event(kind, event)
        if line is not None:
            out.append(line)
        return out

    def _event(self, kind: str, e: Mapping[str, Any]) -> Line | None:
        seat = e.get("seat")
        s: int | None = int(seat) if seat is not None else None
        says = self._says
        cards = " ".join(str(c) for c in e.get("cards", []) or [])
        if kind in _SILENT:
            if kind == "failed_both" and s is not None:
                self.failed.setdefault(int(e.get("pot", 0)), []).append(s)
            return None
        if kind == "deal_up":
            self.face_up.setdefault(s or 0, []).extend(e.get("cards", []))
            return self._line(f"{says(s, 'are', 'is')} dealt {cards} face up.", kind, s)
        if kind == "dead":
            label = str(e.get("label") or "")
            name = f"The {label}" if label else "A dead card"
            return self._line(f"{name}: {e['card']} is turned up, dead.", kind)
        if kind == "board":
            self.board.extend(str(c) for c in e.get("cards", []))
            label = str(e.get("label") or "board")
            return self._line(f"The {label}: {cards}.", kind)
        if kind == "round":
            self._pool_draws = 0
            # a stud round that opens with a bring-in: its first full bet completes it,
            # the bring-in seat's own included (the engine's and a copy's round say so)
            self._to_complete = bool(e.get("to_complete"))
            # the round and the pot only: the next line names who acts first, and a round
            # "opened" by a seat reads as that seat's bet (poker's *open*), though it may
            # check; nor is a blind's or an all-in seat's turn passed on told twice
            # (issue 33, stop 54: was "Flop: Ann opens (pot 3)." then "Ann checks.")
            return self._line(f"{_cap(str(e.get('round', 'betting')))}{self._pot()}.", kind)
        if kind == "bomb_pot":
            return self._line(f"Bomb pot: no {e.get('round', 'first')} betting; the cards "
                              "come at once.", kind)
        if kind == "run_twice":
            if e.get("agreed"):
                self._board_at_choice = list(self.board)
                return self._line("Everyone still in agrees to run it twice. First run:", kind)
            yes = [int(x) for x in e.get("yes", [])]
            said = f" ({and_list(self.names.who(x, start=i == 0) for i, x in enumerate(yes))}" \
                   " said yes)" if yes else ""
            return self._line(f"Not everyone agrees to run it twice{said}: the board is dealt "
                              "once.", kind)
        if kind == "run":
            self.first_run = list(self.board)
            self.board = list(self._board_at_choice or [])
            return self._line("Second run:", kind)
        if kind == "round_skipped":
            return self._line(f"{_cap(str(e.get('round', 'betting')))}: no betting (at most "
                              "one player can still bet).", kind)
        if kind == "check":
            return self._line(f"{says(s, 'check', 'checks')}.", kind, s)
        if kind == "call":
            self.pot += int(e.get("amount", 0))
            allin = ", all-in" if e.get("all_in") else ""
            return self._line(f"{says(s, 'call', 'calls')} {e.get('amount')}{allin}"
                              f"{self._pot()}.", kind, s)
        if kind in ("bet", "raise"):
            self.pot += int(e.get("amount", 0))
            allin = ", all-in" if e.get("all_in") else ""
            if e.get("bring_in"):
                self._to_complete = True  # (also where the round bears no mark)
                return self._line(f"{says(s, 'bring', 'brings')} it in for {e.get('to')}{allin}"
                                  f"{self._pot()}.", kind, s)
            if self._to_complete:  # the first full bet of a bring-in round completes it
                self._to_complete = False
                verb = says(s, "complete", "completes") + " to"
            else:
                verb = says(s, "bet", "bets") if kind == "bet" \
                    else says(s, "raise", "raises") + " to"
            return self._line(f"{verb} {e.get('to')}{allin}{self._pot()}.", kind, s)
        if kind == "blind":
            self.pot += int(e.get("amount", 0))
            allin = ", all-in" if e.get("all_in") else ""
            if e.get("blind") == "straddle":
                return self._line(f"{says(s, 'post', 'posts')} a straddle of {e.get('amount')}"
                                  f"{allin}{self._pot()}.", kind, s)
            return self._line(f"{says(s, 'post', 'posts')} the {e.get('blind', 'blind')} "
                              f"{e.get('amount')}{allin}{self._pot()}.", kind, s)
        if kind == "wild_ranks":
            ranks = [str(r) for r in e.get("ranks", [])]
            self.wild_ranks = ranks
            words = and_list(RANK_PLURALS[RANKS.index(r)] for r in ranks if r in RANKS)
            return self._line(f"{_cap(words)} are wild.", kind)
        if kind == "fold":
            if s is not None:
                self.folded.add(s)
            free = ", giving up a free check" if e.get("could_check") else ""
            return self._line(f"{says(s, 'fold', 'folds')}{free}.", kind, s)
        if kind == "return":
            self.pot -= int(e.get("amount", 0))
            return self._line(f"{says(s, 'take', 'takes')} back {e.get('amount')} uncalled"
                              f"{self._pot()}.", kind, s)
        if kind == "discard":
            count = e.get("count")
            what = cards if cards else (
                "some cards" if count is None else f"{count} card{'s' if count != 1 else ''}")
            if e.get("into_pool") is False:  # a game file's discard nothing uses (issue 33)
                return self._line(f"{says(s, 'discard', 'discards')} {what} face down, out "
                                  "of play.", kind, s)
            return self._line(f"{says(s, 'put', 'puts')} {what} in the pool.", kind, s)
        if kind == "pool":
            self._pool_draws = 0
            if e.get("into_pool") is False:
                return None
            return self._line(f"The pool ({e.get('count', '?')} cards) is shuffled.", kind)
        if kind == "expose":
            self._pool_draws = 0
            self.face_up.setdefault(s or 0, []).append(str(e["card"]))
            return self._line(f"{says(s, 'turn', 'turns')} up {e['card']}.", kind, s)
        if kind == "pool_draw":
            self._pool_draws += 1
            if self._pool_draws == 1:
                self.draw_order = []
            if s is not None:
                self.draw_order.append(s)
            what = f": {e['card']}" if e.get("card") else ""
            return self._line(f"{says(s, 'draw', 'draws')} {ordinal(self._pool_draws)} from "
                              f"the pool{what}.", kind, s)
        if kind == "wild":
            rank = str(e.get("rank"))
            self.wild_ranks = [rank]
            pos = e.get("position")
            where = f"pool card {int(pos) + 1}" if pos is not None else "a pool card"
            return self._line(f"{says(s, 'pick', 'picks')} the wild card, {where}: {e['card']}; "
                              f"every {RANK_NAMES[RANKS.index(rank)]} is wild.", kind, s)
        if kind == "draw_round":
            self.draw_order = []
            most = e.get("max")
            name = _cap(str(e.get("draw", "draw")))
            if most is None:
                return self._line(f"{name}.", kind)
            return self._line(f"{name}: each player may throw away up to {most} "
                              f"card{'s' if most != 1 else ''}.", kind)
        if kind == "draw":
            count = int(e.get("count", len(e.get("cards", []) or [])))
            if s is not None:
                self.draws.setdefault(s, []).append(count)
                self.draw_order.append(s)
            if not count:
                return self._line(f"{says(s, 'stand', 'stands')} pat.", kind, s)
            if cards:
                return self._line(f"{says(s, 'throw', 'throws')} away {cards} and "
                                  f"{self.names.verb(s, 'draw', 'draws')} {count}.", kind, s)
            return self._line(f"{says(s, 'draw', 'draws')} {count}.", kind, s)
        if kind == "draw_deal":
            if not cards:
                return None
            return self._line(f"{says(s, 'get', 'gets')} {cards}.", kind, s)
        if kind == "reshuffle":
            who = self.names.who(s, start=False)
            return self._line(f"The stub is empty: {e.get('count')} cards (the muck and the "
                              f"discards) are shuffled into a new stub for {who}.", kind, s)
        if kind == "stacked":
            if not cards:
                return None
            return self._line(f"{self.names.whose(s)} cards will roll up in this order: "
                              f"{cards}.", kind, s)
        if kind == "roll":
            self.face_up.setdefault(s or 0, []).append(str(e["card"]))
            return self._line(f"{says(s, 'roll', 'rolls')} up {e['card']}.", kind, s)
        if kind == "declare":
            if s is not None:
                self.declarations[s] = str(e.get("side"))
            return self._line(f"{says(s, 'declare', 'declares')} {e.get('side')}.", kind, s)
        if kind == "show":
            if e.get("by_choice"):  # after the hand, by choice (R-C-11): no result changes
                self.shown_by_choice.setdefault(s or 0, []).extend(
                    str(c) for c in e.get("cards", []))
                if e.get("hand"):  # the whole hand public now: named as results do
                    whole = {"cards": e["hand"], "description": e.get("description"),
                             "side": self.declarations.get(s or 0)}
                    words = self.by_choice_words[s or 0] = self._shown(whole)
                    return self._line(f"{says(s, 'show', 'shows')} {cards} after the hand: "
                                      f"{words}.", "show_after", s)
                return self._line(f"{says(s, 'show', 'shows')} {cards} after the hand.",
                                  "show_after", s)
            if e.get("second_run") and self.first_run is not None:
                second = self._shown(e)
                now, self.board = self.board, self.first_run
                try:
                    first = self._shown(e)
                finally:
                    self.board = now
                return self._line(f"{says(s, 'show', 'shows')} {cards}: {first} on the first "
                                  f"run; {second} on the second.", kind, s)
            return self._line(f"{says(s, 'show', 'shows')} {cards}: {self._shown(e)}.", kind, s)
        if kind == "muck":
            if s is not None and e.get("description"):  # the engine's words, to its seat only
                self.mucked[s] = str(e["description"])
            held = self.known_hand(s) if s is not None and s != self.viewer else None
            if held and self.own_words:  # a full history: every card is known
                what = self._shown({"cards": held, "side": self.declarations.get(s or 0)})
                return self._line(f"{says(s, 'muck', 'mucks')} {' '.join(held)}: {what}.",
                                  kind, s)
            return self._line(f"{says(s, 'muck', 'mucks')}.", kind, s)
        # a kind added by a game: say what we can
        extra = cards or str(e.get("card", "") or e.get("side", ""))
        return self._line(f"{self.names.who(s)}: {kind.replace('_', ' ')}"
                          f"{' ' + extra if extra else ''}.", kind, s)

    def _shown(self, e: Mapping[str, Any]) -> str:
        own = [str(c) for c in e.get("cards", [])]
        side = e.get("side")
        if not self.own_words and e.get("description"):
            if side == "low":  # the engine's low words named as a low (stop 54)
                return low_words(str(e["description"]))
            return with_wild_note(str(e["description"]),
                                  own + [c for c in self.board if c not in own],
                                  self.wild_ranks, self.options)
        try:
            if side:
                return f"{high_low_words(own, str(side))} (declared {side})"
            if self.wild_ranks or self.board or not e.get("description"):
                opts = self.options
                return hand_words(own + [c for c in self.board if c not in own],
                                  wild_ranks=self.wild_ranks,
                                  wild_duplicates=bool(opts.get("wild_duplicates", False)),
                                  natural_beats_wild=bool(opts.get("natural_beats_wild", False)))
        except ValueError:
            pass
        return str(e.get("description") or hand_words(own))

    # ------------------------------------------------------------ the end

    def finish(self) -> list[Line]:
        """Lines still held back (a group of antes or deals); call after the last event."""
        return self._flush()

    def result(self, result: Mapping[str, Any], *, my_cards: Sequence[str | None] = ()
               ) -> list[Line]:
        """The result sentences (:func:`rollem.narration.results.result_lines`).

        Args:
            result: ``HandOutcome.to_dict(cards=True)`` form.
            my_cards: the viewer's own cards (text), to describe its hand when it loses.
        """
        known = {s: h for s in self.cards if (h := self.known_hand(s)) is not None}
        mine = [c for c in my_cards if c is not None]
        if mine and self.viewer is not None:
            known[self.viewer] = mine
        facts = ResultFacts(board=list(self.first_run or self.board),
                            wild_ranks=list(self.wild_ranks),
                            options=self.options, declarations=dict(self.declarations),
                            failed={k: list(v) for k, v in self.failed.items()},
                            my_cards=mine, known=known, own_words=self.own_words,
                            mucked=dict(self.mucked))
        return result_lines(result, self.names, facts)
