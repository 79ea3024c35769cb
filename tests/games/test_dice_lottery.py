"""Dice Lottery rules in count mode (rules/dice-lottery.md, DL-n): turns, dice taken from the pool, round ends,
finalise, lottery, scoring, options, the worked examples and the spec's edge cases.

The helpers at the top drive the engine with button answers and table observations; the other Dice Lottery test
files import them.
"""
import pytest

from companion.games import (Choice, Decision, Die, IllegalActionError, ImplausibleRollError, Roll, RollRequest,
                             Setup, new_game)
from companion.games.dice_lottery import ACTION
from companion.games.match import Match
from companion.games.dice_lottery_blocks import Block
from companion.games.dice_lottery_scoring import game_winners, lottery_points, round_score, seeded_draw

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve")
FACES = (1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3)     # die id i first shows FACES[i]


# ------------------------------------------------------------------------------------------------------ helpers

def new_game_state(players=NAMES[:3], first=0, **options):
    """A new game: the HOST is asked to confirm the prize points."""
    return new_game(Setup("dice-lottery", tuple(players), first, options=options)).new_initial_state()


def new_state(players=NAMES[:3], first=0, **options):
    """A new game whose prize points are kept: the DEALER is asked to roll the pool."""
    return new_game_state(players, first, **options).apply(Choice("keep"))


def pool_roll(faces=FACES):
    return Roll(tuple(Die(value=face, zone="pool", id=die) for die, face in enumerate(faces)))


def started(players=NAMES[:3], first=0, **options):
    """A game whose first pool roll is in: the first player has drawn and chooses an action."""
    return new_state(players, first, **options).apply(pool_roll())


def table(state):
    """die id -> (zone, face), read from the public detail."""
    detail = state.detail()
    out = {int(die): ("pool", face) for die, face in detail["pool"].items()}
    for seat, player in enumerate(detail["players"]):
        out.update({int(die): (f"seat{seat}", face) for die, face in player["dice"].items()})
    return out


def observed(dice):
    return Roll(tuple(Die(value=face, zone=zone, id=die) for die, (zone, face) in sorted(dice.items())))


def take_roll(state, count, seat=None):
    """The table after the active player (or `seat`) moved the `count` lowest-numbered pool dice to their zone."""
    seat = state.detail()["active"] if seat is None else seat
    dice = table(state)
    for die in sorted(int(d) for d in state.detail()["pool"])[:count]:
        dice[die] = (f"seat{seat}", dice[die][1])
    return observed(dice)


def play(state, *answers, take=0):
    """Apply button answers in order, then the observation of `take` dice taken from the pool."""
    for answer in answers:
        state = state.apply(Choice(answer))
    if take:
        state = state.apply(take_roll(state, take))
    return state


def hands(state):
    return [p["hand"] for p in state.detail()["players"]]


def dice_counts(state):
    return [len(p["dice"]) for p in state.detail()["players"]]


def block_cards(state):
    cards = [0] * len(state.game.players)
    for block in state.detail()["blocks"]:
        cards[block["owner"]] += block["size"]
    return cards


def keys(state):
    return state.expects().legal_keys()


def position(players, *, active, hands, held, blocks, round=1, dealer=None, round_scores=None, **options):
    """A state set up directly: round `round`, `active` has drawn and chooses an action; `held` gives each
    player's dice (id -> face), the other ids lie in the pool with their FACES; the deck holds the other cards.
    Used where a spec example describes a table that play could not reach exactly or only at great length."""
    count = len(players)
    dealer = (active - 1) % count if dealer is None else dealer
    state = started(players, (dealer + 1) % count, **options).copy()
    taken = {die for dice in held for die in dice}
    state.round, state.dealer, state.active, state.phase = round, dealer, active, ACTION
    state.hands = list(hands)
    state.held = [dict(dice) for dice in held]
    state.pool = {die: face for die, face in enumerate(FACES) if die not in taken}
    state.blocks = list(blocks)
    state.deck = 52 - sum(hands) - sum(b.size for b in blocks)
    state.round_scores = [list(r) for r in round_scores] if round_scores else [[] for _ in players]
    return state


def assert_refused(state, event, error, rule=None):
    """The event raises `error` (with `rule`) and the state is left as it was."""
    before, pending = state.detail(), state.expects()
    with pytest.raises(error) as caught:
        state.apply(event)
    assert state.detail() == before and state.expects() == pending
    assert "\n" not in caught.value.message
    if rule:
        assert caught.value.rule == rule
    return caught.value


def finish_round(state, tokens=("none", "1", "2")):
    """Nobody re-rolls; the DEALER enters `tokens`."""
    while isinstance(state.expects(), Decision) and state.expects().kind == "multi":
        state = state.apply(Choice(()))
    for token in tokens:
        state = state.apply(Choice(token))
    return state


