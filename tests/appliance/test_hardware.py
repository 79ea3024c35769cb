"""hardware/: the pin map agrees with the Pi's header, and the wiring picture is drawn from the current pin map."""
import hashlib
import importlib.util
from pathlib import Path

import pytest
from PIL import Image

from companion import config

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


@pytest.fixture(scope="module")
def draw_wiring():
    spec = importlib.util.spec_from_file_location("draw_wiring", HARDWARE / "scripts" / "draw_wiring.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pin_map_agrees_with_the_header(draw_wiring):
    data = draw_wiring.load()
    assert {name: wiring["gpio"] for name, wiring in data["buttons"].items()} == config.default_pins()


def test_a_wrong_physical_pin_is_refused(draw_wiring, tmp_path):
    wrong = tmp_path / "pinmap.toml"
    wrong.write_text((HARDWARE / "pinmap.toml").read_text().replace("physical = 29", "physical = 31", 1))
    assert draw_wiring.main(["--pinmap", str(wrong), "--out", str(tmp_path / "w.png")]) == 1
    assert not (tmp_path / "w.png").exists()


def test_the_committed_picture_was_drawn_from_the_current_pin_map():
    with Image.open(HARDWARE / "wiring.png") as picture:
        drawn_from = picture.text["pinmap-sha256"]
    assert drawn_from == hashlib.sha256((HARDWARE / "pinmap.toml").read_bytes()).hexdigest(), \
        "hardware/pinmap.toml changed: run python3 hardware/scripts/draw_wiring.py"


def test_the_script_draws_every_button_in_its_colour(draw_wiring, tmp_path):
    out = tmp_path / "wiring.png"
    assert draw_wiring.main(["--out", str(out)]) == 0
    with Image.open(out) as picture:
        colours = {colour for _, colour in picture.convert("RGB").getcolors(1 << 20)}
    for name in ("PREV", "NEXT", "OK", "BACK", "sda", "scl"):
        assert tuple(int(draw_wiring.COLOURS[name][i:i + 2], 16) for i in (1, 3, 5)) in colours, name


def test_the_committed_picture_is_exactly_what_the_script_draws_now(draw_wiring, tmp_path):
    """Redrawn from hardware/pinmap.toml by the current script, pixel for pixel: neither a pin map edit nor a
    script edit can leave hardware/wiring.png behind."""
    out = tmp_path / "wiring.png"
    assert draw_wiring.main(["--out", str(out)]) == 0
    with Image.open(out) as redrawn, Image.open(HARDWARE / "wiring.png") as committed:
        assert redrawn.size == committed.size
        assert redrawn.tobytes() == committed.convert(redrawn.mode).tobytes(), \
            "hardware/wiring.png is stale: run python3 hardware/scripts/draw_wiring.py"
