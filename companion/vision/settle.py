"""Is the roll over? Frame differencing on a small grey copy of each frame, cheap enough for every frame on a Pi.

Each frame is shrunk to cells of 8x8 pixels by averaging (which also averages the sensor noise away) and compared
with the previous one. A change of the light (auto exposure, a cloud, mains flicker) scales every cell by about the
same factor, so the previous frame is first scaled by the median ratio of the two: only cells that still differ by
more than `threshold` grey levels count as motion. The scene is "settled" once `quiet_frames` frames in a row show
fewer than `min_cells` moving cells.

The reader's reading of settled frames is then offered back: a roll is reported (offer returns True) once the same
reading has come `repeats` times in a row, and only once per still period. A still scene that looks like the one
last reported (a hand passed over the tray and left, the light drifted) is not reported again: the dice have not
moved, so it is not a new roll.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..errors import ConfigError

MOVING = "moving"
SETTLED = "settled"


class SettleDetector:
    """Tells "moving" from "settled" frame by frame and reports each roll's reading once."""

    def __init__(self, quiet_frames: int = 3, threshold: float = 10.0, repeats: int = 2, min_cells: int = 3,
                 cell: int = 8):
        for name, value in (("quiet_frames", quiet_frames), ("repeats", repeats), ("min_cells", min_cells),
                            ("cell", cell), ("threshold", threshold)):
            if not value > 0:
                raise ConfigError(f"settle {name} must be more than 0, not {value!r}")
        self.quiet_frames = quiet_frames
        self.threshold = threshold
        self.repeats = repeats
        self.min_cells = min_cells
        self.cell = cell
        self.reset()

    def reset(self):
        """Forget everything seen: the next frames start a new scene, and its roll will be reported."""
        self._previous: np.ndarray | None = None
        self._quiet = 0
        self._reading = None
        self._streak = 0
        self._reported = False
        self._reported_scene: np.ndarray | None = None

    @property
    def is_settled(self) -> bool:
        return self._quiet >= self.quiet_frames

    @property
    def state(self) -> str:
        return SETTLED if self.is_settled else MOVING

    @property
    def is_reported(self) -> bool:
        """Whether this still period's roll has been reported, or its dice disowned: `offer` returns False whatever
        it is offered until the scene moves, so its frames need no reading."""
        return self._reported

    def update(self, frame_bgr: np.ndarray) -> str:
        """Take the next camera frame; returns "moving" or "settled".

        A camera back at another resolution shows cells that cannot be compared with the last frame's: the scene
        starts anew, and the dice it shows are taken for those in view before (`disown`), not for a roll. Compared
        on their coarser common cells instead, still dice moved 8 cells of 1,200 between 640x480 and 800x600 (a
        die's edge falls across other cells at each resolution), and a die nudged aside 25."""
        small = self._shrink(frame_bgr)
        resized = self._previous is not None and small.shape != self._previous.shape
        if resized:
            self.reset()
        was_settled = self.is_settled
        if self._previous is not None and not self._moved(self._previous, small):
            self._quiet += 1
        else:
            self._quiet = 0
            self._reading, self._streak = None, 0
            if was_settled or self._previous is None:
                self._reported = False
        self._previous = small
        if self.is_settled and not was_settled and self._reported_scene is not None:
            self._reported = not self._moved(self._reported_scene, small)
        if resized:
            self.disown()
        return self.state

    def disown(self) -> None:
        """The dice in view, still or still rolling, are no roll to report: their roll began before it was asked
        for (a turn ended by another player's action while the dice tumbled). The next roll is reported once the
        scene has moved and settled again."""
        if self._previous is not None:  # no frame yet, no dice in view
            # while the dice move, the flag lasts until they have settled and moved again; the still scene they
            # will make is not known yet, so there is no scene to compare it with
            self._reported = True
            self._reported_scene = self._previous if self.is_settled else None

    def offer(self, reading) -> bool:
        """The reader's reading of the frame just given to update(). True exactly once per still period: when the
        same reading has come `repeats` settled frames in a row. Always False while the scene moves."""
        if not self.is_settled or self._reported:
            return False
        self._streak = self._streak + 1 if self._streak and reading == self._reading else 1
        self._reading = reading
        if self._streak < self.repeats:
            return False
        self._reported = True
        self._reported_scene = self._previous
        return True

    def _shrink(self, frame: np.ndarray) -> np.ndarray:
        if frame is None or frame.ndim not in (2, 3) or frame.shape[0] < self.cell or frame.shape[1] < self.cell:
            raise ValueError("a frame must be a grey or BGR image at least one cell across")
        h, w = frame.shape[0] // self.cell, frame.shape[1] // self.cell
        # Bilinear sampling to twice the size averages 2x2 pixels at a tenth of the cost of an area resize of the
        # whole frame; the area resize of that small image then averages 16 pixels per cell.
        half = cv2.resize(frame, (2 * w, 2 * h), interpolation=cv2.INTER_LINEAR)
        small = cv2.resize(half, (w, h), interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return small.astype(np.float32)

    def _moved(self, before: np.ndarray, after: np.ndarray) -> bool:
        gain = float(np.median((after + 1.0) / (before + 1.0)))
        return int(np.count_nonzero(np.abs(after - gain * before) > self.threshold)) >= self.min_cells
