"""The command line's input checks found by a fresh tester (one rule per
option across commands, bounded file reads, clear answers)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from cli_helpers import run_cli as run
from cli_helpers import unwrapped
from rollem.cli.seed_opt import MAX_SEED
from rollem.odds import OddsError, sdr_odds
from rollem.odds.history import history_odds

HISTORIES = Path(__file__).parent / "histories"


SEED_ALLOWED = "expected a whole number from 0 to 18446744073709551615 (2**64 - 1)"
SEED_ERROR = f"rollem: error: --seed -1: {SEED_ALLOWED}\n"

SEED_COMMANDS = [
    ["odds", "sdr", "--hand", "AsKs"],
    ["odds", "sdr", "--hand", "AsKs", "--workers", "2"],
    ["odds", "--history", str(HISTORIES / "sdr_worked_example.toml"), "--seat", "0",
     "--at", "2"],
    ["simulate", "sdr", "--players", "2", "--hands", "3"],
    ["play"],
]


@pytest.mark.parametrize("args", SEED_COMMANDS)
def test_negative_seed_is_one_usage_error_everywhere(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Before: odds crashed (numpy: "expected non-negative integer", exit 1)
    # while simulate and play took -1 (as 1).
    code, out, err = run([*args, "--seed", "-1"], capsys)
    assert (code, out, err) == (2, "", SEED_ERROR)


@pytest.mark.parametrize("args", SEED_COMMANDS)
def test_seed_above_2_to_the_64_is_one_usage_error_everywhere(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Before: play --seed 10**300 crashed naming its session folder
    # ("internal error: OSError: [Errno 36] File name too long", exit 70).
    assert MAX_SEED == 18446744073709551615
    code, out, err = run([*args, "--seed", str(MAX_SEED + 1)], capsys)
    assert (code, out, err) == (
        2, "", f"rollem: error: --seed 18446744073709551616: {SEED_ALLOWED}\n")
    code, out, err = run([*args, "--seed", str(10**300)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("rollem: error: --seed 10000") and err.count("\n") == 1
    assert err.endswith(f"0 ... [117 characters cut] ... {'0' * 18}: {SEED_ALLOWED}\n")


@pytest.mark.parametrize("args", SEED_COMMANDS)
def test_a_seed_is_ascii_digits_only_everywhere(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # Before: click's int() took full-width digits (１２ as 12), 1_000 and +5.
    for seed in ("\uff11\uff12", "1_000", "+5", "1e3", "abc", "", "\u0661"):
        code, out, err = run([*args, "--seed", seed], capsys)
        assert (code, out, err) == (2, "", f"rollem: error: --seed {seed}: {SEED_ALLOWED}\n")


def test_a_seed_with_leading_zeros_is_the_number(capsys: pytest.CaptureFixture[str]) -> None:
    # (two unknown hands: Monte Carlo; heads-up is counted exactly, seed or not)
    answers = [run(["odds", "sdr", "--hand", "AsKs", "--opponents", "2", "--seed", seed,
                    "--samples", "200", "--json"], capsys) for seed in ("12", "0012", "13")]
    assert answers[0][0] == 0 and answers[0] == answers[1]
    assert answers[0] != answers[2]  # the seed is used: another gives other samples


def test_largest_seed_is_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rollem.cli.play_cmd import TerminalGame

    runs = [run(["simulate", "sdr", "--players", "2", "--hands", "2", "--seed", str(MAX_SEED),
                 "--json"], capsys) for _ in range(2)]
    assert [code for code, _, _ in runs] == [0, 0], runs
    first, second = (json.loads(out)["seats"] for _, out, _ in runs)
    assert first == second  # seeded: the same results
    code, out, err = run(["odds", "sdr", "--hand", "AsKs", "--opponents", "2", "--seed",
                          str(MAX_SEED), "--samples", "200", "--json"], capsys)
    assert (code, json.loads(out)["samples"]) == (0, 200), err
    game = TerminalGame(game="sdr", players=2, level="random", stack=200, seed=MAX_SEED,
                        show_odds=False, history_dir=tmp_path, rich=False,
                        read_line=lambda prompt: "c", out=io.StringIO())
    assert game.session_dir.name.endswith("-seed18446744073709551615")
    game.hand_no = 1
    game.save(game.table.new_hand())
    assert game.saved == 1 and game.session_dir.is_dir()


def test_seed_zero_is_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "sdr", "--hand", "AsKs", "--opponents", "2", "--seed", "0",
                          "--samples", "200", "--json"], capsys)
    assert code == 0, err
    again = run(["odds", "sdr", "--hand", "AsKs", "--opponents", "2", "--seed", "0",
                 "--samples", "200", "--json"], capsys)[1]
    assert out == again  # seeded: the same answer


def test_odds_library_refuses_a_negative_seed() -> None:
    text = (HISTORIES / "sdr_worked_example.toml").read_text(encoding="utf-8")
    for call in (lambda: sdr_odds("As Ks", seed=-1, exact_limit=0, samples=10),
                 lambda: sdr_odds("As Ks", seed=-1, exact_limit=0, samples=10, workers=2),
                 lambda: history_odds(text, 0, at=2, seed=-1)):
        with pytest.raises(OddsError, match=r"^seed -1: expected a whole number, 0 or more$"):
            call()


SHIPPED = Path(__file__).parent.parent / "src" / "rollem" / "games" / "files"


def test_check_game_refuses_a_shipped_id_as_play_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: check-game said "OK: the game file is valid." (exit 0) for it.
    clash = tmp_path / "clash.toml"
    clash.write_text((SHIPPED / "holdem.toml").read_text(encoding="utf-8")
                     .replace('id = "holdem"', 'id = "sdr"'), encoding="utf-8")
    said = ("id 'sdr' is the shipped sdr's, and this file's name, rules, house and steps "
            "differ from it; give your game an id of its own (or play the shipped game: "
            "GAME sdr)\n")
    assert run(["check-game", str(clash)], capsys) == (
        2, "", f"rollem: error: {clash}: {said}")
    assert run(["check-game", "--json", str(clash)], capsys)[0] == 2
    for command in (["simulate", "--players", "2", "--hands", "1"], ["rules"]):
        assert run([*command, "--game-file", str(clash)], capsys) == (
            2, "", f"rollem: error: --game-file {clash}: {said}")


def test_a_shipped_file_unchanged_is_the_shipped_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SHIPPED / "holdem.toml")
    code, out, err = run(["check-game", path], capsys)
    assert code == 0 and out.splitlines()[-1] == "OK: the game file is valid.", err
    code, out, err = run(["simulate", "--game-file", path, "--players", "2", "--hands", "2",
                          "--seed", "1", "--json"], capsys)
    assert code == 0, err
    assert '"game": "holdem", "hands": 2' in out


def test_a_copy_of_a_shipped_file_with_the_same_rules_is_the_shipped_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """s61-term: a copy of holdem.toml with a comment added was refused as "id
    'holdem' is a shipped game's id"; only its text differed. Its rules are
    the shipped game's, so it is that game (its hand histories name holdem,
    rightly); a copy whose rules differ is still refused, saying what differs."""
    text = (SHIPPED / "holdem.toml").read_text(encoding="utf-8")
    copy = tmp_path / "holdem.toml"
    copy.write_text("# my copy, to learn from\n" + text.replace("\n\n", "\n\n\n", 1),
                    encoding="utf-8")
    code, out, err = run(["check-game", str(copy)], capsys)
    assert code == 0, err
    assert out.splitlines()[-3:] == [
        "The rules are the shipped holdem's (only comments, spacing or the order of",
        "keys differ): it plays as the shipped game, GAME holdem.",
        "OK: the game file is valid."]
    code, out, err = run(["simulate", "--game-file", str(copy), "--players", "2", "--hands",
                          "2", "--seed", "1", "--json"], capsys)
    assert code == 0 and '"game": "holdem", "hands": 2' in out, err
    renamed = tmp_path / "renamed.toml"
    renamed.write_text(text.replace('name = "Texas Hold\'em"', 'name = "Hold\'em at Jo\'s"'),
                       encoding="utf-8")
    assert run(["check-game", str(renamed)], capsys) == (
        2, "", f"rollem: error: {renamed}: id 'holdem' is the shipped holdem's, and this "
               "file's name differs from it; give your game an id of its own (or play the "
               "shipped game: GAME holdem)\n")


def test_a_long_all_digit_amount_is_not_allowed_by_its_range() -> None:
    # Before: "'1234567890123456789' is not a number of chips (digits 0-9)".
    from rollem.cards import parse_cards
    from rollem.cli.answers import AnswerError, parse_answer
    from rollem.engine.actions import Bet, Raise
    from rollem.engine.decisions import Legal

    facing = Legal(kind="bet", actions=("fold", "call", "raise"), call_amount=2, min_to=4,
                   max_to=200)
    opening = Legal(kind="bet", actions=("check", "bet"), min_to=4, max_to=200)
    cases = [("b 1234567890123456789", opening, "1234567890123456789 is not allowed: b 4..200"),
             ("raise 99999999999999999999", facing,
              "99999999999999999999 is not allowed: r 4..200"),
             ("b 12345678901", opening, "12345678901 is not allowed: b 4..200"),
             ("r 201", facing, "201 is not allowed: r 4..200")]
    for answer, legal, said in cases:
        with pytest.raises(AnswerError) as err:
            parse_answer(answer, legal)
        assert str(err.value) == f"{said} (your total bet this round)"
    with pytest.raises(AnswerError) as err:  # 5,000 digits: cut, not int()'s limit
        parse_answer("b " + "9" * 5000, opening)
    assert str(err.value) == ("9999999999999 ... [4981 characters cut] ... 999999 is not "
                              "allowed: b 4..200 (your total bet this round)")
    assert parse_answer("b 0000000000000000000200", opening) == Bet(200)
    assert parse_answer("r 4", facing) == Raise(4)
    discard = Legal(kind="discard", actions=("discard",),
                    cards=tuple(parse_cards("Qh 7c 2d As Ks 9h")), min_count=3, max_count=3)
    with pytest.raises(AnswerError) as err:
        parse_answer("1 2 12345678901234567890", discard)
    assert str(err.value) == ("12345678901234567890: positions go from 1 to 6 "
                              "(1:Qh 2:7c 3:2d 4:As 5:Ks 6:9h)")



def test_a_betting_word_at_a_card_choice_says_what_is_asked() -> None:
    """s57-tidy: ``c`` (check/call everywhere else) at a card choice answered
    "bad card 'c'"; the refusal says it is a card choice and what is allowed."""
    from rollem.cards import parse_cards
    from rollem.cli.answers import AnswerError, parse_answer
    from rollem.engine.actions import Discard, Expose
    from rollem.engine.decisions import Legal

    discard = Legal(kind="discard", actions=("discard",), into_pool=True,
                    cards=tuple(parse_cards("Qh 7c 2d As")), min_count=1, max_count=1)
    for answer in ("c", "check", "F", "b 4"):
        with pytest.raises(AnswerError) as err:
            parse_answer(answer, discard)
        assert str(err.value) == (
            f"{answer!r} answers a bet; this is a card choice: put 1 card in the pool, from "
            "1:Qh 2:7c 3:2d 4:As. Name a card such as Qh (or its number, 1), or ? for help")
    assert parse_answer("7c", discard) == Discard(tuple(parse_cards("7c")))
    # a card to turn up is numbered in the whole row, the card already up counted
    expose = Legal(kind="expose", actions=("expose",), cards=tuple(parse_cards("Qd 2s")))
    with pytest.raises(AnswerError) as err:
        parse_answer("c", expose, held=parse_cards("8s Qd 2s"))
    assert str(err.value) == ("'c' answers a bet; this is a card choice: turn up 1 card, "
                              "from 2:Qd 3:2s. Name a card such as Qd (or its number, 2), "
                              "or ? for help")
    assert parse_answer("2", expose, held=parse_cards("8s Qd 2s")) == \
        Expose(parse_cards("Qd")[0])
    stack = Legal(kind="stack", actions=("stack",), cards=tuple(parse_cards("Qd 2s 8s")))
    with pytest.raises(AnswerError) as err:
        parse_answer("c", stack)
    assert str(err.value) == ("'c' answers a bet; this is a card choice: order all 3 cards, "
                              "top first (k = keep as dealt, the order listed), from 1:Qd "
                              "2:2s 3:8s. Give them in order, top first, such as 2 1 3, or ? "
                              "for help")

@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    return path


@pytest.mark.timeout(30)  # the old code hung on these for ever
@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "folder"])
def test_special_files_are_refused_at_once(kind: str, fifo: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    if kind == "/dev/zero" and not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    path = {"/dev/zero": "/dev/zero", "fifo": str(fifo), "folder": str(tmp_path)}[kind]
    said = (f"rollem: error: {path}: not a regular file (a folder, a device or a pipe); "
            "give a file\n")
    commands = [["check-game", path], ["play", "--game-file", path],
                ["rules", "--game-file", path]]
    if kind != "folder":  # click refuses a folder for these (dir_okay=False)
        commands += [["replay", path], ["replay", path, "--result"],
                     ["odds", "--history", path, "--seat", "0"]]
    for args in commands:
        code, out, err = run(args, capsys)
        prefix = "--game-file " if "--game-file" in args else ""
        assert (code, out) == (2, ""), args
        assert err == said.replace("error: ", f"error: {prefix}"), args


def test_files_over_the_limit_are_refused_reading_just_past_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rollem.userfile import MAX_HISTORY_BYTES, UserFileError, read_user_text

    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 65537)
    assert run(["check-game", str(big)], capsys) == (
        2, "", f"rollem: error: {big}: larger than 65536 bytes\n")
    big.write_bytes(b"#" * (MAX_HISTORY_BYTES + 1))
    for args in (["replay", str(big)], ["odds", "--history", str(big), "--seat", "0"]):
        assert run(args, capsys) == (
            2, "", f"rollem: error: {big}: larger than {MAX_HISTORY_BYTES} bytes\n")
    exact = tmp_path / "exact.toml"
    exact.write_bytes(b"a\r\nb\rc\n" + b"#" * 93)
    assert read_user_text(exact, 100) == "a\nb\nc\n" + "#" * 93  # line ends as read_text
    with pytest.raises(UserFileError, match=r"exact.toml: larger than 99 bytes$"):
        read_user_text(exact, 99)
    exact.write_bytes(b"\xef\xbb\xbfid = 1\n")
    assert read_user_text(exact, 100, encoding="utf-8-sig") == "id = 1\n"
    exact.write_bytes(b"\xff\xfe")
    with pytest.raises(UserFileError, match=r"exact.toml: not UTF-8 text$"):
        read_user_text(exact, 100)
    with pytest.raises(UserFileError, match=r"nope.toml: cannot read: No such file"):
        read_user_text(tmp_path / "nope.toml", 100)


def test_a_player_named_you_takes_you_verbs_in_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rollem play names its player "You"; was "You has the button", "You wins 18".
    text = (HISTORIES / "sdr_worked_example.toml").read_text(encoding="utf-8")
    assert 'players = ["A", "B"]' in text
    path = tmp_path / "you.toml"
    path.write_text(text.replace('players = ["A", "B"]', 'players = ["A", "You"]'))
    code, out, err = run(["replay", str(path), "--result"], capsys)
    assert code == 0, err
    assert out.splitlines() == [  # ("you" inside a line: s55-left)
        "Stop, Drop and Roll: 2 players, you have the button",
        "Dead cards: Qh 7c",
        "Board: Kc 7d 2s",
        "You show As Kd: pair of kings, ace-seven-deuce",
        "Main pot: 18 chips (eligible: A, you); you win 18",
        "Net: A -9, you +9",
    ]
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Stop, Drop and Roll: A (200) and you (200); you have the button."
    assert "You win the pot (18) with pair of kings, ace-seven-deuce." in lines
    # Any other name keeps the third person.
    code, out, _ = run(["replay", str(HISTORIES / "sdr_worked_example.toml"), "--result"],
                       capsys)
    assert out.splitlines()[0] == "Stop, Drop and Roll: 2 players, B has the button"
    assert "B shows As Kd: pair of kings, ace-seven-deuce" in out and "B wins 18" in out


@pytest.mark.parametrize("hands", ["99999999999999999999", "1000001", "0"])
def test_simulate_hands_has_a_documented_maximum(
        hands: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Before: 99999999999999999999 hands were accepted and played silently.
    from rollem.simulate import MAX_HANDS, run_simulation

    assert MAX_HANDS == 1_000_000
    assert run(["simulate", "sdr", "--players", "2", "--hands", hands], capsys) == (
        2, "", f"rollem: error: --hands {hands}: expected 1 to 1,000,000\n")
    with pytest.raises(ValueError, match=r"^hands 1000001: expected 1 to 1,000,000$"):
        run_simulation("sdr", 2, MAX_HANDS + 1, ["random", "random"])
    code, out, _ = run(["simulate", "--help"], capsys)
    assert code == 0 and "Hands to play, 1 to 1,000,000 (needed unless --tournament)." \
        in " ".join(out.split())


def test_simulate_progress_moves_during_a_split_run() -> None:
    # Before: with --workers 2 the bar moved only when a worker's part ended.
    from rollem.simulate import run_simulation

    seen: list[int] = []
    result = run_simulation("sdr", 3, 60, ["random"] * 3, seed=4, workers=2,
                            progress=seen.append)
    assert seen == sorted(set(seen)) and seen[-1] == 60
    assert len(seen) >= 25 and max(seen[:-1]) <= 59  # per hand of this process's part
    again = run_simulation("sdr", 3, 60, ["random"] * 3, seed=4, workers=2)
    assert again.to_dict()["seats"] == result.to_dict()["seats"]  # the same hands
    one: list[int] = []
    run_simulation("sdr", 3, 20, ["random"] * 3, seed=4, progress=one.append)
    assert one == list(range(1, 21))


@pytest.mark.timeout(30)  # the old code blocked for ever opening the pipe
def test_serve_refuses_a_database_that_is_not_a_file(
        fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve", "--db", str(fifo), "--port", "0"], capsys) == (
        2, "", f"rollem: error: --db {fifo}: not a regular file (a folder, a device or a "
               "pipe); give a database file (created if missing)\n")
    assert not Path(f"{fifo}.lock").exists()
    code, _, err = run(["backup", str(fifo.parent / "copy.db"), "--db", str(fifo)], capsys)
    assert (code, err) == (2, f"rollem: error: no database at {fifo}; give the one rollem "
                              "serve uses with --db\n")


def test_play_reads_scripted_input_in_bounded_pieces_and_stops_when_refused_on_and_on(
        tmp_path: Path) -> None:
    """Issue 33: ``rollem play < /dev/zero`` grew past 5 GB (a line of standard
    input had no limit) and ``yes c | rollem play`` never ended (an answer refused
    forever).  Now a long line is read 1,000 characters at a time and 50 refused
    answers in a row stop the game with exit 2, after the ledger."""
    import subprocess
    import sys

    base = [sys.executable, "-m", "rollem", "play", "sdr", "--seed", "1",
            "--history-dir", str(tmp_path)]
    # (run by a small parent that writes its one child's peak memory to a file: this
    # process's own children's peak counts whatever ran before, browsers included)
    peak = tmp_path / "peak"
    parent = ("import resource, subprocess, sys; rc = subprocess.run(sys.argv[2:]).returncode; "
              "open(sys.argv[1], 'w').write(str(resource.getrusage("
              "resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(rc)")
    with open("/dev/zero", "rb") as zeros:
        out = subprocess.run([sys.executable, "-c", parent, str(peak), *base], stdin=zeros,
                             capture_output=True, timeout=120)
    text = out.stdout.decode(errors="replace")
    assert out.returncode == 2, out.stderr
    assert "50 answers in a row were refused; stopping" in text
    assert "Session ledger after 0 hands" in text
    # (the child's peak memory: far from gigabytes)
    assert 0 < int(peak.read_text()) < 400_000  # KiB
    out = subprocess.run(base, input="c\n" * 5000, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 2 and "answers in a row were refused" in out.stdout
    assert "Session ledger after 1 hand:" in out.stdout  # the hand played; then refused


def test_bet_facing_a_bet_and_a_card_already_up_are_answered_in_words() -> None:
    """Issue 33: ``b 2`` facing a bet answered "2 is not allowed: r 4"; a card
    already face up was "not among your cards to choose from"."""
    from rollem.cards import parse_card
    from rollem.cli.answers import AnswerError, parse_answer
    from rollem.engine.actions import Raise
    from rollem.engine.decisions import Legal

    facing = Legal(kind="bet", actions=("fold", "call", "raise"), call_amount=2,
                   min_to=4, max_to=4)
    with pytest.raises(AnswerError, match=r"^there is a bet already \(2 to call\): r 4 "
                                          r"raises \(your total bet this round\), c calls, "
                                          r"f folds$"):
        parse_answer("b 2", facing)
    assert parse_answer("b 4", facing) == Raise(4)  # a bet of the raise's size is that raise
    expose = Legal(kind="expose", actions=("expose",), cards=(parse_card("Kd"),
                                                              parse_card("7c")),
                   min_count=1, max_count=1)
    with pytest.raises(AnswerError, match=r"^4h is already face up; choose from Kd 7c$"):
        parse_answer("4h", expose, up=[parse_card("4h")])
    with pytest.raises(AnswerError, match="not among your cards"):
        parse_answer("4h", expose)


def test_a_card_to_turn_up_is_numbered_by_its_place_in_the_row_shown() -> None:
    """Roll Your Own's second turn-up, 8s up and Qd 2s 3h down, the row shown "8s Qd
    2s 3h": the terminal offered "from 1:Qd 2:2s 3:3h" (the down cards counted), the
    web table's keys are 2-4 (the row's places): now both count the row (stop 54)."""
    from rollem.cards import parse_card
    from rollem.cli.answers import AnswerError, choices_text, parse_answer
    from rollem.engine.actions import Expose
    from rollem.engine.decisions import Legal

    row = [parse_card(c) for c in ("8s", "Qd", "2s", "3h")]
    expose = Legal(kind="expose", actions=("expose",), cards=tuple(row[1:]),
                   min_count=1, max_count=1)
    assert choices_text(expose, None, row) == "turn up 1 card, from 2:Qd 3:2s 4:3h"
    assert parse_answer("2", expose, row[:1], row) == Expose(parse_card("Qd"))
    assert parse_answer("4", expose, row[:1], row) == Expose(parse_card("3h"))
    assert parse_answer("2s", expose, row[:1], row) == Expose(parse_card("2s"))
    with pytest.raises(AnswerError, match=r"^1:8s is already face up; choose from "
                                          r"2:Qd 3:2s 4:3h$"):
        parse_answer("1", expose, row[:1], row)
    with pytest.raises(AnswerError, match=r"^5: positions go from 1 to 4 \(1:8s 2:Qd 3:2s "
                                          r"4:3h\); choose from 2:Qd 3:2s 4:3h$"):
        parse_answer("5", expose, row[:1], row)
    with pytest.raises(AnswerError, match=r"^turn up exactly one card, from 2:Qd 3:2s 4:3h$"):
        parse_answer("2 3", expose, row[:1], row)
    # an empty answer lists the same numbers (s60-fresh: it said "from 1:Qd 2:2s 3:3h")
    with pytest.raises(AnswerError, match=r"^please answer: turn up 1 card, from 2:Qd 3:2s "
                                          r"4:3h$"):
        parse_answer("", expose, row[:1], row)
    with pytest.raises(AnswerError, match=r"; choose from your cards 2:Qd 3:2s 4:3h, by name "
                                          r"\(Qd\) or by position \(2\)$"):
        parse_answer("zz", expose, row[:1], row)  # ("c": a card choice, s57-tidy)
    # the first turn-up (nothing up yet): the same numbers as before
    first = Legal(kind="expose", actions=("expose",), cards=tuple(row[1:]),
                  min_count=1, max_count=1)
    assert choices_text(first, None, row[1:]) == "turn up 1 card, from 1:Qd 2:2s 3:3h"
    assert parse_answer("1", first, (), row[1:]) == Expose(parse_card("Qd"))


def test_an_unknown_command_names_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    # Before (stop 41's try-out): "rollem: error: No such command 'verfy'." -- what
    # was wrong, not what is allowed.
    code, out, err = run(["verfy", "x.toml"], capsys)
    assert (code, out) == (2, "")
    assert err == ("rollem: error: no such command 'verfy' (did you mean verify?): expected one "
                   "of backup, check-game, convert, eval, export, odds, play, replay, rules, "
                   "serve, simulate, verify\n")
    code, _, err = run(["nope"], capsys)
    assert code == 2 and "did you mean" not in err and "expected one of backup," in err


def test_no_piece_of_an_overlong_scripted_line_is_taken_as_an_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out of stop 48: a scripted line longer than 1,000 characters is read in
    pieces; on main the piece after the first was taken as an answer, so a pasted
    text of 1,001 characters ending in ``f`` folded the hand."""
    monkeypatch.setattr("sys.stdin", io.StringIO("x" * 1001 + "f\n" + "q\n"))
    code, out, _ = run(["play", "holdem", "--players", "2", "--bots", "random", "--seed", "3",
                        "--history-dir", str(tmp_path)], capsys)
    assert code == 0
    assert "You fold" not in out
    said = " ".join(out.split())  # (a refusal is wrapped at 80 columns)
    assert said.count("is not an answer here: c = call 1, r 4 = raise to 4, f = fold") == 1
    assert "'\u2026xxxx" in out  # (the line refused once, as one answer)
    assert "The hand in progress is abandoned" in out  # the q on the next line


