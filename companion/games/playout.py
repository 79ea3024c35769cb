"""Random playouts: random dice at every chance node, random legal choices at every decision (as OpenSpiel does).

Used by the tests of every game and by the fuzzer; pure, seeded and reproducible.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator

from .base import Decision, Event, Game, State


def random_events(state: State, rng: random.Random, max_events: int = 100_000) -> Iterator[tuple[Event, State]]:
    """Yield (event, state after it) until the game ends; raise RuntimeError if it runs past `max_events`."""
    for _ in range(max_events):
        pending = state.expects()
        if pending is None:
            return
        event = pending.random_choice(rng) if isinstance(pending, Decision) else state.random_roll(rng)
        state = state.apply(event)
        yield event, state
    raise RuntimeError(f"no end after {max_events} events")


def playout(game: Game, seed: int, check: Callable[[State], None] | None = None) -> State:
    """Play `game` to the end with seeded random events, calling `check` on every state; return the final state."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    if check:
        check(state)
    for _, state in random_events(state, rng):
        if check:
            check(state)
    return state
