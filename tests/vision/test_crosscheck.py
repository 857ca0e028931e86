"""The shoe/camera cross-check: zone by zone disagreements, and a full simulated round through the camera."""


from controller.cards import parse_cards
from drivers.shoe import CardDrawn, InProcessShoe
from vision.calibration import Zone
from vision.crosscheck import Discrepancy, crosscheck, seen_by_zone
from vision.recognizer import Recognizer
from vision.synthetic import SceneSource
from vision.tracking import Tracker


def test_agreeing_witnesses_give_no_discrepancy() -> None:
    assert crosscheck({"dealer": parse_cards("AS KD")}, {"dealer": parse_cards("KD AS")}) == []


def test_a_card_dealt_but_not_seen_and_one_seen_elsewhere_are_both_reported() -> None:
    result = crosscheck({"dealer": parse_cards("AS"), "player-1": parse_cards("2C")}, {"player-1": parse_cards("2C"), None: parse_cards("9D")})
    assert result == [Discrepancy("dealt-not-seen", "dealer", dealt=parse_cards("AS")[0]), Discrepancy("seen-not-dealt", None, seen=parse_cards("9D")[0])]


def test_an_unreadable_card_holds_the_round_without_also_counting_as_missing() -> None:
    result = crosscheck({"dealer": parse_cards("AS")}, {"dealer": [None]})
    assert [d.kind for d in result] == ["unreadable"]


ZONES = [
    Zone("dealer", ((300, 20), (500, 20), (500, 200), (300, 200))),
    Zone("player-1", ((60, 220), (300, 220), (300, 440), (60, 440))),
    Zone("player-2", ((500, 220), (740, 220), (740, 440), (500, 440))),
]


def _play(faces, deck, swap: bool) -> list[Discrepancy]:
    """Deal two cards to each place from the simulated shoe, film them, and cross-check shoe and camera."""
    shoe = InProcessShoe(seed=1)
    shoe.shuffle()
    dealt: dict[str, list] = {"player-1": [], "player-2": [], "dealer": []}
    for zone in ["player-1", "player-2", "dealer", "player-1", "player-2", "dealer"]:
        event = shoe.next_event()
        assert isinstance(event, CardDrawn)
        dealt[zone].append(event.card)
    on_table = {z: list(c) for z, c in dealt.items()}
    if swap:
        on_table["player-2"][0] = next(c for c in deck.cards if c not in on_table["player-2"] and not c.is_joker)
    source = SceneSource(faces, zones=ZONES, seed=5)
    source.show(on_table)
    recognizer = Recognizer(deck, source.layout)
    tracker = Tracker(stable_frames=2)
    for _ in range(3):
        tracker.update(recognizer.read(source.read()))
    return crosscheck(dealt, seen_by_zone(tracker.on_table))


def test_a_simulated_round_seen_by_the_camera_matches_the_shoe(faces, deck) -> None:
    assert _play(faces, deck, swap=False) == []


def test_a_card_swapped_on_the_layout_is_a_discrepancy_there_and_only_there(faces, deck) -> None:
    result = _play(faces, deck, swap=True)
    assert result and {d.zone for d in result} == {"player-2"}
    assert {d.kind for d in result} <= {"seen-differently", "unreadable"}


def test_an_unreadable_card_that_looks_like_the_dealt_card_corroborates_it_and_one_that_does_not_is_a_discrepancy() -> None:
    from vision.crosscheck import Unsure

    club, spade = parse_cards("3C 3S")
    assert crosscheck({"6": [club]}, {"6": [Unsure(club)]}) == []
    assert [d.kind for d in crosscheck({"6": [club]}, {"6": [Unsure(spade)]})] == ["unreadable"]
    assert [d.kind for d in crosscheck({"6": [club]}, {"6": [club, Unsure(club)]})] == ["unreadable"]  # an extra card
