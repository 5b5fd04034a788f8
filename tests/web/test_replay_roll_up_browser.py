"""A Roll Your Own (and a 5-2-1 Roll 'Em) hand's replay, for a player and for a
watcher (s59-felt: a watcher's replay read "Bot 2 (basic) has chosen", the hidden
pick, and the cards that pick turned up, everyone's at once, had no word: the
roll-up seemed missing).  Now the step that turns cards up (a round's last pick,
a betting round's last action) names them ("Bot 2 (basic) has chosen; turned up:
Bot 1 (basic) Q♠, …"), every step moves on to the next, through the roll-ups to
the result, and a watcher's steps show no card the watcher may not see.  At a
phone's and a desktop's size; screenshots
test-artifacts/web/replay-{rollyourown,rollem521}-{phone,desktop}-*.png.  And the
middle a step deals, by its step's label: Stop, Drop and Roll's (s72-felt) and
hold'em's flop, turn and river (s72-board: "Bob calls" alone before), screenshot
test-artifacts/web/replay-holdem-{phone,desktop}-*-roll-up.png at the flop."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, shot
from test_table_ui import play_hand
from web_harness import ServerThread

pytestmark = pytest.mark.browser

SUIT = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANK_NAME = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
             "7": "sevens", "8": "eights", "9": "nines", "T": "tens", "J": "jacks",
             "Q": "queens", "K": "kings", "A": "aces"}


def _card(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUIT[code[1]]


STEP = """() => ({
  pos: document.querySelector('#replay-pos').innerText,
  words: document.querySelector('#replay-what').innerText,
  seen: [...document.querySelectorAll('#replay-seats .card:not(.back)')].map(c => c.dataset.card),
})"""
"""A step's position and words (as ``inner_text`` reads them) and the cards face up
in its seats, in one call (stop 60: three calls a step before)."""

STEPS = """(n) => {   // n steps: each read as STEP reads it, then Next clicked
  const out = [];
  for (let k = 0; k < n; k++) {
    out.push((""" + STEP + """)());
    document.querySelector('#replay-next').click();
  }
  return out;
}"""
"""``n`` steps read (as :data:`STEP`) and moved on from in one call (s66-table: a
Playwright call and a click each before, about half the test's time).  Next's
handler draws the step before it returns (replay.js ``showFrame``), so each read
is of the step drawn; the first step's Next is still Playwright's own click (the
button visible, enabled and on top)."""


def _ups(frames: list[dict[str, Any]], events: list[dict[str, Any]],
         k: int) -> list[dict[str, Any]]:
    """The events of step ``k`` of a replay's ``frames`` that turn cards up."""
    added = events[(frames[k - 1]["events_n"] if k else 0):frames[k]["events_n"]]
    return [e for e in added if e["kind"] in ("expose", "roll")]


@pytest.mark.parametrize(("game", "roll_ups"), [("rollyourown", 3), ("rollem521", 4), ("sdr", 0),
                                                ("holdem", 0)])
def test_a_roll_up_replay_names_each_roll_up_for_a_player_and_a_watcher(
        browser: Any, live: ServerThread, game: str, roll_ups: int) -> None:
    # One hand played (on the phone), its replay stepped through at both sizes, by
    # the player and by a watcher (stop 60: a hand a size played the same twice).
    phone = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
    contexts = {(size, who): browser.new_context(**(phone if size == "phone"
                                                    else {"viewport": DESKTOP}))
                for size in ("phone", "desktop") for who in ("player", "watcher")}
    errors: list[str] = []
    try:
        ctx = contexts[("phone", "player")]
        _, tid, _ = play_hand(live, ctx.new_page(), game, 4, f"replay-{game}",
                              bot_level="basic", checking=True)
        contexts[("desktop", "player")].add_cookies(ctx.cookies())  # (the same player)
        for (size, who), c in contexts.items():
            p = c.new_page()
            p.on("pageerror", lambda e: errors.append(str(e)))
            p.goto(f"{live.url}/t/{tid}#hand=1")
            p.wait_for_selector("#replay:not(.hidden)")
            data = p.evaluate(f"fetch('/api/tables/{tid}/hands/1').then(r => r.json())")
            frames, events, names = data["frames"], data["events"], data["names"]
            viewer = data["seat"]
            assert (viewer is None) == (who == "watcher")
            called = ["you" if s == viewer else n for s, n in enumerate(names)]
            public: set[str] = set()   # the cards turned up so far, for everyone
            rolls = 0
            reveals = {"declare": 0, "wild": 0, "middle": 0}

            # the steps read in three calls: the deal (then Playwright's click), up to
            # the first roll-up (its screenshot), the rest (s66-table: one call a step)
            # (hold'em: the flop's step, s72-board)
            boards = [k for k, f in enumerate(frames) if any(e["kind"] == "board" for e in events[
                (frames[k - 1]["events_n"] if k else 0):f["events_n"]])]
            first_up = next((k for k in range(len(frames)) if _ups(frames, events, k)
                             or (game == "holdem" and k in boards)), 1)
            read = [p.evaluate(STEP)]
            if first_up == 0:
                shot(p, f"replay-{game}-{size}-{who}-roll-up")
            p.click("#replay-next")
            read += p.evaluate(STEPS, max(0, first_up - 1))
            if first_up > 0:
                shot(p, f"replay-{game}-{size}-{who}-roll-up")
            read += p.evaluate(STEPS, len(frames) - len(read))
            assert len(read) == len(frames)
            for k, f in enumerate(frames):
                step = read[k]
                pos, words = step["pos"], step["words"]
                assert pos == f"Hand 1 · step {k} of {len(frames)}", (size, who, pos)
                ups = _ups(frames, events, k)
                public.update(e["card"] for e in ups)
                actor = (f.get("last_action") or {}).get("seat")
                if ups:   # the step that turned them up: the roll-up named with it
                    rolls += 1
                    said, _, rolled = words.partition("; turned up: ")
                    assert said.startswith("You " if actor == viewer else names[actor] + " ")
                    assert rolled == ", ".join(
                        f"{called[e['seat']]} {_card(e['card'])}" for e in ups), (who, k, words)
                else:
                    assert "turned up" not in words, (who, k, words)
                if (f.get("last_action") or {}).get("kind") in ("expose", "stack") and not ups:
                    assert words.endswith(" chosen"), (who, words)   # (the hidden pick)
                # stop 72 (s72-felt): the declarations, revealed together, and the wild
                # card picked from the pool are named at the step that reveals them
                added = events[(frames[k - 1]["events_n"] if k else 0):f["events_n"]]
                declared = [e for e in added if e["kind"] == "declare"]
                if declared:
                    reveals["declare"] += 1
                    assert words.endswith("; declared: " + ", ".join(
                        f"{called[e['seat']]} {e['side']}" for e in declared)), (who, k, words)
                else:
                    assert "declared" not in words, (who, k, words)
                # and the middle dealt, each by its step's label: Stop, Drop and Roll's
                # Stop and Drop (dead) and Roll; hold'em's flop, turn and river (s72-board)
                middle = "".join(
                    f"; the {e['label'].capitalize()}, dead: {_card(e['card'])}"
                    if e["kind"] == "dead" else
                    f"; the {'Roll' if e['label'] == 'roll' else e['label']}: "
                    + " ".join(_card(c) for c in e["cards"])
                    for e in added if e["kind"] in ("dead", "board"))
                if middle:
                    reveals["middle"] += middle.count("; the ")
                    assert middle in words, (who, k, words, middle)
                    if game == "holdem":   # (the step's last bet, then the board alone)
                        assert words.startswith("You " if actor == viewer else names[actor] + " ")
                        assert words.endswith(middle) and words.count(";") == 1, (who, k, words)
                else:
                    assert "; the " not in words, (who, k, words)
                wild = [e for e in added if e["kind"] == "wild"]
                if wild:
                    reveals["wild"] += 1
                    card = wild[0]["card"]
                    picker = "You" if actor == viewer else names[actor]
                    assert words == (f"{picker} picks the wild card: "
                                     f"{_card(card)}, {RANK_NAME[card[0]]} wild"), (who, k, words)
                if who == "watcher" and f.get("result") is None:
                    shown = [c for c in step["seen"] if c]
                    assert set(shown) <= public, (k, shown, public)  # (no hidden card)
            assert rolls == roll_ups, (who, rolls)
            assert reveals == {"declare": int(game == "rollem521"),
                               "wild": int(game == "rollyourown"),
                               "middle": 3 * (game in ("sdr", "holdem"))}, (who, reveals)
            # the Stop and the Drop say they are dead on the felt too (R-SDR-6)
            dead = p.evaluate("() => [...document.querySelectorAll("
                              "'#replay-center .dead-slot .label')].map(e => e.textContent)")
            assert dead == (["Stop · dead", "Drop · dead"] if game == "sdr" else []), dead
            assert p.inner_text("#replay-pos").endswith(": the result")
            assert p.inner_text("#replay-what") == "The result"
            shot(p, f"replay-{game}-{size}-{who}-end")
            assert errors == [], (who, errors)
    finally:
        for c in contexts.values():
            c.close()
