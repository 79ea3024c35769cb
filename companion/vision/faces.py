"""Taught die faces: symbol dice (Countaloupe's Chance Die) and colour dice (Lowdown), learnt from a few examples.

A die crop is a square around one die, `CROP_SCALE` times its size across, so that a ring of tray shows around it
(`die_crop` cuts one from a frame). Each crop becomes a short feature vector:

- colour (4 numbers): the face's median colour (its marks left out) divided channel by channel by the tray's (the
  median of the crop's outer ring). A camera's white balance and exposure multiply face and tray alike, so the
  ratios cancel them (the von Kries model); the tray is measured next to the die, so uneven light cancels too.
  The ratios become hue (2), saturation and brightness (`_colour_features`), since the part of a change of light
  that ratios do not cancel mostly changes saturation.
- shape (10 numbers): the marks on the face (pixels far from the face colour, whatever their polarity, weighted
  0..1 by how far), described without regard to how the die lies: the marked fraction of four overlapping rings
  around the centre, and the strength of their 1- to 6-fold rotational patterns as a share of their own weight
  (|sum of r exp(i k theta)| / sum of r over the marks), so a star is 5-fold whatever its size.

Before that the die is re-centred and re-scaled in its crop (soft moments of its blob against the tray), since a die
finder's centre is a pixel or two off and its size a few per cent, and the rotational features notice.

A model keeps, per taught face, the mean of its examples and their spread (never below a floor, since players teach
with few examples), leaving out examples unlike the rest (`_consistent`). A crop's distance to a face is its
largest per-feature z-score. The nearest face is the answer only when it is near (distance < `reject_at`) and
clearly nearer than the next (distance ratio <= `max_ratio`); anything else is None, unreadable, never the nearest
guess. So a numbered pip die shown to a Chance Die model is None, and the pip reader takes it.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from ..errors import CompanionError

CROP_SCALE = 2.0         # crop side / die side
SIDE = 64                # crops are resampled to SIDE x SIDE pixels: the die is SIDE / CROP_SCALE across
FACE_RADIUS = 0.38       # of the die side: the disc read as the top face, clear of its edges even when blurred
TRAY_RADIUS = 0.9        # of the die side: beyond it, the crop shows tray (and the die's shadow has faded)
RINGS = 4
HARMONICS = 6
KNEE = 0.3               # log-chroma radius where the colour features turn from saturation to hue
COLOUR = slice(0, 4)
FLOORS = np.array([0.02, 0.02, 0.10, 0.10] + [0.03] * RINGS + [0.04] * HARMONICS)
PLAUSIBLE_AREA = (0.4, 2.2)  # die blob / the area the finder's size gives: a finder size 0.75-1.6 x the die's
MIN_INK = 0.4            # colour distance (relative to the face's) below which nothing on a face counts as ink
MIN_MARKS = 0.05         # of the face: below it, marks are too few to have a shape of their own
FORMAT = "dice-companion/taught-classes-2"
REJECT_AT = 5.0          # a crop further than this many spreads from every face, in its worst feature, is no face
MAX_RATIO = 0.6          # ... and one less than this much nearer its face than the next is not clearly one


class FaceModelError(CompanionError, ValueError):
    """A taught model that cannot be built or loaded; the message says what to teach or fix."""


def die_crop(frame_bgr: np.ndarray, center: tuple[float, float], size: float) -> np.ndarray:
    """The crop the models expect: a square of CROP_SCALE * size pixels centred on the die (edges replicated)."""
    side = max(8, int(round(CROP_SCALE * size)))
    return cv2.getRectSubPix(frame_bgr, (side, side), (float(center[0]), float(center[1])))


def _polar_grid():
    c = (SIDE - 1) / 2
    y, x = np.mgrid[0:SIDE, 0:SIDE].astype(np.float32) - c
    r = np.hypot(x, y).ravel() / (SIDE / CROP_SCALE)      # in die sides
    face = np.flatnonzero(r <= FACE_RADIUS)
    r_face = r[face] / FACE_RADIUS
    # Each pixel shares itself between the two nearest ring centres (a tent): a mark that the finder's error
    # moves across a ring's edge moves its weight smoothly, instead of jumping from one ring to the next.
    centres = (np.arange(RINGS) + 0.5) / RINGS
    rings = np.clip(1.0 - np.abs(r_face[None, :] - centres[:, None]) * RINGS, 0.0, 1.0)
    rings[0, r_face < centres[0]] = 1.0
    rings[-1, r_face > centres[-1]] = 1.0
    # Marks near the centre say little about a direction, so each pixel counts by its distance from the centre.
    waves = np.exp(1j * np.outer(np.arange(1, HARMONICS + 1), np.arctan2(y.ravel()[face], x.ravel()[face])))
    tray = np.flatnonzero(r >= TRAY_RADIUS)[::3]         # a third of the ring gives the same median, faster
    return face, tray, (rings / rings.sum(axis=1, keepdims=True)).astype(np.float32), \
        (waves * r_face).astype(np.complex64), r_face.astype(np.float32)


_FACE, _TRAY, _RINGS, _WAVES, _RADII = _polar_grid()
_MARKS_WEIGHT = float(_RADII.sum())    # the weight of a face marked all over
_NEIGHBOURS = np.ones((3, 3), np.uint8)


def _medians(pixels: np.ndarray) -> np.ndarray:
    """Per-channel medians of an (n, 3) array (np.partition: several times faster than np.median here)."""
    k = len(pixels) // 2
    return np.partition(pixels.T, k, axis=1)[:, k].astype(np.float32)


def _resample(crop_bgr: np.ndarray) -> np.ndarray:
    if not isinstance(crop_bgr, np.ndarray) or crop_bgr.ndim != 3 or crop_bgr.shape[2] != 3 \
            or min(crop_bgr.shape[:2]) < 16:
        raise FaceModelError("a die crop must be a BGR image at least 16 pixels across")
    shrink = min(crop_bgr.shape[:2]) >= 2 * SIDE
    return cv2.resize(crop_bgr, (SIDE, SIDE), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _tray_colour(crop: np.ndarray) -> np.ndarray:
    return _medians(np.take(crop.reshape(-1, 3), _TRAY, axis=0)) + 1.0


def _unlike_tray(crop: np.ndarray, tray: np.ndarray) -> np.ndarray:
    """Per pixel, how far its colour is from the tray's under some shadow, 1 at the threshold of a die: tinted
    (channel ratios to the tray differ by 1.35 times), brighter (1.3 times) or much darker (0.4 times; a shadow
    only darkens, and not that much)."""
    b, g, r = cv2.split((crop.astype(np.float32) + 1.0) / tray)    # per-plane arithmetic: numpy is slow at
    brightness = (b + g + r) / 3                                     # reducing an axis of length 3
    tint = cv2.max(cv2.max(b, g), r) / cv2.min(cv2.min(b, g), r)
    log_b = np.log(brightness)
    return np.maximum(np.log(tint) / math.log(1.35), np.maximum(log_b / math.log(1.3), log_b / math.log(0.4)))


def _centre_die(crop: np.ndarray, tray: np.ndarray) -> np.ndarray:
    """The crop moved and scaled so that the die sits exactly in the middle at its nominal size.

    A die finder's centre and size are off by a pixel or two and a few per cent; the rotational features are
    sensitive to a fraction of a pixel of that. The die is the blob at the middle whose colour is not the tray's,
    its holes (marks the colour of the tray) filled. Its centre and area are soft moments: pixels on its edge count
    by how far they are from the tray (0 to 1 across the threshold), so that they move with the edge's sub-pixel
    place instead of flipping. When no blob of a plausible size is found (a die the colour of the tray), the crop
    is used as given.
    """
    unlike = _unlike_tray(crop, tray)
    die = (unlike > 1.0).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(die, connectivity=4)
    middle = labels[SIDE // 2, SIDE // 2]
    nominal = SIDE / CROP_SCALE
    if middle == 0 or not PLAUSIBLE_AREA[0] < stats[middle, cv2.CC_STAT_AREA] / nominal ** 2 < PLAUSIBLE_AREA[1]:
        return crop
    blob = (labels == middle).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = cv2.drawContours(np.zeros_like(blob), contours, -1, 1, thickness=-1)
    edge = cv2.dilate(filled, _NEIGHBOURS) - filled
    weight = filled + edge * np.clip(unlike - 0.5, 0.0, 1.0)
    moments = cv2.moments(weight)
    scale = nominal / math.sqrt(moments["m00"] / 0.98)      # rounded corners: 98 % of a square
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    c = (SIDE - 1) / 2
    move = np.array([[scale, 0, c - scale * cx], [0, scale, c - scale * cy]], np.float32)
    return cv2.warpAffine(crop, move, (SIDE, SIDE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _markedness(face: np.ndarray, body: np.ndarray) -> np.ndarray:
    """How much each face pixel is a mark, 0..1: its colour distance from the face's, on a ramp between a quarter
    and three quarters of the ink's distance (the top percent), so that blur and a finder's sub-pixel error move
    a mark's weight a little rather than flipping pixels on its edge. A blank face (no ink above the noise) has
    no marks."""
    offset = face - body
    distance = np.sqrt(np.einsum("ij,ij->i", offset, offset)) / np.linalg.norm(body)
    top = len(distance) // 100
    ink = max(MIN_INK, float(np.partition(distance, -top)[-top]))
    return np.clip((distance - 0.25 * ink) / (0.5 * ink), 0.0, 1.0).astype(np.float32)


def _colour_features(body: np.ndarray) -> list[float]:
    """Hue (2), saturation and brightness of the face relative to the tray (`body`: its B, G, R ratios to it).

    In the log-chromaticity plane (log R - log G, and log R + log G - 2 log B, scaled to be orthonormal) the tray
    is the origin and a per-channel gain of the light is a shift that the division by the tray has already undone.
    What is left of a change of light is mostly a change of saturation (a lamp whose channels overlap greys
    saturated colours) and little change of hue, so the point is squashed radially: hue as a unit vector, a
    colour near the tray's fading to the origin rather than swinging about it (KNEE), and saturation as a log
    radius, judged apart with a wider floor.
    """
    log_b, log_g, log_r = np.log(body)
    chroma = np.array([(log_r - log_g) / math.sqrt(2), (log_r + log_g - 2 * log_b) / math.sqrt(6)])
    radius = float(np.hypot(*chroma))
    return [*(chroma / (radius + KNEE)), math.log(radius + KNEE), math.log(float(body.mean()))]


def face_features(crop_bgr: np.ndarray) -> np.ndarray:
    """The feature vector of one die crop (see the module docstring); COLOUR slices its colour part."""
    crop = _resample(crop_bgr)
    tray = _tray_colour(crop)
    crop = _centre_die(crop, tray)
    face = (np.take(crop.reshape(-1, 3), _FACE, axis=0).astype(np.float32) + 1.0) / tray   # white balance cancels
    body = _medians(face)
    marks = _markedness(face, body)
    if np.count_nonzero(marks < 0.5) > len(marks) // 4:
        body = _medians(face[marks < 0.5])                 # the face colour without its marks
    rings = _RINGS @ marks
    # The marks' rotational patterns as a share of their own weight: their shape, whatever their size.
    weighted = _WAVES @ marks
    harmonics = np.abs(weighted) / max(float(_RADII @ marks), MIN_MARKS * _MARKS_WEIGHT)
    return np.concatenate([_colour_features(body), rings, harmonics])


def _consistent(rows: np.ndarray, floors: np.ndarray, reject_at: float) -> np.ndarray:
    """The examples that agree with the rest: within `reject_at` robust spreads (the median absolute deviation,
    never below the floor) of the examples' median, in every feature. A player's examples include the odd bad one
    (a die the finder split in two, a hand in view), and one would widen its face's spread until the face took in
    other faces; the median and its deviation do not notice it while most examples are good."""
    centre = np.median(rows, axis=0)
    spread = np.maximum(1.4826 * np.median(np.abs(rows - centre), axis=0), floors)
    return rows[np.abs((rows - centre) / spread).max(axis=1) <= reject_at]


class TaughtClasses:
    """Named classes, each the mean and spread of its examples' features; open-set nearest-class decisions."""

    def __init__(self, means: Mapping[str, Sequence[float]], spreads: Mapping[str, Sequence[float]],
                 counts: Mapping[str, int], reject_at: float = REJECT_AT, max_ratio: float = MAX_RATIO):
        self.names = list(means)
        self.means = np.array([means[n] for n in self.names], dtype=float)
        self.spreads = np.array([spreads[n] for n in self.names], dtype=float)
        self.counts = dict(counts)
        self.reject_at = reject_at
        self.max_ratio = max_ratio

    @classmethod
    def teach(cls, examples: Mapping[str, np.ndarray], floors: np.ndarray, reject_at: float = REJECT_AT,
              max_ratio: float = MAX_RATIO) -> TaughtClasses:
        """`examples`: class name -> array of feature vectors (one row per example). Examples unlike the others
        of their class are left out (`counts` tells how many were kept)."""
        if not examples:
            raise FaceModelError("nothing to teach: give at least one face with examples")
        means, spreads, counts = {}, {}, {}
        for name, rows in examples.items():
            rows = np.atleast_2d(np.asarray(rows, dtype=float))
            if rows.size == 0:
                raise FaceModelError(f"no examples of {name!r}: show it to the camera at least once")
            rows = _consistent(rows, floors, reject_at)
            spread = rows.std(axis=0, ddof=1) if len(rows) > 1 else np.zeros(rows.shape[1])
            means[name] = rows.mean(axis=0)
            spreads[name] = np.maximum(spread, floors)
            counts[name] = len(rows)
        return cls(means, spreads, counts, reject_at, max_ratio)

    def distances(self, features: np.ndarray) -> np.ndarray:
        """Per class, the largest |z-score| of any feature: a face must match in every respect, so one feature
        far off (a cross's 4-fold pattern where a star has a 5-fold one) is not averaged away by the others."""
        return np.abs((features - self.means) / self.spreads).max(axis=1)

    def decide(self, features: np.ndarray) -> tuple[str | None, float]:
        """(name, confidence) of the nearest class when it is near and unambiguous, else (None, 0.0)."""
        d = self.distances(features)
        order = np.argsort(d)
        nearest = d[order[0]]
        ratio = nearest / d[order[1]] if len(d) > 1 else 0.0
        if nearest >= self.reject_at or ratio > self.max_ratio:
            return None, 0.0
        # 1 deep inside its face and far from the others, falling to 0 at either rejection boundary; squared, as a
        # log-likelihood falls with z squared, so that a true match (its worst feature ~2-3 spreads off, a third as
        # far from its face as from the next) stays above the reader's threshold.
        confidence = 1.0 - max((nearest / self.reject_at) ** 2, (ratio / self.max_ratio) ** 2)
        return self.names[order[0]], float(confidence)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "reject_at": self.reject_at, "max_ratio": self.max_ratio,
                "classes": {n: {"mean": [round(v, 6) for v in m], "spread": [round(v, 6) for v in s],
                                "examples": self.counts[n]}
                            for n, m, s in zip(self.names, self.means.tolist(), self.spreads.tolist())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], length: int) -> TaughtClasses:
        if data.get("format") != FORMAT:
            raise FaceModelError(f"taught model format {data.get('format')!r} is not {FORMAT!r}: teach it again")
        try:
            classes = data["classes"]
            means = {n: [float(v) for v in c["mean"]] for n, c in classes.items()}
            spreads = {n: [float(v) for v in c["spread"]] for n, c in classes.items()}
            counts = {n: int(c["examples"]) for n, c in classes.items()}
            reject_at, max_ratio = float(data["reject_at"]), float(data["max_ratio"])
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise FaceModelError(f"taught model is damaged ({type(error).__name__}: {error}): teach it again") \
                from None
        if not means:
            raise FaceModelError("taught model has no classes: teach it again")
        for name in means:
            if len(means[name]) != length or len(spreads[name]) != length or min(spreads[name]) <= 0:
                raise FaceModelError(f"taught model's class {name!r} is damaged: teach it again")
        return cls(means, spreads, counts, reject_at, max_ratio)


