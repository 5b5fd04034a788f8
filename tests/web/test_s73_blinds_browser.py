"""s73-blinds: a seat change that would skip the blinds waits for the big blind,
at a phone's and a desktop's size (390x844 and 1440x900), one table for both: the
host Ann's phone and a desktop page of hers (the same cookies), and a friend,
Bob, seated at a desktop.  Ann, between hands, taps a free seat the big blind
reaches later than hers: the confirm says the move skips the big blind and when
she is dealt in; her notice says "You are dealt in when the big blind reaches
seat N."; her dock and the friend's tile of her seat say "waits for the big
blind"; the next hand is dealt without her.

Screenshots test-artifacts/web/s73-blinds-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from table_ui import (
    host_at_both_sizes,
    play_until,
    shot,
    sit,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def test_a_move_past_the_big_blind_waits_for_it_and_says_so(
        browser: Any, live: ServerThread) -> None:
    with host_at_both_sizes(browser, live, game="holdem", seats=7, bots=2) as at:
        table, phone, desktop, friend = at
        # (the friend sits down too: with computer players alone besides her, Ann is
        # dealt in at once wherever she moves -- they do not play alone, s74-night)
        sit(friend, "Bob")
        phone.click("#start-btn")
        play_until(phone, lambda: live.call(
            lambda: table.hand is None and table.session.get("hand_no") == 1),
            "the end of hand 1", also=[friend])
        ann = live.call(lambda: next(n for n, s in table.seats.items() if s.row.name == "Ann"))
        waits = live.call(lambda: table.views.you(ann, False)["moves_wait"])
        assert waits, "no free seat the big blind reaches later than Ann's"
        to = waits[0]
        tile = phone.locator(f"#seats button.seat.empty[data-seat='{to}']")
        tile.wait_for()
        asked: list[str] = []

        def accept(d: Any) -> None:
            asked.append(d.message)
            d.accept()

        phone.once("dialog", accept)
        tile.click()
        words = f"You are dealt in when the big blind reaches seat {to + 1}."
        for size, page in (("phone", phone), ("desktop", desktop)):
            page.wait_for_selector(f"#notice :text('{words}')")
            page.wait_for_selector(".me :text('waits for the big blind')")
            shot(page, f"s73-blinds-waits-{size}")
        assert asked == [f"Move to seat {to + 1}? Your chips and your ledger line go with "
                         "you. This move skips the big blind: you are dealt in when the big "
                         f"blind reaches seat {to + 1}."]
        friend.wait_for_selector(f"#seats [data-seat='{to}'] :text('waits for the big blind')")
        shot(friend, "s73-blinds-friend-desktop")
        assert live.call(lambda: table.session.get("bb_wait")) == [to]
