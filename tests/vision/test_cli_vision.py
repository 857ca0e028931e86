"""``tablectl vision read | calibrate | enroll`` as a technician runs them."""

import json
import re
import tomllib
from pathlib import Path

import cv2
import numpy as np
import tomli_w

from controller.cards import Card, parse_cards
from controller.commands.cli import main
from tests.terminal import run_on_terminal
from vision.synthetic import Camera, Placement, SceneRenderer

CARDS = parse_cards("AS KD 7C 9H 2D QS JK TC")


def _scene(faces, path: Path) -> None:
    renderer = SceneRenderer(faces, Camera.overhead())
    placements = [Placement(c, (130.0 + 120 * i, 200.0 + 150 * (i % 2)), 15.0 * i) for i, c in enumerate(CARDS)]
    cv2.imwrite(str(path), renderer.render(placements, np.random.default_rng(1)).frame)


def test_read_prints_each_card_as_the_issue_describes(tmp_path: Path, faces, capsys) -> None:
    _scene(faces, tmp_path / "frame.png")
    assert main(["vision", "read", str(tmp_path / "frame.png"), "--json"]) == 0
    printed = capsys.readouterr()
    reads = json.loads(printed.out)
    assert "without a calibration" in printed.err and "tablectl vision calibrate" in printed.err
    assert {r["card"] for r in reads} <= {c.code for c in CARDS} | {None}
    assert len(reads) == len(CARDS) and sum(r["card"] is not None for r in reads) >= 6
    for r in reads:
        assert set(r) == {"card", "polygon", "visible", "confidence", "zone"}
        assert len(r["polygon"]) == 4 and r["visible"] in ("full", "corner") and 0 <= r["confidence"] <= 1


def _calibrate(tmp_path: Path, faces, *more: str) -> tuple[Path, list[str]]:
    """A table config holding only its deck, and the calibrate command that marks the overhead camera's four
    points on a frame of ``_scene`` (``more`` appended); the config and that command's point arguments."""
    config = tmp_path / "table.toml"
    config.write_text('[table]\nid = "T"\n\n[vision]\ndeck = "aisleriot-anglo"\n')
    layout = Camera.overhead().layout()
    points = ["--image-points", " ".join(f"{x},{y}" for x, y in layout.image_points),
              "--table-points", " ".join(f"{x:g},{y:g}" for x, y in layout.table_points)]
    _scene(faces, tmp_path / "frame.png")
    argv = ["vision", "calibrate", "--config", str(config), *points, *more,
            "--image", str(tmp_path / "frame.png"), "--preview", str(tmp_path / "zones.png")]
    assert main(argv) == 0
    return config, points


def test_calibrate_writes_the_vision_table_and_read_then_names_zones(tmp_path: Path, faces, capsys) -> None:
    config, _ = _calibrate(tmp_path, faces, "--zone", "left=0,0 500,0 500,620 0,620")
    printed = capsys.readouterr()
    assert "worst reprojection" in printed.out and "warning" not in printed.err and (tmp_path / "zones.png").is_file()
    assert tomllib.loads(config.read_text())["vision"]["zones"]["left"][1] == [500.0, 0.0]
    assert main(["vision", "read", str(tmp_path / "frame.png"), "--config", str(config), "--json"]) == 0
    printed = capsys.readouterr()
    assert "warning" not in printed.err
    zones = {r["card"]: r["zone"] for r in json.loads(printed.out) if r["card"]}
    assert zones.get("AS") == "left" and zones.get("TC") is None


def test_calibrate_warns_when_the_camera_sees_the_cards_smaller_than_the_recognizer_is_measured_at(tmp_path: Path, capsys) -> None:
    """1920 px across 1400 mm of table: 1.37 px/mm, where the benchmark read fewer cards and two wrongly."""
    config = tmp_path / "table.toml"
    config.write_text('[table]\nid = "T"\n')
    argv = ["vision", "calibrate", "--config", str(config), "--image-points", "0,0 1920,0 1920,1080 0,1080",
            "--table-points", "0,0 1400,0 1400,787.5 0,787.5"]
    assert main(argv) == 0
    printed = capsys.readouterr()
    assert "1.37 px/mm at the centre" in printed.out
    assert "warning: the camera sees the table at 1.37 px/mm, below the 1.5 px/mm" in printed.err
    assert "calibration" in tomllib.loads(config.read_text())["vision"]


