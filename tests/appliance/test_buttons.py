"""The four buttons through gpiozero, driven on MockFactory pins as a finger would (controls.md UI-1, UI-2)."""
import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.ui.buttons import ButtonError, ButtonPanel
from companion.ui.controls import Press

PINS = {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
LONG_S = 0.2     # long_press_ms used in these tests, short enough to keep them quick
REPEAT_S = 0.05
GAP_S = 0.06     # comfortably longer than debounce_ms (30)


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.close()


@pytest.fixture
def panel(factory):
    panel = ButtonPanel(PINS, long_press_ms=int(LONG_S * 1000), debounce_ms=30, repeat_ms=int(REPEAT_S * 1000),
                        pin_factory=factory)
    presses = queue.Queue()
    panel.when_pressed = presses.put
    panel.presses = presses
    yield panel
    panel.close()


def pin(factory, name):
    return factory.pin(PINS[name])


def tap(factory, name, hold_s=GAP_S):
    pin(factory, name).drive_low()
    time.sleep(hold_s)
    pin(factory, name).drive_high()


def drained(panel, settle_s=0.1):
    time.sleep(settle_s)
    out = []
    while not panel.presses.empty():
        out.append(panel.presses.get())
    return out


def test_ui_1_short_press_fires_on_release_for_each_button(panel, factory):
    for name in PINS:
        pin(factory, name).drive_low()
        time.sleep(GAP_S)
        assert drained(panel, 0) == [], f"{name} fired before release"
        pin(factory, name).drive_high()
        assert drained(panel) == [Press(name)]


def test_ui_1_pins_are_pulled_up_and_pressed_when_low(panel, factory):
    assert all(pin(factory, name).pull == "up" for name in PINS)
    tap(factory, "OK")
    assert drained(panel) == [Press.OK]


def test_ui_1_long_press_fires_once_at_the_hold_time_and_release_does_nothing(panel, factory):
    pin(factory, "PREV").drive_low()
    time.sleep(LONG_S * 3)
    assert drained(panel, 0) == [Press.UNDO]   # fired while still held, and only once
    pin(factory, "PREV").drive_high()
    assert drained(panel) == []


@pytest.mark.parametrize("name, long", [("PREV", Press.UNDO), ("NEXT", Press.MENU), ("OK", Press.DONE),
                                        ("BACK", Press.BACK)])
def test_ui_1_long_press_names(panel, factory, name, long):
    tap(factory, name, hold_s=LONG_S * 2)
    assert drained(panel) == [long]


def test_ui_1_contact_bounce_shorter_than_debounce_is_ignored(panel, factory):
    ok = pin(factory, "OK")
    for _ in range(5):            # chatter: a few microseconds each, far below debounce_ms
        ok.drive_low()
        ok.drive_high()
    assert drained(panel) == []
    ok.drive_low()                # a real press that bounces on the way down and on release
    ok.drive_high()
    ok.drive_low()
    time.sleep(GAP_S)
    ok.drive_high()
    ok.drive_low()
    ok.drive_high()
    assert drained(panel) == [Press.OK]


def test_ui_1_two_buttons_at_once_each_give_their_press(panel, factory):
    pin(factory, "PREV").drive_low()
    pin(factory, "BACK").drive_low()
    time.sleep(GAP_S)
    pin(factory, "BACK").drive_high()
    pin(factory, "PREV").drive_high()
    assert drained(panel) == [Press.BACK, Press.PREV]


def test_ui_1_a_tap_during_another_buttons_long_press(panel, factory):
    pin(factory, "OK").drive_low()
    tap(factory, "NEXT")
    time.sleep(LONG_S * 2)
    pin(factory, "OK").drive_high()
    assert drained(panel) == [Press.NEXT, Press.DONE]


def test_ui_2_spinner_repeats_prev_and_next_while_held(panel, factory):
    panel.spinner = True
    pin(factory, "NEXT").drive_low()
    time.sleep(LONG_S + REPEAT_S * 8)
    pin(factory, "NEXT").drive_high()
    presses = drained(panel)
    assert len(presses) >= 4 and set(presses) == {Press.NEXT}   # steps, never MENU
    assert drained(panel) == []                                  # and the repeat stops on release


def test_ui_2_spinner_keeps_short_steps_and_long_ok_and_back(panel, factory):
    panel.spinner = True
    tap(factory, "PREV")
    tap(factory, "OK", hold_s=LONG_S * 2)
    assert drained(panel) == [Press.PREV, Press.DONE]


def test_ui_2_after_leaving_the_spinner_long_prev_is_undo_again(panel, factory):
    panel.spinner = True
    tap(factory, "PREV", hold_s=LONG_S + REPEAT_S * 3)
    assert set(drained(panel)) == {Press.PREV}
    panel.spinner = False
    tap(factory, "PREV", hold_s=LONG_S * 2)
    assert drained(panel) == [Press.UNDO]


def test_close_releases_the_pins(factory):
    panel = ButtonPanel(PINS, pin_factory=factory)
    panel.close()
    again = ButtonPanel(PINS, pin_factory=factory)   # would raise GPIOPinInUse had they stayed reserved
    again.close()


def test_a_pin_in_use_is_a_one_line_error(factory):
    with ButtonPanel(PINS, pin_factory=factory):
        with pytest.raises(ButtonError, match="PREV on GPIO 5"):
            ButtonPanel(PINS, pin_factory=factory)


def test_a_missing_pin_is_refused():
    with pytest.raises(ButtonError, match="no pin for button BACK"):
        ButtonPanel({"PREV": 5, "NEXT": 6, "OK": 13})
