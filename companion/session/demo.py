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
from ..games.base import Choice, Decision, Die, Roll, split_seed
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
    turns: int = 0  # changes of whose turn it is, and shared rolls
    screens: int = 0
    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0

    def lines(self) -> list[str]:
        median = statistics.median(self.latencies) * 1000 if self.latencies else float("nan")
        return [f"{self.events} events, {self.frames} camera frames, {self.presses} presses, {self.screens} screens "
                f"in {self.wall:.1f} s; {self.presses / max(self.turns, 1):.1f} presses per turn over {self.turns} turns",
                f"settled frame to prompt on the OLED: median {median:.1f} ms over {len(self.latencies)} rolls"]


def demo_script(game: str, variant: str | None = None) -> str:
    """The game's demo script, or its `variant` (companion/demos/<game>-<variant>.jsonl, e.g. Lowdown's light mode)."""
    name = f"{game}-{variant}" if variant else game
    try:
        return resources.files("companion.demos").joinpath(f"{name}.jsonl").read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise DemoError(f"no demo for {name!r}") from error


def _rect(x0: int, y0: int, x1: int, y1: int) -> list[list[int]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def _row(x0: int, y0: int, dx: int, dy: int, count: int) -> list[tuple[int, int]]:
    return [(x0 + i * dx, y0 + i * dy) for i in range(count)]


# The demo tray (640x480): zones as the calibration profile names them, and the places dice are laid in each.
MAT_SLOTS = [(90 + col * 115 + (row % 2) * 40, 90 + row * 110) for row in range(3) for col in range(5)]
TRAY_ZONES = {  # most games: the play area, BANX's keep strip, and "off" the mat in the corner
    "keep": (_rect(0, KEEP_STRIP_TOP, 540, 480), _row(70, KEEP_STRIP_TOP + 40, 90, 0, 5)),
    "off": (_rect(560, KEEP_STRIP_TOP, 640, 480), [(600, KEEP_STRIP_TOP + 40)]),
    "hidden": (_rect(0, 0, 640, 62), [(262, 31), (492, 31)]),  # Lowdown: H's pair, unread until the reveal
}
POOL_ZONES = {  # Dice Lottery: the pool in the middle, the players' zones around it, clockwise from the bottom
    "pool": (_rect(140, 105, 500, 375), [(190 + 65 * (i % 5), 150 + 80 * (i // 5)) for i in range(15)]),
    "seat0": (_rect(0, 380, 640, 480), _row(60, 430, 70, 0, 8)),
    "seat1": (_rect(0, 0, 130, 380), _row(65, 60, 0, 70, 5)),
    "seat2": (_rect(130, 0, 510, 100), _row(180, 50, 70, 0, 5)),
    "seat3": (_rect(510, 0, 640, 380), _row(575, 60, 0, 70, 5)),
}


class Tray:
    """Where the scripted dice lie, frame after frame: a die keeps its place until the script moves it to another
    zone, as dice on a real tray do, so the camera's tracker can follow it."""

    def __init__(self, zones: dict):
        self.zones = zones
        self.places: dict[int, tuple[str, tuple[int, int]]] = {}  # die id -> (zone, place) in the last roll

    def scene(self, roll: Roll, fresh: bool = False) -> list[SynthDie]:
        """The dice of `roll` laid out; a `fresh` roll (every die thrown anew) lays them in order from the first
        place, as the tracker then numbers them in reading order."""
        places = {} if fresh else self.places
        stay = {d.id: places[d.id] for d in roll.dice if d.id is not None and places.get(d.id, ("",))[0] == d.zone}
        used = set(stay.values())
        scene = []
        for die in roll.dice:
            if die.id in stay:
                zone, center = stay[die.id]
            else:
                zone = die.zone
                slots = self.zones[zone][1] if zone in self.zones else MAT_SLOTS
                free = [slot for slot in slots if (zone, slot) not in used]
                if not free:
                    raise DemoError(f"the demo tray has no room for another die in zone {zone!r}")
                center = free[0]
                used.add((zone, center))
            if die.id is not None:
                stay[die.id] = (zone, center)
            scene.append(synth_die(die, center))
        self.places = stay
        return scene


def demo_profile(dice: list[Die], zones: dict) -> Profile:
    """The demo camera's calibration: the tray's zones, and the symbol faces, colour faces and body colours the
    script's dice show, taught from rendered views as a player teaches real dice."""
    faces = {}
    for kind in ("symbol", "colour"):
        shown = sorted({d.face for d in dice if d.kind == kind})
        if shown:
            faces[kind] = FaceModel.teach(kind, {f: _views(synth_die(Die(kind=kind, face=f), (0, 0))) for f in shown})
    owners = sorted({d.owner for d in dice if d.owner})
    taught_owners = OwnerModel.teach({o: _views(synth_die(Die(3, owner=o), (0, 0))) for o in owners}) if owners else None
    return Profile(zones={name: polygon for name, (polygon, _) in zones.items()},
                   faces={kind: model.to_json() for kind, model in faces.items()},
                   owners={"body": taught_owners.to_json()} if taught_owners else {})


def _views(die: SynthDie) -> list:
    return [die_crop(frame, placed.center, placed.size) for frame, placed in render_views(die, 6, seed=len(die.body))]


def scene_for(roll: Roll) -> list[SynthDie]:
    """A single roll laid on the demo tray (rolled dice over the mat, kept ones in the keep strip)."""
    return Tray(TRAY_ZONES).scene(roll)


def synth_die(die: Die, center) -> SynthDie:
    body = BODY_COLOURS.get(die.owner or "", IVORY)
    if die.kind == "colour":
        return SynthDie(kind="colour", face=die.face, body=IVORY, center=center, size=DIE_SIZE)
    pips = (235, 235, 235) if sum(body) < 300 else (30, 30, 30)
    if die.kind == "symbol":
        return SynthDie(kind="symbol", face=die.face, symbol=SYMBOL_OF.get(die.face, die.face), body=body, pips=pips,
                        center=center, size=DIE_SIZE)
    # A die the script leaves unread (one off the mat) still shows some face to the camera.
    return SynthDie(value=die.value or 3, body=body, pips=pips, center=center, size=DIE_SIZE)


def play_demo(script: str, display, on_prompt=None) -> tuple[Table, DemoReport]:
    """Play a game script (docs/events.md) at a table whose camera and buttons are simulated."""
    setup, numbered = parse_script(script.splitlines(), "demo script")
    report = DemoReport(setup.game)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "demo-journal.sqlite")
        table = Table.new(setup, journal)
        zones = POOL_ZONES if table.match.game.tracks_dice else TRAY_ZONES
        reader = DiceReader(demo_profile([d for _, e in numbered if isinstance(e, Roll) for d in e.dice], zones))
        tray = Tray(zones)
        session = Session(table, display.display, reader.read, SettleDetector(), on_prompt=on_prompt,
                          clock=SkippingClock())
        turn_of = object()
        for seed, (line, event) in enumerate(numbered):
            before = len(table.match.events)
            pending = table.match.state.expects()
            # Whose turn it is, not who acts: Lowdown's hidden pair is thrown by H, and the others pick, in A's turn.
            # A shared roll (Roll Your Luck's wave) is a turn of its own.
            now = getattr(table.match.state, "active", pending.player)
            report.turns += now != turn_of or (now is None and isinstance(event, Roll))
            turn_of = now
            if isinstance(event, Roll):
                report.frames += _roll(session, tray.scene(event, getattr(pending, "fresh", False)), seed)
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


def _roll(session: Session, scene: list[SynthDie], seed: int) -> int:
    """Show the camera the dice tumbling, then lying still; the still frame repeats as a camera's would while
    nothing moves (rendering costs more than reading, so it is drawn once)."""
    frames = render_roll_frames(scene, moving=3, still=1, seed=seed, size=FRAME)
    frames += [frames[-1]] * STILL_FRAMES
    for count, frame in enumerate(frames, start=1):
        if session.frame(frame):
            return count
    return len(frames)


class SkippingClock:
    """The session's clock: real time, plus the time the demo skips instead of waiting out an automatic step."""

    def __init__(self):
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.perf_counter() + self.skipped


def _wait_for_automatic_step(session: Session, step: Decision) -> None:
    """Let the table take a step by itself (Decision.auto_ms, Countaloupe's discards) as it does when nobody
    presses: its delay is skipped, not slept."""
    session.tick()
    session.clock.skipped += step.auto_ms / 1000
    session.tick()


def _choose(session: Session, table: Table, choice: Choice) -> int:
    pending = table.match.state.expects()
    if (isinstance(pending, Decision) and pending.auto_ms is not None and choice.value == pending.default
            and choice.player in (None, pending.player)):
        _wait_for_automatic_step(session, pending)
        return 0
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
