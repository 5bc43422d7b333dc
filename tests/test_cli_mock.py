"""`gpuprep mock` as a user (or a script) meets it: the dry run's plan, the history, a report as Markdown, and what cannot be done, refused in words (the timed mock
itself is driven in tests/tui/test_mock_screen.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.store.database import Store
from gpuprep.store.records import Attempt

runner = CliRunner()


def mock(*args: str):
    return runner.invoke(app, ["mock", *args])


def test_the_dry_run_prints_the_sections_and_starts_nothing(isolated_gpuprep_home):
    result = mock("--dry-run", "--json", "--seed", "7", "--minutes", "60", "--track", "kernel")

    assert result.exit_code == 0, result.output
    plan = json.loads(result.stdout)
    sections = plan["sections"]
    assert [s["kind"] for s in sections] == [
        "concept",
        "estimation",
        "debugging",
        "coding",
        "design",
    ]
    assert all(
        {"kind", "minutes", "question_ids"} <= set(s) and s["question_ids"] for s in sections
    )
    assert sum(s["minutes"] for s in sections) <= 60
    assert plan["seed"] == 7 and plan["weak_topics"] == []
    assert not (isolated_gpuprep_home / "progress.db").exists(), "a seeded dry run reads no history"


@pytest.mark.parametrize("gpu_listed", [False, True])
def test_the_dry_run_draws_a_cuda_kernel_only_on_a_machine_with_a_gpu(
    monkeypatch, builtin_bank, gpu_listed
):
    monkeypatch.setattr("gpuprep.sessions.drill_report.nvidia_gpu_listed", lambda: gpu_listed)
    drills = set()
    for seed in range(12):
        result = mock(
            "--dry-run", "--json", "--seed", str(seed), "--minutes", "90", "--track", "kernel"
        )
        assert result.exit_code == 0, result.output
        plan = json.loads(result.stdout)
        drills |= {q for s in plan["sections"] if s["kind"] == "coding" for q in s["question_ids"]}

    asked_for_cuda = {q for q in drills if "cuda" in builtin_bank.questions[q].tags} - {
        q for q in drills if "triton" in builtin_bank.questions[q].tags
    }
    assert bool(asked_for_cuda) == gpu_listed, drills
    assert any("no CUDA GPU" in note for note in plan["notes"]) != gpu_listed


def test_the_same_seed_prints_the_same_interview():
    first = mock("--dry-run", "--json", "--seed", "11")
    again = mock("--dry-run", "--json", "--seed", "11")
    other = mock("--dry-run", "--json", "--seed", "12")

    assert first.stdout == again.stdout
    assert json.loads(first.stdout)["sections"] != json.loads(other.stdout)["sections"]


def test_without_a_seed_the_weak_topics_of_the_history_are_asked_about():
    store = Store.open()
    when = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)
    for question_id, verdict in [
        ("quantization-w4a16-gemv-batch1", "wrong"),
        ("quantization-fp8-kv-decode-step", "wrong"),
        ("roofline-gemm-time", "correct"),
        ("roofline-gemv-time", "correct"),
    ]:
        store.record_attempt(Attempt(question_id, "estimation", verdict, when, 90.0))
    store.close()

    plan = json.loads(mock("--dry-run", "--json", "--minutes", "60").stdout)

    assert plan["weak_topics"] == ["quantization"], "roofline, all correct, is not weak"
    assert any(q.startswith("quantization-") for s in plan["sections"] for q in s["question_ids"])


def test_the_dry_run_reads_as_a_list_of_sections():
    result = mock("--dry-run", "--seed", "3")

    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("A 45-minute general mock, seed 3")
    assert "  1. Warm-up concepts, " in result.stdout
    assert "Note: no design section" in result.stdout
    assert result.stdout.rstrip().endswith("Dry run: nothing started.")


def _finished_mock(when: datetime) -> int:
    """A 3-section mock run to its end on a frozen clock and saved, as the app would leave it."""
    from gpuprep.bank.loader import load_bank
    from gpuprep.sessions.clock import FrozenClock
    from gpuprep.sessions.mock_plan import compose
    from gpuprep.sessions.mock_run import MockRun

    bank, _problems = load_bank(None)
    clock = FrozenClock(when)
    store = Store.open()
    run = MockRun.begin(store, bank, compose(bank, seed=5), clock=clock, now=clock)
    run.session.start()
    first = run.session.plan.sections[0].question_ids[0]
    run.session.type_answer(first, "bandwidth | compute")
    clock.advance(minutes=20)
    run.finish()
    store.close()
    return run.id


def test_history_lists_past_mocks_with_their_scores():
    assert "No mock interviews yet" in mock("--history").stdout
    mock_id = _finished_mock(datetime(2026, 11, 20, 10, 0, tzinfo=UTC))

    listed = json.loads(mock("--history", "--json").stdout)["mocks"]
    text = mock("--history").stdout

    assert [(m["id"], m["finished"], m["minutes_used"]) for m in listed] == [(mock_id, True, 20.0)]
    assert text.startswith(f"#{mock_id}  2026-11-20 10:00  45 min general · 20:00 used")


def test_a_report_prints_as_markdown_and_writes_to_a_file(tmp_path):
    mock_id = _finished_mock(datetime(2026, 11, 20, 10, 0, tzinfo=UTC))

    printed = mock("--report", str(mock_id), "--md")
    written = mock("--report", str(mock_id), "--md", "-o", str(tmp_path / "mock.md"))

    assert printed.exit_code == 0, printed.output
    assert printed.stdout.startswith(f"# Mock interview #{mock_id}\n")
    assert "> bandwidth | compute" in printed.stdout
    assert "## Study next" in printed.stdout
    assert written.exit_code == 0
    assert (tmp_path / "mock.md").read_text() == printed.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--report", "99", "--md"), "no mock #99; `gpuprep mock --history` lists them"),
        (("--resume",), "no interrupted mock to resume; `gpuprep mock` starts one"),
        (("--resume", "--history"), "--resume and --history go separately"),
        (("--md",), "--md and -o go with --report ID"),
        (("--json",), "--json goes with --dry-run, --history or --report"),
    ],
)
def test_what_cannot_be_done_exits_2_saying_why(args, message):
    result = mock(*args)

    assert result.exit_code == 2
    assert message in (result.stderr or json.loads(result.stdout)["error"])


def test_a_bad_clock_scale_exits_2_before_anything_opens(monkeypatch):
    monkeypatch.setenv("GPUPREP_CLOCK_SCALE", "fast")

    result = mock("--seed", "1")

    assert result.exit_code == 2
    assert "GPUPREP_CLOCK_SCALE='fast': give a positive number" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--minutes", "50"), "--minutes 50: a mock lasts 45, 60, 90 minutes"),
        (("--track", "kernal"), "unknown track 'kernal'; did you mean kernel"),
        (("--level", "senoir"), "unknown level 'senoir'; did you mean senior"),
    ],
)
def test_a_bad_option_exits_2_naming_the_choices(args, message):
    result = mock("--dry-run", *args)

    assert result.exit_code == 2
    assert message in result.stderr
