"""1,000 random Roll Your Luck games with the spec's invariants: scores never decrease (RYL-13), five rounds (RYL-1),
claims reset each round (RYL-12), only eligible players may bank, and every prompt fits the OLED. Every wave shows
the whole mat, the dice of players with no roll lying still or now and then knocked (RYL-16)."""
import time
from collections import Counter

import pytest

from companion.games import Decision, RollRequest, Setup, new_game
from companion.games.playout import playout

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")


def game_for(seed):
    count = 2 + seed % 7
    options = {"wave_mode": "sequential" if seed % 2 else "simultaneous"}
    if seed % 5 == 0:
        options["seat_zones"] = tuple(f"seat{i}" for i in range(count))
    return new_game(Setup("roll-your-luck", NAMES[:count], seed % count, options=options))


class Invariants:
    """Called on every state of one game; `seen` counts banks, players put OUT and moved dice ignored (RYL-16), over
    every game checked with the same counter."""

    def __init__(self, seen):
        self.score = None
        self.round = 1
        self.seen = seen
        self.status_of = None

    def __call__(self, state):
        if self.status_of is not None and state.round == self.round:
            for status in ("BANKED", "OUT"):
                self.seen[status] += state.status_of.count(status) - self.status_of.count(status)
        self.status_of = list(state.status_of)
        self.seen["moved die ignored"] += state.status().endswith("'s die ignored")
        if self.score is not None:
            assert all(now >= then for now, then in zip(state.score, self.score))  # RYL-13
        self.score = list(state.score)
        assert self.round <= state.round <= 5
        if state.round != self.round:  # RYL-2, RYL-12: a fresh round
            assert state.claims == {} and set(state.status_of) == {"ROLLING"} and set(state.running) == {0}
            self.round = state.round
        for face, claimants in state.claims.items():
            assert face >= state.round and all(state.status_of[p] == "BANKED" and state.last[p] == face
                                               for p in claimants)
        assert all(state.running[p] == 0 for p, s in enumerate(state.status_of) if s == "OUT")
        rolling = [p for p, s in enumerate(state.status_of) if s == "ROLLING"]
        pending = state.expects()
        assert len(state.status()) <= 21
        if isinstance(pending, RollRequest):
            assert pending.dice == {"pips": 1 if state.sequential else len(rolling)}
            assert len(pending.lines) <= 5 and all(len(line) <= 21 for line in pending.lines)
        if isinstance(pending, Decision):
            eligible = [int(key[1:]) for key in pending.legal_keys()]
            assert eligible and all(p in rolling and state.last[p] >= state.round
                                    and state.last[p] not in state.claims for p in eligible)
            assert len(pending.question) <= 21 and all(len(o.label) <= 19 for o in pending.options)
        if pending is not None:
            assert len(pending.context) <= 12
        if state.is_over:
            assert state.round == 5 and not rolling
            assert all(len(g) == 5 and sum(g) == s for g, s in zip(state.gains, state.score))
            assert state.outcome().winners == tuple(p for p, s in enumerate(state.score) if s == max(state.score))


@pytest.mark.parametrize("chunk", range(4))
def test_1000_random_playouts_keep_the_invariants(chunk):
    start = time.perf_counter()
    seen = Counter()
    for seed in range(chunk * 250, chunk * 250 + 250):
        assert playout(game_for(seed), seed, Invariants(seen)).is_over
    assert seen["BANKED"] and seen["OUT"] and seen["moved die ignored"]
    elapsed = time.perf_counter() - start
    print(f"roll-your-luck playouts {chunk * 250}-{chunk * 250 + 249}: {elapsed:.2f} s, {dict(seen)}")
