"""Timing on a GPU the way the anchors say it must be done.

Torch only. The sandbox times each call with `Timer.time_one`: it starts after a device-wide
sync, a busy-wait that hides the host's launch overhead, and an L2 flush of twice the L2
size, and is one event pair of its own (no batch-and-skip) recorded on the stream captured at
start-up. The judge gives every timed call fresh inputs and checks its output, and times its
own copy ceiling and the calibration here with `Timer.measure`.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from gpuprep.harness.protocol import Channel

#: Clock cycles of the busy-wait queued before each timed call (about 0.5 ms at 2 GHz): long
#: enough that the host's launch work (the guard, allocations, Triton's launcher) finishes
#: while the GPU is still busy, so the start event is not followed by an idle gap.
SPIN_CYCLES = 1_000_000


@dataclass
class Timing:
    """The runs of one kernel on one shape, in milliseconds."""

    runs: list[float] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)
    #: The judge's own clock around each timed call's round trip to the sandbox (drill runs).
    brackets: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        runs = sorted(self.runs)
        n = len(runs)
        mean = statistics.fmean(runs)
        return {
            "median_ms": statistics.median(runs),
            "p10_ms": runs[int(0.1 * (n - 1))],
            "p90_ms": runs[math.ceil(0.9 * (n - 1))],
            "mean_ms": mean,
            "cv": statistics.pstdev(runs) / mean if n > 1 and mean > 0 else 0.0,
            "runs": n,
            "wall_median_ms": statistics.median(self.walls) if self.walls else None,
            "wall_min_ms": min(self.walls) if self.walls else None,
            "bracket_median_ms": statistics.median(self.brackets) if self.brackets else None,
            "bracket_min_ms": min(self.brackets) if self.brackets else None,
        }


#: What the flag says: a time-sliced GPU stretches an honest kernel's host clock too.
FLAG_OUTSIDE_THE_STREAM = (
    "the host clock saw far more time than the events: work outside the timed stream? "
    "(or another process was using the GPU: time again on an idle one)"
)


class Timer:
    """Holds the flush buffer and the event functions captured before any submission loads."""

    def __init__(self, device: torch.device) -> None:
        props = torch.cuda.get_device_properties(device)
        l2_bytes = int(getattr(props, "L2_cache_size", 0) or 64 * 2**20)
        self.flush_buffer = torch.empty(2 * l2_bytes // 4, dtype=torch.float32, device=device)
        # Captured now: a submission that patches torch.cuda.Event later does not reach these.
        self._event: Callable[..., torch.cuda.Event] = torch.cuda.Event
        self._record = torch.cuda.Event.record
        self._elapsed = torch.cuda.Event.elapsed_time
        self._synchronize = torch.cuda.synchronize
        self._sleep: Callable[[int], None] = torch.cuda._sleep
        self._clock = time.perf_counter
        self._current_stream = torch.cuda.current_stream
        self.device = device
        # Events are recorded on this stream by name: Event.record() with no stream asks
        # torch.cuda.current_stream(), which a submission could have pointed elsewhere.
        self.stream = torch.cuda.current_stream(device)

    def time_one(self, call: Callable[[], object]) -> tuple[object, float, float]:
        """Run `call` once, timed: returns its output, event ms and wall ms."""
        start, end = self._event(enable_timing=True), self._event(enable_timing=True)
        self._synchronize()
        wall_start = self._clock()
        self._sleep(SPIN_CYCLES)
        self.flush_buffer.zero_()
        self._record(start, self.stream)
        out = call()
        self._record(end, self.stream)
        self._synchronize()
        wall = (self._clock() - wall_start) * 1e3
        return out, self._elapsed(start, end), wall

    def stream_problem(self) -> str:
        """'' unless a call left another stream current (its work would escape the events)."""
        if self._current_stream(self.device) != self.stream:
            return "tampered with the harness: the call left another CUDA stream current"
        return ""

    def measure(
        self,
        make_call: Callable[[], tuple[Callable[[], object], Callable[[object], str]]],
        *,
        warmup: int = 3,
        min_runs: int = 10,
        max_runs: int = 300,
        budget_s: float = 3.0,
        settle: float = 0.002,
    ) -> tuple[Timing | None, str]:
        """Time until settled; `make_call` gives a fresh call and the check of its output.

        Returns the timing, or None and the first problem a check found.
        """
        for _ in range(warmup):
            call, check = make_call()
            out = call()
            self._synchronize()
            problem = self.stream_problem() or check(out)
            if problem:
                return None, problem
        timing = Timing()
        started = self._clock()
        while len(timing.runs) < max_runs:
            call, check = make_call()
            out, event_ms, wall_ms = self.time_one(call)
            problem = self.stream_problem() or check(out)
            if problem:
                return None, f"timed call {len(timing.runs) + 1}: {problem}"
            timing.runs.append(event_ms)
            # The wall clock includes the busy-wait and the flush that precede the start event.
            timing.walls.append(wall_ms)
            n = len(timing.runs)
            if n >= min_runs:
                mean = statistics.fmean(timing.runs)
                sem = statistics.stdev(timing.runs) / math.sqrt(n) if n > 1 else 0.0
                if mean > 0 and sem / mean < settle:
                    break
                if self._clock() - started > budget_s:
                    break
        return timing, ""


def describe_device(device: torch.device) -> dict[str, Any]:
    info: dict[str, Any] = {"kind": device.type, "torch": torch.__version__}
    triton = sys.modules.get("triton")
    info["triton"] = getattr(triton, "__version__", None)
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        info.update(
            name=props.name,
            compute_capability=f"{props.major}.{props.minor}",
            sms=props.multi_processor_count,
            l2_bytes=int(getattr(props, "L2_cache_size", 0)),
            memory_bytes=int(props.total_memory),
            cuda=torch.version.cuda,
        )
    else:
        info.update(name="CPU (Triton interpreter)", interpreter=os.environ.get("TRITON_INTERPRET") == "1")
    return info


def calibrate(channel: Channel) -> None:
    """Measure the copy bandwidth and the bf16 matrix rate of this GPU, with the drills' timer."""
    if not torch.cuda.is_available():
        channel.send("fatal", message="calibration needs a CUDA GPU; none is visible to torch")
        return
    device = torch.device("cuda", torch.cuda.current_device())
    timer = Timer(device)
    channel.send("ready", device=describe_device(device))
    n = 2**28
    copy, problem = _time_copy(timer, device, n)  # its 2 GiB are freed before the matrices
    size = 8192
    a = torch.randn(size, size, device=device, dtype=torch.bfloat16)
    b = torch.randn(size, size, device=device, dtype=torch.bfloat16)
    matmul, matmul_problem = timer.measure(lambda: ((lambda: a @ b), (lambda out: "")), budget_s=3.0)
    if copy is None or matmul is None:
        channel.send("fatal", message=f"calibration could not time its kernels: {problem or matmul_problem}")
        return
    copy_s = copy.summary()["median_ms"] / 1e3
    matmul_s = matmul.summary()["median_ms"] / 1e3
    channel.send(
        "calibration",
        measured={
            "copy_gbps": 2.0 * n * 4 / copy_s / 1e9,
            "copy_bytes": 2 * n * 4,
            "bf16_tflops": 2.0 * size**3 / matmul_s / 1e12,
            "matmul_shape": [size, size, size],
            "copy_cv": copy.summary()["cv"],
            "matmul_cv": matmul.summary()["cv"],
        },
    )


def _time_copy(timer: Timer, device: torch.device, n: int) -> tuple[Timing | None, str]:
    src = torch.randn(n, device=device)
    dst = torch.empty_like(src)
    return timer.measure(lambda: ((lambda: dst.copy_(src)), (lambda out: "")), budget_s=2.0)