def test_calibrate_with_three_points_says_why_it_refuses(tmp_path: Path, capsys) -> None:
    argv = ["vision", "calibrate", "--config", str(tmp_path / "t.toml"), "--image-points", "0,0 1,0 1,1", "--table-points", "0,0 1,0 1,1"]
    assert main(argv) == 2
    assert "at least 4" in capsys.readouterr().err


def test_a_deck_enrolled_from_one_image_per_card_reads_those_cards(tmp_path: Path, faces, capsys) -> None:
    folder = tmp_path / "casino-deck"
    folder.mkdir()
    for card in CARDS:
        face = faces[card]
        cv2.imwrite(str(folder / f"{card.code}.png"), face[:, :, :3])  # flat scans of the faces
    out = tmp_path / "casino.npz"
    assert main(["vision", "enroll", "--images", str(folder), "--out", str(out), "--partial"]) == 0
    assert "8 cards" in capsys.readouterr().out
    _scene(faces, tmp_path / "frame.png")
    assert main(["vision", "read", str(tmp_path / "frame.png"), "--deck-file", str(out), "--json"]) == 0
    read = [r["card"] for r in json.loads(capsys.readouterr().out) if r["card"]]
    assert set(read) <= {c.code for c in CARDS} and len(read) >= 6


def _table_config(name: str, folder: Path) -> Path:
    """The shipped config of a table, calibrated for the camera ``_scene`` films with."""
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "config" / f"{name}.toml").read_text())
    layout = Camera.overhead().layout()
    data["vision"]["calibration"] = {"image_points": [list(map(float, p)) for p in layout.image_points],
                                     "table_points": [list(map(float, p)) for p in layout.table_points]}
    path = folder / f"{name}.toml"
    path.write_text(tomli_w.dumps(data))
    return path


def test_the_camera_of_a_table_whose_game_deals_no_joker_never_reads_one(tmp_path: Path, faces, capsys) -> None:
    """The same frame, a joker among its cards, read with two tables' configs: No Bust 21 deals a joker per
    deck and its camera reads it; Top Card deals none, and its camera reads no joker."""
    _scene(faces, tmp_path / "frame.png")
    read = {}
    for game in ("no-bust-21", "top-card"):
        assert main(["vision", "read", str(tmp_path / "frame.png"), "--config", str(_table_config(game, tmp_path)), "--json"]) == 0
        read[game] = [r["card"] for r in json.loads(capsys.readouterr().out)]
    assert "JK" in read["no-bust-21"]
    assert "JK" not in read["top-card"] and set(read["top-card"]) <= {c.code for c in CARDS} | {None}
    assert len(read["top-card"]) >= len(read["no-bust-21"]) - 1


def test_a_deck_enrolled_with_a_trial_says_how_it_reads_on_frames_of_its_own(tmp_path: Path, faces) -> None:
    """Run at a terminal: the enrolment's fits and the trial's frames each show a bar on it."""
    folder = tmp_path / "casino-deck"
    folder.mkdir()
    for card in CARDS:
        cv2.imwrite(str(folder / f"{card.code}.png"), faces[card][:, :, :3])
    argv = ["vision", "enroll", "--images", str(folder), "--out", str(tmp_path / "casino.npz"), "--trial", "3", "--partial"]
    ran = run_on_terminal(argv)
    assert ran.returncode == 0, ran.terminal
    assert "trial: 3 table frames drawn from these faces (seed 0)" in ran.stdout and "wrong reads 0" in ran.stdout
    # The bars with their totals; not the last count: a bar closed within its redraw interval of its last
    # step is cleared without drawing it, so "6/6" on the terminal depends on the machine's speed.
    assert "enrolling casino-deck" in ran.terminal and "/6" in ran.terminal
    assert "trial frames" in ran.terminal and "/3" in ran.terminal


def test_a_trial_that_reads_a_card_wrong_fails_and_names_it(capsys) -> None:
    """A trial's tally with a card read wrong: exit 1, the card named, and the advice not to witness the deck."""
    from controller.commands.vision import report_trial
    from vision.trial import Tally

    eight_spades, = parse_cards("8S")
    tally = Tally(frames=10, cards=120, full=[80, 81], corner=[30, 31], wrong=1,
                  wrong_examples=["8S (full) read as 8C [jolly, frame 9]"], by_card={("jolly", eight_spades): [4, 5]})
    assert report_trial(tally, "jolly", 0) == 1
    err = capsys.readouterr().err
    assert "8S (full) read as 8C [jolly, frame 9]" in err and "should not witness this deck at a table" in err


