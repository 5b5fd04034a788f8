"""The web table's limits per address and per table (issue 13): a
:class:`TokenBucket`, the websocket and table-creation counters
(:class:`Limits`), a bucket per address for the costly routes
(:class:`AddressBuckets`), and what "per address" means (:func:`limit_key`:
an IPv4 address, an IPv6 /64 network)."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any, NoReturn

from starlette.requests import HTTPConnection

from rollem.server.config import ServerSettings
from rollem.server.live_table import TableError

__all__ = ["AddressBuckets", "Limits", "RefusedUntil", "TokenBucket", "client_address",
           "limit_key", "limit_key_of", "network_key", "network_key_of"]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved; :meth:`take` spends one."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Limits:
    """Counters behind the per-address and per-table limits (one server process)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.by_address: dict[str, int] = defaultdict(int)
        self.by_table: dict[tuple[str, bool], int] = defaultdict(int)  # (table, player)
        self.created: dict[str, deque[float]] = defaultdict(deque)
        # addresses refused by the shared count of creations, until when
        self.created_refused = RefusedUntil()
        # seats an address sat down in: address -> {(table id, seat token digest)}
        self.seats: dict[str, dict[tuple[str, str], None]] = {}
        self._seats_kept = 0  # (entries in self.seats, for the pruning)
        self.seats_checked: dict[str, float] = {}  # address at its limit -> when read
        # addresses refused by the shared count of seats (several processes)
        self.seats_refused_shared = RefusedUntil()
        # websockets an address opens (closed and opened again: the counts miss it)
        self.connects = AddressBuckets(settings.connects_per_minute, settings.connect_burst)
        # every websocket message of an address, all its connections together
        self.messages = AddressBuckets(
            settings.messages_per_second * settings.connections_per_address * 60.0,
            settings.message_burst * settings.connections_per_address)

    def address_messages(self) -> tuple[float, int]:
        """What one address's websockets may send together: (messages a second, burst)
        -- ``connections_per_address`` connections' worth at ``messages_per_second``
        each (:meth:`message_taken`)."""
        s = self.settings
        return (s.messages_per_second * s.connections_per_address,
                s.message_burst * s.connections_per_address)

    def connect_refused(self, address: str) -> str | None:
        """Spend one of ``address``'s websocket openings; the reason it is refused, or
        ``None``.  ``connect_burst`` at once (a household's pages all back after a
        restart), then ``connects_per_minute``.  Asked before the counts
        and before the table is looked up, of every opening, a seat's own too:
        opening is what costs (a handshake, the whole state built and sent, and a
        seat's *connected* told to everyone at its table: about 2 ms of the
        server's time, against 0.2 ms a ping), and the counts bound only the
        connections open at once, not how fast they are closed and opened again
        (try-out of stop 52: one address opened a seat's websocket 55 times a
        second, unrefused)."""
        wait = self.connects.wait(address)
        if wait == 0.0:
            return None
        s = self.settings
        return (f"too many new connections from your address (at most {s.connect_burst} "
                f"at once, then {s.connects_per_minute:g} a minute); try again in "
                f"{math.ceil(wait)} s")

    def message_taken(self, address: str) -> bool:
        """Spend one of ``address``'s websocket messages (``False``: none left).

        A seat's own connections are admitted past ``connections_per_address``
        (:meth:`admit`: nobody keeps a player out), and one address may hold many
        seats (each table's up to ``connections_per_table``, its own tables' and
        others'), so a count of connections alone would not bound what one address
        sends: 30 ten-seat tables an hour give it 1,200 connections, each allowed
        ``messages_per_second``.  This bucket keeps the address to what
        ``connections_per_address`` connections at the limit could send, however
        many it holds (try-out of stop 52)."""
        return self.messages.wait(address) == 0.0

    def open_connection(self, address: str, table_id: str, player: bool) -> str | None:
        """Count a new websocket; the reason it is refused, or ``None``.

        ``player``: it brings a seat or host cookie of the table.  Players and
        watchers are counted apart, each up to ``connections_per_table``, so
        watchers filling a table never lock its players out; a cookie that turns
        out to be no seat's is moved to the watchers (:meth:`demote`).
        """
        s = self.settings
        if self.by_address[address] >= s.connections_per_address:
            return (f"too many connections from your address (at most "
                    f"{s.connections_per_address})")
        if self.by_table[(table_id, player)] >= s.connections_per_table:
            who = "players" if player else "watchers"
            return (f"too many {who} connected to this table (at most "
                    f"{s.connections_per_table})")
        self.admit(address, table_id, player)
        return None

    def admit(self, address: str, table_id: str, player: bool = True) -> None:
        """Count a new websocket past the limits: a seat's (or the host's) own
        connection, which counts is never a reason to refuse (issue 34; its seat
        keeps at most ``connections_per_seat``, the oldest replaced)."""
        self.by_address[address] += 1
        self.by_table[(table_id, player)] += 1

    def demote(self, table_id: str) -> bool:
        """Count a player's connection as a watcher's after all (its cookie holds no
        seat); ``False`` (nothing moved) when the watchers are full."""
        if self.by_table[(table_id, False)] >= self.settings.connections_per_table:
            return False
        self._drop(self.by_table, (table_id, True))
        self.by_table[(table_id, False)] += 1
        return True

    def close_connection(self, address: str, table_id: str, player: bool) -> None:
        self._drop(self.by_address, address)
        self._drop(self.by_table, (table_id, player))

    @staticmethod
    def _drop(counts: dict[Any, int], key: Any) -> None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]

    SEATS_PRUNE_AT = 65_536
    """Sit-downs remembered (all addresses) before those no longer held are dropped."""
    SEATS_RECHECK = 2.0
    """Seconds an address refused at its seat limit is refused again without its
    seats being read again (up to ``seats_per_address`` reads of the store each,
    on the event loop: a flood of sit-downs must not make each cost that)."""

    def seat_refusal(self, address: str, held: Callable[[str, str], bool]) -> str | None:
        """Why ``address`` may not sit down once more, or ``None``.

        ``held(table_id, digest)``: whether the seat token of that digest still
        holds a seat at that table (left, removed, or the table deleted: it does
        not).  An address holds at most ``seats_per_address`` seats at once, its
        own tables' and anyone's: each seat lets up to ``connections_per_seat`` of
        its connections in past ``connections_per_address`` (:meth:`admit`), so
        without this one address sat down at every table whose link it had
        (try-out of stop 53).  Asked and then :meth:`seat_taken` with no ``await``
        between, so concurrent sit-downs cannot all pass one check; ``held`` is
        asked of this address's remembered sit-downs only (at most the limit of
        them stay remembered past a check).  This process's count only: with
        PostgreSQL the route then asks all processes' count
        (:class:`rollem.server.address_counts.AddressCounts`), whose refusal is
        remembered here (:meth:`seat_refused_shared`) and answered first.
        """
        most = self.settings.seats_per_address
        refusal = self.seat_refusal_words()
        now = time.monotonic()
        if self.seats_refused_shared.until(address, now) is not None:
            return refusal  # (the shared count refused it just now: not read again)
        mine = self.seats.get(address)
        if not mine:
            return None
        if len(mine) < most:
            self.seats_checked.pop(address, None)
            return None
        if now - self.seats_checked.get(address, -math.inf) < self.SEATS_RECHECK:
            return refusal  # (asked again at once: its seats are not read again)
        for key in list(mine):
            if not held(*key):
                del mine[key]
                self._seats_kept -= 1
        if len(mine) < most:
            self.seats_checked.pop(address, None)
            return None
        self.seats_checked[address] = now
        return refusal

    def seat_refusal_words(self) -> str:
        """What a sit-down past ``seats_per_address`` is told (``too_many_seats``)."""
        return (f"at most {self.settings.seats_per_address} seats at once from one address "
                "(IPv6: one /64 network); leave a seat at another table first")

    def seat_refused_shared(self, address: str) -> str:
        """Note that the shared count (several processes on PostgreSQL,
        :class:`rollem.server.address_counts.AddressCounts`) refused ``address``: for
        :data:`SEATS_RECHECK` seconds its sit-downs are refused here without a
        query (a flood of them costs one transaction per 2 s).  The words."""
        now = time.monotonic()
        self.seats_refused_shared.note(address, now + self.SEATS_RECHECK, now)
        return self.seat_refusal_words()

    def seat_taken(self, address: str, table_id: str, digest: str,
                   held: Callable[[str, str], bool]) -> None:
        """Remember that ``address`` sat down at ``table_id`` with the seat token of
        ``digest`` (:meth:`seat_refusal`).  Past :data:`SEATS_PRUNE_AT` sit-downs
        remembered, those not ``held`` are forgotten (every address's): ``held``
        here should read memory only (a table not loaded: not held), so the walk
        never reads the store once per sit-down remembered."""
        mine = self.seats.setdefault(address, {})
        if (table_id, digest) not in mine:
            mine[(table_id, digest)] = None
            self._seats_kept += 1
        if self._seats_kept > self.SEATS_PRUNE_AT:
            for other, keys in list(self.seats.items()):
                for key in list(keys):
                    if not held(*key):
                        del keys[key]
                        self._seats_kept -= 1
                if not keys:
                    del self.seats[other]
                    self.seats_checked.pop(other, None)

    def check_create(self, address: str, now: float) -> None:
        """Raise :class:`TableError` (``too_many_tables``) if ``address`` has created
        as many tables this hour as it may; counts nothing (a refusal before any work)."""
        until = self.created_refused.until(address, now)
        if until is not None:
            raise self._too_many_tables(until - now)
        stamps = self.created.get(address)
        if not stamps:
            return
        while stamps and stamps[0] <= now - 3600:
            stamps.popleft()
        if not stamps:
            del self.created[address]
            return
        if len(stamps) >= self.settings.tables_per_address_per_hour:
            raise self._too_many_tables(stamps[0] + 3600 - now)

    def _too_many_tables(self, wait: float) -> TableError:
        return TableError(
            "too_many_tables",
            f"at most {self.settings.tables_per_address_per_hour} new tables an hour "
            f"from one address (IPv6: one /64 network); try again in {int(wait) + 1} s")

    def tables_refused_shared(self, address: str, wait: float) -> NoReturn:
        """The shared count (several processes on PostgreSQL,
        :meth:`rollem.server.address_counts.AddressCounts.claim_table`) refused
        ``address`` for ``wait`` more seconds: remember it (:meth:`check_create`
        refuses it until then with no query) and raise the refusal.

        Raises:
            TableError: ``too_many_tables``.
        """
        now = time.monotonic()
        self.created_refused.note(address, now + wait, now)
        stamps = self.created.get(address)
        if stamps:
            stamps.pop()  # (counted here just before: no table was made)
        raise self._too_many_tables(wait)

    def create_table(self, address: str, now: float) -> None:
        """Count a table creation; raises :class:`TableError` past the hourly limit."""
        self.check_create(address, now)
        self.created[address].append(now)


