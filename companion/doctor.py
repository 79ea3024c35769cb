"""`dice-companion doctor`: checks each part of the appliance and says how to fix what fails.

Each check gives OK, FAIL (with a fix) or SKIP (not needed with this configuration). A check that raises anything
is a FAIL with the error in one line: the doctor must explain a broken machine, never crash on one.
"""
from __future__ import annotations

import grp
import os
import pwd
import queue
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw

from .config import journal_path
from .ui.controls import BUTTONS, Press

SERVICE = "dice-companion"
SERVICE_USER = "dice-companion"
GROUPS = ("gpio", "i2c", "video")
GLARE_LEVEL = 225            # a mean grey level above this is an overexposed tray
MIN_FREE_BYTES = 100 << 20   # a journal grows by a few KB a game; 100 MB leaves room for years and the logs
INSTALL = "sudo systemd/install.sh"
STATE_DIRECTORY = Path("/var/lib/dice-companion")   # the unit's StateDirectory=, where the service keeps its journal


@dataclass(frozen=True)
class Result:
    name: str
    status: str   # "OK", "FAIL" or "SKIP"
    detail: str
    fix: str = ""


def ok(name, detail):
    return Result(name, "OK", detail)


def fail(name, detail, fix):
    return Result(name, "FAIL", detail, fix)


def skip(name, detail):
    return Result(name, "SKIP", detail)


def run(cfg, *, press_timeout: float, say: Callable[[str], None] = print, pin_factory=None) -> list[Result]:
    """Run every check against `cfg`, printing each result through `say` as it comes."""
    checks = [("camera", lambda: check_camera(cfg.camera)),
              ("i2c", lambda: check_i2c(cfg.display)),
              ("oled", lambda: check_oled(cfg.display)),
              ("buttons", lambda: check_buttons(cfg.buttons, press_timeout, say, pin_factory)),
              ("groups", check_groups),
              ("disk", lambda: check_disk(service_journal(cfg.table.journal))),
              ("service", check_service)]
    results = []
    for name, check in checks:
        try:
            result = check()
        except Exception as error:   # see the module docstring
            result = fail(name, f"{type(error).__name__}: {error}".splitlines()[0], "see the error above")
        say(format_result(result))
        results.append(result)
    return results


def format_result(result: Result) -> str:
    line = f"{result.status:<5} {result.name:<8} {result.detail}"
    return line + (f"\n      fix: {result.fix}" if result.fix else "")


# -------------------------------------------------------------------------------------------------- checks

def check_camera(camera) -> Result:
    """Judges the frame taken `lock_after_s` after the camera starts, the one its exposure would be locked on: the
    first frames of a Pi camera are dark while auto exposure finds its level."""
    from .vision.sources import LIT_LEVEL, CameraError, ReplayEnded, open_source

    try:
        with open_source(camera) as source:
            frame = source.read()
            settled_at = time.monotonic() + camera.lock_after_s
            while time.monotonic() < settled_at:
                try:
                    frame = source.read()
                except ReplayEnded:   # a replay shorter than that: its last frame
                    break
    except CameraError as error:
        return fail("camera", str(error), "the camera steps of hardware/wiring.md; a running service holds the "
                                          f"camera: sudo systemctl stop {SERVICE}")
    height, width = frame.shape[:2]
    brightness = float(frame.mean())
    detail = f"{camera.source}: {width}x{height}, brightness {brightness:.0f}/255"
    if brightness < LIT_LEVEL:
        return fail("camera", detail + ": too dark", "light the tray with a diffuse lamp (hardware/tray-and-light.md)")
    if brightness > GLARE_LEVEL:
        return fail("camera", detail + ": overexposed", "dim or diffuse the light, or use a darker tray")
    return ok("camera", detail)


def _uses_i2c(display) -> bool:
    return display.driver in ("ssd1306", "sh1106")


def check_i2c(display) -> Result:
    if not _uses_i2c(display):
        return skip("i2c", f"display driver {display.driver!r} needs no I2C")
    bus = f"/dev/i2c-{display.i2c_port}"
    if not os.path.exists(bus):
        return fail("i2c", f"{bus} absent", "sudo raspi-config nonint do_i2c 0 && sudo reboot")
    if not os.access(bus, os.R_OK | os.W_OK):
        return fail("i2c", f"{bus}: permission denied", "sudo usermod -aG i2c $USER, then log in again")
    return ok("i2c", f"{bus} ready")


