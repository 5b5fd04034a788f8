"""What the clients of a live table see: the table's public part, each
seat's state (a player sees only hands they were dealt into, with their own
eyes; DESIGN.md, views; issue 13), the state as JSON text, its short cache
for ``sync``, and the broadcast after every committed change.  No rule of
its own.  :class:`Views` is the table's part that builds them."""

from __future__ import annotations

import logging
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rollem.server import host, host_tools, live_table, seat_moves
from rollem.server.config import TableConfig
from rollem.server.game_session import (
    GameSession,
)
from rollem.server.live_table.clients import Seat, _dumps
from rollem.server.live_table.errors import PAUSED_NOTICE
from rollem.server.live_table.player_names import kept_for_bots
from rollem.settle import house_nets, money, settle, settle_tournament

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable


log = logging.getLogger("rollem.server")

STATE_CACHE_SECONDS = 1.0
"""How long a built state is reused to answer ``sync`` (a flood of syncs costs
a dictionary lookup each, not a full state)."""


SAT_DOWN = "You sat down during this hand: you are dealt in from the next one."
REBOUGHT = "You bought chips again during this hand: you are dealt in from the next one."
NEXT_HAND = "You are dealt in from the next hand."
BIG_BLIND = "You are dealt in when the big blind reaches seat {seat}."
"""A seat change that would have skipped the blinds waits for the big blind
(s73-blinds, :mod:`rollem.server.seat_moves`); ``{seat}`` 1-based."""


