"""What the terminal game shows (``rollem play``): the table, and narrated lines.

Everything here is built from a :class:`rollem.engine.HandView` (the one
security boundary) and the hand's :class:`rollem.narration.Narrator` (which
only saw that view's events), and returned as Rich :class:`~rich.text.Text`
lines; the caller prints them through a Rich console (a terminal: suit
symbols, colour unless ``NO_COLOR``) or as plain text (``Text.plain``: short
card text such as ``Qh``). The words themselves come from
:mod:`rollem.narration`, shared with the web table and ``rollem replay``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from rollem.cards import SUIT_SYMBOLS, parse_card
from rollem.narration import CARD_PATTERN, Line
from rollem.narration.felt import drew_words
from rollem.narration.words import and_list

if TYPE_CHECKING:
    from rollem.engine.views import HandView, SeatView
    from rollem.narration import Narrator

__all__ = ["TABLE_WIDTH", "Style", "decision_title", "describe_lines", "fit_parts",
           "pool_cards_still_possible", "render_table"]

TABLE_WIDTH = 78
"""The columns :func:`render_table` fits each row in by default (an 80-column
terminal, as the prompts)."""

_RED = "bold red"
_CARD_WORD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA])([cdhs])(?![A-Za-z0-9])")
_BLACK = "bold"
_BACK = "blue"

_LINE_STYLE = {
    "fold": "dim", "muck": "dim", "round": "dim", "round_skipped": "dim", "draw_round": "dim",
    "pool": "dim", "ante": "dim",
    "bet": "bold", "raise": "bold", "declare": "bold", "header": "bold",
    "win": "bold green", "split": "bold green", "scoop": "bold green", "half": "green",
    "pot": "green", "failed_both": "yellow", "carry": "yellow", "lose": "yellow", "net": "bold",
}


class Style:
    """How cards and names look: ``rich`` = suit symbols and colour, else plain text."""

    def __init__(self, rich: bool, names: Sequence[str]) -> None:
        self.rich = rich
        self.names = list(names)

    def card(self, text: str | None) -> Text:
        """One card (``None`` = a card back)."""
        if text is None:
            return Text("▒▒" if self.rich else "##", style=_BACK if self.rich else "")
        if not self.rich:
            return Text(text)
        c = parse_card(text)
        style = _RED if c.suit in (1, 2) else _BLACK
        return Text(text[:-1] + SUIT_SYMBOLS[c.suit], style=style)

    def cards(self, texts: Sequence[str | None]) -> Text:
        """Cards separated by spaces."""
        out = Text()
        for i, t in enumerate(texts):
            if i:
                out.append(" ")
            out.append_text(self.card(t))
        return out

    def message(self, text: str) -> str:
        """``text`` with every card written as the table shows it: on a
        terminal ``Qh`` becomes ``Q♥``, so error messages match the prompt."""
        if not self.rich:
            return text

        def symbol(m: re.Match[str]) -> str:
            return m.group(1) + SUIT_SYMBOLS["cdhs".index(m.group(2))]

        return _CARD_WORD.sub(symbol, text)

    def card_words(self, texts: Sequence[str]) -> list[str]:
        """Cards as they are printed, one string each (for prompts)."""
        return [self.card(t).plain for t in texts]

    def text(self, text: str, style: str = "") -> Text:
        """``text`` in ``style`` with every card in it (``Qh``) drawn as the
        table draws cards (:meth:`card`: ``Q♥`` in its colour on a terminal,
        ``Qh`` in plain text)."""
        out = Text(style=style)
        pos = 0
        for m in CARD_PATTERN.finditer(text):
            out.append(text[pos:m.start()])
            out.append_text(self.card(m.group(0)))
            pos = m.end()
        out.append(text[pos:])
        return out

    def line(self, line: Line) -> Text:
        """A narrated line with its cards drawn as cards and a style by its kind."""
        out = self.text(line.text, _LINE_STYLE.get(line.kind, ""))
        if line.mine and line.kind not in _LINE_STYLE:
            out.stylize("bold")
        return out

    def who(self, seat: int | None, me: int | None = None) -> str:
        """A seat's name (``You`` for the viewer)."""
        if seat is None:
            return "The dealer"
        if seat == me:
            return "You"
        return self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"


