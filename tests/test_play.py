"""``rollem play``: the terminal game driven as a user would (a pseudo-terminal
through pexpect, and piped stdin), plus its answer parsing."""

from __future__ import annotations

import platform
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pexpect
import pytest

from cli_helpers import first_card_to_turn_up
from rollem.cards import parse_cards
from rollem.cli.answers import AnswerError, Command, parse_answer, parse_game_choice
from rollem.engine import (
    Bet,
    Call,
    Check,
    Declare,
    Discard,
    Draw,
    Expose,
    Fold,
    Hand,
    Legal,
    PickWild,
    Raise,
    SeededSource,
)
from rollem.engine import Stack as StackAction
from rollem.history import replay
from rollem.history_copy import own_copy_hand

ROLLEM = str(Path(sys.executable).with_name("rollem"))
CARD = re.compile(r"[2-9TJQKA][♣♦♥♠cdhs]")
PROMPT = re.compile(r"(Your move > |Enter = next hand[^\n]*?> |Game \(1-\d\) > )$")


def _answer(prompt: str, before: str) -> str:
    """A legal answer to one prompt of the terminal game (``before``: the text
    printed since the last prompt, with the choices)."""
    if prompt.startswith("Enter = next hand"):
        return "q"
    if prompt.startswith("Game"):
        return "1"
    body = " ".join(before.split("Choices (", 1)[-1].split())
    if "in the pool, from" in body:
        return "1 2 3"  # by position
    if "turn up 1 card" in body:
        return first_card_to_turn_up(body)
    if "stand pat" in body:
        return "p"
    if "pick the wild card" in body:
        return "1"
    if "order all" in body:
        return "k"
    if "h = high" in body:
        return "h"
    return "c"


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_play_full_hand_in_a_pseudo_terminal(game: str, tmp_path: Path) -> None:
    """A whole hand of each game at a terminal: one wrong answer (explained, asked
    again), then legal answers to the end of the hand; q prints the ledger and
    where the history was saved, and that file replays."""
    child = pexpect.spawn(
        ROLLEM, ["play", game, "--players", "3", "--bots", "random", "--seed", "7",
                 "--history-dir", str(tmp_path)],
        encoding="utf-8", timeout=60, dimensions=(50, 160), env={"TERM": "xterm", "PATH": ""},
    )
    child.expect(PROMPT)
    first = child.after
    before = child.before
    child.sendline("zz")
    child.expect("not (an answer here|among your cards)|bad card")
    child.expect(PROMPT)
    assert child.after == first
    child.sendline("?")  # help on this decision, in this game
    child.expect("Check: pass|pool|card")
    child.expect(PROMPT)
    prompts = 0
    while True:
        prompt = child.after
        if prompts:
            before = child.before
        answer = _answer(re.sub(r"\x1b\[[0-9;]*m", "", prompt),
                         re.sub(r"\x1b\[[0-9;]*m", "", before))
        child.sendline(answer)
        if answer == "q":
            break
        prompts += 1
        assert prompts < 60, "the hand did not end"
        child.expect(PROMPT)
    child.expect("Session ledger after 1 hand")
    child.expect(r"hand\s+histor(y|ies)\s+saved\s+in")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    files = list(tmp_path.rglob("*.toml"))
    assert len(files) == 1
    data = tomllib.loads(files[0].read_text())
    assert data["_redacted_for"] == 0  # your own copy
    hand = own_copy_hand(data)  # checked: it plays as saved
    assert hand.is_over and hand.game.id == game


