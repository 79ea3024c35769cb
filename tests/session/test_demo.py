"""The demo of every game: rendered frames through the real settle detector and reader, presses through the real
widgets, and the game it plays is exactly the game its script describes."""
import subprocess
import sys

import pytest
from luma.core.device import dummy
from PIL import Image

from companion.games import names
from companion.games.match import Match
from companion.session.demo import demo_script, play_demo
from companion.session.script import parse_script


@pytest.mark.parametrize("game", names())
def test_demo_plays_its_script_to_the_end_through_camera_and_buttons(game):
    script = demo_script(game)
    device = dummy(width=128, height=64, mode="1")
    table, report = play_demo(script, device)
    setup, numbered = parse_script(script.splitlines())
    expected = Match.replay(setup, [event for _, event in numbered])
    assert table.is_over and expected.state.is_over
    assert table.match.state.outcome() == expected.state.outcome()
    assert table.match.state.detail() == expected.state.detail()
    assert report.events == len(numbered) and report.presses > 0 and report.latencies
    assert isinstance(device.image, Image.Image) and device.image.size == (128, 64)


def test_demo_command_prints_screens_and_the_score_sheet_and_writes_a_gif(tmp_path):
    gif = tmp_path / "banx.gif"
    done = subprocess.run([sys.executable, "-m", "companion", "demo", "--gif", str(gif)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("+---------------------+") > 100  # every screen, framed
    assert "BANX: final scores" in out and "WINNER" in out and "presses per turn" in out
    frames = Image.open(gif)
    assert frames.n_frames > 100 and frames.size == (256, 128)
