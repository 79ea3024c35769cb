"""Dice Lottery's dice on the table, as the camera reports them: the shared pool and one zone per player.

Every die carries the `id` the camera's tracker gives it and lies in zone "pool" or in a player's zone "seat<k>"
(k the seat number, 0 for the first player entered). A table maps die id -> (zone, face). After the round's pool
roll every observation shows the whole table, and a die keeps its face (DL-2) unless it was committed for the
finalise re-roll (DL-23).
"""
from __future__ import annotations

from typing import Collection, Mapping, Sequence

from .base import Die, ImplausibleRollError, Roll, require_faces, require_read

DICE = 15       # in the pool (DL-2)
POOL = "pool"

Table = Mapping[int, tuple[str, int]]


def seat_zone(seat: int) -> str:
    return f"seat{seat}"


def zone_seat(zone: str) -> int:
    return int(zone[len("seat"):])


def read_table(roll: Roll, faces: Sequence[int], seats: int) -> dict[int, tuple[str, int]]:
    """The table a roll shows, refusing what the camera cannot mean: not all 15 dice, an unread or foreign die, a
    die without an id or seen twice, a die outside the pool and the players' zones."""
    if len(roll.dice) != DICE:
        raise ImplausibleRollError(f"need all {DICE} dice, not {len(roll.dice)}", "DL-2")
    require_read(roll.dice, "DL-2")
    odd = [i + 1 for i, d in enumerate(roll.dice) if d.kind != "pips"]
    if odd:
        raise ImplausibleRollError(f"die {odd[0]} is not a d6", "DL-2")
    require_faces(roll.dice, faces, "DL-2")
    untracked = [i + 1 for i, d in enumerate(roll.dice) if not isinstance(d.id, int) or isinstance(d.id, bool)]
    if untracked:
        raise ImplausibleRollError(f"die {untracked[0]} has no id", "DL-2")
    zones = {POOL} | {seat_zone(seat) for seat in range(seats)}
    seen: dict[int, tuple[str, int]] = {}
    for d in roll.dice:
        if d.id in seen:
            raise ImplausibleRollError(f"die id {d.id} seen twice", "DL-2")
        if d.zone not in zones:
            raise ImplausibleRollError(f"die {d.id} off the zones", "DL-2")
        seen[d.id] = (d.zone, d.value)
    return seen


def observe(roll: Roll, before: Table, faces: Sequence[int], seats: int, may_change: Collection[int] = (),
            rule: str = "DL-2") -> tuple[dict[int, tuple[str, int]], list[tuple[int, str, str]]]:
    """The table a roll shows and the dice that moved, as (die, from zone, to zone). The roll must show the same
    dice as `before`, and only the dice in `may_change` may show another face (refused under `rule`)."""
    seen = read_table(roll, faces, seats)
    strangers = sorted(set(seen) - set(before))
    if strangers:
        raise ImplausibleRollError(f"unknown die {strangers[0]}", "DL-2")
    moved = []
    for die, (zone, face) in sorted(seen.items()):
        was_zone, was_face = before[die]
        if face != was_face and die not in may_change:
            raise ImplausibleRollError(f"die {die} changed face", rule)
        if zone != was_zone:
            moved.append((die, was_zone, zone))
    return seen, moved


def table_roll(table: Table) -> Roll:
    """The observation of a table, dice in id order (for playouts and scripts)."""
    return Roll(tuple(Die(value=face, zone=zone, id=die) for die, (zone, face) in sorted(table.items())))
