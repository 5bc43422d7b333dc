"""The untrusted side: a process that imports a kernel file, calls it and times it.

Forked by the fork server (`forkserver.py`) after torch and triton are imported and before
CUDA is initialised. It holds nothing worth forging: no reference, no tolerance, no seed, no
channel to the app. It reads the inputs the judge wrote into the shared arena, calls the entry
function, times it with CUDA events, copies the output into the arena's output slot and
answers in JSON. Whatever the submission does to this process (patching torch, lying in its
replies, exiting) changes only what the judge is told, and the judge checks the values.
"""

from __future__ import annotations

import os
import socket
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from gpuprep.harness import protocol
from gpuprep.harness.arena import dtype_name, view
from gpuprep.harness.guard import WRAPPER_OPS, call_guarded
from gpuprep.harness.launches import LaunchCounter, interpreter_autotuning
from gpuprep.harness.loading import EntryMissing, load_entry, new_modules
from gpuprep.harness.references import VENDOR_OPS

if TYPE_CHECKING:
    from gpuprep.harness.timing import Timer

HARNESS_DIR = os.path.dirname(os.path.abspath(__file__))


def traceback_tail(error: BaseException, lines: int = 14) -> str:
    """The end of the traceback, without the harness's own frames."""
    try:
        frames = [
            f
            for f in traceback.extract_tb(error.__traceback__)
            # Python's import machinery is noise beside the user's own file and line.
            if not f.filename.startswith(HARNESS_DIR) and not f.filename.startswith("<frozen ")
        ]
        text = "".join(traceback.format_list(frames)) + "".join(
            traceback.format_exception_only(type(error), error)
        )
    except Exception:  # noqa: BLE001 - an exception whose str() raises
        text = f"{type(error).__name__} (its message could not be printed)"
    return "\n".join(text.rstrip().splitlines()[-lines:])


def describe_error(error: BaseException) -> str:
    try:
        message = str(error).strip()
    except Exception:  # noqa: BLE001
        message = "(its message could not be printed)"
    return f"{type(error).__name__}: {message[:2000]}" if message else type(error).__name__


