"""``drivers`` and ``vision`` import nothing from ``controller`` but the card vocabulary."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("package", ["drivers", "vision"])
def test_package_imports_only_cards_from_controller(package: str) -> None:
    offenders = {}
    for path in (ROOT / package).rglob("*.py"):
        bad = {m for m in imported_modules(path) if m.split(".")[0] == "controller" and m not in ("controller", "controller.cards")
               and not m.startswith("controller.cards.")}
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_the_check_would_catch_an_offender(tmp_path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from controller.engine.round import Round\nimport controller.rules.registry\n")
    assert {"controller.engine.round", "controller.rules.registry"} <= imported_modules(bad)
