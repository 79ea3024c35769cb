"""Judge a proposed d6 face: how sure the reader may be that these pips are the whole top face of one die.

A face is its pips and its grid: the affine map from 3x3 grid coordinates (-1..1) to pixels, fitted to the pips'
nodes (face_grid). Each check lowers the confidence rather than deciding alone:
- the pips sit on their nodes (affine residual) and the grid is not squashed past a slanted view;
- the pips are alike in size and colour (a speck of a marbled body at a 4's centre is not), spaced plausibly for
  their size and for the frame's other dice, and not so long that the face must be a side face seen at a slant; on
  faces of three pips or fewer, whose layout says little, they are also alike in strength, shape and elongation
  (a glint or a speck next to a pip is not, nor a top face's pip beside a side face's);
- the body surrounds the pips (probes between and just outside the grid show the pips' body colour, not the
  tray's): a group it does not surround is no die at all (half a face, a side face, clutter);
- the lines between neighbouring pips cross only their body, not an edge or a seam;
- a face of three pips or fewer has no other like pip on its body nearby, nor a 4 where a 6's third row would
  be: it would be part of a larger face that was not made out, unless that pip is another die's (pip_faces
  decides, once it knows the other faces);
- nothing at a free node that would make a larger face stands out like a missed pip, in the pips' colour (a
  translucent die glows in its own colour at its bevel and where its pips reflect);
- no saturated glare on a face that is not white (glare hides pips);
- on a die as light (or as dark) as the tray, whose body cannot be told from the tray by colour, the body need
  only be even, and a face of three pips or fewer needs the die's outline around it (one read but for it is kept
  apart, `Judge.unoutlined`, for the reader's network to confirm or not).
A lone pip is a 1 only in the middle of a clear face: round, with body all around it, nothing pip-like near it, and
no like pip on its body within a 2's reach but another die's; on a die as light (or as dark) as the tray, also
rounder (OFF_DICE_SLANT: a key's letter on a laptop is not) and in the middle of the die's outline.
"""
from __future__ import annotations

import cmath
import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from .face_grid import GRID, ONE_SHORT, Grid, across, beside, completions, face_mask, layout_key, neighbours
from .pips import POLARITY, Pips

# ---------------------------------------------------------------------------------------------- face geometry
SPACING_PER_FACE = 0.27
"""Pip grid spacing over the face's side, on a common die (0.22-0.32 across makes)."""
FALLBACK_SPACING = 0.17
"""Pip spacing over the die's body size (which takes in shadow and side faces) when no face shows it."""
SIX_ASPECT = 1.65
"""A 6's grid is at most this much longer one way than the other (any face's, face_grid.MAX_ASPECT): its rows lie
as far apart as its columns lie from its centre, or a little less where a make sets the columns closer (1.52 at
most on the development photos). A 4's two rows and the near row of a die touching it lie about twice that apart
(1.8-2.0: bench_reader_synthetic --three read such 6s at 1.0)."""
SQUARE_TO_EDGES = 30.0
"""In a frame sized by its pips (a heap of touching dice: no body shows one die's size), a face of four pips or more
turned more than this many degrees from the edges around it is not made (`Judge.square_to_edges`). Touching dice in
a block lay pips of three dice as a 5 turned 45 degrees to them, a corner pip of one its centre and its neighbours'
its corners, which a frame sized 1.4 times too large by pips a fifth of their dice across takes for a die's
(bench_reader_synthetic --heap, seeds 1-3: 128 misread of 6,000 dice, 100 now, and 75 more read right). A
die's face lies square to its body."""
EDGES_SHARED = 0.08
"""...when the edges there share a direction: their gradients' magnitude-weighted mean of exp(4i angle) is this long
at least (1 for a square's sides alone, 0 for round pips; 0.05-0.1 around the faces of touching dice, pips and all).
At 0.03 two faces of black dice on a black tray were left out."""
EDGES_SHARED_OFF_DICE = 0.12
"""...or this long where the die does not stand out from the tray (Judge.on_dice): its sides show no edge, and its
pips and the tray's grain give the edges a direction by chance (0.084 around a lone black 6 on a black tray, whose
face was left out at EDGES_SHARED; 0.27 at the median around the faces turned from the edges of such heaps)."""
EDGES_SHARED_CLEARLY = 0.2
"""In any frame, a face of two pips or of four or more is not made where the edges around it share a direction this
clearly, turned more than SQUARE_TO_EDGES from its grid.
- A 2: its pips lie along the die's sides, not on its diagonal (two glints on a tiny smoky 4 whose red pips hardly
  show, read as a 2 at 1.0 under six of bench_camera's changes). Two pips fix only a face's diagonal, and the edges
  around a small face are as much its neighbours', the tray's grain and shadows as its own sides': of the 1,779 2s
  read right over the development photos under every change of bench_camera, the 657 whose edges share a direction
  this clearly lie within 27.5 degrees of them, while those that share one less lie up to 43 degrees off (the lines
  of a wooden table).
- Four pips or more (forty-eighth session): the 5 that touching dice lay turned 45 degrees to them (SQUARE_TO_EDGES)
  is made in frames sized otherwise than by their pips too, by a lone blob or a row, at 41-45 degrees to edges
  sharing a direction 0.16-0.49 clearly (bench_reader_synthetic --heap, seeds 1-3: 53 misread, 30 now). Of the
  6,266 faces of four pips or more read right over the development photos, as taken and under seven of
  bench_camera's changes, the 1,918 whose edges share a direction this clearly lie within 20 degrees of them.
- A 3 is left to the other checks: held so too, the heap's blocks read 6 dice fewer and misread no fewer."""
EDGE_REACH = 2.3
"""The edges looked at lie within this many pip spacings of a face's centre: its body's own (a die's sides lie 1.85
spacings from its centre) and the seams of its neighbours."""
TYPICAL_SPACING = (0.6, 1.6)
"""A face's pip spacing over the frame's typical one."""
SPACING_PER_PIP = (0.55, 2.2)
"""Pip grid spacing over the pip diameter, over common dice; a face outside it is far less sure. Faces read right
reach 1.62 on byler-d6, 1.64 on matteo-webcam and 1.96 on rendered dice (bench_reader_synthetic --heap). A block of
touching dice that no body sizes may be read at a size half as large again as theirs, and a face made there of their
pips lies as far apart for pips of their size: misread faces of the rendered blocks lie at 1.74-2.52 (seed 3). At
2.2 rather than 2.6, seeds 1-3 misread 87 dice rather than 100 and read as many right (before the reader's re-read
at a smaller size, view.PIPS_MAKE), and every development photo reads alike, under every camera change of
bench_camera too."""

DOUBT = 0.3
"""Each doubt about a face or a lone pip (pips of unlike sizes or colours, a slant, glare, ...) multiplies its
confidence by this: a face doubted once keeps 0.3 at most, under the default threshold of 0.5."""

