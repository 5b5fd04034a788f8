"""Helpers of the felt's browser tests (issue 26): each seat's label as the page
draws it, checked against the server's hand (its events and ``last_actions``)."""

from __future__ import annotations

import json
import re
from itertools import combinations
from typing import Any

from table_ui import shot, wait_until

SUIT = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def symbols(text: str) -> str:
    """Card codes as the page draws them: "turns up 9h" -> "turns up 9♥", "Tc" -> "10♣"."""
    return re.sub(r"\b([2-9TJQKA])([cdhs])\b",
                  lambda m: ("10" if m[1] == "T" else m[1]) + SUIT[m[2]], text)


LABEL_KIND = {"check": "check", "call": "call", "bet": "bet", "raise": "raise", "fold": "fold",
              "discard": "discard", "expose": "expose", "pool_draw": "draw", "draw": "draw",
              "stacked": "stack", "roll": "roll", "wild": "wild", "declare": "declare",
              "show": "show", "muck": "muck", "blind": "blind"}
"""The kind of label each action of a seat draws (a ``chose`` event: its step's; a
bring-in: ``bring-in``; anything all-in: ``all-in``; a posted blind: ``blind``,
"big blind 2")."""

KEPT = ("fold", "muck", "show", "draw", "pool_draw", "discard", "expose", "stacked", "roll",
        "wild", "declare", "chose")
"""Actions whose label stays at a new round, until the seat's next action: a fold
and what a seat did with its cards ("draws 2", "turns up 9♥")."""

CLEARS = ("round", "choose", "draw_round")
"""Events that clear the betting labels (a new round, draw or all-at-once step);
a new draw (``draw_round``) clears the last draw's words too ("stands pat")."""


