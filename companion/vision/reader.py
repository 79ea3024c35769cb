"""The dice reader: a frame in, every die found out, each with its value or an honest null.

0. A dim frame is brought up to a well exposed one's levels (`_gain`), which the contrasts below assume.
1. A copy no larger than `FIND_PX` gives the tray (find_dice.Tray) and, from the dice bodies, the die size (or the
   profile's `die_px` gives it). A frame whose pips are too large for that size is read again at the size they
   give, and the read with more pips on faces kept (`OVERSIZED_PIPS`). A frame that reads no die may be a close-up
   of dice too large for the tray's median: it is read again against the tray its border shows (`_large_read`).
2. The frame is scaled so that a die is `pips.DIE_PX` across (large photos shrink, small dice grow) and every
   pip-like blob is found in it at once (pips.find_pips).
3. The pips are grouped into d6 faces by geometry (pip_faces: every face the pips allow is proposed) and each face
   is judged (face_judge): a face whose read is not confident keeps value None, since a silent misread is the worst
   thing the reader can do. A blob of one die's shape far larger than the frame's dice is read again at its own
   scale (own_scale): at the frame's, its pips make faces of the frame's size (a large 2 two 1s, a 6 its columns).
4. Each die lying alone that no face was read on is looked at again with only the strongest part of each pip,
   and with its thin light glints opened away (second_look: pips merged with a glint stand apart there). One that
   shows pips but that no look reads is reported with value None when its body looks like a die
   (find_dice.die_shaped), never left out.
   A face left unread is reported only on a body that stands out from the tray (find_dice.find_regions): the
   specks of a grainy cloth make faces the judge doubts too. Every die still unread is shown to a small network
   that reads a whole die (die_net; it never learned a grainy cloth, and counted such specks as a 6 at 1.0), and
   takes its value when the network is sure of it (a die lying alone with one like pip on it and no face is
   reported only then); so is each part of a heap of touching dice where no die was found, and a face that a
   second look reads there is taken when the network reads it alike (at the look's higher level touching dice
   lose pips). A face the geometry read but for the die's outline (a white die on a light tray) is taken when the
   network reads it alike; a 1 it is unsure of on a die lying alone (a 2 whose other pip a glint hides looks like
   one) is not when the network finds another face likelier.
5. Dice that show no pips (blank, symbol and colour faces) are found by their bodies (find_dice.find_regions) when
   the profile has taught face models: named when a model recognises them, else, for a die lying alone, reported
   with value None (a face the reader does not know is unreadable, never a guess and never left out).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..games.base import Die
from .die_net import DieNet
from .face_judge import FALLBACK_SPACING, GLARE_LEVEL, SPACING_PER_FACE, FaceFound
from .find_dice import (Foreground, Region, Row, Tray, about_square, cut_by_frame, die_shaped, die_shaped_blobs,
                        die_size, find_regions, large_die_sizes, row_axis, solidity, split_blob, touching_row,
                        tray_from_border)
from .own_scale import OFF_SCALE, at_own_scale
from .pip_faces import Seam, dice_from_pips
from .pip_shape import is_disc
from .pips import DIE_PX, Pips, find_pips, largest_channel, percentile_level
from .profile import Profile
from .second_look import look_again, second_look, unread_pips

FIND_PX = 320
"""Longest side of the copy the dice bodies are found on: a die of 30 px in a 640 px frame is 15 px there."""
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
LARGE_BODY = 0.1
"""A frame that reads no die is read again at the size of each body of one die's shape at least this part of it
across (`DiceReader._large_read`)."""
LARGE_FACE = (0.5, 1.2)
"""A die read at a large body's size has a face this part of the body across (rendered dice of 100-300 px, one or two
in a frame: 0.82-1.14; real dice in close-up, whose bodies take in a side face or two and their shadows: 0.51 and
more, bench_closeups.py; two touching 1s read as a 2 at the size their row gives one die: 1.27-1.31)."""
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
"""A frame its pips sized (`_View.by_pips`: no body shows one die, as when the dice lie in one block) may be sized
up to this many times too large, the pips of some makes being smaller than PIP_OF_FACE: it is read again at this
much smaller a size, and that read is kept where it reads a block of dice (BLOCK) and puts more pips on faces, or as
many on fewer dice. Blocks of touching dice alone in the frame (bench_reader_synthetic --heap) were sized by their
pips, faces 1.3-1.8 times their dice's size were made across two or three dice, and most of their dice were missed:
read again, seeds 1-3 read 1,696, 1,683 and 1,619 of their 2,160 dice each (1,562, 1,597 and 1,519) and misread 26,
27 and 23 (30, 29 and 28); read again at 1.6 times smaller (before BLOCK), seeds 1 and 3 read about as many as at
1.4. No other rendered suite reads otherwise, nor any development photo (13 of matteo-webcam's are sized by their
pips), under any camera change of bench_camera either."""
BLOCK = (4, 2)
"""A read at PIPS_MAKE times smaller a size is kept only where it reads a block of dice: this many dice at least, and
this many more than the read at the pips' size (`_reads_a_block`). Not one die, two or three (whose pips gave their
size, or which a row sizes): kept otherwise, two touching dice (bench_reader_synthetic --pair) and three (--three)
were misread where they had been missed, as were a lone large die and a matteo-webcam 2 whose hues were turned (a 2
read as a 1 at 0.85), and at three dice, one of three in an L; at one die more, a large ivory 3 among four small
dice on a white tray (--unlike) was two 2s of its pips."""
ROW_SHARE = 0.15
"""A frame sized within this fraction of its row's share (find_dice.touching_row) is sized by the row."""
SMALL_FACES = 0.9
"""A frame sized by its one blob whose dice read show faces under this part of the face a die of the blob's size
shows may be three touching dice in an L (`_View.three_in_an_l`), and is read as such too. An L's blob fills the box
turned to fit it as a lone die's body does (0.69-0.79 rendered; byler-d6's median 0.79, matteo-webcam's 0.72), so
only the faces tell them apart: read as one die, an L's faces measure about 0.83 of that die's, a lone die's 0.8-1.2
as makes set their pips (SPACING_PER_FACE), and the read as three is kept only where it puts more pips on faces."""
L_SOLIDITY = 0.93
"""A frame's one blob filling less of its convex hull than this is notched, as three dice touching in an L are
(`_View.three_in_an_l`; rendered, `bench_reader_synthetic --three`: 0.83-0.92 but for four in 125 Ls lying square, a
lone die's body 0.94 and more), and is read as three dice too. A line of three askew is notched as well, and read
so at its true size. Seen by a webcam leaning over the table, a lone die's body with a side face fills 0.81-0.92
(matteo-webcam): a frame of one such die is read twice. The read as three is kept only where it puts more pips on
faces."""
APART = 0.75
"""Touching dice lie a die apart, centre to centre: a read of a blob as three dice where two lie closer than this
many of their size has made a face of two dice's pips, and is not kept (read as three, a 5, a 4 and a 5 in an L were
four dice, a 1 beside a 2 a 2 of the 1's pip and one of the other 2's)."""
ON_FACE = 0.6
"""Pips within this many face sizes of a die's centre lie on its face (`_crowded`, `_free_like_pips`)."""
OWN_PIP = 0.25
"""A pip within this many face sizes of a 1's centre is its own pip (a pip is 0.2 of a face across, and a glint
may part it in two), not another (`_one_beside_like_pip`)."""
FACE_SPAN = 0.9
"""Two pips of a face lie at most this many face sizes apart: a 2's, at opposite corners, 0.76 (each node 0.38 from
the centre), with a fifth over for a face whose size is taken from the frame's dice (`_one_beside_like_pip`). Like
pips further off on a lone body are a side face's in perspective or the tray's grain: over a whole body, three right
1s of matteo-webcam whose bodies hold pips 1.3-1.5 faces off were unread."""
PIP_CENTRE_MOVE = 0.2
"""A heap's part is looked at again, centred on its free pips, when their centre lies more than this many face
sizes off the part's (nearer, it is the same look)."""
ONE_SURE = 0.95
"""A 1 the geometry reads less sure than this (its body missing from 2 or more of the 16 probes around its pip, or
something pip-like near it) may be a 2 or a 3 whose other pips a glint hides: on a die lying alone it is unread
when die_net finds another face likelier there. Under bench_camera's lens blur, noise, fewer or more pixels, such
1s were 10 of byler-d6's 11 misread 1s (true 2s, at 0.5-0.78), and 46 of its 542 right ones. With the photos' hues
turned (bench_camera), red pips green or blue, smoky 2s whose other pip a glint joined were read as 1s at 0.94:
at 0.95 rather than 0.8, four such misreads over two turns are unread; over all of bench_camera's changes, 8
misreads fewer and 2 right dice fewer, and the photos as taken read as before. On touching dice the network's
crop takes in the neighbours' pips, and it finds 1s there unlikely (the rendered pool lost 14 right 1s)."""
MIN_PIP_STRENGTH = 24
"""Grey levels a pip must stand out from its face by, over the sensor noise of any camera."""
BRIGHT = 210
"""A well exposed frame has its brightest percent of pixels at about this level (the development photos' lie at
190-225); the contrasts above are in grey levels of such a frame, so a dim frame is brought up to it..."""
MAX_GAIN = 4.0
"""...by at most this gain."""


