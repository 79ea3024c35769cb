"""Bad input, each answered by one line (on the terminal, or on the OLED's status line while a game is on), a non-zero
exit where a command ends, and no game lost: the journal holding a game in progress is the same afterwards.

Commands run through the console script's main(); the camera faults run through the appliance loop with its real
parts: frames from files through a ReconnectingSource, gpiozero buttons on MockFactory pins, luma's dummy OLED.
"""
import dataclasses
import random
import signal
import sqlite3

import cv2
import numpy as np
import pytest

from companion import config
from companion.cli import main
from companion.games import Die
from companion.games.match import Match
from companion.session.appliance import CAMERA_LOST
from companion.session.table import Table
from companion.vision.sources import FolderSource, VideoSource

from .rig import FRAME, Companion, journal_events, journal_holding
from .scripted import scripted_game


@pytest.fixture(autouse=True)
def no_outside_config(monkeypatch, tmp_path):
    """Neither the machine's /etc file nor the caller's environment may leak in; SIGTERM is given back after `run`."""
    monkeypatch.delenv(config.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(config, "SYSTEM_PATH", tmp_path / "etc" / "config.toml")
    on_term = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, on_term)


@pytest.fixture
def game_in_progress(tmp_path):
    """A journal holding a BANX game 12 events in; returns its path and the events."""
    setup, events, _ = scripted_game("banx", seed=11)
    return journal_holding(tmp_path / "journal.sqlite", setup, events[:12]), events[:12]


def one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.err.endswith("\n") and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err + captured.out
    return captured.err


def config_file(tmp_path, text, name="config.toml"):
    path = tmp_path / name
    path.write_text(text) if isinstance(text, str) else path.write_bytes(text)
    return str(path)


def service_config(tmp_path, journal, **camera):
    """A configuration that runs the service with no hardware: dummy OLED, keyboard, a folder of frames."""
    folder = tmp_path / "frames"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "000.png"), np.zeros(FRAME, np.uint8))
    return config_file(tmp_path, f'[table]\njournal = "{journal}"\n[camera]\nsource = "folder"\npath = "{folder}"\n'
                                 '[display]\ndriver = "dummy"\n[buttons]\nbackend = "keyboard"\n')


@pytest.mark.parametrize("text, message", [
    ("[table\nplayers = 1", "not valid TOML"),
    ("[camera]\ncolour = 1\n", "camera.colour: unknown key"),
    ("[tabel]\n", "tabel: unknown section"),
    ("[camera]\nfps = \"fast\"\n", "camera.fps: must be a number"),
    (b"\x89PNG\r\n\x1a\n\xff\xfe", "not a text file"),
    ("[games.chess]\n", "unknown game 'chess'"),
], ids=["not-toml", "unknown-key", "unknown-section", "bad-value", "binary", "unknown-game"])
@pytest.mark.parametrize("command", ["config", "run"])
def test_a_bad_config_is_one_line_and_exit_1(tmp_path, capsys, text, message, command, game_in_progress):
    assert main([command, "--config", config_file(tmp_path, text)]) == 1
    assert message in one_line_error(capsys)
    assert journal_events(game_in_progress[0]) == game_in_progress[1]


def test_an_unknown_game_name_is_refused_with_the_known_ones(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["play", "chess"])
    assert ended.value.code == 2   # bad usage (design.md)
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "invalid choice: 'chess'" in error and "banx" in error and "dice-lottery" in error


def test_a_journal_from_a_newer_version_is_one_line_and_left_untouched(tmp_path, capsys, game_in_progress):
    path, _ = game_in_progress
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    db.commit()
    db.close()
    before = path.read_bytes()
    assert main(["export", "--journal", str(path)]) == 1
    assert "newer version (schema 2)" in one_line_error(capsys)
    assert main(["run", "--config", service_config(tmp_path, path)]) == 1
    assert "newer version (schema 2)" in one_line_error(capsys)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_journal_is_one_line(tmp_path, capsys):
    path = tmp_path / "notes.sqlite"
    path.write_text("shopping: milk, dice\n" * 50)
    assert main(["export", "--journal", str(path)]) == 1
    assert "notes.sqlite" in one_line_error(capsys)


