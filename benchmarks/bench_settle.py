#!/usr/bin/env python3
"""Milliseconds the settle detector spends per 640x480 frame, on one thread (target: <= 0.5 ms).

usage: python benchmarks/bench_settle.py [--frames N]
Feeds rendered roll sequences (dice tumbling, then still) through SettleDetector.update and prints the median and
95th percentile per frame, with the machine's load average, since other jobs on the machine skew the figures.
"""
import argparse
import os
import time

import cv2
import numpy as np

import checkout  # noqa: F401  (this checkout's companion package, wherever the environment was made)
from companion.vision.settle import SettleDetector
from companion.vision.synth import SynthDie, render_roll_frames


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=5000, help="frames to time (default 5000)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    dice = [SynthDie(value=v, center=(110 + 90 * v, 200 + 20 * (v % 3)), angle=17 * v) for v in range(1, 6)]
    frames = render_roll_frames(dice, moving=12, still=12, seed=1)
    detector = SettleDetector()
    for frame in frames:                                    # warm up
        detector.update(frame)
    times = np.empty(args.frames)
    for i in range(args.frames):
        frame = frames[i % len(frames)]
        start = time.perf_counter()
        detector.update(frame)
        times[i] = time.perf_counter() - start
    ms = times * 1000
    print(f"settle detector, {args.frames} frames of 640x480, 1 thread: median {np.median(ms):.3f} ms, "
          f"p95 {np.percentile(ms, 95):.3f} ms (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
