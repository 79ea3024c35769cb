"""The journal: every accepted event of every game, in SQLite, so that no power cut loses a game.

Each event is committed in its own transaction with WAL and `synchronous=FULL`: once `append` returns True the event
is on disk and is *acknowledged*. A game's state is never stored, only rebuilt by replaying its events, so the
journal and the state cannot disagree. Undo deletes the last event.

When the disk is full or read-only, every write (an event, an undo, the end of a game) waits in memory in order
(`is_durable` turns False, the table warns on the OLED) and is written by the next write or `flush` that finds the
disk writable again; reads see the writes still waiting. A new game cannot wait (it has no id until written): it is
refused with a JournalError until the writes before it have landed.

A journal whose last write was cut short opens at the last whole event and says so in `recovered`, a one-line status:
SQLite already drops a write-ahead log's frames after its last whole commit, and an event row that does not parse
(with every later row of its game, which cannot be replayed without it) is set aside in `damaged_events`.
"""
from __future__ import annotations

import datetime
import json
import sqlite3
import struct
from pathlib import Path
from typing import Any

from ..errors import CompanionError
from ..games.base import Event, Setup, event_from_json

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    setup TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS damaged_events (game INTEGER NOT NULL, seq INTEGER NOT NULL, event, at TEXT);
"""

# The writes a game makes; the first parameter of each is the game's id.
INSERT_EVENT = "INSERT INTO events VALUES (?1, ?2, ?3, ?4)"
DELETE_EVENT = "DELETE FROM events WHERE game = ?1 AND seq = ?2"
SET_FINISHED = "UPDATE games SET finished = ?2 WHERE id = ?1"

CUT_SHORT = "Power cut: redo last"   # the status line after a cut-short write was dropped

# SQLite's write-ahead log format (sqlite.org/fileformat2.html#walformat)
WAL_HEADER, FRAME_HEADER = 32, 24
WAL_MAGIC = (0x377F0682, 0x377F0683)


class JournalError(CompanionError):
    """A journal that cannot be opened or understood."""


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")


def wal_cut_short(wal: bytes, kept_frames: int) -> bool:
    """True when a write-ahead log holds a write that was cut short: after the `kept_frames` frames SQLite kept (its
    whole commits), a partial frame or a frame stamped with this log's salts. Frames of an earlier generation of the
    log carry other salts; they are leftovers, not a cut write."""
    if not wal:
        return False
    if len(wal) < WAL_HEADER:
        return True
    magic, _, page_size, _, salt1, salt2 = struct.unpack(">6I", wal[:24])
    if magic not in WAL_MAGIC:
        return True
    frame = FRAME_HEADER + page_size
    tail = wal[WAL_HEADER + kept_frames * frame:]
    if len(tail) % frame:
        return True
    return any(struct.unpack_from(">2I", tail, start + 8) == (salt1, salt2) for start in range(0, len(tail), frame))


class Journal:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.recovered = ""   # a one-line status when opening dropped a cut-short write or a damaged event
        self._pending: list[tuple[str, tuple[Any, ...]]] = []   # writes (SQL, parameters) not yet on disk, in order
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            wal = self._read_wal()
            self._db = sqlite3.connect(str(self.path), isolation_level=None, timeout=5)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            if wal_cut_short(wal, self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]):
                self.recovered = CUT_SHORT
            self._db.executescript(SCHEMA)
            self._check_version()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"journal {self.path}: {error}") from error

    def _read_wal(self) -> bytes:
        try:
            return Path(f"{self.path}-wal").read_bytes()
        except FileNotFoundError:
            return b""

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise JournalError(f"journal {self.path} was written by a newer version (schema {row[0]}); upgrade "
                               f"dice-companion or move the file away")

    # Writes -----------------------------------------------------------------------------------------------------
    def _write(self, sql: str, params: tuple[Any, ...]) -> bool:
        """Write now, or after the writes already waiting; True when everything is on disk."""
        self._pending.append((sql, params))
        return self.flush()

    def flush(self) -> bool:
        """Write waiting writes in order; False while the disk refuses them (they stay in memory)."""
        while self._pending:
            sql, params = self._pending[0]
            try:
                with self._db:
                    self._db.execute(sql, params)
            except sqlite3.OperationalError:
                return False
            self._pending.pop(0)
        return True

    @property
    def is_durable(self) -> bool:
        return not self._pending

    # Games ------------------------------------------------------------------------------------------------------
    def new_game(self, setup: Setup) -> int:
        """Start a game; the writes still waiting go first, so that the journal keeps the order of play."""
        if not self.flush():
            raise JournalError(f"journal {self.path}: cannot start a game (earlier moves still wait for the disk); "
                               "free some space")
        try:
            with self._db:
                cursor = self._db.execute("INSERT INTO games (setup, started) VALUES (?, ?)",
                                          (json.dumps(setup.to_json()), _now()))
        except sqlite3.OperationalError as error:
            raise JournalError(f"journal {self.path}: cannot start a game ({error}); free some space") from error
        return int(cursor.lastrowid)

    def unfinished(self) -> int | None:
        """The newest game that has not finished, if any: the one to resume."""
        waiting = {params[0]: params[1] for sql, params in self._pending if sql == SET_FINISHED}
        for game, finished in self._db.execute("SELECT id, finished FROM games ORDER BY id DESC"):
            if waiting.get(game, finished) is None:
                return int(game)
        return None

    def is_finished(self, game: int) -> bool:
        """True when `game` is marked finished, counting the writes still waiting for the disk."""
        waiting = [params[1] for sql, params in self._pending if sql == SET_FINISHED and params[0] == game]
        if waiting:
            return waiting[-1] is not None
        row = self._db.execute("SELECT finished FROM games WHERE id = ?", (game,)).fetchone()
        return row is not None and row[0] is not None

    def newest(self) -> int | None:
        row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    def finish(self, game: int) -> bool:
        return self._write(SET_FINISHED, (game, _now()))

    def abandon(self, game: int) -> bool:
        """Mark a game as ended without a result (a new game was started instead of resuming it)."""
        return self.finish(game)

    def setup(self, game: int) -> Setup:
        row = self._db.execute("SELECT setup FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path} has no game {game}")
        try:
            return Setup.from_json(json.loads(row[0]))
        except ValueError as error:   # bad JSON, or a setup this version refuses (RefereeError)
            raise JournalError(f"journal {self.path}: the setup of game {game} is damaged ({error})") from None

    # Events -----------------------------------------------------------------------------------------------------
    def append(self, game: int, event: Event) -> bool:
        """Record an accepted event; True when it (and everything before it) is safely on disk."""
        text = json.dumps(event.to_json(), separators=(",", ":"))
        return self._write(INSERT_EVENT, (game, self._last_seq(game) + 1, text, _now()))

    def pop(self, game: int) -> bool:
        """Remove the last event of `game` (undo); a game that had ended is open again."""
        last = self._last_seq(game)
        if last:
            self._write(DELETE_EVENT, (game, last))
        return self._write(SET_FINISHED, (game, None))

    def events(self, game: int) -> list[Event]:
        return list(self._events(game).values())

    def _events(self, game: int) -> dict[int, Event]:
        """The events of `game` by sequence number: those on disk, then the writes waiting for it."""
        events: dict[int, Event] = {}
        rows = self._db.execute("SELECT seq, CAST(event AS BLOB) FROM events WHERE game = ? ORDER BY seq", (game,))
        for seq, blob in rows.fetchall():
            try:
                events[seq] = event_from_json(json.loads(blob))
            except ValueError:   # bad UTF-8, bad JSON or not an event (RefereeError): the row was cut short
                self._set_aside(game, seq)
                break
        for sql, params in self._pending:
            if params[0] == game and sql == INSERT_EVENT:
                events[params[1]] = event_from_json(json.loads(params[2]))
            elif params[0] == game and sql == DELETE_EVENT:
                events.pop(params[1], None)
        return events

    def _set_aside(self, game: int, seq: int) -> None:
        """Move a damaged event row and the later rows of its game to `damaged_events`: a replay cannot pass it."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT INTO damaged_events SELECT * FROM events WHERE game = ? AND seq >= ?",
                                 (game, seq))
                self._db.execute("DELETE FROM events WHERE game = ? AND seq >= ?", (game, seq))
        except sqlite3.OperationalError as error:
            raise JournalError(f"journal {self.path}: event {seq} of game {game} is damaged and cannot be set "
                               f"aside ({error})") from None
        self.recovered = f"Bad event {seq}: redo"

    def _last_seq(self, game: int) -> int:
        if any(params[0] == game for _, params in self._pending):
            return max(self._events(game), default=0)
        row = self._db.execute("SELECT MAX(seq) FROM events WHERE game = ?", (game,)).fetchone()
        return 0 if row[0] is None else int(row[0])

    def export(self, game: int) -> list[dict]:
        """The game as the JSON lines of docs/events.md: the setup, then every event."""
        return [{"setup": self.setup(game).to_json()}] + [event.to_json() for event in self.events(game)]

    def close(self) -> None:
        """Write what waits and close; JournalError if the disk still refuses (those writes were never
        acknowledged: the OLED has been warning)."""
        saved = self.flush()
        waiting = len(self._pending)
        self._db.close()
        if not saved:
            raise JournalError(f"journal {self.path}: {waiting} write{'s' if waiting != 1 else ''} could not be "
                               "saved (disk full or read-only)")
