"""The home screen and new-game setup, asked as ordinary decisions so the same widgets and screens answer them.

Resume the unfinished game when the journal holds one, or choose the game, the number of players, their names (from
the configuration's list, else P1..Pn), their dice colours where the game needs them, the options the game lets the
host pick at setup (Game.setup_choices, such as Lowdown's mode; the configured value is the default), and the first
player, asked as the rules ask it (Game.first_question: Dice Lottery's scorekeeper, whose left neighbour deals).
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any, Mapping, Sequence

from ..games import game_class, names as game_names
from ..games.base import Choice, Decision, Option, Setup

DEFAULT_COLOURS = ("red", "blue", "green", "yellow", "white", "black", "purple", "orange")
RESUME, NEW = "resume", "new"


def colours_of(game: str, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The dice colours a game offers at setup: its `player_colours` / `die_colours` option, else a default list;
    with `seat_zones` set (Roll Your Luck), the seat zones that tell the dice apart instead."""
    if options.get("seat_zones"):
        return tuple(options["seat_zones"])
    option_fields = {f.name: f.default for f in fields(game_class(game).Options)}
    for key in ("player_colours", "die_colours"):
        if key in option_fields:
            return tuple(options.get(key, option_fields[key]) or DEFAULT_COLOURS)
    return DEFAULT_COLOURS


class Home:
    """Decisions from the home screen to a Setup. `result` is RESUME, a Setup, or None while still asking."""

    def __init__(self, player_names: Sequence[str], game_options: Mapping[str, Mapping[str, Any]] | None = None,
                 unfinished: str | None = None, game: str | None = None):
        self.player_names = tuple(player_names)
        self.game_options = game_options or {}
        self.unfinished = unfinished
        self.game = game
        self.count = 0
        self.players: list[str] = []
        self.colours: list[str] = []
        self.picked_options: dict[str, str] = {}
        self.result: str | Setup | None = None
        self.asked_resume = unfinished is None

    def expects(self) -> Decision | None:
        if self.result is not None:
            return None
        if not self.asked_resume:
            return self._ask("Resume or new game?", [(RESUME, f"Resume {self.unfinished}"), (NEW, "New game")])
        if self.game is None:
            return self._ask("Which game?", [(n, game_class(n).title) for n in game_names()])
        cls = game_class(self.game)
        if not self.count:
            counts = range(cls.min_players, cls.max_players + 1)
            return self._ask("How many players?", [(str(n), f"{n} players") for n in counts])
        if len(self.players) < self.count:
            seat = len(self.players) + 1
            free = [n for n in self.player_names if n not in self.players] or [f"P{seat}"]
            return self._ask(f"Player {seat} name?", [(n, n) for n in free])
        if cls.needs_colours and len(self.colours) < self.count:
            free = [c for c in colours_of(self.game, self.options) if c not in self.colours]
            return self._ask(f"{self.players[len(self.colours)]}: dice colour?", [(c, c) for c in free])
        choice = self._setup_choice(cls)
        if choice:
            key, values = choice
            ordered = sorted(values, key=lambda v: v != self.options.get(key))
            return self._ask(f"{key.replace('_', ' ').capitalize()}?", [(v, v) for v in ordered])
        return self._ask(cls.first_question, [(str(i), n) for i, n in enumerate(self.players)])

    def _setup_choice(self, cls) -> tuple[str, tuple[str, ...]] | None:
        """The next option the host picks at setup, if any is left."""
        return next(((k, v) for k, v in cls.setup_choices if k not in self.picked_options), None)

    @property
    def options(self) -> Mapping[str, Any]:
        return self.game_options.get(self.game, {}) if self.game else {}

    def _ask(self, question: str, options: list[tuple[str, str]]) -> Decision:
        return Decision(None, "choose", question, tuple(Option(k, label[:19]) for k, label in options),
                        default=options[0][0], context="setup", role="HOST")

    def apply(self, choice: Choice) -> None:
        pending = self.expects()
        pending.check(choice)
        value = choice.value
        if not self.asked_resume:
            self.asked_resume = True
            self.result = RESUME if value == RESUME else None
        elif self.game is None:
            self.game = value
        elif not self.count:
            self.count = int(value)
        elif len(self.players) < self.count:
            self.players.append(value)
        elif game_class(self.game).needs_colours and len(self.colours) < self.count:
            self.colours.append(value)
        elif choice := self._setup_choice(game_class(self.game)):
            self.picked_options[choice[0]] = value
        else:
            first = (int(value) + game_class(self.game).first_after_pick) % self.count
            self.result = Setup(self.game, tuple(self.players), first, tuple(self.colours),
                                {**self.options, **self.picked_options})
