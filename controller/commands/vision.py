"""``tablectl vision``: read the cards in an image, score a folder of labelled frames, calibrate the camera, enrol a
deck, record frames."""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from controller.cards import DECKS, Card, deck_by_name
from controller.commands.progress import progress
from controller.engine.config import config_path, load_config
from controller.engine.config_edit import edit_config, set_layout
from controller.errors import ConfigError
from vision.artwork import ArtworkMissing, render_deck
from vision.calibration import CalibrationError, Layout, Zone, image_size_of, load_vision_table, scale_warning
from vision.enroll import EnrolmentError, enrol_artwork, faces_from_images
from vision.envelope.scoring import ByCondition, Reported, score_frame
from vision.geometry import INDEX_REGIONS, SMALL_INDEX_REGION
from vision.labelled import LabelError, labelled_frames
from vision.lens import Lens, LensError, fit_k1, lens_from_chessboard
from vision.recognizer import Recognizer
from vision.setup import build_recognizer, layout_from
from vision.sources import IMAGE_SUFFIXES, CameraError, colour_error, open_source, read_image, record
from vision.templates import ENROL_STEPS, DeckTemplates, TemplateError, enrol_faces

VISION_ERRORS = (ArtworkMissing, CalibrationError, CameraError, EnrolmentError, TemplateError)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("vision", help="camera: read cards in an image, score labelled frames, calibrate, enrol a deck, record frames")
    sub = parser.add_subparsers(dest="vision_command", required=True, metavar="ACTION")

    read = sub.add_parser("read", help="print the cards found in one image")
    read.add_argument("image", type=Path)
    read.add_argument("--config", type=Path, help="table config whose [vision] table gives deck and calibration")
    read.add_argument("--deck", help="deck artwork name (default: the config's, else aisleriot-anglo)")
    read.add_argument("--deck-file", type=Path, help="a deck enrolled with `tablectl vision enroll`")
    read.add_argument("--json", action="store_true", help="print JSON")
    read.set_defaults(func=read_command)

    calibrate = sub.add_parser("calibrate", help="fit the image-to-table homography and store it with the zones")
    calibrate.add_argument("--config", type=Path, required=True,
                           help="table config to write [vision] into, in place: its comments are kept, the previous "
                                "file is kept as CONFIG.DATE.bak, and zones its game has no card target for are refused")
    calibrate.add_argument("--image-points", required=True, help='pixels of the marks: "x,y x,y x,y x,y ..."')
    calibrate.add_argument("--table-points", required=True, help='the same marks on the table in mm: "x,y ..."')
    calibrate.add_argument("--zone", action="append", default=[], metavar="NAME=x,y x,y x,y ...",
                           help="a named zone as a polygon in table mm (repeatable; given, it replaces the config's "
                                "zones, else they are kept)")
    lens = calibrate.add_mutually_exclusive_group()
    lens.add_argument("--chessboard", type=Path, nargs="+", metavar="PHOTO",
                      help="photographs of a printed chessboard lying on the table: measure the lens's distortion")
    lens.add_argument("--fit-lens", action="store_true",
                      help="fit the lens's radial distortion (k1) from the marks themselves (8 or more, out to the corners)")
    lens.add_argument("--k1", type=float, help="the lens's radial distortion k1, against the frame's half-diagonal")
    calibrate.add_argument("--board", default="9x6", metavar="COLSxROWS",
                           help="the chessboard's inner corners across and down (default: %(default)s)")
    calibrate.add_argument("--image-size", default=None, metavar="WxH",
                           help="the camera's frame size for --fit-lens and --k1 (default: --image's, else 1920x1080)")
    calibrate.add_argument("--image", type=Path, help="a camera frame to draw the zones on (with --preview)")
    calibrate.add_argument("--preview", type=Path, help="write the frame with the zones drawn to this PNG")
    calibrate.set_defaults(func=calibrate_command)

    enroll = sub.add_parser("enroll", help="learn a deck from one image per card (or from SVG artwork)")
    source = enroll.add_mutually_exclusive_group(required=True)
    source.add_argument("--images", type=Path, help="folder with one image per card, named AS.png, TD.jpg, JK.png ...")
    source.add_argument("--artwork", help="an SVG deck by name, e.g. aisleriot-anglo")
    enroll.add_argument("--name", help="the deck's name (default: the folder's or artwork's)")
    enroll.add_argument("--partial", action="store_true",
                        help="with --images: enrol a folder that lacks cards of its deck (the camera then reads only "
                             "the cards enrolled); without it such a folder is refused with the cards it lacks")
    enroll.add_argument("--out", type=Path, required=True, help="enrolled deck file to write (.npz)")
    enroll.add_argument("--trial", type=_at_least_one, metavar="FRAMES",
                        help="then read this many table frames drawn from the same faces and say how the deck reads; "
                             "exit 1 if any card is read wrong, or seen in under half of its showings")
    enroll.add_argument("--seed", type=int, default=0, help="the trial frames' seed (default: %(default)s)")
    enroll.set_defaults(func=enroll_command)

    score = sub.add_parser("score", help="read a folder of labelled frames and score the reads against the labels")
    score.add_argument("folder", type=Path, help="frames, each with its label NAME.json beside it (docs/vision.md)")
    score.add_argument("--config", type=Path, help="table config whose [vision] table gives deck and calibration")
    score.add_argument("--deck", help="deck artwork name (default: the config's, else aisleriot-anglo)")
    score.add_argument("--deck-file", type=Path, help="a deck enrolled with `tablectl vision enroll`")
    score.add_argument("--json", action="store_true", help="print the figures as JSON")
    score.set_defaults(func=score_command)

    rec = sub.add_parser("record", help="write a camera's (or a video's) frames to a folder, to calibrate on or replay")
    rec.add_argument("source", help="the camera: a device index, /dev/video*, a stream URL, a video file or a folder")
    rec.add_argument("--out", type=Path, required=True, help="a new folder for the frames (000000.png, 000001.png ...)")
    rec.add_argument("--frames", type=_at_least_one, default=1, help="frames to record (default: %(default)s)")
    rec.set_defaults(func=record_command)


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of frames, at least 1, not {text!r}")
    return int(text)


