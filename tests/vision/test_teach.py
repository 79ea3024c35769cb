"""`dice-companion calibrate chance-die|colours|owners`: frames of a die with a known face in, a profile out; and
the same teaching from the OLED menu (session.teach.TeachScreen)."""
import json
import re
from argparse import Namespace

import cv2
import pytest

from companion.cli import main
from companion.session.teach import TeachScreen
from companion.ui.controls import Press
from companion.vision.faces import FaceModel, die_crop
from companion.vision.owners import OwnerModel
from companion.vision.profile import Profile
from companion.vision.synth import SynthDie, render_scene, render_views
from companion.vision.teach import TeachError, teach

CHANCE = {"blank": "blank", "Sweet": "star", "Sour": "crescent", "Nope": "cross"}
RED, WHITE = (60, 60, 200), (240, 240, 240)


def chance_die(face, **placed):
    return SynthDie(kind="symbol", face=face, symbol=CHANCE[face], body=RED, pips=WHITE, size=44, **placed)


def write_frames(folder, name_of, dice_of, count, white_balance=(1.0, 1.0, 1.0)):
    """Frames of 320x240 px, each showing the dice dice_of(label, i), saved as name_of(label, i).png."""
    paths = []
    for label in dice_of:
        for i in range(count):
            path = folder / f"{name_of(label, i)}.png"
            frame = render_scene(dice_of[label](i), size=(320, 240), seed=i, white_balance=white_balance)
            cv2.imwrite(str(path), frame)
            paths.append(str(path))
    return paths


def chance_frames(folder, count=4):
    dice = {face: (lambda i, face=face: [chance_die(face, center=(90 + 45 * i, 70 + 30 * i), angle=37 * i)])
            for face in CHANCE}
    return write_frames(folder, lambda face, i: f"{face}_{i + 1}", dice, count)


def crops(die, n, seed, **conditions):
    return [die_crop(f, d.center, d.size) for f, d in render_views(die, n, seed=seed, **conditions)]


def test_chance_die_taught_from_named_frames_reads_its_faces_and_not_numbered_dice(tmp_path, capsys):
    out = tmp_path / "profile.json"
    assert teach("chance-die", chance_frames(tmp_path), Namespace(faces=None, profile=None, out=str(out))) == 0
    printed = capsys.readouterr()
    # One example per die the finder sees: four or more per face (a finder may see one die as two).
    assert re.search(r"faces\['symbol'\] taught from blank \([4-8]\), sweet \([4-8]\), sour \([4-8]\), "
                     r"nope \([4-8]\)", printed.out)
    assert printed.err == ""                                  # no face looks like another
    model = FaceModel.from_json(Profile.load(out).faces["symbol"])
    for i, face in enumerate(CHANCE):
        shown = crops(chance_die(face), 5, seed=40 + i, white_balance=(1.0, 0.9, 0.72))
        assert [model.classify(c)[0] for c in shown] == [face.lower()] * 5
    numbered = [c for v in range(1, 7) for c in crops(SynthDie(value=v, size=44), 2, seed=60 + v)]
    assert {model.classify(c)[0] for c in numbered} == {None}


def colour_frames(folder, colours, count=3):
    dice = {c: (lambda i, c=c: [SynthDie(kind="colour", face=c, size=44, center=(70 + 80 * i, 90 + 40 * i),
                                         angle=29 * i)])
            for c in colours}
    return write_frames(folder, lambda c, i: f"{c}-{i}", dice, count)


