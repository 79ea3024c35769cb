"""The appliance loop with real parts: rendered camera frames from a folder, gpiozero buttons on MockFactory pins,
luma's dummy OLED, a SQLite journal and systemd's notify socket."""
import socket
import time

import cv2
import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.games import Die, Roll
from companion.service import Notifier
from companion.session.appliance import CAMERA_LOST, Appliance
from companion.session.demo import FRAME, scene_for
from companion.session.journal import Journal
from companion.ui.buttons import ButtonPanel
from companion.ui.display import Screen
from companion.vision.profile import Profile
from companion.vision.settle import SettleDetector
from companion.vision.sources import FolderSource, ReconnectingSource
from companion.vision.synth import SynthDie, render_roll_frames

PINS = {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
LONG_MS = 100    # the long press of these tests, short to keep them quick


def write_roll(folder, values, seed=0):
    folder.mkdir(parents=True, exist_ok=True)
    frames = render_roll_frames(scene_for(Roll.of(*values)), moving=3, still=1, seed=seed, size=FRAME)
    for n, frame in enumerate(frames + [frames[-1]] * 10):
        cv2.imwrite(str(folder / f"{n:03d}.png"), frame)


class Rig:
    def __init__(self, tmp_path, frames, game="banx"):
        self.factory = MockFactory()
        self.buttons = ButtonPanel(PINS, pin_factory=self.factory, debounce_ms=0, long_press_ms=LONG_MS)
        self.device = dummy(width=128, height=64, mode="1")
        self.notify_path = str(tmp_path / "notify.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.listener.bind(self.notify_path)
        self.listener.setblocking(False)
        self.frames = frames
        self.source = ReconnectingSource(lambda: FolderSource(self.frames, fps=1000), backoff=(0,), poll_s=0)
        self.journal_path = tmp_path / "journal.sqlite"
        self.profile_path = tmp_path / "profile.json"
        self.game = game
        self.appliance = self.open()

    def open(self):
        return Appliance(journal=Journal(self.journal_path), source=self.source, buttons=self.buttons,
                         screen=Screen(self.device, 60), profile=None, profile_path=str(self.profile_path),
                         settle_factory=SettleDetector, notifier=Notifier(self.notify_path),
                         players=("Ana", "Ben", "Cy"), game_options={}, game=self.game)

    def tap(self, name, times=1):
        pin = self.factory.pin(PINS[name])
        for _ in range(times):
            pin.drive_low()
            pin.drive_high()

    def hold(self, name):
        """A long press: held until gpiozero's hold thread has fired it."""
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        deadline = time.monotonic() + 5
        while self.appliance.presses.empty() and time.monotonic() < deadline:
            time.sleep(0.01)
        pin.drive_high()

    def steps(self, count):
        for _ in range(count):
            self.appliance.step()

    def screen_text(self):
        return self.appliance.session.shown.text()

    def notifications(self):
        messages = []
        while True:
            try:
                messages.append(self.listener.recv(256).decode())
            except BlockingIOError:
                return messages


@pytest.fixture
def rig(tmp_path):
    write_roll(tmp_path / "frames", (3, 3, 3, 5, 6))
    rig = Rig(tmp_path, tmp_path / "frames")
    yield rig
    rig.buttons.close()
    rig.listener.close()


def test_setup_by_buttons_then_a_roll_from_the_camera_is_journaled(rig):
    rig.tap("OK", 6)  # 2 players, Ana, Ben, red, blue, Ana starts
    rig.steps(1)
    assert rig.appliance.table is not None
    assert rig.appliance.table.names == ("Ana", "Ben")
    rig.steps(10)
    [roll] = rig.appliance.table.match.events
    assert roll.values == (3, 3, 3, 5, 6)
    assert rig.device.image is not None and "ANA" in rig.screen_text()
    rig.tap("OK")  # the default after roll 1: Roll again
    rig.steps(1)
    assert len(Journal(rig.journal_path).events(1)) == 2


def test_camera_that_vanishes_is_shown_and_the_game_carries_on(rig, tmp_path):
    rig.tap("OK", 6)
    rig.steps(11)
    events = list(rig.appliance.table.match.events)
    for file in rig.frames.iterdir():
        file.unlink()
    rig.notifications()
    rig.steps(3)
    assert rig.appliance.session.alert == CAMERA_LOST
    assert CAMERA_LOST in rig.screen_text()
    assert rig.notifications() == [f"STATUS={CAMERA_LOST}"], "systemctl status says it too, once"
    assert rig.appliance.table.match.events == events  # nothing lost or added while the camera was away
    rig.tap("NEXT")  # the buttons still work
    rig.steps(1)
    write_roll(rig.frames, (3, 3, 3, 5, 6), seed=4)
    rig.steps(2)
    assert rig.appliance.session.alert == "" and CAMERA_LOST not in rig.screen_text()
    assert [m for m in rig.notifications() if m.startswith("STATUS=")] == ["STATUS=BANX: ANA roll 1 T1"]
    assert rig.source.reconnects >= 1


def test_restart_offers_resume_and_resumes_exactly(rig):
    rig.tap("OK", 6)
    rig.steps(11)
    before = rig.appliance.table.match.state.detail()
    rig.appliance.journal.close()
    rig.appliance = rig.open()
    rig.steps(1)
    assert "Resume banx" in rig.screen_text()
    rig.tap("OK")
    rig.steps(1)
    assert rig.appliance.table.match.state.detail() == before


def test_sigterm_path_tells_systemd_ready_then_stopping_and_closes_the_journal(rig):
    import threading
    stop = threading.Event()
    stop.set()
    assert rig.appliance.run(stop) == 0
    assert rig.notifications() == ["READY=1", "STOPPING=1"]
    with pytest.raises(Exception):
        rig.appliance.journal.events(1)


def test_a_corrupt_frame_is_a_camera_fault_not_a_crash(rig):
    (rig.frames / "000.png").write_bytes(b"not a png")
    rig.steps(2)
    assert rig.appliance.session.alert == CAMERA_LOST
    assert rig.appliance.table is None  # still on the home screen, nothing started or lost


def test_faces_taught_from_the_menu_are_saved_and_read_from_then_on(tmp_path):
    """Issue 5: MENU > Teach symbol faces, each Chance Die face shown three times, then a roll reads it."""
    frames = tmp_path / "frames"
    frames.mkdir()
    faces = {"blank": "blank", "sweet": "star", "sour": "crescent", "nope": "cross"}
    shots = []
    for n, (face, symbol) in enumerate((f, s) for f, s in faces.items() for _ in range(3)):
        die = SynthDie(kind="symbol", face=face, symbol=symbol, center=(200 + 60 * (n % 4), 240), size=52)
        shots += render_roll_frames([die], moving=2, still=1, seed=n, size=FRAME)[-3:] + [None] * 4
    roll = scene_for(Roll((Die(1), Die(2), Die(4), Die(kind="symbol", face="sour"))))
    roll[-1] = SynthDie(kind="symbol", face="sour", symbol="crescent", center=roll[-1].center, size=52)
    shots += render_roll_frames(roll, moving=3, still=1, seed=99, size=FRAME) + [None] * 8
    last = None
    for n, shot in enumerate(shots):
        last = shot if shot is not None else last
        cv2.imwrite(str(frames / f"{n:03d}.png"), last)
    rig = Rig(tmp_path, frames, game="countaloupe")
    try:
        rig.tap("OK", 4)  # 2 players, Ana, Ben, Ana starts
        rig.steps(1)
        rig.hold("NEXT")  # MENU
        rig.steps(1)
        assert "Teach symbol faces" in rig.screen_text()
        rig.tap("OK")
        rig.steps(1)
        assert "Show face: blank" in rig.screen_text()
        rig.steps(12 * 7 - 3)
        assert rig.appliance.table.message == "symbol faces taught"
        assert set(Profile.load(rig.profile_path).faces["symbol"]["classes"]) == set(faces)
        rig.steps(12)
        [seen] = rig.appliance.table.match.events
        assert [(d.kind, d.face or d.value) for d in seen.dice] == [("pips", 1), ("pips", 2), ("pips", 4),
                                                                  ("symbol", "sour")]
    finally:
        rig.buttons.close()
        rig.listener.close()
