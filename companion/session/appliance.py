"""The companion at the table: camera, buttons, OLED, journal and the service's notifications in one loop.

Starts on the home screen (resume the unfinished game, or set up a new one), then runs the table until the players
quit or SIGTERM sets `stop`. A camera that fails is reopened with back-off while the OLED says so and the game waits
where it was. Every accepted event is already in the journal, so stopping at any moment loses nothing; while the disk
refuses writes, every screen says so and every turn tries them again.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Callable

from ..games.base import Setup
from ..ui.controls import Press
from ..vision.profile import Profile
from ..vision.reader import DiceReader
from .home import RESUME, Home
from .journal import Journal
from .loop import HomeScreen, Session
from .table import DISK_WARNING, Table
from .teach import TeachScreen

CAMERA_LOST = "Camera lost: retrying"


class Appliance:
    """`source.read()` gives a frame or None while the camera is away (a ReconnectingSource); `buttons` has
    `when_pressed` and `spinner`; `screen` has `show`, `touch` and `tick`; `notifier` speaks to systemd. Faces
    taught from the MENU are saved into the calibration profile at `profile_path`."""

    def __init__(self, *, journal: Journal, source, buttons, screen, profile: Profile | None,
                 profile_path: str | None, settle_factory: Callable, notifier, players, game_options,
                 game: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.journal = journal
        self.source = source
        self.buttons = buttons
        self.screen = screen
        self.profile = profile or Profile()
        self.profile_path = profile_path
        self.settle_factory = settle_factory
        self.notifier = notifier
        self.players = players
        self.game_options = game_options
        self.game = game
        self.clock = clock
        self._status = ""   # the last STATUS= sent to systemd
        self.presses: queue.Queue[Press] = queue.Queue()
        buttons.when_pressed = self.presses.put
        reader = DiceReader(self.profile)
        self.session = Session(self._home(), screen.show, reader.read, settle_factory(), finder=reader.find)

    def _home(self) -> HomeScreen:
        unfinished = self.journal.unfinished()
        label = self.journal.setup(unfinished).game if unfinished is not None else None
        return HomeScreen(Home(self.players, self.game_options, unfinished=label, game=self.game))

    @property
    def table(self) -> Table | None:
        return self.session.screen if isinstance(self.session.screen, Table) else None

    def run(self, stop: threading.Event) -> int:
        """Serve until the players quit or `stop` is set (SIGTERM); returns the exit status."""
        self.notifier.ready()
        interval = self.notifier.watchdog_interval()
        petted = self.clock()
        try:
            while not stop.is_set() and not (self.table and self.table.quit_requested):
                self.step()
                if interval and self.clock() - petted >= interval:
                    self.notifier.watchdog()
                    petted = self.clock()
        finally:
            self.notifier.stopping()
            self.journal.close()
        return 0

    def step(self) -> None:
        """One turn of the loop: a frame (or the news that the camera is away), the presses since, the screen."""
        frame = self.source.read()
        self.journal.flush()   # the writes that waited for the disk, whatever the screen; nothing when none wait
        self.session.alert = self._alert(camera_lost=frame is None)
        if frame is not None:
            self.session.frame(frame)
        self._handle_presses()
        self._start_table_when_set_up()
        if self.table is not None and self.table.teach_request:
            self._teach(self.table)
        if self.table is not None:
            self.buttons.spinner = self.table.is_spinner
        self.session.tick()
        self.session.refresh()
        self.screen.tick()
        self._report_status()

    def _report_status(self) -> None:
        """`systemctl status` says what the players see: a fault while it lasts, else the game and its header line
        (whose decision it is; never hidden information, UI-10). Sent only when it changes."""
        table, shown = self.table, self.session.shown
        status = self.session.alert or (f"{table.match.game.title}: {shown.header}" if table and shown else "Home")
        if status != self._status:
            self.notifier.status(status)
            self._status = status

    def _alert(self, camera_lost: bool) -> str:
        """The status line of every screen while a fault outside the game lasts: moves waiting for the disk come
        first (they are lost if the power goes), then a lost camera (the game only waits)."""
        if not self.journal.is_durable:
            return DISK_WARNING
        return CAMERA_LOST if camera_lost else ""

    def _teach(self, table: Table) -> None:
        """MENU > Teach ...: show each face to the camera; the taught faces go into the calibration profile."""
        kind, table.teach_request = table.teach_request, None

        def done(model) -> None:
            if model is not None:
                self.profile.faces[kind] = model.to_json()
                if self.profile_path:
                    self.profile.save(self.profile_path)
                reader = DiceReader(self.profile)
                self.session.reader, self.session.finder = reader.read, reader.find
                table.message = f"{kind} faces taught" + ("" if self.profile_path else " (not saved)")
            self.session.screen = table

        self.session.screen = TeachScreen(kind, table.match.game.taught_faces()[kind], done)

    def _handle_presses(self) -> None:
        while True:
            try:
                press = self.presses.get_nowait()
            except queue.Empty:
                return
            self.screen.touch()
            table = self.table
            if table is not None and table.is_over and not table.overlays and press in (Press.OK, Press.DONE):
                self.session.screen = self._home()  # "OK new game" on the final screen
                self.session.settle = self.settle_factory()
            else:
                self.session.press(press)

    def _start_table_when_set_up(self) -> None:
        """Resume, or start the game set up; a new game waits on "Starting..." until the moves of the last one are
        on disk (the journal keeps the order of play)."""
        if not isinstance(self.session.screen, HomeScreen):
            return
        result = self.session.screen.home.result
        unfinished = self.journal.unfinished()
        if result == RESUME:
            self.session.screen = Table.resume(self.journal, unfinished)
        elif isinstance(result, Setup) and self.journal.is_durable:
            if unfinished is not None:
                self.journal.abandon(unfinished)
            self.session.screen = Table.new(result, self.journal)