def check_oled(display) -> Result:
    if not _uses_i2c(display):
        return skip("oled", f"display driver {display.driver!r}")
    if not os.path.exists(f"/dev/i2c-{display.i2c_port}"):
        return skip("oled", "needs the I2C bus first")
    from .ui.display import DisplayError, open_display

    try:
        device = open_display(display)
    except DisplayError as error:
        return fail("oled", str(error), "the OLED steps of hardware/wiring.md")
    card = Image.new("1", device.size)
    ImageDraw.Draw(card).text((4, 24), "doctor: OLED OK", fill=1)
    device.display(card)
    return ok("oled", f"{display.driver} at 0x{display.i2c_address:02X} shows a test card")


def check_buttons(buttons, press_timeout: float, say, pin_factory=None) -> Result:
    if buttons.backend != "gpio":
        return skip("buttons", f"backend {buttons.backend!r}")
    from .ui.buttons import ButtonError, ButtonPanel

    try:
        panel = ButtonPanel(buttons.pins, long_press_ms=buttons.long_press_ms, debounce_ms=buttons.debounce_ms,
                            repeat_ms=buttons.repeat_ms, pin_factory=pin_factory)
    except ButtonError as error:
        return fail("buttons", str(error), "run the doctor on the Pi, as a user in the gpio group")
    if press_timeout <= 0:
        panel.close()
        return skip("buttons", "pins open; presses not asked (--press-timeout 0)")
    presses: queue.Queue[Press] = queue.Queue()
    panel.when_pressed = presses.put
    silent = []
    try:
        for name in BUTTONS:
            say(f"      press {name} (GPIO {buttons.pins[name]}) ...")
            if not _wait_for(presses, Press(name), press_timeout):
                silent.append(name)
    finally:
        panel.close()
    if silent:
        return fail("buttons", f"no press from {', '.join(silent)}",
                    "check each silent button joins its GPIO to ground (hardware/wiring.md)")
    return ok("buttons", "PREV, NEXT, OK and BACK all pressed")


def _wait_for(presses: queue.Queue, wanted: Press, timeout: float) -> bool:
    """True once `wanted` is pressed within `timeout`; other presses (a wrong button, a stuck one) are ignored."""
    deadline = time.monotonic() + timeout
    try:
        while presses.get(timeout=max(0.0, deadline - time.monotonic())) != wanted:
            pass
    except queue.Empty:
        return False
    return True


def check_groups() -> Result:
    try:
        user = pwd.getpwnam(SERVICE_USER)
    except KeyError:
        return fail("groups", f"no user {SERVICE_USER!r}", INSTALL)
    member_of = {g.gr_name for g in grp.getgrall() if SERVICE_USER in g.gr_mem} | {grp.getgrgid(user.pw_gid).gr_name}
    missing = [g for g in GROUPS if g not in member_of]
    if missing:
        return fail("groups", f"{SERVICE_USER} is not in {', '.join(missing)}",
                    f"sudo usermod -aG {','.join(GROUPS)} {SERVICE_USER}")
    return ok("groups", f"{SERVICE_USER} in {', '.join(GROUPS)}")


def service_journal(journal: str) -> str:
    """The journal to check: the configured one, except that a configuration naming none means the service's
    (systemd gives it $STATE_DIRECTORY) once the service is installed, not the per-user file of whoever runs the
    doctor."""
    if journal == journal_path("") and STATE_DIRECTORY.is_dir():
        return str(STATE_DIRECTORY / "journal.sqlite")
    return journal


def check_disk(journal: str) -> Result:
    folder = Path(journal).parent
    existing = next(p for p in (folder, *folder.parents) if p.exists())
    if not (os.access(existing, os.W_OK) or _owner(existing) == SERVICE_USER):
        return fail("disk", f"cannot write {existing} (journal {journal})",
                    "set [table] journal to a writable path, or run as the service user")
    free = shutil.disk_usage(existing).free
    detail = f"{free / 2**30:.1f} GiB free for {journal}"
    if free < MIN_FREE_BYTES:
        return fail("disk", detail, "free some space: sudo apt clean; sudo journalctl --vacuum-size=50M")
    return ok("disk", detail)


def _owner(path: Path) -> str | None:
    try:
        return pwd.getpwuid(path.stat().st_uid).pw_name
    except KeyError:
        return None


def check_service() -> Result:
    if shutil.which("systemctl") is None:
        return fail("service", "systemd not found", "the service needs Raspberry Pi OS (or another systemd Linux)")
    state = {what: subprocess.run(["systemctl", what, f"{SERVICE}.service"], capture_output=True, text=True,
                                  timeout=10).stdout.strip() or "unknown"
             for what in ("is-enabled", "is-active")}
    detail = f"{SERVICE}: {state['is-enabled']}, {state['is-active']}"
    if state["is-enabled"] in ("not-found", "unknown", ""):
        return fail("service", f"{SERVICE} is not installed", INSTALL)
    if state["is-active"] != "active":
        return fail("service", detail, f"journalctl -u {SERVICE} -e; sudo systemctl restart {SERVICE}")
    return ok("service", detail)
