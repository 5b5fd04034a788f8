"""The felt's words in the web table's hand view (issue 26): ``hand_name`` (the
viewer's own hand so far, as ``rollem eval`` names it), ``log`` (the hand so far in
players' words, the narration ``rollem replay`` tells) and ``last_actions`` (each
seat's latest action), per viewer, never holding a card that viewer may not see."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from click.testing import CliRunner

from rollem import games
from rollem.cli.app import app
from rollem.engine import Hand, SeededSource
from rollem.narration.felt import Scoring, hand_so_far
from rollem.narration.hands import hand_words
from rollem.server.game_session import (
    GameSession,
    action_to_wire,
    random_wire_action,
    timeout_action,
)

NAMES = ["Ann", "Bob", "Cat"]
# A card not inside a word: the same matches as r"(?<![0-9A-Za-z])[2-9TJQKA]...", the
# rank first so that re scans for it about 3 times faster.
CARD = re.compile(r"[2-9TJQKA](?<![0-9A-Za-z][2-9TJQKA])[cdhs](?![0-9A-Za-z])")


def _eval_json(cards: list[str], *flags: str) -> dict[str, Any]:
    """``rollem eval CARDS FLAGS --json``."""
    result = CliRunner().invoke(app, ["eval", *cards, *flags, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def _eval(cards: list[str], *flags: str) -> str:
    """``rollem eval CARDS FLAGS --json``'s description."""
    return str(_eval_json(cards, *flags)["description"])


def _wild_words(cards: list[str], wild: list[str]) -> str:
    """``rollem eval``'s description with each stand-in in the results' words
    ("wild 5c plays as Qc", issue 26: one phrasing on the felt and in the results)."""
    said = _eval_json(cards, *[f for r in wild for f in ("--wild", r)])
    stand_ins = ", ".join(f"wild {w} plays as {c}" for w, c in said["wilds"].items())
    return f"{said['description']}{f' ({stand_ins})' if stand_ins else ''}"


def _session(game: str, seed: int, players: int = 3) -> GameSession:
    hand = Hand(game, [200] * players, button=0, source=SeededSource(seed))
    return GameSession(1, {"game": game, "seats": list(range(players))}, hand)


def _passive(session: GameSession, seat: int) -> dict[str, Any]:
    """Call or check; every other decision as the clock plays it (R-C-15)."""
    legal = session.view(seat)["legal"]
    if "call" in legal["actions"]:
        return {"kind": "call"}
    return action_to_wire(timeout_action(session.hand, seat))


def _play_out(session: GameSession) -> None:
    while not session.over:
        seat = session.pending_seats()[0]
        session.apply(seat, _passive(session, seat))


# ---------------------------------------------------------------- hand_name


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "holdem", "stud", "draw5",
                                  "deuces-wild", "razz", "rollem521"])
@pytest.mark.parametrize("seed", [1, 2])
def test_hand_name_is_rollem_evals_at_the_showdown(game: str, seed: int) -> None:
    session = _session(game, seed)
    _play_out(session)
    for seat in range(3):
        view = json.loads(session.view_json(seat, NAMES))
        cards = [c for c in view["seats"][seat]["cards"] if c] + view["board"]
        wild = [f for r in view["wild_ranks"] for f in ("--wild", r)]
        if game == "razz":
            expected = _eval(cards, "--low")
        elif game == "rollem521":  # the clock declares high
            expected = _eval(cards)
        elif view["wild_ranks"]:
            expected = _wild_words(cards, view["wild_ranks"])
        else:
            expected = _eval(cards, *wild)
        assert view["hand_name"] == expected, (game, seed, seat)


def _qualifies(said: dict[str, Any]) -> bool:
    """An eight-or-better low: five different ranks, none above the eight."""
    ranks = [c[0] for c in said["cards"]]
    return len(set(ranks)) == 5 and all(r in "A2345678" for r in ranks)


