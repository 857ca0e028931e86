"""Driver names from config: each resolves lazily to its class; wrong names and options are named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from controller.engine.config import load_config
from controller.engine.devices import open_feed
from controller.errors import ConfigError
from drivers.registry import SHOES, SHUFFLERS, BadOptions, UnknownDriver, open_shoe, open_shuffler
from drivers.shuffler import InProcessShuffler
from tests.helpers import MemoryLog

ROOT = Path(__file__).resolve().parents[2]


def test_every_registered_driver_resolves_to_a_class_method_or_class() -> None:
    from drivers.registry import _load

    for table, kind in ((SHOES, "shoe"), (SHUFFLERS, "shuffler")):
        for name in table:
            assert callable(_load(table, kind, name))


def test_the_usb_driver_is_imported_only_when_asked_for() -> None:
    sys.modules.pop("drivers.transport.usb", None)
    open_shuffler("simulated", deck="no-face").shuffle()
    assert "drivers.transport.usb" not in sys.modules


def test_the_in_process_shuffler_takes_a_deck_name() -> None:
    shuffler = open_shuffler("simulated", deck="standard+joker", seed=1)
    assert isinstance(shuffler, InProcessShuffler)
    shuffler.shuffle()
    assert shuffler.verify_count() == 53


def test_unknown_names_and_options_are_named() -> None:
    with pytest.raises(UnknownDriver, match="unknown shuffler driver 'acme'"):
        open_shuffler("acme")
    with pytest.raises(BadOptions, match="unexpected keyword argument 'colour'"):
        open_shoe("reference", port="loop://", colour="red")


def test_a_reference_shuffler_without_a_port_is_a_config_error_naming_the_section(tmp_path: Path) -> None:
    text = (ROOT / "config" / "three-card-poker.toml").read_text().replace('driver = "simulated"', 'driver = "reference"')
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match="shuffler.port: the shuffler driver 'reference' needs the port the shuffler is on"):
        open_feed(load_config(path), MemoryLog())


def test_a_shoe_port_with_nothing_behind_it_is_a_config_error_saying_so(tmp_path: Path) -> None:
    text = (ROOT / "config" / "top-card.toml").read_text().replace(
        'driver = "reference"', f'driver = "reference"\nport = "{tmp_path / "no-such-port"}"'
    )
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match="cannot open the shoe: cannot open .*no-such-port"):
        open_feed(load_config(path), MemoryLog())
