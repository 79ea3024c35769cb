"""Display backends through luma (dummy, terminal, gif; the OLED's errors) and the idle dimming."""
import dataclasses
import errno
import io
import os
import pty
import threading

import luma.oled.device
import pytest
from luma.emulator.device import capture
from PIL import Image, ImageDraw, ImageStat

from companion import config
from companion.ui.display import DIM_CONTRAST, DisplayError, Screen, TerminalDevice, open_display


def display_cfg(**changes):
    return dataclasses.replace(config.defaults().display, **changes)


def card(text="ANA  roll 2"):
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 7), fill=1)
    draw.text((2, 24), text, fill=1)
    return image


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_dummy_device_keeps_the_image_at_the_configured_rotation():
    device = open_display(display_cfg(driver="dummy", rotate=2))
    image = card()
    device.display(image)
    assert device.image.mode == "1"
    assert device.image.tobytes() == image.rotate(180).tobytes()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_no_i2c_bus_is_one_line_with_the_fix(driver):
    if os.path.exists("/dev/i2c-7"):
        pytest.skip("this machine has an I2C bus 7")
    with pytest.raises(DisplayError) as caught:
        open_display(display_cfg(driver=driver, i2c_port=7))
    assert str(caught.value) == (f"{driver} at 0x3C on /dev/i2c-7: no I2C bus; enable I2C "
                                 "(sudo raspi-config nonint do_i2c 0) and reboot")


def test_terminal_in_a_pipe_prints_each_screen_as_half_blocks():
    out = io.StringIO()
    device = TerminalDevice(out)
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)       # top half of the first character
    image.putpixel((1, 1), 1)       # bottom half of the second
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)       # both halves of the third
    device.display(image)
    device.display(card())
    screens = out.getvalue().split("\n\n")
    first = screens[0].split("\n")
    assert len(first) == 32 and all(len(line) == 128 for line in first)
    assert first[0].startswith("▀▄█ ")
    assert "\x1b" not in out.getvalue()          # no control sequences in a pipe
    assert screens[1].split("\n")[0] == "█" * 128   # the second screen's inverted header, below the first


def test_terminal_on_a_tty_redraws_in_place_and_shows_dimming():
    parent, child = pty.openpty()
    received = []
    reader = threading.Thread(target=lambda: received.append(read_until_closed(parent)))
    reader.start()
    with os.fdopen(child, "w", encoding="utf-8") as stream:
        device = TerminalDevice(stream)
        device.display(card())
        device.display(card("BEN"))
        device.contrast(DIM_CONTRAST)
    reader.join(timeout=10)
    os.close(parent)
    written = received[0].decode("utf-8")
    assert written.count("\x1b[32F") == 2      # the second image and the dimmed redraw go back up 32 lines
    assert "\x1b[2m" in written.split("\x1b[32F")[-1] and "\x1b[2m" not in written.split("\x1b[32F")[0]


def read_until_closed(fd):
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:         # EIO: the terminal's other side was closed
            return data
        if not chunk:
            return data
        data += chunk


def test_gif_driver_writes_an_animation(tmp_path):
    path = tmp_path / "screens.gif"
    device = open_display(display_cfg(driver="gif", gif=str(path)))
    for text in ("one", "two", "three"):
        device.display(card(text))
    device.write_animation()
    with Image.open(path) as gif:
        assert gif.size == (128, 64) and gif.n_frames == 3


@pytest.fixture
def recorded(tmp_path):
    """luma.emulator's capture device: every image it is given, at its contrast, lands in a PNG file."""
    device = capture(width=128, height=64, mode="1", transform="none", scale=1,
                     file_template=str(tmp_path / "frame{0:03}.png"))

    def frames():
        return [ImageStat.Stat(Image.open(p).convert("L")).mean[0] for p in sorted(tmp_path.glob("frame*.png"))]
    return device, frames


def test_screen_dims_after_the_idle_time_and_a_press_wakes_it(recorded):
    device, frames = recorded
    clock = FakeClock()
    screen = Screen(device, dim_after_s=60, contrast=255, clock=clock)
    screen.show(card())
    clock.now += 59
    screen.tick()
    assert not screen.dimmed and len(frames()) == 1
    clock.now += 1
    screen.tick()
    screen.tick()
    bright, dim = frames()
    assert screen.dimmed and dim < bright / 4
    screen.touch()
    assert not screen.dimmed and frames()[-1] == bright
    clock.now += 30
    screen.tick()
    assert not screen.dimmed        # the press restarted the idle time


def test_screen_with_no_dim_time_never_dims(recorded):
    device, frames = recorded
    clock = FakeClock()
    screen = Screen(device, dim_after_s=0, clock=clock)
    screen.show(card())
    clock.now += 10 ** 6
    screen.tick()
    assert not screen.dimmed and len(frames()) == 1