@pytest.mark.parametrize("game", ["omaha", "omaha8", "stud8"])
@pytest.mark.parametrize("seed", [4, 6])   # in each hi-lo hand, someone makes a low
def test_hand_name_is_rollem_evals_in_omaha_and_hi_lo(game: str, seed: int) -> None:
    """Omaha: the best of ``rollem eval`` over every two hole cards with three of the
    board; eight or better: ``high: <eval>; low: <eval --low>`` (``no low`` when none
    qualifies)."""
    from itertools import combinations

    session = _session(game, seed)
    _play_out(session)
    for seat in range(3):
        view = json.loads(session.view_json(seat, NAMES))
        own = [c for c in view["seats"][seat]["cards"] if c]
        if game.startswith("omaha"):
            fives = [list(h + b) for h in combinations(own, 2)
                     for b in combinations(view["board"], 3)]
        else:
            fives = [own]
        high = max((_eval_json(f) for f in fives), key=lambda r: int(r["value"]))
        if game == "omaha":
            assert view["hand_name"] == high["description"], (game, seed, seat)
            continue
        lows = [r for f in fives if _qualifies(r := _eval_json(f, "--low"))]
        low = max(lows, key=lambda r: int(r["value"]))["description"] if lows else "no low"
        assert view["hand_name"] == f"high: {high['description']}; low: {low}", \
            (game, seed, seat)


def test_hand_name_comes_as_the_cards_come() -> None:
    """Hold'em: the two hole cards, then with the flop, turn and river."""
    session = _session("holdem", 4)
    names = []
    while not session.over:
        name = json.loads(session.view_json(0, NAMES))["hand_name"]
        if not names or names[-1] != name:
            names.append(name)
        seat = session.pending_seats()[0]
        session.apply(seat, _passive(session, seat))
    # Ann holds As Js; the board comes Ah Qh Qs, 5d, Jh
    assert names == ["ace high, jack", "two pair, aces and queens, jack kicker"]
    assert _eval(["As", "Js", "Ah", "Qh", "Qs", "5d", "Jh"]) == names[-1]


def test_hand_name_words() -> None:
    # the wild stand-ins once the wild rank is known (Roll Your Own, R-RYO-9)
    cards = ["Qh", "Qd", "5c", "9s", "2d"]
    assert hand_so_far(cards, wild_ranks=["5"]) == _wild_words(cards, ["5"])
    assert hand_so_far(cards, wild_ranks=["5"]) == \
        "three queens, nine-deuce (wild 5c plays as Qc)"
    # the results' words for the same cards (issue 26: one phrasing)
    assert hand_so_far(cards, wild_ranks=["5"]) == hand_words(cards, wild_ranks=["5"])
    assert hand_so_far(["Qh", "9d", "8c", "7s", "2d"], wild_ranks=["5"]) == \
        "queen high, nine-eight-seven-deuce"   # none in the hand: the middle says "fives wild"
    assert hand_so_far(cards) == "pair of queens, nine-five-deuce"
    # 5-2-1: both ways until the declare, then the side declared (R-521-8)
    low = ["8h", "7d", "3c", "2s", "Ad"]
    both = hand_so_far(low, scoring=Scoring("declare"))
    assert both == "high: ace high, eight-seven-three-deuce; low: eight-seven low, three-deuce-ace"
    assert both == f"high: {_eval(low)}; low: {_eval(low, '--low')}"
    assert hand_so_far(low, scoring=Scoring("declare"), declared="low") == _eval(low, "--low")
    # eight or better: a nine makes no low
    nine = ["9h", "7d", "3c", "2s", "Ad"]
    assert hand_so_far(nine, scoring=Scoring("high-low", qualifier=8)).endswith("; low: no low")
    # a flush draw, while cards are still to come ("where simple": no wild cards)
    assert hand_so_far(["Kh", "9h"], ["4h", "2h", "Qs"], more_to_come=True) == \
        "king high, queen-nine-four-deuce; king-high flush draw"
    assert hand_so_far(["Kh", "9h"], ["4h", "2h", "Qs", "Jd", "3c"]) == \
        _eval(["Kh", "9h", "4h", "2h", "Qs", "Jd", "3c"])
    # a partial hand (R-C-8), and no card yet
    assert hand_so_far(["Kd", "Ks", None]) == _eval(["Kd", "Ks"]) == "pair of kings"
    assert hand_so_far([None, None]) is None


