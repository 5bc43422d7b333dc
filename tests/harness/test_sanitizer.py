"""`gpuprep submit --sanitize` without a GPU: compute-sanitizer's logs read into findings, the
command line it gets, whose finding fails a submission, and what the CLI says on a machine
where it cannot run. The fixture logs and where their formats come from:
fixtures/sanitizer/README.md."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.harness import api, sanitizer
from gpuprep.harness.report import Mode, Status, SubmitReport
from gpuprep.harness.runner import WorkerRun
from gpuprep.harness.sanitized import SanitizedRun, judged
from gpuprep.harness.sanitizer import (
    SanitizerResult,
    SanitizerUnavailable,
    attribution,
    command,
    describe,
    kernel_names,
    location,
    parse_log,
)

from .conftest import DRILLS_DIR

LOGS = Path(__file__).parent / "fixtures" / "sanitizer"
#: The folder the fixture logs name for the user's files.
WRITTEN_AT = "/tmp/gpuprep-sanitize"
MY_SOFTMAX = """
import triton

@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    pass
"""
runner = CliRunner()


def log(name: str, tool: str | None = None):
    return parse_log((LOGS / name).read_text(), tool or name.split("_")[0])


# -- reading a log ---------------------------------------------------------------------------


def test_a_triton_store_past_the_end_is_read_field_by_field():
    found = log("memcheck_triton_store_past_end.log")
    first = found.findings[0]
    assert first.kind == "Invalid __global__ write of size 4 bytes"
    assert first.category == "memory" and first.severity == "error"
    assert first.kernel == "softmax_kernel"
    assert first.file == f"{WRITTEN_AT}/my_softmax.py"
    assert first.line == 42
    assert (first.thread, first.block) == ("31,0,0", "7,0,0")
    assert first.address == "4 bytes after the nearest allocation of 1024 bytes"
    assert found.errors == 3
    assert [f.kind for f in found.findings][1:] == [
        "Invalid __global__ write of size 4 bytes",
        "Invalid __global__ write of size 2 bytes",
    ]
    assert found.problems == []


def test_the_first_finding_reads_as_one_line_with_kernel_line_thread_address_and_count():
    found = log("memcheck_triton_store_past_end.log")
    assert describe(found.findings[0], found.errors) == (
        "compute-sanitizer memcheck: Invalid __global__ write of size 4 bytes in softmax_kernel "
        "at my_softmax.py:42 (thread (31,0,0), block (7,0,0)): 4 bytes after the nearest "
        "allocation of 1024 bytes; 3 errors in all"
    )


def test_a_misaligned_shared_read_keeps_the_demangled_kernel_and_the_api_error_after_it():
    found = log("memcheck_misaligned_cuda.log")
    access, api_error = found.findings
    assert access.kind == "Invalid __shared__ read of size 16 bytes"
    assert access.kernel == "transpose_tile(const float *, float *, int, int)"
    assert (access.file, access.line) == ("/home/me/drills/transpose/mine.cu", 94)
    assert access.thread == "0,4,0"
    assert access.address == "address 0x10a8 is misaligned"
    assert api_error.category == "api"
    assert api_error.kind.startswith("Program hit cudaErrorMisalignedAddress (error 716)")
    assert found.errors == 2


def test_the_older_location_form_puts_file_and_line_before_the_kernel():
    found = log("memcheck_older_lineinfo.log")
    (first,) = found.findings
    assert (
        first.kind == "Invalid __global__ read of size 8 bytes"
    )  # the older tool said 'of size 8'
    assert first.kernel == "matmul_kernel_0d1d2d3de4de5de6de7c8de9c10de11c"
    assert (first.file, first.line) == ("/root/work/matmul_mine.py", 223)
    assert first.address == "address 0x7f153e0002e8 is out of bounds"
    assert found.errors == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("softmax_kernel+0x1f0 in /tmp/x/my_softmax.py:42", ("softmax_kernel", "/tmp/x/my_softmax.py", 42)),
        ("void f<(bool)0>(float *)+0x150 in cuda.cu:27", ("void f<(bool)0>(float *)", "cuda.cu", 27)),
        ("0x2570 in /root/k.py:223:matmul_kernel", ("matmul_kernel", "/root/k.py", 223)),
        ("ParaFROST::cnt_cls_lits(const ParaFROST::CNF *)+0x8b0", ("ParaFROST::cnt_cls_lits(const ParaFROST::CNF *)", "", None)),
        ("0x000002e8 in CycleTrackingGuts(MonteCarlo*, int)", ("CycleTrackingGuts(MonteCarlo*, int)", "", None)),
    ],
)  # fmt: skip
def test_each_location_form_gives_kernel_file_and_line(text, expected):
    assert location(text) == expected


def test_a_racecheck_log_gives_both_sides_of_the_first_race_and_counts_errors_not_warnings():
    found = log("racecheck_shared_race.log")
    race, possible = found.findings
    assert race.kind == "Race reported between Write access and Read access"
    assert race.category == "race" and race.severity == "error"
    assert (race.kernel, race.file, race.line) == (
        "block_reverse_kernel",
        f"{WRITTEN_AT}/reverse.py",
        27,
    )
    assert race.other_access == "Read access at reverse.py:30"
    assert race.hazards == 4096
    assert possible.severity == "warning"
    assert (found.errors, found.warnings) == (1, 1)
    assert describe(race, found.errors) == (
        "compute-sanitizer racecheck: race in shared memory between Write access at reverse.py:27 "
        "and Read access at reverse.py:30 in block_reverse_kernel (4096 hazards); 1 error in all"
    )


def test_a_race_whose_locations_wrap_onto_their_own_lines_is_read_the_same():
    text = """========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at
