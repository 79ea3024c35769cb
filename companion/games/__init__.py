"""The games the companion referees, found by name (`banx`, `countaloupe`, ...).

Game modules are pure rules: no camera, display, button or file is touched anywhere under this package.
"""
from __future__ import annotations

import importlib

from .base import (Choice, Decision, Die, Game, IllegalActionError, ImplausibleRollError, Interrupt, Option,
                   Outcome, RefereeError, Roll, RollRequest, Setup, State, event_from_json)

# name -> module that defines `GAME`, the Game subclass. Imported on first use so one game's fault cannot stop another.
_MODULES = {
    "banx": "companion.games.banx",
    "countaloupe": "companion.games.countaloupe",
    "lowdown": "companion.games.lowdown",
    "roll-your-luck": "companion.games.roll_your_luck",
    "dice-lottery": "companion.games.dice_lottery",
}


def names() -> tuple[str, ...]:
    return tuple(_MODULES)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under `name`; IllegalActionError names the known games otherwise."""
    if name not in _MODULES:
        raise IllegalActionError(f"unknown game {name!r}; known: {', '.join(_MODULES)}")
    return importlib.import_module(_MODULES[name]).GAME


def new_game(setup: Setup) -> Game:
    return game_class(setup.game)(setup)


__all__ = ["Choice", "Decision", "Die", "Game", "IllegalActionError", "ImplausibleRollError", "Interrupt", "Option",
           "Outcome", "RefereeError", "Roll", "RollRequest", "Setup", "State", "event_from_json", "game_class",
           "names", "new_game"]
