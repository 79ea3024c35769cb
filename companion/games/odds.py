"""Exact chances shown before a push-your-luck decision (issue 5): what the next roll is likely to do.

Everything is counted over every equally likely outcome of the dice, as exact fractions; nothing is simulated.
Countaloupe's values come from one table per dice count, built once and cached, so playouts stay fast.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Collection, Iterable, Sequence


def makeable_values(dice: Iterable[int]) -> frozenset[int]:
    """Every value one die shows or some combination of dice adds up to, each die counted once per sum (CL-6, CL-7)."""
    sums = {0}
    for value in dice:
        sums |= {s + value for s in sums}
    sums.discard(0)
    return frozenset(sums)


def _arrangements(multiset: Sequence[int]) -> int:
    """How many ordered rolls show this multiset of faces."""
    return factorial(len(multiset)) // prod(factorial(c) for c in Counter(multiset).values())


@lru_cache(maxsize=None)
def _makeable_counts(k: int, faces: tuple[int, ...]) -> tuple[Counter, int]:
    """For k dice with these (equally likely) faces: value -> number of ordered rolls that make it, and the total."""
    counts: Counter = Counter()
    for multiset in combinations_with_replacement(faces, k):
        weight = _arrangements(multiset)
        for value in makeable_values(multiset):
            counts[value] += weight
    return counts, len(faces) ** k


def chance_to_make(value: int, k: int, faces: Sequence[int]) -> Fraction:
    """The chance that k fair dice with these faces make `value` (CL-6, CL-7)."""
    counts, total = _makeable_counts(k, tuple(faces))
    return Fraction(counts[value], total)


@lru_cache(maxsize=4096)
def risk_success_chance(value: int, k: int, faces: tuple[int, ...], chance_faces: tuple[str, ...],
                        voiding: tuple[str, ...] = ()) -> Fraction:
    """The chance that a Countaloupe risk roll discards at least one card: its k numbered dice make `value` (the next
    card, CL-6) and its Chance Die does not show a face in `voiding`, one that swaps the deck away and voids the dice
    (Sour when another deck is lower, CL-18). Sweet never voids them: the roller may keep (CL-15)."""
    make = chance_to_make(value, k, faces)
    kept = Fraction(sum(1 for face in chance_faces if face not in voiding), len(chance_faces))
    return make * kept


def accepted_unclaimed_chance(faces: Sequence[int], lowest: int, claimed: Collection[int]) -> Fraction:
    """The chance that one fair die shows a face that is accepted (at least `lowest`, RYL-1) and not claimed (RYL-8)."""
    good = sum(1 for face in faces if face >= lowest and face not in claimed)
    return Fraction(good, len(faces))


@lru_cache(maxsize=1024)
def percent(chance: Fraction) -> str:
    """A chance as a whole percentage for the OLED; only a certainty shows 0% or 100%."""
    if chance in (0, 1):
        return f"{int(chance * 100)}%"
    return f"{min(99, max(1, round(chance * 100)))}%"
