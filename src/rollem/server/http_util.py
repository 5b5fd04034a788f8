"""What every route of the web table's app uses (:mod:`rollem.server.app`): the
cookie names, the JSON error reply, the request body read within its limits,
the HTTP status of a :class:`~rollem.server.live_table.TableError`, and a hand
number from the URL."""

from __future__ import annotations

from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

from rollem.server.config import ServerSettings, unknown_field_message
from rollem.server.live_table import TableError
from rollem.server.manager import TableUnreadable
from rollem.server.protocol import DuplicateKeyError, deeper_than, loads_once_keyed, utf8_text
from rollem.text import ascii_digits

__all__ = ["COOKIE_AGE", "error", "hand_number", "host_cookie", "json_body", "only_fields",
           "private", "seat_cookie", "status_of", "unreadable", "watch_cookie"]

COOKIE_AGE = 60 * 60 * 24 * 30
"""How long the seat, host and watcher cookies are kept (seconds)."""


def seat_cookie(table_id: str) -> str:
    """Name of the cookie holding this browser's seat token at ``table_id``."""
    return f"rollem_seat_{table_id}"


def host_cookie(table_id: str) -> str:
    """Name of the cookie holding the host token of ``table_id``."""
    return f"rollem_host_{table_id}"


def watch_cookie(table_id: str) -> str:
    """Name of the cookie holding this browser's watcher token at ``table_id`` (a
    private table's or a password's watchers, issue 27)."""
    return f"rollem_watch_{table_id}"


def unreadable(err: TableUnreadable) -> str:
    """The refusal of a stored table that cannot be restored, naming why."""
    return (f"this table cannot be opened: it was stored with something this server can no "
            f"longer read ({err.reason}); other tables are not affected")


def error(status: int, code: str, message: str, **more: str | int) -> JSONResponse:
    """The JSON error reply ``{"error": code, "message": message}`` (and ``more``'s
    fields, e.g. ``form_message``: the refusal in the lobby form's words;
    ``retry_after``: whole seconds until a refused request may be made again)."""
    return JSONResponse({"error": code, "message": message, **more}, status_code=status)


def private() -> JSONResponse:
    """The refusal of a gated table to an unapproved watcher (issue 27, 403 ``private``)."""
    return error(403, "private", "this table is private: ask the host to let you watch "
                 "(with its password, if it has one) or take a seat")


def status_of(err: TableError) -> int:
    """The HTTP status answering ``err`` (400 unless its code says otherwise)."""
    return {"too_large": 413, "too_many_tables": 429, "server_full": 503, "bad_password": 403,
            "rate_limited": 429, "too_many_requests": 429, "too_many_watchers": 409,
            "too_many_seats": 429,
            }.get(err.code, 400)


async def json_body(request: Request, settings: ServerSettings,
                    extra: int = 0) -> dict[str, Any]:
    """The request's JSON object.  The body is cut off while it is read once it
    passes ``settings.max_body_bytes`` (plus ``extra`` bytes: a table's game
    file) (``too_large``); nesting deeper than ``settings.max_json_depth``, or an
    object giving a key twice (:func:`~rollem.server.protocol.loads_once_keyed`), is
    ``malformed``.

    Raises:
        TableError: ``malformed`` (not JSON, not UTF-8, not an object, nested too deep, a key
            given twice, not sent as ``application/json``, the client gone before its
            end) or ``too_large``.
    """
    # JSON only: a cross-site form cannot send it without the browser asking first.
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise TableError("malformed", "send the request body as application/json")
    limit = settings.max_body_bytes + extra
    too_large = TableError("too_large", f"request body too large: at most {limit} bytes")
    declared = request.headers.get("content-length", "")
    if ascii_digits(declared) and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:  # gone (or closed for its deadline) before the body ended:
        # answered to nobody, and no traceback in the log for each (stop 73)
        raise TableError("malformed", "the request body was not sent whole") from None
    body = utf8_text(b"".join(chunks), TableError(
        "malformed", "the request body must be JSON text in UTF-8"))
    if deeper_than(body, settings.max_json_depth):
        raise TableError("malformed", f"JSON nested more than {settings.max_json_depth} deep")
    try:
        data = loads_once_keyed(body or "{}")
    except DuplicateKeyError as err:
        raise TableError("malformed", f"the request body: {err.message}") from None
    except (ValueError, RecursionError):
        raise TableError("malformed", "the request body must be JSON") from None
    if not isinstance(data, dict):
        raise TableError("malformed", "the request body must be a JSON object")
    return data


def only_fields(data: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Refuse a request body with a field ``allowed`` does not name (a typo is never
    silently ignored), as the websocket refuses a message's
    (:data:`rollem.server.protocol.FIELDS`).

    Raises:
        TableError: ``unknown_field`` (HTTP 400), naming the first unknown field
            (in sorted order) and the fields allowed.
    """
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise TableError("unknown_field", unknown_field_message(what, unknown[0], allowed))


def hand_number(text: str) -> int | None:
    """A hand number from the URL, or None if it is not a plausible one (SQLite INTEGER)."""
    if not ascii_digits(text) or len(text) > 18:
        return None
    number = int(text)
    return number if number >= 1 else None
