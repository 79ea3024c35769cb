"""Countaloupe rules (rules/countaloupe.md): one test per rule ID, the worked examples, the edge cases and the demo."""
import json
import pathlib

import pytest

import companion
from companion.cli import main
from companion.games import (Choice, Decision, Die, IllegalActionError, ImplausibleRollError, Roll, RollRequest,
                             Setup, event_from_json, new_game)
from companion.games.countaloupe import dice_for, penalised, run_from
from companion.games.odds import makeable_values

CHANCE = {"-": "blank", "S": "sweet", "O": "sour", "N": "nope"}
DEMO = pathlib.Path(companion.__file__).parent / "demos" / "countaloupe.jsonl"


def game(players=("Ana", "Ben", "Cy"), colours=("red", "blue", "green"), first=0, **options):
    return new_game(Setup("countaloupe", tuple(players), first, tuple(colours), options))


def roll(*values, chance="-"):
    """Numbered dice and the Chance Die, marked as on screen (UI-11): - blank, S Sweet, O Sour, N Nope."""
    return Roll(tuple(Die(v) for v in values) + (Die(kind="symbol", face=CHANCE[chance]),))


def position(g, next=None, holds=None, held_by=None, on=None, active=0, total=None):
    """A mid-game position: `next` per deck colour, `holds` player name -> colour, the chip held by a player name or
    on a deck colour, the active seat and the multi-round totals."""
    s = g.new_initial_state()
    for colour, value in (next or {}).items():
        s.next[g.decks.index(colour)] = value
    for name, colour in (holds or {}).items():
        s.holds[g.players.index(name)] = g.decks.index(colour)
    if held_by is not None:
        s.chip_holder = g.players.index(held_by)
    if on is not None:
        s.chip_deck = g.decks.index(on)
    s.active = active
    if total is not None:
        s.total = list(total)
    return s


def commit(s, count=None):
    """Answer discard steps (all of them by default); return the state and the cards discarded."""
    cards = []
    while isinstance(s.expects(), Decision) and s.expects().kind == "confirm" and count != len(cards):
        cards.append(int(s.expects().question.split()[1]))
        s = s.apply(Choice("yes"))
    return s, cards


def nexts(s):
    return s.detail()["next"]


def interrupt_keys(s):
    return [i.option.key for i in s.interrupts()]


# ------------------------------------------------------------------------------------------------------ rules

def test_cl_1_play_passes_to_the_left():
    s = game().new_initial_state()
    seen = []
    for _ in range(4):
        seen.append(s.active)
        s = s.apply(roll(6, 6, 6))  # 1 is not makeable: an empty first roll ends the turn
    assert seen == [0, 1, 2, 0]


def test_cl_2_a_deck_keeps_its_pile_when_it_changes_hands():
    g = game()
    s = position(g, next={"red": 12, "blue": 5, "green": 9}, active=2)
    s = s.apply(roll(1, 1, 1, 1, chance="S")).apply(Choice("p1"))
    assert s.detail()["holds"] == {"Ana": "red", "Ben": "green", "Cy": "blue"}
    assert nexts(s) == {"red": 12, "blue": 5, "green": 9}


def test_cl_3_cards_leave_from_the_top_in_order():
    s = game().new_initial_state().apply(roll(1, 2, 4))
    s, cards = commit(s)
    assert cards == [1, 2, 3, 4, 5, 6, 7]
    assert nexts(s)["red"] == 8


@pytest.mark.parametrize("next_card, k", [(1, 3), (6, 3), (7, 4), (11, 4), (12, 5), (16, 5)])
def test_cl_4_numbered_dice_follow_next_and_the_chance_die_joins(next_card, k):
    g = game()
    request = position(g, next={"red": next_card}).expects()
    assert dice_for(next_card) == k
    assert isinstance(request, RollRequest) and request.dice == {"pips": k, "symbol": 1}


def test_cl_5_passing_seven_adds_no_die_to_the_roll_made():
    g = game()
    s = position(g, next={"red": 6}).apply(roll(1, 2, 4))
    s, cards = commit(s)
    assert cards == [6, 7]  # 3 dice still: 8 = 1+2+4+... is not makeable, the run stops
    s = s.apply(Choice("risk"))
    assert s.expects().dice == {"pips": 4, "symbol": 1}
    with pytest.raises(ImplausibleRollError):
        s.apply(roll(1, 2, 4))


