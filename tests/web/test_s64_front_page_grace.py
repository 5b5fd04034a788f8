"""s64-table: the front page's How it works says how long a player who closes the
tab or loses the connection keeps the seat -- the reconnect grace, the server's
default (120 s: 2 minutes) -- where it said only "your seat waits for you" (the
seat is given up after the grace; stop 63's try-out).  Served by a real server;
the browser side (the words follow the host's More timing) is
test_s64_front_page_grace_browser.py."""

from __future__ import annotations

import re
import urllib.request

from web_harness import ServerThread

from rollem.server.config import parse_config


def test_the_front_page_says_the_default_grace(live: ServerThread) -> None:
    with urllib.request.urlopen(live.url + "/") as resp:
        html = resp.read().decode()
    grace = parse_config({}).grace_seconds  # (a table made with no grace named)
    assert grace == 120.0
    field = re.search(r'name="grace_seconds"[^>]*value="(\d+)"', html)
    assert field is not None and float(field.group(1)) == grace
    told = re.search(r'<li>Press <b>Deal</b>\. (.*?)</li>', html)
    assert told is not None
    words = re.sub(r"<[^>]+>", "", told.group(1))
    assert words == ("A player who closes the tab or loses the connection keeps the seat "
                     "for 2 minutes (the reconnect grace, under More timing) and comes back "
                     "to it from the same browser; a tournament entrant keeps theirs to the "
                     "end."), words
