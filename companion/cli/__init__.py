"""`dice-companion`: one console script with a subcommand per job.

Each command module adds its subcommands with `register(subparsers)`; each subcommand returns an exit status.
Failures a person can act on print one line on stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import CompanionError
from ..games import RefereeError

COMMAND_MODULES = ("companion.cli.game_cmds", "companion.cli.vision_cmds", "companion.cli.appliance_cmds")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dice-companion", description="A table referee for real dice.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except CompanionError as error:
        print(f"dice-companion {args.command}: {error}", file=sys.stderr)
        return error.exit_code
    except RefereeError as error:
        print(f"dice-companion {args.command}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"dice-companion {args.command}: {error.strerror or error}"
              + (f": {error.filename}" if error.filename else ""), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
