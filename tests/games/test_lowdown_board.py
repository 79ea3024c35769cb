"""Lowdown's board rules (companion/games/lowdown_board.py): colours per box, lines, cross-outs and the score."""
import pytest

from companion.games import IllegalActionError
from companion.games.lowdown_board import BLACK, EMPTY, Layout

GRIDS = (("red", "orange"), ("purple", "blue"), ("green", "yellow"))
LAYOUT = Layout(GRIDS, (3, 3))


def board(**grids: str):
    """A board from the spec's notation, e.g. board(red_orange="2 2 2 / 1 3 6 / 5 4 2"); missing grids are empty."""
    out = []
    for key in LAYOUT.keys:
        text = grids.get(key.replace("-", "_"), " / ".join(["_ _ _"] * 3))
        out.append(tuple(EMPTY if t == "_" else BLACK if t == "B" else int(t) for t in text.replace("/", " ").split()))
    return tuple(out)


def eligible(b, crossed=()):
    return {line.key for line in LAYOUT.eligible_lines(b, crossed)}


# Worked example 4: Ana's board at the end of the game.
ANA = board(red_orange="2 2 2 / 1 3 6 / 5 4 2", green_yellow="6 1 3 / 5 5 5 / 2 B 4",
            purple_blue="4 _ 3 / _ 6 _ / _ _ 1")


def test_low_15_lines_of_equal_numbers_or_ten_are_eligible():
    assert eligible(ANA) == {"red-orange:11-13", "red-orange:21-23", "red-orange:13-33", "red-orange:13-31",
                             "green-yellow:11-13", "green-yellow:21-23", "green-yellow:13-31"}


def test_low_15_a_3x3_grid_has_eight_lines():
    keys = [line.key for line in LAYOUT.lines if line.grid == 0]
    assert sorted(keys) == sorted(["red-orange:11-13", "red-orange:21-23", "red-orange:31-33", "red-orange:11-31",
                                   "red-orange:12-32", "red-orange:13-33", "red-orange:11-33", "red-orange:13-31"])


def test_example_4_crossing_both_rows_first_scores_37():
    crossed = ("red-orange:11-13", "red-orange:21-23", "green-yellow:21-23", "green-yellow:11-13")
    LAYOUT.check_crossing(ANA, (), crossed)
    assert eligible(ANA, crossed) == set()
    assert LAYOUT.score(ANA, crossed) == 11 + 12 + 14 == 37


def test_example_4_crossing_column_3_first_blocks_every_other_line():
    crossed = ("red-orange:13-33",)
    assert {k for k in eligible(ANA, crossed) if k.startswith("red-orange")} == set()
    assert LAYOUT.score(board(red_orange="2 2 2 / 1 3 6 / 5 4 2"), crossed) == 27 - 10 == 17


def test_low_16_line_through_a_black_box_is_never_eligible():
    # 4, B, 6 would make 10 with B as 0; 2, B, 2 would make 10 with B as 6
    b = board(red_orange="4 B 6 / 2 B 2 / _ _ _")
    assert eligible(b) == set()
    assert not LAYOUT.crossable(b, LAYOUT.line_at["red-orange:11-13"])


def test_low_16_line_with_an_empty_box_is_not_eligible():
    assert eligible(board(red_orange="5 5 _ / _ _ _ / _ _ _")) == set()


@pytest.mark.parametrize("pair", [("red-orange:11-33", "red-orange:13-31"), ("red-orange:11-13", "red-orange:11-31"),
                                  ("red-orange:21-23", "red-orange:12-32")])
def test_low_17_lines_sharing_a_box_may_not_both_be_crossed(pair):
    # both diagonals, a row and a column: every pair shares a box
    b = board(red_orange="5 5 5 / 5 5 5 / 5 5 5")
    with pytest.raises(IllegalActionError) as error:
        LAYOUT.check_crossing(b, (), pair)
    assert error.value.rule == "LOW-17"
    LAYOUT.check_crossing(b, (), pair[:1])


def test_low_17_a_diagonal_excludes_every_other_line_of_its_grid():
    b = board(red_orange="5 5 5 / 5 5 5 / 5 5 5")
    assert eligible(b, ("red-orange:11-33",)) == set()
    assert eligible(b, ("red-orange:11-13",)) == {"red-orange:21-23", "red-orange:31-33"}


