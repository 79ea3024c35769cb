"""The appliance's loop dims the OLED when nobody presses and any button wakes it: MockFactory pins, luma.core's
dummy device on a recording I2C-style interface, a folder camera, a real journal."""
import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.service import Notifier
from companion.session.appliance import Appliance
from companion.session.journal import Journal
from companion.ui.buttons import ButtonPanel
from companion.ui.display import DIM_CONTRAST, Screen
from companion.vision.settle import SettleDetector
from companion.vision.sources import FolderSource, ReconnectingSource

PINS = {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
SETCONTRAST = 0x81


class Interface:
    """What luma's dummy sends to its serial interface: commands only (it keeps images to itself)."""

    def __init__(self):
        self.commands = []

    def command(self, *cmd):
        self.commands.append(cmd)

    def data(self, data):
        pass

    def cleanup(self):
        pass

    def contrast(self):
        return [cmd[1] for cmd in self.commands if cmd[0] == SETCONTRAST][-1]


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def table(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), np.zeros((480, 640, 3), np.uint8))
    factory = MockFactory()
    buttons = ButtonPanel(PINS, pin_factory=factory, debounce_ms=0)
    interface, clock = Interface(), Clock()
    device = dummy(width=128, height=64, mode="1", serial_interface=interface)
    screen = Screen(device, dim_after_s=90, contrast=180, clock=clock)
    device.contrast(180)
    appliance = Appliance(journal=Journal(tmp_path / "journal.sqlite"), buttons=buttons, screen=screen,
                          source=ReconnectingSource(lambda: FolderSource(frames, fps=1000, loop=True)),
                          profile=None, profile_path=None, settle_factory=SettleDetector, notifier=Notifier(""),
                          players=("Ana", "Ben"), game_options={})
    yield appliance, factory, interface, clock
    buttons.close()
    appliance.journal.close()
    factory.close()


@pytest.mark.parametrize("button", list(PINS))
def test_the_oled_dims_after_the_idle_time_and_any_button_wakes_it(table, button):
    appliance, factory, interface, clock = table
    appliance.step()
    clock.now = 89
    appliance.step()
    assert interface.contrast() == 180
    clock.now = 90
    appliance.step()
    assert interface.contrast() == DIM_CONTRAST and appliance.screen.dimmed
    pin = factory.pin(PINS[button])
    pin.drive_low()
    pin.drive_high()
    appliance.step()
    assert interface.contrast() == 180 and not appliance.screen.dimmed
    clock.now = 179
    appliance.step()
    assert interface.contrast() == 180      # the press restarted the idle time
