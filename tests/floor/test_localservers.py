"""The floor's throwaway servers start though another program takes a port they picked, and leak no process when they cannot.

Real ``nats-server`` and PostgreSQL throughout; "another program" is a socket
listening on the port, set up as servers set theirs (``SO_REUSEADDR``), which is
what took a route port from a cluster under pytest-xdist on a loaded CI machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nats
import psycopg
import pytest

from controller.floor import localports
from controller.floor.localports import _ephemeral_low, reserve_port
from controller.floor.localservers import (
    START_ATTEMPTS,
    LocalPostgres,
    NatsCluster,
    NatsNode,
    ServerError,
    TcpProxy,
    _pg_bin,
)


@contextlib.contextmanager
def taken(port: int) -> Iterator[socket.socket]:
    """Another program listening on 127.0.0.1:``port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen()
        yield sock


def _need_nats() -> None:
    if shutil.which("nats-server") is None:
        pytest.skip("nats-server is not installed (Debian: apt-get install nats-server)")


def _need_postgres() -> None:
    try:
        _pg_bin("initdb")
    except ServerError as exc:
        pytest.skip(str(exc))


def _reaped(processes: list[subprocess.Popen[bytes]]) -> bool:
    """Every process has exited and been waited for (a Popen left unwaited is the ResourceWarning that failed the next test)."""
    return all(process.returncode is not None for process in processes)


def _launched(nodes: list[NatsNode]) -> list[subprocess.Popen[bytes]]:
    return [node.process for node in nodes if node.process is not None]


async def _replicated_round_trip(cluster: NatsCluster) -> int:
    """Publish to a stream kept on all three nodes and read the message back: the cluster formed on its new routes."""
    client = await nats.connect(servers=cluster.urls)
    try:
        js = client.jetstream(domain=cluster.domain)
        await js.add_stream(name="PORTS", subjects=["ports.>"], num_replicas=3)
        ack = await js.publish("ports.test", b"dealt", stream="PORTS")
        message = await js.get_msg("PORTS", ack.seq)
        assert message.data == b"dealt"
        return ack.seq
    finally:
        await client.close()


def test_a_reserved_port_is_refused_to_other_binds_and_lent_to_a_server_that_reuses_addresses() -> None:
    with reserve_port() as held:
        port = held.getsockname()[1]
        if _ephemeral_low() >= 11000:  # room below it (Linux's default range starts at 32768)
            assert port < _ephemeral_low()  # outside the range bind(0) and outgoing connections draw from
        with socket.socket() as other, pytest.raises(OSError):
            other.bind(("127.0.0.1", port))  # another worker's reserve_port, or any plain bind
        with taken(port) as server:  # our server, which sets SO_REUSEADDR, listens while the port is still held
            with socket.create_connection(("127.0.0.1", port), timeout=5):
                pass
            server.accept()[0].close()


def test_another_walker_never_takes_a_port_of_a_block_this_one_claimed() -> None:
    with reserve_port() as held:
        port = held.getsockname()[1]
    if not localports._WALK._claims:
        pytest.skip("no room below the ephemeral range, or no claim folder: ports are not walked in blocks here")
    mine = {p for block in localports._WALK._mine
            for p in range(localports._LOWEST_PORT + block * localports._BLOCK, localports._LOWEST_PORT + (block + 1) * localports._BLOCK)}
    assert port in mine
    other = localports._PortWalk()  # as another process's: its own claims (flock is per open file), the same pid
    try:
        theirs = {other.take() for _ in range(3 * localports._BLOCK)}  # it tries this process's first block first
    finally:
        for claim in other._claims:
            claim.close()
    assert len(theirs) == 3 * localports._BLOCK
    assert not theirs & mine


def test_a_node_of_another_cluster_on_a_stopped_nodes_port_is_refused_by_its_routes(tmp_path: Path) -> None:
    """Two tests' clusters name their nodes alike: a cluster's routes keep dialling a stopped node's route port, and
    a node of another cluster listening there must not join it (what merged two workers' clusters: "peer offline")."""
    _need_nats()
    cluster = NatsCluster(tmp_path / "nats", size=3)
    stranger: NatsNode | None = None
    try:
        cluster.start()
        cluster.nodes[2].stop()
        port = cluster.nodes[2].ports["route"]
        held = [reserve_port(), reserve_port()]
        client, monitor = (sock.getsockname()[1] for sock in held)
        config = (f"server_name: floor-3\nlisten: 127.0.0.1:{client}\nhttp: 127.0.0.1:{monitor}\n"
                  f"jetstream {{ store_dir: {tmp_path / 'stranger' / 'js'}, domain: floor }}\n"
                  f"cluster {{ name: floor, listen: 127.0.0.1:{port}, routes: [nats-route://127.0.0.1:{port}], no_advertise: true }}\n")
        stranger = NatsNode("floor-3", client, monitor, tmp_path / "stranger", config, ports={"route": port}, held=held)
        stranger.start()
        deadline = time.monotonic() + 30
        while "Cluster Name Conflict" not in stranger.log.read_text():
            assert time.monotonic() < deadline, "the cluster's routes never reached the stranger"
            time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{cluster.nodes[0].monitor_port}/routez", timeout=5) as answer:
            assert json.load(answer)["num_routes"] == 1  # floor-2 only
    finally:
        if stranger is not None:
            stranger.stop()
        cluster.stop()


