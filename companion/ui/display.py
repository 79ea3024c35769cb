"""Where the 128x64 screens go: the OLED through luma.oled, or a stand-in, and the idle dimming.

`open_display(cfg.display)` returns a luma device: "ssd1306"/"sh1106" on I2C, "dummy" (luma.core's, keeps the last
image), "terminal" (half-block characters on stdout, fine in a pipe too) or "gif" (luma.emulator's animation).
`Screen` puts images on it and dims it after `dim_after_s` idle seconds until the next press.
"""
from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

import luma.core.error
from luma.core.device import device as LumaDevice, dummy
from luma.core.interface.serial import noop
from PIL import Image

from ..errors import CompanionError

WIDTH, HEIGHT = 128, 64
DIM_CONTRAST = 0   # the SSD1306's lowest level is still readable in a dark room
LINK_LOST = (OSError, luma.core.error.Error)
"""What a device raises when the I2C bus stops answering: luma's DeviceNotFoundError for commands, OSError for data."""


class DisplayError(CompanionError):
    """The OLED cannot be opened: no I2C bus, no permission, nothing at the address."""


def open_display(cfg, *, bus=None) -> LumaDevice:
    """A luma device for `cfg` (a companion.config.DisplayConfig), at the configured rotation and contrast.

    `bus` is an smbus2-like object to reach the OLED through instead of /dev/i2c-<i2c_port> (the tests' I2C bus)."""
    if cfg.driver in ("ssd1306", "sh1106"):
        device = _open_oled(cfg, bus)
    elif cfg.driver == "terminal":
        device = TerminalDevice(rotate=cfg.rotate)
    elif cfg.driver == "gif":
        from luma.emulator.device import gifanim
        device = gifanim(width=WIDTH, height=HEIGHT, rotate=cfg.rotate, mode="1", filename=cfg.gif,
                         transform="none", scale=1, duration=0.5)
    else:
        device = dummy(width=WIDTH, height=HEIGHT, rotate=cfg.rotate, mode="1")
    device.contrast(cfg.contrast)
    return device


def _open_oled(cfg, bus) -> LumaDevice:
    """Opening the bus fails when I2C is off or not ours; the first command fails when nothing answers at the
    address (a loose wire, the other address): each gets its own fix."""
    import luma.core.error
    import luma.oled.device
    from luma.core.interface.serial import i2c

    path = f"/dev/i2c-{cfg.i2c_port}"
    where = f"{cfg.driver} at 0x{cfg.i2c_address:02X} on {path}"
    try:
        serial = i2c(bus=bus, port=cfg.i2c_port, address=cfg.i2c_address)
    except luma.core.error.DevicePermissionError:
        raise DisplayError(f"{where}: permission denied; add the user to the i2c group "
                           "(sudo usermod -aG i2c $USER) and log in again") from None
    except luma.core.error.DeviceNotFoundError:
        raise DisplayError(f"{where}: no I2C bus; enable I2C (sudo raspi-config nonint do_i2c 0) and reboot") \
            from None
    except OSError as error:
        raise DisplayError(f"{where}: {error}") from None
    try:
        return getattr(luma.oled.device, cfg.driver)(serial, width=WIDTH, height=HEIGHT, rotate=cfg.rotate)
    except luma.core.error.DeviceNotFoundError:
        raise DisplayError(f"{where}: no answer; check VCC, GND, SDA (pin 3) and SCL (pin 5), and the address "
                           f"with `i2cdetect -y {cfg.i2c_port}` (0x3C or 0x3D) against display.i2c_address") \
            from None
    except (luma.core.error.Error, OSError) as error:
        raise DisplayError(f"{where}: {error}") from None


