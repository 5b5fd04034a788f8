"""``python -m rollem`` runs the command line."""

from rollem.cli.app import main

main()
