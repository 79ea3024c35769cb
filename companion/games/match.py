"""A match: one game's states as a stack, as python-chess keeps a board's moves.

`push` validates and applies an event, `pop` undoes exactly one, and `replay` rebuilds a match from its setup and
events, which is how the journal resumes a game and how `dice-companion replay` checks a script.
"""
from __future__ import annotations

from typing import Iterable

from . import new_game
from .base import Event, Game, RefereeError, Setup, State


class ReplayError(RefereeError):
    """An event of a script or journal that the rules refuse; `index` is its 0-based position among the events."""

    def __init__(self, index: int, error: RefereeError):
        super().__init__(error.message, error.rule)
        self.index = index
        self.cause = error


class Match:
    def __init__(self, game: Game):
        self.game = game
        self._states: list[State] = [game.new_initial_state()]
        self.events: list[Event] = []

    @classmethod
    def start(cls, setup: Setup) -> Match:
        return cls(new_game(setup))

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[Event]) -> Match:
        match = cls.start(setup)
        for index, event in enumerate(events):
            try:
                match.push(event)
            except RefereeError as error:
                raise ReplayError(index, error) from error
        return match

    @property
    def setup(self) -> Setup:
        return self.game.setup

    @property
    def state(self) -> State:
        return self._states[-1]

    def push(self, event: Event) -> State:
        """Apply `event`; on a RefereeError nothing changes."""
        self._states.append(self.state.apply(event))
        self.events.append(event)
        return self.state

    def pop(self) -> Event:
        """Undo the last event (UI-3); IndexError when there is none."""
        if not self.events:
            raise IndexError("nothing to undo")
        self._states.pop()
        return self.events.pop()

    def describe_last(self) -> str:
        """How the last event is named in "Undo <event>?", in the words of the state it was applied to."""
        return self._states[-2].describe(self.events[-1]) if self.events else ""
