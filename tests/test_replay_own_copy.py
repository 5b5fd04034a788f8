"""``rollem replay`` on a player's own copy (``_redacted_for``): told as that player
saw it only if it describes a hand that can happen, checked as ``rollem odds
--history`` checks it (one function, ``rollem.history_copy.own_copy_hand``:
stand-in cards where the copy shows ``??``). The fixtures in tests/copies/ are
three-handed bot hands (Ann, Bob, Cy) in hold'em and the three home games:
the full history ``GAME.toml``, Ann's copy ``GAME_ann.toml`` and how rollem
replay told that copy before the check (``GAME_ann.txt``); and Ann's copy of a
ten-handed 5-2-1 hand that reshuffled (``rollem521_ten_ann.toml``)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from bot_helpers import basic_hand
from cli_helpers import run_cli as run
from cli_helpers import scripted, unwrapped
from rollem.history import HistoryError, redact, write_history
from rollem.history_copy import IMPOSSIBLE, own_copy_hand
from rollem.narration import narrate_history

COPIES = Path(__file__).parent / "copies"
GAMES = ("holdem", "sdr", "rollyourown", "rollem521")
HUGE = "100000000000000000000000000"
DEALT_TWICE = ("line 1 of actions (d dh p1 AsAsThAs), after action 0: card As given twice "
               "('As'); each card exists once")


def _deal_impossible(data: dict[str, Any]) -> None:
    data["actions"] = [re.sub(r"^d dh p1 \S+$", "d dh p1 AsAsThAs", ln) for ln in data["actions"]]


def _raise_out_of_turn(data: dict[str, Any]) -> None:
    # before the first action of another player: that player was to act
    lines = data["actions"]
    i = next(i for i, ln in enumerate(lines) if re.match(r"p[2-9] ", ln))
    lines.insert(i, f"p1 cbr {HUGE}")


def _negative_stack(data: dict[str, Any]) -> None:
    data["starting_stacks"][0] = -5


def _version_99(data: dict[str, Any]) -> None:
    data["_version"] = 99


EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "deal": _deal_impossible, "raise": _raise_out_of_turn, "stack": _negative_stack,
    "version": _version_99,
}

# The engine's reason, the same for a full history and for a copy (a copy's
# starts with IMPOSSIBLE where its lines do not play).
WHY: dict[tuple[str, str], str] = {
    **{(g, "deal"): DEALT_TWICE for g in GAMES},
    ("holdem", "raise"): f"action 1 (line 4 of actions: p1 cbr {HUGE}): seat 0 cannot act now: "
                         "waiting for seat 2 (bet)",
    ("sdr", "raise"): f"action 2 (line 5 of actions: p1 cbr {HUGE}): seat 0 cannot act now: "
                      "waiting for seat 1 (bet)",
    ("rollyourown", "raise"): f"action 2 (line 5 of actions: p1 cbr {HUGE}): seat 0 cannot act "
                              "now: waiting for seat 1, 2 (discard)",
    ("rollem521", "raise"): f"action 2 (line 5 of actions: p1 cbr {HUGE}): seat 0 cannot act "
                            "now: waiting for seat 1 (bet)",
    **{(g, "stack"): "starting_stacks must be a list of whole numbers of chips" for g in GAMES},
    **{(g, "version"): "_version 99 is not supported: expected 1 or 2" for g in GAMES},
}


def _load(name: str) -> dict[str, Any]:
    return tomllib.loads((COPIES / name).read_text(encoding="utf-8"))


def _write(data: dict[str, Any], name: str) -> str:
    Path(name).write_text(tomli_w.dumps(data), encoding="utf-8")
    return name


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("edit", list(EDITS))
def test_an_edited_copy_is_refused_as_the_full_history_is(
        game: str, edit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # short file names: the error lines are not cut
    why = WHY[game, edit]
    full = _load(f"{game}.toml")
    EDITS[edit](full)
    path = _write(full, "full.toml")
    assert run(["replay", path], capsys) == (2, "", f"rollem: error: {path}: {why}\n")

    copy = _load(f"{game}_ann.toml")
    EDITS[edit](copy)
    path = _write(copy, "ann.toml")
    said = f"{IMPOSSIBLE}: {why}" if edit in ("deal", "raise") else why
    for args in (["replay", path], ["replay", path, "--json"]):
        assert run(args, capsys) == (2, "", f"rollem: error: {path}: {said}\n"), args
    # rollem odds --history: the same check, the same line, naming the file too
    assert run(["odds", "--history", path, "--seat", "0"], capsys) \
        == (2, "", f"rollem: error: {path}: {said}\n")


@pytest.mark.parametrize(("text", "why"), [
    ("x = [\n", "not a TOML hand history: Invalid value (at end of document)"),
    ('variant = "rollem-sdr"\n_version = 99\n', "_version 99 is not supported: expected 1 or 2"),
])
def test_odds_names_a_bad_history_file_as_replay_does(
        text: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    Path("broken.toml").write_text(text, encoding="utf-8")
    code, out, replay_err = run(["replay", "broken.toml"], capsys)
    assert (code, out) == (2, "") and replay_err.startswith(f"rollem: error: broken.toml: {why}")
    assert run(["odds", "--history", "broken.toml", "--seat", "0"], capsys) \
        == (2, "", replay_err)
    # an argument's error names no file: the file is fine
    full = _write(_load("holdem.toml"), "full.toml")
    code, _, err = run(["odds", "--history", full, "--seat", "0", "--at", "999"], capsys)
    assert code == 2 and err.startswith("rollem: error: --at 999: ")


@pytest.mark.parametrize("game", GAMES)
def test_an_unedited_copy_is_told_as_before(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(COPIES / f"{game}_ann.toml")
    told = (COPIES / f"{game}_ann.txt").read_text(encoding="utf-8")
    code, out, err = run(["replay", path], capsys)  # (long lines wrapped since s62-term)
    assert (code, unwrapped(out), err) == (0, told, "")
    code, out, _ = run(["replay", path, "--json"], capsys)
    result = _load(f"{game}_ann.toml")["_result"]
    assert code == 0 and json.loads(out) == {k: result[k] for k in
                                             ("game", "pots", "net", "shown", "carried")}


def test_a_copys_result_must_be_what_its_betting_gives(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    copy = _load("holdem_ann.toml")
    assert copy["_result"]["pots"] == [{"amount": 28, "eligible": [0, 1], "winners": {"0": 28}}]
    copy["_result"]["pots"][0]["amount"] = 2800
    path = _write(copy, "ann.toml")
    assert run(["replay", path], capsys) == (
        2, "", f"rollem: error: {path}: {IMPOSSIBLE}: its _result pots (amount, eligible) "
               "[(2800, [0, 1])] differ from its actions' [(28, [0, 1])]\n")
    # no _result at all: accepted, as a full history without one is (redact keeps
    # one where the full history has it)
    del copy["_result"]
    path = _write(copy, "ann.toml")
    code, out, err = run(["replay", path], capsys)
    assert (code, err) == (0, "") and "You are dealt" in out
    # a line the seat saw that the hand does not give (Ann's bet is 2, not 3)
    copy = _load("holdem_ann.toml")
    copy["actions"] = [ln.replace("p1 cbr 2", "p1 cbr 3") for ln in copy["actions"]]
    with pytest.raises(HistoryError, match=r"^this player's copy describes a hand that cannot "
                                           r"happen: action 4 \(line 9 of actions: p1 cbr 3\): "
                                           r"seat 0 cannot do that: bet 3 is not 2"):
        own_copy_hand(copy)


def test_a_copy_that_reshuffled_is_checked_up_to_the_reshuffle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    copy = _load("rollem521_ten_ann.toml")
    assert any(ln.startswith("# reshuffle for p6") for ln in copy["actions"])
    code, out, _ = run(["replay", str(COPIES / "rollem521_ten_ann.toml")], capsys)
    assert code == 0
    assert out.splitlines()[0].startswith("5-2-1 Roll 'Em: Ann (60), Bob (60)")
    assert "You are dealt As 8c Qd 5h Jh." in out.splitlines()
    monkeypatch.chdir(tmp_path)
    EDITS["deal"](copy)
    path = _write(copy, "ann.toml")
    assert run(["replay", path], capsys) == (
        2, "", f"rollem: error: {path}: {IMPOSSIBLE}: line 7 of actions (d dh p1 AsAsThAs), "
               "after action 0: card As given twice ('As'); each card exists once\n")


@settings(max_examples=10, deadline=None, derandomize=True)
@given(game=st.sampled_from(["holdem", "sdr", "rollyourown", "rollem521", "stud", "draw5"]),
       n=st.integers(2, 6), seed=st.integers(0, 2**16))
def test_every_seats_copy_of_a_real_hand_passes(game: str, n: int, seed: int) -> None:
    # no false refusal: a copy of a hand the engine played describes a hand that
    # can happen, whose pots the stand-in hand gives
    hand = basic_hand(game, n, seed)
    assert hand.result is not None
    full = write_history(hand)
    for seat in range(n):
        stand_in = own_copy_hand(redact(full, seat))
        assert stand_in.result is not None
        assert [(p["amount"], p["eligible"]) for p in stand_in.result.to_dict()["pots"]] \
            == [(p["amount"], p["eligible"]) for p in hand.result.to_dict()["pots"]]
        assert stand_in.view(seat).seats[seat].cards == hand.view(seat).seats[seat].cards


def _with(copy: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    assert old in copy["actions"]
    return {**copy, "actions": [new if ln == old else ln for ln in copy["actions"]]}


@pytest.mark.parametrize(("old", "new", "why"), [
    # Bob's shown hand (Jh 3c): a flop card, one of Ann's cards, a card twice
    ("p2 sm Jh3c", "p2 sm 4hJh", "line 21 of actions (p2 sm 4hJh) shows 4h, which is on the "
                                 "board"),
    ("p2 sm Jh3c", "p2 sm 6hJh", "line 21 of actions (p2 sm 6hJh) shows 6h, which is one of your "
                                 "cards"),
    ("p2 sm Jh3c", "p2 sm Jh Jh", "line 21 of actions (p2 sm Jh Jh) shows Jh twice"),
    ("p2 sm Jh3c", "p2 sm Jh Zz", "line 21 of actions (p2 sm Jh Zz): bad card 'Zz': expected"),
    # Ann shows a card she never held
    ("p1 sm 6h5s", "p1 sm 6hAs", "line 22 of actions (p1 sm 6hAs) shows As, which is not one of "
                                 "your cards (6h 5s)"),
    # the flop's label is told ("The turn: 5d."): it must be what the hand dealt
    ("d db 5d # turn", "d db 5d # river", "line 12 of actions (d db 5d # river) is not what the "
                                          "hand gives there (d db 5d # turn)"),
])
def test_a_copys_shows_and_labels_must_be_possible(old: str, new: str, why: str) -> None:
    copy = _with(_load("holdem_ann.toml"), old, new)
    with pytest.raises(HistoryError) as info:
        own_copy_hand(copy)
    assert str(info.value).startswith(f"{IMPOSSIBLE}: {why}")


def _sdr_copy_of_a_folded_seat() -> dict[str, Any]:
    # p3 (seat 2) is dealt 7h As and folds at once; p2 shows Jd 6c, p4 Js 9c
    copy = redact(write_history(basic_hand("sdr", 4, 4)), 2)
    assert {"d dh p3 7hAs", "p3 f", "p2 sm Jd6c"} <= set(copy["actions"])
    assert copy["_result"]["shown_cards"] == {"1": ["Jd", "6c"], "3": ["Js", "9c"]}
    return copy


@pytest.mark.parametrize(("old", "new", "why"), [
    # a folded seat's cards went to the muck, which no reshuffle dealt again
    ("p2 sm Jd6c", "p2 sm 7hAs", "line 26 of actions (p2 sm 7hAs) shows 7h, which is one of "
                                 "your cards"),
    ("d dh p3 7hAs", "d dh p3 6cAs", "line 26 of actions (p2 sm Jd6c) shows 6c, which is one of "
                                     "your cards"),
    # the result's shown cards are the show lines' cards
    ("p2 sm Jd6c", "p2 sm Jd5c", "its _result.shown_cards says p2 showed Jd 6c, but its show "
                                 "lines say 5c Jd"),
])
def test_a_folded_seats_copy_still_holds_its_cards_against_the_shows(
        old: str, new: str, why: str) -> None:
    copy = _sdr_copy_of_a_folded_seat()
    own_copy_hand(copy)  # as it is: accepted
    with pytest.raises(HistoryError) as info:
        own_copy_hand(_with(copy, old, new))
    assert str(info.value).startswith(f"{IMPOSSIBLE}: {why}")


def test_a_copys_shown_cards_must_be_its_show_lines() -> None:
    copy = _sdr_copy_of_a_folded_seat()
    copy["_result"]["shown_cards"]["3"] = ["Js", "8c"]
    with pytest.raises(HistoryError, match=re.escape(
            f"{IMPOSSIBLE}: its _result.shown_cards says p4 showed Js 8c, but its show lines "
            "say 9c Js")):
        own_copy_hand(copy)


def _ten_seat_copy_past_reshuffles() -> dict[str, Any]:
    # Ann (p1) draws 4c for Kc after the first reshuffle (line 32) and holds
    # Ad 7s 5d 8h 4c to the showdown; p2 shows the Kc she threw (reshuffled)
    copy = redact(write_history(basic_hand("rollem521", 10, 0)), 0)
    lines = copy["actions"]
    assert lines[31].startswith("# reshuffle for p3") and lines[54:56] == ["p1 sd Kc",
                                                                            "d dh p1 4c"]
    assert {"p1 sm 8h7s5d4cAd", "p2 sm TdJsKcAcJd", "p9 sm 8s9dTcJcQc", "p1 cbr 8"} <= set(lines)
    return copy


@pytest.mark.parametrize(("old", "new", "why"), [
    ("p9 sm 8s9dTcJcQc", "p9 sm 8s9dTcJc4c", "line 206 of actions (p9 sm 8s9dTcJc4c) shows 4c, "
                                             "which is one of your cards"),
    ("p9 sm 8s9dTcJcQc", "p9 sm 8s9dTcJcJc", "line 206 of actions (p9 sm 8s9dTcJcJc) shows Jc "
                                             "twice"),
    ("p1 sm 8h7s5d4cAd", "p1 sm 8h7s5dKcAd", "line 208 of actions (p1 sm 8h7s5dKcAd) shows Kc, "
                                             "which is not one of your cards (Ad 7s 5d 8h 4c)"),
    ("p1 cbr 8", "p1 cbr 99999", "line 115 of actions (p1 cbr 99999) bets 99999, more than "
                                 "p1's stack (60)"),
])
def test_a_copy_is_still_checked_after_a_reshuffle(old: str, new: str, why: str) -> None:
    copy = _ten_seat_copy_past_reshuffles()
    own_copy_hand(copy)  # as it is: accepted
    with pytest.raises(HistoryError) as info:
        own_copy_hand(_with(copy, old, new))
    assert str(info.value).startswith(f"{IMPOSSIBLE}: {why}")


@pytest.mark.parametrize(("net", "why"), [
    ({"8": 999}, "its _result.net sums to 525, not 0 (chips carried in 0, carried out 0): a "
                 "hand makes no chips"),
    ({"0": -61, "8": 475}, "its _result.net says seat 0 lost 61, more than its stack (60)"),
])
def test_a_reshuffled_copys_net_must_be_possible(net: dict[str, int], why: str,
                                                  tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    copy = _ten_seat_copy_past_reshuffles()
    copy["_result"]["net"].update(net)
    path = str(tmp_path / "ann.toml")
    Path(path).write_text(tomli_w.dumps(copy), encoding="utf-8")
    assert run(["replay", path], capsys) == (
        2, "", f"rollem: error: {path}: {IMPOSSIBLE}: {why}\n")


def _swap(i: int, j: int) -> Callable[[dict[str, Any]], None]:
    """Lines ``i`` and ``j`` (1-based) of actions swapped."""
    def edit(copy: dict[str, Any]) -> None:
        lines = copy["actions"]
        lines[i - 1], lines[j - 1] = lines[j - 1], lines[i - 1]
    return edit


def _line(i: int, text: str) -> Callable[[dict[str, Any]], None]:
    def edit(copy: dict[str, Any]) -> None:
        copy["actions"][i - 1] = text
    return edit


def _pot(**changes: object) -> Callable[[dict[str, Any]], None]:
    def edit(copy: dict[str, Any]) -> None:
        copy["_result"]["pots"][0].update(changes)
    return edit


def _net(**changes: int) -> Callable[[dict[str, Any]], None]:
    def edit(copy: dict[str, Any]) -> None:
        copy["_result"]["net"].update({k.lstrip("s"): v for k, v in changes.items()})
    return edit


ELIGIBLE = [0, 1, 2, 3, 6, 7, 8, 9]


# Every edit is after the first reshuffle (line 32, needed by p3's draw at line
# 31): these lines are not replayed with stand-ins, so the turn order, the
# bets and the pots are checked on the onlooker's lines with every draw a
# stand pat (history_copy._without_draws), and the nets against the pots.
@pytest.mark.parametrize(("edit", "why"), [
    # p3 is to act first in round 2 (R-521-3), then p4
    (_swap(57, 58), "action 29 (line 57 of actions: p4 cbr 2): seat 3 cannot act now: "
                    "waiting for seat 2 (bet)"),
    # after the first roll Ks (p6) and Kd (p7) show: p6, nearer the dealer's left, opens (R-C-8)
    (_swap(110, 111), "action 60 (line 110 of actions: p7 cc): seat 6 cannot act now: "
                      "waiting for seat 5 (bet)"),
    # a bet of the big bet (4) only, in round 3 (R-521-10)
    (_line(113, "p9 cbr 6"), "action 63 (line 113 of actions: p9 cbr 6): seat 8 cannot do "
                             "that: bet 6 is not 4; allowed: fold, check, bet 4"),
    # p6 folded here: calling instead, p6 is to act first in the next round
    (_line(120, "p6 cc"), "action 80 (line 139 of actions: p7 cc): seat 6 cannot act now: "
                          "waiting for seat 5 (bet)"),
    (_pot(amount=536), "its _result pots (amount, eligible) [(536, [0, 1, 2, 3, 6, 7, 8, 9])] "
                       "differ from its actions' [(534, [0, 1, 2, 3, 6, 7, 8, 9])]"),
    (_pot(eligible=ELIGIBLE[:-1]), "its _result pots (amount, eligible) [(534, [0, 1, 2, 3, "
                                   "6, 7, 8])] differ from its actions' [(534, [0, 1, 2, 3, "
                                   "6, 7, 8, 9])]"),
    # a chip moved from seat 5 (who put 11 in and folded) to the winner: the sum holds
    (_net(s5=-12, s8=475), "its _result.net says seat 5 made -12, but it put 11 in the pot "
                           "and its _result.pots give it 0: -11"),
    (_net(s8=473, s9=-59), "its _result.net says seat 8 made +473, but it put 60 in the pot "
                           "and its _result.pots give it 534: +474"),
])
def test_turn_order_and_pots_are_checked_after_a_reshuffle(
        edit: Callable[[dict[str, Any]], None], why: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    copy = _ten_seat_copy_past_reshuffles()
    assert copy["_result"]["pots"][0]["eligible"] == ELIGIBLE
    assert copy["_result"]["net"]["5"] == -11 and copy["_result"]["net"]["8"] == 474
    own_copy_hand(copy)  # as it is: accepted
    edit(copy)
    with pytest.raises(HistoryError) as info:
        own_copy_hand(copy)
    assert str(info.value) == f"{IMPOSSIBLE}: {why}"
    path = tmp_path / "ann.toml"
    path.write_text(tomli_w.dumps(copy), encoding="utf-8")
    assert run(["replay", str(path)], capsys) == (
        2, "", f"rollem: error: {path}: {IMPOSSIBLE}: {why}\n")


@pytest.mark.parametrize(("edit", "why"), [
    (_line(55, "p1 sd Qh"), "line 55 of actions (p1 sd Qh) throws Qh, which is not one of "
                            "your cards (Ad Kc 7s 5d 8h)"),
    (_line(56, "d dh p1 8h"), "line 56 of actions (d dh p1 8h) deals you 8h, which you hold "
                              "already"),
    (_line(99, "p1 stack 8h 7s 5d Kc Ad"), "line 99 of actions (p1 stack 8h 7s 5d Kc Ad) "
                                           "stacks cards that are not your cards "
                                           "(Ad 7s 5d 8h 4c)"),
    (_line(99, "p1 stack 7s 8h 5d 4c Ad"), "line 109 of actions (# roll p1 8h) rolls up 8h, "
                                           "but your stacking order has 7s on top"),
    (_line(109, "# roll p1 Ad"), "line 109 of actions (# roll p1 Ad) rolls up Ad, but your "
                                 "stacking order has 8h on top"),
])
def test_your_own_cards_are_checked_after_a_reshuffle(
        edit: Callable[[dict[str, Any]], None], why: str) -> None:
    copy = _ten_seat_copy_past_reshuffles()
    assert copy["actions"][9] == "d dh p1 AdKc7s5d8h" and copy["actions"][108] == "# roll p1 8h"
    edit(copy)
    with pytest.raises(HistoryError) as info:
        own_copy_hand(copy)
    assert str(info.value) == f"{IMPOSSIBLE}: {why}"


def test_the_betting_is_checked_without_draws_unless_one_follows_an_up_card() -> None:
    from rollem.history_copy import _draw_after_an_up_card, _without_draws

    lines = _ten_seat_copy_past_reshuffles()["actions"]
    assert not _draw_after_an_up_card(lines)  # 5-2-1 rolls after its draws
    bare = _without_draws(lines, 10)
    assert len(bare) == len(lines)  # each line keeps its number
    assert (lines[54:57], bare[54:57]) == (["p1 sd Kc", "d dh p1 4c", "p3 cc"],
                                           ["p1 sd", "#", "p3 cc"])
    assert (lines[30:33], bare[30:33]) == (
        ["p3 sd ??", "# reshuffle for p3: 2 cards (muck and discards) -> _shuffles",
         "d dh p3 ??"], ["p3 sd", "#", "#"])
    assert bare[0] == "d dh p2 ??????????" and bare[98] == "p1 stack ?? ?? ?? ?? ??"
    assert bare[99] == lines[99] == "# roll p2 Td"
    assert _draw_after_an_up_card(["d du p1 Ah", "p1 cc", "p1 sd ??"])
    assert _draw_after_an_up_card(["# roll p2 Td", "p2 draw Td"])
    assert not _draw_after_an_up_card(["d dh p1 ????", "p1 sd ??", "d du p1 Ah"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_seats_copy_of_a_hand_that_reshuffled_passes(seed: int) -> None:
    # no false refusal after a reshuffle: the onlooker's lines without draws
    # give the real hand's turn order and pots, and its nets are what the
    # pots give less what each seat put in
    hand = basic_hand("rollem521", 10, seed)
    assert hand.result is not None
    full = write_history(hand)
    assert "# reshuffle" in full
    real = hand.result.to_dict()
    for s, net in real["net"].items():
        won = sum(p["winners"].get(s, 0) for p in real["pots"])
        assert net == won - hand.committed[int(s)]
    for seat in range(10):
        own_copy_hand(redact(full, seat))


@pytest.mark.parametrize(("net", "why"), [
    ({"0": 13, "2": 1}, "seat 0 made +13, but it put 14 in the pot and its _result.pots give "
                        "it 28: +14"),
    ({"1": -13, "2": -1}, "seat 1 made -13, but it put 14 in the pot and its _result.pots give "
                          "it 0: -14"),
])
def test_a_copys_net_must_be_what_its_pots_give(net: dict[str, int], why: str) -> None:
    """Without a reshuffle too: each seat's net is what the recorded pots give it
    less what it put in (here a chip moved between two nets, keeping their sum)."""
    copy = _load("holdem_ann.toml")
    assert copy["_result"]["net"] == {"0": 14, "1": -14, "2": 0}
    own_copy_hand(copy)
    copy["_result"]["net"].update(net)
    with pytest.raises(HistoryError) as info:
        own_copy_hand(copy)
    assert str(info.value) == f"{IMPOSSIBLE}: its _result.net says {why}"


def test_a_copy_may_carry_its_readers_notes(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    copy = _with(_load("holdem_ann.toml"), "p3 f", "p3 f # Cy gives up")
    copy["actions"].insert(5, "# a note of mine")
    told = (COPIES / "holdem_ann.txt").read_text(encoding="utf-8")
    code, out, err = run(["replay", _write(copy, "ann.toml")], capsys)
    assert (code, unwrapped(out), err) == (0, told, "")


def _split_order(text: str) -> list[str]:
    """Summary lines with each shown hand's cards, and each split's winners, in
    one order (a recorded ``_result`` keeps both by seat)."""
    def norm(line: str) -> str:
        head, _, rest = line.partition(": ")
        shown = re.fullmatch(r"(.+ shows?) (.+)", head)
        if shown:
            return f"{shown[1]} {' '.join(sorted(shown[2].split()))}: {rest}"
        return re.sub(r"(\S+ wins? \d+(?:, )?)+", lambda m: ", ".join(
            sorted(m.group(0).rstrip(", ").split(", "))), line)
    return [norm(line) for line in text.splitlines()]


@pytest.mark.parametrize(("game", "n", "seed"), [
    ("sdr", 4, 2), ("sdr", 2, 9), ("rollyourown", 5, 2), ("rollem521", 3, 1), ("omaha8", 5, 1)])
def test_result_of_a_copy_says_what_the_full_historys_result_says(
        game: str, n: int, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --result`` on each seat's copy (rollem play's files): the table
    cards from the copy's public lines, the shows in the order shown, the pots and
    nets the copy records; never a card the seat did not see."""
    monkeypatch.chdir(tmp_path)
    hand = basic_hand(game, n, seed)
    names = ["You", "Ann", "Bob", "Cy", "Di"][:n]
    full = write_history(hand, players=names)
    code, told, _ = run(["replay", _write(tomllib.loads(full), "full.toml"), "--result"], capsys)
    assert code == 0 and "shows" in told
    for seat in range(n):
        copy = redact(full, seat)
        code, out, err = run(["replay", _write(copy, f"s{seat}.toml"), "--result"], capsys)
        assert (code, err) == (0, "")
        assert _split_order(out) == _split_order(told), seat
        seen = set(re.findall(r"[2-9TJQKA][cdhs]", " ".join(copy["actions"])))
        assert set(re.findall(r"\b[2-9TJQKA][cdhs]\b", out)) <= seen


