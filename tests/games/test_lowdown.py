"""Lowdown (rules/lowdown.md) through the engine: both modes, one test per rule ID, the worked examples, the edge cases,
the hidden pair kept off every screen, and the demo script."""
import json
from collections import namedtuple
from dataclasses import replace
from importlib import resources

import pytest

from companion.games import (Choice, Decision, Die, IllegalActionError, ImplausibleRollError, Roll, RollRequest,
                             Setup, new_game)
from companion.games.match import Match
from companion.session.script import parse_script

ANA, BEN, CY = 0, 1, 2


def colour(face: str) -> Die:
    return Die(kind="colour", face=face)


def dice(*faces) -> Roll:
    """dice("red", "blue", 2, 5): colour dice by name, number dice by value."""
    return Roll(tuple(colour(f) if isinstance(f, str) else Die(value=f) for f in faces))


def start(mode="light", players=("Ana", "Ben", "Cy"), first=0, **options):
    return new_game(Setup("lowdown", tuple(players), first, options={"mode": mode, **options})).new_initial_state()


def play(state, *events):
    for event in events:
        state = state.apply(event if isinstance(event, (Roll, Choice)) else Choice(event))
    return state


def keys(state, enabled=True):
    return [o.key for o in state.expects().options if o.enabled == enabled]


def prompt_strings(state) -> list[str]:
    """Everything a screen could draw for this state: the prompt's texts and the status line (UI-10)."""
    pending = state.expects()
    out = [state.status()]
    if isinstance(pending, RollRequest):
        out += [pending.message, pending.context, *pending.lines]
    elif isinstance(pending, Decision):
        out += [pending.question, pending.context] + [t for o in pending.options for t in (o.label, o.reason)]
    return out


def refused(state, event, error=IllegalActionError):
    """Apply `event`, expect `error`, and check the state did not change; return the error."""
    before = (state.expects(), state.detail(), state.status())
    with pytest.raises(error) as caught:
        play(state, event)
    assert (state.expects(), state.detail(), state.status()) == before
    assert "\n" not in caught.value.message
    return caught.value


# A full-mode turn played to plan: each seat's move, with dice rolled to suit it ------------------------------------
Move = namedtuple("Move", "how number box colour", defaults=(None,))
RC = ["11", "12", "13", "21", "22", "23", "31", "32", "33"]      # a grid's boxes in reading order


def normal(number, box, colour=None):
    return Move("normal", number, box, colour)


def wild(number, box):
    return Move("wild", number, box, "purple")


def blackout(box, colour):
    return Move("blackout", None, box, colour)


def play_turn(state, moves, source="own", crosses=None, record=None):
    """Play one full-mode turn in which every seat makes moves[seat]. A's roll and the hidden pair are chosen so that
    A's dice and the pool hold what each move needs; every decision is answered from the moves, cross-outs from
    `crosses` (none by default). Appends the events to `record` when given."""
    crosses = crosses or {}
    a, others = state.active, state.order[1:]
    x, y = others[0], others[-1]
    col = {seat: m.colour or m.box.split(":")[0].split("-")[0] for seat, m in moves.items()}
    num = {seat: m.number or 1 for seat, m in moves.items()}
    if source == "own":
        roll, hidden = dice(col[a], col[x], num[a], num[x]), dice(col[y], num[y])
    else:
        roll, hidden = dice(col[x], col[y], num[x], num[y]), dice(col[a], num[a])
    turn = state.turn
    while state.turn == turn and state.phase not in ("over", "total"):
        phase, seat = state.phase, state.picker
        move = moves.get(seat)
        answer = {"roll": lambda: roll, "reveal": lambda: hidden, "source": lambda: source,
                  "cross": lambda: tuple(crosses.get(seat, ())),
                  "own_colour": lambda: "wild" if move.how == "wild" else col[seat],
                  "aside": lambda: col[seat], "own_number": lambda: str(num[seat]), "pool_colour": lambda: col[seat],
                  "pool_number": lambda: str(num[seat]), "use": lambda: "wild" if move.how == "wild" else "use",
                  "place": lambda: move.how, "grid": lambda: move.box.split(":")[0], "box": lambda: move.box}[phase]()
        event = answer if isinstance(answer, Roll) else Choice(answer)
        state = state.apply(event)
        if record is not None:
            record.append(event)
    return state


# Worked example 1 ---------------------------------------------------------------------------------------------------
def example_1(mode):
    state = play(start(mode), dice("red", "blue", 2, 5), "own", "red", "2", "normal")
    if mode == "full":
        state = play(state, "red-orange", "red-orange:11")
    state = play(state, dice("green", 4), "normal")
    if mode == "full":
        state = play(state, "green", "4", "green-yellow", "green-yellow:11")
    state = play(state, "normal")
    if mode == "full":
        state = play(state, "blue", "4", "purple-blue", "purple-blue:11")
    return state


@pytest.mark.parametrize("mode", ["light", "full"])
def test_example_1_dice_flow(mode):
    state = play(start(mode), dice("red", "blue", 2, 5))
    assert state.expects().player == ANA and state.hidden_roller == CY
    state = play(state, "own", "red", "2", "normal")
    if mode == "full":
        state = play(state, "red-orange", "red-orange:11")
    reveal = state.expects()
    assert isinstance(reveal, RollRequest) and reveal.player == CY and reveal.dice == {"colour": 1, "pips": 1}
    state = play(state, dice("green", 4))
    assert state.detail()["pool"] == ["blue", "green", 5, 4]
    assert state.picker == BEN and "Pool B G 5 4" in state.expects().question
    state = example_1(mode)
    assert (state.active, state.hidden_roller, state.turn) == (BEN, ANA, 2)
    assert isinstance(state.expects(), RollRequest) and state.expects().player == BEN
    if mode == "full":
        boards = [p["board"] for p in state.detail()["players"]]
        assert boards[ANA]["red-orange"].startswith("2 _ _")
        assert boards[BEN]["green-yellow"].startswith("4 _ _")
        assert boards[CY]["purple-blue"].startswith("4 _ _")


# LOW-1 ----------------------------------------------------------------------------------------------------------
def test_low_1_a_rolls_two_colour_and_two_number_dice_h_is_a_right_neighbour():
    state = start(players=("Ana", "Ben", "Cy", "Dee"), first=BEN)
    request = state.expects()
    assert request.player == BEN and request.dice == {"colour": 2, "pips": 2}
    assert state.hidden_roller == ANA and "Ana hides 1+1" in request.lines
    state = play(state, dice("red", "blue", 2, 5), "hidden")
    assert state.expects().player == ANA and state.expects().dice == {"colour": 1, "pips": 1}


