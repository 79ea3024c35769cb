"""Lowdown at the table: the real screens, presses and camera checks (LOW-23, LOW-26, LOW-17, UI-6, UI-10), and both
modes' demos played through the simulated camera and buttons, with their presses per turn."""
import subprocess
import sys
from dataclasses import replace

import pytest
from luma.core.device import dummy

from companion.games import Choice, Die, Roll, RollRequest, Setup
from companion.games.match import Match
from companion.session.demo import demo_script, play_demo
from companion.session.home import Home
from companion.session.presses import Unreachable, presses_for
from companion.session.script import parse_script
from companion.session.table import Table
from companion.ui.controls import Press
from companion.ui.widgets import MultiSelect, widget_for

from .test_lowdown import ANA, ANA_CROSSES, BEN, colour, dice, example_5

STEPS = {"own": ["own", "red", "2", "normal", "red-orange", "red-orange:11"], "hidden": ["hidden"]}


def table_for(mode="full", players=("Ana", "Ben", "Cy")) -> Table:
    return Table.new(Setup("lowdown", players, 0, options={"mode": mode}))


def in_zone(roll: Roll, zone="hidden") -> tuple[Die, ...]:
    return tuple(replace(d, zone=zone) for d in roll.dice)


def answer(table: Table, value) -> None:
    """Enter a choice with the buttons, as a player would."""
    for press in presses_for(table.match.state.expects(), Choice(value)):
        table.press(press)


def screens_now(table: Table) -> list[str]:
    """Every screen a player can call up now: the prompt, MENU, and MENU > Last read (closed again after)."""
    shown = [table.prompt().text()]
    table.press(Press.MENU)
    shown.append(table.prompt().text())
    rows = [o.key for o in table.overlays[-1].widget.options]
    for press in [Press.NEXT] * rows.index("read") + [Press.OK]:
        table.press(press)
    shown.append(table.prompt().text())
    table.press(Press.BACK)
    assert not table.overlays
    return shown


def turn_screens(mode: str, source: str, pair: tuple[str, int]) -> tuple[list[str], Table]:
    """The screens of Ana's turn up to the reveal, with `pair` lying in the hidden zone and shown too early once."""
    table = table_for(mode)
    assert table.observe(Roll(dice("red", "blue", 2, 5).dice + in_zone(dice(*pair))))
    shown = screens_now(table)
    for step in STEPS[source] if mode == "full" else STEPS[source][:4]:
        assert not table.observe(Roll(dice("red", "blue", 2, 5, *pair).dice[:-1] + (Die(value=None),)))
        assert not table.overlays                    # no read check: the view is drawn nowhere
        shown += screens_now(table)
        answer(table, step)
        shown += screens_now(table)
    assert isinstance(table.match.state.expects(), RollRequest) and table.match.state.hidden is None
    return shown, table


@pytest.mark.parametrize("mode", ["light", "full"])
@pytest.mark.parametrize("source", ["own", "hidden"])
def test_low_23_ui_10_no_screen_before_the_reveal_depends_on_the_hidden_pair(mode, source):
    """Render test on every prompt of the turn: two different pairs, the same screens until H shows the pair."""
    purple, purple_table = turn_screens(mode, source, ("purple", 6))
    yellow, yellow_table = turn_screens(mode, source, ("yellow", 3))
    assert purple == yellow
    assert "hidden dice visible" in "".join(purple)
    assert purple_table.observe(Roll(in_zone(dice("purple", 6))))    # revealed where it lies
    assert yellow_table.observe(dice("yellow", 3))
    assert screens_now(purple_table) != screens_now(yellow_table)


def test_low_23_a_view_showing_the_pair_early_is_refused_before_the_read_check_or_last_read():
    table = table_for()
    assert not table.observe(Roll(dice("red", "blue", 2, 5, "purple").dice + (Die(value=None),)))
    assert not table.overlays and table.last_read == ()
    assert table.message == "hidden dice visible" and "hidden dice visible" in table.prompt().text()
    assert table.match.events == []
    assert any("no roll read yet" in text for text in screens_now(table))


def test_low_23_hidden_zone_dice_never_open_the_read_check_and_never_show_in_last_read():
    table = table_for()
    hidden = in_zone(Roll((colour("purple"), Die(value=None))))
    assert table.observe(Roll(dice("red", "blue", 2, 5).dice + hidden))
    assert not table.overlays and table.last_read == dice("red", "blue", 2, 5).dice
    assert table.match.state.detail()["roll"] == ["red", "blue", 2, 5]
    assert not any("purple" in text for text in screens_now(table))


def ben_to_pick():
    """A light-mode table where Ana has picked and revealed the hidden pair: Ben picks from the pool
    red, purple, 2, 1, which must lie still (LOW-26)."""
    table = table_for("light")
    table.observe(dice("red", "blue", 2, 5))
    for step in ["own", "blue", "5", "normal"]:
        answer(table, step)
    table.observe(dice("purple", 1))
    assert table.match.state.picker == BEN
    return table


def test_low_26_a_pool_die_moved_during_the_picks_is_warned_on_the_status_line():
    table = ben_to_pick()
    before = table.match.state.detail()
    assert not table.observe(dice("red", "purple", 3, 1))
    assert table.message == "a pool die moved" and "a pool die moved" in table.prompt().text()
    assert table.match.state.detail() == before
    answer(table, "normal")                          # Ben picks all the same: the message goes
    assert table.message == "" and table.match.state.picker == 2