def test_cl_6_a_value_is_one_die_or_a_sum_of_dice():
    assert makeable_values([2, 5]) == {2, 5, 7}
    assert run_from(5, (2, 5)) == (5,)     # 5 by one die, then 6 is neither a die nor a sum
    assert run_from(7, (2, 5)) == (7,)     # 7 by a sum
    assert run_from(3, (2, 5)) == ()


def test_cl_7_each_die_once_per_sum_but_again_for_later_cards():
    assert 8 not in makeable_values([4, 1])    # no 4 + 4
    assert run_from(1, (1, 2, 4)) == (1, 2, 3, 4, 5, 6, 7)  # 1 and 2 make 1, 2 and again 3


def test_cl_8_the_run_stops_at_the_first_gap():
    assert makeable_values([1, 1, 5]) == {1, 2, 5, 6, 7}
    s = game().new_initial_state().apply(roll(1, 1, 5))
    s, cards = commit(s)
    assert cards == [1, 2]  # 5, 6 and 7 are makeable but come after the gap at 3


def test_cl_9_an_empty_first_roll_ends_the_turn_with_nothing_returned():
    g = game()
    s = position(g, next={"red": 5}).apply(roll(1, 1, 1))
    assert nexts(s)["red"] == 5 and s.active == 1
    assert isinstance(s.expects(), RollRequest)


def test_cl_10_end_or_risk_after_every_non_empty_run_without_limit():
    s = game().new_initial_state()
    for dice in [(1, 1, 6), (3, 4, 6), (5, 6, 6)]:
        s, _ = commit(s.apply(roll(*dice)))
        assert [o.key for o in s.expects().options] == ["end", "risk"]
        assert s.expects().default == "end"
        s = s.apply(Choice("risk"))
    assert s.roll_no == 3 and nexts(s)["red"] == 7


def test_cl_11_no_risk_after_an_empty_run():
    s = game().new_initial_state().apply(roll(2, 2, 2))
    assert isinstance(s.expects(), RollRequest) and s.active == 1
    with pytest.raises(IllegalActionError):
        s.apply(Choice("risk"))


@pytest.mark.parametrize("before, after", [(1, 1), (2, 1), (8, 1), (9, 9), (10, 9), (16, 9)])
def test_cl_12_penalty_on_a_failed_risk_roll(before, after):
    assert penalised(before) == after
    g = game()
    s = position(g, next={"red": before})
    s.roll_no = 1  # a risk roll
    s = s.apply(roll(*[6] * dice_for(before)))  # sixes make none of these values
    assert nexts(s)["red"] == after and s.active == 1
    assert "penalty" in s.status()


def test_cl_13_chance_die_acts_before_the_numbered_dice():
    g = game()
    s = position(g, next={"red": 3}, on="red")  # Ana's own deck is blocked
    s = s.apply(roll(3, 4, 5, chance="N"))    # the Nope lifts the chip first, so 3, 4, 5 count
    s, cards = commit(s)
    assert cards == [3, 4, 5] and s.detail()["chip"] == "HELD(Ana)"


def test_cl_14_blank_has_no_effect():
    g = game()
    s = position(g, held_by="Ben").apply(roll(1, 2, 3))
    assert s.detail()["chip"] == "HELD(Ben)" and s.detail()["holds"]["Ana"] == "red"
    assert s.expects().question == "Discard 1"


def test_cl_15_sweet_swap_ends_the_turn_and_keep_plays_the_dice():
    g = game()
    s = position(g, next={"red": 1, "blue": 10}).apply(roll(1, 2, 3, chance="S"))
    assert s.expects().question == "Sweet: swap decks?" and s.expects().default == "keep"
    swapped = s.apply(Choice("p1"))
    assert swapped.detail()["holds"]["Ana"] == "blue" and swapped.active == 1
    assert nexts(swapped) == {"red": 1, "blue": 10, "green": 1}  # the dice were ignored
    kept, cards = commit(s.apply(Choice("keep")))
    assert cards == [1, 2, 3, 4, 5, 6]


def test_cl_16_sweet_cannot_take_the_chip_holders_deck():
    g = game(players=("Ana", "Ben"), colours=("red", "blue"))
    s = position(g, held_by="Ben").apply(roll(1, 2, 3, chance="S"))
    options = s.expects().options
    assert s.expects().legal_keys() == ("keep",)  # edge case: with 2 players only Keep is offered
    assert [(o.key, o.enabled, o.reason) for o in options][1] == ("p1", False, "holds the chip")  # UI-6 brackets
    with pytest.raises(IllegalActionError):
        s.apply(Choice("p1"))
    assert s.detail()["holds"] == {"Ana": "red", "Ben": "blue"}


