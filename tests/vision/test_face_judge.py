"""The face judge on a drawn face, where each probe's colour is set by hand."""
import cv2
import numpy as np
import pytest

from companion.vision.face_grid import FACE_MASKS, GRID, Grid, across, face_mask, layout_key, neighbours
from companion.vision.face_judge import Judge
from companion.vision.pips import Pips

BODY, PIP, NOT_BODY = 150, 20, 60
RADII = [4.2, 4.2, 3.2, 3.2]
"""The top two pips are large enough that the points among the pips nearest them, (26, 26) and (34, 26), lie on
their blurred rims; the points (26, 34) and (34, 34) lie clear of the smaller bottom pips."""


def _judge_of_a_four(not_body_at: list[tuple[int, int]],
                     radii: list[float] = RADII) -> tuple[Judge, np.ndarray, np.ndarray]:
    """A 4 of dark pips (`radii`, spacing 8 px, centred at (30, 30)) on a grey body, with a 3x3 patch of another
    colour at each point of `not_body_at`."""
    nodes = np.array([(-1, -1), (1, -1), (-1, 1), (1, 1)], float)
    xy = 30 + 8 * nodes
    frame = _as_a_camera_sees(xy, radii)
    for x, y in not_body_at:
        frame[y - 1:y + 2, x - 1:x + 2] = NOT_BODY
    return _judge(frame, xy, radii), np.arange(len(xy)), nodes


def _as_a_camera_sees(xy: np.ndarray, radii: list[float], fine: int = 8) -> np.ndarray:
    """A 60x60 body with round pips at `xy` and `radii`, each pixel the mean of what it covers, as a camera's is. A
    disc drawn pixel by pixel (a pixel is all pip or all body) is a jagged octagon, whose edges share a direction
    (face_judge.EDGES_SHARED_CLEARLY) that a round pip's do not: 0.37 turned 45 degrees from these four pips."""
    canvas = np.full((60 * fine, 60 * fine), BODY, np.uint8)
    yy, xx = np.ogrid[:60 * fine, :60 * fine]
    for (x, y), r in zip(xy, radii):
        canvas[(xx + 0.5 - (x + 0.5) * fine) ** 2 + (yy + 0.5 - (y + 0.5) * fine) ** 2 <= (r * fine) ** 2] = PIP
    return cv2.merge([cv2.resize(canvas, (60, 60), interpolation=cv2.INTER_AREA)] * 3)


def _judge(frame: np.ndarray, xy: np.ndarray, radii: list[float]) -> Judge:
    """The judge of round dark pips at `xy` with `radii` on `frame` (60x60, BODY and PIP grey), far from the tray's
    colour everywhere, at a pip spacing of 8 px."""
    n = len(xy)
    pips = Pips(xy, np.array(radii), np.zeros(n, np.int8), np.full(n, BODY - PIP, np.float32),
                np.full((n, 3), PIP, np.float32), np.tile(np.array([0.5, 0.5, 0.0], np.float32), (n, 1)),
                (np.zeros((60, 60), np.uint8), np.zeros((60, 60), np.uint8)))
    return Judge(pips, frame, frame, lambda points, colours: np.full(len(points), 100.0), 12.0, 0.5, 8.0)


def test_a_face_whose_body_shows_among_its_pips_is_read():
    judge, group, nodes = _judge_of_a_four([])
    face = judge.face(group, nodes)
    assert face is not None and face.value == 4


def test_the_body_seen_on_a_pips_rim_does_not_outweigh_what_lies_between_the_pips():
    """Among the pips, a probe on a large pip's blurred rim counts only where it shows the body: here one does,
    while the other three points between the pips (one on a rim, two clear of any) show something else, so the
    body does not lie between these pips. Counting only the clear points as the whole, the one rim point that
    showed the body made half of them."""
    judge, group, nodes = _judge_of_a_four([(34, 26), (26, 34), (34, 34)])
    assert judge.face(group, nodes) is None


def test_a_face_less_sure_than_the_caller_needs_is_none():
    judge, group, nodes = _judge_of_a_four([])
    confidence = judge.face(group, nodes).confidence
    assert judge.face(group, nodes, least=confidence).value == 4
    assert judge.face(group, nodes, least=confidence + 0.01) is None


