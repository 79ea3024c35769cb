"""Roll Your Luck (rules/roll-your-luck.md): everyone rolls one die, builds a running total and banks it before rolling
a face somebody has claimed. Five rounds; the most points wins.

Whose die is whose: each player is given a die colour or a seat zone at setup (`setup.colours`; by default the first
`die_colours`, or the `seat_zones`, in calibration order). The camera reports a die's body colour as its `owner`
and the seat zone it lies in as its `zone`; with `seat_zones` set, the zone tells the owner. A die whose owner
cannot be told (no owner, an unknown one, a die between seats) or a second die of one owner refuses the wave with
the reason on the status line; the referee never guesses.

A wave is one settled frame of the mat, so it also shows the dice of players with no roll to make now (BANKED or
OUT, or in `sequential` mode every player but the roller). Those dice must not change (RYL-16): the referee
remembers the face each die last showed, and a die that now shows another face, or lies off the mat, was moved. It
is ignored and the status line warns, e.g. "Ben's die ignored"; the state otherwise takes the roll as usual.

The bank decision is shared (header ALL): a multi-select of the players allowed to bank, skipped when nobody is.
Its question shows the chance that a player who rolls on gets an accepted, unclaimed face (`roll_on_chance`), the
same for every player, counted against the claims standing at this decision (faces banked in it are claimed from
the next roll on, RYL-10).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction

from .base import (OFF_MAT, Choice, Decision, Die, Event, Game, IllegalActionError, ImplausibleRollError, Option,
                   Outcome, Roll, RollRequest, State, parse_options, require_on_mat, require_read, whole_numbers,
                   winners_of)
from .odds import accepted_unclaimed_chance, percent

ROUNDS = 5  # RYL-1
ROLLING, BANKED, OUT = "ROLLING", "BANKED", "OUT"


@dataclass(frozen=True)
class Options:
    faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    die_colours: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple", "white", "black")
    seat_zones: tuple[str, ...] = ()
    max_players: int = 8
    wave_mode: str = "simultaneous"

    def __post_init__(self):
        if not self.faces or not whole_numbers(self.faces, least=1):
            raise IllegalActionError("roll-your-luck: faces must be whole numbers above 0")
        if self.wave_mode not in ("simultaneous", "sequential"):
            raise IllegalActionError("roll-your-luck: wave_mode is simultaneous or sequential")


class RollYourLuckState(State):
    def __init__(self, game: RollYourLuck):
        super().__init__(game)
        n = len(game.players)
        self.round = 1
        self.score = [0] * n
        self.gains: list[list[int]] = [[] for _ in range(n)]  # per player, the gain of each round
        self.resting: list[int | None] = [None] * n  # the face each die last showed, to tell a moved die (RYL-16)
        self.phase = "roll"   # roll | bank | over
        self.warning = ""
        self._start_round()

    def _start_round(self) -> None:
        """RYL-2, RYL-12: everyone rolling from 0, no claims."""
        n = len(self.game.players)
        self.status_of = [ROLLING] * n
        self.running = [0] * n
        self.last: list[int | None] = [None] * n
        self.claims: dict[int, list[int]] = {}
        self.wave = 1
        self.turn = self.game.setup.first       # sequential mode: who rolls now
        self.eligible: tuple[int, ...] = ()      # who may bank after the last roll
        for gains in self.gains:
            gains.append(0)

    def copy(self) -> RollYourLuckState:
        """A fast copy for playouts: copies the lists and the claims; everything else is immutable."""
        new = object.__new__(RollYourLuckState)
        new.__dict__.update(self.__dict__)
        new.score, new.status_of, new.running, new.last = (list(self.score), list(self.status_of),
                                                           list(self.running), list(self.last))
        new.resting = list(self.resting)
        new.gains = [list(gains) for gains in self.gains]
        new.claims = {face: list(claimants) for face, claimants in self.claims.items()}
        return new

    # Who rolls ---------------------------------------------------------------------------------------------------
    @property
    def sequential(self) -> bool:
        return self.game.options.wave_mode == "sequential"

    def _rollers(self) -> list[int]:
        """The players whose dice the next roll must show."""
        if self.sequential:
            return [self.turn]
        return [p for p, s in enumerate(self.status_of) if s == ROLLING]

    def _name(self, seat: int) -> str:
        return self.game.players[seat][:8]

    # What the state waits for ------------------------------------------------------------------------------------
    def expects(self) -> Decision | RollRequest | None:
        context = f"R{self.round} wave {self.wave}"
        if self.phase == "over":
            return None
        if self.phase == "bank":
            options = tuple(Option(f"p{p}", f"{self._name(p)} {self.running[p]}") for p in self.eligible)
            player = self.turn if self.sequential else None
            question = f"Who banks? {percent(self.roll_on_chance())} ok"
            return Decision(player, "multi", question, options, (), 0, len(options), context=context)
        rollers = self._rollers()
        owner = self.game.owners[rollers[0]] if self.sequential else None
        player = rollers[0] if self.sequential else None
        message = f"{self._name(rollers[0])} rolls" if self.sequential else f"roll {len(rollers)} dice"
        return RollRequest(player, message, {"pips": len(rollers)}, owner, self._lines(), context)

    def roll_on_chance(self) -> Fraction:
        """The exact chance that a player who rolls on gets a face that adds to the running total: accepted this
        round (RYL-1) and not claimed (RYL-8), by the claims standing now."""
        return accepted_unclaimed_chance(self.game.options.faces, self.round, self.claims.keys())

    def _lines(self) -> tuple[str, ...]:
        faces = self.game.options.faces
        accepted = [f for f in faces if f >= self.round]
        lines = [f"faces {accepted[0]}-{accepted[-1]} ok" if accepted else "no face ok"]
        if self.claims:
            lines.append("claimed " + " ".join(str(f) for f in sorted(self.claims)))
        lines += [f"{self._name(p)} run {self.running[p]}" for p, s in enumerate(self.status_of) if s == ROLLING]
        return tuple(line[:21] for line in lines[:5])

    # Rolls -------------------------------------------------------------------------------------------------------
    def _apply_roll(self, roll: Roll) -> None:
        rollers = self._rollers()
        owned = self._owned(roll)
        faces = self._read(owned, rollers)
        self._watch_still_dice([(p, die) for p, die in owned if p not in rollers])
        self.eligible = ()
        for p in rollers:
            self.resting[p] = faces[p]
            self._resolve(p, faces[p])
        if self.eligible:
            self.phase = "bank"
        else:
            self._next_roll()

    def _watch_still_dice(self, idle: list[tuple[int, Die]]) -> None:
        """RYL-16: the dice of players with no roll to make are ignored; the status line names one that moved."""
        moved = [p for p, die in idle if self._moved(p, die)]
        self.warning = f"{self._name(moved[0])}'s die ignored" if moved else ""
        for p, die in idle:
            if die.zone != OFF_MAT and die.is_read:
                self.resting[p] = die.value

    def _moved(self, p: int, die: Die) -> bool:
        """Whether a die that should lie still was moved: off the mat, or showing another face than it last did."""
        if die.zone == OFF_MAT:
            return True
        return die.is_read and self.resting[p] is not None and die.value != self.resting[p]

    def _owned(self, roll: Roll) -> list[tuple[int, Die]]:
        """Each die with its owner's seat; refuses a die with no, an unknown or a repeated owner (RYL-18)."""
        seat_of = {owner: seat for seat, owner in enumerate(self.game.owners)}
        seen: set[int] = set()
        owned = []
        for die in roll.dice:
            owner = self._owner_of(die)
            if owner is None and die.zone == OFF_MAT:
                raise ImplausibleRollError("whose die is off mat?", "RYL-18")
            if owner is None:
                raise ImplausibleRollError(f"whose die shows {die.label()}?", "RYL-18")
            if owner not in seat_of:
                raise ImplausibleRollError(f"unknown die {owner}"[:21], "RYL-18")
            seat = seat_of[owner]
            if seat in seen:
                raise ImplausibleRollError(f"two dice for {self._name(seat)}", "RYL-18")
            seen.add(seat)
            owned.append((seat, die))
        return owned

    def _owner_of(self, die: Die) -> str | None:
        """The colour or seat zone that tells whose `die` is: its zone with `seat_zones`, else its body colour."""
        if self.game.options.seat_zones:
            return die.zone if die.zone in self.game.options.seat_zones else None
        return die.owner

    def _read(self, owned: list[tuple[int, Die]], rollers: list[int]) -> dict[int, int]:
        """The face rolled by each roller: exactly one die each, on the mat, read, a face of the die."""
        mine = [(p, die) for p, die in owned if p in rollers]
        missing = [p for p in rollers if p not in {p for p, _ in mine}]
        if missing:
            raise ImplausibleRollError(f"waiting for {self._name(missing[0])}", "RYL-18")
        dice = [die for _, die in mine]
        if any(die.kind != "pips" for die in dice):
            raise ImplausibleRollError("use the number dice")
        require_on_mat(Roll(tuple(dice)))
        require_read(dice)
        for p, die in mine:
            if die.value not in self.game.options.faces:
                raise ImplausibleRollError(f"no die face {die.value}")
        return {p: die.value for p, die in mine}

    def _resolve(self, p: int, face: int) -> None:
        """One face against the claims, which only banking changes, after the roll (RYL-4, RYL-5, RYL-8, RYL-11)."""
        self.last[p] = face
        if face in self.claims:
            self.running[p] = 0
            self.status_of[p] = OUT
            for claimant in self.claims[face]:
                self._gain(claimant, face)
        elif face < self.round:
            self.running[p] = 0
        else:
            self.running[p] += face
            self.eligible += (p,)

    def _gain(self, p: int, points: int) -> None:
        self.score[p] += points
        self.gains[p][-1] += points

    def _next_roll(self) -> None:
        """After a roll and its bank decision: the next roller, or the next round (RYL-1), or the end (RYL-17)."""
        self.eligible = ()
        rolling = [p for p, s in enumerate(self.status_of) if s == ROLLING]
        if not rolling:
            if self.round == ROUNDS:
                self.phase = "over"
                return
            self.round += 1
            self._start_round()
        elif self.sequential:
            n = len(self.game.players)
            first = self.game.setup.first
            after = [p for p in rolling if (p - first) % n > (self.turn - first) % n]
            if not after:
                self.wave += 1
            self.turn = min(after or rolling, key=lambda p: (p - first) % n)
        else:
            self.wave += 1
        self.phase = "roll"

    # Choices -----------------------------------------------------------------------------------------------------
    def _apply_choice(self, choice: Choice) -> None:
        """Banking (RYL-6): the running total is scored and the face claimed, for the next roll on (RYL-10)."""
        self.warning = ""
        for key in choice.value:
            p = int(key[1:])
            self._gain(p, self.running[p])
            self.claims.setdefault(self.last[p], []).append(p)
            self.status_of[p] = BANKED
        self._next_roll()

    # Chance node -------------------------------------------------------------------------------------------------
    def random_roll(self, rng: random.Random) -> Roll:
        """The settled mat: a fresh face for each roller's die, the other dice lying as they were, and now and then
        one of those knocked to another face (RYL-16)."""
        faces = self.game.options.faces
        rollers = self._rollers()
        dice = [self._die(p, rng.choice(faces)) for p in rollers]
        idle = [p for p in range(len(self.game.players)) if p not in rollers and self.resting[p] is not None]
        knocked = rng.choice(idle) if idle and rng.random() < 0.05 else None
        dice += [self._die(p, rng.choice(faces) if p == knocked else self.resting[p]) for p in idle]
        return Roll(tuple(dice))

    def _die(self, p: int, face: int) -> Die:
        """Player p's die showing `face`, told by its colour or by the seat zone it lies in."""
        owner = self.game.owners[p]
        return Die(value=face, zone=owner) if self.game.options.seat_zones else Die(value=face, owner=owner)

    # Results -----------------------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.score)

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        return Outcome(tuple(self.score), winners_of(self.score), "highest after round 5")

    def status(self) -> str:
        if self.warning:
            return self.warning[:21]
        if self.phase == "over":
            winners = winners_of(self.score)
            return (f"{self._name(winners[0])} wins" if len(winners) == 1 else "shared win")
        return f"R{self.round} " + " ".join(f"{self._name(p)[:3]}{s}" for p, s in enumerate(self.score))[:18]

    def detail(self) -> dict:
        players = self.game.players
        return {
            "round": self.round,
            "wave": self.wave,
            "score": dict(zip(players, self.score)),
            "gains": dict(zip(players, self.gains)),
            "status": dict(zip(players, self.status_of)),
            "running": dict(zip(players, self.running)),
            "last": dict(zip(players, self.last)),
            "claims": {str(face): [players[p] for p in claimants] for face, claimants in sorted(self.claims.items())},
        }

    def describe(self, event: Event) -> str:
        if isinstance(event, Roll):
            return "roll " + " ".join(d.label() for d in event.dice)
        banked = [self._name(int(key[1:])) for key in event.value]
        return "bank " + ", ".join(banked) if banked else "nobody banks"


class RollYourLuck(Game):
    name = "roll-your-luck"
    title = "Roll Your Luck"
    rule_prefix = "RYL"
    min_players = 2
    max_players = 8  # the default of the `max_players` option, which replaces it per game (RYL-18)
    needs_colours = True  # setup assigns each player a die colour, or a seat zone with `seat_zones`
    Options = Options
    state_class = RollYourLuckState

    def __init__(self, setup):
        options = parse_options(self.Options, setup.options, self.name)
        self.max_players = options.max_players
        markers = options.seat_zones or options.die_colours
        if not setup.colours:  # calibration order, as setup offers them
            setup = replace(setup, colours=tuple(markers[:len(setup.players)]))
        super().__init__(setup)
        self.owners = tuple(setup.colours)
        unknown = [owner for owner in self.owners if owner not in markers]
        if unknown:
            kind = "seat_zones" if options.seat_zones else "die_colours"
            raise IllegalActionError(f"roll-your-luck: {unknown[0]!r} is not in {kind}")


GAME = RollYourLuck
