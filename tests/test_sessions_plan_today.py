"""A running plan on the home screen: today's items are ticked as they are practised, the
suggestion is what is left of today, and without a plan the fundamentals come first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gpuprep.bank.plan import Plan, PlanDay, PlanItem
from gpuprep.sessions.plans import PlanToday, fundamentals_order, plan_on_home, today_items
from gpuprep.sessions.stats import progress
from gpuprep.store.records import Attempt, DrillResult

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)


def attempt(question_id: str, at: datetime) -> Attempt:
    return Attempt(question_id, "concept", "rated", at, 30.0, rating=3)


def on_home(builtin_bank, attempts=(), drills=(), started=NOW - timedelta(hours=2)):
    return plan_on_home(
        builtin_bank, {"three-days": started}, {}, list(attempts), list(drills), NOW
    )


def test_a_plan_started_today_shows_day_one_with_nothing_done_and_suggests_it(builtin_bank):
    home = on_home(builtin_bank)
    plan = builtin_bank.plans["three-days"]
    assert home.today.day_number == 1
    assert [(item.done, item.target) for item in home.items] == [
        (0, item.count) for item in plan.days[0].items
    ]
    roofline = home.items[0]
    assert roofline.label == f"{builtin_bank.topics['roofline'].title}: 6 questions"
    assert len(roofline.left) == 6
    assert all(builtin_bank.questions[q].topic == "roofline" for q in roofline.left)
    assert home.suggestion is not None and set(roofline.left) <= set(home.suggestion.questions)
    assert home.suggestion.label.endswith("(3 items left)")


def test_questions_practised_today_tick_their_item_and_leave_the_rest_to_do(builtin_bank):
    first = on_home(builtin_bank)
    done_now = first.items[0].left[:2]
    yesterday = first.items[0].left[2]
    attempts = [attempt(q, NOW - timedelta(minutes=30)) for q in done_now]
    attempts.append(attempt(yesterday, NOW - timedelta(days=1)))
    home = on_home(builtin_bank, attempts, started=NOW - timedelta(days=1) + timedelta(hours=1))
    # Started yesterday: today is day 2; restart the plan today to look at day 1 again.
    assert home.today.day_number == 2
    home = on_home(builtin_bank, attempts)
    roofline = home.items[0]
    assert (roofline.done, roofline.target) == (2, 6)
    assert len(roofline.left) == 4 and not set(done_now) & set(roofline.left)
    assert not set(done_now) & set(home.suggestion.questions)


def test_when_every_item_of_today_is_done_the_plan_suggests_nothing(builtin_bank):
    home = on_home(builtin_bank)
    everything = [q for item in home.items for q in item.left]
    home = on_home(builtin_bank, [attempt(q, NOW - timedelta(minutes=5)) for q in everything])
    assert all(item.finished for item in home.items)
    assert home.suggestion is None


def test_a_drill_item_is_done_by_a_submission_of_the_drill_today(builtin_bank):
    day_two = NOW - timedelta(days=1)
    home = on_home(builtin_bank, started=day_two)
    (softmax,) = [item for item in home.items if item.label == "question kernel-coding-softmax"]
    assert not softmax.finished
    home = on_home(builtin_bank, [attempt("kernel-coding-softmax", NOW)], started=day_two)
    (softmax,) = [item for item in home.items if item.label == "question kernel-coding-softmax"]
    assert softmax.finished
    day = PlanDay(day=1, title="Kernels", items=[PlanItem(drill="softmax")])
    today = PlanToday(builtin_bank.plans["three-days"], 1, day)
    submitted = DrillResult("softmax", "triton", NOW - timedelta(minutes=1), True)
    (item,) = today_items(builtin_bank, today, {}, set(), {submitted.drill_id}, NOW)
    assert item.label == "drill softmax" and item.finished
    (item,) = today_items(builtin_bank, today, {}, set(), set(), NOW)
    assert not item.finished and "kernel-coding-softmax" in item.left


def test_home_ticks_a_drill_item_from_the_drill_results_of_today(builtin_bank, monkeypatch):
    plan = Plan(
        id="fx-drill",
        title="Drills",
        days=[PlanDay(day=1, title="Softmax", items=[PlanItem(drill="softmax")])],
    )
    monkeypatch.setitem(builtin_bank.plans, plan.id, plan)
    runs = {plan.id: NOW - timedelta(hours=1)}
    yesterday = DrillResult("softmax", "triton", NOW - timedelta(days=1), True)
    today = DrillResult("softmax", "triton", NOW - timedelta(minutes=1), True)
    (item,) = plan_on_home(builtin_bank, runs, {}, [], [yesterday], NOW).items
    assert not item.finished
    home = plan_on_home(builtin_bank, runs, {}, [], [yesterday, today], NOW)
    assert home.items[0].finished and home.suggestion is None


def test_without_a_plan_or_history_the_fundamentals_come_first(builtin_bank):
    assert fundamentals_order(builtin_bank)[:2] == ("roofline", "memory-hierarchy")
    assert set(fundamentals_order(builtin_bank)) == set(builtin_bank.topics)
    figures = progress(builtin_bank, {}, [], NOW)
    assert figures.suggestion.filter.topic == "roofline"
    assert figures.suggestion.reason.startswith("fundamentals first")
