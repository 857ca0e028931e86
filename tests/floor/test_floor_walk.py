"""What an operator following docs/floor.md met on the floor: each test a defect found walking it, now fixed."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import psycopg
import pytest

from controller.commands.cli import main
from controller.floor import views
from controller.floor.consumer import FloorConsumer
from controller.floor.localservers import NatsCluster
from controller.floor.outbox import Outbox, Position
from controller.floor.shifts import Shifts
from controller.money import format_cents
from controller.records.journal import Journal
from tests.floor.consuming import consume_while, until
from tests.floor.tables import play
from tests.helpers import init_table


def _floor_toml(folder: Path, dsn: str, **floor: str) -> Path:
    lines = ["[floor]", 'site = "walk"', *(f"{key} = {value!r}".replace("'", '"') for key, value in floor.items()),
             "[database]", f'dsn = "{dsn}"']
    path = folder / "floor.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_floor_check_over_a_journal_folder_names_the_file_that_is_not_a_journal(
    tmp_path: Path, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`floor check var/journal/*.sqlite` also picks up the outbox's TC-01.outbox.sqlite beside the journal."""
    journals = tmp_path / "journal"
    journals.mkdir()
    journal = journals / "TC-01.sqlite"
    init_table(journal, tmp_path / "TC-01.jsonl")
    Position(journal).close()  # the outbox's own file, as `tablectl run` with [floor] leaves it beside the journal
    (journals / "TC-01.key.sqlite").write_bytes(b"not a database at all\n" * 20)
    config = _floor_toml(tmp_path, database)
    capsys.readouterr()
    for other in (journals / "TC-01.outbox.sqlite", journals / "TC-01.key.sqlite"):
        assert other.exists()
        assert main(["floor", "check", "--config", str(config), str(journal), str(other)]) == 2
        err = capsys.readouterr().err
        assert f"{other}: not a table's journal" in err, err


