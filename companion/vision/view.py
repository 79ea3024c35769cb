"""One frame at the reader's two scales, and the die size that sets the larger one.

A copy no larger than FIND_PX gives the tray (find_dice.Tray), the dice bodies against it (find_dice.Foreground,
find_regions) and, from those bodies, the die size; where no body shows one die's size (a heap of touching dice,
dice as light as the tray) the pips give it (`_size_from_pips`), and a row of touching dice its share of the row
(find_dice.touching_row). The working frame is the frame scaled so that a die is pips.DIE_PX across, where every
pip is found at once (pips.find_pips). A dim frame is brought up to a well exposed one's levels first (`_gain`):
the contrasts the reader asks for assume them.
"""
from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np

from .face_judge import FALLBACK_SPACING, GLARE_LEVEL, SPACING_PER_FACE
from .find_dice import (Foreground, Region, Row, Tray, die_size, find_regions, row_axis, solidity, split_blob,
                        touching_row)
from .pip_faces import Seam
from .pips import DIE_PX, POLARITY, Pips, find_pips, largest_channel, percentile_level
from .profile import Profile

FIND_PX = 320
"""Longest side of the copy the dice bodies are found on: a die of 30 px in a 640 px frame is 15 px there."""
LEAST_SIDE = 8
"""A frame whose shorter side is under this many pixels, as taken or in that copy, holds no die that could be found
(`holds_a_die`): a die's body must show in the copy, and a die of 8 px shows pips of one or two."""
FACE_IN_BODY = FALLBACK_SPACING / SPACING_PER_FACE
"""A die's top face (the size a ReadDie and the profile's die_px give) over its body as found against the tray,
which takes in its shadow and any side face in view."""
LARGE_DIE = 0.15
"""A die body this large a part of the frame may be a heap of touching dice: the pips then tell the size..."""
SMALL_DIE = 1 / 32
"""...and one this small only the shadows of dice as light as the tray."""
ROW_DIE = 0.2
"""A die of a row of touching dice (find_dice.touching_row) may be this large a part of the frame when its pips tell
another size: its share of the row is one die's, where a heap's blob is not. Sized by their large pips, two
touching 1s of 90 px (a seventh of a 640 px frame with their shadows) were read as one 2 (bench_reader_synthetic
--pair: 3 dice more read of 960 and that misread gone). Where the pips' size is about the share, it is the better
one (two dice of 100 px in a close-up: one 6 was left unread at the share's size)."""
PIP_OF_FACE = 0.2
"""A pip's diameter over its face's side, on a common die."""
OVERSIZED_PIPS = 0.2
"""A frame whose strong pips are wider than this over the die size (their median; common dice's are 0.1-0.2) may have
been read at too small a size: it is read again at the size its pips give, and the read that puts more pips on faces
is kept, or as many on fewer dice (a 2 of 150 px on a white tray, sized at half, was two 1s at 1.0, each pip past a
lone pip's reach of the other at that size). A die as light as the table shows it only part of its body:
matteo-webcam's close-up ivory 5s on light wood were sized 21 px for boxes of 43-59 and missed, six ivory dice 48 px
across on a white tray (bench_reader_synthetic), whose shadows' fragments were sized 29 px, were all missed, and
with the photos' hues turned (a green or blue table, tinted dice) the wood's grain broke dice into parts sized 10-13
px (16 as taken), and 4s were read as 1s and 2s. On the development photos as taken, 6 byler-d6 frames and 2
matteo-webcam frames pass 0.2 (0.3 at most); the 2 only pass 0.25."""
PIPS_MAKE = 1.4
"""A frame its pips sized (`View.by_pips`: no body shows one die, as when the dice lie in one block) may be sized up to
this many times too large, the pips of some makes being smaller than PIP_OF_FACE: it is read again at this much smaller
a size, and that read is kept where it reads a block of dice (reader.BLOCK) and puts more pips on faces, or as many on
fewer dice. Blocks of touching dice alone in the frame (bench_reader_synthetic --heap) were sized by their pips, faces
1.3-1.8 times their dice's size were made across two or three dice, and most of their dice were missed: read again,
seeds 1-3 read 1,696, 1,683 and 1,619 of their 2,160 dice each (1,562, 1,597 and 1,519) and misread 26, 27 and 23 (30,
29 and 28); read again at 1.6 times smaller (before reader.BLOCK), seeds 1 and 3 read about as many as at 1.4. No other
rendered suite reads otherwise, nor any development photo (13 of matteo-webcam's are sized by their pips), under any
camera change of bench_camera either."""
ROW_SHARE = 0.15
"""A frame sized within this fraction of its row's share (find_dice.touching_row) is sized by the row."""
PIPS_A_DIE = 6
"""A die shows this many pips at most: a frame's one blob taken for a row of touching dice that shows more strong pips
than its dice can (`View.as_block`) is a block of more dice than the row holds."""
STRONG_PIP = 0.7
"""A pip counted for PIPS_A_DIE stands out at least this part as much as the strongest of its polarity on the blob:
the glints along a red die's light bevels stand out half as much as its white pips (two touching 5s of 48 px showed
13 such blobs at half, 10 at this)."""
SMALLER_DICE = 0.8
"""A frame its one blob sized as one die is a block of smaller dice (`View.of_smaller_dice`) when its pips tell dice
under this part of that die's size."""
SMALL_FACES = 0.9
"""A frame sized by its one blob whose dice read show faces under this part of the face a die of the blob's size
shows may be three touching dice in an L (`View.three_in_an_l`), and is read as such too. An L's blob fills the box
turned to fit it as a lone die's body does (0.69-0.79 rendered; byler-d6's median 0.79, matteo-webcam's 0.72), so
only the faces tell them apart: read as one die, an L's faces measure about 0.83 of that die's, a lone die's 0.8-1.2
as makes set their pips (SPACING_PER_FACE), and the read as three is kept only where it puts more pips on faces."""
L_SOLIDITY = 0.93
"""A frame's one blob filling less of its convex hull than this is notched, as three dice touching in an L are
(`View.three_in_an_l`; rendered, `bench_reader_synthetic --three`: 0.83-0.92 but for four in 125 Ls lying square, a
lone die's body 0.94 and more), and is read as three dice too. A line of three askew is notched as well, and read
so at its true size. Seen by a webcam leaning over the table, a lone die's body with a side face fills 0.81-0.92
(matteo-webcam): a frame of one such die is read twice. The read as three is kept only where it puts more pips on
faces."""
MIN_PIP_STRENGTH = 24
"""Grey levels a pip must stand out from its face by, over the sensor noise of any camera."""
BRIGHT = 210
"""A well exposed frame has its brightest percent of pixels at about this level (the development photos' lie at
190-225); the contrasts above are in grey levels of such a frame, so a dim frame is brought up to it..."""
MAX_GAIN = 4.0
"""...by at most this gain."""


