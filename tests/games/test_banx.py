"""BANX rules (rules/banx.md): one test per rule ID, the worked examples, the edge cases and the camera checks."""
import pytest

from companion.games import (Choice, Decision, Die, IllegalActionError, ImplausibleRollError, Roll, RollRequest,
                             Setup, new_game)
from companion.games.banx_scoring import bottom_total, final_score, points, top_total

COLOURS = ("red", "blue", "green", "yellow")
FOUR = ("Ana", "Ben", "Cy", "Dee")
PLAIN = [1, 2, 3, 4, 6]                       # never five of a kind, so never an Extra BOOM
PLAIN_REROLL = ([1, 2, 3, 4], [6])


# ---------------------------------------------------------------------------------------------------- helpers

def new_state(players=("Ana", "Ben"), first=0, **options):
    setup = Setup("banx", tuple(players), first, COLOURS[:len(players)], options)
    return new_game(setup).new_initial_state()


def kept_roll(kept, rolled, owner=None):
    """A re-roll as the camera sees it: the kept dice in the keep strip, the rolled ones on the mat."""
    return Roll(tuple(Die(v, owner=owner, zone="keep") for v in kept) + tuple(Die(v, owner=owner) for v in rolled))


def play(state, *events):
    """Apply events in order; a string is a choice key, a list of strings a multi-select."""
    for event in events:
        if isinstance(event, str):
            event = Choice(event)
        elif isinstance(event, list):
            event = Choice(tuple(event))
        state = state.apply(event)
    return state


def turn(state, first, *rerolls, category=None):
    """One MAIN turn: roll `first`, then each (kept, rolled) re-roll (paying a disc from roll 4 on), then score
    `category` (default: the referee's default, the best open category)."""
    state = state.apply(Roll.of(*first))
    for kept, rolled in rerolls:
        state = play(state, "roll" if state.roll_no < 3 else "pay", kept_roll(kept, rolled))
    state = state.apply(Choice("score"))
    return state.apply(Choice(category or state.expects().default))


def play_main(state, rolls=lambda seat, turn_no: 3):
    """Play out the 13 turns of everyone with plain dice, `rolls(seat, turn_no)` rolls in each turn."""
    while state.phase == "MAIN":
        seat = state.active
        turn_no = sum(v is not None for v in sheet(state, seat).values())
        state = turn(state, PLAIN, *[PLAIN_REROLL] * (rolls(seat, turn_no) - 1))
    return state


def detail_of(state, seat):
    return state.detail()["players"][seat]


def sheet(state, seat):
    return detail_of(state, seat)["sheet"]


def discs(state):
    return [p["discs"] for p in state.detail()["players"]]


def keys(state):
    return [o.key for o in state.expects().options]


def offered_points(state):
    """Category key -> the points its row shows."""
    return {o.key: int(o.label.split()[-1]) for o in state.expects().options}


def assert_refused(state, event, error, rule=None, message=None):
    """`event` raises `error` (with `rule` and `message` when given) and the state is left exactly as it was."""
    before = (state.detail(), state.expects(), state.status())
    with pytest.raises(error) as caught:
        state.apply(event)
    assert (state.detail(), state.expects(), state.status()) == before
    if rule:
        assert caught.value.rule == rule
    if message:
        assert caught.value.message == message
    return caught.value


# ------------------------------------------------------------------------------------------------- setup, options

def test_banx_1_two_discs_each_and_supply_twenty_minus_two_n():
    for players in (("Ana", "Ben"), FOUR[:3], FOUR):
        state = new_state(players)
        assert discs(state) == [2] * len(players)
        assert state.detail()["supply"] == 20 - 2 * len(players)


@pytest.mark.parametrize("players", [("Ana",), ("Ana", "Ben", "Cy", "Dee", "Eve")])
def test_two_to_four_players(players):
    with pytest.raises(IllegalActionError, match="2-4 players"):
        new_game(Setup("banx", players, 0, tuple(f"c{i}" for i in range(len(players)))))


@pytest.mark.parametrize("options, words", [
    ({"keep_input": "camera"}, "keep_input"),
    ({"extra_boom_cap": -1}, "extra_boom_cap"),
    ({"top_names": ("Threes",)}, "top_names"),
    ({"no_such_rule": True}, "no_such_rule"),
])
def test_bad_options_are_refused_by_name(options, words):
    with pytest.raises(IllegalActionError, match=words):
        new_state(**options)


def test_player_colours_option_lists_the_dice_sets():
    with pytest.raises(IllegalActionError, match="'purple' is not in player_colours"):
        new_game(Setup("banx", ("Ana", "Ben"), 0, ("red", "purple")))
    game = new_game(Setup("banx", ("Ana", "Ben"), 0, ("red", "purple"),
                          {"player_colours": ("red", "purple")}))
    assert game.new_initial_state().expects().owner == "red"


