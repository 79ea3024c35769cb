"""Pip candidates in a whole frame, and the geometry of a d6 face.

The frame is first brought to a scale where a die is about `DIE_PX` across (reader.py), so every size below is a
fraction of a die. A pip is a small blob darker ("dark") or lighter ("light") than the face around it, in the
brightest or the dimmest colour channel: black pips on any body are dark in the brightest channel, white pips on any
body light in the dimmest, red pips on cream dark in the dimmest, yellow on green light in the brightest. The
response is the black-hat (top-hat) of those channels with a kernel a little wider than a pip, and each blob is kept
when it passes half the strongest response within a die's reach (pips of one die stand out alike) and has a pip's
size and roundness.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

DIE_PX = 40
"""A die's size across in the working frame: its pips are then 4-8 px, enough to keep them apart."""
KERNEL = 0.3
"""Black-hat / top-hat kernel side, over the die size: wider than a pip, narrower than a face."""
PIP_DIAMETER = (0.09, 0.34)
"""A pip's diameter over the die size, over common dice (a 1 is often larger)."""
POLARITIES = ("dark", "light")


@dataclass(frozen=True)
class Pips:
    """Pip candidates of one frame, as parallel arrays (working pixels)."""

    xy: np.ndarray
    """(n, 2) centres."""
    radius: np.ndarray
    polarity: np.ndarray
    """0 dark, 1 light."""
    strength: np.ndarray
    """Peak response: how far the pip stands out from its face, in grey levels."""
    responses: tuple[np.ndarray, np.ndarray]
    """The dark and light response maps."""

    def __len__(self) -> int:
        return len(self.xy)

    def subset(self, keep: np.ndarray) -> Pips:
        return Pips(self.xy[keep], self.radius[keep], self.polarity[keep], self.strength[keep], self.responses)


def find_pips(image: np.ndarray, die_px: float, min_strength: float, polarity: str = "auto") -> Pips:
    """Every pip-like blob in `image` (BGR, a die about `die_px` across)."""
    b, g, r = cv2.split(image)
    brightest, dimmest = cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)
    side = _odd(KERNEL * die_px)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    reach = cv2.getStructuringElement(cv2.MORPH_RECT, (_odd(0.8 * die_px),) * 2)
    found, responses = [], []
    for k, (name, op) in enumerate((("dark", cv2.MORPH_BLACKHAT), ("light", cv2.MORPH_TOPHAT))):
        if polarity not in ("auto", name):
            responses.append(np.zeros(image.shape[:2], np.uint8))
            continue
        response = cv2.max(cv2.morphologyEx(brightest, op, kernel), cv2.morphologyEx(dimmest, op, kernel))
        responses.append(response)
        found.append(_blobs(response, cv2.dilate(response, reach), die_px, min_strength, k))
    xy, radius, pol, strength = (np.concatenate(parts) for parts in zip(*found))
    return Pips(xy, radius, pol, strength, tuple(responses))


def _blobs(response: np.ndarray, local_peak: np.ndarray, die_px: float, min_strength: float, polarity: int):
    """Round blobs of pip size where the response beats half its local peak and `min_strength`."""
    binary = cv2.compare(response, cv2.max(cv2.divide(local_peak, 2), min_strength), cv2.CMP_GT)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(binary, connectivity=8)
    x, y, w, h, area = (stats[1:, i] for i in range(5))
    lo, hi = (math.pi / 4 * (f * die_px) ** 2 for f in PIP_DIAMETER)
    keep = (area >= 0.5 * lo) & (area <= hi) & (np.maximum(w, h) <= 2.0 * np.minimum(w, h)) & (area >= 0.4 * w * h)
    centres = centroids[1:][keep]
    peaks = response[np.clip(np.round(centres[:, 1]).astype(int), 0, response.shape[0] - 1),
                     np.clip(np.round(centres[:, 0]).astype(int), 0, response.shape[1] - 1)]
    strong = peaks >= min_strength
    n = int(strong.sum())
    return (centres[strong], np.sqrt(area[keep][strong] / math.pi), np.full(n, polarity, np.int8),
            peaks[strong].astype(np.float32))


def _odd(size: float) -> int:
    return max(3, int(round(size)) | 1)