class TerminalDevice(LumaDevice):
    """The OLED drawn with half-block characters, two pixel rows per text line (128 columns by 32 lines).

    On a terminal each image is redrawn in place and dimming shows as faint text; in a pipe or a file every image is
    written below the last, with no control sequences.
    """

    def __init__(self, stream: TextIO | None = None, rotate: int = 0):
        super().__init__(serial_interface=noop())
        self.capabilities(WIDTH, HEIGHT, rotate, mode="1")
        self.persist = True   # leave the last screen in the terminal at exit instead of printing a blank one
        self._stream = stream or sys.stdout
        self._in_place = self._stream.isatty()
        self._drawn = False
        self._level = 255
        self._last: Image.Image | None = None

    def display(self, image: Image.Image) -> None:
        assert image.size == self.size
        self._last = image
        pixels = self.preprocess(image).convert("1").load()
        lines = ["".join(" ▀▄█"[bool(pixels[x, y]) + 2 * bool(pixels[x, y + 1])] for x in range(WIDTH))
                 for y in range(0, HEIGHT, 2)]
        if self._in_place:
            faint = "\x1b[2m" if self._level < 128 else ""
            up = f"\x1b[{len(lines)}F" if self._drawn else ""
            self._stream.write(up + "".join(f"{faint}{line}\x1b[0m\n" for line in lines))
        else:
            self._stream.write("\n".join(lines) + "\n\n")
        self._stream.flush()
        self._drawn = True

    def contrast(self, level: int) -> None:
        self._level = level
        if self._in_place and self._last is not None:
            self.display(self._last)


class Screen:
    """Shows images on `device` and dims it after `dim_after_s` seconds without a press (0 never dims)."""

    def __init__(self, device: LumaDevice, dim_after_s: float, *, contrast: int = 255,
                 clock: Callable[[], float] = time.monotonic):
        self.device = device
        self.dim_after_s = dim_after_s
        self.contrast = contrast
        self._clock = clock
        self._last_press = clock()
        self._dimmed = False
        self._shown: tuple | None = None
        self.is_connected = True

    @property
    def dimmed(self) -> bool:
        return self._dimmed

    def show(self, image: Image.Image) -> None:
        """Draw `image` unless it is already on the screen (a full frame is 1 KB over a 100-400 kHz I2C bus)."""
        picture = (image.mode, image.size, image.tobytes())
        if picture != self._shown and self._send(lambda: self.device.display(image)):
            self._shown = picture

    def touch(self) -> None:
        """A press: wake the screen and restart the idle time."""
        self._last_press = self._clock()
        if self._dimmed and self._send(lambda: self.device.contrast(self.contrast)):
            self._dimmed = False

    def tick(self) -> None:
        """Call from the main loop: dims the screen once it has been idle long enough."""
        if not self._dimmed and self.dim_after_s and self._clock() - self._last_press >= self.dim_after_s:
            self._dimmed = self._send(lambda: self.device.contrast(DIM_CONTRAST))

    def _send(self, command: Callable[[], None]) -> bool:
        """Run one command on the device. A loose wire must not end the game (the camera, the buttons and the
        journal go on): the loss is said once on stderr, and once the bus answers again the panel is set up anew
        (it may have lost power with the wire, and its settings with it) and the picture is sent again."""
        try:
            command()
            if not self.is_connected:  # the first command to get through: set up, then send it again
                _set_up_again(self.device)
                self.device.contrast(DIM_CONTRAST if self._dimmed else self.contrast)
                command()
        except LINK_LOST as error:
            if self.is_connected:
                print(f"dice-companion: OLED lost ({error}); retrying", file=sys.stderr, flush=True)
            self.is_connected, self._shown = False, None
            return False
        self.is_connected = True
        return True


def _set_up_again(device: LumaDevice) -> None:
    """Send an OLED panel its set-up commands again (display off, clock, multiplex, charge pump, ..., display on).
    luma.oled sends them only when the device is made, so they are sent by making it again on the same bus."""
    import luma.oled.device

    if isinstance(device, (luma.oled.device.ssd1306, luma.oled.device.sh1106)):
        type(device).__init__(device, device._serial_interface, width=WIDTH, height=HEIGHT, rotate=device.rotate)
