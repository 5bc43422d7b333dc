"""`gpuprep mock` as a user (or a script) meets it: the dry run's plan, and an honest refusal to
start the timed interview before the TUI for it exists."""

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


def test_without_dry_run_it_says_the_timed_mock_is_not_built_and_exits_2():
    result = mock("--minutes", "45")

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "not built yet" in result.stderr


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
