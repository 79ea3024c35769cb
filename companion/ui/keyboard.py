"""A laptop's keyboard as the four buttons: the same `when_pressed` / `spinner` / `close()` as ButtonPanel.

On a terminal the keys act at once (cbreak mode, restored by `close()`): arrows or k/j move (PREV/NEXT), Enter is
OK, Backspace or Esc is BACK, u/m/d are the long presses UNDO/MENU/DONE. When stdin is a pipe or a file, each line is
read as keys, or as one press by name ("next", "ok", "undo"); an empty line is OK. The terminal's own key repeat
steps a spinner, so `spinner` only silences u and m there, as holding PREV/NEXT does on the buttons (UI-2).
"""
from __future__ import annotations

import os
import select
import sys
import termios
import threading
import tty
from typing import Callable, TextIO

from .controls import Press

KEYS = {
    "k": Press.PREV, "j": Press.NEXT, "\r": Press.OK, "\n": Press.OK, "\x7f": Press.BACK, "\b": Press.BACK,
    "\x1b": Press.BACK, "b": Press.BACK, "u": Press.UNDO, "m": Press.MENU, "d": Press.DONE,
}
ARROWS = {"A": Press.PREV, "D": Press.PREV, "B": Press.NEXT, "C": Press.NEXT}   # ESC [ A = up, ...
ESCAPE_WAIT_S = 0.05   # an Esc followed within this time by '[' starts an arrow key, otherwise it is BACK
POLL_S = 0.1           # how often the reader thread checks whether it was closed


class KeyboardPanel:
    def __init__(self, stream: TextIO = sys.stdin):
        self._handler: Callable[[Press], None] | None = None
        self.spinner = False
        self._stream = stream
        self._closed = threading.Event()
        self._saved_mode = None
        try:
            self._fd = stream.fileno()
        except (AttributeError, OSError, ValueError):   # io.StringIO and friends have no descriptor
            self._fd = None
        if self._fd is not None and os.isatty(self._fd):
            self._saved_mode = termios.tcgetattr(self._fd)
            tty.setcbreak(self._fd)
            target = self._read_keys
        else:
            target = self._read_lines
        self._thread = threading.Thread(target=target, name="keyboard", daemon=True)

    @property
    def when_pressed(self) -> Callable[[Press], None] | None:
        return self._handler

    @when_pressed.setter
    def when_pressed(self, handler: Callable[[Press], None] | None) -> None:
        """Keys are read from the first time a handler is set, so that none is lost before."""
        self._handler = handler
        if handler is not None and self._thread.ident is None:
            self._thread.start()

    def close(self) -> None:
        self._closed.set()
        if self._saved_mode is not None:
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved_mode)
            self._saved_mode = None
        if self._thread.ident is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)

    def __enter__(self) -> KeyboardPanel:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # reader threads -----------------------------------------------------------------------------------------------
    def _read_keys(self) -> None:
        while not self._closed.is_set():
            key = self._next_char(POLL_S)
            if key is None:
                continue
            if key == "":
                return
            if key == "\x1b" and self._next_char(ESCAPE_WAIT_S) == "[":
                self._emit(ARROWS.get(self._next_char(ESCAPE_WAIT_S) or ""))
            else:
                self._emit(KEYS.get(key.lower()))

    def _next_char(self, timeout: float) -> str | None:
        return self._next_chunk(timeout, 1)

    def _next_chunk(self, timeout: float, size: int) -> str | None:
        """Up to `size` characters, "" at the end of input, None when nothing came within `timeout`."""
        ready, _, _ = select.select([self._fd], [], [], timeout)
        if not ready:
            return None
        return os.read(self._fd, size).decode("utf-8", errors="replace")

    def _read_lines(self) -> None:
        for line in self._lines():
            if self._closed.is_set():
                return
            word = line.strip().upper()
            if word in Press.__members__:
                self._emit(Press[word])
            elif not word:
                self._emit(Press.OK)
            else:
                for key in line.strip():
                    self._emit(KEYS.get(key.lower()))

    def _lines(self):
        """Lines of a pipe or file; a descriptor is polled so that `close()` need not wait for the next line."""
        if self._fd is None:
            yield from iter(self._stream.readline, "")
            return
        pending = ""
        while not self._closed.is_set():
            chunk = self._next_chunk(POLL_S, 4096)
            if chunk == "":
                break
            if chunk is not None:
                *lines, pending = (pending + chunk).split("\n")
                yield from lines
        if pending:
            yield pending

    def _emit(self, press: Press | None) -> None:
        handler = self._handler
        if press is None or handler is None or (self.spinner and press in (Press.UNDO, Press.MENU)):
            return
        handler(press)
