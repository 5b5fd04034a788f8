"""``rollem play`` (issue 14): each fault of the terminal game has a test here.

A pseudo-terminal session (pexpect) checks the flags, NO_COLOR, the header
naming the decision, picking cards by position, prompts within 80 columns,
the wild pick prompt and ``last``; scripted sessions check the rebuy offer
and the ledger, 5-2-1 draw counts and order, the fold that gives up a free
check, showing cards by choice after the hand (R-C-11); table drawings check
folded players' face-up cards and side pots by name."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
import tomli_w

from cli_helpers import scripted
from rollem.cli.answers import AnswerError, parse_answer
from rollem.cli.screen import Style, render_table
from rollem.engine import Discard, Legal, PickWild
from rollem.engine import Stack as StackAction
from rollem.history import replay
from rollem.narration import Narrator

ROLLEM = str(Path(sys.executable).with_name("rollem"))
HISTORIES = Path(__file__).resolve().parent / "histories"
PROMPT = re.compile(r"(Your move > |Enter = next hand[^\n]*?> )$")
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-79]|9[0-7]|4[0-79]|10[0-7]|38;|48;)[0-9;]*m")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _answer(before: str) -> str:
    body = " ".join(before.rsplit("Choices (", 1)[-1].split())
    if "in the pool, from" in body:
        return "1 2 3"
    if "turn up 1 card" in body:  # the second card still down ("2" when only those were numbered)
        return re.findall(r"(\d+):", body.split("turn up 1 card, from ", 1)[1])[1]
    if "pick the wild card" in body:
        return "1"
    return "c"


def test_terminal_session_issue_14(tmp_path: Path) -> None:
    child = pexpect.spawn(
        ROLLEM, ["play", "rollyourown", "--players", "3", "--bots", "random", "--seed", "3",
                 "--ante", "2", "--structure", "pot-limit", "--history-dir", str(tmp_path)],
        encoding="utf-8", timeout=90, dimensions=(60, 80),
        env={"TERM": "xterm", "PATH": "", "NO_COLOR": "1"},
    )
    transcript = []
    child.expect(PROMPT)
    first = ANSI.sub("", child.before)
    transcript.append(child.before + child.after)
    # the flags reach the table; the header names the decision; no bets column yet
    assert "Each player antes 2 (pot 6)." in first
    assert "Hand 1 -- Five Card Roll Your Own -- everyone puts 3 cards in the pool" in first
    table = first.split("everyone puts 3 cards in the pool", 1)[1].split("Choices", 1)[0]
    assert " bet " not in table
    cards = re.findall(r"\d:([2-9TJQKA][♣♦♥♠])", first.rsplit("Choices (", 1)[1])
    assert len(cards) == 6
    child.sendline("1 2 3")  # by position
    child.expect(PROMPT)
    transcript.append(child.before + child.after)
    assert f"You put {' '.join(cards[:3])} in the pool." in ANSI.sub("", child.before)
    for _ in range(60):
        if child.after.startswith("Enter = next hand"):
            break
        child.sendline(_answer(ANSI.sub("", child.before)))
        child.expect(PROMPT)
        transcript.append(child.before + child.after)
    else:
        pytest.fail("the hand did not end")
    child.sendline("last")  # the last hand again, through the narration
    child.expect("=== Hand 1 again: Five Card Roll Your Own ===")
    child.expect("=== end of hand 1 ===")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Session ledger after 1 hand")
    child.expect(pexpect.EOF)
    child.close()
    text = "".join(transcript)
    assert not COLOUR.search(text)  # NO_COLOR
    plain = ANSI.sub("", text).replace("\r", "")
    for line in plain.splitlines():
        if line.startswith(("Choices", "  (", "Your move", "Enter = next hand")) \
                or line.endswith("> "):
            assert len(line) <= 80, line
    assert "First card up (pot 6)." in plain and "draws first from the pool" in plain
    assert "Drew from the pool, in order:" in plain


def test_rebuy_offer_when_broke_counts_in_the_ledger(tmp_path: Path) -> None:
    game, out = scripted(iter(["y", "c", "c", "c", "c", "c", "c", "c", "c", "q"] + ["q"] * 20),
                         history_dir=tmp_path)
    game.table.stacks[:2] = [0, 100]  # as if the last hand took every chip
    assert game.run() == 0
    text = "".join(out)
    assert "You are out of chips. Rebuy 50 chips? (y = yes, n = no, stop here) > y" in text
    assert "You rebuy 50 chips (rebuys so far: 1)." in text
    assert "(stack" in text and "brought 100)" in text
    assert "You rebought 1 time: 50 chips, counted in what you brought" in text
    assert game.table.brought[0] == 100
    assert game.table.chips == sum(game.table.brought)
    # no: the session ends with the ledger
    game, out = scripted(iter(["n"]), history_dir=tmp_path)
    game.table.stacks[:2] = [0, 100]
    assert game.run() == 0
    assert "Session ledger after 0 hands" in "".join(out)


def test_help_and_the_table_at_the_rebuy_offer(tmp_path: Path) -> None:
    """The guide says ``?`` and ``t`` work at every prompt; at the rebuy offer they
    were refused ("'?': answer y (rebuy) or n (stop here)")."""
    game, out = scripted(iter([]), history_dir=tmp_path)
    game.table.stacks[:2] = [2, 100]  # (two chips: a hand or two and the offer comes)
    answers = iter(["?", "t", "n"])
    asked: list[str] = []

    def ask(prompt: str) -> str:  # Enter after a hand, c at a bet, the answers at the offer
        out.append(prompt)
        if prompt.startswith("You are out of chips"):
            asked.append(prompt)
            return next(answers)
        return "" if prompt.startswith("Enter = next hand") else "c"

    game.ask = ask  # type: ignore[method-assign]
    assert game.run() == 0
    text = ANSI.sub("", "".join(out))
    assert len(asked) == 3, asked
    assert ("You have no chips left. y buys 50 chips again, counted in what you brought; "
            "n says no (stop here);") in text.replace("\n", " ")
    number = game.last[0] if game.last is not None else None
    assert number is not None and text.count(f"Hand {number}") >= 2  # the table, shown again
    assert "answer y (rebuy)" not in text


def test_521_draw_counts_and_order_are_shown(tmp_path: Path) -> None:
    def answers() -> Iterator[str]:
        while True:
            text = "".join(out)
            tail = text.rsplit("Choices (", 1)[-1]
            if text.endswith("q = quit > "):
                yield "q"
            elif "throw away" in tail:
                yield "1 2" if "0 to 2" in tail else "1"
            elif "order all" in tail:
                yield "k"
            elif "h = high" in tail:
                yield "h"
            else:
                yield "c"

    out: list[str] = []
    game, out = scripted(answers(), game="rollem521", players=3, stack=200, seed=11,
                         history_dir=tmp_path)
    game.run()
    text = "".join(out)
    assert "You throw away" in text and "and draw 2." in text
    assert re.search(r"Last draw, in order: \w+ [12p]", text)
    # a table drawn while a draw goes on calls it "this draw so far" (issue 33)
    screens = re.split(r"\n(?=Hand \d+ -- )", text)
    during = [s for s in screens if re.match(r"Hand \d+ -- [^\n]* -- \w+ draw\n", s)]
    assert during and not any("Last draw" in s for s in during)
    assert any(re.search(r"This draw so far, in order: \w+ [12p]", s) for s in during)
    # your own draws, each told, in the web table's words (it said "drew 2, 1")
    assert re.search(r"You .*drew 2, then 1", text)
    assert re.search(r"(Ann|Bob) .*(drew [12], then [01]|stood pat, then drew [01]"
                     r"|drew [12], then stood pat|stood pat twice)", text)
    assert "pat, pat" not in text and "drew pat" not in text


def test_a_seat_that_stood_pat_is_told_in_words(tmp_path: Path) -> None:
    """Standing pat at both draws of 5-2-1: your line said "drew pat" and
    then "drew pat, pat"; now "stood pat", then "stood pat twice", as the web
    table's seat tag (rollem.narration.felt.drew_words)."""
    def answers() -> Iterator[str]:
        while True:
            text = "".join(out)
            tail = text.rsplit("Choices (", 1)[-1]
            if text.endswith("q = quit > "):
                yield "q"
            elif "throw away" in tail:
                yield "p"
            elif "order all" in tail:
                yield "k"
            elif "h = high" in tail:
                yield "h"
            else:
                yield "c"

    out: list[str] = []
    game, out = scripted(answers(), game="rollem521", players=3, stack=200, seed=11,
                         history_dir=tmp_path)
    game.run()
    mine = [line for line in "".join(out).splitlines() if line.lstrip("D ").startswith("You ")
            and " stack " in line]
    told = [m.group(1) for line in mine
            if (m := re.search(r"(stood pat(?: twice)?|drew [^<]*?)\s*(?:<-|$)", line))]
    assert told[0] == "stood pat" and told[-1] == "stood pat twice", mine
    assert not [line for line in mine if "drew" in line], mine


