"""What every game shares: setup, events, what a state expects next, and the referee's two errors.

A game is an immutable `Game` (players and options, fixed at setup) and a `State` that says what it waits for:
a `RollRequest` (a chance node: the dice the camera must see next) or a `Decision` (a choice among legal options).
`State.apply(event)` validates an event and returns a new state, leaving the old one untouched, so undo is just
going back to an earlier state and a journal replay rebuilds any state exactly. Nothing here does I/O.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Mapping, Sequence, Union


class RefereeError(ValueError):
    """An event the referee refuses. The message is one line, short enough for the OLED status line."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class ImplausibleRollError(RefereeError):
    """The dice seen cannot be the roll asked for: unreadable, wrong count or kind, off the mat, or a die that
    should not have changed. The table is fixed or rolled again; nothing is applied."""


class IllegalActionError(RefereeError):
    """A well-formed choice that the rules do not allow now (or not for this player)."""


# ---------------------------------------------------------------------------------------------------- events

ON_MAT, OFF_MAT = "mat", "off"   # Die.zone of a die in the play area, and of one outside it (no face to read)


@dataclass(frozen=True)
class Die:
    """One die as the camera (or a replay script) reports it.

    `value` is the pip face 1-6; `face` names a colour or symbol face (kind "colour" / "symbol"). `owner` is the body
    colour or seat zone that tells whose die it is; `zone` is where it lies ("mat", "off" for outside the play area,
    "keep" for BANX's keep strip, "pool" or a player's zone for Dice Lottery); `id` follows a die across frames.
    """

    value: int | None = None
    kind: str = "pips"
    face: str | None = None
    owner: str | None = None
    zone: str = ON_MAT
    id: int | None = None
    confidence: float = 1.0

    @property
    def is_read(self) -> bool:
        return self.value is not None if self.kind == "pips" else self.face is not None

    def label(self) -> str:
        """How the die is named on screen: its digit, its face, or '?' (UI-11)."""
        if not self.is_read:
            return "?"
        return str(self.value) if self.kind == "pips" else str(self.face)

    def to_json(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | int) -> Die:
        if isinstance(data, int) and not isinstance(data, bool):
            return cls(value=data)
        if not isinstance(data, Mapping):
            raise ImplausibleRollError(f"a die must be a number or an object, not {data!r}")
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise ImplausibleRollError(f"unknown die field {sorted(unknown)[0]!r}")
        return cls(**data)


@dataclass(frozen=True)
class Roll:
    """Dice the camera saw settle (or a script entered). `player` is whoever rolled, when that matters."""

    dice: tuple[Die, ...]
    player: int | None = None

    @classmethod
    def of(cls, *values: int, player: int | None = None, **die_fields) -> Roll:
        """A roll of plain pip dice, for scripts and tests: Roll.of(3, 3, 5, 6, 1)."""
        return cls(tuple(Die(value=v, **die_fields) for v in values), player)

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(d.value for d in self.dice)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"roll": [d.value if d.to_json().keys() == {"value"} else d.to_json()
                                        for d in self.dice]}
        if self.player is not None:
            out["player"] = self.player
        return out


ChoiceValue = Union[str, int, tuple]


@dataclass(frozen=True)
class Choice:
    """A player's answer: an option key (choose one, confirm, grid), a tuple of keys (multi-select) or a number
    (spinner). `player` is the seat that chose; None means whoever the decision belongs to."""

    value: ChoiceValue
    player: int | None = None

    def to_json(self) -> dict:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        out: dict[str, Any] = {"choice": value}
        if self.player is not None:
            out["player"] = self.player
        return out