def test_result_of_a_copy_that_reshuffled_is_refused_with_what_works(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(COPIES / "rollem521_ten_ann.toml")
    code, out, err = run(["replay", path, "--result"], capsys)
    assert (code, out) == (2, "")
    assert err == (f"rollem: error: {path}: this copy's deck ran out and was reshuffled, so "
                   "its table cannot be summed up from it; use rollem replay FILE (step by "
                   "step) or --json\n")
    assert run(["replay", path, "--json"], capsys)[0] == 0


@pytest.mark.parametrize(("edit", "why"), [
    (lambda r: r.update(shown=["x"]), "_result.shown must be a table of seats to hand "
                                      "descriptions"),
    (lambda r: r.update(shown={"0": 5}), "_result.shown must be a table of seats to hand "
                                         "descriptions"),
    (lambda r: r["pots"][0].update(high={"0": "x"}),
     "_result.pots[0].high: '0' = 'x' is not a seat (0 to 99) and whole chips"),
])
def test_result_of_a_copy_with_a_malformed_result_is_refused(
        edit: Callable[[dict[str, Any]], None], why: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    copy = _load("rollem521_ann.toml")
    edit(copy["_result"])
    path = _write(copy, "ann.toml")
    assert run(["replay", path, "--result"], capsys) == (2, "", f"rollem: error: {path}: {why}\n")


# --- the showdown a copy records, against the shown cards (R-C-9..R-C-11, R-521-9)

def _copy_of(game: str, n: int, seed: int, seat: int) -> dict[str, Any]:
    return redact(write_history(basic_hand(game, n, seed)), seat)


def _give(copy: dict[str, Any], pot: int, to: str) -> None:
    """Give pot ``pot`` (one winner) to seat ``to``, with nets and finishing stacks to match."""
    result = copy["_result"]
    [(was, chips)] = result["pots"][pot]["winners"].items()
    result["pots"][pot]["winners"] = {to: chips}
    result["net"][was] -= chips
    result["net"][to] += chips
    copy["finishing_stacks"][int(was)] -= chips
    copy["finishing_stacks"][int(to)] += chips


def _refused(copy: dict[str, Any]) -> str:
    with pytest.raises(HistoryError) as err:
        own_copy_hand(copy)
    return str(err.value)


def test_a_copys_pot_goes_to_the_best_shown_hand() -> None:
    # Hold'em, 2 players, seed 9: both show and p2 takes the pot; the copy of
    # the loser p1 gives it to p1, with nets and finishing stacks to match
    copy = _copy_of("holdem", 2, 9, 0)
    assert copy["_result"]["pots"][0]["winners"] == {"1": 16}
    assert sorted(copy["_result"]["shown_cards"]) == ["0", "1"]
    own_copy_hand(copy)
    _give(copy, 0, "0")
    assert _refused(copy) == (f"{IMPOSSIBLE}: its _result.pots[0].winners is p1 16, but the "
                              "shown hands give p2 16")


def test_a_5_2_1_copys_halves_follow_the_declarations() -> None:
    # 5-2-1, 2 players, seed 8: one takes the high half, the other the low
    copy = _copy_of("rollem521", 2, 8, 0)
    pot = copy["_result"]["pots"][0]
    high, low = pot["high"], pot["low"]
    assert set(high) != set(low)
    own_copy_hand(copy)
    pot["high"], pot["low"] = low, high
    assert _refused(copy) == (f"{IMPOSSIBLE}: its _result.pots[0].high is {_chips(low)}, but "
                              f"the shown hands give {_chips(high)}")


def _chips(table: dict[str, int]) -> str:
    return ", ".join(f"p{int(s) + 1} {c}" for s, c in sorted(table.items()))


def test_a_reshuffled_5_2_1_copys_halves_are_checked() -> None:
    # p9's straight and queen-jack low scoop; the copy gives the low half to
    # p1's eight-seven (declared low), with nets and finishing stacks to match
    copy = _ten_seat_copy_past_reshuffles()
    own_copy_hand(copy)
    pot = copy["_result"]["pots"][0]
    assert pot["high"] == pot["low"] == {"8": 267}
    pot["low"] = {"0": 267}
    pot["winners"] = {"0": 267, "8": 267}
    copy["_result"]["net"]["0"] += 267
    copy["_result"]["net"]["8"] -= 267
    copy["finishing_stacks"][0] += 267
    copy["finishing_stacks"][8] -= 267
    assert _refused(copy) == (f"{IMPOSSIBLE}: its _result.pots[0].winners is p1 267, p9 267, "
                              "but the shown hands give p9 534")


def test_a_copys_shown_descriptions_are_the_cards() -> None:
    copy = _copy_of("holdem", 2, 4, 0)
    assert copy["_result"]["shown"] == {"1": "two pair, aces and jacks, queen kicker"}
    copy["_result"]["shown"]["1"] = "royal flush"
    assert _refused(copy) == (f"{IMPOSSIBLE}: its _result.shown says p2 has 'royal flush', "
                              "but its shown cards (Js Jd) make 'two pair, aces and jacks, "
                              "queen kicker'")


@pytest.mark.parametrize(("mine", "why"), [
    ("QhQd", "you muck Qh Qd, which win 16 of pot 0"),  # queens full beat aces and jacks
    ("JhJc", "you muck Jh Jc, which win 8 of pot 0"),  # aces and jacks: a tie
])
def test_your_mucked_hand_may_not_win(mine: str, why: str) -> None:
    # Hold'em, seed 4: you (p1) hold 7h7d and muck to p2's aces and jacks
    copy = _copy_of("holdem", 2, 4, 0)
    assert "d dh p1 7h7d" in copy["actions"] and "p1 sm" in copy["actions"]
    own_copy_hand(copy)
    edited = _with(copy, "d dh p1 7h7d", f"d dh p1 {mine}")
    assert _refused(edited).startswith(f"{IMPOSSIBLE}: {why} against the hands shown")


def test_a_copys_finishing_stacks_are_its_nets() -> None:
    copy = _copy_of("holdem", 2, 4, 0)
    stacks = list(copy["finishing_stacks"])
    copy["finishing_stacks"] = [stacks[0] + 5, stacks[1] - 5]
    assert _refused(copy) == (f"{IMPOSSIBLE}: its finishing_stacks {copy['finishing_stacks']} "
                              f"are not its starting stacks plus its _result.net: {stacks}")


def test_result_of_a_copy_whose_pot_went_to_the_loser_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    copy = _copy_of("holdem", 2, 9, 0)
    _give(copy, 0, "0")
    path = _write(copy, "given.toml")
    assert run(["replay", path, "--result"], capsys) == (
        2, "", f"rollem: error: {path}: {IMPOSSIBLE}: its _result.pots[0].winners is p1 16, "
               "but the shown hands give p2 16\n")


def test_a_copy_where_a_hand_shows_to_fail_a_mucked_both_ways_declarer_passes() -> None:
    # 5-2-1, 6 players, seed 3: p3 declares both and fails (it mucked before
    # s59-tidy, it shows now); p6 (low) shows only because her hand makes p3
    # fail (R-521-9, R-C-11); p5 scoops
    hand = basic_hand("rollem521", 6, 3)
    assert hand.result is not None
    assert sorted(hand.result.shown) == [2, 4, 5] and not hand.folded[2]
    assert hand.extra["declarations"][2] == "both"
    full = write_history(hand)
    for seat in range(6):
        own_copy_hand(redact(full, seat))


def test_a_copy_without_shown_cards_is_checked_by_its_show_lines() -> None:
    # a hand-written history may leave _result.shown_cards out: the first show
    # line of each seat gives its cards; with show lines left out, nothing is
    copy = _copy_of("holdem", 2, 9, 0)
    del copy["_result"]["shown_cards"]
    own_copy_hand(copy)
    _give(copy, 0, "0")
    assert _refused(copy) == (f"{IMPOSSIBLE}: its _result.pots[0].winners is p1 16, but the "
                              "shown hands give p2 16")
    copy["actions"] = [line for line in copy["actions"] if " sm" not in line]
    own_copy_hand(copy)


def test_a_game_files_own_muck_is_told_in_replay_as_in_play(tmp_path: Path) -> None:
    """Stop 51: Omaha hi-lo (a game file: its hands are in the engine's words),
    you call the river and muck.  ``rollem play`` told "You muck pair of eights,
    ...: it loses to Ann's king-high flush, ..."; ``rollem replay`` of the copy it
    saved left that line out (its muck line carried no words).  Now the two tell
    the hand's end in the same lines."""
    out: list[str] = []

    def answers() -> Any:
        while True:
            yield "q" if "".join(out).endswith("q = quit > ") else "c"

    game, out = scripted(answers(), game="omaha8", players=2, stack=500, seed=1,
                         history_dir=tmp_path)
    game.run()
    played = "".join(out)
    end: list[str] = []
    for line in played[played.rfind("Ann shows"):played.rfind("This hand: ")].split("\n"):
        # (piped play wraps a told line past 78 columns, its later part indented
        # two spaces (s58-tidy); the history's narration is one line a sentence)
        if line.startswith("  ") and end:
            end[-1] += " " + line.strip()
        else:
            end.append(line)
    loses = ("You muck pair of eights, ace-king-ten for high and eight-seven low, "
             "three-deuce-ace for low: it loses to Ann's king-high flush, "
             "jack-ten-seven-three for high and seven-six low, three-deuce-ace for low.")
    assert loses in end, end
    copy = next(tmp_path.rglob("hand-0001-omaha8.toml")).read_text()
    told = narrate_history(copy).text().split("\n")
    assert told[told.index(end[0]):-1] == [line for line in end if line], told
    assert told[-1] == "This hand: you lost 8."
