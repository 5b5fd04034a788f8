"""Dealing and finishing the hands of a live table: who is dealt in (through
:meth:`LiveTable.session_table`, the one model of the table's rules), the next
deal and its timer, the secure shuffle, settling stacks and carried chips,
rebuys, and why a started table is waiting.

Methods of :class:`~rollem.server.live_table.LiveTable`, written here as
functions of ``self`` and bound in its class body (one class, one state).

Rules: R-C-12 (button, who is dealt in, rebuys, the games that fit),
R-C-13 (a cryptographically secure shuffle), R-521-9 (chips carried into the
next hand); issue 32 (the deck committed before the client seeds, then dealt
from both: :func:`_deal`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rollem.engine.commit_reveal import ZERO_HASH, DealProof, hex_text
from rollem.server import host, host_tools, live_table
from rollem.server.game_session import GameSession
from rollem.server.live_table.errors import TableError
from rollem.table import DEALERS_CHOICE, Deal
from rollem.table import Table as SessionTable
from rollem.table import TableError as SessionRefused

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


def _schedule_next_hand(self: LiveTable, delay: float) -> None:
    """Deal the next hand in ``delay`` seconds (replacing a deal already coming),
    never before the floor on the time per hand allows
    (:meth:`~rollem.server.live_table.pace.Pace.floor_left`, issue 34)."""
    if self._next_hand_timer is not None:
        self._next_hand_timer.cancel()
    self._next_hand_timer = asyncio.get_running_loop().call_later(
        max(delay, self.pace.floor_left()), self._maybe_start_hand
    )


DEAL_SOON = 0.2
"""Seconds from a change that lets a waiting table deal (a join, a rebuy, a
player back, the host's resume, approval or deal now) to the deal."""


def _deal_soon(self: LiveTable) -> None:
    """A change may let a waiting table deal (a player sat down, rebought, came
    back, was approved; the host resumed): deal in :data:`DEAL_SOON` seconds if
    no deal is coming.  The pause between hands already running is never cut
    short by it (issue 34): only the host's ``deal_now`` does
    (:func:`deal_now`)."""
    if (self.session.get("started") and self.hand is None
            and self._next_hand_timer is None):
        self._schedule_next_hand(DEAL_SOON)


def deal_now(self: LiveTable) -> None:
    """The host's "deal now": end the pause between hands and deal in
    :data:`DEAL_SOON` seconds (no sooner than the floor on the time per hand,
    :meth:`floor_left`).  Also deals again at a table that stopped because no
    person played for a while (:meth:`unattended_stop`).

    Raises :class:`TableError`: ``not_started``, ``in_hand`` (a hand is in
    play, or the button is naming its game), ``host_paused`` (resume first).
    """
    if not self.session.get("started"):
        raise TableError("not_started", "the game has not started; start it first")
    if self.hand is not None or self.session.get("choice") or self.session.get("seeding"):
        raise TableError("in_hand", "a hand is in play; deal now ends the pause between hands")
    if self.session.get("host_paused"):
        raise TableError("host_paused", "the table is paused; resume it to deal")
    self.pace.attended()
    self._schedule_next_hand(DEAL_SOON)


def _waiting_for(self: LiveTable, table: SessionTable) -> str | None:
    """Why the session ``table`` cannot deal its next hand, in words for the
    felt; ``None`` when it can: its reasons (R-C-12:
    :meth:`~rollem.table.Table.why_no_deal`), and this table's own -- a storage
    limit reached, or no person played for a while (:meth:`why_stopped`), and
    computer players do not play on alone here."""
    stopped = self.pace.why_stopped()  # a storage limit, or no person plays (issue 34)
    if stopped is not None:
        return stopped
    stopped = self.tourney.waiting()  # over, or a deal being agreed (issue 28)
    if stopped is not None:
        return stopped
    refusal = table.why_no_deal()
    if refusal is not None and refusal.code == "no_players":
        return ("Waiting for players: the next hand needs at least two with chips "
                "who are not sitting out.")
    players = table.dealt_in()
    if all(self.seats[s].row.bot is not None for s in players) and table.tournament is None:
        # (computer players do not play on alone: the table waits for people; a
        # tournament's play the tournament out, issue 28)
        return "Waiting for a person: computer players do not play alone."
    if refusal is not None:
        return (f"Waiting: no game of this table deals {len(players)} players; "
                "one must leave or sit out.")
    return None


def waiting_for(self: LiveTable) -> str | None:
    """Why a started table deals no hand now, or ``None`` (a hand is on, the button
    is naming the game, the host paused it, or the next deal is coming)."""
    if (not self.session.get("started") or self.hand is not None
            or self.session.get("choice") or self.session.get("seeding")
            or self.session.get("host_paused")):
        return None
    table = self.session_table()  # (a copy: the rebuys below are only counted)
    table.rebuy_broke()
    return self._waiting_for(table)


def session_table(self: LiveTable, out: set[int] | None = None) -> SessionTable:
    """This table's session as a :class:`rollem.table.Table`, the one model of
    its rules (R-C-12): who is dealt in, the button, the games that fit, rebuys
    (computer players rebuy by themselves, people ask) and carried chips.

    Built from what is stored (the seats' rows: stacks and chips brought; the
    session: the last button, the chips carried), so a restored table decides
    exactly as before; what it changes is written back by the caller.

    Args:
        out: seats not dealt in (default: free seats, and seats leaving,
            sitting out or waiting for the host's approval).  The button
            goes to the seat after the last hand's button, or the next one
            dealt in.
    """
    config = self.config
    n = config.seats
    rows = {number: seat.row for number, seat in self.seats.items()}
    sit_and_go = self.tourney.tournament()
    if out is None:
        # (a tournament deals its entrants in even while they sit out or are away:
        # their hands are folded and their antes and blinds posted, issue 28)
        out = {s for s in range(n) if s not in rows or self.seats[s].gone
               or (host.skip_deal(self, s) and sit_and_go is None)}
    last = self.session.get("button")
    button = 0 if last is None else int(last) + 1
    table = SessionTable(
        [rows[s].stack if s in rows else 0 for s in range(n)],
        game=(DEALERS_CHOICE if config.game == DEALERS_CHOICE
              else config.game_of(config.game)),
        games=[config.game_of(g) for g in config.choices],
        options=GameSession.options_for(config),
        button=button,
        rebuy=config.stack if config.rebuys else None,
        auto_rebuy=lambda s: s in rows and rows[s].bot is not None,
        out=out,
        brought=[rows[s].brought if s in rows else 0 for s in range(n)],
        carry=int(self.session.get("carried", 0)),
        by_id=False,  # the host's order
        straddlers=[s for s in self.session.get("straddlers", []) if s in rows],
        bomb_pot_every=config.bomb_pot_every,
        bomb_pot_next=bool(self.session.get("bomb_pot_next")),
        bomb_pot_ante=config.bomb_pot_ante or None,
        hands=int(self.session.get("hand_no", 0)),
        tournament=sit_and_go,
    )
    if self.hand is not None:
        table.hand = self.hand.hand
    return table


def dealt_in(self: LiveTable) -> list[int]:
    """Seats to deal the next hand: chips, not leaving (R-C-12)."""
    return self.session_table().dealt_in()


def _maybe_start_hand(self: LiveTable) -> None:
    self._next_hand_timer = None
    if (self.closed or self.saving.halted or not self.session.get("started")
            or self.hand is not None):
        return
    if self.session.get("seeding"):  # the committed deal: the seeds are in, or their time
        if self.session.get("host_paused"):
            self.views.broadcast()  # (dealt at resume)
            return
        self._deal_seeded()
        return
    choice = self.session.get("choice")
    if choice:
        if "game" in choice and not self.session.get("host_paused"):
            self.dealers_choice.choose(choice["game"])  # named during the pause: deal it now
        return
    if self.session.get("host_paused"):
        self.views.broadcast()
        return
    host.apply_pending_config(self)
    table = self.session_table()
    rebought = table.rebuy_broke()  # computer players with no chips
    if rebought:
        for number in rebought:
            row = self.seats[number].row
            row.stack, row.brought = table.stacks[number], table.brought[number]
        self.saving.commit(seats=[self.seats[number].row for number in rebought])
    if self._waiting_for(table) is not None:
        self.views.broadcast()  # (the table's state says what it waits for)
        return
    deal = table.next_deal()
    players = list(deal.players)
    button = deal.button
    self.session["button"] = button
    hand_no = int(self.session["hand_no"]) + 1
    game: str | None = self.config.game
    pick = None
    if game == DEALERS_CHOICE:
        games = [g.id for g in deal.games]
        if len(games) == 1:
            game = games[0]
        elif self.seats[button].row.bot is not None:
            game, pick = None, games  # (picked at random after the client seeds)
        else:
            self.session["choice"] = {
                "hand": hand_no, "seat": button, "games": games, "players": players,
                # who was offered it: a later occupant of the seat is not
                "digest": self.seats[button].row.token_digest,
                # who it was offered for (R-C-12: the games fit them): whoever
                # sits in one of their seats later waits for the next hand
                "digests": [self.seats[s].row.token_digest for s in players],
            }  # fmt: skip
            self.turns.bump_seq()
            self.saving.commit(session=True)
            self.turns.refresh_decisions()
            self.views.broadcast()
            return
    self._deal(hand_no, game, table, deal, pick=pick)


def _deal(self: LiveTable, hand_no: int, game: str | None, table: SessionTable, deal: Deal,
          pick: list[str] | None = None) -> None:
    """Commit to the deck of hand ``hand_no`` (issue 32): a new secret deal key
    chained to the table's last hand (:func:`~rollem.server.game_session.
    new_deal_proof`), stored with the session (``session["seeding"]``) and its
    commitment announced to every client before any client seed is taken;
    each person dealt in then sends a client seed (:func:`take_client_seed`),
    and the hand is dealt (:func:`_deal_seeded`) once all of them have, or
    after :attr:`~rollem.server.live_table.LiveTable.CLIENT_SEED_WAIT`
    seconds with the empty seed for the rest.  The deal is the one the session
    ``table`` offers (R-C-12: its seats dealt in, button), kept like a
    dealer's choice: a seat that leaves meanwhile is not dealt in, a newcomer
    waits for the next hand.

    ``game`` ``None``: the game is picked at random among ``pick`` (the games
    offered, in order: a computer player's or the clock's dealer's choice,
    R-C-12, R-C-15); the commitment covers them, and the pick is made from the
    hand's hash once the client seeds are in (:func:`_deal_seeded`,
    :func:`~rollem.server.game_session.pick_bot_game`), so nobody can steer
    it and every copy shows it (``_pick_games``)."""
    last = self.session.get("hand_hash")
    proof = live_table.new_deal_proof(hand_no, bytes.fromhex(last) if last else ZERO_HASH,
                                      pick if game is None else None)
    players = [int(p) for p in table.still_dealt_in(deal)]  # (not a seat left since)
    self.session["choice"] = None
    self.session["seeding"] = {
        "hand": hand_no, "game": game, "button": deal.button, "players": players,
        "offered": [int(p) for p in deal.players], "games": [g.id for g in deal.games],
        "digests": [self.seats[s].row.token_digest if s in self.seats else None
                    for s in players],
        "commitment": hex_text(proof.commitment),
        "proof": proof.to_json(),  # the secret key: never in a view (public_seeding)
        "until": self.clock() + self.CLIENT_SEED_WAIT,
        "seeds": {},
    }  # fmt: skip
    self.turns.bump_seq()
    self.saving.commit(session=True)  # committed before any client hears of it
    self.turns.refresh_decisions()
    self.views.broadcast()
    if self.CLIENT_SEED_WAIT > 0 and self.seeds_missing():
        self._schedule_next_hand(self.CLIENT_SEED_WAIT)
    else:  # nobody to wait for: dealt now (its state goes out after the commitment's)
        self._deal_seeded()


def public_seeding(self: LiveTable) -> dict[str, Any] | None:
    """The deal waiting for client seeds as every client sees it (issue 32):
    ``hand``, ``commitment`` (64 hex digits), ``players`` (the seats to be
    dealt in), ``seeded`` (those whose seed is in; never the seeds themselves before
    the deal), ``until`` (the moment it deals anyway, on the table's clock),
    ``pick`` (the games offered) when the game is picked at random after the
    seeds; never the key.  ``None`` when none is waiting."""
    seeding = self.session.get("seeding")
    if not seeding:
        return None
    out = {"hand": seeding["hand"], "commitment": seeding["commitment"],
           "players": seeding["players"], "until": seeding["until"],
           "seeded": sorted(int(s) for s in seeding["seeds"])}
    pick = seeding["proof"].get("pick_games")
    if pick:  # the games a random pick is made from, after the seeds (issue 32)
        out["pick"] = list(pick)
    return out


def _seed_senders(self: LiveTable, seeding: dict[str, Any]) -> list[int]:
    """The seats of ``seeding`` that send a client seed: people (not computer
    players) still held by whom the deal was offered to."""
    return [s for s in seeding["players"]
            if s in self.seats and self.seats[s].row.bot is None
            and not self.seats[s].gone and not self.dealers_choice.taken_since(seeding, s)]


def seeds_missing(self: LiveTable) -> bool:
    """Whether a connected person dealt in has not sent its client seed yet
    (the deal waits for it, at most :attr:`CLIENT_SEED_WAIT` seconds; one who
    is away is not waited for)."""
    seeding = self.session.get("seeding")
    if not seeding:
        return False
    return any(str(s) not in seeding["seeds"] and self.seats[s].connected
               for s in self._seed_senders(seeding))


def take_client_seed(self: LiveTable, seat: int, hand_no: int, seed: str) -> None:
    """Seat ``seat``'s client seed for hand ``hand_no`` (issue 32; ``seed``
    already checked by the protocol, :func:`~rollem.engine.commit_reveal.
    check_client_seed`): one a seat a hand, only between the commitment and
    the deal; deals at once when the last person's is in.

    Raises :class:`TableError`: ``too_late`` (the hand is dealt), ``wrong_hand``
    (no deal of that hand waits for seeds), ``not_dealt_in``, ``already_sent``.
    """
    seeding = self.session.get("seeding")
    if not seeding or int(seeding["hand"]) != hand_no:
        if (self.hand is not None and self.hand.hand_no == hand_no) or (
                self.final_hand is not None and self.final_hand.hand_no == hand_no):
            raise TableError("too_late", f"hand {hand_no} is already dealt: a client seed is "
                             "taken only between the commitment and the deal")
        waiting = f"; hand {seeding['hand']} is" if seeding else ""
        raise TableError("wrong_hand", f"no deal of hand {hand_no} is waiting for client "
                         f"seeds{waiting}")
    if seat not in self._seed_senders(seeding):
        raise TableError("not_dealt_in", f"seat {seat} is not dealt into hand {hand_no}")
    if str(seat) in seeding["seeds"]:
        raise TableError("already_sent", f"seat {seat} has already sent its client seed for "
                         f"hand {hand_no}; it is fixed for the hand")
    seeding["seeds"][str(seat)] = seed
    self.saving.commit(session=True)
    if not self.seeds_missing():
        self._schedule_next_hand(0.0)
    else:
        self.views.broadcast()  # (who has sent: ``table.deal.seeded``)


def _deal_seeded(self: LiveTable) -> None:
    """Deal the committed hand waiting for seeds (``session["seeding"]``) from
    its committed deck and the client seeds in (the empty seed for every other
    seat dealt in); see :func:`_deal`.  With fewer than two players left it
    lapses and the table deals again when it can."""
    seeding = self.session["seeding"]
    self.session["seeding"] = None
    offered = Deal(int(seeding["button"]), tuple(int(p) for p in seeding["offered"]),
                   tuple(self.config.game_of(g) for g in seeding["games"]))
    table = self.session_table(
        out={s for s in range(self.config.seats) if s not in self.seats
             or s not in seeding["players"] or self.dealers_choice.taken_since(seeding, s)
             or self.seats[s].gone
             # (a tournament deals its entrants in even while away, issue 28)
             or (host.skip_deal(self, s) and self.tourney.tournament() is None)})
    players = table.still_dealt_in(offered)
    if len(players) < 2:
        self.turns.bump_seq()
        self.saving.commit(session=True)
        self.turns.refresh_decisions()
        self.views.broadcast()
        self._schedule_next_hand(self.config.between_hands)
        return
    hand_no = int(seeding["hand"])
    seeds = {s: str(seeding["seeds"].get(str(s), "")) for s in players}
    proof = DealProof.from_json(seeding["proof"]).with_client_seeds(seeds)
    game = str(seeding["game"]) if seeding["game"] is not None else \
        live_table.pick_bot_game(list(proof.pick_games), proof.hand_hash())
    try:
        source = live_table.committed_source(proof)
        dealt = table.deal(offered, self.config.game_of(game), source=source)
        options = replace(GameSession.options_for(self.config),  # this hand's own:
                          straddlers=dealt.options.straddlers,  # (issue 27)
                          bomb_pot=dealt.options.bomb_pot,
                          ante=dealt.options.ante,  # (a tournament's level, issue 28)
                          small_bet=dealt.options.small_bet, big_bet=dealt.options.big_bet)
        hand = GameSession.of_hand(hand_no, dealt, players, source,
                                   options, names=self.views.names(),
                                   level=self.tourney.level(table))
    except Exception:  # the engine refused the deal: say so, try again later
        log.exception("table %s: cannot deal hand %s of %s", self.id, hand_no, game)
        self.turns.bump_seq()
        self.saving.commit(session=True)
        self.turns.refresh_decisions()
        self.views.broadcast()
        self._schedule_next_hand(max(1.0, self.config.between_hands))
        return
    self.hand = hand
    self.pace.dealt_now()  # (the floor on the time per hand counts from here)
    self.session.update(hand_no=hand_no, in_hand=True, button=table.button,
                        carried=table.carry, bomb_pot_next=table.bomb_pot_next,
                        hand_hash=proof.hand_hash().hex(),
                        # who sat out at the deal: what a delayed watcher sees (issue 27)
                        out_at_deal={k: sorted(self.session.get(k, []))
                                     for k in ("sitting_out", "idle_away")})
    self.turns.bump_seq()
    self.saving.write(session=self.session, new_hand=(hand_no, hand.setup))
    if hand.over:
        self._finish_hand()
        return
    self.turns.refresh_decisions()
    self.views.broadcast()


def _finish_hand(self: LiveTable) -> None:
    hand = self.hand
    assert hand is not None and hand.over
    result = hand.result()
    table = self.session_table()
    table.settle(hand.hand)  # stacks of the seats dealt in, carried chips
    changed = []
    for number in hand.seats:
        if number in self.seats:
            self.seats[number].row.stack = table.stacks[number]
            changed.append(self.seats[number].row)
    self.session.update(in_hand=False, carried=table.carry)
    self.tourney.save(table)  # bust-outs, the end (issue 28)
    self.hand = None  # (a deal proposed during the hand is worked out now)
    self.tourney.hand_ended()
    self.last_result = {"hand": hand.hand_no, "game": hand.game, **result}
    self.session["last_result"] = self.last_result
    self.turns.bump_seq()
    self.session["ended_seq"] = self.seq  # (what a delayed watcher is told next hand)
    self.saving.write(session=self.session, seats=changed, hand_result=(hand.hand_no, result))
    self.hand = None
    self.final_hand = hand
    for number in [n for n, s in self.seats.items() if s.gone]:
        self.seating.free_seat(number)
    self.turns.refresh_decisions()
    self.views.broadcast()
    self._schedule_next_hand(self.config.between_hands)


def _rebuy(self: LiveTable, seat: int, *, by_host: bool = False,
           approved: bool = False) -> None:
    """A player with no chips buys the starting stack again (R-C-12), under the
    table's rebuy rules (issue 27, :func:`rollem.server.host_tools.rebuy_policy`:
    the cap; at a table with ``rebuy_approval`` a request the host answers, made
    when ``approved``, or at once for the host's own seat, ``by_host``).

    Raises :class:`TableError`: ``no_rebuys``, ``in_hand``, ``has_chips``,
    ``rebuy_cap``, ``already_asked``, ``over`` (the tournament is over); nothing
    changes."""
    if (self.session.get("tournament") or {}).get("over"):
        raise TableError("over", "the tournament is over")
    row = self.seats[seat].row
    table = self.session_table()
    try:
        table.rebuy_seat(seat)  # R-C-12: the host may allow rebuys
    except SessionRefused as err:
        raise TableError(err.code, str(err)) from None
    if row.bot is None:
        if host_tools.rebuy_policy(self, seat, by_host or approved):
            self.session.setdefault("rebuy_requests", []).append(seat)
            self.turns.bump_seq()
            self.saving.commit(session=True)
            self.views.broadcast()
            return
        host_tools.note_rebuy(self, seat)
    row.stack, row.brought = table.stacks[seat], table.brought[seat]
    self.tourney.save(table)  # a rebuy in the first levels (issue 28)
    if self.hand is not None and not self.hand.over:
        self.seats[seat].rebought_in = self.hand.hand_no
    self.turns.bump_seq()
    self.saving.commit(seats=[row], session=True)
    self.views.broadcast()
    self._deal_soon()
