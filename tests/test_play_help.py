"""``?`` in ``rollem play`` explains the decision in front of you, in this game
(the play help and docs/playing-in-the-terminal.md): in every standard game
and every game-file game, at betting and at card decisions, from the game's
own data; and at the dealer's-choice prompt, the games offered."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from cli_helpers import ListWriter, first_card_to_turn_up, scripted
from rollem import games
from rollem.cli.play_cmd import TerminalGame
from rollem.engine.decisions import Legal
from rollem.games.gamefile import load_game
from rollem.rules import decision_help
from rollem.rules.game_help import choose_game_help, explain_decision


@pytest.fixture(autouse=True)
def _registry_as_it_was() -> Iterator[None]:
    """A test registers a user's game: forget it afterwards."""
    games.all_games()
    before = dict(games._GAMES)
    yield
    games._GAMES.clear()
    games._GAMES.update(before)


def _play(game: object, players: int, seed: int, tmp_path: Path, **kwargs: object) -> str:
    """One hand with random bots: ``?`` once at each of your decisions, then a
    legal answer; ``q`` after the hand. The whole output."""
    out: list[str] = []
    asked = [0]

    def read_line(prompt: str) -> str:
        out.append(prompt)
        text = "".join(out)
        if prompt.startswith("Game ("):  # the dealer's choice: '?' once, then q
            return "q" if text.count(prompt) > 1 else "?"
        if prompt != "Your move > ":
            return "q"
        decisions = text.count("Choices (")
        if asked[0] < decisions:
            asked[0] = decisions
            return "?"
        tail = text.rsplit("Choices (", 1)[-1]
        if "throw away" in tail:
            return "p" if "p = stand pat" in tail else "1"
        if "in the pool, from" in tail:
            return "1 2 3"
        if "turn up 1 card" in tail:
            return first_card_to_turn_up(tail)
        if "pick the wild card" in tail:
            return "1"
        if "order all" in tail:
            return "k"
        if "h = high" in tail:
            return "h"
        return "c"

    session = TerminalGame(game=game, players=players, level="random", stack=200,  # type: ignore[arg-type]
                           seed=seed, show_odds=False, history_dir=tmp_path, rich=False,
                           read_line=read_line, out=ListWriter(out), **kwargs)  # type: ignore[arg-type]
    session.run()
    return "".join(out)


def _helps(text: str) -> list[str]:
    """What each ``?`` printed: the lines after ``Your move > ?`` up to the next prompt."""
    return [part.split("Your move > ", 1)[0] for part in text.split("Your move > ?\n")[1:]]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_question_mark_at_a_standard_games_bet_and_draw(tmp_path: Path) -> None:
    text = _play("draw5", 2, 5, tmp_path)
    helps = _helps(text)
    assert helps, text
    assert not any("unknown game" in h for h in helps)
    bets = [h for h in helps if h.startswith("Your turn to bet.")]
    draws = [h for h in helps
             if h.startswith("Choose 0 to 3 cards to throw away (or none: stand pat)")]
    assert bets and draws, helps
    # the decision's legal actions, the structure, the game's steps and rules text
    bet = _flat(bets[0])
    assert "This table plays fixed limit" in bet
    assert re.search(r"You may now: (fold, )?(check|call \d+)", bet), bet
    assert "Five-Card Draw has 2 betting rounds." in bet
    one = _flat(draws[0])
    assert ("In Five-Card Draw: A draw (draw): in turn, each player discards 0 to 3 and is "
            "dealt replacements.") in one
    assert "The rules of Five-Card Draw: Everyone antes and gets five cards face down." in one
    assert all(len(line) <= 80 for h in helps for line in h.splitlines())


def test_question_mark_works_at_every_decision_of_every_standard_game(tmp_path: Path) -> None:
    for gid in games.STANDARD:
        text = _play(gid, 3, 2, tmp_path / gid)
        helps = _helps(text)
        assert helps and len(helps) == text.count("Choices ("), gid
        name = games.get(gid).name
        for h in helps:
            assert "unknown game" not in h and f"The rules of {name}: " in _flat(h), (gid, h)


def _my_draw() -> games.Game:
    """A user's game file: five-card draw with its own id and rules text."""
    text = resources.files("rollem.games").joinpath("files", "draw5.toml").read_text("utf-8")
    start = text.index('rules = """')
    end = text.index('"""', start + 11) + 3
    text = (text[:start] + 'rules = "Kitchen draw: deal five, draw up to three, best hand wins."'
            + text[end:]).replace('id = "draw5"', 'id = "kitchen-draw"') \
        .replace('name = "Five-Card Draw"', 'name = "Kitchen Draw"')
    return games.register(load_game(text))


def test_question_mark_in_a_game_file_game(tmp_path: Path) -> None:
    mine = _my_draw()
    helps = _helps(_play(mine, 2, 5, tmp_path))
    bets = [h for h in helps if h.startswith("Your turn to bet.")]
    draws = [h for h in helps if h.startswith("Choose 0 to 3 cards to throw away")]
    assert bets and draws, helps
    bet = _flat(bets[0])
    assert "The rules of Kitchen Draw: Deal five, draw up to three, best hand wins." in bet
    assert "Kitchen Draw has 2 betting rounds." in bet
    assert "In Kitchen Draw: A draw (draw): in turn" in _flat(draws[0])


def test_our_three_games_keep_their_hand_written_help() -> None:
    for gid, kind in (("sdr", "bet"), ("rollyourown", "pick_wild"), ("rollem521", "declare")):
        assert explain_decision(games.get(gid), kind) == decision_help(gid, kind)
    # a decision a game has by its data only is still explained
    legal = Legal(kind="draw", actions=("draw",), cards=(0, 1), min_count=1, max_count=2)
    assert explain_decision(games.get("holdem"), "draw", legal).startswith(
        "Choose 1 to 2 cards to throw away; you are dealt as many new ones.")


