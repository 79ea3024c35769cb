"""The companion at the table with its real parts and no hardware, for the fault tests that need the whole loop:
the appliance resumed on a journal's game in progress, gpiozero buttons on MockFactory pins, luma's dummy OLED."""
import dataclasses

from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.service import Notifier
from companion.session.appliance import Appliance
from companion.session.journal import Journal
from companion.ui.buttons import ButtonPanel
from companion.ui.display import Screen
from companion.ui.screens import render
from companion.vision.settle import SettleDetector
from companion.vision.sources import ReconnectingSource

PINS = {"PREV": 5, "NEXT": 6, "OK": 13, "BACK": 19}
FRAME = (48, 64, 3)


def journal_holding(path, setup, events):
    """A journal with one unfinished game made of `events`."""
    journal = Journal(path)
    game = journal.new_game(setup)
    for event in events:
        journal.append(game, event)
    journal.close()
    return path


def journal_events(path):
    journal = Journal(path)
    try:
        return journal.events(journal.newest())
    finally:
        journal.close()


class Companion:
    """The appliance resumed on the journal's game in progress, fed by `source_factory` (reopened when it fails)."""

    def __init__(self, journal, source_factory):
        self.factory = MockFactory()
        self.buttons = ButtonPanel(PINS, pin_factory=self.factory, debounce_ms=0)
        self.device = dummy(width=128, height=64, mode="1")
        self.source = ReconnectingSource(source_factory, backoff=(0,), poll_s=0)
        self.appliance = Appliance(journal=Journal(journal), source=self.source, buttons=self.buttons,
                                   screen=Screen(self.device, 60), profile=None, profile_path=None,
                                   settle_factory=SettleDetector, notifier=Notifier(""), players=("Ana", "Ben"),
                                   game_options={})
        self.tap("OK")   # "Resume <game>", the first row of the home screen
        self.appliance.step()
        assert self.appliance.table is not None

    def tap(self, name):
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        pin.drive_high()

    def steps(self, count):
        for _ in range(count):
            self.appliance.step()

    def steps_until(self, done, limit=40) -> bool:
        for _ in range(limit):
            self.appliance.step()
            if done():
                return True
        return False

    def oled_says(self, status: str) -> bool:
        """True when the OLED shows the screen in front of the players (the table's, or the home screen) with
        `status` on its status line."""
        prompt = dataclasses.replace(self.appliance.session.screen.prompt(), status=status)
        return self.device.image.tobytes() == render(prompt).tobytes()

    def close(self):
        self.buttons.close()
        self.appliance.journal.close()
