"""Seat lifecycle (issue 13): a seat's new occupant sees only hands that
occupant was dealt into; any other hand it sees as a watcher does."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest
from web_harness import Player, ServerThread, create_table, join, only_betting_bots

from rollem.cards import CARDS


def _ann_and_bob(server: ServerThread, seats: int) -> tuple[str, str, str, int, str]:
    """A Stop, Drop and Roll table with one computer player that bets whenever it can
    (so the people, whose clocks check or fold, fold their cards unseen), fast clocks
    and a short grace; Ann and Bob sit. Returns (table id, host token, Ann's token,
    Bob's seat, Bob's token)."""
    tid, host = create_table(server.url, game="sdr", seats=seats, bots=1, bot_delay=0.0,
                             decision_seconds=0.1, time_bank_seconds=0, grace_seconds=0.05,
                             between_hands=120)
    only_betting_bots(server, tid)
    (_s0, t0), (s1, t1) = join(server.url, tid, "Ann"), join(server.url, tid, "Bob")
    return tid, host, t0, s1, t1


async def _bob_plays_hand_1_and_leaves(server: ServerThread, a: Player, tid: str, s1: int,
                                       t1: str) -> None:
    """Ann (``a``, the host) deals; Bob plays from his own tab and closes it: his seat
    is freed once hand 1 is over."""
    async with Player(server.ws_url, tid, t1) as b:
        await b.until(lambda st: st["you"]["seat"] == s1)
        await a.until(lambda st: st["you"]["host"])
        await a.send({"type": "start", "seq": a.state["seq"]})
        await b.until(lambda st: st["hand"] is not None)
    await a.until(lambda st: st["hand"] is not None and st["hand"]["result"] is not None
                  and st["table"]["seats"][s1]["free"], timeout=30)


def test_new_occupant_never_sees_the_previous_occupants_hand(server: ServerThread) -> None:
    """Bob leaves mid-hand; his seat is freed when the hand ends; Eve sits in it
    while the finished hand is still on the felt.  Eve's state shows that hand
    exactly as a watcher's does (not Bob's hole cards, not his events), her
    hand list shows none of Bob's results, and the history endpoint refuses."""
    tid, host, t0, s1, t1 = _ann_and_bob(server, seats=3)

    async def run() -> None:
        async with Player(server.ws_url, tid, t0, host) as a:
            await _bob_plays_hand_1_and_leaves(server, a, tid, s1, t1)
            final = server.manager.get(tid).final_hand
            bob_cards = {str(CARDS[c]) for c in final.hand.hole[s1]}
            shown = {str(CARDS[c]) for c in final.hand.result.shown_cards.get(s1, ())}
            face_up = {str(CARDS[c]) for c, up in zip(final.hand.hole[s1], final.hand.up[s1],
                                                      strict=True) if up}  # everyone saw these
            private = bob_cards - shown - face_up
            # Bob folded to the computer player's bet: his cards were never shown. (With
            # a random computer player that checked all four rounds, 1 hand in 16, Bob
            # reached the showdown and nothing below was checked of hidden cards.)
            assert len(bob_cards) >= 2 and private == bob_cards
            async with Player(server.ws_url, tid) as w:
                await w.until(lambda st: True)
                s_eve, t_eve = join(server.url, tid, "Eve", s1)
                assert s_eve == s1
                table = server.manager.get(tid)
                # At once (before the next deal): hand 1 on the felt, Eve sees it as a watcher.
                seen = server.call(lambda: (table.hand, table.state(s1)["hand"],
                                            table.state(None)["hand"]))
                assert seen[0] is None and seen[1]["hand_no"] == 1 and seen[1] == seen[2]
                async with Player(server.ws_url, tid, t_eve) as e:
                    est = await e.until(lambda st: st["you"]["seat"] == s1
                                        and not st["table"]["seats"][s1]["free"])
                    if est["hand"]["hand_no"] == 1:  # (unless hand 2 was dealt already)
                        wst = await w.until(lambda st: st["seq"] == est["seq"])
                        assert est["hand"] == wst["hand"]
                        # The hand's story names the player it was dealt to, not Eve.
                        told = " ".join(line["text"] for line in est["hand"]["narration"])
                        assert "Bob" in told and "Eve" not in told
                        for card in private:  # as a card token (not inside an id)
                            assert not re.search(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])",
                                                 e.raw[0]), card
                    # Nor can she show Bob's folded cards to the table (R-C-11: only the
                    # player dealt the cards shows them); the refusal names none of them.
                    for cards in ([next(iter(bob_cards))], sorted(private)):
                        if est["hand"]["hand_no"] == 1:
                            await e.send({"type": "show", "hand": 1, "cards": cards})
                            err = await e.until_error()
                            assert err["code"] == "not_dealt", err
                            assert not any(card in err["message"] for card in bob_cards)
            # Her hand list holds no result of Bob's; the history is refused.
            cookies = {f"rollem_seat_{tid}": t_eve}
            listing = httpx.get(f"{server.url}/api/tables/{tid}/hands", cookies=cookies).json()
            assert listing["hands"][0]["hand"] == 1 and listing["hands"][0]["net"] is None
            frames = httpx.get(f"{server.url}/api/tables/{tid}/hands/1", cookies=cookies).json()
            assert frames["seat"] is None
            r = httpx.get(f"{server.url}/api/tables/{tid}/hands/1/history.toml", cookies=cookies)
            assert r.status_code == 403
            # Bob, gone from the table, still replays and downloads the hand he played.
            bobs = {f"rollem_seat_{tid}": t1}
            listing = httpx.get(f"{server.url}/api/tables/{tid}/hands", cookies=bobs).json()
            assert listing["hands"][0]["net"] is not None
            frames = httpx.get(f"{server.url}/api/tables/{tid}/hands/1", cookies=bobs).json()
            assert frames["seat"] == s1
            r = httpx.get(f"{server.url}/api/tables/{tid}/hands/1/history.toml", cookies=bobs)
            assert r.status_code == 200 and f"_redacted_for = {s1}" in r.text
            assert all(card in r.text for card in bob_cards)

    asyncio.run(run())


