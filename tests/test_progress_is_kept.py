"""Progress a user earned stays as earned: a re-reviewed card moves its due date, a migration
that fails half-way leaves the database as it was, and a Good self-rating counts as a success.
(Issue 19: each of these was a planted bug the suite let through.)"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler

from gpuprep.sessions.stats import succeeded
from gpuprep.store import database, migrations
from gpuprep.store.database import Store, StoreError
from gpuprep.store.records import Attempt

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_a_card_reviewed_again_takes_its_new_due_date(tmp_path):
    store = Store(tmp_path / "progress.db")
    scheduler = Scheduler(enable_fuzzing=False)
    card, log = scheduler.review_card(Card(card_id=1, due=NOW), Rating.Good, NOW)
    store.save_review("q1", card, log)
    first_due = store.card("q1").due
    later = card.due + timedelta(minutes=1)
    card, log = scheduler.review_card(card, Rating.Easy, later)
    store.save_review("q1", card, log)
    saved = store.card("q1")
    assert saved.due == card.due and saved.due > first_due
    assert saved.stability == pytest.approx(card.stability)
    assert len(store.review_logs("q1")) == 2
    store.close()


def test_a_migration_that_fails_half_way_leaves_no_table_and_no_new_version(tmp_path, monkeypatch):
    path = tmp_path / "progress.db"
    Store(path).close()
    broken = (
        "CREATE TABLE half_done (id INTEGER PRIMARY KEY);"
        " CREATE TABLE half_done (id INTEGER PRIMARY KEY)"  # fails: already exists
    )
    monkeypatch.setattr(database, "MIGRATIONS", (*migrations.MIGRATIONS, broken))
    monkeypatch.setattr(database, "SCHEMA_VERSION", migrations.SCHEMA_VERSION + 1)
    with pytest.raises(StoreError, match="half_done already exists"):
        Store(path)
    raw = sqlite3.connect(path)
    tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    version = raw.execute("PRAGMA user_version").fetchone()[0]
    raw.close()
    assert "half_done" not in tables
    assert version == migrations.SCHEMA_VERSION


@pytest.mark.parametrize(
    "rating, went_well", [(1, False), (2, False), (3, True), (4, True)]
)
def test_a_self_rating_of_good_or_easy_counts_as_a_success(rating, went_well):
    attempt = Attempt(
        question_id="q1",
        kind="concept",
        verdict="rated",
        started_at=NOW,
        seconds_taken=30.0,
        rating=rating,
    )
    assert succeeded(attempt) is went_well
