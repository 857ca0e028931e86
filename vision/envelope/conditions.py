"""The conditions one envelope frame is drawn under, and how they are drawn.

Every knob of the table camera's world that issue #49 lists is one field of
``Conditions``: the felt and what is printed on it, how the camera is
mounted and how far its calibration is off, its lens, the card size it sees,
how the frame was captured and compressed, the light, the optics and the
layout of the cards. ``draw_conditions`` draws each field uniformly over the
whole envelope, independently of the others, so every combination occurs.

``Conditions.bins`` names the bin of each reported condition, which is how
``benchmarks/vision.py`` reports a weak corner of the envelope.

This module, like the rest of ``vision.envelope``, shares no code with
``vision.synthetic`` (the generator the old rules were tuned on) and makes
none of its choices: that generator's felts are green, its camera is never
turned, its lens is ideal and its fans all go one way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

__all__ = ["FELTS", "BLIND_FELTS", "LAYOUTS", "Conditions", "LayoutKind", "draw_conditions"]

LayoutKind = Literal["lone", "blackjack", "poker", "paigow"]
LAYOUTS: tuple[LayoutKind, ...] = ("lone", "blackjack", "poker", "paigow")

#: Felt colours (BGR, before the light) by name. Grey and black are the hard ones for a detector that
#: finds cards by the cloth's hue: they have none.
FELTS: dict[str, tuple[int, int, int]] = {
    "green": (40, 105, 30),
    "blue": (120, 60, 20),
    "red": (35, 30, 130),
    "teal": (100, 100, 20),
    "grey": (105, 105, 100),
    "black": (28, 28, 30),
}
#: Felts of the blind conditions only: no rule is tuned on them.
BLIND_FELTS: dict[str, tuple[int, int, int]] = {
    "purple": (90, 30, 75),
    "brown": (30, 55, 95),
    "light-grey": (150, 150, 145),
}


@dataclass(frozen=True)
class Conditions:
    """Everything one frame is drawn under (see the module docstring)."""

    felt: str
    felt_bgr: tuple[float, float, float]
    printed_lines: bool
    logo: bool
    roll_deg: float
    tilt_deg: float
    zoom_error: float
    """The true camera's scale over the calibrated one's, less 1 (the lens zoomed since calibration)."""
    perspective_error: float
    """How far (share of the frame's size) the calibration's marks lie from where the true camera shows them."""
    k1: float
    """Radial distortion, normalised by the frame's half-diagonal: a point ``r`` from the centre is drawn at ``r (1 + k1 r^2)``."""
    k1_error: float
    """The calibration's k1 less the true one."""
    card_width_px: float
    capture_scale: float
    """The sensor's resolution over 1920x1080 (1.0: native; below: captured small and upscaled)."""
    jpeg_quality: int
    gradient: float
    vignetting: float
    gamma: float
    white_balance: tuple[float, float, float]
    exposure: float
    glare_spots: int
    defocus_sigma: float
    motion_px: float
    """Length of the motion blur of the card still sliding (0: none)."""
    read_noise: float
    shot_noise: float
    layout: LayoutKind
    jokers: bool
    out_of_frame: bool

    def bins(self) -> dict[str, str]:
        """The bin of each reported condition."""
        roll = self.roll_deg % 360
        nearest = min((0, 90, 180, 270, 360), key=lambda a: abs(roll - a)) % 360
        return {
            "felt": self.felt,
            "roll": f"~{nearest} deg" if abs((roll - nearest + 180) % 360 - 180) < 15 else "oblique",
            "lens": "|k1|<0.02" if abs(self.k1) < 0.02 else ("barrel" if self.k1 < 0 else "pincushion"),
            "calibration": "off >3%" if abs(self.zoom_error) > 0.03 else "off <=3%",
            "card width": "95-125 px" if self.card_width_px < 125 else ("125-155 px" if self.card_width_px < 155 else "155-185 px"),
            "capture": "native" if self.capture_scale >= 1 else "upscaled",
            "jpeg": "q55-70" if self.jpeg_quality < 70 else "q70-92",
            "blur": " + ".join((["motion"] if self.motion_px > 0 else []) + (["defocus>1"] if self.defocus_sigma > 1.0 else [])) or "sharp",
            "glare": "glare" if self.glare_spots else "no glare",
            "light": "uneven" if self.gradient > 0.15 or self.vignetting > 0.12 else "even",
            "layout": self.layout,
            "print": "logo" if self.logo else ("lines" if self.printed_lines else "plain"),
        }


def draw_conditions(rng: np.random.Generator, blind: bool = False, layout: LayoutKind | None = None) -> Conditions:
    """One frame's conditions, each drawn uniformly over the envelope. ``blind`` draws the felt from
    the blind felts as well (the blind conditions)."""
    felts = {**FELTS, **BLIND_FELTS} if blind else FELTS
    felt = str(rng.choice(sorted(felts)))
    base = np.array(felts[felt], float) * rng.uniform(0.85, 1.15, 3)
    roll = float(rng.choice([0.0, 90.0, 180.0, 270.0, float(rng.uniform(0, 360))])) + float(rng.uniform(-4, 4))
    capture = float(rng.choice([1.0, 1.0, 0.75, 2 / 3, 0.5]))
    warm = float(rng.uniform(-1, 1))
    return Conditions(
        felt=felt,
        felt_bgr=(float(base[0]), float(base[1]), float(base[2])),
        printed_lines=bool(rng.random() < 0.6),
        logo=bool(rng.random() < 0.35),
        roll_deg=roll,
        tilt_deg=float(rng.uniform(0, 14)),
        zoom_error=float(rng.uniform(-0.06, 0.06)),
        perspective_error=float(rng.uniform(0, 0.02)),
        k1=float(rng.uniform(-0.05, 0.05)),
        k1_error=float(rng.uniform(-0.005, 0.005)),
        card_width_px=float(rng.uniform(95, 185)),
        capture_scale=capture,
        jpeg_quality=int(rng.integers(55, 93)),
        gradient=float(rng.uniform(0, 0.3)),
        vignetting=float(rng.uniform(0, 0.25)),
        gamma=float(rng.uniform(0.85, 1.15)),
        white_balance=(1.0 - 0.12 * warm, 1.0, 1.0 + 0.12 * warm),
        exposure=float(rng.uniform(0.8, 1.1)),
        glare_spots=int(rng.integers(1, 4)) if rng.random() < 2 / 3 else 0,
        defocus_sigma=float(rng.uniform(0, 1.7)),
        motion_px=float(rng.uniform(3, 14)) if rng.random() < 0.3 else 0.0,
        read_noise=float(rng.uniform(0.5, 5)),
        shot_noise=float(rng.uniform(0, 0.6)),
        layout=layout or LAYOUTS[int(rng.integers(len(LAYOUTS)))],
        jokers=bool(rng.random() < 0.5),
        out_of_frame=bool(rng.random() < 0.4),
    )
