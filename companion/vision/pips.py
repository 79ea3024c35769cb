"""Pip candidates in a whole frame.

The frame is first brought to a scale where a die is about `DIE_PX` across (reader.py), so every size below is a
fraction of a die. A pip is a small blob darker ("dark") or lighter ("light") than the face around it in some colour
channel: black pips on any body are dark in all three, white pips light where the body is dim, red pips on cream
dark in blue and green, red pips on a blue die light in red (and dark in blue: such a pip is found twice, once per
polarity, and each face is made of pips of one polarity). The response is the black-hat (top-hat) of each channel
with a kernel a little wider than a pip, the strongest channel's; a blob is kept when it passes half the strongest
response within a die's reach (pips of one die stand out alike) and has a pip's size and roundness. Close pips
whose blurred rims merge at that level are parted at a higher one. A die whose pips are lighter than its body in
one channel and darker in another (yellow on blue) merges its pips with the body between them in both responses;
there each channel is looked at on its own (`_both_ways`).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

DIE_PX = 40
"""A die's size across in the working frame: its pips are then 4-8 px, enough to keep them apart."""
KERNEL = 0.3
"""Black-hat / top-hat kernel side, over the die size: wider than a pip, narrower than a face."""
PIP_DIAMETER = (0.09, 0.34)
"""A pip's diameter over the die size, over common dice (a 1 is often larger)."""
NOISE = 3.0
"""A pip stands out this many times more than the frame's median response (the sensor noise and the tray's grain,
which cover most of it) as well as by the least strength asked for: in a noisy frame the grain of a tray wall or
cloth stands out like pips at that strength."""
LEVEL = 0.5
"""A pip is where the response passes this fraction of the strongest one within a die's reach (the local peak)."""
PARTING_LEVEL = 0.7
"""Pips merged at LEVEL are parted at this fraction of the local peak (over the whole frame at once: blobs that
look merged are many on a patterned tray wall), where their blobs are..."""
PARTED_RADIUS = 1.2
"""...this much smaller than at half the peak (the median over the development photos' single pips)."""
FURTHER_PARTING = 0.8
"""A part still too long at PARTING_LEVEL is parted once more at this fraction (large pips set close, as a 6's
column on some small dice, merge at PARTING_LEVEL too)."""
MERGED_ELONGATION = 1.8
"""A pip blob this long may be two pips merged: it is parted when it parts in two or more."""
THREE_MERGED = 3.0
"""A pip blob longer than this that no level parts is three pips merged in a line, not two (`parted_by_shape`): by
their second moments, two touching pips measure 2.2 and two a third of their width apart 2.8, three touching 3.4."""
MERGED_PIPS = 3
MERGED_REACH = 0.65
"""A blob larger than MERGED_PIPS of the largest pips, or longer than MERGED_REACH of a die, is not pips merged (a
shadow, a die's dark rim): a face's pips span 0.55 of a die, and 0.65 of one a fifth larger than the frame's
typical die (a large 5's middle row, set diagonally)."""

MOST_PIPS = 1500
"""A frame showing more pip-like blobs of one polarity than this shows texture, not dice (salt-and-pepper noise, a
speckled cloth, a checkerboard): none of them is taken for a pip. 25 dice show 150 pips, the development photos 150
of one polarity at most, and a coarse cloth rendered around dice of 30 px 1,440 (bench_reader_synthetic --texture
16). Faces are proposed between every two like pips: salt-and-pepper specks at a calibrated die of 8 px made 17,000
pips of a 266x750 frame (4 GB and 17 s) and 30,000 of a 496x809 one (16 GB and 78 s). Under the cap such specks
still take up to 290 MB and 6 s (reader.md)."""

PLATEAU_SIDE = (0.5, 2.6)
"""A blob that is no pip, this many die sizes long, may be pips merged with the body between them
(`_in_each_channel`; whether or not it parts at PARTING_LEVEL, into pips or into pieces of that lattice): one die's
face, or two touching dice's faces in one blob (a row of two, at most 2.2 die sizes long whatever its turn). Up to
1.3 of a die, of two touching blue dice with yellow pips a 6 beside a 5 was missed (bench_reader_synthetic --pair:
871 of 960 dice right and 4 wrong, then 891 and 1; 2.0 and 3.2 read alike)..."""
PLATEAU_FILL = 0.15
"""...and fills this much of its box at least (a 3 along the diagonal fills 0.2, a thin line less)..."""
PLATEAU_BOX = 1.2
"""...looked at in a square around it this many die sizes across at least (its die's whole face)..."""
PLATEAU_COVER = 0.4
"""...and in a channel covering less of its box than this, the pips stand out alone."""


