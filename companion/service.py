"""systemd's notify protocol (sd_notify), written to $NOTIFY_SOCKET directly: readiness, watchdog, status, stopping.

The unit (systemd/dice-companion.service) is Type=notify with WatchdogSec: the main loop calls `ready()` once the
camera, display and journal are open, `watchdog()` at least every `watchdog_interval()` seconds, and `stopping()`
when SIGTERM ends the game. Outside systemd there is no socket and every call does nothing.
"""
from __future__ import annotations

import os
import socket


class Notifier:
    """Talks to systemd through `socket_path`; None (the default) takes $NOTIFY_SOCKET, "" disables."""

    def __init__(self, socket_path: str | None = None):
        if socket_path is None:
            socket_path = os.environ.get("NOTIFY_SOCKET")
        # "@name" is a socket in the abstract namespace, whose address starts with a NUL byte.
        self.address = "\0" + socket_path[1:] if socket_path and socket_path.startswith("@") else socket_path or None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def ready(self) -> bool:
        return self.notify("READY=1")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def status(self, text: str) -> bool:
        """A one-line status shown by `systemctl status`."""
        return self.notify("STATUS=" + " ".join(text.split()))

    def notify(self, message: str) -> bool:
        """Send one datagram; False when there is no socket or systemd is gone (never an error: the game matters
        more than the notification)."""
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError:
            return False
        return True

    @staticmethod
    def watchdog_interval(environ=os.environ) -> float | None:
        """Seconds between `watchdog()` calls: half of WatchdogSec as systemd passes it (WATCHDOG_USEC), or None
        when no watchdog is asked for this process."""
        try:
            usec = int(environ.get("WATCHDOG_USEC", ""))
        except ValueError:
            return None
        pid = environ.get("WATCHDOG_PID")
        if usec <= 0 or (pid and pid != str(os.getpid())):
            return None
        return usec / 2 / 1_000_000
