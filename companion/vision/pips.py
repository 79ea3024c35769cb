"""Read one die's top face from its pips.

The die is first brought to a fixed size (`FACE_PX` across), so that every threshold below is a fraction of the die
rather than a count of camera pixels. Pips are blobs darker (or lighter) than the face around them; the polarity is
tried both ways per die unless the profile fixes it. A count is only trusted when the pips sit where a d6 puts them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

FACE_PX = 56
"""Side of a die in the canonical crop."""

# The seven pip positions of a d6 lie on a 3x3 grid of spacing s; the largest distance between pips is always the
# corner-to-corner diagonal 2*sqrt(2)*s. Each layout is described by its pairwise distances over that diagonal.
_LAYOUTS = {
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def _signature(points: np.ndarray) -> np.ndarray:
    d = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    upper = d[np.triu_indices(len(points), 1)]
    return np.sort(upper / upper.max())


SIGNATURES = {n: _signature(np.array(p, float)) for n, p in _LAYOUTS.items()}
SPACING_RANGE = (0.1, 0.3)
"""Pip grid spacing s as a fraction of the (roughly measured) die size."""
SPACING_PER_PIP = (0.55, 2.4)
"""Pip grid spacing s over the pip diameter, over common dice."""


@dataclass(frozen=True)
class FaceRead:
    value: int | None
    confidence: float
    pips: tuple[tuple[float, float], ...]
    """Pip centres in crop pixels."""
    polarity: str | None


NO_READ = FaceRead(None, 0.0, (), None)


def layout_fit(points: np.ndarray) -> tuple[int | None, float]:
    """The d6 value these pip centres form and how well (1 perfect, 0 none), from their geometry alone."""
    n = len(points)
    if n == 1:
        return 1, 1.0
    if n not in SIGNATURES:
        return None, 0.0
    error = float(np.abs(_signature(points) - SIGNATURES[n]).mean())
    return n, max(0.0, 1.0 - error / 0.1)


def _pip_blobs(response: np.ndarray, face: np.ndarray, threshold: float):
    """Blobs of `response` above `threshold` inside `face`, with their centres, areas and mean responses."""
    binary = ((response > threshold) & face).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_32S, cv2.CCL_BBDT)
    return stats[1:], centroids[1:]


def read_face(crop_bgr: np.ndarray, face: np.ndarray, polarity: str = "auto") -> FaceRead:
    """Read the die centred in `crop_bgr` (FACE_PX per die), using only pixels where `face` is set.

    Pips are looked for in the grey image and in the colour channel where the face varies most (red pips on a
    black die barely show in grey); the most confident reading wins."""
    core = face.astype(bool)
    if core.sum() < 0.3 * FACE_PX ** 2:
        return NO_READ
    gray = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2GRAY)
    channels = [gray]
    _, spreads = cv2.meanStdDev(crop_bgr, mask=face)
    _, gray_spread = cv2.meanStdDev(gray, mask=face)
    best = int(np.argmax(spreads))
    if spreads[best, 0] > 1.3 * gray_spread[0, 0]:
        channels.append(cv2.extractChannel(crop_bgr, best))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (int(FACE_PX * 0.33),) * 2)
    candidates = []
    for channel in channels:
        for name, op in (("dark", cv2.MORPH_BLACKHAT), ("light", cv2.MORPH_TOPHAT)):
            if polarity in ("auto", name):
                read = _read_polarity(channel, cv2.morphologyEx(channel, op, kernel), face, name)
                if read.pips:
                    candidates.append(read)
        if any(r.value is not None and r.confidence >= 0.9 for r in candidates):
            break
    if not candidates:
        return NO_READ
    return max(candidates, key=lambda r: (r.value is not None, r.confidence))


def _read_polarity(channel: np.ndarray, response: np.ndarray, face: np.ndarray, polarity: str) -> FaceRead:
    """The best reading of one response map over a few thresholds: close pips merge at a low threshold and faint
    ones vanish at a high one, so each is tried and the layouts judge."""
    core = face.astype(bool)
    top = cv2.minMaxLoc(cv2.blur(response, (3, 3)), mask=face)[1]
    if top < 30:
        return NO_READ
    otsu, _ = cv2.threshold(response[core].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    body = cv2.mean(channel, mask=face)[0]
    glare = _glare(channel, face, body)
    reads = []
    for threshold in sorted({max(otsu, 0.35 * top), 0.5 * top, 0.65 * top}):
        reads.append(_read_at(channel, body, glare, response, core, polarity, threshold))
        if len(reads) >= 2 and reads[-1].value is not None and reads[-1].value == reads[-2].value:
            break  # two thresholds agree: the third would not change the reading
    best = max(reads, key=lambda r: (r.value is not None, r.confidence, len(r.pips)))
    rivals = {r.value for r in reads if r.value is not None and r.confidence > 0.25}
    if len(rivals) > 1:  # thresholds disagree on the value: a pip comes and goes
        return FaceRead(None, min(best.confidence, 0.2), best.pips, polarity)
    return best


def _read_at(channel: np.ndarray, body: float, glare: bool, response: np.ndarray, core: np.ndarray, polarity: str,
             threshold: float) -> FaceRead:
    """Pips are the blobs of `response` above `threshold` that have a pip's size and shape and stand out from the
    face's body level in the polarity's direction (a light gap between dark pips is body, not a light pip)."""
    sign = 1.0 if polarity == "light" else -1.0
    stats, centroids = _pip_blobs(response, core, threshold)
    pip_area = (FACE_PX * 0.07) ** 2, (FACE_PX * 0.32) ** 2
    pips = []
    for (x, y, w, h, area), c in zip(stats, centroids):
        if not pip_area[0] <= area <= pip_area[1]:
            continue
        if max(w, h) > 1.8 * min(w, h) or area < 0.45 * w * h:
            continue
        if sign * (_disk_mean(channel, c, 1.0) - body) < max(10.0, 0.25 * threshold):
            continue
        pips.append((c, area))
    if not pips:
        return FaceRead(None, 0.0, (), polarity)
    points = np.array([p for p, _ in pips], float)
    areas = np.array([a for _, a in pips], float)
    value, confidence = layout_fit(points)
    if value is not None:
        confidence *= _plausibility(points, areas, response.shape, glare)
        confidence *= _emptiness(response, core, points, float(np.sqrt(np.median(areas) / np.pi)))
    return FaceRead(value if confidence > 0 else None, confidence,
                    tuple((float(x), float(y)) for x, y in points), polarity)


def _glare(channel: np.ndarray, face: np.ndarray, body: float) -> bool:
    """Saturated light on a face that is not itself white can hide pips."""
    return body < 240 and cv2.countNonZero(cv2.bitwise_and((channel >= 250).astype(np.uint8), face)) > \
        0.02 * cv2.countNonZero(face)


def _plausibility(points: np.ndarray, areas: np.ndarray, shape, glare: bool) -> float:
    """1 when the pips are alike in size, spaced as on a die and near the crop's centre; less otherwise.
    A face with a centre pip (1, 3, 5) must have it near the centre: a column of three pips left of a washed-out
    column is a 6, not a 3."""
    factor = 0.3 if areas.max() > 2.6 * areas.min() else 1.0
    if glare:
        factor *= 0.3
    centre = np.array(shape[::-1], float) / 2
    off = np.hypot(*(points.mean(axis=0) - centre)) / FACE_PX
    if len(points) % 2:
        factor *= min(1.0, max(0.0, 1.0 - (off - 0.18) / 0.15))
    if len(points) == 1:
        return factor
    span = np.sqrt(((points[:, None] - points[None]) ** 2).sum(axis=2)).max() / (2 * math.sqrt(2))
    per_pip = span / np.sqrt(4 * np.median(areas) / np.pi)
    if not (SPACING_RANGE[0] <= span / FACE_PX <= SPACING_RANGE[1]
            and SPACING_PER_PIP[0] <= per_pip <= SPACING_PER_PIP[1]):
        factor *= 0.2
    return factor * min(1.0, max(0.0, 1.0 - (off - 0.2) / 0.3))


def _emptiness(response: np.ndarray, core: np.ndarray, points: np.ndarray, radius: float) -> float:
    """How clean the face is where the layout has no pip: 1 when nothing there resembles a pip, 0 when something
    answers half as strongly as the pips do (a pip missed by the threshold makes another value)."""
    strength = np.array([_disk_mean(response, p, radius * 0.6) for p in points]).min()
    if len(points) == 1:
        ghosts = _ring_max(response, core, points[0], 1.8 * radius, 0.34 * FACE_PX)
    else:
        ghosts = max((_disk_mean(response, q, radius * 0.6) for q in _free_positions(points, radius)), default=0.0)
    ratio = ghosts / max(strength, 1.0)
    return min(1.0, max(0.0, (0.55 - ratio) / 0.2))


def _free_positions(points: np.ndarray, radius: float) -> list[np.ndarray]:
    """The 3x3 grid positions of this face (from its corner-to-corner diagonal) that hold no detected pip."""
    d = np.sqrt(((points[:, None] - points[None]) ** 2).sum(axis=2))
    a, b = np.unravel_index(np.argmax(d), d.shape)
    centre = points.mean(axis=0) if len(points) != 2 else (points[a] + points[b]) / 2
    half = (points[b] - points[a]) / 2  # s * (1, 1) in grid coordinates
    e1 = np.array([half[0] + half[1], half[1] - half[0]]) / 2
    e2 = np.array([half[0] - half[1], half[0] + half[1]]) / 2
    grid = centre + GRID[:, :1] * e1 + GRID[:, 1:] * e2
    nearest = np.sqrt(((grid[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    free = list(grid[nearest > 2 * radius])
    if len(points) == 2:  # a 3 whose far corner was missed reads as a 2 of half the size
        free += [points[a] - half, points[b] + half]
    return free


GRID = np.array([(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)], float)


def _disk_mean(image: np.ndarray, p: np.ndarray, radius: float) -> float:
    r = max(1, int(round(radius)))
    x, y = int(round(p[0])), int(round(p[1]))
    patch = image[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
    return float(patch.mean()) if patch.size else 0.0


def _ring_max(image: np.ndarray, core: np.ndarray, p: np.ndarray, inner: float, outer: float) -> float:
    """The strongest 3x3-averaged response between two radii around p, within the face."""
    smooth = cv2.blur(image, (3, 3))
    ring = np.zeros(image.shape, np.uint8)
    centre = (int(round(p[0])), int(round(p[1])))
    cv2.circle(ring, centre, int(outer), 1, -1)
    cv2.circle(ring, centre, int(inner), 0, -1)
    ring &= core.astype(np.uint8)
    return cv2.minMaxLoc(smooth, mask=ring)[1] if ring.any() else 0.0
