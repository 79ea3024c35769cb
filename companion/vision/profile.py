"""A calibration profile: every tunable of the dice reader, as data (JSON), for one tray, camera and set of dice.

The defaults work on unseen trays; `dice-companion calibrate` measures the rest (die size, tray region, the empty
tray's background, pip polarity, lighting). The other vision modules keep their taught models here too: `faces`
(kind -> taught face model), `owners` (body colour -> model) and `zones` (name -> polygon in image pixels).
"""
from __future__ import annotations

import base64
import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import cv2
import numpy as np

from ..errors import CompanionError
from .pips import POLARITY

POLARITIES = ("auto", *POLARITY)
"""A profile's pip polarity: decided per die ("auto"), or one for every die."""
DIE_PX = (8, 2000)
"""The die sizes (input pixels) a profile may store."""


class ProfileError(CompanionError):
    """A calibration file that cannot be used; the message names the file and the reason."""


@dataclass
class Profile:
    die_px: float | None = None
    """Size of a die across, in input pixels; None estimates it in every frame."""
    tray: tuple[int, int, int, int] | None = None
    """Play area [x0, y0, x1, y1] in input pixels; None means the whole frame."""
    background: str | None = None
    """The empty tray as a small base64 PNG (the median of calibration frames); None estimates it per frame."""
    min_contrast: float = 18.0
    """Least grey-level step between a die and the tray that counts as a die edge."""
    pip_polarity: str = "auto"
    """"dark" or "light" pips on every die, or "auto" to decide per die."""
    threshold: float = 0.5
    """Reads below this confidence are reported with value null."""
    second_opinion: bool = True
    """Whether dice the pip geometry leaves unread are shown to the small network that reads whole dice
    (die_net), which gives a value only when it is sure."""
    faces: dict = field(default_factory=dict)
    owners: dict = field(default_factory=dict)
    zones: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    """What calibration noticed (glare, dim light), for the person setting up the tray."""

    def __post_init__(self):
        if self.pip_polarity not in POLARITIES:
            raise ProfileError(f"pip_polarity must be one of {', '.join(POLARITIES)}, not {self.pip_polarity!r}")
        if self.die_px is not None and not (_number(self.die_px) and DIE_PX[0] <= self.die_px <= DIE_PX[1]):
            raise ProfileError(f"die_px must be {DIE_PX[0]}..{DIE_PX[1]} pixels, not {self.die_px!r}")
        if not (_number(self.threshold) and 0.0 <= self.threshold <= 1.0):
            raise ProfileError(f"threshold must be 0..1, not {self.threshold!r}")
        if not isinstance(self.second_opinion, bool):
            raise ProfileError(f"second_opinion must be true or false, not {self.second_opinion!r}")
        if not _number(self.min_contrast):
            raise ProfileError(f"min_contrast must be a number, not {self.min_contrast!r}")
        if self.tray is not None:
            if not isinstance(self.tray, (list, tuple)) or len(self.tray) != 4 \
                    or not all(_number(v) for v in self.tray) \
                    or not (self.tray[0] < self.tray[2] and self.tray[1] < self.tray[3]):
                raise ProfileError(f"tray must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1, not {self.tray!r}")
            self.tray = tuple(int(v) for v in self.tray)
        for name in ("faces", "owners", "zones"):
            if not isinstance(getattr(self, name), dict):
                raise ProfileError(f"{name} must be an object")

    # ------------------------------------------------------------------------------------------------ files

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise ProfileError(f"cannot read calibration {path}: {error.strerror or error}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ProfileError(f"calibration {path} is not JSON: {error}") from None
        if not isinstance(data, dict):
            raise ProfileError(f"calibration {path} must hold a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ProfileError(f"calibration {path}: unknown key {unknown[0]!r}")
        try:
            return cls(**data)
        except ProfileError as error:
            raise ProfileError(f"calibration {path}: {error}") from None
        except (TypeError, ValueError) as error:
            raise ProfileError(f"calibration {path}: {error}") from None

    def save(self, path: str | Path) -> None:
        data = asdict(self)
        data["tray"] = list(self.tray) if self.tray else None
        Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    # ------------------------------------------------------------------------------------------------ background

    def background_image(self) -> np.ndarray | None:
        """The stored empty-tray image (BGR, small), or None."""
        if not self.background:
            return None
        try:
            image = cv2.imdecode(np.frombuffer(base64.b64decode(self.background), np.uint8), cv2.IMREAD_COLOR)
        except ValueError:
            image = None
        if image is None:
            raise ProfileError("the calibration's background is not a PNG image")
        return image

    @staticmethod
    def encode_background(image_bgr: np.ndarray) -> str:
        ok, png = cv2.imencode(".png", image_bgr)
        return base64.b64encode(png.tobytes()).decode("ascii")


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
