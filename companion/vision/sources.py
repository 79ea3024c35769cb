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
from typing import Callable, Mapping, Sequence

import cv2
import numpy as np

from ..errors import CompanionError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
LIT_LEVEL = 40          # mean grey level (0-255) above which the tray counts as lit and exposure may be locked
FRAME_TIMEOUT_S = 5.0   # a Pi camera that gives no frame for this long has gone
MIN_WIDTH, MIN_HEIGHT = 64, 48   # the least frame that can hold a die; also the least camera.width/height
MANUAL = 1              # libcamera's ExposureTimeModeManual and AnalogueGainModeManual


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
    """`frame` if it is a BGR picture big enough to hold a die; else a CameraError, which the session shows as a
    camera fault (a wrong frame must never reach the settle detector or the reader, whose errors would stop the
    service)."""
    if frame is None or frame.size == 0:
        raise CameraError(f"{where}: empty frame")
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise CameraError(f"{where}: not a BGR picture (shape {frame.shape}, {frame.dtype})")
    height, width = frame.shape[:2]
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        raise CameraError(f"{where}: frame of {width}x{height} is too small to hold a die "
                          f"(at least {MIN_WIDTH}x{MIN_HEIGHT})")
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

def exposure_lock(metadata: Mapping, advertised: Mapping) -> dict:
    """Picamera2 controls that freeze exposure, gain and white balance at the values in a frame's metadata.

    Fixed ExposureTime, AnalogueGain and ColourGains are what lock them; how auto exposure is switched off depends
    on the libcamera under picamera2 (`advertised` is Picamera2.camera_controls): libcamera 0.5 and later has
    ExposureTimeMode and AnalogueGainMode (1 = manual) and merely warns about AeEnable, older ones have only
    AeEnable. A control the camera does not advertise would make set_controls raise, so only advertised ones go in.
    """
    controls = {"ExposureTime": int(metadata["ExposureTime"]), "AnalogueGain": float(metadata["AnalogueGain"]),
                "ColourGains": tuple(float(gain) for gain in metadata["ColourGains"])}
    if "ExposureTimeMode" in advertised:
        controls.update(ExposureTimeMode=MANUAL, AnalogueGainMode=MANUAL)
    elif "AeEnable" in advertised:
        controls["AeEnable"] = False
    if "AwbEnable" in advertised:
        controls["AwbEnable"] = False
    return {name: value for name, value in controls.items() if name in advertised}


class Picamera2Source(FrameSource):
    """The camera module through Picamera2 (apt's python3-picamera2, imported only here).

    Auto exposure and white balance run until `lock_after_s` has passed, the tray is lit and the exposure has
    converged (where the metadata says so), then both are locked at the values of that very frame, so that a hand
    or a die entering the view cannot shift the settle detector's image or the dice colours. Each frame comes with
    its own request, whose metadata is the one that frame was taken with.
    """

    def __init__(self, width: int, height: int, fps: float, *, lock_after_s: float = 2.0,
                 clock: Callable[[], float] = time.monotonic):
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            if error.name != "picamera2":   # pip's picamera2 without apt's libcamera bindings, for one
                raise CameraError(f"picamera2 cannot load ({error}); it needs apt's python3-libcamera, seen from a "
                                  "venv made with --system-site-packages (systemd/install.sh does both)") from None
            raise CameraError("picamera2 is not installed: on the Pi, `sudo apt install python3-picamera2` and use a "
                              "venv made with --system-site-packages (systemd/install.sh does both)") from None
        except ValueError as error:   # "numpy.dtype size changed": apt's simplejpeg under pip's numpy 2
            raise CameraError(f"picamera2 cannot load ({error}); `pip install 'simplejpeg>=1.8.1'` in the venv, "
                              "see systemd/README.md") from None
        frame_us = int(1_000_000 / fps)   # FrameDurationLimits, not the FrameRate alias older picamera2 lacks
        camera = None
        try:
            camera = Picamera2()
            camera.configure(camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"},   # RGB888 arrays are B, G, R: OpenCV's order
                controls={"FrameDurationLimits": (frame_us, frame_us)}))
            camera.start()
        except Exception as error:   # Picamera2 raises IndexError, RuntimeError or OSError for a missing camera
            if camera is not None:
                camera.close()       # else the next attempt finds the camera still acquired by this process
            raise CameraError(f"no Pi camera ({type(error).__name__}: {error}); check the ribbon cable and "
                              "`rpicam-hello --list-cameras`") from None
        self._camera = camera
        self._clock = clock
        self._lock_at = clock() + lock_after_s
        self.is_locked = False

    def read(self) -> np.ndarray:
        try:
            request = self._camera.wait(self._camera.capture_request(wait=False), timeout=FRAME_TIMEOUT_S)
            try:
                frame, metadata = request.make_array("main"), request.get_metadata()
            finally:
                request.release()   # the buffer goes back to the camera; make_array gave a copy
        except Exception as error:   # TimeoutError when the camera has gone, RuntimeError from libcamera
            raise CameraError(f"the Pi camera stopped ({type(error).__name__}: {error})") from None
        frame = checked_frame(frame, "Pi camera")
        if not self.is_locked and self._clock() >= self._lock_at and frame.mean() >= LIT_LEVEL \
                and metadata.get("AeLocked", True):
            self._camera.set_controls(exposure_lock(metadata, self._camera.camera_controls))
            self.is_locked = True
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
        try:
            with _quiet_opencv():
                ok, frame = self._capture.read()
        except cv2.error as error:   # some V4L2 drivers fail this way when the device is pulled mid-frame
            raise CameraError(f"{self.name}: {str(error).strip().splitlines()[-1]}") from None
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
