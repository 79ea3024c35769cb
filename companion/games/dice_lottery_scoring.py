"""Dice Lottery scoring: the token lottery (DL-24, DL-25), round scores (DL-26, DL-28) and the winner (DL-1, DL-27).

Tokens are named by keys: the number tokens by their number ("3") and the two special tokens "none" (scores no
dice) and "all" (scores every die). The DEALER enters each token drawn from the tin, or lets the companion draw.
"""
from __future__ import annotations

import hashlib
from typing import Iterable, Sequence

from .base import winners_of

NO_DICE, ALL_DICE = "none", "all"
DRAW = "draw"   # the DEALER's "Draw for me" row; the answer is "draw:<seed>"


def token_keys(numbers: Iterable[int]) -> tuple[str, ...]:
    """The eight tokens in the tin: the number tokens (`tokens` option), then no-dice and all-dice."""
    return tuple(str(n) for n in numbers) + (NO_DICE, ALL_DICE)


def token_label(key: str) -> str:
    return {NO_DICE: "No dice", ALL_DICE: "All dice"}.get(key, key)


def seeded_draw(tin: Sequence[str], count: int, seed: int) -> tuple[str, ...]:
    """`count` tokens drawn blind from `tin`, one at a time without replacement, as a pure function of `seed`.

    The seed travels in the journaled event, so a replay draws the same tokens; SHA-256 rather than `random` keeps
    that true on any Python version.
    """
    left = list(tin)
    drawn = []
    for i in range(count):
        digest = hashlib.sha256(f"{seed}:{i}".encode()).digest()
        drawn.append(left.pop(int.from_bytes(digest, "big") % len(left)))
    return tuple(drawn)


def lottery_points(faces: Sequence[int], tokens: Sequence[str], points: Sequence[int]) -> int:
    """DL-25: token k on a space worth p pays p per die showing k; all-dice pays p per die; no-dice pays nothing.
    Tokens fill the spaces from space 1 (DL-24), so `tokens[i]` lies on the space worth `points[i]`."""
    total = 0
    for token, worth in zip(tokens, points):
        if token == ALL_DICE:
            total += worth * len(faces)
        elif token != NO_DICE:
            total += worth * sum(1 for face in faces if face == int(token))
    return total


def lucky_value(tokens: Sequence[str]) -> int | None:
    """DL-28: the card value the middle (2nd) token names, or None for no-dice and all-dice (no bonus)."""
    middle = tokens[1]
    return None if middle in (NO_DICE, ALL_DICE) else int(middle)


def round_score(block_cards: int, dice: int, lottery: int, hand: int, lucky: int = 0) -> int:
    """DL-26: cards in own blocks + dice held + lottery points - cards in hand, with the Lucky Card bonus counted
    before the floor at 0 (DL-28)."""
    return max(0, block_cards + dice + lottery + lucky - hand)


def game_winners(round_scores: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """DL-1, DL-27: the highest total wins; a tie goes to the most points in the last round, then is shared."""
    leaders = winners_of([sum(rounds) for rounds in round_scores])
    best_last = max(round_scores[seat][-1] for seat in leaders)
    return tuple(seat for seat in leaders if round_scores[seat][-1] == best_last)
