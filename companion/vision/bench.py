"""`dice-companion bench`: the reader's accuracy and speed on the development photos (../shared/data/dice-photos).

For each set it reads every photo with the built-in profile and, with --calibrated, again with a profile calibrated
from ten of the set's photos (scored on the others); it scores the predictions with ../shared/tools/score_dice.py
and prints per-die accuracy, misread rate, flagged, missed, extra, roll exact-match, ms per image (median and p95,
one OpenCV thread), the settle detector's ms per frame and the machine's load average. The photos are not part of
the package: without them the benchmark says so and exits 1.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from .calibrate import calibrate_tray
from .reader import DiceReader

SETS = ("byler-d6", "matteo-webcam")
CALIBRATION_PHOTOS = 10
DEFAULT_PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-photos"


def run(args) -> int:
    cv2.setNumThreads(1)
    photos = Path(args.photos) if args.photos else DEFAULT_PHOTOS
    scorer = photos.parent.parent / "tools" / "score_dice.py"
    if not (photos / SETS[0] / "labels.json").exists() or not scorer.exists():
        print(f"bench: the development photos and score_dice.py are not here ({photos}); "
              "they come with ../shared", file=sys.stderr)
        return 1
    rows = []
    for name in SETS:
        folder = photos / name
        labels = json.loads((folder / "labels.json").read_text())
        images = [(e["image"], cv2.imread(str(folder / e["image"]))) for e in labels]
        rows.append((f"{name} default", score(scorer, folder, images, DiceReader(), args.repeat)))
        if args.calibrated:
            profile = calibrate_tray([im for _, im in images[:CALIBRATION_PHOTOS]])
            rows.append((f"{name} calibrated", score(scorer, folder, images[CALIBRATION_PHOTOS:], DiceReader(profile),
                                                     args.repeat)))
    print_table(rows)
    print(f"settle detector: {_settle_ms()}")
    print("load average (1, 5, 15 min) after the run: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
          + f" on {os.cpu_count()} cores: timings are wall-clock, and grow with other work on the machine")
    return 0


def score(scorer: Path, folder: Path, images, reader: DiceReader, repeat: int) -> dict:
    """score_dice.py's overall figures for `reader` on `images` [(path relative to `folder`, image)], each image's
    time the best of `repeat` reads."""
    with tempfile.TemporaryDirectory(prefix="dice-bench-") as tmp:
        predictions, labels = Path(tmp) / "predictions.jsonl", folder / "labels.json"
        with predictions.open("w") as out:
            for rel, image in images:
                best = float("inf")
                for _ in range(max(1, repeat)):
                    start = time.perf_counter()
                    dice = reader.read(image)
                    best = min(best, (time.perf_counter() - start) * 1000)
                out.write(json.dumps({"image": str(folder / rel), "dice": [d.to_json() for d in dice],
                                      "ms": best}) + "\n")
        if len(images) != len(json.loads(labels.read_text())):
            kept = {rel for rel, _ in images}
            subset = [e for e in json.loads(labels.read_text()) if e["image"] in kept]
            labels = Path(tmp) / "labels.json"
            # score_dice resolves image paths against the labels file's folder: give absolute ones
            labels.write_text(json.dumps([dict(e, image=str(folder / e["image"])) for e in subset]))
        result = subprocess.run([sys.executable, str(scorer), str(labels), str(predictions), "--json"],
                                capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"bench: score_dice.py failed: {result.stderr.strip().splitlines()[-1:]}")
    summary = json.loads(result.stdout.strip().splitlines()[-1])["overall"]
    return summary


def print_table(rows) -> None:
    head = (f"{'set / profile':<28}{'img':>5}{'dice':>6}{'acc':>8}{'misread':>9}{'flag':>6}{'miss':>6}{'extra':>6}"
            f"{'exact':>8}{'ms med':>8}{'ms p95':>8}")
    print(head)
    print("-" * len(head))
    for name, s in rows:
        print(f"{name:<28}{s['images']:>5}{s['gt_dice']:>6}{100 * s['accuracy']:>7.1f}%"
              f"{100 * (s['misread_rate'] or 0):>8.1f}%{s['flagged']:>6}{s['missed']:>6}{s['extra']:>6}"
              f"{100 * s['roll_exact_rate']:>7.1f}%{s['ms_median']:>8.1f}{s['ms_p95']:>8.1f}")
    for name, s in rows:
        print(f"confusion {name} (true value -> read):")
        for value, row in s["confusion"].items():
            print(f"  {value}: " + ", ".join(f"{k} {n}" for k, n in row.items()))


def _settle_ms() -> str:
    try:
        from .settle import SettleDetector
    except ImportError:
        return "not built yet (companion/vision/settle.py)"
    frames = [np.full((480, 640, 3), 90 + k % 7, np.uint8) for k in range(200)]
    detector = SettleDetector()
    times = []
    for frame in frames:
        start = time.perf_counter()
        detector.update(frame)
        times.append((time.perf_counter() - start) * 1000)
    return f"{statistics.median(times):.3f} ms per 640x480 frame (median of {len(times)})"
