"""The appliance's configuration: one TOML file, every key checked.

The documented default file (default_config.toml, printed by `dice-companion config --default`) is also the source of
the default values, so the documentation cannot drift from the code. `load()` merges a file over those defaults and
refuses a bad one with a ConfigError naming the file, the key and what is wrong.
"""
from __future__ import annotations

import os
import sys
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping

from .errors import ConfigError
from .ui.controls import BUTTONS

ENV_VAR = "DICE_COMPANION_CONFIG"
SYSTEM_PATH = Path("/etc/dice-companion/config.toml")
BUILT_IN = "built-in defaults"
I2C1_GPIOS = (2, 3)   # SDA and SCL of I2C bus 1, header pins 3 and 5

# The default pin map: hardware/pinmap.toml in a checkout, share/dice-companion/pinmap.toml in an installed
# environment (see systemd/README.md).
PINMAP_PLACES = (Path(__file__).resolve().parent.parent / "hardware" / "pinmap.toml",
                 Path(sys.prefix) / "share" / "dice-companion" / "pinmap.toml")


@dataclass(frozen=True)
class TableConfig:
    players: tuple[str, ...]
    journal: str


@dataclass(frozen=True)
class CameraConfig:
    source: str
    device: int
    path: str
    fps: float
    width: int
    height: int
    lock_after_s: float
    loop: bool


@dataclass(frozen=True)
class DisplayConfig:
    driver: str
    i2c_port: int
    i2c_address: int
    rotate: int
    contrast: int
    dim_after_s: float
    gif: str


@dataclass(frozen=True)
class ButtonsConfig:
    backend: str
    pins: Mapping[str, int]
    long_press_ms: int
    debounce_ms: int
    repeat_ms: int


@dataclass(frozen=True)
class ReaderConfig:
    calibration: str


@dataclass(frozen=True)
class Config:
    table: TableConfig
    camera: CameraConfig
    display: DisplayConfig
    buttons: ButtonsConfig
    reader: ReaderConfig
    games: dict[str, dict]
    source: str = BUILT_IN   # the file read, or BUILT_IN


# ------------------------------------------------------------------------------------------------ key checks
# Each check returns the value to keep or raises ValueError with what is wrong, phrased to follow the key's name.

def _choice(*allowed: str) -> Callable[[Any], str]:
    def check(value):
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(map(repr, allowed))}, not {value!r}")
        return value
    return check


def _integer(low: int, high: int) -> Callable[[Any], int]:
    def check(value):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"must be a whole number {low}-{high}, not {value!r}")
        return value
    return check


def _number(low: float, high: float) -> Callable[[Any], float]:
    def check(value):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"must be a number {low:g}-{high:g}, not {value!r}")
        return float(value)
    return check


def _text(value) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be a string, not {value!r}")
    return value


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {value!r}")
    return value


def _names(value) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        raise ValueError("must be a list of 1 to 8 names")
    if not all(isinstance(name, str) and name.strip() for name in value):
        raise ValueError("every name must be a non-empty string")
    if len(set(value)) != len(value):
        raise ValueError("names must differ")
    return tuple(value)


def _pins(value) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValueError("must be a table such as { OK = 26 }")
    for name, gpio in value.items():
        if name not in BUTTONS:
            raise ValueError(f"unknown button {name!r}; buttons are {', '.join(BUTTONS)}")
        _integer(0, 27)(gpio)
    return dict(value)


# camera.width and camera.height start at vision.sources.MIN_WIDTH and MIN_HEIGHT: a smaller frame is refused.
SCHEMA: dict[str, dict[str, Callable[[Any], Any]]] = {
    "table": {"players": _names, "journal": _text},
    "camera": {"source": _choice("picamera2", "webcam", "folder", "video"), "device": _integer(0, 63),
               "path": _text, "fps": _number(0.1, 120), "width": _integer(64, 4608), "height": _integer(48, 3496),
               "lock_after_s": _number(0, 60), "loop": _flag},
    "display": {"driver": _choice("ssd1306", "sh1106", "terminal", "gif", "dummy"), "i2c_port": _integer(0, 31),
                "i2c_address": _integer(0x03, 0x77), "rotate": _integer(0, 3), "contrast": _integer(0, 255),
                "dim_after_s": _number(0, 86400), "gif": _text},
    "buttons": {"backend": _choice("gpio", "keyboard"), "pins": _pins, "long_press_ms": _integer(100, 5000),
                "debounce_ms": _integer(0, 200), "repeat_ms": _integer(20, 2000)},
    "reader": {"calibration": _text},
}


# ------------------------------------------------------------------------------------------------ loading

def default_text() -> str:
    """The documented default configuration file."""
    return resources.files("companion").joinpath("default_config.toml").read_text(encoding="utf-8")


