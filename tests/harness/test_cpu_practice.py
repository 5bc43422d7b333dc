"""CPU practice mode: every Triton rung and starter passes through the interpreter, every
known-wrong submission gets its verdict, and the app survives whatever the worker does."""

from pathlib import Path

import pytest

from gpuprep.harness.api import bench, submit

from .conftest import DRILL_IDS, DRILLS_DIR, KERNELS_DIR, drills, expected_verdict

# Single-GPU drills only: a collective drill's wrong/ is judged in tests/collective.
WRONG = sorted(p for p in DRILLS_DIR.glob("*/wrong/*.py") if p.parent.parent.name in DRILL_IDS)
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("drill_id", DRILL_IDS)
def test_every_triton_rung_and_the_starter_pass_in_the_interpreter(drill_id):
    drill = drills()[drill_id]
    starter = {
        "name": "starter_triton",
        "path": str(DRILLS_DIR / drill_id / "starter_triton.py"),
        "role": "rung",
        "language": "triton",
    }
    result = bench(drill, KERNELS_DIR / drill_id, cpu=True, timeout_s=240, extra_kernels=[starter])
    assert result.mode == "cpu" and result.problem == ""
    statuses = {row.name: (row.status, row.message) for row in result.rungs}
    for rung in drill.ladder:
        expected = "skipped" if rung.language == "cuda" else "passed"
        assert statuses[rung.name][0] == expected, f"{rung.name}: {statuses[rung.name]}"
    assert statuses["starter_triton"] == ("passed", "")
    assert any("timing needs a CUDA GPU" in note for note in result.notes)


@pytest.mark.parametrize("path", WRONG, ids=[f"{p.parent.parent.name}/{p.stem}" for p in WRONG])
def test_a_known_wrong_submission_gets_its_verdict(path):
    verdict, fragment = expected_verdict(path)
    drill_id = path.parent.parent.name
    timeout = 6 if verdict == "timeout" else 120
    report = submit(drills()[drill_id], KERNELS_DIR / drill_id, path, cpu=True, timeout_s=timeout)
    assert report.status == verdict, report.message
    assert fragment in report.message


def test_the_starter_passes_and_the_report_says_timing_needs_a_gpu():
    report = submit(
        drills()["vector_add"],
        KERNELS_DIR / "vector_add",
        DRILLS_DIR / "vector_add" / "starter_triton.py",
        cpu=True,
    )
    assert report.status == "passed" and report.message == ""
    assert report.mode == "cpu" and report.timing is None
    assert report.checks and all(case.ok for case in report.checks)
    assert {"dims", "dtype", "rel_err", "max_abs_err", "first_mismatch"} <= set(
        report.checks[0].to_json()
    )


def test_a_cupy_submission_says_it_needs_a_gpu():
    report = submit(
        drills()["reduction"],
        KERNELS_DIR / "reduction",
        DRILLS_DIR / "reduction" / "starter_cuda.py",
        cpu=True,
    )
    assert report.status == "skipped" and "needs a CUDA GPU" in report.message


def test_a_forged_verdict_written_to_every_descriptor_reaches_nothing():
    report = submit(
        drills()["vector_add"], KERNELS_DIR / "vector_add", FIXTURES / "forges_result.py", cpu=True
    )
    # The sandbox holds no descriptor of the app's: the forged line lands nowhere, and the
    # judge reports how the sandbox ended instead of a verdict it never gave.
    assert report.status == "crashed" and "sandbox ended" in report.message
    assert any("file descriptors" in warning for warning in report.warnings)


def test_a_segfault_ends_the_sandbox_and_is_reported_as_a_crash():
    report = submit(
        drills()["vector_add"], KERNELS_DIR / "vector_add", FIXTURES / "segfaults.py", cpu=True
    )
    assert report.status == "crashed"
    assert "segmentation fault" in report.message


def test_what_a_submission_prints_stays_out_of_the_results():
    report = submit(
        drills()["vector_add"], KERNELS_DIR / "vector_add", FIXTURES / "prints_json.py", cpu=True
    )
    assert report.status == "passed", report.message
