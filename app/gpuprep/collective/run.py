"""The app's side of a collective drill: run the judge in its own process and hand back its
report (the bank finds the drill's folder: `Bank.collective_dirs`).

The judge runs as `python -m gpuprep.collective.judge` so that the ranks are forked from a
clean parent (torch and the stdlib, no CUDA context, none of the app's libraries); this
process never imports the submission nor torch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Literal

from gpuprep.collective.protocol import Report, Request
from gpuprep.collective.spec import CollectiveDrill, to_request

#: Seconds one checked size may take on gloo ranks before the judge calls it a hang.
CPU_CASE_TIMEOUT_S = 60.0


class CollectiveRunError(RuntimeError):
    """The judge could not run (no GPUs for a GPU run, a judge that died); says what to do."""


def gpus_present() -> int:
    """CUDA devices this machine has, asked of a child process so this one opens no CUDA."""
    probe = "import torch; print(torch.cuda.device_count() if torch.cuda.is_available() else 0)"
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
        )
        return int(done.stdout.strip() or 0)
    except (subprocess.SubprocessError, ValueError, OSError):
        return 0


def plan_run(
    drill: CollectiveDrill, file: Path, *, ranks: int | None, cpu: bool, timeout_s: float
) -> Request:
    """The request for this machine: --cpu (or no GPU) runs gloo ranks, otherwise one NCCL rank
    per GPU present (or --ranks of them)."""
    gpus = 0 if cpu else gpus_present()
    if gpus == 0:
        count = ranks or drill.cpu_ranks
        device: Literal["cpu", "cuda"] = "cpu"
    else:
        count = ranks or gpus
        device = "cuda"
        if gpus < 2 or count > gpus:
            raise CollectiveRunError(
                f"{drill.id} needs one GPU per rank: {count} rank(s) asked, {gpus} GPU(s) here; "
                "run with --cpu for gloo ranks on the CPU"
            )
    if count < 2:
        raise CollectiveRunError(f"an all-reduce needs 2 or more ranks, not {count}")
    # A case on the CPU takes a second at most: a hung one is said within a minute, not --timeout.
    case_timeout = min(timeout_s, CPU_CASE_TIMEOUT_S) if device == "cpu" else timeout_s
    return to_request(drill, file, ranks=count, device=device, case_timeout_s=case_timeout)


def run_judge(request: Request, timeout_s: float) -> Report:
    """Run the judge in a fresh interpreter; its stdout is the report, as JSON."""
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gpuprep.collective.judge"],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
        )
    except subprocess.TimeoutExpired as error:
        raise CollectiveRunError(
            f"the collective judge did not answer within {timeout_s:g} s"
        ) from error
    try:
        report: Report = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError) as error:
        raise CollectiveRunError(
            f"the collective judge ended with code {done.returncode} and no report: "
            + done.stderr.strip()[-800:]
        ) from error
    return report
