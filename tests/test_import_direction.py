"""The rooms of ``docs/architecture.md`` and the imports that must never exist between them.

Every module of ``controller``, ``drivers`` and ``vision`` is read with ``ast``;
every import counts, wherever it is written (at the top, inside a function, or
under ``if TYPE_CHECKING:``). The registries that name game modules as strings
(``controller/rules/registry.py``, ``controller/rules/edges.py``) import them
lazily on purpose and are not imports here. Each numbered rule below is the
numbered line of "Arrows that must never exist" in ``docs/architecture.md``;
each rule also has a test showing it catches a made-up offender.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "drivers", "vision")
VOCABULARY = frozenset({"controller", "controller.cards", "controller.tiles", "controller.money", "controller.odds", "controller.shipped",
                        "controller.settlement", "controller.errors", "controller.events"})
"""The shared vocabulary: the modules at ``controller/``'s top."""
ROOMS = ("rules", "records", "floor", "engine", "console", "commands")
RULES_SHARED = ("controller.rules", "controller.rules.base", "controller.rules.registry", "controller.rules.edges",
                "controller.rules.banking", "controller.rules.fees", "controller.rules.evaluators")
"""The rules room's own modules, shared by every game family (``evaluators`` with its submodules)."""
IMPURE = frozenset({"serial", "usb", "cv2", "structlog", "logging", "transitions", "sqlite3", "threading", "time"})
"""What the rules never touch: devices, the camera, logs, the state machine, storage, threads and clocks."""

Graph = Mapping[str, frozenset[str]]


# -- reading the tree ---------------------------------------------------------

def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for package in PACKAGES for p in sorted((root / package).rglob("*.py"))}


def imports_of(path: Path, name: str, known: Iterable[str]) -> frozenset[str]:
    """The modules ``path`` (module ``name``) imports: ``from a import b`` is ``a.b`` when that is a module."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                child = f"{module}.{alias.name}"
                found.add(child if child in known else module)
    return frozenset(found)


def import_graph(root: Path = ROOT) -> dict[str, frozenset[str]]:
    modules = source_modules(root)
    return {name: imports_of(path, name, modules) for name, path in modules.items()}


# -- where a module lives -----------------------------------------------------

def top(module: str) -> str:
    return module.split(".", maxsplit=1)[0]


def room(module: str) -> str | None:
    """``vocabulary``, a room name, ``drivers``, ``vision``, or ``None`` for anything not ours."""
    if module in VOCABULARY:
        return "vocabulary"
    parts = module.split(".")
    if parts[0] == "controller":
        return parts[1] if len(parts) > 1 and parts[1] in ROOMS else "vocabulary"
    return parts[0] if parts[0] in ("drivers", "vision") else None


def rules_family(module: str, packages: set[str]) -> str | None:
    """The game family folder a rules module is in (``controller.rules.poker``), or ``None`` for the shared ones."""
    if room(module) != "rules" or any(module == s or module.startswith(s + ".") for s in RULES_SHARED[1:]):
        return None
    family = ".".join(module.split(".")[:3])
    return family if family in packages else None


def nested(a: str, b: str) -> bool:
    """Whether one folder is the other or lies inside it: a package and its subpackages are one unit here
    (``drivers/registry.py`` names ``drivers/transport``'s transports; rule 7 keeps the rules' own modules
    off the game families)."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def folder(module: str, packages: set[str]) -> str:
    """The folder a module's file lies in: a package is its own folder."""
    return module if module in packages else module.rpartition(".")[0]


# -- the rules ----------------------------------------------------------------