def test_calibrate_then_read_on_the_command_line_names_symbol_and_colour_faces(tmp_path, capsys):
    """Issues 5 and 6 end to end: teach the Chance Die and the colours from frames, then `read --json` a frame
    under another white balance: the taught faces are named, the numbered die keeps its pips, and a symbol
    nobody taught is no Chance Die face."""
    chance, both = tmp_path / "chance.json", tmp_path / "both.json"
    assert main(["calibrate", "chance-die", "--from-images", *chance_frames(tmp_path), "--out", str(chance)]) == 0
    colours = ("red", "orange", "yellow", "green", "blue", "purple")
    assert main(["calibrate", "colours", "--from-images", *colour_frames(tmp_path, colours),
                 "--profile", str(chance), "--out", str(both)]) == 0
    scene = [chance_die("Sour", center=(70, 70), angle=50), SynthDie(value=4, size=44, center=(240, 70), angle=10),
             SynthDie(kind="colour", face="purple", size=44, center=(80, 180), angle=20),
             SynthDie(kind="symbol", face="triangle", body=RED, pips=WHITE, size=44, center=(240, 180))]
    frame = tmp_path / "roll.png"
    cv2.imwrite(str(frame), render_scene(scene, size=(320, 240), seed=5, white_balance=(1.0, 0.9, 0.7)))
    capsys.readouterr()
    assert main(["read", "--calibration", str(both), "--json", str(frame)]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    read = sorted((d["kind"], d.get("face") or d["value"]) for d in dice if d["kind"] != "pips" or d["value"])
    assert read == [("colour", "purple"), ("pips", 4), ("symbol", "sour")]


def test_owners_taught_from_frames_labelled_in_order_keep_the_rest_of_the_profile(tmp_path):
    base = tmp_path / "base.json"
    Profile(die_px=44.0, zones={"off": [[0, 0], [10, 0], [10, 10]]}).save(base)
    bodies = {"Ana": (40, 40, 190), "Ben": (170, 80, 30)}
    dice = {name: (lambda i, body=body: [SynthDie(value=1 + i, body=body, pips=WHITE, size=44, center=(80, 120)),
                                         SynthDie(value=6 - i, body=body, pips=WHITE, size=44, center=(220, 110),
                                                  angle=30)])
            for name, body in bodies.items()}
    images = write_frames(tmp_path, lambda name, i: f"frame{name}{i}", dice, 3)
    out = tmp_path / "owners.json"
    teach("owners", images, Namespace(faces="Ana,Ana,Ana,Ben,Ben,Ben", profile=str(base), out=str(out)))
    profile = Profile.load(out)
    assert profile.die_px == 44.0 and profile.zones == {"off": [[0, 0], [10, 0], [10, 10]]}
    model = OwnerModel.from_json(profile.owners["body"])
    assert model.classes.counts == {"Ana": 6, "Ben": 6}
    blue = crops(SynthDie(value=3, body=bodies["Ben"], pips=WHITE, size=44), 3, seed=5, white_balance=(0.8, 1, 1))
    assert [model.owner_of(c)[0] for c in blue] == ["Ben"] * 3


def test_colours_are_added_next_to_a_taught_chance_die(tmp_path):
    first = tmp_path / "chance.json"
    teach("chance-die", chance_frames(tmp_path, count=2), Namespace(faces=None, profile=None, out=str(first)))
    dice = {c: (lambda i, c=c: [SynthDie(kind="colour", face=c, size=44, center=(100 + 60 * i, 120))])
            for c in ("red", "orange")}
    images = write_frames(tmp_path, lambda c, i: f"{c}-{i}", dice, 2)
    both = tmp_path / "both.json"
    teach("colours", images, Namespace(faces=None, profile=str(first), out=str(both)))
    profile = Profile.load(both)
    assert set(profile.faces) == {"symbol", "colour"}
    assert FaceModel.from_json(profile.faces["colour"]).faces == ["red", "orange"]


def test_faces_taught_from_the_same_die_are_reported_as_alike(tmp_path, capsys):
    dice = {label: (lambda i: [chance_die("Sweet", center=(100 + 40 * i, 120), angle=25 * i)])
            for label in ("gold", "silver")}
    images = write_frames(tmp_path, lambda label, i: f"{label}_{i}", dice, 3)
    teach("colours", images, Namespace(faces=None, profile=None, out=str(tmp_path / "p.json")))
    err = capsys.readouterr().err
    assert "warning: 'gold' looks like 'silver': the camera cannot tell them apart" in err


def test_an_example_unlike_the_rest_is_left_out_with_a_warning(tmp_path, capsys):
    images = colour_frames(tmp_path, ("red", "blue"), count=4)
    stray = tmp_path / "red-9.png"                            # a blue die shown while teaching red
    cv2.imwrite(str(stray), render_scene([SynthDie(kind="colour", face="blue", size=44, center=(200, 120))],
                                         size=(320, 240)))
    teach("colours", images + [str(stray)], Namespace(faces=None, profile=None, out=str(tmp_path / "p.json")))
    assert "warning: 1 of 5 examples of 'red' were unlike the others and left out" in capsys.readouterr().err
    model = FaceModel.from_json(Profile.load(tmp_path / "p.json").faces["colour"])
    assert model.classes.counts == {"red": 4, "blue": 4}


@pytest.mark.parametrize("target, faces, message", [
    ("chance-die", "blank,Sweet,Sour", "3 faces for 16 images"),
    ("chance-die", ",".join(["blank", "Sweet", "Sour", "Sour"] * 4), "no image shows the Chance Die's 'nope'"),
    ("chance-die", ",".join(["blank", "Sweet", "Sour", "Yes"] * 4), "'Yes' is no Chance Die face"),
    ("dice", None, "cannot teach 'dice'"),
])
def test_labels_that_cannot_teach_are_refused(tmp_path, target, faces, message):
    with pytest.raises(TeachError, match=message):
        teach(target, chance_frames(tmp_path), Namespace(faces=faces, profile=None, out=str(tmp_path / "p.json")))


def test_a_frame_without_a_die_is_refused_by_name(tmp_path):
    empty = tmp_path / "Sweet_9.png"
    cv2.imwrite(str(empty), render_scene([], size=(320, 240)))
    with pytest.raises(TeachError, match="Sweet_9.png: no die found"):
        teach("colours", [str(empty)], Namespace(faces=None, profile=None, out=str(tmp_path / "p.json")))


def test_the_command_line_reports_a_file_that_is_not_an_image_in_one_line(tmp_path, capsys):
    bogus = tmp_path / "Sweet_1.png"
    bogus.write_text("not a picture")
    status = main(["calibrate", "colours", "--from-images", str(bogus), "--out", str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert status == 1 and err.count("\n") == 1 and "Sweet_1.png is not an image" in err
    assert not (tmp_path / "p.json").exists()


class Teaching:
    """A TeachScreen for two faces shown twice each, and what it hands back."""

    def __init__(self):
        self.done = []
        self.screen = TeachScreen("symbol", ("sweet", "nope"), self.done.append, shows=2)

    def show(self, face, i, found=1, size=44):
        """A settled view of the face; the finder reports `found` dice of `size` px where it lies."""
        die = chance_die(face.capitalize(), center=(90 + 60 * i, 120), angle=33 * i)
        self.screen.see(render_scene([die], size=(320, 240), seed=i), [(die.center, size)] * found)


def test_the_menu_asks_for_each_face_in_turn_and_hands_back_a_model_that_reads_them():
    teaching = Teaching()
    assert "Show face: sweet" in teaching.screen.prompt().text()
    for face in ("sweet", "nope"):
        for i in range(2):
            teaching.show(face, i)
    [model] = teaching.done
    assert model.faces == ["sweet", "nope"] and model.classes.counts == {"sweet": 2, "nope": 2}
    shown = crops(chance_die("Nope"), 3, seed=7, white_balance=(0.72, 0.9, 1.0))
    assert [model.classify(c)[0] for c in shown] == ["nope"] * 3
    teaching.show("nope", 3)                                  # a view after the teaching changes nothing
    assert len(teaching.done) == 1


def test_a_view_that_cannot_be_an_example_says_why_and_counts_for_nothing():
    teaching = Teaching()
    teaching.show("sweet", 0, found=2)
    assert teaching.screen.prompt().status == "show 1 die, not 2"
    teaching.show("sweet", 1, size=6)
    assert teaching.screen.prompt().status == "die too small: zoom in"
    assert teaching.screen.examples == {"sweet": [], "nope": []}
    teaching.show("sweet", 2)
    assert teaching.screen.prompt().status == "" and len(teaching.screen.examples["sweet"]) == 1


def test_back_abandons_the_teaching():
    teaching = Teaching()
    teaching.show("sweet", 0)
    teaching.screen.press(Press.BACK)
    assert teaching.done == [None]