def _fail(error: Exception) -> int:
    print(f"tablectl vision: {error}", file=sys.stderr)
    return 2


#: Without a calibration the recognizer takes the scale from the cards lying alone, one scale for the
#: whole image, as a camera looking straight down sees the table (docs/vision.md, Known limits).
UNCALIBRATED = ("read without a calibration ([vision.calibration] in a --config): the scale was guessed from the "
                "cards lying alone, for a camera looking straight down; where the camera looks at the table at an "
                "angle, cards are misread or read twice. Calibrate it (tablectl vision calibrate) and pass --config")


def _recognizer(args: argparse.Namespace) -> Recognizer:
    """The recognizer ``--config``, ``--deck`` and ``--deck-file`` describe."""
    config = config_path(str(args.config)) if args.config else None
    vision: dict[str, Any] = load_vision_table(config) if config else {}
    if args.deck:
        vision = {k: v for k, v in vision.items() if k != "deck_file"} | {"deck": args.deck}
    if args.deck_file:
        vision = vision | {"deck_file": str(args.deck_file)}
    dealt = _game_cards(config) if config else None
    return build_recognizer(vision, config.parent if config else None, dealt)


def read_command(args: argparse.Namespace) -> int:
    try:
        recognizer = _recognizer(args)
        image = read_image(args.image)
        mismatch = (recognizer.layout.frame_size_error(image) if recognizer.layout is not None else None) or colour_error(image)
        if mismatch:
            raise CalibrationError(f"{args.image}: {mismatch}")
        reads = recognizer.read(image)
    except (*VISION_ERRORS, ConfigError) as error:
        return _fail(error)
    if recognizer.layout is None:
        print(f"tablectl vision: warning: {UNCALIBRATED}", file=sys.stderr)
    if args.json:
        print(json.dumps([r.to_json() for r in reads]))
        return 0
    for r in reads:
        corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in r.polygon)
        card = r.card.code if r.card else "unreadable"
        print(f"{card:<10} {r.visible:<6} {r.confidence:.3f}  zone={r.zone or '-'}  {corners}")
    return 0


