"""A power cut never loses a game: SIGKILL at random points, restart, and nothing acknowledged is lost."""
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.games import Setup
from companion.games.match import Match
from companion.games.playout import random_events
from companion.session.journal import Journal
from companion.session.script import dump_script

PLAYER = Path(__file__).with_name("power_cut_player.py")
ROOT = Path(__file__).resolve().parents[2]


def scripted_game(seed: int):
    setup = Setup("banx", ("Ana", "Ben", "Cy", "Dee"), 1, ("red", "blue", "green", "yellow"))
    state = Match.start(setup).state
    return setup, [event for event, _ in random_events(state, random.Random(seed))]


def start_player(journal: Path, script: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, str(PLAYER), str(journal), str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def acknowledged(lines) -> int:
    return max((int(line.split()[1]) for line in lines if line.startswith("ack ")), default=0)


def test_sigkill_at_50_random_points_loses_and_duplicates_nothing(tmp_path):
    setup, events = scripted_game(seed=2026)
    script = tmp_path / "game.jsonl"
    script.write_text(dump_script(setup, events))
    journal_path = tmp_path / "journal.sqlite"
    rng = random.Random(50)
    acked = kills = 0
    while kills < 50:
        target = acked + rng.randint(1, 3)
        assert target < len(events), "the scripted game must outlast 50 kills"
        player = start_player(journal_path, script)
        seen = []
        for line in player.stdout:
            seen.append(line.strip())
            if acknowledged(seen) >= target:
                break
        time.sleep(rng.random() * 0.004)  # the child is already at the next event: kill it at a random moment
        player.send_signal(signal.SIGKILL)
        rest, _ = player.communicate()
        acked = max(acked, acknowledged(seen + rest.split("\n")))
        kills += 1
        journal = Journal(journal_path)
        stored = journal.events(journal.newest())
        journal.close()
        assert stored == events[: len(stored)], "the journal holds only the script's events, in order, once"
        assert len(stored) >= acked, f"acknowledged {acked} events but the journal holds {len(stored)}"
    player = start_player(journal_path, script)
    out, err = player.communicate(timeout=60)
    assert player.returncode == 0, err
    assert out.strip().endswith("over")
    journal = Journal(journal_path)
    game = journal.newest()
    assert journal.unfinished() is None
    final = Match.replay(journal.setup(game), journal.events(game))
    assert final.state.detail() == Match.replay(setup, events).state.detail()
    assert final.events == events