def test_detail_uses_the_sheet_names_with_empty_categories_null():
    state = new_state()
    assert sheet(state, 0) == {name: None for name in (
        "Aces", "Deuces", "Threes", "Fours", "Fives", "Sixers", "3 of a Kind", "4 of a Kind", "Full House",
        "Small Straight", "Large Straight", "BOOM", "Chance")}
    assert detail_of(state, 1) == {"sheet": sheet(state, 1), "extra_booms": 0, "discs": 2, "shootout": 0}
    assert state.detail()["phase"] == "MAIN"


def test_top_names_option_renames_the_threes_fours_fives_lines():
    state = turn(new_state(top_names=("Trey", "Quad", "Pent")), [3, 3, 4, 5, 5], category="threes")
    assert sheet(state, 0)["Trey"] == 6
    state = play(state, Roll.of(3, 3, 4, 5, 5), "score")
    labels = {o.key: o.label for o in state.expects().options}
    assert labels["fives"].split() == ["Pent", "10"] and labels["fours"].split() == ["Quad", "4"]


# ------------------------------------------------------------------------------------------------ rolling

def test_banx_2_first_roll_uses_all_five_dice():
    state = new_state()
    request = state.expects()
    assert isinstance(request, RollRequest)
    assert request.dice == {"pips": 5} and request.owner == "red" and request.player == 0
    assert_refused(state, kept_roll([3], [1, 2, 4, 5]), ImplausibleRollError, "BANX-2", "roll all 5 dice")
    assert_refused(state, Roll.of(1, 2, 3, 4), ImplausibleRollError, "BANX-2", "4 red dice: need 5")
    assert state.apply(Roll.of(1, 2, 3, 4, 5)).detail()["dice"] == [1, 2, 3, 4, 5]


def test_banx_3_later_rolls_reroll_one_to_five_dice_even_earlier_kept_ones():
    state = play(new_state(), Roll.of(3, 3, 3, 5, 6), "roll", kept_roll([3, 3, 3], [1, 2]))
    assert state.detail()["dice"] == [1, 2, 3, 3, 3]
    # The 3s kept for roll 2 may be re-rolled on roll 3; so may all five dice.
    assert play(state, "roll", kept_roll([1], [6, 6, 6, 6])).detail()["dice"] == [1, 6, 6, 6, 6]
    assert play(state, "roll", Roll.of(2, 2, 2, 2, 2)).detail()["dice"] == [2, 2, 2, 2, 2]
    # A roll of no dice changes nothing and is refused.
    waiting = state.apply(Choice("roll"))
    assert_refused(waiting, kept_roll([1, 2, 3, 3, 3], []), ImplausibleRollError, "BANX-3", "roll at least 1 die")


def test_banx_3_kept_die_that_changed_value_is_refused():
    state = play(new_state(), Roll.of(3, 3, 3, 5, 6), "roll")
    error = assert_refused(state, kept_roll([3, 3, 4], [2, 2]), ImplausibleRollError, "BANX-3")
    assert error.message == "kept 4 was not rolled"
    assert_refused(state, kept_roll([3, 3, 3, 3], [1]), ImplausibleRollError, "BANX-3")


def test_banx_3_buttons_pick_the_dice_to_reroll():
    state = play(new_state(keep_input="buttons"), Roll.of(3, 6, 3, 5, 3), "roll")
    pick = state.expects()
    assert isinstance(pick, Decision) and pick.kind == "multi" and (pick.low, pick.high) == (1, 5)
    assert [(o.key, o.label) for o in pick.options] == [
        ("d1", "Die 1: 3"), ("d2", "Die 2: 3"), ("d3", "Die 3: 3"), ("d4", "Die 4: 5"), ("d5", "Die 5: 6")]
    assert_refused(state, Choice(()), IllegalActionError)
    state = play(state, ["d4", "d5"])
    assert state.expects().lines == ("Keep: 3 3 3", "Roll the other 2")
    assert_refused(state, Roll.of(3, 3, 2, 2, 1), ImplausibleRollError, "BANX-3", "put back the kept 3")
    assert state.apply(Roll.of(2, 3, 3, 1, 3)).detail()["dice"] == [1, 2, 3, 3, 3]