@pytest.mark.parametrize("how", ["remove", "reject"])
def test_a_freed_seats_open_connection_becomes_a_watcher(server: ServerThread, how: str) -> None:
    """Mallory's seat is freed while her tab stays open (the host removes her, or
    turns her join down); Vic sits in that seat and is dealt in.  Mallory's open
    connection must not see Vic's hole cards nor act for him: it is a watcher."""
    tid, host = create_table(server.url, game="sdr", seats=3, bots=0, decision_seconds=60,
                             between_hands=60)
    _s0, t0 = join(server.url, tid, "Ann")

    async def run() -> None:
        async with Player(server.ws_url, tid, t0, host) as a:
            await a.until(lambda st: st["you"]["host"])
            if how == "reject":
                await a.send({"type": "host", "op": "approve_joins", "on": True})
                await a.until(lambda st: st["table"]["approve_joins"])
            s1, t1 = join(server.url, tid, "Mallory")
            async with Player(server.ws_url, tid, t1) as m:
                await m.until(lambda st: st["you"]["seat"] == s1)
                if how == "reject":
                    await a.until(lambda st: s1 in st["table"]["waiting"])
                    await a.send({"type": "host", "op": "reject", "seat": s1})
                else:  # (only a player sitting out or away may be removed)
                    await m.send({"type": "sit_out", "out": True})
                    await a.until(lambda st: s1 in st["table"]["sitting_out"])
                    await a.send({"type": "host", "op": "remove", "seat": s1})
                # She is told at once that she watches now.
                await m.until(lambda st: st["you"]["seat"] is None
                              and st["table"]["seats"][s1]["free"])
                assert not m.state["you"]["host"]
                s2, t2 = join(server.url, tid, "Vic", s1)
                assert s2 == s1
                async with Player(server.ws_url, tid, t2) as v:
                    await v.until(lambda st: st["you"]["seat"] == s1)
                    if how == "reject":
                        await a.until(lambda st: s1 in st["table"]["waiting"])
                        await a.send({"type": "host", "op": "approve", "seat": s1})
                        await a.until(lambda st: s1 not in st["table"]["waiting"])
                    await a.send({"type": "start", "seq": a.state["seq"]})
                    vst = await v.until(lambda st: st["hand"] is not None
                                        and all(st["hand"]["seats"][s1]["cards"]))
                    vic_cards = vst["hand"]["seats"][s1]["cards"]
                    await m.send({"type": "sync"})
                    mst = await m.until(lambda st: st["hand"] is not None)
                    assert mst["you"]["seat"] is None
                    # A card as a word of its own: "2c" and "9d" are also hex digits,
                    # found inside the deal's commitments by chance.
                    assert not any(re.search(rf"(?<![0-9A-Za-z]){c}(?![0-9A-Za-z])",
                                             m.raw[-1]) for c in vic_cards if c)
                    await m.send({"type": "action", "hand": 1, "seq": mst["seq"],
                                  "action": {"kind": "fold"}})
                    err = await m.until_error()
                    assert err["code"] == "not_seated", err
                    await v.send({"type": "sync"})
                    vst = await v.until(lambda st: st["seq"] >= mst["seq"])
                    assert not vst["hand"]["seats"][s1]["folded"]

    asyncio.run(run())


def test_a_returning_player_keeps_the_hands_played_before_leaving(server: ServerThread) -> None:
    """Bob plays hand 1, leaves (his seat is freed after the hand) and sits down again
    from the same browser: with the new seat cookie he still replays and downloads
    hand 1 as his own (the stints follow the person)."""
    tid, host, t0, s1, t1 = _ann_and_bob(server, seats=4)

    async def run() -> None:
        async with Player(server.ws_url, tid, t0, host) as a:
            await _bob_plays_hand_1_and_leaves(server, a, tid, s1, t1)

    asyncio.run(run())
    back = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Bob"},
                      cookies={f"rollem_seat_{tid}": t1})
    assert back.status_code == 200, back.text
    t1_new = back.cookies[f"rollem_seat_{tid}"]
    assert t1_new != t1
    cookies = {f"rollem_seat_{tid}": t1_new}
    frames = httpx.get(f"{server.url}/api/tables/{tid}/hands/1", cookies=cookies).json()
    assert frames["seat"] == s1
    r = httpx.get(f"{server.url}/api/tables/{tid}/hands/1/history.toml", cookies=cookies)
    assert r.status_code == 200 and f"_redacted_for = {s1}" in r.text
    # The old cookie no longer names him: it is nobody's now.
    old = httpx.get(f"{server.url}/api/tables/{tid}/hands/1/history.toml",
                    cookies={f"rollem_seat_{tid}": t1})
    assert old.status_code == 403
