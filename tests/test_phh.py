"""Standard PHH in and out (issue 29, rollem.phh): rollem's hands written as
PHH replay in PokerKit to rollem's finishing stacks; PokerKit's hands
(``HandHistory.from_game_state``) and the phh-std examples (tests/phh/)
replay in rollem to PokerKit's; every refusal is one line naming what is
wrong."""

from __future__ import annotations

import json
import random
import tomllib
import warnings
from dataclasses import replace
from pathlib import Path

import pokerkit as pk
import pytest
import tomli_w
from click.testing import CliRunner

from cli_helpers import unwrapped
from engine_helpers import play_out, random_action
from rollem.cli.app import app
from rollem.engine import Hand, Options, SeededSource
from rollem.engine.actions import Call, Check, Draw
from rollem.history import write_history, write_own_copy
from rollem.phh import (
    PHHError,
    copy_phh_dict,
    phh_dict,
    read_phh,
    replay_phh,
    session_table,
    write_phh,
)
from rollem.phh.variants import variant_game

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
HANDS = 30
HERE = Path(__file__).parent / "phh"

# rollem game, options -> the PHH variant code they export as
GAMES = {
    "NT": ("holdem", Options(structure="no-limit", ante=0, small_bet=2, big_bet=2)),
    "FT": ("holdem", Options(ante=0, small_bet=2, big_bet=4)),
    "PO": ("omaha", Options(structure="pot-limit", ante=0, small_bet=2, big_bet=2)),
    "FO/8": ("omaha8", Options(ante=0, small_bet=2, big_bet=4)),  # fixed limit, as phh-std
    "F7S": ("stud", Options(ante=1, small_bet=2, big_bet=4)),
    "F7S/8": ("stud8", Options(ante=1, small_bet=2, big_bet=4)),
    "FR": ("razz", Options(ante=1, small_bet=2, big_bet=4)),
    "N2L1D": ("deuce7-single", Options(structure="no-limit", ante=0, small_bet=2, big_bet=2)),
    "F2L3D": ("deuce7-triple", Options(ante=0, small_bet=2, big_bet=4)),
    "FB": ("badugi", Options(ante=0, small_bet=2, big_bet=4)),
    "NS": ("shortdeck", Options(structure="no-limit", ante=0, small_bet=2, big_bet=2)),
}
TRIPLE_DRAWS = ("F2L3D", "FB")  # four players at most: 52 cards for three draws


def _pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pk.HandHistory.loads(text))
    return list(states[-1].stacks)


def _known_divergence(hand: Hand) -> bool:
    """The known differences from PokerKit (tests/pokerkit_diff.py): a
    fixed-limit all-in bet or raise short of a full one (R-C-6), and the odd
    chips of a split pot (R-C-10: one at a time from the dealer's left, a
    hi-lo pot's to the high half; PokerKit places them otherwise)."""
    short = hand.options.structure == "fixed-limit" and any(
        e.kind in ("bet", "raise") and e.data.get("all_in") for e in hand.events)
    odd = hand.result is not None and any(
        (p.low and p.high and p.amount % 2) or (len(p.winners) > 1
                                                 and p.amount % len(p.winners))
        for p in hand.result.pots)
    return bool(short or odd)


def _our_hand(code: str, seed: int) -> Hand:
    game_id, options = GAMES[code]
    rng = random.Random(seed)
    game = variant_game(game_id)
    n = rng.randint(2, min(game.max_players, 4 if code in TRIPLE_DRAWS else 10))  # (52 cards)
    stacks = [rng.choice([6, 25, 80, 200]) for _ in range(n)]
    hand = Hand(game, stacks, button=rng.randrange(n), options=options,
                source=SeededSource(seed))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        if hand.pending.kind == "draw":  # discard 0 to 3 of the hand at random
            held = list(hand.hole[seat])
            hand.apply(seat, Draw(tuple(rng.sample(held, rng.randint(0, 3)))))
        else:
            hand.apply(seat, random_action(hand, seat, rng))
    return hand


@pytest.mark.parametrize("code", sorted(GAMES))
def test_our_hands_replay_in_pokerkit(code: str) -> None:
    compared = 0
    for seed in range(HANDS):
        hand = _our_hand(code, seed)
        text = write_phh(hand)
        table = phh_dict(hand)
        assert table["variant"] == code
        ours = table["finishing_stacks"]
        assert ours == [hand.stacks[s] for s in table["_seats"]]
        assert table["_seats"][-1] == hand.button  # PHH: the button is the last player
        # rollem reads its own PHH back to the same stacks
        assert replay_phh(read_phh(text)).finishing_stacks == ours
        if _known_divergence(hand):
            continue
        assert _pokerkit_stacks(text) == ours, f"{code} seed {seed}:\n{text}"
        compared += 1
    assert compared >= HANDS * 2 // 3