@pytest.mark.parametrize("roll, message", [
    (dice("red", "blue", "green", 5), "need 2 colour+2 num"),
    (dice("red", 2, 5), "need 2 colour+2 num"),
    (dice("red", "pink", 2, 5), "no colour face pink"),
    (dice("red", "blue", 2, 7), "no die face 7"),
    (Roll((colour("red"), colour("blue"), Die(value=2), Die(value=None))), "die 4 unreadable: check it"),
    (Roll((colour("red"), colour("blue"), Die(value=2), Die(value=5, zone="off"))), "re-roll 1 die off the mat"),
])
def test_low_1_a_roll_that_is_not_two_colour_and_two_number_dice_is_refused(roll, message):
    error = refused(start(), roll, ImplausibleRollError)
    assert error.message == message and error.rule == "LOW-1"


def test_low_1_the_hidden_pair_must_be_one_colour_and_one_number():
    state = play(start(), dice("red", "blue", 2, 5), "hidden")
    assert refused(state, dice(4, 6), ImplausibleRollError).message == "need 1 colour+1 num"
    assert refused(state, dice("green"), ImplausibleRollError).rule == "LOW-1"


# LOW-2, LOW-3 ---------------------------------------------------------------------------------------------------
def test_low_2_own_means_one_colour_and_one_number_of_a_s_four():
    state = play(start(), dice("red", "blue", 2, 5), "own")
    assert keys(state) == ["red", "blue", "wild"]
    state = play(state, "blue")
    assert keys(state) == ["2", "5"]
    refused(state, "4")


def test_low_3_hidden_binds_a_to_both_hidden_dice():
    state = play(start("full"), dice("red", "blue", 2, 5), "hidden", dice("orange", 6))
    assert keys(state) == ["use", "wild"] and state.expects().options[0].label == "Use orange 6"
    refused(state, "own")
    refused(state, "red")
    state = play(state, "use", "normal")
    assert keys(state) == ["red-orange"]
    state = play(state, "red-orange", "red-orange:22")
    assert state.detail()["players"][ANA]["board"]["red-orange"] == "_ _ _ / _ 6 _ / _ _ _"
    assert state.detail()["pool"] == ["red", "blue", 2, 5]


def test_low_3_a_is_asked_own_or_hidden_before_seeing_the_pair():
    state = play(start(), dice("red", "blue", 2, 5))
    assert keys(state) == ["own", "hidden"] and state.expects().default == "own"
    assert state.hidden is None and state.detail()["hidden"] is None


# LOW-4, LOW-25 --------------------------------------------------------------------------------------------------
def test_low_4_a_full_colour_box_takes_only_its_colour():
    layout = ("red * orange / * * * / * * *", "* * * / * * * / * * *", "* * * / * * * / * * *")
    state = play(start("full", box_layout=layout), dice("red", "blue", 2, 5), "own", "red", "2", "normal",
                 "red-orange")
    box = state.expects()
    assert box.kind == "grid"
    assert [o.key for o in box.options if not o.enabled] == ["red-orange:13"]
    assert box.options[2].label == "13 O" and box.options[2].reason == "O only"
    refused(state, "red-orange:13")
    state = play(state, "red-orange:11")
    assert state.detail()["players"][ANA]["board"]["red-orange"] == "2 _ _ / _ _ _ / _ _ _"


def test_low_25_default_layout_every_box_takes_both_colours_of_its_grid():
    state = play(start("full"), dice("orange", "yellow", 2, 5), "own", "orange", "2", "normal")
    grids = state.expects()
    assert [(o.key, o.enabled) for o in grids.options] == [("red-orange", True), ("purple-blue", False),
                                                          ("green-yellow", False)]
    state = play(state, "red-orange")
    assert len(keys(state)) == 9 and [o.label for o in state.expects().options] == [f"{rc} R/O" for rc in RC]


def test_low_25_options_change_grids_and_shape_not_the_code():
    state = start("full", grids=(("red", "blue"), ("green", "yellow")), grid_shape=(2, 3))
    assert state.game.layout.keys == ("red-blue", "green-yellow") and state.game.max_total == 72
    state = play(state, dice("blue", "green", 2, 5), "own", "blue", "2", "normal")
    assert keys(state) == ["red-blue"]
    state = play(state, "red-blue")
    assert keys(state) == ["red-blue:11", "red-blue:12", "red-blue:13", "red-blue:21", "red-blue:22", "red-blue:23"]


@pytest.mark.parametrize("options, message", [
    ({"mode": "solo"}, "mode is light or full"),
    ({"grids": (("red", "orange"),)}, "grids are 2 or more pairs"),
    ({"grids": (("red", "pink"), ("green", "yellow"))}, "grids are 2 or more pairs"),
    ({"grid_shape": (3, 12)}, "grid_shape is"),
    ({"number_faces": ()}, "number_faces"),
    ({"box_layout": ("* * *",)}, "box_layout needs 3 grids"),
    ({"wilds": 5}, "unknown option 'wilds'"),
])
def test_bad_options_are_refused_with_one_line(options, message):
    with pytest.raises(IllegalActionError, match=message) as error:
        new_game(Setup("lowdown", ("Ana", "Ben"), options=options))
    assert "\n" not in error.value.message


def test_options_from_a_script_may_be_json_lists():
    game = new_game(Setup("lowdown", ("Ana", "Ben"), options={"grids": [["red", "orange"], ["green", "yellow"]],
                                                              "grid_shape": [3, 3]}))
    assert game.options.grids == (("red", "orange"), ("green", "yellow")) and game.options.grid_shape == (3, 3)
    assert game.layout.keys == ("red-orange", "green-yellow")


def test_lowdown_takes_two_to_four_players():
    for players in (("Ana",), ("A", "B", "C", "D", "E")):
        with pytest.raises(IllegalActionError, match="2-4 players"):
            new_game(Setup("lowdown", players))


# LOW-5, LOW-6, LOW-7 ----------------------------------------------------------------------------------------------
def test_low_5_a_wild_goes_in_any_empty_box_and_ticks_a_wild_box():
    state = play(start("full"), dice("red", "blue", 2, 5), "own", "wild", "red", "2")
    assert keys(state) == ["red-orange", "purple-blue", "green-yellow"]
    state = play(state, "green-yellow")
    assert len(keys(state)) == 9 and state.expects().question == "Wild 2: box?"
    state = play(state, "green-yellow:33")
    assert state.wilds_used[ANA] == 1 and state.status() == "Wilds 1/4"
    assert state.detail()["players"][ANA]["board"]["green-yellow"] == "_ _ _ / _ _ _ / _ _ 2"