class RefusedUntil:
    """Addresses refused until a time (``time.monotonic`` seconds): a refusal of the
    shared count (PostgreSQL, :class:`rollem.server.address_counts.AddressCounts`)
    remembered, so that a flood from that address costs no query meanwhile
    (:meth:`Limits.seat_refused_shared`, :meth:`Limits.tables_refused_shared`).

    The refusals past their time are dropped once :attr:`prune_at` addresses are
    kept (at least :data:`PRUNE_AT`): a walk of them all, so at most once per as
    many new addresses as the last walk kept, and a refusal still running is never
    dropped (s61-safe: with every refusal still running, each new address past
    4,096 walked them all to drop none, 3 ms of the event loop at 16,000 kept
    table refusals, which last up to an hour).  Memory: the refusals running,
    twice over at most."""

    PRUNE_AT = 4096
    """Refusals kept before those past their time are dropped."""

    def __init__(self) -> None:
        self.refused: dict[str, float] = {}
        self.prune_at = 0
        """Twice the refusals the last prune kept (the next prune's threshold)."""

    def __len__(self) -> int:
        return len(self.refused)

    def __contains__(self, address: object) -> bool:
        return address in self.refused

    def until(self, address: str, now: float) -> float | None:
        """When ``address``'s refusal ends, if it runs at ``now``; else ``None`` (a
        refusal past its time is forgotten)."""
        until = self.refused.get(address)
        if until is None:
            return None
        if now < until:
            return until
        del self.refused[address]
        return None

    def note(self, address: str, until: float, now: float) -> None:
        """Remember that ``address`` is refused until ``until`` (the same clock as
        ``now``), in place of any refusal of it before."""
        refused = self.refused
        if address not in refused and len(refused) >= max(self.prune_at, self.PRUNE_AT):
            for other, ends in list(refused.items()):
                if ends <= now:
                    del refused[other]
            self.prune_at = 2 * len(refused)
        refused[address] = until