=========     race_condition(float *)+0xb0 in demo.cu:28
=========     and Read access at
=========     race_condition(float *)+0xc0 in demo.cu:30
=========     [1024 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""
    (race,) = parse_log(text, "racecheck").findings
    assert (race.kernel, race.file, race.line) == ("race_condition(float *)", "demo.cu", 28)
    assert race.other_access == "Read access at demo.cu:30"
    assert race.hazards == 1024


def test_clean_logs_have_no_findings_and_a_zero_summary():
    for name in ("memcheck_clean.log", "racecheck_clean.log"):
        found = log(name)
        assert found.findings == [] and found.errors == 0 and found.problems == []


def test_a_log_cut_short_keeps_what_it_read_and_has_no_summary():
    text = (LOGS / "memcheck_triton_store_past_end.log").read_text()
    cut = text[: text.index("by thread (31,0,0) in block (4,0,0)")]
    found = parse_log(cut, "memcheck")
    assert found.errors is None
    assert [f.block for f in found.findings] == ["7,0,0", ""]
    assert found.findings[1].line == 42


def test_the_programs_own_lines_and_the_tools_errors_are_told_apart():
    text = """========= COMPUTE-SANITIZER
Invalid __global__ write of size 4 bytes (printed by the program, not the tool)
========= Error: Target application terminated before first instrumented API call
========= ERROR SUMMARY: 0 errors
"""
    found = parse_log(text, "memcheck")
    assert found.findings == []
    assert found.problems == [
        "Error: Target application terminated before first instrumented API call"
    ]


# -- the command line ------------------------------------------------------------------------


def test_the_command_line_names_the_tool_every_process_the_log_and_the_print_limit():
    assert command("/opt/cuda/bin/compute-sanitizer", "memcheck", "/home/me/x/memcheck.log") == [
        "/opt/cuda/bin/compute-sanitizer",
        "--tool",
        "memcheck",
        "--target-processes",
        "all",
        "--log-file",
        "/home/me/x/memcheck.log",
        "--print-limit",
        "10",
    ]
    assert command("cs", "racecheck", "r.log")[1:3] == ["--tool", "racecheck"]
    assert sanitizer.SANDBOX_ENV == {"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"}
    with pytest.raises(ValueError, match="unknown compute-sanitizer tool 'initcheck'"):
        command("cs", "initcheck", "i.log")


def test_compute_sanitizer_is_found_on_path_first(tmp_path, monkeypatch):
    fake = tmp_path / "compute-sanitizer"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert sanitizer.find_sanitizer() == str(fake)


def test_without_compute_sanitizer_the_error_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sanitizer, "FALLBACK", tmp_path / "nowhere" / "compute-sanitizer")
    with pytest.raises(SanitizerUnavailable, match="not found on PATH or in /usr/local/cuda/bin"):
        sanitizer.find_sanitizer()


def test_a_gpu_is_asked_for_before_the_tool(monkeypatch):
    monkeypatch.setattr(sanitizer, "cuda_device_present", lambda: False)
    monkeypatch.setattr(sanitizer, "find_sanitizer", lambda: pytest.fail("looked for the tool"))
    with pytest.raises(SanitizerUnavailable, match="--sanitize needs a CUDA GPU"):
        sanitizer.preflight(cpu=False)
    with pytest.raises(SanitizerUnavailable, match="--sanitize needs a CUDA GPU: .*drop --cpu"):
        sanitizer.preflight(cpu=True)