def test_cl_17_a_blocked_deck_may_be_swapped_and_stays_blocked():
    g = game()
    s = position(g, next={"red": 4, "blue": 10}, on="red")  # Ana's own deck is blocked
    s = s.apply(roll(1, 2, 3, chance="S")).apply(Choice("p1"))
    assert s.detail()["holds"] == {"Ana": "blue", "Ben": "red", "Cy": "green"}
    assert s.detail()["chip"] == "ON(red)"
    s = s.apply(roll(4, 5, 6))  # Ben now holds the blocked red deck: nothing can be discarded
    assert nexts(s)["red"] == 4 and s.active == 2


def test_cl_18_sour_swaps_with_the_lowest_other_even_the_chip_holder():
    g = game()
    s = position(g, next={"red": 12, "blue": 5, "green": 9}, held_by="Ben")
    s = s.apply(roll(1, 3, 4, 6, 6, chance="O"))
    assert s.detail()["holds"] == {"Ana": "blue", "Ben": "red", "Cy": "green"}
    assert s.detail()["chip"] == "HELD(Ben)" and s.active == 1


def test_cl_18_sour_tie_lets_the_roller_choose_first_clockwise_by_default():
    g = game(players=("Ana", "Ben", "Cy", "Dee"), colours=("red", "blue", "green", "yellow"))
    s = position(g, next={"red": 9, "blue": 4, "green": 7, "yellow": 4}, active=2)
    s = s.apply(roll(1, 2, 3, 4, chance="O"))
    decision = s.expects()
    assert decision.question == "Sour: swap with?" and decision.legal_keys() == ("p3", "p1")
    assert decision.default == "p3"  # Dee is first clockwise from Cy
    s = s.apply(Choice("p1"))
    assert s.detail()["holds"]["Cy"] == "blue" and s.active == 3


@pytest.mark.parametrize("own", [3, 4])
def test_cl_19_sour_keeps_when_the_roller_is_lowest_or_tied(own):
    g = game()
    s = position(g, next={"red": own, "blue": 4, "green": 8})
    s.roll_no = 1
    failed = s.apply(roll(6, 6, 6, chance="O"))  # kept deck, empty risk run: the penalty still applies
    assert failed.detail()["holds"]["Ana"] == "red" and nexts(failed)["red"] == 1
    s, cards = commit(s.apply(roll(own, 1, 6, chance="O")))
    assert cards[0] == own


def test_cl_20_a_swap_on_a_risk_roll_costs_no_penalty():
    g = game()
    s = position(g, next={"red": 10, "blue": 3, "green": 5})
    s.roll_no = 1
    s = s.apply(roll(6, 6, 6, 6, chance="O"))  # 10 is not makeable, but the Sour swap voids the dice
    assert nexts(s) == {"red": 10, "blue": 3, "green": 5}
    assert s.detail()["holds"]["Ana"] == "blue" and s.active == 1


@pytest.mark.parametrize("chip, expected", [
    ({}, "HELD(Ana)"),                          # MIDDLE
    ({"held_by": "Ben"}, "HELD(Ana)"),           # held by another
    ({"held_by": "Ana"}, "HELD(Ana)"),           # already held by the roller: no change
    ({"on": "red"}, "HELD(Ana)"),                # on the roller's own deck: it comes off
])
def test_cl_21_nope_gives_the_chip_to_the_roller(chip, expected):
    s = position(game(), **chip).apply(roll(1, 2, 3, chance="N"))
    assert s.detail()["chip"] == expected
    assert s.expects().question == "Discard 1"  # this same roll is evaluated


def test_cl_21_nope_on_another_players_deck_offers_leave_or_take():
    g = game()
    s = position(g, next={"red": 1}, on="blue").apply(roll(1, 2, 3, chance="N"))
    decision = s.expects()
    assert decision.question == "Chip on blue" and decision.legal_keys() == ("leave", "take")
    assert decision.default == "leave"
    left = s.apply(Choice("leave"))
    assert left.detail()["chip"] == "ON(blue)" and left.expects().question == "Discard 1"
    taken = s.apply(Choice("take"))
    assert taken.detail()["chip"] == "HELD(Ana)" and taken.expects().question == "Discard 1"


