"""How a simulated device reads ``docs/protocol.md`` where the document allows more than one reading.

Each field is one choice a device maker may make (the clause that allows it is
named beside it). A *reading* is a named set of choices, described as data in
``drivers/sim/readings.toml`` (as pyvisa-sim describes its instruments), so the
contract tests, the conformance kit and the fault matrix run against every
device the document allows, not only the one we would have built::

    python -m drivers.sim shoe --reading burning --set reply_delay=0.3

>>> Behaviour.parse_setting("reply_delay=0.3")
('reply_delay', 0.3)
>>> Behaviour().with_settings({"unreadable": "drawn+fault"}).unreadable
'drawn+fault'
>>> sorted(readings("shoe"))[:3]
['burning', 'burning-free', 'device-sync']
>>> reading("shoe", "nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: no shoe reading 'nope': one of burning, burning-free, device-sync, ..., unreadable-drawn
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

READINGS = Path(__file__).with_name("readings.toml")

CHOICES: dict[str, tuple[str, ...]] = {
    "seq_after_reconnect": ("continue", "zero", "random"),
    "unknown_command": ("bad-request", "unsupported"),
    "unreadable": ("fault", "drawn+fault", "refuse", "stack", "stack+fault"),
    "deal_before_shuffle": ("not-ready", "ok"),
    "deal_during_fault": ("refuse", "ok"),
    "verify_wrong": ("ok", "mismatch", "mismatch+fault"),
    "shoe_verify": ("unsupported", "count"),
}


@dataclass(frozen=True)
class Behaviour:
    """One device's readings of the protocol (see module doc); the defaults are tablectl's own simulator."""

    # -- the link and the session (sections 3, 7, 8) ------------------------------------
    device_sync: bool = False
    """3.4: the device sends SYNC as its first frame on every connection."""
    seq_after_reconnect: str = "continue"
    """3.6: the device's SEQ on a new connection: ``continue`` where it was, ``zero``, or ``random``."""
    events_before_hello: bool = False
    """3.9 (a device that breaks it): sends its last events as soon as a host connects, before Hello."""
    reply_delay: float = 0.0
    """9.2: seconds the device takes before each reply (late, but within the reply timeout)."""
    version: int = 1
    """4.4: the protocol version the device reports in Identity."""
    boot: int | None = None
    """8.3: a fixed boot value, repeated at every power-on (``None``: random, never the previous one)."""
    starting: float = 0.0
    """8.5: seconds after power-on during which the device reports BUSY and answers NOT_READY."""
    keep_events: int = 0
    """7.2: events kept for Replay (0: all since power-on)."""
    unknown_command: str = "bad-request"
    """2.5: the Result code for a command kind the device does not know."""
    # -- a shoe (section 5) ----------------------------------------------------------------
    burns: int = 0
    """5.2: cards the shoe burns itself (CARD_BURNED) after each shuffle."""
    burn_uses_allowance: bool = True
    """5.2: a burned card uses one card of the gate's allowance."""
    unreadable: str = "fault"
    """5.3 shoe: ``fault`` (FAULT alone) or ``drawn+fault`` (CARD_DRAWN ``--`` then FAULT);
    6.5 shuffler: ``refuse`` (Result and FAULT), ``stack`` (``--`` in the Stack) or ``stack+fault``."""
    cut_card_reported: bool = True
    """5.4: the shoe reports CUT_CARD (``false``: a shoe with no cut-card sensor)."""
    deal_before_shuffle: str = "not-ready"
    """4.8: Deal before any shoe is started: ``not-ready``, or ``ok`` (and nothing comes out)."""
    deal_during_fault: str = "refuse"
    """4.8: Deal while a fault is open: ``refuse`` (the fault's code) or ``ok`` (the allowance is set)."""
    fault_drops_allowance: bool = False
    """4.8: a fault cancels the gate's allowance (the host must send Deal again once it is cleared)."""
    shoe_verify: str = "unsupported"
    """4.9: a shoe answers Verify ``unsupported``, or with the ``count`` of cards left in it."""
    # -- a shuffler (section 6) ------------------------------------------------------------
    decks: int = 1
    """6.1: decks the shuffler alternates (1 or 2)."""
    per_card_events: bool = False
    """6.6: the shuffler logs CARD_DRAWN for every card it dispenses."""
    verify_wrong: str = "ok"
    """4.9: a wrong count is answered ``ok`` (with the count), ``mismatch``, or ``mismatch+fault`` (lasting)."""

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if self.decks not in (1, 2):
            raise ValueError(f"decks must be 1 or 2, not {self.decks}")

    def with_settings(self, settings: dict[str, Any]) -> Behaviour:
        """A copy with ``settings`` applied (values already typed, or text to convert)."""
        known = {f.name: f for f in fields(self)}
        unknown = set(settings) - set(known)
        if unknown:
            raise ValueError(f"unknown behaviour option(s) {', '.join(sorted(unknown))}: one of {', '.join(known)}")
        return dataclasses.replace(self, **{k: _typed(known[k], v) for k, v in settings.items()})

    @staticmethod
    def parse_setting(text: str) -> tuple[str, Any]:
        """``"reply_delay=0.3"`` -> ``("reply_delay", 0.3)``, typed by the field it names."""
        key, sep, value = text.partition("=")
        known = {f.name: f for f in fields(Behaviour)}
        if not sep or key not in known:
            raise ValueError(f"expected OPTION=VALUE with OPTION one of {', '.join(known)}, got {text!r}")
        return key, _typed(known[key], value)

    def changed(self) -> dict[str, Any]:
        """The choices that differ from tablectl's own simulator."""
        default = Behaviour()
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)}


def _typed(field: dataclasses.Field[Any], value: Any) -> Any:
    if not isinstance(value, str):
        return value
    kind = str(field.type)
    if kind == "bool":
        if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"{field.name} must be true or false, not {value!r}")
        return value.lower() in ("true", "1", "yes")
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if kind == "int | None":
        return None if value.lower() in ("", "none", "random") else int(value, 0)
    return value


@cache
def _all_readings() -> dict[str, dict[str, dict[str, Any]]]:
    with READINGS.open("rb") as f:
        return tomllib.load(f)


def readings(device: str) -> dict[str, str]:
    """The readings of ``device`` (``shoe`` or ``shuffler``), each with what it is about."""
    return {name: str(spec.get("about", "")) for name, spec in _all_readings().get(device, {}).items()}


def reading(device: str, name: str) -> Behaviour:
    """The behaviour the reading ``name`` of ``device`` describes."""
    spec = _all_readings().get(device, {}).get(name)
    if spec is None:
        raise ValueError(f"no {device} reading {name!r}: one of {', '.join(sorted(readings(device)))}")
    return Behaviour().with_settings({k: v for k, v in spec.items() if k != "about"})
