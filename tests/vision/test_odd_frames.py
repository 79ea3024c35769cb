"""The reader on odd frames under odd profiles: whatever the frame, a list of dice that make sense, never an error.

Each kind of frame here once made the reader raise or run away (docs/reader.md, forty-seventh session): frames a few
pixels across or a sliver of a panorama, a calibrated die larger than the frame, specks by the thousand.
"""
import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, Profile
from companion.vision.synth import SynthDie, render_scene

KINDS = ("noise", "blurred noise", "checkerboard", "stripes", "flat", "discs", "dice", "specks")


def odd_frame(rng: np.random.Generator, kind: str) -> np.ndarray:
    """A frame of `kind`, 8-900 px high and 8-1,200 px wide, grey, BGR or BGRA."""
    h, w = int(rng.integers(8, 900)), int(rng.integers(8, 1200))
    if kind == "noise":
        frame = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    elif kind == "blurred noise":
        frame = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), float(rng.uniform(1, 20)))
    elif kind == "checkerboard":
        cell = int(rng.integers(1, 60))
        frame = np.dstack([((np.add.outer(np.arange(h) // cell, np.arange(w) // cell) % 2) * 255).astype(np.uint8)] * 3)
    elif kind == "stripes":
        frame = np.repeat(((np.arange(w) // int(rng.integers(1, 40)) % 2) * 255).astype(np.uint8)[None, :, None],
                          h, axis=0).repeat(3, axis=2)
    elif kind == "flat":
        frame = np.full((h, w, 3), int(rng.integers(0, 256)), np.uint8)
    elif kind == "discs":
        frame = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
        for _ in range(int(rng.integers(1, 300))):
            cv2.circle(frame, (int(rng.integers(0, w)), int(rng.integers(0, h))), int(rng.integers(1, 30)),
                       tuple(int(v) for v in rng.integers(0, 256, 3)), -1)
    elif kind == "dice":
        dice = [SynthDie(value=int(rng.integers(1, 7)), size=float(rng.uniform(8, 200)), angle=float(rng.uniform(0, 90)),
                         center=(float(rng.uniform(0, 640)), float(rng.uniform(0, 480))),
                         body=tuple(int(v) for v in rng.integers(0, 256, 3)),
                         pips=tuple(int(v) for v in rng.integers(0, 256, 3))) for _ in range(int(rng.integers(1, 30)))]
        frame = cv2.resize(render_scene(dice, background=tuple(int(v) for v in rng.integers(0, 256, 3)),
                                        blur=float(rng.uniform(0, 3)), noise=float(rng.uniform(0, 30)),
                                        seed=int(rng.integers(1000))), (w, h))
    else:  # specks: salt and pepper, 1-3 % each
        frame = np.full((h, w, 3), 128, np.uint8)
        speck, share = rng.random((h, w)), float(rng.uniform(0.01, 0.03))
        frame[speck < share], frame[speck > 1 - share] = 0, 255
    form = rng.integers(0, 4)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if form == 0 else \
        cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA) if form == 1 else frame


def odd_profile(rng: np.random.Generator) -> Profile:
    choice = rng.integers(0, 4)
    if choice == 0:
        return Profile(die_px=float(rng.choice([8, 12, 30, 80, 300, 2000])))
    if choice == 1:
        x0, y0 = (int(v) for v in rng.integers(-100, 700, 2))
        return Profile(tray=(x0, y0, x0 + int(rng.integers(1, 700)), y0 + int(rng.integers(1, 500))))
    if choice == 2:
        return Profile(pip_polarity=str(rng.choice(["dark", "light"])), min_contrast=float(rng.choice([0, 18, 255])))
    return Profile()


@pytest.mark.parametrize("kind", KINDS)
def test_odd_frames_read_as_dice_that_make_sense_or_none(kind):
    rng = np.random.default_rng(sum(map(ord, kind)))
    for _ in range(10):
        frame = odd_frame(rng, kind)
        reader = DiceReader(odd_profile(rng))
        height, width = frame.shape[:2]
        for die in reader.read(frame):
            assert die.value in (None, 1, 2, 3, 4, 5, 6) and 0.0 <= die.confidence <= 1.0 and die.size > 0
            assert -die.size <= die.center[0] <= width + die.size and -die.size <= die.center[1] <= height + die.size
        for (x, y), size in reader.find(frame):
            assert size > 0 and np.isfinite(x) and np.isfinite(y)
