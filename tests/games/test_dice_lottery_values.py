"""Dice Lottery in value mode (`track_values`): the referee keeps card values and checks blocks (DL-7 to DL-12) and
the card mix (DL-30); worked example 1 entered card by card; the Lucky Card scored without questions (DL-28)."""
from companion.games import Choice, IllegalActionError, RollRequest
from companion.games.dice_lottery_blocks import Block

from .test_dice_lottery import (NAMES, assert_refused, block_cards, dice_counts, example_2_to_lottery, hands, keys,
                                play, position, started)


def value_example_1():
    state = started(NAMES[:3], first=1, track_values=True)
    state = play(state, "new", 3, "no", "3", "4", "5")            # Ben
    state = play(state, "new", 3, "yes", "1", "6", "7")           # Cy: 6-7-W, W = 1
    state = play(state, "new", 3, "no", "2", "2", "2")            # Ana
    state = play(state, "add_own", 1, "no", "6")                  # Ben: 3-4-5-6
    return state


def blocks(state):
    return {b["owner"]: (b["kind"], b["cards"], b["wild"]) for b in state.detail()["blocks"]}


def test_example_1_in_value_mode_keeps_every_card():
    state = value_example_1()
    state = play(state, "add_other", "seat1", 2, "2", "7", take=2)    # Cy: both ends of Ben's block
    state = play(state, "replace", "seat2", take=1)                   # Ana replaces Cy's W with a real 1
    assert blocks(state) == {0: ("set", [2, 2, 2], None), 1: ("sequence", [2, 3, 4, 5, 6, 7], None),
                             2: ("sequence", [1, 6, 7], None)}
    assert state.detail()["deck"] == 27 and hands(state) == [5, 5, 3]
    assert dice_counts(state) == [1, 0, 2] and block_cards(state) == [3, 6, 3]


def test_dl_7_a_new_block_is_one_value_or_a_sequence():
    state = play(started(track_values=True), "new", 3, "no", "3", "5")
    pending = state.expects()
    assert pending.question == "Card 3 of 3?" and pending.legal_keys() == ("4",)
    assert_refused(state, Choice("6"), IllegalActionError)
    assert blocks(play(state, "4")) == {0: ("sequence", [3, 4, 5], None)}
    state = play(started(track_values=True), "new", 4, "no", "6", "6")
    assert keys(state) == ("6",)                                      # a pair starts only a same-value block


def test_dl_8_sequences_wrap_from_the_highest_value_to_one():
    state = play(started(track_values=True), "new", 3, "no", "6", "7")
    assert keys(state) == ("1", "5")                                  # 6-7-1 or 5-6-7
    assert blocks(play(state, "1")) == {0: ("sequence", [1, 6, 7], None)}
    six = play(started(track_values=True, card_values=(1, 2, 3, 4, 5, 6), card_mix=(8, 4)), "new", 3, "no", "5", "6")
    assert keys(six) == ("1", "4")                                    # with values 1-6, 6 is followed by 1


def test_dl_8_edge_a_seven_card_sequence_takes_no_more_cards():
    state = play(started(track_values=True), "new", 7, "no", "4", "5", "6", "7", "1", "2", "3")
    assert blocks(state) == {0: ("sequence", [1, 2, 3, 4, 5, 6, 7], None)}
    state = play(state, "new", 3, "no", "5", "5", "5", "pass")        # Ben lays 5-5-5, Cy passes
    assert "add_own" not in keys(state)                               # Ana's only block is full
    assert_refused(state, Choice("add_own"), IllegalActionError)
    state = play(state, "pass")                                       # Ben: the only other block is full
    assert "add_other" not in keys(state) and "add_own" in keys(state)


def test_dl_9_a_sequence_grows_at_its_ends_and_may_grow_at_both():
    state = play(value_example_1(), "add_other", "seat1", 2)          # Cy adds 2 cards to Ben's 3-4-5-6
    assert keys(state) == ("1", "2", "7")                             # never a middle value
    state = play(state, "2")
    assert keys(state) == ("1", "7")
    state = play(state, "7")
    assert isinstance(state.expects(), RollRequest) and blocks(state)[1] == ("sequence", [2, 3, 4, 5, 6, 7], None)
    full = play(value_example_1(), "add_other", "seat1")
    assert (full.expects().low, full.expects().high) == (1, 3)        # 3-4-5-6 holds at most 7 cards


def test_dl_10_a_same_value_block_grows_only_with_that_value():
    state = play(value_example_1(), "pass", "add_own", 2, "no")       # Cy passes; Ana adds to 2-2-2
    assert keys(state) == ("2",)
    state = play(state, "2")
    assert keys(state) == ("2",)
    assert blocks(play(state, "2"))[0] == ("set", [2, 2, 2, 2, 2], None)