POLARITY = ("dark", "light")
"""The pips' polarities by name, in the order of their index (Pips.polarity)."""


@dataclass(frozen=True)
class Pips:
    """Pip candidates of one frame, as parallel arrays (working pixels)."""

    xy: np.ndarray
    """(n, 2) centres."""
    radius: np.ndarray
    polarity: np.ndarray
    """0 dark, 1 light: the index of its name in POLARITY."""
    strength: np.ndarray
    """Peak response: how far the pip stands out from its face, in grey levels."""
    colour: np.ndarray
    """(n, 3) BGR colour at the centre."""
    shape: np.ndarray
    """(n, 3) second moments (xx, yy, xy) over their sum: (0.5, 0.5, 0) for a round pip; pips of one face, on one
    plane, have alike shapes, and a glint or a side face's pip seen at a slant does not."""
    responses: tuple[np.ndarray, np.ndarray]
    """The dark and light response maps (the strongest channel's)."""

    @functools.cached_property
    def elongation(self) -> np.ndarray:
        """Each pip's long axis over its short axis (1 for a round pip seen straight on), worked out once: the judge
        asks for it thousands of times a frame."""
        return _elongation(self.shape)

    def __len__(self) -> int:
        return len(self.xy)

    def coloured_from(self, image: np.ndarray) -> Pips:
        """These pips with their colours taken at their centres in `image` (BGR), another image of the frame than
        the one they were found in (its chroma, second_look._in_chroma): the judge compares them with the body's."""
        centre = _pixels(self.xy, image.shape)
        return replace(self, colour=image[centre[:, 1], centre[:, 0]].astype(np.float32))


def find_pips(image: np.ndarray, die_px: float, min_strength: float, polarity: str = "auto",
              level: float = LEVEL) -> Pips:
    """Every pip-like blob in `image` (BGR, a die about `die_px` across) that passes `level` of the strongest
    response within a die's reach."""
    side = _odd(KERNEL * die_px)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    reach = cv2.getStructuringElement(cv2.MORPH_RECT, (_odd(0.8 * die_px),) * 2)
    found, responses, per_channel, plateaus, leasts = [], [], {}, [], []
    for k, (name, op) in enumerate(zip(POLARITY, (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT))):
        if polarity not in ("auto", name):
            responses.append(np.zeros(image.shape[:2], np.uint8))
            continue
        channels = cv2.morphologyEx(image, op, kernel)
        response = largest_channel(channels)
        responses.append(response)
        per_channel[k] = channels
        least = max(min_strength, NOISE * percentile_level(response[::4, ::4], 50))
        *pips, boxes = _blobs(response, cv2.dilate(response, reach), die_px, least, level)
        if len(pips[0]) > MOST_PIPS:
            pips, boxes = [part[:0] for part in pips], []
        found.append((*pips, np.full(len(pips[0]), k, np.int8)))
        plateaus.append(boxes)
        leasts.append(least)
    if len(plateaus) == 2:
        found += _both_ways(per_channel, plateaus, die_px, leasts, [f[0] for f in found], [f[1] for f in found])
    xy, radius, strength, shape, pol = (np.concatenate(parts) for parts in zip(*found))
    centre = _pixels(xy, image.shape)
    return Pips(xy, radius, pol, strength, image[centre[:, 1], centre[:, 0]].astype(np.float32), shape,
                tuple(responses))


def largest_channel(image: np.ndarray) -> np.ndarray:
    """Per pixel, the largest of a BGR image's three channels. Its rows read as one row of channels (b, g, r, b,
    ...), where a dilation three wide takes at each green the largest of its pixel's three: under half the time of
    splitting the channels and taking their maximum (0.5 against 1.3 ms for a byler-d6 working frame)."""
    height, width = image.shape[:2]
    row_max = cv2.dilate(image.reshape(height, 3 * width), np.ones((1, 3), np.uint8))
    return np.ascontiguousarray(row_max[:, 1::3])


