"""A die much larger than the frame's others, read again at its own scale.

The reader works at one scale per frame, set by the frame's typical die (pips.DIE_PX across), and judges every pip
and face by sizes that are fractions of it. A die far larger than the others is read at the wrong scale: among dice
of 36 px, a die of 52-72 px showed its 2 as two 1s, its 4 as two 2s, its 6 as one or two 3s (its columns) and its 5
as a 4 (bench_reader_synthetic --unlike: 33 of 160 such dice read wrong, 62 right). Each blob at least `OFF_SCALE`
times the frame's die size that has one die's shape (find_dice.die_shaped_blobs) is cropped, brought to DIE_PX and
read on its own; the one face read there replaces the frame's faces made of its pips, unless those are better
read as several dice (`_replaces`). Such a blob may also be a square block of touching dice, or an L of three:
read at the block's scale their pips make one large face (four 1s a 4, or a 5 with the dark spot where the dice's
corners meet), and the frame's reading stands then.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .face_judge import FaceFound
from .pips import DIE_PX, find_pips
from .second_look import crop_around, one_face_in

OFF_SCALE = 1.3
"""A blob this many times the frame's die size across is read at its own scale, when its face read there is this
many times the frame's faces too. The dice of a byler-d6 photo differ 1.4 times at most in size, and the frame's
scale reads them (its checks allow pip spacings 0.6-1.6 times the frame's); rendered dice 1.45 times the others'
size are read wrong at it."""
ON_FACE = 0.5
"""The frame's faces centred within this many face sizes of the face read at its own scale are made of its pips (a
face's pips lie within 0.38 of its size from its centre)."""
BLOCK_FACES = 3
"""The frame's faces on a large face, this many or more, are a block of touching dice: a large die read at the
frame's scale showed one or two faces (its columns, its sides, its corners as 1s), rarely three."""
ALIKE_SIZE = 1.2
"""A face of two pips or more this close in size to the frame's typical face, and of pips this close to its pips',
is a die of the frame's size."""


def at_own_scale(work: np.ndarray, faces: list[FaceFound], blobs: list[tuple[tuple[int, int, int, int], float]],
                 tray_step, min_strength: float, polarity: str, min_contrast: float,
                 threshold: float) -> list[FaceFound]:
    """`faces` (found in the working frame `work`, where the frame's die is DIE_PX across) with each of `blobs`
    (box x0, y0, x1, y1 and size across, working pixels: blobs of one die's shape, OFF_SCALE times DIE_PX at least)
    read at its own scale where that reading replaces the frame's (`_replaces`); the other arguments as for
    pips.find_pips and pip_faces.dice_from_pips."""
    read = [face for face in faces if face.value is not None and face.pips >= 2]
    typical = (float(np.median([face.size for face in read])), float(np.median([face.pip_radius for face in read]))) \
        if read else None
    for box, size in blobs:
        found = _read(work, box, size, tray_step, min_strength, polarity, min_contrast, threshold)
        if found is None:
            continue
        on_face = [face for face in faces if math.dist(face.center, found.center) < ON_FACE * found.size]
        if _replaces(found, on_face, typical):
            faces = [face for face in faces if face not in on_face] + [found]
    return faces


def _replaces(found: FaceFound, on_face: list[FaceFound], typical: tuple[float, float] | None) -> bool:
    """Whether `found`, read at a blob's own scale, replaces the frame's faces made of its pips (`on_face`, read or
    not; `typical` the size of the frame's faces of two pips or more, and of their pips): when they hold no more pips
    than it, are fewer than BLOCK_FACES, and it is a large face (OFF_SCALE: a face of the frame's size is a die of a
    block); when it holds more pips than they do, also when none of them is a face of two pips or more of the frame's
    size, and of pips of its size (a 4 of a block's die and two pips of its neighbours make a large 6; but a large
    3's or 5's centre and corner pips are a 2 of the frame's size, and a large 6's column a 3, of pips 1.4-2 times
    the frame's: with pips found both ways, the large die's other faces were no more than those, bench_reader_synthetic
    --unlike)."""
    pips = sum(face.pips for face in on_face)
    if found.pips < pips or len(on_face) >= BLOCK_FACES:
        return False
    if typical is None:
        return True
    size, pip_radius = typical
    if found.size < OFF_SCALE * size:
        return False
    return found.pips == pips or not any(face.pips >= 2 and _alike(face.size, size)
                                         and _alike(face.pip_radius, pip_radius) for face in on_face)


def _alike(value: float, typical: float) -> bool:
    """Whether a size is within ALIKE_SIZE of the typical one, either way."""
    return 1 / ALIKE_SIZE <= value / typical <= ALIKE_SIZE


def _read(work: np.ndarray, box: tuple[int, int, int, int], size: float, tray_step, min_strength: float,
          polarity: str, min_contrast: float, threshold: float) -> FaceFound | None:
    """The one face of two pips or more read in `box` (working pixels) with the crop around it scaled so that
    `size` is DIE_PX, in working pixels (second_look.one_face_in); None when no such face or several are read there.
    A 1 is not taken: in a frame sized wrong (a close-up sized by its pips), a large 1 read there kept the frame from
    being read again as one of large dice (reader._large_read), which reads the whole frame at the right size."""
    factor = DIE_PX / size
    crop, origin, inner = crop_around(work, box, size)
    crop = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    inner = tuple(factor * v for v in inner)
    return one_face_in(crop, find_pips(crop, DIE_PX, min_strength, polarity), origin, factor, inner, tray_step,
                       min_contrast, threshold)
