"""The same verdicts on a real GPU, plus what only a GPU can do: faults, hangs, timing, the ladder."""

from pathlib import Path

import pytest

from gpuprep.harness.sessions import bench, submit

from .conftest import DRILL_IDS, DRILLS_DIR, KERNELS_DIR, drills, expected_verdict, needs_gpu

pytestmark = [pytest.mark.gpu, needs_gpu]
FIXTURES = Path(__file__).parent / "fixtures"
WRONG = sorted(DRILLS_DIR.glob("*/wrong/*.py"))
#: Short timing: these tests check the path, benchmarks/drills_gpu.py measures.
QUICK = {"budget_s": 0.5, "min_runs": 10, "max_runs": 40}


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_the_triton_starter_passes_and_is_timed(drill_id):
    report = submit(
        drills()[drill_id],
        KERNELS_DIR / drill_id,
        DRILLS_DIR / drill_id / "starter_triton.py",
        with_ladder=False,
        timeout_s=300,
        timing=QUICK,
    )
    assert report["status"] == "passed", report["message"]
    assert report["mode"] == "gpu"
    timing = report["timing"]
    assert timing["runs"] >= 10 and 0 < timing["p10_ms"] <= timing["median_ms"] <= timing["p90_ms"]
    assert report["achieved"]["gbps"] > 0
    assert report["pct_of_peak"]["copy_this_run"] > 0


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_the_cuda_starter_compiles_and_passes_where_it_claims_to(drill_id):
    report = submit(
        drills()[drill_id],
        KERNELS_DIR / drill_id,
        DRILLS_DIR / drill_id / "starter_cuda.py",
        with_ladder=False,
        timeout_s=300,
        timing=QUICK,
    )
    assert report["status"] == "passed", report["message"]
    assert report["timing"]["median_ms"] > 0


@pytest.mark.parametrize("path", WRONG, ids=[f"{p.parent.parent.name}/{p.stem}" for p in WRONG])
def test_a_known_wrong_submission_gets_its_verdict_on_the_gpu(path):
    verdict, fragment = expected_verdict(path)
    drill_id = path.parent.parent.name
    report = submit(
        drills()[drill_id],
        KERNELS_DIR / drill_id,
        path,
        with_ladder=False,
        timeout_s=10 if verdict == "timeout" else 300,
        timing=QUICK,
    )
    assert report["status"] == verdict, report["message"]
    assert fragment in report["message"]


def test_a_faulting_kernel_is_a_crash_and_the_app_carries_on():
    report = submit(
        drills()["vector_add"],
        KERNELS_DIR / "vector_add",
        FIXTURES / "gpu_fault.py",
        with_ladder=False,
        timeout_s=120,
    )
    assert report["status"] == "crashed", report["message"]
    assert "CUDA" in report["message"] or "died" in report["message"]


def test_a_kernel_that_never_returns_is_a_timeout():
    report = submit(
        drills()["vector_add"],
        KERNELS_DIR / "vector_add",
        FIXTURES / "gpu_hang.py",
        with_ladder=False,
        timeout_s=15,
    )
    assert report["status"] == "timeout"


def test_submit_places_a_kernel_on_the_ladder():
    report = submit(
        drills()["vector_add"],
        KERNELS_DIR / "vector_add",
        KERNELS_DIR / "vector_add" / "v1_wide_blocks.py",
        timeout_s=300,
        timing=QUICK,
    )
    assert report["status"] == "passed"
    assert [line["name"] for line in report["ladder"]] == ["v0_naive", "v1_wide_blocks"]
    assert report["vendor"]["median_ms"] > 0 and report["copy"]["gbps"] > 0
    assert report["placement"]


def test_bench_times_every_rung_beside_the_vendor_op():
    result = bench(drills()["transpose"], KERNELS_DIR / "transpose", timeout_s=600, timing=QUICK)
    assert result["mode"] == "gpu"
    assert all(row["status"] == "passed" and row["median_ms"] > 0 for row in result["rungs"])
    assert result["vendor"]["median_ms"] > 0


def test_calibration_measures_copy_and_matrix_rates():
    from gpuprep.harness.runner import run_worker

    run = run_worker({"task": "calibrate"}, mode="gpu", timeout_s=120)
    assert run.finished, run.fatal or run.log_tail
    measured = run.results[0]
    assert 100 < measured["copy_gbps"] < 20_000 and measured["bf16_tflops"] > 10
