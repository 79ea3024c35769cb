#!/usr/bin/env python3
"""Where the reader's time goes: milliseconds per photo in each of its stages, on one thread.

usage: python benchmarks/bench_stages.py [--set byler-d6] [--repeat 3] [--photos DIR]
Reads every photo of the set `--repeat` times and keeps the fastest read of each, with each stage's time in it.
A stage's time is its own: the time of the stages it calls is counted to them (a second look's pips are counted
to finding pips), so the stages and "the rest" add up to the whole read. Prints the mean over the middle half of
the photos by their whole time (the photos the median lies among), and that median. The timers cost about 2 %
(matteo-webcam's median 9.57 against 9.39 ms): `dice-companion bench` gives the times to quote, this script what
they are made of.
"""
import argparse
import functools
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

import checkout  # this checkout's companion package, wherever the environment was made
from companion.vision import die_net, face_judge, own_scale, pip_faces, reader, second_look, view

STAGES = {
    "finding pips": [(view, "find_pips"), (second_look, "find_pips"), (own_scale, "find_pips")],
    "judging faces": [(reader, "dice_from_pips"), (second_look, "dice_from_pips")],
    "proposing faces": [(pip_faces, "_proposals")],
    "judging lone pips": [(face_judge.Judge, "lone")],
    "second looks": [(reader, "second_look"), (reader, "at_own_scale")],
    "heap parts": [(reader.DiceReader, "_dice_in_heaps"), (reader.DiceReader, "_seen_again_in_heaps")],
    "die_net": [(die_net.DieNet, "read"), (die_net.DieNet, "likeliest")],
    "bodies and tray": [(view.View, "__init__"), (view.View, "regions")],
    "working frame": [(view.View, "working_frame")],
}
"""Each stage, as the functions that make it, named where the reader looks them up."""


class Timers:
    """Time spent in each stage, each call's own: what a timed call spends in other timed calls is theirs."""

    def __init__(self):
        self.spent = Counter()
        self._inner = [0.0]  # per call open, the time spent in the timed calls made from it

    def timed(self, stage: str, function):
        @functools.wraps(function)
        def run(*args, **kwargs):
            self._inner.append(0.0)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                inner = self._inner.pop()
                self.spent[stage] += elapsed - inner
                self._inner[-1] += elapsed
        return run

    def install(self) -> None:
        for stage, places in STAGES.items():
            for owner, name in places:
                found = owner.__dict__[name]
                if isinstance(found, functools.cached_property):  # View's lazily worked out parts
                    timed = functools.cached_property(self.timed(stage, found.func))
                    timed.__set_name__(owner, name)
                    setattr(owner, name, timed)
                else:
                    setattr(owner, name, self.timed(stage, found))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="byler-d6", help="development set (default byler-d6)")
    parser.add_argument("--repeat", type=int, default=3, help="readings of each photo, the fastest kept (default 3)")
    parser.add_argument("--photos", type=Path, default=checkout.ROOT.parent / "shared" / "data" / "dice-photos")
    args = parser.parse_args()
    folder = args.photos / args.set
    if not (folder / "labels.json").exists():
        print(f"bench_stages: no {folder}/labels.json", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    timers = Timers()
    timers.install()
    frames = [cv2.imread(str(folder / entry["image"])) for entry in json.loads((folder / "labels.json").read_text())]
    dice_reader = reader.DiceReader()
    dice_reader.read(frames[0])  # warm up
    reads = []
    for frame in frames:
        best = None
        for _ in range(args.repeat):
            timers.spent.clear()
            start = time.perf_counter()
            dice_reader.read(frame)
            whole = time.perf_counter() - start
            if best is None or whole < best[0]:
                best = (whole, Counter(timers.spent))
        reads.append(best)
    reads.sort(key=lambda read: read[0])
    middle = reads[len(reads) // 4: 3 * len(reads) // 4]
    mean = {stage: 1000 * sum(spent[stage] for _, spent in middle) / len(middle) for stage in STAGES}
    whole = 1000 * statistics.mean(total for total, _ in middle)
    print(f"{args.set}: {len(frames)} photos, median {1000 * statistics.median(t for t, _ in reads):.2f} ms; "
          f"the middle half's mean {whole:.2f} ms a photo, of which:")
    for stage, ms in sorted(mean.items(), key=lambda item: -item[1]):
        print(f"  {stage:<17} {ms:6.2f} ms")
    print(f"  {'the rest':<17} {whole - sum(mean.values()):6.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