class FaceModel:
    """The taught faces of one kind of die ("symbol" or "colour"): teach from crops, classify a crop."""

    def __init__(self, kind: str, classes: TaughtClasses):
        self.kind = kind
        self.classes = classes

    @property
    def faces(self) -> list[str]:
        return list(self.classes.names)

    @classmethod
    def teach(cls, kind: str, examples: Mapping[str, Sequence[np.ndarray]], **decision) -> FaceModel:
        """`examples`: face name -> crops of the die showing that face (die_crop), a few each, taken as the
        die lies in different places and turns. `decision` may set reject_at and max_ratio (TaughtClasses)."""
        features = {face: np.array([face_features(c) for c in crops]).reshape(len(crops), len(FLOORS))
                    for face, crops in examples.items()}
        return cls(kind, TaughtClasses.teach(features, FLOORS, **decision))

    def classify(self, crop_bgr: np.ndarray) -> tuple[str | None, float]:
        """(face, confidence 0..1) or (None, 0.0) when the crop is no taught face, or not clearly one."""
        return self.classes.decide(face_features(crop_bgr))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.classes.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FaceModel:
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise FaceModelError("taught face model needs a 'kind': teach it again")
        return cls(data["kind"], TaughtClasses.from_json(data, len(FLOORS)))
