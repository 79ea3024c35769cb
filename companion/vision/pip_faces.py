"""Group pips into d6 faces by geometry: propose every face the pips allow, judge each, keep the best.

Every face of two pips or more has two pips on opposite corners of its 3x3 grid, so each pair of like pips at a
plausible distance proposes a square face whose grid is then known; faces of four or more also have three corners,
and each such triple proposes a parallelogram (a face seen at a slant, or a 6 whose columns are closer than its
rows). A proposal holds when the pips near its grid's nodes make a d6 face and no other pip lies on the face off
the nodes. Proposals are judged (face_judge.Judge) most pips first, then most confident, and a pip belongs to one
face only: a 4 is read before the two perfect 2s it holds, and a smaller face inside a larger one that could not
be read is not read either. Pips left over are 1s when they pass the lone-pip checks. Of two faces too close to
belong to two dice, the one seen more squarely is the top face; so is it of two faces a little further apart that
are both foreshortened along the line between them, as a top face and the side face beside it are when the camera
looks at the dice from an angle. Grouping by geometry needs no test of the body colour between pips, so marbled
and translucent dice are grouped like plain ones.

A face of four pips or fewer with like pips near it on a body of its colour may be part of a larger face not made
out (a 3 of a 6, a 4 of two rows of a 6, a 1 of a 2), or a die touching another of its colour: it is held until
the other faces are known, and read only when every such pip belongs to another die's face (face_judge.FaceFound
.beyond). Two touching dice of one colour each hold the other's pips, so held faces may explain each other.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .face_grid import FACE_MASKS, ONE_SHORT, face_mask
from .face_judge import ALIKE, FALLBACK_SPACING, SLANT_MARGIN, SPACING_PER_FACE, FaceFound, Judge
from .pips import Pips

NEIGHBOURS = 10
"""Like pips looked at around each pip: a face has at most 6, the rest is room for clutter."""
DIAGONAL = (0.3, 1.05)
"""A face's corner-to-corner diagonal (2*sqrt(2) pip spacings) over the die body's size as found: 0.76 on a common
die, wide because the body size takes in shadows and side faces, and dice of several sizes share a tray..."""
FEW_DIAGONAL = 0.3
"""...at least this for a face of three pips or fewer, whose layout says less (a 6's column makes a smaller one;
a 4's side is held by the 4's other pips when they are found: face_judge.FaceFound.beyond)..."""
CLOSE_DIAGONAL = 0.35
"""...and a 2 under this may be the centre and a corner of a 3 or a 5, or the side of a 4, whose other pips were
missed: it is read only when nothing stands out where they would be (face_judge.Judge.face's `close`)..."""
SIDE_OF_A_FOUR = 0.8
"""...as is a 2 whose pip spacing is under this much of the frame's: a 4's side taken for a 2's diagonal has 0.71
of its spacing (a black 4 whose other column a glint along the edge hid, read as a 2 in a sharper photo)."""
ACROSS_SEAM = 0.25
"""A face without a centre pip (2, 4 or 6) centred within this many die sizes of the seam between two touching dice
(and on the row) is made of both dice's pips."""
ROW_OF_A_SIX = 0.8
"""A 3 whose pip spacing is under this much of the frame's may be a 6's column (whose pips, set along a line, make a
perfect 3 with 0.71 of the 6's spacing) with the other column missed: it is read only when nothing stands out
where that column would be (a red 6 under lens blur, its second column merged with its rim, read as a 3 at 1.0)."""
SIDE = (0.21, 0.8)
"""A face's side from corner pip to corner pip (2 pip spacings) over the die body's size."""
NODE_REACH = 0.32
"""A pip within this many spacings of a grid node sits on it."""
FACE_REACH = 1.55
"""A pip on dice this close to the centre along both grid axes (in spacings), and alike in size
(face_judge.ALIKE), is on the face: off a node, it breaks the face..."""
INSIDE = 1.2
"""...and so does any like pip on dice this close, whatever its size: it lies among the face's pips."""
SAME_DIE = 0.55
"""Faces whose centres are nearer than this many face sizes are one die found twice..."""
SIDE_FACE_REACH = 1.1
"""...and nearer than this, two faces of one die..."""
SIDE_BESIDE_REACH = 1.4
"""...and so are faces nearer than this, of which the less round (by SIDE_BESIDE_MARGIN) lies beside the other
along the direction both are foreshortened in (within SIDE_BESIDE_ANGLE): seen from an angle, a top face and the
side face turned toward the camera are both shortened along the line between them, while a die tilted against a
neighbour lying flat is shortened alone. The side face's centre lies further out the more the camera leans."""
SIDE_BESIDE_MARGIN = 0.1
SIDE_BESIDE_ANGLE = 25.0
SIDE_BESIDE_TOP = 1.1
"""The top face is foreshortened too: a side face shows its pips only to a camera leaning 30 degrees or more, which
makes the top face's pips 1.15 long (1 / cos 30); the short axis of rounder pips is noise."""
SQUARE_ON = 1.6
"""An unread face whose pips are longer than this is taken for a side face."""
TWO_DICE = 0.9
"""Faces whose centres are this many face sizes apart or more (of the larger face, or of the frame's typical face,
whichever is larger) are on two dice: touching dice lie a face apart, while the parts of one face (two rows of a 6,
two sides of a 4) lie half a face apart at most, and a face made of a die's pip and a dark seam between dice lies
between those dice."""
OFF_DICE_FACES = 3
"""Proposals of four pips or more off dice that give the frame's pip spacing when none on dice does (one or two
may be clutter)."""
CLEAR = 0.75
"""Beside dice of its colour, a face is read, and its pips tell another face's neighbours apart, only when it is
this sure at least: a face made across touching dice (of a pip of each, or of a pip and the dark gap where their
corners meet) is rarely clear of every doubt."""
_NODES_IN_MASK = np.array([bin(mask).count("1") for mask in range(1 << 9)])
"""How many of a face grid's nine nodes each occupancy mask (face_grid.face_mask) holds."""
_A_FACE = np.array([mask in FACE_MASKS or mask in ONE_SHORT for mask in range(1 << 9)])
"""Which occupancy masks are a d6 face, or a 5 or a 6 with one pip missed (ONE_SHORT)."""


def dice_from_pips(pips: Pips, frame: np.ndarray, tray_step, die_px: float, min_contrast: float,
                   threshold: float, seams: tuple[Seam, ...] = (), square_to_edges: bool = False
                   ) -> tuple[list[FaceFound], list[FaceFound]]:
    """The dice these pips make in `frame` (the working frame, a die body about `die_px` across), and the faces
    read but for the die's outline (face_judge.Judge.unoutlined), for a second reader to confirm; `tray_step` and
    `square_to_edges` as for face_judge.Judge. No face without a centre pip is made across any of `seams`, where a
    row's dice meet (ACROSS_SEAM)."""
    if not len(pips):
        return [], []
    smooth = cv2.GaussianBlur(frame, (3, 3), 0)
    judge = Judge(pips, frame, smooth, tray_step, min_contrast, threshold, FALLBACK_SPACING * die_px, square_to_edges)
    proposals = [p for p in _proposals(judge, die_px) if not judge.odd_pip(p[0])]
    proposals = [p for p in proposals if not any(seam.holds(pips.xy[p[0]], die_px) for seam in seams)]
    judge.spacing = _typical_spacing(proposals, judge)
    chosen = _Chosen(pips, judge.spacing / SPACING_PER_FACE)
    unread, unmade, held = [], [], []
    for count in (6, 5, 4, 3, 2):  # most pips first: a face inside a read one is never judged
        judged = [(judge.face(group, nodes, close=_close(count, spacing, die_px, judge.spacing),
                              least=threshold if count == 2 else 0.0),
                   group) for group, nodes, spacing in proposals if len(group) == count and not chosen.holds(group)]
        # a face not read, or of a die as light as the tray (whose body check cannot pass), holds no smaller face
        unmade += [set(group) for face, group in judged
                   if (face is None and not judge.on_dice[group].any()) or (face and face.value is None)]
        for face, group in sorted([fg for fg in judged if fg[0]], key=lambda fg: fg[0].confidence, reverse=True):
            if chosen.holds(group) or chosen.near(face, SAME_DIE):
                continue
            if face.value is None and not (face.beyond and face.confidence >= threshold):
                unread.append((face, group))
            elif any(set(group) < other for other in unmade):
                chosen.used[group] = True  # part of a larger face that was not made out (two columns of a 6): no 1s
            elif face.value is None:
                held.append((face, group))  # read when the like pips near it are another die's
            else:
                chosen.add(face, group)
    unread += [(replace(face, confidence=0.0), group) for face, group in _beside_other_dice(held, chosen)]
    for face, group in sorted(unread, key=lambda fg: (-fg[0].pips, -fg[0].confidence)):
        # an unread face of three pips or more, seen square on, is a die not made out; a pair is no sure die, and
        # a face seen at a slant is a side face
        if face.pips >= 3 and face.slant <= SQUARE_ON and not chosen.holds(group) and not chosen.near(face, SAME_DIE):
            chosen.add(face, group)
    ones = judge.lone(np.flatnonzero(~chosen.used), least=threshold)  # a 1 not sure enough is no die
    for face, group in ones:
        if face.value is not None and not chosen.near(face, SAME_DIE):
            chosen.add(face, group)
    _beside_other_dice([(f, g) for f, g in ones if f.beyond and f.confidence >= threshold], chosen, among_held=False)
    return top_faces(chosen.faces), judge.unoutlined


class _Chosen:
    """The faces read so far, and which pips they hold."""

    def __init__(self, pips: Pips, typical_size: float):
        self.pips = pips
        self.faces: list[FaceFound] = []
        self.owner = np.full(len(pips), -1)
        """The index of the face each pip belongs to, or -1."""
        self.used = np.zeros(len(pips), bool)
        """Pips of a face read, or of a larger face not made out: no smaller face is made of them."""
        self.typical_size = typical_size

    def add(self, face: FaceFound, group: np.ndarray) -> None:
        self.owner[group] = len(self.faces)
        self.used[group] = True
        self.faces.append(face)

    def holds(self, group: np.ndarray) -> bool:
        return bool(self.used[group].any())

    def near(self, face: FaceFound, reach: float) -> bool:
        return any(_same_die(face, other, reach) for other in self.faces)

    @functools.cached_property
    def twins(self) -> np.ndarray:
        """Each pip's twin of the other polarity, or -1 (`_twins`): asked for only where a face is held."""
        return _twins(self.pips)

    def another_die(self, face: FaceFound, pip: int) -> bool:
        """Whether `pip` belongs to a face of two pips or more read on another die than `face`'s (a 1 is too
        little to tell a 2's two pips from two dice). A pip read as its twin of the other polarity belongs to that
        twin's face: a neighbour's red pips on a green die are found both ways, and with its face read of one way's,
        a pip of the other way's held a 2 beside it (bench_reader_synthetic --three)."""
        other = self.owner[pip] if self.owner[pip] >= 0 or self.twins[pip] < 0 else self.owner[self.twins[pip]]
        return other >= 0 and self.faces[other].pips >= 2 and self.faces[other].confidence >= CLEAR \
            and self.two_dice(face, self.faces[other])

    def two_dice(self, a: FaceFound, b: FaceFound) -> bool:
        return math.dist(a.center, b.center) >= TWO_DICE * max(a.size, b.size, self.typical_size)


def _twins(pips: Pips) -> np.ndarray:
    """Per pip, the pip of the other polarity found at its place (within the smaller one's radius), or -1: a pip
    lighter than its die in one channel and darker in another (red on green) is found both ways."""
    distance = np.hypot(*(pips.xy[:, None] - pips.xy[None]).transpose(2, 0, 1))
    twin = (pips.polarity[:, None] != pips.polarity[None]) \
        & (distance < np.minimum(pips.radius[:, None], pips.radius[None]))
    return np.where(twin.any(axis=1), np.argmax(twin, axis=1), -1)


def _beside_other_dice(held, chosen: _Chosen, among_held: bool = True):
    """Of faces confident on their own but with like pips near them on a body of the same colour (`held`, as
    (face, group), most pips first), read (and add to `chosen`) those whose every such pip belongs to another
    die's face: a face read already or, when `among_held`, another held face read in turn (two touching dice of
    one colour each hold the other's pips). Returns the others."""
    def explained(face, group, others) -> bool:
        return all(chosen.another_die(face, pip) or any(pip in g and not set(g) & set(group) and
                                                         chosen.two_dice(face, f) for f, g in others)
                   for pip in face.beyond)

    def explained_only(faces, explaining):
        while True:  # drop the faces not explained by those `explaining` the faces kept, until none is
            others = explaining(faces) if among_held else []
            kept = [(f, g) for f, g in faces if explained(f, g, others)]
            if len(kept) == len(faces):
                return kept
            faces = kept

    def on_dice_of(faces):
        """The candidates on the same dice as `faces`: a die whose pips are found in both polarities (red on
        green) has a face of each, and either may hold a neighbour's pips."""
        return [(f, g) for f, g in candidates if any(_same_die(f, face, SAME_DIE) for face, _ in faces)]

    # pips of a held face may be marked used by a smaller face inside it: only a face read takes them
    candidates = explained_only([(f, g) for f, g in held if f.confidence >= CLEAR and (chosen.owner[g] < 0).all()
                                 and not chosen.near(f, SAME_DIE)], lambda faces: faces)
    accepted = []
    for face, group in candidates:  # one face per pip and per die
        if not any(set(group) & set(g) or _same_die(face, f, SAME_DIE) for f, g in accepted):
            accepted.append((face, group))
    accepted = explained_only(accepted, on_dice_of)
    for face, group in accepted:
        chosen.add(replace(face, value=face.pips, beyond=()), group)
    return [fg for fg in held if not any(fg is a for a in accepted)]


def _typical_spacing(proposals, judge: Judge) -> float:
    """The frame's pip spacing: the median over the proposals on dice that say most about it (four pips or more,
    else three); without any, over the proposals of four pips or more off dice when there are OFF_DICE_FACES of
    them (dice as light as the tray: the judge's own, a fraction of the die size found from their shadows, misjudged
    their spacing by 1.6 times, and so doubted every face); else the judge's own. Faces a pip short (ONE_SHORT) are
    left out: they are judged against this spacing. So are proposals with a blob of its body's colour
    (Judge.stand_out): on a green die with red pips, the green between a 5's pips stands out as light blobs in the
    green channel, which lined up with its middle pip as a 3 of two thirds its spacing, and set the frame's; a 2 of
    the die beside it, its pips too far apart for that, was read as two 1s at 1.0 (bench_reader_synthetic
    --unlike)."""
    on_dice, fallback = judge.on_dice, judge.spacing
    proposals = [(group, nodes, spacing) for group, nodes, spacing in proposals
                 if face_mask(nodes) not in ONE_SHORT and judge.stand_out(group)]
    found = [(group, spacing) for group, _, spacing in proposals if on_dice[group].all()]
    most = max((len(group) for group, _ in found), default=0)
    spacings = [spacing for group, spacing in found if len(group) >= min(4, most) >= 3]
    if not spacings:
        spacings = [spacing for group, _, spacing in proposals if len(group) >= 4]
        spacings = spacings if len(spacings) >= OFF_DICE_FACES else []
    return float(np.median(spacings)) if spacings else fallback


def top_faces(faces: list[FaceFound]) -> list[FaceFound]:
    """Of two faces too close to be the top faces of two dice, the one seen more squarely (rounder pips) is a top
    face and the other a side face of the same die, seen at a slant (SIDE_FACE_REACH, SIDE_BESIDE_REACH)."""
    kept: list[FaceFound] = []
    for face in sorted(faces, key=lambda f: f.slant):
        if not any(_same_die(face, k, SIDE_FACE_REACH) and face.slant > k.slant + SLANT_MARGIN
                   or _side_beside(face, k) for k in kept):
            kept.append(face)
    return kept


def _side_beside(side: FaceFound, top: FaceFound) -> bool:
    """Whether `side` is the side face beside `top` that a camera looking from an angle sees (SIDE_BESIDE_REACH).
    A lone pip's shape says too little for it to be taken for a side face."""
    dx, dy = top.center[0] - side.center[0], top.center[1] - side.center[1]
    distance = math.hypot(dx, dy)
    along = math.cos(math.radians(SIDE_BESIDE_ANGLE)) * distance  # |short axis . (dx, dy)| at the widest angle
    return side.pips >= 2 and 0 < distance < SIDE_BESIDE_REACH * max(side.size, top.size) \
        and side.slant > top.slant + SIDE_BESIDE_MARGIN and top.slant >= SIDE_BESIDE_TOP \
        and all(abs(face.short_axis[0] * dx + face.short_axis[1] * dy) >= along for face in (side, top))


def _same_die(a: FaceFound, b: FaceFound, reach: float) -> bool:
    return math.dist(a.center, b.center) < reach * max(a.size, b.size)


def _proposals(judge: Judge, die_px: float) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """(pip indices, their grid nodes, pip spacing) of every face the judge's pips allow, each pip set once. Only
    pips on dice (`judge.on_dice`) can break a face by lying on it off its nodes, or any pip when the face is off
    dice; and no glint or speck of another colour on the face's body (`judge.marks_beside`)."""
    pips, on_dice = judge.pips, judge.on_dice
    n = len(pips)
    if n < 2:
        return []
    xy = pips.xy.astype(np.float64)
    d = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(axis=2))
    ratio = pips.radius[:, None] / pips.radius[None]
    like = (pips.polarity[:, None] == pips.polarity[None]) & (ratio < 1.8) & (ratio > 1 / 1.8)
    d_like = np.where(like, d, np.inf)
    near = np.argsort(d_like, axis=1)[:, :min(NEIGHBOURS, n)]  # each pip's nearest like pips, itself first
    near_d = np.take_along_axis(d_like, near, axis=1)
    # squares from two opposite corners
    i, j = np.nonzero(np.triu((d_like >= DIAGONAL[0] * die_px) & (d_like <= DIAGONAL[1] * die_px), 1))
    half = (xy[j] - xy[i]) / 2
    e1 = np.stack([half[:, 0] + half[:, 1], half[:, 1] - half[:, 0]], axis=1) / 2
    e2 = np.stack([half[:, 0] - half[:, 1], half[:, 0] + half[:, 1]], axis=1) / 2
    squares = (i, xy[i] + half, e1, e2)
    # parallelograms from three corners: a at (-1,-1), b at (1,-1), c at (-1,1)
    side = np.isfinite(near_d) & (near_d >= SIDE[0] * die_px) & (near_d <= SIDE[1] * die_px)
    a, kb, kc = np.nonzero(side[:, :, None] & side[:, None, :])
    keep = kb < kc
    a, b, c = a[keep], near[a[keep], kb[keep]], near[a[keep], kc[keep]]
    ab, ac = xy[b] - xy[a], xy[c] - xy[a]
    cos = (ab * ac).sum(axis=1) / np.sqrt((ab ** 2).sum(axis=1) * (ac ** 2).sum(axis=1))
    lengths = np.sqrt((ab ** 2).sum(axis=1) / (ac ** 2).sum(axis=1))
    keep = (np.abs(cos) < 0.6) & (lengths < 2.0) & (lengths > 0.5)
    a, ab, ac = a[keep], ab[keep], ac[keep]
    parallelograms = (a, xy[a] + (ab + ac) / 2, ab / 2, ac / 2)
    found, seen = [], set()
    for anchor, centre, e1, e2 in (squares, parallelograms):
        candidates = near[anchor]
        size = pips.radius[candidates] / pips.radius[anchor][:, None]
        like = np.isfinite(near_d[anchor])
        similar = like & (size < ALIKE) & (size > 1 / ALIKE)
        # off dice, a pip may be tray texture, unless the face is off dice itself (a die as light as the tray)
        breaking = (on_dice[candidates] | ~on_dice[anchor][:, None]) & ~judge.marks_beside(anchor[:, None], candidates)
        for group, nodes, spacing in _faces_on_grids(xy, candidates, like, similar, breaking,
                                                     centre, e1, e2):
            key = tuple(group)
            if len(group) <= 3 and _diagonal(spacing) < FEW_DIAGONAL * die_px:
                continue  # as small as a 6's column or a 4's side, with no layout to tell which
            if key not in seen:
                seen.add(key)
                found.append((group, nodes, spacing))
    return found


