"""One round told from its journal records: what ``tablectl round`` prints and the pit view lists.

``recall(records)`` gathers a round's wagers, each card with where it went and
where it came from, the overhead camera's word on them, the decisions, holds,
faults, recovery messages, the settlement of every wager and the totals, as
plain data for a person or a program.
"""

from __future__ import annotations

from typing import Any


def recall(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One round's journal records, gathered for a person or a program."""
    summary: dict[str, Any] = {"id": None, "game": None, "state": None, "wagers": {}, "cards": [], "decisions": [],
                               "settlements": [], "holds": [], "faults": [], "recovery": [], "camera": None, "totals": None}
    for r in records:
        event = r["event"]
        if event == "round_started":
            summary.update(id=r["round"], game=r["game"], started=r["timestamp"], options=r.get("options", {}))
        elif event == "state_changed":
            summary["state"] = r["state"]
        elif event in ("wager_placed", "wager_changed"):
            key = f"{r['spot']}:{r['wager']}"
            total = r["previous"] + r["amount"] if r.get("by") == "decision" else r["amount"]
            summary["wagers"][key] = {"spot": r["spot"], "wager": r["wager"], "amount": total}
        elif event in ("card_dealt", "card_burned"):
            summary["cards"].append({"card": r["card"], "target": r.get("target", "burn"), "source": r["source"], "seq": r["seq"]})
        elif event == "decision":
            summary["decisions"].append({k: r[k] for k in ("spot", "action", "amount", "cards", "hand")})
        elif event == "wager_settled":
            summary["settlements"].append({k: r[k] for k in ("spot", "wager", "stake", "outcome", "payout", "returned", "house_win")})
        elif event in ("round_held", "hold_reason_added"):
            summary["holds"].append(r["reason"])
        elif event == "card_fault":
            summary["faults"].append({"card": r["card"], "source": r["source"], "reason": r["reason"]})
        elif event.startswith("camera_") and event != "camera_off":
            _camera_look(summary, r)
        elif event == "round_recovered":
            summary["recovery"].append(r["message"])
        elif event in ("round_complete", "round_voided"):
            summary["totals"] = {k: r[k] for k in ("wagered", "paid", "fees", "house_win")}
            summary["ended"] = r["timestamp"]
            if event == "round_voided":
                summary["void_reason"] = r["reason"]
    summary["wagers"] = [w for w in summary["wagers"].values() if w["amount"]]
    return summary


def _camera_look(summary: dict[str, Any], r: dict[str, Any]) -> None:
    """The camera's word on the round (``controller.engine.camera``): a look after each card landed, one
    before settling, what disagreed or failed, and when a live camera was lost and came back."""
    camera = summary["camera"] = summary["camera"] or {"looks_agreed": 0, "cards_before_settling": None,
                                                       "discrepancies": [], "failures": [], "outages": []}
    if r["event"] == "camera_confirms":
        camera["looks_agreed"] += 1
    elif r["event"] == "camera_agrees":
        camera["looks_agreed"] += 1
        camera["cards_before_settling"] = r["cards"]
    elif r["event"] == "camera_discrepancy":
        camera["discrepancies"].append({k: r.get(k) for k in ("kind", "zone", "dealt", "seen")})
    elif r["event"] == "camera_failed":
        camera["failures"].append(r["reason"])
    elif r["event"] in ("camera_lost", "camera_back"):
        camera["outages"].append({"event": r["event"], "device": r["device"], "at": r["at"]})
