"""Simulations and leagues on a real Ray cluster (issue 30): the test starts a
head node and a second node on this machine (``ray start``, Debian-free: Ray
comes from the ``distributed`` extra), runs ``simulate --ray`` and a league
match of bench/bench_league.py there, and finds every result equal, seed for
seed, to the same run on this machine."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import run_cli

ray = pytest.importorskip("ray", reason="the distributed extra (Ray) is not installed")

pytestmark = pytest.mark.timeout(420)
RAY = Path(sys.executable).with_name("ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ray(*args: str, env: dict[str, str]) -> None:
    subprocess.run([str(RAY), *args], check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.STDOUT, timeout=180)


def test_no_cluster_at_the_address_is_one_clear_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """(First: before this process joins the test's cluster.)"""
    address = f"127.0.0.1:{_free_port()}"  # nothing listens there
    code, out, err = run_cli(["simulate", "sdr", "--players", "2", "--hands", "4",
                              "--workers", "2", "--ray", address], capsys)
    assert (code, out) == (2, "")
    assert err == (f"rollem: error: no Ray cluster at '{address}' (Connection refused); "
                   "start one with: ray start --head\n")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A head node and one more node, one CPU each; its address."""
    port = _free_port()
    address = f"127.0.0.1:{port}"
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's sockets live there
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    try:
        _ray("start", "--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
             f"--temp-dir={temp}", env=env)
        _ray("start", f"--address={address}", "--num-cpus=1", env=env)
        ray.init(address=address, log_to_driver=False)
        deadline = time.monotonic() + 60
        while len([n for n in ray.nodes() if n["Alive"]]) < 2:
            assert time.monotonic() < deadline, "the second node never joined"
            time.sleep(0.5)
        yield address
    finally:
        ray.shutdown()
        subprocess.run([str(RAY), "stop", "--force"], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.STDOUT, timeout=120, check=False)


def _without_timing(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in ("hands_per_second", "seconds")}


def test_simulate_on_the_cluster_equals_the_local_run(
        cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "rollem521", "--players", "3", "--hands", "60", "--workers", "3",
            "--bots", "basic,random,random", "--seed", "11", "--json"]
    code, local, err = run_cli(args, capsys)
    assert code == 0, err
    code, remote, err = run_cli([*args, "--ray", cluster], capsys)
    assert code == 0, err
    here, there = json.loads(local), json.loads(remote)
    assert _without_timing(there) == _without_timing(here)
    assert here["hands"] == 60 and sum(s["net"] for s in here["seats"]) == 0


def test_a_league_match_on_the_cluster_equals_the_local_run(cluster: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    try:
        import bench_league as league  # importable: its local processes pickle _job
    finally:
        sys.path.pop(0)
    here = league.match("sdr", "strong", "basic", "hu", "fixed-limit", 24, 5, 2)
    there = league.match("sdr", "strong", "basic", "hu", "fixed-limit", 24, 5, 2, cluster)
    assert there["units"] == here["units"] and len(here["units"]) == 24
    assert there["bb100"] == here["bb100"] and there["ci95"] == here["ci95"]
