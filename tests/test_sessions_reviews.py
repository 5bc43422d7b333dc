"""Reviews as a flashcard user expects them (issue 17), without any UI: learning steps inside the
session, undo, Home's counts matching the session they open, the daily cap of new questions,
desired retention, and the end-of-session summary."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Card, Rating, ReviewLog, Scheduler, State

from gpuprep.sessions.clock import FrozenClock
from gpuprep.sessions.practice import PracticeSession
from gpuprep.sessions.practice_summary import summarize
from gpuprep.sessions.queues import new_cards_left
from gpuprep.sessions.srs import card_id_for, with_retention
from gpuprep.sessions.stats import progress

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def asked(practice):
    return practice.current.question.id if practice.current else None


def everything_in(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read through a second connection (what is on disk)."""
    with sqlite3.connect(path) as db:
        tables = [
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall()) for table in tables}


# Learning steps


def test_a_card_rated_again_comes_back_in_the_same_session(fixture_bank, store, practice_session):
    clock = FrozenClock(START)
    practice = practice_session(fixture_bank, clock, topic="roofline")
    first, second = (item.question.id for item in practice.items)
    practice.reveal()
    practice.rate(Rating.Again)
    assert asked(practice) == second and practice.position == (2, 3)
    practice.reveal()
    practice.rate(Rating.Easy)
    assert asked(practice) == first  # back for its learning step before the session ends
    assert practice.current.queue == "learning" and not practice.current.is_new
    practice.reveal()
    practice.rate(Rating.Good)  # Again then Good: the next step, 10 minutes on
    assert asked(practice) == first
    clock.advance(minutes=10)
    practice.reveal()
    practice.rate(Rating.Good)  # graduates: due in days, not in this session
    assert practice.finished
    assert store.card(first).state == State.Review


def test_a_learning_step_that_is_due_comes_before_the_next_new_question(
    fixture_bank, practice_session
):
    clock = FrozenClock(START)
    practice = practice_session(fixture_bank, clock)
    order = [item.question.id for item in practice.items]
    practice.reveal()
    practice.rate(Rating.Again)  # back in a minute
    clock.advance(minutes=2)
    practice.reveal()
    practice.rate(Rating.Easy)
    assert asked(practice) == order[0]
    assert practice.position == (3, 4)


def test_an_estimate_asked_again_for_its_step_gets_new_numbers_from_the_same_seed(
    fixture_bank, practice_session
):
    clock = FrozenClock(START)
    practice = practice_session(fixture_bank, clock, kind="estimation")
    variants = [practice.current.variant]
    for _ in range(4):
        practice.reveal()
        practice.rate(Rating.Again)
        variants.append(practice.current.variant)
    assert all(v.gpu == "h100_sxm" for v in variants)
    assert len({v.params["size"] for v in variants}) > 1


# Undo


@pytest.mark.parametrize("history", ["new", "review"])
def test_undo_restores_the_card_log_and_attempt_and_nothing_else(
    fixture_bank, store, practice_session, tmp_path, history
):
    clock = FrozenClock(START)
    if history == "review":
        practice_session(fixture_bank, clock, topic="memory").rate(Rating.Easy)
        clock.advance(days=30)
    practice = practice_session(fixture_bank, clock, topic="memory")
    item = practice.current
    practice.next_hint()
    practice.reveal()
    before = everything_in(tmp_path / "progress.db")
    practice.rate(Rating.Again, signals_hit=(0, 1))
    assert everything_in(tmp_path / "progress.db") != before

    assert practice.undo() is item
    assert everything_in(tmp_path / "progress.db") == before
    assert practice.current is item and practice.attempt is not None
    assert practice.undone_signals == (0, 1) and practice.hints_shown == 1
    assert practice.rated == [] and not practice.can_undo

    practice.rate(Rating.Hard, signals_hit=(1,))
    [*_, attempt] = store.attempts("fx-coalescing")
    assert (attempt.rating, attempt.signals_hit, attempt.hints_used) == (2, (1,), 1)
    assert [log.rating for _, log in store.review_logs()][-1] == Rating.Hard


def test_undo_puts_back_the_queue_as_it_was(fixture_bank, store, practice_session):
    clock = FrozenClock(START)
    practice = practice_session(fixture_bank, clock)
    order = [item.question.id for item in practice.items]
    practice.reveal()
    practice.rate(Rating.Again)
    practice.reveal()
    practice.rate(Rating.Good)
    practice.undo()
    practice.undo()
    assert asked(practice) == order[0] and practice.position == (1, 3)
    practice.rate(Rating.Easy)
    practice.rate(Rating.Easy)
    practice.rate(Rating.Easy)
    assert practice.finished and store.cards().keys() == set(order)


def test_undo_after_ending_early_resumes_the_session(fixture_bank, practice_session):
    practice = practice_session(fixture_bank, FrozenClock(START))
    practice.rate(Rating.Easy)
    practice.end()
    assert practice.finished and practice.left == 2
    practice.undo()
    assert not practice.finished and practice.left == 3


