"""Build a tray profile from a few still frames of one tray and set of dice, with no questions asked.

Each frame is read with the profile given (the built-in one by default); the dice read confidently tell the die
size and the pip polarity, where they lie tells the play area, and the median of the frames (the dice lie in
different places in each) is the empty tray. Frames that are too dark or show glare are reported as warnings.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ..errors import CompanionError
from .profile import Profile
from .reader import DiceReader

BACKGROUND_PX = 160
"""Longest side of the stored empty-tray image: the background only needs to be right at the scale of a die."""
STILL_STEP = 25
STILL_FRACTION = 0.8
"""A frame shows the same tray as the others when this fraction of it is within STILL_STEP grey levels."""
GLARE_FRACTION = 0.01
DIM_LEVEL = 60


class CalibrationError(CompanionError):
    """The frames cannot give a profile; the message says why."""


def calibrate_tray(frames: list[np.ndarray], base: Profile | None = None) -> Profile:
    if not frames:
        raise CalibrationError("no frames to calibrate from")
    base = base or Profile()
    reader = DiceReader(base)
    reads = [reader.read(frame) for frame in frames]
    dice = [die for read in reads for die in read if die.value is not None]
    if len(dice) < 2:
        raise CalibrationError("fewer than two dice could be read in these frames: check the light and the focus")
    sizes = np.array([d.size for d in dice])
    warnings = _lighting_warnings(frames)
    background = _background(frames)
    tray = None
    if background is None:
        warnings.append("the frames do not show one still tray (camera moved, or fewer than three frames): "
                        "no background or play area stored")
    else:
        centres = np.array([d.center for d in dice])
        margin = 1.5 * float(np.median(sizes))
        h, w = frames[0].shape[:2]
        tray = (max(0, int(centres[:, 0].min() - margin)), max(0, int(centres[:, 1].min() - margin)),
                min(w, int(centres[:, 0].max() + margin)), min(h, int(centres[:, 1].max() + margin)))
    profile = replace(base, die_px=round(float(np.median(sizes)), 1), tray=tray, background=background,
                      pip_polarity=_polarity(dice), warnings=warnings)
    if not _reads_as_well(profile, frames, reads):
        # The measured tray reads these very frames worse than the frame's own estimates (dice that never moved
        # sit in the median, say; one die size for dice of several sizes): keep only what is safe.
        warnings.append("the measured background reads these frames worse than none: not stored")
        profile = replace(base, pip_polarity=profile.pip_polarity, warnings=warnings)
    return profile


def _reads_as_well(profile: Profile, frames: list[np.ndarray], without: list[list]) -> bool:
    """Whether `profile` reads the frames at least as well as they were read `without` it: as many dice read
    confidently, and none of those read without it given another value (one of the two reads is then wrong)."""
    reader = DiceReader(profile)
    count = 0
    for frame, before in zip(frames, without):
        after = [die for die in reader.read(frame) if die.value is not None]
        count += len(after)
        for die in (d for d in before if d.value is not None):
            if any(other.value != die.value and np.hypot(other.center[0] - die.center[0],
                                                         other.center[1] - die.center[1]) < die.size / 2
                   for other in after):
                return False
    return count >= sum(die.value is not None for dice in without for die in dice)


def _background(frames: list[np.ndarray]) -> str | None:
    """The per-pixel median of at least three frames of one size, small; None when the frames do not show one
    still tray (in most frames, most of the picture must match the median: only the dice move)."""
    if len(frames) < 3 or len({f.shape for f in frames}) != 1:
        return None
    h, w = frames[0].shape[:2]
    scale = BACKGROUND_PX / max(h, w)
    small = np.stack([cv2.resize(f, (max(1, round(w * scale)), max(1, round(h * scale))),
                                 interpolation=cv2.INTER_AREA) for f in frames]).astype(np.int16)
    median = np.median(small, axis=0)
    matching = (np.abs(small - median).max(axis=3) < STILL_STEP).mean(axis=(1, 2))
    if np.median(matching) < STILL_FRACTION:
        return None
    return Profile.encode_background(median.astype(np.uint8))


def _polarity(dice) -> str:
    """"dark" or "light" when nine in ten confident reads (and at least three) agree, else "auto"."""
    seen = [d.polarity for d in dice]
    for name in ("dark", "light"):
        if len(seen) >= 3 and seen.count(name) >= 0.9 * len(seen):
            return name
    return "auto"


def _lighting_warnings(frames: list[np.ndarray]) -> list[str]:
    warnings = []
    for k, frame in enumerate(frames, 1):
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if np.count_nonzero(gray >= 250) > GLARE_FRACTION * gray.size:
            warnings.append(f"frame {k}: glare ({np.count_nonzero(gray >= 250) / gray.size:.0%} of pixels "
                            f"saturated); move or diffuse the light")
        if gray.mean() < DIM_LEVEL:
            warnings.append(f"frame {k}: dim (mean level {gray.mean():.0f}/255); add light")
    return warnings