def test_a_watcher_has_no_hand_name() -> None:
    session = _session("holdem", 4)
    assert json.loads(session.view_json(None, NAMES))["hand_name"] is None
    assert json.loads(session.view_json(0, NAMES))["hand_name"] == "ace high, jack"


# ---------------------------------------------------------------- log, last_actions

WORKED = [(0, {"kind": "raise", "to": 4}), (1, {"kind": "call"}), (2, {"kind": "fold"}),
          (1, {"kind": "check"}), (0, {"kind": "bet", "amount": 2}),
          (1, {"kind": "raise", "to": 4}), (0, {"kind": "call"}),
          (1, {"kind": "bet", "amount": 4}), (0, {"kind": "call"}),
          (1, {"kind": "check"}), (0, {"kind": "check"})]
"""A hold'em hand (seed 4, button Ann): Ann raises, Bob calls, Cat folds; the flop
is bet, raised and called; the turn bet and called; the river checked through."""

SAID = ["raises to 4", "calls 3", "folds", "checks", "bets 2", "raises to 4", "calls 2",
        "bets 4", "calls 4", "checks", "checks"]


def test_the_log_of_a_worked_hand_in_players_words() -> None:
    session = _session("holdem", 4)
    for seat, wire in WORKED:
        session.apply(seat, wire)
    log = json.loads(session.view_json(2, NAMES))["log"]
    assert [(line["seat"], line["text"]) for line in log] == [
        (1, "Bob posts the small blind 1 (pot 1)."),
        (2, "You post the big blind 2 (pot 3)."),
        (2, "You are dealt 7h 6c."),
        (None, "Bob and Ann are dealt 2 cards each, face down."),
        (None, "Preflop (pot 3)."),
        (0, "Ann raises to 4 (pot 7)."),
        (1, "Bob calls 3 (pot 10)."),
        (2, "You fold."),
        (None, "The flop: Ah Qh Qs."),
        (None, "Flop (pot 10)."),
        (1, "Bob checks."),
        (0, "Ann bets 2 (pot 12)."),
        (1, "Bob raises to 4 (pot 16)."),
        (0, "Ann calls 2 (pot 18)."),
        (None, "The turn: 5d."),
        (None, "Turn (pot 18)."),
        (1, "Bob bets 4 (pot 22)."),
        (0, "Ann calls 4 (pot 26)."),
        (None, "The river: Jh."),
        (None, "River (pot 26)."),
        (1, "Bob checks."),
        (0, "Ann checks."),
        (1, "Bob shows Jd 7d: two pair, queens and jacks, ace kicker."),
        (0, "Ann shows As Js: two pair, aces and queens, jack kicker."),
        (0, "Ann wins the pot (26) with two pair, aces and queens, jack kicker."),
        (2, "This hand: you lost 2."),
    ]
    # no engine words (issue 26: "Bot 2 (basic) round", "choose", "end", "return 1")
    text = " ".join(line["text"] for line in log)
    assert not re.search(r"\bround \d|\bchoose\b|\bend\b|\breturn\b", text)


def test_the_log_is_the_replay_narration_as_it_grows() -> None:
    """Each state's log is what ``rollem replay``'s narration says of the view so far
    (the deals of a group told as soon as they are dealt)."""
    from rollem.narration import narrate_view

    session = _session("stud", 3)
    while not session.over:
        for viewer in (None, 0, 1):
            view = session.view(viewer, NAMES)
            told = [line.text for line in narrate_view(view, NAMES)]
            assert [line["text"] for line in view["log"]] == told
        seat = session.pending_seats()[0]
        session.apply(seat, _passive(session, seat))


