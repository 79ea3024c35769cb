"""Which button presses answer a decision with a given choice: how the demo and scripted tests press buttons.

The presses are found by driving a fresh widget of the decision, exactly as a player's fingers would, walking the
cursor forward only as controls.md counts presses; so a planned sequence is also a check that the screens can reach
every legal answer.
"""
from __future__ import annotations

from ..games.base import Choice, Decision, Interrupt, split_seed
from ..ui.controls import Press
from ..ui.widgets import ChooseOne, Confirm, MultiSelect, Picked, Spinner, widget_for


class Unreachable(ValueError):
    """The choice cannot be entered with the buttons on this decision's screen."""


def presses_for(decision: Decision, choice: Choice) -> list[Press]:
    widget = widget_for(decision)
    value = choice.value
    if isinstance(widget, Confirm):
        if value == widget.yes:
            return [Press.OK]
        if value == widget.no:
            return [Press.BACK]
        raise Unreachable(f"{value!r} is not an answer to this confirm")
    if isinstance(widget, Spinner):
        return _spin(widget, value)
    presses: list[Press] = []
    seeded = split_seed(value)
    if seeded and any(o.seeded and o.key == seeded[0] for o in decision.options):
        value = seeded[0]  # the row is picked by its key; its seed is drawn when it is picked
    targets = list(value) if isinstance(widget, MultiSelect) else [value]
    for target in targets:
        presses += _walk_to(widget, target)
        presses.append(Press.OK)
        if not isinstance(widget, MultiSelect):
            return presses
        widget.press(Press.OK)
    return presses + [Press.DONE]


def presses_for_interrupt(interrupts: tuple[Interrupt, ...], choice: Choice) -> list[Press]:
    """MENU, down to the out-of-turn action (listed first, UI-4), OK to pick it and OK to confirm it."""
    for index, interrupt in enumerate(interrupts):
        if interrupt.option.key == choice.value and choice.player in (None, interrupt.player):
            return [Press.MENU] + [Press.NEXT] * index + [Press.OK, Press.OK]
    raise Unreachable(f"{choice.value!r} is not an out-of-turn action now")


def _walk_to(widget: ChooseOne, key) -> list[Press]:
    moves = []
    for _ in range(len(widget.options) + 1):
        if widget.options[widget.cursor].key == key and widget.options[widget.cursor].enabled:
            return moves
        widget.press(Press.NEXT)
        moves.append(Press.NEXT)
    raise Unreachable(f"{key!r} is not a row of this screen")


def _spin(widget: Spinner, target) -> list[Press]:
    if not isinstance(target, int) or not widget.low <= target <= widget.high:
        raise Unreachable(f"{target!r} is outside {widget.low}-{widget.high}")
    presses: list[Press] = []
    for _ in range(10 * (len(str(widget.high)) + 1) + widget.high - widget.low + 1):
        place = widget.place
        done = widget.value == target if place == 1 else (widget.value // place) % 10 == (target // place) % 10
        if done:
            presses.append(Press.OK)
            if isinstance(widget.press(Press.OK), Picked):
                return presses
            continue
        step = Press.NEXT if (widget.value < target if place == 1 else True) else Press.PREV
        widget.press(step)
        presses.append(step)
    raise Unreachable(f"{target} cannot be spun on this spinner")