def score_command(args: argparse.Namespace) -> int:
    """Read every labelled frame of a folder and print the figures ``benchmarks/vision.py`` prints; 1 when a card
    was read wrong, a card invented or a read failed."""
    try:
        frames = labelled_frames(args.folder)
        recognizer = _recognizer(args)
    except (*VISION_ERRORS, ConfigError, LabelError) as error:
        return _fail(error)
    figures = ByCondition()
    with progress("frames", len(frames), unit="frame") as advance:
        for frame in frames:
            try:
                image = read_image(frame.path)
                layout = layout_from({"calibration": frame.calibration}) if frame.calibration else recognizer.layout
                mismatch = (layout.frame_size_error(image) if layout is not None else None) or colour_error(image)
                if mismatch:
                    raise CalibrationError(f"{frame.path.name}: {mismatch}")
            except (*VISION_ERRORS, ConfigError) as error:
                return _fail(error)
            reader = Recognizer(recognizer.deck, layout, recognizer.settings)
            start = time.process_time()
            reads = reader.read(image)
            ms = (time.process_time() - start) * 1000
            outcomes, hidden_wrong, invented = score_frame(frame.truth, [Reported(r.card, r.polygon) for r in reads])
            figures.add(frame.bins, outcomes, hidden_wrong, invented, frame.path.name, ms, reader.failures > 0)
            advance(1)
    t = figures.overall
    if recognizer.layout is None and any(frame.calibration is None for frame in frames):
        print(f"tablectl vision: warning: {UNCALIBRATED}", file=sys.stderr)
    if args.json:
        print(json.dumps({"frames": t.frames, "readable": t.readable, "right": t.right, "wrong": t.wrong,
                          "invented": t.invented, "unreadable": t.unreadable, "missed": t.missed,
                          "faults": t.tracebacks, "cpu_ms_median": round(float(np.median(t.cpu_ms)), 1),
                          "cpu_ms_p95": round(float(np.percentile(t.cpu_ms, 95)), 1), "wrong_reads": t.examples}))
    else:
        print(figures.report())
        for example in t.examples:
            print(f"  wrong: {example}")
        print(f"{t.frames} frames: {100 * t.share:.2f}% of {t.readable} readable cards read right, {t.wrong} wrong, "
              f"{t.invented} invented, {t.unreadable} unreadable, {t.missed} not reported, {t.tracebacks} faults; "
              f"CPU per frame median {np.median(t.cpu_ms):.1f} ms, p95 {np.percentile(t.cpu_ms, 95):.1f} ms")
    return 1 if t.wrong or t.invented or t.tracebacks else 0


def _game_cards(config: Path) -> tuple[Card, ...] | None:
    """The cards of the game a table config names, which are all the table's camera reads (``None``
    for a config that names no game, e.g. a ``[vision]`` table alone)."""
    with open(config, "rb") as handle:
        table = tomllib.load(handle).get("table")
    if not isinstance(table, dict) or "game" not in table:
        return None
    game = load_config(config).make_game()
    cards = tuple(c for c in game.deck() if isinstance(c, Card))
    if not cards:
        raise ConfigError(str(config), "table.game", f"{game.title} deals tiles, not cards: there is nothing for the "
                          "camera to read")
    return cards


def _pairs(text: str, what: str) -> list[tuple[float, float]]:
    try:
        return [(float(x), float(y)) for x, y in (p.split(",") for p in text.replace(";", " ").split())]
    except ValueError:
        raise CalibrationError(f"{what}: expected space-separated x,y pairs, got {text!r}") from None