def test_dl_11_value_mode_one_wild_per_block_and_only_in_own_blocks():
    cy = play(value_example_1(), "add_own", 1)                        # Cy's 6-7-W1 holds a wild
    yes = {o.key: o for o in cy.expects().options}["yes"]
    assert not yes.enabled and yes.reason == "block has a wild"
    assert_refused(cy, Choice("yes"), IllegalActionError)
    onto_ben = play(value_example_1(), "add_other", "seat1", 1)
    assert onto_ben.expects().question == "Card 1 of 1?"              # real cards only, no wild question


def test_dl_11_when_every_wild_is_laid_no_more_can_be():
    laid = [Block(0, 0, 3, 1, (1, 2, 3)), Block(1, 1, 3, 5, (4, 5, 6)), Block(2, 2, 3, 7, (7, 7, 7))]
    state = play(position(NAMES[:3], active=0, hands=[7, 6, 6], held=[{}, {}, {}], blocks=laid, track_values=True),
                 "new", 3)
    yes = {o.key: o for o in state.expects().options}["yes"]
    assert not yes.enabled and yes.reason == "no wild left"           # card_mix: 3 wilds


def test_dl_12_a_wild_stands_for_any_value_that_completes_the_block_ends_included():
    state = play(started(track_values=True), "new", 3, "yes")
    assert state.expects().legal_keys() == tuple("1234567")
    state = play(state, "4")
    assert keys(state) == ("2", "3", "4", "5", "6")                   # 2 cards + a wild (4)
    state = play(state, "5", "6")
    assert blocks(state) == {0: ("sequence", [4, 5, 6], 4)} and hands(state)[0] == 4
    end = play(value_example_1(), "pass", "pass", "add_own", 1, "yes")   # Ben adds a wild to 3-4-5-6
    assert keys(end) == ("2", "7")
    assert blocks(play(end, "7"))[1] == ("sequence", [3, 4, 5, 6, 7], 7)


def test_dl_30_card_mix_bounds_the_real_cards_of_a_value():
    sevens = [Block(0, 0, 4, None, (2, 2, 2, 2)), Block(1, 1, 3, None, (2, 2, 2))]     # all seven 2s laid
    state = position(NAMES[:3], active=0, hands=[7, 6, 6], held=[{}, {}, {}], blocks=sevens, track_values=True)
    grow = play(state, "add_own")
    assert (grow.expects().low, grow.expects().high) == (1, 1)       # only a wild can join 2-2-2-2
    wild = play(grow, 1)
    rows = {o.key: o for o in wild.expects().options}
    assert rows["yes"].enabled and not rows["no"].enabled and rows["no"].reason == "needs a wild"
    new = play(state, "new", 3, "no", "1")
    assert keys(new) == ("1", "6", "7")                               # 1-2-3 and 7-1-2 need a real 2


def test_dl_30_replace_wild_needs_a_real_card_of_its_value_left():
    laid = [Block(0, 0, 4, None, (2, 2, 2, 2)), Block(1, 1, 4, 2, (2, 2, 2, 2)), Block(2, 2, 3, 5, (4, 5, 6))]
    state = play(position(NAMES[:3], active=0, hands=[7, 6, 6], held=[{}, {}, {}], blocks=laid, track_values=True),
                 "replace")
    assert keys(state) == ("seat2",)                                  # Ben's W = 2: all seven real 2s are laid
    assert_refused(state, Choice("seat1"), IllegalActionError)


def test_dl_28_value_mode_scores_the_lucky_card_without_questions():
    state = play(example_2_to_lottery(track_values=True, lucky_card=True), "6", "3", "all")
    assert state.detail()["round"] == 3
    rounds = [p["round_scores"][1] for p in state.detail()["players"]]
    assert rounds == [26, 20, 24, 0]


def test_dl_28_a_wild_standing_for_the_middle_value_scores_nothing():
    # The text's example: 5 as the middle token in round 2, each real 5 in a block +2, wilds standing for 5 nothing.
    fives = [Block(0, 0, 3, 5, (5, 5, 5)), Block(1, 1, 3, None, (4, 5, 6))]
    state = position(NAMES[:3], active=0, round=2, round_scores=[[0], [0], [0]], hands=[1, 3, 5],
                     held=[{0: 1}, {}, {}], blocks=fives, track_values=True, lucky_card=True)
    state = play(state, "add_own", 1, "no", "5", "pass", "pass")      # Ana: 5-5-5-W5, then 0 cards and a die
    assert state.detail()["ender"] == 0
    state = play(state, (), "1", "5", "2")                            # Ana keeps her die; spaces worth 2, 3, 4
    # Ana: 4 cards + 1 die + her 1 on space 1 (2) + three real 5s x 2 (not the W) = 13.
    # Ben: 3 cards + one 5 x 2 - 4 in hand = 1.  Cy: 0 - 6 -> 0.
    assert [p["round_scores"][1] for p in state.detail()["players"]] == [13, 1, 0]
