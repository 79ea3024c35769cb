"""A journal whose last write was cut short opens at the last whole event and says so (issue 8, item 1).

The damage is done by hand to real SQLite files: a write-ahead log copied as a power cut leaves it (the database is
still open) and then torn inside its last frame, or an event row overwritten with a half-written one.
"""
import os
import shutil
import sqlite3

import pytest

from companion import games
from companion.games.match import Match
from companion.session.journal import CUT_SHORT, Journal
from companion.session.table import Table

from .scripted import enter, scripted_game


def journal_with(path, name, count, seed=0):
    """A journal holding the first `count` events of a scripted game, left open as at a power cut."""
    setup, events, _ = scripted_game(name, seed)
    journal = Journal(path)
    game = journal.new_game(setup)
    for event in events[:count]:
        assert journal.append(game, event)
    return journal, game, events


def power_cut_copy(journal: Journal, to):
    """The database and its write-ahead log as they are on disk now, without the clean close that would merge
    them: what a power cut leaves."""
    shutil.copy(journal.path, to)
    shutil.copy(f"{journal.path}-wal", f"{to}-wal")
    return to


@pytest.mark.parametrize("name", games.names())
def test_a_log_torn_inside_its_last_write_opens_at_the_last_whole_event_and_says_so(name, tmp_path):
    journal, game, events = journal_with(tmp_path / "live.sqlite", name, 12)
    intact = Journal(power_cut_copy(journal, tmp_path / "intact.sqlite"))
    assert intact.events(game) == events[:12] and intact.recovered == ""
    intact.close()
    torn = power_cut_copy(journal, tmp_path / "torn.sqlite")
    os.truncate(f"{torn}-wal", os.path.getsize(f"{torn}-wal") - 100)   # the last frame lost its end
    recovered = Journal(torn)
    assert recovered.events(game) == events[:11]
    assert recovered.recovered == CUT_SHORT
    assert recovered.append(game, events[11])   # the player enters it again; it lands once
    recovered.close()
    assert Journal(torn).events(game) == events[:12]
    journal.close()


def test_a_log_whose_last_commit_never_came_is_cut_short_too(tmp_path):
    """Frames of a transaction without its commit frame: the event is dropped, and said to be."""
    journal, game, events = journal_with(tmp_path / "live.sqlite", "banx", 5)
    before = os.path.getsize(f"{journal.path}-wal")
    assert journal.append(game, events[5])
    copy = power_cut_copy(journal, tmp_path / "copy.sqlite")
    wal = bytearray(open(f"{copy}-wal", "rb").read())
    page = int.from_bytes(wal[8:12], "big")
    last = len(wal) - (24 + page)
    assert last >= before
    wal[last + 4:last + 8] = bytes(4)   # the last frame no longer says "commit" (its database size is 0)
    open(f"{copy}-wal", "wb").write(wal)
    reopened = Journal(copy)
    assert reopened.events(game) == events[:5] and reopened.recovered == CUT_SHORT
    reopened.close()
    journal.close()


@pytest.mark.parametrize("damage", [
    "'{\"roll\": [3, 1, 4'",              # JSON cut short
    "CAST(X'7B2263686F696365223A80FF7D' AS TEXT)",   # bytes that are not UTF-8
    "'{\"dance\": 1}'",                   # JSON, but not an event
])
def test_a_damaged_event_row_is_set_aside_with_the_rows_after_it(tmp_path, damage):
    path = tmp_path / "journal.sqlite"
    journal, game, events = journal_with(path, "countaloupe", 8)
    journal.close()
    db = sqlite3.connect(path)
    db.execute(f"UPDATE events SET event = {damage} WHERE game = ? AND seq = 6", (game,))
    db.commit()
    db.close()
    journal = Journal(path)
    assert journal.events(game) == events[:5]
    assert journal.recovered == "Bad event 6: redo"
    assert len(journal.recovered) <= 21   # one OLED status line
    table = Table.resume(journal, game)
    assert table.match.state.detail() == Match.replay(journal.setup(game), events[:5]).state.detail()
    for event in events[5:8]:
        assert enter(table, event)
    journal.close()
    again = Journal(path)
    assert again.events(game) == events[:8] and again.recovered == ""
    kept = again._db.execute("SELECT seq FROM damaged_events WHERE game = ? ORDER BY seq", (game,)).fetchall()
    assert [seq for seq, in kept] == [6, 7, 8]   # nothing is destroyed: the rows are kept aside
    again.close()


def test_undo_after_the_game_ended_reopens_it_in_the_journal(tmp_path):
    """Undoing the last event of a finished game makes it the game to resume again: a power cut after that undo
    must not leave a game in play that the journal calls finished."""
    setup, events, _ = scripted_game("roll-your-luck", 3)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table.new(setup, journal)
    for event in events:
        assert enter(table, event)
    assert table.is_over and journal.unfinished() is None
    table.undo()
    assert journal.unfinished() == table.game_id
    journal.close()
    resumed = Table.resume(Journal(tmp_path / "journal.sqlite"), 1)
    assert resumed.match.events == events[:-1] and not resumed.is_over
    assert enter(resumed, events[-1])
    assert resumed.journal.unfinished() is None
    resumed.journal.close()


def test_the_table_shows_what_the_journal_recovered(tmp_path):
    journal, game, _ = journal_with(tmp_path / "live.sqlite", "banx", 6)
    torn = power_cut_copy(journal, tmp_path / "torn.sqlite")
    os.truncate(f"{torn}-wal", os.path.getsize(f"{torn}-wal") - 100)
    table = Table.resume(Journal(torn), game)
    assert table.prompt().status == CUT_SHORT
    journal.close()


def test_a_game_whose_end_was_cut_off_is_finished_on_resume(tmp_path):
    setup, events, _ = scripted_game("roll-your-luck", 4)
    journal = Journal(tmp_path / "journal.sqlite")
    game = journal.new_game(setup)
    for event in events:   # every event on disk, then the power went before the game was marked finished
        journal.append(game, event)
    table = Table.resume(journal, game)
    assert table.is_over
    assert journal.unfinished() is None, "the home screen would offer to resume a finished game"
    journal.close()