def test_folded_players_face_up_cards_stay_dimmed() -> None:
    # Roll Your Own, the seed example: A (seat 0) folds with 7s 7h turned up
    data = tomllib_load(HISTORIES / "rollyourown_seed_example.toml")
    lines = data["actions"]
    cut = lines.index("p2 cbr 2", lines.index("p2 exp Ad"))
    data["actions"] = [*lines[:cut + 1], "p1 f"]
    hand = replay(tomli_w.dumps(data))
    view = hand.view(1)
    assert view.seats[0].folded and view.seats[0].cards == []  # the view holds nothing more
    nar = Narrator(["Ann", "Bob"], 1, options=view.options)
    for e in view.events:
        nar.feed(e)
    assert nar.face_up[0] == ["7s", "7h"]
    rows = render_table(view, Style(True, ["Ann", "Bob"]), title="Hand 1", game_name="RYO",
                        narrator=nar)
    ann = next(r for r in rows if r.plain[2:].startswith("Ann"))
    assert "7♠ 7♥" in ann.plain and "folded" in ann.plain
    assert any(span.style == "dim" or "dim" in str(span.style) for span in ann.spans)


def test_side_pots_name_their_players_and_the_header_the_decision() -> None:
    data = tomllib_load(HISTORIES / "rollem521_side_pot.toml")
    lines = data["actions"]
    data["actions"] = lines[:lines.index("# roll p1 4d")]  # round 3: C bet, B called
    data.pop("_result", None)
    hand = replay(tomli_w.dumps(data))
    view = hand.view(1)
    rows = [r.plain for r in render_table(view, Style(False, ["Ann", "Bob", "Cat"]),
                                          title="Hand 1", game_name="5-2-1")]
    assert rows[0] == "Hand 1 -- 5-2-1 -- second card up: betting"  # round 4
    assert "Pot 17: main pot 9, side pot 1: 8 (You and Cat)" in rows[1]


