"""Lowdown boards for full mode: the grids, which colours each box takes, the lines of three, cross-outs and the score.

A board is a plain value, a tuple of grids, each a tuple of cells in reading order (EMPTY, a number or BLACK), and the
crossed lines are a tuple of line keys; so a state holding boards copies cheaply. `Layout` holds what is the same on
every board of one game (LOW-25: `grids`, `grid_shape`, `box_layout`) and the rules that read a board: where a colour
may go (LOW-4), which lines may be crossed (LOW-15 to LOW-18) and the score (LOW-22).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from operator import itemgetter
from typing import Callable, Iterable, Sequence

from .base import IllegalActionError

EMPTY = None
BLACK = "B"
BLACK_POINTS = 6        # LOW-12: a black box scores 6
LINE_LENGTH = 3         # LOW-15: three boxes in a row, column or diagonal
LINE_TOTAL = 10         # LOW-15: ... whose numbers are equal or add up to 10
HALF_BOX = "*"          # in `box_layout`, a box that takes both colours of its grid
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

Board = tuple  # one tuple of cells per grid, in reading order


def initials(colours: Iterable[str]) -> str:
    """Colours as the OLED names them (UI-11): "R/O" for red/orange."""
    return "/".join(c[:1].upper() for c in colours)


def cell_text(cell) -> str:
    """A box in the spec's notation: a digit, "B" for black, "_" for empty."""
    return "_" if cell is EMPTY else str(cell)


@dataclass(frozen=True)
class Line:
    key: str                   # "red-orange:11-13": the grid, then the first and last box as row and column
    grid: int
    boxes: tuple[int, ...]     # indices into the grid's cells
    label: str                 # "R/O 11-13"
    read: Callable = field(init=False, compare=False, repr=False)   # a grid's cells -> the line's three cells

    def __post_init__(self):
        object.__setattr__(self, "read", itemgetter(*self.boxes))


