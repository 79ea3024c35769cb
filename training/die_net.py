"""Rebuilds companion/vision/die_net.onnx, the reader's second opinion on dice it leaves unread (die_net.py).

    .venv/bin/pip install -e '.[train]'      # jax and onnx, for this script only
    .venv/bin/python training/die_net.py [--photos ../shared/data/dice-photos] [--epochs 120] [--hold-out K --out F]

Examples (all 40 px crops made by die_net.network_crop, as the reader makes them):
- the values 1-6: every labelled die of byler-d6, its crop 1.15 times its box (the box takes in the whole die,
  about twice its face: die_net.CROP_PER_FACE);
- "no pip face": symbol and colour faces drawn by companion.vision.synth, crops of byler-d6's tray away from every
  die, and crops centred between two dice that lie close (what a heap of touching dice shows between them);
- the dice the pip geometry leaves unread in byler-d6's photos, cropped at the reader's own centre and size (a lone
  body's centre takes in its shadow), with the value of the labelled die they lie on, or no pip face: rebuild the
  network when the geometry changes what it leaves unread.
--hold-out K leaves out a fifth of byler-d6's photos, to read them with a network that never saw them
(benchmarks/bench_die_net_folds.py).
matteo-webcam is left out, to test the network on dice, a table and a camera it has never seen (`dice-companion
bench` reads both sets). Each example is turned, flipped, shifted, scaled, and its colour channels permuted and
inverted at random at every epoch (the draws are seeded). Training takes about 8 minutes on two cores (JAX 0.10).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision.die_net import (CROP_PER_FACE, CROP_PX, FOLDS, MODEL, NO_FACE, network_crop,  # noqa: E402
                                      normalise)
from companion.vision.profile import Profile  # noqa: E402
from companion.vision.reader import DiceReader  # noqa: E402
from companion.vision.synth import COLOUR_FACES, SYMBOLS, SynthDie, render_views  # noqa: E402

BOX_MARGIN = 1.15
ON_DIE = 0.35
"""A die the reader leaves unread is taken to be the labelled die whose centre lies this many of its sides away at
most (a lone body's centre takes in its shadow)..."""
OFF_DICE = 0.8
"""...and no die at all when every labelled die lies this many sides away at least (between, it may be either)."""
AS_SHOWN_WEIGHT = 3
"""Each die as the reader shows it is taken this many times (its turns and flips differ each time): they are few
(about 80 of 1,800 examples), and they are what the network is asked about. Read with networks trained without
them, byler-d6's photos of fold 0 gained 4 dice more than without these examples at weight 1, and 6 at 3; fold
1, 2 at weight 1 (benchmarks/bench_die_net_folds.py)."""
DRAWN_MARGIN = 1.4  # a drawn die's size is its side, without the shadow and sides a labelled box takes in
WIDTHS = (24, 48, 96)
BODIES = ((228, 234, 238), (40, 40, 200), (60, 150, 40), (30, 30, 30), (190, 110, 40), (60, 200, 230))


def labelled_dice(photos: Path, rng, hold_out: int | None = None) -> tuple[list[np.ndarray], list[int]]:
    """Crops of byler-d6's labelled dice and of no pip face, without the photos of fold `hold_out` (every FOLDS-th
    photo from that one on), which a network trained so has never seen."""
    crops, classes = [], []
    geometry = DiceReader(Profile(second_opinion=False))
    entries = json.loads((photos / "byler-d6" / "labels.json").read_text())
    for entry in [e for k, e in enumerate(entries) if hold_out is None or k % FOLDS != hold_out]:
        frame = cv2.imread(str(photos / "byler-d6" / entry["image"]))
        boxes = np.array([d["bbox"] for d in entry["dice"]], float).reshape(-1, 4)
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        sides = (boxes[:, 2:] - boxes[:, :2]).max(axis=1)
        for die, centre, side in zip(entry["dice"], centres, sides):
            crops.append(network_crop(frame, centre, BOX_MARGIN * side))
            classes.append(die["value"] - 1)
        crops += _no_face_crops(frame, centres, sides, rng)
        classes += [NO_FACE] * (len(crops) - len(classes))
        shown = _as_the_reader_shows(geometry, frame, centres, sides, [d["value"] - 1 for d in entry["dice"]])
        crops += [crop for crop, _ in shown] * AS_SHOWN_WEIGHT
        classes += [value for _, value in shown] * AS_SHOWN_WEIGHT
    return crops, classes


def _as_the_reader_shows(geometry, frame, centres, sides, value_of) -> list[tuple[np.ndarray, int]]:
    """The dice the pip geometry (a DiceReader with no second opinion) leaves unread in a photo, cropped at the
    reader's own centre and size as the reader shows them to the network (a lone body's centre takes in its shadow,
    and its size is the frame's typical face), each with its labelled value when it lies on a labelled die, or as no
    pip face when it lies on none."""
    out = []
    for die in geometry.read(frame):
        if die.value is not None or not len(centres):
            continue
        distances = np.hypot(*(centres - np.array(die.center)).T)
        k = int(np.argmin(distances))
        crop = network_crop(frame, die.center, CROP_PER_FACE * die.size)
        if distances[k] < ON_DIE * sides[k]:
            out.append((crop, value_of[k]))
        elif distances[k] > OFF_DICE * sides[k]:
            out.append((crop, NO_FACE))
    return out


def _no_face_crops(frame, centres, sides, rng) -> list[np.ndarray]:
    """Two crops of the tray away from every die, and every crop centred between two dice that lie close."""
    if not len(centres):
        return []
    side = float(np.median(sides))
    out = []
    for _ in range(40):
        point = rng.uniform(side, np.array(frame.shape[1::-1]) - side)
        if np.hypot(*(centres - point).T).min() > 1.2 * side:
            out.append(network_crop(frame, point, BOX_MARGIN * side))
            if len(out) == 2:
                break
    for i in range(len(centres)):
        for j in range(i + 1, len(centres)):
            if np.hypot(*(centres[i] - centres[j])) < 1.3 * side:
                out.append(network_crop(frame, (centres[i] + centres[j]) / 2, BOX_MARGIN * side))
    return out


def drawn_faces() -> list[np.ndarray]:
    """Symbol and colour faces on dice of several colours (the network must not count a star's points)."""
    out = []
    faces = [("symbol", s) for s in SYMBOLS] + [("colour", c) for c in COLOUR_FACES]
    for seed, body in enumerate(BODIES):
        ink = (240, 240, 240) if sum(body) < 400 else (35, 30, 30)
        for kind, face in faces:
            die = SynthDie(kind=kind, face=face, body=body, pips=ink, size=44.0)
            out += [network_crop(frame, placed.center, DRAWN_MARGIN * placed.size)
                    for frame, placed in render_views(die, 6, seed=seed)]
    return out


def augment(crops: np.ndarray, rng) -> np.ndarray:
    out = np.empty(crops.shape, np.float32)
    for i, crop in enumerate(crops):
        crop = np.rot90(crop, rng.integers(4))
        if rng.random() < 0.5:
            crop = crop[:, ::-1]
        crop = crop[:, :, rng.permutation(3)]
        if rng.random() < 0.5:
            crop = 255 - crop
        warp = cv2.getRotationMatrix2D((CROP_PX / 2, CROP_PX / 2), rng.uniform(-20, 20), rng.uniform(0.88, 1.12))
        warp[:, 2] += rng.uniform(-3, 3, 2)
        crop = cv2.warpAffine(np.ascontiguousarray(crop), warp, (CROP_PX, CROP_PX), borderMode=cv2.BORDER_REFLECT)
        out[i] = crop * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
    return out


def train(crops: np.ndarray, classes: np.ndarray, epochs: int, seed: int = 7) -> list:
    import jax
    import jax.numpy as jnp

    def forward(params, x):
        for (w1, b1), (w2, b2) in zip(params[0:-1:2], params[1:-1:2]):
            for w, b in ((w1, b1), (w2, b2)):
                x = jax.nn.relu(jax.lax.conv_general_dilated(
                    x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")) + b)
            x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        w, b = params[-1]
        return x.mean(axis=(1, 2)) @ w + b

    def loss(params, x, y):
        log_p = jax.nn.log_softmax(forward(params, x))
        return -jnp.mean(log_p[jnp.arange(len(y)), y]) + 1e-4 * sum((w ** 2).sum() for w, _ in params)

    @jax.jit
    def step(params, m, v, t, x, y, rate):  # Adam
        grads = jax.grad(loss)(params, x, y)
        m = jax.tree.map(lambda a, g: 0.9 * a + 0.1 * g, m, grads)
        v = jax.tree.map(lambda a, g: 0.999 * a + 0.001 * g * g, v, grads)
        return jax.tree.map(lambda p, a, b: p - rate * (a / (1 - 0.9 ** t)) / (jnp.sqrt(b / (1 - 0.999 ** t)) + 1e-8),
                            params, m, v), m, v

    key, params, depth = jax.random.PRNGKey(seed), [], 3
    for width in WIDTHS:
        for _ in range(2):
            key, sub = jax.random.split(key)
            params.append((jax.random.normal(sub, (3, 3, depth, width)) * np.sqrt(2 / (9 * depth)), jnp.zeros(width)))
            depth = width
    key, sub = jax.random.split(key)
    params.append((jax.random.normal(sub, (depth, NO_FACE + 1)) / np.sqrt(depth), jnp.zeros(NO_FACE + 1)))
    m, v = jax.tree.map(jnp.zeros_like, params), jax.tree.map(jnp.zeros_like, params)
    rng, t = np.random.default_rng(seed), 0
    for epoch in range(epochs):
        rate = 1e-3 * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        order = rng.permutation(len(crops))
        for start in range(0, len(order) - 31, 32):
            batch = order[start:start + 32]
            t += 1
            params, m, v = step(params, m, v, t, normalise(augment(crops[batch], rng)), classes[batch], rate)
    return [(np.asarray(w), np.asarray(b)) for w, b in params]


def to_onnx(params, path: Path) -> None:
    """The network as ONNX (NCHW input), for cv2.dnn. Each convolution's input is padded by a Pad node, not by the
    Conv's own pads: OpenCV runs a 3x3 convolution by Winograd's method only on inputs 12 px across or more, so the
    last two layers' 10 px maps ran three times slower than the others for their work, and padded so (12 px) a view
    takes 0.50 ms instead of 0.74, with the same probabilities to 1e-11."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, x = [], "crops"
    pads = np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64)  # in Pad's order: N, C, H, W before, then after
    weights = [numpy_helper.from_array(pads, "pads")]
    for i, (w, b) in enumerate(params[:-1]):
        weights += [numpy_helper.from_array(w.transpose(3, 2, 0, 1).astype(np.float32), f"w{i}"),
                    numpy_helper.from_array(b.astype(np.float32), f"b{i}")]
        nodes += [helper.make_node("Pad", [x, "pads"], [f"padded{i}"]),
                  helper.make_node("Conv", [f"padded{i}", f"w{i}", f"b{i}"], [f"conv{i}"], kernel_shape=[3, 3]),
                  helper.make_node("Relu", [f"conv{i}"], [f"relu{i}"])]
        x = f"relu{i}"
        if i % 2:
            nodes.append(helper.make_node("MaxPool", [x], [f"pool{i}"], kernel_shape=[2, 2], strides=[2, 2]))
            x = f"pool{i}"
    w, b = params[-1]
    weights += [numpy_helper.from_array(w.astype(np.float32), "w_out"),
                numpy_helper.from_array(b.astype(np.float32), "b_out")]
    nodes += [helper.make_node("GlobalAveragePool", [x], ["mean"]),
              helper.make_node("Flatten", ["mean"], ["flat"]),
              helper.make_node("MatMul", ["flat", "w_out"], ["scores"]),
              helper.make_node("Add", ["scores", "b_out"], ["logits"]),
              helper.make_node("Softmax", ["logits"], ["classes"], axis=1)]
    crops = helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["N", 3, CROP_PX, CROP_PX])
    classes = helper.make_tensor_value_info("classes", TensorProto.FLOAT, ["N", NO_FACE + 1])
    graph = helper.make_graph(nodes, "die_net", [crops], [classes], weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared" / "data" / "dice-photos")
    parser.add_argument("--epochs", type=int, default=120)
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--hold-out", type=int, choices=range(FOLDS), metavar=f"0-{FOLDS - 1}",
                        help="leave out this fold of byler-d6's photos (write --out elsewhere than the shipped model)")
    args = parser.parse_args()
    if args.hold_out is not None and args.out == MODEL:
        parser.error("--hold-out needs --out: the shipped network learns from every photo")
    rng = np.random.default_rng(0)
    crops, classes = labelled_dice(args.photos, rng, args.hold_out)
    drawn = drawn_faces()
    crops, classes = np.stack(crops + drawn), np.array(classes + [NO_FACE] * len(drawn))
    print(f"{len(crops)} examples: {np.bincount(classes).tolist()} (values 1-6, no pip face)")
    to_onnx(train(crops, classes, args.epochs), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
