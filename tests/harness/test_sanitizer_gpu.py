"""`gpuprep submit --sanitize` on a real GPU under NVIDIA's compute-sanitizer: a Triton softmax
that stores one past the end of its own output is failed with its file and line; its honest twin
gets the normal verdict and 'no errors'."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuprep.harness.api import submit
from gpuprep.harness.report import Status
from gpuprep.harness.sanitizer import FALLBACK, short_name

from .conftest import KERNELS_DIR, drills, needs_gpu

FIXTURES = Path(__file__).parent / "fixtures"
needs_sanitizer = pytest.mark.skipif(
    not (shutil.which("compute-sanitizer") or FALLBACK.is_file()),
    reason="needs NVIDIA's compute-sanitizer (CUDA toolkit)",
)
pytestmark = [pytest.mark.gpu, needs_gpu, needs_sanitizer]


def sanitized(name: str):
    return submit(
        drills()["softmax"], KERNELS_DIR / "softmax", FIXTURES / name, sanitize=True, timeout_s=300
    )


def test_a_store_one_past_the_end_is_failed_with_the_kernel_file_and_line():
    wrong = FIXTURES / "softmax_stores_one_past_the_end.py"
    store_line = 1 + next(
        i for i, line in enumerate(wrong.read_text().splitlines()) if "tl.store(" in line
    )
    report = sanitized(wrong.name)
    assert report.status is Status.FAILED, report.message
    finding = report.sanitizer.finding
    assert finding.tool == "memcheck"
    assert finding.kind.startswith("Invalid __global__ write of size")
    assert finding.kernel == "softmax_kernel"
    assert (Path(finding.file).name, finding.line) == (wrong.name, store_line)
    assert report.sanitizer.counted
    assert f"{wrong.name}:{store_line}" in report.message
    assert report.message.startswith("compute-sanitizer memcheck: Invalid __global__ write")


def test_the_honest_twin_passes_with_no_errors_from_either_tool():
    report = sanitized("softmax_chunked.py")
    assert report.status is Status.PASSED, report.message
    assert "compute-sanitizer memcheck and racecheck: no errors" in report.notes
    assert report.sanitizer.tools == ["memcheck", "racecheck"]
    assert report.timing is None  # the checks only: nothing is timed under the tool


def test_a_cuda_kernel_storing_one_past_the_end_is_failed_and_named():
    # NVRTC compiles without line info by default: the kernel's name is what ties it to the file.
    report = submit(
        drills()["vector_add"],
        KERNELS_DIR / "vector_add",
        FIXTURES / "vector_add_cuda_stores_one_past_the_end.py",
        sanitize=True,
        timeout_s=300,
    )
    assert report.status is Status.FAILED, report.message
    finding = report.sanitizer.finding
    assert finding.tool == "memcheck" and finding.kind.startswith("Invalid __global__ write")
    assert short_name(finding.kernel) == "add_kernel"
    assert report.sanitizer.counted, report.sanitizer.why
