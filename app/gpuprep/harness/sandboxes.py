"""The judge's handles on its sandboxes: requests with a time limit, and a clean end.

Judge side, standard library only.
"""

from __future__ import annotations

import os
import select
import signal
import time
from typing import Any

from gpuprep.harness import forkserver, protocol

#: Seconds a sandbox may take to start (and, on a GPU, to open its CUDA context).
STARTUP_S = 120.0


class Stopped(Exception):
    """The sandbox ended or ran out of time; `status` and `message` say which, in words."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def _exit_description(pid: int) -> str:
    """How a sandbox ended, from its zombie's /proc entry (its parent reaps it later)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        status = int(fields[49])
    except (OSError, IndexError, ValueError):
        return "it ended"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = "segmentation fault" if number == signal.SIGSEGV else signal.Signals(number).name
        return f"it was killed by {name}"
    if os.WIFEXITED(status):
        return f"it exited with code {os.WEXITSTATUS(status)}"
    return "it closed its end"


class Sandbox:
    """The judge's handle on one sandbox: requests with a time limit, and its end."""

    def __init__(self, server: forkserver.ForkServer) -> None:
        self.server = server
        self.pid, self.sock = server.spawn()

    def ask(self, request: dict[str, Any], limit_s: float, phase: str) -> dict[str, Any]:
        try:
            protocol.send_request(self.sock, request)
            ready, _, _ = select.select([self.sock], [], [], max(limit_s, 0.0))
            if not ready:
                raise Stopped("timeout", f"{phase} took over {limit_s:.3g} s; the sandbox was stopped")
            return protocol.receive_reply(self.sock)
        except (protocol.SandboxGone, OSError) as error:
            time.sleep(0.05)
            raise Stopped(
                "crashed", f"the sandbox ended during {phase}: {_exit_description(self.pid)} ({error})"
            ) from None

    def close(self) -> None:
        try:
            protocol.send_request(self.sock, {"op": "bye"})
        except OSError:
            pass
        self.sock.close()
        forkserver.kill_all_but(os.getpid(), keep={self.server.pid})


def chunk_hint(dims: dict[str, int]) -> str:
    largest = max(dims.values(), default=0)
    if largest < 16384:
        return ""
    return (
        f" (if one block spans a whole row or array, it cannot hold {largest} elements: "
        "loop over it in chunks)"
    )
