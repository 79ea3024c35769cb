"""Give each die an id that follows it from one settled reading to the next (Dice Lottery's pool and zones).

A die that has not moved is found again at its place, in its zone and showing its face. The other dice are matched
to the ids no longer found, the least surprising pairs first: a die that kept both its zone and its face (nudged),
then one that changed its face (re-rolled, knocked over), then one that changed its zone (carried from the pool to a
player), then one that changed both; the nearest breaks ties. So a die carried from the pool to a player's zone
keeps its id, one whose face changed on the way keeps it too, which lets the game see the change (DL-2) instead of a
stranger, and dice re-rolled by two players at once (DL-22) stay with their owners even when their new faces swap.
Dice beyond the ids known get new ids; the first reading numbers dice from 0 in reading order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

STILL = 0.5  # a die within this many die sizes of a known die's place has not moved
NEW_ZONE, NEW_FACE = 1.0, 0.9  # how surprising a moved die's change of zone and of face are; both add up


@dataclass(frozen=True)
class Seen:
    id: int
    center: tuple[float, float]
    label: str
    zone: str


class DieTracker:
    def __init__(self):
        self.known: list[Seen] = []

    def reset(self) -> None:
        self.known = []

    def track(self, dice: Sequence) -> list:
        """The dice (ReadDie-like: `center`, `size`, `zone`, `to_die()`) as game Dice carrying their ids."""
        order = sorted(range(len(dice)), key=lambda i: (round(dice[i].center[1] / max(dice[i].size, 1)),
                                                        dice[i].center[0]))
        labels = {i: dice[i].to_die().label() for i in order}
        ids: dict[int, int] = {}
        free = list(self.known)
        for i in order:  # dice lying where a known die lay, as it lay
            near = [s for s in free if _distance(s.center, dice[i].center) <= STILL * dice[i].size
                    and (s.label, s.zone) == (labels[i], dice[i].zone)]
            if near:
                best = min(near, key=lambda s: _distance(s.center, dice[i].center))
                ids[i] = best.id
                free.remove(best)
        ids.update(_match_moved([i for i in order if i not in ids], dice, labels, free))
        next_id = max([s.id for s in self.known] + [-1]) + 1
        for i in order:
            if i not in ids:
                ids[i], next_id = next_id, next_id + 1
        self.known = [Seen(ids[i], tuple(dice[i].center), labels[i], dice[i].zone) for i in order]
        return [replace(dice[i].to_die(), id=ids[i]) for i in range(len(dice))]


def _match_moved(moved: list[int], dice: Sequence, labels: dict[int, str], free: list[Seen]) -> dict[int, int]:
    """Reading index -> id for the dice that moved, least surprising pair first (see the module's docstring)."""
    pairs = sorted((NEW_ZONE * (s.zone != dice[i].zone) + NEW_FACE * (s.label != labels[i]),
                    _distance(s.center, dice[i].center), i, s.id) for i in moved for s in free)
    ids: dict[int, int] = {}
    taken: set[int] = set()
    for _, _, i, die_id in pairs:
        if i not in ids and die_id not in taken:
            ids[i] = die_id
            taken.add(die_id)
    return ids


def _distance(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