# ------------------------------------------------------------------------------------------ worked example 1

def example_1(**options):
    """Scorekeeper Cy, so Ana deals and Ben starts; returns the states after each turn, by name."""
    states = {"start": started(NAMES[:3], first=1, **options)}
    states["ben"] = play(states["start"], "new", 3, "no")
    states["cy"] = play(states["ben"], "new", 3, "yes", 1)
    states["ana"] = play(states["cy"], "new", 3, "no")
    states["ben2"] = play(states["ana"], "add_own", 1, "no")
    states["cy2"] = play(states["ben2"], "add_other", "seat1", 2, take=2)
    states["ana2 choice"] = play(states["cy2"], "replace", "seat2")
    states["ana2"] = play(states["ana2 choice"], take=1)
    return states


def test_example_1_turns_counts_blocks_and_dice():
    states = example_1()
    start = states["start"].detail()
    assert (start["dealer"], start["active"], start["deck"], len(start["pool"])) == (0, 1, 33, 15)
    assert hands(states["start"]) == [6, 7, 6]                                   # Ben drew: 7, deck 33
    assert hands(states["ben"]) == [6, 4, 7] and states["ben"].detail()["deck"] == 32
    assert hands(states["cy"]) == [7, 4, 4] and states["cy"].detail()["blocks"][1]["wild"] == 1
    assert hands(states["ana"]) == [4, 5, 4] and states["ana"].detail()["deck"] == 30
    assert hands(states["ben2"]) == [4, 4, 5] and block_cards(states["ben2"]) == [3, 4, 3]
    assert hands(states["cy2"]) == [5, 4, 3] and len(states["cy2"].detail()["pool"]) == 13
    assert block_cards(states["cy2"]) == [3, 6, 3] and dice_counts(states["cy2"]) == [0, 0, 2]
    # Now (Ana's dice still to take): deck 28; hands Ana 5, Ben 4, Cy 3; block cards Ana 3, Ben 6, Cy 3.
    now = states["ana2 choice"]
    assert now.detail()["deck"] == 28 and hands(now) == [5, 4, 3] and block_cards(now) == [3, 6, 3]
    assert now.detail()["blocks"][1]["wild"] is None
    done = states["ana2"]
    assert len(done.detail()["pool"]) == 12 and dice_counts(done) == [1, 0, 2]
    assert done.detail()["deck"] == 27 and hands(done) == [5, 5, 3]              # Ben has drawn his next card


def test_dl_6_a_player_without_a_block_may_only_play_a_new_block():
    states = example_1()
    assert keys(states["cy"]) == ("pass", "new")                                 # Ana owns no block yet
    assert_refused(states["cy"], Choice("add_other"), IllegalActionError)
    assert_refused(states["cy"], Choice("replace"), IllegalActionError)
    assert keys(states["ana"]) == ("pass", "new", "add_own", "add_other", "replace")


def test_dl_17_dl_19_dl_21_example_1_to_round_end_scores_added_cards_for_the_block_owner():
    state = example_1()["ana2"]
    state = play(state, "add_other", "seat2", 5, take=5)      # Ben adds 5 cards to Cy's block, takes dice 3-7
    state = play(state, "pass", "pass")                        # Cy, Ana
    detail = state.detail()
    assert detail["ender"] == 1 and hands(state) == [6, 0, 4]  # DL-19 (a): Ben begins with 0 cards and 5 dice
    assert isinstance(state.expects(), Decision) and state.expects().player == 1   # finalise from the first player
    state = finish_round(state, ("none", "all", "6"))           # spaces worth 1, 2, 3 in round 1
    # Ana: 3 cards + 1 die (3) + (0 + 2 + 0) - 6 = 0.  Ben: 6 + 5 dice (4 5 6 1 2) + (0 + 10 + 3) - 0 = 24.
    # Cy: 3 + Ben's 5 cards (DL-17) + 2 dice (1 2) + (0 + 4 + 0) - 4 = 10.
    assert state.scores() == [0, 24, 10]
    new_round = state.detail()
    assert (new_round["round"], new_round["dealer"], new_round["active"]) == (2, 1, 2)     # DL-21: Ben deals
    assert isinstance(state.expects(), RollRequest) and state.expects().count == 15


# ------------------------------------------------------------------------------------------ worked example 2

EXAMPLE_2_HELD = [{0: 3, 1: 3, 2: 5}, {3: 1, 4: 6}, {5: 3, 6: 6, 7: 1, 8: 1}, {}]


