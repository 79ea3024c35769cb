#!/usr/bin/env python3
"""The reader's speed against another checkout's, image by image, on one thread.

usage: python benchmarks/bench_reader_ab.py BASE [--set byler-d6] [--rounds 3] [--pips] [--photos DIR]
BASE is another checkout of this repository (`git worktree add /tmp/base <commit>`). Both readers read every photo
of the set in turn, alternating which goes first, and each keeps its best of `--rounds` per photo: on a shared
machine a run of `dice-companion bench` a few minutes later may be 10-20 % slower or faster as a whole, while the
ratio per photo of two readers timed side by side holds. Prints both medians, the median ratio (new / base) and the
ratio of the totals (a change to the few photos that take longest shows there);
`--pips` times the pip finder alone, on the working frames this checkout makes.
"""
import argparse
import importlib
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from base_checkout import ROOT, base_package, is_checkout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="another checkout of this repository")
    parser.add_argument("--set", default="byler-d6", help="development set (default byler-d6)")
    parser.add_argument("--rounds", type=int, default=3, help="readings of each photo per reader (default 3)")
    parser.add_argument("--pips", action="store_true", help="time pips.find_pips alone")
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared" / "data" / "dice-photos")
    args = parser.parse_args()
    folder = args.photos / args.set
    if not is_checkout(args.base) or not (folder / "labels.json").exists():
        print(f"bench_reader_ab: needs {args.base}/companion and {folder}/labels.json", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    with base_package(args.base) as base_name:
        readers = [importlib.import_module(f"{name}.vision.reader") for name in (base_name, "companion")]
        pips = [importlib.import_module(f"{name}.vision.pips") for name in (base_name, "companion")]
        entries = json.loads((folder / "labels.json").read_text())
        images = [cv2.imread(str(folder / entry["image"])) for entry in entries]
        both = [module.DiceReader() for module in readers]
        if args.pips:
            view = importlib.import_module("companion.vision.view")
            frames = [view.View(image, None, both[1].profile).working_frame for image in images]

            def job(k: int, i: int):
                pips[k].find_pips(frames[i], pips[k].DIE_PX, readers[k].MIN_PIP_STRENGTH)
        else:
            def job(k: int, i: int):
                both[k].read(images[i])
        best = np.full((2, len(images)), np.inf)
        for round_ in range(args.rounds):
            for i in range(len(images)):
                for k in ((0, 1) if (i + round_) % 2 else (1, 0)):
                    start = time.perf_counter()
                    job(k, i)
                    best[k, i] = min(best[k, i], time.perf_counter() - start)
    base, new = np.median(best, axis=1) * 1000
    what = "find_pips" if args.pips else "read"
    print(f"{args.set} {what}: base {base:.2f} ms, this checkout {new:.2f} ms (median of the best of {args.rounds} "
          f"per photo); median ratio per photo {np.median(best[1] / best[0]):.3f}, ratio of the totals "
          f"{best[1].sum() / best[0].sum():.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
