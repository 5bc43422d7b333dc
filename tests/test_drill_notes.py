"""A drill's notes (drill.yaml `notes`: where its top rung stands against the vendor op, shape by
shape, and why) are printed by `gpuprep bench`, and by `gpuprep submit` when it timed the ladder."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gpuprep.bank.loader import load_bank
from gpuprep.cli.main import app
from gpuprep.harness import api
from gpuprep.harness.api import CPU_NOTE
from gpuprep.harness.report import BenchReport, KernelLine, Mode, Status, SubmitReport
from gpuprep.paths import builtin_folder
from gpuprep.sessions import drill_report

runner = CliRunner()
HEADING = "Notes on the {} ladder"


def words(text: str) -> str:
    """The text with its line wrapping undone: Rich wraps long notes at the terminal's width."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def drills():
    bank, _problems = load_bank()
    return bank.drills


@pytest.fixture(autouse=True)
def no_gpu(monkeypatch):
    monkeypatch.setattr(drill_report, "nvidia_gpu_listed", lambda: False)


def cpu_bench(drill_id: str, rung: str) -> BenchReport:
    return BenchReport(
        drill_id,
        Mode.CPU,
        rungs=[KernelLine(rung, Status.PASSED, role="rung", language="triton", cases=3)],
        notes=[CPU_NOTE],
    )


def test_bench_prints_every_note_of_the_drill_after_its_table(drills, monkeypatch):
    softmax = drills["softmax"]
    assert softmax.notes, "softmax's drill.yaml should carry its per-shape notes"
    monkeypatch.setattr(
        api, "bench", lambda *args, **options: cpu_bench("softmax", "v0_three_pass")
    )
    result = runner.invoke(app, ["bench", "softmax", "--cpu"])
    assert result.exit_code == 0, result.output
    shown = words(result.stdout)
    assert HEADING.format("softmax") in shown
    for note in softmax.notes:
        assert words(note) in shown
    assert shown.index("v0_three_pass") < shown.index(HEADING.format("softmax"))


def test_bench_of_a_drill_without_notes_prints_no_notes_heading(drills, monkeypatch):
    quiet = next(drill for drill in drills.values() if not drill.notes and drill.ladder)
    monkeypatch.setattr(
        api, "bench", lambda *args, **options: cpu_bench(quiet.id, quiet.ladder[0].name)
    )
    result = runner.invoke(app, ["bench", quiet.id, "--cpu"])
    assert result.exit_code == 0, result.output
    assert "Notes on the" not in result.stdout


def submit_report(*, with_ladder: bool) -> SubmitReport:
    ladder = [KernelLine("v0_naive", Status.PASSED, role="rung", language="triton", median_ms=1.27)]
    return SubmitReport(
        "vector_add",
        str(builtin_folder("drills") / "vector_add" / "starter_triton.py"),
        Status.PASSED,
        mode=Mode.GPU if with_ladder else Mode.CPU,
        device={"name": "NVIDIA H200" if with_ladder else "CPU (Triton interpreter)"},
        ladder=ladder if with_ladder else [],
    )


@pytest.mark.parametrize("with_ladder", [True, False])
def test_submit_prints_the_notes_only_beside_a_timed_ladder(drills, monkeypatch, with_ladder):
    vector_add = drills["vector_add"]
    assert vector_add.notes, "vector_add's drill.yaml should carry its note on torch.add"
    monkeypatch.setattr(
        api, "submit", lambda *args, **options: submit_report(with_ladder=with_ladder)
    )
    starter = builtin_folder("drills") / "vector_add" / "starter_triton.py"
    result = runner.invoke(app, ["submit", "vector_add", str(starter)])
    assert result.exit_code == 0, result.output
    shown = words(result.stdout)
    assert (HEADING.format("vector_add") in shown) is with_ladder
    assert (words(vector_add.notes[0]) in shown) is with_ladder
