"""What the judge and the sandbox say to each other, and how it crosses the socket.

Standard library only: both processes import this. Each message is a 4-byte length and a
body. The judge's requests are pickled (the sandbox trusts the judge; a request carries the
shared arena's CUDA IPC handle, which only pickling can rebuild). The sandbox's replies are
JSON and nothing else, capped in size: the judge never unpickles anything the submission's
process wrote, so no reply can run code in the judge.
"""

from __future__ import annotations

import json
import os
import pickle
import socket
import struct
from typing import Any, Literal, TypedDict

from gpuprep.harness.methods import KernelCode

#: A reply larger than this is not a reply of ours: the sandbox is treated as broken.
MAX_REPLY_BYTES = 1 << 20
_HEADER = struct.Struct("!I")


class SandboxGone(Exception):
    """The sandbox closed its end or sent something that is not a reply."""


class Slot(TypedDict):
    """One tensor laid out in the shared arena: where it starts and what it is."""

    offset: int
    """Byte offset of the first element in the arena."""
    shape: list[int]
    """The tensor's shape."""
    dtype: str
    """'float32', 'bfloat16' or 'float16'."""


class OutputSlot(TypedDict):
    """Where the sandbox copies the output's bytes after the (timed) call."""

    offset: int
    capacity: int
    """Bytes available; a larger output is described, not copied."""


class OutputFacts(TypedDict, total=False):
    """What the sandbox saw of the returned object. Untrusted: the values in the slot are
    what the judge checks; these only explain a wrong form to an honest author."""

    kind: Literal["tensor", "subclass", "other"]
    type_name: str
    attributes: list[str]
    shape: list[int]
    dtype: str
    device: str
    contiguous: bool
    strides: list[int]
    aliases: str
    copied: bool


class CallReply(TypedDict, total=False):
    """The sandbox's answer to one call."""

    ok: bool
    """False when the call raised (then `error` and `traceback` say how)."""
    error: str
    traceback: str
    event_ms: float
    """CUDA-event time of the call (timed calls only)."""
    output: OutputFacts
    forbidden: list[str]
    """Library ops outside what this kernel may call, seen while it ran."""
    overflow: str
    """A write past the end of a tensor the call allocated, as the guard bands saw it."""
    stream: str
    """The call left another CUDA stream current."""
    launches: int
    """Triton kernels launched during the call (absent where launches cannot be counted)."""
    kernel_files: list[str]
    """Real paths of the files whose Triton kernels the sandbox has launched so far."""
    kernel_code: list[KernelCode]
    """On a GPU, the instruction families of each kernel launched so far (from its PTX)."""
    sandbox_ms: float
    """Wall time the sandbox spent on the request (a profiling aid; never part of a verdict)."""
    profile: str
    """cProfile's top functions for the sandbox's first call (GPUPREP_JUDGE_PROFILE only)."""


class LoadReply(TypedDict, total=False):
    """The sandbox's answer to loading a kernel file."""

    ok: bool
    missing: bool
    """The file loaded but defines no entry function of that name."""
    error: str
    traceback: str
    forbidden: list[str]
    modules: list[str]
    """Real paths of the modules the load imported, to spot a borrowed rung."""


def send_request(sock: socket.socket, request: dict[str, Any]) -> None:
    """Judge to sandbox: pickled."""
    body = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(_HEADER.pack(len(body)) + body)


def receive_request(sock: socket.socket) -> dict[str, Any]:
    """Sandbox side of `send_request`."""
    request: dict[str, Any] = pickle.loads(_receive(sock, limit=None))
    return request


def send_reply(sock: socket.socket, reply: dict[str, Any]) -> None:
    """Sandbox to judge: JSON."""
    body = json.dumps(reply, default=str).encode()
    sock.sendall(_HEADER.pack(len(body)) + body)


def receive_reply(sock: socket.socket) -> dict[str, Any]:
    """Judge side of `send_reply`: parsed as JSON, never unpickled; a dict or SandboxGone."""
    body = _receive(sock, limit=MAX_REPLY_BYTES)
    try:
        reply = json.loads(body)
    except ValueError as error:
        raise SandboxGone("the sandbox sent something that is not JSON") from error
    if not isinstance(reply, dict):
        raise SandboxGone("the sandbox sent something that is not a reply")
    return reply


def _receive(sock: socket.socket, limit: int | None) -> bytes:
    (size,) = _HEADER.unpack(_exactly(sock, _HEADER.size))
    if limit is not None and size > limit:
        raise SandboxGone(f"the sandbox sent a {size}-byte reply (at most {limit})")
    return _exactly(sock, size)


def _exactly(sock: socket.socket, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(min(size - len(chunks), 1 << 20))
        if not chunk:
            raise SandboxGone("the sandbox closed its end")
        chunks += chunk
    return bytes(chunks)


class Channel:
    """The private pipe back to the app; every line carries the nonce the app sent."""

    def __init__(self, fd: int, nonce: str) -> None:
        self._fd = fd
        self._nonce = nonce

    def send(self, event: str, **payload: object) -> None:
        line = json.dumps({"nonce": self._nonce, "event": event, **payload}, default=str) + "\n"
        data = line.encode()
        while data:
            data = data[os.write(self._fd, data) :]
