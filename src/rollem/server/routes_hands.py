"""A table's finished hands over HTTP (:func:`hand_routes`): the list of hands
(``/api/tables/<id>/hands``), one hand step by step as the asker may see it
(``/hands/<n>``, the replay), the asking player's own copy of it
(``/hands/<n>/history.toml``) and ``rollem verify``'s result on that copy
(``/hands/<n>/verify``, issue 32).  All behind the costly routes' limit; a
gated table's unapproved watcher gets 403 ``private``, except that a player who
left it or was removed keeps their own hands (the list of those, their replays,
copies and verdicts)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from rollem.server.app_context import AppContext
from rollem.server.game_session import GameSession, player_names
from rollem.server.http_util import error, private, seat_cookie
from rollem.server.own_pad import pad_replay
from rollem.server.replays import ReplayBody, encode_body
from rollem.server.sat_out import sat_out_records, sat_out_setups

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

__all__ = ["HANDS_LISTED_AT_ONCE", "hand_routes", "replay_body"]

HANDS_LISTED_AT_ONCE = 2048
"""Hands of the hand list looked at in one step of the event loop (about 2 us each;
s61-safe: a table of 20,000 hands listed in one step, 80 to 400 ms at load 11 to
19, within anyone's 30 costly requests at once)."""


def _setup(table: LiveTable, hand_no: int) -> dict[str, Any] | None:
    """The stored setup of hand ``hand_no`` of ``table`` (``None``: no such hand)."""
    row = table.store.load_hand(table.id, hand_no)
    return row.setup if row is not None else None


def replay_body(session: GameSession, game: str, names: list[str], result: Any,
                seat: int | None, pause: Callable[[], object] | None = None) -> ReplayBody:
    """The response body of finished hand ``session``'s replay for ``seat``
    (``None``: a watcher): :meth:`GameSession.replay` with the hand's number,
    ``game``, the players' ``names`` and its stored ``result``.  A watcher's is
    gzipped too; a seat's own replay names its own hand at each step (and its
    muck line), so it is padded to a length that follows the watcher's
    (:func:`rollem.server.own_pad.pad_replay`) and never compressed (a name at
    the table that repeats a hand's words would compress with them): its size
    tells nothing of a hand never shown (stop 56)."""
    def body(viewer: int | None) -> bytes:
        lean = session.replay(viewer, names, pause=pause)
        return orjson.dumps({
            "hand": session.hand_no, "game": game, "seat": viewer, "names": names,
            **lean, "result": result,
        }, option=orjson.OPT_NON_STR_KEYS)  # fmt: skip

    if seat is None:
        return encode_body(body(None))
    return ReplayBody(pad_replay(body(seat), len(body(None))), b"")


def hand_routes(ctx: AppContext) -> list[BaseRoute]:
    """The routes of a table's finished hands (each behind :meth:`AppContext.costly`)."""
    replays = ctx.replays
    histories = ctx.histories

    async def hands(request: Request) -> Response:
        table = await ctx.table(request)
        if table is None:
            return error(404, "no_table", "no such table")
        sees = ctx.may_see(request, table)
        token = request.cookies.get(seat_cookie(table.id))
        if not sees and not table.seating.left_hands_here(token):
            return private()
        out = []
        finished = await ctx.finished_hands(table)  # (each stored row read once, kept)
        seat_in = table.seats_in_hands(token)  # (the cookie's stints found once: s60-safe)
        for i, hand in enumerate(finished):
            if i and i % HANDS_LISTED_AT_ONCE == 0:
                await asyncio.sleep(0)  # (the other tables' turn: s61-safe)
            # Only the viewer's own hands show its result (never a predecessor's).
            seat = seat_in(hand.hand_no, hand.seats)
            if seat is None and not sees:
                continue  # (a gated table's former player: their own hands only)
            # (s63-table: the page said "won by Ann · you +2" to Ann: "you_at" is
            # where the viewer's own name stands in ``winners``, for "won by you")
            won = [s for s, _ in hand.winner_seats()]
            out.append({
                "hand": hand.hand_no, "game": hand.game,
                "net": hand.net(seat) if seat is not None else None,
                "winners": hand.winners(),
                "you_at": won.index(seat) if seat in won else None,
            })  # fmt: skip
            if hand.runs and hand.names is not None:
                # a hand run twice: who won each run (stop 73), "you_at" as above
                out[-1]["runs"] = [
                    {"winners": [hand.names[s] for s in run if s < len(hand.names)],
                     "you_at": run.index(seat) if seat in run else None}
                    for run in hand.runs]
        if not sees and not out:
            return private()
        # (orjson: starlette's json.dumps of 20,000 hands held the loop 60 ms more)
        return Response(orjson.dumps({"hands": out}), media_type="application/json")

    async def hand_frames(request: Request) -> Response:
        """A finished hand step by step as the asking browser may see it (the lean
        form of :meth:`GameSession.replay`), built on the replay thread and kept:
        a finished hand's replay for one viewer changes only when a player shows
        their cards by choice after it (R-C-11; :meth:`AppContext.hand_version` is
        in the key).  A watcher's is gzipped when the browser accepts it; a seat's
        own is padded and sent uncompressed (:func:`rollem.server.own_pad.pad_replay`)."""
        found = await ctx.finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = ctx.played(request, table, row, hand_no)
        # The names of the players dealt this hand, not of whoever sits there now.
        names = player_names(row.setup, table.names())

        def make() -> Callable[[], ReplayBody]:
            actions = table.store.load_actions(table.id, hand_no)  # (read on the loop)

            def build() -> ReplayBody:
                session = GameSession.restore(hand_no, row.setup, actions)
                return replay_body(session, row.setup["game"], names, row.result, seat,
                                   pause=lambda: time.sleep(0))
            return build

        version = await ctx.hand_version(table, hand_no)  # (a show by choice since)
        body = await ctx.built(replays, (table.id, hand_no, seat, tuple(names), version), make,
                               table.id)
        if isinstance(body, Response):
            return body
        headers = {"Vary": "Accept-Encoding"}
        if body.gzipped and "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(body.gzipped, media_type="application/json", headers=headers)
        return Response(body.json, media_type="application/json", headers=headers)

    async def hand_history(request: Request) -> Response:
        """The player's own copy of a finished hand's history (TOML)."""
        found = await ctx.finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = ctx.played(request, table, row, hand_no)
        if seat is None:
            return error(403, "not_yours", "only a player dealt into this hand can download it")
        # The names of the players dealt this hand, not of whoever sits there now.
        names = player_names(row.setup, table.names())
        version = await ctx.hand_version(table, hand_no)  # (a show by choice since)
        key = (table.id, hand_no, seat, tuple(names), version)
        # the hands before, for the sat-out records: read in turns (s61-safe), and
        # only for a copy not built yet
        finished = None if histories.holds(key) else await ctx.finished_hands(table)

        def make() -> Callable[[], ReplayBody]:
            actions = table.store.load_actions(table.id, hand_no)  # (read on the loop)
            numbers, setups = sat_out_setups(
                ctx.finished_hands_now(table) if finished is None else finished, hand_no,
                names[seat], lambda n: _setup(table, n))  # (None: dropped since, rare)

            def build() -> ReplayBody:
                # Replays the hand, showdown included, on the replay thread (issue 34).
                session = GameSession.restore(hand_no, row.setup, actions)
                sat_out = sat_out_records(numbers, setups.get)
                return ReplayBody(session.history_text(seat, names, sat_out).encode(), b"")
            return build

        body = await ctx.built(histories, key, make, table.id)
        if isinstance(body, Response):
            return body
        return Response(body.json, media_type="application/toml",
                        headers={"Content-Disposition":
                                 f'attachment; filename="hand-{hand_no}.toml"'})

    async def hand_verify(request: Request) -> Response:
        """``rollem verify`` of the asking player's own copy of a finished hand
        (issue 32): the copy the download gives (:meth:`GameSession.history_text`:
        its commitment, client seeds and the openings of exactly the cards that
        seat saw), checked as the command checks it, off the event loop.  JSON:
        :meth:`rollem.verify.Verdict.to_dict`, with ``told`` (the reason in players'
        words, :attr:`rollem.verify.Verdict.told`: the page shows it), ``seat`` and
        ``client_seeds`` (so the page can compare its own seed).  Built on the replay
        thread and kept, as the copy is."""
        found = await ctx.finished_hand(request)
        if isinstance(found, Response):
            return found
        table, hand_no, row = found
        seat = ctx.played(request, table, row, hand_no)
        if seat is None:
            return error(403, "not_yours", "only a player dealt into this hand can verify "
                         "their copy of it")
        names = player_names(row.setup, table.names())
        version = await ctx.hand_version(table, hand_no)  # (a show by choice since)
        key = (table.id, hand_no, seat, tuple(names), version)
        finished = None if ctx.verdicts.holds(key) else await ctx.finished_hands(table)

        def make() -> Callable[[], ReplayBody]:
            actions = table.store.load_actions(table.id, hand_no)  # (read on the loop)
            numbers, setups = sat_out_setups(
                ctx.finished_hands_now(table) if finished is None else finished, hand_no,
                names[seat], lambda n: _setup(table, n))  # (None: dropped since, rare)

            def check() -> ReplayBody:
                import tomllib

                from rollem.verify import verify_history

                session = GameSession.restore(hand_no, row.setup, actions)
                sat_out = sat_out_records(numbers, setups.get)
                copy = tomllib.loads(session.history_text(seat, names, sat_out))
                verdict = verify_history(copy)
                return ReplayBody(orjson.dumps({
                    **verdict.to_dict(), "told": verdict.told or verdict.reason, "seat": seat,
                    "client_seeds": copy.get("_client_seeds", {})},
                    option=orjson.OPT_NON_STR_KEYS), b"")
            return check

        # built once per copy (a show by choice after the hand makes a new one), on
        # the replay thread shared fairly by the tables, as the copy itself is
        body = await ctx.built(ctx.verdicts, key, make, table.id)
        if isinstance(body, Response):
            return body
        return Response(body.json, media_type="application/json")

    return [
        Route("/api/tables/{tid}/hands", ctx.costly(hands)),
        Route("/api/tables/{tid}/hands/{n}", ctx.costly(hand_frames)),
        Route("/api/tables/{tid}/hands/{n}/history.toml", ctx.costly(hand_history)),
        Route("/api/tables/{tid}/hands/{n}/verify", ctx.costly(hand_verify)),
    ]
