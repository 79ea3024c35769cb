"""Power cuts in every game: SIGKILL at random points, restart, and nothing acknowledged is lost or duplicated.

A child process (power_cut_player.py) plays scripted games into one journal and is killed in one of four ways:
"timed", a SIGKILL from here a few milliseconds after a chosen acknowledgement, wherever the child is then (between
events or inside the next one's write); "in-statement", a SIGKILL the child sends itself from inside SQLite's INSERT
of a chosen event, before or after its commit reached the log but always before the table acknowledged it;
"mid-write", a SIGKILL from inside SQLite's own write() calls while it writes a chosen event into the write-ahead
log, after some of the commit's frames and before the rest (the child says which write it died before); "torn", an
in-statement kill once the commit is in the log, after which the log loses a random part of what was written after
the last acknowledged event, as a power cut loses data that was never synced.

After every kill the journal must hold the scripts' events in order, every acknowledged one (at most one more), each
once, and the resumed table's state must be the replay of them; a journal whose last write was cut short must say
so, and only then. At the end the child plays every script to its end and the journal must equal the scripts
exactly, which no duplicate survives. 50 kills per game by default, 200 with --soak.
"""
import collections
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import games
from companion.session.journal import CUT_SHORT, WAL_HEADER, Journal
from companion.session.script import dump_script
from companion.session.table import Table

from .scripted import scripted_game

PLAYER = Path(__file__).with_name("power_cut_player.py")
ROOT = Path(__file__).resolve().parents[2]
MODES = ("timed", "in-statement", "mid-write", "torn")
KILL_STEPS = {"in-statement": (1, 24), "torn": (4, 24),   # from SQLite step 4 on, the INSERT's commit is in the log
              "mid-write": (1, 4)}                        # an event's commit is at least four writes (two frames)


