"""Where frames come from: the Pi camera, a USB webcam, or a replay of an image folder or a video file.

Every source has `read() -> BGR numpy frame` and `close()`, and raises CameraError (one line) when it cannot give a
frame. `ReconnectingSource` wraps any of them so that a camera that fails or vanishes mid-game is reopened with
back-off while the session carries on. A replay that has shown its last frame raises ReplayEnded instead: the
frames are over, nothing is broken.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Sequence

import cv2
import numpy as np

from ..errors import CompanionError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
LIT_LEVEL = 40          # mean grey level (0-255) above which the tray counts as lit and exposure may be locked
FRAME_TIMEOUT_S = 5.0   # a Pi camera that gives no frame for this long has gone


class CameraError(CompanionError):
    """No frame: a camera that is absent or vanished, a file that is not an image, a truncated video."""


class ReplayEnded(CompanionError):
    """A replay (folder or video, not looping) has no more frames."""


def open_source(cfg) -> FrameSource:
    """The source a companion.config.CameraConfig names."""
    if cfg.source == "picamera2":
        return Picamera2Source(cfg.width, cfg.height, cfg.fps, lock_after_s=cfg.lock_after_s)
    if cfg.source == "webcam":
        return WebcamSource(cfg.device, cfg.width, cfg.height, cfg.fps)
    if cfg.source == "folder":
        return FolderSource(cfg.path, cfg.fps, loop=cfg.loop)
    return VideoSource(cfg.path, cfg.fps, loop=cfg.loop)


class FrameSource:
    def read(self) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def checked_frame(frame, where: str) -> np.ndarray:
    if frame is None or frame.size == 0:
        raise CameraError(f"{where}: empty frame")
    return frame


class Pacer:
    """Spaces reads `1/fps` apart (the first at once); a slow reader is never made to catch up in a burst."""

    def __init__(self, fps: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.interval = 1 / fps
        self._clock, self._sleep = clock, sleep
        self._due: float | None = None

    def wait(self) -> None:
        now = self._clock()
        if self._due is not None and self._due > now:
            self._sleep(self._due - now)
            now = self._due
        self._due = now + self.interval


# --------------------------------------------------------------------------------------------------- Pi camera

def exposure_lock(metadata: dict) -> dict:
    """Picamera2 controls that freeze exposure, gain and white balance at the values in a frame's metadata."""
    return {"AeEnable": False, "AwbEnable": False, "ExposureTime": int(metadata["ExposureTime"]),
            "AnalogueGain": float(metadata["AnalogueGain"]), "ColourGains": tuple(metadata["ColourGains"])}


class Picamera2Source(FrameSource):
    """The camera module through Picamera2 (apt's python3-picamera2, imported only here).

    Auto exposure and white balance run until `lock_after_s` has passed and the tray is lit, then both are locked
    so that a hand or a die entering the view cannot shift the settle detector's image or the dice colours.
    """

    def __init__(self, width: int, height: int, fps: float, *, lock_after_s: float = 2.0,
                 clock: Callable[[], float] = time.monotonic):
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraError("picamera2 is not installed: on the Pi, `sudo apt install python3-picamera2` and use a "
                              "venv made with --system-site-packages (systemd/install.sh does both)") from None
        except ValueError as error:   # "numpy.dtype size changed": apt's simplejpeg under pip's numpy 2
            raise CameraError(f"picamera2 cannot load ({error}); `pip install 'simplejpeg>=1.8'` in the venv, "
                              "see systemd/README.md") from None
        try:
            self._camera = Picamera2()
            self._camera.configure(self._camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"},   # RGB888 arrays are B, G, R: OpenCV's order
                controls={"FrameRate": fps}))
            self._camera.start()
        except Exception as error:   # Picamera2 raises IndexError, RuntimeError or OSError for a missing camera
            raise CameraError(f"no Pi camera ({type(error).__name__}: {error}); check the ribbon cable and "
                              "`rpicam-hello --list-cameras`") from None
        self._clock = clock
        self._lock_at = clock() + lock_after_s
        self._locked = False

    def read(self) -> np.ndarray:
        try:
            job = self._camera.capture_array("main", wait=False)
            frame = self._camera.wait(job, timeout=FRAME_TIMEOUT_S)   # TimeoutError when the camera has gone
        except Exception as error:
            raise CameraError(f"the Pi camera stopped ({type(error).__name__}: {error})") from None
        frame = checked_frame(frame, "Pi camera")
        if not self._locked and self._clock() >= self._lock_at and frame.mean() >= LIT_LEVEL:
            self._camera.set_controls(exposure_lock(self._camera.capture_metadata()))
            self._locked = True
        return frame

    def close(self) -> None:
        self._camera.close()


# ------------------------------------------------------------------------------------------------------ webcam

@contextmanager
def _quiet_opencv():
    """OpenCV logs a paragraph per backend it tries; our one-line CameraError says it better."""
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        logging.setLogLevel(level)


