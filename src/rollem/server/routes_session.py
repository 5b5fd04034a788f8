"""A table's session over HTTP (:func:`session_routes`, issue 27): the ledger
as CSV (``/api/tables/<id>/ledger.csv``), every finished hand's net per player
(``/hands.csv``), each player's statistics (``/stats``) and the asking
player's whole session as one bulk PHH file (``/history.phhs``).  All behind
the costly routes' limit; a gated table's unapproved watcher gets 403
``private``.

At a tournament (issue 28) the ledger is in the buy-in's units (each
entrant's paid, rebuys, place, prize and net: :func:`ledger_csv_text`), and
every hand's net stays in chips with the hand's level, each row saying its
unit, ``tournament chips`` (:func:`hands_csv_text`)."""

from __future__ import annotations

import asyncio
import logging
import threading
import tomllib
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from rollem.server import app_context
from rollem.server.app_context import AppContext, FinishedHand, read_finished_hands
from rollem.server.game_session import GameSession, player_names
from rollem.server.http_util import error, private, seat_cookie
from rollem.server.live_table import LiveTable, TableError
from rollem.server.live_table.errors import without_cards
from rollem.server.replays import ReplayBody
from rollem.server.sat_out import sat_out_records, sat_out_setups
from rollem.server.store import HandRow
from rollem.text import counted

__all__ = ["BULK_READ_AT_ONCE", "MAX_BULK_HANDS", "bulk_phhs", "hands_csv_text",
           "ledger_csv_text", "session_routes"]

log = logging.getLogger("rollem.server")

MAX_BULK_HANDS = 500
"""The most hands in one whole-session download (``history.phhs``): the latest."""

BULK_READ_AT_ONCE = 16
"""Hands of a whole-session download not built yet whose stored rows and actions
are read in one step of the event loop (about 0.4 ms each on SQLite); between two
steps the loop serves the other tables (s61-safe: a first download of 500 hands
read them all in one step, 1 to 2.7 s)."""


def _phh_chunk(hand_no: int, seat: int, row: HandRow, names: list[str],
               actions: list[Any], sat_out: list[dict[str, Any]] | None = None) -> str:
    """Hand ``hand_no`` as ``seat`` saw it (their own copy), as one table ``[hand_no]``
    of a ``.phhs`` file (issue 27), written by
    :func:`rollem.phh.write_session_phhs`: standard PHH where the game and the
    hand have a PHH form, else rollem's own layout (a game with no PHH variant
    code, a Mississippi straddle, a hand run twice); ``_hand`` says its number.
    A copy the own-copy checker refuses (a fault of ours: never seen) is kept in
    rollem's layout, as the hand's ``history.toml`` gives it, and logged.
    ``sat_out``: the records of the hands the player sat out before it
    (:func:`rollem.server.sat_out.sat_out_records`), kept in rollem's layout."""
    from rollem.history import HistoryError
    from rollem.phh import phhs_entry, write_session_phhs

    session = GameSession.restore(hand_no, row.setup, actions)
    copy = session.history_text(seat, names, sat_out)
    try:
        return write_session_phhs([copy], numbers=[hand_no]) + "\n"
    except HistoryError as err:
        log.warning("session download: hand %d, seat %d's copy kept in rollem's layout "
                    "(%s)", hand_no, seat, without_cards(err))  # (its words may name cards)
        return phhs_entry(hand_no, {"_hand": hand_no, **tomllib.loads(copy)}) + "\n"


def _bulk_head(left_out: int) -> str:
    """The comment lines a ``.phhs`` download starts with."""
    head = "# rollem: one player's own copies of a session's hands\n"
    if left_out:
        head += (f"# the {counted(left_out, 'earliest hand')} left out: at most "
                 f"{MAX_BULK_HANDS} a file\n")
    return head + "\n"


def bulk_phhs(mine: list[tuple[int, int, HandRow, list[str]]],
              actions: dict[int, list[Any]], left_out: int) -> str:
    """The ``.phhs`` text of a player's hands (``mine``: hand number, their seat,
    the stored row, the names), each their own copy: what the download sends
    (built there a hand at a time, each kept)."""
    return _bulk_head(left_out) + "".join(
        _phh_chunk(h, seat, row, names, actions[h]) for h, seat, row, names in mine)