class Sandbox:
    """Answers the judge's requests, one at a time, until told to stop or killed."""

    def __init__(self, sock: socket.socket, arena: torch.Tensor | None) -> None:
        self.sock = sock
        self.device = torch.device("cpu")
        self.arena = arena
        self.timer: Timer | None = None
        self.function: Callable[..., object] | None = None
        self.forbidden: list[str] = []
        self.allowed: frozenset[str] | None = None
        self.launches: LaunchCounter | None = None
        """Hooked into Triton at hello, once the device is open."""
        self.sanitized = False
        """Under compute-sanitizer (`submit --sanitize`): no guard bands, see `call`."""
        self.profiled = False

    def serve(self) -> None:
        handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            "hello": self.hello,
            "load": self.load,
            "call": self.call,
            "noop": self.noop,
        }
        while True:
            request = protocol.receive_request(self.sock)
            if request["op"] == "bye":
                return
            try:
                reply = handlers[request["op"]](request)
            except Exception as error:  # noqa: BLE001 - told to the judge, which decides
                reply = {
                    "ok": False,
                    "error": describe_error(error),
                    "traceback": "".join(traceback.format_exception(error))[-3000:],
                }
            protocol.send_reply(self.sock, reply)

    def hello(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("sanitize"):
            # Uncached, so memcheck sees each of this process's tensors as its own allocation
            # (a store past a cached block's end lands in the cache, unseen). Here and not in the
            # judge: the judge's arena must come from the caching allocator to be shared by IPC.
            from gpuprep.harness.sanitizer import SANDBOX_ENV

            os.environ.update(SANDBOX_ENV)
        if request["device"] == "cuda":
            torch.cuda.set_device(request["index"])
            self.device = torch.device("cuda", request["index"])
            rebuild, args = request["arena_handle"]
            self.arena = rebuild(*args)
            from gpuprep.harness.timing import Timer

            self.timer = Timer(self.device)
        self.forbidden = request["forbidden"]
        self.allowed = WRAPPER_OPS if request["role"] == "submission" else None
        self.launches = LaunchCounter()
        if self.device.type != "cuda":
            interpreter_autotuning()
        # Only now, with the device open: the CUDA driver's own start-up fails under Landlock
        # (error 304 on an H200), and nothing of the submission's has run yet.
        from gpuprep.harness.forkserver import writable_folders
        from gpuprep.harness.landlock import restrict_writes

        self.sanitized = bool(request.get("sanitize"))
        # Under compute-sanitizer too: its library reports through pipes the sandbox keeps
        # (forkserver), not sockets; both sanitizer GPU tests pass scoped (H200, 2026-12-01).
        restrict_writes(writable_folders(os.getcwd()))
        return {"ok": True}

    def load(self, request: dict[str, Any]) -> protocol.LoadReply:
        if request.get("vendor"):
            self.function = VENDOR_OPS[request["vendor"]]
            return {"ok": True, "forbidden": [], "modules": []}
        if request.get("language") == "cuda" and self.device.type == "cuda" and self.launches:
            self.launches.track_cupy()
        before = set(sys.modules)
        try:
            entry, guard = call_guarded(
                load_entry, [Path(request["path"]), request["entry"]], self.forbidden, self.allowed
            )
        except EntryMissing as error:
            return {"ok": False, "missing": True, "error": str(error)}
        except BaseException as error:  # noqa: BLE001 - the file's import may raise anything
            return {"ok": False, "error": describe_error(error), "traceback": traceback_tail(error)}
        assert callable(entry)  # load_entry raises EntryMissing otherwise
        self.function = entry
        return {
            "ok": True,
            "forbidden": sorted(set(guard.seen)),
            "modules": new_modules(before),
        }

    def noop(self, request: dict[str, Any]) -> dict[str, Any]:
        """A timed call of nothing: the judge's measure of its own round trip."""
        if self.timer is not None:
            _, event_ms, _ = self.timer.time_one(lambda: None)
            return {"ok": True, "event_ms": event_ms}
        return {"ok": True}

    def call(self, request: dict[str, Any]) -> protocol.CallReply:
        assert self.arena is not None and self.function is not None and self.launches is not None
        launches = self.launches
        args = [view(self.arena, slot) for slot in request["inputs"]]
        params = list(request.get("params") or [])
        function, forbidden, allowed = self.function, self.forbidden, self.allowed
        box: dict[str, Any] = {}

        def guarded() -> object:
            box["out"], box["guard"] = call_guarded(
                function,
                [*args, *params],
                forbidden,
                allowed,
                # A band would hold a store past the output's end inside the allocation, where
                # memcheck cannot see it: under the sanitizer the real bounds are the check.
                bands=not request["timed"] and not self.sanitized,
            )
            return box["out"]

        reply: protocol.CallReply = {"ok": True}
        began = time.perf_counter()
        launches_before = launches.count
        try:
            if request["timed"] and self.timer is not None:
                _, reply["event_ms"], _ = self.timer.time_one(guarded)
                reply["stream"] = self.timer.stream_problem()
            elif PROFILE_FIRST_CALL and not self.profiled:
                self.profiled = True
                reply["profile"] = _profiled(guarded, self.device)
            else:
                guarded()
                if self.device.type == "cuda":
                    torch.cuda.synchronize()
        except BaseException as error:  # noqa: BLE001
            return {"ok": False, "error": describe_error(error), "traceback": traceback_tail(error)}
        guard = box["guard"]
        if launches.hooked:
            reply["launches"] = launches.count - launches_before
            reply["kernel_files"] = sorted(launches.files)
        if launches.code:
            reply["kernel_code"] = launches.report()
        reply["forbidden"] = sorted(set(guard.seen))
        reply["overflow"] = guard.overflow()
        reply["output"] = self._deliver(box["out"], args, request["out"])
        reply["sandbox_ms"] = (time.perf_counter() - began) * 1e3
        return reply

    def _deliver(
        self, out: object, args: list[torch.Tensor], slot: protocol.OutputSlot
    ) -> protocol.OutputFacts:
        """Describe the output and copy its bytes into the output slot."""
        if not isinstance(out, torch.Tensor):
            return {"kind": "other", "type_name": type(out).__name__}
        facts: protocol.OutputFacts = {
            "kind": "tensor" if type(out) is torch.Tensor else "subclass",
            "type_name": type(out).__name__,
            "attributes": sorted(vars(out)) if type(out) is torch.Tensor else [],
            "shape": list(out.shape),
            "dtype": dtype_name(out.dtype),
            "device": str(out.device),
            "contiguous": bool(out.is_contiguous()),
            "strides": list(out.stride()),
            "aliases": "",
            "copied": False,
        }
        if out.numel():
            start = out.untyped_storage().data_ptr()
            end = start + out.untyped_storage().nbytes()
            for index, arg in enumerate(args):
                here = arg.data_ptr()
                if here < end and start < here + arg.numel() * arg.element_size():
                    facts["aliases"] = str(index)
        size = out.numel() * out.element_size()
        if facts["kind"] == "tensor" and out.device == self.device and size <= slot["capacity"]:
            assert self.arena is not None
            target = self.arena[slot["offset"] : slot["offset"] + size]
            target.copy_(out.detach().reshape(-1).contiguous().view(torch.uint8))
            if self.device.type == "cuda":
                torch.cuda.synchronize()
            facts["copied"] = True
        return facts


def warm_the_guard() -> None:
    """Run one guarded op on the CPU, so the lazy imports of torch's dispatch machinery happen
    in the process sandboxes are forked from, not in each sandbox's first call."""
    call_guarded(lambda: torch.ones(2) + 1, [], [], None)


#: A developer's aid (GPUPREP_JUDGE_PROFILE set): the first untimed call of each sandbox runs under
#: cProfile and its top functions come back in the reply, for the judge to write to the profile.
PROFILE_FIRST_CALL = bool(os.environ.get("GPUPREP_JUDGE_PROFILE"))


def _profiled(call: Callable[[], object], device: torch.device) -> str:
    import cProfile
    import io
    import pstats

    profile = cProfile.Profile()
    profile.enable()
    call()
    if device.type == "cuda":
        torch.cuda.synchronize()
    profile.disable()
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(30)
    return text.getvalue()[-6000:]


def run(arena: torch.Tensor | None, sock: socket.socket) -> None:
    """The sandbox's whole life: serve, then leave without running anyone's teardown.

    `arena` is the CPU arena, inherited from the judge; on a GPU it comes with the hello."""
    try:
        Sandbox(sock, arena).serve()
    except protocol.SandboxGone:
        pass
    except BaseException as error:  # noqa: BLE001
        try:
            protocol.send_reply(
                sock,
                {
                    "ok": False,
                    "error": describe_error(error),
                    "traceback": "".join(traceback.format_exception(error))[-3000:],
                    "fatal": True,
                },
            )
        except OSError:
            pass
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
