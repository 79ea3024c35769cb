"""A photo as another camera would have taken it, or of other dice on another table: the changes
benchmarks/bench_camera.py applies to the development photos, which the reader's tests replay on single photos.
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
