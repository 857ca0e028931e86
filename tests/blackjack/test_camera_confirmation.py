"""Issue 7, "Cards from the table": each blackjack card comes from the shoe and is confirmed by the camera.

The simulated table films every card as it lands (fanned hands, split hands
side by side, Pure 21.5's Bonus cards) and a card the two witnesses disagree
on holds the round, the card kept where the shoe put it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cards import Card, parse_cards
from controller.commands.cli import main
from controller.engine.camera import CameraWitness
from controller.engine.config import load_config
from controller.errors import TableError
from controller.events import CameraAgreed, CameraConfirmed, CameraDisagreed, CardDealt, FeeCollected, RoundHeld, WagerSettled
from tests.helpers import MemoryLog, init_table
from vision.artwork import ArtworkMissing, render_deck

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def artwork() -> None:
    try:
        render_deck("aisleriot-anglo+bonus")
    except ArtworkMissing as missing:
        pytest.skip(f"card artwork not installed: {missing}")


def _events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("game_id", ["no-bust-21", "pure-21-5"])
def test_every_card_of_full_rounds_is_confirmed_by_the_camera_and_the_rounds_balance(game_id, tmp_path, capsys, artwork) -> None:
    log = tmp_path / "events.jsonl"
    init_table(str(tmp_path / "j.sqlite"), str(log), str(ROOT / "config" / f"{game_id}.toml"))
    assert main(["run", "--config", str(ROOT / "config" / f"{game_id}.toml"), "--rounds", "3", "--seed", "21",
                 "--log", str(log), "--journal", str(tmp_path / "j.sqlite")]) == 0
    events = _events(log)
    dealt = [e for e in events if e["event"] == CardDealt.EVENT]
    assert len(dealt) > 20
    assert sum(e["event"] == CameraConfirmed.EVENT for e in events) == len(dealt)  # one look after every card
    assert sum(e["event"] == CameraAgreed.EVENT for e in events) == 3  # and one before each settlement
    for round_id in {e["round"] for e in dealt}:
        settled = [e for e in events if e["event"] == WagerSettled.EVENT and e["round"] == round_id]
        staked, returned = sum(e["stake"] for e in settled), sum(e["returned"] for e in settled)
        fees = sum(e["amount"] for e in events if e["event"] == FeeCollected.EVENT and e["round"] == round_id)
        assert staked == returned  # between players: what one side wins the other loses, to the cent
        assert fees > 0


def test_a_card_the_camera_reads_differently_holds_the_round_with_the_card_kept(tmp_path, capsys, monkeypatch, artwork) -> None:
    from vision.synthetic import SceneSource

    show = SceneSource.show

    def the_dealer_lays_another_card(self, hands, zone_of):  # seat hands get a 2 of clubs for their second card
        hands = {t: (list(c[:1]) + [Card.parse("2C")] + list(c[2:]) if t != "player-dealer" and len(c) >= 2 else c)
                 for t, c in hands.items()}
        show(self, hands, zone_of)

    monkeypatch.setattr(SceneSource, "show", the_dealer_lays_another_card)
    log = tmp_path / "events.jsonl"
    init_table(str(tmp_path / "j.sqlite"), str(log), str(ROOT / "config" / "no-bust-21.toml"))
    assert main(["run", "--config", str(ROOT / "config" / "no-bust-21.toml"), "--rounds", "2", "--seed", "21",
                 "--log", str(log), "--journal", str(tmp_path / "j.sqlite")]) == 1
    events = _events(log)
    held = next(e for e in events if e["event"] == RoundHeld.EVENT)
    assert held["reason"].startswith("camera: ")
    discrepancy = next(e for e in events if e["event"] == CameraDisagreed.EVENT)
    assert discrepancy["zone"] != "player-dealer"
    last_dealt = [e for e in events if e["event"] == CardDealt.EVENT][-1]
    assert last_dealt["seq"] < held["seq"]  # the card was placed, then the round held: nothing is lost
    assert not any(e["event"] == WagerSettled.EVENT for e in events if e.get("round") == held["round"])
    assert "is on hold: camera:" in capsys.readouterr().err


def _witness(game_id: str, tmp_path: Path) -> CameraWitness:
    vision = load_config(ROOT / "config" / f"{game_id}.toml").sections["vision"]
    return CameraWitness(vision, MemoryLog(), seed=3)


def test_a_split_hand_lies_in_its_seat_zone_and_an_unknown_target_is_named(tmp_path, artwork) -> None:
    witness = _witness("no-bust-21", tmp_path)
    assert witness.zone_of("3.1") == "3" and witness.zone_of("player-dealer") == "player-dealer"
    with pytest.raises(TableError, match="no \\[vision.zones\\] entry for the card target '9.0'"):
        witness.zone_of("9.0")


def test_split_hands_and_a_long_hand_are_each_read_in_their_seat(tmp_path, artwork) -> None:
    """What a look relies on: over a few frames every card is read in its seat's zone, and never another card."""
    witness = _witness("no-bust-21", tmp_path)
    hands = {"player-dealer": parse_cards("KD 5C"), "3.0": parse_cards("8S 3D"), "3.1": parse_cards("8H JK"),
             "6.0": parse_cards("2C 3H 2D AS 4S 5H")}
    witness.source.show(hands, witness.zone_of)
    expected = {"player-dealer": {"KD", "5C"}, "3": {"8S", "3D", "8H", "JK"}, "6": {"2C", "3H", "2D", "AS", "4S", "5H"}}
    seen: dict[str | None, set[str]] = {}
    for _ in range(3):
        for read in witness.recognizer.read(witness.source.read()):
            if read.card is not None:
                seen.setdefault(read.zone, set()).add(read.card.code)
    assert seen == expected


