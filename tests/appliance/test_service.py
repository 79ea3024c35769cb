"""systemd notifications on a real AF_UNIX datagram socket, as systemd itself listens for them."""
import os
import socket
import uuid

import pytest

from companion.service import Notifier


@pytest.fixture
def listener(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def received(sock):
    return sock.recv(4096).decode()


def test_ready_watchdog_status_stopping_arrive_in_order(listener):
    path, sock = listener
    notifier = Notifier(path)
    assert notifier.enabled
    assert notifier.ready() and notifier.watchdog() and notifier.status("BANX: Ana  roll 2") and notifier.stopping()
    assert [received(sock) for _ in range(4)] == ["READY=1", "WATCHDOG=1", "STATUS=BANX: Ana roll 2", "STOPPING=1"]


def test_status_is_kept_to_one_line(listener):
    path, sock = listener
    Notifier(path).status("camera lost\nreconnecting")
    assert received(sock) == "STATUS=camera lost reconnecting"


def test_abstract_namespace_socket():
    name = f"dice-companion-test-{uuid.uuid4()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert Notifier("@" + name).watchdog()
        assert received(sock) == "WATCHDOG=1"


def test_the_socket_comes_from_the_environment(listener, monkeypatch):
    path, sock = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    Notifier().ready()
    assert received(sock) == "READY=1"


def test_without_systemd_every_call_is_a_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.enabled
    assert not notifier.ready() and not notifier.watchdog() and not notifier.stopping()


def test_a_vanished_socket_does_not_stop_the_game(tmp_path):
    assert Notifier(str(tmp_path / "gone")).watchdog() is False


@pytest.mark.parametrize("environ, expected", [
    ({"WATCHDOG_USEC": "30000000"}, 15.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 15.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),    # the watchdog is meant for another process
    ({"WATCHDOG_USEC": "0"}, None),
    ({"WATCHDOG_USEC": "soon"}, None),
    ({}, None),
])
def test_watchdog_interval_is_half_of_watchdog_sec(environ, expected):
    assert Notifier.watchdog_interval(environ) == expected


def test_watchdog_interval_reads_the_process_environment(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "8000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert Notifier("").watchdog_interval() == 4.0