class Layout:
    """The shape shared by every board of one game, and the board rules that depend on it."""

    def __init__(self, grids: Sequence[tuple[str, str]], shape: tuple[int, int], box_layout: Sequence[str] = ()):
        self.grids = tuple(grids)
        self.rows, self.cols = shape
        self.keys = tuple("-".join(pair) for pair in self.grids)
        self.accepts = self._accepts(box_layout)
        self.box_keys = tuple(tuple(f"{key}:{r + 1}{c + 1}" for r in range(self.rows) for c in range(self.cols))
                              for key in self.keys)
        # An empty box on the OLED: the initials of the colours it takes, "R/O" or "R"
        self.box_labels = tuple(tuple(initials(c for c in pair if c in takes) for takes in boxes)
                                for pair, boxes in zip(self.grids, self.accepts))
        self.box_at = {box: (g, i) for g, keys in enumerate(self.box_keys) for i, box in enumerate(keys)}
        self.lines = tuple(self._lines())
        self.line_at = {line.key: line for line in self.lines}
        # LOW-17: per line, the lines sharing a box with it; and the same as pairs
        self.crossing = {a.key: frozenset(b.key for b in self.lines
                                          if b is not a and b.grid == a.grid and set(a.boxes) & set(b.boxes))
                         for a in self.lines}
        self.conflicts = frozenset(frozenset((a, b)) for a, others in self.crossing.items() for b in others)
        # per colour, the boxes that take it (LOW-4), for the move checks of every prompt
        self.taking = {colour: tuple((g, i) for g, boxes in enumerate(self.accepts) for i, takes in enumerate(boxes)
                                     if colour in takes) for pair in self.grids for colour in pair}

    # Shape ----------------------------------------------------------------------------------------------------------
    def _accepts(self, box_layout: Sequence[str]) -> tuple[tuple[frozenset[str], ...], ...]:
        """Per grid and box, the colours the box takes (LOW-4, LOW-25). `box_layout` gives one string per grid in the
        spec's notation, rows split by "/", a colour name per full box and "*" per half box; empty = all half."""
        if not box_layout:
            return tuple((frozenset(pair),) * (self.rows * self.cols) for pair in self.grids)
        if len(box_layout) != len(self.grids):
            raise IllegalActionError(f"lowdown: box_layout needs {len(self.grids)} grids")
        grids = []
        for pair, text in zip(self.grids, box_layout):
            rows = [row.split() for row in str(text).split("/")]
            if len(rows) != self.rows or any(len(row) != self.cols for row in rows):
                raise IllegalActionError(f"lowdown: box_layout {'/'.join(pair)} is not {self.rows}x{self.cols}")
            boxes = []
            for token in (t for row in rows for t in row):
                if token != HALF_BOX and token not in pair:
                    raise IllegalActionError(f"lowdown: box {token!r} not in grid {'/'.join(pair)}")
                boxes.append(frozenset(pair) if token == HALF_BOX else frozenset((token,)))
            grids.append(tuple(boxes))
        return tuple(grids)

    def _lines(self) -> Iterable[Line]:
        span = LINE_LENGTH - 1
        for g, key in enumerate(self.keys):
            for r in range(self.rows):
                for c in range(self.cols):
                    for dr, dc in DIRECTIONS:
                        end_r, end_c = r + dr * span, c + dc * span
                        if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                            ends = f"{r + 1}{c + 1}-{end_r + 1}{end_c + 1}"
                            boxes = tuple((r + dr * k) * self.cols + c + dc * k for k in range(LINE_LENGTH))
                            yield Line(f"{key}:{ends}", g, boxes, f"{initials(self.grids[g])} {ends}")

    @property
    def boxes_per_grid(self) -> int:
        return self.rows * self.cols

    @property
    def total_boxes(self) -> int:
        return self.boxes_per_grid * len(self.grids)

    @property
    def fewest_filled_for_end(self) -> int:
        """Boxes a player must have filled before 2 of their grids can be full (LOW-20)."""
        return 2 * self.boxes_per_grid

    @property
    def filled_forcing_end(self) -> int:
        """Boxes filled after which 2 grids are full wherever they went: e empty boxes keep at most e grids open."""
        return self.total_boxes - (len(self.grids) - 2)

    # Placing ------------------------------------------------------------------------------------------------------
    def empty_board(self) -> Board:
        return tuple((EMPTY,) * self.boxes_per_grid for _ in self.grids)

    def open_boxes(self, board: Board, grid: int, colour: str | None = None) -> tuple[int, ...]:
        """Empty boxes of `grid` that take `colour` (LOW-4); any empty box when colour is None (wild, blackout)."""
        cells, takes = board[grid], self.accepts[grid]
        return tuple(i for i, cell in enumerate(cells) if cell is EMPTY and (colour is None or colour in takes[i]))

    def fits(self, board: Board, colours: Iterable[str]) -> bool:
        """Whether some empty box takes one of `colours`: the player has a move (LOW-10)."""
        return any(board[g][i] is EMPTY for colour in colours for g, i in self.taking.get(colour, ()))

    def place(self, board: Board, box: str, cell) -> Board:
        g, i = self.box_at[box]
        grid = board[g]
        return board[:g] + (grid[:i] + (cell,) + grid[i + 1:],) + board[g + 1:]

    def full_grids(self, board: Board) -> int:
        """LOW-20: a grid is full when no box is empty (numbers, crossed numbers and black boxes all count)."""
        return sum(EMPTY not in grid for grid in board)

    def filled(self, board: Board) -> int:
        return sum(cell is not EMPTY for grid in board for cell in grid)

    # Crossing out -------------------------------------------------------------------------------------------------
    def crossable(self, board: Board, line: Line) -> bool:
        """LOW-15, LOW-16: three numbers (no empty or black box), all equal or adding up to 10."""
        cells = line.read(board[line.grid])
        if EMPTY in cells or BLACK in cells:
            return False
        return len(set(cells)) == 1 or sum(cells) == LINE_TOTAL

    def eligible_lines(self, board: Board, crossed: Sequence[str]) -> tuple[Line, ...]:
        """Lines that may be crossed now: crossable, not crossed yet, and sharing no box with a crossed line
        (LOW-17, LOW-18)."""
        return tuple(line for line in self.lines if self.crossable(board, line) and line.key not in crossed
                     and self.crossing[line.key].isdisjoint(crossed))

    def check_crossing(self, board: Board, crossed: Sequence[str], keys: Sequence[str]) -> None:
        """Raise IllegalActionError unless `keys` may be crossed together now."""
        eligible = {line.key for line in self.eligible_lines(board, crossed)}
        for key in keys:
            if key not in eligible:
                raise IllegalActionError("line can't be crossed", "LOW-15")
        for a, b in combinations(keys, 2):
            if b in self.crossing[a]:
                raise IllegalActionError("lines may not cross", "LOW-17")

    # Scoring ------------------------------------------------------------------------------------------------------
    def score(self, board: Board, crossed: Sequence[str]) -> int:
        """LOW-22: numbers not crossed out, plus 6 per black box."""
        out = {(line.grid, i) for line in map(self.line_at.get, crossed) for i in line.boxes}
        total = 0
        for g, grid in enumerate(board):
            for i, cell in enumerate(grid):
                if cell == BLACK:
                    total += BLACK_POINTS
                elif cell is not EMPTY and (g, i) not in out:
                    total += cell
        return total

    def render(self, board: Board) -> dict[str, str]:
        """Each grid in the spec's notation, e.g. {"red-orange": "2 2 2 / 1 3 6 / 5 4 _"}."""
        return {key: " / ".join(" ".join(cell_text(c) for c in grid[r * self.cols:(r + 1) * self.cols])
                                for r in range(self.rows))
                for key, grid in zip(self.keys, board)}
