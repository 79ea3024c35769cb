"""Find the dice in a frame by their bodies: what differs from the tray, cut into die-sized regions.

The tray's background is the calibrated empty-tray image when the profile has one, else a coarse median of the frame
itself (dice are small next to the tray, so the median of a wide neighbourhood is the tray). Pixels that differ from
it by more than the noise are foreground. The reader finds dice by their pips (dice_from_pips); the bodies give it
the die size, tell a die from a pattern on the tray, show which dice lie alone (second_look) and which of those
look like one whole die (reported unsure when no face is read on them), and find the dice that show no pips (blank,
symbol and colour faces), whose blobs are split by area since touching dice form one blob.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from .pips import largest_channel, percentile_level

BACKGROUND_CELL = 16
"""The frame-estimated background is the median over cells of 1/16 of the frame, i.e. several dice wide."""
BORDER = 1 / 16
"""`tray_from_border` fits the tray to this much of the frame along each edge."""


MAX_CLUSTER = 40
"""More touching dice than this in one blob (its area over a lone die body's) is taken for part of the tray, not
dice. A heap of the most dice a roll holds (25) counts more: it takes in the shade of the tray's wall it lies
against and its dice's shadows between them (byler-d6's heaps of 21 to 25 dice count up to 32). At 12 such heaps
were not cut into parts, and die_net saw none of their unread dice."""
SQUARE = 1.4
"""A die seen from above, shadow and all, is about as long as it is wide: a blob longer than this over its width,
in the box turned to fit it, is a cable, a pen or a streak of shadow..."""
SOLID = 0.7
"""...and a die fills this much of that box at least (a rounded square fills 0.9 of it)."""
PART_SQUARE = 1.6
"""A part of a heap (find_regions) may be one die when its upright box is at most this many times as long as wide
(`about_square`): k-means cuts touching dice unevenly. On rendered heaps (bench_reader_synthetic --heap, seed 1)
SQUARE (1.4) left two dice unread that this reads, and 2.0 read none more."""
ROW = 3.2
"""A blob up to this many times as long as wide may be a row of two or three touching dice (`dice_in_row`)."""
ROW_SHADOW = 0.25
"""The box turned to fit a row of touching dice takes in their shadows and bevels, about this share of a die both
across and along it: n dice measure about (n + ROW_SHADOW) / (1 + ROW_SHADOW) times as long as wide (rendered, up
to 0.1 of a die apart: two 1.55-2.02, three in a line 2.26-3.0). So does a pair lying half a die apart, which only
the pips tell from three (`Row.as_three`)."""
ROW_OF_TWO = 1.5
"""A frame's one compact blob this many times as long as wide by its second moments (Foreground.elongation), or
more, is two touching dice (`touching_row`): two dice side by side measure 1.55-2.2 (rendered, touching or up to 0.3
of a die apart, each turned its own way; 1.59-1.73 for two lying square to the row, whose shadows widen it), one die
seen from above with its shadow 1.0-1.4 (byler-d6: 1.3 at the 90th percentile). A webcam leaning over the table sees
a die's side faces too: 6 of matteo-webcam's frames of one compact blob measure 1.57-1.63, and read as before (3
with a die's centre a pixel off; enlarged two and four times, one of them reads a laptop's keys as a 2).
Among more blobs, single dice outnumber rows: byler-d6's photos sized with every blob of 1.7 or more shared lost 3
dice, and matteo-webcam's frames of two blobs, one a die seen from its side, read keys at the frame's edge as dice
under bench_camera's changes (1-3 extras more under eight of them)."""


@dataclass(frozen=True)
class Region:
    """Pixels that may be one die: centre (x, y) and size across, in frame pixels, and its own mask."""

    center: tuple[float, float]
    size: float
    mask: np.ndarray
    """uint8 mask of the region's bounding box `box` (x0, y0, x1, y1)."""
    box: tuple[int, int, int, int]
    alone: bool = True
    """A blob of one die, not a part cut from a heap of touching dice (which may take in any part of them)."""


