"""The conformance kit and a device that answers in its own time, within docs/protocol.md 4.3's 5 s."""

from __future__ import annotations

from drivers.conformance import run as _registers_the_checks  # noqa: F401
from drivers.conformance.kit import Kit
from tests.maker2.maker import MakerDevice


def test_a_device_answering_in_4_s_passes_the_link_clauses() -> None:
    """A shoe that takes 4 s to answer GetStatus (4.3 allows 5 s) failed 3.5 ('answered 0 times': the kit looked for
    the answer for 1 s, so any answer slower than 1 s failed) and 3.2 ('sent 0 time(s) without an ACK': it looked for
    the first copy for 2 s, then 1.6 s for a second)."""
    with MakerDevice("shoe", "status_delay=4") as dev:
        outcomes = Kit("shoe", dev.port).run(only={"3.2", "3.5"})
    assert [(o.clause, o.status, o.detail) for o in outcomes] == [("3.2", "pass", ""), ("3.5", "pass", "")]
