"""Table sessions (R-C-12): button movement, sitting out, rebuys, dealer's choice, carry."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine_helpers import play_out
from rollem.bots.random_bot import random_action
from rollem.engine import Check
from rollem.games import get
from rollem.table import Table, TableError


def _check_down(table: Table) -> None:
    """Check every betting round; other decisions (draws, stacking, declare) at random."""
    hand = table.hand
    assert hand is not None
    rng = random.Random(0)
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        if hand.pending.kind == "bet":
            hand.apply(seat, Check())
        else:
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
    table.end_hand()


def test_button_moves_to_next_seat_dealt_in() -> None:
    table = Table([100, 0, 100, 100], button=0, rng=random.Random(1))
    buttons = []
    for _ in range(4):
        hand = table.new_hand()
        buttons.append(hand.button)
        assert hand.hole[1] == []  # no chips: sits out
        _check_down(table)
    assert buttons == [0, 2, 3, 0]


def test_first_button_skips_a_seat_without_chips() -> None:
    table = Table([0, 100, 100], button=0, rng=random.Random(1))
    assert table.new_hand().button == 1


def test_stacks_carry_between_hands_and_chips_are_conserved() -> None:
    rng = random.Random(4)
    table = Table([50] * 5, rng=random.Random(2), rebuy=50)
    for _ in range(100):
        play_out(table.new_hand(), rng)
        table.end_hand()
        assert table.chips == sum(table.brought)
    assert table.hands == 100


def test_without_rebuys_broke_seats_sit_out_until_one_is_left() -> None:
    rng = random.Random(5)
    table = Table([10, 10, 10], rng=random.Random(3))
    with pytest.raises(TableError, match="at least 2"):
        for _ in range(10000):
            play_out(table.new_hand(), rng)
            table.end_hand()
            assert sum(table.stacks) == 30
    assert sum(1 for s in table.stacks if s > 0) == 1


def test_dealers_choice_picks_a_game_that_fits() -> None:
    table = Table([100] * 9, game="dealers-choice", rng=random.Random(1))
    for _ in range(10):
        hand = table.new_hand()
        assert hand.game.min_players <= 9 <= hand.game.max_players
        _check_down(table)
    # the button may name the game
    hand = table.new_hand("sdr")
    assert hand.game.id == "sdr"


def test_carry_goes_into_the_next_main_pot() -> None:
    table = Table([100, 100], rng=random.Random(1))
    table.carry = 7  # e.g. a 5-2-1 pot carried over (R-521-9)
    hand = table.new_hand()
    assert hand.carry_in == 7 and table.carry == 0
    _check_down(table)
    assert hand.result is not None
    assert sum(p.amount for p in hand.result.pots) == 2 + 7
    assert table.chips == 207


def test_a_seat_out_keeps_its_chips_and_is_not_dealt_in() -> None:
    # Seat 1 sits out with 80 chips; seat 3 is empty (R-C-12: dealt in = chips, not out).
    table = Table([100, 80, 100, 0], out={1, 3}, rng=random.Random(2))
    hand = table.new_hand()
    assert hand.button == 0 and hand.hole[1] == [] and hand.start_stacks[1] == 0
    _check_down(table)
    assert table.stacks[1] == 80  # not played: untouched by the hand
    assert table.chips == 280
    table.out = {3}  # back in
    assert table.next_deal().players == (0, 1, 2)
    assert table.new_hand().button == 1  # the next seat dealt in after seat 0


def test_rebuys_on_request_and_by_themselves() -> None:
    table = Table([0, 0, 50], rebuy=40, auto_rebuy=lambda seat: seat == 1)
    assert table.rebuy_broke() == [1]
    assert table.stacks == [0, 40, 50] and table.brought == [0, 40, 50]
    assert table.rebuy_seat(0) == 40
    assert table.stacks == [40, 40, 50] and table.brought == [40, 40, 50]
    for seat, code in ((0, "has_chips"), (7, "bad_seat")):
        with pytest.raises(TableError) as err:
            table.rebuy_seat(seat)
        assert err.value.code == code
    assert table.stacks == [40, 40, 50] and table.brought == [40, 40, 50]
    none = Table([0, 50])
    with pytest.raises(TableError, match="does not allow rebuys"):
        none.rebuy_seat(0)
    assert none.rebuy_broke() == [] and none.stacks == [0, 50]


def test_in_the_hand_a_broke_seat_rebuys_after_it() -> None:
    table = Table([100, 100], rebuy=100, rng=random.Random(1))
    table.new_hand()
    table.stacks[0] = 0  # as if its chips were all in the pot
    with pytest.raises(TableError) as err:
        table.rebuy_seat(0)
    assert err.value.code == "in_hand"
    # All-in, its stack here is still the one it was dealt in with: it is told
    # that the chips in the pot count until the hand ends, not "you have chips".
    table.stacks[1] = 100
    with pytest.raises(TableError, match="chips in the pot count until it ends") as err:
        table.rebuy_seat(1)
    assert err.value.code == "in_hand" and table.stacks == [0, 100]


def test_the_button_names_the_game_between_next_deal_and_deal() -> None:
    table = Table([100] * 9, game="dealers-choice", button=4, by_id=False,
                  games=["sdr", "rollyourown", "rollem521"], rng=random.Random(1))
    deal = table.next_deal()
    # Five Card Roll Your Own deals at most 8 (R-C-12): two games fit 9, the host's order.
    assert deal.button == 4 and deal.players == tuple(range(9))
    assert [g.id for g in deal.games] == ["sdr", "rollem521"]
    assert table.button == 3 and table.hands == 0  # nothing changed yet
    with pytest.raises(TableError, match="does not fit 9 players: choose one of sdr, rollem521"):
        table.deal(deal, "rollyourown")
    hand = table.deal(deal, "rollem521")
    assert hand.game.id == "rollem521" and table.button == 4 and table.hands == 1
    # The terminal's table (by_id): the usual order, whatever the order given: our
    # three, then the standard games, then a user's game by id (s71: it was by id,
    # rollem521 first, unlike the web form, the docs and rollem play's GAME).
    usual = Table([100] * 6, game="dealers-choice",
                  games=["stud", "rollem521", "holdem", "sdr", "rollyourown"])
    assert [g.id for g in usual.next_deal().games] == [
        "sdr", "rollyourown", "rollem521", "holdem", "stud"]
    own = replace(get("holdem"), id="aardvark", name="Aardvark")
    mine = Table([100] * 3, game="dealers-choice", games=[own, "omaha", "sdr"])
    assert [g.id for g in mine.next_deal().games] == ["sdr", "omaha", "aardvark"]


def test_a_deal_goes_to_its_players_still_dealt_in_not_to_newcomers() -> None:
    """While the button names the game (between next_deal and deal) seats change:
    the hand is dealt to the players the deal was made for less those that left
    or sat out, never to a seat that sat down since; the button moves on if its
    own seat left (R-C-12)."""
    table = Table([100, 100, 100, 0, 100], game="dealers-choice", button=1, out={4},
                  games=["sdr", "rollyourown", "rollem521"], by_id=False)
    offered = table.next_deal()
    assert offered.button == 1 and offered.players == (0, 1, 2)
    table.out = {1}  # the button leaves; seat 4 comes in; seat 3 buys chips
    table.stacks[3] = 100
    assert table.dealt_in() == [0, 2, 3, 4] and table.still_dealt_in(offered) == [0, 2]
    hand = table.deal(offered, "sdr")
    assert hand.dealt == [True, False, True, False, False]
    assert table.button == hand.button == 2 and list(hand.start_stacks) == [100, 0, 100, 0, 0]
    assert table.hands == 1
    # Fewer than two of them left: nothing is dealt.
    table = Table([100, 100, 100], game="dealers-choice")
    offered = table.next_deal()
    table.out = {0, 2}
    with pytest.raises(TableError, match="1 of the 3 players of this deal") as err:
        table.deal(offered, "sdr")
    assert err.value.code == "no_players" and table.hands == 0 and table.hand is None


def test_why_no_deal_names_the_rule() -> None:
    assert Table([100, 100], game="sdr").why_no_deal() is None
    alone = Table([100, 0, 100], game="sdr", out={2}).why_no_deal()
    assert alone is not None and alone.code == "no_players"
    nine = Table([100] * 9, game="rollyourown").why_no_deal()  # at most 8 (R-C-12)
    assert nine is not None and nine.code == "no_fit" and "9 players" in str(nine)
    assert Table([100] * 9, game="dealers-choice").why_no_deal() is None


def test_a_stack_that_is_not_whole_chips_is_refused_at_once() -> None:
    """Try-out of issue 33 (branch s50-tryout): ``Table([100, -1])`` was taken, the
    seat at -1 sat out and the ledger counted it; a text stack raised a bare
    TypeError at the first hand."""
    for stacks in ([100, -1], [100, 100.5], [100, "x"], [100, True]):
        with pytest.raises(TableError, match=r"^stacks must be whole numbers of chips >= 0, "
                                             r"got \[100, ") as info:
            Table(stacks, game="sdr")  # type: ignore[arg-type]
        assert info.value.code == "bad_stacks"
    assert Table([100, 0], game="sdr").stacks == [100, 0]  # an empty seat has 0


def test_a_table_of_fewer_than_two_seats_is_refused_at_once() -> None:
    """A newcomer's ``Table([100])`` and ``Table([])`` were taken and failed at
    the first hand (issue 33, s71-new's seen-and-left)."""
    for stacks in ([], [100]):
        with pytest.raises(TableError, match=r"^a table has at least 2 seats .*, got "
                                             f"{len(stacks)}: ") as info:
            Table(stacks, game="sdr")
        assert info.value.code == "bad_stacks"
    assert Table([100, 100], game="sdr").n == 2