def ledger_csv_text(data: dict[str, Any]) -> str:
    """The ledger download of a table whose public part is ``data``
    (:meth:`LiveTable.table_public`): a cash game's in chips
    (:func:`rollem.settle.ledger_csv`), a tournament's in the buy-in's
    units (:func:`rollem.settle.tournament_ledger_csv`; before its start, the
    field so far, each having paid one buy-in)."""
    from rollem.settle import ledger_csv, tournament_ledger_csv

    tournament = data.get("tournament")
    if tournament is not None:
        return tournament_ledger_csv(tournament["ledger"])
    return ledger_csv(data["ledger"])


def hands_csv_text(table: LiveTable, hands: list[FinishedHand] | None = None) -> str:
    """Every finished hand's net per player as CSV (issue 27), in chips: ``hand``,
    ``game``, ``seat``, ``name``, ``net``, one row per player dealt in.  At a
    tournament table (issue 28) ``hand``, ``level`` (the level the hand was dealt
    at), ``game``, ``seat``, ``name``, ``net`` and ``unit``: the nets are the
    tournament's chips, worth no money, and each row says so
    (:data:`rollem.settle.TOURNAMENT_CHIPS`); the money is in the ledger.
    ``hands``: the table's finished hands (:meth:`AppContext.finished_hands`, kept);
    ``None``: read from the store."""
    if hands is None:
        hands = read_finished_hands(table, {})
    return _hands_csv(hands, table.names(), table.config.schedule() is not None)


def _hands_csv(hands: list[FinishedHand], current: list[str], tournament: bool) -> str:
    """:func:`hands_csv_text` of ``hands``, ``current`` the table's names now (for a
    hand stored without its own), ``tournament`` whether a tournament's: reads
    nothing of the table (built off the event loop)."""
    from rollem.settle import TOURNAMENT_CHIPS, csv_rows

    rows: list[list[object]] = []
    for hand in hands:
        names = list(hand.names) if hand.names is not None else current
        for seat, net in hand.nets:
            line: list[object] = [hand.hand_no, hand.game, seat, names[seat], net]
            rows.append([hand.hand_no, hand.level, *line[1:], TOURNAMENT_CHIPS] if tournament
                        else line)
    header = ["hand", "game", "seat", "name", "net"]
    return csv_rows(["hand", "level", *header[1:], "unit"] if tournament else header, rows)


