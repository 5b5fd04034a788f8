"""Settling up a session (issue 27): who pays whom, in the fewest transfers.

A session's ledger gives each player's net result in chips (what they hold
less what they brought; the nets of a closed game add up to zero).  The
fewest transfers that settle it: a group of players whose nets add up to
zero can settle among themselves in (group size - 1) transfers, so the
fewest transfers is the number of players owed or owing less the most
disjoint zero-sum groups they can be split into.  That is found exactly,
by dynamic programming over subsets, for up to :data:`EXACT_LIMIT` players
with a non-zero net (a home game's table and those who left it); past
that, a greedy pairing (largest debtor pays largest creditor) settles in
at most (players - 1) transfers.

Chips are whole numbers; a chip value (money per chip) is the host's and
only converts for display (:func:`money`).

A tournament (issue 28) settles in the buy-in's units, not chips (chips are
only its score): :func:`settle_tournament` gives, once it is over, the
prize pool's payouts (what each entrant is paid from the buy-ins and
rebuys collected) and, for a group that collected nothing up front, the
fewest transfers between the players on their nets (prize less paid);
before it is over, nothing, and why.  :func:`tournament_ledger_csv` is its
ledger as CSV.

Computer players play with the house's money, and the host is the house
(stop 58): :func:`house_nets` adds every computer player's net to the host's
(or, with no host, to :data:`HOUSE`'s) before settling, so no transfer names
a computer player; at a tournament a computer player's prize is paid to the
host (or the house), who staked its buy-ins.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["EXACT_LIMIT", "HOUSE", "NOT_OVER", "PRIZE_POOL", "TOURNAMENT_CHIPS", "TOURNAMENT_UNIT",
           "Transfer", "csv_rows", "ledger_csv", "money", "settle", "settle_tournament",
           "tournament_ledger_csv"]

HOUSE = "the house"
"""Who covers the computer players' nets when the table has no host (no player may
take the name: :mod:`rollem.server.live_table.player_names`, its role words)."""

PRIZE_POOL = "prize pool"
"""Who pays a tournament's prizes (``from`` of each payout)."""

TOURNAMENT_UNIT = "buy-in units"
"""The unit of a tournament's ledger and settle-up: the host's buy-in is counted in
it (a buy-in of 10 meaning 10 dollars, or 10 points: the ledger's ``paid``)."""

TOURNAMENT_CHIPS = "tournament chips"
"""The unit of a tournament's hand nets: chips of the tournament, worth no money."""

NOT_OVER = ("the tournament is not over: the prize pool is paid by place when one "
            "player holds every chip, or when the players left agree a deal")
"""Why a tournament's settle-up is empty before the end."""