def calibrate_command(args: argparse.Namespace) -> int:
    try:
        zones = []
        for spec in args.zone:
            name, sep, points = spec.partition("=")
            if not sep or not name.strip():
                raise CalibrationError(f"--zone {spec!r}: expected NAME=x,y x,y x,y ...")
            polygon = _pairs(points, f"zone {name}")
            if len(polygon) < 3:
                raise CalibrationError(f"zone {name}: a zone needs at least 3 corners")
            zones.append(Zone(name.strip(), tuple(polygon)))
        image_points = _pairs(args.image_points, "--image-points")
        table_points = _pairs(args.table_points, "--table-points")
        layout = Layout.fit(image_points, table_points, zones, _lens(args, image_points, table_points),
                            _measured_size(args))
        if args.preview and not args.image:
            raise CalibrationError("--preview needs --image, the camera frame to draw on")
        written = layout.to_toml()
        backup = edit_config(args.config, set_layout(written["calibration"], written["zones"] if zones else None))
        if args.preview:
            _write_preview(layout, read_image(args.image), args.preview)
    except (*VISION_ERRORS, ConfigError) as error:
        return _fail(error)
    error_mm = abs(layout.to_table(layout.image_points) - layout.table_points).max()
    kept = f"; the previous file is {backup}" if backup else ""
    lens_words = "" if layout.lens is None else f", lens k1 {layout.lens.distortion[0]:+.4f}"
    print(f"calibrated {args.config}: {len(layout.image_points)} points, worst reprojection {error_mm:.2f} mm, "
          f"{len(zones) if zones else 'its'} zones, {layout.centre_px_per_mm:.2f} px/mm at the centre{lens_words}{kept}")
    warning = scale_warning(layout)
    if warning:
        print(f"tablectl vision: warning: {warning}", file=sys.stderr)
    return 0


def _measured_size(args: argparse.Namespace) -> tuple[int, int] | None:
    """The size of the frames the calibration is measured on, where the command was shown one (``--image-size``,
    ``--image``, the chessboard photographs); else the size the config's calibration recorded, if any."""
    if args.image_size or args.image:
        return _image_size(args)
    if args.chessboard:
        height, width = read_image(args.chessboard[0]).shape[:2]
        return width, height
    if args.config.is_file():
        calibration = load_vision_table(args.config).get("calibration", {})
        return image_size_of(calibration) if isinstance(calibration, dict) else None
    return None


def _image_size(args: argparse.Namespace) -> tuple[int, int]:
    if args.image_size:
        width, sep, height = args.image_size.lower().partition("x")
        if not sep or not width.isdigit() or not height.isdigit() or int(width) < 1 or int(height) < 1:
            raise CalibrationError(f"--image-size {args.image_size!r}: expected WIDTHxHEIGHT, e.g. 1920x1080")
        return int(width), int(height)
    if args.image:
        height, width = read_image(args.image).shape[:2]
        return width, height
    return 1920, 1080


def _lens(args: argparse.Namespace, image_points: list[tuple[float, float]],
          table_points: list[tuple[float, float]]) -> Lens | None:
    """The lens the calibrate command was told to measure or state; else the config's own (a table re-marked
    keeps the lens measured before); ``None``: an ideal one."""
    try:
        if args.chessboard:
            cols, sep, rows = args.board.lower().partition("x")
            if not sep or not cols.isdigit() or not rows.isdigit() or int(cols) < 2 or int(rows) < 2:
                raise CalibrationError(f"--board {args.board!r}: expected the inner corners as COLSxROWS, e.g. 9x6")
            lens, rms = lens_from_chessboard([read_image(path) for path in args.chessboard], (int(cols), int(rows)))
            print(f"lens from {len(args.chessboard)} chessboard photograph(s): k1 {lens.distortion[0]:+.4f}, "
                  f"k2 {lens.distortion[1]:+.4f}, RMS reprojection {rms:.2f} px")
            return lens
        if args.fit_lens:
            return fit_k1(image_points, table_points, _image_size(args))
        if args.k1 is not None:
            return Lens.radial(args.k1, _image_size(args))
        if args.config.is_file():  # no lens asked for: the one measured before, if any, stays
            return Lens.from_toml(load_vision_table(args.config).get("calibration", {}))
    except LensError as error:
        raise CalibrationError(str(error)) from None
    return None


