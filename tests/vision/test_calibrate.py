"""calibrate_tray stores only what the frames show clearly: one die size when the dice show one, the empty tray
when the camera stood still."""
import numpy as np

from companion.vision.calibrate import calibrate_tray
from companion.vision.synth import SynthDie, render_scene

WALL = (60, 50, 45)


def still_frames(n=5, sizes=(48.0,), shift=0):
    """Frames of three dice each, placed differently, on a tray whose walls (left and top) the camera sees; each
    frame `shift` px further right and down than the last when the camera moves."""
    frames = []
    for k in range(n):
        dice = [SynthDie(value=1 + (k + j) % 6, center=(160 + 140 * j + 25 * k, 170 + 60 * ((j + k) % 3)),
                         size=sizes[j % len(sizes)], angle=20 * k + 7 * j) for j in range(3)]
        frame = render_scene(dice, seed=k)
        edge = 60 + shift * k
        frame[:, :edge] = WALL
        frame[:edge, :] = WALL
        frames.append(frame)
    return frames


def test_a_still_tray_of_like_dice_gives_die_size_and_background():
    profile = calibrate_tray(still_frames())
    assert 40 <= profile.die_px <= 60
    assert profile.background_image() is not None and profile.tray is not None


def test_dice_of_several_sizes_store_no_die_size():
    """One size would set the reader's scale wrong for every die of the other size."""
    profile = calibrate_tray(still_frames(sizes=(38.0, 54.0)))
    assert profile.die_px is None
    assert any("several sizes" in w for w in profile.warnings)


def test_a_camera_that_moved_between_frames_stores_no_background():
    """The tray's walls moved by 30 px from frame to frame: their median is no empty tray. Most of each frame
    still matches it (0.8 of the frame was enough to pass for still before)."""
    profile = calibrate_tray(still_frames(shift=30))
    assert profile.background_image() is None and profile.tray is None
    assert any("one still tray" in w for w in profile.warnings)
