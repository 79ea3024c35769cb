"""The journal: every accepted event of every game, in SQLite, so that no power cut loses a game.

Each event is committed in its own transaction with WAL and `synchronous=FULL`: once `append` returns True the event
is on disk and is *acknowledged*. A game's state is never stored, only rebuilt by replaying its events, so the
journal and the state cannot disagree. Undo deletes the last event.

When the disk is full or read-only, events wait in memory (`is_durable` turns False, the table warns on the OLED) and
are written, in order, by the next `append` or `flush` that finds the disk writable again.
"""
from __future__ import annotations

import datetime
import json
import sqlite3
from pathlib import Path

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
"""


class JournalError(CompanionError):
    """A journal that cannot be opened or understood."""


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")


class Journal:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), isolation_level=None, timeout=5)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._check_version()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"journal {self.path}: {error}") from error
        self._pending: list[tuple[int, int, str]] = []  # (game, seq, event json) not yet on disk

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise JournalError(f"journal {self.path} was written by a newer version (schema {row[0]}); upgrade "
                               f"dice-companion or move the file away")

    # Games ------------------------------------------------------------------------------------------------------
    def new_game(self, setup: Setup) -> int:
        with self._db:
            cursor = self._db.execute("INSERT INTO games (setup, started) VALUES (?, ?)",
                                      (json.dumps(setup.to_json()), _now()))
        return int(cursor.lastrowid)

    def unfinished(self) -> int | None:
        """The newest game that has not finished, if any: the one to resume."""
        row = self._db.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def newest(self) -> int | None:
        row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    def finish(self, game: int) -> None:
        self.flush()
        with self._db:
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (_now(), game))

    def abandon(self, game: int) -> None:
        """Mark a game as ended without a result (a new game was started instead of resuming it)."""
        self.finish(game)

    def setup(self, game: int) -> Setup:
        row = self._db.execute("SELECT setup FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path} has no game {game}")
        return Setup.from_json(json.loads(row[0]))

    # Events -----------------------------------------------------------------------------------------------------
    def append(self, game: int, event: Event) -> bool:
        """Record an accepted event; True when it (and everything before it) is safely on disk."""
        seq = self._next_seq(game)
        self._pending.append((game, seq, json.dumps(event.to_json(), separators=(",", ":"))))
        return self.flush()

    def flush(self) -> bool:
        """Write waiting events; False while the disk refuses them (they stay in memory, in order)."""
        while self._pending:
            game, seq, text = self._pending[0]
            try:
                with self._db:
                    self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, text, _now()))
            except sqlite3.OperationalError:
                return False
            self._pending.pop(0)
        return True

    @property
    def is_durable(self) -> bool:
        return not self._pending

    def pop(self, game: int) -> None:
        """Remove the last event of `game` (undo)."""
        if self._pending and self._pending[-1][0] == game:
            self._pending.pop()
            return
        with self._db:
            self._db.execute("DELETE FROM events WHERE game = ? AND seq = (SELECT MAX(seq) FROM events WHERE game = ?)",
                             (game, game))

    def events(self, game: int) -> list[Event]:
        rows = self._db.execute("SELECT seq, event FROM events WHERE game = ? ORDER BY seq", (game,)).fetchall()
        stored = [event_from_json(json.loads(text)) for _, text in rows]
        return stored + [event_from_json(json.loads(text)) for g, _, text in self._pending if g == game]

    def _next_seq(self, game: int) -> int:
        waiting = [seq for g, seq, _ in self._pending if g == game]
        if waiting:
            return waiting[-1] + 1
        row = self._db.execute("SELECT MAX(seq) FROM events WHERE game = ?", (game,)).fetchone()
        return 1 if row[0] is None else int(row[0]) + 1

    def export(self, game: int) -> list[dict]:
        """The game as the JSON lines of docs/events.md: the setup, then every event."""
        return [{"setup": self.setup(game).to_json()}] + [event.to_json() for event in self.events(game)]

    def close(self) -> None:
        self.flush()
        self._db.close()
