"""Stop 74 (s74-night): what a friends' night tripped on at the web table, at a
phone's and a desktop's size (390x844 and 1440x900), one table for both: the
host Ann's phone and a desktop page of hers (the same cookies), and a friend
watching from a desktop.

- No-limit razz, ante 1, bring-in 1, bets 2/4: facing the bring-in Bea's
  desktop offered "Complete to 3" -- the bring-in plus a bet -- where the
  bring-in seat itself completes to 2, and fixed limit (and PokerKit) to 2.
  Now "Complete to 2" (tests/test_nl_bring_in_complete.py: the engine).
- Roll Your Own, the discard to the pool (all at once): once Eve had chosen
  the three cards she throws, while the others still chose, her dock still
  named all six -- "pair of eights, queen-six-three" with one of the eights
  thrown.  Now the three she keeps ("queen high, eight-three").
- Cal left between hands: until the next deal his tile kept the last hand's
  picture ("Cal 97 shows ...") with nothing to say he had gone, on everyone's
  page; his own page offered his seat as free while the felt drew him in it.
  Now the tile says "left".

Screenshots test-artifacts/web/s74-night-*.png."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import decision_kind, host_at_both_sizes, play_until, shot, take_decision
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def test_no_limit_razz_facing_the_bring_in_completes_to_the_small_bet(
        browser: Any, live: ServerThread) -> None:
    with host_at_both_sizes(browser, live, game="razz", structure="no-limit", ante=1,
                            small_bet=2, big_bet=4, seats=4, bots=3) as at:
        table, phone, desktop, _friend = at
        ann = live.call(lambda: next(n for n, s in table.seats.items() if s.row.name == "Ann"))
        phone.click("#start-btn")

        dealt: set[int] = set()

        def deal_when_over() -> None:  # (the tests' tables wait 600 s between hands)
            # once a hand: each deal now sets the deal DEAL_SOON from then, so one every
            # look put it off for good (the table sat at hand 1's end for 120 s)
            hand_no = table.session.get("hand_no")
            if table.hand is None and hand_no and hand_no not in dealt:
                dealt.add(hand_no)
                table.dealer.deal_now()

        # Ann's first decision of a hand where a computer player brings it in (one
        # where she brings it in herself she posts, and the hand plays out)
        end = time.monotonic() + 120
        facing = False
        while not facing:
            # (what the table stood at, in the message: hand number, stacks, sitting out)
            assert time.monotonic() < end, ("Ann never faced a bring-in", live.call(lambda: (
                table.session.get("hand_no"),
                {n: (x.row.name, x.row.stack) for n, x in table.seats.items()},
                table.session.get("sitting_out"))))
            live.call(deal_when_over)
            kind = decision_kind(phone)
            if kind is None:
                phone.wait_for_timeout(50)
                continue
            call = phone.locator("#controls [data-action=call]")
            facing = (kind == "bet" and call.count() == 1 and live.call(
                lambda: table.hand is not None and not table.hand.over
                and table.hand.hand.n_full == 0 and table.hand.hand.current_bet == 1
                and table.hand.hand.round == 0
                and table.hand.hand.legal_actions(ann).forced == "complete"))
            if not facing:
                # (checks, else folds: calling the random players' no-limit shoves
                # could bust her before she faces a bring-in, a flake seen in 1 of 3)
                check = phone.locator("#controls [data-action=check]")
                fold = phone.locator("#controls [data-action=fold]")
                if kind == "bet" and not check.count() and fold.count():
                    fold.click()
                else:
                    take_decision(phone, kind)
                phone.wait_for_timeout(100)
        for size, page in (("phone", phone), ("desktop", desktop)):
            page.wait_for_selector("#controls [data-action=raise]")
            assert page.locator("#controls [data-action=call]").inner_text().startswith(
                "Call 1"), size
            raise_to = page.locator("#controls [data-action=raise]").inner_text()
            assert re.match(r"Complete to 2\b", raise_to), (size, raise_to)  # (main: 3)
            assert page.locator("#controls [data-amount=raise]").input_value() == "2", size
            shot(page, f"s74-night-razz-complete-{size}")
        phone.locator("#controls [data-action=raise]").click()

        def raises() -> list[tuple[int | None, object]]:
            hand = table.hand if table.hand is not None else table.final_hand
            return [(e.seat, e.data.get("to")) for e in hand.hand.events if e.kind == "raise"]

        # (the random players act at once after her: a raise of theirs may follow)
        end = time.monotonic() + 20
        while not any(seat == ann for seat, _ in live.call(raises)):
            assert time.monotonic() < end, "the completion was not made"
            time.sleep(0.05)
        assert live.call(raises)[0] == (ann, 2)


def test_cards_thrown_into_the_pool_are_not_named_while_others_choose(
        browser: Any, live: ServerThread) -> None:
    from table_ui import sit

    from rollem.narration.felt import hand_so_far, scoring_of

    with host_at_both_sizes(browser, live, game="rollyourown", seats=3, bots=1) as at:
        table, phone, desktop, friend = at
        sit(friend, "Bob")  # (a person, who chooses after Ann)
        ann = live.call(lambda: next(n for n, s in table.seats.items() if s.row.name == "Ann"))
        bob = live.call(lambda: next(n for n, s in table.seats.items() if s.row.name == "Bob"))
        phone.click("#start-btn")
        end = time.monotonic() + 60
        while decision_kind(phone) != "discard":
            assert time.monotonic() < end, "Ann's discard never came"
            phone.wait_for_timeout(50)
        take_decision(phone, "discard")  # (her first three cards into the pool)
        end = time.monotonic() + 20
        while not live.call(lambda: ann not in table.hand.hand.pending.seats):
            assert time.monotonic() < end, "Ann's choice was not taken"
            time.sleep(0.05)

        def kept() -> tuple[list[str], list[str]]:
            hand = table.hand.hand
            assert bob in hand.pending.seats  # (Bob still chooses)
            thrown = [str(c) for c in hand.steps[hand.step_index].choices[ann].cards]
            return [str(c) for c in hand.hole[ann] if str(c) not in thrown], thrown

        cards, thrown = live.call(kept)
        assert len(cards) == 3 and len(thrown) == 3
        steps = live.call(lambda: table.hand.hand.steps)
        want = hand_so_far(cards, scoring=scoring_of(steps), more_to_come=True)
        assert want
        for size, page in (("phone", phone), ("desktop", desktop)):
            page.wait_for_selector("#controls :text('Your choice is in')")
            # the three cards she keeps named, not the six (main: the six, e.g. "pair
            # of eights, queen-six-three" with one eight thrown)
            name = page.locator("#me .hand-name")
            end = time.monotonic() + 10
            while name.inner_text().strip() != want:
                assert time.monotonic() < end, (size, name.inner_text(), want)
                page.wait_for_timeout(50)
            shot(page, f"s74-night-ryo-thrown-{size}")


def test_a_seat_whose_player_left_reads_left_until_the_next_deal(
        browser: Any, live: ServerThread) -> None:
    from table_ui import sit

    with host_at_both_sizes(browser, live, game="holdem", seats=4, bots=2) as at:
        table, phone, desktop, friend = at
        sit(friend, "Bob")
        bob = live.call(lambda: next(n for n, s in table.seats.items() if s.row.name == "Bob"))
        phone.click("#start-btn")
        play_until(phone, lambda: live.call(
            lambda: table.hand is None and table.session.get("hand_no") == 1),
            "the end of hand 1", also=[friend])
        friend.locator(".me [data-action=leave]").click()
        friend.locator(".me [data-action=leave-confirm]").click()
        end = time.monotonic() + 20
        while live.call(lambda: bob in table.seats):
            assert time.monotonic() < end, "Bob never left"
            time.sleep(0.05)
        for size, page in (("phone", phone), ("desktop", desktop)):
            tile = page.locator(f"#seats [data-seat='{bob}']")
            # hand 1's picture still (its result), now saying Bob has gone (main: as
            # if he still sat there, till hand 2 was dealt)
            tile.locator(".tag:text('left')").wait_for()
            assert tile.locator(".name, .head").first.inner_text().startswith("Bob"), size
            shot(page, f"s74-night-left-{size}")
        live.call(lambda: table.dealer.deal_now())
        for page in (phone, desktop):
            page.wait_for_selector(f"#seats .seat.empty[data-seat='{bob}']")
