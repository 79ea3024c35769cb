"""Countaloupe (rules/countaloupe.md): race to discard, in order, the 16 cards of the deck you hold.

How a turn is modelled:
- The roll is the chance node: k numbered dice, fixed by the held deck's `next` when the roll is made (CL-4, CL-5),
  plus the Chance Die, a Die(kind="symbol", face="blank" | "sweet" | "sour" | "nope").
- The Chance Die acts while the roll is accepted (CL-13, CL-25). Sweet, a tied Sour and a Nope on another player's
  deck open a choice of the roller; no block is offered while such a choice is open.
- The run (CL-6 to CL-8) is committed one card per step (CL-25). Each step is a Decision(kind="confirm") whose
  question is "Discard <card>" with the single option "yes"; answering it discards that card. The card on screen is
  not discarded yet, so a block between steps cancels it and every later card of the run. With `strict_steps` a
  player confirms each card; otherwise the step's Decision carries `auto_ms` (`discard_step_ms`)
  and the table answers it by itself after that delay. Auto or not, every step is a journaled
  choice, so replay and undo are exact.
- The End/Risk question shows the exact chance that a risk roll would discard a card (`risk_chance`, issue 5).
- The chip holder's block (CL-23) is a MENU interrupt keyed "block:<seat>", the seat holding the target deck.
- Dice off the mat (CL-28): the referee keeps the dice left in the area and asks "re-roll N dice"; the next reading
  must still show every kept die, else it is refused. The partial reading is accepted as an event rather than
  refused, because a refused event leaves no trace to check the kept dice against, and the journal must replay it.
- Single games have no points (CL-27): `scores()` gives the cards each player has discarded from the deck they hold
  (what CL-30 would score); with `multi_round` it gives the totals.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import takewhile

from .base import (OFF_MAT, Choice, Decision, Die, Event, Game, IllegalActionError, ImplausibleRollError, Interrupt,
                   Option, Outcome, Roll, RollRequest, State, require_read, whole_numbers)
from .odds import makeable_values, percent, risk_success_chance

LAST_CARD = 16
TARGET_TOTAL = 100  # CL-32
DECK_COLOURS = ("red", "blue", "green", "yellow")  # names only; setup.colours may rename the decks
CHANCE_MARKS = {"blank": "-", "sweet": "S", "sour": "O", "nope": "N"}  # the Chance Die's classes, marked as UI-11

ROLL, SWEET, SOUR, NOPE, STEP, END_RISK, OVER = "roll", "sweet", "sour", "nope", "step", "end/risk", "over"
CHANCE_CHOICES = (SWEET, SOUR, NOPE)


@dataclass(frozen=True)
class Options:
    number_faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    chance_faces: tuple[str, ...] = ("blank", "blank", "blank", "sweet", "sour", "nope")
    chance_die_body: str = "white"
    multi_round: bool = False
    discard_step_ms: int = 800
    strict_steps: bool = False

    def __post_init__(self):
        if not self.number_faces or not whole_numbers(self.number_faces, least=1):
            raise IllegalActionError("countaloupe: number_faces must be whole numbers above 0")
        if not self.chance_faces or set(self.chance_faces) - set(CHANCE_MARKS):
            raise IllegalActionError(f"countaloupe: chance_faces are {', '.join(CHANCE_MARKS)}")


def dice_for(next_card: int) -> int:
    """Numbered dice per roll (CL-4)."""
    return 3 if next_card <= 6 else 4 if next_card <= 11 else 5


def penalised(next_card: int) -> int:
    """The held deck's `next` after a failed risk roll (CL-12)."""
    return 9 if next_card >= 9 else 1


def run_from(next_card: int, dice: tuple[int, ...]) -> tuple[int, ...]:
    """The cards a roll discards: `next`, `next`+1, ... up to the first value the dice cannot make (CL-6 to CL-8)."""
    makeable = makeable_values(dice)
    return tuple(takewhile(makeable.__contains__, range(next_card, LAST_CARD + 1)))