def test_a_trial_that_cannot_see_a_card_fails_and_names_it(capsys) -> None:
    """A card the camera saw in under half of its showings (read, or unreadable with the right guess): most
    rounds dealing it would be held, so the trial fails, naming it, though no card was read wrong."""
    from controller.commands.vision import report_trial
    from vision.trial import Tally

    king, queen = parse_cards("KS QS")
    tally = Tally(frames=20, cards=200, full=[150, 155], corner=[40, 45],
                  by_card={("swiss", king): [0, 5], ("swiss", queen): [5, 5]})
    assert report_trial(tally, "swiss", 1) == 1
    out, err = capsys.readouterr()
    assert "wrong reads 0" in out and "cards witnessed in under 90% of their showings" in out and "KS 0/5" in out
    assert "in under half of their showings on its trial frames (KS 0 of 5" in err
    assert "should not witness this deck at a table" in err and "wrong:" not in err


def test_enrolment_refuses_a_deck_whose_index_is_not_where_the_camera_reads_it(tmp_path: Path, faces, capsys) -> None:
    """Images of a deck printed for the other hand (its index at the top right): no deck file is written."""
    folder = tmp_path / "mirrored"
    folder.mkdir()
    for card in CARDS:
        cv2.imwrite(str(folder / f"{card.code}.png"), cv2.flip(faces[card][:, :, :3], 1))
    out = tmp_path / "mirrored.npz"
    assert main(["vision", "enroll", "--images", str(folder), "--out", str(out), "--partial"]) == 2
    assert "cannot be read from its index corners" in capsys.readouterr().err
    assert not out.exists()