def test_a_hand_keeps_where_its_cards_lie_as_cards_are_added(tmp_path, artwork) -> None:
    witness = _witness("no-bust-21", tmp_path)
    witness.source.show({"2.0": parse_cards("9C 4H")}, witness.zone_of)
    before = list(witness.source.placements)
    witness.source.show({"2.0": parse_cards("9C 4H 7S")}, witness.zone_of)
    assert witness.source.placements[:2] == before


def test_pure_21_5_bonus_cards_are_read_and_never_taken_for_spades(tmp_path, artwork) -> None:
    witness = _witness("pure-21-5", tmp_path)
    hands = {"1.0": parse_cards("KB 9S"), "2.0": parse_cards("QB TB"), "5.0": parse_cards("JB 2S")}
    witness.source.show(hands, witness.zone_of)
    seen: set[str] = set()
    for _ in range(3):
        seen |= {r.card.code for r in witness.recognizer.read(witness.source.read()) if r.card is not None}
    assert seen == {"KB", "9S", "QB", "TB", "JB", "2S"}


def test_the_pure_21_5_down_card_is_not_filmed_until_the_reveal() -> None:  # seed 003, Pure 21.5: the second card down
    from controller.cards import Card
    from controller.rules.base import Face
    from controller.rules.blackjack.play import PLAYER_DEALER
    from controller.rules.registry import make_game

    game = make_game("pure-21-5")
    state = game.new_hand([2, 3], {(1, "bank"): 50000, (2, "base"): 500, (3, "base"): 500})
    card = Card.parse("9S")
    assert game.face(state, PLAYER_DEALER, card, 1) is Face.UNTIL_REVEAL
    assert game.face(state, PLAYER_DEALER, card, 0) is Face.UP and game.face(state, "3.0", card, 1) is Face.UP
    no_bust = make_game("no-bust-21")
    assert no_bust.face(no_bust.new_hand([2, 3], {(1, "bank"): 50000, (2, "base"): 500}), PLAYER_DEALER, card, 1) is Face.UP


def test_a_fan_that_covers_the_index_is_refused_with_the_reason(tmp_path, artwork) -> None:
    vision = dict(load_config(ROOT / "config" / "no-bust-21.toml").sections["vision"])
    vision["fan_mm"] = [10.0, 20.0]
    with pytest.raises(TableError, match="at least 16 mm right of the last or 28 mm below"):
        CameraWitness(vision, MemoryLog())


#: Seat 8 of Pure 21.5 (seed 21, round 22 of ``benchmarks/false_holds.py``) split into four hands, two of them
#: a lone Bonus jack, the second laid 21.7 mm right of the first: the jack under it shows its index beside
#: the other jack's picture.
_SEAT_8 = [("8S", (788.4, 454.0), 2.8), ("8S", (810.1, 474.3), 1.0), ("8H", (829.2, 494.1), -2.0),
           ("JB", (850.2, 516.5), -1.7), ("8D", (871.8, 454.0), 3.0), ("5D", (896.2, 475.5), 2.9),
           ("QB", (918.3, 493.4), -3.0), ("JB", (939.9, 454.0), 0.2), ("JB", (961.6, 454.0), 1.0)]


@pytest.mark.parametrize("laid, held", [
    ({}, None),
    ({7: "KB"}, "seen-differently"),  # the dealer lays a king where the shoe dealt the jack
    ({7: None}, "dealt-not-seen"),  # the jack under the other never reaches the table
])
def test_two_jacks_laid_side_by_side_are_two_cards_and_a_wrong_or_missing_one_still_holds(laid, held, tmp_path, artwork) -> None:
    """Two of one card a card step apart side by side are two cards, each read from its own index; a card
    read again a few mm off is still one (tests/vision/test_recognizer.py). The witness still holds the
    round when the card under the jack is another card or is not there."""
    from vision.crosscheck import crosscheck, seen_by_zone
    from vision.synthetic import Placement

    witness = _witness("pure-21-5", tmp_path)
    assert witness.scenes is not None
    dealt = {"8": [Card.parse(code) for code, _, _ in _SEAT_8]}
    witness.scenes.placements = [Placement(Card.parse(laid.get(k, code)), centre, angle)  # type: ignore[arg-type]
                                 for k, (code, centre, angle) in enumerate(_SEAT_8) if laid.get(k, code) is not None]
    problems = crosscheck(dealt, seen_by_zone(witness._seen(dealt)))
    assert [p.kind for p in problems] == ([] if held is None else [held])