def example_2(**options):
    """Round 2 as Ana, last before Ben, acts. Set up directly: the example's counts cannot come from play (Ana's
    3 dice, 4 block cards and 5 cards in hand need more turns than Dee's 8 cards leave her)."""
    values = options.get("track_values")
    blocks = [Block(0, 0, 4, 3, (3, 3, 3, 3) if values else None),
              Block(1, 1, 6, None, (2, 3, 4, 5, 6, 7) if values else None),
              Block(2, 2, 3, None, (1, 6, 7) if values else None)]
    return position(NAMES[:4], active=0, dealer=3, round=2, hands=[5, 0, 6, 8], held=EXAMPLE_2_HELD, blocks=blocks,
                    round_scores=[[5], [7], [3], [0]], **options)


def example_2_to_lottery(**options):
    state = play(example_2(**options), "pass")                 # Ben begins with 0 cards and 2 dice
    assert state.detail()["ender"] == 1
    asked = []
    for commit in ((), (), ("d7", "d8")):
        asked.append(state.expects().player)
        state = state.apply(Choice(commit))
    assert asked == [0, 1, 2]                                  # Dee has no dice and is not asked
    rerolled = table(state)
    rerolled[7], rerolled[8] = ("seat2", 6), ("seat2", 2)      # Cy's two 1s -> 6, 2
    return state.apply(observed(rerolled))


def test_example_2_round_end_finalise_lottery_and_round_scores():
    state = play(example_2_to_lottery(), "6", "3", "all")
    rounds = [p["round_scores"] for p in state.detail()["players"]]
    assert [r[1] for r in rounds] == [20, 18, 24, 0]           # Dee: -8 -> 0
    assert state.scores() == [25, 25, 27, 0]
    detail = state.detail()
    assert (detail["round"], detail["dealer"], detail["active"]) == (3, 1, 2)   # Ben deals round 3


def test_dl_28_example_2_with_lucky_card_in_count_mode_asks_each_player_for_real_matching_cards():
    state = play(example_2_to_lottery(lucky_card=True), "6", "3", "all")
    asked = []
    for count in (3, 1, 0):                                    # Ana's three real 3s (not the W), Ben's one 3
        pending = state.expects()
        assert pending.kind == "spinner" and pending.low == 0
        asked.append((pending.player, pending.high))
        state = state.apply(Choice(count))
    assert asked == [(0, 3), (1, 6), (2, 3)]                   # spinner up to the real cards in blocks
    assert [p["round_scores"][1] for p in state.detail()["players"]] == [26, 20, 24, 0]


def test_dl_25_example_2_lottery_points_per_player():
    tokens, points = ("6", "3", "all"), (2, 3, 4)
    faces = {"Ana": (3, 3, 5), "Ben": (1, 6), "Cy": (3, 6, 6, 2), "Dee": ()}
    assert {name: lottery_points(f, tokens, points) for name, f in faces.items()} == {
        "Ana": 18, "Ben": 10, "Cy": 23, "Dee": 0}
    # One die may score in more than one space: Cy's 6s pay on space 1 and on the all-dice space 3.
    assert lottery_points((6,), tokens, points) == 2 + 4


def test_dl_26_round_score_counts_blocks_dice_lottery_minus_hand_floored_at_zero():
    assert round_score(4, 3, 18, 5) == 20                      # Ana; her wild counts as a block card
    assert round_score(0, 0, 0, 8) == 0                        # Dee: -8 counts as 0
    assert round_score(3, 0, 0, 5, lucky=2) == 0               # DL-28: the bonus counts before the floor


# ------------------------------------------------------------------------------------- worked examples 3 and 4

def short_pool(**options):
    """Example 3: the pool has 2 dice (13 are Ben's), Ana acts and owns a block, Cy owns one."""
    values = options.get("track_values")
    blocks = [Block(0, 0, 3, None, (4, 4, 4) if values else None), Block(1, 2, 3, None, (1, 2, 3) if values else None)]
    return position(NAMES[:3], active=0, hands=[7, 6, 3], held=[{}, {die: FACES[die] for die in range(13)}, {}],
                    blocks=blocks, **options)


def test_dl_16_example_3_short_pool_takes_the_last_dice_and_ends_the_round():
    state = play(short_pool(), "add_other", "seat2", 3)
    pending = state.expects()
    assert isinstance(pending, RollRequest) and pending.message == "Take 2 dice"
    assert_refused(state, take_roll(state, 1), ImplausibleRollError, "DL-16")
    state = state.apply(take_roll(state, 2))
    assert state.detail()["ender"] == 0 and state.detail()["pool"] == {}      # DL-19 (c): ends at once
    assert hands(state) == [4, 6, 3] and block_cards(state) == [3, 0, 6]
    state = finish_round(state)
    assert state.detail()["round"] == 2 and state.detail()["dealer"] == 0      # Ana deals next


def test_dl_27_example_4_tie_goes_to_the_better_last_round_then_is_shared():
    assert game_winners([[21, 20, 20], [19, 19, 23], [20, 20, 15]]) == (1,)   # 61 / 61 / 55: Ben wins
    assert game_winners([[21, 20, 20], [22, 19, 20], [20, 20, 15]]) == (0, 1)
    assert game_winners([[30, 0, 0], [10, 10, 9]]) == (0,)


