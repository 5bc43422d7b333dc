"""What `gpuprep submit` and `bench` print (issue 17): a failed case by its shape (`n=1`), the
worst error not hidden by a NaN, and 'timing needs a CUDA GPU' only where timing was expected;
and the practice screen's ladder numbered as its rungs are named."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.harness import api
from gpuprep.harness.api import CPU_NOTE
from gpuprep.harness.report import BenchReport, CaseCheck, KernelLine, Mode, Status, SubmitReport
from gpuprep.paths import builtin_folder
from gpuprep.sessions import drill_report
from gpuprep.sessions.drill_report import notes_to_show
from gpuprep.tui.widgets.coding_pane import rung_number

runner = CliRunner()
STARTER = builtin_folder("drills") / "reduction" / "starter_triton.py"


def cpu_report(**fields) -> SubmitReport:
    return SubmitReport(
        "reduction",
        str(STARTER),
        fields.pop("status", Status.PASSED),
        mode=Mode.CPU,
        device={"name": "CPU (Triton interpreter)", "kind": "cpu"},
        notes=[CPU_NOTE],
        **fields,
    )


@pytest.fixture
def harness_says(monkeypatch):
    """Make the harness answer `submit` with a given report, and the machine have a GPU or not."""

    def say(report: SubmitReport, *, gpu_in_machine: bool) -> None:
        monkeypatch.setattr(api, "submit", lambda *args, **options: report)
        monkeypatch.setattr(drill_report, "nvidia_gpu_listed", lambda: gpu_in_machine)

    return say


def submit(*options: str):
    return runner.invoke(app, ["submit", "reduction", str(STARTER), *options])


def test_a_cpu_submit_on_a_machine_without_a_gpu_has_no_timing_note(harness_says):
    harness_says(cpu_report(), gpu_in_machine=False)
    result = submit()
    assert result.exit_code == 0, result.output
    assert "CPU (Triton interpreter)" in result.stdout
    assert "timing needs a CUDA GPU" not in result.stdout


def test_a_submit_asked_for_on_the_cpu_has_no_timing_note_even_with_a_gpu(harness_says):
    harness_says(cpu_report(), gpu_in_machine=True)
    assert "timing needs a CUDA GPU" not in submit("--cpu").stdout


def test_a_gpu_in_the_machine_that_ran_nothing_on_it_says_why_nothing_was_timed(harness_says):
    harness_says(cpu_report(), gpu_in_machine=True)
    assert "note: timing needs a CUDA GPU" in submit().stdout


def test_bench_on_the_cpu_always_says_timing_needs_a_gpu(monkeypatch):
    monkeypatch.setattr(drill_report, "nvidia_gpu_listed", lambda: False)
    report = BenchReport(
        "reduction",
        Mode.CPU,
        rungs=[KernelLine("v0_atomic_per_element", Status.PASSED, role="rung", cases=3)],
        notes=[CPU_NOTE],
    )
    monkeypatch.setattr(api, "bench", lambda *args, **options: report)
    result = runner.invoke(app, ["bench", "reduction", "--cpu"])
    assert result.exit_code == 0, result.output
    assert "note: timing needs a CUDA GPU" in result.stdout


def test_the_json_report_keeps_every_note(harness_says):
    harness_says(cpu_report(), gpu_in_machine=False)
    assert CPU_NOTE in submit("--json").stdout


def test_a_failed_case_is_named_by_its_shape_and_a_nan_is_not_hidden(harness_says):
    checks = [
        CaseCheck({"n": 1}, "float32", "normal", ok=False, problem="1 element(s) are NaN"),
        CaseCheck({"n": 4096}, "float32", "normal", ok=True, rel_err=0.0),
    ]
    harness_says(
        cpu_report(
            status=Status.FAILED,
            message="wrong output for n=1, float32, normal values: 1 element(s) are NaN",
            checks=checks,
        ),
        gpu_in_machine=False,
    )
    result = submit()
    assert result.exit_code == 1
    assert "for n=1, float32" in result.stdout and "{'n'" not in result.stdout
    assert "worst relative error 0.00e+00" not in result.stdout
    assert "not measurable" in result.stdout


def test_notes_to_show_asks_for_the_gpu_only_when_it_decides():
    asked = []

    def listed() -> bool:
        asked.append(True)
        return True

    assert notes_to_show(["x"], bench=False, cpu_asked=False, gpu_listed=listed) == ["x"]
    assert notes_to_show([CPU_NOTE], bench=True, cpu_asked=True, gpu_listed=listed) == [CPU_NOTE]
    assert notes_to_show([CPU_NOTE], bench=False, cpu_asked=True, gpu_listed=listed) == []
    assert asked == []
    assert notes_to_show([CPU_NOTE], bench=False, cpu_asked=False, gpu_listed=listed) == [CPU_NOTE]


@pytest.mark.parametrize(
    ("name", "number"), [("v0_naive", 0), ("v1_cuda_smem_tree", 1), ("v12_tuned", 12)]
)
def test_a_rung_is_numbered_as_it_is_named(name, number):
    assert rung_number(name) == number


def test_the_practice_screen_numbers_the_cuda_track_from_1_as_its_rungs_are_named(tmp_path):
    import asyncio

    from gpuprep.bank.loader import load_bank
    from gpuprep.sessions.practice import PracticeFilter
    from gpuprep.store.database import Store
    from gpuprep.tui.app import make_app

    bank, _problems = load_bank()
    question = next(
        q for q in bank.questions.values() if q.kind == "coding" and q.drill == "reduction"
    )
    store = Store(tmp_path / "progress.db")
    app = make_app(
        bank=bank,
        store=store,
        practice=PracticeFilter(question=question.id),
        cursor_blink=False,
        detect_gpu=False,
    )

    async def ladder() -> str:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            return str(app.screen.query_one("#coding-drill").source)

    shown = asyncio.run(ladder())
    store.close()
    cuda = shown.split("*CUDA (CuPy) track*")[1]
    assert "1. `v1_cuda_smem_tree`" in cuda and "0. `v1_cuda" not in cuda
    assert "0. `v0_atomic_per_element`" in shown.split("*CUDA (CuPy) track*")[0]
