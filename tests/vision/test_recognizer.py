"""The recognizer end to end on small fixed scenes: reads, outlines, zones and "unreadable" instead of guesses."""

import dataclasses
import math

import cv2
import numpy as np
import pytest

import vision.hypotheses as hypotheses_module
import vision.recognizer as recognizer_module
from controller.cards import Card, parse_cards
from vision.calibration import Layout, Zone
from vision.detect import DOWNSCALE, Corners, half_size
from vision.geometry import INDEX_FX, INDEX_FY, STRIPS, CardSize, quad_center, rotate_quad
from vision.hypotheses import _guessed_corners, _paired_plain
from vision.recognizer import Recognizer, RecognizerSettings, evidence_needed
from vision.synthetic import DEALER_SPREAD, Camera, Placement, Scene, SceneRenderer, fan, random_placements

#: What a card's own looks and strips read, without the index net's word (``Recognizer._confirmed``): the
#: tests that show a strip reading a card check that, without it, the looks leave the card unreadable.
WITHOUT_NET = RecognizerSettings(net_confirm=None)

ZONES = [Zone("dealer", ((350, 50), (750, 50), (750, 250), (350, 250))), Zone("player-1", ((50, 300), (450, 300), (450, 600), (50, 600)))]


@pytest.fixture
def scene_and_recognizer(faces, deck):
    camera = Camera.overhead()
    renderer = SceneRenderer(faces, camera)
    placements = [
        Placement(parse_cards("AS")[0], (450.0, 150.0), 12.0),
        Placement(parse_cards("KD")[0], (620.0, 140.0), -100.0),
        *fan(parse_cards("9H 4C 7S"), (180.0, 380.0), 20.0, spread=DEALER_SPREAD),
        Placement(parse_cards("JK")[0], (900.0, 450.0), 200.0),
    ]
    scene = renderer.render(placements, np.random.default_rng(11))
    return scene, Recognizer(deck, camera.layout(ZONES))


def _nearest(reads, polygon):
    return min(reads, key=lambda r: np.linalg.norm(quad_center(r.polygon) - quad_center(polygon)))


def test_every_card_of_a_small_scene_is_found_once_with_its_outline_and_zone_and_none_misread(scene_and_recognizer) -> None:
    scene, recognizer = scene_and_recognizer
    reads = recognizer.read(scene.frame)
    assert len(reads) == len(scene.truth)
    for truth in scene.truth:
        read = _nearest(reads, truth.polygon)
        assert read.card in (truth.card, None)
        outline_error = min(np.abs(rotate_quad(truth.polygon, k) - read.polygon).max() for k in (0, 2))
        assert outline_error < 6.0
        assert 0.0 < read.confidence <= 1.0
    zones = {r.card.code: r.zone for r in reads if r.card is not None}
    assert zones["AS"] == "dealer" and zones["KD"] == "dealer" and zones["9H"] == "player-1" and zones["JK"] is None


def test_lone_cards_are_read_from_the_full_face_and_the_bottom_of_a_fan_from_its_corner(scene_and_recognizer) -> None:
    scene, recognizer = scene_and_recognizer
    reads = {r.card.code: r for r in recognizer.read(scene.frame) if r.card is not None}
    assert {code: reads[code].visible for code in ("AS", "KD", "JK", "9H")} == {"AS": "full", "KD": "full", "JK": "full", "9H": "corner"}


def test_a_card_whose_indices_are_smudged_is_unreadable_not_guessed(faces, deck) -> None:
    camera = Camera.overhead()
    card = parse_cards("8S")[0]
    smudged = faces[card].copy()
    h, w = smudged.shape[:2]
    for y0, x0 in ((0, 0), (h - int(INDEX_FY * h), w - int(INDEX_FX * w))):
        region = smudged[y0 : y0 + int(INDEX_FY * h), x0 : x0 + int(INDEX_FX * w)]
        region[:] = cv2.GaussianBlur(region, (0, 0), 12)
    renderer = SceneRenderer({**faces, card: smudged}, camera)
    scene = renderer.render([Placement(card, (500.0, 300.0), 30.0)], np.random.default_rng(2))
    reads = Recognizer(deck, camera.layout()).read(scene.frame)
    assert all(r.card is None for r in reads)


def test_an_empty_table_has_no_cards(deck) -> None:
    felt = np.zeros((1080, 1920, 3), np.uint8)
    felt[:] = (40, 110, 35)
    assert Recognizer(deck, Camera.overhead().layout()).read(felt) == []


def test_a_frame_that_is_not_a_colour_image_is_refused(deck) -> None:
    with pytest.raises(ValueError, match="8-bit BGR"):
        Recognizer(deck).read(np.zeros((10, 10), np.uint8))


#: The frame (width, height) the outlines of ``_outlines`` lie in.
FRAME = (1920, 1080)


def _outlines(*corners: tuple[float, float]) -> np.ndarray:
    """Outlines of one 100 x 140 px card, one per look: the first from the index corner at the first
    point, each next from the opposite index corner (the same card turned about) when the point lies
    there, else again from the top left."""
    first = np.array(corners[0], float)
    upright = first + np.array([[0, 0], [100, 0], [100, 140], [0, 140]], float)
    turned = np.roll(upright, -2, axis=0)
    return np.array([upright + (np.array(c) - first) if not np.allclose(c, turned[0]) else turned for c in corners])


def _rows(deck, *looks: dict[str, float], others: float = 30.0) -> np.ndarray:
    """Distance rows: ``others`` (30) to every card but those named."""
    rows = np.full((len(looks), len(deck.cards)), others)
    codes = [c.code for c in deck.cards]
    for row, look in zip(rows, looks):
        for code, distance in look.items():
            row[codes.index(code)] = distance
    return rows


def test_one_look_is_one_witness_and_two_corners_are_two(deck) -> None:
    """A 6 of hearts looked at once, 6 against 9 from the eight: too little evidence; from both corners, enough."""
    recognizer = Recognizer(deck)
    look = {"6H": 6.0, "8H": 9.0}
    once = recognizer._decide(False, _rows(deck, look), _outlines((100, 100)))
    assert once.card is None and once.guess.code == "6H"
    twice = recognizer._decide(False, _rows(deck, look, look), _outlines((100, 100), (200, 240)))
    assert twice.card is not None and twice.card.code == "6H"


def test_a_card_whose_index_has_a_twin_is_read_only_when_a_strip_tells_them_apart(deck) -> None:
    """A deck whose 6H and 8H look alike at the index (``vision.templates.TWIN_SEPARATION``): two corners
    that plainly say 6H (4.0 against 12.0) are not enough; the rank strip beside the index is."""
    six, eight = deck.cards.index(Card.parse("6H")), deck.cards.index(Card.parse("8H"))
    centers = deck.index_centers.copy()
    centers[eight] = centers[six] + 3.5 / np.sqrt(centers.shape[1])
    recognizer = Recognizer(dataclasses.replace(deck, index_centers=centers))
    looks = _rows(deck, {"6H": 4.0, "8H": 12.0}, {"6H": 4.0, "8H": 12.0})
    assert Recognizer(deck)._decide(False, looks, _outlines((100, 100), (200, 240))).card == Card.parse("6H")
    alone = recognizer._decide(False, looks, _outlines((100, 100), (200, 240)))
    assert alone.card is None and alone.guess == Card.parse("6H")
    rank = _strips(deck, {"6H": 4.0, "6S": 4.1, "8H": 16.0})
    read = recognizer._decide(False, looks, _outlines((100, 100), (200, 240)), strips=rank)
    assert read.card == Card.parse("6H")


def _strips(deck, *strips: dict[str, float], others: float = 30.0):
    """Strip distances for ``Recognizer._decide``: the same rows (see ``_rows``) beside every outline."""
    rows = _rows(deck, *strips, others=others)
    return lambda outlines, *lone: np.broadcast_to(rows, (len(outlines), *rows.shape)).copy()


def test_a_look_that_cannot_tell_a_suit_twin_is_read_when_the_strips_beside_its_index_can(deck) -> None:
    """A six of spades under another card, its one look all but tied with the six of clubs (6.0 against
    8.0: evidence 14 of the 36.8 a read needs). The top strip shows spade pips (5.0, the five and four
    of spades as near, the six of clubs at 15.0), the side strip too."""
    recognizer = Recognizer(deck)
    look = _rows(deck, {"6S": 6.0, "6C": 8.0})
    assert recognizer._decide(False, look, _outlines((100, 100))).guess.code == "6S"
    pips = _strips(deck, {"6S": 5.0, "5S": 5.2, "4S": 5.3, "6C": 15.0}, {"6S": 6.0, "6C": 13.0})
    read = recognizer._decide(False, look, _outlines((100, 100)), strips=pips)
    assert read.card is not None and read.card.code == "6S" and read.confidence >= 0.99


