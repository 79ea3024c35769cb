"""Scripted games of any registered game, from that game's own random playouts: a setup and every event."""
import random

from companion.games import Roll, Setup, State, game_class, new_game
from companion.games.base import Event
from companion.games.playout import random_events
from companion.session.home import colours_of
from companion.session.table import Table

NAMES = ("Ana", "Ben", "Cy", "Dee")


def random_setup(name: str, rng: random.Random) -> Setup:
    """Two to four players (as the game allows) with dice colours where the game needs them."""
    cls = game_class(name)
    count = rng.randint(cls.min_players, min(cls.max_players, len(NAMES)))
    colours = colours_of(name, {})[:count] if cls.needs_colours else ()
    return Setup(name, NAMES[:count], rng.randrange(count), colours)


def scripted_game(name: str, seed: int) -> tuple[Setup, list[Event], list[State]]:
    """A whole game: its setup, its events and the state after each (states[0] is the initial state). A roll is kept
    as the table journals it: the part of the reading the game lets it see (State.visible)."""
    rng = random.Random(seed)
    setup = random_setup(name, rng)
    states = [new_game(setup).new_initial_state()]
    events = []
    for event, state in random_events(states[0], rng):
        events.append(states[-1].visible(event) if isinstance(event, Roll) else event)
        states.append(state)
    return setup, events, states


def enter(table: Table, event: Event) -> bool:
    """Give an event to the table as the camera (a roll) or a player's choice would; True when accepted."""
    return table.observe(event) if isinstance(event, Roll) else table.choose(event)
