"""Browse's list: every matching question with how often it was rated and when it is due, in the
order asked for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gpuprep.bank.loader import load_bank
from gpuprep.sessions.browse import QuestionQuery, browse_rows

BANK = Path(__file__).parent / "tui" / "fixtures" / "bank"
NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank():
    loaded, problems = load_bank([BANK], builtin=False)
    assert problems == []
    return loaded


def ids(rows):
    return [row.question.id for row in rows]


def test_the_bank_order_is_kept_when_no_sort_is_asked(bank):
    assert ids(browse_rows(bank, QuestionQuery(), {}, {})) == list(bank.questions)


def test_due_order_puts_the_most_overdue_first_and_new_questions_last(bank):
    first, second, third = list(bank.questions)
    due = {third: NOW - timedelta(days=3), second: NOW + timedelta(days=2)}
    assert ids(browse_rows(bank, QuestionQuery(), due, {}, "due")) == [third, second, first]


def test_seen_order_puts_the_most_rated_first(bank):
    first, second, third = list(bank.questions)
    assert ids(browse_rows(bank, QuestionQuery(), {}, {second: 4, third: 1}, "seen")) == [
        second,
        third,
        first,
    ]


def test_level_order_is_junior_then_mid_then_senior_not_alphabetical(bank):
    rows = browse_rows(bank, QuestionQuery(), {}, {}, "level")
    order = {"junior": 0, "mid": 1, "senior": 2}
    levels = [order[row.question.level] for row in rows]
    assert levels == sorted(levels)


def test_a_row_says_new_now_or_how_long_until_due(bank):
    question_id = next(iter(bank.questions))
    cases = {
        None: "new",
        NOW - timedelta(minutes=1): "now",
        NOW + timedelta(minutes=20): "in 20 min",
        NOW + timedelta(hours=5, minutes=30): "in 5 h",
        NOW + timedelta(days=3, hours=2): "in 3 d",
    }
    for due, shown in cases.items():
        cards = {question_id: due} if due else {}
        (row,) = [r for r in browse_rows(bank, QuestionQuery(), cards, {}) if r.question.id == question_id]
        assert row.due_text(NOW) == shown


def test_an_unknown_order_is_refused_by_name(bank):
    with pytest.raises(ValueError, match="unknown sort 'colour'"):
        browse_rows(bank, QuestionQuery(), {}, {}, "colour")