@pytest.mark.parametrize("strips, why", [
    ([{"6S": 4.0, "6C": 5.5, "2S": 4.1, "3C": 4.2}, {"6S": 4.2, "6C": 5.0}], "blank stretches of card: too little to tell"),
    ([{"6S": 18.0, "6C": 30.0}, {"6S": 19.0}], "no strip looks closely like a card (within 16)"),
    ([{"6S": 5.0, "6C": 11.0}, {"6C": 17.0, "6S": 19.1}], "one strip, partly covered, leans to the twin"),
])
def test_strips_that_do_not_settle_the_suit_leave_a_card_unreadable(deck, strips, why) -> None:
    """A six of spades whose one look leans to it a little (evidence 29.5 of 36.8)."""
    recognizer = Recognizer(deck)
    read = recognizer._decide(False, _rows(deck, {"6S": 6.0, "6C": 9.75}), _outlines((100, 100)), strips=_strips(deck, *strips))
    assert read.card is None and read.guess.code == "6S", why


def test_two_looks_that_closely_name_different_cards_make_a_quarrel(deck) -> None:
    recognizer = Recognizer(deck)
    read = recognizer._decide(False, _rows(deck, {"TC": 5.5, "8C": 13.0}, {"TC": 4.9, "8C": 14.5}), _outlines((100, 100), (200, 240)))
    assert read.card is not None and read.card.code == "TC"
    quarrel = recognizer._decide(False, _rows(deck, {"8C": 9.7, "TC": 11.6}, {"TC": 4.9, "8C": 14.5}), _outlines((100, 100), (200, 240)))
    assert quarrel.card is None


def test_a_look_that_barely_prefers_a_suit_twin_does_not_quarrel(deck) -> None:
    """A nine of clubs: one corner clearly a club (9.5 against 14.4), the other all but tied (9S 10.6, 9C 10.9)."""
    recognizer = Recognizer(deck)
    tied = recognizer._decide(False, _rows(deck, {"9C": 9.5, "9S": 14.4}, {"9S": 10.6, "9C": 10.9}), _outlines((100, 100), (200, 240)))
    assert tied.card is not None and tied.card.code == "9C"
    lone = recognizer._decide(True, _rows(deck, {"9C": 9.5, "9S": 14.4}, {"9S": 10.6, "9C": 10.9}), _outlines((100, 100), (200, 240)))
    assert lone.card is not None and lone.card.code == "9C"
    clear = recognizer._decide(False, _rows(deck, {"9C": 9.5, "9S": 14.4}, {"9S": 10.6, "9C": 12.6}), _outlines((100, 100), (200, 240)))
    assert clear.card is None


def test_a_look_at_the_next_card_of_a_tight_fan_is_not_a_quarrel_but_a_read_of_its_own(deck) -> None:
    """A five of spades fanned 15 mm from a jack of diamonds, their outlines in one candidate: the jack's
    look outlines a card whose centre lies a third of a card's width off the five's, so it is the
    jack's witness, and both are read."""
    recognizer = Recognizer(deck)
    rows = _rows(deck, {"5S": 7.2, "5C": 18.1}, {"JD": 8.2, "JH": 37.6})
    fanned = recognizer._reads(False, rows, _outlines((100, 100), (65, 110)))
    assert sorted(f.read.card.code for f in fanned) == ["5S", "JD"]
    assert [f.closest for f in fanned] == [7.2, 8.2]
    (one_card,) = recognizer._reads(False, rows, _outlines((100, 100), (200, 240)))
    assert one_card.read.card is None


def test_a_joker_look_is_not_split_from_the_looks_of_the_card_beside_it(deck) -> None:
    """A patch of a joker's picture looks like a joker's corner wherever it is cut: an outline across a
    joker and a queen beside it, very like the joker, still answers to the queen's looks."""
    recognizer = Recognizer(deck)
    rows = _rows(deck, {"JK": 3.4}, {"QD": 8.0, "KD": 20.0})
    reads = recognizer._reads(False, rows, _outlines((100, 100), (65, 110)))
    assert [f.read.card for f in reads] == [None]


def test_of_two_read_cards_in_one_place_the_closer_fit_is_kept_whatever_the_confidence(deck) -> None:
    """A phantom outline across a fan read 6D from a look 16 off the six; the card there, 2H, from looks 5
    off. Both confidences round to 1: the closer fit names the card."""
    from vision.recognizer import Read

    recognizer = Recognizer(deck)
    phantom = Read(parse_cards("6D")[0], _outlines((100, 100))[0], "corner", 0.99998)
    card = Read(parse_cards("2H")[0], _outlines((103, 101))[0], "corner", 0.99990)
    kept = recognizer._suppress([(np.array([50.0, 60.0]), phantom, 16.0), (np.array([51.0, 60.5]), card, 5.0)], STRAIGHT_DOWN)
    assert [r.card.code for r in kept] == ["2H"]


def test_one_card_read_twice_close_together_is_reported_once(deck) -> None:
    """A guyenne king of diamonds read at its corner and again from a pip of the eight under it, the two
    outlines' centres 12 mm apart: one card. Two kings of diamonds of a multi-deck shoe fanned 30 mm apart
    (a dealer's tightest fan) are two."""
    from vision.recognizer import Read

    recognizer = Recognizer(deck)
    king = parse_cards("KD")[0]
    first = Read(king, _outlines((100, 100))[0], "corner", 1.0)
    again = Read(king, _outlines((116, 90))[0], "corner", 1.0)
    once = recognizer._suppress([(np.array([50.0, 60.0]), first, 8.0), (np.array([62.0, 60.0]), again, 13.4)], STRAIGHT_DOWN)
    assert once == [first]
    fanned = recognizer._suppress([(np.array([50.0, 60.0]), first, 8.0), (np.array([70.0, 82.0]), again, 8.5)], STRAIGHT_DOWN)
    assert fanned == [first, again]


#: Outlines of these tests are drawn at 1.6 px/mm, the camera looking straight down.
STRAIGHT_DOWN = Layout.scale(1.6)


@pytest.mark.parametrize("roll", [0, 90, 180])
@pytest.mark.parametrize("offset, reads", [
    ((21.7, 0.0), 2),  # two Bonus jacks of split hands laid a card step apart side by side (Pure 21.5 seed 21 round 22)
    ((16.0, 0.0), 2),  # the least step right ``[vision] fan_mm`` allows
    ((0.0, 28.0), 2),  # the least step down it allows
    ((12.0, 0.0), 1),  # nearer than an index patch's width: the index under it is covered, one card
    ((10.0, 20.0), 1),  # an index patch's width across and its height down, neither reached
])
def test_one_card_read_twice_is_two_cards_only_an_index_patch_apart_along_its_sides(deck, offset, reads, roll) -> None:
    """Two reads of one card within ``ON_READ`` are two cards when one lies at least an index patch's width
    across or its height down from the other, each card's index showing; nearer they are one. The same whatever
    the camera's roll: the card's sides are taken on the table, where the offset is."""
    from vision.recognizer import Read

    recognizer = Recognizer(deck)
    jack = parse_cards("JB")[0]
    turned = np.roll(_outlines((100, 100))[0], -2, axis=0)  # read from its lower right index corner
    under = Read(jack, _outlines((100, 100))[0], "corner", 1.0)
    top = Read(jack, turned + np.array(offset) * 1.6, "corner", 1.0)
    turn = np.array([[math.cos(math.radians(roll)), -math.sin(math.radians(roll))],
                     [math.sin(math.radians(roll)), math.cos(math.radians(roll))]])
    rolled = Layout.fit(STRAIGHT_DOWN.image_points @ turn.T + 1000.0, STRAIGHT_DOWN.table_points)
    under, top = (dataclasses.replace(r, polygon=r.polygon @ turn.T + 1000.0) for r in (under, top))
    kept = recognizer._suppress([(np.array([50.0, 60.0]) + offset, top, 8.0), (np.array([50.0, 60.0]), under, 8.5)],
                                rolled)
    assert len(kept) == reads and kept[0] is top


