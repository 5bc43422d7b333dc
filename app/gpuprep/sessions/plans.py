"""Prep plans as the user follows them: which day is today, and the session that day asks for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from fsrs import Card

from gpuprep.sessions.practice import LEVEL_ORDER, PracticeFilter

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.bank.plan import Plan, PlanDay


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


def day_questions(
    bank: Bank, day: PlanDay, cards: dict[str, Card], now: datetime
) -> tuple[str, ...]:
    """The questions a day asks for: per topic item, due ones first, then new (easiest first),
    then the rest; a question item as named; a drill item as the coding questions on it."""
    chosen: list[str] = []
    for item in day.items:
        if item.question is not None:
            picks = [item.question] if item.question in bank.questions else []
        elif item.drill is not None:
            picks = [q.id for q in bank.questions.values() if q.drill == item.drill]
        else:
            candidates = [
                q for q in bank.questions.values() if q.topic == item.topic and q.id not in chosen
            ]

            def order(question, cards=cards):  # noqa: ANN001, ANN202
                card = cards.get(question.id)
                if card is not None and card.due <= now:
                    return (0, card.due.timestamp(), 0)
                if card is None:
                    return (1, 0.0, LEVEL_ORDER.get(question.level, 9))
                return (2, card.due.timestamp(), 0)

            picks = [q.id for q in sorted(candidates, key=order)[: item.count]]
        chosen += [p for p in picks if p not in chosen]
    return tuple(chosen)


def plan_session_filter(
    bank: Bank, today: PlanToday, cards: dict[str, Card], now: datetime
) -> PracticeFilter | None:
    """The practice filter for today's day of a plan, or None when the plan is finished."""
    if today.day is None:
        return None
    questions = day_questions(bank, today.day, cards, now)
    return PracticeFilter(questions=questions, label=today.describe())
