"""A coding item: the starter goes to a workspace, $EDITOR opens it, the harness runs through the
app's drill session in a worker, and its report is shown and saved."""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from gpuprep.bank.loader import load_bank
from gpuprep.harness import api
from gpuprep.harness.report import (
    Achieved,
    CaseCheck,
    KernelLine,
    Mode,
    PeakShare,
    Status,
    SubmitReport,
    Timing,
)
from gpuprep.paths import builtin_folder
from gpuprep.sessions.drill import DrillSession
from gpuprep.sessions.drill_report import summarise
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.store.database import Store

SIZE = (120, 36)


@pytest.fixture(scope="module")
def builtin_bank():
    bank, _problems = load_bank()  # other topics may be mid-edit; the drills are what matter here
    if not any(q.kind == "coding" and q.drill in bank.drills for q in bank.questions.values()):
        pytest.fail("the built-in bank has no coding question with a drill")
    return bank


@pytest.fixture
def coding_question(builtin_bank):
    # The vector add's Triton question: the made-up reports below are the vector_add drill's.
    return builtin_bank.questions["kernel-coding-vector-add"]


@pytest.fixture
def opened(tmp_path, monkeypatch) -> Path:
    """Where a stand-in $EDITOR writes the path it was asked to open."""
    opened = tmp_path / "opened.txt"
    editor = tmp_path / "editor.sh"
    editor.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    return opened


class FakeHarness:
    """Stands in for `gpuprep.harness.api`: records each call, answers with a made-up report."""

    def __init__(self, report: SubmitReport | Exception) -> None:
        self.report = report
        self.calls: list[tuple[str, Path, Path]] = []

    def submit(self, drill, kernels_dir, file, **options) -> SubmitReport:
        self.calls.append((drill.id, kernels_dir, file))
        if isinstance(self.report, Exception):
            raise self.report
        return self.report

    def bench(self, drill, kernels_dir, **options):
        raise AssertionError("the coding pane never benches")


def practice_app(bank, store, clock, question_id, harness=None, **options):
    from gpuprep.tui.app import make_app

    session = DrillSession(bank, store, clock, harness=harness) if harness else None
    return make_app(
        bank=bank,
        store=store,
        clock=clock,
        practice=PracticeFilter(question=question_id),
        cursor_blink=False,
        detect_gpu=False,
        drill_session=session,
        **options,
    )


def write_submission(bank, drill_id: str, text: str = "# the user's kernel\n") -> Path:
    workspace = DrillSession(bank).workspace(drill_id)
    workspace.mkdir(parents=True)
    path = workspace / "starter_triton.py"
    path.write_text(text)
    return path


async def test_e_writes_the_triton_starter_to_the_workspace_and_opens_the_editor(
    builtin_bank, coding_question, clock, opened
):
    store = Store.open()
    app = practice_app(builtin_bank, store, clock, coding_question.id)
    async with app.run_test(size=SIZE) as pilot:
        assert (
            f"Drill: {builtin_bank.drills[coding_question.drill].title}"
            in app.screen.query_one("#coding-drill").source
        )
        await pilot.press("e")
        await pilot.pause()
    store.close()
    session = DrillSession(builtin_bank)
    workspace = session.workspace(coding_question.drill)
    assert sorted(p.name for p in workspace.iterdir()) == sorted(
        p.name for p in session.starters(coding_question.drill)
    )
    assert opened.read_text().strip() == str(workspace / "starter_triton.py")
    assert os.environ["GPUPREP_HOME"] in str(workspace)


def test_a_cpu_report_reads_as_correctness_only():
    outcome = summarise(
        SubmitReport(
            "vector_add",
            "starter_triton.py",
            Status.PASSED,
            mode=Mode.CPU,
            checks=[CaseCheck({"n": 1}, "float32", "normal", ok=True)] * 3,
            notes=["timing needs a CUDA GPU"],
        )
    )
    assert outcome.passed and outcome.headline == "passed (cpu mode)"
    assert (outcome.checks_passed, outcome.checks_total, outcome.kernels) == (3, 3, [])
    assert outcome.notes == ["timing needs a CUDA GPU"]


