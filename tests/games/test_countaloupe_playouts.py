"""Random Countaloupe games: 1,000 seeded playouts and 200 games with random blocks, checking the spec's invariants
and that every prompt fits the OLED (21 characters a line, 19 an option row, 12 of header context)."""
import random
import time
from collections import Counter

import pytest

from companion.games import Choice, Decision, RollRequest, Setup, new_game
from companion.games.countaloupe import dice_for, penalised
from companion.games.playout import playout

CHANCE_QUESTIONS = ("Sweet", "Sour", "Chip on")


def game_for(seed):
    players = ("Ana", "Ben", "Cy", "Dee")[:2 + seed % 3]
    options = {"multi_round": seed % 20 == 0, "strict_steps": seed % 3 == 0}
    return new_game(Setup("countaloupe", players, seed % len(players), options=options))


def check_prompt(state, pending):
    assert len(state.status()) <= 21 and "None" not in state.status()
    if isinstance(pending, RollRequest):
        assert pending.dice == {"pips": dice_for(state._next_of(state.active)), "symbol": 1}
        assert len(pending.lines) <= 5 and all(len(line) <= 21 for line in pending.lines)
    if isinstance(pending, Decision):
        assert len(pending.question) <= 21 and pending.default in pending.legal_keys()
        assert all(len(o.label) <= 19 and "None" not in o.label for o in pending.options)
    if pending is not None:
        assert len(pending.context) <= 12 and pending.player == state.active


class Invariants:
    """Called on every state of one game: decks, holds, chip, blocks, totals and the end (CL-2, CL-22 to CL-27,
    CL-32), and every change of a deck's `next` from the state before (CL-3, CL-12, CL-22, CL-31). `seen` counts
    the moves that changed a deck, over every game checked with the same counter."""

    def __init__(self, seen=None):
        self.total = None
        self.before = None
        self.seen = Counter() if seen is None else seen

    def __call__(self, state):
        if self.before is not None:
            self.check_decks(self.before, state)
        self.before = state
        n = len(state.game.players)
        assert all(1 <= value <= 17 for value in state.next)
        assert sorted(state.holds) == list(range(n))
        assert state.chip_holder is None or state.chip_deck is None
        assert state.chip_holder in (None, *range(n)) and state.chip_deck in (None, *range(n))
        pending = state.expects()
        chance_choice = isinstance(pending, Decision) and pending.question.startswith(CHANCE_QUESTIONS)
        blocks = state.interrupts()
        if chance_choice or state.chip_holder is None or pending is None:
            assert blocks == ()
        else:
            assert {b.player for b in blocks} == {state.chip_holder}
            assert f"block:{state.chip_holder}" not in {b.option.key for b in blocks}
            first_target = state.active if state.active != state.chip_holder else (state.active + 1) % n
            assert len(blocks) == n - 1 and blocks[0].option.key == f"block:{first_target}"  # active player first
        if self.total is not None:
            assert all(now >= then for now, then in zip(state.total, self.total))
        self.total = list(state.total)
        check_prompt(state, pending)
        if state.is_over:
            (winner,) = state.outcome().winners
            if state.game.options.multi_round:
                assert state.total[winner] >= 100 and sorted(state.total)[-2] < state.total[winner]
            else:
                assert state.next[state.holds[winner]] == 17 and state.next.count(17) == 1
        else:
            assert 17 not in state.next


    def check_decks(self, before, after):
        """Only the active player's deck changes, never while the chip is on it: one card at a time from the top, or
        the penalty of a risk roll; a new round (multi-round) starts every deck afresh."""
        if after.round != before.round:
            assert after.next == [1] * len(after.next) and after.holds == sorted(after.holds)
            assert after.chip_holder is None and after.chip_deck is None
            return
        if after.holds != before.holds:
            self.seen["swap"] += 1
        for deck, (was, now) in enumerate(zip(before.next, after.next)):
            if was == now:
                continue
            assert deck == before.holds[before.active] and deck != before.chip_deck
            if now == was + 1:
                self.seen["card"] += 1
            else:
                assert before.roll_no >= 1 and now == penalised(was) < was
                self.seen["penalty"] += 1


@pytest.mark.parametrize("chunk", range(10))
def test_1000_random_playouts_keep_the_invariants(chunk):
    start = time.perf_counter()
    seen = Counter()
    for seed in range(chunk * 100, chunk * 100 + 100):
        final = playout(game_for(seed), seed, Invariants(seen))
        assert final.is_over
    assert seen["card"] and seen["swap"] and seen["penalty"]
    print(f"countaloupe playouts {chunk * 100}-{chunk * 100 + 99}: {time.perf_counter() - start:.2f} s, {dict(seen)}")


def test_random_blocks_keep_the_invariants():
    """Playouts do not use MENU; here the chip holder blocks a random deck at random moments (CL-23 to CL-25)."""
    blocked_active = 0
    for seed in range(200):
        rng = random.Random(seed)
        state = game_for(seed).new_initial_state()
        check = Invariants()
        while not state.is_over:
            blocks = state.interrupts()
            if blocks and rng.random() < 0.1:
                block = rng.choice(blocks)
                target = int(block.option.key.split(":")[1])
                after = state.apply(Choice(block.option.key, block.player))
                assert after.chip_deck == state.holds[target] and after.chip_holder is None
                if target == state.active:  # CL-24: the turn ends at once, committed cards stay, no penalty
                    blocked_active += 1
                    assert after.active == (state.active + 1) % len(state.game.players)
                    assert after.next == state.next
                state = after
            else:
                pending = state.expects()
                event = pending.random_choice(rng) if isinstance(pending, Decision) else state.random_roll(rng)
                state = state.apply(event)
            check(state)
    assert blocked_active > 50
