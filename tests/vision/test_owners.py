"""Die owners: by body colour taught at setup, or by the seat zone the die lies in; never a guess."""
import json

import pytest

from companion.errors import CompanionError, ConfigError
from companion.vision.faces import die_crop
from companion.vision.owners import OwnerModel, owner_by_zone
from companion.vision.synth import SynthDie, render_views

WHITE_INK, BLACK_INK = (240, 240, 240), (30, 30, 30)
BODIES = {"red": ((40, 40, 190), WHITE_INK), "orange": ((30, 120, 235), WHITE_INK),
          "yellow": ((50, 210, 230), BLACK_INK), "green": ((60, 150, 50), WHITE_INK),
          "blue": ((170, 80, 30), WHITE_INK), "purple": ((140, 50, 110), WHITE_INK),
          "white": ((228, 234, 238), BLACK_INK), "black": ((35, 35, 35), WHITE_INK)}


LAMP = ((0.92, 0.06, 0.02), (0.03, 0.92, 0.05), (0.0, 0.08, 0.92))   # a light that is no per-channel gain


def crops_of(colour, values, seed, white_balance=(1.0, 1.0, 1.0), channel_mix=None):
    """One crop per value, of a die of that body colour lying anywhere on the tray."""
    body, ink = BODIES[colour]
    return [die_crop(frame, d.center, d.size) for v in values
            for frame, d in render_views(SynthDie(value=v, body=body, pips=ink, size=48), 1, seed=seed + v,
                                         white_balance=white_balance, channel_mix=channel_mix, blur=(0.3, 1.2),
                                         noise=(2, 5))]


def teach(colours):
    """As at setup: each player's die shown once per face, under the light of the day."""
    return OwnerModel.teach({c: crops_of(c, range(1, 7), seed=10 * i) for i, c in enumerate(colours)})


@pytest.mark.parametrize("white_balance, channel_mix", [((0.72, 0.9, 1.0), None), ((1.0, 0.9, 0.7), None),
                                                        ((0.72, 0.9, 1.0), LAMP)])
def test_ryl_18_eight_dice_are_told_apart_by_body_colour_under_another_light(white_balance, channel_mix):
    model = teach(BODIES)
    for i, colour in enumerate(BODIES):
        owners = [model.owner_of(c)[0] for c in crops_of(colour, range(1, 7), seed=500 + 10 * i,
                                                        white_balance=white_balance, channel_mix=channel_mix)]
        assert owners == [colour] * 6


def test_a_die_of_a_colour_nobody_was_given_has_no_owner():
    model = teach(["red", "blue", "green", "yellow"])                 # BANX: four player colours
    for colour in ("orange", "purple", "white", "black"):
        assert [model.owner_of(c) for c in crops_of(colour, (1, 4, 6), seed=700)] == [(None, 0.0)] * 3


def test_owner_confidence_is_high_for_a_clear_colour():
    model = teach(["red", "blue"])
    owner, confidence = model.owner_of(crops_of("red", (2,), seed=800)[0])
    assert owner == "red" and confidence > 0.5


def test_json_round_trip_tells_the_same_owners():
    model = teach(["red", "blue", "white"])
    again = OwnerModel.from_json(json.loads(json.dumps(model.to_json())))
    assert again.owners == ["red", "blue", "white"]
    for crop in crops_of("blue", (3, 5), seed=900) + crops_of("purple", (1,), seed=901):
        assert again.owner_of(crop) == pytest.approx(model.owner_of(crop), abs=1e-4)


def test_a_damaged_owner_model_is_a_one_line_error():
    data = teach(["red", "blue"]).to_json()
    data["classes"]["red"]["mean"] = [1.0]
    with pytest.raises(CompanionError, match="'red' is damaged"):
        OwnerModel.from_json(data)
    with pytest.raises(CompanionError, match="must be an object"):
        OwnerModel.from_json(["red"])


SEATS = {"Ana": [(0, 0), (320, 0), (320, 240), (0, 240)], "Ben": [(320, 0), (640, 0), (640, 240), (320, 240)],
         "Cy": [(0, 240), (640, 240), (320, 480)]}


def test_ryl_18_a_die_belongs_to_the_seat_zone_it_lies_in():
    assert owner_by_zone((100, 100), SEATS) == "Ana"
    assert owner_by_zone((500.5, 20), SEATS) == "Ben"
    assert owner_by_zone((320, 400), SEATS) == "Cy"


def test_a_die_outside_every_zone_or_on_a_shared_edge_has_no_owner():
    assert owner_by_zone((30, 460), SEATS) is None               # below Ana, outside Cy's triangle
    assert owner_by_zone((320, 100), SEATS) is None              # on the line between Ana and Ben
    assert owner_by_zone((100, 100), {}) is None


def test_a_zone_that_is_not_a_polygon_is_a_config_error():
    with pytest.raises(ConfigError, match="seat zone 'Ana'"):
        owner_by_zone((1, 1), {"Ana": [(0, 0), (10, 10)]})
