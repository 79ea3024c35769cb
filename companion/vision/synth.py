"""Top-down pictures of dice on a tray, drawn with OpenCV: test images and the demo's recorded camera frames.

A die is a rounded square with a darker bevel, a soft shadow and its top face: pips laid out as on a real d6
(pip diameter size/5), a drawn symbol (for taught symbol dice such as the Chance Die) or a solid colour (colour
dice). The camera is modelled after the dice are drawn: uneven light (`light_gradient`), lens blur, sensor noise and
the camera's white balance (per-channel gains), so a classifier can be taught under one light and tested under
another. The same arguments and seed always give the same image; the seed only drives the sensor noise and the
tumbling of `render_roll_frames`, so consecutive frames of a still scene differ by noise alone, as a camera's do.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

BGR = tuple[int, int, int]

# Lowdown's six colour faces as a camera under neutral light sees them (BGR). Red/orange and blue/purple are close.
COLOUR_FACES: dict[str, BGR] = {
    "red": (45, 40, 200),
    "orange": (30, 125, 240),
    "yellow": (50, 215, 235),
    "green": (70, 165, 45),
    "blue": (195, 105, 35),
    "purple": (150, 55, 125),
}

SYMBOLS = ("blank", "star", "crescent", "cross", "ring", "triangle")

# Pip centres per value on a die of side 1, centred on (0, 0).
_A = 0.27
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0, 0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0, 0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (_A, -_A), (-_A, 0), (_A, 0), (-_A, _A), (_A, _A)),
}

TRAY_GREEN: BGR = (55, 95, 45)
_SHIFT = 4  # sub-pixel bits for cv2 drawing
_SCALE = 1 << _SHIFT


@dataclass(frozen=True)
class SynthDie:
    """One die to draw. `kind` "pips" shows `value`; "symbol" draws `symbol` (default: the face name, which must
    then be one of SYMBOLS) in the `pips` colour; "colour" paints the top face in `paint` (default:
    COLOUR_FACES[face], which must then be one of them)."""

    value: int | None = None
    face: str | None = None
    kind: str = "pips"
    body: BGR = (228, 234, 238)
    pips: BGR = (35, 30, 30)
    center: tuple[float, float] = (320.0, 240.0)
    size: float = 48.0
    angle: float = 0.0
    symbol: str | None = None
    paint: BGR | None = None
    pip_reach: float = _A
    """How far a corner pip's centre lies from the face's centre along each side, over the die's side (some makes
    set their pips nearer the rounded corners than common dice do)."""

    def __post_init__(self):
        if self.kind == "pips" and self.value not in PIP_LAYOUTS:
            raise ValueError(f"a pip die needs a value 1-6, not {self.value!r}")
        if self.kind == "symbol" and self.drawn_symbol not in SYMBOLS:
            raise ValueError(f"unknown symbol {self.drawn_symbol!r}; known: {', '.join(SYMBOLS)}")
        if self.kind == "colour" and self.paint is None and self.face not in COLOUR_FACES:
            raise ValueError(f"unknown colour face {self.face!r}; known: {', '.join(COLOUR_FACES)}")
        if self.kind not in ("pips", "symbol", "colour"):
            raise ValueError(f"a die kind is pips, symbol or colour, not {self.kind!r}")
        if self.size < 8:
            raise ValueError(f"a die must be at least 8 px across, not {self.size}")

    @property
    def drawn_symbol(self) -> str | None:
        return self.symbol if self.symbol is not None else self.face


# ------------------------------------------------------------------------------------------------ geometry

def _rounded_square(half: float, radius: float, steps: int = 6) -> np.ndarray:
    """Outline of a square of half-side `half` with corners rounded to `radius`, counter-clockwise."""
    points = []
    inner = half - radius
    for cx, cy, start in ((inner, inner, 0), (-inner, inner, 90), (-inner, -inner, 180), (inner, -inner, 270)):
        for k in range(steps + 1):
            a = math.radians(start + 90 * k / steps)
            points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return np.array(points)


def _star(outer: float, inner: float, points: int = 5) -> np.ndarray:
    angles = np.arange(2 * points) * math.pi / points - math.pi / 2
    radii = np.where(np.arange(2 * points) % 2 == 0, outer, inner)
    return np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=1)


class _Pen:
    """Draws in a die's own frame (unit = die side, origin at its centre) onto the image, rotated and placed."""

    def __init__(self, image: np.ndarray, center, size: float, angle: float):
        self.image = image
        self.size = size
        a = math.radians(angle)
        self.rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        self.origin = np.asarray(center, dtype=float)

    def _fixed(self, points) -> np.ndarray:
        placed = np.asarray(points, dtype=float) @ self.rotation.T * self.size + self.origin
        return np.round(placed * _SCALE).astype(np.int32)

    def polygon(self, points, colour):
        cv2.fillPoly(self.image, [self._fixed(points)], colour, cv2.LINE_AA, _SHIFT)

    def disc(self, center, radius, colour, thickness=-1):
        c = self._fixed([center])[0]
        width = thickness if thickness < 0 else max(1, round(thickness * self.size))
        pixels = radius * self.size - (0.5 if thickness < 0 else 0.0)   # anti-aliasing widens a disc by 1/2 px
        cv2.circle(self.image, (int(c[0]), int(c[1])), round(pixels * _SCALE), colour, width, cv2.LINE_AA, _SHIFT)


