"""Random thumbs and a random camera at a table of any game, through the real parts, checking every invariant.

Short presses and two buttons at once go through gpiozero's MockFactory pins into a ButtonPanel; the long presses
UNDO, MENU and DONE go straight to the session (holding a pin takes its hold time in real seconds; the panel's long
presses are tested on pins in tests/appliance/test_buttons.py). Camera frames go through the real settle detector,
and the fuzzer's camera reads each settled frame as it likes: the dice the game asks for, or an implausible reading
(a die missing or extra, a wrong kind, unreadable, off the mat, an impossible face, an unknown owner), steady or
flickering between two readings, with presses arriving while the dice still roll. Every accepted event lands in a
real SQLite journal and every screen on luma's dummy OLED; the process restarts now and then. One seed, one run.
"""
from __future__ import annotations

import collections
import dataclasses
import random
from pathlib import Path

import numpy as np
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.games.base import Decision, Die, RollRequest
from companion.games.match import Match
from companion.session.journal import Journal
from companion.session.loop import Session
from companion.session.presses import presses_for
from companion.session.table import Table
from companion.ui.buttons import ButtonPanel
from companion.ui.controls import BUTTONS, Press
from companion.ui.screens import render
from companion.vision.reader import ReadDie
from companion.vision.settle import SettleDetector

from .scripted import random_setup

