"""The session loop: camera frames and button presses in, the OLED out (design.md's data flow).

Frames go through the settle detector; only a settled frame is read, and a roll is handed to the table once the same
reading repeats (the frames after it, until the scene moves, are not read). Presses go to the table (or the home
screen before a game starts). After every input the screen is redrawn if it changed. Nothing here knows a game's
rules.
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable

from ..games.base import Choice, Decision, Roll, RollRequest
from ..ui.controls import Press
from ..ui.prompt import decision_prompt
from ..ui.screens import Prompt, render
from ..ui.widgets import Picked, widget_for
from ..vision.tracker import DieTracker
from .home import Home
from .table import Table


def reading_key(dice) -> tuple:
    """What must repeat on consecutive settled frames: the multiset of dice as read, independent of order."""
    return tuple(sorted((d.label(), d.kind, d.owner or "", d.zone) for d in dice))


class HomeScreen:
    """Drives a Home with the same widgets as a game's decisions."""

    def __init__(self, home: Home):
        self.home = home
        self._widget, self._for = None, None

    def press(self, press: Press) -> None:
        pending = self.home.expects()
        if pending is None:
            return
        if self._for != pending:
            self._widget, self._for = widget_for(pending), pending
        answer = self._widget.press(press)
        if isinstance(answer, Picked):
            self.home.apply(Choice(answer.value))

    def prompt(self) -> Prompt:
        pending = self.home.expects()
        if pending is None:
            return Prompt(header="HOST  setup", body=("Starting...",))
        if self._for != pending:
            self._widget, self._for = widget_for(pending), pending
        return decision_prompt((), pending, self._widget, "")


class Session:
    """Feeds one table (or the home screen) from frames and presses and keeps the display current.

    `show(image)` puts a picture on the OLED, `reader(frame)` returns the dice read (objects with `to_die()`),
    `finder(frame)` the (centre, size) of every die body, read or not, for screens that learn faces from the
    camera; `settle` is a SettleDetector. `on_prompt` hears every new prompt (the demo prints them). `alert` replaces
    the status line while it is set, for faults outside the game such as a lost camera.
    """

    def __init__(self, screen: Table | HomeScreen, show: Callable, reader=None, settle=None,
                 on_prompt: Callable[[Prompt], None] | None = None, clock: Callable[[], float] = time.perf_counter,
                 finder: Callable | None = None):
        self.screen = screen
        self.show = show
        self.alert = ""
        self.reader = reader
        self.finder = finder
        self.settle = settle
        self.on_prompt = on_prompt
        self.clock = clock
        self.latencies: list[float] = []  # seconds from a settled reading to its prompt on the display
        self.screens = 0
        self.tracker = DieTracker()
        self._auto: tuple[Decision, float] | None = None  # the automatic step on screen and when it appeared
        self._shown: Prompt | None = None
        self.refresh()

    def frame(self, frame) -> bool:
        """One camera frame; True when it completed a roll that was handed to the table. A settled frame is read
        only until its still period's roll is reported: the dice then lie still for as long as the players decide,
        and reading them again could report nothing."""
        if self.settle is None or self.reader is None or self.settle.update(frame) != "settled" \
                or self.settle.is_reported:
            return False
        if hasattr(self.screen, "see") and self.finder is not None:  # a screen that learns faces from the camera
            return self._show_to(self.screen, frame)
        started = self.clock()
        found = self.reader(frame)
        dice = tuple(d.to_die() for d in found)
        if not self.settle.offer(reading_key(dice)) or not isinstance(self.screen, Table):
            return False
        if self.screen.match.game.tracks_dice:
            pending = self._roll_asked()
            if pending is not None and pending.fresh:
                self.tracker.reset()  # dice thrown anew are numbered from 0 again, in reading order
            dice = tuple(self.tracker.track(found))
        self.screen.observe(Roll(dice))
        self.refresh()
        self.latencies.append(self.clock() - started)
        return True

    def _show_to(self, screen, frame) -> bool:
        """Hand a settled view to a teaching screen once the same dice bodies (by place) repeat."""
        found = self.finder(frame)
        if not self.settle.offer(tuple(sorted((round(x / size), round(y / size)) for (x, y), size in found))):
            return False
        screen.see(frame, found)
        self.refresh()
        return True

    def press(self, press: Press) -> None:
        asked = self._roll_asked()
        self.screen.press(press)
        self._disown_if_asked_anew(asked)
        self.refresh()

    def tick(self) -> None:
        """Take an automatic step (Decision.auto_ms) once it has been on screen long enough and nobody acted."""
        table = self.screen
        pending = table.match.state.expects() if isinstance(table, Table) else None
        if not isinstance(pending, Decision) or pending.auto_ms is None or table.overlays:
            self._auto = None
            return
        if self._auto is None or self._auto[0] != pending:
            self._auto = (pending, self.clock())
        elif (self.clock() - self._auto[1]) * 1000 >= pending.auto_ms:
            self._auto = None
            asked = self._roll_asked()
            table.choose(Choice(pending.default, pending.player))
            self._disown_if_asked_anew(asked)
            self.refresh()

    def _roll_asked(self) -> RollRequest | None:
        pending = self.screen.match.state.expects() if isinstance(self.screen, Table) else None
        return pending if isinstance(pending, RollRequest) else None

    def _disown_if_asked_anew(self, before: RollRequest | None) -> None:
        """When a press or an automatic step (another player's block) turns a roll asked of one player into a roll
        asked of another, the dice in view were thrown by the first: they are not the second's roll
        (SettleDetector.disown)."""
        now = self._roll_asked()
        if self.settle is not None and before is not None and now is not None and before.player != now.player:
            self.settle.disown()

    @property
    def shown(self) -> Prompt | None:
        """The prompt on the OLED now."""
        return self._shown

    def refresh(self) -> None:
        prompt = self.screen.prompt()
        if self.alert:
            prompt = replace(prompt, status=self.alert)
        if prompt != self._shown:
            self._shown = prompt
            self.show(render(prompt))
            self.screens += 1
            if self.on_prompt:
                self.on_prompt(prompt)
