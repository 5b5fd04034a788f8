"""A hand history cannot describe a hand that never happened (issue 12, R-C-1,
R-C-13): dealer lines stand where the step deals them, cards agree with
``_deck``, no card is in two places, a shown hand is the cards dealt, a
redacted copy is never replayed with invented cards; a byte order mark is
fine; every refusal is one line with exit 2. Also: our files are PHH that
PokerKit reads, and version 1 files still replay."""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from rollem.bots.random_bot import random_action
from rollem.cards import parse_cards
from rollem.cli.app import main
from rollem.engine import Call, Check, Hand, Options, SeededSource, Show
from rollem.history import HistoryError, read_history, redact, replay, write_history
from rollem.text import fit_lines

HISTORIES = Path(__file__).parent / "histories"
WORKED = (HISTORIES / "sdr_worked_example.toml").read_text()


def played(game: str, seed: int, n: int = 4, structure: str = "fixed-limit") -> Hand:
    rng = random.Random(seed)
    h = Hand(game, [60] * n, button=seed % n, options=Options(structure=structure),
             source=SeededSource(seed))
    while not h.is_over:
        assert h.pending is not None
        s = h.pending.seats[0]
        h.apply(s, random_action(h.legal_actions(s), rng))
    return h


def move_line(text: str, line: str, before: str) -> str:
    """``text`` with the actions line ``line`` moved to just before ``before``."""
    data = tomllib.loads(text)
    acts = [a for a in data["actions"] if a != line]
    acts.insert(acts.index(before), line)
    data["actions"] = acts
    return tomli_w.dumps(data)


def refused(text: str, *pattern: str) -> str:
    with pytest.raises(HistoryError) as info:
        replay(text)
    message = str(info.value)
    assert "\n" not in message
    for p in pattern:
        assert re.search(p, message), message
    return message


# ------------------------------------------------------------ dealer lines in place


def test_stop_written_during_the_first_betting_round_is_refused() -> None:
    bad = move_line(WORKED, "d dead Qh # stop", "p2 cc")
    refused(bad, r"^line 4 of actions \(d dead Qh # stop\), after action 1: ",
            "deals nothing here")


def test_roll_before_the_hole_cards_is_refused() -> None:
    bad = move_line(WORKED, "d db Kc 7d 2s # roll", "d dh p1 Qs Qd")
    refused(bad, r"^line 1 of actions \(d db Kc 7d 2s # roll\), after action 0: ",
            r"next: d dh p1 \(2 cards\), d dh p2 \(2 cards\)")


def test_hole_cards_in_the_wrong_seat_order_are_refused() -> None:
    bad = move_line(WORKED, "d dh p2 As Kd", "d dh p1 Qs Qd")
    refused(bad, r"^line 2 of actions \(d dh p1 Qs Qd\)")


def test_wrong_number_of_cards_is_refused() -> None:
    refused(WORKED.replace('"d dh p1 Qs Qd"', '"d dh p1 Qs Qd Jc"'),
            r"line 1 of actions", "the replay deals d dh p1 QsQdJc|deals d dh p1")


def full_sdr() -> str:
    """Three seats check and call down to a showdown, written with ``_deck``."""
    h = Hand("sdr", [60] * 3, button=2, source=SeededSource(3))
    while not h.is_over:
        assert h.pending is not None
        s = h.pending.seats[0]
        acts = h.legal_actions(s).actions
        h.apply(s, Check() if "check" in acts else Call())
    assert [e.kind for e in h.events].count("dead") == 2 and h.result is not None
    assert h.result.showdown
    return write_history(h)


def test_deck_history_dh_line_naming_the_stop_is_refused() -> None:
    """The issue's example: with ``_deck``, p1's ``d dh`` names the card the
    deck gives to the Stop."""
    text = full_sdr()
    data = tomllib.loads(text)
    acts = data["actions"]
    stop = next(a for a in acts if a.startswith("d dead")).split()[2]
    i = next(i for i, a in enumerate(acts) if a.startswith("d dh p1 "))
    real = acts[i].split()[3]
    acts[i] = f"d dh p1 {stop}{real[2:]}"
    refused(tomli_w.dumps(data), rf"^line {i + 1} of actions \(d dh p1 {stop}",
            rf"the replay deals d dh p1 {real} here \(the cards come from _deck\)")