def test_low_18_an_uncrossed_line_stays_eligible_until_it_conflicts():
    b = board(red_orange="2 2 2 / 1 3 6 / _ _ _")
    assert "red-orange:11-13" in eligible(b)
    later = LAYOUT.place(LAYOUT.place(LAYOUT.place(b, "red-orange:31", 5), "red-orange:32", 4), "red-orange:33", 2)
    assert "red-orange:11-13" in eligible(later)
    assert "red-orange:11-13" not in eligible(later, ("red-orange:13-33",))
    with pytest.raises(IllegalActionError) as error:
        LAYOUT.check_crossing(later, ("red-orange:13-33",), ("red-orange:11-13",))
    assert error.value.rule == "LOW-15"


def test_low_22_score_counts_uncrossed_numbers_and_six_per_black_box():
    b = board(red_orange="1 2 3 / B _ _ / _ _ _", green_yellow="B B _ / _ _ _ / _ _ _")
    assert LAYOUT.score(b, ()) == 6 + 3 * 6


def test_low_20_grid_full_counts_numbers_crossed_numbers_and_black_boxes():
    assert LAYOUT.full_grids(ANA) == 2
    assert LAYOUT.full_grids(board(red_orange="B B B / B B B / B B _")) == 0
    assert LAYOUT.filled(ANA) == 22


def test_low_25_default_boxes_take_both_colours_of_their_grid():
    empty = LAYOUT.empty_board()
    assert LAYOUT.open_boxes(empty, 0, "red") == LAYOUT.open_boxes(empty, 0, "orange") == tuple(range(9))
    assert LAYOUT.open_boxes(empty, 0, "blue") == ()
    assert LAYOUT.fits(empty, ["green"]) and not LAYOUT.fits(ANA, ["red", "orange"])


def test_low_4_full_colour_box_takes_only_its_colour():
    layout = Layout(GRIDS, (3, 3), ("red * orange / * * * / * * *", "* * * / * * * / * * *",
                                    "* * * / * * * / * * *"))
    empty = layout.empty_board()
    assert layout.open_boxes(empty, 0, "red") == (0, 1, 3, 4, 5, 6, 7, 8)
    assert layout.open_boxes(empty, 0, "orange") == (1, 2, 3, 4, 5, 6, 7, 8)
    assert layout.open_boxes(empty, 0, None) == tuple(range(9))
    assert layout.box_labels[0][:3] == ("R", "R/O", "O")
    only_red_left = layout.place(layout.place(empty, "red-orange:12", 1), "red-orange:13", 1)
    for box in ("red-orange:21", "red-orange:22", "red-orange:23", "red-orange:31", "red-orange:32",
                "red-orange:33"):
        only_red_left = layout.place(only_red_left, box, 1)
    assert layout.fits(only_red_left, ["red"]) and not layout.fits(only_red_left, ["orange"])


@pytest.mark.parametrize("box_layout, message", [
    (("* * *",), "box_layout needs 3 grids"),
    (("* * * / * * *", "* * * / * * * / * * *", "* * * / * * * / * * *"), "is not 3x3"),
    (("red * blue / * * * / * * *", "* * * / * * * / * * *", "* * * / * * * / * * *"), "'blue' not in grid"),
])
def test_low_25_bad_box_layout_is_refused_with_one_line(box_layout, message):
    with pytest.raises(IllegalActionError, match=message):
        Layout(GRIDS, (3, 3), box_layout)


def test_low_25_grid_shape_sets_the_lines_of_three():
    wide = Layout(GRIDS, (3, 4))
    per_grid = [line for line in wide.lines if line.grid == 0]
    # rows: 2 per row x 3, columns: 4, diagonals: 2 per direction
    assert len(per_grid) == 6 + 4 + 4
    assert wide.fewest_filled_for_end == 24 and wide.filled_forcing_end == 35


def test_render_uses_the_spec_notation():
    assert LAYOUT.render(ANA)["green-yellow"] == "6 1 3 / 5 5 5 / 2 B 4"
    assert LAYOUT.render(ANA)["purple-blue"] == "4 _ 3 / _ 6 _ / _ _ 1"
