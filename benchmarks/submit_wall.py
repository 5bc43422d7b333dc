"""How long one `gpuprep submit` takes on this machine, end to end (issue 10's target: under 30 s
on an H200 for a correct submission to a built-in drill, with its checks, its timing, the ladder
and the vendor op). Prints one line per drill: wall seconds, status, the kernel's median.

    bash benchmarks/run_on_device.sh python3 benchmarks/submit_wall.py softmax reduction
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path


def main(drill_ids: list[str]) -> int:
    from gpuprep.bank.loader import load_bank
    from gpuprep.harness.api import submit

    bank, _ = load_bank()
    for drill_id in drill_ids:
        drill = bank.drills[drill_id]
        top = drill.track("triton")[-1].name
        with tempfile.TemporaryDirectory() as folder:
            mine = Path(folder) / f"my_{drill_id}.py"  # a user's copy, not the ladder's file
            shutil.copyfile(bank.kernels_ref_dir(drill_id) / f"{top}.py", mine)
            started = time.perf_counter()
            report = submit(drill, bank.kernels_ref_dir(drill_id), mine, timeout_s=300)
            wall = time.perf_counter() - started
        median = report.timing.median_ms if report.timing else None
        print(f"{drill_id:<16} {wall:6.1f} s  {report.status.value:<8} median {median} ms  (a copy of {top}, with the ladder)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["softmax"]))
