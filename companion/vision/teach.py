"""`dice-companion calibrate chance-die|colours|owners --from-images IMAGE... --out PROFILE`: teach faces or owners.

Each image is a frame of the tray showing only the die or dice being taught, all with the same known label: a face
(chance-die, colours) or an owner (owners). The label is given by `--faces a,b,c` (one name per image, in image
order) or else by the file name: `Sweet_1.png`, `sweet-2.jpg` and `Sweet.png` all teach "sweet". Every die the
reader's die finder sees in a frame becomes one example. The model is stored in the profile (`--profile`, or the
built-in one) and written to `--out`: faces["symbol"] for the Chance Die, faces["colour"] for colour dice,
owners["body"] for owners by body colour.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import cv2
import numpy as np

from ..errors import CompanionError
from .faces import FaceModel, TaughtClasses, die_crop
from .owners import OwnerModel
from .profile import Profile
from .reader import DiceReader

CHANCE_FACES = ("blank", "sweet", "sour", "nope")  # the names Countaloupe's chance_faces use
TARGETS = {"chance-die": ("faces", "symbol"), "colours": ("faces", "colour"), "owners": ("owners", "body")}


class TeachError(CompanionError):
    """Frames that cannot teach a model: the message names the image or the face."""


def teach(target: str, images: list[str], args) -> int:
    """Teach `target` from the labelled frames `images`; args has .faces, .profile and .out. Returns 0."""
    if target not in TARGETS:
        raise TeachError(f"cannot teach {target!r}; known: {', '.join(TARGETS)}")
    labels = _labels(images, getattr(args, "faces", None), target)
    profile = Profile.load(args.profile) if getattr(args, "profile", None) else Profile()
    examples: dict[str, list[np.ndarray]] = {}
    for path, label in zip(images, labels):
        examples.setdefault(label, []).extend(_die_crops(_load(path), profile, path))
    section, key = TARGETS[target]
    if section == "owners":
        model = OwnerModel.teach(examples)
        read_back = [(label, model.owner_of(c)[0]) for label, crops in examples.items() for c in crops]
    else:
        model = FaceModel.teach(key, examples)
        read_back = [(label, model.classify(c)[0]) for label, crops in examples.items() for c in crops]
    getattr(profile, section)[key] = model.to_json()
    profile.save(args.out)
    for warning in _doubts(model.classes, read_back):
        print(f"warning: {warning}", file=sys.stderr)
    counts = ", ".join(f"{label} ({len(crops)})" for label, crops in examples.items())
    print(f"wrote {args.out}: {section}[{key!r}] taught from {counts}")
    return 0


def _labels(images: list[str], faces: str | None, target: str) -> list[str]:
    if faces:
        labels = [name.strip() for name in faces.split(",")]
        if len(labels) != len(images) or not all(labels):
            raise TeachError(f"--faces names {len(labels)} faces for {len(images)} images: give one per image")
    else:
        labels = [re.sub(r"[_-]\d+$", "", Path(p).stem) for p in images]
    if target == "chance-die":
        canonical = {face.lower(): face for face in CHANCE_FACES}
        unknown = sorted({label for label in labels if label.lower() not in canonical})
        if unknown:
            raise TeachError(f"{unknown[0]!r} is no Chance Die face; its faces are {', '.join(CHANCE_FACES)}")
        labels = [canonical[label.lower()] for label in labels]
        missing = [face for face in CHANCE_FACES if face not in labels]
        if missing:
            raise TeachError(f"no image shows the Chance Die's {missing[0]!r} face: show every face")
    return labels


def _load(path: str) -> np.ndarray:
    image = cv2.imread(path, cv2.IMREAD_COLOR) if Path(path).is_file() else None
    if image is None:
        raise TeachError(f"{path} is not an image that can be read")
    return image


def _die_crops(frame: np.ndarray, profile: Profile, path: str) -> list[np.ndarray]:
    """A crop of every die the reader finds, pips or not (a blank or colour face has none)."""
    found = DiceReader(profile).find(frame)
    if not found:
        raise TeachError(f"{path}: no die found; show the die on the tray, in full view")
    return [die_crop(frame, center, size) for center, size in found]


def _doubts(classes: TaughtClasses, read_back: list[tuple[str, str | None]]) -> list[str]:
    """What the taught model says about the teaching: examples unlike the rest of their face (left out), faces
    that look alike, examples that read back unsure."""
    doubts = []
    for i, label in enumerate(classes.names):
        reads = [read for taught, read in read_back if taught == label]
        if classes.counts[label] < len(reads):
            doubts.append(f"{len(reads) - classes.counts[label]} of {len(reads)} examples of {label!r} were unlike "
                          "the others and left out: show only that die, on the tray, in full view")
        distances = classes.distances(classes.means[i])
        alike = [other for j, other in enumerate(classes.names) if j != i and distances[j] <= classes.reject_at]
        if alike:
            doubts.append(f"{label!r} looks like {alike[0]!r}: the camera cannot tell them apart")
            continue
        if reads.count(label) < 0.75 * len(reads):
            doubts.append(f"{len(reads) - reads.count(label)} of {len(reads)} examples of {label!r} read back "
                          "unsure or wrong: show only that die, on the tray, in full view")
    return doubts
