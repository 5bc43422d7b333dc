"""A real `gpuprep` in a pseudo-terminal, killed with SIGKILL mid-scoring: the scorecard is in
the store when it comes back (nothing is held in memory waiting for a clean exit)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from gpuprep.store.database import Store
from gpuprep.store.scorecards import ScorecardStore

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="drives a Linux pty")

GPUPREP = Path(sys.executable).with_name("gpuprep")
F6 = b"\x1b[17~"


class Terminal:
    """`gpuprep` running in a pty of 100x30, its output collected by a thread."""

    def __init__(self, home: Path) -> None:
        env = {
            **os.environ,
            "GPUPREP_HOME": str(home),
            "TERM": "xterm-256color",
            "COLUMNS": "100",
            "LINES": "30",
        }
        env.pop("NO_COLOR", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become gpuprep
            os.execve(str(GPUPREP), [str(GPUPREP)], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.output = bytearray()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def wait_for(self, text: bytes, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{text!r} never appeared; last output: {bytes(self.output[-400:])!r}"
                )
            time.sleep(0.1)

    def send(self, *keys: bytes, pause: float = 0.4) -> None:
        for key in keys:
            os.write(self.fd, key)
            time.sleep(pause)

    def kill(self) -> int:
        os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return status


def until(check, timeout: float = 30.0):  # noqa: ANN001, ANN201
    """Poll `check()` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError("timed out waiting for the store")


def scorecards(home: Path) -> list:
    path = home / "progress.db"
    if not path.exists():
        return []
    store = Store(path)
    try:
        return ScorecardStore(store).scorecards()
    finally:
        store.close()


def test_a_scorecard_being_filled_survives_kill_9_and_is_there_on_restart(tmp_path):
    home = tmp_path / "home"
    app = Terminal(home)
    try:
        app.wait_for(b"Due today")
        app.send(F6, pause=2.0)
        app.send(b"a", b"c", pause=1.0)
        app.send(b"Ada\r")
        (card,) = until(lambda: scorecards(home))
        first = card.question_ids[0]
        app.send(b" ")  # tick the first strong signal
        app.send(b"\t", b"\t", b"4")  # past the red flags to the first dimension: level 4
        until(lambda: scorecards(home)[0].scores.get("questions", {}).get(first, {}).get("levels"))
        status = app.kill()
    finally:
        if app.pid:
            try:
                os.kill(app.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL

    # The CLI, a fresh process, reads it back.
    shown = subprocess.run(
        [str(GPUPREP), "scorecards", str(card.id), "--json"],
        env={**os.environ, "GPUPREP_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    document = json.loads(shown.stdout)
    (question,) = [q for q in document["questions"] if q["id"] == first]
    assert document["candidate"] == "Ada"
    assert len(question["signals_heard"]) == 1
    assert [d["level"] for d in question["dimensions"]][0] == 4

    # And the app, restarted, opens it from the interviewer's list.
    again = Terminal(home)
    try:
        again.wait_for(b"Due today")
        again.send(F6, pause=2.0)
        again.send(b"r", pause=1.0)
        again.send(b"\r", pause=1.0)
        again.wait_for(b"Scorecard 1: Ada")
    finally:
        again.kill()
