"""Timing one kernel on a GPU the way the anchors say it must be done.

Worker side: torch only. Every timed call gets fresh inputs (so a result cached across calls
is caught by checking each output), starts after a device-wide sync, a busy-wait that hides
the host's launch overhead, and an L2 flush of twice the L2 size; it is one event pair of its
own (no batch-and-skip), recorded on the stream captured at start-up. Runs continue until the
standard error of the mean falls under `settle` or the time budget ends. A few more calls are
bracketed by device-wide syncs with no busy-wait: work a submission put on a side stream hides
under the busy-wait from the events, not from these, so an event time far under them is flagged.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

#: Clock cycles of the busy-wait queued before each timed call (about 0.5 ms at 2 GHz): long
#: enough that the host's launch work (the guard, allocations, Triton's launcher) finishes
#: while the GPU is still busy, so the start event is not followed by an idle gap.
SPIN_CYCLES = 1_000_000


@dataclass
class Timing:
    """The runs of one kernel on one shape, in milliseconds."""

    runs: list[float] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)
    #: Host time of calls bracketed by device-wide syncs, with no busy-wait before them: work
    #: on a side stream is inside these although the events on the timed stream miss it.
    brackets: list[float] = field(default_factory=list)

    def summary(self) -> dict:
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
            "wall_median_ms": statistics.median(self.walls),
            "wall_min_ms": min(self.walls),
            "bracket_median_ms": statistics.median(self.brackets) if self.brackets else None,
            "bracket_min_ms": min(self.brackets) if self.brackets else None,
        }


#: What the flag says: a time-sliced GPU stretches an honest kernel's host clock too.
FLAG_OUTSIDE_THE_STREAM = (
    "the host clock saw far more time than the events: work outside the timed stream? "
    "(or another process was using the GPU: time again on an idle one)"
)


def clock_flags(summary: dict, spin_ms: float) -> list[str]:
    """The flag for work the events missed, from one kernel's timing summary.

    Minimums, not medians: another process on the GPU (time-slicing) or a busy host stretches
    some calls of an honest kernel, while work hidden on a side stream is in every call, so it
    shows in the least stretched one too. Side-stream work overlaps the busy-wait and vanishes
    from the events; between two device-wide syncs it is all there. A real kernel's bracket is
    its event time plus the launch's host overhead (tens of microseconds).
    """
    event = summary["median_ms"]
    escaped = summary["wall_min_ms"] - spin_ms > 2 * event + 0.2
    bracket = summary.get("bracket_min_ms")
    hidden = bracket is not None and event < 0.25 * bracket and bracket - event > 0.1
    if escaped or hidden:
        return [FLAG_OUTSIDE_THE_STREAM]
    return []


class Timer:
    """Holds the flush buffer and the event functions captured before any submission loads."""

    def __init__(self, device: torch.device) -> None:
        props = torch.cuda.get_device_properties(device)
        l2_bytes = int(getattr(props, "L2_cache_size", 0) or 64 * 2**20)
        self.flush_buffer = torch.empty(2 * l2_bytes // 4, dtype=torch.float32, device=device)
        # Captured now: a submission that patches torch.cuda.Event later does not reach these.
        self._event = torch.cuda.Event
        self._record = torch.cuda.Event.record
        self._elapsed = torch.cuda.Event.elapsed_time
        self._synchronize = torch.cuda.synchronize
        self._sleep = torch.cuda._sleep
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

    def bracket_one(self, call: Callable[[], object]) -> tuple[object, float]:
        """Run `call` between two device-wide syncs, no busy-wait: host ms for all its work."""
        self._synchronize()
        wall_start = self._clock()
        out = call()
        self._synchronize()
        return out, (self._clock() - wall_start) * 1e3

    def measure(
        self,
        make_call: Callable[[], tuple[Callable[[], object], Callable[[object], str]]],
        *,
        warmup: int = 3,
        min_runs: int = 10,
        max_runs: int = 300,
        budget_s: float = 3.0,
        settle: float = 0.002,
        brackets: int = 5,
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
        for index in range(brackets):
            call, check = make_call()
            out, bracket_ms = self.bracket_one(call)
            problem = self.stream_problem() or check(out)
            if problem:
                return None, f"bracketed call {index + 1}: {problem}"
            timing.brackets.append(bracket_ms)
        return timing, ""

    def spin_and_flush_ms(self) -> float:
        """Wall time of the busy-wait plus flush alone, to subtract when comparing clocks."""
        walls = []
        for _ in range(5):
            _, _, wall = self.time_one(lambda: None)
            walls.append(wall)
        return statistics.median(walls)