def test_last_actions_say_each_action_as_applied() -> None:
    session = _session("holdem", 4)
    start = json.loads(session.view_json(None, NAMES))["last_actions"]
    assert start == {"1": {"kind": "blind", "text": "small blind 1"},
                     "2": {"kind": "blind", "text": "big blind 2"}}
    for (seat, wire), said in zip(WORKED[:-1], SAID, strict=False):
        session.apply(seat, wire)
        for viewer in (None, 0, 1, 2):
            last = json.loads(session.view_json(viewer, NAMES))["last_actions"]
            assert last[str(seat)] == {"kind": wire["kind"], "text": said}, (seat, wire)
    session.apply(*WORKED[-1])  # the river checked through: both show
    last = json.loads(session.view_json(None, NAMES))["last_actions"]
    assert last == {"0": {"kind": "show", "text": "shows"}, "1": {"kind": "show", "text": "shows"},
                    "2": {"kind": "fold", "text": "folds"}}


def test_last_actions_of_draws_and_stud() -> None:
    """Every draw of the hand ("drew 2, then 1"), a bring-in and its completion,
    an all-in call."""
    from rollem.narration.felt import FeltTalk

    talk = FeltTalk(NAMES, 0)
    for e in ({"kind": "draw", "seat": 1, "count": 2}, {"kind": "draw", "seat": 2, "count": 0},
              {"kind": "draw", "seat": 1, "count": 1}, {"kind": "draw", "seat": 2, "count": 1},
              {"kind": "bet", "seat": 0, "to": 1, "amount": 1, "bring_in": True},
              {"kind": "raise", "seat": 1, "to": 2, "amount": 2},
              {"kind": "call", "seat": 2, "amount": 5, "all_in": True}):
        talk.feed(e)
    assert talk.last_actions_json()["2"] == {"kind": "all-in", "text": "calls 5, all-in"}
    assert talk.last_actions[0] == ("bring-in", "brings it in for 1")
    assert talk.last_actions[1] == ("complete", "completes to 2")
    talk = FeltTalk(NAMES, 0)
    for e in ({"kind": "draw", "seat": 1, "count": 2}, {"kind": "draw", "seat": 2, "count": 0},
              {"kind": "draw", "seat": 1, "count": 1}, {"kind": "draw", "seat": 2, "count": 1}):
        talk.feed(e)
    assert talk.last_actions == {1: ("draw", "drew 2, then 1"),
                                 2: ("draw", "stood pat, then drew 1")}
    talk = FeltTalk(NAMES, 0)
    talk.feed({"kind": "draw", "seat": 1, "count": 2})
    assert talk.last_actions == {1: ("draw", "draws 2")}


# ---------------------------------------------------------------- nothing hidden


def _felt_cards(view: dict[str, Any]) -> set[str]:
    felt = {k: view[k] for k in ("hand_name", "log", "last_actions")}
    # what a wild card plays as ("wild 2h plays as Kd") is a value, not a card of the
    # deck (as tests/web/test_server_hidden.py reads it)
    return set(CARD.findall(re.sub(r"plays as [2-9TJQKA][cdhs]\b", "plays as ?",
                                   json.dumps(felt))))


def _seen_cards(view: dict[str, Any]) -> set[str]:
    rest = {k: v for k, v in view.items() if k not in ("hand_name", "log", "last_actions")}
    return set(CARD.findall(json.dumps(rest)))


@pytest.mark.parametrize("game", games.shipped_ids())
def test_the_felt_names_no_card_the_viewer_may_not_see(game: str) -> None:
    """Every card the new fields name is one the rest of the viewer's view (its own
    cards, face-up cards, the board, its events, cards shown) already holds, at every
    step, for every seat and a watcher; the hidden cards of the others never appear."""
    rng = random.Random(game)
    for seed in range(3):
        players = max(3, games.get(game).min_players)
        session = _session(game, seed, players)
        while True:
            h = session.hand
            for viewer in (None, *range(players)):
                view = json.loads(session.view_json(viewer, NAMES))
                assert _felt_cards(view) <= _seen_cards(view), (game, seed, viewer)
                hidden = {str(c) for s in range(players) if s != viewer
                          for c, up in zip(h.hole[s], h.up[s], strict=True) if not up}
                if h.result is not None:
                    hidden -= {str(c) for cs in h.result.shown_cards.values() for c in cs}
                if viewer is not None:  # what it put in the pool, wherever it went (R-RYO-2)
                    hidden -= {str(c) for c in h.pool_by_seat.get(viewer, [])}
                assert not _felt_cards(view) & hidden, (game, seed, viewer)
                if viewer is None:
                    assert view["hand_name"] is None
            if session.over:
                break
            seat = session.pending_seats()[0]
            session.apply(seat, random_wire_action(session.view(seat)["legal"], rng))