@pytest.mark.parametrize("radius, read", [(2.2, True), (1.7, False)])
def test_pips_small_for_their_spacing_are_no_face(radius, read):
    """Pips 8 px apart: 1.8 times their diameter apart make a face, 2.35 times no sure one (SPACING_PER_PIP). A
    block of touching dice that no body sizes may be read at a size half as large again as theirs, and a face made
    there of their pips is as far apart, for pips of their size: on rendered blocks of 4 to 6 dice
    (bench_reader_synthetic --heap), such faces had 1.74-2.52 times their pips' diameter between them, and faces
    read right 1.96 at most; on the development photos 1.64 at most."""
    judge, group, nodes = _judge_of_a_four([], [radius] * 4)
    assert (judge.face(group, nodes, least=judge.threshold) is not None) == read


def test_a_faces_grid_is_the_least_squares_affine_of_its_pips():
    """The grid of a 6 whose pips are off their nodes by up to a pixel, and of a 2 (whose two pips leave the
    affine open: the least-norm one), is the one a least-squares solve gives, whatever order the pips come in."""
    rng = np.random.default_rng(6)
    for nodes in (GRID[[0, 2, 3, 5, 6, 8]], GRID[[0, 8]], GRID[[8, 4, 0]]):
        for _ in range(3):
            points = nodes @ np.array([[9.0, 2.0], [-2.0, 9.0]]) + (40, 30) + rng.uniform(-1, 1, nodes.shape)
            order = rng.permutation(len(nodes))
            design = np.column_stack([nodes[order], np.ones(len(nodes))])
            expected = np.linalg.lstsq(design, points[order], rcond=None)[0]
            grid = Grid(points[order], nodes[order])
            np.testing.assert_allclose(grid.centre, expected[2], atol=1e-9)
            if len(nodes) > 3:
                np.testing.assert_allclose(grid.linear, expected[:2], atol=1e-9)


def test_a_grids_aspect_is_its_longer_axis_over_its_shorter_turned_any_way():
    """A 6's grid whose rows lie twice as far apart as its columns lie from its centre (two touching 4s' rows, the
    SIX_ASPECT check) has an aspect of 2 at any turn; a square one, 1."""
    six = GRID[[0, 2, 3, 5, 6, 8]]
    for degrees in (0, 30, 72):
        turn = np.radians(degrees)
        rotation = np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
        assert Grid(six @ np.diag([8.0, 16.0]) @ rotation + 50, six).aspect == pytest.approx(2.0)
        assert Grid(six @ np.diag([8.0, 8.0]) @ rotation + 50, six).aspect == pytest.approx(1.0)


def test_a_lone_pip_less_sure_than_the_caller_needs_is_left_out():
    """A 1 alone on a grey body is read; asked to be surer than it is, the judge leaves it out."""
    frame = np.full((60, 60, 3), BODY, np.uint8)
    yy, xx = np.ogrid[:60, :60]
    frame[(xx - 30) ** 2 + (yy - 30) ** 2 <= 25] = PIP
    judge = _judge(frame, np.array([[30.0, 30.0]]), [5.0])
    [(face, group)] = judge.lone(np.array([0]))
    assert face.value == 1 and list(group) == [0]
    assert len(judge.lone(np.array([0]), least=face.confidence)) == 1
    assert judge.lone(np.array([0]), least=face.confidence + 0.01) == []


def _lone_pip_among_blobs(blobs: list[tuple[float, float]], strength: float, radius: float,
                          other_at: list[tuple[float, float]] = ()) -> float:
    """How sure the judge is of a 1 (a dark pip of radius 2.5 at (30, 30), standing out by 130, on an even grey
    body) when blobs of `strength` and `radius` were also found at `blobs`, where the frame shows only the body,
    and with a patch of another colour, found as no blob, at each point of `other_at`."""
    frame = np.full((60, 60, 3), BODY, np.uint8)
    yy, xx = np.ogrid[:60, :60]
    frame[(xx - 30) ** 2 + (yy - 30) ** 2 <= 2.5 ** 2] = PIP
    for x, y in other_at:
        frame[(xx - x) ** 2 + (yy - y) ** 2 <= 3 ** 2] = NOT_BODY
    xy = np.array([(30.0, 30.0)] + blobs)
    n = len(xy)
    pips = Pips(xy, np.array([2.5] + [radius] * (n - 1)), np.zeros(n, np.int8),
                np.array([BODY - PIP] + [strength] * (n - 1), np.float32), np.full((n, 3), PIP, np.float32),
                np.tile(np.array([0.5, 0.5, 0.0], np.float32), (n, 1)),
                (np.zeros((60, 60), np.uint8), np.zeros((60, 60), np.uint8)))
    judge = Judge(pips, frame, frame, lambda points, colours: np.full(len(points), 100.0), 12.0, 0.5, 8.0)
    return max((face.confidence for face, group in judge.lone(np.array([0])) if list(group) == [0]), default=0.0)


