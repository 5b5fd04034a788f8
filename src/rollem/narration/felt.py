"""The felt's words (issue 26): what a table shows beside the cards while a hand
runs, for one viewer, from the same narration as ``rollem replay`` and the results.

- :class:`FeltTalk`: fed a viewer's events (``HandView.events`` dicts) one at a
  time, it keeps the hand log in players' words (:meth:`FeltTalk.log`: dicts
  ``seat``, ``text``, ``kind``; newest last) and each seat's latest action
  (:attr:`FeltTalk.last_actions`: seat -> ``(kind, text)``, ``"raises to 9"``,
  ``"drew 2, then 1"``).  It sees only what the viewer's events hold, so it
  never names a card that viewer may not see.
- :func:`hand_so_far`: the name of a seat's hand as its cards come (``"pair of
  kings, ace-ten-deuce"``; ``"high: ... ; low: ..."`` in high-low games; the
  wild ranks once known, ``"three queens (fives wild)"``), the description
  ``rollem eval`` gives for the same cards.
- :class:`Scoring` / :func:`scoring_of`: how a hand's showdown scores hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

import orjson

from rollem.cards import RANK_NAMES, RANK_PLURALS, RANKS, Card, parse_card
from rollem.games.cost import MAX_SHOWDOWN_EVALUATIONS, naming_evaluations
from rollem.hands import evaluate
from rollem.hands.category import Category
from rollem.hands.core import partial_low_value, partial_value
from rollem.hands.high import high_value
from rollem.hands.low import low_value
from rollem.hands.result import HandResult
from rollem.narration.hands import wild_note
from rollem.narration.lines import Line
from rollem.narration.story import Narrator

__all__ = ["FeltTalk", "Scoring", "drew_words", "hand_so_far", "scoring_of"]

ACTION_KINDS = ("check", "call", "bet", "raise", "fold", "blind", "bring-in", "complete",
                "all-in", "draw", "discard", "expose", "stack", "roll", "wild", "declare",
                "show", "muck", "chose")
"""The kinds of :attr:`FeltTalk.last_actions` (``blind``: a blind posted, ``"big blind
2"``, ``"straddle 4"``)."""

CHOSE = {"discard": "chose discards", "expose": "chose a card", "stack": "has stacked",
         "declare": "has declared", "wild": "has picked"}
"""What a seat's label says once it has made a choice the others make at the same
time (a ``chose`` event: what it chose stays hidden until all have chosen)."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """How a game's showdown scores a hand (from its showdown step).

    Attributes:
        pot: ``"high"``, ``"low"``, ``"high-low"`` or ``"declare"`` (5-2-1,
            R-521-8: high, low or both, as the player declares).
        low: ``"ace-to-five"``, ``"deuce-to-seven"`` or ``"badugi"``.
        qualifier: 0, or the highest rank (5..13) a qualifying low may hold (8: eight or better).
        hole, board: exact numbers of own and community cards (both 0: best five of all).
    """

    pot: str = "high"
    low: str = "ace-to-five"
    qualifier: int = 0
    hole: int = 0
    board: int = 0


def scoring_of(steps: Iterable[object]) -> Scoring:
    """The :class:`Scoring` of a hand's steps (``Hand.steps``): its showdown step's."""
    from rollem.engine.declare import DeclareShowdown
    from rollem.engine.showdown import PotShowdown

    for step in steps:
        if isinstance(step, DeclareShowdown):
            return Scoring("declare")
        if isinstance(step, PotShowdown):
            return Scoring(step.pot, step.low, step.qualifier, step.hole, step.board)
    return Scoring()


def _fives(own: list[Card], board: list[Card], scoring: Scoring) -> list[list[Card]]:
    """The five-card (or fewer, so far) hands a seat may play."""
    if scoring.hole and len(board) >= scoring.board and len(own) >= scoring.hole:
        return [list(h + b) for h in combinations(own, scoring.hole)
                for b in combinations(board, scoring.board)]
    if scoring.hole:  # not enough cards yet for the exact hand: the own cards so far
        return [own]
    return [own + board]


def _five_count(own: int, board: int, scoring: Scoring) -> int:
    """How many five-card hands :func:`_fives` and the best of each weigh up for
    ``own`` cards and ``board`` cards (at least 1: a partial hand is one)."""
    if scoring.hole and board >= scoring.board and own >= scoring.hole:
        return comb(own, scoring.hole) * comb(board, scoring.board)
    if scoring.hole:
        return comb(own, 5) if own > 5 else 1
    return comb(own + board, 5) if own + board > 5 else 1


def _value(cards: list[Card], low: bool = False) -> int:
    """The ``value`` :func:`rollem.hands.evaluate` gives ``cards`` (no wild cards),
    from the fast functions alone (no words, no reading order): the best five of
    more than five, a partial hand's of fewer (R-C-8)."""
    if len(cards) < 5:
        ranks = [c >> 2 for c in cards]
        return partial_low_value(ranks) if low else partial_value(ranks)
    value = low_value if low else high_value
    if len(cards) == 5:
        return value(cards)
    return max(value(f) for f in combinations(cards, 5))


def _best(fives: list[list[Card]], low: bool = False, least: bool = False) -> HandResult:
    """``evaluate`` (``low``: as an ace-to-five low) of the five (or fewer) cards of
    ``fives`` with the greatest value (``least``: the least), the first of equals:
    each valued by the fast functions and only the one chosen put in words.  The
    same result as ``max(evaluate(f) for f in fives)`` by value, at about a
    hundredth of its cost (s62-hostile: a game file's hole/board rule with a long
    board named a hand from up to 7,500 five-card hands, 0.14 ms each with their
    words, 0.8 s of the event loop for one seat's name)."""
    def key(cards: list[Card]) -> int:
        if len(cards) == 5:  # (a hole/board rule of five: the fast value alone)
            return low_value(cards) if low else high_value(cards)
        return _value(cards, low)

    best = min(fives, key=key) if least else max(fives, key=key)
    return evaluate(best, low=low)


def _high(fives: list[list[Card]], wild: set[int], options: Mapping[str, Any]) -> HandResult:
    if len(fives) == 1:
        return evaluate(fives[0], wild_ranks=wild,
                        wild_duplicates=bool(options.get("wild_duplicates", False)),
                        natural_beats_wild=bool(options.get("natural_beats_wild", False)))
    return _best(fives)


def _low(fives: list[list[Card]], scoring: Scoring) -> str | None:
    """The best ace-to-five low (``None``: none that qualifies), or the
    deuce-to-seven hand (named as its high hand), or the badugi hand."""
    if scoring.low == "badugi":
        from rollem.hands.badugi import describe_badugi

        return describe_badugi(fives[0]) if fives and fives[0] else None
    if scoring.low == "deuce-to-seven":
        return str(_best(fives, least=True).description)
    best = _best(fives, low=True)
    if scoring.qualifier:
        from rollem.engine.showdown import qualifies

        if len(best.cards) == 5 and not qualifies(best.value, scoring.qualifier):
            return None
        ranks = [c.rank for c in best.cards]
        if any(r != 12 and r + 2 > scoring.qualifier for r in ranks) or \
                len(set(ranks)) < len(ranks):
            return None  # a pair or a card above the qualifier: no low so far
    return str(best.description)


def _flush_draw(cards: list[Card]) -> str | None:
    """``"king-high flush draw"`` when four of ``cards`` share a suit, else ``None``."""
    for suit in {c.suit for c in cards}:
        same = [c for c in cards if c.suit == suit]
        if len(same) == 4:
            return f"{RANK_NAMES[max(c.rank for c in same)]}-high flush draw"
    return None


def _straight_draw(cards: list[Card]) -> str | None:
    """The straight draw among ``cards`` (no straight made), else ``None``:

    - ``"open-ended straight draw"``: four ranks in a row that either end
      completes (``9-8-7-6``: a ten or a five; eight cards);
    - ``"double inside straight draw"``: two ranks complete a straight, no four in a
      row (``9-7-6-5-3``: an eight or a four);
    - ``"inside straight draw"``: one rank inside completes it (``9-8-6-5``: a seven);
    - ``"one-ended straight draw"``: one rank at an end (``A-K-Q-J``: a ten;
      ``A-2-3-4``: a five).

    The ace plays high or low (R-C-2)."""
    ranks = {c.rank for c in cards}
    if 12 in ranks:
        ranks.add(-1)  # the ace below the deuce (a wheel)
    need: set[int] = set()
    ends = False
    for top in range(3, 13):  # five-high (the wheel, ranks -1..3) to ace-high
        missing = set(range(top - 4, top + 1)) - ranks
        if len(missing) == 1:
            m = missing.pop()
            need.add(12 if m == -1 else m)
            ends = ends or m in (top - 4, top)
    if not need:
        return None
    for low in range(0, 9):  # four in a row, open at both ends (not ace-low, not ace-high)
        if set(range(low, low + 4)) <= ranks and low - 1 >= 0 and low + 4 <= 12 \
                and low - 1 not in ranks and low + 4 not in ranks:
            return "open-ended straight draw"
    if len(need) >= 2:
        return "double inside straight draw"
    return "one-ended straight draw" if ends else "inside straight draw"


def _low_draw(cards: list[Card], scoring: Scoring) -> str | None:
    """``"four to a wheel"`` (four different ranks of ace to five) or ``"four to a
    seven low"`` (four different ranks no higher than the seven, up to the qualifier,
    or an eight where the game has none) when ``cards`` make no five-card ace-to-five
    low yet, else ``None``."""
    cap = (scoring.qualifier or 8) + 1  # the ace is 1, the deuce 2, ... the king 13
    ranks = sorted({1 if c.rank == 12 else c.rank + 2 for c in cards})
    low = [r for r in ranks if r < cap]
    if len(low) >= 5 or len(low) < 4:
        return None
    top = low[3]
    if top <= 5:
        return "four to a wheel"
    return f"four to {_a(RANK_NAMES[top - 2])} low"


def _a(word: str) -> str:
    """``"a king"``, ``"an eight"``."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _draws(fives: list[list[Card]], scoring: Scoring, high: HandResult | None,
           low: bool) -> list[str]:
    """The draws a hand shows while cards are still to come ("where simple": not
    where the hand must use exact hole and board counts; no wild cards): flush and
    straight draws below a straight for a high hand, a four-card ace-to-five low."""
    if scoring.hole:
        return []
    cards = fives[0]
    out = []
    if high is not None and high.category < Category.STRAIGHT:
        out += [d for d in (_flush_draw(cards), _straight_draw(cards)) if d is not None]
    if low and scoring.low == "ace-to-five":
        draw = _low_draw(cards, scoring)
        if draw is not None:
            out.append(draw)
    return out


def hand_so_far(cards: Sequence[str | None], board: Sequence[str] = (), *,
                scoring: Scoring = Scoring(), wild_ranks: Sequence[str] = (),
                options: Mapping[str, Any] | None = None,
                declared: str | None = None, more_to_come: bool = False) -> str | None:
    """The name of a seat's hand so far, or ``None`` (no card yet).

    Args:
        cards: the seat's own cards (text; ``None`` entries, card backs, are left out).
        board: the community cards (text).
        scoring: how the game scores hands (:func:`scoring_of`).
        wild_ranks: the wild ranks known so far (``"5"``).
        options: the table options (``wild_duplicates``, ``natural_beats_wild``).
        declared: the seat's declaration in a declare game (``"high"``, ``"low"``, ``"both"``).
        more_to_come: cards are still to come to the seat or the board: the draws
            are added after ``"; "``, joined by ``" and "`` (:func:`_draws`: ``"king-high
            flush draw"``, ``"open-ended straight draw"``, ``"inside straight draw"``,
            ``"four to a wheel"``, ``"four to a seven low"``; no wild cards; not where
            the hand must use exact hole and board counts).

    Returns:
        ``None`` also where naming the hand would cost more than
        :data:`rollem.games.cost.MAX_SHOWDOWN_EVALUATIONS` five-card evaluations
        (:func:`rollem.games.cost.naming_evaluations`: only a stored game file
        accepted before that bound deals so many cards; the web table names
        hands on its event loop).  Else the description ``rollem eval`` prints for
        the same cards (the best five, or 1-4 cards as a partial hand, R-C-8;
        ``--low`` for a low), the wild cards added with what each plays as,
        ``" (wild 5c plays as Qd)"`` (the results' words); in high-low games ``"high: X; low: Y"``
        (``"no low"`` without a qualifying one), ``"high and low: X"`` where both
        halves have the same words (a paired hand with no ace) -- in a declare
        game before the seat declared, ``"high: X; low: the same"`` (s65-table:
        the words state the hand, not a declaration to make, R-521-8).
    """
    own = [parse_card(c) for c in cards if c is not None]
    if not own:
        return None
    table = [parse_card(c) for c in board]
    wild = {RANKS.index(r) for r in wild_ranks if r in RANKS}
    pot = scoring.pot
    if pot == "declare":
        pot = {"high": "high", "low": "low"}.get(declared or "", "high-low")
    if naming_evaluations(_five_count(len(own), len(table), scoring), wild=bool(wild),
                          halves=pot == "high-low") > MAX_SHOWDOWN_EVALUATIONS:
        return None  # (a stored file over the bound: too costly to name, stop 63)
    fives = _fives(own, table, scoring)
    draws: list[str] = []
    if pot == "low":
        name = _low(fives, scoring) or "no low"
        if more_to_come:
            draws = _draws(fives, scoring, None, True)
    else:
        best = _high(fives, wild, options or {})
        name = str(best.description)
        if wild:
            name += wild_note(best.wilds)  # the results' words (issue 26); "" with no wild card
        if pot == "high-low":
            low_name = _low(fives, scoring) or "no low"
            # a paired hand with no ace has the same words both ways: said once --
            # before a declare as each reading (s65-table: "high and low: X" read as
            # a hint to declare both ways, R-521-8), else as the halves it plays for
            undeclared = scoring.pot == "declare" and declared != "both"
            name = (f"high: {name}; low: the same" if undeclared
                    else f"high and low: {name}") if low_name == name else \
                f"high: {name}; low: {low_name}"
        if more_to_come and not wild:
            draws = _draws(fives, scoring, best, pot == "high-low")
    return "; ".join([name, " and ".join(draws)]) if draws else name


def _drew(counts: list[int]) -> str:
    """``[2] -> "draws 2"``, ``[0] -> "stands pat"``, ``[2, 1] -> "drew 2, then 1"``,
    ``[0, 1] -> "stood pat, then drew 1"``, ``[0, 0] -> "stood pat twice"``: every
    draw of the hand, in order."""
    if len(counts) == 1:
        return f"draws {counts[0]}" if counts[0] else "stands pat"
    if not any(counts):
        return "stood pat twice" if len(counts) == 2 else f"stood pat {len(counts)} times"
    words = [f"drew {counts[0]}" if counts[0] else "stood pat"]
    for n in counts[1:]:
        words.append("then stood pat" if not n else f"then {n}" if counts[0] else f"then drew {n}")
    return ", ".join(words)


def drew_words(counts: Sequence[int]) -> str | None:
    """Every draw of a seat so far, past, as the web table's seat tag says it:
    ``[2] -> "drew 2"``, ``[0] -> "stood pat"``, ``[2, 1] -> "drew 2, then 1"``,
    ``[0, 1] -> "stood pat, then drew 1"``, ``[0, 0] -> "stood pat twice"``;
    ``None`` before the first draw."""
    if not counts:
        return None
    if len(counts) == 1:
        return f"drew {counts[0]}" if counts[0] else "stood pat"
    return _drew(list(counts))


class FeltTalk:
    """One viewer's hand log and each seat's latest action, built event by event.

    Args:
        names: one name per seat (the viewer is told as ``You``).
        viewer: the seat reading, or ``None`` (a watcher).
        options, carry_in, game: as for :class:`rollem.narration.Narrator`.
    """

    def __init__(self, names: Sequence[str], viewer: int | None = None, *,
                 options: Mapping[str, Any] | None = None, carry_in: int = 0,
                 game: str | None = None) -> None:
        self.narrator = Narrator(names, viewer, options=options, carry_in=carry_in, game=game)
        self.lines: list[dict[str, Any]] = []
        self._lines_json: list[bytes] = []  # each of :attr:`lines` as JSON, made once
        self.last_actions: dict[int, tuple[str, str]] = {}
        self.events = 0
        """How many of the hand's events were read (kept by the caller: a
        viewer's events leave some out)."""
        self.declared: str | None = None
        """The viewer's own declaration (``"high"``, ``"low"``, ``"both"``) from its own
        ``chose`` event, before the reveal (5-2-1, R-521-6); ``None`` until made."""

    def feed(self, event: Mapping[str, Any]) -> None:
        """Take the viewer's next event (a dict as in ``HandView.events``)."""
        completing = self.narrator.to_complete
        self._act(event, completing)
        for line in self.narrator.feed(event):
            self.lines.append(_line(line))
            self._lines_json.append(orjson.dumps(self.lines[-1]))

    def log(self, result: Sequence[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
        """The hand so far (``seat``, ``text``, ``kind``), newest last: every line
        fed, the deals or antes still being gathered into one line, then
        ``result`` (result lines, ``Line.to_dict`` form) when the hand is over."""
        held = [_line(line) for line in self.narrator.held()]
        tail = [{"seat": r.get("seat"), "text": r["text"], "kind": r.get("kind")}
                for r in result]
        return [*self.lines, *held, *tail]

    def log_json(self, result: Sequence[Mapping[str, Any]] = ()) -> bytes:
        """:meth:`log` as the items of a JSON array (without the brackets), each line
        fed serialised once."""
        tail = self.log(result)[len(self.lines):]
        return b",".join([*self._lines_json, *(orjson.dumps(line) for line in tail)])

    def last_actions_json(self) -> dict[str, dict[str, str]]:
        """:attr:`last_actions` in JSON form:
        ``{"3": {"kind": "raise", "text": "raises to 9"}}``."""
        return {str(s): {"kind": k, "text": t} for s, (k, t) in sorted(self.last_actions.items())}

    def _act(self, e: Mapping[str, Any], completing: bool) -> None:
        kind = str(e.get("kind"))
        seat = e.get("seat")
        if seat is None:
            return
        s = int(seat)
        allin = bool(e.get("all_in"))
        said: tuple[str, str] | None = None
        if kind == "check":
            said = ("check", "checks")
        elif kind == "call":
            said = ("call", f"calls {e.get('amount')}")
        elif kind in ("bet", "raise"):
            if e.get("bring_in"):
                said = ("bring-in", f"brings it in for {e.get('to')}")
            elif completing:
                said = ("complete", f"completes to {e.get('to')}")
            elif kind == "bet":
                said = ("bet", f"bets {e.get('to')}")
            else:
                said = ("raise", f"raises to {e.get('to')}")
        elif kind == "blind":
            blind = e.get("blind", "blind")
            # the blind and its chips, "big blind 2", "straddle 4": short enough for a
            # phone's seat tile (the log says "posts the big blind 2")
            said = ("blind", f"{blind} {e.get('amount')}")
        elif kind == "fold":
            said = ("fold", "folds")
        elif kind == "discard":
            count = e.get("count", len(e.get("cards", []) or []))
            said = ("discard", f"puts {count} in the pool")  # the log's words (R-RYO-2)
        elif kind == "expose":
            said = ("expose", f"turns up {e.get('card')}")
        elif kind == "pool_draw":
            said = ("draw", "draws from the pool")
        elif kind == "draw":
            counts = [*self.narrator.draws.get(s, []),
                      int(e.get("count", len(e.get("cards", []) or [])))]
            said = ("draw", _drew(counts))
        elif kind == "stacked":
            said = ("stack", "stacks the cards")
        elif kind == "roll":
            said = ("roll", f"rolls up {e.get('card')}")
        elif kind == "wild":
            rank = str(e.get("rank"))
            plural = RANK_PLURALS[RANKS.index(rank)] if rank in RANKS else rank
            said = ("wild", f"picks {e.get('card')}: {plural} wild")
        elif kind == "declare":
            said = ("declare", f"declares {e.get('side')}")
        elif kind == "chose":  # a choice made at once by all, kept hidden until all chose
            step = str(e.get("step", ""))
            mine = _own_choice(step, e.get("action")) if s == self.narrator.viewer else None
            said = (step if step in ACTION_KINDS else "chose",
                    mine or CHOSE.get(step, "has chosen"))
            if step == "declare" and mine:
                self.declared = mine.rsplit(" ", 1)[-1]
        elif kind == "show":
            said = ("show", "shows")
        elif kind == "muck":
            said = ("muck", "mucks")
        if said is None:
            return
        if allin:
            said = ("all-in", f"{said[1]}, all-in")
        self.last_actions[s] = said


OWN_CHOICE = {"declare": "you declared {}", "discard": "you threw {}",
              "expose": "you turn up {}", "stack": "you stacked {}"}
"""What the maker's own label says of a choice made at once by all, from the
``action`` of the maker's own ``chose`` event (R-521-6, R-RYO-2, R-RYO-3): the
others' views say only :data:`CHOSE` until all have chosen."""


def _own_choice(step: str, action: object) -> str | None:
    """The maker's words for its own hidden choice (:data:`OWN_CHOICE`), from the
    ``chose`` event's ``action`` text (``"decl low"``, ``"dis 9c 4d 2h"``, ``"exp Ks"``,
    ``"stack Kh 9c 2d"``); ``None`` for another step, no action or an empty one."""
    words = OWN_CHOICE.get(step)
    rest = str(action).split(maxsplit=1)[1:] if isinstance(action, str) else []
    if words is None or not rest:
        return None
    return words.format(rest[0].strip())


def _line(line: Line) -> dict[str, Any]:
    return {"seat": line.seat, "text": line.text, "kind": line.kind}
