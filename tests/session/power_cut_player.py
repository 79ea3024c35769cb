"""Plays a game script at the table, resuming from the journal, printing `ack N` once event N is on disk.

Run as a child process by test_power_cut.py, which kills it with SIGKILL at random points.
usage: python power_cut_player.py JOURNAL SCRIPT
"""
import sys
import time

from companion.games import Roll
from companion.session.journal import Journal
from companion.session.script import read_script
from companion.session.table import Table

PACE_S = 0.002  # a pause between events, so that kills land both inside journal writes and between them


def main(journal_path: str, script_path: str) -> None:
    setup, numbered = read_script(script_path)
    journal = Journal(journal_path)
    game = journal.newest()
    table = Table.resume(journal, game) if game is not None else Table.new(setup, journal)
    if table.is_over:
        print("over", flush=True)
        return
    for number, (_, event) in enumerate(numbered[len(table.match.events):], start=len(table.match.events) + 1):
        accepted = table.observe(event) if isinstance(event, Roll) else table.choose(event)
        if not accepted or not journal.is_durable:
            sys.exit(f"event {number} refused: {table.message}")
        print(f"ack {number}", flush=True)
        time.sleep(PACE_S)
    print("over" if table.is_over else "stopped", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