def test_a_gpu_report_lists_the_submission_beside_the_ladder_under_the_roof():
    outcome = summarise(
        SubmitReport(
            "vector_add",
            "starter_triton.py",
            Status.FAILED,
            mode=Mode.GPU,
            checks=[
                CaseCheck({"n": 4099}, "float32", "normal", ok=False, problem="tail not masked")
            ],
            timing=Timing(0.5, 0.5, 0.5, 0.0, 10),
            achieved=Achieved(gbps=2400.0, tflops=None, bytes=None, shape=None),
            pct_of_peak=PeakShare(datasheet=80.0),
            ladder=[
                KernelLine(
                    "v0_naive",
                    Status.PASSED,
                    median_ms=0.6,
                    gbps=2000.0,
                    pct_of_peak=PeakShare(66.7),
                )
            ],
            vendor=KernelLine(
                "torch.add", Status.PASSED, median_ms=0.45, gbps=2650.0, pct_of_peak=PeakShare(88.0)
            ),
            warnings=["touches file descriptors or processes (os . write)"],
        )
    )
    assert not outcome.passed
    assert outcome.failures == ["n=4099 float32 normal: tail not masked"]
    assert [k.role for k in outcome.kernels] == ["submission", "rung", "vendor"]
    assert outcome.datasheet_gbps == pytest.approx(3000.0)
    assert outcome.notes == ["warning: touches file descriptors or processes (os . write)"]


GPU_REPORT = SubmitReport(
    drill="vector_add",
    file="starter_triton.py",
    status=Status.PASSED,
    mode=Mode.GPU,
    checks=[CaseCheck({"n": 4099}, "float32", "normal", ok=True)],
    timing=Timing(0.4, 0.4, 0.4, 0.0, 10),
    achieved=Achieved(gbps=3000.0, tflops=None, bytes=None, shape=None),
    pct_of_peak=PeakShare(datasheet=62.5),
    ladder=[
        KernelLine(
            "v0_naive", Status.PASSED, median_ms=0.5, gbps=2400.0, pct_of_peak=PeakShare(50.0)
        )
    ],
    vendor=KernelLine(
        "torch.add", Status.PASSED, median_ms=0.3, gbps=4000.0, pct_of_peak=PeakShare(83.3)
    ),
    placement="faster than v0_naive; next: v1_wide_blocks",
)


async def test_x_runs_the_harness_in_a_worker_and_shows_the_table_placement_and_plot(
    builtin_bank, coding_question, clock
):
    from textual_plotext import PlotextPlot

    harness = FakeHarness(GPU_REPORT)
    submission = write_submission(builtin_bank, coding_question.drill)
    store = Store.open()
    app = practice_app(builtin_bank, store, clock, coding_question.id, harness)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#coding-status", Static).render())
        assert "passed (gpu mode)" in status and "Ladder: faster than v0_naive" in status
        table = app.screen.query_one("#coding-results", DataTable)
        assert [table.get_row_at(i)[0] for i in range(table.row_count)] == [
            "your kernel",
            "v0_naive",
            "torch.add",
        ]
        assert app.screen.query(PlotextPlot)
        await pilot.press("x")  # a second run redraws the same plot
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(app.screen.query(PlotextPlot)) == 1
    results = store.drill_results()
    store.close()
    drill_id = coding_question.drill
    assert harness.calls[0] == (drill_id, builtin_bank.kernels_ref_dir(drill_id), submission)
    assert [(r.drill_id, r.language, r.passed) for r in results] == [(drill_id, "triton", True)] * 2
    assert results[0].submitted_at == clock() and results[0].detail == GPU_REPORT.to_json()


async def test_the_pane_shows_the_drills_notes_under_its_ladder(builtin_bank, clock):
    question = next(
        q
        for q in builtin_bank.questions.values()
        if q.kind == "coding"
        and q.drill in builtin_bank.drills
        and builtin_bank.drills[q.drill].notes
    )
    drill = builtin_bank.drills[question.drill]
    store = Store.open()
    app = practice_app(builtin_bank, store, clock, question.id)
    async with app.run_test(size=SIZE):
        shown = app.screen.query_one("#coding-drill").source
    store.close()
    ladder_at, notes_at = shown.index("**Reference ladder**"), shown.index("**Notes**")
    assert ladder_at < notes_at
    for note in drill.notes:
        assert f"- {note}" in shown[notes_at:]


async def test_a_harness_that_cannot_start_says_so_in_the_pane(
    builtin_bank, coding_question, clock
):
    harness = FakeHarness(OSError("cannot start the judge: no space left on device"))
    write_submission(builtin_bank, coding_question.drill)
    store = Store.open()
    app = practice_app(builtin_bank, store, clock, coding_question.id, harness)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#coding-status", Static).render())
    saved = store.drill_results()
    store.close()
    assert status.startswith("Could not run the harness: OSError: cannot start the judge")
    assert saved == []


