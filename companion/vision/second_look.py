"""A second look at each die lying alone that no face was read on.

A pip is found where the response passes half the strongest one within a die's reach (pips.find_pips). On a
translucent or marbled die a glint, the bevel or the body between close pips often passes that level too and joins
the pips into a blob too large to be a pip, or merged pips too long to be parted: the die shows fewer pips than it
has, and no face. Looked at again with only the strongest part of each blob kept (pips.PARTING_LEVEL of the local
peak, the level merged pips are parted at), its pips stand apart. The second look is taken only where the first read
nothing on a body of one die's size lying alone: elsewhere the higher level loses faint pips that the first look
found, and on touching dice it makes faces across them (a heap's parts are looked at so too, but a face read there
is taken only where die_net reads it alike: reader `_seen_again_in_heaps`). It needs two pips of one polarity on the
body at the first look, or one in its middle (a glint may join the others into one blob there; a single pip off the
middle is a speck of clutter more often, and a look costs 1-2 ms), and two at its own level: a crop with fewer can
show no face of two pips or more, so it is not judged. Its face is judged as any other (face_judge), in a crop of
the die, and replaces the first look's faces on that die only when it is the one face read there and no side face
beside a top face read (a die seen from an angle may show its side as a body of its own). A 1 is never taken from
it: at the higher level the other pips of a 2 or a 3 may fall away, and the first look judged every lone pip. Nor is
a face taken that the first look held back for like pips near it (`FaceFound.beyond`: a 3 of a 6's column), unless
it has more pips: the other column may fall under the higher level too; nor one with fewer pips than a face the
first look made there but doubted for one reason at most (`DOUBTED_ONCE`); nor one with no more pips than a face the
first look read on the same die (a die as light as the tray is found as a body only in part, off its read face's
centre: through a noisy sensor a white 6 was read at the first look, and a second look at that part read a 3 of a
column).

A third look takes the crop with its thin light streaks opened away (`GLINT_WIDTH`): a glint along a translucent
die's edge or across its face joins a light pip into one long blob at every level, and a pip, twice as wide as the
streak, survives the opening where the streak does not. It looks for light pips only: glints are light and join no
dark pip, and on a gold die with a dark pip the opening left the dark gaps between its glints as specks that made a
3 of a 1. Where both looks read a face, the one of more pips is taken, as the first look takes faces most pips
first: in a photo enlarged four times, the second look made a 3 of a dark 6's column and the third read the whole
6.

A fourth look takes the crop's chroma (each channel less the pixel's least): coloured pips on a grey, black or white
body stand out there, and a white glint does not stand out at all. A smoky die's red pips, joined by a glint along
its bevel at every level of the light response, stand apart there; close ones that a JPEG's half-resolution chroma
merged are parted by their blob's shape (pips.parted_by_shape). A face is read there only where every pip-like blob
on the body holds one of its pips (`_explains`): a 6 whose column merged into one bar shows a 3 of its other column.

A die lying alone that shows pips but that no look reads (glints through its pips) is still a die:
`unread_pips` tells such bodies, which the reader reports with value None, so that a game counts every die rolled.
"""
from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from .face_judge import DOUBT, FaceFound
from .pip_faces import SAME_DIE, dice_from_pips, top_faces
from .pips import DIE_PX, LEVEL, PARTING_LEVEL, PIP_DIAMETER, Pips, find_pips, parted_by_shape

MARGIN = 0.3
"""The crop reaches this many die sizes past the body's box: the pip response needs the face's surroundings."""
GLINT_WIDTH = 0.1
"""At the third look, light streaks narrower than this many die sizes are opened away: a translucent die's glint
along its edge or across its face, which joins a light pip into a blob no pip is found in. A pip is 0.15-0.25 die
across on common dice. byler-d6 read 1, 7 and 2 dice more with 3, 5 (this) and 7 px of the working frame."""
DOUBTED_ONCE = DOUBT
"""A face the first look made on a body, unread but this sure at least (one of the judge's doubts at a perfect fit),
shows how many pips the die has: a second look that makes a face of fewer there has lost some under its higher
level. A smoky 6 with its red pips turned green (bench_camera's turned hues), doubted for pips of unlike sizes, was
read as a 3 of one column; a 5 made of a 4 and a glint (two doubts, 0.07) is no such face, and the second look's 4
stands."""
FACE_REACH = 0.8
"""A face's pips lie within this many face sizes of its centre (`_explains`; 0.38 on a common die, more for a die
seen at a slant)."""
MIDDLE = 0.15
"""A body's middle, where its face lies, leaves out this much of its box's side on each side (the shadow)."""


