"""The fork server's sandboxes hold their socket and nothing else the judge had open, except
the descriptors it is told to keep (compute-sanitizer's pipes under `submit --sanitize`)."""

from __future__ import annotations

import os
import socket

import pytest

from gpuprep.harness import forkserver


def report_open_descriptors(sock: socket.socket) -> None:
    held = sorted(forkserver.inherited_fds() - {sock.fileno()})
    sock.sendall(repr(held).encode())


@pytest.fixture
def two_open_files(tmp_path):
    fds = [os.open(tmp_path / name, os.O_CREAT | os.O_RDONLY) for name in ("tool", "judge")]
    yield fds
    for fd in fds:
        os.close(fd)


def sandbox_sees(keep: frozenset[int]) -> list[int]:
    server = forkserver.start(report_open_descriptors, keep=keep)
    try:
        _pid, sock = server.spawn()  # the server reaps its children
        with sock:
            seen = sock.recv(4096).decode()
    finally:
        server.control.close()
        os.waitpid(server.pid, 0)
    return [int(part) for part in seen.strip("[]").split(",") if part.strip()]


def test_a_sandbox_holds_only_its_socket(two_open_files):
    assert sandbox_sees(frozenset()) == []


def test_a_sandbox_keeps_exactly_the_descriptors_it_is_told_to(two_open_files):
    tool, _judge = two_open_files
    assert sandbox_sees(frozenset({tool})) == [tool]


def test_inherited_fds_lists_what_is_open_and_not_what_was_closed(tmp_path):
    fd = os.open(tmp_path / "f", os.O_CREAT | os.O_RDONLY)
    assert fd in forkserver.inherited_fds()
    os.close(fd)
    assert fd not in forkserver.inherited_fds()
    assert not {0, 1, 2} & forkserver.inherited_fds()


OPEN_IN_EACH_CHILD: list[str] = []


def _open_in_child() -> None:
    # What compute-sanitizer's injected library does in every new process: open pipes of its own.
    if OPEN_IN_EACH_CHILD:
        os.open(OPEN_IN_EACH_CHILD[0], os.O_RDONLY)


os.register_at_fork(after_in_child=_open_in_child)


def test_a_sandbox_keeps_what_a_fork_handler_opened_in_it(tmp_path, two_open_files):
    (tmp_path / "tracker").write_text("")
    OPEN_IN_EACH_CHILD.append(str(tmp_path / "tracker"))
    try:
        seen = sandbox_sees(frozenset())
    finally:
        OPEN_IN_EACH_CHILD.clear()
    # The server opened one when it was forked (the sandbox drops it: not born in its own
    # fork), and the sandbox one of its own, which it keeps.
    assert len(seen) == 1 and seen[0] not in two_open_files
