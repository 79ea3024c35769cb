#!/usr/bin/env python3
"""The dice reader on Dice Lottery's pool: 15 dice in one settled frame, some of them touching.

usage: .venv/bin/python benchmarks/bench_pool.py [--frames N] [--seed S] [--size PX] [--save DIR] [--photos DIR]

Each frame (640x480, rendered by companion.vision.synth) holds 15 ivory dice with random faces and turns: a few
groups of two or three (7 dice of the 15) lie side by side with 0-2 px between them (touching, as dice do after a
roll into a pool), the others apart. Every frame draws its own camera: light gradient 0-0.35, noise sigma 1-5, blur
sigma 0-1.0 and a white balance of neutral, warm (gains B,G,R 0.72,0.9,1.0) or cool (1.0,0.9,0.7). The die side is
--size px (default 44, a 15-die pool filling about half the frame). The frames are read with the built-in profile
(DiceReader()), one OpenCV thread.

A reading is matched one to one to the dice drawn, nearest centre first, within half a die side. Reported, overall
and for the touching and the lone dice apart: accuracy (right / dice drawn), misread (wrong value / dice given a
value: the silent error), flagged (found, value None), missed (not found), extra (found where no die is), roll
exact-match (frames read entirely right, no extras), ms per frame (median, p95) and which values were misread as
which. The same arguments give the same frames, so runs are comparable while the reader changes; --save writes the
frames and labels.json (score_dice.py's form) to DIR, for `dice-companion read --json` and
../shared/tools/score_dice.py.

Then the real photos: the images of DIR/labels.json (--photos, default ../shared/data/dice-photos/byler-d6) that
show at least 15 dice are read by `dice-companion read --json` and scored by ../shared/tools/score_dice.py (which
needs SciPy, a dev dependency); its table is printed as it is. --photos "" skips them.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

import checkout  # noqa: F401  (this checkout's companion package, wherever the environment was made)
from companion.vision.reader import DiceReader
from companion.vision.synth import SynthDie, render_scene

FRAME = (640, 480)
DICE = 15
LIGHTS = {"neutral": (1.0, 1.0, 1.0), "warm": (0.72, 0.9, 1.0), "cool": (1.0, 0.9, 0.7)}
MARGIN = 1.2          # die sides kept clear of the frame's edge
APART = 1.6           # centre distance, in die sides, that keeps dice of any turn from touching
GROUPS = (2, 2, 3)    # dice per touching group in each frame; the rest lie apart
SHARED = Path(__file__).resolve().parents[2] / "shared"
PHOTOS = SHARED / "data" / "dice-photos" / "byler-d6"
SCORER = SHARED / "tools" / "score_dice.py"


@dataclass(frozen=True)
class Drawn:
    die: SynthDie
    touching: bool


@dataclass
class Tally:
    dice: int = 0
    right: int = 0
    wrong: int = 0
    flagged: int = 0
    missed: int = 0
    confused: Counter = field(default_factory=Counter)   # (drawn, read) -> count, for the wrong values

    def add(self, read_value: int | None | str, truth: int) -> None:
        self.dice += 1
        if read_value == "missed":
            self.missed += 1
        elif read_value is None:
            self.flagged += 1
        elif read_value == truth:
            self.right += 1
        else:
            self.wrong += 1
            self.confused[truth, read_value] += 1

    def line(self, name: str) -> str:
        valued = self.right + self.wrong
        misread = 100 * self.wrong / valued if valued else 0.0
        return (f"{name:<10}{self.dice:>6}{100 * self.right / max(self.dice, 1):>8.1f}%{misread:>8.1f}%"
                f"{self.wrong:>7}{self.flagged:>8}{self.missed:>8}")


@dataclass
class Results:
    overall: Tally = field(default_factory=Tally)
    touching: Tally = field(default_factory=Tally)
    lone: Tally = field(default_factory=Tally)
    extra: int = 0
    exact: int = 0
    frames: int = 0
    ms: list[float] = field(default_factory=list)


def pool_frame(rng: np.random.Generator, side: float) -> list[Drawn]:
    """15 dice: the touching groups first (each die beside the last, same turn, 0-2 px gap), then lone dice, none
    overlapping another."""
    drawn: list[Drawn] = []
    for size in GROUPS:
        while True:
            group = touching_group(rng, side, size)
            if all(fits(d.die.center, side, drawn) for d in group):
                drawn += group
                break
    while len(drawn) < DICE:
        center = random_center(rng, side)
        if fits(center, side, drawn):
            drawn.append(Drawn(die(rng, center, side, rng.uniform(0, 90)), touching=False))
    return drawn


def touching_group(rng: np.random.Generator, side: float, size: int) -> list[Drawn]:
    """`size` dice in a row, an L or a step, edge to edge: a turn shared by the group keeps their faces flush."""
    angle = rng.uniform(0, 90)
    x, y = random_center(rng, side)
    steps = [(math.cos(math.radians(angle)), math.sin(math.radians(angle))),
             (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))]
    group = [Drawn(die(rng, (x, y), side, angle), touching=True)]
    for _ in range(size - 1):
        dx, dy = steps[int(rng.integers(0, 2))]
        gap = side + rng.uniform(0, 2)
        x, y = x + dx * gap, y + dy * gap
        group.append(Drawn(die(rng, (x, y), side, angle), touching=True))
    return group


def die(rng: np.random.Generator, center, side: float, angle: float) -> SynthDie:
    return SynthDie(value=int(rng.integers(1, 7)), center=(float(center[0]), float(center[1])), size=side,
                    angle=float(angle))


def random_center(rng: np.random.Generator, side: float) -> tuple[float, float]:
    w, h = FRAME
    return rng.uniform(MARGIN * side, w - MARGIN * side), rng.uniform(MARGIN * side, h - MARGIN * side)


def fits(center, side: float, drawn: list[Drawn]) -> bool:
    """Inside the frame and apart from every die already laid (touching groups are built edge to edge)."""
    w, h = FRAME
    inside = MARGIN * side <= center[0] <= w - MARGIN * side and MARGIN * side <= center[1] <= h - MARGIN * side
    return inside and all(math.dist(center, d.die.center) >= APART * side for d in drawn)


def camera(rng: np.random.Generator) -> dict:
    light = list(LIGHTS)[int(rng.integers(0, len(LIGHTS)))]
    return dict(light_gradient=rng.uniform(0, 0.35), noise=rng.uniform(1, 5), blur=rng.uniform(0, 1.0),
                white_balance=LIGHTS[light])


def match(drawn: list[Drawn], read) -> tuple[dict[int, object], int]:
    """Drawn die index -> the value read for it ("missed" when none), and the number of extra readings: pairs
    within half a die side, nearest first, one to one."""
    pairs = sorted((math.dist(d.die.center, r.center), i, j) for i, d in enumerate(drawn) for j, r in enumerate(read)
                   if math.dist(d.die.center, r.center) <= 0.5 * d.die.size)
    found: dict[int, object] = {}
    used: set[int] = set()
    for _, i, j in pairs:
        if i not in found and j not in used:
            found[i] = read[j].value
            used.add(j)
    return {i: found.get(i, "missed") for i in range(len(drawn))}, len(read) - len(used)


def run(frames: int, seed: int, side: float, save: Path | None) -> Results:
    cv2.setNumThreads(1)
    reader = DiceReader()
    results = Results()
    labels = []
    for k in range(frames):
        rng = np.random.default_rng([seed, k])
        drawn = pool_frame(rng, side)
        image = render_scene([d.die for d in drawn], size=FRAME, seed=seed * 100003 + k, **camera(rng))
        start = time.perf_counter()
        read = reader.read(image)
        results.ms.append((time.perf_counter() - start) * 1000)
        score(results, drawn, read)
        if save:
            labels.append(save_frame(save, k, image, drawn))
    if save:
        (save / "labels.json").write_text(json.dumps(labels, indent=1))
    return results


def score(results: Results, drawn: list[Drawn], read) -> None:
    values, extra = match(drawn, read)
    results.frames += 1
    results.extra += extra
    results.exact += extra == 0 and all(values[i] == d.die.value for i, d in enumerate(drawn))
    for i, d in enumerate(drawn):
        results.overall.add(values[i], d.die.value)
        (results.touching if d.touching else results.lone).add(values[i], d.die.value)


def save_frame(folder: Path, k: int, image, drawn: list[Drawn]) -> dict:
    (folder / "images").mkdir(parents=True, exist_ok=True)
    name = f"images/pool_{k:04d}.png"
    cv2.imwrite(str(folder / name), image)
    boxes = [{"value": d.die.value, "bbox": box(d.die)} for d in drawn]
    return {"image": name, "dice": boxes}


def box(d: SynthDie) -> list[float]:
    """The die's axis-aligned box, as labels.json gives it."""
    half = d.size / 2 * (abs(math.cos(math.radians(d.angle))) + abs(math.sin(math.radians(d.angle))))
    x, y = d.center
    return [round(x - half, 1), round(y - half, 1), round(x + half, 1), round(y + half, 1)]


