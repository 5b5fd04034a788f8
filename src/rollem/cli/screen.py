"""What the terminal game shows (``rollem play``): the table, each event, each result.

Everything here is built from a :class:`rollem.engine.HandView` (the one
security boundary) and returned as Rich :class:`~rich.text.Text` lines; the
caller prints them through a Rich console (a terminal: suit symbols and
colour) or as plain text (``Text.plain``: short card text such as ``Qh``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from rollem.cards import SUIT_SYMBOLS, parse_card

if TYPE_CHECKING:
    from rollem.engine.views import HandView, SeatView

__all__ = ["Style", "describe_event", "pool_cards_still_possible", "render_result",
           "render_table"]

_RED = "bold red"
_CARD_WORD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA])([cdhs])(?![A-Za-z0-9])")
_BLACK = "bold"
_BACK = "blue"


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

    def who(self, seat: int | None, me: int | None = None) -> str:
        """A seat's name (``You`` for the viewer)."""
        if seat is None:
            return "The dealer"
        if seat == me:
            return "You"
        return self.names[seat] if seat < len(self.names) else f"seat {seat}"


def _line(*parts: str | Text) -> Text:
    out = Text()
    for p in parts:
        out.append_text(p if isinstance(p, Text) else Text(p))
    return out


def _verb(me: bool, you: str, other: str) -> str:
    return you if me else other


def describe_event(e: Mapping[str, Any], style: Style, me: int) -> Text | None:
    """One event of ``me``'s view as a line of text, or ``None`` for events not narrated."""
    kind = e["kind"]
    seat = e.get("seat")
    who = style.who(seat, me)
    mine = seat == me
    if kind in ("ante", "burn", "end", "choose", "pool_draw_public"):
        return None
    if kind == "deal_hole":
        if "cards" in e and mine:
            return _line("You are dealt ", style.cards(e["cards"]))
        return None
    if kind == "deal_up":
        return _line(f"{who} {_verb(mine, 'are', 'is')} dealt face up ", style.cards(e["cards"]))
    if kind == "dead":
        label = str(e.get("label") or "dead card").capitalize()
        return _line(f"The {label}: ", style.card(e["card"]),
                     " (dead)" if label in ("Stop", "Drop") else "")
    if kind == "board":
        label = str(e.get("label") or "board").capitalize()
        return _line(f"The {label}: ", style.cards(e["cards"]))
    if kind == "round":
        opener = e.get("opener")
        return Text(f"-- {e['round']}: {style.who(opener, me)} "
                    f"{_verb(opener == me, 'open', 'opens')} --", style="dim")
    if kind == "round_skipped":
        return Text(f"-- {e['round']}: no betting (at most one player can bet) --", style="dim")
    if kind == "check":
        return Text(f"{who} {_verb(mine, 'check', 'checks')}")
    if kind == "call":
        allin = " (all-in)" if e.get("all_in") else ""
        return Text(f"{who} {_verb(mine, 'call', 'calls')} {e['amount']}{allin}")
    if kind in ("bet", "raise"):
        allin = " (all-in)" if e.get("all_in") else ""
        verb = _verb(mine, kind, kind + "s")
        return Text(f"{who} {verb} {'to ' if kind == 'raise' else ''}{e['to']}{allin}",
                    style="bold" if not mine else "")
    if kind == "fold":
        return Text(f"{who} {_verb(mine, 'fold', 'folds')}", style="dim")
    if kind == "return":
        return Text(f"{e['amount']} uncalled returned to {who}")
    if kind == "chose":
        return None
    if kind == "discard":
        if "cards" in e:
            return _line("You put in the pool: ", style.cards(e["cards"]))
        return None
    if kind == "pool":
        return Text(f"The pool ({e.get('count', '?')} cards) is shuffled", style="dim")
    if kind == "pool_draw":
        if mine and "card" in e:
            return _line("You draw from the pool: ", style.card(e["card"]))
        return None
    if kind == "expose":
        return _line(f"{who} {_verb(mine, 'turn', 'turns')} up ", style.card(e["card"]))
    if kind == "wild":
        return _line(f"{who} {_verb(mine, 'pick', 'picks')} pool card {e['position'] + 1}: ",
                     style.card(e["card"]), f" -- every {e['rank']} is wild")
    if kind == "draw_round":
        most = e.get("max")
        return Text(f"-- {e.get('draw', 'draw')}: throw away up to {most} --", style="dim")
    if kind == "draw":
        if mine and e.get("cards"):
            return _line("You throw away ", style.cards(e["cards"]))
        count = e.get("count", 0)
        if not count:
            return Text(f"{who} {_verb(mine, 'stand', 'stands')} pat")
        return Text(f"{who} {_verb(mine, 'draw', 'draws')} {count}")
    if kind == "draw_deal":
        if mine and e.get("cards"):
            return _line("You are dealt ", style.cards(e["cards"]))
        return None
    if kind == "stacked":
        if mine and e.get("cards"):
            return _line("Your stack, top first: ", style.cards(e["cards"]))
        return None
    if kind == "roll":
        return _line(f"{who} {_verb(mine, 'roll', 'rolls')} up ", style.card(e["card"]))
    if kind == "declare":
        return Text(f"{who} {_verb(mine, 'declare', 'declares')} {e['side']}", style="bold")
    if kind == "show":
        desc = e.get("description")
        side = f" (declared {e['side']})" if e.get("side") else ""
        return _line(f"{who} {_verb(mine, 'show', 'shows')} ", style.cards(e["cards"]),
                     f": {desc}" if desc else "", side)
    if kind == "muck":
        return Text(f"{who} {_verb(mine, 'muck', 'mucks')}", style="dim")
    if kind == "win":
        how = " uncontested" if e.get("uncontested") else ""
        pot = e.get("pot")
        which = "" if pot in (None, 0) else f" from side pot {pot}"
        if e.get("whole"):  # 5-2-1: nobody on the other side, so no split (R-521-9)
            other = "low" if e["whole"] == "high" else "high"
            which += f" (the whole pot: {e['whole']}, nobody on the {other} side)"
        elif e.get("half"):
            which += f" ({e['half']} half)"
        return Text(f"{who} {_verb(mine, 'win', 'wins')} {e['amount']}{how}{which}",
                    style="bold green")
    # a kind added by a game: say what we can
    out = _line(f"{who}: {kind.replace('_', ' ')}")
    if e.get("cards"):
        out.append(" ")
        out.append_text(style.cards(e["cards"]))
    elif "card" in e:
        out.append(" ")
        out.append_text(style.card(e["card"]))
    elif "side" in e:
        out.append(f" {e['side']}")
    return out


