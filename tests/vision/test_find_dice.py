"""Dice found by their bodies against the tray (find_dice), on rendered frames."""
from companion.vision.find_dice import Foreground, Tray, find_regions, lone_dice
from companion.vision.profile import Profile
from companion.vision.synth import SynthDie, render_scene

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


def test_only_dice_lying_alone_are_lone_dice():
    """The second look (second_look.py) is taken only on dice lying alone: on touching dice it would make faces
    across them."""
    lone = lone_dice(foreground(), None)
    assert len(lone) == 3
    for x, y in ALONE:
        assert any(r.box[0] < x < r.box[2] and r.box[1] < y < r.box[3] for r in lone)