def session_routes(ctx: AppContext) -> list[BaseRoute]:
    """The routes of a table's session: ledger and hands CSV, statistics and the
    whole-session download (each behind :meth:`AppContext.costly`)."""

    async def ledger_csv(request: Request) -> Response:
        """The session's ledger as CSV (issue 27: each player's chips brought, stack
        and net; at a tournament, issue 28, each entrant's paid, rebuys, place,
        prize and net in the buy-in's units: :func:`ledger_csv_text`; public at the
        table, as the ledger panel is)."""
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        if not ctx.may_see(request, table):
            return private()
        try:
            data = await table.public_when_committed()
        except TableError as err:
            return error(503, err.code, err.message)
        return Response(ledger_csv_text(data), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="ledger-{table.id}.csv"'})

    async def hands_csv(request: Request) -> Response:
        """Every finished hand's net per player as CSV (issue 27,
        :func:`hands_csv_text`).  Each hand's nets are public at the table (its
        result was shown to all), so one text serves every asker: built on the
        replay thread and kept until the next hand ends (s61-safe: built on the
        event loop for each request, 0.5 to 0.8 s at a table of 20,000 hands,
        within anyone's 30 costly requests at once)."""
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        if not ctx.may_see(request, table):
            return private()
        hands = await ctx.finished_hands(table)
        current = table.names()
        tournament = table.config.schedule() is not None

        def make() -> Callable[[], ReplayBody]:
            return lambda: ReplayBody(_hands_csv(hands, current, tournament).encode(), b"")

        key = (table.id, "hands.csv", len(hands), hands[-1].hand_no if hands else 0,
               tuple(current), tournament)
        body = await ctx.built(ctx.csvs, key, make, table.id)
        if isinstance(body, Response):
            return body
        return Response(body.json, media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="hands-{table.id}.csv"'})

    stats_cache: dict[str, tuple[int, Any]] = {}
    stats_lock = threading.Lock()  # (one count at a time: the cached counts are shared)
    # (stop 58: counted in a thread of their own, never the event loop's default
    # executor: a table of many hands never counted takes seconds -- 1.1 ms a
    # six-player hold'em hand, so some 20 s for the 20,000 hands a table may store --
    # and requests waiting for the lock held every default worker meanwhile, so no
    # table could be created, no password checked, no rules page rendered, and with
    # PostgreSQL no lease renewed)
    stats_thread = ThreadPoolExecutor(1, thread_name_prefix="rollem-stats")

    def _count_stats(table: LiveTable) -> dict[str, Any]:
        """The session's player statistics (issue 27, :mod:`rollem.stats`), from
        the stored hands (a restart changes nothing); hands already counted are
        kept per table, so each finished hand is read once.  Runs in a thread."""
        from rollem.stats import SessionStats

        with stats_lock:
            return _count_stats_locked(table, SessionStats)

    def _count_stats_locked(table: LiveTable, new: Any) -> dict[str, Any]:
        if len(stats_cache) > 256:  # (tables come and go: keep the cache small)
            stats_cache.clear()
        done, session = stats_cache.get(table.id, (0, None))
        if session is None:
            session = new()
        numbers = table.store.hand_numbers(table.id)
        for hand_no in numbers:
            if hand_no <= done:
                continue
            row = table.store.load_hand(table.id, hand_no)
            if row is None or row.result is None:
                if row is not None and hand_no < numbers[-1]:
                    # a void hand (its replay failed at a restore, s64-loop2): never
                    # finished, and a later hand is stored (written after its result,
                    # had it one: the table's writes are in order); the hands after
                    # it are counted
                    done = hand_no
                    continue
                break  # (the hand in play: counted once finished)
            hand = GameSession.restore(hand_no, row.setup, table.store.load_actions(
                table.id, hand_no))
            names = player_names(row.setup, table.names())
            session.add_hand(row.setup["game"], hand.hand.events,
                             {s: names[s] for s in hand.seats},  # (issue 28: by level)
                             level=(row.setup.get("tournament") or {}).get("level"))
            done = hand_no
        stats_cache[table.id] = (done, session)
        # public: nothing counted from hidden cards (the pairs kept at a secret discard)
        return session.to_dict(public=True)  # type: ignore[no-any-return]

    async def stats(request: Request) -> Response:
        """Each player's statistics this session, over every game and per game
        (issue 27): public at the table, as every hand's result is, so counted
        from what everyone saw only (no ``kept_pairs``: :data:`rollem.stats.PRIVATE_FIGURES`)."""
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        if not ctx.may_see(request, table):
            return private()
        return JSONResponse(await _shared_stats(table))

    stats_running: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def _shared_stats(table: LiveTable) -> dict[str, Any]:
        """:func:`_count_stats` in the statistics' own thread (s58-safe), one count
        a table at a time shared by every request that asks while it runs (s58-tidy:
        two requests at once each took a worker thread and counted in turn): one
        that comes while a count runs gets that count, which may leave out a hand
        finished since it began (as the first request's does).  A request that goes
        away does not stop the count the others wait on."""
        loop = asyncio.get_running_loop()
        running = stats_running.get(table.id)
        if running is None or running.get_loop() is not loop:
            running = asyncio.ensure_future(
                loop.run_in_executor(stats_thread, _count_stats, table))
            stats_running[table.id] = running

            def done(fut: asyncio.Future[dict[str, Any]], tid: str = table.id) -> None:
                if stats_running.get(tid) is fut:
                    del stats_running[tid]
                if not fut.cancelled():
                    fut.exception()  # (retrieved: each waiting request is told it)

            running.add_done_callback(done)
        return await asyncio.shield(running)

    async def session_history(request: Request) -> Response:
        """Every finished hand the asking player was dealt into, as one bulk PHH file
        (``.phhs``, issue 27): each hand their own copy (what they saw, plus what
        was shown), written by :func:`rollem.phh.write_session_phhs`: standard PHH
        where the game and the hand have a PHH form, else rollem's own history
        layout (``variant = "rollem-GAME"``); each a table named by its hand number.  The
        latest :data:`MAX_BULK_HANDS` hands, each built on the replay thread and
        kept; past :data:`~rollem.server.app_context.BUILD_WAIT_SECONDS` a 503
        ``busy`` (``Retry-After``) while the builds go on."""
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        sees = ctx.may_see(request, table)
        token = request.cookies.get(seat_cookie(table.id))
        if not sees and not table.seating.left_hands_here(token):
            return private()
        if not token:
            return error(403, "not_yours", "only a player can download their hands; take a "
                         "seat first")
        mine: list[tuple[int, int, list[str]]] = []
        current = table.names()
        finished = await ctx.finished_hands(table)  # (each stored row read once, kept)
        seat_in = table.seats_in_hands(token)  # (the cookie's stints found once: s60-safe)
        for hand in finished:
            seat = seat_in(hand.hand_no, hand.seats)
            if seat is not None:
                mine.append((hand.hand_no, seat,
                             list(hand.names) if hand.names is not None else current))
        if not mine:  # (a gated table's former player keeps their own hands, no more)
            return error(404, "no_hand", "you were dealt into no finished hand at this "
                         "table") if sees else private()
        left_out = max(0, len(mine) - MAX_BULK_HANDS)
        mine = mine[left_out:]

        # the last finished hand may still change (a show by choice): in its key
        last = mine[-1][0]
        version = await ctx.hand_version(table, last)

        def setup_of(hand_no: int) -> dict[str, Any] | None:
            row = table.store.load_hand(table.id, hand_no)
            return row.setup if row is not None else None

        def one(hand_no: int, seat: int, names: list[str]) -> Awaitable[ReplayBody]:
            def make() -> Callable[[], ReplayBody]:
                # (read on the loop, only for a hand not built yet)
                row = table.store.load_hand(table.id, hand_no)
                actions = table.store.load_actions(table.id, hand_no)
                assert row is not None  # (a finished hand's row stays)
                numbers, setups = sat_out_setups(finished, hand_no, names[seat], setup_of)
                return lambda: ReplayBody(_phh_chunk(
                    hand_no, seat, row, names, actions,
                    sat_out_records(numbers, setups.get)).encode(), b"")

            # each hand built once and kept: a new hand adds one build, not 500
            return ctx.bulk.get((table.id, "phh", hand_no, seat, tuple(names),
                                 version if hand_no == last else -1), make, table.id)

        async def every() -> list[ReplayBody]:
            # a hand not built yet is read from the store on the loop (its make):
            # BULK_READ_AT_ONCE hands a step, the loop serving the other tables between
            asked = []
            for i, m in enumerate(mine):
                if i and i % BULK_READ_AT_ONCE == 0:
                    await asyncio.sleep(0)
                asked.append(asyncio.ensure_future(one(*m)))
            return await asyncio.gather(*asked)

        try:
            bodies = await asyncio.wait_for(every(), app_context.BUILD_WAIT_SECONDS)
        except TimeoutError:  # (the builds go on and are kept: the next ask is quicker)
            resp = error(503, "busy", "your hands take long to gather; they are being "
                         "built now: try again in a few seconds")
            resp.headers["Retry-After"] = "5"
            return resp
        text = _bulk_head(left_out).encode() + b"".join(b.json for b in bodies)
        return Response(text, media_type="application/toml",
                        headers={"Content-Disposition":
                                 f'attachment; filename="session-{table.id}.phhs"'})

    return [
        Route("/api/tables/{tid}/history.phhs", ctx.costly(session_history)),
        Route("/api/tables/{tid}/ledger.csv", ctx.costly(ledger_csv)),
        Route("/api/tables/{tid}/hands.csv", ctx.costly(hands_csv)),
        Route("/api/tables/{tid}/stats", ctx.costly(stats)),
    ]