PINS = {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
FRAME_SHAPE = (48, 64, 3)    # small camera frames: six by eight cells of the settle detector
LONG_PRESSES = (Press.UNDO, Press.MENU, Press.DONE)
DEEP_CHECK_EVERY = 100       # steps between the checks that replay the whole game


class Fuzzer:
    def __init__(self, name: str, seed: int | str, journal_path: Path):
        self.name = name
        self.rng = random.Random(seed)
        self.journal_path = journal_path
        self.journal = Journal(journal_path)
        self.now = 0.0               # the session's clock, in seconds, moved on by "wait" steps
        self.device = dummy(width=128, height=64, mode="1")
        self.factory = MockFactory()
        self.buttons = ButtonPanel(PINS, pin_factory=self.factory, debounce_ms=0, long_press_ms=60_000)
        self.buttons.when_pressed = lambda press: self.session.press(press)
        self.frames: collections.deque = collections.deque()   # (frame, reading) of the roll before the camera
        self.reading: tuple[Die, ...] = ()
        self.shown = None            # the last prompt the OLED was given
        self.steps = 0
        self.counts: collections.Counter = collections.Counter()
        self.trace: list[tuple] = []
        self._seat(Table.new(random_setup(name, self.rng), self.journal))

    def close(self) -> None:
        self.buttons.close()
        self.factory.close()
        self.journal.close()

    def _seat(self, table: Table) -> None:
        self.table = table
        table.seeds = lambda: self.rng.getrandbits(32)   # the draws the table makes for seeded rows
        self.session = Session(table, self.device.display, self._read, SettleDetector(),
                               on_prompt=self._on_prompt, clock=lambda: self.now)
        self.frames.clear()

    def _on_prompt(self, prompt) -> None:
        self.shown = prompt

    def _read(self, frame) -> list[ReadDie]:
        """The camera's reading of a settled frame: whatever the fuzzer put in front of it, each die where its id
        (else its place in the reading) puts it, so that the die tracker follows dice that did not move."""
        return [ReadDie(center=(40.0 + 50 * (spot % 12), 40.0 + 50 * (spot // 12)), size=30.0, value=d.value,
                        confidence=d.confidence, kind=d.kind, face=d.face, owner=d.owner, zone=d.zone)
                for n, d in enumerate(self.reading) for spot in [n if d.id is None else d.id]]

    # Steps ----------------------------------------------------------------------------------------------------
    def run(self, steps: int) -> None:
        for _ in range(steps):
            try:
                self.step()
            except Exception as error:   # name the step, so that the seed and the step reproduce it
                raise AssertionError(f"{self.name}, step {self.steps + 1}: {error!r}") from error
        self.check(deep=True)

    def step(self) -> None:
        table = self.table
        before = len(table.match.events)
        action = self._pick()
        inputs = getattr(self, f"_{action.replace(' ', '_')}")()
        self.steps += 1
        self.counts[action] += 1
        if self.table is table:
            change = len(table.match.events) - before
            assert abs(change) <= inputs, f"{action}: more events than inputs"
            self.counts["events taken"] += max(change, 0)
            self.counts["events undone"] += max(-change, 0)
        self.check(deep=self.steps % DEEP_CHECK_EVERY == 0)
        self.trace.append((action, len(self.table.match.events), self.shown.text()))

    def _pick(self) -> str:
        if self.frames and self.rng.random() < 0.6:
            return "frame"
        pending = self.table.match.state.expects()
        weights = {"tap": 3, "chord": 0.5, "long": 1, "wait": 1, "restart": 0.05,
                   "roll": 4 if isinstance(pending, RollRequest) and not self.frames else 0.3,
                   "answer": 5 if isinstance(pending, Decision) else 0,
                   "new game": 2 if pending is None else 0}
        return self.rng.choices(list(weights), list(weights.values()))[0]

    def _tap(self, name: str | None = None) -> int:
        pin = self.factory.pin(PINS[name or self.rng.choice(BUTTONS)])
        pin.drive_low()
        pin.drive_high()
        return 1

    def _chord(self) -> int:
        """Two buttons at once: both down, then released in either order."""
        first, second = self.rng.sample(BUTTONS, 2)
        pins = [self.factory.pin(PINS[first]), self.factory.pin(PINS[second])]
        for pin in pins:
            pin.drive_low()
        for pin in self.rng.sample(pins, 2):
            pin.drive_high()
        return 2

    def _long(self) -> int:
        self.session.press(self.rng.choice(LONG_PRESSES))
        return 1

    def _wait(self) -> int:
        """Time passes (an automatic step may be taken)."""
        self.now += self.rng.random() * 4
        self.session.tick()
        return 1

    def _answer(self) -> int:
        """A legal answer to the decision on screen: as the presses a player would make (which land elsewhere when
        earlier mashing moved the cursor), or as the choice itself."""
        pending = self.table.match.state.expects()
        choice = pending.random_choice(self.rng)
        if not self.table.overlays and self.rng.random() < 0.5:
            self.table.choose(choice)
            self.session.refresh()
            return 1
        presses = presses_for(pending, choice)
        for press in presses:
            self._tap(press.value) if press.value in PINS else self.session.press(press)
        return len(presses)

    def _new_game(self) -> int:
        self._seat(Table.new(random_setup(self.name, self.rng), self.journal))
        return 1

    def _restart(self) -> int:
        """The process stops and starts again: the unfinished game resumes exactly."""
        game, events = self.table.game_id, list(self.table.match.events)
        self.journal.close()
        self.journal = Journal(self.journal_path)
        if self.table.is_over:
            assert self.journal.unfinished() != game
            return self._new_game()
        assert self.journal.unfinished() == game
        self._seat(Table.resume(self.journal, game))
        assert self.table.match.events == events
        return 1

    def _roll(self) -> int:
        """Dice thrown before the camera: a few moving frames, then still ones, read steadily or flickering."""
        reading = self._reading()
        flicker = self._implausible(reading) if self.rng.random() < 0.2 else None
        make = np.random.default_rng(self.rng.getrandbits(32))
        for _ in range(self.rng.randint(0, 4)):
            self.frames.append((make.integers(0, 256, FRAME_SHAPE, dtype=np.uint8), ()))
        still = make.integers(0, 256, FRAME_SHAPE, dtype=np.uint8)
        for n in range(self.rng.randint(2, 10)):
            self.frames.append((still, flicker if flicker is not None and n % 2 else reading))
        return 0

    def _frame(self) -> int:
        frame, self.reading = self.frames.popleft()
        self.counts["readings handed to the table"] += self.session.frame(frame)
        return 1

    def _reading(self) -> tuple[Die, ...]:
        state = self.table.match.state
        if isinstance(state.expects(), RollRequest):
            dice = state.random_roll(self.rng).dice
        else:
            dice = tuple(Die(value=self.rng.randint(1, 6)) for _ in range(self.rng.randint(1, 6)))
        return dice if self.rng.random() < 0.7 else self._implausible(dice)

    def _implausible(self, dice: tuple[Die, ...]) -> tuple[Die, ...]:
        dice = list(dice)
        i = self.rng.randrange(len(dice)) if dice else None
        fault = self.rng.choice(("missing", "extra", "kind", "unreadable", "off", "face", "owner"))
        if fault == "extra" or i is None:
            dice.append(Die(value=self.rng.randint(1, 6)))
        elif fault == "missing":
            del dice[i]
        elif fault == "kind":
            dice[i] = Die(kind=self.rng.choice(("colour", "symbol")), face=self.rng.choice(("nope", "red", "?")))
        elif fault == "unreadable":
            dice[i] = dataclasses.replace(dice[i], value=None, face=None, confidence=0.3)
        elif fault == "off":
            dice[i] = dataclasses.replace(dice[i], zone="off")
        elif fault == "face":
            dice[i] = dataclasses.replace(dice[i], value=self.rng.choice((0, 7, 12)))
        else:
            dice[i] = dataclasses.replace(dice[i], owner=self.rng.choice(("nobody", "purple", None)))
        return tuple(dice)

    # Invariants -----------------------------------------------------------------------------------------------
    def check(self, deep: bool) -> None:
        table, state = self.table, self.table.match.state
        assert self.journal.is_durable
        assert (state.expects() is None) == (state.outcome() is not None)
        assert len(state.scores()) == len(table.names)
        assert self.shown == table.prompt(), "the OLED shows a screen that is not the table's"
        assert "\n" not in table.message
        if deep:
            assert self.journal.events(table.game_id) == table.match.events
            assert (self.journal.unfinished() == table.game_id) != table.is_over
            replayed = Match.replay(table.match.setup, table.match.events).state
            assert replayed.detail() == state.detail()
            assert self.device.image.tobytes() == render(self.shown).tobytes()
