"""The table events the floor reads, and what each alerts the pit with.

The floor stores every record whatever its kind; it reads these to keep
rounds, meters, holds and alerts. (The names are the event kinds the tables
journal; see ``docs/events.md``.)
"""

from __future__ import annotations

from typing import Any

ROUND_STARTED = "round_started"
CARD_DEALT = "card_dealt"
STATE_CHANGED = "state_changed"
WAGER_SETTLED = "wager_settled"
FEE_COLLECTED = "fee_collected"
ROUND_COMPLETE = "round_complete"
ROUND_VOIDED = "round_voided"
ROUND_HELD = "round_held"
HOLD_REASON_ADDED = "hold_reason_added"

ALERTS: dict[str, str | None] = {
    ROUND_HELD: None,
    HOLD_REASON_ADDED: None,
    "shoe_fault": "device_faults",
    "shuffler_fault": "device_faults",
    "device_fault": "device_faults",
    "card_fault": "device_faults",
    "camera_discrepancy": "camera_discrepancies",
    "camera_failed": "camera_failures",
    "shuffle_alarm": "shuffle_alarms",
}
"""Kinds that raise a live alert on the pit page, and the shift counter each adds to (None: holds count elsewhere)."""


def alert_text(kind: str, record: dict[str, Any]) -> str:
    """One line a supervisor reads for an alert of ``kind``."""
    for key in ("reason", "message"):
        if isinstance(record.get(key), str) and record[key]:
            return f"{kind.replace('_', ' ')}: {record[key]}"
    details = ", ".join(f"{k} {v}" for k, v in record.items() if k in ("code", "card", "zone", "kind", "device"))
    return kind.replace("_", " ") + (f": {details}" if details else "")