def test_a_pasted_line_of_50000_characters_is_one_refused_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Stop 69's try-out: each 1,000-character piece of a pasted line was a refusal
    of its own, so one line of 50,000 characters ended the session ("50 answers in
    a row were refused").  It is one refused answer now; the next line is read as
    the next answer."""
    monkeypatch.setattr("sys.stdin", io.StringIO("y" * 50_000 + "\n" + "q\n"))
    code, out, _ = run(["play", "holdem", "--players", "2", "--bots", "random", "--seed", "3",
                        "--history-dir", str(tmp_path)], capsys)
    assert code == 0
    assert "answers in a row were refused" not in out
    assert " ".join(out.split()).count("is not an answer here") == 1
    assert "The hand in progress is abandoned" in out  # the q after it


@pytest.mark.parametrize("command", [["play", "rollem521"],
                                     ["simulate", "rollem521", "--players", "3", "--hands", "1"]])
def test_a_house_option_given_a_bad_word_is_one_line_naming_the_flag_typed(
        command: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out of issue 33 (branch s50-tryout): ``--house failed_both_rule=nope``
    reached the engine (an internal error), and ``--house burn_before_roll=maybe``
    was named as the flag ``--burn-before-roll=maybe``, which nobody typed."""
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, _, err = run([*command, "--house", "failed_both_rule=nope"], capsys)
    assert (code, err) == (2, "rollem: error: --house failed_both_rule=nope: expected one of "
                              "carry, split\n")
    code, _, err = run(["play", "sdr", "--house", "burn_before_roll=maybe"], capsys)
    assert (code, err) == (2, "rollem: error: --house burn_before_roll=maybe: burn_before_roll "
                              "is a switch: give true or false\n")


def test_an_answer_that_is_not_utf8_is_refused_like_any_other(tmp_path: Path) -> None:
    """Try-out of issue 33 (branch s50-tryout): bytes that are not UTF-8 on a
    piped standard input were an internal error (UnicodeDecodeError) where Python
    decodes strictly (an en_US.UTF-8 desktop), and echoed as '\\udcff' elsewhere."""
    import os
    import subprocess
    import sys

    for errors in ("strict", "surrogateescape"):
        out = subprocess.run(
            [sys.executable, "-m", "rollem", "play", "sdr", "--players", "2", "--seed", "3",
             "--history-dir", str(tmp_path)], input=b"c\n\xff\xfe\nq\n", capture_output=True,
            timeout=120, env={**os.environ, "PYTHONIOENCODING": f"utf-8:{errors}"})
        text = out.stdout.decode("utf-8")
        assert out.returncode == 0, (errors, out.stderr)
        assert "'\ufffd\ufffd' is not an answer here: c = check, b 2 = bet 2, f = fold" in text
        assert "The hand in progress is abandoned" in text  # the q after it was read


def test_backup_of_a_file_that_is_no_database_of_ours_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Try-out of issue 33 (branch s50-tryout): an empty file as --db gave "cannot back
    up ...: no such table: tables" (SQLite's words; an empty file is an empty
    database), a text file "file is not a database"."""
    for name, content in (("empty.db", b""), ("notes.db", b"hello, not sqlite\n" * 100)):
        db = tmp_path / name
        db.write_bytes(content)
        target = tmp_path / f"copy-{name}"
        code, _, err = run(["backup", str(target), "--db", str(db)], capsys)
        assert (code, err) == (2, f"rollem: error: {db} is not a database of rollem serve "
                                  "(it has no tables of rollem's); give the one rollem serve "
                                  "uses with --db\n")
        assert not target.exists()


def test_the_big_bet_help_says_it_is_the_later_rounds_least_bet_in_no_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--big-bet`` said "(fixed limit, later rounds)", so in no-limit it read
    as doing nothing; it is the least bet of the later rounds there (R-C-6):
    SDR no-limit with ``--big-bet 6`` offers "b 6..200" after the roll."""
    from cli_helpers import scripted
    from rollem.engine import Options

    game, out = scripted(iter(["c"] * 4 + ["q"] * 3), players=2, stack=200, seed=3,
                         options=Options(structure="no-limit", small_bet=2, big_bet=6),
                         history_dir=tmp_path)
    game.run()
    prompts = [ln for ln in "".join(out).splitlines() if ln.startswith("Choices (")]
    assert "b 2..199 = bet 2..199" in prompts[0]
    assert any(re.search(r"after the roll: betting\): c = check, b 6\.\.\d+ = bet 6\.\.", ln)
               for ln in prompts), prompts
    code, out_help, _ = run(["play", "--help"], capsys)
    assert code == 0
    help_text = " ".join(out_help.split())
    assert "--big-bet CHIPS The big bet (fixed limit, later rounds); in pot- and no-limit " \
        "the minimum bet of those rounds." in help_text


