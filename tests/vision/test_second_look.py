"""The third look's glint opening (second_look._without_glints): thin light streaks go, pips stay."""
import cv2
import numpy as np

from companion.vision.pips import DIE_PX, find_pips
from companion.vision.second_look import _without_glints


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
