"""Roll Your Own late at 5 players: more candidates, half batches (issue 33, branch s53-ryo).

From the third card up at 5 players (every one of the four opponents
showing three cards) a 4,000-world batch's weights fell on a few hundred
worlds and batches spread by 2.3 to 3.3 points of equity; each opponent
is now read from 16 candidates (as at 6 players) instead of 4, which
about halves the spread squared times the CPU, and play draws half
batches (2,000 worlds) so that 7 or 8 fit in 1 s and the t of the spread
check stays small (docs/dev/odds-precision.md, branch s53-ryo). At 6
players in the third card up round the origin shares are learnt run by
run and a shown discard of the seat is placed by them (branch s55-ryo).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from rollem.engine import Hand, Options, SeededSource
from rollem.odds import ryoseen
from rollem.odds.play import play_odds
from rollem.odds.policy import FAST, PolicyPlayer
from rollem.odds.view import read_view


def _view_at(players: int, round_name: str, seed: int = 30001) -> Any:
    """Seat 0's first view in the betting round ``round_name`` of the seeded
    Roll Your Own hand of bench/bench_play_odds.py (ante 12, the fast
    policy at every seat)."""
    hand = Hand("rollyourown", [400] * players, button=seed % players,
                options=Options(ante=12), source=SeededSource(seed))
    seats = [PolicyPlayer(FAST, random.Random(s)) for s in range(players)]
    while not hand.is_over:
        assert hand.pending is not None
        who = hand.pending.seats[0]
        view = hand.view(who)
        if who == 0 and view.to_dict()["round"] == round_name:
            return view
        hand.apply(who, seats[who].act(view))
    raise AssertionError(f"the hand ended before seat 0 acted in {round_name}")


def _seen(players: int, round_name: str) -> ryoseen.SeenPool:
    seen = ryoseen.seen_of(read_view(_view_at(players, round_name)))
    assert seen is not None
    return seen


def test_16_candidates_and_half_batches_from_the_third_card_up_at_5_players_only() -> None:
    third, wild = "third card up", "after the wild card"
    assert ryoseen.LATE_CANDIDATES == 16 and ryoseen.CANDIDATES == 4
    assert ryoseen.candidates_for(_seen(5, third)) == 16
    assert ryoseen.candidates_for(_seen(5, wild)) == 16
    assert ryoseen.play_part(read_view(_view_at(5, third))) == 0.5
    # after the wild card whole batches with the place steps (branch s66-wild56),
    # halves since s67-five (each read from 4 times its worlds: ryoseen.READ_MORE_WILD_TIMES)
    assert ryoseen.play_part(read_view(_view_at(5, wild))) == 0.5
    # before the third card (two cards up each) and at 4 players, as before
    assert ryoseen.candidates_for(_seen(5, "second card up")) == 4
    assert ryoseen.play_part(read_view(_view_at(5, "second card up"))) == 1.0
    assert ryoseen.candidates_for(_seen(4, third)) == 4
    assert ryoseen.play_part(read_view(_view_at(4, third))) == 1.0
    # 6 players: the place steps' candidates; half batches in the third card
    # up round (branch s58-ryo), quarter batches after the wild card
    assert ryoseen.candidates_for(_seen(6, third)) == ryoseen.PLACE_CANDIDATES == 16
    assert ryoseen.play_part(read_view(_view_at(6, third))) == ryoseen.THIRD_PART == 0.5
    assert ryoseen.play_part(read_view(_view_at(6, wild))) == ryoseen.LATE_PART == 0.25
    assert ryoseen.play_part(read_view(_view_at(6, "second card up"))) == 1.0


def test_a_5_player_late_run_reads_each_opponent_from_16_and_lands_on_the_long_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # every opponent read (the pilot's and the batches') from 16 candidates;
    # eight half batches of 2,000 worlds (seeded, no clock; a run at 1 s
    # makes 7 or 8) state an interval that holds the 40 s long run of
    # branch s52-ryo (6.82% +- 0.23, 226 whole batches)
    read = ryoseen._read_opponent
    asked: list[int] = []

    def spy(*args: Any) -> Any:
        asked.append(int(args[10]))
        return read(*args)

    monkeypatch.setattr(ryoseen, "_read_opponent", spy)
    got = play_odds(_view_at(5, "third card up"), seed=2, max_batches=8,
                    clock=lambda: 0.0)
    assert len(asked) >= 8 * 4 and set(asked) == {16}
    assert got.samples == 8 * ryoseen.MIN_WORLDS // 2
    assert got.interval is not None
    assert abs(got.equity - 0.0682) <= got.interval


def test_6_players_third_card_up_is_played_in_half_batches_on_the_long_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 33, branch s58-ryo: at 6 players in the third card up round a
    # batch of play draws half a sampler batch (1,000 of 2,000 worlds), so
    # that 7 to 9 fit in 1 s rather than 4 or 5 and the spread check's t is
    # 2.36 to 2.45; ten seeded half batches (a run at 1 s makes 7 to 9) state
    # an interval that holds the 40 s long run of branch s52-ryo (30.78% +-
    # 0.82); the bench's long runs (batch_part=1.0) still draw whole batches
    from rollem.odds import play

    real = play.combine
    batches: list[Any] = []

    def combine(runs: Any, pooled: Any = True) -> Any:
        batches[:] = runs
        return real(runs, pooled)

    monkeypatch.setattr(play, "combine", combine)
    view = _view_at(6, "third card up")
    got = play_odds(view, seed=2, max_batches=10, clock=lambda: 0.0)
    assert [b.samples for b in batches] == [ryoseen.PLACE_WORLDS // 2] * 10 == [1000] * 10
    assert got.samples == 10_000
    assert got.interval is not None and 0.0 < got.interval < 0.03
    assert abs(got.equity - 0.3078) <= got.interval
    play_odds(view, seed=2, max_batches=2, clock=lambda: 0.0, batch_part=1.0)
    assert [b.samples for b in batches] == [ryoseen.PLACE_WORLDS] * 2


def test_5_player_late_views_read_the_opponents_in_the_order_they_first_drew(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # hand 30001 at 5 players: seats 2, 3, 4 and 1 dealt in that order, seat
    # 1 drawing first (pool place 0), then 2, 3, 4 (issue 33, branch s54-ryo)
    third = _seen(5, "third card up")
    assert [o.seat for o in third.opponents] == [2, 3, 4, 1]
    assert [o.draws[0] for o in third.opponents] == [1, 2, 3, 0]
    assert ryoseen.read_order(third) == [3, 0, 1, 2]
    # after the wild card, with the place steps (branch s66-wild56), before the
    # third card, and at 4 and 6 players: as dealt
    assert ryoseen.read_order(_seen(5, "after the wild card")) == [0, 1, 2, 3]
    assert ryoseen.read_order(_seen(5, "second card up")) == [0, 1, 2, 3]
    assert ryoseen.read_order(_seen(4, "third card up")) == [0, 1, 2]
    assert ryoseen.read_order(_seen(6, "third card up")) == [0, 1, 2, 3, 4]
    # a run reads them so, the pilot and the batch alike; each opponent's
    # origin shares (the next run's proposal) still stand at its own index
    read = ryoseen._read_opponent
    order: list[int] = []

    def spy(*args: Any) -> Any:
        order.append(int(args[1]))
        return read(*args)

    monkeypatch.setattr(ryoseen, "_read_opponent", spy)
    with ryoseen.shared_proposals():
        got = ryoseen.ryo_seen_look(third, samples=500, seed=3)
        shared = ryoseen._SHARED.get()
        assert shared is not None
        shares = next(v for k, v in shared.items()
                      if isinstance(k, tuple) and k[0] == repr(third))[0]
    assert got is not None
    # the pilot's two stages (its shares learnt since branch s65-five), then the batch's
    assert order == [3, 0, 1, 2] * 3
    assert [len(s) for s in shares] == [len(ryoseen._origins(o, set(third.discards)))
                                        for o in third.opponents]


def test_6_player_late_views_learn_the_origin_shares_run_by_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rollem.odds.ryoseen.READ_MORE", 1)  # (pinned without it: stop 64)
    # (main's sampler before branch s63-ryo: origin by origin, 8 orders of the pool
    # left; the one-pass read's law: tests/test_odds_read_fused.py)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)
    monkeypatch.setattr(ryoseen, "FUTURES", 8)
    # issue 33, branch s55-ryo: at 6 players in the third card up round the
    # pilot draws 1,000 worlds in two stages (400 with every origin alike,
    # 600 with their shares) and each run's origin shares are averaged into
    # the next run's proposal (weighed by worlds); after the wild card too
    # since branch s56-ryo (ryoseen.LEARN_WILD); elsewhere as before
    third = _seen(6, "third card up")
    assert ryoseen.learns_shares(third)
    assert ryoseen.learns_shares(_seen(6, "after the wild card"))
    assert not ryoseen.learns_shares(_seen(6, "second card up"))
    assert ryoseen.pilot_worlds(third) == ryoseen.LEARN_PILOT == 1000
    # at 5 players in the third card up round too since branch s65-five
    # (ryoseen.LEARN_THIRD_FROM; tests/test_odds_learn_five.py), and after the wild card
    # since branch s65-wild5 (ryoseen.LEARN_WILD_FROM; tests/test_odds_learn_wild5.py)
    assert ryoseen.learns_shares(_seen(5, "third card up"))
    assert ryoseen.learns_shares(_seen(5, "after the wild card"))
    assert ryoseen.pilot_worlds(_seen(5, "second card up")) == ryoseen.PILOT == 400
    worlds = ryoseen._worlds
    calls: list[tuple[int, Any, list[Any]]] = []  # (worlds, shares given, shares found)

    def spy(*args: Any, **kwargs: Any) -> Any:
        out = worlds(*args, **kwargs)
        given = kwargs.get("shares", args[7] if len(args) > 7 else None)
        calls.append((int(args[1]), given, out[4]))
        return out

    monkeypatch.setattr(ryoseen, "_worlds", spy)
    with ryoseen.shared_proposals():
        for seed in (3, 4, 5):
            assert ryoseen.ryo_seen_look(third, samples=2000, seed=seed) is not None
    assert [c[0] for c in calls] == [400, 600, 2000, 2000, 2000]  # the pilot's stages, 3 runs
    stage1, stage2, first, second, third_run = calls
    assert stage1[1] is None  # drawn alike
    for j in range(len(third.opponents)):
        assert np.allclose(stage2[1][j], stage1[2][j])
        assert np.allclose(first[1][j], stage2[2][j])
        assert np.allclose(second[1][j], (1000 * stage2[2][j] + 2000 * first[2][j]) / 3000)
        assert np.allclose(third_run[1][j], (1000 * stage2[2][j] + 2000 * first[2][j]
                                             + 2000 * second[2][j]) / 5000)
    # seat 4 (the third opponent): its second up card kept and its third
    # drawn last, (0, 0, 2), or both drawn, (0, 1, 2). Its share of (0, 0, 2)
    # once it is read (seeded): 0.031 in the pilot, 0.165 and 0.164 in the
    # runs, so the third run proposes 0.138 (with whose discard each named
    # card was drawn by the keep policy, branch s56-ryo, the shares found at
    # an opponent's step are those of other intermediate targets; branch
    # s55-ryo2's runs found 0.089 and 0.062 and proposed 0.070, main's
    # before it 0.015 and 0.503 and 0.208)
    assert [o.seat for o in third.opponents][2] == 4
    assert ryoseen._origins(third.opponents[2], set(third.discards))[2] == (0, 0, 2)
    assert stage2[2][2][2] == pytest.approx(0.031, abs=0.002)
    assert first[2][2][2] == pytest.approx(0.165, abs=0.002)
    assert second[2][2][2] == pytest.approx(0.164, abs=0.002)
    assert third_run[1][2][2] == pytest.approx(0.138, abs=0.002)


def test_6_player_third_card_up_places_a_shown_discard_by_the_shows_origins() -> None:
    # hand 30001: seat 1 shows the seat's own discard 4h as its third up
    # card, drawn from pool place 1 (its origins (0, 0, 1)) or 7 ((0, 0, 2),
    # (0, 1, 2)). With those origins' shares 0, 0.5, 0.5 the layout puts it
    # at place 1 in 0.2 / 3 of the worlds (DEFENSIVE 0.2 of them alike), not
    # half (issue 33, branch s55-ryo); the weights undo it, so the weighted
    # share of place 1 stays the prior's half. After the wild card the same
    # (since branch s56-ryo, ryoseen.LEARN_WILD).
    from rollem.cards import parse_card

    four = parse_card("4h")
    for round_name, steered in (("third card up", True), ("after the wild card", True)):
        seen = _seen(6, round_name)
        j = next(i for i, o in enumerate(seen.opponents) if four in o.ups)
        assert seen.opponents[j].seat == 1 and four in seen.discards
        combos = ryoseen._origins(seen.opponents[j], set(seen.discards))
        assert combos == [(0, 0, 1), (0, 0, 2), (0, 1, 2)]
        shares = [np.full(len(ryoseen._origins(o, set(seen.discards))), 1.0)
                  / len(ryoseen._origins(o, set(seen.discards))) for o in seen.opponents]
        shares[j] = np.array([0.0, 0.5, 0.5])
        order, _, _, weight, _ = ryoseen._layout(seen, 20000, np.random.default_rng(5), shares)
        at_1 = order[:, seen.opponents[j].draws[0]] == four
        assert (at_1 | (order[:, seen.opponents[j].draws[1]] == four)).all()
        if steered:
            assert at_1.mean() == pytest.approx(0.2 / 3, abs=0.006)
            # its 1 / q (15 at place 1, 15 / 14 at 7) is taken on at seat
            # 1's step since branch s55-ryo2 (below)
            weight = weight * np.where(at_1, 15.0, 15 / 14)
        else:
            assert at_1.mean() == pytest.approx(0.5, abs=0.012)
        assert weight[at_1].sum() / weight.sum() == pytest.approx(0.5, abs=0.03)


def test_6_player_third_card_up_puts_the_seats_discards_places_off_to_the_drawers_steps(
        ) -> None:
    # issue 33, branch s55-ryo2: hand 30001, seat 1 shows the seat's own 4h,
    # drawn from pool place 1 (origin (0, 0, 1)) or 7. Steered by seat 1's
    # origin shares (0 / 0.5 / 0.5), the layout puts it at place 1 in 0.2 / 3
    # of the worlds; the 1 / q of that place (15 there, 15 / 14 at place 7)
    # is now taken on at seat 1's step, with the 1 / q of its origins, not
    # in the layout's weights (on main the worlds at place 1 weighed 14 times
    # the others, and every resampling before seat 1's step, the last,
    # copied them, where the posterior gives (0, 0, 1) 0.01 to 0.07). The
    # seat's unseen discards (8s, 2c) are placed by the share of the
    # origins of whoever drew that place that leave that draw hidden, their
    # 1 / q put off to that opponent's step too. After the wild card the
    # same since branch s56-ryo (ryoseen.LEARN_WILD).
    from rollem.cards import parse_card

    four = parse_card("4h")
    for round_name, steered in (("third card up", True), ("after the wild card", True)):
        seen = _seen(6, round_name)
        j = next(i for i, o in enumerate(seen.opponents) if four in o.ups)
        shares = [np.full(len(ryoseen._origins(o, set(seen.discards))), 1.0)
                  / len(ryoseen._origins(o, set(seen.discards))) for o in seen.opponents]
        shares[j] = np.array([0.0, 0.5, 0.5])
        order, _, _, weight, later = ryoseen._layout(seen, 20000, np.random.default_rng(5),
                                                     shares)
        at_1 = order[:, seen.opponents[j].draws[0]] == four
        live = weight > 0
        assert live.mean() > 0.9
        if steered:
            assert at_1.mean() == pytest.approx(0.2 / 3, abs=0.006)
            # the layout's weights about even (the places' normaliser only):
            # main's were 3,150 at place 1 against 225
            assert weight[live].max() / weight[live].min() < 1.2
            full = weight * np.exp(later[:, j])  # with seat 1's step's part
            assert full[at_1].sum() / full.sum() == pytest.approx(0.5, abs=0.03)
        else:
            assert at_1.mean() == pytest.approx(0.5, abs=0.012)
            assert np.unique(weight[live]).size == 1  # (alike: even, as on main)
    # per place, the unseen discards' chance: 1 where no opponent drew; at
    # a draw, the share of the drawer's origins that leave it hidden (seat
    # 1's second draw, place 7, needed by its likely origins: 0.067)
    seen = _seen(6, "third card up")
    assert [(o.seat, o.draws) for o in seen.opponents] == [
        (2, [2, 8]), (3, [3, 9]), (4, [4, 10]), (5, [5, 11]), (1, [1, 7])]
    assert ryoseen._hidden_places(seen, shares, 18).round(3).tolist() == [
        1.0, 0.467, 0.4, 0.4, 0.4, 0.4, 1.0, 0.067, 0.6, 0.6, 0.6, 0.6,
        1.0, 1.0, 1.0, 1.0, 1.0, 1.0]


def _guides(seen: ryoseen.SeenPool, unseen: Any, gen: np.random.Generator) -> dict[Any, Any]:
    """Every opponent's guide per origin of its up cards, as ``_worlds`` makes them."""
    from rollem.odds.look521 import TREMBLE

    guides = {}
    for j, opp in enumerate(seen.opponents):
        for combo in ryoseen._origins(opp, set(seen.discards)):
            kept_up = [c for c, r in zip(opp.ups, combo, strict=True) if r == 0]
            drawn_up = {r: c for c, r in zip(opp.ups, combo, strict=True) if r}
            guides[(j, combo)] = ryoseen._guide(FAST, kept_up, 3 - len(kept_up), unseen, unseen,
                                                opp, drawn_up, TREMBLE, gen)
    return guides