def arrow_violations(graph: Graph, packages: set[str]) -> list[str]:
    """Every import that breaks rules 1-10."""
    out: list[str] = []
    for source, targets in sorted(graph.items()):
        here = room(source)
        for target in sorted(targets):
            there = room(target)
            if there is None:
                if here == "rules" and top(target) in IMPURE:
                    out.append(f"5: {source} (rules) imports {target}")
                continue
            if there == here and here != "rules":
                continue
            if here in ("drivers", "vision"):
                if top(target) == "controller" and target not in ("controller", "controller.cards"):
                    out.append(f"1: {source} imports {target}: drivers and vision use only controller.cards")
                elif there in ("drivers", "vision") and there != here:
                    out.append(f"2: {source} imports {target}: drivers and vision never import each other")
            elif here == "vocabulary" and there != "vocabulary":
                out.append(f"3: {source} (vocabulary) imports {target} ({there})")
            elif here == "rules":
                if there not in ("vocabulary", "rules"):
                    out.append(f"4: {source} (rules) imports {target} ({there})")
                    continue
                mine, theirs = rules_family(source, packages), rules_family(target, packages)
                if mine is not None and theirs is not None and mine != theirs:
                    out.append(f"6: {source} ({mine}) imports another family: {target}")
                elif mine is None and theirs is not None:
                    out.append(f"7: {source} (shared by every game) imports a family: {target}")
            elif here == "records" and there != "vocabulary":
                out.append(f"8: {source} (records) imports {target} ({there})")
            elif here == "floor" and there not in ("vocabulary", "rules", "records") and target not in FRONT_DOOR:
                out.append(f"12: {source} (floor) imports {target} ({there})")
            elif here == "engine" and there in ("console", "commands", "floor"):
                out.append(f"9: {source} (engine) imports {target} ({there})")
            elif here == "console" and there in ("commands", "drivers", "vision"):
                out.append(f"10: {source} (console) imports {target} ({there})")
            elif here == "console" and there == "engine" and target not in CONSOLE_DOORS:
                out.append(f"13: {source} (console) imports {target}: the console drives the table through its loop only")
    return out


CONSOLE_DOORS = frozenset({"controller.engine", "controller.engine.loop", "controller.engine.commands",
                           "controller.engine.config", "controller.engine.config_schema"})
"""What the console may use of the engine: the one table loop, the commands it takes, and the table's config."""


FRONT_DOOR = frozenset({"controller.console.guard", "controller.console.login"})
"""The console's front door (Host, Origin and body checks; staff sessions), which the floor's pit page shares."""


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def cycle_violations(graph: Graph, packages: set[str]) -> list[str]:
    """Rule 11: modules that import each other, and folders that import each other."""
    ours = {m: frozenset(t for t in ts if t in graph) for m, ts in graph.items()}
    out = [f"11: modules import each other: {' <-> '.join(group)}" for group in cycles(ours)]
    folders: dict[str, set[str]] = {}
    for source, targets in ours.items():
        here = folder(source, packages)
        folders.setdefault(here, set()).update(
            there for there in (folder(t, packages) for t in targets) if not nested(here, there))
    out += [f"11: folders import each other: {' <-> '.join(group)}" for group in cycles(folders)]
    return out


def violations(graph: Graph, packages: set[str]) -> list[str]:
    """Every broken rule, each naming its number in ``docs/architecture.md``."""
    return arrow_violations(graph, packages) + cycle_violations(graph, packages)


def packages_of(root: Path = ROOT) -> set[str]:
    return {module_name(p, root) for package in PACKAGES for p in (root / package).rglob("__init__.py")}


# -- the tree as it is --------------------------------------------------------

def test_no_forbidden_import_exists_in_the_tree() -> None:
    assert violations(import_graph(), packages_of()) == []


def test_the_tree_has_the_rooms_the_architecture_names() -> None:
    packages = packages_of()
    assert {f"controller.{name}" for name in ROOMS} <= packages
    assert {"controller.rules.evaluators", "controller.rules.poker", "controller.rules.blackjack"} <= packages
    modules = source_modules()
    loose = {m for m in modules if m.count(".") == 1 and top(m) == "controller" and m not in packages}
    assert loose <= VOCABULARY, "a module at controller/'s top is vocabulary: put anything else in a room"
    assert "controller.cards" in modules


# -- each rule catches an offender --------------------------------------------

PACKAGES_SEEN = {"controller", "controller.rules", "controller.rules.poker", "controller.rules.blackjack", "controller.floor",
                 "controller.rules.evaluators", "controller.records", "controller.engine", "controller.console",
                 "controller.commands", "drivers", "drivers.sim", "vision"}


