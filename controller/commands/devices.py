"""``tablectl devices``: serial ports and USB devices present, which configured device each one is, and what
each configured device says it is.

Every configured reference device is asked who it is (the protocol's Hello:
model, serial number, firmware), and the answer is held against the config's
``expected_model``, ``expected_serial`` and ``expected_firmware``; a port that
is not listed (a pseudo-terminal or ``socket://`` from ``tablectl simulate``)
is asked all the same, so it is found when it answers. ``--no-ask`` only lists.
Asking opens the port: do not ask a device a running table is using.

Exit codes: 0 every configured device answered as expected (or is simulated),
1 one is missing, silent or not what the config expects, 2 a bad config.
Findings go to standard output (``--json``: one document); errors to standard error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from typing import Any

from controller.commands.options import config_argument
from controller.engine.config import TableConfig, load_config
from controller.engine.config_schema import FEED_KEYS
from controller.errors import TableError
from drivers.discovery import Found, NoUsbBackend, Wanted, serial_ports, usb_devices
from drivers.errors import DeviceError
from drivers.registry import BadOptions, open_shoe, open_shuffler

EXPECTED = ("model", "serial", "firmware")
ASK_TIMING = {"reply_timeout": 5.0, "ack_timeout": 0.5, "retries": 4, "connect_wait": 0.0}
"""How long `devices` waits for an answer unless the config says otherwise: a silent port is told in 2.5 s, a device
that answers slowly on a busy machine (the reply timeout of docs/protocol.md 9.1) is still heard."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("devices", help="list serial ports and USB devices, match them to the config, ask each who it is")
    config_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    parser.add_argument("--no-ask", action="store_true", help="list only: do not open the configured devices to ask who they are")
    parser.set_defaults(func=devices)


def wanted_devices(config: TableConfig) -> list[Wanted]:
    out = []
    for name, options in (("shoe", config.shoe), ("shuffler", config.shuffler)):
        if options:
            out.append(Wanted(
                name, str(options.get("driver", "simulated")), options.get("port"),
                options.get("vendor_id"), options.get("product_id"), options.get("serial"),
            ))
    return out


def found_line(found: Found, wanted: list[Wanted]) -> str:
    names = [w.name for w in wanted if w.matches(found)]
    serial = f"serial {found.serial}" if found.serial else "no serial"
    line = f"  {found.path:<28} {found.ids:<10} {serial:<22} {found.description}"
    line += "".join(f"\n  {'':<28} also {link}" for link in found.links)
    return line + (f"   <- configured {', '.join(names)}" if names else "")


def ask(config: TableConfig, name: str) -> dict[str, Any]:
    """Open the configured device, take its identity, close it: ``{"identity": ..., "problems": [...]}`` or
    ``{"error": ...}``. The config's expected identity is compared here, so a mismatch is reported, not raised."""
    options = config.shoe if name == "shoe" else config.shuffler
    driver = str(options.get("driver", "simulated"))
    keys = {k: v for k, v in options.items() if k not in FEED_KEYS and not k.startswith("expected_")}
    keys = {**ASK_TIMING, **keys}
    if name == "shuffler":
        keys["deck"] = config.make_game().deck()
        if "decks" in options:
            keys["decks"] = options["decks"]
    opener = open_shoe if name == "shoe" else open_shuffler
    try:
        device = opener(driver, **keys)
    except (DeviceError, BadOptions, OSError) as exc:
        return {"error": str(exc)}
    try:
        identity = asdict(device.identity)  # type: ignore[union-attr]  # the reference drivers say who they are
    finally:
        device.close()
    problems = [f"{field} {identity[field]!r}, the config expects {options[f'expected_{field}']!r}"
                for field in EXPECTED if options.get(f"expected_{field}") not in (None, identity[field])]
    return {"identity": identity, "problems": problems}


