"""Whether a pip is a disc, seen at the input's scale.

A die read at a large body's size (reader._large_read) may be a tray seen whole with dice lying in it as a face's
pips lie, or a face across a row of touching dice: their "pips" are dice, rounded squares, or pairs of dice, long
blobs, where a die's pips are discs. Small pips (matteo-webcam's are 10 px across, drawn out by a camera leaning over
the table) are too few pixels to tell, so only large dice are asked.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

ROUND_PIP = 0.8
"""A disc fills this much of its enclosing circle at least (all but its rim's pixels; a rounded square 0.64-0.7)."""


def is_disc(frame: np.ndarray, center: np.ndarray, radius: float, min_strength: float) -> bool:
    """Whether the pip at `center` (frame pixels, about `radius` across) is a disc: what stands out from the ring
    around it by half its centre's step (at least `min_strength`), taken whole from its centre and no larger than
    the pip's reach, fills ROUND_PIP of its enclosing circle."""
    half = int(math.ceil(2.0 * radius))
    x, y = int(round(center[0])), int(round(center[1]))
    x0, y0 = max(0, x - half), max(0, y - half)
    crop = frame[y0:y + half + 1, x0:x + half + 1].astype(np.float32)
    ys, xs = np.mgrid[0:crop.shape[0], 0:crop.shape[1]]
    distance = np.hypot(xs - (x - x0), ys - (y - y0))
    ring = crop[(distance >= 1.4 * radius) & (distance <= 1.9 * radius)]
    if len(ring) < 8:
        return False
    step = np.abs(crop - np.median(ring, axis=0)).max(axis=2)
    centre_step = float(np.median(step[distance <= 0.4 * radius]))
    if centre_step < min_strength:
        return False
    _, labels = cv2.connectedComponents((step > 0.5 * centre_step).astype(np.uint8))
    pip = (labels == labels[distance == distance.min()][0]).astype(np.uint8)
    if pip[0].any() or pip[-1].any() or pip[:, 0].any() or pip[:, -1].any():
        return False  # larger than a pip of this radius: a die's body, or pips run together
    points = cv2.findNonZero(pip)
    _, enclosing = cv2.minEnclosingCircle(points)
    return len(points) >= ROUND_PIP * math.pi * (enclosing + 0.5) ** 2