def test_screen_skips_an_image_already_shown(recorded):
    device, frames = recorded
    screen = Screen(device, dim_after_s=60)
    screen.show(card())
    screen.show(card())
    screen.show(card("BEN"))
    assert len(frames()) == 2


# ------------------------------------------------------------------------------ the OLED drivers on an I2C bus

class Bus:
    """The I2C bus as luma.core's i2c interface uses an smbus2.SMBus it is given: one block write per command or
    32 data bytes, control byte 0x00 before commands and 0x40 before data. `answers` is the one address that acks."""

    def __init__(self, answers=0x3C):
        self.answers = answers
        self.writes = []

    def write_i2c_block_data(self, address, control, values):
        if address != self.answers:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.writes.append((control, list(values)))

    def contrasts(self):
        """The levels of every SETCONTRAST command (0x81, level) sent so far."""
        return [values[1] for control, values in self.writes if control == 0x00 and values[0] == 0x81]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_oled_drivers_get_the_address_rotation_and_contrast_of_the_configuration(driver):
    bus = Bus(answers=0x3D)
    device = open_display(display_cfg(driver=driver, i2c_address=0x3D, rotate=1, contrast=90), bus=bus)
    assert type(device) is getattr(luma.oled.device, driver)
    assert device.rotate == 1 and device.size == (64, 128)   # rotated a quarter turn: drawn as a tall screen
    assert bus.contrasts()[-1] == 90


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_oled_dims_when_idle_and_wakes_on_a_press(driver):
    bus = Bus()
    clock = FakeClock()
    device = open_display(display_cfg(driver=driver, contrast=200), bus=bus)
    screen = Screen(device, dim_after_s=120, contrast=200, clock=clock)
    clock.now += 120
    screen.tick()
    assert bus.contrasts()[-1] == DIM_CONTRAST
    sent = len(bus.writes)
    screen.tick()
    assert len(bus.writes) == sent        # dimmed once, not on every loop
    screen.touch()
    assert bus.contrasts()[-1] == 200


def test_nothing_at_the_address_is_one_line_with_the_fix():
    with pytest.raises(DisplayError) as caught:
        open_display(display_cfg(driver="ssd1306", i2c_address=0x3D), bus=Bus(answers=0x3C))
    assert str(caught.value) == ("ssd1306 at 0x3D on /dev/i2c-1: no answer; check VCC, GND, SDA (pin 3) and SCL "
                                 "(pin 5), and the address with `i2cdetect -y 1` (0x3C or 0x3D) against "
                                 "display.i2c_address")


def test_a_loose_oled_wire_does_not_end_the_game_and_the_picture_comes_back(capsys):
    bus = Bus()
    screen = Screen(open_display(display_cfg(driver="ssd1306"), bus=bus), dim_after_s=60)
    screen.show(card("ANA  roll 1"))
    bus.answers = None                                   # the wire comes loose: nothing acks
    screen.show(card("BEN  roll 1"))
    screen.touch()
    screen.show(card("BEN  roll 1"))
    assert not screen.is_connected
    assert capsys.readouterr().err.count("OLED lost") == 1
    bus.answers = 0x3C                                   # pushed back in
    sent = len(bus.writes)
    screen.show(card("BEN  roll 1"))
    assert screen.is_connected and len(bus.writes) > sent, "the picture lost with the wire is sent again"
    sent = len(bus.writes)
    screen.show(card("BEN  roll 1"))
    assert len(bus.writes) == sent


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_an_oled_that_lost_its_power_is_set_up_again_when_it_answers(driver):
    """A panel powered up again is dark and unset (display off, no charge pump) until its set-up commands come."""
    bus = Bus()
    screen = Screen(open_display(display_cfg(driver=driver, contrast=120), bus=bus), dim_after_s=60, contrast=120)
    screen.show(card("ANA  roll 1"))
    bus.answers = None                                   # VCC comes loose: the panel is off and nothing acks
    screen.show(card("BEN  roll 1"))
    bus.answers = 0x3C                                   # back, with its settings gone
    sent = len(bus.writes)
    screen.show(card("BEN  roll 1"))
    after = bus.writes[sent:]
    commands = [byte for control, values in after if control == 0x00 for byte in values]
    assert 0xAF in commands, "display on"
    assert commands.index(0xAE) < commands.index(0xAF), "set up from display off, as at power-up"
    assert bus.contrasts()[-1] == 120, "the configured contrast, not luma's default"
    last_command = max(k for k, (control, _) in enumerate(after) if control == 0x00)
    assert any(control == 0x40 for control, _ in after[last_command:]), "the picture is drawn after the set-up"