Event = Union[Roll, Choice]


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Parse one event object of docs/events.md; raises RefereeError for anything malformed."""
    if not isinstance(data, Mapping):
        raise ImplausibleRollError("an event must be a JSON object")
    player = data.get("player")
    if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
        raise IllegalActionError(f"player must be a seat number, not {player!r}")
    if "roll" in data:
        dice = data["roll"]
        if not isinstance(dice, list):
            raise ImplausibleRollError("roll must be a list of dice")
        return Roll(tuple(Die.from_json(d) for d in dice), player)
    if "choice" in data:
        value = data["choice"]
        if isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, (str, int, tuple)) or isinstance(value, bool):
            raise IllegalActionError(f"a choice is a key, a list of keys or a number, not {value!r}")
        return Choice(value, player)
    raise IllegalActionError("an event needs a 'roll' or a 'choice'")


# ---------------------------------------------------------------------------------------------- expectations

@dataclass(frozen=True)
class Option:
    """One row of a decision. A disabled option is shown in brackets and skipped by the cursor (UI-6).

    A `seeded` option is answered as "<key>:<seed>", the seed chosen by whoever records the event (the table draws
    one when the row is picked) and journaled with it, so a game that draws at random stays a pure function of its
    events and a replay draws the same (Dice Lottery's "Draw for me")."""

    key: str
    label: str
    enabled: bool = True
    reason: str = ""
    seeded: bool = False


def split_seed(value: object) -> tuple[str, int] | None:
    """("key", seed) for a seeded answer "key:<digits>", else None."""
    if isinstance(value, str):
        key, colon, digits = value.rpartition(":")
        if colon and key and digits.isdigit():
            return key, int(digits)
    return None


@dataclass(frozen=True)
class Decision:
    """A choice the state waits for.

    kind: "choose" (one key), "confirm" (option keys "yes"/"no"), "multi" (a tuple of keys, `low`..`high` of
    them), "spinner" (a number `low`..`high`) or "grid" (one box key, Lowdown full mode). `player` is the seat
    deciding, or None for a shared decision (header `ALL`); `role` names a role instead ("HOST", "DEALER").
    `auto_ms` marks a step the table takes by itself with the default answer after that many milliseconds unless
    a player acts first (Countaloupe's discard steps, CL-25). `conflicts` holds pairs of a multi-select's keys that
    may not be marked together (Lowdown's crossing lines, LOW-17): once one is marked, the other is bracketed.
    """

    player: int | None
    kind: str
    question: str
    options: tuple[Option, ...] = ()
    default: ChoiceValue | None = None
    low: int = 0
    high: int = 0
    context: str = ""
    role: str | None = None
    auto_ms: int | None = None
    conflicts: frozenset = frozenset()

    def legal_keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options if o.enabled)

    def check(self, choice: Choice) -> None:
        """Raise IllegalActionError unless `choice` is a legal answer to this decision."""
        value = choice.value
        if self.player is not None and choice.player is not None and choice.player != self.player:
            raise IllegalActionError("not your decision", "UI-9")
        legal = self.legal_keys()
        if self.kind == "spinner":
            if not isinstance(value, int) or not self.low <= value <= self.high:
                raise IllegalActionError(f"enter a number {self.low}-{self.high}", "UI-6")
        elif self.kind == "multi":
            if not isinstance(value, tuple) or len(set(value)) != len(value):
                raise IllegalActionError("pick each row at most once", "UI-6")
            if any(v not in legal for v in value):
                raise IllegalActionError("that row cannot be picked", "UI-6")
            if not self.low <= len(value) <= self.high:
                raise IllegalActionError(f"pick {self.low}-{self.high} rows", "UI-6")
        elif value not in legal or any(o.seeded for o in self.options if o.key == value):
            seeded = split_seed(value)
            if not (seeded and any(o.seeded and o.enabled and o.key == seeded[0] for o in self.options)):
                raise IllegalActionError(f"{value!r} is not an option now", "UI-6")

    def random_choice(self, rng: random.Random) -> Choice:
        """A uniformly chosen legal answer, for playouts and fuzzing."""
        if self.kind == "spinner":
            return Choice(rng.randint(self.low, self.high), self.player)
        legal = self.legal_keys()
        if self.kind == "multi":
            count = rng.randint(self.low, min(self.high, len(legal)))
            return Choice(tuple(rng.sample(legal, count)), self.player)
        return Choice(self.answer(rng.choice(legal), rng.getrandbits(32)), self.player)

    def answer(self, key: str, seed: int) -> str:
        """The answer that picking row `key` gives: the key itself, or "key:<seed>" for a seeded row."""
        return f"{key}:{seed}" if any(o.seeded and o.key == key for o in self.options) else key


@dataclass(frozen=True)
class RollRequest:
    """The chance node: what the camera must see next. `dice` maps a kind ("pips", "colour", "symbol") to how many
    dice of it are expected; `owner` restricts to one player's dice colour. `lines` are public facts to show while
    waiting, at most five short lines. `fresh`: every die is thrown anew, so none keeps the identity the camera's
    tracker gave it before (Dice Lottery's pool roll)."""

    player: int | None
    message: str
    dice: Mapping[str, int]
    owner: str | None = None
    lines: tuple[str, ...] = ()
    context: str = ""
    role: str | None = None
    fresh: bool = False

    @property
    def count(self) -> int:
        return sum(self.dice.values())


