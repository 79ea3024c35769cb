"""The four interactive screen types of controls.md, as small state machines driven by presses.

A widget holds only what the player is pointing at (cursor, marks, the spinner's digits); it never changes a game.
`press` returns a `Picked` value once the player has answered, `CANCEL` for BACK, or None while they are still
choosing. `rows()` lists what to draw; the screens module turns that into pixels.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..games.base import Decision, Option
from .controls import Press

CANCEL = object()


@dataclass(frozen=True)
class Picked:
    value: object


@dataclass(frozen=True)
class Row:
    text: str
    enabled: bool = True


class ChooseOne:
    """A list with a cursor that skips bracketed rows (UI-6), wraps at both ends (UI-7) and picks on OK."""

    hints = "<> move  OK pick"

    def __init__(self, options: Sequence[Option], default: object = None):
        self.options = tuple(options)
        keys = [o.key for o in self.options]
        enabled = [i for i, o in enumerate(self.options) if o.enabled]
        self.cursor = keys.index(default) if default in keys and self.options[keys.index(default)].enabled else (
            enabled[0] if enabled else 0)

    def move(self, step: int) -> None:
        count = len(self.options)
        for _ in range(count):
            self.cursor = (self.cursor + step) % count
            if self.options[self.cursor].enabled:
                return

    def press(self, press: Press):
        if press is Press.PREV:
            self.move(-1)
        elif press is Press.NEXT:
            self.move(1)
        elif press in (Press.OK, Press.DONE) and self.options and self.options[self.cursor].enabled:
            return Picked(self.options[self.cursor].key)
        elif press is Press.BACK:
            return CANCEL
        return None

    def rows(self) -> list[Row]:
        return [Row(("> " if i == self.cursor else "  ") + (o.label if o.enabled else f"[{o.label}]"), o.enabled)
                for i, o in enumerate(self.options)]

    @property
    def cursor_row(self) -> int:
        return self.cursor

    def reason(self) -> str:
        """The reason of the first bracketed row, for the status line (UI-6)."""
        return next((o.reason for o in self.options if not o.enabled and o.reason), "")


class MultiSelect(ChooseOne):
    """Rows marked [ ] or [x]: OK toggles, the last row is Done, DONE (long OK) finishes from anywhere (UI-5).
    A row that `conflicts` with a marked one is bracketed and skipped until that one is unmarked (UI-6)."""

    hints = "OK mark  hold OK done"
    DONE_KEY = "\0done"
    EXCLUDED = "excluded by a marked row"

    def __init__(self, options: Sequence[Option], low: int, high: int, conflicts: frozenset = frozenset()):
        super().__init__(tuple(options) + (Option(self.DONE_KEY, "Done"),))
        self.given, self.conflicts = self.options, conflicts
        self.marked: list[str] = []
        self.low, self.high = low, high

    def _toggle(self, key: str) -> None:
        if key in self.marked:
            self.marked.remove(key)
        elif self.options[self.cursor].enabled and len(self.marked) < self.high:
            self.marked.append(key)
        self.options = tuple(self._offered(o) for o in self.given)

    def _offered(self, option: Option) -> Option:
        excluded = any(frozenset((option.key, marked)) in self.conflicts for marked in self.marked)
        return replace(option, enabled=False, reason=self.EXCLUDED) if excluded and option.enabled else option

    def press(self, press: Press):
        if press is Press.DONE or (press is Press.OK and self.options[self.cursor].key == self.DONE_KEY):
            if self.low <= len(self.marked) <= self.high:
                return Picked(tuple(k for k in (o.key for o in self.options) if k in self.marked))
            return None
        if press is Press.OK:
            self._toggle(self.options[self.cursor].key)
            return None
        return super().press(press)

    def rows(self) -> list[Row]:
        rows = []
        for i, o in enumerate(self.options):
            mark = "" if o.key == self.DONE_KEY else ("[x] " if o.key in self.marked else
                                                     "[ ] " if o.enabled else "[-] ")
            rows.append(Row(("> " if i == self.cursor else "  ") + mark + o.label, o.enabled))
        return rows


class GridCursor(ChooseOne):
    """Lowdown's grid cursor (controls.md screen 4): the boxes drawn as their grid, PREV/NEXT walking the legal
    empty boxes in reading order, OK placing. Option keys end in the box's row and column digits and labels start
    with them ("12 R/O", "23 5"), as companion.games.lowdown lists every box of the grid."""

    hints = "<> box  OK place"
    inverts = False

    def rows(self) -> list[Row]:
        by_row: dict[str, list[str]] = {}
        for i, option in enumerate(self.options):
            text = option.label.split(" ", 1)[-1][:4]
            cell = f"[{text}]" if i == self.cursor else f" {text} "
            by_row.setdefault(option.key[-2], []).append(cell.center(7))
        return [Row("".join(cells)) for cells in by_row.values()]

    @property
    def cursor_row(self) -> int:
        return 0


class Spinner:
    """A number from `low` to `high`: PREV/NEXT step and wrap, OK confirms; ranges above 20 are entered digit by
    digit, tens first (controls.md screen type 3)."""

    hints = "<> -/+  OK set"

    def __init__(self, low: int, high: int, default: int | None = None):
        self.low, self.high = low, high
        self.value = default if isinstance(default, int) and low <= default <= high else low
        self.by_digit = high > 20
        self.place = 10 ** (len(str(high)) - 1) if self.by_digit else 1

    def press(self, press: Press):
        if press in (Press.PREV, Press.NEXT):
            self.step(1 if press is Press.NEXT else -1)
        elif press in (Press.OK, Press.DONE):
            if self.place > 1 and press is Press.OK:
                self.place //= 10
                return None
            return Picked(self.value)
        elif press is Press.BACK:
            return CANCEL
        return None

    def step(self, sign: int) -> None:
        if not self.by_digit:
            span = self.high - self.low + 1
            self.value = self.low + (self.value - self.low + sign) % span
            return
        digit = (self.value // self.place) % 10
        candidate = self.value + ((digit + sign) % 10 - digit) * self.place
        self.value = min(max(candidate, self.low), self.high)

    def rows(self) -> list[Row]:
        return [Row(f"{self.low}-{self.high}" + (f"  digit x{self.place}" if self.by_digit else ""))]

    @property
    def cursor_row(self) -> int:
        return 0


class Confirm:
    """One statement: OK = yes, BACK = no (controls.md screen type 5). With `no` None it is a step to acknowledge,
    not a question (Countaloupe's discard steps with `strict_steps`, CL-25): only OK answers it."""

    def __init__(self, yes: object = "yes", no: object = "no"):
        self.yes, self.no = yes, no

    @property
    def hints(self) -> str:
        return "OK next" if self.no is None else "OK yes  BACK no"

    def press(self, press: Press):
        if press in (Press.OK, Press.DONE):
            return Picked(self.yes)
        if press is Press.BACK and self.no is not None:
            return Picked(self.no) if self.no is not CANCEL else CANCEL
        return None

    def rows(self) -> list[Row]:
        return []

    @property
    def cursor_row(self) -> int:
        return 0


def widget_for(decision: Decision):
    """The widget that answers `decision`."""
    if decision.kind == "multi":
        return MultiSelect(decision.options, decision.low, decision.high, decision.conflicts)
    if decision.kind == "spinner":
        return Spinner(decision.low, decision.high, decision.default if isinstance(decision.default, int) else None)
    if decision.kind == "grid":
        return GridCursor(decision.options, decision.default)
    if decision.kind == "confirm":
        keys = [o.key for o in decision.options]
        return Confirm(keys[0] if keys else "yes", keys[1] if len(keys) > 1 else None)
    return ChooseOne(decision.options, decision.default)