def test_low_5_a_fifth_wild_is_refused_light_mode():
    state = start("light", players=("Ana", "Ben"))
    for _ in range(2):
        state = play(state, dice("red", "blue", 2, 5), "own", "wild", "red", "2", dice("green", 4), "normal")
        state = play(state, dice("red", "blue", 2, 5), "own", "red", "2", "normal", dice("green", 4), "wild")
    assert state.wilds_used == (4, 0) and state.active == ANA
    state = play(state, dice("red", "blue", 2, 5), "own")
    wild_row = state.expects().options[-1]
    assert (wild_row.key, wild_row.label, wild_row.enabled, wild_row.reason) == (
        "wild", "Wild (0 left)", False, "no wilds left")
    assert refused(state, "wild").rule == "UI-6"
    state = play(state, "red", "2", "normal", dice("green", 4), "normal", dice("red", "blue", 2, 5), "own", "red",
                 "2", "normal", dice("green", 4))
    assert state.picker == ANA and keys(state, False) == ["wild"]
    refused(state, "wild")


def test_low_5_a_fifth_wild_is_refused_full_mode():
    state = start("full", players=("Ana", "Ben"))
    for turn in range(4):
        state = play_turn(state, {ANA: wild(1, f"purple-blue:{RC[turn]}"), BEN: normal(2, f"red-orange:{RC[turn]}")})
    assert state.wilds_used == (4, 0)
    state = play(state, dice("red", "blue", 2, 5), "own")
    assert keys(state, False) == ["wild"]
    refused(state, "wild")


def test_low_6_a_wild_is_allowed_while_a_normal_move_exists():
    state = play(start("full"), dice("red", "blue", 2, 5), "own", "red", "2", "normal", "red-orange",
                 "red-orange:11", dice("green", 4))
    assert keys(state) == ["normal", "wild"]
    state = play(state, "wild", "5", "red-orange", "red-orange:33")
    assert state.wilds_used[BEN] == 1


def test_low_7_a_s_wild_with_own_sets_aside_the_colour_a_picks():
    state = play(start(), dice("red", "blue", 2, 5), "own", "wild")
    assert state.expects().question == "Colour to set aside?" and keys(state) == ["red", "blue"]
    state = play(state, "blue", "5", dice("green", 4))
    assert state.detail()["pool"] == ["red", "green", 2, 4]
    assert state.wilds_used[ANA] == 1


def test_low_7_a_s_wild_with_hidden_sets_aside_the_hidden_colour_die():
    state = play(start(), dice("red", "blue", 2, 5), "hidden", dice("orange", 6), "wild")
    assert state.wilds_used[ANA] == 1
    assert state.detail()["pool"] == ["red", "blue", 2, 5]
    assert state.detail()["players"][ANA]["picked"] == {"how": "wild", "number": 6, "aside": "orange"}


def test_example_2_light_the_text_s_wild_example():
    state = play(start(), dice("purple", "red", 5, 1), "own", "wild", "red", "1")
    assert state.wilds_used[ANA] == 1 and isinstance(state.expects(), RollRequest)
    state = play(state, dice("yellow", 3))
    assert state.detail()["pool"] == ["purple", "yellow", 5, 3]


def test_example_2_full_no_box_takes_purple_or_red_so_ana_uses_a_wild():
    # Her board's top rows are orange-only and blue-only boxes; she has filled every other red/orange and
    # purple/blue box, so neither purple nor red fits anywhere, yet no grid is full.
    layout = ("orange orange orange / * * * / * * *", "blue blue blue / * * * / * * *", "* * * / * * * / * * *")
    state = start("full", players=("Ana", "Ben"), box_layout=layout)
    ana = [f"red-orange:{b}" for b in RC[3:]] + [f"purple-blue:{b}" for b in RC[3:]]
    ben = [f"green-yellow:{b}" for b in RC] + [f"red-orange:{b}" for b in RC[3:6]]
    for ana_box, ben_box in zip(ana, ben):
        state = play_turn(state, {ANA: normal(2, ana_box), BEN: normal(2, ben_box)})
    assert state.active == ANA and state.turn == 13
    state = play(state, dice("purple", "red", 5, 1), "own")
    assert keys(state) == ["wild"] and [o.reason for o in state.expects().options[:2]] == ["no purple box",
                                                                                           "no red box"]
    state = play(state, "wild", "red", "1", "green-yellow", "green-yellow:11")
    assert state.wilds_used[ANA] == 1
    state = play(state, dice("blue", 6))
    assert state.detail()["pool"] == ["purple", "blue", 5, 6]
    assert state.detail()["players"][ANA]["board"]["green-yellow"] == "1 _ _ / _ _ _ / _ _ _"


# LOW-8, LOW-9 -----------------------------------------------------------------------------------------------------
def test_low_8_others_may_pick_the_same_dice_and_remove_nothing():
    state = play(start("full"), dice("red", "blue", 2, 5), "own", "red", "2", "normal", "red-orange",
                 "red-orange:11", dice("green", 4), "normal", "green", "4", "green-yellow", "green-yellow:11")
    assert keys(state) == ["normal", "wild"]
    state = play(state, "normal")
    assert keys(state) == ["blue", "green"]
    state = play(state, "green")
    assert keys(state) == ["5", "4"]
    state = play(state, "4", "green-yellow", "green-yellow:22")
    boards = [p["board"]["green-yellow"] for p in state.detail()["players"]]
    assert boards == ["_ _ _ / _ _ _ / _ _ _", "4 _ _ / _ _ _ / _ _ _", "_ _ _ / _ 4 _ / _ _ _"]


def test_low_9_others_may_mix_a_die_of_a_s_roll_with_one_of_the_hidden_pair():
    # Example 1: Cy takes blue (from Ana's roll) with 4 (from the hidden pair), the 4 Ben used as well
    state = play(start("full"), dice("red", "blue", 2, 5), "own", "red", "2", "normal", "red-orange",
                 "red-orange:11", dice("green", 4), "normal", "green", "4", "green-yellow", "green-yellow:11",
                 "normal", "blue", "4", "purple-blue", "purple-blue:22")
    assert state.detail()["players"][CY]["board"]["purple-blue"] == "_ _ _ / _ 4 _ / _ _ _"


# LOW-10, LOW-11, LOW-12, LOW-13, LOW-14 ---------------------------------------------------------------------------
def filled_red_orange(state):
    """Two-player full game: Ana fills her red/orange grid in 9 turns while Ben writes in purple/blue."""
    for box in RC:
        state = play_turn(state, {ANA: normal(1, f"red-orange:{box}"), BEN: normal(1, f"purple-blue:{box}")})
    return state


