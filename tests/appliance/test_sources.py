"""Frame sources on real files through OpenCV, and reconnecting after a source that fails on purpose."""
import dataclasses
import importlib.util
import os

import cv2
import numpy as np
import pytest

from companion import config
from companion.vision.sources import (MIN_HEIGHT, MIN_WIDTH, CameraError, FolderSource, Picamera2Source,
                                      ReconnectingSource, ReplayEnded, VideoSource, WebcamSource, open_source)


class FakeClock:
    """Time that moves only when the code under test sleeps or the test says so."""

    def __init__(self):
        self.now = 100.0
        self.sleeps = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


def frame(level):
    return np.full((48, 64, 3), level, np.uint8)


@pytest.fixture
def folder(tmp_path):
    """Three frames written out of name order, and a file that is not a frame."""
    path = tmp_path / "frames"
    path.mkdir()
    for name, level in (("b.png", 20), ("a.png", 10), ("c.bmp", 30)):
        cv2.imwrite(str(path / name), frame(level))
    (path / "notes.txt").write_text("not a frame")
    return path


def levels(source, count):
    return [int(source.read()[0, 0, 0]) for _ in range(count)]


def write_video(path, count=20):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(count):
        writer.write(frame(10 * i))
    writer.release()
    return path


def test_folder_gives_its_images_in_name_order_then_ends(folder):
    source = FolderSource(folder, fps=100)
    first = source.read()
    assert first.shape == (48, 64, 3) and first.dtype == np.uint8
    assert [int(first[0, 0, 0])] + levels(source, 2) == [10, 20, 30]
    with pytest.raises(ReplayEnded):
        source.read()


def test_folder_loops_when_asked(folder):
    assert levels(FolderSource(folder, fps=100, loop=True), 7) == [10, 20, 30, 10, 20, 30, 10]


def test_folder_paces_reads_at_fps_without_bursting_to_catch_up(folder):
    clock = FakeClock()
    source = FolderSource(folder, fps=10, loop=True, clock=clock, sleep=clock.sleep)
    levels(source, 3)
    assert clock.sleeps == [0.1, 0.1]       # the first frame at once, then one every 1/fps
    clock.now += 5                           # the reader fell far behind
    levels(source, 2)
    assert clock.sleeps == [0.1, 0.1, 0.1]   # no burst of frames to catch up


@pytest.mark.parametrize("setup, message", [
    (lambda p: p.mkdir(), r"no images \(\.png, \.jpg"),
    (lambda p: None, "no such folder"),
])
def test_folder_that_cannot_replay(tmp_path, setup, message):
    path = tmp_path / "empty"
    setup(path)
    with pytest.raises(CameraError, match=message):
        FolderSource(path, fps=10)


def test_a_file_that_is_not_an_image_is_one_line(folder):
    (folder / "b.png").write_text("this is text with a png name")
    source = FolderSource(folder, fps=100)
    source.read()
    with pytest.raises(CameraError) as caught:
        source.read()
    assert str(caught.value) == f"{folder / 'b.png'}: not an image"


def test_a_frame_removed_mid_run_has_vanished(folder):
    source = FolderSource(folder, fps=100)
    source.read()
    (folder / "b.png").unlink()
    with pytest.raises(CameraError, match="b.png: vanished"):
        source.read()


def test_video_at_fps_then_ends_or_loops(tmp_path):
    path = write_video(tmp_path / "roll.avi")
    clock = FakeClock()
    source = VideoSource(path, fps=5, clock=clock, sleep=clock.sleep)
    values = levels(source, 20)
    assert values[0] < 5 and values[-1] > 180 and values == sorted(values)   # every frame, in order
    assert clock.sleeps == [0.2] * 19
    with pytest.raises(ReplayEnded):
        source.read()
    looping = VideoSource(path, fps=100, loop=True)
    assert levels(looping, 22)[20:] == levels(VideoSource(path, fps=100), 2)


