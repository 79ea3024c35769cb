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
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion import config
from companion.cli import main
from companion.games import Die
from companion.games.match import Match
from companion.service import Notifier
from companion.session.appliance import CAMERA_LOST, Appliance
from companion.session.journal import Journal
from companion.session.table import Table
from companion.ui.buttons import ButtonPanel
from companion.ui.display import Screen
from companion.ui.screens import render
from companion.vision.settle import SettleDetector
from companion.vision.sources import FolderSource, ReconnectingSource, VideoSource

from .scripted import scripted_game

PINS = {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
FRAME = (48, 64, 3)


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
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    game = journal.new_game(setup)
    for event in events[:12]:
        journal.append(game, event)
    journal.close()
    return path, events[:12]


def journal_events(path):
    journal = Journal(path)
    try:
        return journal.events(journal.newest())
    finally:
        journal.close()


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


def test_a_file_that_is_not_an_image_is_one_line_for_calibrate(tmp_path, capsys):
    photo = tmp_path / "tray.png"
    photo.write_text("not a picture")
    assert main(["calibrate", "--from-images", str(photo), "--out", str(tmp_path / "profile.json")]) == 1
    assert "tray.png is not an image" in one_line_error(capsys)
    assert not (tmp_path / "profile.json").exists()


# The camera at the table ----------------------------------------------------------------------------------------

class Companion:
    """The appliance resumed on the journal's game in progress, fed by `source_factory` (reopened when it fails)."""

    def __init__(self, journal, source_factory):
        self.factory = MockFactory()
        self.buttons = ButtonPanel(PINS, pin_factory=self.factory, debounce_ms=0)
        self.device = dummy(width=128, height=64, mode="1")
        self.source = ReconnectingSource(source_factory, backoff=(0,), poll_s=0)
        self.appliance = Appliance(journal=Journal(journal), source=self.source, buttons=self.buttons,
                                   screen=Screen(self.device, 60), profile=None, profile_path=None,
                                   settle_factory=SettleDetector, notifier=Notifier(""), players=("Ana", "Ben"),
                                   game_options={})
        self.tap("OK")   # "Resume banx", the first row of the home screen
        self.appliance.step()
        assert self.appliance.table is not None

    def tap(self, name):
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        pin.drive_high()

    def steps(self, count):
        for _ in range(count):
            self.appliance.step()

    def steps_until(self, done, limit=40) -> bool:
        for _ in range(limit):
            self.appliance.step()
            if done():
                return True
        return False

    def oled_says(self, status: str) -> bool:
        """True when the OLED shows the table's screen with `status` on its status line."""
        prompt = dataclasses.replace(self.appliance.table.prompt(), status=status)
        return self.device.image.tobytes() == render(prompt).tobytes()

    def close(self):
        self.buttons.close()
        self.appliance.journal.close()


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


@pytest.mark.xfail(strict=True, reason="sources.py: checked_frame lets through a frame smaller than the settle "
                                       "detector's cell, whose ValueError then stops the service with a traceback")
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



@pytest.mark.xfail(strict=True, reason="table.py: Table.observe opens a read check for a die off the mat, which has "
                                       "no face to read; the game asks for it to be re-rolled (CL-28)")
def test_a_die_off_the_mat_is_re_rolled_without_a_read_check():
    setup, _, states = scripted_game("countaloupe", seed=5)
    roll = states[0].random_roll(random.Random(1))
    off = roll.dice[:-1] + (Die(kind=roll.dice[-1].kind, zone="off"),)
    roll = dataclasses.replace(roll, dice=off)
    assert "re-roll 1 die" in states[0].apply(roll).expects().message   # the rules take it
    table = Table(Match.start(setup))
    assert table.observe(roll), "a read check was opened for a die that is off the mat"
