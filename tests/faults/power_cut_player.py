"""Plays game scripts one after another at the table, resuming from the journal; killed by test_power_cuts.py.

Game k of the journal is script k. After each event is on disk it prints `ack N SIZE`: N counts events over all the
scripts, SIZE is the write-ahead log's size then (a power cut may tear what was written after it). It can kill itself
with SIGKILL inside SQLite while event N is written:

--die in-statement N OPS   OPS virtual-machine steps into the INSERT of event N (before or after its commit)
--die mid-write N WRITES   just before the WRITES-th write() SQLite makes from event N on, having printed
                           `dying FILE OFFSET DONE SQL`: the file and offset of that write, and how many writes to
                           the write-ahead log the statement SQL had already made

usage: python power_cut_player.py JOURNAL [--die in-statement|mid-write N STEP] SCRIPT...
"""
import argparse
import os
import signal
import sys
import time
from pathlib import Path

from companion.session.journal import Journal
from companion.session.script import read_script
from companion.session.table import Table
from tests.faults.scripted import enter
from tests.faults.sqlite_writes import before_each_write

PACE_S = 0.002   # a pause between events, so that timed kills land both inside journal writes and between them


def die_in_statement(journal: Journal, ops: int) -> None:
    """Arm a SIGKILL that fires `ops` SQLite steps into the next INSERT of an event. (SQLite reads the progress
    handler when a statement starts, so it counts every step and the statement trace says which are the INSERT's.)"""
    inside = []

    def on_statement(sql: str) -> None:
        inside[:] = [0] if sql.startswith("INSERT INTO events") else []

    def on_step() -> int:
        if inside:
            inside[0] += 1
            if inside[0] == ops:
                os.kill(os.getpid(), signal.SIGKILL)
        return 0

    journal._db.set_trace_callback(on_statement)
    journal._db.set_progress_handler(on_step, 1)


def die_mid_write(journal: Journal, writes: int) -> None:
    """Arm a SIGKILL just before the `writes`-th write SQLite makes from now on, and say first where it lands."""
    sql, log_writes, count = "", 0, 0

    def on_statement(text: str) -> None:
        nonlocal sql, log_writes
        sql, log_writes = text, 0

    def before_write(path: str, offset: int) -> None:
        nonlocal count, log_writes
        count += 1
        if count == writes:
            print(f"dying {Path(path).name} {offset} {log_writes} {sql}", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        log_writes += path.endswith("-wal")

    journal._db.set_trace_callback(on_statement)
    before_each_write(before_write)


KILLS = {"in-statement": die_in_statement, "mid-write": die_mid_write}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("journal")
    parser.add_argument("--die", nargs=3, metavar=("HOW", "N", "STEP"))
    parser.add_argument("scripts", nargs="+")
    args = parser.parse_args()
    scripts = [read_script(path) for path in args.scripts]
    wal = Path(f"{args.journal}-wal")
    journal = Journal(args.journal)
    if journal.recovered:
        print(f"recovered {journal.recovered}", flush=True)
    game = journal.newest() or 0
    table = Table.resume(journal, game) if game else None
    before = sum(len(numbered) for _, numbered in scripts[:max(game - 1, 0)])   # events of the earlier games
    while True:
        if table is None or table.is_over:
            if game == len(scripts):
                print("over", flush=True)
                return
            if table is not None:
                before += len(table.match.events)
            game += 1
            table = Table.new(scripts[game - 1][0], journal)
            assert table.game_id == game, f"journal game {table.game_id} is not script {game}"
        numbered = scripts[game - 1][1]
        for _, event in numbered[len(table.match.events):]:
            number = before + len(table.match.events) + 1
            if args.die and int(args.die[1]) == number:
                KILLS[args.die[0]](journal, int(args.die[2]))
            if not enter(table, event) or not journal.is_durable:
                sys.exit(f"event {number} refused: {table.message}")
            print(f"ack {number} {wal.stat().st_size}", flush=True)
            time.sleep(PACE_S)


if __name__ == "__main__":
    main()
