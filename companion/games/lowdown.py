"""Lowdown (rules/lowdown.md): the active player A rolls 2 colour + 2 number dice while H, A's right neighbour, hides
a pair; A uses one colour and one number die of one source, everybody else picks from the four dice left, and the
lowest total of numbers not crossed out wins.

Two modes (`mode`). light: the referee runs the dice, the wilds, the blackouts and the end, and takes each player's
word about their own board (LOW-24); "2 grids full" is declared through MENU and the players enter their totals.
full: the referee also keeps every board (lowdown_board.py), asks where each number goes and which lines are crossed,
and scores.

The hidden pair (LOW-23, LOW-26): the referee learns it only when H puts it in view, after A chose HIDDEN or entered
an OWN move, so no prompt, status or detail before that can hold it. Until then `visible` (asked by the table before
the read check or "Last read" sees a view) drops the dice lying in the tray's hidden zone (`hidden_zone`, a zone of
the calibration) and refuses a view of more than A's four dice as "hidden dice visible" before any die of it is read;
at the reveal the pair is read where it lies. While the others pick, it checks that the four pool dice stay put.

One turn, as `phase` values (A is `active`, the player deciding is `picker`):
    roll -> source -> OWN:    own_colour [-> aside, after a wild] -> own_number [-> place] [-> grid -> box] -> reveal
                      HIDDEN: reveal -> use [-> place] [-> grid -> box]
    each other player from A's left: place [-> pool_colour] [-> pool_number] -> grid -> box (full), place (light)
    full mode: cross, for each player with an eligible line; then the next roll, or the end: over (full),
    total per player (light) then over.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from .base import (OFF_MAT, ON_MAT, Choice, Decision, Die, Event, Game, IllegalActionError, ImplausibleRollError,
                   Interrupt, Option, Outcome, Roll, RollRequest, State, count_kinds, require_faces, require_on_mat,
                   require_read, winners_of)
from .lowdown_board import BLACK, BLACK_POINTS, EMPTY, Layout, initials

WILDS = 4                                  # LOW-5
MODES = ("light", "full")
A_ROLL = {"colour": 2, "pips": 2}          # LOW-1
HIDDEN_PAIR = {"colour": 1, "pips": 1}     # LOW-1
PICK_PHASES = ("place", "pool_colour", "pool_number", "grid", "box")


@dataclass(frozen=True)
class Options:
    mode: str = "light"
    colour_faces: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
    number_faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    grids: tuple[tuple[str, str], ...] = (("red", "orange"), ("purple", "blue"), ("green", "yellow"))
    grid_shape: tuple[int, int] = (3, 3)
    box_layout: tuple[str, ...] = ()
    hidden_zone: str = "hidden"      # the tray zone (calibration) where H's pair lies unread until the reveal

    def __post_init__(self):
        # A config file or a script gives lists, nested ones for `grids`: keep tuples, the documented type.
        for name in ("colour_faces", "number_faces", "grid_shape", "box_layout"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "grids", tuple(tuple(pair) for pair in self.grids))
        if self.mode not in MODES:
            raise IllegalActionError(f"lowdown: mode is light or full, not {self.mode!r}")
        if not self.number_faces or not all(isinstance(n, int) and n >= 0 for n in self.number_faces):
            raise IllegalActionError("lowdown: number_faces are whole numbers")
        if len(self.grids) < 2 or any(len(p) != 2 or not set(p) <= set(self.colour_faces) for p in self.grids):
            raise IllegalActionError("lowdown: grids are 2 or more pairs of colour_faces")
        if len(self.grid_shape) != 2 or not all(isinstance(n, int) and 1 <= n <= 9 for n in self.grid_shape):
            raise IllegalActionError("lowdown: grid_shape is [rows, columns], each 1-9")
        if not self.hidden_zone or self.hidden_zone in (ON_MAT, OFF_MAT):
            raise IllegalActionError("lowdown: hidden_zone names a tray zone, not mat or off")


class Pick(NamedTuple):
    """One player's move this turn, filled in as they answer."""

    how: str | None = None       # normal | wild | blackout
    colour: str | None = None    # the colour used for a normal placement
    number: int | None = None
    aside: str | None = None     # A only: the colour die A sets aside (LOW-7, LOW-14)
    grid: int | None = None      # full mode: where it goes
    box: str | None = None