@pytest.mark.parametrize("card, strips, gainsaid, why", [
    ("3S", [{"3C": 8.4, "2C": 8.8, "2S": 27.8, "3S": 29.2}], True, "club pips beside a spade's index: every spade 351 further"),
    ("AS", [{"AH": 4.2, "AS": 9.0}], False, "an ace's ornament leans from the ace a little (31.7 further), no more"),
    ("3S", [{"3C": 20.0, "3S": 45.0}], False, "a strip like no card (nearest 20, beyond 16) says little: 812 further"),
    ("JH", [{"KH": 14.0, "JH": 84.3, "QH": 77.5}], True, "a king's picture beside the bare heart a jack's index shares"),
    ("9S", [{"4S": 9.0, "9S": 22.0}], False, "the top pips of a four beside a nine's index: same suit, 202 further"),
    ("QC", [{"QC": 89.1}], True, "a picture strip like no card (every card 30 off) and the queen far beyond: 3519 further"),
    ("QC", [{"QC": 89.1}, {"QC": 19.4}], False, "the same, but the other strip has the queen for its nearest card"),
])
def test_a_read_whose_strips_plainly_say_it_is_another_card_is_unreadable(deck, card, strips, gainsaid, why) -> None:
    """A card read from its looks alone (evidence 42, from 7.4 and 8.1 against 8.5 and 11.5), its strips
    heard last (``_gainsaid``): a close strip gainsays it when it puts the card's suit 150 further
    than its nearest card, or the card itself 500 further; when no strip has the card for its nearest,
    any strip that puts the card 1500 further."""
    recognizer = Recognizer(deck)
    twin = {"3S": "3C", "AS": "AC", "JH": "KH", "9S": "9C", "QC": "QS"}[card]
    looks = _rows(deck, {card: 7.4, twin: 8.5}, {card: 8.1, twin: 11.5})
    (found,) = recognizer._reads(True, looks, _outlines((100, 100), (200, 240)))
    assert found.read.card.code == card and len(found.heard) == 2
    (heard,) = recognizer._gainsaid([found], _strips(deck, *strips), FRAME)
    assert (heard.read.card is None and heard.read.guess.code == card) if gainsaid else heard.read is found.read, why


@pytest.mark.parametrize("far_strip, gainsaid", [("centre", False), ("top", True)])
def test_a_centre_like_no_card_does_not_gainsay_a_card_taken_for_one_lying_alone(deck, far_strip, gainsaid) -> None:
    """A guyenne five of diamonds taken for a card lying alone, another card over its middle (tuning, seed
    2027, frame 58): its pips beside the index lean a little from it (6.6 against 5.5, 4.7 against 1.8),
    its centre is 64 from every card and 85 from the five. So far from every card, the centre says
    nothing; a strip beside the index that far from the five still gainsays it."""
    recognizer = Recognizer(deck)
    looks = _rows(deck, {"5D": 7.4, "5H": 8.5}, {"5D": 8.1, "5H": 11.5})
    (found,) = recognizer._reads(True, looks, _outlines((100, 100), (200, 240)))
    codes = [c.code for c in deck.cards]
    rows = np.full((len(STRIPS), len(codes)), np.inf)
    rows[0], rows[1] = _rows(deck, {"4D": 5.5, "5D": 6.6}, {"AD": 1.8, "5D": 4.7})
    far = next(k for k, strip in enumerate(STRIPS) if strip.name == far_strip)
    rows[far] = 63.6
    rows[far, codes.index("5D")] = 85.4
    (heard,) = recognizer._gainsaid([found], lambda outlines, lone: np.broadcast_to(rows, (len(outlines), *rows.shape)).copy(),
                                    FRAME)
    assert (heard.read.card is None) == gainsaid


@pytest.mark.parametrize("alone, closest, frame, gainsaid", [
    (True, 7.4, FRAME, True), (False, 7.4, FRAME, False), (False, 30.0, FRAME, True), (False, 7.4, (150, 200), True),
])
def test_far_strips_gainsay_a_card_alone_read_from_a_far_look_or_leaving_the_frame(deck, alone, closest, frame,
                                                                                      gainsaid) -> None:
    """The picture strip of the queen of clubs like no card (every card 30 off, the queen 89.1): beside a card
    lying alone, whose strips all show, it says plainly that the card is not the queen; beside a card in a
    fan read from an index that looks closely like her, it says nothing, for the strips beside an index in a
    fan mostly lie under the next card; beside a fanned card read from a far look (one the index net
    confirmed), or one whose outline leaves the frame (its index may be a patch of what the frame cut off),
    it is heard."""
    recognizer = Recognizer(deck)
    looks = _rows(deck, {"QC": 7.4, "QS": 8.5}, {"QC": 8.1, "QS": 11.5})
    (found,) = recognizer._reads(alone, looks, _outlines((100, 100), (200, 240)))
    assert found.read.card.code == "QC" and found.read.visible == ("full" if alone else "corner")
    found = dataclasses.replace(found, closest=closest)
    (heard,) = recognizer._gainsaid([found], _strips(deck, {"QC": 89.1}), frame)
    assert (heard.read.card is None) == gainsaid


def test_a_read_whose_index_speaks_for_itself_is_not_gainsaid(deck) -> None:
    """Looks within 7 of the card, with twice the evidence a read needs, are not weighed against strips."""
    recognizer = Recognizer(deck)
    looks = _rows(deck, {"3S": 5.0, "3C": 13.0}, {"3S": 6.0, "3C": 12.0})
    (found,) = recognizer._reads(True, looks, _outlines((100, 100), (200, 240)))
    clubs = _strips(deck, {"3C": 8.4, "2C": 8.8, "2S": 27.8, "3S": 29.2})
    assert recognizer._gainsaid([found], clubs, FRAME) == [found]
    unsure = Recognizer(deck, settings=RecognizerSettings(gainsay_look=4.0))
    (found,) = unsure._reads(True, looks, _outlines((100, 100), (200, 240)))
    assert unsure._gainsaid([found], clubs, FRAME)[0].read.card is None


def test_a_joker_needs_two_corners_that_look_like_it(deck) -> None:
    recognizer = Recognizer(deck)
    look = {"JK": 10.0}
    once = recognizer._decide(False, _rows(deck, look), _outlines((100, 100)))
    assert once.card is None and once.guess.code == "JK"
    twice = recognizer._decide(False, _rows(deck, look, look), _outlines((100, 100), (200, 240)))
    assert twice.card is not None and twice.card.code == "JK"


def test_a_joker_under_another_card_is_read_from_one_corner_only_when_it_looks_like_no_card(deck) -> None:
    """A fanned joker shows one corner: named when that look is very close and every card twice as far
    (7 against 13 would pass 0.99 on the evidence alone)."""
    recognizer = Recognizer(deck)
    clear = recognizer._decide(False, _rows(deck, {"JK": 5.0}), _outlines((100, 100)))
    assert clear.card is not None and clear.card.code == "JK"
    loose = recognizer._decide(False, _rows(deck, {"JK": 10.0}), _outlines((100, 100)))
    assert loose.card is None and loose.guess.code == "JK"
    like_a_card = recognizer._decide(False, _rows(deck, {"JK": 7.0, "QS": 13.0}), _outlines((100, 100)))
    assert like_a_card.card is None


def test_a_joker_under_another_card_is_read_from_one_looser_corner_when_its_strips_show_the_joker(deck) -> None:
    """Seen frame 18 of the gnomangelo deck: a fanned joker's one look 8.5 off the joker, every card past
    40, its strips 10 and 8 off the joker's and past 60 from every card's. Strips that name another
    card, lie far from every card, or a look with a card under twice as far leave it unreadable."""
    recognizer = Recognizer(deck)
    look = _rows(deck, {"JK": 9.0})
    joker = _strips(deck, {"JK": 10.0, "2C": 61.0}, {"JK": 8.0, "JD": 85.0})
    read = recognizer._decide(False, look, _outlines((100, 100)), strips=joker)
    assert read.card is not None and read.card.code == "JK"
    dissent = _strips(deck, {"JK": 10.0, "2C": 61.0}, {"QS": 9.0, "JK": 14.0})
    far = _strips(deck, {"JK": 23.7, "4H": 83.9}, {"JK": 23.0})
    shared = _strips(deck, {"JK": 15.6, "AD": 18.5})
    for strips in (dissent, far, shared):
        unread = recognizer._decide(False, look, _outlines((100, 100)), strips=strips)
        assert unread.card is None and unread.guess.code == "JK"
    like_a_card = recognizer._decide(False, _rows(deck, {"JK": 9.0, "QS": 17.0}), _outlines((100, 100)), strips=joker)
    assert like_a_card.card is None