# ---------------------------------------------------------------------------------------------- pips alike
ALIKE = 1.4
"""Pips of one face differ in size by less than this factor; the pips of a side face, seen at a slant, are
smaller than the top face's."""
UNALIKE = 1.6
"""Pips of one face that differ in size by more than this make it doubtful."""
ODD_PIP = (0.75, 1.15)
"""A face of four pips or more is no face when one pip is fainter than this part of the next faintest and wider than
this many times the others' median: the pips of a face are printed alike, and that one is the tray, seen between
touching dice as light as the pips are (white pips on dark dice on a white tray made 6s at 1.0 with it,
bench_reader_synthetic --three; no face read on the development photos has such a pip). Nor does a pip so much
fainter and wider than a face's pips hold a face of two pips or more as part of a larger one (`Judge._beyond`):
where three dice met, such a blob of the tray held a 3 and two 2s unread. A 1 it still holds: under half the
light, byler-d6's IMG_20191208_111924 showed a 2's second pip so, and its first was read as a 1."""
WEAKEST_PIP = 0.5
"""On a face of three pips or fewer, the weakest pip stands out at least this much as the strongest."""
SHAPE_SPREAD = 0.2
"""Pips of one face differ in normalised second moments by at most this (a round pip is (0.5, 0.5, 0), a 2:1
ellipse (0.8, 0.2, 0))."""
FAINT_CENTRE = 0.3
"""A pip's centre differs from the body around it by at least this fraction of its response: a blob whose centre
is its body's colour stood out only from something darker (or lighter) nearby, a shadow or the tray's grain."""
ALIKE_ELONGATION = 1.4
"""On a face of three pips or fewer, the longest pip may be at most this much longer than the roundest (long axis
over short): a round pip on a top face and a drawn-out one on the side face below it are no face (a cocked white
die's 1 and a side pip made a 2 at 1.0 in a photo enlarged four times; their second moments differed by 0.206,
just over SHAPE_SPREAD's 0.2 had their long axis lain along x or y, but within it diagonally)."""
MAX_ELONGATION = 2.0
"""A pip seen this much longer than wide is on a face at more than 60 degrees to the camera: a side face."""
SLANT_MARGIN = 0.2
"""A side face's pips are longer than the top face's by this much at least (elongation)."""
OFF_DICE_SLANT = 1.35
"""The most a face with pips off dice may be slanted (mean pip elongation): a side face in shade can look like
the tray."""

OUTLINE = 0.8
"""A face of three pips or fewer on a die as light (or as dark) as the tray is read only when this fraction of
the rays out from its centre cross the die's outline (its bevel, side faces or shadow) within OUTLINE_REACH: a
pattern on the tray has pips but no outline around them."""
OUTLINE_REACH = (1.3, 3.0)
"""In pip spacings from the face's centre: past its pips, and past its edge (1.85) even at a corner (2.6)."""
OUTLINE_CENTRED = 0.3
"""A lone pip on such a die is a 1 only in the middle of the outline: along each line through it, the outline lies
as far out on each side within this fraction of the mean (a coarse tray's grain around a speck is no outline)."""
FAINT_OUTLINE = 0.5
"""Such a face (or lone pip) that passes every other check, with the outline crossed on this fraction of the rays
at least, is kept apart for the reader's network to confirm (Judge.unoutlined): on byler-d6 a white die's soft
shadow on the light grey tray crosses 0.56-0.75 of them; pip-like patterns on a tray mostly cross none, and the
network, which counts pips wherever they lie, reads three dots painted on a tray as a 3."""

# ---------------------------------------------------------------------------------------------- body and surroundings
BODY_OFFSETS = np.array([(a, b) for a in (-1.4, 1.4) for b in (-0.5, 0.5)] + [(b, a) for a in (-1.4, 1.4)
                                                                                for b in (-0.5, 0.5)]
                        + [(-1.4, 0), (1.4, 0), (0, -1.4), (0, 1.4)]
                        + [(a, b) for a in (-1.5, 1.5) for b in (-1.5, 1.5)]
                        + [(a, b) for a in (-0.5, 0.5) for b in (-0.5, 0.5)], float)
"""Where the body check looks, in grid coordinates: between and just outside the pip grid, inside the face
whatever the die's make; the last eight lie past the corner pips, then among the pips."""
NEAR_CORNERS = np.array([(a, b) for a in (-1.3, 1.3) for b in (-1.3, 1.3)], float)
"""A face of four pips or more whose body is not found past its corner pips is also looked at here, and must then
show it past all four corners: some makes set their pips near the rounded corners, where the first probes fall on
the bevel (past a face made across touching dice, some of these fall between them). Faces of three pips or fewer
are not: a 4's side seen at a slant would pass as a 2."""
SAME_BODY = 0.35
"""Colour steps up to this fraction of the pips' own contrast (and at least the profile's least contrast) are
the same body; beyond it is an edge, a seam or the tray."""
OTHER_COLOUR = 2.0
"""Pips whose colours differ by this many such steps are of two colours: the pips of one face are painted alike,
so one of them is no pip of that face (a speck of a marbled body, a glint of the light's or the body's colour)."""
PIP_FRINGE = 1.5
"""A pip's blob (half its peak response) is smaller than the pip: its blurred rim reaches this many radii."""
LINK_SAMPLES = 12
SEAM = 0.4
"""Something darker in every channel than a face's body by this fraction of the body step (SAME_BODY) is the
shaded gap between two touching dice (`Judge._seamed`, `Judge._past_a_seam`); so is a dip that deep along the line
between two pips, in the body's brightest channel (`Judge._dipped`). Against the body's colour, it is looked for
between dark pips only: a light pip's blurred rim lightens the ring its body's colour is taken on, so that the body
between light pips looks darker than that colour, as a seam would (under bench_camera's lens blur, byler-d6's red
2s with white pips were read as 1s, their other pip taken for another die's)..."""
SEAM_DIP = 0.6
"""A dip along the line between two pips below its own median (`Judge._dipped`) is a seam this deep, deeper than
SEAM: a hard JPEG rings light pips with a dark halo past their rims (byler-d6's red 2s under bench_camera's JPEG
quality 30 dipped 1.03-1.42 times SEAM's step; 2s were read as 1s, or not at all)."""
SEAM_MARGIN = 2.0
"""...looked for this many pip radii from the pips at least: a pip sits that far inside its face's edge."""
MARBLED = 1.5
"""The bodies around two linked pips whose blurred rims meet may differ this many times SAME_BODY's step: a marbled
face changes shade across it, and pips so close are on one face (an edge or a seam between them would show). Pips
further apart must sit on bodies alike within the step, or the ivory top face of a 1 and a side face in shade
beside it, seen through a noisy sensor, make a 2."""
SPILL = 3.0
"""A like pip on the same body this many pip spacings from the centre of a face of three pips or fewer is part
of it (a 2's far pip is 2.8 spacings from the other)."""
SIX_BEYOND_FOUR = np.array([(a, b) for a in (-1, 1) for b in (-3, 3)] + [(b, a) for a in (-1, 1) for b in (-3, 3)],
                           float)
"""Where, in the grid of a 4 made of two rows of a 6, the 6's third row lies..."""
NODE_SLACK = 0.5
"""...give or take this many spacings."""
GHOST = 0.45
"""Something at a free node standing out from its ring, toward the pips' colour, by this fraction of the weakest
pip's contrast with its body, or more, is a missed pip."""
GLARE_LEVEL = 250
GLARE_REACH = 1.8
"""The glare check looks this many pip spacings around the face's centre..."""
GLARE_FRACTION = 0.03
"""...and finds glare when this fraction of it is saturated."""

