"""The conformance kit and a device's own retransmission waits (docs/protocol.md 3.2: its choice, at least 20 ms)."""

from __future__ import annotations

from drivers.conformance import run as _registers_the_checks  # noqa: F401
from drivers.conformance.kit import Kit
from tests.maker2.maker import MakerDevice


def test_a_device_that_waits_2_s_before_it_retransmits_passes_3_2() -> None:
    """A shoe that waits 2 s for an ACK, then 4 s, 8 s (it retransmits for 14 s, longer than the host's 1.55 s) failed
    3.2 with 'the Status was sent 1 time(s) without an ACK': the kit looked for the second copy for 1.6 s only."""
    with MakerDevice("shoe", "ack_wait=2", "retries=3") as dev:
        outcomes = Kit("shoe", dev.port).run(only={"3.2"})
    assert [(o.clause, o.status, o.detail) for o in outcomes] == [("3.2", "pass", "")]
