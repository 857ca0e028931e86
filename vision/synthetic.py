"""Synthetic table frames: real card artwork composed onto felt as an overhead camera sees it.

A scene is a list of ``Placement``s (card, centre and angle on the table, in
millimetres), drawn in order so later cards lie on earlier ones. The camera is
a homography from the table to a 1920x1080 image with some keystone. On top
come a printed layout, a shadow under each card, uneven light, glare, blur,
sensor noise and JPEG compression, each drawn from a seeded generator.

Every rendered frame comes with its truth: each card's outline in the image and
how much of it shows: ``full`` (nothing lies on it), ``corner`` (covered, but
an index corner is clear) or ``hidden`` (no index can be seen).

``SceneSource`` is the frame source of the simulated table: it renders the
cards dealt into each zone of a calibrated layout, fanned as a dealer does.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import cv2
import numpy as np

from controller.cards import Card
from vision.calibration import Layout, Zone
from vision.geometry import INDEX_FX, INDEX_FY, CardSize, rotate_quad

__all__ = ["Placement", "TruthCard", "Scene", "Camera", "SceneRenderer", "SceneSource", "random_placements", "fan"]

FRAME_SIZE = (1920, 1080)
#: How far apart the simulated dealer fans a hand (mm): every index corner well clear.
DEALER_SPREAD = (26.0, 38.0)
#: What the simulated table's camera frames: the playing area only, about 2.3 px/mm.
DEALER_VIEW_MM = (800.0, 450.0)
TABLE_MM = (1100.0, 620.0)
#: The narrowest step (mm) the simulated dealer lays a seat's split hands at, card to card: the 16 mm a card
#: must lie right of the last for its index to show (``[vision] fan_mm``), and 3 mm for the dealer's hand.
SPLIT_STEP_MM = 19.0
#: How far (mm) a split hand's first card lies on the last card of the hand before it: enough that the two
#: outlines overlap whatever the dealer's hand does, so a seat's split hands are one hand to the camera.
SPLIT_TOUCH_MM = 15.0
Visibility = Literal["full", "corner", "hidden"]


@dataclass(frozen=True)
class Placement:
    """A card on the table: its centre (mm) and the angle (degrees) its long side is turned by."""

    card: Card
    center: tuple[float, float]
    angle: float


@dataclass(frozen=True, eq=False)
class TruthCard:
    """What the renderer knows about a drawn card: outline (index corner first) and visibility."""

    card: Card
    polygon: np.ndarray
    visible: Visibility


@dataclass(frozen=True, eq=False)
class Scene:
    frame: np.ndarray
    truth: tuple[TruthCard, ...]


@dataclass(frozen=True, eq=False)
class Camera:
    """The table-to-image homography of an overhead camera and the layout it implies."""

    table_to_image: np.ndarray
    view_mm: tuple[float, float] = TABLE_MM

    @classmethod
    def overhead(
        cls, rng: np.random.Generator | None = None, keystone: float = 0.06, view_mm: tuple[float, float] = TABLE_MM
    ) -> Camera:
        """A camera seeing ``view_mm`` of the table (1100x620 mm by default), tilted a little (jittered by ``rng``)."""
        w, h = FRAME_SIZE
        inset = keystone * w / 2
        image = np.array([[60 + inset, 40], [w - 60 - inset, 40], [w - 20, h - 30], [20, h - 30]], dtype=np.float64)
        if rng is not None:
            image += rng.uniform(-30, 30, size=image.shape)
        table = np.array([[0, 0], [view_mm[0], 0], [view_mm[0], view_mm[1]], [0, view_mm[1]]])
        homography = cv2.getPerspectiveTransform(table.astype(np.float32), image.astype(np.float32))
        return cls(homography.astype(np.float64), view_mm)

    def layout(self, zones: Sequence[Zone] = ()) -> Layout:
        """The calibration a technician would measure for this camera (the table's corners)."""
        w, h = self.view_mm
        table = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
        image = cv2.perspectiveTransform(table.reshape(-1, 1, 2), self.table_to_image).reshape(-1, 2)
        return Layout.fit(image, table, zones)


def _card_table_quad(p: Placement, size: CardSize) -> np.ndarray:
    """Table corners of a placed card, index corner first."""
    w, h = size.width_mm, size.height_mm
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = math.radians(p.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(local @ rot.T + np.array(p.center))


def _to_image(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, dtype=np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def _visibility(quads: list[np.ndarray], size: CardSize) -> list[Visibility]:
    """Coverage of each card by the cards drawn after it, rasterised in table millimetres."""
    scale = 2.0
    shape = (int(TABLE_MM[1] * scale) + 200, int(TABLE_MM[0] * scale) + 200)
    offset = np.array([100, 100])
    covered = np.zeros(shape, np.uint8)
    result: list[Visibility] = []
    for quad in reversed(quads):
        own = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(own, np.round(quad * scale + offset).astype(np.int32), 1)
        area = max(int(own.sum()), 1)
        overlap = int((own & covered).sum())
        if overlap <= 0.002 * area:
            result.append("full")
        else:
            clear = [_index_coverage(quad, corner, covered, scale, offset) < 0.02 for corner in (0, 2)]
            result.append("corner" if any(clear) else "hidden")
        covered |= own
    return result[::-1]


def _index_coverage(quad: np.ndarray, corner: int, covered: np.ndarray, scale: float, offset: np.ndarray) -> float:
    q = rotate_quad(quad, corner)
    o, u, v = q[0], q[1] - q[0], q[3] - q[0]
    region = np.array([o, o + INDEX_FX * u, o + INDEX_FX * u + INDEX_FY * v, o + INDEX_FY * v])
    mask = np.zeros_like(covered)
    cv2.fillConvexPoly(mask, np.round(region * scale + offset).astype(np.int32), 1)
    return float((mask & covered).sum()) / max(int(mask.sum()), 1)


class SceneRenderer:
    """Draws placements of one deck's artwork through a camera, with seeded imperfections."""

    def __init__(self, faces: Mapping[Card, np.ndarray], camera: Camera | None = None, card_height_mm: float = 88.0) -> None:
        if not faces:
            raise ValueError("a scene needs card artwork: no faces given")
        self.faces = dict(faces)
        self.camera = camera or Camera.overhead()
        aspect = float(np.median([f.shape[1] / f.shape[0] for f in self.faces.values()]))
        self.card_size = CardSize.with_aspect(aspect, card_height_mm)
        self._scaled: dict[Card, np.ndarray] = {}

    def _face(self, card: Card) -> np.ndarray:
        face = self._scaled.get(card)
        if face is None:
            try:
                art = self.faces[card]
            except KeyError:
                raise KeyError(f"the deck's artwork has no {card.code}") from None
            if art.shape[2] == 3:
                art = cv2.cvtColor(art, cv2.COLOR_BGR2BGRA)
            layout = self.camera.layout()
            px = layout.px_per_mm((FRAME_SIZE[0] / 2, FRAME_SIZE[1] / 2)) * self.card_size.height_mm * 1.4
            ratio = px / art.shape[0]
            face = cv2.resize(art, None, fx=ratio, fy=ratio, interpolation=cv2.INTER_AREA) if ratio < 1 else art
            self._scaled[card] = face
        return face

    def render(
        self, placements: Sequence[Placement], rng: np.random.Generator, *, clean: bool = False,
        felt: np.ndarray | None = None, truth: bool = True,
    ) -> Scene:
        """One frame of the placements; ``clean`` leaves out glare, blur, noise and JPEG. ``felt`` is
        the empty table to draw on (a fresh one from ``rng`` by default); ``truth=False`` skips working
        out what shows of each card (the scene's truth is then empty)."""
        frame = _felt(rng) if felt is None else felt.copy()
        quads = [_card_table_quad(p, self.card_size) for p in placements]
        truth_quads = []
        for p, quad in zip(placements, quads):
            image_quad = _to_image(self.camera.table_to_image, quad)
            self._draw_card(frame, self._face(p.card), image_quad, rng)
            truth_quads.append(image_quad)
        frame = frame if clean else _degrade(frame, rng)
        if not truth:
            return Scene(frame, ())
        visibility = _visibility(quads, self.card_size)
        return Scene(frame, tuple(TruthCard(p.card, q, v) for p, q, v in zip(placements, truth_quads, visibility)))

    def _draw_card(self, frame: np.ndarray, face: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
        h, w = frame.shape[:2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 8
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 8
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            return
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], dtype=np.float32)
        dst = (quad - [x0, y0]).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        shadow = cv2.GaussianBlur(alpha, (0, 0), 2.5)
        shift = np.array([[1, 0, rng.uniform(1, 4)], [0, 1, rng.uniform(1, 4)]], dtype=np.float32)
        shadow = cv2.warpAffine(shadow, shift, (x1 - x0, y1 - y0))[:, :, None]
        roi *= 1 - 0.35 * shadow
        roi = roi * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
        frame[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _felt(rng: np.random.Generator) -> np.ndarray:
    w, h = FRAME_SIZE
    base = np.array([rng.uniform(25, 55), rng.uniform(85, 130), rng.uniform(20, 50)], dtype=np.float32)
    low = cv2.resize(rng.normal(0, 1, (9, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    light = 1.0 + 0.08 * low[:, :, None]
    frame = np.clip(base * light, 0, 255).astype(np.uint8)
    colour = (int(rng.uniform(150, 220)), int(rng.uniform(180, 230)), int(rng.uniform(190, 240)))
    for _ in range(int(rng.integers(1, 4))):
        center = (int(rng.uniform(200, w - 200)), int(rng.uniform(150, h - 150)))
        axes = (int(rng.uniform(80, 400)), int(rng.uniform(60, 250)))
        cv2.ellipse(frame, center, axes, float(rng.uniform(0, 180)), 0, 360, colour, 2, cv2.LINE_AA)
    return frame


def _degrade(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light falloff, glare, defocus, sensor noise and JPEG, as a real camera adds them.

    Light and glare are worked out on a coarse grid and spread over the frame;
    the whole-frame arithmetic is OpenCV's (a frame is rendered for every look
    the simulated table's camera takes).
    """
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    gain = (1.0 - rng.uniform(0.0, 0.15) * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 4) * rng.uniform(0.85, 1.1)
    glare = np.zeros_like(gain)
    for _ in range(int(rng.integers(0, 3))):
        cx, cy, sigma = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(60, 220)
        glare += np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))) * rng.uniform(25, 80)
    spread = [cv2.merge([cv2.resize(m.astype(np.float32), (w, h))] * 3) for m in (gain, glare)]
    out = cv2.add(cv2.multiply(frame.astype(np.float32), spread[0]), spread[1])
    out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))
    noise = np.empty_like(out)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(noise, 0.0, float(rng.uniform(1, 5)))  # type: ignore[call-overload]  # cv2's stubs lack its scalar forms
    image = cv2.convertScaleAbs(cv2.max(cv2.add(out, noise), 0.0))  # type: ignore[call-overload]  # (scalar mean, sigma, floor)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    return image if decoded is None else decoded


def fan(
    cards: Sequence[Card],
    center: tuple[float, float],
    angle: float,
    rng: np.random.Generator | None = None,
    spread: tuple[float, float] = (20.0, 28.0),
) -> list[Placement]:
    """Cards fanned as a blackjack dealer lays them: each one ``spread`` mm lower right of the last.

    With a generator the spread and each card's angle vary a little (the
    spread by up to 3 mm either way, the angle by up to 4 degrees).
    """
    out = []
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    x, y = center
    for card in cards:
        jitter = rng.uniform(-4, 4) if rng is not None else 0.0
        out.append(Placement(card, (x, y), angle + jitter))
        dx = spread[0] + (rng.uniform(-3, 3) if rng is not None else 0.0)
        dy = spread[1] + (rng.uniform(-3, 3) if rng is not None else 0.0)
        x, y = x + dx * ux - dy * uy, y + dx * uy + dy * ux
    return out


def random_placements(
    cards: Sequence[Card], rng: np.random.Generator, overlapped_share: float = 1 / 3
) -> list[Placement]:
    """Lay ``cards`` out at random: about ``overlapped_share`` of them in fans, the rest alone."""
    remaining = list(cards)
    groups: list[list[Card]] = []
    while remaining:
        fanned = rng.random() < overlapped_share * 0.8 and len(remaining) >= 2
        n = int(rng.integers(2, min(4, len(remaining)) + 1)) if fanned else 1
        groups.append(remaining[:n])
        remaining = remaining[n:]
    placed: list[tuple[np.ndarray, float]] = []
    out: list[Placement] = []
    for group in groups:
        radius = 60.0 + 22.0 * (len(group) - 1)
        for _ in range(400):
            center = np.array([rng.uniform(radius, TABLE_MM[0] - radius), rng.uniform(radius, TABLE_MM[1] - radius)])
            if all(np.linalg.norm(center - c) > radius + r for c, r in placed):
                break
        else:
            continue
        placed.append((center, radius))
        angle = float(rng.uniform(0, 360))
        offset = np.array([math.cos(math.radians(angle + 235)), math.sin(math.radians(angle + 235))]) * 22.0 * (len(group) - 1)
        start = center + offset
        out.extend(fan(group, (float(start[0]), float(start[1])), angle, rng))
    return out


class SceneSource:
    """The simulated table's camera: frames of the cards dealt to each hand, in the zones of a layout.

    ``show(hands)`` sets what lies on the table: each hand (a card target) is
    fanned from its zone's top left corner, as a dealer lays it, several hands
    of one zone (split hands) side by side within the zone, each lying on the last
    card of the one before. A hand keeps where its cards lie when cards are added to
    it, so the camera sees cards arrive, not jump (split hands close up as the seat's
    cards grow, as a dealer makes room). Each ``read()`` renders
    the table again with fresh noise, as successive camera frames would.

    ``seed`` makes the table: its cloth and where each hand is laid. ``noise_seed`` (default: ``seed``)
    draws the frames' noise, so that a table filmed again (after a restart) is the same table in new frames.
    """

    def __init__(
        self, faces: Mapping[Card, np.ndarray], camera: Camera | None = None, zones: Sequence[Zone] = (), seed: int = 0,
        spread: tuple[float, float] = DEALER_SPREAD, noise_seed: int | None = None,
    ) -> None:
        self.renderer = SceneRenderer(faces, camera or Camera.overhead(view_mm=DEALER_VIEW_MM))
        self.layout = self.renderer.camera.layout(zones)
        self.seed = seed
        table = np.random.default_rng(seed)
        self.felt = _felt(table)
        self.rng = table if noise_seed is None else np.random.default_rng(noise_seed)
        self.spread = spread
        self.placements: list[Placement] = []

    def show(self, hands: Mapping[str, Sequence[Card]], zone_of: Callable[[str], str] = lambda hand: hand) -> None:
        """Lay out ``hands`` (hand name -> its cards in the order dealt), each in the zone ``zone_of`` names."""
        by_zone: dict[str, list[tuple[str, Sequence[Card]]]] = {}
        for name, cards in hands.items():
            by_zone.setdefault(self.layout.zone(zone_of(name)).name, []).append((name, cards))
        placements: list[Placement] = []
        for zone_name, zone_hands in by_zone.items():
            placements.extend(self._split_hands(zone_name, zone_hands))
        self.placements = placements

    def _split_hands(self, zone_name: str, hands: list[tuple[str, Sequence[Card]]]) -> list[Placement]:
        """One zone's hands fanned from its top left corner. Split hands go on side by side, each next hand
        starting again at the top right of the last card of the hand before, spread over the zone's width
        but lying ``SPLIT_TOUCH_MM`` on that card (so the seat's cards are one hand to ``vision.hands``);
        where the zone is too narrow, the step from card to card is narrowed (to ``SPLIT_STEP_MM`` at
        least, every index corner still clear). Cards that would run off the table's right edge are laid
        that much further left, as a dealer at the table's end lays them."""
        size = self.renderer.card_size
        xs, ys = ([p[i] for p in self.layout.zone(zone_name).polygon] for i in (0, 1))
        x, y = min(xs) + size.width_mm / 2 + 10.0, min(ys) + size.height_mm / 2 + 10.0
        spread, between = self.spread, self.spread[0]
        cards_here = sum(len(cards) for _, cards in hands)
        if len(hands) > 1 and cards_here > 1:
            room = max(xs) - min(xs) - 20.0 - size.width_mm
            spread = (min(spread[0], max(SPLIT_STEP_MM, room / (cards_here - 1))), spread[1])
            spare = max(0.0, room - spread[0] * (cards_here - 1)) / (len(hands) - 1)
            between = spread[0] + min(spare, max(0.0, size.width_mm - SPLIT_TOUCH_MM - spread[0]))
        out: list[Placement] = []
        for name, cards in hands:
            steady = np.random.default_rng([self.seed, zlib.crc32(name.encode())])
            laid = fan(cards, (x, y), 0.0, steady, spread)
            out.extend(laid)
            x = (laid[-1].center[0] if laid else x) + between
        right = max(p[0] for zone in self.layout.zones for p in zone.polygon) - 10.0
        overflow = max((p.center[0] + size.width_mm / 2 for p in out), default=right) - right
        if overflow > 0:
            out = [replace(p, center=(p.center[0] - overflow, p.center[1])) for p in out]
        return out

    def render(self) -> Scene:
        return self.renderer.render(self.placements, self.rng, felt=self.felt, truth=False)

    def read(self) -> np.ndarray:
        return self.render().frame

    def close(self) -> None:
        """Nothing to release: here for the frame source interface."""
