"""Drawing an envelope frame: felt and its print, cards and their shadows, light, lens, optics, sensor.

The scene is drawn in the ideal (pinhole) image, on a canvas larger than the
frame so that a barrel lens has something to pull in at the corners, in
linear light: the felt and its printed layout, then each card in the order it
was laid with the shadow it casts, the card still sliding blurred along its
path, glare on the glossy cards. Then, in this order, as a camera makes a
frame: uneven light (a gradient and vignetting), white balance, gamma, the
lens's radial distortion, defocus, the sensor (perhaps of a lower resolution
than 1920x1080), its shot and read noise, JPEG, and the upscale to 1920x1080.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from controller.cards import Card
from vision.envelope.camera import FRAME, EnvelopeCamera, lens_undistort
from vision.envelope.conditions import Conditions
from vision.envelope.layouts import Placed

__all__ = ["MARGIN", "card_corners_mm", "draw_frame"]

#: The canvas reaches this share of the frame beyond each side (a barrel lens of k1 = -0.05 draws the
#: frame's corners from 5.6% beyond them).
MARGIN = 0.08
_PRINT_COLOURS = ((235, 240, 245), (60, 200, 235), (90, 170, 215), (210, 215, 200))


def card_corners_mm(p: Placed, size: tuple[float, float]) -> np.ndarray:
    """The card's corners on the table (mm): its upright frame's top left (an index corner) first."""
    w, h = size
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = math.radians(p.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(local @ rot.T + np.array(p.centre), np.float64)


def _canvas_shift() -> np.ndarray:
    return np.array([MARGIN * FRAME[0], MARGIN * FRAME[1]])


def _to_canvas(camera: EnvelopeCamera, table_mm: np.ndarray) -> np.ndarray:
    return np.asarray(camera.to_ideal(table_mm) + _canvas_shift(), np.float64)


def _felt(conditions: Conditions, shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    h, w = shape
    mottle = cv2.resize(rng.normal(0, 1, (12, 20)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    fine = rng.normal(0, 1, (h // 2 + 1, w // 2 + 1)).astype(np.float32)
    grain = np.asarray(cv2.resize(fine, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)[:, :, None]
    base = np.array(conditions.felt_bgr, np.float32)
    return np.asarray(base * (1.0 + 0.025 * mottle[:, :, None]) + grain * float(rng.uniform(1.5, 5.0)), np.float32)


def _print(canvas: np.ndarray, conditions: Conditions, camera: EnvelopeCamera, card_mm: tuple[float, float],
           rng: np.random.Generator) -> None:
    """The layout printed on the felt: arcs, betting circles, card boxes, words and a logo."""
    view = camera.view_mm
    lo, hi = view.min(axis=0), view.max(axis=0)
    px_mm = conditions.card_width_px / card_mm[0]

    def polyline(points_mm: np.ndarray, colour: tuple[float, ...], width_mm: float, closed: bool = False,
                 fill: bool = False) -> None:
        pts = np.round(_to_canvas(camera, points_mm) * 8).astype(np.int32).reshape(-1, 1, 2)
        if fill:
            cv2.fillPoly(canvas, [pts], colour, cv2.LINE_AA, shift=3)
        else:
            cv2.polylines(canvas, [pts], closed, colour, max(1, int(round(width_mm * px_mm))), cv2.LINE_AA, shift=3)

    colour = tuple(float(c) for c in _PRINT_COLOURS[int(rng.integers(len(_PRINT_COLOURS)))])
    if conditions.printed_lines:
        for _ in range(int(rng.integers(1, 4))):
            radius = rng.uniform(250, 900)
            centre = np.array([rng.uniform(lo[0], hi[0]), hi[1] + rng.uniform(-200, 400)])
            t = np.linspace(math.pi, 2 * math.pi, 200)
            polyline(centre + radius * np.stack([np.cos(t), np.sin(t)], axis=1), colour, rng.uniform(1.5, 5))
        for _ in range(int(rng.integers(2, 8))):
            at = lo + rng.random(2) * (hi - lo)
            if rng.random() < 0.5:
                t = np.linspace(0, 2 * math.pi, 64)
                polyline(at + rng.uniform(25, 50) * np.stack([np.cos(t), np.sin(t)], axis=1), colour, rng.uniform(1, 3), True)
            else:
                w, h = card_mm
                box = np.array([[0, 0], [w, 0], [w, h], [0, h]]) * rng.uniform(1.0, 1.15) + at
                polyline(box, colour, rng.uniform(1, 3), True)
        for _ in range(int(rng.integers(1, 4))):
            _words(canvas, camera, lo + rng.random(2) * (hi - lo), colour, px_mm, rng)
    if conditions.logo:
        at = lo + rng.random(2) * (hi - lo)
        size = rng.uniform(40, 120)
        points = int(rng.integers(3, 9))
        t = np.linspace(0, 2 * math.pi, 2 * points, endpoint=False) + rng.uniform(0, math.pi)
        r = np.where(np.arange(2 * points) % 2 == 0, size, size * rng.uniform(0.4, 1.0))
        logo = tuple(float(c) for c in _PRINT_COLOURS[int(rng.integers(len(_PRINT_COLOURS)))])
        polyline(at + r[:, None] * np.stack([np.cos(t), np.sin(t)], axis=1), logo, 1.0, fill=True)
        _words(canvas, camera, at, tuple(0.4 * c for c in conditions.felt_bgr), px_mm, rng)


_WORDS = ("BLACKJACK PAYS 3 TO 2", "INSURANCE PAYS 2 TO 1", "DEALER MUST DRAW TO 16", "BANKER", "PLAYER",
          "TIE PAYS 8 TO 1", "PAI GOW", "ANTE", "PLAY", "PAIR PLUS", "BONUS", "CASINO ROYALE")


def _words(canvas: np.ndarray, camera: EnvelopeCamera, at_mm: np.ndarray, colour: tuple[float, ...],
           px_mm: float, rng: np.random.Generator) -> None:
    """A line of print, turned like the table, about 12 to 30 mm tall."""
    text = str(rng.choice(_WORDS))
    font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
                           cv2.FONT_HERSHEY_COMPLEX]))
    (tw, th), base = cv2.getTextSize(text, font, 2.0, 4)
    patch = np.zeros((th + base + 8, tw + 8), np.uint8)
    cv2.putText(patch, text, (4, th + 4), font, 2.0, 255, 4, cv2.LINE_AA)
    height_mm = rng.uniform(12, 30)
    mm_per = height_mm / patch.shape[0]
    turn = rng.uniform(-40, 40)
    a = math.radians(turn)
    corners = np.array([[0, 0], [patch.shape[1], 0], [patch.shape[1], patch.shape[0]], [0, patch.shape[0]]], float)
    local = (corners - corners.mean(axis=0)) * mm_per
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    dst = _to_canvas(camera, local @ rot.T + at_mm)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst.astype(np.float32))
    ink = cv2.warpPerspective(patch, m, (canvas.shape[1], canvas.shape[0])).astype(np.float32)[:, :, None] / 255.0
    canvas[:] = canvas * (1 - ink) + np.array(colour, np.float32) * ink


def _rounded(face: np.ndarray) -> np.ndarray:
    """The face as BGRA with rounded corners: artwork drawn to a square corner is cut round (radius 6% of
    its width), as card stock is."""
    if face.shape[2] == 3:
        face = cv2.cvtColor(face, cv2.COLOR_BGR2BGRA)
    h, w = face.shape[:2]
    if face[0, 0, 3] < 128 and face[h - 1, w - 1, 3] < 128:
        return face
    r = max(2, int(0.06 * w))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    out = face.copy()
    out[:, :, 3] = np.minimum(out[:, :, 3], mask)
    return out


def _draw_card(canvas: np.ndarray, cards_alpha: np.ndarray, face: np.ndarray, corners: np.ndarray,
               placed: Placed, conditions: Conditions, shadow: tuple[float, np.ndarray, float],
               rng: np.random.Generator) -> None:
    """One card warped onto the canvas at ``corners`` (canvas pixels), its shadow first."""
    ch, cw = canvas.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 16
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 16
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, cw), min(y1, ch)
    if x1 <= x0 or y1 <= y0:
        return
    target = float(np.linalg.norm(corners[3] - corners[0]))
    if face.shape[0] > 1.5 * target:
        zoom = 1.5 * target / face.shape[0]
        face = cv2.resize(face, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA)
    fh, fw = face.shape[:2]
    premultiplied = face.astype(np.float32)
    tint = np.array([rng.uniform(0.9, 1.0), rng.uniform(0.95, 1.0), 1.0, 1.0], np.float32) * rng.uniform(0.9, 1.0)
    tint[3] = 1.0
    premultiplied *= tint
    premultiplied[:, :, :3] *= premultiplied[:, :, 3:4] / 255.0
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(premultiplied, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    if placed.sliding:
        length = max(3, int(round(conditions.motion_px)))
        kernel = np.zeros((length, length), np.float32)
        a = rng.uniform(0, math.pi)
        c = (length - 1) / 2
        cv2.line(kernel, (int(round(c - c * math.cos(a))), int(round(c - c * math.sin(a)))),
                 (int(round(c + c * math.cos(a))), int(round(c + c * math.sin(a)))), 1.0, 1)
        warped = cv2.filter2D(warped, -1, kernel / kernel.sum())
    alpha = np.asarray(warped[:, :, 3], np.float32) / np.float32(255.0)
    strength, offset, blur = shadow
    moved = np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32)
    cast = cv2.warpAffine(cv2.GaussianBlur(alpha, (0, 0), blur), moved, (x1 - x0, y1 - y0))
    roi = canvas[y0:y1, x0:x1]
    roi *= (1.0 - strength * cast)[:, :, None]
    roi[:] = roi * (1.0 - alpha[:, :, None]) + warped[:, :, :3]
    seen = cards_alpha[y0:y1, x0:x1]
    seen[:] = np.maximum(seen * (1.0 - alpha), alpha)


def _light(canvas: np.ndarray, cards_alpha: np.ndarray, conditions: Conditions, camera: EnvelopeCamera,
           placed: Sequence[Placed], rng: np.random.Generator) -> np.ndarray:
    """Uneven light, glare on the cards, white balance and gamma, on the canvas."""
    h, w = canvas.shape[:2]
    gy, gx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((gx - w / 2) * math.cos(a) + (gy - h / 2) * math.sin(a)) / (0.5 * math.hypot(w, h))
    gain = (1.0 - conditions.gradient * (ramp + 1) / 2)
    r2 = ((gx - w / 2) ** 2 + (gy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    gain *= (1.0 - conditions.vignetting * r2) * conditions.exposure
    glare = np.zeros_like(gain)
    shift = _canvas_shift()
    for _ in range(conditions.glare_spots if placed else 0):
        card = placed[int(rng.integers(len(placed)))]
        at = (camera.to_ideal(np.array([card.centre]))[0] + shift + rng.normal(0, 30, 2)) / 8
        sx, sy = rng.uniform(1.5, 6, 2)
        glare += rng.uniform(80, 260) * np.exp(-(((gx / 8 - at[0]) / sx) ** 2 + ((gy / 8 - at[1]) / sy) ** 2) / 2)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    glare = cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR) * (0.05 + 0.95 * cards_alpha)
    lit = canvas * gain[:, :, None] + glare[:, :, None]
    lit *= np.array(conditions.white_balance, np.float32)
    lit = np.clip(lit / 255.0, 0, 1)
    return np.asarray(np.power(lit, conditions.gamma, dtype=np.float32) * 255.0, np.float32)


def _lens(canvas: np.ndarray, k1: float) -> np.ndarray:
    """The canvas as the lens draws the frame (remapped; the map worked out at a quarter and spread)."""
    w, h = FRAME
    qy, qx = np.mgrid[0:h + 4:4, 0:w + 4:4].astype(np.float64)
    ideal = lens_undistort(np.stack([qx, qy], axis=-1), k1) + _canvas_shift()
    full = cv2.resize(ideal.astype(np.float32), (qx.shape[1] * 4, qx.shape[0] * 4), interpolation=cv2.INTER_LINEAR)
    # The quarter grid's sample k sits at pixel 4k; resize puts it at 4k + 1.5: shift back.
    full = cv2.warpAffine(full, np.array([[1, 0, -1.5], [0, 1, -1.5]], np.float32), (w, h), borderMode=cv2.BORDER_REPLICATE)
    return cv2.remap(canvas, full[:, :, 0], full[:, :, 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _sensor(frame: np.ndarray, conditions: Conditions, rng: np.random.Generator) -> np.ndarray:
    """Defocus, the sensor's resolution and noise, JPEG, and the upscale to 1920x1080."""
    if conditions.defocus_sigma > 0.05:
        frame = cv2.GaussianBlur(frame, (0, 0), conditions.defocus_sigma)
    w, h = FRAME
    small = (int(round(w * conditions.capture_scale)), int(round(h * conditions.capture_scale)))
    if conditions.capture_scale < 1:
        frame = cv2.resize(frame, small, interpolation=cv2.INTER_AREA)
    noise = rng.normal(0, 1, frame.shape).astype(np.float32)
    frame = frame + noise * np.sqrt(conditions.read_noise**2 + conditions.shot_noise**2 * np.maximum(frame, 0))
    image = np.clip(frame + 0.5, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    out = np.asarray(decoded if decoded is not None else image, np.uint8)
    if conditions.capture_scale < 1:
        out = np.asarray(cv2.resize(out, FRAME, interpolation=cv2.INTER_LINEAR if rng.random() < 0.5 else cv2.INTER_CUBIC), np.uint8)
    return out


def draw_frame(faces: Mapping[Card, np.ndarray], placed: Sequence[Placed], size: tuple[float, float],
               conditions: Conditions, camera: EnvelopeCamera, rng: np.random.Generator) -> np.ndarray:
    """The 1920x1080 BGR frame of ``placed`` (cards ``size`` mm) under ``conditions`` through ``camera``."""
    shape = (int(round(FRAME[1] * (1 + 2 * MARGIN))), int(round(FRAME[0] * (1 + 2 * MARGIN))))
    canvas = _felt(conditions, shape, rng)
    _print(canvas, conditions, camera, size, rng)
    cards_alpha = np.zeros(shape, np.float32)
    light_from = rng.uniform(0, 2 * math.pi)
    px_mm = conditions.card_width_px / size[0]
    strength = float(rng.uniform(0.1, 0.45))
    for p in placed:
        corners = _to_canvas(camera, card_corners_mm(p, size))
        reach = rng.uniform(0.3, 1.5) * px_mm
        shadow = (strength, np.array([math.cos(light_from), math.sin(light_from)]) * reach, max(0.8, rng.uniform(0.6, 2.0) * px_mm))
        _draw_card(canvas, cards_alpha, _rounded(faces[p.card]), corners, p, conditions, shadow, rng)
    lit = _light(canvas, cards_alpha, conditions, camera, placed, rng)
    return _sensor(_lens(lit, conditions.k1), conditions, rng)