def _draw_symbol(pen: _Pen, symbol: str, ink, body):
    if symbol == "star":
        pen.polygon(_star(0.33, 0.14), ink)
    elif symbol == "crescent":
        pen.disc((0, 0), 0.28, ink)
        pen.disc((0.12, -0.06), 0.24, body)
    elif symbol == "cross":
        bar = np.array([(-0.30, -0.07), (0.30, -0.07), (0.30, 0.07), (-0.30, 0.07)])
        for turn in (math.pi / 4, -math.pi / 4):
            c, s = math.cos(turn), math.sin(turn)
            pen.polygon(bar @ np.array([[c, -s], [s, c]]).T, ink)
    elif symbol == "ring":
        pen.disc((0, 0), 0.24, ink, thickness=0.08)
    elif symbol == "triangle":
        pen.polygon(_star(0.32, 0.32, points=3)[::2], ink)


def _shade(colour, factor) -> tuple[int, int, int]:
    return tuple(int(min(255, c * factor)) for c in colour)


def _draw_die(image: np.ndarray, die: SynthDie):
    pen = _Pen(image, die.center, die.size, die.angle)
    pen.polygon(_rounded_square(0.5, 0.14), _shade(die.body, 0.72))        # bevel: the rounded edges
    top = (die.paint or COLOUR_FACES[die.face]) if die.kind == "colour" else die.body
    pen.polygon(_rounded_square(0.44, 0.10), top)
    if die.kind == "pips":
        for x, y in PIP_LAYOUTS[die.value]:
            pen.disc((x * die.pip_reach / _A, y * die.pip_reach / _A), 0.1, die.pips)
    elif die.kind == "symbol":
        _draw_symbol(pen, die.drawn_symbol, die.pips, die.body)


def _tray(size: tuple[int, int], background: BGR, texture: float) -> np.ndarray:
    """A tray with a faint felt texture; the same for every frame of one size, as a real tray is."""
    w, h = size
    image = np.empty((h, w, 3), np.float32)
    image[:] = background
    if texture > 0:
        grain = np.random.default_rng(12345).normal(0, 1, (h, w)).astype(np.float32)
        grain = cv2.GaussianBlur(grain, (0, 0), 1.5)
        image += (grain * (texture / max(float(grain.std()), 1e-6)))[..., None]
    return image