@pytest.mark.parametrize("guessed", [False, True])
def test_a_fanned_joker_whose_look_is_further_off_than_a_close_match_is_read_when_its_strips_show_the_joker(deck, guessed) -> None:
    """The benchmark's more frame 39 of the orell deck: a fanned joker's one look 17.8 off the joker, further
    than a close match, every card 71 or more; its top strip 9.0 off the joker's, its side strip 13.6,
    every card 40 or more. Read; unreadable, without a guess, when the strips do not show the joker
    (all far from every card, or one nearer another card), or a card lies under twice as far from the
    look."""
    recognizer = Recognizer(deck)
    found = np.array([guessed])
    look = _rows(deck, {"JK": 17.8}, others=71.0)
    joker = _strips(deck, {"JK": 9.0}, {"JK": 13.6}, others=40.0)
    read = recognizer._decide(False, look, _outlines((100, 100)), found, joker)
    assert read.card is not None and read.card.code == "JK" and read.confidence >= recognizer.settings.min_confidence
    far = _strips(deck, {"JK": 23.7, "4H": 83.9}, {"JK": 23.0})
    dissent = _strips(deck, {"JK": 10.0, "2C": 61.0}, {"QS": 9.0, "JK": 14.0})
    like_a_card = _rows(deck, {"JK": 17.8, "QS": 30.0}, others=71.0)
    for rows, strips in ((look, far), (look, dissent), (like_a_card, joker)):
        unread = recognizer._decide(False, rows, _outlines((100, 100)), found, strips)
        assert unread.card is None and unread.guess is None


def test_a_read_resting_on_a_weak_match_needs_a_clear_margin(deck) -> None:
    """Far from every card the Gaussian gap overstates the evidence (15.4 vs 18.6 would pass 0.99)."""
    recognizer = Recognizer(deck)
    weak = recognizer._decide(False, _rows(deck, {"8D": 15.4, "6D": 18.6}), _outlines((100, 100)))
    assert weak.card is None and weak.guess.code == "8D"
    clear = recognizer._decide(False, _rows(deck, {"8D": 13.0, "6D": 19.0}), _outlines((100, 100)))
    assert clear.card is not None and clear.card.code == "8D"


def test_a_weak_match_is_read_when_the_strips_rule_out_the_card_near_it(deck) -> None:
    """A six of hearts whose look is far from every card, the five near (15.4 against 18.6): the strips
    must rule out the five by themselves, as the look's own gap overstates the evidence."""
    recognizer = Recognizer(deck)
    look = _rows(deck, {"6H": 15.4, "5H": 18.6})
    read = recognizer._decide(False, look, _outlines((100, 100)), strips=_strips(deck, {"6H": 6.0, "5H": 15.0}))
    assert read.card is not None and read.card.code == "6H"
    shared = recognizer._decide(False, look, _outlines((100, 100)), strips=_strips(deck, {"6H": 6.0, "5H": 6.2, "QH": 15.0}))
    assert shared.card is None and shared.guess.code == "6H"


def test_a_strip_far_from_every_card_does_not_rule_out_the_cards_near_its_own(deck) -> None:
    """Tuning frame 17 (ancient_french): a nine of hearts under another card, its one look weak (the eight
    15.9, the nine 16.6). The top strip shows heart pips of any rank; the side strip, half covered, is
    far from every card and leans to the eight (15.8 against 18.0): the Gaussian evidence it gives is
    overstated as a weak look's is, and it read the nine as the eight. Where that strip looks closely
    like the eight, the eight is read."""
    recognizer = Recognizer(deck)
    look = _rows(deck, {"8H": 15.9, "9H": 16.6, "6H": 17.2, "4H": 19.3})
    top = {"4H": 10.2, "6H": 10.4, "5H": 10.5, "7H": 10.8, "8H": 11.1, "9H": 11.3}
    covered = recognizer._decide(False, look, _outlines((100, 100)), strips=_strips(deck, top, {"8H": 15.8, "TH": 16.1, "9H": 18.0}))
    assert covered.card is None and covered.guess.code == "8H"
    clear = recognizer._decide(False, look, _outlines((100, 100)), strips=_strips(deck, top, {"8H": 9.0, "9H": 13.0}))
    assert clear.card is not None and clear.card.code == "8H"


def _upright_card(recognizer: Recognizer, px_per_mm: float, top_left: tuple[float, float]) -> np.ndarray:
    w, h = recognizer.card_size.width_mm * px_per_mm, recognizer.card_size.height_mm * px_per_mm
    x, y = top_left
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def test_a_plain_corner_outlines_its_card_from_the_index_corner_beside_it(deck) -> None:
    """An upright card's top right corner is a plain corner: taken as an index corner it outlines a card
    lying across; taken as a plain corner, the card itself, from its top left index corner."""
    recognizer = Recognizer(deck)
    card = _upright_card(recognizer, 2.0, (300.0, 200.0))
    top_right = Corners(card[1][None], np.array([[-1.0, 0.0]]), np.array([[0.0, 1.0]]), np.array([40.0]), np.array([60.0]))
    width_px = recognizer.card_size.width_mm * 2.0
    across, _ = recognizer.hypotheses.outlines(top_right, Layout.scale(2.0), width_px)
    plain, ok = recognizer.hypotheses.outlines(top_right, Layout.scale(2.0), width_px, plain=True)
    assert ok.all() and np.abs(plain[0] - card).max() < 1e-6
    assert np.abs(across[0] - card).max() > 0.2 * width_px


def test_an_index_corner_is_guessed_only_on_the_cards_where_no_corner_was_found(deck) -> None:
    """A card lying on another: its index corner is white on white, not on the blob's outline."""
    recognizer = Recognizer(deck)
    card = _upright_card(recognizer, 2.0, (300.0, 200.0))
    width_px = recognizer.card_size.width_mm * 2.0
    filled = np.zeros((540, 960), np.uint8)
    cv2.fillConvexPoly(filled, np.round((card - (DOWNSCALE - 1) / 2) / DOWNSCALE).astype(np.int32), 255)
    outlines = np.stack([card, np.roll(card, 2, axis=0), card + 400.0])
    owner = np.array([0, 0, 0])
    corners, blob = _guessed_corners(outlines, owner, card[1:2], filled, 0.2 * width_px, 0.9)
    assert np.allclose(corners.point, card[[0, 2]]) and blob.tolist() == [0, 0]
    assert np.allclose(np.abs(corners.dir_a @ [1.0, 0.0]), 1.0)
    found_there, _ = _guessed_corners(outlines, owner, card[[0, 1]] + 5.0, filled, 0.2 * width_px, 0.9)
    assert np.allclose(found_there.point, card[[2]])


def test_a_read_resting_only_on_a_guessed_index_corner_needs_a_close_look(deck) -> None:
    """A guessed corner can lie on any card of a fan, and a patch of a face there can look somewhat
    like an index: a look 15 off the four of diamonds names it from a corner found, not from one guessed."""
    recognizer = Recognizer(deck)
    rows = _rows(deck, {"4D": 15.0, "9D": 24.6})
    found = recognizer._decide(False, rows, _outlines((100, 100)), np.array([False]))
    guessed = recognizer._decide(False, rows, _outlines((100, 100)), np.array([True]))
    close = recognizer._decide(False, _rows(deck, {"4D": 10.0, "9D": 24.6}), _outlines((100, 100)), np.array([True]))
    assert found.card is not None and found.card.code == "4D"
    assert guessed.card is None and guessed.guess.code == "4D"
    assert close.card is not None and close.card.code == "4D"


def test_a_guessed_index_corner_a_little_further_off_is_read_when_the_strips_beside_it_show_the_card(deck) -> None:
    """Tuning frame 8 of the tigullio deck: a queen of clubs whose one look, at a guessed corner, is
    12.1 off the queen (the king 25.1), its side strip 13.9 off the queen's and 42.5 from every other
    card's. Strips far from every card, or naming another card, leave it unreadable."""
    recognizer = Recognizer(deck)
    look = _rows(deck, {"QC": 12.1, "KC": 25.1})
    shown = _strips(deck, {"QC": 16.6, "KC": 43.9}, {"QC": 13.9, "KD": 42.5})
    read = recognizer._decide(False, look, _outlines((100, 100)), np.array([True]), shown)
    assert read.card is not None and read.card.code == "QC"
    for strips in (_strips(deck, {"QC": 20.0}), _strips(deck, {"QC": 13.9, "QS": 15.0}), _strips(deck, {"QC": 13.9}, {"KC": 9.0})):
        unread = recognizer._decide(False, look, _outlines((100, 100)), np.array([True]), strips)
        assert unread.card is None and unread.guess.code == "QC"