def test_two_dead_lines_swapped_are_refused() -> None:
    data = tomllib.loads(full_sdr())
    acts = data["actions"]
    dead = [i for i, a in enumerate(acts) if a.startswith("d dead")]
    assert len(dead) == 2
    a, b = dead
    acts[a], acts[b] = acts[b], acts[a]
    refused(tomli_w.dumps(data), rf"^line {a + 1} of actions \(d dead ")


def test_card_text_disagreeing_with_the_deck_is_refused() -> None:
    text = full_sdr()
    data = tomllib.loads(text)
    deck = data["_deck"].split()
    deck[0], deck[-1] = deck[-1], deck[0]
    data["_deck"] = " ".join(deck)
    refused(tomli_w.dumps(data), r"^line 1 of actions", "come from _deck")


def test_a_card_in_two_places_is_refused_without_deck() -> None:
    refused(WORKED.replace('"d db Kc 7d 2s # roll"', '"d db Kc 7d Qs # roll"'),
            "Qs is named twice")


def test_shown_hand_must_be_the_cards_dealt() -> None:
    text = full_sdr()
    data = tomllib.loads(text)
    acts = data["actions"]
    i = next(i for i, a in enumerate(acts) if re.match(r"p\d sm \S", a))
    seat = acts[i].split()[0]
    acts[i] = f"{seat} sm 2c2d" if "2c" not in acts[i] else f"{seat} sm 3c3d"
    refused(tomli_w.dumps(data), rf"^line {i + 1} of actions", "the replay shows")
    # the worked example written by hand: B never held Ah
    hand_written = WORKED.replace('"p1 cc",\n]', '"p1 cc",\n    "p2 sm Ah Kd",\n]')
    refused(hand_written, r"^line 15 of actions \(p2 sm Ah Kd\)")


def test_show_by_choice_of_cards_never_held_is_refused() -> None:
    # p1 mucks at the showdown (B wins); showing afterwards is a show by
    # choice (R-C-11), of p1's own cards only
    ok = WORKED.replace('"p1 cc",\n]', '"p1 cc",\n    "p1 sm Qs",\n]')
    assert replay(ok).shown_by_choice == {0: list(parse_cards("Qs"))}
    bad = WORKED.replace('"p1 cc",\n]', '"p1 cc",\n    "p1 sm Qs Kc",\n]')
    refused(bad, r"^line 15 of actions \(p1 sm Qs Kc\), after action 9: p1 never held Kc")


def test_a_show_before_the_end_is_refused() -> None:
    bad = WORKED.replace('"p2 cc",\n    "d dead Qh # stop"', '"p2 cc",\n    "p1 sm Qs Qd",\n'
                         '    "d dead Qh # stop"')
    refused(bad, r"^line 5 of actions \(p1 sm Qs Qd\), after action 2: ")


# --------------------------------------------------------------- file-level points


def test_byte_order_mark_is_read_like_any_other(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert replay("\ufeff" + WORKED).result == replay(WORKED).result
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + WORKED.encode())
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path), "--json"])
    assert info.value.code in (0, None)
    assert '"net": {"0": -9, "1": 9}' in capsys.readouterr().out


