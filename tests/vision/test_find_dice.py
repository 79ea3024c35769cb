"""Dice found by their bodies against the tray (find_dice), on rendered frames."""
import cv2
import numpy as np
import pytest

from companion.vision.find_dice import (ROW_OF_TWO, Foreground, Region, Tray, about_square, die_shaped,
                                        die_shaped_blobs, die_size, find_regions, large_die_sizes, row_axis,
                                        solidity, split_blob, touching_row, tray_from_border)
from companion.vision.profile import Profile
from companion.vision.synth import SynthDie, render_scene
from companion.vision.view import L_SOLIDITY

ALONE = ((450.0, 300.0), (500.0, 120.0), (300.0, 380.0))
TOUCHING = ((150.0, 200.0), (194.0, 200.0))


def foreground():
    """A frame of three dice lying alone and two touching (the frame's typical body is one die's)."""
    dice = [SynthDie(value=1 + k, center=c, size=44.0) for k, c in enumerate(ALONE + TOUCHING)]
    frame = render_scene(dice, seed=3)
    return Foreground(frame, Tray(frame, None), Profile().min_contrast)


def test_touching_dice_are_cut_apart_and_a_die_lying_alone_is_one_region():
    regions, size = find_regions(foreground(), None)
    assert len(regions) == 5 and 44 <= size <= 60  # a body takes in the die's shadow
    assert sorted(r.alone for r in regions) == [False, False, True, True, True]


def test_only_dice_lying_alone_are_regions_alone():
    """The second look (second_look.py) is taken only on dice lying alone: on touching dice it would make faces
    across them."""
    lone = [region for region in find_regions(foreground(), None)[0] if region.alone]
    assert len(lone) == 3
    for x, y in ALONE:
        assert any(r.box[0] < x < r.box[2] and r.box[1] < y < r.box[3] for r in lone)


def test_only_whole_square_solid_bodies_are_die_shaped():
    """A die lying alone but unread is reported unsure only when its body looks like one die: about square and
    solid however it is turned, and whole in the frame. A cable's length, a hollow outline and a body cut by the
    frame's edge are no such die."""
    frame = render_scene([SynthDie(value=2, center=(150.0, 150.0), size=44.0, angle=40.0),
                          SynthDie(value=3, center=(20.0, 380.0), size=44.0)], seed=3)
    cv2.line(frame, (330, 100), (430, 160), (40, 40, 45), 14)  # a cable
    cv2.rectangle(frame, (420, 320), (470, 370), (40, 40, 45), 5)  # an outline a die wide
    regions, _ = find_regions(Foreground(frame, Tray(frame, None), Profile().min_contrast), 50.0)
    regions = [region for region in regions if region.alone]

    def at(x, y):
        return next(r for r in regions if r.box[0] <= x <= r.box[2] and r.box[1] <= y <= r.box[3])

    assert die_shaped(at(150, 150), frame.shape)
    assert not die_shaped(at(380, 130), frame.shape)
    assert not die_shaped(at(445, 322), frame.shape)
    assert not die_shaped(at(20, 380), frame.shape)


def test_the_parts_of_two_touching_dice_are_about_square_and_a_strip_is_not():
    """A second look is taken at a heap's parts about square only (reader `_seen_again_in_heaps`): each of two
    touching dice, and a die turned 45 degrees, whose upright box is square too; a strip along a heap's edge is
    not."""
    parts = [region for region in find_regions(foreground(), None)[0] if not region.alone]
    assert len(parts) == 2 and all(about_square(region) for region in parts)
    turned = render_scene([SynthDie(value=5, center=(200.0, 200.0), size=60.0, angle=45.0)], seed=3)
    assert about_square(find_regions(Foreground(turned, Tray(turned, None), Profile().min_contrast), 60.0)[0][0])
    strip = np.full((12, 40), 255, np.uint8)
    assert not about_square(Region((20.0, 6.0), 26.0, strip, (0, 0, 40, 12)))