def report(results: Results, side: float) -> None:
    total = results.overall
    print(f"{results.frames} frames of {DICE} dice ({side:g} px), {total.dice} dice, "
          f"{results.touching.dice} of them touching another")
    print(f"{'dice':<10}{'count':>6}{'acc':>9}{'misread':>9}{'wrong':>7}{'flagged':>8}{'missed':>8}")
    for name in ("overall", "touching", "lone"):
        print(getattr(results, name).line(name))
    ms = sorted(results.ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"extra {results.extra}; roll exact-match {results.exact}/{results.frames} "
          f"({100 * results.exact / max(results.frames, 1):.1f} %); "
          f"ms per frame median {statistics.median(ms):.1f}, p95 {p95:.1f} (one OpenCV thread)")
    wrong = ", ".join(f"{a}->{b} x{n}" for (a, b), n in total.confused.most_common())
    print(f"misreads (drawn->read): {wrong or 'none'}")


def score_photos(folder: Path) -> None:
    """Read the photos of `folder` with 15 dice or more through the CLI and print score_dice.py's table."""
    labels = [dict(e, image=str(folder / e["image"])) for e in json.loads((folder / "labels.json").read_text())
              if len(e["dice"]) >= DICE]
    print(f"\nreal photos with {DICE}+ dice: {len(labels)} in {folder}")
    if not labels:
        return
    cli = Path(sys.executable).with_name("dice-companion")
    with tempfile.TemporaryDirectory() as tmp:
        subset, predictions = Path(tmp) / folder.name / "labels.json", Path(tmp) / "predictions.jsonl"
        subset.parent.mkdir()
        subset.write_text(json.dumps(labels))
        read = subprocess.run([str(cli), "read", "--json", *(e["image"] for e in labels)], capture_output=True,
                              text=True, check=True)
        predictions.write_text(read.stdout)
        scored = subprocess.run([sys.executable, str(SCORER), str(subset), str(predictions)], capture_output=True,
                                text=True, check=True)
    print(scored.stdout.rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100, help="frames to render and read (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the frames drawn (default 0)")
    parser.add_argument("--size", type=float, default=44.0, help="die side in pixels (default 44)")
    parser.add_argument("--save", type=Path, help="also write the frames and labels.json to this folder")
    parser.add_argument("--photos", default=str(PHOTOS), help="labelled photos to score ('' skips them)")
    args = parser.parse_args()
    report(run(args.frames, args.seed, args.size, args.save), args.size)
    if args.photos:
        score_photos(Path(args.photos))


if __name__ == "__main__":
    main()
