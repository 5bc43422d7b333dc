"""Following a prep plan: today's day and the questions it asks for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Card

from gpuprep.bank.loader import load_bank
from gpuprep.sessions.plans import day_questions, plan_session_filter, plan_today

FIXTURE_BANK = Path(__file__).parent / "tui" / "fixtures" / "bank"
START = datetime(2026, 11, 30, 22, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def bank():
    loaded, problems = load_bank([FIXTURE_BANK], builtin=False)
    assert problems == []
    return loaded


def test_day_one_is_the_start_day_and_the_next_calendar_day_is_day_two(bank):
    plan = bank.plans["fx-two-days"]
    assert plan_today(plan, START, START + timedelta(hours=1)).day_number == 1
    tomorrow = plan_today(plan, START, START + timedelta(hours=3))
    assert (tomorrow.day_number, tomorrow.day.title) == (2, "Memory")
    finished = plan_today(plan, START, START + timedelta(days=2, hours=3))
    assert finished.finished and "finished" in finished.describe()


def test_a_day_asks_for_due_then_new_questions_of_its_topics_and_the_named_ones(bank):
    plan = bank.plans["fx-two-days"]
    cards = {"fx-ridge-meaning": Card(card_id=1, due=START - timedelta(days=1))}
    assert day_questions(bank, plan.days[0], cards, START) == ("fx-ridge-meaning", "fx-copy-time")
    assert day_questions(bank, plan.days[1], {}, START) == ("fx-coalescing", "fx-copy-time")


def test_the_plan_session_is_labelled_with_the_day(bank):
    today = plan_today(bank.plans["fx-two-days"], START, START)
    practice = plan_session_filter(bank, today, {}, START)
    assert practice.describe() == "Day 1 of 2, Two days of fixtures: Bandwidth"
    assert set(practice.questions) == {"fx-copy-time", "fx-ridge-meaning"}
