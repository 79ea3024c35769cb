"""Group pip candidates into dice by the face between them, then judge each group as a d6 face.

Two pips belong to one die when they are close enough to share a face, stand out the same way, sit on the same body
colour, and the straight line between them crosses only that body (or other pips): between pips of two touching dice
the line crosses both dice's edges, the seam between them or the tray, which breaks the link. Splitting by pips
rather than by area never cuts a die across its pips, and dice merged with a tray wall or a neighbour are still found.

Each group is then judged: its pips must form a d6 layout, be alike in size and spaced plausibly for their size, the
free grid positions must be empty (a missed pip makes another value), the body must extend all around the face's
centre (a group that is half a face, or a speck on the tray, does not), and the body must differ from the tray.
Groups that overlap a better one (a side face seen obliquely, the light gaps between dark pips) are dropped.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .pips import SPACING, Pips, free_positions, grid_spacing, layout_fit, on_face

LINK_REACH = 0.75
"""Pips further apart than this many die sizes are never on one face (a 2's diagonal is about 0.76)."""
LINK_SAMPLES = 12
BODY_OFFSETS = np.array([(a, b) for a in (-1.4, 1.4) for b in (-0.5, 0.5)] + [(b, a) for a in (-1.4, 1.4)
                                                                                for b in (-0.5, 0.5)]
                        + [(-1.4, 0), (1.4, 0), (0, -1.4), (0, 1.4)]
                        + [(a, b) for a in (-0.5, 0.5) for b in (-0.5, 0.5)], float)
"""Where the body check looks, in pip spacings along the face's axes: between and just outside the pip grid,
inside the face whatever the die's make."""
LONE_RING = 1.3
"""Around a lone pip the body check looks on a circle this many pip spacings out (a third of the face)."""
GLARE_LEVEL = 250
GLARE_REACH = 1.8
"""The glare check looks this many pip spacings around the face's centre."""
GLARE_FRACTION = 0.03
PIP_FRINGE = 1.5
"""A pip's blob (half its peak response) is smaller than the pip: its blurred rim reaches this many radii."""
FALLBACK_SPACING = 0.17
"""Pip spacing over the die's body size (which takes in shadow and side faces) when no face shows it."""
SPACING_PER_PIP = (0.55, 2.6)
"""Pip grid spacing over the pip diameter, over common dice."""
SAME_BODY = 0.25
"""Colour steps up to this fraction of the pips' own contrast (and at least the profile's least contrast) are
the same body; beyond it is an edge, a seam or the tray."""


@dataclass(frozen=True)
class FaceFound:
    """One die found by its pips, in working pixels."""

    center: tuple[float, float]
    size: float
    value: int | None
    confidence: float
    polarity: str
    pips: int


def dice_from_pips(pips: Pips, frame: np.ndarray, tray_step, die_px: float, min_contrast: float,
                   threshold: float) -> list[FaceFound]:
    """The dice these pips make in `frame` (the working frame); `tray_step(points, colours)` gives how far colours
    seen at working-pixel points (n, 2) are from the empty tray there. Colours are judged on the frame lightly
    blurred, except along the links, where a seam between touching dice may be a pixel wide."""
    smooth = cv2.GaussianBlur(frame, (3, 3), 0)
    if not len(pips):
        return []
    judge = _Judge(pips, smooth, tray_step, min_contrast, threshold)
    on_dice = tray_step(pips.xy, judge.body) >= min_contrast  # else a pattern on the tray, not a die
    if not on_dice.all():
        judge = _Judge(pips.subset(on_dice), smooth, tray_step, min_contrast, threshold)
        pips = judge.pips
    if not len(pips):
        return []
    groups = _link(pips, frame, judge.fringes, judge.body, die_px, min_contrast)
    judge.spacing = _typical_spacing(pips, groups, die_px)
    found = [face for group in groups if (face := judge(group)) is not None]
    return _without_overlaps(found)


def _typical_spacing(pips: Pips, groups: list[np.ndarray], die_px: float) -> float:
    """The pip spacing of this frame's dice: the median over groups that clearly form a face of three or more
    pips; without any, a fixed fraction of the die's body size."""
    spacings = [grid_spacing(pips.xy[g]) for g in groups if 3 <= len(g) <= 6 and layout_fit(pips.xy[g])[1] >= 0.8]
    return float(np.median(spacings)) if spacings else FALLBACK_SPACING * die_px


def _sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    x = np.clip(np.round(points[..., 0]).astype(np.intp), 0, w - 1)
    y = np.clip(np.round(points[..., 1]).astype(np.intp), 0, h - 1)
    return image[y, x]


def _ring_colour(smooth: np.ndarray, discs: np.ndarray, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Median colour of 8 points around each pip, off other pips (all 8 when every one is on a pip): the body
    the pip sits on."""
    angles = np.arange(8) * (math.pi / 4)
    ring = centres[:, None, :] + radii[:, None, None] * np.stack([np.cos(angles), np.sin(angles)], axis=1)[None]
    colours = _sample(smooth, ring).astype(np.float32)
    off_pip = _sample(discs, ring) == 0
    counted = off_pip | ~off_pip.any(axis=1, keepdims=True)
    return np.nanmedian(np.where(counted[..., None], colours, np.nan), axis=1)


def _tolerance(strength: np.ndarray, min_contrast: float) -> np.ndarray:
    return np.maximum(min_contrast, SAME_BODY * strength)


def _link(pips: Pips, frame, fringes, body, die_px: float, min_contrast: float) -> list[np.ndarray]:
    """Groups of pip indices joined by face-only lines (union of pairwise links)."""
    n = len(pips)
    d = np.sqrt(((pips.xy[:, None] - pips.xy[None]) ** 2).sum(axis=2))
    size_ratio = pips.radius[:, None] / pips.radius[None]
    candidate = (d <= LINK_REACH * die_px) & (pips.polarity[:, None] == pips.polarity[None]) \
        & (size_ratio < 1.8) & (size_ratio > 1 / 1.8)
    i, j = np.nonzero(np.triu(candidate, 1))
    parent = np.arange(n)
    if len(i):
        tol = _tolerance(np.minimum(pips.strength[i], pips.strength[j]), min_contrast)
        shared = (body[i] + body[j]) / 2
        same_body = np.abs(body[i] - body[j]).max(axis=1) <= tol
        t = np.linspace(0.0, 1.0, LINK_SAMPLES + 2)[1:-1]
        points = pips.xy[i][:, None] + t[None, :, None] * (pips.xy[j] - pips.xy[i])[:, None]
        step = np.abs(_sample(frame, points).astype(np.float32) - shared[:, None]).max(axis=2)
        step[_sample(fringes, points) != 0] = 0
        linked = same_body & (step.max(axis=1) <= tol)
        for a, b in zip(i[linked], j[linked]):
            ra, rb = _root(parent, a), _root(parent, b)
            parent[ra] = rb
    roots = np.array([_root(parent, k) for k in range(n)])
    return [np.flatnonzero(roots == r) for r in np.unique(roots)]


def _root(parent: np.ndarray, k: int) -> int:
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


class _Judge:
    """Judges groups of pips of one frame as d6 faces."""

    def __init__(self, pips: Pips, smooth: np.ndarray, tray_step, min_contrast: float, threshold: float):
        self.pips, self.smooth, self.tray_step = pips, smooth, tray_step
        self.min_contrast, self.threshold = min_contrast, threshold
        self.discs, self.fringes = _discs(pips, smooth.shape[:2], 1.0), _discs(pips, smooth.shape[:2], PIP_FRINGE)
        self.body = _ring_colour(smooth, self.discs, pips.xy, pips.radius + np.maximum(0.6 * pips.radius, 2.0))
        self.spacing = 0.0

    def __call__(self, group: np.ndarray) -> FaceFound | None:
        """The die this group of pips shows, or None when it is not a die at all."""
        pips = self.pips
        points = pips.xy[group]
        centre = points.mean(axis=0)
        colour = np.median(self.body[group], axis=0)
        strength = float(pips.strength[group].min())
        tol = float(_tolerance(np.array(strength), self.min_contrast))
        n = len(group)
        value, fit = layout_fit(points) if n <= 6 else (None, 0.0)
        spacing = grid_spacing(points) if n > 1 else self.spacing
        if n > 1:
            around = self._body_around(on_face(points, BODY_OFFSETS), colour, tol)
        else:  # a lone pip is a 1 only in the middle of a clear face: no other pip, no edge, nearby
            around = self._body_around(centre + LONE_RING * spacing * _CIRCLE, colour, tol, pips_count_against=True)
        if around < 0.5:
            return None  # the body does not surround this group: half a face, a side face, or clutter
        confidence = fit * min(1.0, (around - 0.5) / 0.4)
        if value is not None:
            radii = pips.radius[group]
            if radii.max() > 1.6 * radii.min():
                confidence *= 0.3
            if n > 1 and not SPACING_PER_PIP[0] <= spacing / (2 * float(np.median(radii))) <= SPACING_PER_PIP[1]:
                confidence *= 0.2
            if n > 1 and not 0.6 * self.spacing <= spacing <= 1.6 * self.spacing:
                confidence *= 0.3
            if self._glare(points, colour):
                confidence *= 0.3
            confidence *= _emptiness(pips.responses[int(pips.polarity[group[0]])], points, spacing, strength)
        polarity = ("dark", "light")[int(pips.polarity[group[0]])]
        size = float(max(spacing, 0.6 * self.spacing) / SPACING)
        return FaceFound((float(centre[0]), float(centre[1])), size,
                         value if confidence >= self.threshold else None, float(confidence), polarity, n)


    def _glare(self, points: np.ndarray, colour: np.ndarray) -> bool:
        """Saturated light on a face that is not itself white can hide pips (a 6 with a column washed out is a
        perfect 3): look over the whole face around the pips."""
        if colour.max() >= GLARE_LEVEL - 10:
            return False
        reach = int(round(GLARE_REACH * max(grid_spacing(points) if len(points) > 1 else 0.0, self.spacing)))
        x, y = (int(round(v)) for v in points.mean(axis=0))
        face = self.smooth[max(0, y - reach):y + reach + 1, max(0, x - reach):x + reach + 1]
        return face.size > 0 and float((face.min(axis=2) >= GLARE_LEVEL).mean()) > GLARE_FRACTION

    def _body_around(self, probes: np.ndarray, colour: np.ndarray, tol: float, pips_count_against: bool = False):
        """The fraction of the probe points that show this die's body: nearer its colour than the tray's, within
        `tol`. Points on pips are not counted, or count as not body when `pips_count_against`."""
        h, w = self.smooth.shape[:2]
        inside = (probes[:, 0] >= 0) & (probes[:, 0] < w) & (probes[:, 1] >= 0) & (probes[:, 1] < h)
        on_pip = _sample(self.discs, probes) != 0
        counted = inside if pips_count_against else inside & ~on_pip
        if counted.sum() < len(probes) // 2:
            return 0.0
        seen = _sample(self.smooth, probes[counted]).astype(np.float32)
        off_body = np.abs(seen - colour).max(axis=1)
        same = (off_body <= tol) & (off_body < self.tray_step(probes[counted], seen))
        if pips_count_against:
            same &= ~on_pip[counted]
        return float(same.mean())


def _discs(pips: Pips, shape, grow: float) -> np.ndarray:
    """A mask of every pip, its radius grown `grow` times."""
    mask = np.zeros(shape, np.uint8)
    for (x, y), r in zip(pips.xy, pips.radius):
        cv2.circle(mask, (int(round(x)), int(round(y))), int(round(grow * r + 0.5)), 1, -1)
    return mask


_CIRCLE = np.column_stack([np.cos(np.arange(16) * (math.pi / 8)), np.sin(np.arange(16) * (math.pi / 8))])


def _emptiness(response: np.ndarray, points: np.ndarray, spacing: float, strength: float) -> float:
    """1 when nothing at the face's free grid positions resembles a pip, 0 when something there answers half as
    strongly as the weakest pip (a pip missed by the threshold makes another value)."""
    free = free_positions(points, spacing)
    if not len(free):
        return 1.0
    ghosts = float(_sample(response, free).max())
    ratio = ghosts / max(strength, 1.0)
    return min(1.0, max(0.0, (0.55 - ratio) / 0.2))


def _without_overlaps(found: list[FaceFound]) -> list[FaceFound]:
    """Keep the best of groups that share a die (read before unread, then the more confident). An unread group is
    kept only when it is clearly a die of its own: three pips or more, well clear of every other die (a side face
    seen at a slant, or the rest of a die already read, is not)."""
    kept: list[FaceFound] = []
    for face in sorted(found, key=lambda f: (f.value is not None, f.confidence, f.pips), reverse=True):
        reach = 0.55 if face.value is not None else 1.0
        if face.value is None and face.pips < 3:
            continue
        if all(math.dist(face.center, k.center) > reach * max(face.size, k.size) for k in kept):
            kept.append(face)
    return kept