@pytest.mark.parametrize("code", sorted(GAMES))
def test_own_copies_export_with_hidden_cards(code: str) -> None:
    """A player's own copy (as rollem play saves it) as PHH: the cards it
    hides are ??, yet PokerKit and rollem replay it to the copy's stacks (a
    hidden hand at the showdown was mucked: it wins nothing); the draws'
    too (the cards a hidden player shows are those it holds after them)."""
    compared = 0
    for seed in range(HANDS // 2):
        hand = _our_hand(code, seed)
        seat = next(s for s in range(seed, seed + hand.n) if hand.dealt[s % hand.n]) % hand.n
        copy = tomllib.loads(write_own_copy(hand, seat))
        table = copy_phh_dict(copy)
        text = tomli_w.dumps(table)
        assert table["finishing_stacks"] == [hand.stacks[s] for s in table["_seats"]]
        assert table["_seats"][table["_redacted_for"]] == seat
        for line in table["actions"]:  # no card the seat did not see
            w = line.split()
            if w[:2] == ["d", "dh"] and w[2] != f"p{table['_redacted_for'] + 1}":
                other = table["_seats"][int(w[2][1:]) - 1]
                down = [str(c) for c, up in zip(hand.hole[other], hand.up[other], strict=True)
                        if not up and other not in (hand.result.shown if hand.result else {})]
                assert not any(c in w[3] for c in down), line
        assert replay_phh(read_phh(text)).finishing_stacks == table["finishing_stacks"]
        if not _known_divergence(hand):
            assert _pokerkit_stacks(text) == table["finishing_stacks"], text
            compared += 1
    assert compared >= HANDS // 3


@pytest.mark.parametrize("code", TRIPLE_DRAWS)
def test_a_triple_draw_that_reshuffles_exports_and_reads_back(code: str) -> None:
    """Five or six players who call and throw two cards or more at each draw:
    the deck runs out and the discards are reshuffled (as PokerKit does). The
    hand as PHH deals a thrown card again, and rollem reads it back (it was
    refused as dealt twice); each player's own copy is PHH from start to end
    (it stopped at the reshuffle, so PokerKit could not load it)."""
    game_id, options = GAMES[code]
    for seed in (1, 2):
        rng = random.Random(seed)
        n = 5 + seed % 2
        hand = Hand(variant_game(game_id), [200] * n, button=seed % n, options=options,
                    source=SeededSource(seed))
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            if hand.pending.kind == "draw":
                held = list(hand.hole[seat])
                hand.apply(seat, Draw(tuple(rng.sample(held, rng.randint(2, len(held))))))
            else:
                hand.apply(seat, Call() if "call" in hand.legal_actions(seat).actions
                           else Check())
        assert any(e.kind == "reshuffle" for e in hand.events)
        text = write_phh(hand)
        stacks = phh_dict(hand)["finishing_stacks"]
        assert replay_phh(read_phh(text)).finishing_stacks == stacks == _pokerkit_stacks(text)
        for seat in range(n):
            table = copy_phh_dict(tomllib.loads(write_own_copy(hand, seat)))
            copy = tomli_w.dumps(table)
            assert table["finishing_stacks"] == stacks
            assert replay_phh(read_phh(copy)).finishing_stacks == stacks, copy
            assert _pokerkit_stacks(copy) == stacks, copy


@pytest.mark.parametrize("structure", ["no-limit", "fixed-limit"])
def test_blinds_and_a_straddle_export(structure: str) -> None:
    """House blinds 5/10 and a straddle of 20 (3 to 9 players): PHH's
    blinds_or_straddles, replayed by PokerKit to rollem's stacks."""
    compared = 0
    for seed in range(HANDS):
        rng = random.Random(seed)
        n = rng.randint(3, 9)
        options = Options(structure=structure, ante=0, small_bet=10, big_bet=20,
                          house={"small_blind": 5, "big_blind": 10, "straddle": 20})
        hand = Hand("holdem", [rng.choice([60, 300, 1000]) for _ in range(n)],
                    button=rng.randrange(n), options=options, source=SeededSource(seed))
        play_out(hand, rng)
        table = phh_dict(hand)
        assert table["blinds_or_straddles"] == [5, 10, 20] + [0] * (n - 3)
        text = write_phh(hand)
        assert replay_phh(read_phh(text)).finishing_stacks == table["finishing_stacks"]
        if not _known_divergence(hand):
            assert _pokerkit_stacks(text) == table["finishing_stacks"], text
            compared += 1
    assert compared >= HANDS * 2 // 3


# ---------------------------------------------------------------- PokerKit's hands

_AUTO = (pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION,
         pk.Automation.BLIND_OR_STRADDLE_POSTING, pk.Automation.CARD_BURNING,
         pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING, pk.Automation.HAND_KILLING,
         pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING)

_CASH = {"mode": pk.Mode.CASH_GAME}  # as HandHistory replays a file
PK_GAMES = {  # antes not trimmed (PHH's default): dead money in the main pot
    "NT": lambda: pk.NoLimitTexasHoldem(_AUTO, False, [0, 2], (1, 2), 2, **_CASH),  # BB ante
    "FT": lambda: pk.FixedLimitTexasHoldem(_AUTO, False, 1, (1, 2), 2, 4, **_CASH),
    "PO": lambda: pk.PotLimitOmahaHoldem(_AUTO, False, 0, (1, 2), 2, **_CASH),
    "FO/8": lambda: pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter(
        _AUTO, False, {-1: 3}, (1, 2), 2, 4, **_CASH),  # button ante
    "F7S": lambda: pk.FixedLimitSevenCardStud(_AUTO, False, 1, 1, 2, 4, **_CASH),
    "F7S/8": lambda: pk.FixedLimitSevenCardStudHighLowSplitEightOrBetter(
        _AUTO, False, 2, 1, 4, 8, **_CASH),
    "FR": lambda: pk.FixedLimitRazz(_AUTO, False, 1, 1, 2, 4, **_CASH),
    "N2L1D": lambda: pk.NoLimitDeuceToSevenLowballSingleDraw(_AUTO, False, 0, (1, 2), 2,
                                                             **_CASH),
    "F2L3D": lambda: pk.FixedLimitDeuceToSevenLowballTripleDraw(_AUTO, False, 0, (1, 2), 2, 4,
                                                                **_CASH),
    "FB": lambda: pk.FixedLimitBadugi(_AUTO, False, 0, (1, 2), 2, 4, **_CASH),
    "NS": lambda: pk.NoLimitShortDeckHoldem(_AUTO, False, 0, (1, 2), 2, **_CASH),
}


def _pokerkit_hand(code: str, seed: int) -> tuple[str, list[int]]:
    rng = random.Random(seed)
    game = PK_GAMES[code]()
    n = rng.randint(2, 4 if code in TRIPLE_DRAWS else 6)  # (52 cards for three draws)
    state = game([rng.choice([30, 80, 200]) for _ in range(n)], n)
    ranks = "6789TJQKA" if code == "NS" else "23456789TJQKA"  # (a short deck: 36 cards)
    deck = [pk.Card.parse(f"{r}{s}").__next__() for r in ranks for s in "cdhs"]
    rng.shuffle(deck)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_deal_hole():
                state.deal_hole((deck.pop(),))
            elif state.can_deal_board():
                state.deal_board((deck.pop(),))
            elif state.can_select_runout_count():  # cash game: run it once
                state.select_runout_count()
            elif state.can_stand_pat_or_discard():  # discard 0 to 3 at random
                held = list(state.hole_cards[state.stand_patter_or_discarder_index])
                state.stand_pat_or_discard(rng.sample(held, rng.randint(0, 3)))
            elif state.actor_index is not None:
                moves = [m for m, ok in (("f", state.can_fold()), ("cc", state.can_check_or_call()),
                                         ("pb", state.can_post_bring_in()),
                                         ("cbr", state.can_complete_bet_or_raise_to())) if ok]
                m = rng.choice(moves)
                if m == "f" and state.checking_or_calling_amount == 0:
                    m = "cc"
                if m == "f":
                    state.fold()
                elif m == "cc":
                    state.check_or_call()
                elif m == "pb":
                    state.post_bring_in()
                else:
                    lo = state.min_completion_betting_or_raising_to_amount
                    hi = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(rng.choice([lo, hi, rng.randint(lo, hi)]))
            else:  # pragma: no cover - the automations do the rest
                raise AssertionError("PokerKit waits for something")
        text = pk.HandHistory.from_game_state(game, state).dumps()
    assert _pokerkit_stacks(text) == list(state.stacks)  # PokerKit replays its own file
    return text, list(state.stacks)


@pytest.mark.parametrize("code", sorted(PK_GAMES))
def test_pokerkit_hands_replay_in_rollem(code: str) -> None:
    compared = 0
    for seed in range(HANDS):
        text, stacks = _pokerkit_hand(code, seed)
        try:
            got = replay_phh(read_phh(text))
        except PHHError as err:
            # the known R-C-6 difference: after a fixed-limit all-in short of a
            # full raise, PokerKit may allow a raise rollem does not
            assert code not in ("NT", "PO") and "cannot do that" in str(err), (code, seed, err)
            continue
        assert got.finishing_stacks is not None
        diffs = [a - b for a, b in zip(got.finishing_stacks, stacks, strict=True)]
        if any(diffs) and code in ("FO/8", "F7S/8"):
            # the hi-lo odd chip (R-C-10: to the high half; PokerKit: by player order)
            assert sum(diffs) == 0 and sum(map(abs, diffs)) <= 2 * len(got.hand.result.pots)
            continue
        assert got.finishing_stacks == stacks, f"{code} seed {seed}:\n{text}"
        # the cards of the players who fold hidden, as real hand histories have them
        masked = _mask_folded(text, stud=code.startswith("F7S") or code == "FR")
        assert replay_phh(read_phh(masked)).finishing_stacks == stacks, masked
        compared += 1
    assert compared >= HANDS * 2 // 3


def _mask_folded(text: str, stud: bool) -> str:
    """``text`` with the face-down cards of each player who folds written
    ``??`` (in stud, the first two: the up cards are public)."""
    table = read_phh(text)
    folded = {a.split()[0] for a in table["actions"] if a.split()[1:2] == ["f"]}
    lines = []
    seen: set[str] = set()
    for a in table["actions"]:
        w = a.split()
        if w[:2] == ["d", "dh"] and w[2] in folded and w[2] not in seen:
            hidden = 2 if stud else len(w[3]) // 2
            a = f"d dh {w[2]} " + "??" * hidden + w[3][2 * hidden:]
            seen.add(w[2])
        lines.append(a)
    return text.replace(repr(table["actions"]), repr(lines))


def test_a_phhs_of_pokerkit_replays_hand_by_hand(tmp_path: Path) -> None:
    texts = [_pokerkit_hand("NT", seed) for seed in range(5)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bulk = pk.HandHistory.dumps_all(pk.HandHistory.loads(t) for t, _ in texts)
    path = tmp_path / "five.phhs"
    path.write_text(bulk)
    r = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert r.exit_code == 0, r.output
    hands = json.loads(r.output)["hands"]
    assert [h["hand"] for h in hands] == ["1", "2", "3", "4", "5"]
    assert [h["finishing_stacks"] for h in hands] == [s for _, s in texts]


@pytest.mark.parametrize("text", ["", "# no hands yet\n"])
@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["replay", "--result"],
                                     ["convert", "--to", "rollem"]])
