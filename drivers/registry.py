"""Driver names, as written in a table's config, mapped to the classes that implement them.

Like python-can's interface table: a plain dict of ``name -> (module, class)``,
imported only when asked for, so a vendor adapter is one new module and one
new line here, and the in-process simulators are just other entries.

>>> sorted(SHOES)
['reference', 'reference-usb', 'simulated']
>>> shoe = open_shoe("simulated", decks=2, seed=3)
>>> type(shoe).__name__
'InProcessShoe'
>>> open_shoe("acme")
Traceback (most recent call last):
...
drivers.registry.UnknownDriver: unknown shoe driver 'acme': expected one of reference, reference-usb, simulated
>>> open_shoe("reference", baud=9600)
Traceback (most recent call last):
...
drivers.registry.BadOptions: shoe driver 'reference': missing a required argument: 'port'
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from drivers.shoe import Shoe
from drivers.shuffler import Shuffler

SHOES: dict[str, tuple[str, str]] = {
    "simulated": ("drivers.shoe", "InProcessShoe"),
    "reference": ("drivers.reference.shoe", "ReferenceShoe.over_serial"),
    "reference-usb": ("drivers.reference.shoe", "ReferenceShoe.over_usb"),
}

SHUFFLERS: dict[str, tuple[str, str]] = {
    "simulated": ("drivers.shuffler", "InProcessShuffler.from_options"),
    "reference": ("drivers.reference.shuffler", "ReferenceShuffler.over_serial"),
    "reference-usb": ("drivers.reference.shuffler", "ReferenceShuffler.over_usb"),
}


class UnknownDriver(LookupError):
    """A driver name the registry does not know."""


class BadOptions(TypeError):
    """Options a driver does not take, or a required one missing (named in the message)."""


def _load(table: dict[str, tuple[str, str]], kind: str, name: str) -> Any:
    try:
        module_name, attr_path = table[name]
    except KeyError:
        raise UnknownDriver(f"unknown {kind} driver {name!r}: expected one of {', '.join(sorted(table))}") from None
    target: Any = importlib.import_module(module_name)
    for attr in attr_path.split("."):
        target = getattr(target, attr)
    return target


def _open(table: dict[str, tuple[str, str]], kind: str, name: str, options: dict[str, Any]) -> Any:
    factory = _load(table, kind, name)
    try:
        inspect.signature(factory).bind(**options)
    except TypeError as exc:
        raise BadOptions(f"{kind} driver {name!r}: {exc}") from None
    return factory(**options)


def open_shoe(name: str, **options: Any) -> Shoe:
    """The shoe named ``name`` in config, opened with ``options`` (``port=``, ``expected_serial=``, ...)."""
    shoe: Shoe = _open(SHOES, "shoe", name, options)
    return shoe


def open_shuffler(name: str, **options: Any) -> Shuffler:
    """The shuffler named ``name`` in config, opened with ``options`` (``port=``, ``deck=``, ``decks=``, ...)."""
    shuffler: Shuffler = _open(SHUFFLERS, "shuffler", name, options)
    return shuffler