def test_a_truncated_video_is_a_camera_error_not_an_end(tmp_path):
    whole = write_video(tmp_path / "roll.avi").read_bytes()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(whole[:int(len(whole) * 0.8)])
    source = VideoSource(cut, fps=100)
    with pytest.raises(CameraError, match=r"cut.avi: video ends at frame \d+ of 20; truncated\?"):
        for _ in range(21):
            source.read()
    cut.write_bytes(whole[:len(whole) // 2])    # too short even for its header
    with pytest.raises(CameraError, match="not a video OpenCV can read"):
        VideoSource(cut, fps=100)


def test_a_webcam_that_is_not_there(tmp_path):
    if os.path.exists("/dev/video63"):
        pytest.skip("this machine has /dev/video63")
    with pytest.raises(CameraError) as caught:
        WebcamSource(63, 640, 480, 15)
    assert str(caught.value) == ("webcam 63 (/dev/video63): cannot open; is it plugged in, and is the user in "
                                 "the video group?")


def test_picamera2_absent_is_a_hint_not_a_traceback():
    if importlib.util.find_spec("picamera2") is not None:
        pytest.skip("picamera2 is installed here")
    with pytest.raises(CameraError, match="picamera2 is not installed: on the Pi, `sudo apt install python3-picamera2`"):
        Picamera2Source(640, 480, 15)


def test_picamera2_under_the_wrong_numpy_names_the_remedy(tmp_path, monkeypatch):
    """The failure apt's simplejpeg gives under pip's numpy 2, reproduced by a package that fails the same way."""
    broken = tmp_path / "picamera2"
    broken.mkdir()
    (broken / "__init__.py").write_text('raise ValueError("numpy.dtype size changed, may indicate binary '
                                        'incompatibility. Expected 96 from C header, got 88 from PyObject")\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(CameraError, match=r"numpy.dtype size changed.*pip install 'simplejpeg>=1\.8\.1'"):
        Picamera2Source(640, 480, 15)


def test_open_source_follows_the_configuration(folder, tmp_path):
    camera = dataclasses.replace(config.defaults().camera, source="folder", path=str(folder), fps=50.0, loop=True)
    assert levels(open_source(camera), 4) == [10, 20, 30, 10]
    video = dataclasses.replace(camera, source="video", path=str(write_video(tmp_path / "v.avi", 3)), loop=False)
    source = open_source(video)
    levels(source, 3)
    with pytest.raises(ReplayEnded):
        source.read()


# ------------------------------------------------------------------------------------------------ reconnecting

def test_reconnects_with_back_off_after_the_frames_vanish(folder, tmp_path):
    clock = FakeClock()
    opened = []

    def factory():
        opened.append(clock.now)
        return FolderSource(folder, fps=100, loop=True)

    source = ReconnectingSource(factory, backoff=(0.5, 1, 2), poll_s=0.2, clock=clock, sleep=clock.sleep)
    assert levels(source, 2) == [10, 20] and source.is_connected and source.last_error is None
    saved = {p.name: p.read_bytes() for p in folder.iterdir()}
    for p in folder.iterdir():
        p.unlink()                                   # the camera goes away mid-game

    assert source.read() is None                     # c.bmp has vanished
    assert not source.is_connected and "vanished" in source.last_error
    retry_at = clock.now + 0.5
    while clock.now < retry_at:                      # waits in short polls, so the session loop keeps running
        assert source.read() is None
    assert source.read() is None and "no images" in source.last_error   # reopened too early: still empty
    assert opened == [100.0, retry_at]
    assert clock.sleeps[:3] == [0.2, 0.2, 0.1]

    for name, data in saved.items():
        (folder / name).write_bytes(data)             # it comes back
    frames = [source.read() for _ in range(8)]
    assert frames[-1] is not None and source.is_connected and source.reconnects == 1
    assert opened[-1] - opened[-2] == pytest.approx(1.0)   # the second failure waited longer
    first = next(f for f in frames if f is not None)
    assert int(first[0, 0, 0]) == 10                       # a fresh source starts from its first frame


def test_back_off_grows_to_its_last_step_and_resets_after_a_good_frame(tmp_path):
    clock = FakeClock()
    missing = tmp_path / "absent"
    opened = []

    def factory():
        opened.append(clock.now)
        return FolderSource(missing, fps=100, loop=True)

    source = ReconnectingSource(factory, backoff=(1, 2, 4), poll_s=10, clock=clock, sleep=clock.sleep)
    while len(opened) < 5:
        assert source.read() is None
    assert [b - a for a, b in zip(opened, opened[1:])] == [1, 2, 4, 4] and "no such folder" in source.last_error
    missing.mkdir()
    cv2.imwrite(str(missing / "a.png"), frame(10))
    while source.read() is None:
        pass
    (missing / "a.png").unlink()
    assert source.read() is None                     # fails again after a good frame...
    failed_at, reopened = clock.now, len(opened)
    while len(opened) == reopened:
        source.read()
    assert opened[-1] - failed_at == 1               # ...and waits the first step again


def test_a_truncated_video_is_reopened_and_replayed(tmp_path):
    whole = write_video(tmp_path / "roll.avi").read_bytes()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(whole[:int(len(whole) * 0.8)])
    clock = FakeClock()
    source = ReconnectingSource(lambda: VideoSource(cut, fps=100), backoff=(0.5,), clock=clock, sleep=clock.sleep)
    frames = [source.read() for _ in range(40)]
    gap = next(i for i, f in enumerate(frames) if f is None)
    assert gap > 5 and "truncated" in source.last_error
    assert any(f is not None for f in frames[gap + 1:]) and source.reconnects >= 1


def test_the_end_of_a_replay_is_not_a_fault(folder):
    source = ReconnectingSource(lambda: FolderSource(folder, fps=100))
    levels(source, 3)
    with pytest.raises(ReplayEnded):
        source.read()


def test_a_frame_too_small_to_hold_a_die_is_a_camera_error(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), np.zeros((MIN_HEIGHT, MIN_WIDTH - 1, 3), np.uint8))
    cv2.imwrite(str(folder / "b.png"), np.zeros((MIN_HEIGHT, MIN_WIDTH, 3), np.uint8))
    source = FolderSource(folder, fps=100)
    with pytest.raises(CameraError, match=rf"a.png: frame of {MIN_WIDTH - 1}x{MIN_HEIGHT} is too small to hold a die"):
        source.read()
    assert source.read().shape == (MIN_HEIGHT, MIN_WIDTH, 3)


def test_the_configuration_asks_no_camera_for_frames_the_sources_would_refuse(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(f"[camera]\nwidth = {MIN_WIDTH}\nheight = {MIN_HEIGHT}\n")
    assert (config.load(path).camera.width, config.load(path).camera.height) == (MIN_WIDTH, MIN_HEIGHT)
    path.write_text(f"[camera]\nwidth = {MIN_WIDTH - 1}\n")
    with pytest.raises(config.ConfigError, match=f"camera.width: must be a whole number {MIN_WIDTH}-"):
        config.load(path)


def test_play_with_a_camera_path_that_names_nothing_is_one_line_and_exit_1(tmp_path, capsys):
    from companion.cli import main

    assert main(["play", "banx", "--camera", str(tmp_path / "frmaes"), "--display", "dummy"]) == 1
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "frmaes: no such image folder or video file" in error[0]