def _die_text(die: Die) -> str:
    return CHANCE_MARKS.get(die.face, die.label()) if die.kind == "symbol" else die.label()


def _die_from_label(label: str) -> Die:
    return Die(value=int(label)) if label.isdigit() else Die(kind="symbol", face=label)


def _dice_word(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


class CountaloupeState(State):
    def __init__(self, game: Countaloupe):
        super().__init__(game)
        n = len(game.players)
        self.next = [1] * n            # per deck; deck d is the colour player d started with
        self.holds = list(range(n))    # player -> deck (a permutation, CL-2)
        self.chip_holder: int | None = None  # HELD(player); both None is MIDDLE
        self.chip_deck: int | None = None    # ON(deck)
        self.active = game.setup.first
        self.round_first = game.setup.first
        self.round = 1
        self.total = [0] * n
        self.roll_no = 0
        self.phase = ROLL
        self.dice: tuple[int, ...] = ()   # numbered dice of the roll being resolved
        self.run: tuple[int, ...] = ()    # cards still to commit
        self.tied: tuple[int, ...] = ()   # Sour: the lowest other players when tied
        self.kept: tuple[str, ...] = ()   # CL-28: labels of the dice left in the area
        self.off = 0                      # CL-28: dice to re-roll
        self.winners: tuple[int, ...] = ()
        self.note = ""                    # what the last event did, for the status line

    def copy(self) -> CountaloupeState:
        """A fast copy for playouts: the lists are the only mutable data; everything else is immutable."""
        new = object.__new__(CountaloupeState)
        new.__dict__.update(self.__dict__)
        new.next, new.holds, new.total = list(self.next), list(self.holds), list(self.total)
        return new

    # Names -----------------------------------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return self.game.players[seat][:8]

    def _colour(self, deck: int) -> str:
        return self.game.decks[deck]

    def _next_of(self, seat: int) -> int:
        return self.next[self.holds[seat]]

    def _others(self) -> list[int]:
        """The other players, clockwise from the active player's left (CL-1)."""
        n = len(self.game.players)
        return [(self.active + i) % n for i in range(1, n)]

    def _chip_text(self) -> str:
        if self.chip_holder is not None:
            return f"HELD({self.game.players[self.chip_holder]})"
        if self.chip_deck is not None:
            return f"ON({self._colour(self.chip_deck)})"
        return "MIDDLE"

    def _chip_where(self) -> str:
        """The chip's place in a few characters, for the OLED."""
        if self.chip_holder is not None:
            return self._name(self.chip_holder)
        return "mid" if self.chip_deck is None else f"on {self._colour(self.chip_deck)}"

    @property
    def k(self) -> int:
        return dice_for(self._next_of(self.active))

    # What the state waits for ------------------------------------------------------------------------------------
    def expects(self) -> Decision | RollRequest | None:
        p = self.active
        context = f"roll {self.roll_no + 1}" + (f" R{self.round}" if self.game.options.multi_round else "")
        if self.phase == OVER:
            return None
        if self.phase == ROLL:
            message = f"re-roll {_dice_word(self.off)}" if self.off else f"roll {self.k} dice + C"
            return RollRequest(p, message, {"pips": self.k, "symbol": 1}, lines=self._lines(), context=context)
        if self.phase == SWEET:
            options = (Option("keep", "Keep"),) + tuple(self._sweet_option(q) for q in self._others())
            return Decision(p, "choose", "Sweet: swap decks?", options, "keep", context=context)
        if self.phase == SOUR:
            options = tuple(Option(f"p{q}", self._deck_label(q)) for q in self.tied)
            return Decision(p, "choose", "Sour: swap with?", options, options[0].key, context=context)
        if self.phase == NOPE:
            options = (Option("leave", "Leave"), Option("take", "Take the chip"))
            return Decision(p, "choose", f"Chip on {self._colour(self.chip_deck)}"[:21], options, "leave",
                            context=context)
        if self.phase == STEP:
            card = self.run[0]
            auto = None if self.game.options.strict_steps else self.game.options.discard_step_ms
            return Decision(p, "confirm", f"Discard {card}", (Option("yes", f"Discard {card}"),), "yes",
                            context=context, auto_ms=auto)
        options = (Option("end", "End turn"), Option("risk", "Risk"))
        return Decision(p, "choose", f"Risk {percent(self.risk_chance())} safe", options, "end", context=context)

    def risk_chance(self) -> Fraction:
        """The exact chance that a risk roll by the active player now discards at least one card (shown before
        End/Risk): its dice make the next card and no forced Sour swap voids them (CL-18). The chip cannot be on the
        roller's deck here: a block on it would have ended the turn (CL-24)."""
        options = self.game.options
        voiding = ("sour",) if self._sour_swaps() else ()
        return risk_success_chance(self._next_of(self.active), self.k, options.number_faces, options.chance_faces,
                                   voiding)

    def _sweet_option(self, seat: int) -> Option:
        """Another player's deck to take; the chip holder's is bracketed (CL-16, UI-6)."""
        protected = seat == self.chip_holder
        return Option(f"p{seat}", self._deck_label(seat), not protected, "holds the chip" if protected else "")

    def _deck_label(self, seat: int) -> str:
        return f"{self._name(seat)} {self._colour(self.holds[seat])} {self._next_of(seat)}"[:19]

    def _lines(self) -> tuple[str, ...]:
        decks = tuple(self._deck_label(q) for q in [self.active] + self._others())
        return decks + (f"chip {self._chip_where()}"[:21],)

    def interrupts(self) -> tuple[Interrupt, ...]:
        """The chip holder's blocks (CL-23): any other player's deck, active player first; none while a Chance Die
        choice is open (CL-25) and never the holder's own deck (CL-26)."""
        holder = self.chip_holder
        if holder is None or self.phase in CHANCE_CHOICES + (OVER,):
            return ()
        return tuple(Interrupt(holder, Option(f"block:{q}", f"Block {self._name(q)}"))
                     for q in [self.active] + self._others() if q != holder)

    # Rolls -------------------------------------------------------------------------------------------------------
    def _apply_roll(self, roll: Roll) -> None:
        if roll.player is not None and roll.player != self.active:
            raise ImplausibleRollError(f"{self._name(self.active)} rolls now", "CL-25")  # e.g. a blocked roller
        self.note = ""
        options = self.game.options
        numbered = [d for d in roll.dice if d.kind == "pips"]
        chance = [d for d in roll.dice if d.kind == "symbol"]
        if len(numbered) != self.k or len(chance) != 1 or len(roll.dice) != self.k + 1:
            raise ImplausibleRollError(f"need {self.k} dice + C", "CL-29")
        in_area = [d for d in roll.dice if d.zone != OFF_MAT]
        require_read(in_area, "CL-33")
        for die in roll.dice:
            if die.is_read and die.kind == "pips" and die.value not in options.number_faces:
                raise ImplausibleRollError(f"no die face {die.value}", "CL-33")
            if die.is_read and die.kind == "symbol" and die.face not in options.chance_faces:
                raise ImplausibleRollError(f"no Chance face {die.face}"[:21], "CL-33")
        labels = Counter(d.label() for d in in_area)
        if Counter(self.kept) - labels:
            raise ImplausibleRollError("a kept die changed", "CL-28")
        self.off = len(roll.dice) - len(in_area)
        if self.off:
            self.kept = tuple(sorted(labels.elements()))
            self.note = f"re-roll {_dice_word(self.off)}"
            return
        self.kept = ()
        self.dice = tuple(d.value for d in numbered)
        self._apply_chance(chance[0].face)

    def _apply_chance(self, face: str) -> None:
        """The Chance Die, before the numbered dice (CL-13 to CL-21)."""
        p = self.active
        if face == "sweet":
            self.phase = SWEET
            return
        if face == "sour":
            if not self._sour_swaps():
                self.note = "Sour: keep deck"  # CL-19
            else:
                low = min(self._next_of(q) for q in self._others())
                self.tied = tuple(q for q in self._others() if self._next_of(q) == low)
                if len(self.tied) > 1:
                    self.phase = SOUR
                else:
                    self._swap(self.tied[0])
                return
        if face == "nope":
            if self.chip_deck is not None and self.chip_deck != self.holds[p]:
                self.phase = NOPE
                return
            self.chip_holder, self.chip_deck = p, None  # CL-21
        self._evaluate()

    def _sour_swaps(self) -> bool:
        """Whether Sour forces a swap: some other deck is lower than the active player's (CL-18, CL-19)."""
        return self._next_of(self.active) > min(self._next_of(q) for q in self._others())

    def _swap(self, other: int) -> None:
        """Swap held decks; the chip stays where it is, on a deck or in a hand (CL-17, CL-18); the turn ends with no
        penalty (CL-15, CL-18, CL-20)."""
        p = self.active
        self.holds[p], self.holds[other] = self.holds[other], self.holds[p]
        self.note = f"swapped with {self._name(other)}"
        self._end_turn()

    def _evaluate(self) -> None:
        """The numbered dice (turn flow steps 3 to 6)."""
        deck = self.holds[self.active]
        if self.chip_deck == deck:
            self.note = "deck blocked"  # CL-22
            self._end_turn()
            return
        self.run = run_from(self.next[deck], self.dice)
        if self.run:
            self.phase = STEP
            return
        if self.roll_no:
            before = self.next[deck]
            self.next[deck] = penalised(before)  # CL-12
            self.note = f"penalty: {before} to {self.next[deck]}"
        else:
            self.note = f"no {self.next[deck]}: turn over"  # CL-9
        self._end_turn()

    def _end_turn(self) -> None:
        self.active = (self.active + 1) % len(self.game.players)  # CL-1
        self.roll_no = 0
        self.phase = ROLL
        self.dice = self.run = self.tied = self.kept = ()
        self.off = 0

    # Choices -----------------------------------------------------------------------------------------------------
    def _apply_choice(self, choice: Choice) -> None:
        self.note = ""
        key = choice.value
        if self.phase == SWEET:
            if key == "keep":
                self._evaluate()
            else:
                self._swap(int(key[1:]))
        elif self.phase == SOUR:
            self._swap(int(key[1:]))
        elif self.phase == NOPE:
            if key == "take":
                self.chip_holder, self.chip_deck = self.active, None
            self._evaluate()
        elif self.phase == STEP:
            self._commit()
        elif key == "risk":
            self.roll_no += 1
            self.phase = ROLL
        else:
            self._end_turn()

    def _commit(self) -> None:
        """Discard the card on screen (CL-3); card 16 wins at once (CL-27)."""
        card, self.run = self.run[0], self.run[1:]
        self.next[self.holds[self.active]] = card + 1
        if card == LAST_CARD:
            self._finish_round()
        elif not self.run:
            self.phase = END_RISK  # CL-10

    def _finish_round(self) -> None:
        p = self.active
        if not self.game.options.multi_round:
            self.winners = (p,)
            self.phase = OVER
            return
        for q, score in enumerate(self._cards_discarded()):  # CL-30
            self.total[q] += score
        best = max(self.total)
        if best >= TARGET_TOTAL and self.total.count(best) == 1:  # CL-32
            self.winners = (self.total.index(best),)
            self.phase = OVER
            return
        n = len(self.game.players)  # CL-31
        self.next = [1] * n
        self.holds = list(range(n))
        self.chip_holder = self.chip_deck = None
        self.round += 1
        self.round_first = (self.round_first + 1) % n
        self._end_turn()
        self.active = self.round_first
        self.note = f"round {self.round}"

    def _cards_discarded(self) -> list[int]:
        return [self._next_of(q) - 1 for q in range(len(self.game.players))]

    def _apply_interrupt(self, choice: Choice) -> None:
        """Block (CL-23, CL-24): the chip goes on the target deck; blocking the active player ends the turn and
        cancels the cards not yet committed, with no penalty."""
        target = int(str(choice.value).split(":")[1])
        self.note = f"{self._name(choice.player)} blocks {self._name(target)}"
        self.chip_holder, self.chip_deck = None, self.holds[target]
        if target == self.active:
            self._end_turn()

    # Chance node -------------------------------------------------------------------------------------------------
    def random_roll(self, rng: random.Random) -> Roll:
        """Fresh dice, or the kept dice plus fresh ones for those re-rolled; now and then one die lands off the mat."""
        options = self.game.options
        kept = [_die_from_label(label) for label in self.kept]
        numbered = self.k - sum(1 for d in kept if d.kind == "pips")
        dice = kept + [Die(value=rng.choice(options.number_faces)) for _ in range(numbered)]
        if not any(d.kind == "symbol" for d in kept):
            dice.append(Die(kind="symbol", face=rng.choice(options.chance_faces)))
        if rng.random() < 0.05:
            wayward = rng.randrange(len(kept), len(dice))
            dice[wayward] = Die(kind=dice[wayward].kind, zone=OFF_MAT)
        return Roll(tuple(dice), self.active)

    # Results -----------------------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.total) if self.game.options.multi_round else self._cards_discarded()

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        reason = "first to 100" if self.game.options.multi_round else "discarded card 16"
        return Outcome(tuple(self.scores()), self.winners, reason)

    def status(self) -> str:
        if self.phase == OVER:
            return f"{self._name(self.winners[0])} wins"
        if self.note:
            return self.note[:21]
        return f"{self._colour(self.holds[self.active])} {self._next_of(self.active)} chip {self._chip_where()}"[:21]

    def detail(self) -> dict:
        players = self.game.players
        out = {
            "players": list(players),
            "active": players[self.active],
            "first_player": players[self.game.setup.first],
            "next": {self._colour(d): n for d, n in enumerate(self.next)},
            "holds": {players[q]: self._colour(d) for q, d in enumerate(self.holds)},
            "chip": self._chip_text(),
            "roll_no": self.roll_no,
            "k": self.k,
            "run": list(self.run),
        }
        if self.game.options.multi_round:
            out.update(total=dict(zip(players, self.total)), round_first=players[self.round_first], round=self.round)
        return out

    def describe(self, event: Event) -> str:
        if isinstance(event, Roll):
            return "roll " + " ".join(_die_text(d) for d in event.dice)
        key = str(event.value)
        if key.startswith("block:"):
            return f"block {self._name(int(key[6:]))}"
        if key.startswith("p"):
            return f"swap with {self._name(int(key[1:]))}"
        return {"keep": "keep deck", "leave": "leave chip", "take": "take chip", "end": "end turn", "risk": "risk",
                "yes": f"discard {self.run[0] if self.run else ''}"}.get(key, key)


class Countaloupe(Game):
    name = "countaloupe"
    title = "Countaloupe"
    rule_prefix = "CL"
    min_players = 2
    max_players = 4
    Options = Options
    state_class = CountaloupeState

    def __init__(self, setup):
        super().__init__(setup)
        count = len(self.players)
        if setup.colours and len(setup.colours) != count:
            raise IllegalActionError("countaloupe: one deck colour per player")
        self.decks = tuple(setup.colours) or DECK_COLOURS[:count]

    def taught_faces(self) -> dict[str, tuple[str, ...]]:
        """The Chance Die's faces, each once (CL-33): the camera is taught them (calibrate chance-die)."""
        return {"symbol": tuple(dict.fromkeys(self.options.chance_faces))}


GAME = Countaloupe
