"""Whose die is it? By the die's body colour, taught at setup (BANX player colours, Roll Your Luck die colours),
or by the seat zone of the tray it lies in (configuration).

The body colour is the colour part of faces.face_features: the face's colour without its pips, relative to the
tray around the die, so the camera's white balance and exposure cancel. The decision is the same open-set rule as
for taught faces: a die whose colour is near no taught owner, or about as near two, has no owner (None), and the
session asks the players instead of guessing.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from ..errors import ConfigError
from .faces import COLOUR, FLOORS, FaceModelError, TaughtClasses, face_features

_LENGTH = COLOUR.stop - COLOUR.start


class OwnerModel:
    """Taught body colours, one per owner: teach from die crops (faces.die_crop), then tell a crop's owner."""

    def __init__(self, classes: TaughtClasses):
        self.classes = classes

    @property
    def owners(self) -> list[str]:
        return list(self.classes.names)

    @classmethod
    def teach(cls, examples: Mapping[str, Sequence[np.ndarray]], **decision) -> OwnerModel:
        """`examples`: owner name -> crops of that owner's dice, any faces up. `decision` may set reject_at and
        max_ratio (see faces.TaughtClasses)."""
        colours = {name: np.array([face_features(c)[COLOUR] for c in crops]).reshape(len(crops), _LENGTH)
                   for name, crops in examples.items()}
        return cls(TaughtClasses.teach(colours, FLOORS[COLOUR], **decision))

    def owner_of(self, crop_bgr: np.ndarray) -> tuple[str | None, float]:
        """(owner, confidence 0..1), or (None, 0.0) when the body colour is no taught owner's, or not clearly one."""
        return self.classes.decide(face_features(crop_bgr)[COLOUR])

    def to_json(self) -> dict[str, Any]:
        return self.classes.to_json()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OwnerModel:
        if not isinstance(data, Mapping):
            raise FaceModelError("taught owner model must be an object: teach it again")
        return cls(TaughtClasses.from_json(data, _LENGTH))


def owner_by_zone(center: tuple[float, float], zones: Mapping[str, Sequence[Sequence[float]]]) -> str | None:
    """The name of the one zone (polygon of (x, y) image points) that holds `center`, edges included; None when no
    zone or several overlapping ones hold it, since a die between seats has no owner that can be told."""
    inside = []
    for name, polygon in zones.items():
        points = np.asarray(polygon, dtype=np.float32)
        if points.ndim != 2 or points.shape[1] != 2 or len(points) < 3:
            raise ConfigError(f"seat zone {name!r} must be a polygon of at least 3 (x, y) points")
        if cv2.pointPolygonTest(points, (float(center[0]), float(center[1])), False) >= 0:
            inside.append(name)
    return inside[0] if len(inside) == 1 else None
