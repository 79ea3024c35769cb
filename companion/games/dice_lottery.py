"""Dice Lottery (working title): lay blocks of number cards, earn dice from a shared pool, then a token lottery pays
for dice faces; three rounds.

Spec: rules/dice-lottery.md (DL-n). The referee reads no cards (DL-18): the buttons enter every card fact, and in
count mode (the default) only counts and the wilds' declared values are kept; value mode (`track_values`) also keeps
card values and checks blocks (dice_lottery_blocks). The camera reads the dice.

Dice and zones: every die carries the `id` the camera's tracker gives it and lies in zone "pool" or in a player's
zone "seat<k>" (k the seat number, 0 for the first player entered). The round starts with all 15 dice rolled into
the pool; every later observation shows the whole table, and a die keeps its face (DL-2) unless it was committed for
the finalise re-roll (DL-23).

The game opens with the HOST confirming the prize points (PRIZES: keep the configured `prize_points`, or change
them on nine spinners, PRIZE). A round runs POOL (roll the dice into the pool), then turns: ACTION and the entries
the action needs (TARGET, BLOCK, COUNT, WILD, WILD_VALUE, and CARD values in value mode), then TAKE when dice were
earned. At round end: COMMIT (each player with dice picks the dice to re-roll), REROLL, three TOKENs entered or
drawn by the DEALER, LUCKY (Lucky Card counts in count mode), the round scores, and the next round's POOL or OVER.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace

from .base import (Choice, Decision, Event, Game, IllegalActionError, ImplausibleRollError, Option, Outcome, Roll,
                   RollRequest, State, parse_options, require_on_mat, split_seed, whole_numbers)
from .dice_lottery_blocks import Block, CardTable, card_table
from .dice_lottery_dice import DICE, POOL, observe, read_table, seat_zone, table_roll, zone_seat
from .dice_lottery_scoring import (DRAW, game_winners, lottery_points, lucky_value,
                                   round_score, seeded_draw, token_keys, token_label)

CARDS = 52      # in the deck [TEXT]
HAND = 6        # cards dealt to each player (DL-2)
ROUNDS = 3      # DL-1
TOKENS = 8      # in the tin [TEXT]: the number tokens, no-dice and all-dice
DRAWN = 3       # tokens drawn per round, one per prize card space (DL-24)

(PRIZES, PRIZE, ROLL_POOL, ACTION, TARGET, BLOCK, COUNT, WILD, WILD_VALUE, CARD, TAKE, COMMIT, REROLL, TOKEN, LUCKY,
 OVER) = ("prizes", "prize", "roll_pool", "action", "target", "block", "count", "wild", "wild_value", "card", "take",
          "commit", "reroll", "token", "lucky", "over")
KEEP, CHANGE = "keep", "change"
MOST_POINTS = 20    # the prize point spinners' top: one step per point (controls.md enters larger ranges by digit)
PASS, NEW, ADD_OWN, ADD_OTHER, REPLACE = "pass", "new", "add_own", "add_other", "replace"
ACTION_LABELS = {PASS: "Pass", NEW: "New block", ADD_OWN: "Add to own", ADD_OTHER: "Add to other",
                 REPLACE: "Replace wild"}


@dataclass(frozen=True)
class Options:
    card_values: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
    card_mix: tuple[int, ...] = (7, 3)      # copies of each card value, wilds (value mode only)
    prize_points: tuple[tuple[int, ...], ...] = ((1, 2, 3), (2, 3, 4), (3, 4, 5))
    faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    tokens: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    min_players: int = 2
    max_players: int = 5
    lucky_card: bool = False
    long_game: bool = False
    track_values: bool = False

    def __post_init__(self):
        """Refuse an impossible configuration by its key (DL-30 values come from the box)."""
        def refuse(message: str):
            raise IllegalActionError(f"dice-lottery: {message}")

        values = self.card_values
        consecutive = tuple(values) == tuple(range(values[0], values[0] + len(values))) if values else False
        if len(values) < 3 or not whole_numbers(values) or not consecutive:
            refuse("card_values must be 3 or more consecutive numbers, lowest first")
        mix = self.card_mix
        if len(mix) != 2 or not whole_numbers(mix) or mix[0] * len(values) + mix[1] != CARDS:
            refuse(f"card_mix is [copies of each value, wilds] making {CARDS} cards")
        points = tuple(tuple(row) for row in self.prize_points)
        if len(points) != ROUNDS or any(len(row) != DRAWN or not whole_numbers(row) for row in points):
            refuse(f"prize_points needs {ROUNDS} rows of {DRAWN} points")
        object.__setattr__(self, "prize_points", points)   # a config file gives nested lists
        if not self.faces or not whole_numbers(self.faces):
            refuse("faces must be numbers")
        numbers = TOKENS - 2
        if len(set(self.tokens)) != numbers or len(self.tokens) != numbers or not whole_numbers(self.tokens):
            refuse(f"tokens needs {numbers} different numbers")
        if not 1 <= self.min_players <= self.max_players or HAND * self.max_players > CARDS:
            refuse(f"players must be 1-{CARDS // HAND}, min_players <= max_players")


def dice_text(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


class DiceLottery(Game):
    name = "dice-lottery"
    title = "Dice Lottery"
    rule_prefix = "DL"
    tracks_dice = True
    first_question = "Scorekeeper?"   # the dealer sits left of the scorekeeper, and the player left of them starts
    first_after_pick = 2
    min_players = Options.min_players
    max_players = Options.max_players
    Options = Options

    def __init__(self, setup):
        # DL-30: the player range is an assumed value from the options, so it shadows the class defaults.
        options = parse_options(Options, setup.options, self.name)
        self.min_players, self.max_players = options.min_players, options.max_players
        super().__init__(setup)
        self.options = options


class DiceLotteryState(State):
    def __init__(self, game: DiceLottery):
        super().__init__(game)
        count = len(game.players)
        self.round = 1
        self.dealer = (game.setup.first - 1) % count      # DL-3: the first player sits left of the dealer
        self.round_scores: list[list[int]] = [[] for _ in range(count)]
        self.prize_points = game.options.prize_points     # DL-30: confirmed or changed by the HOST before round 1
        self.entered: tuple[int, ...] = ()                # prize points entered so far when changing them
        self._deal()
        self.phase = PRIZES

    def copy(self) -> DiceLotteryState:
        """A faster copy than deepcopy, for playouts: Blocks and tuples are immutable and shared, the lists and
        dicts are copied. The copy is about to change, so it forgets `expects()`."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.pop("_expected", None)
        new.round_scores = [list(rounds) for rounds in self.round_scores]
        new.hands, new.pool, new.held = list(self.hands), dict(self.pool), [dict(dice) for dice in self.held]
        new.blocks, new.tokens, new.turn = list(self.blocks), list(self.tokens), dict(self.turn)
        new.reroll, new.queue, new.lucky = list(self.reroll), list(self.queue), list(self.lucky)
        return new

    # Round and turn flow ------------------------------------------------------------------------------------
    def _deal(self) -> None:
        """A new round: all cards shuffled and 6 dealt each, no blocks, tokens in the tin, dice to roll (DL-2)."""
        count = len(self.game.players)
        self.deck = CARDS - HAND * count
        self.hands = [HAND] * count
        self.pool: dict[int, int] = {}
        self.held: list[dict[int, int]] = [{} for _ in range(count)]
        self.blocks: list[Block] = []
        self.tokens: list[str] = []
        self.ender: int | None = None
        self.active = (self.dealer + 1) % count
        self.turn: dict = {}                  # the entries of the action being entered
        self.reroll: list[int] = []           # die ids committed at finalise (DL-23)
        self.queue: list[int] = []            # seats still to answer COMMIT or LUCKY
        self.lucky = [0] * count              # real cards matching the middle token (DL-28)
        self.phase = ROLL_POOL

    def _seats_from_first(self) -> list[int]:
        count = len(self.game.players)
        return [(self.dealer + 1 + i) % count for i in range(count)]

    def _start_turn(self, seat: int) -> None:
        """DL-19 (a) and (b) end the round before the draw; otherwise the player draws (DL-4, DL-20)."""
        self.active, self.turn = seat, {}
        out_of_cards = not self.game.options.long_game and self.hands[seat] == 0 and self.held[seat]   # DL-29
        if out_of_cards or self.deck == 0:
            self._end_round(seat)
            return
        self.deck -= 1
        self.hands[seat] += 1
        self.phase = ACTION

    def _end_turn(self) -> None:
        if not self.pool:                     # DL-19 (c)
            self._end_round(self.active)
        else:                                 # DL-3: play passes left
            self._start_turn((self.active + 1) % len(self.game.players))

    def _end_round(self, ender: int) -> None:
        self.ender, self.turn = ender, {}     # DL-21
        self.queue = [seat for seat in self._seats_from_first() if self.held[seat]]
        self.phase = COMMIT if self.queue else TOKEN

    def _after_lottery(self) -> None:
        options = self.game.options
        lucky = lucky_value(self.tokens) if options.lucky_card else None
        if lucky is not None:
            if options.track_values:
                for seat in range(len(self.game.players)):
                    self.lucky[seat] = sum(b.real_cards.count(lucky) for b in self._own(seat))
            else:
                self.queue = [seat for seat in self._seats_from_first() if self._real_cards(seat)]
                if self.queue:
                    self.phase = LUCKY
                    return
        self._score_round()

    def _score_round(self) -> None:
        points = self.prize_points[self.round - 1]
        for seat, rounds in enumerate(self.round_scores):
            faces = list(self.held[seat].values())
            cards = sum(b.size for b in self._own(seat))
            rounds.append(round_score(cards, len(faces), lottery_points(faces, self.tokens, points),
                                      self.hands[seat], self.lucky[seat] * self.round))
        if self.round == ROUNDS:
            self.phase = OVER
            return
        self.round += 1
        self.dealer = self.ender
        self._deal()

    # Blocks -------------------------------------------------------------------------------------------------
    def _own(self, seat: int) -> list[Block]:
        return [b for b in self.blocks if b.owner == seat]

    def _real_cards(self, seat: int) -> int:
        return sum(b.size - (b.wild is not None) for b in self._own(seat))

    def _card_table(self) -> CardTable:
        options = self.game.options
        return card_table(options.card_values, options.card_mix, tuple(self.blocks))

    def _room(self, block: Block | None, own: bool) -> int:
        """The most cards the active player may put into `block` (None: a new block) this turn."""
        hand = self.hands[self.active]
        if not self.game.options.track_values:
            return hand
        return self._card_table().max_count(block, own, hand)

    def _fits(self, block: Block | None, own: bool) -> bool:
        """Whether the active player can put the fewest cards an action needs (3 for a new block, else 1) into
        `block`: `_room` without counting every larger play."""
        low = 3 if block is None else 1
        if self.hands[self.active] < low:
            return False
        return not self.game.options.track_values or bool(self._card_table().plays(block, low, own))

    def _candidates(self, action: str, target: int) -> list[Block]:
        """The blocks of `target` an action is about: all of them, or for Replace wild those with a wild."""
        return [b for b in self._own(target) if action != REPLACE or b.wild is not None]

    def _refusal(self, action: str, block: Block) -> str:
        """Why the action cannot touch `block` now, or "" when it can."""
        if action == REPLACE:
            fits = not self.game.options.track_values or self._card_table().can_replace(block)
            return "" if fits else f"all {block.wild}s are laid"
        return "" if self._fits(block, own=action == ADD_OWN) else "block is full"

    def _can_touch(self, action: str, target: int) -> bool:
        return any(not self._refusal(action, block) for block in self._candidates(action, target))

    def _targets(self, action: str) -> list[int]:
        """Other players with a block the action can touch, clockwise from the left neighbour (DL-13, DL-14)."""
        count = len(self.game.players)
        others = [(self.active + i) % count for i in range(1, count)]
        return [seat for seat in others if self._can_touch(action, seat)]

    def _actions(self) -> list[str]:
        me = self.active
        legal = [PASS]                                                        # DL-5
        if self._fits(None, own=True):
            legal.append(NEW)
        if self._own(me):                                                     # DL-6
            if self._can_touch(ADD_OWN, me):
                legal.append(ADD_OWN)
            legal += [action for action in (ADD_OTHER, REPLACE) if self._targets(action)]
        return legal

    def _block(self) -> Block | None:
        key = self.turn.get("block")
        return None if key is None else self.blocks[key]

    def _plays(self):
        """Value mode: the legal ways to play the entered count into the chosen block."""
        action = self.turn["action"]
        return self._card_table().plays(self._block(), self.turn["count"], own=action != ADD_OTHER)

    def _advance(self) -> None:
        """Ask for the next entry the chosen action needs, or play it once everything is entered."""
        turn, action = self.turn, self.turn["action"]
        if action in (ADD_OTHER, REPLACE) and "target" not in turn:
            self.phase = TARGET
            return
        if "block" not in turn:
            blocks = self._candidates(action, turn["target"])
            if len(blocks) > 1:               # the block is asked only when the target owns more than one
                self.phase = BLOCK
                return
            turn["block"] = blocks[0].id
        if action == REPLACE:
            self._play()
        elif "count" not in turn:
            self.phase = COUNT
        elif action != ADD_OTHER and "use_wild" not in turn:
            self.phase = WILD
        elif turn.get("use_wild") and "wild" not in turn:
            self.phase = WILD_VALUE
        elif self.game.options.track_values and len(turn["cards"]) < self._real_count():
            self.phase = CARD
        else:
            self._play()

    def _real_count(self) -> int:
        return self.turn["count"] - bool(self.turn.get("use_wild"))

    def _play(self) -> None:
        """Apply the entered action (DL-13, DL-14, DL-17, DL-18) and ask for the dice it earns (DL-16)."""
        turn, me = self.turn, self.active
        action, block = turn["action"], self._block()
        if action == REPLACE:                 # the real card replaces the wild; the wild comes to hand
            self.blocks[block.id] = replace(block, wild=None)
            earned = 1
        else:
            count, wild = turn["count"], turn.get("wild")
            cards = None
            if self.game.options.track_values:
                cards = tuple(sorted((block.cards if block else ()) + tuple(turn["cards"])
                                     + (() if wild is None else (wild,))))
            if block is None:
                self.blocks.append(Block(len(self.blocks), me, count, wild, cards))
            else:
                self.blocks[block.id] = replace(block, size=block.size + count, cards=cards,
                                                wild=block.wild if wild is None else wild)
            self.hands[me] -= count
            earned = count if action == ADD_OTHER else 0
        turn["earned"] = min(earned, len(self.pool))
        if turn["earned"]:
            self.phase = TAKE
        else:
            self._end_turn()

    # What the state waits for -------------------------------------------------------------------------------
    def expects(self) -> Decision | RollRequest | None:
        """Worked out once per state (the UI, `apply` and playouts all ask): a state never changes once built."""
        if "_expected" not in self.__dict__:
            self._expected = None if self.phase == OVER else getattr(self, "_expect_" + self.phase)()
        return self._expected

    def _context(self, what: str = "") -> str:
        return f"R{self.round} {what}".strip()

    def _decide(self, kind: str, question: str, options=(), **fields) -> Decision:
        fields.setdefault("player", self.active)
        fields.setdefault("context", self._context(f"hand {self.hands[self.active]}"))
        return Decision(kind=kind, question=question, options=tuple(options), **fields)

    def _expect_prizes(self) -> Decision:
        """DL-30: the prize points are placeholders until the HOST checks them against the three prize cards."""
        shown = " ".join("/".join(map(str, row)) for row in self.prize_points)
        rows = (Option(KEEP, shown if len(shown) <= 19 else "As configured"), Option(CHANGE, "Change"))
        return Decision(None, "choose", "Prize points?", rows, default=KEEP, context="setup", role="HOST")

    def _expect_prize(self) -> Decision:
        """One spinner per prize card space, round by round, starting on the configured value."""
        row, space = divmod(len(self.entered), DRAWN)
        return Decision(None, "spinner", f"R{row + 1} space {space + 1} points?", low=0, high=MOST_POINTS,
                        default=min(self.prize_points[row][space], MOST_POINTS), context="setup", role="HOST")

    def _expect_roll_pool(self) -> RollRequest:
        lines = (f"Round {self.round} of {ROUNDS}", "Roll all into pool")
        return RollRequest(None, f"Roll {DICE} dice", {"pips": DICE}, fresh=True, lines=lines,
                           context=self._context("pool"), role="DEALER")

    def _expect_action(self) -> Decision:
        rows = [Option(key, ACTION_LABELS[key]) for key in self._actions()]
        return self._decide("choose", "Action?", rows, default=PASS)

    def _expect_target(self) -> Decision:
        rows = [Option(seat_zone(seat), self.game.players[seat][:19]) for seat in self._targets(self.turn["action"])]
        return self._decide("choose", "Whose block?", rows, default=rows[0].key)

    def _expect_block(self) -> Decision:
        """DL-4: one block. Blocks the action cannot touch are shown disabled, with the reason (UI-6)."""
        action = self.turn["action"]
        rows = []
        for block in self._candidates(action, self.turn["target"]):
            reason = self._refusal(action, block)
            rows.append(Option(f"b{block.id}", block.label(), not reason, reason))
        return self._decide("choose", "Which block?", rows, default=[r.key for r in rows if r.enabled][-1])

    def _expect_count(self) -> Decision:
        new = self.turn["action"] == NEW
        low = 3 if new else 1                                                 # DL-7, DL-13
        high = self._room(self._block(), own=self.turn["action"] != ADD_OTHER)
        return self._decide("spinner", "Cards in new block?" if new else "Cards to add?", low=low, high=high,
                            default=low)

    def _expect_wild(self) -> Decision:
        block = self._block()
        if block is not None and block.wild is not None:                      # DL-11: one wild per block
            yes, no, reason = False, True, "block has a wild"
        elif self.game.options.track_values:
            kinds = {play.wild is None for play in self._plays()}
            yes, no = False in kinds, True in kinds
            reason = "no wild left" if not yes else "needs a wild"
        else:
            yes, no, reason = True, True, ""
        rows = [Option("no", "No", no, "" if no else reason), Option("yes", "Yes", yes, "" if yes else reason)]
        return self._decide("choose", "Use a wild?", rows, default="no" if no else "yes")

    def _expect_wild_value(self) -> Decision:
        values = self.game.options.card_values
        if not self.game.options.track_values:                                 # DL-12: any value
            return self._decide("spinner", "Wild stands for?", low=values[0], high=values[-1], default=values[0])
        legal = sorted({play.wild for play in self._plays() if play.wild is not None})
        rows = [Option(str(v), str(v)) for v in legal]
        return self._decide("choose", "Wild stands for?", rows, default=rows[0].key)

    def _expect_card(self) -> Decision:
        table = self._card_table()
        entered = table.counts(self.turn["cards"])
        legal = set()
        for play in self._plays():
            if play.wild == self.turn.get("wild") and all(r >= e for r, e in zip(play.real, entered)):
                legal |= {v for v, r, e in zip(table.values, play.real, entered) if r > e}
        rows = [Option(str(v), str(v)) for v in sorted(legal)]
        question = f"Card {len(self.turn['cards']) + 1} of {self._real_count()}?"
        return self._decide("choose", question, rows, default=rows[0].key)

    def _expect_take(self) -> RollRequest:
        earned = self.turn["earned"]
        name = self.game.players[self.active][:8]
        return RollRequest(self.active, f"Take {dice_text(earned)}", {"pips": DICE},
                           lines=(f"{name} takes {earned}", f"of {len(self.pool)} in the pool"),
                           context=self._context("take"))

    def _expect_commit(self) -> Decision:
        seat = self.queue[0]
        rows = [Option(f"d{die}", f"Die {die}: {face}") for die, face in sorted(self.held[seat].items())]
        return self._decide("multi", "Dice to re-roll?", rows, player=seat, default=(), low=0, high=len(rows),
                            context=self._context("finalise"))

    def _expect_reroll(self) -> RollRequest:
        owners = Counter(seat for seat, dice in enumerate(self.held) for die in dice if die in self.reroll)
        lines = tuple(f"{self.game.players[seat][:8]}: {n}" for seat, n in sorted(owners.items()))
        return RollRequest(None, f"Re-roll {dice_text(len(self.reroll))}", {"pips": DICE}, lines=lines[:5],
                           context=self._context("finalise"))

    def _expect_token(self) -> Decision:
        space = len(self.tokens)
        points = self.prize_points[self.round - 1][space]
        rows = [Option(key, token_label(key)) for key in self._tin()] + [Option(DRAW, "Draw for me", seeded=True)]
        return Decision(None, "choose", f"Token {space + 1} ({points} pts)?", tuple(rows), default=rows[0].key,
                             context=self._context("lottery"), role="DEALER")

    def _expect_lucky(self) -> Decision:
        seat = self.queue[0]
        value = lucky_value(self.tokens)
        return self._decide("spinner", f"Real {value}s in blocks?", player=seat, low=0, high=self._real_cards(seat),
                            default=0, context=self._context("lucky"))

    def _tin(self) -> list[str]:
        return [key for key in token_keys(self.game.options.tokens) if key not in self.tokens]

    # Applying events ----------------------------------------------------------------------------------------
    def _apply_choice(self, choice: Choice) -> None:
        getattr(self, "_choose_" + self.phase)(choice.value)

    def _choose_prizes(self, key: str) -> None:
        self.phase = PRIZE if key == CHANGE else ROLL_POOL

    def _choose_prize(self, points: int) -> None:
        self.entered += (points,)
        if len(self.entered) == ROUNDS * DRAWN:
            self.prize_points = tuple(self.entered[i:i + DRAWN] for i in range(0, ROUNDS * DRAWN, DRAWN))
            self.phase = ROLL_POOL

    def _choose_action(self, key: str) -> None:
        if key == PASS:
            self._end_turn()
            return
        self.turn = {"action": key, "cards": ()}
        if key == NEW:
            self.turn["block"] = None
        elif key == ADD_OWN:
            self.turn["target"] = self.active
        self._advance()

    def _choose_target(self, key: str) -> None:
        self.turn["target"] = zone_seat(key)
        self._advance()

    def _choose_block(self, key: str) -> None:
        self.turn["block"] = int(key[1:])
        self._advance()

    def _choose_count(self, count: int) -> None:
        self.turn["count"] = count
        self._advance()

    def _choose_wild(self, key: str) -> None:
        self.turn["use_wild"] = key == "yes"
        self._advance()

    def _choose_wild_value(self, value) -> None:
        self.turn["wild"] = int(value)
        self._advance()

    def _choose_card(self, key: str) -> None:
        self.turn["cards"] += (int(key),)
        self._advance()

    def _choose_commit(self, keys: tuple) -> None:
        self.reroll += [int(key[1:]) for key in keys]
        self.queue.pop(0)
        if not self.queue:
            self.phase = REROLL if self.reroll else TOKEN

    def _choose_token(self, key: str) -> None:
        seeded = split_seed(key)
        if seeded is None:
            self.tokens.append(key)
        else:
            self.tokens += seeded_draw(self._tin(), DRAWN - len(self.tokens), seeded[1])
        if len(self.tokens) == DRAWN:
            self._after_lottery()

    def _choose_lucky(self, count: int) -> None:
        self.lucky[self.queue.pop(0)] = count
        if not self.queue:
            self._score_round()

    def _apply_roll(self, roll: Roll) -> None:
        getattr(self, "_see_" + self.phase)(roll)

    def _see_roll_pool(self, roll: Roll) -> None:
        require_on_mat(roll, "DL-2")
        seen = read_table(roll, self.game.options.faces, len(self.game.players))
        strays = [die for die, (zone, _) in seen.items() if zone != POOL]
        if strays:
            raise ImplausibleRollError(f"die {strays[0]} not in the pool", "DL-2")
        self.pool = {die: face for die, (_, face) in seen.items()}
        self._start_turn(self.active)

    def _see_take(self, roll: Roll) -> None:
        """The earned dice move from the pool to the taker's zone with their faces (DL-13, DL-14, DL-16)."""
        earned, action = self.turn["earned"], self.turn["action"]
        rule = "DL-14" if action == REPLACE else "DL-16" if earned < self.turn["count"] else "DL-13"
        _, moved = observe(roll, self._table(), self.game.options.faces, len(self.game.players))
        for die, was_zone, zone in moved:
            if was_zone != POOL or zone != seat_zone(self.active):
                raise ImplausibleRollError(f"die {die} in wrong zone", rule)
        if len(moved) != earned:
            raise ImplausibleRollError(f"take {earned}, not {len(moved)}", rule)
        for die, _, _ in moved:
            self.held[self.active][die] = self.pool.pop(die)
        self._end_turn()

    def _see_reroll(self, roll: Roll) -> None:
        """DL-22, DL-23: only the committed dice may change, and each stays in its owner's zone."""
        seen, moved = observe(roll, self._table(), self.game.options.faces, len(self.game.players),
                              may_change=self.reroll, rule="DL-23")
        if moved:
            raise ImplausibleRollError(f"die {moved[0][0]} in wrong zone", "DL-22")
        for die in self.reroll:
            zone, face = seen[die]
            self.held[zone_seat(zone)][die] = face
        self.phase = TOKEN

    def _table(self) -> dict[int, tuple[str, int]]:
        """Where every die lies now: die id -> (zone, face)."""
        table = {die: (POOL, face) for die, face in self.pool.items()}
        for seat, dice in enumerate(self.held):
            table.update({die: (seat_zone(seat), face) for die, face in dice.items()})
        return table

    # Chance node --------------------------------------------------------------------------------------------
    def random_roll(self, rng: random.Random) -> Roll:
        faces = self.game.options.faces
        if self.phase == ROLL_POOL:
            return table_roll({die: (POOL, rng.choice(faces)) for die in range(DICE)})
        table = self._table()
        if self.phase == TAKE:
            for die in rng.sample(sorted(self.pool), self.turn["earned"]):
                table[die] = (seat_zone(self.active), table[die][1])
        else:
            for die in self.reroll:
                table[die] = (table[die][0], rng.choice(faces))
        return table_roll(table)

    # Results ------------------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [sum(rounds) for rounds in self.round_scores]

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome(tuple(self.scores()), game_winners(self.round_scores), f"{ROUNDS} rounds played")

    def status(self) -> str:
        if self.phase == OVER:
            return "Game over"
        if self.phase in (TOKEN, LUCKY):
            return "Tokens " + (" ".join(self.tokens) or "-")
        return f"Pool {len(self.pool)} Deck {self.deck}"

    def detail(self) -> dict:
        players = [{"name": name, "hand": self.hands[seat], "dice": {str(d): f for d, f in self.held[seat].items()},
                    "has_block": bool(self._own(seat)), "round_scores": list(self.round_scores[seat])}
                   for seat, name in enumerate(self.game.players)]
        blocks = []
        for b in self.blocks:
            entry = {"id": b.id, "owner": b.owner, "size": b.size, "wild": b.wild}
            if b.cards is not None:
                entry.update(kind=b.kind, cards=list(b.cards))
            blocks.append(entry)
        return {"round": self.round, "dealer": self.dealer, "active": self.active, "deck": self.deck,
                "pool": {str(d): f for d, f in self.pool.items()}, "players": players, "blocks": blocks,
                "ender": self.ender, "tokens": list(self.tokens),
                "prize_points": [list(row) for row in self.prize_points]}

    def describe(self, event: Event) -> str:
        if isinstance(event, Roll):
            return {ROLL_POOL: "pool roll", TAKE: "dice taken", REROLL: "re-roll"}.get(self.phase, "roll")
        value = event.value
        if self.phase == ACTION:
            return ACTION_LABELS.get(value, str(value))
        if self.phase == TOKEN:
            return "token draw" if split_seed(value) else f"token {token_label(value)}"
        if self.phase == PRIZES:
            return "prize points kept" if value == KEEP else "change prize points"
        if self.phase == TARGET and value in self.expects().legal_keys():
            return f"target {self.game.players[zone_seat(value)][:8]}"
        names = {PRIZE: "prize points", TARGET: "target", BLOCK: "block", COUNT: "cards",
                 WILD: "wild", WILD_VALUE: "wild =", CARD: "card", COMMIT: "re-roll pick", LUCKY: "lucky cards"}
        shown = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
        return f"{names.get(self.phase, 'choice')} {shown}"


DiceLottery.state_class = DiceLotteryState
GAME = DiceLottery
