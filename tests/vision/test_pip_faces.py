"""Which of two faces found close together is a die's top face (pip_faces.top_faces)."""
import pytest

from companion.vision.face_judge import FaceFound
from companion.vision.pip_faces import top_faces

DOWN, ACROSS = (0.0, 1.0), (1.0, 0.0)


def face(center, slant, short_axis, pips=5):
    return FaceFound(center, 30.0, pips, 1.0, "dark", pips, slant, short_axis)


def test_the_side_face_beside_a_top_face_seen_from_an_angle_is_dropped():
    """The camera leans toward the table's near edge: the top face and the side face below it in the frame are
    both shortened along the line between them, 1.2 face sizes apart."""
    top, side = face((100, 100), 1.3, DOWN), face((100, 136), 1.7, DOWN, pips=2)
    assert top_faces([side, top]) == [top]


@pytest.mark.parametrize("top, side", [
    (face((100, 100), 1.05, DOWN), face((100, 136), 1.7, DOWN, pips=2)),  # a die tilted against one lying flat
    (face((100, 100), 1.3, DOWN), face((100, 136), 1.7, ACROSS, pips=2)),  # touching dice turned their own ways
    (face((100, 100), 1.3, DOWN), face((100, 136), 1.7, DOWN, pips=1)),  # a lone pip's shape says little
    (face((100, 100), 1.3, DOWN), face((100, 145), 1.7, DOWN, pips=2)),  # 1.5 face sizes apart: two dice
], ids=["top-seen-square-on", "shortened-across", "a-one", "too-far"])
def test_faces_that_need_not_be_one_die_are_both_kept(top, side):
    assert sorted(top_faces([side, top]), key=lambda f: f.center[1]) == [top, side]
