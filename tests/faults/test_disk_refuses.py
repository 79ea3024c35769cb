"""A full or read-only disk: the OLED warns, play goes on in memory, and the writes land once the disk takes them.

"full" is the kernel refusing to grow the journal's files (RLIMIT_FSIZE: write() fails with EFBIG, as on a full
card); "read-only" is SQLite refusing every write on the connection (PRAGMA query_only, the error a read-only remount
gives). Both go through the real SQLite and the real Journal; nothing is mocked. The last test runs the whole
appliance loop: its OLED, its buttons on MockFactory pins, and the loop's own retries.
"""
import contextlib
import random
import resource
import signal
import sqlite3

import cv2
import numpy as np
import pytest

from companion import games
from companion.games import Choice
from companion.games.match import Match
from companion.session.journal import Journal, JournalError
from companion.session.table import DISK_WARNING, Table
from companion.vision.sources import FolderSource

from .rig import FRAME, Companion, journal_holding
from .scripted import enter, scripted_game


@contextlib.contextmanager
def disk_refusing(kind: str, journal: Journal):
    if kind == "read-only":
        journal._db.execute("PRAGMA query_only = ON")
        try:
            yield
        finally:
            journal._db.execute("PRAGMA query_only = OFF")
        return
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    on_signal = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # else the kernel's SIGXFSZ ends the process
    resource.setrlimit(resource.RLIMIT_FSIZE, (journal.path.with_name(journal.path.name + "-wal").stat().st_size,
                                               limits[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, on_signal)


@pytest.mark.parametrize("kind", ["full", "read-only"])
@pytest.mark.parametrize("name", games.names())
def test_play_goes_on_in_memory_and_every_event_lands_once_the_disk_takes_writes(name, kind, tmp_path):
    rng = random.Random(f"{name} {kind}")
    setup, events, states = scripted_game(name, seed=1)
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table.new(setup, journal)
    played = rng.randint(3, 8)
    for event in events[:played]:
        assert enter(table, event) and journal.is_durable
    with disk_refusing(kind, journal):
        table.undo()                                  # an undo of an event already on disk waits too
        assert not journal.is_durable
        for event in events[played - 1:played + 10]:
            assert enter(table, event), "play goes on while the disk refuses"
            assert table.prompt().status == DISK_WARNING
        table.undo()                                  # an undo of an event still waiting, then it again
        assert enter(table, events[played + 9])
        assert journal.events(table.game_id) == table.match.events == events[:played + 10]
        assert not journal.flush()
    assert journal.flush() and journal.is_durable     # what the appliance's loop does on every turn
    journal.close()
    reopened = Journal(path)
    assert reopened.events(1) == events[:played + 10]
    assert Match.replay(setup, reopened.events(1)).state.detail() == states[played + 10].detail()
    reopened.close()


def test_closing_while_the_disk_refuses_says_how_many_writes_were_not_saved(tmp_path):
    setup, events, _ = scripted_game("banx", seed=2)
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table.new(setup, journal)
    assert enter(table, events[0])
    with disk_refusing("full", journal):
        assert enter(table, events[1]) and enter(table, events[2])
        with pytest.raises(JournalError, match="2 writes could not be saved") as refused:
            journal.close()
    assert "\n" not in str(refused.value)
    assert Journal(path).events(1) == events[:1]   # the acknowledged event is kept


def test_a_new_game_on_a_refusing_disk_is_one_clear_error(tmp_path):
    setup, _, _ = scripted_game("countaloupe", seed=3)
    journal = Journal(tmp_path / "journal.sqlite")
    with disk_refusing("read-only", journal):
        with pytest.raises(JournalError, match="cannot start a game") as refused:
            Table.new(setup, journal)
    assert "\n" not in str(refused.value)
    journal.close()


def test_the_disk_warning_stays_while_writes_wait_and_goes_once_they_land(tmp_path):
    setup, events, _ = scripted_game("banx", seed=4)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table.new(setup, journal)
    with disk_refusing("full", journal):
        assert enter(table, events[0])
        assert not table.choose(Choice("no such option"))   # refused by the rules, and still nothing saved
        assert DISK_WARNING in table.prompt().status
    assert journal.flush()
    assert DISK_WARNING not in table.prompt().status
    journal.close()


def test_a_game_that_ends_while_the_disk_refuses_is_finished_once_it_takes_writes(tmp_path):
    setup, events, _ = scripted_game("roll-your-luck", seed=5)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table.new(setup, journal)
    for event in events[:-1]:
        assert enter(table, event)
    with disk_refusing("read-only", journal):
        assert enter(table, events[-1]) and table.is_over
    assert journal.flush()
    assert journal.unfinished() is None, "the home screen would offer to resume a finished game"
    journal.close()


def events_on_disk(path) -> int:
    """The events another process would find in the journal now."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize("kind", ["full", "read-only"])
def test_every_screen_warns_until_the_loop_has_written_what_waited(kind, tmp_path):
    """The end of a game played while the disk refuses, the home screen after it and the next game's setup warn on
    the OLED, and the next game waits; the first turn of the loop once the disk takes writes saves every move and
    the end of the game, and only then does the next game start."""
    setup, events, _ = scripted_game("roll-your-luck", seed=5)
    path = journal_holding(tmp_path / "journal.sqlite", setup, events[:-3])
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), np.zeros(FRAME, np.uint8))
    companion = Companion(path, lambda: FolderSource(frames, fps=1000, loop=True))
    appliance, journal = companion.appliance, companion.appliance.journal
    with disk_refusing(kind, journal):
        for event in events[-3:]:
            assert enter(appliance.table, event)   # as the camera or the buttons hand it over
            companion.steps(1)
            assert companion.oled_says(DISK_WARNING)
        assert appliance.table.is_over
        companion.tap("OK")   # "OK new game"
        companion.steps(1)
        assert appliance.table is None and companion.oled_says(DISK_WARNING)
        while appliance.session.screen.home.result is None:   # the first row of every setup question
            companion.tap("OK")
            companion.steps(1)
        companion.steps(2)
        assert appliance.table is None and companion.oled_says(DISK_WARNING)
        assert events_on_disk(path) == len(events) - 3
    companion.steps(1)
    assert journal.is_durable and events_on_disk(path) == len(events)
    assert appliance.table is not None and appliance.table.game_id == 2
    status = appliance.table.prompt().status
    assert status != DISK_WARNING and companion.oled_says(status)   # the new game's own screen, no warning
    companion.close()
    reopened = Journal(path)
    assert reopened.events(1) == events and reopened.unfinished() == 2
    reopened.close()