class WebcamSource(FrameSource):
    """A USB camera through cv2.VideoCapture (V4L2)."""

    def __init__(self, device: int, width: int, height: int, fps: float):
        self.name = f"webcam {device} (/dev/video{device})"
        with _quiet_opencv():
            self._capture = cv2.VideoCapture(device, cv2.CAP_V4L2)
        if not self._capture.isOpened():
            raise CameraError(f"{self.name}: cannot open; is it plugged in, and is the user in the video group?")
        for prop, value in ((cv2.CAP_PROP_FRAME_WIDTH, width), (cv2.CAP_PROP_FRAME_HEIGHT, height),
                            (cv2.CAP_PROP_FPS, fps)):
            self._capture.set(prop, value)

    def read(self) -> np.ndarray:
        with _quiet_opencv():
            ok, frame = self._capture.read()
        if not ok:
            raise CameraError(f"{self.name}: no frame; was it unplugged?")
        return checked_frame(frame, self.name)

    def close(self) -> None:
        self._capture.release()


# ----------------------------------------------------------------------------------------------------- replays

class FolderSource(FrameSource):
    """The images of a folder in name order, `fps` a second, once or in a loop."""

    def __init__(self, path: str | Path, fps: float, *, loop: bool = False, clock=time.monotonic,
                 sleep=time.sleep):
        self.path = Path(path)
        if not self.path.is_dir():
            raise CameraError(f"{self.path}: no such folder")
        self.files: Sequence[Path] = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"{self.path}: no images ({', '.join(IMAGE_SUFFIXES)})")
        self.loop = loop
        self._next = 0
        self._pacer = Pacer(fps, clock, sleep)

    def read(self) -> np.ndarray:
        if self._next == len(self.files):
            if not self.loop:
                raise ReplayEnded(f"{self.path}: no more images")
            self._next = 0
        file = self.files[self._next]
        self._pacer.wait()
        with _quiet_opencv():
            frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"{file}: {'not an image' if file.exists() else 'vanished'}")
        self._next += 1
        return checked_frame(frame, str(file))


class VideoSource(FrameSource):
    """The frames of a video file, `fps` a second whatever the file's own rate, once or in a loop."""

    def __init__(self, path: str | Path, fps: float, *, loop: bool = False, clock=time.monotonic,
                 sleep=time.sleep):
        self.path = Path(path)
        if not self.path.is_file():
            raise CameraError(f"{self.path}: no such video file")
        with _quiet_opencv():
            self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise CameraError(f"{self.path}: not a video OpenCV can read")
        self.frame_count = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT))
        self.loop = loop
        self._position = 0
        self._pacer = Pacer(fps, clock, sleep)

    def read(self) -> np.ndarray:
        self._pacer.wait()
        with _quiet_opencv():
            ok, frame = self._capture.read()
        if not ok:
            if 0 < self._position < self.frame_count:
                raise CameraError(f"{self.path}: video ends at frame {self._position} of {self.frame_count}; "
                                  "truncated?")
            if not self.loop or self._position == 0:
                raise ReplayEnded(f"{self.path}: no more frames")
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._position = 0
            return self.read()
        self._position += 1
        return checked_frame(frame, str(self.path))

    def close(self) -> None:
        self._capture.release()


# ---------------------------------------------------------------------------------------------- reconnecting

class ReconnectingSource(FrameSource):
    """Keeps a source open: when it fails, `read()` returns None and the source is reopened with back-off.

    `factory()` opens the source (and may raise CameraError). While the camera is away `read()` waits at most
    `poll_s`, returns None, and `is_connected` / `last_error` tell the session what to show; a good frame resets the
    back-off. ReplayEnded passes through: the end of a replay is not a fault.
    """

    def __init__(self, factory: Callable[[], FrameSource], backoff: Sequence[float] = (0.5, 1, 2, 5), *,
                 poll_s: float = 0.2, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self._factory = factory
        self._backoff = tuple(backoff)
        self._poll_s = poll_s
        self._clock, self._sleep = clock, sleep
        self._source: FrameSource | None = None
        self._failures = 0
        self._retry_at = clock()
        self.last_error: str | None = None
        self.reconnects = 0

    @property
    def is_connected(self) -> bool:
        return self._source is not None

    def read(self) -> np.ndarray | None:
        if self._source is None and not self._reopen():
            return None
        try:
            frame = self._source.read()
        except CameraError as error:
            self._drop(error)
            return None
        self._failures = 0
        return frame

    def _reopen(self) -> bool:
        wait = self._retry_at - self._clock()
        if wait > 0:
            self._sleep(min(wait, self._poll_s))
            return False
        try:
            self._source = self._factory()
        except CameraError as error:
            self._drop(error)
            return False
        self.reconnects += self.last_error is not None
        return True

    def _drop(self, error: CameraError) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
        self.last_error = str(error)
        self._retry_at = self._clock() + self._backoff[min(self._failures, len(self._backoff) - 1)]
        self._failures += 1

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