EXACT_LIMIT = 10
"""Players with a non-zero net settled exactly (2^10 subsets: about a millisecond;
12 already take tens); more get the greedy pairing."""


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``chips`` (a whole, positive number of chips)."""

    payer: str
    payee: str
    chips: int

    def to_dict(self) -> dict[str, object]:
        return {"from": self.payer, "to": self.payee, "chips": self.chips}


def settle(nets: Sequence[tuple[str, int]]) -> list[Transfer]:
    """The fewest transfers that settle ``nets`` (``(name, net chips)`` pairs).

    Players with a net of zero take no part; the same name may not appear
    twice.  Transfers are listed payer by payer in the ledger's order.

    Raises:
        ValueError: the nets do not add up to zero (chips came or went from
            outside the game: nobody could be paid in full), or a name repeats.
    """
    names = [name for name, _ in nets]
    if len(set(names)) != len(names):
        raise ValueError("each player may appear once in the ledger")
    total = sum(net for _, net in nets)
    if total != 0:
        raise ValueError(f"the nets add up to {total:+d} chips, not 0: the ledger does not "
                         "balance, so it cannot be settled")
    owed = [(name, net) for name, net in nets if net != 0]
    if len(owed) > EXACT_LIMIT:
        return _pair_off(owed)
    transfers: list[Transfer] = []
    for group in _zero_sum_groups([net for _, net in owed]):
        transfers += _pair_off([owed[i] for i in group])
    order = {name: i for i, name in enumerate(names)}
    return sorted(transfers, key=lambda t: (order[t.payer], order[t.payee]))


def house_nets(lines: Sequence[dict[str, object]], host: str | None,
               amount: str = "net") -> tuple[list[tuple[str, int]], dict[str, object] | None]:
    """The nets to settle between people only: every computer player's net added to
    the host's (stop 58: computer players play with the house's money, and the host
    is the house).

    ``lines``: ledger lines (``name``, ``amount`` -- ``"net"``, whole chips or
    buy-in units --, ``bot``: truthy on a computer player's line, and optionally
    ``bot_net``: the computer players' part of a line summing several, as the
    ledger's line of earlier players has).  ``host``: the name of the host's line,
    or ``None`` when the table has no seated host: the computer players' nets then
    go to a party named :data:`HOUSE`, added last.  Returns ``(nets, covered)``:
    ``nets`` the ``(name, net)`` pairs of the people (a name that repeats summed, in
    ledger order), which add up to what all the lines add up to; ``covered``
    ``{"by": host or HOUSE, "host": whether a host covers, "amount": the computer
    players' nets added up, "own": the host's own net before them (0 for
    :data:`HOUSE`), "players": how many lines were theirs}``, or ``None``
    when no line is a computer player's.  (A host with no line of their own, such
    as one seated with no chips before a tournament's start, is added last.)
    """
    nets: dict[str, int] = {}
    covered = players = 0
    for line in lines:
        net = int(str(line[amount]))
        if line.get("bot"):
            covered += net
            players += 1
            continue
        part = int(str(line.get("bot_net") or 0))
        covered += part
        players += part != 0
        name = str(line["name"])
        nets[name] = nets.get(name, 0) + net - part
    if not players:
        return list(nets.items()), None
    party = host if host is not None else HOUSE
    own = nets.get(party, 0)
    nets[party] = own + covered
    return list(nets.items()), {"by": party, "host": host is not None, "amount": covered,
                                "own": own, "players": players}


def _zero_sum_groups(nets: list[int]) -> list[list[int]]:
    """Split the indices of ``nets`` (which add up to 0) into the most disjoint
    groups that each add up to zero."""
    n = len(nets)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + nets[low.bit_length() - 1]
    # best[mask]: the most zero-sum groups the players in ``mask`` form when
    # added one at a time (each time the running sum is back at zero, one more
    # group closes); last[mask]: the player added last on that best path.
    best = [0] * (1 << n)
    last = [0] * (1 << n)
    for mask in range(1, 1 << n):
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if last[mask] == 0 or best[mask ^ bit] > best[mask]:
                best[mask], last[mask] = best[mask ^ bit], bit
        best[mask] += sums[mask] == 0
    # Walk back: the players in the order they were added; cut where the sum is 0.
    order: list[int] = []
    mask = full
    while mask:
        bit = last[mask]
        order.append(bit.bit_length() - 1)
        mask ^= bit
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for i in order:
        current.append(i)
        running += nets[i]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _pair_off(owed: list[tuple[str, int]]) -> list[Transfer]:
    """Greedy: the largest debtor pays the largest creditor, until all are
    square (at most len(owed) - 1 transfers for nets adding up to zero)."""
    debtors = sorted(((-net, name) for name, net in owed if net < 0), reverse=True)
    creditors = sorted(((net, name) for name, net in owed if net > 0), reverse=True)
    transfers: list[Transfer] = []
    d = c = 0
    debts = [amount for amount, _ in debtors]
    credits = [amount for amount, _ in creditors]
    while d < len(debtors) and c < len(creditors):
        chips = min(debts[d], credits[c])
        transfers.append(Transfer(debtors[d][1], creditors[c][1], chips))
        debts[d] -= chips
        credits[c] -= chips
        d += debts[d] == 0
        c += credits[c] == 0
    return transfers


def money(chips: int, chip_value: Fraction | None) -> str | None:
    """``chips`` in money at ``chip_value`` per chip (two decimals), or ``None``
    when the host set no chip value."""
    if chip_value is None:
        return None
    return _two_places(chips * chip_value)


def _two_places(value: Fraction) -> str:
    cents = round(value * 100)
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def _cell(value: object) -> object:
    """A CSV cell: text a spreadsheet would read as a formula (starting ``=``,
    ``+``, ``-``, ``@``) gets a leading apostrophe; numbers stay numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def csv_rows(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """``header`` and ``rows`` as CSV text (RFC 4180 quoting, CRLF line ends),
    every text cell guarded by :func:`_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def ledger_csv(lines: Sequence[dict[str, object]]) -> str:
    """The ledger as CSV text (a header row, then one row a player: ``name``,
    ``brought``, ``stack``, ``net``, ``left``, ``computer``: ``yes`` on a computer
    player's line, whose net the host covers, stop 58), RFC 4180 quoting; a name
    that a spreadsheet would read as a formula (starting ``=``, ``+``, ``-``,
    ``@``) gets a leading apostrophe."""
    return csv_rows(["name", "brought", "stack", "net", "left", "computer"],
                    [[str(line["name"]), line["brought"], line["stack"], line["net"],
                      "yes" if line.get("left") else "no",
                      "yes" if line.get("bot") else "no"] for line in lines])


def settle_tournament(lines: Sequence[dict[str, object]], over: bool,
                      host: str | None = None) -> dict[str, object]:
    """A tournament's settle-up (issue 28), in :data:`TOURNAMENT_UNIT`.

    ``lines``: each entrant's ledger line (``name``, ``paid``: the buy-in,
    rebuys and add-on, ``payout``: its prize from the pool, ``None`` until ``over``; as
    :meth:`rollem.tournament.session.Tournament.ledger` gives them, named).  Returns
    ``{"unit", "over", "pool", "payouts", "transfers", "reason"}``: ``pool`` the
    buy-ins, rebuys and add-ons collected; once over, ``payouts`` the pool's payments
    (``{"from": PRIZE_POOL, "to", "units"}``, each prize above 0, in ledger
    order) -- what to do when the buy-ins were collected at the start, as
    the ledger's ``paid`` says -- and ``transfers`` the fewest transfers
    between the players on their nets (``{"from", "to", "units"}``,
    :func:`settle`) for a group that collected nothing up front; both balance
    (the payouts add up to the pool, the transfers square every net).  Before
    the end both are empty and ``reason`` says why (:data:`NOT_OVER`).  A name
    that repeats is summed.

    A computer player's line (``bot`` truthy) is the house's stake (stop 58): the
    host (``host``, the name of the host's line; ``None`` with no seated host:
    :data:`HOUSE`) staked its buy-ins, so its prize is paid to the host --
    ``{"from": PRIZE_POOL, "to": host, "units", "for": the computer player}`` --
    and its net is added to the host's before the transfers (:func:`house_nets`);
    ``house`` says so (``{"by", "host", "units", "own", "players"}``: the computer
    players' nets added up, the host's own net before them), ``None`` with none.

    Raises:
        ValueError: the prizes do not add up to the pool (a fault: the payout
            table always pays it all).
    """
    pool = sum(int(str(line["paid"])) for line in lines)
    out: dict[str, object] = {"unit": TOURNAMENT_UNIT, "over": over, "pool": pool,
                              "payouts": [], "transfers": [], "reason": NOT_OVER,
                              "house": None}
    if not over:
        return out
    prizes = [(str(line["name"]), int(str(line["payout"]))) for line in lines]
    if sum(p for _, p in prizes) != pool:
        raise ValueError(f"the prizes add up to {sum(p for _, p in prizes)}, not the pool "
                         f"of {pool}")
    nets, covered = house_nets(
        [{"name": name, "bot": line.get("bot"), "net": prize - int(str(line["paid"]))}
         for line, (name, prize) in zip(lines, prizes, strict=True)], host)
    party = covered["by"] if covered is not None else HOUSE
    out["payouts"] = [({"from": PRIZE_POOL, "to": party, "units": prize, "for": name}
                       if line.get("bot") else {"from": PRIZE_POOL, "to": name, "units": prize})
                      for line, (name, prize) in zip(lines, prizes, strict=True) if prize > 0]
    out["transfers"] = [{"from": t.payer, "to": t.payee, "units": t.chips}
                        for t in settle(nets)]
    if covered is not None:
        out["house"] = {"by": covered["by"], "host": covered["host"],
                        "units": covered["amount"], "own": covered["own"],
                        "players": covered["players"]}
    out["reason"] = None
    return out


def tournament_ledger_csv(lines: Sequence[dict[str, object]]) -> str:
    """A tournament's ledger as CSV text (issue 28): one row an entrant, ``name``,
    ``seat``, ``paid`` (the buy-in, each rebuy and the add-on), ``rebuys``,
    ``addon`` (``yes`` when the entrant took the add-on, stop 60), ``place``
    (empty while still playing), ``prize`` (the line's ``payout``) and ``net``
    (empty until it is over), all in :data:`TOURNAMENT_UNIT`, which the ``unit`` column says on
    every row (a spreadsheet shows it beside the figures), and ``computer``
    (``yes`` on a computer player's line, the house's stake: stop 58)."""
    def cell(value: object) -> object:
        return "" if value is None else value

    return csv_rows(["name", "seat", "paid", "rebuys", "addon", "place", "prize", "net",
                     "unit", "computer"],
                    [[str(line["name"]), line["seat"], line["paid"], line["rebuys"],
                      "yes" if line.get("addon") else "no",
                      cell(line["place"]), cell(line["payout"]), cell(line["net"]),
                      TOURNAMENT_UNIT, "yes" if line.get("bot") else "no"]
                     for line in lines])
