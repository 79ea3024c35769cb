"""Draw a prompt as a 128x64 one-bit image, laid out as controls.md says.

Line 1 is the inverted header naming whose decision it is, lines 2-6 the body, line 7 the public status, line 8 the
button hints: 21 characters of luma's 5x8 LCD font at a 6-pixel pitch. A single important number is drawn twice as
large (12x16). Screens are pure functions of the prompt, so tests compare them with reviewed reference images.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from luma.core.legacy.font import LCD_FONT
from PIL import Image, ImageDraw

WIDTH, HEIGHT = 128, 64
COLUMNS, BODY_LINES = 21, 5


@dataclass(frozen=True)
class Prompt:
    """Everything one screen shows. `cursor` is the body line holding the cursor, if any (drawn inverted).
    `big` is a number drawn in the 12x16 font below the body's first line."""

    header: str
    body: tuple[str, ...] = ()
    status: str = ""
    hints: str = ""
    cursor: int | None = None
    big: str | None = None
    lines: tuple[str, ...] = field(default=(), compare=False)

    def text(self) -> str:
        """The screen as plain text, 8 lines: what the terminal shows and what tests read."""
        body = list(self.body[:1]) + ([f"[{self.big}]"] if self.big else []) + list(self.body[1:])
        body = (body + [""] * BODY_LINES)[:BODY_LINES]
        return "\n".join(fit(line) for line in [self.header, *body, self.status, self.hints])


def fit(text: str, width: int = COLUMNS) -> str:
    return text if len(text) <= width else text[: width - 1] + "~"


def _glyph(char: str) -> list[int]:
    code = ord(char)
    return LCD_FONT[code if code < 256 else ord("?")][:5]


def draw_text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: int = 1, scale: int = 1) -> None:
    for i, char in enumerate(text):
        for col, bits in enumerate(_glyph(char)):
            for row in range(8):
                if bits >> row & 1:
                    px, py = x + (i * 6 + col) * scale, y + row * scale
                    draw.rectangle((px, py, px + scale - 1, py + scale - 1), fill=fill)


def render(prompt: Prompt) -> Image.Image:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, 7), fill=1)
    draw_text(draw, 1, 0, fit(prompt.header), fill=0)
    y = 8
    for index, line in enumerate(prompt.body[:BODY_LINES]):
        if prompt.cursor == index:
            draw.rectangle((0, y, WIDTH - 1, y + 7), fill=1)
        draw_text(draw, 1, y, fit(line), fill=0 if prompt.cursor == index else 1)
        y += 8
        if index == 0 and prompt.big:
            text = fit(prompt.big, 10)
            draw_text(draw, (WIDTH - len(text) * 12) // 2, y, text, scale=2)
            y += 16
    draw_text(draw, 1, 48, fit(prompt.status))
    draw.line((0, 55, WIDTH - 1, 55), fill=1)
    draw_text(draw, 1, 56, fit(prompt.hints))
    return image