def test_play_from_piped_stdin(tmp_path: Path) -> None:
    """Without a terminal: one answer per line, plain text out (no colour codes, short
    card text); the end of input quits cleanly with the ledger."""
    answers = "c\n" * 12 + "\n" + "c\n" * 12
    out = subprocess.run(
        [ROLLEM, "play", "sdr", "--players", "4", "--bots", "basic", "--seed", "3",
         "--history-dir", str(tmp_path)],
        input=answers, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "\x1b[" not in text and "♥" not in text
    assert "=== Hand 1: Stop, Drop and Roll" in text
    assert "You are dealt " in text
    assert "Session ledger after" in text
    assert "Traceback" not in out.stderr
    saved = sorted(tmp_path.rglob("*.toml"))
    histories = "hand history" if len(saved) == 1 else "hand histories"
    assert saved and f"{len(saved)} {histories} saved in" in text
    for f in saved:
        assert own_copy_hand(tomllib.loads(f.read_text())).is_over
    # the ledger balances: what one player won, others lost
    nets = [int(m) for m in re.findall(r"^  \w+\s+([+-]\d+)", text, re.M)]
    assert len(nets) == 4 and sum(nets) == 0


def test_play_bad_options_are_one_line_errors() -> None:
    for args, words in ((["nosuch"], "unknown game"), (["sdr", "--players", "1"], "2 to 10"),
                        (["rollyourown", "--players", "9"], "2 to 8"),
                        (["sdr", "--bots", "genius"], "unknown bot level")):
        out = subprocess.run([ROLLEM, "play", *args], capture_output=True, text=True,
                             input="", timeout=60)
        assert out.returncode == 2
        assert words in out.stderr and len(out.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------ answers

BETTING = Legal(kind="bet", actions=("fold", "call", "raise"), call_amount=2, min_to=4, max_to=4)
OPEN = Legal(kind="bet", actions=("check", "bet"), min_to=2, max_to=40)


def test_betting_answers() -> None:
    assert parse_answer("c", BETTING) == Call()
    assert parse_answer(" F ", BETTING) == Fold()
    assert parse_answer("r", BETTING) == Raise(4)
    assert parse_answer("r 4", BETTING) == Raise(4)
    assert parse_answer("c", OPEN) == Check()
    assert parse_answer("b 10", OPEN) == Bet(10)
    assert parse_answer("r 10", OPEN) == Bet(10)
    for bad, why in (("k", "cannot check, there is 2 to call"), ("r 6", "6 is not allowed"),
                     ("zz", "not an answer here"), ("", "please answer")):
        with pytest.raises(AnswerError, match=why):
            parse_answer(bad, BETTING)
    with pytest.raises(AnswerError, match=r"say how much: b 2\.\.40"):
        parse_answer("b", OPEN)
    with pytest.raises(AnswerError, match="nothing to fold"):
        parse_answer("f", OPEN)
    assert parse_answer("q", OPEN) == Command("quit")
    assert parse_answer("?", OPEN) == Command("help")


def test_card_answers() -> None:
    six = tuple(parse_cards("Qh 7c 2d As Ks 9h"))
    discard = Legal(kind="discard", actions=("discard",), cards=six, min_count=3, max_count=3)
    assert parse_answer("2d 7c 9♥", discard) == Discard(tuple(parse_cards("2d 7c 9h")))
    with pytest.raises(AnswerError, match="exactly 3 cards"):
        parse_answer("2d 7c", discard)
    with pytest.raises(AnswerError, match="not among your cards"):
        parse_answer("2d 7c 3s", discard)
    with pytest.raises(AnswerError) as err:  # a word that is not a card: how to answer
        parse_answer("zz", discard)  # ("c": a card choice, s57-tidy)
    assert str(err.value).endswith("choose from your cards Qh 7c 2d As Ks 9h, by name "
                                   "(Qh 7c) or by position (1 2)")
    draw = Legal(kind="draw", actions=("draw",), cards=six[:5], min_count=0, max_count=2)
    assert parse_answer("p", draw) == Draw(())
    assert parse_answer("qh", draw) == Draw(tuple(parse_cards("Qh")))
    with pytest.raises(AnswerError, match="0 to 2 cards"):
        parse_answer("Qh 7c 2d", draw)
    with pytest.raises(AnswerError) as err:  # (was "bad card 'p'": s69-newcomer)
        parse_answer("p 1", draw)
    assert str(err.value).startswith("'p 1': p alone stands pat; else give only the cards: "
                                     "throw away 0 to 2 cards (p = stand pat), from 1:Qh")
    stack = Legal(kind="stack", actions=("stack",), cards=six[:5], min_count=5, max_count=5)
    assert parse_answer("As Ks Qh 7c", stack) == StackAction(tuple(parse_cards("As Ks Qh 7c 2d")))
    assert parse_answer("k", stack) == StackAction(six[:5])
    with pytest.raises(AnswerError, match=r"^'k 1 2': k alone keeps them as dealt; else give"):
        parse_answer("k 1 2", stack)
    wild = Legal(kind="wild", actions=("wild",), positions=12)
    assert parse_answer("1", wild) == PickWild(0)
    with pytest.raises(AnswerError, match=r"1\.\.12"):
        parse_answer("13", wild)
    declare = Legal(kind="declare", actions=("declare",), sides=("high", "low", "both"))
    assert parse_answer("B", declare) == Declare("both")
    with pytest.raises(AnswerError, match="h = high, l = low, b = both"):
        parse_answer("x", declare)


def test_numbers_are_ascii_digits_only() -> None:
    """Full-width, superscript and other Unicode digits, underscores and signs are
    refused with a clear message (Python's int() reads "３" as 3 and "1_0" as 10);
    none of them is taken as a bet, a pool position, a card position or a game."""
    assert parse_answer("b 3", OPEN) == Bet(3)
    for bad in ("\uff13", "1_0", "+3", "\u00b2", "\u0663"):
        with pytest.raises(AnswerError, match=r"is not a number of chips \(digits 0-9\): "
                                              r"b 2\.\.40"):
            parse_answer(f"b {bad}", OPEN)
    wild = Legal(kind="wild", actions=("wild",), positions=5)
    assert parse_answer("3", wild) == PickWild(2)
    with pytest.raises(AnswerError, match=r"not a pool position: pick 1\.\.5"):
        parse_answer("\uff13", wild)
    six = tuple(parse_cards("Qh 7c 2d As Ks 9h"))
    discard = Legal(kind="discard", actions=("discard",), cards=six, min_count=3, max_count=3)
    with pytest.raises(AnswerError, match="choose from your cards"):
        parse_answer("1 2 \u00b3", discard)  # was a crash: "³".isdigit(), int("³") fails
    with pytest.raises(AnswerError, match="not one of the games"):
        parse_game_choice("\uff13", ["rollem521", "rollyourown", "sdr"])


def test_game_choice_answers() -> None:
    games = ["rollem521", "rollyourown", "sdr"]
    assert parse_game_choice("3", games) == "sdr"
    assert parse_game_choice("rolly", games) == "rollyourown"
    with pytest.raises(AnswerError, match="1 = rollem521"):
        parse_game_choice("roll", games)


def test_play_dealers_choice_piped_with_odds(tmp_path: Path) -> None:
    """Dealer's choice: the button is yours first, so you name the game; --show-odds
    prints your chances at each decision."""
    out = subprocess.run(
        [ROLLEM, "play", "--players", "3", "--bots", "random", "--seed", "5", "--show-odds",
         "--history-dir", str(tmp_path)],
        input="poker\nsdr\nc\nq\n", capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "You have the button: choose the game.\n  1 = sdr (Stop, Drop and Roll)\n  2 = " \
        "rollyourown (Five Card Roll Your Own)\n  3 = rollem521 (5-2-1 Roll 'Em)" in text
    assert "'poker' is not one of the games" in text
    assert "=== Hand 1: Stop, Drop and Roll, You have the button ===" in text
    assert re.search(r"Your odds: equity \d+% \(expected share of the pot\) · whole pot \d+% · "
                     r"a share \d+% ·\n  nothing \d+% · (exact|each ± \d\.\d points)", text)
    assert "The hand in progress is abandoned" in text
    assert "Session ledger after 0 hands" in text


# ------------------------------------------------------------------ details (tester's list)


def test_play_unwritable_history_dir_is_refused_at_start(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for folder in ("/proc/nope", str(a_file), str(a_file / "below")):
        out = subprocess.run([ROLLEM, "play", "sdr", "--history-dir", folder],
                             capture_output=True, text=True, input="c\n", timeout=60)
        assert out.returncode == 2, (folder, out.stdout)
        assert len(out.stderr.strip().splitlines()) == 1 and "--history-dir" in out.stderr
        assert out.stdout == ""


def test_play_ledger_is_truthful_when_saving_fails(tmp_path: Path) -> None:
    from rollem.cli.play_cmd import TerminalGame

    lines: list[str] = []
    answers = iter(["c"] * 30)

    class Out:
        def write(self, text: str) -> None:
            lines.append(text)

        def flush(self) -> None:
            pass

    game = TerminalGame(game="sdr", players=2, level="random", stack=200, seed=3,
                        show_odds=False, history_dir=tmp_path, rich=False,
                        read_line=lambda prompt: next(answers), out=Out())  # type: ignore[arg-type]
    (tmp_path / game.session_dir.name).write_text("in the way")  # mkdir will fail
    game.hand_no = 1
    game.save(game.table.new_hand())
    game.ledger()
    text = "".join(lines)
    assert "could not save the hand history" in text
    assert "1 finished hand could not be saved" in text
    assert "No hand was finished" not in text


def test_pool_line_shows_only_own_discards_that_may_still_be_in_the_pool() -> None:
    from rollem.cli.screen import Style, pool_cards_still_possible, render_table

    text = (Path(__file__).parent / "histories" / "rollyourown_seed_example.toml").read_text()
    view = replay(text).view(0)
    assert sorted(view.my_pool) == sorted(["5c", "Qc", "2c"])
    # 5c and Qc are in B's hand, shown at the showdown: only 2c may still be in the pool
    assert pool_cards_still_possible(view) == ["2c"]
    lines = render_table(view, Style(False, ["A", "B"]), title="t", game_name="g")
    assert "(you put in 2c)" in lines[1].plain


def test_pool_line_leaves_out_a_discard_turned_up_by_a_player_who_then_folded() -> None:
    """Seen at the web table (s61-fresh): a player drew the viewer's discard 7h from
    the pool, turned it up (R-RYO-5) and folded; a folded seat's view holds no cards,
    so 7h was listed again as maybe still in the pool, though all had seen it."""
    from rollem.cli.screen import pool_cards_still_possible

    hand = Hand("rollyourown", [200] * 3, button=0, source=SeededSource(2))
    while not hand.is_over:
        pending = hand.pending
        assert pending is not None
        seat = pending.seats[0]
        legal = hand.legal_actions(seat)
        if pending.kind == "discard":
            hand.apply(seat, Discard(legal.cards[:3]))
        elif pending.kind == "expose":   # the card drawn last, from the pool
            hand.apply(seat, Expose(legal.cards[-1]))
        elif pending.kind == "wild":
            hand.apply(seat, PickWild(0))
        elif seat == 1 and sum(hand.view(1).seats[1].up) == 3:
            hand.apply(seat, Fold())
        else:
            hand.apply(seat, Call() if "call" in legal.actions else Check())
    view = hand.view(0)
    assert sorted(view.my_pool) == ["3h", "4d", "7h"]
    turned_by_1 = [e["card"] for e in view.events if e["kind"] == "expose" and e["seat"] == 1]
    assert turned_by_1 == ["9h", "3c", "7h"]
    assert view.seats[1].folded and view.seats[1].cards == []
    assert "7h" not in pool_cards_still_possible(view)


def test_whole_pot_in_the_result_lines() -> None:
    from rollem.narration import Narrator

    nar = Narrator(["You", "Ann", "Bob"], 0)
    for e in ({"kind": "declare", "seat": 1, "side": "low"},
              {"kind": "declare", "seat": 2, "side": "low"},
              {"kind": "declare", "seat": 0, "side": "high"},
              {"kind": "fold", "seat": 0}):
        nar.feed(e)
    result = {"shown": {"2": "six-five low, four-three-deuce"},
              "shown_cards": {"2": ["6c", "5d", "4h", "3s", "2c"]}, "net": {"0": -13},
              "pots": [{"amount": 39, "eligible": [1, 2], "winners": {"2": 39}, "high": {},
                        "low": {"2": 39}}]}
    lines = [line.text for line in nar.result(result)]
    assert lines == ["Bob wins the whole of the pot (39) with six-five low, four-three-deuce "
                     "for low: nobody is left on the high side.", "This hand: you lost 13."]


def test_redraw_keeps_the_odds_line(tmp_path: Path) -> None:
    out = subprocess.run(
        [ROLLEM, "play", "sdr", "--players", "2", "--bots", "random", "--seed", "5",
         "--show-odds", "--history-dir", str(tmp_path)],
        input="t\nt\nq\n", capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    first = out.stdout.index("Your move")
    odds = re.findall(r"Your odds: [^\n]*", out.stdout[first:])
    assert len(odds) == 2 and odds[0] == odds[1]  # once per redraw, the same numbers


def test_error_messages_show_cards_like_the_prompt() -> None:
    from rollem.cli.screen import Style

    rich, plain = Style(True, ["You"]), Style(False, ["You"])
    msg = "'Qx' is not a card; choose from your cards Qh 7c Ts As"
    assert rich.message(msg) == "'Qx' is not a card; choose from your cards Q♥ 7♣ T♠ A♠"
    assert plain.message(msg) == msg


def test_all_at_once_decisions_say_choosing() -> None:
    import random

    from rollem.bots import make_bot
    from rollem.cli.screen import Style, render_table
    from rollem.table import Table

    table = Table([200] * 3, game="rollyourown", rng=random.Random(1), button=0)
    hand = table.new_hand()
    while not hand.pending.simultaneous:
        s = hand.pending.seats[0]
        hand.apply(s, make_bot("random", random.Random(s)).act(hand.view(s)))
    for s in [x for x in hand.pending.seats if x != 0]:
        hand.apply(s, make_bot("random", random.Random(s)).act(hand.view(s)))
    lines = [t.plain for t in render_table(hand.view(0), Style(False, ["You", "Ann", "Bob"]),
                                           title="t", game_name="g")]
    text = "\n".join(lines)
    assert "to act" not in text
    assert sum("<- choosing" in line for line in lines) == 1
    assert sum(line.rstrip().endswith("chosen") for line in lines) == 2


READ_SYSCALL = {"x86_64": "0", "aarch64": "63"}.get(platform.machine())
"""Linux's number of the read() system call on this machine (None: not known here)."""


def _until_reading(pid: int) -> None:
    """Wait until process ``pid`` sleeps in read() (Linux: ``/proc/PID/syscall``).

    The game prints its prompt, then reads; a Ctrl-C that comes between the two
    sets Python's signal flag but interrupts no read, so the game waits for a line
    and never raises KeyboardInterrupt (a test that sends Ctrl-C the moment the
    prompt shows hung on 2 runs in 60 with a loaded CPU). A person never presses
    that fast; the test waits until the game is reading. Without /proc: 0.5 s."""
    path = Path(f"/proc/{pid}/syscall")
    if READ_SYSCALL is None or not path.exists():
        time.sleep(0.5)
        return
    end = time.monotonic() + 30
    while path.read_text().split()[:1] != [READ_SYSCALL]:
        assert time.monotonic() < end, f"the game never waited for input: {path.read_text()}"
        time.sleep(0.01)


def test_ctrl_c_prints_the_ledger_and_exits_130(tmp_path: Path) -> None:
    child = pexpect.spawn(
        ROLLEM, ["play", "sdr", "--players", "2", "--seed", "7", "--history-dir", str(tmp_path)],
        encoding="utf-8", timeout=60, dimensions=(50, 160), env={"TERM": "xterm", "PATH": ""},
        # A shell without job control starts background jobs with SIGINT ignored, and
        # the ignore is inherited: give the game the terminal's default, as a person has.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.expect(PROMPT)
    _until_reading(child.pid)
    child.sendintr()
    child.expect("Session ledger after 0 hand")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_bot_defaults_are_stated_in_both_helps() -> None:
    from click.testing import CliRunner

    from rollem.cli.app import app

    play = CliRunner().invoke(app, ["play", "--help"], terminal_width=200).output
    sim = CliRunner().invoke(app, ["simulate", "--help"], terminal_width=200).output
    assert "default: basic" in " ".join(play.split())
    assert "default: random" in " ".join(sim.split())
    assert "the default of rollem simulate" in " ".join(play.split())
    assert "rollem play defaults to basic" in " ".join(sim.split())


def test_dealers_choice_of_one_game_asks_nothing(tmp_path: Path) -> None:
    """``--games sdr``: one game fits, so the button is not asked to name it."""
    out = subprocess.run(
        [ROLLEM, "play", "dealers-choice", "--games", "sdr", "--players", "2", "--bots",
         "random", "--seed", "5", "--history-dir", str(tmp_path)],
        input="q\n", capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "choose the game" not in out.stdout
    assert "You have the button; the game is Stop, Drop and Roll (sdr), the only one " \
        "that fits." in " ".join(out.stdout.split())  # (wrapped at 78 columns, s59-tidy)


def test_a_game_files_dead_cards_show_under_their_labels() -> None:
    """A game file's dead cards show under its steps' labels (Stop and Drop in
    SDR), not as "Turned 9h Th" (issue 33); a game whose discards go nowhere
    (out of play) shows no pool."""
    from rollem.cli.screen import Style, render_table
    from rollem.engine import Hand, SeededSource
    from rollem.games.gamefile import load_game

    text = (Path(__file__).parents[1] / "src" / "rollem" / "games" / "files" / "sdr.toml"
            ).read_text()
    text = (text.replace('id = "sdr"', 'id = "omens"').replace('name = "Stop, Drop and Roll"',
                                                                'name = "Omens"')
            .replace('label = "stop"', 'label = "first omen"')
            .replace('label = "drop"', 'label = "second omen"'))
    game = load_game(text)
    hand = Hand(game, [100, 100], button=0, source=SeededSource(7))
    while len(hand.dead) < 2:
        seat = hand.pending.seats[0]
        hand.apply(seat, Call() if "call" in hand.legal_actions(seat).actions else Check())
    first, second = (str(c) for c in hand.view(0).dead)
    plain = [t.plain for t in render_table(hand.view(0), Style(False, ["You", "Ann"]),
                                           title="t", game_name="Omens")]
    assert f"First omen {first}" in plain[1] and f"Second omen {second}" in plain[1], plain
    assert "Turned" not in "\n".join(plain)
    sdr = Hand("sdr", [100, 100], button=0, source=SeededSource(7))
    while len(sdr.dead) < 2:
        seat = sdr.pending.seats[0]
        sdr.apply(seat, Call() if "call" in sdr.legal_actions(seat).actions else Check())
    plain = [t.plain for t in render_table(sdr.view(0), Style(False, ["You", "Ann"]),
                                           title="t", game_name="SDR")]
    stop, drop = (str(c) for c in sdr.view(0).dead)
    assert f"Stop {stop}" in plain[1] and f"Drop {drop}" in plain[1], plain


def test_closing_lines_say_one_hand_in_the_singular(tmp_path: Path) -> None:
    """After one hand the closing lines said "1 hand(s)" and "1 hand histories
    saved"; now the count and its noun agree (and "0 hands", "2 hands")."""
    out = subprocess.run(
        [ROLLEM, "play", "holdem", "--seed", "41", "--history-dir", str(tmp_path)],
        input="f\nq\n", capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Session ledger after 1 hand:" in text
    assert "Your play: 1 hand; put chips in voluntarily" in text
    assert f"1 hand history saved in {tmp_path}" in text
    assert "(s)" not in text[text.index("Session ledger"):]
