"""A bust that leaves one player holding chips while rebuys are open does not
end the tournament (stop 50): the busted entrant may still rebuy, or decline,
and only then is it over, placed by bust order with every rebuy in the pool."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rollem.tournament import SCHEDULES
from rollem.tournament.places import Bust
from rollem.tournament.session import Tournament
from rollem.tournament.simulate import run_tournaments


def _heads_up_bust() -> tuple[Tournament, list[int]]:
    """3 entrants of 10, rebuys in the first 2 levels (turbo: 6 hands a level);
    seat 2 busted in hand 1 and rebought (pool 40), then seat 2 busted again
    in hand 2 and seat 1 in hand 3 (heads-up with seat 0): level 1 still."""
    t = Tournament(SCHEDULES["turbo"], 3, buy_in=10, rebuy_levels=2)
    t.record([100, 100, 100], [100, 100, 0])
    t.rebuy(2)
    t.record([100, 100, 100], [150, 150, 0])
    t.record([150, 150, 0], [300, 0, 0])
    return t, [300, 0, 0]


def test_a_heads_up_bust_in_the_rebuy_levels_is_not_over() -> None:
    t, stacks = _heads_up_bust()
    assert t.level == 0 and t.rebuy_open
    assert t.left(stacks) == [0]
    assert not t.over(stacks)  # (main: over at once)
    assert t.rebuy_waiting() == [1, 2] and t.may_rebuy(1)
    assert t.prize_pool == 40


def test_a_heads_up_rebuy_plays_on() -> None:
    t, stacks = _heads_up_bust()
    t.decline_rebuy(2)
    assert not t.over(stacks)  # seat 1 may still rebuy
    t.rebuy(1)
    stacks[1] = 100
    assert not t.over(stacks) and t.prize_pool == 50
    assert t.busts == [Bust(2, 2, 100)]


def test_declining_ends_it_with_places_by_bust_order_and_every_rebuy_paid() -> None:
    t, stacks = _heads_up_bust()
    t.decline_rebuy(2)
    t.decline_rebuy(1)
    assert t.over(stacks)
    # seat 2 out first (hand 2): 3rd; seat 1 (hand 3): 2nd; seat 0 wins
    assert t.places(stacks) == {2: 3, 1: 2, 0: 1}
    assert t.prize_pool == 40  # 3 buy-ins and seat 2's rebuy
    assert t.payouts(stacks) == {0: 40, 1: 0, 2: 0}  # 3 entrants: the winner takes all
    with pytest.raises(ValueError, match="declined its rebuy"):
        t.rebuy(1)
    back = Tournament(SCHEDULES["turbo"], 3, buy_in=10, rebuy_levels=2)
    back.load_state(t.state())
    assert back.declined == {1, 2} and back.over(stacks)


def test_rebuys_closing_ends_a_heads_up_bust() -> None:
    t, stacks = _heads_up_bust()
    t.hands_played = 12  # level 3: rebuys closed
    assert not t.rebuy_open and t.over(stacks)
    with pytest.raises(ValueError, match="has not busted"):
        t.decline_rebuy(0)


def _terminal(tmp_path: Path, answers: list[str]) -> tuple[str, list[str], Tournament]:
    """You (seat 0) busted heads-up against Ann in level 1 of 2 rebuy levels."""
    from rollem.cli.play_cmd import TerminalGame
    from rollem.cli.tourney_flags import TournamentFlags

    it = iter(answers)
    prompts: list[str] = []
    out = io.StringIO()
    game = TerminalGame(game="sdr", players=2, level="random", stack=200, seed=5,
                        show_odds=False, history_dir=tmp_path, rich=False,
                        read_line=lambda prompt: prompts.append(prompt) or next(it, "q"),
                        out=out, tournament=SCHEDULES["turbo"],
                        tournament_flags=TournamentFlags(buy_in=20, rebuy_levels=2))
    t = game.tournament
    assert t is not None
    game.table.stacks[:] = [0, 200]
    t.busts = [Bust(1, 0, 100)]
    t.hands_played = 1
    game.run()
    return out.getvalue(), prompts, t


def test_the_terminal_offers_a_heads_up_rebuy_and_y_plays_on(tmp_path: Path) -> None:
    text, prompts, t = _terminal(tmp_path, ["y"])
    # (over 80 columns: its start is said, the prompt is the rest; s73-newcomer)
    assert "You are out of chips. Rebuy 100 chips for a buy-in of 20? (y = yes, n = no,\n" \
        in text
    assert prompts[0] == "  out of the tournament) > "
    assert "You rebuy 100 chips" in text
    assert "=== Hand 1:" in text  # the next hand is dealt
    assert t.rebuys == {0: 1} and t.prize_pool == 60
    assert "Finishing places" not in text


def test_the_terminal_heads_up_decline_shows_the_final_places(tmp_path: Path) -> None:
    text, prompts, t = _terminal(tmp_path, ["n"])
    assert "You are out of chips. Rebuy 100 chips" in text
    assert prompts[0] == "  out of the tournament) > "
    assert t.declined == {0} and t.rebuys == {}
    assert "You win the tournament" not in text
    assert "Finishing places (2 entrants, buy-in 20, prize pool 40):" in text
    assert "  1st: Ann, wins 40" in text and "  2nd: You" in text


def test_simulate_counts_rebuys_from_heads_up_busts() -> None:
    """Heads-up (2 bots): every bust leaves one player with chips, so every
    rebuy is from a heads-up bust (main: none, the first bust ends it)."""
    run = run_tournaments("sdr", SCHEDULES["turbo"], ["random", "random"],
                          tournaments=3, hands_max=2000, seed=7, buy_in=10,
                          rebuy_levels=10)
    assert run.rebuys == 10  # (main: 0)
    assert run.unfinished == 0 and len(run.hands) == 3
    # every buy-in and rebuy paid in and paid out: the nets add up to 0
    assert sum(run.winnings) == 0 and run.winnings != [0, 0]