def test_an_undo_that_cannot_find_its_review_changes_nothing(
    fixture_bank, store, practice_session, tmp_path
):
    practice = practice_session(fixture_bank, FrozenClock(START), topic="memory")
    practice.rate(Rating.Good)
    before = everything_in(tmp_path / "progress.db")
    with pytest.raises(ValueError, match="no review 999 of fx-coalescing to undo"):
        store.undo_review("fx-coalescing", None, 999)
    assert everything_in(tmp_path / "progress.db") == before


# Home's counts and the sessions they open


def test_home_counts_learn_and_review_due_today_and_d_opens_exactly_those(
    builtin_bank, store, practice_session
):
    now = START
    ids = sorted(builtin_bank.questions)
    review = dict(state=State.Review, stability=5.0, difficulty=5.0, last_review=now)
    cards = {
        ids[0]: Card(card_id=1, due=now - timedelta(days=2), **review),
        ids[1]: Card(card_id=2, due=now + timedelta(hours=6), **review),  # later today: due today
        ids[2]: Card(card_id=3, due=now + timedelta(days=1), **review),  # tomorrow
        ids[3]: Card(card_id=4, state=State.Relearning, step=0, due=now + timedelta(minutes=9)),
        ids[4]: Card(card_id=5, state=State.Learning, step=1, due=now - timedelta(minutes=3)),
    }
    for question_id, card in cards.items():
        store.save_review(question_id, card, _log(card, now))

    figures = progress(builtin_bank, store.cards(), [], now)
    due = practice_session(builtin_bank, FrozenClock(now), due_only=True)

    assert (figures.learn, figures.review) == (2, 2)
    assert len(due.items) == figures.due_today == 4
    assert {item.question.id for item in due.items} == {ids[0], ids[1], ids[3], ids[4]}


def _log(card, now):
    return ReviewLog(
        card_id=card.card_id,
        rating=Rating.Good,
        review_datetime=now - timedelta(days=3),
        review_duration=None,
    )


def test_the_daily_cap_limits_new_questions_and_home_counts_what_is_left(
    builtin_bank, store, practice_session
):
    clock = FrozenClock(START)
    first = practice_session(builtin_bank, clock, new_per_day=3)
    assert [item.queue for item in first.items] == ["new"] * 3
    assert first.new_held_back == len(builtin_bank.questions) - 3
    for _ in range(3):
        first.rate(Rating.Easy)
    assert first.finished
    left = new_cards_left(store, clock(), 3)
    assert left == 0
    assert progress(builtin_bank, store.cards(), [], clock(), new_left=left).new == 0
    assert practice_session(builtin_bank, clock, new_per_day=3).items == []

    first.undo()  # undoing a new question's first rating gives its place back
    assert new_cards_left(store, clock(), 3) == 1

    clock.advance(days=1)
    assert new_cards_left(store, clock(), 3) == 3


def test_a_question_picked_by_name_is_asked_whatever_the_cap(builtin_bank, practice_session):
    picked = sorted(builtin_bank.questions)[5]
    practice = practice_session(builtin_bank, FrozenClock(START), new_per_day=0, question=picked)
    assert [item.question.id for item in practice.items] == [picked]
    capped = practice_session(builtin_bank, FrozenClock(START), new_per_day=0)
    assert capped.items == [] and capped.new_held_back == len(builtin_bank.questions)


def test_a_higher_desired_retention_brings_a_card_back_sooner():
    card = Card(
        card_id=card_id_for("x"),
        state=State.Review,
        stability=20.0,
        difficulty=5.0,
        due=START,
        last_review=START - timedelta(days=20),
    )
    base = Scheduler(enable_fuzzing=False)
    intervals = {
        retention: with_retention(base, retention).review_card(card, Rating.Good, START)[0].due
        for retention in (0.8, 0.9, 0.97)
    }
    assert intervals[0.8] > intervals[0.9] > intervals[0.97]
    assert with_retention(base, 0.97).enable_fuzzing is False


# The summary


def test_the_summary_counts_first_answers_and_offers_the_missed_ones_again(
    fixture_bank, store, practice_session
):
    clock = FrozenClock(START)
    practice = practice_session(fixture_bank, clock)
    order = [item.question.id for item in practice.items]
    practice.reveal()
    practice.rate(Rating.Again)
    practice.reveal()
    practice.rate(Rating.Good)
    practice.reveal()
    practice.rate(Rating.Easy)
    while not practice.finished:  # the learning steps, right this time
        practice.reveal()
        practice.rate(Rating.Easy)

    summary = summarize(practice)

    assert (summary.questions, summary.judged, summary.right) == (3, 3, 2)
    assert summary.accuracy == pytest.approx(2 / 3)
    assert [q.id for q in summary.missed] == [order[0]]
    assert summary.ratings[Rating.Again] == 1 and summary.left == 0
    again = summary.review_missed()
    assert again.describe() == "the 1 question missed just now"
    redo = PracticeSession(fixture_bank, store, again, clock=clock, seed=1)
    assert [item.question.id for item in redo.items] == [order[0]]


def test_a_session_ended_early_says_how_many_were_left(fixture_bank, practice_session):
    practice = practice_session(fixture_bank, FrozenClock(START))
    practice.reveal()
    practice.rate(Rating.Good)
    practice.end()
    summary = summarize(practice)
    assert (summary.questions, summary.left, summary.review_missed()) == (1, 3, None)
