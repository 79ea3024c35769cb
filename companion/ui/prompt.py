"""Build prompts: the header naming who decides, a scrolling window of rows, the status and the hints."""
from __future__ import annotations

from typing import Sequence

from ..games.base import Decision, RollRequest
from .screens import BODY_LINES, Prompt
from .widgets import Row


def header(names: Sequence[str], player: int | None, context: str = "", role: str | None = None) -> str:
    """Line 1 (UI-9): the decider's name, at most 8 characters upper case, then the context. Never blank."""
    who = role or ("ALL" if player is None else names[player][:8].upper())
    return f"{who}  {context}".rstrip()


def window(rows: Sequence[Row], cursor: int, height: int) -> tuple[list[str], int | None]:
    """At most `height` rows around the cursor, with ^ and v at the right edge when the list scrolls (screen 1)."""
    if len(rows) <= height:
        return [r.text for r in rows], cursor if rows else None
    top = min(max(cursor - height // 2, 0), len(rows) - height)
    lines = [r.text for r in rows[top: top + height]]
    if top > 0:
        lines[0] = lines[0][:20].ljust(20) + "^"
    if top + height < len(rows):
        lines[-1] = lines[-1][:20].ljust(20) + "v"
    return lines, cursor - top


def with_rows(head: str, question: str, widget, status: str, extra: Sequence[str] = (), big: str | None = None,
              hints: str | None = None) -> Prompt:
    """A prompt whose body is the question, any extra lines, then the widget's rows around its cursor."""
    fixed = ([question] if question else []) + list(extra)
    room = BODY_LINES - len(fixed) - (2 if big else 0)
    rows, cursor = window(widget.rows(), widget.cursor_row, max(room, 1))
    inverts = getattr(widget, "inverts", True) and widget.rows()
    return Prompt(header=head, body=tuple(fixed + rows), status=status, hints=hints or widget.hints,
                  cursor=len(fixed) + cursor if inverts and cursor is not None else None, big=big)


def decision_prompt(names: Sequence[str], decision: Decision, widget, status: str, message: str = "") -> Prompt:
    """The status line shows, by priority, the last refusal, why a row is bracketed (UI-6), the game's status."""
    head = header(names, decision.player, decision.context, decision.role)
    big = str(widget.value) if decision.kind == "spinner" else None
    reason = widget.reason() if hasattr(widget, "reason") else ""
    return with_rows(head, decision.question, widget, message or reason or status, big=big)


def roll_prompt(names: Sequence[str], request: RollRequest, status: str) -> Prompt:
    head = header(names, request.player, request.context, request.role)
    body = (request.message, *request.lines)[:BODY_LINES]
    return Prompt(header=head, body=tuple(body), status=status, hints="roll  hold< undo")
