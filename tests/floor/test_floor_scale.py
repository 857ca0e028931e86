"""The floor's proof at scale (controller/floor/proof.py), short: tables through every fault, nothing lost or counted twice."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from controller.floor.proof import Plan, report, run_proof

pytestmark = pytest.mark.skipif(
    shutil.which("nats-server") is None or (shutil.which("initdb") is None and not list(Path("/usr/lib/postgresql").glob("*/bin/initdb"))),
    reason="needs Debian's nats-server and postgresql",
)


def test_twenty_tables_lose_nothing_through_a_killed_node_a_restarted_cluster_and_database_a_killed_floor_and_a_cut(
    tmp_path: Path,
) -> None:
    # caught up within 240 s or it fails saying what it waited for, well inside the suite's per-test timeout
    result = run_proof(Plan(tables=20, workers=2, seconds=60, round_seconds=12, linked=6, jackpot_every=8, cut_seconds=15,
                            catch_up_s=240), tmp_path, say=lambda line: None)
    print(report(result))
    assert result.ok, report(result)
    assert len(result.faults) == 5 and result.records > 1000
    assert result.full_tables and all(runs > 1 for runs in result.full_tables.values())


@pytest.mark.floor_scale
def test_two_hundred_tables_for_five_minutes_lose_nothing_through_every_fault(tmp_path: Path) -> None:
    result = run_proof(Plan(tables=200, workers=4, seconds=300, round_seconds=60, cut_seconds=90), tmp_path)
    print(report(result))
    assert result.ok, report(result)
