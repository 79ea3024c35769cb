"""A photo as another camera would have taken it, or of other dice on another table: the changes
benchmarks/bench_camera.py (and bench_closeups.py) applies to the development photos, which the reader's tests
replay on single photos.
The same arguments (and seed) always give the same image."""
from __future__ import annotations

import cv2
import numpy as np


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The image saved as a JPEG of `quality` (0-100) and read back."""
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def sensor_noise(image: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    """The image with Gaussian noise of `sigma` grey levels in every channel, as a noisier sensor adds."""
    noise = np.random.default_rng(seed).normal(0.0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def fewer_pixels(image: np.ndarray, factor: float) -> np.ndarray:
    """As a camera with `factor` of the resolution would see the tray (at the same frame size): the dice keep their
    place, and so their labels, but lose the detail of their pips."""
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)


def hues_turned(image: np.ndarray, degrees: int) -> np.ndarray:
    """Every colour's hue turned by `degrees`, saturation and brightness kept: the light wood a green or blue
    table, the ivory dice tinted, red pips blue, and so on (other tables and dice, not another camera)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV_FULL)
    hsv[..., 0] += np.uint8(degrees * 256 // 360)  # wraps around, as a hue does
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL)


def closeup(image: np.ndarray, box, span: float,
            frame: tuple[int, int] = (640, 480)) -> tuple[np.ndarray, float] | None:
    """As a camera nearer the dice would see the die in `box` (x0, y0, x1, y1): a window of the frame's shape `span`
    times the box high around it, enlarged to `frame` (INTER_CUBIC, blurrier than a nearer camera would be), and the
    die's size there; None when the window leaves the photo."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    height, width = span * side, span * side * frame[0] / frame[1]
    left, top = (x0 + x1 - width) / 2, (y0 + y1 - height) / 2
    if left < 0 or top < 0 or left + width > image.shape[1] or top + height > image.shape[0]:
        return None
    window = image[int(top):int(top + height), int(left):int(left + width)]
    return cv2.resize(window, frame, interpolation=cv2.INTER_CUBIC), side * frame[0] / window.shape[1]
