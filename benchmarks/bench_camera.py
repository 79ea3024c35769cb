#!/usr/bin/env python3
"""The dice reader on the development photos as other cameras would take them.

usage: .venv/bin/python benchmarks/bench_camera.py [--every N] [--misreads] [--photos DIR]

The held-out photos that judge the reader come from other cameras: dimmer rooms, noisier sensors, harder JPEG,
softer lenses, other lamps, fewer pixels, or more (a phone's photo, sharper than these photos enlarged to the
reader's working scale); and they show other tables and dice, for which these photos with their hues turned
stand in. Each change below is applied to every Nth photo (default 3) of both development sets
(../shared/data/dice-photos), which are read with the built-in profile and scored with ../shared/tools/score_dice.py,
as `dice-companion bench` does; a change that costs much accuracy, or any misread, shows where the reader leans on
how these two cameras happen to take their photos, or on these dice and tables. With --misreads, each change's row
is followed by its misread dice: photo, labelled centre, true value -> value read@confidence.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

import checkout  # noqa: F401  (this checkout's companion package, wherever the environment was made)
from companion.vision.bench import DEFAULT_PHOTOS, SETS, score
from companion.vision.reader import DiceReader, ReadDie
from companion.vision.retake import fewer_pixels, hues_turned, jpeg, sensor_noise


class Enlarged:
    """Reads each photo enlarged `factor` times (INTER_CUBIC, as a camera with more pixels would take it, and sharper
    at the reader's working scale than the photo enlarged linearly), its dice placed back on the photo's pixels for
    the labels; with a DiceReader of its own unless given one (compare_reads.py gives another checkout's)."""

    def __init__(self, factor: float, reader=None):
        self.factor, self._reader = factor, reader or DiceReader()

    def read(self, image: np.ndarray) -> list[ReadDie]:
        large = cv2.resize(image, None, fx=self.factor, fy=self.factor, interpolation=cv2.INTER_CUBIC)
        return [replace(die, center=(die.center[0] / self.factor, die.center[1] / self.factor),
                        size=die.size / self.factor) for die in self._reader.read(large)]


CHANGES = {
    "as taken": lambda im, k: im,
    "half the light": lambda im, k: (im * 0.5).astype(np.uint8),
    "a third of the light": lambda im, k: (im * 0.3).astype(np.uint8),
    "sensor noise sigma 8": lambda im, k: sensor_noise(im, 8.0, k),
    "JPEG quality 30": lambda im, k: jpeg(im, 30),
    "lens blur sigma 1.2": lambda im, k: cv2.GaussianBlur(im, (0, 0), 1.2),
    "warm lamp (B,G,R x0.7,0.9,1.15)": lambda im, k: np.clip(im * np.array([0.7, 0.9, 1.15]), 0, 255).astype(np.uint8),
    "three-quarter resolution": lambda im, k: fewer_pixels(im, 0.75),
    "hues turned 90 degrees": lambda im, k: hues_turned(im, 90),
    "hues turned 180 degrees": lambda im, k: hues_turned(im, 180),
}
READERS = {"twice the pixels": Enlarged(2.0), "four times the pixels": Enlarged(4.0)}
"""Changes read through their own reader, on the photos as taken."""


class Recorded:
    """A reader that keeps the dice it reads, photo by photo (score() reads each photo once, in order)."""

    def __init__(self, reader):
        self._reader, self.reads = reader, []

    def read(self, image: np.ndarray) -> list[ReadDie]:
        dice = self._reader.read(image)
        self.reads.append(dice)
        return dice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=3, help="read every Nth photo of each set (default 3)")
    parser.add_argument("--misreads", action="store_true", help="list each change's misread dice")
    parser.add_argument("--photos", default=str(DEFAULT_PHOTOS), help="the development photos' folder")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    photos = Path(args.photos)
    scorer = photos.parent.parent / "tools" / "score_dice.py"
    sys.path.insert(0, str(scorer.parent))
    from score_dice import match
    print(f"{'set':<15}{'camera':<34}{'dice':>5}{'acc':>8}{'misread':>9}{'wrong':>6}{'flag':>6}{'miss':>6}{'extra':>6}"
          f"{'exact':>8}{'ms med':>8}")
    for name in SETS:
        folder = photos / name
        labels = json.loads((folder / "labels.json").read_text())[::args.every]
        originals = [(e["image"], cv2.imread(str(folder / e["image"]))) for e in labels]
        runs = [(change, [(rel, apply(image, k)) for k, (rel, image) in enumerate(originals)], DiceReader())
                for change, apply in CHANGES.items()]
        runs += [(change, originals, reader) for change, reader in READERS.items()]
        for change, images, reader in runs:
            recorded = Recorded(reader)
            s = score(scorer, folder, images, recorded, 1)
            print(f"{name:<15}{change:<34}{s['gt_dice']:>5}{100 * s['accuracy']:>7.1f}%"
                  f"{100 * (s['misread_rate'] or 0):>8.1f}%{s['wrong_value']:>6}{s['flagged']:>6}{s['missed']:>6}"
                  f"{s['extra']:>6}"
                  f"{100 * s['roll_exact_rate']:>7.1f}%{s['ms_median']:>8.1f}", flush=True)
            if args.misreads:
                for entry, dice in zip(labels, recorded.reads):
                    for line in misreads(entry, dice, match):
                        print(line, flush=True)


def misreads(entry: dict, dice: list[ReadDie], match) -> list[str]:
    """The labelled dice of one photo (`entry` of labels.json) read as another value, matched to the dice read as
    ../shared/tools/score_dice.py's `match` matches them: photo, labelled centre, true value -> value@confidence."""
    boxes = [die["bbox"] for die in entry["dice"]]
    lines = []
    for i, j in match(boxes, [die.center for die in dice]):
        truth, read = entry["dice"][i], dice[j]
        if read.value is not None and read.value != truth["value"]:
            x0, y0, x1, y1 = truth["bbox"]
            lines.append(f"    {Path(entry['image']).name} ({(x0 + x1) / 2:.0f}, {(y0 + y1) / 2:.0f}) "
                         f"{truth['value']} -> {read.value}@{read.confidence:.2f}")
    return lines


if __name__ == "__main__":
    main()
