"""The add-on (stop 60): once, when the rebuys close, every entrant still in may
buy a fixed number of chips for a fixed price into the prize pool; the window
closes when the first hand after the rebuys is dealt.  The model
(:class:`rollem.tournament.session.Tournament`), the table, the terminal and
``simulate``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rollem.table import Table, TableError
from rollem.tournament import SCHEDULES
from rollem.tournament.places import Bust
from rollem.tournament.session import AddonRefused, Tournament, bot_takes_addon
from rollem.tournament.simulate import run_tournaments

TURBO = SCHEDULES["turbo"]  # 6 hands a level, stack 100


def _at_the_window() -> tuple[Tournament, Table]:
    """4 entrants of 10, rebuys in level 1 (seat 3 rebought once: pool 50), an
    add-on of 150 chips for 5; level 1's 6 hands played, seat 2 busted in the
    last (rebuys now closed)."""
    t = Tournament(TURBO, 4, buy_in=10, rebuy_levels=1, addon_chips=150, addon_price=5)
    t.rebuys = {3: 1}
    t.hands_played = 6
    t.busts = [Bust(6, 2, 40)]
    table = Table([180, 120, 0, 200], game="sdr", tournament=t, out={2},
                  brought=[100, 100, 100, 200])
    return t, table


def test_the_window_opens_when_the_rebuys_close_and_closes_at_the_next_deal() -> None:
    t, table = _at_the_window()
    t.hands_played = 5  # level 1, hand 6 still to come: rebuys open
    assert t.rebuy_open and not t.addon_open
    with pytest.raises(TableError, match="offered once the rebuys close, at the end of "
                                         "level 1") as err:
        table.addon_seat(0)
    assert err.value.code == "addon_closed"
    t.hands_played = 6
    assert not t.rebuy_open and t.addon_open
    assert t.addon_waiting(table.stacks) == [0, 1, 3]  # seat 2 busted
    table.new_hand()  # the first hand of level 2 closes it
    assert t.addon_closed and not t.addon_open
    assert t.addon_waiting(table.stacks) == []
    with pytest.raises(AddonRefused, match="when the rebuys closed; play has resumed"):
        t.take_addon(1, table.stacks)


def test_an_add_on_adds_its_chips_and_its_price_and_chips_are_conserved() -> None:
    t, table = _at_the_window()
    assert t.prize_pool == 50
    chips_before = table.chips
    assert table.addon_seat(1) == 150
    assert table.stacks == [180, 270, 0, 200] and table.brought == [100, 250, 100, 200]
    assert t.prize_pool == 55 and t.addons == {1}
    t.decline_addon(0, table.stacks)
    assert table.addon_seat(3) == 150
    # every chip at the table is a buy-in's, a rebuy's or an add-on's
    assert chips_before == 500 and table.chips == 800  # two add-ons of 150
    assert t.prize_pool == 60
    assert [r["paid"] for r in t.ledger(table.stacks)] == [10, 15, 10, 25]
    assert [r["addon"] for r in t.ledger(table.stacks)] == [False, True, False, True]


def test_bad_add_ons_are_refused_and_change_nothing() -> None:
    t, table = _at_the_window()
    table.addon_seat(1)
    t.decline_addon(0, table.stacks)
    before = (list(table.stacks), list(table.brought), t.prize_pool, t.state())
    for seat, code, words in ((1, "taken", "took the add-on already: one a player"),
                              (0, "declined", "said no thanks"),
                              (2, "busted", "a busted player cannot add on"),
                              (9, "bad_seat", "no such seat 9")):
        with pytest.raises(TableError, match=words) as err:
            table.addon_seat(seat)
        assert err.value.code == code
    with pytest.raises(AddonRefused, match="not an entrant") as refused:
        t.take_addon(7, [*table.stacks, 0, 0, 0, 0])
    assert refused.value.code == "not_entrant"
    assert (table.stacks, table.brought, t.prize_pool, t.state()) == before
    cash = Table([100, 100], game="sdr")
    with pytest.raises(TableError, match="a cash game") as err:
        cash.addon_seat(0)
    assert err.value.code == "not_tournament"
    none = Tournament(TURBO, 2, rebuy_levels=1)
    none.hands_played = 6
    with pytest.raises(AddonRefused, match="no add-on") as refused:
        none.take_addon(0, [100, 100])
    assert refused.value.code == "no_addon"


def test_an_add_on_waits_for_the_hand_in_play() -> None:
    t, table = _at_the_window()
    t.hands_played = 5
    hand = table.new_hand()  # the last hand of level 1 (its 6th)
    t.hands_played = 6  # (as the web's clock moves the level mid-hand)
    assert not hand.is_over and t.addon_open
    with pytest.raises(TableError, match="take the add-on after it") as err:
        table.addon_seat(0)
    assert err.value.code == "in_hand" and t.addons == set()


def test_an_add_on_needs_rebuys_and_whole_amounts() -> None:
    with pytest.raises(ValueError, match="needs rebuys"):
        Tournament(TURBO, 3, addon_chips=100)
    with pytest.raises(ValueError, match=">= 0"):
        Tournament(TURBO, 3, rebuy_levels=1, addon_chips=-1)
    assert Tournament(TURBO, 3, buy_in=20, rebuy_levels=1, addon_chips=50).addon_price == 20


def test_the_add_ons_survive_the_store_and_go_into_the_history_and_places() -> None:
    t, table = _at_the_window()
    table.addon_seat(0)
    t.decline_addon(1, table.stacks)
    back = Tournament(TURBO, 4, buy_in=10, rebuy_levels=1, addon_chips=150, addon_price=5)
    back.load_state(t.state())
    assert (back.addons, back.addon_declined, back.prize_pool) == ({0}, {1}, 55)
    assert back.hand_record() == {"schedule": "turbo", "level": 2, "ante": 1, "small_bet": 3,
                                  "big_bet": 6, "hands": 6, "minutes": 5.0,
                                  "addon_chips": 150, "addon_price": 5, "addons": [0]}
    # the end: seat 0 holds every chip; the pool of 55 (65/35 for 4) is paid by place
    stacks = [table.chips, 0, 0, 0]
    t.busts += [Bust(7, 1, 120), Bust(8, 3, 200)]
    assert t.over(stacks)
    assert t.payouts(stacks) == {0: 36, 3: 19, 1: 0, 2: 0}
    assert sum(t.payouts(stacks).values()) == t.prize_pool == 55
    # an ICM deal among three shares the prizes of the pool with the add-on in it
    t2, table2 = _at_the_window()
    table2.addon_seat(0)
    offer = t2.deal_offer(table2.stacks, "icm")
    assert sum(offer.values()) == 55


def test_the_settle_up_counts_the_add_ons() -> None:
    from rollem.settle import settle_tournament

    t, table = _at_the_window()
    table.addon_seat(0)  # Ann: 10 + 5
    table.addon_seat(3)  # Dan: 10 + 10 (a rebuy) + 5
    stacks = [table.chips, 0, 0, 0]
    t.busts += [Bust(7, 1, 120), Bust(8, 3, 350)]
    names = ["Ann", "Bob", "Cat", "Dan"]
    lines = [{"name": names[r["seat"]], **r} for r in t.ledger(stacks)]
    out = settle_tournament(lines, over=True)
    assert out["pool"] == t.prize_pool == 60
    # 65/35 of 60: Ann 39, Dan 21
    assert out["payouts"] == [{"from": "prize pool", "to": "Ann", "units": 39},
                              {"from": "prize pool", "to": "Dan", "units": 21}]
    assert [(r["paid"], r["net"]) for r in lines] == [(15, 24), (10, -10), (10, -10),
                                                     (25, -4)]


def test_the_computer_players_rule() -> None:
    assert bot_takes_addon(299, 100) and not bot_takes_addon(300, 100)


def test_simulate_takes_add_ons_and_the_chips_and_units_add_up() -> None:
    run = run_tournaments("sdr", TURBO, ["random"] * 4, tournaments=4, hands_max=3000,
                          seed=3, buy_in=10, rebuy_levels=1, addon_chips=100, addon_price=5)
    # (each hand's chips are checked in run_tournaments: buy-ins, rebuys, add-ons)
    assert run.unfinished == 0
    assert 0 < run.addons <= 16
    assert sum(run.winnings) == 0  # every unit paid in is paid out


def _terminal(tmp_path: Path, answers: list[str]) -> tuple[str, list[str], Tournament,
                                                             list[int]]:
    """You (seat 0) and two computer players at the end of level 1 of 1 rebuy level."""
    from rollem.cli.play_cmd import TerminalGame
    from rollem.cli.tourney_flags import TournamentFlags

    it = iter(answers)
    prompts: list[str] = []
    out = io.StringIO()
    game = TerminalGame(game="sdr", players=3, level="random", stack=200, seed=5,
                        show_odds=False, history_dir=tmp_path, rich=False,
                        read_line=lambda prompt: prompts.append(prompt) or next(it, "q"),
                        out=out, tournament=TURBO,
                        tournament_flags=TournamentFlags(buy_in=10, rebuy_levels=1,
                                                         addon_chips=120, addon_price=4))
    t = game.tournament
    assert t is not None
    game.table.stacks[:] = [80, 100, 400]  # Bob holds 4 times the add-on: he declines
    t.hands_played = 6
    stacks: list[int] = []
    real = game.table.new_hand

    def dealt() -> object:
        stacks.extend(game.table.stacks)
        return real()

    game.table.new_hand = dealt  # type: ignore[method-assign]
    game.run()
    return out.getvalue(), prompts, t, stacks


def test_the_terminal_offers_the_add_on_once_and_the_bots_answer(tmp_path: Path) -> None:
    text, prompts, t, stacks = _terminal(tmp_path, ["maybe", "y"])
    # (over 80 columns: its start is said, the prompt is the rest; s73-newcomer)
    assert "The rebuys are closed. Add-on: +120 chips for 4 (you have 80). Take it?\n" in text
    assert prompts[0] == "  (y = take, n = no thanks) > "
    assert "'maybe': answer y (take the add-on) or n (no thanks)" in text
    assert "You take the add-on: +120 chips, 200 now (4 more in the prize pool, 34)." in text
    assert "Ann takes the add-on: +120 chips" in text and "Bob declines the add-on." in text
    assert stacks[:3] == [200, 220, 400]  # the first hand of level 2 dealt with them
    assert t.addons == {0, 1} and t.addon_declined == {2} and t.addon_closed
    assert text.count("The rebuys are closed. Add-on:") == 2
    assert sum(1 for p in prompts if p == "  (y = take, n = no thanks) > ") == 2
    # the ledger (you quit in the first hand of level 2): the add-ons in what was paid
    assert "  You  paid 14 (add-on), still playing with 200 chips" in text
    assert "  Bob  paid 10, still playing with 400 chips" in text


def test_the_terminal_no_thanks(tmp_path: Path) -> None:
    text, _, t, stacks = _terminal(tmp_path, ["n"])
    assert "No add-on for you." in text
    assert t.addons == {1} and t.addon_declined == {0, 2} and t.prize_pool == 34
    assert stacks[:3] == [80, 220, 400]