def test_banx_4_rolls_two_and_three_free_then_a_disc_each():
    state = play(new_state(), Roll.of(*PLAIN))
    assert keys(state) == ["score", "roll"] and state.expects().default == "roll"
    state = play(state, "roll", kept_roll(*PLAIN_REROLL), "roll", kept_roll(*PLAIN_REROLL))
    assert discs(state) == [2, 2] and state.detail()["supply"] == 16
    assert state.roll_no == 3 and keys(state) == ["score", "pay"] and state.expects().default == "score"
    assert [o.label for o in state.expects().options] == ["Score", "Pay 1 disc & roll"]
    assert_refused(state, Choice("roll"), IllegalActionError)
    state = play(state, "pay")
    assert discs(state) == [1, 2] and state.detail()["supply"] == 17 and state.roll_no == 4
    state = play(state, kept_roll(*PLAIN_REROLL), "pay", kept_roll(*PLAIN_REROLL))
    assert discs(state) == [0, 2] and state.detail()["supply"] == 18 and state.roll_no == 5


def test_banx_4_no_fourth_roll_with_zero_discs_option_not_shown():
    state = new_state()
    state = turn(state, PLAIN, *[PLAIN_REROLL] * 4)             # Ana pays both discs for rolls 4 and 5
    state = turn(state, PLAIN)
    state = play(state, Roll.of(*PLAIN), "roll", kept_roll(*PLAIN_REROLL), "roll", kept_roll(*PLAIN_REROLL))
    assert discs(state)[0] == 0 and state.roll_no == 3
    assert keys(state) == ["score"]
    assert_refused(state, Choice("pay"), IllegalActionError)


@pytest.mark.parametrize("rolls, reward", [(1, 2), (2, 1), (3, 0), (4, 0)])
def test_banx_5_reward_by_the_roll_scored_after(rolls, reward):
    state = turn(new_state(), PLAIN, *[PLAIN_REROLL] * (rolls - 1))
    paid = max(0, rolls - 3)
    assert discs(state)[0] == 2 - paid + reward
    assert state.detail()["supply"] == 16 + paid - reward


def test_banx_6_and_example_4_short_supply_pays_what_it_has():
    state = example_3(example_2(example_1(four_players_mid_game())))
    assert state.detail()["supply"] == 10
    for rolls in (1, 1, 1, 1, 3, 2, 3, 3):                     # Dee, Ana, Ben, Cy, Dee, Ana, Ben, Cy
        state = turn(state, PLAIN, *[PLAIN_REROLL] * (rolls - 1))
    assert state.detail()["supply"] == 1 and state.active == 3
    dee = discs(state)[3]
    state = turn(state, PLAIN)
    assert discs(state)[3] == dee + 1 and state.detail()["supply"] == 0
    ana = discs(state)[0]
    state = turn(state, PLAIN)
    assert discs(state)[0] == ana and state.detail()["supply"] == 0
    assert state.detail()["supply"] + sum(discs(state)) == 20


def test_banx_7_one_open_category_per_turn_and_filled_ones_never_change():
    state = turn(new_state(), [6, 6, 6, 2, 2], category="sixers")
    state = turn(state, PLAIN)
    assert sum(v is not None for v in sheet(state, 0).values()) == 1
    state = play(state, Roll.of(6, 6, 6, 6, 6), "score")
    assert "sixers" not in keys(state) and len(keys(state)) == 12
    assert_refused(state, Choice("sixers"), IllegalActionError)
    state = state.apply(Choice("chance"))
    assert sheet(state, 0)["Sixers"] == 18 and sheet(state, 0)["Chance"] == 30
    assert sum(v is not None for v in sheet(state, 0).values()) == 2


def test_banx_8_any_open_category_even_if_it_scores_zero_with_the_reward():
    state = play(new_state(), Roll.of(*PLAIN), "score")
    assert len(keys(state)) == 13
    assert offered_points(state)["fullhouse"] == 0
    state = state.apply(Choice("fullhouse"))
    assert sheet(state, 0)["Full House"] == 0 and discs(state)[0] == 4


# ------------------------------------------------------------------------------------------------- scoring

def test_banx_9_top_lines_sum_the_matching_faces():
    dice = (4, 4, 1, 6, 4)
    assert [points(k, dice) for k in ("aces", "deuces", "threes", "fours", "fives", "sixers")] == [1, 0, 0, 12, 0, 6]


def test_banx_10_three_and_four_of_a_kind_sum_all_dice():
    assert points("3kind", (5, 5, 5, 2, 1)) == 18 and points("4kind", (5, 5, 5, 2, 1)) == 0
    assert points("3kind", (2, 2, 2, 2, 6)) == 14 and points("4kind", (2, 2, 2, 2, 6)) == 14
    assert points("3kind", (1, 1, 2, 2, 3)) == 0


def test_banx_11_chance_sums_the_dice():
    assert points("chance", (1, 2, 2, 5, 6)) == 16