def test_low_10_only_colours_limit_a_move_numbers_never_do():
    state = filled_red_orange(start("full", players=("Ana", "Ben")))
    state = play(state, dice("green", "red", 3, 1), "own", "green", "3", "normal", "green-yellow",
                 "green-yellow:11", dice("yellow", 6))
    assert state.picker == ANA and state.detail()["pool"] == ["red", "yellow", 1, 6]
    assert keys(state) == ["normal", "wild"]
    state = play(state, "normal")
    assert keys(state) == ["yellow"] and keys(state, False) == ["red"]
    assert state.expects().options[0].reason == "no red box"
    state = play(state, "yellow")
    assert keys(state) == ["1", "6"]


def test_low_11_a_player_with_no_move_and_a_wild_left_must_use_it():
    state = filled_red_orange(start("full", players=("Ana", "Ben")))
    state = play(state, dice("green", "red", 3, 6), "own", "green", "3", "normal", "green-yellow",
                 "green-yellow:11", dice("orange", 6))
    assert state.picker == ANA and state.detail()["pool"] == ["red", "orange", 6, 6]
    place = state.expects()
    assert [(o.key, o.enabled) for o in place.options] == [("wild", True), ("blackout", False)]
    assert place.options[1].reason == "use a wild first"
    refused(state, "normal")
    refused(state, "blackout")
    state = play(state, "wild", "6")
    assert keys(state) == ["purple-blue", "green-yellow"]


def test_low_12_no_move_and_no_wild_left_blacks_out_an_empty_box_worth_six():
    state = start("full", players=("Ana", "Ben"))
    for turn, box in enumerate(RC):
        state = play_turn(state, {ANA: (wild if turn < 4 else normal)(1, f"red-orange:{box}"),
                                  BEN: normal(1, f"purple-blue:{box}")})
    assert state.wilds_used[ANA] == 4 and state.active == BEN
    state = play(state, dice("green", "red", 3, 6), "own", "green", "3", "normal", "green-yellow",
                 "green-yellow:11", dice("orange", 6))
    assert [(o.key, o.enabled) for o in state.expects().options] == [("wild", False), ("blackout", True)]
    state = play(state, "blackout")
    assert state.expects().question == "Black out: grid?" and keys(state) == ["purple-blue", "green-yellow"]
    refused(state, "red-orange")                # her full grid is not offered
    state = play(state, "purple-blue")
    before = state.scores()[ANA]
    state = play(state, "purple-blue:22")
    assert state.blackouts[ANA] == 1 and state.scores()[ANA] == before + 6
    assert state.detail()["players"][ANA]["board"]["purple-blue"] == "_ _ _ / _ B _ / _ _ _"


def test_low_13_a_voluntary_blackout_is_refused_while_a_move_or_a_wild_exists():
    full = play(start("full"), dice("red", "blue", 2, 5), "own", "red", "2")
    assert [(o.key, o.enabled, o.reason) for o in full.expects().options] == [
        ("normal", True, ""), ("blackout", False, "use a wild first")]
    assert refused(full, "blackout").rule == "UI-6"
    light = play(start("light"), dice("red", "blue", 2, 5), "own", "red", "2")
    refused(light, "blackout")


def test_low_13_light_mode_allows_a_blackout_once_the_wilds_are_used_up():
    state = start("light", players=("Ana", "Ben"))
    for _ in range(8):
        state = play(state, dice("red", "blue", 2, 5), "own", "red", "2", "normal", dice("green", 4), "wild")
    assert state.wilds_used == (4, 4) and state.active == ANA
    state = play(state, dice("red", "blue", 2, 5), "own")
    assert [o.enabled for o in state.expects().options] == [True, True, False]
    state = play(state, "red", "2")
    assert keys(state) == ["normal", "blackout"]       # the referee takes Ana's word that no normal move exists
    state = play(state, "blackout", dice("green", 4))
    assert state.blackouts[ANA] == 1
    assert keys(state) == ["normal", "blackout"] and keys(state, False) == ["wild"]


def test_example_3_low_14_a_blacking_out_with_hidden_sets_aside_the_hidden_pair():
    # Example 3: Ben's red/orange grid is full and his wilds are used up; HIDDEN shows orange 6
    state = start("full", players=("Ana", "Ben"), first=BEN)
    for turn, box in enumerate(RC):
        state = play_turn(state, {BEN: (wild if turn < 4 else normal)(1, f"red-orange:{box}"),
                                  ANA: normal(1, f"green-yellow:{box}")})
    state = play_turn(state, {ANA: normal(1, "purple-blue:11"), BEN: normal(1, "green-yellow:11")})
    assert state.active == BEN and state.wilds_used[BEN] == 4
    state = play(state, dice("green", "blue", 3, 5), "hidden", dice("orange", 6))
    assert [(o.key, o.enabled) for o in state.expects().options] == [("use", True), ("wild", False)]
    state = play(state, "use")
    assert keys(state) == ["blackout"]
    state = play(state, "blackout", "purple-blue", "purple-blue:11")
    assert state.detail()["pool"] == ["green", "blue", 3, 5]
    assert state.detail()["players"][BEN]["board"]["purple-blue"] == "B _ _ / _ _ _ / _ _ _"
    assert state.picked[BEN].aside == "orange"


def test_low_14_a_blacking_out_with_own_sets_aside_the_colour_and_number_picked():
    state = start("full", players=("Ana", "Ben"))
    for turn, box in enumerate(RC):
        state = play_turn(state, {ANA: (wild if turn < 4 else normal)(1, f"red-orange:{box}"),
                                  BEN: normal(1, f"green-yellow:{box}")})
    state = play_turn(state, {BEN: normal(2, "purple-blue:11"), ANA: normal(2, "purple-blue:11")})
    assert state.active == ANA and state.wilds_used[ANA] == 4
    state = play(state, dice("red", "orange", 3, 5), "own")
    assert keys(state) == ["red", "orange"] and keys(state, False) == ["wild"]   # set aside for the blackout
    state = play(state, "orange", "5", "blackout", "green-yellow", "green-yellow:33", dice("yellow", 1))
    assert state.detail()["pool"] == ["red", "yellow", 3, 1]


# Edge cases around the source choice ------------------------------------------------------------------------------
def test_edge_hidden_colour_fits_nowhere_means_wild_and_no_way_back_to_own():
    state = filled_red_orange(start("full", players=("Ana", "Ben")))
    state = play_turn(state, {BEN: normal(2, "green-yellow:11"), ANA: normal(2, "green-yellow:11")})
    assert state.active == ANA
    state = play(state, dice("green", "blue", 3, 5), "hidden", dice("red", 6))
    assert [(o.key, o.enabled) for o in state.expects().options] == [("use", False), ("wild", True)]
    assert state.expects().options[0].reason == "no red box"
    refused(state, "use")
    refused(state, "own")
    state = play(state, "wild", "purple-blue", "purple-blue:33")
    assert state.wilds_used[ANA] == 1 and state.picked[ANA].aside == "red"


