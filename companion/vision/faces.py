"""Taught die faces: symbol dice (Countaloupe's Chance Die) and colour dice (Lowdown), learnt from a few examples.

A die crop is a square around one die, `CROP_SCALE` times its size across, so that a ring of tray shows around it
(`die_crop` cuts one from a frame). Each crop becomes a short feature vector:

- colour (3 numbers): the face's median colour divided channel by channel by the tray's (the median of the crop's
  outer ring), as log(B/G), log(R/G) and log brightness. A camera's white balance and exposure multiply face and
  tray alike, so the ratios cancel them (the von Kries model); the tray is measured next to the die, so uneven
  light cancels too.
- shape (10 numbers): the marks on the face (pixels far from the face colour, whatever their polarity), described
  without regard to how the die lies: the marked fraction of four rings around the centre, and the strength of the
  marks' 1- to 6-fold rotational patterns (|mean of exp(i k theta)|, weighted by distance from the centre).

Before that the die is re-centred and re-scaled in its crop (its blob against the tray), since a die finder's centre
is a pixel or two off and the rotational features notice.

A model keeps, per taught face, the mean of its examples and their spread (never below a floor, since players teach
with few examples). A crop's distance to a face is its largest per-feature z-score. The nearest face is the answer
only when it is near (distance <= `reject_at`) and clearly nearer than the next (distance ratio <= `max_ratio`);
anything else is None, unreadable, never the nearest guess. So a numbered pip die shown to a Chance Die model is
None, and the pip reader takes it.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from ..errors import CompanionError

CROP_SCALE = 2.0         # crop side / die side
SIDE = 64                # crops are resampled to SIDE x SIDE pixels: the die is SIDE / CROP_SCALE across
FACE_RADIUS = 0.42       # of the die side: the disc read as the top face, clear of the rounded edges
TRAY_RADIUS = 0.9        # of the die side: beyond it, the crop shows tray (and the die's shadow has faded)
RINGS = 4
HARMONICS = 6
COLOUR = slice(0, 3)
FLOORS = np.array([0.05, 0.05, 0.10] + [0.03] * RINGS + [0.015] * HARMONICS)
FORMAT = "dice-companion/taught-classes-1"


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
    rings = np.minimum((r_face * RINGS).astype(int), RINGS - 1)
    # Marks near the centre say little about a direction, so each pixel counts by its distance from the centre.
    waves = np.exp(1j * np.outer(np.arange(1, HARMONICS + 1), np.arctan2(y.ravel()[face], x.ravel()[face])))
    tray = np.flatnonzero(r >= TRAY_RADIUS)[::3]         # a third of the ring gives the same median, faster
    return face, tray, rings, waves * r_face / r_face.sum()


_FACE, _TRAY, _RING_OF, _WAVES = _polar_grid()
_RING_SIZES = np.bincount(_RING_OF, minlength=RINGS)


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


def _centre_die(crop: np.ndarray, tray: np.ndarray) -> np.ndarray:
    """The crop moved and scaled so that the die sits exactly in the middle at its nominal size.

    A die finder's centre and size are off by a pixel or two and a few per cent; the rotational features are
    sensitive to that. The die is the blob at the middle whose colour is not the tray's under some shadow (a
    shadow only darkens: equal ratios to the tray, above 0.4); its centroid and area give the correction. When no
    such blob of a plausible size is found (a die the colour of the tray), the crop is used as given.
    """
    half = cv2.resize(crop, (SIDE // 2, SIDE // 2), interpolation=cv2.INTER_AREA)   # a quarter of the work
    b, g, r = cv2.split((half.astype(np.float32) + 1.0) / tray)    # per-plane arithmetic: numpy is slow at
    brightness = (b + g + r) / 3                                     # reducing an axis of length 3
    tint = np.maximum(np.maximum(b, g), r) / np.minimum(np.minimum(b, g), r)
    die = ((tint > 1.35) | (brightness > 1.3) | (brightness < 0.4)).astype(np.uint8)
    _, labels, stats, centroids = cv2.connectedComponentsWithStats(die, connectivity=4)
    middle = labels[SIDE // 4, SIDE // 4]
    area = 4.0 * stats[middle, cv2.CC_STAT_AREA]
    nominal = SIDE / CROP_SCALE
    if middle == 0 or not 0.6 < area / nominal ** 2 < 1.5:
        return crop
    scale = nominal / math.sqrt(area / 0.98)              # rounded corners: 98 % of a square
    cx, cy = 2.0 * centroids[middle] + 0.5
    c = (SIDE - 1) / 2
    move = np.array([[scale, 0, c - scale * cx], [0, scale, c - scale * cy]], np.float32)
    return cv2.warpAffine(crop, move, (SIDE, SIDE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def face_features(crop_bgr: np.ndarray) -> np.ndarray:
    """The feature vector of one die crop (see the module docstring); COLOUR slices its colour part."""
    crop = _resample(crop_bgr)
    tray = _tray_colour(crop)
    crop = _centre_die(crop, tray)
    face = (np.take(crop.reshape(-1, 3), _FACE, axis=0).astype(np.float32) + 1.0) / tray   # white balance cancels
    body = _medians(face)
    offset = face - body
    distance = np.sqrt(np.einsum("ij,ij->i", offset, offset)) / np.linalg.norm(body)
    top = len(distance) // 100
    marked = distance > max(0.2, 0.5 * float(np.partition(distance, -top)[-top]))
    if np.count_nonzero(~marked) > len(marked) // 4:
        body = _medians(face[~marked])                     # the face colour without its marks
    rings = np.bincount(_RING_OF[marked], minlength=RINGS) / _RING_SIZES
    harmonics = np.abs(_WAVES[:, marked].sum(axis=1))
    colour = [math.log(body[0] / body[1]), math.log(body[2] / body[1]), math.log(float(body.mean()))]
    return np.concatenate([colour, rings, harmonics])


class TaughtClasses:
    """Named classes, each the mean and spread of its examples' features; open-set nearest-class decisions."""

    def __init__(self, means: Mapping[str, Sequence[float]], spreads: Mapping[str, Sequence[float]],
                 counts: Mapping[str, int], reject_at: float = 5.0, max_ratio: float = 0.6):
        self.names = list(means)
        self.means = np.array([means[n] for n in self.names], dtype=float)
        self.spreads = np.array([spreads[n] for n in self.names], dtype=float)
        self.counts = dict(counts)
        self.reject_at = reject_at
        self.max_ratio = max_ratio

    @classmethod
    def teach(cls, examples: Mapping[str, np.ndarray], floors: np.ndarray, **decision) -> TaughtClasses:
        """`examples`: class name -> array of feature vectors (one row per example)."""
        if not examples:
            raise FaceModelError("nothing to teach: give at least one face with examples")
        means, spreads, counts = {}, {}, {}
        for name, rows in examples.items():
            rows = np.atleast_2d(np.asarray(rows, dtype=float))
            if rows.size == 0:
                raise FaceModelError(f"no examples of {name!r}: show it to the camera at least once")
            spread = rows.std(axis=0, ddof=1) if len(rows) > 1 else np.zeros(rows.shape[1])
            means[name] = rows.mean(axis=0)
            spreads[name] = np.maximum(spread, floors)
            counts[name] = len(rows)
        return cls(means, spreads, counts, **decision)

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
        # Near its face and far from the others: a true match is typically 2 spreads off in its worst feature
        # and a third as far from its face as from the next.
        confidence = min(1.0 - nearest / self.reject_at, 1.0 - ratio)
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
        die lies in different places and turns. `decision` may set reject_at and max_ratio."""
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