# ------------------------------------------------------------------------------------------------ d6 geometry
# The pip positions of a d6 lie on a 3x3 grid of spacing s; the largest distance between pips is always a
# corner-to-corner diagonal, 2*sqrt(2)*s, which gives the grid's axes. Each pip is put on its nearest grid node, the
# nodes must make a d6 face, and an affine map from the nodes to the pips (a face seen at a slant is a
# parallelogram) must leave little over.
GRID = np.array([(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)], float)
SPACING = 0.27
"""Pip grid spacing s over the die size, on a common die (0.22-0.32 across makes)."""
FIT_SLACK = (0.12, 0.25)
"""An affine fit's worst pip residual, in pip spacings: below the first the fit is perfect, past the sum none."""


def layout_fit(points: np.ndarray) -> tuple[int | None, float]:
    """The d6 value these pip centres form and how well (1 perfect, 0 none), from their geometry alone."""
    n = len(points)
    if n == 1:
        return 1, 1.0
    if n > 6:
        return None, 0.0
    centre, e1, e2 = face_axes(points)
    nodes = np.clip(np.round(np.linalg.solve(np.column_stack([e1, e2]), (points - centre).T).T), -1, 1)
    if not _is_face(nodes):
        return None, 0.0
    design = np.column_stack([nodes, np.ones(n)])
    affine = np.linalg.lstsq(design, points, rcond=None)[0]
    spacing = math.sqrt(abs(np.linalg.det(affine[:2]))) if n > 3 else grid_spacing(points)
    residual = float(np.sqrt(((design @ affine - points) ** 2).sum(axis=1)).max()) / max(spacing, 1e-6)
    return n, float(np.clip(1.0 - (residual - FIT_SLACK[0]) / FIT_SLACK[1], 0.0, 1.0))


def _is_face(nodes: np.ndarray) -> bool:
    """Whether grid nodes (distinct, each coordinate -1, 0 or 1) are the pips of a d6 face of their count."""
    cells = {(int(x), int(y)) for x, y in nodes}
    if len(cells) != len(nodes):
        return False
    corners = {c for c in cells if abs(c[0]) == abs(c[1]) == 1}
    rest = cells - corners
    diagonal = len(corners) == 2 and {(-x, -y) for x, y in corners} == corners
    return {
        2: diagonal and not rest,
        3: diagonal and rest == {(0, 0)},
        4: len(corners) == 4 and not rest,
        5: len(corners) == 4 and rest == {(0, 0)},
        6: len(corners) == 4 and rest in ({(-1, 0), (1, 0)}, {(0, -1), (0, 1)}),
    }[len(nodes)]


def grid_spacing(points: np.ndarray) -> float:
    """The pip grid spacing s of a face of 2-6 pips: its longest pip-to-pip distance is 2*sqrt(2)*s."""
    d = np.sqrt(((points[:, None] - points[None]) ** 2).sum(axis=2))
    return float(d.max()) / (2 * math.sqrt(2))


def face_axes(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centre of a face of 2-6 pips and its grid axes e1, e2 (each one pip spacing long)."""
    d = np.sqrt(((points[:, None] - points[None]) ** 2).sum(axis=2))
    a, b = np.unravel_index(np.argmax(d), d.shape)
    centre = points.mean(axis=0) if len(points) != 2 else (points[a] + points[b]) / 2
    half = (points[b] - points[a]) / 2  # s * (1, 1) in grid coordinates
    e1 = np.array([half[0] + half[1], half[1] - half[0]]) / 2
    e2 = np.array([half[0] - half[1], half[0] + half[1]]) / 2
    return centre, e1, e2


def on_face(points: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Points at grid offsets (k, 2) from the face's centre, in the face's own axes."""
    centre, e1, e2 = face_axes(points)
    return centre + offsets[:, :1] * e1 + offsets[:, 1:] * e2


def free_positions(points: np.ndarray, spacing: float) -> np.ndarray:
    """The 3x3 grid positions of this face that hold no pip (a 2 also gets its two far corners' outside
    neighbours: a 3 whose corner was missed reads as a 2 of half the size). A lone pip's are around it."""
    if len(points) == 1:
        angles = np.arange(8) * (math.pi / 4)
        return points[0] + spacing * np.column_stack([np.cos(angles), np.sin(angles)]) * 1.2
    grid = on_face(points, GRID)
    nearest = np.sqrt(((grid[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    free = grid[nearest > 0.5 * spacing]
    if len(points) == 2:
        free = np.vstack([free, on_face(points, np.array([(-2.0, -2.0), (2.0, 2.0)]))])
    return free