def holds_a_die(frame: np.ndarray, die_px: float | None = None) -> bool:
    """Whether a frame is large enough for a die to be found in it: LEAST_SIDE, and the die's face (`die_px`, the
    profile's, when calibrated). A narrower one (a row of pixels, a sliver of a panorama, a frame smaller than its
    dice) is not looked at: OpenCV refuses to shrink it to no rows."""
    shorter = min(frame.shape[:2])
    return shorter >= max(LEAST_SIDE, die_px or 0) and shorter * _small_scale(frame) >= LEAST_SIDE


def _small_scale(frame: np.ndarray) -> float:
    """The scale of the copy bodies and the tray are found on: its longer side FIND_PX at most."""
    return min(1.0, FIND_PX / max(frame.shape[:2]))


class View:
    """One frame at the reader's scales: `small` (at most FIND_PX) for bodies and the tray, the working frame
    (a die DIE_PX across) for pips."""

    def __init__(self, frame: np.ndarray, background: np.ndarray | None, profile: Profile,
                 die_px: float | None = None, row: Row | None = None, by_pips: bool = False):
        """`die_px`, when given, is the die size (input pixels) found otherwise (`sized_by_pips`), and `by_pips`
        whether that size is as unsure as one the pips give (`smaller_than_its_pips`); `row`, the row of touching
        dice to size the frame by (`find_dice.Row.as_three`)."""
        self._input, self._background, self._profile = frame, background, profile
        gain = _gain(frame)
        if gain > 1.0:
            frame = cv2.convertScaleAbs(frame, alpha=gain)
            background = None if background is None else cv2.convertScaleAbs(background, alpha=gain)
        self.frame = frame
        self.small_scale = _small_scale(frame)
        self.small = frame if self.small_scale == 1.0 else cv2.resize(
            frame, None, fx=self.small_scale, fy=self.small_scale, interpolation=cv2.INTER_AREA)
        self.tray = Tray(self.small, background)
        self.foreground = Foreground(self.small, self.tray, profile.min_contrast)
        self.by_pips = by_pips
        """Whether the pips gave the die size, no body showing one die's (a heap of touching dice): the size is
        then that of the pips' make, which may be 1.4 times the dice's, and faces must lie square to the edges
        around them (face_judge.SQUARE_TO_EDGES)."""
        self.row: Row | None = row
        """The frame's one blob when it is a row of touching dice and the die size is about its share of it
        (ROW_SHARE, find_dice.touching_row; found so, or by the pips at that size when it is implausible): the
        bodies tell how many dice there are, which the pips' size does not (`sized_by_pips`), and where they meet
        (`seams`)."""
        self.three: Row | None = None
        """A row of three dice this frame's one blob may be, to read it as besides: one taken for two, whose box is
        as long as a pair's lying apart (`find_dice.Row.as_three`), or one whose box holds three, which the frame
        is sized for by its pips first: read at its true size, a 2, a 4 and a 3 of one colour lying square in a row
        held one another's faces for the pips beside them, which the pips' size, 1.4 times as large, reads."""
        if row:
            self.die_px = row.share / self.small_scale
        elif die_px:
            self.die_px = die_px
        elif profile.die_px:
            self.die_px = profile.die_px / FACE_IN_BODY
        else:
            row = touching_row(self.foreground)
            if row and row.dice == 3:  # sized by the pips, and read as a row of three besides
                self.three, row = row, None
            elif row:
                self.three = row.as_three()
            share = row.share if row else None
            size = die_size(self.foreground) if row is None else share
            if size is None or not self._plausible(size, LARGE_DIE):
                by_pips = _size_from_pips(self.small, size)  # a heap of touching dice, or shadows of light dice
                self.by_pips = not (row and self._plausible(share, ROW_DIE) and not _about(by_pips, share))
                size = by_pips if self.by_pips else share
            if row and _about(size, share):
                self.row = row
            self.die_px = size / self.small_scale if size else None
        self.scale = DIE_PX / self.die_px if self.die_px else 1.0

    @functools.cached_property
    def seams(self) -> tuple[Seam, ...]:
        """Where the dice of the frame's row meet (working pixels; pip_faces.ACROSS_SEAM)."""
        if self.row is None:
            return ()
        scale = self.scale / self.small_scale
        along = row_axis(self.row.region)
        return tuple(Seam((x * scale, y * scale), along) for x, y in self.row.seams())

    @functools.cached_property
    def blob(self) -> Region | None:
        """The frame's one blob (`small` pixels), when it has only one."""
        blobs = self.foreground.blobs(self.foreground.least_area)
        return split_blob(self.foreground.labels, self.foreground.stats[blobs[0]], blobs[0], 1)[0] \
            if len(blobs) == 1 else None

    def three_in_an_l(self, face_size: float | None) -> Row | None:
        """The frame's one blob taken for three dice in an L, or None: when it is notched as an L is (L_SOLIDITY),
        or when it was sized as one die and the dice read on it show faces smaller than one die of that size does
        (SMALL_FACES: an L lying square is hardly notched, nor is a block of touching dice). `face_size` is the
        typical face of the dice read (a heap's one blob, sized by its pips, is many dice: not sized as one die)."""
        if self.row is not None or self.die_px is None or (blob := self.blob) is None:
            return None
        if solidity(blob) < L_SOLIDITY:
            return Row(blob, 3, line=False)
        small_faces = face_size is not None and face_size < SMALL_FACES * self.die_px * FACE_IN_BODY
        return Row(blob, 3, line=False) if small_faces and _about(self.die_px * self.small_scale, blob.size) else None

    def _plausible(self, size: float, largest: float) -> bool:
        """Whether a die size found from the bodies (`small` pixels) is one a die may have in this frame."""
        return SMALL_DIE <= size / max(self.small.shape[:2]) <= largest

    @functools.cached_property
    def regions(self) -> list[Region]:
        """The parts of the foreground that may each be one die (find_dice.find_regions), on `small`; the view
        must have a die size. A row of two is no die lying alone: its dice touch. Taken for one lying alone, its
        dice had second looks across them, and a 1 beside a die was checked as a lone die's unsure 1 (reader.ONE_SURE)
        by die_net, whose crop took in the other die's pips (bench_reader_synthetic --pair: 11 dice more read of
        1920, 10 fewer unsure)."""
        regions = find_regions(self.foreground, self.die_px * self.small_scale)[0]
        if self.row is None:
            return regions
        return [replace(r, alone=False) if r.box == self.row.region.box else r for r in regions]

    @functools.cached_property
    def pips(self) -> Pips:
        """Every pip-like blob of the working frame."""
        return find_pips(self.working_frame, DIE_PX, MIN_PIP_STRENGTH, self._profile.pip_polarity)

    def sized_by_pips(self) -> View | None:
        """This frame's view at the die size its strong pips give (at least half as strong as the strongest), when
        they are too large for the size this view has (OVERSIZED_PIPS); else None (and when it has no size)."""
        if self.die_px is None:
            return None
        pips = self.pips
        if len(pips.strength) < 2:
            return None
        radius = float(np.median(pips.radius[pips.strength >= pips.strength.max() / 2])) / self.scale
        if 2 * radius <= OVERSIZED_PIPS * self.die_px:
            return None
        return View(self._input, self._background, self._profile, die_px=_size_of_pips(radius))

    def as_block(self, polarity: str | None) -> View | None:
        """This frame's view sized by its pips (`by_pips`), when its one blob was taken for a row of touching dice
        (`row`) but shows more strong pips of `polarity` (that of the faces read on it) than its dice can show
        (PIPS_A_DIE, STRONG_PIP); else None. A block of five or six touching dice, two or three to a row, is
        elongated as two dice are (find_dice.ROW_OF_TWO), and was sized as two dice sharing its area: faces 1.3-1.4
        times a die's size were made across three dice, a 4's pips with its neighbours' read as a 5 turned 45
        degrees to them (bench_reader_synthetic --heap)."""
        if self.row is None or polarity is None:
            return None
        pips = self.pips
        x0, y0, x1, y1 = self.to_working_box(self.row.region.box)
        on_row = (pips.xy[:, 0] >= x0) & (pips.xy[:, 0] <= x1) & (pips.xy[:, 1] >= y0) & (pips.xy[:, 1] <= y1)
        strength = pips.strength[on_row & (pips.polarity == POLARITY.index(polarity))]
        if (strength >= STRONG_PIP * strength.max(initial=0.0)).sum() <= PIPS_A_DIE * self.row.dice:
            return None
        size = _size_from_pips(self.small, self.row.share)
        return View(self._input, self._background, self._profile, die_px=size / self.small_scale, by_pips=True)

    def of_smaller_dice(self) -> View | None:
        """This frame's view sized by its pips (`by_pips`), when its one blob sized it as one die (no row, no
        calibrated size) and its pips tell dice under SMALLER_DICE of that; else None. Four to six small dice
        touching in a block are one compact blob no larger than a close-up die (LARGE_DIE): read as one die, their
        pips are too small to be found, and no die was read (bench_reader_synthetic --heap, blocks of six dice of 30
        px: all missed in 12 of 40 combinations). The pips are looked for at half the blob's size (a block is two
        dice across at least) and at a tenth of the frame (`_pips_size`)."""
        if self.row is not None or self.by_pips or self._profile.die_px or self.die_px is None or self.blob is None:
            return None
        body = self.die_px * self.small_scale
        size = _pips_size(self.small, body / 2)
        if size is None or size > SMALLER_DICE * body:
            return None
        return View(self._input, self._background, self._profile, die_px=size / self.small_scale, by_pips=True)

    def smaller_than_its_pips(self) -> View | None:
        """This frame's view at PIPS_MAKE times smaller a size, when its pips sized it (`by_pips`); else None."""
        if not self.by_pips or self.die_px is None:
            return None
        return View(self._input, self._background, self._profile, die_px=self.die_px / PIPS_MAKE, by_pips=True)

    @functools.cached_property
    def working_frame(self) -> np.ndarray:
        if abs(self.scale - 1.0) < 0.05:
            self.scale = 1.0
            return self.frame
        shrink = self.scale < 1.0
        return cv2.resize(self.frame, None, fx=self.scale, fy=self.scale,
                          interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)

    def tray_colours_step(self, points: np.ndarray, colours: np.ndarray) -> np.ndarray:
        """The step from the tray of colours seen at working-frame points."""
        return self.tray.step(points * (self.small_scale / self.scale), colours)

    def to_input_box(self, box: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
        """A box on `small` in input pixels."""
        return tuple(v / self.small_scale for v in box)

    def to_input_point(self, point: tuple[float, float]) -> tuple[float, float]:
        """A point on `small` in input pixels."""
        return point[0] / self.small_scale, point[1] / self.small_scale

    def to_working_box(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """A box on `small` in the working frame's whole pixels."""
        scale = self.scale / self.small_scale
        return tuple(int(round(v * scale)) for v in box)


def _gain(frame: np.ndarray) -> float:
    """The gain that brings a dim frame's brightest percent to BRIGHT, short of lifting its brightest pixel into
    glare (1 for a frame exposed well or brighter). The background is taken with the frame's exposure, so it gets
    the same gain."""
    top = percentile_level(largest_channel(frame[::8, ::8]), 99)
    if top >= 0.9 * BRIGHT:
        return 1.0
    brightest = float(frame.max())  # the sample may miss a small white pip
    return float(np.clip(min(BRIGHT / max(top, 1.0), (GLARE_LEVEL - 10) / max(brightest, 1.0)), 1.0, MAX_GAIN))


def _about(size: float | None, share: float) -> bool:
    """Whether a die size is about a share of a blob's (ROW_SHARE)."""
    return size is not None and abs(size / share - 1) < ROW_SHARE


def _size_from_pips(small: np.ndarray, body: float | None) -> float | None:
    """When dice touch, no body shows one die's size: the pips do (`_pips_size`, looked for at the body's size and at
    a tenth of the frame), or else the body (`body`) is kept. Where the dice are as dark as the tray, or the tray is
    grainy, the blobs found as bodies are pips or grain, and at their size the grain gives many specks, but faint
    ones.

    A size from the pips larger than a large body is one large die's, not a heap's (a heap is larger than a die):
    the body's size is kept then, the ratio of pip to face differing between makes (a close-up of a die a fifth
    of the frame across was sized 1.6 times too large, and its pips were then too small to be found)."""
    size = _pips_size(small, body)
    if size is None:
        return body
    large = body is not None and body > LARGE_DIE * max(small.shape[:2])
    return min(body, size) if large else size


def _pips_size(small: np.ndarray, guess: float | None) -> float | None:
    """The die size (`small` pixels) the pips give (a pip is about a fifth of its face across), or None where fewer
    than three are found. Pips are looked for at `guess` and at a tenth of the frame; the size whose strong pips
    (at least half as strong as the strongest found) stand out most in all wins."""
    guesses = [g for g in (guess, max(small.shape[:2]) / 10) if g]
    found = [find_pips(small, g, MIN_PIP_STRENGTH) for g in guesses]
    strengths = [pips.strength for pips in found]
    strongest = max((float(s.max()) for s in strengths if len(s)), default=0.0)
    best = max(range(len(found)), key=lambda k: float(strengths[k][strengths[k] >= strongest / 2].sum()))
    if len(found[best]) < 3:
        return None
    return _size_of_pips(float(np.median(found[best].radius)))


def _size_of_pips(radius: float) -> float:
    """The size of a die body (as found against the tray) whose pips' radius is `radius` (PIP_OF_FACE)."""
    return radius * 2 / PIP_OF_FACE / FACE_IN_BODY
