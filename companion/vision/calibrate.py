"""Build a tray profile from a few still frames of one tray and set of dice, with no questions asked.

Each frame is read with the profile given (the built-in one by default); the dice read confidently tell the die
size and the pip polarity, where they lie tells the play area, and the median of the frames (the dice lie in
different places in each) is the empty tray. Frames that are too dark or show glare are reported as warnings.
What the frames do not show clearly is left to the reader's per-frame estimates: one die size when the dice show
several (dice of several sizes, or a camera whose distance changes), and the empty tray when the camera moved.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ..errors import CompanionError
from .pips import POLARITY
from .profile import DIE_PX, Profile
from .reader import DiceReader

BACKGROUND_PX = 160
"""Longest side of the stored empty-tray image: the background only needs to be right at the scale of a die."""
STILL_STEP = 25
STILL_FRACTION = 0.95
"""A frame shows the same tray as the others when this fraction of it away from the dice found is within
STILL_STEP grey levels of their median (a camera held by hand, or moved between frames, shifts the tray's walls
and edges by more than that)."""
DICE_CLEARANCE = 1.2
"""Around each die found, this many die sizes are left out of that comparison (its shadow, and its place in the
other frames)."""
SIZE_SPREAD = 0.15
"""One die size is stored when the 10th and 90th percentiles of the sizes read lie within this fraction of their
median; 1s are left out, since a 1's size comes from its one pip."""
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
    die_px, why = _stored_size(dice)
    if why:
        warnings.append(why)
    background = _background(frames, reads)
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
    polarity = _polarity(dice)
    if polarity != "auto" and not _reads_as_well(replace(base, pip_polarity=polarity), frames, reads):
        # pips lighter than the body in one colour and darker in another are found in both polarities only
        warnings.append(f"fewer dice read when only {polarity} pips are looked for (pips lighter than the die in "
                        "one colour and darker in another): no pip polarity stored")
        polarity = "auto"
    profile = replace(base, die_px=die_px, tray=tray, background=background, pip_polarity=polarity,
                      warnings=warnings)
    if not _reads_as_well(profile, frames, reads):
        # The measured tray reads these very frames worse than the frame's own estimates (dice that never moved
        # sit in the median, say): keep only what is safe.
        warnings.append("the measured die size and background read these frames worse than none: not stored")
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


def _stored_size(dice) -> tuple[float | None, str | None]:
    """The die size a profile stores for these dice, or None and the warning that says why: they show several
    sizes, or one a profile cannot store (DIE_PX; specks of a grainy frame were read as dice of 5 px)."""
    size = _one_size(dice)
    if size is None:
        return None, ("the dice read show several sizes (dice of several sizes, or the camera's distance changes): "
                      "no die size stored")
    if not DIE_PX[0] <= size <= DIE_PX[1]:
        return None, (f"the dice read are {size:.0f} px across, outside the {DIE_PX[0]}-{DIE_PX[1]} px a profile "
                      "stores: no die size stored")
    return size, None


def _one_size(dice) -> float | None:
    """The dice's size when the dice read (1s aside, or all of them when only 1s were read) show one size, else
    None."""
    sizes = np.array([d.size for d in dice if d.value != 1] or [d.size for d in dice])
    low, median, high = np.percentile(sizes, (10, 50, 90))
    if low < (1 - SIZE_SPREAD) * median or high > (1 + SIZE_SPREAD) * median:
        return None
    return round(float(median), 1)


def _background(frames: list[np.ndarray], reads: list[list]) -> str | None:
    """The per-pixel median of at least three frames of one size, small; None when the frames do not show one
    still tray (in most frames, the picture away from the dice found in it must match the median: only the
    dice move)."""
    if len(frames) < 3 or len({f.shape for f in frames}) != 1:
        return None
    h, w = frames[0].shape[:2]
    scale = BACKGROUND_PX / max(h, w)
    small = np.stack([cv2.resize(f, (max(1, round(w * scale)), max(1, round(h * scale))),
                                 interpolation=cv2.INTER_AREA) for f in frames]).astype(np.int16)
    median = np.median(small, axis=0)
    matching = []
    for image, dice in zip(small, reads):
        away = np.full(image.shape[:2], 255, np.uint8)
        for die in dice:
            centre = (round(die.center[0] * scale), round(die.center[1] * scale))
            cv2.circle(away, centre, round(DICE_CLEARANCE * die.size * scale) + 1, 0, -1)
        same = np.abs(image - median).max(axis=2) < STILL_STEP
        matching.append(same[away > 0].mean() if away.any() else 0.0)
    if np.median(matching) < STILL_FRACTION:
        return None
    return Profile.encode_background(median.astype(np.uint8))


def _polarity(dice) -> str:
    """"dark" or "light" when nine in ten confident reads (and at least three) agree, else "auto"."""
    seen = [d.polarity for d in dice]
    for name in POLARITY:
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
