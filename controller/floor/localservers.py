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
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path


class ServerError(RuntimeError):
    """A local server could not be started or stopped; the message names it and its log."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


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
    """One ``nats-server`` process: its client port, its store and its config file."""

    name: str
    client_port: int
    monitor_port: int
    folder: Path
    config: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.client_port}"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def start(self, timeout: float = 20.0) -> None:
        if self.process is not None and self.process.poll() is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        conf = self.folder / "server.conf"
        conf.write_text(self.config)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                ["nats-server", "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        _wait_listening(self.client_port, timeout, f"nats-server {self.name}", self.log)

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
    """A JetStream cluster of ``size`` nodes on loopback, and any leaf nodes attached to it."""

    folder: Path
    size: int = 3
    name: str = "floor"
    domain: str = "floor"
    nodes: list[NatsNode] = field(default_factory=list)
    leaves: list[NatsNode] = field(default_factory=list)
    leaf_port: int = 0

    def __post_init__(self) -> None:
        if shutil.which("nats-server") is None:
            raise ServerError("nats-server is not installed (Debian: apt-get install nats-server)")
        route_ports = [free_port() for _ in range(self.size)]
        self.leaf_port = free_port()
        routes = ", ".join(f"nats-route://127.0.0.1:{port}" for port in route_ports)
        for index in range(self.size):
            name = f"{self.name}-{index + 1}"
            client, monitor = free_port(), free_port()
            store = self.folder / name
            leaf_listen = f"leafnodes {{ listen: 127.0.0.1:{self.leaf_port} }}\n" if index == 0 else ""
            cluster = (
                f"cluster {{ name: {self.name}, listen: 127.0.0.1:{route_ports[index]}, routes: [{routes}], no_advertise: true }}\n"
                if self.size > 1
                else ""
            )
            config = (
                f"server_name: {name}\nlisten: 127.0.0.1:{client}\nhttp: 127.0.0.1:{monitor}\n"
                f"jetstream {{ store_dir: {store / 'js'}, domain: {self.domain} }}\n"
                f"{cluster}{leaf_listen}"
            )
            self.nodes.append(NatsNode(name, client, monitor, store, config))

    @property
    def urls(self) -> list[str]:
        return [node.url for node in self.nodes]

    def start(self, timeout: float = 60.0) -> None:
        """Start every node that is not running and wait until each reports JetStream healthy."""
        for node in self.nodes:
            node.start()
        self.wait_healthy(timeout)

    def wait_healthy(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(node.healthy() for node in self.nodes if node.running):
                return
            time.sleep(0.1)
        raise ServerError(f"the NATS cluster {self.name} did not become healthy within {timeout:.0f} s (logs in {self.folder})")

    def stop(self) -> None:
        for leaf in self.leaves:
            leaf.stop()
        for node in self.nodes:
            node.stop()

    def restart(self) -> None:
        """Stop every node, then start them all again (the whole cluster restarted)."""
        for node in self.nodes:
            node.stop()
        self.start()

    def add_leaf(self, name: str, domain: str) -> NatsNode:
        """A leaf node with its own JetStream ``domain`` that connects to the cluster's first node."""
        client, monitor = free_port(), free_port()
        store = self.folder / f"leaf-{name}"
        config = (
            f"server_name: leaf-{name}\nlisten: 127.0.0.1:{client}\nhttp: 127.0.0.1:{monitor}\n"
            f"jetstream {{ store_dir: {store / 'js'}, domain: {domain} }}\n"
            f"leafnodes {{ remotes: [ {{ url: nats-leaf://127.0.0.1:{self.leaf_port} }} ] }}\n"
        )
        leaf = NatsNode(f"leaf-{name}", client, monitor, store, config)
        self.leaves.append(leaf)
        leaf.start()
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


@dataclass
class LocalPostgres:
    """A throwaway PostgreSQL cluster on a loopback port, with one database ``floor``."""

    folder: Path
    port: int = 0
    database: str = "floor"
    user: str = "floor"

    def __post_init__(self) -> None:
        self.port = self.port or free_port()
        self._prefix, self._uid, self._gid = _as_postgres()
        if self._uid is not None:
            # As root, ``folder`` may sit under a private temporary folder the postgres user cannot enter:
            # the cluster lives in a folder of its own under the system's temporary folder instead.
            self.folder = Path(tempfile.mkdtemp(prefix="tablectl-pg-"))
            self._own(self.folder)

    def remove(self) -> None:
        """Stop the server and delete the cluster's files."""
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

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

        result = subprocess.run(
            [*self._prefix, *args], capture_output=True, text=True, preexec_fn=demote, cwd=self.folder, check=False
        )
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
        self.init()
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories='{self.folder}' -c fsync=on"
        self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
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
        self.port = free_port()
        self._cut = threading.Event()
        self._server: socket.socket | None = None
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._server = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        self._server.settimeout(0.2)
        self._thread = threading.Thread(target=self._accept, name=f"proxy-{self.port}", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        assert self._server is not None
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
        if self._server is not None:
            self._server.close()