@dataclass(frozen=True)
class ReadDie:
    """One die as the camera saw it, in input-image pixels."""

    center: tuple[float, float]
    size: float
    value: int | None
    confidence: float
    kind: str = "pips"
    face: str | None = None
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    owner: str | None = None
    zone: str = "mat"
    polarity: str | None = None
    """"dark" or "light": how the pips stood out from this die's face (None when no pips were seen)."""
    counted_pips: int = 0
    """For a die found by its lone body with no face on it, the like pips on the body's middle
    (second_look.middle_pips), and for a heap's part, the like pips on its face that lie on no die found: a count
    die_net may agree with; 0 for any other."""

    def to_die(self) -> Die:
        return Die(value=self.value, kind=self.kind, face=self.face, owner=self.owner, zone=self.zone,
                   confidence=round(self.confidence, 3))

    def to_json(self) -> dict:
        out = {"value": self.value, "center": [round(self.center[0], 1), round(self.center[1], 1)],
               "confidence": round(self.confidence, 3), "kind": self.kind}
        if self.kind != "pips":
            out["face"] = self.face
        return out


class DiceReader:
    """Reads every frame with one calibration profile. Taught face and owner models in the profile are applied to
    each die found (companion.vision.faces / owners); a taught face that matches confidently wins over pips."""

    def __init__(self, profile: Profile | None = None, die_net: DieNet | None = None):
        """`die_net` is the second opinion's network (the shipped one by default; the profile may turn it off):
        benchmarks/bench_die_net_folds.py gives one trained without the photos it reads."""
        self.profile = profile or Profile()
        self._background = self.profile.background_image()
        self._faces = _taught(self.profile.faces, "faces", "FaceModel")
        self._owners = _taught(self.profile.owners, "owners", "OwnerModel")
        self._net = (die_net or DieNet()) if self.profile.second_opinion else None

    def read(self, frame_bgr: np.ndarray) -> list[ReadDie]:
        frame = _as_bgr(frame_bgr)
        view, pip_dice = self._sized_read(frame)
        dice = [self._classify(frame, die) for die in pip_dice]
        if self._faces:  # taught faces are looked for on every die body, pips or not
            bodies = [(self._classify(frame, body), alone) for body, alone in self._bodies(view, dice)]
            taught = [die for die, _ in bodies if die.kind != "pips"]
            # a die alone that no model knows and no pips cover is shown unreadable (value None), never left out
            unknown = [die for die, alone in bodies if alone and die.kind == "pips"
                       and not any(_near(die, d, 1.0) for d in dice)]
            dice = [die for die in dice if not any(_near(die, t) for t in taught)] + taught + unknown
        dice = [die for die in dice if self._in_tray(die.center)]
        return sorted(dice, key=lambda d: (round(d.center[1] / d.size), d.center[0]))  # rows, left to right

    def find(self, frame_bgr: np.ndarray) -> list[tuple[tuple[float, float], float]]:
        """(centre, size) in input pixels of every die found, whether or not it shows pips: each die body, and
        each die found by its pips that no body covers (a die merged with a neighbour or a wall)."""
        view, pip_dice = self._sized_read(_as_bgr(frame_bgr))
        bodies = [body for body, _ in self._bodies(view, pip_dice)]
        dice = bodies + [die for die in pip_dice if not any(_near(die, b) for b in bodies)]
        return [(die.center, die.size) for die in dice if self._in_tray(die.center)]

    def _sized_read(self, frame: np.ndarray) -> tuple[_View, list[ReadDie]]:
        """The frame's view and the dice its pips show (none across two dice of a row: `_View.seams`), read again
        as three dice when its one blob may be three in a row or in an L (`_View.three`, `three_in_an_l`: the read
        that puts more pips on read faces is kept), and at the size the pips give when they are too large for the
        bodies' size (OVERSIZED_PIPS: the read that puts more pips on read faces is kept, or as many on fewer dice
        unless a row's bodies tell how many dice there are), at a smaller size when its pips sized it (PIPS_MAKE:
        kept likewise), and as a frame of large dice when it reads none (`_large_read`)."""
        view = _View(frame, self._background, self.profile)
        dice = self._pip_dice(view)
        three = view.three or view.three_in_an_l(dice)
        if three:
            as_three = _View(frame, self._background, self.profile, row=three)
            again = self._pip_dice(as_three)
            if _pips_read(again) > _pips_read(dice) and _apart(again):
                view, dice = as_three, again
        resized = view.sized_by_pips()
        if resized is not None:
            again = self._pip_dice(resized)
            if _better_read(again, dice, fewer_dice=view.row is None):
                view, dice = resized, again
        smaller = view.smaller_than_its_pips()
        if smaller is not None:
            again = self._pip_dice(smaller)
            if _reads_a_block(again, dice) and _better_read(again, dice, fewer_dice=True):
                view, dice = smaller, again
        if not self.profile.die_px and not any(die.value is not None for die in dice):
            view, dice = self._large_read(view, dice)
        return view, dice

    def _large_read(self, view: _View, dice: list[ReadDie]) -> tuple[_View, list[ReadDie]]:
        """A frame that read no die, read as one of large dice. A die over about a sixth of the frame fills the
        cells the tray's median is taken on (find_dice.Tray): its body is missed, and the frame is sized by its
        pips, taken for dice, or not at all (bench_reader_synthetic --large: dice of 200 px in a 640x480 frame 25
        of 40 read, of 250 px 12). Against the tray its border shows (find_dice.tray_from_border) such a die
        stands out whole: the frame is read at the size of each body of one die's shape at least LARGE_BODY of it
        across, or of a row of such dice (find_dice.large_die_sizes), largest first, and the read that puts the
        most pips on faces is kept (not as many on fewer dice, as `_better_read` would: two 1s lying close became
        one 2 at their row's size). Every face is judged as always, so a wrong size reads nothing (blurred photos,
        photos shrunk until their dice are a few pixels, heaps of small dice, grainy empty trays); and a die read
        so must be one die filling its body (`_one_large_die`): a tray seen whole is a die-shaped body too, and
        the dice in it may lie as pips do."""
        border = tray_from_border(view.small)
        foreground = Foreground(view.small, Tray(view.small, border), self.profile.min_contrast)
        tried = [view.die_px * view.small_scale] if view.die_px else []
        for body_px in large_die_sizes(foreground, LARGE_BODY * max(view.small.shape[:2])):
            if any(0.85 < body_px / size < 1 / 0.85 for size in tried):  # about a size read already
                continue
            tried.append(body_px)
            large = _View(view.frame, border, self.profile, die_px=body_px / view.small_scale)
            again = [die for die in self._pip_dice(large) if _one_large_die(large, die)]
            if _pips_read(again) > _pips_read(dice):
                view, dice = large, again
        return view, dice

    def _pip_dice(self, view: _View) -> list[ReadDie]:
        if view.die_px is None:
            return []
        work = view.working_frame
        profile = self.profile
        pips = view.pips
        faces, unoutlined = dice_from_pips(pips, work, view.tray_colours_step, DIE_PX, profile.min_contrast,
                                           profile.threshold, view.seams, square_to_edges=view.by_pips)
        lone = [region for region in view.regions if region.alone]
        bodies = [view.to_working_box(region.box) for region in lone]
        # a body the frame's edge cuts is clutter at a webcam's edge more often than a die (matteo-webcam: 99 of
        # its 123 second looks, none reading a face), and a die there is not seen whole
        whole = [box for box, region in zip(bodies, lone) if not cut_by_frame(region.box, view.small.shape)]
        faces = second_look(work, pips, faces, whole, view.tray_colours_step, MIN_PIP_STRENGTH, profile.pip_polarity,
                            profile.min_contrast, profile.threshold)
        large = [(view.to_working_box(blob.box), blob.size * (view.scale / view.small_scale))
                 for blob in die_shaped_blobs(view.foreground, OFF_SCALE * view.die_px * view.small_scale)]
        faces = at_own_scale(work, faces, large, view.tray_colours_step, MIN_PIP_STRENGTH, profile.pip_polarity,
                             profile.min_contrast, profile.threshold)
        height, width = view.frame.shape[:2]
        dice = [die for die in map(view.to_input, faces) if _seen_whole(die, width, height)]
        counts = [unread_pips(pips, faces, box) for box in bodies]
        dice += [replace(self._body_die(view, region, dice), counted_pips=count) for region, count in zip(lone, counts)
                 if count and die_shaped(region, view.small.shape)]
        # a face left unread off every body is no die: the specks of a grainy cloth make such faces
        body_boxes = [view.to_input_box(region.box) for region in view.regions]
        on_bodies = [die for die in dice if die.value is not None or _in_any(die.center, body_boxes)]
        if self._net is None:
            return [die for die in on_bodies if _reported(die)]
        seen = (pips.xy / view.scale, pips.polarity)  # in input pixels, as the dice
        dice = [die if die.value is not None or _crowded(die, *seen) else self._second_opinion(view.frame, die)
                for die in on_bodies]
        dice = [self._on_its_pips(view.frame, die, dice, *seen) if die.value is None and die.counted_pips >= 2 else die
                for die in dice]
        dice = [die for die in dice if _reported(die)]
        size = _typical_size(dice)
        lone_boxes = [box for box, region in zip(body_boxes, view.regions) if region.alone]
        dice = [self._one_checked(view.frame, die, size) if _unsure_one(die, lone_boxes)
                else self._one_checked(view.frame, die, size, unless_no_face=True)
                if _one_beside_like_pip(die, dice, lone_boxes, *seen) else die for die in dice]
        heaps = [region for region in view.regions if not region.alone]
        dice += self._dice_in_heaps(view, dice, heaps, *seen)
        dice += self._seen_again_in_heaps(view, dice, heaps, *seen)
        return dice + self._confirmed(view, dice, [view.to_input(face) for face in unoutlined], *seen)

    def _seen_again_in_heaps(self, view: _View, dice: list[ReadDie], parts: list[Region], pips: np.ndarray,
                             polarity: np.ndarray) -> list[ReadDie]:
        """The faces a second look (second_look.look_again) reads on the parts a heap of touching dice is cut into
        (find_dice.find_regions) where no die was read, by the first look or by die_net alone (`_dice_in_heaps`), each
        taken only where die_net, shown the die there, reads it alike (at AGREE, with its confidence, as a face read but
        for its outline is: `_confirmed`). On touching dice the look's higher level may lose some of a face's pips, or
        make a face of two dice's pips, and a part may be clutter (laptop keys at matteo-webcam's edge, whose marks it
        read as a 2 at 1.0): the network, which looks at the whole die, is the other reader. It is shown the die at its
        face's size, not the frame's dice's: the crop of a small die so takes in less of the die it touches (a smoky 5
        beside a black 3, IMG_20191208_111246: 5 at 0.96, and at the frame's dice's size 0.77, a 6 at 0.21). A look
        takes 2-25 ms in a heap (its crop holds the pips of the dice around, and each face they make is judged), so only
        parts that may hold a die left unread are looked at: about square (find_dice.about_square; most parts are strips
        cut along a heap's edge), clear of the frame's edge by their size, as `_dice_in_heaps` asks, and with a like pip
        within their size of their centre that lies on no die read. Of byler-d6's 432 parts left unread, 89 are looked
        at, and of matteo-webcam's 437, 79: looking at every part read no die more (reader.md, fortieth session)."""
        profile = self.profile
        height, width = view.frame.shape[:2]
        found = []
        for region in parts:
            center = view.to_input_point(region.center)
            reach = region.size / view.small_scale
            box = view.to_input_box(region.box)
            if not about_square(region) or not _clear_of_edge(center, reach, width, height) \
                    or not _free_like_pips(center, reach, dice, pips, polarity).any() \
                    or any(die.value is not None and _in_any(die.center, [box]) for die in dice + found):
                continue
            face = look_again(view.working_frame, view.to_working_box(region.box), view.tray_colours_step,
                              MIN_PIP_STRENGTH, profile.pip_polarity, profile.min_contrast, profile.threshold)
            if face is None:
                continue
            die = view.to_input(face)
            if any(_near(die, other, 1.0) for other in dice + found):
                continue
            found += self._agreed(view.frame, die)
        return found

    def _dice_in_heaps(self, view: _View, dice: list[ReadDie], parts: list[Region], pips: np.ndarray,
                       polarity: np.ndarray) -> list[ReadDie]:
        """The dice die_net reads where a heap of touching dice is cut into `parts` (find_dice.find_regions), no die
        was found within a die's reach and pips (`pips`, input pixels) were, clear of the frame's edge (a cable, a
        laptop's edge or the clutter at a webcam's edges cut into parts; each look at a part costs a few ms). A
        part may lie across two dice: the network, taught such crops as no pip face, gives no value there, and
        nothing is reported where it gives none. A part the network reads nothing at is looked at once more,
        centred on the like pips within a die of it that lie on no die found (`_free_like_pips`), when their mean
        lies off its centre: a k-means part is rarely centred on one die. At each look the network may agree with
        the count of such pips on the face looked at (`ReadDie.counted_pips`)."""
        size = _typical_size(dice)
        if size is None:
            return []
        found = []
        height, width = view.frame.shape[:2]
        for region in parts:
            center = view.to_input_point(region.center)
            looks = [center]
            # a face's pips are symmetric about its centre: where they are one die's, there it is (a row's parts
            # are its dice, cut by their bodies)
            middle = _middle_of_free_pips(center, size, dice, pips, polarity) if view.row is None else None
            if middle is not None and math.dist(middle, center) > PIP_CENTRE_MOVE * size:
                looks.append(middle)
            for look in looks:
                counted = int(_free_like_pips(look, ON_FACE * size, dice, pips, polarity).sum())
                part = ReadDie(look, size, None, 0.0, bbox=_box(look, size), counted_pips=counted)
                if not _clear_of_edge(look, size, width, height) or not np.any(np.hypot(*(pips - look).T) < size) \
                        or any(_near(part, die, 1.0) for die in dice + found) or _crowded(part, pips, polarity):
                    continue
                part = self._second_opinion(view.frame, part)
                if part.value is not None:
                    found.append(part)
                    break
        return found

    def _on_its_pips(self, frame: np.ndarray, die: ReadDie, dice: list[ReadDie], pips: np.ndarray,
                     polarity: np.ndarray) -> ReadDie:
        """A die on a lone body with like pips in its middle (ReadDie.counted_pips) that die_net left unread, looked
        at again centred on the like pips on its face that lie on no other die: a body takes in the die's shadow, and
        its centre lies off the face's (as a heap's part does, `_dice_in_heaps`). With networks trained without them,
        byler-d6's photos read 3 dice more (742 of 870) and misread none more."""
        middle = _middle_of_free_pips(die.center, ON_FACE * die.size, [other for other in dice if other is not die],
                                      pips, polarity)
        if middle is None:
            return die
        moved = replace(die, center=middle, bbox=_box(middle, die.size))
        if _crowded(moved, pips, polarity):
            return die
        again = self._second_opinion(frame, moved)
        return die if again.value is None else again

    def _confirmed(self, view: _View, dice: list[ReadDie], unoutlined: list[ReadDie], pips: np.ndarray,
                   polarity: np.ndarray) -> list[ReadDie]:
        """Of the faces the geometry read but for the die's outline (face_judge.Judge.unoutlined, in input pixels:
        a white die on a light grey tray), those die_net reads alike (at AGREE), where no die was found. Each place
        is looked at once, most pips first, with the size of the frame's dice read."""
        size = _typical_size(dice)
        height, width = view.frame.shape[:2]
        looked, found = [], []
        for die in sorted(unoutlined, key=lambda d: -d.value):
            if size:
                die = replace(die, size=size, bbox=_box(die.center, size))
            if not _seen_whole(die, width, height) or any(_near(die, other, 1.0) for other in dice + looked) \
                    or _crowded(die, pips, polarity):
                continue
            looked.append(die)
            found += self._agreed(view.frame, die)
        return found

    def _agreed(self, frame: np.ndarray, die: ReadDie) -> list[ReadDie]:
        """The die read by the geometry, with die_net's confidence, where die_net reads it alike (at AGREE: it is
        the count of the face's pips); else none."""
        value, confidence = self._net.read(frame, die.center, die.size, counted=die.value)
        return [replace(die, confidence=confidence)] if value == die.value else []

    def _one_checked(self, frame: np.ndarray, die: ReadDie, size: float | None,
                     unless_no_face: bool = False) -> ReadDie:
        """A 1 on a die lying alone, unread when die_net finds another face likelier there (with the size of the
        frame's dice read): a 1 read less sure than ONE_SURE. With `unless_no_face`, only a face of more pips
        unreads it: a 1 read sure whose body holds another like pip (`_one_beside_like_pip`). A 2 whose other pip a
        glint ring hides or shrinks shows a 1 that passes every check a 1 has, sure: that pip lies at the face's far
        corner, beyond the ring the checks look at (a dark smoky 2 in IMG_20191208_113019, read as a 1 at 1.0; the
        network finds a 2 likeliest, at 0.80). Where it finds no pip face likeliest, such a 1 stays: an ivory 1
        whose side faces show their pips in perspective (matteo-webcam's train_dice_19; "no pip face" at 0.73)."""
        likeliest = self._net.likeliest(frame, die.center, size or die.size)
        kept = likeliest == 1 or unless_no_face and likeliest is None
        return die if kept else replace(die, value=None)

    def _second_opinion(self, frame: np.ndarray, die: ReadDie) -> ReadDie:
        """A die the geometry left unread, with the value die_net gives it when it is sure (or agrees with the
        pips counted on a lone body the geometry made no face on), else as it was."""
        value, confidence = self._net.read(frame, die.center, die.size, counted=die.counted_pips)
        return die if value is None else replace(die, value=value, confidence=confidence)

    def _bodies(self, view: _View, pip_dice: list[ReadDie]) -> list[tuple[ReadDie, bool]]:
        """Dice found by their bodies against the tray (value None), each with whether it is a blob of its own
        (find_dice.Region.alone). A body takes in the die's shadow, so when pips were read in this frame the
        dice's size is theirs (`_typical_size`)."""
        if view.die_px is None:
            return []
        return [(self._body_die(view, region, pip_dice), region.alone) for region in view.regions]

    @staticmethod
    def _body_die(view: _View, region: Region, pip_dice: list[ReadDie]) -> ReadDie:
        """A die found by its body (value None), as large as the dice read by their pips (`_bodies`)."""
        center = view.to_input_point(region.center)
        size = _typical_size(pip_dice) or region.size / view.small_scale
        return ReadDie(center, size, None, 0.0, bbox=_box(center, size))

    def _in_tray(self, center: tuple[float, float]) -> bool:
        if self.profile.tray is None:
            return True
        x0, y0, x1, y1 = self.profile.tray
        return x0 <= center[0] <= x1 and y0 <= center[1] <= y1

    def _classify(self, frame: np.ndarray, die: ReadDie) -> ReadDie:
        """Apply the profile's taught face and owner models and its zones to a die."""
        if not (self._faces or self._owners or self.profile.zones):
            return die
        from .faces import die_crop
        from .owners import owner_by_zone
        crop = die_crop(frame, die.center, die.size) if (self._faces or self._owners) else None
        changes = {}
        for kind, model in self._faces.items():
            face, confidence = model.classify(crop)
            if face is not None and confidence >= self.profile.threshold:
                changes.update(kind=kind, face=face, value=None, confidence=confidence)
                break
        for model in self._owners.values():
            owner, confidence = model.owner_of(crop)
            if owner is not None:
                changes["owner"] = owner
                break
        zone = owner_by_zone(die.center, self.profile.zones) if self.profile.zones else None
        if zone is not None:
            changes["zone"] = zone
        return replace(die, **changes) if changes else die


