#!/usr/bin/env python3
"""What a change to the reader changes, die for die: this checkout's reads against another checkout's.

usage: .venv/bin/python benchmarks/compare_reads.py BASE [--set NAME] [--cameras] [--every N] [--photos DIR]

BASE is another checkout of this repository (`git worktree add /tmp/base <commit>`). Both readers read every Nth
photo (default every one) of the development sets (../shared/data/dice-photos), as taken or, with --cameras, under
each of benchmarks/bench_camera.py's changes too. Every labelled die is matched to each reader's dice as
../shared/tools/score_dice.py matches them (it needs SciPy, a dev dependency), and each change prints a line: how
many photos both read alike (the same dice, values and confidences), and for each reader the dice read right and
wrong and the dice found where no die is. Then each die whose outcome differs: its photo, its labelled centre and
value, and each reader's read there (value@confidence, `?` for a die found but unread, `-` for none found).

A change meant to make the reader faster must read every photo alike; one meant to read more must lose no right
die it cannot explain and add no misread (`docs/reader.md` tells what was kept and why). The held-out folds
(benchmarks/bench_die_net_folds.py), the rendered trays (bench_reader_synthetic.py, also with --texture 16) and the
pool (bench_pool.py) are the other checks.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

import cv2

from base_checkout import ROOT, base_package, is_checkout
from bench_camera import CHANGES, READERS, Enlarged
from companion.vision.bench import DEFAULT_PHOTOS, SETS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="another checkout of this repository")
    parser.add_argument("--set", choices=SETS, help="one development set (default both)")
    parser.add_argument("--cameras", action="store_true", help="also under each of bench_camera.py's changes")
    parser.add_argument("--every", type=int, default=1, help="read every Nth photo of each set (default 1)")
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS, help="the development photos' folder")
    args = parser.parse_args()
    if not is_checkout(args.base):
        print(f"compare_reads: {args.base} is no checkout of this repository", file=sys.stderr)
        return 2
    sys.path.insert(0, str(args.photos.parent.parent / "tools"))
    from score_dice import match

    cv2.setNumThreads(1)
    with base_package(args.base) as base_name:
        readers = tuple(importlib.import_module(f"{name}.vision.reader").DiceReader()
                        for name in (base_name, "companion"))
        changes = list(CHANGES.items()) if args.cameras else [("as taken", CHANGES["as taken"])]
        for name in [args.set] if args.set else SETS:
            folder = args.photos / name
            entries = json.loads((folder / "labels.json").read_text())[::args.every]
            originals = [cv2.imread(str(folder / entry["image"])) for entry in entries]
            runs = [(change, apply, readers) for change, apply in changes]
            if args.cameras:
                runs += [(change, CHANGES["as taken"], tuple(Enlarged(enlarged.factor, r) for r in readers))
                         for change, enlarged in READERS.items()]
            for change, apply, pair in runs:
                compare(name, change, entries, [apply(image, k) for k, image in enumerate(originals)], pair, match)
    return 0


def compare(name: str, change: str, entries: list[dict], images: list, readers: tuple, match) -> None:
    """Prints one change's line and the dice whose outcome differs between the two readers."""
    alike, tallies, differ = 0, [[0, 0, 0], [0, 0, 0]], []
    for entry, image in zip(entries, images):
        reads = [[die.to_json() for die in reader.read(image)] for reader in readers]
        alike += reads[0] == reads[1]
        boxes = [die["bbox"] for die in entry["dice"]]
        outcomes = []
        for tally, dice in zip(tallies, reads):
            pairs = dict(match(boxes, [die["center"] for die in dice]))
            tally[2] += len(dice) - len(pairs)
            outcome = [dice[pairs[i]] if i in pairs else None for i in range(len(boxes))]
            for truth, die in zip(entry["dice"], outcome):
                if die is not None and die["value"] is not None:
                    tally[0 if die["value"] == truth["value"] else 1] += 1
            outcomes.append(outcome)
        for truth, before, after in zip(entry["dice"], *outcomes):
            if _shown(before) != _shown(after):
                x0, y0, x1, y1 = truth["bbox"]
                differ.append(f"  {Path(entry['image']).name} ({(x0 + x1) / 2:.0f}, {(y0 + y1) / 2:.0f}) "
                              f"{truth['value']}: {_shown(before)} -> {_shown(after)}")
    (right0, wrong0, extra0), (right1, wrong1, extra1) = tallies
    print(f"{name} {change}: {alike} of {len(images)} photos read alike; right {right0} -> {right1}, "
          f"wrong {wrong0} -> {wrong1}, extra {extra0} -> {extra1}", flush=True)
    for line in differ:
        print(line)


def _shown(die: dict | None) -> str:
    if die is None:
        return "-"
    return "?" if die["value"] is None else f"{die['value']}@{die['confidence']}"


if __name__ == "__main__":
    raise SystemExit(main())