def test_a_heap_is_cut_alike_whatever_ran_before():
    """k-means++ draws its first centres from OpenCV's global random state, which any other OpenCV call may have
    moved: a round heap of four dice, which k-means may cut in many ways, is cut the same way every time (the
    reader shows each part of a heap to die_net, so a frame would otherwise read differently from run to run)."""
    heap = np.zeros((120, 120), np.uint8)
    cv2.circle(heap, (60, 60), 40, 1, -1)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(heap)

    def cut_after(seed):
        cv2.setRNGSeed(seed)
        return [region.center for region in split_blob(labels, stats[1], 1, 4)]

    assert cut_after(1) == cut_after(2)


def test_a_die_as_large_as_two_but_shaped_like_one_is_one_region_alone():
    """Dice in one photo may differ half again in size: a large one, its shadow and all, covers as much as two of
    the frame's typical dice. Shaped like one die, it is one region lying alone (the second look and the unsure
    report are only for such), not two halves; two touching dice of the typical size are still cut apart."""
    dice = [SynthDie(value=1 + k, center=c, size=44.0) for k, c in enumerate(ALONE + TOUCHING)]
    frame = render_scene(dice + [SynthDie(value=5, center=(150.0, 400.0), size=62.0, angle=30.0)], seed=3)
    regions, size = find_regions(Foreground(frame, Tray(frame, None), Profile().min_contrast), None)
    large = [r for r in regions if r.box[0] < 150 < r.box[2] and r.box[1] < 400 < r.box[3]]
    assert len(large) == 1 and large[0].alone and large[0].size > 1.3 * size
    assert sum(not r.alone for r in regions) == 2


def test_a_heap_the_frames_edge_cuts_is_not_cut_into_parts():
    """What lies past the frame's edge is unseen, so how many dice a blob there holds is not known: at a webcam's
    edge such a blob is a laptop or a cable more often than a heap. Two touching dice against the edge are left
    out; the same two inside the frame are cut into two parts."""
    lone = [SynthDie(value=2, center=c, size=44.0) for c in ((450.0, 300.0), (500.0, 120.0), (300.0, 380.0))]
    for x, cut in ((20.0, True), (150.0, False)):
        touching = [SynthDie(value=3, center=(x, 200.0), size=44.0), SynthDie(value=4, center=(x + 44, 200.0),
                                                                              size=44.0)]
        frame = render_scene(lone + touching, seed=3)
        regions, _ = find_regions(Foreground(frame, Tray(frame, None), Profile().min_contrast), None)
        assert sum(not region.alone for region in regions) == (0 if cut else 2)
        assert sum(region.alone for region in regions) == 3