@pytest.mark.parametrize("guessed", [False, True])
def test_a_look_further_off_than_a_close_match_is_read_when_the_strips_beside_it_show_the_card(deck, guessed) -> None:
    """The benchmark's seen frame 81 of the paris deck: a queen of hearts in the middle of a fan, its one
    look 18.4 off the queen, further than a close match (``anchor_distance``), the ace of hearts 81.8 off;
    its side strip 15.2 off the queen. Read from a corner found or guessed when a strip shows the card
    (here 14.0 off it, every other card 30); unreadable, with no guess, when none does or one names
    another card; no card at all past ``evidence_distance``."""
    recognizer = Recognizer(deck)
    look, found = _rows(deck, {"QH": 18.4}), np.array([guessed])
    read = recognizer._decide(False, look, _outlines((100, 100)), found, _strips(deck, {"QH": 24.5}, {"QH": 14.0}))
    assert read.card is not None and read.card.code == "QH" and read.confidence >= recognizer.settings.min_confidence
    for strips in (None, _strips(deck, {"QH": 20.0}), _strips(deck, {"QH": 14.0}, {"KH": 9.0})):
        unread = recognizer._decide(False, look, _outlines((100, 100)), found, strips)
        assert unread.card is None and unread.guess is None
    assert recognizer._decide(False, _rows(deck, {"QH": 22.5}), _outlines((100, 100)), found, _strips(deck, {"QH": 14.0})) is None


@pytest.mark.parametrize(("name", "deck_index", "k", "code"), [
    ("aisleriot-paris", 1, 81, "QH"),
    ("aisleriot-anglo_modern", 0, 1, "5H"),
    # (the more orell frame 39's joker, pinned here too, is not reported under the whiteness mask)
])
def test_a_fanned_card_whose_index_looks_no_card_closely_is_read_from_the_strips_beside_it(name, deck_index, k, code) -> None:
    """The benchmark's frames (seed 2024) behind three unit tests here: the seen paris frame 81 (a queen of
    hearts whose side strip shows her), the more anglo_modern frame 1 (a five of hearts whose top pips
    show hearts), the more orell frame 39 (a joker whose look is 17.8 off). Each card is read; before
    each rule, no card was reported there."""
    scene, recognizer = _benchmark_scene(name, deck_index, k)
    truth = next(t for t in scene.truth if t.card.code == code)
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card


@pytest.mark.parametrize("guessed", [False, True])
def test_a_look_further_off_than_a_close_match_with_the_evidence_is_read_when_a_strip_shows_its_suit(deck, guessed) -> None:
    """The benchmark's more frame 1 of the anglo_modern deck: a five of hearts in a fan, its one look 16.2
    off the five, further than a close match, the nine of hearts 20.5 off (evidence 79, of the 36.8 a
    read needs); its top pips 7.7 off the five and 7.8 to 8.0 off the eight, nine and six of hearts.
    No strip shows the five itself (pips are shared by the ranks of a suit), but the top pips show
    hearts, every other suit twice as far: read. Unreadable, without a guess, when no strip shows the
    suit (the five of diamonds near too, or every strip far), when a close strip puts the five far
    beyond its nearest card, or when a card of the same suit lies near the look (a weak match whose
    rival the strips cannot rule out)."""
    recognizer = Recognizer(deck)
    found = np.array([guessed])
    look = _rows(deck, {"5H": 16.2, "9H": 20.5, "7H": 21.2, "6H": 21.7})
    hearts = {"5H": 7.7, "8H": 7.8, "9H": 7.9, "6H": 8.0}
    read = recognizer._decide(False, look, _outlines((100, 100)), found, _strips(deck, hearts))
    assert read.card is not None and read.card.code == "5H" and read.confidence >= recognizer.settings.min_confidence
    for strips in (_strips(deck, hearts | {"5D": 9.0}), _strips(deck, {"5H": 20.0}), _strips(deck, hearts, {"8H": 12.6, "5H": 27.2})):
        unread = recognizer._decide(False, look, _outlines((100, 100)), found, strips)
        assert unread.card is None and unread.guess is None
    near_six = _rows(deck, {"5H": 16.2, "6H": 19.0})
    unread = recognizer._decide(False, near_six, _outlines((100, 100)), found, _strips(deck, hearts))
    assert unread.card is None and unread.guess is None


def test_a_suit_strip_that_puts_every_card_of_the_suit_as_near_names_no_other_card(deck) -> None:
    """The queen of clubs above, its suit strip beside: every club 5.0 off (the suit strip speaks to the
    suit only), which shows no other card. One that puts the spades nearer dissents."""
    recognizer = Recognizer(deck)
    look = _rows(deck, {"QC": 12.1, "KC": 25.1})
    pips = [{"QC": 16.6, "KC": 43.9}, {"QC": 13.9, "KD": 42.5}]
    clubs = {card.code: 5.0 for card in deck.cards if card.suit == parse_cards("QC")[0].suit}
    spades = {card.code: 5.0 for card in deck.cards if card.suit == parse_cards("QS")[0].suit} | {"QC": 9.0}
    read = recognizer._decide(False, look, _outlines((100, 100)), np.array([True]), _strips(deck, *pips, clubs))
    assert read.card is not None and read.card.code == "QC"
    unread = recognizer._decide(False, look, _outlines((100, 100)), np.array([True]), _strips(deck, *pips, spades))
    assert unread.card is None and unread.guess.code == "QC"


def test_a_card_whose_index_corner_lies_on_the_card_below_is_read_from_the_corner_guessed_beside_a_plain_one(faces, deck) -> None:
    """A scene of the benchmark's kind (ten cards, seed 5/181): the six of diamonds lies on another card,
    so its one clear index corner is white on white, off the blob's outline, and no corner is found
    there. Its plain corners are found, and the index corner beside them is guessed."""
    rng = np.random.default_rng([5, 181])
    camera = Camera.overhead(rng)
    cards = list(rng.permutation(np.array(sorted(faces), dtype=object))[: int(rng.integers(6, 12))])
    scene = SceneRenderer(faces, camera).render(random_placements(cards, rng), rng)
    truth = next(t for t in scene.truth if t.card.code == "6D")
    read = _nearest(Recognizer(deck, camera.layout()).read(scene.frame), truth.polygon)
    assert np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card and read.visible == "corner"


def test_a_fanned_card_whose_look_leans_to_its_twin_is_not_read_as_the_twin_at_a_pose_fitted_to_it() -> None:
    """The benchmark's tuning frame 4 of the guyenne deck, whose court indices are a bare suit symbol:
    a king of hearts under another card looks like the jack (9.6) a little more than like itself
    (11.5). Slid against the jack's look alone, it read JH at 8.4 against KH at 14.4; judged each
    at the pose that suits it, the look ties the two (9.6 against 9.9) and names neither. The strips
    beside the index show the king's picture (10.7 and 14.0 off the king's, past 75 from the jack's),
    and it was read as the king. Since a look is slid against its five nearest cards (6712dc6), a
    second look of the card, slid onto the king of diamonds' bare diamond (11.8), quarrels with the
    first, and the king is not reported: one card lost, but never the jack."""
    scene, recognizer = _benchmark_scene("aisleriot-guyenne-classic", 2, 4)
    reads = recognizer.read(scene.frame)
    truth = next(t for t in scene.truth if t.card.code == "KH")
    assert truth.visible == "corner"
    near = [r for r in reads if np.linalg.norm(quad_center(r.polygon) - quad_center(truth.polygon)) < 30.0]
    assert all(r.card is None or r.card.code == "KH" for r in near)


def test_a_look_that_ties_two_cards_takes_neither_side(deck) -> None:
    """One look all but equally like the jack and the king of hearts (9.6 against 9.9): the strips beside
    it name either card when they rule out the other by themselves, and neither when they cannot."""
    recognizer = Recognizer(deck)
    look = _rows(deck, {"JH": 9.6, "KH": 9.9})
    king = recognizer._decide(False, look, _outlines((100, 100)), strips=_strips(deck, {"KH": 10.7, "AS": 81.0}, {"KH": 14.0}))
    jack = recognizer._decide(False, look, _outlines((100, 100)), strips=_strips(deck, {"JH": 10.7, "AS": 81.0}, {"JH": 14.0}))
    both = recognizer._decide(False, look, _outlines((100, 100)), strips=_strips(deck, {"KH": 10.7, "JH": 11.0}))
    alone = recognizer._decide(False, look, _outlines((100, 100)))
    assert king.card is not None and king.card.code == "KH"
    assert jack.card is not None and jack.card.code == "JH"
    assert both.card is None and alone.card is None and alone.guess.code == "JH"
    leaning = recognizer._decide(False, _rows(deck, {"JH": 9.6, "KH": 11.0}), _outlines((100, 100)),
                                 strips=_strips(deck, {"KH": 10.7, "AS": 81.0}, {"KH": 14.0}))
    assert leaning.card is None and leaning.guess.code == "JH"


