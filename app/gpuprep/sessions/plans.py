"""Prep plans as the user follows them: which day is today, the session that day asks for, and
the whole plan laid out on the calendar with today's items merged with the reviews that are due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from fsrs import Card

from gpuprep.sessions.practice import LEVEL_ORDER, PracticeFilter
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.plan import Plan, PlanDay, PlanItem
    from gpuprep.bank.question import Question
    from gpuprep.store.records import Attempt, DrillResult


@dataclass(frozen=True)
class PlanToday:
    """Where the user is in a started plan."""

    plan: Plan
    day_number: int
    """1-based day of the plan; past the last day the plan is finished."""
    day: PlanDay | None
    """Today's day, or None when the plan is finished."""

    @property
    def finished(self) -> bool:
        return self.day is None

    def describe(self) -> str:
        if self.day is None:
            return f"{self.plan.title}: finished ({len(self.plan.days)} days)"
        return (
            f"Day {self.day_number} of {len(self.plan.days)}, {self.plan.title}: {self.day.title}"
        )


def plan_today(plan: Plan, started_at: datetime, now: datetime) -> PlanToday:
    """Day 1 is the (UTC) day the plan was started; each calendar day after is the next."""
    number = (now.date() - started_at.date()).days + 1
    days = {day.day: day for day in plan.days}
    last = max(days)
    if number > last:
        return PlanToday(plan, number, None)
    # A plan may skip day numbers (rest days); a missing day shows the next one due.
    upcoming = min((d for d in days if d >= number), default=last)
    return PlanToday(plan, number, days[upcoming])


def item_questions(
    bank: Bank, day: PlanDay, cards: dict[str, Card], now: datetime
) -> list[tuple[PlanItem, tuple[str, ...]]]:
    """Each item of a day with the questions it asks for (see :func:`day_questions`); a question
    already asked by an earlier item of the day is not asked again."""
    chosen: list[str] = []
    resolved = []
    for item in day.items:
        if item.question is not None:
            picks = [item.question] if item.question in bank.questions else []
        elif item.drill is not None:
            picks = [q.id for q in bank.questions.values() if q.drill == item.drill]
        else:
            candidates = [
                q for q in bank.questions.values() if q.topic == item.topic and q.id not in chosen
            ]

            def order(question: Question, cards: dict[str, Card] = cards) -> tuple[int, float, int]:
                card = cards.get(question.id)
                if card is not None and card.due <= now:
                    return (0, card.due.timestamp(), 0)
                if card is None:
                    return (1, 0.0, LEVEL_ORDER.get(question.level, 9))
                return (2, card.due.timestamp(), 0)

            picks = [q.id for q in sorted(candidates, key=order)[: item.count]]
        fresh = tuple(p for p in picks if p not in chosen)
        chosen += fresh
        resolved.append((item, fresh))
    return resolved


def day_questions(
    bank: Bank, day: PlanDay, cards: dict[str, Card], now: datetime
) -> tuple[str, ...]:
    """The questions a day asks for: per topic item, due ones first, then new (easiest first),
    then the rest; a question item as named; a drill item as the coding questions on it."""
    return tuple(qid for _, picks in item_questions(bank, day, cards, now) for qid in picks)


def plan_session_filter(
    bank: Bank, today: PlanToday, cards: dict[str, Card], now: datetime
) -> PracticeFilter | None:
    """The practice filter for today's day of a plan, or None when the plan is finished."""
    if today.day is None:
        return None
    questions = day_questions(bank, today.day, cards, now)
    return PracticeFilter(questions=questions, label=today.describe())


# --- Today on the home screen: what is done, what is left, what to do next --------------------


@dataclass(frozen=True)
class TodayItem:
    """One item of today's day of a plan, with how much of it was practised today."""

    label: str
    """'roofline: 6 questions', 'question kernel-coding-softmax', 'drill softmax'."""
    note: str
    done: int
    """Questions of the item practised today (for a drill: 1 once submitted today)."""
    target: int
    left: tuple[str, ...]
    """The questions still to practise for it, in the order the plan would ask them."""

    @property
    def finished(self) -> bool:
        return self.done >= self.target