# ---------------------------------------------------------------------------------------------- lone pips
LONE_RING = 1.45
"""Around a lone pip the body check looks on a circle this many pip spacings out (a little under half the face;
from a 2's corner pip it reaches past the face)."""
LONE_EMPTY = 1.2
"""Around a lone pip nothing may stand out like a pip this many pip spacings out."""
LONE_ELONGATION = 1.6
"""A 1's pip is round: a longer lone blob is a mark, a glint or a side face's pip."""
LONE_SPACING_PER_PIP = 1.25
"""Around a lone pip, the pip spacing of its die is taken to be at least this many times the pip's diameter
(dice of several sizes may share a tray) where the die's outline and like pips on its body are looked for; the
body and the empty ring are looked for at the frame's spacing, since a 1's pip is often larger than others."""


@dataclass(frozen=True)
class FaceFound:
    """One die found by its pips, in working pixels."""

    center: tuple[float, float]
    size: float
    value: int | None
    confidence: float
    polarity: str
    pips: int
    slant: float = 1.0
    """Mean elongation of the pips: 1 for a face seen square on, more the more it is turned from the camera."""
    short_axis: tuple[float, float] = (1.0, 0.0)
    """The unit direction the pips are shortest along: a face turned from the camera is foreshortened along it."""
    beyond: tuple[int, ...] = ()
    """Like pips on the same body near the face, where a larger face would have more: the face has no value
    until each of them is found to belong to another die (pip_faces)."""
    pip_radius: float = 0.0
    """The median radius of its pips."""


