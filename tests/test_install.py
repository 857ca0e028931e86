"""The install docs/operations.md describes: a wheel, installed into a fresh venv outside the checkout, runs a
Top Card table and the pai gow tables from its own shipped configs and House Ways, and finds a table's own
config in the system folder first.

The wheel is built from the files this checkout tracks (a fresh clone's) as
`pip install /path/to/tablectl` builds it. Its dependencies are not downloaded again: the fresh venv sees this test
venv's site-packages through a ``.pth`` line (which, not being a site folder,
does not run this venv's editable-install hook), and nothing of the checkout is
on its path: the test checks ``controller`` is imported from the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.once import computed_once

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv with tablectl installed from a wheel of this checkout (built once a run)."""
    return computed_once(tmp_path_factory, "installed-wheel", lambda: _install(tmp_path_factory.mktemp("install")))


def _install(base: Path) -> Path:
    source = _clean_copy(base / "source")
    wheels = base / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(source), "-w", str(wheels)],
                           capture_output=True, text=True, check=False, cwd=base)
    assert built.returncode == 0, built.stderr
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wheel = next(wheels.glob("tablectl-*.whl"))
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                           "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True, check=False)
    if done.returncode:  # a pip without --python: install into the venv's folder directly
        done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target",
                               str(site), str(wheel)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return venv / "bin"


def _clean_copy(target: Path) -> Path:
    """The files git tracks (links kept as links), as a fresh clone has them: the wheel is built from what is
    committed, and pip's in-tree build leaves nothing in this checkout."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        origin, copy = ROOT / name, target / name
        if not origin.exists() and not origin.is_symlink():
            continue  # deleted in the working tree, not yet committed
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origin, copy, follow_symlinks=False)
    return target


def tablectl(bin_dir: Path, *argv: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TABLECTL_CONFIG_DIR")}
    return subprocess.run([str(bin_dir / "tablectl"), *argv], cwd=cwd, capture_output=True, text=True, check=False,
                          env={**environment, "TABLECTL_CONFIG_DIR": str(cwd / "etc"), **(env or {})}, timeout=600)


def test_the_wheel_is_what_runs(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run([str(installed / "python"), "-c", "import controller, controller.shipped as s; "
                            "print(controller.__file__); print(s.shipped_dir())"], cwd=tmp_path, capture_output=True,
                           text=True, check=True).stdout.split()
    assert all(str(ROOT) not in line and str(installed.parent) in line for line in where), where
    version = tablectl(installed, "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("tablectl 0.")


def test_the_installed_table_runs_top_card_by_default(installed: Path, tmp_path: Path) -> None:
    made = tablectl(installed, "journal", "init", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    done = tablectl(installed, "run", "--rounds", "5", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Top Card at table TC-01") and "rounds      5" in done.stdout
    assert (tmp_path / "var" / "journal" / "TC-01.sqlite").exists()


@pytest.mark.parametrize("game", ["double-hand-poker", "pai-gow-tiles"])
def test_the_installed_pai_gow_tables_find_their_house_ways(installed: Path, tmp_path: Path, game: str) -> None:
    done = tablectl(installed, "run", "--config", game, "--rounds", "5", "--seed", "2", "--no-journal", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "rounds      5" in done.stdout


def test_the_system_folder_comes_before_the_shipped_configs(installed: Path, tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    etc.mkdir()
    init = tablectl(installed, "config", "init", "top-card", "--out", str(etc / "table.toml"), cwd=tmp_path)
    assert init.returncode == 0, init.stderr
    (etc / "table.toml").write_text((etc / "table.toml").read_text().replace('id = "TC-01"', 'id = "TC-07"'))
    done = tablectl(installed, "run", "--rounds", "1", "--no-journal", "--no-camera", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "at table TC-07" in done.stdout
    (etc / "house-way").mkdir()
    (etc / "house-way" / "pai-gow-tiles.toml").write_text('[[step]]\nrule = "no-such-rule"\n')
    refused = tablectl(installed, "config", "check", "pai-gow-tiles", cwd=tmp_path)
    assert refused.returncode == 2 and f"{etc}/house-way/pai-gow-tiles.toml" in refused.stderr