def test_cards_by_position_and_the_wild_pick_prompt() -> None:
    from rollem.cards import parse_cards
    from rollem.cli.answers import choices_text

    six = tuple(parse_cards("Qh 7c 2d As Ks 9h"))
    discard = Legal(kind="discard", actions=("discard",), cards=six, min_count=3, max_count=3)
    assert parse_answer("3 2 6", discard) == Discard(tuple(parse_cards("2d 7c 9h")))
    assert "1:Qh 2:7c 3:2d 4:As 5:Ks 6:9h" in choices_text(discard)
    with pytest.raises(AnswerError, match="positions go from 1 to 6"):
        parse_answer("1 2 7", discard)
    with pytest.raises(AnswerError, match="given twice"):
        parse_answer("1 1 2", discard)
    stack = Legal(kind="stack", actions=("stack",), cards=six[:5], min_count=5, max_count=5)
    assert parse_answer("5 4 3 2", stack) == StackAction(tuple(parse_cards("Ks As 2d 7c Qh")))
    wild = Legal(kind="wild", actions=("wild",), positions=4)
    assert "pick the wild card" in choices_text(wild)
    assert parse_answer("4", wild) == PickWild(3)


def tomllib_load(path: Path) -> dict[str, object]:
    import tomllib

    return tomllib.loads(path.read_text(encoding="utf-8"))


def _engine_has_show() -> bool:
    from rollem.engine import actions

    return hasattr(actions, "Show")


@pytest.mark.skipif(not _engine_has_show(), reason="needs the engine's Show (issue 12)")
def test_fold_when_check_is_free_asks_and_show_by_choice(tmp_path: Path) -> None:
    def answers() -> Iterator[str]:
        while True:
            text = "".join(out)
            if text.endswith("Fold anyway? (y = fold, n = back) > "):
                yield "n" if text.count("Fold anyway?") == 1 else "y"
            elif text.endswith("q = quit > "):
                yield "s" if "s = show your cards" in text.rsplit("\n", 1)[-1] and \
                    "after the hand" not in text else "q"
            elif "c = check" in text.rsplit("Choices (", 1)[-1]:
                yield "f"  # a fold that gives up a free check
            else:
                yield "c"

    out: list[str] = []
    game, out = scripted(answers(), game="sdr", players=2, stack=200, seed=2,
                         history_dir=tmp_path)
    game.run()
    text = "".join(out)
    assert "You can check for free. Fold anyway?" in text
    assert text.count("Fold anyway?") == 2  # n went back to the choice, y folded
    assert "You fold, giving up a free check." in text
    assert re.search(r"You show [2-9TJQKA][cdhs] [2-9TJQKA][cdhs] after the hand: "
                     r"[a-z]+ high, [a-z]+\.", text)
    saved = list(tmp_path.rglob("*.toml"))
    assert len(saved) == 1 and " sm " in saved[0].read_text()



