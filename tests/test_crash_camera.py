"""After a kill and a restart the camera films on: the recovered round is witnessed, on the same simulated table.

What a kill leaves is a round open in the journal; here the first session leaves one with JH dealt to home
(filmed), and the table starts again as ``tablectl run`` does after a kill, with a new seed. The seed is the
one ``test_crash_recovery.py`` restarted with when it saw a round held with "JH was dealt to home but the
camera does not see it": drawn from that seed, the simulated table's cloth was one on which the recognizer
loses court cards in the home zone, so the same cards were seen before the restart and not after it.
"""

from __future__ import annotations

import random
from pathlib import Path

from controller.cards import Card
from controller.engine.camera import film_session
from controller.engine.config import load_config
from controller.engine.players import SimulatedPlayers
from controller.engine.session import open_session
from controller.events import CameraAgreed, CameraConfirmed, RoundRecovered
from controller.records.journal import Journal
from tests.helpers import init_table

HELD_AFTER_RESTART = 1483856960
"""The camera seed of the restart that held JH at home (``tablectl run --seed 739661``)."""


def test_a_round_recovered_after_a_kill_is_filmed_on_the_table_it_was_dealt_on(tmp_path: Path) -> None:
    journal, log = tmp_path / "journal.sqlite", tmp_path / "events.jsonl"
    init_table(journal, log)
    config = load_config(None)

    with open_session(config, random.Random(1), journal=journal, events=log, simulate_devices=True) as session:
        camera = film_session(session, 7, asked=True, simulated=True, warn=print)
        assert camera is not None and camera.scenes is not None
        cloth, table = camera.scenes.felt.copy(), session.table
        round = table.new_round()
        round.start()
        round.place_wager(1, "home", 1000)
        round.close_betting()
        while round.card_target() == "burn":
            table.feed.deal(round)
        round.card(Card.parse("JH"), "shoe")
        assert round.state == "dealing", round.hold_reason  # filmed and confirmed; then the kill
        cut = round.id

    rng = random.Random(2)
    with open_session(config, rng, journal=journal, events=log, simulate_devices=True) as session:
        [recovered] = session.recovered
        assert recovered.round_id == cut and recovered.action == "resumed"
        camera = film_session(session, HELD_AFTER_RESTART, asked=True, simulated=True, warn=print)
        assert camera is not None and camera.scenes is not None
        assert (camera.scenes.felt == cloth).all(), "the restarted table's cloth is not the one its cards were dealt on"
        round = session.play(SimulatedPlayers(rng))
        assert round.id == cut
        assert round.state == "complete", round.hold_reason

    with Journal(journal, table_id=config.table_id, readonly=True) as j:
        records = j.round_records(cut)
    after = records[next(i for i, r in enumerate(records) if isinstance(r, RoundRecovered)):]
    assert any(isinstance(r, CameraConfirmed) for r in after), "the round recovered after the restart was not filmed"
    assert [r.cards for r in records if isinstance(r, CameraAgreed)] == [2]