def test_hand_name_draws_while_cards_are_to_come() -> None:
    """Straight, flush and low draws named as players name them (issue 26), only
    while cards are still to come; hand-computed."""
    def name(own: list[str], board: Sequence[str] = (), **kw: Any) -> str | None:
        return hand_so_far(own, board, more_to_come=True, **kw)

    # 9-8-7-6: a ten or a five (eight cards)
    assert name(["9h", "8d"], ["7c", "6s", "2h"]) == \
        "nine high, eight-seven-six-deuce; open-ended straight draw"
    # 9-7-6-5-3: an eight (9 to 5) or a four (7 to 3), no four in a row
    assert name(["9h", "7d"], ["6c", "5s", "3h"]) == \
        "nine high, seven-six-five-three; double inside straight draw"
    # 9-8-6-5: only a seven
    assert name(["9h", "8d"], ["6c", "5s", "Kh"]) == \
        "king high, nine-eight-six-five; inside straight draw"
    # A-K-Q-J: only a ten; A-2-3-4: only a five (the ace plays low)
    assert name(["Ah", "Kd"], ["Qc", "Js", "3h"]) == \
        "ace high, king-queen-jack-three; one-ended straight draw"
    assert name(["Ah", "2d", "3c", "4s"]) == "ace high, four-three-deuce; one-ended straight draw"
    # both draws at once; a pair is still below a straight
    assert name(["Kh", "Qh"], ["Jh", "Th", "Tc"]) == \
        "pair of tens, king-queen-jack; king-high flush draw and open-ended straight draw"
    # a made straight names no draw; nor does the last card
    assert name(["9h", "8d"], ["7c", "6s", "5h"]) == "nine-high straight"
    assert hand_so_far(["9h", "8d"], ["7c", "6s", "2h", "Kd", "Kc"]) == \
        _eval(["9h", "8d", "7c", "6s", "2h", "Kd", "Kc"])
    # razz (low only): four to a wheel, four to a seven low
    razz = Scoring("low")
    assert name(["Ah", "2d", "3c", "4s"], scoring=razz) == \
        f"{_eval(['Ah', '2d', '3c', '4s'], '--low')}; four to a wheel"
    assert name(["Ah", "2d", "7c", "4s", "4d"], scoring=razz) == \
        f"{_eval(['Ah', '2d', '7c', '4s', '4d'], '--low')}; four to a seven low"
    assert name(["Ah", "2d", "7c", "4s", "5d"], scoring=razz) == \
        _eval(["Ah", "2d", "7c", "4s", "5d"], "--low")   # a made low: no draw
    # stud eight or better: a nine does not count toward the low
    stud8 = Scoring("high-low", qualifier=8)
    assert name(["Ah", "2d", "3c", "9s", "Kd"], scoring=stud8) == \
        "high: ace high, king-nine-three-deuce; low: no low"
    assert name(["Ah", "2d", "3c", "8s", "Kd"], scoring=stud8) == \
        "high: ace high, king-eight-three-deuce; low: no low; four to an eight low"
    # 5-2-1 before the declare: both ways; declared high: the high draws only
    both = name(["Ah", "2d", "3c", "4s", "Kd"], scoring=Scoring("declare"))
    assert both is not None and both.endswith("; one-ended straight draw and four to a wheel")
    assert name(["Ah", "2d", "3c", "4s", "Kd"], scoring=Scoring("declare"),
                declared="high") == "ace high, king-four-three-deuce; one-ended straight draw"
    # exact hole and board counts (Omaha, SDR): no draw named
    omaha = Scoring("high", hole=2, board=3)
    assert name(["9h", "8d", "2c", "2s"], ["7c", "6s", "Kh"], scoring=omaha) == \
        "pair of twos, king-seven-six"
    # wild cards: no draw (the stand-ins say it)
    assert name(["9h", "8d"], ["7c", "6s", "2h"], wild_ranks=["Q"]) == \
        "nine high, eight-seven-six-deuce"


