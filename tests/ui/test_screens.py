"""Screens as pictures: each screen type is compared pixel for pixel with a reviewed reference image.

To review a changed screen, run `UPDATE_SCREENS=1 python3 dev.py test tests/ui/test_screens.py`, look at the PNGs in
tests/ui/reference/ and commit them only if they are right.
"""
import os
from pathlib import Path

import pytest
from PIL import Image

from companion.games import Decision, Option, RollRequest
from companion.ui.controls import Press
from companion.ui.prompt import decision_prompt, roll_prompt
from companion.ui.screens import HEIGHT, WIDTH, Prompt, render
from companion.ui.widgets import widget_for

REFERENCE = Path(__file__).with_name("reference")
NAMES = ("Ana", "Benedikta", "Cy")

CATEGORIES = tuple(Option(k, f"{label:<14}{points:>3}") for k, label, points in [
    ("4kind", "4 of a Kind", 14), ("3kind", "3 of a Kind", 14), ("chance", "Chance", 14), ("threes", "Threes", 12),
    ("deuces", "Deuces", 2), ("fullhouse", "Full House", 0), ("boom", "BOOM", 0)])


def screen(decision: Decision, presses=(), status="Supply 11") -> Prompt:
    widget = widget_for(decision)
    for press in presses:
        widget.press(press)
    return decision_prompt(NAMES, decision, widget, status)


SCREENS = {
    "choose_scrolling": screen(Decision(0, "choose", "3 3 3 3 2 category", CATEGORIES, "4kind", context="roll 2 T4"),
                               [Press.NEXT, Press.NEXT, Press.NEXT]),
    "choose_bracketed": screen(Decision(2, "choose", "Sweet: take a deck?", (
        Option("keep", "Keep"), Option("ben", "Benedikta (blue)", False, "Ben holds the chip"),
        Option("ana", "Ana (red)")), "keep", context="roll 1")),
    "multi_select": screen(Decision(None, "multi", "Who banks?", (
        Option("p0", "Ana  +8"), Option("p2", "Cy   +6")), low=0, high=2, context="wave 2 R1"), [Press.OK]),
    "spinner_digits": screen(Decision(1, "spinner", "Final total?", low=0, high=162, context="end"),
                             [Press.NEXT, Press.OK, Press.NEXT, Press.NEXT, Press.NEXT], status=""),
    "confirm": screen(Decision(0, "confirm", "Extra BOOM! X +50", (Option("yes", "OK"),), context="roll 1")),
    "roll_wait": roll_prompt(NAMES, RollRequest(1, "Roll 5 blue dice", {"pips": 5}, "blue",
                                                ("kept: 6 6", "free rolls left: 1"), "roll 2 T3"), "need 5 dice"),
    "shared_header": roll_prompt(NAMES, RollRequest(None, "Everyone rolls", {"pips": 3}, context="wave 1"), ""),
    "grid_cursor": screen(Decision(0, "grid", "Place 5: box?", tuple(
        Option(f"ro:{r}{c}", f"{r}{c} {label}", label == "R/O")
        for (r, c), label in zip([(r, c) for r in (1, 2, 3) for c in (1, 2, 3)],
                                 ["2", "R/O", "R/O", "1", "B", "6", "R/O", "4", "R/O"])), context="turn 7"),
                          [Press.NEXT, Press.NEXT], status="Wilds 1/4"),
    "game_over": Prompt(header="GAME OVER", body=("Winner: Ana", "Ana             358"), big="358",
                        status="Game saved", hints="OK new game"),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_reviewed_reference(name):
    image = render(SCREENS[name])
    assert image.mode == "1" and image.size == (WIDTH, HEIGHT)
    path = REFERENCE / f"{name}.png"
    if os.environ.get("UPDATE_SCREENS"):
        REFERENCE.mkdir(exist_ok=True)
        image.save(path)
    reference = Image.open(path).convert("1")
    assert image.tobytes() == reference.tobytes(), f"{name} differs from {path}: review it (see module docstring)"


def test_ui_9_header_is_inverted_and_never_blank():
    for name, prompt in SCREENS.items():
        assert prompt.header.strip(), name
        image = render(prompt)
        top = [image.getpixel((x, 7)) for x in range(WIDTH)]
        assert all(top), f"{name}: line 1 must be drawn inverted"


def test_ui_9_header_names_the_decider_upper_case_at_most_eight_letters():
    assert SCREENS["choose_bracketed"].header.startswith("CY  ")
    assert SCREENS["roll_wait"].header.startswith("BENEDIKT  ")
    assert SCREENS["shared_header"].header.startswith("ALL  ")
    assert SCREENS["multi_select"].header.startswith("ALL  ")


def test_scrolling_list_shows_arrows_and_keeps_the_cursor_in_view():
    prompt = SCREENS["choose_scrolling"]
    assert len(prompt.body) == 5
    assert prompt.body[prompt.cursor].startswith("> Threes")
    assert prompt.body[-1].endswith("v") and prompt.body[1].endswith("^")


def test_ui_6_bracketed_option_is_shown_skipped_and_explained():
    prompt = SCREENS["choose_bracketed"]
    assert "  [Benedikta (blue)]" in prompt.body
    assert prompt.status == "Ben holds the chip"
    decision = Decision(2, "choose", "", (Option("keep", "Keep"), Option("b", "B", False), Option("a", "A")), "keep")
    widget = widget_for(decision)
    widget.press(Press.NEXT)
    assert widget.options[widget.cursor].key == "a"


def test_ui_11_important_number_uses_the_large_font():
    small = render(Prompt(header="X", body=("Total",)))
    big = render(Prompt(header="X", body=("Total",), big="358"))
    rows_lit = [y for y in range(16, 32) if any(big.getpixel((x, y)) for x in range(WIDTH))]
    assert len(rows_lit) >= 12, "the 12x16 digits fill the two lines under the first body line"
    assert not any(small.getpixel((x, y)) for x in range(WIDTH) for y in range(16, 32))


def test_grid_cursor_walks_only_the_legal_empty_boxes_in_reading_order():
    prompt = SCREENS["grid_cursor"]
    assert prompt.body[1:] == ("   2     R/O    R/O  ", "   1      B      6   ", " [R/O]    4     R/O  ")
    assert prompt.cursor is None and prompt.hints == "<> box  OK place"


def test_text_lines_fit_21_columns():
    for prompt in SCREENS.values():
        assert all(len(line) <= 21 for line in prompt.text().split("\n"))
