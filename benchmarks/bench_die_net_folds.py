#!/usr/bin/env python3
"""How much of what die_net reads would hold on photos it has never seen.

usage: .venv/bin/python benchmarks/bench_die_net_folds.py --fold K --net FILE [--photos DIR]

The shipped network (companion/vision/die_net.onnx) learned from every byler-d6 photo, so the development figures
flatter it. This reads fold K of byler-d6's photos (photos K, K + 5, ...: die_net.FOLDS) three ways and
scores each with ../shared/tools/score_dice.py: the pip geometry alone (second_opinion off), with FILE, a network
trained without those photos (`.venv/bin/python training/die_net.py --hold-out K --out FILE`, about 8 minutes),
and with the shipped network. The held-out row is what to expect on other photos of the same dice; photos of other
dice (matteo-webcam, which no network learned from) are in `dice-companion bench`.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

import checkout  # noqa: F401  (this checkout's companion package, wherever the environment was made)
from companion.vision.bench import DEFAULT_PHOTOS, print_table, score
from companion.vision.die_net import FOLDS, DieNet
from companion.vision.profile import Profile
from companion.vision.reader import DiceReader


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fold", type=int, required=True, choices=range(FOLDS))
    parser.add_argument("--net", type=Path, required=True, help="a network trained with --hold-out FOLD")
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    args = parser.parse_args()
    folder = args.photos / "byler-d6"
    scorer = args.photos.parent.parent / "tools" / "score_dice.py"
    if not (folder / "labels.json").exists() or not scorer.exists() or not args.net.exists():
        print(f"bench_die_net_folds: needs {folder / 'labels.json'}, {scorer} and {args.net}", file=sys.stderr)
        return 1
    cv2.setNumThreads(1)
    entries = json.loads((folder / "labels.json").read_text())
    fold = [entry["image"] for k, entry in enumerate(entries) if k % FOLDS == args.fold]
    images = [(image, cv2.imread(str(folder / image))) for image in fold]
    readers = {"geometry": DiceReader(Profile(second_opinion=False)),
               "held-out net": DiceReader(die_net=DieNet(args.net)),
               "shipped net": DiceReader()}
    print_table([(f"fold {args.fold}: {name}", score(scorer, folder, images, reader, 1))
                 for name, reader in readers.items()])
    return 0


if __name__ == "__main__":
    sys.exit(main())