def test_edge_a_whose_own_colours_fit_nowhere_may_still_choose_hidden():
    state = filled_red_orange(start("full", players=("Ana", "Ben")))
    state = play_turn(state, {BEN: normal(2, "green-yellow:11"), ANA: normal(2, "green-yellow:11")})
    state = play(state, dice("red", "orange", 3, 5))
    assert keys(state) == ["own", "hidden"]
    own = play(state, "own")
    assert keys(own) == ["wild"] and [o.reason for o in own.expects().options[:2]] == ["no red box",
                                                                                       "no orange box"]
    state = play(state, "hidden", dice("green", 4), "use", "normal", "green-yellow", "green-yellow:12")
    assert state.detail()["players"][ANA]["board"]["green-yellow"] == "2 4 _ / _ _ _ / _ _ _"


def test_edge_two_others_each_use_a_wild_and_neither_removes_a_die():
    state = play(start(), dice("red", "blue", 2, 5), "own", "red", "2", "normal", dice("green", 4), "wild")
    assert state.detail()["pool"] == ["blue", "green", 5, 4]
    state = play(state, "wild")
    assert state.wilds_used == (0, 1, 1) and state.turn == 2


# LOW-15 to LOW-18 through the engine -----------------------------------------------------------------------------
def fives_row(state):
    """Two-player full game: Ana writes 5, 5 then 5 along her red/orange row 1 (Ben writes 1s in purple/blue)."""
    for turn in range(3):
        state = play_turn(state, {ANA: normal(5, f"red-orange:1{turn + 1}"),
                                  BEN: normal(1, f"purple-blue:1{turn + 1}")})
    return state


def test_low_15_an_eligible_line_is_offered_at_the_cross_out_step():
    state = start("full", players=("Ana", "Ben"))
    state = play_turn(state, {ANA: normal(5, "red-orange:11"), BEN: normal(1, "purple-blue:11")})
    state = play_turn(state, {BEN: normal(1, "purple-blue:12"), ANA: normal(5, "red-orange:12")})
    state = play(state, dice("red", "blue", 5, 1), "own", "red", "5", "normal", "red-orange")
    assert [(o.label, o.enabled, o.reason) for o in state.expects().options[:3]] == [
        ("11 5", False, "box taken"), ("12 5", False, "box taken"), ("13 R/O", True, "R/O only")]
    state = play(state, "red-orange:13", dice("blue", 1), "normal", "blue", "1", "purple-blue", "purple-blue:13")
    cross = state.expects()
    assert cross.kind == "multi" and cross.player == ANA and cross.low == 0 and cross.default == ()
    assert [(o.key, o.label) for o in cross.options] == [("red-orange:11-13", "R/O 11-13: 5 5 5")]
    state = play(state, ("red-orange:11-13",))
    assert state.expects().player == BEN and [o.key for o in state.expects().options] == ["purple-blue:11-13"]
    state = play(state, ())
    assert state.crossed == (("red-orange:11-13",), ()) and state.scores() == [0, 3]


def test_low_17_crossing_two_lines_that_share_a_box_is_refused():
    # Ana writes 5s on both diagonals of red/orange, the centre shared; Ben writes 1s likewise in green/yellow
    boxes = ["11", "22", "33", "13", "31"]
    state_at_cross = start("full", players=("Ana", "Ben"))
    for turn, box in enumerate(boxes[:4]):
        state_at_cross = play_turn(state_at_cross, {ANA: normal(5, f"red-orange:{box}"),
                                                    BEN: normal(1, f"green-yellow:{box}")})
    state_at_cross = play(state_at_cross, dice("red", "green", 5, 1), "own", "red", "5", "normal", "red-orange",
                          "red-orange:31", dice("green", 1), "normal", "green", "1", "green-yellow",
                          "green-yellow:31")
    assert state_at_cross.picker == ANA
    assert [o.key for o in state_at_cross.expects().options] == ["red-orange:11-33", "red-orange:13-31"]
    error = refused(state_at_cross, ("red-orange:11-33", "red-orange:13-31"))
    assert error.rule == "LOW-17"
    after = play(state_at_cross, ("red-orange:13-31",))
    assert after.crossed[ANA] == ("red-orange:13-31",)


def test_low_18_a_line_left_uncrossed_can_be_crossed_on_a_later_turn():
    state = fives_row(start("full", players=("Ana", "Ben")))
    # the turn-3 cross-out step: Ana declined (play_turn answers no lines); Ben declined too
    assert state.crossed == ((), ()) and state.turn == 4
    state = play_turn(state, {BEN: normal(1, "purple-blue:21"), ANA: normal(2, "green-yellow:11")},
                      crosses={ANA: ("red-orange:11-13",)})
    assert state.crossed[ANA] == ("red-orange:11-13",) and state.scores()[ANA] == 2


# LOW-19 to LOW-22 -------------------------------------------------------------------------------------------------
def test_low_19_the_next_player_to_the_left_becomes_a_and_the_old_a_hides():
    state = example_1("light")
    assert (state.active, state.hidden_roller) == (BEN, ANA)
    state = play(state, dice("red", "blue", 2, 5), "own", "red", "2", "normal", dice("green", 4), "normal",
                 "normal")
    assert (state.active, state.hidden_roller, state.turn) == (CY, BEN, 3)
    assert state.detail()["roll"] is None and state.picked == (None, None, None)


def test_edge_two_players_h_is_also_the_left_neighbour_and_roles_alternate():
    state = start(players=("Ana", "Ben"))
    roles = []
    for _ in range(3):
        roles.append((state.active, state.hidden_roller))
        state = play(state, dice("red", "blue", 2, 5), "own", "red", "2", "normal", dice("green", 4), "normal")
    assert roles == [(ANA, BEN), (BEN, ANA), (ANA, BEN)]


ANA_CROSSES = ("red-orange:11-13", "red-orange:21-23", "green-yellow:21-23", "green-yellow:11-13")


