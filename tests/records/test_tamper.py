"""Issue #46's tamper suite at CI size (``benchmarks/records.py`` runs 100 honest trails and over 1,000 tamperings).

Honest trails of several games, with restarts, kills that tear the log's last
line, and rotation, verify intact; every tampering by someone without the
table's key is found.
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.records.suites import TAMPERS, Trail, check, honest_trail, tamperings


@pytest.fixture(scope="module")
def trails(tmp_path_factory: pytest.TempPathFactory) -> list[Trail]:
    folder = tmp_path_factory.mktemp("trails")
    return [honest_trail(folder / f"table-{n}", n) for n in range(3)]


def test_honest_trails_with_restarts_kills_and_rotation_verify_intact(trails: list[Trail]) -> None:
    for trail in trails:
        report = check(trail)
        assert report.ok, report.problems
        assert len(report.chains) >= 3, "every session is a chain of its own"


def test_honest_trails_verify_intact_against_the_floors_copy_of_every_checkpoint_they_sent(trails: list[Trail]) -> None:
    for trail in trails:
        assert len(trail.sent) > 10
        report = check(trail, with_floor=True)
        assert report.ok, report.problems


def test_every_kind_of_tampering_without_the_key_is_found(trails: list[Trail]) -> None:
    other = Ed25519PrivateKey.generate()
    rng = random.Random(46)
    seen = set()
    for trail in trails:
        for name, lines in tamperings(trail, 2 * len(TAMPERS), rng, other):
            report = check(trail, lines)
            assert not report.ok, f"{name} went unseen on {trail.folder.name}"
            seen.add(name)
    assert seen == set(TAMPERS)
