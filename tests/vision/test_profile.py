"""The calibration profile: JSON in and out, and one clear line for a bad file."""
import json
from pathlib import Path

import numpy as np
import pytest

from companion.errors import CompanionError
from companion.vision.profile import Profile, ProfileError

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "calibration" / "default.json"


def test_profile_round_trips_through_json(tmp_path):
    background = np.zeros((12, 16, 3), np.uint8)
    background[:, :8] = (10, 120, 200)
    profile = Profile(die_px=42.5, tray=(10, 20, 300, 200), pip_polarity="dark",
                      background=Profile.encode_background(background), faces={"symbol": {"kind": "symbol"}},
                      zones={"off": [[0, 0], [10, 0], [10, 10]]})
    path = tmp_path / "tray.json"
    profile.save(path)
    loaded = Profile.load(path)
    assert loaded == profile
    assert np.array_equal(loaded.background_image(), background)


def test_default_profile_file_is_the_built_in_default(tmp_path):
    assert Profile.load(DEFAULT_FILE) == Profile()


@pytest.mark.parametrize("content, words", [
    ("{not json", "is not JSON"),
    ("[1, 2]", "must hold a JSON object"),
    ('{"die_size": 40}', "unknown key 'die_size'"),
    ('{"pip_polarity": "purple"}', "pip_polarity must be one of"),
    ('{"threshold": 3}', "threshold must be 0..1"),
    ('{"tray": [5, 5, 1, 1]}', "tray must be"),
    ('{"die_px": "big"}', "die_px"),
    ('{"second_opinion": "yes"}', "second_opinion must be true or false"),
])
def test_bad_profile_file_gives_one_line_error(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ProfileError) as caught:
        Profile.load(path)
    message = str(caught.value)
    assert isinstance(caught.value, CompanionError)
    assert words in message and str(path) in message and "\n" not in message


def test_missing_profile_file_names_it(tmp_path):
    with pytest.raises(ProfileError, match="cannot read calibration .*nowhere.json"):
        Profile.load(tmp_path / "nowhere.json")


def test_corrupt_background_is_refused():
    with pytest.raises(ProfileError, match="background is not a PNG"):
        Profile(background="bm90IGEgcG5n").background_image()


def test_profile_keeps_room_for_taught_models(tmp_path):
    path = tmp_path / "p.json"
    Profile(owners={"red": {"means": {}}}).save(path)
    assert json.loads(path.read_text())["owners"] == {"red": {"means": {}}}
