"""What the clients of a live table see: the table's public part, each
seat's state (a player sees only hands they were dealt into, with their own
eyes; DESIGN.md, views; issue 13), the state as JSON text, its short cache
for ``sync``, and the broadcast after every committed change.  No rule of
its own.


Methods of :class:`~rollem.server.live_table.LiveTable`, written here as
functions of ``self`` and bound in its class body (one class, one state)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rollem.server import host, host_tools, live_table
from rollem.server.game_session import (
    GameSession,
)
from rollem.server.live_table.clients import Seat, _dumps
from rollem.server.live_table.errors import PAUSED_NOTICE
from rollem.settle import money, settle

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable


STATE_CACHE_SECONDS = 1.0
"""How long a built state is reused to answer ``sync`` (a flood of syncs costs
a dictionary lookup each, not a full state)."""



def _ledger_line(self: LiveTable, number: int, seat: Seat, left: bool = False) -> dict[str, Any]:
    row = seat.row
    return {
        "seat": number, "name": row.name, "brought": row.brought,
        "stack": row.stack, "net": row.stack - row.brought, "left": left,
    }  # fmt: skip


def table_public(self: LiveTable) -> dict[str, Any]:
    now = self.clock()
    seats: list[dict[str, Any]] = []
    for number in range(self.config.seats):
        seat = self.seats.get(number)
        if seat is None:
            seats.append({"seat": number, "free": True})
            continue
        deadline = None
        if number in self.decision_opened and seat.row.bot is None:
            deadline = self.decision_opened[number] + self.config.decision_seconds
        seats.append({
            "seat": number, "free": False, "name": seat.row.name, "bot": seat.row.bot,
            "stack": seat.row.stack, "connected": seat.connected,
            "away": seat.disconnected_since is not None, "bank": round(seat.row.bank, 1),
            "deadline": deadline, "acting": number in self.decision_seq,
        })  # fmt: skip
    ledger = [self._ledger_line(n, s) for n, s in sorted(self.seats.items())]
    ledger += [{k: v for k, v in line.items() if k != "digest"}
               for line in self.session.get("departed", [])]
    settle_up = self._settle_up(ledger)
    return {
        "id": self.id,
        "name": self.config.name,
        **self._config_public(),
        "seats": seats,
        "button": self.session.get("button"),
        "hand_no": self.session.get("hand_no"),
        "started": bool(self.session.get("started")),
        "choice": self.public_choice(),
        "deal": self.public_seeding(),
        "last_result": self.last_result,
        "ledger": ledger,
        "settle": settle_up,
        "paused": PAUSED_NOTICE if self.paused else None,
        "waiting_for": self.waiting_for(),
        "now": now,
        "tournament": self.tournament_public(),
        **host.public(self),
    }


def _settle_up(self: LiveTable, ledger: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Who pays whom to settle the ledger (issue 27, :func:`rollem.settle.settle`):
    ``{"transfers": [{"from", "to", "chips", "money"}], "chip_value"}``, or
    ``None`` while the nets do not balance (a hand in play, chips carried to the
    next hand).  Names that repeat in the ledger (a player who left and came back)
    are summed."""
    nets: dict[str, int] = {}
    for line in ledger:
        nets[str(line["name"])] = nets.get(str(line["name"]), 0) + int(line["net"])
    key = (tuple(nets.items()), self.config.chip_value)
    cached = self._settled
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        transfers = settle(list(nets.items()))
    except ValueError:
        out = None
    else:
        value = Fraction(self.config.chip_value) if self.config.chip_value else None
        out = {"chip_value": self.config.chip_value or None,
               "transfers": [{**t.to_dict(), "money": money(t.chips, value)}
                             for t in transfers]}
    self._settled = (key, out)
    return out


def _config_public(self: LiveTable) -> dict[str, Any]:
    """The configuration's part of :meth:`table_public` (``config``, ``game_names``,
    ``forced_bets``, ``max_seats``), kept until the configuration is replaced (by the host)."""
    cached = self._config_json
    if cached is None or cached[0] is not self.config:
        cached = self._config_json = (self.config, {
            "config": self.config.public_dict(),
            "game_names": self.config.game_names(),
            "forced_bets": self.config.forced_bets(),
            "max_seats": self.config.max_seats(),
        })
    return cached[1]


def dealt_in_hand(self: LiveTable, seat: int | None, hand: GameSession | None) -> bool:
    """Whether the *current occupant* of ``seat`` was dealt into ``hand``.

    A seat's occupant sees only hands it was dealt into: a player who sat
    down after the deal (in a seat a departed player left) sees that hand
    as a watcher does (DESIGN.md, views; issue 13).
    """
    if seat is None or hand is None or seat not in hand.seats:
        return False
    info = self.seats.get(seat)
    return info is not None and info.row.joined_hand < hand.hand_no


def hand_viewer(self: LiveTable, seat: int | None, hand: GameSession | None) -> int | None:
    """The seat whose eyes ``seat``'s occupant sees ``hand`` with: its own if it
    was dealt in (:meth:`dealt_in_hand`), else ``None`` (a watcher's view)."""
    return seat if self.dealt_in_hand(seat, hand) else None


SAT_DOWN = "You sat down during this hand: you are dealt in from the next one."
REBOUGHT = "You bought chips again during this hand: you are dealt in from the next one."
NEXT_HAND = "You are dealt in from the next hand."