def expected_labels(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each seat's latest labelled action (betting words: this round's; a blind
    posted: until the seat's next action) from a viewer's events: seat -> event (a
    stud completion, the first full bet of a round opened by a bring-in, marked
    ``completes``)."""
    latest: dict[int, dict[str, Any]] = {}
    opened = False  # a blind's label stays through the first round's opening
    completing = False  # a stud round opened by a bring-in: its first full bet completes
    for e in events:
        if e["kind"] == "round":
            completing = bool(e.get("to_complete"))
        if e["kind"] in ("bet", "raise") and e.get("seat") is not None:
            if e.get("bring_in"):
                completing = True
            elif completing:   # (the bring-in seat's own completion too)
                completing = False
                e = {**e, "completes": True}
        if e["kind"] in CLEARS:
            latest = {s: v for s, v in latest.items()
                      if (v["kind"] in KEPT or (v["kind"] == "blind" and not opened))
                      and not (e["kind"] == "draw_round" and v["kind"] == "draw")}
            opened = True
        elif e.get("seat") is not None and (e["kind"] in LABEL_KIND or e["kind"] == "chose"):
            latest[int(e["seat"])] = e
    return latest


def label_kind(e: dict[str, Any]) -> str:
    """The ``data-kind`` the page gives the label of the action ``e``."""
    if e.get("all_in"):
        return "all-in"
    if e["kind"] == "bet" and e.get("bring_in"):
        return "bring-in"
    if e.get("completes"):   # (marked by expected_labels)
        return "complete"
    return str(e["step"]) if e["kind"] == "chose" else LABEL_KIND[e["kind"]]


def drawn_felt(page: Any, live: Any, tid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The server's hand view for seat 0 and what the page drew of the same state
    (``labels``: seat -> [kind, words as sent, text drawn] or None; ``pot``;
    ``name``: your hand's name), read when both are at the same state (a
    computer player may act in between)."""
    table = live.manager.get(tid)
    while True:
        seq = table.seq
        view = (table.hand or table.final_hand).view(0)   # (the last hand, once over)
        wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", seq)
        drawn = page.evaluate("""() => {
          const out = {};
          document.querySelectorAll('#seats .seat[data-seat], #me').forEach(t => {
            const l = t.querySelector('.action-label:not(.none)');
            out[t.id === 'me' ? '0' : t.dataset.seat] =
              l ? [l.dataset.kind, l.dataset.text, l.textContent] : null;
          });
          const pot = document.querySelector('#pots .pot-total');
          const name = document.querySelector('#me .hand-name');   // (card symbols)
          return {seq: Number(document.body.dataset.seq), labels: out,
                  pot: pot ? Number(pot.dataset.total) : null,
                  name: name ? name.textContent : null};
        }""")
        if drawn["seq"] == seq == table.seq:
            return view, drawn


def check_labels(view: dict[str, Any], drawn: dict[str, Any], where: str) -> set[str]:
    """Each seat's drawn label is its latest action (betting words: this round's),
    of that action's kind, in the server's words (``last_actions``), cards drawn
    with suit symbols; a seat with no such action shows none.  Returns the label
    kinds drawn."""
    latest = expected_labels(view["events"])
    kinds = set()
    for seat in range(len(view["seats"])):
        got = drawn["labels"].get(str(seat))
        e = latest.get(seat)
        if e is None:
            assert got is None, f"{where}: seat {seat} says {got} with no action this round"
            continue
        words = view["last_actions"][str(seat)]["text"]
        kind = label_kind(e)
        assert got == [kind, words, symbols(words)], f"{where}: seat {seat} did {e}, drawn {got}"
        kinds.add(kind)
    return kinds


def home_game_labels(page: Any, live: Any, tid: str, where: str) -> set[str]:
    """:func:`check_labels` at one of the person's decisions; also the pot is the
    chips committed and your hand's name is the server's (``rollem eval``'s words,
    tests/test_felt_words.py).  Returns the kinds drawn."""
    view, drawn = drawn_felt(page, live, tid)
    hand = live.manager.get(tid).hand.hand
    assert drawn["pot"] == sum(hand.committed) + hand.carry_in, f"{where}: pot {drawn['pot']}"
    name = drawn["name"]
    assert name == symbols(view["hand_name"]) and name, f"{where}: your hand {name!r}"
    return check_labels(view, drawn, where)


def bet_chips_match(page: Any, live: Any, tid: str, where: str) -> None:
    """The chips drawn in front of each seat are its bet this round (the hand view's
    ``bet``), at one of the person's decisions (nothing moves)."""
    view = live.manager.get(tid).hand.view(0)
    drawn = page.evaluate("""() => Object.fromEntries(
      [...document.querySelectorAll('#seats .bet-chips, #me .bet-chips')].map(
        b => [b.dataset.seat, Number(b.dataset.amount)]))""")
    want = {str(i): s["bet"] for i, s in enumerate(view["seats"]) if s and s.get("bet")}
    assert drawn == want, f"{where}: chips {drawn}, bets {want}"


def won_adds_up(page: Any, view: dict[str, Any], where: str) -> None:
    """At a hand's result (``view``: the server's, read with the page at the same
    state, :func:`drawn_felt`): what each winner took, each half apart, adds up to
    the pots paid."""
    paid = sum(p["amount"] for p in view["result"]["pots"])
    won = page.evaluate("""() => [...document.querySelectorAll('.won-part')].map(
      w => Number(w.dataset.amount))""")
    assert sum(won) == paid and (won or not paid), f"{where}: won {won}, pots paid {paid}"


def _eval_json(cards: list[str], *flags: str) -> dict[str, Any]:
    """``rollem eval CARDS FLAGS --json`` (the command line, in this process)."""
    from click.testing import CliRunner

    from rollem.cli.app import app

    result = CliRunner().invoke(app, ["eval", *cards, *flags, "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def _low8(said: dict[str, Any]) -> bool:
    """An eight-or-better low: five different ranks, none above the eight."""
    ranks = [c[0] for c in said["cards"]]
    return len(set(ranks)) == 5 and all(r in "A2345678" for r in ranks)


def eval_words(game: str, view: dict[str, Any], seat: int = 0) -> str:
    """What ``rollem eval`` calls ``seat``'s whole hand once every card is dealt, in
    the words the felt names it with (tests/test_felt_words.py ties the server's
    ``hand_name`` to these at each step): ``view`` is the server's hand view for
    ``seat``.  Razz: ``--low``; wild ranks: each stand-in as the results say it
    ("wild 5c plays as Qc"); Omaha: the best two hole cards with three of the
    board; eight or better: "high: <eval>; low: <eval --low>" ("no low"); 5-2-1:
    as declared high (what the keyboard player declares)."""
    own = [c for c in view["seats"][seat]["cards"] if c]
    if game.startswith("omaha") or game == "stud8":
        fives = ([list(h + b) for h in combinations(own, 2)
                  for b in combinations(view["board"], 3)]
                 if game.startswith("omaha") else [own])   # (seven: eval takes the best five)
        high = max((_eval_json(f) for f in fives), key=lambda r: int(r["value"]))
        if game == "omaha":
            return str(high["description"])
        lows = [r for f in fives if _low8(r := _eval_json(f, "--low"))]
        low = max(lows, key=lambda r: int(r["value"]))["description"] if lows else "no low"
        return f"high: {high['description']}; low: {low}"
    cards = own + view["board"]
    if game == "razz":
        return str(_eval_json(cards, "--low")["description"])
    if view["wild_ranks"]:
        said = _eval_json(cards, *[f for r in view["wild_ranks"] for f in ("--wild", r)])
        stand_ins = ", ".join(f"wild {w} plays as {c}" for w, c in said["wilds"].items())
        return f"{said['description']}{f' ({stand_ins})' if stand_ins else ''}"
    return str(_eval_json(cards)["description"])


# ------------------------------------------------------------ tiles inside the felt

LONGEST = "four aces, five kicker (wild Q♥ plays as A♣, wild Q♣ plays as A♠)"
"""The longest words a shown hand's tile holds: Roll Your Own's seed example
(R-RYO-12), two wild cards, each with what it plays as."""

STRETCH = """text => {
  for (const t of document.querySelectorAll('#seats .seat[data-seat]')) {
    let d = t.querySelector('.described');
    if (!d) { d = document.createElement('div'); d.className = 'described'; t.appendChild(d); }
    d.textContent = text;
  }
}"""
"""Every opponent's tile given the longest words a shown hand has (a showdown of
wild cards at every seat: no game of ten seats has wild cards, so the words are set
on the tiles the hand drew)."""

FELT_OVAL = """
  const felt = document.querySelector('#felt'), f = felt.getBoundingClientRect();
  const cs = getComputedStyle(felt);
  const bw = parseFloat(cs.borderTopWidth);
  const inner = {left: f.left + felt.clientLeft, top: f.top + felt.clientTop,
                 right: f.left + felt.clientLeft + felt.clientWidth,
                 bottom: f.top + felt.clientTop + felt.clientHeight};
  // the oval's inner edge: its corner radii (border-radius: 50% / 42% of the outer
  // box) less the border
  const rx = parseFloat(cs.borderTopLeftRadius.split(' ')[0]) / 100 * f.width - bw;
  const ry = parseFloat((cs.borderTopLeftRadius.split(' ')[1] || '0%')) / 100 * f.height - bw;
  const oval = cs.borderTopLeftRadius.includes('%') && rx > 0 && ry > 0;
  const outside = (x, y) => {
    if (!oval) return 0;
    const cx = x < inner.left + rx ? inner.left + rx : x > inner.right - rx ? inner.right - rx : x;
    const cy = y < inner.top + ry ? inner.top + ry : y > inner.bottom - ry ? inner.bottom - ry : y;
    const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
    return d > 1 ? (d - 1) * Math.min(rx, ry) : 0;   // about how far past the edge, px
  };
"""
"""JavaScript (a function body's start) naming the felt's inner box `inner` and
`outside(x, y)`, about how far in px a point lies past the oval's inner edge: the
start of :data:`TILES_IN_FELT` and of other tests' tile checks."""

TILES_IN_FELT = "() => {\n" + FELT_OVAL + """
  return [...document.querySelectorAll('#seats .seat[data-seat]')].map(t => {
    const b = t.getBoundingClientRect();
    return {seat: Number(t.dataset.seat), box: [b.left, b.top, b.right, b.bottom],
            inner: [inner.left, inner.top, inner.right, inner.bottom],
            past: Math.max(outside(b.left, b.top), outside(b.right, b.top),
                           outside(b.left, b.bottom), outside(b.right, b.bottom)),
            text: (t.querySelector('.described') || {}).textContent || ''};
  });
}"""




def _inside(a: list[float], b: list[float], slack: float = 1.0) -> bool:
    return (a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack
            and a[3] <= b[3] + slack)


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def tiles_stay_inside_the_felt(page: Any, size: str, seats: int) -> None:
    """At the end of a hand of ``seats`` seats (every opponent's tile drawn with the
    cards it showed): each opponent's tile, given the longest words a shown hand has
    (:data:`LONGEST`), lies inside the felt's inner box, within a pixel of its oval
    (a desktop's), and clear of every other tile.  Seen on a 1440x900 desktop: a top
    seat's tile with a wild card's words reached the felt's border.  Screenshot:
    test-artifacts/web/felt-small-SIZE-SEATS-seats-tiles.png."""
    page.evaluate(STRETCH, LONGEST)
    page.wait_for_timeout(100)
    tiles = page.evaluate(TILES_IN_FELT)
    shot(page, f"felt-small-{size}-{seats}-seats-tiles")
    assert len(tiles) == seats - 1 and all(t["text"] == LONGEST for t in tiles), tiles
    for k, t in enumerate(tiles):
        where = f"{size}, {seats} seats, seat {t['seat']}: {t}"
        assert _inside(t["box"], t["inner"]), where
        assert t["past"] <= 1.0, where
        for other in tiles[k + 1:]:   # and the tiles keep apart
            assert not _overlap(t["box"], other["box"]), (where, other)
