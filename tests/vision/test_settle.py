"""The settle detector on rendered camera sequences: rolls, flicker, a hand over the tray, drifting light."""
import cv2
import numpy as np
import pytest

from companion.errors import ConfigError
from companion.vision.settle import MOVING, SETTLED, SettleDetector
from companion.vision.synth import SynthDie, render_roll_frames, render_scene

DICE = (SynthDie(value=3, center=(200, 200), angle=10), SynthDie(value=5, center=(300, 260), angle=35),
        SynthDie(value=1, center=(420, 220), angle=70))
READING = (3, 5, 1)


def still_frames(n, seed=0, dice=DICE, **scene):
    return [render_scene(dice, seed=seed * 100 + i, **scene) for i in range(n)]


def feed(detector, frames, readings=None):
    """Run frames through the detector as the session does: offer a reading for every settled frame.
    Returns the states and the indices of frames whose reading was reported."""
    states, reported = [], []
    for i, frame in enumerate(frames):
        states.append(detector.update(frame))
        reading = readings[i] if readings is not None else READING
        if states[-1] == SETTLED and detector.offer(reading):
            reported.append(i)
    return states, reported


def with_hand(frame, x):
    """A hand and forearm reaching in from the bottom edge over the tray, centred at column x."""
    out = frame.copy()
    cv2.ellipse(out, (int(x), 250), (70, 95), 15, 0, 360, (140, 170, 215), -1, cv2.LINE_AA)
    cv2.rectangle(out, (int(x) - 45, 300), (int(x) + 45, 480), (130, 160, 205), -1)
    return out


def test_a_roll_is_moving_while_tumbling_then_reported_once_when_still():
    frames = render_roll_frames(DICE, moving=10, still=12, seed=4)
    detector = SettleDetector(quiet_frames=3, repeats=2)
    states, reported = feed(detector, frames)
    assert states[:11] == [MOVING] * 11              # every tumbling frame, and the first still one, moves
    assert states[13:] == [SETTLED] * 9               # quiet for 3 frames, then settled for good
    assert reported == [14]                           # two equal settled readings in a row, and never again
    assert detector.is_settled


def test_tunables_set_how_long_it_waits():
    frames = render_roll_frames(DICE, moving=6, still=14, seed=5)
    states, reported = feed(SettleDetector(quiet_frames=6, repeats=4), frames)
    assert states.index(SETTLED) == 6 + 6
    assert reported == [6 + 6 + 3]


def test_a_flickering_reading_is_not_reported_until_it_repeats():
    frames = still_frames(14)
    readings = [(3, 5, 1), (3, 5, 2)] * 4 + [(3, 5, 1)] * 6
    states, reported = feed(SettleDetector(quiet_frames=2, repeats=3), frames, readings)
    assert states[2] == SETTLED
    assert reported == [10]                           # third (3, 5, 1) in a row after the flicker stops


def test_a_reading_offered_while_moving_is_never_reported():
    detector = SettleDetector(quiet_frames=2, repeats=1)
    for frame in render_roll_frames(DICE, moving=8, still=0, seed=1):
        assert detector.update(frame) == MOVING
        assert not detector.offer(READING)


def test_light_flicker_and_sensor_noise_are_not_motion():
    frames = [render_scene(DICE, seed=i, noise=5.0, white_balance=(g, g, g))
              for i, g in enumerate([1.0, 0.85, 1.1, 0.9, 1.0, 0.8, 1.12, 0.95] * 2)]
    states, reported = feed(SettleDetector(quiet_frames=3, repeats=2), frames)
    assert states[3:] == [SETTLED] * 13
    assert reported == [4]


def test_slow_drift_of_light_keeps_the_scene_settled_and_reports_once():
    frames = [render_scene(DICE, seed=i, light_gradient=0.4 * i / 60, white_balance=(1 - i / 150,) * 3)
              for i in range(60)]
    states, reported = feed(SettleDetector(), frames)
    assert states[3:] == [SETTLED] * 57
    assert reported == [4]


def test_a_hand_passing_over_still_dice_moves_the_scene_but_the_roll_is_not_reported_twice():
    still = still_frames(8)
    hand = [with_hand(render_scene(DICE, seed=50 + i), x) for i, x in enumerate(range(80, 600, 60))]
    after = still_frames(8, seed=1)
    detector = SettleDetector(quiet_frames=3, repeats=2)
    states, reported = feed(detector, still + hand + after, [READING] * 8 + [(5,)] * len(hand) + [READING] * 8)
    assert reported == [4]
    assert set(states[8:8 + len(hand)]) == {MOVING}
    assert states[-1] == SETTLED