def test_floor_check_and_edges_before_the_service_first_ran_say_so_without_a_traceback(
    tmp_path: Path, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new floor database: `floor check` said `relation "events" does not exist` in a traceback, `floor edges` too."""
    journal = tmp_path / "TC-01.sqlite"
    init_table(journal, tmp_path / "TC-01.jsonl")
    config = _floor_toml(tmp_path, database)
    edges = tmp_path / "edges.json"
    edges.write_text('{"game": "top-card", "paytable": "standard", "wagers": {"home": {"house_edge": 0.03}}}\n')
    capsys.readouterr()
    assert main(["floor", "check", "--config", str(config), str(journal)]) == 1
    assert "holds no table's records yet: `tablectl floor serve` makes its tables" in capsys.readouterr().err
    assert main(["floor", "edges", "--config", str(config), "--from", str(edges)]) == 0
    assert "1 wagers' edges loaded" in capsys.readouterr().out


@pytest.mark.parametrize(("key", "value", "said"), [
    ("time_zone", "America/New_Yrok", "floor.time_zone: no time zone called 'America/New_Yrok'"),
    ("listen", "0.0.0.0", "floor.listen: must be HOST:PORT"),
    ("listen", "127.0.0.1:84800", "floor.listen: must be HOST:PORT"),
])
def test_a_floor_config_with_a_wrong_time_zone_or_listen_address_is_refused_naming_the_key(
    tmp_path: Path, key: str, value: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both went through the config check and died in a traceback as the service started (ZoneInfoNotFoundError, int())."""
    config = _floor_toml(tmp_path, "host=127.0.0.1 port=1 dbname=none", **{key: value})
    with pytest.raises(SystemExit) as exit:
        main(["floor", "serve", "--config", str(config)])
    assert exit.value.code == 2
    assert f"{config}: {said}" in capsys.readouterr().err


def test_a_table_in_two_pits_is_refused_naming_the_pits_table() -> None:
    """The message named no key at all ('floor.toml: : table TC-01 is in pit A and in pit B')."""
    from controller.floor.config import FloorConfigError, parse_floor_config

    with pytest.raises(FloorConfigError) as refused:
        parse_floor_config({"floor": {"site": "s"}, "pits": {"A": {"tables": ["TC-01"]}, "B": {"tables": ["TC-01"]}}},
                           "floor.toml")
    assert str(refused.value) == "floor.toml: pits: table TC-01 is in pit A and in pit B"


@pytest.mark.parametrize(("text", "said"), [
    ("<html>502 Bad Gateway</html>\n", "Expecting value"),
    ('{"game": "top-card", "paytable": "standard", "wagers": {"home": {}}}\n', "missing 'house_edge'"),
])
def test_floor_edges_from_a_file_that_is_not_edge_json_names_the_file_without_a_traceback(
    tmp_path: Path, database: str, text: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`floor edges --from` a wrong or truncated file died in a JSONDecodeError or KeyError traceback."""
    edges = tmp_path / "edges.json"
    edges.write_text(text)
    config = _floor_toml(tmp_path, database)
    with pytest.raises(SystemExit) as exit:
        main(["floor", "edges", "--config", str(config), "--from", str(edges)])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert f"{edges} is not what `tablectl edge GAME --json` prints" in err and said in err, err


def test_a_player_dealer_tables_win_on_the_pit_page_is_its_fees_as_its_own_summary_says(
    tmp_path: Path, cluster: NatsCluster, database: str
) -> None:
    """Three Card Poker with a player-dealer: the table said house win $43.00 (its fees), the pit page $0.00, and the
    shift meters left the table out."""
    journal = play(tmp_path / "TCP-01.sqlite", rounds=6, seed=3, config="config/three-card-poker.toml")
    with Journal(journal, table_id="TCP-01") as own:
        meters = own.meters()
    assert meters.total.wagered == 0 and meters.total.fees > 0
    outbox = Outbox(journal, table_id="TCP-01", site="walk", servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site="walk")

    async def body() -> None:
        outbox.start()
        await until(lambda: outbox.status().lag == 0 and outbox.status().acked_seq > 0)
        await until(lambda: consumer.stats.stored >= outbox.status().acked_seq)

    asyncio.run(consume_while(consumer, body))
    outbox.stop()
    with psycopg.connect(database) as conn:
        [row] = views.tables(conn, Shifts.default())
        [shift] = views.shift_meters(conn, table="TCP-01")
    assert (row["table"], row["win"], row["win_text"], row["drop_text"]) == (
        "TCP-01", meters.total.house_win, format_cents(meters.total.house_win), "$0.00")
    assert (shift["win_text"], shift["rounds"]) == (format_cents(meters.total.house_win), meters.rounds)


def test_an_idle_floor_on_a_healthy_cluster_logs_no_broker_error(tmp_path: Path, cluster: NatsCluster, database: str) -> None:
    """With every node up and no table playing, the service logged "the broker: no answer in time" every 10 to 30 s
    (a pull that found nothing ended in asyncio's TimeoutError, taken for a broken broker) and reconnected. Seen with
    two services on the floor, as docs/floor.md allows (both on the same durable consumer)."""
    first, second = (FloorConsumer(servers=cluster.urls, dsn=database, site="walk") for _ in range(2))
    other = threading.Thread(target=asyncio.run, args=(second.run(),), daemon=True)

    async def body() -> None:
        other.start()
        deadline = asyncio.get_running_loop().time() + 40
        while asyncio.get_running_loop().time() < deadline:
            assert not first.stats.errors and not second.stats.errors, (first.stats.errors, second.stats.errors)
            await asyncio.sleep(0.5)

    try:
        asyncio.run(consume_while(first, body))
    finally:
        second.stop.set()  # read by its loop's next pass (within a second)
        other.join(30)
    assert first.stats.errors == second.stats.errors == []


def test_the_floor_says_it_is_behind_while_its_broker_is_away_and_live_once_it_is_back(
    cluster: NatsCluster, database: str
) -> None:
    """With every node down the pit page said "live" over figures standing still: the consumer's last error was set
    only by some failures and never cleared once the broker was back. The page reads it (``consumer.last_error``)."""
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site="walk")

    async def body() -> None:
        await until(lambda: consumer.stats.last_error is None, 30)
        for node in cluster.nodes:
            await asyncio.to_thread(node.stop)
        await until(lambda: consumer.stats.last_error is not None, 30)
        await asyncio.to_thread(cluster.start)
        await until(lambda: consumer.stats.last_error is None, 60)

    asyncio.run(consume_while(consumer, body))


def test_the_floors_nats_unit_takes_port_4222_from_debians_own_nats_server_service() -> None:
    """Debian's nats-server package enables and starts its own nats-server.service on 127.0.0.1:4222; the
    documented tablectl-nats@floor (listen 0.0.0.0:4222) then failed "address already in use", restarting every 2 s."""
    debian = Path("/etc/nats-server.conf")
    if not debian.exists():
        pytest.skip("Debian's nats-server is not installed (apt-get install nats-server)")
    ours = [line.split(":")[-1].split()[0] for line in Path("config/floor/nats-floor-1.conf").read_text().splitlines()
            if line.startswith("listen:")]
    theirs = [line.split(":")[-1].strip() for line in debian.read_text().splitlines() if line.startswith("port:")]
    assert ours == theirs == ["4222"]
    unit = Path("systemd/tablectl-nats@.service").read_text().splitlines()
    assert "Conflicts=nats-server.service" in unit
    assert unit.index("Conflicts=nats-server.service") < unit.index("[Service]")
    assert "nats-server.service" in Path("docs/floor.md").read_text()


def test_a_table_whose_key_is_not_yet_enrolled_does_not_flood_the_floors_log(
    tmp_path: Path, cluster: NatsCluster, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Three tables playing a minute before `floor enrol` wrote 1,400 identical warnings to the service's log, one per
    signed checkpoint ("no key is enrolled for table TC-01 ..."): now one line a batch, with the count."""
    journal = play(tmp_path / "TC-01.sqlite", rounds=6, seed=4)
    outbox = Outbox(journal, table_id="TC-01", site="walk", servers=cluster.urls)
    consumer = FloorConsumer(servers=cluster.urls, dsn=database, site="walk")

    async def body() -> None:
        outbox.start()
        await until(lambda: outbox.status().lag == 0 and outbox.status().acked_seq > 0)
        await until(lambda: consumer.stats.stored >= outbox.status().acked_seq and consumer.stats.checkpoints_refused > 20)
        await asyncio.sleep(2)

    with caplog.at_level("WARNING", logger="tablectl.floor"):
        asyncio.run(consume_while(consumer, body))
    outbox.stop()
    refused = [r.getMessage() for r in caplog.records if r.getMessage().startswith("checkpoint refused")]
    assert refused and all("no key is enrolled for table TC-01" in line for line in refused)
    assert len(refused) <= consumer.stats.batches < consumer.stats.checkpoints_refused, (len(refused), consumer.stats)