def test_redacted_copy_is_refused_by_the_engine_and_never_invents_cards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h = played("sdr", 11, n=4)
    full = write_history(h)
    for seat in range(4):
        mine = redact(full, seat)
        text = tomli_w.dumps(mine)
        with pytest.raises(HistoryError, match=r"player's own copy \(_redacted_for = "
                           f"{seat}\\): .* cannot be replayed"):
            replay(text)
        without_mark = dict(mine)
        del without_mark["_redacted_for"]
        if any("??" in a for a in mine["actions"]):
            with pytest.raises(HistoryError, match=r"hidden cards \(\?\?\) cannot be replayed"):
                replay(tomli_w.dumps(without_mark))
        # rollem replay tells it as that seat saw it: no card it did not see
        path = tmp_path / f"mine{seat}.toml"
        path.write_text(text)
        with pytest.raises(SystemExit) as info:
            main(["replay", str(path)])
        out, _ = capsys.readouterr()
        assert info.value.code in (0, None)
        known = set(re.findall(r"[2-9TJQKA][cdhs]", text))
        told = {c for line in out.splitlines() if not line.startswith("As ")  # "As seat 0 saw it"
                for c in re.findall(r"\b[2-9TJQKA][cdhs]\b", line)}
        assert told <= known, (seat, told - known)
        # --result sums up the copy's recorded result: still no card it did not see
        with pytest.raises(SystemExit) as info:
            main(["replay", str(path), "--result"])
        out, _ = capsys.readouterr()
        assert info.value.code in (0, None) and "Net: " in out
        assert set(re.findall(r"\b[2-9TJQKA][cdhs]\b", out)) <= known


def test_cli_refusal_is_one_line_exit_2(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(move_line(WORKED, "d dead Qh # stop", "p2 cc"))
    for args in (["replay", str(path), "--json"], ["replay", str(path), "--result"],
                 ["replay", str(path)]):
        with pytest.raises(SystemExit) as info:
            main(args)
        out, err = capsys.readouterr()
        assert info.value.code == 2 and out == ""
        assert err.count("\n") == 1 and "line 4 of actions (d dead Qh # stop)" in err, err


# ------------------------------------------------ what the history records (issue 34)


def called_down() -> str:
    """A 3-seat Stop, Drop and Roll hand checked and called to the showdown
    (seed 3): Bob shows 5d 6s (ten high), Cy 9c 9d (pair of nines) and wins 3."""
    h = Hand("sdr", [60] * 3, button=0, options=Options(), source=SeededSource(3))
    while not h.is_over:
        assert h.pending is not None
        s = h.pending.seats[0]
        h.apply(s, Call() if "call" in h.legal_actions(s).actions else Check())
    return write_history(h, players=["Ann", "Bob", "Cy"])


def changed(text: str, change: Callable[[dict[str, Any]], None]) -> str:
    data = tomllib.loads(text)
    change(data)
    return tomli_w.dumps(data)


CONTRADICTIONS: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (lambda d: d["_result"]["shown_cards"]["1"].__setitem__(0, "2c"),
     "recorded _result.shown_cards.1 ['2c', '6s'] differs from the replay's ['5d', '6s']"),
    (lambda d: d["_result"]["shown"].__setitem__("2", "a royal flush"),
     "recorded _result.shown.2 'a royal flush' differs from the replay's 'pair of nines, "
     "ten-four-three'"),
    (lambda d: d["finishing_stacks"].__setitem__(0, 61),
     "recorded finishing_stacks [61, 59, 62] differs from the replay's [59, 59, 62]"),
    (lambda d: d["players"].pop(), "players has 2 names for 3 starting stacks (one a seat)"),
    (lambda d: d["_result"]["net"].__setitem__("5", 0),
     "recorded _result.net names seat '5' (0), which the replay does not"),
    (lambda d: d["_result"]["pots"][0]["winners"].update({"1": 1, "2": 2}),
     "recorded _result.pots[0].winners {'2': 2, '1': 1} differs from the replay's {'2': 3}"),
    (lambda d: d["_result"].__setitem__("carried", 3),
     "recorded _result.carried 3 differs from the replay's 0"),
    (lambda d: d["_result"]["shown"].pop("1"),
     "recorded _result.shown leaves out seat 1, which the replay gives 'ten high, "
     "six-five-four-three'"),
]


@pytest.mark.parametrize(("change", "message"), CONTRADICTIONS)
def test_what_the_replay_contradicts_is_refused(change: Callable[[dict[str, Any]], None],
                                                message: str) -> None:
    # Before: each replayed, printing the replay's own result and saying nothing.
    assert replay(called_down()).result is not None
    assert refused(changed(called_down(), change)) == message


