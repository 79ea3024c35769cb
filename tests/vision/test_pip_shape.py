"""Whether a pip is a disc (pip_shape), on drawn shapes: what a large die's pip is, and what a die or a pair is not."""
import cv2
import numpy as np
import pytest

from companion.vision.pip_shape import is_disc


def canvas():
    """A light die's face, to draw on."""
    return np.full((200, 200, 3), (200, 205, 210), np.uint8)


def with_noise(frame):
    """What a camera sees of a drawing: a little sensor noise."""
    noise = np.random.default_rng(2).normal(0.0, 3.0, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def test_a_disc_is_a_disc():
    frame = canvas()
    cv2.circle(frame, (100, 100), 20, (40, 40, 180), -1, cv2.LINE_AA)
    assert is_disc(with_noise(frame), np.array([100.0, 100.0]), 20.0, 24)


@pytest.mark.parametrize("angle", [0, 30, 45])
def test_a_rounded_square_is_no_disc(angle):
    """A die lying in a tray seen whole, read at the tray's size as a pip of one large die."""
    frame = canvas()
    box = cv2.boxPoints(((100.0, 100.0), (34.0, 34.0), angle)).astype(np.int32)
    cv2.fillConvexPoly(frame, box, (40, 40, 180), cv2.LINE_AA)
    assert not is_disc(with_noise(frame), np.array([100.0, 100.0]), 20.0, 24)


def test_two_touching_discs_are_no_disc():
    frame = canvas()
    for x in (88, 112):
        cv2.circle(frame, (x, 100), 13, (40, 40, 180), -1, cv2.LINE_AA)
    assert not is_disc(with_noise(frame), np.array([100.0, 100.0]), 20.0, 24)


def test_a_faint_mark_is_no_pip():
    frame = canvas()
    cv2.circle(frame, (100, 100), 20, (190, 195, 200), -1, cv2.LINE_AA)
    assert not is_disc(with_noise(frame), np.array([100.0, 100.0]), 20.0, 24)
