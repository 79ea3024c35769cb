"""Give each die an id that follows it from one settled reading to the next (Dice Lottery's pool and zones).

A die that has not moved is found again at its place. The dice that moved are matched to the ids that are no longer
at their places, a die showing the same face first and the nearest after that; so a die carried from the pool to a
player's zone keeps its id, and one whose face changed on the way keeps it too, which lets the game see the change
(DL-2) instead of a stranger. Dice beyond the ids known get new ids; the first reading numbers dice from 0 in
reading order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

STILL = 0.5  # a die within this many die sizes of a known die's place has not moved


@dataclass(frozen=True)
class Seen:
    id: int
    center: tuple[float, float]
    label: str


class DieTracker:
    def __init__(self):
        self.known: list[Seen] = []

    def reset(self) -> None:
        self.known = []

    def track(self, dice: Sequence) -> list:
        """The dice (ReadDie-like: `center`, `size`, `to_die()`) as game Dice carrying their ids."""
        order = sorted(range(len(dice)), key=lambda i: (round(dice[i].center[1] / max(dice[i].size, 1)),
                                                        dice[i].center[0]))
        labels = {i: dice[i].to_die().label() for i in order}
        ids: dict[int, int] = {}
        free = list(self.known)
        for i in order:  # dice lying where a known die lay
            near = [s for s in free if _distance(s.center, dice[i].center) <= STILL * dice[i].size]
            if near:
                best = min(near, key=lambda s: _distance(s.center, dice[i].center))
                ids[i] = best.id
                free.remove(best)
        for i in order:  # dice that moved: same face first, then the nearest
            if i in ids or not free:
                continue
            best = min(free, key=lambda s: (s.label != labels[i], _distance(s.center, dice[i].center)))
            ids[i] = best.id
            free.remove(best)
        next_id = max([s.id for s in self.known] + [-1]) + 1
        for i in order:
            if i not in ids:
                ids[i], next_id = next_id, next_id + 1
        self.known = [Seen(ids[i], tuple(dice[i].center), labels[i]) for i in order]
        return [replace(dice[i].to_die(), id=ids[i]) for i in range(len(dice))]


def _distance(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