Part = tuple[str, Text]
"""A piece of a row: the spaces before it when it follows another piece on
the same line, and its text."""


def _words(sep: str, text: Text) -> list[Part]:
    """``text`` as one part per word (the first after ``sep``, the others after
    a space), its styles kept: a piece too wide for a line alone."""
    words = [w for w in text.split(" ") if w.plain]
    lead = len(text.plain) - len(text.plain.lstrip(" "))
    if words and lead:  # (a line's indent is kept: "  To settle up: ...")
        words[0] = Text(" " * lead).append_text(words[0])
    return [(sep if i == 0 else " ", w) for i, w in enumerate(words)] or [(sep, text)]


def fit_parts(parts: Sequence[Part], width: int, indent: int = 4,
              style: str = "") -> list[Text]:
    """``parts`` on as few lines as fit ``width`` terminal cells (a suit symbol
    is one): each part follows the last one on its line after its own spaces,
    or starts the next line after ``indent`` spaces; a part too wide for a
    line of its own is broken between its words. No character is dropped, only
    the spaces where a line breaks (and a line's trailing spaces). ``style``:
    the style of every line (a seat's bold or dim).

    >>> [t.plain for t in fit_parts([("", Text("Pot 9,")), (" ", Text("side pot 1: 8"))], 10, 2)]
    ['Pot 9,', '  side pot', '  1: 8']
    """
    indent = min(indent, max(width // 2, 0))
    queue: list[Part] = []
    carry = ""  # a part's trailing spaces go before the next part
    for sep, text in parts:
        plain = text.plain
        trail = len(plain) - len(plain.rstrip(" "))
        sep = carry + sep if queue else sep
        carry = " " * trail
        if trail == len(plain):
            continue
        queue.append((sep, text[:len(plain) - trail] if trail else text))
    lines: list[Text] = []
    line = Text(style=style)
    used = 0  # cells on the line so far, its indent included
    started = False  # the line holds a part
    i = 0
    while i < len(queue):
        sep, text = queue[i]
        size = cell_len(text.plain)
        here = used + (cell_len(sep) if started else 0) + size
        if here > width and size > width - indent:  # too wide for a line of its own
            words = _words(sep, text)
            if len(words) > 1:
                queue[i:i + 1] = words
                continue
        if started and here > width:
            line.rstrip()
            lines.append(line)
            line, used, started = Text(" " * indent, style=style), indent, False
        if started:
            line.append(sep)
            used += cell_len(sep)
        line.append_text(text)
        used += size
        started = True
        i += 1
    line.rstrip()
    lines.append(line)
    return lines


def _line(*parts: str | Text) -> Text:
    out = Text()
    for p in parts:
        out.append_text(p if isinstance(p, Text) else Text(p))
    return out


def _seat_status(s: SeatView) -> str:
    if s.folded:
        return "folded"
    if s.all_in:
        return "all-in"
    return ""


def pool_cards_still_possible(view: HandView) -> list[str]:
    """The viewer's own discards that may still be in the pool: not back in
    its hand, not the turned wild card, not face up in another hand (one that
    has folded since too: its seat holds no cards then, but its face-up cards
    were seen, ``expose`` events; R-RYO-5)."""
    gone: set[str] = set(view.dead) | set(view.board)
    for s in view.seats:
        gone.update(c for c in s.cards if c is not None)
    for e in view.events:
        if e["kind"] in ("wild", "expose", "roll") and e.get("card"):
            gone.add(str(e["card"]))
        elif e["kind"] == "deal_up" and e.get("cards"):
            gone.update(str(c) for c in e["cards"])
    return [c for c in view.my_pool if c not in gone]


_DECISIONS = {
    "discard": "everyone puts cards in the pool",
    "expose": "everyone turns a card up",
    "wild": "picking the wild card",
    "stack": "everyone orders their cards to roll up",
    "declare": "everyone declares high, low or both",
}


def decision_title(view: HandView) -> str:
    """The decision at hand, in words: ``"after the stop: betting"``, ``"first draw"``,
    ``"picking the wild card"``..., or ``"the hand is over"``."""
    kind = view.pending
    if kind is None:
        return "the hand is over"
    if kind == "bet":
        return f"{view.round}: betting" if view.round else "betting"
    if kind == "draw":
        names = [str(e.get("draw")) for e in view.events if e["kind"] == "draw_round"]
        return names[-1] if names else "the draw"
    legal = view.legal
    if kind == "discard" and legal is not None and legal.kind == "discard" and legal.max_count:
        # the game's own count (3 in Roll Your Own, 1 in Crazy Pineapple)
        n = legal.max_count
        cards = f"{n} card{'s' if n != 1 else ''}"
        if not legal.into_pool:  # out of play (Crazy Pineapple), issue 33
            return f"everyone discards {cards} face down"
        return f"everyone puts {cards} in the pool"
    return _DECISIONS.get(kind, kind.replace("_", " "))


def _pot_parts(view: HandView, style: Style) -> list[str]:
    """The pots in words, in pieces a line may break between: ``["Pot 17: main
    pot 9,", "side pot 1: 8 (You and Cat)", "+ 8 bet this round"]`` (joined by
    spaces: ``Pot 17: main pot 9, side pot 1: 8 (You and Cat) + 8 bet this round``)."""
    pots = view.pots
    bets = sum(s.bet for s in view.seats)  # 0 once the round ends: the view gathers them
    total = view.pot
    if len(pots) <= 1:
        parts = [f"Pot {total}"]
    else:
        parts = [f"Pot {total}: main pot {pots[0]['amount']}"]
        for i, p in enumerate(pots[1:], 1):
            who = and_list(style.who(s, view.seat) for s in p.get("eligible", []))
            parts[-1] += ","
            parts.append(f"side pot {i}: {p['amount']} ({who})")
    if bets:
        parts.append(f"+ {bets} bet this round")
    return parts


def _draw_text(narrator: Narrator | None, view: HandView, style: Style) -> Text | None:
    """Who drew, in which order, and how many (5-2-1, Roll Your Own)."""
    if narrator is None or not narrator.draw_order:
        return None
    me = view.seat
    if view.game == "rollyourown" or not narrator.draws:
        order = ", ".join(style.who(s, me) for s in narrator.draw_order)
        return Text(f"Drew from the pool, in order: {order}", style="dim")
    parts = []
    for s in narrator.draw_order:
        counts = narrator.draws.get(s, [])
        n = counts[-1] if counts else 0
        parts.append(f"{style.who(s, me)} {n if n else 'pat'}")
    # while the draw goes on it is not the last one yet (issue 33)
    label = "This draw so far, in order: " if view.pending == "draw" else "Last draw, in order: "
    return Text(label + ", ".join(parts), style="dim")


def render_table(view: HandView, style: Style, *, title: str, game_name: str,
                 narrator: Narrator | None = None, width: int = TABLE_WIDTH) -> list[Text]:
    """The table as ``view.seat`` sees it: a header naming the decision at
    hand; dead cards and board, pool, wild rank, pots; the draw order; then
    one row per seat (button, stack, this round's bet while betting, cards,
    status, whose turn). A folded seat keeps its face-up cards, dimmed;
    each seat's draws are listed (``drew 2, then 1``, ``stood pat``).

    Every line fits ``width`` terminal cells (a suit symbol is one): a row
    too long goes on over more lines (a seat's row under its cards, between
    its pieces: up cards, draws, status, turn), nothing is cut (s61-term: a
    5-2-1 row with its up cards and draws ran past 80 columns and the
    terminal wrapped it anywhere)."""
    me = view.seat
    betting = view.pending == "bet"
    lines: list[Text] = fit_parts(
        [("", Text(title)), (" ", Text(f"-- {game_name}")),
         (" ", Text(f"-- {decision_title(view)}"))], width, 2, style="bold")
    table_bits: list[Part] = []
    # each dead card under its step's label (Stop, Drop; a game file's own), issue 33
    labels = [str(e.get("label") or "dead").capitalize()
              for e in view.events if e["kind"] == "dead"]
    for i, d in enumerate(view.dead):
        table_bits.append(("   ", _line(f"{labels[i] if i < len(labels) else 'Dead'} ",
                                         style.card(d))))
    if view.board:
        board = "Roll " if view.game == "sdr" else "Board "
        table_bits.append(("   ", _line(board, style.cards(view.board))))
    out_of_play = any(e["kind"] == "discard" and e.get("into_pool") is False
                      for e in view.events)  # Crazy Pineapple's discards: no pool
    if view.game == "rollyourown" or (view.pool and not out_of_play):
        maybe = pool_cards_still_possible(view)
        mine = _line(" (you put in ", style.cards(maybe), ")") if maybe else Text()
        table_bits.append(("   ", _line(f"Pool {view.pool} cards", mine)))
    if view.wild_ranks:
        table_bits.append(("   ", Text(f"Wild: {' '.join(view.wild_ranks)}",
                                        style="bold magenta")))
    for i, piece in enumerate(_pot_parts(view, style)):
        table_bits.append(("   " if i == 0 else " ", Text(piece, style="bold yellow")))
    lines.extend(fit_parts(table_bits, width, 2))
    drawn = _draw_text(narrator, view, style)
    if drawn is not None:
        lines.extend(fit_parts([("", drawn)], width, 2))
    name_width = max(len(n) for n in style.names) if style.names else 6
    stack_width = max([5, *(len(str(s.stack)) for s in view.seats)])
    bet_width = max([3, *(len(str(s.bet)) for s in view.seats)])
    face_up: dict[int, list[str]] = narrator.face_up if narrator is not None else {}
    draws: dict[int, list[int]] = narrator.draws if narrator is not None else {}
    for s in view.seats:
        if not s.dealt:
            lines.append(Text(f"  {style.names[s.seat]:<{name_width}}  out (no chips)",
                              style="dim"))
            continue
        name = "You" if s.seat == me else style.names[s.seat]
        button = "D" if s.seat == view.button else " "
        if view.simultaneous:  # all at once: several seats choose, nobody "acts" in turn
            turn = " <- choosing" if s.seat in view.to_act else \
                ("  chosen" if not s.folded else "")
        else:
            turn = " <- to act" if s.seat in view.to_act else ""
        bet = f"  bet {s.bet:>{bet_width}}" if betting or s.bet else ""
        head = f"{button} {name:<{name_width}}  stack {s.stack:>{stack_width}}{bet}  "
        row: list[Part] = [("", Text(head))]
        cards: list[str | None] = list(s.cards)
        up: list[bool] = list(s.up)
        if s.folded and not cards and face_up.get(s.seat):
            cards, up = list(face_up[s.seat]), [True] * len(face_up[s.seat])
        for i, (c, u) in enumerate(zip(cards, up, strict=False)):
            card = style.card(c)
            if s.folded:
                card.stylize("dim")
            elif u and s.seat == me and style.rich:
                card.stylize("underline")
            row.append(("" if i == 0 else " ", card))
        if s.seat == me and any(up) and not all(up) and not s.folded:
            up_cards = [c for c, u in zip(cards, up, strict=False) if u]
            row.append(("  ", _line("(up: ", style.cards(up_cards), ")")))
        drew = drew_words(draws[s.seat]) if draws.get(s.seat) else None
        if drew:  # (the web table's words: "drew 2, then 1", "stood pat twice")
            row.append(("  ", Text(drew, style="dim")))
        status = _seat_status(s)
        if status:  # (under the cards column when the row shows no card)
            row.append(("  " if len(row) > 1 else "", Text(status, style="dim")))
        if turn:  # (kept with the piece before it: never alone on a line)
            sep, last = row[-1]
            last = last.copy()
            last.append(turn, style="bold cyan")
            row[-1] = (sep, last)
        # (a row too long goes on under its cards, or 4 columns in for a long name)
        under = len(head) if len(head) <= width - 30 else 4
        lines.extend(fit_parts(row, width, under,
                               style="bold" if s.seat == me else ("dim" if s.folded else "")))
    return lines


def describe_lines(lines: Sequence[Line], style: Style) -> list[Text]:
    """Narrated lines styled for the terminal."""
    return [style.line(line) for line in lines]