def test_a_deck_two_of_whose_cards_print_the_same_index_is_enrolled_with_a_note_naming_them(tmp_path: Path, faces, capsys) -> None:
    """Two cards alike at the index (here one image under two names) do not make a deck unreadable: the deck is
    enrolled, and the enrolment says which two the camera names only with a witness beside the index."""
    folder = tmp_path / "twins"
    folder.mkdir()
    for card in CARDS:
        cv2.imwrite(str(folder / f"{card.code}.png"), faces[CARDS[0] if card is CARDS[1] else card][:, :, :3])
    out = tmp_path / "twins.npz"
    assert main(["vision", "enroll", "--images", str(folder), "--out", str(out), "--partial"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"note: (AS and KD|KD and AS) look alike at their index corners \(\d\.\d apart\)", printed), printed
    # the king of diamonds printed as the ace of spades (black) makes its diamonds two inks: taken as four-colour, and said
    assert [line for line in printed.splitlines() if line.startswith("note:") and "four colours" not in line] == [
        next(line for line in printed.splitlines() if "look alike" in line)]
    assert out.exists()


def test_a_deck_with_a_jumbo_index_is_enrolled_with_a_note_saying_how_far_its_index_is_read(tmp_path: Path, capsys) -> None:
    from tests.vision.drawn_deck import jumbo_face

    folder = tmp_path / "jumbo"
    folder.mkdir()
    for code in ("AS", "AC", "AH", "AD", "6S", "6C", "6H", "6D", "KH", "KD"):
        cv2.imwrite(str(folder / f"{code}.png"), jumbo_face(Card.parse(code)))
    assert main(["vision", "enroll", "--images", str(folder), "--out", str(tmp_path / "jumbo.npz"), "--partial"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"note: its index reaches further into the card than most \(a jumbo index\): the camera reads "
                     r"each index corner over \d\d% of the card's width and \d\d% of its height", printed), printed


def test_a_folder_of_four_cards_is_refused_with_the_cards_it_lacks(tmp_path: Path, faces, capsys) -> None:
    folder = tmp_path / "four"
    folder.mkdir()
    for code in ("AS", "KH", "7D", "2S"):
        card = next(c for c in faces if c.code == code)
        cv2.imwrite(str(folder / f"{code}.png"), faces[card][:, :, :3])
    out = tmp_path / "four.npz"
    assert main(["vision", "enroll", "--images", str(folder), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "holds 4 of the 52 cards of a standard deck; missing: 3S 4S 5S" in err and "(48 in all)" in err
    assert "--partial" in err and not out.exists()


def test_enrolment_refuses_a_file_that_names_no_card(tmp_path: Path, capsys) -> None:
    (tmp_path / "deck").mkdir()
    cv2.imwrite(str(tmp_path / "deck" / "XX.png"), np.zeros((10, 10, 3), np.uint8))
    assert main(["vision", "enroll", "--images", str(tmp_path / "deck"), "--out", str(tmp_path / "d.npz")]) == 2
    assert "XX.png" in capsys.readouterr().err


def test_a_photographed_card_is_found_on_the_felt_and_straightened(faces) -> None:
    from vision.enroll import face_from_image

    renderer = SceneRenderer(faces, Camera.overhead(keystone=0.0))
    frame = renderer.render([Placement(CARDS[1], (550.0, 310.0), 70.0)], np.random.default_rng(0), clean=True).frame
    face = face_from_image(frame)
    h, w = face.shape[:2]
    assert h > w and abs(w / h - 0.65) < 0.05
    assert face[h // 2, 8].mean() > 180 and face[8, w // 2].mean() > 180  # card all the way to the edges


def test_record_writes_a_videos_frames_for_calibrate_and_replay_and_names_a_missing_camera(tmp_path: Path, capsys) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 50, (64, 48))
    for shade in (20, 90, 160, 230):
        writer.write(np.full((48, 64, 3), shade, np.uint8))
    writer.release()
    assert main(["vision", "record", str(video), "--out", str(tmp_path / "frames"), "--frames", "10"]) == 0
    assert capsys.readouterr().out.strip() == f"recorded 4 frames of 64x48 from {video} to {tmp_path / 'frames'} ({video} ended there)"
    shades = [int(cv2.imread(str(p)).mean()) for p in sorted((tmp_path / "frames").iterdir())]
    assert len(shades) == 4 and shades == sorted(shades)
    assert main(["vision", "record", str(video), "--out", str(tmp_path / "frames")]) == 2
    assert "already holds images" in capsys.readouterr().err
    assert main(["vision", "record", "/dev/video99", "--out", str(tmp_path / "none")]) == 2
    assert "camera '/dev/video99' cannot be opened" in capsys.readouterr().err


def test_a_deck_whose_images_name_their_cards_in_words_or_with_10_for_the_ten_is_enrolled(tmp_path: Path, faces, capsys) -> None:
    """A casino's or a public image set's own file names (``10_of_hearts.png``, ``10S.png``) need no renaming."""
    (tmp_path / "deck").mkdir()
    names = {"AS": "ace_of_spades", "TH": "10_of_hearts", "TS": "10S", "KD": "King of Diamonds", "2C": "2C"}
    for code, name in names.items():
        cv2.imwrite(str(tmp_path / "deck" / f"{name}.png"), faces[Card.parse(code)])
    assert main(["vision", "enroll", "--images", str(tmp_path / "deck"), "--out", str(tmp_path / "d.npz"), "--partial"]) == 0
    printed = re.search(r"enrolled deck: 5 cards \(([^)]*)\)", capsys.readouterr().out)
    assert printed is not None and set(printed.group(1).split()) == set(names)


def test_a_four_index_deck_is_enrolled_with_a_note_saying_so(tmp_path: Path, faces, capsys) -> None:
    from vision.envelope.four_index import four_index_faces

    for deck, printed_faces in (("two", faces), ("four", four_index_faces(faces))):
        (tmp_path / deck).mkdir()
        for code in ("AS", "AC", "AH", "AD", "6S", "6C", "6H", "6D", "KH", "KD", "9S", "TC"):
            cv2.imwrite(str(tmp_path / deck / f"{code}.png"), printed_faces[Card.parse(code)])
        argv = ["vision", "enroll", "--images", str(tmp_path / deck), "--out", str(tmp_path / f"{deck}.npz"), "--partial"]
        assert main(argv) == 0
        said = "note: it prints its index at all four corners (a four-index deck)" in capsys.readouterr().out
        assert said == (deck == "four")


def test_a_four_colour_deck_is_enrolled_with_a_note_saying_so(tmp_path: Path, capsys) -> None:
    """The technician is told the deck was taken as four-colour (read by its inks' hue), and a two-colour one is not."""
    from tests.vision.drawn_deck import FOUR_INKS, small_index_face

    for deck, inks in (("two", None), ("four", FOUR_INKS)):
        (tmp_path / deck).mkdir()
        for code in ("AS", "AC", "AH", "AD", "6S", "6C", "6H", "6D", "9S", "9C", "KH", "KD", "KS", "KC"):
            face = small_index_face(Card.parse(code)) if inks is None else small_index_face(Card.parse(code), inks)
            cv2.imwrite(str(tmp_path / deck / f"{code}.png"), face)
        argv = ["vision", "enroll", "--images", str(tmp_path / deck), "--out", str(tmp_path / f"{deck}.npz"), "--partial"]
        assert main(argv) == 0
        said = "note: it prints four colours" in capsys.readouterr().out
        assert said == (deck == "four")


def test_calibrate_records_the_frame_size_and_read_refuses_a_frame_of_another(tmp_path: Path, faces, capsys) -> None:
    """A camera set to 1280x720 after being calibrated at 1920x1080 would put every card elsewhere: refused by name."""
    config, points = _calibrate(tmp_path, faces)
    assert tomllib.loads(config.read_text())["vision"]["calibration"]["image_size"] == [1920, 1080]
    capsys.readouterr()
    assert main(["vision", "read", str(tmp_path / "frame.png"), "--config", str(config), "--json"]) == 0
    capsys.readouterr()
    cv2.imwrite(str(tmp_path / "small.png"), cv2.resize(cv2.imread(str(tmp_path / "frame.png")), (1280, 720)))
    assert main(["vision", "read", str(tmp_path / "small.png"), "--config", str(config)]) == 2
    assert "small.png: the camera sends 1280x720 frames, but [vision.calibration] was measured on 1920x1080" in capsys.readouterr().err
    # marked again without a frame, the size measured before stays
    assert main(["vision", "calibrate", "--config", str(config), *points]) == 0
    assert tomllib.loads(config.read_text())["vision"]["calibration"]["image_size"] == [1920, 1080]


def test_read_refuses_a_frame_without_colour_by_name(tmp_path: Path, faces, capsys) -> None:
    """A monochrome camera: a red card reads as the black one alike at its index (an outside lab's nine of
    diamonds read as the nine of spades at confidence 1.0), so a grey frame is refused, as PNG or as JPEG."""
    _scene(faces, tmp_path / "frame.png")
    grey = cv2.cvtColor(cv2.imread(str(tmp_path / "frame.png")), cv2.COLOR_BGR2GRAY)
    cv2.imwrite(str(tmp_path / "grey.png"), grey)
    cv2.imwrite(str(tmp_path / "grey.jpg"), cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), [cv2.IMWRITE_JPEG_QUALITY, 70])
    for name in ("grey.png", "grey.jpg"):
        assert main(["vision", "read", str(tmp_path / name), "--json"]) == 2
        assert f"{name}: the camera sends frames without colour (greyscale)" in capsys.readouterr().err
    assert main(["vision", "read", str(tmp_path / "frame.png"), "--json"]) == 0


def test_what_is_wrong_with_an_image_or_a_source_is_named_as_it_is(tmp_path: Path, faces, capsys) -> None:
    """A folder is a folder, a missing file does not exist, a folder without images says so, and a game of tiles
    has nothing for the camera to read."""
    _scene(faces, tmp_path / "frame.png")
    (tmp_path / "empty").mkdir()
    cases = [
        (["vision", "read", str(tmp_path)], f"image {tmp_path} is a folder, not a file"),
        (["vision", "read", str(tmp_path / "nosuch.png")], f"image {tmp_path / 'nosuch.png'} does not exist"),
        (["vision", "record", str(tmp_path / "empty"), "--out", str(tmp_path / "out")],
         f"folder {tmp_path / 'empty'} holds no images (.png, .jpg, .jpeg, .bmp, .tif, .tiff, .webp)"),
        (["vision", "read", str(tmp_path / "frame.png"), "--config", "pai-gow-tiles"],
         "Pai Gow Tiles (player-dealer) deals tiles, not cards: there is nothing for the camera to read"),
    ]
    for argv, said in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("tablectl vision: ") and err.rstrip().endswith(said), err