def test_a_history_without_a_result_still_replays() -> None:
    # hand-written histories leave out _result and finishing_stacks; a field left
    # out is not a contradiction
    data = tomllib.loads(called_down())
    for key in ("_result", "finishing_stacks", "players", "seats"):
        del data[key]
    assert replay(tomli_w.dumps(data)).result is not None
    assert replay(changed(called_down(), lambda d: d["_result"].pop("shown_cards"))).is_over


def test_every_refusal_is_at_most_300_characters() -> None:
    # Before: one refusal echoed a 10,089-character value.
    huge = "x" * 20_000
    cases = [
        changed(called_down(), lambda d: d["_result"]["shown"].__setitem__("1", huge)),
        changed(called_down(), lambda d: d.__setitem__("variant", huge)),
        changed(called_down(), lambda d: d.__setitem__("_carry_in", [1] * 5000)),
        changed(called_down(), lambda d: d["actions"].insert(0, "d dh p1 " + "As" * 5000)),
        changed(called_down(), lambda d: d["actions"].append("p1 cbr " + "9" * 10_000)),
        changed(called_down(), lambda d: d.__setitem__("players", list(range(5000)))),
        changed(called_down(), lambda d: d["_result"].__setitem__("net", {"0": huge})),
    ]
    for text in cases:
        message = refused(text)
        assert len(message) <= 300, (len(message), message)
    assert refused(cases[0]).startswith("recorded _result.shown.1 'xxxxxxx")


def test_lenient_replays_and_lists_the_differences(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def both(d: dict[str, Any]) -> None:
        d["_result"]["shown"]["2"] = "a royal flush"
        d["finishing_stacks"][0] = 61
        d["players"].append("Dee")

    path = tmp_path / "contradicted.toml"
    path.write_text(changed(called_down(), both))
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path), "--result"])
    out, err = capsys.readouterr()
    assert info.value.code == 2 and out == ""
    assert err == (f"rollem: error: {path}: players has 4 names for 3 starting stacks "
                   "(one a seat)\n")
    # (lines wrapped to 80 columns since s62-term, the file's name kept whole)
    listed = (fit_lines(f"rollem: {path}: told as replayed; 3 differences from what the "
                        "history records (--lenient):", keep=len(f"rollem: {path}:")) + "\n"
              "  players has 4 names for 3 starting stacks (one a seat)\n"
              "  recorded _result.shown.2 'a royal flush' differs from the replay's 'pair of\n"
              "    nines, ten-four-three'\n"
              "  recorded finishing_stacks [61, 59, 62] differs from the replay's "
              "[59, 59, 62]\n")
    for args, told in ((["--result"], "seat 3 shows 9c 9d: pair of nines"),
                       (["--json"], '"shown": {"1": "ten high, six-five-four-three", "2": '
                                    '"pair of nines, ten-four-three"}'),
                       ([], "seat 3 wins the pot (3) with pair of nines")):
        with pytest.raises(SystemExit) as info:
            main(["replay", str(path), "--lenient", *args])
        out, err = capsys.readouterr()
        assert info.value.code in (0, None), err
        assert err == listed
        assert told in out, out
    # a history the replay agrees with lists nothing
    path.write_text(called_down())
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path), "--lenient", "--json"])
    out, err = capsys.readouterr()
    assert info.value.code in (0, None) and err == "" and out.count("\n") == 1


# ------------------------------------------------------------------ PHH


