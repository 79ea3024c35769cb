"""The pip finder's blob measures (companion.vision.pips)."""
import cv2
import numpy as np
import pytest

from companion.vision.pips import (MOST_PIPS, PARTING_LEVEL, _above, _components, _components_of_tiles, _elongation,
                                   _measure, _Mosaic, find_pips, largest_channel, parted_by_shape, percentile_level)


def _blobs() -> np.ndarray:
    """Pip-like discs, an ellipse, a line, two discs touching and a one-pixel speck on a 120x90 binary."""
    binary = np.zeros((90, 120), np.uint8)
    for centre, radius in (((10, 10), 4), ((30, 12), 6), ((50, 50), 3), ((56, 50), 3)):
        cv2.circle(binary, centre, radius, 255, -1)
    cv2.ellipse(binary, (90, 20), (12, 4), 30, 0, 360, 255, -1)
    cv2.line(binary, (5, 80), (60, 70), 255, 2)
    binary[85, 110] = 255
    return binary


def test_blobs_are_measured_as_opencv_measures_them():
    binary = _blobs()
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(binary, connectivity=8)
    ours, our_centroids, _ = _measure(binary, labels, count)
    assert count == 7  # the two touching discs are one blob
    np.testing.assert_array_equal(ours[1:], stats[1:])
    np.testing.assert_allclose(our_centroids[1:], centroids[1:], atol=1e-9)


def test_a_round_blob_has_no_elongation_and_an_ellipse_its_axes_ratio():
    binary = _blobs()
    count, labels = cv2.connectedComponents(binary, connectivity=8)
    _, _, shapes = _measure(binary, labels, count)
    disc, ellipse = labels[12, 30], labels[20, 90]
    assert _elongation(shapes[[disc]])[0] < 1.1
    assert 2.6 < _elongation(shapes[[ellipse]])[0] < 3.4  # axes 12 and 4, drawn in pixels


def test_an_empty_binary_has_no_blobs_measured():
    binary = np.zeros((20, 20), np.uint8)
    count, labels = cv2.connectedComponents(binary, connectivity=8)
    stats, centroids, shapes = _measure(binary, labels, count)
    assert count == 1 and not stats.any() and not centroids.any() and not shapes.any()


def test_the_largest_channel_is_each_pixels_brightest_channel_even_on_a_crop_of_a_frame():
    """largest_channel reads a frame's rows as one row of channels: a crop's rows must be taken whole."""
    frame = np.random.default_rng(3).integers(0, 256, (61, 87, 3), np.uint8)
    for image in (frame, frame[5:40, 7:70]):  # a crop's rows are not contiguous
        np.testing.assert_array_equal(largest_channel(image), image.max(axis=2))


def test_a_percentile_off_the_histogram_is_numpys_to_the_bit():
    """percentile_level stands in for np.percentile (and np.median) on a response's or a frame's sample: odd and
    even counts, strided samples, a flat image, and percentiles that fall between two values on either side of the
    halfway point, where NumPy interpolates from the upper value."""
    rng = np.random.default_rng(4)
    images = [rng.integers(0, 256, shape, np.uint8) for shape in ((1, 1), (1, 2), (7, 9), (8, 10), (61, 87))]
    images += [np.clip(rng.normal(12, 6, (120, 160)), 0, 255).astype(np.uint8)[::4, ::4], np.full((5, 6), 9, np.uint8)]
    for image in images:
        assert percentile_level(image, 50) == float(np.median(image))
        for q in (0, 1, 37.5, 73, 99, 99.9, 100):
            assert percentile_level(image, q) == float(np.percentile(image, q))


def test_pips_whose_blurred_rims_merge_are_parted_each_at_its_place():
    """A pair and an L of three close pips merge into two blobs at half the local peak, and are parted; a pip
    beside the L reaches into its blob's box, and is found once, as itself."""
    frame = np.full((160, 200, 3), 205, np.uint8)
    cv2.rectangle(frame, (10, 10), (190, 150), (190, 190, 190), -1)
    centres = np.array([(40, 40), (49, 40), (40, 80), (40, 89), (49, 89), (54, 75), (150, 50)])
    for centre in centres:
        cv2.circle(frame, tuple(int(v) for v in centre), 4, (40, 40, 40), -1)
    pips = find_pips(cv2.GaussianBlur(frame, (0, 0), 1.5), 40, 24, "dark")
    distance = np.hypot(*(pips.xy[:, None] - centres[None]).transpose(2, 0, 1))
    assert len(pips) == len(centres)
    assert sorted(distance.argmin(axis=1)) == list(range(len(centres)))
    assert distance.min(axis=1).max() < 0.5


@pytest.mark.parametrize("shape", [(1, 1), (1, 3), (2, 2)])
def test_an_image_of_a_few_pixels_passes_its_levels_as_a_larger_one_does(shape):
    """OpenCV takes an image of one pixel for a scalar, and refused to compare it with the levels (a mosaic of one
    blob of a pixel, as a frame a few pixels across makes)."""
    rng = np.random.default_rng(2)
    response, peak = (rng.integers(0, 256, (8, 8), np.uint8) for _ in range(2))
    h, w = shape
    for least in (24, 13.5, 12.5):  # a strength is rounded as OpenCV rounds a scalar: half to even
        np.testing.assert_array_equal(_above(response[:h, :w].copy(), peak[:h, :w].copy(), 0.5, least),
                                      _above(response, peak, 0.5, least)[:h, :w])


