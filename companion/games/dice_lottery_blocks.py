"""Dice Lottery blocks, and which cards may go into one when the referee tracks card values (`track_values`).

Count mode (the default, DL-18) keeps a block's size and its wild's declared value only: the players check the
cards. Value mode also keeps every card value, the wild's declared value included, and refuses what DL-7 to DL-12
forbid. It finds legal plays by listing the blocks an action could produce: every same-value block (DL-10) and
every sequence on the cycle of card values (DL-8) of the new size that contains the block's present cards. A
sequence that contains the old one has only grown at its ends (DL-9, both ends at once allowed), so no card order is
stored. `card_mix` (copies of each value, wilds) bounds what can be on the table at once.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence


@dataclass(frozen=True)
class Block:
    """Cards laid in front of `owner`. `wild` is the declared value of its wild (DL-11: at most one) or None;
    `cards` is None in count mode, else every card's value, sorted, the wild counted as its declared value."""

    id: int
    owner: int
    size: int
    wild: int | None = None
    cards: tuple[int, ...] | None = None

    @property
    def real_cards(self) -> tuple[int, ...]:
        """Value mode: the values of the real cards, without the wild."""
        cards = list(self.cards)
        if self.wild is not None:
            cards.remove(self.wild)
        return tuple(cards)

    @property
    def kind(self) -> str:
        return "set" if len(set(self.cards)) == 1 else "sequence"

    def label(self) -> str:
        """How a block is named on a choose-one row (<= 19 characters)."""
        wild = "" if self.wild is None else f"W={self.wild}"
        if self.cards is not None:
            text = "-".join(map(str, self.real_cards + ((wild,) if wild else ())))
            if len(text) <= 19:
                return text
        return f"{self.size} cards" + (f" {wild}" if wild else "")


@dataclass(frozen=True)
class Play:
    """Cards one action puts into a block (value mode): how many real cards of each value (index 0 for the lowest)
    and the wild's declared value, or None."""

    real: tuple[int, ...]
    wild: int | None


@lru_cache(maxsize=4096)
def completions(n: int, old: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """Every block of `size` cards (DL-7) that contains the cards `old`, as counts per card value (index 0 for the
    lowest of `n` values): a same-value block, or a sequence of all-different consecutive values on the cycle, the
    highest followed by the lowest (DL-8)."""
    found = {tuple(size if j == i else 0 for j in range(n)) for i in range(n)}
    if size <= n:
        found |= {tuple(int((j - start) % n < size) for j in range(n)) for start in range(n)}
    return tuple(sorted(c for c in found if all(a >= b for a, b in zip(c, old))))


@lru_cache(maxsize=4096)
def additions(n: int, old: tuple[int, ...], count: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The ways to add `count` cards to `old` making a legal block: the counts added per value, and the values
    (indexes) that get any."""
    out = []
    for result in completions(n, old, sum(old) + count):
        new = tuple(r - o for r, o in zip(result, old))
        out.append((new, tuple(i for i, k in enumerate(new) if k)))
    return tuple(out)


@lru_cache(maxsize=65536)
def find_plays(values: tuple[int, ...], spare: tuple[int, ...], old: tuple[int, ...], count: int,
               wild_allowed: bool) -> tuple[Play, ...]:
    """The plays of `count` cards into a block holding `old` (counts per value; all zero for a new block) while
    `spare` real cards of each value are not yet laid. Remembered: every prompt of an action asks again, and
    tables repeat."""
    plays = []
    for new, used in additions(len(values), old, count):
        short = [i for i in used if new[i] > spare[i]]
        if not short:
            plays.append(Play(new, None))
        if wild_allowed and (not short or len(short) == 1 and new[short[0]] == spare[short[0]] + 1):
            # the wild stands for any card of the new ones, or for the one card the table has run out of
            plays += [Play(new[:i] + (new[i] - 1,) + new[i + 1:], values[i]) for i in (short or used)]
    return tuple(plays)


@lru_cache(maxsize=256)
def card_table(values: tuple[int, ...], mix: tuple[int, ...], blocks: tuple[Block, ...]) -> CardTable:
    """The CardTable of a table of blocks; shared by the states that have the same blocks (it never changes)."""
    return CardTable(values, mix, blocks)


class CardTable:
    """Value mode: the legal plays into one block, given the cards already on the table and `card_mix`
    (copies of each value, wilds): a real card can be played only while some copy of its value is not laid."""

    def __init__(self, values: Sequence[int], mix: Sequence[int], blocks: Sequence[Block]):
        self.values = tuple(values)
        copies, wilds = mix
        laid = self.counts(v for b in blocks for v in b.real_cards)
        self.spare = tuple(copies - n for n in laid)
        self.wild_left = sum(b.wild is not None for b in blocks) < wilds

    def counts(self, cards: Iterable[int]) -> tuple[int, ...]:
        out = [0] * len(self.values)
        for v in cards:
            out[v - self.values[0]] += 1
        return tuple(out)

    def plays(self, block: Block | None, count: int, own: bool) -> tuple[Play, ...]:
        """Each way to put `count` cards into `block` (None: a new block). Wilds only into own blocks without one
        (DL-11); a wild stands for any one value of the block it completes (DL-12)."""
        wild_allowed = own and (block is None or block.wild is None) and self.wild_left
        return find_plays(self.values, self.spare, self.counts(block.cards if block else ()), count, wild_allowed)

    def max_count(self, block: Block | None, own: bool, hand: int) -> int:
        """The most cards (up to `hand`) that can legally go into `block`; 0 when none can (a full sequence)."""
        best = 0
        for count in range(3 if block is None else 1, hand + 1):
            if not self.plays(block, count, own):
                break  # legal counts are contiguous: a smaller block fits wherever a bigger one does
            best = count
        return best

    def can_replace(self, block: Block) -> bool:
        """DL-14 needs a real card of the wild's value, which cannot be one already laid when all copies are."""
        return self.spare[block.wild - self.values[0]] > 0