class _View:
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
        self.small_scale = min(1.0, FIND_PX / max(frame.shape[:2]))
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

    def three_in_an_l(self, dice: list[ReadDie]) -> Row | None:
        """The frame's one blob taken for three dice in an L, or None: when it is notched as an L is (L_SOLIDITY),
        or when it was sized as one die and the dice read on it show faces smaller than one die of that size does
        (SMALL_FACES: an L lying square is hardly notched, nor is a block of touching dice)."""
        if self.row is not None or self.die_px is None or (blob := self.blob) is None:
            return None
        if solidity(blob) < L_SOLIDITY:
            return Row(blob, 3, line=False)
        size = _typical_size(dice)  # (a heap's one blob, sized by its pips, is many dice: not sized as one die)
        small_faces = size is not None and size < SMALL_FACES * self.die_px * FACE_IN_BODY
        return Row(blob, 3, line=False) if small_faces and _about(self.die_px * self.small_scale, blob.size) else None

    def _plausible(self, size: float, largest: float) -> bool:
        """Whether a die size found from the bodies (`small` pixels) is one a die may have in this frame."""
        return SMALL_DIE <= size / max(self.small.shape[:2]) <= largest

    @functools.cached_property
    def regions(self) -> list[Region]:
        """The parts of the foreground that may each be one die (find_dice.find_regions), on `small`; the view
        must have a die size. A row of two is no die lying alone: its dice touch. Taken for one lying alone, its
        dice had second looks across them, and a 1 beside a die was checked as a lone die's unsure 1 (ONE_SURE)
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

    def sized_by_pips(self) -> _View | None:
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
        return _View(self._input, self._background, self._profile, die_px=_size_of_pips(radius))

    def smaller_than_its_pips(self) -> _View | None:
        """This frame's view at PIPS_MAKE times smaller a size, when its pips sized it (`by_pips`); else None."""
        if not self.by_pips or self.die_px is None:
            return None
        return _View(self._input, self._background, self._profile, die_px=self.die_px / PIPS_MAKE, by_pips=True)

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

    def to_input(self, face: FaceFound) -> ReadDie:
        center = (face.center[0] / self.scale, face.center[1] / self.scale)
        size = face.size / self.scale
        return ReadDie(center, size, face.value, face.confidence, bbox=_box(center, size),
                       polarity=face.polarity)


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
    """When dice touch, no body shows one die's size: the pips do (a pip is about a fifth of its face across).
    Pips are looked for at the body's size and at a tenth of the frame; the size whose strong pips (at least half
    as strong as the strongest found) stand out most in all wins. Where the dice are as dark as the tray, or the
    tray is grainy, the blobs found as bodies are pips or grain, and at their size the grain gives many specks,
    but faint ones.

    A size from the pips larger than a large body is one large die's, not a heap's (a heap is larger than a die):
    the body's size is kept then, the ratio of pip to face differing between makes (a close-up of a die a fifth
    of the frame across was sized 1.6 times too large, and its pips were then too small to be found)."""
    large = body is not None and body > LARGE_DIE * max(small.shape[:2])
    guesses = [g for g in (body, max(small.shape[:2]) / 10) if g]
    found = [find_pips(small, guess, MIN_PIP_STRENGTH) for guess in guesses]
    strengths = [pips.strength for pips in found]
    strongest = max((float(s.max()) for s in strengths if len(s)), default=0.0)
    best = max(range(len(found)), key=lambda k: float(strengths[k][strengths[k] >= strongest / 2].sum()))
    if len(found[best]) < 3:
        return body
    size = _size_of_pips(float(np.median(found[best].radius)))
    return min(body, size) if large else size