@dataclass(frozen=True)
class Interrupt:
    """An out-of-turn action offered through MENU (UI-4), such as Countaloupe's block."""

    player: int
    option: Option


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the final scores in seat order and the winning seats (ties share)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str = ""


# ------------------------------------------------------------------------------------------------ game, state

@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first roll. `options` holds house options and ASSUME values by the spec's keys."""

    game: str
    players: tuple[str, ...]
    first: int = 0
    colours: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"game": self.game, "players": list(self.players), "first": self.first}
        if self.colours:
            out["colours"] = list(self.colours)
        if self.options:
            out["options"] = dict(self.options)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping) or not isinstance(data.get("game"), str):
            raise IllegalActionError("setup needs a game name")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
            raise IllegalActionError("setup needs a list of player names")
        first = data.get("first", 0)
        colours = data.get("colours", [])
        options = data.get("options", {})
        if not isinstance(first, int) or not isinstance(colours, list) or not isinstance(options, dict):
            raise IllegalActionError("setup: first is a seat number, colours a list, options an object")
        unknown = set(data) - {"game", "players", "first", "colours", "options"}
        if unknown:
            raise IllegalActionError(f"setup: unknown key {sorted(unknown)[0]!r}")
        return cls(data["game"], tuple(players), first, tuple(colours), dict(options))


def whole_numbers(values: Sequence[Any], least: int = 0) -> bool:
    """Whether configured values are all whole numbers (booleans are not) of at least `least`."""
    return all(isinstance(v, int) and not isinstance(v, bool) and v >= least for v in values)


def parse_options(options_class: type, given: Mapping[str, Any], game: str):
    """Build a game's frozen options dataclass from a mapping, refusing unknown keys and wrong types by name. Each
    game's `Options.__post_init__` refuses impossible values, so a configuration file is checked when it is loaded."""
    known = {f.name: f for f in fields(options_class)}
    for key, value in given.items():
        if key not in known:
            raise IllegalActionError(f"{game}: unknown option {key!r}")
        default = known[key].default
        if default is not None and not isinstance(value, type(default)) and not (
                isinstance(default, float) and isinstance(value, int)) and not (
                isinstance(default, tuple) and isinstance(value, list)):
            raise IllegalActionError(f"{game}: option {key!r} must be {type(default).__name__}")
    converted = {k: tuple(v) if isinstance(v, list) else v for k, v in given.items()}
    return options_class(**converted)