@pytest.mark.parametrize(("source", "target", "rule"), [
    ("drivers.shoe", "controller.engine.round", "1"),
    ("vision.recognizer", "controller.money", "1"),
    ("drivers.sim.shoe", "vision.synthetic", "2"),
    ("vision.sources", "drivers.errors", "2"),
    ("controller.money", "controller.rules.base", "3"),
    ("controller.cards", "drivers.shoe", "3"),
    ("controller.rules.base", "controller.engine.round", "4"),
    ("controller.rules.poker.game", "controller.records.journal", "4"),
    ("controller.rules.evaluators.five_card", "vision.recognizer", "4"),
    ("controller.rules.poker.game", "structlog", "5"),
    ("controller.rules.blackjack.play", "time", "5"),
    ("controller.rules.poker.hand", "controller.rules.blackjack.totals", "6"),
    ("controller.rules.base", "controller.rules.poker.game", "7"),
    ("controller.rules.evaluators.batch", "controller.rules.poker.equity", "7"),
    ("controller.records.journal", "controller.engine.log", "8"),
    ("controller.records.meters", "controller.rules.base", "8"),
    ("controller.engine.table", "controller.console.app", "9"),
    ("controller.engine.session", "controller.commands.rounds", "9"),
    ("controller.engine.session", "controller.floor.outbox", "9"),
    ("controller.console.app", "controller.commands.rounds", "10"),
    ("controller.console.server", "drivers.errors", "10"),
    ("controller.floor.outbox", "controller.engine.log", "12"),
    ("controller.floor.pit", "controller.console.app", "12"),
    ("controller.records.journal", "controller.floor.outbox", "8"),
    ("controller.console.app", "controller.engine.round", "13"),
    ("controller.console.server", "controller.engine.feeds", "13"),
])
def test_each_forbidden_arrow_is_caught(source: str, target: str, rule: str) -> None:
    found = violations({source: frozenset({target}), target: frozenset()}, PACKAGES_SEEN)
    assert [v.split(":")[0] for v in found] == [rule]


@pytest.mark.parametrize(("source", "target"), [
    ("controller.rules.poker.game", "controller.rules.base"),
    ("controller.rules.poker.game", "controller.rules.evaluators.five_card"),
    ("controller.rules.poker.game", "controller.rules.poker.hand"),
    ("controller.engine.round", "controller.rules.base"),
    ("controller.engine.session", "controller.records.journal"),
    ("controller.engine.feeds", "drivers.shoe"),
    ("controller.console.app", "controller.engine.loop"),
    ("controller.console.parse", "controller.engine.commands"),
    ("controller.commands.run", "controller.console.server"),
    ("drivers.shoe", "controller.cards"),
    ("controller.rules.blackjack.play", "fractions"),
    ("controller.floor.jackpot", "controller.rules.evaluators.high_card_flush"),
])
def test_an_allowed_arrow_passes(source: str, target: str) -> None:
    assert violations({source: frozenset({target}), target: frozenset()}, PACKAGES_SEEN) == []


def test_modules_importing_each_other_are_caught() -> None:
    graph = {"controller.rules.poker.game": frozenset({"controller.rules.poker.strategy"}),
             "controller.rules.poker.strategy": frozenset({"controller.rules.poker.game"})}
    assert violations(graph, PACKAGES_SEEN) == [
        "11: modules import each other: controller.rules.poker.game <-> controller.rules.poker.strategy"]


def test_a_longer_cycle_is_caught() -> None:
    graph = {"controller.console.a": frozenset({"controller.console.b"}), "controller.console.b": frozenset({"controller.console.c"}),
             "controller.console.c": frozenset({"controller.console.a"})}
    assert violations(graph, PACKAGES_SEEN) == [
        "11: modules import each other: controller.console.a <-> controller.console.b <-> controller.console.c"]


def test_folders_importing_each_other_are_caught() -> None:
    graph = {"controller.engine.round": frozenset({"controller.records.journal"}),
             "controller.records.journal": frozenset(), "controller.records.meters": frozenset({"controller.engine.table"}),
             "controller.engine.table": frozenset()}
    found = violations(graph, PACKAGES_SEEN)
    assert "11: folders import each other: controller.engine <-> controller.records" in found


def test_imports_are_read_wherever_they_are_written(tmp_path: Path) -> None:
    package = tmp_path / "controller" / "console"
    package.mkdir(parents=True)
    (tmp_path / "controller" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "view.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from controller.engine.loop import TableLoop\n"
        "def f():\n    import controller.commands.rounds\n"
        "from . import session\nfrom .session import Fault\n")
    (package / "session.py").write_text("")
    known = {"controller", "controller.console", "controller.engine.view", "controller.engine.loop"}
    found = imports_of(package / "view.py", "controller.engine.view", known)
    assert {"controller.engine.loop", "controller.commands.rounds"} <= found