def test_shown_hands_word_their_wild_cards_as_the_result_lines_do() -> None:
    """Deuces wild, seed 1: Cat shows three fours with the 2h.  The result's lines
    said "(wild 2h plays as 4h)", the shown hands (the seat tiles, the result's rows)
    only "three fours, nine-five" (issue 26: one phrasing); a hand with no wild card
    keeps its words, and the engine's result itself is not changed."""
    session = _session("deuces-wild", 1)
    _play_out(session)
    for viewer in (None, 0, 1, 2):
        view = json.loads(session.view_json(viewer, NAMES))
        assert view["result"]["shown"] == {
            "1": "ace high, queen-seven-six-three",
            "2": "three fours, nine-five (wild 2h plays as 4h)"}, viewer
        said = " ".join(line["text"] for line in view["narration"])
        assert "three fours, nine-five (wild 2h plays as 4h)" in said
        assert session.view(viewer, list(NAMES))["result"] == view["result"]
    assert session.hand.result is not None
    assert session.hand.result.shown[2] == "three fours, nine-five"


def test_a_521_hand_with_the_same_words_both_ways_says_them_once() -> None:
    """s57-tidy: a folded 5-2-1 hand (no declaration) was labelled "high: pair of
    kings, seven-four-three; low: pair of kings, seven-four-three"; said once
    (before a declaration, s65-table: "low: the same", see below)."""
    from rollem.narration.felt import Scoring, hand_so_far

    declare = Scoring("declare")
    assert hand_so_far(["Kc", "Kd", "7s", "4h", "3c"], scoring=declare) == \
        "high: pair of kings, seven-four-three; low: the same"
    assert hand_so_far(["Kc", "Kd", "Ks", "4h", "3c"], scoring=declare) == \
        "high: three kings, four-three; low: the same"
    # different words (the ace plays low): each half named
    assert hand_so_far(["Kc", "Kd", "7s", "4h", "Ac"], scoring=declare) == \
        "high: pair of kings, ace-seven-four; low: pair of kings, seven-four-ace"
    assert hand_so_far(["9c", "7d", "5s", "4h", "3c"], scoring=declare) == \
        "high: nine high, seven-five-four-three; low: nine-seven low, five-four-three"
    assert hand_so_far(["Kc", "Kd", "7s", "4h", "3c"], scoring=declare, declared="low") == \
        "pair of kings, seven-four-three"


def test_a_521_hand_the_same_both_ways_reads_as_no_declaration_before_the_declare() -> None:
    """s65-table: the dock named a 5-2-1 hand with the same words both ways "high and
    low: pair of queens, ..." before the declare (R-521-8), which reads as a hint
    to declare both ways; it states each reading now ("high: X; low: the same"),
    and says "high and low" only of a seat that declared both (as its showdown
    line does, :class:`rollem.engine.declare.DeclareShowdown`) or of a cards-speak
    high-low pot, where nobody declares."""
    from rollem.narration.felt import Scoring, hand_so_far

    queens = ["Qc", "Qd", "Kh", "Ts", "8c"]
    said = hand_so_far(queens, scoring=Scoring("declare"))
    # (main: "high and low: pair of queens, king-ten-eight")
    assert said == "high: pair of queens, king-ten-eight; low: the same"
    assert "high and low" not in str(hand_so_far(queens[:4], scoring=Scoring("declare"),
                                                 more_to_come=True))
    assert hand_so_far(queens, scoring=Scoring("declare"), declared="both") == \
        "high and low: pair of queens, king-ten-eight"
    assert hand_so_far(queens, scoring=Scoring("declare"), declared="high") == \
        "pair of queens, king-ten-eight"
    assert hand_so_far(queens, scoring=Scoring("high-low")) == \
        "high and low: pair of queens, king-ten-eight"