class Views:
    """What the clients of one table see, and the broadcast.

    Owns its caches: the last settle-up worked out, the configuration's
    public part, and the states last built (what a ``sync`` answers, for
    :data:`STATE_CACHE_SECONDS`).

    Reads its ``table`` (never changes it): ``id``, ``config``, ``session``,
    ``seats``, ``hand``, ``final_hand``, ``last_result``, ``seq``, ``clock``,
    the open decisions (``table.turns``), the dealer's choice
    (``table.dealers_choice``), the deal waiting for seeds, the tournament,
    ``saving.paused``, and :mod:`rollem.server.host` / :mod:`~rollem.server.host_tools`
    for the host's part and the view kinds; the broadcast is queued with
    ``table.saving.send_after_commit`` (after the change is committed).
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        # the last settle-up worked out: (ledger nets and chip value, result)
        self._settled: tuple[object, dict[str, Any] | None] | None = None
        # the computer players' part of a summed line's net, by the line's name
        self._bot_nets: dict[str, int] = {}
        self._config_json: tuple[TableConfig, dict[str, Any]] | None = None
        self._refusals: tuple[TableConfig, dict[str, dict[str, str | None]]] | None = None
        self._state_cache: dict[tuple[int | None, bool, str], str] = {}
        self._state_cache_at = 0.0
        # (the free seats a move to would wait for the big blind, by seat: _moves_wait)
        self._moves_wait_cache: tuple[TableConfig, object, dict[int, list[int]]] | None = None

    def ledger_line(self, number: int, seat: Seat, left: bool = False) -> dict[str, Any]:
        """Seat ``number``'s line of the ledger (``left``: its player has left;
        ``bot``: a computer player's level, ``None`` for a person: the host covers
        a computer player's net, stop 58)."""
        row = seat.row
        return {
            "seat": number, "name": row.name, "brought": row.brought,
            "stack": row.stack, "net": row.stack - row.brought, "left": left,
            "bot": row.bot,
        }  # fmt: skip

    def host_name(self) -> str | None:
        """The name of the host's seat, or ``None`` while the host holds no seat
        (the creator hosting from a watcher's page, or nobody): who covers the
        computer players' nets in the settle-up (stop 58).  The seat the role
        was handed to, else the seat of a page of the creator's host cookie, else
        the seat the creator left their pages in (``host_away``), else the seat of
        the creator's stored seat cookie (``creator_digest``: after a restart, before
        any page connects; s59-seat)."""
        table = self.table
        s = table.session
        seat = s.get("host_seat")
        if seat not in table.seats:
            seats = sorted(c.seat for c in table.all_clients()
                           if c.host_cookie and c.seat in table.seats)
            away = s.get("host_away") or {}
            creator = s.get("creator_digest")
            stored = next((n for n, info in table.seats.items()
                           if creator is not None and info.row.token_digest == creator), None)
            seat = (seats[0] if seats else away.get("seat", stored)
                    if s.get("host_seat") is None and "host_returns" not in s else None)
            if seat is None and s.get("host_seat") is None and "host_returns" not in s:
                seat = stored
        info = table.seats.get(seat) if seat is not None else None
        return info.row.name if info is not None and info.row.bot is None else None

    def table_public(self) -> dict[str, Any]:
        """The table as every client sees it (the ``table`` part of a state)."""
        table = self.table
        now = table.clock()
        seats: list[dict[str, Any]] = []
        for number in range(table.config.seats):
            seat = table.seats.get(number)
            if seat is None:
                seats.append({"seat": number, "free": True})
                continue
            deadline = None
            if number in table.turns.decision_opened and seat.row.bot is None:
                deadline = table.turns.decision_opened[number] + table.config.decision_seconds
            seats.append({
                "seat": number, "free": False, "name": seat.row.name, "bot": seat.row.bot,
                "stack": seat.row.stack, "connected": seat.connected,
                "away": seat.disconnected_since is not None,
                # (no time bank while every page of the seat is closed, nor while it
                # sits out: turns.bank_counts)
                "bank": round(seat.row.bank, 1) if table.turns.bank_counts(number) else 0.0,
                "deadline": deadline, "acting": number in table.turns.decision_seq,
            })  # fmt: skip
        ledger = [self.ledger_line(n, s) for n, s in sorted(table.seats.items())]
        # (a line of a computer player who left, stored before stop 58, has no
        # ``bot``: its name, which no person may take, says it)
        ledger += [{"bot": ("computer" if "bot" not in line and not line.get("players")
                            and kept_for_bots(str(line["name"])) else None),
                    **{k: v for k, v in line.items() if k not in ("digest", "bot_net")}}
                   for line in table.session.get("departed", [])]
        self._bot_nets = {str(line["name"]): int(line["bot_net"])
                          for line in table.session.get("departed", []) if line.get("bot_net")}
        tournament = table.tourney.public()
        settle_up = (self.settle_up(ledger) if tournament is None
                     else self.settle_tournament(tournament))
        waiting = table.dealer.waiting_for()
        return {
            "id": table.id,
            "name": table.config.name,
            **self.config_public(),
            "seats": seats,
            "button": table.dealer.shown_button(),  # (a pending deal's, s66-table)
            "hand_no": table.session.get("hand_no"),
            "started": bool(table.session.get("started")),
            "choice": table.dealers_choice.public_choice(),
            "deal": table.seeding.public_seeding(),
            "last_result": table.last_result,
            "ledger": ledger,
            "settle": settle_up,
            "paused": PAUSED_NOTICE if table.saving.paused else None,
            "waiting_for": waiting,
            # when the next hand is dealt (table clock), "Next hand in N s" (stop 53)
            "next_deal_at": table.dealer.next_deal() if waiting is None else None,
            "now": now,
            "tournament": tournament,
            **host.public(table),
        }

    def settle_up(self, ledger: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Who pays whom to settle the ledger (issue 27, :func:`rollem.settle.settle`):
        ``{"transfers": [{"from", "to", "chips", "money"}], "chip_value", "house"}``,
        or ``None`` while the nets do not balance (a hand in play, chips carried to the
        next hand).  Names that repeat in the ledger (a player who left and came back)
        are summed.  Computer players play with the house's money and the host is
        the house (stop 58): their nets, seated or gone, are added to the host's
        (:meth:`host_name`; with no seated host, to ``"the house"``,
        :data:`rollem.settle.HOUSE`) and the transfers are between people only;
        ``house`` says so, ``{"by", "host": bool, "chips", "money", "own"}`` (the
        computer players' nets added up, in chips and money; ``own``: the host's own
        net in chips, before them), or is ``None`` with no computer player in the
        ledger.  (A started tournament's is
        :func:`rollem.settle.settle_tournament`, in the buy-in's units.)"""
        table = self.table
        bot_nets = self._bot_nets
        lines = [{"name": str(line["name"]), "net": int(line["net"]), "bot": line.get("bot"),
                  "bot_net": bot_nets.get(str(line["name"])) if line.get("players") else None}
                 for line in ledger]
        host = self.host_name()
        key = (tuple(tuple(line.values()) for line in lines), host, table.config.chip_value)
        cached = self._settled
        if cached is not None and cached[0] == key:
            return cached[1]
        value = Fraction(table.config.chip_value) if table.config.chip_value else None
        try:
            nets, covered = house_nets(lines, host)
            transfers = settle(nets)
        except ValueError:
            out = None
        else:
            house = None if covered is None else {
                "by": covered["by"], "host": covered["host"], "chips": covered["amount"],
                "money": money(int(str(covered["amount"])), value), "own": covered["own"]}
            out = {"chip_value": table.config.chip_value or None,
                   "transfers": [{**t.to_dict(), "money": money(t.chips, value)}
                                 for t in transfers],
                   "house": house}
        self._settled = (key, out)
        return out

    def settle_tournament(self, tournament: dict[str, Any]) -> dict[str, Any]:
        """A tournament's settle-up (issue 28, before its start too,
        :func:`rollem.settle.settle_tournament`: in the buy-in's units, the pool's
        payouts and the transfers between players once over, nothing before); prizes
        that do not add up to the pool (a fault: never seen) settle nothing, and say
        so, rather than stop the table's states."""
        try:
            return settle_tournament(tournament["ledger"], bool(tournament.get("over")),
                                     self.host_name())
        except ValueError as err:
            log.error("table %s: a tournament's settle-up failed: %s", self.table.id, err)
            return {**settle_tournament(tournament["ledger"], False), "over": True,
                    "reason": f"the prizes cannot be settled: {err}"}

    def config_public(self) -> dict[str, Any]:
        """The configuration's part of :meth:`table_public` (``config``, ``game_names``,
        ``forced_bets``, ``max_seats``, ``bomb_pot_refusal``: why none of its games
        can have a bomb pot, or ``None``), kept until the configuration is replaced
        (by the host)."""
        table = self.table
        cached = self._config_json
        if cached is None or cached[0] is not table.config:
            cached = self._config_json = (table.config, {
                "config": table.config.public_dict(),
                "game_names": table.config.game_names(),
                "forced_bets": table.config.forced_bets(),
                "max_seats": table.config.max_seats(),
                "bomb_pot_refusal": table.config.bomb_pot_refusal(),
            })
        return cached[1]

    def dealt_in_hand(self, seat: int | None, hand: GameSession | None) -> bool:
        """Whether the *current occupant* of ``seat`` was dealt into ``hand``.

        A seat's occupant sees only hands it was dealt into: a player who sat
        down after the deal (in a seat a departed player left) sees that hand
        as a watcher does (DESIGN.md, views; issue 13).
        """
        table = self.table
        if seat is None or hand is None or seat not in hand.seats:
            return False
        info = table.seats.get(seat)
        return info is not None and info.row.joined_hand < hand.hand_no

    def hand_viewer(self, seat: int | None, hand: GameSession | None) -> int | None:
        """The seat whose eyes ``seat``'s occupant sees ``hand`` with: its own if it
        was dealt in (:meth:`dealt_in_hand`); for a hand over, the seat they played
        it in when they have changed seats since (a seat change made at its end:
        ``session["stints"]``; s59-break: the mover saw the hand they had just
        played as a watcher, their own cards gone); else ``None`` (a watcher's
        view).  Never a seat someone else played the hand in."""
        if self.dealt_in_hand(seat, hand):
            return seat
        if seat is None or hand is None or not hand.over:
            return None
        info = self.table.seats.get(seat)
        digest = info.row.token_digest if info is not None else None
        if digest is None or info is None or info.row.joined_hand < hand.hand_no:
            return None
        return next((int(stint["seat"]) for stint in self.table.session.get("stints", [])
                     if stint["digest"] == digest and stint["seat"] in hand.seats
                     and stint["first"] <= hand.hand_no <= stint["last"]), None)

    def next_hand_notice(self, seat: int | None) -> str | None:
        """Why ``seat``'s occupant, with chips, is not in the hand being played (or the
        one offered: its game being named, its deal waiting for seeds), in plain
        words (``you.next_hand``), or ``None`` (no hand, dealt in, no chips, sitting out
        or waiting for the host: those have their own notices): it sat down after the
        deal (:data:`SAT_DOWN`), it bought chips again during this hand
        (:data:`REBOUGHT`; issue 26: it was told it had sat down), or it came back
        otherwise, e.g. from sitting out (:data:`NEXT_HAND`)."""
        table = self.table
        hand = table.hand
        info = table.seats.get(seat) if seat is not None else None
        if info is None or seat is None or info.row.stack <= 0:
            return None
        offered = table.session.get("choice") or table.session.get("seeding")
        if (seat in table.session.get("bb_wait", []) and not host.skip_deal(table, seat)
                and not (offered and seat in offered["players"])
                and not (hand is not None and self.dealt_in_hand(seat, hand))):
            return BIG_BLIND.format(seat=seat + 1)  # (between hands too)
        if hand is None and offered and seat not in offered["players"] \
                and not host.skip_deal(table, seat):
            # (sat down once the hand was offered: told now, not at its deal, so that
            # the notice does not tell a delayed seat when it is dealt, issue 27)
            return NEXT_HAND
        if hand is None or hand.over:
            return None
        if self.dealt_in_hand(seat, hand) or host.skip_deal(table, seat):
            return None
        if info.row.joined_hand >= hand.hand_no:
            return SAT_DOWN
        return REBOUGHT if info.rebought_in == hand.hand_no else NEXT_HAND

    def option_refusals(self) -> dict[str, dict[str, str | None]]:
        """The host's ``you.option_refusals`` (stop 53): for each game the settings
        form may pick, why it cannot run it twice or have bomb pots
        (:meth:`~rollem.server.config.TableConfig.option_refusals`; about 3 KB, so
        the host's state alone carries it), kept until the configuration is
        replaced."""
        table = self.table
        cached = self._refusals
        if cached is None or cached[0] is not table.config:
            cached = self._refusals = (table.config, table.config.option_refusals())
        return cached[1]

    def you(self, seat: int | None, is_host: bool) -> dict[str, Any]:
        """The ``you`` part of a state: the client's seat and what concerns it alone
        (the host's: ``option_refusals`` too, :meth:`option_refusals`)."""
        if is_host:
            return {**self._you(seat, is_host), "option_refusals": self.option_refusals()}
        return self._you(seat, is_host)

    def _you(self, seat: int | None, is_host: bool) -> dict[str, Any]:
        table = self.table
        return {
            "seat": seat,
            "host": is_host,
            "decision_seq": table.turns.decision_seq.get(seat) if seat is not None else None,
            "choose_game": seat is not None and seat == table.dealers_choice.chooser(),
            "next_hand": self.next_hand_notice(seat),
            # (free seats a move to which would wait for the big blind: the confirm says)
            "moves_wait": self._moves_wait(seat),
            "rebuy_closed": host_tools.rebuy_closed(table, seat),  # (no Rebuy button: why)
            "top_up": host_tools.top_up_offer(table, seat),  # (a Top up button: its chips)
            "stand_in": host.stand_in_of(table, seat) if is_host else None,
        }

    def _moves_wait(self, seat: int | None) -> list[int]:
        """The free seats a move of ``seat``'s to now would wait for the big blind
        (:func:`~rollem.server.seat_moves.skipping_moves`), worked out once for every
        seat while what it depends on is the same (each state sent asks for it)."""
        table = self.table
        if seat is None or seat not in table.seats or table.config.tournament:
            return []
        s = table.session
        held = seat_moves.held_seats(table)
        free = [n for n in range(table.config.seats) if n not in table.seats and n not in held]
        key = (s.get("hand_no"), s.get("button"), tuple(s.get("bb_wait", [])), tuple(free),
               tuple((n, seat_info.row.stack > 0, seat_info.gone, host.skip_deal(table, n))
                     for n, seat_info in sorted(table.seats.items())))
        cached = self._moves_wait_cache
        if cached is None or cached[0] is not table.config or cached[1] != key:
            cached = self._moves_wait_cache = (
                table.config, key, seat_moves.skipping_moves(table, sorted(table.seats), free))
        return cached[2].get(seat, [])

    def shown(self, kind: str) -> GameSession | None:
        """The hand a client of view ``kind`` sees: the one in play, else the last
        finished; a delayed watcher's, the last finished only (issue 27)."""
        table = self.table
        if kind == "delayed":
            return table.final_hand
        # (an all-in run-out: the round shown, runout.py)
        return table.runout.shown or table.hand or table.final_hand

    def state(self, seat: int | None, is_host: bool = False,
              kind: str = "full") -> dict[str, Any]:
        """The full state ``seat`` may see (``None`` = an onlooker); ``kind``: the view
        of :func:`rollem.server.host_tools.view_kind` (``"full"``, ``"delayed"``,
        ``"locked"``)."""
        table = self.table
        if kind != "full":
            import json

            return json.loads(self.state_text(seat, is_host, kind=kind))  # type: ignore[no-any-return]
        hand = None
        shown = self.shown(kind)
        if shown is not None:
            hand = shown.view(self.hand_viewer(seat, shown))
        return {
            "type": "state",
            "seq": table.seq,
            "table": self.table_public(),
            "you": self.you(seat, is_host),
            "hand": hand,
        }

    def table_for(self, kind: str) -> dict[str, Any]:
        """The table part of a state of view ``kind`` (not ``"locked"``)."""
        table = self.table
        data = self.table_public()
        return host_tools.delayed_public(table, data) if kind == "delayed" else data

    def state_text(
        self, seat: int | None, is_host: bool = False, table_json: str | None = None,
        kind: str = "full",
    ) -> str:
        """:meth:`state` as JSON text (``table_json``: the table part of view ``kind``,
        if already built)."""
        table = self.table
        you = self.you(seat, is_host)
        if kind == "locked":  # a gated table's unapproved watcher: nothing of it (issue 27)
            text = _dumps(host_tools.locked_state(table, you))
            if live_table.LiveTable.audit is not None:
                live_table.LiveTable.audit(table, seat, text)
            return text
        if table_json is None:
            table_json = _dumps(self.table_for(kind))
        shown = self.shown(kind)
        viewer = self.hand_viewer(seat, shown) if kind == "full" else None
        hand_json = (shown.view_json(viewer, shown.player_names(self.names()))
                     if shown is not None else "null")
        seq = host_tools.quiet_seq(table, kind)
        text = (f'{{"type":"state","seq":{table.seq if seq is None else seq},"table":{table_json},'
                f'"you":{_dumps(you)},"hand":{hand_json}}}')
        if live_table.LiveTable.audit is not None:
            live_table.LiveTable.audit(table, seat, text)
        return text

    def cached_state_text(self, seat: int | None, is_host: bool = False,
                          kind: str = "full") -> str:
        """:meth:`state_text`, reused for :data:`STATE_CACHE_SECONDS` or until the
        next broadcast (what a ``sync`` answers)."""
        table = self.table
        key = (seat, is_host, kind)
        now = table.clock()
        if now - self._state_cache_at > STATE_CACHE_SECONDS:
            self._state_cache = {}
            self._state_cache_at = now
        text = self._state_cache.get(key)
        if text is None:
            text = self._state_cache[key] = self.state_text(seat, is_host, kind=kind)
        return text

    def names(self) -> list[str]:
        """One name per seat (``seat N``, counted from 1, for a free seat), for narration."""
        table = self.table
        return [table.seats[n].row.name if n in table.seats else f"seat {n + 1}"
                for n in range(table.config.seats)]

    def broadcast(self) -> None:
        """Send the new state to every client, once the change is committed."""
        table = self.table
        clients = table.seating.all_clients()
        if not clients:
            return
        tables: dict[str, str] = {}
        cache: dict[tuple[int | None, bool, str], str] = {}
        sends = []
        for client in clients:
            kind = host_tools.view_kind(table, client)
            key = (client.seat, client.is_host, kind)
            if key not in cache:
                if kind != "locked" and kind not in tables:
                    tables[kind] = _dumps(self.table_for(kind))
                cache[key] = self.state_text(client.seat, client.is_host, tables.get(kind), kind)
            text = cache[key]
            if host_tools.quiet_seq(table, kind) is not None:
                # a locked client, a delayed watcher during a hand: told only of a change
                # (never once an action: the number of actions is not told, issue 27)
                if client.quiet == text:
                    continue
                client.quiet = text
            sends.append((client, text))
        self._state_cache, self._state_cache_at = cache, table.clock()
        table.saving.send_after_commit(sends)
