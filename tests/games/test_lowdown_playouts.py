"""1,000 random Lowdown playouts per mode, 2-4 players, checking the spec's invariants on every state.

Light-mode playouts also declare "2 grids full" through MENU at a random turn from the first one where it is
possible (or never, and the referee ends the game once 2 full grids are certain). Run with -s to see the timings.
"""
import random
import time

import pytest

from companion.games import Choice, Decision, RollRequest, Setup, new_game
from companion.games.lowdown import WILDS
from companion.games.lowdown_board import BLACK
from companion.games.playout import playout, random_events

PLAYERS = ("Ana", "Ben", "Cy", "Dee")
CHUNKS, PER_CHUNK = 4, 250
BEFORE_REVEAL = ("roll", "source", "own_colour", "aside", "own_number", "reveal")


def game_for(mode: str, seed: int):
    return new_game(Setup("lowdown", PLAYERS[:2 + seed % 3], seed % 2, options={"mode": mode}))


def check(state) -> None:
    """The invariants of rules/lowdown.md that hold in every state."""
    game, layout = state.game, state.game.layout
    count = len(game.players)
    assert all(0 <= w <= WILDS for w in state.wilds_used)                                   # LOW-5
    if state.pool is not None:                                                                # LOW-26, LOW-7, LOW-14
        colours, numbers = state.pool
        assert len(colours) == 2 and len(numbers) == 2
        assert set(colours) <= set(game.options.colour_faces) and set(numbers) <= set(game.options.number_faces)
    if state.phase in BEFORE_REVEAL or (state.source == "own" and state.picker == state.active and not state.pool):
        assert state.hidden is None                                                           # LOW-23
    assert state.hidden_roller == (state.active - 1) % count                                  # LOW-1
    check_picks(state)
    pending = state.expects()
    if game.full and state.phase == "place":
        check_forced_moves(state, pending)
    if isinstance(pending, Decision):
        assert pending.legal_keys() or pending.kind in ("spinner", "multi")
        assert len(pending.question) <= 21 and all(len(o.label) <= 19 for o in pending.options)
    elif isinstance(pending, RollRequest):
        assert pending.dice in ({"colour": 2, "pips": 2}, {"colour": 1, "pips": 1})
    if state.phase not in ("roll", "over"):
        return
    # Once per turn, and at the end: the boards and the end of the game
    if game.full:
        for seat, (board, crossed) in enumerate(zip(state.boards, state.crossed)):
            assert layout.filled(board) == state.turn - (state.phase == "roll")              # one box per turn
            assert sum(cell == BLACK for grid in board for cell in grid) == state.blackouts[seat]
            assert len(set(crossed)) == len(crossed)
            boxes = [(layout.line_at[key].grid, box) for key in crossed for box in layout.line_at[key].boxes]
            assert len(boxes) == len(set(boxes))                                              # LOW-17
            assert all(layout.crossable(board, layout.line_at[key]) for key in crossed)      # LOW-15, LOW-16
        if state.phase == "roll":                                                             # LOW-20, LOW-21
            assert not state.end_triggered and all(layout.full_grids(b) < 2 for b in state.boards)
    else:
        assert state.turn <= layout.filled_forcing_end
        if state.phase == "roll":
            assert not state.end_triggered
    if state.phase == "over":
        outcome = state.outcome()
        if game.full:                                                                         # LOW-22
            assert list(outcome.scores) == [score_by_hand(layout, b, c) for b, c in zip(state.boards, state.crossed)]
        assert outcome.winners == tuple(i for i, s in enumerate(outcome.scores) if s == min(outcome.scores))
        if game.full:
            assert any(layout.full_grids(b) >= 2 for b in state.boards)
        else:
            assert any(state.declared) or state.turn == layout.filled_forcing_end