@dataclass(frozen=True)
class Seam:
    """Where two touching dice in a row meet: the point on the row between them, and the unit vector along the
    row."""

    middle: tuple[float, float]
    along: tuple[float, float]

    def holds(self, xy: np.ndarray, die_px: float) -> bool:
        """Whether a face of these pips, without a centre pip, is centred on the seam (ACROSS_SEAM)."""
        return self.holds_face(xy.mean(axis=0), len(xy), die_px)

    def holds_face(self, centre, pips: int, die_px: float) -> bool:
        """Whether a face of `pips` pips, without a centre pip, centred at `centre`, is centred on the seam."""
        x, y = centre[0] - self.middle[0], centre[1] - self.middle[1]
        along, across = abs(x * self.along[0] + y * self.along[1]), abs(y * self.along[0] - x * self.along[1])
        return pips % 2 == 0 and along < ACROSS_SEAM * die_px and across < die_px / 2


def _close(count: int, spacing: float, die_px: float, typical_spacing: float) -> bool:
    """Whether a 2 of this pip spacing may be part of a larger face whose other pips were missed (CLOSE_DIAGONAL,
    SIDE_OF_A_FOUR), or a 3 a 6's column (ROW_OF_A_SIX)."""
    if count == 3:
        return spacing < ROW_OF_A_SIX * typical_spacing
    return count == 2 and (_diagonal(spacing) < CLOSE_DIAGONAL * die_px or spacing < SIDE_OF_A_FOUR * typical_spacing)


