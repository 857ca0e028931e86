"""A manager edits a table's config while a round is in play; the table restarts: that round ends as it was dealt.

What the manager saw: a No Bust 21 table stopped mid-round, its config edited (the Bonus Bet's pay table, where a
plain 22 falls, the base minimum) and started again; the round in play was voided with every wager returned, the
reason a dump of two Python dicts (`the journal has {'event': 'round_started', ...}, the engine gives {...}`), and
its stakes were counted as house action ($1,047.75 wagered, a "hold" of fees over returned stakes) at a table where
the house banks nothing. docs/operations.md, "What survives what": a round left open is **resumed** where it stopped;
docs/blackjack.md: "all options are logged with every round in `round_started.options`".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.cards import Card
from controller.engine.log import EventLog
from controller.engine.recovery import recover, void_from_journal
from controller.engine.round import Limits, Round
from controller.money import Rounding
from controller.records.journal import Journal
from controller.rules.registry import make_game
from tests.helpers import new_journal

DEALT_UNDER = {"decks": 6, "player_dealer_seat": 8, "bonus_paytable": "seed-any-identical-pair", "over_above": 22}
EDITED = {"decks": 6, "player_dealer_seat": 8, "bonus_paytable": "seed", "over_above": 21}
LIMITS: dict[str, tuple[int, int]] = {"base": (500, 100000), "bonus": (100, 2500), "buster": (100, 10000),
                                      "bank": (5000, 100000)}
RAISED = {**LIMITS, "base": (1000, 100000)}


def cut_off_no_bust_round(path: Path) -> None:
    """A six-deck No Bust 21 round that 'died' after two cards: $7 base and a $5 Bonus Bet at seat 1."""
    with new_journal(path) as journal:
        game = make_game("no-bust-21", DEALT_UNDER)
        round = Round("T1-R1", game, EventLog("T1", journal=journal), spots=8, limits=Limits(LIMITS),
                      rounding=Rounding.PLAYER)
        round.start()
        round.place_wager(8, "bank", 50000)
        round.place_wager(1, "base", 700)
        round.place_wager(1, "bonus", 500)
        round.place_wager(2, "base", 2500)
        round.close_betting()
        for code in ("9S", "9S"):
            round.card(Card.parse(code))


def restarted(path: Path, options: dict[str, Any], limits: dict[str, tuple[int, int]]) -> tuple[Journal, Any]:
    journal = Journal(path, table_id="T1")
    return journal, recover(journal, EventLog("T1", journal=journal), make_game("no-bust-21", options), Limits(limits))


def test_a_round_in_play_when_the_pay_table_and_limits_were_edited_resumes_under_what_it_was_dealt_with(
        tmp_path: Path) -> None:
    cut_off_no_bust_round(tmp_path / "j.sqlite")
    journal, [recovered] = restarted(tmp_path / "j.sqlite", EDITED, RAISED)
    assert recovered.action == "resumed", recovered.message
    assert "{" not in recovered.message
    round = recovered.round
    assert round.wagers[(1, "base")] == 700  # below the new $10 minimum, placed under the old $5 one
    assert round.game.options["bonus_paytable"] == "seed-any-identical-pair" and round.game.options["over_above"] == 22
    assert journal.meters().voided == 0
    # a wager placed from now on meets the table's limits as they are now
    assert round.limits.get("base") == (1000, 100000)


def test_the_same_config_resumes_the_round_with_the_tables_own_game(tmp_path: Path) -> None:
    cut_off_no_bust_round(tmp_path / "j.sqlite")
    game = make_game("no-bust-21", DEALT_UNDER)
    journal = Journal(tmp_path / "j.sqlite", table_id="T1")
    [recovered] = recover(journal, EventLog("T1", journal=journal), game, Limits(LIMITS))
    assert recovered.action == "resumed" and recovered.round.game is game


def test_a_player_dealer_round_voided_from_the_journal_is_no_house_action(tmp_path: Path) -> None:
    cut_off_no_bust_round(tmp_path / "j.sqlite")
    journal = Journal(tmp_path / "j.sqlite", table_id="T1")
    void_from_journal(journal, EventLog("T1", journal=journal), "T1-R1", "no-bust-21", "the supervisor voided it")
    meters = journal.meters()
    assert meters.voided == 1
    assert meters.total.wagered == 0 and meters.total.paid == 0
    assert meters.between_players.wagered == 50000 + 700 + 500 + 2500
    assert meters.between_players.paid == meters.between_players.wagered


def test_a_config_edited_between_rounds_keeps_the_player_dealer_where_the_last_round_left_it(tmp_path: Path) -> None:
    """Edited between rounds (no round in play), the table still takes the player-dealer position from its journal,
    not from the config's first seat."""
    from controller.engine.recovery import restore_table
    from tests.blackjack.table import play

    with new_journal(tmp_path / "j.sqlite") as journal:
        round = play("no-bust-21", {(1, "base"): 1000, (3, "base"): 1000}, "TS 9H 5D 7H 9C 8S 6C",
                     [(1, "stand"), (3, "stand")], log=EventLog("T1", journal=journal),  # type: ignore[arg-type]
                     player_dealer_seat=6, bonus_paytable="seed-any-identical-pair")
        assert round.state == "complete"
    journal = Journal(tmp_path / "j.sqlite", table_id="T1")
    game = make_game("no-bust-21", {"player_dealer_seat": 1, "bonus_paytable": "seed"})
    restore_table(journal, game)
    assert game.table_roles()["player_dealer"] == 6
    assert game.options["bonus_paytable"] == "seed"  # the next round is dealt under the config as it is now
