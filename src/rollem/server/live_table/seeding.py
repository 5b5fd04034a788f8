"""The secure deal of a live table (issue 32): the deck is committed to
before any client seed is taken, each person dealt in sends a client seed,
and the hand is dealt from both.  :class:`Seeding` is the table's part
that runs it.

Rules: R-C-13 (a cryptographically secure shuffle), R-C-12 (who is dealt
in: the deal offered, less seats that left), R-C-15 (a random pick of a
lapsed dealer's choice, made after the seeds).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rollem.engine.commit_reveal import ZERO_HASH, DealProof, hex_text
from rollem.engine.hand import Hand
from rollem.engine.randomness import RandomSource
from rollem.server import host, live_table, seat_moves
from rollem.server.game_session import GameSession
from rollem.server.live_table.errors import TableError, fault_without_cards
from rollem.table import Deal
from rollem.table import Table as SessionTable

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


def out_at_deal(live: LiveTable) -> dict[str, list[int]]:
    """Who sits out of table ``live`` now (``sitting_out``, ``idle_away``, and of
    those ``away_closed`` and ``away_unseen``: seat numbers), as a delayed watcher
    is shown them while a hand is on (issue 27).  The away lists too (s59-safe):
    the clock acting for a seat whose pages are closed, a check or a fold of the
    hand in play, puts it in ``away_unseen`` at once; shown live, a delayed
    watcher was sent a new state naming that seat mid-hand."""
    return {k: sorted(live.session.get(k, []))
            for k in ("sitting_out", "idle_away", "away_closed", "away_unseen")}


def note_offered(live: LiveTable, hand_no: int) -> None:
    """Hand ``hand_no`` is offered (its game named by the button, or its deal
    committed): the seats held now and by whom (``session["seated_at_offer"]``:
    ``{"hand": N, "seats": {seat: token digest}}``), once a hand.  One who sits
    down later is not shown that hand before it ends at a delayed table
    (:func:`rollem.server.host_tools.delayed_viewer`, issue 27)."""
    kept = live.session.get("seated_at_offer")
    if kept and int(kept.get("hand", -1)) == hand_no:
        return
    live.session["seated_at_offer"] = {
        "hand": hand_no,
        "seats": {str(s): seat.row.token_digest for s, seat in live.seats.items()}}


class Seeding:
    """The deal of one table waiting for client seeds (issue 32).

    Its state is stored, in the table's session: ``session["seeding"]`` (see
    :class:`~rollem.server.live_table.LiveTable`); it keeps none in memory.
    In these methods ``live`` is the table (``table`` names the session's
    :class:`rollem.table.Table`).

    Takes from its ``table``: ``id``, ``config``, ``session``, ``seats``,
    ``hand``, ``final_hand``, ``clock`` and ``CLIENT_SEED_WAIT`` (a class
    setting tests replace); sets ``table.hand`` when it deals; the engine
    hooks ``live_table.new_deal_proof``, ``live_table.committed_source`` and
    ``live_table.pick_bot_game`` (looked up at call time: tests replace
    them); schedules with ``table.dealer``, opens decisions with
    ``table.turns``, counts the deal with ``table.pace``, writes with
    ``table.saving``, tells with ``table.views``.
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table

    def commit_deal(self, hand_no: int, game: str | None, table: SessionTable, deal: Deal,
                    pick: list[str] | None = None) -> None:
        """Commit to the deck of hand ``hand_no`` (issue 32): a new secret deal key
        chained to the table's last hand (:func:`~rollem.server.game_session.
        new_deal_proof`), stored with the session (``session["seeding"]``) and its
        commitment announced to every client before any client seed is taken;
        each person dealt in then sends a client seed (:meth:`take_client_seed`),
        and the hand is dealt (:meth:`deal_seeded`) once all of them have, or
        after :attr:`~rollem.server.live_table.LiveTable.CLIENT_SEED_WAIT`
        seconds from the moment the commitment went out (its write committed; at
        most ``CLIENT_SEED_TELL_LIMIT`` more from now) with the empty seed for the
        rest.  The deal is the one the session
        ``table`` offers (R-C-12: its seats dealt in, button), kept like a
        dealer's choice: a seat that leaves meanwhile is not dealt in, a newcomer
        waits for the next hand.

        ``game`` ``None``: the game is picked at random among ``pick`` (the games
        offered, in order: a computer player's or the clock's dealer's choice,
        R-C-12, R-C-15) and the hash of the dealer's secret pick salt, and the
        pick is made from the hand's hash and the salt once the client seeds are
        in (:meth:`deal_seeded`, :func:`~rollem.server.game_session.
        pick_bot_game`), so nobody can steer it (the salt is in no view before
        the deal) and every copy shows it (``_pick_games``, ``_pick_salt``)."""
        live = self.table
        last = live.session.get("hand_hash")
        players = [int(p) for p in table.still_dealt_in(deal)]  # (not a seat left since)
        names = live.views.names()
        # who the deal is for, under the commitment: a player's copies then prove
        # which hands they sat out (those dealt in are the ones with a client seed)
        proof = live_table.new_deal_proof(hand_no, bytes.fromhex(last) if last else ZERO_HASH,
                                          pick if game is None else None,
                                          {s: names[s] for s in players})
        live.session["choice"] = None
        live.session["seeding"] = {
            "hand": hand_no, "game": game, "button": deal.button, "players": players,
            "offered": [int(p) for p in deal.players], "games": [g.id for g in deal.games],
            "digests": [live.seats[s].row.token_digest if s in live.seats else None
                        for s in players],
            "commitment": hex_text(proof.commitment),
            "proof": proof.to_json(),  # the secret key: never in a view (public_seeding)
            # (the moment it deals anyway: from the pages' telling, _told)
            "until": live.clock() + live.CLIENT_SEED_WAIT + live.CLIENT_SEED_TELL_LIMIT,
            "seeds": {},
        }  # fmt: skip
        # who sits out as the deal is committed: what a delayed watcher sees while it
        # waits for seeds (one sitting out meanwhile is not dealt in, issue 27)
        live.session["out_at_deal"] = out_at_deal(live)
        note_offered(live, hand_no)
        live.turns.bump_seq()
        live.saving.commit(session=True)  # committed before any client hears of it
        live.turns.refresh_decisions()
        live.views.broadcast()
        if live.CLIENT_SEED_WAIT > 0 and self.seeds_missing():
            # the wait runs once the pages are told (the commitment's write committed:
            # _told); until then at most CLIENT_SEED_TELL_LIMIT more (``until``)
            live.dealer.schedule_next_hand(live.CLIENT_SEED_WAIT + live.CLIENT_SEED_TELL_LIMIT)
            live.saving.after_sends(functools.partial(self._told, hand_no))
        else:  # nobody to wait for: dealt now (its state goes out after the commitment's)
            self.deal_seeded()

    def _told(self, hand_no: int) -> None:
        """The commitment of hand ``hand_no`` has gone out to the pages (its write
        committed): the seed wait runs from now, :attr:`CLIENT_SEED_WAIT` seconds
        (``until``), if that deal still waits for a seed, but never past the bound
        set at the commitment (``CLIENT_SEED_WAIT + CLIENT_SEED_TELL_LIMIT`` from
        it: s61-hostile2, a write committed 5.9 s late dealt at 7.9 s)."""
        live = self.table
        seeding = live.session.get("seeding")
        if not seeding or int(seeding["hand"]) != hand_no or not self.seeds_missing():
            return
        if live.clock() + live.CLIENT_SEED_WAIT >= float(seeding["until"]):
            return  # (told late: a store that stalls; dealt at its bound, ``until``)
        seeding["until"] = round(live.clock() + live.CLIENT_SEED_WAIT, 3)
        live.dealer.schedule_next_hand(live.CLIENT_SEED_WAIT)

    def public_seeding(self) -> dict[str, Any] | None:
        """The deal waiting for client seeds as every client sees it (issue 32):
        ``hand``, ``commitment`` (64 hex digits), ``players`` (the seats to be
        dealt in), ``seeded`` (those whose seed is in; never the seeds themselves before
        the deal), ``until`` (the moment it deals anyway, on the table's clock),
        ``pick`` (the games offered) when the game is picked at random after the
        seeds; never the key nor the pick salt.  ``None`` when none is waiting."""
        live = self.table
        seeding = live.session.get("seeding")
        if not seeding:
            return None
        out = {"hand": seeding["hand"], "commitment": seeding["commitment"],
               "players": seeding["players"], "until": seeding["until"],
               "seeded": sorted(int(s) for s in seeding["seeds"])}
        pick = seeding["proof"].get("pick_games")
        if pick:  # the games a random pick is made from, after the seeds (issue 32)
            out["pick"] = list(pick)
        return out

    def _seed_senders(self, seeding: dict[str, Any]) -> list[int]:
        """The seats of ``seeding`` that send a client seed: people (not computer
        players) still held by whom the deal was offered to."""
        live = self.table
        return [s for s in seeding["players"]
                if s in live.seats and live.seats[s].row.bot is None
                and not live.seats[s].gone and not live.dealers_choice.taken_since(seeding, s)]

    def seeds_missing(self) -> bool:
        """Whether a connected person dealt in has not sent its client seed yet
        (the deal waits for it, at most :attr:`CLIENT_SEED_WAIT` seconds; one who
        is away is not waited for)."""
        live = self.table
        seeding = live.session.get("seeding")
        if not seeding:
            return False
        return any(str(s) not in seeding["seeds"] and live.seats[s].connected
                   for s in self._seed_senders(seeding))

    def take_client_seed(self, seat: int, hand_no: int, seed: str) -> None:
        """Seat ``seat``'s client seed for hand ``hand_no`` (issue 32; ``seed``
        already checked by the protocol, :func:`~rollem.engine.commit_reveal.
        check_client_seed`): one a seat a hand, only between the commitment and
        the deal; deals at once when the last person's is in.

        Raises :class:`TableError`: ``too_late`` (the hand is dealt), ``wrong_hand``
        (no deal of that hand waits for seeds), ``not_dealt_in``, ``already_sent``.
        """
        live = self.table
        seeding = live.session.get("seeding")
        if not seeding or int(seeding["hand"]) != hand_no:
            if (live.hand is not None and live.hand.hand_no == hand_no) or (
                    live.final_hand is not None and live.final_hand.hand_no == hand_no):
                raise TableError("too_late", f"hand {hand_no} is already dealt: a client seed is "
                                 "taken only between the commitment and the deal")
            waiting = f"; hand {seeding['hand']} is" if seeding else ""
            raise TableError("wrong_hand", f"no deal of hand {hand_no} is waiting for client "
                             f"seeds{waiting}")
        if seat not in self._seed_senders(seeding):
            raise TableError("not_dealt_in", f"seat {seat + 1} is not dealt into hand {hand_no}")
        if str(seat) in seeding["seeds"]:
            raise TableError("already_sent", f"seat {seat + 1} has already sent its client "
                             f"seed for hand {hand_no}; it is fixed for the hand")
        seeding["seeds"][str(seat)] = seed
        live.saving.commit(session=True)
        if not self.seeds_missing():
            live.dealer.schedule_next_hand(0.0)
        else:
            live.views.broadcast()  # (who has sent: ``table.deal.seeded``)

    def deal_seeded(self) -> None:
        """Deal the committed hand waiting for seeds (``session["seeding"]``) from
        its committed deck and the client seeds in (the empty seed for every other
        seat dealt in); see :meth:`commit_deal`.  With fewer than two players left it
        lapses and the table deals again when it can.

        A game whose showdown is costly (:meth:`GameSession.costly_game`) is dealt
        in the showdown thread (:meth:`Turns.off_loop`, issue 34): its showdown may
        come in the deal (a file with no betting round, or every player all in from
        the antes; s64-loop: played on the event loop before, 0.4 to 0.7 s a hand
        of a stored 26-card file held every table).  The deal still waits for its
        seeds meanwhile (``session["seeding"]`` is kept until the hand comes back,
        so a restart then deals it again from the same deck), and the table's
        messages, timeouts and deals wait for it."""
        live = self.table
        seeding = live.session["seeding"]
        offered = Deal(int(seeding["button"]), tuple(int(p) for p in seeding["offered"]),
                       tuple(live.config.game_of(g) for g in seeding["games"]))
        table = live.dealer.session_table(
            out={s for s in range(live.config.seats) if s not in live.seats
                 or s not in seeding["players"] or live.dealers_choice.taken_since(seeding, s)
                 or live.seats[s].gone
                 # (a tournament deals its entrants in even while away, issue 28)
                 or (host.skip_deal(live, s) and live.tourney.tournament() is None)})
        players = table.still_dealt_in(offered)
        if len(players) < 2:
            live.session["seeding"] = None
            live.dealer.deal_lapsed(live.config.between_hands)
            return
        hand_no = int(seeding["hand"])
        seeds = {s: str(seeding["seeds"].get(str(s), "")) for s in players}
        proof = DealProof.from_json(seeding["proof"]).with_client_seeds(seeds)
        game = str(seeding["game"]) if seeding["game"] is not None else \
            live_table.pick_bot_game(list(proof.pick_games), proof)
        try:
            source = live_table.committed_source(proof)
            the_game = live.config.game_of(game)
            costly = GameSession.costly_game(the_game)
        except Exception as err:  # the engine refused the deal: say so, try again later
            live.session["seeding"] = None
            self._refused(hand_no, game, err)
            return
        deal = functools.partial(table.deal, offered, the_game, source=source)
        dealt = functools.partial(self._dealt, seeding, hand_no, game, table, players,
                                  source, proof)
        if not costly:
            try:
                hand = deal()
            except Exception as err:
                dealt(None, err)
                return
            dealt(hand, None)
            return

        def back(f: asyncio.Future[Hand]) -> None:
            if not f.cancelled():
                dealt(None if f.exception() else f.result(), f.exception())

        try:  # (the table and the source are this deal's own: the thread changes them)
            live.turns.off_loop(back, deal)
        except RuntimeError as err:  # the thread is shut down: the server is stopping
            log.warning("table %s: hand %s not dealt: %s", live.id, hand_no, err)

    def _refused(self, hand_no: int, game: str, err: BaseException) -> None:
        """The engine refused to deal hand ``hand_no`` of ``game``: logged, and the
        table deals again after the pause (at least a second)."""
        live = self.table
        log.error("table %s: cannot deal hand %s of %s\n%s", live.id, hand_no, game,
                  fault_without_cards(err))  # (cards as ??: a deal's fault may name them)
        live.dealer.deal_lapsed(max(1.0, live.config.between_hands))

    def _dealt(self, seeding: dict[str, Any], hand_no: int, game: str, table: SessionTable,
               players: list[int], source: RandomSource, proof: DealProof, dealt: Hand | None,
               error: BaseException | None) -> None:
        """(Event loop.)  The session ``table`` dealt hand ``hand_no`` (``dealt``, or
        the engine's ``error``) for the deal ``seeding`` waiting for seeds: make it
        the table's hand, write it and go on (finished at once when the deal ran to
        its showdown).  Dropped when that deal no longer waits (the table closed,
        or took the store's state meanwhile: that deal is dealt again from it)."""
        live = self.table
        if live.closed or live.session.get("seeding") is not seeding:
            return
        live.session["seeding"] = None
        if error is not None:
            self._refused(hand_no, game, error)
            return
        assert dealt is not None
        try:
            options = replace(GameSession.options_for(live.config),  # this hand's own:
                              straddlers=dealt.options.straddlers,  # (issue 27)
                              bomb_pot=dealt.options.bomb_pot,
                              ante=dealt.options.ante,  # (a tournament's level, issue 28)
                              small_bet=dealt.options.small_bet, big_bet=dealt.options.big_bet)
            hand = GameSession.of_hand(hand_no, dealt, players, source,
                                       options, names=live.views.names(),
                                       level=live.tourney.level(table))
        except Exception as err:  # the engine refused the deal: say so, try again later
            self._refused(hand_no, game, err)
            return
        # (the add-on's window closes, stop 60: only with a hand dealt -- a deal the
        # engine refused above left it open, s65-table)
        live.tourney.dealt(table, hand_no)
        seat_moves.waiters_dealt(live, players)  # (waited for the big blind: dealt now)
        live.hand = hand
        live.pace.dealt_now()  # (the floor on the time per hand counts from here)
        live.session.update(hand_no=hand_no, in_hand=True, button=table.button,
                            carried=table.carry, bomb_pot_next=table.bomb_pot_next,
                            hand_hash=proof.hand_hash().hex(),
                            # who sat out at the deal: what a delayed watcher sees (issue 27)
                            out_at_deal=out_at_deal(live))
        live.turns.bump_seq()
        live.saving.write(session=live.session, new_hand=(hand_no, hand.setup))
        if hand.over:
            live.dealer.finish_hand()
            return
        live.turns.refresh_decisions()
        live.views.broadcast()
