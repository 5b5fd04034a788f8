"""PHH <-> rollem histories (issue 29, rollem.phh.convert, ``rollem convert``):
every shipped game's seeded hands go to PHH and back unchanged (or, with no
PHH variant, stay rollem histories); the phh-std example and the dataset's
HandHQ hands go to rollem histories and back to their source; what has no
rollem form is refused in one line naming the file, the hand and why."""

from __future__ import annotations

import random
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from bot_helpers import level_bot
from cli_helpers import run_cli
from rollem import games
from rollem.engine import Hand, Options, SeededSource
from rollem.history import history_dict, replay, write_history, write_own_copy
from rollem.phh import PHHError, read_phh, read_phhs, replay_phh
from rollem.phh.convert import history_to_phh, phh_to_history

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
HERE = Path(__file__).parent / "phh"

STANDARD = {  # shipped game -> options (a structure with a PHH variant code)
    "holdem": Options(structure="no-limit", ante=0, small_bet=2, big_bet=2),
    "omaha": Options(structure="pot-limit", ante=0, small_bet=2, big_bet=2),
    "omaha8": Options(ante=0, small_bet=2, big_bet=4),
    "stud": Options(ante=1, small_bet=2, big_bet=4),
    "stud8": Options(ante=1, small_bet=2, big_bet=4),
    "razz": Options(ante=1, small_bet=2, big_bet=4),
}


def _hand(game: str, seed: int, options: Options | None = None) -> Hand:
    """A seeded hand of ``game`` played by ``basic`` bots: 2 to 6 players,
    stacks of 8, 30 or 120 chips (all-ins and side pots are common)."""
    rng = random.Random(seed)
    n = rng.randint(2, min(6, games.get(game).max_players))
    stacks = [rng.choice([8, 30, 120]) for _ in range(n)]
    hand = Hand(game, stacks, button=rng.randrange(n), options=options,
                source=SeededSource(seed))
    bots = [level_bot("basic", seed * 10 + s) for s in range(n)]
    while not hand.is_over:
        assert hand.pending is not None
        s = hand.pending.seats[0]
        hand.apply(s, bots[s].act(hand.view(s)))
    return hand


def _toml(table: dict[str, Any]) -> dict[str, Any]:
    """As a file holds it: written and read back (decimals stay exact)."""
    return read_phh(tomli_w.dumps(table))


@pytest.mark.parametrize("game", sorted(STANDARD))
def test_shipped_games_go_to_phh_and_back_unchanged(game: str) -> None:
    for seed in range(3):
        hand = _hand(game, seed, STANDARD[game])
        names = [f"P{s}" for s in range(hand.n)]
        ours = tomllib.loads(write_history(hand, players=names))
        phh = history_to_phh(ours)
        back = phh_to_history(_toml(phh))
        again = history_to_phh(tomllib.loads(tomli_w.dumps(back)))
        # the PHH form is a fixed point (its _seats and _burns kept as the file's fields)
        assert again == phh
        # and the converted history replays to each player's stacks
        replayed = replay(back)
        by_name = dict(zip(back["players"], replayed.stacks, strict=True))
        assert by_name == {names[s]: hand.stacks[s] for s in range(hand.n) if hand.dealt[s]}


