"""Which of two faces found close together is a die's top face (pip_faces.top_faces), and the frame's pip spacing."""
import pytest

from companion.vision import DiceReader
from companion.vision.face_judge import FaceFound
from companion.vision.pip_faces import top_faces
from companion.vision.synth import SynthDie, render_scene

DOWN, ACROSS = (0.0, 1.0), (1.0, 0.0)


def face(center, slant, short_axis, pips=5):
    return FaceFound(center, 30.0, pips, 1.0, "dark", pips, slant, short_axis)


def test_the_side_face_beside_a_top_face_seen_from_an_angle_is_dropped():
    """The camera leans toward the table's near edge: the top face and the side face below it in the frame are
    both shortened along the line between them, 1.2 face sizes apart."""
    top, side = face((100, 100), 1.3, DOWN), face((100, 136), 1.7, DOWN, pips=2)
    assert top_faces([side, top]) == [top]


@pytest.mark.parametrize("top, side", [
    (face((100, 100), 1.05, DOWN), face((100, 136), 1.7, DOWN, pips=2)),  # a die tilted against one lying flat
    (face((100, 100), 1.3, DOWN), face((100, 136), 1.7, ACROSS, pips=2)),  # touching dice turned their own ways
    (face((100, 100), 1.3, DOWN), face((100, 136), 1.7, DOWN, pips=1)),  # a lone pip's shape says little
    (face((100, 100), 1.3, DOWN), face((100, 145), 1.7, DOWN, pips=2)),  # 1.5 face sizes apart: two dice
], ids=["top-seen-square-on", "shortened-across", "a-one", "too-far"])
def test_faces_that_need_not_be_one_die_are_both_kept(top, side):
    assert sorted(top_faces([side, top]), key=lambda f: f.center[1]) == [top, side]


@pytest.mark.parametrize("seed", [546, 1])
def test_green_between_a_fives_red_pips_sets_no_spacing(seed):
    """Green dice with red pips on a white tray, one of them large (bench_reader_synthetic --unlike): the green
    between a 5's pips stands out as light blobs, which lined up with its red middle pip as a 3 of two thirds its
    spacing. Taken as the frame's spacing, it made the 2 below too wide for a face, and its pips two 1s at 1.0."""
    green, red = (60, 160, 30), (40, 40, 220)
    dice = [SynthDie(value=v, center=c, size=s, angle=a, body=green, pips=red)
            for v, c, s, a in ((1, (369.6, 260.2), 66, 76.68), (5, (160, 130), 36, 6.12), (1, (480, 130), 36, 18.01),
                               (2, (160, 350), 36, 57.31), (5, (480, 350), 36, 87.48))]
    frame = render_scene(dice, background=(215, 220, 222), blur=0.7, noise=3, light_gradient=0.2, texture=3.0,
                         seed=seed)
    read = sorted((round(d.center[0] / 10), round(d.center[1] / 10), d.value) for d in DiceReader().read(frame))
    assert read == [(16, 13, 5), (16, 35, 2), (37, 26, 1), (48, 13, 1), (48, 35, 5)]
