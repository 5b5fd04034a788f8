"""What new users and a hostile stranger found at the web table (try-out of
stop 42, docs/dev/hostile.md): each test fails on the code before its fix."""

from __future__ import annotations

import httpx
from web_harness import ServerThread, create_table, host_cookie


def _ask(server: ServerThread, tid: str, address: str, name: str) -> httpx.Response:
    """One stranger's first ask to watch (no cookie yet), from ``address`` (through
    the trusted local proxy's ``X-Forwarded-For``)."""
    return httpx.post(f"{server.url}/api/tables/{tid}/watch", json={"name": name},
                      headers={"X-Forwarded-For": address})


def test_watch_requests_of_one_name_are_told_apart(server: ServerThread) -> None:
    """Two strangers asking to watch as "Dad", or one asking as Ann who sits at the
    table, were listed to the host under the very names: the host could not tell
    them apart, and might let in a stranger for Ann's second device.  Now a
    request's name is made distinct from every name known there (seated and
    departed players, requests waiting, approved watchers), as a newcomer's seat
    name is."""
    tid, host = create_table(server.url, game="sdr", seats=4, bots=1, private=True)
    sat = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Ann"},
                     cookies={host_cookie(tid): host})
    assert sat.status_code == 200, sat.text
    for i, name in enumerate(["Dad", "Dad", "DAD", "ann", "Dad 2"]):
        answer = _ask(server, tid, f"10.{i}.0.1", name)
        assert answer.json() == {"watch": "waiting"}, answer.text
        assert "Ann" not in answer.text
    table = server.manager.get(tid)
    names = [r["name"] for r in table.session["watch_requests"]]
    assert names == ["Dad", "Dad 2", "DAD 3", "ann 2", "Dad 2 2"]


def test_a_player_gone_from_a_private_table_keeps_their_own_hands(
        server: ServerThread) -> None:
    """Bob plays hand 1 and leaves (the host's removal frees a seat the same way);
    the host makes the table private.  His own copies (the hand list, the replay,
    history.toml, verify, the session's .phhs) were all refused 403 ``private``:
    he was locked out of the hands he played.  Now he gets his own hands and
    nothing more, and a stranger's cookie is still told nothing, whatever hand
    number it asks for."""
    import asyncio

    from test_seat_lifecycle import _ann_and_bob, _bob_plays_hand_1_and_leaves
    from web_harness import Player

    tid, host, t0, s1, t1 = _ann_and_bob(server, seats=3)

    async def run() -> None:
        async with Player(server.ws_url, tid, t0, host) as a:
            await _bob_plays_hand_1_and_leaves(server, a, tid, s1, t1)
            await a.send({"type": "host", "op": "config", "config": {"private": True}})
            await a.until(lambda st: st["table"]["config"]["private"])

    asyncio.run(run())
    base = f"{server.url}/api/tables/{tid}"
    bobs = {f"rollem_seat_{tid}": t1}
    listing = httpx.get(f"{base}/hands", cookies=bobs)
    assert listing.status_code == 200, listing.text
    assert [h["hand"] for h in listing.json()["hands"]] == [1]
    assert listing.json()["hands"][0]["net"] is not None
    frames = httpx.get(f"{base}/hands/1", cookies=bobs)
    assert frames.status_code == 200 and frames.json()["seat"] == s1
    copy = httpx.get(f"{base}/hands/1/history.toml", cookies=bobs)
    assert copy.status_code == 200 and f"_redacted_for = {s1}" in copy.text
    verdict = httpx.get(f"{base}/hands/1/verify", cookies=bobs)
    assert verdict.status_code == 200 and verdict.json()["seat"] == s1
    session = httpx.get(f"{server.url}/api/tables/{tid}/history.phhs", cookies=bobs)
    assert session.status_code == 200 and "[1]" in session.text
    # What is not his stays closed to him: the table's other lists.
    for path in ("stats", "ledger.csv", "hands.csv"):
        assert httpx.get(f"{base}/{path}", cookies=bobs).status_code == 403
    # A stranger (no cookie, or a made-up one) learns nothing, not even which
    # hand numbers exist.
    for cookies in ({}, {f"rollem_seat_{tid}": "x" * 32}):
        answers = [httpx.get(f"{base}/{path}", cookies=cookies) for path in (
            "hands", "hands/1", "hands/1/history.toml", "hands/1/verify", "hands/999",
            "hands/abc", "hands/0/verify")]
        answers.append(httpx.get(f"{server.url}/api/tables/{tid}/history.phhs",
                                 cookies=cookies))
        assert {(a.status_code, a.json()["error"]) for a in answers} == {(403, "private")}


def test_a_house_option_of_no_game_dealt_is_refused() -> None:
    """``{"game": "holdem", "house": {"wild_duplicates": true}}`` made a hold'em table
    whose settings said wild cards may duplicate: an option that did nothing, taken
    silently (``rollem play`` refuses such a flag, issue 33).  Now it is refused,
    naming the option, the games and their own options; an option at its default
    (the lobby sends every box) and ``cap_heads_up`` (every game's) still pass, and
    a stored table's settings are read as they were."""
    import pytest

    from rollem.server.config import ConfigError, parse_config

    with pytest.raises(ConfigError) as refused:
        parse_config({"game": "holdem", "house": {"wild_duplicates": True}})
    assert str(refused.value) == (
        "house option wild_duplicates does nothing at a table dealing holdem: leave it off "
        "(their house options: none; cap_heads_up holds for every game)")
    with pytest.raises(ConfigError) as refused:
        parse_config({"game": "dealers-choice", "choices": ["holdem", "sdr"],
                      "house": {"natural_beats_wild": True}})
    assert "dealing holdem, sdr: leave it off (their house options: burn_before_roll;" in str(
        refused.value)
    form = {"cap_heads_up": False, "burn_before_roll": False, "wild_duplicates": False,
            "natural_beats_wild": False, "bet_after_declare": False,
            "failed_both_rule": "carry"}
    assert parse_config({"game": "holdem", "house": form}).house == form
    stored = parse_config({"game": "holdem", "house": {"wild_duplicates": True}}, strict=False)
    assert stored.house == {"wild_duplicates": True}
