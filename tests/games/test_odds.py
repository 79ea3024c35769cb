"""The exact chances shown before Risk (Countaloupe) and before banking (Roll Your Luck), checked against brute force
written independently here: every combination of dice, and every outcome of the next roll played through the rules
engine itself (every ordered roll of the numbered dice with every Chance Die face, every face of every roller's die)."""
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from companion.games import Choice, Decision, Die, Roll, Setup, new_game
from companion.games.countaloupe import END_RISK
from companion.games.odds import accepted_unclaimed_chance, chance_to_make, makeable_values, percent

D6 = (1, 2, 3, 4, 5, 6)
CHANCE_DIE = ("blank", "blank", "blank", "sweet", "sour", "nope")
CHANCE_QUESTIONS = ("Sweet", "Sour", "Chip on")
NAMES = ("Ana", "Ben", "Cy", "Dee")


def sums_of(dice):
    return {sum(combo) for size in range(1, len(dice) + 1) for combo in combinations(dice, size)}


@cache
def every_roll(k, faces=D6):
    """Each ordered roll of k dice with the set of values it makes."""
    return [sums_of(dice) for dice in product(faces, repeat=k)]


def brute_make(value, k, faces=D6):
    rolls = every_roll(k, faces)
    return Fraction(sum(value in made for made in rolls), len(rolls))


def test_cl_6_cl_7_makeable_values_match_every_combination():
    for k in (1, 2, 3, 4):
        for dice in product(D6, repeat=k):
            assert makeable_values(dice) == sums_of(dice)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_chance_to_make_matches_brute_force(k):
    for value in range(1, 6 * k + 2):
        assert chance_to_make(value, k, D6) == brute_make(value, k)
    assert chance_to_make(1, 3, D6) == 1 - Fraction(5, 6) ** 3


def test_chance_to_make_follows_the_configured_faces():
    d8 = tuple(range(1, 9))
    for value in (1, 9, 17, 25):
        assert chance_to_make(value, 3, d8) == brute_make(value, 3, d8)


def test_percent_is_whole_and_only_certainty_shows_0_or_100():
    assert [percent(Fraction(n, d)) for n, d in [(0, 1), (1, 1), (1, 1000), (999, 1000), (72, 100), (5, 6)]] == \
        ["0%", "100%", "1%", "99%", "72%", "83%"]


# ------------------------------------------------------------------------------------------ Countaloupe's Risk

def at_risk(next_cards, held_by=None, on=None, **options):
    """Ana (seat 0) has just discarded a run and chooses End or Risk; `next_cards` are the decks' `next` by seat (each
    player holds their own deck), the chip held by a seat or on a seat's deck."""
    g = new_game(Setup("countaloupe", NAMES[:len(next_cards)], options=options))
    s = g.new_initial_state()
    s.next = list(next_cards)
    s.chip_holder, s.chip_deck = held_by, on
    s.phase = END_RISK
    return s


@cache
def ordered_rolls(k, faces):
    """Every distinct roll of k dice, sorted, with the number of ordered rolls that show it (counted one by one)."""
    return Counter(tuple(sorted(dice)) for dice in product(faces, repeat=k))


def discards(s):
    """Whether the roll just applied discards at least one card, given the best answer to any open Chance Die
    choice (Keep on a Sweet, Leave or Take on a Nope, the pick of a tied Sour)."""
    pending = s.expects()
    if isinstance(pending, Decision) and pending.question.startswith(CHANCE_QUESTIONS):
        return any(discards(s.apply(Choice(key))) for key in pending.legal_keys())
    return isinstance(pending, Decision) and pending.question.startswith("Discard")


def brute_risk(s):
    """Pick Risk, then play every outcome of the risk roll through the engine: the share that discards a card."""
    risk = s.apply(Choice("risk"))
    options = s.game.options
    k = risk.expects().dice["pips"]
    good = total = 0
    for dice, count in ordered_rolls(k, options.number_faces).items():
        for face in options.chance_faces:
            after = risk.apply(Roll(tuple(Die(v) for v in dice) + (Die(kind="symbol", face=face),)))
            total += count
            good += count * discards(after)
    return Fraction(good, total)


@pytest.mark.parametrize("position", [
    dict(next_cards=(2, 1, 1)),                      # 3 dice; a Sour forces a swap that voids the dice (CL-18)
    dict(next_cards=(8, 9, 12)),                     # 4 dice; Ana is lowest, a Sour keeps (CL-19)
    dict(next_cards=(13, 13, 14), held_by=1),        # 5 dice; a tie for lowest keeps too; a Sweet may keep
    dict(next_cards=(9, 3, 12, 5), on=3),            # a Nope opens Leave/Take; either way the dice count
    dict(next_cards=(16, 12, 12, 14), on=2),         # a tied Sour opens a choice, but only of swaps
    dict(next_cards=(10, 3), held_by=1),             # 2 players, Ben lower: his chip does not stop a Sour
    dict(next_cards=(5, 12), held_by=1),             # ... and Ana lowest: only the dice matter
    dict(next_cards=(7, 1, 1), chance_faces=("sour", "sour", "nope", "sweet", "blank", "sweet")),
    dict(next_cards=(12, 14, 14), number_faces=(1, 2, 3, 4, 5, 6, 7, 8)),
])
def test_the_risk_figure_is_the_exact_chance_that_the_roll_discards_a_card(position):
    s = at_risk(**position)
    exact = brute_risk(s)
    assert s.risk_chance() == exact
    assert s.expects().question == f"Risk {percent(exact)} safe"