def test_a_phhs_with_no_hand_is_refused_in_one_line(tmp_path: Path, text: str,
                                                    command: list[str]) -> None:
    """Was: ``rollem replay empty.phhs`` printed nothing (``--json``:
    ``{"hands": []}``) and exited 0; ``convert`` said "no hand could be
    converted". ``rollem verify`` already said this."""
    path = tmp_path / "empty.phhs"
    path.write_text(text)
    r = CliRunner().invoke(app, [command[0], str(path), *command[1:]])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"rollem: error: {path}: no hand in it (a .phhs file holds hands as "
                        "[1], [2] ...)\n")


# ---------------------------------------------------------------- the spec's examples


def test_spec_example_dwan_ivey_replays_to_pokerkit_stacks() -> None:
    text = (HERE / "dwan-ivey-2009.phh").read_text()
    h = replay_phh(read_phh(text))
    assert h.finishing_stacks == _pokerkit_stacks(text) == [572100, 1997500, 1109500]
    assert h.unknown == {1}  # Antonius's ???? (folded)
    assert h.players[2] == "Tom Dwan"


def test_spec_example_triple_draw_replays_to_pokerkit_stacks() -> None:
    # deuce-to-seven triple draw (rollem/phh/games/deuce7-triple.toml): Arieh's
    # 7-5-4-3-2 after three draws beats Yockey's pat 7-6-4-3-2
    text = (HERE / "arieh-yockey-2019.phh").read_text()
    h = replay_phh(read_phh(text))
    assert h.hand.game.id == "deuce7-triple"
    assert h.finishing_stacks == _pokerkit_stacks(text) == [0, 4190000, 5910000, 12095000]
    assert h.unknown == {1, 2}  # Hui's and Esposito's ?????????? (folded)
    assert sorted(str(c) for c in h.hand.hole[3]) == ["2h", "3c", "4d", "5c", "7c"]


def test_pokerkit_example_badugi_replays_to_pokerkit_stacks() -> None:
    # PokerKit's badugi hand (rollem/phh/games/badugi.toml): every card hidden
    # until the showdown, where Carol's 8-7-5-3 badugi beats Alice's 9-6-4-2
    text = (HERE / "alice-carol-badugi.phh").read_text()
    h = replay_phh(read_phh(text))
    assert h.hand.game.id == "badugi"
    assert h.finishing_stacks == _pokerkit_stacks(text) == [196, 220, 200, 184]
    assert sorted(str(c) for c in h.hand.hole[1]) == ["3s", "5d", "7c", "8h"]
    assert h.hand.result is not None
    assert h.hand.result.shown == {3: "badugi, nine-six-four-deuce",
                                   1: "badugi, eight-seven-five-three"}


def test_pokerkit_example_short_deck_replays_to_pokerkit_stacks() -> None:
    # PokerKit's short-deck hand (rollem/phh/games/shortdeck.toml): antes and
    # one blind, posted by the button; Xuan's queens make a king-high straight
    # on 9h6cKcJhTs and beat Phua's kings, all in before the flop
    text = (HERE / "xuan-phua-short-deck.phh").read_text()
    h = replay_phh(read_phh(text))
    assert h.hand.game.id == "shortdeck" and len(h.hand.deck) == 36
    assert h.finishing_stacks == _pokerkit_stacks(text) == [489000, 226000, 684000, 400000,
                                                            0, 198000]
    blinds = [(e.seat, e.data["amount"]) for e in h.hand.events if e.kind == "blind"]
    assert blinds == [(5, 3000)]  # the button (p6), before p1 acts first
    assert h.hand.result is not None
    assert h.hand.result.shown == {4: "three kings, jack-ten", 2: "king-high straight"}
    # a card outside the short deck is refused, naming it
    with pytest.raises(PHHError, match=r"^card 2c is not in the NS deck \(36 cards, 6 to A\)"):
        replay_phh(read_phh(text.replace('"d dh p4 8d7c"', '"d dh p4 8d2c"')))


# ---------------------------------------------------------------- refusals

BASE = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AcAd", "d dh p2 ????", "d dh p3 KcKd", "p3 cbr 6", "p1 cc", "p2 f",
           "d db 2c7h9s", "p1 cc", "p3 cc", "d db 3d", "p1 cc", "p3 cc", "d db 4s",
           "p1 cc", "p3 cc", "p1 sm AcAd", "p3 sm KcKd"]
