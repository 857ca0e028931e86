"""Browser fixtures: Debian's Chromium driven headless by Playwright; screenshots kept under tests/artifacts/console/."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TABLECTL_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "console"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One browser per test module, not per session: while Playwright's sync API is open it leaves its event loop
    marked as running in the main thread, and every later ``asyncio.run`` (the floor's tests) would refuse to start."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _page(chromium: Any, request: pytest.FixtureRequest, width: int, height: int) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    # A step waits for the table loop (dealing through the simulated devices), not for a deadline: with
    # two test suites side by side on the 2-core CI machine one step once took over 5 s.
    page.set_default_timeout(30000)
    yield page
    report = getattr(request.node, "call_report", None)
    if report is not None and report.failed:
        _keep_failed_page(page, request.node.name)
    context.close()


@pytest.fixture
def page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from _page(chromium, request, 1280, 900)


@pytest.fixture
def table_page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page the size of the table's own touch screen, 1024x600."""
    yield from _page(chromium, request, 1024, 600)


def _keep_failed_page(page: Any, test: str) -> None:
    """A failed test's page as it was, for the next reader: a screenshot and the document, under
    tests/artifacts/console/failed/ (an intermittent failure leaves nothing else to read)."""
    folder = ARTIFACTS / "failed"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        page.screenshot(path=str(folder / f"{test}.png"), full_page=True)
        (folder / f"{test}.html").write_text(page.content())
    except Exception as error:  # noqa: BLE001 - a page that cannot be kept must not hide the test's own failure
        (folder / f"{test}.txt").write_text(f"the page could not be kept: {error}\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep the test's own outcome on it (``call_report``) for the ``page`` fixture's teardown."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.call_report = report  # type: ignore[attr-defined]


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Any:
    """``shots(page, "step")`` saves tests/artifacts/console/TEST-NN-step.png."""
    folder = ARTIFACTS / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    count = iter(range(1, 100))

    def take(page: Any, step: str) -> Path:
        path = folder / f"{next(count):02d}-{step}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