def test_banx_12_full_house_three_and_two():
    assert points("fullhouse", (3, 3, 3, 6, 6)) == 20
    assert points("fullhouse", (3, 3, 3, 6, 5)) == 0 and points("fullhouse", (3, 3, 6, 6, 5)) == 0


def test_banx_13_straights():
    for dice in ((1, 2, 3, 4, 4), (6, 5, 4, 3, 1), (2, 3, 4, 5, 5)):
        assert points("smallstraight", dice) == 30
    assert points("smallstraight", (1, 2, 3, 5, 6)) == 0
    assert points("largestraight", (5, 1, 3, 2, 4)) == 40 and points("largestraight", (2, 3, 4, 5, 6)) == 40
    assert points("largestraight", (1, 2, 3, 4, 6)) == 0 and points("smallstraight", (1, 2, 3, 4, 6)) == 30


def test_banx_14_boom_fifty_for_five_of_a_kind():
    assert points("boom", (3, 3, 3, 3, 3)) == 50 and points("boom", (3, 3, 3, 3, 2)) == 0


def test_banx_15_no_joker_five_of_a_kind_is_no_house_or_straight():
    assert points("fullhouse", (2, 2, 2, 2, 2)) == 0
    assert points("smallstraight", (2, 2, 2, 2, 2)) == 0 and points("largestraight", (2, 2, 2, 2, 2)) == 0


def test_banx_19_top_bonus_from_sixty():
    sixty = {"aces": 3, "deuces": 6, "threes": 9, "fours": 12, "fives": 15, "sixers": 15}
    assert top_total(sixty) == 110
    assert top_total({**sixty, "aces": 2}) == 59


def test_banx_20_bottom_total_plus_fifty_per_x():
    bottom = {"3kind": 22, "4kind": 14, "fullhouse": 20, "smallstraight": 30, "largestraight": 40, "boom": 50,
              "chance": 16}
    assert bottom_total(bottom, 0) == 192 and bottom_total(bottom, 2) == 292


def test_example_5_final_tally():
    sheet_ = {"aces": 3, "deuces": 6, "threes": 12, "fours": 12, "fives": 15, "sixers": 18, "3kind": 22,
              "4kind": 14, "fullhouse": 20, "smallstraight": 30, "largestraight": 40, "boom": 50, "chance": 16}
    assert top_total(sheet_) == 116
    assert bottom_total(sheet_, 1) == 242
    assert final_score(sheet_, 1, 0) == 358


def test_category_rows_sorted_by_points_then_sheet_order_default_best():
    state = play(new_state(), Roll.of(2, 2, 2, 3, 3), "score")
    decision = state.expects()
    assert keys(state)[:5] == ["fullhouse", "3kind", "chance", "deuces", "threes"]
    assert decision.default == "fullhouse"
    assert decision.options[2].label == "Chance         12"
    assert all(len(o.label) <= 19 for o in decision.options)


# ----------------------------------------------------------------------------------------------- Extra BOOM

def boom_filled(value=50, **options):
    """Two players; Ana's first turn filled BOOM with `value` after roll 1 (+2 discs), Ben's turn played."""
    first = [5] * 5 if value else PLAIN
    return turn(turn(new_state(**options), first, category="boom"), PLAIN)


def test_banx_16_five_of_a_kind_after_boom_fifty_is_an_extra_boom():
    state = boom_filled().apply(Roll.of(6, 6, 6, 6, 6))
    notice = state.expects()
    assert isinstance(notice, Decision) and notice.kind == "confirm" and notice.question == "Extra BOOM! +50"
    state = state.apply(Choice("yes"))
    assert detail_of(state, 0)["extra_booms"] == 1
    assert state.scores()[0] == 50 + 50                      # BOOM and the X


def test_banx_16_edge_boom_scratched_no_extra_boom_by_default():
    state = boom_filled(0)
    assert sheet(state, 0)["BOOM"] == 0 and discs(state)[0] == 4
    state = state.apply(Roll.of(5, 5, 5, 5, 5))
    assert keys(state) == ["score", "roll"]                    # no Extra BOOM notice
    state = state.apply(Choice("score"))
    assert "boom" not in keys(state)
    offered = offered_points(state)
    assert {k: offered[k] for k in ("fives", "3kind", "4kind", "chance")} == {
        "fives": 25, "3kind": 25, "4kind": 25, "chance": 25}


def test_banx_16_option_extra_boom_needs_50_off_counts_a_scratched_boom():
    state = boom_filled(0, extra_boom_needs_50=False).apply(Roll.of(5, 5, 5, 5, 5))
    assert state.expects().kind == "confirm"
    assert detail_of(play(state, "yes"), 0)["extra_booms"] == 1