def _diagonal(spacing: float) -> float:
    """A face's corner-to-corner diagonal, for its pip spacing."""
    return 2 * math.sqrt(2) * spacing


def _faces_on_grids(xy, candidates, like, similar, breaking, centre, e1, e2):
    """For grids (centre, axes e1 and e2 one spacing long), the candidate pips (where `like`) on nodes when they
    make a d6 face, or a 5 or a 6 with one pip missed (ONE_SHORT), with no other candidate on the face (where
    `similar` and `breaking`, or `like` and `breaking` well inside it)."""
    if not len(centre):
        return
    a, c = e1[:, 0, None], e1[:, 1, None]  # each grid's map to pixels [[a, b], [c, d]]: its columns e1 and e2
    b, d = e2[:, 0, None], e2[:, 1, None]
    determinant = a * d - b * c
    offset = xy[candidates] - centre[:, None]
    x, y = offset[..., 0], offset[..., 1]
    u = np.stack([(d / determinant) * x - (b / determinant) * y,  # pixels -> grid, by the inverse map
                  (a / determinant) * y - (c / determinant) * x], axis=2)
    node = np.round(u)
    on_node = (np.sqrt(((u - node) ** 2).sum(axis=2)) <= NODE_REACH) & (np.abs(node) <= 1).all(axis=2) & like
    on_face = (((np.abs(u) < FACE_REACH).all(axis=2) & similar) | ((np.abs(u) < INSIDE).all(axis=2) & like)) \
        & breaking
    index = np.clip(3 * (node[..., 1] + 1) + (node[..., 0] + 1), 0, 8).astype(np.int64)
    mask = np.bitwise_or.reduce(np.where(on_node, np.left_shift(1, index), 0), axis=1)
    distinct = on_node.sum(axis=1) == _NODES_IN_MASK[mask]  # never two pips on one node
    spacing = np.sqrt(np.abs(determinant[:, 0]))
    faces = np.flatnonzero(distinct & ~(on_face & ~on_node).any(axis=1) & _A_FACE[mask])
    # each face's pips in index order, the candidates off its nodes after them
    order = np.argsort(np.where(on_node[faces], candidates[faces], len(xy)), axis=1)
    groups = np.take_along_axis(candidates[faces], order, axis=1)
    nodes = np.take_along_axis(node[faces], order[..., None], axis=1)
    for group, nodes_of, count, face_spacing in zip(groups, nodes, on_node[faces].sum(axis=1).tolist(),
                                                    spacing[faces].tolist()):
        yield group[:count], nodes_of[:count], face_spacing
