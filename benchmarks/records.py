"""The damage and tamper suites of issue #46 at full size, with their figures.

Damage: every kind of ``tests/records/suites.py`` (journal deleted, emptied,
truncated at random offsets, bytes flipped; WAL deleted, truncated or damaged
after a crash; anchor or event log deleted; a real full filesystem under the
journal, or under the event log alone) ``--per-kind`` times with different
seeds. Counted: silent losses (a start that went on without a committed
record, or with one changed), tracebacks, reading commands that wrote, and
unclear stops; and how many stopped cases the documented remedy restored
completely (every committed record back, hash for hash).

Tamper: ``--honest`` trails (several games, restarts, kills with torn lines,
rotation) must verify intact (false alarms counted); then ``--tampers``
tamperings by someone without the key (edits, deletions, reorders,
truncations, appended forgeries, replays, inserted copies, whole-log
rewrites, removed chains), each verified with the table's public key and
journal: every one must be found. Also shown: how many are found from the log
and public key alone, without the journal.

    python benchmarks/records.py [--per-kind 20] [--honest 100] [--tampers 1100] [--seed 1] [--only damage|tamper] [--kinds KIND...]

Run it under ``nice``: the full size takes tens of minutes on two busy cores.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.records.suites import DAMAGE, TAMPERS, check, honest_trail, run_damage_case, tamperings


def damage(per_kind: int, seed: int, kinds: tuple[str, ...] = DAMAGE) -> int:
    verdicts: dict[str, Counter[str]] = defaultdict(Counter)
    restored: Counter[str] = Counter()
    bad = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tablectl-damage-") as tmp:
        for n in range(per_kind):
            for kind in kinds:
                case = run_damage_case(kind, seed * 1000 + n, Path(tmp))
                verdicts[kind][case.verdict] += 1
                restored[kind] += bool(case.restored)
                if case.verdict not in ("stopped", "intact", "SKIPPED") or case.restored is False:
                    bad.append(case)
            print(f"  round {n + 1}/{per_kind} done ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    total = sum(sum(c.values()) for c in verdicts.values())
    print(f"damage suite: {total} cases, {per_kind} per kind of {len(kinds)}, {time.perf_counter() - start:.0f} s")
    print(f"  {'kind':<16}{'stopped':>8}{'restored':>9}{'intact':>8}{'silent':>8}{'trace':>7}{'wrote':>7}{'unclear':>8}{'skipped':>8}")
    for kind in kinds:
        c = verdicts[kind]
        print(f"  {kind:<16}{c['stopped']:>8}{restored[kind]:>9}{c['intact']:>8}{c['SILENT LOSS']:>8}{c['TRACEBACK']:>7}"
              f"{c['WROTE']:>7}{c['UNCLEAR']:>8}{c['SKIPPED']:>8}")
    totals = Counter()
    for c in verdicts.values():
        totals.update(c)
    print(f"  silent losses: {totals['SILENT LOSS']}   tracebacks: {totals['TRACEBACK']}   reading commands that wrote: "
          f"{totals['WROTE']}   unclear: {totals['UNCLEAR']}   skipped: {totals['SKIPPED']}")
    print(f"  stopped {totals['stopped']}, of which restored completely by the documented remedy: {sum(restored.values())}")
    for case in bad[:20]:
        print(f"  ! {case.kind} seed {case.seed}: {case.verdict} {case.detail} {case.messages[-1:] if case.restored is False else ''}")
    return totals["SILENT LOSS"] + totals["TRACEBACK"] + totals["WROTE"] + totals["UNCLEAR"]


def tamper(honest: int, tampers: int, seed: int) -> int:
    start = time.perf_counter()
    other = Ed25519PrivateKey.generate()
    rng = random.Random(seed)
    false_alarms = []
    floor_alarms = []
    found: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    chains = 0
    missed = []
    with tempfile.TemporaryDirectory(prefix="tablectl-tamper-") as tmp:
        trails = []
        for n in range(honest):
            trail = honest_trail(Path(tmp) / f"table-{n}", seed * 1000 + n)
            report = check(trail)
            chains += len(report.chains)
            if not report.ok:
                false_alarms.append((n, report.problems))
            with_floor = check(trail, with_floor=True)
            if not with_floor.ok:
                floor_alarms.append((n, with_floor.problems))
            trails.append(trail)
        print(f"  {honest} honest trails built ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
        per_trail = -(-tampers // honest)
        for index, trail in enumerate(trails):
            for name, lines in tamperings(trail, per_trail, rng, other, first=index * per_trail):
                tried[name] += 1
                detected = not check(trail, lines).ok
                found[name] += detected
                alone[name] += not check(trail, lines, with_journal=False).ok
                if not detected:
                    missed.append((name, trail.folder.name))
    total = sum(tried.values())
    print(f"tamper suite: {honest} honest trails ({chains} chains), {total} tamperings, {time.perf_counter() - start:.0f} s")
    print(f"  false alarms on honest trails: {len(false_alarms)} of {honest}"
          f"   (checked against the floor's copy of their checkpoints too: {len(floor_alarms)})")
    print(f"  tamperings found with the public key and the journal: {sum(found.values())} of {total}"
          f"   (with the public key alone, no journal: {sum(alone.values())})")
    for name in sorted(TAMPERS):
        print(f"    {name:<26}{found[name]:>6} of {tried[name]:<6} alone {alone[name]:>5}")
    for n, problems in (false_alarms + floor_alarms)[:10]:
        print(f"  ! false alarm on trail {n}: {problems[:2]}")
    for name, where in missed[:10]:
        print(f"  ! missed: {name} on {where}")
    return len(false_alarms) + len(floor_alarms) + (total - sum(found.values()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-kind", type=int, default=20, help="damage cases per kind (11 kinds)")
    parser.add_argument("--honest", type=int, default=100)
    parser.add_argument("--tampers", type=int, default=1100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("damage", "tamper"), default=None)
    parser.add_argument("--kinds", nargs="+", choices=DAMAGE, default=list(DAMAGE), metavar="KIND",
                        help=f"damage kinds to run (default all: {', '.join(DAMAGE)})")
    args = parser.parse_args()
    failures = 0
    if args.only in (None, "damage"):
        failures += damage(args.per_kind, args.seed, tuple(args.kinds))
    if args.only in (None, "tamper"):
        failures += tamper(args.honest, args.tampers, args.seed)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