def _one_large_die(view: _View, die: ReadDie) -> bool:
    """Whether a die read at a large body's size is one die filling that body, not dice lying in a tray seen whole (a
    die-shaped body too) read as the pips of one, nor a face across a row of touching dice: its face spans most of
    the body and no more (LARGE_FACE; a 1's size says nothing, being the body's), and its pips are discs
    (`_round_pips`)."""
    if die.value is None:
        return True
    fills = LARGE_FACE[0] * view.die_px <= die.size <= LARGE_FACE[1] * view.die_px
    return (die.value == 1 or fills) and _round_pips(view, die)


def _round_pips(view: _View, die: ReadDie) -> bool:
    """Whether the pips of a die read (its `value` like pips nearest its centre) are discs at the input's scale
    (pip_shape.is_disc): a die is a rounded square and two touching dice a long blob, and dice that show no pips lying
    in a tray seen whole, read at the tray's size, made faces of 1 to 4 at 1.0. Only large dice are asked: most
    of matteo-webcam's right faces fail it (pips 10 px across, drawn out by a camera leaning over the table)."""
    pips = view.pips
    like = np.flatnonzero(pips.polarity == (die.polarity == "light"))
    centres, radii = pips.xy[like] / view.scale, pips.radius[like] / view.scale
    face = np.argsort(np.hypot(*(centres - die.center).T))[:die.value]
    return len(face) == die.value and all(is_disc(view.frame, centres[k], radii[k], MIN_PIP_STRENGTH) for k in face)