def test_cl_22_no_discard_from_a_deck_with_the_chip_on_it():
    g = game()
    # edge case: Sour hands Ana the lowest other deck although it is blocked
    s = position(g, next={"red": 9, "blue": 3, "green": 5}, on="blue")
    s = s.apply(roll(1, 2, 3, 4, chance="O"))
    assert s.detail()["holds"]["Ana"] == "blue" and s.detail()["chip"] == "ON(blue)"
    s = s.apply(roll(6, 6, 6, 6)).apply(roll(6, 6, 6))  # Ben (red 9), then Cy (green 5): empty runs
    s = s.apply(roll(3, 4, 5))
    assert nexts(s)["blue"] == 3 and s.active == 1 and s.status() == "deck blocked"


def test_cl_23_the_holder_blocks_another_players_deck():
    g = game()
    s = position(g, held_by="Cy")
    assert interrupt_keys(s) == ["block:0", "block:1"]  # active player first, then clockwise
    assert [i.player for i in s.interrupts()] == [2, 2]
    assert s.interrupts()[1].option.label == "Block Ben"
    # edge case: a block on a non-active deck between turns; Ana plays on, Ben's next turn discards nothing
    s = s.apply(Choice("block:1", player=2))
    assert s.detail()["chip"] == "ON(blue)" and s.active == 0 and interrupt_keys(s) == []
    s = s.apply(roll(6, 6, 6)).apply(roll(1, 2, 3))
    assert nexts(s)["blue"] == 1 and s.active == 2


def test_cl_24_blocking_the_active_player_ends_the_turn_keeping_committed_cards():
    g = game()
    s = position(g, held_by="Ben").apply(roll(1, 2, 4))
    s, cards = commit(s, 3)
    assert cards == [1, 2, 3] and s.expects().question == "Discard 4"
    s = s.apply(Choice("block:0", player=1))
    assert nexts(s)["red"] == 4 and s.active == 1 and s.roll_no == 0  # no penalty, card 4 onward cancelled
    assert s.detail()["chip"] == "ON(red)"


def test_cl_24_block_after_the_last_card_but_before_end_or_risk():
    g = game()
    s, _ = commit(position(g, held_by="Cy").apply(roll(1, 1, 6)))
    assert s.expects().question.startswith("Risk")
    s = s.apply(Choice("block:0", player=2))
    assert isinstance(s.expects(), RollRequest) and s.active == 1 and nexts(s)["red"] == 3


def test_cl_25_no_block_while_a_chance_die_choice_is_open():
    g = game()
    s = position(g, held_by="Cy").apply(roll(1, 2, 3, chance="S"))
    assert s.interrupts() == ()
    with pytest.raises(IllegalActionError):
        s.apply(Choice("block:0", player=2))
    assert interrupt_keys(s.apply(Choice("keep"))) == ["block:0", "block:1"]


def test_cl_25_a_nope_accepted_first_takes_the_chip_before_a_block():
    g = game()
    s = position(g, held_by="Ben").apply(roll(1, 2, 3, chance="N"))
    assert s.detail()["chip"] == "HELD(Ana)"
    assert [i.player for i in s.interrupts()] == [0, 0]  # only Ana may block now
    with pytest.raises(IllegalActionError):
        s.apply(Choice("block:0", player=1))


def test_cl_25_a_block_before_the_roll_ends_the_turn_and_the_roll_is_the_next_players():
    g = game()
    s = position(g, held_by="Ben").apply(Choice("block:0", player=1))
    assert s.active == 1 and s.expects().player == 1
    with pytest.raises(ImplausibleRollError) as refused:  # a roll known to be Ana's is ignored
        s.apply(Roll(roll(1, 2, 3).dice, player=0))
    assert str(refused.value) == "Ben rolls now"
    s, cards = commit(s.apply(roll(1, 2, 3)))
    assert cards == [1, 2, 3, 4, 5, 6] and nexts(s)["red"] == 1


def test_cl_25_discard_steps_auto_advance_unless_strict():
    s = game().new_initial_state().apply(roll(1, 2, 4))
    assert s.expects().auto_ms == 800
    assert game(discard_step_ms=500).new_initial_state().apply(roll(1, 2, 4)).expects().auto_ms == 500
    strict = game(strict_steps=True).new_initial_state().apply(roll(1, 2, 4))
    assert strict.expects().auto_ms is None and strict.expects().kind == "confirm"
    assert commit(s)[0].expects().auto_ms is None  # End/Risk is never automatic


