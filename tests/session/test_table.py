"""The table: presses and rolls in, journaled events out; undo, resume, menus and the read check (UI-*)."""
import random
import re

import pytest

from companion.games import Choice, Decision, Die, Roll, RollRequest, Setup, game_class, names
from companion.games.base import split_seed
from companion.games.match import Match
from companion.games.playout import random_events
from companion.session.journal import Journal
from companion.session.presses import presses_for, presses_for_interrupt
from companion.session.table import Table
from companion.ui.controls import Press

SETUP = Setup("banx", ("Ana", "Ben"), 0, ("red", "blue"))


@pytest.fixture
def journal(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    yield journal
    journal.close()


def press(table, *presses):
    for p in presses:
        table.press(p)


def test_ui_3_undo_reverts_exactly_one_event_in_match_and_journal(journal):
    table = Table.new(SETUP, journal)
    assert table.observe(Roll.of(3, 3, 3, 5, 6))
    before = table.prompt()
    press(table, Press.OK)  # picks the default row: the second event
    assert len(table.match.events) == 2
    press(table, Press.UNDO)
    assert table.prompt().body[0].startswith("Undo ")
    press(table, Press.OK)
    assert len(table.match.events) == 1
    assert journal.events(table.game_id) == [Roll.of(3, 3, 3, 5, 6)]
    assert table.prompt() == before


def test_ui_3_back_keeps_the_event_and_repeated_undo_walks_back(journal):
    table = Table.new(SETUP, journal)
    table.observe(Roll.of(1, 2, 3, 4, 6))
    press(table, Press.OK)
    press(table, Press.UNDO, Press.BACK)
    assert len(table.match.events) == 2
    press(table, Press.UNDO, Press.OK, Press.UNDO, Press.OK)
    assert table.match.events == []
    assert isinstance(table.match.state.expects(), RollRequest)
    press(table, Press.UNDO)  # nothing left to undo: no screen opens
    assert not table.overlays


def test_ui_8_presses_while_waiting_for_dice_change_nothing(journal):
    table = Table.new(SETUP, journal)
    before = table.prompt()
    press(table, Press.OK, Press.NEXT, Press.PREV, Press.DONE, Press.BACK)
    assert table.prompt() == before
    assert journal.events(table.game_id) == []


def test_a_refused_roll_changes_nothing_and_says_why_on_the_status_line(journal):
    table = Table.new(SETUP, journal)
    assert not table.observe(Roll.of(3, 3, 5, 6))  # four dice
    assert table.match.events == [] and journal.events(table.game_id) == []
    assert table.prompt().status == table.message != ""
    assert "\n" not in table.message


def test_ui_4_menu_closes_with_back_and_the_screen_returns_unchanged(journal):
    table = Table.new(SETUP, journal)
    table.observe(Roll.of(2, 2, 4, 5, 6))
    press(table, Press.NEXT)
    before = table.prompt()
    press(table, Press.MENU)
    assert table.prompt().header == "MENU"
    press(table, Press.NEXT, Press.BACK)
    assert table.prompt() == before


def test_ui_4_menu_shows_public_scores(journal):
    table = Table.new(SETUP, journal)
    table.observe(Roll.of(6, 6, 6, 6, 1))
    table.choose(Choice("score"))
    table.choose(Choice("4kind"))
    press(table, Press.MENU, Press.OK)
    text = table.prompt().text()
    assert re.search(r"Ana\s+25", text) and re.search(r"Ben\s+0", text)


def test_read_check_corrects_a_doubtful_die_then_accepts():
    table = Table.new(SETUP)
    doubtful = Roll((Die(3), Die(None, confidence=0.3), Die(5), Die(6), Die(1)))
    assert not table.observe(doubtful)
    assert table.prompt().header == "READ CHECK" and "?" in table.prompt().body[0]
    press(table, Press.NEXT, Press.NEXT, Press.OK)  # the row "Die 2: ?"
    press(table, Press.NEXT, Press.NEXT, Press.OK)  # face 3
    press(table, Press.OK)                          # Accept
    assert table.match.events == [Roll.of(3, 3, 5, 6, 1)]


def test_read_check_re_roll_discards_the_reading():
    table = Table.new(SETUP)
    table.observe(Roll((Die(3), Die(None), Die(5), Die(6), Die(1))))
    press(table, Press.PREV, Press.OK)  # wraps to Re-roll (UI-7)
    assert table.match.events == [] and not table.overlays


def test_ui_9_header_names_whose_decision_it_is_and_changes_on_pass(journal):
    table = Table.new(SETUP, journal)
    assert table.prompt().header.startswith("ANA")
    table.observe(Roll.of(1, 1, 2, 3, 5))
    table.choose(Choice("score"))
    table.choose(Choice("aces"))
    assert table.prompt().header.startswith("BEN")


def test_resume_rebuilds_the_exact_state(journal):
    table = Table.new(SETUP, journal)
    rng = random.Random(7)
    for event, _ in zip(random_events(table.match.state, rng), range(40)):
        assert table._push(event[0])
    resumed = Table.resume(journal, journal.unfinished())
    assert resumed.match.events == table.match.events
    assert resumed.match.state.detail() == table.match.state.detail()
    assert resumed.prompt() == table.prompt()


@pytest.mark.parametrize("game", names())
def test_every_legal_choice_of_every_game_is_reachable_with_the_buttons(game):
    """Drive whole random games by button presses only: each planned press sequence enters exactly the choice,
    out-of-turn actions go through MENU, and seeded rows journal the seed the table drew."""
    for seed in range(3):
        rng = random.Random(seed)
        table = Table.new(setup_for(game, seed))
        while not table.is_over:
            state = table.match.state
            pending = state.expects()
            interrupts = state.interrupts()
            if interrupts and rng.random() < 0.05:
                interrupt = rng.choice(interrupts)
                choice = Choice(interrupt.option.key, interrupt.player)
                keys = presses_for_interrupt(interrupts, choice)
            elif isinstance(pending, RollRequest):
                assert table.observe(state.random_roll(rng)), table.message
                continue
            else:
                choice = pending.random_choice(rng)
                keys = presses_for(pending, choice)
                seeded = split_seed(choice.value)
                table.seeds = lambda: seeded[1] if seeded else 0
            count = len(table.match.events)
            press(table, *keys)
            assert len(table.match.events) == count + 1, table.message
            entered = table.match.events[-1].value
            assert sorted(entered) == sorted(choice.value) if isinstance(entered, tuple) else entered == choice.value


def setup_for(game: str, seed: int) -> Setup:
    cls = game_class(game)
    count = cls.min_players + seed % (min(cls.max_players, 4) - cls.min_players + 1)
    colours = ("red", "blue", "green", "yellow")[:count] if cls.needs_colours else ()
    return Setup(game, ("Ana", "Ben", "Cy", "Dee")[:count], seed % count, colours)


def test_ui_10_no_disc_count_is_drawn_before_the_shootout():
    rng = random.Random(3)
    table = Table.new(Setup("banx", ("Ana", "Ben", "Cy"), 0, ("red", "blue", "green")))
    while table.match.state.detail()["phase"].lower() == "main":
        text = table.prompt().text()
        assert not re.search(r"\d+\s*discs?\b|discs?\s*[:=]?\s*\d", text.replace("Pay 1 disc", "")), text
        pending = table.match.state.expects()
        event = table.match.state.random_roll(rng) if isinstance(pending, RollRequest) else pending.random_choice(rng)
        assert table._push(event)
        if isinstance(pending, Decision):
            press(table, Press.MENU, Press.OK)  # the Scores screen too
            assert "disc" not in table.prompt().text().lower()
            press(table, Press.BACK)


def test_finished_game_is_closed_in_the_journal(journal):
    rng = random.Random(11)
    table = Table.new(SETUP, journal)
    for event, _ in random_events(table.match.state, rng):
        assert table._push(event)
    assert table.is_over and journal.unfinished() is None
    assert table.prompt().header == "GAME OVER"
    assert Match.replay(SETUP, journal.events(table.game_id)).state.outcome() == table.match.state.outcome()


def test_ui_4_menu_opens_over_a_read_check_and_back_returns_it_unchanged():
    table = Table.new(SETUP)
    table.observe(Roll((Die(3), Die(None, confidence=0.3), Die(5), Die(6), Die(1))))
    press(table, Press.NEXT)
    before = table.prompt()
    press(table, Press.MENU)
    assert table.prompt().header == "MENU"
    press(table, Press.MENU)
    assert len(table.overlays) == 2, "MENU over the open menu opens no second one"
    press(table, Press.BACK)
    assert table.prompt() == before