class Tray:
    """The empty tray under a frame: the frame's own coarse median and, when calibrated, the stored image."""

    def __init__(self, frame: np.ndarray, background: np.ndarray | None):
        h, w = frame.shape[:2]
        small = cv2.resize(frame, (max(8, w // BACKGROUND_CELL), max(8, h // BACKGROUND_CELL)),
                           interpolation=cv2.INTER_AREA)
        self.estimates = [cv2.medianBlur(small, 5)] + ([background] if background is not None else [])
        self.size = (w, h)

    def step(self, points: np.ndarray, colours: np.ndarray) -> np.ndarray:
        """For colours seen at points (frame pixels), the largest channel step from the tray there, taking the
        larger of the two estimates (a die lying where it lay in most calibration frames is in the stored one)."""
        steps = []
        for image in self.estimates:
            sh, sw = image.shape[:2]
            x = np.minimum(np.maximum((points[:, 0] * sw / self.size[0]).astype(np.intp), 0), sw - 1)
            y = np.minimum(np.maximum((points[:, 1] * sh / self.size[1]).astype(np.intp), 0), sh - 1)
            steps.append(np.abs(image[y, x].astype(np.float32) - colours).max(axis=1))
        return functools.reduce(np.maximum, steps)

    def difference(self, frame: np.ndarray) -> np.ndarray:
        """Per pixel, the largest colour-channel step between the frame and the tray (uint8)."""
        return cv2.max(*[_step(frame, image) for image in self.estimates]) if len(self.estimates) > 1 \
            else _step(frame, self.estimates[0])


def tray_from_border(frame: np.ndarray) -> np.ndarray:
    """The tray under a frame as its border shows it: a plane in each colour channel (an even light, or a gradient)
    fitted to the frame's outer BORDER, leaving out what differs from the fit (a die or a hand over the border); on a
    64x48 grid, for Tray's stored background. A die over about a sixth of the frame fills the cells Tray's own median
    is taken on, and that median shows the die, not the tray."""
    grid = cv2.resize(frame, (64, 48), interpolation=cv2.INTER_AREA).astype(np.float64)
    h, w = grid.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    ring = max(1, round(BORDER * w))
    edge = (xs < ring) | (xs >= w - ring) | (ys < ring) | (ys >= h - ring)
    design = np.column_stack([np.ones(xs.size), xs.ravel() / w, ys.ravel() / h])
    edge_design, edge_colours = design[edge.ravel()], grid[edge]
    fitted = np.ones(len(edge_colours), bool)
    for _ in range(3):
        plane = np.linalg.lstsq(edge_design[fitted], edge_colours[fitted], rcond=None)[0]
        residual = np.abs(edge_design @ plane - edge_colours).max(axis=1)
        fitted = residual <= max(3.0 * float(np.median(residual[fitted])), 4.0)
    return np.clip(design @ plane, 0, 255).reshape(h, w, 3).astype(np.uint8)


def _step(frame: np.ndarray, background: np.ndarray) -> np.ndarray:
    background = cv2.resize(background, frame.shape[1::-1], interpolation=cv2.INTER_LINEAR)
    return largest_channel(cv2.absdiff(frame, background))


def foreground_mask(difference: np.ndarray, min_contrast: float) -> np.ndarray:
    """Foreground where the step beats both the profile's least contrast and the frame's own noise."""
    noise = percentile_level(difference[::4, ::4], 50)
    threshold = max(min_contrast, 4.0 * noise)
    mask = (difference > threshold).astype(np.uint8)
    kernel = np.ones((3, 3), np.uint8)
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel), cv2.MORPH_OPEN, kernel)


class Foreground:
    """What differs from the tray in a frame, as connected blobs: found once per frame, for the die size and for
    the dice's bodies."""

    def __init__(self, frame: np.ndarray, tray: Tray, min_contrast: float):
        mask = foreground_mask(tray.difference(frame), min_contrast)
        # 16-bit labels are three times as fast, and enough while there are fewer pixels than labels
        label_type = cv2.CV_16U if cv2.countNonZero(mask) < 65535 else cv2.CV_32S
        _, self.labels, self.stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=label_type)
        """The label image, and per label its stats row [x, y, w, h, area] (label 0 is the tray)."""
        self.least_area = int((max(frame.shape[:2]) / 50) ** 2)
        """Blobs smaller than this are noise: a die is at least 1/50 of the frame across (30 px in 1500)."""

    def elongation(self, label: int) -> float:
        """A blob's long axis over its short axis by its second moments: a rectangle's long side over its short one,
        whichever way it is turned (1 for a die seen from above, 2 for two dice side by side)."""
        x, y, width, height, _ = (int(v) for v in self.stats[label])
        ys, xs = np.nonzero(self.labels[y:y + height, x:x + width] == label)
        xx, yy = xs.var() + 1 / 12, ys.var() + 1 / 12
        xy = float(np.mean((xs - xs.mean()) * (ys - ys.mean())))
        spread = np.hypot((xx - yy) / 2, xy)
        return float(np.sqrt((xx + yy + 2 * spread) / max(xx + yy - 2 * spread, 1e-9)))

    def blobs(self, min_area: int) -> list[int]:
        """The labels of blobs of `min_area` pixels at least."""
        return [i for i in range(1, len(self.stats)) if self.stats[i, cv2.CC_STAT_AREA] >= min_area]