def quick_round(state):
    """The active player lays all 7 cards, the next lays 3, the first adds 1 card to that block and takes a die
    (face 1, the lowest-numbered pool die), the other passes: the first begins a turn with no cards (DL-19 (a))."""
    first, second = state.detail()["active"], 1 - state.detail()["active"]
    state = play(state, "new", 7, "no", "new", 3, "no")
    state = play(state, "add_other", f"seat{second}", 1, take=1)
    return finish_round(play(state, "pass"), ("none", "1", "2"))


def test_dl_1_the_game_has_three_rounds_and_the_highest_total_wins():
    state = started(NAMES[:2], first=0)
    for round_number in (1, 2, 3):
        assert state.detail()["round"] == round_number and state.outcome() is None
        state = quick_round(state)
        if round_number < 3:
            state = state.apply(pool_roll())
    assert state.expects() is None and state.is_over
    # The round's starter scores 7 cards + 1 die + the 1 on space 2 (worth 2, 3, 4 in rounds 1-3); the other
    # player 4 cards - 5 in hand -> 0.
    assert [p["round_scores"] for p in state.detail()["players"]] == [[10, 0, 12], [0, 11, 0]]
    assert state.outcome().scores == (22, 11) and state.outcome().winners == (0,)
    assert_refused(state, Choice("pass"), IllegalActionError)


# ---------------------------------------------------------------------------------------------- turn rules

def test_dl_2_each_round_deals_six_cards_and_rolls_fifteen_dice_into_the_pool():
    state = new_state(NAMES[:4])
    detail = state.detail()
    assert hands(state) == [6] * 4 and detail["deck"] == 52 - 24 and detail["pool"] == {}
    pending = state.expects()
    assert isinstance(pending, RollRequest) and pending.count == 15 and pending.role == "DEALER"
    state = state.apply(pool_roll())
    assert state.detail()["pool"] == {str(die): face for die, face in enumerate(FACES)}


def test_dl_2_the_pool_roll_must_show_fifteen_tracked_read_dice_in_the_pool():
    state = new_state()
    dice = pool_roll().dice
    assert_refused(state, Roll(dice[:14]), ImplausibleRollError, "DL-2")
    assert_refused(state, Roll(dice[:14] + (Die(value=3, zone="pool"),)), ImplausibleRollError, "DL-2")
    assert_refused(state, Roll(dice[:14] + (Die(value=3, zone="pool", id="x"),)), ImplausibleRollError, "DL-2")
    assert_refused(state, Roll(dice[:14] + (Die(value=None, zone="pool", id=14),)), ImplausibleRollError, "DL-2")
    assert_refused(state, Roll(dice[:14] + (Die(value=7, zone="pool", id=14),)), ImplausibleRollError, "DL-2")
    assert_refused(state, Roll(dice[:14] + (Die(value=3, zone="pool", id=0),)), ImplausibleRollError, "DL-2")
    assert_refused(state, Roll(dice[:14] + (Die(value=3, zone="seat1", id=14),)), ImplausibleRollError, "DL-2")
    off = assert_refused(state, Roll(dice[:14] + (Die(value=3, zone="off", id=14),)), ImplausibleRollError)
    assert off.message == "re-roll 1 die off the mat"


def test_dl_2_pool_dice_keep_their_faces_when_taken():
    state = play(example_1()["ben2"], "add_other", "seat1", 2)
    moved = table(state)
    moved[0], moved[1] = ("seat2", 1), ("seat2", 5)            # die 1 showed 2 in the pool
    error = assert_refused(state, observed(moved), ImplausibleRollError, "DL-2")
    assert error.message == "die 1 changed face"


def test_dl_13_taken_dice_must_match_the_cards_added_and_go_to_the_taker():
    state = play(example_1()["ben2"], "add_other", "seat1", 2)
    assert state.expects().message == "Take 2 dice" and state.expects().player == 2
    assert_refused(state, take_roll(state, 1), ImplausibleRollError, "DL-13")
    assert_refused(state, take_roll(state, 3), ImplausibleRollError, "DL-13")
    assert_refused(state, take_roll(state, 2, seat=1), ImplausibleRollError, "DL-13")   # into Ben's zone
    stolen = table(state)
    stolen[0], stolen[1] = ("seat2", 1), ("seat2", 2)
    stolen[2] = ("seat0", 3)                                     # a third die wanders to Ana
    assert_refused(state, observed(stolen), ImplausibleRollError, "DL-13")
    after = state.apply(take_roll(state, 2))
    assert after.detail()["players"][2]["dice"] == {"0": 1, "1": 2}


