"""The four buttons on the Pi's header, through gpiozero, turned into the seven presses of controls.md.

UI-1: a short press fires on release; a long press fires once, as soon as the hold time is reached, and its release
does nothing. UI-2: while `spinner` is on, holding PREV or NEXT steps once at the hold time, where UNDO or MENU
would fire, then again every `repeat_ms` until released.

Debounce is done twice on purpose: `bounce_time` lets the pin library drop contact chatter where it can (lgpio does;
MockFactory and some other pin factories ignore it), and a press shorter than `debounce_ms` is dropped here in any
case, so a glitch never becomes an event whatever the pin factory.
"""
from __future__ import annotations

import threading
import warnings
from typing import Callable, Mapping

from gpiozero import Button
from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

from ..errors import CompanionError
from .controls import BUTTONS, LONG_PRESS, SHORT_PRESS, Press

STEPS = ("PREV", "NEXT")   # the buttons that repeat in a number spinner (UI-2)


class ButtonError(CompanionError):
    """The buttons' pins cannot be opened: no GPIO on this machine, or a pin that is taken."""


class ButtonPanel:
    """PREV, NEXT, OK and BACK on the BCM pins given, each wired to ground (internal pull-ups).

    `when_pressed` receives one Press per event, from gpiozero's threads; `spinner` switches PREV/NEXT between
    their long presses (UNDO/MENU) and repeating steps.
    """

    def __init__(self, pins: Mapping[str, int], *, long_press_ms: int = 800, debounce_ms: int = 30,
                 repeat_ms: int = 150, pin_factory=None):
        missing = [name for name in BUTTONS if name not in pins]
        if missing:
            raise ButtonError(f"no pin for button {missing[0]}")
        self.when_pressed: Callable[[Press], None] | None = None
        self._long_press_s = long_press_ms / 1000
        self._debounce_s = debounce_ms / 1000
        self._repeat_s = repeat_ms / 1000
        self._spinner = False
        self._lock = threading.Lock()
        self._pressed_at: dict[str, float] = {}
        self._held: set[str] = set()   # buttons whose current press has already fired a long press or a repeat
        self._buttons: dict[str, Button] = {}
        try:
            for name in BUTTONS:
                self._buttons[name] = self._open(name, pins[name], pin_factory)
        except BadPinFactory:
            self.close()
            raise ButtonError("no GPIO on this machine (gpiozero found no pin library); on a Pi install "
                              "python3-lgpio, elsewhere set buttons.backend = \"keyboard\"") from None
        except GPIOZeroError as error:
            self.close()
            raise ButtonError(f"{name} on GPIO {pins[name]}: {error}") from None

    def _open(self, name: str, pin: int, pin_factory) -> Button:
        with warnings.catch_warnings():   # gpiozero warns for each pin library it tries and skips
            warnings.simplefilter("ignore", PinFactoryFallback)
            button = Button(pin, pull_up=True, bounce_time=self._debounce_s or None, hold_time=self._long_press_s,
                            pin_factory=pin_factory)
        button.when_pressed = lambda _: self._down(name)
        button.when_released = lambda _: self._up(name)
        button.when_held = lambda _: self._hold(name)
        return button

    @property
    def spinner(self) -> bool:
        return self._spinner

    @spinner.setter
    def spinner(self, on: bool) -> None:
        """In a number spinner gpiozero's hold thread keeps firing PREV/NEXT while they are held (UI-2)."""
        self._spinner = bool(on)
        for name in STEPS:
            self._buttons[name].hold_repeat = self._spinner

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # gpiozero callbacks -------------------------------------------------------------------------------------------
    def _down(self, name: str) -> None:
        with self._lock:
            self._pressed_at[name] = self._ticks(name)
            self._held.discard(name)

    def _up(self, name: str) -> None:
        with self._lock:
            button = self._buttons[name]
            button.hold_time = self._long_press_s   # a repeat shortened it (see _hold)
            started = self._pressed_at.pop(name, None)
            if name in self._held or started is None:
                self._held.discard(name)
                return
            if button.pin_factory.ticks_diff(self._ticks(name), started) < self._debounce_s:
                return
        self._emit(SHORT_PRESS[name])

    def _hold(self, name: str) -> None:
        with self._lock:
            button = self._buttons[name]
            if not button.is_pressed or name not in self._pressed_at:
                return   # released while the hold thread woke up: the release has been handled as a short press
            repeating = self._spinner and name in STEPS
            if name in self._held and not repeating:
                return
            self._held.add(name)
            if repeating:
                button.hold_time = self._repeat_s
        self._emit(SHORT_PRESS[name] if repeating else LONG_PRESS[name])

    def _ticks(self, name: str) -> float:
        return self._buttons[name].pin_factory.ticks()

    def _emit(self, press: Press) -> None:
        handler = self.when_pressed
        if handler is not None:
            handler(press)