def test_a_new_roll_after_a_reported_one_is_reported_even_with_the_same_values():
    moved = tuple(SynthDie(value=d.value, center=(d.center[0], d.center[1] + 120), angle=d.angle + 20) for d in DICE)
    first = still_frames(6)
    second = render_roll_frames(moved, moving=6, still=6, seed=9)
    _, reported = feed(SettleDetector(quiet_frames=3, repeats=2), first + second)
    assert reported == [4, 6 + 6 + 4]


def test_a_die_nudged_by_the_hand_is_a_new_scene_and_its_reading_is_reported():
    nudged = (DICE[0], DICE[1], SynthDie(value=1, center=(440, 230), angle=55))
    frames = still_frames(6) + [with_hand(render_scene(DICE, seed=70), 420)] + still_frames(6, seed=2, dice=nudged)
    _, reported = feed(SettleDetector(quiet_frames=3, repeats=2), frames)
    assert reported == [4, 7 + 4]


@pytest.mark.parametrize("size", [(1280, 960), (800, 600), (320, 240)])
def test_a_camera_back_at_another_resolution_takes_the_dice_in_view_for_no_roll_until_they_move(size):
    """Its cells cannot be compared with the last frame's (this raised): the still dice it shows are not reported
    as a new roll, and the next roll is."""
    nudged = (DICE[0], DICE[1], SynthDie(value=1, center=(440, 230), angle=55))
    after = still_frames(6, seed=1) + [with_hand(render_scene(DICE, seed=70), 420)] + still_frames(6, seed=2,
                                                                                                     dice=nudged)
    frames = still_frames(6) + [cv2.resize(f, size, interpolation=cv2.INTER_AREA) for f in after]
    states, reported = feed(SettleDetector(quiet_frames=3, repeats=2), frames)
    assert reported == [4, 13 + 4]
    assert states[6:10] == [MOVING] * 3 + [SETTLED]


def test_reset_forgets_the_reported_roll():
    detector = SettleDetector(quiet_frames=2, repeats=1)
    _, reported = feed(detector, still_frames(5))
    assert reported == [2]
    detector.reset()
    assert detector.state == MOVING
    _, reported = feed(detector, still_frames(5, seed=3))
    assert reported == [2]


def test_grey_frames_work_too():
    frames = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in render_roll_frames(DICE, moving=5, still=6, seed=2)]
    states, reported = feed(SettleDetector(quiet_frames=2, repeats=2), frames)
    assert states[:6] == [MOVING] * 6 and states[7:] == [SETTLED] * 4
    assert reported == [8]


@pytest.mark.parametrize("bad", [dict(quiet_frames=0), dict(repeats=0), dict(threshold=0), dict(cell=0)])
def test_bad_tunables_are_a_one_line_config_error(bad):
    with pytest.raises(ConfigError, match=next(iter(bad))):
        SettleDetector(**bad)


def test_a_frame_that_is_not_an_image_is_refused():
    with pytest.raises(ValueError, match="frame"):
        SettleDetector().update(np.zeros((4,), np.uint8))


def test_dice_disowned_while_tumbling_are_not_reported_and_the_next_roll_is():
    """A turn ended by another player's action while the dice tumbled: those dice settle, but they are not the
    roll now asked for; the next throw is."""
    detector = SettleDetector(quiet_frames=3, repeats=2)
    first = render_roll_frames(DICE, moving=6, still=8, seed=1)
    assert feed(detector, first[:4])[0] == [MOVING] * 4
    detector.disown()
    states, reported = feed(detector, first[4:])
    assert SETTLED in states and reported == []
    again = render_roll_frames(DICE[:2], moving=6, still=8, seed=2)
    assert feed(detector, again)[1] == [6 + 3 + 1]


def test_dice_disowned_at_rest_before_their_reading_repeated_are_not_reported():
    detector = SettleDetector(quiet_frames=2, repeats=3)
    frames = still_frames(10)
    feed(detector, frames[:3])                        # settled, one reading offered: not reported yet
    detector.disown()
    assert feed(detector, frames[3:])[1] == []


def test_disowning_before_any_frame_leaves_the_first_roll_reported():
    detector = SettleDetector(quiet_frames=3, repeats=2)
    detector.disown()
    assert feed(detector, render_roll_frames(DICE, moving=6, still=8, seed=3))[1] == [6 + 3 + 1]