@pytest.mark.parametrize("game", sorted(set(games.shipped_ids()) - set(STANDARD)))
def test_games_without_a_phh_code_stay_rollem_histories(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = _hand(game, 1)
    text = write_history(hand)
    with pytest.raises(PHHError, match="has no PHH variant code"):
        history_to_phh(tomllib.loads(text))
    f = tmp_path / "hand.toml"
    f.write_text(text)
    code, out, err = run_cli(["convert", "--to", "rollem", str(f)], capsys)
    assert code == 0, err
    assert tomllib.loads(out) == history_dict(hand)  # written again, the same


def test_the_spec_example_goes_to_rollem_and_back_to_its_source(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = read_phh((HERE / "dwan-ivey-2009.phh").read_text())
    ours = phh_to_history(source)
    assert ours["variant"] == "rollem-holdem"
    assert not any(line.startswith("d dh p2 ") for line in ours["actions"])  # Antonius: ????
    hand = replay(ours)
    assert list(hand.stacks) == [572100, 1997500, 1109500]
    back = history_to_phh(tomllib.loads(tomli_w.dumps(ours)))
    assert list(back) == list(source)
    assert back == {**source, "actions": [line.split("#")[0].strip()
                                          for line in source["actions"]]}
    # the same through the command line, file to file
    mine, phh = tmp_path / "dwan.toml", tmp_path / "dwan.phh"
    assert run_cli(["convert", "--to", "rollem", str(HERE / "dwan-ivey-2009.phh"), "-o",
                    str(mine)], capsys)[0] == 0
    assert run_cli(["convert", "--to", "phh", str(mine), "-o", str(phh)], capsys)[0] == 0
    assert read_phh(phh.read_text()) == back


def test_the_triple_draw_example_goes_to_rollem_and_back_to_its_source() -> None:
    source = read_phh((HERE / "arieh-yockey-2019.phh").read_text())
    ours = phh_to_history(source)
    assert ours["variant"] == "rollem-deuce7-triple" and "_game_file" in ours
    assert "p4 sd AsQs" in ours["actions"]
    assert list(replay(tomllib.loads(tomli_w.dumps(ours))).stacks) == [0, 4190000, 5910000,
                                                                        12095000]
    back = history_to_phh(tomllib.loads(tomli_w.dumps(ours)))
    assert back == {**source, "actions": [line.split("#")[0].strip()
                                          for line in source["actions"]]}


def _amounts_equal(a: object, b: object) -> bool:
    """Equal as amounts: ``3.00`` is 3 (a cbr's text is rollem's)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_amounts_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, str) and isinstance(b, str) and a.split()[1:2] == ["cbr"]:
        return a.split()[0] == b.split()[0] and Decimal(a.split()[2]) == Decimal(b.split()[2])
    return a == b


def test_handhq_hands_in_cents_go_to_rollem_and_back(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hands = dict(read_phhs((HERE / "handhq-abs-2009.phhs").read_text()))
    for name in ("1", "6", "9"):  # nobody's hidden cards reach a showdown
        source = hands[name]
        ours = phh_to_history(source)
        assert ours["_phh"]["scale"] == 100 if name != "1" else 10
        back = history_to_phh(read_phh(tomli_w.dumps(ours)))
        assert list(back) == list(source)
        assert all(_amounts_equal(back[k], source[k]) for k in source), name
        assert back["starting_stacks"] == source["starting_stacks"]  # 200.30 as written
    with pytest.raises(PHHError, match=r"^p2's hand is hidden or mucked at the showdown"):
        phh_to_history(hands["2"])
    # the command line: stops at the first refusal, naming the hand; --skip goes on
    f = HERE / "handhq-abs-2009.phhs"
    code, out, err = run_cli(["convert", "--to", "rollem", str(f)], capsys)
    assert code == 2 and f"{f}[2]: p2's hand is hidden or mucked" in err
    assert err.count("\n") == 1
    out_file = tmp_path / "ours.phhs"
    code, out, err = run_cli(["convert", "--to", "rollem", "--skip", str(f), "-o",
                              str(out_file)], capsys)
    assert code == 0 and f"{f}[2]: left out:" in err
    assert [k for k, _ in read_phhs(out_file.read_text())] == ["1", "2", "3"]
    code, out, err = run_cli(["replay", str(out_file), "--json"], capsys)
    assert code == 0 and "error" not in out


@pytest.mark.parametrize(("args", "message"), [
    (["--to", "phh", str(HERE / "dwan-ivey-2009.phh")], "already standard PHH (variant NT)"),
    (["--to", "rollem", str(HERE / "wsop-2019-42-kempe.phh")],
     "wsop-2019-42-kempe.phh: finishing_stacks [18100000,"),
    (["--to", "rollem", "nonexistent.phh"], "nonexistent.phh: cannot read"),
])
def test_convert_refusals_are_one_line(args: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["convert", *args], capsys)
    assert code == 2 and message in err and err.count("\n") == 1


def test_the_badugi_example_goes_to_rollem_and_back_to_its_source() -> None:
    # every card hidden where it is dealt: the shown ones are told by the
    # showdown, the discarded ones are stand-ins, named in the history and
    # written ?? again on the way back
    source = read_phh((HERE / "alice-carol-badugi.phh").read_text())
    ours = phh_to_history(source)
    assert ours["variant"] == "rollem-badugi" and ours["_phh"]["hidden"] == [2]  # Ted folds
    assert len(ours["_phh"]["hidden_cards"]) == 2 * 20  # 12 dealt to Bob, Carol, Alice; 8 drawn
    assert list(replay(tomllib.loads(tomli_w.dumps(ours))).stacks) == [196, 220, 200, 184]
    back = history_to_phh(tomllib.loads(tomli_w.dumps(ours)))
    assert back == {**source, "actions": [line.split("#")[0].strip()
                                          for line in source["actions"]]}


def test_a_button_blind_has_no_rollem_form() -> None:
    # PokerKit's short-deck hand, its antes dead: it replays, but a rollem
    # history's blinds are a small and a big one
    text = (HERE / "xuan-phua-short-deck.phh").read_text().replace(
        "ante_trimming_status = true", "ante_trimming_status = false")
    assert replay_phh(read_phh(text)).finishing_stacks is not None
    with pytest.raises(PHHError, match=r"^a blind posted by the button alone"):
        phh_to_history(read_phh(text))


def test_a_long_refusal_is_whole_up_to_a_word_cut_naming_the_hand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a long file name and an eight-player finishing_stacks refusal: the line
    # was cut in its middle ("... [N characters cut] ..."); now it reads from
    # FILE[k] on, whole up to a word, with " ..." where it stops
    text = (HERE / "wsop-2019-42-kempe.phh").read_text()
    f = tmp_path / ("a-long-name-for-the-final-table-of-event-42-day-3-" * 2 + "hands.phhs")
    f.write_text(f"[1]\n{text}\n")
    code, _, err = run_cli(["convert", "--to", "rollem", str(f)], capsys)
    line = err.rstrip("\n")
    assert code == 2 and err.count("\n") == 1
    assert line.startswith(f"rollem: error: {f}[1]: finishing_stacks [18100000, 5625000,")
    assert "characters cut" not in line and line.endswith(" ...")
    assert len(line) <= len("rollem: error: ") + 300
    words = line[len(f"rollem: error: {f}[1]: "):-len(" ...")].split()
    full = " ".join(["finishing_stacks [18100000, 5625000, 6675000, 5750000, 9150000,",
                     "6525000, 12950000, 7300000] differ from the replay's [17600000,",
                     "6125000, 6675000, 5750000, 9150000, 6525000, 12950000, 7300000]"]).split()
    assert words == full[:len(words)] and len(words) > 5  # whole words of the message
    # --skip names the hand the same way, on one line
    code, _, err = run_cli(["convert", "--to", "rollem", "--skip", str(f)], capsys)
    assert code == 2 and err.startswith(f"rollem: {f}[1]: left out: finishing_stacks")
    assert "characters cut" not in err


def test_a_phh_error_is_cut_at_a_word() -> None:
    text = "p1 " + "holds a card that is not there " * 20
    err = str(PHHError(text))
    assert len(err) <= 300 and err.endswith(" ...")  # was cut mid-word, with no mark
    assert text.startswith(err[:-len(" ...")] + " ")


def test_an_older_version_is_written_again_as_this_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    f = Path(__file__).parent / "histories" / "allin_add_up_no_limit.toml"
    assert "_version = 1" in f.read_text()
    code, out, err = run_cli(["convert", "--to", "rollem", str(f)], capsys)
    assert code == 0, err
    new = tomllib.loads(out)
    assert new["_version"] == 2
    assert list(replay(new).stacks) == list(replay(f.read_text()).stacks)


def test_a_trimmed_ante_in_holdem_has_no_rollem_form() -> None:
    text = """variant = "NT"
ante_trimming_status = true
antes = [1, 1, 1]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AcAd", "d dh p2 7c2d", "d dh p3 KcKd", "p3 f", "p1 f"]
"""
    data = read_phh(text)
    assert replay_phh(data).finishing_stacks == [98, 103, 99]  # (it replays as it is)
    with pytest.raises(PHHError, match=r"ante_trimming_status = true.*has no ante step"):
        phh_to_history(data)
    # dead antes (PHH's default) are the history's _carry_in
    ours = phh_to_history(read_phh(text.replace("true", "false")))
    assert ours["_carry_in"] == 3 and ours["starting_stacks"] == [99, 99, 99]


def test_a_known_hand_mucked_at_the_showdown_converts_and_comes_back() -> None:
    # as PokerKit writes a loser's muck: p3's known kings mucked to p1's aces
    text = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AcAd", "d dh p2 7c2d", "d dh p3 KcKd", "p3 cbr 6", "p1 cc", "p2 f",
           "d db 2c7h9s", "p1 cc", "p3 cc", "d db 3d", "p1 cc", "p3 cc", "d db 4s",
           "p1 cc", "p3 cc", "p1 sm AcAd", "p3 sm"]
"""
    source = read_phh(text)
    ours = phh_to_history(source)
    assert ours["_phh"]["mucked"] == [2]
    assert list(replay(ours).stacks) == [108, 98, 94]
    back = history_to_phh(tomllib.loads(tomli_w.dumps(ours)))
    assert back == source
    # a muck that decides the pot (the winner's) is refused
    with pytest.raises(PHHError, match="p1's hand is hidden or mucked at the showdown"):
        phh_to_history(read_phh(text.replace('"p1 sm AcAd", "p3 sm"', '"p3 sm KcKd", "p1 sm"')))


@pytest.mark.parametrize("game", games.shipped_ids())
def test_every_shipped_games_histories_and_copies_load_in_pokerkit(game: str) -> None:
    """PokerKit's ``HandHistory.loads`` reads every history rollem writes, full
    and each player's own copy (its ``??``), of every shipped game (a rollem-GAME
    variant it cannot replay; the games with a PHH code replay as PHH, above)."""
    import warnings

    import pokerkit as pk

    hand = _hand(game, 2)
    texts = [write_history(hand)] + [write_own_copy(hand, s) for s in range(hand.n)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = [pk.HandHistory.loads(t) for t in texts]
    assert {h.variant for h in loaded} == {f"rollem-{game}"}
    assert [list(h.starting_stacks) for h in loaded] == [list(hand.start_stacks)] * len(texts)


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_a_stud_players_copy_converts_only_when_all_show_and_the_help_says_so(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """s60-tidy: ``convert --help`` listed what ``--to rollem`` refuses but not a
    player's copy of a stud or razz hand: another player who does not show has
    down cards hidden and up cards shown, and the copy is refused; it converts only
    when every other player showed down."""
    refused = 0
    for seed in range(4):
        hand = _hand(game, seed, STANDARD[game])
        for seat in range(hand.n):
            phh = history_to_phh(tomllib.loads(write_own_copy(hand, seat)))
            me = f"p{phh['_seats'].index(seat) + 1}"
            deal = {w[2] for w in (str(a).split() for a in phh["actions"]) if w[1] == "dh"}
            shown = {w[0] for w in (str(a).split() for a in phh["actions"])
                     if w[1] == "sm" and len(w) == 3 and "?" not in w[2]}
            if deal - {me} <= shown:
                assert replay(phh_to_history(_toml(phh))).stacks is not None
            else:
                refused += 1
                with pytest.raises(PHHError, match="hidden"):
                    phh_to_history(_toml(phh))
    assert refused >= 5
    code, out, _ = run_cli(["convert", "--help"], capsys)
    text = " ".join(out.split())
    assert code == 0
    assert ("a player with some cards hidden and some shown (so a player's copy of a stud "
            "or razz hand converts only when every other player shows down: one who folds "
            "has their down cards hidden and their up cards shown)") in text
