"""`gpuprep plan --days N` as a user (or a script, with --json) meets it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, ReviewLog
from typer.testing import CliRunner

from gpuprep.cli.main import app
from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.srs import card_id_for
from gpuprep.store.database import Store

runner = CliRunner()
NOW = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def frozen_today(monkeypatch):
    monkeypatch.setattr("gpuprep.cli.plan.system_clock", FrozenClock(NOW))


def plan(*args: str):
    return runner.invoke(app, ["plan", *args])


def _review(question_id: str, due: datetime) -> None:
    """A card for the question, reviewed three days before it falls due, in the user's store."""
    store = Store.open()
    try:
        store.save_review(
            question_id,
            Card(card_id=card_id_for(question_id), due=due),
            ReviewLog(
                card_id=1,
                rating=Rating.Good,
                review_datetime=due - timedelta(days=3),
                review_duration=None,
            ),
        )
    finally:
        store.close()


@pytest.mark.parametrize("days", [3, 7, 14, 28, 56])
def test_the_json_has_one_dated_non_empty_entry_per_day(days):
    result = plan("--days", str(days), "--start", "2026-12-01", "--json")

    assert result.exit_code == 0, result.output
    laid_out = json.loads(result.stdout)
    assert [d["day"] for d in laid_out["days"]] == list(range(1, days + 1))
    assert laid_out["days"][0]["date"] == "2026-12-01"
    assert laid_out["days"][-1]["date"] == (
        datetime(2026, 12, 1) + timedelta(days=days - 1)
    ).strftime("%Y-%m-%d")
    assert all(day["items"] for day in laid_out["days"])
    assert laid_out["today"] == 2


def test_today_is_merged_with_the_cards_due():
    _review("training-mfu-hfu-from-throughput", NOW - timedelta(days=2))
    _review("roofline-gemm-time", NOW + timedelta(days=5))

    laid_out = json.loads(plan("--days", "3", "--json").stdout)

    assert laid_out["start"] == "2026-12-02" and laid_out["today"] == 1
    assert laid_out["due_today"] == 1
    first = laid_out["days"][0]["items"][0]
    assert first["kind"] == "review" and first["question_ids"] == [
        "training-mfu-hfu-from-throughput"
    ]
    assert all(d["items"][0]["kind"] != "review" for d in laid_out["days"][1:])


def test_a_started_plan_counts_its_days_from_when_it_was_started():
    store = Store.open()
    store.start_plan("seven-days", NOW - timedelta(days=3))
    store.close()

    laid_out = json.loads(plan("--days", "7", "--json").stdout)

    assert laid_out["plan"] == "seven-days"
    assert (laid_out["start"], laid_out["today"]) == ("2026-11-29", 4)


def test_the_text_marks_today_and_lists_its_questions():
    result = plan("--days", "3", "--start", "2026-12-01")

    assert result.exit_code == 0, result.output
    assert "Day 2 · Wed 2026-12-02 · CUDA execution and the kernels   <- today" in result.stdout
    assert "Day 1 · Tue 2026-12-01 · The performance model\n" in result.stdout
    assert "  - question kernel-coding-softmax: The softmax drill" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--days", "5"), "--days 5: plans last 3, 7, 14, 28, 56 days"),
        (("--days", "3", "--start", "tomorrow"), "--start 'tomorrow': write a date as YYYY-MM-DD"),
    ],
)
def test_a_bad_option_exits_2_saying_what_to_write(args, message):
    result = plan(*args)

    assert result.exit_code == 2
    assert message in result.stderr