"""


def test_base_example_replays() -> None:
    h = replay_phh(read_phh(BASE))
    assert h.finishing_stacks == [108, 98, 94] == _pokerkit_stacks(BASE)


def test_the_specs_optional_fields_and_no_ops_are_read() -> None:
    """phh-std's no-ops (an empty string, whitespace, a standalone commentary),
    words apart by several spaces, ``sm -`` (the cards dealt), and its optional
    per-player fields well formed: the same hand."""
    text = BASE.replace('"d dh p1 AcAd", ', '"d dh p1 AcAd", "", "   ", "# Burn card 6s", ')
    text = text.replace('"p3 cbr 6"', '"  p3   cbr  6 # open"').replace(
        '"p1 sm AcAd", "p3 sm KcKd"', '"p1 sm -", "p3 sm -"')
    text += ("seats = [2, 5, 9]\nseat_count = 9\nwinnings = [14, 0, 0]\n"
             "time_banks = [30.5, 30, 0]\ntime = 12:34:56\nhand = 7\n")
    h = replay_phh(read_phh(text))
    assert h.finishing_stacks == [108, 98, 94] == _pokerkit_stacks(text)
    assert sorted(str(c) for c in h.hand.hole[0]) == ["Ac", "Ad"]


@pytest.mark.parametrize(("old", "new", "message"), [
    ('variant = "NT"', 'variant = "XX"', "unknown PHH variant 'XX'"),
    ("min_bet = 2", "min_bet = 2.0000005", "min_bet is 2.0000005: at most 6 decimal places"),
    ("[100, 100, 100]", "[100, inf, 100]", "starting_stacks[1] is Infinity; rollem replays only"),
    ("[100, 100, 100]", "[100, 100]", "antes has 3 entries for 2 players"),
    ("antes = [0, 0, 0]\n", "", "antes must be a list of chips"),
    ("min_bet = 2\n", "", "min_bet is missing (a number of chips)"),
    ('"p3 cbr 6"', '"p3 cbr 1"', "line 4 of actions (p3 cbr 1): p3 cannot do that: raise to 1 "
                                 "is not 4..100; allowed: fold, call 2, raise to 4..100"),
    ('"p1 sm AcAd"', '"p1 cc", "p1 sm AcAd"', "line 16 of actions (p1 cc): the hand is over"),
    ('"d db 2c7h9s"', '"d db 2c7h9s8d"', "line 7 of actions (d db 2c7h9s8d): 4 board cards after "
                                         "action 3, where the game deals 3 after action 3"),
    ('"p1 cc", "p3 cc", "d db 3d"', '"d db 3d", "p1 cc", "p3 cc"',
     "line 8 of actions (d db 3d): 1 board card after action 3, where the game deals 1 after "
     "action 5"),
    ('"d dh p2 ????"', '"d dh p2 AcQs"', "card Ac is dealt twice; each card exists once"),
    ("[1, 2, 0]", "[1, 2, 4, 8]", "blinds_or_straddles has 4 entries"),
    ('"p1 cc", "p2 f"', '"p1 cc", "p2 sd"', "a draw ('sd'), but the variant has no draw"),
    ('"d dh p1 AcAd"', '"d dh p1 AcAdAh"',  # (was: no card named, no line)
     "NT deals fewer cards to p1 than the file names: Ah never dealt (the hand is over)"),
    # phh-std's per-player optional fields, one entry a player (were accepted as anything)
    ("min_bet = 2\n", "min_bet = 2\nseats = [1, 2, 3, 4]\n",
     "seats must be 3 seat numbers (whole numbers), one a player, got [1, 2, 3, 4]"),
    # (s62-hist: were accepted)
    ("min_bet = 2\n", "min_bet = 2\nseats = [1, -1, 3]\n",
     "seats must be 3 seat numbers, each a whole number from 1 and none twice, got "
     "[1, -1, 3]"),
    ("min_bet = 2\n", "min_bet = 2\nseats = [1, 3, 3]\n",
     "seats must be 3 seat numbers, each a whole number from 1 and none twice, got "
     "[1, 3, 3]"),
    ("min_bet = 2\n", "min_bet = 2\nwinnings = [0, 999]\n",
     "winnings must be 3 amounts won, one a player, got [0, 999]"),
    ("min_bet = 2\n", 'min_bet = 2\nwinnings = "lots"\n',
     "winnings must be 3 amounts won, one a player, got 'lots'"),
    ("min_bet = 2\n", "min_bet = 2\ntime_banks = [30, true, 30]\n",
     "time_banks must be 3 times, one a player, got [30, True, 30]"),
    # (stop 72: a stack of 0 was "not more than the ante 0: a player all-in on a dead
    # ante" with no ante, or, with ante_trimming_status, "needs 2 to 10 players with
    # chips; got 1"; PokerKit refuses it too)
    ("[100, 100, 100]", "[100, 0, 100]",
     "starting_stacks[1] is 0: every player of a PHH hand starts with chips"),
    ("[100, 100, 100]", "[100, 0, 100]\nante_trimming_status = true",
     "starting_stacks[1] is 0: every player of a PHH hand starts with chips"),
    # (stop 72: the ante was named as the clipped one, "the ante 3")
    ("antes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
     "starting_stacks = [100, 100, 100]",
     "antes = [5, 5, 5]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
     "starting_stacks = [100, 3, 100]",
     "starting_stacks[1] 3 is not more than the ante 5: a player all-in on a dead ante"),
])
def test_refusals_name_the_field(old: str, new: str, message: str) -> None:
    text = BASE.replace(old, new, 1)
    assert text != BASE
    with pytest.raises(PHHError) as err:
        replay_phh(read_phh(text))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_hidden_hand_at_the_showdown_wins_nothing() -> None:
    # p1's cards hidden to the end: p3's known kings take the pot, as in PokerKit
    text = BASE.replace('"d dh p1 AcAd"', '"d dh p1 ????"').replace('"p1 sm AcAd", ', "")
    got = replay_phh(read_phh(text))
    assert got.finishing_stacks == [94, 98, 108] == _pokerkit_stacks(text)
    assert got.unknown == {0, 1}
    # both hands hidden: who wins cannot be told
    text = text.replace('"d dh p3 KcKd"', '"d dh p3 ????"').replace(', "p3 sm KcKd"', "")
    with pytest.raises(PHHError, match=r"^the result depends on cards the file hides or "
                                       r"mucks \(p1's\): replayed to the showdown"):
        replay_phh(read_phh(text))
    # a known hand mucked at the showdown (pN sm) wins nothing either
    text = BASE.replace('"p1 sm AcAd"', '"p1 sm"')
    assert replay_phh(read_phh(text)).finishing_stacks == [94, 98, 108] == _pokerkit_stacks(text)
    text = BASE.replace(', "d db 4s"', "")
    with pytest.raises(PHHError, match=r"^the result depends on 1 board card the file does not "
                                       r"give: replayed to the showdown"):
        replay_phh(read_phh(text))
    # shown at the showdown, the cards are known
    text = BASE.replace('"d dh p1 AcAd"', '"d dh p1 ????"')
    assert replay_phh(read_phh(text)).finishing_stacks == [108, 98, 94]


def test_actions_left_out_are_filled_in_as_pokerkit_does() -> None:
    text = BASE.replace('"p2 f",', "").replace('"p3 cc", "d db 3d"', '"d db 3d"')
    got = replay_phh(read_phh(text))
    assert got.finishing_stacks == [108, 98, 94] == _pokerkit_stacks(text)
    assert got.filled == ["p2 folds (before line 7 of actions (p1 cc))",
                          "p3 checks (before line 9 of actions (p1 cc))"]


# PokerKit's own files (HandHistory.from_game_state): PokerKit asks a player
# whose betting is over in rollem (everyone else still in is all in) and writes
# its check; rollem refused the file ("the hand is over").
LONE_STRADDLER = """variant = "NT"
ante_trimming_status = false
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 4]
min_bet = 2
starting_stacks = [30, 2, 5]
actions = ["d dh p1 Jh4c", "d dh p2 Th9h", "d dh p3 2s2h", "p1 f", "p3 cc", "p2 sm Th9h",
           "p3 sm 2s2h", "d db QsJsTc", "d db 4h", "d db Qc"]
