"""Countaloupe at the table: the Nope! chip's block through MENU (long NEXT) at every moment CL-23 to CL-25 allow it,
and the discard steps, taken by the table's clock or, with `strict_steps`, one OK per card (CL-25)."""
from luma.core.device import dummy

from companion.games import Die, Roll, RollRequest, Setup
from companion.session.demo import FRAME, TRAY_ZONES, Tray, demo_profile
from companion.session.loop import Session
from companion.session.table import Table
from companion.ui.controls import Press
from companion.vision.reader import DiceReader
from companion.vision.settle import SettleDetector
from companion.vision.synth import render_roll_frames

BLANK, SWEET, NOPE = (Die(kind="symbol", face=face) for face in ("blank", "sweet", "nope"))


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


def seated(*options, held_by=None):
    """A table for Ana, Ben and Cy (Ana to play) with a clocked session; the chip held by a seat if given."""
    table = Table.new(Setup("countaloupe", ("Ana", "Ben", "Cy"), 0, options=dict(options)))
    table.match.state.chip_holder = held_by
    clock = Clock()
    return table, Session(table, dummy(width=128, height=64, mode="1").display, clock=clock), clock


def roll(*values, chance=BLANK):
    return Roll(tuple(Die(v) for v in values) + (chance,))


def press(table, *presses):
    for p in presses:
        table.press(p)


def menu_rows(table):
    press(table, Press.MENU)
    rows = [line.strip("> ").strip() for line in table.prompt().body]
    return rows


def block_from_menu(table, moves=0):
    """MENU, down to the block row, OK to pick it, then the confirm screen that names the chip holder: OK."""
    press(table, Press.MENU, *[Press.NEXT] * moves, Press.OK)
    confirm = table.prompt()
    press(table, Press.OK)
    return confirm


def state(table):
    return table.match.state


def test_cl_23_block_before_the_roll_through_menu_names_the_holder_and_ignores_the_roll():
    table, _, _ = seated(held_by=1)
    assert menu_rows(table)[:2] == ["Block Ana (Ben)", "Block Cy (Ben)"]  # active player first, default row
    assert not table.observe(roll(1, 2, 4))  # a roll settling while the menu is open is not taken
    press(table, Press.OK)
    confirm = table.prompt()
    assert confirm.header == "BEN  interrupt" and confirm.body[0] == "Block Ana?"  # screen 5 names the holder
    press(table, Press.OK)
    assert state(table).detail()["chip"] == "ON(red)" and state(table).active == 1 and table.match.events[0].player == 1
    assert table.prompt().header.startswith("BEN")  # Ben's roll now; Ana's dice were ignored
    assert table.match.describe_last() == "block Ana"


def test_cl_23_block_a_deck_that_is_not_the_active_players():
    table, _, _ = seated(held_by=1)
    block_from_menu(table, moves=1)
    assert state(table).detail()["chip"] == "ON(green)" and state(table).active == 0  # Ana plays on
    assert isinstance(state(table).expects(), RollRequest)


def test_cl_25_menu_stops_the_automatic_discard_steps_and_a_block_cancels_the_rest():
    table, session, clock = seated(held_by=1)
    assert table.observe(roll(1, 2, 4))
    for card in (1, 2):  # the table discards by itself every discard_step_ms
        assert state(table).expects().question == f"Discard {card}"
        session.tick()
        clock.now += 0.81
        session.tick()
    assert state(table).expects().question == "Discard 3"
    session.press(Press.MENU)
    clock.now += 5
    session.tick()
    assert state(table).expects().question == "Discard 3"  # the open menu holds the step
    session.press(Press.OK)
    session.press(Press.OK)
    assert state(table).detail()["next"]["red"] == 3 and state(table).active == 1  # 3 to 7 cancelled, no penalty


def test_cl_25_strict_steps_wait_for_one_ok_per_card_and_a_block_fits_between_them():
    table, session, clock = seated(("strict_steps", True), held_by=2)
    assert table.observe(roll(1, 2, 4))
    clock.now += 60
    session.tick()
    assert state(table).expects().question == "Discard 1"  # nothing moves by itself
    assert table.prompt().body[0] == "Discard 1"
    press(table, Press.OK, Press.OK)
    assert state(table).detail()["next"]["red"] == 3
    block_from_menu(table)
    assert state(table).detail()["next"]["red"] == 3 and state(table).detail()["chip"] == "ON(red)"


def test_cl_24_block_at_end_or_risk_ends_the_turn_with_no_choice():
    table, _, _ = seated(("strict_steps", True), held_by=2)
    table.observe(roll(1, 1, 6))
    press(table, Press.OK, Press.OK)
    assert state(table).expects().question.startswith("Risk")
    block_from_menu(table)
    assert state(table).active == 1 and state(table).detail()["next"]["red"] == 3
    assert isinstance(state(table).expects(), RollRequest)


def test_cl_25_no_block_while_a_chance_die_choice_is_open():
    table, _, _ = seated(held_by=1)
    table.observe(roll(1, 2, 3, chance=SWEET))
    assert not any(row.startswith("Block") for row in menu_rows(table))
    press(table, Press.BACK)
    press(table, Press.OK)  # Keep: the dice count, and the block is offered again
    assert menu_rows(table)[0] == "Block Ana (Ben)"


