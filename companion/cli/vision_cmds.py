"""`read`, `calibrate` and `bench`: the dice reader from the command line (contracts in design.md)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from ..errors import CompanionError


class UnreadableImage(CompanionError):
    """A file that is missing or not an image (the message names it)."""


def register(sub):
    read = sub.add_parser("read", help="read the dice in still images")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    read.add_argument("--calibration", metavar="PROFILE", help="a profile made by `calibrate` (default: built in)")
    read.add_argument("--annotate", metavar="DIR", help="write each image with the dice drawn on it into DIR")
    read.set_defaults(run=run_read)

    cal = sub.add_parser("calibrate", help="build a calibration profile from still frames of one tray")
    cal.add_argument("target", nargs="?", default="tray", choices=("tray", "chance-die", "colours", "owners"),
                     help="what to calibrate: the tray (default) or a taught face/owner model")
    cal.add_argument("--from-images", nargs="+", required=True, metavar="IMAGE", dest="images")
    cal.add_argument("--out", required=True, metavar="PROFILE")
    cal.add_argument("--profile", metavar="PROFILE", help="add to this profile instead of the built-in one")
    cal.add_argument("--faces", metavar="NAMES", help="face names, in image order, for chance-die / colours")
    cal.set_defaults(run=run_calibrate)

    bench = sub.add_parser("bench", help="accuracy and speed of the reader on the development photos")
    bench.add_argument("--photos", metavar="DIR", help="dice-photos folder (default: ../shared/data/dice-photos)")
    bench.add_argument("--calibrated", action="store_true",
                       help="also score each set with a profile calibrated from ten of its photos")
    bench.add_argument("--repeat", type=int, default=1, help="time every image this many times (best kept)")
    bench.set_defaults(run=run_bench)


def load_image(path: str):
    import cv2
    import numpy as np
    try:
        data = np.fromfile(path, np.uint8)
    except OSError as error:
        raise UnreadableImage(f"cannot read {path}: {error.strerror or error}") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UnreadableImage(f"{path} is not an image")
    return image


def load_profile(path: str | None):
    from ..vision.profile import Profile
    return Profile.load(path) if path else Profile()


def run_read(args) -> int:
    import cv2
    from ..vision.annotate import annotate
    from ..vision.reader import DiceReader
    cv2.setNumThreads(1)
    reader = DiceReader(load_profile(args.calibration))
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    failures = 0
    for path in args.images:
        try:
            image = load_image(path)
        except UnreadableImage as error:
            failures += 1
            if args.json:
                print(json.dumps({"image": path, "error": str(error)}), flush=True)
            else:
                print(f"dice-companion read: {error}", file=sys.stderr)  # as calibrate says it: the file once
            continue
        start = time.perf_counter()
        dice = reader.read(image)
        ms = (time.perf_counter() - start) * 1000
        if args.json:
            print(json.dumps({"image": path, "dice": [d.to_json() for d in dice], "ms": round(ms, 2)}), flush=True)
        else:
            labels = " ".join(d.to_die().label() for d in dice) or "no dice"
            print(f"{path}: {labels}")
        if out_dir:
            cv2.imwrite(str(out_dir / (Path(path).stem + ".png")), annotate(image, dice))
    return 1 if failures else 0


def run_calibrate(args) -> int:
    if args.target != "tray":
        from ..vision.teach import teach
        return int(teach(args.target, args.images, args) or 0)
    from ..vision.calibrate import calibrate_tray
    images = [load_image(p) for p in args.images]
    profile = calibrate_tray(images, base=load_profile(args.profile))
    profile.save(args.out)
    for warning in profile.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    size = f"{profile.die_px:.0f} px" if profile.die_px else "measured per frame"
    tray = list(profile.tray) if profile.tray else "whole frame"
    print(f"wrote {args.out}: die {size}, pips {profile.pip_polarity}, tray {tray}")
    return 0


def run_bench(args) -> int:
    from ..vision.bench import run
    return run(args)
