"""BANX's score sheet: what five dice are worth in each category and how a sheet totals (rules/banx.md).

Pure functions of dice values and a sheet (category key -> points, None while open); banx.py runs the game.
"""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Mapping, Sequence

TOP = ("aces", "deuces", "threes", "fours", "fives", "sixers")
BOTTOM = ("3kind", "4kind", "fullhouse", "smallstraight", "largestraight", "boom", "chance")
CATEGORIES = TOP + BOTTOM

FULL_HOUSE = 20
SMALL_STRAIGHT = 30
LARGE_STRAIGHT = 40
BOOM = 50
EXTRA_BOOM = 50
TOP_BONUS = 50
TOP_BONUS_FROM = 60
SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def sheet_names(top_names: Sequence[str]) -> dict[str, str]:
    """Category key -> the name printed on the sheet; the 3s/4s/5s lines come from the `top_names` option."""
    return dict(zip(CATEGORIES, ("Aces", "Deuces", *top_names, "Sixers", "3 of a Kind", "4 of a Kind", "Full House",
                                 "Small Straight", "Large Straight", "BOOM", "Chance")))


def is_five_of_a_kind(dice: Sequence[int]) -> bool:
    return len(dice) == 5 and len(set(dice)) == 1


def points(category: str, dice: Sequence[int]) -> int:
    """What `dice` score in `category` (BANX-9 to BANX-14); no joker, so five of a kind is no house or straight
    (BANX-15)."""
    if category in TOP:
        face = TOP.index(category) + 1
        return face * dice.count(face)
    if category == "chance":
        return sum(dice)
    counts = sorted(map(dice.count, set(dice)))
    if category == "3kind":
        return sum(dice) if counts[-1] >= 3 else 0
    if category == "4kind":
        return sum(dice) if counts[-1] >= 4 else 0
    if category == "fullhouse":
        return FULL_HOUSE if counts == [2, 3] else 0
    if category == "smallstraight":
        return SMALL_STRAIGHT if any(run <= set(dice) for run in SMALL_RUNS) else 0
    if category == "largestraight":
        return LARGE_STRAIGHT if set(dice) in LARGE_RUNS else 0
    if category == "boom":
        return BOOM if is_five_of_a_kind(dice) else 0
    raise KeyError(category)


@lru_cache(maxsize=1024)
def all_points(dice: tuple[int, ...]) -> Mapping[str, int]:
    """Category key -> points for these dice (a sorted tuple); cached, as every category prompt asks for all 13."""
    return MappingProxyType({category: points(category, dice) for category in CATEGORIES})


def top_total(sheet: Mapping[str, int | None]) -> int:
    """Aces to Sixers, +50 from 60 up (BANX-19)."""
    top = sum(sheet[k] or 0 for k in TOP)
    return top + (TOP_BONUS if top >= TOP_BONUS_FROM else 0)


def bottom_total(sheet: Mapping[str, int | None], extra_booms: int) -> int:
    """The seven bottom categories plus 50 per X (BANX-20)."""
    return sum(sheet[k] or 0 for k in BOTTOM) + EXTRA_BOOM * extra_booms


def final_score(sheet: Mapping[str, int | None], extra_booms: int, entry: int) -> int:
    """Top total + bottom total + the recorded Shootout entry (BANX-21)."""
    return top_total(sheet) + bottom_total(sheet, extra_booms) + entry


def shootout_entries(totals: Sequence[int]) -> list[int]:
    """Only the highest Shootout total is recorded, by everyone who reached it; the rest record 0 (BANX-27)."""
    best = max(totals)
    return [t if t == best else 0 for t in totals]