def percentile_level(image: np.ndarray, q: float) -> float:
    """np.percentile of a uint8 image (its linear interpolation, to the bit), read off its histogram: a fraction of
    the time (the median of a byler-d6 working frame's sample in 0.08 ms against np.median's 0.28; a frame's 99th
    percentile in 0.03 against 0.15)."""
    count = np.cumsum(np.bincount(image.ravel(), minlength=256))
    virtual = q / 100 * (image.size - 1)
    below = math.floor(virtual)
    gamma = virtual - below
    a, b = (float(np.searchsorted(count, k, side="right")) for k in (below, min(below + 1, image.size - 1)))
    return b - (b - a) * (1 - gamma) if gamma >= 0.5 else a + (b - a) * gamma


def _both_ways(channels: dict[int, np.ndarray], plateaus: list[list], die_px: float, least: list[float],
               xy_found: list[np.ndarray], radius_found: list[np.ndarray]) -> list:
    """The pips of a die whose pips are lighter than its body in one channel and darker in another, which merge
    with its body into one blob in both polarities (`_in_each_channel`): where a dark and a light such blob
    overlap, the pips found in each channel on its own that the other polarity finds too (as it finds every pip
    of such a die) and that were not found already (`xy_found`, `radius_found`: the pips of each polarity). As
    (centres, radii, strengths, shapes, polarities), per polarity."""
    def centres(boxes):
        return np.array([((box[1].start + box[1].stop) / 2, (box[0].start + box[0].stop) / 2) for box in boxes])

    if not all(plateaus):
        return []
    overlap = np.abs(centres(plateaus[0])[:, None] - centres(plateaus[1])[None]).max(axis=2) < 0.5 * die_px
    found = []
    for k in (0, 1):
        boxes = [box for box, kept in zip(plateaus[k], overlap.any(axis=1 - k)) if kept]
        if not boxes:
            return []
        xy, radius, strength, shape = _in_each_channel(channels[k], boxes, die_px, least[k])
        first = ~np.triu(_close(xy, radius, xy, radius), 1).any(axis=0)  # boxes of one die overlap
        found.append((xy[first], radius[first], strength[first], shape[first]))
    out = []
    for k in (0, 1):
        xy, radius, strength, shape = found[k]
        other = (np.concatenate([xy_found[1 - k], found[1 - k][0]]),
                 np.concatenate([radius_found[1 - k], found[1 - k][1]]))
        both = _near(xy, radius, *other) & ~_near(xy, radius, xy_found[k], radius_found[k])
        out.append((xy[both], radius[both], strength[both], shape[both], np.full(int(both.sum()), k, np.int8)))
    return out


def _near(xy: np.ndarray, radius: np.ndarray, other: np.ndarray, other_radius: np.ndarray) -> np.ndarray:
    """Which pips (xy, radius) lie within the larger radius of one of the `other` pips."""
    return _close(xy, radius, other, other_radius).any(axis=1)


def _close(xy: np.ndarray, radius: np.ndarray, other: np.ndarray, other_radius: np.ndarray) -> np.ndarray:
    """(n, m): whether pip i (xy, radius) and pip j of `other` lie within the larger of their radii."""
    distance = np.hypot(*(xy[:, None] - other[None]).transpose(2, 0, 1)).reshape(len(xy), len(other))
    return distance <= np.maximum(radius[:, None], other_radius[None])


def _in_each_channel(channels: np.ndarray, boxes: list[tuple[slice, slice]], die_px: float, min_strength: float):
    """The pips in blobs of the strongest channel's response that are no pips (their `boxes`), looked for in each
    channel on its own, as (centres, radii, strengths, shapes) of every box in turn. A die whose pips are lighter
    than its body in one channel and darker in another (yellow pips on a blue die: lighter in red, darker in blue)
    shows, in the channel where they are darker, its body between close pips as lighter than they are: in the
    strongest channel's response the pips merge with it into one blob. In a channel where the pips stand out alone
    they cover less of the blob's box; the channel showing most of them is taken (the gap between two pips may look
    like one in another channel)."""
    tiles, owners = [], []
    for k, box in enumerate(boxes):
        responses = channels[box]
        binary = responses > np.maximum(0.5 * responses.max(axis=(0, 1)), min_strength)
        # a channel covering much of the box shows the body between the pips, or no pips at all
        for c in np.flatnonzero(binary.mean(axis=(0, 1)) <= PLATEAU_COVER):
            tiles.append((binary[:, :, c], responses[:, :, c]))
            owners.append(k)
    best = [(np.zeros((0, 2)), np.zeros(0), np.zeros(0, np.float32), np.zeros((0, 3), np.float32))] * len(boxes)
    for k, pips in zip(owners, _components_of_tiles(tiles, die_px, min_strength)):
        if (len(pips[0]), pips[2].sum()) > (len(best[k][0]), best[k][2].sum()):
            best[k] = pips
    in_frame = [(xy + (box[1].start, box[0].start), radius, strength, shape)
                for box, (xy, radius, strength, shape) in zip(boxes, best)]
    return tuple(np.concatenate(part) for part in zip(*in_frame))