def test_6_player_third_card_up_draws_whose_discard_each_named_card_was_by_the_keep_policy(
        ) -> None:
    # issue 33, branch s56-ryo: hand 30001, seat 2 shows 5s 6s 2d. A five or
    # six named as one of its discards (the seat's 6d drawn from place 6,
    # seat 3's 5c drawn) is a card its keep would not have thrown: with
    # 5s 6s kept and the 2d drawn last (origin (0, 0, 2)) the keep policy's
    # chance of it is near the floor, a deuce or trey's at the cap (1)
    from rollem.cards import parse_card, parse_cards
    from rollem.odds.look521 import TREMBLE

    seen = _seen(6, "third card up")
    assert ryoseen.steers_owners(seen)
    assert ryoseen.steers_owners(_seen(6, "after the wild card"))  # (LEARN_WILD)
    # at 5 players in the third card up round too since branch s65-five (the shares learnt
    # there, ryoseen.LEARN_THIRD_FROM), and after the wild card since branch s65-wild5
    # (ryoseen.LEARN_WILD_FROM)
    assert ryoseen.steers_owners(_seen(5, "third card up"))
    assert ryoseen.steers_owners(_seen(5, "after the wild card"))
    unseen = np.asarray([c for c in range(52) if c not in ryoseen._seen_cards(seen)])
    gen = np.random.default_rng(1)
    cards, prefs = ryoseen._owner_prefs(seen, FAST, TREMBLE, unseen, _guides(seen, unseen, gen),
                                        gen)
    col = {int(c): i for i, c in enumerate(cards)}
    named_cards = parse_cards("3c 6d 5s 6s 2d Qc 2s 5c 3d Th 5h 9c 3s 4c 8d Td")
    assert set(col) == set(named_cards)  # (not the seat's 4h)
    two = ryoseen._origins(seen.opponents[0], set(seen.discards)).index((0, 0, 2))
    for bad in ("6d", "5c", "5h"):
        assert prefs[0][two, col[parse_card(bad)]] < 0.25
    for good in ("2s", "3c", "3d"):
        assert prefs[0][two, col[parse_card(good)]] == pytest.approx(1.0)
    # its own up cards it keeps there are never its discards (the floor only)
    assert prefs[0][two, col[parse_card("5s")]] == pytest.approx(ryoseen.OWNER_FLOOR)
    # the owners drawn anew: the same card at every place, three labels an
    # owner; alike (every chance 1) the weights as they were
    order, named, origin, _, later = ryoseen._layout(seen, 20000, np.random.default_rng(5),
                                                     None)
    was = np.where(order >= 52, np.take_along_axis(named, np.maximum(order - 52, 0), 1), order)
    even = (cards, [np.ones_like(p) for p in prefs])
    for owners in (even, (cards, prefs)):
        w, lat = np.ones(len(order)), np.zeros_like(later)
        new_order, new_named = ryoseen._relabel(seen, order, named, origin, w, lat,
                                                np.random.default_rng(6), owners)
        now = np.where(new_order >= 52,
                       np.take_along_axis(new_named, np.maximum(new_order - 52, 0), 1),
                       new_order)
        assert (now == was).all()
        assert (np.sort(np.where(new_order >= 52, new_order, 99), axis=1)[:, :15]
                == np.arange(52, 67)).all()
        owner = (new_order[:, 6] - 52) // 3  # who threw the 6d the seat drew
        assert (new_order[:, 6] >= 52).all()
        full = w * np.exp(lat.sum(axis=1))
        if owners is even:
            assert (w == 1).all() and (lat == 0).all()
            assert (owner == 0).mean() == pytest.approx(0.2, abs=0.012)
        else:
            # seat 2 proposed it less often; the weights undo it (the prior's fifth)
            assert (owner == 0).mean() == pytest.approx(0.13, abs=0.012)
            assert full[owner == 0].sum() / full.sum() == pytest.approx(0.2, abs=0.012)