def test_banx_17_the_x_is_taken_automatically_both_buttons_continue():
    state = boom_filled().apply(Roll.of(6, 6, 6, 6, 6))
    for answer in ("yes", "no"):
        after = state.apply(Choice(answer))
        assert detail_of(after, 0)["extra_booms"] == 1 and isinstance(after.expects(), RollRequest)


def test_banx_17_option_extra_boom_optional_lets_the_player_score_the_dice():
    state = boom_filled(extra_boom_optional=True).apply(Roll.of(6, 6, 6, 6, 6))
    assert [o.label for o in state.expects().options] == ["Take the X +50", "Score the dice"]
    state = play(state, "no")
    assert detail_of(state, 0)["extra_booms"] == 0 and keys(state) == ["score", "roll"]
    state = play(state, "score", "sixers")
    assert sheet(state, 0)["Sixers"] == 30


def test_banx_18_after_an_x_all_five_again_same_roll_no_no_disc_paid():
    """Edge case: five of a kind with BOOM 50 on roll 3 while holding 0 discs."""
    state = turn(new_state(), PLAIN, PLAIN_REROLL, PLAIN_REROLL, PLAIN_REROLL, ([4], [4, 4, 4, 4]),
                 category="boom")                           # Ana pays both discs, BOOM 50 after roll 5
    state = turn(state, PLAIN)
    state = play(state, Roll.of(*PLAIN), "roll", kept_roll([4], [1, 2, 3, 6]), "roll", kept_roll([4], [4, 4, 4, 4]))
    assert discs(state)[0] == 0 and state.roll_no == 3
    state = state.apply(Choice("yes"))
    request = state.expects()
    assert isinstance(request, RollRequest) and state.roll_no == 3 and "roll 3" in request.context
    assert discs(state)[0] == 0 and state.detail()["supply"] == 16      # +2 from Ana, -2 to Ben
    assert_refused(state, kept_roll([4], [1, 2, 3, 6]), ImplausibleRollError, "BANX-18")
    state = state.apply(Roll.of(*PLAIN))
    assert keys(state) == ["score"]                            # still roll 3, no disc: no fourth roll


def test_banx_18_two_extra_booms_in_one_turn():
    state = play(boom_filled(), Roll.of(6, 6, 6, 6, 6), "yes", Roll.of(2, 2, 2, 2, 2), "yes", Roll.of(*PLAIN))
    assert detail_of(state, 0)["extra_booms"] == 2 and state.roll_no == 1
    state = play(state, "score", "chance")
    assert discs(state)[0] == 6                                # scored after roll 1: +2 again


def test_banx_29_extra_boom_cap_scores_five_of_a_kind_like_any_roll():
    state = play(boom_filled(extra_boom_cap=1), Roll.of(6, 6, 6, 6, 6), "yes", Roll.of(2, 2, 2, 2, 2))
    assert detail_of(state, 0)["extra_booms"] == 1
    assert keys(state) == ["score", "roll"]
    state = state.apply(Choice("score"))
    assert offered_points(state)["deuces"] == 10 and offered_points(state)["fullhouse"] == 0
    no_room = boom_filled(extra_boom_cap=0).apply(Roll.of(6, 6, 6, 6, 6))
    assert keys(no_room) == ["score", "roll"]


def test_edge_five_of_a_kind_with_boom_open_offers_boom_and_no_x():
    state = play(new_state(), Roll.of(4, 4, 4, 4, 4))
    assert keys(state) == ["score", "roll"]
    offered = offered_points(play(state, "score"))
    assert keys(play(state, "score"))[0] == "boom"
    assert {k: offered[k] for k in ("boom", "3kind", "4kind", "chance", "fours", "fullhouse")} == {
        "boom": 50, "3kind": 20, "4kind": 20, "chance": 20, "fours": 20, "fullhouse": 0}


# ------------------------------------------------------------------------------------------ worked examples

def four_players_mid_game():
    """Examples 1-3 start here: round 1 played with no disc won or paid; Cy filled BOOM with 50."""
    state = new_state(FOUR)
    for seat in range(4):
        if seat == 2:
            state = turn(state, [4] * 5, ([4] * 4, [4]), ([4] * 4, [4]), category="boom")
        else:
            state = turn(state, PLAIN, PLAIN_REROLL, PLAIN_REROLL, category="aces")
    assert discs(state) == [2, 2, 2, 2] and state.detail()["supply"] == 12 and sheet(state, 2)["BOOM"] == 50
    return state