def example_5(history=None):
    """Examples 4 and 5 in full mode. Ana, Ben, Cy with Ben first, so Ben is A on turn 22, when Cy's pick fills her
    second grid (and Ana's, after it, fills Ana's). Ana: example 4's board (her red/orange grid, four wilds in
    purple/blue, a forced blackout, green/yellow), crossing example 4's lines at the last step; Ben ends with 19
    twos and 3 ones (41), Cy with 15 twos and 7 ones (37). `history` collects (state, event) pairs."""
    ana = [normal(n, f"red-orange:{b}") for n, b in zip([2, 2, 2, 1, 3, 6, 5, 4, 2], RC)]
    ana += [wild(4, "purple-blue:11"), wild(3, "purple-blue:13"), wild(6, "purple-blue:22"), wild(1, "purple-blue:33")]
    ana += [blackout("green-yellow:32", "orange")]      # turn 14: the pool is orange and red, Ana's wilds are used
    ana += [normal(n, f"green-yellow:{b}") for n, b in zip([6, 1, 3, 5, 5, 5, 2, 4], RC[:7] + RC[8:])]
    ben = [normal(1 if b == "11" else 2, f"purple-blue:{b}") for b in RC[:7]]
    ben += [normal(1 if b == "11" else 2, f"green-yellow:{b}") for b in RC[:6]]
    ben += [normal(1 if b == "11" else 2, f"red-orange:{b}", "red") for b in RC]
    cy = [normal(1 if b in ("11", "22", "33") else 2, f"red-orange:{b}") for b in RC]
    cy += [normal(n, f"green-yellow:{b}") for n, b in zip([1, 1, 2, 2], RC)]
    cy += [normal(1 if b in ("11", "33") else 2, f"purple-blue:{b}") for b in RC]
    state = start("full", first=BEN)
    for turn in range(22):
        record = []
        crosses = {ANA: ANA_CROSSES} if turn == 21 else None
        before = state
        state = play_turn(state, {ANA: ana[turn], BEN: ben[turn], CY: cy[turn]}, crosses=crosses, record=record)
        if history is not None:
            for event in record:
                history.append((before, event))
                before = before.apply(event)
    return state


def test_examples_4_and_5_the_full_game_ends_on_cy_s_pick_and_ana_and_cy_share_the_win():
    state = example_5()
    assert state.is_over and state.turn == 22 and state.active == BEN
    players = state.detail()["players"]
    assert players[ANA]["board"] == {"red-orange": "2 2 2 / 1 3 6 / 5 4 2", "purple-blue": "4 _ 3 / _ 6 _ / _ _ 1",
                                       "green-yellow": "6 1 3 / 5 5 5 / 2 B 4"}
    assert players[ANA]["crossed"] == list(ANA_CROSSES)
    assert (players[ANA]["wilds_used"], players[ANA]["blackouts"]) == (4, 1)
    assert [p["grids_full"] for p in players] == [2, 1, 2]
    assert state.scores() == [11 + 12 + 14, 41, 37]
    assert state.outcome().winners == (ANA, CY) and state.outcome().scores == (37, 41, 37)
    assert state.expects() is None and state.status() == "Game over"


def test_low_20_and_low_21_the_trigger_is_checked_after_each_pick_and_the_turn_still_finishes():
    history = []
    example_5(history)
    trigger = next(i for i, (s, _) in enumerate(history) if s.end_triggered)
    before_trigger, _ = history[trigger - 1]
    assert before_trigger.turn == 22 and before_trigger.picker == CY and before_trigger.phase == "box"
    rest = history[trigger:]
    assert rest[0][0].expects().player == ANA           # Ana still picks after the trigger
    assert all(isinstance(s.expects(), Decision) for s, _ in rest)   # no roll: no new turn, no dice passed
    crossers = [s.picker for s, _ in rest if s.phase == "cross"]
    assert crossers == [BEN, CY, ANA]                   # everybody's cross-out step, in pick order
    ana_lines = {o.key for o in rest[-1][0].expects().options}
    assert ana_lines == {"red-orange:11-13", "red-orange:21-23", "red-orange:13-33", "red-orange:13-31",
                         "green-yellow:11-13", "green-yellow:21-23", "green-yellow:13-31"}   # none through B


def test_low_20_nobody_with_two_full_grids_before_the_last_turn():
    history = []
    example_5(history)
    layout = history[0][0].game.layout
    for state, _ in history:
        if state.turn < 22:
            assert not state.end_triggered and all(layout.full_grids(b) < 2 for b in state.boards)


def test_edge_two_players_reach_two_full_grids_in_the_same_turn_one_end():
    history = []
    final = example_5(history)
    layout = final.game.layout
    assert sum(layout.full_grids(b) >= 2 for b in final.boards) == 2
    assert sum(1 for s, _ in history if s.phase == "roll") == 22 and final.is_over


def test_low_22_lowest_total_wins_and_equal_lowest_totals_share():
    state = end_light_game(totals=(37, 41, 37))
    assert state.outcome().winners == (ANA, CY) and state.scores() == [37, 41, 37]
    assert end_light_game(totals=(50, 12, 13)).outcome().winners == (BEN,)


# LOW-23: the hidden pair on no screen before its time ---------------------------------------------------------------
def test_low_23_a_first_roll_showing_the_hidden_pair_is_refused_without_reading_it():
    state = start()
    six = dice("red", "blue", 2, 5, "purple", 6)
    error = refused(state, six, ImplausibleRollError)
    assert error.message == "hidden dice visible" and error.rule == "LOW-23"
    five = Roll((colour("red"), colour("blue"), Die(value=2), Die(value=5), Die(value=None)))
    assert refused(state, five, ImplausibleRollError).message == "hidden dice visible"


@pytest.mark.parametrize("source", ["own", "hidden"])
def test_low_23_ui_10_no_prompt_status_or_detail_depends_on_the_pair_before_it_is_shown(source):
    """The same turn with two different hidden pairs: every screen up to the reveal is identical (and the detail
    holds no pair), and the screens after it do show the pair."""
    screens = {}
    for pair in (("purple", 6), ("yellow", 3)):
        state = play(start("full"), dice("red", "blue", 2, 5))
        shown = [prompt_strings(state)]
        steps = ["own", "red", "2", "normal", "red-orange", "red-orange:11"] if source == "own" else ["hidden"]
        for step in steps:
            state = play(state, step)
            shown.append(prompt_strings(state))
            assert state.detail()["hidden"] is None
        assert isinstance(state.expects(), RollRequest) and state.expects().player == CY
        after = play(state, dice(*pair))
        screens[pair] = (shown, prompt_strings(after), after.detail()["hidden"])
    (before_a, after_a, hidden_a), (before_b, after_b, hidden_b) = screens.values()
    assert before_a == before_b
    assert after_a != after_b and (hidden_a, hidden_b) == (["purple", 6], ["yellow", 3])
    letters = " ".join(after_a)
    assert ("P" in letters and "6" in letters) if source == "own" else "Use purple 6" in letters