def test_6_player_after_the_wild_card_is_steered_as_the_third_card_up_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rollem.odds.ryoseen.PARTIAL_LABELS", {})  # (pinned without: s70-step)
    monkeypatch.setattr("rollem.odds.ryoseen.LOOK_AHEAD", frozenset())  # (and: s71-draw)
    monkeypatch.setattr("rollem.odds.ryoseen.READ_MORE", 1)  # (pinned without it: stop 64)
    # (main's sampler before branch s63-ryo: origin by origin, 8 orders of the pool
    # left; the one-pass read's law: tests/test_odds_read_fused.py)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)
    monkeypatch.setattr(ryoseen, "FUTURES", 8)
    # issue 33, branch s56-ryo (ryoseen.LEARN_WILD): 12 quarter batches
    # (seeded, no clock; a run at 1 s makes 10 to 14) state ±1.63 and ±3.54
    # points (main's ±8.34 and ±8.14), each holding the steered long run
    # (80 whole batches: 20.06 ± 0.47); ±3.75 for seed 4 leaning half towards
    # the ratio of sums (ryoseen.LEAN_WILD, branch s67-lean6), ±4.03 allowing for
    # the error's growth towards the middle (branch s70-edge: 20.48%, relative
    # error 3.75 / 20.48 = 0.18, b = 2 x 0.08 / 0.15 = 1.1; seed 3's 0.09: none)
    for seed, half in ((3, 0.0163), (4, 0.0403)):
        got = play_odds(_view_at(6, "after the wild card"), seed=seed, max_batches=12,
                        clock=lambda: 0.0)
        assert got.samples == 12 * ryoseen.PLACE_WORLDS // 4
        assert got.interval == pytest.approx(half, abs=0.0005)
        assert abs(got.equity - 0.2006) <= got.interval


