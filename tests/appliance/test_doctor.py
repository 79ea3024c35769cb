"""`dice-companion doctor` here, off the Pi: what is absent is explained, nothing raises."""
import dataclasses
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion import config, doctor
from companion.cli import main
from companion.ui.controls import Press

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_outside_config(monkeypatch, tmp_path):
    monkeypatch.delenv(config.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(config, "SYSTEM_PATH", tmp_path / "etc" / "config.toml")


def frames(tmp_path, level):
    folder = tmp_path / f"frames-{level}"
    folder.mkdir()
    cv2.imwrite(str(folder / "tray.png"), np.full((480, 640, 3), level, np.uint8))
    return folder


def laptop_config(tmp_path, level=120):
    path = tmp_path / "laptop.toml"
    path.write_text(f'[camera]\nsource = "folder"\npath = "{frames(tmp_path, level)}"\n'
                    '[display]\ndriver = "dummy"\n[buttons]\nbackend = "keyboard"\n')
    return path


def lines_of(out):
    return {line.split()[1]: line for line in out.splitlines() if line[:4] in ("OK  ", "FAIL", "SKIP")}


def test_off_the_pi_the_doctor_says_what_is_absent_and_exits_1():
    result = subprocess.run([str(Path(sys.executable).with_name("dice-companion")), "doctor", "--press-timeout", "0"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT,
                            env={"PATH": "/usr/bin:/bin", "HOME": "/tmp", "XDG_STATE_HOME": "/tmp/dc-doctor-state"})
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr and result.stderr == ""
    found = lines_of(result.stdout)
    assert set(found) == {"config", "camera", "i2c", "oled", "buttons", "groups", "disk", "service"}
    assert found["camera"].startswith("FAIL  camera   picamera2 is not installed")
    assert found["buttons"].startswith("FAIL  buttons  no GPIO on this machine")
    if not Path("/dev/i2c-1").exists():
        assert found["i2c"] == "FAIL  i2c      /dev/i2c-1 absent"
        assert "fix: sudo raspi-config nonint do_i2c 0 && sudo reboot" in result.stdout
    assert result.stdout.rstrip().endswith("checks failed")


def test_a_laptop_configuration_checks_the_camera_frame_and_skips_the_pi_parts(tmp_path, capsys):
    main(["doctor", "--config", str(laptop_config(tmp_path)), "--press-timeout", "0"])
    found = lines_of(capsys.readouterr().out)
    assert found["camera"] == "OK    camera   folder: 640x480, brightness 120/255"
    assert found["i2c"].startswith("SKIP") and found["oled"].startswith("SKIP") and found["buttons"].startswith("SKIP")
    assert found["disk"].startswith("OK    disk") and "GiB free for" in found["disk"]


@pytest.mark.parametrize("level, verdict", [(10, "too dark"), (250, "overexposed")])
def test_a_dark_or_glaring_tray_fails_with_advice(tmp_path, level, verdict):
    camera = config.load(laptop_config(tmp_path, level)).camera
    result = doctor.check_camera(camera)
    assert result.status == "FAIL" and result.detail.endswith(verdict) and "light" in result.fix


def test_a_bad_configuration_is_reported_and_the_rest_checked_with_defaults(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera]\nfps = -1\n")
    assert main(["doctor", "--config", str(bad), "--press-timeout", "0"]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  config   {bad}: camera.fps: must be a number 0.1-120, not -1" in out
    assert "camera" in lines_of(out) and "service" in lines_of(out)


def test_buttons_are_checked_by_pressing_each_when_asked(tmp_path):
    factory = MockFactory()
    buttons = config.defaults().buttons
    asked = []

    def say(line):          # a person at the table presses the button the doctor asks for
        asked.append(line)
        name = line.split()[1]
        pin = factory.pin(buttons.pins[name])
        threading.Timer(0.05, lambda: (pin.drive_low(), time.sleep(0.06), pin.drive_high())).start()

    result = doctor.check_buttons(buttons, press_timeout=5, say=say, pin_factory=factory)
    assert result.status == "OK" and [line.split()[1] for line in asked] == ["PREV", "NEXT", "OK", "BACK"]
    assert asked[0] == "      press PREV (GPIO 5) ..."
    factory.close()


def test_a_silent_button_is_named(tmp_path):
    factory = MockFactory()
    buttons = config.defaults().buttons

    def say(line):
        name = line.split()[1]
        if name != "OK":    # OK's wire is loose
            pin = factory.pin(buttons.pins[name])
            threading.Timer(0.05, lambda: (pin.drive_low(), time.sleep(0.06), pin.drive_high())).start()

    result = doctor.check_buttons(buttons, press_timeout=0.5, say=say, pin_factory=factory)
    assert result.status == "FAIL" and result.detail == "no press from OK" and "ground" in result.fix
    factory.close()


def test_a_check_that_crashes_is_a_fail_line_not_a_traceback(tmp_path, monkeypatch):
    said = []
    cfg = config.load(laptop_config(tmp_path))
    monkeypatch.setattr(doctor, "check_disk", lambda journal: 1 / 0)
    results = doctor.run(cfg, press_timeout=0, say=said.append)
    disk = next(r for r in results if r.name == "disk")
    assert disk.status == "FAIL" and disk.detail == "ZeroDivisionError: division by zero"
    assert len(said) == len(results) == 7


def test_the_camera_is_judged_once_its_exposure_has_settled(tmp_path):
    """A Pi camera's first frames are dark while auto exposure finds its level: the frame judged is the one taken
    lock_after_s after the start, here the last of a replay that starts dark."""
    folder = tmp_path / "warming-up"
    folder.mkdir()
    for n, level in enumerate((5, 15, 130)):
        cv2.imwrite(str(folder / f"{n}.png"), np.full((480, 640, 3), level, np.uint8))
    camera = dataclasses.replace(config.defaults().camera, source="folder", path=str(folder), fps=50.0,
                                 lock_after_s=10.0)
    assert doctor.check_camera(camera) == doctor.ok("camera", "folder: 640x480, brightness 130/255")
    at_once = dataclasses.replace(camera, lock_after_s=0.0)
    assert doctor.check_camera(at_once).detail.endswith("brightness 5/255: too dark")


def test_a_wrong_button_held_down_does_not_stretch_the_wait(tmp_path):
    presses = queue.Queue()
    stop = threading.Event()

    def stuck():            # NEXT is stuck and repeats; OK is never pressed
        while not stop.wait(0.02):
            presses.put(Press.NEXT)

    threading.Thread(target=stuck, daemon=True).start()
    started = time.monotonic()
    assert not doctor._wait_for(presses, Press.OK, 0.3)
    stop.set()
    assert time.monotonic() - started < 1


def test_the_disk_check_looks_at_the_services_journal_once_it_is_installed(tmp_path, monkeypatch):
    mine = config.load().table.journal
    assert doctor.service_journal(mine) == mine                  # no service here: the caller's own journal
    monkeypatch.setattr(doctor, "STATE_DIRECTORY", tmp_path)
    assert doctor.service_journal(mine) == str(tmp_path / "journal.sqlite")
    assert doctor.service_journal("/srv/games.sqlite") == "/srv/games.sqlite"   # a journal the file names