@dataclass(frozen=True)
class LinesDecision(Decision):
    """The cross-out multi-select: lines sharing a box may not be crossed together (LOW-17). The screen brackets a
    line crossing a marked one and the state refuses such a set; random playouts draw only sets the rules accept."""

    def random_choice(self, rng: random.Random) -> Choice:
        chosen: list[str] = []
        for key in rng.sample(self.legal_keys(), len(self.legal_keys())):
            if rng.random() < 0.5 and all(frozenset((key, other)) not in self.conflicts for other in chosen):
                chosen.append(key)
        return Choice(tuple(chosen), self.player)


def _put(values: tuple, seat: int, value) -> tuple:
    return values[:seat] + (value,) + values[seat + 1:]


def _without(values: tuple, value) -> tuple:
    """`values` less one occurrence of `value`."""
    i = values.index(value)
    return values[:i] + values[i + 1:]


def _distinct(values) -> tuple:
    return tuple(dict.fromkeys(values))


def _kind_and_face(die: Die) -> tuple:
    """A die as ("colour", face) or ("pips", value), to match dice seen against dice known."""
    return ("colour", die.face) if die.kind == "colour" else (die.kind, die.value)


def _die(kind: str, face) -> Die:
    return Die(kind="colour", face=face) if kind == "colour" else Die(value=face)


def _kinds_and_faces(colours, numbers) -> list[tuple]:
    return [("colour", c) for c in colours] + [("pips", n) for n in numbers]


def dice_text(colours, numbers) -> str:
    """Dice as the OLED shows them (UI-11): "R B 2 5"."""
    return " ".join([c[:1].upper() for c in colours] + [str(n) for n in numbers])