def example_1(state):
    state = play(state, Roll.of(3, 3, 3, 5, 6), "roll", kept_roll([3, 3, 3], [3, 2]), "score")
    offered = offered_points(state)
    assert {k: offered[k] for k in ("4kind", "3kind", "chance", "threes", "fullhouse")} == {
        "4kind": 14, "3kind": 14, "chance": 14, "threes": 12, "fullhouse": 0}
    return state.apply(Choice("4kind"))


def example_2(state):
    state = play(state, Roll.of(2, 3, 4, 6, 6), "roll", kept_roll([2, 3, 4, 6], [1]),
                 "roll", kept_roll([1, 2, 3, 4], [6]), "pay")
    assert discs(state)[1] == 1 and state.detail()["supply"] == 12
    state = play(state, kept_roll([1, 2, 3, 4], [5]), "score")
    assert offered_points(state)["largestraight"] == 40
    return state.apply(Choice("largestraight"))


def example_3(state):
    state = state.apply(Roll.of(4, 4, 4, 4, 4))
    assert state.expects().kind == "confirm"
    state = state.apply(Choice("yes"))
    assert detail_of(state, 2)["extra_booms"] == 1 and state.roll_no == 1
    return play(state, Roll.of(1, 2, 2, 5, 6), "score", "chance")


def test_example_1_ana_four_of_a_kind_after_roll_2():
    state = example_1(four_players_mid_game())
    assert sheet(state, 0)["4 of a Kind"] == 14
    assert discs(state)[0] == 3 and state.detail()["supply"] == 11 and state.status() == "Supply 11"


def test_example_2_ben_pays_for_roll_4_large_straight_no_reward():
    state = example_2(example_1(four_players_mid_game()))
    assert sheet(state, 1)["Large Straight"] == 40
    assert discs(state)[1] == 1 and state.detail()["supply"] == 12


def test_example_3_cy_extra_boom_then_chance_after_roll_1():
    state = example_3(example_2(example_1(four_players_mid_game())))
    assert sheet(state, 2)["Chance"] == 16 and detail_of(state, 2)["extra_booms"] == 1
    assert discs(state)[2] == 4 and state.detail()["supply"] == 10


def example_6_shootout():
    """Four players whose discs end Ana 3, Ben 1, Cy 4, Dee 0 (supply 12), at the start of the Shootout."""
    extra = {0: {0: 2}, 1: {0: 4}, 2: {0: 1}, 3: {0: 4, 1: 4}}       # seat -> {turn: rolls}; others roll 3 times
    state = play_main(new_state(FOUR), lambda seat, turn_no: extra[seat].get(turn_no, 3))
    assert discs(state) == [3, 1, 4, 0] and state.detail()["supply"] == 12
    return state


def test_example_6_banx_24_order_banx_27_only_the_highest_total_recorded():
    state = example_6_shootout()
    assert state.phase == "SHOOTOUT" and state.detail()["order"] == [3, 1, 0, 2]   # Dee, Ben, Ana, Cy
    before = state.scores()
    assert state.expects().player == 1                         # Dee has no roll
    state = state.apply(Roll.of(6, 5, 4, 2, 1))
    assert state.expects().player == 0                         # Ben's one roll is used up
    state = play(state, Roll.of(6, 6, 3, 2, 1), "roll", kept_roll([6, 6], [5, 4, 3]))
    assert detail_of(state, 0)["shootout"] == 24 and keys(state) == ["roll", "stop"]
    state = play(state, "stop", Roll.of(6, 6, 6, 1, 1), "roll")
    tie = play(state, kept_roll([6, 6, 6], [4, 2]), "stop")
    state = play(state, kept_roll([6, 6, 6], [6, 2]), "stop")
    assert [p["shootout"] for p in state.detail()["players"]] == [24, 18, 26, 0]
    assert state.detail()["phase"] == "OVER" and state.expects() is None
    assert [a - b for a, b in zip(state.scores(), before)] == [0, 0, 26, 0]
    assert [a - b for a, b in zip(tie.scores(), before)] == [24, 0, 24, 0]


# ------------------------------------------------------------------------------------------------ Shootout

def test_banx_23_shootout_starts_when_every_sheet_is_full_and_discs_show():
    state = new_state()
    for _ in range(25):
        state = turn(state, PLAIN, PLAIN_REROLL, PLAIN_REROLL)
    assert state.phase == "MAIN" and state.status() == "Supply 16"
    state = play(state, Roll.of(*PLAIN), "score")
    assert len(keys(state)) == 1
    state = state.apply(Choice(keys(state)[0]))
    assert state.phase == "SHOOTOUT" and all(None not in sheet(state, s).values() for s in (0, 1))
    assert state.status() == "Discs 2  Rolls 2"


