"""Picamera2Source against a stand-in for the picamera2 package, which exists only on a Pi.

The stand-in keeps to the part of picamera2's API the source uses, as picamera2 behaves: capture_request(wait=False)
gives a job and wait(job, timeout) its CompletedRequest, whose buffer must be released; set_controls refuses a control
that libcamera does not advertise ("Control X is not advertised by libcamera"); auto exposure changes ExposureTime
and AnalogueGain from frame to frame until fixed values are set. The sensor's scene is a list of grey levels.
"""
import importlib.util
import sys
import types

import numpy as np
import pytest

from companion.vision.sources import (LIT_LEVEL, MANUAL, CameraError, Picamera2Source, ReconnectingSource,
                                      exposure_lock)

# Picamera2.camera_controls on a Pi 4 with Bookworm's libcamera 0.5 (AeEnable kept as a wrapper) and with 0.3.
LIBCAMERA_0_5 = ("AeEnable", "ExposureTimeMode", "AnalogueGainMode", "ExposureTime", "AnalogueGain", "AwbEnable",
                 "ColourGains", "FrameDurationLimits")
LIBCAMERA_0_3 = ("AeEnable", "ExposureTime", "AnalogueGain", "AwbEnable", "ColourGains", "FrameDurationLimits")


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Request:
    def __init__(self, camera, level, metadata):
        self.camera, self.level, self.metadata = camera, level, metadata

    def make_array(self, name):
        assert name == "main" and self in self.camera.held, "array made from a released request"
        width, height = self.camera.config["main"]["size"]
        return np.full((height, width, 3), self.level, np.uint8)

    def get_metadata(self):
        return dict(self.metadata)

    def release(self):
        self.camera.held.remove(self)


def stand_in(scene, *, advertised=LIBCAMERA_0_5, converged=lambda n: True, fail_on=None, stall_after=None):
    """A picamera2 module whose camera sees `scene` (grey levels, one per frame, the last repeated)."""
    cameras = []

    class Picamera2:
        def __init__(self):
            self.camera_controls = {name: (0, 1, 0) for name in advertised}
            self.held, self.set, self.frames, self.closed, self.started = [], [], 0, False, False
            self.fixed = {}
            cameras.append(self)

        def create_video_configuration(self, main, controls):
            return {"main": main, "controls": controls}

        def configure(self, config):
            if fail_on == "configure":
                raise RuntimeError("Failed to configure camera")
            self.config = config

        def start(self):
            self.started = True

        def capture_request(self, wait=None):
            assert wait is False and self.started
            return ("job", self.frames)

        def wait(self, job, timeout=None):
            assert timeout is not None, "a vanished camera would block the loop forever"
            if stall_after is not None and self.frames >= stall_after:
                raise TimeoutError()
            n = self.frames
            self.frames += 1
            auto = {"ExposureTime": 10000 + 100 * n, "AnalogueGain": 1.0 + n / 10, "ColourGains": (1.5 + n / 100, 1.8),
                    "AeLocked": converged(n), "Lux": 300.0}
            request = Request(self, scene[min(n, len(scene) - 1)], {**auto, **self.fixed})
            self.held.append(request)
            return request

        def set_controls(self, controls):
            for name in controls:
                if name not in self.camera_controls:
                    raise RuntimeError(f"Control {name} is not advertised by libcamera")
            self.set.append(dict(controls))
            self.fixed.update({k: v for k, v in controls.items() if k in ("ExposureTime", "AnalogueGain",
                                                                           "ColourGains")})

        def close(self):
            self.closed = True

    module = types.ModuleType("picamera2")
    module.Picamera2 = Picamera2
    return module, cameras


@pytest.fixture
def picamera2(monkeypatch):
    def install(*args, **kwargs):
        module, cameras = stand_in(*args, **kwargs)
        monkeypatch.setitem(sys.modules, "picamera2", module)
        return cameras
    return install


def reads(source, count):
    return [int(source.read()[0, 0, 0]) for _ in range(count)]


