"""Subcommands that play games: `demo`, `play`, `run`, `replay`, `export`."""
from __future__ import annotations

import json
import sys

from ..games import game_class
from ..games.match import Match, ReplayError
from ..session.script import read_script


def register(sub) -> None:
    replay = sub.add_parser("replay", help="play a game script through the engine and print the result")
    replay.add_argument("file", help="a game script (JSON lines, docs/events.md)")
    replay.add_argument("--json", action="store_true", help="end with one JSON object with the result")
    replay.set_defaults(run=run_replay)

    export = sub.add_parser("export", help="write a journaled game as a replayable script")
    export.add_argument("--config", help="configuration file (for the journal path)")
    export.add_argument("--journal", help="journal file (default: the configuration's)")
    export.add_argument("--game", type=int, help="game number in the journal (default: the newest)")
    export.add_argument("--out", "-o", help="output file (default: standard output)")
    export.set_defaults(run=run_export)

    from . import play_cmds
    play_cmds.register(sub)


def result_json(match: Match) -> dict:
    """The `replay --json` object of design.md."""
    state = match.state
    outcome = state.outcome()
    players = list(match.game.players)
    return {"game": match.game.name, "players": players, "over": outcome is not None,
            "scores": list(outcome.scores if outcome else state.scores()),
            "winners": [players[i] for i in outcome.winners] if outcome else [],
            "detail": state.detail()}


def run_replay(args) -> int:
    setup, numbered = read_script(args.file)
    try:
        match = Match.replay(setup, (event for _, event in numbered))
    except ReplayError as error:
        line = numbered[error.index][0]
        rule = error.rule or game_class(setup.game).rule_prefix
        print(f"line {line}: {rule}: {error.message}", file=sys.stderr)
        return 1
    result = result_json(match)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{match.game.title}: {'over' if result['over'] else 'in progress'} after {len(match.events)} events")
    for name, score in zip(result["players"], result["scores"]):
        print(f"  {name:<12} {score:>6}{'  wins' if name in result['winners'] else ''}")
    print(json.dumps(result["detail"], indent=1))
    return 0


def run_export(args) -> int:
    from ..session.journal import Journal
    from ..session.script import dump_script

    path = args.journal or journal_path(args.config)
    journal = Journal(path)
    game = args.game or journal.newest()
    if game is None:
        print(f"dice-companion export: journal {path} holds no game", file=sys.stderr)
        return 1
    text = dump_script(journal.setup(game), journal.events(game))
    journal.close()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


def journal_path(config_path: str | None) -> str:
    from ..config import load
    return str(load(config_path).table.journal)
