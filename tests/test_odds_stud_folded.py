"""Odds in stud games see a folded seat's up cards (s62-fresh).

A stud street deals its up cards in one ``deal_up`` event per seat whose
``cards`` is a list; the odds' reading of a view took only events with one
``card`` (Roll Your Own's exposes, 5-2-1's roll-ups), so the up cards of a seat
that folded at stud, razz or stud hi-lo were sampled as unseen cards: a player
drawing to cards everyone saw folded was given them.
"""

from __future__ import annotations

from rollem.cards import parse_cards
from rollem.engine import Call, Check, Fold, Hand, Options, ReplaySource
from rollem.odds.view import read_view, view_equity


def _folded_up_hand() -> Hand:
    """Stud, three seats, button 2 (dealt 0, 1, 2): seat 0 holds As Ah down and
    Ks Kh 2c 3d up; seat 1 shows Ac Ad Kc and folds on fifth street; seat 2
    holds Kd 6h down and shows Qc Qd Qh 4s.  Stopped at seat 0's sixth-street
    decision (one card to come)."""
    cols = {0: parse_cards("As Ah Ks Kh 2c 3d 7c"),
            1: parse_cards("9c 8d Ac Ad Kc"),
            2: parse_cards("Kd 6h Qc Qd Qh 4s 2h")}
    deck = [int(cols[s][k]) for k in range(5) for s in (0, 1, 2)]
    deck += [int(cols[s][k]) for k in (5, 6) for s in (0, 2)]
    deck += [c for c in range(52) if c not in deck]
    hand = Hand("stud", [200] * 3, button=2, options=Options(),
                source=ReplaySource([("deck", deck)]))
    while True:
        seat = hand.pending.seats[0]
        cards = hand.view(0).to_dict()["seats"]
        if seat == 1 and len(cards[1]["cards"]) == 5 and not hand.folded[1]:
            hand.apply(1, Fold())
            continue
        if seat == 0 and len(cards[0]["cards"]) == 6:
            return hand
        legal = hand.legal_actions(seat)
        hand.apply(seat, Call() if "call" in legal.actions else Check())


def test_folded_stud_seat_up_cards_are_seen() -> None:
    hand = _folded_up_hand()
    view = hand.view(0)
    assert view.to_dict()["seats"][1]["cards"] == []  # folded: no cards in the view
    assert [str(c) for c in _seen(view)] == ["Kc", "Ac", "Ad"]


def _seen(view: object) -> list[object]:
    from rollem.cards import CARDS

    return [CARDS[c] for c in read_view(view).seen_out]


def test_stud_odds_do_not_deal_a_folded_seats_up_cards() -> None:
    """Seat 0 (aces and kings up) beats seat 2's three queens showing only with
    a full house: of the ace or king it needs, Ac Ad Kc were shown by the seat
    that folded, so only Kd is left among the 39 cards seat 0 has not seen:
    equity 1/39 x P(seat 2 has no Qs among its 3 unknown of 38) ~ 1/39 x 35/38
    = 0.0236 (the other quads, 4s with three fours, add ~0.0001). Before the
    fix all four outs were sampled: 0.088."""
    view = _folded_up_hand().view(0)
    odds = view_equity(view, samples=20_000, seed=1)
    expected = 1 / 39 * 35 / 38
    assert odds.method == "monte-carlo"
    assert abs(odds.equity - expected) < 4 * odds.stderr + 0.0005, (odds.equity, expected)