def test_cl_25_a_nope_hands_the_block_to_the_roller():
    table, _, _ = seated(held_by=1)
    table.observe(roll(1, 2, 3, chance=NOPE))
    assert menu_rows(table)[:2] == ["Block Ben (Ana)", "Block Cy (Ana)"]  # Ben's chip is Ana's now
    press(table, Press.OK)
    assert table.prompt().header == "ANA  interrupt"


def test_ui_4_back_closes_the_menu_and_the_discard_step_returns_unchanged():
    table, _, _ = seated(("strict_steps", True), held_by=1)
    table.observe(roll(1, 2, 4))
    before = table.prompt()
    press(table, Press.MENU, Press.BACK)
    assert table.prompt() == before
    press(table, Press.MENU, Press.OK, Press.BACK)  # BACK on the confirm: no block
    assert table.prompt() == before and state(table).detail()["chip"] == "HELD(Ben)"


def test_ui_3_undo_of_a_block_restores_the_chip_and_the_turn():
    table, _, _ = seated(("strict_steps", True), held_by=1)
    table.observe(roll(1, 2, 4))
    press(table, Press.OK)
    block_from_menu(table)
    press(table, Press.UNDO)
    assert table.prompt().body[0] == "Undo block Ana?"
    press(table, Press.OK)
    assert state(table).detail()["chip"] == "HELD(Ben)" and state(table).expects().question == "Discard 2"


def test_cl_25_a_strict_discard_step_is_taken_by_ok_alone():
    table, _, _ = seated(("strict_steps", True))
    table.observe(roll(1, 2, 4))
    assert table.prompt().hints == "OK next", "a step to acknowledge offers no 'BACK no'"
    press(table, Press.BACK)
    assert state(table).expects().question == "Discard 1" and state(table).detail()["next"]["red"] == 1
    press(table, Press.OK)
    assert state(table).detail()["next"]["red"] == 2


def test_ui_4_cl_23_a_block_from_menu_over_a_read_check_ends_the_turn_and_the_check():
    table, _, _ = seated(held_by=1)
    assert not table.observe(Roll((Die(1), Die(None, confidence=0.2), Die(4), BLANK)))
    assert table.prompt().header == "READ CHECK"
    block_from_menu(table)
    assert state(table).active == 1 and state(table).detail()["chip"] == "ON(red)"
    assert not table.overlays and isinstance(state(table).expects(), RollRequest)


def test_cl_24_dice_still_rolling_when_the_turn_is_blocked_are_not_the_next_players_roll():
    """Ana's dice tumble as Ben blocks her: they settle in front of the camera, but Ben's roll is the one he throws."""
    table, _, _ = seated(held_by=1)
    anas, bens = roll(2, 4, 6), roll(1, 3, 5)
    reader = DiceReader(demo_profile(list(anas.dice + bens.dice), TRAY_ZONES))
    session = Session(table, dummy(width=128, height=64, mode="1").display, reader.read, SettleDetector())
    tumbling = render_roll_frames(Tray(TRAY_ZONES).scene(anas), moving=4, still=8, seed=1, size=FRAME)
    assert not any(session.frame(frame) for frame in tumbling[:3])
    for p in (Press.MENU, Press.OK, Press.OK):      # Ben blocks Ana's deck from the menu
        session.press(p)
    assert state(table).active == 1 and len(table.match.events) == 1
    assert not any(session.frame(frame) for frame in tumbling[3:])
    assert len(table.match.events) == 1, "Ana's dice at rest are not Ben's roll"
    thrown = render_roll_frames(Tray(TRAY_ZONES).scene(bens), moving=4, still=8, seed=2, size=FRAME)
    assert any(session.frame(frame) for frame in thrown)
    taken = table.match.events[-1]
    assert isinstance(taken, Roll) and sorted(d.value for d in taken.dice if d.kind == "pips") == [1, 3, 5]


def test_still_dice_are_read_until_their_roll_is_taken_and_not_again_until_they_move():
    """The dice lie still while the players decide: reading them on every frame could report nothing."""
    table, _, _ = seated()
    anas, bens = roll(2, 4, 6), roll(1, 3, 5)
    reader = DiceReader(demo_profile(list(anas.dice + bens.dice), TRAY_ZONES))
    reads = []

    def read(frame):
        reads.append(frame)
        return reader.read(frame)

    session = Session(table, dummy(width=128, height=64, mode="1").display, read,
                      SettleDetector(quiet_frames=3, repeats=2))
    thrown = render_roll_frames(Tray(TRAY_ZONES).scene(anas), moving=4, still=12, seed=1, size=FRAME)
    taken = [session.frame(frame) for frame in thrown]
    assert taken.count(True) == 1 and len(reads) == 2  # the two settled frames whose readings repeat
    again = render_roll_frames(Tray(TRAY_ZONES).scene(bens), moving=4, still=12, seed=2, size=FRAME)
    assert [session.frame(frame) for frame in again].count(True) == 1 and len(reads) == 4