def _better_read(read: list[ReadDie], than: list[ReadDie], fewer_dice: bool) -> bool:
    """Whether `read` puts more pips on read faces than `than`, or, when `fewer_dice`, as many on fewer dice (a 2's
    two pips, each read as a 1 at too small a size, are one die; but not where the bodies tell how many dice there
    are, `_View.row`: two large 1s lying close, read right at their row's size, made one 2 at their pips')."""
    ours, theirs = _pips_read(read), _pips_read(than)
    return ours > theirs or fewer_dice and ours == theirs > 0 and _dice_read(read) < _dice_read(than)


def _apart(dice: list[ReadDie]) -> bool:
    """Whether the dice read lie APART of their typical size apart or more, centre to centre."""
    read = [die.center for die in dice if die.value is not None]
    least = APART * (_typical_size(dice) or 0.0)
    return all(math.dist(a, b) >= least for k, a in enumerate(read) for b in read[:k])


def _reads_a_block(read: list[ReadDie], than: list[ReadDie]) -> bool:
    """Whether `read` reads a block of dice (BLOCK) where `than`, read at a larger size, did not."""
    least, more = BLOCK
    return _dice_read(read) >= max(least, _dice_read(than) + more)


def _dice_read(dice: list[ReadDie]) -> int:
    return sum(die.value is not None for die in dice)