def test_a_huge_bad_answer_is_not_echoed_whole(tmp_path: Path) -> None:
    huge = "x" * 2_000_000  # a 2 MB line
    game, out = scripted(iter([huge, "q"]), history_dir=tmp_path)
    game.run()
    lines = "".join(out).splitlines()
    errors = [line for line in lines if "not an answer here" in line or "characters cut" in line]
    assert errors and all(len(line) <= 80 for line in lines)
    assert len("".join(out)) < 20_000  # nor is the echo of the scripted answer


def test_after_a_hand_only_the_listed_answers_are_taken(tmp_path: Path) -> None:
    """At "Enter = next hand, ..." a late bet (``b 2.5``) or ``y`` is refused, naming
    what is accepted, and asked again: only Enter deals the next hand."""
    after = iter(["b 2.5", "y", "", "q"])

    def answers() -> Iterator[str]:
        while True:
            yield next(after) if "".join(out).endswith("q = quit > ") else "c"

    out: list[str] = []
    game, out = scripted(answers(), history_dir=tmp_path)
    game.run()
    text = "".join(out)
    for bad in ("b 2.5", "y"):
        assert f"'{bad}' is not an answer here: Enter = next hand" in text, bad
    assert "=== Hand 2" in text and "=== Hand 3" not in text
    before_hand_2 = text.split("=== Hand 2")[0]
    assert before_hand_2.count("Enter = next hand") == 3 + 2  # 3 prompts, 2 refusals


def test_after_a_show_of_one_card_the_numbers_still_name_the_same_cards(tmp_path: Path) -> None:
    """Stop 51: after ``s 1`` the numbers moved down (the cards not shown yet were
    numbered again), so a second ``s 1`` showed the second card, and ``s 2``, the
    card the table draws second, was "positions go from 1 to 1".  Now a number is
    the card's place in your hand as the table draws it, shown or not."""
    after = iter(["s 1", "s 1", "s 3", "s 2", "q"])

    def answers() -> Iterator[str]:
        while True:
            text = "".join(out)
            if text.endswith("Fold anyway? (y = fold, n = back) > "):
                yield "y"
            elif text.endswith("q = quit > "):
                yield next(after)
            else:
                yield "f" if "f = fold" in text.rsplit("Choices (", 1)[-1] else "c"

    out: list[str] = []
    game, out = scripted(answers(), game="sdr", players=2, stack=200, seed=2,
                         history_dir=tmp_path)
    game.run()
    text = "".join(out)
    assert "You are dealt As 9c." in text and "D You  stack   199  bet   0  As 9c" in text
    tail = text.split("This hand: you lost 1.\n", 1)[1]
    prompt = "Enter = next hand, s = show your cards, last = this hand again, q = quit > "
    assert tail.startswith(
        f"{prompt}s 1\nYou show As after the hand.\n"
        f"{prompt}s 1\n1:As is already shown; still to show: 2:9c\n"
        f"{prompt}s 3\n3: positions go from 1 to 2 (1:As 2:9c); still to show: 2:9c\n"
        # the last card shown: the whole hand is public, and named (stop 53)
        f"{prompt}s 2\nYou show 9c after the hand: ace high, nine.\n"
        "Enter = next hand, last = this hand again, q = quit > q\n"), tail[:600]
    saved = next(tmp_path.rglob("*.toml")).read_text()
    assert '"p1 sm As"' in saved and '"p1 sm 9c"' in saved  # (each card shown once)


def test_a_wild_card_show_line_is_wrapped_to_80_columns_in_plain_text(tmp_path: Path) -> None:
    """s58-tidy (seen at stop 57): piped play's narrated lines with a wild card's
    note ran past 80 columns ("You muck ace high, king-nine-four-three: it loses to
    Cat's four fives, jack kicker (wild 2d plays as 5h)." 104 columns); wrapped
    between words as the prompts are, the later part indented."""

    def answers() -> Iterator[str]:
        while True:
            text = "".join(out)
            if text.endswith("q = quit > "):
                yield "q"
            elif "stand pat" in text.rsplit("Choices (", 1)[-1]:
                yield "p"
            else:
                yield "c"

    out: list[str] = []
    game, out = scripted(answers(), game="deuces-wild", players=4, level="basic", stack=200,
                         seed=3, history_dir=tmp_path)
    game.run()
    text = "".join(out)
    assert "You muck ace high, king-nine-four-three: it loses to Cat's four fives, jack\n" \
           "  kicker (wild 2d plays as 5h).\n" in text
    hand = text.split("This hand:", 1)[0]  # (the ledger after q is not narration)
    assert "(wild 2d plays as 5h)" in hand
    assert all(len(line) <= 80 for line in hand.splitlines()), \
        [line for line in hand.splitlines() if len(line) > 80]
