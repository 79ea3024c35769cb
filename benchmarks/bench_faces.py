#!/usr/bin/env python3
"""Taught faces and owners on rendered dice: accuracy, confusion matrices and milliseconds per crop.

usage: python benchmarks/bench_faces.py [--shown N]
Every model is taught as a player would (six views per face under neutral light) and tested on N views per face
under two other white balances (warm: gains B,G,R 0.72,0.9,1.0; cool: 1.0,0.9,0.7) with noise sigma 2-5, blur
sigma 0.3-1.2, uneven light, and a die finder's error simulated (centre off by ~1.5 px, size off by up to 8 %).
Rows are what was shown, columns what was read; "None" is unreadable. Classification time is on one thread.
"""
import argparse
import os
import time

import cv2
import numpy as np

from companion.vision.faces import FaceModel, die_crop
from companion.vision.owners import OwnerModel
from companion.vision.synth import COLOUR_FACES, SynthDie, render_views

NEUTRAL, WARM, COOL = (1.0, 1.0, 1.0), (0.72, 0.9, 1.0), (1.0, 0.9, 0.7)
CHANCE = {"blank": "blank", "Sweet": "star", "Sour": "crescent", "Nope": "cross"}
IVORY, INK, WHITE = (228, 234, 238), (35, 30, 30), (240, 240, 240)
TEST = dict(blur=(0.3, 1.2), noise=(2.0, 5.0))


def crops(die, n, seed, white_balance=NEUTRAL, **conditions):
    """Views of `die` cut as a slightly wrong die finder would."""
    finder = np.random.default_rng(seed + 1)
    return [die_crop(frame, np.add(d.center, finder.normal(0, 1.5, 2)), d.size * finder.uniform(0.92, 1.08))
            for frame, d in render_views(die, n, seed=seed, white_balance=white_balance, **conditions)]


def shown_under_two_lights(dice: dict, n: int, seed: int) -> dict:
    return {label: crops(die, n, seed + i, WARM, **TEST) + crops(die, n, seed + 100 + i, COOL, **TEST)
            for i, (label, die) in enumerate(dice.items())}


def confusion(read, names, shown: dict) -> None:
    columns = list(names) + [None]
    print("shown \\ read".ljust(14) + "".join(str(c)[:8].rjust(9) for c in columns))
    for label, views in shown.items():
        reads = [read(c)[0] for c in views]
        print(str(label)[:13].ljust(14) + "".join(str(reads.count(c)).rjust(9) for c in columns))


def accuracy(read, shown: dict, expected) -> str:
    right = sum(read(c)[0] == expected(label) for label, views in shown.items() for c in views)
    wrong = sum(read(c)[0] not in (expected(label), None) for label, views in shown.items() for c in views)
    total = sum(len(v) for v in shown.values())
    return f"{right}/{total} right ({100 * right / total:.1f} %), {wrong} wrong"


def chance_die(face, body, ink):
    return SynthDie(kind="symbol", face=face, symbol=CHANCE[face], body=body, pips=ink, size=48)


def bench_chance_die(n: int):
    for body, ink, name in ((IVORY, INK, "ivory with black symbols, like the numbered dice"),
                            ((60, 60, 200), WHITE, "red with white symbols")):
        model = FaceModel.teach("symbol", {f: crops(chance_die(f, body, ink), 6, 10 + i) for i, f in enumerate(CHANCE)})
        faces = shown_under_two_lights({f: chance_die(f, body, ink) for f in CHANCE}, n, 1000)
        others = shown_under_two_lights(
            {**{f"pips {v}": SynthDie(value=v, body=IVORY, pips=INK, size=48) for v in range(1, 7)},
             "ring": SynthDie(kind="symbol", face="ring", body=body, pips=ink, size=48),
             "triangle": SynthDie(kind="symbol", face="triangle", body=body, pips=ink, size=48)}, n // 2, 2000)
        print(f"\nChance Die, {name}: faces {accuracy(model.classify, faces, lambda f: f)}; "
              f"numbered dice and untaught symbols {accuracy(model.classify, others, lambda f: None)}")
        confusion(model.classify, model.faces, {**faces, **others})


def bench_colours(n: int):
    model = FaceModel.teach("colour", {c: crops(SynthDie(kind="colour", face=c, size=48), 6, 20 + i)
                                       for i, c in enumerate(COLOUR_FACES)})
    faces = shown_under_two_lights({c: SynthDie(kind="colour", face=c, size=48) for c in COLOUR_FACES}, n, 3000)
    others = shown_under_two_lights({"pips 5": SynthDie(value=5, size=48),
                                     "red die, 3": SynthDie(value=3, body=(45, 40, 200), pips=WHITE, size=48)},
                                    n // 2, 4000)
    print(f"\nColour dice: faces {accuracy(model.classify, faces, lambda c: c)}; "
          f"numbered dice {accuracy(model.classify, others, lambda c: None)}")
    confusion(model.classify, model.faces, {**faces, **others})
    return model, faces


def bench_owners(n: int):
    bodies = {"red": ((40, 40, 190), WHITE), "orange": ((30, 120, 235), WHITE), "yellow": ((50, 210, 230), INK),
              "green": ((60, 150, 50), WHITE), "blue": ((170, 80, 30), WHITE), "purple": ((140, 50, 110), WHITE),
              "white": (IVORY, INK), "black": ((35, 35, 35), WHITE)}
    model = OwnerModel.teach({name: [c for v in range(1, 7)
                                     for c in crops(SynthDie(value=v, body=b, pips=p, size=48), 1, 50 + 10 * i + v)]
                              for i, (name, (b, p)) in enumerate(bodies.items())})
    shown = shown_under_two_lights({name: SynthDie(value=1 + i % 6, body=b, pips=p, size=48)
                                    for i, (name, (b, p)) in enumerate(bodies.items())}, n, 5000)
    print(f"\nOwners by body colour (8 colours, taught one view per face value): "
          f"{accuracy(model.owner_of, shown, lambda name: name)}")
    confusion(model.owner_of, model.owners, shown)


def bench_speed(model, faces: dict):
    views = [c for v in faces.values() for c in v]
    for c in views[:20]:
        model.classify(c)
    times = []
    for i in range(2000):
        crop = views[i % len(views)]
        start = time.perf_counter()
        model.classify(crop)
        times.append(time.perf_counter() - start)
    ms = np.array(times) * 1000
    print(f"\nclassify one crop ({views[0].shape[1]} px), 1 thread: median {np.median(ms):.3f} ms, "
          f"p95 {np.percentile(ms, 95):.3f} ms (load average {os.getloadavg()[0]:.2f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shown", type=int, default=50, help="test views per face and white balance (default 50)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    bench_chance_die(args.shown)
    model, faces = bench_colours(args.shown)
    bench_owners(args.shown)
    bench_speed(model, faces)


if __name__ == "__main__":
    main()