def test_cl_26_the_holder_cannot_block_their_own_deck():
    g = game()
    s = position(g, held_by="Ana")
    assert interrupt_keys(s) == ["block:1", "block:2"]
    with pytest.raises(IllegalActionError):
        s.apply(Choice("block:0", player=0))


def test_cl_27_card_16_of_the_held_deck_wins_at_once_whatever_its_colour():
    g = game()
    s = position(g, next={"blue": 14}, holds={"Ana": "blue", "Ben": "red"})
    s, cards = commit(s.apply(roll(2, 3, 4, 5, 6)))
    assert cards == [14, 15, 16]
    assert s.expects() is None and s.is_over  # edge case: no End/Risk prompt
    assert s.outcome().winners == (0,) and s.status() == "Ana wins"
    with pytest.raises(IllegalActionError):
        s.apply(Choice("end"))


def test_cl_28_wayward_dice_are_rerolled_alone_and_the_others_must_not_change():
    s = game().new_initial_state()
    partial = s.apply(Roll((Die(1), Die(zone="off"), Die(4), Die(kind="symbol", face="blank"))))
    assert partial.expects().message == "re-roll 1 die" and partial.status() == "re-roll 1 die"
    assert nexts(partial)["red"] == 1
    with pytest.raises(ImplausibleRollError) as refused:  # edge case: an in-area die changed value
        partial.apply(roll(1, 5, 3))
    assert refused.value.rule == "CL-28"
    with pytest.raises(ImplausibleRollError):
        partial.apply(roll(1, 5, 4, chance="S"))  # the Chance Die stayed in the area too
    again = partial.apply(Roll((Die(4), Die(1), Die(kind="symbol", face="blank"), Die(5, zone="off"))))
    assert again.expects().message == "re-roll 1 die"
    s, cards = commit(again.apply(roll(5, 4, 1)))
    assert cards == [1]


def test_cl_29_wrong_dice_count_or_no_chance_die_is_rejected_and_nothing_applied():
    s = game().new_initial_state()
    before = s.detail()
    for bad in [roll(1, 2, 3, 4, 5), roll(1, 2), Roll.of(1, 2, 3),
                Roll(roll(1, 2, 3).dice + (Die(kind="symbol", face="nope"),))]:
        with pytest.raises(ImplausibleRollError) as refused:
            s.apply(bad)
        assert refused.value.rule == "CL-29" and str(refused.value) == "need 3 dice + C"
    assert s.detail() == before


def test_cl_30_round_scores_in_multi_round_mode():
    g = game(multi_round=True)
    s = position(g, next={"red": 14, "blue": 7, "green": 1})
    s, _ = commit(s.apply(roll(2, 3, 4, 5, 6)))
    assert s.scores() == [16, 6, 0]
    assert not s.is_over


def test_cl_31_next_round_fresh_decks_chip_middle_left_of_previous_first():
    g = game(multi_round=True, first=2)
    s = position(g, next={"blue": 14, "red": 3}, holds={"Ana": "blue", "Ben": "red"}, held_by="Ben", active=0)
    s, _ = commit(s.apply(roll(2, 3, 4, 5, 6)))
    detail = s.detail()
    assert detail["next"] == {"red": 1, "blue": 1, "green": 1}
    assert detail["holds"] == {"Ana": "red", "Ben": "blue", "Cy": "green"}
    assert detail["chip"] == "MIDDLE" and detail["round"] == 2
    assert detail["round_first"] == "Ana" and s.active == 0  # left of Cy, the previous first player
    assert detail["total"] == {"Ana": 16, "Ben": 2, "Cy": 0}


def test_cl_32_several_over_100_highest_wins():
    g = game(multi_round=True)
    s = position(g, next={"red": 14, "blue": 16}, total=[95, 90, 20])
    s, _ = commit(s.apply(roll(2, 3, 4, 5, 6)))
    assert s.scores() == [111, 105, 20] and s.outcome().winners == (0,)


def test_cl_32_an_exact_tie_for_highest_plays_another_round():
    g = game(multi_round=True)
    s = position(g, next={"red": 14, "blue": 12}, total=[90, 95, 20])
    s, _ = commit(s.apply(roll(2, 3, 4, 5, 6)))
    assert s.scores() == [106, 106, 20] and not s.is_over
    assert s.detail()["round"] == 2 and isinstance(s.expects(), RollRequest)


