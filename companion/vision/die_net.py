"""A second opinion on the dice the pip geometry leaves unread: a small convolutional network that reads a die's
top face from a crop of the whole die.

The geometry (pips, pip_faces, face_judge) is the reader; it holds back any face it is not sure of, and a die
whose pips are joined to glints or whose body fails a check comes back with value None. This network looks at
such a die as a whole and gives its value only when it is sure; otherwise the die stays unread. It never
overrules a read face.

The network (training/die_net.py rebuilds it from ../shared's development photos) takes a 40 px crop whose side is
`CROP_PER_FACE` times the die's face, normalised per colour channel, and answers one of seven classes: the values
1 to 6, or "no pip face" (a symbol or colour face, the tray, a crop between two dice). It was trained on
byler-d6's dice only, turned, flipped, shifted and with their colour channels permuted and inverted, so that the
pips' colour and polarity carry no weight; matteo-webcam (other dice, another table and camera) tests it. It never
saw pips lighter than their die in one channel and darker in another (yellow on blue): such a crop is shown to it
with those channels turned alike first (`ANTI_CORRELATED`).
OpenCV's dnn module runs it: no other runtime is needed.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .face_judge import under_glare

MODEL = Path(__file__).with_name("die_net.onnx")
CROP_PX = 40
"""The network's input side."""
CROP_PER_FACE = 2.25
"""The crop's side over the die's face size (ReadDie.size): the whole die, its sides in view and a margin."""
SURE = 0.99
"""The least mean probability, over four turns and flips of the crop, of a value the network gives. Trained
without a fifth of byler-d6's photos, at 0.95 it read a dark marbled 3 whose middle pip hardly shows as a 2
(0.97) in them; at 0.99, on three such folds, 16 of their dice more than the geometry alone, with no misread."""
AGREE = 0.85
"""The least mean probability of a value the network gives when it is the count of like pips on the middle of a
lone body the geometry made no face on (ReadDie.counted_pips): two readers that look differently agree. Not the
count of a face the geometry made but doubted: its doubt (a cocked die, a side face, a glint) is about that very
count (a held-out network counted a cocked blue 2 with three pips along its edge, a face of 3 doubted, as a 3 at
0.94). Read with networks trained without them (benchmarks/bench_die_net_folds.py), byler-d6's photos gain 6 dice
at 0.85 against 0.95 (the twenty-fourth session's change) with no misread more, nor any under bench_camera's
changes; at 0.8, 8 dice, but under those changes a 4 was read as a 3 at 0.81 (JPEG quality 30) and a symbol face as
a 2 at 0.82 (four times the pixels); at 0.7, 10 dice and a misread on the photos as taken (a purple 2 whose lone
body showed three like pips, counted 3 at 0.71). On all of byler-d6, whose dice it learned, the shipped network
reads 11 dice more at 0.85 than at 0.95; matteo-webcam, whose dice it never saw, reads as before."""
NO_FACE = 6
"""The class index of "no pip face"."""
ANTI_CORRELATED = -0.3
"""A channel whose correlation over a crop's face (`_middle`) with its most varied channel is below this shows the
pips the other way round: it is inverted before the network looks (`_aligned`). The network learned crops whose
channels all show the pips one way (it inverts them all at once), and read 5s of yellow, gold or red pips on blue
or green dice as 4s at 0.99-1.0 (6 of 480 rendered dice shown to it alone, every value, each tray and style: 373
right, against 434 right and none wrong with the channels turned alike). Where the crop so turned gets no value, the
crop as it is is read, as before: on the development photos 9 of the 223 crops shown to it have such a channel,
and each is read as before; read with networks trained without them, one 5 more and none fewer."""
FOLDS = 5
"""training/die_net.py --hold-out K trains a network without byler-d6's photos K, K + FOLDS, ...; read with it,
they tell how much of what the network reads holds on photos it has never seen (benchmarks/bench_die_net_folds.py)."""


