"""A collective submission is saved like any drill's: `gpuprep submit all_reduce` goes through
DrillSession's one saving path, and `gpuprep history` and the best-per-drill row read it back."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from typer.testing import CliRunner

from gpuprep.bank.loader import load_bank
from gpuprep.cli.main import app
from gpuprep.collective.protocol import CaseResult, Report, Status
from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.drill import DrillSession
from gpuprep.sessions.drill_history import best_per_drill, history
from gpuprep.store.database import Store

from .conftest import DRILL

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_a_cpu_submission_of_the_starter_is_saved_and_history_shows_it():
    runner = CliRunner()
    submitted = runner.invoke(
        app, ["submit", "all_reduce", str(DRILL / "starter.py"), "--cpu", "--ranks", "2", "--json"]
    )
    assert submitted.exit_code == 0, submitted.output

    shown = runner.invoke(app, ["history", "--drill", "all_reduce", "--json"])
    assert shown.exit_code == 0, shown.output
    (submission,) = json.loads(shown.output)["submissions"]
    assert (submission["drill"], submission["status"], submission["mode"]) == (
        "all_reduce",
        "passed",
        "cpu",
    )
    assert submission["median_ms"] is None  # gloo ranks check; only GPU runs are timed
    assert "all 7 cases right on 2 ranks" in submission["summary"]

    # The row `gpuprep history` and the app's Drills tab both show.
    bank, _problems = load_bank()
    store = Store.open()
    (best,) = best_per_drill(history(store.drill_results(), bank))
    store.close()
    assert best.cells() == ("all_reduce", "1", "1", "-", "-", "passed")


def test_history_of_a_misspelt_collective_drill_is_a_usage_error_naming_all_reduce():
    result = CliRunner().invoke(app, ["history", "--drill", "all_reduse"])
    assert result.exit_code == 2
    assert "unknown drill 'all_reduse'" in result.output and "all_reduce" in result.output


def _case(label: str, numel: int, dtype: str, width: int, ms: float, busbw: float) -> CaseResult:
    return {
        "label": label,
        "numel": numel,
        "dtype": dtype,
        "bytes": numel * width,
        "ok": True,
        "checked": False,
        "median_ms": ms,
        "busbw_gbps": busbw,
    }


def gpu_report(one_gib_fp32_ms: float, status: Status = "passed") -> Report:
    """A made-up NCCL run: two timed sizes of 1 GiB (fp32 listed first) and one of 256 MiB."""
    return {
        "status": status,
        "message": "all 11 cases right on 8 ranks",
        "file": "mine.py",
        "ranks": 8,
        "device": "NVIDIA H200",
        "backend": "nccl",
        "cases": [
            _case("256 MiB", 1 << 26, "float32", 4, 1.0, 470.0),
            _case("1 GiB", 1 << 28, "float32", 4, one_gib_fp32_ms, 480.0),
            _case("1 GiB", 1 << 29, "bfloat16", 2, 9.0, 210.0),
        ],
        "forbidden_calls": {},
        "traceback": "",
        "elapsed_s": 30.0,
    }


def test_a_gpu_run_is_timed_on_its_largest_size_and_the_best_is_the_fastest_pass(tmp_path):
    bank, _problems = load_bank()
    store = Store(tmp_path / "progress.db")
    clock = FrozenClock(START)
    session = DrillSession(bank, store, clock)
    for ms, status in [(4.0, "passed"), (3.9, "passed"), (1.0, "failed")]:
        session.record_collective("all_reduce", gpu_report(ms, status))
        clock.advance(hours=1)

    entries = history(store.drill_results("all_reduce"), bank)
    assert [(e.mode, e.median_ms, e.gbps, e.rung) for e in entries[:1]] == [
        ("gpu", 4.0, 480.0, None)
    ]
    (best,) = best_per_drill(entries)
    assert (best.attempts, best.passed, best.best_ms, best.last_status) == (3, 2, 3.9, "failed")
    assert best.best_at == START.replace(hour=10)
    store.close()
