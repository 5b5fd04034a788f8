"""What a name's checks cost the event loop (s59-safe).  A join's or a watch
request's body may hold 16 KB; the name's patterns took time growing with the
square of its length (``"1" * 16000 + "x"``: 15 to 23 s of the loop that serves
every table), so a name's length is refused first.  And a sit-down compares
its name with every seated and departed player's (64 lines kept) as they read,
look and nearly read: keys of names worked out again at every attempt (a refused
one changes nothing, so it may be sent again at once), 25 to 50 ms of the loop
at a table of long emoji names; the keys are kept now."""

from __future__ import annotations

import time

import pytest
from test_table_bots import virtual_server

from rollem.server.config import parse_config
from rollem.server.live_table import LiveTable, TableError, clean_name
from rollem.server.live_table.player_names import MAX_NAME_SENT, distinct_name


@pytest.mark.parametrize("text", ["1" * 16000 + "x", "a" + "1" * 16000 + "x", "(" * 16000,
                                  "Ann" + " " * 16000 + "Bo", "a" + " (" * 8000])
def test_a_long_name_is_refused_before_its_patterns_run(text: str) -> None:
    started = time.thread_time()
    with pytest.raises(TableError) as refused:
        clean_name(text)
    spent = time.thread_time() - started
    assert refused.value.code == "bad_name"
    assert refused.value.message == (
        f"a name has at most 24 characters; this text has {len(text)} code points "
        f"(at most {MAX_NAME_SENT} are read, spaces included)")
    assert spent < 0.05  # (main: 0.3 to 23 s)


def test_names_within_the_bound_keep_their_checks_and_cost_little() -> None:
    assert MAX_NAME_SENT == 384
    assert clean_name("Ann" + " " * 300 + "Bo") == "Ann Bo"
    for text, words in (("1" * 94 + "x", "a name has at most 24 characters, not 95"),
                        ("Bot" + " 1" * 40 + "(", "a name has at most 24 characters, not 84"),
                        ("(" * 96, "a name has at most 24 characters, not 96")):
        started = time.thread_time()
        with pytest.raises(TableError) as refused:
            clean_name(text)
        assert time.thread_time() - started < 0.05
        assert refused.value.message == words
    with pytest.raises(TableError, match="is kept for computer players"):
        clean_name("Bot 12")


LONG = ["\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466" * 12
        + chr(0x1F600 + i) * 11 for i in range(73)]
"""73 names of 23 emoji each (95 code points): about the longest a name may be."""


def test_a_refused_sit_down_at_a_table_of_long_names_costs_the_loop_little() -> None:
    with virtual_server() as (loop, store):
        config = parse_config({"game": "holdem", "seats": 10, "bots": 0, "stack": 400,
                               "small_bet": 2, "big_bet": 4})
        table, _ = loop.call(LiveTable.create, store, config)
        for seat, name in enumerate(LONG[:9]):  # (seat 10 free)
            loop.call(table.join, name, seat)
        table.session["departed"] = [
            {"seat": 9, "name": name, "digest": f"d{i}", "stack": 100, "brought": 400,
             "net": -300, "bot": None} for i, name in enumerate(LONG[9:])]
        last = LONG[-1] + "!"  # (reads as the last one: refused at the end of the list)
        with pytest.raises(TableError, match="who left this table earlier"):
            loop.call(table.join, last, None)
        spent = []
        for _ in range(5):
            started = time.thread_time()
            with pytest.raises(TableError, match="who left this table earlier"):
                loop.call(table.join, last, None)
            spent.append(time.thread_time() - started)
        assert sorted(spent)[2] < 0.004  # (main: 25 to 50 ms an attempt)


def test_a_strangers_name_made_distinct_among_many_costs_little() -> None:
    name = "Abcdefghijklmnopqrstuvwx"
    taken = [name] + [f"{name[:22]} {n}" for n in range(2, 10)] \
        + [f"{name[:21]} {n}" for n in range(10, 99)]
    distinct_name(name, taken)  # (the keys of the names at the table are kept)
    started = time.thread_time()
    assert distinct_name(name, taken) == f"{name[:21]} 99"
    assert time.thread_time() - started < 0.1  # (main: 0.5 to 2 s)


def test_a_long_emoji_name_made_distinct_among_96_costs_little() -> None:
    """A watch request's name is made distinct among up to 170 names known at the
    table; one whose ``name 2`` to ``name 96`` are taken judged each of them again
    (main: 0.16 s of the loop a request, load 13)."""
    name = clean_name(LONG[0])
    taken = [name]
    for number in range(2, 97):
        base = name
        while True:
            try:
                taken.append(clean_name(f"{base} {number}"))
                break
            except TableError:
                base = base[:-1].rstrip()
    distinct_name(name, taken)
    started = time.thread_time()
    assert distinct_name(name, taken) == clean_name(f"{name[:-2]} 97")
    assert time.thread_time() - started < 0.03
