"""systemd notifications on a real AF_UNIX datagram socket, as systemd itself listens for them."""
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from contextlib import closing

import cv2
import numpy as np
import pytest

from companion.service import Notifier
from companion.session.journal import Journal
from tests.faults.scripted import scripted_game


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


# ------------------------------------------------------------------------------------------ the service's process

def test_the_running_service_is_ready_pets_the_watchdog_and_stops_cleanly_on_sigterm(listener, tmp_path):
    """`dice-companion run` as systemd starts it: NOTIFY_SOCKET and WATCHDOG_USEC in its environment, a game in
    progress in its journal. Its main loop must send READY=1, then WATCHDOG=1 every WatchdogSec/2 and a STATUS= line
    whenever the screen's header changes, and SIGTERM must end it with STOPPING=1, exit status 0 and the journal
    whole."""
    path, sock = listener
    journal = tmp_path / "journal.sqlite"
    setup, events, _ = scripted_game("banx", seed=11)
    with closing(Journal(journal)) as book:
        game = book.new_game(setup)
        for event in events[:12]:
            book.append(game, event)
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "000.png"), np.zeros((480, 640, 3), np.uint8))
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[table]\njournal = "{journal}"\n[camera]\nsource = "folder"\npath = "{frames}"\nloop = true\n'
                   '[display]\ndriver = "dummy"\n[buttons]\nbackend = "keyboard"\n')
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000"}   # WatchdogSec=0.4: a pet every 0.2 s
    env.pop("WATCHDOG_PID", None)
    service = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", str(cfg)], env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        sock.settimeout(60)                  # importing OpenCV on a busy machine
        assert received(sock) == "READY=1"
        service.stdin.write("ok\n")          # "Resume banx" on the home screen
        service.stdin.flush()
        sock.settimeout(2)
        started, pets, statuses = time.monotonic(), 0, []
        while pets < 4:
            message = received(sock)
            pets += message == "WATCHDOG=1"
            statuses += [message] if message.startswith("STATUS=") else []
        assert time.monotonic() - started < 4
        assert statuses and statuses[-1].startswith("STATUS=BANX: "), statuses   # the resumed game, whose turn
        service.send_signal(signal.SIGTERM)
        assert received(sock) == "STOPPING=1"
        out, err = service.communicate(timeout=30)
    finally:
        service.kill()
    assert service.returncode == 0 and err == "", err
    with closing(sqlite3.connect(journal)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with closing(Journal(journal)) as book:
        assert book.unfinished() == game and book.events(game) == events[:12]
