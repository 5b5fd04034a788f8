"""One model of a table session (R-C-12): the web table and :mod:`rollem.table` agree.

The web table stores its session (seat rows, the session's JSON) and decides
through :meth:`Dealer.session_table`, a :class:`rollem.table.Table`.  Here
(1) for any seats, stacks, seats sitting out or waiting, last button and
games, the web table, the terminal's table and the rule written out by hand
name the same seats dealt in, the same next button and the same games that
fit; (2) a web table played on a virtual clock for a dozen hands (people who
never act, computer players, rebuys, dealer's choice) dealt every stored hand
as the terminal's model deals it: seats, button, stacks, carried chips; the
model's hand, given the stored shuffles and actions, ends as stored; and the
model ends with the same stacks and chips brought.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from virtual_table import InlineExecutor, InlineStore, VirtualLoop

from rollem.bots import make_bot
from rollem.engine.randomness import SeededSource
from rollem.games import get
from rollem.server import live_table
from rollem.server.config import parse_config
from rollem.server.game_session import GameSession, _ResumeSource, action_from_wire, games_for
from rollem.server.live_table import Client, LiveTable
from rollem.server.store import SeatRow
from rollem.table import DEALERS_CHOICE, Table

GAMES = ["sdr", "rollyourown", "rollem521", "holdem", "razz", "omaha"]


class _NoStore:
    """Enough of a store for a table that is only asked questions."""

    def stream(self, table_id: str) -> None:
        return None


def _row(seat: int, stack: int, bot: bool) -> SeatRow:
    return SeatRow(seat=seat, name=f"P{seat}", token_digest=None if bot else f"d{seat}",
                   bot="random" if bot else None, stack=stack, brought=100, bank=0.0,
                   joined_hand=0)


def _rule_button(dealt: list[int], last: int | None, seats: int) -> int:
    """R-C-12 by hand: the first hand's button is the lowest seat dealt in; then
    the next seat dealt in on the left of the last button."""
    if last is None:
        return min(dealt)
    for i in range(1, seats + 1):
        if (last + i) % seats in dealt:
            return (last + i) % seats
    raise AssertionError("no seat dealt in")


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_web_table_and_terminal_table_agree_on_button_seats_and_games(
        data: st.DataObject) -> None:
    choices = data.draw(st.lists(st.sampled_from(GAMES), min_size=1, max_size=4, unique=True))
    game = data.draw(st.sampled_from([DEALERS_CHOICE, "sdr", "rollyourown", "holdem"]))
    # A table has at most as many seats as its largest game deals in.
    most = max(get(g).max_players for g in (choices if game == DEALERS_CHOICE else [game]))
    seats = data.draw(st.integers(2, most))
    taken = data.draw(st.lists(st.integers(0, seats - 1), unique=True, max_size=seats))
    stacks = {s: data.draw(st.sampled_from([0, 0, 5, 100])) for s in taken}
    sitting_out = data.draw(st.lists(st.sampled_from(taken), unique=True)) if taken else []
    last = data.draw(st.none() | st.integers(0, seats - 1))
    config = parse_config({"game": game, "seats": seats, "choices": list(choices),
                           "bots": 0})
    session: dict[str, Any] = {"started": True, "hand_no": 3, "in_hand": False,
                               "button": last, "choice": None, "carried": 0,
                               "departed": [], "seq": 0, "sitting_out": sitting_out[1:],
                               "waiting": sitting_out[:1]}
    web = LiveTable(_NoStore(), "t", config, session, "h",  # type: ignore[arg-type]
                    [_row(s, stacks[s], s % 2 == 1) for s in taken])

    dealt = sorted(s for s in taken if stacks[s] > 0 and s not in sitting_out)
    assert web.dealer.dealt_in() == dealt
    # The terminal's table: the same seats with chips dealt in (the others hold none).
    terminal = Table([stacks[s] if s in dealt else 0 for s in range(seats)],
                     game=game, games=choices, button=0 if last is None else last + 1)
    assert terminal.dealt_in() == dealt
    fits = [g for g in choices if (lambda g: g.min_players <= len(dealt) <= g.max_players)(
        config.game_of(g))]
    # (the terminal's in the usual order, our three first: s71; it was by id)
    usual = ["sdr", "rollyourown", "rollem521", "holdem", "omaha", "omaha8", "stud", "stud8",
             "razz", "draw5", "deuces-wild"]
    assert [g.id for g in terminal.games_that_fit(len(dealt))] == sorted(fits, key=usual.index)
    assert games_for(len(dealt), config) == fits  # the web host's order
    if len(dealt) < 2:
        return
    deal = web.dealer.session_table().next_deal()
    assert list(deal.players) == dealt
    assert deal.button == terminal.next_button() == _rule_button(dealt, last, seats)
    ours = [g.id for g in deal.games]
    if game == DEALERS_CHOICE:
        assert ours == fits
    else:
        fixed = config.game_of(game)
        assert ours == ([game] if fixed.min_players <= len(dealt) <= fixed.max_players else [])
    assert sorted(ours) == sorted(g.id for g in terminal.playable(len(dealt)))


def test_a_web_session_deals_every_hand_as_the_terminal_model() -> None:
    folder = Path(tempfile.mkdtemp(prefix="rollem-model-"))
    loop = VirtualLoop()
    saved = (live_table._BOT_THREAD, LiveTable.__dict__.get("clock"),
             live_table.committed_source, live_table.pick_bot_game,
             LiveTable.__dict__["bot_factory"])
    bot_seeds = random.Random(5)  # each computer player seat its own seeded bot
    LiveTable.bot_factory = staticmethod(  # type: ignore[assignment]
        lambda level: make_bot(level, random.Random(bot_seeds.getrandbits(64))))
    seeded = random.Random(3)
    picks = random.Random(4)
    live_table.pick_bot_game = lambda games, _proof: picks.choice(sorted(games))
    live_table._BOT_THREAD = InlineExecutor()  # type: ignore[assignment]
    LiveTable.clock = staticmethod(loop.time)  # type: ignore[assignment]
    # (people here send no client seed: the committed deal needs no wait, issue 32)
    seed_wait, LiveTable.CLIENT_SEED_WAIT = LiveTable.CLIENT_SEED_WAIT, 0.0
    live_table.committed_source = lambda proof: SeededSource(seeded)  # type: ignore[assignment,misc]
    store = InlineStore(folder / "t.db")
    try:
        config = parse_config({
            "game": DEALERS_CHOICE, "seats": 6, "bots": 3, "stack": 6, "ante": 1,
            "small_bet": 2, "big_bet": 4, "decision_seconds": 1.0, "time_bank_seconds": 0.0,
            "grace_seconds": 1000.0, "between_hands": 0.5, "bot_delay": 0.0,
            "rebuys": True, "bot_level": "random",
            "away_after": 0,  # (people never act here: away mode off)
        })
        table, _host_token = loop.call(LiveTable.create, store, config)
        host = Client(None, True)
        loop.call(table.connect, host)
        people = []
        for name, seat in (("Ann", 0), ("Bea", 1)):
            _, token = loop.call(table.join, name, seat)
            client = Client(table.seat_for_token(token))
            loop.call(table.connect, client)
            people.append(client)
        loop.call(table.handle, host, live_table.ClientMessage("start", None, table.seq, {}))
        while int(table.session["hand_no"]) < 12 and loop.now < 1_000_000 + 3000:
            loop.advance(1.0)  # people never act: their clocks run out
            for client in table.all_clients():
                client._pending.clear()
            for client in people:  # a broke person rebuys between hands
                seat = client.seat
                assert seat is not None
                if table.hand is None and table.seats[seat].row.stack == 0:
                    loop.call(table.handle, client,
                              live_table.ClientMessage("rebuy", None, table.seq, {}))
        last = int(table.session["hand_no"]) - (1 if table.hand is not None else 0)
        assert last >= 10

        # The terminal's model, fed the same hands and the same rebuys.
        model = Table([6, 6, 0, 6, 6, 6], game=DEALERS_CHOICE, games=config.choices, rebuy=6,
                      auto_rebuy=lambda s: s >= 3, by_id=False,
                      options=GameSession.options_for(config))
        buttons = []
        for hand_no in range(1, last + 1):
            row = store.load_hand(table.id, hand_no)
            assert row is not None and row.result is not None
            setup = row.setup
            for seat in (0, 1):  # the people's rebuys (they asked between hands)
                if model.stacks[seat] == 0 and seat in setup["seats"]:
                    model.rebuy_seat(seat)
            model.rebuy_broke()
            deal = model.next_deal()
            assert list(deal.players) == setup["seats"], hand_no
            assert deal.button == setup["button"], hand_no
            assert setup["game"] in [g.id for g in deal.games]
            assert model.carry == setup["carry_in"]
            assert [model.stacks[s] if s in deal.players else 0 for s in range(6)] == \
                setup["stacks"]
            # The model deals it with the stored shuffles and plays the stored actions.
            actions = store.load_actions(table.id, hand_no)
            outcomes = [(o[0], o[1]) for o in setup["outcomes"]]
            outcomes += [(o[0], o[1]) for a in actions for o in a.events.get("outcomes", [])]
            hand = model.deal(deal, setup["game"], source=_ResumeSource(outcomes))
            for action in actions:
                hand.apply(action.seat, action_from_wire(action.action))
            assert hand.result is not None
            assert hand.result.to_dict() == row.result
            model.end_hand()
            buttons.append(deal.button)
        assert len(set(buttons)) >= 3  # the button went round
        rows = {s: table.seats[s].row for s in table.seats}
        if table.hand is not None or table.session.get("choice"):
            model.rebuy_broke()  # the next deal has begun: its rebuys are done
        for seat in (0, 1):  # a person who rebought after the last hand
            if model.stacks[seat] == 0 and rows[seat].stack > 0:
                model.rebuy_seat(seat)
        assert model.stacks == [rows[s].stack if s in rows else 0 for s in range(6)]
        assert model.brought == [rows[s].brought if s in rows else 0 for s in range(6)]
        if table.hand is None:
            assert model.carry == table.session["carried"]
        assert sum(model.brought) > 30  # someone rebought
        loop.call(table.shutdown)
    finally:
        store.close()
        loop.close()
        (live_table._BOT_THREAD, LiveTable.clock, live_table.committed_source,
         live_table.pick_bot_game, LiveTable.bot_factory) = saved  # type: ignore[assignment]
        LiveTable.CLIENT_SEED_WAIT = seed_wait
        shutil.rmtree(folder, ignore_errors=True)
