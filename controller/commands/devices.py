"""``tablectl devices``: serial ports and USB devices present, and which configured device each one is."""

from __future__ import annotations

import argparse
from typing import Any

from controller.commands.options import config_argument
from controller.engine.config import TableConfig, load_config
from controller.errors import TableError
from drivers.discovery import Found, NoUsbBackend, Wanted, serial_ports, usb_devices


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("devices", help="list serial ports and USB devices and match them to the config")
    config_argument(parser)
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


def wanted_line(w: Wanted, present: list[Found]) -> str:
    if w.driver == "simulated":
        return f"  {w.name}: in-process simulator (no device)"
    if w.driver == "reference" and not w.port:
        return f"  {w.name}: reference simulator on a pseudo-terminal (started by tablectl run)"
    hits = [f.path for f in present if w.matches(f)]
    where = w.port or f"usb {w.vendor_id}:{w.product_id} serial {w.serial}"
    return f"  {w.name}: {w.driver} at {where}: " + (f"found ({', '.join(hits)})" if hits else "NOT FOUND")


def devices(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
        wanted = wanted_devices(config)
    except TableError as exc:
        print(f"tablectl: {exc}")
        return 2
    ports = serial_ports()
    print("serial ports:")
    print("\n".join(found_line(p, wanted) for p in ports) or "  none")
    print("usb devices:")
    try:
        usb = usb_devices()
    except NoUsbBackend as exc:
        usb = []
        print(f"  cannot list: {exc}")
    else:
        print("\n".join(found_line(d, wanted) for d in usb) or "  none")
    print(f"configured in {config.path}:")
    print("\n".join(wanted_line(w, ports + usb) for w in wanted) or "  no shoe or shuffler")
    return 0