def test_a_fanned_card_whose_fitted_pose_turned_it_into_another_card_is_judged_at_each_cards_own_pose() -> None:
    """The benchmark's tuning frame 25 of the guyenne deck, whose court indices are a bare heart: a king
    of hearts under another card, its outline taken a pixel and 0.8 degrees off the truth. As found it
    is nearest the king; slid onto the jack's look it reads JH 8.2 against KH 16.0. Judged each at the
    pose tried that suits it, the king is at 10.8: too near for the jack to be named."""
    scene, recognizer = _benchmark_scene("aisleriot-guyenne-classic", 2, 25)
    truth = next(t for t in scene.truth if t.card.code == "KH")
    a = np.radians(-0.78)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = (truth.polygon - truth.polygon[0]) @ turn.T + truth.polygon[0] + (0.8, 0.6)
    width = recognizer.card_size.width_mm * recognizer.layout.px_per_mm((960.0, 540.0))
    judged, each_own, *_ = recognizer.reader.distances(scene.frame, half_size(scene.frame), quad[None], np.array([0]), width)
    codes = [card.code for card in recognizer.deck.cards]
    jack, king = codes.index("JH"), codes.index("KH")
    assert truth.visible == "corner" and judged[0].argmin() == jack and judged[0, king] > 12.0
    assert (each_own[0, king] ** 2 - each_own[0, jack] ** 2) / 2 < evidence_needed(recognizer.settings.min_confidence)


def test_a_fanned_card_its_index_cannot_tell_from_its_suit_twin_is_read_from_the_pips_beside_it() -> None:
    """The benchmark's seen frame 0 of the anglo deck: a two of spades under another card, its one look
    at 4.5 from the two of spades and 9.1 from the two of clubs (evidence 31 of the 36.8 needed). The
    top strip beside its index shows a spade pip: 10.5 from the two of spades', over 32 from the two
    of clubs'."""
    scene, recognizer = _benchmark_scene("aisleriot-anglo", 0, 0)
    truth = next(t for t in scene.truth if t.card.code == "2S")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card and read.visible == "corner"
    # (Under the hue mask its look alone fell short of the evidence; the whiteness mask's outline gives it
    # enough, so this frame no longer shows that the strips were needed.)


def test_a_card_its_looks_leave_unreadable_is_read_when_the_index_net_names_it_too() -> None:
    """The same two of spades, its strips left out, asked for 0.995 of evidence: its one look points to it
    without the evidence a read needs (0.988), and the index net, which reads the region of its index on
    its own, names it too. (Under the whiteness mask its look gives 0.991, enough for the default 0.99.)"""
    scene, recognizer = _benchmark_scene("aisleriot-anglo", 0, 0)
    truth = next(t for t in scene.truth if t.card.code == "2S")
    index_only = dataclasses.replace(recognizer.deck, strips=(), layouts=())
    strict = RecognizerSettings(min_confidence=0.995)
    without_net = dataclasses.replace(strict, net_confirm=None)
    assert _nearest(Recognizer(index_only, recognizer.layout, without_net).read(scene.frame), truth.polygon).card is None
    read = _nearest(Recognizer(index_only, recognizer.layout, strict).read(scene.frame), truth.polygon)
    assert read.card == truth.card and read.confidence >= strict.min_confidence


def test_an_aces_corner_its_index_cannot_tell_from_its_twin_is_read_from_its_suit_symbol() -> None:
    """The benchmark's seen frame 4 of the anglo deck: an ace of spades under another card. An ace has
    no pips beside its index; the suit strip, the suit symbol under the "A" read finer than the index
    patch reads it, tells the spade from the club."""
    scene, recognizer = _benchmark_scene("aisleriot-anglo", 0, 4)
    truth = next(t for t in scene.truth if t.card.code == "AS")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card
    without = Recognizer(dataclasses.replace(recognizer.deck, strips=recognizer.deck.strips[:2]), recognizer.layout, WITHOUT_NET)
    unread = _nearest(without.read(scene.frame), truth.polygon)
    assert unread.card is None and unread.guess == truth.card


def _suit(deck, code: str, own: float, other: float) -> dict[str, float]:
    """A suit strip's row: every card of ``code``'s suit ``own`` off, every other card ``other``."""
    suit = parse_cards(code)[0].suit
    return {card.code: own if card.suit == suit else other for card in deck.cards}


@pytest.mark.parametrize("look, suit, read_as", [
    ({"AS": 8.5, "AC": 11.3}, (10.4, 16.4), "AS"),
    ({"AS": 8.5, "AC": 11.3}, (16.6, 20.6), None),  # the suit strip not a close match
    ({"AS": 8.5, "AC": 11.3}, (15.3, 15.5), None),  # the suit strip cannot tell the suits either
    ({"AS": 8.5, "AC": 11.3, "4S": 10.9}, (10.4, 16.4), None),  # the look leaves a card of another rank open
])
def test_a_look_that_leaves_only_its_suit_twin_open_is_read_when_the_suit_strip_tells_the_suit(deck, look, suit, read_as) -> None:
    """The benchmark's seen frame 7 of the anglo deck (seed 2024): an ace of spades under another card,
    its one look 8.5 off the spade and 11.3 off the club (evidence 27.7 of the 36.8 a read needs), every
    other rank far. Its suit strip, 10.4 off the spades and 16.4 off every other suit (evidence 80),
    tells the suit; its top strip, blank card, puts the ace of clubs at 14.0 and the spade at 18.4,
    which pooled with the others leaves it unreadable."""
    recognizer = Recognizer(deck)
    blank = {"AC": 14.0, "AD": 14.3, "AH": 17.1, "AS": 18.4}
    side = {"3C": 18.2, "3S": 19.1, "AS": 19.4, "AC": 19.6}
    strips = _strips(deck, blank, side, _suit(deck, "AS", *suit))
    read = recognizer._decide(False, _rows(deck, look), _outlines((100, 100)), strips=strips)
    assert (read.card.code if read.card else None) == read_as
    if read_as is None:
        assert read.guess.code == "AS"
    else:
        assert read.confidence >= recognizer.settings.min_confidence


def test_an_aces_corner_whose_blank_strips_lean_to_its_twin_is_read_from_its_suit_symbol() -> None:
    """The benchmark's seen frame 7 of the anglo deck, the ace of spades above: read from its suit strip.
    Heard only as one strip among the others beside its index, it was unreadable."""
    scene, recognizer = _benchmark_scene("aisleriot-anglo", 0, 7)
    truth = next(t for t in scene.truth if t.card.code == "AS")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card


def test_the_suit_strip_is_read_where_the_index_was_fitted(monkeypatch) -> None:
    """The benchmark's seen frame 4 of the gnomangelo deck: an ace of spades under another card, its
    corner's outline a few pixels off the index. Its suit strip, read at the outline, does not tell
    the spade from the club; read at the pose the index was slid to, it does."""
    scene, recognizer = _benchmark_scene("aisleriot-gnomangelo", 2, 4)
    truth = next(t for t in scene.truth if t.card.code == "AS")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and read.card == truth.card
    monkeypatch.setattr(recognizer_module._FrameStrips, "fitted", lambda self, outlines, poses: None)
    unread = _nearest(Recognizer(recognizer.deck, recognizer.layout, WITHOUT_NET).read(scene.frame), truth.polygon)
    assert unread.card is None and unread.guess == truth.card


@pytest.mark.parametrize("name, deck_index, k, seed, code, wrong", [
    # (orell's three of clubs, seed 2026 frame 52, was pinned here too: under the whiteness mask its looks
    # no longer lean to the three of spades, so it shows the rule nothing)
    ("aisleriot-tigullio", 6, 39, 2026, "TS", "TC"),
])
def test_the_pips_beside_an_index_gainsay_a_suit_twin_it_leans_to(name, deck_index, k, seed, code, wrong) -> None:
    """Fresh frames (seed 2026): an orell three of clubs lying alone, both corners' looks leaning to the
    three of spades (7.4 against 8.5, 8.1 against 11.5: evidence 42), its top strip showing club pips
    (8.4 from the three of clubs, 27.8 from the nearest spade); a tigullio ten of spades in a fan whose
    one look names the ten of clubs (10.2 against 14.3), its top strip 6.7 from the ten of spades and
    19.6 from the ten of clubs. Heard last, the pips gainsay the read; without them it is wrong."""
    scene, recognizer = _benchmark_scene(name, deck_index, k, seed=seed)
    truth = next(t for t in scene.truth if t.card.code == code)
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert read.card in (None, truth.card)
    deaf = Recognizer(recognizer.deck, recognizer.layout, RecognizerSettings(gainsay_suit=np.inf, gainsay_card=np.inf))
    misread = _nearest(deaf.read(scene.frame), truth.polygon)
    assert misread.card is not None and misread.card.code == wrong