def test_dl_13_add_to_other_targets_clockwise_from_the_left_neighbour_then_asks_the_block():
    state = example_1()["ben2"]                                  # Cy acts: Ana and Ben own blocks
    state = play(state, "add_other")
    pending = state.expects()
    assert pending.legal_keys() == ("seat0", "seat1") and pending.default == "seat0"
    assert_refused(state, Choice("seat2"), IllegalActionError)  # own block: use Add to own
    state = play(state, "seat0")
    assert state.expects().kind == "spinner" and (state.expects().low, state.expects().high) == (1, 5)


def test_dl_4_a_turn_is_one_draw_and_one_action_on_one_block():
    # Ben owns two blocks; adding asks which one and touches only it; the turn then passes on with one draw.
    state = play(example_1()["ana"], "new", 3, "no")             # Ben's second block (hand 5 -> 2)
    state = play(state, "pass", "pass")                          # Cy, Ana
    state = play(state, "add_own")
    pending = state.expects()
    assert pending.question == "Which block?" and pending.legal_keys() == ("b0", "b3") and pending.default == "b3"
    deck = state.detail()["deck"]
    state = play(state, "b0", 1, "no")
    sizes = {b["id"]: b["size"] for b in state.detail()["blocks"]}
    assert sizes[0] == 4 and sizes[3] == 3
    assert state.detail()["active"] == 2 and state.detail()["deck"] == deck - 1


def test_dl_3_first_player_sits_left_of_the_dealer_and_play_passes_left():
    state = started(NAMES[:4], first=2)
    assert (state.detail()["dealer"], state.detail()["active"]) == (1, 2)
    seen = []
    for _ in range(5):
        seen.append(state.detail()["active"])
        state = play(state, "pass")
    assert seen == [2, 3, 0, 1, 2]


def test_dl_5_the_action_is_optional_and_pass_is_the_default():
    state = started()
    pending = state.expects()
    assert pending.default == "pass" and pending.player == 0 and pending.question == "Action?"
    after = play(state, "pass")
    assert hands(after)[0] == 7 and after.detail()["blocks"] == [] and after.detail()["active"] == 1


def test_dl_7_a_new_block_needs_three_cards_and_is_refused_with_fewer_in_hand():
    state = started()
    state = play(state, "new", 7, "no")                          # Ana lays her whole hand
    state = play(state, "pass", "pass")
    assert hands(state)[0] == 1 and "new" not in keys(state)     # 1 card: no new block
    state = play(started(), "new")
    assert (state.expects().low, state.expects().high) == (3, 7)
    assert_refused(state, Choice(2), IllegalActionError)


def test_dl_11_no_second_wild_in_a_block_and_no_wild_on_another_players_block():
    states = example_1()
    cy = play(states["ana"], "pass")                              # Ben passes; Cy's block holds a wild
    state = play(cy, "add_own", 1)
    yes = {o.key: o for o in state.expects().options}["yes"]
    assert not yes.enabled and yes.reason == "block has a wild"
    assert_refused(state, Choice("yes"), IllegalActionError)
    state = play(cy, "add_other", "seat1", 1)                     # onto Ben's block: no wild question at all
    assert isinstance(state.expects(), RollRequest)
    state = play(cy, "add_other", "seat1")
    assert_refused(state, Choice("yes"), IllegalActionError)


def test_dl_12_a_wild_declares_one_value_and_a_new_block_may_be_two_cards_and_a_wild():
    state = play(started(), "new", 3, "yes")
    pending = state.expects()
    assert pending.kind == "spinner" and (pending.low, pending.high) == (1, 7)
    state = play(state, 7)
    assert state.detail()["blocks"] == [{"id": 0, "owner": 0, "size": 3, "wild": 7}]
    assert hands(state)[0] == 4


def test_dl_14_replace_wild_keeps_the_hand_takes_one_die_and_clears_the_wild():
    states = example_1()
    before, after = states["cy2"], states["ana2"]
    assert before.detail()["blocks"][1]["wild"] == 1 and after.detail()["blocks"][1]["wild"] is None
    assert hands(states["ana2 choice"])[0] == hands(before)[0] == 5
    assert states["ana2 choice"].expects().message == "Take 1 die"
    assert_refused(states["ana2 choice"], take_roll(states["ana2 choice"], 2), ImplausibleRollError, "DL-14")


def test_dl_15_a_player_may_not_replace_the_wild_in_their_own_block():
    state = play(example_1()["ana"], "pass")                      # Cy owns the only wild
    assert "replace" not in keys(state)
    assert_refused(state, Choice("replace"), IllegalActionError)
    both = play(example_1()["ana"], "new", 3, "yes", 2)           # Ben lays a second wild block
    state = play(both, "replace")
    assert state.expects().legal_keys() == ("seat1",)             # Cy may only replace Ben's wild
    assert_refused(state, Choice("seat2"), IllegalActionError)


