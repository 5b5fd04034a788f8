"""The web table: ``rollem serve`` (Starlette app, SQLite store, browser client).

Modules: :mod:`~rollem.server.app` (routes), :mod:`~rollem.server.live_table`
(one table in play), :mod:`~rollem.server.manager` (all tables),
:mod:`~rollem.server.store` (SQLite, WAL), :mod:`~rollem.server.protocol`
(websocket messages), :mod:`~rollem.server.config` (table options),
:mod:`~rollem.server.game_session` (the one adapter to the engine).
"""