def test_low_23_the_reveal_is_never_asked_before_a_s_own_move_is_entered():
    state = play(start("full"), dice("red", "blue", 2, 5), "own")
    for step in ["red", "2", "normal", "red-orange"]:
        assert isinstance(state.expects(), Decision)
        refused(state, dice("green", 4), ImplausibleRollError)
        state = play(state, step)
    state = play(state, "red-orange:11")
    assert isinstance(state.expects(), RollRequest)


# LOW-24: light mode -----------------------------------------------------------------------------------------------
def light_turns(state, turns):
    """Light-mode turns where everybody writes a normal move."""
    for _ in range(turns):
        state = play(state, dice("red", "blue", 2, 5), "own", "red", "2", "normal", dice("green", 4),
                     *["normal"] * (len(state.game.players) - 1))
    return state


def end_light_game(totals):
    """18 light turns, Ben declares before the 19th roll, then the totals in seat order from Ana."""
    state = play(light_turns(start(), 18), Choice("full:1", player=BEN))
    for total in totals:
        state = play(state, total)
    return state


def test_low_24_light_mode_confirms_normal_wild_or_blackout_per_pick():
    state = play(start(), dice("red", "blue", 2, 5), "own", "red", "2")
    assert state.expects().question == "red 2: how?" and keys(state) == ["normal"]
    state = play(state, "normal", dice("green", 4))
    place = state.expects()
    assert place.player == BEN and place.default == "normal"
    assert [(o.key, o.enabled) for o in place.options] == [("normal", True), ("wild", True), ("blackout", False)]
    assert state.boards == () and "board" not in state.detail()["players"][ANA]


def test_low_24_two_grids_full_is_declared_through_menu_by_any_player():
    state = light_turns(start(), 17)
    assert state.interrupts() == ()                 # 17 boxes each: nobody can have 2 full grids yet
    state = play(state, dice("red", "blue", 2, 5), "own", "red", "2", "normal", dice("green", 4), "normal")
    # turn 18: Cy is A, then Ana picked; both have filled 18 boxes, Ben 17
    assert [(i.player, i.option.key) for i in state.interrupts()] == [(ANA, "full:0"), (CY, "full:2")]
    assert state.interrupts()[0].option.label == "2 grids full"
    state = play(state, Choice("full:2", player=CY))          # Cy declares while Ben still has to pick
    assert state.end_triggered and state.declared == (False, False, True) and state.status().endswith("last turn")
    assert [i.player for i in state.interrupts()] == [ANA]
    assert state.expects().player == BEN
    state = play(state, "normal")
    total = state.expects()
    assert (total.kind, total.player, total.low, total.high, total.default) == ("spinner", CY, 0, 162, 0)
    assert state.status() == "Final totals" and state.describe(Choice(30)) == "total 30"
    refused(state, 163)
    state = play(state, 30, 25)
    assert state.expects().player == BEN and state.interrupts() == ()
    state = play(state, 40)
    assert state.is_over and state.scores() == [25, 40, 30] and state.outcome().winners == (ANA,)
    assert state.detail()["players"][CY]["grids_full"] == 2


def test_low_24_declared_before_the_next_roll_the_turn_that_filled_the_grids_was_the_last():
    state = play(light_turns(start(), 18), Choice("full:1", player=BEN))
    assert state.turn == 19 and state.expects().kind == "spinner" and state.expects().player == ANA


def test_low_24_the_game_ends_when_two_full_grids_are_certain_even_if_nobody_declares():
    state = light_turns(start(players=("Ana", "Ben")), 25)
    assert not state.end_triggered and isinstance(state.expects(), RollRequest)
    state = light_turns(state, 1)                   # 26 of 27 boxes filled: at most one grid is open
    assert state.end_triggered and state.expects().kind == "spinner"


def test_low_24_a_declaration_is_refused_before_enough_boxes_are_filled():
    state = light_turns(start(), 5)
    refused(state, Choice("full:0", player=ANA))


# LOW-26: the pool -------------------------------------------------------------------------------------------------
def test_low_26_with_own_the_pool_is_a_s_other_two_and_the_hidden_pair():
    state = play(start(), dice("red", "blue", 2, 5), "own", "blue", "5", "normal")
    assert state.expects().lines == ("R 2 stay in view",)
    state = play(state, dice("purple", 1))
    assert state.detail()["pool"] == ["red", "purple", 2, 1]


def test_low_26_with_hidden_the_pool_is_a_s_four():
    state = play(start(), dice("red", "blue", 2, 5), "hidden")
    assert state.expects().lines == ("R B 2 5 stay in view",)
    state = play(state, dice("purple", 1), "use", "normal")
    assert state.detail()["pool"] == ["red", "blue", 2, 5]


def test_low_26_the_reveal_may_show_a_s_dice_still_in_view_but_they_must_not_have_moved():
    state = play(start(), dice("red", "blue", 2, 5), "own", "blue", "5", "normal")
    after = play(state, dice(2, "purple", "red", 1))           # A's red and 2 seen again, with the pair
    assert after.detail()["pool"] == ["red", "purple", 2, 1]
    error = refused(state, dice(3, "purple", "red", 1), ImplausibleRollError)   # the 2 now shows 3
    assert error.message == "a pool die moved" and error.rule == "LOW-26"
    refused(state, dice("orange", "purple", 2, 1), ImplausibleRollError)


def test_edge_a_pool_die_changing_during_the_others_picks_is_rejected():
    state = play(start(), dice("red", "blue", 2, 5), "own", "blue", "5", "normal", dice("purple", 1))
    assert state.picker == BEN
    assert refused(state, dice("red", "purple", 3, 1), ImplausibleRollError).rule == "UI-8"   # no roll is due
    for view in (dice("red", "purple", 3, 1), dice("red", "purple", 2), dice("orange", "purple", 2, 1)):
        with pytest.raises(ImplausibleRollError) as error:
            state.visible(view)                     # what the camera sees is checked all the same (the table warns)
        assert (error.value.message, error.value.rule) == ("a pool die moved", "LOW-26")
    still = dice(1, "purple", "red", 2)
    assert state.visible(still) == still
    assert state.visible(dice("red", "purple", 2, 1, "blue", 5)) is not None    # A's dice not yet moved away
    state = play(state, "normal")                   # Cy picks
    assert state.visible(still) == still and state.picker == CY


def test_low_26_the_pool_check_ends_with_the_picks():
    state = play(start(), dice("red", "blue", 2, 5), "own", "blue", "5", "normal", dice("purple", 1), "normal",
                 "normal")
    assert state.phase == "roll" and state.visible(dice("red", "green", 3, 3)).dice