def test_edge_last_category_is_the_only_choice():
    state = new_state()
    for _ in range(24):
        state = turn(state, PLAIN)
    state = play(state, Roll.of(*PLAIN), "score")
    open_ = [name for name, v in sheet(state, 0).items() if v is None]
    assert len(open_) == 1 and len(keys(state)) == 1 and state.expects().default == keys(state)[0]


def test_banx_24_equal_discs_in_seat_order_from_the_first_player():
    state = play_main(new_state(FOUR[:3], first=1))
    assert discs(state) == [2, 2, 2]
    assert state.detail()["order"] == [1, 2, 0] and state.expects().player == 1


def test_banx_25_one_roll_per_disc_stop_early_total_of_last_roll():
    state = play_main(new_state())                              # both hold 2 discs
    state = play(state, Roll.of(6, 6, 6, 5, 5), "roll", Roll.of(1, 1, 2, 1, 1))
    assert detail_of(state, 0)["shootout"] == 6                # the last roll counts, not the best
    assert state.expects().player == 1                         # two discs, two rolls, no third
    state = play(state, Roll.of(3, 3, 3, 3, 3), "stop")        # one roll left unused
    assert state.phase == "OVER" and detail_of(state, 1)["shootout"] == 15


def test_banx_25_shootout_free_first_roll_option_adds_a_roll():
    state = play_main(new_state(shootout_free_first_roll=True))
    assert state.status() == "Discs 2  Rolls 3"
    state = play(state, Roll.of(*PLAIN), "roll", kept_roll([6], [1, 1, 1, 1]), "roll")
    assert_refused(state, kept_roll([2], [1, 1, 1, 1]), ImplausibleRollError, "BANX-3")
    state = state.apply(kept_roll([1, 1, 1, 1], [5]))
    assert state.expects().player == 1 and detail_of(state, 0)["shootout"] == 9


def test_banx_26_and_edge_nobody_holds_a_disc_everyone_records_zero():
    state = play_main(new_state(), lambda seat, turn_no: 5 if turn_no == 0 else 3)
    assert discs(state) == [0, 0] and state.detail()["supply"] == 20
    assert state.phase == "OVER" and state.expects() is None
    assert [p["shootout"] for p in state.detail()["players"]] == [0, 0]
    assert state.scores() == [sum(sheet(state, s).values()) for s in (0, 1)]     # top < 60, no X, no entry
    free = play_main(new_state(shootout_free_first_roll=True), lambda seat, turn_no: 5 if turn_no == 0 else 3)
    assert free.phase == "SHOOTOUT" and free.status() == "Discs 0  Rolls 1"


def test_banx_21_equal_finals_share_the_win():
    state = play_main(new_state())
    state = play(state, Roll.of(*PLAIN), "stop", Roll.of(2, 3, 4, 6, 1), "stop")
    outcome = state.outcome()
    assert outcome.scores[0] == outcome.scores[1] and outcome.winners == (0, 1)
    assert outcome.scores == tuple(state.scores())


def test_banx_21_highest_final_wins():
    state = play_main(new_state())
    state = play(state, Roll.of(*PLAIN), "stop", Roll.of(6, 6, 6, 6, 6), "stop")
    assert state.outcome().winners == (1,)
    assert state.outcome().scores[1] - state.outcome().scores[0] == 30


def test_banx_28_shootout_five_of_a_kind_is_only_a_sum():
    state = turn(new_state(), [5] * 5, category="boom")        # Ana: BOOM 50, 4 discs
    state = play_main(state)
    assert state.detail()["order"] == [1, 0]
    state = play(state, Roll.of(*PLAIN), "stop", Roll.of(6, 6, 6, 6, 6))
    assert keys(state) == ["roll", "stop"]                     # no Extra BOOM, no category
    assert detail_of(state, 0)["extra_booms"] == 0 and detail_of(state, 0)["shootout"] == 30


def test_banx_30_first_shootout_roll_is_compulsory_then_roll_or_stop():
    state = play_main(new_state())
    assert isinstance(state.expects(), RollRequest)
    assert_refused(state, Choice("stop"), IllegalActionError)
    state = state.apply(Roll.of(*PLAIN))
    decision = state.expects()
    assert keys(state) == ["roll", "stop"] and decision.default == "roll" and decision.question == "1 2 3 4 6 = 16"
    state = play(state, "roll", kept_roll([6], [6, 6, 6, 6]))
    assert isinstance(state.expects(), RollRequest) and state.expects().player == 1   # out of rolls: no choice


