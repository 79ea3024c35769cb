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


@pytest.mark.parametrize("seed", [3, 6, 7])
def test_the_sides_of_a_large_four_are_not_read_as_twos(seed):
    """Blue dice with yellow pips on a white tray (bench_reader_synthetic --unlike): a 4 of 66 px among dice of 36
    px. At the frame's scale each side of the 4 was read as a 2 at 1.0, its other side 3.2 of their spacings from
    the 2's centre, past the reach a 2's like pips are looked for in (face_judge.SPILL). The 4 may be read, or
    left unread when a pip joins the bevel at its own scale too, but never as 2s."""
    blue, yellow = (200, 120, 40), (30, 220, 240)
    large = SynthDie(value=4, center=(296.8, 214.7), size=66, angle=88.11, body=blue, pips=yellow)
    small = [SynthDie(value=v, center=c, size=36, angle=a, body=blue, pips=yellow)
             for v, c, a in ((3, (160, 130), 79.83), (6, (480, 130), 36.71), (1, (160, 350), 89.56),
                             (5, (480, 350), 11.93))]
    frame = render_scene([large, *small], background=(215, 220, 222), blur=0.7, noise=3, light_gradient=0.2,
                         texture=3.0, seed=seed)
    read = DiceReader().read(frame)
    assert 2 not in values_near(read, large.center, 0.6 * 66)
    assert [values_near(read, die.center, 20) for die in small] == [[3], [6], [1], [5]]
