"""Issue #46's damage suite at CI size: one case of every kind of damage (``benchmarks/records.py`` runs it in full).

Every case either loses nothing or stops naming what is lost, without a
traceback; reading commands never write; and every stop is put right by the
documented remedy with every committed record back, hash for hash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.records.suites import DAMAGE, run_damage_case


@pytest.mark.parametrize("kind", DAMAGE)
def test_damage_is_never_silent_and_the_documented_remedy_restores_every_record(kind: str, tmp_path: Path) -> None:
    case = run_damage_case(kind, 7, tmp_path)
    if case.verdict == "SKIPPED":
        pytest.skip(case.detail)
    assert case.verdict in ("stopped", "intact"), f"{case.verdict}: {case.detail} {case.messages}"
    if case.verdict == "stopped":
        assert case.restored, case.messages
