"""Progress figures for the home and stats screens, computed from the bank and the store."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from fsrs import Card

from gpuprep.sessions.plans import fundamentals_order
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.queues import todays_cards
from gpuprep.store.records import Attempt
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank


def succeeded(attempt: Attempt) -> bool | None:
    """Whether an attempt went well: a correct estimate, or a Good/Easy self-rating; None if unknown.

    An invalid answer (a typo, or a figure in the wrong kind of unit) was not judged: the app
    lets the user try again, so it counts neither for nor against accuracy; nor does a
    closed-book answer that read the hardware table (`sessions.slips` counts those).
    """
    if attempt.verdict == "invalid" or attempt.from_table:
        # A figure read from the hardware table is counted apart (Stats), not as recall.
        return None
    if attempt.verdict in ("correct", "close", "wrong"):
        return attempt.verdict == "correct"
    if attempt.rating is not None:
        return attempt.rating >= 3
    return None


def counts_as_attempt(attempt: Attempt, bank: Bank) -> bool:
    """What Stats calls an attempt, in the chart of attempts per day and in the topics' table
    alike: a judged answer (`succeeded` is not None: correct, close or wrong, or a self-rating)
    to a question of a topic of the bank.

    Not counted: an invalid answer (a typo the app let the user retype), a closed-book answer
    read from the hardware table (counted apart, as a slip), and a question no longer in the
    bank (it has no topic row to count it in).
    """
    return _topic_of(attempt, bank) is not None and succeeded(attempt) is not None


def _topic_of(attempt: Attempt, bank: Bank) -> str | None:
    """The bank's topic of the attempt's question (None: the question or its topic is gone)."""
    question = bank.questions.get(attempt.question_id)
    if question is None or question.topic not in bank.topics:
        return None
    return question.topic


@dataclass(frozen=True)
class TopicProgress:
    """How far the user is through one topic."""

    topic: str
    title: str
    questions: int
    seen: int
    due: int
    attempts: int
    successes: int
    seconds: float

    @property
    def accuracy(self) -> float | None:
        return self.successes / self.attempts if self.attempts else None

    @property
    def mean_seconds(self) -> float | None:
        return self.seconds / self.attempts if self.attempts else None


@dataclass(frozen=True)
class Suggestion:
    """The session the home screen suggests next, and why."""

    filter: PracticeFilter
    reason: str


@dataclass(frozen=True)
class Progress:
    """Everything the home and stats screens show."""

    learn: int
    """Cards at a learning step due today (what `d` reviews with the reviews)."""
    review: int
    """Review cards due today."""
    new: int
    """New questions today's cap still allows (all unseen ones when there is no cap)."""
    streak_days: int
    topics: list[TopicProgress]
    attempts_per_day: list[tuple[date, int]]
    """Attempts each day, oldest first, ending today: those `counts_as_attempt` counts, as in
    `topics`, so the chart and the table add up to the same number."""
    suggestion: Suggestion | None
    read_from_table: int = 0
    """Closed-book estimates of the chart's days that read a figure from the hardware table:
    not attempts (`counts_as_attempt`), so the chart leaves them out, and says how many."""

    @property
    def due_today(self) -> int:
        """Learning steps and reviews due today: the session `d` opens holds exactly these."""
        return self.learn + self.review

    def weakest(self, count: int = 3, min_attempts: int = 2) -> list[TopicProgress]:
        """Topics with the lowest accuracy among those tried at least `min_attempts` times."""
        tried = [t for t in self.topics if t.attempts >= min_attempts]
        return sorted(tried, key=lambda t: (t.accuracy or 0.0, -t.attempts))[:count]


def streak(attempt_days: set[date], today: date) -> int:
    """Consecutive days with practice, ending today (or yesterday, if today is not done yet)."""
    day = today if today in attempt_days else today - timedelta(days=1)
    count = 0
    while day in attempt_days:
        count += 1
        day -= timedelta(days=1)
    return count


def progress(
    bank: Bank,
    cards: dict[str, Card],
    attempts: list[Attempt],
    now: datetime,
    *,
    days: int = 30,
    new_left: int | None = None,
) -> Progress:
    """Compute the progress figures at `now` (UTC days); `new_left` is what the daily cap of new
    questions still allows (`queues.new_cards_left`), None for no cap."""
    today = todays_cards(bank.questions.values(), cards, now, new_left=new_left)
    due_ids = {q.id for q in today.due}
    seen = {a.question_id for a in attempts} | set(cards)
    counted: list[Attempt] = []
    by_topic: dict[str, list[Attempt]] = defaultdict(list)
    for attempt in attempts:
        topic_id = _topic_of(attempt, bank)
        if topic_id is not None and counts_as_attempt(attempt, bank):
            counted.append(attempt)
            by_topic[topic_id].append(attempt)
    topics = []
    for topic_id, topic in bank.topics.items():
        ids = [q.id for q in bank.questions_in(topic_id)]
        judged_attempts = by_topic.get(topic_id, [])
        judged = [bool(succeeded(a)) for a in judged_attempts]
        topics.append(
            TopicProgress(
                topic=topic_id,
                title=topic.title,
                questions=len(ids),
                seen=sum(1 for q in ids if q in seen),
                due=sum(1 for q in ids if q in due_ids),
                attempts=len(judged),
                successes=sum(judged),
                seconds=sum(a.seconds_taken for a in judged_attempts),
            )
        )
    per_day = Counter(a.started_at.date() for a in counted)
    # A streak counts days of practice: a day of retyped answers was still a day of practice.
    practised = {a.started_at.date() for a in attempts}
    first = now.date() - timedelta(days=days - 1)
    series = [
        (first + timedelta(days=i), per_day.get(first + timedelta(days=i), 0)) for i in range(days)
    ]
    result = Progress(
        today.learn,
        today.review,
        len(today.new),
        streak(practised, now.date()),
        topics,
        series,
        None,
        read_from_table=sum(
            1
            for a in attempts
            if a.from_table
            and _topic_of(a, bank) is not None
            and first <= a.started_at.date() <= now.date()
        ),
    )
    return replace(result, suggestion=suggest(result, fundamentals_order(bank)))


def suggest(figures: Progress, order: tuple[str, ...] = ()) -> Suggestion | None:
    """Due reviews first; else new questions of the weakest topic; else the fundamentals first:
    the first topic in `order` (see `plans.fundamentals_order`) with new questions, else the
    least-seen topic."""
    if figures.due_today:
        return Suggestion(
            PracticeFilter(due_only=True), f"{counted(figures.due_today, 'card')} due today"
        )
    open_topics = [t for t in figures.topics if t.seen < t.questions]
    for weak in figures.weakest():
        if weak in open_topics:
            return Suggestion(
                PracticeFilter(topic=weak.topic),
                f"new questions in your weakest topic, {weak.title}",
            )
    for topic_id in order:
        fundamental = next((t for t in open_topics if t.topic == topic_id), None)
        if fundamental is not None:
            return Suggestion(
                PracticeFilter(topic=fundamental.topic),
                f"fundamentals first: {fundamental.questions - fundamental.seen} new in {fundamental.title}",
            )
    if open_topics:
        least = min(open_topics, key=lambda t: (t.seen / t.questions, t.topic))
        return Suggestion(
            PracticeFilter(topic=least.topic),
            f"{least.questions - least.seen} new in {least.title}",
        )
    return None
