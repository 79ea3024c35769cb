"""`dice-companion read`, `calibrate` and `bench` as design.md's contracts say."""
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.profile import Profile
from companion.vision.synth import SynthDie, render_scene

PHOTO = Path(__file__).resolve().parents[1] / "data" / "photos" / "matteo-webcam" / "valid_valid_83.jpg"


@pytest.fixture
def scene(tmp_path):
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), render_scene([SynthDie(value=4, center=(200, 200)), SynthDie(value=1, center=(420, 260))]))
    return path


def test_read_json_prints_one_object_per_image_in_order(scene, capsys):
    assert main(["read", "--json", str(scene), str(PHOTO)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [str(scene), str(PHOTO)]
    first = lines[0]
    assert set(first) == {"image", "dice", "ms"} and first["ms"] > 0
    assert sorted(d["value"] for d in first["dice"]) == [1, 4]
    for die in first["dice"]:
        assert set(die) == {"value", "center", "confidence", "kind"} and die["kind"] == "pips"
        assert 0 <= die["confidence"] <= 1 and len(die["center"]) == 2
    assert {tuple(round(c / 10) for c in d["center"]) for d in first["dice"]} == {(20, 20), (42, 26)}


def test_unreadable_file_gets_an_error_line_and_exit_1(scene, tmp_path, capsys):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a picture")
    missing = tmp_path / "missing.png"
    assert main(["read", "--json", str(bad), str(scene), str(missing)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"image": str(bad), "error": f"{bad} is not an image"}
    assert lines[1]["image"] == str(scene) and "dice" in lines[1]
    assert lines[2]["image"] == str(missing) and "cannot read" in lines[2]["error"]


def test_unreadable_file_in_plain_output_is_one_line_naming_it_once(scene, tmp_path, capsys):
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    assert main(["read", str(bad), str(scene)]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"dice-companion read: {bad} is not an image"]
    assert out.strip() == f"{scene}: 4 1"


def test_an_image_of_one_pixel_reads_no_dice(scene, tmp_path, capsys):
    dot = tmp_path / "dot.png"
    cv2.imwrite(str(dot), np.full((1, 1, 3), 200, np.uint8))
    assert main(["read", "--json", str(dot), str(scene)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["dice"] == [] and len(lines[1]["dice"]) == 2


def test_bad_usage_exits_2():
    with pytest.raises(SystemExit) as caught:
        main(["read"])
    assert caught.value.code == 2


def test_plain_output_names_each_die(scene, capsys):
    assert main(["read", str(scene)]) == 0
    assert capsys.readouterr().out.strip() == f"{scene}: 4 1"


def test_bad_calibration_file_is_one_line(scene, tmp_path, capsys):
    bad = tmp_path / "tray.json"
    bad.write_text('{"die_px": -3}')
    assert main(["read", "--calibration", str(bad), str(scene)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("dice-companion read: calibration") and "die_px" in err and "\n" not in err


def test_annotate_writes_each_image_with_its_dice_drawn(scene, tmp_path):
    out = tmp_path / "seen"
    assert main(["read", "--annotate", str(out), str(scene)]) == 0
    drawn = cv2.imread(str(out / "roll.png"))
    original = cv2.imread(str(scene))
    assert drawn.shape == original.shape
    changed = (cv2.absdiff(drawn, original).max(axis=2) > 60)
    assert changed[150:250, 140:260].any() and not changed[400:, :100].any()


def frames(tmp_path, n=4):
    paths = []
    for k in range(n):
        dice = [SynthDie(value=1 + (k + j) % 6, center=(120 + 140 * j + 25 * k, 150 + 60 * ((j + k) % 3)),
                         angle=20 * k + 7 * j) for j in range(3)]
        path = tmp_path / f"frame{k}.png"
        cv2.imwrite(str(path), render_scene(dice, seed=k))
        paths.append(str(path))
    return paths


def test_calibrate_from_images_builds_a_profile_that_read_uses(tmp_path, capsys):
    profile_path = tmp_path / "tray.json"
    paths = frames(tmp_path)
    assert main(["calibrate", "--from-images", *paths, "--out", str(profile_path)]) == 0
    profile = Profile.load(profile_path)
    assert 40 <= profile.die_px <= 60
    assert profile.pip_polarity == "dark"
    assert profile.background_image() is not None and profile.tray is not None
    capsys.readouterr()
    assert main(["read", "--json", "--calibration", str(profile_path), paths[0]]) == 0
    [line] = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert sorted(d["value"] for d in line["dice"]) == [1, 2, 3]


def test_calibrate_without_dice_fails_with_the_reason(tmp_path, capsys):
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), render_scene([]))
    out = tmp_path / "tray.json"
    assert main(["calibrate", "--from-images", str(empty), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert "fewer than two dice could be read" in err and "\n" not in err
    assert not out.exists()


def test_calibrate_warns_about_glare(tmp_path, capsys):
    paths = frames(tmp_path, 3)
    glary = cv2.imread(paths[0])
    cv2.circle(glary, (560, 400), 60, (255, 255, 255), -1)
    cv2.imwrite(paths[0], glary)
    assert main(["calibrate", "--from-images", *paths, "--out", str(tmp_path / "p.json")]) == 0
    assert "frame 1: glare" in capsys.readouterr().err


def test_bench_without_the_photos_says_so(tmp_path, capsys):
    assert main(["bench", "--photos", str(tmp_path)]) == 1
    assert "development photos" in capsys.readouterr().err
