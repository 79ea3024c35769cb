"""A d6 face's layout: its pips on the nodes of a 3x3 grid, and the affine map from that grid to the pixels, fitted
to the pips (a face seen at a slant is a parallelogram, and many 6s have their columns closer than their rows).

What is worked out once per layout (a face's nodes in order) is cached on its bytes (`layout_key`): faces share few
layouts, and the judge (face_judge) and the proposals (pip_faces) ask for them thousands of times a frame.
"""
from __future__ import annotations

import functools
import math

import numpy as np

GRID = np.array([(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1)], float)
"""The 3x3 grid nodes (x, y); node k is bit k of an occupancy mask."""
FACE_MASKS = {0b100000001: 2, 0b100010001: 3, 0b101000101: 4, 0b101010101: 5, 0b101101101: 6, 0b111000111: 6}
"""3x3 node occupancy bitmask (bit 3*(y+1)+(x+1)) -> value, for every face that has the corners (-1,-1), (1,1)."""
ONE_SHORT = {face & ~(1 << k): (value, k) for face, value in FACE_MASKS.items() if value >= 5
             for k in range(1, 8) if face >> k & 1 and face & ~(1 << k) not in FACE_MASKS}
"""Masks of a 5 or a 6 with one pip missed (glinting translucent dice lose one often) -> (value, the missed pip's
node): their layout allows no other face, while a 4 with a pip missed may be part of a 4, a 5 or a 6. Corners
(-1,-1) and (1,1) stay: a proposal has them, and one missing either has its other diagonal to be proposed by."""
FIT_SLACK = (0.12, 0.25)
"""The affine fit's worst pip residual, in pip spacings: below the first the fit is perfect, past the sum none."""
MAX_ASPECT = 2.2
"""A face's grid may be this much longer one way than the other (a slanted view, a 6 with close columns)."""


class Grid:
    """The affine map from a face's grid coordinates to pixels, fitted to its pips on their nodes."""

    def __init__(self, points: np.ndarray, nodes: np.ndarray):
        design, solve = _least_squares(layout_key(nodes))
        affine = solve @ points  # rows: e1, e2, centre
        if len(points) <= 3:  # pips on one diagonal fix only that diagonal: the face is taken square
            diagonal = nodes.sum(axis=1)
            half = (points[np.argmax(diagonal)] - points[np.argmin(diagonal)]) / 2
            affine[:2] = np.array([(half[0] + half[1], half[1] - half[0]), (half[0] - half[1], half[0] + half[1])]) / 2
        self.linear, self.centre = affine[:2], affine[2]
        (a, b), (c, d) = self.linear.tolist()
        area, squares = abs(a * d - b * c), a * a + b * b + c * c + d * d
        self.spacing = math.sqrt(area)
        """The pip spacing (the geometric mean of the two axes: their product is the map's determinant)."""
        # the longer axis: the two axes' squares sum to `squares` and multiply to area squared
        long_axis = math.sqrt((squares + math.sqrt(max(squares * squares - 4 * area * area, 0.0))) / 2)
        residual = float(np.sqrt(((design @ affine - points) ** 2).sum(axis=1)).max()) / max(self.spacing, 1e-6)
        self.aspect = long_axis * long_axis / max(area, 1e-12)
        """The longer axis over the shorter (the longer squared over the area)."""
        self.fit = min(1.0, max(0.0, 1.0 - (residual - FIT_SLACK[0]) / FIT_SLACK[1])) \
            if self.aspect <= MAX_ASPECT else 0.0
        """1 when the pips sit on their nodes, 0 when they are off by FIT_SLACK's sum or the grid is squashed."""

    def at(self, offsets: np.ndarray) -> np.ndarray:
        """Pixels at grid coordinates (k, 2)."""
        return offsets @ self.linear + self.centre


