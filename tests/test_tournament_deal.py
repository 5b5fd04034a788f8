"""Deals and rebuys of a tournament (issue 28): a deal shares the prizes left
by ICM or chip-chop in whole units, applied once all agree; rebuys in the
first levels only, each adding a buy-in to the pool."""

from __future__ import annotations

import pytest

from rollem.table import Table, TableError
from rollem.tournament import SCHEDULES
from rollem.tournament.places import Bust
from rollem.tournament.session import Tournament


def _final_three() -> tuple[Tournament, list[int]]:
    """4 entrants of 10 (pool 40, 65/35: prizes 26 and 14), seat 3 out 4th;
    seats 0-2 left with 200, 100 and 100 chips."""
    t = Tournament(SCHEDULES["turbo"], 4, buy_in=10)
    t.busts = [Bust(7, 3, 50)]
    return t, [200, 100, 100, 0]


def test_an_icm_deal_is_worked_by_hand_and_paid_in_whole_units() -> None:
    # By hand: seat 0 first 1/2, second 1/4*2/3 + 1/4*2/3 = 1/3: 13 + 14/3 = 17.67;
    # seats 1 and 2: first 1/4 (6.5), second 1/2*1/2 + 1/4*1/3 = 1/3 (4.67) = 11.17.
    # Rounded down 17 + 11 + 11 = 39: the odd unit to the biggest stack.
    t, stacks = _final_three()
    assert t.prizes_left(stacks) == [26, 14, 0]
    assert t.deal_offer(stacks, "icm") == {0: 18, 1: 11, 2: 11}
    # chip-chop: the smallest prize left (0) each, the 40 by chips
    assert t.deal_offer(stacks, "chip_chop") == {0: 20, 1: 10, 2: 10}


def test_an_agreed_deal_ends_it_and_pays_every_place() -> None:
    t, stacks = _final_three()
    assert not t.over(stacks)
    t.agree_deal(stacks, t.deal_offer(stacks, "icm"))
    assert t.over(stacks)
    assert t.places(stacks) == {3: 4, 0: 1, 1: 2, 2: 2}
    assert t.payouts(stacks) == {3: 0, 0: 18, 1: 11, 2: 11}
    assert sum(t.payouts(stacks).values()) == t.prize_pool
    state = t.state()
    back = Tournament(SCHEDULES["turbo"], 4, buy_in=10)
    back.load_state(state)
    assert back.payouts(stacks) == t.payouts(stacks) and back.busts == t.busts


def test_a_deal_must_share_the_prizes_left_among_the_players_left() -> None:
    t, stacks = _final_three()
    with pytest.raises(ValueError, match="prizes left"):
        t.agree_deal(stacks, {0: 20, 1: 20})
    with pytest.raises(ValueError, match="allowed icm, chip_chop"):
        t.deal_offer(stacks, "even")
    assert t.deal is None


def test_rebuys_in_the_first_levels_only_each_adding_a_buy_in() -> None:
    turbo = SCHEDULES["turbo"]  # levels of 6 hands
    t = Tournament(turbo, 3, buy_in=10, rebuy_levels=1)
    table = Table([100, 0, 200], game="sdr", tournament=t)
    t.record([100, 100, 100], [100, 0, 200])  # seat 1 busts in hand 1
    table.out.add(1)
    with pytest.raises(ValueError, match="has not busted"):
        t.rebuy(0)
    assert table.rebuy_seat(1) == turbo.stack
    assert table.stacks == [100, 100, 200] and 1 not in table.out and t.busts == []
    assert t.prize_pool == 40
    t.hands_played = 6  # level 2: closed
    table.stacks[1] = 0
    t.busts.append(Bust(6, 1, 30))
    with pytest.raises(TableError, match="in the first level only"):
        table.rebuy_seat(1)
    assert table.stacks[1] == 0 and t.prize_pool == 40
    assert table.rebuy_broke() == []  # never automatic in a tournament


def test_no_rebuys_unless_the_host_allows_them() -> None:
    t = Tournament(SCHEDULES["turbo"], 2)
    table = Table([0, 200], game="sdr", tournament=t)
    with pytest.raises(TableError, match="does not allow rebuys"):
        table.rebuy_seat(0)


def test_the_games_rotate_by_level() -> None:
    turbo = SCHEDULES["turbo"]  # 6 hands a level
    t = Tournament(turbo, 3, rotate=True)
    table = Table([100] * 3, game="dealers-choice", games=["rollem521", "sdr", "rollyourown"],
                  by_id=False, tournament=t)
    seen = []
    for hands in (0, 5, 6, 12, 18, 24):
        t.hands_played = hands
        seen.append([g.id for g in table.next_deal().games])
    assert seen == [["rollem521"], ["rollem521"], ["sdr"], ["rollyourown"], ["rollem521"],
                    ["sdr"]]
    plain = Table([100] * 3, game="dealers-choice", games=["rollem521", "sdr"], by_id=False,
                  tournament=Tournament(turbo, 3))
    assert [g.id for g in plain.next_deal().games] == ["rollem521", "sdr"]


def test_the_games_rotate_by_orbit_once_the_button_has_gone_round() -> None:
    """``rotate="orbit"``: three entrants play each game for three hands (the
    button at seats 0, 1, 2), the hands really played at the table model."""
    import random

    from rollem.bots import make_bot

    t = Tournament(SCHEDULES["slow"], 3, rotate="orbit")
    table = Table([100_000] * 3, game="dealers-choice", games=["rollem521", "sdr", "rollyourown"],
                  by_id=False, tournament=t, rng=random.Random(1))
    bots = [make_bot("basic", random.Random(s)) for s in range(3)]
    played = []
    for _ in range(7):
        hand = table.new_hand()
        played.append((hand.button, hand.game.id))
        while not hand.is_over:
            s = hand.pending.seats[0]  # type: ignore[union-attr]
            hand.apply(s, bots[s].act(hand.view(s)))
        table.end_hand()
    assert played == [(0, "rollem521"), (1, "rollem521"), (2, "rollem521"),
                      (0, "sdr"), (1, "sdr"), (2, "sdr"), (0, "rollyourown")]
    again = Tournament(SCHEDULES["slow"], 3, rotate="orbit")
    again.load_state(t.state())  # (the web table's store keeps the orbits)
    assert (again.orbits, again.orbit_from, again.last_button) == (2, 0, 0)


