"""Drill history: every submission is saved through the one DrillSession path (CLI and TUI),
and read back as a time, the rung of its own track it reached, and the best per drill."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from gpuprep.bank.loader import load_bank
from gpuprep.harness.report import KernelLine, Mode, Status, SubmitReport, Timing
from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.drill import DrillSession
from gpuprep.sessions.drill_history import DrillBest, best_per_drill, history
from gpuprep.store.database import Store

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
#: The softmax drill's Triton track, slowest rung first, with made-up medians in ms.
LADDER = {"v0_three_pass": 0.40, "v1_online": 0.20, "v2_fused_loops": 0.12, "v3_tuned_rows": 0.10}


@pytest.fixture(scope="module")
def bank():
    loaded, _problems = load_bank()
    return loaded


def gpu_report(median_ms: float | None, *, status: Status = Status.PASSED) -> SubmitReport:
    """A softmax submission timed on a GPU beside the ladder (listed fastest first, to show the
    track's own order is what counts, not the order the report lists them in)."""
    return SubmitReport(
        "softmax",
        "mine.py",
        status,
        mode=Mode.GPU,
        timing=Timing(median_ms, median_ms, median_ms, 0.01, 50) if median_ms else None,
        ladder=[
            KernelLine(name, Status.PASSED, role="rung", language="triton", median_ms=ms)
            for name, ms in sorted(LADDER.items(), key=lambda pair: pair[1])
        ],
    )


class FixedHarness:
    def __init__(self, *reports: SubmitReport) -> None:
        self.reports = list(reports)

    def submit(self, drill, kernels_dir, file, **options) -> SubmitReport:
        return self.reports.pop(0)

    def bench(self, drill, kernels_dir, **options):
        raise AssertionError("not benched here")


@pytest.mark.parametrize(
    "median_ms, rung",
    [
        (0.50, None),  # slower than the first rung
        (0.40, "v0_three_pass"),  # level with it
        (0.205, "v1_online"),  # within 3% of v1: level
        (0.13, "v1_online"),  # between v1 and v2: v2 not reached
        (0.09, "v3_tuned_rows"),  # faster than the top rung
    ],
)
def test_the_rung_reached_is_the_highest_of_its_track_that_the_time_is_level_with_or_beats(
    bank, tmp_path, median_ms, rung
):
    store = Store(tmp_path / "progress.db")
    session = DrillSession(
        bank, store, FrozenClock(START), harness=FixedHarness(gpu_report(median_ms))
    )
    session.record(session.submit("softmax", tmp_path / "mine.py"))
    (entry,) = history(store.drill_results(), bank)
    assert (entry.median_ms, entry.rung, entry.rungs_on_track) == (median_ms, rung, 4)
    store.close()


def test_the_best_time_is_the_fastest_passed_gpu_run_and_failures_never_count(bank, tmp_path):
    store = Store(tmp_path / "progress.db")
    clock = FrozenClock(START)
    reports = [
        gpu_report(0.30),
        gpu_report(0.11),
        gpu_report(0.05, status=Status.REJECTED),  # too fast to be true: not a best
        gpu_report(0.15),
    ]
    session = DrillSession(bank, store, clock, harness=FixedHarness(*reports))
    for _ in reports:
        session.record(session.submit("softmax", tmp_path / "mine.py"))
        clock.advance(hours=1)
    (best,) = best_per_drill(history(store.drill_results(), bank))
    assert (best.attempts, best.passed, best.best_ms, best.rung) == (4, 3, 0.11, "v2_fused_loops")
    assert best.best_at == START.replace(hour=10)
    assert best.last_status == "passed"
    store.close()


def test_a_best_row_gives_the_time_to_four_decimals_and_a_dash_where_no_gpu_run_timed_it():
    # `gpuprep history` and the app's Drills tab both show this row.
    timed = DrillBest("softmax", 4, 3, 0.11, START, "v2_fused_loops", "passed")
    untimed = DrillBest("rmsnorm", 2, 1, None, None, None, "failed")
    assert timed.cells() == ("softmax", "4", "3", "0.1100", "v2_fused_loops", "passed")
    assert untimed.cells() == ("rmsnorm", "2", "1", "-", "-", "failed")


def test_gpuprep_submit_saves_the_result_and_history_shows_it(bank, tmp_path, monkeypatch):
    from gpuprep.cli.main import app
    from gpuprep.sessions import drill

    monkeypatch.setattr(drill, "api", FixedHarness(gpu_report(0.12)))
    mine = tmp_path / "mine.py"
    mine.write_text("def softmax(x):\n    return x\n")
    runner = CliRunner()
    submitted = runner.invoke(app, ["submit", "softmax", str(mine), "--json"])
    assert submitted.exit_code == 0, submitted.output

    shown = runner.invoke(app, ["history", "--drill", "softmax", "--json"])
    assert shown.exit_code == 0, shown.output
    document = json.loads(shown.output)
    assert [s["median_ms"] for s in document["submissions"]] == [0.12]
    assert document["best"][0]["rung"] == "v2_fused_loops"

    table = runner.invoke(app, ["history"], env={"COLUMNS": "120"})
    assert "v2_fused_loops" in table.output and "softmax" in table.output


def test_history_of_an_unknown_drill_is_a_usage_error_naming_the_drills():
    from gpuprep.cli.main import app

    result = CliRunner().invoke(app, ["history", "--drill", "softmx"])
    assert result.exit_code == 2
    assert "unknown drill 'softmx'" in result.output and "softmax" in result.output
