"""The demo: a whole scripted game with no hardware, through the same parts the table uses.

Each roll of the script is drawn as camera frames (dice tumbling, then still) and goes through the real settle
detector and dice reader; each choice is entered as the button presses a player would make; every screen is drawn by
the real renderer onto a luma device. The journal is a real SQLite file in a temporary folder.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import CompanionError
from ..games.base import Choice, Die, Roll, split_seed
from ..vision.profile import Profile
from ..vision.reader import DiceReader
from ..vision.settle import SettleDetector
from ..vision.faces import FaceModel, die_crop
from ..vision.owners import OwnerModel
from ..vision.synth import SynthDie, render_roll_frames, render_views
from .journal import Journal
from .loop import Session
from .presses import presses_for, presses_for_interrupt
from .script import parse_script
from .table import Table

FRAME = (640, 480)
KEEP_STRIP_TOP = 400
DIE_SIZE = 52
STILL_FRAMES = 6  # enough for the settle detector's quiet interval and repeated readings
BODY_COLOURS = {"red": (40, 40, 190), "blue": (170, 90, 30), "green": (60, 140, 40), "yellow": (40, 200, 220),
                "white": (228, 234, 238), "black": (40, 40, 40), "purple": (140, 50, 110), "orange": (30, 120, 230)}
IVORY = (228, 234, 238)
SYMBOL_OF = {"sweet": "star", "sour": "crescent", "nope": "cross"}  # how the demo draws the Chance Die's faces


class DemoError(CompanionError):
    """The demo could not play its script: the camera did not read a roll as scripted, or a press went astray."""


@dataclass
class DemoReport:
    game: str
    events: int = 0
    frames: int = 0
    presses: int = 0
    screens: int = 0
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0

    def lines(self) -> list[str]:
        median = statistics.median(self.latencies) * 1000 if self.latencies else float("nan")
        return [f"{self.events} events, {self.frames} camera frames, {self.presses} presses, {self.screens} screens "
                f"in {self.wall:.1f} s",
                f"settled frame to prompt on the OLED: median {median:.1f} ms over {len(self.latencies)} rolls"]


def demo_script(game: str) -> str:
    try:
        return resources.files("companion.demos").joinpath(f"{game}.jsonl").read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise DemoError(f"no demo for {game!r}") from error


def demo_profile(dice: list[Die]) -> Profile:
    """The demo camera's calibration: the keep strip along the bottom of the frame, and the symbol faces, colour
    faces and body colours the script's dice show, taught from rendered views as a player teaches real dice."""
    width, height = FRAME
    faces = {}
    for kind in ("symbol", "colour"):
        shown = sorted({d.face for d in dice if d.kind == kind})
        if shown:
            faces[kind] = FaceModel.teach(kind, {f: _views(synth_die(Die(kind=kind, face=f), (0, 0))) for f in shown})
    owners = sorted({d.owner for d in dice if d.owner})
    taught_owners = OwnerModel.teach({o: _views(synth_die(Die(3, owner=o), (0, 0))) for o in owners}) if owners else None
    return Profile(zones={"keep": [[0, KEEP_STRIP_TOP], [width, KEEP_STRIP_TOP], [width, height], [0, height]]},
                   faces={kind: model.to_json() for kind, model in faces.items()},
                   owners={"body": taught_owners.to_json()} if taught_owners else {})


def _views(die: SynthDie) -> list:
    return [die_crop(frame, placed.center, placed.size) for frame, placed in render_views(die, 6, seed=len(die.body))]


def scene_for(roll: Roll) -> list[SynthDie]:
    """Where the scripted dice lie: the rolled ones spread over the tray, the kept ones in the keep strip."""
    dice, played, kept = [], 0, 0
    for die in roll.dice:
        if die.zone == "keep":
            center, kept = (70 + kept * 90, KEEP_STRIP_TOP + 40), kept + 1
        else:
            row, col = divmod(played, 5)
            center, played = (90 + col * 115 + (row % 2) * 40, 90 + row * 110), played + 1
        dice.append(synth_die(die, center))
    return dice


def synth_die(die: Die, center) -> SynthDie:
    body = BODY_COLOURS.get(die.owner or "", IVORY)
    if die.kind == "colour":
        return SynthDie(kind="colour", face=die.face, body=IVORY, center=center, size=DIE_SIZE)
    pips = (235, 235, 235) if sum(body) < 300 else (30, 30, 30)
    if die.kind == "symbol":
        return SynthDie(kind="symbol", face=die.face, symbol=SYMBOL_OF.get(die.face, die.face), body=body, pips=pips,
                        center=center, size=DIE_SIZE)
    return SynthDie(value=die.value, body=body, pips=pips, center=center, size=DIE_SIZE)


def play_demo(script: str, display, on_prompt=None) -> tuple[Table, DemoReport]:
    """Play a game script (docs/events.md) at a table whose camera and buttons are simulated."""
    setup, numbered = parse_script(script.splitlines(), "demo script")
    report = DemoReport(setup.game)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "demo-journal.sqlite")
        table = Table.new(setup, journal)
        reader = DiceReader(demo_profile([d for _, e in numbered if isinstance(e, Roll) for d in e.dice]))
        session = Session(table, display.display, reader.read, SettleDetector(), on_prompt=on_prompt)
        for seed, (line, event) in enumerate(numbered):
            before = len(table.match.events)
            if isinstance(event, Roll):
                report.frames += _roll(session, event, seed)
            else:
                report.presses += _choose(session, table, event)
            if len(table.match.events) != before + 1:
                raise DemoError(f"line {line}: the table did not take {table.match.state.describe(event)!r}: "
                                f"{table.message or 'no reason given'}")
            report.events += 1
        journal.close()
    report.latencies = session.latencies
    report.screens = session.screens
    report.wall = time.perf_counter() - started
    return table, report


def _roll(session: Session, roll: Roll, seed: int) -> int:
    """Show the camera the dice tumbling, then lying still; the still frame repeats as a camera's would while
    nothing moves (rendering costs more than reading, so it is drawn once)."""
    frames = render_roll_frames(scene_for(roll), moving=3, still=1, seed=seed, size=FRAME)
    frames += [frames[-1]] * STILL_FRAMES
    for count, frame in enumerate(frames, start=1):
        if session.frame(frame):
            return count
    return len(frames)


def _choose(session: Session, table: Table, choice: Choice) -> int:
    pending = table.match.state.expects()
    if choice.player is not None and choice.player != getattr(pending, "player", None):
        presses = presses_for_interrupt(table.match.state.interrupts(), choice)
    else:
        presses = presses_for(pending, choice)
        seeded = split_seed(choice.value)
        if seeded:
            table.seeds = lambda: seeded[1]  # the scripted draw, so the demo plays the script's game
    for press in presses:
        session.press(press)
    return len(presses)
