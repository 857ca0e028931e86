"""The shuffle report: each shoe's tests and each device's cumulative tests, read back from the journal.

``shoes(records)`` gathers the journal's ``ShuffleTested``, ``ShuffleAlarm``
and ``deck_reconciled`` records by device and shoe, with the rounds each shoe
was dealt to (``ShuffleTested.rounds``; in a journal from before it was
recorded, the rounds of the device's ``card_dealt`` and ``card_burned``
records since its last shoe ended); ``text`` lays them out for
a terminal and ``picture`` draws every test's score over the shoes with its
hold and warning lines (matplotlib, an optional dependency: the table runs
without it, and the report says how to get the picture).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.engine.shuffle.policy import DEVICE_TESTS, SHOE_TESTS
from controller.events import (
    UNSET,
    CameraDisagreed,
    CardBurned,
    CardDealt,
    DeckReconciled,
    Event,
    ShuffleAlarm,
    ShuffleTested,
)


@dataclass
class Shoe:
    """One shoe of one device as journaled."""

    device: str
    shoe: int
    cards: int = 0
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    alarms: list[dict[str, Any]] = field(default_factory=list)
    inventory: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[str] = field(default_factory=list)
    """The rounds dealt cards of this shoe, in order (a round resumed on a new shoe after a hold is in both)."""
    camera: list[dict[str, Any]] = field(default_factory=list)
    """The camera's discrepancies while the shoe was dealt: the round, the zone, the card dealt and the card seen."""

    def as_json(self) -> dict[str, Any]:
        return {"device": self.device, "shoe": self.shoe, "cards": self.cards, "results": list(self.results.values()),
                "alarms": self.alarms, "inventory": self.inventory, "rounds": self.rounds, "camera": self.camera}


def shoes(records: Iterable[Event]) -> list[Shoe]:
    """Every shoe the journal tells of, in the order journaled (a device's shoe numbers restart with the process).

    ``records`` in journal order; ``CardDealt`` and ``CardBurned`` among them give the rounds of a shoe whose
    ``ShuffleTested`` does not list them (journaled before it did); ``CameraDisagreed`` gives each shoe the camera's
    discrepancies since the shoe before it ended.
    """
    by_key: dict[tuple[str, int, int], Shoe] = {}
    epoch: dict[str, int] = {}
    last: dict[str, int] = {}
    dealt: dict[str, list[str]] = {}  # per device kind (``shoe``, ``shuffler``): rounds dealt since its last shoe ended
    filmed: list[dict[str, Any]] = []  # the camera's discrepancies since the last shoe ended (a table has one device)
    for r in records:
        if isinstance(r, CameraDisagreed):
            filmed.append({"round": r.round, "kind": r.kind, "zone": r.zone, "dealt": r.dealt, "seen": r.seen})
            continue
        if isinstance(r, CardDealt | CardBurned):
            mine = dealt.setdefault(r.source, [])
            if r.round and r.round not in mine:
                mine.append(r.round)
            continue
        if not isinstance(r, ShuffleTested | ShuffleAlarm | DeckReconciled):
            continue
        device, number = r.device, r.shoe
        if number < last.get(device, 0):  # a new process numbered its shoes from 1 again
            epoch[device] = epoch.get(device, 0) + 1
        last[device] = number
        key = (device, epoch.get(device, 0), number)
        shoe = by_key.setdefault(key, Shoe(device, number))
        match r:
            case ShuffleTested():
                shoe.cards = r.cards
                shoe.results = {res["test"]: res for res in r.results}
                shoe.rounds = list(r.rounds) if r.rounds is not UNSET else dealt.get(device.rpartition("/")[2], [])
                dealt[device.rpartition("/")[2]] = []
            case ShuffleAlarm():
                shoe.alarms.append({"test": r.test, "level": r.level, "card": r.card, "score": r.score, "limit": r.limit,
                                    "reason": r.reason, "round": r.round})
            case DeckReconciled():
                if r.at == "end of shoe":
                    shoe.camera, filmed = filmed, []
                shoe.inventory.append({"at": r.at, "seen": r.seen, "counted": r.counted, "held": r.held, "problems": r.problems})
    return list(by_key.values())


def _p(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.0e}" if value < 1e-3 else f"{value:.3f}"