def _pips_read(dice: list[ReadDie]) -> int:
    """How many pips the read faces among `dice` hold."""
    return sum(die.value or 0 for die in dice)


def _size_of_pips(radius: float) -> float:
    """The size of a die body (as found against the tray) whose pips' radius is `radius` (PIP_OF_FACE)."""
    return radius * 2 / PIP_OF_FACE / FACE_IN_BODY


def _typical_size(dice: list[ReadDie]) -> float | None:
    """The median size of the dice read with two pips or more (a 1's size comes from its one pip and the frame's
    typical spacing, which without other faces is a guess), or None."""
    read = [die.size for die in dice if die.value is not None and die.value >= 2]
    return float(np.median(read)) if read else None


def _reported(die: ReadDie) -> bool:
    """Whether a die found on a body is reported: read, or unsure on a face or on a lone body with two like pips
    or more (second_look.unread_pips). A lone body with one like pip and no face may be a mark, or the tray's
    grain on a shadow, as well as a 1 whose face failed a check (glints by its pip): it is reported only when
    die_net reads it, agreeing with that one pip or sure of its own."""
    return die.value is not None or die.counted_pips != 1


def _unsure_one(die: ReadDie, lone_boxes: list[tuple[float, float, float, float]]) -> bool:
    """Whether a die is a 1 read less sure than ONE_SURE on a die lying alone (`lone_boxes`, input pixels)."""
    return die.value == 1 and die.confidence < ONE_SURE and _in_any(die.center, lone_boxes)


