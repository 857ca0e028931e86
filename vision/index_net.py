"""The index net: a small convolutional classifier of index corners, a witness beside the enrolled deck.

The enrolled deck (``vision.templates``) knows one brand from its own artwork and
nothing else. The net is the other kind of knowledge: it was trained once, on many
brands' index corners as the camera sees them (``vision.index_net_training``), and
reads the shapes every French-suited index shares (a six's open top, a club's three
lobes) at the frame's own resolution. It never names a card by itself: the
recognizer asks it only about a card its looks already point to, and a read needs
both witnesses (``vision.recognizer``).

Its input is the region of the card from just outside the index corner to past the
index (``NET_ORIGIN``, ``NET_FX`` x ``NET_FY`` of the card), at ``NET_SIZE`` pixels,
about the camera's own scale; its output a probability for each of ``CLASSES``
(the 52 cards and the joker) and for "no index here". The weights are plain arrays
(``index_net.npz`` beside this module) and the forward pass is numpy: no training
framework runs at the table.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from controller.cards import JOKER, Card, standard_deck
from vision.geometry import patch_homographies, warp_patches

__all__ = ["CLASSES", "NET_FX", "NET_FY", "NET_ORIGIN", "NET_SIZE", "NOT_AN_INDEX", "IndexNet", "net_input", "net_patches"]

#: What the net tells apart: every card of a standard deck and the joker, then "no index here".
CLASSES: tuple[Card, ...] = (*standard_deck(), JOKER)
NOT_AN_INDEX = len(CLASSES)
#: The region read: from a little outside the index corner (card fractions) to past the index patch
#: (``vision.geometry.INDEX_FX``, ``INDEX_FY``), so a corner a few pixels off still shows the whole index.
NET_ORIGIN = (-0.04, -0.03)
NET_FX, NET_FY = 0.32, 0.40
#: (w, h) pixels: about 1.4 px/mm on a poker-size card, near the camera's own 1.6.
NET_SIZE = (28, 48)
WEIGHTS = Path(__file__).with_name("index_net.npz")
#: The arrays a weights file holds, by the names ``IndexNet`` reads them.
LAYERS = tuple(f"{layer}.{part}" for layer in ("conv0", "conv1", "conv2", "fc0", "fc1") for part in ("weight", "bias"))


def net_patches(frame: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """The net's region of each card outline (N, 4, 2; index corner first) in a BGR frame: (N, h, w, 3) uint8."""
    if not len(outlines):
        return np.zeros((0, NET_SIZE[1], NET_SIZE[0], 3), np.uint8)
    homographies = patch_homographies(np.asarray(outlines, np.float64), NET_SIZE, NET_FX, NET_FY, NET_ORIGIN)
    return warp_patches(frame, homographies, NET_SIZE)


def net_input(patches: np.ndarray) -> np.ndarray:
    """Patches (N, h, w, 3) as the net takes them: float32, each patch centred and scaled by its own contrast
    (light and exposure say nothing of the card), channels last."""
    x = patches.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    spread = x.std(axis=(1, 2, 3), keepdims=True)
    return np.asarray((x - mean) / (spread + 8.0))


def _conv_relu_pool(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A 3x3 convolution (padding 1), ReLU and 2x2 max pooling (an odd last row or column dropped, as
    torch's ``MaxPool2d`` does), channels last: (N, H, W, C) to (N, H // 2, W // 2, O)."""
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2, w + 2, c), x.dtype)
    padded[:, 1:-1, 1:-1] = x
    # Each pixel's 3 x 3 neighbourhood, channel by channel (c, 3, 3), as torch orders a kernel's weights:
    # written one offset at a time, several times faster than copying a sliding window view.
    columns = np.empty((n, h, w, c, 3, 3), x.dtype)
    for dy in range(3):
        for dx in range(3):
            columns[..., dy, dx] = padded[:, dy : dy + h, dx : dx + w]
    columns = columns.reshape(n * h * w, c * 9)
    y = columns @ weight.reshape(len(weight), -1).T + bias
    y = np.maximum(y, 0.0).reshape(n, h, w, len(weight))[:, : h // 2 * 2, : w // 2 * 2]
    return np.asarray(y.reshape(n, h // 2, 2, w // 2, 2, len(weight)).max(axis=(2, 4)))


class IndexNet:
    """The trained net: ``probabilities`` of each class for index patches."""

    def __init__(self, layers: dict[str, np.ndarray]) -> None:
        missing = [name for name in LAYERS if name not in layers]
        if missing:
            raise ValueError(f"index net weights lack {', '.join(missing)}")
        self.layers = {name: layers[name].astype(np.float32) for name in LAYERS}

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> IndexNet:
        """The net from a weights file (``vision.index_net_training`` writes one); an error names a file that
        is missing, damaged or lacks a layer."""
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(dict(data))
        except (OSError, ValueError) as error:
            raise ValueError(f"{path}: not index net weights ({error})") from error

    def logits(self, patches: np.ndarray) -> np.ndarray:
        x = net_input(patches)
        for k in range(3):
            x = _conv_relu_pool(x, self.layers[f"conv{k}.weight"], self.layers[f"conv{k}.bias"])
        x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)
        x = np.maximum(x @ self.layers["fc0.weight"].T + self.layers["fc0.bias"], 0.0)
        return np.asarray(x @ self.layers["fc1.weight"].T + self.layers["fc1.bias"])

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """(N, len(CLASSES) + 1): each patch's probability of each card and, last, of no index."""
        if not len(patches):
            return np.zeros((0, NOT_AN_INDEX + 1), np.float32)
        z = self.logits(patches)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return np.asarray(e / e.sum(axis=1, keepdims=True))


@cache
def shipped_net() -> IndexNet:
    """The net shipped with tablectl, loaded once."""
    return IndexNet.load()
