"""The web table: ``rollem serve`` (Starlette app, SQLite store, browser client).

Modules: :mod:`~rollem.server.app` (the app: :func:`~rollem.server.app.create_app`
puts together :mod:`~rollem.server.routes_tables`,
:mod:`~rollem.server.routes_hands`, :mod:`~rollem.server.routes_session`,
:mod:`~rollem.server.ws_endpoint`, :mod:`~rollem.server.limits` and
:mod:`~rollem.server.elsewhere`), :mod:`~rollem.server.live_table`
(one table in play), :mod:`~rollem.server.manager` (all tables),
:mod:`~rollem.server.store` (SQLite, WAL), :mod:`~rollem.server.protocol`
(websocket messages), :mod:`~rollem.server.config` (table options),
:mod:`~rollem.server.game_session` (the one adapter to the engine).
"""
