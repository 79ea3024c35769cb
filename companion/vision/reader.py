"""The dice reader: a frame in, every die found out, each with its value or an honest null.

0. The frame is seen at two scales (view.View): a small copy gives the tray, the dice bodies against it and the
   die size, and a working frame, where a die is `pips.DIE_PX` across (large photos shrink, small dice grow), the
   pips (pips.find_pips), all found at once. A frame whose pips are too large for that size is read again at the
   size they give, and the read with more pips on faces kept (view.OVERSIZED_PIPS); so is one its pips sized, at a
   smaller size (view.PIPS_MAKE), and one whose one blob may be three dice in a row or an L, as three; one whose
   one blob shows more pips than the row of dice it was taken for, or sized as one die reads none, is read at the
   size its pips give (a block of touching dice: view.View.as_block, of_smaller_dice). A frame that
   reads no die may be a close-up of dice too large for the tray's median: it is read again against the tray its
   border shows (`_large_read`).
1. The pips are grouped into d6 faces by geometry (pip_faces: every face the pips allow is proposed) and each face
   is judged (face_judge): a face whose read is not confident keeps value None, since a silent misread is the worst
   thing the reader can do. A blob of one die's shape far larger than the frame's dice is read again at its own
   scale (own_scale): at the frame's, its pips make faces of the frame's size (a large 2 two 1s, a 6 its columns).
2. Each die lying alone that no face was read on is looked at again with only the strongest part of each pip,
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
3. Dice that show no pips (blank, symbol and colour faces) are found by their bodies (find_dice.find_regions) when
   the profile has taught face models: named when a model recognises them, else, for a die lying alone, reported
   with value None (a face the reader does not know is unreadable, never a guess and never left out).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..games.base import Die
from .die_net import DieNet
from .face_judge import FaceFound
from .find_dice import (Foreground, Region, Tray, about_square, cut_by_frame, die_shaped, die_shaped_blobs,
                        large_die_sizes, tray_from_border)
from .own_scale import OFF_SCALE, at_own_scale
from .pip_faces import dice_from_pips
from .pip_shape import is_disc
from .pips import DIE_PX
from .profile import Profile
from .second_look import look_again, second_look, unread_pips
from .view import MIN_PIP_STRENGTH, View, holds_a_die

LARGE_BODY = 0.1
"""A frame that reads no die is read again at the size of each body of one die's shape at least this part of it
across (`DiceReader._large_read`)."""
LARGE_FACE = (0.5, 1.2)
"""A die read at a large body's size has a face this part of the body across (rendered dice of 100-300 px, one or two
in a frame: 0.82-1.14; real dice in close-up, whose bodies take in a side face or two and their shadows: 0.51 and
more, bench_closeups.py; two touching 1s read as a 2 at the size their row gives one die: 1.27-1.31)."""
BLOCK = (4, 2)
"""A read at view.PIPS_MAKE times smaller a size is kept only where it reads a block of dice: this many dice at least,
and this many more than the read at the pips' size (`_reads_a_block`). Not one die, two or three (whose pips gave their
size, or which a row sizes): kept otherwise, two touching dice (bench_reader_synthetic --pair) and three (--three) were
misread where they had been missed, as were a lone large die and a matteo-webcam 2 whose hues were turned (a 2 read as a
1 at 0.85), and at three dice, one of three in an L; at one die more, a large ivory 3 among four small dice on a white
tray (--unlike) was two 2s of its pips."""
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
        if not holds_a_die(frame, self.profile.die_px):
            return []
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
        frame = _as_bgr(frame_bgr)
        if not holds_a_die(frame, self.profile.die_px):
            return []
        view, pip_dice = self._sized_read(frame)
        bodies = [body for body, _ in self._bodies(view, pip_dice)]
        dice = bodies + [die for die in pip_dice if not any(_near(die, b) for b in bodies)]
        return [(die.center, die.size) for die in dice if self._in_tray(die.center)]

    def _sized_read(self, frame: np.ndarray) -> tuple[View, list[ReadDie]]:
        """The frame's view and the dice its pips show (none across two dice of a row: `View.seams`), read again
        sized by its pips when its one blob, taken for a row of touching dice, shows more pips than they can
        (`View.as_block`), or, sized as one die, reads none and shows smaller dice's pips (`View.of_smaller_dice`),
        as three dice when its one blob may be three in a row or in an L (`View.three`,
        `three_in_an_l`: the read that puts more pips on read faces is kept), and at the size the pips give when they
        are too large for the bodies' size (view.OVERSIZED_PIPS: the read that puts more pips on read faces is kept,
        or as many on fewer dice unless a row's bodies tell how many dice there are), at a smaller size when its pips
        sized it (view.PIPS_MAKE: kept likewise), and as a frame of large dice when it reads none (`_large_read`)."""
        view = View(frame, self._background, self.profile)
        dice = self._pip_dice(view)
        block = view.as_block(_polarity(dice))
        if block is not None:
            view, dice = block, self._pip_dice(block)
        elif not _dice_read(dice) and (smaller := view.of_smaller_dice()) is not None:
            again = self._few_pips_agreed(frame, self._pip_dice(smaller))
            if _pips_read(again):
                view, dice = smaller, again
        three = view.three or view.three_in_an_l(_typical_size(dice))
        if three:
            as_three = View(frame, self._background, self.profile, row=three)
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

    def _large_read(self, view: View, dice: list[ReadDie]) -> tuple[View, list[ReadDie]]:
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
            large = View(view.frame, border, self.profile, die_px=body_px / view.small_scale)
            again = [die for die in self._pip_dice(large) if _one_large_die(large, die)]
            if _pips_read(again) > _pips_read(dice):
                view, dice = large, again
        return view, dice

    def _pip_dice(self, view: View) -> list[ReadDie]:
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
        dice = [die for die in (_in_input(view, face) for face in faces) if _seen_whole(die, width, height)]
        counts = [unread_pips(pips, faces, box) for box in bodies]
        unread = [replace(self._body_die(view, region, dice), counted_pips=count) for region, count in zip(lone, counts)
                  if count and die_shaped(region, view.small.shape)]
        # a body may be a part of a die read (its shadow, where the die is of the tray's colour): no other die
        dice += [body for body in unread if not any(_near(body, die) for die in dice if die.value is not None)]
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
        return dice + self._confirmed(view, dice, [_in_input(view, face) for face in unoutlined], *seen)

    def _seen_again_in_heaps(self, view: View, dice: list[ReadDie], parts: list[Region], pips: np.ndarray,
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
        at, and of matteo-webcam's 437, 79: looking at every part read no die more (reader.md, fortieth session).
        A face a look makes across the seam of a row's two dice is not taken, as the first look makes none
        (pip_faces.ACROSS_SEAM): a pink 4 and 5 touching on an orange tray, neither read by the first look, were
        read as one 4 of two pips of each, and die_net agreed at 0.988, its crop centred between them."""
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
            if face is None or any(seam.holds_face(face.center, face.pips, DIE_PX) for seam in view.seams):
                continue
            die = _in_input(view, face)
            if any(_near(die, other, 1.0) for other in dice + found):
                continue
            found += self._agreed(view.frame, die)
        return found

    def _dice_in_heaps(self, view: View, dice: list[ReadDie], parts: list[Region], pips: np.ndarray,
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

    def _confirmed(self, view: View, dice: list[ReadDie], unoutlined: list[ReadDie], pips: np.ndarray,
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

    def _few_pips_agreed(self, frame: np.ndarray, dice: list[ReadDie]) -> list[ReadDie]:
        """`dice` read in a block of smaller dice (view.View.of_smaller_dice), each 1 and 2 only where die_net
        reads it alike (`_agreed`). In a block of dice of one colour, a pip of each of two dice makes a 2, and a
        pip left over a 1: read so, bench_reader_synthetic --heap seeds 1-3 read 249 dice more and misread 5 more
        (1s and 2s of green dice with red pips), and with this check 237 and 2."""
        if self._net is None:
            return dice
        return [kept for die in dice
                for kept in ([die] if die.value is None or die.value > 2 else self._agreed(frame, die))]

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

    def _bodies(self, view: View, pip_dice: list[ReadDie]) -> list[tuple[ReadDie, bool]]:
        """Dice found by their bodies against the tray (value None), each with whether it is a blob of its own
        (find_dice.Region.alone). A body takes in the die's shadow, so when pips were read in this frame the
        dice's size is theirs (`_typical_size`)."""
        if view.die_px is None:
            return []
        return [(self._body_die(view, region, pip_dice), region.alone) for region in view.regions]

    @staticmethod
    def _body_die(view: View, region: Region, pip_dice: list[ReadDie]) -> ReadDie:
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


def _one_large_die(view: View, die: ReadDie) -> bool:
    """Whether a die read at a large body's size is one die filling that body, not dice lying in a tray seen whole (a
    die-shaped body too) read as the pips of one, nor a face across a row of touching dice: its face spans most of
    the body and no more (LARGE_FACE; a 1's size says nothing, being the body's), and its pips are discs
    (`_round_pips`)."""
    if die.value is None:
        return True
    fills = LARGE_FACE[0] * view.die_px <= die.size <= LARGE_FACE[1] * view.die_px
    return (die.value == 1 or fills) and _round_pips(view, die)


def _round_pips(view: View, die: ReadDie) -> bool:
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
    are, `View.row`: two large 1s lying close, read right at their row's size, made one 2 at their pips')."""
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


def _polarity(dice: list[ReadDie]) -> str | None:
    """The polarity of most of the faces read among `dice` ("dark" where as many are light), or None when none is."""
    read = [die.polarity for die in dice if die.value is not None and die.polarity is not None]
    if not read:
        return None
    return "light" if 2 * read.count("light") > len(read) else "dark"


def _dice_read(dice: list[ReadDie]) -> int:
    return sum(die.value is not None for die in dice)


def _pips_read(dice: list[ReadDie]) -> int:
    """How many pips the read faces among `dice` hold."""
    return sum(die.value or 0 for die in dice)


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


def _in_input(view: View, face: FaceFound) -> ReadDie:
    """A face found on the view's working frame, as a die in input pixels."""
    center = (face.center[0] / view.scale, face.center[1] / view.scale)
    size = face.size / view.scale
    return ReadDie(center, size, face.value, face.confidence, bbox=_box(center, size), polarity=face.polarity)


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
    """The frame in BGR: a grey one's level in every channel, a BGRA one without its alpha."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3) \
            or (frame.ndim == 3 and frame.shape[2] not in (1, 3, 4)):
        raise ValueError("a frame must be an 8-bit image array: grey, BGR or BGRA")
    if frame.ndim == 2:
        frame = frame[:, :, None]
    if frame.shape[2] == 1:
        return np.repeat(frame, 3, axis=2)
    if frame.shape[2] == 4:
        return np.ascontiguousarray(frame[:, :, :3])
    return frame