def estimate_die_area(stats: np.ndarray, keep: list[int]) -> float | None:
    """The typical area of one die: the median of compact, squarish blobs (single dice far outnumber clusters)."""
    areas = [int(stats[i, cv2.CC_STAT_AREA]) for i in _compact(stats, keep)]
    return float(np.median(areas)) if areas else None  # only heaps and rows: their size says nothing


def _compact(stats: np.ndarray, keep: list[int]) -> list[int]:
    """Of the blobs labelled `keep`, those whose upright box is squarish and well filled: one die, or a few."""
    compact = []
    for i in keep:
        _, _, width, height, area = stats[i]
        if max(width, height) <= 1.6 * min(width, height) and area >= 0.55 * width * height:
            compact.append(i)
    return compact


def split_blob(labels: np.ndarray, stats_row, label: int, count: int) -> list[Region]:
    """Cut a blob of `count` touching dice into `count` regions by k-means on its pixel positions."""
    x, y, w, h, _ = (int(v) for v in stats_row)
    own = (labels[y:y + h, x:x + w] == label)
    if count <= 1:
        return [_region(own.astype(np.uint8), x, y, alone=True)]
    ys, xs = np.nonzero(own)
    points = np.column_stack([xs, ys]).astype(np.float32)
    step = max(1, len(points) // 1500)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(count)  # k-means++ draws from OpenCV's global RNG: a frame is cut alike whatever ran before
    _, _, centers = cv2.kmeans(points[::step], count, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    nearest = np.argmin(((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2), axis=1)
    regions = []
    for k in range(count):
        part = np.zeros((h, w), np.uint8)
        chosen = points[nearest == k].astype(np.int32)
        if len(chosen) == 0:
            continue
        part[chosen[:, 1], chosen[:, 0]] = 1
        regions.append(_region(part, x, y, alone=False))
    return regions


def _region(part: np.ndarray, x0: int, y0: int, alone: bool) -> Region:
    ys, xs = np.nonzero(part)
    bx0, by0, bx1, by1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
    size = float(np.sqrt(len(xs)))
    center = (x0 + float(xs.mean()), y0 + float(ys.mean()))
    return Region(center, size, part[by0:by1, bx0:bx1], (x0 + bx0, y0 + by0, x0 + bx1, y0 + by1), alone)


def die_shaped(region: Region, frame_shape: tuple[int, ...]) -> bool:
    """Whether a region looks like one whole die from above: about square and solid in the box turned to fit it
    (SQUARE, SOLID), and clear of the frame's edge, past which its shape is unknown."""
    if cut_by_frame(region.box, frame_shape):
        return False
    short, long, count = _turned_box(region)
    return long <= SQUARE * short and count >= SOLID * short * long


def cut_by_frame(box: tuple[int, int, int, int], frame_shape: tuple[int, ...]) -> bool:
    """Whether a box (x0, y0, x1, y1) reaches the edge of its frame (of `frame_shape`): what lies past it is
    unseen."""
    x0, y0, x1, y1 = box
    return x0 <= 0 or y0 <= 0 or x1 >= frame_shape[1] or y1 >= frame_shape[0]


def about_square(region: Region) -> bool:
    """Whether a region's upright box is at most PART_SQUARE times as long as wide, as one die's is however it lies
    (a strip cut from a heap's edge, or a tray's rim, is not)."""
    x0, y0, x1, y1 = region.box
    return max(x1 - x0, y1 - y0) <= PART_SQUARE * min(x1 - x0, y1 - y0)


def solidity(region: Region) -> float:
    """The share of its convex hull a region fills: about 1 for one die, less for a notched blob, such as three
    touching dice in an L."""
    contours, _ = cv2.findContours(region.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    return cv2.contourArea(outline) / max(1.0, cv2.contourArea(cv2.convexHull(outline)))


def _turned_box(region: Region) -> tuple[float, float, int]:
    """The short and long sides of the box turned to fit a region, and the region's pixel count."""
    (width, height), _, count = _fitted_box(region)
    short, long = sorted((width + 1, height + 1))  # the rectangle runs through the outer pixels' centres
    return short, long, count


def row_axis(region: Region) -> tuple[float, float]:
    """The unit vector along the long side of the box turned to fit a region (a row of dice)."""
    (width, height), angle, _ = _fitted_box(region)
    turn = math.radians(angle if width >= height else angle + 90)
    return math.cos(turn), math.sin(turn)


def _fitted_box(region: Region) -> tuple[tuple[float, float], float, int]:
    """The sides and the angle (degrees) of the box turned to fit a region (cv2.minAreaRect), and its pixel count."""
    points = cv2.findNonZero(region.mask)
    _, sides, angle = cv2.minAreaRect(points)
    return sides, angle, len(points)


def die_size(foreground: Foreground) -> float | None:
    """The typical size across of one die (frame pixels), from the frame's compact foreground blobs; None without
    any."""
    area = estimate_die_area(foreground.stats, foreground.blobs(foreground.least_area))
    return float(np.sqrt(area)) if area else None


@dataclass(frozen=True)
class Row:
    """A blob of two or three dice touching in a row (`touching_row`), or of three in an L (`line` False)."""

    region: Region
    dice: int
    line: bool = True

    @property
    def share(self) -> float:
        """One die's size (frame pixels): the row's area shared among its dice, as a die's lying alone."""
        return self.region.size / math.sqrt(self.dice)

    def seams(self) -> list[tuple[float, float]]:
        """Where neighbouring dice meet (frame pixels): the row's long side cut into equal parts; none known in an
        L."""
        if not self.line:
            return []
        _, long, _ = _turned_box(self.region)
        (x, y), (ax, ay) = self.region.center, row_axis(self.region)
        offsets = [(k - self.dice / 2) * long / self.dice for k in range(1, self.dice)]
        return [(x + offset * ax, y + offset * ay) for offset in offsets]

    def as_three(self) -> Row | None:
        """This row of two taken for three dice, when the box turned to fit it holds three less their shadows
        (ROW_SHADOW): three touching dice in a line measuring under 2.5 times as long as wide were taken for two,
        and the middle die's face for one across the seam between them."""
        short, long, _ = _turned_box(self.region)
        three = self.dice == 2 and round((1 + ROW_SHADOW) * long / short - ROW_SHADOW) == 3
        return Row(self.region, 3) if three else None


def touching_row(foreground: Foreground) -> Row | None:
    """The frame's one blob when it is a row of two or three touching dice, else None. Alone in a frame, two
    touching dice were sized as one die half as large again, and their two 1s read as one 2, their two 4s as one 6.
    - The frame's one compact blob (`_compact`) is two dice when it is ROW_OF_TWO times as long as wide or more
      by its second moments. (They tell a row of dice from one die, but hardly how many it holds: three in a row
      measure 2.25-2.4, two 1.55-2.2.)
    - A row lying askew has no compact blob (its upright box is too long, or too little filled): the frame's one
      blob is a row of as many dice as the box turned to fit it holds, two or three (`dice_in_row`;
      `benchmarks/bench_reader_synthetic.py --pair` and `--three`)."""
    blobs = foreground.blobs(foreground.least_area)
    compact = _compact(foreground.stats, blobs)
    if len(compact) == 1:
        if foreground.elongation(compact[0]) < ROW_OF_TWO:
            return None
        label = compact[0]
    elif compact or len(blobs) != 1:
        return None
    else:
        label = blobs[0]
    region = split_blob(foreground.labels, foreground.stats[label], label, 1)[0]
    dice = 2 if compact else dice_in_row(region)
    return Row(region, dice) if dice in (2, 3) else None


def die_shaped_blobs(foreground: Foreground, least_size: float) -> list[Region]:
    """The blobs at least `least_size` across (frame pixels) of one die's shape (`die_shaped`), whole, however many
    dice their area would hold: a die much larger than the frame's others, or a square block of touching dice."""
    regions = [split_blob(foreground.labels, foreground.stats[i], i, 1)[0]
               for i in foreground.blobs(int(least_size ** 2)) if _may_be_die_shaped(foreground.stats[i])]
    return [region for region in regions if die_shaped(region, foreground.labels.shape)]


def _may_be_die_shaped(stats_row) -> bool:
    """What `die_shaped` asks of a blob that its upright box already tells (cheap, before its pixels are looked at):
    a box turned to fit it at most SQUARE times as long as wide leaves an upright box no longer either, and one it
    fills to SOLID leaves an upright box filled half as much at least (a square turned 45 degrees fills half)."""
    _, _, width, height, area = (int(v) for v in stats_row)
    return max(width, height) <= SQUARE * min(width, height) and area >= SOLID / 2 * width * height


def large_die_sizes(foreground: Foreground, least_size: float) -> list[float]:
    """The die sizes (frame pixels) the blobs at least `least_size` across suggest, largest first: a blob of one
    die's shape (as `die_shaped`, but at the frame's edge too: a large die's corner may reach past it while its face
    lies in the frame) its own size, and a row of touching dice its area shared among them (`dice_in_row`)."""
    sizes = []
    for i in foreground.blobs(int(least_size ** 2)):
        region = split_blob(foreground.labels, foreground.stats[i], i, 1)[0]
        count = dice_in_row(region)
        if count:
            sizes.append(region.size / np.sqrt(count))
    return sorted(sizes, reverse=True)


def dice_in_row(region: Region) -> int:
    """How many dice a region holds by the box turned to fit it: 1 when it has one die's shape (as `die_shaped`,
    but at the frame's edge too), as many as its long side holds short ones (up to ROW) when it fills half its box
    at least (a row of touching dice), else 0."""
    short, long, count = _turned_box(region)
    if long <= SQUARE * short and count >= SOLID * short * long:
        return 1
    if long <= ROW * short and count >= 0.5 * short * long:
        return round(long / short)
    return 0


def find_regions(foreground: Foreground, die_px: float | None) -> tuple[list[Region], float | None]:
    """Regions that may each be one die, and the die size (frame pixels) they were cut with. A blob as large as two
    dice but shaped like one (`die_shaped`) is one die larger than the frame's typical one: two touching dice make a
    blob twice as long as wide, or, touching at a corner or half along a side, one that fills too little of its box
    (byler-d6's dice differ 1.5 times in size within a photo, and a large one with its shadow counted as two was cut
    in halves that no look could read). A blob of more than one die that the frame's edge cuts is left out: how many
    dice it holds is unknown, and at a webcam's edge it is a laptop or a cable more often than a heap (matteo-webcam's
    parts of such blobs were shown to die_net and looked at again for an eighth of its reading time, and read no
    die)."""
    counted, size = _counted_blobs(foreground, die_px)
    regions = []
    for i, count in counted:
        if count == 2:
            whole = split_blob(foreground.labels, foreground.stats[i], i, 1)
            if die_shaped(whole[0], foreground.labels.shape):
                regions += whole
                continue
        regions += split_blob(foreground.labels, foreground.stats[i], i, count)
    return regions, size


def _counted_blobs(foreground: Foreground, die_px: float | None) -> tuple[list[tuple[int, int]], float | None]:
    """The blobs that may be dice, as [(label, how many dice it holds)], and the die size they were counted with."""
    keep = foreground.blobs(int((die_px * 0.45) ** 2) if die_px else foreground.least_area)
    stats = foreground.stats
    die_area = estimate_die_area(stats, keep)
    if die_px:  # the calibrated size bounds this frame's estimate (the dice may all be touching)
        die_area = float(np.clip(die_area or die_px ** 2, (0.7 * die_px) ** 2, (1.5 * die_px) ** 2))
    if die_area is None:
        return [], None
    counted = []
    for i in keep:
        x, y, w, h, area = stats[i]
        count = max(1, round(area / die_area))
        if area < 0.35 * die_area or count > MAX_CLUSTER:
            continue
        if count > 1 and area < 0.3 * w * h:  # long or hollow: a wall or an edge, not a heap of dice
            continue
        if count > 1 and cut_by_frame((x, y, x + w, y + h), foreground.labels.shape):
            continue  # what lies past the edge is unseen: at a webcam's edge, a laptop or a cable, not a heap
        counted.append((i, count))
    return counted, float(np.sqrt(die_area))