class DieNet:
    """The network, loaded once per reader."""

    def __init__(self, path: Path = MODEL):
        self._net = _load(str(path))

    def read(self, frame_bgr: np.ndarray, center: tuple[float, float], face_size: float,
             counted: int = 0) -> tuple[int | None, float]:
        """The value of the die at `center` (input pixels, its face `face_size` across) and the network's
        confidence in it (its mean probability over four turns and flips of the crop), or (None, 0.0) when it is
        not sure of a pip value: SURE of it, or AGREE when it is the `counted` like pips on a lone body the geometry
        made no face on. A face under glare gets no value: the network counts the pips it sees, and glare hides
        pips (a 6 with a column washed out is a perfect 3), which the geometry's glare check (face_judge) knows.

        A crop whose channels show the pips both ways is read with them turned alike first (`_aligned`)."""
        crop = network_crop(frame_bgr, center, CROP_PER_FACE * face_size)
        if under_glare(_middle(crop)):
            return None, 0.0
        least = np.full(NO_FACE, SURE)
        if 1 <= counted <= NO_FACE:
            least[counted - 1] = AGREE
        aligned = _aligned(crop)
        if aligned is not None:
            value, confidence = self._value(_views(aligned), least)
            if value is not None:
                return value, confidence
        return self._value(_views(crop), least)

    def _value(self, views: np.ndarray, least: np.ndarray) -> tuple[int | None, float]:
        """The value whose mean probability over `views` reaches its `least`, and that mean, or (None, 0.0).

        The views are looked at one by one, and the look stops as soon as no value can reach its least mean
        whatever the views left show (at most 1 each): after the first view, a value other than the count must
        show 0.96 there (4 x SURE - 3), the count 0.4 (4 x AGREE - 3). Of byler-d6's 223 looks, 95 stop after
        the first view and 33 after the second or third: 550 views, against 751 when a look stopped only after a
        first view that showed no value at 0.4, with the very same values."""
        total = np.zeros(NO_FACE + 1)
        for seen, view in enumerate(views, 1):
            total += self._forward(view[None])[0]
            if not (total[:NO_FACE] + len(views) - seen >= len(views) * least).any():
                return None, 0.0
        probabilities = total / len(views)
        best = int(np.argmax(probabilities))
        confidence = float(probabilities[best])
        if best == NO_FACE or confidence < least[best]:
            return None, 0.0
        return best + 1, confidence

    def likeliest(self, frame_bgr: np.ndarray, center: tuple[float, float], face_size: float) -> int | None:
        """The value the network finds likeliest for the die at `center` (as for `read`), however unsure, or None
        when that is no pip face."""
        best = int(np.argmax(self.probabilities(network_crop(frame_bgr, center, CROP_PER_FACE * face_size))))
        return None if best == NO_FACE else best + 1

    def probabilities(self, crop: np.ndarray) -> np.ndarray:
        """The seven class probabilities of a CROP_PX crop, averaged over four of its turns and flips (a die's
        value does not depend on them; averaging lowers the confidence where the network is unsure). On byler-d6's
        unread dice four views give as many values as all eight, with no misread more, at half the time (4.5 ms a
        die on one thread); one view misreads."""
        return self._forward(_views(crop)).mean(axis=0)

    def _forward(self, views: np.ndarray) -> np.ndarray:
        self._net.setInput(np.ascontiguousarray(normalise(views).transpose(0, 3, 1, 2)))
        return self._net.forward()


def _aligned(crop: np.ndarray) -> np.ndarray | None:
    """The crop with each channel whose pips stand out the other way round (ANTI_CORRELATED) inverted, or None when
    every channel shows them one way."""
    face = _middle(crop).reshape(-1, 3).astype(np.float32)
    face -= face.mean(axis=0)
    spread = face.std(axis=0)
    lead = int(np.argmax(spread))
    correlation = (face * face[:, lead:lead + 1]).mean(axis=0) / (spread * spread[lead] + 1e-6)
    turned = np.flatnonzero(correlation < ANTI_CORRELATED)
    if not len(turned):
        return None
    aligned = crop.copy()
    aligned[:, :, turned] = 255 - crop[:, :, turned]
    return aligned


def _views(crop: np.ndarray) -> np.ndarray:
    """The crop and three of its turns and flips (DieNet.probabilities)."""
    mirror = crop[:, ::-1]
    return np.stack([crop, np.rot90(crop, 2), np.rot90(mirror, 1), np.rot90(mirror, 3)])


def network_crop(frame_bgr: np.ndarray, center: tuple[float, float], side: float) -> np.ndarray:
    """The network's input: a square of `side` input pixels centred on `center`, resampled to CROP_PX (edges
    replicated). Unlike faces.die_crop's, its size is fixed."""
    scale = CROP_PX / side
    shift = CROP_PX / 2 - np.asarray(center, np.float64) * scale
    warp = np.float32([[scale, 0, shift[0]], [0, scale, shift[1]]])
    return cv2.warpAffine(frame_bgr, warp, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def normalise(crops: np.ndarray) -> np.ndarray:
    """Each crop's channels to zero mean and about unit spread (the training's and the reader's alike), so that
    exposure and the dice's colours carry no weight. The 8 keeps a flat crop's noise from being blown up."""
    crops = crops.astype(np.float32)
    mean = crops.mean(axis=(1, 2), keepdims=True)
    spread = crops.std(axis=(1, 2), keepdims=True) + 8.0
    return (crops - mean) / spread


def _middle(crop: np.ndarray) -> np.ndarray:
    """The part of a crop where the die's face lies."""
    margin = int(round(CROP_PX * (1 - 1 / CROP_PER_FACE) / 2))
    return crop[margin:CROP_PX - margin, margin:CROP_PX - margin]


@lru_cache(maxsize=None)
def _load(path: str):
    """The network for OpenCV's dnn module, on its classic engine: OpenCV 5's new graph engine takes half as long
    again on one thread (0.74 against 0.50 ms a view), with the same probabilities to 1e-12. The convolutions' inputs
    are padded by Pad nodes of their own, so that the classic engine runs every one by Winograd's method
    (training/die_net.py's `to_onnx`)."""
    return cv2.dnn.readNetFromONNX(path, engine=cv2.dnn.ENGINE_CLASSIC)
