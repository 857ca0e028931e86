"""A round the journal and the engine disagree on is described field by field, not as two Python dicts.

What the manager saw (before the config fix of test_games_manager_config_changed_mid_round): `tablectl round ID`
and the restart's stderr gave the reason for a void as `the journal has {'event': 'round_started', 'round': ...,
'options': {...}, ...}, the engine gives {...}`: two whole records, several hundred characters, the difference left
to the reader. The same text reaches the console's hold screen and every voided wager's reason.
"""

from __future__ import annotations

import pytest

from controller.cards import Card
from controller.engine.recovery import JournalMismatch, rebuild
from controller.events import RoundStarted, WagerSettled, from_record, to_record
from tests.helpers import MemoryLog, top_card_round


def test_a_forged_settlement_names_the_fields_that_differ() -> None:
    log = MemoryLog()
    round = top_card_round(log)
    round.start()
    round.place_wager(1, "home", 1000)
    round.close_betting()
    round.card(Card.parse("KH"))
    round.card(Card.parse("9D"))
    records = [from_record(r) for r in log.records()]
    forged = [from_record({**to_record(r), "returned": 2100, "house_win": -1100}) if isinstance(r, WagerSettled) else r
              for r in records]
    with pytest.raises(JournalMismatch) as caught:
        rebuild(forged, None)
    message = str(caught.value)
    assert "its wager_settled differs from the engine's re-enactment: " in message
    assert "house_win -1100 in the journal, -1000 re-enacted" in message
    assert "returned 2100 in the journal, 2000 re-enacted" in message
    assert "{'" not in message


def test_game_options_that_differ_are_named_key_by_key() -> None:
    from controller.engine.recovery import differences

    said = differences({"event": RoundStarted.EVENT, "options": {"decks": 6, "over_above": 22}, "spots": 8},
                       {"event": RoundStarted.EVENT, "options": {"decks": 6, "over_above": 21}, "spots": 8})
    assert said == ("its round_started differs from the engine's re-enactment: options.over_above 22 in the journal, "
                    "21 re-enacted")