def second_look(work: np.ndarray, pips: Pips, faces: list[FaceFound], bodies: list[tuple[int, int, int, int]],
                tray_step, min_strength: float, polarity: str, min_contrast: float,
                threshold: float) -> list[FaceFound]:
    """`faces` (made of `pips` in the working frame `work`) with a face read on each body box (x0, y0, x1, y1 in
    working pixels: dice lying alone) that none of them reads, where the second look reads one; the other
    arguments as for pips.find_pips and pip_faces.dice_from_pips."""
    for box in bodies:
        worth_a_look = _pips_on(pips, box) >= 2 or middle_pips(pips, box) > 0
        if not worth_a_look or any(face.value is not None and _inside(face.center, box) for face in faces):
            continue
        found = look_again(work, box, tray_step, min_strength, polarity, min_contrast, threshold)
        if found is None or _side_face(found, faces):
            continue
        first = [face for face in faces if math.dist(face.center, found.center) < SAME_DIE * found.size]
        if any(_stands(face, found) for face in first):
            continue
        faces = [face for face in faces if face not in first] + [found]
    return faces


def _stands(first: FaceFound, found: FaceFound) -> bool:
    """Whether a face the first look made on a die stands against `found`, a later look's face there: when the
    first look read it (its centre may lie off the body looked at) or held it for like pips near it (a larger face
    not made out: only a larger face explains them), unless `found` has more pips; when it doubted it once at most,
    unless `found` has as many (at its higher level, the later look lost some of the pips)."""
    if first.value is not None or first.beyond:
        return first.pips >= found.pips
    return first.pips > found.pips and first.confidence >= DOUBTED_ONCE


def _side_face(found: FaceFound, faces: list[FaceFound]) -> bool:
    """Whether a face the second look read is a side face of a die whose top face was read (pip_faces.top_faces)."""
    return not any(face is found for face in top_faces([face for face in faces if face.value is not None] + [found]))


def unread_pips(pips: Pips, faces: list[FaceFound], box: tuple[int, int, int, int]) -> int:
    """For a lone body's box (working pixels), the like pips in its middle (`middle_pips`) when no face lies on
    it, read or not, else 0. Two or more make a die that neither look read, to be reported unsure rather than left
    out; one may be a mark, or the tray's grain on a shadow, as well as a 1 whose face failed a check."""
    return 0 if any(_inside(face.center, box) for face in faces) else middle_pips(pips, box)


def middle_pips(pips: Pips, box: tuple[int, int, int, int]) -> int:
    """The most like pips (of one polarity) in a lone body's middle (MIDDLE; box in working pixels)."""
    x0, y0, x1, y1 = box
    dx, dy = MIDDLE * (x1 - x0), MIDDLE * (y1 - y0)
    return _pips_on(pips, (x0 + dx, y0 + dy, x1 - dx, y1 - dy))


def look_again(work: np.ndarray, box: tuple[int, int, int, int], tray_step, min_strength: float, polarity: str,
               min_contrast: float, threshold: float) -> FaceFound | None:
    """The face of two pips or more read in `box` with the strongest part of each pip, or with the thin glints
    opened away (`_without_glints`), or in the crop's chroma (`_in_chroma`), where a look reads one face only; of
    several, the first of most pips."""
    crop, origin, inner = crop_around(work, box, DIE_PX)

    def read_in(image: np.ndarray, pip_polarity: str, level: float) -> FaceFound | None:
        pips = find_pips(image, DIE_PX, min_strength, pip_polarity, level=level)
        if _pips_on(pips, inner) < 2:
            return None  # no face of two pips or more on the body: not worth judging
        return one_face_in(image, pips, origin, 1.0, inner, tray_step, min_contrast, threshold)

    found = [read_in(crop, polarity, PARTING_LEVEL)]
    if polarity != "dark":  # glints are light: they join light pips only
        found.append(read_in(_without_glints(crop), "light", LEVEL))
        found.append(_in_chroma(crop, origin, inner, tray_step, min_strength, min_contrast, threshold))
    found = [face for face in found if face is not None]
    return max(found, key=lambda face: face.pips) if found else None


