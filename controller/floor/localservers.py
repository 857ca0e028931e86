"""Throwaway NATS and PostgreSQL servers on loopback, for tests, benchmarks and demos.

The floor runs on servers the casino operates (``docs/floor.md``); these helpers
start the same Debian programs (``nats-server``, PostgreSQL's ``initdb`` and
``pg_ctl``) on free loopback ports under a temporary folder, so a test drives
the real thing and stops it afterwards. Nothing here listens beyond 127.0.0.1.

- :class:`NatsCluster`: ``n`` JetStream nodes in one RAFT cluster, each node
  stoppable and restartable on the same port and store (to kill a broker or
  restart the whole cluster), plus optional leaf nodes with a JetStream domain
  of their own (a table's or a pit's small server that keeps buffering when the
  floor network is down).
- :class:`LocalPostgres`: a cluster made with ``initdb``, run as the
  ``postgres`` user when we are root (PostgreSQL refuses to run as root).

A port picked free may be taken by another program before our server binds
it (pytest-xdist workers start these servers side by side on a busy machine).
So each port is held until the server listens on it (:mod:`controller.floor.localports`),
and a first start whose port was taken anyway (the server's log says
``address already in use``) picks fresh ports and starts again, a few times;
a NATS cluster starts all its nodes again, since every node's routes name
every node's route port. Whatever fails, every process a start launched is
stopped and waited for before :class:`ServerError` is raised. A restart (after
:meth:`NatsNode.stop`, :meth:`NatsCluster.restart`, :meth:`LocalPostgres.restart`)
keeps its ports, which clients already know.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.floor.localports import reserve_port


class ServerError(RuntimeError):
    """A local server could not be started or stopped; the message names it and its log."""


class PortTaken(ServerError):
    """A server could not listen on a port it was given: another program took the port first."""


START_ATTEMPTS = 5
"""How many sets of ports a first start tries before it gives up (each retry follows a port taken)."""

def _port_of(sock: socket.socket) -> int:
    port: int = sock.getsockname()[1]
    return port


def _release(held: list[socket.socket]) -> None:
    while held:
        held.pop().close()


def _log_since(log: Path, offset: int) -> str:
    """What ``log`` gained after ``offset`` bytes (this start's part of a log that restarts append to)."""
    try:
        with log.open("rb") as file:
            file.seek(offset)
            return file.read().decode(errors="replace")
    except OSError:
        return ""


def _log_size(log: Path) -> int:
    return log.stat().st_size if log.exists() else 0


def _bind_failure(text: str) -> str | None:
    """The log line that says a port was taken, if any."""
    for line in text.splitlines():
        if "address already in use" in line.lower():
            return line.strip()
    return None


def _wait_listening(port: int, timeout: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
    raise ServerError(f"{what} did not listen on 127.0.0.1:{port} within {timeout:.0f} s; its log {log} ends:\n{tail}")


def _start_retrying(attempt: Callable[[], None], *, undo: Callable[[], None], replan: Callable[[], None] | None,
                    gave_up: str) -> None:
    """Start a server (or a cluster) with ``attempt``; whatever fails, ``undo`` (stop what it launched) before raising.

    Where another program took one of its ports first (:class:`PortTaken`) and ``replan`` is given (a first
    start: no client knows the ports yet), ``replan`` picks fresh ports and the start is tried again, at most
    :data:`START_ATTEMPTS` times in all; then :class:`ServerError` says ``gave_up`` and the last refusal. Without
    ``replan`` (a restart keeps its ports) the :class:`PortTaken` is raised as it is.
    """
    for tries in range(1, START_ATTEMPTS + 1):
        try:
            attempt()
        except PortTaken as exc:
            undo()
            if replan is None:
                raise
            if tries == START_ATTEMPTS:
                raise ServerError(f"{gave_up}, {START_ATTEMPTS} times running; the last: {exc}") from exc
            replan()
        except BaseException:
            undo()
            raise
        else:
            return


def _stop(process: subprocess.Popen[bytes] | None, how: int = signal.SIGTERM, timeout: float = 10.0) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(how)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout)


@dataclass
class NatsNode:
    """One ``nats-server`` process: its ports, its store and its config file.

    ``ports`` names every port the node listens on (client, monitor, and route and
    leafnode where it has them); ``held`` are their reservations, closed once the
    node listens on them.
    """

    name: str
    client_port: int
    monitor_port: int
    folder: Path
    config: str
    process: subprocess.Popen[bytes] | None = None
    ports: dict[str, int] = field(default_factory=dict)
    held: list[socket.socket] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self.ports = {"client": self.client_port, "monitor": self.monitor_port, **self.ports}

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.client_port}"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def start(self, timeout: float = 20.0) -> None:
        """Start the node and wait until it listens on every port of ``ports``.

        Raises :class:`PortTaken` when another program holds one of them, and
        :class:`ServerError` when the node exits or does not listen in time; either
        way the process is stopped and waited for first.
        """
        if self.running:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            conf = self.folder / "server.conf"
            conf.write_text(self.config)
            offset = _log_size(self.log)
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    ["nats-server", "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            self._wait_listening(offset, timeout)
        except BaseException:
            self.kill()
            raise
        finally:
            _release(self.held)

    def _wait_listening(self, offset: int, timeout: float) -> None:
        """Wait for the log lines that say the node listens on each of its ports (``Server is ready`` comes before the route port)."""
        assert self.process is not None
        wanted = {what: re.compile(rf"(Listening for \w+ connections|Starting http monitor) on 127\.0\.0\.1:{port}\b")
                  for what, port in self.ports.items()}
        deadline = time.monotonic() + timeout
        while True:
            text = _log_since(self.log, offset)
            taken = _bind_failure(text)
            if taken is not None:
                raise PortTaken(f"nats-server {self.name} could not listen on a port it was given, "
                                f"{self._ports_text()}: {taken} (log {self.log})")
            if self.process.poll() is not None:
                raise ServerError(f"nats-server {self.name} exited ({self.process.returncode}) while starting; "
                                  f"its log {self.log} ends:\n{text[-2000:]}")
            missing = [what for what, line in wanted.items() if not line.search(text)]
            if not missing:
                return
            if time.monotonic() > deadline:
                raise ServerError(f"nats-server {self.name} did not listen on its {', '.join(missing)} port within "
                                  f"{timeout:.0f} s ({self._ports_text()}); its log {self.log} ends:\n{text[-2000:]}")
            time.sleep(0.05)

    def _ports_text(self) -> str:
        return ", ".join(f"{what} 127.0.0.1:{port}" for what, port in self.ports.items())

    def healthy(self) -> bool:
        """Whether the node says it is healthy, JetStream included (its ``/healthz`` monitoring endpoint)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.monitor_port}/healthz", timeout=2) as answer:
                return bool(answer.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def stop(self) -> None:
        """Stop the node gracefully (its store is kept: it can start again)."""
        _stop(self.process)

    def kill(self) -> None:
        """Kill the node as a power cut would (SIGKILL); its store is kept."""
        _stop(self.process, signal.SIGKILL)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


@dataclass
class NatsCluster:
    """A JetStream cluster of ``size`` nodes on loopback, and any leaf nodes attached to it.

    Its ports are reserved when it is made and fixed by its first successful
    :meth:`start`; until then a port taken by another program makes the start
    try again on fresh ones (see the module's docstring).
    """

    folder: Path
    size: int = 3
    name: str = "floor"
    domain: str = "floor"
    nodes: list[NatsNode] = field(default_factory=list)
    leaves: list[NatsNode] = field(default_factory=list)
    leaf_port: int = 0
    started: bool = field(default=False, init=False)
    route_name: str = field(default="", init=False)

    def __post_init__(self) -> None:
        if shutil.which("nats-server") is None:
            raise ServerError("nats-server is not installed (Debian: apt-get install nats-server)")
        # The name routes must match: one of its own, so that no other cluster's node (another test's, whose
        # nodes are named alike) ever joins this one through a port it reaches.
        self.route_name = f"{self.name}-{secrets.token_hex(4)}"
        self._plan()

    def _plan(self) -> None:
        """Reserve a fresh set of ports and write each node's config with them (before the first start only)."""
        for node in self.nodes:
            _release(node.held)
            shutil.rmtree(node.folder / "js", ignore_errors=True)  # a store from a start that failed: nothing in it yet
        self.nodes = []
        route_held = [reserve_port() for _ in range(self.size)]
        route_ports = [_port_of(sock) for sock in route_held]
        leaf_held = reserve_port()
        self.leaf_port = _port_of(leaf_held)
        routes = ", ".join(f"nats-route://127.0.0.1:{port}" for port in route_ports)
        for index in range(self.size):
            name = f"{self.name}-{index + 1}"
            held = [reserve_port(), reserve_port()]
            client, monitor = (_port_of(sock) for sock in held)
            store = self.folder / name
            ports: dict[str, int] = {}
            leaf_listen = cluster = ""
            if index == 0:
                leaf_listen = f"leafnodes {{ listen: 127.0.0.1:{self.leaf_port} }}\n"
                ports["leafnode"] = self.leaf_port
                held.append(leaf_held)
            if self.size > 1:
                cluster = (f"cluster {{ name: {self.route_name}, listen: 127.0.0.1:{route_ports[index]}, routes: [{routes}], "
                           "no_advertise: true }\n")
                ports["route"] = route_ports[index]
                held.append(route_held[index])
            else:
                route_held[index].close()
            config = (
                f"server_name: {name}\nlisten: 127.0.0.1:{client}\nhttp: 127.0.0.1:{monitor}\n"
                f"jetstream {{ store_dir: {store / 'js'}, domain: {self.domain} }}\n"
                f"{cluster}{leaf_listen}"
            )
            self.nodes.append(NatsNode(name, client, monitor, store, config, ports=ports, held=held))

    @property
    def urls(self) -> list[str]:
        return [node.url for node in self.nodes]

    def start(self, timeout: float = 60.0) -> None:
        """Start every node that is not running and wait until each reports JetStream healthy.

        If it fails, every node and leaf is stopped and waited for before the
        error is raised; a first start tries fresh ports where one was taken.
        """
        def attempt() -> None:
            for node in self.nodes:
                node.start()
            self._wait_all_healthy(timeout)

        _start_retrying(attempt, undo=self.stop, replan=None if self.started else self._plan,
                        gave_up=f"the NATS cluster {self.name} could not start: another program took one of its ports "
                                "before it listened")
        self.started = True

    def _wait_all_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not all(node.healthy() for node in self.nodes):
            for node in self.nodes:
                if not node.running:
                    tail = node.log.read_text(errors="replace")[-2000:] if node.log.exists() else "(no log)"
                    raise ServerError(f"nats-server {node.name} of the cluster {self.name} exited while the cluster was "
                                      f"starting; its log {node.log} ends:\n{tail}")
            if time.monotonic() > deadline:
                raise ServerError(f"the NATS cluster {self.name} did not become healthy within {timeout:.0f} s (logs in {self.folder})")
            time.sleep(0.1)

    def wait_healthy(self, timeout: float = 60.0) -> None:
        """Wait until every running node reports JetStream healthy."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(node.healthy() for node in self.nodes if node.running):
                return
            time.sleep(0.1)
        raise ServerError(f"the NATS cluster {self.name} did not become healthy within {timeout:.0f} s (logs in {self.folder})")

    def stop(self) -> None:
        """Stop every leaf and node and wait for each (stores kept: :meth:`start` brings them back)."""
        for node in self.leaves + self.nodes:
            node.stop()
            _release(node.held)

    def restart(self) -> None:
        """Stop every node, then start them all again (the whole cluster restarted)."""
        for node in self.nodes:
            node.stop()
        self.start()

    def add_leaf(self, name: str, domain: str) -> NatsNode:
        """A leaf node with its own JetStream ``domain`` that connects to the cluster's first node, started."""
        attempt = 0
        while True:
            attempt += 1
            held = [reserve_port(), reserve_port()]
            client, monitor = (_port_of(sock) for sock in held)
            store = self.folder / f"leaf-{name}"
            config = (
                f"server_name: leaf-{name}\nlisten: 127.0.0.1:{client}\nhttp: 127.0.0.1:{monitor}\n"
                f"jetstream {{ store_dir: {store / 'js'}, domain: {domain} }}\n"
                f"leafnodes {{ remotes: [ {{ url: nats-leaf://127.0.0.1:{self.leaf_port} }} ] }}\n"
            )
            leaf = NatsNode(f"leaf-{name}", client, monitor, store, config, held=held)
            try:
                leaf.start()
            except PortTaken as exc:
                shutil.rmtree(store / "js", ignore_errors=True)
                if attempt == START_ATTEMPTS:
                    raise ServerError(f"the leaf node {leaf.name} could not start: another program took one of its ports "
                                      f"before it listened, {START_ATTEMPTS} times running; the last: {exc}") from exc
                continue
            self.leaves.append(leaf)
            return leaf


def _as_postgres() -> tuple[list[str], int | None, int | None]:
    """The command prefix, uid and gid to run PostgreSQL's programs with (``postgres`` when we are root)."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError as exc:
        raise ServerError("running as root and there is no 'postgres' user to run PostgreSQL as") from exc
    return [], user.pw_uid, user.pw_gid


def _pg_bin(program: str) -> str:
    found = shutil.which(program)
    if found:
        return found
    for version in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (version / program).exists():
            return str(version / program)
    raise ServerError(f"PostgreSQL's {program} is not installed (Debian: apt-get install postgresql)")


RUN_TIMEOUT_S = 120.0
"""How long initdb, pg_ctl (which waits at most 60 s itself) or createdb may take before it is stopped."""


@dataclass
class LocalPostgres:
    """A throwaway PostgreSQL cluster on a loopback port, with one database ``floor``.

    Without a ``port`` it reserves one, which its first successful :meth:`start`
    fixes; until then a port taken by another program makes the start try a
    fresh one (see the module's docstring).
    """

    folder: Path
    port: int = 0
    database: str = "floor"
    user: str = "floor"

    def __post_init__(self) -> None:
        self._chose_port = not self.port
        self._started = False
        self._held: socket.socket | None = None
        if self._chose_port:
            self._held = reserve_port()
            self.port = _port_of(self._held)
        self._prefix, self._uid, self._gid = _as_postgres()
        if self._uid is not None:
            # As root, ``folder`` may sit under a private temporary folder the postgres user cannot enter:
            # the cluster lives in a folder of its own under the system's temporary folder instead.
            self.folder = Path(tempfile.mkdtemp(prefix="tablectl-pg-"))
            self._own(self.folder)

    def remove(self) -> None:
        """Stop the server and delete the cluster's files."""
        self.stop("immediate")
        self._release()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _release(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def log(self) -> Path:
        return self.folder / "postgres.log"

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} dbname={self.database} user={self.user}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        def demote() -> None:
            if self._gid is not None and self._uid is not None:
                os.setgid(self._gid)
                os.setuid(self._uid)

        try:  # bounded: a tool that hangs (a server that never answers createdb) must not hang its caller
            result = subprocess.run([*self._prefix, *args], capture_output=True, text=True, preexec_fn=demote, cwd=self.folder,
                                    check=False, timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise ServerError(f"{' '.join(args[:2])} did not finish within {RUN_TIMEOUT_S:.0f} s (stopped)") from None
        if check and result.returncode != 0:
            raise ServerError(f"{' '.join(args[:2])} failed ({result.returncode}): {result.stderr.strip()[-1500:]}")
        return result

    def _own(self, path: Path) -> None:
        if self._uid is not None and self._gid is not None:
            os.chown(path, self._uid, self._gid)

    def init(self) -> None:
        """Create the cluster (once) with a trust login for ``user`` on loopback only."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if (self.data / "PG_VERSION").exists():
            return
        self._run(_pg_bin("initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust", "--no-sync", "-E", "UTF8")

    def start(self, timeout: float = 30.0) -> None:
        """Start the server (making the cluster first if need be) with its database ``database``.

        If it fails, the server is stopped before the error is raised; a first
        start whose port another program took tries again on a fresh one.
        """
        self.init()

        def undo() -> None:
            self.stop("immediate")
            self._release()  # held only until a try's pg_ctl: a port it never used

        def replan() -> None:
            self._held = reserve_port()
            self.port = _port_of(self._held)

        _start_retrying(lambda: self._start_once(timeout), undo=undo,
                        replan=None if self._started or not self._chose_port else replan,
                        gave_up="PostgreSQL could not start: another program took its port before it listened")
        self._started = True

    def _start_once(self, timeout: float) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories='{self.folder}' -c fsync=on"
        offset = _log_size(self.log)
        try:
            started = self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start", check=False)
        finally:
            self._release()
        if started.returncode != 0:
            text = _log_since(self.log, offset)
            taken = _bind_failure(text)
            if taken is not None:
                raise PortTaken(f"PostgreSQL could not listen on 127.0.0.1:{self.port}: {taken} (log {self.log})")
            raise ServerError(f"PostgreSQL did not start on 127.0.0.1:{self.port} (pg_ctl {started.returncode}: "
                              f"{started.stderr.strip()[-500:]}); its log {self.log} ends:\n{text[-2000:]}")
        _wait_listening(self.port, timeout, "PostgreSQL", self.log)
        created = self._run(
            _pg_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", "postgres",
            "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{self.database}'",
        )
        if created.stdout.strip() != "1":
            self._run(_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, self.database)

    def new_database(self, name: str) -> str:
        """Create database ``name`` (a fresh one for a test) and give its DSN."""
        self._run(_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, name)
        return f"host=127.0.0.1 port={self.port} dbname={name} user={self.user}"

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: roll back open transactions; ``immediate``: as a crash would)."""
        if (self.data / "postmaster.pid").exists():
            self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()


class TcpProxy:
    """A TCP relay on a loopback port to ``target``, that can cut every connection and refuse new ones (a network cut)."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self._server = reserve_port()  # bound now, listening from start(): its port is never free for another to take
        self.port = _port_of(self._server)
        self._cut = threading.Event()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._server.listen()
        self._server.settimeout(0.2)
        self._thread = threading.Thread(target=self._accept, name=f"proxy-{self.port}", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while self._server.fileno() != -1:
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self._cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)  # the 2 s were for connecting: a quiet connection is not a cut one
            with self._lock:
                self._pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Drop every connection through the proxy and refuse new ones until :meth:`restore`."""
        self._cut.set()
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def restore(self) -> None:
        self._cut.clear()

    def stop(self) -> None:
        self.cut()
        self._server.close()