def layout_key(nodes: np.ndarray) -> bytes:
    """A face's grid nodes (k, 2) as float64 bytes: the key of what is worked out once per layout (the affine fit's
    solve, the mask, the pairs its lines are checked along). Faces share few layouts (179 over the development
    photos, counting each order of the nodes)."""
    return np.asarray(nodes, np.float64).tobytes()


def _nodes(layout: bytes) -> np.ndarray:
    """The grid nodes (k, 2) of a `layout_key`."""
    return np.frombuffer(layout).reshape(-1, 2)


@functools.lru_cache(maxsize=4096)
def _least_squares(layout: bytes) -> tuple[np.ndarray, np.ndarray]:
    """For a face's layout (`layout_key`), the design matrix [x, y, 1] of the affine fit and its pseudo-inverse, which
    maps the pips' points to the least-squares affine (the least-norm one where the nodes leave it open). Solved
    once per layout: a least-squares solve per face took a third of the judging."""
    nodes = _nodes(layout)
    design = np.column_stack([nodes, np.ones(len(nodes))])
    solve = np.linalg.pinv(design)
    design.flags.writeable = solve.flags.writeable = False  # shared by every face of that layout
    return design, solve


@functools.lru_cache(maxsize=4096)
def neighbours(layout: bytes, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """For a face's layout (`layout_key`), the pairs of its pips (indices into it, i < j) whose nodes lie within
    `reach` of each other along both axes (face_judge.Judge._links)."""
    nodes = _nodes(layout)
    i, j = np.nonzero(np.triu(np.abs(nodes[:, None] - nodes[None]).max(axis=2) <= reach, 1))
    i.flags.writeable = j.flags.writeable = False
    return i, j


@functools.lru_cache(maxsize=4096)
def across(layout: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """For a face's layout (`layout_key`), the pairs of its pips (indices into it) that lie on the two sides of its
    middle column, then of its middle row: each pip on one side with each on the other, each pair's split (0, 1),
    and how many splits there are (a 2's or a 3's two are the same, and taken once; a face with no pip off its
    middle has none) (face_judge.Judge._seamed)."""
    nodes = _nodes(layout)
    splits = []
    for axis in (0, 1):
        split = (tuple(np.flatnonzero(nodes[:, axis] < 0)), tuple(np.flatnonzero(nodes[:, axis] > 0)))
        if split[0] and split[1] and split not in splits:
            splits.append(split)
    one = np.array([i for left, right in splits for i in left for _ in right], np.intp)
    other = np.array([j for left, right in splits for _ in left for j in right], np.intp)
    side = np.array([k for k, (left, right) in enumerate(splits) for _ in left for _ in right], np.intp)
    for array in (one, other, side):
        array.flags.writeable = False
    return one, other, side, len(splits)


def completions(nodes: np.ndarray) -> np.ndarray:
    """The free nodes that would make this face a larger one if a pip were missed there."""
    mask = face_mask(nodes)
    missing = 0
    for larger in FACE_MASKS:
        if larger & mask == mask and larger != mask:
            missing |= larger & ~mask
    return np.array([GRID[k] for k in range(9) if missing >> k & 1], float).reshape(-1, 2)


def face_mask(nodes: np.ndarray) -> int:
    """The occupancy mask (FACE_MASKS) of grid nodes (k, 2)."""
    return _mask(layout_key(nodes))


@functools.lru_cache(maxsize=4096)
def _mask(layout: bytes) -> int:
    """face_mask of a face's layout (`layout_key`): the judge asks for a face's mask several times."""
    return sum(1 << int(3 * (y + 1) + (x + 1)) for x, y in _nodes(layout))


def beside(nodes: np.ndarray) -> np.ndarray:
    """For a 2's or a 3's nodes (on the diagonal from (-1, -1) to (1, 1)), where the 4's other side or the 6's
    other column would be, on either side, if the 2 were a 4's side or the 3 a 6's column: two spacings of a 4 or
    a 6 away, square to the diagonal."""
    step = np.array([2.0, -2.0])
    return np.vstack([nodes + step, nodes - step])