def start_player(journal: Path, scripts: list[Path], *options: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, str(PLAYER), str(journal), *options, *map(str, scripts)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def acks(lines: list[str]) -> list[tuple[int, int]]:
    """(event number, write-ahead log size) of each `ack` line."""
    return [(int(n), int(size)) for _, n, size in (line.split() for line in lines if line.startswith("ack "))]


def tear_unsynced_tail(journal: Path, synced_size: int, rng: random.Random) -> bool:
    """Cut the write-ahead log at a random byte after `synced_size`, and drop the shared-memory index, as a power
    cut leaves them; False when nothing was written after `synced_size`."""
    wal = Path(f"{journal}-wal")
    size = wal.stat().st_size
    if size <= synced_size + 1:
        return False
    os.truncate(wal, rng.randint(synced_size + 1, size - 1))
    Path(f"{journal}-shm").unlink(missing_ok=True)
    return True


def check_journal(path: Path, scripted: list, acked: int) -> tuple[int, str]:
    """Assert the journal holds the scripts' events in order, all acknowledged ones and at most one more, and that
    the resumed table is their replay and shows what the journal recovered; return how many events it holds and
    what it said it recovered."""
    journal = Journal(path)
    try:
        newest = journal.newest() or 0
        held = 0
        for game in range(1, newest + 1):
            setup, events, states = scripted[game - 1]
            stored = journal.events(game)
            assert journal.setup(game) == setup
            assert stored == events[:len(stored)], f"game {game}: the journal differs from the script"
            assert game == newest or len(stored) == len(events), f"game {game} lost its last events"
            held += len(stored)
        assert acked <= held <= acked + 1, f"acknowledged {acked} events, the journal holds {held}"
        if newest:
            table = Table.resume(journal, newest)
            assert table.match.state.detail() == scripted[newest - 1][2][len(table.match.events)].detail()
            if journal.recovered and not table.is_over:
                assert table.prompt().status == journal.recovered, "the OLED must say what was recovered"
        return held, journal.recovered
    finally:
        journal.close()


def kill_options(mode: str, target: int, rng: random.Random) -> list[str]:
    if mode == "timed":
        return []
    how = "mid-write" if mode == "mid-write" else "in-statement"
    return ["--die", how, str(target), str(rng.randint(*KILL_STEPS[mode]))]


def play_until_killed(journal: Path, scripts: list[Path], mode: str, target: int, rng: random.Random) -> list[str]:
    """Start the child and have it killed as `mode` says around event `target`; the lines it printed."""
    player = start_player(journal, scripts, *kill_options(mode, target, rng))
    seen = []
    for line in player.stdout:
        seen.append(line.strip())
        if mode == "timed" and acks(seen)[-1:] and acks(seen)[-1][0] >= target:
            time.sleep(rng.random() * 0.005)
            player.send_signal(signal.SIGKILL)
            break
    seen += player.stdout.read().splitlines()   # through the same buffer: lines read ahead of the kill count too
    err = player.stderr.read()
    assert player.wait(timeout=60) == -signal.SIGKILL, err
    return seen


def check_mid_write(lines: list[str], journal: Path, target: int, acked: int, held: int, recovered: str) -> bool:
    """The child died inside SQLite's writing of event `target` into the log: that event is not kept, and the
    journal says it dropped a cut-short write exactly when one of the commit's frames (whole or not) reached the
    log. True when it said so."""
    dying = [line.split(maxsplit=4) for line in lines if line.startswith("dying ")]
    assert dying, "the child was not killed inside a write"
    _, file, offset, log_writes, sql = dying[0]
    assert file == f"{journal.name}-wal" and sql.startswith("INSERT INTO events"), dying[0]
    assert acked == held == target - 1, f"event {target}, cut inside its commit, must not be kept"
    cut_short = int(log_writes) > 0 and int(offset) > WAL_HEADER
    assert (recovered == CUT_SHORT) == cut_short, f"{dying[0][:4]}: the journal said {recovered!r}"
    return cut_short


def scripts_for(name: str, events_wanted: int, folder: Path) -> tuple[list, list[Path], int]:
    """Scripted games of `name` with at least `events_wanted` events in all, written as game scripts."""
    scripted, scripts, total = [], [], 0
    while total < events_wanted:
        setup, events, states = scripted_game(name, seed=len(scripted))
        scripted.append((setup, events, states))
        scripts.append(folder / f"game{len(scripts) + 1}.jsonl")
        scripts[-1].write_text(dump_script(setup, events))
        total += len(events)
    return scripted, scripts, total


@pytest.mark.soak
@pytest.mark.parametrize("name", games.names())
def test_power_cuts_in_and_between_journal_writes_lose_and_duplicate_nothing(name, tmp_path, soak):
    kills_wanted = 200 if soak else 50
    rng = random.Random(f"power cuts {name}")
    scripted, scripts, total = scripts_for(name, kills_wanted * 3 + 1, tmp_path)   # a kill moves on 1 to 3 events
    journal = tmp_path / "journal.sqlite"
    held = 0   # events the journal held at the last restart: from then on they count as acknowledged too
    kills = collections.Counter()
    for kill in range(kills_wanted):
        mode = MODES[kill % len(MODES)]
        target = held + rng.randint(1, 3)   # an event the child has yet to write
        lines = play_until_killed(journal, scripts, mode, target, rng)
        done = acks(lines)
        acked = max([held] + [n for n, _ in done])
        torn = mode == "torn" and bool(done) and tear_unsynced_tail(journal, done[-1][1], rng)
        held, recovered = check_journal(journal, scripted, acked)
        if mode in ("in-statement", "torn"):
            assert acked < target and held in (target - 1, target), f"the child should die writing event {target}"
        if mode == "mid-write":
            kills["mid-write, log cut short"] += check_mid_write(lines, journal, target, acked, held, recovered)
        if torn:
            assert held == acked and recovered == CUT_SHORT
        kills[mode] += 1
        kills["unacknowledged but kept"] += held - acked
        kills["log torn"] += torn
        kills["said cut short"] += recovered == CUT_SHORT
    assert kills["mid-write, log cut short"], "no kill left a cut-short write in the log"
    player = start_player(journal, scripts)
    out, err = player.communicate(timeout=120)
    assert player.returncode == 0, err
    assert out.split()[-1] == "over"
    check_journal(journal, scripted, total)
    print(f"\n{name}: {kills_wanted} kills survived over {len(scripts)} games, {total} events, 0 lost, 0 duplicated: "
          f"{dict(kills)}")
