"""The table: one game in play, fed by settled rolls and button presses, journaled event by event.

This is the only place that changes a game's state. A roll or a choice is validated by the game, appended to the
journal, then pushed on the match; a refused one leaves everything unchanged and puts its reason on the status line,
unless accepted events are waiting for a disk that refuses writes: then the status line says that until they land.
UNDO (long PREV) pops exactly one event from both (UI-3); MENU (long NEXT) opens the out-of-turn actions and the
table menu (UI-4). The same Table drives the OLED, the demo and the tests.
"""
from __future__ import annotations

import dataclasses
import secrets
from typing import Callable

from ..games.base import OFF_MAT, Choice, Decision, Die, Interrupt, Option, RefereeError, Roll, RollRequest, Setup
from ..games.match import Match
from ..ui.controls import Press
from ..ui.prompt import decision_prompt, header, roll_prompt, with_rows
from ..ui.screens import Prompt
from ..ui.widgets import CANCEL, ChooseOne, Confirm, Picked, widget_for
from .journal import Journal

PIP_FACES = tuple(Option(str(v), str(v)) for v in range(1, 7))
DISK_WARNING = "Disk full: not saved"  # the status line while accepted events wait in memory for the disk


class Overlay:
    """A screen over the game's own prompt (menu, undo, read check); `press` returns True when it closes."""

    def __init__(self, table: Table, widget, title: str, question: str = "", lines: tuple[str, ...] = ()):
        self.table, self.widget, self.title, self.question, self.lines = table, widget, title, question, lines

    def prompt(self) -> Prompt:
        return with_rows(self.title, self.question, self.widget, self.table.status, extra=self.lines)

    def press(self, press: Press) -> bool:
        answer = self.widget.press(press)
        if answer is CANCEL:
            return True
        return self.picked(answer.value) if isinstance(answer, Picked) else False

    def picked(self, value) -> bool:
        return True


class UndoOverlay(Overlay):
    def __init__(self, table: Table):
        super().__init__(table, Confirm(), "UNDO", f"Undo {table.match.describe_last()}?"[:21])

    def picked(self, value) -> bool:
        if value == "yes":
            self.table.undo()
        return True


class MenuOverlay(Overlay):
    """UI-4: the game's out-of-turn actions first, then the table's own items."""

    def __init__(self, table: Table):
        self.interrupts = {f"i{n}": i for n, i in enumerate(table.match.state.interrupts())}
        names = table.names
        options = [Option(key, f"{i.option.label} ({names[i.player][:6]})") for key, i in self.interrupts.items()]
        options += [Option(f"teach:{kind}", f"Teach {kind} faces") for kind in table.match.game.taught_faces()]
        options += [Option("scores", "Scores"), Option("read", "Last read"), Option("quit", "Pause / quit")]
        super().__init__(table, ChooseOne(options, options[0].key), "MENU")

    def picked(self, value) -> bool:
        if value in self.interrupts:
            self.table.overlays.append(InterruptOverlay(self.table, self.interrupts[value]))
        elif value == "scores":
            self.table.overlays.append(InfoOverlay(self.table, "SCORES", self.table.score_lines()))
        elif value == "read":
            dice = self.table.last_read
            text = " ".join(d.label() for d in dice) if dice else "no roll read yet"
            self.table.overlays.append(InfoOverlay(self.table, "LAST READ", (text,)))
        elif value == "quit":
            self.table.quit_requested = True
        elif value.startswith("teach:"):
            self.table.teach_request = value.split(":", 1)[1]  # the appliance opens the teaching screen
        return True


class InterruptOverlay(Overlay):
    """Confirm an out-of-turn action; the header names the player taking it (controls.md screen 5)."""

    def __init__(self, table: Table, interrupt: Interrupt):
        self.interrupt = interrupt
        title = header(table.names, interrupt.player, "interrupt")
        super().__init__(table, Confirm(), title, f"{interrupt.option.label}?"[:21])

    def picked(self, value) -> bool:
        if value == "yes":
            self.table.choose(Choice(self.interrupt.option.key, self.interrupt.player))
        return True


class InfoOverlay(Overlay):
    def __init__(self, table: Table, title: str, lines: tuple[str, ...]):
        super().__init__(table, Confirm(), title, lines=tuple(lines[:5]))

    def prompt(self) -> Prompt:
        return Prompt(header=self.title, body=self.lines, status=self.table.status, hints="OK/BACK close")


