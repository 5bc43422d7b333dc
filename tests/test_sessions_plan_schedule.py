"""A prep plan on the calendar (`gpuprep plan`): one dated entry per day, none empty, and today's
items merged with the reviews due, counted as the home screen counts them."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from fsrs import Card

from gpuprep.bank.plan import Plan
from gpuprep.sessions.plans import (
    due_question_ids,
    plan_lengths,
    plan_start,
    plans_of_length,
    schedule,
)
from gpuprep.sessions.stats import progress

NOW = datetime(2026, 12, 2, 15, 0, tzinfo=UTC)


def test_every_built_in_length_lays_out_one_dated_non_empty_entry_per_day(builtin_bank):
    assert plan_lengths(builtin_bank) == [3, 7, 14, 28, 56]
    for days in plan_lengths(builtin_bank):
        (plan,) = plans_of_length(builtin_bank, days)
        laid_out = schedule(builtin_bank, plan, date(2026, 12, 1), {}, NOW)

        assert [d.day for d in laid_out.days] == list(range(1, days + 1))
        assert [d.date for d in laid_out.days] == [
            date(2026, 12, 1) + timedelta(days=n) for n in range(days)
        ]
        assert all(d.items for d in laid_out.days)
        assert [d.day for d in laid_out.days if d.is_today] == [2]


def test_today_starts_with_the_due_cards_its_items_do_not_already_ask_for(fixture_bank):
    plan = fixture_bank.plans["fx-two-days"]
    cards = {
        "fx-ridge-meaning": Card(card_id=1, due=NOW - timedelta(days=1)),  # day 1's topic
        "fx-coalescing": Card(card_id=2, due=NOW + timedelta(hours=3)),  # due later today
        "fx-copy-time": Card(card_id=3, due=NOW + timedelta(days=3)),  # not due
    }

    laid_out = schedule(fixture_bank, plan, NOW.date(), cards, NOW)

    today = laid_out.today
    assert today.day == 1 and today.title == "Bandwidth"
    assert [item.kind for item in today.items] == ["review", "topic"]
    assert today.items[0].question_ids == ("fx-coalescing",)
    assert today.items[0].note == "1 card due for review today"
    assert today.items[1].question_ids[0] == "fx-ridge-meaning"
    assert laid_out.due_today == ("fx-ridge-meaning", "fx-coalescing")
    assert laid_out.days[1].items[0].kind == "topic"  # tomorrow has no review merged in


def test_due_today_is_the_home_screens_count(builtin_bank):
    ids = list(builtin_bank.questions)
    cards = {
        qid: Card(card_id=n + 1, due=NOW + timedelta(hours=h))
        for n, (qid, h) in enumerate(zip(ids, (-30, -1, 2, 8, 9, 30, 100), strict=False))
    }

    due = due_question_ids(builtin_bank, cards, NOW)

    assert len(due) == progress(builtin_bank, cards, [], NOW).due_today == 4
    assert due == tuple(ids[:4])


def test_a_day_the_plan_leaves_free_is_a_review_day(fixture_bank):
    plan = fixture_bank.plans["fx-two-days"]
    with_gap = Plan.model_validate(
        {
            **plan.model_dump(),
            "days": [plan.days[0].model_dump(), {**plan.days[1].model_dump(), "day": 3}],
        }
    )
    cards = {"fx-copy-time": Card(card_id=3, due=NOW + timedelta(days=1))}

    laid_out = schedule(fixture_bank, with_gap, NOW.date(), cards, NOW)

    rest = laid_out.days[1]
    assert (rest.day, rest.title) == (2, "Rest and review")
    assert [(i.kind, i.question_ids) for i in rest.items] == [("review", ("fx-copy-time",))]


def test_the_plan_starts_when_the_user_started_it_else_today(fixture_bank):
    plan = fixture_bank.plans["fx-two-days"]

    assert plan_start(plan, {}, NOW) == NOW.date()
    assert plan_start(plan, {"fx-two-days": NOW - timedelta(days=1)}, NOW) == date(2026, 12, 1)


def test_the_json_has_one_entry_per_day_with_its_date_and_items(fixture_bank):
    laid_out = schedule(
        fixture_bank, fixture_bank.plans["fx-two-days"], date(2026, 12, 1), {}, NOW
    ).to_json()

    assert laid_out["plan"] == "fx-two-days" and laid_out["today"] == 2
    assert [(d["day"], d["date"]) for d in laid_out["days"]] == [
        (1, "2026-12-01"),
        (2, "2026-12-02"),
    ]
    assert laid_out["days"][1]["items"] == [
        {
            "kind": "topic",
            "topic": "memory",
            "count": 1,
            "note": "",
            "question_ids": ["fx-coalescing"],
        },
        {
            "kind": "question",
            "question": "fx-copy-time",
            "note": "",
            "question_ids": ["fx-copy-time"],
        },
    ]
