"""The ``rollem`` command line (see ``CLI.md`` for the fixed points)."""