class AddressBuckets:
    """A :class:`TokenBucket` per client address (``per_minute`` tokens a minute, at
    most ``burst`` saved): what one address may ask of the costly HTTP routes."""

    PRUNE_AT = 4096
    """Addresses kept before the buckets that have filled up again are dropped."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}
        self.prune_at = 0
        """Twice the addresses the last prune kept: the next prune comes once this
        many (at least :data:`PRUNE_AT`) are kept.  s60-safe2: with every bucket
        still spending (none full again to drop), each new address past
        :data:`PRUNE_AT` walked them all, 2 to 4 ms of the event loop each."""

    def wait(self, address: str) -> float:
        """Spend one of ``address``'s tokens: 0.0 if it had one, else the seconds
        until it will (nothing spent).  The buckets full again are dropped once
        :attr:`prune_at` addresses are kept (a walk of them all, so at most once
        per as many new addresses as were kept: a bucket still spending is never
        dropped, and the memory kept is that of the addresses of the last refill
        time, twice over at most)."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= max(self.prune_at, self.PRUNE_AT):
                self._prune()
                self.prune_at = 2 * len(self.buckets)
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst)
        if bucket.take():
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def _prune(self) -> None:
        now = time.monotonic()
        for address, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                del self.buckets[address]


def client_address(conn: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy: from X-Forwarded-For,
    :class:`~rollem.server.proxies.TrustedProxies`)."""
    return conn.client.host if conn.client is not None else "unknown"


def limit_key(address: str) -> str:
    """What the per-address limits count ``address`` under: an IPv4 address itself
    (a household behind one NAT address is one; a /24 would lump strangers of one
    provider together), an IPv6 address its /64 network (one household's or one
    server's: whoever holds one holds all 2**64 of its addresses), an IPv4-mapped
    IPv6 address its IPv4 address; anything else (a unix socket) as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def limit_key_of(conn: HTTPConnection) -> str:
    """What the per-address limits count the client of ``conn`` under (:func:`limit_key`)."""
    return limit_key(client_address(conn))


def network_key(address: str) -> str:
    """The network ``address`` is counted in where one network may hold only a few
    of something at once (a private table's watch requests waiting for the host):
    an IPv4 address's /24 (``"10.1.2.0/24"``: whoever rents a few addresses
    usually gets neighbours), an IPv6 address its /64, an IPv4-mapped IPv6
    address its IPv4 /24; anything else as it is.  Coarser than :func:`limit_key`,
    which counts rates: a cap on what waits lumps neighbours together only for as
    long as their requests wait."""
    key = limit_key(address)
    try:
        ip = ipaddress.ip_address(key)
    except ValueError:
        return key
    return str(ipaddress.IPv4Network((ip, 24), strict=False))


def network_key_of(conn: HTTPConnection) -> str:
    """:func:`network_key` of the client of ``conn``."""
    return network_key(client_address(conn))
