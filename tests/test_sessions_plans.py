"""Following a prep plan: today's day and the questions it asks for; the built-in plans' shape."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card

from gpuprep.sessions.checked_bank import load_clean_bank
from gpuprep.sessions.plans import day_questions, plan_session_filter, plan_today

START = datetime(2026, 11, 30, 22, 0, tzinfo=UTC)


def test_day_one_is_the_start_day_and_the_next_calendar_day_is_day_two(fixture_bank):
    plan = fixture_bank.plans["fx-two-days"]
    assert plan_today(plan, START, START + timedelta(hours=1)).day_number == 1
    tomorrow = plan_today(plan, START, START + timedelta(hours=3))
    assert (tomorrow.day_number, tomorrow.day.title) == (2, "Memory")
    finished = plan_today(plan, START, START + timedelta(days=2, hours=3))
    assert finished.finished and "finished" in finished.describe()


def test_a_day_asks_for_due_then_new_questions_of_its_topics_and_the_named_ones(fixture_bank):
    plan = fixture_bank.plans["fx-two-days"]
    cards = {"fx-ridge-meaning": Card(card_id=1, due=START - timedelta(days=1))}
    assert day_questions(fixture_bank, plan.days[0], cards, START) == (
        "fx-ridge-meaning",
        "fx-copy-time",
    )
    assert day_questions(fixture_bank, plan.days[1], {}, START) == ("fx-coalescing", "fx-copy-time")


def test_the_plan_session_is_labelled_with_the_day(fixture_bank):
    today = plan_today(fixture_bank.plans["fx-two-days"], START, START)
    practice = plan_session_filter(fixture_bank, today, {}, START)
    assert practice.describe() == "Day 1 of 2, Two days of fixtures: Bandwidth"
    assert set(practice.questions) == {"fx-copy-time", "fx-ridge-meaning"}


# --- The built-in plans (issue 12: 3 to 56 days, ramping, with mocks placed) ----------------

PLAN_LENGTHS = {3, 7, 14, 28, 56}
MOCK = re.compile(r"gpuprep mock --minutes (\d+) --track ([a-z]+)")
#: Where each topic sits on the ramp: the performance model, kernels, the system level.
#: Topics that serve more than one stage (streams, host-device, amd) are left out.
STAGES = {
    **dict.fromkeys(("roofline", "memory-hierarchy", "latency-hiding"), 0),
    **dict.fromkeys(
        (
            "coalescing",
            "shared-memory",
            "warps",
            "atomics-sync",
            "tensor-cores",
            "hopper-blackwell",
            "triton",
            "matmul",
            "flash-attention",
            "scan",
            "layernorm",
            "kernel-patterns",
            "kernel-coding",
            "profiling",
            "debugging",
        ),
        1,
    ),
    **dict.fromkeys(
        (
            "inference",
            "training",
            "quantization",
            "distributed",
            "system-design",
            "experience",
            "benchmarking",
        ),
        2,
    ),
}


@pytest.fixture(scope="module")
def builtin():
    return load_clean_bank()


def _mocks(plan) -> dict[int, tuple[int, str]]:
    """Day number -> (minutes, track) of the mock a day's title or notes place."""
    found = {}
    for day in plan.days:
        text = " ".join([day.title, *(item.note for item in day.items)])
        if match := MOCK.search(text):
            found[day.day] = (int(match[1]), match[2])
    return found


def test_there_is_one_built_in_plan_for_each_length_gpuprep_plan_offers(builtin):
    lengths = sorted(len(plan.days) for plan in builtin.plans.values())
    assert lengths == sorted(PLAN_LENGTHS)
    for plan in builtin.plans.values():
        numbers = [day.day for day in plan.days]
        assert numbers == list(range(1, len(plan.days) + 1)), (
            f"{plan.id}: days must run 1, 2, ... without gaps (gpuprep plan shows every day): "
            f"{numbers}"
        )


def test_every_day_of_a_built_in_plan_asks_for_questions_that_fit_an_evening(builtin):
    for plan in builtin.plans.values():
        for day in plan.days:
            asked = day_questions(builtin, day, {}, START)
            minutes = sum(builtin.questions[q].minutes for q in asked)
            assert asked, f"{plan.id} day {day.day} asks for nothing"
            assert minutes <= 150, f"{plan.id} day {day.day}: {minutes} minutes of questions"
            for item in day.items:
                if item.topic is not None:
                    held = sum(q.topic == item.topic for q in builtin.questions.values())
                    assert item.count <= held, f"{plan.id} day {day.day}: {item.topic}"


def test_built_in_plans_ramp_from_the_performance_model_to_kernels_to_the_system_level(
    builtin,
):
    for plan in builtin.plans.values():
        mock_days = _mocks(plan)
        ramp = []
        for day in plan.days:
            stages = Counter(
                STAGES[builtin.questions[q].topic]
                for q in day_questions(builtin, day, {}, START)
                if builtin.questions[q].topic in STAGES
            )
            if day.day == 1:
                assert set(stages) == {0}, f"{plan.id} opens with stages {dict(stages)}"
            if day.day == len(plan.days):
                assert 2 in stages, f"{plan.id} ends without the system level"
            # A mock day reviews what came before, so it may step back; other days may not.
            if stages and day.day not in mock_days:
                ramp.append((day.day, max(stages, key=lambda stage: (stages[stage], stage))))
        falls = [(a, b) for a, b in zip(ramp, ramp[1:], strict=False) if b[1] < a[1]]
        assert not falls, f"{plan.id} steps back down the ramp: (day, stage) pairs {falls}"


def test_built_in_plans_place_mock_interviews_the_mock_command_accepts(builtin):
    for plan in builtin.plans.values():
        mocks = _mocks(plan)
        assert len(plan.days) in mocks, f"{plan.id} does not end with a mock"
        # A mock closes most weeks: all but one of a long plan's weeks have one.
        assert len(mocks) >= max(1, len(plan.days) // 7 - 1), (plan.id, sorted(mocks))
        for day, (minutes, track) in mocks.items():
            assert minutes in {45, 60, 90}, (plan.id, day, minutes)
            assert track in {"kernel", "inference", "training", "general"}, (plan.id, day, track)
            assert day > 1, f"{plan.id}: a mock on day 1 comes before any preparation"
