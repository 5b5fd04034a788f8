"""The hands a player sat out, proved from their own copies (docs/verify.md).

A web table's hand records under its commitment who the deal was for
(``_seated``; those dealt in are the ones with a client seed), and a player's
own copy of a hand carries ``_sat_out``: the records of the hands dealt since
their previous hand, chained from it to this hand's ``_prev_hash``.  Before
this, a hand dealt to a player and then left out of their copies looked
exactly like a hand they sat out ("not checked"); now it fails, and the hands
they did sit out are named as such.  Copies without the record keep the old
behaviour (tests/test_verify.py).
"""

from __future__ import annotations

import hashlib
import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from cli_helpers import run_cli as run_wrapped
from cli_helpers import unwrapped
from rollem.bots.random_bot import random_action
from rollem.engine.commit_reveal import (
    ZERO_HASH,
    CommittedSource,
    DealProof,
    chained_commitment,
    encode_seated,
)
from rollem.engine.hand import Hand
from rollem.history import redact, write_history
from rollem.verify import check_chain, not_checked, sat_out, verify_history

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``rollem ARGS`` (status, stdout, stderr), its long lines as before they
    were wrapped to 80 columns (s62-term)."""
    code, out, err = run_wrapped(args, capsys)
    return code, unwrapped(out), err


def _session(dealt: dict[int, list[int]], *, record_from: int = 1,
             renamed: dict[int, dict[int, str]] | None = None) -> dict[int, dict[str, Any]]:
    """Full histories of hands ``1..`` (``dealt``: hand number -> the seats dealt
    in; the others sit out with no chips), chained as a web table deals them,
    each from hand ``record_from`` on recording who it was dealt to (``_seated``);
    ``renamed``: hand number -> seat -> the name it is dealt in under instead."""
    out: dict[int, dict[str, Any]] = {}
    prev = ZERO_HASH
    for n in sorted(dealt):
        seats = dealt[n]
        names = [(renamed or {}).get(n, {}).get(s, NAMES[s]) for s in range(len(NAMES))]
        seated = {s: names[s] for s in seats} if n >= record_from else {}
        proof = DealProof(hashlib.sha256(f"sat-out {n}".encode()).digest(),
                          {s: f"s{s}h{n}" for s in seats}, n, prev, (), seated)
        hand = Hand("sdr", [200 if s in seats else 0 for s in range(len(NAMES))],
                    button=seats[n % len(seats)], source=CommittedSource(proof))
        rng = random.Random(n)
        while not hand.is_over:
            assert hand.pending is not None
            seat = hand.pending.seats[0]
            hand.apply(seat, random_action(hand.legal_actions(seat), rng))
        data = tomllib.loads(write_history(hand, players=names))
        prev = bytes.fromhex(data["_hand_hash"])
        out[n] = data
    return out


def _copies(session: dict[int, dict[str, Any]], seat: int) -> dict[int, dict[str, Any]]:
    """``seat``'s own copies of the hands dealt to it, each with ``_sat_out`` as
    the web table writes it (the records of the hands since its previous one;
    none for its first hand, nor where a hand between records no ``_seated``)."""
    out: dict[int, dict[str, Any]] = {}
    last: int | None = None
    for n, data in sorted(session.items()):
        if seat not in DealProof.from_fields(data).client_seeds:
            continue
        copy = redact(data, seat)
        records = [DealProof.from_fields(session[k]).sat_out_header()
                   for k in range(last + 1, n)] if last is not None else None
        if records is not None and all("_seated" in r for r in records):
            copy["_sat_out"] = records  # (none when a hand does not record it)
        out[n] = copy
        last = n
    return out


def _write(tmp_path: Path, copies: dict[int, dict[str, Any]]) -> list[str]:
    paths = []
    for n, copy in sorted(copies.items()):
        path = tmp_path / f"hand-{n}.toml"
        path.write_text(tomli_w.dumps(copy), encoding="utf-8")
        paths.append(str(path))
    return paths


ALL = [0, 1, 2, 3]
WITHOUT_ANN = [1, 2, 3]
# Ann (seat 0) sits out hands 4 to 8; everyone plays the others
SAT_OUT = {n: (WITHOUT_ANN if 4 <= n <= 8 else ALL) for n in range(1, 11)}


def test_the_commitment_covers_who_the_deal_is_for_as_documented() -> None:
    """``_seated``'s bytes (docs/verify.md) and their place in the commitment;
    a hand that records none keeps the old commitment."""
    seated = {2: "Cé", 0: "Ann"}
    assert encode_seated(seated) == (b"rollem-seated" + bytes.fromhex("0002")
                                     + bytes.fromhex("0000" "0003") + b"Ann"
                                     + bytes.fromhex("0002" "0003") + "Cé".encode())
    root, prev = bytes(range(32)), bytes(32)
    assert chained_commitment(root, prev, (), seated) == hashlib.sha256(
        b"rollem-commit" + root + prev + encode_seated(seated)).digest()
    assert chained_commitment(root, prev, (), {}) == chained_commitment(root, prev)
    proof = DealProof(bytes(32), {0: "x"}, 3, prev, (), seated)
    assert DealProof.from_json(proof.to_json()) == proof
    assert DealProof.from_fields(proof.fields()) == proof


def test_a_fair_session_names_the_hands_sat_out(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Ann's copies of hands 1 to 3, 9 and 10 (she sat out 4 to 8): on main the
    gap was "not checked"; now hand 9's copy proves she sat those hands out."""
    session = _session(SAT_OUT)
    for data in session.values():  # the dealer's own record verifies, seated and all
        assert verify_history(data).status == "verified"
    copies = _copies(session, 0)
    assert sorted(copies) == [1, 2, 3, 9, 10]
    verdicts = [verify_history(c) for c in copies.values()]
    assert all(v.ok for v in verdicts), [v.reason for v in verdicts]
    assert verdicts[3].reason.endswith(
        "; before it, hands 4 to 8: Ann sat out (recorded under their commitments)")
    assert check_chain(verdicts) is None
    assert sat_out(verdicts) == [(4, 8, "Ann")] and not_checked(verdicts) == []
    code, out, err = run_cli(["verify", *_write(tmp_path, copies)], capsys)
    assert code == 0 and err == "", out
    assert out.splitlines()[-1] == (
        "chain: ok (each hand's commitment includes the previous hand; hands 4 to 8: Ann sat "
        "out (recorded under the commitments))")
    got = json.loads(run_cli(["verify", "--json", *_write(tmp_path, copies)], capsys)[1])
    assert got["chain"] == {"ok": True, "reason": None, "not_checked": [],
                            "sat_out": [{"first": 4, "last": 8, "player": "Ann"}]}
    # the session download (one .phhs of her copies) says the same
    phhs = tmp_path / "history.phhs"
    phhs.write_text(tomli_w.dumps({str(n): c for n, c in copies.items()}), encoding="utf-8")
    code, out, _ = run_cli(["verify", str(phhs)], capsys)
    assert code == 0 and "hands 4 to 8: Ann sat out" in out, out


