"""One definition of an attempt on the Stats screen (issue 17): the chart of attempts per day and
the topics' table count the same answers, however many invalid tries the store holds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gpuprep.bank.loader import load_bank
from gpuprep.sessions.stats import counts_as_attempt, progress
from gpuprep.store.database import Store
from gpuprep.store.records import Attempt

NOW = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)
FIXTURE_BANK = Path(__file__).parent / "fixtures" / "bank_ok"


@pytest.fixture(scope="module")
def bank():
    loaded, problems = load_bank([FIXTURE_BANK], builtin=False)
    assert problems == []
    return loaded


def test_the_chart_and_the_table_count_the_same_attempts_on_a_store_with_invalid_tries(
    bank, tmp_path
):
    store = Store(tmp_path / "progress.db")
    tries = [
        # Two typos retyped, then a graded answer: one attempt, as the table says.
        Attempt("basics-bandwidth", "estimation", "invalid", NOW - timedelta(days=2), 4.0),
        Attempt("basics-bandwidth", "estimation", "invalid", NOW - timedelta(days=2), 6.0),
        Attempt("basics-bandwidth", "estimation", "wrong", NOW - timedelta(days=2), 40.0),
        Attempt("basics-bandwidth", "estimation", "invalid", NOW, 3.0),
        Attempt("basics-bandwidth", "estimation", "correct", NOW, 30.0),
        Attempt("basics-warp", "concept", "Good", NOW, 20.0, rating=3),
        Attempt("basics-bandwidth", "estimation", "correct", NOW, 9.0, from_table=True),
    ]
    for attempt in tries:
        store.record_attempt(attempt)
    figures = progress(bank, store.cards(), store.attempts(), NOW, days=7)
    store.close()

    charted = sum(count for _day, count in figures.attempts_per_day)
    tabled = sum(topic.attempts for topic in figures.topics)
    assert charted == tabled == 3
    assert [count for _day, count in figures.attempts_per_day][-3:] == [1, 0, 2]


def test_an_attempt_is_a_judged_answer_to_a_question_of_the_bank(bank):
    def attempt(question_id: str, verdict: str, rating: int | None = None) -> Attempt:
        return Attempt(question_id, "estimation", verdict, NOW, 5.0, rating=rating)

    assert counts_as_attempt(attempt("basics-bandwidth", "wrong"), bank)
    assert counts_as_attempt(attempt("basics-warp", "Again", rating=1), bank)
    assert not counts_as_attempt(attempt("basics-bandwidth", "invalid"), bank)
    assert not counts_as_attempt(attempt("a-deleted-question", "correct"), bank)


def test_the_chart_counts_the_answers_read_from_the_table_that_it_leaves_out(bank):
    def read_from_table(question_id: str, days_ago: int) -> Attempt:
        return Attempt(
            question_id,
            "estimation",
            "correct",
            NOW - timedelta(days=days_ago),
            9.0,
            from_table=True,
        )

    attempts = [
        read_from_table("basics-bandwidth", 0),
        read_from_table("basics-bandwidth", 6),
        read_from_table("basics-bandwidth", 7),  # before the chart's seven days
        read_from_table("a-deleted-question", 0),  # no topic to have been practised in
        Attempt("basics-bandwidth", "estimation", "wrong", NOW, 40.0),
    ]
    figures = progress(bank, {}, attempts, NOW, days=7)
    assert figures.read_from_table == 2
    assert sum(count for _day, count in figures.attempts_per_day) == 1