def test_blobs_that_can_be_no_pip_of_a_ones_face_do_not_hide_its_body():
    """Beside an ivory 1 on a white tray, the shading at the die's edge was found as two faint blobs, 2.5 times
    as wide as the pip, whose discs hid half the ring the 1's body is looked for on (byler-d6's
    IMG_20191208_112332). Where blobs so unlike the pip (under WEAKEST_PIP of its strength, wider than UNALIKE
    times it) lie, and the whole ring, those blobs too, shows the body's colour, the 1 is sure. Blobs as strong as
    the pip, or as narrow, may be pips of its face: the ring on them is no body. Nor is it where the rest of the
    ring shows something else (a 3's other pips), or where the blobs do (the light gaps between a laptop's keys)."""
    beside = [(41.6, 30.0), (18.4, 30.0)]  # on the ring, LONE_RING (1.45) spacings of 8 px out
    assert _lone_pip_among_blobs([], 0.0, 0.0) == 1.0
    assert _lone_pip_among_blobs(beside, 50.0, 4.5) == 1.0
    assert _lone_pip_among_blobs(beside, 130.0, 4.5) < 0.5
    assert _lone_pip_among_blobs(beside, 50.0, 3.9) < 1.0
    assert _lone_pip_among_blobs(beside, 50.0, 4.5, other_at=[(30.0, 41.6)]) < 0.5
    assert _lone_pip_among_blobs(beside, 50.0, 4.5, other_at=beside) < 0.5


@pytest.mark.parametrize("order", [[0, 2, 4, 6, 8], [8, 6, 4, 2, 0], [4, 0, 8, 2, 6]])
def test_the_pairs_a_face_is_checked_along_are_its_layouts_whatever_the_order_of_its_nodes(order):
    """The pairs of a face's pips whose lines are checked for a seam (either side of its middle column, then of
    its middle row) and for its body (neighbouring nodes) are worked out once per layout, from its nodes' bytes:
    the same 5 given in another order must pair the same pips."""
    five = GRID[order]
    one, other, side, splits = across(layout_key(five))
    left_right = {(order[i], order[j]) for i, j, k in zip(one, other, side) if k == side[0]}
    expected = [{(a, b) for a in (0, 6) for b in (2, 8)}, {(a, b) for a in (0, 2) for b in (6, 8)}]
    assert splits == 2 and len(one) == 8 and left_right in expected
    pairs = {tuple(sorted((order[i], order[j]))) for i, j in zip(*neighbours(layout_key(five.astype(int)), 1))}
    assert pairs == {(0, 4), (2, 4), (4, 6), (4, 8)}
    assert across(layout_key(GRID[[0, 8]]))[3] == 1  # a 2's column and row split it alike: taken once


def _lone_gold_pip(body, ring_colour, ring_response: int = 90) -> float:
    """How sure the judge is of a 1: a gold pip (radius 4, standing out by 200) on a body of colour `body`, with
    the light response at `ring_response` all around it, where the frame shows `ring_colour` (on the ring
    LONE_EMPTY 1.2 spacings of 8 px out, and not as far as the body's ring, LONE_RING 1.45 spacings out)."""
    frame = np.full((60, 60, 3), body, np.uint8)
    yy, xx = np.ogrid[:60, :60]
    frame[(8 ** 2 <= (xx - 30) ** 2 + (yy - 30) ** 2) & ((xx - 30) ** 2 + (yy - 30) ** 2 <= 10.8 ** 2)] = ring_colour
    frame[(xx - 30) ** 2 + (yy - 30) ** 2 <= 16] = (60, 200, 230)
    light = np.full((60, 60), ring_response, np.uint8)
    pips = Pips(np.array([[30.0, 30.0]]), np.array([4.0]), np.ones(1, np.int8), np.full(1, 200.0, np.float32),
                np.array([[60.0, 200.0, 230.0]], np.float32), np.array([[0.5, 0.5, 0.0]], np.float32),
                (np.zeros((60, 60), np.uint8), light))
    judge = Judge(pips, frame, frame, lambda points, colours: np.full(len(points), 100.0), 12.0, 0.5, 8.0)
    [(face, _)] = judge.lone(np.array([0]))
    return face.confidence