def _one_beside_like_pip(die: ReadDie, dice: list[ReadDie], lone_boxes: list[tuple[float, float, float, float]],
                         pips: np.ndarray, polarity: np.ndarray) -> bool:
    """Whether a die is a 1 on a die lying alone (`lone_boxes`, input pixels) whose body holds a pip of its pip's
    polarity besides its own (`pips` in input pixels), within a face's span of it and on no other die: a pip of the
    same face, maybe, which the checks of a 1 did not take for one."""
    if die.value != 1:
        return False
    around = [box for box in lone_boxes if _in_any(die.center, [box])]
    if not around:
        return False
    x0, y0, x1, y1 = around[0]
    apart = np.hypot(*(pips - die.center).T)
    beside = (polarity == (die.polarity == "light")) & (apart > OWN_PIP * die.size) & (apart < FACE_SPAN * die.size) \
        & (pips[:, 0] >= x0) & (pips[:, 0] <= x1) & (pips[:, 1] >= y0) & (pips[:, 1] <= y1)
    on_no_other_die = _free_like_pips(die.center, np.inf, [other for other in dice if other is not die],
                                      pips[beside], polarity[beside])
    return bool(on_no_other_die.any())


def _clear_of_edge(point: tuple[float, float], reach: float, width: int, height: int) -> bool:
    """Whether a point lies `reach` or more inside a frame of `width` x `height` (input pixels): a heap's part
    nearer its edge is most often clutter at a webcam's edges, a cable or a laptop's edge."""
    return reach <= point[0] <= width - reach and reach <= point[1] <= height - reach