def test_the_choose_game_help_describes_the_games_offered(tmp_path: Path) -> None:
    text = _play("dealers-choice", 3, 1, tmp_path, games=["holdem", "stud"])
    # you have the first button: '?' at the game prompt, then q
    help_text = " ".join(text.split("Game (1-2) > ?\n", 1)[1].split("Game (1-2) > ")[0].split())
    assert help_text == (
        "You are on the button: name the game for this hand. Texas Hold'em (holdem, 2 to 10 "
        "players): The two players to the dealer's left post the small and the big blind "
        "(heads-up, the dealer posts the small blind). Seven-Card Stud (stud, 2 to 7 "
        "players): Everyone antes and gets two cards down and one up. The game holds for "
        "this hand only.")
    # the offered games that do not fit are named as such; our three keep their words
    fits = [games.get("sdr"), games.get("holdem")]
    said = choose_game_help(fits, [*fits, games.get("stud")], 9)
    assert "Stop, Drop and Roll (sdr): two hole cards, two dead cards" in said
    assert "Also offered, but not for 9 players: Seven-Card Stud (stud, 2 to 7)." in said
    assert "rollyourown" not in said and "rollem521" not in said


def test_t_at_the_game_prompt_lists_the_games_again(tmp_path: Path) -> None:
    """``t`` at the dealer's-choice prompt (no table dealt yet) said nothing; it
    lists the games again, as the prompt's line says."""
    game, out = scripted(iter(["t", "q"]), game="dealers-choice", players=3, seed=1,
                         history_dir=tmp_path)
    game.run()
    text = "".join(out)
    listing = ("  1 = sdr (Stop, Drop and Roll)\n  2 = rollyourown (Five Card Roll Your Own)\n"
               "  3 = rollem521 (5-2-1 Roll 'Em)\n  (a number or a name; ? help, t the games "
               "again, last = the last hand, q\n   quit)\n")  # (81 columns: s73-newcomer)
    assert text.count(listing) == 2, text
    assert text.index("Game (1-3) > ") < text.rindex(listing)


def test_a_pool_nobody_draws_from_is_not_said_to_come_back() -> None:
    """A discard into a pool: the cards come back to players only in a game that
    draws from the pool (Roll Your Own's steps); Crazy Pineapple's are out of play."""
    doc = Path(__file__).parents[1] / "docs" / "write-your-own-game.md"
    pineapple = load_game(re.findall(r"```toml\n(.*?)```", doc.read_text(), flags=re.S)[0])
    ryo = resources.files("rollem.games").joinpath("files", "rollyourown.toml").read_text()
    mine = load_game(ryo.replace('id = "rollyourown"', 'id = "kitchen-roll"'))
    legal = Legal(kind="discard", actions=("discard",), cards=(0, 1, 2), min_count=1,
                  max_count=1)
    out = explain_decision(pineapple, "discard_to_pool", legal)
    assert out.startswith("Choose 1 card to discard face down. No player "
                          "gets them back: they are out of every hand.\n\n")
    back = explain_decision(mine, "discard_to_pool", legal)
    assert back.startswith("Choose 1 card to put face down into the shared pool. Nobody sees "
                           "them and the pool is shuffled; the cards you give up may come "
                           "back to you or go to an opponent.\n\n")


def test_help_and_the_table_at_the_prompt_after_a_hand(tmp_path: Path) -> None:
    """Issue 33: ``?`` and ``t`` were refused after a hand though the guide says
    they work everywhere."""
    from cli_helpers import scripted
    from rollem.cli.play_cmd import AFTER_HAND_HELP

    seen: list[list[str]] = []
    after_hand = iter(["?", "t", "q"])

    def answers() -> Iterator[str]:
        while True:  # fold in the hand; then ?, t and q at the prompt after it
            yield next(after_hand) if "Enter = next hand" in seen[0][-1] else "f"

    game, out = scripted(answers(), history_dir=tmp_path)
    seen.append(out)
    assert game.run() == 0
    text = "".join(out)
    after = text[text.index("Enter = next hand"):]
    assert AFTER_HAND_HELP in " ".join(after.split())  # (wrapped at 80: s69-newcomer)
    assert "is not an answer here" not in after
    assert after.count("=== Hand 1") == 0 and "Hand 1" in after  # the table drawn again


def test_help_and_quit_where_a_free_fold_is_confirmed(tmp_path: Path) -> None:
    """Try-out of issue 33 (branch s50-tryout): at "Fold anyway?" ``?`` and ``q``
    went back to the move without a word, though the guide says ``?`` explains and
    ``q`` quits at every prompt."""
    from cli_helpers import scripted
    from rollem.cli.play_cmd import FOLD_ANYWAY_HELP

    game, out = scripted(iter(["f", "?", "q"]), seed=2, stack=200, history_dir=tmp_path)
    assert game.run() == 0
    text = "".join(out)
    confirm = "You can check for free. Fold anyway? (y = fold, n = back) > "
    assert text.count(confirm) == 2
    helped = text[text.index(f"{confirm}?\n") + len(confirm) + 2:]  # (wrapped at 80)
    assert helped.startswith(FOLD_ANYWAY_HELP[:60])
    assert " ".join(helped[:helped.index(confirm)].split()) == FOLD_ANYWAY_HELP
    assert helped[helped.index(confirm):].startswith(
        f"{confirm}q\nThe hand in progress is abandoned")
    assert "You fold" not in text and "Session ledger after 0 hands" in text