@pytest.mark.parametrize(("node", "port"), [("floor-3", "route"), ("floor-1", "leafnode"), ("floor-2", "client")])
def test_a_cluster_whose_port_another_program_took_starts_on_fresh_ports_and_leaves_no_process(
    tmp_path: Path, node: str, port: str
) -> None:
    _need_nats()
    cluster = NatsCluster(tmp_path / "nats", size=3)
    first = list(cluster.nodes)
    victim = next(n for n in first if n.name == node)
    lost = victim.ports[port]
    try:
        with taken(lost):
            cluster.start()
        assert "address already in use" in victim.log.read_text()
        assert lost not in {p for n in cluster.nodes for p in n.ports.values()}
        assert lost != cluster.leaf_port
        tried = _launched(first)
        assert victim.process in tried  # the first try got as far as the node whose port was taken ...
        assert _reaped(tried)  # ... and every process it had started was stopped and waited for
        assert all(n.running and n.healthy() for n in cluster.nodes)
        assert asyncio.run(_replicated_round_trip(cluster)) == 1
    finally:
        cluster.stop()
    assert _reaped(_launched(cluster.nodes))


def test_a_cluster_whose_ports_are_taken_every_time_raises_a_clear_error_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _need_nats()
    planned: list[NatsNode] = []
    takers: list[contextlib.AbstractContextManager[socket.socket]] = []
    plan = NatsCluster._plan

    def plan_then_take_the_last_route_port(self: NatsCluster) -> None:
        plan(self)
        planned.extend(self.nodes)
        takers.append(taken(self.nodes[-1].ports["route"]))
        takers[-1].__enter__()

    monkeypatch.setattr(NatsCluster, "_plan", plan_then_take_the_last_route_port)
    cluster = NatsCluster(tmp_path / "nats", size=3)
    try:
        with pytest.raises(ServerError) as raised:
            cluster.start()
        launched = _launched(planned)
        assert _reaped(launched)  # by the start itself, before any teardown
    finally:
        for taker in takers:
            taker.__exit__(None, None, None)
        cluster.stop()
    message = str(raised.value)
    assert f"the NATS cluster floor could not start: another program took one of its ports before it listened, {START_ATTEMPTS} times" in message
    assert "nats-server floor-3 could not listen on a port it was given" in message
    assert "address already in use" in message
    assert len(takers) == START_ATTEMPTS
    assert len(launched) == 3 * START_ATTEMPTS  # floor-1 and floor-2 started each time, floor-3 tried each time


def test_a_node_that_fails_for_another_reason_is_not_retried_and_its_cluster_leaves_no_process(tmp_path: Path) -> None:
    _need_nats()
    cluster = NatsCluster(tmp_path / "nats", size=3)
    broken = cluster.nodes[1]
    broken.folder.mkdir(parents=True)
    (broken.folder / "js").write_text("a file where the store's folder belongs")
    try:
        with pytest.raises(ServerError, match=r"nats-server floor-2 exited \(1\) while starting; its log \S+ ends:"):
            cluster.start()
        assert _reaped(_launched(cluster.nodes))  # floor-1, which had started, by the start itself
    finally:
        cluster.stop()
    assert cluster.nodes[1] is broken  # raised at once: no fresh ports tried
    assert [n.process is not None for n in cluster.nodes] == [True, True, False]


def test_postgres_whose_port_another_program_took_starts_on_a_fresh_port(tmp_path: Path) -> None:
    _need_postgres()
    server = LocalPostgres(tmp_path / "pg")
    lost = server.port
    try:
        with taken(lost):
            server.start()
        assert server.port != lost
        assert "Address already in use" in server.log.read_text()
        with psycopg.connect(server.dsn) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("floor",)
    finally:
        server.remove()
    assert not (server.data / "postmaster.pid").exists()


def test_postgres_on_a_port_it_was_given_and_cannot_have_raises_a_clear_error_and_leaves_no_server(tmp_path: Path) -> None:
    _need_postgres()
    with reserve_port() as held:
        port = held.getsockname()[1]
    server = LocalPostgres(tmp_path / "pg", port=port)
    try:
        with taken(port), pytest.raises(ServerError, match=rf"PostgreSQL could not listen on 127\.0\.0\.1:{port}: .*Address already in use"):
            server.start()
        assert not (server.data / "postmaster.pid").exists()
    finally:
        server.remove()


def test_a_connection_through_the_proxy_stays_up_however_long_it_is_idle_until_it_is_cut() -> None:
    """The proxy (the proof's network cut) drops connections when cut, never because they were quiet for a while."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(10)
        proxy = TcpProxy(server.getsockname()[1])
        proxy.start()
        try:
            with socket.create_connection(("127.0.0.1", proxy.port), timeout=10) as client:
                far, _ = server.accept()
                with far:
                    far.settimeout(10)
                    time.sleep(3)  # quiet longer than the proxy's 2 s to connect upstream
                    far.sendall(b"ping")
                    assert client.recv(4) == b"ping", "the proxy dropped a connection that was only quiet"
                    client.sendall(b"pong")
                    assert far.recv(4) == b"pong"
                    proxy.cut()
                    assert client.recv(4) == b""
        finally:
            proxy.stop()
