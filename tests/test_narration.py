"""The narration layer (issue 14): hand words and result sentences, computed
by hand for every game: a tie broken by the third kicker (SDR), wild
stand-ins (Roll Your Own, R-RYO-9/12), failed both ways, a carried pot and
split halves with an odd chip (5-2-1, R-521-9, R-C-10), a split pot with an
odd chip (R-C-10), and a player's redacted copy told as that player saw it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomli_w

from rollem.history import redact, replay, write_history
from rollem.narration import (
    CARD_PATTERN,
    Narrator,
    hand_words,
    narrate_hand,
    narrate_history,
    narrate_view,
    result_for_view,
)

HISTORIES = Path(__file__).resolve().parent / "histories"


def story(name: str) -> list[str]:
    return narrate_history((HISTORIES / name).read_text(encoding="utf-8")).text().splitlines()


@pytest.mark.parametrize(
    ("cards", "kwargs", "words"),
    [
        # the two hands that read the same before: kickers decide
        ("Tc Kh 6d 6h 2d", {}, "pair of sixes, king-ten-deuce"),
        ("7s Kc 6d 6h 2d", {}, "pair of sixes, king-seven-deuce"),
        ("8c 7d 5h 3s 2c", {"low": True}, "eight-seven low, five-three-deuce"),
        ("5c 4d 3h 2s Ac", {"low": True}, "five-four low, three-deuce-ace (the wheel)"),
        ("Ks 9s 7s 4s 2s", {}, "king-high flush, nine-seven-four-deuce"),
        # Roll Your Own, fives wild: the 5d plays as the eight it makes
        ("5d 8s 8h 2h Ad", {"wild_ranks": ["5"]}, "three eights, ace-deuce (wild 5d plays as 8d)"),
        # a natural pair of aces and three wild queens: five aces, the naturals read first
        ("Qs Qh Qd As Ah", {"wild_ranks": [10]},
         "five aces (wild Qs plays as Ac, wild Qh plays as Ad, wild Qd plays as Ad)"),
    ],
)
def test_hand_words(cards: str, kwargs: dict[str, object], words: str) -> None:
    assert hand_words(cards.split(), **kwargs) == words  # type: ignore[arg-type]


def test_sdr_tie_broken_by_the_third_kicker() -> None:
    lines = story("sdr_third_kicker.toml")
    assert lines[0] == "Stop, Drop and Roll: Ann (100) and Bob (100); Bob has the button."
    assert "The stop: 9s is turned up, dead." in lines
    assert "The roll: 6d 6h Ks." in lines
    assert lines[-4:] == [
        "Ann shows Qc 4d: pair of sixes, king-queen-four.",
        "Bob mucks Qh 3c: pair of sixes, king-queen-three.",  # a full history: all known
        "Ann wins the pot (2) with pair of sixes, king-queen-four.",
        "Net: Ann +1, Bob -1.",
    ]
    # Bob's own view says what he mucked and what beat it
    hand = replay((HISTORIES / "sdr_third_kicker.toml").read_text(encoding="utf-8"))
    mine = [line.text for line in result_for_view(hand.view(1), ["Ann", "Bob"])]
    assert mine == [
        "Ann wins the pot (2) with pair of sixes, king-queen-four.",
        "You muck pair of sixes, king-queen-three: it loses to Ann's pair of sixes, "
        "king-queen-four.",
        "This hand: you lost 1.",
    ]


def test_sdr_split_pot_with_an_odd_chip() -> None:
    lines = story("sdr_split_odd_chip.toml")
    assert "Ann bets 2 (pot 5)." in lines and "Bob calls 2 (pot 7)." in lines
    assert "Cat folds." in lines
    assert lines[-2:] == [
        "Ann and Bob split the pot (7), each with pair of kings, ace-nine-four: Ann 4, Bob 3; "
        "the odd chip to Ann, first from the dealer's left.",
        "Net: Ann +1, Bob +0, Cat -1.",
    ]


def test_sdr_worked_example_step_by_step() -> None:
    # R-SDR-8: antes 2, bets 2+2, 2+2, 4+4: pot 18 to B
    lines = story("sdr_worked_example.toml")
    assert lines[2:8] == [
        "Each player antes 1 (pot 2).",
        "A is dealt Qs Qd.",
        "B is dealt As Kd.",
        "Before the stop (pot 2).",
        "A bets 2 (pot 4).",
        "B calls 2 (pot 6).",
    ]
    assert lines[-3:] == ["A mucks Qs Qd: pair of queens, king-seven-deuce.",
                          "B wins the pot (18) with pair of kings, ace-seven-deuce.",
                          "Net: A -9, B +9."]


def test_roll_your_own_wild_stand_ins_and_draw_order() -> None:
    lines = story("rollyourown_seed_example.toml")
    assert "B draws first from the pool: 5c." in lines
    assert "A draws second from the pool: Kc." in lines
    assert "A picks the wild card, pool card 2: Qd; every queen is wild." in lines
    assert "A shows 7s 7h Qs Kc 7d: four sevens, king kicker (wild Qs plays as 7c)." in lines
    assert lines[-2:] == [
        "B wins the pot (46) with four aces, five kicker (wild Qh plays as Ac, wild Qc plays "
        "as As).",
        "Net: A -23, B +23.",
    ]


def test_521_failed_both_and_carried_pot() -> None:
    lines = story("rollem521_all_failed_carry.toml")
    assert lines[-4:] == [
        "A declared both and fails, collecting nothing from the pot: B's six-high straight "
        "flush beats A's five-high straight (wheel) for high.",
        "B declared both and fails, collecting nothing from the pot: A's five-four low, "
        "three-deuce-ace (the wheel) beats B's six-five low, four-three-deuce for low.",
        "Nobody wins the pot (10): every player in it declared both and failed, so it carries "
        "to the next hand.",
        "Net: A -5, B -5.",
    ]


def test_a_failed_both_declarer_beaten_by_you_is_told_inside_the_sentence() -> None:
    # (issue 26, seen at the table: "...collecting nothing from the pot: Your two pair")
    from rollem.history.replaying import replay
    from rollem.narration import narrate_view

    hand = replay((HISTORIES / "rollem521_all_failed_carry.toml").read_text(encoding="utf-8"))
    lines = [line.text for line in narrate_view(hand.view(1), ["A", "B"])]
    assert lines[-4:-2] == [
        "A declared both and fails, collecting nothing from the pot: your six-high straight "
        "flush beats A's five-high straight (wheel) for high.",
        "You declared both and fail, collecting nothing from the pot: A's five-four low, "
        "three-deuce-ace (the wheel) beats your six-five low, four-three-deuce for low."]


def test_a_both_declarer_failing_in_two_pots_is_told_once() -> None:
    # s55-left (stop 54's leftover): "B declared both and fails, collecting nothing
    # from side pot 1: C's three kings ... beats B's ace high" came again after the
    # main pot's line, the side pot's beater already told there
    lines = story("rollem521_both_fails_two_pots.toml")
    failed = [line for line in lines if "declared both and" in line]
    assert failed == [
        "B declared both and fails, collecting nothing from the main pot and side pot 1: "
        "A's five-four low, three-deuce-ace (the wheel) beats B's six-four low, "
        "three-deuce-ace for low; C's three kings, eight-seven beats B's ace high, "
        "six-four-three-deuce for high."]
    assert lines[-5:] == [
        "The main pot (9) is split: 5 high, 4 low (the odd chip goes to the high half).",
        "High: C wins 5 with three kings, eight-seven.",
        "Low: A wins 4 with five-four low, three-deuce-ace (the wheel).",
        "C wins the whole of side pot 1 (8) with three kings, eight-seven for high: nobody "
        "is left on the low side.",
        "Net: A +1, B -7, C +6."]
    # the table's log and the terminal (a view's lines): B's own, once
    from rollem.history.replaying import replay
    from rollem.narration import narrate_view

    text = (HISTORIES / "rollem521_both_fails_two_pots.toml").read_text(encoding="utf-8")
    mine = [line.text for line in narrate_view(replay(text).view(1), ["A", "B", "C"])]
    assert [line for line in mine if "declared both and" in line] == [
        "You declared both and fail, collecting nothing from the main pot and side pot 1: "
        "A's five-four low, three-deuce-ace (the wheel) beats your six-four low, "
        "three-deuce-ace for low; C's three kings, eight-seven beats your ace high, "
        "six-four-three-deuce for high."]
    assert mine[-1] == "This hand: you lost 7."


def test_declarations_with_a_pot_paid_high_are_told_as_paid() -> None:
    # A pot the engine paid to the best high hand is told as paid, whatever was
    # declared before: the words follow the result, not the declarations.
    nar = Narrator(["You", "Ann"], None)
    for e in ({"kind": "declare", "seat": 0, "side": "both"},
              {"kind": "declare", "seat": 1, "side": "low"}):
        nar.feed(e)
    result = {"shown": {"0": "x", "1": "y"},
              "shown_cards": {"0": ["Ks", "Kd", "9c", "5h", "2s"],
                              "1": ["8c", "7d", "5s", "3h", "2c"]},
              "net": {"0": 33, "1": -33}, "carried": 0,
              "pots": [{"amount": 66, "eligible": [0, 1], "winners": {"0": 66}}]}
    lines = [line.text for line in nar.result(result)]
    assert lines == ["You win the pot (66) with pair of kings, nine-five-deuce.",
                     "This hand: you won 33."]


def test_521_split_halves_with_an_odd_chip_and_a_side_pot() -> None:
    lines = story("rollem521_side_pot.toml")
    assert "A bets 2, all-in (pot 5)." in lines
    assert lines[-6:] == [
        "B declared both and fails, collecting nothing from the main pot: A's five-four low, "
        "three-deuce-ace (the wheel) beats B's six-four low, three-deuce-ace for low.",
        "The main pot (9) is split: 5 high, 4 low (the odd chip goes to the high half).",
        "High: C wins 5 with three kings, eight-seven.",
        "Low: A wins 4 with five-four low, three-deuce-ace (the wheel).",
        "B scoops side pot 1 (8) with ace-high flush, six-four-three-deuce for high and "
        "six-four low, three-deuce-ace for low.",
        "Net: A +1, B +1, C -2.",
    ]


def test_521_ties_in_each_half_split_with_odd_chips() -> None:
    lines = story("rollem521_odd_chips.toml")
    assert lines[-4:-1] == [
        "The pot (22) is split: 11 high, 11 low.",
        "High: A and D split 11, each with two pair, kings and sevens, deuce kicker: A 6, D 5; "
        "the odd chip to A, first from the dealer's left.",
        "Low: B and C split 11, each with six-four low, three-deuce-ace: B 6, C 5; the odd "
        "chip to B, first from the dealer's left.",
    ]


def test_redacted_copy_is_told_as_that_player_saw_it() -> None:
    hand = replay((HISTORIES / "rollem521_side_pot.toml").read_text(encoding="utf-8"))
    full = write_history(hand, players=["Ann", "Bob", "Cat"])
    mine = narrate_history(tomli_w.dumps(redact(full, 1)))
    assert mine.viewer == 1
    text = mine.text().splitlines()
    assert "You are dealt Ah 2h 3h 4h 6h." in text
    assert "Ann bets 2, all-in (pot 5)." in text
    assert "Your cards will roll up in this order: 6h 4h 3h 2h Ah." in text
    assert "You declare both." in text
    assert text[-1] == "This hand: you won 1."
    # the same sentences as the engine's view of seat 1 tells, from "Ann bets" on
    engine = [line.text for line in narrate_view(hand.view(1), ["Ann", "Bob", "Cat"])]
    assert engine[-6:] == text[-6:]
    # Roll Your Own: another player's hidden cards stay hidden
    ryo = replay((HISTORIES / "rollyourown_seed_example.toml").read_text(encoding="utf-8"))
    copy = narrate_history(redact(write_history(ryo, players=["Ann", "Bob"]), 0)).text()
    assert "Bob is dealt 6 cards face down." in copy and "Bob puts 3 cards in the pool." in copy
    # shown at the showdown later, but not seen where it was drawn (R-RYO-5)
    assert "Bob draws first from the pool." in copy and "pool: 5c" not in copy
    assert "Kc 7d Qd" not in copy  # Bob's discards


def test_narrator_keeps_face_up_cards_of_folded_players_and_draw_counts() -> None:
    nar = Narrator(["Ann", "Bob"], viewer=0)
    events = [
        {"kind": "ante", "seat": 0, "amount": 1, "all_in": False},
        {"kind": "ante", "seat": 1, "amount": 1, "all_in": False},
        {"kind": "expose", "seat": 1, "card": "Ah"},
        {"kind": "draw", "seat": 1, "count": 2},
        {"kind": "draw", "seat": 0, "count": 0, "cards": []},
        {"kind": "bet", "seat": 0, "to": 2, "amount": 2, "all_in": False},
        {"kind": "fold", "seat": 1},
    ]
    said = [line.text for e in events for line in nar.feed(e)]
    assert said == ["Each player antes 1 (pot 2).", "Bob turns up Ah.", "Bob draws 2.",
                    "You stand pat.", "You bet 2 (pot 4).", "Bob folds."]
    assert nar.face_up == {1: ["Ah"]} and nar.folded == {1}
    assert nar.draws == {1: [2], 0: [0]} and nar.draw_order == [1, 0]


def test_lines_are_json_ready_and_cards_findable() -> None:
    hand = replay((HISTORIES / "sdr_worked_example.toml").read_text(encoding="utf-8"))
    lines = narrate_hand(hand, ["A", "B"], viewer=0)
    d = lines[-1].to_dict()
    assert d == {"text": "This hand: you lost 9.", "kind": "net", "seat": 0, "mine": True}
    cards = [m.group(0) for m in CARD_PATTERN.finditer(lines[1].text)]
    assert cards == ["Qs", "Qd"]  # "You are dealt Qs Qd."


def _called_down(game: object, seed: int, players: int) -> object:
    """A hand where everyone checks or calls to the showdown; other choices random."""
    import random

    from rollem.bots import make_bot
    from rollem.engine import Call, Check, Hand, SeededSource

    hand = Hand(game, [100] * players, button=0, source=SeededSource(seed))  # type: ignore[arg-type]
    bots = [make_bot("random", random.Random(seed * 10 + s)) for s in range(players)]
    while not hand.is_over:
        s = hand.pending.seats[0]  # type: ignore[union-attr]
        legal = hand.legal_actions(s)
        action = Check() if "check" in legal.actions else Call() if "call" in legal.actions \
            else bots[s].act(hand.view(s))
        hand.apply(s, action)
    return hand


def test_every_game_is_told_with_the_right_pot_and_no_card_leaks() -> None:
    """Each shipped game (the three and the standard game files): the pot told
    after the last action is the chips the pots hold; a player's narration
    names no card that player may not see."""
    import re

    from rollem.games import all_games

    for game in all_games():
        players = min(game.max_players, 4)
        hand: Any = _called_down(game, 0, players)
        names = ["Ann", "Bob", "Cat", "Dan"][:players]
        lines = narrate_hand(hand, names)
        pots = [int(m) for line in lines for m in re.findall(r"\(pot (\d+)", line.text)]
        assert pots[-1] == sum(p.amount for p in hand.result.pots), game.id
        assert any(line.kind == "show" for line in lines), game.id
        for seat in range(players):
            view = hand.view(seat)
            visible = set(view.board) | set(view.dead)
            for s in view.seats:
                visible |= {c for c in s.cards if c is not None}
            for e in view.events:
                visible |= {str(c) for c in e.get("cards", []) or []}
                if e.get("card"):
                    visible.add(str(e["card"]))
            said = {m.group(0) for line in narrate_view(view, names)  # stand-ins are no cards
                    for m in CARD_PATTERN.finditer(re.sub(r"plays as \w\w", "", line.text))}
            assert said <= visible, (game.id, seat, said - visible)


def test_game_file_games_keep_the_engines_words() -> None:
    from rollem.games import get

    # Omaha hi-lo eight or better, cards speak: no qualifying low, the high takes it all
    hand: Any = _called_down(get("omaha8"), 0, 4)
    lines = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cat", "Dan"])]
    assert "Bob posts the small blind 1 (pot 1)." in lines
    assert "Ann wins the whole of the pot (8) with king-high straight: no hand " \
           "qualifies for low." in lines
    # deuces wild: the deuce plays as an ace
    hand = _called_down(get("deuces-wild"), 0, 4)
    lines = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cat", "Dan"])]
    assert "Twos are wild." in lines
    assert "Bob wins the pot (4) with pair of aces, jack-nine-three (wild 2d plays as Ad)." \
        in lines


@pytest.mark.parametrize("game", ["holdem", "omaha8", "stud", "razz"])
def test_a_forced_bet_games_redacted_copy_is_told_as_the_engine_tells_it(game: str) -> None:
    """A blind game's history names its blinds (PHH blinds_or_straddles, no antes), a
    stud game's its bring-in (PHH bring_in), and a player's copy, told without the
    engine, says what the engine's view says: the blinds or the bring-in, the calls (an
    under-the-gun call was told as a check, the bring-in too) and the pots."""
    import random
    import tomllib

    from rollem.bots import make_bot
    from rollem.engine import Hand, SeededSource

    blinds = game in ("holdem", "omaha8")
    names = ["Ann", "Bob", "Cat", "Dan"]
    for seed in range(6):
        hand = Hand(game, [100] * 4, button=3, source=SeededSource(seed))
        bots = [make_bot("random", random.Random(seed * 10 + s)) for s in range(4)]
        while not hand.is_over:
            s = hand.pending.seats[0]  # type: ignore[union-attr]
            hand.apply(s, bots[s].act(hand.view(s)))
        full = write_history(hand, players=names)
        data = tomllib.loads(full)
        if blinds:
            assert data["antes"] == [0, 0, 0, 0] and data["blinds_or_straddles"] == [1, 2, 0, 0]
            # the round by its name and pot; Cat (under the gun) acts first, told next
            told_all = narrate_history(full).text().splitlines()
            k = told_all.index("Preflop (pot 3).")
            assert told_all[k + 1].startswith("Cat "), told_all
        else:
            assert data["antes"] == [1, 1, 1, 1] and data["bring_in"] == 1
        told = narrate_history(redact(full, 0)).text().splitlines()
        assert told[1] == ("Blinds 1/2, fixed limit 2/4." if blinds else
                           "Ante 1, bring-in 1, fixed limit 2/4.")
        engine = [line.text for line in narrate_view(hand.view(0), names)]
        # (a card another player showed is named where it was shown, not where dealt)
        assert told[3:] == engine, seed
        if blinds:
            assert "Bob posts the big blind 2 (pot 3)." in told
        brought_in = [t for t in told if " it in for 1" in t]
        assert len(brought_in) == (0 if blinds else
                                   sum(1 for e in hand.events if e.data.get("bring_in")))


def test_a_history_from_rollem_play_tells_its_player_as_you() -> None:
    # `rollem play` names its player "You" in the histories it writes: a full
    # replay of one must say "You are dealt", not "You is dealt".
    text = (HISTORIES / "sdr_worked_example.toml").read_text(encoding="utf-8")
    text = text.replace('players = ["A", "B"]', 'players = ["You", "B"]', 1)
    lines = narrate_history(text).text().splitlines()
    assert lines[3:8] == [
        "You are dealt Qs Qd.",
        "B is dealt As Kd.",
        "Before the stop (pot 2).",
        "You bet 2 (pot 4).",
        "B calls 2 (pot 6).",
    ]
    assert lines[-4:] == [
        "You muck Qs Qd: pair of queens, king-seven-deuce.",
        "B wins the pot (18) with pair of kings, ace-seven-deuce.",
        "You muck pair of queens, king-seven-deuce: it loses to B's pair of kings, "
        "ace-seven-deuce.",
        "This hand: you lost 9.",
    ]


def test_blinds_round_says_who_acts_first_pre_flop() -> None:
    """Pre-flop the first to act is left of the big blind (3-handed: the button);
    heads-up the button posts the small blind and acts first. The tester's case:
    "Bob's big blind opens" and then You, on the button, acted first. Stop 54: the
    round's line is its name and pot ("Preflop (pot 3)."), its first action the
    next line, naming who acts first once ("after Bob's big blind, you act first"
    then "You call 2" told the actor twice)."""
    from rollem.engine import Call, Hand, SeededSource
    from rollem.narration import narrate_view

    three = Hand("holdem", [100] * 3, button=0, source=SeededSource(1))
    assert three.pending is not None and three.pending.seats == (0,)
    lines = [x.text for x in narrate_view(three.view(0), ["You", "Ann", "Bob"])]
    # (issue 26: the game file names its rounds; "Round 1" before)
    assert lines[-1] == "Preflop (pot 3).", lines
    three.apply(0, Call())
    seen_by_bob = [x.text for x in narrate_view(three.view(2), ["Ann", "Bob", "Cat"])]
    k = seen_by_bob.index("Preflop (pot 3).")
    assert seen_by_bob[k + 1] == "Ann calls 2 (pot 5).", seen_by_bob
    assert not any("opens" in x or "first" in x for x in seen_by_bob), seen_by_bob

    heads_up = Hand("holdem", [100] * 2, button=1, source=SeededSource(1))
    assert heads_up.pending is not None and heads_up.pending.seats == (1,)
    heads_up.apply(1, Call())
    lines = [x.text for x in narrate_view(heads_up.view(0), ["You", "Ann"])]
    assert "Ann posts the small blind 1 (pot 1)." in lines
    k = lines.index("Preflop (pot 3).")
    assert lines[k + 1] == "Ann calls 1 (pot 4).", lines


def _521_as_seat_0(seed: int) -> tuple[list[str], list[dict[str, object]]]:
    """A 4-handed 5-2-1 hand of basic bots (seed ``seed``): the result lines seat 0
    is told, and the declarations."""
    import random

    from rollem.bots import make_bot
    from rollem.engine import Hand, SeededSource

    hand = Hand("rollem521", [100] * 4, button=3, source=SeededSource(seed))
    bots = [make_bot("basic", random.Random(seed * 10 + s)) for s in range(4)]
    while not hand.is_over:
        s = hand.pending.seats[0]  # type: ignore[union-attr]
        hand.apply(s, bots[s].act(hand.view(s)))
    view = hand.view(0)
    told = [line.text for line in result_for_view(view, ["You", "Ann", "Bob", "Cat"])]
    declared = [e for e in view.to_dict()["events"] if e["kind"] == "declare"]
    return told, declared


def test_521_losing_hand_names_only_the_winners_of_your_side() -> None:
    """The tester's case: you declared high and lost; the line named the low
    winner too. Only the hands that beat yours on your side (R-521-8/9)."""
    told, declared = _521_as_seat_0(4)
    assert {"kind": "declare", "seat": 0, "side": "high"} in declared
    assert "Low: Cat wins 76 with nine-eight low, seven-five-ace." in told
    assert ("You muck two pair, kings and jacks, seven kicker: it loses to Bob's "
            "ace-high flush, queen-ten-nine-deuce.") in told
    # declared low: only the low winner (Ann won high with four tens)
    told, declared = _521_as_seat_0(45)
    assert {"kind": "declare", "seat": 0, "side": "low"} in declared
    assert "High: Ann wins 100 with four tens, nine kicker." in told
    # (a paired low named as a low, not in a high hand's words: stop 54)
    assert ("You muck paired low (two pair, kings and aces, jack kicker): it loses to Bob's "
            "eight-seven low, five-four-ace.") in told


def test_a_round_whose_opener_is_all_in_is_opened_by_the_next_seat() -> None:
    """Three-handed no-limit hold'em, the small blind (Bob, seat 1) all-in before
    the flop: the flop is opened by Cy, the first seat that can act, not told as
    "Bob opens" (issue 33)."""
    from rollem.engine import Call, Check, Hand, Options, Raise, SeededSource
    from rollem.narration.history import narrate_hand

    hand = Hand("holdem", [100, 10, 100], button=0, options=Options(structure="no-limit"),
                source=SeededSource(1))
    hand.apply(0, Call())
    hand.apply(1, Raise(10))  # all in
    hand.apply(2, Call())
    hand.apply(0, Call())
    assert hand.pending is not None and hand.pending.seats == (2,)
    hand.apply(2, Check())
    told = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cy"])]
    k = next(i for i, t in enumerate(told) if t.startswith("Flop"))
    # (stop 54: the round by its name and pot, its first actor told once, acting)
    assert told[k:k + 2] == ["Flop (pot 30).", "Cy checks."], told
    assert not any(t.startswith("Bob") for t in told[k:]), told


def test_a_hi_lo_hand_with_the_same_words_both_ways_is_named_once() -> None:
    """s58-tidy: in a high-low pot with no qualifier a paired hand with no ace has
    the same words both ways; the engine said "pair of fours, eight-six-deuce for
    high and pair of fours, eight-six-deuce for low", now once, as the narration
    (:func:`high_low_words`) and the web table say it."""
    from rollem.games.gamefile import load_game
    from rollem.narration.hands import half_words

    path = Path(__file__).parent.parent / "src" / "rollem" / "games" / "files" / "draw5.toml"
    text = path.read_text().replace('step = "showdown"', 'step = "showdown"\npot = "high-low"')
    hand: Any = _called_down(load_game(text), 51, 3)
    assert hand.result.shown == {
        0: "pair of fours, eight-six-deuce for high and low",
        1: "pair of sevens, queen-nine-five for high and low",
        2: "pair of jacks, ace-king-three for high and pair of jacks, king-three-ace for low"}
    assert half_words(hand.result.shown[0], "low") == "pair of fours, eight-six-deuce"
    lines = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cat"])]
    assert "Low: Ann wins 1 with pair of fours, eight-six-deuce." in lines


def test_hi_lo_lines_name_each_half() -> None:
    """Stud and Omaha eight or better (issue 26): a shown hand names its halves ("X for
    high and Y for low", "X for high, no low": a hand's own words hold "and"), a line
    about one half names only that half."""
    from rollem.games import get
    from rollem.narration.hands import half_words

    hand: Any = _called_down(get("stud8"), 3, 3)
    lines = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cat"])]
    assert "The pot (6) is split: 3 high, 3 low." in lines
    assert "High: Cat wins 3 with ten-high straight." in lines
    assert "Low: Bob wins 3 with six-five low, four-deuce-ace." in lines
    shown = hand.result.shown
    assert shown[1] == "two pair, aces and fours, six kicker for high and six-five low, " \
                       "four-deuce-ace for low"
    assert shown[2] == "ten-high straight for high, no low"
    # your losing hand: each half's winner with the half it won
    mine = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cat"], 0)]
    assert "You muck pair of threes, jack-ten-nine for high, no low: it loses to Cat's " \
           "ten-high straight and Bob's six-five low, four-deuce-ace." in mine
    hand = _called_down(get("omaha8"), 4, 3)
    lines = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cat"])]
    assert "Low: Cat wins 3 with eight-five low, three-deuce-ace." in lines
    hand = _called_down(get("omaha8"), 0, 3)   # no low: the high takes the whole pot
    mine = [line.text for line in narrate_hand(hand, ["Ann", "Bob", "Cat"], 1)]
    # (shown at the showdown already: not "You show pair of nines, ...: it loses to",
    # a second show, stop 54)
    assert "Your pair of nines, ace-king-ten for high, no low loses to Cat's " \
           "two pair, tens and fives, king kicker." in mine, mine
    assert half_words("ten-high straight for high, no low", "low") == "no low"
    assert half_words("pair of kings, queen-five-three", "low") == \
        "pair of kings, queen-five-three"   # one hand: unchanged


def test_one_card_dealt_down_to_several_players_is_one_card_each() -> None:
    """Seventh street in stud deals one card down to each player still in:
    "Bob and Cat are dealt 1 card each, face down." (it said "1 cards each")."""
    from rollem import games

    hand = _called_down(games.get("stud"), 4, 3)
    lines = [ln.text for ln in narrate_hand(hand, ["You", "Ann", "Bob"], 0)]  # type: ignore[arg-type]
    assert "Ann and Bob are dealt 1 card each, face down." in lines
    assert not [ln for ln in lines if "1 cards" in ln]


def test_a_seat_without_a_name_is_counted_from_1() -> None:
    """s53-tidy: a seat with no name read "seat 0" (the table's index) in results and
    the felt's narration; people count seats from 1: index 0 is "seat 1"."""
    from rollem.narration.words import Names

    names = Names(["Ann", ""], viewer=None)
    assert [names.name(s) for s in (0, 1, 4)] == ["Ann", "seat 2", "seat 5"]


def test_a_name_with_a_level_in_brackets_is_told_without_it_in_a_possessive() -> None:
    """A web table's computer player is "Bot 2 (basic)": its possessive read "Bot 2
    (basic)'s pair of kings" (issue 33 list, stop 54). The rule: a possessive drops a
    name's note in brackets ("Bot 2's"); the name alone keeps it."""
    from rollem.narration.words import Names, possessive

    assert possessive("Bot 2 (basic)") == "Bot 2's"
    assert possessive("Ann") == "Ann's"
    assert possessive("(basic)") == "(basic)'s"  # (all note: kept)
    assert Names(["You", "Bot 2 (basic)"], 0).whose(1, start=False) == "Bot 2's"
    text = (HISTORIES / "sdr_worked_example.toml").read_text(encoding="utf-8")
    text = text.replace('players = ["A", "B"]', 'players = ["You", "Bot 2 (basic)"]', 1)
    lines = narrate_history(text).text().splitlines()
    assert lines[-3:-1] == [
        "Bot 2 (basic) wins the pot (18) with pair of kings, ace-seven-deuce.",
        "You muck pair of queens, king-seven-deuce: it loses to Bot 2's pair of kings, "
        "ace-seven-deuce.",
    ], lines


def test_521_a_low_declarer_hand_is_named_by_its_low() -> None:
    """Stop 54: a 5-2-1 low declarer's paired hand was told in a high hand's words
    ("You show pair of kings, jack-ten-eight: it loses to ... seven-six low"). R-C-3
    has no qualifier: a paired hand is a low (beaten by every unpaired low), named so."""
    from rollem.narration.hands import high_low_words, low_words

    def hl(cards: str, side: str) -> str:
        return high_low_words(cards.split(" "), side)

    assert hl("Kh Kd Js Tc 8d", "low") == "paired low (pair of kings, jack-ten-eight)"
    assert hl("6h 6d Ts 5c 2d", "low") == "paired low (pair of sixes, ten-five-deuce)"
    assert hl("Kh Qd Js 9c 8d", "low") == "king-queen low, jack-nine-eight"
    assert hl("Kh Kd Js Tc 8d", "high") == "pair of kings, jack-ten-eight"
    # the same words both ways, said once (s57-tidy)
    assert hl("6h 6d Ts 5c 2d", "both") == "pair of sixes, ten-five-deuce for high and low"
    assert hl("Kh Kd As 5c 2d", "both") == \
        "pair of kings, ace-five-deuce for high and pair of kings, five-deuce-ace for low"
    assert low_words("five-four low, three-deuce-ace (the wheel)") == \
        "five-four low, three-deuce-ace (the wheel)"


def test_one_winner_of_every_side_pot_is_told_once() -> None:
    """s61-night: a stud all-in with three side pots, all to Dan, was told as four
    sentences ("Dan wins the main pot (51) with three fours, ace-queen.", "Dan
    wins side pot 1 (84) with three fours, ace-queen." ...); now one, and a line
    a winner where the pots went to several. A winner a pot keeps a line a pot."""
    from rollem.narration import Names, ResultFacts, result_lines

    dan = ["4h", "4d", "4s", "Ah", "Qs", "7c", "5d"]
    pots = [{"amount": a, "eligible": [0, 1], "winners": {"1": a}} for a in (51, 84, 9, 16)]
    result = {"pots": pots, "net": {"0": -80, "1": 80}, "shown": {"1": "x"},
              "shown_cards": {"1": dan, "0": ["Qc", "Qd", "9h", "Jh", "9c", "6s", "3h"]}}
    names = Names(["Ann", "Dan"], viewer=None)
    lines = [line.text for line in result_lines(result, names, ResultFacts())]
    assert lines[0] == ("Dan wins all 4 pots (160: the main pot 51, side pots 84, 9 and 16) "
                        "with three fours, ace-queen.")
    assert len([t for t in lines if "wins" in t]) == 1, lines
    mine = [line.text for line in result_lines(result, Names(["Ann", "Dan"], viewer=1),
                                               ResultFacts())]
    assert mine[0] == ("You win all 4 pots (160: the main pot 51, side pots 84, 9 and 16) "
                       "with three fours, ace-queen.")
    two = {**result, "pots": pots[:2]}
    assert result_lines(two, names, ResultFacts())[0].text == (
        "Dan wins both pots (135: the main pot 51, side pot 84) with three fours, ace-queen.")
    # another winner in one pot: a line a winner
    split = {**result, "pots": [*pots[:3], {"amount": 16, "eligible": [0, 1],
                                            "winners": {"0": 16}}]}
    told = [line.text for line in result_lines(split, names, ResultFacts())]
    assert told[:2] == ["Dan wins the main pot, side pot 1 and side pot 2 (144: 51, 84 and 9) "
                        "with three fours, ace-queen.",
                        "Ann wins side pot 3 (16) with two pair, queens and nines, jack "
                        "kicker."], told
    # a winner a pot: a line a pot, as before
    each = {**result, "pots": [pots[0], {"amount": 84, "eligible": [0, 1],
                                         "winners": {"0": 84}}]}
    told = [line.text for line in result_lines(each, names, ResultFacts())]
    assert told[:2] == ["Dan wins the main pot (51) with three fours, ace-queen.",
                        "Ann wins side pot 1 (84) with two pair, queens and nines, jack "
                        "kicker."], told


def test_one_winner_of_every_high_low_pot_is_told_once() -> None:
    """s62-night: a 5-2-1 showdown with a side pot, both taken whole for high by
    Bob, was told twice ("Bob wins the whole of the main pot (375) with two pair,
    kings and fours, queen kicker for high: nobody is left on the low side.", then
    the same of side pot 1 (20)); now one line, as a high-only hand's pots
    (s61-night).  The same for a scoop of every pot, and cards speak (no hand
    qualifies for low); a pot split or won by another keeps a line a pot."""
    from rollem.narration import Names, ResultFacts, result_lines

    cards = {"0": ["8s", "9s", "Ah", "8h", "3c"], "1": ["4d", "4h", "Qh", "Kh", "Ks"],
             "2": ["4c", "5h", "7d", "Kc", "6s"]}
    pots = [{"amount": 375, "eligible": [0, 1, 2], "winners": {"1": 375},
             "high": {"1": 375}, "low": {}},
            {"amount": 20, "eligible": [1, 2], "winners": {"1": 20}, "high": {"1": 20},
             "low": {}}]
    result = {"pots": pots, "net": {"0": -180, "1": 215, "2": -35},
              "shown": {s: "x" for s in cards}, "shown_cards": cards}
    names = Names(["Ann", "Bob", "Cat"], viewer=None)
    declared = ResultFacts(declarations={0: "high", 1: "high", 2: "high"})
    told = [line.text for line in result_lines(result, names, declared)]
    assert [t for t in told if "wins" in t] == [
        "Bob wins the whole of both pots (395: the main pot 375, side pot 20) with two pair, "
        "kings and fours, queen kicker for high: nobody is left on the low side."], told
    # cards speak (no declarations): the same line, its reason the qualifier
    told = [line.text for line in result_lines(result, names, ResultFacts())]
    assert told[0] == ("Bob wins the whole of both pots (395: the main pot 375, side pot 20) "
                       "with two pair, kings and fours, queen kicker: no hand qualifies for "
                       "low."), told
    # a scoop of every pot: one line
    scoop = {**result, "pots": [{**p, "low": dict(p["high"])} for p in pots]}
    told = [line.text for line in result_lines(
        scoop, names, ResultFacts(declarations={0: "high", 1: "both", 2: "high"}))]
    assert len([t for t in told if "scoop" in t]) == 1 and told[0].startswith(
        "Bob scoops both pots (395: the main pot 375, side pot 20) with "), told
    # the side pot to Cat: a line a pot, as before
    other = {**result, "pots": [pots[0], {**pots[1], "winners": {"2": 20}, "high": {"2": 20}}]}
    told = [line.text for line in result_lines(other, names, declared)]
    assert told[:2] == [
        "Bob wins the whole of the main pot (375) with two pair, kings and fours, queen "
        "kicker for high: nobody is left on the low side.",
        "Cat wins the whole of side pot 1 (20) with king high, seven-six-five-four for "
        "high: nobody is left on the low side."], told
