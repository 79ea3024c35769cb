"""Fuzzing every game: random presses and random, implausible and flickering dice keep every invariant.

2,000 steps per game by default, 10,000 with --soak; fuzzer.py says what a step is and what is checked.
"""
import pytest

from companion import games

from .fuzzer import Fuzzer


def fuzz(name, seed, steps, tmp_path):
    fuzzer = Fuzzer(name, seed, tmp_path / f"{seed}.sqlite")
    try:
        fuzzer.run(steps)
    finally:
        fuzzer.close()
    return fuzzer


@pytest.mark.soak
@pytest.mark.parametrize("name", games.names())
def test_random_presses_and_readings_raise_nothing_and_keep_every_invariant(name, tmp_path, soak):
    steps = 10_000 if soak else 2_000
    fuzzer = fuzz(name, f"fuzz {name}", steps, tmp_path)
    assert fuzzer.steps == steps
    counts = fuzzer.counts
    assert counts["events taken"] > 50 and counts["events undone"] > 0 and counts["chord"] and counts["frame"]
    print(f"\n{name}: {steps} steps, {fuzzer.table.game_id} games: {dict(sorted(counts.items()))}")


@pytest.mark.parametrize("name", games.names())
def test_the_same_seed_reproduces_the_same_run(name, tmp_path):
    first, again = (fuzz(name, 7, 300, tmp_path / str(n)) for n in range(2))
    other = fuzz(name, 8, 300, tmp_path / "other")
    assert first.trace == again.trace
    assert first.trace != other.trace
