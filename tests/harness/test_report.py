"""Figures, percentages, speed-of-light flags and ladder placement, from plain numbers; the
typed reports and their JSON."""

import json

import pytest

from gpuprep.harness.figures import pct_of_peak, placement, speed_of_light_flag
from gpuprep.harness.report import (
    Achieved,
    BenchReport,
    CaseCheck,
    Ceilings,
    KernelLine,
    Mismatch,
    Mode,
    PeakShare,
    ShapeLine,
    Status,
    SubmitReport,
    Timing,
)

LADDER = [
    KernelLine("v0_naive", Status.PASSED, median_ms=4.0),
    KernelLine("v1_tiles", Status.PASSED, median_ms=2.0),
    KernelLine("v2_tuned", Status.PASSED, median_ms=1.0),
]
SUMMARIES = {"v0_naive": "start", "v1_tiles": "tile it", "v2_tuned": "tune it"}
H200 = Ceilings(gpu_id="h200", datasheet_bandwidth=4.8e12)


def test_a_time_between_rungs_names_the_next_step():
    assert (
        placement(3.0, LADDER, SUMMARIES)
        == "between v0_naive and v1_tiles; next: v1_tiles: tile it"
    )


def test_a_time_level_with_a_rung_says_so():
    assert placement(2.02, LADDER, SUMMARIES).startswith("level with v1_tiles; next: v2_tuned")


def test_slower_than_the_first_rung_and_faster_than_the_top():
    assert placement(9.0, LADDER, SUMMARIES).startswith("slower than v0_naive")
    assert placement(0.5, LADDER, SUMMARIES) == "faster than the top rung v2_tuned"


def test_percentages_against_datasheet_copy_and_calibration():
    pct = pct_of_peak(
        3600.0, Ceilings(datasheet_bandwidth=4.8e12, calibrated_bandwidth=4.0e12), copy_gbps=4000.0
    )
    assert (round(pct.datasheet), round(pct.copy_this_run), round(pct.calibrated)) == (75, 90, 90)


def test_faster_than_memory_is_flagged_not_celebrated():
    assert "faster than the memory" in speed_of_light_flag(6000.0, H200, copy_gbps=4300.0)
    assert speed_of_light_flag(4200.0, H200, copy_gbps=4300.0) == ""


def test_without_a_table_the_copy_bounds_the_speed_of_light():
    assert speed_of_light_flag(6000.0, Ceilings(), copy_gbps=4000.0)
    assert speed_of_light_flag(4300.0, Ceilings(), copy_gbps=4000.0) == ""


def test_an_untimed_rung_is_not_a_place_on_the_ladder():
    ladder = [*LADDER[:2], KernelLine("v2_tuned", Status.FAILED), LADDER[2]]
    assert (
        placement(1.5, ladder, SUMMARIES)
        == "between v1_tiles and v2_tuned; next: v2_tuned: tune it"
    )


TIMED_LINE = KernelLine(
    "v1_tiles",
    Status.PASSED,
    role="rung",
    language="triton",
    median_ms=2.0,
    gbps=1600.0,
    tflops=0.1,
    pct_of_peak=PeakShare(datasheet=33.3, copy_this_run=40.0),
    timing=Timing(2.0, 1.9, 2.1, 0.01, 12),
    shapes=[ShapeLine("the headline", {"n": 4}, Status.PASSED, median_ms=2.0, gbps=1600.0)],
    cases=12,
)
GPU_REPORT = SubmitReport(
    drill="vector_add",
    file="/work/mine.py",
    status=Status.PASSED,
    language="triton",
    mode=Mode.GPU,
    device={"kind": "cuda", "name": "NVIDIA H200"},
    checks=[
        CaseCheck({"n": 4}, "float32", "normal", ok=True, rel_err=0.0, max_abs_err=0.0),
        CaseCheck(
            {"n": 5},
            "float32",
            "wide",
            ok=False,
            problem="1 element(s) are NaN or inf where the reference is not, or the reverse",
            rel_err=float("inf"),
            first_mismatch=Mismatch([4], "nan", 1.5),
        ),
    ],
    timing=Timing(1.0, 0.9, 1.1, 0.02, 20),
    achieved=Achieved(gbps=3200.0, tflops=0.2, bytes=3.2e9, shape={"n": 268435456}),
    pct_of_peak=PeakShare(66.7, 80.0, None),
    gpu="h200",
    ladder=[TIMED_LINE],
    vendor=KernelLine("torch.add", Status.PASSED, role="vendor", language="torch"),
    placement="faster than the top rung v1_tiles",
    flags=["a flag"],
    notes=["a note"],
    warnings=["a warning"],
)


def test_the_submit_json_keeps_the_keys_scripts_read_and_the_gpu_inside_pct_of_peak():
    document = json.loads(json.dumps(GPU_REPORT.to_json()))
    assert document["status"] == "passed" and document["mode"] == "gpu"
    assert document["pct_of_peak"] == {
        "datasheet": 66.7,
        "copy_this_run": 80.0,
        "calibrated": None,
        "gpu": "h200",
    }
    assert document["achieved"] == {
        "gbps": 3200.0,
        "tflops": 0.2,
        "bytes": 3.2e9,
        "shape": {"n": 268435456},
    }
    assert document["timing"] == {
        "median_ms": 1.0,
        "p10_ms": 0.9,
        "p90_ms": 1.1,
        "cv": 0.02,
        "runs": 20,
    }
    assert document["checks"][1]["first_mismatch"] == {"index": [4], "got": "nan", "expected": 1.5}
    rung = document["ladder"][0]
    assert {"name", "language", "status", "message", "median_ms", "gbps", "tflops", "cases"} <= set(
        rung
    )
    assert rung["pct_of_peak"]["copy_this_run"] == 40.0 and rung["shapes"][0]["status"] == "passed"


@pytest.mark.parametrize(
    "report",
    [
        GPU_REPORT,
        SubmitReport("softmax", "mine.py", Status.FAILED, "cannot read mine.py: No such file"),
    ],
    ids=["timed on a GPU", "a file that could not be read"],
)
def test_a_submit_report_reads_back_from_its_json_unchanged(report):
    assert SubmitReport.from_json(json.loads(json.dumps(report.to_json()))) == report


def test_a_bench_report_reads_back_from_its_json_unchanged():
    bench = BenchReport(
        drill="vector_add",
        mode=Mode.GPU,
        device={"kind": "cuda", "name": "NVIDIA H200"},
        gpu="h200",
        shape={"n": 4},
        rungs=[
            TIMED_LINE,
            KernelLine("v2_tuned", Status.NOT_RUN, role="rung", message="the worker stopped"),
        ],
        copy=KernelLine("copy", Status.PASSED, role="copy", language="torch", median_ms=0.5),
        problem="the worker died",
    )
    assert BenchReport.from_json(json.loads(json.dumps(bench.to_json()))) == bench
    assert [row.name for row in bench.failed] == ["v2_tuned"]


def test_statuses_are_the_judges_words():
    assert Status("timeout") is Status.TIMEOUT and Status.PASSED == "passed"
    assert json.dumps({"status": Status.NOT_RUN}) == '{"status": "not run"}'


def test_the_reports_and_the_harness_api_load_no_pydantic_nor_yaml():
    import subprocess
    import sys

    code = (
        "import sys, gpuprep.harness.api, gpuprep.harness.figures, gpuprep.harness.report; "
        "print(' '.join(m for m in ('pydantic', 'yaml', 'torch', 'gpuprep.bank') if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == ""
