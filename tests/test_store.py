"""The progress store: attempts and reviews survive a restart, writes are atomic, a bad file is kept."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating, Scheduler

from gpuprep.store.database import Store, StoreError, default_path
from gpuprep.store.migrations import SCHEMA_VERSION
from gpuprep.store.records import Attempt, DrillResult

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_the_store_lives_in_gpuprep_home(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUPREP_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / "progress.db"
    opened = Store.open()
    assert (tmp_path / "home" / "progress.db").exists()
    opened.close()


def test_a_new_database_is_migrated_to_the_current_schema_in_wal_mode(store):
    assert store.schema_version == SCHEMA_VERSION
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_an_attempt_survives_reopening(tmp_path):
    path = tmp_path / "progress.db"
    first = Store(path)
    attempt_id = first.record_attempt(
        Attempt(
            question_id="roofline-gemm-time",
            kind="estimation",
            verdict="close",
            started_at=NOW,
            seconds_taken=42.5,
            answer="1.5 ms",
            variant={"gpu": "h100_sxm", "params": {"M": 8192}},
            hints_used=1,
        )
    )
    first.close()
    again = Store(path)
    [saved] = again.attempts()
    assert saved.id == attempt_id
    assert (saved.answer, saved.verdict, saved.hints_used) == ("1.5 ms", "close", 1)
    assert saved.variant == {"gpu": "h100_sxm", "params": {"M": 8192}}
    assert saved.started_at == NOW
    again.close()


def test_a_review_saves_the_card_its_log_and_the_rated_attempt_together(store):
    attempt_id = store.record_attempt(
        Attempt(
            question_id="q1", kind="concept", verdict="revealed", started_at=NOW, seconds_taken=30
        )
    )
    scheduler = Scheduler(enable_fuzzing=False)
    card, log = scheduler.review_card(Card(card_id=7, due=NOW), Rating.Good, NOW)
    rated = Attempt(
        id=attempt_id,
        question_id="q1",
        kind="concept",
        verdict="revealed",
        started_at=NOW,
        seconds_taken=30,
        signals_hit=(0, 2),
        hints_used=1,
    )
    store.save_review("q1", card, log, attempt=rated)
    saved = store.card("q1")
    assert saved is not None and saved.due == card.due and saved.card_id == 7
    [(question_id, saved_log)] = store.review_logs()
    assert question_id == "q1" and saved_log.rating == Rating.Good
    [attempt] = store.attempts("q1")
    assert attempt.rating == int(Rating.Good) and attempt.signals_hit == (0, 2)


def test_a_failed_write_leaves_nothing_behind(store):
    with pytest.raises(RuntimeError, match="killed half way"), store.transaction() as db:
        db.execute(
            "INSERT INTO attempts (question_id, kind, verdict, started_at, seconds_taken)"
            " VALUES ('q', 'concept', 'x', '2026-01-01T00:00:00+00:00', 1)"
        )
        raise RuntimeError("killed half way")
    assert store.attempts() == []


def test_naive_datetimes_are_refused(store):
    with pytest.raises(ValueError, match="UTC"):
        store.record_attempt(
            Attempt(
                question_id="q",
                kind="concept",
                verdict="x",
                started_at=datetime(2026, 1, 1),
                seconds_taken=1,
            )
        )


def test_a_corrupt_database_is_moved_aside_not_wiped(tmp_path):
    path = tmp_path / "progress.db"
    path.write_bytes(b"this is not an sqlite file, it is someone's notes" * 50)
    opened = Store(path, now=NOW)
    assert opened.recovered_from == tmp_path / "progress.db.corrupt-20261130T090000Z"
    assert opened.recovered_from.read_bytes().startswith(b"this is not an sqlite file")
    assert (
        "moved to" in opened.recovery_message and "nothing was deleted" in opened.recovery_message
    )
    assert opened.attempts() == []
    opened.close()


def test_a_database_from_a_newer_gpuprep_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "progress.db"
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(StoreError, match="newer gpuprep"):
        Store(path)
    assert path.exists()


def test_drill_results_round_trip(store):
    store.record_drill_result(
        DrillResult(
            drill_id="vector_add",
            language="triton",
            submitted_at=NOW,
            passed=True,
            summary="2.9 TB/s, 87% of HBM roof",
            detail={"rung": "v1_vectorized"},
        )
    )
    store.record_drill_result(
        DrillResult(
            drill_id="softmax",
            language="triton",
            submitted_at=NOW + timedelta(minutes=1),
            passed=False,
        )
    )
    [result] = store.drill_results("vector_add")
    assert result.passed and result.detail == {"rung": "v1_vectorized"}
    assert [r.drill_id for r in store.drill_results()] == ["vector_add", "softmax"]


def test_a_version_1_database_is_migrated_and_keeps_its_attempts(tmp_path):
    from gpuprep.store.migrations import MIGRATIONS

    path = tmp_path / "progress.db"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0])
    old.execute(
        "INSERT INTO attempts (question_id, kind, verdict, started_at, seconds_taken)"
        " VALUES ('q', 'concept', 'revealed', '2026-11-01T00:00:00+00:00', 3)"
    )
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION >= 2
    assert [a.question_id for a in store.attempts()] == ["q"]
    store.start_plan("three-days", NOW)
    assert store.plan_runs() == {"three-days": NOW}
    store.close()


def test_restarting_a_plan_moves_its_start(store):
    store.start_plan("p", NOW)
    store.start_plan("p", NOW + timedelta(days=3))
    assert store.plan_runs() == {"p": NOW + timedelta(days=3)}
    store.stop_plan("p")
    assert store.plan_runs() == {}
