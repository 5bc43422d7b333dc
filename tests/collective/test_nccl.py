"""On 2+ GPUs: every rung and the starter are right on NCCL ranks, and a timed size reports
busbw beside dist.all_reduce's. benchmarks/allreduce_gpu.py measures; this checks the path."""

from __future__ import annotations

import functools
import shutil

import pytest

from gpuprep.collective.run import gpus_present, run_judge
from gpuprep.collective.spec import to_request

from .conftest import DRILL, LADDER


@functools.cache
def _gpus() -> int:
    # Asked of a child process (and not at all without a driver): a process that opened CUDA
    # cannot fork ranks that use it.
    return gpus_present() if shutil.which("nvidia-smi") else 0


pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif("_gpus() < 2", reason="needs 2 or more CUDA GPUs"),
]
FILES = [DRILL / "starter.py", *sorted(LADDER.glob("v*.py"))]


@pytest.mark.parametrize("file", FILES, ids=lambda path: path.stem)
def test_the_rung_is_right_on_nccl_and_timed_beside_dist_all_reduce(file, drill, monkeypatch):
    monkeypatch.setenv("NCCL_NVLS_ENABLE", "0")
    small = drill.model_copy(
        update={"gpu_cases": [c.model_copy(update={"numel": 1 << 24}) for c in drill.gpu_cases[:1]]}
    )
    # The judge in its own process, as `gpuprep submit` runs it: this one may have opened CUDA.
    report = run_judge(to_request(small, file, ranks=_gpus(), device="cuda", iters=3), 600)
    assert report["status"] == "passed", report["message"] + report["traceback"]
    timed = report["cases"][-1]
    assert not timed["checked"] and timed["busbw_gbps"] and timed["vendor_busbw_gbps"]