def load(path: str | os.PathLike | None = None) -> Config:
    """Read `path`; without one, $DICE_COMPANION_CONFIG, else /etc/dice-companion/config.toml if it exists, else
    the built-in defaults."""
    if path is None:
        path = os.environ.get(ENV_VAR) or (SYSTEM_PATH if SYSTEM_PATH.exists() else None)
    if path is None:
        return defaults()
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"{name}: is a directory, not a TOML file") from None
    except PermissionError:
        raise ConfigError(f"{name}: permission denied") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{name}: not a text file") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{name}: not valid TOML: {error}") from None
    return _build(data, name)


def defaults() -> Config:
    """The built-in configuration, whatever files exist."""
    return _build({}, BUILT_IN)


def _build(data: Mapping[str, Any], source: str) -> Config:
    def fail(key: str, problem: str):
        raise ConfigError(f"{source}: {key}: {problem}")

    for section in data:
        if section not in SCHEMA and section != "games":
            fail(section, f"unknown section; sections are {', '.join([*SCHEMA, 'games'])}")
    defaults = tomllib.loads(default_text())
    values: dict[str, dict[str, Any]] = {}
    for section, checks in SCHEMA.items():
        given = data.get(section, {})
        if not isinstance(given, dict):
            fail(section, "must be a table: [" + section + "]")
        for key in given:
            if key not in checks:
                fail(f"{section}.{key}", f"unknown key; {section} keys are {', '.join(checks)}")
        values[section] = {}
        for key, check in checks.items():
            try:
                values[section][key] = check(given.get(key, defaults[section][key]))
            except ValueError as error:
                fail(f"{section}.{key}", str(error))

    camera = values["camera"]
    if camera["source"] in ("folder", "video") and not camera["path"]:
        fail("camera.path", f"needed when camera.source is {camera['source']!r}")
    buttons = values["buttons"]
    buttons["pins"] = _resolve_pins(buttons["pins"], buttons["backend"], fail)
    display = values["display"]
    if buttons["backend"] == "gpio" and display["driver"] in ("ssd1306", "sh1106") and display["i2c_port"] == 1:
        for name, gpio in buttons["pins"].items():
            if gpio in I2C1_GPIOS:
                fail("buttons.pins", f"{name} on GPIO {gpio} would take the OLED's I2C bus 1 "
                                     "(GPIO 2 is SDA, 3 is SCL)")
    values["table"]["journal"] = journal_path(values["table"]["journal"])
    return Config(table=TableConfig(**values["table"]), camera=CameraConfig(**camera),
                  display=DisplayConfig(**values["display"]), buttons=ButtonsConfig(**buttons),
                  reader=ReaderConfig(**values["reader"]), games=_games(data.get("games", {}), fail),
                  source=source)


def _resolve_pins(overrides: dict[str, int], backend: str, fail) -> dict[str, int]:
    pins = {**default_pins(required=backend == "gpio" and set(overrides) != set(BUTTONS)), **overrides}
    by_gpio: dict[int, str] = {}
    for name, gpio in pins.items():
        if gpio in by_gpio:
            fail("buttons.pins", f"{by_gpio[gpio]} and {name} share GPIO {gpio}")
        by_gpio[gpio] = name
    return {name: pins[name] for name in BUTTONS if name in pins}


def _games(tables: Any, fail) -> dict[str, dict]:
    """Check each [games.NAME] table against that game's Options (importing only the games named)."""
    from .games import game_class
    from .games.base import RefereeError, parse_options

    if not isinstance(tables, dict):
        fail("games", "must hold one table per game, such as [games.banx]")
    for name, table in tables.items():
        if not isinstance(table, dict):
            fail(f"games.{name}", "must be a table of options")
        try:
            parse_options(game_class(name).Options, table, f"games.{name}")
        except RefereeError as error:   # "games.banx: unknown option ..." or, from the game's own checks, "banx: ..."
            fail(f"games.{name}", str(error).removeprefix(f"games.{name}: ").removeprefix(f"{name}: "))
    return {name: dict(table) for name, table in tables.items()}


def journal_path(given: str) -> str:
    """The journal file: as configured; else systemd's state directory; else the user's state directory."""
    if given:
        return str(Path(given).expanduser())
    state_directory = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if state_directory:
        return str(Path(state_directory) / "journal.sqlite")
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return str(Path(base) / "dice-companion" / "journal.sqlite")


# ------------------------------------------------------------------------------------------------ pin map

def pinmap_path() -> Path | None:
    return next((place for place in PINMAP_PLACES if place.is_file()), None)


def default_pins(required: bool = True) -> dict[str, int]:
    """BCM GPIO numbers of the four buttons from the pin map; {} when it is absent and not `required`."""
    path = pinmap_path()
    if path is None:
        if required:
            raise ConfigError(f"the default pin map is missing (looked for {' and '.join(map(str, PINMAP_PLACES))}); "
                              "name all four buttons in [buttons] pins")
        return {}
    try:
        buttons = tomllib.loads(path.read_text(encoding="utf-8"))["buttons"]
        return {name: _integer(0, 27)(buttons[name]["gpio"]) for name in BUTTONS}
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as error:
        raise ConfigError(f"{path}: not a pin map with buttons.PREV.gpio ... buttons.BACK.gpio ({error})") from None