def test_cl_33_faces_outside_the_configured_dice_are_rejected():
    s = game().new_initial_state()
    for bad, message in [(roll(1, 2, 7), "no die face 7"),
                         (Roll(roll(1, 2, 3).dice[:3] + (Die(kind="symbol", face="melon"),)), "no Chance face melon"),
                         (Roll((Die(1), Die(None), Die(3), Die(kind="symbol", face="blank"))),
                          "die 2 unreadable: check it")]:
        with pytest.raises(ImplausibleRollError) as refused:
            s.apply(bad)
        assert str(refused.value) == message and refused.value.rule == "CL-33"
    d8 = game(number_faces=(1, 2, 3, 4, 5, 6, 7, 8)).new_initial_state()
    assert commit(d8.apply(roll(1, 8, 8)))[1] == [1]
    only_sour = game(chance_faces=("sour",) * 6).new_initial_state()
    with pytest.raises(ImplausibleRollError):
        only_sour.apply(roll(1, 2, 3))  # blank is not a face of this Chance Die


# ----------------------------------------------------------------------------------------- worked examples

def test_example_1_and_2_risk_and_the_milestone():
    g = game(colours=("blue", "red", "green"))
    s = g.new_initial_state().apply(roll(1, 2, 4))
    assert makeable_values([1, 2, 4]) == set(range(1, 8))
    s, cards = commit(s)
    assert cards == list(range(1, 8)) and nexts(s)["blue"] == 8
    assert s.apply(Choice("end")).active == 1  # example 1: Blue ends
    s = s.apply(Choice("risk"))             # example 2: Blue risks
    assert s.expects().dice == {"pips": 4, "symbol": 1}
    assert makeable_values([3, 3, 5, 6]) == {3, 5, 6, 8, 9, 11, 12, 14, 17}
    s, cards = commit(s.apply(roll(3, 3, 5, 6)))
    assert cards == [8, 9] and nexts(s)["blue"] == 10
    s = s.apply(Choice("risk")).apply(roll(1, 1, 2, 2))
    assert nexts(s)["blue"] == 9 and s.active == 1
    failed_at_8 = commit(g.new_initial_state().apply(roll(1, 2, 4)))[0].apply(Choice("risk"))
    assert nexts(failed_at_8.apply(roll(1, 1, 2, 2)))["blue"] == 1


def test_example_3_reconstructed_example_a():
    g = game(colours=("green", "red", "blue"))
    assert makeable_values([1, 5, 6]) == {1, 5, 6, 7, 11, 12}
    s, cards = commit(g.new_initial_state().apply(roll(1, 5, 6)))
    assert cards == [1]
    assert makeable_values([4, 4, 6]) == {4, 6, 8, 10, 14}
    s = s.apply(Choice("risk")).apply(roll(4, 4, 6))
    assert nexts(s)["green"] == 1 and s.active == 1


def play_examples_4_and_5(g):
    """Ana red 12, Ben blue 5 holding the chip, Cy green 9; Cy to play."""
    s = position(g, next={"red": 12, "blue": 5, "green": 9}, held_by="Ben", active=2)
    # Example 4: Sweet
    s = s.apply(roll(2, 2, 5, 6, chance="S"))
    assert [(o.key, o.enabled) for o in s.expects().options] == [("keep", True), ("p0", True), ("p1", False)]
    s = s.apply(Choice("p0"))
    assert s.detail()["holds"] == {"Ana": "green", "Ben": "blue", "Cy": "red"} and s.active == 0
    # Sour: Ana must swap with Ben although he holds the chip
    s = s.apply(roll(1, 3, 4, 6, chance="O"))
    assert s.detail()["holds"] == {"Ana": "blue", "Ben": "green", "Cy": "red"}
    assert s.detail()["chip"] == "HELD(Ben)" and s.active == 1
    # Ben
    assert makeable_values([4, 5, 5, 6]) == {4, 5, 6, 9, 10, 11, 14, 15, 16, 20}
    s, cards = commit(s.apply(roll(4, 5, 5, 6)))
    assert cards == [9, 10, 11]
    s = s.apply(Choice("end"))
    assert nexts(s) == {"red": 12, "blue": 5, "green": 12}
    # Example 5: Cy's empty first roll
    s = s.apply(roll(1, 1, 1, 2, 2))
    assert nexts(s)["red"] == 12 and s.active == 0
    # Ana: cards 5 and 6 commit; while 7 shows, Ben blocks her
    s, cards = commit(s.apply(roll(1, 4, 6)), 2)
    assert cards == [5, 6] and s.expects().question == "Discard 7"
    s = s.apply(Choice("block:0", player=1))
    assert nexts(s)["blue"] == 7 and s.detail()["chip"] == "ON(blue)" and s.active == 1
    # Ben: Nope with the chip on another player's deck; he leaves it
    s = s.apply(roll(2, 3, 3, 4, 6, chance="N")).apply(Choice("leave"))
    assert s.interrupts() == ()  # nobody holds the chip, nobody can block him
    s, cards = commit(s)
    assert cards == [12, 13, 14, 15, 16]
    return s


