"""The synthetic dice renderer: what it draws is what it was asked for, and the same seed gives the same frame."""
import cv2
import numpy as np
import pytest

from companion.vision.synth import (COLOUR_FACES, PIP_LAYOUTS, SynthDie, render_roll_frames, render_scene,
                                    render_views)


def dark_on_face(frame, die, below=100):
    """The dark pixels inside the disc of the die's top face, as a plain threshold sees them."""
    disc = np.zeros(frame.shape[:2], np.uint8)
    cv2.circle(disc, (round(die.center[0]), round(die.center[1])), round(die.size * 0.42), 1, -1)
    return (cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) < below) & (disc > 0)


def dark_blobs_on_die(frame, die):
    count, _ = cv2.connectedComponents(dark_on_face(frame, die).astype(np.uint8))
    return count - 1


@pytest.mark.parametrize("value", range(1, 7))
def test_a_pip_die_shows_its_value_in_pips(value):
    die = SynthDie(value=value, center=(80, 80), size=50, angle=17 * value)
    assert dark_blobs_on_die(render_scene([die], size=(160, 160)), die) == value


def test_pips_are_a_fifth_of_the_die_across():
    die = SynthDie(value=1, center=(80, 80), size=60)
    pip_area = np.count_nonzero(dark_on_face(render_scene([die], size=(160, 160), noise=0), die, below=130))
    assert pip_area == pytest.approx(np.pi * (60 / 10) ** 2, rel=0.15)


def test_the_same_seed_gives_the_same_frame_and_another_seed_only_other_noise():
    dice = [SynthDie(value=4, center=(100, 100)), SynthDie(kind="colour", face="blue", center=(200, 120))]
    a, b = render_scene(dice, seed=3), render_scene(dice, seed=3)
    c = render_scene(dice, seed=4)
    assert np.array_equal(a, b)
    difference = np.abs(a.astype(int) - c.astype(int))
    assert difference.any() and difference.mean() < 3


def test_a_colour_face_is_painted_in_its_colour():
    die = SynthDie(kind="colour", face="orange", center=(80, 80), size=50)
    frame = render_scene([die], size=(160, 160), noise=0)
    assert np.abs(frame[80, 80].astype(int) - COLOUR_FACES["orange"]).max() <= 2


def test_a_colour_face_can_be_painted_in_any_colour():
    die = SynthDie(kind="colour", face="vermilion", paint=(40, 70, 230), center=(80, 80), size=50)
    frame = render_scene([die], size=(160, 160), noise=0)
    assert np.abs(frame[80, 80].astype(int) - (40, 70, 230)).max() <= 2


def test_channel_mix_lets_each_channel_pick_up_the_others():
    die = SynthDie(kind="colour", face="red", center=(80, 80), size=50)
    mix = ((0.9, 0.1, 0.0), (0.0, 0.9, 0.1), (0.0, 0.0, 1.0))
    frame = render_scene([die], size=(160, 160), noise=0, texture=0, channel_mix=mix).astype(float)
    b, g, r = COLOUR_FACES["red"]
    assert frame[80, 80] == pytest.approx((0.9 * b + 0.1 * g, 0.9 * g + 0.1 * r, r), abs=1.5)


def test_symbols_are_drawn_and_blank_is_not():
    marks = {}
    for symbol in ("blank", "star", "crescent", "cross", "ring", "triangle"):
        die = SynthDie(kind="symbol", face="any", symbol=symbol, center=(80, 80), size=50, pips=(20, 20, 20))
        marks[symbol] = dark_blobs_on_die(render_scene([die], size=(160, 160)), die)
    assert marks["blank"] == 0
    assert all(marks[s] >= 1 for s in marks if s != "blank")


def test_white_balance_scales_each_channel():
    die = SynthDie(value=2, center=(80, 80))
    neutral = render_scene([die], size=(160, 160), noise=0).astype(float)
    warm = render_scene([die], size=(160, 160), noise=0, white_balance=(0.5, 1.0, 0.8)).astype(float)
    tray = (slice(5, 20), slice(5, 20))
    assert warm[tray].mean(axis=(0, 1)) / neutral[tray].mean(axis=(0, 1)) == pytest.approx((0.5, 1.0, 0.8), abs=0.02)


def test_light_gradient_darkens_the_far_corner():
    frame = render_scene([], size=(200, 200), noise=0, light_gradient=0.4).astype(float)
    assert frame[190:, 190:].mean() / frame[:10, :10].mean() == pytest.approx(0.62, abs=0.04)


def test_a_roll_tumbles_then_lies_still():
    dice = [SynthDie(value=v, center=(150 + 100 * i, 240)) for i, v in enumerate((6, 1, 3))]
    frames = render_roll_frames(dice, moving=6, still=4, seed=2)
    assert len(frames) == 10 and all(f.shape == (480, 640, 3) and f.dtype == np.uint8 for f in frames)
    changed = [np.count_nonzero(np.abs(frames[i + 1].astype(int) - frames[i]) > 30) for i in range(9)]
    assert min(changed[:5]) > 1000 and max(changed[6:]) == 0
    assert np.array_equal(frames[-1], render_scene(dice, seed=2 * 1000 + 9))
    assert render_roll_frames(dice, moving=6, still=4, seed=2)[3].tobytes() == frames[3].tobytes()


def test_views_place_the_die_inside_the_frame_at_varied_turns():
    views = render_views(SynthDie(value=5, size=40), 12, seed=1, size=(160, 120))
    assert len(views) == 12
    for frame, die in views:
        assert frame.shape == (120, 160, 3)
        assert die.size <= die.center[0] <= 160 - die.size and die.size <= die.center[1] <= 120 - die.size
        assert dark_blobs_on_die(frame, die) == 5
    assert len({round(d.angle) for _, d in views}) == 12


@pytest.mark.parametrize("bad, message", [
    (dict(value=7), "value 1-6"),
    (dict(kind="symbol", face="Sweet"), "unknown symbol"),
    (dict(kind="colour", face="pink"), "unknown colour face"),
    (dict(kind="marbled", value=1), "kind"),
    (dict(value=1, size=4), "8 px"),
])
def test_a_die_that_cannot_be_drawn_is_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        SynthDie(**bad)


def test_every_pip_layout_fits_on_the_face():
    for value, pips in PIP_LAYOUTS.items():
        assert len(pips) == value
        assert all(abs(x) + 0.1 <= 0.44 and abs(y) + 0.1 <= 0.44 for x, y in pips)
