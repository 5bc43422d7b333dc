"""Practice sessions and spaced repetition, without any UI."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Rating

from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.practice import pick_variant
from gpuprep.sessions.srs import card_id_for, format_interval
from gpuprep.sessions.stats import progress, streak
from gpuprep.store.records import Attempt

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_card_ids_are_stable_and_distinct():
    assert card_id_for("roofline-gemm-time") == card_id_for("roofline-gemm-time")
    assert card_id_for("roofline-gemm-time") != card_id_for("roofline-ridge-point-meaning")
    assert 0 < card_id_for("x") < 2**53


def test_intervals_read_like_a_flashcard_app():
    assert [format_interval(timedelta(seconds=s)) for s in (30, 600, 7200)] == ["<1m", "10m", "2h"]
    assert [format_interval(timedelta(days=d)) for d in (3, 45, 730)] == ["3d", "1.5mo", "2y"]


def test_a_topic_session_holds_only_that_topic_easiest_new_first(fixture_bank, practice_session):
    practice = practice_session(fixture_bank, FrozenClock(START), topic="roofline")
    assert [item.question.id for item in practice.items] == ["fx-copy-time", "fx-ridge-meaning"]
    assert all(item.is_new for item in practice.items)


def test_each_rating_shows_its_interval_and_the_chosen_one_is_saved(
    fixture_bank, store, practice_session
):
    clock = FrozenClock(START)
    practice = practice_session(fixture_bank, clock, topic="memory")
    clock.advance(seconds=40)
    practice.next_hint()
    practice.reveal()
    previews = practice.outcomes()
    assert list(previews) == [Rating.Again, Rating.Hard, Rating.Good, Rating.Easy]
    assert previews[Rating.Again].interval < previews[Rating.Easy].interval
    chosen = practice.rate(Rating.Easy, signals_hit=(0, 1))
    assert practice.finished
    card = store.card("fx-coalescing")
    assert card.due == chosen.card.due == START + timedelta(seconds=40) + chosen.interval
    [attempt] = store.attempts("fx-coalescing")
    assert (attempt.rating, attempt.signals_hit, attempt.hints_used) == (4, (0, 1), 1)
    assert attempt.seconds_taken == 40


def test_due_cards_come_back_first_and_a_due_review_holds_only_them(fixture_bank, practice_session):
    clock = FrozenClock(START)
    first = practice_session(fixture_bank, clock, topic="memory")
    first.rate(Rating.Good)  # a new card's first Good is a 10-minute learning step
    clock.advance(minutes=10)
    first.rate(Rating.Good)  # the second graduates it: due in days
    assert first.finished
    later = practice_session(fixture_bank, clock)
    assert "fx-coalescing" not in [i.question.id for i in later.items]
    assert practice_session(fixture_bank, clock, due_only=True).items == []
    clock.advance(days=30)
    again = practice_session(fixture_bank, clock)
    assert again.items[0].question.id == "fx-coalescing" and not again.items[0].is_new
    assert [i.question.id for i in practice_session(fixture_bank, clock, due_only=True).items] == [
        "fx-coalescing"
    ]


def test_a_topic_drilled_again_the_same_day_still_has_questions(fixture_bank, practice_session):
    clock = FrozenClock(START)
    first = practice_session(fixture_bank, clock, topic="memory")
    first.rate(Rating.Easy)
    assert [i.question.id for i in practice_session(fixture_bank, clock, topic="memory").items] == [
        "fx-coalescing"
    ]


def test_variants_only_draw_allowed_values_and_repeat_with_the_seed(fixture_bank):
    question = fixture_bank.questions["fx-copy-time"]
    draws = [pick_variant(question, fixture_bank, random.Random(seed)) for seed in range(20)]
    assert {v.gpu for v in draws} == {"h100_sxm"}
    assert {v.params["size"] for v in draws} == {1, 2, 4}
    again = pick_variant(question, fixture_bank, random.Random(3))
    assert again == pick_variant(question, fixture_bank, random.Random(3))


def test_progress_counts_due_cards_streaks_and_suggests_the_due_review(
    fixture_bank, store, practice_session
):
    clock = FrozenClock(START)
    practice = practice_session(fixture_bank, clock, topic="memory")
    practice.rate(Rating.Again)
    figures = progress(fixture_bank, store.cards(), store.attempts(), clock())
    assert figures.due_today == 1 and figures.new == 2 and figures.streak_days == 1
    memory = next(t for t in figures.topics if t.topic == "memory")
    assert (memory.questions, memory.seen, memory.attempts, memory.successes) == (1, 1, 1, 0)
    assert figures.suggestion.filter.due_only


def test_a_streak_counts_back_from_yesterday_when_today_is_not_done():
    today = START.date()
    days = {today - timedelta(days=n) for n in (1, 2, 3, 5)}
    assert streak(days, today) == 3
    assert streak(days | {today}, today) == 4


def test_a_graded_estimate_counts_only_when_correct(fixture_bank, store):
    for verdict in ("correct", "close"):
        store.record_attempt(
            Attempt(
                question_id="fx-copy-time",
                kind="estimation",
                verdict=verdict,
                started_at=START,
                seconds_taken=5,
            )
        )
    roofline = next(
        t
        for t in progress(fixture_bank, {}, store.attempts(), START).topics
        if t.topic == "roofline"
    )
    assert (roofline.attempts, roofline.successes) == (2, 1)


@pytest.fixture
def estimation_session(fixture_bank, practice_session):
    return practice_session(fixture_bank, FrozenClock(START), kind="estimation")


@pytest.mark.parametrize(
    ("typed", "usable", "shown"),
    [
        ("", False, "Type an estimate in us"),
        ("600 us", True, "= 600 us"),
        ("1.5 ms", True, "= 1500 us (1.5 ms)"),
        ("600", True, "a bare number is read in us"),
        ("3.35 TB/s", False, "the question asks for"),
        ("2 GB / (", False, "…"),
    ],
)
def test_the_live_preview_says_what_the_answer_reads_as_never_whether_it_is_right(
    estimation_session, typed, usable, shown
):
    preview = estimation_session.preview_answer(typed)
    assert preview.usable is usable
    assert shown in preview.text
    assert "correct" not in preview.text.lower() and "wrong" not in preview.text.lower()


def test_a_graded_estimate_is_saved_with_its_variant_and_suggests_a_rating(
    estimation_session, store
):
    practice = estimation_session
    expected = practice.solution().answer_value
    grade = practice.check_estimate(f"{expected * 1.5:g} us")
    assert grade.verdict == "close"
    assert practice.suggested_rating == Rating.Hard
    [attempt] = store.attempts()
    assert attempt.verdict == "close" and attempt.variant["gpu"] == "h100_sxm"
    assert attempt.variant["params"]["size"] in (1, 2, 4)


def test_only_ticks_of_signals_the_question_showed_are_saved(fixture_bank, store, practice_session):
    clock = FrozenClock(START)
    practice = practice_session(
        fixture_bank, clock, topic="roofline"
    )  # an estimation, then a concept
    first, second = (item.question for item in practice.items)
    assert (first.kind, second.kind) == ("estimation", "concept")
    practice.reveal()
    practice.rate(Rating.Good, signals_hit=(0, 1))  # ticks carried over from elsewhere
    practice.reveal()
    shown = len(second.rubric.strong_signals)
    practice.rate(Rating.Good, signals_hit=(0, shown, 99))
    by_id = {attempt.question_id: attempt.signals_hit for attempt in store.attempts()}
    assert by_id == {first.id: (), second.id: (0,)}