def test_an_orbit_ends_when_the_button_passes_a_busted_seat() -> None:
    """Seat 0 had the button at the orbit's start and busts: the orbit ends when
    the button passes over it (seat 2 to seat 1), a new one starts there."""
    t = Tournament(SCHEDULES["turbo"], 3, rotate="orbit")
    t.record([100] * 3, [100] * 3, 0)
    t.record([100] * 3, [0, 150, 150], 1)  # seat 0 busts
    assert t.rotation_step(2) == 0
    t.record([0, 150, 150], [0, 150, 150], 2)
    assert t.rotation_step(1) == 1  # (passing seat 0)
    t.record([0, 150, 150], [0, 150, 150], 1)
    assert (t.orbits, t.orbit_from) == (1, 1)
    assert t.rotation_step(2) == 1 and t.rotation_step(1) == 2


def test_a_rotation_must_be_by_level_or_orbit() -> None:
    with pytest.raises(ValueError, match="rotation 'hand': allowed level, orbit"):
        Tournament(SCHEDULES["turbo"], 3, rotate="hand")
    assert Tournament(SCHEDULES["turbo"], 3, rotate=True).rotate == "level"


def test_the_ledger_shows_buy_ins_rebuys_places_and_payouts_in_units() -> None:
    """4 entrants of 10, seat 1 rebought once (pool 50, 65/35: 33 and 17 by
    the odd-unit rule); seat 3 out 4th, seat 2 3rd (each declining the rebuy),
    seat 0 beats seat 1."""
    t = Tournament(SCHEDULES["turbo"], 4, buy_in=10, rebuy_levels=2)
    t.rebuys = {1: 1}
    t.busts = [Bust(7, 3, 50), Bust(9, 2, 30)]
    # stop 52: while they may still rebuy (rebuys open, neither declined) the
    # busted have no place yet (before: 3 and 4 beside their Rebuy buttons)
    assert [r["place"] for r in t.ledger([300, 100, 0, 0])] == [None] * 4
    t.declined = {2, 3}
    playing = t.ledger([300, 100, 0, 0])
    none = {"addon": False, "payout": None, "net": None}  # (no add-on here: stop 60)
    assert playing == [
        {"seat": 0, "rebuys": 0, "paid": 10, "place": None, **none},
        {"seat": 1, "rebuys": 1, "paid": 20, "place": None, **none},
        {"seat": 2, "rebuys": 0, "paid": 10, "place": 3, **none},
        {"seat": 3, "rebuys": 0, "paid": 10, "place": 4, **none}]
    t.busts.append(Bust(12, 1, 40))
    t.hands_played = 12  # (level 3: rebuys closed, so seat 1's bust ends it)
    over = t.ledger([400, 0, 0, 0])
    pay = t.payouts([400, 0, 0, 0])
    assert [(r["place"], r["payout"], r["net"]) for r in over] == [
        (1, pay[0], pay[0] - 10), (2, pay[1], pay[1] - 20), (3, 0, -10), (4, 0, -10)]
    assert sum(r["net"] for r in over) == 0 and pay[0] + pay[1] == 50


def test_the_rebuy_levels_in_words() -> None:
    """Stop 54: "the first 1 level(s)" said where the count is known."""
    from rollem.tournament.session import first_levels

    assert [first_levels(n) for n in (1, 2, 10)] == [
        "the first level", "the first 2 levels", "the first 10 levels"]


def test_settled_by_chips_the_players_left_are_placed_and_paid_by_place() -> None:
    """s63-table (the web table's end once every person is out): the players left
    are placed by chips, ties sharing a place and its prizes, paid by place; the
    state keeps it; it is refused with fewer than 2 left, with a rebuy to come, or
    once over."""
    t, stacks = _final_three()  # 200, 100, 100: seat 0 first, seats 1 and 2 share 2nd
    t.settle_by_chips(stacks)
    assert t.over(stacks) and not t.rebuy_open and t.deal is None
    assert t.places(stacks) == {3: 4, 0: 1, 1: 2, 2: 2}
    assert t.payouts(stacks) == {3: 0, 0: 26, 1: 7, 2: 7}  # (2nd's 14 shared: 3rd pays 0)
    again = Tournament(SCHEDULES["turbo"], 4, buy_in=10)
    again.load_state(t.state())
    assert again.settled and again.payouts(stacks) == t.payouts(stacks)
    with pytest.raises(ValueError, match="over"):
        t.settle_by_chips(stacks)
    heads_up = Tournament(SCHEDULES["turbo"], 2, buy_in=10, rebuy_levels=2)
    heads_up.busts = [Bust(3, 1, 100)]  # (not over: seat 1 may still rebuy)
    with pytest.raises(ValueError, match="2 or more players left"):
        heads_up.settle_by_chips([200, 0])
    rebuys = Tournament(SCHEDULES["turbo"], 3, buy_in=10, rebuy_levels=2)
    rebuys.busts = [Bust(3, 2, 100)]
    with pytest.raises(ValueError, match="may still rebuy"):
        rebuys.settle_by_chips([150, 150, 0])
