"""`submit --sanitize` through the real judge on a CPU, with a stand-in for compute-sanitizer.

The stand-in is a shell script that records how it was called, writes a fixture log to the
`--log-file` it was given, and then runs the rest of its command line: the judge. The judge
runs on the CPU (GPUs hidden), so the verdict is the no-GPU one; what these tests check is
the plumbing a GPU run relies on: the wrapper and its environment reach the judge, the judge
still gets its instructions and answers through it, each tool's log is read from where the app
asked for it, and racecheck runs only after a memcheck run that found nothing of the user's.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gpuprep.harness import api, sanitizer
from gpuprep.harness.report import Mode, Status
from gpuprep.paths import gpuprep_home

from .conftest import DRILLS_DIR, KERNELS_DIR, drills

LOGS = Path(__file__).parent / "fixtures" / "sanitizer"
STAND_IN = """#!/bin/bash
tool=""; log=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool="$2"; shift 2 ;;
    --log-file) log="$2"; shift 2 ;;
    --*) shift 2 ;;
    *) break ;;
  esac
done
echo "$tool $log caching=$PYTORCH_NO_CUDA_MEMORY_CACHING next=$1" >> "{calls}"
cp "{logs}/$tool.log" "$log"
exec 250<"{calls}"  # as the real tool does: a descriptor of its own for the judge and its children
exec "$@"
"""


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    """A compute-sanitizer on PATH that answers with the logs put in `logs/`; its calls, read back."""
    logs = tmp_path / "logs"
    logs.mkdir()
    calls = tmp_path / "calls.txt"
    script = tmp_path / "bin" / "compute-sanitizer"
    script.parent.mkdir()
    script.write_text(STAND_IN.format(calls=calls, logs=logs))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sanitizer, "cuda_device_present", lambda: True)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # the judge finds no GPU, even on a GPU machine

    def called() -> list[list[str]]:
        return [line.split() for line in calls.read_text().splitlines()] if calls.exists() else []

    return logs, called


def my_add(tmp_path: Path) -> Path:
    path = tmp_path / "my_add.py"
    shutil.copyfile(DRILLS_DIR / "vector_add" / "starter_triton.py", path)
    return path


def needs_descriptor_250(tmp_path: Path) -> Path:
    """vector_add, right only while the sandbox still holds descriptor 250 (the tool's)."""
    path = my_add(tmp_path)
    path.write_text(
        path.read_text()
        + """

_add = vector_add


def vector_add(x, y):
    import os

    z = _add(x, y)
    try:
        os.fstat(250)
    except OSError:
        z += 1  # the tool's descriptor is gone: under the real tool the process would have died
    return z
"""
    )
    return path


def submit_sanitized(path: Path):
    return api.submit(
        drills()["vector_add"], KERNELS_DIR / "vector_add", path, sanitize=True, timeout_s=120
    )


def test_memcheck_wraps_the_judge_and_its_log_is_read_and_racecheck_is_skipped(tmp_path, stand_in):
    logs, called = stand_in
    submission = my_add(tmp_path)
    text = (LOGS / "memcheck_triton_store_past_end.log").read_text()
    (logs / "memcheck.log").write_text(
        text.replace("/tmp/gpuprep-sanitize/my_softmax.py", str(submission))
    )
    report = submit_sanitized(submission)
    ((tool, log_file, caching, next_word),) = called()
    assert tool == "memcheck" and caching == "caching=" and next_word.startswith("next=")
    assert Path(log_file).parent.parent == gpuprep_home() / "sanitizer"
    # The judge ran through the wrapper: it said where it ran and checked the file.
    assert report.mode is Mode.CPU and report.checks
    assert report.status is Status.FAILED
    assert report.message.startswith("--sanitize needs a CUDA GPU: the judge found none")
    assert report.sanitizer.finding.file == str(submission)
    assert report.sanitizer.why == "in your file"
    assert any(note.startswith("compute-sanitizer's full logs: ") for note in report.notes)


def test_a_clean_memcheck_is_followed_by_racecheck_and_clean_logs_are_removed(tmp_path, stand_in):
    logs, called = stand_in
    shutil.copyfile(LOGS / "memcheck_clean.log", logs / "memcheck.log")
    shutil.copyfile(LOGS / "racecheck_clean.log", logs / "racecheck.log")
    report = submit_sanitized(my_add(tmp_path))
    assert [call[0] for call in called()] == ["memcheck", "racecheck"]
    assert report.sanitizer.tools == ["memcheck", "racecheck"] and report.sanitizer.errors == 0
    assert list((gpuprep_home() / "sanitizer").iterdir()) == []


def test_under_the_sanitizer_each_shape_and_dtype_is_checked_with_one_distribution(
    tmp_path, stand_in
):
    logs, _ = stand_in
    shutil.copyfile(LOGS / "memcheck_clean.log", logs / "memcheck.log")
    shutil.copyfile(LOGS / "racecheck_clean.log", logs / "racecheck.log")
    drill = drills()["vector_add"]
    report = submit_sanitized(my_add(tmp_path))
    cases = [(tuple(check.dims.items()), check.dtype) for check in report.checks]
    assert len(cases) == len(set(cases)) == len(drill.cpu_shapes) * len(drill.dtypes)


def test_the_sandbox_keeps_the_descriptors_the_tool_gave_the_judge(tmp_path, stand_in):
    # The real compute-sanitizer's library talks to its front end through inherited pipes; a
    # sandbox that closed them died at its first instrumented kernel (exit 255, on the H200).
    logs, _ = stand_in
    shutil.copyfile(LOGS / "memcheck_clean.log", logs / "memcheck.log")
    shutil.copyfile(LOGS / "racecheck_clean.log", logs / "racecheck.log")
    report = submit_sanitized(needs_descriptor_250(tmp_path))
    assert report.checks and all(check.ok for check in report.checks), report.message


def test_a_sandbox_that_dies_under_the_tool_gets_no_clean_answer_and_racecheck_is_skipped(
    tmp_path, stand_in
):
    logs, called = stand_in
    shutil.copyfile(
        LOGS / "memcheck_clean.log", logs / "memcheck.log"
    )  # "0 errors", as the tool said
    shutil.copyfile(LOGS / "racecheck_clean.log", logs / "racecheck.log")
    path = my_add(tmp_path)
    path.write_text(
        path.read_text() + "\n\ndef vector_add(x, y):\n    import os\n\n    os._exit(255)\n"
    )
    report = submit_sanitized(path)
    assert [call[0] for call in called()] == ["memcheck"]
    # (On this CPU the verdict is the no-GPU one; the sanitizer's part is what a GPU run shows.)
    assert report.sanitizer.problem.startswith("your kernel's sandbox died under memcheck (")
    assert "exited with code 255" in report.sanitizer.problem
    assert not any("no errors" in note for note in report.notes), report.notes
