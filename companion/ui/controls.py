"""The seven events the engine sees from the four buttons (rules/controls.md).

Short presses give PREV, NEXT, OK, BACK; long presses give UNDO (PREV), MENU (NEXT), DONE (OK) and BACK (BACK).
Every button backend (gpiozero pins, the keyboard, a demo script) produces these and nothing else.
"""
from enum import Enum


class Press(str, Enum):
    PREV = "PREV"
    NEXT = "NEXT"
    OK = "OK"
    BACK = "BACK"
    UNDO = "UNDO"
    MENU = "MENU"
    DONE = "DONE"


BUTTONS = ("PREV", "NEXT", "OK", "BACK")
LONG_PRESS = {"PREV": Press.UNDO, "NEXT": Press.MENU, "OK": Press.DONE, "BACK": Press.BACK}
SHORT_PRESS = {name: Press(name) for name in BUTTONS}