def test_examples_4_and_5_sweet_sour_block_and_nope():
    s = play_examples_4_and_5(game())
    assert s.is_over and s.outcome().winners == (1,)


def test_example_5_multi_round_scoring():
    s = play_examples_4_and_5(game(multi_round=True))
    assert s.detail()["total"] == {"Ana": 6, "Ben": 16, "Cy": 11}
    assert not s.is_over and s.detail()["round"] == 2


# ---------------------------------------------------------------------------------------- edges and errors

def test_an_illegal_choice_is_refused_and_changes_nothing():
    s = game().new_initial_state().apply(roll(1, 2, 4))
    before = s.detail()
    for bad in [Choice("risk"), Choice("no"), Choice("yes", player=1)]:
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    with pytest.raises(ImplausibleRollError):
        s.apply(roll(1, 2, 4))  # a decision is open, not a roll
    assert s.detail() == before and s.expects().question == "Discard 1"


def test_undo_of_a_swap_restores_holds_and_chip_exactly():
    g = game()
    before = position(g, next={"red": 4, "blue": 10}, on="red").apply(roll(1, 2, 3, chance="S"))
    snapshot = before.detail()
    after = before.apply(Choice("p1"))
    assert after.detail()["holds"] != snapshot["holds"]
    assert before.detail() == snapshot  # undo goes back to this state, untouched by the swap
    assert before.detail()["chip"] == "ON(red)" and before.detail()["holds"]["Ana"] == "red"


def test_events_are_described_for_undo():
    s = position(game(), held_by="Ben")
    assert s.describe(roll(1, 2, 4, chance="N")) == "roll 1 2 4 N"  # UI-11 marks the Chance Die
    assert s.describe(Choice("block:0", player=1)) == "block Ana"
    s = s.apply(roll(1, 2, 4))
    assert s.describe(Choice("yes")) == "discard 1"
    sweet = position(game()).apply(roll(1, 2, 4, chance="S"))
    assert sweet.describe(Choice("p2")) == "swap with Cy"


def test_setup_refuses_a_bad_game():
    with pytest.raises(IllegalActionError):
        game(players=("Ana",), colours=("red",))
    with pytest.raises(IllegalActionError):
        game(colours=("red", "blue"))
    for options in [dict(chance_faces=("blank", "melon")), dict(chance_faces=()), dict(number_faces=("one",))]:
        with pytest.raises(IllegalActionError):
            game(**options)
    with pytest.raises(IllegalActionError):
        game(turbo=True)


def test_demo_replays_to_the_hand_computed_result():
    lines = [json.loads(line) for line in DEMO.read_text().splitlines()]
    s = new_game(Setup.from_json(lines[0]["setup"])).new_initial_state()
    # Ana: 1-7 (her Nope takes the chip), then 8-13, then 14-16 (Sweet kept). Ben: card 1, a failed risk roll
    # (penalty back to 1), then a Sour he keeps (Ana's deck is higher): 1 and 2 before Ana blocks him at 3.
    notes = []
    for line in lines[1:]:
        s = s.apply(event_from_json(line))
        notes.append(s.status())
    assert "penalty: 2 to 1" in notes and "Sour: keep deck" in notes and "Ana blocks Ben" in notes
    assert s.is_over and s.scores() == [16, 2] and s.outcome().winners == (0,)
    assert s.detail()["chip"] == "ON(blue)"


def test_the_demo_replays_with_the_replay_command(capsys):
    assert main(["replay", str(DEMO), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["over"] and result["winners"] == ["Ana"] and result["scores"] == [16, 2]
    assert result["detail"]["chip"] == "ON(blue)" and result["detail"]["next"] == {"red": 17, "blue": 3}