def render_scene(dice, size: tuple[int, int] = (640, 480), background: BGR = TRAY_GREEN, seed: int = 0,
                 noise: float = 2.0, light_gradient: float = 0.0, blur: float = 0.0,
                 white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0), texture: float = 3.0,
                 channel_mix=None) -> np.ndarray:
    """A BGR uint8 camera frame of `dice` (SynthDie) lying on a tray, seen from straight above.

    `noise` is the sensor noise's standard deviation in grey levels, `light_gradient` how much darker the bottom
    right is than the top left (0.3: 30 %), `blur` the lens blur's sigma in pixels, `white_balance` the camera's
    gains for (B, G, R). `channel_mix`, a 3x3 matrix (rows: B, G, R out; columns: B, G, R in), models a light whose
    change is not a per-channel gain, as a real lamp's is not quite: each channel picks up some of the others
    before the white balance. Only the noise depends on `seed`.
    """
    w, h = size
    image = _tray(size, background, texture)
    shadow = np.zeros((h, w), np.float32)
    for die in dice:
        cast = np.asarray(die.center) + np.array([0.06, 0.08]) * die.size
        _Pen(shadow, cast, die.size * 1.04, die.angle).polygon(_rounded_square(0.5, 0.14), 1.0)
    if dice:
        sigma = 0.08 * float(np.mean([d.size for d in dice]))
        image *= 1.0 - 0.45 * cv2.GaussianBlur(shadow, (0, 0), sigma)[..., None]
    canvas = np.clip(image, 0, 255).astype(np.uint8)
    for die in dice:
        _draw_die(canvas, die)
    frame = canvas.astype(np.float32)
    if light_gradient:
        ramp = (np.arange(w)[None, :] / w + np.arange(h)[:, None] / h) / 2
        frame *= (1.0 - light_gradient * ramp).astype(np.float32)[..., None]
    if blur:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    if noise:
        frame += np.random.default_rng(seed).normal(0, noise, frame.shape).astype(np.float32)
    if channel_mix is not None:
        frame = cv2.transform(frame, np.asarray(channel_mix, np.float32))
    frame *= np.asarray(white_balance, np.float32)
    return np.clip(frame + 0.5, 0, 255).astype(np.uint8)


def render_roll_frames(dice, moving: int = 8, still: int = 8, seed: int = 0, **scene) -> list[np.ndarray]:
    """Frames of a roll as a camera sees it: `moving` frames of the dice tumbling in and slowing down onto their
    final places and faces, then `still` frames of `dice` at rest (differing by sensor noise only).
    `scene` takes render_scene's keyword arguments."""
    rng = np.random.default_rng(seed)
    w, h = scene.get("size", (640, 480))
    starts = [(rng.uniform(-3, 3) * d.size, rng.uniform(-3, 3) * d.size, rng.uniform(180, 720)) for d in dice]
    frames = []
    for i in range(moving):
        left = (1 - i / moving) ** 2             # slows down as it lands
        tumbling = []
        for die, (dx, dy, spin) in zip(dice, starts):
            x = min(max(die.center[0] + left * dx, die.size), w - die.size)
            y = min(max(die.center[1] + left * dy, die.size), h - die.size)
            value = int(rng.integers(1, 7)) if die.kind == "pips" else die.value
            tumbling.append(replace(die, value=value, center=(x, y), angle=die.angle + left * spin))
        frames.append(render_scene(tumbling, seed=seed * 1000 + i, **scene))
    for j in range(still):
        frames.append(render_scene(dice, seed=seed * 1000 + moving + j, **scene))
    return frames


def render_views(die: SynthDie, n: int, seed: int = 0, size: tuple[int, int] = (160, 160),
                 noise: tuple[float, float] = (1.0, 4.0), blur: tuple[float, float] = (0.0, 1.0),
                 light_gradient: tuple[float, float] = (0.0, 0.3), scale: tuple[float, float] = (0.85, 1.15),
                 **scene) -> list[tuple[np.ndarray, SynthDie]]:
    """`n` frames of `die` alone, each at a random place, turn and size (die.size times `scale`) and with random
    noise, blur and light gradient drawn from the given (low, high) ranges: examples to teach and test face
    models. Returns (frame, the die as placed) pairs; `scene` takes render_scene's other keyword arguments."""
    rng = np.random.default_rng(seed)
    w, h = size
    views = []
    for i in range(n):
        side = die.size * rng.uniform(*scale)
        placed = replace(die, center=(rng.uniform(side, w - side), rng.uniform(side, h - side)), size=side,
                         angle=rng.uniform(0, 360))
        frame = render_scene([placed], size=size, seed=seed * 7919 + i, noise=rng.uniform(*noise),
                             blur=rng.uniform(*blur), light_gradient=rng.uniform(*light_gradient), **scene)
        views.append((frame, placed))
    return views
