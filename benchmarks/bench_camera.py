#!/usr/bin/env python3
"""The dice reader on the development photos as other cameras would take them.

usage: .venv/bin/python benchmarks/bench_camera.py [--every N] [--photos DIR]

The held-out photos that judge the reader come from other cameras: dimmer rooms, noisier sensors, harder JPEG,
softer lenses, other lamps, fewer pixels. Each change below is applied to every Nth photo (default 3) of both
development sets (../shared/data/dice-photos), which are read with the built-in profile and scored with
../shared/tools/score_dice.py, as `dice-companion bench` does; a change that costs much accuracy, or any misread,
shows where the reader leans on how these two cameras happen to take their photos.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision.bench import DEFAULT_PHOTOS, SETS, score
from companion.vision.reader import DiceReader


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def _noisy(image: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0.0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _fewer_pixels(image: np.ndarray, factor: float) -> np.ndarray:
    """As a camera with `factor` of the resolution would see the tray (at the same frame size): the dice keep their
    place, and so their labels, but lose the detail of their pips."""
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)


CHANGES = {
    "as taken": lambda im, k: im,
    "half the light": lambda im, k: (im * 0.5).astype(np.uint8),
    "a third of the light": lambda im, k: (im * 0.3).astype(np.uint8),
    "sensor noise sigma 8": lambda im, k: _noisy(im, 8.0, k),
    "JPEG quality 30": lambda im, k: _jpeg(im, 30),
    "lens blur sigma 1.2": lambda im, k: cv2.GaussianBlur(im, (0, 0), 1.2),
    "warm lamp (B,G,R x0.7,0.9,1.15)": lambda im, k: np.clip(im * np.array([0.7, 0.9, 1.15]), 0, 255).astype(np.uint8),
    "three-quarter resolution": lambda im, k: _fewer_pixels(im, 0.75),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=3, help="read every Nth photo of each set (default 3)")
    parser.add_argument("--photos", default=str(DEFAULT_PHOTOS), help="the development photos' folder")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    photos = Path(args.photos)
    scorer = photos.parent.parent / "tools" / "score_dice.py"
    print(f"{'set':<15}{'camera':<34}{'dice':>5}{'acc':>8}{'misread':>9}{'flag':>6}{'miss':>6}{'extra':>6}"
          f"{'exact':>8}{'ms med':>8}")
    for name in SETS:
        folder = photos / name
        labels = json.loads((folder / "labels.json").read_text())[::args.every]
        originals = [(e["image"], cv2.imread(str(folder / e["image"]))) for e in labels]
        for change, apply in CHANGES.items():
            images = [(rel, apply(image, k)) for k, (rel, image) in enumerate(originals)]
            s = score(scorer, folder, images, DiceReader(), 1)
            print(f"{name:<15}{change:<34}{s['gt_dice']:>5}{100 * s['accuracy']:>7.1f}%"
                  f"{100 * (s['misread_rate'] or 0):>8.1f}%{s['flagged']:>6}{s['missed']:>6}{s['extra']:>6}"
                  f"{100 * s['roll_exact_rate']:>7.1f}%{s['ms_median']:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
