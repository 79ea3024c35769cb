"""Power cuts in every game: SIGKILL at random points, restart, and nothing acknowledged is lost or duplicated.

A child process (power_cut_player.py) plays scripted games into one journal and is killed in one of three ways:
"timed", a SIGKILL from here a few milliseconds after a chosen acknowledgement (mostly inside the next event's
fsync, sometimes between events); "in-write", a SIGKILL the child sends itself from inside SQLite's INSERT of a
chosen event, before or after its commit reached the log but always before the table acknowledged it; "torn", the
same once the commit is in the log, after which the log loses a random part of what was written after the last
acknowledged event, as a power cut loses data that was never synced. After every kill the journal must hold
the scripts' events in order, every acknowledged one (at most one more), each once, and the resumed table's state
must be the replay of them. 20 kills per game by default, 200 with --soak.
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
from companion.session.journal import CUT_SHORT, Journal
from companion.session.script import dump_script
from companion.session.table import Table

from .scripted import scripted_game

PLAYER = Path(__file__).with_name("power_cut_player.py")
ROOT = Path(__file__).resolve().parents[2]
MODES = ("timed", "in-write", "torn")


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
    the resumed table is their replay; return how many it holds and what it said it recovered."""
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
        return held, journal.recovered
    finally:
        journal.close()


@pytest.mark.soak
@pytest.mark.parametrize("name", games.names())
def test_power_cuts_in_and_between_journal_writes_lose_and_duplicate_nothing(name, tmp_path, soak):
    kills_wanted = 200 if soak else 20
    rng = random.Random(f"power cuts {name}")
    scripted, scripts, total = [], [], 0
    while total < kills_wanted * 3 + 1:   # each kill lets the game on by 1 to 3 events
        setup, events, states = scripted_game(name, seed=len(scripted))
        scripted.append((setup, events, states))
        scripts.append(tmp_path / f"game{len(scripts) + 1}.jsonl")
        scripts[-1].write_text(dump_script(setup, events))
        total += len(events)
    journal = tmp_path / "journal.sqlite"
    held = 0   # events the journal held at the last restart: from then on they count as acknowledged too
    kills = collections.Counter()
    for _ in range(kills_wanted):
        mode = rng.choice(MODES)
        target = held + rng.randint(1, 3)   # an event the child has yet to write
        in_write = {"in-write": (1, 24), "torn": (4, 24)}.get(mode)   # from step 4 on, the commit is in the log
        options = ["--die-in-write", str(target), str(rng.randint(*in_write))] if in_write else []
        player = start_player(journal, scripts, *options)
        seen = []
        for line in player.stdout:
            seen.append(line.strip())
            if not in_write and acks(seen)[-1:] and acks(seen)[-1][0] >= target:
                time.sleep(rng.random() * 0.005)
                player.send_signal(signal.SIGKILL)
                break
        rest, err = player.communicate(timeout=60)
        assert player.returncode == -signal.SIGKILL, err
        done = acks(seen + rest.splitlines())
        acked = max([held] + [n for n, _ in done])
        torn = mode == "torn" and bool(done) and tear_unsynced_tail(journal, done[-1][1], rng)
        held, recovered = check_journal(journal, scripted, acked)
        if in_write:
            assert acked < target and held in (target - 1, target), f"the child should die writing event {target}"
        if torn:
            assert held == acked and recovered == CUT_SHORT
        kills[mode] += 1
        kills["unacknowledged but kept"] += held - acked
        kills["log torn"] += torn
        kills["said cut short"] += recovered == CUT_SHORT
    player = start_player(journal, scripts)
    out, err = player.communicate(timeout=120)
    assert player.returncode == 0, err
    assert out.split()[-1] == "over"
    check_journal(journal, scripted, total)
    print(f"\n{name}: {kills_wanted} kills survived over {len(scripts)} games, {total} events: {dict(kills)}")
