"""The SQLite journal: durable, replayable, undoable, and honest about a disk that refuses writes."""
import sqlite3

import pytest

from companion.games import Choice, Roll, Setup
from companion.games.match import Match
from companion.session.journal import Journal, JournalError

SETUP = Setup("banx", ("Ana", "Ben"), 0, ("red", "blue"))
EVENTS = [Roll.of(3, 3, 3, 5, 6), Choice("score"), Choice("3kind"), Roll.of(1, 2, 3, 4, 5)]


@pytest.fixture
def journal(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    yield journal
    journal.close()


def test_wal_and_full_sync(journal):
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_survive_reopening_in_order(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    game = journal.new_game(SETUP)
    for event in EVENTS:
        assert journal.append(game, event)
    journal.close()
    again = Journal(tmp_path / "j.sqlite")
    assert again.unfinished() == game
    assert again.setup(game) == SETUP
    assert again.events(game) == EVENTS
    assert Match.replay(again.setup(game), again.events(game)).state.detail() == \
        Match.replay(SETUP, EVENTS).state.detail()


def test_pop_removes_exactly_the_last_event(journal):
    game = journal.new_game(SETUP)
    for event in EVENTS:
        journal.append(game, event)
    journal.pop(game)
    assert journal.events(game) == EVENTS[:-1]
    journal.append(game, EVENTS[-1])
    assert journal.events(game) == EVENTS


def test_finished_game_is_not_resumed(journal):
    game = journal.new_game(SETUP)
    journal.finish(game)
    assert journal.unfinished() is None
    assert journal.newest() == game


def test_export_is_setup_then_events(journal):
    game = journal.new_game(SETUP)
    journal.append(game, EVENTS[0])
    assert journal.export(game) == [{"setup": SETUP.to_json()}, {"roll": [3, 3, 3, 5, 6]}]


def test_journal_from_a_newer_version_is_refused_in_one_line(tmp_path):
    path = tmp_path / "new.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="newer version") as error:
        Journal(path)
    assert "\n" not in str(error.value)


def test_a_file_that_is_not_a_journal_is_refused(tmp_path):
    path = tmp_path / "garbage.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="garbage.sqlite"):
        Journal(path)


def test_refused_writes_wait_in_order_and_land_once(journal):
    """A disk that refuses writes (here: a write lock held by another connection) loses nothing."""
    game = journal.new_game(SETUP)
    journal._db.execute("PRAGMA busy_timeout = 0")
    blocker = sqlite3.connect(journal.path, isolation_level=None, timeout=0)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        assert not journal.append(game, EVENTS[0])
        assert not journal.append(game, EVENTS[1])
        assert journal.events(game) == EVENTS[:2]  # still part of the game, in memory
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert journal.append(game, EVENTS[2])
    assert journal.is_durable
    rows = journal._db.execute("SELECT seq FROM events WHERE game = ? ORDER BY seq", (game,)).fetchall()
    assert [r[0] for r in rows] == [1, 2, 3]


def test_a_finish_waiting_for_the_disk_counts_and_a_new_game_comes_after_it(journal):
    """The journal keeps the order of play: a game started while earlier writes wait for the disk is refused until
    they land, and then they land first."""
    game = journal.new_game(SETUP)
    journal._db.execute("PRAGMA query_only = ON")
    assert not journal.append(game, EVENTS[0]) and not journal.finish(game)
    assert journal.is_finished(game) and journal.unfinished() is None   # as the table sees it, in memory
    with pytest.raises(JournalError, match="earlier moves still wait for the disk"):
        journal.new_game(SETUP)
    journal._db.execute("PRAGMA query_only = OFF")
    second = journal.new_game(SETUP)
    assert journal.is_durable and second == game + 1
    on_disk = journal._db.execute("SELECT finished IS NOT NULL FROM games ORDER BY id").fetchall()
    assert on_disk == [(1,), (0,)] and journal.events(game) == EVENTS[:1]
    journal.pop(game)
    assert not journal.is_finished(game) and journal.unfinished() == second