def test_the_risk_figure_counts_a_sour_only_when_it_forces_a_swap():
    lowest = at_risk((5, 12), held_by=1)
    assert lowest.risk_chance() == brute_make(5, 3)  # Sour keeps, Sweet may keep: only the dice matter
    doomed = at_risk((8, 1, 1), chance_faces=("sour",) * 6)
    assert doomed.risk_chance() == 0 and doomed.expects().question == "Risk 0% safe"  # every roll swaps the deck


# ----------------------------------------------------------------------------------------- Roll Your Luck's bank

def ryl_game(count, **options):
    return new_game(Setup("roll-your-luck", tuple(f"P{i}" for i in range(count)), options=options))


def wave(s, faces):
    """One settled mat: each seat's die (told by its colour) showing the face given."""
    return Roll(tuple(Die(face, owner=s.game.owners[seat]) for seat, face in faces.items()))


def ryl_at_bank(round_number, faces_rolled, banked=()):
    """Round `round_number`: in wave 1 the first players roll and bank the faces of `banked` (claims); then the
    others roll `faces_rolled`, which opens the bank decision."""
    s = ryl_game(len(banked) + len(faces_rolled)).new_initial_state()
    s.round = round_number
    rollers = {len(banked) + i: face for i, face in enumerate(faces_rolled)}
    if banked:
        s = s.apply(wave(s, {**dict(enumerate(banked)), **rollers}))
        s = s.apply(Choice(tuple(f"p{seat}" for seat in range(len(banked)))))
    return s.apply(wave(s, rollers))


def brute_roll_on(s, seat):
    """Nobody banks; then every face of every rolling player's die, through the engine: the share of outcomes in
    which `seat`'s running total grows."""
    s = s.apply(Choice(()))
    rollers = [p for p, status in enumerate(s.status_of) if status == "ROLLING"]
    grew = total = 0
    for faces in product(s.game.options.faces, repeat=len(rollers)):
        after = s.apply(wave(s, dict(zip(rollers, faces))))
        total += 1
        grew += after.status_of[seat] == "ROLLING" and after.running[seat] > s.running[seat]
    return Fraction(grew, total)


def test_accepted_unclaimed_chance_counts_faces():
    for lowest in range(1, 7):
        for claimed in [(), (6,), (5, 6), (1, 2, 3, 4, 5, 6)]:
            good = [f for f in D6 if f >= lowest and f not in claimed]
            assert accepted_unclaimed_chance(D6, lowest, claimed) == Fraction(len(good), 6)


@pytest.mark.parametrize("round_number, faces_rolled, banked", [
    (1, (2, 5, 6), ()),          # every face accepted, nothing claimed: certain
    (3, (6, 5, 4), ()),          # faces 3-6
    (2, (3, 4), (6, 5)),         # 6 and 5 claimed earlier this round
    (5, (5, 6), (6,)),           # round 5: only 5 is left
    (4, (4, 5, 6), (4, 5)),      # 6 left of 4-6
])
def test_the_bank_figure_is_the_exact_chance_that_rolling_on_adds(round_number, faces_rolled, banked):
    s = ryl_at_bank(round_number, faces_rolled, banked)
    decision = s.expects()
    seat = int(decision.legal_keys()[0][1:])
    exact = brute_roll_on(s, seat)
    assert s.roll_on_chance() == exact
    assert decision.question == f"Who banks? {percent(exact)} ok"


def test_the_bank_figure_in_sequential_mode_counts_claims_at_once():
    s = ryl_game(3, wave_mode="sequential").new_initial_state()
    s.round = 3
    s = s.apply(wave(s, {0: 6})).apply(Choice(("p0",)))
    s = s.apply(wave(s, {1: 5})).apply(Choice(("p1",)))
    s = s.apply(wave(s, {2: 4}))
    assert s.expects().player == 2 and s.roll_on_chance() == brute_roll_on(s, 2) == Fraction(2, 6)  # 3 or 4


def test_faces_banked_in_a_decision_count_from_the_next_one():
    s = ryl_at_bank(1, (6, 5, 2))
    assert s.expects().question == "Who banks? 100% ok"
    s = s.apply(Choice(("p0",))).apply(wave(s, {1: 5, 2: 3}))
    assert s.expects().question == "Who banks? 83% ok" and s.roll_on_chance() == Fraction(5, 6)