"""
LONE_SMALL_BLIND = """variant = "FT"
ante_trimming_status = false
antes = [1, 1, 1]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [30, 2, 5]
actions = ["d dh p1 Jh4c", "d dh p2 Th9h", "d dh p3 2s2h", "p3 f", "p1 cc", "p1 sm Jh4c",
           "p2 sm Th9h", "d db QsJsTc", "d db 4h", "d db Qc"]
"""

LONE_DRAWER = """variant = "N2L1D"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0]
min_bet = 2
starting_stacks = [200, 1, 1, 9]
actions = ["d dh p1 6s7h9c9d9s", "d dh p2 8s4c2c2d8h", "d dh p3 8c5c5h3hJh",
           "d dh p4 Td6dJs3dTc", "p3 f", "p4 f", "p1 cc", "p1 sd 6s9c9d", "p2 sd 8h2c",
           "d dh p1 Ah4sAd", "d dh p2 AcJd", "p1 sm 7h9sAh4sAd", "p2 sm 8s4c2dAcJd"]
"""


@pytest.mark.parametrize(("text", "stacks", "check", "folded"), [
    (LONE_STRADDLER, [29, 5, 3], "p3", "p1"),  # the big blind all in for 2, the straddler
    (LONE_SMALL_BLIND, [33, 0, 4], "p1", "p3"),  # the big blind all in for 1 after its ante
    (LONE_DRAWER, [199, 2, 1, 9], "p1", "p3"),  # the small blind checks, then draws
])
def test_pokerkits_check_by_the_last_player_with_chips_is_read(
        text: str, stacks: list[int], check: str, folded: str) -> None:
    assert _pokerkit_stacks(text) == stacks
    got = replay_phh(read_phh(text))
    assert got.finishing_stacks == stacks
    assert got.filled == []
    # a check by a player who folded is still refused, and so is a bet there
    line = f'"{check} cc", '
    with pytest.raises(PHHError, match=rf"\({folded} cc\): "):
        replay_phh(read_phh(text.replace(line, line + f'"{folded} cc", ')))
    if "sd" not in text:
        with pytest.raises(PHHError, match=r"the hand is over"):
            replay_phh(read_phh(text.replace('cc", "p', 'cbr 9", "p', 1)))


def test_a_bring_in_all_in_written_as_a_completion_is_read_as_the_bring_in() -> None:
    """PokerKit writes a stud bring-in by a player with no more chips than the
    bring-in as a completion (``cbr 1``): all in for no more than a call."""
    text = """variant = "F7S"
antes = [0, 0, 0]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [9, 1, 9]
actions = ["d dh p1 AsAhKd", "d dh p2 7c8c2c", "d dh p3 QhJh9d", "p2 cbr 1", "p3 f", "p1 cc",
           "p1 sm AsAhKd", "p2 sm 7c8c2c", "d dh p1 3d", "d dh p2 4c", "d dh p1 5s",
           "d dh p2 Tc", "d dh p1 6h", "d dh p2 9s", "d dh p1 Th", "d dh p2 Jc",
           "p1 sm AsAhKd3d5s6hTh", "p2 sm 7c8c2c4cTc9sJc"]