def test_exposure_is_locked_once_lit_after_the_delay_at_the_values_of_that_frame(picamera2):
    dark, lit = LIT_LEVEL - 20, LIT_LEVEL + 60
    cameras = picamera2([dark] * 6 + [lit])
    clock = Clock()
    source = Picamera2Source(640, 480, 15, lock_after_s=2, clock=clock)
    [camera] = cameras
    assert camera.config["main"] == {"size": (640, 480), "format": "RGB888"}
    assert camera.config["controls"] == {"FrameDurationLimits": (66666, 66666)}   # 15 frames a second
    reads(source, 3)
    clock.now = 2.5                      # the delay is over but the lamp is still off
    assert reads(source, 3) == [dark] * 3 and camera.set == [] and not source.is_locked
    reads(source, 1)                     # frame 6, the first lit one
    assert source.is_locked
    assert camera.set == [{"ExposureTime": 10600, "AnalogueGain": 1.6, "ColourGains": (1.56, 1.8),
                           "ExposureTimeMode": MANUAL, "AnalogueGainMode": MANUAL, "AwbEnable": False}]
    reads(source, 5)
    assert len(camera.set) == 1          # locked once, not on every frame
    assert camera.held == []             # every request went back to the camera


def test_no_lock_before_the_delay_even_when_lit(picamera2):
    cameras = picamera2([200])
    clock = Clock()
    source = Picamera2Source(640, 480, 15, lock_after_s=2, clock=clock)
    [camera] = cameras
    clock.now = 1.9
    reads(source, 4)
    assert camera.set == [] and not source.is_locked
    clock.now = 2.0
    reads(source, 1)
    assert source.is_locked


def test_no_lock_while_auto_exposure_is_still_converging(picamera2):
    cameras = picamera2([200], converged=lambda n: n >= 3)
    source = Picamera2Source(640, 480, 15, lock_after_s=0, clock=Clock())
    [camera] = cameras
    reads(source, 3)
    assert camera.set == []
    reads(source, 1)
    assert camera.set[0]["ExposureTime"] == 10300


def test_an_older_libcamera_is_locked_with_ae_enable(picamera2):
    cameras = picamera2([200], advertised=LIBCAMERA_0_3)
    source = Picamera2Source(640, 480, 15, lock_after_s=0, clock=Clock())
    [camera] = cameras
    reads(source, 1)
    assert camera.set == [{"ExposureTime": 10000, "AnalogueGain": 1.0, "ColourGains": (1.5, 1.8), "AeEnable": False,
                           "AwbEnable": False}]


def test_the_lock_names_only_controls_the_camera_advertises():
    metadata = {"ExposureTime": 16667.0, "AnalogueGain": 2.5, "ColourGains": [1.9, 1.6], "Lux": 310.0}
    assert exposure_lock(metadata, {"ExposureTime": 0, "AnalogueGain": 0, "ColourGains": 0}) == \
        {"ExposureTime": 16667, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}


def test_a_camera_that_fails_to_configure_is_released_for_the_next_attempt(picamera2):
    cameras = picamera2([200], fail_on="configure")
    with pytest.raises(CameraError, match=r"no Pi camera \(RuntimeError: Failed to configure camera\); check the "
                                          "ribbon cable"):
        Picamera2Source(640, 480, 15)
    [camera] = cameras
    assert camera.closed


def test_a_camera_that_stops_giving_frames_is_reopened_and_locked_again(picamera2):
    cameras = picamera2([200], stall_after=3)
    source = ReconnectingSource(lambda: Picamera2Source(640, 480, 15, lock_after_s=0, clock=Clock()),
                                backoff=(0,), poll_s=0)
    frames = [source.read() for _ in range(6)]
    assert [f is None for f in frames] == [False, False, False, True, False, False]
    assert "the Pi camera stopped (TimeoutError" in source.last_error and source.reconnects == 1
    first, second = cameras
    assert first.closed and not second.closed and len(second.set) == 1


def test_picamera2_without_apts_libcamera_names_the_remedy(tmp_path, monkeypatch):
    """pip's picamera2 in a venv that cannot see apt's libcamera bindings (which are not on PyPI)."""
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text("import libcamera\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    if importlib.util.find_spec("libcamera") is not None:
        pytest.skip("libcamera is importable here")
    with pytest.raises(CameraError, match=r"picamera2 cannot load \(No module named 'libcamera'\); it needs apt's "
                                          "python3-libcamera"):
        Picamera2Source(640, 480, 15)