class Game:
    """Immutable parameters of one game: the players and the options. Subclasses set the class attributes, an
    `Options` dataclass and `state_class`, and may check the setup further in `__init__`."""

    name: ClassVar[str]
    title: ClassVar[str]
    rule_prefix: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    needs_colours: ClassVar[bool] = False
    setup_choices: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()  # (option, values) the host picks at setup
    first_question: ClassVar[str] = "Who starts?"  # the seat the host picks at setup, as the rules name it...
    first_after_pick: ClassVar[int] = 0  # ...and how many seats to the left of it the first player sits
    tracks_dice: ClassVar[bool] = False  # dice must carry the ids the camera's tracker follows them by
    Options: ClassVar[type]
    state_class: ClassVar[type[State]]

    def __init__(self, setup: Setup):
        count = len(setup.players)
        if not self.min_players <= count <= self.max_players:
            raise IllegalActionError(f"{self.name} takes {self.min_players}-{self.max_players} players, not {count}")
        if len(set(setup.players)) != count:
            raise IllegalActionError("player names must differ")
        if not 0 <= setup.first < count:
            raise IllegalActionError(f"first player must be a seat 0-{count - 1}")
        if self.needs_colours and len(setup.colours) != count:
            raise IllegalActionError(f"{self.name} needs one dice colour per player")
        if setup.colours and len(set(setup.colours)) != len(setup.colours):
            raise IllegalActionError("dice colours must differ")
        self.setup = setup
        self.players = setup.players
        self.options = parse_options(self.Options, setup.options, self.name)

    def new_initial_state(self) -> State:
        return self.state_class(self)

    def taught_faces(self) -> dict[str, tuple[str, ...]]:
        """The faces the camera must be taught for this game, by kind ("symbol", "colour"): none by default."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {', '.join(self.players)}>"


class State:
    """Mutable only inside `apply`: every public call leaves it unchanged. Subclasses implement `expects`,
    `_apply_roll`, `_apply_choice`, `scores`, `outcome`, `status` and `detail`; `random_roll` samples the chance
    node for playouts; `interrupts` and `_apply_interrupt` add MENU actions where a game has them."""

    def __init__(self, game: Game):
        self.game = game

    # What the state waits for -------------------------------------------------------------------------------
    def expects(self) -> Decision | RollRequest | None:
        """The pending decision or roll, or None once the game is over."""
        raise NotImplementedError

    def interrupts(self) -> tuple[Interrupt, ...]:
        return ()

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    # Applying events ----------------------------------------------------------------------------------------
    def apply(self, event: Event) -> State:
        """Validate `event` and return the state after it; raise ImplausibleRollError or IllegalActionError."""
        pending = self.expects()
        if isinstance(event, Choice):
            for interrupt in self.interrupts():
                if interrupt.option.key == event.value and event.player in (None, interrupt.player):
                    new = self.copy()
                    new._apply_interrupt(Choice(event.value, interrupt.player))
                    return new
        if pending is None:
            raise IllegalActionError("the game is over", "UI-8")
        if isinstance(event, Roll):
            if not isinstance(pending, RollRequest):
                raise ImplausibleRollError("waiting for a choice, not a roll", "UI-8")
            new = self.copy()
            new._apply_roll(event)
            return new
        if isinstance(event, Choice):
            if not isinstance(pending, Decision):
                raise IllegalActionError("waiting for the dice", "UI-8")
            pending.check(event)
            new = self.copy()
            new._apply_choice(Choice(event.value, pending.player))
            return new
        raise TypeError(f"not an event: {event!r}")

    def copy(self) -> State:
        return copy.deepcopy(self)

    def _apply_roll(self, roll: Roll) -> None:
        raise NotImplementedError

    def _apply_choice(self, choice: Choice) -> None:
        raise NotImplementedError

    def _apply_interrupt(self, choice: Choice) -> None:
        raise NotImplementedError

    def __deepcopy__(self, memo):
        # The Game is immutable and shared by every state of one match; only the state's own data is copied.
        new = object.__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            setattr(new, key, value if key == "game" else copy.deepcopy(value, memo))
        return new

    def visible(self, roll: Roll) -> Roll:
        """The part of a settled reading that the game may read and the table may draw, asked before anything else
        sees it (the read check, "Last read"), whether or not a roll is awaited: all of it by default. A game with
        hidden dice drops the ones it ignores, or raises ImplausibleRollError when the view itself would give hidden
        information away or shows dice that must not have changed (Lowdown, LOW-23, LOW-26)."""
        return roll

    # Chance node --------------------------------------------------------------------------------------------
    def random_roll(self, rng: random.Random) -> Roll:
        """A random roll that this state accepts, as the table would produce it."""
        raise NotImplementedError

    # Results ------------------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        raise NotImplementedError

    def status(self) -> str:
        """Line 7 of the OLED: public facts only (UI-10)."""
        return ""

    def detail(self) -> dict:
        """What the game tracks, by the names of its spec, for `replay --json`."""
        raise NotImplementedError

    def describe(self, event: Event) -> str:
        """A short name for `event` applied to this state, for "Undo <event>?" (UI-3)."""
        if isinstance(event, Roll):
            return "roll " + " ".join(d.label() for d in event.dice)
        value = event.value
        return "choice " + (",".join(map(str, value)) if isinstance(value, tuple) else str(value))


# ------------------------------------------------------------------------------------------ shared roll checks

def require_on_mat(roll: Roll, rule: str | None = None) -> None:
    """Dice off the play area are re-rolled alone (all specs); refuse the roll until they are back."""
    off = sum(1 for d in roll.dice if d.zone == OFF_MAT)
    if off:
        raise ImplausibleRollError(f"re-roll {off} {'die' if off == 1 else 'dice'} off the mat", rule)


def require_read(dice: Sequence[Die], rule: str | None = None) -> None:
    """Every die must be read confidently before a roll is accepted (rules/README.md)."""
    unread = [i + 1 for i, d in enumerate(dice) if not d.is_read]
    if unread:
        raise ImplausibleRollError(f"die {unread[0]} unreadable: check it", rule)


def require_faces(dice: Sequence[Die], faces: Sequence[int], rule: str | None = None) -> None:
    for d in dice:
        if d.kind == "pips" and d.value not in faces:
            raise ImplausibleRollError(f"no die face {d.value}", rule)


def count_kinds(dice: Sequence[Die]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for d in dice:
        counts[d.kind] = counts.get(d.kind, 0) + 1
    return counts


def winners_of(scores: Sequence[int], highest: bool = True) -> tuple[int, ...]:
    """Seats sharing the best score (ties share the win in every spec unless it says otherwise)."""
    best = max(scores) if highest else min(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)