def test_a_guyenne_queen_read_from_a_club_pip_is_gainsaid_by_a_strip_like_no_card() -> None:
    """Fresh frame 11 of the guyenne deck (seed 2028), which holds no queen of clubs: a look at a club pip is
    14.7 from the queen (whose index is a bare club), the king of hearts at 22.0. Its strips look like no
    card closely (the picture strip 61.4 from the nearest card), but put the queen 89.1 off: gainsaid."""
    scene, recognizer = _benchmark_scene("aisleriot-guyenne-classic", 2, 11, seed=2028)
    assert all(t.card.code != "QC" for t in scene.truth)
    assert all(r.card is None or r.card.code != "QC" for r in recognizer.read(scene.frame))
    # (Without the rule the queen was read here under the hue mask; under the whiteness mask the club pip's
    # outline no longer reaches the queen's look, and the rule is not needed in this frame.)


def test_a_guyenne_king_read_again_from_a_pip_beside_it_is_reported_once() -> None:
    """Fresh frame 58 of the guyenne deck (seed 2025): a king of diamonds at the end of a fan is read at its
    corner and again from a diamond pip of the eight under it, the outlines 19 px apart (12 mm, more
    than a fifth of a card's width): one card, reported once."""
    scene, recognizer = _benchmark_scene("aisleriot-guyenne-classic", 2, 58, seed=2025)
    kings = [r for r in recognizer.read(scene.frame) if r.card is not None and r.card.code == "KD"]
    assert len(kings) <= 1  # (under the whiteness mask the king is not read in this frame at all)
    truth = next(t for t in scene.truth if t.card.code == "KD")
    assert all(np.linalg.norm(quad_center(k.polygon) - quad_center(truth.polygon)) < 5.0 for k in kings)


def test_a_fanned_eight_its_index_cannot_tell_from_the_six_and_nine_is_read_with_its_rank_seen_finer() -> None:
    """The benchmark's seen frame 72 of the anglo deck: an eight of hearts under another card, its one look a
    weak match (12.5 off the eight, the six 15.0, the nine 15.4), which leaves the strips to rule out both.
    Its pips do not tell the eight from the nine; its rank strip, 15.0 from every eight and further from
    the sixes and nines, does. Without the rank strip it was unreadable."""
    scene, recognizer = _benchmark_scene("aisleriot-anglo", 0, 72)
    truth = next(t for t in scene.truth if t.card.code == "8H")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card

def test_the_suit_strip_names_no_suit_it_shows_only_at_one_pose(monkeypatch) -> None:
    """The tuning frame 24 of the anglo_poker deck at seed 2025: an ace of clubs under another card whose
    index leans to the ace of spades (10.2 against 10.8). At its fitted pose the suit strip puts the
    spades at 10.3 and the clubs at 14.2; a pixel and a half away, where the index fits the look of
    either ace best, at 16.4 and 16.3. Heard only for what it says within a pixel of the pose, it does
    not name the spade."""
    import vision.strip_reader as strip_reader_module

    scene, recognizer = _benchmark_scene("aisleriot-anglo_poker", 1, 24, seed=2025)
    truth = next(t for t in scene.truth if t.card.code == "AC")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and read.card in (None, truth.card)
    monkeypatch.setattr(strip_reader_module, "SUIT_POSE_SLACK", 0.0)
    wrong = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert wrong.card is not None and wrong.card.code == "AS"