def test_dl_18_counts_follow_draws_cards_played_and_wilds_taken_back():
    states = example_1()
    for name in ("start", "ben", "cy", "ana", "ben2", "cy2", "ana2"):
        state = states[name]
        assert state.detail()["deck"] + sum(hands(state)) + sum(block_cards(state)) == 52
    # Replace wild: -1 real card +1 wild: Ana's hand is 5 before and after.
    assert hands(states["cy2"])[0] == hands(states["ana2 choice"])[0]


def test_dl_19_deck_empty_at_the_start_of_a_turn_ends_the_round_before_any_draw():
    state = started(NAMES[:5], first=0)                           # deck 52 - 30 = 22 after dealing
    for _ in range(21):                                           # the 22nd draw empties the deck
        state = play(state, "pass")
    assert state.detail()["deck"] == 0 and state.detail()["active"] == 1
    hands_before = hands(state)
    state = play(state, "pass")
    assert state.detail()["ender"] == 2 and hands(state) == hands_before          # Cy could not draw
    assert state.expects().role == "DEALER"                     # nobody holds dice: straight to the lottery
    state = finish_round(state)
    assert state.detail()["dealer"] == 2 and state.detail()["round"] == 2         # DL-21


def test_dl_19_and_dl_20_empty_hand_without_dice_draws_on_with_a_die_ends_the_round():
    state = play(started(), "new", 7, "no")                       # Ana: hand 0, no dice
    state = play(state, "new", 3, "no", "pass")                   # Ben lays a block, Cy passes
    assert state.detail()["active"] == 0 and hands(state)[0] == 1    # DL-20: Ana drew and plays on
    state = play(state, "add_other", "seat1", 1, take=1)          # Ana: hand 0, 1 die
    state = play(state, "pass", "pass")
    assert state.detail()["ender"] == 0 and hands(state)[0] == 0  # DL-19 (a)
    assert state.expects().kind == "multi" and state.expects().player == 0


def test_dl_29_long_game_turns_off_the_empty_hand_trigger():
    state = play(started(long_game=True), "new", 7, "no", "new", 3, "no", "pass")
    state = play(state, "add_other", "seat1", 1, take=1)
    state = play(state, "pass", "pass")
    assert state.detail()["ender"] is None and state.detail()["active"] == 0 and hands(state)[0] == 1


# --------------------------------------------------------------------------------------- finalise and lottery

def test_dl_22_finalise_asks_each_player_with_dice_for_own_dice_only():
    state = play(example_2(), "pass")
    pending = state.expects()
    assert pending.kind == "multi" and pending.player == 0 and pending.default == ()
    assert pending.legal_keys() == ("d0", "d1", "d2") and (pending.low, pending.high) == (0, 3)
    assert_refused(state, Choice(("d3",)), IllegalActionError)    # Ben's die
    state = play(state, (), ("d3",), ())
    assert state.expects().message == "Re-roll 1 die"
    moved = table(state)
    moved[3] = ("seat0", 4)                                        # Ben's die rolls into Ana's zone
    assert_refused(state, observed(moved), ImplausibleRollError, "DL-22")


def test_dl_23_only_committed_dice_may_change_at_finalise():
    state = play(example_2(), "pass", (), (), ("d7", "d8"))
    changed = table(state)
    changed[7], changed[5] = ("seat2", 6), ("seat2", 4)           # Cy's 3 (die 5) was not committed
    error = assert_refused(state, observed(changed), ImplausibleRollError, "DL-23")
    assert error.message == "die 5 changed face"
    kept = table(state)                                             # committed dice may also show the same face
    after = state.apply(observed(kept))
    assert after.detail()["players"][2]["dice"] == {"5": 3, "6": 6, "7": 1, "8": 1}


def test_dl_23_nobody_committing_skips_the_re_roll():
    state = play(example_2(), "pass", (), (), ())
    assert state.expects().role == "DEALER" and state.status() == "Tokens -"


def test_dl_24_tokens_fill_the_spaces_in_order_from_the_tin():
    state = example_2_to_lottery()
    pending = state.expects()
    assert pending.role == "DEALER" and pending.question == "Token 1 (2 pts)?"
    assert pending.legal_keys() == ("1", "2", "3", "4", "5", "6", "none", "all", "draw")
    assert pending.default == "1"
    state = play(state, "6")
    assert state.expects().question == "Token 2 (3 pts)?" and "6" not in keys(state)
    assert_refused(state, Choice("6"), IllegalActionError)
    assert state.status() == "Tokens 6"


