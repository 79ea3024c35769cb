"""BANX (Getta 1 Games): poker-dice categories over 13 turns, BANX discs for early stops, then the Shootout.

Spec: rules/banx.md (BANX-n). One state machine runs the game: `phase` MAIN (13 turns each) -> SHOOTOUT -> OVER, and
`step` says what the table owes next: a fresh roll of all five dice, a re-roll, the dice to re-roll (only with
keep_input "buttons"), Score or Roll again (Roll or Stop in the Shootout), the Extra BOOM notice, or a category.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .banx_scoring import (BOOM, CATEGORIES, all_points, final_score, is_five_of_a_kind, sheet_names,
                           shootout_entries)
from .base import (Choice, Decision, Die, Event, Game, IllegalActionError, ImplausibleRollError, Option, Outcome,
                   Roll, RollRequest, State, require_faces, require_on_mat, require_read, whole_numbers,
                   winners_of)

DISCS = 20              # BANX discs in the box
START_DISCS = 2         # BANX-1
FREE_ROLLS = 3          # BANX-4: rolls 2 and 3 are free
REWARD = {1: 2, 2: 1}   # BANX-5: discs for scoring after roll 1 or 2
DICE = 5

MAIN, SHOOTOUT, OVER = "MAIN", "SHOOTOUT", "OVER"
ROLL, REROLL, PICK, DECIDE, EXTRA, CATEGORY = "roll", "reroll", "pick", "decide", "extra", "category"
KEEP_INPUTS = ("strip", "buttons")


@dataclass(frozen=True)
class Options:
    """The spec's config keys: the [ASSUME] components (faces, player_colours, top_names, extra_boom_cap) and the
    house options of BANX-16, BANX-17, BANX-22, BANX-25 and of how kept dice are entered (keep_input)."""

    faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    player_colours: tuple[str, ...] = ("red", "blue", "green", "yellow")
    top_names: tuple[str, ...] = ("Threes", "Fours", "Fives")
    extra_boom_cap: int | None = None
    extra_boom_needs_50: bool = True
    extra_boom_optional: bool = False
    open_discs: bool = False
    shootout_free_first_roll: bool = False
    keep_input: str = "strip"

    def __post_init__(self):
        if self.keep_input not in KEEP_INPUTS:
            raise IllegalActionError(f"banx: keep_input is {' or '.join(KEEP_INPUTS)}")
        cap = self.extra_boom_cap
        if cap is not None and not whole_numbers([cap]):
            raise IllegalActionError("banx: extra_boom_cap is a count >= 0 or none")
        if len(self.top_names) != 3 or not all(isinstance(n, str) and n for n in self.top_names):
            raise IllegalActionError("banx: top_names needs 3 names")
        if not self.faces or not whole_numbers(self.faces):
            raise IllegalActionError("banx: faces must be numbers")


class Banx(Game):
    name = "banx"
    title = "BANX"
    rule_prefix = "BANX"
    min_players = 2
    max_players = 4
    needs_colours = True
    Options = Options

    def __init__(self, setup):
        super().__init__(setup)
        options = self.options
        strange = [c for c in setup.colours if c not in options.player_colours]
        if strange:
            raise IllegalActionError(f"banx: colour {strange[0]!r} is not in player_colours")
        self.names = sheet_names(options.top_names)


def dice_text(values) -> str:
    return " ".join(map(str, values))


class BanxState(State):
    def __init__(self, game: Banx):
        super().__init__(game)
        count = len(game.players)
        self.sheets = [dict.fromkeys(CATEGORIES) for _ in range(count)]
        self.extra_booms = [0] * count
        self.discs = [START_DISCS] * count                      # BANX-1
        self.supply = DISCS - START_DISCS * count
        self.shootout = [0] * count
        self.phase = MAIN
        self.order: tuple[int, ...] = ()
        self.rolls_left = 0
        self._start_turn(game.setup.first)

    def copy(self) -> BanxState:
        # Copying the few lists by hand is ~18x faster than deepcopy; with deepcopy the playouts took 1.7x as long.
        new = object.__new__(BanxState)
        new.__dict__.update(self.__dict__)
        new.sheets = [dict(sheet) for sheet in self.sheets]
        new.extra_booms, new.discs, new.shootout = list(self.extra_booms), list(self.discs), list(self.shootout)
        return new

    # ------------------------------------------------------------------------------------------- what comes next
    def expects(self) -> Decision | RollRequest | None:
        if self.phase == OVER:
            return None
        if self.step in (ROLL, REROLL):
            return self._roll_request()
        return {PICK: self._pick_decision, DECIDE: self._roll_or_stop, EXTRA: self._extra_boom_notice,
                CATEGORY: self._category_decision}[self.step]()

    @property
    def _context(self) -> str:
        if self.phase == SHOOTOUT:
            return f"shoot roll {self.roll_no}"
        turn = len(CATEGORIES) + 1 - list(self.sheets[self.active].values()).count(None)
        return f"roll {self.roll_no} T{turn}"

    def _roll_request(self) -> RollRequest:
        colour = self.game.setup.colours[self.active]
        if self.phase == SHOOTOUT:
            lines = (f"Shootout total {self.shootout[self.active]}", f"Best so far {max(self.shootout)}",
                     f"Rolls left {self.rolls_left}")
        elif self.step == ROLL:
            lines = ("Extra BOOM: X marked",) if self.dice else ()
        elif self.game.options.keep_input == "strip":
            lines = (f"Last: {dice_text(self.dice)}", "Kept dice: in strip")
        else:
            lines = (f"Keep: {dice_text(self.kept)}", f"Roll the other {DICE - len(self.kept)}")
        message = f"Roll {DICE} {colour} dice" if self.step == ROLL else f"Re-roll {colour} dice"
        return RollRequest(self.active, message, {"pips": DICE}, owner=colour, lines=lines, context=self._context)

    def _pick_decision(self) -> Decision:
        options = tuple(Option(f"d{i}", f"Die {i}: {v}") for i, v in enumerate(self.dice, 1))
        return Decision(self.active, "multi", "Dice to re-roll", options, default=(), low=1, high=DICE,
                        context=self._context)                    # BANX-3

    def _roll_or_stop(self) -> Decision:
        shown = dice_text(self.dice)
        if self.phase == SHOOTOUT:                                # BANX-30
            options = (Option("roll", "Roll again"), Option("stop", "Stop"))
            return Decision(self.active, "choose", f"{shown} = {sum(self.dice)}", options, "roll",
                            context=self._context)
        if self.roll_no < FREE_ROLLS:                             # BANX-4
            options, default = (Option("score", "Score"), Option("roll", "Roll again")), "roll"
        else:                                                     # BANX-4, BANX-22
            pay = (Option("pay", "Pay 1 disc & roll"),) if self.discs[self.active] else ()
            options, default = (Option("score", "Score"),) + pay, "score"
        return Decision(self.active, "choose", f"{shown} score/roll?", options, default, context=self._context)

    def _extra_boom_notice(self) -> Decision:
        optional = self.game.options.extra_boom_optional          # BANX-17
        options = (Option("yes", "Take the X +50" if optional else "Mark the X +50"),
                   Option("no", "Score the dice" if optional else "Mark the X +50"))
        return Decision(self.active, "confirm", "Extra BOOM! +50", options, "yes", context=self._context)

    def _category_decision(self) -> Decision:
        sheet, worth = self.sheets[self.active], all_points(self.dice)
        rows = sorted((-worth[key], index, key)
                      for index, key in enumerate(CATEGORIES) if sheet[key] is None)     # BANX-7, BANX-8
        options = tuple(Option(key, f"{self.game.names[key]:<14}{-minus:>3}") for minus, _, key in rows)
        return Decision(self.active, "choose", f"{dice_text(self.dice)} category", options, options[0].key,
                        context=self._context)

    # ----------------------------------------------------------------------------------------------- the dice
    def _apply_roll(self, roll: Roll) -> None:
        if roll.player is not None and roll.player != self.active:
            raise ImplausibleRollError(f"{self.game.players[self.active]}'s dice now")
        self.dice = self._read(roll)
        if self.phase == SHOOTOUT:
            self.shootout[self.active] = sum(self.dice)           # BANX-25, BANX-28
            self.rolls_left -= 1
            if self.rolls_left:
                self.step = DECIDE
            else:
                self._next_shooter(after=self.active)
        else:
            self.step = EXTRA if self._extra_boom_due() else DECIDE

    def _read(self, roll: Roll) -> tuple[int, ...]:
        """The active player's five values, sorted, after the camera checks of the spec."""
        colour = self.game.setup.colours[self.active]
        mine = self._active_dice(roll)
        require_on_mat(Roll(mine))
        if len(mine) != DICE:
            raise ImplausibleRollError(f"{len(mine)} {colour} dice: need {DICE}", "BANX-2")
        if any(d.kind != "pips" for d in mine):
            raise ImplausibleRollError("only pip dice count", "BANX-2")
        require_read(mine)
        require_faces(mine, self.game.options.faces)
        values = sorted(d.value for d in mine)
        if self.step == ROLL:
            if any(d.zone == "keep" for d in mine):
                rule = "BANX-25" if self.phase == SHOOTOUT else "BANX-18" if self.dice else "BANX-2"
                raise ImplausibleRollError(f"roll all {DICE} dice", rule)
        elif self.game.options.keep_input == "strip":
            kept = [d.value for d in mine if d.zone == "keep"]
            if len(kept) == DICE:
                raise ImplausibleRollError("roll at least 1 die", "BANX-3")
            changed = Counter(kept) - Counter(self.dice)
            if changed:
                raise ImplausibleRollError(f"kept {min(changed)} was not rolled", "BANX-3")
        else:
            missing = Counter(self.kept) - Counter(values)
            if missing:
                raise ImplausibleRollError(f"put back the kept {min(missing)}", "BANX-3")
        return tuple(values)

    def _active_dice(self, roll: Roll) -> tuple[Die, ...]:
        """The dice that count: the active player's colour, or no colour seen (a script or an uncalibrated camera)."""
        colour = self.game.setup.colours[self.active]
        return tuple(d for d in roll.dice if d.owner in (None, colour))

    def _extra_boom_due(self) -> bool:
        """BANX-16 and BANX-29: five of a kind with BOOM filled (with 50 by default) and room for another X."""
        options = self.game.options
        boom = self.sheets[self.active]["boom"]
        return (is_five_of_a_kind(self.dice) and boom is not None and (boom == BOOM or not options.extra_boom_needs_50)
                and (options.extra_boom_cap is None or self.extra_booms[self.active] < options.extra_boom_cap))

    def random_roll(self, rng: random.Random) -> Roll:
        colour = self.game.setup.colours[self.active]
        if self.step == ROLL:
            kept: tuple[int, ...] = ()
        elif self.game.options.keep_input == "buttons":
            kept = self.kept
        else:
            kept = tuple(rng.sample(self.dice, rng.randint(0, DICE - 1)))
        owner = rng.choice((None, colour))
        faces = self.game.options.faces
        dice = [Die(v, owner=owner, zone="keep") for v in kept]
        dice += [Die(rng.choice(faces), owner=owner) for _ in range(DICE - len(kept))]
        others = [c for c in self.game.setup.colours if c != colour]
        if rng.random() < 0.2:                                  # a die of another player lying in view
            dice.append(Die(rng.choice(faces), owner=rng.choice(others)))
        rng.shuffle(dice)
        return Roll(tuple(dice), self.active)

    # --------------------------------------------------------------------------------------------- the choices
    def _apply_choice(self, choice: Choice) -> None:
        value = choice.value
        if self.step == PICK:
            picked = {int(key[1:]) - 1 for key in value}
            self.kept = tuple(v for i, v in enumerate(self.dice) if i not in picked)
            self.step = REROLL
        elif self.step == EXTRA:
            if value == "yes" or not self.game.options.extra_boom_optional:
                self.extra_booms[self.active] += 1                # BANX-16, BANX-17
                self.step = ROLL                                  # BANX-18: all five, same roll_no, no disc
            else:
                self.step = DECIDE
        elif self.step == CATEGORY:
            self._score(value)
        elif value == "score":
            self.step = CATEGORY
        elif value == "stop":
            self._next_shooter(after=self.active)
        else:
            if value == "pay":                                    # BANX-4
                self.discs[self.active] -= 1
                self.supply += 1
            self.roll_no += 1
            self.step = PICK if self.game.options.keep_input == "buttons" else REROLL

    def _score(self, key: str) -> None:
        seat = self.active
        self.sheets[seat][key] = all_points(self.dice)[key]
        reward = min(REWARD.get(self.roll_no, 0), self.supply)   # BANX-5, BANX-6
        self.discs[seat] += reward
        self.supply -= reward
        if all(None not in sheet.values() for sheet in self.sheets):
            self._start_shootout()
        else:
            self._start_turn((seat + 1) % len(self.sheets))

    def _start_turn(self, seat: int) -> None:
        self.active, self.roll_no, self.dice, self.kept, self.step = seat, 1, (), (), ROLL

    def _start_shootout(self) -> None:
        """BANX-23, BANX-24: fewest discs first, equal counts in seat order from the first player."""
        count, first = len(self.sheets), self.game.setup.first
        seats = [(first + i) % count for i in range(count)]
        self.phase = SHOOTOUT
        self.order = tuple(sorted(seats, key=lambda seat: self.discs[seat]))
        self._next_shooter(after=None)

    def _next_shooter(self, after: int | None) -> None:
        """Hand the dice to the next player in order after seat `after` (None: the first) who has a roll (BANX-25,
        BANX-26, BANX-31), or end the game."""
        start = 0 if after is None else self.order.index(after) + 1
        for seat in self.order[start:]:
            rolls = self.discs[seat] + int(self.game.options.shootout_free_first_roll)
            if rolls:
                self._start_turn(seat)
                self.rolls_left = rolls
                return
        self.phase, self.step, self.rolls_left = OVER, None, 0

    # ------------------------------------------------------------------------------------------------ results
    def entries(self) -> list[int]:
        """Recorded Shootout entries: only once the Shootout is over (BANX-27)."""
        return shootout_entries(self.shootout) if self.phase == OVER else [0] * len(self.sheets)

    def scores(self) -> list[int]:
        return [final_score(sheet, x, entry)
                for sheet, x, entry in zip(self.sheets, self.extra_booms, self.entries())]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = self.scores()
        return Outcome(tuple(scores), winners_of(scores))        # BANX-21: ties share

    def status(self) -> str:
        if self.phase == SHOOTOUT:                                # BANX-23, BANX-31: counts are public now
            return f"Discs {self.discs[self.active]}  Rolls {self.rolls_left}"
        if self.phase == OVER:
            return "Game over"
        if self.game.options.open_discs:                         # BANX-22
            return f"Supply {self.supply}  Discs {self.discs[self.active]}"
        return f"Supply {self.supply}"

    def detail(self) -> dict:
        names = self.game.names
        players = [{"sheet": {names[k]: v for k, v in sheet.items()}, "extra_booms": x, "discs": discs,
                    "shootout": total}
                   for sheet, x, discs, total in zip(self.sheets, self.extra_booms, self.discs, self.shootout)]
        return {"players": players, "supply": self.supply, "phase": self.phase, "active": self.active,
                "roll_no": self.roll_no, "dice": list(self.dice), "order": list(self.order),
                "rolls_left": self.rolls_left}

    def describe(self, event: Event) -> str:
        pending = self.expects()
        if isinstance(event, Roll):
            return super().describe(Roll(self._active_dice(event)))
        if not isinstance(pending, Decision):
            return super().describe(event)
        if pending.kind == "multi":
            return f"re-roll {len(event.value)} dice"
        labels = {o.key: " ".join(o.label.split()) for o in pending.options}
        return labels.get(event.value, super().describe(event))


Banx.state_class = BanxState
GAME = Banx