def _write_preview(layout: Layout, frame: Any, path: Path) -> None:
    import cv2
    import numpy as np

    for zone in layout.zones:
        pts = np.round(layout.to_image(zone.polygon)).astype(np.int32)
        cv2.polylines(frame, [pts], True, (0, 255, 255), 2)
        cv2.putText(frame, zone.name, tuple(int(v) for v in pts.mean(axis=0)), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 255, 255), 2)
    for x, y in layout.image_points:
        cv2.circle(frame, (int(x), int(y)), 8, (0, 0, 255), 2)
    if not cv2.imwrite(str(path), frame):
        raise CalibrationError(f"cannot write the preview to {path}")


def missing_cards(cards: set[Card]) -> tuple[str, tuple[Card, ...]]:
    """The deck kind (``controller.cards.DECKS``) a set of enrolled cards comes from, and the cards of it
    they lack: the smallest kind holding every one of them, else the one sharing the most."""
    kinds = sorted(DECKS, key=lambda kind: (not cards <= set(deck_by_name(kind)), -len(cards & set(deck_by_name(kind))),
                                             len(deck_by_name(kind))))
    kind = kinds[0]
    return kind, tuple(card for card in deck_by_name(kind) if card not in cards)


def _check_complete(folder: Path, cards: set[Card], partial: bool) -> None:
    """Refuse (unless ``partial``) a folder of card images that lacks cards of its deck, naming them."""
    kind, missing = missing_cards(cards)
    if not missing:
        return
    listed = " ".join(card.code for card in missing[:16]) + (f" ... ({len(missing)} in all)" if len(missing) > 16 else "")
    what = (f"{folder} holds {len(cards)} of the {len(deck_by_name(kind))} cards of a {kind} deck; missing: {listed}")
    if not partial:
        raise EnrolmentError(f"{what}. Add one image per missing card (named like AS.png), or pass --partial to "
                             f"enrol these {len(cards)} alone (the camera then reads no other card)")
    print(f"tablectl vision: warning: {what}: enrolling these {len(cards)} alone (--partial)", file=sys.stderr)


def enroll_command(args: argparse.Namespace) -> int:
    try:
        if args.images:
            faces = faces_from_images(args.images)
            _check_complete(args.images, set(faces), args.partial)
            name = args.name or args.images.name
            with progress(f"enrolling {name}", ENROL_STEPS, unit="fit") as advance:
                deck = enrol_faces(name, faces, advance=advance)
        else:
            with progress(f"enrolling {args.artwork}", ENROL_STEPS, unit="fit") as advance:
                deck = enrol_artwork(args.artwork, advance=advance)
            faces = render_deck(args.artwork) if args.trial else {}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        deck.save(args.out)
    except VISION_ERRORS as error:
        return _fail(error)
    print(f"enrolled {deck.name}: {len(deck.cards)} cards ({' '.join(c.code for c in deck.cards)}) -> {args.out}")
    if deck.index_region == SMALL_INDEX_REGION:
        across, down = deck.index_region
        print(f"note: it prints a small index: the camera reads each index corner over {across:.0%} of the card's "
              f"width and {down:.0%} of its height, finer than most decks; run --trial to see how it reads")
    elif deck.index_region != INDEX_REGIONS[0]:
        across, down = deck.index_region
        print(f"note: its index reaches further into the card than most (a jumbo index): the camera reads each "
              f"index corner over {across:.0%} of the card's width and {down:.0%} of its height, and a corner "
              "another card covers there is not read")
    if deck.four_colour:
        print("note: it prints four colours (its clubs or diamonds in an ink of their own): the camera tells its suits "
              "by the hue of each index's ink, not by red and black")
    if deck.side_index:
        print("note: it prints its index at all four corners (a four-index deck): a card read from its index and "
              "again from the index beside it is one card; a card whose two own index corners are covered is read "
              "from the one beside, its outline laid a card's width aside")
    for first, second, apart in deck.alike():
        print(f"note: {first.code} and {second.code} look alike at their index corners ({apart:.1f} apart): the camera "
              "names either only when the pips beside the index or the index net tell them apart")
    return _trial(faces, deck, args.trial, args.seed) if args.trial else 0