def test_dl_24_the_companion_draws_the_remaining_tokens_from_a_journaled_seed():
    state = play(example_2_to_lottery(), "all")
    assert_refused(state, Choice("draw"), IllegalActionError)      # the seed must come with the event
    assert_refused(state, Choice("draw:x"), IllegalActionError)
    first, again = play(state, "draw:1234"), play(state, "draw:1234")
    drawn = seeded_draw(("1", "2", "3", "4", "5", "6", "none"), 2, 1234)
    assert first.scores() == again.scores()
    expected = [lottery_points(list(dice.values()), ("all",) + drawn, (2, 3, 4)) for dice in
                [{0: 3, 1: 3, 2: 5}, {3: 1, 4: 6}, {5: 3, 6: 6, 7: 6, 8: 2}, {}]]
    rounds = [p["round_scores"][1] for p in first.detail()["players"]]
    assert rounds == [round_score(c, len(d), e, h) for c, d, e, h in
                      zip((4, 6, 3, 0), EXAMPLE_2_HELD, expected, (5, 0, 6, 8))]


def test_dl_24_the_seeded_draw_is_fair_and_without_replacement():
    tin = ("1", "2", "3", "4", "5", "6", "none", "all")
    counts = dict.fromkeys(tin, 0)
    for seed in range(8000):
        drawn = seeded_draw(tin, 3, seed)
        assert len(set(drawn)) == 3 and set(drawn) <= set(tin)
        counts[drawn[1]] += 1
    assert all(850 < n < 1150 for n in counts.values())           # 1000 expected each; sd about 30
    assert seeded_draw(tin, 3, 7) == seeded_draw(tin, 3, 7)


def test_dl_28_no_dice_middle_token_pays_no_lucky_bonus():
    state = play(example_2_to_lottery(lucky_card=True), "6", "none", "all")
    assert state.detail()["round"] == 3                            # no Lucky Card question
    # Spaces: 6 pays 2 per 6, no-dice nothing, all-dice 4 per die; Lucky Card adds nothing.
    assert [p["round_scores"][1] for p in state.detail()["players"]] == [
        4 + 3 + 12 - 5, 6 + 2 + (2 + 8) - 0, 3 + 4 + (4 + 16) - 6, 0]


def test_round_score_below_zero_never_carries_into_the_total():
    state = play(example_2_to_lottery(), "none", "1", "2")        # Dee: 0 - 8 -> 0, Ana 4 + 3 + 0 - 5 = 2
    players = state.detail()["players"]
    assert players[3]["round_scores"] == [0, 0] and state.scores()[3] == 0
    assert players[0]["round_scores"] == [5, 2]


# ------------------------------------------------------------------------------------ undo, errors, display

def test_undo_of_replace_wild_restores_wild_card_and_die():
    """UI-3 through the journal's Match: each undo reverts one event, the take first, then the choices."""
    match = Match.start(Setup("dice-lottery", NAMES[:3], 1))
    for event in (Choice("keep"), pool_roll(), *map(Choice, ("new", 3, "no", "new", 3, "yes", 1, "new", 3, "no",
                                                              "add_own", 1, "no", "add_other", "seat1", 2))):
        match.push(event)
    match.push(take_roll(match.state, 2))                       # example 1, before Ana's Replace wild
    before = match.state.detail()
    assert before["blocks"][1]["wild"] == 1 and hands(match.state)[0] == 5 and len(before["pool"]) == 13
    for event in (Choice("replace"), Choice("seat2")):
        match.push(event)
    match.push(take_roll(match.state, 1))
    assert match.state.detail()["blocks"][1]["wild"] is None and dice_counts(match.state)[0] == 1
    assert match.describe_last() == "dice taken"
    match.pop()                                                  # the die goes back to the pool
    assert len(match.state.detail()["pool"]) == 13 and dice_counts(match.state)[0] == 0
    assert match.state.expects().message == "Take 1 die"
    assert match.describe_last() == "target Cy"
    match.pop()
    assert match.describe_last() == "Replace wild"
    match.pop()                                                  # the wild is back in Cy's block, Ana's card in hand
    assert match.state.detail() == before and match.state.expects().question == "Action?"


def test_rolls_and_choices_are_refused_at_the_wrong_time():
    state = started()
    assert_refused(state, pool_roll(), ImplausibleRollError)
    assert_refused(state, Choice("new", player=1), IllegalActionError)    # not Ben's decision
    waiting = play(example_1()["ben2"], "add_other", "seat1", 2)
    assert_refused(waiting, Choice("pass"), IllegalActionError)


def test_status_and_headers_show_public_counts_and_fit_the_oled():
    state = example_1()["cy2"]
    assert state.status() == "Pool 13 Deck 28"
    pending = state.expects()
    assert pending.context == "R1 hand 5" and pending.player == 0
    take = play(state, "add_other", "seat2", 2).expects()
    assert take.lines == ("Ana takes 2", "of 13 in the pool") and take.context == "R1 take"