"""
    assert _pokerkit_stacks(text) == [8, 2, 9]
    assert replay_phh(read_phh(text)).finishing_stacks == [8, 2, 9]
    # a completion it cannot make is still refused
    with pytest.raises(PHHError, match=r"line 4 of actions \(p2 cbr 2\): p2 cannot do that"):
        replay_phh(read_phh(text.replace("p2 cbr 1", "p2 cbr 2")))


def test_the_dataset_big_blind_ante_with_trimming_follows_pokerkit(tmp_path: Path) -> None:
    """A WSOP hand of the PHH dataset: a big-blind ante with
    ante_trimming_status = true, which PokerKit (and rollem) trims back to
    the big blind, and the button's fold left out; the file's
    finishing_stacks record the ante as lost, so it differs."""
    path = HERE / "wsop-2019-42-kempe.phh"
    data = read_phh(path.read_text())
    with pytest.raises(PHHError, match=r"^finishing_stacks \[18100000, 5625000, "):
        replay_phh(data)
    got = replay_phh(data, check_result=False)
    assert got.finishing_stacks == _pokerkit_stacks(path.read_text())
    assert got.finishing_stacks[:2] == [17600000, 6125000]
    assert got.filled == ["p8 folds (before line 14 of actions (p1 cc))"]
    r = CliRunner().invoke(app, ["replay", str(path), "--json", "--lenient"])
    assert r.exit_code == 0
    assert "1 difference from what the history records (--lenient)" in unwrapped(r.stderr)
    assert json.loads(r.stdout)["filled_in"] == got.filled


def test_finishing_stacks_recorded_must_be_the_replays() -> None:
    with pytest.raises(PHHError, match=r"finishing_stacks \[1, 2, 3\] differ from the replay's"):
        replay_phh(read_phh(BASE + "finishing_stacks = [1, 2, 3]\n"))


def test_games_without_a_phh_code_are_refused_on_export() -> None:
    hand = Hand("sdr", [50, 50], button=0, source=SeededSource(1))
    with pytest.raises(PHHError, match=r"^sdr \(fixed-limit\) has no PHH variant code"):
        phh_dict(hand)
    for game_id, structure in (("holdem", "pot-limit"), ("omaha8", "pot-limit"),
                               ("omaha", "fixed-limit"), ("draw5", "fixed-limit")):
        hand = Hand(game_id, [50, 50], button=0, source=SeededSource(1),
                    options=Options(structure=structure, ante=0))
        with pytest.raises(PHHError, match=rf"^{game_id} \({structure}\) has no PHH variant"):
            phh_dict(hand)


@pytest.mark.parametrize(("game_id", "stacks"), [("holdem", [1, 1]), ("omaha", [2, 1]),
                                              ("shortdeck", [1, 2])])
def test_a_hand_all_in_on_the_blinds_exports_its_shows(game_id: str,
                                                       stacks: list[int]) -> None:
    """No player acts (every player all in on the blinds): the shows were
    left out (written nowhere), and PokerKit then paid nobody the pot
    ([1, 1] for rollem's [0, 2]). They go after the hole cards, before the
    runout, in the full history and a player's copy alike."""
    structure = "pot-limit" if game_id == "omaha" else "no-limit"
    for seed in range(6):
        hand = Hand(variant_game(game_id), stacks, button=seed % len(stacks),
                    options=Options(structure=structure, ante=0, small_bet=2, big_bet=2),
                    source=SeededSource(seed))
        assert hand.is_over and not hand.action_marks
        table = phh_dict(hand)
        lines = table["actions"]
        first_board = next(i for i, a in enumerate(lines) if a.startswith("d db"))
        shows = [a for a in lines[:first_board] if a.split()[1] == "sm"]
        assert len(shows) == len(stacks), lines
        assert _pokerkit_stacks(write_phh(hand)) == table["finishing_stacks"]
        assert replay_phh(read_phh(write_phh(hand))).finishing_stacks == table["finishing_stacks"]
        copy = copy_phh_dict(tomllib.loads(write_own_copy(hand, 0)))
        assert _pokerkit_stacks(tomli_w.dumps(copy)) == table["finishing_stacks"]


def test_a_bomb_pot_is_refused_on_export_and_a_session_keeps_its_rollem_history(
        tmp_path: Path) -> None:
    """A hold'em bomb pot (every player antes the bomb, no blinds, no
    preflop betting) was written as antes of 0 with no blinds field: a file
    that PokerKit ("The values None are invalid") and rollem both refused.
    PHH has no such hand: export refuses it, a session keeps its rollem form."""
    options = Options(structure="no-limit", ante=0, small_bet=2, big_bet=2, bomb_pot=5)
    hand = Hand("holdem", [200, 200, 80], button=0, options=options,
                source=SeededSource(3))
    while not hand.is_over:
        assert hand.pending is not None
        seat = hand.pending.seats[0]
        hand.apply(seat, Call() if "call" in hand.legal_actions(seat).actions else Check())
    assert any(e.kind == "bomb_pot" for e in hand.events)
    with pytest.raises(PHHError, match=r"^a bomb pot has no PHH form"):
        phh_dict(hand)
    text = write_history(hand)
    table = session_table(text)
    assert table is not None and table["variant"] == "rollem-holdem"
    assert session_table(text, standard_only=True) is None
    # rollem export --phh: refused in one line; --skip-other-games leaves it out
    # (it stopped the export of a whole session with bomb pots)
    folder = tmp_path
    (folder / "bomb.toml").write_text(text)
    nt = folder / "nt.toml"
    nt.write_text(write_history(_our_hand("NT", 3)))
    r = CliRunner().invoke(app, ["export", "--phh", str(folder / "bomb.toml"), str(nt)])
    assert r.exit_code == 2 and "bomb.toml: a bomb pot has no PHH form" in r.output
    r = CliRunner().invoke(app, ["export", "--phh", "--skip-other-games",
                                 str(folder / "bomb.toml"), str(nt)])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith('variant = "NT"')
    assert "bomb.toml: left out: a bomb pot has no PHH form" in r.stderr
    # the hand after it, no bomb pot, still exports
    hand = Hand("holdem", [200, 200, 80], button=1, options=replace(options, bomb_pot=0),
                source=SeededSource(4))
    play_out(hand, random.Random(4))
    table = phh_dict(hand)
    assert table["blinds_or_straddles"] == [1, 2, 0]
    assert _pokerkit_stacks(write_phh(hand)) == table["finishing_stacks"]


# ---------------------------------------------------------------- the command line


def test_cli_replay_phh_and_phhs(tmp_path: Path) -> None:
    runner = CliRunner()
    one = tmp_path / "hand.phh"
    one.write_text(BASE)
    r = runner.invoke(app, ["replay", str(one), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["finishing_stacks"] == [108, 98, 94]
    r = runner.invoke(app, ["replay", str(one), "--result"])
    assert "Finishing stacks: p1 108, p2 98, p3 94" in r.output
    # a PHH hand in a file of any name; a rollem history named .phh is rollem's
    other = tmp_path / "hand.toml"
    other.write_text(BASE)
    assert json.loads(runner.invoke(app, ["replay", str(other), "--json"]).output)[
        "finishing_stacks"] == [108, 98, 94]
    ours = tmp_path / "ours.phh"
    sdr = Hand("sdr", [50, 50], source=SeededSource(2))
    play_out(sdr, random.Random(2))
    ours.write_text(write_history(sdr))
    r = runner.invoke(app, ["replay", str(ours), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["game"] == "sdr"
    bulk = tmp_path / "hands.phhs"
    bulk.write_text(f"[1]\n{BASE}\n[2]\n{BASE.replace('min_bet = 2', 'min_bet = 2.0000005')}")
    r = runner.invoke(app, ["replay", str(bulk), "--json"])
    hands = json.loads(r.stdout)["hands"]
    assert hands[0]["finishing_stacks"] == [108, 98, 94]
    assert hands[1] == {"hand": "2", "error": "min_bet is 2.0000005: at most 6 decimal places "
                                              "(amounts are played in whole chips of the "
                                              "smallest unit)"}


def test_cli_replay_phhs_with_a_bad_hand_exits_2(tmp_path: Path) -> None:
    # the hands that replay are shown; the bad one is named in one line on
    # stderr and the command fails (CLI.md: bad input exits 2)
    runner = CliRunner()
    bulk = tmp_path / "hands.phhs"
    bad = BASE.replace('min_bet = 2', 'min_bet = 2.0000005')
    bulk.write_text(f"[1]\n{BASE}\n[2]\n{bad}\n[3]\n{BASE}")
    error = ("min_bet is 2.0000005: at most 6 decimal places (amounts are played in whole "
             "chips of the smallest unit)")
    for flags in ([], ["--json"]):
        r = runner.invoke(app, ["replay", str(bulk), *flags])
        assert r.exit_code == 2, r.output
        assert r.stderr == f"rollem: error: {bulk}: hand [2] did not replay: {error}\n"
        if flags:
            hands = json.loads(r.stdout)["hands"]
            assert [h.get("finishing_stacks") for h in hands] == [
                [108, 98, 94], None, [108, 98, 94]]
        else:
            assert r.stdout.count("Finishing stacks: p1 108, p2 98, p3 94") == 2
            assert f"[2] error: {error}" in unwrapped(r.stdout)
    bulk.write_text(f"[1]\n{bad}\n[2]\n{BASE}\n[3]\n{bad}")
    r = runner.invoke(app, ["replay", str(bulk)])
    assert r.exit_code == 2
    assert r.stderr == (f"rollem: error: {bulk}: 2 of 3 hands did not replay; the first, "
                        f"[1]: {error}\n")
    bulk.write_text(f"[1]\n{BASE}\n[2]\n{BASE}")
    r = runner.invoke(app, ["replay", str(bulk)])
    assert r.exit_code == 0 and r.stderr == ""


def test_cli_export_phh(tmp_path: Path) -> None:
    runner = CliRunner()
    files = []
    for seed, code in enumerate(("NT", "F7S")):
        hand = _our_hand(code, seed + 3)
        f = tmp_path / f"h{seed}.toml"
        f.write_text(write_history(hand))
        files.append(f)
    out = tmp_path / "both.phhs"
    r = runner.invoke(app, ["export", "--phh", *map(str, files), "-o", str(out)])
    assert r.exit_code == 0, r.output
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = list(pk.HandHistory.loads_all(out.read_text()))
    assert [h.variant for h in loaded] == ["NT", "F7S"]
    r = runner.invoke(app, ["export", "--phh", str(files[0])])
    assert r.exit_code == 0
    assert r.output.startswith('variant = "NT"')
    own = tmp_path / "own.toml"
    own.write_text(write_own_copy(_our_hand("F7S", 4), 0))
    r = runner.invoke(app, ["export", "--phh", str(own)])
    assert r.exit_code == 0, r.output
    assert "_redacted_for = " in r.output and "????" in r.output
    sdr = tmp_path / "sdr.toml"
    sdr.write_text(write_history(Hand("sdr", [50, 50], source=SeededSource(2))))
    r = runner.invoke(app, ["export", "--phh", str(sdr)])
    assert r.exit_code == 2
    assert "sdr (fixed-limit) has no PHH variant code" in r.output
    # a dealer's-choice session: the other games' hands left out, each named
    r = runner.invoke(app, ["export", "--phh", "--skip-other-games", str(files[0]), str(sdr)])
    assert r.exit_code == 0
    assert r.stdout.startswith('variant = "NT"')
    assert f"rollem: {sdr}: left out: sdr (fixed-limit) has no PHH variant code" in r.stderr
    r = runner.invoke(app, ["export", "--phh", "--skip-other-games", str(sdr)])
    assert r.exit_code == 2 and "no hand of a game with a PHH variant" in r.stderr


def test_odds_at_a_point_of_a_phh_hand(tmp_path: Path) -> None:
    from rollem.odds.history import history_odds
    from rollem.odds.result import OddsError

    # after the flop's first check (action 4), p1's aces against what p1 can see
    odds, at = history_odds(BASE, 0, at=4, seed=1)
    assert at == 4 and odds.equity > 0.7
    # default: before the last action; a folded seat's, before its fold
    assert history_odds(BASE, 2, seed=1)[1] == 8
    with pytest.raises(OddsError, match=r"^seat 1 \(p2\): its cards are hidden \(\?\?\) in the"):
        history_odds(BASE, 1, seed=1)
    with pytest.raises(OddsError, match=r"^--at 12: the hand has 9 player actions"):
        history_odds(BASE, 0, at=12)
    f = tmp_path / "hand.phh"
    f.write_text(BASE)
    r = CliRunner().invoke(app, ["odds", "--history", str(f), "--seat", "2", "--at", "3",
                                 "--json", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["at"] == 3


def test_cli_replay_phhs_hand_with_no_variant_names_both_kinds(tmp_path: Path) -> None:
    # a hand with no variant could be either kind of hand: the refusal names
    # the rollem form and every PHH code rollem replays (CLI.md: exit 2)
    bulk = tmp_path / "hands.phhs"
    no_variant = "\n".join(line for line in BASE.splitlines()
                           if not line.startswith("variant"))
    bulk.write_text(f"[1]\n{no_variant}\n")
    r = CliRunner().invoke(app, ["replay", str(bulk)])
    assert r.exit_code == 2
    codes = "FT, NT, PO, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D, FB, NS"
    assert r.stderr == (f"rollem: error: {bulk}: hand [1] did not replay: there is no "
                        "variant: a rollem history names its game ('rollem-<game>', e.g. "
                        f"rollem-sdr), a PHH hand its code ({codes})\n")


def test_a_phhs_given_where_one_hand_is_needed_says_so(tmp_path: Path) -> None:
    """``rollem odds --history session.phhs`` (the file ``rollem play``'s
    farewell names) and ``rollem replay`` of a .phhs under another name said
    "there is no variant: a rollem history names its game ...", true of no
    hand in the file; now one line says it holds several hands and which file
    to give."""
    copy = tmp_path / "four-hands.toml"
    copy.write_text((HERE / "handhq-abs-2009.phhs").read_text(encoding="utf-8"),
                    encoding="utf-8")
    for args in (["odds", "--history", str(HERE / "handhq-abs-2009.phhs"), "--seat", "0"],
                 ["replay", str(copy)]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "there is no variant" not in result.output
        # (play's own names: "hand-N.toml" sent a newcomer to a hand-1.toml that is
        # not there; stop 57's try-out)
        assert ": a .phhs of 4 hand(s) ([1], [2] ...), not one hand history: give one " \
            "hand's file (rollem play saves each as hand-0001-GAME.toml beside " \
            "session.phhs; the web table's download is hand-N.toml)\n" in result.output
        assert result.output.count("\n") == 1


def test_a_game_with_no_phh_code_is_refused_with_the_whole_list(tmp_path: Path) -> None:
    """``rollem export --phh`` of a 5-2-1 hand (a session's own file name):
    the one error line lists what PHH has, whole; it was cut in its middle
    ("... [94 characters cut] ...") at the 300 characters of an error line."""
    path = tmp_path / "20261205-034441-seed5" / "hand-0001-rollem521.toml"
    path.parent.mkdir()
    path.write_text(write_history(Hand("rollem521", [50, 50], source=SeededSource(2))))
    r = CliRunner().invoke(app, ["export", "--phh", str(path)])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert "characters cut" not in r.output
    assert r.output.endswith("rollem521 (fixed-limit) has no PHH variant code (the games "
                             "PHH has: rollem export --help); its rollem history is its only "
                             "form\n")
    listed = " ".join(CliRunner().invoke(app, ["export", "--help"]).output.split())
    assert "hold'em fixed limit (FT) or no limit (NT), Omaha pot limit (PO)" in listed


def test_odd_names_and_misspelt_fields_are_named_not_lost(tmp_path: Path) -> None:
    """s58-tidy: ``rollem replay`` of a PHH file with two players of one name told a
    hand nobody could follow ("Net: Phil Ivey -553500, Phil Ivey -2500"), a blank name
    printed nothing, and a misspelt field (``finishing_stack``) was dropped without a
    word (its check skipped). Now: two names that read as one are refused naming
    both places, a blank name is PHH's own (``p2``), a misspelt field is refused
    naming the field it reads as (``--lenient``: listed on stderr, replayed); any
    other field is kept (phh-std has many); never a traceback."""
    base = (Path(__file__).parent / "phh" / "dwan-ivey-2009.phh").read_text()
    assert 'players = ["Phil Ivey", "Patrik Antonius", "Tom Dwan"]' in base

    def run(text: str, *flags: str) -> tuple[int, str, str]:
        path = tmp_path / "hand.phh"
        path.write_text(text)
        out = CliRunner().invoke(app, ["replay", str(path), *flags])
        assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
        return out.exit_code, out.stdout, out.stderr

    code, _, err = run(base.replace('"Patrik Antonius"', '"Phil Ivey"'))
    assert code == 2 and err.endswith(
        "hand.phh: players[1] 'Phil Ivey' is players[0]'s name too: each player needs a "
        "name of their own (or leave players out: p1, p2 ... name them)\n"), err
    code, _, err = run(base.replace('"Tom Dwan"', '" phil  IVEY "'))
    # (the name is quoted as written: names keep their characters, stop 58)
    assert code == 2 and "players[2] ' phil" in err and \
        "IVEY ' reads as players[0] 'Phil Ivey'" in err, err
    code, out, _ = run(base.replace('"Patrik Antonius"', '"  "'))
    assert code == 0 and "Net: Phil Ivey -553500, p2 -2500, Tom Dwan +556000" in out
    typo = base.replace('currency = "USD"', "finishing_stack = [1, 2, 3]")
    code, _, err = run(typo)
    assert code == 2 and "'finishing_stack' is not a field rollem reads: did you mean " \
                         "'finishing_stacks'? (fields of your own start with '_'); rollem " \
                         "replay --lenient replays without it" in err, err
    code, out, err = run(typo, "--lenient")
    assert code == 0 and "Tom Dwan +556000" in out
    err = unwrapped(err)  # (wrapped to 80 columns: s62-term)
    assert "did you mean 'finishing_stacks'?" in err and "told as replayed" in err
    code, _, err = run(base.replace('players = ["', 'player = ["'))
    assert code == 2 and "'player' is not a field rollem reads: did you mean 'players'?" in err
    # fields of phh-std rollem does not read, and one's own, are kept as they are
    code, out, err = run(base + 'seat_count = 6\ntime_limit = 30\n_mine = [1]\nfoo = "x"\n')
    assert code == 0 and err == "" and "Tom Dwan +556000" in out


def _pots(hand: Hand, seats: list[int] | None = None) -> list[tuple[int, list[int]]]:
    """A finished hand's pots as ``(amount, eligible rollem seats)``; ``seats``
    maps a replayed PHH hand's players back to the rollem seats (``_seats``)."""
    assert hand.result is not None
    back = seats if seats is not None else list(range(hand.n))
    return [(p.amount, sorted(back[s] for s in p.eligible)) for p in hand.result.pots]


def _ends(hand: Hand, seats: list[int] | None = None) -> list[tuple[str, int]]:
    """Who folded, showed and mucked, as ``(kind, rollem seat)``, sorted."""
    back = seats if seats is not None else list(range(hand.n))
    return sorted((e.kind, back[e.seat]) for e in hand.events
                  if e.kind in ("fold", "show", "muck") and e.seat is not None)


def test_a_round_trip_keeps_the_pots_and_who_was_eligible() -> None:
    """A hand exported as PHH, full or a player's own copy, replays with the
    pots and the eligible players of the hand as played, the showdown or not,
    who folded, showed and mucked, and the copy's stacks: a player who
    reached the showdown and mucked (its cards ``????`` in a copy) was
    eligible and lost; it did not fold (the reader once folded it, so the
    pot lost that player)."""
    mucks = 0
    for code in ("FT", "NT", "PO", "FO/8", "F7S", "FR", "F2L3D"):
        for seed in range(5):
            hand = _our_hand(code, 1000 + seed)
            table = phh_dict(hand)
            got = replay_phh(read_phh(tomli_w.dumps(table))).hand
            assert _pots(got, table["_seats"]) == _pots(hand), f"{code} seed {seed}"
            assert got.result is not None and hand.result is not None
            assert got.result.showdown == hand.result.showdown
            assert _ends(got, table["_seats"]) == _ends(hand)
            for seat in [s for s in range(hand.n) if hand.dealt[s]][seed % 2::2]:
                copy = copy_phh_dict(tomllib.loads(write_own_copy(hand, seat)))
                got = replay_phh(read_phh(tomli_w.dumps(copy))).hand
                assert _pots(got, copy["_seats"]) == _pots(hand), f"{code} {seed} seat {seat}"
                assert list(got.stacks) == copy["finishing_stacks"]
                assert _ends(got, copy["_seats"]) == _ends(hand)
                mucks += sum(w[1:] == ["sm", "??" * (len(w[2]) // 2)]
                             for w in (line.split() for line in copy["actions"]) if len(w) == 3)
    assert mucks >= 5  # (the case the test is for: a hidden hand at the showdown)


def test_cli_a_played_hands_phh_names_who_was_eligible_as_its_copy_does(tmp_path: Path) -> None:
    """rollem play holdem --seed 41, hand 1 (you fold; Ann mucks to Bob's two
    pair at the showdown): the PHH export replayed said "Main pot: 20 chips
    (eligible: Bob)", the copy's recorded pot was Ann's and Bob's."""
    runner = CliRunner()
    r = runner.invoke(app, ["play", "holdem", "--seed", "41", "--history-dir", str(tmp_path)],
                      input="f\nq\n")
    assert r.exit_code == 0, r.output
    (copy,) = sorted(tmp_path.rglob("hand-0001-holdem.toml"))
    out = tmp_path / "hand.phh"
    r = runner.invoke(app, ["export", "--phh", str(copy), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert '"p1 sm ????"' in out.read_text()  # Ann's hand, hidden in your copy
    recorded = tomllib.loads(copy.read_text())["_result"]["pots"]
    assert [(p["amount"], p["eligible"]) for p in recorded] == [(20, [1, 2])]  # Ann, Bob
    r = runner.invoke(app, ["replay", str(out)])
    assert r.exit_code == 0, r.output
    pots = [ln for ln in unwrapped(r.output).splitlines() if "(eligible: " in ln]
    assert pots == ["Main pot: 20 chips (eligible: Ann, Bob); Bob wins 20"]