@pytest.mark.parametrize("count, found", [(MOST_PIPS, MOST_PIPS), (MOST_PIPS + 1, 0)])
def test_more_pip_like_blobs_than_any_dice_show_are_texture_and_none_is_a_pip(count, found):
    frame = np.full((450, 520, 3), 200, np.uint8)
    for k in range(count):  # dark dots 12 px apart, row by row
        cv2.circle(frame, (10 + 12 * (k % 42), 10 + 12 * (k // 42)), 3, (40, 40, 40), -1)
    assert len(find_pips(frame, 40, 24)) == found


def test_merged_blobs_are_parted_in_a_mosaic_as_in_the_whole_frame_and_in_its_order():
    """Many blobs at odd and even places, some merged pips: the parts found in the mosaic of the merged blobs are
    those labelling the whole frame finds in them, at the same places, in the same order."""
    rng = np.random.default_rng(5)
    frame = np.full((240, 320, 3), 190, np.uint8)
    for x, y in rng.integers(40, (280, 200), (30, 2)):  # pairs, columns of three and lone pips, overlapping
        for step in range(rng.integers(1, 4)):
            cv2.circle(frame, (int(x), int(y) + 9 * step), 4, (40, 40, 40), -1)
    response = largest_channel(cv2.morphologyEx(cv2.GaussianBlur(frame, (0, 0), 1.5), cv2.MORPH_BLACKHAT,
                                                np.ones((13, 13), np.uint8)))
    peak = cv2.dilate(response, np.ones((33, 33), np.uint8))
    labels, stats, _, merged = _components(_above(response, peak, 0.5, 24), response, 40, 24)
    assert len(merged) >= 5
    mosaic = _Mosaic(labels, stats, merged, response, peak)
    in_mosaic = mosaic.components(PARTING_LEVEL, 40, 24)[2]
    whole = _components(_above(response, peak, PARTING_LEVEL, 24), response, 40, 24)[2]
    on_merged = np.isin(labels[whole[0][:, 1].round().astype(int), whole[0][:, 0].round().astype(int)], merged)
    assert len(in_mosaic[0]) > len(merged)  # they part
    centres, radii, strengths, shapes = (part[on_merged] for part in whole[:4])
    np.testing.assert_allclose(mosaic.to_frame(in_mosaic[0]), centres, atol=1e-9)  # sums of smaller coordinates
    np.testing.assert_array_equal(in_mosaic[1], radii)
    np.testing.assert_array_equal(in_mosaic[2], strengths)
    np.testing.assert_allclose(in_mosaic[3], shapes, atol=1e-9)


def test_tiles_labelled_side_by_side_give_the_pips_each_gives_alone_in_its_order():
    """Tiles of odd and even sizes, full of pips, some merged or touching the tile's edge: labelled together, each
    tile's pips are those labelling it alone finds, in its own pixels and in the same order."""
    rng = np.random.default_rng(3)
    tiles = []
    for height, width in ((47, 53), (60, 41), (33, 70), (52, 52)):
        response = np.zeros((height, width), np.uint8)
        for x, y in rng.integers(0, (width, height), (12, 2)):
            cv2.circle(response, (int(x), int(y)), int(rng.integers(3, 6)), int(rng.integers(60, 200)), -1)
        response = cv2.GaussianBlur(response, (0, 0), 1.0)
        tiles.append((response > 40, response))
    together = _components_of_tiles(tiles, 40, 24)
    assert sum(len(pips[0]) for pips in together) >= 12
    for (binary, response), pips in zip(tiles, together):
        alone = _components(binary.astype(np.uint8), response, 40, 24)[2]
        np.testing.assert_allclose(pips[0], alone[0], atol=1e-9)  # sums of larger coordinates
        np.testing.assert_array_equal(pips[1], alone[1])
        np.testing.assert_array_equal(pips[2], alone[2])
        np.testing.assert_allclose(pips[3], alone[3], atol=1e-6)


def _red_pips(centres, blur: float) -> np.ndarray:
    """Red pips of radius 4 on a dark grey face, blurred: 80x80, a die DIE_PX (40) across."""
    face = np.full((80, 80, 3), 50, np.uint8)
    for x, y in centres:
        cv2.circle(face, (round(16 * x), round(16 * y)), 64, (40, 40, 200), -1, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(face, (0, 0), blur)


@pytest.mark.parametrize("apart", [7, 8, 9])
def test_two_pips_merged_with_no_dip_between_them_are_parted_by_their_shape(apart):
    """Two touching pips blurred into one blob that no level parts (one long pip) are taken apart along its long
    axis, each within a pixel of its place and about its size; a lone round pip is left as it is."""
    centres = [(40 - apart / 2, 40), (40 + apart / 2, 40)]
    merged = find_pips(_red_pips(centres, 1.5), 40, 24, "light")
    assert len(merged) == 1 and merged.elongation[0] > 1.8
    parted = parted_by_shape(merged)
    assert len(parted) == 2
    np.testing.assert_allclose(sorted(parted.xy.tolist()), centres, atol=1.0)
    assert np.all(np.abs(parted.radius - 4) < 1.0)
    lone = find_pips(_red_pips([(40, 40)], 1.5), 40, 24, "light")
    assert parted_by_shape(lone) is lone
