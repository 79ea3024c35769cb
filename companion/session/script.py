"""Game scripts: the JSON lines of docs/events.md (a setup line, then rolls and choices in table order)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from ..errors import CompanionError
from ..games.base import Event, RefereeError, Setup, event_from_json


class ScriptError(CompanionError):
    """A script line that is not valid JSON or not an event: `line N: reason`."""


def parse_script(lines: Iterable[str], name: str = "script") -> tuple[Setup, list[tuple[int, Event]]]:
    """The setup and the (line number, event) pairs of a script. Blank lines and lines starting with # are skipped."""
    setup = None
    events: list[tuple[int, Event]] = []
    for number, text in enumerate(lines, start=1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ScriptError(f"{name} line {number}: not JSON ({error.msg})") from error
        try:
            if setup is None:
                if not isinstance(data, dict) or "setup" not in data:
                    raise ScriptError(f"{name} line {number}: the first line must be {{\"setup\": ...}}")
                setup = Setup.from_json(data["setup"])
            else:
                events.append((number, event_from_json(data)))
        except RefereeError as error:
            raise ScriptError(f"{name} line {number}: {error.message}") from error
    if setup is None:
        raise ScriptError(f"{name}: empty script, no setup line")
    return setup, events


def read_script(path: str | Path) -> tuple[Setup, list[tuple[int, Event]]]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ScriptError(f"{path}: not a text file") from error
    return parse_script(text.splitlines(), str(path))


def dump_script(setup: Setup, events: Iterable[Event]) -> str:
    lines = [{"setup": setup.to_json()}] + [event.to_json() for event in events]
    return "".join(json.dumps(line, separators=(", ", ": ")) + "\n" for line in lines)
