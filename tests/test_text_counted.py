"""Counts told in words (`rollem.text.counted`, `rollem.text.times`): the web
table said "you have rebought 1 time(s)" and "the 3 earliest hand(s) left out"."""

from __future__ import annotations

from rollem.server.routes_session import _bulk_head
from rollem.text import counted, times


def test_counted_names_the_noun_in_its_number() -> None:
    assert [counted(n, "hand") for n in (0, 1, 2)] == ["0 hands", "1 hand", "2 hands"]
    assert counted(2, "side pot", "side pots") == "2 side pots"
    assert counted(3, "match", "matches") == "3 matches"


def test_times_in_words() -> None:
    assert [times(n) for n in (0, 1, 2, 7)] == ["0 times", "once", "twice", "7 times"]


def test_a_bulk_download_says_how_many_hands_it_left_out() -> None:
    assert "# the 1 earliest hand left out" in _bulk_head(1)
    assert "# the 4 earliest hands left out" in _bulk_head(4)
    assert "left out" not in _bulk_head(0)
