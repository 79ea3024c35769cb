"""Draw what the reader saw on a copy of the frame: each die's box, its value or '?', and its confidence."""
from __future__ import annotations

import cv2
import numpy as np

from .reader import ReadDie

READ_COLOUR = (40, 200, 40)
DOUBT_COLOUR = (0, 140, 255)


def annotate(frame_bgr: np.ndarray, dice: list[ReadDie]) -> np.ndarray:
    out = frame_bgr.copy()
    scale = max(0.4, max(out.shape[:2]) / 1000)
    for die in dice:
        read = die.value is not None or die.face is not None
        colour = READ_COLOUR if read else DOUBT_COLOUR
        x0, y0, x1, y1 = (int(round(v)) for v in die.bbox)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, max(1, int(2 * scale)))
        label = (str(die.value) if die.value is not None else die.face or "?") + f" {die.confidence:.2f}"
        cv2.putText(out, label, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour,
                    max(1, int(1.5 * scale)), cv2.LINE_AA)
    return out
