"""Dice Lottery under 1,000 random playouts (2-5 players, options varied, prize points kept or changed): no event
raises, and after every event cards and dice are conserved (each of the 15 dice in exactly one place, keeping its face
unless it was committed to the finalise re-roll), blocks are legal and scores never go below 0. Every prompt fits the OLED and shows
only public facts (UI-10): the referee holds no hidden cards, the tokens stay in the tin until the lottery and a
draw's seed is never shown.
"""
import random
import time
from collections import Counter

import pytest

from companion.games import RollRequest, Setup, new_game
from companion.games.dice_lottery_blocks import completions
from companion.games.playout import playout, random_events

NAMES = ("Ana", "Benedikta", "Cy", "Dee", "Eve")          # one name longer than the 8-character header
PLAYOUTS = 1000
CHUNKS = 4


def random_game(seed: int):
    rng = random.Random(seed)
    count = rng.randint(2, 5)
    options = {"track_values": rng.random() < 0.5, "lucky_card": rng.random() < 0.5,
               "long_game": rng.random() < 0.3}
    return new_game(Setup("dice-lottery", NAMES[:count], rng.randrange(count), options=options))


class Invariants:
    """The `check` callback: the spec's invariants on every state (the spec's State names)."""

    def __init__(self, game):
        self.options = game.options
        self.blocks = None
        self.faces: dict[int, int] = {}     # die id -> face after the last event
        self.may_change: list[int] = []     # dice committed to the re-roll then

    def __call__(self, state):
        hands, blocks = state.hands, state.blocks
        assert state.deck + sum(hands) + sum(b.size for b in blocks) == 52                     # wilds counted
        assert state.deck >= 0 and min(hands) >= 0
        self.check_dice(state)
        assert min(state.scores()) >= 0 and all(min(rounds, default=0) >= 0 for rounds in state.round_scores)
        assert 1 <= state.round <= 3 and len(state.tokens) <= 3
        assert all(len(rounds) in (state.round - 1, state.round) for rounds in state.round_scores)
        if blocks != self.blocks:                                  # blocks change only when cards are played
            self.blocks = blocks
            self.check_blocks(blocks)

    def check_dice(self, state):
        """The 15 dice, each in one place (before a round's pool roll: none); faces change only at a new round's
        pool roll or for the dice committed to the re-roll (DL-2, DL-23)."""
        places = [state.pool] + state.held
        faces = {die: face for dice in places for die, face in dice.items()}
        if not faces:
            assert state.phase in ("prizes", "prize", "roll_pool")
            self.faces = {}
            return
        assert sorted(faces) == list(range(15)) and sum(len(dice) for dice in places) == 15
        if self.faces:
            assert all(self.faces[die] == face or die in self.may_change for die, face in faces.items())
        self.faces, self.may_change = faces, list(state.reroll)

    def check_blocks(self, blocks):
        assert all(block.size >= 3 for block in blocks)
        if not self.options.track_values:
            return
        for block in blocks:                                                                # DL-7 .. DL-12
            counts = tuple(block.cards.count(v) for v in self.options.card_values)
            assert len(block.cards) == block.size and counts in completions(len(counts), counts, block.size)
            assert block.wild is None or block.wild in block.cards
        real = Counter(v for block in blocks for v in block.real_cards)                     # card_mix
        assert max(real.values(), default=0) <= self.options.card_mix[0]
        assert sum(block.wild is not None for block in blocks) <= self.options.card_mix[1]


def check_final(state):
    """Over after 3 rounds; the winners have the best total, and among equal totals the best round 3 (DL-27)."""
    assert state.expects() is None and state.is_over
    rounds = [p["round_scores"] for p in state.detail()["players"]]
    assert all(len(r) == 3 for r in rounds)
    outcome = state.outcome()
    assert outcome.scores == tuple(sum(r) for r in rounds)
    best = max(outcome.scores)
    leaders = [seat for seat, total in enumerate(outcome.scores) if total == best]
    assert set(outcome.winners) <= set(leaders)
    assert {rounds[seat][2] for seat in outcome.winners} == {max(rounds[seat][2] for seat in leaders)}


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_dl_invariants_hold_over_random_playouts(chunk):
    per_chunk = PLAYOUTS // CHUNKS
    started = time.process_time()
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        game = random_game(seed)
        check_final(playout(game, seed, Invariants(game)))
    print(f"\n{per_chunk} Dice Lottery playouts in {time.process_time() - started:.1f} s CPU")


def prompt_strings(pending):
    if isinstance(pending, RollRequest):
        return [pending.message, pending.context, *pending.lines]
    return [pending.question, pending.context] + [s for o in pending.options for s in (o.label, o.reason)]


def test_ui_10_prompts_fit_the_oled_and_show_only_public_facts():
    for seed in range(60):
        game = random_game(seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        for event, after in random_events(state, rng):
            pending = state.expects()
            texts = prompt_strings(pending) + [state.status()]
            assert len(state.status()) <= 21 and len(pending.context) <= 12
            if isinstance(pending, RollRequest):
                assert len(pending.lines) <= 5 and all(len(line) <= 21 for line in pending.lines)
                assert len(pending.message) <= 21
            else:
                assert len(pending.question) <= 21 and all(len(o.label) <= 19 for o in pending.options)
                assert pending.options or pending.kind == "spinner"
                assert all(o.enabled or o.reason for o in pending.options)                  # UI-6
                if pending.kind == "spinner":
                    assert pending.low <= pending.default <= pending.high
                elif pending.kind == "choose":
                    assert pending.default in pending.legal_keys()                          # UI-7
            assert not any("draw:" in text for text in texts)                              # the seed stays hidden
            if state.detail()["ender"] is None:                                             # tokens still in the tin
                assert not any(word in text for text in texts for word in ("Token", "No dice", "All dice"))
            state = after