def test_a_heap_of_every_die_a_roll_may_hold_is_cut_into_parts():
    """25 dice touching in one blob, with three lying alone to give a die's size: the heap is dice, not the tray,
    and each part of it is shown to die_net where no die is read."""
    heap = [SynthDie(value=1 + k % 6, center=(150.0 + 44 * (k % 5), 110.0 + 44 * (k // 5)), size=44.0)
            for k in range(25)]
    lone = [SynthDie(value=2, center=c, size=44.0) for c in ((520.0, 90.0), (560.0, 250.0), (520.0, 400.0))]
    frame = render_scene(heap + lone, seed=4)
    regions, _ = find_regions(Foreground(frame, Tray(frame, None), Profile().min_contrast), None)
    parts = [region for region in regions if not region.alone]
    assert len(parts) >= 20 and all(region.center[0] < 400 for region in parts)
    assert sum(region.alone for region in regions) == 3


def test_the_tray_from_the_border_shows_the_tray_under_a_large_die():
    """A die over about a sixth of the frame fills the cells the frame's own median is taken on, and that median
    shows the die; a plane fitted to the frame's border shows the lit tray under it, and the die stands out whole."""
    die = SynthDie(value=4, center=(330.0, 200.0), size=300.0, angle=35.0)  # a corner past the top edge
    tray_colour = (60, 110, 50)
    frame = render_scene([die], background=tray_colour, light_gradient=0.3, noise=3, seed=2)
    empty = cv2.resize(render_scene([], background=tray_colour, light_gradient=0.3, noise=0), (64, 48),
                       interpolation=cv2.INTER_AREA)
    fitted = tray_from_border(frame)
    assert np.abs(fitted.astype(int) - empty).max() <= 8
    own = Tray(frame, None).estimates[0]
    assert np.abs(cv2.resize(own, (64, 48)).astype(int) - empty)[20:28, 28:36].max() > 60  # the median is the die
    [size] = large_die_sizes(Foreground(frame, Tray(frame, fitted), Profile().min_contrast), 100)
    assert 0.9 * 300 < size < 1.3 * 300


def test_a_row_of_two_large_dice_gives_one_dies_size():
    """Two large dice lying close make one blob twice as long as wide, whose area is shared between them."""
    dice = [SynthDie(value=3, center=(200.0 + 170.0 * k, 240.0), size=150.0, angle=10.0 + 30 * k) for k in range(2)]
    frame = render_scene(dice, background=(60, 110, 50), light_gradient=0.2, noise=3, seed=2)
    foreground = Foreground(frame, Tray(frame, tray_from_border(frame)), Profile().min_contrast)
    assert len(foreground.blobs(100 ** 2)) == 1  # one blob of both
    [size] = large_die_sizes(foreground, 100)
    assert 0.9 * 150 < size < 1.3 * 150


def test_die_shaped_blobs_are_large_dice_whole_not_rows_nor_small_dice():
    """A die far larger than the frame's others is one blob of one die's shape, whatever its area counts in dice;
    two dice touching side by side make a blob twice as long as wide, and small dice fall under the least size."""
    small = [SynthDie(value=3, center=(110.0, 100.0), size=36.0), SynthDie(value=5, center=(530.0, 100.0), size=36.0)]
    large = SynthDie(value=4, center=(320.0, 240.0), size=66.0, angle=25.0)
    row = [SynthDie(value=2, center=(150.0 + 45.0 * k, 380.0), size=44.0) for k in range(2)]
    frame = render_scene([*small, large, *row], seed=3)
    blobs = die_shaped_blobs(Foreground(frame, Tray(frame, None), Profile().min_contrast), 55)
    assert len(blobs) == 1
    x0, y0, x1, y1 = blobs[0].box
    assert x0 < 320 < x1 and y0 < 240 < y1 and 66 <= blobs[0].size < 90  # its shadow is part of its body


def test_two_touching_dice_alone_in_a_frame_are_sized_as_one_die_each():
    """Two dice side by side make one blob 1.5-2.2 times as long as wide by its second moments (one die: 1.0-1.4),
    whichever way it lies; alone in a frame (no other blob outnumbers it), it is two dice and its area is shared:
    sized as one die it was half as large again, and at that size their two 1s were one 2."""
    dice = [SynthDie(value=1, center=(300.0 + 46.2 * k * np.cos(0.35), 230.0 + 46.2 * k * np.sin(0.35)), size=44.0,
                     angle=20.0 + 5 * k) for k in range(2)]
    frame = render_scene(dice, seed=3)
    pair = Foreground(frame, Tray(frame, None), Profile().min_contrast)
    [blob] = pair.blobs(pair.least_area)
    assert ROW_OF_TWO <= pair.elongation(blob) <= 2.3
    row = touching_row(pair)
    assert row.dice == 2 and 44 <= row.share <= 60  # a body takes in the die's shadow, as one die's alone
    single = render_scene(dice[:1], seed=3)
    alone = Foreground(single, Tray(single, None), Profile().min_contrast)
    [blob] = alone.blobs(alone.least_area)
    assert alone.elongation(blob) <= 1.4


@pytest.mark.parametrize("angle", [30, 35, 55, 60])
def test_a_row_of_two_lying_askew_alone_in_a_frame_is_sized_as_two_dice(angle):
    """Askew, a row of two dice 40 px across fills too little of its upright box to be compact (`_compact`): the
    frame's one blob, twice as long as wide in the box turned to fit it, is two dice."""
    frame = np.full((480, 640, 3), (60, 110, 50), np.uint8)
    corners = cv2.boxPoints(((320.0, 240.0), (80.0, 40.0), angle))
    cv2.fillPoly(frame, [np.round(corners).astype(np.int32)], (40, 40, 190))
    pair = Foreground(frame, Tray(frame, None), Profile().min_contrast)
    assert die_size(pair) is None
    row = touching_row(pair)
    assert row.dice == 2 and 40 <= row.share <= 45  # the foreground reaches a little past a body


def test_a_row_of_two_as_long_as_three_less_their_shadows_may_be_three():
    """Black dice on wood (bench_reader_synthetic --three): the box turned to fit three touching dice in a line takes
    in their shadows and measures 2.4 times as long as wide, as a pair lying half a die apart may. The row is two
    dice by the plain ratio, and three less the shadows (Row.as_three), meeting where the dice meet."""
    centres = np.array([(269.49, 208.86), (291.92, 267.9), (314.36, 326.93)])
    dice = [SynthDie(value=v, center=tuple(c), size=60.0, angle=69.19, body=(30, 30, 30), pips=(235, 235, 235))
            for v, c in zip((5, 2, 4), centres)]
    frame = render_scene(dice, background=(120, 170, 210), blur=0.7, noise=3, light_gradient=0.2, texture=3.0,
                         seed=846)
    row = touching_row(Foreground(frame, Tray(frame, None), Profile().min_contrast))
    three = row.as_three()
    assert row.dice == 2 and three.dice == 3 and three.share < row.share
    seams = np.array(sorted(three.seams(), key=lambda point: point[1]))
    assert np.hypot(*(seams - (centres[:-1] + centres[1:]) / 2).T).max() < 0.25 * 60
    pair = render_scene(dice[:2], background=(120, 170, 210), blur=0.7, noise=3, light_gradient=0.2, texture=3.0,
                        seed=846)
    assert touching_row(Foreground(pair, Tray(pair, None), Profile().min_contrast)).as_three() is None


@pytest.mark.parametrize("angle", [0, 30, 60, 90, 120, 150])
def test_a_rows_axis_runs_along_its_long_side(angle):
    """The unit vector along a row of two dice (its seam lies across it: view.View.seams), either way."""
    frame = np.full((480, 640, 3), (60, 110, 50), np.uint8)
    corners = cv2.boxPoints(((320.0, 240.0), (80.0, 40.0), angle))
    cv2.fillPoly(frame, [np.round(corners).astype(np.int32)], (40, 40, 190))
    pair = Foreground(frame, Tray(frame, None), Profile().min_contrast)
    (blob,) = pair.blobs(pair.least_area)
    along = np.array(row_axis(split_blob(pair.labels, pair.stats[blob], blob, 1)[0]))
    expected = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    assert np.isclose(np.linalg.norm(along), 1.0) and abs(along @ expected) > 0.99


@pytest.mark.parametrize("angle", [25.0, 45.0, 70.0])
@pytest.mark.parametrize("size", [40.0, 60.0])
def test_an_l_of_three_dice_is_notched_and_one_die_is_not(angle, size):
    """Three touching dice in an L fill under 0.92 of their blob's convex hull, one die 0.95 or more, as the reader
    sees them (a copy of the frame at most 320 px across: view.FIND_PX) however they are turned. Lying square, an
    L fills 0.93 (view.L_SOLIDITY: such an L is told by its faces, SMALL_FACES)."""
    turn = np.radians(angle)
    along, across = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    corner = np.array([300.0, 220.0])
    centres = [corner, corner + 1.03 * size * along, corner + 1.03 * size * across]
    dice = [SynthDie(value=v, center=tuple(c), size=size, angle=angle) for v, c in zip((2, 4, 6), centres)]

    def one_blob(frame):
        small = cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        blobs = Foreground(small, Tray(small, None), Profile().min_contrast)
        (blob,) = blobs.blobs(blobs.least_area)
        return split_blob(blobs.labels, blobs.stats[blob], blob, 1)[0]

    assert 0.8 < solidity(one_blob(render_scene(dice, seed=3))) < L_SOLIDITY
    assert solidity(one_blob(render_scene(dice[:1], seed=3))) >= 0.95