@pytest.mark.parametrize("command", ["read", "calibrate"])
def test_a_file_that_is_not_an_image_is_one_line(tmp_path, capsys, command):
    photo = tmp_path / "tray.png"
    photo.write_text("not a picture")
    profile = tmp_path / "profile.json"
    arguments = [str(photo)] if command == "read" else ["--from-images", str(photo), "--out", str(profile)]
    assert main([command, *arguments]) == 1
    assert "tray.png is not an image" in one_line_error(capsys)
    assert not profile.exists()


# The camera at the table ----------------------------------------------------------------------------------------

def write_video(path, frames=20):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (FRAME[1], FRAME[0]))
    for level in range(frames):
        writer.write(np.full(FRAME, level * 10, np.uint8))
    writer.release()
    return path.read_bytes()


def test_a_truncated_video_and_a_camera_that_vanishes_and_returns_lose_nothing(tmp_path, game_in_progress):
    journal, events = game_in_progress
    video = tmp_path / "table.avi"
    whole = write_video(video)
    video.write_bytes(whole[:int(len(whole) * 0.8)])
    table = Companion(journal, lambda: VideoSource(video, fps=1000))
    table.steps(20)   # the frames run out before the video's end: a camera fault, and the source is reopened
    assert table.source.reconnects >= 1 and "truncated" in table.source.last_error
    video.unlink()    # the camera vanishes (once the frames already opened run out)
    assert table.steps_until(lambda: table.appliance.session.alert == CAMERA_LOST)
    assert table.oled_says(CAMERA_LOST)
    table.tap("NEXT")  # the buttons still work
    table.steps(1)
    assert table.oled_says(CAMERA_LOST)
    video.write_bytes(whole)   # and returns
    assert table.steps_until(lambda: table.appliance.session.alert == "", limit=2)
    assert not table.oled_says(CAMERA_LOST)
    assert table.appliance.table.match.events == events
    table.close()
    assert journal_events(journal) == events


def test_an_empty_camera_frame_is_a_camera_fault(tmp_path, game_in_progress):
    journal, events = game_in_progress
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "000.png").write_bytes(b"")
    table = Companion(journal, lambda: FolderSource(frames, fps=1000, loop=True))
    table.steps(3)
    assert "000.png: not an image" in table.source.last_error and table.oled_says(CAMERA_LOST)
    assert table.appliance.table.match.events == events
    table.close()
    assert journal_events(journal) == events


def test_a_frame_too_small_to_hold_a_die_is_a_camera_fault(tmp_path, game_in_progress):
    journal, events = game_in_progress
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), np.zeros((4, 4, 3), np.uint8))
    table = Companion(journal, lambda: FolderSource(frames, fps=1000, loop=True))
    try:
        table.steps(3)
        assert table.oled_says(CAMERA_LOST)
    finally:
        table.close()
    assert journal_events(journal) == events


def test_a_camera_back_at_another_resolution_loses_nothing(tmp_path, game_in_progress):
    journal, events = game_in_progress
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), np.zeros(FRAME, np.uint8))
    cv2.imwrite(str(frames / "001.png"), np.zeros((2 * FRAME[0], 2 * FRAME[1], 3), np.uint8))
    table = Companion(journal, lambda: FolderSource(frames, fps=1000, loop=True))
    try:
        table.steps(6)
        assert table.appliance.session.alert == "" and table.appliance.table.match.events == events
    finally:
        table.close()
    assert journal_events(journal) == events


def test_a_die_off_the_mat_is_re_rolled_without_a_read_check():
    setup, _, states = scripted_game("countaloupe", seed=5)
    roll = states[0].random_roll(random.Random(1))
    off = roll.dice[:-1] + (Die(kind=roll.dice[-1].kind, zone="off"),)
    roll = dataclasses.replace(roll, dice=off)
    assert "re-roll 1 die" in states[0].apply(roll).expects().message   # the rules take it
    table = Table(Match.start(setup))
    assert table.observe(roll), "a read check was opened for a die that is off the mat"