def test_a_light_ring_of_a_lone_pips_body_colour_is_no_pip_when_the_pip_is_darker_in_one_channel():
    """Gold pips on a blue die are darker than it in blue: there the pip cuts the body into strips narrower than
    the pip finder's kernel, which stand out as light all around the pip. Where the ring shows the body's own colour
    that is no pip (the 1 is sure); where it shows a step toward the pip's colour, it may be one (doubted), and
    so may what stands out more than the pip itself. On a body darker than the pip in every channel, the response
    alone tells, as before."""
    blue, toward_gold = (150, 60, 20), (105, 130, 125)
    assert _lone_gold_pip(blue, blue) == 1.0
    assert _lone_gold_pip(blue, toward_gold) < 1.0
    assert _lone_gold_pip(blue, blue, ring_response=220) == 0.0
    grey = (20, 20, 20)
    assert _lone_gold_pip(grey, grey) < 1.0


def _judge_of_a_line(red: list[int], middle_pip: bool = False) -> Judge:
    """Two white pips (radius 3, standing out by 200) on a red body, at (10, 30) and (50, 30), and with
    `middle_pip` a third at (30, 30), with the body's red set column by column from x = 16 to 43 to `red` (28
    values), where the line between the outer pips is counted (but on and beside the middle pip's rim)."""
    frame = np.full((60, 60, 3), (40, 40, 190), np.uint8)
    frame[:, 16:44, 2] = np.array(red, np.uint8)[None, :]
    xy = np.array([(10.0, 30.0), (50.0, 30.0)] + [(30.0, 30.0)] * middle_pip)
    n = len(xy)
    yy, xx = np.ogrid[:60, :60]
    for x, y in xy.astype(int):
        frame[(xx - x) ** 2 + (yy - y) ** 2 <= 9] = 240
    pips = Pips(xy, np.full(n, 3.0), np.ones(n, np.int8), np.full(n, 200.0, np.float32),
                np.full((n, 3), 240.0, np.float32), np.tile(np.array([0.5, 0.5, 0.0], np.float32), (n, 1)),
                (np.zeros((60, 60), np.uint8), np.zeros((60, 60), np.uint8)))
    return Judge(pips, frame, frame, lambda points, colours: np.full(len(points), 100.0), 12.0, 0.5, 8.0)


@pytest.mark.parametrize("red, middle_pip, seamed", [
    ([190] * 12 + [150] * 3 + [190] * 13, False, True),  # a valley 40 deep, past SEAM's step (28), body either side
    ([150, 160, 170, 180] + [190] * 24, False, False),  # as deep, but where the line starts: a pip's halo (SEAM_DIP)
    ([130, 150, 170, 180] + [190] * 24, False, True),  # deeper than SEAM_DIP's step (42) from the line's median
    ([190] * 28, False, False),
    ([190] * 8 + [150] + [190] * 10 + [150] + [190] * 8, True, False),  # the halo beside a crossed pip's rim
    ([190] * 3 + [150] * 2 + [190] * 23, True, True),  # a valley clear of it
])
def test_a_seam_between_light_pips_is_a_valley_along_the_line_or_a_deep_dip(red, middle_pip, seamed):
    """White pips on a red body: the seam is looked for in red alone, the body's brightest channel, along the line
    between the pips (Judge._dipped): the bevel between two red dice is darker in red, not in blue and green."""
    judge = _judge_of_a_line(red, middle_pip)
    assert judge._dipped(np.array([0]), np.array([1]), np.array([40.0, 40.0, 190.0]))[0] == seamed


def test_a_faces_node_mask_is_its_layouts_whatever_the_order_or_type_of_its_nodes():
    """face_mask is worked out once per layout (its nodes' bytes): the same layout given in another order, or as
    integers, has its own bytes, and each must give that layout's mask."""
    five = GRID[[0, 2, 4, 6, 8]]
    assert FACE_MASKS[face_mask(five)] == 5
    assert face_mask(five[::-1]) == face_mask(five.astype(int)) == face_mask(five)
    assert FACE_MASKS[face_mask(GRID[[0, 3, 6, 2, 5, 8]])] == 6 and face_mask(GRID[[0, 8]]) == 0b100000001
