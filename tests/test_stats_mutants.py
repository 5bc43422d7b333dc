"""The figures Home and Stats show, pinned at their edges: what counts as a success, the streak,
the weakest topics and the suggestion's order and wording.

Written to kill the mutants `./dev mutate sessions.stats` found alive (issue 19).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Card, State

from gpuprep.bank.loader import load_bank
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.stats import Progress, TopicProgress, progress, streak, succeeded, suggest
from gpuprep.store.records import Attempt

MONDAY = NOW = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)
FIXTURE_BANK = Path(__file__).parent / "fixtures" / "bank_ok"


def _attempt(verdict: str, rating: int | None = None, *, from_table: bool = False) -> Attempt:
    return Attempt("q", "concept", verdict, MONDAY, 30.0, rating=rating, from_table=from_table)


@pytest.mark.parametrize(
    ("verdict", "rating", "from_table", "success"),
    [
        ("correct", None, False, True),
        ("close", None, False, False),
        ("wrong", None, False, False),
        ("invalid", None, False, None),
        ("invalid", 3, False, None),
        ("correct", None, True, None),
        ("wrong", 4, False, False),
        ("Again", 1, False, False),
        ("Hard", 2, False, False),
        ("Good", 3, False, True),
        ("Easy", 4, False, True),
        ("skipped", None, False, None),
    ],
)
def test_a_success_is_a_correct_estimate_or_a_good_or_easy_self_rating(
    verdict: str, rating: int | None, from_table: bool, success: bool | None
) -> None:
    assert succeeded(_attempt(verdict, rating, from_table=from_table)) is success


def _topic(topic: str, *, questions: int = 4, seen: int = 0, attempts: int = 0, successes: int = 0):
    return TopicProgress(topic, topic.title(), questions, seen, 0, attempts, successes, 60.0)


def test_a_topic_s_accuracy_and_mean_time_are_per_judged_attempt_and_none_before_any() -> None:
    tried = _topic("memory", attempts=4, successes=3)
    assert tried.accuracy == 0.75
    assert tried.mean_seconds == 15.0
    assert _topic("memory").accuracy is None
    assert _topic("memory").mean_seconds is None


def _figures(*topics: TopicProgress, learn: int = 0, review: int = 0) -> Progress:
    return Progress(learn, review, 0, 0, list(topics), [], None)


def test_the_weakest_topics_are_the_least_accurate_tried_twice_more_attempts_first_on_a_tie():
    figures = _figures(
        _topic("once", attempts=1, successes=0),
        _topic("good", attempts=4, successes=4),
        _topic("poor", attempts=2, successes=0),
        _topic("poorer-but-more", attempts=5, successes=0),
        _topic("middling", attempts=4, successes=2),
        _topic("twice", attempts=2, successes=1),
    )
    assert [t.topic for t in figures.weakest()] == ["poorer-but-more", "poor", "middling"]
    assert [t.topic for t in figures.weakest(count=1)] == ["poorer-but-more"]
    assert "once" in [t.topic for t in figures.weakest(count=6, min_attempts=1)]


def test_due_today_is_learning_steps_plus_reviews() -> None:
    assert _figures(learn=2, review=3).due_today == 5


@pytest.mark.parametrize(
    ("days", "streak_days"),
    [
        ({date(2026, 3, 9), date(2026, 3, 8), date(2026, 3, 7)}, 3),
        ({date(2026, 3, 8), date(2026, 3, 7)}, 2),
        ({date(2026, 3, 9), date(2026, 3, 7)}, 1),
        ({date(2026, 3, 7)}, 0),
        (set(), 0),
    ],
)
def test_the_streak_counts_back_from_today_or_from_yesterday_if_today_is_not_done(
    days: set[date], streak_days: int
) -> None:
    assert streak(days, date(2026, 3, 9)) == streak_days


def test_due_cards_are_suggested_first_with_their_count() -> None:
    suggestion = suggest(_figures(_topic("memory"), learn=1))
    assert suggestion is not None
    assert suggestion.filter == PracticeFilter(due_only=True)
    assert suggestion.reason == "1 card due today"
    assert suggest(_figures(review=3)).reason == "3 cards due today"  # type: ignore[union-attr]


def test_the_weakest_open_topic_comes_before_the_fundamentals() -> None:
    figures = _figures(
        _topic("basics", seen=0),
        _topic("shaky", seen=2, attempts=2, successes=0),
        _topic("done", questions=2, seen=2, attempts=2, successes=0),
    )
    suggestion = suggest(figures, ("basics",))
    assert suggestion is not None
    assert suggestion.filter == PracticeFilter(topic="shaky")
    assert suggestion.reason == "new questions in your weakest topic, Shaky"


def test_then_the_first_fundamental_topic_with_new_questions() -> None:
    figures = _figures(
        _topic("advanced", seen=0), _topic("basics", seen=1), _topic("done", questions=2, seen=2)
    )
    suggestion = suggest(figures, ("done", "basics", "advanced"))
    assert suggestion is not None
    assert suggestion.filter == PracticeFilter(topic="basics")
    assert suggestion.reason == "fundamentals first: 3 new in Basics"


def test_else_the_least_seen_topic_by_share_then_name_and_none_when_all_are_seen() -> None:
    figures = _figures(
        _topic("big", questions=10, seen=1),
        _topic("small", questions=2, seen=1),
        _topic("done", questions=2, seen=2),
    )
    suggestion = suggest(figures)
    assert suggestion is not None
    assert suggestion.filter == PracticeFilter(topic="big")
    assert suggestion.reason == "9 new in Big"
    tie = _figures(_topic("small", questions=2), _topic("also-small", questions=4))
    assert suggest(tie).filter == PracticeFilter(topic="also-small")  # type: ignore[union-attr]
    assert suggest(_figures(_topic("done", questions=2, seen=2))) is None


@pytest.fixture(scope="module")
def bank():
    loaded, problems = load_bank([FIXTURE_BANK], builtin=False)
    assert problems == []
    return loaded


def test_progress_counts_seen_due_judged_attempts_and_time_per_topic(bank) -> None:
    cards = {
        "basics-bandwidth": Card(card_id=1, state=State.Review, due=NOW - timedelta(hours=1)),
        "basics-warp": Card(card_id=2, state=State.Learning, step=0, due=NOW),
    }
    attempts = [
        Attempt("basics-bandwidth", "estimation", "correct", NOW - timedelta(days=1), 40.0),
        Attempt("basics-bandwidth", "estimation", "invalid", NOW, 5.0),
        Attempt("a-question-since-deleted", "concept", "Good", NOW, 9.0, rating=3),
    ]
    figures = progress(bank, cards, attempts, NOW, days=3)
    (basics,) = figures.topics
    assert (basics.topic, basics.title, basics.questions) == ("basics", "Basics", 2)
    assert (basics.seen, basics.due) == (2, 2)
    assert (basics.attempts, basics.successes, basics.seconds) == (1, 1, 40.0)
    assert (figures.learn, figures.review, figures.new) == (1, 1, 0)
    # The chart counts what the table counts: not the invalid try, nor the deleted question.
    assert figures.attempts_per_day == [
        (date(2026, 3, 7), 0),
        (date(2026, 3, 8), 1),
        (date(2026, 3, 9), 0),
    ]
    assert figures.streak_days == 2, "a day of retyped answers is still a day of practice"


def test_a_question_seen_only_in_the_history_or_only_as_a_card_counts_as_seen(bank) -> None:
    cards = {"basics-warp": Card(card_id=2, state=State.Review, due=NOW + timedelta(days=9))}
    attempts = [Attempt("basics-bandwidth", "estimation", "wrong", NOW, 30.0)]
    (basics,) = progress(bank, cards, attempts, NOW).topics
    assert (basics.seen, basics.due) == (2, 0)


def test_progress_shows_thirty_days_ending_today_and_honours_the_new_card_cap(bank) -> None:
    figures = progress(bank, {}, [], NOW)
    assert len(figures.attempts_per_day) == 30
    assert figures.attempts_per_day[-1] == (NOW.date(), 0)
    assert figures.new == 2
    assert progress(bank, {}, [], NOW, new_left=1).new == 1