def _in_any(point: tuple[float, float], boxes: list[tuple[float, float, float, float]]) -> bool:
    x, y = point
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes)


def _free_like_pips(center: tuple[float, float], reach: float, dice: list[ReadDie], pips: np.ndarray,
                    polarity: np.ndarray) -> np.ndarray:
    """Which pips (input pixels) lie within `reach` of `center` and on no die found (ON_FACE), of the polarity most
    of those have (a face's pips are of one)."""
    free = np.hypot(*(pips - center).T) < reach
    if dice and free.any():
        centres, sizes = np.array([die.center for die in dice]), np.array([die.size for die in dice])
        free &= ~(np.hypot(*(pips[:, None] - centres[None]).transpose(2, 0, 1)) < ON_FACE * sizes).any(axis=1)
    if free.any():
        free &= polarity == np.bincount(polarity[free].astype(np.intp), minlength=2).argmax()
    return free


def _middle_of_free_pips(center: tuple[float, float], reach: float, dice: list[ReadDie], pips: np.ndarray,
                         polarity: np.ndarray) -> tuple[float, float] | None:
    """The mean of the like pips within `reach` of `center` that lie on no die found (`_free_like_pips`), or None
    when there are none."""
    free = _free_like_pips(center, reach, dice, pips, polarity)
    return tuple(float(v) for v in pips[free].mean(axis=0)) if free.any() else None


def _crowded(die: ReadDie, pips: np.ndarray, polarity: np.ndarray) -> bool:
    """Whether more than six like pips (`pips` in input pixels, of one `polarity`) lie on a die's face: no d6
    face, whatever the network would count there (it read a 6 with a seventh pip at its centre as a 6). A face's
    corner pips lie up to 0.55 of its side from its centre, and the face the geometry made of some of them may be
    smaller than the die's."""
    on_face = np.hypot(*(pips - die.center).T) < ON_FACE * die.size
    return int(np.bincount(polarity[on_face].astype(np.intp), minlength=2).max()) > 6


def _seen_whole(die: ReadDie, width: int, height: int) -> bool:
    """Whether a face lies in the frame with half of it at least on each side of its centre, so that every node of
    its 3x3 grid, turned any way, lies in the frame with room for a pip (a corner node lies up to 0.38 of the face
    from its centre, a pip is 0.2 of it across). A face cut by the frame's edge is no die the reader can tell: its
    other nodes may hold pips past the edge (a lone pip there may be a 3's or a 5's), and a die there lies off the
    tray the camera frames (the ribs of byler-d6's tray wall where the photos cut it made unread 3s, and clutter at
    matteo-webcam's edges 1s)."""
    margin = die.size / 2
    return margin <= die.center[0] <= width - margin and margin <= die.center[1] <= height - margin


def _near(a: ReadDie, b: ReadDie, reach: float = 0.6) -> bool:
    """Whether two finds are one die (or, with a reach of one die, may be: a body cut from a heap of touching
    dice need not be centred on one)."""
    return np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < reach * max(a.size, b.size)


def _box(center: tuple[float, float], size: float) -> tuple[float, float, float, float]:
    return (center[0] - size / 2, center[1] - size / 2, center[0] + size / 2, center[1] + size / 2)


def _taught(models: dict, module: str, class_name: str) -> dict:
    """The profile's taught models (kind -> model), loaded with the other vision engineer's classes."""
    if not models:
        return {}
    import importlib
    cls = getattr(importlib.import_module(f"companion.vision.{module}"), class_name)
    return {kind: cls.from_json(data) for kind, data in models.items()}


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise ValueError("a frame must be an 8-bit image array")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame
