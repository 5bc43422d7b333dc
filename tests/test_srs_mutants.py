"""The spaced-repetition rules a user meets on every card, pinned at their edges.

Written to kill the mutants `./dev mutate sessions.srs` found alive (issue 19): a day boundary
off by one, a card id that changes, an interval shown in the wrong unit.
"""

from __future__ import annotations

import hashlib
import time
from datetime import UTC, datetime, timedelta, timezone

import pytest
from fsrs import Card, Rating, Scheduler, State

from gpuprep.estimate.grading import Grade
from gpuprep.sessions.srs import (
    RATINGS,
    card_id_for,
    due_today,
    format_interval,
    in_learning,
    new_card,
    outcomes,
    start_of_day,
    suggested_rating,
    with_retention,
)

NOON = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def _grade(verdict: str, *, from_table: bool = False) -> Grade:
    return Grade(
        verdict=verdict,  # type: ignore[arg-type]
        given=None,
        expected={"value": 1.0, "unit": "ms"},
        ratio=None,
        message="",
        from_table=from_table,
    )


@pytest.mark.parametrize(
    ("verdict", "from_table", "rating"),
    [
        ("correct", False, Rating.Good),
        ("correct", True, Rating.Hard),
        ("close", False, Rating.Hard),
        ("close", True, Rating.Hard),
        ("wrong", False, Rating.Again),
        ("wrong", True, Rating.Again),
        ("invalid", False, Rating.Again),
    ],
)
def test_a_grade_suggests_its_rating_and_a_looked_up_correct_answer_only_hard(
    verdict: str, from_table: bool, rating: Rating
) -> None:
    assert suggested_rating(_grade(verdict, from_table=from_table)) == rating


def test_a_retention_change_keeps_the_scheduler_s_steps_and_fuzzing() -> None:
    base = Scheduler(enable_fuzzing=False, learning_steps=(timedelta(minutes=3),))
    tuned = with_retention(base, 0.8)
    assert tuned.desired_retention == 0.8
    assert base.desired_retention == 0.9
    assert tuned.learning_steps == base.learning_steps
    assert tuned.enable_fuzzing is False
    assert tuned.parameters == base.parameters


def test_the_day_starts_at_utc_midnight_whatever_the_clock_s_zone() -> None:
    late_in_tokyo = datetime(2026, 3, 11, 1, 30, tzinfo=timezone(timedelta(hours=9)))
    assert start_of_day(late_in_tokyo) == datetime(2026, 3, 10, tzinfo=UTC)
    assert start_of_day(datetime(2026, 3, 10, 23, 59, 59, tzinfo=UTC)) == datetime(
        2026, 3, 10, tzinfo=UTC
    )


def test_the_day_is_utc_even_on_a_machine_whose_clock_is_set_to_tokyo(monkeypatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert start_of_day(datetime(2026, 3, 10, 20, 0, tzinfo=UTC)) == datetime(
            2026, 3, 10, tzinfo=UTC
        )
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_card_is_due_today_until_the_last_moment_of_the_utc_day() -> None:
    def card_due(moment: datetime) -> Card:
        return Card(card_id=1, state=State.Review, due=moment)

    assert due_today(card_due(NOON + timedelta(hours=6)), NOON)
    assert due_today(card_due(datetime(2026, 3, 10, 23, 59, 59, tzinfo=UTC)), NOON)
    assert not due_today(card_due(datetime(2026, 3, 11, tzinfo=UTC)), NOON)
    assert due_today(card_due(NOON - timedelta(days=3)), NOON)


@pytest.mark.parametrize(
    ("state", "learning"),
    [(State.Learning, True), (State.Relearning, True), (State.Review, False)],
)
def test_only_learning_and_relearning_cards_are_at_a_step(state: State, learning: bool) -> None:
    assert in_learning(Card(card_id=1, state=state)) is learning


def test_card_ids_never_change_because_saved_progress_is_keyed_by_them() -> None:
    expected = int.from_bytes(hashlib.blake2b(b"roofline-ridge", digest_size=8).digest(), "big")
    assert card_id_for("roofline-ridge") == expected >> 11
    assert card_id_for("roofline-ridge") < 2**53
    assert card_id_for("roofline-ridge") != card_id_for("roofline-ridge-2")


def test_a_new_card_is_due_at_once_with_its_question_s_id() -> None:
    card = new_card("roofline-ridge", NOON)
    assert card.due == NOON
    assert card.card_id == card_id_for("roofline-ridge")


def test_each_rating_previews_the_card_it_would_save_and_the_wait() -> None:
    scheduler = Scheduler(enable_fuzzing=False)
    card = new_card("q", NOON)
    previews = outcomes(scheduler, card, NOON, duration_ms=4000)
    assert list(previews) == list(RATINGS)
    for rating, outcome in previews.items():
        saved, log = scheduler.review_card(card, rating, NOON, 4000)
        assert outcome.rating == rating
        assert outcome.card.due == saved.due
        assert outcome.log.rating == log.rating == rating
        assert outcome.log.review_duration == 4000
        assert outcome.interval == saved.due - NOON
    assert previews[Rating.Again].interval < previews[Rating.Easy].interval


@pytest.mark.parametrize(
    ("interval", "shown"),
    [
        (timedelta(seconds=59), "<1m"),
        (timedelta(seconds=60), "1m"),
        (timedelta(minutes=45), "45m"),
        (timedelta(seconds=3599), "60m"),
        (timedelta(hours=1), "1h"),
        (timedelta(minutes=90), "2h"),
        (timedelta(seconds=86399), "24h"),
        (timedelta(days=1), "1d"),
        (timedelta(days=29), "29d"),
        (timedelta(days=30), "1mo"),
        (timedelta(days=45), "1.5mo"),
        (timedelta(days=364), "12.1mo"),
        (timedelta(days=365), "1y"),
        (timedelta(days=548), "1.5y"),
        (timedelta(days=420), "1.2y"),
    ],
)
def test_an_interval_is_shown_in_the_largest_unit_it_fills(interval: timedelta, shown: str):
    assert format_interval(interval) == shown
