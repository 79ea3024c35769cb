#!/usr/bin/env python3
"""Draw hardware/wiring.png from hardware/pinmap.toml, so that the picture cannot drift from the code.

    python3 hardware/scripts/draw_wiring.py [--out FILE]

The pin map is checked against the Raspberry Pi's 40-pin header first (a button's `physical` pin must carry its
`gpio`, grounds must be ground pins, the OLED must sit on 3V3 and the I2C pins); a mismatch is refused in one line.
The picture carries the pin map's SHA-256 in its metadata, which the tests compare with the file.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import tomllib
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

HARDWARE = Path(__file__).resolve().parent.parent
PINMAP = HARDWARE / "pinmap.toml"

# The 40-pin header of every Raspberry Pi since the B+, by physical pin number.
HEADER = {1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14", 9: "GND",
          10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23", 17: "3V3",
          18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND",
          26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13",
          34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21"}
OLED_PINS = {"vcc": ("3V3",), "gnd": ("GND",), "sda": ("GPIO2",), "scl": ("GPIO3",)}
COLOURS = {"PREV": "#1f77b4", "NEXT": "#2ca02c", "OK": "#d62728", "BACK": "#9467bd",
           "vcc": "#e6550d", "gnd": "#000000", "sda": "#17becf", "scl": "#bcbd22"}

WIDTH, HEIGHT = 1000, 720
PIN_GAP = 26                      # between pin centres
HEADER_X, HEADER_Y = 640, 70      # centre of pin 1
HEADER_BOTTOM = HEADER_Y + 19 * PIN_GAP + 30


class PinmapError(ValueError):
    pass


def load(path: Path = PINMAP) -> dict:
    """The pin map, checked against HEADER."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for name, wiring in data["buttons"].items():
        if HEADER.get(wiring["physical"]) != f"GPIO{wiring['gpio']}":
            raise PinmapError(f"{path}: buttons.{name}: physical pin {wiring['physical']} is "
                              f"{HEADER.get(wiring['physical'], 'not a header pin')}, not GPIO{wiring['gpio']}")
        if HEADER.get(wiring["ground"]) != "GND":
            raise PinmapError(f"{path}: buttons.{name}: pin {wiring['ground']} is not a ground pin")
    for lead, allowed in OLED_PINS.items():
        if HEADER.get(data["oled"][lead]) not in allowed:
            raise PinmapError(f"{path}: oled.{lead}: pin {data['oled'][lead]} is not {' or '.join(allowed)}")
    return data


def bitmap_font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font: the same pixels with every Pillow and FreeType, so that the test can redraw
    the picture and compare it with the committed one (load_default() is a FreeType font since Pillow 10.1)."""
    return ImageFont.load_default_imagefont() if hasattr(ImageFont, "load_default_imagefont") \
        else ImageFont.load_default()


def pin_xy(physical: int) -> tuple[int, int]:
    row, column = divmod(physical - 1, 2)
    return HEADER_X + column * PIN_GAP, HEADER_Y + row * PIN_GAP


def draw(data: dict) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    pen = ImageDraw.Draw(image)
    font = bitmap_font()
    pen.text((20, 16), "Dice Companion wiring, drawn from hardware/pinmap.toml. Header pin 1 is the square pad, "
                       "nearest the SD card corner.", fill="black", font=font)
    left, top = pin_xy(1)
    pen.rectangle((left - 16, top - 16, left + PIN_GAP + 16, top + 19 * PIN_GAP + 16), outline="black", width=2)

    # Components on the left, wires first so that the pin labels sit on top of them.
    lane = iter(range(12))
    oled = (40, 60, 230, 230)
    pen.rectangle(oled, outline="black", width=2)
    pen.rectangle((60, 80, 210, 150), fill="#101010")
    pen.text((66, 92), "SSD1306 / SH1106", fill="white", font=font)
    pen.text((66, 110), "128x64 I2C OLED", fill="white", font=font)
    for i, lead in enumerate(("vcc", "gnd", "scl", "sda")):
        terminal = (oled[2], 170 + i * 16)
        pen.text((oled[2] - 40, terminal[1] - 6), lead.upper(), fill="black", font=font)
        wire(pen, terminal, data["oled"][lead], COLOURS[lead], next(lane))
    for i, (name, wiring) in enumerate(data["buttons"].items()):
        y = 270 + i * 90
        box = (40, y, 230, y + 66)
        pen.rounded_rectangle(box, radius=10, outline=COLOURS[name], width=3)
        pen.text((56, y + 8), name, fill=COLOURS[name], font=font)
        pen.text((56, y + 26), f"GPIO{wiring['gpio']} (pin {wiring['physical']})", fill="black", font=font)
        pen.text((56, y + 44), f"to GND (pin {wiring['ground']})", fill="black", font=font)
        wire(pen, (box[2], y + 22), wiring["physical"], COLOURS[name], next(lane))
        wire(pen, (box[2], y + 50), wiring["ground"], "#555555", next(lane))

    for physical, name in HEADER.items():
        x, y = pin_xy(physical)
        fill = {"GND": "#444444", "3V3": "#e6550d", "5V": "#cc0000"}.get(name, "#bbbbbb")
        shape = pen.rectangle if physical == 1 else pen.ellipse
        shape((x - 8, y - 8, x + 8, y + 8), fill=fill, outline="black")
        label = f"{physical} {name}" if physical % 2 else f"{name} {physical}"
        width = pen.textlength(label, font=font)
        corner = (x - 20 - width, y - 6) if physical % 2 else (x + 20, y - 6)
        pen.rectangle((corner[0] - 2, corner[1] - 1, corner[0] + width + 2, corner[1] + 12), fill="white")
        pen.text(corner, label, fill="black", font=font)

    pen.text((20, HEIGHT - 30), "Buttons: momentary switches between a GPIO and ground; the Pi's internal pull-ups, "
                                "no resistors. Camera: CSI ribbon cable (see wiring.md).", fill="black", font=font)
    return image


def wire(pen: ImageDraw.ImageDraw, start, physical: int, colour, lane: int):
    """A right-angled wire from a terminal on the left to a pin. Odd pins are reached from the left; even pins,
    on the header's far column, by going round below the header, so that no wire crosses another pin."""
    x, y = pin_xy(physical)
    bend = 300 + 14 * lane
    if physical % 2:
        points = [start, (bend, start[1]), (bend, y), (x, y)]
    else:
        below, right = HEADER_BOTTOM + 6 * lane, x + 120 + 10 * lane
        points = [start, (bend, start[1]), (bend, below), (right, below), (right, y), (x, y)]
    pen.line(points, fill=colour, width=3, joint="curve")
    pen.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pinmap", type=Path, default=PINMAP)
    parser.add_argument("--out", type=Path, default=HARDWARE / "wiring.png")
    args = parser.parse_args(argv)
    try:
        data = load(args.pinmap)
    except (OSError, KeyError, tomllib.TOMLDecodeError, PinmapError) as error:
        print(f"draw_wiring: {error}", file=sys.stderr)
        return 1
    info = PngInfo()
    info.add_text("pinmap-sha256", hashlib.sha256(args.pinmap.read_bytes()).hexdigest())
    draw(data).save(args.out, pnginfo=info)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