def check_picks(state) -> None:
    """Every pick made this turn used dice it was allowed to (LOW-2, LOW-3, LOW-7 to LOW-9, LOW-14, LOW-26) and a
    normal number went in a box taking its colour (LOW-4)."""
    if state.roll is None:
        return
    colours, numbers = state.roll
    for seat, pick in enumerate(state.picked):
        if pick is None:
            continue
        if seat == state.active and state.source == "hidden":
            assert (pick.aside, pick.number) == state.hidden and pick.colour in (None, state.hidden[0])
        elif seat == state.active:
            assert pick.aside in colours and pick.number in numbers and pick.colour in (None, pick.aside)
        else:
            assert pick.colour in (None, *state.pool[0]) and (pick.number in (None, *state.pool[1]))
        if state.game.full and pick.how == "normal":
            grid, box = state.game.layout.box_at[pick.box]
            assert pick.colour in state.game.layout.accepts[grid][box]
    if state.pool is not None and state.source == "hidden":
        assert state.pool == state.roll
    elif state.pool is not None:
        a, (colour, number) = state.picked[state.active], state.hidden
        assert state.pool == (_less(colours, a.aside) + (colour,), _less(numbers, a.number) + (number,))


def _less(values: tuple, value) -> tuple:
    i = values.index(value)
    return values[:i] + values[i + 1:]


def check_forced_moves(state, place) -> None:
    """LOW-10 to LOW-13 on the stored board: Normal only when a colour fits, Blackout only when nothing fits and no
    wild is left; the others may always take a wild they have (LOW-6)."""
    seat, layout = state.picker, state.game.layout
    colours = (state.pick.colour,) if seat == state.active else state.pool[0]
    fits = layout.fits(state.boards[seat], colours)
    wild_left = state.wilds_used[seat] < WILDS
    enabled = set(place.legal_keys())
    assert ("normal" in enabled) == fits
    assert ("blackout" in enabled) == (not fits and not wild_left)
    if seat != state.active:
        assert ("wild" in enabled) == wild_left


def score_by_hand(layout, board, crossed) -> int:
    """LOW-22 recomputed from the boxes: numbers outside every crossed line, 6 per black box."""
    out = {(layout.line_at[key].grid, box) for key in crossed for box in layout.line_at[key].boxes}
    return sum(6 if cell == BLACK else cell for g, grid in enumerate(board) for i, cell in enumerate(grid)
               if cell is not None and (cell == BLACK or (g, i) not in out))


def light_playout(game, seed: int):
    """A random light-mode game in which a random eligible player declares "2 grids full" on a random turn."""
    rng = random.Random(seed)
    declare_on = rng.randint(game.layout.fewest_filled_for_end, game.layout.filled_forcing_end + 1)
    state = game.new_initial_state()
    check(state)
    for _, state in random_events(state, rng):
        check(state)
        if state.turn >= declare_on and state.interrupts():
            break
    else:
        return state
    interrupt = rng.choice(state.interrupts())
    state = state.apply(Choice(interrupt.option.key, interrupt.player))
    check(state)
    for _, state in random_events(state, rng):
        check(state)
    return state


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_light_mode_playouts_never_raise_and_keep_the_invariants(chunk):
    started, declared = time.process_time(), 0
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        state = light_playout(game_for("light", seed), seed)
        assert state.is_over
        declared += any(state.declared)
    assert 0 < declared < PER_CHUNK          # both endings happen: declared, and certain without a declaration
    print(f"lowdown light: {PER_CHUNK} playouts in {time.process_time() - started:.1f} s CPU")


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_full_mode_playouts_never_raise_and_keep_the_invariants(chunk):
    started, crossed, blackouts = time.process_time(), 0, 0
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        state = playout(game_for("full", seed), seed, check)
        assert state.is_over
        crossed += sum(map(len, state.crossed))
        blackouts += sum(state.blackouts)
    assert crossed and blackouts              # the playouts reach cross-outs and forced blackouts
    print(f"lowdown full: {PER_CHUNK} playouts in {time.process_time() - started:.1f} s CPU")