def today_items(
    bank: Bank,
    today: PlanToday,
    cards: dict[str, Card],
    practised_today: set[str],
    drills_today: set[str],
    now: datetime,
) -> tuple[TodayItem, ...]:
    """Today's items with what is done: a topic item counts the distinct questions of its topic
    practised today (up to its count), a question item its question, a drill item a submission
    of the drill (or an attempt at its coding question) today. `practised_today` holds the ids
    of questions attempted today, `drills_today` the drills submitted today."""
    if today.day is None:
        return ()
    items = []
    for item in today.day.items:
        if item.topic is not None:
            done_ids = {
                qid
                for qid in practised_today
                if qid in bank.questions and bank.questions[qid].topic == item.topic
            }
            done = min(item.count, len(done_ids))
            # Ask for as many more as were done, so that dropping the done ones leaves the rest.
            wider = today.day.model_copy(
                update={"items": [item.model_copy(update={"count": item.count + len(done_ids)})]}
            )
            picks = [q for q in day_questions(bank, wider, cards, now) if q not in done_ids]
            left = tuple(picks[: item.count - done])
            label = f"{bank.topics[item.topic].title if item.topic in bank.topics else item.topic}: {counted(item.count, 'question')}"
            items.append(TodayItem(label, item.note, done, item.count, left))
        elif item.question is not None:
            done = int(item.question in practised_today)
            left = () if done or item.question not in bank.questions else (item.question,)
            items.append(TodayItem(f"question {item.question}", item.note, done, 1, left))
        else:
            coding = tuple(q.id for q in bank.questions.values() if q.drill == item.drill)
            done = int(item.drill in drills_today or any(q in practised_today for q in coding))
            items.append(
                TodayItem(f"drill {item.drill}", item.note, done, 1, () if done else coding)
            )
    return tuple(items)


def plan_suggestion(today: PlanToday, items: tuple[TodayItem, ...]) -> PracticeFilter | None:
    """The session Home suggests while a plan runs: what is left of today, or None when today
    is done (or the plan is finished), so the usual suggestion takes over."""
    left = tuple(dict.fromkeys(qid for item in items for qid in item.left))
    if today.day is None or not left:
        return None
    open_items = sum(1 for item in items if not item.finished)
    return PracticeFilter(
        questions=left,
        label=f"{today.describe()} ({counted(open_items, 'item')} left)",
    )


@dataclass(frozen=True)
class PlanOnHome:
    """The running plan as the home screen shows it."""

    today: PlanToday
    items: tuple[TodayItem, ...]
    suggestion: PracticeFilter | None
    """What is left of today, None when today is done or the plan is finished."""


def plan_on_home(
    bank: Bank,
    plan_runs: dict[str, datetime],
    cards: dict[str, Card],
    attempts: list[Attempt],
    drill_results: list[DrillResult],
    now: datetime,
) -> PlanOnHome | None:
    """The most recently started plan that the bank has, today's items ticked from what was
    practised since the start of today (UTC), and what to do next; None without a plan."""
    for plan_id, started_at in plan_runs.items():
        plan = bank.plans.get(plan_id)
        if plan is None:
            continue
        today = plan_today(plan, started_at, now)
        practised = {a.question_id for a in attempts if a.started_at.date() == now.date()}
        drilled = {r.drill_id for r in drill_results if r.submitted_at.date() == now.date()}
        items = today_items(bank, today, cards, practised, drilled, now)
        return PlanOnHome(today, items, plan_suggestion(today, items))
    return None


def fundamentals_order(bank: Bank) -> tuple[str, ...]:
    """Topics from the fundamentals up: in the order the bank's longest plan first reaches them
    (the plans are the curated path: roofline and the memory hierarchy before the rest), then
    any topic no plan names, by id."""
    order: list[str] = []
    longest = sorted(bank.plans.values(), key=lambda plan: -max(day.day for day in plan.days))
    for plan in longest[:1]:
        for day in sorted(plan.days, key=lambda day: day.day):
            for item in day.items:
                if item.topic in bank.topics and item.topic not in order:
                    order.append(item.topic)
    return tuple(order + sorted(t for t in bank.topics if t not in order))


# --- The plan on the calendar (`gpuprep plan`) ----------------------------------------------


def end_of_day(day: date) -> datetime:
    """Midnight (UTC) at the end of `day`: a card due before it is due that day."""
    return datetime.combine(day + timedelta(days=1), time.min, UTC)


def due_question_ids(bank: Bank, cards: dict[str, Card], now: datetime) -> tuple[str, ...]:
    """The bank's questions whose card is due by the end of now's (UTC) day, most overdue first.

    The same rule as the home screen's "Due today" (`sessions.stats.progress`).
    """
    deadline = end_of_day(now.date())
    due = [
        (card.due, qid)
        for qid, card in cards.items()
        if qid in bank.questions and card.due < deadline
    ]
    return tuple(qid for _, qid in sorted(due))