def _components_of_tiles(tiles: list[tuple[np.ndarray, np.ndarray]], die_px: float, min_strength: float) -> list:
    """The pips (centres, radii, peak responses, shapes) of `_components` in each of `tiles` (binary, response),
    in the tile's own pixels. The tiles are labelled together, side by side a pixel apart: labelled one by one, in
    calls that were mostly NumPy's own overhead, `_both_ways` took 0.61 ms of a matteo-webcam frame (the middle half
    of the photos), and 0.43 so. Each tile starts at an even column, as `_Mosaic`'s boxes do (OpenCV labels 2x2
    blocks row by row); a tile's blobs come in the order labelling it alone gives them (tests/vision/test_pips.py)."""
    if not tiles:
        return []
    lefts = np.zeros(len(tiles), np.intp)
    for k in range(1, len(tiles)):
        right = lefts[k - 1] + tiles[k - 1][0].shape[1] + 1
        lefts[k] = right + right % 2
    height = max(binary.shape[0] for binary, _ in tiles)
    binaries = np.zeros((height, lefts[-1] + tiles[-1][0].shape[1]), np.uint8)
    responses = np.zeros_like(binaries)
    for left, (binary, response) in zip(lefts, tiles):
        h, w = binary.shape
        binaries[:h, left:left + w], responses[:h, left:left + w] = binary, response
    xy, radius, strength, shape, _ = _components(binaries, responses, die_px, min_strength)[2]
    tile = np.searchsorted(lefts, xy[:, 0], side="right") - 1
    xy[:, 0] -= lefts[tile]  # into each tile's own pixels (xy is _components' own copy)
    return [(xy[tile == k], radius[tile == k], strength[tile == k], shape[tile == k]) for k in range(len(tiles))]


def _blobs(response: np.ndarray, local_peak: np.ndarray, die_px: float, min_strength: float, level: float):
    """Round blobs of pip size where the response beats `level` of its local peak and `min_strength`, as (centres,
    radii, peak responses, shapes), and the boxes of blobs as large as a die's face (`_in_each_channel`). Where
    close pips merge into one blob at that level (big pips, or small ones close together), the blob is too large,
    not round or long: the blobs inside it above a higher level part them, when there are two or more. At that
    higher level itself (second_look) nothing is parted, and each blob is a pip's core, smaller than the pip by
    PARTED_RADIUS as parted pips are: the ring the judge takes a pip's body colour on must lie past the pip."""
    labels, stats, pips, merged = _components(_above(response, local_peak, level, min_strength), response, die_px,
                                              min_strength)
    if level >= PARTING_LEVEL:
        xy, radius, strength, shape = pips[0], pips[1] * PARTED_RADIUS, pips[2], pips[3]
    else:
        xy, radius, strength, shape, _ = _parted(response, local_peak, die_px, min_strength, labels, stats, pips,
                                                 merged)
    x, y, w, h, area = (stats[1:, i] for i in range(5))
    extent = np.maximum(w, h)
    face_sized = (extent >= PLATEAU_SIDE[0] * die_px) & (extent <= PLATEAU_SIDE[1] * die_px) \
        & (area >= PLATEAU_FILL * w * h)
    half = np.maximum(np.maximum(w, h) / 2, PLATEAU_BOX * die_px / 2)[face_sized]  # a row of pips is no face
    cx, cy = (x + w / 2)[face_sized], (y + h / 2)[face_sized]
    plateaus = [(slice(max(0, int(b - r)), int(b + r) + 1), slice(max(0, int(a - r)), int(a + r) + 1))
                for a, b, r in zip(cx, cy, half)]
    return xy, radius, strength, shape, plateaus