def test_traced_batches_record_where_the_weights_collapse_and_leave_the_odds_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rollem.odds.ryoseen.PARTIAL_LABELS", {})  # (pinned without: s70-step)
    monkeypatch.setattr("rollem.odds.ryoseen.LOOK_AHEAD", frozenset())  # (and: s71-draw)
    monkeypatch.setattr("rollem.odds.ryoseen.READ_MORE", 1)  # (pinned without it: stop 64)
    # (main's sampler before branch s63-ryo: origin by origin, 8 orders of the pool
    # left; the one-pass read's law: tests/test_odds_read_fused.py)
    monkeypatch.setattr(ryoseen, "READ_FUSED", False)
    monkeypatch.setattr(ryoseen, "FUTURES", 8)
    # issue 33, branch s59-ryo (bench/bench_ryo_ess.py): hand 30001, 6
    # players after the wild card, a pilot and one quarter batch, seeded.
    # Every batch _worlds draws is recorded (the pilot's two stages without
    # the moves, its run and the batch with them); per opponent's step, in
    # read order, the share of effective worlds after it and of its own
    # factor, within and between that opponent's origins; and how few of
    # the layout's worlds the batch's 500 final worlds descend from (45,
    # some 9 effective: what its error and spread rest on)
    seen = _seen(6, "after the wild card")

    def run() -> Any:
        with ryoseen.shared_proposals(), ryoseen.part_of_batch(0.25):
            ryoseen.ryo_seen_look(seen, samples=500, seed=1)
            return ryoseen.ryo_seen_look(seen, samples=500, seed=100)

    plain = run()
    with ryoseen.traced() as trace:
        got = run()
    assert (got.equity, got.stderr, got.effective) == (plain.equity, plain.stderr,
                                                        plain.effective)
    assert [(t["worlds"], t["moves"]) for t in trace] == [(400, 0), (600, 0), (500, 64),
                                                           (500, 64)]
    last = trace[-1]
    assert [s["seat"] for s in last["steps"]] == [2, 3, 4, 5, 1]
    assert [round(s["kish"], 3) for s in last["steps"]] == [0.146, 0.669, 0.189, 0.461,
                                                            0.049]
    assert [round(s["between"], 3) for s in last["steps"]] == [0.776, 0.834, 0.906, 0.812,
                                                               0.912]
    # the step's own factor, whole and within origins: the loss is within
    assert [round(s["step_kish"], 3) for s in last["steps"]] == [0.148, 0.669, 0.207, 0.461,
                                                                 0.049]
    assert [round(s["within"], 3) for s in last["steps"]] == [0.294, 0.742, 0.34, 0.527,
                                                              0.271]
    assert last["ancestors"] == 45
    assert last["ancestor_kish"] == pytest.approx(8.73, abs=0.01)
    assert ryoseen._TRACE.get() is None  # (off again outside)