def test_hidden_gpus_are_no_gpus(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    assert not sanitizer.cuda_device_present()


# -- whose finding it is, and the verdict ----------------------------------------------------


def mine(tmp_path: Path) -> Path:
    path = tmp_path / "my_softmax.py"
    path.write_text(MY_SOFTMAX)
    return path


def test_a_finding_counts_when_its_file_or_kernel_is_the_submissions_or_no_file_is_named(tmp_path):
    submission = mine(tmp_path)
    names = kernel_names(MY_SOFTMAX)
    (first, *_) = log("memcheck_triton_store_past_end.log").findings
    assert attribution(replace(first, file=str(submission)), submission, names) == "in your file"
    assert attribution(replace(first, file="my_softmax.py"), submission, names) == "in your file"
    assert attribution(first, submission, names) == "kernel softmax_kernel is defined in your file"
    someone_else = replace(
        first, kernel="vectorized_elementwise_kernel", file="/opt/torch/Loops.cuh"
    )
    assert attribution(someone_else, submission, names) == ""
    unnamed = replace(first, kernel="vectorized_elementwise_kernel", file="", line=None)
    assert "names no source file" in attribution(unnamed, submission, names)
    old_triton = replace(first, kernel="softmax_kernel_0d1d2d3de", file="/elsewhere/k.py")
    assert (
        attribution(old_triton, submission, names)
        == "kernel softmax_kernel is defined in your file"
    )


def test_kernel_names_come_from_defs_and_cuda_c_strings():
    source = 'def entry(x):\n    pass\nKERNEL = r"""extern "C" __global__ void tile_transpose(float* a) {}"""\n'
    assert kernel_names(source) == {"entry", "tile_transpose"}


def gpu_report(path: Path, **fields) -> SubmitReport:
    status = fields.pop("status", Status.PASSED)
    return SubmitReport("softmax", str(path), status, **{"mode": Mode.GPU, **fields})


def outcome(*names: str, **fields) -> SanitizedRun:
    return SanitizedRun(WorkerRun(), [log(name) for name in names], **fields)


def test_a_store_past_the_end_in_the_submissions_kernel_fails_it_with_the_first_finding(tmp_path):
    submission = mine(tmp_path)
    report = judged(
        gpu_report(submission),
        outcome("memcheck_triton_store_past_end.log"),
        submission,
        MY_SOFTMAX,
    )
    assert report.status is Status.FAILED
    assert report.message == (
        "compute-sanitizer memcheck: Invalid __global__ write of size 4 bytes in softmax_kernel "
        "at my_softmax.py:42 (thread (31,0,0), block (7,0,0)): 4 bytes after the nearest "
        "allocation of 1024 bytes; 3 errors in all (kernel softmax_kernel is defined in your file)"
    )
    assert report.sanitizer.counted and report.sanitizer.tools == ["memcheck"]


def test_a_clean_run_keeps_the_check_verdict_and_says_both_tools_found_nothing(tmp_path):
    submission = mine(tmp_path)
    clean = outcome("memcheck_clean.log", "racecheck_clean.log")
    report = judged(gpu_report(submission, notes=["a note"]), clean, submission, MY_SOFTMAX)
    assert report.status is Status.PASSED and report.message == ""
    assert report.notes == ["a note", "compute-sanitizer memcheck and racecheck: no errors"]
    assert report.sanitizer == SanitizerResult(["memcheck", "racecheck"], "racecheck", 0)


def test_a_finding_in_someone_elses_code_is_a_note_not_a_verdict(tmp_path):
    submission = tmp_path / "my_add.py"
    submission.write_text("def vector_add(x, y):\n    pass\n")
    # The log names /tmp/gpuprep-sanitize/my_softmax.py and softmax_kernel: not this file's.
    report = judged(
        gpu_report(submission),
        outcome("memcheck_triton_store_past_end.log", "racecheck_clean.log"),
        submission,
        submission.read_text(),
    )
    assert report.status is Status.PASSED
    assert any(
        note.endswith(f"not counted: not in your code ({WRITTEN_AT}/my_softmax.py)")
        for note in report.notes
    )
    assert not report.sanitizer.counted


def test_a_race_fails_a_submission_that_memcheck_passed(tmp_path):
    submission = tmp_path / "reverse.py"
    submission.write_text("def block_reverse_kernel(x):\n    pass\n")
    race = outcome("memcheck_clean.log", "racecheck_shared_race.log")
    report = judged(gpu_report(submission), race, submission, submission.read_text())
    assert report.status is Status.FAILED
    assert report.message.startswith(
        "compute-sanitizer racecheck: race in shared memory between Write access"
    )
    assert report.sanitizer.tool == "racecheck"


def test_a_cuda_calls_error_alone_does_not_fail_but_is_noted(tmp_path):
    submission = mine(tmp_path)
    text = (LOGS / "memcheck_misaligned_cuda.log").read_text()
    api_only = text[text.index("========= Program hit") :]
    run = SanitizedRun(WorkerRun(), [parse_log(api_only, "memcheck"), log("racecheck_clean.log")])
    report = judged(gpu_report(submission), run, submission, MY_SOFTMAX)
    assert report.status is Status.PASSED
    assert any("not counted: a CUDA call's error" in note for note in report.notes)


def test_a_run_that_never_reached_its_summary_is_not_called_clean(tmp_path):
    submission = mine(tmp_path)
    cut = SanitizedRun(WorkerRun(), [parse_log("========= COMPUTE-SANITIZER\n", "memcheck")])
    report = judged(gpu_report(submission), cut, submission, MY_SOFTMAX)
    assert report.status is Status.CRASHED
    assert (
        report.message
        == "compute-sanitizer did not finish its check: the memcheck log ended before its summary"
    )
    timed_out = outcome("memcheck_clean.log", unfinished="the judge under memcheck ran out of time")
    assert (
        judged(gpu_report(submission), timed_out, submission, MY_SOFTMAX).status is Status.CRASHED
    )


def test_a_judge_that_fell_back_to_the_cpu_fails_with_the_no_gpu_message(tmp_path):
    submission = mine(tmp_path)
    report = judged(
        gpu_report(submission, mode=Mode.CPU), outcome("memcheck_clean.log"), submission, MY_SOFTMAX
    )
    assert report.status is Status.FAILED
    assert report.message.startswith("--sanitize needs a CUDA GPU")


def test_the_sanitizer_result_goes_to_json_and_back(tmp_path):
    submission = mine(tmp_path)
    report = judged(
        gpu_report(submission),
        outcome("memcheck_triton_store_past_end.log"),
        submission,
        MY_SOFTMAX,
    )
    document = json.loads(json.dumps(report.to_json()))
    assert document["sanitizer"]["tool"] == "memcheck"
    assert document["sanitizer"]["errors"] == 3
    assert document["sanitizer"]["finding"]["line"] == 42
    assert document["sanitizer"]["finding"]["thread"] == "31,0,0"
    assert SubmitReport.from_json(document).sanitizer == report.sanitizer


# -- the command line interface --------------------------------------------------------------


def test_the_cli_without_a_gpu_says_sanitize_needs_one_and_exits_non_zero(monkeypatch):
    monkeypatch.setattr(sanitizer, "cuda_device_present", lambda: False)
    starter = str(DRILLS_DIR / "softmax" / "starter_triton.py")
    result = runner.invoke(app, ["submit", "softmax", starter, "--sanitize"])
    assert result.exit_code == 1
    assert "--sanitize needs a CUDA GPU" in result.output
    as_json = runner.invoke(app, ["submit", "softmax", starter, "--sanitize", "--json"])
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["error"].startswith("--sanitize needs a CUDA GPU")


def test_the_cli_passes_sanitize_through_and_fails_on_a_finding(monkeypatch, tmp_path):
    submission = mine(tmp_path)
    report = judged(
        gpu_report(submission),
        outcome("memcheck_triton_store_past_end.log"),
        submission,
        MY_SOFTMAX,
    )
    asked = {}

    def fake_submit(*args, **options):
        asked.update(options)
        return report

    monkeypatch.setattr(sanitizer, "preflight", lambda cpu: "compute-sanitizer")
    monkeypatch.setattr(api, "submit", fake_submit)
    result = runner.invoke(app, ["submit", "softmax", str(submission), "--sanitize", "--json"])
    assert result.exit_code == 1
    assert asked["sanitize"] is True
    assert json.loads(result.stdout)["sanitizer"]["finding"]["kernel"] == "softmax_kernel"
