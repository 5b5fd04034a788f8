"""Showing by choice once the hand is over (R-C-11): an engine action that
changes no result, a public event, a history line that replays."""

from __future__ import annotations

import pytest

from rollem.cards import parse_cards
from rollem.engine import Bet, Call, Check, Fold, Hand, IllegalAction, SeededSource, Show
from rollem.history import replay, write_history
from rollem.narration import narrate_view


def folded_hand() -> Hand:
    """Seat 0 bets, seats 1 and 2 fold: over without a showdown."""
    h = Hand("sdr", [200] * 3, button=2, source=SeededSource(5))
    h.apply(0, Bet(2))
    h.apply(1, Fold())
    h.apply(2, Fold())
    assert h.is_over
    return h


def test_no_show_before_the_end() -> None:
    h = Hand("sdr", [200] * 3, button=2, source=SeededSource(5))
    with pytest.raises(IllegalAction, match="once the hand is over"):
        h.apply(0, Show(tuple(h.hole[0])))
    assert h.legal_actions(1).actions == ()


def test_show_some_then_the_rest_changes_no_result() -> None:
    h = folded_hand()
    result = h.result
    net = dict(result.net) if result else {}
    legal = h.legal_actions(1)  # a folded seat may show too
    assert legal.kind == "show" and legal.actions == ("show",)
    assert legal.cards == tuple(h.hole[1]) and (legal.min_count, legal.max_count) == (1, 2)
    first = h.hole[1][0]
    events = h.apply(1, Show((first,)))
    # public: the seat sees its cards in its order, others in public_order
    assert [(e.kind, e.seat, e.data, e.to, e.public) for e in events] == [
        ("show", 1, {"cards": [first], "by_choice": True}, frozenset((1,)),
         {"cards": [first], "by_choice": True})]
    assert h.legal_actions(1).cards == (h.hole[1][1],)
    # everyone (a spectator too) now sees that card, the other one stays a back
    assert h.view(None).seats[1].cards == [str(first), None]
    assert h.view(2).seats[1].cards == [str(first), None]
    last = h.apply(1, Show((h.hole[1][1],)))
    assert h.legal_actions(1).actions == ()
    # the whole hand public now: it and its name ride on the last show (stop 53:
    # "Bob shows Qs by choice" named no hand), the public copy in public_order
    assert [(e.data, e.public) for e in last] == [
        ({"cards": [h.hole[1][1]], "by_choice": True, "hand": list(h.hole[1]),
          "description": "queen high, six"},
         {"cards": [h.hole[1][1]], "by_choice": True,
          "hand": sorted(h.hole[1], reverse=True), "description": "queen high, six"})]
    assert [str(c) for c in h.hole[1]] == ["6h", "Qs"]
    view = {**h.view(0).to_dict(), "game": "sdr"}
    told = [line.text for line in narrate_view(view, ["Ann", "Bob", "Cy"])
            if line.kind == "show_after"]
    assert told == ["Bob shows 6h after the hand.",
                    "Bob shows Qs after the hand: queen high, six."]
    # shown cards, not turned up: highest first, never the order dealt (public_order)
    assert h.view(0).seats[1].cards == [str(c) for c in sorted(h.hole[1], reverse=True)]
    assert h.view(1).seats[1].cards == [str(c) for c in h.hole[1]]
    assert h.result is result and h.result.net == net
    assert h.view(1).legal is None and h.view(0).legal is not None


@pytest.mark.parametrize("cards,message", [
    ((), "cannot show no cards"),
    (None, "cannot show"),          # another seat's card
])
def test_bad_shows_change_nothing(cards: tuple[int, ...] | None, message: str) -> None:
    h = folded_hand()
    if cards is None:
        cards = (h.hole[2][0],)
    before = (len(h.events), len(h.actions))
    with pytest.raises(IllegalAction, match=message):
        h.apply(1, Show(cards))
    assert (len(h.events), len(h.actions)) == before
    with pytest.raises(IllegalAction, match="hand is over"):
        h.apply(1, Check())


def test_not_dealt_in_cannot_show() -> None:
    h = Hand("sdr", [200, 0, 200], button=2, source=SeededSource(5))
    h.apply(0, Bet(2))
    h.apply(2, Fold())
    assert h.legal_actions(1).actions == ()
    with pytest.raises(IllegalAction, match="not dealt"):
        h.apply(1, Show(tuple(parse_cards("As"))))


def test_shown_cards_at_showdown_are_not_offered_again() -> None:
    h = Hand("sdr", [200] * 2, button=1, source=SeededSource(7))
    while not h.is_over:
        seat = h.pending.seats[0] if h.pending else 0
        h.apply(seat, Call() if "call" in h.legal_actions(seat).actions else Check())
    assert h.result is not None
    for s in range(2):
        assert h.legal_actions(s).cards == tuple(
            c for c in h.hole[s] if c not in h.result.shown_cards.get(s, ()))


def test_history_line_and_replay() -> None:
    h = folded_hand()
    h.apply(2, Show(tuple(h.hole[2])))
    text = write_history(h)
    line = f"p3 sm {''.join(str(c) for c in h.hole[2])}"
    assert text.count(line) == 1
    again = replay(text)
    assert again.shown_by_choice == {2: list(h.hole[2])}
    assert again.result == h.result
