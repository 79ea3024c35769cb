"""The configuration file: defaults, lookup order, and a one-line refusal naming the file and the key."""
import dataclasses
import tomllib

import pytest

from companion import config
from companion.cli import main
from companion.errors import ConfigError


@pytest.fixture(autouse=True)
def no_outside_config(monkeypatch, tmp_path):
    """Neither the machine's /etc file nor the caller's environment may leak into a test."""
    monkeypatch.delenv(config.ENV_VAR, raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(config, "SYSTEM_PATH", tmp_path / "etc" / "config.toml")


def write(tmp_path, text, name="config.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def refusal(tmp_path, text):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        config.load(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message.removeprefix(f"{path}: ")


def test_built_in_defaults():
    cfg = config.load()
    assert cfg.source == config.BUILT_IN
    assert cfg.table.players == ("Ana", "Ben", "Cy", "Dee")
    assert cfg.camera.source == "picamera2" and cfg.display.driver == "ssd1306" and cfg.buttons.backend == "gpio"
    assert (cfg.buttons.long_press_ms, cfg.buttons.debounce_ms, cfg.buttons.repeat_ms) == (800, 30, 150)
    assert cfg.display.i2c_address == 0x3C and cfg.reader.calibration == "" and cfg.games == {}


def test_the_printed_default_file_loads_to_the_built_in_defaults(tmp_path, capsys):
    assert main(["config", "--default"]) == 0
    path = write(tmp_path, capsys.readouterr().out)
    assert dataclasses.replace(config.load(path), source=config.BUILT_IN) == config.load()


def test_every_key_of_the_schema_is_documented_in_the_default_file():
    documented = tomllib.loads(config.default_text())
    assert {section: set(keys) for section, keys in documented.items()} == \
           {section: set(checks) for section, checks in config.SCHEMA.items()}


def test_buttons_default_to_the_pin_map_file():
    pinmap = tomllib.loads(config.pinmap_path().read_text())
    assert config.load().buttons.pins == {name: pinmap["buttons"][name]["gpio"] for name in
                                          ("PREV", "NEXT", "OK", "BACK")}


def test_pins_overridden_one_by_one(tmp_path):
    cfg = config.load(write(tmp_path, "[buttons]\npins = { OK = 26 }\n"))
    assert cfg.buttons.pins == {"PREV": 5, "NEXT": 6, "OK": 26, "BACK": 19}


def test_a_missing_pin_map_is_refused_for_gpio_only(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "PINMAP_PLACES", (tmp_path / "absent.toml",))
    with pytest.raises(ConfigError, match="default pin map is missing"):
        config.load()
    keyboard = config.load(write(tmp_path, '[buttons]\nbackend = "keyboard"\n'))
    assert keyboard.buttons.pins == {}
    all_four = config.load(write(tmp_path, "[buttons]\npins = { PREV = 17, NEXT = 22, OK = 23, BACK = 27 }\n"))
    assert all_four.buttons.pins == {"PREV": 17, "NEXT": 22, "OK": 23, "BACK": 27}


def test_lookup_order_environment_then_etc_then_defaults(tmp_path, monkeypatch):
    system = tmp_path / "etc" / "config.toml"
    system.parent.mkdir()
    system.write_text('[table]\nplayers = ["Sys"]\n')
    assert config.load().table.players == ("Sys",) and config.load().source == str(system)
    monkeypatch.setenv(config.ENV_VAR, str(write(tmp_path, '[table]\nplayers = ["Env"]\n', "env.toml")))
    assert config.load().table.players == ("Env",)
    assert config.load(write(tmp_path, '[table]\nplayers = ["Arg"]\n', "arg.toml")).table.players == ("Arg",)


def test_journal_is_per_user_off_the_service_and_in_the_state_directory_under_systemd(tmp_path, monkeypatch):
    assert config.load().table.journal == str(tmp_path / "state" / "dice-companion" / "journal.sqlite")
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/dice-companion")
    assert config.load().table.journal == "/var/lib/dice-companion/journal.sqlite"
    given = config.load(write(tmp_path, '[table]\njournal = "/srv/games.sqlite"\n'))
    assert given.table.journal == "/srv/games.sqlite"


@pytest.mark.parametrize("text, expected", [
    ("[camera]\nfsp = 3\n", "camera.fsp: unknown key; camera keys are source, device"),
    ("[camra]\nfps = 3\n", "camra: unknown section"),
    ('[camera]\nfps = "fast"\n', "camera.fps: must be a number 0.1-120, not 'fast'"),
    ("[camera]\nfps = 0\n", "camera.fps: must be a number"),
    ('[camera]\nsource = "folder"\n', "camera.path: needed when camera.source is 'folder'"),
    ('[camera]\nsource = "usb"\n', "camera.source: must be one of 'picamera2', 'webcam', 'folder', 'video'"),
    ("[camera]\nloop = 1\n", "camera.loop: must be true or false, not 1"),
    ("[display]\nrotate = 4\n", "display.rotate: must be a whole number 0-3, not 4"),
    ("[display]\ni2c_address = 0x80\n", "display.i2c_address: must be a whole number 3-119"),
    ("[display]\ncontrast = true\n", "display.contrast: must be a whole number 0-255, not True"),
    ('[display]\ndriver = "oled"\n', "display.driver: must be one of"),
    ("[buttons]\npins = { START = 4 }\n", "buttons.pins: unknown button 'START'"),
    ("[buttons]\npins = { OK = 40 }\n", "buttons.pins: must be a whole number 0-27, not 40"),
    ("[buttons]\npins = { OK = 5 }\n", "buttons.pins: PREV and OK share GPIO 5"),
    ("[buttons]\npins = { OK = 3 }\n", "buttons.pins: OK on GPIO 3 would take the OLED's I2C bus 1"),
    ("[buttons]\nlong_press_ms = 10\n", "buttons.long_press_ms: must be a whole number 100-5000"),
    ("[table]\nplayers = []\n", "table.players: must be a list of 1 to 8 names"),
    ('[table]\nplayers = ["Ana", "Ana"]\n', "table.players: names must differ"),
    ("table = 3\n", "table: must be a table"),
    ("[reader]\ncalibration = 7\n", "reader.calibration: must be a string, not 7"),
    ("[games]\nbanx = 3\n", "games.banx: must be a table of options"),
    ("[games.chess]\n", "games.chess: unknown game 'chess'; known: banx"),
    ("[camera\n", "not valid TOML: "),
])
def test_a_bad_file_is_refused_naming_the_key(tmp_path, text, expected):
    assert refusal(tmp_path, text).startswith(expected)


def test_game_options_are_checked_against_the_games_options(tmp_path):
    cfg = config.load(write(tmp_path, "[games.banx]\nextra_boom_optional = true\nkeep_input = \"buttons\"\n"))
    assert cfg.games == {"banx": {"extra_boom_optional": True, "keep_input": "buttons"}}
    assert refusal(tmp_path, "[games.banx]\nboom = 1\n") == "games.banx: unknown option 'boom'"
    assert refusal(tmp_path, "[games.banx]\nopen_discs = 1\n") == "games.banx: option 'open_discs' must be bool"


@pytest.mark.parametrize("game, table, expected", [
    ("banx", 'keep_input = "dice"', "keep_input is strip or buttons"),
    ("countaloupe", 'chance_faces = ["blank", "joker"]', "chance_faces are blank, sweet, sour, nope"),
    ("roll-your-luck", "faces = [0, 1, 2]", "faces must be whole numbers above 0"),
    ("dice-lottery", "prize_points = [[1, 2, 3], [2, 3, 4]]", "prize_points needs 3 rows of 3 points"),
    ("lowdown", 'mode = "heavy"', "mode is light or full, not 'heavy'"),
])
def test_an_impossible_game_option_value_is_refused_when_the_file_is_loaded(tmp_path, game, table, expected):
    assert refusal(tmp_path, f"[games.{game}]\n{table}\n") == f"games.{game}: {expected}"


@pytest.mark.parametrize("kind, expected", [("missing", "no such file"), ("directory", "is a directory"),
                                            ("binary", "not a text file")])
def test_an_unreadable_file_is_refused(tmp_path, kind, expected):
    path = tmp_path / "config.toml"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ConfigError, match=expected):
        config.load(path)


def test_cli_config_prints_the_values_in_use_or_one_line(tmp_path, capsys):
    path = write(tmp_path, '[camera]\nsource = "webcam"\ndevice = 2\n')
    assert main(["config", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# {path}") and "camera.source = 'webcam'" in out and "camera.device = 2" in out
    bad = write(tmp_path, "[display]\nrotate = 9\n", "bad.toml")
    assert main(["config", "--config", str(bad)]) == 1
    assert capsys.readouterr().err == f"dice-companion config: {bad}: display.rotate: must be a whole number 0-3, not 9\n"