def _parted(response: np.ndarray, local_peak: np.ndarray, die_px: float, min_strength: float, labels: np.ndarray,
            stats: np.ndarray, pips: tuple, merged: np.ndarray) -> tuple:
    """The pips (centres, radii, peak responses, shapes, labels) of `_components`, with each blob that may be pips
    merged (`merged`, or a pip too long) replaced by its parts above PARTING_LEVEL, when it parts in two or more; a
    part still too long is parted so at FURTHER_PARTING. A blob's parts lie inside it (what passes a higher level
    passes the lower one), so they are looked for in a mosaic of the blobs (`_Mosaic`), not in the whole frame."""
    long = _elongation(pips[3]) > MERGED_ELONGATION
    mergers = np.zeros(len(stats), bool)
    mergers[np.concatenate([merged, pips[4][long]])] = True
    if not mergers.any():
        return pips
    mosaic = _Mosaic(labels, stats, np.flatnonzero(mergers), response, local_peak)
    part_labels, part_stats, parts = mosaic.components(PARTING_LEVEL, die_px, min_strength)
    parted, parts = _parts_of(mergers, _at(labels, mosaic.to_frame(parts[0])), parts)
    if len(parts[0]):
        further = np.zeros(len(part_stats), bool)
        further[parts[4][_elongation(parts[3]) > MERGED_ELONGATION]] = True
        pieces = mosaic.components(FURTHER_PARTING, die_px, min_strength)[2]
        parts = _replaced(parts, *_parts_of(further, _at(part_labels, pieces[0]), pieces))
    return _replaced(pips, parted, (mosaic.to_frame(parts[0]),) + parts[1:])