def test_detail_uses_the_spec_state_names():
    detail = example_1()["ana2"].detail()
    assert set(detail) == {"round", "dealer", "active", "deck", "pool", "players", "blocks", "ender", "tokens",
                           "prize_points"}
    assert set(detail["players"][0]) == {"name", "hand", "dice", "has_block", "round_scores"}
    assert detail["players"][1]["has_block"] and detail["blocks"][0] == {"id": 0, "owner": 1, "size": 6,
                                                                         "wild": None}


# ----------------------------------------------------------------------------------------------- options

def test_dl_30_prize_points_tokens_and_player_range_come_from_the_options():
    state = example_2_to_lottery(prize_points=((1, 1, 1), (5, 0, 0), (1, 1, 1)), tokens=(2, 3, 4, 5, 6, 7))
    assert "1" not in keys(state) and "7" in keys(state)
    assert state.expects().question == "Token 1 (5 pts)?"
    state = play(state, "6", "3", "all")
    assert [p["round_scores"][1] for p in state.detail()["players"]] == [4 + 3 - 5, 6 + 2 + 5 - 0,
                                                                         3 + 4 + 10 - 6, 0]
    six = new_state(("A", "B", "C", "D", "E", "F"), max_players=6)
    assert six.detail()["deck"] == 52 - 36
    with pytest.raises(IllegalActionError, match="2-5 players"):
        new_state(("A", "B", "C", "D", "E", "F"))
    with pytest.raises(IllegalActionError, match="3-5 players"):
        new_state(("A", "B"), min_players=3)


def test_dl_30_the_host_confirms_the_prize_points_before_the_first_pool_roll():
    state = new_game_state(prize_points=((1, 2, 3), (2, 3, 4), (3, 4, 6)))
    pending = state.expects()
    assert (pending.role, pending.context, pending.question) == ("HOST", "setup", "Prize points?")
    assert [o.label for o in pending.options] == ["1/2/3 2/3/4 3/4/6", "Change"] and pending.default == "keep"
    assert state.describe(Choice("keep")) == "prize points kept"
    kept = state.apply(Choice("keep"))
    assert kept.detail()["prize_points"] == [[1, 2, 3], [2, 3, 4], [3, 4, 6]]
    assert isinstance(kept.expects(), RollRequest) and kept.expects().count == 15


def test_dl_30_changed_prize_points_are_entered_on_nine_spinners_and_pay_the_lottery():
    state = new_game_state(NAMES[:2]).apply(Choice("change"))
    asked = []
    for points in (1, 1, 1, 5, 0, 0, 2, 2, 2):
        pending = state.expects()
        asked.append((pending.question, pending.default))
        assert (pending.kind, pending.role, pending.low, pending.high) == ("spinner", "HOST", 0, 20)
        state = state.apply(Choice(points))
    assert asked[0] == ("R1 space 1 points?", 1) and asked[5] == ("R2 space 3 points?", 4)
    assert asked[8] == ("R3 space 3 points?", 5)
    assert state.detail()["prize_points"] == [[1, 1, 1], [5, 0, 0], [2, 2, 2]]
    state = play(state.apply(pool_roll()), "new", 7, "no", "new", 3, "no")
    state = play(state, "add_other", "seat1", 1, take=1)                     # Ana takes die 0 (face 1)
    state = finish_round(play(state, "pass"), ("1", "none", "all"))
    assert state.expects().message == "Roll 15 dice"
    # Round 1 spaces worth 1, 1, 1: Ana 7 cards + 1 die + 1 (token 1) + 1 (all) = 10.
    assert [p["round_scores"] for p in state.detail()["players"]] == [[10], [0]]


def test_dl_30_prize_point_spinners_refuse_entries_out_of_range():
    state = new_game_state().apply(Choice("change"))
    assert_refused(state, Choice(21), IllegalActionError)
    assert_refused(state, Choice("keep"), IllegalActionError)


@pytest.mark.parametrize("options, words", [
    ({"card_mix": (7, 4)}, "card_mix"),
    ({"card_values": (1, 2, 4)}, "card_values"),
    ({"prize_points": ((1, 2, 3), (2, 3, 4))}, "prize_points"),
    ({"tokens": (1, 2, 3)}, "tokens"),
    ({"max_players": 9}, "players"),
    ({"lucky": True}, "unknown option"),
])
def test_dl_30_impossible_options_are_refused_in_one_line(options, words):
    with pytest.raises(IllegalActionError, match=words) as caught:
        new_state(**options)
    assert "\n" not in str(caught.value)


def test_dl_30_prize_points_given_as_lists_become_tuples():
    state = new_state(prize_points=[[1, 2, 3], [2, 3, 4], [3, 4, 5]])          # as a JSON setup gives them
    assert state.game.options.prize_points == ((1, 2, 3), (2, 3, 4), (3, 4, 5))
