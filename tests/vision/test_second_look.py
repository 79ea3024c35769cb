"""The second look at dice lying alone (companion.vision.second_look): which bodies it looks at, and the third
look's glint opening (thin light streaks go, pips stay)."""
import cv2
import numpy as np

from companion.vision.pips import DIE_PX, find_pips
from companion.vision.second_look import _without_glints, second_look
from companion.vision.synth import SynthDie, render_scene


def test_a_thin_glint_is_opened_away_and_the_pip_it_joined_is_found():
    """A white pip (0.2 of a die across) on a red face, joined by a streak 2 px wide to another: at the pips'
    usual level the streak and both pips are one blob, too long for a pip; with the streak opened away, two pips
    of their own size and place."""
    face = np.full((80, 80, 3), (40, 40, 180), np.uint8)
    for centre in ((30, 40), (50, 40)):
        cv2.circle(face, centre, 4, (235, 235, 235), -1, cv2.LINE_AA)
    cv2.line(face, (30, 40), (50, 40), (235, 235, 235), 2, cv2.LINE_AA)
    cv2.line(face, (50, 40), (70, 60), (235, 235, 235), 2, cv2.LINE_AA)  # on past the pip, as a glint runs
    assert len(find_pips(face, DIE_PX, 24, "light")) == 0
    opened = _without_glints(face)
    assert opened[40, 40, 0] < 100 < face[40, 40, 0]  # the streak between the pips, nearly the face again
    pips = find_pips(opened, DIE_PX, 24, "light")
    assert sorted(np.round(pips.xy).astype(int).tolist()) == [[30, 40], [50, 40]]
    assert np.all(np.abs(pips.radius - 4) < 1.5)


def _second_look_at(box: tuple[int, int, int, int], frame: np.ndarray):
    """The faces second_look reads on a body `box` where the first look read none (a frame as the reader's working
    frame: a die DIE_PX across)."""
    tray_step = lambda points, colours: np.full(len(points), 255.0)  # noqa: E731  (every point differs from the tray)
    return second_look(frame, find_pips(frame, DIE_PX, 24), [], [box], tray_step, 24, "auto", 18.0, 0.5)


def test_a_body_cut_by_the_frames_edge_gets_no_second_look():
    """A 5 lying alone, its face unread at the first look: a second look reads it on a body clear of the frame's
    edge, but not on one the edge cuts, whose shape is unknown (at a webcam's edges, clutter)."""
    die = SynthDie(value=5, size=DIE_PX, angle=12, center=(60, 60), body=(40, 40, 180), pips=(235, 235, 235))
    frame = render_scene([die], size=(120, 120), seed=3)
    faces = _second_look_at((38, 38, 82, 82), frame)
    assert [face.value for face in faces] == [5]
    assert _second_look_at((0, 38, 82, 82), frame) == []
    assert _second_look_at((38, 38, 82, 120), frame) == []