def parted_by_shape(pips: Pips) -> Pips:
    """The pips with each one longer than MERGED_ELONGATION taken for two pips merged along its long axis (three
    when longer than THREE_MERGED), where no level parts them: close coloured pips whose blobs merge with no dip
    between them, as in the chroma of a JPEG, which is stored at half the resolution. A blob is taken for an
    ellipse of its area and elongation, and its parts for round pips as wide as it, spaced to spread as far along
    its long axis (two at +-s/2, s^2 = a^2 - b^2; three at 0 and +-s, s^2 = 3/8 (a^2 - b^2), for semi-axes a, b)."""
    elongation = pips.elongation
    long = np.flatnonzero(elongation > MERGED_ELONGATION)
    if not len(long):
        return pips
    steps = [math.sqrt(3 / 8) * np.array([-1.0, 0.0, 1.0]) if elongation[i] > THREE_MERGED else np.array([-0.5, 0.5])
             for i in long]
    parent = np.repeat(long, [len(step) for step in steps])  # each part's blob
    xx, yy, xy = pips.shape[parent].T.astype(np.float64)
    angle = 0.5 * np.arctan2(2 * xy, xx - yy)
    root = np.sqrt(elongation[parent].astype(np.float64))
    semi_long, semi_short = pips.radius[parent] * root, pips.radius[parent] / root
    offset = np.concatenate(steps) * np.sqrt(semi_long ** 2 - semi_short ** 2)
    parts_xy = pips.xy[parent] + offset[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
    whole = np.setdiff1d(np.arange(len(pips)), long)
    taken = np.concatenate([whole, parent])  # each pip's blob: the whole ones, then the parts
    round_ = np.tile(np.array([0.5, 0.5, 0.0], pips.shape.dtype), (len(parent), 1))
    return Pips(np.concatenate([pips.xy[whole], parts_xy]), np.concatenate([pips.radius[whole], semi_short]),
                pips.polarity[taken], pips.strength[taken], pips.colour[taken],
                np.concatenate([pips.shape[whole], round_]), pips.responses)


def _parts_of(mergers: np.ndarray, on: np.ndarray, parts: tuple) -> tuple[np.ndarray, tuple]:
    """Of `parts` (centres, radii, peak responses, shapes, labels) lying on the blobs labelled `on`, those on a
    merger (`mergers`, per label) that parts in two or more, with the labels of those mergers."""
    parted = mergers[on] & (np.bincount(on, minlength=len(mergers))[on] >= 2)
    xy, radius, strength, shape, own = (part[parted] for part in parts)
    return on[parted], (xy, radius * PARTED_RADIUS, strength, shape, own)


def _replaced(blobs: tuple, mergers: np.ndarray, parts: tuple) -> tuple:
    """`blobs` (as `parts`) but those labelled `mergers`, and `parts` after them."""
    whole = ~np.isin(blobs[4], mergers)
    return tuple(np.concatenate([a[whole], b]) for a, b in zip(blobs, parts))


class _Mosaic:
    """Some blobs of a labelled frame side by side in one small image, each in its own box, with the other blobs in
    those boxes masked away: a few dozen merged blobs are parted there at a fraction of the cost of labelling the
    whole frame again (about 4 ms of the 14 ms byler-d6's pips took). The parts found are the whole frame's: each
    box is moved by an even number of pixels, so their centres round to the same pixels (NumPy rounds halves to
    even)."""

    def __init__(self, labels: np.ndarray, stats: np.ndarray, chosen: np.ndarray, response: np.ndarray,
                 local_peak: np.ndarray):
        x, y, w, h = (stats[chosen, i] for i in range(4))
        left, top = x % 2, y % 2
        for k in range(1, len(chosen)):
            left[k] = left[k - 1] + w[k - 1] + 1  # a pixel apart: blobs of two boxes never touch
            left[k] += (left[k] - x[k]) % 2
        self.left = left
        self.shift = np.stack([x - left, y - top], axis=1).astype(np.float64)
        shape = (int((top + h).max()), int(left[-1] + w[-1]))
        self.response, self.local_peak, self.mask = (np.zeros(shape, np.uint8) for _ in range(3))
        for label, *box in zip(chosen, x, y, w, h, left, top):
            x0, y0, width, height, x1, y1 = box
            frame = (slice(y0, y0 + height), slice(x0, x0 + width))
            tile = (slice(y1, y1 + height), slice(x1, x1 + width))
            self.response[tile], self.local_peak[tile] = response[frame], local_peak[frame]
            self.mask[tile] = (labels[frame] == label).view(np.uint8) * 255

    def components(self, level: float, die_px: float, min_strength: float):
        """`_components` of the blobs' pixels above `level` of their local peak (in mosaic pixels), the pips in the
        order labelling the whole frame gives them (the faces judged alike are taken in that order)."""
        above = cv2.bitwise_and(_above(self.response, self.local_peak, level, min_strength), self.mask)
        labels, stats, pips, _ = _components(above, self.response, die_px, min_strength)
        order = np.argsort(self._frame_order(above, labels)[pips[4]])
        return labels, stats, tuple(part[order] for part in pips)

    def _frame_order(self, above: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Per label, its blob's place in the whole frame's labelling: OpenCV labels 2x2 blocks of pixels row by
        row, so a blob's place is that of the first block it reaches."""
        points = cv2.findNonZero(above)
        first = np.full(labels.max() + 1, np.iinfo(np.int64).max)
        if points is not None:
            points = points.reshape(-1, 2)
            frame = (self.to_frame(points.astype(np.float64)) // 2).astype(np.int64)
            np.minimum.at(first, labels[points[:, 1], points[:, 0]], (frame[:, 1] << 32) + frame[:, 0])
        return first

    def to_frame(self, xy: np.ndarray) -> np.ndarray:
        """Mosaic points (n, 2) in the frame's pixels."""
        tile = np.searchsorted(self.left, xy[:, 0], side="right") - 1
        return xy + self.shift[tile]


def _above(response: np.ndarray, local_peak: np.ndarray, level: float, min_strength: float) -> np.ndarray:
    """Where `response` beats `level` of its local peak and `min_strength` (a mask). OpenCV takes an image of one
    pixel (a mosaic of one blob of a pixel, `_Mosaic`, as a frame a few pixels across makes) for a scalar, and then
    refuses to compare it: there the strength is an image too, rounded as OpenCV rounds a scalar."""
    least = np.full_like(response, np.clip(np.rint(min_strength), 0, 255)) if response.size == 1 else min_strength
    return cv2.compare(response, cv2.max(cv2.convertScaleAbs(local_peak, alpha=level), least), cv2.CMP_GT)


def _components(binary: np.ndarray, response: np.ndarray, die_px: float, min_strength: float):
    """The connected blobs of `binary`: their label image and stats, the blobs that are pips as (centres, radii,
    peak responses, shapes, labels), and the labels of blobs that may be pips merged (too large or not round)."""
    # 16-bit labels are three times as fast, and enough while there are fewer pixels than labels
    label_type = cv2.CV_16U if cv2.countNonZero(binary) < 65535 else cv2.CV_32S
    count, labels = cv2.connectedComponents(binary, connectivity=8, ltype=label_type)
    stats, centroids, shapes = _measure(binary, labels, count)
    x, y, w, h, area = (stats[1:, i] for i in range(5))
    lo, hi = (math.pi / 4 * (f * die_px) ** 2 for f in PIP_DIAMETER)
    round_ = (np.maximum(w, h) <= 2.0 * np.minimum(w, h)) & (area >= 0.4 * w * h)
    keep = (area >= 0.5 * lo) & (area <= hi) & round_
    merged = np.flatnonzero(((area > hi) | ((area >= lo) & ~round_)) & (area <= MERGED_PIPS * hi)
                            & (np.maximum(w, h) <= MERGED_REACH * die_px)) + 1
    centres = centroids[1:][keep]
    pixels = _pixels(centres, response.shape)
    peaks = response[pixels[:, 1], pixels[:, 0]]
    strong = peaks >= min_strength
    pips = (centres[strong], np.sqrt(area[keep][strong] / math.pi), peaks[strong].astype(np.float32),
            shapes[1:][keep][strong], np.flatnonzero(keep)[strong] + 1)
    return labels, stats, pips, merged


def _measure(binary: np.ndarray, labels: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per label of `labels`, its stats row [x, y, w, h, area] and centroid as cv2.connectedComponentsWithStats
    gives them, and its second moments (xx, yy, xy) over their sum (a pixel's own extent included). Label 0, the
    background, is left empty. Measured on the blobs' own pixels, which are few: OpenCV's stats pass over every
    pixel took twice as long as the labelling itself."""
    stats, centroids, shapes = np.zeros((count, 5), np.int32), np.zeros((count, 2)), np.zeros((count, 3), np.float32)
    points = cv2.findNonZero(binary)
    if points is None:
        return stats, centroids, shapes
    points = points.reshape(-1, 2)
    label = labels[points[:, 1], points[:, 0]]
    order = np.argsort(label, kind="stable")
    starts = np.searchsorted(label[order], np.arange(1, count))
    ordered = points[order]
    low, high = np.minimum.reduceat(ordered, starts), np.maximum.reduceat(ordered, starts)
    stats[1:, :2], stats[1:, 2:4] = low, high - low + 1
    x, y = ordered[:, 0].astype(np.int64), ordered[:, 1].astype(np.int64)
    # the moments' sums are of whole numbers, exact in any order: one call sums them all
    sums = np.add.reduceat(np.column_stack([np.ones_like(x), x, y, x * x, y * y, x * y]), starts).astype(np.float64)
    n = sums[:, 0]
    stats[1:, 4] = n
    mx, my = sums[:, 1] / n, sums[:, 2] / n
    centroids[1:, 0], centroids[1:, 1] = mx, my
    xx, yy, xy = sums[:, 3] / n - mx * mx + 1 / 12, sums[:, 4] / n - my * my + 1 / 12, sums[:, 5] / n - mx * my
    shapes[1:] = np.column_stack([xx, yy, xy]) / (xx + yy)[:, None]
    return stats, centroids, shapes


def _elongation(shape: np.ndarray) -> np.ndarray:
    """Long axis over short axis of blobs with normalised second moments `shape` (n, 3)."""
    xx, yy, xy = shape.T
    spread = np.sqrt(((xx - yy) / 2) ** 2 + xy ** 2)
    return np.sqrt((0.5 + spread) / np.maximum(0.5 - spread, 1e-3))


def _at(image: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """The image's values at points (n, 2), rounded to pixels."""
    pixels = _pixels(xy, image.shape)
    return image[pixels[:, 1], pixels[:, 0]]


def _pixels(xy: np.ndarray, shape) -> np.ndarray:
    """Points (n, 2) rounded to pixels inside an image of `shape`, as integer (x, y)."""
    return np.clip(np.round(xy), 0, (shape[1] - 1, shape[0] - 1)).astype(np.intp)


def _odd(size: float) -> int:
    return max(3, int(round(size)) | 1)