def _trial(faces: dict[Card, np.ndarray], deck: DeckTemplates, frames: int, seed: int) -> int:
    """Read ``frames`` table frames drawn from the enrolled faces; 1 when a card is read wrong, or is
    witnessed in under half of its showings."""
    from vision.trial import run_trial

    with progress("trial frames", frames, unit="frame") as advance:
        t = run_trial(faces, deck, frames, seed, advance=advance)
    return report_trial(t, deck.name, seed)


def report_trial(t: Any, name: str, seed: int) -> int:
    """Print how a deck read on its trial frames (a ``vision.trial.Tally``); 1 when a card was read wrong,
    or witnessed in under half of its showings."""
    from vision.trial import BLIND_SHARE, WEAK_SHARE, witnessed_under

    def pct(bucket: list[int]) -> str:
        return f"{100 * bucket[0] / bucket[1]:.2f}% ({bucket[0]}/{bucket[1]})" if bucket[1] else "none shown"

    print(f"trial: {t.frames} table frames drawn from these faces (seed {seed}), {t.cards} cards: full faces read "
          f"{pct(t.full)}, index corners {pct(t.corner)}, unreadable {t.unreadable}, not reported {t.missed}, "
          f"wrong reads {t.wrong}")
    weak = witnessed_under(t, WEAK_SHARE)
    if weak:
        print(f"cards witnessed in under {float(WEAK_SHARE):.0%} of their showings (read, or unreadable with the right guess): "
              f"{', '.join(map(str, weak))}")
    blind = witnessed_under(t, BLIND_SHARE)
    for example in t.wrong_examples:
        print(f"  wrong: {example}", file=sys.stderr)
    if t.wrong:
        print(f"tablectl vision: the camera read {t.wrong} card(s) of {name!r} wrong on its trial frames: it should not "
              "witness this deck at a table (docs/vision.md, Known limits)", file=sys.stderr)
    if blind:
        print(f"tablectl vision: the camera witnessed cards of {name!r} in under half of their showings on its trial "
              f"frames ({', '.join(f'{s.card} {s.witnessed} of {s.shown}' for s in blind)}): at a table most rounds that "
              "deal them would be held, so it should not witness this deck at a table (docs/vision.md, Known limits)",
              file=sys.stderr)
    return 1 if t.wrong or blind else 0


def record_command(args: argparse.Namespace) -> int:
    try:
        source = open_source(args.source)
        try:
            written = record(source, args.out, args.frames)
        finally:
            source.close()
    except CameraError as error:
        return _fail(error)
    if not written:
        what = (f"folder {args.source} holds no images ({', '.join(IMAGE_SUFFIXES)})" if Path(args.source).is_dir()
                else f"{args.source} gave no frame: is it a video or camera OpenCV can read?")
        return _fail(CameraError(what))
    import cv2

    first = cv2.imread(str(written[0]), cv2.IMREAD_UNCHANGED)
    if first is None:
        return _fail(CameraError(f"{written[0]} was written but cannot be read back"))
    height, width = first.shape[:2]
    ended = f" ({args.source} ended there)" if len(written) < args.frames else ""
    print(f"recorded {len(written)} frames of {width}x{height} from {args.source} to {args.out}{ended}")
    return 0
