"""The table events the floor reads, and what each alerts the pit with.

The floor stores every record whatever its kind; it reads these to keep
rounds, meters, holds and alerts. (The names are the event kinds the tables
journal; see ``docs/events.md``.)
"""

from __future__ import annotations

from typing import Any

from controller import events as ev

ROUND_STARTED = ev.RoundStarted.EVENT
CARD_DEALT = ev.CardDealt.EVENT
STATE_CHANGED = ev.StateChanged.EVENT
WAGER_PLACED = ev.WagerPlaced.EVENT
WAGER_SETTLED = ev.WagerSettled.EVENT
FEE_COLLECTED = ev.FeeCollected.EVENT
ROUND_COMPLETE = ev.RoundCompleted.EVENT
ROUND_VOIDED = ev.RoundVoided.EVENT
ROUND_HELD = ev.RoundHeld.EVENT
HOLD_REASON_ADDED = ev.HoldReasonAdded.EVENT
LOGIN_GRANTED = ev.LoginGranted.EVENT
LOGGED_OUT = ev.LoggedOut.EVENT

ALERTS: dict[str, str | None] = {
    ROUND_HELD: None,
    HOLD_REASON_ADDED: None,
    ev.ShoeFaulted.EVENT: "device_faults",
    ev.ShufflerFaulted.EVENT: "device_faults",
    ev.DeviceFaultReported.EVENT: "device_faults",
    ev.CardFaulted.EVENT: "device_faults",
    ev.CameraDisagreed.EVENT: "camera_discrepancies",
    ev.CameraFailed.EVENT: "camera_failures",
    ev.ShuffleAlarm.EVENT: "shuffle_alarms",
    ev.ClockSteppedBack.EVENT: None,
}
"""Kinds that raise a live alert on the pit page, and the shift counter each adds to (None: none; holds count
elsewhere; a table's clock stepped back is said, as a clock ahead is, its rounds filed by the times it stamped)."""


def alert_text(kind: str, record: dict[str, Any]) -> str:
    """One line a supervisor reads for an alert of ``kind``."""
    for key in ("reason", "message"):
        if isinstance(record.get(key), str) and record[key]:
            return f"{kind.replace('_', ' ')}: {record[key]}"
    details = ", ".join(f"{k} {v}" for k, v in record.items() if k in ("code", "card", "zone", "kind", "device"))
    return kind.replace("_", " ") + (f": {details}" if details else "")


JOURNAL_CONFLICT = "journal_conflict"
"""An alert of the floor's own: records under a table's id that differ from the ones it stored (two journals)."""
CLOCK_AHEAD = "clock_ahead"
"""An alert of the floor's own: a table's records stamped ahead of the floor's clock."""

RECORDS_DECLARED_LOST = "records_declared_lost"
"""An alert of the floor's own: a table's journal was restored with a loss a person accepted."""

TABLE_ALERT_SEQ = {JOURNAL_CONFLICT: -1, CLOCK_AHEAD: -2, RECORDS_DECLARED_LOST: -3}
"""Where an alert about a table rather than one of its records is kept in ``alerts`` (keyed by table and seq): a
negative seq, which no record has, one row per table and kind, refreshed (its time and text) while it lasts."""
