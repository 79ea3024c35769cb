"""A die far larger than the frame's others, read again at its own scale (companion/vision/own_scale.py)."""
import numpy as np
import pytest

from companion.vision import DiceReader
from companion.vision.synth import SynthDie, render_scene

FELT = (60, 110, 50)
SMALL = [SynthDie(value=v, center=c, size=36.0, angle=a)
         for v, c, a in ((3, (160, 130), 10), (5, (480, 130), 35), (2, (160, 350), 60), (6, (480, 350), 80))]
"""Four dice of 36 px near the frame's corners: they set its scale."""


def values_near(read, center, reach):
    return sorted((d.value for d in read if np.hypot(d.center[0] - center[0], d.center[1] - center[1]) < reach),
                  key=str)


@pytest.mark.parametrize("value, size, angle", [(2, 60, 25), (4, 60, 0), (4, 66, 50), (5, 60, 50), (6, 66, 0)])
def test_a_die_far_larger_than_the_others_is_read_at_its_own_scale(value, size, angle):
    """Read at the scale of 36 px dice, a die of 60-66 px showed its 2 as two 1s, its 4 as two 2s or one, its 5 as a
    4, its 6 as two unread 3s (its columns), each at 1.0: its pips are larger and further apart than any face of
    the frame's dice."""
    large = SynthDie(value=value, center=(320, 240), size=size, angle=angle)
    read = DiceReader().read(render_scene([*SMALL, large], background=FELT))
    assert values_near(read, large.center, 0.6 * size) == [value]
    assert [values_near(read, die.center, 20) for die in SMALL] == [[3], [5], [2], [6]]


def test_a_square_block_of_touching_ones_is_not_read_as_one_large_face():
    """Four dice touching in a square make one blob of one die's shape, twice the others' size: read at its scale,
    their four 1s and the dark spot where the dice's corners meet are a 5. The frame read four faces there, as
    many as a block of dice shows, and its reading stands."""
    turn = np.radians(20)
    axes = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    block = [SynthDie(value=1, center=tuple(np.array([320, 240]) + axes @ (np.array(cell) * 36.7)), size=36.0,
                      angle=20) for cell in ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5))]
    read = DiceReader().read(render_scene([*block, *SMALL], background=(140, 80, 40)))
    assert values_near(read, (320, 240), 43) == [1, 1, 1, 1]
