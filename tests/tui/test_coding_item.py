"""A coding item: the starter goes to a workspace, $EDITOR opens it, the harness report is read."""

from __future__ import annotations

import os
import stat

import pytest

from gpuprep.bank.loader import load_bank
from gpuprep.sessions.drill_report import read_report
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.tui.widgets.coding_pane import starters, workspace_for

SIZE = (120, 36)


@pytest.fixture(scope="module")
def builtin_bank():
    bank, _problems = load_bank()  # other topics may be mid-edit; the drills are what matter here
    if not any(q.kind == "coding" and q.drill in bank.drills for q in bank.questions.values()):
        pytest.fail("the built-in bank has no coding question with a drill")
    return bank


async def test_e_writes_the_triton_starter_to_the_workspace_and_opens_the_editor(
    builtin_bank, clock, tmp_path, monkeypatch
):
    from gpuprep.store.database import Store
    from gpuprep.tui.app import make_app

    opened = tmp_path / "opened.txt"
    editor = tmp_path / "editor.sh"
    editor.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    question = next(
        q
        for q in builtin_bank.questions.values()
        if q.kind == "coding" and q.drill in builtin_bank.drills
    )
    store = Store.open()
    app = make_app(
        bank=builtin_bank,
        store=store,
        clock=clock,
        practice=PracticeFilter(question=question.id),
        cursor_blink=False,
        detect_gpu=False,
    )
    async with app.run_test(size=SIZE) as pilot:
        assert (
            f"Drill: {builtin_bank.drills[question.drill].title}"
            in app.screen.query_one("#coding-drill").source
        )
        await pilot.press("e")
        await pilot.pause()
    store.close()
    workspace = workspace_for(question.drill)
    assert sorted(p.name for p in workspace.iterdir()) == sorted(
        p.name for p in starters(builtin_bank.drill_dirs[question.drill])
    )
    assert opened.read_text().strip() == str(workspace / "starter_triton.py")
    assert os.environ["GPUPREP_HOME"] in str(workspace)


def test_a_cpu_report_reads_as_correctness_only():
    outcome = read_report(
        {
            "status": "passed",
            "message": "",
            "mode": "cpu",
            "checks": [{"dims": {"n": 1}, "dtype": "float32", "distribution": "normal", "ok": True}]
            * 3,
            "timing": None,
            "achieved": None,
            "pct_of_peak": None,
            "ladder": [],
            "vendor": None,
            "copy": None,
            "placement": "",
            "flags": [],
            "notes": ["timing needs a CUDA GPU"],
        }
    )
    assert outcome.passed and outcome.headline == "passed (cpu mode)"
    assert (outcome.checks_passed, outcome.checks_total, outcome.kernels) == (3, 3, [])
    assert outcome.notes == ["timing needs a CUDA GPU"]


def test_a_gpu_report_lists_the_submission_beside_the_ladder_under_the_roof():
    outcome = read_report(
        {
            "status": "failed",
            "message": "",
            "mode": "gpu",
            "checks": [
                {
                    "dims": {"n": 4099},
                    "dtype": "float32",
                    "distribution": "normal",
                    "ok": False,
                    "problem": "tail not masked",
                }
            ],
            "timing": {"median_ms": 0.5},
            "achieved": {"gbps": 2400.0},
            "pct_of_peak": {"datasheet": 80.0},
            "ladder": [
                {
                    "name": "v0_naive",
                    "status": "passed",
                    "median_ms": 0.6,
                    "gbps": 2000.0,
                    "pct_of_peak": {"datasheet": 66.7},
                }
            ],
            "vendor": {
                "name": "torch.add",
                "status": "passed",
                "median_ms": 0.45,
                "gbps": 2650.0,
                "pct_of_peak": {"datasheet": 88.0},
            },
            "copy": None,
            "placement": "between v0_naive and v1_wide_blocks",
            "flags": [],
            "notes": [],
        }
    )
    assert not outcome.passed
    assert outcome.failures == ["{'n': 4099} float32 normal: tail not masked"]
    assert [k.role for k in outcome.kernels] == ["submission", "rung", "vendor"]
    assert outcome.datasheet_gbps == pytest.approx(3000.0)


GPU_REPORT = {
    "drill": "vector_add",
    "status": "passed",
    "message": "",
    "mode": "gpu",
    "checks": [{"dims": {"n": 4099}, "dtype": "float32", "distribution": "normal", "ok": True}],
    "timing": {"median_ms": 0.4},
    "achieved": {"gbps": 3000.0},
    "pct_of_peak": {"datasheet": 62.5},
    "ladder": [
        {
            "name": "v0_naive",
            "status": "passed",
            "median_ms": 0.5,
            "gbps": 2400.0,
            "pct_of_peak": {"datasheet": 50.0},
        }
    ],
    "vendor": {
        "name": "torch.add",
        "status": "passed",
        "median_ms": 0.3,
        "gbps": 4000.0,
        "pct_of_peak": {"datasheet": 83.3},
    },
    "copy": None,
    "placement": "faster than v0_naive; next: v1_wide_blocks",
    "flags": [],
    "notes": [],
}


async def test_x_runs_the_harness_in_a_worker_and_shows_the_table_placement_and_plot(
    builtin_bank, clock, monkeypatch
):
    import json
    import subprocess

    from textual.widgets import DataTable, Static
    from textual_plotext import PlotextPlot

    from gpuprep.store.database import Store
    from gpuprep.tui.app import make_app
    from gpuprep.tui.widgets import coding_pane

    commands = []

    def fake_run(command, **options):
        commands.append(command)
        return subprocess.CompletedProcess(command, 0, stdout=json.dumps(GPU_REPORT), stderr="")

    monkeypatch.setattr(coding_pane.subprocess, "run", fake_run)
    question = next(
        q
        for q in builtin_bank.questions.values()
        if q.kind == "coding" and q.drill in builtin_bank.drills
    )
    workspace = workspace_for(question.drill)
    workspace.mkdir(parents=True)
    (workspace / "starter_triton.py").write_text("# the user's kernel\n")
    store = Store.open()
    app = make_app(
        bank=builtin_bank,
        store=store,
        clock=clock,
        practice=PracticeFilter(question=question.id),
        cursor_blink=False,
        detect_gpu=False,
    )
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
    [result] = store.drill_results()
    store.close()
    assert commands[0][-4:] == [
        "submit",
        question.drill,
        str(workspace / "starter_triton.py"),
        "--json",
    ]
    assert (result.drill_id, result.language, result.passed) == (question.drill, "triton", True)
