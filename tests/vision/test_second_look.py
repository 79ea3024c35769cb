"""The later looks at a lone die no face was read on: the third look's glint opening (second_look._without_glints:
thin light streaks go, pips stay) and the look in the crop's chroma (second_look._in_chroma)."""
import cv2
import numpy as np

from companion.vision.pips import DIE_PX, find_pips
from companion.vision.profile import Profile
from companion.vision.second_look import _in_chroma, _without_glints, look_again

BODY = (22, 22, 58, 58)
"""The die's body in the 80x80 crops below (a die DIE_PX across)."""
TRAY = 190


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


def _smoky_six(merged_column: bool = False) -> np.ndarray:
    """A dark grey die's face on a grey tray with six red pips and a white glint along its bevel touching the right
    column, its colours kept at half resolution as a JPEG keeps them (80x80); with `merged_column`, the left column
    drawn as one red bar, as close pips blurred together show."""
    crop = np.full((80, 80, 3), TRAY, np.uint8)
    cv2.rectangle(crop, BODY[:2], BODY[2:], (52, 58, 48), -1)
    cv2.ellipse(crop, (40, 40), (13, 13), 0, -70, 70, (235, 235, 235), 2, cv2.LINE_AA)
    for x in (31, 49):
        if merged_column and x == 31:
            cv2.line(crop, (x, 31), (x, 49), (40, 40, 190), 6)
            continue
        for y in (31, 40, 49):
            cv2.circle(crop, (x, y), 3, (40, 40, 190), -1, cv2.LINE_AA)
    luma_chroma = cv2.cvtColor(crop, cv2.COLOR_BGR2YCrCb)
    for channel in (1, 2):
        half = cv2.resize(luma_chroma[:, :, channel], (40, 40), interpolation=cv2.INTER_AREA)
        luma_chroma[:, :, channel] = cv2.resize(half, (80, 80), interpolation=cv2.INTER_LINEAR)
    return cv2.cvtColor(luma_chroma, cv2.COLOR_YCrCb2BGR)


def _tray_step(points: np.ndarray, colours: np.ndarray) -> np.ndarray:
    return np.abs(colours - TRAY).max(axis=1)


def _read_in_chroma(crop: np.ndarray):
    profile = Profile()
    return _in_chroma(crop, (0, 0), BODY, _tray_step, 24, profile.min_contrast, profile.threshold)


def test_a_smoky_six_whose_glint_joins_a_column_is_read_in_its_chroma():
    """A glint joins the right column's red pips into one light blob with it: the light pips found at the pips'
    level are the left column's three, and the earlier looks read them as a 3. In the chroma the white glint does
    not stand out, the six pips make a 6, and of the looks' faces the one of most pips is taken."""
    crop = _smoky_six()
    left_column = find_pips(crop, DIE_PX, 24, "light")
    assert len(left_column) == 3 and np.all(np.abs(left_column.xy[:, 0] - 31) < 1.5)
    assert _read_in_chroma(crop).value == 6
    profile = Profile()
    found = look_again(crop, BODY, _tray_step, 24, "auto", profile.min_contrast, profile.threshold)
    assert (found.value, found.pips) == (6, 6)


def test_no_face_is_read_in_chroma_beside_a_blob_of_pips_it_leaves_out():
    """A 6 whose left column merged into one bar: the right column alone is a perfect 3, but the bar beside it,
    as large as pips, holds none of its pips: no face is read in the chroma."""
    crop = _smoky_six(merged_column=True)
    assert _read_in_chroma(crop) is None
    assert _read_in_chroma(_smoky_six()).value == 6
