"""A laptop's keyboard as the buttons: keys in a terminal (a real pty), lines in a pipe."""
import io
import os
import pty
import queue
import termios

import pytest

from companion.ui.controls import Press
from companion.ui.keyboard import KeyboardPanel


def collect(panel, count, timeout=2.0):
    presses = []
    for _ in range(count):
        presses.append(panel.presses.get(timeout=timeout))
    return presses


def listening(panel):
    panel.presses = queue.Queue()
    panel.when_pressed = panel.presses.put
    return panel


@pytest.fixture
def terminal():
    """A pseudo-terminal: the panel reads its child side as it would a real stdin."""
    parent, child = pty.openpty()
    stream = os.fdopen(child, "r", closefd=True)
    yield parent, stream
    stream.close()
    os.close(parent)


def test_keys_in_a_terminal_act_at_once(terminal):
    parent, stream = terminal
    panel = KeyboardPanel(stream)
    listening(panel)
    os.write(parent, b"kj\r\x7fumd")
    os.write(parent, b"\x1b[A\x1b[B\x1b[D\x1b[C")   # up, down, left, right
    os.write(parent, b"\x1b")                       # Esc alone
    assert collect(panel, 12) == [Press.PREV, Press.NEXT, Press.OK, Press.BACK, Press.UNDO, Press.MENU, Press.DONE,
                                  Press.PREV, Press.NEXT, Press.PREV, Press.NEXT, Press.BACK]
    panel.close()


def test_the_terminal_mode_is_restored_on_close(terminal):
    _, stream = terminal
    before = termios.tcgetattr(stream.fileno())
    panel = KeyboardPanel(stream)
    during = termios.tcgetattr(stream.fileno())
    assert not during[3] & termios.ICANON and not during[3] & termios.ECHO   # cbreak: keys without Enter
    panel.close()
    assert termios.tcgetattr(stream.fileno()) == before


@pytest.fixture
def pipe():
    read_end, write_end = os.pipe()
    stream = os.fdopen(read_end, "r")
    yield write_end, stream
    stream.close()
    os.close(write_end)


def test_a_pipe_is_read_as_lines_of_keys_or_names(pipe):
    write_end, stream = pipe
    panel = listening(KeyboardPanel(stream))
    os.write(write_end, b"j\njjk\n\nundo\nMenu\nxyz\nd\nback\n")
    assert collect(panel, 9) == [Press.NEXT, Press.NEXT, Press.NEXT, Press.PREV, Press.OK, Press.UNDO, Press.MENU,
                                 Press.DONE, Press.BACK]
    panel.close()
    assert panel.presses.empty()


def test_a_text_stream_without_a_descriptor_works_too():
    panel = listening(KeyboardPanel(io.StringIO("next\nok\n")))
    assert collect(panel, 2) == [Press.NEXT, Press.OK]
    panel.close()


def test_ui_2_in_a_spinner_the_undo_and_menu_keys_are_silent_as_on_the_buttons(pipe):
    write_end, stream = pipe
    panel = listening(KeyboardPanel(stream))
    panel.spinner = True
    os.write(write_end, b"u\nm\nj\n")
    assert collect(panel, 1) == [Press.NEXT]
    panel.spinner = False
    os.write(write_end, b"u\n")
    assert collect(panel, 1) == [Press.UNDO]
    panel.close()
