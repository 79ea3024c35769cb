"""The BANX demo script (companion/demos/banx.jsonl) replays to the end with the scores worked out by hand."""
import json
from importlib.resources import files

from companion.games import Setup, event_from_json, new_game


def replay_demo():
    lines = files("companion").joinpath("demos/banx.jsonl").read_text(encoding="utf-8").splitlines()
    setup = Setup.from_json(json.loads(lines[0])["setup"])
    state = new_game(setup).new_initial_state()
    events = [event_from_json(json.loads(line)) for line in lines[1:]]
    for event in events:
        state = state.apply(event)
    return state, events


def test_demo_plays_a_whole_two_player_game_to_the_hand_computed_scores():
    state, events = replay_demo()
    assert state.game.players == ("Ana", "Ben") and state.game.setup.colours == ("red", "blue")
    assert len(events) <= 90 and state.expects() is None
    # Ana: top 2+6+9+12+20+24 = 73, +50 bonus = 123; bottom 27+26+20+30+40+50+24 = 217, +50 for the X = 267;
    # Shootout 6+6+6+5+2 = 25 beats Ben's 20 and is recorded: 123 + 267 + 25 = 415.
    # Ben: top 2+6+6+8+15+18 = 55, no bonus; bottom 20+18+20+30+40+0+26 = 154; entry 0: 209.
    assert state.outcome().scores == (415, 209) and state.outcome().winners == (0,)
    ana, ben = state.detail()["players"]
    assert ana["extra_booms"] == 1 and ben["sheet"]["BOOM"] == 0
    # Discs: Ana 2 +2 +2 (turns 1-2) +2 +2 +2 (turns 3-5) = 12; Ben 2 -1 (paid roll 4) +2 +2 +2 +1 = 8; supply 0.
    assert (ana["discs"], ben["discs"], state.detail()["supply"]) == (12, 8, 0)
    assert (ana["shootout"], ben["shootout"]) == (25, 20)


def test_demo_shows_the_strip_a_paid_roll_an_extra_boom_and_the_shootout():
    _, events = replay_demo()
    values = [getattr(e, "value", None) for e in events]
    assert "pay" in values and "yes" in values and "stop" in values
    assert any(any(d.zone == "keep" for d in getattr(e, "dice", ())) for e in events)
