"""The dice reader: a frame in, every die found out, each with its value or an honest null.

Dice are found on a working copy of the frame no larger than `WORK_PX` (find_dice), then each die is cut from the
full-resolution frame at a fixed size and read from its pips (pips). A die whose pips do not form a d6 layout, or
whose read is not confident, keeps value None: a silent misread is the worst thing the reader can do.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..games.base import Die
from .find_dice import Region, find_regions
from .pips import FACE_PX, read_face
from .profile import Profile

WORK_PX = 640
"""Longest side of the working copy used to find dice."""
CROP = 1.5
"""A die's crop spans this many die sizes, so a die found off-centre still fits."""


@dataclass(frozen=True)
class ReadDie:
    """One die as the camera saw it, in input-image pixels."""

    center: tuple[float, float]
    size: float
    value: int | None
    confidence: float
    kind: str = "pips"
    face: str | None = None
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    owner: str | None = None
    zone: str = "mat"
    polarity: str | None = None
    """"dark" or "light": how the pips stood out from this die's face (None when no pips were seen)."""

    def to_die(self) -> Die:
        return Die(value=self.value, kind=self.kind, face=self.face, owner=self.owner, zone=self.zone,
                   confidence=round(self.confidence, 3))

    def to_json(self) -> dict:
        out = {"value": self.value, "center": [round(self.center[0], 1), round(self.center[1], 1)],
               "confidence": round(self.confidence, 3), "kind": self.kind}
        if self.kind != "pips":
            out["face"] = self.face
        return out


class DiceReader:
    """Reads every frame with one calibration profile. Taught face and owner models in the profile are applied to
    each die found (companion.vision.faces / owners); a taught face that matches confidently wins over pips."""

    def __init__(self, profile: Profile | None = None):
        self.profile = profile or Profile()
        self._background = self.profile.background_image()
        self._faces = _taught(self.profile.faces, "faces", "FaceModel")
        self._owners = _taught(self.profile.owners, "owners", "OwnerModel")

    def read(self, frame_bgr: np.ndarray) -> list[ReadDie]:
        frame = _as_bgr(frame_bgr)
        scale = min(1.0, WORK_PX / max(frame.shape[:2]))
        if self.profile.die_px:
            scale = min(scale, 48.0 / self.profile.die_px) if self.profile.die_px > 48 else scale
        work = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        die_px = self.profile.die_px * scale if self.profile.die_px else None
        regions, die_work = find_regions(work, self._background, self.profile.min_contrast, die_px)
        dice = []
        for region in regions:
            if not self._in_tray(region.center, scale):
                continue
            die = self._read_region(frame, region, scale, die_work)
            if die is not None:
                dice.append(self._classify(frame, die))
        return sorted(dice, key=lambda d: (round(d.center[1] / d.size), d.center[0]))  # rows, left to right

    def _in_tray(self, center: tuple[float, float], scale: float) -> bool:
        if self.profile.tray is None:
            return True
        x0, y0, x1, y1 = self.profile.tray
        return x0 <= center[0] / scale <= x1 and y0 <= center[1] / scale <= y1

    def _classify(self, frame: np.ndarray, die: ReadDie) -> ReadDie:
        """Apply the profile's taught face and owner models and its zones to a die found by its pips."""
        if not (self._faces or self._owners or self.profile.zones):
            return die
        from .faces import die_crop
        from .owners import owner_by_zone
        crop = die_crop(frame, die.center, die.size) if (self._faces or self._owners) else None
        changes = {}
        for kind, model in self._faces.items():
            face, confidence = model.classify(crop)
            if face is not None and confidence >= self.profile.threshold:
                changes.update(kind=kind, face=face, value=None, confidence=confidence)
                break
        for model in self._owners.values():
            owner, confidence = model.owner_of(crop)
            if owner is not None:
                changes["owner"] = owner
                break
        zone = owner_by_zone(die.center, self.profile.zones) if self.profile.zones else None
        if zone is not None:
            changes["zone"] = zone
        return replace(die, **changes) if changes else die

    def _read_region(self, frame: np.ndarray, region: Region, scale: float, die_work: float) -> ReadDie | None:
        size = float(np.clip(region.size, 0.75 * die_work, 1.35 * die_work))
        zoom = FACE_PX / size  # working pixels -> canonical crop pixels
        side = int(round(CROP * FACE_PX))
        cx, cy = region.center
        to_crop = np.array([[zoom, 0, side / 2 - zoom * cx], [0, zoom, side / 2 - zoom * cy]])
        frame_to_crop = to_crop @ np.diag([scale, scale, 1.0])
        crop = cv2.warpAffine(frame, frame_to_crop, (side, side), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
        x0, y0 = region.box[:2]
        mask_to_crop = to_crop.copy()
        mask_to_crop[:, 2] += to_crop[:, :2] @ np.array([x0, y0], float)
        face = cv2.warpAffine(region.mask, mask_to_crop, (side, side), flags=cv2.INTER_NEAREST)
        face = cv2.erode(face, np.ones((5, 5), np.uint8))
        read = read_face(crop, face, self.profile.pip_polarity)
        if not read.pips:
            return None
        to_frame = 1.0 / (zoom * scale)
        if read.value is not None and read.value > 1:
            px, py = np.mean(read.pips, axis=0)
            center = ((px - side / 2) * to_frame + cx / scale, (py - side / 2) * to_frame + cy / scale)
        else:
            center = (cx / scale, cy / scale)
        die_in = size / scale
        confident = read.value is not None and read.confidence >= self.profile.threshold
        bbox = (center[0] - die_in / 2, center[1] - die_in / 2, center[0] + die_in / 2, center[1] + die_in / 2)
        return ReadDie(center, die_in, read.value if confident else None, read.confidence, bbox=bbox,
                       polarity=read.polarity)


def _taught(models: dict, module: str, class_name: str) -> dict:
    """The profile's taught models (kind -> model), loaded with the other vision engineer's classes."""
    if not models:
        return {}
    import importlib
    cls = getattr(importlib.import_module(f"companion.vision.{module}"), class_name)
    return {kind: cls.from_json(data) for kind, data in models.items()}


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise ValueError("a frame must be an 8-bit image array")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame
