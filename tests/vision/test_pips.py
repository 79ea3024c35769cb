"""The pip finder's blob measures (companion.vision.pips)."""
import cv2
import numpy as np

from companion.vision.pips import _elongation, _measure, largest_channel


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
    frame = np.random.default_rng(3).integers(0, 256, (61, 87, 3), np.uint8)
    for image in (frame, frame[5:40, 7:70]):  # a crop's rows are not contiguous
        np.testing.assert_array_equal(largest_channel(image), image.max(axis=2))