class Judge:
    """Judges proposed faces among the pips of one frame (the working frame and a lightly blurred copy).
    `tray_step(points, colours)` gives how far colours seen at working-pixel points (n, 2) are from the empty tray
    there; `spacing` is the frame's typical pip spacing, which the caller may refine."""

    def __init__(self, pips: Pips, frame: np.ndarray, smooth: np.ndarray, tray_step, min_contrast: float,
                 threshold: float, spacing: float, square_to_edges: bool = False):
        """`square_to_edges`: faces of four pips or more must lie square to the edges around them (SQUARE_TO_EDGES),
        in a frame sized by its pips."""
        self.pips, self.frame, self.smooth, self.tray_step = pips, frame, smooth, tray_step
        self.min_contrast, self.threshold, self.spacing = min_contrast, threshold, spacing
        self.square_to_edges = square_to_edges
        self.discs = _discs(pips, smooth.shape[:2], 1.0)
        self.fringes = _discs(pips, smooth.shape[:2], PIP_FRINGE)
        self.body = _ring_colour(smooth, self.discs, pips.xy, pips.radius + np.maximum(0.6 * pips.radius, 2.0))
        """The body colour around each pip."""
        self.on_dice = tray_step(pips.xy, self.body) >= min_contrast
        """Which pips sit on something that differs from the tray. Others may be a pattern on the tray, or pips of
        a die as light as the tray: only faces seen square on may hold them, and of those only faces of four pips
        or more, whose layout is no accident, or faces with a die's outline around them..."""
        self.unoutlined: list[FaceFound] = []
        """...or faces read in every other way with a faint outline (FAINT_OUTLINE), kept here and not returned: a
        white die's soft shadow on a light grey tray. The reader shows them to die_net, and takes those it reads
        alike."""

    def _edges(self, window: tuple[slice, slice]) -> complex | None:
        """The grey gradients' magnitude-weighted mean of exp(4i angle) over the working pixels of `window` (None
        where nothing changes there): edges a quarter turn apart (a square's four sides) add up, and a round pip's
        cancel out. Worked out on the window and a pixel around it (Sobel's reach; at the frame's edge the window's
        border is the frame's): over the whole frame it took 7 ms, where the few faces asked about need a few hundred
        pixels each. A gradient's magnitude times exp(4i angle) is (dx + i dy)^4 over the magnitude cubed: summed so,
        in a third of the time of taking each angle."""
        rows, columns = window
        height, width = self.smooth.shape[:2]
        top, left = max(0, rows.start - 1), max(0, columns.start - 1)
        around = self.smooth[top:min(height, rows.stop + 1), left:min(width, columns.stop + 1)]
        grey = cv2.cvtColor(around, cv2.COLOR_BGR2GRAY).astype(np.float32)
        dx, dy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
        inner = (slice(rows.start - top, rows.stop - top), slice(columns.start - left, columns.stop - left))
        dx, dy = dx[inner], dy[inner]
        square = dx * dx + dy * dy
        magnitude = np.sqrt(square)
        total = float(magnitude.sum())
        if total <= 0.0:
            return None
        real, imaginary = dx * dx - dy * dy, 2 * dx * dy  # (dx + i dy)^2
        cube = np.maximum(square * magnitude, 1e-12)
        return complex(float(((real * real - imaginary * imaginary) / cube).sum()),
                       float((2 * real * imaginary / cube).sum())) / total

    def _askew(self, grid: Grid, least: float) -> bool:
        """Whether the edges within EDGE_REACH spacings of a face share a direction (their mean of exp(4i angle) is
        `least` long at least: EDGES_SHARED, EDGES_SHARED_OFF_DICE, EDGES_SHARED_CLEARLY) turned more than
        SQUARE_TO_EDGES degrees from the face's grid."""
        reach = EDGE_REACH * grid.spacing
        (x, y), (height, width) = grid.centre, self.smooth.shape[:2]
        window = (slice(max(0, int(y - reach)), min(height, int(y + reach) + 1)),
                  slice(max(0, int(x - reach)), min(width, int(x + reach) + 1)))
        mean = self._edges(window)
        if mean is None:
            return False
        (ax, ay) = grid.linear[0]
        turn = (cmath.phase(mean) - 4 * math.atan2(ay, ax) + math.pi) % (2 * math.pi) - math.pi
        return abs(mean) >= least and math.degrees(abs(turn) / 4) > SQUARE_TO_EDGES

    def face(self, group: np.ndarray, nodes: np.ndarray, close: bool = False, least: float = 0.0) -> FaceFound | None:
        """The die shown by pips `group` on grid `nodes` (k, 2), or None when it is not a die at all. A 2 whose
        pips are `close` for the frame's dice may be the centre and a corner of a 3 or a 5, or the side of a 4:
        where their other pips would be (3 spacings out along the diagonal; beside the pair) must then show nothing
        like a pip either; so must the places of a 6's other column beside a `close` 3. A 5 or a 6 with one pip
        missed (ONE_SHORT) is read only when something stands out where that pip belongs and the lines between
        all its pips, column to column too, cross only its body (a 3's column beside two touching dice's pips,
        with the dark gap where they meet, looks like a 6 a pip short); else it is None, not a face read as
        unsure. So is a face less sure than `least` (of no use to the caller: a
        pair not read is no die), checked as the confidence falls so that the costlier checks are spared."""
        pips = self.pips
        few = len(group) <= 3  # the fewer the pips, the less their layout says and the more the rest must
        value, missed = ONE_SHORT.get(face_mask(nodes), (len(group), None))
        unlike_tray = bool(self.on_dice[group].all())
        if not unlike_tray and pips.elongation[group].mean() > OFF_DICE_SLANT:
            return None
        grid = Grid(pips.xy[group].astype(np.float64), nodes)
        if grid.spacing < 1e-6 or (value == 6 and grid.aspect > SIX_ASPECT):
            return None
        if self.square_to_edges and len(group) >= 4 \
                and self._askew(grid, EDGES_SHARED if unlike_tray else EDGES_SHARED_OFF_DICE):
            return None
        colour = _median(self.body[group], axis=0)
        outline = self._outline(grid.centre, grid.spacing, colour) if few and not unlike_tray else 1.0
        if outline < FAINT_OUTLINE:
            return None
        unoutlined = outline < OUTLINE
        strength = float(pips.strength[group].min())
        tol = float(self._body_step(strength))
        probes = grid.at(BODY_OFFSETS)
        around, corners, among = self._body_around(probes, colour, tol, unlike_tray)
        if corners < 0.5 and not few and not self._like_pips(probes[-8:-4], group, tol):
            # pips set near the rounded corners: the probes past them fell on the bevel
            body, counted = self._shows_body(grid.at(NEAR_CORNERS), colour, tol, unlike_tray)
            corners = float(body[counted].all())
        if around < 0.5 or corners < 0.5 or among < 0.5:
            return None  # the body does not surround these pips (half a face, a side face, clutter), or does not
            # lie past the corner pips and between the pips (the gaps between a symbol's strokes)
        confidence = grid.fit * min(1.0, (around - 0.5) / (0.3 if few else 0.2))
        if confidence < least:
            return None
        radii = pips.radius[group]
        doubts = [
            radii.max() > UNALIKE * radii.min(),
            pips.elongation[group].max() > MAX_ELONGATION,  # a side face, seen at a slant
            few and pips.elongation[group].max() > ALIKE_ELONGATION * pips.elongation[group].min(),
            np.ptp(pips.colour[group], axis=0).max() > OTHER_COLOUR * tol,
            not self.stand_out(group),
            (few or not unlike_tray) and not self._alike(group),
            not TYPICAL_SPACING[0] * self.spacing <= grid.spacing <= TYPICAL_SPACING[1] * self.spacing,
            self._glare(grid.centre, grid.spacing, colour),
        ]
        confidence *= DOUBT ** sum(doubts)
        if not SPACING_PER_PIP[0] <= grid.spacing / (2 * float(_median(radii))) <= SPACING_PER_PIP[1]:
            confidence *= 0.2
        linked = self._links(group, nodes, every_pair=few or missed is not None)
        confidence *= min(1.0, max(0.0, (linked - 0.5) / 0.4) if few else linked / 0.5)
        if missed is not None and linked < 1.0:
            confidence = 0.0
        if confidence < least or self._seamed(group, nodes, colour):
            return None
        # a face smaller than the frame's may be part of a larger one: the reach is one of the frame's faces at least
        beyond = self._beyond(group, grid.centre, SPILL * max(grid.spacing, self.spacing)) if few else \
            self._square_on(group, self._beyond(group, grid.at(SIX_BEYOND_FOUR), NODE_SLACK * grid.spacing)) \
            if value == 4 else ()
        if len(group) == 2:  # or the centre and a corner of a 3 or a 5, or a 4's side, on a die larger than the
            # frame's others: their other pips lie past SPILL (a 4's other side 3.2 spacings from the 2's centre)
            corners = self._beyond(group, grid.at(3 * nodes), NODE_SLACK * grid.spacing)
            side = self._square_on(group, self._beyond(group, grid.at(beside(nodes)), NODE_SLACK * grid.spacing))
            beyond = tuple(sorted({*beyond, *corners, *side}))
        if missed is None:
            free = [completions(nodes)]
            if close:  # a 4's other side or a 6's other column beside it
                free.append(beside(nodes))
            if close and len(group) == 2:  # a 3's or a 5's far corners
                free.append(3 * nodes)
            free = np.vstack(free)
            confidence *= self._emptiness(group, grid.at(free))
        else:  # where the missed pip belongs, something must stand out as a missed pip does
            confidence *= 1.0 - self._emptiness(group, grid.at(GRID[missed][None]))
        found = self._found(group, grid.centre, grid.spacing, confidence, beyond, value)
        if (missed is not None and found.value is None) or confidence < least:
            return None
        if len(group) != 3 and self._askew(grid, EDGES_SHARED_CLEARLY):
            return None
        return self._unless_unoutlined(found, unoutlined)

    def stand_out(self, group: np.ndarray) -> bool:
        """Whether each of pips `group` differs from its body at its centre (FAINT_CENTRE), as a pip painted on it
        does."""
        return bool(self._standing_out[group].all())

    @functools.cached_property
    def _standing_out(self) -> np.ndarray:
        """Per pip, whether it differs from its body at its centre (`stand_out`), worked out once: every proposal
        asks (pip_faces._typical_spacing)."""
        pips = self.pips
        return np.abs(pips.colour - self.body).max(axis=1) >= FAINT_CENTRE * pips.strength

    def odd_pip(self, group: np.ndarray) -> bool:
        """Whether a face of four pips or more has one pip unlike all the others, fainter and wider (ODD_PIP): no
        face."""
        if len(group) < 4:
            return False
        strength, radius = self.pips.strength[group], self.pips.radius[group]
        faintest, *others = np.argsort(strength)
        return bool(_odd(strength[faintest], radius[faintest], strength[others], radius[others]))

    def lone(self, candidates: np.ndarray, least: float = 0.0) -> list[tuple[FaceFound, np.ndarray]]:
        """Of the candidate pips, those a face surrounds, each as a 1, read or not, with its pip, unless less sure
        than `least` (the checks run on all the candidates at once; only those that pass them are looked at one by
        one)."""
        pips = self.pips
        candidates = candidates[self.on_dice[candidates] | (pips.elongation[candidates] <= OFF_DICE_SLANT)]
        if not len(candidates):
            return []
        unlike_tray = self.on_dice[candidates]
        centre = pips.xy[candidates].astype(np.float64)
        colour, strength = self.body[candidates], pips.strength[candidates]
        tol = self._body_step(strength)
        probes = centre[:, None] + LONE_RING * self.spacing * _CIRCLE[None]
        h, w = self.smooth.shape[:2]
        inside = (probes[..., 0] >= 0) & (probes[..., 0] < w) & (probes[..., 1] >= 0) & (probes[..., 1] < h)
        seen = _sample(self.smooth, probes).astype(np.float32)
        off_body = np.abs(seen - colour[:, None]).max(axis=2)
        tray = self.tray_step(probes.reshape(-1, 2), seen.reshape(-1, 3)).reshape(off_body.shape)
        on_pip = _sample(self.discs, probes) != 0
        body_colour = inside & (off_body <= tol[:, None]) & ((off_body < tray) | ~unlike_tray[:, None])
        body = body_colour & ~on_pip  # on a die as light as the tray, an even body
        counted = inside.sum(axis=1)
        around = np.where(counted >= len(_CIRCLE) // 2, body.sum(axis=1) / np.maximum(counted, 1), 0.0)
        # a ring that shows the body's colour all round, on blobs unlike the pip too, is a die's body: looked at
        # only where all it lacks is the body's colour seen on pips' discs
        on_disc = on_pip & body_colour
        maybe = np.flatnonzero((body | on_disc | ~inside).all(axis=1) & on_disc.any(axis=1)
                               & (body.sum(axis=1) >= len(_CIRCLE) // 2))
        if len(maybe):
            unlike = self._on_unlike_pips(candidates[maybe], probes[maybe], on_disc[maybe])
            around[maybe[(body[maybe] | unlike | ~inside[maybe]).all(axis=1)]] = 1.0
        ghosts = self._ghosts(candidates, centre, colour, tol)
        confidence = np.clip((around - 0.5) / 0.4, 0.0, 1.0) * np.clip((0.55 - ghosts) / 0.2, 0.0, 1.0)
        confidence[pips.elongation[candidates] > LONE_ELONGATION] *= DOUBT
        found = []
        kept = (around >= 0.5) & (confidence >= least)
        for k, c in zip(candidates[kept], confidence[kept]):
            group, point = np.array([k]), pips.xy[k].astype(np.float64)
            own_spacing = max(self.spacing, LONE_SPACING_PER_PIP * 2 * pips.radius[k])  # its die may be larger
            unoutlined = False
            if not self.on_dice[k]:  # a round speck on the tray, or the tray's grain, unless a die's outline is around
                if c == 0:
                    continue
                crossings = self._outline_crossings(point, own_spacing, self.body[k])
                if np.isfinite(crossings).mean() < FAINT_OUTLINE:
                    continue
                unoutlined = not _centred(crossings)
            if c > 0 and self._glare(point, self.spacing, self.body[k]):
                c *= DOUBT
            if c < least:
                continue
            reach = SPILL * own_spacing
            beyond = self._beyond(group, point, reach) if c > 0 else ()  # a 2 whose other pip made no face?
            face = self._unless_unoutlined(self._found(group, point, self.spacing, float(c), beyond, 1), unoutlined)
            if face is not None:
                found.append((face, group))
        return found

    def _on_unlike_pips(self, candidates: np.ndarray, probes: np.ndarray, on_pip: np.ndarray) -> np.ndarray:
        """Of lone pips' ring probes (candidates x ring) on pips' discs (`on_pip`), those on blobs alone that can be
        no pip of the candidate's face: under WEAKEST_PIP of its strength and wider than UNALIKE times it. Beside an
        ivory 1 on a white tray (byler-d6's IMG_20191208_112332), the shading at the die's edge was found as two
        such blobs, at 0.4 of its pip's strength and 2.5 times its width, whose discs hid half its ring: the die
        was missed. Where the whole ring shows the body's colour, on such blobs too, they are taken for its body.
        Where it does not, they are not: on a smoky 3 whose two other pips barely show, they made its one pip found
        a 1 (at 0.71, with a network that never saw the photo), and on the gaps between a laptop's keys (under JPEG
        quality 30), a key's mark a 1 at 1.0."""
        pips = self.pips
        which, at = np.nonzero(on_pip)
        alone = np.zeros(on_pip.shape, bool)
        if not len(which):
            return alone
        own = candidates[which]
        offset = np.rint(probes[which, at])[:, None] - np.round(pips.xy)[None]
        covering = np.hypot(offset[..., 0], offset[..., 1]) <= np.round(pips.radius + 0.5) + 0.5  # as _discs draws
        covering[np.arange(len(own)), own] = False
        unlike = (pips.strength[None] < WEAKEST_PIP * pips.strength[own][:, None]) \
            & (pips.radius[None] > UNALIKE * pips.radius[own][:, None])
        alone[which, at] = covering.any(axis=1) & (unlike | ~covering).all(axis=1)
        return alone

    def _ghosts(self, candidates: np.ndarray, centre: np.ndarray, colour: np.ndarray, tol: np.ndarray) -> np.ndarray:
        """Per candidate lone pip (at `centre`, on a body of `colour`), the most that anything on a ring LONE_EMPTY
        spacings out stands out like it, over the pip's own strength: a 2's or a 3's pip missed by the threshold.
        A pip lighter than its body in one channel and darker in another (gold on blue, red on green) cuts the
        body, in the other channel, into strips narrower than the pip finder's kernel, which stand out all around
        the pip, if less than the pip itself: for such a pip, a ring point that stands out less counts only as far
        as its colour steps from the body toward the pip's (bench_reader_synthetic --three: 1s beside touching
        dice, sized from their blob). What stands out more than the pip is never cleared so: on a translucent die
        a faint blob between a 4's pips, lighter than its body where the pips are darker, was read as a 1."""
        pips = self.pips
        h, w = self.smooth.shape[:2]
        ring = _clip(centre[:, None, None] + LONE_EMPTY * self.spacing * _CIRCLE[None, ::2, None]
                     + _NUDGES[None, None], h, w)
        dark, light = (response[ring[..., 1], ring[..., 0]] for response in pips.responses)
        ghost = np.where(pips.polarity[candidates][:, None, None] == 0, dark, light) \
            / np.maximum(pips.strength[candidates], 1.0)[:, None, None]
        step = _sample(self.smooth, centre).astype(np.float32) - colour
        both_ways = (step.max(axis=1) > tol) & (step.min(axis=1) < -tol)
        if both_ways.any():
            shown = self.smooth[ring[..., 1], ring[..., 0]].astype(np.float32) - colour[:, None, None]
            toward = np.einsum("nabc,nc->nab", shown, step) / np.maximum((step * step).sum(axis=1), 1.0)[:, None, None]
            weaker = both_ways[:, None, None] & (ghost < 1.0)
            ghost[weaker] = np.minimum(ghost[weaker], toward[weaker])
        return ghost.reshape(len(candidates), -1).max(axis=1)

    def _unless_unoutlined(self, face: FaceFound, unoutlined: bool) -> FaceFound | None:
        """`face`, or None when it lacks the die's outline it needs (`unoutlined`): then, if read, it is kept in
        `self.unoutlined` for a second reader to confirm."""
        if not unoutlined:
            return face
        if face.value is not None:
            self.unoutlined.append(face)
        return None

    def marks_beside(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether pips `b` are of another colour than pips `a` (OTHER_COLOUR) on a body of theirs (within
        MARBLED steps), for index arrays that broadcast: such a blob is a glint or a speck on `a`'s die, no pip
        of its face. A neighbour's pip of another colour lies on the neighbour's body."""
        pips = self.pips
        tol = self._body_step(np.minimum(pips.strength[a], pips.strength[b]))
        return (np.abs(pips.colour[a] - pips.colour[b]).max(axis=-1) > OTHER_COLOUR * tol) \
            & (np.abs(self.body[a] - self.body[b]).max(axis=-1) <= MARBLED * tol)

    def _body_step(self, strength: float | np.ndarray) -> np.ndarray:
        """The most a body's colour changes and stays one body, around pips standing out by `strength` (SAME_BODY,
        and the profile's least contrast at least)."""
        return np.maximum(self.min_contrast, SAME_BODY * strength)

    def _found(self, group: np.ndarray, centre: np.ndarray, spacing: float, confidence: float,
               beyond: tuple[int, ...], pips: int) -> FaceFound:
        """The face of `pips` pips (with any missed, ONE_SHORT) shown by pips `group`."""
        polarity = POLARITY[int(self.pips.polarity[group[0]])]
        size = float(max(spacing, 0.6 * self.spacing) / SPACING_PER_FACE)
        value = pips if confidence >= self.threshold and not beyond else None
        xx, yy, xy = (float(m) for m in self.pips.shape[group].mean(axis=0))
        short = 0.5 * math.atan2(2 * xy, xx - yy) + math.pi / 2  # square to the long axis of the second moments
        return FaceFound((float(centre[0]), float(centre[1])), size, value, float(confidence), polarity, pips,
                         float(self.pips.elongation[group].mean()), (math.cos(short), math.sin(short)), beyond,
                         float(_median(self.pips.radius[group])))

    def _links(self, group: np.ndarray, nodes: np.ndarray, every_pair: bool) -> float:
        """The fraction of neighbouring pips of the face (or of `every_pair`) whose straight line crosses only their
        body (and other pips): between pips of two touching dice, or of a top and a side face, it crosses an edge
        or a seam. The bodies around pips whose rims meet need only be alike (MARBLED)."""
        i, j = neighbours(layout_key(nodes), 2 if every_pair else 1)
        if not len(i):
            return 1.0
        return float(self._joined(group[i], group[j]).mean())

    def _seamed(self, group: np.ndarray, nodes: np.ndarray, colour: np.ndarray) -> bool:
        """Whether the face's pips lie on two sides of it (either side of its middle row or column) and every line
        from one side to the other crosses a seam (SEAM) on a body of `colour`, or ends at a pip ringed by one (the
        dark spot where three dice's corners meet): they are two touching dice. In bench_pool's pools two 3s side
        by side, or a 3 beside a column of two dice's pips and such a spot, made a 6 at 1.0, and a 1's pip and the
        nearer pip of a 2 beside it a 2 at 0.5-0.8: _links looks only at neighbouring pips (a 6's two rows and a 4's
        two sides are two nodes apart), and only for a step as large as a marbled body may take. Touching dice of
        saturated colours (white pips on red, red on green) or light pips (whose seams only `_dipped` looks for) made
        2s of a 1's pip and a neighbour's at 0.7-1.0 (bench_reader_synthetic --three)."""
        one, other, side, splits = across(layout_key(nodes))
        if not splits:
            return False
        a, b = group[one], group[other]
        samples, off = self._between(a, b)
        seamed = self._in_seam(a, colour) | self._in_seam(b, colour) | self._shaded(a, b, colour, (samples, off)) \
            if self.pips.polarity[group[0]] == 0 else np.zeros(len(a), bool)  # (SEAM)
        if not seamed.all():
            rest = ~seamed
            seamed[rest] = self._dipped(a[rest], b[rest], colour, (samples[rest], off[rest]))
        return any(seamed[side == k].all() for k in range(splits))

    def _in_seam(self, k: np.ndarray, colour: np.ndarray, depth: float = SEAM) -> np.ndarray:
        """Whether the bodies around pips k are darker than `colour` as a seam is (`depth` of the body step)."""
        return (colour - self.body[k]).min(axis=1) > self._seam_step(self.pips.strength[k], depth)

    def _seam_step(self, strength: np.ndarray, depth: float = SEAM) -> np.ndarray:
        """How much darker than a face's body a seam is, around pips standing out by `strength`: `depth` of the body
        step, and the profile's least contrast at least (on a dark body, shade and marbling are no seam)."""
        return np.maximum(self.min_contrast, depth * self._body_step(strength))

    def _shaded(self, a: np.ndarray, b: np.ndarray, colour: np.ndarray, between=None) -> np.ndarray:
        """Whether the straight line between pips a[k] and b[k] crosses a seam (SEAM) on a body of `colour`, off
        the pips' rims (`between`: the line's `_between`, when taken already)."""
        samples, off = between if between is not None else self._between(a, b)
        darker = (colour - samples).min(axis=2)
        darker[off] = 0
        return darker.max(axis=1) > self._seam_step(np.minimum(self.pips.strength[a], self.pips.strength[b]))

    def _dipped(self, a: np.ndarray, b: np.ndarray, colour: np.ndarray, between=None) -> np.ndarray:
        """Whether the straight line between pips a[k] and b[k], off the pips' rims, crosses a seam in the channel
        where a body of `colour` is brightest: a valley a seam's step deep (SEAM) below the line on both sides of it,
        or a dip below the line's median deeper still (SEAM_DIP) where the line starts or ends in it. Measured along
        the line, not against the body's colour around the pips, which light pips' rims lighten; and in one channel,
        as a shadow darkens a saturated body where it has light to lose (a red die's bevel takes 50 levels off its
        red and few off its blue and green, which are dark already). A sample beside the rim of a pip the line
        crosses is left out too: that pip's halo lies there, darker than the body past a blurred dark pip (the
        middle pip of a 3, at three-quarter resolution). `between` as for `_shaded`."""
        samples, off = between if between is not None else self._between(a, b)
        ends = np.logical_and.accumulate(off, axis=1) | np.logical_and.accumulate(off[:, ::-1], axis=1)[:, ::-1]
        crossed = np.zeros((off.shape[0], off.shape[1] + 2), bool)  # np.pad's own overhead was most of this check
        crossed[:, 1:-1] = off & ~ends
        off = off | crossed[:, :-2] | crossed[:, 2:]
        line = samples[..., int(np.argmax(colour))].astype(np.float32)
        high, low = np.where(off, np.inf, line), np.where(off, -np.inf, line)  # uncounted: never the least, the most
        counted = (~off).sum(axis=1)
        ordered = np.sort(high, axis=1)
        ordered[counted == 0] = 0.0  # no sample counted: no dip
        rows = np.arange(len(line))
        median = (ordered[rows, np.maximum(counted - 1, 0) // 2] + ordered[rows, np.maximum(counted, 1) // 2]) / 2
        sides = np.minimum(np.maximum.accumulate(low, axis=1), np.maximum.accumulate(low[:, ::-1], axis=1)[:, ::-1])
        valley = (sides - high).max(axis=1)
        strength = np.minimum(self.pips.strength[a], self.pips.strength[b])
        return (valley > self._seam_step(strength)) | (median - ordered[:, 0] > self._seam_step(strength, SEAM_DIP))

    def _between(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The frame's colours (k, 2 * LINK_SAMPLES, 3) along the straight line between pips a[k] and b[k], and where
        they are on a pip's rim, or within SEAM_MARGIN of either pip, and so tell nothing of a seam."""
        pips = self.pips
        t = _steps(2 * LINK_SAMPLES)
        points = self._lines(a, b, t)
        length = np.hypot(*(pips.xy[b] - pips.xy[a]).T)[:, None]
        near_ends = np.minimum(t * length / pips.radius[a][:, None], (1 - t) * length / pips.radius[b][:, None])
        return _sample(self.frame, points), (_sample(self.fringes, points) != 0) | (near_ends < SEAM_MARGIN)

    def _lines(self, a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
        """The points (k, len(t), 2) at fractions `t` along each line from pip a[k] to pip b[k]."""
        return self.pips.xy[a][:, None] + t[None, :, None] * (self.pips.xy[b] - self.pips.xy[a])[:, None]

    def _joined(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether the straight line between pips a[k] and b[k] crosses only their body (and other pips)."""
        pips = self.pips
        tol = self._body_step(np.minimum(pips.strength[a], pips.strength[b]))
        points = self._lines(a, b, _steps(LINK_SAMPLES))
        shared = (self.body[a] + self.body[b]) / 2
        step = np.abs(_sample(self.frame, points).astype(np.float32) - shared[:, None]).max(axis=2)
        on_rims = _sample(self.fringes, points) != 0
        step[on_rims] = 0
        unlike = np.abs(self.body[a] - self.body[b]).max(axis=1)
        same_body = (unlike <= tol) | ((unlike <= MARBLED * tol) & on_rims.all(axis=1))
        return same_body & (step.max(axis=1) <= tol)

    def _beyond(self, group: np.ndarray, points: np.ndarray, reach: float) -> tuple[int, ...]:
        """The pips of the same polarity and no smaller (ALIKE; a side face's pips are, and drawn out; pips merged
        with each other or with glare are larger), or round and no smaller than UNALIKE allows (a pip seen square on
        is on a top face: beside a pip joined by a glint, or a column of a marbled 6 found a little smaller than the
        other), on a body of the same colour, within `reach` of any of `points` (k, 2): unless
        they belong to another die, the face is part of a larger one that was not made out (a 3 in a 6, a 2 on the
        side of a 4, a 1 of a 2, a 4 of two rows of a 6). The body colour is compared, not the line between the
        pips, since the face of a translucent or marbled die changes across it; a touching die of the same colour
        is told apart by the seam between (`_past_a_seam`) or by its own face (pip_faces). On a die as light (or as
        dark) as the tray, whose body colour says nothing, the pip must also be as strong and as round as a pip of the
        face (the die's shadow and bevel are fainter and long); and a face of two pips or more is not held by a pip
        much fainter and wider than its own (ODD_PIP)."""
        pips = self.pips
        ratio = pips.radius / float(_median(pips.radius[group]))
        distance = np.hypot(*(pips.xy[:, None] - np.atleast_2d(points)[None]).transpose(2, 0, 1)).min(axis=1)
        near = (distance < reach) & (pips.polarity == pips.polarity[group[0]]) \
            & ((ratio > 1 / ALIKE) | ((ratio > 1 / UNALIKE) & (pips.elongation <= OFF_DICE_SLANT))) \
            & ~((len(group) >= 2) & _odd(pips.strength, pips.radius, pips.strength[group], pips.radius[group]))
        if not self.on_dice[group].all():
            near &= (pips.strength >= WEAKEST_PIP * pips.strength[group].max()) \
                & (pips.elongation <= MAX_ELONGATION)
        near[group] = False
        colour = _median(self.body[group], axis=0)
        tol = self._body_step(np.minimum(pips.strength, pips.strength[group].min()))
        found = np.flatnonzero(near & (np.abs(self.body - colour).max(axis=1) <= tol))
        if len(found):
            found = found[~self._past_a_seam(group, found, colour)]
        return tuple(int(k) for k in found)

    def _past_a_seam(self, group: np.ndarray, k: np.ndarray, colour: np.ndarray) -> np.ndarray:
        """Which of pips k lie on another die than the face of pips `group` (its body `colour`): past a seam from
        the face's nearest pip, or ringed by one (SEAM), and round, on a face seen square on (OFF_DICE_SLANT: a
        side face's pips, drawn out, lie past the face's edge); or deep in a seam whatever their shape (twice SEAM: the
        dark spot where three dice's corners meet). In bench_pool's pools such pips held a 1 touching a 5 and a 6,
        and a 2 beside that spot, for good."""
        if self.pips.polarity[group[0]] != 0:  # dark pips only (SEAM)
            return np.zeros(len(k), bool)
        nearest = group[np.argmin(np.hypot(*(self.pips.xy[k][:, None] - self.pips.xy[group][None]).transpose(2, 0, 1)),
                                  axis=1)]
        round_ = self.pips.elongation[k] <= OFF_DICE_SLANT
        seamed = self._shaded(nearest, k, colour) | self._in_seam(k, colour)
        return seamed & round_ | self._in_seam(k, colour, 2 * SEAM)

    def _square_on(self, group: np.ndarray, beyond: tuple[int, ...]) -> tuple[int, ...]:
        """Of the pips where a larger face's would be just past this face's edge (a 6's third row beside a 4, a 4's
        other side beside a 2), those that may be: no longer than the face's pips (SLANT_MARGIN). A side face's
        pips, seen at a slant, line up there (a webcam leaning over an ivory 2 saw its side face's 6 there)."""
        longest = float(self.pips.elongation[group].max()) + SLANT_MARGIN
        return tuple(k for k in beyond if self.pips.elongation[k] <= longest)

    def _alike(self, group: np.ndarray) -> bool:
        """Whether the pips of a face are alike in strength and shape, as the paint of one face is (their colour
        is checked on every face)."""
        pips = self.pips
        strength, shape = pips.strength[group], pips.shape[group]
        return bool(strength.min() >= WEAKEST_PIP * strength.max()
                    and np.abs(shape[:, None] - shape[None]).max() <= SHAPE_SPREAD)

    def _glare(self, centre: np.ndarray, spacing: float, colour: np.ndarray) -> bool:
        """Saturated light on a face that is not itself white can hide pips (a 6 with a column washed out is a
        perfect 3): look over the whole face around the pips."""
        if colour.max() >= GLARE_LEVEL - 10:
            return False
        reach = int(round(GLARE_REACH * max(spacing, self.spacing)))
        x, y = (int(round(v)) for v in centre)
        return under_glare(self.smooth[max(0, y - reach):y + reach + 1, max(0, x - reach):x + reach + 1])

    def _outline(self, centre: np.ndarray, spacing: float, colour: np.ndarray) -> float:
        """The fraction of 16 rays out from `centre` on which something off the pips differs from the face's
        `colour` by the profile's least contrast or more, within OUTLINE_REACH (rays that leave the frame count as
        crossing nothing)."""
        return float(np.isfinite(self._outline_crossings(centre, spacing, colour)).mean())

    def _outline_crossings(self, centre: np.ndarray, spacing: float, colour: np.ndarray) -> np.ndarray:
        """Per ray of 16 out from `centre`, how far out (pixels) something off the pips first differs from the
        face's `colour` by the profile's least contrast or more, within OUTLINE_REACH (inf when nothing does, or
        the ray leaves the frame)."""
        reach = np.linspace(*OUTLINE_REACH, 10) * spacing
        points = centre + reach[None, :, None] * _CIRCLE[:, None, :]  # (rays, samples, 2)
        h, w = self.smooth.shape[:2]
        inside = (points[..., 0] >= 0) & (points[..., 0] < w) & (points[..., 1] >= 0) & (points[..., 1] < h)
        step = np.abs(_sample(self.smooth, points).astype(np.float32) - colour).max(axis=2)
        crossed = inside & (step >= self.min_contrast) & (_sample(self.fringes, points) == 0)
        return np.where(crossed.any(axis=1), reach[np.argmax(crossed, axis=1)], np.inf)

    def _emptiness(self, group: np.ndarray, free: np.ndarray) -> float:
        """1 when nothing at the free nodes stands out like a pip, 0 when something there stands out from its
        surroundings GHOST times as much as the weakest pip (a pip missed by the threshold makes another value).
        Colours are measured along the step from the pips' body to the pips: a missed pip stands out that way,
        while a translucent body's glow, in its own colour, hardly does. A node is compared with a ring around it,
        a pip's diameter out: a missed pip is a peak, while the middle between close pips, lit by their blurred
        rims, is no higher than its ring."""
        if not len(free):
            return 1.0
        pip_colours = _sample(self.smooth, self.pips.xy[group]).astype(np.float32)
        toward = _median(pip_colours, axis=0) - _median(self.body[group], axis=0)
        toward /= max(float(np.linalg.norm(toward)), 1e-6)
        contrast = float(((pip_colours - self.body[group]) @ toward).min())
        at_node = (_sample(self.smooth, free[:, None] + _NUDGES[None]).astype(np.float32) @ toward).max(axis=1)
        ring = free[:, None] + 2 * float(_median(self.pips.radius[group])) * _CIRCLE[None, ::2]
        around = _median(_sample(self.smooth, ring).astype(np.float32) @ toward, axis=1)
        ratio = float((at_node - around).max()) / max(contrast, 1.0)
        return min(1.0, max(0.0, (GHOST - ratio) / 0.2))

    def _like_pips(self, probes: np.ndarray, group: np.ndarray, tol: float) -> bool:
        """Whether half the probes or more show the colour of the pips of `group`: past the corner "pips" of a
        symbol, the gaps between its strokes, lies the die's body, of the gaps' colour."""
        seen = _sample(self.smooth, probes).astype(np.float32)
        return bool((np.abs(seen - _median(self.pips.colour[group], axis=0)).max(axis=1) <= tol).mean() >= 0.5)

    def _body_around(self, probes: np.ndarray, colour: np.ndarray, tol: float,
                     unlike_tray: bool) -> tuple[float, float, float]:
        """The fraction of the probe points off pips that show this die's body (`_shows_body`): of all of them, of
        the four past the corner pips and of the last four, among the pips (0 where under a third of them can be
        counted, the rest lying on large pips; 1 where none of the four can). Among the pips, a probe on a pip's
        blurred rim counts only where it shows the body: large pips set close leave little room between them."""
        body, counted = self._shows_body(probes, colour, tol, unlike_tray)
        around = float(body.sum() / counted.sum()) if counted.sum() >= len(probes) // 3 else 0.0
        judged = counted.copy()
        judged[-4:] &= (_sample(self.fringes, probes[-4:]) == 0) | body[-4:]
        corners, among = (float(body[k].sum() / judged[k].sum()) if judged[k].any() else 1.0
                          for k in (slice(-8, -4), slice(-4, None)))
        return around, corners, among

    def _shows_body(self, probes: np.ndarray, colour: np.ndarray, tol: float,
                    unlike_tray: bool) -> tuple[np.ndarray, np.ndarray]:
        """Per probe point, whether it shows this die's body (within `tol` of its colour and, when the body is
        `unlike_tray`, nearer its colour than the tray's: a die as light as the tray can only be told by its body
        being even), and whether it counts at all (inside the frame and off the pips)."""
        h, w = self.smooth.shape[:2]
        inside = (probes[:, 0] >= 0) & (probes[:, 0] < w) & (probes[:, 1] >= 0) & (probes[:, 1] < h)
        counted = inside & (_sample(self.discs, probes) == 0)
        seen = _sample(self.smooth, probes).astype(np.float32)
        off_body = np.abs(seen - colour).max(axis=1)
        body = counted & (off_body <= tol)
        if unlike_tray:
            body &= off_body < self.tray_step(probes, seen)
        return body, counted


def under_glare(face: np.ndarray) -> bool:
    """Whether saturated light (GLARE_LEVEL in every channel) covers more than GLARE_FRACTION of a face's
    region (BGR), where it may hide pips."""
    return face.size > 0 and float((face.min(axis=2) >= GLARE_LEVEL).mean()) > GLARE_FRACTION


_NUDGES = np.array([(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)], float)
"""A point is looked at here and a pixel around, so that a pip a little off it is not missed."""
_CIRCLE = np.column_stack([np.cos(np.arange(16) * (math.pi / 8)), np.sin(np.arange(16) * (math.pi / 8))])


def _odd(strength, radius, face_strength: np.ndarray, face_radius: np.ndarray):
    """Whether pips of `strength` and `radius` are unlike a face's pips (`face_strength`, `face_radius`) as ODD_PIP
    says: fainter than its first part of the face's faintest pip, and wider than its second times their median."""
    return (strength < ODD_PIP[0] * face_strength.min()) & (radius > ODD_PIP[1] * float(_median(face_radius)))


def _centred(distance: np.ndarray) -> bool:
    """Whether a point lies in the middle of an outline, given how far out it crosses each ray of 16
    (Judge._outline_crossings): crossed on OUTLINE of the rays, as far out on each side (OUTLINE_CENTRED) on all
    but two of the lines through it where both rays cross."""
    if np.isfinite(distance).mean() < OUTLINE:
        return False
    ahead, behind = np.split(distance, 2)  # _CIRCLE's second half points the other way
    both = np.isfinite(ahead) & np.isfinite(behind)
    return bool(both.sum() >= len(ahead) - 2 and np.all(
        np.abs(ahead[both] - behind[both]) <= OUTLINE_CENTRED * (ahead[both] + behind[both]) / 2))


@functools.lru_cache(maxsize=None)
def _steps(samples: int) -> np.ndarray:
    """`samples` fractions evenly spaced between 0 and 1, both left out (worked out once: every line between pips
    asks for them)."""
    steps = np.linspace(0.0, 1.0, samples + 2)[1:-1]
    steps.flags.writeable = False
    return steps


def _clip(points: np.ndarray, h: int, w: int) -> np.ndarray:
    """Points rounded to the nearest pixel inside an image h x w, as integer (x, y)."""
    return np.minimum(np.maximum(np.rint(points), 0), (w - 1, h - 1)).astype(np.intp)


def _median(values: np.ndarray, axis: int | None = None) -> np.ndarray:
    """np.median, for the few values of one face: there np.median's own overhead was most of the judge's time."""
    ordered = np.sort(values, axis=axis)
    if axis is None:
        ordered, axis = ordered.ravel(), 0
    count = ordered.shape[axis]
    return (np.take(ordered, (count - 1) // 2, axis=axis) + np.take(ordered, count // 2, axis=axis)) / 2


def _sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    xy = _clip(points, *image.shape[:2])
    return image[xy[..., 1], xy[..., 0]]


def _ring_colour(smooth: np.ndarray, discs: np.ndarray, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Median colour of 8 points around each pip, off other pips (all 8 when every one is on a pip): the body
    the pip sits on."""
    ring = centres[:, None, :] + radii[:, None, None] * _CIRCLE[None, ::2]
    colours = _sample(smooth, ring).astype(np.float32)
    off_pip = _sample(discs, ring) == 0
    counted = off_pip | ~off_pip.any(axis=1, keepdims=True)
    ordered = np.sort(np.where(counted[..., None], colours, np.inf), axis=1)  # uncounted last
    n = counted.sum(axis=1)
    low, high = ((n - 1) // 2)[:, None, None], (n // 2)[:, None, None]
    return (np.take_along_axis(ordered, low, axis=1) + np.take_along_axis(ordered, high, axis=1))[:, 0] / 2


def _discs(pips: Pips, shape, grow: float) -> np.ndarray:
    """A mask of every pip, its radius grown `grow` times."""
    mask = np.zeros(shape, np.uint8)
    centres, radii = np.round(pips.xy).astype(int).tolist(), np.round(grow * pips.radius + 0.5).astype(int).tolist()
    for centre, radius in zip(centres, radii):  # rounded as Python's round does, halves to even
        cv2.circle(mask, centre, radius, 1, -1)
    return mask
