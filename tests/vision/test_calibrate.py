"""calibrate_tray stores only what the frames show clearly: one die size when the dice show one, the empty tray
when the camera stood still."""
import numpy as np
import pytest

from companion.vision import DiceReader
from companion.vision.calibrate import _stored_size, calibrate_tray
from companion.vision.reader import ReadDie
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


@pytest.mark.parametrize("size", [5.5, 2400.0])
def test_dice_read_at_a_size_no_profile_stores_store_none(size):
    """Specks of a grainy frame read as dice of 5 px made calibrate fail on the profile's own check."""
    dice = [ReadDie(center=(40.0 * k, 30.0), size=size, value=4, confidence=1.0) for k in range(3)]
    stored, why = _stored_size(dice)
    assert stored is None and f"are {size:.0f} px across" in why


def test_a_camera_that_moved_between_frames_stores_no_background():
    """The tray's walls moved by 30 px from frame to frame: their median is no empty tray. Most of each frame
    still matches it (0.8 of the frame was enough to pass for still before)."""
    profile = calibrate_tray(still_frames(shift=30))
    assert profile.background_image() is None and profile.tray is None
    assert any("one still tray" in w for w in profile.warnings)


def test_pips_lighter_in_one_channel_and_darker_in_another_store_no_polarity():
    """Yellow pips on a blue die are darker than the body in blue and lighter in red: the reads came out "dark",
    and a profile that looked for dark pips only missed the 3s to 6s, found in both polarities. A polarity is
    stored only when the frames read as well with it; ivory dice with black pips keep theirs."""
    def frames(body, pips):
        rng = np.random.default_rng(1)
        return [render_scene([SynthDie(value=int(rng.integers(1, 7)), size=48, angle=float(rng.uniform(0, 90)),
                                       center=(90 + (k % 4) * 150, 110 + (k // 4) * 200), body=body, pips=pips)
                              for k in range(8)], seed=f) for f in range(6)]

    blue = calibrate_tray(frames((200, 120, 40), (30, 220, 240)))
    assert blue.pip_polarity == "auto" and any("polarity" in w for w in blue.warnings)
    dice = [SynthDie(value=v, center=(90 + (k % 3) * 220, 120 + (k // 3) * 220), size=48, angle=15 * k,
                     body=(200, 120, 40), pips=(30, 220, 240)) for k, v in enumerate(range(1, 7))]
    read = DiceReader(blue).read(render_scene(dice))
    assert sorted(d.value for d in read) == [1, 2, 3, 4, 5, 6]
    assert calibrate_tray(frames((228, 234, 238), (35, 30, 30))).pip_polarity == "dark"
