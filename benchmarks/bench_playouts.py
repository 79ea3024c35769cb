"""Random playouts of every game: how long 1,000 take and how many events they hold (rules engine speed).

usage: python benchmarks/bench_playouts.py [--count N] [--game NAME]
"""
import argparse
import random
import statistics
import time

import checkout  # noqa: F401  (this checkout's companion package, wherever the environment was made)
from companion.games import Setup, game_class, names, new_game
from companion.games.playout import random_events

PLAYERS = ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
COLOURS = ("red", "blue", "green", "yellow", "white", "black", "purple", "orange")


def setup_for(name: str, rng: random.Random) -> Setup:
    cls = game_class(name)
    count = rng.randint(cls.min_players, min(cls.max_players, 4))
    colours = COLOURS[:count] if cls.needs_colours else ()
    return Setup(name, PLAYERS[:count], rng.randrange(count), colours)


def bench(name: str, count: int) -> None:
    rng = random.Random(1)
    events, started = [], time.perf_counter()
    for seed in range(count):
        state = new_game(setup_for(name, rng)).new_initial_state()
        events.append(sum(1 for _ in random_events(state, random.Random(seed))))
    elapsed = time.perf_counter() - started
    print(f"{name:15} {count} playouts in {elapsed:6.2f} s, {statistics.mean(events):6.1f} events each, "
          f"{elapsed / sum(events) * 1e6:6.1f} us per event")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--game", choices=names())
    args = parser.parse_args()
    for name in [args.game] if args.game else names():
        bench(name, args.count)


if __name__ == "__main__":
    main()