def test_banx_31_shootout_rolls_are_counted_not_paid():
    state = example_6_shootout()
    state = play(state, Roll.of(6, 5, 4, 2, 1), Roll.of(6, 6, 3, 2, 1), "roll", Roll.of(*PLAIN), "roll",
                 Roll.of(*PLAIN), Roll.of(*PLAIN), "roll", Roll.of(*PLAIN), "stop")
    assert state.phase == "OVER"
    assert discs(state) == [3, 1, 4, 0] and state.detail()["supply"] == 12


# ------------------------------------------------------------------------------------ hidden info, camera, undo

def test_banx_22_disc_counts_hidden_unless_open_discs():
    hidden = play(new_state(), Roll.of(*PLAIN), "score", "chance")
    assert hidden.status() == "Supply 14"
    opened = play(new_state(open_discs=True), Roll.of(*PLAIN), "score", "chance")
    assert opened.status() == "Supply 14  Discs 2"             # Ben's, whose turn it is


def test_other_colours_are_ignored_and_plain_dice_count_as_the_active_players():
    state = new_state(FOUR[:3])
    roll = Roll(tuple(Die(v, owner="red") for v in (1, 1, 2, 2, 3)) + tuple(Die(6, owner="blue") for _ in range(5))
                + (Die(4, owner="green"),))
    assert state.apply(roll).detail()["dice"] == [1, 1, 2, 2, 3]
    mixed = Roll((Die(5), Die(5, owner="red"), Die(5), Die(1, owner="red"), Die(2)))
    assert state.apply(mixed).detail()["dice"] == [1, 2, 5, 5, 5]
    assert_refused(state, Roll.of(6, 6, 6, 6, 6, owner="blue"), ImplausibleRollError, "BANX-2",
                   "0 red dice: need 5")


def test_edge_a_sixth_die_of_the_active_colour_is_refused():
    state = play(new_state(), Roll.of(*PLAIN), "roll")
    assert_refused(state, kept_roll([1, 2, 3, 4], [6, 5]), ImplausibleRollError, "BANX-2", "6 red dice: need 5")
    assert_refused(state, Roll.of(1, 2, 3, 4, 5, 6, owner="red"), ImplausibleRollError, "BANX-2")


def test_unreadable_off_the_mat_and_unknown_faces_are_refused():
    state = new_state()
    assert_refused(state, Roll((Die(1), Die(2), Die(3), Die(4), Die(5, zone="off"))), ImplausibleRollError,
                   message="re-roll 1 die off the mat")
    assert_refused(state, Roll((Die(1), Die(None), Die(3), Die(4), Die(5))), ImplausibleRollError,
                   message="die 2 unreadable: check it")
    assert_refused(state, Roll.of(1, 2, 3, 4, 7), ImplausibleRollError, message="no die face 7")
    assert_refused(state, Roll((Die(1), Die(2), Die(3), Die(4), Die(kind="symbol", face="sweet"))),
                   ImplausibleRollError, "BANX-2")
    assert_refused(state, Roll.of(*PLAIN, player=1), ImplausibleRollError)
    assert_refused(state, Choice("score"), IllegalActionError)


def test_faces_option_sets_the_die_faces():
    state = new_state(faces=(0, 1, 2, 3, 4, 5))
    assert state.apply(Roll.of(0, 1, 2, 3, 4)).detail()["dice"] == [0, 1, 2, 3, 4]
    assert_refused(state, Roll.of(1, 2, 3, 4, 6), ImplausibleRollError, message="no die face 6")


def test_edge_undo_of_a_score_reopens_the_category_and_returns_the_discs():
    events = [Roll.of(3, 3, 3, 5, 6), Choice("score"), Choice("3kind")]
    state = new_state()
    states = [state]
    for event in events:
        states.append(states[-1].apply(event))
    scored, before = states[-1], states[-2]
    assert sheet(scored, 0)["3 of a Kind"] == 20 and discs(scored)[0] == 4 and scored.detail()["supply"] == 14
    # Undo replays the journal without its last event: that is the state before the score, left untouched.
    replayed = play(new_state(), *events[:-1])
    assert replayed.detail() == before.detail()
    assert sheet(before, 0)["3 of a Kind"] is None and discs(before)[0] == 2 and before.detail()["supply"] == 16
    assert "3kind" in keys(before) and before.expects() == replayed.expects()


def test_describe_names_the_event_for_undo():
    state = play(new_state(), Roll.of(1, 2, 2, 5, 6), "score")
    assert state.describe(Choice("chance")) == "Chance 16"
    assert play(new_state(keep_input="buttons"), Roll.of(*PLAIN), "roll").describe(Choice(("d1", "d2"))) == \
        "re-roll 2 dice"
    assert new_state().describe(Roll.of(3, 3, 5)) == "roll 3 3 5"