class LowdownState(State):
    game: Lowdown

    def __init__(self, game: Lowdown):
        super().__init__(game)
        count = len(game.players)
        self.turn = 1
        self.active = game.setup.first
        self.phase = "roll"
        self.picker: int | None = None
        self.roll: tuple[tuple[str, ...], tuple[int, ...]] | None = None     # A's colours and numbers
        self.hidden: tuple[str, int] | None = None                           # once H has shown it
        self.source: str | None = None                                       # own | hidden
        self.pool: tuple[tuple[str, ...], tuple[int, ...]] | None = None
        self.pick = Pick()
        self.picked: tuple[Pick | None, ...] = (None,) * count
        self.wilds_used = (0,) * count
        self.blackouts = (0,) * count
        self.declared = (False,) * count                                     # light mode: "2 grids full"
        self.boards = (game.layout.empty_board(),) * count if game.full else ()
        self.crossed: tuple[tuple[str, ...], ...] = ((),) * count if game.full else ()
        self.end_triggered = False
        self.totals: tuple[int | None, ...] = (None,) * count                # light mode: entered at the end

    def copy(self) -> LowdownState:
        """Every field holds an immutable value (numbers, strings, tuples, Picks): a shallow copy is a whole one.
        The copy is about to change, so it drops the cached prompt."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.pop("_asked", None)
        return new

    # Seats ----------------------------------------------------------------------------------------------------------
    @property
    def hidden_roller(self) -> int:
        """H, A's right neighbour (LOW-1)."""
        return (self.active - 1) % len(self.game.players)

    @property
    def order(self) -> tuple[int, ...]:
        """Pick order: A, then seat order from A's left (turn flow 4 and 5)."""
        count = len(self.game.players)
        return tuple((self.active + k) % count for k in range(count))

    def _after(self, seat: int) -> tuple[int, ...]:
        order = self.order
        return order[order.index(seat) + 1:]

    def _name(self, seat: int) -> str:
        return self.game.players[seat][:8]

    def _filled(self, seat: int) -> int:
        """Boxes the player has filled: one per turn, whatever the move (LOW-4 to LOW-14)."""
        return self.turn - 1 + (self.picked[seat] is not None)

    # What the state waits for ---------------------------------------------------------------------------------------
    def expects(self) -> Decision | RollRequest | None:
        """Built once per state (apply, the table and playouts all ask again): states only change inside apply."""
        if "_asked" not in self.__dict__:
            self._asked = None if self.phase == "over" else getattr(self, f"_ask_{self.phase}")()
        return self._asked

    def _apply_roll(self, roll: Roll) -> None:
        getattr(self, f"_read_{self.phase}")(self.visible(roll))

    def visible(self, roll: Roll) -> Roll:
        """What the camera may read now (LOW-23, LOW-26, camera checks). Until the hidden pair is revealed, dice in
        the hidden zone are dropped unread, and more than A's four dice in view is refused before any is read or
        drawn. While the others pick, the four pool dice must all still be in view, unchanged."""
        if self._pair_unseen:
            dice = self._unhidden(roll.dice)
            if len(dice) > sum(A_ROLL.values()):
                raise ImplausibleRollError("hidden dice visible", "LOW-23")
            return Roll(dice, roll.player)
        if self.pool is not None and self.phase in PICK_PHASES:
            self._require_pool_still(roll.dice)
        return roll

    def _unhidden(self, dice) -> tuple[Die, ...]:
        """`dice` less those lying in the hidden zone before the reveal (LOW-23)."""
        if not self._pair_unseen:
            return tuple(dice)
        return tuple(d for d in dice if d.zone != self.game.options.hidden_zone)

    @property
    def _pair_unseen(self) -> bool:
        """From A's roll until H shows the pair (LOW-23): the pair is not known and must not be read."""
        return self.hidden is None and self.phase not in ("reveal", "total", "over")

    def _require_pool_still(self, dice) -> None:
        """The four pool dice must not change until every player has picked (camera checks): each must still be
        seen with its face. Other dice (A's set aside, not yet moved away) and unread ones are no evidence."""
        if not all(d.is_read for d in dice):
            return
        seen = [_kind_and_face(d) for d in dice if d.zone != OFF_MAT]
        for die in _kinds_and_faces(*self.pool):
            if die not in seen:
                raise ImplausibleRollError("a pool die moved", "LOW-26")
            seen.remove(die)

    def _apply_choice(self, choice: Choice) -> None:
        getattr(self, f"_on_{self.phase}")(choice.value)

    def _context(self) -> str:
        return f"turn {self.turn}"

    def _decide(self, seat: int, question: str, options, kind: str = "choose") -> Decision:
        """A choose-one (or grid cursor) whose cursor starts on the first legal row (controls.md defaults)."""
        options = tuple(options)
        default = next((o.key for o in options if o.enabled), None)
        return Decision(seat, kind, question, options, default=default, context=self._context())

    # A's roll and the hidden pair -----------------------------------------------------------------------------------
    def _ask_roll(self) -> RollRequest:
        return RollRequest(self.active, "Roll 2 colour+2 num", dict(A_ROLL),
                           lines=(f"{self._name(self.hidden_roller)} hides 1+1",), context=self._context())

    def _read_roll(self, roll: Roll) -> None:
        require_on_mat(roll, "LOW-1")
        self.roll = self._faces(roll.dice, A_ROLL)
        self.phase, self.picker = "source", self.active

    def _ask_reveal(self) -> RollRequest:
        colours, numbers = self._staying()
        return RollRequest(self.hidden_roller, "Show the hidden pair", dict(HIDDEN_PAIR),
                           lines=(f"{dice_text(colours, numbers)} stay in view",), context="hidden")

    def _read_reveal(self, roll: Roll) -> None:
        """LOW-26: the pair alone, or the pair with A's dice still in view, which must not have changed."""
        require_on_mat(roll, "LOW-1")
        require_read(roll.dice, "LOW-1")
        dice = list(roll.dice)
        colours, numbers = self._staying()
        if len(dice) == sum(HIDDEN_PAIR.values()) + len(colours) + len(numbers):
            for die in _kinds_and_faces(colours, numbers):
                same = [d for d in dice if _kind_and_face(d) == die]
                if not same:
                    raise ImplausibleRollError("a pool die moved", "LOW-26")
                dice.remove(same[0])
        (colour,), (number,) = self._faces(dice, HIDDEN_PAIR)
        self.hidden = (colour, number)
        if self.source == "hidden":
            self.pick = Pick(colour=colour, number=number, aside=colour)
            self.phase, self.picker = "use", self.active
        else:
            self._open_pool()

    def _faces(self, dice, want: dict[str, int]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The colours and numbers of `dice`, which must be read, of the kinds wanted and real faces (LOW-1)."""
        require_read(dice, "LOW-1")
        if count_kinds(dice) != want:
            raise ImplausibleRollError(f"need {want['colour']} colour+{want['pips']} num", "LOW-1")
        require_faces(dice, self.game.options.number_faces, "LOW-1")
        colours = tuple(d.face for d in dice if d.kind == "colour")
        unknown = [c for c in colours if c not in self.game.options.colour_faces]
        if unknown:
            raise ImplausibleRollError(f"no colour face {unknown[0]}"[:21], "LOW-1")
        return colours, tuple(d.value for d in dice if d.kind == "pips")

    def _staying(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """A's dice left in view once A's move is entered: all four with HIDDEN, the two not set aside with OWN."""
        colours, numbers = self.roll
        if self.source == "hidden":
            return colours, numbers
        return _without(colours, self.pick.aside), _without(numbers, self.pick.number)

    def _open_pool(self) -> None:
        """LOW-26: the others choose from the four dice A did not set aside, starting from A's left."""
        colours, numbers = self._staying()
        if self.source == "own":
            colours, numbers = colours + (self.hidden[0],), numbers + (self.hidden[1],)
        self.pool = (colours, numbers)
        self._next_picker(self.active)

    # A's move -------------------------------------------------------------------------------------------------------
    def _ask_source(self) -> Decision:
        options = (Option("own", f"Own {dice_text(*self.roll)}"),
                   Option("hidden", f"Hidden ({self._name(self.hidden_roller)})"))
        return self._decide(self.active, "Own dice or hidden?", options)

    def _on_source(self, value: str) -> None:
        """LOW-2, LOW-3: A chooses before seeing the pair; HIDDEN binds A to both hidden dice."""
        self.source = value
        self.phase = "own_colour" if value == "own" else "reveal"

    def _ask_own_colour(self) -> Decision:
        colours = _distinct(self.roll[0])
        options = [Option(c, c[:19], self._colour_ok(self.active, c, colours), f"no {c} box"[:21]) for c in colours]
        return self._decide(self.active, "Colour die?", options + [self._wild_option(self.active)])

    def _on_own_colour(self, value: str) -> None:
        if value == "wild":
            self.pick, self.phase = Pick(how="wild"), "aside"
        else:
            self.pick, self.phase = Pick(colour=value, aside=value), "own_number"

    def _ask_aside(self) -> Decision:
        """LOW-7: with a wild, A still sets aside one of A's colour dice."""
        return self._decide(self.active, "Colour to set aside?", (Option(c, c[:19]) for c in _distinct(self.roll[0])))

    def _on_aside(self, value: str) -> None:
        self.pick, self.phase = self.pick._replace(aside=value), "own_number"

    def _ask_own_number(self) -> Decision:
        return self._decide(self.active, "Number die?", (Option(str(n), str(n)) for n in _distinct(self.roll[1])))

    def _on_own_number(self, value: str) -> None:
        self.pick = self.pick._replace(number=int(value))
        if self.pick.how == "wild":
            self._to_board()
        else:
            self.phase = "place"

    def _ask_use(self) -> Decision:
        """HIDDEN: both hidden dice, as a normal move or with a wild; never back to OWN (LOW-3)."""
        colour, number = self.hidden
        use = Option("use", f"Use {colour} {number}"[:19], self._colour_ok(self.active, colour, (colour,)),
                     f"no {colour} box"[:21])
        return self._decide(self.active, "Use the hidden pair", (use, self._wild_option(self.active)))

    def _on_use(self, value: str) -> None:
        if value == "wild":
            self.pick = self.pick._replace(how="wild", colour=None)
            self._to_board()
        else:
            self.phase = "place"

    def _colour_ok(self, seat: int, colour: str, source: tuple[str, ...]) -> bool:
        """A colour die of A's source as a normal move (LOW-4); when no colour of the source fits and the wilds are
        used up, as the die set aside for a forced blackout (LOW-10 to LOW-14). Light mode takes A's word."""
        return self._fits(seat, (colour,)) or not (self._fits(seat, source) or self._wild_left(seat))

    def _wild_option(self, seat: int) -> Option:
        left = WILDS - self.wilds_used[seat]
        return Option("wild", f"Wild ({left} left)", left > 0, "no wilds left")

    def _wild_left(self, seat: int) -> bool:
        return self.wilds_used[seat] < WILDS

    def _fits(self, seat: int, colours) -> bool:
        """Full mode: some empty box takes one of `colours` (LOW-10). Light mode has no boards: always True."""
        return not self.game.full or self.game.layout.fits(self.boards[seat], colours)

    # Everybody's placement ------------------------------------------------------------------------------------------
    def _ask_place(self) -> Decision:
        """Normal, Wild or Blackout (LOW-5, LOW-6, LOW-11 to LOW-13, LOW-24). A, who chose a wild with the dice,
        is offered Normal or Blackout."""
        seat = self.picker
        if seat == self.active:
            normal = self._fits(seat, (self.pick.colour,))
            question = f"{self.pick.colour} {self.pick.number}: how?"
        else:
            normal = self._fits(seat, self.pool[0])
            question = f"Pool {dice_text(*self.pool)}: how?"
        wild_left = self._wild_left(seat)
        options = [Option("normal", "Normal")] if normal else []
        if seat != self.active:
            options.append(self._wild_option(seat))
        blackout = not wild_left and not (self.game.full and normal)
        options.append(Option("blackout", "Blackout", blackout, "use a wild first" if wild_left else "a move exists"))
        return self._decide(seat, question[:21], options)

    def _on_place(self, value: str) -> None:
        self.pick = self.pick._replace(how=value)
        if self.picker == self.active or not self.game.full or value == "blackout":
            self._to_board()
        else:
            self.phase = "pool_colour" if value == "normal" else "pool_number"

    def _ask_pool_colour(self) -> Decision:
        """Full mode, the others: any pool colour (LOW-8, LOW-9) that some box takes."""
        seat = self.picker
        return self._decide(seat, "Colour die?", (Option(c, c[:19], self._fits(seat, (c,)), f"no {c} box"[:21])
                                                  for c in _distinct(self.pool[0])))

    def _on_pool_colour(self, value: str) -> None:
        self.pick, self.phase = self.pick._replace(colour=value), "pool_number"

    def _ask_pool_number(self) -> Decision:
        return self._decide(self.picker, "Number die?", (Option(str(n), str(n)) for n in _distinct(self.pool[1])))

    def _on_pool_number(self, value: str) -> None:
        self.pick, self.phase = self.pick._replace(number=int(value)), "grid"

    def _to_board(self) -> None:
        if self.game.full:
            self.phase = "grid"
        else:
            self._finish_pick()

    def _doing(self) -> str:
        return {"normal": "Place", "wild": "Wild", "blackout": "Black out"}[self.pick.how] + (
            "" if self.pick.how == "blackout" else f" {self.pick.number}")

    def _target_colour(self) -> str | None:
        """The colour a box must take; None for a wild or a blackout, which go in any empty box (LOW-5, LOW-12)."""
        return self.pick.colour if self.pick.how == "normal" else None

    def _ask_grid(self) -> Decision:
        """Full mode: the grid first, full grids omitted, grids with no box for the colour in brackets."""
        layout, seat, colour = self.game.layout, self.picker, self._target_colour()
        board = self.boards[seat]
        options = (Option(key, "/".join(layout.grids[g])[:19], bool(layout.open_boxes(board, g, colour)),
                          f"no {colour} box"[:21])
                   for g, key in enumerate(layout.keys) if EMPTY in board[g])
        return self._decide(seat, f"{self._doing()}: grid?", options)

    def _on_grid(self, value: str) -> None:
        self.pick, self.phase = self.pick._replace(grid=self.game.layout.keys.index(value)), "box"

    def _ask_box(self) -> Decision:
        """Full mode: every box of the grid in reading order, so the screen can draw it; the legal ones enabled.
        A label is the box's row and column, then its number, B, or the colours an empty box takes: "12 R/O"."""
        layout, seat, g = self.game.layout, self.picker, self.pick.grid
        cells = self.boards[seat][g]
        legal = layout.open_boxes(self.boards[seat], g, self._target_colour())
        options = (Option(key, f"{key[-2:]} {layout.box_labels[g][i]}", i in legal, f"{layout.box_labels[g][i]} only")
                   if cells[i] is EMPTY else Option(key, f"{key[-2:]} {cells[i]}", False, "box taken")
                   for i, key in enumerate(layout.box_keys[g]))
        return self._decide(seat, f"{self._doing()}: box?", options, kind="grid")

    def _on_box(self, value: str) -> None:
        self.pick = self.pick._replace(box=value)
        self._finish_pick()

    def _finish_pick(self) -> None:
        """Record the move; full mode writes it on the board and checks the end trigger after it (LOW-21)."""
        seat, pick = self.picker, self.pick
        if pick.how == "wild":
            self.wilds_used = _put(self.wilds_used, seat, self.wilds_used[seat] + 1)
        elif pick.how == "blackout":
            self.blackouts = _put(self.blackouts, seat, self.blackouts[seat] + 1)
        if self.game.full:
            layout = self.game.layout
            board = layout.place(self.boards[seat], pick.box, BLACK if pick.how == "blackout" else pick.number)
            self.boards = _put(self.boards, seat, board)
            self.end_triggered = self.end_triggered or layout.full_grids(board) >= 2
        self.picked = _put(self.picked, seat, pick)
        if seat != self.active:
            self._next_picker(seat)
        elif self.source == "own":
            self.phase = "reveal"       # LOW-26: H shows the pair once A's move is entered
        else:
            self._open_pool()

    def _next_picker(self, after: int) -> None:
        rest = self._after(after)
        if rest:
            self.picker, self.pick, self.phase = rest[0], Pick(), "place"
        else:
            self._next_crosser(None)

    # Cross-outs, end of turn, end of game ---------------------------------------------------------------------------
    def _next_crosser(self, after: int | None) -> None:
        """Full mode: prompt in pick order the players who have an eligible line (turn flow 5)."""
        for seat in self.order if after is None else self._after(after):
            if self.game.full and self.game.layout.eligible_lines(self.boards[seat], self.crossed[seat]):
                self.picker, self.phase = seat, "cross"
                return
        self._end_turn()

    def _ask_cross(self) -> LinesDecision:
        layout, seat = self.game.layout, self.picker
        board = self.boards[seat]
        lines = layout.eligible_lines(board, self.crossed[seat])
        options = tuple(Option(line.key, f"{line.label}: {' '.join(str(board[line.grid][i]) for i in line.boxes)}")
                        for line in lines)
        keys = {line.key for line in lines}
        return LinesDecision(seat, "multi", "Cross out lines?", options, default=(), low=0, high=len(options),
                             context="cross out", conflicts=frozenset(p for p in layout.conflicts if p <= keys))

    def _on_cross(self, keys: tuple[str, ...]) -> None:
        seat = self.picker
        self.game.layout.check_crossing(self.boards[seat], self.crossed[seat], keys)
        self.crossed = _put(self.crossed, seat, self.crossed[seat] + tuple(keys))
        self._next_crosser(seat)

    def _end_turn(self) -> None:
        """LOW-19 to LOW-21: pass the dice left, or end once the turn that filled 2 grids is done."""
        if not self.game.full and self.turn >= self.game.layout.filled_forcing_end:
            # Light mode: each player has filled one box per turn, so 2 grids are full now even if nobody said so.
            self.end_triggered = True
        if self.end_triggered:
            self.phase, self.picker = ("over", None) if self.game.full else ("total", self.order[0])
            return
        count = len(self.game.players)
        self.turn += 1
        self.active = (self.active + 1) % count
        self.phase, self.picker = "roll", None
        self.roll = self.hidden = self.source = self.pool = None
        self.pick, self.picked = Pick(), (None,) * count

    def _ask_total(self) -> Decision:
        return Decision(self.picker, "spinner", "Your final total?", low=0, high=self.game.max_total, default=0,
                        context="final")

    def _on_total(self, value: int) -> None:
        self.totals = _put(self.totals, self.picker, value)
        rest = self._after(self.picker)
        self.phase, self.picker = ("total", rest[0]) if rest else ("over", None)

    def interrupts(self) -> tuple[Interrupt, ...]:
        """Light mode: any player may declare "2 grids full" once they have filled enough boxes for it (LOW-24)."""
        if self.game.full or self.phase in ("total", "over"):
            return ()
        enough = self.game.layout.fewest_filled_for_end
        return tuple(Interrupt(seat, Option(f"full:{seat}", "2 grids full"))
                     for seat in range(len(self.game.players))
                     if not self.declared[seat] and self._filled(seat) >= enough)

    def _apply_interrupt(self, choice: Choice) -> None:
        self.declared = _put(self.declared, choice.player, True)
        self.end_triggered = True
        if self.phase == "roll":
            self._end_turn()      # declared before this turn's roll: the turn that filled the grids was the last

    # Chance node ----------------------------------------------------------------------------------------------------
    def random_roll(self, rng: random.Random) -> Roll:
        """As the camera may see it: with A's roll, half of the time H's pair lying unread in the hidden zone; with
        the reveal, the pair in view or still in the hidden zone, and half of the time A's dice still on the mat."""
        zone = self.game.options.hidden_zone
        if self.phase == "roll":
            dice = self._random_dice(rng, A_ROLL)
            if rng.random() < 0.5:
                dice += self._random_dice(rng, HIDDEN_PAIR, zone)
        else:
            dice = self._random_dice(rng, HIDDEN_PAIR, rng.choice((ON_MAT, zone)))
            if rng.random() < 0.5:
                dice += [_die(kind, face) for kind, face in _kinds_and_faces(*self._staying())]
        rng.shuffle(dice)
        return Roll(tuple(dice), self.active if self.phase == "roll" else self.hidden_roller)

    def _random_dice(self, rng: random.Random, want: dict[str, int], zone: str = ON_MAT) -> list[Die]:
        options = self.game.options
        return ([Die(kind="colour", face=rng.choice(options.colour_faces), zone=zone) for _ in range(want["colour"])]
                + [Die(value=rng.choice(options.number_faces), zone=zone) for _ in range(want["pips"])])

    # Results --------------------------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Full mode: LOW-22 on the stored boards. Light mode: the totals entered so far, 0 until entered."""
        if self.game.full:
            return [self.game.layout.score(b, c) for b, c in zip(self.boards, self.crossed)]
        return [total or 0 for total in self.totals]

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        scores = tuple(self.scores())
        return Outcome(scores, winners_of(scores, highest=False), "lowest total wins")

    def status(self) -> str:
        if self.phase in ("total", "over"):
            return "Final totals" if self.phase == "total" else "Game over"
        seat = self.active if self.picker is None else self.picker
        return f"Wilds {self.wilds_used[seat]}/{WILDS}" + ("  last turn" if self.end_triggered else "")

    def detail(self) -> dict:
        """The spec's State names, `players` in seat order. `hidden` is null until H has shown the pair (LOW-23)."""
        layout, scores = self.game.layout, self.scores()
        players = []
        for seat, name in enumerate(self.game.players):
            player = {"name": name, "wilds_used": self.wilds_used[seat], "blackouts": self.blackouts[seat]}
            if self.game.full:
                player.update(grids_full=layout.full_grids(self.boards[seat]), board=layout.render(self.boards[seat]),
                              crossed=list(self.crossed[seat]), score=scores[seat])
            else:
                player.update(grids_full=2 if self.declared[seat] else None, total=self.totals[seat])
            picked = self.picked[seat]
            player["picked"] = None if picked is None else {k: v for k, v in picked._asdict().items() if v is not None}
            players.append(player)
        return {"mode": self.game.options.mode, "turn": self.turn, "active": self.game.players[self.active],
                "hidden_roller": self.game.players[self.hidden_roller],
                "roll": None if self.roll is None else [*self.roll[0], *self.roll[1]],
                "hidden": None if self.hidden is None else list(self.hidden), "source": self.source,
                "pool": None if self.pool is None else [*self.pool[0], *self.pool[1]],
                "players": players, "end_triggered": self.end_triggered}

    def describe(self, event: Event) -> str:
        if isinstance(event, Roll):
            dice = self._unhidden(event.dice)
            return "roll " + dice_text([d.face or "?" for d in dice if d.kind == "colour"],
                                       [d.label() for d in dice if d.kind != "colour"])
        for interrupt in self.interrupts():
            if interrupt.option.key == event.value:
                return f"{self._name(interrupt.player)} full"
        pending = self.expects()
        if isinstance(pending, Decision) and pending.kind == "spinner":
            return f"total {event.value}"
        if isinstance(pending, Decision) and pending.kind == "multi":
            return f"cross {len(event.value)} lines"
        if isinstance(pending, Decision) and pending.kind == "grid":
            return f"{self._doing()} {initials(self.game.layout.grids[self.pick.grid])} {event.value[-2:]}"
        labels = {o.key: o.label for o in pending.options} if isinstance(pending, Decision) else {}
        return labels.get(event.value, str(event.value))


class Lowdown(Game):
    name = "lowdown"
    title = "Lowdown"
    rule_prefix = "LOW"
    min_players = 2
    max_players = 4        # [DECIDED] 4 boards
    setup_choices = (("mode", MODES),)      # setup step 2: the host picks light (default) or full
    Options = Options
    state_class = LowdownState

    def __init__(self, setup):
        super().__init__(setup)
        self.layout = Layout(self.options.grids, self.options.grid_shape, self.options.box_layout)
        self.full = self.options.mode == "full"
        # LOW-22: the highest total possible, the top of the light-mode total spinner (162 with the defaults)
        self.max_total = self.layout.total_boxes * max(BLACK_POINTS, *self.options.number_faces)

    def taught_faces(self) -> dict[str, tuple[str, ...]]:
        """The colour dice's faces (LOW-25): the camera is taught them (calibrate colours)."""
        return {"colour": tuple(self.options.colour_faces)}


GAME = Lowdown
