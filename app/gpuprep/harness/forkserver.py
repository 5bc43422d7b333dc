"""The fork server: sandboxes forked from a process that has torch but no CUDA context.

Standard library only. The judge forks this server once, after the heavy imports and before
anything initialises CUDA, so a sandbox starts in milliseconds (no second `import torch`) and
may still initialise CUDA itself. Each sandbox gets one end of a fresh socket pair and no other
inherited descriptor, a fresh working folder and limits on file size and core dumps, and dies
with its parent; it turns Landlock on itself once its device is open (`sandbox.py`). The judge is a child subreaper: anything a
sandbox leaves behind, even a detached process, is reparented to it and killed with the run.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import socket
import tempfile
import time
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
#: The largest file a sandbox may write (its log included).
FILE_LIMIT = 256 * 2**20


def _prctl(option: int, value: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def guard_the_judge() -> None:
    """Judge side: no core dumps or ptrace of its memory by the same user; adopt orphans."""
    _prctl(_PR_SET_DUMPABLE, 0)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def writable_folders(workdir: str) -> list[str]:
    """Where a sandbox may write: its folder, the temp folder, devices, compilers' caches.

    The caches under the home folder are made first: once Landlock is on, the sandbox could
    not create them, and Triton or CuPy would fail on their first compile."""
    home = os.path.expanduser("~")
    caches = [os.path.join(home, name) for name in (".triton", ".cupy", ".nv", ".cache")]
    for folder in caches:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            pass
    chosen = [os.environ.get(k, "") for k in ("TRITON_CACHE_DIR", "TRITON_HOME", "CUPY_CACHE_DIR")]
    folders = [workdir, tempfile.gettempdir(), "/dev", *chosen, *caches]
    return [f for f in folders if f and os.path.isdir(f)]


class ForkServer:
    """The judge's handle on the server: ask for a sandbox, get its pid and socket."""

    def __init__(self, pid: int, control: socket.socket) -> None:
        self.pid = pid
        self.control = control

    def spawn(self) -> tuple[int, socket.socket]:
        self.control.sendall(b"f")
        message, fds, _, _ = socket.recv_fds(self.control, 64, 1)
        if not message or not fds:
            raise OSError("the fork server is gone")
        return int(message), socket.socket(fileno=fds[0])


def inherited_fds() -> set[int]:
    """The descriptors above stderr this process holds now: call it first thing, to learn what
    its launcher passed (the result pipe; under compute-sanitizer, the tool's own pipes)."""
    listed = (
        {int(fd) for fd in os.listdir("/proc/self/fd")} if os.path.isdir("/proc/self/fd") else set()
    )
    held = set()
    for fd in listed - {0, 1, 2}:
        try:
            os.fstat(fd)  # the listing's own descriptor is closed again by now
        except OSError:
            continue
        held.add(fd)
    return held


def start(
    become_sandbox: Callable[[socket.socket], None], keep: frozenset[int] = frozenset()
) -> ForkServer:
    """Fork the server; it calls `become_sandbox(sock)` in each child it forks.

    Each child closes every inherited descriptor but its socket, `keep` and those born in the
    fork itself: under compute-sanitizer, the tool's pipes (the judge's, and the ones its
    injected library opens for each new process), without which that library ends the process
    (exit 255) at the first kernel it instruments (benchmarks/sanitizer_fork_probe.py, H200,
    2026-12-01)."""
    judge_end, server_end = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        judge_end.close()
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        _serve(server_end, become_sandbox, keep)
    server_end.close()
    return ForkServer(pid, judge_end)


def _serve(
    control: socket.socket, become_sandbox: Callable[[socket.socket], None], keep: frozenset[int]
) -> None:
    try:
        while control.recv(1):
            judge_end, sandbox_end = socket.socketpair()
            before = inherited_fds()
            pid = os.fork()
            if pid == 0:
                # Opened by an injected library's fork handler (compute-sanitizer's, registering
                # the new process with its front end), not by the judge: kept, like `keep`.
                born = inherited_fds() - before
                control.close()
                judge_end.close()
                _harden(sandbox_end, keep | born)
                become_sandbox(sandbox_end)
                os._exit(0)
            sandbox_end.close()
            socket.send_fds(control, [str(pid).encode()], [judge_end.fileno()])
            judge_end.close()
            _reap()
    finally:
        os._exit(0)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _harden(sock: socket.socket, keep: frozenset[int] = frozenset()) -> None:
    """The child's first steps, before any of its code runs: the sandbox proper."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    low = 3
    for fd in sorted({*keep, sock.fileno()}):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)
    workdir = tempfile.mkdtemp(prefix="gpuprep-sandbox-")
    os.chdir(workdir)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def descendants(root: int) -> list[int]:
    """Every process below `root`, from /proc (children before their parents' siblings)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found, queue = [], list(children.get(root, []))
    while queue:
        pid = queue.pop()
        found.append(pid)
        queue += children.get(pid, [])
    return found


def kill_all_but(root: int, keep: set[int]) -> None:
    """Kill every descendant of `root` outside `keep`, and reap what becomes ours."""
    for _ in range(5):
        doomed = [pid for pid in descendants(root) if pid not in keep]
        if not doomed:
            return
        for pid in doomed:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)
        _reap()