def test_a_terminal_copy_is_told_to_you_and_a_named_copy_names_its_owner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """s55-left (stop 54's leftover): the replay of ``rollem play``'s copy (its player
    named "You", no other name) read "You (60), Bob (60) and Cy (60); Cy has the
    button." and "As You saw it", "You" as a name. A copy is told as its owner saw it
    (docs/hand-history.md): the owner is "you" in the header as in the hand's lines;
    a copy with a name (the web table's download) names its owner, for whoever it is
    shared with."""
    copies = Path(__file__).parent / "copies"
    text = (copies / "holdem_ann.toml").read_text(encoding="utf-8")
    path = tmp_path / "hand-0001-holdem.toml"
    path.write_text(text.replace('    "Ann",\n', '    "You",\n', 1), encoding="utf-8")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 0, err
    lines = unwrapped(out).splitlines()
    assert lines[:3] == [
        "Texas Hold'em: you (60), Bob (60) and Cy (60); Cy has the button.",
        "Blinds 1/2, fixed limit 2/4.",
        "As you saw it (a redacted copy: other players' hidden cards stay hidden unless "
        "shown)."]
    assert "You are dealt 6h 5s." in lines
    code, out, err = run(["replay", str(path), "--result"], capsys)
    assert code == 0, err
    assert out.splitlines()[-1] == "Net: you +14, Bob -14, Cy +0"
    # the web table's download: its owner by name, then "you" in the hand's lines
    code, out, err = run(["replay", str(copies / "holdem_ann.toml")], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Texas Hold'em: Ann (60), Bob (60) and Cy (60); Cy has the button."
    assert lines[2].startswith("As Ann saw it (a redacted copy")
    assert "You are dealt 6h 5s." in lines


def test_simulate_without_players_says_what_to_give(
        capsys: pytest.CaptureFixture[str]) -> None:
    """s57-tidy: ``rollem simulate sdr`` answered only "Missing option '--players'"
    (CLI.md: ``--players N`` is required); the error says what to give."""
    code, out, err = run(["simulate", "sdr"], capsys)
    assert (code, out) == (2, "")
    assert err == "rollem: error: missing --players N (how many players at the table: " \
        "2 to 10)\n"
    code, _, err = run(["simulate", "sdr", "--players", "11", "--hands", "1"], capsys)
    assert (code, err) == (2, "rollem: error: --players 11: expected 2 to 10\n")
    code, out, _ = run(["simulate", "sdr", "--players", "2", "--hands", "2"], capsys)
    assert code == 0 and out.startswith("sdr: 2 hands, 2 players")


def test_backup_of_a_postgresql_database_says_to_use_pg_dump(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 58's host try-out: with ``ROLLEM_DB`` set to a PostgreSQL URL for ``rollem
    serve`` (as docs/hosting.md's systemd unit sets it), ``rollem backup copy.db`` said
    "no database at postgresql:/rollem@/rollem?host=/var/run/postgresql" (the URL read
    as a file path, one slash lost); it says what the database is and what backs it
    up, with a password hidden, and writes nothing."""
    target = tmp_path / "copy.db"
    monkeypatch.setenv("ROLLEM_DB", "postgresql://rollem@/rollem?host=/var/run/postgresql")
    code, _, err = run(["backup", str(target)], capsys)
    assert (code, err) == (2, "rollem: error: postgresql://rollem@/rollem?host=/var/run/"
                              "postgresql is a PostgreSQL database: rollem backup copies "
                              "SQLite files only; back it up with PostgreSQL's pg_dump "
                              "(docs/hosting.md, \"Running many tables: PostgreSQL\")\n")
    monkeypatch.delenv("ROLLEM_DB")
    code, _, err = run(["backup", str(target), "--db", "postgres://ann:secret@db/club"],
                       capsys)
    assert code == 2 and "postgres://ann:***@db/club is a PostgreSQL database" in err, err
    assert "secret" not in err
    assert not target.exists()


def test_a_refused_betting_answer_is_echoed_as_typed() -> None:
    """s60-fresh: ``s Qh`` typed at a bet (the show of the last hand, too early) was
    echoed lower-cased, "'s qh' is not an answer here", as if typed so."""
    from rollem.cli.answers import AnswerError, parse_answer
    from rollem.engine.decisions import Legal

    open_bet = Legal(kind="bet", actions=("check", "bet", "fold"), min_to=2, max_to=2)
    with pytest.raises(AnswerError, match=r"^'s Qh' is not an answer here: c = check, "
                                          r"b 2 = bet 2, f = fold$"):
        parse_answer("  s   Qh ", open_bet)


@pytest.mark.parametrize("command", [["play", "sdr", "--players", "2"],
                                     ["simulate", "sdr", "--players", "2", "--hands", "1"]])
@pytest.mark.parametrize("stack", ["99999999999999999999", "100000001", "0"])
def test_a_stack_past_the_web_tables_range_is_refused(
        command: list[str], stack: str, capsys: pytest.CaptureFixture[str]) -> None:
    """s60-tidy: ``rollem play --stack 99999999999999999999`` was taken and played,
    while the web table caps a stack at 100,000,000; both commands take the web
    table's range (one constant, :data:`rollem.limits.MAX_STACK`)."""
    code, out, err = run([*command, "--stack", stack], capsys)
    assert (code, out, err) == (
        2, "", f"rollem: error: --stack {stack}: expected 1 to 100,000,000 chips "
               "(the web table's range too)\n")


def test_the_stack_cap_is_one_constant() -> None:
    from rollem.limits import MAX_STACK
    from rollem.server.config import ConfigError, parse_config

    assert MAX_STACK == 100_000_000
    assert parse_config({"stack": MAX_STACK}).stack == MAX_STACK
    with pytest.raises(ConfigError, match="stack must be from 1 to 100000000"):
        parse_config({"stack": MAX_STACK + 1})


@pytest.mark.parametrize(("args", "said"), [
    (["--port", "abc"], "'--port' (env var: 'ROLLEM_PORT'): 'abc' is not a whole number: "
                        "expected 0 to 65535"),
    (["--port", "70000"], "'--port' (env var: 'ROLLEM_PORT'): 70000 is out of range: "
                          "expected 0 to 65535"),
    (["--port", "8.5"], "'8.5' is not a whole number: expected 0 to 65535"),
    (["--max-head", "5"], "'--max-head' (env var: 'ROLLEM_MAX_HEAD'): 5 is out of range: "
                          "expected 1024 or more"),
    (["--tables-per-hour", "lots"], "'lots' is not a whole number: expected 1 or more"),
])
def test_serve_names_the_range_of_a_bad_number(
        args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """s60-tidy: ``rollem serve --port abc`` said click's "'abc' is not a valid integer
    range"; every whole-number option of serve says what it takes."""
    code, out, err = run(["serve", *args], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("rollem: error: Invalid value for ") and err.endswith(said + "\n"), err


def test_serve_help_still_shows_the_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["serve", "--help"], capsys)
    assert code == 0
    assert "0<=x<=65535" in out and "x>=1024" in out


def test_a_scripted_answer_is_echoed_with_its_control_characters_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """s65-check: piped answers are echoed after the prompt; an answer of raw bytes
    (``< /dev/zero``, or escape sequences in a script) was written to the terminal
    as it came, so NULs or an ESC reached it, while the refusal quoted it safely."""
    monkeypatch.setattr("sys.stdin", io.StringIO("\x1b]0;title\x07\x00c\nq\n"))
    code, out, _ = run(["play", "holdem", "--players", "2", "--bots", "random", "--seed", "3",
                        "--history-dir", str(tmp_path)], capsys)
    assert code == 0
    assert "\x1b" not in out and "\x00" not in out and "\x07" not in out
    assert "> ^[]0;title^G^@c\n" in out  # the echo, in caret form