def _seat_status(s: SeatView) -> str:
    if s.folded:
        return "folded"
    if s.all_in:
        return "all-in"
    return ""


def pool_cards_still_possible(view: HandView) -> list[str]:
    """The viewer's own discards that may still be in the pool: not back in
    its hand, not the turned wild card, not face up in another hand."""
    gone: set[str] = set(view.dead) | set(view.board)
    for s in view.seats:
        gone.update(c for c in s.cards if c is not None)
    gone.update(str(e["card"]) for e in view.events if e["kind"] == "wild" and e.get("card"))
    return [c for c in view.my_pool if c not in gone]


def render_table(view: HandView, style: Style, *, title: str, game_name: str) -> list[Text]:
    """The table as ``view.seat`` sees it: dead cards and board, pool, wild rank,
    pots, then one line per seat (button, stack, bet this round, cards, status,
    whose turn)."""
    me = view.seat
    lines: list[Text] = [Text(f"{title} -- {game_name}"
                              + (f", {view.round}" if view.round else ""), style="bold")]
    table_bits: list[Text] = []
    if view.game == "sdr":
        labels = ["Stop", "Drop"]
        for i, d in enumerate(view.dead):
            table_bits.append(_line(f"{labels[i] if i < 2 else 'Dead'} ", style.card(d)))
        if view.board:
            table_bits.append(_line("Roll ", style.cards(view.board)))
    else:
        if view.board:
            table_bits.append(_line("Board ", style.cards(view.board)))
        if view.dead:
            table_bits.append(_line("Turned ", style.cards(view.dead)))
    if view.game == "rollyourown" or view.pool:
        maybe = pool_cards_still_possible(view)
        mine = _line(" (you put in ", style.cards(maybe), ")") if maybe else Text()
        table_bits.append(_line(f"Pool {view.pool} cards", mine))
    if view.wild_ranks:
        table_bits.append(Text(f"Wild: {' '.join(view.wild_ranks)}", style="bold magenta"))
    pots = view.pots
    if len(pots) > 1:
        pot_text = f"Pot {view.pot} (" + ", ".join(
            ("main " if i == 0 else f"side {i} ") + str(p["amount"]) for i, p in enumerate(pots)
        ) + ")"
    else:
        pot_text = f"Pot {view.pot}"
    bets = sum(s.bet for s in view.seats)
    if bets:
        pot_text += f" + {bets} bet this round"
    table_bits.append(Text(pot_text, style="bold yellow"))
    row = Text()
    for i, bit in enumerate(table_bits):
        if i:
            row.append("   ")
        row.append_text(bit)
    lines.append(row)
    width = max(len(n) for n in style.names) if style.names else 6
    for s in view.seats:
        if not s.dealt:
            lines.append(Text(f"  {style.names[s.seat]:<{width}}  out (no chips)", style="dim"))
            continue
        name = "You" if s.seat == me else style.names[s.seat]
        button = "D" if s.seat == view.button else " "
        if view.simultaneous:  # all at once: several seats choose, nobody "acts" in turn
            turn = " <- choosing" if s.seat in view.to_act else \
                ("  chosen" if not s.folded else "")
        else:
            turn = " <- to act" if s.seat in view.to_act else ""
        line = Text(f"{button} {name:<{width}}  stack {s.stack:>5}  bet {s.bet:>3}  ",
                    style="bold" if s.seat == me else "")
        if s.cards:
            for i, (c, up) in enumerate(zip(s.cards, s.up, strict=False)):
                if i:
                    line.append(" ")
                card = style.card(c)
                if up and s.seat == me and style.rich:
                    card.stylize("underline")
                line.append_text(card)
            if s.seat == me and any(s.up) and not all(s.up):
                up_cards = [c for c, u in zip(s.cards, s.up, strict=False) if u]
                line.append("  (up: ")
                line.append_text(style.cards(up_cards))
                line.append(")")
        status = _seat_status(s)
        if status:
            line.append(f"  {status}", style="dim")
        line.append(turn, style="bold cyan")
        lines.append(line)
    return lines