def test_a_hand_dealt_to_the_player_and_left_out_of_their_copies_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ann played hand 6 too; a server that leaves it out of her copies (her copy
    of hand 9 then records only hands 7 and 8 as sat out, chained from hand 6)
    was "not checked" on main: now the chain breaks, naming hand 6."""
    dealt = {**SAT_OUT, 6: ALL}
    session = _session(dealt)
    copies = _copies(session, 0)
    assert sorted(copies) == [1, 2, 3, 6, 9, 10]
    del copies[6]
    code, out, _ = run_cli(["verify", *_write(tmp_path, copies)], capsys)
    assert code == 1
    assert out.splitlines()[-1] == (
        "chain: BROKEN: hand 6 was dealt to Ann but Ann's copy of it is not in the files: "
        "Ann's copy of hand 9 records only hands 7 to 8 as sat out, chained from hand 6 "
        "(recorded under the commitments)")


def test_a_hand_given_without_a_commitment_splits_the_gap() -> None:
    """The session download writes a standard game's hand as standard PHH, with
    no commitment: Ann's hand 6 there is given but cannot be checked, so her
    copy of hand 9, whose record starts after hand 6, is no break; the hands
    before hand 6 are named as not checked, those after it as sat out."""
    copies = _copies(_session({**SAT_OUT, 6: ALL}), 0)
    standard = {"variant": "FT", "_hand": 6, "_redacted_for": 0, "players": NAMES,
                "actions": ["d dh p1 ????"]}
    verdicts = [verify_history(c) for c in {**copies, 6: standard}.values()]
    assert [v.status for v in verdicts].count("no_commitment") == 1
    assert check_chain(verdicts) is None
    assert not_checked(verdicts) == [(4, 5, "Ann")] and sat_out(verdicts) == [(7, 8, "Ann")]
    # without hand 6 at all, it is the hand left out
    assert (check_chain([v for v in verdicts if v.hand_no != 6]) or "").startswith(
        "hand 6 was dealt to Ann but Ann's copy of it is not in the files")


def test_every_way_of_hiding_the_dropped_hand_fails() -> None:
    """The server edits Ann's copy of hand 9 to hide hand 6 (dealt to her): lists
    it as sat out, changes its record, leaves it out, leaves out the whole record
    or the copy's own record of who hand 9 was dealt to."""
    session = _session({**SAT_OUT, 6: ALL})
    copies = _copies(session, 0)
    del copies[6]
    record = {k: DealProof.from_fields(session[k]).sat_out_header() for k in range(4, 9)}

    def chain_with(nine: dict[str, Any]) -> str | None:
        verdicts = [verify_history(c) for c in {**copies, 9: nine}.values()]
        bad = [v.reason for v in verdicts if not v.ok]
        return bad[0] if bad else check_chain(verdicts)

    honest = copies[9]
    # hand 6's true record, listed as sat out: it names Ann dealt in
    listed = {**honest, "_sat_out": [record[k] for k in range(4, 9)]}
    assert chain_with(listed) == (
        "hand 6 was dealt to Ann (its record in _sat_out, under its commitment, names Ann "
        "dealt in), so Ann's copy of it cannot be one of the hands sat out")
    # hand 6's record with Ann taken out: its hash no longer leads to hand 7
    forged = [dict(record[k]) for k in range(4, 9)]
    forged[2]["_seated"] = {k: v for k, v in forged[2]["_seated"].items() if k != "0"}
    forged[2]["_client_seeds"] = {k: v for k, v in forged[2]["_client_seeds"].items()
                                  if k != "0"}
    assert chain_with({**honest, "_sat_out": forged}) == (
        "record 4 of _sat_out (hand 7): its _prev_hash is not the hash of hand 6's record: a "
        "record was changed")
    # no record at all
    bare = {k: v for k, v in honest.items() if k != "_sat_out"}
    assert chain_with(bare) == (
        "hands 4 to 8 are not in the files, and Ann's copy of hand 9 does not record them as "
        "hands Ann sat out (_sat_out): a hand dealt to Ann between may have been left out of "
        "Ann's copies")
    # a record of no hand (as if Ann had played hand 8)
    assert chain_with({**honest, "_sat_out": []}) == (
        "hand 8 was dealt to Ann but Ann's copy of it is not in the files: Ann's copy of hand "
        "9 follows it directly (its _sat_out records no hand sat out)")
    # hand 9's own record of who it was dealt to, taken out: its commitment fails
    unseated = {k: v for k, v in honest.items() if k != "_seated"}
    assert "does not match _commitment" in (chain_with(unseated) or "")
    # Ann's name taken out of hand 9's own record: the commitment fails too
    renamed = {**honest, "_seated": {**honest["_seated"], "0": "Zed"}}
    assert "_deck_root or _seated does not match _commitment" in (chain_with(renamed) or "")


