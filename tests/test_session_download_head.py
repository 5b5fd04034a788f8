"""The web table's whole-session download (``history.phhs``) starts with comment
lines in the player's words: what the file is, and how many hands were left
out; no developer's issue number (issue 33: the file a player saved began
"# rollem: one player's own copies of a session's hands (issue 27)")."""

from __future__ import annotations

from rollem.server.routes_session import MAX_BULK_HANDS, bulk_phhs


def test_the_session_download_head_is_in_players_words() -> None:
    assert bulk_phhs([], {}, left_out=0) == (
        "# rollem: one player's own copies of a session's hands\n\n"
    )
    assert bulk_phhs([], {}, left_out=3) == (
        "# rollem: one player's own copies of a session's hands\n"
        f"# the 3 earliest hands left out: at most {MAX_BULK_HANDS} a file\n\n"
    )