def render_result(view: HandView, style: Style) -> list[Text]:
    """After a hand: who won what with which hand, every shown hand described."""
    me = view.seat
    res = view.result or {}
    lines: list[Text] = []
    shown = res.get("shown", {})
    shown_cards = res.get("shown_cards", {})
    for key, desc in shown.items():
        s = int(key)
        cards = shown_cards.get(key)
        line = _line(f"{style.who(s, me)} showed ")
        if cards:
            line.append_text(style.cards(cards))
            line.append(": ")
        line.append(desc)
        lines.append(line)
    for i, pot in enumerate(res.get("pots", [])):
        label = "Pot" if len(res["pots"]) == 1 else ("Main pot" if i == 0 else f"Side pot {i}")
        winners = pot.get("winners", {})
        if not winners:
            lines.append(Text(f"{label} ({pot['amount']}): nobody collects"))
            continue
        parts = []
        for key, chips in winners.items():
            s = int(key)
            desc = shown.get(key)
            halves = []
            if pot.get("high") and key in pot["high"]:
                halves.append(f"high {pot['high'][key]}")
            if pot.get("low") and key in pot["low"]:
                halves.append(f"low {pot['low'][key]}")
            extra = f" ({', '.join(halves)})" if halves else ""
            sides = [h for h in ("high", "low") if h in pot and pot[h] is not None]
            if len(sides) == 2 and bool(pot["high"]) != bool(pot["low"]):
                # one side only: it took the whole pot (nobody on the other side)
                won = "high" if pot["high"] else "low"
                other = "low" if won == "high" else "high"
                extra = f" (the whole pot: {won}, nobody on the {other} side)"
            with_hand = f" with {desc}" if desc else " (uncontested)" \
                if not res.get("shown") else ""
            parts.append(f"{style.who(s, me)} {_verb(s == me, 'win', 'wins')} "
                         f"{chips}{extra}{with_hand}")
        lines.append(Text(f"{label} ({pot['amount']}): " + "; ".join(parts), style="green"))
    if res.get("carried"):
        lines.append(Text(f"{res['carried']} chips carry over to the next hand", style="yellow"))
    net = res.get("net", {})
    mine = net.get(str(me))
    if mine is not None:
        lines.append(Text(f"This hand: you {'won' if mine >= 0 else 'lost'} {abs(mine)}",
                          style="bold"))
    return lines