def test_a_copy_must_record_its_player_dealt_in() -> None:
    """A copy whose hand's record (under the commitment) does not deal its own
    player in, or deals in a seat the commitment was not for, fails."""
    session = _session({1: ALL, 2: WITHOUT_ANN})
    # a copy of hand 2 for Ann, who was not dealt in (the server made one up)
    made_up = redact(session[2], 0)
    verdict = verify_history(made_up)
    assert verdict.status == "failed" and verdict.reason == (
        "this is seat 0's own copy, but _seated and _client_seeds do not record that seat "
        "dealt in")
    # hand 1 dealt to a seat its commitment was not for: the commitment of who it was
    # for is fixed; the seeds are in the hand's hash
    copy = redact(session[1], 1)
    seated = {k: v for k, v in copy["_seated"].items() if k != "3"}
    proof = DealProof.from_fields(session[1])
    wrong = DealProof(proof.key, proof.client_seeds, 1, ZERO_HASH, (),
                      {int(k): v for k, v in seated.items()})
    assert "_client_seeds has a seed of seat 3, which _seated does not name" in \
        verify_history({**copy, **wrong.public_fields()}).reason


def test_old_copies_and_mixed_ones_keep_the_gap_not_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Copies that do not record who each hand was dealt to (made before this, or
    by ``rollem play``): the gap is named as not checked, as before; so it is when
    the copy before the gap is an old one."""
    for record_from in (11, 9):  # none records it; hands 9 and 10 do (a server upgraded)
        copies = _copies(_session(SAT_OUT, record_from=record_from), 0)
        for n, c in copies.items():
            if n < record_from:
                c.pop("_sat_out", None)
                assert "_seated" not in c
        code, out, _ = run_cli(["verify", *_write(tmp_path, copies)], capsys)
        assert code == 0 and out.splitlines()[-1] == (
            "chain: ok (each hand's commitment includes the previous hand; hands 4 to 8 are "
            "not in the files: not checked across them (Ann's copies hold only the hands Ann "
            "was dealt into))"), out


def test_the_server_finds_the_hands_sat_out_since_the_previous_one() -> None:
    """:mod:`rollem.server.sat_out`: the hands between a player's previous hand
    and this one (by name, from the finished hands' summaries), and their
    records from the stored setups; none for a first hand, across a hand stored
    before names or the record were kept, or past ``SAT_OUT_MAX`` hands."""
    from rollem.engine.commit_reveal import SAT_OUT_MAX
    from rollem.server.app_context import FinishedHand
    from rollem.server.sat_out import sat_out_hands, sat_out_records, sat_out_setups

    def hand(n: int, seats: tuple[int, ...], names: tuple[str, ...] | None = tuple(NAMES)
             ) -> FinishedHand:
        return FinishedHand(n, "sdr", seats, (), names, "")

    hands = [hand(1, (0, 1)), hand(2, (1, 2)), hand(3, (1, 2)), hand(4, (0, 1))]
    assert sat_out_hands(hands, 4, "Ann") == range(2, 4)
    assert sat_out_hands(hands, 2, "Bob") == range(2, 2)  # (played the hand before)
    assert sat_out_hands(hands, 2, "Cat") is None  # her first hand
    assert sat_out_hands([hand(1, (0, 1), None), *hands[1:]], 4, "Ann") is None
    far = [hand(1, (0, 1)), hand(SAT_OUT_MAX + 2, (1, 2)), hand(SAT_OUT_MAX + 3, (0, 1))]
    assert sat_out_hands(far, SAT_OUT_MAX + 2, "Ann") == range(2, SAT_OUT_MAX + 2)
    assert sat_out_hands(far, SAT_OUT_MAX + 3, "Ann") is None
    session = _session({1: ALL, 2: WITHOUT_ANN, 3: WITHOUT_ANN, 4: ALL})
    stored = {n: {"proof": DealProof.from_fields(d).to_json()} for n, d in session.items()}
    numbers, setups = sat_out_setups(hands, 4, "Ann", stored.get)
    records = sat_out_records(numbers, setups.get)
    assert records == [DealProof.from_fields(session[n]).sat_out_header() for n in (2, 3)]
    assert all("_deal_key" not in r and "_openings" not in r for r in records or [])
    # a hand stored before the record was kept (its proof has no "seated"): no record
    old = {**stored[3]["proof"]}
    del old["seated"]
    assert DealProof.from_json(old).seated == {}
    assert sat_out_records(numbers, {**setups, 3: {"proof": old}}.get) is None
    assert sat_out_records(numbers, {2: setups[2]}.get) is None


def test_the_hands_before_one_are_found_by_bisection_not_a_walk_from_the_last() -> None:
    """s60-safe: the whole-session download asks this of each of a player's hands
    (up to 500) on the event loop; walked from the table's last hand, 500 early
    hands at a table of 20,000 took 0.85 s.  Now the hands looked at are a
    bisection's and those between the two hands of the player's."""
    from collections.abc import Sequence

    from rollem.server.app_context import FinishedHand
    from rollem.server.sat_out import sat_out_hands

    class Counted(Sequence[FinishedHand]):
        def __init__(self, items: list[FinishedHand]) -> None:
            self.items, self.reads = items, 0

        def __len__(self) -> int:
            return len(self.items)

        def __getitem__(self, k: Any) -> Any:
            self.reads += 1
            return self.items[k]

    hands = Counted([FinishedHand(n, "sdr", (0, 1), (), ("Ann" if n < 3 else "Zed", "Bob"), "")
                     for n in range(1, 10_001)])
    assert sat_out_hands(hands, 3, "Ann") == range(3, 3)  # (she played hand 2)
    assert hands.reads <= 20, hands.reads  # (main: 9,999, every later hand skipped)
    hands.reads = 0
    assert sat_out_hands(hands, 10_001, "Bob") == range(10_001, 10_001)
    assert hands.reads <= 20, hands.reads


@pytest.mark.parametrize("alias", ["Ann\u200b", "ANN", "\uff21\uff4e\uff4e", "Ann\ufe0f"])
def test_a_hand_dealt_to_the_player_under_a_name_that_reads_as_theirs_fails(
        alias: str) -> None:
    """The server deals hand 6 to Ann but records her in it (``_seated``, under the
    commitment) as a name that reads as hers (a zero-width space after it, upper
    case, full width, a stray variation selector), and leaves hand 6 out of her
    copies: her copy of hand 9 lists it among the hands she sat out.  On main the
    names were compared exactly and verify said "hands 4 to 8: Ann sat out"; now
    they are compared as the table keeps names apart (``name_key``), and it fails
    naming hand 6 (s73-verify)."""
    session = _session({**SAT_OUT, 6: ALL}, renamed={6: {0: alias}})
    copies = _copies(session, 0)
    assert sorted(copies) == [1, 2, 3, 6, 9, 10]
    del copies[6]
    # her copy of hand 9 lists hands 4 to 8 (hand 6's true record among them) as sat out
    records = [DealProof.from_fields(session[k]).sat_out_header() for k in range(4, 9)]
    assert records[2]["_seated"]["0"] == alias
    copies[9] = {**copies[9], "_sat_out": records}
    verdicts = [verify_history(c) for c in copies.values()]
    nine = verdicts[list(copies).index(9)]
    assert nine.status == "failed"
    assert nine.reason == (
        f"hand 6 was dealt to Ann (its record in _sat_out, under its commitment, names "
        f"{alias!r}, which reads as Ann dealt in), so Ann's copy of it cannot be one of the "
        "hands sat out")
    # the honest session (hand 6 dealt without Ann) still names hands 4 to 8 sat out
    fair = [verify_history(c) for c in _copies(_session(SAT_OUT), 0).values()]
    assert all(v.ok for v in fair) and check_chain(fair) is None
    assert sat_out(fair) == [(4, 8, "Ann")]
