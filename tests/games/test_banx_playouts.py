"""BANX under 1,000 random playouts (random players and options): no event raises, the disc invariant and the spec's
other invariants hold after every event, and no prompt ever shows a disc count before the Shootout (BANX-22, UI-10).
"""
import random
import time

import pytest

from companion.games import Decision, Setup, new_game
from companion.games.banx_scoring import CATEGORIES, final_score
from companion.games.playout import playout, random_events

COLOURS = ("red", "blue", "green", "yellow")
NAMES = ("Ana", "Ben", "Cy", "Dee")
PLAYOUTS = 1000
CHUNKS = 4


def random_game(seed: int):
    """2-4 players, any first player, and every house option that changes the flow drawn at random."""
    rng = random.Random(seed)
    count = rng.randint(2, 4)
    options = {"keep_input": rng.choice(("strip", "buttons")), "extra_boom_needs_50": rng.random() < 0.5,
               "extra_boom_optional": rng.random() < 0.3, "extra_boom_cap": rng.choice((None, None, 0, 1, 2)),
               "open_discs": rng.random() < 0.3, "shootout_free_first_roll": rng.random() < 0.3}
    return new_game(Setup("banx", NAMES[:count], rng.randrange(count), COLOURS[:count], options))


class Invariants:
    """The `check` callback of a playout: compares each state with the one before it (the spec's State names)."""

    def __init__(self, game):
        self.cap = game.options.extra_boom_cap
        self.previous = None

    def __call__(self, state):
        assert state.supply + sum(state.discs) == 20 and state.supply >= 0 and min(state.discs) >= 0
        if self.cap is not None:
            assert max(state.extra_booms) <= self.cap                                           # BANX-29
        before = self.previous
        if before:
            new_fills = 0
            for old, new in zip(before.sheets, state.sheets):
                assert all(new[k] == v for k, v in old.items() if v is not None)                 # BANX-7
                new_fills += list(old.values()).count(None) - list(new.values()).count(None)
            assert new_fills in (0, 1)
            assert all(new >= old for old, new in zip(before.extra_booms, state.extra_booms))
            if before.phase != "MAIN":                                                          # BANX-31
                assert state.discs == before.discs and state.supply == before.supply
        self.previous = state


def check_final(state):
    """Over after the Shootout, every sheet full, and only the highest Shootout total recorded (BANX-27)."""
    detail = state.detail()
    assert detail["phase"] == "OVER" and state.expects() is None
    players = detail["players"]
    assert all(None not in p["sheet"].values() for p in players)
    scores = state.outcome().scores
    totals = [p["shootout"] for p in players]
    entries = [score - final_score(dict(zip(CATEGORIES, p["sheet"].values())), p["extra_booms"], 0)
               for score, p in zip(scores, players)]
    assert entries == [t if t == max(totals) else 0 for t in totals]
    assert state.outcome().winners == tuple(i for i, s in enumerate(scores) if s == max(scores))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_banx_1000_random_playouts_keep_the_invariants(chunk):
    started = time.perf_counter()
    seeds = range(chunk * PLAYOUTS // CHUNKS, (chunk + 1) * PLAYOUTS // CHUNKS)
    extra_booms = 0
    for seed in seeds:
        game = random_game(seed)
        state = playout(game, seed, check=Invariants(game))
        check_final(state)
        extra_booms += sum(p["extra_booms"] for p in state.detail()["players"])
    assert extra_booms > 0                     # the Extra BOOM paths were exercised
    print(f"\nBANX: {len(seeds)} playouts in {time.perf_counter() - started:.1f} s")


def prompt_strings(state):
    """Every string a screen could draw for this state: the prompt and the status line."""
    pending = state.expects()
    if isinstance(pending, Decision):
        texts = [pending.question, pending.context] + [t for o in pending.options for t in (o.key, o.label, o.reason)]
    else:
        texts = [pending.message, pending.context, *pending.lines, str(pending.owner)]
    return texts + [state.status()]


def with_discs_moved(state):
    """The same table with the discs behind the blinders shared out differently: the supply, and whether the
    active player holds any disc (BANX-22: it decides whether Pay is offered), stay the same."""
    twin = state.copy()
    held = sum(twin.discs)
    active_keeps = min(twin.discs[twin.active], 1)
    twin.discs = [0] * len(twin.discs)
    twin.discs[twin.active] = active_keeps
    twin.discs[(twin.active + 1) % len(twin.discs)] += held - active_keeps
    return twin


def test_banx_22_ui_10_prompts_never_show_disc_counts_before_the_shootout():
    compared = 0
    for seed in range(100):
        game = new_game(Setup("banx", NAMES[:2 + seed % 3], 0, COLOURS[:2 + seed % 3],
                              {"keep_input": ("strip", "buttons")[seed % 2]}))
        for _, state in random_events(game.new_initial_state(), random.Random(seed)):
            if state.phase != "MAIN":
                break
            twin = with_discs_moved(state)
            assert prompt_strings(twin) == prompt_strings(state)
            compared += twin.discs != state.discs
    assert compared > 10_000


def test_prompts_fit_the_oled():
    """Questions and lines <= 21 characters, option labels <= 19, header context <= 12 (controls.md layout)."""
    for seed in range(50):
        game = random_game(seed)
        for _, state in random_events(game.new_initial_state(), random.Random(seed)):
            pending = state.expects()
            if pending is None:
                break
            assert len(state.status()) <= 21 and len(pending.context) <= 12
            if isinstance(pending, Decision):
                assert len(pending.question) <= 21 and all(len(o.label) <= 19 for o in pending.options)
                assert pending.default is not None
            else:
                assert len(pending.lines) <= 5 and all(len(line) <= 21 for line in pending.lines)
                assert len(pending.message) <= 21
