"""Enrolled decks: matching a card's own corner, saving and loading, restricting to a deck kind."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cards import Card, no_face_deck, parse_cards
from tests.vision.conftest import DECK, artwork_or_skip
from vision.geometry import rotate_quad, sample_patch
from vision.templates import (
    INDEX_SIZE,
    MIN_INDEX_SEPARATION,
    TWIN_SEPARATION,
    DeckTemplates,
    TemplateError,
    enrol_faces,
    features,
)


def _index_patch(face: np.ndarray, corner: int) -> np.ndarray:
    face = cv2.resize(face, None, fx=0.42, fy=0.42, interpolation=cv2.INTER_AREA)  # cards about as large as in a frame
    h, w = face.shape[:2]
    quad = rotate_quad(np.array([[0, 0], [w, 0], [w, h], [0, h]], float), corner)
    return sample_patch(face[:, :, :3], quad, INDEX_SIZE)


@pytest.mark.parametrize("code", ["AS", "6S", "9H", "TD", "QC", "JK"])
def test_each_index_corner_of_a_card_reads_as_that_card(deck: DeckTemplates, faces: dict, code: str) -> None:
    card = Card.parse(code)
    patches = [_index_patch(faces[card], 0), _index_patch(faces[card], 2)]
    for match in deck.match_index(features(np.stack(patches))):
        assert match.card is card
        assert match.runner_up > match.distance


def test_a_blank_patch_matches_no_card(deck: DeckTemplates) -> None:
    blank = np.full((INDEX_SIZE[1], INDEX_SIZE[0], 3), 250, np.uint8)
    assert deck.match_index(features(np.stack([blank])))[0].card is None


def test_a_deck_survives_saving_and_loading_to_the_bit(faces: dict, tmp_path: Path) -> None:
    """A deck read from its file must read every frame as the deck just enrolled did: a test lab repeats runs.
    (The ``deck`` fixture may itself come from a file, so the deck here is enrolled afresh.)"""
    deck = enrol_faces(DECK, faces)
    deck.save(tmp_path / "deck.npz")
    again = DeckTemplates.load(tmp_path / "deck.npz")
    assert again.cards == deck.cards and again.name == deck.name and again.aspect == deck.aspect
    arrays = ("index_mean", "index_projection", "index_centers", "background", "index_looks")
    for name in arrays:
        loaded, enrolled = getattr(again, name), getattr(deck, name)
        assert loaded.dtype == enrolled.dtype and np.array_equal(loaded, enrolled), name
    assert len(again.strips) == len(deck.strips) == 5
    for loaded_strip, enrolled_strip in zip(again.strips, deck.strips):
        for part in ("mean", "projection", "centers"):
            loaded, enrolled = getattr(loaded_strip, part), getattr(enrolled_strip, part)
            assert loaded.dtype == enrolled.dtype and np.array_equal(loaded, enrolled), part


def test_a_deck_whose_index_lies_at_the_top_right_is_refused_at_enrolment(faces: dict) -> None:
    """A deck printed for the other hand: every card's top-left and bottom-right corners hold no index, so the
    cards are not told apart there, and reading it would name one card for another."""
    mirrored = {card: cv2.flip(face, 1) for card, face in faces.items()}
    with pytest.raises(TemplateError, match=r"'mirrored' cannot be read from its index corners: \d+ of \d+ cards .* print "
                                            r"their index at the top right"):
        enrol_faces("mirrored", mirrored)


def test_kde_oxygen_decks_rank_and_suit_in_two_corners_are_refused_at_enrolment() -> None:
    """KDE's oxygen-white prints the rank at the top right and the suit at the top left: its sixes and
    eights of a suit are alike at the top-left corner. Read unrefused, it named cards wrong dozens of times."""
    oxygen = artwork_or_skip("kde-oxygen-white")
    with pytest.raises(TemplateError, match="'kde-oxygen-white' cannot be read from its index corners"):
        enrol_faces("kde-oxygen-white", oxygen)


def _moved_beside(centers: np.ndarray, deck: DeckTemplates, pairs: list[tuple[str, str]], apart: float) -> np.ndarray:
    """Index centres with the second card of each pair moved ``apart`` from the first."""
    moved = centers.copy()
    for first, second in pairs:
        i, j = deck.cards.index(Card.parse(first)), deck.cards.index(Card.parse(second))
        moved[j] = moved[i] + apart / np.sqrt(centers.shape[1])
    return moved


def test_a_deck_file_many_of_whose_cards_look_alike_is_refused(deck: DeckTemplates, tmp_path: Path) -> None:
    deck.save(tmp_path / "deck.npz")
    with np.load(tmp_path / "deck.npz") as data:
        arrays = dict(data)
    centers = arrays["index_centers"]
    arrays["index_centers"] = _moved_beside(centers, deck, [("6H", "8H"), ("6S", "8S"), ("3C", "5C")], MIN_INDEX_SEPARATION - 0.5)
    np.savez(tmp_path / "alike.npz", **arrays)
    with pytest.raises(TemplateError, match=r"look alike there \(3.5 apart, at least 4 needed\), and so do 2 other pairs of "
                                            r"its cards: 6 cards in all, at most 2 may be"):
        DeckTemplates.load(tmp_path / "alike.npz")


def test_a_deck_two_of_whose_cards_look_alike_is_read_with_those_two_as_twins(deck: DeckTemplates, tmp_path: Path) -> None:
    """A four-colour deck whose 8D and 9D lie 3.9 apart at the index is read: those two only when a witness
    beside the index tells them apart (``TWIN_SEPARATION``, ``Recognizer._named``)."""
    deck.save(tmp_path / "deck.npz")
    with np.load(tmp_path / "deck.npz") as data:
        arrays = dict(data)
    arrays["index_centers"] = _moved_beside(arrays["index_centers"], deck, [("6H", "8H")], MIN_INDEX_SEPARATION - 0.5)
    np.savez(tmp_path / "pair.npz", **arrays)
    loaded = DeckTemplates.load(tmp_path / "pair.npz")
    assert [(a.code, b.code, round(d, 1)) for a, b, d in loaded.alike()] == [("6H", "8H", 3.5)]
    twins = loaded.twins()
    six, eight = deck.cards.index(Card.parse("6H")), deck.cards.index(Card.parse("8H"))
    assert twins[six, eight] and twins[eight, six] and twins.sum() == 2
    assert not deck.twins().any() and not deck.alike()
    assert TWIN_SEPARATION > MIN_INDEX_SEPARATION


@pytest.mark.parametrize("old", [6, 7])  # 7: enrolled before decks printing the bottom-right index upright were refused
def test_a_deck_in_a_format_before_is_refused(deck: DeckTemplates, tmp_path: Path, old: int) -> None:
    deck.save(tmp_path / "deck.npz")
    with np.load(tmp_path / "deck.npz") as data:
        arrays = dict(data)
    arrays["version"] = np.array(old)
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(TemplateError, match=f"format {old}.*enrol it again"):
        DeckTemplates.load(tmp_path / "old.npz")


@pytest.mark.parametrize("other", [
    lambda strips: strips[:2],  # enrolled before the suit strip
    lambda strips: strips[:3, :-2],  # enrolled before the rank strip
    lambda strips: strips[:4, :-1],  # enrolled before the centre strip
    lambda strips: np.concatenate([strips[:, :-3], np.zeros((len(strips), 1)), strips[:, -2:]], axis=1),  # no strip told the suit only
])
def test_a_deck_enrolled_with_other_strips_is_refused(deck: DeckTemplates, tmp_path: Path, other) -> None:
    deck.save(tmp_path / "deck.npz")
    with np.load(tmp_path / "deck.npz") as data:
        arrays = dict(data)
    arrays["strips"] = other(arrays["strips"])
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(TemplateError, match="enrol it again"):
        DeckTemplates.load(tmp_path / "old.npz")


def _strip(face: np.ndarray, strip) -> np.ndarray:
    ratio = strip.card_width_px / face.shape[1]  # the scale strips are read at
    face = cv2.resize(face, None, fx=ratio, fy=ratio, interpolation=cv2.INTER_AREA)
    h, w = face.shape[:2]
    return sample_patch(face[:, :, :3], np.array([[0, 0], [w, 0], [w, h], [0, h]], float), strip.size, strip.fx,
                        strip.fy, strip.origin)


@pytest.mark.parametrize("code, twin", [("6S", "6C"), ("9H", "9D"), ("QC", "QS")])
def test_the_strips_beside_an_index_tell_a_card_from_its_suit_twin(deck: DeckTemplates, faces: dict, code: str, twin: str) -> None:
    from vision.geometry import STRIPS

    card, other = Card.parse(code), Card.parse(twin)
    evidence = 0.0
    for strip, model in zip(STRIPS, deck.strips):
        distances = model.distances(features(np.stack([_strip(faces[card], strip)])))[0]
        if strip.rank:  # the rank strip speaks to the rank: the reader makes every card of a rank as near
            assert deck.cards[int(distances.argmin())].rank == card.rank
            continue
        if strip.lone:  # the centre of the face, read only on a card lying alone
            assert deck.cards[int(distances.argmin())] == card
            continue
        assert deck.cards[int(distances.argmin())].suit == card.suit, strip.name  # strips are shared by ranks, not suits
        evidence += (distances[deck.cards.index(other)] ** 2 - distances[deck.cards.index(card)] ** 2) / 2
    assert evidence > 36.8  # what a read at 0.99 needs


def test_a_file_that_is_not_a_deck_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "deck.npz").write_bytes(b"nonsense")
    with pytest.raises(TemplateError, match="deck.npz"):
        DeckTemplates.load(tmp_path / "deck.npz")


def test_a_no_face_deck_cannot_be_read_as_a_face_card(deck: DeckTemplates, faces: dict) -> None:
    small = deck.restricted_to(set(no_face_deck()))
    assert len(small.cards) == 40 and Card.parse("KH") not in small.cards
    match = small.match_index(features(np.stack([_index_patch(faces[Card.parse("TH")], 0)])))[0]
    assert match.card is Card.parse("TH")
    assert all(model.centers.shape[0] == 2 * 40 for model in small.strips)


def _corner_patch(face: np.ndarray, scale: float, corner: int, region: tuple[float, float]) -> np.ndarray:
    """The index patch of ``face`` shrunk by ``scale`` (as a camera sees it), from its top-left (0) or bottom-right
    (2) index corner, over ``region``."""
    small = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    quad = rotate_quad(np.array([[0, 0], [w, 0], [w, h], [0, h]], float), corner)
    return sample_patch(small, quad, INDEX_SIZE, *region)


def test_a_deck_whose_suit_lies_under_a_jumbo_rank_is_read_in_a_taller_index_region(tmp_path: Path) -> None:
    """A jumbo index shows its rank alone in the usual index region, where a six of hearts is a six of diamonds:
    enrolment takes the larger region (``vision.geometry.INDEX_REGIONS``) that tells the cards apart, the deck file
    keeps it, and the index corners read there name their cards."""
    from tests.vision.drawn_deck import jumbo_face
    from vision.geometry import INDEX_REGIONS, index_strips
    from vision.templates import _enrol_index, _separation

    cards = parse_cards("AS AC AH AD 6S 6C 6H 6D 9S 9C KH KD")
    faces = {card: jumbo_face(card) for card in cards}
    deck = enrol_faces("jumbo", faces)
    assert deck.index_region in INDEX_REGIONS[1:]
    assert not deck.alike()
    deck.save(tmp_path / "jumbo.npz")
    again = DeckTemplates.load(tmp_path / "jumbo.npz")
    assert again.index_region == deck.index_region and again.strip_layout == index_strips(deck.index_region)
    assert np.array_equal(again.index_centers, deck.index_centers)
    for card in cards:
        for corner in (0, 2):
            patch = _corner_patch(faces[card], 0.42, corner, deck.index_region)
            assert deck.match_index(features(np.stack([patch])))[0].card is card, (card, corner)
    # In the usual region alone the suits of a rank and colour are alike: the deck would have been refused.
    usual = _enrol_index([faces[c] for c in sorted(faces)], INDEX_REGIONS[0], np.random.default_rng(0))
    assert (_separation(usual.centers) < MIN_INDEX_SEPARATION).sum() > 2


def test_a_deck_printing_a_small_index_is_read_in_a_smaller_region(tmp_path: Path, deck: DeckTemplates) -> None:
    """A rank about 7 mm tall with its suit under it fills a quarter of the usual region, beside the pips a fan's
    next card covers: enrolment reads it in ``SMALL_INDEX_REGION`` (an outside lab's decks so printed read 49% and
    57% of their readable cards on clean frames in the usual region, 69% and 79% in this one), and the artwork
    decks, whose suit lies lower, are read as before."""
    from tests.vision.drawn_deck import small_index_face
    from vision.geometry import INDEX_REGIONS, SMALL_INDEX_REGION, index_strips

    cards = parse_cards("AS AC AH AD 6S 6C 6H 6D 9S 9C KH KD")
    faces = {card: small_index_face(card) for card in cards}
    small = enrol_faces("small", faces)
    assert small.index_region == SMALL_INDEX_REGION and deck.index_region == INDEX_REGIONS[0]
    small.save(tmp_path / "small.npz")
    again = DeckTemplates.load(tmp_path / "small.npz")
    assert again.index_region == SMALL_INDEX_REGION and again.strip_layout == index_strips(SMALL_INDEX_REGION)
    for card in cards:
        for corner in (0, 2):
            patch = _corner_patch(faces[card], 0.55, corner, small.index_region)
            assert again.match_index(features(np.stack([patch])))[0].card is card, (card, corner)


def test_a_four_colour_deck_is_told_by_its_inks_and_its_green_clubs_are_not_its_spades(tmp_path: Path, deck: DeckTemplates) -> None:
    """A deck printing green clubs and blue diamonds is enrolled as four-colour (``prints_four_colours``) and read
    with the ink's hue against green, where by redness its clubs and spades are both black: an outside lab's
    four-colour deck read 35% of its readable cards on clean frames so, 57% with the hue (0 wrong reads)."""
    from tests.vision.drawn_deck import FOUR_INKS, small_index_face
    from vision.templates import prints_four_colours

    cards = parse_cards("AS AC AH AD 6S 6C 6H 6D 9S 9C KH KD KS KC")
    four = {card: small_index_face(card, FOUR_INKS) for card in cards}
    two = {card: small_index_face(card) for card in cards}
    assert prints_four_colours(tuple(sorted(four)), [four[c] for c in sorted(four)])
    assert not prints_four_colours(tuple(sorted(two)), [two[c] for c in sorted(two)]) and not deck.four_colour
    enrolled = enrol_faces("four", four)
    assert enrolled.four_colour
    enrolled.save(tmp_path / "four.npz")
    again = DeckTemplates.load(tmp_path / "four.npz")
    assert again.four_colour
    for card in cards:
        patch = _corner_patch(four[card], 0.55, 0, again.index_region)
        assert again.match_index(again.features(np.stack([patch])))[0].card is card, card
    # by redness a green club and a black spade differ by nothing; by the hue, by their inks
    club, spade = (_corner_patch(four[Card.parse(c)], 0.55, 0, again.index_region) for c in ("9C", "9S"))
    half = INDEX_SIZE[0] * INDEX_SIZE[1]
    plain, hued = features(np.stack([club, spade])), features(np.stack([club, spade]), four_colour=True)
    assert np.abs(hued[0, half:]).sum() > 3 * np.abs(plain[0, half:]).sum()


def test_a_deck_file_with_an_index_region_this_version_does_not_read_is_refused(deck: DeckTemplates, tmp_path: Path) -> None:
    deck.save(tmp_path / "deck.npz")
    with np.load(tmp_path / "deck.npz") as data:
        arrays = dict(data)
    arrays["patch"] = np.array([0.5, 0.6, *INDEX_SIZE])
    np.savez(tmp_path / "other.npz", **arrays)
    with pytest.raises(TemplateError, match="other patches or strips.*enrol it again"):
        DeckTemplates.load(tmp_path / "other.npz")


def test_a_deck_that_prints_its_index_at_all_four_corners_is_enrolled_as_one_and_its_file_says_so(faces: dict, tmp_path: Path) -> None:
    """A four-index deck (``vision.envelope.four_index``, as casinos deal blackjack from) is told from the same deck
    printed with two, and the deck file keeps it."""
    import dataclasses

    from vision.envelope.four_index import four_index_faces
    from vision.templates import _on_background, prints_side_index

    cards = tuple(sorted(faces))
    assert not prints_side_index(cards, [_on_background(faces[c]) for c in cards])
    four = four_index_faces(faces)
    assert prints_side_index(cards, [_on_background(four[c]) for c in cards])
    deck = dataclasses.replace(enrol_faces(DECK, faces), side_index=True)
    deck.save(tmp_path / "four.npz")
    assert DeckTemplates.load(tmp_path / "four.npz").side_index