PHH_CARDS = ("dh", "db")  # dealer lines whose cards PHH writes run together


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
@pytest.mark.parametrize("structure", ["fixed-limit", "no-limit"])
def test_pokerkit_reads_every_file_we_write(game: str, structure: str) -> None:
    from pokerkit import Card as PKCard
    from pokerkit import HandHistory

    for seed in range(6):
        h = played(game, seed, n=3 + seed % 3, structure=structure)
        can_show = [s for s in range(h.n) if h.showable(s)]
        if can_show:  # a show by choice after the end (R-C-11)
            h.apply(can_show[0], Show(h.showable(can_show[0])[:1]))
        text = write_history(h, players=[f"P{s}" for s in range(h.n)])
        phh = HandHistory.loads(text)
        data = tomllib.loads(text)
        assert phh.starting_stacks == data["starting_stacks"] == list(h.start_stacks)
        assert phh.seats == list(range(1, h.n + 1))
        assert list(phh.actions) == data["actions"]
        assert (phh.min_bet is None) == (structure == "fixed-limit")
        assert phh.user_defined_fields["_version"] == 2
        for line in data["actions"]:
            parts = line.split("#")[0].split()
            # PHH's own lines: cards run together, read by PokerKit's card parser
            if parts[:1] == ["d"] and parts[1] in PHH_CARDS:
                cards = parts[-1]
            elif len(parts) >= 3 and parts[1] in ("sm", "sd"):
                cards = parts[2]
            else:
                continue
            assert len(parts) <= 4 and " " not in cards
            assert [repr(c) for c in PKCard.parse(cards)] == [
                str(c) for c in parse_cards(cards)]
        assert replay(text).result == h.result


def test_version_1_files_still_replay() -> None:
    for path in sorted(HISTORIES.glob("*.toml")):
        data = tomllib.loads(path.read_text())
        if data.get("_version") == 1:
            replay(path.read_text())
    old = (HISTORIES / "rollem521_side_pot.toml").read_text()
    assert "_version = 1" in old and '"p1 draw",' in old
    assert replay(old).result is not None
    assert read_history(old).actions[3] == (0, "draw")


def test_version_1_written_file_with_spaced_cards_and_min_bet_replays() -> None:
    h = played("rollem521", 4, n=3)
    data = tomllib.loads(write_history(h))
    data["_version"] = 1
    data["min_bet"] = 2
    del data["seats"]
    acts = []
    for line in data["actions"]:
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "sd":
            line = f"{parts[0]} draw " + " ".join(str(c) for c in parse_cards(parts[2:]))
            line = line.rstrip()
        elif parts[:2] == ["d", "dh"] or (len(parts) >= 3 and parts[1] == "sm"):
            head = parts[:3] if parts[0] == "d" else parts[:2]
            line = " ".join(head + [str(c) for c in parse_cards(parts[len(head):])])
        acts.append(line)
    data["actions"] = acts
    assert replay(tomli_w.dumps(data)).result == h.result


def test_a_deeply_nested_history_is_refused_in_one_line(tmp_path: Path) -> None:
    text = 'variant = "rollem-sdr"\nx = ' + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(HistoryError, match="nested too deeply"):
        read_history(text)
    path = tmp_path / "deep.toml"
    path.write_text(text)
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(path)])
    assert exit_info.value.code != 0


@pytest.mark.parametrize(("value", "named"), [
    (123, "not int 123"), (WORKED.encode(), "not bytes b'"),
    (HISTORIES / "sdr_worked_example.toml", "not PosixPath PosixPath("),
    ({"variant": "rollem-sdr"}, "not dict {'variant': 'rollem-sdr'}"), (None, "not NoneType None"),
])
def test_read_history_of_no_text_is_a_type_error_naming_what_is_allowed(value: Any,
                                                                        named: str) -> None:
    """``read_history(123)`` raised a bare ``AttributeError`` (``'int' object has no
    attribute 'removeprefix'``, stop 51): now a ``TypeError`` naming the type given
    and the str it takes (and where a file's, bytes' or dict's history goes)."""
    with pytest.raises(TypeError) as caught:
        read_history(value)
    message = str(caught.value)
    assert message.startswith("read_history takes a history's TOML text (a str), "), message
    assert named in message, message
    assert "Path.read_text(encoding='utf-8')" in message and "parse_history" in message
    assert read_history(WORKED).game == "sdr"  # (the text itself still reads)