class ReadCheckOverlay(Overlay):
    """Shown only when the camera is unsure of a die: Accept, one row per die to correct it, Re-roll (controls.md)."""

    def __init__(self, table: Table, roll: Roll):
        self.roll = roll
        options = [Option("accept", "Accept")]
        options += [Option(f"die{i}", f"Die {i + 1}: {d.label()}",
                           enabled=bool(faces_of(table, d)) and d.zone != OFF_MAT) for i, d in enumerate(roll.dice)]
        options.append(Option("reroll", "Re-roll"))
        super().__init__(table, ChooseOne(options, "accept"), "READ CHECK",
                         " ".join(d.label() for d in roll.dice)[:21])

    def picked(self, value) -> bool:
        if value == "accept":
            self.table.observe(self.roll, checked=True)
        elif value.startswith("die"):
            self.table.overlays.append(FaceOverlay(self.table, self, int(value[3:])))
            return False
        return True


def faces_of(table: Table, die: Die) -> tuple[Option, ...]:
    """The faces a player may correct `die` to: pips 1-6, or the faces of its kind the game teaches the camera
    (Lowdown's colours, Countaloupe's Chance Die); none for a kind the game does not know."""
    if die.kind == "pips":
        return PIP_FACES
    return tuple(Option(face, face[:19]) for face in table.match.game.taught_faces().get(die.kind, ()))


class FaceOverlay(Overlay):
    def __init__(self, table: Table, check: ReadCheckOverlay, index: int):
        self.check, self.index = check, index
        faces = faces_of(table, check.roll.dice[index])
        super().__init__(table, ChooseOne(faces), "READ CHECK", f"Die {index + 1} shows:")

    def picked(self, value) -> bool:
        dice = list(self.check.roll.dice)
        die = dice[self.index]
        face = {"value": int(value)} if die.kind == "pips" else {"face": value}
        dice[self.index] = dataclasses.replace(die, confidence=1.0, **face)
        self.check.roll = Roll(tuple(dice), self.check.roll.player)
        self.table.overlays.remove(self.check)
        self.table.overlays.append(ReadCheckOverlay(self.table, self.check.roll))
        return True


