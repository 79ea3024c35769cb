"""The Dice Lottery demo script (companion/demos/dice-lottery.jsonl) replays to the end with the scores worked out
by hand from the spec, and its button presses per turn stay within controls.md's table."""
import json
from importlib.resources import files

from companion.games import Choice, Roll, Setup, event_from_json, new_game
from companion.session.presses import presses_for

# controls.md, Dice Lottery: presses per decision (cursor walking forward only), by the engine's phase
PRESSES = {"prizes": (1, 2), "action": (1, 5), "target": (1, 4), "block": (1, 4), "count": (1, 5), "wild": (1, 2),
           "wild_value": (1, 7), "commit": (1, 6), "lucky": (1, 6)}
TURN = ("action", "target", "block", "count", "wild", "wild_value", "card")


def replay_demo():
    lines = files("companion").joinpath("demos/dice-lottery.jsonl").read_text(encoding="utf-8").splitlines()
    state = new_game(Setup.from_json(json.loads(lines[0])["setup"])).new_initial_state()
    states, events = [state], [event_from_json(json.loads(line)) for line in lines[1:]]
    for event in events:
        state = state.apply(event)
        states.append(state)
    return states, events


def test_demo_plays_three_rounds_to_the_hand_computed_scores():
    states, events = replay_demo()
    final = states[-1]
    assert final.game.players == ("Ana", "Ben", "Cy") and final.expects() is None and len(events) <= 80
    rounds = [p["round_scores"] for p in final.detail()["players"]]
    # Round 1 (points 1/2/3; tokens 6, 3, all): Ana 6 cards + 2 dice (3, and her 5 re-rolled to 6) + (1 + 2 + 6)
    # - 0 = 17; Ben 5 cards (3 with his W, 2 added by Ana) - 5 in hand -> 0; Cy 3 + 1 die (1) + 3 - 5 = 2.
    # Round 2 (2/3/4; drawn from seed 3141592653: 6, 4, all): Ben 7 cards + 1 die (2) + 4 = 12; Cy 4 - 5 -> 0;
    # Ana 3 - 5 -> 0.
    # Round 3 (3/4/5; tokens 5, none, 6): Cy 7 cards + Ben's 3 + 1 die (4 re-rolled to 6) + 5 = 16; Ana 3 + Cy's 1
    # + 1 die (1) - 5 = 0; Ben 3 + 3 dice (5, 5, and 2 re-rolled to 5) + 9 - 2 = 13.
    assert rounds == [[17, 0, 0], [0, 12, 13], [2, 0, 16]]
    assert final.outcome().scores == (17, 25, 18) and final.outcome().winners == (1,)


def test_demo_shows_each_trigger_a_wild_a_replace_a_re_roll_and_a_companion_draw():
    states, events = replay_demo()
    choices = [e.value for e in events if isinstance(e, Choice)]
    assert {"new", "add_other", "replace", "pass", "yes"} <= set(choices)
    assert any(isinstance(v, str) and v.startswith("draw:") for v in choices)
    enders = [s.detail()["ender"] for s in states if s.detail()["ender"] is not None]
    assert sorted(set(enders)) == [0, 1, 2]                       # each player ends one round and deals the next
    rerolls = [e for s, e in zip(states, events) if isinstance(e, Roll) and s.describe(e) == "re-roll"]
    assert len(rerolls) == 2


def test_demo_presses_per_turn_stay_in_the_ranges_of_controls_md():
    states, events = replay_demo()
    turns, lottery = [], [0]
    for state, event in zip(states, events):
        if not isinstance(event, Choice):
            continue
        presses = len(presses_for(state.expects(), event))
        low, high = PRESSES.get(state.phase, (1, 21))
        assert low <= presses <= high, (state.phase, event.value)
        if state.phase == "action":
            turns.append(presses)
        elif state.phase in TURN:
            turns[-1] += presses
        elif state.phase == "token":
            lottery[-1] += presses
            if len(state.tokens) == 2 or event.value.startswith("draw:"):
                lottery.append(0)
    assert len(turns) == 18 and min(turns) == 1 and turns.count(1) == 3          # a Pass is one press
    assert sum(turns) == 97 and max(turns) == 13                                # 5.4 a turn on average
    assert all(3 <= presses <= 21 for presses in lottery[:-1]) and len(lottery) == 4   # three lotteries
