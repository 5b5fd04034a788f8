"""``rollem play``'s table fits 80 columns (s61-term).

A 5-2-1 row of your own, with its up cards, draws and turn, ran to 96 columns
(103 with big stacks), and a real terminal wrapped it anywhere; Roll Your
Own's pool-and-pot line and stud's rows with big stacks ran past 80 too.
Every line :func:`rollem.cli.screen.render_table` draws now fits, in the three
games and the standard ones at 2 to 7 players, with the terminal's names
and with names of the longest length allowed, and no word is lost: the
fitted lines hold the same words, in the same order, as the table drawn
without a width limit."""

from __future__ import annotations

import random

import pytest
from rich.cells import cell_len
from rich.text import Text

from rollem.bots import make_bot
from rollem.cli.play_cmd import BOT_NAMES
from rollem.cli.screen import Style, render_table
from rollem.engine.options import Options
from rollem.narration import Narrator
from rollem.server.live_table.player_names import MAX_NAME
from rollem.table import Table

GAMES = ("sdr", "rollyourown", "rollem521", "holdem", "omaha", "omaha8", "stud", "stud8",
         "razz", "draw5", "deuces-wild")
BIG = 100_000_000  # rollem.limits.MAX_STACK: the widest stacks and bets


def _tables(game: str, players: int, names: list[str], stack: int,
            seed: int) -> list[tuple[list[Text], list[Text]]]:
    """``(narrow, wide)`` drawings of the table (seat 0's view, rich: suit symbols)
    at every decision of one hand of random computer players, and at its end."""
    table = Table([stack] * players, game=game, rng=random.Random(seed), button=seed % players,
                  options=Options(ante=1, small_bet=max(2, stack // 50),
                                  big_bet=max(4, stack // 25)))
    hand = table.new_hand()
    bots = [make_bot("random", random.Random(seed * 10 + s)) for s in range(players)]
    narrator = Narrator(names, 0, options=hand.options.to_dict(), game=hand.game.id)
    style = Style(True, names)
    fed, drawn = 0, []
    while True:
        view = hand.view(0)
        for e in view.events[fed:]:
            narrator.feed(e)
        fed = len(view.events)
        kw = {"title": "Hand 9999", "game_name": hand.game.name, "narrator": narrator}
        drawn.append((render_table(view, style, **kw),
                      render_table(view, style, width=10_000, **kw)))
        if hand.is_over:
            return drawn
        seat = hand.pending.seats[0]
        hand.apply(seat, bots[seat].act(hand.view(seat)))


@pytest.mark.parametrize("game", GAMES)
def test_every_line_of_the_table_fits_80_columns_and_keeps_every_word(game: str) -> None:
    from rollem.games import get

    g = get(game)
    checked = 0
    for players in range(2, 8):
        if not g.min_players <= players <= g.max_players:
            continue
        for names, stack, seed in ((["You", *BOT_NAMES[:players - 1]], 200, players),
                                   (["You", *BOT_NAMES[:players - 1]], BIG, players + 1),
                                   ([f"{i}" * MAX_NAME for i in range(players)], BIG, players)):
            for narrow, wide in _tables(game, players, names, stack, seed):
                for line in narrow:
                    assert cell_len(line.plain) <= 80, (game, players, line.plain)
                assert " ".join(t.plain for t in narrow).split() == \
                    " ".join(t.plain for t in wide).split()
                checked += 1
    assert checked > 20


def test_a_5_2_1_row_goes_on_under_its_cards() -> None:
    """The row of the report: your 5-2-1 cards, four of them up, two draws and
    your turn (96 columns): the draws and the turn go on the next line, under
    the cards; a row that fits is one line, as before."""
    from rollem.cli import screen

    row = [("", Text("  You  stack   163  bet   0  ")),
           ("", Text("A♠ 6♠ 9♦ 2♥ T♠")), ("  ", Text("(up: A♠ 6♠ 9♦ 2♥)")),
           ("  ", Text("drew 2, then stood pat")), (" ", Text("<- to act"))]
    lines = [t.plain for t in screen.fit_parts(row, 78, 29)]
    assert lines == ["  You  stack   163  bet   0  A♠ 6♠ 9♦ 2♥ T♠  (up: A♠ 6♠ 9♦ 2♥)",
                     " " * 29 + "drew 2, then stood pat <- to act"]
    assert [t.plain for t in screen.fit_parts(row[:3], 78, 29)] == \
        ["  You  stack   163  bet   0  A♠ 6♠ 9♦ 2♥ T♠  (up: A♠ 6♠ 9♦ 2♥)"]

