"""The console's own pit view printed each fault's time in UTC (``toISOString``): at a table five and a half hours
east of Greenwich a jam at 14:05 read 08:35. Times on the pit view are now the table's local time (``[table]
time_zone``, else the machine's), as the floor's pit page shows its times in ``[floor] time_zone``; the view's data
keeps the moment itself (``at``)."""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from controller.engine.commands import DeviceFault
from controller.engine.config import load_config
from controller.engine.view import table_view
from controller.errors import ConfigError
from tests.console.tables import CONFIG, SUPERVISOR, log_in, served, table_loop
from tests.console.test_browser import expect_text

JAM = "shoe fault (jam): clear the card path"


def config_in(tmp_path: Path, zone: str) -> Path:
    """The shipped Top Card config with the table's time zone set."""
    text = (CONFIG / "top-card.toml").read_text(encoding="utf-8")
    assert text.count("[table]\n") == 1
    path = tmp_path / "top-card.toml"
    path.write_text(text.replace("[table]\n", f'[table]\ntime_zone = "{zone}"\n'), encoding="utf-8")
    return path


def clock(at: float, zone: dt.tzinfo) -> str:
    return dt.datetime.fromtimestamp(at, zone).strftime("%H:%M:%S")


def test_the_pit_view_shows_a_faults_time_on_the_tables_clock(page: Any, tmp_path: Path) -> None:
    """A table in Kolkata (UTC+05:30, so its clock never reads as UTC's): the pit view's fault line starts with the
    table's time of the fault."""
    with served("top-card", config_file=config_in(tmp_path, "Asia/Kolkata")) as console:
        page.goto(console.url + "/pit")
        log_in(page, SUPERVISOR)
        console.loop.submit(DeviceFault("shoe", JAM)).result(30)
        expect_text(page, "#faults li.fault", "shoe: " + JAM.replace("(", r"\(").replace(")", r"\)"))
        [fault] = console.loop.faults
        line = str(page.locator("#faults li.fault").first.text_content())
        local, utc = clock(fault.at, ZoneInfo("Asia/Kolkata")), clock(fault.at, dt.UTC)
        assert line.startswith(local + "  shoe: "), (line, local, utc)
        assert utc not in line, (line, utc)
        assert console.loop.snapshot("pit")["faults"][0]["at"] == fault.at  # the data keeps the moment itself


@pytest.fixture
def machine_zone() -> Iterator[str]:
    """This process's local time zone set to one that is not UTC, as on a table PC set to the casino's."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "America/St_Johns"  # UTC-03:30 or -02:30: never a whole hour from UTC
    time.tzset()
    try:
        yield "America/St_Johns"
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def test_without_a_time_zone_in_the_config_the_pit_reads_the_machines_clock(machine_zone: str) -> None:
    loop, _ = table_loop("top-card")
    loop.start()
    try:
        loop.submit(DeviceFault("shoe", JAM)).result(30)
        [fault] = table_view(loop)["faults"]
    finally:
        loop.stop()
    assert fault["at_text"] == clock(fault["at"], ZoneInfo(machine_zone)), fault


def test_a_time_zone_the_machine_does_not_know_is_refused_in_the_readers_words(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(config_in(tmp_path, "Pit/Nine"))
    assert "table.time_zone" in str(refused.value) and "no time zone called 'Pit/Nine'" in str(refused.value)