def extra_bank_with_a_copy_of_vector_add(folder: Path) -> Path:
    """A --bank folder whose only drill is vector_add under the id my_vector_add, with the
    ladder copied beside it and one coding question on it."""
    shutil.copytree(
        builtin_folder("drills") / "vector_add",
        folder / "drills" / "my_vector_add",
        ignore=shutil.ignore_patterns("wrong"),
    )
    spec = folder / "drills" / "my_vector_add" / "drill.yaml"
    spec.write_text(
        spec.read_text()
        .replace("id: vector_add", "id: my_vector_add", 1)
        .replace("title: Vector add", "title: My vector add", 1)
    )
    shutil.copytree(
        builtin_folder("kernels_ref") / "vector_add", folder / "kernels_ref" / "my_vector_add"
    )
    (folder / "questions").mkdir()
    (folder / "questions" / "my-drills.yaml").write_text(
        """\
topic: {id: my-drills, title: My own drills}
questions:
  - id: my-vector-add
    title: My vector add
    kind: coding
    level: junior
    minutes: 10
    drill: my_vector_add
    prompt: Write `vector_add(x, y)` for any length.
    answer: One load of each input, an add, and a masked store.
    rubric:
      strong_signals: [Masks the tail.]
      red_flags: [Assumes n is a multiple of BLOCK.]
"""
    )
    return folder


class OnTheCpu:
    """The real harness, asked for the CPU check only (quick, and the same on any machine)."""

    def __init__(self) -> None:
        self.drills: list[str] = []

    def submit(self, drill, kernels_dir, file, **options) -> SubmitReport:
        self.drills.append(drill.id)
        return api.submit(drill, kernels_dir, file, **{**options, "cpu": True})

    def bench(self, drill, kernels_dir, **options):
        raise AssertionError("the coding pane never benches")


async def test_a_drill_defined_only_in_an_extra_bank_is_submitted_from_the_tui(tmp_path, clock):
    extra = extra_bank_with_a_copy_of_vector_add(tmp_path / "my-bank")
    bank, problems = load_bank([extra])  # what `gpuprep --bank my-bank` opens the app on
    assert not [p for p in problems if str(extra) in str(p.path)], problems
    assert "my_vector_add" in bank.drills and "my_vector_add" not in load_bank()[0].drills
    starter = (extra / "drills" / "my_vector_add" / "starter_triton.py").read_text()
    submission = write_submission(bank, "my_vector_add", starter)
    harness = OnTheCpu()
    store = Store.open()
    app = practice_app(bank, store, clock, "my-vector-add", harness)
    async with app.run_test(size=SIZE) as pilot:
        assert "Drill: My vector add" in app.screen.query_one("#coding-drill").source
        await pilot.press("x")
        await app.workers.wait_for_complete()
        await pilot.pause()
        status = str(app.screen.query_one("#coding-status", Static).render())
    saved = store.drill_results()
    store.close()
    assert status.startswith("passed (cpu mode)"), status
    assert re.search(r"Correctness: (\d+)/\1 cases passed", status), status
    assert harness.drills == ["my_vector_add"] and len(saved) == 1
    [saved] = saved
    assert (saved.drill_id, saved.passed, saved.detail["file"]) == (
        "my_vector_add",
        True,
        str(submission),
    )


def test_without_visual_or_editor_the_first_installed_fallback_opens_as_git_does(
    monkeypatch, tmp_path
):
    from gpuprep.tui.widgets.coding_pane import choose_editor

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("nano", "vi"):
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert choose_editor({}) == [str(bin_dir / "nano")]
    assert choose_editor({"EDITOR": "  "}) == [str(bin_dir / "nano")]
    assert choose_editor({"EDITOR": "code --wait"}) == ["code", "--wait"]
    assert choose_editor({"VISUAL": "vim", "EDITOR": "nano"}) == ["vim"]
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert choose_editor({}) == []


async def test_a_drills_edit_and_run_keys_are_drawn_whole_in_the_footer_at_80_columns(
    builtin_bank, coding_question, clock
):
    from textual.widgets._footer import FooterKey

    from .test_reviews_keys import NARROW

    store = Store.open()
    app = practice_app(builtin_bank, store, clock, coding_question.id)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        keys = {k.key_display: k for k in app.screen.query("Footer FooterKey").results(FooterKey)}
        for key in ("e", "x"):
            # Cut at 80 columns they read 'x Run harnes', or vanish off the edge.
            assert keys[key].region.right <= NARROW[0], (key, keys[key].description)
    store.close()


async def test_a_cuda_question_edits_and_submits_the_cuda_starter(builtin_bank, clock, opened):
    # Both starters sit in the workspace; the question asks for CUDA C, so its prompt and the
    # judged file agree (the Triton file was submitted before, on every machine).
    question = builtin_bank.questions["kernel-coding-vector-add-cuda-float4"]
    harness = FakeHarness(GPU_REPORT)
    store = Store.open()
    app = practice_app(builtin_bank, store, clock, question.id, harness)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("x")
        await app.workers.wait_for_complete()
        await pilot.pause()
    store.close()
    cuda = DrillSession(builtin_bank).workspace(question.drill) / "starter_cuda.py"
    assert opened.read_text().strip() == str(cuda)
    assert harness.calls[0][2] == cuda