def configured(config: TableConfig, wanted: Wanted, present: list[Found], asking: bool) -> dict[str, Any]:
    """What is known of one configured device: where it is, and what it answered."""
    options = config.shoe if wanted.name == "shoe" else config.shuffler
    entry: dict[str, Any] = {
        "name": wanted.name, "driver": wanted.driver, "port": wanted.port, "vendor_id": wanted.vendor_id,
        "product_id": wanted.product_id, "serial": wanted.serial,
        "expected": {field: options.get(f"expected_{field}") for field in EXPECTED},
        "listed": [f.path for f in present if wanted.matches(f)], "identity": None, "problems": [],
    }
    if wanted.driver == "simulated":
        return {**entry, "status": "simulated"}
    if wanted.driver == "reference" and not wanted.port:
        return {**entry, "status": "simulator"}
    if wanted.port and not entry["listed"] and "://" not in wanted.port and not os.path.exists(wanted.port):
        return {**entry, "status": "not found"}
    if not asking:
        return {**entry, "status": "listed" if entry["listed"] or wanted.port else "not found"}
    answer = ask(config, wanted.name)
    if "error" in answer:
        return {**entry, "status": "no answer", "problems": [answer["error"]]}
    return {**entry, "status": "mismatch" if answer["problems"] else "answers", **answer}


def _usb_id(value: Any) -> str:
    """A USB vendor or product id as lsusb and the drivers write it, four hex digits (the config may give 0x1d50 or 7504)."""
    return f"{value:04x}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def wanted_line(entry: dict[str, Any]) -> str:
    name, driver = entry["name"], entry["driver"]
    if entry["status"] == "simulated":
        return f"  {name}: in-process simulator (no device)"
    if entry["status"] == "simulator":
        return f"  {name}: reference simulator on a pseudo-terminal (started by tablectl run)"
    where = entry["port"] or f"usb {_usb_id(entry['vendor_id'])}:{_usb_id(entry['product_id'])} serial {entry['serial']}"
    head = f"  {name}: {driver} at {where}: "
    listed = f" (listed as {', '.join(entry['listed'])})" if entry["listed"] and entry["listed"] != [entry["port"]] else ""
    if entry["status"] == "not found":
        return head + "NOT FOUND"
    if entry["status"] == "listed":
        return head + "present" + listed + " (not asked)"
    if entry["status"] == "no answer":
        return head + f"NO ANSWER: {entry['problems'][0]}"
    ident = entry["identity"]
    said = f"{ident['kind']} {ident['model']} serial {ident['serial']} firmware {ident['firmware']}"
    if entry["status"] == "mismatch":
        return head + f"answers {said}, NOT AS CONFIGURED: " + "; ".join(entry["problems"])
    checked = [f for f in EXPECTED if entry["expected"][f] is not None]
    return head + f"answers {said}" + (f" ({', '.join(checked)} as expected)" if checked else "") + listed


def devices(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        wanted = wanted_devices(config)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return 2
    ports = serial_ports()
    usb_error = None
    try:
        usb = usb_devices()
    except NoUsbBackend as exc:
        usb, usb_error = [], str(exc)
        print(f"tablectl: cannot list USB devices: {exc}", file=sys.stderr)
    entries = [configured(config, w, ports + usb, not args.no_ask) for w in wanted]
    bad = any(e["status"] in ("not found", "no answer", "mismatch") for e in entries)
    if args.json:
        def listed(found: list[Found]) -> list[dict[str, Any]]:
            return [{**asdict(f), "links": list(f.links), "configured": [w.name for w in wanted if w.matches(f)]} for f in found]
        print(json.dumps({"config": config.path, "serial_ports": listed(ports),
                          "usb_devices": None if usb_error else listed(usb), "configured": entries}, indent=2))
        return 1 if bad else 0
    print("serial ports:")
    print("\n".join(found_line(p, wanted) for p in ports) or "  none")
    print("usb devices:")
    print("  cannot list (see above)" if usb_error else "\n".join(found_line(d, wanted) for d in usb) or "  none")
    print(f"configured in {config.path}:")
    print("\n".join(wanted_line(e) for e in entries) or "  no shoe or shuffler")
    return 1 if bad else 0
