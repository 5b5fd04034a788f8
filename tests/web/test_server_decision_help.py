"""The web table's "How to play" explains the decision in front of the player in
every game, with the terminal's words (``rollem play``'s ``?``:
:func:`rollem.rules.game_help.explain_decision`): a standard game, a game file's
game and the game a dealer's choice deals, at a betting and a card decision;
our three games keep their hand-written help.

Computer players that only check or call (the person always gets to act) and a
seeded deck (:func:`web_harness.seeded_deals`): the same hand every run. One
server for the module (SQLite); each table plays one hand, about a second.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from table_ui import only_checking_bots
from test_server_gamefiles import own_game
from web_harness import Player, ServerThread, cookie_header, create_table, join, seeded_deals

from rollem import games
from rollem.rules import decision_help
from rollem.rules.game_help import explain_decision
from rollem.server.markdown import render_markdown

PAGE_KIND = {"bet": "bet", "raise": "bet", "call": "bet", "check": "bet", "fold": "bet",
             "discard": "discard_to_pool", "expose": "expose", "draw": "draw",
             "wild": "pick_wild", "stack": "stack", "declare": "declare"}
"""The decision the page names in its query, by the first legal action (static/table/panels.js)."""


def _rules(srv: ServerThread, tid: str, ann: str, query: str = "") -> dict[str, Any]:
    r = httpx.get(f"{srv.url}/api/tables/{tid}/rules{query}",
                  headers={"Cookie": cookie_header(tid, ann)})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _terminal_help(srv: ServerThread, tid: str, seat: int, kind: str) -> str:
    """What ``rollem play``'s ``?`` says at ``seat``'s decision now, as HTML: the
    same function, fed the live hand's game, the seat's Legal and the structure."""
    session = srv.manager.get(tid).hand
    view = session.hand.view(seat)
    return render_markdown(explain_decision(session.hand.game, kind, view.legal,
                                            view.options.get("structure")))


def play_asking(srv: ServerThread, tid: str, host: str, ann: str, seat: int,
                choose: str | None = None) -> dict[str, dict[str, Any]]:
    """Start the table and play one hand passively as the person at ``seat`` (check
    or call; the fewest cards; ``choose`` at the dealer's choice); at the first
    decision of each kind, ask "How to play" as that player. Returns, per decision
    kind, ``{"body": the answer, "legal": the state's legal, "terminal": the
    terminal's help as HTML, "game": the hand's game}``."""
    asked: dict[str, dict[str, Any]] = {}

    async def run() -> None:
        async with Player(srv.ws_url, tid, ann, host) as p:
            await p.until(lambda st: st["you"]["host"])
            await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
            acted = None
            while True:
                st = p.state
                if st is not None and st["table"]["last_result"] is not None:
                    return
                if st is not None and st["you"]["choose_game"] and st["table"]["choice"] \
                        and "choose_game" not in asked:
                    asked["choose_game"] = {
                        "body": _rules(srv, tid, ann, "?decision=choose_game"), "state": st}
                    await p.send({"type": "choose_game", "hand": st["table"]["choice"]["hand"],
                                  "seq": st["seq"], "game": choose})
                elif p.my_decision() and st is not None and st["you"]["decision_seq"] != acted:
                    acted = st["you"]["decision_seq"]
                    legal = st["hand"]["legal"]
                    # the query the page sends (static/table/panels.js: openRules, DECISION_OF)
                    kind = PAGE_KIND[legal["actions"][0]]
                    body = _rules(srv, tid, ann, f"?game={st['hand']['game']}&decision={kind}")
                    if body["decision"] != kind:  # the hand moved on meanwhile (a stale
                        acted = None              # state): ask at the decision now pending
                        await p.recv(20)
                        continue
                    if kind not in asked:
                        terminal = srv.call(_terminal_help, srv, tid, seat, kind)
                        asked[kind] = {"body": body, "legal": legal, "terminal": terminal,
                                       "game": st["hand"]["game"]}
                    await act_fewest(p, legal)
                msg = await p.recv(20)
                if msg["type"] == "error":
                    acted = None

    asyncio.run(run())
    return asked


async def act_fewest(p: Player, legal: dict[str, Any]) -> None:
    """Check or call; at a card decision the fewest cards it allows, the first ones."""
    acts = legal["actions"]
    if "check" in acts or "call" in acts:
        action: dict[str, Any] = {"kind": "check" if "check" in acts else "call"}
    elif acts == ["draw"] or acts == ["discard"]:
        action = {"kind": acts[0], "cards": legal["cards"][:legal["min_count"]]}
    else:
        await p.act_random()
        return
    hand = p.state["hand"]  # type: ignore[index]
    await p.send({"type": "action", "hand": hand["hand_no"],
                  "seq": p.state["seq"], "action": action})  # type: ignore[index]


def _table(srv: ServerThread, **config: Any) -> tuple[str, str, str, int]:
    tid, host = create_table(srv.url, seats=3, bots=2, bot_level="basic", bot_delay=0,
                             between_hands=600, decision_seconds=300, **config)
    only_checking_bots(srv, tid)
    seat, ann = join(srv.url, tid, "Ann")
    return tid, host, ann, seat


def _text(html: str) -> str:
    return " ".join(html.split())


def _may_now(legal: dict[str, Any]) -> str:
    """The state's legal betting actions in words, worked out here by hand."""
    parts = []
    for name in legal["actions"]:
        if name == "call":
            parts.append(f"call {legal['call_amount']}")
        elif name in ("bet", "raise"):
            word = "bet" if name == "bet" else "raise to"
            lo, hi = legal["min_to"], legal["max_to"]
            parts.append(f"{word} {lo}" if lo == hi else f"{word} {lo}..{hi}")
        else:
            parts.append(name)
    return "You may now: " + ", ".join(parts) + "."


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded_deals(monkeypatch, 7)


def test_a_standard_game_explains_its_bet_and_its_draw(live: ServerThread, seeded: None) -> None:
    tid, host, ann, seat = _table(live, game="draw5", structure="pot-limit")
    asked = play_asking(live, tid, host, ann, seat)
    assert set(asked) == {"bet", "draw"}
    for kind in ("bet", "draw"):
        assert asked[kind]["body"]["decision_help"] == asked[kind]["terminal"], kind
    bet = _text(asked["bet"]["body"]["decision_help"])
    assert "This table plays pot limit: a bet or raise may be as large as the pot." in bet
    assert _may_now(asked["bet"]["legal"]) in bet
    assert "Five-Card Draw has 2 betting rounds." in bet
    draw = _text(asked["draw"]["body"]["decision_help"])
    legal = asked["draw"]["legal"]
    assert (legal["min_count"], legal["max_count"]) == (0, 3)
    assert "Choose 0 to 3 cards to throw away (or none: stand pat)" in draw
    assert f"Your cards: {' '.join(legal['cards'])}." in draw
    assert "each player discards 0 to 3 and is dealt replacements" in draw


def test_holdem_explains_the_bet_with_the_table_s_structure(live: ServerThread,
                                                           seeded: None) -> None:
    tid, host, ann, seat = _table(live, game="holdem")
    asked = play_asking(live, tid, host, ann, seat)
    assert set(asked) == {"bet"}
    bet = _text(asked["bet"]["body"]["decision_help"])
    assert asked["bet"]["body"]["decision_help"] == asked["bet"]["terminal"]
    assert "This table plays fixed limit" in bet and _may_now(asked["bet"]["legal"]) in bet
    assert "Texas Hold'em has 4 betting rounds." in bet


def test_a_game_file_game_explains_its_bet_and_its_discard(live: ServerThread,
                                                          seeded: None) -> None:
    tid, host, ann, seat = _table(live, game_file=own_game(), game="crazy-pineapple")
    asked = play_asking(live, tid, host, ann, seat)
    assert set(asked) == {"bet", "discard_to_pool"}
    for kind in asked:
        assert asked[kind]["body"]["decision_help"] == asked[kind]["terminal"], kind
        assert "The rules of Crazy Pineapple: Hold'em with three hole cards." in _text(
            asked[kind]["body"]["decision_help"])
    assert _may_now(asked["bet"]["legal"]) in _text(asked["bet"]["body"]["decision_help"])
    discard = _text(asked["discard_to_pool"]["body"]["decision_help"])
    # nothing draws from the discards: out of play, no pool (issue 33)
    assert ("Choose 1 card to discard face down. No player gets them back: "
            "they are out of every hand.") in discard
    assert ("In Crazy Pineapple: All at once, each player discards 1 card face down (out of "
            "play).") in discard


def test_a_dealer_s_choice_explains_the_choice_and_the_game_chosen(live: ServerThread,
                                                                  seeded: None) -> None:
    tid, host = create_table(live.url, game="dealers-choice", choices=["holdem", "draw5"],
                             seats=3, bots=2, bot_level="basic", bot_delay=0,
                             between_hands=600, decision_seconds=300)
    only_checking_bots(live, tid)
    seat, ann = join(live.url, tid, "Ann", 0)  # the first hand's button names the game
    asked = play_asking(live, tid, host, ann, seat, choose="draw5")
    assert set(asked) == {"choose_game", "bet", "draw"}
    choose = _text(asked["choose_game"]["body"]["decision_help"])
    assert asked["choose_game"]["body"]["decision"] == "choose_game"
    assert choose.startswith("<p>You are on the button: name the game for this hand.")
    assert "Texas Hold'em (holdem, 2 to 10 players)" in choose
    assert "Five-Card Draw (draw5, 2 to 6 players)" in choose
    # the hand's game is explained, not dealer's choice in general
    assert asked["draw"]["game"] == "draw5"
    for kind in ("bet", "draw"):
        assert asked[kind]["body"]["decision_help"] == asked[kind]["terminal"], kind
    assert "Five-Card Draw has 2 betting rounds." in _text(asked["bet"]["body"]["decision_help"])


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_our_three_games_keep_their_hand_written_help(live: ServerThread, seeded: None,
                                                      game: str) -> None:
    tid, host, ann, seat = _table(live, game=game)
    asked = play_asking(live, tid, host, ann, seat)
    assert "bet" in asked
    for kind, seen in asked.items():
        assert seen["body"]["decision_help"] == render_markdown(decision_help(game, kind)), kind


@pytest.mark.parametrize("game", games.STANDARD)
def test_every_standard_game_explains_every_decision_as_the_terminal(
        live: ServerThread, seeded: None, game: str) -> None:
    tid, host, ann, seat = _table(live, game=game)
    asked = play_asking(live, tid, host, ann, seat)
    assert "bet" in asked, game
    name = games.get(game).name
    for kind, seen in asked.items():
        html = seen["body"]["decision_help"]
        assert html == seen["terminal"], (game, kind)
        assert f"The rules of {name}: " in _text(html), (game, kind)
