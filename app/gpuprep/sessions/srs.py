"""Spaced repetition with FSRS: one card per question, four ratings previewed before the user picks.

The outcome of every rating is computed up front from the same card and moment, so the interval
shown on a button is exactly the one saved when the user presses it (fuzzing included).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING

from fsrs import Card, Rating, ReviewLog, Scheduler, State

if TYPE_CHECKING:
    from gpuprep.estimate.grading import Grade

RATINGS: tuple[Rating, ...] = (Rating.Again, Rating.Hard, Rating.Good, Rating.Easy)

#: The rating an estimation verdict suggests; the user may still pick another.
SUGGESTED_RATING: dict[str, Rating] = {
    "correct": Rating.Good,
    "close": Rating.Hard,
    "wrong": Rating.Again,
    "invalid": Rating.Again,
}


def suggested_rating(grade: Grade) -> Rating | None:
    """The rating a grade suggests. A correct answer read from the hardware table (closed book)
    is a pass without a lapse, but Hard: the figure it looked up is the one to learn."""
    if grade.from_table and grade.verdict == "correct":
        return Rating.Hard
    return SUGGESTED_RATING.get(grade.verdict)


def with_retention(scheduler: Scheduler, desired_retention: float) -> Scheduler:
    """The same scheduler (weights, steps, fuzzing) aiming at another recall probability."""
    return Scheduler.from_dict({**scheduler.to_dict(), "desired_retention": desired_retention})


def start_of_day(now: datetime) -> datetime:
    """Midnight (UTC) at the start of now's day: the day a card is due on, a new card counted in."""
    return datetime.combine(now.astimezone(UTC).date(), time.min, UTC)


def in_learning(card: Card) -> bool:
    """The card is at a learning step (new, or relearning after Again): due again in minutes."""
    return card.state in (State.Learning, State.Relearning)


def due_today(card: Card, now: datetime) -> bool:
    """Due before the end of now's (UTC) day, as a flashcard app counts its day.

    A review due at 18:00 is today's work at 09:00, and a card at a learning step comes back
    early rather than make the user wait minutes for it.
    """
    return card.due < start_of_day(now) + timedelta(days=1)


def card_id_for(question_id: str) -> int:
    """A stable card id from the question id (53 bits, so it survives JSON and SQLite)."""
    digest = hashlib.blake2b(question_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 11


def new_card(question_id: str, now: datetime) -> Card:
    """The card of a question never reviewed: due now."""
    return Card(card_id=card_id_for(question_id), due=now)


@dataclass(frozen=True)
class Outcome:
    """What one rating would do: the card after it, its review log, and the wait until it is due."""

    rating: Rating
    card: Card
    log: ReviewLog
    interval: timedelta


def outcomes(
    scheduler: Scheduler, card: Card, now: datetime, duration_ms: int | None = None
) -> dict[Rating, Outcome]:
    """The result of each of the four ratings, given at `now`."""
    result = {}
    for rating in RATINGS:
        reviewed, log = scheduler.review_card(card, rating, now, duration_ms)
        result[rating] = Outcome(rating, reviewed, log, reviewed.due - now)
    return result


def format_interval(interval: timedelta) -> str:
    """'<1m', '10m', '5h', '3d', '2.5mo', '1.2y': how long until the card is due again."""
    seconds = interval.total_seconds()
    if seconds < 60:
        return "<1m"
    if seconds < 3600:
        return f"{round(seconds / 60)}m"
    if seconds < 86400:
        return f"{round(seconds / 3600)}h"
    days = seconds / 86400
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo".replace(".0mo", "mo")
    return f"{days / 365:.1f}y".replace(".0y", "y")
