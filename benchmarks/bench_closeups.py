#!/usr/bin/env python3
"""The dice reader on close-ups of real dice: dice of 100-300 px in a 640x480 frame.

usage: .venv/bin/python benchmarks/bench_closeups.py [--span S ...] [--every N] [--photos DIR]

The development photos show dice of 16-70 px; the reader must read dice up to 300 px across, and a die over about a
sixth of a frame is found otherwise than the photos' dice (reader._large_read). Each labelled die of every Nth photo
(default 3) of both development sets, the first two of each photo, is cropped with room around it (a 4:3 window
S times its labelled box high; S = 2.7 and 4 by default, where it fills about a third and a quarter of the frame's
height) and enlarged to 640x480 (INTER_CUBIC, as a camera nearer the dice would take it, if blurrier). A die whose
window leaves the photo is skipped. The die in the middle of the frame is then read right, unsure (null), missed
or wrong; the frame also holds parts of its neighbours, which are not scored.
"""
from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

import cv2
import numpy as np

import checkout  # noqa: F401  (this checkout's companion package, wherever the environment was made)
from companion.vision.bench import DEFAULT_PHOTOS, SETS
from companion.vision.reader import DiceReader
from companion.vision.retake import closeup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--span", type=float, nargs="+", default=[2.7, 4.0])
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--photos", default=str(DEFAULT_PHOTOS))
    args = parser.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader()
    for span in args.span:
        for name in SETS:
            folder = Path(args.photos) / name
            counts = collections.Counter()
            for entry in json.loads((folder / "labels.json").read_text())[::args.every]:
                image = cv2.imread(str(folder / entry["image"]))
                for die in entry["dice"][:2]:
                    close = closeup(image, die["bbox"], span)
                    if close is not None:
                        counts[_judged(reader, *close, die["value"])] += 1
            print(f"span {span}: {name:<14} " + ", ".join(f"{key} {counts[key]}"
                                                         for key in ("right", "null", "missed", "wrong")))


def _judged(reader: DiceReader, frame: np.ndarray, size: float, value: int) -> str:
    """How the die in the middle of the frame (within half its size of the middle) was read."""
    middle = np.array(frame.shape[1::-1]) / 2
    near = [die for die in reader.read(frame) if np.hypot(*(np.array(die.center) - middle)) < 0.5 * size]
    if not near:
        return "missed"
    return "null" if near[0].value is None else "right" if near[0].value == value else "wrong"


if __name__ == "__main__":
    main()