class Table:
    """One game at the table. `press` and `observe` are the only inputs; `prompt` is what the OLED shows."""

    def __init__(self, match: Match, journal: Journal | None = None, game_id: int | None = None):
        self.match = match
        self.journal = journal
        self.game_id = game_id
        self.names = match.game.players
        self.overlays: list[Overlay] = []
        self.message = ""
        self._view_refused = False   # the message is a refused view's (State.visible), which the next good view ends
        self.last_read: tuple[Die, ...] = ()
        self.quit_requested = False
        self.teach_request: str | None = None  # a kind of faces to teach the camera, asked for from MENU
        self.seeds: Callable[[], int] = lambda: secrets.randbits(32)  # for seeded rows (Option.seeded)
        self._widget = None
        self._widget_for: Decision | None = None

    @classmethod
    def new(cls, setup: Setup, journal: Journal | None = None) -> Table:
        match = Match.start(setup)
        return cls(match, journal, journal.new_game(setup) if journal else None)

    @classmethod
    def resume(cls, journal: Journal, game_id: int) -> Table:
        """Rebuild a game from its journal: the state is the replay of every recorded event. What the journal
        repaired on opening goes on the status line; a game over whose end the power cut before the journal heard
        of it is finished now, so that the home screen does not offer it again."""
        table = cls(Match.replay(journal.setup(game_id), journal.events(game_id)), journal, game_id)
        table.message = journal.recovered
        table._finish_if_over()
        return table

    # Inputs ---------------------------------------------------------------------------------------------------
    def observe(self, roll: Roll, checked: bool = False) -> bool:
        """A settled roll from the camera; True when the game accepted it. The game first says what of it may be
        read and drawn at all (State.visible): a refused view is drawn nowhere, its reason goes on the status line."""
        try:
            roll = self.match.state.visible(roll)
        except RefereeError as error:
            self.last_read, self.message, self._view_refused = (), error.message, True
            return False
        if self._view_refused:   # the dice were put right: the refusal no longer holds
            self.message, self._view_refused = "", False
        self.last_read = roll.dice
        if not isinstance(self.match.state.expects(), RollRequest) or self.overlays and not checked:
            return False  # UI-8: nobody is waiting for dice (or a screen is open over the game)
        if not checked and any(not d.is_read and d.zone != OFF_MAT for d in roll.dice):
            self.overlays.append(ReadCheckOverlay(self, roll))
            return False
        return self._push(roll)

    def choose(self, choice: Choice) -> bool:
        return self._push(choice)

    def press(self, press: Press) -> None:
        if press is Press.MENU and not self.is_spinner and not any(isinstance(o, MenuOverlay) for o in self.overlays):
            self.overlays.append(MenuOverlay(self))   # UI-4: over any screen but a number spinner
            return
        if self.overlays:
            overlay = self.overlays[-1]
            if overlay.press(press) and overlay in self.overlays:
                self.overlays.remove(overlay)
            return
        if press is Press.UNDO:
            if self.match.events:
                self.overlays.append(UndoOverlay(self))
            return
        pending = self.match.state.expects()
        if isinstance(pending, Decision):
            answer = self.widget.press(press)
            if isinstance(answer, Picked):
                value = answer.value
                if isinstance(value, str):
                    value = pending.answer(value, self.seeds())  # a seeded row journals its seed
                self.choose(Choice(value, pending.player))

    def undo(self) -> None:
        if self.journal is not None:
            self.journal.pop(self.game_id)
        self.match.pop()
        self.message = ""
        self._widget_for = None

    # State of the table ----------------------------------------------------------------------------------------
    @property
    def widget(self):
        pending = self.match.state.expects()
        if self._widget_for != pending:
            self._widget, self._widget_for = widget_for(pending), pending
        return self._widget

    @property
    def is_spinner(self) -> bool:
        """True while a number spinner is open: held PREV/NEXT then repeat instead of UNDO/MENU (UI-2)."""
        pending = self.match.state.expects()
        return not self.overlays and isinstance(pending, Decision) and pending.kind == "spinner"

    @property
    def is_over(self) -> bool:
        return self.match.state.expects() is None

    @property
    def is_waiting_for_disk(self) -> bool:
        return self.journal is not None and not self.journal.is_durable

    @property
    def status(self) -> str:
        """The status line's own text: the disk warning for as long as accepted events wait to be written (a refused
        move's reason must not hide it), else the last message."""
        return DISK_WARNING if self.is_waiting_for_disk else self.message

    def prompt(self) -> Prompt:
        if self.overlays:
            return self.overlays[-1].prompt()
        state = self.match.state
        pending = state.expects()
        if isinstance(pending, Decision):
            return decision_prompt(self.names, pending, self.widget, state.status(), self.status)
        if isinstance(pending, RollRequest):
            return roll_prompt(self.names, pending, self.status or state.status())
        return self.final_prompt()

    def final_prompt(self) -> Prompt:
        outcome = self.match.state.outcome()
        winners = " & ".join(self.names[i] for i in outcome.winners) if outcome else ""
        best = str(outcome.scores[outcome.winners[0]]) if outcome and outcome.winners else None
        return Prompt(header="GAME OVER", body=(f"Winner: {winners}"[:21], *self.score_lines()[:2]), big=best,
                      status=DISK_WARNING if self.is_waiting_for_disk else "Game saved", hints="OK new game")

    def score_lines(self) -> tuple[str, ...]:
        scores = self.match.state.scores()
        return tuple(f"{name[:12]:<12}{score:>9}" for name, score in zip(self.names, scores))

    # Applying --------------------------------------------------------------------------------------------------
    def _push(self, event: Roll | Choice) -> bool:
        try:
            self.match.push(event)
        except RefereeError as error:
            self.message = error.message
            return False
        if self.journal is not None:
            self.journal.append(self.game_id, event)   # on disk, or waiting in order while the disk refuses
        self.message = ""
        # A read check of a roll the game no longer waits for (an out-of-turn action was taken from MENU over it).
        self.overlays = [o for o in self.overlays if not isinstance(o, (ReadCheckOverlay, FaceOverlay))]
        self._finish_if_over()
        return True

    def _finish_if_over(self) -> None:
        if self.is_over and self.journal is not None and not self.journal.is_finished(self.game_id):
            self.journal.finish(self.game_id)