# The hidden zone of the tray (option hidden_zone) -------------------------------------------------------------
def in_zone(roll: Roll, zone="hidden") -> Roll:
    return Roll(tuple(replace(d, zone=zone) for d in roll.dice))


def test_low_23_dice_in_the_hidden_zone_are_ignored_until_the_reveal():
    pair = in_zone(Roll((colour("purple"), Die(value=None))))       # one of them not even readable
    assert start().describe(Roll(dice("red", "blue", 2, 5).dice + pair.dice)) == "roll R B 2 5"   # "Undo roll ...?"
    state = play(start(), Roll(dice("red", "blue", 2, 5).dice + pair.dice))
    assert state.detail()["roll"] == ["red", "blue", 2, 5] and state.detail()["hidden"] is None
    for step in ["own", "red", "2"]:
        assert state.visible(pair).dice == ()
        state = play(state, step)
    state = play(state, "normal")
    assert isinstance(state.expects(), RollRequest)
    state = play(state, in_zone(dice("purple", 6)))    # at the reveal the pair is read where it lies
    assert state.detail()["hidden"] == ["purple", 6] and state.detail()["pool"] == ["blue", "purple", 5, 6]


def test_low_23_more_than_four_dice_outside_the_hidden_zone_are_refused_unread():
    state = start(hidden_zone="box")
    hidden_box = in_zone(dice("purple", 6), "box").dice
    assert play(state, Roll(dice("red", "blue", 2, 5).dice + hidden_box)).detail()["roll"] == ["red", "blue", 2, 5]
    other_zone = in_zone(dice("purple", 6)).dice         # the default zone name means nothing with hidden_zone=box
    assert refused(state, Roll(dice("red", "blue", 2, 5).dice + other_zone), ImplausibleRollError).rule == "LOW-23"
    state = play(state, dice("red", "blue", 2, 5), "own", "red")
    with pytest.raises(ImplausibleRollError, match="hidden dice visible"):   # the pair put down during A's move
        state.visible(dice("red", "blue", 2, 5, "purple"))


@pytest.mark.parametrize("zone", ["", "mat", "off"])
def test_hidden_zone_must_name_a_zone_of_its_own(zone):
    with pytest.raises(IllegalActionError, match="hidden_zone"):
        new_game(Setup("lowdown", ("Ana", "Ben"), options={"hidden_zone": zone}))


# The referee's errors, status, detail, describe -------------------------------------------------------------------
def test_an_illegal_choice_raises_and_leaves_the_state_unchanged():
    state = play(start(), dice("red", "blue", 2, 5))
    refused(state, "sideways")
    refused(state, Choice("own", player=BEN))
    refused(state, dice("red", "blue", 2, 5), ImplausibleRollError)
    assert play(state, "own").source == "own"


def test_the_game_over_refuses_every_event():
    state = end_light_game(totals=(1, 2, 3))
    refused(state, dice("red", "blue", 2, 5), IllegalActionError)
    refused(state, 4)


def test_texts_fit_the_oled():
    history = []
    example_5(history)
    light = start()
    for event in [dice("red", "blue", 2, 5), "own", "wild", "blue", "5", dice("green", 4), "normal"]:
        history.append((light, event))
        light = play(light, event)
    for state, _ in history:
        pending = state.expects()
        assert len(pending.context) <= 12 and len(state.status()) <= 21
        if isinstance(pending, Decision):
            assert len(pending.question) <= 21 and all(len(o.label) <= 19 for o in pending.options)
        else:
            assert len(pending.message) <= 21 and all(len(line) <= 21 for line in pending.lines)


def test_describe_names_the_event_for_undo():
    state = start("full")
    assert state.describe(dice("red", "blue", 2, 5)) == "roll R B 2 5"
    state = play(state, dice("red", "blue", 2, 5))
    assert state.describe(Choice("own")) == "Own R B 2 5"
    state = play(state, "own", "red", "2", "normal", "red-orange")
    assert state.describe(Choice("red-orange:12")) == "Place 2 R/O 12"
    light = light_turns(start(), 18)
    assert light.describe(Choice("full:2", player=CY)) == "Cy full"


def test_detail_is_json_with_the_spec_state_names():
    state = play(start("full"), dice("red", "blue", 2, 5), "own", "red", "2", "normal", "red-orange",
                 "red-orange:11", dice("green", 4))
    detail = json.loads(json.dumps(state.detail()))
    assert {"mode", "turn", "active", "hidden_roller", "roll", "hidden", "source", "pool", "players",
            "end_triggered"} <= set(detail)
    assert detail["roll"] == ["red", "blue", 2, 5] and detail["hidden"] == ["green", 4] and detail["source"] == "own"
    assert detail["players"][ANA]["picked"] == {"how": "normal", "colour": "red", "number": 2, "aside": "red",
                                                  "grid": 0, "box": "red-orange:11"}
    assert detail["players"][ANA]["score"] == 2


# The demo ---------------------------------------------------------------------------------------------------------
def test_demo_script_replays_to_the_scores_worked_by_hand():
    text = resources.files("companion.demos").joinpath("lowdown.jsonl").read_text(encoding="utf-8")
    setup, numbered = parse_script(text.splitlines(), "lowdown demo")
    match = Match.replay(setup, (event for _, event in numbered))
    state = match.state
    assert state.is_over and state.turn == 18 and len(numbered) < 250
    players = state.detail()["players"]
    assert [p["board"] for p in players] == [
        {"red-orange": "5 5 5 / 1 3 6 / 4 4 2", "purple-blue": "_ _ _ / _ _ _ / _ _ _",
         "green-yellow": "2 2 6 / 3 3 4 / 5 1 1"},
        {"red-orange": "3 _ 1 / _ 3 _ / _ _ 3", "purple-blue": "6 6 6 / 2 5 4 / 3 1 2",
         "green-yellow": "4 5 _ / 6 _ 2 / 2 _ _"}]
    assert sorted(players[ANA]["crossed"]) == sorted(["red-orange:11-13", "red-orange:21-23", "red-orange:31-33",
                                                      "green-yellow:11-13", "green-yellow:21-23"])
    assert sorted(players[BEN]["crossed"]) == ["purple-blue:11-13", "red-orange:11-33"]
    # the comment lines of the script work these out from the spec: Ana 0 + 7 + 0, Ben 17 + 1 + 19
    assert state.outcome().scores == (7, 37) and state.outcome().winners == (ANA,)
    choices = [event.value for _, event in numbered if isinstance(event, Choice)]
    assert choices.count("hidden") == 3 and choices.count("wild") == 2
