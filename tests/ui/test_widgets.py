"""The interactive screen types of controls.md as press-driven widgets (companion/ui/widgets.py)."""
from companion.games.base import Option
from companion.ui.controls import Press
from companion.ui.widgets import CANCEL, ChooseOne, Confirm, MultiSelect, Picked, Spinner

DICE = [Option(f"d{i}", str(v)) for i, v in enumerate((2, 5, 5, 6))]


def presses(widget, *sequence):
    """Feed presses; return the last answer (a Picked, CANCEL or None)."""
    answer = None
    for press in sequence:
        answer = widget.press(press)
    return answer


def test_ui_5_done_finishes_a_multi_select_from_any_row():
    widget = MultiSelect(DICE, low=0, high=4)
    assert presses(widget, Press.OK, Press.NEXT, Press.NEXT, Press.OK) is None   # two toggles, cursor mid-list
    assert widget.options[widget.cursor].key == "d2"
    assert presses(widget, Press.DONE) == Picked(("d0", "d2"))


def test_ui_5_done_does_not_finish_a_multi_select_outside_its_limits():
    widget = MultiSelect(DICE, low=1, high=2)
    assert presses(widget, Press.DONE) is None, "no die marked, at least one wanted"
    assert presses(widget, Press.OK, Press.DONE) == Picked(("d0",))


def test_ui_5_done_finishes_a_digit_by_digit_spinner_at_once():
    widget = Spinner(0, 99, default=40)
    assert presses(widget, Press.NEXT) is None                  # tens: 50
    assert presses(widget, Press.DONE) == Picked(50), "DONE does not wait for the units digit"
    other = Spinner(0, 99, default=40)
    assert presses(other, Press.NEXT, Press.OK) is None, "OK moves on to the units digit"
    assert presses(other, Press.NEXT, Press.OK) == Picked(51)


def test_ui_5_done_acts_as_ok_on_choose_one_and_confirm():
    choose_ok, choose_done = ChooseOne(DICE), ChooseOne(DICE)
    assert presses(choose_ok, Press.NEXT, Press.OK) == presses(choose_done, Press.NEXT, Press.DONE) == Picked("d1")
    assert presses(Confirm("bank", "roll"), Press.DONE) == Picked("bank")
    assert presses(Confirm("bank", CANCEL), Press.BACK) is CANCEL


def test_ui_7_lists_wrap_around_at_both_ends():
    widget = ChooseOne(DICE, default="d0")
    assert presses(widget, Press.PREV) is None and widget.options[widget.cursor].key == "d3"
    assert presses(widget, Press.NEXT) is None and widget.options[widget.cursor].key == "d0"
    spinner = Spinner(1, 6, default=6)
    assert presses(spinner, Press.NEXT, Press.OK) == Picked(1)


def test_a_one_answer_confirm_is_acknowledged_by_ok_alone():
    step = Confirm("yes", None)
    assert step.hints == "OK next"
    assert presses(step, Press.BACK, Press.PREV) is None
    assert presses(step, Press.OK) == Picked("yes")
