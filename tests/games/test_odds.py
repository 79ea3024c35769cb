"""The exact chances shown before Risk (Countaloupe) and before banking (Roll Your Luck), checked against brute-force
enumeration written independently here: every ordered roll, every combination of dice."""
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from companion.games import Choice, Die, Roll, Setup, new_game
from companion.games.countaloupe import END_RISK
from companion.games.odds import (accepted_unclaimed_chance, chance_to_make, makeable_values, percent,
                                  risk_safe_chance)

D6 = (1, 2, 3, 4, 5, 6)
CHANCE_DIE = ("blank", "blank", "blank", "sweet", "sour", "nope")


def sums_of(dice):
    return {sum(combo) for size in range(1, len(dice) + 1) for combo in combinations(dice, size)}


@cache
def every_roll(k, faces=D6):
    """Each ordered roll of k dice with the set of values it makes."""
    return [sums_of(dice) for dice in product(faces, repeat=k)]


def brute_make(value, k, faces=D6):
    rolls = every_roll(k, faces)
    return Fraction(sum(value in made for made in rolls), len(rolls))


def brute_safe(value, k, chance_faces, escapes, faces=D6):
    outcomes = [(made, face) for made in every_roll(k, faces) for face in chance_faces]
    return Fraction(sum(value in made or face in escapes for made, face in outcomes), len(outcomes))


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


@pytest.mark.parametrize("escapes", [(), ("sour",)])
def test_risk_safe_chance_matches_brute_force(escapes):
    for value, k in [(2, 3), (8, 4), (10, 4), (16, 5)]:
        assert risk_safe_chance(value, k, D6, CHANCE_DIE, escapes) == brute_safe(value, k, CHANCE_DIE, escapes)


def test_percent_is_whole_and_only_certainty_shows_0_or_100():
    assert [percent(Fraction(n, d)) for n, d in [(0, 1), (1, 1), (1, 1000), (999, 1000), (72, 100), (5, 6)]] == \
        ["0%", "100%", "1%", "99%", "72%", "83%"]


def countaloupe_at(next_cards, chance_faces=CHANCE_DIE):
    """A position where Ana, after a run, chooses End or Risk; the decks' `next` as given (Ana, Ben, Cy)."""
    g = new_game(Setup("countaloupe", ("Ana", "Ben", "Cy"), options={"chance_faces": chance_faces}))
    s = g.new_initial_state()
    s.next = list(next_cards)
    s.phase = END_RISK
    return s


@pytest.mark.parametrize("next_cards, k, escapes", [
    ((8, 1, 1), 4, ("sour",)),   # the others are lower: a Sour forces a swap, which costs no penalty (CL-20)
    ((4, 9, 12), 3, ()),         # Ana is lowest: a Sour keeps the deck (CL-19)
    ((13, 13, 14), 5, ()),       # a tie for lowest keeps it too
])
def test_the_risk_question_shows_the_exact_chance_of_no_penalty(next_cards, k, escapes):
    s = countaloupe_at(next_cards)
    expected = brute_safe(next_cards[0], k, CHANCE_DIE, escapes)
    assert s.expects().question == f"Risk {round(expected * 100)}% safe"


def test_the_risk_figure_follows_the_configured_chance_die():
    s = countaloupe_at((8, 1, 1), chance_faces=("sour",) * 6)
    assert s.expects().question == "Risk 100% safe"  # every Sour swaps Ana's deck away before the dice count
    s = countaloupe_at((8, 1, 1), chance_faces=("blank",) * 6)
    assert s.expects().question == f"Risk {round(brute_make(8, 4) * 100)}% safe"


def test_accepted_unclaimed_chance_counts_faces():
    for lowest in range(1, 7):
        for claimed in [(), (6,), (5, 6), (1, 2, 3, 4, 5, 6)]:
            good = [f for f in D6 if f >= lowest and f not in claimed]
            assert accepted_unclaimed_chance(D6, lowest, claimed) == Fraction(len(good), 6)


def test_the_bank_question_shows_the_chance_that_a_next_roll_is_accepted_and_unclaimed():
    g = new_game(Setup("roll-your-luck", ("Mary", "Joe", "Ben"), colours=("red", "green", "blue")))
    s = g.new_initial_state()
    s.round = 3
    s = s.apply(Roll((Die(6, owner="red"), Die(5, owner="green"), Die(4, owner="blue"))))
    assert s.expects().question == "Who banks? 67% ok"   # 3, 4, 5, 6 of six faces
    s = s.apply(Choice(("p0", "p1")))                      # 6 and 5 are claimed
    s = s.apply(Roll((Die(3, owner="blue"),)))
    assert s.expects().question == "Who banks? 33% ok"   # 3 and 4 are left
