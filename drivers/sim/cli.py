"""The simulator's command line, shared by ``python -m drivers.sim`` and ``tablectl simulate``.

Runs a simulated device until killed: ``python -m drivers.sim shoe|shuffler [options]``.

The first line printed is ``PORT <url>``; then every control command read from
standard input (see ``drivers.sim.device``) is answered with one line,
``ok [text]`` or ``error: <what was wrong>``. ``--script FILE`` runs control
commands from a file first, one per line (``#`` starts a comment).
``--reading NAME`` picks how the device reads docs/protocol.md where it leaves a
choice (``drivers/sim/readings.toml``); ``--set OPTION=VALUE`` changes one option.

When standard input ends, the simulator says so on standard error and serves on
without control (``--stop-on-eof`` stops it instead). ``--control FIFO`` reads
control commands from a named pipe (``mkfifo``) as well, held open for reading
and writing, so ``echo "fault jam" > FIFO`` works for as long as the device runs
and a writer closing it is no end of input; its answers go to standard output.
"""

from __future__ import annotations

import argparse
import os
import signal
import stat
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from drivers.sim.behaviour import Behaviour, reading, readings
from drivers.sim.device import SimDevice, SimIdentity
from drivers.sim.endpoints import PtyEndpoint, SocketEndpoint
from drivers.sim.shoe import ShoeSim
from drivers.sim.shuffler import ShufflerSim


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("device", choices=("shoe", "shuffler"), help="which device to simulate")
    parser.add_argument("--decks", type=int, help="shoe: decks in the shoe (8); shuffler: decks alternated (1 or 2; "
                        "default: the reading's)")
    parser.add_argument("--reading", default="reference",
                        help="how the device reads the protocol where it allows a choice: a reading of "
                             f"drivers/sim/readings.toml (shoe: {', '.join(sorted(readings('shoe')))}; "
                             f"shuffler: {', '.join(sorted(readings('shuffler')))})")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", type=Behaviour.parse_setting,
                        help="change one option of the reading (drivers.sim.behaviour.Behaviour), e.g. reply_delay=0.3")
    parser.add_argument("--deck", default="standard", help="deck kind: standard, standard+joker, no-face, pure-21.5")
    parser.add_argument("--jokers", type=int, default=0, help="shoe: jokers added per deck (0 or 1)")
    parser.add_argument("--seed", type=int, help="seed of the shuffles and line faults (random when omitted)")
    parser.add_argument("--script", type=Path, help="file of control commands to run at start")
    parser.add_argument("--socket", type=port_number, metavar="PORT", help="listen on socket://127.0.0.1:PORT (0: any) instead of a pty")
    parser.add_argument("--link", type=Path, help="path of the pty symlink (default: a new temporary directory)")
    parser.add_argument("--cut", type=int, help="shoe: cards behind the cut card (default: an eighth of the shoe)")
    parser.add_argument("--serial", default="SIM-0001", help="serial number the device reports")
    parser.add_argument("--firmware", default="1.0.0", help="firmware version the device reports")
    parser.add_argument("--ack-timeout", type=float, default=0.05, help="seconds to wait for an ACK before resending")
    parser.add_argument("--stop-on-eof", action="store_true", help="stop when standard input closes (for test harnesses)")
    parser.add_argument("--control", type=Path, metavar="FIFO",
                        help="also read control commands from this named pipe (mkfifo), written by any number of writers in turn")


def port_number(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535, for argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {value}")
    return value


def build(args: argparse.Namespace) -> SimDevice:
    behaviour = reading(args.device, args.reading).with_settings(dict(args.set))
    endpoint = SocketEndpoint(args.socket) if args.socket is not None else PtyEndpoint(args.link)
    common = {"seed": args.seed, "ack_timeout": args.ack_timeout, "behaviour": behaviour}
    if args.device == "shoe":
        ident = SimIdentity("TCS-SHOE-1", args.serial, args.firmware)
        return ShoeSim(
            endpoint, decks=args.decks or 8, kind=args.deck, jokers_per_deck=args.jokers,
            cut_from_end=args.cut, identity=ident, **common,
        )
    ident = SimIdentity("TCS-SHUF-1", args.serial, args.firmware)
    return ShufflerSim(endpoint, deck=args.deck, decks=args.decks, identity=ident, **common)


def answer(device: SimDevice, line: str, out: TextIO) -> None:
    try:
        text = device.control(line)
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}", file=out, flush=True)
    else:
        print(f"ok {text}".rstrip(), file=out, flush=True)


def serve(args: argparse.Namespace, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    try:
        script = args.script.read_text(encoding="utf-8").splitlines() if args.script is not None else []
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or ("not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc)
        print(f"simulate: cannot read the script {args.script}: {why}", file=sys.stderr, flush=True)
        return 2
    try:
        device = build(args).start()
    except ValueError as exc:
        print(f"error: {exc}", file=stdout, flush=True)
        return 2
    print(f"PORT {device.url}", file=stdout, flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    for line in script:
        if line.strip() and not line.lstrip().startswith("#"):
            answer(device, line, sys.stderr)

    def read_controls() -> None:
        for line in stdin:
            if line.strip():
                answer(device, line, stdout)
        if args.stop_on_eof:
            done.set()
        else:
            fifo = f"; control commands are still read from {args.control}" if args.control else ""
            print(f"simulate: standard input ended: no more control commands are read from it{fifo}; the {args.device} "
                  f"serves on until stopped (--stop-on-eof stops it at the end of input)", file=sys.stderr, flush=True)

    def read_fifo(path: Path) -> None:
        try:
            if not stat.S_ISFIFO(os.stat(path).st_mode):
                raise OSError(0, "it is not a named pipe (make one with mkfifo)")
            # Read and write: the simulator holds a write end itself, so the pipe never reads as ended between two
            # writers. Opened for reading only and again after each end, a command written while the last writer's
            # end was being read went nowhere: the kernel drops a pipe's data when its last reader closes (fifo(7)).
            pipe = open(os.open(path, os.O_RDWR), encoding="utf-8")  # noqa: SIM115 - read for the device's lifetime
        except OSError as exc:
            print(f"simulate: cannot read control commands from {path}: {exc.strerror or exc}; "
                  "no more are read from it", file=sys.stderr, flush=True)
            return
        with pipe:
            for line in pipe:
                if line.strip():
                    answer(device, line, stdout)

    threading.Thread(target=read_controls, name="sim-control", daemon=True).start()
    if args.control is not None:
        threading.Thread(target=read_fifo, args=(args.control,), name="sim-control-fifo", daemon=True).start()
    try:
        done.wait()
    except KeyboardInterrupt:
        pass
    device.stop()
    device.endpoint.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drivers.sim", description=__doc__)
    add_arguments(parser)
    return serve(parser.parse_args(argv))

