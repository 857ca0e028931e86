"""The conformance kit (``tablectl conformance``, docs/protocol.md section 12) against tablectl's simulator in every
reading the document allows, and, with ``pytest -m hardware --shoe-port PORT`` (or ``--shuffler-port``), against a
real device: every clause it can check without someone at the machine must pass."""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from controller.commands.cli import main
from drivers.conformance.kit import CHECKS, KitError, NoOperator, Outcome
from drivers.conformance.run import check, check_simulator, summary
from drivers.sim.behaviour import readings
from tests.once import computed_once

from .conftest import hardware_port

READINGS = [(device, name) for device in ("shoe", "shuffler") for name in sorted(readings(device))]


@pytest.fixture(scope="module")
def kit_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], list[Outcome] | str]:
    """Every reading checked, a few at a time (each run mostly waits for its simulator), once a run. Each test
    takes its own reading's run: a run that could not finish (why, in words) fails its own reading's test, not the
    module."""
    def run_all() -> dict[tuple[str, str], list[Outcome] | str]:
        with ThreadPoolExecutor(max_workers=6, thread_name_prefix="kit") as pool:
            runs = {key: pool.submit(check_simulator, *key) for key in READINGS}
            return {key: _outcomes(run) for key, run in runs.items()}

    return computed_once(tmp_path_factory, "conformance-kits", run_all)


def _outcomes(run: Future[list[Outcome]]) -> list[Outcome] | str:
    try:
        return run.result()
    except KitError as exc:
        return str(exc)


@pytest.mark.parametrize(("device", "name"), READINGS, ids=[f"{d}-{n}" for d, n in READINGS])
def test_the_simulator_in_every_reading_passes_every_clause(
    kit_runs: dict[tuple[str, str], list[Outcome] | str], device: str, name: str
) -> None:
    outcomes = kit_runs[(device, name)]
    if isinstance(outcomes, str):
        pytest.fail(f"the {device} simulator in reading {name!r}: {outcomes}")
    failed = [o.line() for o in outcomes if o.status == "FAIL"]
    assert not failed, summary(outcomes) + "\n" + "\n".join(failed)
    assert len(outcomes) == len(CHECKS[device])
    skipped = {o.clause for o in outcomes if o.status == "skip"}
    assert skipped <= {"8.5", "6.6"}, f"the simulator drives every fault itself, yet {skipped} were skipped"


def test_without_an_operator_the_fault_clauses_are_skipped_not_passed() -> None:
    from drivers.conformance.run import simulator

    with simulator("shoe", "reference") as sim:
        outcomes = check("shoe", sim.url, NoOperator(), lambda o: None)
    by_clause = {o.clause: o.status for o in outcomes}
    assert by_clause["5.3"] == by_clause["8.4"] == by_clause["10.1"] == "skip"
    assert not [o for o in outcomes if o.status == "FAIL"]


def test_a_device_that_never_answers_is_reported_in_words_with_the_step_the_kit_was_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Nothing answers at the port (its device end is open, nobody reads it): no clause can be checked. The kit says
    where it stopped (``KitError``, a ``DeviceError``), and ``tablectl conformance`` prints it: exit 2, no traceback."""
    master, slave = os.openpty()
    port = os.ttyname(slave)
    try:
        with pytest.raises(KitError, match=rf"the shoe at {port}, opening the session .*\(8\.1: .*never acknowledged"):
            check("shoe", port, NoOperator(), lambda o: None)
        assert main(["conformance", "shoe", port]) == 2
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert f"tablectl: cannot check the shoe: the shoe at {port}, opening the session" in err
    assert "Traceback" not in err


def test_a_shoe_checked_as_a_shuffler_is_named_not_failed_clause_by_clause(capsys: pytest.CaptureFixture[str]) -> None:
    """A walkthrough pointed `conformance shuffler` at a shoe: 10 FAILs and exit 1, as if a shuffler had failed them.
    Its Identity says what it is: the kit checks nothing and says which check to run (exit 2)."""
    from drivers.conformance.run import simulator

    with simulator("shoe", "reference") as sim:
        with pytest.raises(KitError, match=r"says it is a shoe .*not a shuffler: check it with `tablectl conformance shoe"):
            check("shuffler", sim.url, NoOperator(), lambda o: None)
        assert main(["conformance", "shuffler", sim.url]) == 2
    assert "FAIL" not in capsys.readouterr().out


@pytest.mark.hardware
@pytest.mark.parametrize(("device", "option"), [("shoe", "--shoe-port"), ("shuffler", "--shuffler-port")])
def test_a_real_device_passes_every_clause_the_kit_can_check_alone(
    request: pytest.FixtureRequest, device: str, option: str
) -> None:
    port = hardware_port(request, option)
    outcomes = check(device, port, NoOperator(), lambda outcome: print(outcome.line()))
    failed = [o.line() for o in outcomes if o.status == "FAIL"]
    assert not failed, summary(outcomes) + "\n" + "\n".join(failed)