def _turned_about(quad: np.ndarray, vertex: int, degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (quad - quad[vertex]) @ turn.T + quad[vertex]


def test_a_cards_two_plain_corners_found_outline_it_together_better_than_either_alone() -> None:
    """Each plain corner's outline takes its angle from that corner's short edges: 3 degrees off, its far
    corners lie 7 px off. The two corners lie across the card's diagonal, which fixes the card."""
    size, px_per_mm = CardSize(), 1.6
    layout = Layout.scale(px_per_mm)
    truth = _turned_about(np.array([[300.0, 200.0], [300 + 63 * px_per_mm, 200], [300 + 63 * px_per_mm, 200 + 88 * px_per_mm],
                                    [300, 200 + 88 * px_per_mm]]), 0, 20.0)
    from_top_right = _turned_about(truth, 1, 3.0)
    from_bottom_left = np.roll(_turned_about(truth, 3, -3.0), 2, axis=0)
    outlines = np.stack([from_top_right, from_bottom_left])
    assert np.abs(outlines[0] - truth).max() > 6.0
    paired, which = _paired_plain(outlines, np.array([0, 0]), layout, size, 25.0)
    assert which.tolist() == [True, True]
    assert np.abs(paired[0] - truth).max() < 0.5 and np.abs(paired[1] - np.roll(truth, 2, axis=0)).max() < 0.5
    other_blobs, _ = _paired_plain(outlines, np.array([0, 1]), layout, size, 25.0)
    assert np.array_equal(other_blobs, outlines)
    squeezed = outlines.copy()
    squeezed[1] = squeezed[1] + (truth[1] - truth[3]) * 0.07
    assert not _paired_plain(squeezed, np.array([0, 0]), layout, size, 25.0)[1].any()


def test_a_fanned_card_whose_index_corner_was_found_off_is_read_at_the_pose_its_plain_corners_give(monkeypatch) -> None:
    """The benchmark's seen frame 13 of the ornamental deck: a ten of clubs under another card, left
    unreadable by the looks at the corners found near its index (at best 15.2 from the ten of clubs,
    16.5 from the ten of spades). Both its plain corners are found, and at the outline they give
    together its look is 7.6 from the ten of clubs: it is read. (Frame 20's jack of spades, pinned here
    before, is read without the pair since the suit strip.)"""
    scene, recognizer = _benchmark_scene("aisleriot-ornamental", 3, 13)
    truth = next(t for t in scene.truth if t.card.code == "TC")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card
    # (Under the hue mask the card was read only at the pair's pose; under the whiteness mask its corner is
    # found closer, and it is read without the pair too.)


def test_a_pose_its_plain_corners_give_is_a_fitted_pose_against_which_a_look_can_turn(monkeypatch) -> None:
    """The benchmark's tuning frame 33 of the guyenne deck, whose king and jack of hearts show the same
    bare heart for an index: a king under another card, its index corner found. With the pose its
    plain corners give added however near (no ``POSE_APART``), that pose leans to the jack. Taken as a
    pose tried, not one as found, the look is turned and each card judged at its own pose: never the
    jack."""
    monkeypatch.setattr(hypotheses_module, "POSE_APART", 0.0)
    scene, recognizer = _benchmark_scene("aisleriot-guyenne-classic", 2, 33)
    truth = next(t for t in scene.truth if t.card.code == "KH")
    near = [r for r in recognizer.read(scene.frame) if np.linalg.norm(quad_center(r.polygon) - quad_center(truth.polygon)) < 30]
    assert truth.visible == "corner" and all(r.card in (None, truth.card) for r in near)


def test_a_fanned_card_lying_on_green_artwork_is_read_once_the_masks_gaps_are_bridged(monkeypatch) -> None:
    """The benchmark's tuning frame 37 of the guyenne deck: an ace of clubs and a king of spades lie in a
    fan on cards whose green coats the mask takes for cloth, open to the felt. Without bridging those
    gaps their outlines seem to stick out of their blob and neither card is reported."""
    scene, recognizer = _benchmark_scene("aisleriot-guyenne-classic", 2, 37)
    fanned = [t for t in scene.truth if t.card.code in ("AC", "KS")]
    assert [t.visible for t in fanned] == ["corner", "corner"]
    reads = recognizer.read(scene.frame)
    ace = fanned[0]
    read = _nearest(reads, ace.polygon)
    assert np.linalg.norm(quad_center(read.polygon) - quad_center(ace.polygon)) < 10.0 and read.card == ace.card
    for truth in fanned:  # (the king is not reported under the whiteness mask; nothing is read wrong)
        assert all(r.card in (None, truth.card) for r in reads
                   if np.linalg.norm(quad_center(r.polygon) - quad_center(truth.polygon)) < 10.0)
    # (Under the hue mask the green coats opened the mask onto the felt, and without bridging the ace was not
    # reported; the whiteness mask fills them as holes, and it is reported either way.)


def test_the_middle_card_of_a_fan_no_corner_outlines_is_read_half_way_between_the_cards_either_side(monkeypatch) -> None:
    """The benchmark's seen frame 3 of the gnomangelo deck: a three of diamonds in the middle of a fan of
    three. No corner of it is found that outlines it, and it was not reported at all. The cards either
    side are read; half way between them, turned between their angles and snapped, its index corner
    reads the three of diamonds."""
    scene, recognizer = _benchmark_scene("aisleriot-gnomangelo", 2, 3)
    truth = next(t for t in scene.truth if t.card.code == "3D")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card and read.visible == "corner"
    # (Under the hue mask no corner of it was found and only the gap read it; the whiteness mask finds one.)


def test_a_fan_gaps_look_may_lie_as_far_from_its_card_as_a_corner_founds_but_needs_a_guesss_confidence() -> None:
    """The benchmark's seen frame 27 of the paris deck: a queen of hearts in the middle of a fan, read
    only at the gap between its neighbours, its closest look 14.8 from the queen. A guessed index
    corner's look must lie within 12 (``guessed_anchor``); a gap's, tried only where two cards read
    leave room for one, within 16 (``gap_anchor``), as a corner found's."""
    scene, recognizer = _benchmark_scene("aisleriot-paris", 1, 27)
    recognizer = _without_glyphs(recognizer)  # its glyphs find its index corner now: the gap alone is tried here
    truth = next(t for t in scene.truth if t.card.code == "QH")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card and read.confidence >= recognizer.settings.guessed_confidence
    # (Under the hue mask a gap anchor of 12 left it unreadable; the whiteness mask's outlines read it closer.)


def test_the_two_middle_cards_of_a_fan_of_four_are_guessed_at_the_thirds_between_its_outer_cards(monkeypatch) -> None:
    """The benchmark's seen frame 21 of the ornamental deck: a fan of four whose two middle cards, a four
    of spades and an ace of hearts, are not reported at all. Guessed at the thirds between the outer
    two, the ace is read (the four's looks do not name it closely enough: unreadable)."""
    scene, recognizer = _benchmark_scene("aisleriot-ornamental", 3, 21)
    truth = next(t for t in scene.truth if t.card.code == "AH")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card
    # (Under the hue mask only the thirds found it; the whiteness mask finds a corner of its own.)


def test_an_unreadable_outline_lying_on_a_card_read_does_not_gainsay_a_fan_gap() -> None:
    """The benchmark's seen frame 1 of the ornamental deck: a two of clubs in the middle of a fan, its
    corner found read unreadable (14.5 from the two of clubs). The gap between its neighbours reads it
    (7.9). An unreadable outline centred 16 px from the five of spades read beside it, its patches
    pointing to the five of clubs, is another look at the five of spades, never reported: it does not
    gainsay the gap (a card reported unreadable there, pointing to another card, would)."""
    scene, recognizer = _benchmark_scene("aisleriot-ornamental", 3, 1)
    truth = next(t for t in scene.truth if t.card.code == "2C")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "corner" and np.linalg.norm(quad_center(read.polygon) - quad_center(truth.polygon)) < 10.0
    assert read.card == truth.card


def _without_glyphs(recognizer: Recognizer) -> Recognizer:
    """The same recognizer without the index corners glyphs give (``vision.glyphs``): a test of another way
    of finding a card must not find it that way."""
    return Recognizer(dataclasses.replace(recognizer.deck, layouts=()), recognizer.layout, recognizer.settings)


def _benchmark_scene(name: str, deck_index: int, k: int, seed: int = 2024) -> tuple[Scene, Recognizer]:
    """Frame ``k`` of deck ``name``, the ``deck_index``-th of its group in ``benchmarks/vision.py`` (run with
    ``--seed seed``), and the recognizer it is read with."""
    from tests.vision.conftest import artwork_or_skip
    from vision.enroll import enrol_artwork

    faces = artwork_or_skip(name)
    rng = np.random.default_rng([seed, deck_index, k])
    camera = Camera.overhead(rng)
    cards = list(rng.permutation(np.array(sorted(faces), dtype=object))[: int(rng.integers(6, 21))])
    scene = SceneRenderer(faces, camera).render(random_placements(cards, rng), rng)
    # enrol_artwork is enrol_faces(name, render_deck(name)) cached on disk: each deck is enrolled once per
    # run rather than once per test (up to a minute of CPU each).
    return scene, Recognizer(enrol_artwork(name), camera.layout())


def test_a_lone_ace_whose_index_leans_to_its_suit_twin_is_gainsaid_by_the_centre_of_its_face() -> None:
    """Fresh frame 47 of the anglo deck (seed 2033): an ace of clubs lying alone, both corners' looks leaning
    to the ace of spades (9.0 against 12.3, 6.8 against 9.2), its suit strips too (9.9 against 13.7):
    read as the ace of spades, the ornament beside its index saying nothing plainly. Its centre, a large
    club, gainsays the spade."""
    scene, recognizer = _benchmark_scene("aisleriot-anglo", 0, 47, seed=2033)
    truth = next(t for t in scene.truth if t.card.code == "AC")
    read = _nearest(recognizer.read(scene.frame), truth.polygon)
    assert truth.visible == "full" and read.card in (None, truth.card)


def test_frames_no_table_camera_sends_read_as_no_card_without_a_fault(deck, monkeypatch) -> None:
    """A broken camera's frames: too small to hold a card, a striped cloth (its stripes blobs too thin for an index,
    not searched for glyphs: their every pair of marks took seconds), noise. None is a card, none a fault."""
    searched = []
    real = recognizer_module.glyph_corners
    monkeypatch.setattr(recognizer_module, "glyph_corners", lambda marks, *a, **k: searched.append(1) or real(marks, *a, **k))
    recognizer = Recognizer(deck, Camera.overhead().layout())
    stripes = np.tile((np.arange(1920) // 7 % 2 * 255).astype(np.uint8)[None, :, None], (1080, 1, 3))
    for frame in (np.zeros((1, 1, 3), np.uint8), np.full((20, 3000, 3), 200, np.uint8), stripes):
        assert recognizer.read(np.ascontiguousarray(frame)) == []
    assert len(searched) < 5, f"{len(searched)} blobs of a striped cloth searched for glyphs: each stripe"
    noise = np.random.default_rng(1).integers(0, 256, (270, 480, 3), dtype=np.uint8)
    assert all(read.card is None for read in recognizer.read(cv2.resize(noise, (1920, 1080))))
    assert recognizer.failures == 0


@pytest.mark.parametrize("side", ["top right", "bottom left"])
@pytest.mark.parametrize("phantom_first", [True, False])
def test_a_four_index_card_read_again_from_its_side_index_is_one_card_at_its_own_outline(deck, side, phantom_first) -> None:
    """A four-index deck prints the index at the top right and bottom left too. Read there, as an index corner, the
    card's outline is laid 0.77 card widths on along its own width (the top-right index's look stands as the top
    left one does, the bottom-left one as the bottom-right one): of the two reads, the one at the card's own outline
    is kept, whichever fits closer. A deck that prints two indexes keeps both: two cards of a shoe side by side."""
    from vision.recognizer import Read

    king = parse_cards("KD")[0]
    upright = _outlines((100, 100))[0]  # 100 x 140 px, read from its top-left index
    turned = np.roll(upright, -2, axis=0)  # the same card read from its bottom-right index
    true = upright if side == "top right" else turned
    own_width = (true[1] - true[0]) / np.linalg.norm(true[1] - true[0])
    phantom = true + 0.77 * 100 * own_width  # the side index's look outlines the card ahead along its width
    reads = [Read(king, true, "corner", 1.0), Read(king, phantom, "corner", 1.0)]
    decided = [(quad_center(r.polygon) / 1.6, r, fit) for r, fit in zip(reads, (8.5, 8.0) if phantom_first else (8.0, 8.5))]
    four = Recognizer(dataclasses.replace(deck, side_index=True))
    assert four._suppress(list(decided), STRAIGHT_DOWN) == [reads[0]]
    assert len(Recognizer(deck)._suppress(list(decided), STRAIGHT_DOWN)) == 2
    # two kings of a shoe a card step apart down a fan are still two
    fanned = [(quad_center(r.polygon) / 1.6, r, 8.0) for r in (reads[0], Read(king, true + [0.0, 45.0], "corner", 1.0))]
    assert len(four._suppress(fanned, STRAIGHT_DOWN)) == 2
