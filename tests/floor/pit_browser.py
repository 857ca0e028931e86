"""The floor's pit page in real Chromium (Debian's), logged in as the floor's supervisor: what the page tests open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from controller.floor.proof import SUPERVISOR


@contextmanager
def pit_page(url: str) -> Iterator[Any]:
    """A 1280x800 page at ``url``, the supervisor's name and PIN submitted; the browser closed on leaving."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url)
            page.fill("#login-name", SUPERVISOR[0])
            page.fill("#login-pin", SUPERVISOR[1])
            page.click("#login button[type=submit]")
            yield page
        finally:
            browser.close()