def cross_step_of_example_4():
    """Ana's cross-out decision at the end of examples 4 and 5."""
    history = []
    example_5(history)
    state = next(s for s, _ in reversed(history) if s.phase == "cross" and s.picker == ANA)
    return state.expects()


def test_low_17_ui_6_the_cross_out_screen_brackets_lines_crossing_a_marked_one():
    decision = cross_step_of_example_4()
    widget = widget_for(decision)
    assert isinstance(widget, MultiSelect)
    widget.press(Press.OK)                            # marks red/orange row 1
    rows = {o.key: o.enabled for o in widget.options}
    assert rows["red-orange:13-33"] is False and rows["red-orange:13-31"] is False   # they share a box with it
    assert rows["red-orange:21-23"] and rows["green-yellow:11-13"]
    assert widget.reason() == "excluded by a marked row"
    assert any(row.text.startswith("  [-] R/O 13-33") for row in widget.rows())
    widget.press(Press.OK)                            # unmarked: every line is offered again
    assert all(o.enabled for o in widget.options)


def test_low_17_example_4_lines_are_entered_with_the_buttons_and_a_crossing_set_is_unreachable():
    decision = cross_step_of_example_4()
    assert presses_for(decision, Choice(ANA_CROSSES))[-1] is Press.DONE
    with pytest.raises(Unreachable):
        presses_for(decision, Choice(("red-orange:11-13", "red-orange:13-33")))


# The demos of both modes ------------------------------------------------------------------------------------------
def played(variant):
    script = demo_script("lowdown", variant)
    table, report = play_demo(script, dummy(width=128, height=64, mode="1"))
    setup, numbered = parse_script(script.splitlines())
    expected = Match.replay(setup, [event for _, event in numbered])
    assert table.is_over and table.match.state.detail() == expected.state.detail()
    return table.match.state, report, numbered


def test_light_demo_plays_through_camera_and_buttons_with_two_to_three_presses_per_player_per_turn():
    state, report, numbered = played("light")
    assert state.game.options.mode == "light" and state.turn == 18
    assert state.outcome().scores == (29, 51, 44) and state.outcome().winners == (ANA,)
    assert (state.wilds_used, state.blackouts, state.declared) == ((2, 2, 4), (0, 0, 3), (True, False, False))
    hidden_zone = [e for _, e in numbered if isinstance(e, Roll) and any(d.zone == "hidden" for d in e.dice)]
    assert len(hidden_zone) == 5
    per_player_turn = report.presses / state.turn / len(state.game.players)
    assert 2 <= per_player_turn <= 3                 # controls.md: light 2-3 per player per turn


def test_full_demo_presses_per_player_per_turn_are_within_controls_md():
    state, report, _ = played(None)
    assert state.game.options.mode == "full"
    assert 5 <= report.presses / state.turn / len(state.game.players) <= 15


def test_demo_command_plays_the_light_variant():
    done = subprocess.run([sys.executable, "-m", "companion", "demo", "--game", "lowdown", "--variant", "light",
                           "--quiet"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Lowdown: final scores" in done.stdout and "presses per turn" in done.stdout
    missing = subprocess.run([sys.executable, "-m", "companion", "demo", "--game", "lowdown", "--variant", "dark"],
                             capture_output=True, text=True, timeout=300)
    assert missing.returncode != 0 and "no demo for 'lowdown-dark'" in missing.stderr


# Setup at the table (`dice-companion play lowdown`) -----------------------------------------------------------------
@pytest.mark.parametrize("configured, picked", [({}, "light"), ({}, "full"), ({"mode": "full"}, "full")])
def test_setup_the_host_picks_the_mode_light_by_default(configured, picked):
    home = Home(("Ana", "Ben", "Cy"), {"lowdown": configured}, game="lowdown")
    for value in ["2", "Ana", "Ben"]:
        home.apply(Choice(value))
    mode = home.expects()
    assert mode.question == "Mode?" and mode.default == configured.get("mode", "light")
    assert [o.key for o in mode.options] == sorted(("light", "full"), key=lambda v: v != mode.default)
    home.apply(Choice(picked))
    assert home.expects().question == "Who starts?"
    home.apply(Choice("1"))
    assert home.result == Setup("lowdown", ("Ana", "Ben"), 1, (), {"mode": picked})
    assert Table.new(home.result).match.game.full == (picked == "full")


def test_colour_risk_a_doubtful_colour_die_is_corrected_on_the_read_check():
    """Camera vs buttons: a player corrects one colour die (red/orange, purple/blue look alike) by its face."""
    table = table_for()
    doubtful = Die(kind="colour", face=None, confidence=0.4)
    assert not table.observe(Roll((colour("red"), doubtful, Die(value=2), Die(value=5))))
    check = table.overlays[-1].widget
    assert [o.enabled for o in check.options] == [True, True, True, True, True, True]
    for press in [Press.NEXT, Press.NEXT, Press.OK]:          # Die 2
        table.press(press)
    faces = [o.key for o in table.overlays[-1].widget.options]
    assert faces == ["red", "orange", "yellow", "green", "blue", "purple"]
    for press in [Press.NEXT] * 5 + [Press.OK, Press.OK]:      # purple, then Accept
        table.press(press)
    assert not table.overlays and table.match.state.detail()["roll"] == ["red", "purple", 2, 5]


def test_low_26_the_warning_goes_once_the_pool_dice_are_put_back():
    table = ben_to_pick()
    assert not table.observe(dice("red", "purple", 3, 1))
    assert table.message == "a pool die moved"
    table.observe(dice("red", "purple", 2, 1))       # put back as they lay
    assert table.message == "" and "a pool die moved" not in table.prompt().text()