def _in_chroma(crop: np.ndarray, origin: tuple[int, int], inner, tray_step, min_strength: float,
               min_contrast: float, threshold: float) -> FaceFound | None:
    """The face of coloured pips read in the crop's chroma (each channel less the pixel's least), where they stand
    out lighter than a grey, black or white body and a white glint does not stand out at all; pips merged there
    are parted by their shape (pips.parted_by_shape), and the face is read only where it explains every pip-like
    blob on the body (`_explains`). The arguments as for one_face_in."""
    chroma = crop - crop.min(axis=2, keepdims=True)
    pips = parted_by_shape(find_pips(chroma, DIE_PX, min_strength, "light"))
    if _pips_on(pips, inner) < 2:
        return None
    pips = pips.coloured_from(crop)
    face = one_face_in(crop, pips, origin, 1.0, inner, tray_step, min_contrast, threshold)
    if face is None or not _explains(face, pips, inner, origin):
        return None
    return face


def _explains(face: FaceFound, pips: Pips, inner, origin: tuple[int, int]) -> bool:
    """Whether every blob of the light response `pips` were found in (the chroma's) above half its peak in `inner`
    (crop pixels), as large as a small pip at least, holds a pip of `face` (read on the crop at `origin`): a face of
    one column of a 6 whose other column merged into one blob is not the die's face."""
    x0, y0, x1, y1 = inner
    response = pips.responses[1][y0:y1, x0:x1]
    count, labels, stats, _ = cv2.connectedComponentsWithStats((response > response.max() / 2).astype(np.uint8))
    centre = np.array(face.center) - origin - (x0, y0)
    xy = pips.xy - (x0, y0)
    on_face = np.round(xy[np.hypot(*(xy - centre).T) <= FACE_REACH * face.size]).astype(np.intp)
    on_face = on_face[np.all((on_face >= 0) & (on_face < (x1 - x0, y1 - y0)), axis=1)]
    held = np.zeros(count, bool)
    held[labels[on_face[:, 1], on_face[:, 0]]] = True
    small_pip = math.pi / 4 * (PIP_DIAMETER[0] * DIE_PX) ** 2
    return bool(np.all(held[1:] | (stats[1:, cv2.CC_STAT_AREA] < small_pip)))


def crop_around(work: np.ndarray, box: tuple[int, int, int, int], size: float):
    """The part of `work` around `box` (x0, y0, x1, y1) reaching MARGIN times `size` (a die's) past it, its top left
    (left, top) in `work`, and the box in the crop's pixels."""
    margin = int(MARGIN * size)
    x0, y0, x1, y1 = box
    left, top = max(0, x0 - margin), max(0, y0 - margin)
    return work[top:y1 + margin, left:x1 + margin], (left, top), (x0 - left, y0 - top, x1 - left, y1 - top)


def one_face_in(crop: np.ndarray, pips: Pips, origin: tuple[int, int], factor: float, inner, tray_step,
                min_contrast: float, threshold: float) -> FaceFound | None:
    """The one face of two pips or more that `pips` make in `crop`, a part of the working frame whose top left lies
    at `origin` there, scaled by `factor`, with its centre in `inner` (x0, y0, x1, y1, crop pixels); in working
    pixels, or None when no such face or several are read there (the other arguments as for dice_from_pips)."""
    shift = np.array(origin, float)
    faces, _ = dice_from_pips(pips, crop, lambda points, colours: tray_step(points / factor + shift, colours), DIE_PX,
                              min_contrast, threshold)
    read = [face for face in faces if face.value is not None and face.pips >= 2 and _inside(face.center, inner)]
    if len(read) != 1:
        return None
    face = read[0]
    return replace(face, center=(face.center[0] / factor + origin[0], face.center[1] / factor + origin[1]),
                   size=face.size / factor, pip_radius=face.pip_radius / factor)


def _without_glints(crop: np.ndarray) -> np.ndarray:
    """The crop with every light streak or speck narrower than GLINT_WIDTH opened away (a grey opening by a disc):
    pips, about twice as wide, keep their size and place."""
    side = max(3, int(round(GLINT_WIDTH * DIE_PX)) | 1)
    return cv2.morphologyEx(crop, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))


def _pips_on(pips: Pips, box: tuple[float, float, float, float]) -> int:
    """The most pips of one polarity in `box` (a face's pips are of one polarity)."""
    x0, y0, x1, y1 = box
    x, y = pips.xy[:, 0], pips.xy[:, 1]
    inside = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
    return int(np.bincount(pips.polarity[inside].astype(np.intp), minlength=2).max())


def _inside(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