def next_hand_notice(self: LiveTable, seat: int | None) -> str | None:
    """Why ``seat``'s occupant, with chips, is not in the hand being played, in plain
    words (``you.next_hand``), or ``None`` (no hand, dealt in, no chips, sitting out
    or waiting for the host: those have their own notices): it sat down after the
    deal (:data:`SAT_DOWN`), it bought chips again during this hand
    (:data:`REBOUGHT`; issue 26: it was told it had sat down), or it came back
    otherwise, e.g. from sitting out (:data:`NEXT_HAND`)."""
    hand = self.hand
    info = self.seats.get(seat) if seat is not None else None
    if hand is None or hand.over or info is None or seat is None or info.row.stack <= 0:
        return None
    if self.dealt_in_hand(seat, hand) or host.skip_deal(self, seat):
        return None
    if info.row.joined_hand >= hand.hand_no:
        return SAT_DOWN
    return REBOUGHT if info.rebought_in == hand.hand_no else NEXT_HAND


def _you(self: LiveTable, seat: int | None, is_host: bool) -> dict[str, Any]:
    """The ``you`` part of a state: the client's seat and what concerns it alone."""
    return {
        "seat": seat,
        "host": is_host,
        "decision_seq": self.decision_seq.get(seat) if seat is not None else None,
        "choose_game": seat is not None and seat == self.chooser(),
        "next_hand": next_hand_notice(self, seat),
        "rebuy_closed": host_tools.rebuy_closed(self, seat),  # (no Rebuy button: why)
    }


def _shown(self: LiveTable, kind: str) -> GameSession | None:
    """The hand a client of view ``kind`` sees: the one in play, else the last
    finished; a delayed watcher's, the last finished only (issue 27)."""
    return self.final_hand if kind == "delayed" else (self.hand or self.final_hand)


def state(self: LiveTable, seat: int | None, is_host: bool = False,
          kind: str = "full") -> dict[str, Any]:
    """The full state ``seat`` may see (``None`` = an onlooker); ``kind``: the view
    of :func:`rollem.server.host_tools.view_kind` (``"full"``, ``"delayed"``,
    ``"locked"``)."""
    if kind != "full":
        import json

        return json.loads(self.state_text(seat, is_host, kind=kind))  # type: ignore[no-any-return]
    hand = None
    shown = self.hand or self.final_hand
    if shown is not None:
        hand = shown.view(self.hand_viewer(seat, shown))
    return {
        "type": "state",
        "seq": self.seq,
        "table": self.table_public(),
        "you": _you(self, seat, is_host),
        "hand": hand,
    }


def table_for(self: LiveTable, kind: str) -> dict[str, Any]:
    """The table part of a state of view ``kind`` (not ``"locked"``)."""
    data = self.table_public()
    return host_tools.delayed_public(self, data) if kind == "delayed" else data


def state_text(
    self: LiveTable, seat: int | None, is_host: bool = False, table_json: str | None = None,
    kind: str = "full",
) -> str:
    """:meth:`state` as JSON text (``table_json``: the table part of view ``kind``,
    if already built)."""
    you = _you(self, seat, is_host)
    if kind == "locked":  # a gated table's unapproved watcher: nothing of it (issue 27)
        text = _dumps(host_tools.locked_state(self, you))
        if live_table.LiveTable.audit is not None:
            live_table.LiveTable.audit(self, seat, text)
        return text
    if table_json is None:
        table_json = _dumps(self.table_for(kind))
    shown = _shown(self, kind)
    viewer = self.hand_viewer(seat, shown) if kind == "full" else None
    hand_json = (shown.view_json(viewer, shown.player_names(self.names()))
                 if shown is not None else "null")
    seq = host_tools.quiet_seq(self, kind)
    text = (f'{{"type":"state","seq":{self.seq if seq is None else seq},"table":{table_json},'
            f'"you":{_dumps(you)},"hand":{hand_json}}}')
    if live_table.LiveTable.audit is not None:
        live_table.LiveTable.audit(self, seat, text)
    return text


def cached_state_text(self: LiveTable, seat: int | None, is_host: bool = False,
                      kind: str = "full") -> str:
    """:meth:`state_text`, reused for :data:`STATE_CACHE_SECONDS` or until the
    next broadcast (what a ``sync`` answers)."""
    key = (seat, is_host, kind)
    now = self.clock()
    if now - self._state_cache_at > STATE_CACHE_SECONDS:
        self._state_cache = {}
        self._state_cache_at = now
    text = self._state_cache.get(key)
    if text is None:
        text = self._state_cache[key] = self.state_text(seat, is_host, kind=kind)
    return text


def names(self: LiveTable) -> list[str]:
    """One name per seat (``seat N`` for a free seat), for narration."""
    return [self.seats[n].row.name if n in self.seats else f"seat {n}"
            for n in range(self.config.seats)]


def broadcast(self: LiveTable) -> None:
    """Send the new state to every client, once the change is committed."""
    clients = self.all_clients()
    if not clients:
        return
    tables: dict[str, str] = {}
    cache: dict[tuple[int | None, bool, str], str] = {}
    sends = []
    for client in clients:
        kind = host_tools.view_kind(self, client)
        key = (client.seat, client.is_host, kind)
        if key not in cache:
            if kind != "locked" and kind not in tables:
                tables[kind] = _dumps(self.table_for(kind))
            cache[key] = self.state_text(client.seat, client.is_host, tables.get(kind), kind)
        text = cache[key]
        if host_tools.quiet_seq(self, kind) is not None:
            # a locked client, a delayed watcher during a hand: told only of a change
            # (never once an action: the number of actions is not told, issue 27)
            if client.quiet == text:
                continue
            client.quiet = text
        sends.append((client, text))
    self._state_cache, self._state_cache_at = cache, self.clock()
    self._send_after_commit(sends)