def text(all_shoes: list[Shoe], shoe: int | None = None) -> list[str]:
    """Lines for a terminal: per device, each shoe's p-values and alarms, then the cumulative tests; or one shoe in full."""
    if shoe is not None:
        return [line for s in all_shoes if s.shoe == shoe for line in _one_shoe(s)]
    lines = []
    for device in dict.fromkeys(s.device for s in all_shoes):
        mine = [s for s in all_shoes if s.device == device]
        lines.append(f"{device}: {len(mine)} shoes, {sum(len(s.alarms) for s in mine)} alarms")
        lines.append("  shoe  cards  " + "  ".join(f"{t:>7}" for t in SHOE_TESTS) + "  alarms (p: each test's p-value)")
        for s in mine:
            cells = "  ".join(f"{_p(s.results.get(t, {}).get('p')):>7}" for t in SHOE_TESTS)
            alarms = ", ".join(f"{a['test']} {a['level']}" + (f" @{a['card']}" if a.get("card") else "") for a in s.alarms)
            held = [i for i in s.inventory if i.get("held")]
            if held:
                alarms = ", ".join(filter(None, [alarms, "inventory: " + "; ".join(held[-1]["problems"])]))
            if s.camera:
                alarms = ", ".join(filter(None, [alarms, f"camera disagreed {len(s.camera)}x"]))
            lines.append(f"  {s.shoe:>4}  {s.cards:>5}  {cells}  {alarms}")
        latest = next((s for s in reversed(mine) if s.results), None)
        if latest is not None:
            lines.append(f"  cumulative (after shoe {latest.shoe}):")
            for t in (*DEVICE_TESTS, "chi-square"):
                r = latest.results.get(t)
                if r is None:
                    continue
                if t == "chi-square":
                    p = f"{r['statistic']:.1f} on {r['expected']:.0f} df, p {_p(r['p'])}" if r["p"] is not None else "not yet"
                    lines.append(f"    {t:<12} {p}  ({r['detail']})")
                else:
                    lines.append(f"    {t:<12} CUSUM {r['score']:.2f}  warn at {_limit(r['warn_limit'])}, "
                                 f"hold at {_limit(r['hold_limit'])}{'  ' + r['level'].upper() if r['level'] else ''}")
    return lines or ["no shoe tested yet"]


def _dealt_in(rounds: list[str]) -> str:
    if not rounds:
        return "dealt in no round"
    if len(rounds) == 1:
        return f"dealt in round {rounds[0]}"
    return f"dealt in {len(rounds)} rounds: {rounds[0]} to {rounds[-1]}"


def _limit(value: Any) -> str:
    return "never" if value is None else f"{value:.2f}"


def _one_shoe(s: Shoe) -> list[str]:
    lines = [f"{s.device} shoe {s.shoe}: {s.cards} cards, {_dealt_in(s.rounds)}"]
    if len(s.rounds) > 2:
        lines.append(f"  rounds: {', '.join(s.rounds)}")
    lines.append(f"  {'test':<12} {'statistic':>10} {'random':>8} {'p':>7} {'score':>7} {'warn at':>8} {'hold at':>8}  level")
    for r in s.results.values():
        expected = "" if r["expected"] is None else f"{r['expected']:.1f}"
        level = (r["level"] or "") + (f" at card {r['card']}" if r.get("card") else "")
        lines.append(f"  {r['test']:<12} {r['statistic']:>10.2f} {expected:>8} {_p(r['p']):>7} {r['score']:>7.2f} "
                     f"{_limit(r['warn_limit']):>8} {_limit(r['hold_limit']):>8}  {level}  {r['detail']}")
    lines += [f"  alarm: {a['reason']}" + (f" (raised in round {a['round']})" if a.get("round") else "") for a in s.alarms]
    for c in s.camera:
        lines.append(f"  camera in round {c['round'] or '-'}: {c['kind']} in {c['zone'] or '-'}: "
                     f"dealt {c['dealt'] or '-'}, seen {c['seen'] or '-'}")
    for i in s.inventory:
        lines.append(f"  inventory ({i['at']}): {i['seen']} cards seen, device count {i['counted'] if i['counted'] is not None else '-'}: "
                     + ("; ".join(i["problems"]) if i["problems"] else "all accounted for"))
    return lines


def picture(all_shoes: list[Shoe], path: Path, title: str) -> Path:
    """Every test's score over the shoes with its warning and hold lines; PNG or SVG by ``path``'s suffix.

    Raises ``ModuleNotFoundError`` when matplotlib is not installed (``pip install 'tablectl[report]'``).
    """
    import matplotlib as mpl

    mpl.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    tests = [*SHOE_TESTS, *DEVICE_TESTS]
    devices = list(dict.fromkeys(s.device for s in all_shoes))
    fig, axes = plt.subplots(len(tests), 1, figsize=(10, 1.7 * len(tests)), sharex=True, squeeze=False)
    for ax, test in zip(axes[:, 0], tests, strict=True):
        for device in devices:
            mine = [s for s in all_shoes if s.device == device and test in s.results]
            xs = list(range(1, len(mine) + 1))
            ys = [max(s.results[test]["score"] or 0.0, 0.0) for s in mine]
            ax.plot(xs, ys, marker=".", linewidth=1, label=device)
            for x, s in zip(xs, mine, strict=True):
                level = s.results[test]["level"]
                if level:
                    ax.plot([x], [ys[x - 1]], "o", color="red" if level == "hold" else "orange")
            for key, colour in (("warn_limit", "orange"), ("hold_limit", "red")):
                limits = {s.results[test][key] for s in mine if s.results[test][key] is not None}
                for limit in limits:
                    ax.axhline(limit, color=colour, linestyle="--", linewidth=0.8)
        kind = "ln e-value (peak in the shoe)" if test in SHOE_TESTS else "CUSUM"
        ax.set_ylabel(f"{test}\n{kind}", fontsize=7)
        ax.set_yscale("symlog", linthresh=1.0)
    axes[-1, 0].set_xlabel("shoe (per device, in the order dealt)")
    axes[-1, 0].xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0, 0].set_title(f"{title}: shuffle tests per shoe; warn line orange, hold line red")
    if len(devices) > 1:
        axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