def plans_of_length(bank: Bank, days: int) -> list[Plan]:
    """The bank's plans whose last day is day `days`, in bank order."""
    return [plan for plan in bank.plans.values() if max(day.day for day in plan.days) == days]


def plan_lengths(bank: Bank) -> list[int]:
    """Every plan length the bank offers, shortest first."""
    return sorted({max(day.day for day in plan.days) for plan in bank.plans.values()})


def plan_start(plan: Plan, plan_runs: dict[str, datetime], now: datetime) -> date:
    """The day a plan's day 1 falls on: when the user started it, else today."""
    started = plan_runs.get(plan.id)
    return started.date() if started is not None else now.date()


@dataclass(frozen=True)
class ScheduledItem:
    """One thing to do on one day: a review of due cards, or one item of the plan."""

    kind: str
    """review | topic | question | drill."""
    target: str | None
    """The topic, question or drill id (None for a review)."""
    note: str
    """Why this item (the plan's note, or what the review is)."""
    question_ids: tuple[str, ...]
    """The questions it asks for, as of that day (due ones first)."""
    count: int | None = None
    """For a topic item: how many questions the plan asks for."""

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {"kind": self.kind}
        if self.target is not None:
            document[self.kind] = self.target
        if self.count is not None:
            document["count"] = self.count
        document["note"] = self.note
        document["question_ids"] = list(self.question_ids)
        return document


@dataclass(frozen=True)
class ScheduledDay:
    """One calendar day of a plan."""

    day: int
    """1-based day number."""
    date: date
    title: str
    items: tuple[ScheduledItem, ...]
    """Never empty: a day the plan leaves free is a review day."""
    is_today: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "date": self.date.isoformat(),
            "title": self.title,
            "today": self.is_today,
            "items": [item.to_json() for item in self.items],
        }


@dataclass(frozen=True)
class PlanSchedule:
    """A plan laid out from its start date, one entry per day."""

    plan: Plan
    start: date
    days: tuple[ScheduledDay, ...]
    due_today: tuple[str, ...]
    """Questions due for review today (whether or not today is a day of the plan)."""

    @property
    def today(self) -> ScheduledDay | None:
        return next((day for day in self.days if day.is_today), None)

    def to_json(self) -> dict[str, Any]:
        today = self.today
        return {
            "plan": self.plan.id,
            "title": self.plan.title,
            "start": self.start.isoformat(),
            "today": today.day if today is not None else None,
            "due_today": len(self.due_today),
            "days": [day.to_json() for day in self.days],
        }


def _review_item(question_ids: tuple[str, ...], note: str) -> ScheduledItem:
    return ScheduledItem("review", None, note, question_ids)


def schedule(
    bank: Bank, plan: Plan, start: date, cards: dict[str, Card], now: datetime
) -> PlanSchedule:
    """Lay `plan` out from `start`: every day from 1 to its last, dated, none empty.

    Each day's questions are chosen as of the end of that day (cards due by then first). On
    today's date, the cards due today that the day's items do not already ask for come first,
    as a review item; a day the plan leaves free is a review day.
    """
    by_number = {day.day: day for day in plan.days}
    due_today = due_question_ids(bank, cards, now)
    days = []
    for number in range(1, max(by_number) + 1):
        on = start + timedelta(days=number - 1)
        is_today = on == now.date()
        plan_day = by_number.get(number)
        items: list[ScheduledItem] = []
        asked: set[str] = set()
        if plan_day is not None:
            for item, picks in item_questions(bank, plan_day, cards, end_of_day(on)):
                kind = "topic" if item.topic else "question" if item.question else "drill"
                target = item.topic or item.question or item.drill
                count = item.count if item.topic else None
                items.append(ScheduledItem(kind, target, item.note, picks, count))
                asked.update(picks)
        if is_today:
            others = tuple(qid for qid in due_today if qid not in asked)
            if others:
                items.insert(
                    0, _review_item(others, f"{counted(len(others), 'card')} due for review today")
                )
        if not items:
            due = (
                due_today
                if is_today
                else due_question_ids(bank, cards, datetime.combine(on, time.min, UTC))
            )
            note = (
                "Rest day: review what is due"
                if due
                else "Rest day: nothing due; revisit your weakest topic"
            )
            items.append(_review_item(due, note))
        title = plan_day.title if plan_day is not None else "Rest and review"
        days.append(ScheduledDay(number, on, title, tuple(items), is_today))
    return PlanSchedule(plan, start, tuple(days), due_today)
