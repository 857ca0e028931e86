"""Running the kit against a port, or against tablectl's simulator in one of its readings."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from drivers.conformance import checks_devices, checks_link  # noqa: F401 - importing the checks registers them
from drivers.conformance.kit import Kit, NoOperator, Operator, Outcome, PromptOperator, SimulatorOperator
from drivers.sim.behaviour import reading
from drivers.sim.device import SimDevice
from drivers.sim.endpoints import PtyEndpoint
from drivers.sim.shoe import ShoeSim
from drivers.sim.shuffler import ShufflerSim


@contextmanager
def simulator(device: str, name: str, seed: int = 7) -> Iterator[SimDevice]:
    """tablectl's simulated ``device`` in the reading ``name``, on a pseudo-terminal, in this process."""
    behaviour = reading(device, name)
    endpoint = PtyEndpoint()
    sim: SimDevice
    if device == "shoe":
        sim = ShoeSim(endpoint, decks=1, seed=seed, cut_from_end=10, behaviour=behaviour)
    else:
        sim = ShufflerSim(endpoint, seed=seed, behaviour=behaviour)
    sim.start()
    try:
        yield sim
    finally:
        sim.stop()
        endpoint.close()


def check(device: str, port: str, operator: Operator, report: Callable[[Outcome], None]) -> list[Outcome]:
    return Kit(device, port, operator).run(report)


def check_simulator(device: str, name: str, report: Callable[[Outcome], None] = lambda o: None) -> list[Outcome]:
    with simulator(device, name) as sim:
        return check(device, sim.url, SimulatorOperator(sim.control), report)


def operator_named(name: str) -> Operator:
    return PromptOperator() if name == "prompt" else NoOperator()


def summary(outcomes: list[Outcome]) -> str:
    counts = {status: sum(1 for o in outcomes if o.status == status) for status in ("pass", "FAIL", "skip")}
    return f"{counts['pass']} passed, {counts['FAIL']} failed, {counts['skip']} skipped"
