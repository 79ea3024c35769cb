#!/usr/bin/env python3
"""The public approach issue #3 measures the reader against, timed and scored on this machine.

usage: .venv/bin/python benchmarks/bench_public_approach.py [--photos DIR] [--repeat N]

The common public dice reader: a median blur of 7 px, OpenCV's SimpleBlobDetector (inertia ratio 0.6 at least) on
the whole frame, and DBSCAN of the pip centres (40 px, one sample: pips chained within 40 px are one die), each
cluster a die showing its count of pips (null past 6). The issue quotes it at 22-28 ms per 640x480 image on one
thread of the machine it was written on; run here, beside `dice-companion bench`, it tells how fast this machine
is against that one, and scores the approach as the reader is scored (../shared/tools/score_dice.py).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

import checkout  # noqa: F401  (this checkout's companion package, wherever the environment was made)
from companion.vision.bench import DEFAULT_PHOTOS, SETS, print_table, score
from companion.vision.reader import ReadDie

MEDIAN_BLUR = 7
MIN_INERTIA = 0.6
EPS = 40.0


class PublicApproach:
    """Reads a frame as the public approach does, with the reader's `read` interface."""

    def __init__(self):
        params = cv2.SimpleBlobDetector_Params()
        params.filterByInertia = True
        params.minInertiaRatio = MIN_INERTIA
        self._detector = cv2.SimpleBlobDetector_create(params)

    def read(self, frame: np.ndarray) -> list[ReadDie]:
        blobs = self._detector.detect(cv2.medianBlur(frame, MEDIAN_BLUR))
        points = np.array([blob.pt for blob in blobs]).reshape(-1, 2)
        dice = []
        for cluster in _chained(points, EPS):
            x, y = points[cluster].mean(axis=0)
            count = len(cluster)
            dice.append(ReadDie((float(x), float(y)), EPS, count if count <= 6 else None, 1.0))
        return dice


def _chained(points: np.ndarray, eps: float) -> list[list[int]]:
    """DBSCAN with one sample: the groups of points linked by chains of steps shorter than `eps`."""
    near = np.hypot(*(points[:, None] - points[None]).transpose(2, 0, 1)) < eps
    group = np.full(len(points), -1)
    clusters = []
    for start in range(len(points)):
        if group[start] >= 0:
            continue
        group[start], stack, members = len(clusters), [start], []
        while stack:
            k = stack.pop()
            members.append(k)
            for j in np.flatnonzero(near[k] & (group < 0)):
                group[j] = group[start]
                stack.append(int(j))
        clusters.append(members)
    return clusters


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    parser.add_argument("--repeat", type=int, default=3, help="each image's time is the best of this many reads")
    args = parser.parse_args()
    scorer = args.photos.parent.parent / "tools" / "score_dice.py"
    if not (args.photos / SETS[0] / "labels.json").exists() or not scorer.exists():
        print(f"bench_public_approach: needs {args.photos} and {scorer}", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    rows = []
    for name in SETS:
        folder = args.photos / name
        images = [(e["image"], cv2.imread(str(folder / e["image"])))
                  for e in json.loads((folder / "labels.json").read_text())]
        rows.append((f"{name} public approach", score(scorer, folder, images, PublicApproach(), args.repeat)))
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
