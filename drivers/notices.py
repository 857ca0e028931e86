"""What a device reports about itself, beside its cards: faults, their end, and warnings (shoe and shuffler alike).

A driver turns what its device says (or does not say) into these records, in
the dealer's words; the table journals each one and holds or resumes the round.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DeviceWarning:
    """Something to record that holds nothing: a protocol error that cost no card, a cut card out of place."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """The device cannot be trusted until a ``DeviceRecovered`` with the same ``code`` follows.

    Put the round on hold. Faults can overlap (a jam, then the cable pulled):
    keep the set of open codes, add on ``DeviceFault``, remove on
    ``DeviceRecovered``, and resume when it is empty. ``code`` is a stable slug
    (``jam``, ``door-open``, ``unrecognised-card``, ``communication-lost``,
    ``identity-mismatch``, ``device-restarted`` (recovered by the next
    ``shuffle()``), ...); ``message`` is what the dealer is told.
    """

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class DeviceRecovered:
    """The fault named by ``code`` is over; events continue with nothing lost or repeated."""

    code: str
    message: str
