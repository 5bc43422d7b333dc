"""One rank: joins the group, loads the submission under the guard, runs the cases it is sent.

Forked by the judge. A rank starts its own session (so the judge can kill it and anything it
started as one process group) and asks the kernel to kill it if the judge dies. Per case it
draws its input from the seed it alone was sent, calls `entry(x, group)`, and copies `x` into
its slot of shared memory, where the judge reads it: what the rank says about its result is
never the verdict. Messages to the judge are JSON.
"""

from __future__ import annotations

import ctypes
import datetime
import faulthandler
import importlib.util
import json
import os
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from typing import Any

from gpuprep.collective.guard import install
from gpuprep.collective.inputs import draw


def _die_with_parent() -> None:
    """PR_SET_PDEATHSIG: a rank never outlives a judge that was killed (Linux only)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _send(conn: Connection, **message: Any) -> None:
    conn.send_bytes(json.dumps(message).encode())


def _load(file: str, entry: str) -> Any:
    spec = importlib.util.spec_from_file_location("collective_submission", file)
    if spec is None or spec.loader is None:
        raise ImportError(f"{file} is not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    function = getattr(module, entry, None)
    if not callable(function):
        raise AttributeError(f"{file} does not define {entry}(x, group)")
    return function


def main(rank: int, request: dict[str, Any], conn: Connection, results: Any, folder: str) -> None:
    """The rank's whole life; it ends with os._exit so nothing the judge's process held runs.

    folder: the run's private folder, holding the group's store and each rank's stderr."""
    os.setsid()
    _die_with_parent()
    # A backend that aborts (gloo's size check, NCCL's watchdog) says why on stderr only.
    stderr = os.open(os.path.join(folder, f"rank{rank}.stderr"), os.O_WRONLY | os.O_CREAT, 0o600)
    os.dup2(stderr, 2)
    os.dup2(stderr, 1)  # the judge's stdout carries its report: a rank's prints must not
    faulthandler.disable()  # a parent's (pytest's) handler would dump on the parent's stderr
    case_index = -1
    try:
        import torch
        import torch.distributed as dist

        torch.set_num_threads(1)  # a forked child must not enter the parent's OpenMP pool
        cuda = request["device"] == "cuda"
        if cuda:
            torch.cuda.set_device(rank)
        from torch._C._distributed_c10d import FileStore

        dist.init_process_group(
            "nccl" if cuda else "gloo",
            store=FileStore(os.path.join(folder, "store"), request["ranks"]),
            rank=rank,
            world_size=request["ranks"],
            timeout=datetime.timedelta(seconds=2 * request["case_timeout_s"] + 10),
            # Bound to its GPU, NCCL opens the communicator now, not inside the first timed call.
            device_id=torch.device("cuda", rank) if cuda else None,
        )
        guard, originals = install(request["forbidden"])
        entry = _load(request["file"], request["entry"])
        group = dist.group.WORLD
        device = (
            f"{request['ranks']} x {torch.cuda.get_device_name(rank)} (NCCL)"
            if cuda
            else "cpu (gloo)"
        )
        _send(conn, event="ready", device=device)
        while True:
            order = json.loads(conn.recv_bytes())
            if order["event"] == "stop":
                break
            case_index = order["case"]
            _run_case(rank, order, request, entry, group, guard, originals, conn, results)
        dist.destroy_process_group()
        _send(conn, event="bye")
        conn.close()
        os._exit(0)
    except BaseException as error:  # every failure of the rank is reported, then it ends
        try:
            _send(
                conn,
                event="error",
                case=case_index,
                error=f"{type(error).__name__}: {error}",
                traceback=traceback.format_exc(),
            )
        finally:
            os._exit(1)


def _run_case(
    rank: int,
    order: dict[str, Any],
    request: dict[str, Any],
    entry: Any,
    group: Any,
    guard: Any,
    originals: dict[str, Any],
    conn: Connection,
    results: Any,
) -> None:
    import torch

    device = torch.device("cuda", rank) if request["device"] == "cuda" else torch.device("cpu")
    numel, dtype = order["numel"], order["dtype"]
    if order["seed"] is None:  # a timing-only size: no check, so any values will do
        x = torch.randn(numel, device=device, dtype=torch.float32).to(getattr(torch, dtype))
    else:
        x = draw(numel, dtype, order["seed"]).to(device)
    pointer, shape = x.data_ptr(), x.shape
    guard.take()
    returned = entry(x, group)
    if device.type == "cuda":
        torch.cuda.synchronize()
    notes = []
    if x.data_ptr() != pointer or x.shape != shape:
        notes.append("x was resized or replaced: all_reduce must sum x in place")
    if isinstance(returned, torch.Tensor) and returned.data_ptr() != pointer:
        notes.append(
            "all_reduce returned a new tensor; it must sum x in place (the result read is x)"
        )
    if order["check"]:
        results[rank, :numel].copy_(x.to("cpu", torch.float64))
    times, vendor = [], []
    if order["timed"]:
        times = _time(lambda: entry(x, group), device, request["warmup"], request["iters"])
    calls = guard.take()
    if order["timed"] and request["vendor"]:
        with guard.suspended():
            vendor = _time(
                lambda: originals["all_reduce"](x, group=group),
                device,
                request["warmup"],
                request["iters"],
            )
    _send(
        conn,
        event="done",
        case=order["case"],
        calls=calls,
        notes=notes,
        times_ms=times,
        vendor_ms=vendor,
    )


def _time(call: Any, device: Any, warmup: int, iters: int) -> list[float]:
    """Milliseconds per call on this rank, each call started together (a barrier first).

    The judge takes the slowest rank per call: an all-reduce ends when its last rank ends."""
    import time

    import torch
    import torch.distributed as dist

    for _ in range(warmup):
        call()
    if device.type == "cuda":
        torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        dist.barrier()
        if device.type == "cuda":
            torch.cuda.synchronize()
            start = torch.cuda.Event(enable_timing=True)  # type: ignore[no-untyped-call]
            end = torch.cuda.Event(enable_timing=True)  # type: ignore[no-untyped-call]
            start.record()
            call()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        else:
            began = time.perf_counter()
            call()
            times.append((time.perf_counter() - began) * 1e3)
    return times
