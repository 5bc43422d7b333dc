"""How long one `gpuprep submit` takes on this machine, end to end, and where the time goes
(issue 10's target: under 30 s on an H200 for a correct submission to a built-in drill, with its
checks, its timing, the ladder and the vendor op).

For each drill, a user's copy of the top Triton rung is submitted with the ladder; the judge's
progress events are timestamped, and one line per kernel gives its seconds from the sandbox's
start to its first timed call (loading, compiling, checks) and in timing. A second submit of
the same file shows the warm Triton cache.

    bash benchmarks/run_on_device.sh python3 benchmarks/submit_wall.py softmax layernorm
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def submit_once(drill_id: str, label: str) -> None:
    from gpuprep.bank.loader import load_bank
    from gpuprep.harness.api import submit

    bank, _ = load_bank()
    drill = bank.drills[drill_id]
    top = drill.track("triton")[-1].name
    marks: list[tuple[float, str, str]] = []  # (seconds, kernel, phase)
    started = time.perf_counter()

    def on_event(event: dict[str, Any]) -> None:
        now = time.perf_counter() - started
        if event.get("event") == "phase":
            marks.append((now, str(event.get("kernel")), str(event.get("phase"))))
        elif event.get("event") == "kernel":
            marks.append((now, str(event["result"].get("name")), "done"))

    with tempfile.TemporaryDirectory() as folder:
        mine = Path(folder) / f"my_{drill_id}.py"  # a user's copy, not the ladder's file
        shutil.copyfile(bank.kernels_ref_dir(drill_id) / f"{top}.py", mine)
        report = submit(
            drill, bank.kernels_ref_dir(drill_id), mine, timeout_s=300, on_event=on_event
        )
        wall = time.perf_counter() - started
    median = report.timing.median_ms if report.timing else None
    print(
        f"{drill_id:<16} {label:<6} {wall:6.1f} s  {report.status.value:<8} median {median} ms  (a copy of {top}, with the ladder)",
        flush=True,
    )
    kernels: dict[str, dict[str, float]] = {}
    for seconds, kernel, phase in marks:
        row = kernels.setdefault(kernel, {"start": seconds})
        if phase.startswith("timing") and "timing" not in row:
            row["timing"] = seconds
        if phase == "done":
            row["done"] = seconds
    for kernel, row in kernels.items():
        start, done = row["start"], row.get("done", wall)
        timing = row.get("timing", done)
        steps = [(t, p) for t, k, p in marks if k == kernel and p.startswith("timing")] + [
            (done, "done")
        ]
        per_shape = " ".join(f"{b[0] - a[0]:.1f}" for a, b in zip(steps, steps[1:], strict=False))
        print(
            f"    {kernel:<28} load+checks {timing - start:6.1f} s   timing {done - timing:6.1f} s  (per shape: {per_shape})",
            flush=True,
        )
    for line in [*report.ladder, *([report.vendor] if report.vendor else [])]:
        medians = [
            f"{shape.median_ms:.4f}" if shape.median_ms else shape.status.value
            for shape in line.shapes
        ]
        print(f"    {line.name:<28} ms per shape {' '.join(medians)}", flush=True)


def main(drill_ids: list[str]) -> int:
    for drill_id in drill_ids:
        submit_once(drill_id, "cold")
        submit_once(drill_id, "warm")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["softmax"]))
