"""Fixtures of the web-table tests: a live server in a thread with its own database.

``server`` runs each test that uses it twice: on a SQLite file (the default
store) and on a PostgreSQL database (issue 17) of one private cluster
started for the whole run (``pg_cluster``, only when a PostgreSQL test runs).
``shared_server`` does the same with one server per module and store, for tests
that only make tables of their own and read them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pg_cluster import PgCluster
from table_ui import ARGS, TEST_CHROMIUM, Pages
from web_harness import ServerThread


@pytest.fixture(scope="session", autouse=True)
def one_ssl_context() -> Iterator[None]:
    """One default SSL context for every httpx client of the run.  ``httpx.get`` and
    ``httpx.post`` make a client each call, and each client a fresh context that
    loads certifi's CA file (about 15 ms, far more on a loaded machine); these tests
    make thousands of plain-HTTP calls to their own servers, none over TLS.  Only
    the default (``verify=True``, no client certificate) is shared; a client given
    its own ``verify`` or ``cert`` gets its own context as usual."""
    try:
        from httpx._transports import default
    except ImportError:  # (another httpx layout: every client makes its own)
        yield
        return
    make = default.create_ssl_context
    shared = make()

    def create_ssl_context(verify: Any = True, cert: Any = None, trust_env: bool = True) -> Any:
        if verify is True and cert is None and trust_env:
            return shared
        return make(verify=verify, cert=cert, trust_env=trust_env)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(default, "create_ssl_context", create_ssl_context)
        yield


@pytest.fixture(autouse=True)
def no_seed_wait(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables in this process deal without waiting for client seeds (issue 32's
    2 s wait; a test's players send none, so every hand would wait it out): the
    tests of the committed deal itself (``test_verify*``) keep the wait, and a
    test may set its own after this."""
    if "verify" in request.module.__name__:
        return
    from rollem.server.live_table import LiveTable

    monkeypatch.setattr(LiveTable, "CLIENT_SEED_WAIT", 0.0)


class _Chromium:
    """The worker's Playwright driver and Chromium, shared by its test modules
    (launching both costs about 0.7 CPU-s and a second of wall a module under
    load; docs/dev/test-suite-time.md, stop 58). Playwright's sync API marks its
    event loop as the thread's running loop after each call; between the modules
    that use the browser that mark is taken off, so the other tests of the worker
    can run their own loops (``asyncio.run``) as before."""

    def __init__(self) -> None:
        self.manager: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        """The browser (launched at the first call, and again if it went away),
        with Playwright's loop marked running for the module that asks."""
        sync_api = pytest.importorskip("playwright.sync_api")
        if not Path(TEST_CHROMIUM).exists():
            pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
        if self.manager is not None:
            asyncio.events._set_running_loop(self.manager._loop)
            if self.browser is not None and self.browser.is_connected():
                return self.browser
            self.close()
        self.manager = sync_api.sync_playwright()
        playwright = self.manager.start()
        self.browser = playwright.chromium.launch(executable_path=TEST_CHROMIUM, args=ARGS,
                                                  headless=True)
        return self.browser

    def put_down(self) -> None:
        """A module is done with it: every context it left open is closed (as
        closing its own browser did) and the thread has no running loop again."""
        try:
            if self.browser is not None and self.browser.is_connected():
                for context in list(self.browser.contexts):
                    with contextlib.suppress(Exception):  # (one already gone)
                        context.close()
        finally:
            asyncio.events._set_running_loop(None)

    def close(self) -> None:
        """The browser closed and the driver stopped (at the session's end, or
        before a new launch when the browser went away)."""
        if self.manager is None:
            return
        asyncio.events._set_running_loop(self.manager._loop)
        try:
            if self.browser is not None:
                with contextlib.suppress(Exception):  # (a browser that went away)
                    self.browser.close()
        finally:
            self.manager.__exit__()
            self.manager = self.browser = None
            asyncio.events._set_running_loop(None)


@pytest.fixture(scope="session")
def _chromium() -> Iterator[_Chromium]:
    shared = _Chromium()
    yield shared
    shared.close()


@pytest.fixture(scope="module")
def browser(_chromium: _Chromium) -> Iterator[Any]:
    """Debian's Chromium through Playwright, its headless shell where installed
    (``table_ui.TEST_CHROMIUM``): one for the worker, lent to each test module
    that asks (:class:`_Chromium`); what contexts a module leaves open are
    closed at its end."""
    b = _chromium.get()
    try:
        yield b
    finally:
        _chromium.put_down()


@pytest.fixture(scope="module")
def page_pool(browser: Any) -> Iterator[Pages]:
    """One page per kind of context for the test module (:class:`table_ui.Pages`)."""
    pool = Pages(browser)
    yield pool
    pool.close()


@pytest.fixture
def pages(page_pool: Pages) -> Iterator[Pages]:
    """The module's pages (:class:`table_ui.Pages`): at the test's end every one's
    cookies and site storage cleared, and the page frozen."""
    yield page_pool
    page_pool.rest(clean=True)


@pytest.fixture(scope="module")
def live(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A live server on a SQLite file, one for the test module."""
    srv = ServerThread(tmp_path_factory.mktemp("web") / f"{request.module.__name__}.db")
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    cluster = PgCluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database for one test: a SQLite file, or a PostgreSQL URL."""
    if request.param == "postgresql":
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        return cluster.new_database()
    return str(tmp_path / "table.db")


@pytest.fixture
def server(db: str) -> Iterator[ServerThread]:
    srv = ServerThread(db)  # type: ignore[arg-type]
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared_server(request: pytest.FixtureRequest,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """As ``server`` (a SQLite file, then a PostgreSQL database), but one server and
    database for all the tests of a module that use it: for tests that make tables of
    their own and only ask about them (no table dealt, no patched store or setting, no
    restart, nothing counted across the server), so what one leaves cannot reach
    another. A server's start and stop and a PostgreSQL database cost 0.3 to 0.7 s of
    waiting a test under load (docs/dev/test-suite-time.md, stop 47)."""
    if request.param == "postgresql":
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        db = cluster.new_database()
    else:
        db = str(tmp_path_factory.mktemp("web") / f"{request.module.__name__}.db")
    srv = ServerThread(db)  # type: ignore[arg-type]
    try:
        yield srv
    finally:
        srv.stop()
